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
