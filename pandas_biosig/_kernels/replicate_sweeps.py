"""The metrics of many bootstrap replicates of one sweep at once (numpy only).

A replicate that resamples people (or trials) gives every trial an integer multiplicity;
:meth:`~pandas_biosig._kernels.rates.Sweep.reweighted` builds its sweep and the metric
reads a few operating points of it. For small groups that costs far more in per-replicate
overhead than in arithmetic. :class:`ReplicateSweeps` reads the same operating points of
a block of replicates at once, from the rows of their weights:

- the weighted counts below every distinct score are cumulative sums along each row;
- the EER (:meth:`ReplicateSweeps.eer`): each row's FAR - FRR at every distinct score,
  computed as :meth:`Sweep._d <pandas_biosig._kernels.rates.Sweep>` computes it (a count
  over a total, in floating point, a non-increasing sequence), its first score where it
  is <= 0 (``u_star`` of :meth:`~pandas_biosig._kernels.rates.Sweep.eer_bracket`) and
  the distinct score just below it (``u_prev``), read by the segmented
  :func:`~pandas_biosig._kernels.segments.threshold_eer` or
  :func:`~pandas_biosig._kernels.segments.interpolated_eer`;
- the rates at a fixed threshold (:meth:`ReplicateSweeps.rates_at`): one column of the
  cumulative sums.

Every count is an integer and every rate the same quotient of the same two integers as
the sweep's, so each value equals that of ``sw.reweighted(wn, wp)`` to the bit
(``tests/test_replicate_sweeps.py``); a row that leaves a class without weight gives NaN
(the replicate :func:`~pandas_biosig._core.replicates.reweighted_or_none` refuses).
"""

from __future__ import annotations

import numpy as np

from .rates import Sweep
from .segments import Points, interpolated_eer, threshold_eer

__all__ = ["ReplicateSweeps", "block_rows"]

#: Cells (replicates x scores) a block of replicates holds at once.
BLOCK_CELLS = 1 << 22


def block_rows(n_scores: int) -> int:
    """Replicates per block for a sweep of ``n_scores`` scores (at least one)."""
    return max(1, BLOCK_CELLS // max(n_scores, 1))


class ReplicateSweeps:
    """The replicates of one sweep whose weights are the rows of ``neg_weights`` and
    ``pos_weights`` (each class's scores in the sweep's order, failures to acquire first,
    as :meth:`~pandas_biosig._kernels.rates.Sweep.reweighted` takes them)."""

    def __init__(self, sweep: Sweep, neg_weights: np.ndarray, pos_weights: np.ndarray):
        self.sweep = sw = sweep
        wn = np.asarray(neg_weights, dtype=np.int64)
        wp = np.asarray(pos_weights, dtype=np.int64)
        self.rp = wp[:, :sw.rp].sum(axis=1)
        self.cn = _cumulative(wn[:, sw.rn:])
        self.cp = _cumulative(wp[:, sw.rp:])
        self.n_fin = self.cn[:, -1]
        self.n = wn[:, :sw.rn].sum(axis=1) + self.n_fin
        self.p = self.rp + self.cp[:, -1]
        self.empty = (self.n == 0) | (self.p == 0)

    def _counts(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(fa, fr)`` of every row at the scores ``u`` (accept ``>= u``):
        :meth:`~pandas_biosig._kernels.rates.Sweep.fa_at` and ``fr_at``."""
        sw = self.sweep
        fa = self.n_fin[:, None] - self.cn[:, np.searchsorted(sw.neg, u, side="left")]
        fr = self.rp[:, None] + self.cp[:, np.searchsorted(sw.pos, u, side="left")]
        return fa, fr

    def rates_at(self, threshold: float) -> tuple[np.ndarray, np.ndarray]:
        """``(far, frr)`` of every row at a fixed threshold (NaN for an empty row)."""
        fa, fr = self._counts(np.array([threshold], dtype=np.float64))
        with np.errstate(divide="ignore", invalid="ignore"):
            far, frr = fa[:, 0] / self.n, fr[:, 0] / self.p
        return np.where(self.empty, np.nan, far), np.where(self.empty, np.nan, frr)

    def eer(self, method: str) -> np.ndarray:
        """Every row's EER: ``"threshold"`` (bob.measure's) or ``"interpolated"``."""
        sw = self.sweep
        u = np.append(np.unique(np.concatenate((sw.neg, sw.pos))), np.inf)
        fa, fr = self._counts(u)
        n, p = self.n[:, None], self.p[:, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            crossed = fa / n - fr / p <= 0  # Sweep._d(u) <= 0
        crossed[:, -1] = True  # reject all: FAR - FRR = -1
        star = np.argmax(crossed, axis=1)
        rows = np.arange(star.size)
        prev = np.maximum(star - 1, 0)
        zero = np.zeros(star.size)
        n1, p1 = np.maximum(self.n, 1), np.maximum(self.p, 1)  # empty rows: NaN below
        at_prev = Points(zero, fa[rows, prev], fr[rows, prev], n1, p1)
        at_star = Points(zero, fa[rows, star], fr[rows, star], n1, p1)
        has_prev = star > 0
        with np.errstate(divide="ignore", invalid="ignore"):
            value = (interpolated_eer(at_prev, has_prev, at_star) if method == "interpolated"
                     else threshold_eer(at_prev, has_prev, at_star)[0])
        return np.where(self.empty, np.nan, value)


def _cumulative(weights: np.ndarray) -> np.ndarray:
    """Each row's weights below every position: ``(rows, size + 1)``, a 0 column first."""
    out = np.zeros((weights.shape[0], weights.shape[1] + 1), dtype=np.int64)
    np.cumsum(weights, axis=1, out=out[:, 1:])
    return out
