"""Per-group error rates at one global threshold: FMR and FNMR per group, and the cross-group
FMR matrix.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd
import xarray as xr

from .._core.options import NonFinite, Orientation
from .._core.schema import SchemaError
from .._core.validation import check_confidence_level
from .._core.validation import check_n_resamples as _check_resamples
from ._plan import (
    _BOOT,
    _CLUSTER,
    _WILSON,
    ERROR_REFERENCE_NEEDED,
    GROUP_RATE_COLUMNS,
    INTERVAL_METHODS,
    GroupCriterion,
    Impostors,
    IntervalMethod,
    _boot_bounds,
    _cluster_counts,
    _cluster_wilson,
    _counts,
    _doc,
    _frame,
    _group_replicates,
    _method,
    _plan,
    _rng,
    _two_way_wilson,
    _wilson,
)


# ----------------------------------------------------------------------------- public API
@_doc
def group_rates(
    data: pd.DataFrame,
    /,
    *,
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
    threshold: GroupCriterion | float = "fmr",
    target: float = 1e-3,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = None,
    ci_method: IntervalMethod = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""FMR and FNMR of every demographic group at one global threshold per system.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table (module docstring).
    {common}
    ci_method : {"auto", "wilson", "wilson_cluster", "bootstrap"}
        Interval of each rate. ``"auto"``: ``"wilson_cluster"`` when the table has a
        subject column (trials of one person are not independent, and binomial intervals
        are then too narrow): the Wilson interval on the effective sample size
        N / design effect of the subject clusters, with Student's t on (subjects − 1)
        degrees of freedom (Korn & Graubard, 1998); a rate of 0 or 1 uses n = the number
        of subjects. Without subjects, the Wilson score interval. ``"bootstrap"``:
        subjects resampled within the group, percentile interval (a rate of 0 or 1: Wilson
        with n = subjects, or trials without a subject column). Measured coverage:
        docs/validity.md.
    confidence_level : float
        Level of the intervals.
    n_resamples, seed
        Bootstrap replicates and seed.

    Returns
    -------
    DataFrame
        One row per (system, reported split, group), groups in order of first appearance
        (or category order):

        - ``system``, ``split``, ``group``; ``impostors``;
        - ``criterion`` (``"fmr"``, ``"eer"`` or ``"fixed"``), ``target`` (NaN unless
          ``"fmr"``), ``threshold_split`` (None when fixed), ``threshold_from`` (the
          split the threshold was chosen on, ``"same trials"`` or ``"fixed"``),
          ``threshold`` (score units);
        - ``n_genuine``, ``n_impostor``: counted trials of the group; ``n_subjects``:
          subjects with counted trials in the group (NaN without a subject column);
        - ``fa``, ``fr``: false matches and false non-matches;
        - ``fmr`` = fa / n_impostor, ``fnmr`` = fr / n_genuine, with ``*_low``, ``*_high``;
        - ``ci_method`` (``"wilson"``, ``"wilson_cluster"`` or ``"bootstrap"``),
          ``confidence_level``.

    Raises
    ------
    SchemaError
        Missing columns or group values, a genuine trial across groups, no counted
        impostor.
    ValueError
        An unknown option or an out-of-range number.
    TypeError
        A dask DataFrame (:data:`ERROR_DASK`).

    See Also
    --------
    fairness, compare_groups, cross_group_fmr

    References
    ----------
    ISO/IEC 19795-10:2024. Biometric performance testing and reporting — Part 10:
    Quantifying biometric system performance variation across demographic groups.

    Examples
    --------
    >>> trials = pbs.datasets.example_demographic_trials()
    >>> r = pbs.group_rates(trials, target=0.01, seed=0)
    >>> r[["system", "split", "group", "n_impostor", "fa", "fmr"]].head(3)
      system split group  n_impostor  fa       fmr
    0  net_a  eval     A         480   6  0.012500
    1  net_a  eval     B         480   3  0.006250
    2  net_a  eval     C         480   7  0.014583
    """
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite, reference_subject=reference_subject,
    )
    level = check_confidence_level(confidence_level)
    how = _method(ci_method, plan, INTERVAL_METHODS, _CLUSTER, "ci_method")
    n_resamples = _check_resamples(n_resamples)
    rng = _rng(seed)
    k = len(plan.labels)
    n_clusters = plan.cluster_group.size
    rows = []
    for rep in plan.reported:
        n_gen, n_imp, fr, fa = _counts(rep.part, rep.threshold, k)
        cc = (_cluster_counts(rep.part, rep.threshold, n_clusters)
              if how in (_BOOT, _CLUSTER) else None)
        for j, name in enumerate(plan.labels):
            if n_gen[j] + n_imp[j] == 0:
                continue
            members = None
            if cc is not None:  # clusters of the group: subjects, or trials without subjects
                members = np.flatnonzero((plan.cluster_group == j) & ((cc[0] + cc[2]) > 0))
            if plan.has_subject:
                held = np.zeros(plan.cluster_group.size, dtype=bool)
                held[rep.part.cluster[rep.part.counted & (rep.part.group == j)]] = True
                n_subj = int(held.sum())
            else:
                n_subj = float("nan")
            fmr = fa[j] / n_imp[j] if n_imp[j] else float("nan")
            fnmr = fr[j] / n_gen[j] if n_gen[j] else float("nan")
            if how == _BOOT:
                rf, rn = _group_replicates(rng, n_resamples, plan, rep.part, rep.threshold, j, cc)
                bounds = [
                    _boot_bounds(rf, fa[j], n_imp[j], int((cc[2][members] > 0).sum()), level),
                    _boot_bounds(rn, fr[j], n_gen[j], int((cc[0][members] > 0).sum()), level),
                ]
            elif how == _CLUSTER:
                bounds = [_two_way_wilson(rep.part, rep.threshold, j, level) if plan.two_way
                          else _cluster_wilson(cc[3][members], cc[2][members], level),
                          _cluster_wilson(cc[1][members], cc[0][members], level)]
            else:
                bounds = [_wilson(fa[j], n_imp[j], level), _wilson(fr[j], n_gen[j], level)]
            rows.append(dict(
                system=rep.part.system, split=rep.part.split, group=name, impostors=plan.impostors,
                criterion=plan.criterion, target=plan.target, threshold_split=rep.threshold_split,
                threshold_from=rep.threshold_from,
                threshold=plan.sign * rep.threshold, n_genuine=int(n_gen[j]),
                n_impostor=int(n_imp[j]), n_subjects=n_subj, fa=int(fa[j]), fr=int(fr[j]),
                fmr=fmr, fmr_low=bounds[0][0], fmr_high=bounds[0][1], fnmr=fnmr,
                fnmr_low=bounds[1][0], fnmr_high=bounds[1][1], ci_method=how,
                confidence_level=level, resample=None if how == _WILSON else plan.resample,
            ))
    return _frame(rows, GROUP_RATE_COLUMNS)


