"""Bootstrap bands of a DET/ROC curve on a grid of rates (numpy only).

A replicate is given by the integer multiplicities of the sorted scores of each class
(any resampling scheme: trials, subjects, people in both roles), as cumulative sums along
the sorted scores, one row per replicate. From them, for every replicate at once and
without sorting anything again:

- :func:`frr_at_far`: the smallest FRR among the thresholds whose FAR is at most each
  grid value (the ROC's own value, ``Sweep.fnmr_at_fmr``), and its converse
  :func:`far_at_frr` (``Sweep.fmr_at_fnmr``);
- :func:`pointwise_band` and :func:`simultaneous_band`: the percentile interval at each
  grid point, and the band that holds at every grid point at once.
"""

from __future__ import annotations

import warnings
from typing import Literal

import numpy as np

from .min_band import max_t

__all__ = [
    "cumulative",
    "far_at_frr",
    "frr_at_far",
    "max_counts",
    "monotone_envelope",
    "pointwise_band",
    "simultaneous_band",
]


def cumulative(weights: np.ndarray) -> np.ndarray:
    """Cumulative multiplicities along the sorted scores, a 0 column first:
    ``(replicates, n + 1)`` int64."""
    w = np.asarray(weights)
    out = np.zeros((w.shape[0], w.shape[1] + 1), dtype=np.int64)
    np.cumsum(w, axis=1, out=out[:, 1:])
    return out


def max_counts(rates: np.ndarray, totals: np.ndarray) -> np.ndarray:
    """The largest integer ``k`` with ``k / total <= rate``, for every (total, rate) pair:
    ``(len(totals), len(rates))``, computed as the rates are (``k / total`` compared)."""
    x = np.asarray(rates, dtype=np.float64)[None, :]
    n = np.asarray(totals, dtype=np.float64)[:, None]
    k = np.floor(x * n)
    k = np.where((k + 1) / n <= x, k + 1, k)
    k = np.where(k / n > x, k - 1, k)
    return np.clip(k, 0, n).astype(np.int64)


def _rowwise_search(cum: np.ndarray, values: np.ndarray,
                    side: Literal["left", "right"]) -> np.ndarray:
    """``np.searchsorted(cum[i], values[i, j], side)`` for every row ``i`` at once: the rows
    are non-decreasing, so offsetting row ``i`` by ``i * (max + 1)`` makes the flattened
    array sorted."""
    rows, width = cum.shape
    step = int(cum[:, -1].max()) + 1 if cum.size else 1
    offsets = np.arange(rows, dtype=np.int64)[:, None] * step
    flat = (cum + offsets).ravel()
    found = np.searchsorted(flat, values + offsets, side=side)
    return found - np.arange(rows, dtype=np.int64)[:, None] * width


def frr_at_far(neg: np.ndarray, pos: np.ndarray, cum_neg: np.ndarray, cum_pos: np.ndarray,
               far: np.ndarray) -> np.ndarray:
    """False rejections at the smallest-FRR threshold whose FAR is at most each of ``far``.

    ``neg``, ``pos``: the sorted (finite) scores of each class; ``cum_neg``, ``cum_pos``:
    their cumulative multiplicities per replicate (:func:`cumulative`). Returns
    ``(replicates, len(far))`` counts of false rejections. As ``Sweep.fnmr_at_fmr``: with
    ``k`` false acceptances allowed, the highest impostor that must be rejected is the one
    where the cumulative multiplicity reaches ``N - k``; the threshold is the next distinct
    score above it, so the genuine scores at or below it are rejected.
    """
    n_tot = cum_neg[:, -1]
    k = max_counts(far, n_tot)
    target = np.maximum(n_tot[:, None] - k, 1)
    j = _rowwise_search(cum_neg, target, "left")  # first cumulative >= N - k
    v = neg[np.clip(j - 1, 0, neg.size - 1)]
    at = np.searchsorted(pos, v, side="right")
    fr = np.take_along_axis(cum_pos, at, axis=1)
    return np.where(k >= n_tot[:, None], 0, fr)


