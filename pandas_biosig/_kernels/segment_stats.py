"""The summaries of many groups at once: AUC, Cllr, d', the ROC convex hull's EER and
min Cllr of every segment of a :class:`~pandas_biosig._kernels.segments.Segments`
(numpy only).

Each function repeats, for all segments together, the floating-point operations of its
:class:`~pandas_biosig._kernels.rates.Sweep` counterpart in the same order: the sums are
numpy's own pairwise sums of each segment (:func:`~pandas_biosig._kernels.sums.segment_sums`),
the integer sums exact, the hull the exact PAV (:mod:`~pandas_biosig._kernels.pav`). A
counted trial enters the sums as that many equal values (the expanded class arrays,
built in batches), so a counted table gives the floats of its expanded table.
"""

from __future__ import annotations

import numpy as np

from .pav import pav_segments
from .rates import softplus
from .segments import Segments
from .sums import segment_sums

__all__ = ["auc", "cllr", "d_prime", "hull", "min_cllr", "not_llr", "rocch_eer"]

_LN2 = float(np.log(2.0))
#: Expanded values materialised at once by the counted sums.
_BATCH = 1 << 22


def auc(sg: Segments) -> np.ndarray:
    """Area under the ROC of each segment, ties counted half (:meth:`Sweep.auc`)."""
    ro = sg.run_offsets[:-1]
    wins = np.add.reduceat(sg.run_pos * sg.nb, ro).astype(np.float64)
    ties = np.add.reduceat(sg.run_pos * sg.run_neg, ro).astype(np.float64)
    total = wins + 0.5 * ties
    total += 0.0  # the failures-to-acquire terms of Sweep.auc, zero here
    return total / (sg.n.astype(np.float64) * sg.p.astype(np.float64))


