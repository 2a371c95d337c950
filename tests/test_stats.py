"""Tests of the scalar statistical-test API (pandas_biosig.stats, pandas_biosig._core.results).

Four kinds, in this order: reference numbers of the papers (tests/reference_stats.py),
oracles (statsmodels, scipy), Hypothesis properties, and input validation.
"""

from __future__ import annotations

import ast
import dataclasses
import math
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from pandas_biosig import stats as pst
from pandas_biosig._core.results import ConfidenceInterval, IntervalResult, TestResult
from pandas_biosig._core.validation import (
    ERROR_ALPHA,
    ERROR_ALTERNATIVE,
    ERROR_CONFIDENCE_LEVEL,
    ERROR_COUNT,
    ERROR_FLAG,
    ERROR_POSITIVE_COUNT,
    ERROR_RATE,
)
from pandas_biosig._kernels import inference
from pandas_biosig.stats import (
    ALTERNATIVES,
    HTER_CI_METHODS,
    HTER_TEST_METHODS,
    MCNEMAR_METHODS,
    RATE_CI_METHODS,
    RECOGNITION_METHODS,
    dcf_ci,
    eer_bound,
    hter_ci,
    hter_test,
    mcnemar,
    mcnemar_table,
    min_significant_eer_difference,
    rate_ci,
    recognition_rate_test,
    sign_test,
)
from pandas_biosig.stats._common import (
    ERROR_COST,
    ERROR_COUNT_EXCEEDS,
    ERROR_DISCORDANT_EXCEED,
    ERROR_DISCORDANT_MISSING,
    ERROR_DISCORDANT_NONE,
    ERROR_DISCORDANT_UNUSED,
    ERROR_EER_SUM,
    ERROR_METHOD,
    ERROR_NO_RUNS,
    ERROR_P_TARGET,
    ERROR_R12_MISSING,
    ERROR_R12_RANGE,
    ERROR_R12_UNUSED,
    ERROR_TABLE,
)

try:  # works whether or not tests/ is a package
    from . import reference_stats as ref
except ImportError:
    import reference_stats as ref

ROOT = Path(__file__).resolve().parents[1]


def assert_printed(actual: float, printed: ref.Printed, *, slack_units: float = 0.5) -> None:
    """``actual`` reproduces ``printed`` to its printed precision (half a unit by default)."""
    tolerance = slack_units * 10.0 ** (-printed.decimals) + 1e-12
    assert abs(actual - printed.value) <= tolerance, (actual, printed)


def width_percent(interval: ConfidenceInterval) -> float:
    return 100.0 * (interval.high - interval.low)


def msg(template: str, **kwargs) -> str:
    """The exact error message as a regular expression for ``pytest.raises(match=...)``."""
    return re.escape(template.format(**kwargs))


# =========================================================================== reference numbers


@pytest.mark.parametrize("method", HTER_CI_METHODS)
@pytest.mark.parametrize("level", ref.LEVELS)
def test_hter_ci_xm2vts_widths(method, level):
    res = hter_ci(**ref.XM2VTS_A, **ref.XM2VTS, method=method)
    printed = ref.XM2VTS_A_WIDTHS[method][level]
    slack = ref.NAIVE_95_SLACK_UNITS if (method, level) == ("naive", 0.95) else 0.5
    width = width_percent(res.confidence_interval(confidence_level=level))
    assert_printed(width, printed, slack_units=slack)
    assert width == pytest.approx(200.0 * sps.norm.ppf((1 + level) / 2) * res.se)


def test_naive_95_width_is_the_documented_rounding_case():
    # SPEC / B&M print 0.156 %; the formula gives 0.1565045 %, see reference_stats.py
    res = hter_ci(**ref.XM2VTS_A, **ref.XM2VTS, method="naive")
    width = width_percent(res.confidence_interval(confidence_level=0.95))
    assert width == pytest.approx(0.1565045, abs=1e-7)


@pytest.mark.parametrize("method", HTER_CI_METHODS)
@pytest.mark.parametrize("level", ref.LEVELS)
def test_hter_ci_nist_widths(method, level):
    res = hter_ci(**ref.NIST_C, **ref.NIST, method=method)
    width = width_percent(res.confidence_interval(confidence_level=level))
    assert_printed(width, ref.NIST_C_WIDTHS[method][level])


def test_hter_ci_estimates():
    assert hter_ci(**ref.XM2VTS_A, **ref.XM2VTS).estimate == pytest.approx(0.01825)
    # CLASS: (FA + FR)/(NI + NC) = (1288 + 10)/112400
    res = hter_ci(**ref.XM2VTS_A, **ref.XM2VTS, method="class")
    assert res.estimate == pytest.approx(1298 / 112400)
    assert res.n == 112400


def _xm2vts_ab(method):
    return hter_test(
        ref.XM2VTS_A["far"],
        ref.XM2VTS_A["frr"],
        ref.XM2VTS_B["far"],
        ref.XM2VTS_B["frr"],
        **ref.XM2VTS,
        method=method,
    )


@pytest.mark.parametrize("method", sorted(ref.XM2VTS_AB))
def test_hter_test_xm2vts(method):
    res = _xm2vts_ab(method)
    expected = ref.XM2VTS_AB[method]
    assert_printed(res.se, expected["se"])
    assert_printed(100.0 * res.confidence, expected["delta"])
    assert res.confidence == pytest.approx(1.0 - res.pvalue, abs=1e-15)
    assert res.pvalue == pytest.approx(2.0 * sps.norm.sf(abs(res.statistic)))


def test_hter_test_xm2vts_independent_not_significant_naive_is():
    assert _xm2vts_ab("independent").pvalue > 0.1
    assert _xm2vts_ab("naive").pvalue < 1e-10
    assert _xm2vts_ab("class").pvalue < 1e-10
    assert _xm2vts_ab("independent").estimate == pytest.approx(0.01825 - 0.0235)


def test_hter_test_nist_independent():
    res = hter_test(
        ref.NIST_C["far"], ref.NIST_C["frr"], ref.NIST_D["far"], ref.NIST_D["frr"], **ref.NIST
    )
    assert_printed(res.se, ref.NIST_CD_INDEPENDENT["se"])
    assert_printed(100.0 * res.confidence, ref.NIST_CD_INDEPENDENT["delta"])


def test_hter_test_dependent_hand_case():
    case = ref.DEPENDENT_CASE
    res = hter_test(*case["args"], **case["kwargs"], method="dependent")
    assert res.estimate == pytest.approx(case["estimate"])
    assert res.se == pytest.approx(case["se"])
    assert res.statistic == pytest.approx(case["statistic"])
    assert_printed(res.pvalue, case["pvalue"])
    # the estimate agrees with the one implied by the discordant counts
    kw = case["kwargs"]
    implied = (
        (kw["ni_ba"] - kw["ni_ab"]) / kw["n_impostor"]
        + (kw["nc_ba"] - kw["nc_ab"]) / kw["n_genuine"]
    ) / 2
    assert res.estimate == pytest.approx(implied)


