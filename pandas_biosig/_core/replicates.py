"""The replicate machinery every bootstrap shares: seeds, progress, the metric of a sweep,
replicate sweeps of one group, and the paired test of two aligned groups.

A documented internal module (docs/architecture.md, layer 1).  Every replicate reuses the
one sort of each system (:mod:`pandas_biosig._kernels.resample`): integer multiplicities
over the sorted scores, prefix counts drawn lazily for the metrics that read a few
thresholds only, or, at fixed thresholds, multinomial cell counts.  Used by
:mod:`pandas_biosig.verification._resampling` (``bootstrap``, ``paired_bootstrap``),
:mod:`pandas_biosig.verification._epc` (``epc_bootstrap``),
:mod:`pandas_biosig.verification._comparison`, :mod:`pandas_biosig.verification._folds`,
:mod:`pandas_biosig.identification._compare` and :mod:`pandas_biosig.validity`, which import
its ``_`` names from here; the public ones are re-exported by :mod:`pandas_biosig.verification._resampling`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import cast, overload

import numpy as np
import pandas as pd
from scipy.stats import t as student_t

from .._kernels.rates import Sweep
from .._kernels.resample import (
    lazy_replicate,
    people_weights,
    percentile_interval,
    stratified_counts,
    uniform_counts,
)
from .cells import cell_deltas, cell_marginals, marginal_deltas
from .criteria import bounded_point, eer_point, min_dcf_point, min_weighted_point
from .options import Alternative, BootstrapMetric
from .progress import progress_bar
from .protocol import AUTO, PEOPLE, RESAMPLE, people, subject_clusters
from .replicate_blocks import PAIRED_BLOCK_METRICS, class_weights, paired_block_deltas
from .results import ConfidenceInterval, TestResult
from .schema import BiosigWarning, Group, SchemaError, check_option
from .validation import check_confidence_level, check_n_resamples

#: Metrics read at few thresholds (drawn lazily under label resampling).
LOCAL_METRICS = {"eer_threshold", "eer_interpolated", "fnmr_at_fmr", "fmr_at_fnmr", "far", "frr", "hter"}
#: Metrics read at a threshold held fixed.
FIXED_THRESHOLD_METRICS = {"far", "frr", "hter"}

#: Interval methods of :func:`pandas_biosig.bootstrap`.
CI_METHODS = {
    "auto": "studentized for far, frr, hter with subjects resampled, else percentile",
    "percentile": "quantiles of the replicates",
    "basic": "2*estimate - quantiles",
    "bca": "bias-corrected and accelerated percentile (Efron 1987; jackknife over the units)",
    "studentized": "estimate ± t_df · se, Welch–Satterthwaite df (far, frr, hter)",
}

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


def make_rng(seed) -> np.random.Generator:
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


def replicate_progress(enabled: bool | None, total: int, label: str) -> Callable[[int], None]:
    """A tqdm progress bar (see :mod:`pandas_biosig._core.progress`): ``tick(done)``."""
    return progress_bar(enabled, total, label, unit="resample")


#: A bare ``"eer"`` names the library's default EER (as :func:`pandas_biosig.eer`): the
#: metric it stands for, under which results report it.
DEFAULT_EER = "eer_threshold"


@overload
def canonical_metric(metric: BootstrapMetric) -> BootstrapMetric: ...
@overload
def canonical_metric(metric: str) -> str: ...
def canonical_metric(metric: str) -> str:
    """The one name of a metric: ``"eer"`` is :data:`DEFAULT_EER`."""
    return DEFAULT_EER if metric == "eer" else metric


def metric_function(metric: str, *, target, p_target, c_miss, c_fa) -> Callable:
    """``f(sweep, threshold) -> float`` for a metric name."""
    norm = min(c_miss * p_target, c_fa * (1 - p_target))
    table: dict[str, Callable] = {
        "eer_rocch": lambda sw, t: sw.eer_rocch(),
        "eer_threshold": lambda sw, t: eer_point(sw)[0],
        "eer_interpolated": lambda sw, t: sw.eer_interpolated(),
        "auc": lambda sw, t: sw.auc(),
        "min_hter": lambda sw, t: _hter(min_weighted_point(sw, 0.5)),
        "min_dcf": lambda sw, t: min_dcf_point(sw, p_target, c_miss, c_fa)[0] / norm,
        "fnmr_at_fmr": lambda sw, t: bounded_point(sw, "far", target).frr,
        "fmr_at_fnmr": lambda sw, t: _far_or_nan(bounded_point(sw, "frr", target)),
        "cllr": lambda sw, t: sw.cllr(),
        "min_cllr": lambda sw, t: sw.min_cllr(),
        "far": lambda sw, t: float(sw.fa_at(t)) / sw.n,
        "frr": lambda sw, t: float(sw.fr_at(t)) / sw.p,
        "hter": lambda sw, t: (float(sw.fa_at(t)) / sw.n + float(sw.fr_at(t)) / sw.p) / 2,
    }
    return table[canonical_metric(metric)]


def _hter(op) -> float:
    return (op.far + op.frr) / 2


def _far_or_nan(op) -> float:
    return float("nan") if op is None else op.far


def class_permutations(group: Group) -> tuple[np.ndarray, np.ndarray]:
    """Trial positions of the group in each class's sorted order (computed once)."""
    neg_idx = np.flatnonzero(~group.genuine)
    pos_idx = np.flatnonzero(group.genuine)
    neg_order = neg_idx[np.argsort(group.scores[neg_idx], kind="stable")]
    pos_order = pos_idx[np.argsort(group.scores[pos_idx], kind="stable")]
    return neg_order, pos_order


