"""Error-rate engine on sorted scores (numpy only).

Conventions (SPEC §1): scores are oriented so that higher means more genuine; a trial is
accepted iff ``score >= threshold``. ``negatives`` are impostor scores, ``positives`` genuine
scores. ``-inf`` marks a trial that is rejected at every threshold (a failure to acquire);
it is counted in ``n`` / ``p`` but never accepted.

Every quantity derives from one ``np.sort`` per class.  An *operating point* is a pair of
integer counts ``(fa, fr)``; all operating points that any threshold can reach are those
"at" a distinct score ``u`` (accept the scores ``>= u``) plus the reject-all point, written
``u = +inf``.  The threshold reported for the point at ``u`` follows bob.measure's candidate
list: the midpoint between ``u`` and the next lower distinct score, the lowest score itself
for the lowest point, and the next float above the highest score for reject-all.
"""

from __future__ import annotations

import math
from typing import Literal, NamedTuple

import numpy as np

from .rocch import (
    MIN_GENUINE,
    distinct_alternations,
    isotonic_regression,  # noqa: F401 (shared with the bootstrap kernels)
    pav,
    pool,
    rocch_eer,
    window_eer,
)
from .search import search_sorted_keys
from .sums import pairwise_sum, softplus_into

__all__ = [
    "OperatingPoint",
    "Sweep",
    "cllr",
    "d_prime",
    "interpolated_eer",
    "softplus",
    "threshold_eer",
]

LN2 = float(np.log(2.0))


class OperatingPoint(NamedTuple):
    """Counts at one threshold: false acceptances ``fa`` of ``n`` impostors, false
    rejections ``fr`` of ``p`` genuines."""

    threshold: float
    fa: int
    fr: int
    n: int
    p: int

    @property
    def far(self) -> float:
        return self.fa / self.n

    @property
    def frr(self) -> float:
        return self.fr / self.p


