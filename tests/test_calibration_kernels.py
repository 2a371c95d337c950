"""The calibration kernels against scikit-learn (oracle), BOSARIS and PYLLR (recorded
reference values, tests/reference_calibration.py) and hand-worked toy tables."""

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import reference_calibration as ref
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import pandas_biosig as pbs
from pandas_biosig._kernels import calibration as cal
from pandas_biosig._kernels.rates import Sweep

PRIORS = (0.01, 0.5, 0.9)
SYSTEMS = ("cnn", "gmm", "lbp")


# ------------------------------------------------------------------ score sets
def _newcaps() -> Path | None:
    """``shared/newcaps-data`` beside the repository root or one level above it (a
    worktree); None when absent."""
    root = Path(__file__).parents[1]
    for base in (root.parent, root.parent.parent):
        path = base / "shared" / "newcaps-data" / "asvspoof2019_tdcf_v1"
        if path.is_dir():
            return path
    return None


def _wide(split: str) -> tuple[pd.DataFrame, np.ndarray]:
    d = pbs.datasets.example_trials()
    w = d[d.split == split].pivot(index=["trial", "label"], columns="system", values="score")
    w = w.reset_index()
    return w, w.label.to_numpy() == "genuine"


def score_set(name: str) -> tuple[np.ndarray, np.ndarray]:
    """``(targets, non-targets)`` of a named set (see tests/reference_calibration.py)."""
    if name.startswith("ex_"):
        _, system, split = name.split("_")
        w, tar = _wide(split)
        cols = list(SYSTEMS) if system == "fuse" else system
        x = w[cols].to_numpy()
        return x[tar], x[~tar]
    base = _newcaps()
    if base is None:
        pytest.skip("newcaps-data (ASVspoof 2019 score files) not found")
    if name == "asv":
        t = pd.read_csv(base / "asv_dev.txt", sep=r"\s+", header=None, names=["src", "key", "s"])
        return t.s[t.key == "target"].to_numpy(), t.s[t.key == "nontarget"].to_numpy()
    t = pd.read_csv(base / "cm_dev.txt", sep=r"\s+", header=None, names=["u", "src", "key", "s"])
    return t.s[t.key == "bonafide"].to_numpy(), t.s[t.key == "spoof"].to_numpy()