def test_dcf_ci_reduces_to_hter_ci():
    hter = hter_ci(**ref.XM2VTS_A, **ref.XM2VTS)
    dcf = dcf_ci(**ref.XM2VTS_A, **ref.XM2VTS, p_target=0.5)
    # DCF with P = 0.5 and unit costs is HTER
    assert dcf.estimate == pytest.approx(hter.estimate)
    assert dcf.se == pytest.approx(hter.se)
    normalized = dcf_ci(**ref.XM2VTS_A, **ref.XM2VTS, p_target=0.5, normalize=True)
    assert normalized.estimate == pytest.approx(2 * hter.estimate)
    assert normalized.se == pytest.approx(2 * hter.se)


def test_dcf_ci_nist_costs_match_eq14():
    # B&M eq. 14: C_miss = 10, P(client) = 0.01, C_fa = 1, P(impostor) = 0.99
    far, frr = ref.NIST_C["far"], ref.NIST_C["frr"]
    ni, nc = ref.NIST["n_impostor"], ref.NIST["n_genuine"]
    res = dcf_ci(far, frr, n_impostor=ni, n_genuine=nc, p_target=0.01, c_miss=10, c_fa=1)
    expected_var = far * (1 - far) / (0.99**-2 * ni) + frr * (1 - frr) / (100 * nc)
    assert res.se == pytest.approx(math.sqrt(expected_var))
    assert res.estimate == pytest.approx(10 * 0.01 * frr + 0.99 * far)
    norm = dcf_ci(
        far, frr, n_impostor=ni, n_genuine=nc, p_target=0.01, c_miss=10, c_fa=1, normalize=True
    )
    assert norm.estimate == pytest.approx(res.estimate / min(0.1, 0.99))


def test_mcnemar_hofbauer_uhl_counts():
    case, expected = ref.MCNEMAR_HU, ref.MCNEMAR_HU_EXPECTED
    corrected = mcnemar(case["b"], case["c"], n=case["n"], method="chi2_corrected")
    plain = mcnemar(case["b"], case["c"], n=case["n"], method="chi2")
    exact = mcnemar(case["b"], case["c"], n=case["n"])
    assert_printed(corrected.statistic, expected["chi2_corrected"])
    assert_printed(plain.statistic, expected["chi2"])
    assert_printed(corrected.pvalue, expected["pvalue_corrected"])
    assert_printed(exact.pvalue, expected["pvalue_exact"])
    assert corrected.estimate == pytest.approx((26055 - 26707) / 3480841)
    assert corrected.confidence == pytest.approx(1 - corrected.pvalue)


def test_eer_bound_example_1():
    case = ref.EER_EXAMPLE_1
    res = eer_bound(case["eer_a"], case["eer_b"], n=case["n"])
    assert_printed(res.statistic, case["chi2"])
    assert_printed(res.pvalue, case["pvalue"])
    assert res.estimate == pytest.approx(case["eer_a"] - case["eer_b"])
    assert res.alternative == "two-sided"


def test_eer_bound_is_an_upper_bound_on_mcnemar():
    # the actual McNemar test on the Example 1 data is far more significant than the bound
    case = ref.EER_EXAMPLE_1
    bound = eer_bound(case["eer_a"], case["eer_b"], n=case["n"])
    actual = mcnemar(26055, 26707, n=3480841, method="chi2")
    assert actual.pvalue <= bound.pvalue


def test_eer_bound_example_2_log10_pvalue_finite():
    case = ref.EER_EXAMPLE_2
    res = eer_bound(case["eer_a"], case["eer_b"], n=case["n"])
    assert_printed(res.statistic, case["chi2"])
    assert res.pvalue < case["pvalue_below"]
    assert math.isfinite(res.log10_pvalue)
    assert_printed(res.log10_pvalue, case["log10_pvalue"])
    # independent check: asymptotic series of the normal tail,
    # log Q(z) = -z²/2 - log(z·sqrt(2π)) + log(1 - 1/z² + 3/z⁴ - 15/z⁶)
    z = math.sqrt(res.statistic)
    log_q = (
        -(z**2) / 2
        - math.log(z * math.sqrt(2 * math.pi))
        + math.log(1 - z**-2 + 3 * z**-4 - 15 * z**-6)
    )
    assert res.log10_pvalue == pytest.approx((math.log(2) + log_q) / math.log(10), abs=1e-9)


def test_eer_bound_ma_vs_daugman():
    case = ref.EER_MA_DAUGMAN
    res = eer_bound(case["eer_a"], case["eer_b"], n=case["n"])
    assert_printed(res.statistic, case["chi2"])
    assert_printed(res.pvalue, case["pvalue"])


def test_min_significant_eer_difference_example_3():
    case = ref.EER_EXAMPLE_3
    delta = min_significant_eer_difference(case["eer_max"], n=case["n"], alpha=case["alpha"])
    assert_printed(100.0 * delta, case["delta_percent"])
    # at exactly that difference, with both EERs at EER_M, the bound is at the level
    chi2 = case["n"] * delta**2 / (2 * case["eer_max"])
    assert sps.chi2.sf(chi2, 1) == pytest.approx(case["alpha"])


def test_gunter_simple():
    case = ref.GUNTER_SIMPLE
    res = recognition_rate_test(case["r1"], case["r2"], n=case["n"])
    assert_printed(res.statistic, case["statistic"])
    assert_printed(res.pvalue, case["pvalue"])
    assert res.alternative == "greater"
    assert res.estimate == pytest.approx(1 / 3)


def test_gunter_paired():
    case = ref.GUNTER_PAIRED
    res = recognition_rate_test(
        case["r1"], case["r2"], n=case["n"], r12=case["r12"], method="paired"
    )
    assert_printed(res.se**2 * case["n"], case["sigma_x"])
    assert_printed(res.statistic, case["statistic"])
    assert_printed(res.pvalue, case["pvalue"])
    simple = recognition_rate_test(case["r1"], case["r2"], n=case["n"])
    assert_printed(simple.statistic, ref.GUNTER_PAIRED_AS_SIMPLE["statistic"])


def test_gunter_paired_matches_its_definition():
    # σx is the variance of X ∈ {+1, 0, -1} with P(+1) = R1 - R12, P(-1) = R2 - R12
    r1, r2, r12 = 0.7, 0.55, 0.45
    values = np.array([1.0, -1.0, 0.0])
    probs = np.array([r1 - r12, r2 - r12, 1 - (r1 - r12) - (r2 - r12)])
    mean = values @ probs
    var = ((values - mean) ** 2) @ probs
    res = recognition_rate_test(r1, r2, n=50, r12=r12, method="paired")
    assert res.se**2 * 50 == pytest.approx(var)


def test_sign_test_reference():
    case = ref.SIGN_TEST
    res = sign_test(case["wins_a"], case["wins_b"])
    assert_printed(res.pvalue, case["pvalue"])
    assert res.statistic == 4
    assert res.estimate == 1.0
    assert res.n == 4


def test_sign_test_uses_half_to_the_n():
    # the corrected eq. 7, sum_{i=Z}^{n} C(n, i)·0.5^n (the seed prints 0.5^i)
    for wins, n in [(3, 5), (7, 10), (10, 12)]:
        expected = sum(math.comb(n, i) for i in range(wins, n + 1)) * 0.5**n
        assert sign_test(wins, n - wins).pvalue == pytest.approx(expected)


# =========================================================================== oracles


