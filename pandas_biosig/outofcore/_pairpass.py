"""The aligned pass of the pairwise tables: every trial's rows in one partition (dask's
shuffle on ``trial``, or a table indexed by trial), each family's error co-occurrence
counts summed over the partitions, and the alignment checked on the way (each trial once
per system, scored by every system, with one label and, for the subject bootstrap, one
subject). A documented internal module: :mod:`pandas_biosig.outofcore._pairwise` is its
user.
"""

from __future__ import annotations

import functools
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._core.replicates import ERROR_LABELS_DIFFER
from .._core.schema import SchemaError, scalar_value
from .._kernels.pairwise import decision_errors, pair_counts
from ._engine import _Engine, _split

if TYPE_CHECKING:  # not at import: see pandas_biosig.outofcore._engine
    import dask.dataframe as dd

__all__ = [
    "ERROR_PAIR_DUPLICATES", "ERROR_PAIR_MISSING", "ERROR_SUBJECTS_DIFFER", "families_of", "pair_pass",
]

ERROR_PAIR_DUPLICATES = (
    "{n} (system, trial) pair(s) appear more than once, e.g. {examples}; each (system, trial) "
    "must appear once"
)
ERROR_PAIR_MISSING = (
    "{n} trial(s) are not scored by every system, e.g. {examples}; pass common_trials=True "
    "to keep only the trials that all systems scored"
)
ERROR_SUBJECTS_DIFFER = (
    "{n} trial(s) have another subject in another system, e.g. {examples}; the subject "
    "bootstrap out of core sums each system's trials per subject, so each trial needs one "
    "subject in every system (compute() the table, or resample='label')"
)


def _compact(pdf, spec, codes, meta, subject=None):
    """One partition as ``(trial, group code, genuine, oriented score)``: validated, small
    and string-free, so that the shuffle on ``trial`` moves as few bytes as possible; with
    ``subject``, each trial's subject id hashed to 64 bits beside them."""
    part = _split(pdf, spec, trials=True)
    subjects = None
    if subject is not None:  # the same groups in the same order, the subjects as trials
        subjects = [pd.util.hash_array(np.asarray(v, dtype=object))
                    for _, _, _, v in _split(pdf, replace(spec, trial=subject), trials=True).groups]
    pieces = []
    for i, (key, s, g, t) in enumerate(part.groups):
        if key in codes:
            piece = {"trial": t, "group": np.full(s.size, codes[key], np.int32), "genuine": g,
                     "score": s}
            if subjects is not None:
                piece["subject"] = subjects[i]
            pieces.append(pd.DataFrame(piece))
    return pd.concat(pieces, ignore_index=True) if pieces else meta


def _pair_chunk(pdf, index, families, where, common):
    """Pairwise error co-occurrence counts of one partition whose trials are complete.

    ``families`` lists ``(family, [(system, threshold)])``; ``where[code]`` is the
    ``(family index, column)`` of a group code. Returns, per family, the sums of
    :func:`pair_counts` and the alignment problems found (duplicate rows, missing trials,
    labels that differ).
    """
    out: dict[str, Any] = dict(counts={}, errors=_no_errors())
    if len(pdf) == 0:
        return out
    code = pdf["group"].to_numpy()
    fam_of, col_of = where[code, 0], where[code, 1]
    trial_all = pdf["trial"].to_numpy()
    score_all = pdf["score"].to_numpy()
    gen_all = pdf["genuine"].to_numpy()
    for f in np.unique(fam_of):
        fam, systems = families[f]
        sel = np.flatnonzero(fam_of == f)
        codes, uniques = pd.factorize(trial_all[sel], use_na_sentinel=False)
        k, m = len(uniques), len(systems)
        flat = codes * m + col_of[sel]
        seen = np.bincount(flat, minlength=k * m).reshape(k, m)
        score: np.ndarray = np.full(k * m, -np.inf)
        gen: np.ndarray = np.zeros(k * m, dtype=np.int8)
        score[flat] = score_all[sel]
        gen[flat] = gen_all[sel]
        score, gen = score.reshape(k, m), gen.reshape(k, m)
        dup = (seen > 1).any(axis=1)
        _note(out["errors"]["dup"], uniques[dup])
        present = seen > 0
        complete = present.all(axis=1)
        if not common:
            _note(out["errors"]["missing"], uniques[~complete])
        lo = np.where(present, gen, 1).min(axis=1)
        hi = np.where(present, gen, 0).max(axis=1)
        _note(out["errors"]["labels"], uniques[present.any(axis=1) & (lo != hi)])
        if "subject" in pdf.columns:
            _note(out["errors"]["subjects"],
                  uniques[_differ(pdf["subject"].to_numpy()[sel], flat, present)])
        keep = ~dup if common else complete & ~dup
        genuine = hi[keep].astype(bool)
        errors = np.empty((int(keep.sum()), m), dtype=np.float32, order="F")
        for j, (_, t) in enumerate(systems):
            errors[:, j] = decision_errors(score[keep, j], t, genuine)
        pres = None
        # numpy's stubs type all(axis=1) as a scalar or an array
        if common and not complete[keep].all():  # type: ignore[index]
            pres = present[keep].astype(np.float32)
            errors *= pres
        counts = pair_counts(errors, genuine, pres)
        cur = out["counts"].get(fam)
        out["counts"][fam] = counts if cur is None else {n: cur[n] + counts[n] for n in counts}
    return out


