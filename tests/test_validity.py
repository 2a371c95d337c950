"""The validity harness: known truth, and the headline claims of docs/validity.md."""

import numpy as np
import pytest
from scipy.stats import norm

import pandas_biosig as pbs
from pandas_biosig.validity import Setting, rejection_rates, simulate_trials, true_eer


def test_simulated_truth_matches_the_model():
    s = Setting(n_genuine=20000, n_impostor=20000, mu_a=2.0, rho=0.5, subject_sd=0.5,
                n_subjects=2000)
    t = simulate_trials(s, seed=1)
    assert t.groupby("system").size().tolist() == [40000, 40000]
    er = pbs.error_rates(t, threshold=1.0)  # the true EER threshold mu/2
    np.testing.assert_allclose(er.far, norm.sf(1.0), atol=0.01)
    np.testing.assert_allclose(er.frr, norm.cdf(-1.0), atol=0.01)
    a = t[t.system == "A"].score.to_numpy()
    b = t[t.system == "B"].score.to_numpy()
    imp = ~t[t.system == "A"].label.to_numpy()
    assert np.corrcoef(a[imp], b[imp])[0, 1] == pytest.approx(0.5, abs=0.03)
    assert true_eer(2.0) == pytest.approx(norm.cdf(-1.0))


def test_equal_hter_with_shifted_threshold():
    s = Setting(100, 100, shift_b=0.7)
    hter_a, hter_b = s.true_hter()
    assert hter_a == pytest.approx(hter_b)
    assert s.thresholds == pytest.approx((0.3, 1.7))


def test_headline_claims_quick():
    """NAIVE is over-confident when NC << NI; the HTER test holds its level under
    independence (400 replications: Monte-Carlo s.e. about 0.011)."""
    r = rejection_rates(Setting(200, 5000), n_replications=400, n_boot=99, seed=0)
    r = r.set_index("test")
    assert r.loc["naive", "rejection_rate"] > 0.2
    for test in ("hter_independent", "hter_dependent"):
        rate, se = r.loc[test, ["rejection_rate", "mc_se"]]
        assert abs(rate - 0.05) < 3 * max(se, 0.011), test


def test_defaults_report_quick():
    """The defaults harness on one protocol, a few replications (the table's shape)."""
    from pandas_biosig.validity import PROTOCOLS, defaults_report

    one = {"rho 0.5": PROTOCOLS["rho 0.5"]}
    table = defaults_report(replications=2, n_resamples=49, protocols=one)
    assert set(table.kind) == {"type-I error", "coverage", "refuses"}
    refused = table[table.kind == "refuses"]
    assert len(refused) == 5 and refused.rate.eq(1.0).all()
    assert {"compare()", "paired_bootstrap()", "ci() hter", "bootstrap() eer"} <= set(table.function)


@pytest.mark.slow
def test_every_default_is_valid():
    """The full table of docs/validity.md: every default test holds its level and every
    default interval covers (minutes; run with -m slow)."""
    from pandas_biosig.validity import defaults_report

    table = defaults_report(replications=200)
    tested = table[table.kind != "refuses"]
    # within 3 Monte-Carlo standard errors of the bounds
    bad = tested[~tested.valid & ~(
        ((tested.kind == "type-I error") & (tested.rate <= 0.075 + 3 * tested.mc_se))
        | ((tested.kind == "coverage") & (tested.rate >= 0.93 - 3 * tested.mc_se)))]
    assert bad.empty, bad


def test_pad_defaults_hold_their_level_quick():
    """pad_compare's bootstrap (thresholds re-chosen per replicate) stays near alpha on two
    equally good PAD systems; Wilson intervals of per-species APCER cover near 95 % with
    independent presentations (small, fast version of docs/validity.md's PAD rows)."""
    from pandas_biosig.validity import PadSetting, pad_coverage, pad_rejection_rates

    r = pad_rejection_rates(PadSetting(n_subjects=20), n_replications=40, n_resamples=99, seed=3)
    r = r.set_index("test")
    for test in ("bootstrap_apcer_max", "bootstrap_bpcer"):
        assert r.loc[test, "rejection_rate"] <= 0.15, test
    c = pad_coverage(PadSetting(n_subjects=20), n_replications=120, n_resamples=49, seed=4)
    wilson = c[c.interval == "wilson"].coverage
    assert 0.89 <= wilson.mean() <= 0.99
    assert (c.coverage > 0.8).all()
