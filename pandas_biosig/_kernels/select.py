"""The EER crossing by selection: linear passes instead of a sort (numpy only).

The threshold and interpolated EERs read two operating points only, those at the distinct
scores ``u_prev < u_star`` around the FAR = FRR crossing (:meth:`Sweep.eer_points
<pandas_biosig._kernels.rates.Sweep.eer_points>`), and their thresholds read the next lower
distinct score below each. None of this needs the whole table in order:

1. A jittered systematic sample of the trials (a few ten thousand) estimates FAR - FRR
   at every sampled score, with its binomial standard error; the *bracket* ``[lo, hi]``
   runs from two distinct sampled scores below the highest one whose FAR - FRR is
   confidently positive to the lowest where it is confidently negative.
2. One vectorized pass counts the impostor scores above ``hi`` and the genuine scores
   below ``lo``, and extracts the scores inside the bracket (ties at its ends included).
3. Only those are sorted. At a score ``u`` of the bracket, ``FA(u)`` is the impostors
   above ``hi`` plus those of the bracket ``>= u``, and ``FR(u)`` the genuines below
   ``lo`` plus those of the bracket ``< u``: exactly the counts of the full sort, so the
   crossing is searched as :meth:`Sweep.eer_bracket` searches it.
4. The answer is accepted only when it is provably the full sort's: the lowest score
   with FAR <= FRR is in the bracket and is not its lowest score (or nothing lies below
   the bracket), both scores whose thresholds are needed lie inside it, and a reject-all
   crossing has nothing above the bracket. Otherwise the bracket is widened and the pass
   repeated; after that fails too, or when the bracket would hold much of the data, or
   on small tables, the classes are sorted and the whole table is the bracket.

Every float is computed by the same operations, in the same order, as the sorted sweep,
so the results equal it to the last bit (``tests/test_select.py``).
"""

from __future__ import annotations

import numpy as np

from .rates import OperatingPoint, Sweep

__all__ = ["eer_points"]

#: Below this many trials the sort is as fast as the sampling and the pass.
MIN_SIZE = 1 << 15
#: Sample size used to place the bracket, per square root of the trials (the bracket
#: then holds about N**0.75 trials; sampling and pass cost about the same).
SAMPLE_FACTOR = 8
#: Half-width of the bracket in standard errors of the sampled FAR - FRR, per attempt.
MARGINS = (4.0, 16.0)
#: Trials per block of the pass (its masks stay in cache).
BLOCK = 1 << 16
#: A bracket expected to hold more than this fraction of the trials is not worth it.
MAX_FRACTION = 0.25

_INF = float("inf")


def eer_points(
    scores: np.ndarray,
    genuine: np.ndarray,
    *,
    min_size: int = MIN_SIZE,
    sample_size: int | None = None,
    margins: tuple[float, ...] = MARGINS,
    max_fraction: float = MAX_FRACTION,
    seed: int = 0,
) -> tuple[OperatingPoint | None, OperatingPoint]:
    """``Sweep.from_scores(scores, genuine).eer_points()``, without sorting the trials.

    Parameters
    ----------
    scores : ndarray of float64
        Oriented scores (higher = more genuine), no NaN; ``-inf`` is a trial rejected at
        every threshold, as in :class:`Sweep`.
    genuine : ndarray of bool
        Whether each trial is genuine.
    min_size, sample_size, margins, max_fraction, seed
        Tuning (tests use them to force the selection path and narrow brackets): tables
        under ``min_size`` trials are sorted; ``sample_size`` trials place the bracket
        (default :data:`SAMPLE_FACTOR` times the square root of the trials); one pass
        per margin (in standard errors) before falling back to the sort, none when the
        bracket would hold more than ``max_fraction`` of the trials; the seed of the
        sample's jitter. None of them changes the result.

    Raises
    ------
    ValueError
        When a class is empty (as :class:`Sweep`).
    """
    scores = np.asarray(scores, dtype=np.float64)
    genuine = np.asarray(genuine, dtype=bool)
    size = scores.size
    p = int(np.count_nonzero(genuine))
    n = size - p
    if n == 0 or p == 0:
        raise ValueError("both classes need at least one score")
    if size >= max(min_size, 2):
        if sample_size is None:
            sample_size = max(2048, int(SAMPLE_FACTOR * np.sqrt(size)))
        sample = _sample(scores, genuine, sample_size, seed, n, p)
        if sample is not None:
            for margin in margins:
                lo, hi = _bracket(*sample, margin, n, p, max_fraction)
                if lo is None:
                    break  # the bracket would hold too much: sort
                found = _in_bracket(scores, genuine, lo, hi, n, p)
                if found is not None:
                    return found
    return _sorted(scores, genuine, n, p)


