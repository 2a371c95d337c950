"""calibrate(), fuse(), compare_fusion(), cllr_curve() and the calibration-loss columns:
against scikit-learn (oracle), BOSARIS and PYLLR (recorded in
tests/reference_calibration.py), hand-worked tables, and the protocol's rules."""

import math
import re
import warnings

import numpy as np
import pandas as pd
import pytest
import reference_calibration as ref
from test_calibration_kernels import score_set, sklearn_fit

import pandas_biosig as pbs
from pandas_biosig import calibration as C
from pandas_biosig._core.schema import ERROR_ONE_CLASS
from pandas_biosig._kernels import calibration as kernel
from pandas_biosig._kernels.rates import Sweep
from pandas_biosig.calibration._api import ERROR_PRIOR
from pandas_biosig.calibration._fit import ERROR_FIT_MISSING, ERROR_FUSE_MISSING
from pandas_biosig.calibration._folds import ERROR_FOLDS
from pandas_biosig.calibration._gain import ERROR_REFIT_SPLITS

PRIORS = (0.01, 0.5, 0.9)


def _table(tar, non, *, system="s", split="dev", start=0) -> pd.DataFrame:
    """A tidy table of one system: targets then non-targets, trial ids from ``start``."""
    scores = np.r_[tar, non]
    n = scores.size
    return pd.DataFrame({"system": system, "trial": np.arange(start, start + n),
                         "label": np.r_[np.ones(len(tar), bool), np.zeros(len(non), bool)],
                         "score": scores, "split": split})


def _dev_eval(name) -> pd.DataFrame:
    """A real score set as dev and (the same scores, other trial ids) as eval."""
    tar, non = score_set(name)
    return pd.concat([_table(tar, non), _table(tar, non, split="eval", start=10**6)],
                     ignore_index=True)


def _rows(res, system, split) -> pd.DataFrame:
    t = res.trials
    return t[(t.system == system) & (t.split == split)]


def _quiet(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pbs.BiosigWarning)
        return f(*args, **kwargs)


# ------------------------------------------------------------------ oracle: scikit-learn
@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("name", ["asv", "cm", "ex_cnn_dev", "ex_lbp_dev"])
def test_calibration_parameters_equal_sklearn(name, prior):
    """The map fitted on dev and applied to eval (the default protocol) is scikit-learn's
    unpenalised, prior-weighted logistic regression on the dev scores; asv and cm are
    the real ASVspoof 2019 scores."""
    res = C.calibrate(_dev_eval(name), prior=prior)
    held = res.params.query("fit == 'held-out'").set_index("term").estimate
    (w,), b = sklearn_fit(*score_set(name), prior)
    assert held["scale"] == pytest.approx(w, rel=1e-6)
    assert held["offset"] == pytest.approx(b, rel=1e-6, abs=1e-8)
    tar, non = score_set(name)
    ev = _rows(res, "s:linear", "eval")
    np.testing.assert_allclose(ev.score, np.r_[tar, non] * w + b, rtol=1e-6, atol=1e-6)


def _derived_fusion_table(name) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """A real score set fused with a second column derived from it (no two real systems
    scored on the same trials are at hand): the score and its signed square root."""
    tar, non = score_set(name)
    two = lambda s: np.sign(s) * np.sqrt(np.abs(s))  # noqa: E731
    a, b = _table(tar, non, system="a"), _table(two(tar), two(non), system="b")
    dev = pd.concat([a, b], ignore_index=True)
    ev = dev.assign(split="eval", trial=dev.trial + 10**6)
    x = np.column_stack([np.r_[tar, non], two(np.r_[tar, non])])
    return pd.concat([dev, ev], ignore_index=True), x, np.r_[np.ones(len(tar), bool),
                                                             np.zeros(len(non), bool)]


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("name", ["asv", "cm", "ex_fuse"])
def test_fusion_parameters_equal_sklearn(name, prior):
    if name == "ex_fuse":
        data = pbs.datasets.example_trials()
        systems = ["cnn", "gmm", "lbp"]
        tar, non = score_set("ex_fuse_dev")
    else:
        data, x, genuine = _derived_fusion_table(name)
        systems, tar, non = ["a", "b"], x[genuine], x[~genuine]
    res = C.fuse(data, systems=systems, prior=prior)
    held = res.params.query("fit == 'held-out'")
    w, b = sklearn_fit(tar, non, prior)
    np.testing.assert_allclose(held.query("term == 'weight'").estimate, w, rtol=1e-6)
    assert held.query("term == 'offset'").estimate.item() == pytest.approx(b, rel=1e-6, abs=1e-8)
    assert held.query("term == 'weight'").source.tolist() == systems


