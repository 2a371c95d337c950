"""threshold_guarantee: the threshold whose FAR holds on new data with stated confidence,
checked against scipy (Clopper-Pearson, the exact binomial test) and by its definition."""

import numpy as np
import pytest
from scipy import stats as sps

import pandas_biosig as pbs
from pandas_biosig._core.frames import group_sweep
from pandas_biosig._core.protocol import guaranteed_threshold, rate_design, rate_layout
from pandas_biosig._core.schema import validate_trials
from pandas_biosig._kernels.cluster import (
    ClusterDesign,
    cluster_design,
    prediction_bound,
    shared_pairs,
    upper_bound,
)
from pandas_biosig.validity import Setting, dev_eval_trials

WITHOUT_SUBJECTS = dev_eval_trials(Setting(200, 3000, n_subjects=50), seed=3).drop(
    columns="subject")


def test_the_threshold_is_the_lowest_whose_clopper_pearson_bound_holds():
    dev = WITHOUT_SUBJECTS[(WITHOUT_SUBJECTS.split == "dev") & (WITHOUT_SUBJECTS.system == "A")]
    g = validate_trials(dev).groups[0]
    sw = group_sweep(g)
    t, bound = guaranteed_threshold(g, sw, rate="far", target=0.01, confidence_level=0.95,
                                    resample="label")
    imp = g.scores[~g.genuine]
    fa = int((imp >= t).sum())
    # scipy's one-sided (95 %) Clopper-Pearson upper bound of fa in n
    assert bound == pytest.approx(sps.beta.ppf(0.95, fa + 1, imp.size - fa), rel=1e-10)
    assert bound <= 0.01
    # one more false acceptance allowed (the next impostor score down) breaks the bound
    below = np.sort(imp)[imp.size - fa - 1]
    assert sps.beta.ppf(0.95, fa + 2, imp.size - fa - 1) > 0.01
    assert (imp >= below).sum() == fa + 1
    # the empirical quantile allows more: its threshold is lower
    assert sw.fnmr_at_fmr(0.01).threshold < t


def test_realised_rates_and_the_exact_binomial_test():
    g = pbs.threshold_guarantee(WITHOUT_SUBJECTS, target=0.01, confidence_level=0.9)
    assert set(g.holds_for) == {"reported"}
    assert g.split.tolist() == ["eval", "eval"] and set(g.threshold_from) == {"dev"}
    er = pbs.error_rates(WITHOUT_SUBJECTS[WITHOUT_SUBJECTS.split == "eval"],
                         threshold=dict(zip(g.system, g.threshold, strict=True)))
    np.testing.assert_allclose(g.far, er.far)
    np.testing.assert_allclose(g.frr, er.frr)
    for row in g.itertuples():
        p = sps.binomtest(int(row.fa), int(row.n_impostor), 0.01, alternative="greater").pvalue
        assert row.pvalue == pytest.approx(p, rel=1e-9)
        assert row.reject == (p < 0.05)
    assert (g.bound <= 0.01).all()


def test_subjects_make_the_bound_and_the_threshold_more_cautious():
    t = dev_eval_trials(Setting(200, 3000, subject_sd=0.6, n_subjects=30), seed=1)
    kw = dict(target=0.02, holds_for="population")
    with_subjects = pbs.threshold_guarantee(t, **kw).set_index("system")
    without = pbs.threshold_guarantee(t.drop(columns="subject"), **kw).set_index("system")
    assert set(with_subjects["resample"]) == {"subject"} and set(without["resample"]) == {"label"}
    assert (with_subjects.threshold >= without.threshold).all()
    g = validate_trials(t[(t.split == "dev") & (t.system == "A")]).groups[0]
    b = upper_bound(rate_design(g, with_subjects.loc["A", "threshold"], "far", "subject"), 0.95)
    assert b == pytest.approx(with_subjects.loc["A", "bound"], rel=1e-12)


