r"""Demographic differentials: per-group error rates at one global threshold.

A demographic trial table is the tidy trial table (``system, trial, label, score``, optional
``split`` and ``subject``) with a group column for each side of a comparison: ``group`` for
the probe and ``reference_group`` for the reference (or only ``group`` when a trial has one
group). A genuine trial belongs to its subject's group, so both sides must agree on it; an
impostor trial is *same-group* or *cross-group*, and every function counts either the
same-group impostors only (``impostors="same_group"``, as de Freitas Pereira & Marcel do) or
all of them (``"all"``, each attributed to the probe's group). The choice is a column of
every result.

One threshold per system is set on the whole population of counted trials — a-priori on
the ``dev`` split and reported on ``eval`` by default when the table has both — at a target
FMR, at the EER, or fixed; then every group is measured at that same threshold.

========================================  =================================================
:func:`group_rates`                       n, FMR and FNMR per (system, group), intervals
:func:`cross_group_fmr`                   FMR of every (group, reference group) cell
:func:`fairness`                          max/min ratios, FDR, Gini, GARBE, inequity rate
:func:`fdr_curve`                         FDR over FMR targets and its area
:func:`compare_groups`                    every pair of groups, FMR and FNMR, Holm
:func:`compare_fairness`                  every pair of systems on a figure of merit
========================================  =================================================

The functions need the whole table in memory: a dask DataFrame raises ``TypeError`` with
:data:`ERROR_DASK` (call ``.compute()`` first; the per-group counts are exact either way).
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
import xarray as xr

from ._kernels import fairness as _fair
from ._kernels.rates import Sweep
from ._kernels.resample import percentile_interval
from ._pairwise import adjust_pvalues as _adjust
from ._schema import ERROR_MISSING_COLUMNS, SchemaError, _factorize, check_option, validate_trials
from ._typing import NonFinite, Orientation
from ._validation import check_adjust as _check_adjust
from ._validation import check_alpha as _check_alpha
from ._validation import check_confidence_level as _check_confidence_level
from .resampling import bootstrap_pvalue

__all__ = [
    "compare_fairness",
    "compare_groups",
    "cross_group_fmr",
    "fairness",
    "fdr_curve",
    "group_rates",
]

Impostors = Literal["same_group", "all"]
GroupCriterion = Literal["fmr", "eer"]
IntervalMethod = Literal["auto", "wilson", "wilson_cluster", "bootstrap"]
TestMethod = Literal["auto", "wilson", "bootstrap"]
FairnessMetric = Literal["fdr", "garbe", "inequity_rate", "fmr_ratio", "fnmr_ratio"]
Scale = Literal["linear", "log"]

#: Which impostor trials count.
IMPOSTORS = {
    "same_group": "impostor trials whose probe and reference share a group",
    "all": "every impostor trial, attributed to the probe's group",
}
#: How the global threshold is chosen (a number fixes it).
CRITERIA = {
    "fmr": "the threshold with FMR <= target and the smallest FNMR, on all counted trials",
    "eer": "bob.measure's EER threshold on all counted trials",
}
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
#: Split names recognised by ``on="auto"`` (case-insensitive).
DEV_NAMES = ("dev", "development")
EVAL_NAMES = ("eval", "evaluation", "test")

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
ERROR_TARGET = "target must be a rate strictly between 0 and 1, got {value!r}"
ERROR_TARGETS = "targets must be at least two distinct rates strictly between 0 and 1, got {value!r}"
ERROR_ON_FIXED = "on={on!r} chooses a threshold by a criterion; threshold={value!r} is fixed"
ERROR_ON_MISSING = (
    "system {system!r} has no trials in split {on!r}, so no threshold can be chosen there"
)
ERROR_THRESHOLD = "threshold={value!r} must be a number or one of {allowed}"
ERROR_ONE_GROUP = "{function} needs at least two groups{where}, found {found}"
ERROR_ONE_SYSTEM = "comparing systems needs at least two systems, found {found}"
ERROR_WEIGHT = "weight={value!r} must be a number in [0, 1]"
ERROR_N_RESAMPLES = "n_resamples must be a positive integer, got {value!r}"

GROUP_RATE_COLUMNS = [
    "system", "split", "group", "impostors", "criterion", "target", "threshold_split",
    "threshold_from", "threshold", "n_genuine", "n_impostor", "n_subjects", "fa", "fr", "fmr", "fmr_low",
    "fmr_high", "fnmr", "fnmr_low", "fnmr_high", "interval", "confidence_level",
]
FAIRNESS_COLUMNS = [
    "system", "split", "impostors", "criterion", "target", "threshold_split", "threshold_from",
    "threshold",
    "weight", "n_groups", "fmr_max", "fmr_max_group", "fmr_min", "fmr_min_group", "fmr_ratio",
    "fnmr_max", "fnmr_max_group", "fnmr_min", "fnmr_min_group", "fnmr_ratio", "fdr",
    "gini_fmr", "gini_fnmr", "garbe", "inequity_rate", "undefined_reason",
]
COMPARE_GROUPS_COLUMNS = [
    "system", "split", "metric", "group_a", "group_b", "impostors", "threshold_from",
    "threshold", "n_a", "n_b",
    "rate_a", "rate_b", "estimate", "statistic", "pvalue", "test", "adjust", "pvalue_adj",
    "alpha", "reject", "confidence_level", "ci_low", "ci_high",
]
COMPARE_FAIRNESS_COLUMNS = [
    "system_a", "system_b", "split", "metric", "impostors", "weight", "threshold_from",
    "threshold_a",
    "threshold_b", "value_a", "value_b", "estimate", "pvalue", "test", "resample",
    "n_resamples", "adjust", "pvalue_adj", "alpha", "reject", "confidence_level", "ci_low",
    "ci_high",
]

#: ``threshold_from`` of a threshold chosen on the reported trials / given as a number.
SAME_TRIALS = "same trials"
FIXED = "fixed"

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


@dataclass(frozen=True, eq=False)
class _Reported:
    part: _Part
    threshold: float  # oriented
    threshold_split: Hashable

    @property
    def threshold_from(self) -> str:
        """Where the threshold came from: the split it was chosen on, ``"same trials"``
        (chosen on the reported trials themselves) or ``"fixed"``."""
        if self._fixed:
            return FIXED
        return SAME_TRIALS if self.threshold_split == self.part.split else str(self.threshold_split)

    _fixed: bool = False


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


def _check_not_dask(data: Any) -> None:
    if type(data).__module__.split(".")[0] == "dask":
        raise TypeError(ERROR_DASK.format(type=f"{type(data).__module__}.{type(data).__name__}"))


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(value, bool)


def _check_target(target: Any) -> float:
    if not _is_number(target) or not 0 < target < 1:
        raise ValueError(ERROR_TARGET.format(value=target))
    return float(target)


def _check_weight(weight: Any) -> float:
    if not _is_number(weight) or not 0 <= weight <= 1:
        raise ValueError(ERROR_WEIGHT.format(value=weight))
    return float(weight)


def _check_resamples(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 1:
        raise ValueError(ERROR_N_RESAMPLES.format(value=n))
    return int(n)


def _split_named(value: Hashable, names: Sequence[str]) -> bool:
    return isinstance(value, str) and value.strip().lower() in names


def _global_threshold(scores: np.ndarray, genuine: np.ndarray, *, threshold, target) -> float:
    """The one place a global threshold is chosen (oriented scores), on one sorted sweep of
    every counted trial of the population: the operating points of
    :func:`pandas_biosig.error_rates` with ``threshold="far", target=target`` (the smallest
    FRR with FAR <= target) or ``threshold="eer"`` (bob.measure's EER threshold)."""
    sweep = Sweep.from_scores(scores, genuine)
    if threshold == "eer":
        return float(sweep.eer_threshold()[1].threshold)
    return float(sweep.fnmr_at_fmr(target).threshold)


def _plan(
    data, *, group, reference_group, impostors, threshold, target, on, apply_to, system,
    trial, label, score, split, subject, orientation, nonfinite,
) -> _Plan:
    _check_not_dask(data)
    check_option(impostors, IMPOSTORS, "impostors")
    if isinstance(threshold, str):
        check_option(threshold, CRITERIA, "threshold")
        tgt = _check_target(target) if threshold == "fmr" else float("nan")
    elif _is_number(threshold):
        if on not in ("auto", None):
            raise ValueError(ERROR_ON_FIXED.format(on=on, value=threshold))
        tgt = float("nan")
    else:
        raise ValueError(ERROR_THRESHOLD.format(value=threshold, allowed=list(CRITERIA)))
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, orientation=orientation, nonfinite=nonfinite,
    )
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
    codes, uniques = _factorize(both)
    codes = np.asarray(codes, dtype=np.int64)
    n = len(data)
    gcode = codes[:n]
    rcode = codes[n:] if reference_group is not None else gcode
    labels = [u.item() if isinstance(u, np.generic) else u for u in list(uniques)]
    has_subject = trials.groups[0].subject is not None
    # clusters: (group, subject) when subjects are known, else (group, trial)
    unit = data[subject] if has_subject else data[trial]
    ucodes, _ = pd.factorize(unit, use_na_sentinel=False)
    pair = gcode * (int(ucodes.max()) + 1) + ucodes
    cluster, cl_uniques = pd.factorize(pair, sort=True)
    cluster_group = (cl_uniques // (int(ucodes.max()) + 1)).astype(np.int64)
    sign = -1.0 if orientation == "distance" else 1.0
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
        parts[(g.system, g.split)] = _Part(g.system, g.split, g.scores, g.genuine, gg, rr,
                                           counted, cluster[rows])
    systems = list(dict.fromkeys(k[0] for k in parts))
    splits = list(dict.fromkeys(k[1] for k in parts))
    on_value, report = None, splits
    if not _is_number(threshold):
        if on == "auto":
            devs = [v for v in splits if _split_named(v, DEV_NAMES)]
            evals = [v for v in splits if _split_named(v, EVAL_NAMES)]
            if len(devs) == 1 and evals:
                on_value, report = devs[0], evals
        elif on is not None:
            trials.select_split(on, name="on")
            on_value, report = on, [s for s in splits if s != on] or [on]
    if apply_to is not None:
        wanted = [apply_to] if isinstance(apply_to, str) or not isinstance(apply_to, Sequence) else list(apply_to)
        for v in wanted:
            trials.select_split(v, name="apply_to")
        report = wanted
    reported = []
    for s in systems:
        cache = None
        for sp in report:
            part = parts.get((s, sp))
            if part is None:
                continue
            if _is_number(threshold):
                t, tsplit = sign * float(threshold), None
            else:
                src = part if on_value is None else parts.get((s, on_value))
                if src is None:
                    raise SchemaError(ERROR_ON_MISSING.format(system=s, on=on_value))
                if cache is None or on_value is None:
                    cache = _global_threshold(src.scores[src.counted], src.genuine[src.counted],
                                              threshold=threshold, target=tgt)
                t, tsplit = cache, src.split
            reported.append(_Reported(part, t, tsplit, _is_number(threshold)))
    return _Plan(reported, labels, impostors, threshold if isinstance(threshold, str) else "fixed",
                 tgt, sign, has_subject, cluster_group, reference_group is not None)


def _errors(part: _Part, t: float) -> np.ndarray:
    """Error indicator of every counted trial at oriented threshold ``t``."""
    accept = part.scores >= t
    return np.where(part.genuine, ~accept, accept) & part.counted


def _counts(part: _Part, t: float, k: int) -> tuple[np.ndarray, ...]:
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


def _method(method: str, plan: _Plan, allowed: dict, clustered: str) -> str:
    check_option(method, allowed, "method")
    if method == "auto":
        return clustered if plan.has_subject else _WILSON
    return method


def _cluster_wilson(errors: np.ndarray, trials: np.ndarray, level: float) -> tuple[float, float]:
    """Wilson interval on the design-effect sample size, Student's t on k - 1 degrees of
    freedom (k subjects with trials); a rate of 0 or 1 (no variance to estimate) uses
    n = k, each subject counted once."""
    from scipy.stats import t as student

    p, n_eff, k = _fair.effective_size(errors, trials)
    if k == 0:
        return float("nan"), float("nan")
    if p in (0.0, 1.0):
        n_eff = float(k)
    q = float(student.ppf((1 + level) / 2, max(k - 1, 1)))
    return _fair.wilson_interval(p, n_eff, q)


def _wilson(k: int, n: int, level: float) -> tuple[float, float]:
    if n == 0:
        return float("nan"), float("nan")
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(int(k), int(n), alpha=1 - level, method="wilson")
    return (0.0 if k == 0 else float(low)), (1.0 if k == n else float(high))


def _boot_bounds(reps: np.ndarray, errors: int, total: int, n_clusters: int, level: float):
    """Percentile interval of a rate's replicates; when the rate is 0 (or 1) every
    replicate is too and the interval would be a point: then Wilson with n = the number
    of subjects that hold trials of the class (each subject counted once)."""
    if total == 0:
        return float("nan"), float("nan")
    if errors == 0:
        return _wilson(0, n_clusters, level)
    if errors == total:
        return _wilson(n_clusters, n_clusters, level)
    lo, hi = percentile_interval(reps[np.isfinite(reps)], level)
    return float(lo), float(hi)


def _frame(rows: list[dict], columns: list[str]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=columns)


_COMMON_DOC = """group, reference_group : str
        Group columns of the probe and of the reference (``reference_group=None``: one
        group per trial, every impostor trial counts as same-group).
    impostors : {"same_group", "all"}
        Which impostor trials count: same-group only (de Freitas Pereira & Marcel, 2021)
        or all of them, each attributed to the probe's group. A column of the result.
    threshold : {"fmr", "eer"} or float
        The global threshold: FMR at most ``target`` with the smallest FNMR, bob.measure's
        EER threshold, or a fixed number in score units. Chosen on all counted trials of
        the system (all groups pooled).
    target : float
        The FMR of ``threshold="fmr"``.
    on : "auto", split value or None
        Where the threshold is chosen. ``"auto"``: on the dev split (``dev``,
        ``development``) and reported on every eval split (``eval``, ``evaluation``,
        ``test``) when the table has one dev split and at least one eval split, else on the
        reported trials themselves (a-posteriori). ``None``:
        a-posteriori on every split. A split value: chosen there, reported on the others.
    apply_to : split value or list, optional
        Report only these splits.
    system, trial, label, score, split, subject : str
        Column names (``split``, ``subject`` are used when present).
    orientation, nonfinite
        As in :func:`pandas_biosig.eer`."""


def _doc(func):
    func.__doc__ = func.__doc__.replace("{common}", _COMMON_DOC)
    return func


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
    method: IntervalMethod = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""FMR and FNMR of every demographic group at one global threshold per system.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table (module docstring).
    {common}
    method : {"auto", "wilson", "wilson_cluster", "bootstrap"}
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
        - ``interval`` (``"wilson"``, ``"wilson_cluster"`` or ``"bootstrap"``),
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
        orientation=orientation, nonfinite=nonfinite,
    )
    level = _check_confidence_level(confidence_level)
    how = _method(method, plan, INTERVAL_METHODS, _CLUSTER)
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
                rf, rn = _replicates(rng, n_resamples, members, [(cc[3], cc[2]), (cc[1], cc[0])])
                bounds = [
                    _boot_bounds(rf, fa[j], n_imp[j], int((cc[2][members] > 0).sum()), level),
                    _boot_bounds(rn, fr[j], n_gen[j], int((cc[0][members] > 0).sum()), level),
                ]
            elif how == _CLUSTER:
                bounds = [_cluster_wilson(cc[3][members], cc[2][members], level),
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
                fnmr_low=bounds[1][0], fnmr_high=bounds[1][1], interval=how,
                confidence_level=level,
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


def _fom_row(labels, n_gen, n_imp, fr, fa, weight) -> dict:
    ok = (n_gen > 0) & (n_imp > 0)
    idx = np.flatnonzero(ok)
    fmr = fa[idx] / n_imp[idx]
    fnmr = fr[idx] / n_gen[idx]
    names = [labels[i] for i in idx]
    reasons = []
    if idx.size < 2:
        reasons.append(f"fewer than two groups with both classes ({idx.size})")
        nan = float("nan")
        return dict(n_groups=int(idx.size), fmr_max=nan, fmr_max_group=None, fmr_min=nan,
                    fmr_min_group=None, fmr_ratio=nan, fnmr_max=nan, fnmr_max_group=None,
                    fnmr_min=nan, fnmr_min_group=None, fnmr_ratio=nan, fdr=nan, gini_fmr=nan,
                    gini_fnmr=nan, garbe=nan, inequity_rate=nan, undefined_reason="; ".join(reasons))
    for name, r in (("FMR", fmr), ("FNMR", fnmr)):
        if r.min() == 0:
            reasons.append(f"min {name} is 0 (group {names[int(np.argmin(r))]!r}): the {name} ratio is undefined")
        if r.max() == 0:
            reasons.append(f"every {name} is 0: its Gini coefficient is undefined")
    return dict(
        n_groups=int(idx.size),
        fmr_max=float(fmr.max()), fmr_max_group=names[int(np.argmax(fmr))],
        fmr_min=float(fmr.min()), fmr_min_group=names[int(np.argmin(fmr))],
        fmr_ratio=float(_fair.ratio(fmr)),
        fnmr_max=float(fnmr.max()), fnmr_max_group=names[int(np.argmax(fnmr))],
        fnmr_min=float(fnmr.min()), fnmr_min_group=names[int(np.argmin(fnmr))],
        fnmr_ratio=float(_fair.ratio(fnmr)),
        fdr=float(_fair.fdr(fmr, fnmr, weight)),
        gini_fmr=float(_fair.gini(fmr)), gini_fnmr=float(_fair.gini(fnmr)),
        garbe=float(_fair.garbe(fmr, fnmr, weight)),
        inequity_rate=float(_fair.inequity_rate(fmr, fnmr, weight)),
        undefined_reason="; ".join(reasons) if reasons else None,
    )


@_doc
def fairness(
    data: pd.DataFrame,
    /,
    *,
    weight: float = 0.5,
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
) -> pd.DataFrame:
    r"""Figures of merit of the demographic differentials of every system.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    weight : float
        The weight :math:`\alpha` of the FMR term (the papers' alpha; 0.5 by default).
    {common}

    Returns
    -------
    DataFrame
        One row per (system, reported split), over the groups that have both genuine and
        counted impostor trials:

        - ``system``, ``split``, ``impostors``, ``criterion``, ``target``,
          ``threshold_split``, ``threshold_from``, ``threshold``, ``weight``, ``n_groups``;
        - ``fmr_max``, ``fmr_max_group``, ``fmr_min``, ``fmr_min_group``, ``fmr_ratio`` =
          max / min (and the same for ``fnmr``);
        - ``fdr``: :math:`1 - (\alpha\,(\max - \min)_{FMR} + (1-\alpha)\,(\max -
          \min)_{FNMR})` (1 is fair);
        - ``gini_fmr``, ``gini_fnmr``, ``garbe`` = :math:`\alpha G_{FMR} + (1-\alpha)
          G_{FNMR}` (0 is fair);
        - ``inequity_rate`` = :math:`(\max/\min FMR)^\alpha (\max/\min FNMR)^{1-\alpha}`
          (1 is fair);
        - ``undefined_reason``: why a value is NaN (a group with rate 0, all rates 0,
          fewer than two groups), None when every value is defined.

    Notes
    -----
    Formulas and sources: ``docs/methods.md`` (demographic differentials).

    References
    ----------
    de Freitas Pereira, T., & Marcel, S. (2021). Fairness in biometrics: a figure of merit
    to assess biometric verification systems. *IEEE TBIOM, 4*\(1), 19–29.

    Howard, J. J., Laird, E. J., Rubin, R. E., Sirotin, Y. B., Tipton, J. L., & Vemury,
    A. R. (2022). Evaluating proposed fairness models for face recognition algorithms.
    *ICPR 2022 workshops*.

    Examples
    --------
    >>> f = pbs.fairness(pbs.datasets.example_demographic_trials(), target=0.01)
    >>> f[["system", "fmr_max_group", "fmr_ratio", "fdr", "garbe"]].round(3)
      system fmr_max_group  fmr_ratio    fdr  garbe
    0  net_a             C      2.333  0.975  0.264
    1  net_b             C        NaN  0.894  0.576
    2  net_c             C      2.500  0.809  0.246
    >>> print(f.undefined_reason[1])
    min FMR is 0 (group 'A'): the FMR ratio is undefined
    """
    w = _check_weight(weight)
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite,
    )
    k = len(plan.labels)
    rows = []
    for rep in plan.reported:
        row = dict(system=rep.part.system, split=rep.part.split, impostors=plan.impostors,
                   criterion=plan.criterion, target=plan.target,
                   threshold_split=rep.threshold_split, threshold_from=rep.threshold_from,
                   threshold=plan.sign * rep.threshold,
                   weight=w)
        row.update(_fom_row(plan.labels, *_counts(rep.part, rep.threshold, k), w))
        rows.append(row)
    return _frame(rows, FAIRNESS_COLUMNS)


