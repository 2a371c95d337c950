"""Exact error rates from scores that are never all in memory at once (numpy only).

The out-of-core engine sees a group's scores only through *passes*: a pass reads every
partition, reduces it to something small, and the reductions are combined. This module
holds everything that runs on numpy arrays, on both sides of a pass: the per-partition
reductions and the driver-side state that decides what the next pass must fetch.

Order-preserving keys
    A float64 score maps to a uint64 *key* (flip every bit of a negative number, set the
    sign bit of a non-negative one; ``-0.0`` is read as ``+0.0``), so that ``a < b`` iff
    ``key(a) < key(b)``.  The top ``depth`` bits of the key name a *bin*; bins are exact,
    monotone in the score and need no global range.  A bin is written ``(lo, depth)``, ``lo``
    its smallest key; its keys are ``lo .. lo | (2**(64 - depth) - 1)``.

Partly known scores (:class:`PartialScores`)
    A group's finite scores as a sorted list of disjoint bins with exact counts per class;
    some bins are *resolved* (every distinct value is known with its counts), the others
    are *opaque* (only their counts are known).  A bin of depth 64 holds one value and is
    always resolved.

Exact queries (:class:`ExactSweep`)
    An opaque bin becomes one *pseudo-score* that carries all its mass, which turns the
    partly known scores into a small weighted :class:`~pandas_biosig._kernels.rates.Sweep`.
    Every operating point at a bin edge is a true operating point, so the small sweep
    computes every criterion with the in-memory engine's own code; a query then checks
    that the values its answer depends on (the chosen score, its predecessor, and for
    minimizations a lower bound of every opaque bin) are resolved, and otherwise records
    the opaque bins that must be resolved (gathered or split into finer bins) by the next
    pass.  When no query needs anything, every number equals the in-memory one.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from .rates import OperatingPoint, Sweep, _max_count, _search
from .rocch import pav, rocch_eer

__all__ = [
    "ExactSweep",
    "FullSweep",
    "PartialScores",
    "bin_counts",
    "coarse_bins",
    "discordance_counts",
    "gather_values",
    "grid_points",
    "key_values",
    "locate",
    "merge_bins",
    "merge_values",
    "order_keys",
    "refine_counts",
]

_SIGN = np.uint64(1 << 63)
_ONE = np.uint64(1)
#: Key of ``-inf``: the lowest key of any non-NaN float.
NEG_INF_KEY = np.uint64(0x000FFFFFFFFFFFFF)


# ----------------------------------------------------------------------------- keys
def order_keys(scores: np.ndarray) -> np.ndarray:
    """Order-preserving uint64 keys of float64 scores (``-0.0`` maps to ``+0.0``)."""
    x = np.asarray(scores, dtype=np.float64) + 0.0  # a copy; -0.0 + 0.0 == +0.0
    mask = (x.view(np.int64) >> 63).view(np.uint64)  # all ones for negatives
    mask |= _SIGN
    keys = x.view(np.uint64)
    keys ^= mask
    return keys


def key_values(keys: np.ndarray) -> np.ndarray:
    """The scores of keys (inverse of :func:`order_keys`)."""
    keys = np.asarray(keys, dtype=np.uint64)
    bits = np.where(keys < _SIGN, ~keys, keys ^ _SIGN)
    return bits.view(np.float64)


def key_span(depth) -> np.ndarray:
    """``2**(64 - depth) - 1`` as uint64: the low key bits a bin of ``depth`` leaves free."""
    depth = np.asarray(depth, dtype=np.int64)
    free = np.clip(64 - depth, 0, 63).astype(np.uint64)
    return np.where(depth >= 64, np.uint64(0), (_ONE << free) - _ONE).astype(np.uint64)


def locate(keys: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Index of the bin ``[lo, hi]`` (sorted, disjoint) holding each key, ``-1`` if none."""
    idx = np.searchsorted(lo, keys, side="right").astype(np.int64) - 1
    inside = idx >= 0
    if lo.size:
        inside &= keys <= hi[np.maximum(idx, 0)]
    idx[~inside] = -1
    return idx