class Sweep:
    """Sorted impostor and genuine scores of one system, and everything derived from them.

    Parameters
    ----------
    negatives, positives : ndarray
        Impostor and genuine scores (oriented, higher = more genuine), any order. ``-inf``
        marks a trial that is always rejected.
    assume_sorted : bool
        Skip the sort when the caller guarantees ascending order.
    """

    def __init__(self, negatives, positives, *, assume_sorted: bool = False):
        neg = np.asarray(negatives, dtype=np.float64)
        pos = np.asarray(positives, dtype=np.float64)
        if not assume_sorted:
            neg = np.sort(neg)
            pos = np.sort(pos)
        rn = int(np.searchsorted(neg, -np.inf, side="right"))
        rp = int(np.searchsorted(pos, -np.inf, side="right"))
        self.neg = neg[rn:]
        self.pos = pos[rp:]
        self.rn = rn
        self.rp = rp
        self.n = neg.size
        self.p = pos.size
        if self.n == 0 or self.p == 0:
            raise ValueError("both classes need at least one score")
        self._cn: np.ndarray | None = None  # cumulative weights of self.neg (len + 1)
        self._cp: np.ndarray | None = None
        self._positions: tuple | None = None
        self._cand: tuple | None = None
        self._pav: tuple | None = None
        self._soft: tuple | None = None

    def reweighted(self, neg_weights: np.ndarray, pos_weights: np.ndarray) -> Sweep:
        """The same sorted scores with integer multiplicities (a bootstrap replicate).

        ``neg_weights`` / ``pos_weights`` give one non-negative integer per score of the
        class in sorted order, the failures to acquire first (as the constructor received
        them). Nothing is re-sorted: the new sweep shares the sorted arrays and every
        position-only structure with this one, and every metric reads weighted counts.
        """
        new = object.__new__(Sweep)
        new.neg, new.pos = self.neg, self.pos
        wn = np.asarray(neg_weights)
        wp = np.asarray(pos_weights)
        new.rn = int(wn[: self.rn].sum())
        new.rp = int(wp[: self.rp].sum())
        new._cn = np.concatenate(([0], np.cumsum(wn[self.rn :], dtype=np.int64)))
        new._cp = np.concatenate(([0], np.cumsum(wp[self.rp :], dtype=np.int64)))
        new.n = new.rn + int(new._cn[-1])
        new.p = new.rp + int(new._cp[-1])
        if new.n == 0 or new.p == 0:
            raise ValueError("both classes need at least one score")
        new._positions = self.positions()
        new._cand = new._pav = None
        new._soft = self._softplus() if self._soft is not None else None
        return new

    def prepare_resampling(self) -> Sweep:
        """Compute once what every replicate shares (positions, per-score Cllr terms)."""
        self.positions()
        self._softplus()
        return self

    def _wneg(self, idx):
        """Weight of the first ``idx`` finite impostor scores (vectorized)."""
        return idx if self._cn is None else self._cn[idx]

    def _wpos(self, idx):
        return idx if self._cp is None else self._cp[idx]

    @property
    def n_finite_neg(self) -> int:
        return self.neg.size if self._cn is None else int(self._cn[-1])

    @property
    def n_finite_pos(self) -> int:
        return self.pos.size if self._cp is None else int(self._cp[-1])

    @classmethod
    def from_scores(cls, scores: np.ndarray, genuine: np.ndarray) -> Sweep:
        """Split ``scores`` by the boolean ``genuine`` mask and sort each class: the large
        class behind ``-inf`` placeholders when the other is small (:func:`_split_sorted`),
        else each masked copy in place."""
        scores = np.asarray(scores)
        genuine = np.asarray(genuine, dtype=bool)
        k = int(np.count_nonzero(genuine))
        if 0 < min(k, scores.size - k) <= scores.size // 3:
            neg, pos = _split_sorted(scores, genuine, k)
            return cls(neg, pos, assume_sorted=True)
        neg = _take(scores, ~genuine, scores.size - k)
        pos = _take(scores, genuine, k)
        neg.sort()
        pos.sort()
        return cls(neg, pos, assume_sorted=True)

    # ------------------------------------------------------------------ counts
    def fa_at(self, u):
        """False acceptances when accepting the scores ``>= u`` (vectorized)."""
        return self.n_finite_neg - self._wneg(np.searchsorted(self.neg, u, side="left"))

    def fr_at(self, u):
        """False rejections when accepting the scores ``>= u`` (vectorized)."""
        return self.rp + self._wpos(np.searchsorted(self.pos, u, side="left"))

    def point_at(self, u: float) -> OperatingPoint:
        """The operating point at distinct score ``u`` (``+inf``: reject all)."""
        return OperatingPoint(
            self.threshold_for(u), int(self.fa_at(u)), int(self.fr_at(u)), self.n, self.p
        )

    def rates_at_threshold(self, threshold) -> tuple[np.ndarray, np.ndarray]:
        """Counts ``(fa, fr)`` at arbitrary thresholds (accept iff score >= threshold)."""
        t = np.asarray(threshold, dtype=np.float64)
        return self.fa_at(t), self.fr_at(t)

    # ------------------------------------------------------------- thresholds
    @property
    def max_score(self) -> float:
        cands = [a[-1] for a in (self.neg, self.pos) if a.size]
        return max(cands) if cands else -np.inf

    @property
    def min_score(self) -> float:
        cands = [a[0] for a in (self.neg, self.pos) if a.size]
        return min(cands) if cands else np.inf

    def predecessor(self, u):
        """The largest finite score strictly below ``u`` (``nan`` where none; vectorized)."""
        u = np.asarray(u, dtype=np.float64)
        out = np.full(u.shape, -np.inf)
        for arr in (self.neg, self.pos):
            if arr.size:
                i = np.searchsorted(arr, u, side="left")
                has = i > 0
                out = np.where(has, np.maximum(out, arr[np.maximum(i - 1, 0)]), out)
        return np.where(np.isneginf(out), np.nan, out)

    def threshold_for(self, u):
        """bob.measure's candidate threshold that realises the operating point at ``u``."""
        u = np.asarray(u, dtype=np.float64)
        pred = self.predecessor(u)
        with np.errstate(over="ignore", invalid="ignore"):
            mid = (pred + u) / 2
            bad = ~np.isfinite(mid)
            mid = np.where(bad, pred / 2 + u / 2, mid)
        # a midpoint that rounds onto the lower score would accept it: use the upper one
        mid = np.where(mid > pred, mid, u)
        top = np.nextafter(self.max_score, np.inf) if np.isfinite(self.max_score) else np.inf
        out = np.where(np.isnan(pred), u, mid)
        out = np.where(np.isposinf(u), top, out)
        return out if out.ndim else float(out)

    # -------------------------------------------------------------- candidates
    def positions(self):
        """Weight-free structure of the candidates: ``(pv, starts, ends, nb, nle)``, the
        distinct genuine scores, where each run of them starts and ends in ``self.pos``,
        and the numbers of impostor scores below and up to each."""
        if self._positions is None:
            pos = self.pos
            if pos.size:
                starts = np.flatnonzero(np.concatenate(([True], pos[1:] != pos[:-1])))
                pv = pos[starts]
            else:
                starts = np.zeros(0, dtype=np.intp)
                pv = np.zeros(0)
            ends = np.append(starts[1:], pos.size)
            nb = search_sorted_keys(self.neg, pv, side="left")
            # only genuine values that an impostor score equals need a second search
            nle = nb.copy()
            if self.neg.size:
                hit = self.neg[np.minimum(nb, self.neg.size - 1)] == pv
                nle[hit] = np.searchsorted(self.neg, pv[hit], side="right")
            self._positions = (pv, starts, ends, nb, nle)
        return self._positions

    def candidates(self):
        """Distinct genuine scores plus reject-all: every operating point at which a
        criterion that increases with FRR and decreases with FAR can be minimal.

        Returns ``(u, fa, fr, pc, nb, nle)``: the candidate scores (``+inf`` last), their
        counts, the (weighted) number of genuine scores at each distinct value, and the
        (weighted) numbers of impostor scores below and up to each distinct genuine value.
        """
        if self._cand is None:
            pv, starts, ends, nb_i, nle_i = self.positions()
            fr_start = self._wpos(starts)
            pc = self._wpos(ends) - fr_start
            nb = self._wneg(nb_i)
            nle = self._wneg(nle_i)
            u = np.append(pv, np.inf)
            fa = np.append(self.n_finite_neg - nb, 0)
            fr = np.append(self.rp + fr_start, self.p)
            self._cand = (u, fa, fr, pc, nb, nle)
        return self._cand

    def min_weighted(self, weight: float) -> OperatingPoint:
        """Minimize ``weight*FAR + (1-weight)*FRR``; ties: smaller FAR+FRR, then highest
        threshold (SPEC §2)."""
        u, fa, fr, *_ = self.candidates()
        far = fa / self.n
        frr = fr / self.p
        crit = weight * far + (1.0 - weight) * frr
        return self._argmin(u, fa, fr, crit, far + frr)

    def min_dcf(self, p_target: float, c_miss: float, c_fa: float) -> tuple[float, OperatingPoint]:
        """Unnormalized minimum of ``c_miss*p_target*FRR + c_fa*(1-p_target)*FAR``."""
        u, fa, fr, *_ = self.candidates()
        far = fa / self.n
        frr = fr / self.p
        crit = c_miss * p_target * frr + c_fa * (1.0 - p_target) * far
        op = self._argmin(u, fa, fr, crit, far + frr)
        return float(crit.min()), op

    def min_hter_and_dcf(self, p_target: float, c_miss: float,
                         c_fa: float) -> tuple[OperatingPoint, float]:
        """``(min_weighted(0.5), min_dcf(p_target, c_miss, c_fa)[0])`` from one reading of
        the candidates' rates (the same operations, so the same values)."""
        u, fa, fr, *_ = self.candidates()
        far = fa / self.n
        frr = fr / self.p
        total = far + frr
        best = self._argmin(u, fa, fr, 0.5 * far + (1.0 - 0.5) * frr, total)
        dcf = c_miss * p_target * frr + c_fa * (1.0 - p_target) * far
        return best, float(dcf.min())

    def _argmin(self, u, fa, fr, crit, total) -> OperatingPoint:
        idx = np.flatnonzero(crit == crit.min())
        if idx.size > 1:
            sub = total[idx]
            idx = idx[sub == sub.min()]
        i = int(idx[-1])
        return OperatingPoint(
            float(self.threshold_for(u[i])), int(fa[i]), int(fr[i]), self.n, self.p
        )

    # ---------------------------------------------------------------- EER
    def _d(self, u: float) -> float:
        return self.fa_at(u) / self.n - self.fr_at(u) / self.p

    def eer_bracket(self) -> tuple[float | None, float]:
        """The distinct scores ``(u_prev, u_star)`` around the FAR = FRR crossing.

        ``u_star`` is the lowest operating point with FAR <= FRR (``+inf`` = reject all);
        ``u_prev`` the one just below it, or None. FAR - FRR strictly decreases from one
        operating point to the next, so ``|FAR - FRR|`` is smallest at one of the two.
        """
        u_star = np.inf
        for arr in (self.neg, self.pos):
            lo, hi = 0, arr.size
            while lo < hi:
                mid = (lo + hi) // 2
                if self._d(arr[mid]) <= 0:
                    hi = mid
                else:
                    lo = mid + 1
            if lo < arr.size:
                u_star = min(u_star, float(arr[lo]))
        prev = self.predecessor(u_star)
        return (None if np.isnan(prev) else float(prev)), u_star

    def eer_points(self) -> tuple[OperatingPoint | None, OperatingPoint]:
        """The operating points at ``u_prev`` (None when there is none) and ``u_star`` of
        :meth:`eer_bracket`: all that the threshold and interpolated EERs read."""
        u_prev, u_star = self.eer_bracket()
        star = self.point_at(u_star)
        return (None if u_prev is None else self.point_at(u_prev)), star

    def eer_threshold(self) -> tuple[float, OperatingPoint]:
        """bob.measure's EER: the candidate minimizing |FAR - FRR| (ties: smaller
        FAR + FRR, then the higher threshold); EER = (FAR + FRR) / 2 there."""
        return threshold_eer(*self.eer_points())

    def eer_interpolated(self) -> float:
        """Where the piecewise-linear (FAR, FRR) curve through all operating points
        crosses FAR = FRR."""
        return interpolated_eer(*self.eer_points())

    # ---------------------------------------------------------- PAV / ROCCH
    def pav_blocks(self) -> tuple[np.ndarray, np.ndarray]:
        """Pool-adjacent-violators on the label sequence in score order.

        Returns ``(P, N)``: genuine and impostor counts of each pooled block, in increasing
        score order. The run-length encoded sequence (impostor runs between distinct
        genuine values, and tie groups) is much shorter than the trials.
        """
        if self._pav is not None:
            return self._pav
        u, fa, fr, pc, nb, nle = self.candidates()
        if self._cn is None and self._cp is None and not (self.rn or self.rp) and pc.size \
                and np.array_equal(nb, nle):  # distinct across classes: runs are nb's steps
            starts = self.positions()[1]
            self._pav = pav(*distinct_alternations(starts, nb, self.neg.size, self.pos.size))
            return self._pav
        m = pc.size
        between = np.empty(m + 1, dtype=np.int64)
        if m:
            between[0] = nb[0]
            between[1:m] = nb[1:] - nle[:-1]
            between[m] = self.n_finite_neg - nle[-1]
        else:
            between[0] = self.n_finite_neg
        npos = np.zeros(2 * m + 2, dtype=np.int64)
        nneg = np.zeros(2 * m + 2, dtype=np.int64)
        npos[0], nneg[0] = self.rp, self.rn  # failures to acquire: the lowest scores
        nneg[1:-1:2] = between[:m]
        nneg[2:-1:2] = nle - nb
        npos[2:-1:2] = pc
        nneg[-1] = between[m]
        self._pav = pool(npos, nneg)
        return self._pav

    def rocch(self) -> tuple[np.ndarray, np.ndarray]:
        """Vertices ``(pfa, pmiss)`` of the ROC convex hull, from accept-all to reject-all."""
        P, N = self.pav_blocks()
        fr = np.concatenate(([0], np.cumsum(P)))
        fa = self.n - np.concatenate(([0], np.cumsum(N)))
        return fa / self.n, fr / self.p

    def eer_rocch(self) -> float:
        """EER of the ROC convex hull (:func:`rocch_eer` of :meth:`rocch`). Unless the
        hull is already pooled, it is read off a window around the crossing
        (:func:`~pandas_biosig._kernels.rocch.window_eer`), to the same bits."""
        if self._pav is None and self._cn is None and self._cp is None \
                and self.pos.size >= MIN_GENUINE:
            value = window_eer(self.neg, self.pos, self.rn, self.rp, self.eer_bracket()[1])
            if value is not None:
                return value
        return rocch_eer(*self.rocch())

    def min_cllr(self) -> float:
        """Cllr after optimal monotone calibration (PAV), in bits."""
        P, N = self.pav_blocks()
        P = P.astype(np.float64)
        N = N.astype(np.float64)
        odds = self.p / self.n
        with np.errstate(divide="ignore", invalid="ignore"):
            pos_cost = np.where(P > 0, P * np.log1p(np.where(P > 0, N * odds / P, 0.0)), 0.0)
            neg_cost = np.where(N > 0, N * np.log1p(np.where(N > 0, P / (N * odds), 0.0)), 0.0)
        return float((pos_cost.sum() / self.p + neg_cost.sum() / self.n) / (2 * LN2))

    # ----------------------------------------------------- other summaries
    def _softplus(self):
        if self._soft is None:
            self._soft = (softplus(-self.pos), softplus(self.neg))
        return self._soft

    def cllr(self) -> float:
        """:func:`cllr` of the scores, failures to acquire counted as ``-inf``."""
        if self.rp:
            return float("inf")
        # numpy's sums, computed in cache-sized leaves, nothing kept (no weights: both None)
        if self._cn is None or self._cp is None:
            pos_sum = pairwise_sum(lambda lo, hi, out: softplus_into(self.pos[lo:hi], out,
                                                                     negate=True), self.pos.size)
            neg_sum = pairwise_sum(lambda lo, hi, out: softplus_into(self.neg[lo:hi], out),
                                   self.neg.size)
            total = pos_sum / self.p + neg_sum / self.n
        else:
            sp_pos, sp_neg = self._softplus()
            wp = np.diff(self._cp)
            wn = np.diff(self._cn)
            total = np.dot(wp, sp_pos) / self.p + np.dot(wn, sp_neg) / self.n
        return float(total / (2 * LN2))

    def auc(self) -> float:
        """Area under the ROC, ties counted half (= Mann-Whitney U / (n p))."""
        u, fa, fr, pc, nb, nle = self.candidates()
        wins = float(np.dot(pc, nb)) + 0.5 * float(np.dot(pc, nle - nb))
        wins += float(self.n_finite_pos) * self.rn + 0.5 * self.rp * self.rn
        return wins / (float(self.n) * float(self.p))

    def fnmr_at_fmr(self, fmr: float) -> OperatingPoint:
        """The smallest FRR over thresholds whose FAR <= ``fmr`` (the ROC's own value)."""
        k = _max_count(fmr, self.n)
        w_fin = self.n_finite_neg
        if k >= w_fin:
            return self.point_at(self.min_score)
        # the highest impostor score that must be rejected: the first index j whose
        # cumulative weight reaches w_fin - k holds it at j - 1
        j = self.neg.size - k if self._cn is None else _search(self._cn, w_fin - k, "left")
        v = self.neg[j - 1]
        nxt = [a[i] for a in (self.neg, self.pos)
               if (i := np.searchsorted(a, v, side="right")) < a.size]
        return self.point_at(min(nxt) if nxt else np.inf)

    def fmr_at_fnmr(self, fnmr: float) -> OperatingPoint | None:
        """The smallest FAR over thresholds whose FRR <= ``fnmr`` (None if impossible)."""
        k = _max_count(fnmr, self.p)
        if self.rp > k:
            return None
        budget = k - self.rp
        if self._cp is None:
            j = budget
        else:
            j = _search(self._cp, budget, "right") - 1
        u = np.inf if j >= self.pos.size else float(self.pos[j])
        return self.point_at(u)