class Replicates:
    """Draws replicate sweeps of one group under a resampling scheme."""

    def __init__(self, group: Group, sweep: Sweep, resample: str, lazy: bool):
        self.group, self.sweep, self.resample = group, sweep, resample
        self.lazy = lazy and resample == "label"
        if not self.lazy:
            sweep.prepare_resampling()
        if resample in PEOPLE:
            self.perm = class_permutations(group)
            self.clusters, self.reference, self.n_clusters = people(group, resample, _named(group))

    def draw(self, rng: np.random.Generator) -> Sweep | None:
        """One replicate's sweep; None when it drew no trial of a class (people or trials
        resampled: its metrics are undefined, :func:`reweighted_or_none`)."""
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
            return reweighted_or_none(sw, wn, wp)
        return reweighted_or_none(sw, *class_weights(self, uniform_counts(rng, self.n_clusters)))


def reweighted_or_none(sw: Sweep, wn: np.ndarray, wp: np.ndarray) -> Sweep | None:
    """``sw.reweighted(wn, wp)``, or None when the weights leave a class without trials
    (a replicate that drew none of the people, or none of the trials, of that class)."""
    if not (np.any(wn) and np.any(wp)):
        return None
    return sw.reweighted(wn, wp)


#: Replicates without a trial of a class, said once per call.
WARN_EMPTY_REPLICATES = (
    "{n_groups} group(s) had replicates that drew no trial of one class (replicates "
    "failed: {examples}); the resampled {unit}s of that class are few. Their "
    "metric is undefined: they are left out of the interval and the standard error, which "
    "are then conditional on both classes being drawn. Give more {unit}s per class, or "
    "resample='label'"
)


def warn_empty_replicates(failed: Sequence[tuple[str, int]], total: int, unit: str) -> None:
    """:data:`WARN_EMPTY_REPLICATES` as one :class:`~pandas_biosig.BiosigWarning` for the
    ``(where, replicates failed)`` of a call's groups (those with none are skipped)."""
    failed = [(w, n) for w, n in failed if n]
    if failed:
        import warnings

        examples = "; ".join(f"{w}: {n} of {total}" for w, n in failed[:3]) + (
            "; ..." if len(failed) > 3 else "")
        warnings.warn(WARN_EMPTY_REPLICATES.format(
            n_groups=len(failed), examples=examples,
            unit="trial" if unit == "trial" else "subject"), BiosigWarning, stacklevel=4)


#: The most jackknife values a BCa acceleration reads (units are grouped beyond it).
JACKKNIFE_GROUPS = 200