# ------------------------------------------------------------------ measures: BOSARIS, PYLLR
def _measures(trials, system, prior):
    """Cllr, minCllr (summary), normalised actual and minimum DCF at the prior with unit
    costs (dcf, Bayes threshold) of one system's eval rows."""
    t = trials[(trials.system == system) & (trials.split == "eval")]
    s = pbs.summary(t).iloc[0]
    d = pbs.dcf(t, p_target=prior).iloc[0]
    return s.cllr, s.min_cllr, d.act_dcf, d.min_dcf


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("system", ["cnn", "gmm", "lbp"])
def test_held_out_calibration_measures_equal_pyllr_and_bosaris(system, prior):
    res = C.calibrate(pbs.datasets.example_trials(), systems=system, prior=prior)
    got = _measures(res.trials, f"{system}:linear", prior)
    cllr, min_cllr, act, mindcf = ref.PYLLR_PUBLIC[(f"linear_{system}", prior)]
    assert got == pytest.approx((cllr, min_cllr, act, mindcf), rel=1e-12, abs=1e-14)
    scale, offset, b_cllr, b_min, b_act, b_mindcf = ref.BOSARIS_HELDOUT[("linear", system, prior)]
    held = res.params.query("fit == 'held-out'").set_index("term").estimate
    assert (held["scale"], held["offset"]) == pytest.approx((scale, offset), rel=1e-3, abs=1e-3)
    # BOSARIS stops its weights at ~1e-4: Cllr to 1e-5, the DCFs exactly; its min_cllr tilt
    assert got[0] == pytest.approx(b_cllr, abs=1e-5)
    assert got[1] == pytest.approx(b_min, abs=2e-6)
    assert got[2:] == pytest.approx((b_act, b_mindcf), abs=1e-12)


@pytest.mark.parametrize("prior", PRIORS)
def test_fusion_measures_equal_pyllr_and_bosaris(prior):
    res = C.fuse(pbs.datasets.example_trials(), systems=["cnn", "gmm", "lbp"], prior=prior)
    got = _measures(res.trials, "fused", prior)
    assert got == pytest.approx(ref.PYLLR_PUBLIC[("fuse", prior)], rel=1e-12, abs=1e-14)
    *weights, offset, nxe, cllr, min_cllr, act, mindcf = ref.BOSARIS_FUSION[prior]
    held = res.params.query("fit == 'held-out'")
    np.testing.assert_allclose(held.query("term == 'weight'").estimate, weights, rtol=1e-3)
    assert held.objective.iloc[0] == pytest.approx(nxe, abs=1e-7)
    assert got[0] == pytest.approx(cllr, abs=1e-5)
    assert got[2:] == pytest.approx((act, mindcf), abs=1e-12)


@pytest.mark.parametrize("system", ["cnn", "gmm", "lbp"])
def test_pav_calibration_equals_bosaris_pav_calibration(system):
    """BOSARIS's pav_calibration fitted on dev and applied to eval: the same LLRs (their
    sum and sum of squares to 1e-12), Cllr and DCFs (PYLLR on ours, BOSARIS on theirs)."""
    res = C.calibrate(pbs.datasets.example_trials(), systems=system, method="pav")
    ev = _rows(res, f"{system}:pav", "eval").score.to_numpy()
    for prior in PRIORS:
        total, squares, cllr, min_cllr, act, mindcf = ref.BOSARIS_HELDOUT[("pav", system, prior)]
        assert (ev.sum(), np.square(ev).sum()) == pytest.approx((total, squares), rel=1e-12)
        got = _measures(res.trials, f"{system}:pav", prior)
        assert got == pytest.approx(ref.PYLLR_PUBLIC[(f"pav_{system}", prior)], rel=1e-12,
                                    abs=1e-14)
        assert got[0] == pytest.approx(cllr, rel=1e-12)
        assert got[1] == pytest.approx(min_cllr, abs=2e-6)  # BOSARIS's 1e-6 tilt
        assert got[2:] == pytest.approx((act, mindcf), abs=1e-12)