# ------------------------------------------------------------ per-partition reductions
def bin_counts(keys: np.ndarray, genuine: np.ndarray, depth: int):
    """Counts per class of the bins of ``depth`` bits that hold at least one key.

    Returns ``(lo, negatives, positives)``: the bins' smallest keys (sorted) and counts.
    """
    shift = np.uint64(64 - depth)
    flat = (keys >> shift).astype(np.intp)
    flat <<= 1
    flat += genuine
    if flat.size < (1 << depth) // 16:  # few scores: sort them rather than scan every bin
        u, c = np.unique(flat, return_counts=True)
        prefix = u >> 1
        nz, first = np.unique(prefix, return_index=True)
        neg = np.zeros(nz.size, np.int64)
        pos = np.zeros(nz.size, np.int64)
        slot = np.searchsorted(nz, prefix)
        is_pos = (u & 1).astype(bool)
        neg[slot[~is_pos]] = c[~is_pos]
        pos[slot[is_pos]] = c[is_pos]
        return nz.astype(np.uint64) << shift, neg, pos
    counts = np.bincount(flat, minlength=2 << depth)
    neg, pos = counts[0::2], counts[1::2]
    nz = np.flatnonzero(neg + pos)
    lo = nz.astype(np.uint64) << shift
    return lo, neg[nz].astype(np.int64), pos[nz].astype(np.int64)


def refine_counts(keys, genuine, lo, depth, extra):
    """Counts of the sub-bins (``extra`` more bits) of the bins ``(lo, depth)``.

    Returns ``(sub_lo, sub_depth, negatives, positives)`` for the non-empty sub-bins.
    """
    lo = np.asarray(lo, dtype=np.uint64)
    depth = np.asarray(depth, dtype=np.int64)
    extra = np.asarray(extra, dtype=np.int64)
    idx = locate(keys, lo, lo | key_span(depth))
    sel = idx >= 0
    idx = idx[sel]
    shift = (64 - depth - extra).astype(np.uint64)
    sub = ((keys[sel] - lo[idx]) >> shift[idx]).astype(np.int64)
    sizes = np.int64(1) << extra
    offsets = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    flat = (offsets[idx] + sub) * 2 + genuine[sel]
    counts = np.bincount(flat, minlength=2 * int(sizes.sum())).reshape(-1, 2)
    nz = np.flatnonzero(counts.any(axis=1))
    parent = np.searchsorted(offsets, nz, side="right") - 1
    local = (nz - offsets[parent]).astype(np.uint64)
    sub_lo = lo[parent] + (local << shift[parent])
    return sub_lo, depth[parent] + extra[parent], counts[nz, 0].astype(np.int64), counts[nz, 1].astype(np.int64)


def gather_values(scores, keys, genuine, lo, hi):
    """The distinct scores inside the bins ``[lo, hi]`` with their counts per class.

    Returns ``(values, negatives, positives)`` with ``values`` sorted and distinct.
    """
    sel = locate(keys, lo, hi) >= 0
    v = scores[sel] + 0.0
    g = genuine[sel]
    values, inverse = np.unique(v, return_inverse=True)
    pos = np.bincount(inverse[g], minlength=values.size).astype(np.int64)
    neg = np.bincount(inverse[~g], minlength=values.size).astype(np.int64)
    return values, neg, pos


def merge_bins(parts):
    """Sum ``(lo, [depth,] negatives, positives)`` tuples over partitions (same bins)."""
    parts = [p for p in parts if p[0].size]
    if not parts:
        return None
    if len(parts) == 1:
        return parts[0]
    cols = [np.concatenate(c) for c in zip(*parts, strict=True)]
    lo, inverse = np.unique(cols[0], return_inverse=True)
    out = [lo]
    if len(cols) == 4:  # with depth: equal for equal lo
        depth = np.empty(lo.size, dtype=np.int64)
        depth[inverse] = cols[1]
        out.append(depth)
    for c in cols[-2:]:
        out.append(np.bincount(inverse, weights=c, minlength=lo.size).astype(np.int64))
    return tuple(out)


def merge_values(parts):
    """Sum ``(values, negatives, positives)`` over partitions."""
    parts = [p for p in parts if p[0].size]
    if not parts:
        return np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64)
    if len(parts) == 1:
        return parts[0]
    v, n, p = (np.concatenate(c) for c in zip(*parts, strict=True))
    values, inverse = np.unique(v, return_inverse=True)
    neg = np.bincount(inverse, weights=n, minlength=values.size).astype(np.int64)
    pos = np.bincount(inverse, weights=p, minlength=values.size).astype(np.int64)
    return values, neg, pos


