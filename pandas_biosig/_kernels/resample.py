"""The resampling engine (numpy only): bootstrap replicates without re-sorting.

Two ways to draw a replicate of the scores of one system, both exact (they give the same
distribution as drawing the trials with replacement and sorting them again):

- **multiplicities** over the sorted scores (:func:`stratified_counts`,
  :func:`cluster_counts`), fed to :meth:`Sweep.reweighted`: O(n) per replicate, works for
  every metric and for paired resampling across systems (the same trial multiplicities are
  mapped to each system's sorted order through a permutation computed once);
- **lazy prefix counts** (:class:`LazyPrefix`) for the metrics that look only at a few
  thresholds (EER by bisection, FNMR at a FMR bound, rates at a fixed threshold): the
  number of resampled scores below a position ``k`` is drawn only when the metric asks for
  it, by splitting a known count binomially between the two nearest known positions. A
  replicate then costs O(log n) binomial draws instead of O(n).
"""

from __future__ import annotations

from bisect import bisect_left

import numpy as np

from .rates import Sweep
from .rocch import pav, rocch_eer

__all__ = [
    "HullReplicates",
    "LazyPrefix",
    "PairSums",
    "acceleration",
    "bca_interval",
    "cluster_counts",
    "lazy_replicate",
    "people_weights",
    "percentile_interval",
    "stratified_counts",
    "uniform_counts",
]


def uniform_counts(rng: np.random.Generator, size: int, draws: int | None = None) -> np.ndarray:
    """Multiplicities of ``size`` items drawn ``draws`` (default ``size``) times with
    replacement: one bootstrap replicate of a class, as counts over its items."""
    if size == 0:
        return np.zeros(0, dtype=np.int64)
    draws = size if draws is None else draws
    return np.bincount(rng.integers(0, size, size=draws), minlength=size)


def stratified_counts(rng: np.random.Generator, strata: np.ndarray, n_strata: int) -> np.ndarray:
    """Multiplicities of items resampled with replacement within each stratum (so every
    stratum keeps its size). ``strata`` holds a code in ``0..n_strata-1`` per item."""
    out = np.empty(strata.size, dtype=np.int64)
    for s in range(n_strata):
        idx = np.flatnonzero(strata == s)
        out[idx] = uniform_counts(rng, idx.size)
    return out


def cluster_counts(rng: np.random.Generator, clusters: np.ndarray, n_clusters: int) -> np.ndarray:
    """Multiplicities of items when whole clusters (subjects) are resampled with
    replacement: every item gets the multiplicity of its cluster."""
    return uniform_counts(rng, n_clusters)[clusters]


def people_weights(mult: np.ndarray, probe: np.ndarray, reference: np.ndarray | None = None,
                   genuine: np.ndarray | None = None) -> np.ndarray:
    """Multiplicities of trials from the multiplicities ``mult`` of people (last axis; any
    leading axes, e.g. replicates): a trial weighs its probe's, and with ``reference`` an
    impostor trial (``~genuine``) the product of its probe's and its reference's.

    This is the pigeonhole bootstrap (Owen 2007) with one set of people in both roles,
    the product weights of Owen & Eckles (2012): a replicate draws the people once, each
    with its multiplicity, and an impostor trial appears as often as the draws of its two
    people pair up. A genuine trial compares a person with themself and weighs that
    person's multiplicity, as under the subject bootstrap.
    """
    w = mult[..., probe]
    if reference is None:
        return w
    other = mult[..., reference]
    if genuine is not None:
        other = np.where(genuine, 1, other)
    return w * other


