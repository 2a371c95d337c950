"""The error-rate engine for many groups at once: every group sorted in one call, every
per-group number read in vectorised passes over the groups (numpy only).

Conventions are :mod:`pandas_biosig._kernels.rates`'s (oriented scores, accept iff
``score >= threshold``), for finite scores only: a failure to acquire is not a score
here, its caller counts it apart. A *segment* is one group's trials, given as a slice
``offsets[i]:offsets[i + 1]`` of arrays in group order; each segment holds both classes.
An optional integer ``count`` per trial is a frequency weight: the trial stands for
``count`` identical trials (every count at least 1).

The trials of each segment are sorted by score (:func:`sort_segments`: one ``argsort``
along the rows of a padded two-dimensional array per power-of-two length class, cheaper
than one sort of all scores), then cut into *runs*, the distinct scores of each segment
with their impostor and genuine weights. A run is an operating point: accepting the
scores at or above it gives ``fa`` = the impostor weight at or above, ``fr`` = the
genuine weight below. Every quantity of :class:`~pandas_biosig._kernels.rates.Sweep`
is then a vectorised pass over the runs, with the Sweep's own floating-point operations
in the same order, so each segment's numbers equal the Sweep of its trials to the bit
(``tests/test_segments.py``); the sums of the summaries (Cllr, d') are numpy's own
pairwise sums of each segment (:func:`~pandas_biosig._kernels.sums.segment_sums`), the
hull is the exact PAV of :mod:`~pandas_biosig._kernels.pav` (in ``segment_stats``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

__all__ = ["Points", "Segments", "max_counts", "sort_segments"]


class Points(NamedTuple):
    """One operating point per segment: oriented ``threshold``, counts ``fa`` of ``n``
    impostors and ``fr`` of ``p`` genuines (int64 arrays)."""

    threshold: np.ndarray
    fa: np.ndarray
    fr: np.ndarray
    n: np.ndarray
    p: np.ndarray

    @property
    def far(self) -> np.ndarray:
        return self.fa / self.n

    @property
    def frr(self) -> np.ndarray:
        return self.fr / self.p


def sort_segments(scores: np.ndarray, offsets: np.ndarray, *,
                  values: bool = False) -> np.ndarray:
    """The permutation that sorts every segment of ``scores`` (finite) in place, or
    with ``values`` the sorted values themselves (any real dtype).

    Segments of about the same length (the same power of two) are laid as the rows of
    one array padded with the largest value of the dtype and sorted along the rows:
    each row is sorted in cache, no key combines the group with the score, and the order
    of equal scores, which no result reads, is whatever the sort leaves. Segments of one
    length that follow each other need no padding: their rows are the scores themselves.
    """
    n = scores.size
    lengths = np.diff(offsets)
    out = np.empty(n, dtype=scores.dtype if values else np.int64)
    if n == 0:
        return out
    pad = np.inf if scores.dtype.kind == "f" else np.iinfo(scores.dtype).max
    widths = np.left_shift(1, np.ceil(np.log2(np.maximum(lengths, 1))).astype(np.int64))
    kinds = np.left_shift(1, np.flatnonzero(np.bincount(np.log2(widths).astype(np.int64))))
    for width in kinds:
        segs = np.arange(lengths.size) if kinds.size == 1 else np.flatnonzero(widths == width)
        lens = lengths[segs]
        k, wide = segs.size, int(lens.max())
        lo = int(offsets[segs[0]])
        if int(lens.min()) == wide and int(segs[-1] - segs[0]) == k - 1:
            block = scores[lo : lo + k * wide].reshape(k, wide)
            if values:
                out[lo : lo + k * wide] = np.sort(block, axis=1).ravel()
                continue
            np.add(np.argsort(block, axis=1), (lo + wide * np.arange(k))[:, None],
                   out=out[lo : lo + k * wide].reshape(k, wide))
            continue
        row = np.repeat(np.arange(k), lens)
        col = np.arange(row.size) - np.repeat(np.cumsum(lens) - lens, lens)
        src = offsets[segs][row] + col
        flat = row * wide + col
        buf = np.full(k * wide, pad, dtype=scores.dtype)
        buf[flat] = scores[src]
        if values:
            out[src] = np.sort(buf.reshape(k, wide), axis=1).ravel()[flat]
            continue
        cols = np.argsort(buf.reshape(k, wide), axis=1).ravel()[flat]
        out[src] = (src - col) + cols
    return out


def max_counts(rate: float, total: np.ndarray) -> np.ndarray:
    """The largest integer ``k`` with ``k / total <= rate`` for each total (as
    :func:`~pandas_biosig._kernels.rates._max_count`, the rates computed as they are)."""
    k = np.minimum(np.maximum(np.floor(rate * total).astype(np.int64), 0), total)
    while True:
        up = (k < total) & ((k + 1) / total <= rate)
        if not up.any():
            break
        k = k + up
    while True:
        down = (k > 0) & (k / total > rate)
        if not down.any():
            break
        k = k - down
    return k


class Segments:
    """The trials of many groups, each sorted once, and their runs of equal scores.

    Parameters
    ----------
    scores : ndarray of float64
        Oriented finite scores, in group order.
    genuine : ndarray of bool
        Whether each trial is genuine.
    offsets : ndarray of int
        Where each group starts, and the end; each group holds both classes.
    counts : ndarray of int, optional
        How many identical trials each row stands for (at least 1).
    order : ndarray of int, optional
        A permutation that sorts each segment (default :func:`sort_segments`).
    """

    def __init__(self, scores, genuine, offsets, counts=None, order=None):
        offsets = np.asarray(offsets, dtype=np.int64)
        scores = np.asarray(scores, dtype=np.float64)
        if order is None:
            order = sort_segments(scores, offsets)
        v = scores[order]
        g = np.asarray(genuine, dtype=bool)[order]
        c = None if counts is None else np.asarray(counts, dtype=np.int64)[order]
        self.offsets = offsets
        self.size = offsets.size - 1
        self.values, self.genuine, self.counts = v, g, c
        change = np.ones(v.size, dtype=bool)
        np.not_equal(v[1:], v[:-1], out=change[1:])
        change[offsets[:-1][np.diff(offsets) > 0]] = True
        distinct = bool(change.all())
        starts = np.flatnonzero(change) if not distinct else offsets[:0]
        self.run_offsets: np.ndarray = offsets if distinct else np.searchsorted(starts, offsets)
        self.run_values: np.ndarray = v if distinct else v[starts]
        # cumulative genuine weight (and total weight, None where it is the run's index)
        # at each run's start, and after the last
        cp = np.zeros(v.size + 1, dtype=np.int64)
        np.cumsum(g if c is None else np.where(g, c, 0), out=cp[1:])
        cw = None if c is None else np.concatenate(([0], np.cumsum(c)))
        if not distinct:
            ends = np.append(starts, v.size)
            cp = cp[ends]
            cw = ends if cw is None else cw[ends]
        self._cp, self._cw = cp, cw
        ro = self.run_offsets
        self.n = self._cn_at(ro[1:]) - self._cn_at(ro[:-1])
        self.p = cp[ro[1:]] - cp[ro[:-1]]
        self._cand = None
        self.cache: dict = {}  # per-class arrays and other shared reads (segment_stats)

    def _cn_at(self, run: np.ndarray) -> np.ndarray:
        """The impostor weight before each given run (over all segments)."""
        return (run if self._cw is None else self._cw[run]) - self._cp[run]

    @property
    def _cn(self) -> np.ndarray:
        """The impostor weight before every run, and after the last."""
        return self._cached("cn", lambda: self._cn_at(np.arange(self._cp.size)))

    # ------------------------------------------------------------ per-run arrays, on first use
    def _cached(self, name, make):
        if name not in self.cache:
            self.cache[name] = make()
        return self.cache[name]

    def per_run(self, values: np.ndarray) -> np.ndarray:
        """One value per segment, repeated for each of its runs."""
        return np.repeat(values, np.diff(self.run_offsets))

    @property
    def run_segment(self) -> np.ndarray:
        """The segment of each run."""
        return self._cached("run_segment", lambda: self.per_run(np.arange(self.size)))

    @property
    def run_pos(self) -> np.ndarray:
        """The genuine weight of each run."""
        return self._cached("run_pos", lambda: np.diff(self._cp))

    @property
    def run_neg(self) -> np.ndarray:
        """The impostor weight of each run."""
        return self._cached("run_neg", lambda: np.diff(self._cn))

    @property
    def nb(self) -> np.ndarray:
        """The impostor weight strictly below each run, within its segment."""
        return self._cached("nb", lambda: self._cn[:-1] - self.per_run(
            self._cn[self.run_offsets[:-1]]))

    @property
    def pb(self) -> np.ndarray:
        """The genuine weight strictly below each run, within its segment."""
        return self._cached("pb", lambda: self._cp[:-1] - self.per_run(
            self._cp[self.run_offsets[:-1]]))

    def first_run(self, test: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> np.ndarray:
        """The first run of each segment where ``test(runs, segments)`` holds (one
        past its last run where none does), for a test that, once true along a
        segment's runs, stays true: a binary search of all segments at once, a few
        passes over the segments instead of one over the runs."""
        lo = self.run_offsets[:-1].copy()
        hi = self.run_offsets[1:].copy()
        seg = np.arange(self.size)
        active = seg[lo < hi]
        while active.size:
            a, b = lo[active], hi[active]
            mid = (a + b) // 2
            yes = test(mid, active)
            hi[active] = np.where(yes, mid, b)
            lo[active] = np.where(yes, a, mid + 1)
            active = active[lo[active] < hi[active]]
        return lo

    def fa_fr(self, run: np.ndarray, seg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Counts ``(fa, fr)`` at given runs of given segments."""
        start = self.run_offsets[seg]
        fa = self.n[seg] - (self._cn_at(run) - self._cn_at(start))
        return fa, self._cp[run] - self._cp[start]

    # ------------------------------------------------------------ points
    def threshold_of(self, run: np.ndarray, reject_all: np.ndarray) -> np.ndarray:
        """bob.measure's threshold for the operating point at each ``run`` (a run index
        per segment, ignored where ``reject_all``), as :meth:`Sweep.threshold_for`."""
        seg = np.arange(self.size)
        first = self.run_offsets[:-1]
        r = np.where(reject_all, first, run)
        u = self.run_values[r]
        has = r > first
        pred = np.where(has, self.run_values[np.maximum(r - 1, 0)], np.nan)
        with np.errstate(over="ignore", invalid="ignore"):
            mid = (pred + u) / 2
            bad = ~np.isfinite(mid)
            mid = np.where(bad, pred / 2 + u / 2, mid)
        mid = np.where(mid > pred, mid, u)
        out = np.where(has, mid, u)
        top = np.nextafter(self.run_values[self.run_offsets[1:] - 1], np.inf)
        return np.where(reject_all, top, out) if seg.size else out

    def points(self, run: np.ndarray, reject_all: np.ndarray) -> Points:
        """The operating points at one run per segment (or reject-all)."""
        r = np.where(reject_all, self.run_offsets[:-1], run)
        fa, fr = self.fa_fr(r, np.arange(self.size))
        fa = np.where(reject_all, 0, fa)
        fr = np.where(reject_all, self.p, fr)
        return Points(self.threshold_of(r, reject_all), fa, fr, self.n, self.p)

    def rates_at(self, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Counts ``(fa, fr)`` of each segment at its threshold (accept iff score >=
        threshold); NaN thresholds give meaningless counts, for the caller to mask."""
        t = np.asarray(thresholds, dtype=np.float64)
        ro = self.run_offsets
        # the first run at or above the threshold (a NaN threshold: none)
        r = self.first_run(lambda run, seg: self.run_values[run] >= t[seg])
        none = r == ro[1:]
        r = np.where(none, ro[:-1], r)
        fa, fr = self.fa_fr(r, np.arange(self.size))
        return np.where(none, 0, fa), np.where(none, self.p, fr)

    def rates_on_grid(self, thresholds: np.ndarray, *,
                      cells: int = 1 << 22) -> tuple[np.ndarray, np.ndarray]:
        """Counts ``(fa, fr)`` of every segment at every one of the same thresholds,
        arrays of shape ``(segments, thresholds)``: :meth:`rates_at` of each threshold,
        without a search. Each run is numbered by how many thresholds lie at or below its
        score; the runs of a segment rejected at the ``k``-th smallest threshold are those
        numbered ``k`` or less, so one count of the numbers per segment, summed along
        the thresholds, gives the first run accepted at each (``cells`` (segment,
        threshold) pairs at a time)."""
        t = np.asarray(thresholds, dtype=np.float64)
        order = np.argsort(t, kind="stable")
        width = t.size + 1
        below = np.searchsorted(t[order], self.run_values, side="right")
        ro = self.run_offsets
        fa = np.empty((self.size, t.size), dtype=np.int64)
        fr = np.empty((self.size, t.size), dtype=np.int64)
        step = max(cells // width, 1)
        for a in range(0, self.size, step):
            b = min(a + step, self.size)
            runs = slice(ro[a], ro[b])
            local = (self.run_segment[runs] - a) * width + below[runs]
            rejected = np.bincount(local, minlength=(b - a) * width).reshape(b - a, width)
            run = ro[a:b, None] + np.cumsum(rejected, axis=1)[:, :-1]
            none = run >= ro[a + 1 : b + 1, None]
            run = np.where(none, ro[a:b, None], run)
            seg = np.arange(a, b)
            f_a, f_r = self.fa_fr(run, np.broadcast_to(seg[:, None], run.shape))
            fa[a:b, order] = np.where(none, 0, f_a)
            fr[a:b, order] = np.where(none, self.p[a:b, None], f_r)
        return fa, fr

    # ------------------------------------------------------------ EER
    def eer_points(self) -> tuple[Points, np.ndarray, Points]:
        """``(prev, has_prev, star)``: the operating points around the FAR = FRR
        crossing of each segment (:meth:`Sweep.eer_points`); ``prev`` is meaningless
        where ``has_prev`` is False."""
        def crossed(run, seg):  # FAR - FRR <= 0, as Sweep._d computes it
            fa, fr = self.fa_fr(run, seg)
            return fa / self.n[seg] - fr / self.p[seg] <= 0

        ro = self.run_offsets
        star_run = self.first_run(crossed)
        k = star_run - ro[:-1]
        reject_all = star_run == ro[1:]
        has_prev = k > 0
        star = self.points(star_run, reject_all)
        prev = self.points(np.maximum(star_run - 1, ro[:-1]), np.zeros(self.size, dtype=bool))
        return prev, has_prev, star

    def eer_threshold(self) -> tuple[np.ndarray, Points]:
        """bob.measure's EER of each segment and the operating point it is read at
        (:func:`~pandas_biosig._kernels.rates.threshold_eer`)."""
        prev, has_prev, star = self.eer_points()
        return threshold_eer(prev, has_prev, star)

    def eer_interpolated(self) -> np.ndarray:
        """The interpolated EER of each segment
        (:func:`~pandas_biosig._kernels.rates.interpolated_eer`)."""
        return interpolated_eer(*self.eer_points())

    # ------------------------------------------------------------ criteria
    def candidates(self):
        """Distinct genuine scores plus reject-all, segment after segment:
        ``(run, reject_all, fa, fr, segment, offsets)``."""
        if self._cand is None:
            runs = np.flatnonzero(self.run_pos > 0)
            seg = self.run_segment[runs]
            off = np.searchsorted(runs, self.run_offsets) + np.arange(self.size + 1)
            m = runs.size + self.size
            at = np.arange(runs.size) + seg  # after the reject-alls of earlier segments
            last = off[1:] - 1
            run = np.zeros(m, dtype=np.int64)
            run[at] = runs
            run[last] = self.run_offsets[:-1]
            reject_all = np.zeros(m, dtype=bool)
            reject_all[last] = True
            segment = np.repeat(np.arange(self.size), np.diff(off))
            fa = np.zeros(m, dtype=np.int64)
            fr = self.p[segment].copy()
            fa[at], fr[at] = self.fa_fr(runs, seg)
            self._cand = (run, reject_all, fa, fr, segment, off)
        return self._cand

    def _rates(self):
        run, reject_all, fa, fr, seg, off = self.candidates()
        return fa / self.n[seg], fr / self.p[seg]

    def _argmin(self, crit: np.ndarray, total: np.ndarray) -> Points:
        """The candidate of each segment minimizing ``crit``; ties: smaller ``total``,
        then the highest threshold (:meth:`Sweep._argmin`)."""
        run, reject_all, fa, fr, seg, off = self.candidates()
        low = np.minimum.reduceat(crit, off[:-1])
        hit = crit == low[seg]
        t = np.where(hit, total, np.inf)
        hit &= t == np.minimum.reduceat(t, off[:-1])[seg]
        i = np.maximum.reduceat(np.where(hit, np.arange(crit.size), -1), off[:-1])
        return Points(self.threshold_of(run[i], reject_all[i]), fa[i], fr[i], self.n, self.p)

    def min_weighted(self, weight: float) -> Points:
        """Minimize ``weight*FAR + (1-weight)*FRR`` (:meth:`Sweep.min_weighted`)."""
        far, frr = self._rates()
        return self._argmin(weight * far + (1.0 - weight) * frr, far + frr)

    def min_dcf(self, p_target: float, c_miss: float, c_fa: float) -> tuple[np.ndarray, Points]:
        """Unnormalized minimum DCF and its point (:meth:`Sweep.min_dcf`)."""
        far, frr = self._rates()
        crit = c_miss * p_target * frr + c_fa * (1.0 - p_target) * far
        off = self.candidates()[5]
        return np.minimum.reduceat(crit, off[:-1]), self._argmin(crit, far + frr)

    def min_hter_and_dcf(self, p_target: float, c_miss: float,
                         c_fa: float) -> tuple[Points, np.ndarray]:
        """(:meth:`Sweep.min_hter_and_dcf`)."""
        far, frr = self._rates()
        best = self._argmin(0.5 * far + (1.0 - 0.5) * frr, far + frr)
        dcf = c_miss * p_target * frr + c_fa * (1.0 - p_target) * far
        return best, np.minimum.reduceat(dcf, self.candidates()[5][:-1])

    def fnmr_at_fmr(self, fmr: float) -> Points:
        """The smallest FRR with FAR <= ``fmr`` (:meth:`Sweep.fnmr_at_fmr`)."""
        k = max_counts(fmr, self.n)
        ro = self.run_offsets
        accept_all = k >= self.n
        # the run holding the highest impostor score that must be rejected
        target = self._cn_at(ro[:-1]) + self.n - k
        hold = np.searchsorted(self._cn[1:], target, side="left")
        nxt = np.minimum(hold + 1, ro[1:] - 1)
        reject_all = ~accept_all & (hold + 1 >= ro[1:])
        run = np.where(accept_all, ro[:-1], nxt)
        return self.points(run, reject_all)

    def fmr_at_fnmr(self, fnmr: float) -> Points:
        """The smallest FAR with FRR <= ``fnmr`` (:meth:`Sweep.fmr_at_fnmr`; never
        impossible, no score having failed to acquire)."""
        k = max_counts(fnmr, self.p)
        run, reject_all, fa, fr, seg, off = self.candidates()
        real = ~reject_all
        cand = run[real]
        i = np.searchsorted(self._cp[cand], self._cp[self.run_offsets[:-1]] + k, side="right") - 1
        return self.points(cand[np.maximum(i, 0)], k >= self.p)


def threshold_eer(prev: Points, has_prev: np.ndarray, star: Points) -> tuple[np.ndarray, Points]:
    """:func:`~pandas_biosig._kernels.rates.threshold_eer` of every segment."""
    fb, rb = star.far, star.frr
    fa_, ra = prev.far, prev.frr
    kb1, kb2 = np.abs(fb - rb), fb + rb
    ka1, ka2 = np.abs(fa_ - ra), fa_ + ra
    use = has_prev & ((ka1 < kb1) | ((ka1 == kb1) & (ka2 < kb2)))
    best = Points(*(np.where(use, a, b) for a, b in zip(prev, star, strict=True)))
    return (best.far + best.frr) / 2, best


def interpolated_eer(prev: Points, has_prev: np.ndarray, star: Points) -> np.ndarray:
    """:func:`~pandas_biosig._kernels.rates.interpolated_eer` of every segment."""
    bf, br = star.far, star.frr
    af, ar = prev.far, prev.frr
    d_a = af - ar
    d_b = bf - br
    with np.errstate(divide="ignore", invalid="ignore"):
        t = d_a / (d_a - d_b)
        value = af + t * (bf - af)
    return np.where(has_prev, value, (bf + br) / 2)