def discordance_counts(scores_a, scores_b, genuine, threshold_a, threshold_b) -> dict:
    """Paired decision counts of two systems on aligned trials (oriented scores).

    A trial is accepted iff its score is ``>= threshold`` and finite-or-``+inf`` (a ``-inf``
    score, a failure to acquire, is never accepted). ``ni_ab``: impostor trials rejected by
    A and accepted by B (A right, B wrong), ``ni_ba`` the reverse; ``nc_ab``: genuine trials
    accepted by A and rejected by B (A right, B wrong), ``nc_ba`` the reverse.
    """
    acc_a = (scores_a >= threshold_a) & (scores_a > -np.inf)
    acc_b = (scores_b >= threshold_b) & (scores_b > -np.inf)
    imp = ~genuine
    n_gen = int(np.count_nonzero(genuine))
    return dict(
        n_genuine=n_gen,
        n_impostor=int(genuine.size - n_gen),
        fa_a=int(np.count_nonzero(acc_a & imp)),
        fr_a=int(np.count_nonzero(~acc_a & genuine)),
        fa_b=int(np.count_nonzero(acc_b & imp)),
        fr_b=int(np.count_nonzero(~acc_b & genuine)),
        ni_ab=int(np.count_nonzero(imp & ~acc_a & acc_b)),
        ni_ba=int(np.count_nonzero(imp & acc_a & ~acc_b)),
        nc_ab=int(np.count_nonzero(genuine & acc_a & ~acc_b)),
        nc_ba=int(np.count_nonzero(genuine & ~acc_a & acc_b)),
    )


