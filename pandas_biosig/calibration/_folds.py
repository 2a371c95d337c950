"""Cross-fitting folds: which trials of one split each calibration map may not see.

Every trial of a (``by`` group, split) gets one fold number, the same for every system
that scored it (folds are drawn over the trial ids of all the split's systems), so that
the cross-fitted LLRs of calibrated systems and of a fusion are held out in the same way.
With a subject column, whole subjects are dealt into folds (a subject's trials are never
on both sides of a fit); without one, the trials of each class are dealt separately, so
each fold holds its share of both classes (stratified folds).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._core.protocol import subject_clusters
from .._core.schema import Group, SchemaError
from .._core.validation import check_count

__all__ = ["ERROR_FEW_UNITS", "ERROR_FOLDS", "ERROR_FOLD_ONE_CLASS", "assign_folds",
           "check_folds"]

ERROR_FOLDS = (
    "folds={value!r} must be an integer of at least 2: cross-fitting fits each map on all "
    "folds but one"
)
ERROR_FEW_UNITS = (
    "{where} has {n} {unit}(s), too few to deal into folds={k} cross-fitting folds; pass "
    "fewer folds, or a development split to fit on"
)
ERROR_FOLD_ONE_CLASS = (
    "{where}: without fold {fold} of {k}, {n_genuine} genuine and {n_impostor} impostor "
    "trial(s) are left to fit on; every cross-fitted map needs both classes (pass fewer "
    "folds)"
)


def check_folds(folds) -> int:
    """``folds`` as an int >= 2, else ``ValueError`` (:data:`ERROR_FOLDS`)."""
    try:
        k = check_count(folds, "folds", positive=True)
    except ValueError:
        raise ValueError(ERROR_FOLDS.format(value=folds)) from None
    if k < 2:
        raise ValueError(ERROR_FOLDS.format(value=folds))
    return k


def assign_folds(groups: Sequence[Group], k: int, rng: np.random.Generator,
                 where: str) -> list[np.ndarray]:
    """One fold number in ``0..k-1`` per trial of each group (the groups of one split).

    A trial id has one fold whatever system scored it; its label and subject are read
    from the first group that holds it.
    """
    ids = np.concatenate([g.trial for g in groups])
    codes, uniques = pd.factorize(ids)
    _, first = np.unique(codes, return_index=True)
    genuine = np.concatenate([g.genuine for g in groups])[first]
    fold = np.empty(len(uniques), dtype=np.int64)
    if groups[0].subject is not None:
        subject = np.concatenate([g.subject for g in groups])[first]
        clusters, n_subjects = subject_clusters(subject, where)
        if n_subjects < k:
            raise SchemaError(ERROR_FEW_UNITS.format(where=where, n=n_subjects,
                                                     unit="subject", k=k))
        of_subject = np.empty(n_subjects, dtype=np.int64)
        of_subject[rng.permutation(n_subjects)] = np.arange(n_subjects) % k
        fold = of_subject[clusters]
    else:
        for cls in (False, True):
            idx = np.flatnonzero(genuine == cls)
            if idx.size < k:
                unit = "genuine trial" if cls else "impostor trial"
                raise SchemaError(ERROR_FEW_UNITS.format(where=where, n=idx.size, unit=unit,
                                                         k=k))
            fold[idx[rng.permutation(idx.size)]] = np.arange(idx.size) % k
    _check_complements(fold, genuine, k, where)
    out, start = [], 0
    for g in groups:
        out.append(fold[codes[start:start + g.trial.size]])
        start += g.trial.size
    return out


def _check_complements(fold: np.ndarray, genuine: np.ndarray, k: int, where: str) -> None:
    """Every fold's complement (a map's training trials) holds both classes."""
    n_gen = np.bincount(fold[genuine], minlength=k)
    n_imp = np.bincount(fold[~genuine], minlength=k)
    for f in range(k):
        left_gen, left_imp = n_gen.sum() - n_gen[f], n_imp.sum() - n_imp[f]
        if left_gen == 0 or left_imp == 0:
            raise SchemaError(ERROR_FOLD_ONE_CLASS.format(
                where=where, fold=f, k=k, n_genuine=int(left_gen), n_impostor=int(left_imp)))