def sklearn_fit(tar, non, prior):
    """The oracle: unpenalised logistic regression with class weights pi/N_tar and
    (1 - pi)/N_non; the LLR offset is its intercept minus logit(prior)."""
    from sklearn.linear_model import LogisticRegression

    x = np.concatenate([tar, non])
    x = x[:, None] if x.ndim == 1 else x
    y = np.r_[np.ones(len(tar)), np.zeros(len(non))]
    weights = {1: prior / len(tar), 0: (1 - prior) / len(non)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the deprecation of penalty= differs by version
        try:
            model = LogisticRegression(C=np.inf, solver="newton-cholesky", tol=1e-12,
                                       max_iter=10_000, class_weight=weights)
            model.fit(x, y)
        except ValueError:  # a version that rejects C=inf
            model = LogisticRegression(penalty=None, solver="newton-cholesky", tol=1e-12,
                                       max_iter=10_000, class_weight=weights)
            model.fit(x, y)
    return model.coef_.ravel(), model.intercept_[0] - np.log(prior / (1 - prior))


REAL_SETS = ["ex_cnn_dev", "ex_gmm_dev", "ex_lbp_dev", "asv", "cm"]


# ------------------------------------------------------------------ linear: oracle
@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("name", REAL_SETS)
def test_linear_calibration_equals_sklearn(name, prior):
    tar, non = score_set(name)
    fit = cal.train_linear(non, tar, prior=prior)
    w, b = sklearn_fit(tar, non, prior)
    assert fit.converged
    np.testing.assert_allclose(fit.weights, w, rtol=1e-6, atol=1e-8)
    assert fit.offset == pytest.approx(b, rel=1e-6, abs=1e-8)


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("systems", [("cnn", "gmm"), SYSTEMS])
def test_linear_fusion_equals_sklearn(systems, prior):
    w_dev, tar = _wide("dev")
    x = w_dev[list(systems)].to_numpy()
    fit = cal.train_linear(x[~tar], x[tar], prior=prior)
    w, b = sklearn_fit(x[tar], x[~tar], prior)
    assert fit.converged and fit.weights.shape == (len(systems),)
    np.testing.assert_allclose(fit.weights, w, rtol=1e-6, atol=1e-8)
    assert fit.offset == pytest.approx(b, rel=1e-6, abs=1e-8)


# ------------------------------------------------------------------ linear: BOSARIS
@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("name", REAL_SETS)
def test_linear_calibration_against_bosaris(name, prior):
    scale, offset, nxe, cllr, min_cllr, act, mindcf = ref.BOSARIS_LINEAR[(name, prior)]
    tar, non = score_set(name)
    fit = cal.train_linear(non, tar, prior=prior)
    # BOSARIS stops at a model change below sqrt(eps): weights to ~1e-4, objective to ~1e-8
    assert fit.weights[0] == pytest.approx(scale, rel=1e-3)
    assert fit.offset == pytest.approx(offset, rel=1e-3, abs=1e-3)
    assert fit.objective == pytest.approx(nxe, abs=1e-7)
    assert fit.objective <= nxe + 1e-12  # never worse than BOSARIS's optimum
    sw = Sweep(fit.apply(non), fit.apply(tar))
    lo = np.log(prior / (1 - prior))
    mins, acts, _ = cal.normalized_bayes_error(sw, [lo])
    assert sw.cllr() == pytest.approx(cllr, abs=1e-5)
    assert sw.min_cllr() == pytest.approx(min_cllr, abs=2e-6)  # BOSARIS's 1e-6 tilt
    assert acts[0] == pytest.approx(act, abs=1e-12)
    assert mins[0] == pytest.approx(mindcf, abs=1e-12)


@pytest.mark.parametrize("prior", PRIORS)
def test_linear_fusion_against_bosaris(prior):
    *weights, offset, nxe, cllr, min_cllr, act, mindcf = ref.BOSARIS_FUSION[prior]
    tar, non = score_set("ex_fuse_dev")
    fit = cal.train_linear(non, tar, prior=prior)
    np.testing.assert_allclose(fit.weights, weights, rtol=1e-3)
    assert fit.offset == pytest.approx(offset, rel=1e-3, abs=1e-3)
    assert fit.objective == pytest.approx(nxe, abs=1e-7)
    etar, enon = score_set("ex_fuse_eval")
    sw = Sweep(fit.apply(enon), fit.apply(etar))
    mins, acts, _ = cal.normalized_bayes_error(sw, [np.log(prior / (1 - prior))])
    assert sw.cllr() == pytest.approx(cllr, abs=1e-5)
    assert sw.min_cllr() == pytest.approx(min_cllr, abs=2e-6)
    assert (acts[0], mins[0]) == pytest.approx((act, mindcf), abs=1e-12)


# ------------------------------------------------------------------ measures: PYLLR
@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("name", [*REAL_SETS, "fuse"])
def test_calibrated_measures_equal_pyllr(name, prior):
    """Cllr, minCllr, normalised actual and minimum DCF of the calibrated scores (fusion:
    trained on dev, applied to eval) equal PYLLR's on the same scores."""
    cllr, min_cllr, act, mindcf = ref.PYLLR_CALIBRATED[(name, prior)]
    train = "ex_fuse_dev" if name == "fuse" else name
    tar, non = score_set(train)
    fit = cal.train_linear(non, tar, prior=prior)
    if name == "fuse":
        tar, non = score_set("ex_fuse_eval")
    sw = Sweep(fit.apply(non), fit.apply(tar))
    mins, acts, _ = cal.normalized_bayes_error(sw, [np.log(prior / (1 - prior))])
    assert sw.cllr() == pytest.approx(cllr, rel=1e-9)
    assert sw.min_cllr() == pytest.approx(min_cllr, rel=1e-12)
    assert acts[0] == pytest.approx(act, abs=1e-12)
    assert mins[0] == pytest.approx(mindcf, abs=1e-12)
    # Cllr is the normalised cross-entropy at the prior 1/2
    assert cal.cross_entropy(sw.neg, sw.pos, 0.5) == pytest.approx(sw.cllr(), rel=1e-12)


# ------------------------------------------------------------------ linear: hand-worked
def test_two_score_values_give_the_empirical_llrs_at_every_prior():
    """With two distinct scores an affine map reaches the empirical LLR at each, which
    minimises the objective at every prior (hand-worked):

    targets: 3 at s = 1, 1 at s = 0; non-targets: 1 at s = 1, 4 at s = 0.
    LLR(1) = ln((3/4) / (1/5)) = ln(15/4) = 1.3217558...
    LLR(0) = ln((1/4) / (4/5)) = ln(5/16) = -1.1631508...
    so w = ln(15/4) - ln(5/16) = ln 12 = 2.4849066..., b = ln(5/16).
    Normalised objective at prior 1/2: Cllr of those LLRs,
    targets: (3 log2(1 + 4/15) + log2(1 + 16/5)) / 4, non-targets:
    (log2(1 + 15/4) + 4 log2(1 + 5/16)) / 5, Cllr = their mean = 0.7396...
    """
    tar = np.array([1.0, 1, 1, 0])
    non = np.array([1.0, 0, 0, 0, 0])
    c_tar = (3 * np.log2(1 + 4 / 15) + np.log2(1 + 16 / 5)) / 4
    c_non = (np.log2(1 + 15 / 4) + 4 * np.log2(1 + 5 / 16)) / 5
    for prior in (0.05, 0.5, 0.8):
        fit = cal.train_linear(non, tar, prior=prior)
        assert fit.weights[0] == pytest.approx(np.log(12), rel=1e-12)
        assert fit.offset == pytest.approx(np.log(5 / 16), rel=1e-12)
    assert cal.train_linear(non, tar).objective == pytest.approx((c_tar + c_non) / 2, rel=1e-12)


def test_three_score_points_in_the_plane_give_the_empirical_llrs():
    """Fusion of two columns, trials at three points (hand-worked): targets 1, 2, 3 and
    non-targets 3, 2, 1 at (0, 0), (1, 0), (0, 1); 6 of each, so LLR = ln(t / n) there:
    ln(1/3), 0, ln 3. Hence b = -ln 3, w1 = 0 - b = ln 3, w2 = ln 3 - b = 2 ln 3."""
    pts = np.array([[0.0, 0], [1, 0], [0, 1]])
    tar = np.repeat(pts, [1, 2, 3], axis=0)
    non = np.repeat(pts, [3, 2, 1], axis=0)
    fit = cal.train_linear(non, tar, prior=0.3)
    np.testing.assert_allclose(fit.weights, [np.log(3), 2 * np.log(3)], rtol=1e-12)
    assert fit.offset == pytest.approx(-np.log(3), rel=1e-12)
    # the same trials as counted rows
    counted = cal.train_linear(pts, pts, prior=0.3, pos_counts=[1, 2, 3], neg_counts=[3, 2, 1])
    np.testing.assert_allclose(counted.weights, fit.weights, rtol=1e-12)
    assert counted.offset == pytest.approx(fit.offset, rel=1e-12)
    assert counted.objective == pytest.approx(fit.objective, rel=1e-12)


def test_counted_trials_equal_the_expanded_ones():
    rng = np.random.default_rng(3)
    tar = np.round(rng.normal(1.5, 1, (40, 2)), 1)
    non = np.round(rng.normal(-1, 1, (70, 2)), 1)
    ct, cn = rng.integers(0, 5, 40), rng.integers(1, 5, 70)
    a = cal.train_linear(non, tar, prior=0.2, neg_counts=cn, pos_counts=ct)
    b = cal.train_linear(np.repeat(non, cn, axis=0), np.repeat(tar, ct, axis=0), prior=0.2)
    np.testing.assert_allclose(a.weights, b.weights, rtol=1e-9)
    assert a.offset == pytest.approx(b.offset, rel=1e-9)
    assert a.objective == pytest.approx(b.objective, rel=1e-12)
    ce = cal.cross_entropy(non[:, 0], tar[:, 0], 0.3, neg_counts=cn, pos_counts=ct)
    assert ce == pytest.approx(
        cal.cross_entropy(np.repeat(non[:, 0], cn), np.repeat(tar[:, 0], ct), 0.3), rel=1e-12
    )


def test_affine_change_of_score_units_changes_only_the_map():
    """Scores a*s + c calibrate to the same LLRs: w' = w / a, b' = b - w c / a."""
    tar, non = score_set("ex_gmm_dev")
    fit = cal.train_linear(non, tar, prior=0.2)
    a, c = 1e-3, 250.0
    moved = cal.train_linear(a * non + c, a * tar + c, prior=0.2)
    assert moved.weights[0] == pytest.approx(fit.weights[0] / a, rel=1e-9)
    assert moved.offset == pytest.approx(fit.offset - fit.weights[0] * c / a, rel=1e-9)
    np.testing.assert_allclose(moved.apply(a * tar + c), fit.apply(tar), rtol=1e-8, atol=1e-8)


# ------------------------------------------------------------------ linear: refusals
@pytest.mark.parametrize(
    "tar, non",
    [
        ([2.0, 3.0, 4.0], [-1.0, 0.0, 1.0]),  # complete separation
        ([1.0, 3.0, 4.0], [-1.0, 0.0, 1.0]),  # quasi-complete: a tie at the boundary
        ([-3.0, -2.0], [0.0, 5.0]),  # separated the other way round
    ],
)
def test_separable_scores_are_refused(tar, non):
    with pytest.raises(cal.SeparableError, match="no finite optimum"):
        cal.train_linear(non, tar)


def test_separable_fusion_is_refused():
    """Neither column separates alone; their sum does."""
    rng = np.random.default_rng(0)
    u = rng.normal(size=(200, 2))
    tar = u[u.sum(axis=1) > 0.2]
    non = u[u.sum(axis=1) < -0.2]
    for col in (0, 1):
        assert tar[:, col].min() < non[:, col].max()
    with pytest.raises(cal.SeparableError, match="fused scores"):
        cal.train_linear(non, tar)


def test_linear_programme_tells_separable_from_overlapping():
    """The exact test behind a fit that does not converge (quasi-complete separation in
    two columns: the boundary x2 = 0 holds one target and one non-target)."""
    tar = np.array([[0.0, 0.0], [1.0, 1.0], [-1.0, 2.0]])
    non = np.array([[1.0, 0.0], [0.0, -1.0], [2.0, -2.0]])
    prob = cal._Problem(tar, non, 1 / 6, 1 / 6, 0.5, 0.0)
    assert cal._separable_lp(prob)
    tar_o, non_o = np.vstack([tar, [[0.5, -1.5]]]), np.vstack([non, [[0.3, 1.5]]])
    assert not cal._separable_lp(cal._Problem(tar_o, non_o, 1 / 7, 1 / 7, 0.5, 0.0))
    with pytest.raises(cal.SeparableError):
        cal.train_linear(non, tar)


def test_a_fit_cut_short_reports_it():
    tar, non = score_set("ex_fuse_dev")
    fit = cal.train_linear(non, tar, max_iter=1)
    assert not fit.converged and fit.iterations == 1


@pytest.mark.parametrize(
    "tar, non",
    [
        (np.full(5, 2.0), np.full(4, 2.0)),  # a constant score
        (np.c_[np.arange(5.0), 2 * np.arange(5.0) + 1], np.c_[np.arange(4.0) - 1, 2 * np.arange(4.0) - 1]),
    ],
)
def test_dependent_columns_are_refused(tar, non):
    with pytest.raises(cal.CollinearError, match="linearly dependent"):
        cal.train_linear(non, tar)


@pytest.mark.parametrize(
    "tar, non, message",
    [
        ([1.0, np.nan], [0.0, 2.0], "must be finite"),
        ([], [0.0, 2.0], "non-empty"),
        ([1.0, 3.0], np.zeros((2, 2)), "same number of score columns"),
    ],
)
def test_bad_arrays_get_named_errors(tar, non, message):
    with pytest.raises(ValueError, match=message):
        cal.train_linear(non, tar)


def test_zero_counts_for_a_class_are_refused():
    with pytest.raises(ValueError, match=cal.ERROR_NO_TRIALS):
        cal.train_linear([0.0, 1.0], [2.0, -1.0], pos_counts=[0, 0])


# ------------------------------------------------------------------ PAV: hand-worked
def test_pav_transform_on_a_hand_worked_table():
    """non-targets 1, 2, 4, 7; targets 3, 5, 6, 8; one target added below every score and
    one non-target above. Labels in score order (T = 1):

        score  -inf  1  2  3  4  5  6  7  8  +inf
        label     1  0  0  1  0  1  1  0  1     0

    PAV: (1,0,0) -> 1/3; (1,0) -> 1/2; (1,1,0,1,0) -> 3/5 (1,1 pool to 1, with 0 to 2/3,
    the 1 then 0 at the top pool to 1/2 < 2/3, so all five pool to 3/5 > 1/2).
    Bins [-inf, 2], [3, 4], [5, +inf]; the data's prior 5/10, logit 0, so the LLRs are
    ln(1/2), 0, ln(3/2) = -0.6931..., 0, 0.4054...
    Inside a bin the transform is flat, between bins linear: at 2.5 half-way from ln(1/2)
    to 0; at 4.25 a quarter of the way from 0 to ln(3/2).
    """
    pav = cal.train_pav([1.0, 2, 4, 7], [3.0, 5, 6, 8])
    np.testing.assert_array_equal(pav.score_bounds, [-np.inf, 2, 3, 4, 5, np.inf])
    l1, l3 = np.log(0.5), np.log(1.5)
    np.testing.assert_allclose(pav.llr_bounds, [l1, l1, 0, 0, l3, l3], atol=1e-15)
    x = np.array([-50.0, 1.0, 2.0, 2.5, 3.0, 3.5, 4.0, 4.25, 5.0, 8.0, 1e9, np.inf, np.nan])
    want = [l1, l1, l1, l1 / 2, 0, 0, 0, l3 / 4, l3, l3, l3, l3, np.nan]
    np.testing.assert_allclose(pav.apply(x), want, atol=1e-15)
    # small_val tilts each bin: -0.1 at its left end, +0.1 at its right end
    tilted = cal.train_pav([1.0, 2, 4, 7], [3.0, 5, 6, 8], small_val=0.1)
    np.testing.assert_allclose(tilted.apply([3.0, 3.5, 4.0, 2.5]), [-0.1, 0, 0.1, l1 / 2], atol=1e-15)


def test_pav_pools_tied_scores_and_reads_the_data_prior():
    """non-targets 0, 1, 3, 3; targets 2, 3, 4 (a tie at 3). Sorted with targets first in
    the tie: -inf:1 0:0 1:0 2:1 3:1 3:0 3:0 4:1 +inf:0. PAV: (1,0,0) -> 1/3, then
    (1,1,0,0) -> 1/2 and (1,0) -> 1/2 pool to one bin of 3 targets, 3 non-targets.
    Data prior (3 + 1) / (7 + 2) = 4/9: logit = ln(4/5). LLRs ln(1/2) - ln(4/5) = ln(5/8)
    and ln(1) - ln(4/5) = ln(5/4); at 1.5, half-way: ln(25/32) / 2."""
    pav = cal.train_pav([0.0, 1, 3, 3], [2.0, 3, 4])
    np.testing.assert_array_equal(pav.score_bounds, [-np.inf, 1, 2, np.inf])
    np.testing.assert_allclose(pav.apply([0.0, 1.5, 3.0, 9.0]),
                               np.log([5 / 8, np.sqrt(25 / 32), 5 / 4, 5 / 4]), rtol=1e-14)
    # counted rows give the same transform
    counted = cal.train_pav([0.0, 1, 3], [2.0, 3, 4], neg_counts=[1, 1, 2])
    np.testing.assert_array_equal(counted.score_bounds, pav.score_bounds)
    np.testing.assert_allclose(counted.llr_bounds, pav.llr_bounds, rtol=1e-15)


def test_pav_of_one_bin_is_constant():
    """Every target below every non-target: everything pools into one bin with the data's
    own proportion, LLR 0."""
    pav = cal.train_pav([5.0, 6.0], [1.0, 2.0])
    np.testing.assert_array_equal(pav.score_bounds, [-np.inf, np.inf])
    np.testing.assert_allclose(pav.apply([0.0, 3.0, 10.0]), 0.0, atol=1e-15)


# ------------------------------------------------------------------ PAV: BOSARIS
def test_pav_bounds_equal_bosaris_pav_calibration():
    tar, non = score_set("ex_cnn_dev")
    pav = cal.train_pav(non, tar)
    want = np.array(ref.BOSARIS_PAV_CNN_SCORE_BOUNDS)
    want[0], want[-1] = -np.inf, np.inf  # BOSARIS's added trials sit at -1e6 and +1e6
    np.testing.assert_array_equal(pav.score_bounds, want)
    np.testing.assert_allclose(pav.llr_bounds, ref.BOSARIS_PAV_CNN_LLR_BOUNDS, rtol=0, atol=1e-13)


@pytest.mark.parametrize("name", ["ex_cnn_dev", "ex_gmm_dev", "asv", "cm"])
def test_pav_transform_equals_bosaris_on_a_grid(name):
    """Scores across and beyond the training range. With small_val = 1e-3 the outer bins
    differ by < 2 small_val |s - edge| / 1e6 (BOSARIS ramps towards its added trials at
    +-1e6; this transform is flat there). On the cm set two neighbouring bins have exactly
    equal LLRs that BOSARIS's running means leave apart; they are one bin here, which
    changes nothing at small_val = 0 and moves scores between them by up to 2 small_val."""
    grid, want0, want_sv = ref.BOSARIS_PAV_GRID[name]
    tar, non = score_set(name)
    np.testing.assert_allclose(cal.train_pav(non, tar).apply(grid), want0, rtol=0, atol=1e-13)
    tilted = cal.train_pav(non, tar, small_val=1e-3).apply(grid)
    np.testing.assert_allclose(tilted, want_sv, rtol=0, atol=1e-7 if name != "cm" else 2e-3)


# ------------------------------------------------------------------ Bayes error
def test_normalized_bayes_error_on_a_hand_worked_table():
    """targets -1, 2; non-targets -2, 1. At prior log odds -ln 3, 0, ln 3 (priors 1/4,
    1/2, 3/4; default error min(pi, 1 - pi) = 1/4, 1/2, 1/4):
    actual, threshold ln 3: misses {-1} 1/2, false alarms none: 1/4 * 1/2 = 1/8 -> 1/2;
    threshold 0: misses 1/2, false alarms {1} 1/2: 1/2 -> 1;
    threshold -ln 3: misses none, false alarms 1/2: 1/4 * 1/2 -> 1/2.
    minimum: accept >= 2 gives 1/4 * 1/2 = 1/8 at pi = 1/4; accept >= -1 gives
    1/4 * 1/2 = 1/8 at pi = 3/4; at 1/2 either gives 1/4 -> all 1/2."""
    sw = Sweep([-2.0, 1.0], [-1.0, 2.0])
    mins, acts, default = cal.normalized_bayes_error(sw, [-np.log(3), 0.0, np.log(3)])
    np.testing.assert_allclose(acts, [0.5, 1.0, 0.5], rtol=1e-14)
    np.testing.assert_allclose(mins, [0.5, 0.5, 0.5], rtol=1e-14)
    np.testing.assert_array_equal(default, [1.0, 1.0, 1.0])
    assert np.isnan(cal.normalized_bayes_error(sw, [np.inf])[0]).all()


@pytest.mark.parametrize("name", ["ex_cnn_eval", "ex_lbp_eval", "asv", "cm"])
def test_normalized_bayes_error_equals_bosaris(name):
    act, mindcf = ref.BOSARIS_NORM_DCF[name]
    tar, non = score_set(name)
    mins, acts, _ = cal.normalized_bayes_error(Sweep(non, tar), ref.BOSARIS_PLO)
    np.testing.assert_allclose(acts, act, rtol=0, atol=1e-12)
    np.testing.assert_allclose(mins, mindcf, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["ex_cnn_eval", "ex_lbp_eval", "asv", "cm"])
def test_llr_check_quantities_equal_pyllr_and_bosaris(name):
    cllr, min_cllr, max_act, min_act, min_min = ref.PYLLR_RAW[name]
    tar, non = score_set(name)
    sw = Sweep(non, tar)
    check = cal.llr_check(sw)
    assert check.cllr == pytest.approx(cllr, rel=1e-12)
    assert check.min_cllr == pytest.approx(min_cllr, rel=1e-12)
    assert (check.max_norm_act_ber, check.min_norm_act_ber, check.min_norm_min_ber) == \
        pytest.approx((max_act, min_act, min_min), abs=1e-12)
    b_cllr, b_min_cllr = ref.BOSARIS_CLLR[name]
    assert check.cllr == pytest.approx(b_cllr, rel=1e-12)
    assert check.min_cllr == pytest.approx(b_min_cllr, abs=2e-6)  # BOSARIS's 1e-6 tilt
    assert not check.not_llr  # these can be read as LLRs, if poorly calibrated ones


# ------------------------------------------------------------------ cross-entropy
@pytest.mark.parametrize("name", ["ex_cnn_dev", "ex_lbp_dev"])
def test_min_cross_entropy_at_one_half_is_min_cllr(name):
    tar, non = score_set(name)
    sw = Sweep(non, tar)
    assert cal.min_cross_entropy(sw, 0.5) == pytest.approx(sw.min_cllr(), rel=1e-12)
    for prior in PRIORS:  # PAV is optimal at every prior: no affine map does better
        best = cal.train_linear(non, tar, prior=prior).objective
        assert cal.min_cross_entropy(sw, prior) <= best


def test_cross_entropy_of_zero_llrs_is_one_at_every_prior():
    for prior in (1e-3, 0.2, 0.5, 0.97):
        assert cal.cross_entropy([0.0, 0.0], [0.0], prior) == pytest.approx(1.0, rel=1e-14)
        assert cal.prior_entropy(prior) == pytest.approx(
            -prior * np.log(prior) - (1 - prior) * np.log(1 - prior), rel=1e-14
        )


# ------------------------------------------------------------------ not-LLR rule
def test_probabilities_are_flagged_by_the_trivial_bound():
    """Scores in [0.008, 0.07] (posterior-like): the LLR threshold -lambda lies outside
    them at every grid prior, so the normalised actual DCF is 1 everywhere, while the
    scores separate well; Cllr is just under 1 bit, so rule 1 alone would miss them."""
    rng = np.random.default_rng(1)
    non, tar = rng.uniform(0.008, 0.04, 3000), rng.uniform(0.03, 0.07, 600)
    check = cal.llr_check(Sweep(non, tar))
    assert check.cllr < 1 and check.min_norm_act_ber >= 1 and check.min_norm_min_ber < 0.5
    assert check.not_llr


def test_overconfident_scores_are_flagged_by_the_cross_entropy():
    """Scores 25 times too large: Cllr 0.83 (under 1), but at prior log odds -6 or 6 the
    cross-entropy is tens of times the prior's."""
    tar, non = score_set("ex_cnn_eval")
    check = cal.llr_check(Sweep(25 * non, 25 * tar))
    assert check.cllr < 1 and check.max_cross_entropy > 10 and check.not_llr
    shifted = cal.llr_check(Sweep(non + 8, tar + 8))  # Cllr > 1 and a huge cross-entropy
    assert shifted.cllr > 1 and shifted.not_llr
    # the same scores 2 times too large stay LLRs, poorly calibrated ones
    assert not cal.llr_check(Sweep(2 * non, 2 * tar)).not_llr


def test_calibrated_llrs_are_not_flagged():
    """Exact LLRs of two unit-variance normals d apart: N(d^2/2, d^2) and N(-d^2/2, d^2),
    for a weak and a strong system."""
    rng = np.random.default_rng(2)
    for d in (0.3, 3.0):
        v = d * d
        check = cal.llr_check(Sweep(rng.normal(-v / 2, d, 20_000), rng.normal(v / 2, d, 5_000)))
        assert not check.not_llr and check.cllr < 1 and check.max_cross_entropy < 1


def test_sweep_cross_entropy_reads_multiplicities_and_failures():
    tar, non = score_set("ex_cnn_dev")
    sw = Sweep(non, tar)
    assert cal.sweep_cross_entropy(sw, 0.5) == pytest.approx(sw.cllr(), rel=1e-12)
    assert cal.sweep_cross_entropy(sw, 0.1) == pytest.approx(cal.cross_entropy(non, tar, 0.1), rel=1e-12)
    wn = np.arange(non.size) % 3
    wp = np.arange(tar.size) % 2 + 1
    rep = sw.reweighted(wn, wp)  # weights in sorted order
    want = cal.cross_entropy(np.repeat(sw.neg, wn), np.repeat(sw.pos, wp), 0.1)
    assert cal.sweep_cross_entropy(rep, 0.1) == pytest.approx(want, rel=1e-12)
    # a non-target that failed to acquire costs nothing but counts; a target: infinite
    fta = Sweep(np.r_[non, -np.inf], tar)
    assert cal.sweep_cross_entropy(fta, 0.1) == pytest.approx(
        cal.cross_entropy(np.r_[non, -1e300], tar, 0.1), rel=1e-12)
    assert cal.sweep_cross_entropy(Sweep(non, np.r_[tar, -np.inf]), 0.1) == np.inf


# ------------------------------------------------------------------ properties
_grid_scores = arrays(np.float64, st.integers(1, 40), elements=st.integers(-8, 8).map(lambda v: v / 2))


@settings(max_examples=200, deadline=None)
@given(_grid_scores, _grid_scores, st.sampled_from([0.0, 1e-3]))
def test_pav_transform_is_monotone_and_counts_equal_expansion(neg, pos, small_val):
    pav = cal.train_pav(neg, pos, small_val=small_val)
    x = np.linspace(-6, 6, 241)
    y = pav.apply(x)
    assert np.all(np.isfinite(y)) and np.all(np.diff(y) >= -1e-12)
    values, counts = np.unique(neg, return_counts=True)
    counted = cal.train_pav(values, pos, neg_counts=counts, small_val=small_val)
    np.testing.assert_array_equal(counted.score_bounds, pav.score_bounds)
    np.testing.assert_allclose(counted.llr_bounds, pav.llr_bounds, rtol=1e-12, atol=1e-12)


def test_row_order_does_not_change_the_fit():
    tar, non = score_set("ex_fuse_dev")
    rng = np.random.default_rng(4)
    a = cal.train_linear(non, tar, prior=0.1)
    b = cal.train_linear(non[rng.permutation(len(non))], tar[rng.permutation(len(tar))], prior=0.1)
    np.testing.assert_allclose(b.weights, a.weights, rtol=1e-10)
    assert b.offset == pytest.approx(a.offset, rel=1e-10)


@settings(max_examples=60, deadline=None)
@given(_grid_scores, _grid_scores, st.lists(st.floats(-9, 9), min_size=1, max_size=12))
def test_min_normalized_min_ber_is_the_minimum_of_the_curve(neg, pos, grid):
    """Two minimised weighted errors, at the grid's prior log odds nearest 0, give the
    smallest normalised minimum Bayes error of the whole curve."""
    sw = Sweep(neg, pos)
    mins, _, _ = cal.normalized_bayes_error(sw, grid)
    assert cal.min_normalized_min_ber(sw, grid) == pytest.approx(np.nanmin(mins), abs=1e-12)


def test_llr_verdict_reads_its_three_quantities():
    assert cal.llr_verdict(2.5, [0.2, 0.3], 0.1)  # rule 1
    assert cal.llr_verdict(0.9, [1.0, 1.2], 0.4)  # rule 2: trivial bound, and separation
    assert not cal.llr_verdict(0.9, [1.0, 1.2], 0.6)  # no separation to speak of
    assert not cal.llr_verdict(0.9, [0.99, 1.2], 0.1)  # below the bound somewhere


def test_a_warm_start_changes_the_iterations_not_the_optimum():
    tar, non = score_set("ex_fuse_dev")
    cold = cal.train_linear(non, tar, prior=0.2)
    w = np.arange(non.shape[0]) % 3
    warm = cal.train_linear(non, tar, prior=0.2, neg_counts=w, start=cold)
    again = cal.train_linear(non, tar, prior=0.2, neg_counts=w)
    np.testing.assert_allclose(warm.weights, again.weights, rtol=1e-9)
    assert warm.offset == pytest.approx(again.offset, rel=1e-9)
    same = cal.train_linear(non, tar, prior=0.2, start=cold)
    assert same.iterations <= cold.iterations and same.converged