@_doc
def cross_group_fmr(
    data: pd.DataFrame,
    /,
    *,
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
    threshold: GroupCriterion | float = "fmr",
    target: float = 1e-3,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> xr.Dataset:
    r"""FMR of every (probe group, reference group) cell at the global threshold.

    The threshold is chosen as in :func:`group_rates` (on the counted trials, so
    ``impostors`` changes the threshold); the matrix then counts every impostor trial.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table with both group columns.
    {common}

    Returns
    -------
    Dataset
        Dims ``system``, ``split``, ``group`` (probe), ``reference_group``; variables
        ``fmr`` (NaN where a cell has no impostor trial), ``fa``, ``n_impostor`` over all
        four, and ``threshold`` over (system, split); ``split`` is ``""`` when the table
        has no split column. Scalar coords ``impostors``,
        ``criterion``, ``target``; attrs ``kind="cross_group_fmr"``.

    Raises
    ------
    SchemaError
        Without ``reference_group`` (:data:`ERROR_REFERENCE_NEEDED`), and as
        :func:`group_rates`.

    Examples
    --------
    >>> ds = pbs.cross_group_fmr(pbs.datasets.example_demographic_trials(), target=0.1)
    >>> ds.fa.sel(system="net_b", split="eval").values.tolist()  # rows: probe group
    [[9, 0, 0], [0, 34, 1], [0, 0, 96]]
    >>> ds.fmr.sel(system="net_b", split="eval").round(3).values.tolist()
    [[0.019, 0.0, 0.0], [0.0, 0.071, 0.017], [0.0, 0.0, 0.2]]
    """
    if reference_group is None:
        raise SchemaError(ERROR_REFERENCE_NEEDED.format(function="cross_group_fmr"))
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite,
    )
    k = len(plan.labels)
    systems = list(dict.fromkeys(r.part.system for r in plan.reported))
    splits = list(dict.fromkeys(r.part.split for r in plan.reported))
    fa = np.zeros((len(systems), len(splits), k, k), dtype=np.int64)
    n = np.zeros_like(fa)
    thr = np.full((len(systems), len(splits)), np.nan)
    for rep in plan.reported:
        i, s = systems.index(rep.part.system), splits.index(rep.part.split)
        p = rep.part
        imp = ~p.genuine
        cell = p.group[imp] * k + p.reference[imp]
        acc = p.scores[imp] >= rep.threshold
        n[i, s] = np.bincount(cell, minlength=k * k).reshape(k, k)
        fa[i, s] = np.bincount(cell[acc], minlength=k * k).reshape(k, k)
        thr[i, s] = plan.sign * rep.threshold
    with np.errstate(divide="ignore", invalid="ignore"):
        fmr = np.where(n > 0, fa / np.where(n > 0, n, 1), np.nan)
    dims = ("system", "split", "group", "reference_group")
    ds = xr.Dataset(
        {
            "fmr": (dims, fmr, {"long_name": "false match rate", "units": "1"}),
            "fa": (dims, fa, {"long_name": "false matches", "units": "trials"}),
            "n_impostor": (dims, n, {"long_name": "impostor trials", "units": "trials"}),
            "threshold": (("system", "split"), thr, {"long_name": "global threshold",
                                                     "units": "score"}),
        },
        coords={
            "system": systems, "split": ["" if s is None else s for s in splits],
            "group": plan.labels, "reference_group": plan.labels,
            "impostors": plan.impostors, "criterion": plan.criterion, "target": plan.target,
        },
        attrs={"kind": "cross_group_fmr", "orientation": orientation},
    )
    return ds