# ------------------------------------------------------------------ partly known scores
class PartialScores:
    """One group's scores as disjoint key bins with exact counts, some resolved to values.

    Parameters
    ----------
    lo, depth, negatives, positives : ndarray
        The non-empty bins and their counts of finite impostor and genuine scores.
    rn, rp : int
        Impostor and genuine failures to acquire (``-inf`` scores).
    low, high : float
        The smallest and largest finite score of either class (NaN when there is none).
    """

    def __init__(self, lo, depth, negatives, positives, *, rn: int, rp: int, low: float, high: float):
        order = np.argsort(np.asarray(lo, dtype=np.uint64), kind="stable")
        self.lo = np.asarray(lo, dtype=np.uint64)[order]
        self.depth = np.broadcast_to(np.asarray(depth, dtype=np.int64), order.shape)[order].copy()
        self.neg = np.asarray(negatives, dtype=np.int64)[order]
        self.pos = np.asarray(positives, dtype=np.int64)[order]
        self.rn, self.rp = int(rn), int(rp)
        self.low, self.high = float(low), float(high)
        self.n = self.rn + int(self.neg.sum())
        self.p = self.rp + int(self.pos.sum())
        self.known: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}
        self.version = 0
        self._atoms: tuple[np.ndarray, ...] | None = None

    @property
    def hi(self) -> np.ndarray:
        return self.lo | key_span(self.depth)

    def is_resolved(self) -> np.ndarray:
        known = np.fromiter((int(v) in self.known for v in self.lo), bool, self.lo.size)
        return known | (self.depth >= 64)

    def opaque(self) -> np.ndarray:
        """Boolean mask of the bins whose values are not known."""
        return ~self.is_resolved()

    def split(self, parents, sub_lo, sub_depth, sub_neg, sub_pos) -> None:
        """Replace the bins whose ``lo`` is in ``parents`` by their non-empty sub-bins."""
        drop = np.isin(self.lo, np.asarray(parents, dtype=np.uint64))
        keep = ~drop
        before = (int(self.neg[drop].sum()), int(self.pos[drop].sum()))
        after = (int(np.sum(sub_neg)), int(np.sum(sub_pos)))
        if before != after:
            raise RuntimeError(f"internal: refined counts {after} differ from {before}")
        lo = np.concatenate((self.lo[keep], np.asarray(sub_lo, dtype=np.uint64)))
        order = np.argsort(lo, kind="stable")
        self.lo = lo[order]
        self.depth = np.concatenate((self.depth[keep], np.asarray(sub_depth, np.int64)))[order]
        self.neg = np.concatenate((self.neg[keep], np.asarray(sub_neg, np.int64)))[order]
        self.pos = np.concatenate((self.pos[keep], np.asarray(sub_pos, np.int64)))[order]
        self._changed()

    def resolve(self, bins, values, negatives, positives) -> None:
        """Record the distinct values (and counts) found in the bins whose ``lo`` is ``bins``."""
        bins = np.asarray(bins, dtype=np.uint64)
        where = np.searchsorted(self.lo, bins)
        idx = locate(order_keys(values), self.lo, self.hi) if values.size else np.zeros(0, np.int64)
        for b, i in zip(bins.tolist(), where.tolist(), strict=True):
            sel = idx == i
            vn, vp = negatives[sel], positives[sel]
            if (int(vn.sum()), int(vp.sum())) != (int(self.neg[i]), int(self.pos[i])):
                raise RuntimeError("internal: gathered values disagree with the bin counts")
            self.known[b] = (values[sel], vn, vp)
        self._changed()

    def _changed(self) -> None:
        self.version += 1
        self._atoms = None

    def atoms(self):
        """The group as a sorted list of *atoms*: each resolved distinct value, and one
        pseudo-score per opaque bin carrying all its mass.

        Returns ``(value, negatives, positives, real, bin)``: ``real`` is False for
        pseudo-scores, and ``bin`` is the index of the atom's bin. The pseudo-score of an
        opaque bin is its smallest key's value (the group's smallest score for the lowest
        bin), which keeps the atoms in score order.
        """
        if self._atoms is not None:
            return self._atoms
        resolved = self.is_resolved()
        single = self.depth >= 64
        vals, negs, poss, real, owner = [], [], [], [], []
        opaque = np.flatnonzero(~resolved)
        pseudo = key_values(self.lo[opaque])
        if opaque.size and opaque[0] == 0 and np.isfinite(self.low):
            pseudo[0] = self.low
        vals.append(pseudo)
        negs.append(self.neg[opaque])
        poss.append(self.pos[opaque])
        real.append(np.zeros(opaque.size, bool))
        owner.append(opaque)
        ones = np.flatnonzero(single)
        vals.append(key_values(self.lo[ones]))
        negs.append(self.neg[ones])
        poss.append(self.pos[ones])
        real.append(np.ones(ones.size, bool))
        owner.append(ones)
        for i in np.flatnonzero(resolved & ~single):
            v, vn, vp = self.known[int(self.lo[i])]
            vals.append(v)
            negs.append(vn)
            poss.append(vp)
            real.append(np.ones(v.size, bool))
            owner.append(np.full(v.size, i))
        value = np.concatenate(vals)
        order = np.argsort(value, kind="stable")
        self._atoms = (
            value[order],
            np.concatenate(negs)[order].astype(np.int64),
            np.concatenate(poss)[order].astype(np.int64),
            np.concatenate(real)[order],
            np.concatenate(owner)[order].astype(np.int64),
        )
        return self._atoms

    def bin_of(self, value: float) -> int:
        """Index of the bin holding ``value`` (-1 if none)."""
        return int(locate(order_keys(np.array([value])), self.lo, self.hi)[0])


class _BoundedSweep(Sweep):
    """A weighted sweep whose extreme scores are given rather than read off its arrays
    (the top pseudo-score of an opaque bin is below the bin's largest score)."""

    _low: float
    _high: float

    @property
    def max_score(self) -> float:
        return self._high

    @property
    def min_score(self) -> float:
        return self._low


def _compressed_sweep(ps: PartialScores) -> Sweep:
    value, neg, pos, _, _ = ps.atoms()
    mn, mp = neg > 0, pos > 0
    nv, wn = value[mn], neg[mn]
    pv, wp = value[mp], pos[mp]
    if ps.rn:
        nv, wn = np.concatenate(([-np.inf], nv)), np.concatenate(([ps.rn], wn))
    if ps.rp:
        pv, wp = np.concatenate(([-np.inf], pv)), np.concatenate(([ps.rp], wp))
    sw = cast(_BoundedSweep, Sweep(nv, pv, assume_sorted=True).reweighted(wn, wp))
    sw.__class__ = _BoundedSweep
    finite = np.isfinite(ps.low)
    sw._low = ps.low if finite else np.inf
    sw._high = ps.high if finite else -np.inf
    return sw