def jackknife(reps: Replicates, f: Callable, t: float) -> np.ndarray:
    """The metric with each unit left out in turn: the people a replicate draws (a
    person's every trial, as subject or as reference), or for trial resampling each
    trial. Beyond :data:`JACKKNIFE_GROUPS` units, units ``u`` form the groups
    ``u mod JACKKNIFE_GROUPS`` (a grouped jackknife: the acceleration it estimates is the
    same, Efron & Tibshirani 1993, §11.5). NaN where leaving a group out empties a class."""
    g, sw = reps.group, reps.sweep
    if reps.resample in PEOPLE:
        probe, ref, k = reps.clusters, reps.reference, reps.n_clusters
    else:
        probe, ref, k = np.arange(g.scores.size), None, g.scores.size
    n_groups = min(k, JACKKNIFE_GROUPS)
    neg_order, pos_order = reps.perm if hasattr(reps, "perm") else class_permutations(g)
    out = np.full(n_groups, np.nan)
    for j in range(n_groups):
        keep = probe % n_groups != j
        if ref is not None:
            keep &= g.genuine | (ref % n_groups != j)
        w = keep.astype(np.int64)
        try:
            out[j] = f(sw.reweighted(w[neg_order], w[pos_order]), t)
        except ValueError:  # a class left empty
            continue
    return out


def _named(group: Group) -> str:
    key = getattr(group, "key", None)
    if not key:
        return "the trials"
    where = f"system {group.system!r}"
    return where if group.split is None else f"{where}, split {group.split!r}"


def check_common(n_resamples, confidence_level, resample, ci_method):
    check_n_resamples(n_resamples)
    check_confidence_level(confidence_level)
    if resample != AUTO:
        check_option(resample, RESAMPLE, "resample")
    check_option(ci_method, CI_METHODS, "ci_method")


# ------------------------------------------------------------------- paired replicates
@dataclass(frozen=True)
class BootstrapTestResult(TestResult):
    """A paired bootstrap test: :class:`TestResult` whose interval is the bootstrap one.

    ``confidence_interval(confidence_level=...)`` gives the percentile interval of the
    replicated differences (not a normal approximation); one-sided for a one-sided
    ``alternative``, as the other tests' intervals: ``(q_{1-δ}, inf)`` for ``"greater"``,
    ``(-inf, q_δ)`` for ``"less"`` (``q_x`` the x-quantile of the replicates), so the
    interval excludes 0 where the p-value is below 1 − δ (up to the +1 correction).

    With a finite ``df`` (a metric at fixed thresholds, subjects resampled: see
    :func:`satterthwaite_df`) the test is studentized instead: ``statistic`` (the estimate
    over the replicates' standard deviation) is referred to Student's t with ``df``
    degrees of freedom, and the interval is ``estimate ± t_{df} · se``, so it excludes 0
    exactly where the p-value is below 1 − δ.
    """

    _replicates: np.ndarray = field(default_factory=lambda: np.zeros(0), repr=False)
    #: the weight of FAR the threshold criterion minimized (as the ``weight`` column of
    #: :func:`pandas_biosig.error_rates`), NaN when no weighted criterion chose it
    weight: float = math.nan
    #: degrees of freedom of the studentized test (NaN: the percentile test)
    df: float = math.nan

    @property
    def pvalue_mc_se(self) -> float:
        r"""The Monte-Carlo standard error of ``pvalue``: what it would vary by between
        runs with other seeds. The percentile test counts the ``B`` finite replicates:
        :math:`\sqrt{p(1-p)/B}` one-sided, and :math:`\sqrt{p(2-p)/B}` two-sided (twice
        the standard error of the smaller tail's share, :math:`p/2`). The studentized test's p-value moves with the
        replicates' standard deviation, whose relative error is about
        :math:`1/\sqrt{2(B-1)}`: by the delta method, :math:`|dp/dz| \cdot |z| /
        \sqrt{2(B-1)}`. NaN without replicates."""
        b = int(np.count_nonzero(np.isfinite(self._replicates)))
        if b < 2 or not np.isfinite(self.pvalue):
            return math.nan
        if not np.isfinite(self.df):
            p = self.pvalue
            return math.sqrt((p * (2 - p) if self.alternative == "two-sided" else p * (1 - p)) / b)
        z = abs(self.statistic)
        if not np.isfinite(z):
            return math.nan
        density = float(student_t.pdf(z, self.df))
        slope = density * (2 if self.alternative == "two-sided" else 1)
        return slope * z / math.sqrt(2 * (b - 1))

    def confidence_interval(self, *, confidence_level: float = 0.95) -> ConfidenceInterval:
        confidence_level = check_confidence_level(confidence_level)
        if np.isfinite(self.df):
            return _t_interval(self.estimate, self._se, self.df, confidence_level,
                               self.alternative)
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