class PairSums:
    """Per-replicate sums over the cells of a two-way table, without the cells' weights.

    A cell ``c`` pairs a probe person ``probe[c]`` with a reference person
    ``reference[c]`` (for a genuine cell, ``reference=None``: the probe alone) and holds
    ``values[c]`` (one column per quantity: errors, trials). Under multiplicities ``M`` of
    the people (one row per replicate) its weight is ``M[probe] * M[reference]``
    (:func:`people_weights`), so each quantity's sum is the bilinear form
    :math:`m_p^\top V m_r`, ``V`` the probes × references matrix of the values: a
    matrix product (dense where the cells fill at least a quarter of it, else sparse)
    instead of a replicates × cells array of weights. With integer multiplicities and
    values every partial sum is an integer, exact in floating point below 2**53, so the
    sums equal those of :func:`people_weights` to the bit.
    """

    def __init__(self, probe: np.ndarray, reference: np.ndarray | None, values: np.ndarray):
        values = np.asarray(values, dtype=np.float64).reshape(len(probe), -1)
        self.probes, pi = np.unique(probe, return_inverse=True)
        if reference is None:  # the probe's multiplicity alone: per-person sums
            self.refs = None
            self.matrices = [np.bincount(pi.reshape(-1), weights=v, minlength=self.probes.size)
                             for v in values.T]
            return
        self.refs, ri = np.unique(reference, return_inverse=True)
        self.matrices = [_matrix(v, pi.reshape(-1), ri.reshape(-1),
                                 (self.probes.size, self.refs.size)) for v in values.T]

    def __call__(self, mult: np.ndarray) -> list[np.ndarray]:
        """Each quantity's sum under every row of ``mult`` (replicates × people)."""
        mp = np.ascontiguousarray(mult[:, self.probes])
        if self.refs is None:
            return [mp @ v for v in self.matrices]
        mr = mult[:, self.refs]
        return [np.einsum("ij,ij->i", np.asarray(mp @ v), mr) for v in self.matrices]


def _matrix(v: np.ndarray, rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int]):
    """The matrix of the values ``v`` at ``(rows, cols)`` (repeated cells summed): dense
    where its nonzero cells fill at least a quarter of it, else sparse (CSR)."""
    nonzero = v != 0
    if shape[0] * shape[1] <= 4 * int(np.count_nonzero(nonzero)) + 64:
        return np.bincount(rows * shape[1] + cols, weights=v,
                           minlength=shape[0] * shape[1]).reshape(shape)
    from scipy.sparse import csr_array

    return csr_array((v[nonzero], (rows[nonzero], cols[nonzero])), shape=shape)


class LazyPrefix:
    """Prefix counts of one multinomial bootstrap draw, sampled on demand.

    ``self[k]`` is the number of the ``total`` draws (uniform over ``size`` sorted
    positions) that fall at positions ``< offset + k``, minus those below ``offset``;
    ``self[-1]`` is the count above ``offset``. Each new position splits the count between
    its known neighbours binomially, so any set of queries is consistent with one
    multinomial sample.
    """

    def __init__(self, rng: np.random.Generator, size: int, offset: int = 0):
        self._rng = rng
        self._size = size
        self._keys = [0, size]
        self._vals = [0, size]
        self._offset = offset
        self._base = self._count(offset)
        self.total = size - self._base

    def _count(self, k: int) -> int:
        k = int(k)
        i = bisect_left(self._keys, k)
        if self._keys[i] == k:
            return self._vals[i]
        k0, k1 = self._keys[i - 1], self._keys[i]
        c0, c1 = self._vals[i - 1], self._vals[i]
        c = c0 + int(self._rng.binomial(c1 - c0, (k - k0) / (k1 - k0))) if c1 > c0 else c0
        self._keys.insert(i, k)
        self._vals.insert(i, c)
        return c

    def __getitem__(self, idx):
        if np.ndim(idx):
            return np.array([self[int(i)] for i in np.ravel(idx)]).reshape(np.shape(idx))
        idx = int(idx)
        if idx < 0:
            return self.total
        return self._count(self._offset + idx) - self._base

    def searchsorted(self, value: int, side: str = "left") -> int:
        """The smallest ``j`` with ``self[j] >= value`` (``side="left"``) or ``> value``."""
        lo, hi = 0, self._size - self._offset
        while lo < hi:
            mid = (lo + hi) // 2
            c = self[mid]
            if c >= value if side == "left" else c > value:
                hi = mid
            else:
                lo = mid + 1
        if lo == self._size - self._offset:
            c = self[lo]
            if not (c >= value if side == "left" else c > value):
                return lo + 1
        return lo