# -------------------------------------------------------------------------- queries
class ExactSweep:
    """The in-memory criteria on partly known scores, with the bins each answer needs.

    Every method returns what :class:`~pandas_biosig._kernels.rates.Sweep` returns on the
    compressed scores and adds to :attr:`needs` the ``lo`` keys of the opaque bins that
    must be resolved before the answer is the exact in-memory one.  An answer given while
    :attr:`needs` is not empty is provisional.
    """

    def __init__(self, scores: PartialScores):
        self.scores = scores
        self.needs: set[int] = set()
        self._version = -1
        self._sw: Sweep | None = None

    # ------------------------------------------------------------------ plumbing
    @property
    def sweep(self) -> Sweep:
        if self._version != self.scores.version:
            self._sw = _compressed_sweep(self.scores)
            self._version = self.scores.version
        assert self._sw is not None  # built on the first read (version -1)
        return self._sw

    @property
    def n(self) -> int:
        return self.scores.n

    @property
    def p(self) -> int:
        return self.scores.p

    def _require(self, *values) -> None:
        """Record the bins of the values that are pseudo-scores (not exactly known)."""
        value, _, _, real, owner = self.scores.atoms()
        for u in values:
            if u is None:
                continue
            u = float(u)
            if not np.isfinite(u):
                continue
            i = int(np.searchsorted(value, u))
            if i < value.size and value[i] == u:
                if not real[i]:
                    self.needs.add(int(self.scores.lo[owner[i]]))
            else:  # not an atom (cannot happen for values read off the sweep)
                b = self.scores.bin_of(u)
                if b >= 0 and self.scores.opaque()[b]:
                    self.needs.add(int(self.scores.lo[b]))

    def _pred(self, u):
        if u is None or not np.isfinite(u):
            return None
        pred = float(self.sweep.predecessor(u))
        return None if np.isnan(pred) else pred

    def _need_bins(self, mask) -> None:
        value, _, _, real, owner = self.scores.atoms()
        for i in np.flatnonzero(mask & ~real):
            self.needs.add(int(self.scores.lo[owner[i]]))

    # ------------------------------------------------------------------ criteria
    def eer_threshold(self) -> tuple[float, OperatingPoint]:
        sw = self.sweep
        u_prev, u_star = sw.eer_bracket()
        self._require(u_star, u_prev, self._pred(u_prev))
        return sw.eer_threshold()

    def eer_interpolated(self) -> float:
        sw = self.sweep
        u_prev, u_star = sw.eer_bracket()
        self._require(u_star, u_prev)
        return sw.eer_interpolated()

    def point_at(self, u: float) -> OperatingPoint:
        self._require(u, self._pred(u))
        return self.sweep.point_at(u)

    def rates_at_threshold(self, threshold):
        """As :meth:`Sweep.rates_at_threshold` (one threshold, or an array of them)."""
        if np.ndim(threshold) == 0:
            one = float(threshold)
            if np.isfinite(one):
                b = self.scores.bin_of(one)
                if b >= 0 and self.scores.opaque()[b]:
                    self.needs.add(int(self.scores.lo[b]))
            return self.sweep.rates_at_threshold(one)
        t = np.asarray(threshold, dtype=np.float64)
        fin = t[np.isfinite(t)]
        if fin.size:
            bins = locate(order_keys(fin), self.scores.lo, self.scores.hi)
            bins = np.unique(bins[bins >= 0])
            for b in bins[self.scores.opaque()[bins]]:
                self.needs.add(int(self.scores.lo[b]))
        return self.sweep.rates_at_threshold(t)

    def min_criterion(self, crit_of) -> tuple[float, OperatingPoint]:
        """``(minimum, point)`` of ``crit_of(far, frr)`` over the operating points (ties:
        the smaller FAR + FRR, then the higher threshold), the bins that could hide a
        smaller value marked as needed (exact once they are read)."""
        sw = self.sweep
        u, fa, fr, *_ = sw.candidates()
        far = fa / sw.n
        frr = fr / sw.p
        crit = crit_of(far, frr)
        best = crit.min()
        idx = np.flatnonzero(crit == best)
        if idx.size > 1:
            sub = (far + frr)[idx]
            idx = idx[sub == sub.min()]
        i = int(idx[-1])
        self._require(u[i], self._pred(u[i]))
        # an opaque bin can hide a candidate only if its lower bound reaches the minimum
        value, neg, pos, real, _ = self.scores.atoms()
        fa_min = np.cumsum(neg[::-1])[::-1] - neg  # impostors strictly above the atom
        fr_min = self.scores.rp + np.cumsum(pos) - pos  # genuines strictly below
        bound = crit_of(fa_min / sw.n, fr_min / sw.p)
        self._need_bins((pos > 0) & (bound <= best))
        op = OperatingPoint(float(sw.threshold_for(u[i])), int(fa[i]), int(fr[i]), sw.n, sw.p)
        return float(best), op

    def min_weighted(self, weight: float) -> OperatingPoint:
        return self.min_criterion(lambda far, frr: weight * far + (1.0 - weight) * frr)[1]

    def min_dcf(self, p_target: float, c_miss: float, c_fa: float):
        return self.min_criterion(
            lambda far, frr: c_miss * p_target * frr + c_fa * (1.0 - p_target) * far
        )

    def fnmr_at_fmr(self, fmr: float) -> OperatingPoint:
        sw = self.sweep
        k = _max_count(fmr, sw.n)
        w_fin = sw.n_finite_neg
        if k < w_fin:
            j = _search(sw._cn, w_fin - k, "left")
            v = float(sw.neg[j - 1])
            nxt = [a[i] for a in (sw.neg, sw.pos) if (i := np.searchsorted(a, v, side="right")) < a.size]
            self._require(v, min(nxt) if nxt else None)
        return sw.fnmr_at_fmr(fmr)

    def fmr_at_fnmr(self, fnmr: float) -> OperatingPoint | None:
        sw = self.sweep
        k = _max_count(fnmr, sw.p)
        if sw.rp <= k:
            j = _search(sw._cp, k - sw.rp, "right") - 1
            if j < sw.pos.size:
                u = float(sw.pos[j])
                self._require(u, self._pred(u))
        return sw.fmr_at_fnmr(fnmr)

    # ------------------------------------------------------------------ ROCCH
    def eer_rocch(self) -> float:
        """EER of the ROC convex hull, from the exact hull vertices around the crossing.

        The hull of the known operating points (every bin edge and every cut between
        resolved values) is computed exactly in integer counts. An opaque bin can only
        hold points inside the box between its two edge points, all of them on or above
        the box's lower-left corner; when every such corner lies strictly above the lines
        of the segments around the FAR = FRR crossing, those segments are segments of the
        true hull and the EER is BOSARIS' value on them.
        """
        ps = self.scores
        value, neg, pos, real, owner = ps.atoms()
        n, p = ps.n, ps.p
        # cut points: accept-all, after the failures to acquire, after each atom
        fa_cut = n - ps.rn - np.concatenate(([0], np.cumsum(neg)))
        fr_cut = ps.rp + np.concatenate(([0], np.cumsum(pos)))
        pts_fa = np.concatenate(([n], fa_cut)).astype(np.int64)
        pts_fr = np.concatenate(([0], fr_cut)).astype(np.int64)
        if _overflows(n, p):
            pts_fa, pts_fr = pts_fa.astype(object), pts_fr.astype(object)
        # corners of the opaque atoms: all their impostors rejected, no genuine yet
        opq = np.flatnonzero(~real)
        c_fa, c_fr = fa_cut[opq + 1], fr_cut[opq]
        # candidate vertices from the float hull (PAV) of the compressed sweep
        P, N = self.sweep.pav_blocks()
        cand_fr = np.concatenate(([0], np.cumsum(P))).astype(np.int64)
        cand_fa = (n - np.concatenate(([0], np.cumsum(N)))).astype(np.int64)
        cand = set(zip(cand_fa.tolist(), cand_fr.tolist(), strict=True))
        while True:  # make the window exact among the known points
            hull = _lower_hull(cand)
            seg = _crossing_window(hull, n, p)
            lines = []
            for a, b in seg:
                (fa_a, fr_a), (fa_b, fr_b) = hull[a], hull[b]
                dfa, dfr = fa_a - fa_b, fr_b - fr_a
                if dfa and dfr:  # axis-aligned segments give 0 and bound nothing
                    lines.append((dfr, dfa, dfr * fa_a + dfa * fr_a))
            below = None
            for dfr, dfa, ref in lines:
                g = dfr * pts_fa + dfa * pts_fr
                k = int(np.argmin(g))
                if g[k] < ref:  # a known point below the line: the float hull missed it
                    below = (int(pts_fa[k]), int(pts_fr[k]))
                    break
            if below is None:
                break
            cand.add(below)
        for dfr, dfa, ref in lines:  # opaque bins whose box reaches a window line
            gc = dfr * c_fa.astype(pts_fa.dtype) + dfa * c_fr.astype(pts_fr.dtype)
            for i in opq[np.asarray(gc <= ref, dtype=bool)]:
                self.needs.add(int(ps.lo[owner[i]]))
        idx = sorted({i for pair in seg for i in pair})
        fa = np.array([hull[i][0] for i in idx], dtype=np.int64)
        fr = np.array([hull[i][1] for i in idx], dtype=np.int64)
        return rocch_eer(fa / n, fr / p)


