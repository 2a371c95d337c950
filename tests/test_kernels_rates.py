"""Reference tests of the rate engine on raw arrays (hand-counted toy, bob's Iris fixture)."""

import numpy as np
import pytest
from reference_data import IRIS, TOY

from pandas_biosig._kernels.rates import Sweep, cllr, d_prime, softplus
from pandas_biosig._kernels.rocch import rocch_eer

E = TOY.expected


@pytest.fixture
def toy():
    return Sweep(np.array(TOY.impostor), np.array(TOY.genuine))


@pytest.fixture
def iris():
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    return Sweep(X[y == 0, 0], X[y == 1, 0]), X[y == 0, 0], X[y == 1, 0]


def test_toy_counts_at_every_distinct_score(toy):
    u = np.array([0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, np.inf])
    assert toy.fa_at(u).tolist() == [5, 4, 2, 1, 1, 0, 0, 0]
    assert toy.fr_at(u).tolist() == [0, 0, 1, 1, 2, 2, 3, 4]
    thr = toy.threshold_for(u)
    np.testing.assert_allclose(thr[:-1], [0.1, 0.2, 0.4, 0.55, 0.65, 0.75, 0.85])
    assert thr[-1] == np.nextafter(0.9, np.inf)


def test_toy_eer_three_ways(toy):
    value, op = toy.eer_threshold()
    assert value == pytest.approx(E["eer_threshold"])
    assert op.threshold == pytest.approx(E["eer_threshold_at"])
    assert (op.fa, op.fr) == (1, 1)
    assert toy.eer_interpolated() == pytest.approx(E["eer_interpolated"])
    assert toy.eer_rocch() == pytest.approx(E["eer_rocch"])


def test_toy_rocch_vertices(toy):
    pfa, pmiss = toy.rocch()
    np.testing.assert_allclose(pfa, [1, 0.8, 0.2, 0, 0])
    np.testing.assert_allclose(pmiss, [0, 0, 0.25, 0.5, 1])


def test_toy_summaries(toy):
    assert toy.auc() == pytest.approx(E["auc"])
    op = toy.min_weighted(0.5)
    assert (op.far + op.frr) / 2 == pytest.approx(E["min_hter"])
    op = toy.min_weighted(0.25)
    assert (0.25 * op.far + 0.75 * op.frr, op.threshold) == pytest.approx(E["min_weighted_025"])
    op = toy.fnmr_at_fmr(0.2)
    assert (op.frr, op.threshold) == pytest.approx(E["fnmr_at_far_020"])
    op = toy.fnmr_at_fmr(0.0)
    assert (op.frr, op.threshold) == pytest.approx(E["zero_fmr"])
    op = toy.fmr_at_fnmr(0.0)
    assert (op.far, op.threshold) == pytest.approx(E["zero_fnmr"])
    assert toy.min_cllr() == pytest.approx(E["min_cllr"], rel=1e-12)


def test_toy_min_dcf_is_weighted_error(toy):
    cost, op = toy.min_dcf(0.5, 1.0, 1.0)
    assert cost / 0.5 == pytest.approx(2 * E["min_hter"])
    assert op.threshold == pytest.approx(0.55)


def test_iris_matches_bob_and_bosaris(iris):
    sw, neg, pos = iris
    value, op = sw.eer_threshold()
    assert value == pytest.approx(IRIS["eer_threshold"], abs=1e-12)
    assert op.threshold == IRIS["threshold"]
    assert sw.eer_rocch() == pytest.approx(IRIS["eer_rocch"], rel=1e-12)
    assert sw.eer_interpolated() == pytest.approx(IRIS["eer_interpolated"], abs=5e-7)
    assert sw.auc() == pytest.approx(IRIS["auc"], abs=1e-12)
    assert sw.fnmr_at_fmr(0.01).frr == pytest.approx(IRIS["fnmr_at_far_001"])
    assert cllr(neg, pos) == pytest.approx(IRIS["cllr"], abs=5e-6)
    assert sw.cllr() == pytest.approx(IRIS["cllr"], abs=5e-6)


def test_failures_to_acquire_are_always_rejected():
    # one genuine and one impostor failure (-inf) added to the toy
    sw = Sweep(np.r_[TOY.impostor, -np.inf], np.r_[TOY.genuine, -np.inf])
    assert (sw.n, sw.p, sw.rn, sw.rp) == (6, 5, 1, 1)
    # at the lowest finite threshold every finite impostor is accepted, the failure is not
    assert sw.fa_at(0.1) == 5
    assert sw.fr_at(0.1) == 1
    assert sw.cllr() == np.inf
    op = sw.fmr_at_fnmr(0.0)  # FRR = 0 is impossible: the failure is always rejected
    assert op is None


def test_rocch_eer_segment_rules():
    # horizontal and vertical segments contribute nothing; a diagonal vertex counts
    assert rocch_eer(np.array([1.0, 0.0]), np.array([0.0, 1.0])) == pytest.approx(0.5)
    assert rocch_eer(np.array([1.0, 0.5, 0.0]), np.array([0.0, 0.0, 1.0])) == pytest.approx(1 / 3)
    assert rocch_eer(np.array([1.0, 0.0, 0.0]), np.array([0.0, 0.0, 1.0])) == 0.0


def test_softplus_is_stable():
    x = np.array([-800.0, -1.0, 0.0, 1.0, 800.0])
    np.testing.assert_allclose(softplus(x), np.logaddexp(0, x))