def _no_errors() -> dict:
    return {"dup": [0, []], "missing": [0, []], "labels": [0, []], "subjects": [0, []]}


def _differ(values: np.ndarray, flat: np.ndarray, present: np.ndarray) -> np.ndarray:
    """The trials (rows of ``present``, trials x systems) whose systems give them
    different ``values`` (``flat``: each value's cell)."""
    k, m = present.shape
    cell = np.zeros(k * m, dtype=values.dtype)
    cell[flat] = values
    cell = cell.reshape(k, m)
    top = np.iinfo(values.dtype).max
    return present.any(axis=1) & (np.where(present, cell, top).min(axis=1)
                                  != np.where(present, cell, 0).max(axis=1))


def _note(slot, values):
    slot[0] += len(values)
    slot[1] = (slot[1] + [scalar_value(v) for v in values[:5]])[:5]


def _pair_combine(results):
    out: dict[str, Any] = dict(counts={}, errors=_no_errors())
    for res in results:
        for name, (n, ex) in res["errors"].items():
            out["errors"][name][0] += n
            out["errors"][name][1] = (out["errors"][name][1] + ex)[:5]
        for fam, counts in res["counts"].items():
            cur = out["counts"].get(fam)
            out["counts"][fam] = counts if cur is None else {n: cur[n] + counts[n] for n in counts}
    return out


def families_of(eng: _Engine, members) -> dict:
    """(``by`` values, split) -> ordered ``[(system, oriented threshold)]``."""
    n_by = len(eng.spec.by)
    out: dict = {}
    for m in members:
        key = m.group.key
        out.setdefault((*key[:n_by], key[-1]), []).append((key[-2], m.threshold))
    return out


def pair_pass(eng: _Engine, data: dd.DataFrame, families: dict, common: bool,
              subject: str | None = None) -> dict:
    """One aligned pass: per family, the summed :func:`pair_counts` matrices; with
    ``subject``, each trial's subject checked to be the same in every system."""
    spec = eng.spec
    fams = list(families.items())
    codes: dict[tuple, int] = {}
    cells: list[tuple[int, int]] = []
    for f, (fam, systems) in enumerate(fams):
        for j, (name, _) in enumerate(systems):
            codes[(*fam[:-1], name, fam[-1])] = len(cells)
            cells.append((f, j))
    where = np.array(cells, dtype=np.int64).reshape(-1, 2)
    meta = pd.DataFrame({
        "trial": pd.Series(dtype=data.dtypes[spec.trial] if spec.trial in data.columns else object),
        "group": pd.Series(dtype=np.int32),
        "genuine": pd.Series(dtype=bool),
        "score": pd.Series(dtype=np.float64),
        **({} if subject is None else {"subject": pd.Series(dtype=np.uint64)}),
    })
    cols = list(dict.fromkeys([*spec.columns, spec.trial, *([subject] if subject else [])]))
    # the arguments bound first: dask 2024.1 would try to align a pandas frame argument
    compact = functools.partial(_compact, spec=spec, codes=codes, meta=meta, subject=subject)
    if data.index.name == spec.trial and data.known_divisions:  # aligned as it is
        frame = data.reset_index()[cols].map_partitions(compact, meta=meta)
    else:  # every row of a trial in one partition: dask's out-of-core shuffle
        frame = data[cols].map_partitions(compact, meta=meta).shuffle(on="trial")
    res = eng._run(_pair_chunk, _pair_combine, fams, where, bool(common), frame=frame)
    errs = res["errors"]
    if errs["dup"][0]:
        raise SchemaError(ERROR_PAIR_DUPLICATES.format(n=errs["dup"][0], examples=errs["dup"][1]))
    if errs["labels"][0]:
        raise SchemaError(ERROR_LABELS_DIFFER.format(trial=errs["labels"][1][0]))
    if errs["missing"][0]:
        raise SchemaError(ERROR_PAIR_MISSING.format(n=errs["missing"][0], examples=errs["missing"][1]))
    if errs["subjects"][0]:
        raise SchemaError(ERROR_SUBJECTS_DIFFER.format(n=errs["subjects"][0],
                                                       examples=errs["subjects"][1]))
    return res["counts"]
