"""The ROC convex hull's EER from a window of the ROC around the crossing (numpy only).

Conventions are those of :mod:`pandas_biosig._kernels.rates`. The ROCCH-EER is the largest
value :func:`rocch_eer` finds over the hull's segments, and that largest value belongs to
the segment that crosses FAR = FRR (every other segment's line meets the diagonal closer to
the origin, the hull being convex). So only that segment is needed, not the whole hull:

1. the ROC points whose thresholds lie in a window around the threshold-EER crossing (a few
   thousand distinct genuine scores, their impostor counts found by binary search) are
   pooled exactly as :meth:`Sweep.pav_blocks` pools all of them (:func:`pool`), which gives
   the window's own hull;
2. the segment of that hull that crosses the diagonal (both segments when a vertex lies on
   it) is checked against *every* ROC point: if none lies below the segment's line and none
   outside the window lies on it, the segment is an edge of the full hull, with the same
   end points, so the window's largest value is the full hull's, bit for bit;
3. otherwise the window grows; past the last size the caller pools everything.

Step 2 does not look at every point one by one: the genuine scores are cut into blocks, and
a block whose best corner (its lowest false rejections with its lowest false acceptances)
already lies beyond the line is cleared without a search; only the few blocks next to the
line are searched point by point.
"""

from __future__ import annotations

import numpy as np

from .pav import pav_segments

__all__ = ["alternations", "distinct_alternations", "pav", "pool", "rocch_eer", "window_eer"]

#: Half-widths (in genuine scores) of the windows tried before pooling everything.
WINDOWS = (512, 4096, 65536)
#: Genuine scores per block of the global check.
_BLOCK = 1024
#: Below this many genuine scores the whole hull is cheaper than a window.
MIN_GENUINE = 4 * WINDOWS[0]