@pytest.mark.parametrize("prior", PRIORS)
@pytest.mark.parametrize("name", ["asv", "cm"])
def test_in_sample_calibration_equals_bosaris_on_real_scores(name, prior):
    """Fitted and applied on the same (real) trials when asked, with the warning and
    fit='same trials': the measures BOSARIS computed on its own calibrated training
    scores."""
    scale, offset, nxe, cllr, min_cllr, act, mindcf = ref.BOSARIS_LINEAR[(name, prior)]
    with pytest.warns(pbs.BiosigWarning, match="optimistic"):
        res = C.calibrate(_table(*score_set(name)), prior=prior, on="dev", apply_to="dev")
    assert set(res.params.fit) == {"same trials"}
    assert res.params.objective.iloc[0] == pytest.approx(nxe, abs=1e-7)
    t = res.trials.query("system == 's:linear'")
    s, d = pbs.summary(t).iloc[0], pbs.dcf(t, p_target=prior).iloc[0]
    assert s.cllr == pytest.approx(cllr, abs=1e-5)
    assert s.min_cllr == pytest.approx(min_cllr, abs=2e-6)
    assert (d.act_dcf, d.min_dcf) == pytest.approx((act, mindcf), abs=1e-12)


# ------------------------------------------------------------------ PAV: hand-worked
def test_pav_transform_on_a_hand_worked_table():
    """dev: non-targets at 0, 1, 3 and targets at 2, 4, 5. With BOSARIS's added target
    below and non-target above, the labels in score order are T N N T N T T N; PAV pools
    them into (T N N) 1/3, (T N) 1/2, (T T N) 2/3 over the scores [-inf, 1], [2, 3],
    [4, inf]. The data's prior (4 targets of 8) has log odds 0, so the bins' LLRs are
    log(1/2), 0, log 2, flat inside a bin and linear between 1 and 2 and between 3 and 4."""
    dev = pd.DataFrame({"system": "s", "trial": range(6), "split": "dev",
                        "label": [0, 0, 1, 0, 1, 1], "score": [0.0, 1, 2, 3, 4, 5]})
    ev_scores = [-5.0, 0.5, 1.5, 2.5, 3.25, 10.0, 1.0]
    ev = pd.DataFrame({"system": "s", "trial": range(10, 17), "split": "eval",
                       "label": [0, 0, 1, 0, 1, 1, 1], "score": ev_scores})
    res = C.calibrate(pd.concat([dev, ev]), method="pav", folds=2)
    ln2 = math.log(2)
    want = [-ln2, -ln2, -ln2 / 2, 0.0, ln2 / 4, ln2, -ln2]
    np.testing.assert_allclose(_rows(res, "s:pav", "eval").score, want, rtol=0, atol=1e-15)
    held = res.params.query("fit == 'held-out'")
    assert held.term.item() == "bins" and held.estimate.item() == 3


# ------------------------------------------------------------------ the protocol
@pytest.fixture(scope="module")
def example():
    return pbs.datasets.example_trials()


def test_default_fits_on_dev_applies_to_eval_and_cross_fits_dev(example):
    res = C.calibrate(example, systems="gmm")
    p = res.params
    assert set(zip(p.fit, p.fitted_on, p.applied_to, strict=True)) == {
        ("held-out", "dev", "eval"), ("cross-fit", "dev", "dev")}
    assert sorted(p.query("fit == 'cross-fit'").fold.unique().tolist()) == [0, 1, 2, 3, 4]
    held = p.query("fit == 'held-out'").set_index("term").estimate
    src = example.query("system == 'gmm' and split == 'eval'").score.to_numpy()
    np.testing.assert_allclose(_rows(res, "gmm:linear", "eval").score,
                               held["scale"] * src + held["offset"], rtol=1e-14)
    # no dev trial's LLR comes from a map that saw it: each fold map applied to its fold
    dev = example.query("system == 'gmm' and split == 'dev'")
    llr = _rows(res, "gmm:linear", "dev").score.to_numpy()
    cross = p.query("fit == 'cross-fit'")
    maps = {f: g.set_index("term").estimate for f, g in cross.groupby("fold")}
    fitted = np.array([[m["scale"] * s + m["offset"] for m in maps.values()]
                       for s in dev.score])
    hits = np.isclose(fitted, llr[:, None], rtol=1e-12, atol=1e-12)
    assert (hits.sum(axis=1) >= 1).all()
    # the fold maps were fitted on 4/5 of the dev trials: 32 of the 40 subjects
    assert (cross.n_genuine + cross.n_impostor == 960).all()
    # the input is not modified; every input row is kept, in order
    pd.testing.assert_frame_equal(res.trials.iloc[: len(example)].drop(columns="calibration"),
                                  example)
    assert res.trials.calibration.iloc[: len(example)].isna().all()


