"""Exact PAV: the corners of the greatest convex minorant, one sequence or many segments,
against a sequential PAV in exact fractions."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pandas_biosig._kernels.pav import pav_segments
from pandas_biosig._kernels.rocch import pav


def _pav_fractions(npos, nneg):
    """Textbook PAV with a stack, means compared as fractions, equal means pooled."""
    stack = []  # [P, N]
    for p, n in zip(npos, nneg, strict=True):
        stack.append([int(p), int(n)])
        while len(stack) > 1:
            (p1, n1), (p2, n2) = stack[-2], stack[-1]
            if Fraction(p1, p1 + n1) >= Fraction(p2, p2 + n2):
                stack[-2:] = [[p1 + p2, n1 + n2]]
            else:
                break
    return [b[0] for b in stack], [b[1] for b in stack]


_blocks = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)).filter(lambda t: sum(t) > 0),
                   min_size=0, max_size=40)


@settings(max_examples=300, deadline=None)
@given(_blocks)
def test_pav_is_exact_pav(blocks):
    npos = np.array([b[0] for b in blocks], dtype=np.int64)
    nneg = np.array([b[1] for b in blocks], dtype=np.int64)
    P, N = pav(npos, nneg)
    eP, eN = _pav_fractions(npos, nneg)
    assert P.tolist() == eP and N.tolist() == eN


@settings(max_examples=200, deadline=None)
@given(st.lists(_blocks, min_size=1, max_size=6))
def test_segments_are_pooled_apart(segments):
    npos = np.array([b[0] for s in segments for b in s], dtype=np.int64)
    nneg = np.array([b[1] for s in segments for b in s], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum([len(s) for s in segments])))
    P, N, off = pav_segments(npos, nneg, offsets)
    for i, s in enumerate(segments):
        eP, eN = _pav_fractions([b[0] for b in s], [b[1] for b in s])
        assert P[off[i]:off[i + 1]].tolist() == eP
        assert N[off[i]:off[i + 1]].tolist() == eN


def test_equal_means_that_floating_pav_leaves_apart_are_pooled():
    # blocks whose pooled floating mean misses 6/7 by a rounding: floating PAV (scipy)
    # can leave the last block apart; the exact corners pool all of them
    rng = np.random.default_rng(0)
    npos = np.concatenate((rng.integers(1, 50, 3000) * 6, [12]))
    nneg = np.concatenate((npos[:-1] // 6, [2]))
    P, N = pav(npos, nneg)
    assert P.tolist() == [int(npos.sum())] and N.tolist() == [int(nneg.sum())]


def test_beyond_int64_cross_products_python_integers_are_used():
    npos = np.array([3, 2**40, 1, 5 * 2**40], dtype=np.int64)
    nneg = np.array([2**40, 7, 2**41, 3], dtype=np.int64)
    P, N = pav(npos, nneg)
    eP, eN = _pav_fractions(npos, nneg)
    assert P.tolist() == eP and N.tolist() == eN
