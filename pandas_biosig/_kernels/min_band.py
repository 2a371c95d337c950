r"""A confidence interval for the minimum of a curve over thresholds, from bootstrap
replicates of the whole curve (numpy only).

The minimum of an estimated curve (the minimum t-DCF, the minimum a-DCF) is biased low,
and its bootstrap replicates see only part of the bias: the minimum is a directionally,
not fully, differentiable functional of the curve, where the bootstrap of the statistic
itself is inconsistent (Fang & Santos 2019). The supremum of the curve's deviation is a
smooth enough functional: a simultaneous band :math:`\hat C(t) \pm q\,\hat\sigma(t)` that
holds over all thresholds with probability :math:`\gamma` (the max-t band: :math:`q` the
:math:`\gamma` quantile of :math:`\max_t |C^*_b(t) - \hat C(t)| / \hat\sigma(t)` over the
replicates :math:`C^*_b`, :math:`\hat\sigma(t)` their standard deviation at :math:`t`)
holds every curve that could be the true one, and so the true minimum lies between the
minima of the band's two edges,

.. math::

    \Big[\min_t \big(\hat C(t) - q\,\hat\sigma(t)\big),\;
         \min_t \big(\hat C(t) + q\,\hat\sigma(t)\big)\Big],

whenever the band holds: the interval is conservative by construction. The maximum is
taken over the thresholds that can hold the true minimum (those whose lower edge reaches
below the upper edge's minimum, found with the band over all thresholds first), which
narrows :math:`q` without weakening the argument.

The replicates are read in blocks and never kept: :class:`Moments` accumulates each
threshold's mean and variance in a first pass; :func:`max_t` gives each replicate's
statistic in a later pass over the same replicates.

Fang, Z., & Santos, A. (2019). Inference on directionally differentiable functions.
*The Review of Economic Studies, 86*\(1), 377–412.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Moments", "band_edges_minima", "candidates", "max_t"]


class Moments:
    """Running count, mean and sum of squared deviations of each threshold's replicates
    (Chan et al.'s pairwise update; NaN cells are left out)."""

    def __init__(self, n_points: int):
        self.n = np.zeros(n_points)
        self.mean = np.zeros(n_points)
        self.m2 = np.zeros(n_points)

    def add(self, curves: np.ndarray) -> None:
        """Add a block of replicated curves (replicates x thresholds)."""
        ok = np.isfinite(curves)
        nb = ok.sum(axis=0).astype(np.float64)
        x = np.where(ok, curves, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mb = np.where(nb > 0, x.sum(axis=0) / nb, 0.0)
        m2b = np.where(ok, (x - mb) ** 2, 0.0).sum(axis=0)
        n = self.n + nb
        with np.errstate(invalid="ignore", divide="ignore"):
            delta = mb - self.mean
            self.mean = np.where(n > 0, self.mean + delta * nb / np.where(n > 0, n, 1), 0.0)
            self.m2 = self.m2 + m2b + np.where(n > 0, delta**2 * self.n * nb
                                               / np.where(n > 0, n, 1), 0.0)
        self.n = n

    def sd(self) -> np.ndarray:
        """Each threshold's replicate standard deviation (NaN with fewer than two)."""
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(self.n > 1, np.sqrt(self.m2 / (self.n - 1)), np.nan)


def max_t(curves: np.ndarray, estimate: np.ndarray, sd: np.ndarray,
          points: np.ndarray) -> np.ndarray:
    """Each replicate's :math:`\\max_t |C^*(t) - \\hat C(t)| / \\hat\\sigma(t)` over the
    thresholds ``points`` (a mask; only thresholds with a positive ``sd``); NaN for a
    replicate without a finite value there."""
    use = points & (sd > 0)
    if not use.any():
        return np.full(curves.shape[0], np.nan)
    t = np.abs(curves[:, use] - estimate[use]) / sd[use]
    t = np.where(np.isfinite(t), t, -np.inf)
    out = t.max(axis=1)
    return np.where(np.isfinite(out), out, np.nan)


def candidates(estimate: np.ndarray, sd: np.ndarray, q: float) -> np.ndarray:
    """The thresholds that can hold the true minimum under the band of half-width
    ``q * sd``: those whose lower edge is at most the upper edge's minimum."""
    ok = np.isfinite(estimate) & np.isfinite(sd)
    if not ok.any():
        return ok
    upper = np.min((estimate + q * sd)[ok])
    return ok & (estimate - q * sd <= upper)


def band_edges_minima(estimate: np.ndarray, sd: np.ndarray, q: float) -> tuple[float, float]:
    """``(min of the lower edge, min of the upper edge)`` of the band
    ``estimate -+ q * sd`` over the thresholds where both are finite (NaN without any)."""
    ok = np.isfinite(estimate) & np.isfinite(sd)
    if not ok.any() or not np.isfinite(q):
        return float("nan"), float("nan")
    return (float(np.min((estimate - q * sd)[ok])), float(np.min((estimate + q * sd)[ok])))