def class_values(sg: Segments, genuine: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(values, offsets, counts)``: one class's sorted scores of every segment, where
    each segment's start, and the rows' counts (None without counts)."""
    key = ("class", genuine)
    if key not in sg.cache:
        mask = sg.genuine if genuine else ~sg.genuine
        values = sg.values[mask]
        rows = np.concatenate(([0], np.cumsum(mask)))[sg.offsets]
        counts = None if sg.counts is None else sg.counts[mask]
        sg.cache[key] = values, rows, counts
    return sg.cache[key]


def class_sums(sg: Segments, genuine: bool, fill) -> np.ndarray:
    """numpy's sum of ``fill(x, segment)`` over each segment's class array ``x``
    (sorted; a counted value repeated ``count`` times; ``segment``: the segment of each
    value), each segment's whole pairwise tree."""
    values, rows, counts = class_values(sg, genuine)
    if counts is None:
        key = ("segment", genuine)
        if key not in sg.cache:
            sg.cache[key] = np.repeat(np.arange(sg.size), np.diff(rows))
        return segment_sums(fill(values, sg.cache[key]), rows)
    expanded = np.concatenate(([0], np.cumsum(counts)))[rows]  # expanded offsets
    out = np.empty(sg.size)
    for a, b in _batches(expanded):
        lo, hi = int(rows[a]), int(rows[b])
        off = expanded[a : b + 1] - expanded[a]
        seg = a + np.repeat(np.arange(b - a), np.diff(off))
        out[a:b] = segment_sums(fill(np.repeat(values[lo:hi], counts[lo:hi]), seg), off)
    return out


def _batches(offsets: np.ndarray):
    """Consecutive ranges of segments whose expanded sizes add up to about ``_BATCH``."""
    a, size = 0, offsets.size - 1
    while a < size:
        b = int(np.searchsorted(offsets, offsets[a] + _BATCH, side="right")) - 1
        b = min(max(b, a + 1), size)
        yield a, b
        a = b


def cllr(sg: Segments) -> np.ndarray:
    """Cllr of each segment in bits (:meth:`Sweep.cllr`)."""
    pos_sum = class_sums(sg, True, lambda x, seg: softplus(-x))
    neg_sum = class_sums(sg, False, lambda x, seg: softplus(x))
    total = pos_sum / sg.p + neg_sum / sg.n
    return total / (2 * _LN2)


def d_prime(sg: Segments) -> np.ndarray:
    """:func:`~pandas_biosig._kernels.rates.d_prime` of each segment: the mean as
    numpy's sum over the size, the population variance as the sum of the squared
    deviations over the size (two passes); a segment whose largest magnitude is beyond
    ``2**±250`` scaled by a power of two first, as there."""
    shift = _power_of_two_shifts(sg)
    if shift is None:
        def scaled(x, seg):
            return x
    else:
        def scaled(x, seg):
            return np.ldexp(x, shift[seg])
    moments = []
    for genuine, size in ((True, sg.p), (False, sg.n)):
        m = class_sums(sg, genuine, scaled) / size

        def squares(x, seg, m=m):
            dev = scaled(x, seg) - m[seg]
            np.multiply(dev, dev, out=dev)
            return dev

        moments.append((m, class_sums(sg, genuine, squares) / size))
    (mu_g, var_g), (mu_i, var_i) = moments
    spread = np.sqrt((var_g + var_i) / 2)
    diff = np.abs(mu_g - mu_i)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = diff / spread
    return np.where(spread > 0, ratio, np.where(diff > 0, np.inf, np.nan))


def not_llr(sg: Segments, prior_log_odds=None) -> np.ndarray:
    """:func:`~pandas_biosig._kernels.calibration.llr_check`'s ``not_llr`` of each
    segment, its scores read as natural-log LLRs: the cross-entropies at
    ``XE_LOG_ODDS`` as numpy's sums of each segment (a counted value repeated), the
    actual Bayes errors at the grid's thresholds and the two minimised weighted errors
    of all segments at once, each with the operations of ``llr_check``."""
    from . import calibration as cal  # scipy.special: loaded where the flag is asked for

    plo = np.linspace(-7.0, 7.0, 141) if prior_log_odds is None else np.asarray(
        prior_log_odds, dtype=np.float64)
    priors = cal.expit(np.asarray(cal.XE_LOG_ODDS, dtype=np.float64))
    largest = np.full(sg.size, -np.inf)
    for prior in priors:
        lo = np.log(prior) - np.log1p(-prior)
        tar = class_sums(sg, True, lambda x, seg, lo=lo: softplus(-(x + lo))) / sg.p
        non = class_sums(sg, False, lambda x, seg, lo=lo: softplus(x + lo)) / sg.n
        xe = (prior * tar + (1.0 - prior) * non) / cal.prior_entropy(prior)
        largest = np.maximum(largest, xe)  # never NaN: every segment holds both classes
    fa, fr = sg.rates_on_grid(-plo)
    acts = cal.normalized_act_ber(fa, fr, sg.n[:, None], sg.p[:, None], plo)
    finite = np.isfinite(acts).any(axis=1)
    with np.errstate(invalid="ignore"):
        trivial = finite & (np.nanmin(np.where(finite[:, None], acts, 0.0), axis=1) >= 1.0)
    return (largest > cal.XE_LIMIT) | (trivial & (_lowest_min_ber(sg, plo) < cal.SEPARATION_LIMIT))


def _lowest_min_ber(sg: Segments, plo: np.ndarray) -> np.ndarray:
    """:func:`~pandas_biosig._kernels.calibration.min_normalized_min_ber` of every
    segment: the grid's prior log odds nearest 0 on either side, one minimised weighted
    error of all segments each."""
    from scipy.special import expit

    plo = plo[np.isfinite(plo)]
    below, above = plo[plo <= 0], plo[plo >= 0]
    nearest = ([float(below.max())] if below.size else []) + (
        [float(above.min())] if above.size else [])
    out = np.full(sg.size, np.inf if nearest else np.nan)
    for lam in dict.fromkeys(nearest):
        pi, pi_bar = float(expit(lam)), float(expit(-lam))
        op = sg.min_weighted(pi_bar)
        out = np.minimum(out, (pi * op.frr + pi_bar * op.far) / min(pi, pi_bar))
    return out


def _power_of_two_shifts(sg: Segments) -> np.ndarray | None:
    """The exponent each segment's scores are scaled by before d' (the rule of
    :func:`~pandas_biosig._kernels.rates.d_prime`: 0 unless the largest magnitude lies
    beyond ``2**±250``), or None when every segment's is 0. Each segment is sorted, so
    its largest magnitude is at one of its ends."""
    if sg.values.size == 0:
        return None
    ends = np.maximum(np.abs(sg.values[sg.offsets[:-1]]), np.abs(sg.values[sg.offsets[1:] - 1]))
    exponent = np.frexp(ends)[1].astype(np.int64)
    shift = np.where((ends == 0) | ((exponent >= -250) & (exponent <= 250)), 0, -exponent)
    return shift if shift.any() else None


# ------------------------------------------------------------------- the hull
def hull(sg: Segments) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The PAV blocks ``(P, N, offsets)`` of every segment (:meth:`Sweep.pav_blocks`):
    runs of one class merged, then pooled exactly."""
    pos, neg = sg.run_pos, sg.run_neg
    kind = np.where(neg == 0, 1, np.where(pos == 0, 0, -1))
    same = (kind[1:] == kind[:-1]) & (kind[1:] >= 0)
    start = np.concatenate(([True], ~same))
    start[sg.run_offsets[:-1]] = True
    starts = np.flatnonzero(start)
    P = np.add.reduceat(pos, starts) if starts.size else pos
    N = np.add.reduceat(neg, starts) if starts.size else neg
    return pav_segments(P, N, np.searchsorted(starts, sg.run_offsets))


def rocch_eer(sg: Segments, blocks=None) -> np.ndarray:
    """EER of each segment's ROC convex hull (:func:`~pandas_biosig._kernels.rocch.rocch_eer`
    of :meth:`Sweep.rocch`)."""
    P, N, off = hull(sg) if blocks is None else blocks
    seg = np.repeat(np.arange(sg.size), np.diff(off))
    cP = np.concatenate(([0], np.cumsum(P)))
    cN = np.concatenate(([0], np.cumsum(N)))
    # the hull's vertices: the first of each segment, then one after each block
    fr_lo, fr_hi = cP[:-1] - cP[off[:-1]][seg], cP[1:] - cP[off[:-1]][seg]
    fa_lo = sg.n[seg] - (cN[:-1] - cN[off[:-1]][seg])
    fa_hi = sg.n[seg] - (cN[1:] - cN[off[:-1]][seg])
    x1, x2 = fa_lo / sg.n[seg], fa_hi / sg.n[seg]
    y1, y2 = fr_lo / sg.p[seg], fr_hi / sg.p[seg]
    dx = x1 - x2
    dy = y1 - y2
    det = x1 * y2 - x2 * y1
    denom = (y2 - y1) + (x1 - x2)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where((dx == 0) | (dy == 0) | (denom == 0), 0.0, det / denom)
    value = np.where(np.isfinite(value), value, 0.0)
    best = np.maximum.reduceat(value, off[:-1]) if value.size else np.zeros(sg.size)
    return np.maximum(np.maximum(best, 0.0), 0.0)


def min_cllr(sg: Segments, blocks=None) -> np.ndarray:
    """Cllr after PAV calibration of each segment (:meth:`Sweep.min_cllr`)."""
    P, N, off = hull(sg) if blocks is None else blocks
    seg = np.repeat(np.arange(sg.size), np.diff(off))
    P = P.astype(np.float64)
    N = N.astype(np.float64)
    odds = (sg.p / sg.n)[seg]
    with np.errstate(divide="ignore", invalid="ignore"):
        pos_cost = np.where(P > 0, P * np.log1p(np.where(P > 0, N * odds / P, 0.0)), 0.0)
        neg_cost = np.where(N > 0, N * np.log1p(np.where(N > 0, P / (N * odds), 0.0)), 0.0)
    return (segment_sums(pos_cost, off) / sg.p + segment_sums(neg_cost, off) / sg.n) / (2 * _LN2)
