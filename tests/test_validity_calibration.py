"""The validity harness of calibration and fusion: its truth, a quick run, and (slow) the
measured rates of docs/validity.md."""

import math

import numpy as np
import pytest
from scipy import integrate
from scipy.stats import norm

from pandas_biosig._kernels.rates import Sweep
from pandas_biosig.validity import (
    CALIBRATION_PROTOCOLS,
    CalibrationSetting,
    calibrated_cllr_coverage,
    fusion_rejection_rates,
    simulate_calibration_trials,
    true_cllr,
)
from pandas_biosig.validity._calibration import SCALE, SHIFT


@pytest.mark.parametrize(("scale", "offset"), [(1.7, -0.9), (3.0, -2.0), (0.4, 0.3)])
def test_true_cllr_is_the_integral(scale, offset):
    """Gauss-Hermite quadrature against scipy's adaptive quadrature of the same integral."""
    s = CalibrationSetting(mu=2.0)
    sd = scale * SCALE

    def expected(mean, sign):
        f = lambda v: norm.pdf(v, mean, sd) * np.logaddexp(0.0, sign * v)  # noqa: E731
        return integrate.quad(f, mean - 40 * sd, mean + 40 * sd, limit=200)[0]

    tar = expected(scale * (SCALE * s.mu + SHIFT) + offset, -1.0)
    non = expected(scale * SHIFT + offset, 1.0)
    assert true_cllr(s, scale, offset) == pytest.approx((tar + non) / (2 * math.log(2)),
                                                        rel=1e-10)


def test_the_simulated_noise_says_nothing_and_a_is_not_calibrated():
    t = simulate_calibration_trials(CalibrationSetting(2000, 20000, n_subjects=500), seed=3)
    dev = t[t.split == "dev"]
    auc = {s: Sweep.from_scores(g.score.to_numpy(), g.label.to_numpy()).auc()
           for s, g in dev.groupby("system")}
    assert abs(auc["noise"] - 0.5) < 0.02 and auc["A"] > 0.9
    a = dev[dev.system == "A"]
    # A's impostor scores are 0.5 x + 1 with x ~ N(0, 1): mean 1, sd 0.5
    assert a.score[~a.label].mean() == pytest.approx(1.0, abs=0.03)
    assert a.score[~a.label].std() == pytest.approx(0.5, abs=0.03)
    assert list(CALIBRATION_PROTOCOLS)[0].startswith("subject effects")


def test_a_quick_run_of_each_measure():
    small = CalibrationSetting(40, 400, n_subjects=20)
    for refit in (False, True):
        r = fusion_rejection_rates(small, n_replications=2, refit=refit, n_resamples=19)
        assert r["n"] == 2 and 0 <= r["false gain"] <= r["type-I error"] <= 1
    c = calibrated_cllr_coverage(small, n_replications=2, n_resamples=49)
    assert c["n"] == 2 and 0 <= c["above"] <= 1 - c["coverage"] + 1e-12


# --------------------------------------------------------------------- the measured rates
@pytest.mark.slow
@pytest.mark.parametrize("name", list(CALIBRATION_PROTOCOLS))
def test_fusion_with_noise_rarely_claims_a_gain(name):
    """docs/validity.md: with the weights fixed, the test claims a gain of A + noise over A
    in at most ~2.5 % of datasets (two-sided, alpha 0.05)."""
    r = fusion_rejection_rates(CALIBRATION_PROTOCOLS[name], n_replications=400, seed=0)
    assert r["false gain"] <= 0.025 + 3 * math.sqrt(0.025 * 0.975 / 400)
    assert r["type-I error"] <= 0.05 + 4 * math.sqrt(0.05 * 0.95 / 400)


@pytest.mark.slow
def test_refitted_fusion_with_noise_rarely_claims_a_gain():
    r = fusion_rejection_rates(CALIBRATION_PROTOCOLS["independent trials, 100/1000"],
                               n_replications=100, refit=True, n_resamples=199, seed=0)
    assert r["false gain"] <= 0.025 + 3 * math.sqrt(0.025 * 0.975 / 100)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "floor"), [("independent trials, 100/1000", 0.91),
                                             ("subject effects (sd 0.5), 200/2000", 0.86)])
def test_calibrated_cllr_coverage(name, floor):
    """docs/validity.md: the default (percentile) interval of the calibrated Cllr covers
    0.93-0.94 with independent trials and only about 0.90 with 100 clustered subjects."""
    c = calibrated_cllr_coverage(CALIBRATION_PROTOCOLS[name], n_replications=300, seed=0)
    assert c["coverage"] >= floor
