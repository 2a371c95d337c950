"""numpy's sum of a computed array, without the array (numpy only).

``np.add.reduce`` of a contiguous float64 array is ``0.0 +`` a pairwise sum: below 8
elements a plain loop, up to 128 eight partial sums, above that the sum of the two halves
(the first half rounded down to a multiple of 8), recursively. :func:`pairwise_sum` walks
the same tree down to leaves of a few thousand elements, has each leaf's values computed
into a small buffer and summed by numpy, and adds the leaves back up in the tree's order:
the same additions on the same values, so the same bits, while the values are computed in
cache (a few passes over a cache-sized block instead of over a whole array) and never
stored whole.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["pairwise_sum", "repeat_fill", "segment_sums", "softplus_into"]

#: Largest leaf of the tree (elements): every leaf is a node of numpy's own tree.
LEAF = 1 << 14


#: numpy < 2 reduces a contiguous array buffer by buffer (``np.getbufsize()`` values,
#: 8192 by default): a pairwise sum within each buffer, added up one after the other.
_BUFFERED = np.lib.NumpyVersion(np.__version__) < "2.0.0"


def pairwise_sum(fill: Callable[[int, int, np.ndarray], None], size: int,
                 leaf: int = LEAF) -> float:
    """``float(np.add.reduce(x))`` for the ``size`` values that ``fill(lo, hi, out)``
    writes (``x[lo:hi]`` into ``out``), bit for bit (``leaf`` > 128), under numpy 2 (one
    pairwise sum) and numpy 1.26 (one per buffer of ``np.getbufsize()`` values, summed in
    order)."""
    block = np.getbufsize()
    if _BUFFERED and size > block:
        total = 0.0
        for start in range(0, size, block):
            def shifted(lo: int, hi: int, out: np.ndarray, s: int = start) -> None:
                fill(s + lo, s + hi, out)

            total += _pairwise(shifted, min(block, size - start), leaf)
        return total
    return _pairwise(fill, size, leaf)


def _pairwise(fill: Callable[[int, int, np.ndarray], None], size: int, leaf: int) -> float:
    buf = np.empty(min(size, leaf))

    def node(lo: int, m: int) -> float:
        if m <= leaf:
            out = buf[:m]
            fill(lo, lo + m, out)
            return float(np.add.reduce(out))
        half = m // 2
        half -= half % 8
        return node(lo, half) + node(lo + half, m - half)

    return 0.0 + node(0, size) if size else 0.0


def repeat_fill(values: np.ndarray, counts: np.ndarray,
                into: Callable[[np.ndarray, np.ndarray], None]):
    """A ``fill`` for :func:`pairwise_sum` over ``np.repeat(values, counts)``, each
    leaf written by ``into(x, out)``: the expanded values are made leaf by leaf, so a
    count of a billion costs time, not memory."""
    ends = np.cumsum(counts)

    def fill(lo: int, hi: int, out: np.ndarray) -> None:
        a = int(np.searchsorted(ends, lo, side="right"))
        b = int(np.searchsorted(ends, hi - 1, side="right")) + 1
        reps = np.minimum(ends[a:b], hi) - np.maximum(ends[a:b] - counts[a:b], lo)
        into(np.repeat(values[a:b], reps), out)

    return fill


def softplus_into(x: np.ndarray, out: np.ndarray, *, negate: bool = False) -> None:
    """:func:`~pandas_biosig._kernels.rates.softplus` of ``x`` (of ``-x`` with
    ``negate``) into ``out``, with the same operations in the same order."""
    if negate:
        np.negative(x, out=out)
        x = out.copy()
    np.abs(x, out=out)
    np.negative(out, out=out)
    np.exp(out, out=out)
    np.log1p(out, out=out)
    out += np.maximum(x, 0.0)


#: numpy's leaf of eight partial sums (``PW_BLOCKSIZE``).
_BLOCK = 128


def segment_sums(x: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """``np.add.reduce(x[offsets[i]:offsets[i + 1]])`` for every segment ``i``, bit for
    bit, in vectorised passes (``np.add.reduceat`` adds in another order).

    Every segment's tree (see the module docstring) is walked level by level, all
    segments at once: the nodes of one level are split where longer than 128, the leaves
    of every level are summed together, and the levels are added back up from the
    deepest. A leaf adds a zero where it is shorter than the longest; adding ``+0.0``
    changes no sum but the sign of a zero, which the final ``0.0 +`` removes.
    """
    x = np.ascontiguousarray(x, dtype=np.float64)
    offsets = np.asarray(offsets, dtype=np.int64)
    lo, size = offsets[:-1], np.diff(offsets)
    levels = []
    while True:
        split = size > _BLOCK
        levels.append((lo, size, split))
        if not split.any():
            break
        a, m = lo[split], size[split]
        half = m // 2
        half -= half % 8
        lo = np.empty(2 * a.size, dtype=np.int64)
        size = np.empty(2 * a.size, dtype=np.int64)
        lo[0::2], lo[1::2] = a, a + half
        size[0::2], size[1::2] = half, m - half
    below: np.ndarray | None = None
    with np.errstate(over="ignore", invalid="ignore"):  # as numpy's sum: inf, NaN
        for lo, size, split in reversed(levels):
            value = np.empty(lo.size)
            leaf = ~split
            value[leaf] = _leaf_sums(x, lo[leaf], size[leaf])
            if below is not None:
                value[split] = below[0::2] + below[1::2]
            below = value
    assert below is not None  # the levels hold at least the top one
    return 0.0 + below


def _leaf_sums(x: np.ndarray, lo: np.ndarray, size: np.ndarray) -> np.ndarray:
    """numpy's sum of each leaf ``x[lo:lo + size]`` (``size`` <= 128): a plain loop from
    0.0 below 8 elements, else eight partial sums over the whole blocks of eight, added
    pairwise, then the rest one by one. Leaves of one size are summed together, as the
    rows of one gathered array."""
    out = np.zeros(lo.size)
    if lo.size == 0:
        return out
    order = np.argsort(size, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(size, minlength=_BLOCK + 1))))
    for size_m in np.flatnonzero(bounds[1:] > bounds[:-1]):
        m = int(size_m)
        which = order[bounds[m] : bounds[m + 1]]
        if m == 0:
            continue
        rows = np.lib.stride_tricks.sliding_window_view(x, m)[lo[which]]
        if m < 8:
            acc = np.zeros(which.size)
            for j in range(m):
                acc += rows[:, j]
            out[which] = acc
            continue
        whole = m - m % 8
        # the eight partial sums, each added up block after block (a reduction over a
        # middle axis adds its rows one after the other)
        r = np.add.reduce(rows[:, :whole].reshape(which.size, whole // 8, 8), axis=1)
        acc = ((r[:, 0] + r[:, 1]) + (r[:, 2] + r[:, 3])) + ((r[:, 4] + r[:, 5]) + (r[:, 6] + r[:, 7]))
        for j in range(whole, m):
            acc += rows[:, j]
        out[which] = acc
    return out
