"""The ROCCH-EER read off a window of the ROC equals the whole hull's, bit for bit."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from pandas_biosig._kernels import rocch
from pandas_biosig._kernels.rates import Sweep

scores = arrays(
    np.float64,
    st.integers(1, 60),
    elements=st.one_of(
        st.integers(-12, 12).map(lambda v: v / 4),  # a coarse grid: many ties
        st.just(-np.inf),  # failures to acquire
    ),
)


def full(sw: Sweep) -> float:
    return rocch.rocch_eer(*sw.rocch())


def windowed(sw: Sweep, windows) -> float | None:
    return rocch.window_eer(sw.neg, sw.pos, sw.rn, sw.rp, sw.eer_bracket()[1], windows=windows)


@settings(max_examples=300, deadline=None)
@given(scores, scores, st.sampled_from([(1,), (2,), (1, 3), (2, 8, 32)]))
def test_window_equals_full_hull_with_ties(neg, pos, windows):
    if np.isneginf(neg).all() and np.isneginf(pos).all():
        return
    sw = Sweep(neg, pos)
    value = windowed(Sweep(neg, pos), windows)
    assert value is None or value == full(sw)


@pytest.mark.parametrize("seed", range(40))
def test_window_equals_full_hull_on_larger_sets(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 6000))
    genuine = rng.random(n) < rng.uniform(0.05, 0.9)
    s = rng.normal(np.where(genuine, rng.uniform(0, 4), 0.0), rng.uniform(0.3, 2))
    if seed % 3 == 1:
        s = np.round(s, 1)
    if seed % 5 == 2:
        s[rng.random(n) < 0.05] = -np.inf
    sw = Sweep(s[~genuine], s[genuine])
    expected = full(sw)
    used = 0
    for windows in [(4,), (16, 64), (2, 8, 128, 1 << 14)]:
        value = windowed(Sweep(s[~genuine], s[genuine]), windows)
        used += value is not None
        assert value is None or value == expected
    if seed % 3 != 1 and seed % 5 != 2 and expected > 0:  # the widest window proves itself
        assert used


def test_sweep_takes_the_window_and_agrees(monkeypatch):
    rng = np.random.default_rng(7)
    genuine = rng.random(200_000) < 0.2
    s = rng.normal(np.where(genuine, 2.0, 0.0), 1.0)
    calls = []
    original = rocch.window_eer

    def spy(*args, **kwargs):
        calls.append(original(*args, **kwargs))
        return calls[-1]

    monkeypatch.setattr("pandas_biosig._kernels.rates.window_eer", spy)
    value = Sweep.from_scores(s, genuine).eer_rocch()
    assert calls and calls[0] is not None
    assert value == full(Sweep.from_scores(s, genuine))


def test_a_segment_crossing_at_a_vertex_checks_both_sides():
    # symmetric classes put a hull vertex on FAR = FRR
    rng = np.random.default_rng(3)
    x = np.round(rng.normal(size=3000), 2)
    sw = Sweep(x, x + 1.0)
    for windows in [(4,), (32,), (256,)]:
        value = windowed(Sweep(x, x + 1.0), windows)
        assert value is None or value == full(sw)


def test_a_line_that_a_far_point_undercuts_is_rejected():
    # a window whose hull segment is undercut by a point outside it must not be trusted
    neg = np.concatenate([np.linspace(0, 1, 50), [5.0]])
    pos = np.concatenate([[-5.0], np.linspace(0.5, 1.5, 50)])
    sw = Sweep(neg, pos)
    value = windowed(Sweep(neg, pos), (1,))
    assert value is None or value == full(sw)


def _old_sequence(sw: Sweep):
    """The label sequence that Sweep.pav_blocks builds for every sweep, before merging."""
    u, fa, fr, pc, nb, nle = sw.candidates()
    m = pc.size
    between = np.empty(m + 1, dtype=np.int64)
    between[0] = nb[0]
    between[1:m] = nb[1:] - nle[:-1]
    between[m] = sw.n_finite_neg - nle[-1]
    npos = np.zeros(2 * m + 2, dtype=np.int64)
    nneg = np.zeros(2 * m + 2, dtype=np.int64)
    npos[0], nneg[0] = sw.rp, sw.rn
    nneg[1:-1:2] = between[:m]
    nneg[2:-1:2] = nle - nb
    npos[2:-1:2] = pc
    nneg[-1] = between[m]
    return npos, nneg


@settings(max_examples=200, deadline=None)
@given(
    arrays(np.float64, st.integers(2, 60), elements=st.integers(-400, 400), unique=True),
    st.integers(0, 60),
)
def test_distinct_alternations_are_the_merged_sequence(values, cut):
    """Scores no two trials share: the sequence read off the impostor counts is the one
    merged from the full label sequence, so PAV pools the same blocks."""
    values = values / 7
    k = 1 + cut % (values.size - 1)
    neg, pos = values[:k], values[k:]
    sw = Sweep(neg, pos)
    u, fa, fr, pc, nb, nle = sw.candidates()
    got = rocch.distinct_alternations(sw.positions()[1], nb, sw.neg.size, sw.pos.size)
    want = rocch.alternations(*_old_sequence(sw))
    for g, w in zip(got, want, strict=True):
        assert g.tolist() == w.tolist()
    assert [x.tolist() for x in sw.pav_blocks()] == [x.tolist() for x in rocch.pav(*want)]


@pytest.mark.parametrize("seed", range(6))
def test_pav_blocks_fast_path_matches_the_general_one(seed):
    rng = np.random.default_rng(seed)
    genuine = rng.random(20_000) < 0.2
    s = rng.normal(np.where(genuine, 1.5, 0.0), 1.0)
    sw = Sweep.from_scores(s, genuine)
    fast = sw.pav_blocks()
    slow = rocch.pool(*_old_sequence(Sweep.from_scores(s, genuine)))
    assert [x.tolist() for x in fast] == [x.tolist() for x in slow]
    assert sw.min_cllr() == Sweep.min_cllr(_with_pav(sw, slow))


def _with_pav(sw, blocks):
    other = Sweep(sw.neg, sw.pos, assume_sorted=True)
    other._pav = blocks
    return other


@pytest.mark.parametrize("seed", range(4))
def test_a_nearly_straight_roc_is_exact_or_pooled(seed):
    # uniform classes shifted a little: the ROC hugs a line, and many blocks reach it
    rng = np.random.default_rng(seed)
    neg, pos = rng.random(40_000), rng.random(20_000) + 0.05
    sw = Sweep(neg, pos)
    for windows in [(8,), (64, 1024), rocch.WINDOWS]:
        value = windowed(Sweep(neg, pos), windows)
        assert value is None or value == full(sw)
    assert Sweep(neg, pos).eer_rocch() == full(sw)