def lazy_replicate(sweep: Sweep, rng: np.random.Generator) -> Sweep:
    """A label-stratified bootstrap replicate of ``sweep`` whose counts are drawn lazily.

    Valid for the bisection-based metrics (``eer_threshold``, ``eer_interpolated``,
    ``fnmr_at_fmr``, ``fmr_at_fnmr``, ``rates_at_threshold``); the candidate-based ones
    (hull, AUC, minDCF, Cllr) need :meth:`Sweep.reweighted`.
    """
    new = object.__new__(Sweep)
    new.neg, new.pos = sweep.neg, sweep.pos
    cn = LazyPrefix(rng, sweep.n, offset=sweep.rn)
    cp = LazyPrefix(rng, sweep.p, offset=sweep.rp)
    # the prefix counts stand in for the cumulative arrays (read by index and searchsorted)
    new._cn, new._cp = cn, cp  # type: ignore[assignment]
    new.rn = cn._base
    new.rp = cp._base
    new.n, new.p = sweep.n, sweep.p
    new._positions = new._cand = new._pav = new._soft = None
    return new


def percentile_interval(values: np.ndarray, confidence_level: float, axis: int = 0):
    """Percentile bootstrap interval along ``axis`` (NaN replicates ignored)."""
    alpha = 1 - confidence_level
    low, high = np.nanquantile(values, [alpha / 2, 1 - alpha / 2], axis=axis)
    return low, high


def acceleration(jackknife: np.ndarray) -> float:
    r"""BCa acceleration from jackknife values :math:`\theta_{(i)}` (NaN ignored):
    :math:`a = \sum d_i^3 / (6 (\sum d_i^2)^{3/2})`, :math:`d_i = \bar\theta_{(\cdot)} -
    \theta_{(i)}` (Efron 1987, eq. 6.6); 0 when the values do not vary."""
    j = np.asarray(jackknife, dtype=np.float64)
    j = j[np.isfinite(j)]
    if j.size < 3:
        return 0.0
    d = j.mean() - j
    ss = float(np.dot(d, d))
    return float(np.sum(d**3) / (6.0 * ss**1.5)) if ss > 0 else 0.0


def bca_interval(values: np.ndarray, estimate: float, accel: float,
                 confidence_level: float) -> tuple[float, float]:
    r"""Bias-corrected and accelerated percentile interval (Efron 1987).

    :math:`z_0 = \Phi^{-1}(\#\{\theta^* < \hat\theta\} + \tfrac12 \#\{\theta^* =
    \hat\theta\}) / B)` (ties counted half, so a discrete statistic is not biased by
    its own atoms), and the interval is the replicates' quantiles at
    :math:`\Phi(z_0 + (z_0 + z_\alpha)/(1 - a (z_0 + z_\alpha)))` for
    :math:`z_\alpha = \Phi^{-1}((1 \mp \delta)/2)`. NaN replicates are ignored.
    """
    from scipy.special import ndtr, ndtri

    v = np.asarray(values, dtype=np.float64)
    v = v[np.isfinite(v)]
    b = v.size
    if b == 0 or not np.isfinite(estimate):
        return float("nan"), float("nan")
    share: float = (np.count_nonzero(v < estimate) + 0.5 * np.count_nonzero(v == estimate)) / b
    share = min(max(share, 0.5 / b), 1 - 0.5 / b)
    z0 = float(ndtri(share))
    za = ndtri(np.array([(1 - confidence_level) / 2, (1 + confidence_level) / 2]))
    with np.errstate(divide="ignore", invalid="ignore"):
        levels = ndtr(z0 + (z0 + za) / (1 - accel * (z0 + za)))
    levels = np.clip(np.nan_to_num(levels, nan=0.5), 0.0, 1.0)
    low, high = np.quantile(v, levels)
    return float(low), float(high)


