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

__all__ = [
    "LazyPrefix",
    "cluster_counts",
    "lazy_replicate",
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
    new._cn, new._cp = cn, cp
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