def far_at_frr(neg: np.ndarray, pos: np.ndarray, cum_neg: np.ndarray, cum_pos: np.ndarray,
               frr: np.ndarray) -> np.ndarray:
    """False acceptances at the smallest-FAR threshold whose FRR is at most each of
    ``frr`` (``Sweep.fmr_at_fnmr``, every class finite): the threshold is the first genuine
    score beyond the ``k`` allowed rejections; ``(replicates, len(frr))`` counts."""
    p_tot = cum_pos[:, -1]
    n_tot = cum_neg[:, -1]
    k = max_counts(frr, p_tot)
    j = _rowwise_search(cum_pos, k, "right") - 1  # last cumulative <= k
    inf = j >= pos.size
    u = pos[np.clip(j, 0, pos.size - 1)]
    below = np.take_along_axis(cum_neg, np.searchsorted(neg, u, side="left"), axis=1)
    return np.where(inf, 0, n_tot[:, None] - below)


def pointwise_band(values: np.ndarray, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval at each grid point (columns; NaN replicates ignored)."""
    alpha = 1 - confidence_level
    v = np.asarray(values, dtype=np.float64)
    if v.shape[1] == 0:
        return np.zeros(0), np.zeros(0)
    with warnings.catch_warnings():  # a column of NaN (a grid value not resolved) stays NaN
        warnings.simplefilter("ignore", RuntimeWarning)
        low, high = np.nanquantile(v, [alpha / 2, 1 - alpha / 2], axis=0)
    return low, high


def simultaneous_band(values: np.ndarray, estimate: np.ndarray,
                      confidence_level: float) -> tuple[np.ndarray, np.ndarray, float]:
    r"""Band that holds at every grid point at once: max-t over the grid.

    With :math:`s_j` the replicates' standard deviation at grid point :math:`j`, each
    replicate's largest standardized deviation :math:`T_b = \max_j |\theta^*_{bj} -
    \hat\theta_j| / s_j` (over the points where :math:`s_j > 0`), and :math:`c` the
    ``confidence_level`` quantile of :math:`T_b`, the band is :math:`\hat\theta_j \pm c\,
    s_j`, clipped to [0, 1] (Davison & Hinkley 1997, §5.x; Hall & Horowitz 2013 for
    curves). Returns the low and high bounds and :math:`c`. Points whose replicates do not
    vary get the estimate itself as both bounds; NaN where the estimate is NaN.
    """
    v = np.asarray(values, dtype=np.float64)
    est = np.asarray(estimate, dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        s = np.nanstd(v, axis=0, ddof=1) if v.shape[0] > 1 else np.zeros(v.shape[1])
    use = np.isfinite(s) & (s > 0) & np.isfinite(est)
    if not use.any():
        return est.copy(), est.copy(), float("nan")
    t = max_t(v, est, s, use)  # NaN for a replicate without a finite value (a class drawn empty)
    t = t[np.isfinite(t)]
    c = float(np.quantile(t, confidence_level)) if t.size else float("nan")
    s0 = np.where(use, s, 0.0)
    low = np.clip(est - c * s0, 0.0, 1.0)
    high = np.clip(est + c * s0, 0.0, 1.0)
    return low, high, c


def monotone_envelope(low: np.ndarray, high: np.ndarray, grid: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
    """A band of a non-increasing curve tightened by its monotonicity: the high bound at
    a grid value is the smallest high bound at or below it, the low bound the largest low
    bound at or above it. A non-increasing curve inside the band at every grid value is
    inside the tightened band too, so a simultaneous band keeps its coverage. NaN bounds
    (grid values not resolved) stay NaN and constrain nothing."""
    order = np.argsort(grid, kind="stable")
    lo, hi = np.asarray(low, dtype=np.float64)[..., order], np.asarray(high, dtype=np.float64)[..., order]
    new_hi = np.fmin.accumulate(hi, axis=-1)
    new_lo = np.fmax.accumulate(lo[..., ::-1], axis=-1)[..., ::-1]
    new_hi[np.isnan(hi)] = np.nan
    new_lo[np.isnan(lo)] = np.nan
    out_lo, out_hi = np.empty_like(new_lo), np.empty_like(new_hi)
    out_lo[..., order], out_hi[..., order] = new_lo, new_hi
    return out_lo, out_hi