def _t_interval(est, se, df, level, alternative) -> ConfidenceInterval:
    """``est ± t_{df} · se`` (one-sided: the bound on the tested side is infinite)."""
    if alternative == "two-sided":
        q = float(student_t.ppf((1 + level) / 2, df))
        return ConfidenceInterval(est - q * se, est + q * se)
    q = float(student_t.ppf(level, df))
    if alternative == "greater":
        return ConfidenceInterval(est - q * se, math.inf)
    return ConfidenceInterval(-math.inf, est + q * se)


class PairedResampler:
    """Shared trial multiplicities for several systems scored on the same trials.

    Parameters
    ----------
    groups : list of Group
        Groups of one (``by``, split) family, already aligned: the same trials in the same
        order, with the same labels.
    resample : {"label", "trial", "subject", "two_way"}
    """

    def __init__(self, groups: Sequence[Group], resample: str):
        self.groups = list(groups)
        self.resample = resample
        self.sweeps = [Sweep.from_scores(g.scores, g.genuine).prepare_resampling() for g in groups]
        self.perms = [class_permutations(g) for g in groups]
        genuine = groups[0].genuine
        if resample == "label":
            self.strata, self.n_strata = genuine.astype(np.int64), 2
        elif resample == "trial":
            self.strata, self.n_strata = np.zeros(genuine.size, dtype=np.int64), 1
        else:
            self.clusters, self.reference, self.n_clusters = people(groups[0], resample,
                                                                     _named(groups[0]))

    def weights(self, rng: np.random.Generator) -> np.ndarray:
        """Multiplicities of the trials for one replicate."""
        if self.resample in PEOPLE:
            return people_weights(uniform_counts(rng, self.n_clusters), self.clusters,
                                  self.reference, self.groups[0].genuine)
        return stratified_counts(rng, self.strata, self.n_strata)

    def sweeps_for(self, w: np.ndarray) -> list[Sweep] | None:
        """The replicate's sweep of every group; None when it drew a class empty."""
        out = [reweighted_or_none(sw, w[neg], w[pos])
               for sw, (neg, pos) in zip(self.sweeps, self.perms, strict=True)]
        return None if any(s is None for s in out) else cast(list[Sweep], out)


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
        reference=None if g.reference is None else g.reference[idx],
    )


class FamilyDraws:
    """What the pairs of one family share in :func:`bootstrap_difference`: each system's
    sweep (one sort per system, not one per pair), its subject codes, and, at fixed
    thresholds under subject resampling, the replicates' subject multiplicities.

    The multiplicities of a replicate depend on the subjects only, not on the pair: every
    pair whose trials carry the same subject codes reads the same draw, which is exactly
    the draw :func:`bootstrap_difference` would make for that pair alone from the same
    generator state. Each pair's replicates therefore have their distribution unchanged;
    the pairs' replicates are drawn together instead of one pair after another.
    """

    def __init__(self) -> None:
        self._by_id: dict[tuple, tuple[tuple, object]] = {}
        self._mult: tuple[np.ndarray, int, np.ndarray] | None = None

    def _memo(self, kind: str, arrays: tuple, make: Callable):
        key = (kind, *map(id, arrays))
        hit = self._by_id.get(key)
        if hit is None:
            hit = (arrays, make())  # the arrays are kept, so their ids are not reused
            self._by_id[key] = hit
        return hit[1]

    def sweep(self, g: Group) -> Sweep:
        return self._memo("sweep", (g.scores, g.genuine),
                          lambda: Sweep.from_scores(g.scores, g.genuine))

    def subjects(self, g: Group) -> tuple[np.ndarray, int]:
        return self._memo("subjects", (g.subject,),
                          lambda: subject_clusters(g.subject, _named(g)))

    def people(self, g: Group) -> tuple[np.ndarray, np.ndarray, int, np.ndarray]:
        """Subject and reference codes of the trials (one set of people), how many people,
        and the two codes side by side (the key of the draws of :meth:`multiplicities`)."""
        def make():
            probe, ref, k = people(g, "two_way", _named(g))
            assert ref is not None  # two_way: the reference codes beside the probe's
            return probe, ref, k, np.concatenate((probe, ref))
        return self._memo("people", (g.subject, g.reference), make)

    def multiplicities(self, rng, codes: np.ndarray, n_subjects: int, n_resamples: int):
        """The subjects' multiplicities of every replicate, ``(n_resamples, n_subjects)``
        floats: drawn from ``rng`` unless a pair with the same subject codes drew them."""
        if self._mult is not None:
            seen, n_seen, mult = self._mult
            if n_seen == n_subjects and mult.shape[0] == n_resamples and (
                seen is codes or np.array_equal(seen, codes)
            ):
                return mult
        mult = _subject_multiplicities(rng, n_subjects, n_resamples)
        self._mult = (codes, n_subjects, mult)
        return mult


