"""The bootstrap of many groups at once (:func:`pandas_biosig.bootstrap` with ``by=``).

A documented internal module (docs/architecture.md, layer 1). The reported groups are
laid out one after another and sorted in one call
(:class:`~pandas_biosig._kernels.segments.Segments`); the replicates of every group are
drawn together, in vectorised passes over all (group, replicate) pairs
(:mod:`pandas_biosig._kernels.segment_resample`), and the intervals read along the
replicates of all groups at once. It serves the label-stratified bootstrap of the EER
(threshold and interpolated) and of the rates at a fixed threshold with a percentile or
basic interval; the other metrics, resampling units and intervals keep their per-group
replicates (:mod:`pandas_biosig.verification._resampling`).

The replicates have the distribution of the per-group ones (each class of each group
drawn with replacement and sorted again), but are drawn from the seed's stream in
another order, so a seed gives other numbers than one group at a time would.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .._kernels.resample import percentile_interval
from .._kernels.segment_resample import eer_replicates, rates_at_fixed
from .._kernels.segments import Segments, sort_segments
from .criteria import eer_point
from .protocol import Resolved

__all__ = ["replicate_bounds", "segmented_bootstrap_applies", "segmented_replicates"]

#: Metrics whose replicates the segmented bootstrap draws.
SEGMENTED_METRICS = {"eer_threshold", "eer_interpolated", "far", "frr", "hter"}
_FIXED = {"far", "frr", "hter"}


def segmented_bootstrap_applies(plan: Sequence[Resolved], metric: str, unit: str,
                                method: str) -> bool:
    """Whether the groups of ``plan`` go through the segmented bootstrap: more than one,
    label-stratified replicates of a metric of :data:`SEGMENTED_METRICS`, with a
    percentile or basic interval, no counted trials, both classes in every group and,
    for a rate, a threshold for every group. Subjects resampled keep each group's own
    draws, one group at a time: the stream the out-of-core bootstrap reproduces to the
    bit."""
    if len(plan) < 2 or metric not in SEGMENTED_METRICS:
        return False
    if unit != "label":  # subjects: each group's own draws, as the dask bootstrap's
        return False
    if method not in ("percentile", "basic"):
        return False
    for r in plan:
        g = r.group
        if getattr(g, "count", None) is not None or g.scores.size == 0:
            return False
        k = int(np.count_nonzero(g.genuine))
        if k == 0 or k == g.genuine.size:
            return False
        if metric in _FIXED and not np.isfinite(r.threshold):
            return False
    return True


def _segments(plan: Sequence[Resolved]) -> Segments:
    """The groups of ``plan`` as segments, sorted within each."""
    groups = [r.group for r in plan]
    sizes = np.fromiter((g.scores.size for g in groups), dtype=np.int64, count=len(groups))
    offsets = np.concatenate(([0], np.cumsum(sizes)))
    scores = np.concatenate([g.scores for g in groups]).astype(np.float64, copy=False)
    genuine = np.concatenate([g.genuine for g in groups])
    return Segments(scores, genuine, offsets, order=sort_segments(scores, offsets))


def segmented_replicates(plan: Sequence[Resolved], metric: str, n_resamples: int,
                         rng: np.random.Generator, tick: Callable[[int], None]
                         ) -> tuple[np.ndarray, np.ndarray]:
    """``(values, estimates)``: the metric of ``n_resamples`` replicates of every group of
    ``plan`` (shape ``(groups, n_resamples)``) and on its own trials (the numbers the
    per-group :class:`~pandas_biosig._kernels.rates.Sweep` gives, to the bit)."""
    sg = _segments(plan)
    n, p = sg.n, sg.p
    if metric in _FIXED:
        t = np.fromiter((r.threshold for r in plan), dtype=np.float64, count=len(plan))
        fa, fr = sg.rates_at(t)
        rfa, rfr = rates_at_fixed(rng, fa, fr, n, p, n_resamples)
        tick(n_resamples * sg.size)
        return _rate(metric, rfa, rfr, n[:, None], p[:, None]), _rate(metric, fa, fr, n, p)
    method = "interpolated" if metric == "eer_interpolated" else "threshold"
    eer = np.asarray(sg.eer_interpolated() if method == "interpolated" else eer_point(sg)[0])
    return eer_replicates(sg, rng, n_resamples, method, tick=tick), eer


def _rate(metric: str, fa, fr, n, p) -> np.ndarray:
    """``far``, ``frr`` or ``hter`` from counts, as the per-group metric computes them."""
    if metric == "far":
        return fa / n
    if metric == "frr":
        return fr / p
    return (fa / n + fr / p) / 2


def replicate_bounds(values: np.ndarray, estimates: np.ndarray, confidence_level: float,
                     method: str) -> tuple[np.ndarray, ...]:
    """``(estimate, se, ci_low, ci_high)`` of every group (rows of ``values``): the
    replicates' standard deviation and the percentile or basic interval."""
    b = values.shape[1]
    se = np.nanstd(values, ddof=1, axis=1) if b > 1 else np.full(values.shape[0], np.nan)
    if np.isfinite(values).all():  # numpy's quantiles of each row, without a step per row
        alpha = 1 - confidence_level
        low, high = np.quantile(values, [alpha / 2, 1 - alpha / 2], axis=1)
    else:
        low, high = percentile_interval(values, confidence_level, axis=1)
    if method == "basic":
        low, high = 2 * estimates - high, 2 * estimates - low
    return estimates, se, low, high