def test_d_prime_by_hand():
    neg, pos = np.array(TOY.impostor), np.array(TOY.genuine)
    # means 0.38 / 0.65, population variances 0.0416 / 0.0525
    assert d_prime(neg, pos) == pytest.approx(0.27 / np.sqrt((0.0416 + 0.0525) / 2))


def test_sweep_needs_both_classes():
    with pytest.raises(ValueError, match="both classes"):
        Sweep(np.array([]), np.array([1.0]))


@pytest.mark.parametrize("seed", range(6))
def test_min_hter_and_dcf_is_the_two_criteria(seed):
    rng = np.random.default_rng(seed)
    genuine = rng.random(3000) < 0.3
    s = np.round(rng.normal(np.where(genuine, 1.0, 0.0), 1.0), 1 + seed % 3)
    sw = Sweep(s[~genuine], s[genuine])
    for costs in [(0.01, 1.0, 1.0), (0.5, 2.0, 1.0), (0.001, 10.0, 1.0)]:
        best, dcf = sw.min_hter_and_dcf(*costs)
        assert best == sw.min_weighted(0.5)
        assert dcf == sw.min_dcf(*costs)[0]


@pytest.mark.parametrize("share", [0.0, 0.05, 0.5, 0.85, 0.97, 1.0])
def test_from_scores_splits_like_boolean_indexing(share):
    """Every way of taking a class (compress for a sparse mask, boolean indexing for a
    dense one, a sort behind -inf placeholders for the large class) gives the scores of
    a plain boolean index, sorted, to the last bit, zeros aside: -0.0 and 0.0 are equal
    values, and numpy's vectorized sort (min/max networks) does not even keep how many
    of each a run of zeros holds, so their signs are its own choice either way."""
    rng = np.random.default_rng(7)
    scores = rng.normal(size=5000).round(1)  # ties
    scores[:40] = -np.inf
    scores[40:60] = -0.0
    scores[60:80] = 0.0
    genuine = rng.random(scores.size) < share
    genuine[[0, 1, 50, 70]] = [True, False, True, False]
    genuine[[2, 3, 51, 71]] = [False, True, False, True]
    sw = Sweep.from_scores(scores, genuine)
    neg, pos = np.sort(scores[~genuine]), np.sort(scores[genuine])
    assert (sw.rn, sw.rp) == (np.isneginf(neg).sum(), np.isneginf(pos).sum())
    for got, want in ((sw.neg, neg[sw.rn :]), (sw.pos, pos[sw.rp :])):
        assert (got + 0.0).tobytes() == (want + 0.0).tobytes()  # + 0.0: -0.0 becomes 0.0


@pytest.mark.parametrize("fraction", [0.0, 0.02, 0.1, 0.3, 0.34, 0.5, 0.7, 0.9, 0.98, 1.0])
@pytest.mark.parametrize("kind", ["normal", "ties", "nonfinite", "int"])
def test_from_scores_is_the_split_then_sorted_classes(fraction, kind):
    """Whichever way from_scores splits the classes (gathering the small one and sorting
    the large one behind -inf placeholders, or masking both), each class comes out as
    its own scores sorted: the same values, -inf failures first, NaN last."""
    rng = np.random.default_rng(int(fraction * 100) + len(kind))
    n = 3001
    genuine = rng.random(n) < fraction
    if kind == "normal":
        scores = rng.normal(size=n)
    elif kind == "ties":
        scores = rng.integers(-3, 4, size=n).astype(float)
        scores[rng.random(n) < 0.1] = -0.0
    elif kind == "nonfinite":
        scores = rng.normal(size=n)
        scores[rng.random(n) < 0.05] = -np.inf
        scores[rng.random(n) < 0.02] = np.inf
        scores[rng.random(n) < 0.02] = np.nan
    else:
        scores = rng.integers(-1000, 1000, size=n)
    before = scores.copy()
    if genuine.all() or not genuine.any():
        with pytest.raises(ValueError, match="both classes"):
            Sweep.from_scores(scores, genuine)
        return
    sw = Sweep.from_scores(scores, genuine)
    np.testing.assert_array_equal(scores, before)  # the input is not touched
    for got, rejected, want in ((sw.neg, sw.rn, scores[~genuine]), (sw.pos, sw.rp, scores[genuine])):
        want = np.sort(want.astype(float))
        assert got.dtype == np.float64
        assert rejected == np.count_nonzero(np.isneginf(want))
        np.testing.assert_array_equal(got, want[rejected:])


@pytest.mark.parametrize("n", [1, 7, 1000, 40_000, 300_001])
def test_d_prime_is_numpys_two_pass_formula_to_the_bit(n):
    """The variances are numpy's pairwise sums of the squared deviations (made leaf by
    leaf, never whole), so d' has the bits of the plain numpy formula, and it is within
    a rounding or two of the exactly summed one."""
    import math

    rng = np.random.default_rng(n)
    neg, pos = rng.normal(0, 1, n) * 1e3 + 7, rng.normal(2, 1.5, n + 3)
    moments = []
    for x in (pos, neg):
        m = np.add.reduce(x) / x.size
        moments.append((m, np.add.reduce((x - m) ** 2) / x.size))
    (mg, vg), (mi, vi) = moments
    plain = float(abs(mg - mi) / np.sqrt((vg + vi) / 2))
    assert d_prime(neg, pos) == plain
    fm = [math.fsum(x) / x.size for x in (pos, neg)]
    fv = [math.fsum((x - m) ** 2) / x.size for x, m in zip((pos, neg), fm, strict=True)]
    assert d_prime(neg, pos) == pytest.approx(abs(fm[0] - fm[1]) / math.sqrt(sum(fv) / 2), rel=1e-13)
