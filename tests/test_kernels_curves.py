"""Curve kernels on raw arrays: exact ROC, "at most" resampling, ppndf, EPC threshold
selection (against brute force over every bob.measure candidate), Bayes error rate."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from reference_data import TOY

from pandas_biosig._kernels import curves as k
from pandas_biosig._kernels.rates import Sweep

scores = arrays(
    np.float64,
    st.integers(1, 30),
    elements=st.integers(-12, 12).map(lambda v: v / 4),  # coarse grid: many ties
)
SETTINGS = settings(max_examples=60, deadline=None)
WEIGHTS = np.r_[0.0, 0.05, 0.2, 1 / 3, 0.5, 0.6, 0.75, 0.95, 1.0]


def brute_force(neg, pos):
    """Every bob.measure candidate threshold and its rates, by literally counting."""
    u = np.unique(np.r_[neg, pos])
    cands = np.r_[u[0], (u[:-1] + u[1:]) / 2, np.nextafter(u[-1], np.inf)]
    fa = np.array([(neg >= t).sum() for t in cands])
    fr = np.array([(pos < t).sum() for t in cands])
    return cands, fa, fr


def pick(cands, crit, total):
    """SPEC §2: smallest criterion, then smallest FAR + FRR, then the highest threshold."""
    return np.lexsort((-cands, total, crit))[0]


# ------------------------------------------------------------------------ exact ROC
def test_toy_roc_points():
    sw = Sweep(np.array(TOY.impostor), np.array(TOY.genuine))
    pts = k.roc_points(sw)
    assert pts.u.tolist() == [0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9, np.inf]
    assert pts.fa.tolist() == [5, 4, 2, 1, 1, 0, 0, 0]
    assert pts.fr.tolist() == [0, 0, 1, 1, 2, 2, 3, 4]
    np.testing.assert_allclose(pts.threshold[:-1], [0.1, 0.2, 0.4, 0.55, 0.65, 0.75, 0.85])
    assert pts.threshold[-1] == np.nextafter(0.9, np.inf)
    assert pts.tpr.tolist() == [1.0, 1.0, 0.75, 0.75, 0.5, 0.5, 0.25, 0.0]


@SETTINGS
@given(scores, scores, st.integers(0, 2), st.integers(0, 2))
def test_roc_points_match_sweep_and_brute_force(neg, pos, fta_neg, fta_pos):
    neg = np.r_[neg, np.full(fta_neg, -np.inf)]
    pos = np.r_[pos, np.full(fta_pos, -np.inf)]
    sw = Sweep(neg, pos)
    pts = k.roc_points(sw)
    # thresholds follow Sweep.threshold_for exactly, counts Sweep.fa_at / fr_at
    assert np.array_equal(pts.threshold, sw.threshold_for(pts.u))
    assert np.array_equal(pts.fa, sw.fa_at(pts.u)) and np.array_equal(pts.fr, sw.fr_at(pts.u))
    # and they are every bob.measure candidate, by brute force
    cands, fa, fr = brute_force(neg[np.isfinite(neg)], pos[np.isfinite(pos)])
    np.testing.assert_array_equal(pts.threshold, cands)
    np.testing.assert_array_equal(pts.fa, fa)
    np.testing.assert_array_equal(pts.fr, fr + fta_pos)
    assert np.all(np.diff(pts.fa) <= 0) and np.all(np.diff(pts.fr) >= 0)
    assert np.all(np.diff(pts.fr - pts.fa) > 0)


def test_roc_points_all_failures_to_acquire():
    sw = Sweep(np.array([-np.inf]), np.array([-np.inf, -np.inf]))
    pts = k.roc_points(sw)
    assert pts.fa.tolist() == [0] and pts.fr.tolist() == [2]


def test_roc_points_of_a_reweighted_sweep_equal_repeated_scores():
    rng = np.random.default_rng(3)
    neg, pos = np.sort(np.round(rng.normal(0, 1, 40), 1)), np.sort(np.round(rng.normal(1, 1, 15), 1))
    wn, wp = rng.integers(1, 4, neg.size), rng.integers(1, 4, pos.size)
    a = k.roc_points(Sweep(neg, pos).reweighted(wn, wp))
    b = k.roc_points(Sweep(np.repeat(neg, wn), np.repeat(pos, wp)))
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)


@SETTINGS
@given(scores, scores, st.lists(st.floats(0, 1), min_size=1, max_size=8))
def test_at_most_is_the_roc_own_value(neg, pos, grid):
    sw = Sweep(neg, pos)
    pts = k.roc_points(sw)
    idx = k.at_most(pts, np.array(grid))
    for x, i in zip(grid, idx, strict=True):
        op = sw.fnmr_at_fmr(x)
        assert (pts.fa[i], pts.fr[i]) == (op.fa, op.fr)
        assert pts.far[i] <= x
        # every point with FAR <= x has at least this FRR
        assert pts.frr[i] == pts.frr[pts.far <= x].min()


# --------------------------------------------------------------------------- ppndf
def test_ppndf():
    from scipy.stats import norm

    x = np.array([0.001, 0.1, 0.5, 0.9, 0.999])
    np.testing.assert_allclose(k.ppndf(x), norm.ppf(x), rtol=1e-14)
    assert k.ppndf(0.5) == 0.0 and isinstance(k.ppndf(0.5), float)
    lo, hi = k.ppndf([0.0, 1.0])
    assert np.isfinite(lo) and np.isfinite(hi) and lo == pytest.approx(-8.125, abs=1e-3)
    assert hi == pytest.approx(8.125, abs=1e-2)
    assert np.isnan(k.ppndf(np.nan))


def test_ppndf_in_place_has_the_bits_of_clip_then_ndtri():
    """The deviates written over the clipped copy: the caller's array untouched, and
    the values of ``ndtri(np.clip(x, eps, 1 - eps))`` bit for bit."""
    from scipy.special import ndtri

    eps = np.finfo(np.float64).eps
    x = np.concatenate(([0.0, 1.0, np.nan, eps / 2, 1 - eps / 4], np.linspace(0, 1, 1001)))
    grid = np.stack([x, x[::-1]])
    keep = grid.copy()
    out = k.ppndf(grid)
    assert out.shape == grid.shape and out.dtype == np.float64
    assert out.tobytes() == ndtri(np.clip(keep, eps, 1 - eps)).tobytes()
    assert grid.tobytes() == keep.tobytes()
    assert k.ppndf([0.25]).tobytes() == ndtri(np.array([0.25])).tobytes()


# ----------------------------------------------------------------------------- EPC
def test_iris_epc_bob_reference():
    """bob.measure's EPC fixture: Iris sepal length, setosa = impostor, versicolor =
    genuine; dev = first 25 of each class, eval = last 25; 100 weights."""
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    neg, pos = X[y == 0, 0], X[y == 1, 0]
    dev, ev = Sweep(neg[:25], pos[:25]), Sweep(neg[25:], pos[25:])
    w = np.linspace(0, 1, 100)
    thr = k.select_thresholds(dev, w, "min_weighted")
    fa, fr = ev.rates_at_threshold(thr)
    _, _, hter, _ = k.epc_values(fa, fr, ev.n, ev.p, w, "min_weighted")
    for i, (t, h) in {0: (4.85, 0.36), 50: (5.45, 0.10), 99: (5.85, 0.30)}.items():
        assert thr[i] == pytest.approx(t, abs=1e-12)
        assert hter[i] == pytest.approx(h, abs=1e-12)


@SETTINGS
@given(scores, scores)
def test_weighted_selection_is_min_weighted(neg, pos):
    sw = Sweep(neg, pos)
    thr = k.select_thresholds(sw, WEIGHTS, "min_weighted")
    assert thr.tolist() == [sw.min_weighted(w).threshold for w in WEIGHTS]


def _criterion(name, a, fa, fr, n, p):
    far, frr = fa / n, fr / p
    if name == "min_weighted":
        return a * far + (1 - a) * frr
    if name == "far":
        return np.abs(a - far)
    if name == "frr":
        return np.abs(a - frr)
    tp = p - fr
    acc = tp + fa
    precision = np.where(acc > 0, tp / np.maximum(acc, 1), 0.0)
    return -(a * precision + (1 - a) * (tp / p))


@SETTINGS
@given(scores, scores, st.sampled_from(sorted(k.EPC_CRITERIA)))
def test_selection_matches_brute_force(neg, pos, criterion):
    sw = Sweep(neg, pos)
    cands, fa, fr = brute_force(neg, pos)
    total = fa / sw.n + fr / sw.p
    thr = k.select_thresholds(sw, WEIGHTS, criterion)
    for a, t in zip(WEIGHTS, thr, strict=True):
        i = pick(cands, _criterion(criterion, a, fa, fr, sw.n, sw.p), total)
        assert t == cands[i], (a, t, cands[i])


def test_selection_many_weights_and_chunks(monkeypatch):
    monkeypatch.setattr(k, "_CHUNK", 7)  # force several (weights x candidates) blocks
    rng = np.random.default_rng(0)
    neg, pos = np.round(rng.normal(0, 1, 60), 1), np.round(rng.normal(1, 1, 30), 1)
    sw = Sweep(neg, pos)
    w = np.linspace(0, 1, 37)
    cands, fa, fr = brute_force(neg, pos)
    total = fa / sw.n + fr / sw.p
    for criterion in ("precision_recall", "far", "frr"):
        thr = k.select_thresholds(sw, w, criterion)
        expected = [cands[pick(cands, _criterion(criterion, a, fa, fr, sw.n, sw.p), total)] for a in w]
        np.testing.assert_array_equal(thr, expected)


def test_epc_values():
    fa, fr, n, p = np.array([2, 0]), np.array([1, 4]), 10, 4
    w = np.array([0.25, 0.5])
    far, frr, hter, value = k.epc_values(fa, fr, n, p, w, "min_weighted")
    np.testing.assert_allclose(far, [0.2, 0.0])
    np.testing.assert_allclose(frr, [0.25, 1.0])
    np.testing.assert_allclose(hter, [0.225, 0.5])
    np.testing.assert_allclose(value, [0.25 * 0.2 + 0.75 * 0.25, 0.5])
    # F1 = 2TP / (2TP + FA + FR): TP = 3, FA = 2, FR = 1 -> 6/9; TP = 0 -> 0
    np.testing.assert_allclose(k.epc_values(fa, fr, n, p, w, "precision_recall")[3], [6 / 9, 0.0])
    np.testing.assert_allclose(k.epc_values(fa, fr, n, p, w, "far")[3], far)
    np.testing.assert_allclose(k.epc_values(fa, fr, n, p, w, "frr")[3], frr)
    with pytest.raises(ValueError, match="criterion"):
        k.epc_values(fa, fr, n, p, w, "nope")
    with pytest.raises(ValueError, match="criterion"):
        k.select_thresholds(Sweep([0.0], [1.0]), w, "nope")


# --------------------------------------------------------------------- Bayes error
@SETTINGS
@given(scores, scores)
def test_bayes_error_vs_brute_force(neg, pos):
    sw = Sweep(neg, pos)
    plo = np.array([-np.inf, -3.0, -0.4, 0.0, 0.1, 2.0, 5.0, np.inf])
    min_ber, act_ber, default = k.bayes_error(sw, plo)
    _, fa, fr = brute_force(neg, pos)
    pi = 1 / (1 + np.exp(-plo))
    for j, q in enumerate(pi):
        expected = np.min(q * fr / sw.p + (1 - q) * fa / sw.n)
        assert min_ber[j] == pytest.approx(expected, abs=1e-15)
        t = -plo[j]
        act = q * np.mean(pos < t) + (1 - q) * np.mean(neg >= t)
        assert act_ber[j] == pytest.approx(act, abs=1e-15)
        assert default[j] == pytest.approx(min(q, 1 - q), abs=1e-15)
    assert np.all(min_ber <= default + 1e-15) and np.all(min_ber <= act_ber + 1e-15)
    assert np.isnan(k.bayes_error(sw, plo, actual=False)[1]).all()


def _assert_fill(sw, pts, extra: int = 0, **kwargs) -> None:
    """roc_fill's three rows, for either second axis, equal roc_points bit for bit (the
    points go to the start of rows that may be longer)."""
    for axis in ("frr", "tpr"):
        rows = np.full((3, pts.u.size + extra), np.nan)
        assert k.roc_fill(sw, *rows, axis=axis, **kwargs) == pts.u.size
        m = pts.u.size
        for row, want in zip(rows, (pts.threshold, pts.far, getattr(pts, axis)), strict=True):
            assert row[:m].tobytes() == want.tobytes()


@SETTINGS
@given(scores, scores, st.integers(0, 2), st.integers(0, 2), st.integers(0, 3))
def test_roc_fill_is_roc_points_bit_for_bit(neg, pos, fta_neg, fta_pos, extra):
    """The in-place curve writer (used by roc()/det()) equals roc_points exactly."""
    sw = Sweep(np.r_[neg, np.full(fta_neg, -np.inf)], np.r_[pos, np.full(fta_pos, -np.inf)])
    pts = k.roc_points(sw)
    _assert_fill(sw, pts, extra)


def test_roc_fill_in_blocks_and_distinct_scores(monkeypatch):
    rng = np.random.default_rng(5)
    sw = Sweep(rng.normal(0, 1, 3000), rng.normal(2, 1, 700))
    pts = k.roc_points(sw)
    monkeypatch.setattr(k, "_BLOCK", 64)  # many blocks, a partial last one
    _assert_fill(sw, pts)
    rows = np.empty((3, pts.u.size))
    with pytest.raises(ValueError, match="unweighted"):
        k.roc_fill(sw.reweighted(np.ones(3000, int), np.ones(700, int)), *rows)
    with pytest.raises(ValueError, match="axis"):
        k.roc_fill(sw, *rows, axis="fpr")


@SETTINGS
@given(scores, scores, st.integers(0, 2), st.integers(0, 2))
def test_shared_placement_gives_the_same_size_auc_and_curve(neg, pos, fta_neg, fta_pos):
    """roc()/det() search once (``placement``) for the AUC and the merge."""
    sw = Sweep(np.r_[neg, np.full(fta_neg, -np.inf)], np.r_[pos, np.full(fta_pos, -np.inf)])
    at = k.placement(sw)
    pts = k.roc_points(sw)
    assert k.auc(sw, at) == sw.auc()
    _assert_fill(sw, pts, at=at)


def test_distinct_rates_in_blocks(monkeypatch):
    rng = np.random.default_rng(8)
    sw = Sweep(rng.normal(0, 1, 5000), rng.normal(1, 1, 900))
    pts = k.roc_points(sw)
    monkeypatch.setattr(k, "_BLOCK", 100)
    at = k.placement(sw)
    _assert_fill(sw, pts, at=at)
    assert k.auc(sw, at) == sw.auc()


def test_blockwise_fill_of_huge_and_adjacent_scores(monkeypatch):
    """Midpoints that overflow or round onto the lower score, across block edges."""
    monkeypatch.setattr(k, "_BLOCK", 3)
    x = 1.0
    neg = np.array([-1.7e308, -1e308, x, np.nextafter(np.nextafter(x, 2), 2), 1.6e308])
    pos = np.array([-1.6e308, np.nextafter(x, 2), 2.0, 1.7e308])
    sw = Sweep(neg, pos)
    pts = k.roc_points(sw)
    at = k.placement(sw)
    _assert_fill(sw, pts, at=at)


@pytest.mark.parametrize("where", ["first", "middle", "last", "across_classes"])
def test_a_tie_met_late_sends_the_fill_to_the_general_path(monkeypatch, where):
    """The block-by-block fill assumes distinct scores until a tie shows; the rows it has
    written by then are rewritten, so the curve is roc_points' whatever the tie's place."""
    monkeypatch.setattr(k, "_BLOCK", 16)
    rng = np.random.default_rng(3)
    neg, pos = rng.normal(0, 1, 300), rng.normal(1, 1, 80)
    order = np.sort(np.r_[neg, pos])
    tied = {"first": order[0], "middle": order[190], "last": order[-1]}.get(where)
    if where == "across_classes":
        neg[7] = pos[11]  # an impostor and a genuine score equal
    else:
        neg[5] = tied  # an impostor score equal to another score
    sw = Sweep(neg, pos)
    pts = k.roc_points(sw)
    assert pts.u.size == neg.size + pos.size  # one point fewer than distinct scores give
    _assert_fill(sw, pts, extra=1)