def test_folds_keep_subjects_whole_and_match_between_calibrate_and_fuse(example):
    cal = C.calibrate(example, systems=["cnn", "gmm"], seed=4)
    fus = C.fuse(example, systems=["cnn", "gmm"], seed=4)
    a = _rows(cal, "cnn:linear", "dev")
    f = _rows(fus, "fused", "dev")
    # the same fold maps in both: each trial's LLR from the fold map that left it out
    fold_of = {}
    for res, name, rows in ((cal, "cnn:linear", a), (fus, "fused", f)):
        cross = res.params.query(f"fit == 'cross-fit' and system == '{name}'")
        maps = [g.sort_values("term") for _, g in cross.groupby("fold")]
        src = example.query("split == 'dev'").pivot(index="trial", columns="system",
                                                    values="score").loc[rows.trial]
        for k, m in enumerate(maps):
            w = dict(zip(m.source.fillna("offset"), m.estimate, strict=True))
            pred = w["offset"] + sum(w[s] * src[s] for s in ("cnn", "gmm") if s in w)
            hit = np.isclose(pred.to_numpy(), rows.score.to_numpy(), rtol=1e-12)
            for trial in rows.trial[hit]:
                fold_of.setdefault((name, trial), k)
    by_trial = {}
    for (_, trial), k in fold_of.items():
        by_trial.setdefault(trial, set()).add(k)
    assert all(len(v) == 1 for v in by_trial.values())
    subject = example.drop_duplicates("trial").set_index("trial").subject
    folds = pd.Series({t: next(iter(v)) for t, v in by_trial.items()})
    assert (folds.groupby(subject.loc[folds.index]).nunique() == 1).all()


def test_one_split_is_cross_fitted_never_in_sample(example):
    dev = example.query("split == 'dev'")
    res = C.calibrate(dev, systems="cnn", folds=3)
    assert set(res.params.fit) == {"cross-fit"} and res.params.fold.nunique() == 3
    no_split = dev.drop(columns="split")
    res = C.calibrate(no_split, systems="cnn", on=None)
    assert set(res.params.fit) == {"cross-fit"}
    assert res.params.fitted_on.isna().all()


def test_asking_for_the_same_trials_warns_and_says_so(example):
    with pytest.warns(pbs.BiosigWarning, match=re.escape("apply_to names that split")):
        res = C.calibrate(example, systems="cnn", on="dev", apply_to=["dev", "eval"])
    assert set(res.params.fit) == {"held-out", "same trials"}


def test_by_groups_get_maps_of_their_own(example):
    t = example.assign(half=example.subject.str[-1].isin(list("01234")))
    res = C.calibrate(t, systems="lbp", by="half")
    held = res.params.query("fit == 'held-out' and term == 'scale'")
    assert held.half.tolist() == [True, False] or held.half.tolist() == [False, True]
    assert held.estimate.nunique() == 2
    assert list(res.params.columns[:2]) == ["half", "system"]


def test_rejected_scores_stay_failures(example):
    t = example.copy()
    t.loc[t.index[:3], "score"] = np.nan
    res = C.calibrate(t, systems="cnn", nonfinite="reject")
    rows = _rows(res, "cnn:linear", "dev")
    assert rows.score.isna().sum() == 3 and len(rows) == 1200
    dropped = C.calibrate(t, systems="cnn", nonfinite="drop")
    assert len(_rows(dropped, "cnn:linear", "dev")) == 1197


