"""Bootstrap intervals and paired bootstrap tests, without re-sorting per replicate.

Every replicate reuses the one sort of each system (see :mod:`pandas_biosig._kernels.resample`):
either as integer multiplicities over the sorted scores, or, for the metrics that read a
few thresholds only, as prefix counts drawn lazily. Both are exact: they have the same
distribution as drawing trials with replacement and sorting them again.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ._kernels.rates import Sweep
from ._kernels.resample import (
    HullReplicates,
    cell_draws,
    cluster_counts,
    lazy_replicate,
    percentile_interval,
    stratified_counts,
    uniform_counts,
)
from ._progress import progress_bar
from ._schema import Group, SchemaError, Trials, check_option
from ._typing import (
    Alternative,
    BootstrapCIMethod,
    BootstrapMetric,
    Criterion,
    EPCCriterion,
    NonFinite,
    Orientation,
    ResampleOption,
)
from ._validation import (  # noqa: F401  (ERROR_N_RESAMPLES: importable from here)
    ERROR_CONFIDENCE_LEVEL,
    ERROR_N_RESAMPLES,
    check_alternative,
    check_confidence_level,
    check_costs,
    check_n_resamples,
    check_rate,
)
from .metrics import _frame, _validate
from .protocol import (  # noqa: F401 (messages re-exported for matching)
    AUTO,
    ERROR_ONE_CLUSTER,
    ERROR_SUBJECT,
    ERROR_SUBJECT_MISSING,
    RESAMPLE,
    Protocol,
    Resolved,
    split_roles,
    subject_clusters,
)
from .results import ConfidenceInterval, TestResult

__all__ = [
    "BOOTSTRAP_COLUMNS",
    "RESAMPLE",
    "BOOTSTRAP_METRICS",
    "BootstrapTestResult",
    "bootstrap",
    "epc_bootstrap",
    "paired_bootstrap",
]

#: Metrics the bootstrap can resample: name -> (description, reads a fixed threshold).
BOOTSTRAP_METRICS = {
    "eer": "EER of the ROC convex hull",
    "eer_threshold": "bob.measure's threshold EER",
    "eer_interpolated": "EER of the piecewise-linear ROC",
    "auc": "area under the ROC (ties half)",
    "min_hter": "smallest (FAR + FRR)/2 over thresholds",
    "min_dcf": "normalized minDCF at (p_target, c_miss, c_fa)",
    "fnmr_at_fmr": "smallest FRR with FAR <= target",
    "fmr_at_fnmr": "smallest FAR with FRR <= target",
    "cllr": "log-likelihood-ratio cost (bits)",
    "min_cllr": "Cllr after PAV calibration (bits)",
    "far": "FAR at the threshold policy (threshold held fixed)",
    "frr": "FRR at the threshold policy (threshold held fixed)",
    "hter": "HTER at the threshold policy (threshold held fixed)",
}
_LOCAL = {"eer_threshold", "eer_interpolated", "fnmr_at_fmr", "fmr_at_fnmr", "far", "frr", "hter"}
_FIXED = {"far", "frr", "hter"}

CI_METHODS = {"percentile": "quantiles of the replicates", "basic": "2*estimate - quantiles"}

BOOTSTRAP_COLUMNS = [
    "system",
    "split",
    "metric",
    "estimate",
    "se",
    "ci_low",
    "ci_high",
    "confidence_level",
    "ci_method",
    "resample",
    "n_resamples",
    "threshold",
    "threshold_from",
    "weight",
]

ERROR_LEVEL = ERROR_CONFIDENCE_LEVEL  # one message per concept (pandas_biosig._validation)
ERROR_PAIR = "system {system!r} is not in the table (systems: {found})"
ERROR_LABELS_DIFFER = (
    "trial {trial!r} is genuine for one system and impostor for another; paired "
    "resampling needs the same labels on the same trials"
)
ERROR_ALIGN = (
    "systems {a!r} and {b!r} do not share the same trials{where}: {n_a} trials only in "
    "{a!r} and {n_b} only in {b!r} (e.g. {examples}); pass common_trials=True to keep the "
    "trials they share"
)


ERROR_SEED = "seed={value!r} must be None, a non-negative integer or a numpy Generator"


def _rng(seed) -> np.random.Generator:
    if isinstance(seed, np.random.Generator):
        return seed
    if isinstance(seed, bool | np.bool_) or not (
        seed is None or isinstance(seed, int | np.integer | np.random.SeedSequence)
    ):
        raise ValueError(ERROR_SEED.format(value=seed))
    try:
        return np.random.default_rng(seed)
    except (TypeError, ValueError):  # a negative integer
        raise ValueError(ERROR_SEED.format(value=seed)) from None


def _progress(enabled: bool | None, total: int, label: str) -> Callable[[int], None]:
    """A tqdm progress bar (see :mod:`pandas_biosig._progress`): ``tick(done)``."""
    return progress_bar(enabled, total, label, unit="resample")


def _metric_function(metric: str, *, target, p_target, c_miss, c_fa) -> Callable:
    """``f(sweep, threshold) -> float`` for a metric name."""
    norm = min(c_miss * p_target, c_fa * (1 - p_target))
    table: dict[str, Callable] = {
        "eer": lambda sw, t: sw.eer_rocch(),
        "eer_threshold": lambda sw, t: sw.eer_threshold()[0],
        "eer_interpolated": lambda sw, t: sw.eer_interpolated(),
        "auc": lambda sw, t: sw.auc(),
        "min_hter": lambda sw, t: _hter(sw.min_weighted(0.5)),
        "min_dcf": lambda sw, t: sw.min_dcf(p_target, c_miss, c_fa)[0] / norm,
        "fnmr_at_fmr": lambda sw, t: sw.fnmr_at_fmr(target).frr,
        "fmr_at_fnmr": lambda sw, t: _far_or_nan(sw.fmr_at_fnmr(target)),
        "cllr": lambda sw, t: sw.cllr(),
        "min_cllr": lambda sw, t: sw.min_cllr(),
        "far": lambda sw, t: float(sw.fa_at(t)) / sw.n,
        "frr": lambda sw, t: float(sw.fr_at(t)) / sw.p,
        "hter": lambda sw, t: (float(sw.fa_at(t)) / sw.n + float(sw.fr_at(t)) / sw.p) / 2,
    }
    return table[metric]


def _hter(op) -> float:
    return (op.far + op.frr) / 2


def _far_or_nan(op) -> float:
    return float("nan") if op is None else op.far


def _class_permutations(group: Group) -> tuple[np.ndarray, np.ndarray]:
    """Trial positions of the group in each class's sorted order (computed once)."""
    neg_idx = np.flatnonzero(~group.genuine)
    pos_idx = np.flatnonzero(group.genuine)
    neg_order = neg_idx[np.argsort(group.scores[neg_idx], kind="stable")]
    pos_order = pos_idx[np.argsort(group.scores[pos_idx], kind="stable")]
    return neg_order, pos_order


