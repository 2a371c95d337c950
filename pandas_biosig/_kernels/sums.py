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

__all__ = ["pairwise_sum", "softplus_into"]

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