def test_categorical_systems_and_the_accessor(example):
    t = example.assign(system=example.system.astype("category"))
    res = t.biosig.calibrate(systems="gmm")
    assert isinstance(res.trials.system.dtype, pd.CategoricalDtype)
    assert "gmm:linear" in res.trials.system.cat.categories
    plain = pbs.calibrate(example, systems="gmm")
    pd.testing.assert_frame_equal(res.params, plain.params)


def test_a_fused_system_is_just_another_system(example):
    res = C.fuse(example, systems=["cnn", "gmm", "lbp"])
    cmp = pbs.compare(res.trials, baseline="fused", seed=0, n_resamples=200)
    assert cmp.system_b.unique().tolist() == ["fused"] and len(cmp) == 4
    assert cmp["resample"].unique().tolist() == ["subject"]  # the valid default test
    assert cmp.threshold_from.unique().tolist() == ["dev"]
    assert np.isfinite(cmp.pvalue).all()
    assert pbs.eer(res.trials).query("system == 'fused'").shape[0] == 2


def test_compare_fusion_fixed_and_refitted_share_the_point_estimate(example):
    fixed = C.compare_fusion(example, systems=["cnn", "gmm"], seed=3, n_resamples=50)
    refit = C.compare_fusion(example, systems=["cnn", "gmm"], seed=3, n_resamples=50,
                             refit=True)
    assert fixed.system_a.tolist() == refit.system_a.tolist() == ["cnn", "gmm"]
    np.testing.assert_allclose(fixed.estimate, refit.estimate, rtol=1e-12)
    np.testing.assert_allclose(fixed.threshold_b, refit.threshold_b, rtol=1e-12)
    assert list(refit.columns) == list(pbs.verification.COMPARE_COLUMNS)
    assert (refit.null_hypothesis == C.NULL_REFIT).all()
    assert refit.method.str.contains("refitted").all()
    assert (refit.ci_low <= refit.estimate).all() and (refit.estimate <= refit.ci_high).all()
    again = C.compare_fusion(example, systems=["cnn", "gmm"], seed=3, n_resamples=50,
                             refit=True)
    pd.testing.assert_frame_equal(again, refit)


def test_compare_fusion_with_a_metric_without_threshold(example):
    res = C.compare_fusion(example, systems=["cnn", "gmm"], seed=1, n_resamples=30,
                           refit=True, metric="cllr")
    assert res.metric.unique().tolist() == ["cllr"] and res.threshold_a.isna().all()
    fused = C.fuse(example, systems=["cnn", "gmm"], seed=None)
    assert np.isfinite(res.estimate).all() and fused.systems == ("fused",)


# ------------------------------------------------------------------ bad input
def test_systems_that_do_not_share_trials_are_refused(example):
    t = example.drop(example.query("system == 'gmm' and split == 'dev'").index[:5])
    with pytest.raises(pbs.SchemaError, match="do not share the same trials"):
        C.fuse(t, systems=["cnn", "gmm"])
    with pytest.raises(pbs.SchemaError, match=re.escape(
            "systems 'cnn' and 'gmm' do not share the same trials in split 'dev': 5 trial(s) "
            "only in 'cnn' and 0 only in 'gmm'")):
        C.compare_fusion(t, systems=["cnn", "gmm"])


def test_a_fused_system_missing_from_a_split_is_refused(example):
    t = example.drop(example.query("system == 'gmm' and split == 'eval'").index)
    want = ERROR_FUSE_MISSING.format(system="gmm", split="eval", where="")
    with pytest.raises(pbs.SchemaError, match=f"^{re.escape(want)}$"):
        C.fuse(t, systems=["cnn", "gmm"])
    t = example.drop(example.query("system == 'gmm' and split == 'dev'").index)
    want = ERROR_FIT_MISSING.format(system="gmm", on="dev", where="")
    with pytest.raises(pbs.SchemaError, match=f"^{re.escape(want)}$"):
        C.calibrate(t, systems="gmm", on="dev", apply_to="eval")


def test_a_split_with_one_class_is_refused(example):
    t = example.drop(example.query("split == 'dev' and label == 'genuine'").index)
    want = ERROR_ONE_CLASS.format(where="system 'cnn', split='dev'", n_genuine=0,
                                  n_impostor=960)
    with pytest.raises(pbs.SchemaError, match=f"^{re.escape(want)}$"):
        C.calibrate(t)
    with pytest.raises(pbs.SchemaError, match="genuine and"):
        C.fuse(t)