def threshold_eer(
    prev: OperatingPoint | None, star: OperatingPoint
) -> tuple[float, OperatingPoint]:
    """bob.measure's EER from the two operating points around the crossing
    (:meth:`Sweep.eer_points`): the one with the smaller |FAR - FRR| (ties: smaller
    FAR + FRR, then ``star``, the higher threshold); EER = (FAR + FRR) / 2 there."""
    best = star
    if prev is not None:
        key_b = (abs(best.far - best.frr), best.far + best.frr)
        key_o = (abs(prev.far - prev.frr), prev.far + prev.frr)
        if key_o < key_b:
            best = prev
    return (best.far + best.frr) / 2, best


def interpolated_eer(prev: OperatingPoint | None, star: OperatingPoint) -> float:
    """Where the segment between the two operating points around the crossing
    (:meth:`Sweep.eer_points`) crosses FAR = FRR."""
    b = star
    if prev is None:
        return (b.far + b.frr) / 2
    a = prev
    d_a = a.far - a.frr
    d_b = b.far - b.frr
    t = d_a / (d_a - d_b)
    return a.far + t * (b.far - a.far)


def _split_sorted(scores: np.ndarray, genuine: np.ndarray, k: int):
    """The two classes of ``scores`` sorted, ``(neg, pos)``, when one class is small.

    The small class is gathered by its indices; the large one is never gathered: a copy
    of every score with the small class's places set to ``-inf`` is sorted, and its last
    elements are the large class in order. The placeholders sort first and equal the
    smallest possible score, so the tail is the large class's sorted values exactly (its
    own ``-inf`` failures included, NaN last as ``np.sort`` puts them). A mask that
    selects most of the rows in short runs is the slowest way numpy copies: at 10^7
    scores and 10 % genuine the split costs half a sort, the copy and the scatter a
    fifth of that.
    """
    small_is_pos = k <= scores.size - k
    idx = np.flatnonzero(genuine if small_is_pos else ~genuine)
    small = scores[idx].astype(np.float64, copy=False)
    large = np.array(scores, dtype=np.float64)
    large[idx] = -np.inf
    large.sort()
    large = large[idx.size :]
    small.sort()
    return (large, small) if small_is_pos else (small, large)


