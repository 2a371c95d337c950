"""What every demographic function shares (internal): options and messages, result columns, the
plan of one call (which trials count, where the threshold is chosen and reported), counts
and interval helpers, and the common docstring.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.criteria import CRITERIA as _ALL_CRITERIA
from .._core.criteria import KIND_CRITERIA
from .._core.protocol import Protocol, check_policy
from .._core.schema import (
    ERROR_MISSING_COLUMNS,
    SchemaError,
    check_option,
    check_subjects,
    factorize_keys,
    validate_trials,
)
from .._core.validation import fill_doc
from .._kernels import fairness as _fair
from .._kernels.cluster import wilson_interval
from .._kernels.rates import Sweep
from .._kernels.resample import percentile_interval

Impostors = Literal["same_group", "all"]
GroupCriterion = Literal["eer", "min_hter", "far", "frr"]
IntervalMethod = Literal["auto", "wilson", "wilson_cluster", "bootstrap"]
TestMethod = Literal["auto", "wilson", "bootstrap"]
FairnessMetric = Literal["fdr", "garbe", "inequity_rate", "fmr_ratio", "fnmr_ratio"]
Scale = Literal["linear", "log"]

#: Which impostor trials count.
IMPOSTORS = {
    "same_group": "impostor trials whose probe and reference share a group",
    "all": "every impostor trial, attributed to the probe's group",
}
#: How the global threshold is chosen on all counted trials (a number fixes it): the
#: protocol's criteria (:data:`pandas_biosig._core.criteria.CRITERIA`); ``"far"`` is the
#: target FMR (the FMR of the counted impostor trials at most ``target``).
CRITERIA = {name: _ALL_CRITERIA[name] for name in KIND_CRITERIA["demographics"]}
#: Intervals of one group's rate (:func:`group_rates`).
INTERVAL_METHODS = {
    "auto": "'wilson_cluster' when the table has a subject column, else 'wilson'",
    "wilson": "Wilson score interval (trials independent)",
    "wilson_cluster": (
        "Wilson interval on the design-effect sample size of the subject clusters, with "
        "Student's t on (subjects - 1) degrees of freedom (Korn & Graubard, 1998)"
    ),
    "bootstrap": "subjects resampled within the group, percentile interval",
}
#: Tests of two groups' rates (:func:`compare_groups`).
TEST_METHODS = {
    "auto": "'bootstrap' when the table has a subject column, else 'wilson'",
    "wilson": "score test of two proportions and Newcombe's interval (trials independent)",
    "bootstrap": "subjects resampled within each group (percentile interval and p-value)",
}
FAIRNESS_METRICS = ("fdr", "garbe", "inequity_rate", "fmr_ratio", "fnmr_ratio")

ERROR_DASK = (
    "the demographic functions need the whole trial table in memory and do not run on a "
    "{type}; call .compute() on it first"
)
ERROR_MISSING_GROUP = "column {column!r} has {n} missing group value(s). Example rows:\n{rows}"
ERROR_GENUINE_CROSS = (
    "{n} genuine trial(s) compare a probe and a reference of different groups ({group!r} vs "
    "{reference_group!r}); a genuine trial belongs to its subject's group. Example rows:\n{rows}"
)
ERROR_NO_IMPOSTORS = (
    "system {system!r}{where} has no counted impostor trial (impostors={impostors!r}); "
    "pass impostors='all' or check the group columns"
)
ERROR_REFERENCE_NEEDED = (
    "{function} needs the reference's group: pass reference_group='<column name>'"
)
ERROR_TARGETS = "targets must be at least two distinct rates strictly between 0 and 1, got {value!r}"
ERROR_ONE_GROUP = "{function} needs at least two groups{where}, found {found}"
ERROR_ONE_SYSTEM = "comparing systems needs at least two systems, found {found}"

GROUP_RATE_COLUMNS = [
    "system", "split", "group", "impostors", "criterion", "target", "threshold_split",
    "threshold_from", "threshold", "n_genuine", "n_impostor", "n_subjects", "fa", "fr", "fmr", "fmr_low",
    "fmr_high", "fnmr", "fnmr_low", "fnmr_high", "ci_method", "confidence_level", "resample",
    "fallback_reason",
]
FAIRNESS_COLUMNS = [
    "system", "split", "impostors", "criterion", "target", "threshold_split", "threshold_from",
    "threshold",
    "weight", "n_groups", "fmr_max", "fmr_max_group", "fmr_min", "fmr_min_group", "fmr_ratio",
    "fnmr_max", "fnmr_max_group", "fnmr_min", "fnmr_min_group", "fnmr_ratio", "fdr",
    "gini_fmr", "gini_fnmr", "garbe", "inequity_rate", "undefined_reason", "resample",
]
COMPARE_GROUPS_COLUMNS = [
    "system", "split", "metric", "group_a", "group_b", "impostors", "threshold_from",
    "threshold", "n_a", "n_b",
    "rate_a", "rate_b", "estimate", "statistic", "pvalue", "test", "adjust", "pvalue_adj",
    "alpha", "reject", "confidence_level", "ci_low", "ci_high", "resample", "fallback_reason",
]
COMPARE_FAIRNESS_COLUMNS = [
    "system_a", "system_b", "split", "metric", "impostors", "weight", "threshold_from",
    "threshold_a",
    "threshold_b", "value_a", "value_b", "estimate", "pvalue", "test", "resample",
    "n_resamples", "adjust", "pvalue_adj", "alpha", "reject", "confidence_level", "ci_low",
    "ci_high", "fallback_reason",
]

_WILSON = "wilson"
_CLUSTER = "wilson_cluster"
_BOOT = "bootstrap"
_BLOCK = 2**22  # bound on the cells of one block of bootstrap weights


# ----------------------------------------------------------------------------- plan
@dataclass(frozen=True, eq=False)
class _Part:
    """The trials of one (system, split) with their group codes."""

    system: Hashable
    split: Hashable
    scores: np.ndarray  # oriented, higher = more genuine
    genuine: np.ndarray
    group: np.ndarray  # probe group code per trial
    reference: np.ndarray  # reference group code per trial
    counted: np.ndarray  # trials that count (genuine, and the chosen impostors)
    cluster: np.ndarray  # global code of (group, subject) or (group, trial)
    ref_cluster: np.ndarray | None = None  # two-way: global code of (reference group, reference)


@dataclass(frozen=True, eq=False)
class _Reported:
    """A reported (system, split), its global threshold and where it came from: the split
    it was chosen on, ``"same trials"`` or ``"fixed"`` (the protocol's ``threshold_from``)."""

    part: _Part
    threshold: float  # oriented
    threshold_split: Hashable
    threshold_from: Hashable


@dataclass(frozen=True, eq=False)
class _Plan:
    reported: list[_Reported]
    labels: list  # group labels, code order
    impostors: str
    criterion: str
    target: float
    sign: float
    has_subject: bool
    cluster_group: np.ndarray  # group code of every global cluster
    has_reference: bool
    subject: pd.Series | None = None  # the subject ids (None without a subject column)
    found: tuple = ()  # the table's columns (messages)
    two_way: bool = False  # subject and reference subject columns: people in both roles
    trials: Any = None  # the validated table (the protocol's checks of the people)

    @property
    def resample(self) -> str:
        """What a bootstrap draws: people in both roles (``"two_way"``), whole subjects
        (``"subject"``) or, without a subject column, trials (``"trial"``)."""
        return "two_way" if self.two_way else "subject" if self.has_subject else "trial"


def _check_not_dask(data: Any) -> None:
    if type(data).__module__.split(".")[0] == "dask":
        raise TypeError(ERROR_DASK.format(type=f"{type(data).__module__}.{type(data).__name__}"))


def _plan(
    data, *, group, reference_group, impostors, threshold, target, on, apply_to, system,
    trial, label, score, split, subject, orientation, nonfinite, clusters: bool = True,
    reference_subject: str | None = None,
) -> _Plan:
    """The plan of one call; ``clusters=False`` for the functions that never resample
    (no cluster codes are built). With subject and reference subject columns (the
    protocol's rule of ``resample="auto"``, :meth:`pandas_biosig._core.protocol.Protocol.unit`)
    the people are drawn in both roles: every reference is a cluster of the same codes."""
    _check_not_dask(data)
    check_option(impostors, IMPOSTORS, "impostors")
    check_policy(threshold, kind="demographics", target=target)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, orientation=orientation, nonfinite=nonfinite,
        reference_subject=reference_subject,
    )
    gcode, rcode, labels = _group_codes(data, group, reference_group)
    has_subject = trials.groups[0].subject is not None
    two_way = clusters and has_subject and trials.groups[0].reference is not None
    subjects = data[subject] if has_subject else None
    ref_cluster = None
    if two_way:
        cluster, cluster_group, ref_cluster = _two_way_clusters(
            data[subject], data[trials.columns["reference_subject"]], gcode, rcode)
    elif clusters:
        cluster, cluster_group = _clusters(subjects if has_subject else data[trial], gcode)
    else:
        cluster, cluster_group = np.zeros(len(data), dtype=np.int64), np.zeros(0, np.int64)
    sign = -1.0 if orientation == "distance" else 1.0
    parts = _parts(data, trials, gcode, rcode, labels, cluster, impostors, ref_cluster)
    resolved = Protocol(threshold=threshold, target=target, on=on, apply_to=apply_to,
                        kind="demographics").resolve(
        trials, sweep_of=lambda g: _population_sweep(parts[(g.system, g.split)]))
    reported = [_Reported(parts[(r.group.system, r.group.split)], r.threshold,
                          r.threshold_split, r.threshold_from) for r in resolved]
    return _Plan(reported, labels, impostors, resolved[0].criterion, resolved[0].target, sign,
                 has_subject, cluster_group, reference_group is not None, subjects,
                 tuple(data.columns), two_way, trials)


