"""What every demographic function shares (internal): options and messages, result columns, the
plan of one call (which trials count, where the threshold is chosen and reported), counts
and interval helpers, and the common docstring.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.protocol import ERROR_REFERENCE_MISSING
from .._core.schema import (
    ERROR_MISSING_COLUMNS,
    SchemaError,
    check_option,
    factorize_keys,
    validate_trials,
)
from .._kernels import fairness as _fair
from .._kernels.cluster import cluster_design, wilson_interval
from .._kernels.rates import Sweep
from .._kernels.resample import percentile_interval

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

GROUP_RATE_COLUMNS = [
    "system", "split", "group", "impostors", "criterion", "target", "threshold_split",
    "threshold_from", "threshold", "n_genuine", "n_impostor", "n_subjects", "fa", "fr", "fmr", "fmr_low",
    "fmr_high", "fnmr", "fnmr_low", "fnmr_high", "ci_method", "confidence_level", "resample",
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
    "alpha", "reject", "confidence_level", "ci_low", "ci_high", "resample",
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
    ref_cluster: np.ndarray | None = None  # global code of (reference group, reference)


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
    two_way: bool = False  # impostor trials weigh both people (reference_subject column)

    @property
    def resample(self) -> str:
        """What a bootstrap draws: ``"two_way"``, ``"subject"`` or ``"trial"``."""
        return "two_way" if self.two_way else "subject" if self.has_subject else "trial"


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
    trial, label, score, split, subject, orientation, nonfinite, reference_subject=None,
) -> _Plan:
    _check_not_dask(data)
    check_option(impostors, IMPOSTORS, "impostors")
    tgt = _check_threshold(threshold, target, on)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, orientation=orientation, nonfinite=nonfinite,
        reference_subject=reference_subject,
    )
    gcode, rcode, labels = _group_codes(data, group, reference_group)
    has_subject = trials.groups[0].subject is not None
    two_way = has_subject and trials.groups[0].reference is not None
    if two_way:
        _check_references(data, trials.columns["reference_subject"])
    cluster, cluster_group, ref_cluster = _clusters(
        data[subject] if has_subject else data[trial], gcode,
        (data[trials.columns["reference_subject"]], rcode) if two_way else None)
    sign = -1.0 if orientation == "distance" else 1.0
    parts = _parts(data, trials, gcode, rcode, labels, cluster, impostors, ref_cluster)
    on_value, report = _report_splits(trials, parts, threshold, on, apply_to)
    reported = _reported(parts, report, on_value, threshold, tgt, sign)
    return _Plan(reported, labels, impostors, threshold if isinstance(threshold, str) else "fixed",
                 tgt, sign, has_subject, cluster_group, reference_group is not None, two_way)


def _check_references(data, column: str) -> None:
    """Every trial names its reference: the named error of the protocol otherwise."""
    missing = data[column].isna().to_numpy()
    if missing.any():
        pos = np.flatnonzero(missing)
        raise SchemaError(ERROR_REFERENCE_MISSING.format(
            n=pos.size, where=f" of column {column!r}", rows=[int(r) for r in pos[:10]]))


def _check_threshold(threshold, target, on) -> float:
    """The target FMR of ``threshold="fmr"`` (NaN otherwise), after checking the criterion."""
    if isinstance(threshold, str):
        check_option(threshold, CRITERIA, "threshold")
        return _check_target(target) if threshold == "fmr" else float("nan")
    if _is_number(threshold):
        if on not in ("auto", None):
            raise ValueError(ERROR_ON_FIXED.format(on=on, value=threshold))
        return float("nan")
    raise ValueError(ERROR_THRESHOLD.format(value=threshold, allowed=list(CRITERIA)))


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


def _clusters(unit, gcode, reference=None):
    """Cluster of every trial, (group, subject) or (group, trial), each cluster's group,
    and with ``reference`` (``(reference ids, reference group codes)``) the cluster of
    every trial's reference, (reference group, reference subject), in the same codes (a
    person is one cluster whether probe or reference)."""
    n = len(unit)
    ids = unit if reference is None else pd.concat(
        [pd.Series(np.asarray(unit, dtype=object)),
         pd.Series(np.asarray(reference[0], dtype=object))], ignore_index=True)
    groups = gcode if reference is None else np.concatenate((gcode, reference[1]))
    ucodes, _ = pd.factorize(ids, use_na_sentinel=False)
    pair = groups * (int(ucodes.max()) + 1) + ucodes
    cluster, cl_uniques = pd.factorize(pair, sort=True)
    cluster_group = (cl_uniques // (int(ucodes.max()) + 1)).astype(np.int64)
    if reference is None:
        return cluster, cluster_group, None
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


def _report_splits(trials, parts, threshold, on, apply_to):
    """The split choosing the thresholds (None: each reported split) and the reported splits."""
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
    return on_value, report


def _reported(parts, report, on_value, threshold, tgt, sign) -> list[_Reported]:
    """Every reported (system, split) with its global threshold."""
    reported = []
    for s in dict.fromkeys(k[0] for k in parts):
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
    return reported


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


def _pair_counts(part: _Part, t: float, members: np.ndarray | None = None):
    """The counted impostor trials by (probe cluster, reference cluster) pair, under
    ``"two_way"``: ``(probe, reference, trials, false acceptances)`` per pair, only the
    pairs whose probe is one of ``members`` when given (a group's own probes)."""
    imp = ~part.genuine & part.counted
    if members is not None:
        imp &= np.isin(part.cluster, members)
    err = _errors(part, t)[imp]
    key, pair_of = np.unique(np.stack((part.cluster[imp], part.ref_cluster[imp])), axis=1,
                             return_inverse=True)
    pair_of = pair_of.reshape(-1)
    return (key[0], key[1], np.bincount(pair_of, minlength=key.shape[1]),
            np.bincount(pair_of, weights=err, minlength=key.shape[1]))


def _pair_rates(w: np.ndarray, local: np.ndarray, pairs) -> np.ndarray:
    """The FMR of every replicate from pair counts: the pair's trials weigh the product
    of its two people's multiplicities (``local`` maps a cluster to its column of ``w``,
    -1 for a person not drawn, held at multiplicity 1)."""
    probe, ref, n, fa = pairs
    ones = np.ones((w.shape[0], 1))
    wx = np.concatenate((w, ones), axis=1)  # the last column: a person not drawn
    weight = wx[:, local[probe]] * wx[:, local[ref]]
    with np.errstate(divide="ignore", invalid="ignore"):
        num, den = weight @ fa.astype(np.float64), weight @ n.astype(np.float64)
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def _rng(seed) -> np.random.Generator:
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _replicates(rng, n_resamples: int, members: np.ndarray, columns: list[tuple],
                pairs: list[tuple] = ()) -> list[np.ndarray]:
    """Rates of every replicate when the clusters ``members`` are resampled: one array
    per ``(errors, trials)`` pair of per-cluster counts in ``columns`` (same draws for all,
    so the pairs are paired), then one per table of :func:`_pair_counts` in ``pairs`` (an
    impostor trial weighing the product of its two people's multiplicities: the
    pigeonhole bootstrap, Owen 2007). Weights are drawn in blocks of bounded size."""
    out = [np.empty(n_resamples) for _ in (*columns, *pairs)]
    m = members.size
    top = max([int(members.max(initial=-1))]
              + [int(max(p[0].max(initial=-1), p[1].max(initial=-1))) for p in pairs])
    local = np.full(top + 1, m, dtype=np.int64)  # m: a person not drawn (weight 1)
    local[members] = np.arange(m)
    block = max(1, _BLOCK // max(m, 1))
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        w = _fair.cluster_weights(rng, m, stop - start)
        for o, (e, nt) in zip(out, columns, strict=False):
            o[start:stop] = _fair.weighted_rates(w, e[members], nt[members])
        for o, table in zip(out[len(columns):], pairs, strict=True):
            o[start:stop] = _pair_rates(w.astype(np.float64), local, table)
    return out


def _group_members(plan: _Plan, part: _Part, j: int, cc) -> np.ndarray:
    """The clusters a bootstrap of group ``j`` draws: its probes with counted trials, and
    under ``"two_way"`` the references of its counted impostor trials too."""
    members = np.flatnonzero((plan.cluster_group == j) & ((cc[0] + cc[2]) > 0))
    if not plan.two_way:
        return members
    mine = ~part.genuine & part.counted & (part.group == j)
    return np.union1d(members, part.ref_cluster[mine])


def _group_replicates(rng, n_resamples, plan: _Plan, part: _Part, t: float, j: int, cc):
    """Replicated FMR and FNMR of group ``j`` (paired draws): clusters of the group drawn
    with replacement; under ``"two_way"`` the FMR from (probe, reference) pairs."""
    members = _group_members(plan, part, j, cc)
    if not plan.two_way:
        return _replicates(rng, n_resamples, members, [(cc[3], cc[2]), (cc[1], cc[0])])
    own = np.flatnonzero(plan.cluster_group == j)
    fnmr, fmr = _replicates(rng, n_resamples, members, [(cc[1], cc[0])],
                            [_pair_counts(part, t, own)])
    return fmr, fnmr


def _two_way_wilson(part: _Part, t: float, j: int, level: float) -> tuple[float, float]:
    """The Wilson interval of group ``j``'s FMR on the effective size of the two-way
    design (:func:`pandas_biosig._kernels.cluster.cluster_design`), Student's t on its
    Satterthwaite degrees of freedom."""
    from scipy.special import stdtrit

    mine = ~part.genuine & part.counted & (part.group == j)
    if not mine.any():
        return float("nan"), float("nan")
    d = cluster_design(_errors(part, t)[mine], part.cluster[mine], part.ref_cluster[mine])
    n_eff = float(d.k) if d.p in (0.0, 1.0) else d.n / d.deff
    return wilson_interval(d.p, n_eff, float(stdtrit(max(d.df, 1.0), (1 + level) / 2)))


def _method(method: str, plan: _Plan, allowed: dict, clustered: str, name: str) -> str:
    check_option(method, allowed, name)
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
    return wilson_interval(p, n_eff, q)


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