class _Replicates:
    """Draws replicate sweeps of one group under a resampling scheme."""

    def __init__(self, group: Group, sweep: Sweep, resample: str, lazy: bool):
        self.group, self.sweep, self.resample = group, sweep, resample
        self.lazy = lazy and resample == "label"
        if not self.lazy:
            sweep.prepare_resampling()
        if resample == "subject":
            self.perm = _class_permutations(group)
            self.clusters, self.n_clusters = subject_clusters(group.subject, _named(group))

    def draw(self, rng: np.random.Generator) -> Sweep:
        sw = self.sweep
        if self.lazy:
            return lazy_replicate(sw, rng)
        if self.resample == "label":
            wn = uniform_counts(rng, sw.n)
            wp = uniform_counts(rng, sw.p)
            return sw.reweighted(wn, wp)
        if self.resample == "trial":
            total = sw.n + sw.p
            n_neg = int(rng.binomial(total, sw.n / total))
            wn = uniform_counts(rng, sw.n, n_neg)
            wp = uniform_counts(rng, sw.p, total - n_neg)
            return sw.reweighted(wn, wp)
        w = cluster_counts(rng, self.clusters, self.n_clusters)
        neg_order, pos_order = self.perm
        return sw.reweighted(w[neg_order], w[pos_order])


def _named(group: Group) -> str:
    key = getattr(group, "key", None)
    if not key:
        return "the trials"
    where = f"system {group.system!r}"
    return where if group.split is None else f"{where}, split {group.split!r}"


def _check_common(n_resamples, confidence_level, resample, ci_method):
    check_n_resamples(n_resamples)
    check_confidence_level(confidence_level)
    if resample != AUTO:
        check_option(resample, RESAMPLE, "resample")
    check_option(ci_method, CI_METHODS, "ci_method")


def _interval(values, estimate, confidence_level, ci_method):
    low, high = percentile_interval(values, confidence_level)
    if ci_method == "basic":
        low, high = 2 * estimate - high, 2 * estimate - low
    return float(low), float(high)


