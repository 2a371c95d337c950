r"""Confidence intervals of FAR, FRR, HTER and DCF of a dask trial table: :func:`ci`.

A documented internal module (docs/architecture.md): :mod:`pandas_biosig.outofcore` makes
:func:`ci` public. The intervals are :func:`pandas_biosig.ci`'s, computed by the same code
(:func:`pandas_biosig.verification._intervals.ci_rows`) from the same inputs:

- each system's threshold, chosen by the exact out-of-core criteria (as
  :func:`~pandas_biosig.outofcore.error_rates` chooses it), and the integer error counts
  FA and FR there;
- with subjects (``resample="subject"``, the default with a subject column), each
  subject's trials and errors of each class at that threshold, from one grouped pass over
  the partitions, with the subjects in the order of their first trial in the group (the
  in-memory subject codes). The design effect is formed from these integer counts
  (:func:`~pandas_biosig._kernels.cluster.design_from_sums`), in memory as here, so the
  numbers are the same to the bit whatever the partitioning.

People drawn in both roles (``resample="two_way"``, the default in memory with a reference
subject column) need every (subject, reference) dyad's sums and are refused
(:data:`ERROR_TWO_WAY`); so are counted trials (``count=``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace

import numpy as np
import pandas as pd

from .. import stats
from .._core.options import CIMetric, Combine, Criterion, NonFinite, Orientation, ResampleOption
from .._core.protocol import AUTO, RESAMPLE, Protocol, group_where
from .._core.schema import (
    ERROR_ONE_CLUSTER,
    ERROR_SUBJECT,
    ERROR_SUBJECT_MISSING,
    SchemaError,
    check_option,
)
from .._core.validation import check_confidence_level, check_costs
from .._kernels.cluster import ClusterDesign, design_from_sums
from ..stats._common import RateCIMethod
from ..verification._intervals import CI_COLUMNS, CI_COMBINE, CI_METRICS, ci_rows
from ._engine import _engine, _split

__all__ = ["ERROR_TWO_WAY", "ci", "ordered", "resampling_unit", "subject_entries"]

ERROR_TWO_WAY = (
    "resample='two_way' (the default with subject and reference subject columns) needs "
    "the sums of every (subject, reference) pair and is not available out of core: pass "
    "resample='subject' (or reference_subject=None) to weigh the probes' subjects, or "
    "compute() the table"
)


# ----------------------------------------------------------------------------- the pass
def _subject_chunk(pdf, index, spec, thresholds):
    """Per group of one partition: its subjects (first appearance), each one's first row
    (partition and position), trials and errors of each class at the group's threshold
    (impostors accepted, genuines rejected), and the trials without a subject id."""
    out = {}
    for key, s, g, subj in _split(pdf, spec, trials=True).groups:
        if key not in thresholds or subj is None:  # _split(trials=True) gives them
            continue
        codes, uniques = pd.factorize(subj)
        pos = np.flatnonzero(codes >= 0)
        c, k = codes[pos], len(uniques)
        accepted = s[pos] >= thresholds[key]
        gen = g[pos]
        counts = np.stack([np.bincount(c, weights=w, minlength=k).astype(np.int64)
                           for w in (~gen, ~gen & accepted, gen, gen & ~accepted)], axis=1)
        first = pos[pd.Series(c).drop_duplicates().index.to_numpy()]
        out[key] = dict(subjects=np.asarray(uniques, dtype=object), first=(index << 40) + first,
                        counts=counts, missing=int(codes.size - pos.size),
                        rows={index: int(codes.size)})
    return out


def _merge(a: dict, b: dict) -> dict:
    """One group's subjects from two partitions' (ids united, first rows, counts summed)."""
    inverse, subjects = pd.factorize(np.concatenate((a["subjects"], b["subjects"])))
    k = len(subjects)
    first = np.full(k, np.iinfo(np.int64).max, np.int64)
    np.minimum.at(first, inverse, np.concatenate((a["first"], b["first"])))
    counts = np.zeros((k, 4), np.int64)
    np.add.at(counts, inverse, np.concatenate((a["counts"], b["counts"])))
    return dict(subjects=np.asarray(subjects, dtype=object), first=first, counts=counts,
                missing=a["missing"] + b["missing"], rows={**a["rows"], **b["rows"]})


def _subject_combine(results):
    out: dict = {}
    for res in results:
        for key, e in res.items():
            out[key] = e if key not in out else _merge(out[key], e)
    return out


def _designs(entry: dict) -> list[ClusterDesign]:
    """The designs of FAR and FRR from a group's per-subject counts, the subjects in
    first-appearance order (the in-memory codes) and each class's arrays as long as its
    highest code, as :func:`~pandas_biosig._kernels.cluster.person_sums` sizes them."""
    counts = ordered(entry)[1]
    out = []
    for trials, errors in ((counts[:, 0], counts[:, 1]), (counts[:, 2], counts[:, 3])):
        size = int(np.flatnonzero(trials)[-1]) + 1 if trials.any() else 0
        out.append(design_from_sums(float(errors.sum()), float(trials.sum()),
                                    errors[:size].astype(np.float64),
                                    trials[:size].astype(np.float64)))
    return out


def subject_entries(eng, frame, subject: str, at: dict) -> dict:
    """One pass: per group, its subjects (ids, first rows), each one's trials and errors
    of each class at the oriented threshold ``at[key]`` (columns: impostors, impostors
    accepted, genuines, genuines rejected) and the group's rows in each partition. Every
    group of the table is read and checked by the one subject rule (missing ids, one
    subject), as the in-memory path checks them."""
    spec = replace(eng.spec, trial=subject)  # _split reads the subjects as trials
    at = {g.key: at.get(g.key, 0.0) for g in eng.trials.groups}
    entries = eng._run(_subject_chunk, _subject_combine, spec, at, frame=frame)
    for g in eng.trials.groups:
        e = entries.get(g.key)
        where = group_where(eng.trials, g)
        if e is not None and e["missing"]:
            raise SchemaError(ERROR_SUBJECT_MISSING.format(
                n=e["missing"], where=f" of {where}", rows="not listed out of core"))
        n = 0 if e is None else len(e["subjects"])
        if n < 2:
            raise SchemaError(ERROR_ONE_CLUSTER.format(where=where, n=n))
    return entries


def ordered(entry: dict) -> tuple[np.ndarray, np.ndarray]:
    """A group's subject ids and per-subject counts in first-appearance order (the
    in-memory subject codes)."""
    order = np.argsort(entry["first"], kind="stable")
    return entry["subjects"][order], entry["counts"][order]


def resampling_unit(data, resample: str, subject: str | None, reference_subject: str | None) -> str:
    """The resampling unit the in-memory :func:`pandas_biosig.ci` (and the paired
    bootstrap of :func:`pandas_biosig.compare`) would take, checked; people in both roles
    are refused (:data:`ERROR_TWO_WAY`)."""
    cols = list(data.columns)
    has = subject is not None and subject in cols
    if resample == AUTO:
        if not has:
            return "label"
        if reference_subject is not None and reference_subject in cols:
            raise ValueError(ERROR_TWO_WAY)
        return "subject"
    check_option(resample, RESAMPLE, "resample")
    if resample == "two_way":
        raise ValueError(ERROR_TWO_WAY)
    if resample == "subject" and not has:
        raise SchemaError(ERROR_SUBJECT.format(option="resample='subject'", column=subject,
                                               found=cols))
    return resample


# ----------------------------------------------------------------------------- public
def ci(
    data,
    /,
    *,
    metric: CIMetric | Sequence[CIMetric] = ("far", "frr", "hter", "dcf"),
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    confidence_level: float = 0.95,
    ci_method: RateCIMethod = "beta",
    combine: Combine = "mover",
    resample: ResampleOption = "auto",
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Confidence intervals of FAR, FRR, HTER and DCF for every system of a dask trial
    table: :func:`pandas_biosig.ci`'s numbers, bit for bit.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table, one row per (system, trial); never collected.
    metric, threshold, weight, target, on, apply_to, confidence_level, ci_method, combine, p_target, c_miss, c_fa
        As in :func:`pandas_biosig.ci`.
    resample : {"auto", "subject", "label", "trial"}
        As in :func:`pandas_biosig.ci`: with a subject column (``"auto"``) the counts are
        shrunk by the subjects' design effect. ``"two_way"`` (the in-memory default with
        a reference subject column too) raises a ``ValueError`` (:data:`ERROR_TWO_WAY`).
    by, system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        As in :func:`pandas_biosig.ci`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError``
        (:data:`pandas_biosig.outofcore._engine.ERROR_COUNT`); compute() the table to
        use counted trials.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.ci` (``CI_COLUMNS`` after the ``by``
        columns), equal to it bit for bit.

    Raises
    ------
    SchemaError
        As :func:`pandas_biosig.ci` (missing subject ids are counted, not listed), and as
        :func:`eer` for the table.
    ValueError
        As :func:`pandas_biosig.ci`; :data:`ERROR_TWO_WAY` for people drawn in both
        roles.

    See Also
    --------
    pandas_biosig.ci : the in-memory function.
    bootstrap : subject bootstrap intervals of the EER and FNMR at FMR.

    Notes
    -----
    The passes of :func:`error_rates` (a histogram of the scores, the duplicate check and
    the bins around each threshold) and, with subjects, one more: each subject's trials
    and errors per class at its system's threshold, summed over the partitions. The
    design effect is formed from those integer counts (see
    :mod:`pandas_biosig.outofcore._intervals`).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=4)
    >>> ddf.biosig.ci().equals(pbs.ci(trials))
    True
    >>> kw = dict(metric="hter", combine="bengio", resample="label")
    >>> ddf.biosig.ci(**kw).equals(pbs.ci(trials, **kw))
    True
    """
    metrics = [metric] if isinstance(metric, str) else list(metric)
    for name in metrics:
        check_option(name, CI_METRICS, "metric")
    check_option(ci_method, stats.RATE_CI_METHODS, "ci_method")
    check_option(combine, CI_COMBINE, "combine")
    unit = resampling_unit(data, resample, subject, reference_subject)
    level = check_confidence_level(confidence_level)
    check_costs(p_target, c_miss, c_fa)
    eng = _engine(data, system=system, trial=trial, label=label, score=score, split=split,
                  by=by, orientation=orientation, nonfinite=nonfinite, count=count)
    protocol = Protocol(threshold=threshold, weight=weight, target=target, p_target=p_target,
                        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, resample=unit)

    def build(eng):
        members = protocol.resolve(eng.trials, sweep_of=lambda g: eng.sweep(g.key),
                                   resample=unit)
        counts = {m.group.key: tuple(int(v) for v in m.sweep.rates_at_threshold(m.threshold))
                  for m in members if not np.isnan(m.threshold)}
        return members, counts

    members, counts = eng.solve(build)
    designs = None
    if unit == "subject":
        assert subject is not None  # _unit: a subject column is there
        frame = data[list(dict.fromkeys([*eng.spec.columns, subject]))]
        entries = subject_entries(eng, frame, subject,
                                  {m.group.key: m.threshold for m in members})
        designs = {m.group.key: _designs(entries[m.group.key]) for m in members
                   if not np.isnan(m.threshold)}
    rows = ci_rows(members, eng.trials.key_names, lambda m: counts[m.group.key],
                   None if designs is None else (lambda m: designs[m.group.key]),
                   metrics=metrics, ci_method=ci_method, combine=combine, level=level,
                   sign=eng.spec.sign, costs=dict(p_target=p_target, c_miss=c_miss, c_fa=c_fa))
    return pd.DataFrame(rows, columns=[*eng.spec.by, *CI_COLUMNS])
