"""Pool-adjacent-violators in exact integer arithmetic, for one sequence or many (numpy
only, scipy for a first guess).

The blocks that PAV returns on a sequence of (genuine, impostor) count blocks are the
pieces of the *greatest convex minorant* of its cumulative sum diagram: the points
``(X_k, Y_k)`` = (trials, genuine trials) in the first ``k`` blocks. Pooling the blocks
whose means are equal as well (PAV's ``>=``) leaves the minorant's corners only, a set
that depends on the counts alone. Floating-point PAV (scipy's) decides each pooling on
rounded means: on ten million trials it has been seen to leave two neighbouring blocks
with the same mean (6/7) apart, so its blocks, and every float read off them, can depend
on rounding. This module returns the corners exactly:

1. scipy's PAV gives a first guess (fast, nearly always right); each segment is lifted
   by twice its number so that no block is pooled across segments;
2. the guess is checked with integer cross products: a guessed block whose inner points
   are not all on or above the chord of its ends is taken apart again;
3. rounds then drop, all at once, every remaining point that lies on or above the chord
   of its two neighbours (such a point is never a corner), until none does; the points
   that start and end each segment stay.

When no point moves, every kept point lies strictly below its neighbours' chord (the
polyline is strictly convex) and every dropped point lies on or above it: that polyline
is the minorant, and its corners are unique. ``tests/test_kernels_pav.py`` compares it
with a sequential PAV in exact fractions.
"""

from __future__ import annotations

import numpy as np

__all__ = ["pav_segments"]

#: Below this many trials in a segment the integer cross products cannot overflow.
_EXACT_INT64 = 1 << 31


def isotonic_regression(y, *, weights, increasing=True):
    """scipy's pool-adjacent-violators (:func:`scipy.optimize.isotonic_regression`),
    imported on first use: ``scipy.optimize`` takes long to import."""
    from scipy.optimize import isotonic_regression as scipy_pav

    return scipy_pav(y, weights=weights, increasing=increasing)


def pav_segments(npos: np.ndarray, nneg: np.ndarray,
                 offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """PAV of each segment ``offsets[i]:offsets[i + 1]`` of the count blocks, exactly.

    Parameters
    ----------
    npos, nneg : ndarray of int
        Genuine and impostor counts of each block in increasing score order; every block
        holds at least one trial.
    offsets : ndarray of int
        Where each segment starts, and the end (``offsets[-1] == npos.size``).

    Returns
    -------
    P, N : ndarray of int64
        Genuine and impostor counts of the pooled blocks, segment after segment.
    block_offsets : ndarray of int64
        Where each segment's pooled blocks start in ``P`` and ``N``, and the end.
    """
    npos = np.asarray(npos, dtype=np.int64)
    nneg = np.asarray(nneg, dtype=np.int64)
    offsets = np.asarray(offsets, dtype=np.int64)
    w = npos + nneg
    X = np.concatenate(([0], np.cumsum(w)))
    Y = np.concatenate(([0], np.cumsum(npos)))
    totals = X[offsets[1:]] - X[offsets[:-1]]
    exact = totals.size == 0 or int(totals.max()) < _EXACT_INT64
    if not exact:  # Python integers: slow, but only beyond 2**31 trials in one segment
        X, Y = X.astype(object), Y.astype(object)
    guess = _guess(npos, w, offsets)
    pinned = np.zeros(X.size, dtype=bool)
    pinned[offsets] = True
    kept = pinned.copy()
    kept[guess] = True
    keep = _reopen(X, Y, np.flatnonzero(kept))
    keep = _rounds(X, Y, keep, pinned[keep])
    P = np.diff(Y[keep]).astype(np.int64)
    N = np.diff(X[keep]).astype(np.int64) - P
    return P, N, np.searchsorted(keep, offsets).astype(np.int64)


def _guess(npos, w, offsets) -> np.ndarray:
    """Block starts of scipy's floating-point PAV, every segment lifted above the one
    before it (by twice its number) so that no block spans two segments."""
    if w.size == 0:
        return np.zeros(0, dtype=np.int64)
    y = npos / w
    if offsets.size > 2:
        y += np.repeat(2.0 * np.arange(offsets.size - 1), np.diff(offsets))
    res = isotonic_regression(y, weights=w.astype(np.float64), increasing=True)
    return np.asarray(res.blocks, dtype=np.int64)


def _reopen(X, Y, keep) -> np.ndarray:
    """``keep`` with every point of a guessed block added back where one of its inner
    points lies strictly below the chord of the block's ends."""
    kept = np.zeros(X.size, dtype=bool)
    kept[keep] = True
    inner = np.flatnonzero(~kept)
    if inner.size == 0:
        return keep
    # the block ends around each inner point, repeated along the block
    gaps = np.diff(keep) - 1
    j = np.repeat(np.arange(1, keep.size), gaps)  # the index in ``keep`` of the end after
    xa, ya = np.repeat(X[keep[:-1]], gaps), np.repeat(Y[keep[:-1]], gaps)
    dx = np.repeat(X[keep[1:]] - X[keep[:-1]], gaps)
    dy = np.repeat(Y[keep[1:]] - Y[keep[:-1]], gaps)
    below = (Y[inner] - ya) * dx < dy * (X[inner] - xa)
    if not below.any():
        return keep
    bad = np.zeros(keep.size, dtype=bool)
    bad[j[below]] = True
    kept[inner[bad[j]]] = True
    return np.flatnonzero(kept)


def _rounds(X, Y, keep, pinned) -> np.ndarray:
    """Drop, round after round, every unpinned point on or above the chord of its
    neighbours, until none is."""
    while keep.size > 2:
        x, y = X[keep], Y[keep]
        dx, dy = x[2:] - x[:-2], y[2:] - y[:-2]
        above = (y[1:-1] - y[:-2]) * dx >= dy * (x[1:-1] - x[:-2])
        above &= ~pinned[1:-1]
        if not above.any():
            break
        stay = np.ones(keep.size, dtype=bool)
        stay[1:-1] = ~above
        keep, pinned = keep[stay], pinned[stay]
    return keep