@_doc
def fdr_curve(
    data: pd.DataFrame,
    /,
    *,
    targets: Sequence[float] = (1e-1, 1e-2, 1e-3),
    weight: float = 0.5,
    scale: Scale = "linear",
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
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
    r"""FDR at global thresholds set at several FMR targets, and the area under it.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    targets : sequence of float
        FMR targets (at least two), each giving one global threshold (``threshold="fmr"``).
    weight : float
        The FDR's :math:`\alpha`.
    scale : {"linear", "log"}
        Integration axis of ``au_fdr``: FMR targets (``"linear"``, the FDR authors'
        ``fpr_auc_score``) or log10 FMR targets (``"log"``), rescaled to [0, 1] so that a
        constant FDR has that area.
    {common}

    Returns
    -------
    Dataset
        Dims ``system``, ``split``, ``target``: ``fdr``, ``threshold``, ``fmr_spread``,
        ``fnmr_spread`` (max − min across groups); ``au_fdr`` over (system, split). Scalar
        coords ``weight``, ``scale``, ``impostors``; attrs ``kind="fdr_curve"``.

    Examples
    --------
    >>> ds = pbs.fdr_curve(pbs.datasets.example_demographic_trials(), targets=[0.1, 0.01])
    >>> ds.au_fdr.sel(split="eval").round(3).values.tolist()
    [0.967, 0.885, 0.814]
    """
    w = _check_weight(weight)
    check_option(scale, _fair.SCALES, "scale")
    t = np.asarray(list(targets), dtype=np.float64) if not np.isscalar(targets) else np.array([])
    if t.size < 2 or np.unique(t).size != t.size or not np.all((t > 0) & (t < 1)):
        raise ValueError(ERROR_TARGETS.format(value=targets))
    planned = [
        _plan(data, group=group, reference_group=reference_group, impostors=impostors,
              threshold="fmr", target=float(x), on=on, apply_to=apply_to, system=system,
              trial=trial, label=label, score=score, split=split, subject=subject,
              orientation=orientation, nonfinite=nonfinite)
        for x in t
    ]
    reps0 = planned[0].reported
    systems = list(dict.fromkeys(r.part.system for r in reps0))
    splits = list(dict.fromkeys(r.part.split for r in reps0))
    shape = (len(systems), len(splits), t.size)
    out = {v: np.full(shape, np.nan) for v in ("fdr", "threshold", "fmr_spread", "fnmr_spread")}
    k = len(planned[0].labels)
    for j, plan in enumerate(planned):
        for rep in plan.reported:
            i, s = systems.index(rep.part.system), splits.index(rep.part.split)
            n_gen, n_imp, fr, fa = _counts(rep.part, rep.threshold, k)
            ok = (n_gen > 0) & (n_imp > 0)
            fmr, fnmr = fa[ok] / n_imp[ok], fr[ok] / n_gen[ok]
            out["fdr"][i, s, j] = _fair.fdr(fmr, fnmr, w)
            out["fmr_spread"][i, s, j] = _fair.spread(fmr)
            out["fnmr_spread"][i, s, j] = _fair.spread(fnmr)
            out["threshold"][i, s, j] = plan.sign * rep.threshold
    au = _fair.area(out["fdr"], t, scale)
    dims = ("system", "split", "target")
    return xr.Dataset(
        {
            "fdr": (dims, out["fdr"], {"long_name": "fairness discrepancy rate", "units": "1"}),
            "threshold": (dims, out["threshold"], {"long_name": "global threshold", "units": "score"}),
            "fmr_spread": (dims, out["fmr_spread"], {"long_name": "max - min FMR", "units": "1"}),
            "fnmr_spread": (dims, out["fnmr_spread"], {"long_name": "max - min FNMR", "units": "1"}),
            "au_fdr": (("system", "split"), au, {"long_name": f"area under FDR ({scale} FMR axis)",
                                                  "units": "1"}),
        },
        coords={"system": systems, "split": ["" if s is None else s for s in splits],
                "target": t, "weight": w, "scale": scale, "impostors": impostors},
        attrs={"kind": "fdr_curve", "orientation": orientation},
    )


def _score_test(k1, n1, k2, n2, level):
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = test_proportions_2indep(k1, n1, k2, n2, method="score", compare="diff")
        low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff",
                                               alpha=1 - level)
    stat, p = float(res.statistic), float(res.pvalue)
    if not np.isfinite(p):  # pooled rate 0 or 1: both groups identical, no evidence
        stat, p = 0.0, 1.0
    return stat, p, float(low), float(high)