def _overflows(n: int, p: int) -> bool:
    return 2 * n * p >= 2**62


def _lower_hull(points) -> list[tuple[int, int]]:
    """Strictly convex lower-left hull of integer (fa, fr) points, from (n, 0) towards
    (0, p): vertices sorted by decreasing fa, collinear points dropped."""
    pts = sorted(points, key=lambda q: (-q[0], q[1]))
    hull: list[tuple[int, int]] = []
    for q in pts:
        if hull and hull[-1][0] == q[0]:
            continue  # same fa, higher fr: never on the lower hull
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            # keep a left turn in (fa decreasing, fr increasing) order: convex from below
            cross = (x2 - x1) * (q[1] - y1) - (y2 - y1) * (q[0] - x1)
            if cross >= 0:
                hull.pop()
            else:
                break
        hull.append(q)
    return hull


def _crossing_window(hull, n: int, p: int) -> list[tuple[int, int]]:
    """Segments (pairs of hull indices) whose lines can give the ROCCH-EER: the segment
    crossing FAR = FRR, and the next one when the crossing is at a vertex."""
    d = [fa * p - fr * n for fa, fr in hull]  # n p (FAR - FRR): strictly decreasing
    i = max(j for j, v in enumerate(d) if v > 0)  # d[0] = n p > 0; the last vertex is < 0
    seg = [(i, i + 1)]
    if d[i + 1] == 0 and i + 2 < len(hull):
        seg.append((i + 1, i + 2))
    return seg