def _subject_multiplicities(rng, n_subjects: int, n_resamples: int) -> np.ndarray:
    mult = rng.multinomial(n_subjects, np.full(n_subjects, 1 / n_subjects), size=n_resamples)
    return mult.astype(np.float64)


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
    shared: FamilyDraws | None = None,
) -> BootstrapTestResult:
    """Paired bootstrap test of ``f(A) - f(B)`` on aligned groups.

    For ``metric`` in ``far``, ``frr``, ``hter`` (fixed thresholds) every trial falls in
    one of eight cells (class x A accepts x B accepts), and a replicate is a multinomial
    draw of the cell counts: O(1) per replicate (O(subjects) for subject resampling).
    ``shared`` (:class:`FamilyDraws`) carries the sorts and subject draws that several
    pairs of one family can share; the numbers of a pair are the same with or without it.
    """
    if metric in FIXED_THRESHOLD_METRICS:
        shared = FamilyDraws() if shared is None else shared
        est = f(shared.sweep(a), thresholds[0]) - f(shared.sweep(b), thresholds[1])
        deltas = fixed_threshold_deltas(a, b, metric, thresholds, n_resamples, resample, rng,
                                         shared)
        if tick is not None:
            tick(n_resamples)
        df = math.nan
        if resample == "subject":
            df = marginal_df(subject_marginals(a, b, thresholds, shared)[0], metric)
        elif resample == "two_way":
            df = _two_way_df(a, b, thresholds, metric, shared)
        return bootstrap_result(est, deltas, alternative, n=a.genuine.size, df=df)
    res = PairedResampler([a, b], resample)
    est = f(res.sweeps[0], thresholds[0]) - f(res.sweeps[1], thresholds[1])
    if metric in PAIRED_BLOCK_METRICS:  # drawn one by one, read a block at a time
        deltas, empty = paired_block_deltas(res, cast(str, metric), n_resamples, rng, tick)
    else:
        deltas, empty = np.empty(n_resamples), 0
        for i in range(n_resamples):
            pair = res.sweeps_for(res.weights(rng))
            empty += pair is None
            deltas[i] = math.nan if pair is None else (
                f(pair[0], thresholds[0]) - f(pair[1], thresholds[1]))
            if tick is not None:
                tick(i + 1)
    warn_empty_replicates([(f"systems {a.system!r} and {b.system!r}", empty)], n_resamples,
                          resample)
    return bootstrap_result(est, deltas, alternative, n=a.genuine.size)


def fixed_threshold_deltas(a, b, metric, thresholds, n_resamples, resample, rng,
                            shared: FamilyDraws | None = None):
    """Replicated metric(A) - metric(B) at fixed thresholds, from the 8-cell table."""
    shared = FamilyDraws() if shared is None else shared
    if resample == "subject":
        marginals, codes = subject_marginals(a, b, thresholds, shared)
        return subject_deltas(marginals, codes, metric, n_resamples, rng, shared)
    if resample == "two_way":
        counts = _two_way_counts(a, b, thresholds, shared, rng, n_resamples)
        return marginal_deltas(cell_marginals(counts), metric)
    n_cell = np.bincount(_cells(a, b, thresholds), minlength=8)
    return cell_deltas(n_cell, metric, n_resamples, resample, rng)