def _ours_mcnemar(table):
    return (
        mcnemar_table(table, method="exact").pvalue,
        mcnemar_table(table, method="chi2_corrected").statistic,
    )


def _statsmodels_mcnemar(table):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    return (
        sm_mcnemar(table, exact=True).pvalue,
        sm_mcnemar(table, exact=False, correction=True).statistic,
    )


@pytest.mark.parametrize("impl", [_ours_mcnemar, _statsmodels_mcnemar], ids=["ours", "statsmodels"])
@pytest.mark.parametrize(("table", "exact_p", "chi2_corrected"), ref.MCNEMAR_TABLES)
def test_mcnemar_oracle_values(impl, table, exact_p, chi2_corrected):
    p, chi2 = impl(table)
    assert p == pytest.approx(exact_p, rel=1e-4)
    assert chi2 == pytest.approx(chi2_corrected, rel=1e-4)


@pytest.mark.parametrize(("table", "exact_p", "chi2_corrected"), ref.MCNEMAR_TABLES)
@pytest.mark.parametrize(
    ("method", "exact", "correction"),
    [("exact", True, False), ("chi2", False, False), ("chi2_corrected", False, True)],
)
def test_mcnemar_agrees_with_statsmodels(table, exact_p, chi2_corrected, method, exact, correction):
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    ours = mcnemar_table(table, method=method)
    theirs = sm_mcnemar(table, exact=exact, correction=correction)
    assert ours.pvalue == pytest.approx(theirs.pvalue, rel=1e-10)
    if method != "exact":
        assert ours.statistic == pytest.approx(theirs.statistic, rel=1e-12)
    # the layout: b = A wrong B right = table[1][0], c = table[0][1]
    assert ours.estimate == pytest.approx((table[1][0] - table[0][1]) / np.sum(table))


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(("b", "c"), [(0, 0), (0, 3), (5, 1), (12, 30), (400, 380)])
def test_mcnemar_exact_is_scipy_binomtest(b, c, alternative):
    res = mcnemar(b, c, alternative=alternative)
    expected = 1.0 if b + c == 0 else sps.binomtest(b, b + c, 0.5, alternative=alternative).pvalue
    assert res.pvalue == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(("b", "c"), [(0, 3), (5, 1), (4, 4), (12, 30), (400, 380)])
def test_mcnemar_midp_definition(b, c, alternative):
    n = b + c
    binom = sps.binom(n, 0.5)
    if alternative == "two-sided":
        m = min(b, c)
        expected = min(1.0, 2 * binom.cdf(m) - binom.pmf(m))
    elif alternative == "greater":
        expected = binom.sf(b - 1) - 0.5 * binom.pmf(b)
    else:
        expected = binom.cdf(b) - 0.5 * binom.pmf(b)
    res = mcnemar(b, c, method="midp", alternative=alternative)
    assert res.pvalue == pytest.approx(expected, rel=1e-10)
    assert res.pvalue <= mcnemar(b, c, alternative=alternative).pvalue


@pytest.mark.parametrize(("b", "c"), [(0, 3), (5, 1), (12, 30), (400, 380)])
def test_mcnemar_one_sided_chi2_halves_two_sided(b, c):
    two = mcnemar(b, c, method="chi2")
    side = "greater" if b > c else "less"
    assert mcnemar(b, c, method="chi2", alternative=side).pvalue == pytest.approx(two.pvalue / 2)
    assert two.pvalue == pytest.approx(sps.chi2.sf(two.statistic, 1))


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize(("wins_a", "wins_b"), [(4, 0), (0, 4), (3, 2), (9, 1), (1, 30)])
def test_sign_test_is_scipy_binomtest(wins_a, wins_b, alternative):
    res = sign_test(wins_a, wins_b, alternative=alternative)
    expected = sps.binomtest(wins_a, wins_a + wins_b, 0.5, alternative=alternative)
    assert res.pvalue == pytest.approx(expected.pvalue, rel=1e-12)
    ci = res.confidence_interval(confidence_level=0.9)
    prop = expected.proportion_ci(confidence_level=0.9, method="exact")
    assert ci.low == pytest.approx(2 * prop.low - 1, abs=1e-12)
    assert ci.high == pytest.approx(2 * prop.high - 1, abs=1e-12)


@pytest.mark.parametrize("method", RATE_CI_METHODS)
@pytest.mark.parametrize(("errors", "n"), [(0, 50), (10, 400), (1288, 112000), (7, 7)])
def test_rate_ci_is_statsmodels(method, errors, n):
    from statsmodels.stats.proportion import proportion_confint

    res = rate_ci(errors, n, method=method)
    assert res.estimate == errors / n
    for level in ref.LEVELS:
        ci = res.confidence_interval(confidence_level=level)
        low, high = proportion_confint(errors, n, alpha=1 - level, method=method)
        # boundary rule (Brown et al. 2001): 0 errors -> low = 0, n errors -> high = 1;
        # statsmodels agrees except for Jeffreys
        low = 0.0 if errors == 0 else low
        high = 1.0 if errors == n else high
        assert ci == (pytest.approx(low, abs=1e-15), pytest.approx(high))


def test_rate_ci_jeffreys_boundary_rule():
    from statsmodels.stats.proportion import proportion_confint

    raw_low, _ = proportion_confint(0, 50, alpha=0.05, method="jeffreys")
    assert raw_low > 0.0  # statsmodels: the interval excludes the estimate 0
    assert rate_ci(0, 50, method="jeffreys").confidence_interval().low == 0.0
    assert rate_ci(50, 50, method="jeffreys").confidence_interval().high == 1.0


