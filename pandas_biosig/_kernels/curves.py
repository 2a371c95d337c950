"""Curve kernels on one system's sorted scores (numpy only).

Conventions are those of :mod:`pandas_biosig._kernels.rates`: scores are oriented (higher
means more genuine), a trial is accepted iff ``score >= threshold``, ``-inf`` marks a
failure to acquire (rejected at every threshold). Every function takes a
:class:`~pandas_biosig._kernels.rates.Sweep` (which holds the two classes sorted) or plain
count arrays, and returns numpy arrays.

- :func:`roc_points`: the exact step ROC, one operating point per distinct score plus
  reject-all, from accept-all (lowest threshold) to reject-all, tied scores grouped.
- :func:`at_most`: the point of that ROC that a grid of FAR values reads ("at most" rule).
- :func:`ppndf`: the standard normal deviate of the DET axes.
- :func:`select_thresholds` / :func:`epc_values`: the two halves of an Expected Performance
  Curve (thresholds chosen per weight on one sweep, rates read on another).
- :func:`bayes_error`: minimum and actual Bayes error rate over prior log odds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import expit, ndtri

from .rates import Sweep
from .search import search_sorted_keys

__all__ = [
    "EPC_CRITERIA",
    "RocPoints",
    "at_most",
    "bayes_error",
    "epc_values",
    "ppndf",
    "roc_points",
    "select_thresholds",
]

#: EPC criteria (Bengio, Mariéthoz & Keller 2005, eqs. 10-13): name -> what the threshold
#: minimizes on the development split, for a weight ``a`` in [0, 1].
EPC_CRITERIA = {
    "min_weighted": "a * FAR + (1 - a) * FRR (eq. 10)",
    "precision_recall": "-(a * precision + (1 - a) * recall) (eq. 11)",
    "far": "|a - FAR| (eq. 12)",
    "frr": "|a - FRR| (eq. 13)",
}

_EPS = float(np.finfo(np.float64).eps)
_CHUNK = 1 << 22  # elements per (weights x candidates) block


class RocPoints(NamedTuple):
    """The exact ROC of one sweep, ordered from accept-all to reject-all.

    ``u`` is the distinct score that defines each point (accept the scores ``>= u``;
    ``+inf`` for reject-all), ``threshold`` bob.measure's candidate threshold that realises
    it (:meth:`Sweep.threshold_for`), ``fa`` / ``fr`` the (weighted) false acceptances and
    rejections, ``n`` / ``p`` the impostor and genuine totals.
    """

    u: np.ndarray
    threshold: np.ndarray
    fa: np.ndarray
    fr: np.ndarray
    n: int
    p: int

    @property
    def far(self) -> np.ndarray:
        return self.fa / self.n

    @property
    def frr(self) -> np.ndarray:
        return self.fr / self.p

    @property
    def tpr(self) -> np.ndarray:
        """``(p - fr) / p``: computed from counts, so it equals scikit-learn's ``tpr`` to
        the last bit (``1 - frr`` may differ by one rounding)."""
        return (self.p - self.fr) / self.p


def placement(sweep: Sweep) -> np.ndarray:
    """The number of impostor scores below each genuine score (``np.searchsorted`` of the
    sorted genuine scores among the impostor scores): where each genuine score goes when
    the two classes are merged. Shared by :func:`roc_fill` and :func:`auc`, so that the
    search runs once."""
    return search_sorted_keys(sweep.neg, sweep.pos, side="left")


def _merge(neg: np.ndarray, pos: np.ndarray, out: np.ndarray | None = None,
           at: np.ndarray | None = None, mask: bool = True):
    """Merge two sorted arrays in linear time: ``(merged, is_pos, where)``, ``where`` the
    position of each genuine score in ``merged``.

    Each genuine score goes before the impostor scores equal to it (the order within a
    run of ties never matters: only the first element of each run is read). ``out`` (at
    least ``neg.size + pos.size`` long) receives the merged values when given; ``at`` is
    :func:`placement` when already known. Without ``mask`` the caller does not read
    ``is_pos`` (it is returned inverted, one pass saved).
    """
    size = neg.size + pos.size
    merged = np.empty(size) if out is None else out[:size]
    if at is None:
        at = np.searchsorted(neg, pos, side="left")
        at += np.arange(pos.size)
    else:
        at = at + np.arange(pos.size)
    is_pos = np.zeros(size, dtype=bool)
    is_pos[at] = True
    merged[at] = pos
    np.logical_not(is_pos, out=is_pos)
    merged[is_pos] = neg
    if mask:
        np.logical_not(is_pos, out=is_pos)
    return merged, is_pos, at


def _run_starts(merged: np.ndarray) -> np.ndarray | None:
    """Index of the first element of every run of equal values, or None when every value
    is distinct (then the runs start at every index)."""
    if merged.size < 2:
        return None
    new = np.empty(merged.size, dtype=bool)
    new[0] = True
    np.not_equal(merged[1:], merged[:-1], out=new[1:])
    if np.count_nonzero(new) == merged.size:
        return None
    return np.flatnonzero(new)


def roc_points(sweep: Sweep) -> RocPoints:
    """Every operating point of ``sweep``: one per distinct finite score, then reject-all.

    The two sorted classes are merged in linear time (each genuine score is placed by a
    binary search among the impostor scores), so the cost beyond the sweep's own sort is
    O(n). Scores that tie (within or across classes) form one point. FAR is
    non-increasing and FRR non-decreasing along the points; ``fr - fa`` strictly
    increases.
    """
    neg, pos = sweep.neg, sweep.pos
    if neg.size + pos.size:
        merged, is_pos, _ = _merge(neg, pos)
        starts = _run_starts(merged)
        # genuine scores strictly below each distinct value: a cumulative count of the
        # merged labels, read at the first element of each run of ties
        cpos = np.empty(merged.size + 1, dtype=np.int64)
        cpos[0] = 0
        np.cumsum(is_pos, out=cpos[1:])
        if starts is None:
            u = merged
            pos_below = cpos[:-1]
            neg_below = np.arange(merged.size) - pos_below
        else:
            u = merged[starts]
            pos_below = cpos[starts]
            neg_below = starts - pos_below
        fa = sweep.n_finite_neg - sweep._wneg(neg_below)
        fr = sweep.rp + sweep._wpos(pos_below)
    else:  # every score is a failure to acquire: only reject-all
        u = np.zeros(0)
        fa = fr = np.zeros(0, dtype=np.int64)
    u = np.append(u, np.inf)
    fa = np.append(fa, 0).astype(np.int64)
    fr = np.append(fr, sweep.p).astype(np.int64)
    return RocPoints(u, _thresholds(u, sweep), fa, fr, sweep.n, sweep.p)


def auc(sweep: Sweep, at: np.ndarray) -> float:
    """:meth:`Sweep.auc` of an unweighted sweep from :func:`placement`: the win counts are
    the same integers, so the value is the same to the last bit."""
    neg, pos = sweep.neg, sweep.pos
    below = int(at.sum())
    ties = 0
    if neg.size and pos.size:
        hit = np.flatnonzero(neg[np.minimum(at, neg.size - 1)] == pos)
        if hit.size:
            ties = int((np.searchsorted(neg, pos[hit], side="right") - at[hit]).sum())
    wins = float(below) + 0.5 * float(ties)
    wins += float(pos.size) * sweep.rn + 0.5 * sweep.rp * sweep.rn
    return wins / (float(sweep.n) * float(sweep.p))


_BLOCK = 1 << 16  # elements per block of the chunked arithmetic below (cache-sized)


def roc_fill(sweep: Sweep, threshold: np.ndarray, far: np.ndarray, rate: np.ndarray, *,
             axis: str = "frr", at: np.ndarray | None = None) -> int:
    """Write :func:`roc_points` of an unweighted sweep straight into three rows.

    ``threshold``, ``far`` and ``rate`` are float rows at least as long as the curve (one
    point per distinct score, plus reject-all); ``rate`` receives the FRR
    (``axis="frr"``, the DET's second axis) or the TPR (``axis="tpr"``, the ROC's), so
    that a curve computes and stores only its own axes. The points go to the start of
    each row and the number of points is returned (what follows them may be overwritten:
    ``rate`` holds the merged scores for a while).
    The values are those of :func:`roc_points` bit for bit (counts are exact in float64
    below 2**53), but nothing of the size of the input is allocated besides a boolean
    mask when the scores are distinct.

    ``at`` is :func:`placement`, when already known. Rows of at least one element more
    than the scores are first written block by block from the two classes
    (:func:`_distinct_fill`, nothing merged whole) until a tie shows: the common case of
    distinct scores never pays a pass to find the curve's length. If one does (or the
    rows are shorter), the classes are merged whole and the ties grouped.
    """
    if sweep._cn is not None or sweep._cp is not None:
        raise ValueError("roc_fill needs an unweighted sweep")
    if axis not in ("frr", "tpr"):
        raise ValueError(f"internal: axis must be 'frr' or 'tpr', not {axis!r}")
    tpr = axis == "tpr"
    neg, pos = sweep.neg, sweep.pos
    size = neg.size + pos.size
    n, p, rp = sweep.n, sweep.p, sweep.rp
    a = neg.size
    scratch = rate if rate.size >= size + 1 else None
    # tried as distinct scores when the rows can hold one point per score: the first tie
    # met sends the rows to the general path, which rewrites them
    distinct = size > 0 and min(threshold.size, far.size) > size and scratch is not None
    if size == 0:
        length = 1
    elif distinct and _distinct_fill(
        sweep, (placement(sweep) if at is None else at) + np.arange(pos.size),
        threshold, far, rate, tpr,
    ):
        length = size + 1
    else:
        merged, is_pos, where = _merge(neg, pos, out=scratch, at=at)
        starts = _run_starts(merged)
        if starts is None:
            u = merged
            length = size + 1
        else:
            u = merged[starts]
            length = u.size + 1
        _thresholds_into(u, sweep, threshold[:length])
        del merged
        if starts is None:
            _distinct_rates(where, size, a, n, p, rp, far, rate, tpr)
        else:
            cpos = np.empty(size + 1, dtype=np.int64)
            cpos[0] = 0
            np.cumsum(is_pos, out=cpos[1:])
            pos_below = cpos[starts].astype(np.float64)
            del cpos
            neg_below = starts - pos_below
            m = starts.size
            _rates(pos_below, neg_below, a, n, p, rp, far[:m], rate[:m], tpr)
    if size == 0:
        threshold[0] = np.inf if not np.isfinite(sweep.max_score) else np.nextafter(
            sweep.max_score, np.inf)
    last = length - 1
    far[last] = 0 / n
    rate[last] = (p - p) / p if tpr else p / p
    return length


def _rates(pos_below, neg_below, a, n, p, rp, far, rate, tpr: bool) -> None:
    """FAR and the FRR (or, ``tpr``, the TPR) from float counts, each computed as
    :class:`RocPoints` does from integers (the same IEEE operations on the same exact
    values)."""
    np.subtract(a, neg_below, out=far)  # fa
    far /= n
    np.add(pos_below, rp, out=rate)  # fr
    if tpr:
        np.subtract(p, rate, out=rate)
    rate /= p


def _distinct_rates(where, size, a, n, p, rp, far, rate, tpr: bool) -> None:
    """:func:`_rates` of every merged position when the scores are distinct, block by
    block (:func:`_block_rates`)."""
    ends = where + 1
    step = np.arange(0, -_BLOCK, -1, dtype=np.float64)
    work = np.empty(min(_BLOCK, size))
    for lo in range(0, size, _BLOCK):
        hi = min(lo + _BLOCK, size)
        _block_rates(ends, lo, hi, step, a, n, p, rp, far, rate, tpr, work)


def _block_rates(ends, lo, hi, step, a, n, p, rp, far, rate, tpr, work) -> None:
    """:func:`_rates` of merged positions ``lo`` .. ``hi`` of distinct scores.

    ``pos_below[k]`` (genuine scores before position ``k``) steps up by one at each
    ``ends[j]`` (one past the position of genuine score ``j``), so a block of it is a
    ``np.repeat`` of consecutive integers (several times faster than a running sum);
    ``fa = a - k + pos_below``, ``fr = rp + pos_below`` and ``p - fr`` are sums of exact
    integers, so every rate has the bits of :func:`_rates`. ``step`` is ``0, -1, -2...``;
    ``work`` (a block long) holds each numerator, so that a row is written once, by its
    division (an in-place pass over the row costs as much again as the arithmetic).
    """
    j0 = int(np.searchsorted(ends, lo, side="right"))
    j1 = int(np.searchsorted(ends, hi - 1, side="right"))
    bounds = np.empty(j1 - j0 + 2, dtype=np.intp)
    bounds[0], bounds[-1] = lo, hi
    bounds[1:-1] = ends[j0:j1]
    c = np.repeat(np.arange(j0, j1 + 1, dtype=np.float64), np.diff(bounds))
    w = work[: hi - lo]
    np.add(step[: hi - lo], a - lo, out=w)
    w += c
    np.divide(w, n, out=far[lo:hi])
    if tpr:
        np.subtract(p - rp, c, out=w)
    else:
        np.add(c, rp, out=w)
    np.divide(w, p, out=rate[lo:hi])


def _distinct_fill(sweep: Sweep, where, threshold, far, rate, tpr: bool) -> bool:
    """:func:`roc_fill`'s rows for distinct scores, block by block: each block of the
    merged scores is assembled in a small buffer from its slices of the two classes
    (``where``: the merged position of each genuine score), its thresholds are the
    midpoints :func:`_thresholds_into` makes, and its rates :func:`_block_rates`.

    Two equal neighbours (a midpoint that is not above the lower score, then an
    equality) stop the fill and False is returned (the rows then hold part of a curve);
    True when every row is written."""
    neg, pos = sweep.neg, sweep.pos
    a, size = neg.size, neg.size + pos.size
    ends = where + 1
    step = np.arange(0, -_BLOCK, -1, dtype=np.float64)
    vals = np.empty(min(_BLOCK, size) + 1)  # vals[0]: the score before the block
    mask = np.empty(min(_BLOCK, size), dtype=bool)
    work = np.empty(min(_BLOCK, size))
    top = sweep.max_score
    big = max(abs(float(sweep.min_score)), abs(float(top))) > np.finfo(np.float64).max / 2
    for lo in range(0, size, _BLOCK):
        hi = min(lo + _BLOCK, size)
        g0 = int(np.searchsorted(where, lo, side="left"))
        g1 = int(np.searchsorted(where, hi, side="left"))
        local = where[g0:g1] - lo
        block, is_neg = vals[1 : hi - lo + 1], mask[: hi - lo]
        is_neg.fill(True)
        is_neg[local] = False
        block[local] = pos[g0:g1]
        block[is_neg] = neg[lo - g0 : hi - g1]
        first = 1 if lo == 0 else 0  # position 0 keeps the lowest score itself
        lower, upper = vals[first : hi - lo], vals[first + 1 : hi - lo + 1]
        # the block of the row stays in cache meanwhile
        if not _midpoints(lower, upper, threshold[lo + first : hi], big):
            return False
        if lo == 0:
            threshold[0] = vals[1]
        _block_rates(ends, lo, hi, step, a, sweep.n, sweep.p, sweep.rp, far, rate, tpr, work)
        vals[0] = vals[hi - lo]
    threshold[size] = np.nextafter(top, np.inf) if np.isfinite(top) else np.inf
    return True


def _midpoints(lower: np.ndarray, upper: np.ndarray, mid: np.ndarray,
               big: bool | np.bool_) -> bool:
    """bob.measure's candidate threshold between each pair of consecutive sorted scores,
    into ``mid``: their midpoint, or the upper score where the midpoint rounds onto the
    lower one (it would accept that score too). ``big``: a score exceeds half the largest
    float, so a sum may overflow (then halved before adding). False, with ``mid`` partly
    written, when two neighbours are equal (a tie: no threshold lies between them)."""
    with np.errstate(over="ignore", invalid="ignore"):
        np.add(lower, upper, out=mid)
        mid *= 0.5
    if big:
        bad = ~np.isfinite(mid)
        if bad.any():  # the sum overflowed
            mid[bad] = lower[bad] / 2 + upper[bad] / 2
    low = mid <= lower
    if low.any():
        if np.any(lower[low] == upper[low]):
            return False
        mid[low] = upper[low]
    return True


def _thresholds(u: np.ndarray, sweep: Sweep) -> np.ndarray:
    """:meth:`Sweep.threshold_for` of *all* distinct scores ``u`` (sorted, ``+inf`` last),
    where the predecessor of each score is simply the previous one (no search): the lowest
    score itself, then midpoints, then the next float above the highest score."""
    out = np.empty_like(u)
    _thresholds_into(u[:-1], sweep, out)
    return out


def _thresholds_into(finite: np.ndarray, sweep: Sweep, out: np.ndarray) -> None:
    """:func:`_thresholds` of the finite distinct scores ``finite`` into ``out`` (one
    longer: the reject-all threshold goes last). ``finite`` may not overlap ``out``
    except as the same memory shifted by one (it is read before it is overwritten)."""
    top = sweep.max_score
    last = np.nextafter(top, np.inf) if np.isfinite(top) else np.inf
    m = finite.size
    if m:
        first = finite[0]
        # without shared memory the midpoints go straight into ``out``
        direct = not np.may_share_memory(finite, out)
        scratch = None if direct else np.empty(min(_BLOCK, m))
        # a sum of two scores can overflow only if one exceeds half the largest float
        big = max(abs(float(finite[0])), abs(float(finite[-1]))) > np.finfo(np.float64).max / 2
        # written from the end so that ``finite`` may share memory with ``out``
        for hi in range(m, 1, -_BLOCK):
            lo = max(1, hi - _BLOCK)
            lower, upper = finite[lo - 1 : hi - 1], finite[lo:hi]
            mid = out[lo:hi] if scratch is None else scratch[: hi - lo]
            _midpoints(lower, upper, mid, big)  # the scores are distinct here
            if not direct:
                out[lo:hi] = mid
        out[0] = first
    out[m] = last


def at_most(points: RocPoints, far_grid: np.ndarray) -> np.ndarray:
    """Index of the point each grid value reads: the lowest-threshold point whose FAR is at
    most the grid value, i.e. the smallest FRR with FAR <= x (the ROC's own value)."""
    far = points.far  # non-increasing along the points
    count = np.searchsorted(far[::-1], np.asarray(far_grid, dtype=np.float64), side="right")
    return far.size - np.maximum(count, 1)


def ppndf(x):
    """Standard normal deviate :math:`\\Phi^{-1}(x)` of the DET axes, with ``x`` clipped to
    ``[eps, 1 - eps]`` (as bob.measure does), so 0 and 1 map to about -/+8.1; NaN stays
    NaN."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        return float(ndtri(np.clip(x, _EPS, 1.0 - _EPS)))
    out = np.clip(x, _EPS, 1.0 - _EPS)  # a new array: the deviates overwrite it
    return ndtri(out, out=out)


# --------------------------------------------------------------------------------- EPC
#: Above this many genuine scores the ``"min_weighted"`` EPC thresholds are chosen one
#: weight at a time (the weights x candidates array of one pass would cost more).
_WEIGHTED_LOOP = 2048


def _pick(crit: np.ndarray, total: np.ndarray, index: np.ndarray) -> np.ndarray:
    """Row-wise SPEC §2 tie rule: the smallest ``crit``, then the smallest ``total``, then
    the largest ``index`` (the highest threshold). All arrays are (weights, candidates)."""
    cmin = crit.min(axis=1, keepdims=True)
    tot = np.where(crit == cmin, total, np.inf)
    tmin = tot.min(axis=1, keepdims=True)
    idx = np.where(tot == tmin, index, -1)
    return idx.max(axis=1)


def _nearest_level(rate, total, alpha) -> np.ndarray:
    """For each ``alpha``, the level minimizing ``|alpha - rate|`` (then the SPEC §2 ties).

    ``rate`` is strictly increasing or strictly decreasing (one value per level, in
    threshold order), so ``|alpha - rate|`` is V-shaped and its minimum lies next to the
    insertion point of ``alpha``: a window of five levels around it holds every tie.
    """
    m = rate.size
    increasing = m < 2 or rate[-1] > rate[0]
    asc = rate if increasing else rate[::-1]
    j = np.searchsorted(asc, alpha)
    win = np.clip(j[:, None] + np.arange(-2, 3), 0, m - 1)
    if not increasing:
        win = m - 1 - win
    crit = np.abs(alpha[:, None] - rate[win])
    return _pick(crit, total[win], win)


def select_thresholds(sweep: Sweep, weights, criterion: str) -> np.ndarray:
    """The oriented threshold that ``criterion`` chooses on ``sweep`` for each weight.

    Candidates are bob.measure's thresholds (one per operating point); ties on the
    criterion go to the smaller FAR + FRR, then to the higher threshold (SPEC §2).

    - ``"min_weighted"``: :meth:`Sweep.min_weighted` of each weight (eq. 10): for a
      sweep of at most :data:`_WEIGHTED_LOOP` genuine scores every weight in one pass
      over the candidates (the same choice; a Python step per weight would cost more
      than the arithmetic), else one weight at a time;
    - ``"precision_recall"``: minimize ``-(a * precision + (1 - a) * recall)`` (eq. 11),
      precision 0 where nothing is accepted;
    - ``"far"``: minimize ``|a - FAR|`` (eq. 12), over every operating point;
    - ``"frr"``: minimize ``|a - FRR|`` (eq. 13).

    Only the operating points that can win are searched: for ``"frr"`` and
    ``"precision_recall"`` the last point of each FRR level (the sweep's candidates, which
    have the smallest FAR of their level), for ``"far"`` the first point of each FAR level.
    """
    if criterion not in EPC_CRITERIA:
        raise ValueError(f"criterion={criterion!r} is not one of {list(EPC_CRITERIA)}")
    alpha = np.atleast_1d(np.asarray(weights, dtype=np.float64))
    if criterion == "min_weighted" and not (
            type(sweep) is Sweep and sweep.pos.size <= _WEIGHTED_LOOP):
        # one weight at a time: a large sweep, or an out-of-core one (whose
        # min_weighted also marks the histogram bins it must read)
        return np.array([sweep.min_weighted(float(a)).threshold for a in alpha])
    if criterion == "far":
        pts = roc_points(sweep)
        first = np.flatnonzero(np.concatenate(([True], pts.fa[1:] != pts.fa[:-1])))
        far = pts.fa[first] / pts.n
        total = far + pts.fr[first] / pts.p
        return pts.threshold[first[_nearest_level(far, total, alpha)]]
    u, fa, fr, *_ = sweep.candidates()
    far = fa / sweep.n
    frr = fr / sweep.p
    total = far + frr
    if criterion == "frr":
        return sweep.threshold_for(u[_nearest_level(frr, total, alpha)])
    if criterion == "min_weighted":  # Sweep.min_weighted of every weight at once
        first, second = far, frr
    else:
        tp = sweep.p - fr
        accepted = tp + fa
        with np.errstate(invalid="ignore", divide="ignore"):
            first = np.where(accepted > 0, tp / np.maximum(accepted, 1), 0.0)  # precision
        second = tp / sweep.p  # recall
    index = np.arange(u.size)
    rows = max(1, _CHUNK // max(u.size, 1))
    chosen = np.empty(alpha.size, dtype=np.intp)
    for lo in range(0, alpha.size, rows):
        a = alpha[lo : lo + rows, None]
        crit = a * first + (1.0 - a) * second
        if criterion != "min_weighted":
            crit = -crit
        chosen[lo : lo + rows] = _pick(crit, np.broadcast_to(total, crit.shape), index)
    return sweep.threshold_for(u[chosen])


def epc_values(fa, fr, n: int, p: int, weights, criterion: str):
    """Rates at the chosen thresholds: ``(far, frr, hter, value)`` from counts.

    ``value`` is the criterion's own quantity: ``a * FAR + (1 - a) * FRR`` for
    ``"min_weighted"``, F1 = 2 TP / (2 TP + FA + FR) for ``"precision_recall"``, FAR for
    ``"far"``, FRR for ``"frr"``. ``fa``, ``fr`` broadcast against ``weights`` (a bootstrap
    can pass a (replicates, weights) block).
    """
    fa = np.asarray(fa, dtype=np.float64)
    fr = np.asarray(fr, dtype=np.float64)
    alpha = np.asarray(weights, dtype=np.float64)
    far = fa / n
    frr = fr / p
    hter = (far + frr) / 2
    if criterion == "min_weighted":
        value = alpha * far + (1.0 - alpha) * frr
    elif criterion == "precision_recall":
        tp = p - fr
        value = 2 * tp / (2 * tp + fa + fr)
    elif criterion == "far":
        value = far
    elif criterion == "frr":
        value = frr
    else:
        raise ValueError(f"criterion={criterion!r} is not one of {list(EPC_CRITERIA)}")
    return far, frr, hter, value


# ------------------------------------------------------------------------ Bayes error
def bayes_error(sweep: Sweep, prior_log_odds, *, actual: bool = True):
    """Bayes error rates over prior log odds :math:`\\lambda = \\log(\\pi / (1 - \\pi))`.

    Returns ``(min_ber, act_ber, default_ber)``:

    - ``min_ber``: :math:`\\min_\\theta \\pi FRR(\\theta) + (1 - \\pi) FAR(\\theta)` over
      every operating point (the sweep's candidates hold every minimum);
    - ``act_ber``: the same sum at the Bayes threshold :math:`\\theta = -\\lambda`, scores
      read as natural-log likelihood ratios (NaN when ``actual`` is False);
    - ``default_ber``: :math:`\\min(\\pi, 1 - \\pi)`, deciding without the scores.

    :math:`\\pi` and :math:`1 - \\pi` are computed as ``expit(lambda)`` and
    ``expit(-lambda)``, so neither loses precision at large :math:`|\\lambda|`.
    """
    plo = np.atleast_1d(np.asarray(prior_log_odds, dtype=np.float64))
    pi = expit(plo)
    pi_bar = expit(-plo)
    u, fa, fr, *_ = sweep.candidates()
    far = fa / sweep.n
    frr = fr / sweep.p
    min_ber = np.empty(plo.size)
    rows = max(1, _CHUNK // max(u.size, 1))
    for lo in range(0, plo.size, rows):
        block = pi[lo : lo + rows, None] * frr + pi_bar[lo : lo + rows, None] * far
        min_ber[lo : lo + rows] = block.min(axis=1)
    if actual:
        a_fa, a_fr = sweep.rates_at_threshold(-plo)
        act_ber = pi * (a_fr / sweep.p) + pi_bar * (a_fa / sweep.n)
    else:
        act_ber = np.full(plo.size, np.nan)
    return min_ber, act_ber, np.minimum(pi, pi_bar)