def test_prediction_bound_by_hand():
    # independent trials: 10 errors in 1000 dev trials, 500 new ones -> Clopper-Pearson on
    # n_c = 1 / (1/1000 + 1/500) trials with p * n_c errors
    d = ClusterDesign(0.01, 1000.0, 1.0, 999.0, 1000)
    n_c = 1 / (1 / 1000 + 1 / 500)
    expected = sps.beta.ppf(0.95, 0.01 * n_c + 1, n_c - 0.01 * n_c)
    assert prediction_bound(d, 0.95, 500.0) == pytest.approx(expected, rel=1e-12)
    # many new trials: the bound of the true rate; fewer: wider
    assert prediction_bound(d, 0.95, 1e12) == pytest.approx(upper_bound(d, 0.95), rel=1e-6)
    assert prediction_bound(d, 0.95, 100.0) > prediction_bound(d, 0.95, 500.0)
    assert np.isnan(prediction_bound(d, 0.95, 0.0))
    # people: the new trials' design effect is 1 + rho * pairs / trials
    probe = np.repeat(np.arange(20), 10)
    assert shared_pairs(probe) == (200.0, 20 * 10 * 9.0)
    errors = (np.arange(200) % 10 < 2) & (probe < 6)
    dc = cluster_design(errors, probe)
    assert 0 < dc.rho < 1
    assert dc.deff == pytest.approx(1 + dc.rho * 1800 / 200, rel=1e-9)
    loose = prediction_bound(dc._replace(rho=0.0), 0.95, 200.0, 1800.0)
    assert prediction_bound(dc, 0.95, 200.0, 1800.0) > loose > upper_bound(dc, 0.95)


def test_reported_guarantee_is_the_prediction_bound_of_the_eval_split():
    t = dev_eval_trials(Setting(200, 3000, subject_sd=0.6, n_subjects=30), seed=1)
    rep = pbs.threshold_guarantee(t, target=0.02).set_index("system")
    pop = pbs.threshold_guarantee(t, target=0.02, holds_for="population").set_index("system")
    assert set(rep.holds_for) == {"reported"} and set(pop.holds_for) == {"population"}
    assert (rep.threshold >= pop.threshold).all() and (rep.bound <= 0.02).all()
    dev = validate_trials(t[(t.split == "dev") & (t.system == "A")]).groups[0]
    ev = validate_trials(t[(t.split == "eval") & (t.system == "A")]).groups[0]
    layout = rate_layout(ev, "far", "subject")
    thr = rep.loc["A", "threshold"]
    assert prediction_bound(rate_design(dev, thr, "far", "subject"), 0.95, *layout) == \
        pytest.approx(rep.loc["A", "bound"], rel=1e-12)
    # one more false acceptance on dev (the next impostor score down) breaks the bound
    imp = np.sort(dev.scores[~dev.genuine])
    nxt = imp[imp < thr].max()
    assert prediction_bound(rate_design(dev, nxt, "far", "subject"), 0.95, *layout) > 0.02
    # on the same trials the guarantee is about the true rate
    same = pbs.threshold_guarantee(t[t.split == "dev"], target=0.02, on=None)
    assert set(same.holds_for) == {"population"}


def test_groups_and_the_frr_side():
    t = pbs.datasets.example_demographic_trials()
    g = pbs.threshold_guarantee(t, target=0.05, group="group", reference_subject=None)
    for _, rows in g.groupby(["system", "split"]):
        whole = rows[rows.group.isna()].iloc[0]
        parts = rows[rows.group.notna()]
        assert parts.fa.sum() == whole.fa and parts.n_impostor.sum() == whole.n_impostor
        assert parts.threshold.nunique() == 1 and parts.threshold.iloc[0] == whole.threshold
    r = pbs.threshold_guarantee(WITHOUT_SUBJECTS, target=0.2, rate="frr")
    assert (r.bound <= 0.2).all() and set(r.rate) == {"frr"}


def test_too_few_trials_warn_and_give_nan():
    t = WITHOUT_SUBJECTS
    with pytest.warns(pbs.BiosigWarning, match="no threshold keeps the FAR"):
        g = pbs.threshold_guarantee(t, target=1e-4)
    assert g.threshold.isna().all() and g.far.isna().all() and not g.reject.any()


def test_bad_input():
    t = WITHOUT_SUBJECTS
    with pytest.raises(ValueError, match="rate='fmr' is not one of"):
        pbs.threshold_guarantee(t, target=0.1, rate="fmr")
    with pytest.raises(ValueError, match="holds_for='eval' is not one of"):
        pbs.threshold_guarantee(t, target=0.1, holds_for="eval")
    with pytest.raises(pbs.SchemaError, match="group='nope'"):
        pbs.threshold_guarantee(t, target=0.1, group="nope")


def test_cluster_design_when_every_person_errs_at_the_pooled_rate():
    # two people, each with one error in two trials: the residual sums are all 0, so the
    # cluster variance is 0 (design effect floored at 1) and the df fall back to K - 1
    d = cluster_design(np.array([1, 0, 1, 0]), np.array([0, 0, 1, 1]))
    assert (d.p, d.deff, d.df, d.k) == (0.5, 1.0, 1.0, 2)