def _take(values: np.ndarray, mask: np.ndarray, count: int) -> np.ndarray:
    """``values[mask]`` (``count``: how many are True) by the faster of numpy's two ways:
    ``np.compress`` (a list of indices, then a gather) for a sparse mask, boolean indexing
    (a copy of each run of True) when most of it is True and the runs are long: at 10^7
    scores, a class of 90 % costs half again as much through ``np.compress``."""
    if count > 0.8 * mask.size:
        return values[mask]
    return np.compress(mask, values)


def _search(cumulative, value, side: Literal["left", "right"]) -> int:
    """``np.searchsorted`` on a cumulative-weight array or a lazily drawn one."""
    if isinstance(cumulative, np.ndarray):
        return int(np.searchsorted(cumulative, value, side=side))
    return int(cumulative.searchsorted(value, side=side))


def _max_count(rate: float, total: int) -> int:
    """The largest integer k with k / total <= rate (computed as the rates are)."""
    k = int(np.floor(rate * total))
    k = min(max(k, 0), total)
    while k < total and (k + 1) / total <= rate:
        k += 1
    while k > 0 and k / total > rate:
        k -= 1
    return k


def softplus(x: np.ndarray) -> np.ndarray:
    """``log(1 + exp(x))`` without overflow, in one temporary."""
    out = np.abs(x)
    np.negative(out, out=out)
    np.exp(out, out=out)
    np.log1p(out, out=out)
    out += np.maximum(x, 0.0)
    return out