def bootstrap(
    data: pd.DataFrame,
    /,
    *,
    metric: BootstrapMetric = "eer_threshold",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    ci_method: BootstrapCIMethod = "percentile",
    resample: ResampleOption = "auto",
    seed: int | np.random.Generator | None = None,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    progress: bool | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Bootstrap confidence interval of a metric, for every system.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`pandas_biosig.eer`).
    metric : str, default "eer_threshold"
        One of :data:`BOOTSTRAP_METRICS`: ``"eer_threshold"`` (bob.measure's threshold
        EER, the library's default EER: its 95 % interval covers 0.96 at 50 genuine / 200
        impostor trials), ``"eer"`` (ROCCH; biased low on small sets, coverage 0.88 there,
        see ``docs/methods.md``),
        ``"eer_interpolated"``, ``"auc"``, ``"min_hter"``, ``"min_dcf"``,
        ``"fnmr_at_fmr"`` / ``"fmr_at_fnmr"`` (with ``target``), ``"cllr"``,
        ``"min_cllr"``, or ``"far"``, ``"frr"``, ``"hter"`` at a threshold policy.
        At a fixed threshold the percentile interval of ``"hter"`` behaves like a normal
        (Wald) interval of the rates, slightly narrow at these sizes and too low when the
        errors are few: measured coverage 0.92–0.94 at 200 genuine / 2,000 impostor trials
        (100 subjects per split) and 0.91 at an EER of 0.6 % with 1,000 / 10,000 trials
        (the truth then lies above the interval in 8 % of datasets); Monte-Carlo s.e.
        0.015 (``docs/validity.md``). :func:`pandas_biosig.ci` (Clopper–Pearson and
        MOVER, on design-effect sample sizes when subjects are known) covers 0.95–0.98 in
        the same settings and is the interval to report for a rate at a fixed threshold.
    n_resamples : int
        Number of bootstrap replicates.
    confidence_level : float
        Two-sided level of the interval.
    ci_method : {"percentile", "basic"}
        Percentile interval (Efron) or basic (reverse percentile) interval.
    resample : {"auto", "label", "trial", "subject"}, default "auto"
        ``"label"`` draws trials with replacement within each class, so the numbers of
        genuine and impostor trials stay fixed; ``"trial"`` ignores the class;
        ``"subject"`` draws whole subjects (needs a ``subject`` column, with no missing
        id and at least two subjects), because trials of one person are not independent.
        ``"auto"``: ``"subject"`` when the table has a subject column, else ``"label"``;
        the ``resample`` column says which.
    seed : int or numpy.random.Generator, optional
        Seed of the replicates; the same seed gives the same numbers bit for bit.
    threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        The threshold policy of ``"far"``, ``"frr"``, ``"hter"`` (as in
        :func:`pandas_biosig.error_rates`: ``weight`` is the weight of FAR that
        ``threshold="min_weighted"`` minimizes; the threshold is chosen once, on the original
        trials, and held fixed; with ``on="auto"``/``apply_to="auto"`` a table with dev and
        eval splits has it chosen on dev and reported on eval, see
        :mod:`pandas_biosig.protocol`), ``target`` for ``"fnmr_at_fmr"``/``"fmr_at_fnmr"``,
        and the costs of ``"min_dcf"``.
    progress : bool, optional
        A progress bar (tqdm) with the rate and the time left, shown once the work takes
        more than half a second. True: always; False: never; None (default): in an
        interactive terminal or a Jupyter notebook, never in pipes, logs or CI.
    by, system, trial, label, score, split, subject, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.

    Returns
    -------
    DataFrame
        One row per system (and ``by`` group and split) with columns ``system, split,
        metric, estimate`` (the metric on the original trials), ``se`` (standard deviation
        of the replicates), ``ci_low, ci_high, confidence_level, ci_method, resample,
        n_resamples``, ``threshold`` (the fixed threshold of ``far``/``frr``/``hter``,
        NaN otherwise), ``threshold_from`` (the split it was chosen on, ``"same
        trials"`` or ``"fixed"``; None when no threshold is used) and ``weight`` (the
        weight of FAR the threshold criterion minimized, as in
        :func:`pandas_biosig.error_rates`: ``min_hter`` 0.5, ``min_weighted`` ``weight``,
        ``min_dcf`` the equivalent weight; NaN otherwise).

    Notes
    -----
    No replicate is sorted again. With ``resample="label"``, the metrics that look at a
    few thresholds only (``eer_threshold``, ``eer_interpolated``, ``fnmr_at_fmr``,
    ``fmr_at_fnmr``, ``far``, ``frr``, ``hter``) draw the number of resampled scores below
    each threshold they visit, binomially and on demand (O(log n) per replicate); the other
    metrics give each sorted score its multiplicity (O(n) per replicate), except the hull
    EER (``"eer"``, with ``resample="label"``), whose replicates draw the counts of
    intervals of the sorted scores and refine them only around the FAR = FRR crossing. All
    have exactly the distribution of resampling the trials and sorting them again.

    References
    ----------
    Bengio, S., Mariéthoz, J., & Keller, M. (2005). The expected performance curve.
    ICML Workshop on ROC Analysis in Machine Learning.

    Efron, B., & Tibshirani, R. J. (1993). An introduction to the bootstrap. Chapman & Hall.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> ci = pbs.bootstrap(trials, n_resamples=200, seed=0)
    >>> ci[["system", "split", "estimate", "ci_low", "ci_high", "resample"]].round(3).head(2)
      system split  estimate  ci_low  ci_high resample
    0    cnn   dev     0.042   0.029    0.057  subject
    1    cnn  eval     0.054   0.039    0.067  subject
    """
    _check_common(n_resamples, confidence_level, resample, ci_method)
    check_option(metric, BOOTSTRAP_METRICS, "metric")
    if metric in ("fnmr_at_fmr", "fmr_at_fnmr"):
        if target is None:
            raise ValueError(f"metric={metric!r} needs target= (a rate in [0, 1])")
        target = check_rate(target, "target")
    if metric == "min_dcf":
        check_costs(p_target, c_miss, c_fa)
    trials = _validate(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    sign = -1.0 if orientation == "distance" else 1.0
    f = _metric_function(metric, target=target, p_target=p_target, c_miss=c_miss, c_fa=c_fa)
    protocol = Protocol(threshold=threshold, weight=weight, target=target, p_target=p_target,
                        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, resample=resample)
    unit = protocol.unit(trials, subject=subject)
    plan = protocol.resolve(trials, needs_threshold=metric in _FIXED, resample=unit)
    rng = _rng(seed)
    tick = _progress(progress, n_resamples * len(plan), "bootstrap")
    groups, rows = [], []
    done = 0
    for r in plan:
        g, sw, t = r.group, r.sweep, r.threshold
        estimate = f(sw, t)
        hull = HullReplicates(sw) if metric == "eer" and unit == "label" else None
        reps = None if hull else _Replicates(g, sw, unit, lazy=metric in _LOCAL)
        values = np.empty(n_resamples)
        for i in range(n_resamples):
            # the hull EER needs the replicate's hull near the crossing only
            values[i] = hull.draw(rng) if hull else f(reps.draw(rng), t)
            done += 1
            tick(done)
        low, high = _interval(values, estimate, confidence_level, ci_method)
        groups.append(g)
        rows.append(
            dict(
                metric=metric,
                estimate=estimate,
                se=float(np.nanstd(values, ddof=1)) if n_resamples > 1 else float("nan"),
                ci_low=low,
                ci_high=high,
                confidence_level=confidence_level,
                ci_method=ci_method,
                resample=unit,
                n_resamples=n_resamples,
                threshold=sign * t,
                threshold_from=r.threshold_from,
                weight=r.weight,
            )
        )
    return _frame(trials, groups, rows, BOOTSTRAP_COLUMNS)


# --------------------------------------------------------------------- paired resampling
@dataclass(frozen=True)
class BootstrapTestResult(TestResult):
    """A paired bootstrap test: :class:`TestResult` whose interval is the bootstrap one.

    ``confidence_interval(confidence_level=...)`` gives the percentile interval of the
    replicated differences (not a normal approximation); one-sided for a one-sided
    ``alternative``, as the other tests' intervals: ``(q_{1-δ}, inf)`` for ``"greater"``,
    ``(-inf, q_δ)`` for ``"less"`` (``q_x`` the x-quantile of the replicates), so the
    interval excludes 0 where the p-value is below 1 − δ (up to the +1 correction).
    """

    _replicates: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    #: the weight of FAR the threshold criterion minimized (as the ``weight`` column of
    #: :func:`pandas_biosig.error_rates`), NaN when no weighted criterion chose it
    weight: float = math.nan

    def confidence_interval(self, *, confidence_level: float = 0.95) -> ConfidenceInterval:
        confidence_level = check_confidence_level(confidence_level)
        if self.alternative == "two-sided":
            low, high = percentile_interval(self._replicates, confidence_level)
            return ConfidenceInterval(float(low), float(high))
        if self._replicates.size == 0 or np.isnan(self._replicates).all():
            return ConfidenceInterval(math.nan, math.nan)
        if self.alternative == "greater":
            low = np.nanquantile(self._replicates, 1 - confidence_level)
            return ConfidenceInterval(float(low), math.inf)
        high = np.nanquantile(self._replicates, confidence_level)
        return ConfidenceInterval(-math.inf, float(high))


class PairedResampler:
    """Shared trial multiplicities for several systems scored on the same trials.

    Parameters
    ----------
    groups : list of Group
        Groups of one (``by``, split) family, already aligned: the same trials in the same
        order, with the same labels.
    resample : {"label", "trial", "subject"}
    """

    def __init__(self, groups: Sequence[Group], resample: str):
        self.groups = list(groups)
        self.resample = resample
        self.sweeps = [Sweep.from_scores(g.scores, g.genuine).prepare_resampling() for g in groups]
        self.perms = [_class_permutations(g) for g in groups]
        genuine = groups[0].genuine
        if resample == "label":
            self.strata, self.n_strata = genuine.astype(np.int64), 2
        elif resample == "trial":
            self.strata, self.n_strata = np.zeros(genuine.size, dtype=np.int64), 1
        else:
            self.clusters, self.n_clusters = subject_clusters(groups[0].subject, _named(groups[0]))

    def weights(self, rng: np.random.Generator) -> np.ndarray:
        """Multiplicities of the trials for one replicate."""
        if self.resample == "subject":
            return cluster_counts(rng, self.clusters, self.n_clusters)
        return stratified_counts(rng, self.strata, self.n_strata)

    def sweeps_for(self, w: np.ndarray) -> list[Sweep]:
        return [
            sw.reweighted(w[neg], w[pos])
            for sw, (neg, pos) in zip(self.sweeps, self.perms, strict=True)
        ]


def align_pair(a: Group, b: Group, *, common_trials: bool, where: str = "") -> tuple[Group, Group]:
    """The two groups restricted to (and ordered by) their shared trials."""
    ia = pd.Index(a.trial)
    ib = pd.Index(b.trial)
    if ia.equals(ib):
        _check_labels(a, b, np.arange(len(ia)), np.arange(len(ib)))
        return a, b
    common = ia.intersection(ib, sort=False)
    only_a = ia.difference(ib, sort=False)
    only_b = ib.difference(ia, sort=False)
    if (len(only_a) or len(only_b)) and not common_trials:
        examples = list(only_a[:3]) + list(only_b[:3])
        raise SchemaError(
            ERROR_ALIGN.format(
                a=a.system, b=b.system, where=where, n_a=len(only_a), n_b=len(only_b),
                examples=[v.item() if isinstance(v, np.generic) else v for v in examples],
            )
        )
    pa = ia.get_indexer(common)
    pb = ib.get_indexer(common)
    _check_labels(a, b, pa, pb)
    return _take(a, pa), _take(b, pb)


def _check_labels(a: Group, b: Group, pa, pb) -> None:
    diff = a.genuine[pa] != b.genuine[pb]
    if diff.any():
        bad = a.trial[pa][np.argmax(diff)]
        raise SchemaError(ERROR_LABELS_DIFFER.format(trial=getattr(bad, "item", lambda: bad)()))


def _take(g: Group, idx: np.ndarray) -> Group:
    return Group(
        g.key,
        g.scores[idx],
        g.genuine[idx],
        g.trial[idx],
        None if g.rows is None else g.rows[idx],
        None if g.subject is None else g.subject[idx],
    )


def bootstrap_difference(
    a: Group,
    b: Group,
    f: Callable,
    thresholds: tuple[float, float],
    *,
    n_resamples: int,
    resample: str,
    rng: np.random.Generator,
    alternative: Alternative = "two-sided",
    tick: Callable[[int], None] | None = None,
    metric: BootstrapMetric | None = None,
) -> BootstrapTestResult:
    """Paired bootstrap test of ``f(A) - f(B)`` on aligned groups.

    For ``metric`` in ``far``, ``frr``, ``hter`` (fixed thresholds) every trial falls in
    one of eight cells (class x A accepts x B accepts), and a replicate is a multinomial
    draw of the cell counts: O(1) per replicate (O(subjects) for subject resampling).
    """
    if metric in _FIXED:
        est = f(Sweep.from_scores(a.scores, a.genuine), thresholds[0]) - f(
            Sweep.from_scores(b.scores, b.genuine), thresholds[1]
        )
        deltas = _fixed_threshold_deltas(a, b, metric, thresholds, n_resamples, resample, rng)
        if tick is not None:
            tick(n_resamples)
        return _bootstrap_result(est, deltas, alternative, n=a.genuine.size)
    res = PairedResampler([a, b], resample)
    est = f(res.sweeps[0], thresholds[0]) - f(res.sweeps[1], thresholds[1])
    deltas = np.empty(n_resamples)
    for i in range(n_resamples):
        sa, sb = res.sweeps_for(res.weights(rng))
        deltas[i] = f(sa, thresholds[0]) - f(sb, thresholds[1])
        if tick is not None:
            tick(i + 1)
    return _bootstrap_result(est, deltas, alternative, n=a.genuine.size)


def _fixed_threshold_deltas(a, b, metric, thresholds, n_resamples, resample, rng):
    """Replicated metric(A) - metric(B) at fixed thresholds, from the 8-cell table."""
    acc_a = a.scores >= thresholds[0]
    acc_b = b.scores >= thresholds[1]
    cell = a.genuine.astype(np.int64) * 4 + acc_a * 2 + acc_b
    if resample == "subject":
        codes, n_subjects = subject_clusters(a.subject, _named(a))
        table = np.zeros((n_subjects, 8))
        np.add.at(table, (codes, cell), 1)
        mult = rng.multinomial(n_subjects, np.full(n_subjects, 1 / n_subjects), size=n_resamples)
        counts = mult @ table
    else:
        counts = _cell_draws(np.bincount(cell, minlength=8), n_resamples, resample, rng)
    with np.errstate(invalid="ignore", divide="ignore"):
        ni = counts[:, :4].sum(axis=1)
        nc = counts[:, 4:].sum(axis=1)
        far_a = (counts[:, 2] + counts[:, 3]) / ni
        far_b = (counts[:, 1] + counts[:, 3]) / ni
        frr_a = (counts[:, 4] + counts[:, 5]) / nc
        frr_b = (counts[:, 4] + counts[:, 6]) / nc
    if metric == "far":
        return far_a - far_b
    if metric == "frr":
        return frr_a - frr_b
    return (far_a + frr_a) / 2 - (far_b + frr_b) / 2


def _cell_draws(n_cell: np.ndarray, n_resamples: int, resample: str, rng) -> np.ndarray:
    """Replicated counts of the 8 cells (class x A accepts x B accepts), drawn so that
    swapping A and B swaps the discordant cells of every replicate: per class, the two
    concordant cells and the discordant total first, then the split of the discordant
    trials, binomially (numpy draws Bin(n, 1 - q) as n - Bin(n, q) from the same stream).
    """
    n_cell = n_cell.astype(np.int64)
    totals = n_cell.reshape(2, 4).sum(axis=1)
    if resample == "label":
        per_class = np.broadcast_to(totals, (n_resamples, 2))
    else:  # trials regardless of class: the class sizes vary too
        n = int(totals.sum())
        n_neg = rng.binomial(n, totals[0] / n, size=n_resamples)
        per_class = np.stack([n_neg, n - n_neg], axis=1)
    counts = np.zeros((n_resamples, 8))
    disc = n_cell[[1, 5]] + n_cell[[2, 6]]
    sign = np.sign(n_cell[[2, 6]] - n_cell[[1, 5]])  # which of A, B errs alone more
    for k, lo in enumerate((0, 4)):
        size = totals[k]
        if size == 0:
            continue
        probs = np.array([n_cell[lo], n_cell[lo + 3], disc[k]], dtype=np.float64) / size
        three = _multinomial(rng, per_class[:, k], probs)
        counts[:, lo], counts[:, lo + 3] = three[:, 0], three[:, 1]
        d = three[:, 2]
        if disc[k] == 0:
            continue
        if n_cell[lo + 1] == 0 or n_cell[lo + 2] == 0:  # one-sided: no draw (numpy
            a_alone = d if n_cell[lo + 1] == 0 else d * 0  # may consume the stream at p=1)
        else:
            a_alone = rng.binomial(d, n_cell[lo + 2] / disc[k])
            if sign[k] == 0 and sign[1 - k] < 0:  # a tie: orient it by the other class
                a_alone = d - a_alone
        counts[:, lo + 2], counts[:, lo + 1] = a_alone, d - a_alone
    return counts


def _multinomial(rng, n: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """One multinomial draw per entry of ``n`` (numpy broadcasts the counts)."""
    return rng.multinomial(np.asarray(n, dtype=np.int64), probs)


def bootstrap_pvalue(deltas: np.ndarray, alternative: str = "two-sided") -> float:
    """P-value of "no difference" from replicated differences (NaN replicates ignored):
    the share of replicates on the far side of 0, with the +1 correction."""
    finite = deltas[np.isfinite(deltas)]
    below = (np.count_nonzero(finite <= 0) + 1) / (finite.size + 1)
    above = (np.count_nonzero(finite >= 0) + 1) / (finite.size + 1)
    if alternative == "two-sided":
        return min(1.0, 2 * min(below, above))
    return below if alternative == "greater" else above  # "greater": H1 is A - B > 0


def _bootstrap_result(est, deltas, alternative, n) -> BootstrapTestResult:
    finite = deltas[np.isfinite(deltas)]
    m = finite.size
    p = bootstrap_pvalue(finite, alternative)
    se = float(np.std(finite, ddof=1)) if m > 1 else float("nan")
    z = est / se if se and se > 0 else float("nan")
    return BootstrapTestResult(
        statistic=float(z),
        pvalue=float(p),
        log10_pvalue=math.log10(p),
        estimate=float(est),
        alternative=alternative,
        method="paired bootstrap of the metric difference",
        n=int(n),
        _se=se,
        _replicates=finite,
    )


def paired_bootstrap(
    data: pd.DataFrame,
    /,
    system_a: Hashable,
    system_b: Hashable,
    *,
    metric: BootstrapMetric = "eer_threshold",
    n_resamples: int = 1000,
    alternative: Alternative = "two-sided",
    resample: ResampleOption = "auto",
    seed: int | np.random.Generator | None = None,
    common_trials: bool = False,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = "auto",
    apply_to: Hashable | None = "auto",
    progress: bool | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> BootstrapTestResult:
    r"""Paired bootstrap test of the difference of a metric between two systems.

    The same trials (aligned on ``trial``) are drawn for both systems in every replicate,
    so the correlation between the systems is kept.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table with both systems; with a split column, pass ``apply_to`` (the
        split to test on).
    system_a, system_b : hashable
        The two systems; ``estimate`` is metric(A) - metric(B).
    metric, n_resamples, resample, seed, threshold, weight, target, p_target, c_miss, c_fa, on
        As in :func:`bootstrap` (defaults: the threshold EER; subjects resampled when the
        table has a subject column).
    alternative : {"two-sided", "less", "greater"}
        ``"less"``: metric(A) < metric(B) under H1.
    common_trials : bool
        Keep only the trials both systems scored instead of raising when they differ.
    apply_to : split value or "auto", default "auto"
        The split to test on; ``"auto"``: the evaluation split of a table with dev and
        eval splits.

    Returns
    -------
    BootstrapTestResult
        ``estimate`` (A - B), ``statistic`` (estimate / bootstrap standard error),
        ``pvalue`` (two-sided: :math:`2\min(P^*(\Delta \le 0), P^*(\Delta \ge 0))`;
        ``"greater"``: :math:`P^*(\Delta \le 0)`; ``"less"``: :math:`P^*(\Delta \ge 0)`;
        each with the +1 correction), ``log10_pvalue``, and ``confidence_interval()`` the
        percentile interval of the differences (one-sided for a one-sided
        ``alternative``); ``weight`` as in :func:`bootstrap` (NaN unless a weighted
        criterion chose the thresholds).

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.paired_bootstrap(trials, "cnn", "lbp", n_resamples=200, seed=1)
    >>> res.estimate < 0, res.pvalue < 0.05
    (True, True)
    """
    check_option(metric, BOOTSTRAP_METRICS, "metric")
    check_alternative(alternative)
    _check_common(n_resamples, 0.95, resample, "percentile")
    trials = _validate(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=None, orientation=orientation, nonfinite=nonfinite,
    )
    f = _metric_function(metric, target=target, p_target=p_target, c_miss=c_miss, c_fa=c_fa)
    protocol = Protocol(threshold=threshold, weight=weight, target=target, p_target=p_target,
                        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, resample=resample)
    unit = protocol.unit(trials, subject=subject)
    plan = protocol.resolve(trials, needs_threshold=metric in _FIXED, resample=unit)
    if metric not in _FIXED and isinstance(apply_to, str) and apply_to == AUTO:
        evals = split_roles(trials)[1]
        if len(evals) == 1:  # no threshold to choose: test on the evaluation split
            plan = [r for r in plan if r.group.split == evals[0]]
    ra, rb = _pick(trials, plan, system_a), _pick(trials, plan, system_b)
    ga, gb = align_pair(ra.group, rb.group, common_trials=common_trials)
    tick = _progress(progress, n_resamples, "paired bootstrap")
    res = bootstrap_difference(
        ga, gb, f, (ra.threshold, rb.threshold), n_resamples=n_resamples, resample=unit,
        rng=_rng(seed), alternative=alternative, tick=tick, metric=metric,
    )
    # math.nan itself, so that two results of one call compare equal as dicts
    return replace(res, weight=math.nan if math.isnan(ra.weight) else ra.weight)


ERROR_GROUPS = (
    "system {system!r} has {n} groups (splits); pass apply_to=<split> to choose the one "
    "to test on"
)


def _pick(trials: Trials, plan: list[Resolved], name) -> Resolved:
    found = list(dict.fromkeys(g.system for g in trials.groups))
    if name not in found:
        raise SchemaError(ERROR_PAIR.format(system=name, found=found))
    mine = [r for r in plan if r.group.system == name]
    if len(mine) != 1:
        raise SchemaError(ERROR_GROUPS.format(system=name, n=len(mine)))
    return mine[0]


# ------------------------------------------------------------------------- EPC bands
def epc_bootstrap(
    data: pd.DataFrame,
    /,
    *,
    criterion: EPCCriterion = "min_weighted",
    weight=None,
    on: Hashable = "dev",
    apply_to: Hashable = "eval",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    resample: ResampleOption = "auto",
    seed: int | np.random.Generator | None = None,
    progress: bool | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
):
    r"""Expected Performance Curve with bootstrap bands, and where two systems differ.

    The thresholds :math:`\theta^*(\alpha)` are chosen once on ``on``; the ``apply_to``
    trials are resampled with replacement, the same trials for every system (paired), and
    the rates at the fixed thresholds are recomputed for every replicate (Bengio,
    Mariéthoz & Keller 2005, section 5 and Fig. 8).

    Parameters
    ----------
    data : DataFrame
        Tidy trial table with a split column; the systems must share their ``apply_to``
        trials.
    criterion, weight, on, apply_to
        As in :func:`pandas_biosig.epc`.
    n_resamples, confidence_level, resample, seed, progress
        As in :func:`pandas_biosig.bootstrap`.
    system, trial, label, score, split, subject, orientation, nonfinite
        Column names and policies, as in :func:`pandas_biosig.eer`.

    Returns
    -------
    xarray.Dataset
        Everything :func:`pandas_biosig.epc` returns, plus

        - ``hter_low``, ``hter_high``, ``value_low``, ``value_high`` over
          (``system``, ``weight``): percentile bands of ``hter`` and ``value``;
        - over (``pair``, ``weight``), one entry per unordered pair of systems in input order
          (coords ``system_a``, ``system_b`` on ``pair``): ``difference`` (HTER of A minus
          HTER of B), ``difference_low``, ``difference_high`` (its percentile interval)
          and ``significant`` (the interval excludes 0).

        Attrs add ``n_resamples``, ``confidence_level`` and ``resample``.

    Notes
    -----
    ``significant`` is marked weight by weight, with no correction for the many weights
    of the grid; read it as the paper's Fig. 8 does, as the region where the systems
    differ, not as one test.

    With ``resample="label"`` or ``"trial"``, a replicate at one weight is drawn from the
    counts of four cells per class (each system: accepted or not at that weight's
    threshold; each pair: both, A only, B only, neither): exactly the distribution of
    resampling the trials, at O(1) per replicate and weight. Weights are drawn
    independently of each other.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> ds = pbs.epc_bootstrap(trials, weight=np.linspace(0.1, 0.9, 9), n_resamples=200, seed=0)
    >>> ds.pair.size, ds.significant.dims
    (6, ('pair', 'weight'))
    >>> bool(ds.significant.sel(pair="cnn vs lbp").all())
    True
    """
    from . import curves as _curves
    from ._kernels import curves as _kc

    _check_common(n_resamples, confidence_level, resample, "percentile")
    ds = _curves.epc(
        data, criterion=criterion, weight=weight, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, orientation=orientation,
        nonfinite=nonfinite,
    )
    alpha = ds["weight"].values
    trials = _validate(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=None, orientation=orientation, nonfinite=nonfinite,
    )
    resample = Protocol(resample=resample).unit(trials, subject=subject)
    keys, dev_thr = _curves._epc_thresholds(trials, criterion=criterion, weights=alpha, on=on)
    row = {k: i for i, k in enumerate(keys)}
    targets = trials.select_split(apply_to, name="apply_to")
    ref = targets[0]
    aligned = [align_pair(ref, g, common_trials=False)[1] for g in targets]
    genuine = ref.genuine
    # per system: for every trial, how many of the (sorted) thresholds it reaches
    buckets, orders = [], []
    for g in aligned:
        t = dev_thr[row[g.key[:-1]]]
        order = np.argsort(t, kind="stable")
        buckets.append(np.searchsorted(t[order], g.scores, side="right"))
        orders.append(order)
    n_w = alpha.size
    rng = _rng(seed)
    if resample == "label" and (genuine.all() or not genuine.any()):
        raise SchemaError("the apply_to split needs both genuine and impostor trials")
    if resample in ("label", "trial"):  # counts per cell between the fixed thresholds
        (hter, value), diff = _epc_cell_replicates(rng, buckets, orders, genuine, alpha,
                                                   criterion, n_resamples, resample)
        _progress(progress, n_resamples, "EPC bootstrap")(n_resamples)
        return _epc_result(ds, aligned, hter, value, diff, confidence_level, n_resamples,
                           resample)
    n_trials = genuine.size
    if resample == "subject":
        codes, n_subjects = subject_clusters(ref.subject, f"split {apply_to!r}")
    # each system's trials grouped by bucket, impostors first: one gather and one
    # reduceat per chunk of replicates gives the per-bucket counts of every replicate
    layouts = []
    for b in buckets:
        key = b + (n_w + 1) * genuine
        order = np.argsort(key, kind="stable")
        starts = np.searchsorted(key[order], np.arange(2 * (n_w + 1)))
        layouts.append((order, starts))
    k = len(aligned)
    hter = np.empty((n_resamples, k, n_w))
    value = np.empty((n_resamples, k, n_w))
    tick = _progress(progress, n_resamples, "EPC bootstrap")
    chunk = max(1, min(n_resamples, int(2e7 // max(n_trials, 1))))
    imp_idx = np.flatnonzero(~genuine)
    gen_idx = np.flatnonzero(genuine)
    for lo in range(0, n_resamples, chunk):
        b_c = min(chunk, n_resamples - lo)
        offsets = (np.arange(b_c) * n_trials)[:, None]
        if resample in ("label", "trial"):
            parts = (imp_idx, gen_idx) if resample == "label" else (np.arange(n_trials),)
            flat = np.concatenate(
                [(idx[rng.integers(0, idx.size, size=(b_c, idx.size))] + offsets).ravel()
                 for idx in parts]
            )
            w = np.bincount(flat, minlength=b_c * n_trials).reshape(b_c, n_trials)
        else:
            mult = np.stack([cluster_counts(rng, codes, n_subjects) for _ in range(b_c)])
            w = mult.astype(np.int32)
        n = w[:, imp_idx].sum(axis=1, dtype=np.int64)[:, None]
        p = w[:, gen_idx].sum(axis=1, dtype=np.int64)[:, None]
        for s, ((order, starts), t_order) in enumerate(zip(layouts, orders, strict=True)):
            per = np.add.reduceat(w[:, order], np.minimum(starts, n_trials - 1), axis=1,
                                  dtype=np.int64)
            per[:, np.diff(np.append(starts, n_trials)) == 0] = 0  # empty buckets
            acc_imp, acc_gen = per[:, : n_w + 1], per[:, n_w + 1 :]
            # the threshold of sorted rank r accepts the trials whose bucket is > r
            fa_sorted = np.cumsum(acc_imp[:, ::-1], axis=1)[:, ::-1][:, 1:]
            tp_sorted = np.cumsum(acc_gen[:, ::-1], axis=1)[:, ::-1][:, 1:]
            fa = np.empty((b_c, n_w))
            fr = np.empty((b_c, n_w))
            fa[:, t_order] = fa_sorted
            fr[:, t_order] = p - tp_sorted
            with np.errstate(invalid="ignore", divide="ignore"):
                _, _, hter[lo : lo + b_c, s], value[lo : lo + b_c, s] = _kc.epc_values(
                    fa, fr, n, p, alpha, criterion
                )
        tick(lo + b_c)
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    diff = np.stack([hter[:, a] - hter[:, b] for a, b in pairs], axis=1) if pairs else None
    return _epc_result(ds, aligned, hter, value, diff, confidence_level, n_resamples, resample)


def _epc_cell_replicates(rng, buckets, orders, genuine, alpha, criterion, n_resamples,
                         resample):
    """Replicated HTER and criterion value of every system, and HTER differences of every
    pair, weight by weight from cell counts: at one weight a system's rates depend on a
    trial only through its class and whether the weight's threshold accepts it, a pair's
    difference through the class and both decisions (four cells per class)."""
    from ._kernels import curves as _kc

    m = alpha.size + 1  # buckets: how many sorted thresholds a trial reaches
    # the threshold of weight w accepts the trials whose bucket exceeds its rank
    first = [np.argsort(order, kind="stable") + 1 for order in orders]
    classes = (~genuine, genuine)

    def at_least(b):
        """Per class: the number of trials whose bucket is >= i, for i = 0..m."""
        hist = [np.bincount(b[c], minlength=m) for c in classes]
        return [np.concatenate((np.cumsum(h[::-1])[::-1], [0])) for h in hist]

    def draw(sizes):
        """Counts of the impostor and the genuine cells (sizes: class x cell x weight)."""
        sizes = np.asarray(sizes)
        if resample == "label":
            return cell_draws(rng, sizes[0], n_resamples), cell_draws(rng, sizes[1], n_resamples)
        c = cell_draws(rng, sizes.reshape(-1, sizes.shape[-1]), n_resamples)
        return c[:, : sizes.shape[1]], c[:, sizes.shape[1] :]

    def rates(fa, fr, n, p):
        with np.errstate(invalid="ignore", divide="ignore"):
            _, _, hter, value = _kc.epc_values(fa, fr, n, p, alpha, criterion)
        return hter, value

    k = len(buckets)
    totals = [int(np.count_nonzero(c)) for c in classes]
    single = []
    hter = np.empty((n_resamples, k, alpha.size))
    value = np.empty((n_resamples, k, alpha.size))
    for s in range(k):
        acc = [ge[first[s]] for ge in at_least(buckets[s])]  # per class, per weight
        single.append(acc)
        ci, cg = draw([[a, t - a] for a, t in zip(acc, totals, strict=True)])
        hter[:, s], value[:, s] = rates(ci[:, 0], cg[:, 1], ci.sum(axis=1), cg.sum(axis=1))
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    if not pairs:
        return (hter, value), None
    diff = np.empty((n_resamples, len(pairs), alpha.size))
    for j, (a, b) in enumerate(pairs):
        sizes = []
        for c, cls in enumerate(classes):
            h = np.bincount(buckets[a][cls] * m + buckets[b][cls], minlength=m * m)
            both_ge = np.zeros((m + 1, m + 1), dtype=np.int64)
            both_ge[:m, :m] = h.reshape(m, m)[::-1, ::-1].cumsum(0).cumsum(1)[::-1, ::-1]
            both = both_ge[first[a], first[b]]
            only_a = single[a][c] - both
            only_b = single[b][c] - both
            sizes.append([both, only_a, only_b, totals[c] - both - only_a - only_b])
        ci, cg = draw(sizes)  # cells: both accept, A only, B only, neither
        n, p = ci.sum(axis=1), cg.sum(axis=1)
        ha, _ = rates(ci[:, 0] + ci[:, 1], cg[:, 2] + cg[:, 3], n, p)
        hb, _ = rates(ci[:, 0] + ci[:, 2], cg[:, 1] + cg[:, 3], n, p)
        diff[:, j] = ha - hb
    return (hter, value), diff


def _epc_result(ds, aligned, hter, value, diff, level, n_resamples, resample):
    k = len(aligned)
    n_w = hter.shape[-1]
    band = {}
    for name, arr in (("hter", hter), ("value", value)):
        low, high = percentile_interval(arr, level)
        for suffix, vals in (("low", low), ("high", high)):
            band[f"{name}_{suffix}"] = (
                ("system", "weight"),
                vals,
                {"long_name": f"{100 * level:g}% bootstrap {suffix} bound of {name}", "units": "1"},
            )
    names = [g.system for g in aligned]
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    if pairs:
        d_low, d_high = percentile_interval(diff, level)
    else:  # one system: bands only, an empty pair dimension
        d_low = d_high = np.zeros((0, n_w))
    point = ds.hter.values
    est = np.array([point[a] - point[b] for a, b in pairs]).reshape(len(pairs), n_w)
    out = ds.assign(**{name: xr_var for name, xr_var in band.items()})
    pair_labels = [f"{names[a]} vs {names[b]}" for a, b in pairs]
    out = out.assign_coords(
        pair=("pair", pair_labels),
        system_a=("pair", [str(names[a]) for a, _ in pairs]),
        system_b=("pair", [str(names[b]) for _, b in pairs]),
    )
    frac = {"units": "1"}
    out["difference"] = (("pair", "weight"), est, {"long_name": "HTER of A minus HTER of B", **frac})
    out["difference_low"] = (("pair", "weight"), d_low,
                             {"long_name": f"{100 * level:g}% bootstrap low bound of difference", **frac})
    out["difference_high"] = (("pair", "weight"), d_high,
                              {"long_name": f"{100 * level:g}% bootstrap high bound of difference", **frac})
    out["significant"] = (("pair", "weight"), (d_low > 0) | (d_high < 0),
                          {"long_name": "the difference interval excludes 0"})
    out.attrs.update(n_resamples=int(n_resamples), confidence_level=float(level), resample=resample)
    return out


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