@_doc
def compare_groups(
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
    method: TestMethod = "auto",
    adjust: str | None = "holm",
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Is the FMR (FNMR) of group a different from group b's? Every pair, every system.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    {common}
    method : {"auto", "wilson", "bootstrap"}
        ``"auto"``: ``"bootstrap"`` with a subject column (subjects resampled within each
        group, independently between the two groups; p-value: twice the smaller share of
        replicated differences on either side of 0, +1 corrected; percentile interval),
        else ``"wilson"`` (score test of two proportions and Newcombe's hybrid score
        interval, statsmodels). Trials of one subject are not independent: with a subject
        column the binomial tests reject too often (docs/validity.md).
    adjust : str or None
        statsmodels ``multipletests`` code; the family is all rows of one (system, split):
        both metrics, every pair.
    alpha, confidence_level : float
        Level of ``reject`` and of the intervals.
    n_resamples, seed
        Bootstrap replicates and seed.

    Returns
    -------
    DataFrame
        One row per (system, split, metric, pair), pairs in group order: ``system, split,
        metric`` (``"fmr"``/``"fnmr"``), ``group_a, group_b, impostors, threshold_from, threshold``,
        ``n_a, n_b`` (trials of the class), ``rate_a, rate_b``, ``estimate`` = rate_a −
        rate_b, ``statistic`` (score z; bootstrap: estimate / replicate s.d.), ``pvalue``,
        ``test``, ``adjust``, ``pvalue_adj``, ``alpha``, ``reject``,
        ``confidence_level``, ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> t = pbs.compare_groups(pbs.datasets.example_demographic_trials(), target=0.01,
    ...                        n_resamples=200, seed=1)
    >>> t[["system", "metric", "group_a", "group_b", "test"]].head(2)
      system metric group_a group_b       test
    0  net_a    fmr       A       B  bootstrap
    1  net_a    fmr       A       C  bootstrap
    """
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite,
    )
    how = _method(method, plan, TEST_METHODS, _BOOT)
    level = _check_confidence_level(confidence_level)
    alpha = _check_alpha(alpha)
    adj = _check_adjust(adjust)
    n_resamples = _check_resamples(n_resamples)
    rng = _rng(seed)
    k = len(plan.labels)
    n_clusters = plan.cluster_group.size
    out = []
    for rep in plan.reported:
        n_gen, n_imp, fr, fa = _counts(rep.part, rep.threshold, k)
        present = [j for j in range(k) if n_gen[j] + n_imp[j] > 0]
        if len(present) < 2:
            raise SchemaError(ERROR_ONE_GROUP.format(
                function="compare_groups", where=f" for system {rep.part.system!r}",
                found=[plan.labels[j] for j in present]))
        reps = {}
        if how == _BOOT:
            cc = _cluster_counts(rep.part, rep.threshold, n_clusters)
            for j in present:
                members = np.flatnonzero((plan.cluster_group == j) & ((cc[0] + cc[2]) > 0))
                reps[j] = dict(zip(("fmr", "fnmr"), _replicates(
                    rng, n_resamples, members, [(cc[3], cc[2]), (cc[1], cc[0])]), strict=True))
        rows = []
        for metric, err, tot in (("fmr", fa, n_imp), ("fnmr", fr, n_gen)):
            for a, b in itertools.combinations(present, 2):
                ra = err[a] / tot[a] if tot[a] else float("nan")
                rb = err[b] / tot[b] if tot[b] else float("nan")
                est = ra - rb
                if tot[a] == 0 or tot[b] == 0:
                    stat = p = lo = hi = float("nan")
                elif how == _BOOT:
                    d = reps[a][metric] - reps[b][metric]
                    d = d[np.isfinite(d)]
                    p = bootstrap_pvalue(d)
                    sd = float(np.std(d, ddof=1)) if d.size > 1 else float("nan")
                    stat = est / sd if sd > 0 else (0.0 if est == 0 else float("nan"))
                    lo, hi = (float(v) for v in percentile_interval(d, level))
                else:
                    stat, p, lo, hi = _score_test(int(err[a]), int(tot[a]), int(err[b]),
                                                  int(tot[b]), level)
                rows.append(dict(
                    system=rep.part.system, split=rep.part.split, metric=metric,
                    group_a=plan.labels[a], group_b=plan.labels[b], impostors=plan.impostors,
                    threshold_from=rep.threshold_from,
                    threshold=plan.sign * rep.threshold, n_a=int(tot[a]), n_b=int(tot[b]),
                    rate_a=ra, rate_b=rb, estimate=est, statistic=stat, pvalue=p,
                    test=how, adjust=adj if adj is not None else "none", alpha=alpha,
                    confidence_level=level, ci_low=lo, ci_high=hi,
                ))
        p_adj, reject = _adjust(np.array([r["pvalue"] for r in rows]), adj, alpha)
        for r, pa, rj in zip(rows, p_adj, reject, strict=True):
            r["pvalue_adj"], r["reject"] = float(pa), bool(rj)
        out.extend(rows)
    return _frame(out, COMPARE_GROUPS_COLUMNS)


def _fom_values(metric: str, fmr: np.ndarray, fnmr: np.ndarray, weight: float) -> np.ndarray:
    if metric == "fdr":
        return _fair.fdr(fmr, fnmr, weight)
    if metric == "garbe":
        return _fair.garbe(fmr, fnmr, weight)
    if metric == "inequity_rate":
        return _fair.inequity_rate(fmr, fnmr, weight)
    return _fair.ratio(fmr if metric == "fmr_ratio" else fnmr)


@_doc
def compare_fairness(
    data: pd.DataFrame,
    /,
    *,
    metric: FairnessMetric = "fdr",
    weight: float = 0.5,
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
    threshold: GroupCriterion | float = "fmr",
    target: float = 1e-3,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = None,
    adjust: str | None = "holm",
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Is system A fairer than system B? Every pair of systems on one figure of merit.

    A paired bootstrap: subjects (or, without a subject column, trials) are resampled
    within each group, with the same draws for every system, so the correlation of
    systems scored on the same people is kept. Each system keeps its global threshold
    (chosen once, as in :func:`fairness`); the replicate figure of merit is computed from
    the replicate per-group rates.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    metric : {"fdr", "garbe", "inequity_rate", "fmr_ratio", "fnmr_ratio"}
        The figure of merit compared.
    weight : float
        Its :math:`\alpha`.
    {common}
    adjust : str or None
        statsmodels ``multipletests`` code; the family is all pairs of one split.
    alpha, confidence_level, n_resamples, seed
        Level of ``reject``, of the percentile interval, replicates and seed.

    Returns
    -------
    DataFrame
        One row per pair of systems (input order) and split: ``system_a, system_b, split,
        metric, impostors, weight, threshold_from, threshold_a, threshold_b, value_a,
        value_b``,
        ``estimate`` = value_a − value_b, ``pvalue`` (twice the smaller share of
        replicated differences on either side of 0, +1 corrected; undefined replicates
        dropped), ``test``, ``resample`` (``"subject"`` or ``"trial"``), ``n_resamples``,
        ``adjust, pvalue_adj, alpha, reject, confidence_level, ci_low, ci_high``.

    Examples
    --------
    >>> t = pbs.compare_fairness(pbs.datasets.example_demographic_trials(), target=0.01,
    ...                          n_resamples=200, seed=0)
    >>> t[["system_a", "system_b", "metric", "resample"]]
      system_a system_b metric resample
    0    net_a    net_b    fdr  subject
    1    net_a    net_c    fdr  subject
    2    net_b    net_c    fdr  subject
    """
    check_option(metric, FAIRNESS_METRICS, "metric")
    w = _check_weight(weight)
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite,
    )
    level = _check_confidence_level(confidence_level)
    alpha = _check_alpha(alpha)
    adj = _check_adjust(adjust)
    n_resamples = _check_resamples(n_resamples)
    rng = _rng(seed)
    k = len(plan.labels)
    n_clusters = plan.cluster_group.size
    systems = list(dict.fromkeys(r.part.system for r in plan.reported))
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(found=systems))
    splits = list(dict.fromkeys(r.part.split for r in plan.reported))
    out = []
    for sp in splits:
        reps = {r.part.system: r for r in plan.reported if r.part.split == sp}
        names = [s for s in systems if s in reps]
        counts = {s: _cluster_counts(reps[s].part, reps[s].threshold, n_clusters) for s in names}
        # groups with both classes in every system of the split
        ok = [j for j in range(k) if all(
            counts[s][0][plan.cluster_group == j].sum() > 0 and counts[s][2][plan.cluster_group == j].sum() > 0
            for s in names)]
        if len(ok) < 2:
            raise SchemaError(ERROR_ONE_GROUP.format(function="compare_fairness",
                                                     where=f" in split {sp!r}",
                                                     found=[plan.labels[j] for j in ok]))
        est_rates = {}
        rep_rates = {s: (np.empty((n_resamples, len(ok))), np.empty((n_resamples, len(ok))))
                     for s in names}
        for s in names:
            c = counts[s]
            est_rates[s] = (
                np.array([c[3][plan.cluster_group == j].sum() / c[2][plan.cluster_group == j].sum() for j in ok]),
                np.array([c[1][plan.cluster_group == j].sum() / c[0][plan.cluster_group == j].sum() for j in ok]),
            )
        for col, j in enumerate(ok):
            members = np.flatnonzero(plan.cluster_group == j)
            cols = []
            for s in names:
                c = counts[s]
                cols += [(c[3], c[2]), (c[1], c[0])]
            res = _replicates(rng, n_resamples, members, cols)
            for i, s in enumerate(names):
                rep_rates[s][0][:, col] = res[2 * i]
                rep_rates[s][1][:, col] = res[2 * i + 1]
        values = {s: float(_fom_values(metric, *est_rates[s], w)) for s in names}
        boots = {s: np.asarray(_fom_values(metric, *rep_rates[s], w)) for s in names}
        rows = []
        for a, b in itertools.combinations(names, 2):
            d = boots[a] - boots[b]
            d = d[np.isfinite(d)]
            est = values[a] - values[b]
            if d.size and np.isfinite(est):
                p = bootstrap_pvalue(d)
                lo, hi = (float(v) for v in percentile_interval(d, level))
            else:
                p = lo = hi = float("nan")
            rows.append(dict(
                system_a=a, system_b=b, split=sp, metric=metric, impostors=plan.impostors,
                weight=w, threshold_from=reps[a].threshold_from,
                threshold_a=plan.sign * reps[a].threshold,
                threshold_b=plan.sign * reps[b].threshold, value_a=values[a], value_b=values[b],
                estimate=est, pvalue=p, test="paired cluster bootstrap",
                resample="subject" if plan.has_subject else "trial", n_resamples=n_resamples,
                adjust=adj if adj is not None else "none", alpha=alpha,
                confidence_level=level, ci_low=lo, ci_high=hi,
            ))
        p_adj, reject = _adjust(np.array([r["pvalue"] for r in rows]), adj, alpha)
        for r, pa, rj in zip(rows, p_adj, reject, strict=True):
            r["pvalue_adj"], r["reject"] = float(pa), bool(rj)
        out.extend(rows)
    return _frame(out, COMPARE_FAIRNESS_COLUMNS)


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