# ------------------------------------------------------------------- full sweep
class FullSweep:
    """The statistics that need every score, accumulated batch by batch in score order.

    Feed the distinct finite scores of one group in increasing order (any number of
    batches, each sorted and above the previous one) with their counts per class; the
    result is the in-memory AUC (exact: integer win counts) and the PAV blocks (the exact
    PAV of :mod:`~pandas_biosig._kernels.pav`, the pooled blocks carried between batches:
    the corners of the whole minorant are among the corners of each prefix's), hence
    min Cllr.
    """

    def __init__(self, n: int, p: int, rn: int, rp: int):
        self.n, self.p, self.rn, self.rp = n, p, rn, rp
        self.neg_below = 0  # finite impostor scores below the current batch
        self.wins = 0  # sum over genuine scores of impostors strictly below
        self.ties = 0  # sum over genuine scores of impostors equal
        # PAV state: pooled blocks (P, N) and one pending run-length block
        self._P = np.zeros(0, np.int64)
        self._N = np.zeros(0, np.int64)
        self._pending = (rp, rn) if rp + rn else None

    def feed(self, values, negatives, positives) -> None:
        if values.size == 0:
            return
        neg = np.asarray(negatives, np.int64)
        pos = np.asarray(positives, np.int64)
        below = self.neg_below + np.cumsum(neg) - neg
        self.wins += _exact_dot(pos, below)
        self.ties += _exact_dot(pos, neg)
        self.neg_below += int(neg.sum())
        # run-length blocks: merge consecutive all-genuine or all-impostor values
        npos, nneg = pos, neg
        if self._pending is not None:
            npos = np.concatenate(([self._pending[0]], npos))
            nneg = np.concatenate(([self._pending[1]], nneg))
        npos, nneg = _merge_runs(npos, nneg)
        self._pending = (int(npos[-1]), int(nneg[-1]))
        self._pav(npos[:-1], nneg[:-1])

    def _pav(self, npos, nneg) -> None:
        if npos.size == 0:
            return
        self._P, self._N = pav(np.concatenate((self._P, npos)), np.concatenate((self._N, nneg)))

    def finish(self) -> tuple[np.ndarray, np.ndarray]:
        """The PAV blocks ``(P, N)`` (as :meth:`Sweep.pav_blocks`)."""
        if self._pending is not None:
            self._pav(np.array([self._pending[0]]), np.array([self._pending[1]]))
            self._pending = None
        return self._P, self._N

    def auc(self, n_finite_pos: int) -> float:
        wins = float(self.wins) + 0.5 * float(self.ties)
        wins += float(n_finite_pos) * self.rn + 0.5 * self.rp * self.rn
        return wins / (float(self.n) * float(self.p))

    def min_cllr(self) -> float:
        """Cllr after PAV calibration, with :meth:`Sweep.min_cllr`'s formula."""
        P, N = self.finish()
        sw = object.__new__(Sweep)
        sw.n, sw.p, sw._pav = self.n, self.p, (P, N)
        return Sweep.min_cllr(sw)