def _population_sweep(part: _Part) -> Sweep:
    """The sweep of every counted trial of a (system, split), all groups pooled: where the
    one global threshold is chosen."""
    return Sweep.from_scores(part.scores[part.counted], part.genuine[part.counted])


def check_clusters(plan: _Plan, option: str, column: str | None,
                   reference_column: str | None = None) -> None:
    """The one subject rule for an interval or test that resamples or weighs subjects
    within each group: no missing subject id, at least two subjects in every (system,
    split, group) it reads; with people in both roles, no missing reference id either
    (the protocol's check and message,
    :data:`pandas_biosig._core.protocol.ERROR_REFERENCE_MISSING`)."""
    if not plan.has_subject:
        return
    assert plan.subject is not None  # read from the subject column when has_subject
    if plan.subject.hasnans:  # the missing ids, named by the one rule's message
        check_subjects(plan.subject.to_numpy(), "the table", column=column, found=plan.found,
                       option=option)
    k = len(plan.labels)
    for rep in plan.reported:
        part = rep.part
        held = np.bincount(plan.cluster_group[np.unique(part.cluster[part.counted])],
                           minlength=k)
        for j in np.flatnonzero(held == 1):
            where = f"group {plan.labels[j]!r} of system {part.system!r}" + (
                "" if part.split is None else f", split {part.split!r}")
            check_subjects(np.zeros(1), where, column=column, found=plan.found, option=option)
    if plan.two_way:
        Protocol(resample="two_way").unit(plan.trials, subject=column,
                                          reference_subject=reference_column)