def cllr(negatives: np.ndarray, positives: np.ndarray) -> float:
    """Log-likelihood-ratio cost (bits), scores read as natural-log likelihood ratios.

    ``-inf`` genuine scores make it infinite; ``-inf`` impostor scores cost nothing.
    """
    pos_cost = softplus(-positives).sum() / positives.size
    neg = negatives[np.isfinite(negatives)]
    neg_cost = softplus(neg).sum() / negatives.size
    return float((pos_cost + neg_cost) / (2 * LN2))


def d_prime(negatives: np.ndarray, positives: np.ndarray) -> float:
    """Decidability index ``|mu_g - mu_i| / sqrt((var_g + var_i) / 2)`` (population
    variances), on the finite scores.

    Scale invariant: scores whose magnitude is beyond ``2**±250`` are scaled by a power of
    two (exact) before their deviations are squared, so the squares neither overflow
    (``1e300`` scores) nor underflow (``1e-310``); other scores are not scaled at all.
    """
    neg, neg_sum = _finite_sum(negatives)
    pos, pos_sum = _finite_sum(positives)
    if neg.size == 0 or pos.size == 0:
        return float("nan")
    shift = _power_of_two_shift(pos, neg)
    moments = []
    for x, total in ((pos, pos_sum), (neg, neg_sum)):
        if shift:  # extreme scores only: a copy scaled by 2**shift, exact
            x, total = np.ldexp(x, shift), None
        # x.mean() is this sum over the size; the finiteness check already summed
        m = x.mean() if total is None else total / x.size
        # two-pass population variance: numpy's pairwise sum of the squared deviations,
        # made leaf by leaf in cache (no array of the deviations, no BLAS threads: the
        # same bits on every machine, as np.dot's do not)
        def fill(lo: int, hi: int, out: np.ndarray, x: np.ndarray = x, m: float = m) -> None:
            _squared_deviations(x[lo:hi], m, out)

        squares = pairwise_sum(fill, x.size)
        moments.append((m, squares / x.size))
    (mu_g, var_g), (mu_i, var_i) = moments
    spread = np.sqrt((var_g + var_i) / 2)
    diff = abs(mu_g - mu_i)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(diff / spread) if spread > 0 else float("inf") if diff > 0 else float("nan")


def _power_of_two_shift(*arrays: np.ndarray) -> int:
    """0 for finite scores whose largest magnitude lies within ``2**±250`` (their squared
    deviations are normal floats), else the exponent of the power of two that brings it
    near 1."""
    largest = max(max(abs(float(a.max())), abs(float(a.min()))) for a in arrays)
    exponent = math.frexp(largest)[1]
    return 0 if largest == 0 or -250 <= exponent <= 250 else -exponent


def _squared_deviations(x: np.ndarray, m: float, out: np.ndarray) -> None:
    np.subtract(x, m, out=out)
    np.multiply(out, out, out=out)


def _finite_sum(x: np.ndarray) -> tuple[np.ndarray, np.float64 | None]:
    """The finite values of ``x`` in their order, and their ``np.add.reduce``: ``x``
    itself when its sum is finite (then every value is), without a mask or a copy; else
    a masked copy, and None for the sum."""
    with np.errstate(over="ignore"):  # an overflowing sum falls back to the mask
        total = np.add.reduce(x)
    return (x, total) if np.isfinite(total) else (x[np.isfinite(x)], None)