def test_rate_ci_default_is_wilson_and_se_only_for_normal():
    assert "Wilson" in rate_ci(3, 100).method
    assert rate_ci(3, 100).se is None
    assert rate_ci(3, 100, method="normal").se == pytest.approx(math.sqrt(0.03 * 0.97 / 100))


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("z", [-40.0, -3.0, -0.5, 0.0, 0.7, 2.5, 10.0])
def test_normal_pvalue_kernel_is_scipy(z, alternative):
    p, log10p = inference.normal_pvalue(z, alternative)
    if alternative == "two-sided":
        expected = min(1.0, 2 * sps.norm.sf(abs(z)))
        log_expected = min(0.0, math.log(2) + sps.norm.logsf(abs(z)))
    elif alternative == "greater":
        expected, log_expected = sps.norm.sf(z), sps.norm.logsf(z)
    else:
        expected, log_expected = sps.norm.cdf(z), sps.norm.logcdf(z)
    assert p == pytest.approx(expected, rel=1e-12)
    assert log10p == pytest.approx(log_expected / math.log(10), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("x", [0.0, 0.5, 3.84, 20.0, 300.0])
def test_chi2_kernel_is_scipy(x):
    p, log10p = inference.chi2_1_pvalue(x)
    assert p == pytest.approx(sps.chi2.sf(x, 1), rel=1e-10)
    assert log10p == pytest.approx(sps.chi2.logsf(x, 1) / math.log(10), rel=1e-10, abs=1e-15)


def test_chi2_kernel_far_tail_where_scipy_underflows():
    p, log10p = inference.chi2_1_pvalue(2051.8098591549297)
    assert p == 0.0
    assert log10p == pytest.approx(-447.2992, abs=1e-3)


def test_binomial_log10_pvalue_far_tail():
    # b = 0, c = 5000: p = 2·0.5^5000 underflows; log10 p = log10 2 - 5000·log10 2
    res = mcnemar(0, 5000)
    assert res.pvalue == 0.0
    assert res.log10_pvalue == pytest.approx((1 - 5000) * math.log10(2), rel=1e-12)
    greater = mcnemar(5000, 0, alternative="greater")
    assert greater.log10_pvalue == pytest.approx(-5000 * math.log10(2), rel=1e-12)
    mid = mcnemar(0, 5000, method="midp")  # P(X = 0) = 0.5^5000
    assert mid.log10_pvalue == pytest.approx(-5000 * math.log10(2), rel=1e-12)
    # a tail that is a sum of many terms: compare with scipy's log-space binomial sf
    res = mcnemar(100, 4000)
    expected = (math.log(2) + sps.binom.logcdf(100, 4100, 0.5)) / math.log(10)
    if math.isfinite(expected):
        assert res.log10_pvalue == pytest.approx(expected, rel=1e-9)
    assert math.isfinite(res.log10_pvalue)
    assert res.log10_pvalue < -300


def test_normal_tests_log10_far_tail():
    res = hter_test(0.5, 0.5, 0.0, 0.0, n_impostor=10**6, n_genuine=10**6)
    assert res.pvalue == 0.0
    assert math.isfinite(res.log10_pvalue)
    z = abs(res.statistic)
    log_q = -(z**2) / 2 - math.log(z * math.sqrt(2 * math.pi)) + math.log(1 - z**-2 + 3 * z**-4)
    assert res.log10_pvalue == pytest.approx((math.log(2) + log_q) / math.log(10), rel=1e-9)


# =========================================================================== result objects


def _all_results():
    """One result of every public function (for schema checks)."""
    return {
        "hter_ci": hter_ci(0.01, 0.02, n_impostor=1000, n_genuine=100),
        "dcf_ci": dcf_ci(0.01, 0.02, n_impostor=1000, n_genuine=100, p_target=0.1),
        "rate_ci": rate_ci(3, 100),
        "hter_test": hter_test(0.01, 0.02, 0.02, 0.03, n_impostor=1000, n_genuine=100),
        "mcnemar": mcnemar(3, 9, n=100),
        "mcnemar_table": mcnemar_table([[80, 9], [3, 8]]),
        "eer_bound": eer_bound(0.01, 0.02, n=1000),
        "recognition_rate_test": recognition_rate_test(0.8, 0.7, n=100),
        "sign_test": sign_test(5, 2),
    }


TEST_FIELDS = ["statistic", "pvalue", "log10_pvalue", "estimate", "alternative", "method", "n"]
INTERVAL_FIELDS = ["estimate", "se", "method", "n"]


@pytest.mark.parametrize("name", list(_all_results()))
def test_result_schema_is_stable(name):
    res = _all_results()[name]
    row = res.to_dict()
    if isinstance(res, TestResult):
        assert list(row) == TEST_FIELDS
        for key in ("statistic", "pvalue", "log10_pvalue", "estimate"):
            assert type(row[key]) is float
        assert isinstance(row["method"], str) and row["method"]
        assert row["alternative"] in ALTERNATIVES
    else:
        assert isinstance(res, IntervalResult)
        assert list(row) == INTERVAL_FIELDS
        assert type(row["estimate"]) is float
    assert row["n"] is None or type(row["n"]) is int
    ci = res.confidence_interval()
    assert isinstance(ci, ConfidenceInterval)
    assert type(ci.low) is float and type(ci.high) is float
    assert ci.low <= ci.high


@pytest.mark.parametrize("name", list(_all_results()))
def test_results_are_frozen(name):
    res = _all_results()[name]
    with pytest.raises(dataclasses.FrozenInstanceError):
        res.estimate = 0.0


def test_to_dict_builds_a_dataframe_row():
    pd = pytest.importorskip("pandas")
    rows = [_all_results()[k].to_dict() for k in ("hter_test", "mcnemar", "eer_bound")]
    frame = pd.DataFrame(rows)
    assert list(frame.columns) == TEST_FIELDS
    assert frame["pvalue"].dtype == float


def test_test_result_is_not_collected_by_pytest():
    assert TestResult.__test__ is False


def test_confidence_is_nan_for_exact_tests_and_delta_otherwise():
    assert math.isnan(mcnemar(3, 9).confidence)
    assert math.isnan(sign_test(5, 2).confidence)
    res = mcnemar(3, 9, method="chi2")
    assert res.confidence == pytest.approx(sps.chi2.cdf(res.statistic, 1))
    one_sided = recognition_rate_test(0.8, 0.7, n=100)
    two_sided = recognition_rate_test(0.8, 0.7, n=100, alternative="two-sided")
    assert one_sided.confidence == pytest.approx(1 - two_sided.pvalue)


def test_mcnemar_without_n_has_no_estimate():
    res = mcnemar(26055, 26707)
    assert math.isnan(res.estimate)
    assert res.n is None
    ci = res.confidence_interval()
    assert math.isnan(ci.low) and math.isnan(ci.high)
    assert res.pvalue == mcnemar(26055, 26707, n=3480841).pvalue


@pytest.mark.parametrize("method", MCNEMAR_METHODS)
@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_mcnemar_no_discordant_pairs(method, alternative):
    res = mcnemar(0, 0, n=10, method=method, alternative=alternative)
    assert res.statistic == 0.0
    assert res.pvalue == 1.0
    assert res.log10_pvalue == 0.0
    assert res.estimate == 0.0
    ci = res.confidence_interval()
    assert ci.low <= 0.0 <= ci.high
    if alternative == "two-sided":
        assert ci == (0.0, 0.0)


def test_mcnemar_corrected_equal_counts_gives_one():
    # statsmodels reports (|b - c| - 1)²/(b + c) = 1/(b + c) here; the numerator is clipped
    res = mcnemar(4, 4, method="chi2_corrected")
    assert res.statistic == 0.0
    assert res.pvalue == 1.0


def test_mcnemar_paired_difference_interval():
    # Wald interval of the paired difference (b - c)/n, Agresti (2013)
    b, c, n = 30, 12, 200
    res = mcnemar(b, c, n=n)
    se = math.sqrt(((b + c) / n - ((b - c) / n) ** 2) / n)
    ci = res.confidence_interval(confidence_level=0.95)
    z = sps.norm.ppf(0.975)
    assert ci.low == pytest.approx((b - c) / n - z * se)
    assert ci.high == pytest.approx((b - c) / n + z * se)


def test_one_sided_intervals_are_half_infinite():
    greater = recognition_rate_test(0.8, 0.7, n=100)
    ci = greater.confidence_interval(confidence_level=0.95)
    assert ci.high == math.inf
    assert ci.low == pytest.approx(0.1 - sps.norm.ppf(0.95) * greater.se)
    less = recognition_rate_test(0.8, 0.7, n=100, alternative="less")
    ci = less.confidence_interval(confidence_level=0.95)
    assert ci.low == -math.inf
    assert ci.high == pytest.approx(0.1 + sps.norm.ppf(0.95) * less.se)
    sign = sign_test(4, 0).confidence_interval(confidence_level=0.95)
    assert sign.high == 1.0
    assert sign.low == pytest.approx(2 * 0.05**0.25 - 1)


def test_eer_bound_interval_is_the_widest_wald_interval():
    res = eer_bound(0.02, 0.01, n=5000)
    # b + c = (EER_A + EER_B)·N, b - c = (EER_A - EER_B)·N
    b_plus_c, b_minus_c = 0.03 * 5000, 0.01 * 5000
    b, c = (b_plus_c + b_minus_c) / 2, (b_plus_c - b_minus_c) / 2
    assert res.confidence_interval() == pytest.approx(
        mcnemar(int(b), int(c), n=5000).confidence_interval()
    )


def test_eer_bound_degenerate_cases():
    res = eer_bound(0.0, 0.0, n=100)
    assert res.statistic == 0.0 and res.pvalue == 1.0
    assert eer_bound(0.5, 0.5, n=100).pvalue == 1.0


def test_zero_standard_error_conventions():
    same = hter_test(0.0, 0.0, 0.0, 0.0, n_impostor=10, n_genuine=10)
    assert same.statistic == 0.0 and same.pvalue == 1.0
    apart = hter_test(0.0, 0.0, 1.0, 1.0, n_impostor=10, n_genuine=10)
    assert apart.statistic == -math.inf and apart.pvalue == 0.0
    assert apart.log10_pvalue == -math.inf


def test_integral_floats_are_accepted_as_counts():
    a = hter_ci(0.01, 0.02, n_impostor=1000.0, n_genuine=np.int64(100))
    b = hter_ci(0.01, 0.02, n_impostor=1000, n_genuine=100)
    assert a == b


# =========================================================================== properties

rates = st.floats(min_value=0.0, max_value=1.0, allow_nan=False)
inner_rates = st.floats(min_value=1e-4, max_value=1 - 1e-4, allow_nan=False)
sizes = st.integers(min_value=1, max_value=10**7)
# one-sided intervals contain the estimate only for levels of at least 0.5
levels = st.floats(min_value=0.5, max_value=0.999)

# no example database: do not write into the shared .hypothesis/ directory
PROPERTY = settings(database=None, deadline=None)


@st.composite
def hter_pairs(draw):
    """Two systems on the same trials, with discordant counts that fit the class sizes."""
    ni = draw(st.integers(min_value=1, max_value=10**6))
    nc = draw(st.integers(min_value=1, max_value=10**5))
    ni_ab = draw(st.integers(min_value=0, max_value=ni))
    ni_ba = draw(st.integers(min_value=0, max_value=ni - ni_ab))
    nc_ab = draw(st.integers(min_value=0, max_value=nc))
    nc_ba = draw(st.integers(min_value=0, max_value=nc - nc_ab))
    rates_ = [draw(rates) for _ in range(4)]
    counts = {"ni_ab": ni_ab, "ni_ba": ni_ba, "nc_ab": nc_ab, "nc_ba": nc_ba}
    if not any(counts.values()):  # identical decisions: identical rates
        rates_[2:] = rates_[:2]
    return rates_, ni, nc, counts


def _hter_test(rates_, ni, nc, counts, method, alternative="two-sided", swap=False):
    far_a, frr_a, far_b, frr_b = rates_
    kwargs = {}
    if method == "dependent":
        kwargs = dict(counts)
        if swap:
            kwargs = {
                "ni_ab": counts["ni_ba"],
                "ni_ba": counts["ni_ab"],
                "nc_ab": counts["nc_ba"],
                "nc_ba": counts["nc_ab"],
            }
    if swap:
        far_a, frr_a, far_b, frr_b = far_b, frr_b, far_a, frr_a
    return hter_test(
        far_a,
        frr_a,
        far_b,
        frr_b,
        n_impostor=ni,
        n_genuine=nc,
        method=method,
        alternative=alternative,
        **kwargs,
    )


def _check_pvalue(res):
    assert 0.0 <= res.pvalue <= 1.0
    assert res.log10_pvalue <= 0.0
    if res.pvalue > 1e-300:
        assert res.log10_pvalue == pytest.approx(math.log10(res.pvalue), rel=1e-9, abs=1e-12)


@PROPERTY
@given(hter_pairs(), st.sampled_from(HTER_TEST_METHODS))
def test_property_hter_test_swap(case, method):
    rates_, ni, nc, counts = case
    ab = _hter_test(rates_, ni, nc, counts, method)
    ba = _hter_test(rates_, ni, nc, counts, method, swap=True)
    assert ba.estimate == -ab.estimate
    assert ba.statistic == pytest.approx(-ab.statistic)
    assert ba.pvalue == pytest.approx(ab.pvalue, rel=1e-12, abs=1e-300)
    assert ba.log10_pvalue == pytest.approx(ab.log10_pvalue, rel=1e-12)


@PROPERTY
@given(hter_pairs(), st.sampled_from(HTER_TEST_METHODS), st.sampled_from(ALTERNATIVES))
def test_property_hter_test_pvalues(case, method, alternative):
    rates_, ni, nc, counts = case
    res = _hter_test(rates_, ni, nc, counts, method, alternative)
    _check_pvalue(res)
    if alternative != "two-sided" and math.isfinite(res.statistic):
        other = "less" if alternative == "greater" else "greater"
        flipped = _hter_test(rates_, ni, nc, counts, method, other)
        assert res.pvalue + flipped.pvalue == pytest.approx(1.0)


@PROPERTY
@given(
    st.integers(min_value=0, max_value=10**5),
    st.integers(min_value=0, max_value=10**5),
    st.integers(min_value=0, max_value=10**6),
    st.sampled_from(MCNEMAR_METHODS),
)
def test_property_mcnemar_swap(b, c, concordant, method):
    n = b + c + concordant
    assume(n > 0)
    ab = mcnemar(b, c, n=n, method=method)
    ba = mcnemar(c, b, n=n, method=method)
    assert ba.estimate == -ab.estimate
    assert ba.pvalue == pytest.approx(ab.pvalue, rel=1e-9, abs=1e-300)
    assert ba.log10_pvalue == pytest.approx(ab.log10_pvalue, rel=1e-9, abs=1e-12)
    # the table form is the same test
    table = mcnemar_table([[concordant, c], [b, 0]], method=method)
    assert table.pvalue == ab.pvalue and table.estimate == ab.estimate


@PROPERTY
@given(
    st.integers(min_value=0, max_value=3000),
    st.integers(min_value=0, max_value=3000),
    st.sampled_from(MCNEMAR_METHODS),
    st.sampled_from(ALTERNATIVES),
)
def test_property_mcnemar_pvalues(b, c, method, alternative):
    _check_pvalue(mcnemar(b, c, method=method, alternative=alternative))


@PROPERTY
@given(rates, rates, sizes)
def test_property_eer_bound(eer_a, eer_b, n):
    assume(eer_a + eer_b <= 1.0)
    res = eer_bound(eer_a, eer_b, n=n)
    _check_pvalue(res)
    swapped = eer_bound(eer_b, eer_a, n=n)
    assert swapped.estimate == -res.estimate
    assert swapped.pvalue == res.pvalue


@PROPERTY
@given(
    inner_rates,
    inner_rates,
    st.integers(min_value=1, max_value=10**6),
    st.sampled_from(ALTERNATIVES),
)
def test_property_recognition_pvalues(r1, r2, n, alternative):
    _check_pvalue(recognition_rate_test(r1, r2, n=n, alternative=alternative))
    r12 = min(r1, r2) * 0.9 + max(0.0, r1 + r2 - 1) * 0.1
    _check_pvalue(
        recognition_rate_test(r1, r2, n=n, r12=r12, method="paired", alternative=alternative)
    )


@PROPERTY
@given(st.integers(min_value=0, max_value=200), st.integers(min_value=0, max_value=200))
def test_property_sign_test_pvalues(wins_a, wins_b):
    assume(wins_a + wins_b > 0)
    for alternative in ALTERNATIVES:
        _check_pvalue(sign_test(wins_a, wins_b, alternative=alternative))


def _check_interval_properties(res, level_1, level_2):
    low_level, high_level = sorted((level_1, level_2))
    narrow = res.confidence_interval(confidence_level=low_level)
    wide = res.confidence_interval(confidence_level=high_level)
    for ci in (narrow, wide):
        assert ci.low <= res.estimate <= ci.high
    assert wide.low <= narrow.low + 1e-12
    assert wide.high >= narrow.high - 1e-12


@PROPERTY
@given(
    hter_pairs(), st.sampled_from(HTER_TEST_METHODS), st.sampled_from(ALTERNATIVES), levels, levels
)
def test_property_hter_test_intervals(case, method, alternative, level_1, level_2):
    rates_, ni, nc, counts = case
    res = _hter_test(rates_, ni, nc, counts, method, alternative)
    assume(math.isfinite(res.statistic))
    _check_interval_properties(res, level_1, level_2)


@PROPERTY
@given(rates, rates, sizes, sizes, st.sampled_from(HTER_CI_METHODS), levels, levels)
def test_property_hter_ci_intervals(far, frr, ni, nc, method, level_1, level_2):
    _check_interval_properties(
        hter_ci(far, frr, n_impostor=ni, n_genuine=nc, method=method), level_1, level_2
    )


@PROPERTY
@given(
    rates,
    rates,
    sizes,
    sizes,
    st.floats(min_value=1e-3, max_value=1 - 1e-3),
    st.floats(min_value=0.01, max_value=100),
    st.floats(min_value=0.01, max_value=100),
    st.booleans(),
    levels,
    levels,
)
def test_property_dcf_ci_intervals(far, frr, ni, nc, p_target, c_miss, c_fa, normalize, l1, l2):
    res = dcf_ci(
        far,
        frr,
        n_impostor=ni,
        n_genuine=nc,
        p_target=p_target,
        c_miss=c_miss,
        c_fa=c_fa,
        normalize=normalize,
    )
    _check_interval_properties(res, l1, l2)


@PROPERTY
@given(
    st.integers(min_value=0, max_value=2000),
    st.integers(min_value=1, max_value=2000),
    st.sampled_from([m for m in RATE_CI_METHODS if m != "binom_test"]),
    levels,
    levels,
)
def test_property_rate_ci_intervals(errors, n, method, level_1, level_2):
    assume(errors <= n)
    _check_interval_properties(rate_ci(errors, n, method=method), level_1, level_2)


@PROPERTY
@given(
    st.integers(min_value=0, max_value=10**4),
    st.integers(min_value=0, max_value=10**4),
    st.integers(min_value=0, max_value=10**5),
    st.sampled_from(MCNEMAR_METHODS),
    st.sampled_from(ALTERNATIVES),
    levels,
    levels,
)
def test_property_mcnemar_intervals(b, c, concordant, method, alternative, level_1, level_2):
    n = b + c + concordant
    assume(n > 0)
    res = mcnemar(b, c, n=n, method=method, alternative=alternative)
    _check_interval_properties(res, level_1, level_2)


@PROPERTY
@given(
    st.integers(min_value=0, max_value=300),
    st.integers(min_value=0, max_value=300),
    st.sampled_from(ALTERNATIVES),
    levels,
    levels,
)
def test_property_sign_test_intervals(wins_a, wins_b, alternative, level_1, level_2):
    assume(wins_a + wins_b > 0)
    _check_interval_properties(sign_test(wins_a, wins_b, alternative=alternative), level_1, level_2)


@PROPERTY
@given(
    inner_rates,
    inner_rates,
    st.integers(min_value=2, max_value=10**6),
    st.sampled_from(ALTERNATIVES),
    levels,
    levels,
)
def test_property_recognition_intervals(r1, r2, n, alternative, level_1, level_2):
    res = recognition_rate_test(r1, r2, n=n, alternative=alternative)
    _check_interval_properties(res, level_1, level_2)


@PROPERTY
@given(rates, rates, sizes, levels, levels)
def test_property_eer_bound_intervals(eer_a, eer_b, n, level_1, level_2):
    assume(eer_a + eer_b <= 1.0)
    _check_interval_properties(eer_bound(eer_a, eer_b, n=n), level_1, level_2)


# =========================================================================== validation


def _valid_calls():
    """A valid call of every public function, as (function, args, kwargs)."""
    return {
        "hter_ci": (hter_ci, (0.01, 0.02), {"n_impostor": 1000, "n_genuine": 100}),
        "dcf_ci": (
            dcf_ci,
            (0.01, 0.02),
            {"n_impostor": 1000, "n_genuine": 100, "p_target": 0.1},
        ),
        "hter_test": (
            hter_test,
            (0.01, 0.02, 0.02, 0.03),
            {"n_impostor": 1000, "n_genuine": 100},
        ),
        "mcnemar": (mcnemar, (3, 9), {"n": 100}),
        "mcnemar_table": (mcnemar_table, ([[80, 9], [3, 8]],), {}),
        "eer_bound": (eer_bound, (0.01, 0.02), {"n": 1000}),
        "min_significant_eer_difference": (min_significant_eer_difference, (0.01,), {"n": 1000}),
        "recognition_rate_test": (recognition_rate_test, (0.8, 0.7), {"n": 100}),
        "sign_test": (sign_test, (5, 2), {}),
        "rate_ci": (rate_ci, (3, 100), {}),
    }


BAD_RATES = [-0.1, 1.5, float("nan"), float("inf"), "0.1", None, True]


@pytest.mark.parametrize("bad", BAD_RATES, ids=repr)
@pytest.mark.parametrize(
    ("name", "position", "arg"),
    [
        ("hter_ci", 0, "far"),
        ("hter_ci", 1, "frr"),
        ("dcf_ci", 0, "far"),
        ("dcf_ci", 1, "frr"),
        ("hter_test", 0, "far_a"),
        ("hter_test", 1, "frr_a"),
        ("hter_test", 2, "far_b"),
        ("hter_test", 3, "frr_b"),
        ("eer_bound", 0, "eer_a"),
        ("eer_bound", 1, "eer_b"),
        ("min_significant_eer_difference", 0, "eer_max"),
        ("recognition_rate_test", 0, "r1"),
        ("recognition_rate_test", 1, "r2"),
    ],
)
def test_bad_rate(name, position, arg, bad):
    func, args, kwargs = _valid_calls()[name]
    args = list(args)
    args[position] = bad
    with pytest.raises(ValueError, match=msg(ERROR_RATE, name=arg, value=bad)):
        func(*args, **kwargs)


def test_bad_r12_rate():
    with pytest.raises(ValueError, match=msg(ERROR_RATE, name="r12", value=1.2)):
        recognition_rate_test(0.8, 0.7, n=100, r12=1.2, method="paired")


BAD_POSITIVE = [0, -3, 2.5, float("nan"), "100", None, True]


POSITIVE_COUNT_ARGS = [
    ("hter_ci", "n_impostor"),
    ("hter_ci", "n_genuine"),
    ("dcf_ci", "n_impostor"),
    ("dcf_ci", "n_genuine"),
    ("hter_test", "n_impostor"),
    ("hter_test", "n_genuine"),
    ("mcnemar", "n"),
    ("eer_bound", "n"),
    ("min_significant_eer_difference", "n"),
    ("recognition_rate_test", "n"),
]


@pytest.mark.parametrize(
    ("name", "arg", "bad"),
    [
        pytest.param(name, arg, bad, id=f"{name}-{arg}-{bad!r}")
        for name, arg in POSITIVE_COUNT_ARGS
        for bad in BAD_POSITIVE
        if not (name == "mcnemar" and bad is None)  # mcnemar's n is optional
    ],
)
def test_bad_positive_count(name, arg, bad):
    func, args, kwargs = _valid_calls()[name]
    kwargs = {**kwargs, arg: bad}
    with pytest.raises(ValueError, match=msg(ERROR_POSITIVE_COUNT, name=arg, value=bad)):
        func(*args, **kwargs)


@pytest.mark.parametrize("bad", BAD_POSITIVE, ids=repr)
def test_bad_rate_ci_n(bad):
    with pytest.raises(ValueError, match=msg(ERROR_POSITIVE_COUNT, name="n", value=bad)):
        rate_ci(0, bad)


BAD_COUNTS = [-1, 2.5, float("nan"), "3", None, False]


@pytest.mark.parametrize("bad", BAD_COUNTS, ids=repr)
@pytest.mark.parametrize(
    ("name", "position", "arg"),
    [
        ("mcnemar", 0, "b"),
        ("mcnemar", 1, "c"),
        ("sign_test", 0, "wins_a"),
        ("sign_test", 1, "wins_b"),
        ("rate_ci", 0, "errors"),
    ],
)
def test_bad_count(name, position, arg, bad):
    func, args, kwargs = _valid_calls()[name]
    args = list(args)
    args[position] = bad
    with pytest.raises(ValueError, match=msg(ERROR_COUNT, name=arg, value=bad)):
        func(*args, **kwargs)


@pytest.mark.parametrize("bad", [-1, 1.5, "2"], ids=repr)
@pytest.mark.parametrize("arg", ["ni_ab", "ni_ba", "nc_ab", "nc_ba"])
def test_bad_discordant_count(arg, bad):
    counts = {"ni_ab": 1, "ni_ba": 2, "nc_ab": 1, "nc_ba": 0, arg: bad}
    with pytest.raises(ValueError, match=msg(ERROR_COUNT, name=arg, value=bad)):
        hter_test(
            0.01, 0.02, 0.02, 0.03, n_impostor=1000, n_genuine=100, method="dependent", **counts
        )


@pytest.mark.parametrize(
    ("name", "allowed"),
    [
        ("hter_ci", HTER_CI_METHODS),
        ("hter_test", HTER_TEST_METHODS),
        ("mcnemar", MCNEMAR_METHODS),
        ("mcnemar_table", MCNEMAR_METHODS),
        ("recognition_rate_test", RECOGNITION_METHODS),
        ("rate_ci", RATE_CI_METHODS),
    ],
)
@pytest.mark.parametrize("bad", ["unknown", "Wilson", "clopper-pearson", None, 1])
def test_bad_method(name, allowed, bad):
    func, args, kwargs = _valid_calls()[name]
    with pytest.raises(ValueError, match=msg(ERROR_METHOD, value=bad, allowed=list(allowed))):
        func(*args, **kwargs, method=bad)


@pytest.mark.parametrize(
    "name", ["hter_test", "mcnemar", "mcnemar_table", "recognition_rate_test", "sign_test"]
)
@pytest.mark.parametrize("bad", ["two_sided", "larger", "smaller", None])
def test_bad_alternative(name, bad):
    func, args, kwargs = _valid_calls()[name]
    with pytest.raises(
        ValueError, match=msg(ERROR_ALTERNATIVE, value=bad, allowed=list(ALTERNATIVES))
    ):
        func(*args, **kwargs, alternative=bad)


def test_eer_bound_has_no_alternative():
    with pytest.raises(TypeError):
        eer_bound(0.01, 0.02, n=100, alternative="less")


def test_keyword_only_arguments():
    with pytest.raises(TypeError):
        hter_ci(0.01, 0.02, 1000, 100)
    with pytest.raises(TypeError):
        mcnemar(3, 9, 100)
    with pytest.raises(TypeError):
        eer_bound(0.01, 0.02, 1000)


def test_dependent_needs_all_discordant_counts():
    with pytest.raises(
        ValueError, match=msg(ERROR_DISCORDANT_MISSING, missing="ni_ab, ni_ba, nc_ab, nc_ba")
    ):
        hter_test(0.01, 0.02, 0.02, 0.03, n_impostor=1000, n_genuine=100, method="dependent")
    with pytest.raises(ValueError, match=msg(ERROR_DISCORDANT_MISSING, missing="nc_ba")):
        hter_test(
            0.01,
            0.02,
            0.02,
            0.03,
            n_impostor=1000,
            n_genuine=100,
            method="dependent",
            ni_ab=1,
            ni_ba=1,
            nc_ab=1,
        )


@pytest.mark.parametrize("method", ["independent", "naive", "class"])
def test_discordant_counts_only_for_dependent(method):
    with pytest.raises(ValueError, match=msg(ERROR_DISCORDANT_UNUSED, method=method)):
        hter_test(0.01, 0.02, 0.02, 0.03, n_impostor=1000, n_genuine=100, method=method, ni_ab=3)


def test_discordant_counts_cannot_exceed_their_class():
    common = {"n_impostor": 100, "n_genuine": 10, "method": "dependent"}
    with pytest.raises(
        ValueError,
        match=msg(
            ERROR_DISCORDANT_EXCEED,
            first="ni_ab",
            second="ni_ba",
            total=101,
            n_name="n_impostor",
            n=100,
        ),
    ):
        hter_test(0.1, 0.1, 0.2, 0.2, **common, ni_ab=60, ni_ba=41, nc_ab=0, nc_ba=0)
    with pytest.raises(
        ValueError,
        match=msg(
            ERROR_DISCORDANT_EXCEED,
            first="nc_ab",
            second="nc_ba",
            total=11,
            n_name="n_genuine",
            n=10,
        ),
    ):
        hter_test(0.1, 0.1, 0.2, 0.2, **common, ni_ab=0, ni_ba=0, nc_ab=5, nc_ba=6)


def test_dependent_without_discordant_trials():
    # identical decisions: equal HTERs are fine (z = 0, p = 1), different ones impossible
    same = hter_test(
        0.1,
        0.2,
        0.1,
        0.2,
        n_impostor=100,
        n_genuine=10,
        method="dependent",
        ni_ab=0,
        ni_ba=0,
        nc_ab=0,
        nc_ba=0,
    )
    assert same.statistic == 0.0 and same.pvalue == 1.0
    with pytest.raises(
        ValueError, match=msg(ERROR_DISCORDANT_NONE, hter_a=(0.1 + 0.2) / 2, hter_b=0.2)
    ):
        hter_test(
            0.1,
            0.2,
            0.2,
            0.2,
            n_impostor=100,
            n_genuine=10,
            method="dependent",
            ni_ab=0,
            ni_ba=0,
            nc_ab=0,
            nc_ba=0,
        )


def test_mcnemar_n_below_discordant():
    with pytest.raises(
        ValueError, match=msg(ERROR_COUNT_EXCEEDS, name="b + c", value=12, total_name="n", total=11)
    ):
        mcnemar(3, 9, n=11)


def test_rate_ci_errors_above_n():
    with pytest.raises(
        ValueError,
        match=msg(ERROR_COUNT_EXCEEDS, name="errors", value=11, total_name="n", total=10),
    ):
        rate_ci(11, 10)


@pytest.mark.parametrize(
    "bad",
    [
        [[1, 2], [3]],
        [[1, 2, 3], [4, 5, 6]],
        [[1, 2], [3, 4], [5, 6]],
        [[1, -2], [3, 4]],
        [[1.5, 2], [3, 4]],
        [[0, 0], [0, 0]],
        5,
        "abcd",
    ],
    ids=repr,
)
def test_bad_table(bad):
    with pytest.raises(ValueError, match=msg(ERROR_TABLE, value=bad)):
        mcnemar_table(bad)


def test_mcnemar_table_accepts_numpy():
    table = np.array([[101, 121], [59, 33]])
    assert mcnemar_table(table).pvalue == mcnemar_table(table.tolist()).pvalue


@pytest.mark.parametrize(("a", "b"), [(0.6, 0.5), (1.0, 0.01), (0.9, 0.2)])
def test_eer_sum_above_one(a, b):
    with pytest.raises(ValueError, match=msg(ERROR_EER_SUM, eer_a=a, eer_b=b, total=a + b)):
        eer_bound(a, b, n=1000)


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.5, float("nan"), "0.01", True])
def test_bad_alpha(bad):
    with pytest.raises(ValueError, match=msg(ERROR_ALPHA, value=bad)):
        min_significant_eer_difference(0.01, n=1000, alpha=bad)


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.2, 1.2, float("nan"), "0.5", None])
def test_bad_p_target(bad):
    with pytest.raises(ValueError, match=msg(ERROR_P_TARGET, value=bad)):
        dcf_ci(0.01, 0.02, n_impostor=1000, n_genuine=100, p_target=bad)


