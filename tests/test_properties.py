"""Hypothesis invariants of the rate engine and the per-system frames (STYLE 16d)."""

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import pandas_biosig as pbs
from pandas_biosig._kernels.rates import Sweep

scores = arrays(
    np.float64,
    st.integers(1, 40),
    elements=st.integers(-20, 20).map(lambda v: v / 4),  # coarse grid: many ties
)
SETTINGS = settings(max_examples=60, deadline=None)


def sweeps(neg, pos):
    return Sweep(neg, pos)


@SETTINGS
@given(scores, scores)
def test_eer_invariant_under_increasing_transform(neg, pos):
    a = Sweep(neg, pos)
    b = Sweep(np.exp(neg / 2) * 3 + 1, np.exp(pos / 2) * 3 + 1)
    assert a.eer_rocch() == b.eer_rocch()
    assert a.eer_interpolated() == b.eer_interpolated()
    assert a.eer_threshold()[0] == b.eer_threshold()[0]
    assert a.auc() == b.auc()
    assert a.min_cllr() == b.min_cllr()


@SETTINGS
@given(scores, scores)
def test_rocch_eer_below_interpolated_eer(neg, pos):
    # the hull lies on or below the piecewise-linear curve through the operating points
    # (the threshold EER, an average at one point, can be on either side: neg = [-0.25, 0],
    # pos = [0] gives 0.25 against a hull EER of 1/3)
    sw = Sweep(neg, pos)
    assert sw.eer_rocch() <= sw.eer_interpolated() + 1e-12
    assert 0 <= sw.eer_rocch() <= 0.5 + 1e-12


@SETTINGS
@given(scores, scores, st.lists(st.floats(-6, 6), min_size=2, max_size=10))
def test_far_nonincreasing_frr_nondecreasing(neg, pos, thresholds):
    sw = Sweep(neg, pos)
    t = np.sort(np.array(thresholds))
    fa, fr = sw.rates_at_threshold(t)
    assert np.all(np.diff(fa) <= 0) and np.all(np.diff(fr) >= 0)


@SETTINGS
@given(scores, scores)
def test_swapping_labels_and_negating_swaps_far_and_frr(neg, pos):
    a = Sweep(neg, pos)
    b = Sweep(-pos, -neg)
    assert abs(a.eer_rocch() - b.eer_rocch()) < 1e-12
    assert abs(a.eer_interpolated() - b.eer_interpolated()) < 1e-12
    assert abs(a.auc() - b.auc()) < 1e-12
    t = 0.123  # not on the score grid, so "score >= t" and "-score >= -t" agree
    fa_a, fr_a = a.rates_at_threshold(t)
    fa_b, fr_b = b.rates_at_threshold(-t)
    assert fa_a / a.n == fr_b / b.p and fr_a / a.p == fa_b / b.n


@SETTINGS
@given(scores, scores)
def test_min_weighted_reaches_every_operating_point_bound(neg, pos):
    sw = Sweep(neg, pos)
    u = np.unique(np.r_[neg, pos, np.inf])
    far, frr = sw.fa_at(u) / sw.n, sw.fr_at(u) / sw.p
    for w in (0.0, 0.3, 0.5, 1.0):
        op = sw.min_weighted(w)
        assert w * op.far + (1 - w) * op.frr <= np.min(w * far + (1 - w) * frr) + 1e-15
        # the reported threshold realises the reported counts
        fa, fr = sw.rates_at_threshold(op.threshold)
        assert (fa, fr) == (op.fa, op.fr)


@SETTINGS
@given(scores, scores, st.floats(0, 1))
def test_fnmr_at_fmr_is_at_most(neg, pos, x):
    sw = Sweep(neg, pos)
    op = sw.fnmr_at_fmr(x)
    assert op.far <= x
    fa, fr = sw.rates_at_threshold(op.threshold)
    assert (fa, fr) == (op.fa, op.fr)
    u = np.unique(np.r_[neg, pos, np.inf])
    far, frr = sw.fa_at(u) / sw.n, sw.fr_at(u) / sw.p
    assert op.frr == np.min(frr[far <= x])


@SETTINGS
@given(scores, scores, st.randoms(use_true_random=False))
def test_row_shuffles_change_nothing(neg, pos, rnd):
    table = pd.DataFrame(
        {
            "system": "s",
            "trial": np.arange(neg.size + pos.size),
            "label": [0] * neg.size + [1] * pos.size,
            "score": np.r_[neg, pos],
        }
    )
    perm = list(range(len(table)))
    rnd.shuffle(perm)
    a = pbs.summary(table)
    b = pbs.summary(table.iloc[perm])
    pd.testing.assert_frame_equal(a, b)


@SETTINGS
@given(scores, scores)
def test_auc_is_mann_whitney(neg, pos):
    wins = (pos[:, None] > neg[None, :]).sum() + 0.5 * (pos[:, None] == neg[None, :]).sum()
    assert abs(Sweep(neg, pos).auc() - wins / (neg.size * pos.size)) < 1e-12


def _all_metrics(sw):
    return (
        sw.eer_rocch(),
        sw.eer_interpolated(),
        sw.eer_threshold()[0],
        sw.auc(),
        sw.min_cllr(),
        sw.cllr(),
        sw.min_dcf(0.1, 1.0, 1.0)[0],
        sw.fnmr_at_fmr(0.1).frr,
        sw.fmr_at_fnmr(0.2).far,
        sw.min_weighted(0.3).far,
        tuple(sw.rates_at_threshold([-1.0, 0.0, 0.5])[0]),
    )


@SETTINGS
@given(
    scores,
    scores,
    st.lists(st.integers(0, 3), min_size=80, max_size=80),
)
def test_weighted_sweep_equals_repeated_scores(neg, pos, mult):
    """A replicate given as multiplicities over the sorted scores equals the sweep of the
    repeated scores: resampling never needs a re-sort."""
    base = Sweep(neg, pos)
    wn = np.array(mult[: neg.size])
    wp = np.array(mult[40 : 40 + pos.size])
    if wn.sum() == 0 or wp.sum() == 0:
        return
    weighted = base.reweighted(wn, wp)
    repeated = Sweep(np.repeat(np.sort(neg), wn), np.repeat(np.sort(pos), wp))
    got, want = _all_metrics(weighted), _all_metrics(repeated)
    np.testing.assert_allclose(np.array(got[:-1], float), np.array(want[:-1], float), rtol=1e-12)
    assert got[-1] == want[-1]


@SETTINGS
@given(scores, scores)
def test_unit_weights_give_the_point_estimate(neg, pos):
    base = Sweep(neg, pos)
    ones = base.reweighted(np.ones(neg.size, int), np.ones(pos.size, int))
    got, want = _all_metrics(ones), _all_metrics(base)
    assert got[:5] + got[6:] == want[:5] + want[6:]  # counts: bit for bit
    assert abs(got[5] - want[5]) <= 1e-12 * abs(want[5])  # Cllr: a dot product vs a sum