def _sorted(scores, genuine, n: int, p: int):
    """The crossing on the whole table sorted: the table is its own bracket, with
    nothing outside it; :class:`Sweep` when a score is ``+inf`` or NaN."""
    wn = np.compress(~genuine, scores)
    wp = np.compress(genuine, scores)
    wn.sort()
    wp.sort()
    found = _solve(wn, wp, 0, 0, n, p, False, False)
    if found is None:
        return Sweep(wn, wp, assume_sorted=True).eer_points()
    return found


# ------------------------------------------------------------------ the bracket
def _sample(scores, genuine, size: int, seed: int, n: int,
            p: int) -> tuple[np.ndarray, np.ndarray, bool, bool] | None:
    """``(sn, sp, exact_n, exact_p)``: sorted impostor and genuine scores of a jittered
    systematic sample (one trial at a random place in each of ``size`` equal blocks);
    a class with fewer than ``size`` trials is taken whole (``exact_*``). None when a
    class is missing from the sample or a sampled score is not finite."""
    step = max(1, scores.size // max(size, 1))
    m = scores.size // step
    idx = np.arange(m) * step
    if step > 1:
        idx += np.random.default_rng(seed).integers(0, step, size=m)
    s = scores[idx]
    g = genuine[idx]
    exact_n, exact_p = n < size, p < size
    sn = np.compress(~genuine, scores) if exact_n else s[~g]
    sp = np.compress(genuine, scores) if exact_p else s[g]
    sn.sort()
    sp.sort()
    if sn.size == 0 or sp.size == 0 or not (np.isfinite(sn).all() and np.isfinite(sp).all()):
        return None
    return sn, sp, exact_n, exact_p


def _bracket(
    sn,
    sp,
    exact_n: bool,
    exact_p: bool,
    margin: float,
    n: int,
    p: int,
    max_fraction: float = MAX_FRACTION,
):
    """``(lo, hi)`` from the sample: the highest sampled score where FAR - FRR exceeds
    ``margin`` standard errors, and the lowest where it is below minus that many
    (``-inf`` / ``inf`` where there is none); ``(None, None)`` when the bracket would
    hold more than ``max_fraction`` of the trials."""
    u = np.concatenate((sn, sp))
    u.sort()
    far = (sn.size - np.searchsorted(sn, u, side="left")) / sn.size
    frr = np.searchsorted(sp, u, side="left") / sp.size
    d = far - frr
    # the standard error of the sampled difference (a class taken whole has none),
    # floored at one trial of each sampled class
    var = np.zeros_like(d)
    floor = 0.0
    if not exact_n:
        var += far * (1 - far) / sn.size
        floor += 1 / sn.size
    if not exact_p:
        var += frr * (1 - frr) / sp.size
        floor += 1 / sp.size
    se = margin * np.maximum(np.sqrt(var), floor)
    low = np.flatnonzero(d > se)
    high = np.flatnonzero(d < -se)
    # two distinct sampled scores lower still: when the sample is the whole table the
    # lowest score of the bracket is u_prev, and its own predecessor must be inside too
    i = int(low[-1]) if low.size else -1
    for _ in range(2):
        if i >= 0:
            i = int(np.searchsorted(u, u[i], side="left")) - 1
    lo = float(u[i]) if i >= 0 else -_INF
    hi = float(u[high[0]]) if high.size else _INF
    share = 0.0
    for arr, count in ((sn, n), (sp, p)):
        inside = np.searchsorted(arr, hi, side="right") - np.searchsorted(arr, lo, side="left")
        share += count * inside / arr.size
    if share > max_fraction * (n + p):
        return None, None
    return lo, hi


# ------------------------------------------------------------------ one pass
def _in_bracket(scores, genuine, lo: float, hi: float, n: int, p: int):
    """The two operating points when the bracket ``[lo, hi]`` provably holds the
    crossing and the scores its thresholds need, else None.

    The pass runs block by block, so that its masks stay in the processor's cache and
    the scores are read from memory once."""
    size = scores.size
    block = min(BLOCK, size)
    ge = np.ones(block, dtype=bool)
    le = np.ones(block, dtype=bool)
    both = np.empty(block, dtype=bool)
    n_ge = pos_ge = 0
    w_parts, g_parts = [], []
    for start in range(0, size, block):
        s = scores[start : start + block]
        g = genuine[start : start + block]
        k = s.size
        if lo > -_INF:
            np.greater_equal(s, lo, out=ge[:k])
            n_ge += int(np.count_nonzero(ge[:k]))
            pos_ge += int(np.count_nonzero(np.logical_and(ge[:k], g, out=both[:k])))
        if hi < _INF:
            np.less_equal(s, hi, out=le[:k])
        idx = np.flatnonzero(np.logical_and(ge[:k], le[:k], out=both[:k]))
        w_parts.append(s[idx])
        g_parts.append(g[idx])
    if lo == -_INF:
        n_ge, pos_ge = size, p
    w = np.concatenate(w_parts)
    wg = np.concatenate(g_parts)
    wn = np.sort(w[~wg])
    wp = np.sort(w[wg])
    below_pos = p - int(pos_ge)  # genuine scores below lo: rejected at every bracket threshold
    below_neg = (size - int(n_ge)) - below_pos
    above_neg = n - below_neg - wn.size  # impostor scores above hi: always accepted
    any_above = n_ge > w.size
    return _solve(wn, wp, above_neg, below_pos, n, p, n_ge < size, any_above)


def _solve(wn, wp, above_neg, below_pos, n, p, any_below, any_above):
    """The crossing among the bracket's sorted scores ``wn`` / ``wp`` (see the module
    docstring), or None when it cannot be proven to be the full sort's."""
    for arr in (wn, wp):
        if arr.size and not arr[-1] < _INF:  # +inf or NaN inside: sort instead
            return None
    # -inf scores (only when lo is -inf) are never accepted and never candidates
    rn = int(np.searchsorted(wn, -_INF, side="right"))
    rp = int(np.searchsorted(wp, -_INF, side="right"))
    wn, wp = wn[rn:], wp[rp:]
    below_pos += rp
    m = wn.size

    def d(u):  # FAR - FRR at u, as Sweep._d computes it
        fa = above_neg + (m - np.searchsorted(wn, u, side="left"))
        fr = below_pos + np.searchsorted(wp, u, side="left")
        return fa / n - fr / p

    u_star = _INF
    for arr in (wn, wp):
        lo, hi = 0, arr.size
        while lo < hi:
            mid = (lo + hi) // 2
            if d(arr[mid]) <= 0:
                hi = mid
            else:
                lo = mid + 1
        if lo < arr.size:
            u_star = min(u_star, float(arr[lo]))
    if u_star == _INF and any_above:
        return None  # the crossing may lie above the bracket
    prev = _below(wn, wp, u_star)
    prev2 = None if prev is None else _below(wn, wp, prev)
    if any_below and (prev2 is None):
        return None  # u_star, u_prev or its predecessor may lie below the bracket
    top = _INF
    if u_star == _INF:
        highest = max((float(a[-1]) for a in (wn, wp) if a.size), default=-_INF)
        top = float(np.nextafter(highest, _INF)) if highest > -_INF else _INF

    def point(u, pred):
        fa = int(above_neg + (m - np.searchsorted(wn, u, side="left")))
        fr = int(below_pos + np.searchsorted(wp, u, side="left"))
        return OperatingPoint(_threshold(u, pred, top), fa, fr, n, p)

    star = point(u_star, prev)
    return (None if prev is None else point(prev, prev2)), star


def _below(wn, wp, u: float) -> float | None:
    """The largest score of the bracket strictly below ``u`` (None where none)."""
    out = None
    for arr in (wn, wp):
        i = int(np.searchsorted(arr, u, side="left"))
        if i > 0 and (out is None or arr[i - 1] > out):
            out = float(arr[i - 1])
    return out


def _threshold(u: float, pred: float | None, top: float) -> float:
    """:meth:`Sweep.threshold_for` of one score ``u`` whose next lower distinct score is
    ``pred``, with ``top`` the threshold of reject-all: the same float operations."""
    if u == _INF:
        return top
    if pred is None:
        return u
    mid = (pred + u) / 2
    if not np.isfinite(mid):
        mid = pred / 2 + u / 2
    return mid if mid > pred else u