@pytest.mark.parametrize("arg", ["c_miss", "c_fa"])
@pytest.mark.parametrize("bad", [0.0, -1.0, float("inf"), float("nan"), "1", True])
def test_bad_cost(arg, bad):
    with pytest.raises(ValueError, match=msg(ERROR_COST, name=arg, value=bad)):
        dcf_ci(0.01, 0.02, n_impostor=1000, n_genuine=100, p_target=0.1, **{arg: bad})


@pytest.mark.parametrize("bad", [1, 0, "yes", None])
def test_bad_normalize(bad):
    with pytest.raises(ValueError, match=msg(ERROR_FLAG, name="normalize", value=bad)):
        dcf_ci(0.01, 0.02, n_impostor=1000, n_genuine=100, p_target=0.1, normalize=bad)


def test_r12_rules():
    with pytest.raises(ValueError, match=msg(ERROR_R12_MISSING)):
        recognition_rate_test(0.8, 0.7, n=100, method="paired")
    with pytest.raises(ValueError, match=msg(ERROR_R12_UNUSED, method="simple")):
        recognition_rate_test(0.8, 0.7, n=100, r12=0.6)
    with pytest.raises(ValueError, match=msg(ERROR_R12_RANGE, low=0.5, high=0.7, value=0.75)):
        recognition_rate_test(0.8, 0.7, n=100, r12=0.75, method="paired")
    with pytest.raises(ValueError, match=msg(ERROR_R12_RANGE, low=0.5, high=0.7, value=0.4)):
        recognition_rate_test(0.8, 0.7, n=100, r12=0.4, method="paired")