class HullReplicates:
    """ROC-convex-hull EER of label-stratified bootstrap replicates, drawn lazily.

    A replicate's hull EER needs its hull only where the hull crosses FAR = FRR. The
    merged sorted scores are cut into intervals (every score its own interval in a small
    window around the crossing, intervals doubling in size away from it); a replicate
    first draws how many resampled scores of each class fall in each interval (one
    multinomial per class). Every cut is then a known operating point of the replicate,
    and the hull of the known points is found by PAV over the intervals (an interval with
    both classes acts as one tied block, so only its edge points count).

    An interval that holds several distinct scores hides points inside the box between its
    edge points, all on or above its lower-left corner (all its impostors rejected, none of
    its genuines yet). While some corner lies below the line of the known hull's segment at
    the crossing (or of the next segment, when the crossing is a vertex), those intervals
    are cut in eight and their counts split binomially, as :class:`LazyPrefix` does. When
    no corner is below, the segment is one of the replicate's true hull and the EER is read
    off it. A replicate has exactly the distribution of resampling each class with
    replacement and sorting again; it costs a few hundred binomial draws instead of O(n).
    """

    _PARTS = 8

    def __init__(self, sweep: Sweep, *, window: int = 32):
        self.sweep = sweep
        neg, pos = sweep.neg, sweep.pos
        merged = np.sort(np.concatenate((neg, pos)))
        m = merged.size
        self._m = m
        # finite impostor scores in each merged prefix (accepting merged[k:])
        self._nb = np.searchsorted(neg, np.append(merged, np.inf), side="left")
        run = np.concatenate(([True], merged[1:] != merged[:-1])) if m else np.zeros(0, bool)
        self._starts = np.append(np.flatnonzero(run), m)  # valid cuts: ties stay whole
        self._distinct = np.concatenate(([0], np.cumsum(run)))  # distinct values per prefix
        _, u_star = sweep.eer_bracket() if m else (None, np.inf)
        c = int(np.searchsorted(merged, u_star, side="left"))
        steps = 1 << np.arange(63)
        lo, hi = max(0, c - window), min(m, c + window)
        cut = np.concatenate(([0, m], np.arange(lo, hi + 1), lo - steps[steps <= lo],
                              hi + steps[steps <= m - hi]))
        self._skeleton = self._snap(np.unique(cut))
        kn = self._nb[self._skeleton]
        kp = self._skeleton - kn
        self._pn = np.concatenate(([sweep.rn], np.diff(kn))) / sweep.n
        self._pp = np.concatenate(([sweep.rp], np.diff(kp))) / sweep.p
        self._exact = 2 * sweep.n * sweep.p < 2**62  # integer line tests cannot overflow

    def _snap(self, k: np.ndarray) -> np.ndarray:
        """The run starts at or after positions ``k``, without duplicates."""
        return np.unique(self._starts[np.searchsorted(self._starts, k)])

    def draw(self, rng: np.random.Generator) -> float:
        """The hull EER of one replicate."""
        sw = self.sweep
        cn = rng.multinomial(sw.n, self._pn)
        cp = rng.multinomial(sw.p, self._pp)
        K = self._skeleton
        CN = np.concatenate(([0], np.cumsum(cn[1:])))
        CP = np.concatenate(([0], np.cumsum(cp[1:])))
        rn, rp = int(cn[0]), int(cp[0])
        if not self._exact:  # pragma: no cover - beyond 2**31 trials per class
            return self._full(rng, K, CN, CP, rn, rp)
        while True:
            value, flagged = self._step(K, CN, CP, rn, rp)
            if value is not None:
                return value
            K, CN, CP = self._split(rng, K, CN, CP, flagged)

    def _step(self, K, CN, CP, rn, rp):
        n, p = self.sweep.n, self.sweep.p
        dn, dp = np.diff(CN), np.diff(CP)
        nneg = np.concatenate(([rn], dn))
        npos = np.concatenate(([rp], dp))
        w = npos + nneg
        keep = w > 0
        P, N = pav(npos[keep], nneg[keep])
        fr = np.concatenate(([0], np.cumsum(P)))
        fa = n - np.concatenate(([0], np.cumsum(N)))
        d = fa * p - fr * n  # strictly decreasing along the hull
        i = int(np.flatnonzero(d > 0)[-1])
        segs = [(i, i + 1)]
        if d[i + 1] == 0 and i + 2 < d.size:
            segs.append((i + 1, i + 2))
        D = self._distinct[K]
        opq = np.flatnonzero((np.diff(D) > 1) & (dn > 0) & (dp > 0))
        flagged = np.zeros(0, dtype=np.intp)
        if opq.size:
            c_fa = n - rn - CN[opq + 1]
            c_fr = rp + CP[opq]
            below = np.zeros(opq.size, dtype=bool)
            for a, b in segs:
                dfa, dfr = int(fa[a] - fa[b]), int(fr[b] - fr[a])
                if dfa and dfr:
                    below |= dfr * c_fa + dfa * c_fr < dfr * int(fa[a]) + dfa * int(fr[a])
            flagged = opq[below]
        if flagged.size:
            return None, flagged
        return rocch_eer(fa / n, fr / p), flagged

    def _split(self, rng, K, CN, CP, flagged):
        """Cut each flagged interval in up to eight, drawing the counts of the parts."""
        k1, k2 = K[flagged], K[flagged + 1]
        j = np.arange(1, self._PARTS)
        target = k1[:, None] + ((k2 - k1)[:, None] * j) // self._PARTS
        T = self._starts[np.searchsorted(self._starts, target)]
        T = np.minimum(np.maximum(T, k1[:, None]), k2[:, None])  # inside, non-decreasing
        nb = self._nb
        new_cn = _split_counts(rng, CN[flagged], CN[flagged + 1], nb[k1], nb[k2], nb[T])
        new_cp = _split_counts(rng, CP[flagged], CP[flagged + 1], k1 - nb[k1], k2 - nb[k2],
                               T - nb[T])
        K2 = np.concatenate((K, T.ravel()))
        order = np.argsort(K2, kind="stable")
        K2 = K2[order]
        first = np.concatenate(([True], K2[1:] != K2[:-1]))
        CN2 = np.concatenate((CN, new_cn.ravel()))[order]
        CP2 = np.concatenate((CP, new_cp.ravel()))[order]
        return K2[first], CN2[first], CP2[first]

    def _full(self, rng, K, CN, CP, rn, rp) -> float:
        """Multiplicities of every score, given the counts at the cuts, and the hull EER."""
        sw = self.sweep
        kn = self._nb[K]
        kp = K - kn
        weights = []
        for counts, k, fta, r, size in ((CN, kn, sw.rn, rn, sw.neg.size),
                                        (CP, kp, sw.rp, rp, sw.pos.size)):
            inner = np.diff(counts)
            at = np.repeat(k[:-1], inner) + rng.integers(0, np.repeat(np.diff(k), inner))
            w = np.zeros(fta + size, dtype=np.int64)
            if fta:
                w[0] = r  # failures to acquire are all alike
            w[fta:] = np.bincount(at, minlength=size)
            weights.append(w)
        return sw.reweighted(*weights).eer_rocch()