def pool(npos: np.ndarray, nneg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pool-adjacent-violators on a sequence of (genuine, impostor) count blocks in
    increasing score order: the blocks ``(P, N)`` of its convex minorant.

    Empty blocks are dropped and runs of all-genuine or all-impostor blocks merged first
    (PAV never separates them), so the sequence shrinks to the label alternations.
    """
    return pav(*alternations(npos, nneg))


def alternations(npos: np.ndarray, nneg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The blocks of :func:`pool` before pooling: no empty block, no two neighbours both
    all-genuine or both all-impostor."""
    keep = (npos + nneg) > 0
    npos, nneg = npos[keep], nneg[keep]
    kind = np.where(nneg == 0, 1, np.where(npos == 0, 0, -1))
    same = (kind[1:] == kind[:-1]) & (kind[1:] >= 0)
    starts = np.flatnonzero(np.concatenate(([True], ~same)))
    return np.add.reduceat(npos, starts), np.add.reduceat(nneg, starts)


def pav(npos: np.ndarray, nneg: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pool-adjacent-violators on count blocks (each holding a trial), in exact
    arithmetic (:func:`~pandas_biosig._kernels.pav.pav_segments`): the corners of the
    greatest convex minorant, blocks of equal means pooled."""
    P, N, _ = pav_segments(npos, nneg, np.array([0, np.size(npos)]))
    return P, N


def distinct_alternations(starts: np.ndarray, nb: np.ndarray, a: int,
                          b: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`alternations` of the label sequence when no score is shared by the two
    classes and none failed to acquire: genuine values with the same number ``nb`` of
    impostor scores below them form one all-genuine block, and the impostor runs between
    those blocks are the steps of ``nb``.

    ``starts`` indexes the first genuine score of each distinct genuine value (of ``b``),
    ``nb`` the impostor scores below each (of ``a``).
    """
    first = np.flatnonzero(np.concatenate(([True], nb[1:] != nb[:-1])))
    below = nb[first]
    npos = np.zeros(2 * first.size + 1, dtype=np.int64)
    nneg = np.zeros(2 * first.size + 1, dtype=np.int64)
    npos[1::2] = np.diff(np.append(starts[first], b))
    nneg[0] = below[0]
    nneg[2:-1:2] = np.diff(below)
    nneg[-1] = a - below[-1]
    lo = 0 if below[0] else 1
    hi = nneg.size if nneg[-1] else nneg.size - 1
    return npos[lo:hi], nneg[lo:hi]


def rocch_eer(pfa: np.ndarray, pmiss: np.ndarray) -> float:
    """EER of a ROC convex hull given by its vertices (BOSARIS ``rocch2eer``).

    For each hull segment, the intersection of its line with FAR = FRR; horizontal and
    vertical segments contribute 0; the EER is the largest value.
    """
    x1, x2 = pfa[:-1], pfa[1:]
    y1, y2 = pmiss[:-1], pmiss[1:]
    dx = x1 - x2
    dy = y1 - y2
    det = x1 * y2 - x2 * y1
    denom = (y2 - y1) + (x1 - x2)
    with np.errstate(divide="ignore", invalid="ignore"):
        seg = np.where((dx == 0) | (dy == 0) | (denom == 0), 0.0, det / denom)
    seg = np.where(np.isfinite(seg), seg, 0.0)
    return float(max(seg.max(initial=0.0), 0.0))


def window_eer(neg: np.ndarray, pos: np.ndarray, rn: int, rp: int, u_star: float,
               windows=WINDOWS) -> float | None:
    """:func:`rocch_eer` of the full hull of the sorted finite scores ``neg`` / ``pos``
    (``rn`` / ``rp`` failures to acquire below them), from windows of the ROC around the
    distinct score ``u_star`` (the threshold-EER crossing); None when no window can be
    proven to hold the crossing segment (then pool everything)."""
    a, b = neg.size, pos.size
    n, p = a + rn, b + rp
    if b == 0 or a == 0 or 2 * n * p >= 2**62:  # the integer geometry below must fit
        return None
    centre = int(np.searchsorted(pos, u_star, side="left"))
    for half in windows:
        j0 = int(np.searchsorted(pos, pos[max(0, centre - half)], side="left"))
        j1 = int(np.searchsorted(pos, pos[min(b, centre + half) - 1], side="right"))
        fa, fr = _window_hull(neg, pos, rp, j0, j1)
        d = fa * p - fr * n  # > 0 where FAR > FRR; decreases along the hull
        if d[0] <= 0 or d[-1] >= 0:
            continue
        k = int(np.searchsorted(-d, 0, side="left"))  # the first vertex with FAR <= FRR
        segments = [k - 1] if d[k] != 0 else [k - 1, k]
        if all(_supports(neg, pos, rn, rp, fa[i], fr[i], fa[i + 1], fr[i + 1], j0, j1)
               for i in segments):
            return rocch_eer(fa / n, fr / p)
    return None


def _window_hull(neg, pos, rp, j0, j1):
    """Integer vertices ``(fa, fr)`` of the hull of the ROC points from the one at
    ``pos[j0]`` to the one at ``pos[j1]`` (accept the scores at or above each; reject-all
    when ``j1`` is past the last genuine score)."""
    a = neg.size
    vals = pos[j0:j1]
    first = np.flatnonzero(np.concatenate(([True], vals[1:] != vals[:-1])))
    pv = vals[first]
    pc = np.diff(np.append(first, vals.size))
    nb = np.searchsorted(neg, pv, side="left")
    nle = nb.copy()
    hit = neg[np.minimum(nb, a - 1)] == pv
    nle[hit] = np.searchsorted(neg, pv[hit], side="right")
    nb_end = int(np.searchsorted(neg, pos[j1], side="left")) if j1 < pos.size else a
    m = pv.size
    npos = np.zeros(2 * m, dtype=np.int64)
    nneg = np.zeros(2 * m, dtype=np.int64)
    npos[0::2] = pc
    nneg[0::2] = nle - nb
    nneg[1:-1:2] = nb[1:] - nle[:-1]
    nneg[-1] = nb_end - nle[-1]
    P, N = pool(npos, nneg)
    fr = np.concatenate(([0], np.cumsum(P))) + (rp + j0)
    fa = (a - int(nb[0])) - np.concatenate(([0], np.cumsum(N)))
    return fa, fr


def _supports(neg, pos, rn, rp, fa1, fr1, fa2, fr2, j0, j1) -> bool:
    """Whether every ROC point lies on or beyond the line through ``(fa1, fr1)`` and
    ``(fa2, fr2)`` (a hull segment, ``fa1 > fa2``, ``fr1 < fr2``), and every point outside
    the window ``pos[j0]`` .. ``pos[j1]`` strictly beyond it.

    The points that can lie lowest are the corners before each genuine score (accept the
    scores at or above it: ``fa = a - #neg below``, ``fr = rp + #pos below``), the point
    that accepts every trial including the failures to acquire ``(n, 0)`` and reject-all
    ``(0, p)``; the staircase's other points each lie beyond one of these.
    """
    alpha, beta = int(fr2 - fr1), int(fa1 - fa2)
    if alpha <= 0 or beta <= 0:  # an axis-parallel crossing: pool everything
        return False
    a, b = neg.size, pos.size
    n, p = a + rn, b + rp
    c = alpha * int(fa1) + beta * int(fr1)
    if alpha * n <= c:  # (n, 0), never a point of the window
        return False
    if beta * p < c or (beta * p == c and j1 < b):  # (0, p), in the window when j1 = b
        return False
    starts = np.arange(0, b, _BLOCK)
    # impostors below the first genuine score of the next block bound each block's count
    nb_next = np.append(np.searchsorted(neg, pos[starts[1:]], side="left"), a)
    lower = alpha * (a - nb_next) + beta * (rp + starts)
    near = np.flatnonzero(lower <= c)  # the blocks that may reach the line: every point
    j = (starts[near, None] + np.arange(_BLOCK)).ravel()
    j = j[j < b]
    resid = alpha * (a - np.searchsorted(neg, pos[j], side="left")) + beta * (rp + j) - c
    outside = (j < j0) | (j > j1)
    return not ((resid < 0).any() or ((resid == 0) & outside).any())