def test_sign_test_needs_a_run():
    with pytest.raises(ValueError, match=msg(ERROR_NO_RUNS)):
        sign_test(0, 0)


@pytest.mark.parametrize("name", list(_all_results()))
@pytest.mark.parametrize("bad", [0.0, 1.0, 95, -0.5, float("nan"), "0.95", None, True])
def test_bad_confidence_level(name, bad):
    res = _all_results()[name]
    with pytest.raises(ValueError, match=msg(ERROR_CONFIDENCE_LEVEL, value=bad)):
        res.confidence_interval(confidence_level=bad)


def test_error_messages_name_value_and_allowed_set():
    with pytest.raises(ValueError) as info:
        hter_ci(0.01, 0.02, n_impostor=1000, n_genuine=100, method="bengio2004")
    text = str(info.value)
    assert "'bengio2004'" in text and "'bengio'" in text and "'naive'" in text


# =========================================================================== layering


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_inference_kernel_imports_only_numpy_scipy():
    imported = _imported_modules(ROOT / "pandas_biosig" / "_kernels" / "inference.py")
    assert not imported & {"pandas", "xarray", "statsmodels"}
    assert imported <= {"__future__", "math", "typing", "numpy", "scipy"}


def test_stats_module_exports():
    for name in pst.__all__:
        assert hasattr(pst, name)


