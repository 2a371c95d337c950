"""The label-stratified bootstrap of a small group, every replicate at once.

A documented internal module (docs/architecture.md, layer 1). The group's trials are
sorted into a :class:`~pandas_biosig._kernels.segments.Segments` of one segment and its
replicates drawn in vectorised passes over all of them
(:mod:`pandas_biosig._kernels.segment_resample`: the EER's FAR = FRR crossing bisected
for every replicate at once, binomial counts at a fixed threshold). It serves the
threshold and interpolated EER and the rates at a fixed threshold, labels resampled
(:func:`one_group_applies`); the other metrics and units keep their replicates of
:mod:`pandas_biosig.verification._resampling`.

With ``by=`` the groups draw one after another from the seed's stream, each as it would
on its own, so a group's row equals that of its own call from a generator in the same
state, to the bit. (Drawing the replicates of all groups together, interleaved, was
about 1.5 times faster at 10⁴ groups but gave a group other numbers with other groups
beside it.) The replicates have the distribution of resampling each class of the group
and sorting again; each value equals the sweep of full multiplicities consistent with
its draws, to the bit (``tests/test_segment_resample.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from .._kernels.segment_resample import eer_replicates, rates_at_fixed
from .._kernels.segments import Segments, sort_segments
from .criteria import eer_point
from .protocol import Resolved
from .segmented import SMALL_GROUP

__all__ = ["one_group_applies", "segmented_replicates"]

#: Metrics whose replicates the segmented bootstrap draws.
SEGMENTED_METRICS = {"eer_threshold", "eer_interpolated", "far", "frr", "hter"}
_FIXED = {"far", "frr", "hter"}


def one_group_applies(r: Resolved, metric: str, unit: str) -> bool:
    """Whether a group's label-stratified replicates are drawn by the segment kernels
    (every replicate of the group in vectorised passes): a metric of
    :data:`SEGMENTED_METRICS`, labels resampled, no counted trials, at most
    :data:`~pandas_biosig._core.segmented.SMALL_GROUP` trials (a larger group draws its
    replicates one by one from its sweep, without a second sort) and, for a rate, a
    threshold. The rule reads the group alone, so a group draws alike with ``by=`` and
    on its own."""
    g = r.group
    if unit != "label" or metric not in SEGMENTED_METRICS:
        return False
    if getattr(g, "count", None) is not None or not 0 < g.scores.size <= SMALL_GROUP:
        return False
    return not (metric in _FIXED and not np.isfinite(r.threshold))


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