def subject_deltas(marginals: np.ndarray, codes, metric: str, n_resamples: int, rng,
                   shared: FamilyDraws) -> np.ndarray:
    """Replicated differences with subjects drawn: each subject's marginal counts
    (``(n_subjects, 6)``, :func:`cell_marginals`) times its multiplicities, drawn by
    ``shared`` (:meth:`FamilyDraws.multiplicities`; ``codes`` identifies the subjects'
    layout, whose draw the pairs of a family share)."""
    mult = shared.multiplicities(rng, codes, marginals.shape[0], n_resamples)
    return marginal_deltas(mult @ marginals, metric)


def _cells(a: Group, b: Group, thresholds) -> np.ndarray:
    """Each trial's cell: class x A accepts x B accepts, ``4 * genuine + 2 * A + B``."""
    acc_a = a.scores >= thresholds[0]
    acc_b = b.scores >= thresholds[1]
    return a.genuine.astype(np.int64) * 4 + acc_a * 2 + acc_b


def subject_marginals(a: Group, b: Group, thresholds, shared: FamilyDraws):
    """The subjects' marginal counts, ``(n_subjects, 6)`` (:func:`cell_marginals`), and
    the trials' subject codes."""
    codes, n_subjects = shared.subjects(a)
    cell = _cells(a, b, thresholds)
    table = np.bincount(codes * 8 + cell, minlength=8 * n_subjects).reshape(n_subjects, 8)
    return cell_marginals(table), codes