def _exact_dot(a: np.ndarray, b: np.ndarray) -> int:
    """Exact integer dot product (int64 when it cannot overflow, Python ints otherwise)."""
    if a.size == 0:
        return 0
    if float(np.max(a)) * float(np.max(b)) * a.size < 2**62:
        return int(np.dot(a, b))
    return sum(int(x) * int(y) for x, y in zip(a.tolist(), b.tolist(), strict=True))


def _merge_runs(npos, nneg):
    kind = np.where(nneg == 0, 1, np.where(npos == 0, 0, -1))
    same = (kind[1:] == kind[:-1]) & (kind[1:] >= 0)
    starts = np.flatnonzero(np.concatenate(([True], ~same)))
    return np.add.reduceat(npos, starts), np.add.reduceat(nneg, starts)


# ------------------------------------------------------------------------ DET grid
def grid_points(ps: PartialScores, step: float):
    """Exact operating points at bin edges, thinned so that FAR and FRR move by at most
    ``step`` between kept points wherever a bin allows it.

    Returns ``(threshold, fa, fr, far_gap, frr_gap)``: thresholds (accept iff ``score >=
    threshold``: the lowest score, then each bin's smallest key value, then the next float
    above the highest score), the exact counts there, and the error bound: the largest FAR
    and FRR differences between consecutive kept points that hide operating points of the
    full-resolution curve between them (consecutive points of the exact curve itself, such
    as the two sides of one tied score, hide none). Every operating point of the
    full-resolution curve lies in the box between two consecutive kept points.
    """
    n, p = ps.n, ps.p
    t = key_values(ps.lo)
    if t.size:
        t[0] = ps.low
    top = np.nextafter(ps.high, np.inf) if np.isfinite(ps.high) else np.inf
    t = np.concatenate((t, [top]))
    fa = n - ps.rn - np.concatenate(([0], np.cumsum(ps.neg)))
    fr = ps.rp + np.concatenate(([0], np.cumsum(ps.pos)))
    far, frr = fa / n, fr / p
    kept = [0]
    for i in range(1, far.size - 1):
        j = kept[-1]
        if far[j] - far[i + 1] > step or frr[i + 1] - frr[j] > step:
            kept.append(i)
    kept.append(far.size - 1)
    keep = np.asarray(sorted(set(kept)))
    single = ps.depth >= 64
    for i, b in enumerate(ps.lo.tolist()):
        if b in ps.known and ps.known[b][0].size == 1:
            single[i] = True
    # kept points i < j hide points unless j = i + 1 and bin i holds a single value
    hides = (np.diff(keep) > 1) | ~single[np.minimum(keep[:-1], single.size - 1)]
    far_gap = float(np.max(-np.diff(far[keep])[hides], initial=0.0))
    frr_gap = float(np.max(np.diff(frr[keep])[hides], initial=0.0))
    return t[keep], fa[keep], fr[keep], far_gap, frr_gap


def coarse_bins(ps: PartialScores, step: float) -> np.ndarray:
    """Bins whose mass exceeds ``step`` in FAR or FRR and that hold more than one value
    (they must be split for the grid DET to reach its bound)."""
    return ((ps.neg / ps.n > step) | (ps.pos / ps.p > step)) & (ps.depth < 64)