def _split_counts(rng, c_lo, c_hi, s_lo, s_hi, s_mid):
    """Counts at interior positions of intervals, given the counts at their ends: the
    draws in each interval (``c_hi - c_lo``) spread uniformly over its items, one
    multinomial per interval over its parts. ``s_*`` are item positions (``s_mid``
    non-decreasing along each row, between ``s_lo`` and ``s_hi``)."""
    bounds = np.column_stack((s_lo, s_mid, s_hi))
    parts = np.diff(bounds, axis=1).astype(np.float64)
    parts /= np.maximum(bounds[:, -1] - bounds[:, 0], 1)[:, None]
    parts[:, -1] = np.maximum(1.0 - parts[:, :-1].sum(axis=1), 0.0)
    draws = rng.multinomial(c_hi - c_lo, parts)
    return c_lo[:, None] + np.cumsum(draws[:, :-1], axis=1)


def cell_draws(rng: np.random.Generator, sizes: np.ndarray, n_resamples: int) -> np.ndarray:
    """Multinomial replicates of cell counts, column by column.

    ``sizes`` is a ``(cells, columns)`` array of trial counts: the trials of each column
    fall in its cells (the same total in every column). A replicate draws that many trials
    with replacement and counts them per cell: for each column, a multinomial over its
    cells, drawn as a chain of binomials vectorized over replicates and columns. When a
    statistic reads one column only (a rate at one fixed threshold), this has exactly the
    distribution of drawing the trials themselves; columns are drawn independently.

    Returns an ``(n_resamples, cells, columns)`` array of counts.
    """
    sizes = np.asarray(sizes, dtype=np.int64)
    cells, cols = sizes.shape
    out = np.empty((n_resamples, cells, cols), dtype=np.int64)
    left = np.full((n_resamples, cols), int(sizes[:, 0].sum()) if cols else 0, dtype=np.int64)
    rest = sizes.sum(axis=0)
    for c in range(cells - 1):
        prob = np.where(rest > 0, sizes[c] / np.maximum(rest, 1), 0.0)
        x = rng.binomial(left, prob)
        out[:, c] = x
        left -= x
        rest = rest - sizes[c]
    out[:, cells - 1] = left
    return out