def _two_way_counts(a: Group, b: Group, thresholds, shared: FamilyDraws, rng,
                    n_resamples: int) -> np.ndarray:
    """Replicated counts of the 8 cells when people are drawn in both roles
    (:func:`~pandas_biosig._kernels.resample.people_weights`): per replicate, the genuine
    cells of each person times its multiplicity, and the impostor cells of each (subject,
    reference) pair times the product of the two multiplicities."""
    probe, ref, k, key = shared.people(a)
    cell = _cells(a, b, thresholds)
    gen = a.genuine
    table_g = np.bincount(probe[gen] * 8 + cell[gen], minlength=8 * k).reshape(k, 8)
    pair, pair_of = np.unique(probe[~gen] * k + ref[~gen], return_inverse=True)
    n_pairs = pair.size
    table_i = np.bincount(pair_of.reshape(-1) * 8 + cell[~gen],
                          minlength=8 * n_pairs).reshape(n_pairs, 8).astype(np.float64)
    mult = shared.multiplicities(rng, key, k, n_resamples)
    counts = mult @ table_g.astype(np.float64)
    block = max(1, (1 << 24) // max(n_pairs, 1))
    for lo in range(0, n_resamples, block):
        m = mult[lo:lo + block]
        counts[lo:lo + block] += (m[:, pair // k] * m[:, pair % k]) @ table_i
    return counts


def _two_way_df(a: Group, b: Group, thresholds, metric: str, shared: FamilyDraws) -> float:
    """:func:`satterthwaite_df` with people in both roles: each person's influence sums
    the impostor trials they take part in (as subject or as reference) and their genuine
    trials."""
    from .._kernels.cluster import person_sums

    probe, ref, k, _ = shared.people(a)
    cell = _cells(a, b, thresholds)
    gen = a.genuine
    # impostors: A alone accepts - B alone; genuines: A alone rejects - B alone
    d_imp = (cell[~gen] == 2).astype(np.float64) - (cell[~gen] == 1)
    d_gen = (cell[gen] == 5).astype(np.float64) - (cell[gen] == 6)
    imp = tuple(person_sums(v, probe[~gen], ref[~gen], k)[0] for v in (d_imp, np.ones(d_imp.size)))
    gen_ = tuple(np.bincount(probe[gen], weights=v, minlength=k) for v in (d_gen, np.ones(d_gen.size)))
    return _welch_df(metric, (*imp, d_imp.sum(), d_imp.size), (*gen_, d_gen.sum(), d_gen.size))


def satterthwaite_df(table: np.ndarray, metric: str) -> float:
    """Welch–Satterthwaite degrees of freedom of the subjects' variance of a paired
    difference of ``far``, ``frr`` or ``hter`` at fixed thresholds.

    ``table`` holds each subject's trials per cell (rows: subjects; columns: class x A
    accepts x B accepts, as :func:`_cells`); :func:`marginal_df` reads the subjects'
    marginal counts instead. Each subject's contribution to the difference, linearized (its
    influence), is ``u_j = (d_j - D n_j) / N`` per class (``d_j`` its trials where A errs
    and B does not minus the reverse, ``n_j`` its trials of the class, ``D`` and ``N`` the
    totals' ratio and sum), halved and summed over the two classes for the HTER. The
    variance of the difference is estimated by ``Σ u_j²``, one degree of freedom per
    subject, so (Satterthwaite 1946; Welch 1947) ``df = (Σ u_j²)² / Σ u_j⁴``: about the
    number of subjects whose errors differ between the systems, far fewer than the
    subjects when the systems are correlated or their errors rare. NaN when no subject's
    errors differ (the difference is then 0).
    """
    return marginal_df(cell_marginals(table), metric)


def marginal_df(marginals: np.ndarray, metric: str) -> float:
    """:func:`satterthwaite_df` from each subject's marginal counts (rows: subjects;
    columns as :func:`cell_marginals`)."""
    t = np.asarray(marginals, dtype=np.float64)
    # impostors: A alone accepts - B alone; genuines: A alone rejects - B alone
    return _welch_df(metric, (t[:, 1] - t[:, 2], t[:, 0]), (t[:, 4] - t[:, 5], t[:, 3]))


def rate_df(group: Group, threshold: float, metric: str, codes: np.ndarray,
            n_units: int, reference: np.ndarray | None = None) -> float:
    """Welch–Satterthwaite degrees of freedom of the variance of one system's ``far``,
    ``frr`` or ``hter`` at a fixed threshold, over the units ``codes`` (each trial's
    subject, or each trial its own unit): as :func:`satterthwaite_df` with ``d_j`` the
    unit's errors, so df is about the number of units that err. With ``reference`` (people
    drawn in both roles) an impostor trial counts for its subject and its reference."""
    from .._kernels.cluster import person_sums

    accept = group.scores >= threshold
    neg, pos = ~group.genuine, group.genuine
    count = lambda mask: np.bincount(codes, weights=mask, minlength=n_units)  # noqa: E731
    if reference is None:
        imp = (count(neg & accept), count(neg))
    else:
        fa = accept[neg].astype(np.float64)
        imp = (*(person_sums(v, codes[neg], reference[neg], n_units)[0]
                 for v in (fa, np.ones(fa.size))), fa.sum(), fa.size)
    return _welch_df(metric, imp, (count(pos & ~accept), count(pos)))


def _welch_df(metric: str, impostor, genuine) -> float:
    """``(Σ u_j²)² / Σ u_j⁴`` of the units' influences on ``metric``; ``impostor`` and
    ``genuine`` are each class's (count d_j, trials n_j) per unit, and optionally the
    class's totals (D, N) when the units' sums count a trial more than once."""
    parts = []
    for name, (d, n, *totals) in (("far", impostor), ("frr", genuine)):
        if metric in (name, "hter"):
            big_d, big_n = totals if totals else (d.sum(), n.sum())
            parts.append((d - big_d / big_n * n) / big_n)
    u2 = np.square(sum(parts) / len(parts))
    total = float(u2.sum())
    if not total > 0:
        return math.nan
    return total**2 / float(np.square(u2).sum())


#: ``fallback_reason`` of a bootstrap test whose replicated differences cannot vary.
FALLBACK_DIFFERENCE = (
    "every bootstrap replicate gives the difference {value:.6g}, so the bootstrap cannot "
    "measure its uncertainty (its interval would have width 0 and its p-value would be 1 "
    "or its floor); instead: exact Clopper-Pearson bounds of each rate on its {units} "
    "(Bonferroni over the {m} rates), and {p}"
)


def constant_replicates(deltas: np.ndarray) -> bool:
    """Whether the finite replicates cannot vary (all equal, or none)."""
    finite = deltas[np.isfinite(deltas)]
    return finite.size == 0 or bool(np.all(finite == finite[0]))


def clopper_pearson(errors: float, n: float, alpha: float) -> tuple[float, float]:
    """The exact two-sided 1 − ``alpha`` interval of ``errors`` in ``n`` (0 and 1 included
    at the ends)."""
    from scipy.stats import beta

    low = 0.0 if errors <= 0 else float(beta.ppf(alpha / 2, errors, n - errors + 1))
    high = 1.0 if errors >= n else float(beta.ppf(1 - alpha / 2, errors + 1, n - errors))
    return low, high


def clopper_pearson_many(errors: np.ndarray, n: np.ndarray, alpha: float
                         ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`clopper_pearson` of many rates at once (the same numbers, to the bit)."""
    from scipy.stats import beta

    errors = np.asarray(errors, dtype=np.float64)
    n = np.asarray(n, dtype=np.float64)
    low, high = np.zeros(errors.shape), np.ones(errors.shape)
    lo, hi = errors > 0, errors < n
    low[lo] = beta.ppf(alpha / 2, errors[lo], n[lo] - errors[lo] + 1)
    high[hi] = beta.ppf(1 - alpha / 2, errors[hi] + 1, n[hi] - errors[hi])
    return low, high


def exact_difference(bounds_a: tuple[float, float], bounds_b: tuple[float, float]
                     ) -> tuple[float, float]:
    """The interval of a − b from intervals of a and of b (each at the Bonferroni share of
    the level the caller gave them)."""
    return bounds_a[0] - bounds_b[1], bounds_a[1] - bounds_b[0]


def bootstrap_pvalue(deltas: np.ndarray, alternative: str = "two-sided") -> float:
    """P-value of "no difference" from replicated differences (NaN replicates ignored):
    the share of replicates on the far side of 0, with the +1 correction."""
    finite = deltas[np.isfinite(deltas)]
    below = (np.count_nonzero(finite <= 0) + 1) / (finite.size + 1)
    above = (np.count_nonzero(finite >= 0) + 1) / (finite.size + 1)
    if alternative == "two-sided":
        return min(1.0, 2 * min(below, above))
    return below if alternative == "greater" else above  # "greater": H1 is A - B > 0


def studentized_pvalue(z: float, df: float, alternative: str = "two-sided") -> tuple[float, float]:
    """P-value (and its log10) of a studentized difference ``z`` against Student's t with
    ``df`` degrees of freedom (``"greater"``: H1 is A - B > 0)."""
    if alternative == "two-sided":
        log_p = math.log(2) + float(student_t.logsf(abs(z), df))
    elif alternative == "greater":
        log_p = float(student_t.logsf(z, df))
    else:
        log_p = float(student_t.logcdf(z, df))
    log_p = min(log_p, 0.0)
    return math.exp(log_p), log_p / math.log(10)


def bootstrap_result(est, deltas, alternative, n, df=math.nan) -> BootstrapTestResult:
    """The percentile test of the replicates; with a finite ``df`` (and a positive
    standard deviation of the replicates), the studentized test against t with ``df``."""
    finite = deltas[np.isfinite(deltas)]
    m = finite.size
    se = float(np.std(finite, ddof=1)) if m > 1 else float("nan")
    z = est / se if se and se > 0 else float("nan")
    method = "paired bootstrap of the metric difference"
    if np.isfinite(df) and np.isfinite(z):
        p, log10_p = studentized_pvalue(z, df, alternative)
        method += f" (studentized, t with {df:.1f} Satterthwaite df)"
    else:
        df = math.nan
        p = bootstrap_pvalue(finite, alternative)
        log10_p = math.log10(p)
    return BootstrapTestResult(
        statistic=float(z),
        pvalue=float(p),
        log10_pvalue=log10_p,
        estimate=float(est),
        alternative=alternative,
        method=method,
        n=int(n),
        _se=se,
        _replicates=finite,
        df=float(df),
    )