PUBLIC_FUNCTIONS = [
    dcf_ci,
    eer_bound,
    hter_ci,
    hter_test,
    mcnemar,
    mcnemar_table,
    min_significant_eer_difference,
    rate_ci,
    recognition_rate_test,
    sign_test,
]


@pytest.mark.parametrize("func", PUBLIC_FUNCTIONS, ids=lambda f: f.__name__)
def test_numpydoc_sections(func):
    doc = func.__doc__  # indented in the source before Python 3.13, dedented from 3.13 on
    for section in ("Parameters", "Returns", "Raises", "Notes", "References", "Examples"):
        assert re.search(rf"\n *{section}\n *{'-' * len(section)}\n", doc), section
    assert ".. math::" in doc
    assert ">>> " in doc


@pytest.mark.parametrize("func", [hter_ci, hter_test], ids=lambda f: f.__name__)
def test_naive_and_class_are_flagged_as_over_confident(func):
    doc = " ".join(func.__doc__.split())
    assert "over-confident" in doc
    assert "never as a default" in doc
    for method in ("naive", "class"):
        kwargs = {"n_impostor": 1000, "n_genuine": 100, "method": method}
        args = (0.01, 0.02) if func is hter_ci else (0.01, 0.02, 0.02, 0.03)
        assert "over-confident" in func(*args, **kwargs).method