def test_a_fold_without_a_class_is_refused():
    t = pd.DataFrame({"system": "s", "trial": range(6), "label": [1, 0, 0, 0, 0, 0],
                      "score": [3.0, 1, 2, 0, -1, 0.5]})
    with pytest.raises(pbs.SchemaError, match="too few to deal into folds"):
        C.calibrate(t, folds=2)


@pytest.mark.parametrize("prior", [0.0, 1.0, -0.2, 1.5, np.nan, True, "0.5", None])
def test_an_effective_prior_outside_the_open_unit_interval_is_refused(example, prior):
    want = ERROR_PRIOR.format(value=prior)
    for f in (C.calibrate, C.fuse, C.compare_fusion):
        with pytest.raises(ValueError, match=f"^{re.escape(want)}$"):
            f(example, prior=prior)


def test_other_bad_options_get_named_errors(example):
    with pytest.raises(ValueError, match=re.escape("method='logistic' is not one of")):
        C.calibrate(example, method="logistic")
    for bad in (1, 0, 2.5, "5", True):
        with pytest.raises(ValueError, match=re.escape(ERROR_FOLDS.format(value=bad))):
            C.calibrate(example, folds=bad)
    with pytest.raises(pbs.SchemaError, match=r"systems \['svm'\] are not systems"):
        C.calibrate(example, systems=["svm"])
    with pytest.raises(ValueError, match="at least two distinct systems"):
        C.fuse(example, systems=["cnn"])
    taken = C.calibrate(example, systems="cnn").trials.query("calibration.isna() or "
                                                              "system == 'cnn:linear'")
    with pytest.raises(pbs.SchemaError, match="'cnn:linear' is already a system"):
        C.calibrate(taken, systems="cnn")
    with pytest.raises(pbs.SchemaError, match=re.escape("on='train': column 'split' has only")):
        C.calibrate(example, on="train")
    with pytest.raises(ValueError, match=re.escape(ERROR_REFIT_SPLITS.format(on=None))):
        C.compare_fusion(example.query("split == 'dev'"), on=None, refit=True)
    with pytest.raises(ValueError, match="refit must be True or False"):
        C.compare_fusion(example, refit="yes")


def test_separable_and_redundant_scores_get_calibration_errors(example):
    sep = pd.DataFrame({"system": "s", "trial": range(8), "label": [1] * 4 + [0] * 4,
                        "score": [5.0, 6, 7, 8, 1, 2, 3, 4]})
    with pytest.raises(pbs.CalibrationError, match="PAV transform") as err:
        C.calibrate(sep, folds=2)
    assert "system 's'" in str(err.value)
    assert C.calibrate(sep, method="pav", folds=2).params.fit.eq("cross-fit").all()
    copy = example.query("system == 'cnn'").assign(system="twin")
    with pytest.raises(pbs.CalibrationError, match="linearly dependent"):
        C.fuse(pd.concat([example, copy]), systems=["cnn", "twin"])


def test_distances_are_calibrated_into_similarity_llrs(example):
    d = example.query("system == 'gmm'").assign(score=lambda t: -t.score)
    with pytest.warns(pbs.BiosigWarning, match="orientation='distance'"):
        res = C.calibrate(d, orientation="distance")
    plain = C.calibrate(example.query("system == 'gmm'"))
    np.testing.assert_allclose(_rows(res, "gmm:linear", "eval").score,
                               _rows(plain, "gmm:linear", "eval").score, rtol=1e-10)


# ------------------------------------------------------------------ the loss columns
def test_summary_and_dcf_calibration_loss_columns(example):
    s = _quiet(pbs.summary, example)
    np.testing.assert_allclose(s.cllr_loss, s.cllr - s.min_cllr)
    np.testing.assert_allclose(s.dcf_loss, s.act_dcf - s.min_dcf)
    d = pbs.dcf(example)
    np.testing.assert_allclose(s.act_dcf, d.act_dcf)  # the Bayes threshold at p = 0.01
    np.testing.assert_allclose(d.dcf_loss, d.act_dcf - d.min_dcf)
    assert not s.not_llr.any() and not d.not_llr.any()