def _group_codes(data, group, reference_group):
    """Integer codes of the probe and reference groups (one code set), and the group labels."""
    group_cols = [group] + ([reference_group] if reference_group is not None else [])
    missing = [c for c in group_cols if c not in data.columns]
    if missing:
        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=missing, found=list(data.columns)))
    for col in group_cols:
        na = data[col].isna().to_numpy()
        if na.any():
            bad = np.flatnonzero(na)
            raise SchemaError(ERROR_MISSING_GROUP.format(
                column=col, n=bad.size, rows=data.iloc[bad[:5]].to_string()))
    both = pd.concat([data[c] for c in group_cols], ignore_index=True)
    codes, uniques = factorize_keys(both)
    codes = np.asarray(codes, dtype=np.int64)
    n = len(data)
    gcode = codes[:n]
    rcode = codes[n:] if reference_group is not None else gcode
    labels = [u.item() if isinstance(u, np.generic) else u for u in list(uniques)]
    return gcode, rcode, labels


def _clusters(unit, gcode):
    """Cluster of every trial, (group, subject) or (group, trial), and each cluster's group."""
    ucodes, _ = pd.factorize(unit, use_na_sentinel=False)  # missing ids: check_clusters
    pair = gcode * (int(ucodes.max()) + 1) + ucodes
    cluster, cl_uniques = pd.factorize(pair, sort=True)
    cluster_group = (cl_uniques // (int(ucodes.max()) + 1)).astype(np.int64)
    return cluster, cluster_group


def _two_way_clusters(subjects: pd.Series, references: pd.Series, gcode: np.ndarray,
                     rcode: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_clusters` of people in both roles: the cluster of every trial's probe,
    (group, subject), each cluster's group, and the cluster of every trial's reference,
    (reference group, reference subject), in the same codes: a person is one cluster
    whether probe or reference."""
    n = len(subjects)
    ids = pd.concat([subjects, references], ignore_index=True)
    cluster, cluster_group = _clusters(ids, np.concatenate((gcode, rcode)))
    return cluster[:n], cluster_group, cluster[n:]


def _parts(data, trials, gcode, rcode, labels, cluster, impostors,
           ref_cluster=None) -> dict[tuple, _Part]:
    """The counted trials of every (system, split); genuine trials across groups are refused."""
    n = len(data)
    parts: dict[tuple, _Part] = {}
    for g in trials.groups:
        rows = g.rows if g.rows is not None else np.arange(n)
        gg, rr = gcode[rows], rcode[rows]
        cross = g.genuine & (gg != rr)
        if cross.any():
            bad = rows[np.flatnonzero(cross)]
            raise SchemaError(ERROR_GENUINE_CROSS.format(
                n=int(cross.sum()), group=labels[gg[cross][0]],
                reference_group=labels[rr[cross][0]], rows=data.iloc[bad[:5]].to_string()))
        counted = g.genuine | (gg == rr) if impostors == "same_group" else np.ones(rows.size, bool)
        if not (counted & ~g.genuine).any():
            where = "" if g.split is None else f", split {g.split!r}"
            raise SchemaError(ERROR_NO_IMPOSTORS.format(system=g.system, where=where, impostors=impostors))
        parts[(g.system, g.split)] = _Part(
            g.system, g.split, g.scores, g.genuine, gg, rr, counted, cluster[rows],
            None if ref_cluster is None else ref_cluster[rows])
    return parts


def _errors(part: _Part, t: float) -> np.ndarray:
    """Error indicator of every counted trial at oriented threshold ``t``."""
    accept = part.scores >= t
    return np.where(part.genuine, ~accept, accept) & part.counted


def _counts(part: _Part, t: float,
            k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per group: n_genuine, n_impostor, fr, fa."""
    err = _errors(part, t)
    gen = part.genuine & part.counted
    imp = ~part.genuine & part.counted
    n_gen = np.bincount(part.group[gen], minlength=k)
    n_imp = np.bincount(part.group[imp], minlength=k)
    fr = np.bincount(part.group[gen & err], minlength=k)
    fa = np.bincount(part.group[imp & err], minlength=k)
    return n_gen, n_imp, fr, fa


def _cluster_counts(part: _Part, t: float, n_clusters: int):
    """Per global cluster: genuine trials, false rejections, impostor trials, false
    acceptances (counted trials only)."""
    err = _errors(part, t)
    gen = part.genuine & part.counted
    imp = ~part.genuine & part.counted
    c = part.cluster
    return (
        np.bincount(c[gen], minlength=n_clusters), np.bincount(c[gen & err], minlength=n_clusters),
        np.bincount(c[imp], minlength=n_clusters), np.bincount(c[imp & err], minlength=n_clusters),
    )


def group_members(cluster_group: np.ndarray, keep: np.ndarray, k: int):
    """``members(j)``: the clusters of group ``j`` (of ``k``) where ``keep`` holds,
    ascending (as ``np.flatnonzero((cluster_group == j) & keep)``), from one sort of all
    clusters."""
    idx = np.flatnonzero(keep)
    idx = idx[np.argsort(cluster_group[idx], kind="stable")]
    starts = np.searchsorted(cluster_group[idx], np.arange(k + 1))

    def members(j: int) -> np.ndarray:
        return idx[starts[j]:starts[j + 1]]
    return members


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _replicates(rng, n_resamples: int, members: np.ndarray, columns: list[tuple]) -> list[np.ndarray]:
    """Rates of every replicate when the clusters ``members`` are resampled: one array
    per ``(errors, trials)`` pair of per-cluster counts in ``columns`` (same draws for all,
    so the pairs are paired). Weights are drawn in blocks of bounded size."""
    out = [np.empty(n_resamples) for _ in columns]
    m = members.size
    block = max(1, _BLOCK // max(m, 1))
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        w = _fair.cluster_weights(rng, m, stop - start)
        for o, (e, nt) in zip(out, columns, strict=True):
            o[start:stop] = _fair.weighted_rates(w, e[members], nt[members])
    return out


def _method(method: str, plan: _Plan, allowed: dict, clustered: str, name: str) -> str:
    check_option(method, allowed, name)
    if method == "auto":
        return clustered if plan.has_subject else _WILSON
    return method


def _cluster_wilson(errors: np.ndarray, trials: np.ndarray, level: float) -> tuple[float, float]:
    """Wilson interval on the design-effect sample size, Student's t on k - 1 degrees of
    freedom (k subjects with trials); a rate of 0 or 1 (no variance to estimate) uses
    n = k, each subject counted once."""
    p, n_eff, k = _fair.effective_size(errors, trials)
    if k == 0:
        return float("nan"), float("nan")
    if p in (0.0, 1.0):
        n_eff = float(k)
    return wilson_interval(p, n_eff, _t_quantile(level, max(k - 1, 1)))


@functools.lru_cache(maxsize=256)
def _t_quantile(level: float, df: int) -> float:
    """Student's t quantile of a two-sided ``level`` on ``df`` degrees of freedom (many
    groups share a few numbers of subjects: computed once each)."""
    from scipy.stats import t as student

    return float(student.ppf((1 + level) / 2, df))


def _wilson(k: int, n: int, level: float) -> tuple[float, float]:
    if n == 0:
        return float("nan"), float("nan")
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(int(k), int(n), alpha=1 - level, method="wilson")
    return (0.0 if k == 0 else float(low)), (1.0 if k == n else float(high))


#: ``fallback_reason`` of a bootstrap interval of one rate whose replicates cannot vary.
FALLBACK_RATE = (
    "{metric} {what}: every bootstrap replicate gives the same rate, so its percentile "
    "interval would have width 0; Wilson interval on the {n} {units} that hold these "
    "trials (each counted once)"
)


def _boot_bounds(reps: np.ndarray, errors: int, total: int, n_clusters: int, level: float,
                 metric: str = "", units: str = "subjects"):
    """``(low, high, fallback_reason)``: the percentile interval of a rate's replicates;
    when the rate is 0 (or 1) every replicate is too and the interval would be a point:
    then Wilson with n = the number of subjects that hold trials of the class (each
    subject counted once), said in the reason (:data:`FALLBACK_RATE`)."""
    if total == 0:
        return float("nan"), float("nan"), None
    if errors in (0, total):
        low, high = _wilson(0 if errors == 0 else n_clusters, n_clusters, level)
        what = "is 0" if errors == 0 else "is 1"
        return low, high, FALLBACK_RATE.format(metric=metric.upper(), what=what,
                                               n=n_clusters, units=units)
    lo, hi = percentile_interval(reps[np.isfinite(reps)], level)
    return float(lo), float(hi), None


def _frame(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=columns)


_COMMON_DOC = """group, reference_group : str
        Group columns of the probe and of the reference (``reference_group=None``: one
        group per trial, every impostor trial counts as same-group).
    impostors : {"same_group", "all"}
        Which impostor trials count: same-group only (de Freitas Pereira & Marcel, 2021)
        or all of them, each attributed to the probe's group. A column of the result.
    threshold : {"far", "eer", "min_hter", "frr"} or float
        The global threshold, one criterion of the protocol
        (:data:`pandas_biosig._core.criteria.CRITERIA`, one name for a criterion in every
        kind of table): ``"far"`` the target FMR — the FMR of the counted impostor trials
        at most ``target``, with the smallest FNMR (as
        ``pbs.error_rates(threshold="far")``; ``"fmr"`` is refused with a message naming
        ``"far"``) —, ``"eer"`` bob.measure's EER threshold, ``"min_hter"``, ``"frr"``
        (FNMR at most ``target``), or a fixed number in score units. Chosen on all counted
        trials of the system (all groups pooled).
    target : float
        The bound of ``threshold="far"`` (a target FMR) or ``"frr"``.
    on, apply_to : "auto", split value or None
        Where the threshold is chosen and the splits reported, the protocol's rule for
        every kind of table (:mod:`pandas_biosig._core.protocol`). ``"auto"``: chosen on
        the dev split (``dev``, ``development``) and reported on every eval split
        (``eval``, ``evaluation``, ``test``) when the table has one dev split and at
        least one eval split, else on the reported trials themselves (a-posteriori,
        ``threshold_from="same trials"``). ``on=None``: a-posteriori on every split. A
        split value: chosen there, reported on the others (``apply_to="auto"``) or on
        ``apply_to``.
    system, trial, label, score, split : str
        Column names (``split`` is used when present).
    orientation, nonfinite
        As in :func:`pandas_biosig.eer`."""

_SUBJECT_DOC = """subject : str
        The subject column (used when present): the unit of dependence of the intervals
        and tests that account for subjects, under the one subject rule (an id on every
        trial, at least two subjects in every group).
    reference_subject : str or None
        The reference's subject column (used when present; one name with the
        verification functions). An impostor trial depends on both people it compares:
        with both columns the intervals and tests that account for subjects take people
        in both roles (``resample="two_way"``, the protocol's default; an id on every
        trial, else :data:`pandas_biosig._core.protocol.ERROR_REFERENCE_MISSING`): the
        analytic FMR interval on the two-way (crossed) design, the bootstrap drawing
        every person once per replicate within their group and weighing an impostor
        trial by the product of its two people's multiplicities (Owen, 2007).
        ``reference_subject=None``: the probes' subjects only."""


def _doc(func):
    func.__doc__ = fill_doc(func.__doc__, common=_COMMON_DOC, subject=_SUBJECT_DOC)
    return func