def test_scores_that_cannot_be_llrs_are_flagged_once(example):
    """Posterior-like scores in [0.008, 0.07]: at p_target 0.01 the Bayes threshold
    log(99) lies above every score, act_dcf is the trivial 1.0; the flag says why."""
    rng = np.random.default_rng(5)
    probs = example.assign(score=np.where(example.label == "genuine",
                                          rng.uniform(0.03, 0.07, len(example)),
                                          rng.uniform(0.008, 0.04, len(example))))
    with pytest.warns(pbs.BiosigWarning, match="calibrate") as caught:
        s = pbs.summary(probs)
    assert len([w for w in caught if "log-likelihood" in str(w.message)]) == 1
    assert s.not_llr.all() and (s.act_dcf == 1.0).all()
    with pytest.warns(pbs.BiosigWarning, match="pandas_biosig.calibrate"):
        d = pbs.dcf(probs)
    assert d.not_llr.all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a criterion threshold reads no LLR: no warning
        assert pbs.dcf(probs, threshold="eer").not_llr.all()
    cal = C.calibrate(probs).trials
    flags = _quiet(pbs.summary, cal).set_index(["system", "split"]).not_llr
    assert flags.xs("eval", level="split").filter(like=":linear").eq(False).all()


def test_distances_are_not_llrs_without_a_warning(example):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = pbs.summary(example.assign(score=-example.score), orientation="distance")
    assert s.not_llr.all() and s.act_dcf.isna().all()


def test_normalized_bayes_error_variables_equal_bosaris(example):
    ds = pbs.bayes_error(example, prior_log_odds=ref.BOSARIS_PLO)
    act, mindcf = ref.BOSARIS_NORM_DCF["ex_cnn_eval"]
    ev = ds.sel(system="cnn", split="eval")
    np.testing.assert_allclose(ev.norm_act_ber, act, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ev.norm_min_ber, mindcf, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ev.norm_default_ber, 1.0)
    assert np.isnan(pbs.bayes_error(example, prior_log_odds=[np.inf]).norm_min_ber).all()


def test_cllr_curve_is_the_cross_entropy(example):
    ds = pbs.cllr_curve(example, prior_log_odds=[-3.0, 0.0, 2.0, np.inf])
    ev = example.query("system == 'lbp' and split == 'eval'")
    tar, non = ev.score[ev.label == "genuine"], ev.score[ev.label != "genuine"]
    cur = ds.sel(system="lbp", split="eval")
    for i, lam in enumerate([-3.0, 0.0, 2.0]):
        prior = 1 / (1 + math.exp(-lam))
        assert float(cur.act_nxe[i]) == pytest.approx(kernel.cross_entropy(non, tar, prior),
                                                      rel=1e-12)
        sw = Sweep(non.to_numpy(), tar.to_numpy())
        assert float(cur.min_nxe[i]) == pytest.approx(kernel.min_cross_entropy(sw, prior),
                                                      rel=1e-12)
    assert float(cur.cllr) == pytest.approx(pbs.summary(ev).cllr.item(), rel=1e-12)
    assert np.isnan(cur.act_nxe[3]) and float(cur.default_nxe[1]) == 1.0
    dist = pbs.cllr_curve(example.assign(score=-example.score), orientation="distance")
    assert np.isnan(dist.act_nxe).all() and np.isfinite(dist.min_nxe).all()


# ------------------------------------------------------------------ figures
def test_figures_draw_the_normalized_curves(example):
    import matplotlib.pyplot as plt

    ax = pbs.plot.bayes_error(example, apply_to="eval", normalized=True)
    line = [ln for ln in ax.get_lines() if ln.get_linestyle() == ":"][0]
    np.testing.assert_allclose(line.get_ydata(), 1.0)
    plt.close(ax.figure)
    res = C.calibrate(example, systems="gmm").trials
    ax = res.biosig.plot.cllr_curve(apply_to="eval")
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "gmm:linear: 0.347 / 0.318" in labels and ax.get_legend().get_title().get_text()
    plt.close(ax.figure)


def test_result_repr_says_what_it_holds(example):
    text = repr(C.calibrate(example, systems="gmm"))
    assert "gmm:linear" in text and "held-out: 2" in text and "cross-fit: 10" in text


def test_the_method_literal_lists_the_methods():
    from typing import get_args

    assert get_args(C._api.CalibrationMethod) == tuple(C.METHODS)
