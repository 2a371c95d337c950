"""Inference kernels: tail probabilities, critical values and variance formulas (numpy/scipy only).

Everything here takes plain numbers or numpy arrays and returns floats or numpy arrays; it
never imports pandas, xarray or statsmodels (a test parses the imports of this file).

Tail probabilities are returned together with their base-10 logarithm, computed in log space
(``scipy.special.log_ndtr``, a log-sum-exp over binomial terms) so that ``log10_pvalue`` stays
finite far beyond the point where the p-value itself underflows to 0.  A p-value is never
computed as ``1 - cdf``.
"""

from __future__ import annotations

import math
from typing import Literal

import numpy as np
from scipy import special, stats

__all__ = [
    "LOG10_EXACT_BELOW",
    "binom_half_pvalue",
    "chi2_1_pvalue",
    "class_error",
    "clopper_pearson",
    "confidence_delta",
    "dcf",
    "dcf_se",
    "eer_bound_chi2",
    "eer_bound_se",
    "gunter_paired_variance",
    "gunter_simple_variance",
    "hter",
    "hter_diff_se_dependent",
    "hter_diff_se_independent",
    "hter_se",
    "mcnemar_chi2",
    "mcnemar_z",
    "min_significant_eer_difference",
    "normal_pvalue",
    "paired_difference_se",
    "proportion_se",
    "wald_interval",
    "z_critical",
]

_LN10 = math.log(10.0)
_LN2 = math.log(2.0)

#: Below this p-value, ``log10_pvalue`` comes from the log-space formula instead of
#: ``log10(pvalue)`` (the two agree wherever the p-value is a normal float above it).
LOG10_EXACT_BELOW = 1e-300

_ALTERNATIVES = ("two-sided", "less", "greater")


# --------------------------------------------------------------------------- tails


def normal_pvalue(z, alternative: str = "two-sided") -> tuple[np.ndarray, np.ndarray]:
    """P-value of a standard-normal statistic and its log10, accurate far into the tail.

    ``two-sided``: p = 2·Φ(−|z|); ``greater``: p = Φ(−z) (H1: the mean is above 0);
    ``less``: p = Φ(z).  ``log10 p`` uses ``log_ndtr``, so it is finite for any finite ``z``.
    """
    z = np.asarray(z, dtype=float)
    if alternative == "two-sided":
        a = -np.abs(z)
        p = np.minimum(2.0 * special.ndtr(a), 1.0)
        logp = np.minimum(_LN2 + special.log_ndtr(a), 0.0)
    elif alternative == "greater":
        p = special.ndtr(-z)
        logp = special.log_ndtr(-z)
    elif alternative == "less":
        p = special.ndtr(z)
        logp = special.log_ndtr(z)
    else:
        raise ValueError(f"alternative={alternative!r} is not one of {list(_ALTERNATIVES)}")
    return p, logp / _LN10


def chi2_1_pvalue(statistic) -> tuple[np.ndarray, np.ndarray]:
    """Upper tail of χ² with one degree of freedom and its log10.

    Uses ``P(χ²₁ > x) = 2·Φ(−√x)``, so ``log10 p`` stays finite where ``chi2.logsf``
    underflows (x ≈ 2000 gives log10 p ≈ −447).
    """
    x = np.asarray(statistic, dtype=float)
    with np.errstate(invalid="ignore"):
        z = np.sqrt(x)
    return normal_pvalue(z, "two-sided")


def z_critical(confidence_level, *, two_sided: bool = True) -> np.ndarray:
    """Standard-normal critical value: Φ⁻¹((1 + δ)/2) two-sided, Φ⁻¹(δ) one-sided."""
    level = np.asarray(confidence_level, dtype=float)
    q = (1.0 + level) / 2.0 if two_sided else level
    return special.ndtri(q)


def confidence_delta(z) -> np.ndarray:
    """Bengio & Mariéthoz's confidence that two systems differ: δ = 2·Φ(|z|) − 1 = erf(|z|/√2)."""
    return special.erf(np.abs(np.asarray(z, dtype=float)) / math.sqrt(2.0))


def _log_binom_half_cdf(k: int, n: int) -> float:
    """log P(X ≤ k) for X ~ Bin(n, 1/2), by log-sum-exp over the pmf (no underflow)."""
    if k < 0:
        return -math.inf
    if k >= n:
        return 0.0
    i = np.arange(k + 1, dtype=float)
    logpmf = (
        special.gammaln(n + 1.0)
        - special.gammaln(i + 1.0)
        - special.gammaln(n - i + 1.0)
        - n * _LN2
    )
    return float(min(special.logsumexp(logpmf), 0.0))


def _log_binom_half_pmf(k: int, n: int) -> float:
    if k < 0 or k > n:
        return -math.inf
    return float(
        special.gammaln(n + 1.0)
        - special.gammaln(k + 1.0)
        - special.gammaln(n - k + 1.0)
        - n * _LN2
    )


def _log_binom_half_pvalue(k: int, n: int, alternative: str, mid: bool) -> float:
    """Natural log of the (mid-)p-value of :func:`binom_half_pvalue`, in log space."""
    logcdf = _log_binom_half_cdf
    logpmf = _log_binom_half_pmf
    if alternative == "two-sided":
        m = min(k, n - k)
        if mid:  # 2·P(X < m) + P(X = m)
            out = np.logaddexp(_LN2 + logcdf(m - 1, n), logpmf(m, n))
        else:  # 2·P(X ≤ m)
            out = _LN2 + logcdf(m, n)
    elif alternative == "greater":  # P(X ≥ k) = P(X ≤ n − k)
        if mid:
            out = np.logaddexp(logcdf(n - k - 1, n), math.log(0.5) + logpmf(k, n))
        else:
            out = logcdf(n - k, n)
    else:  # less: P(X ≤ k)
        if mid:
            out = np.logaddexp(logcdf(k - 1, n), math.log(0.5) + logpmf(k, n))
        else:
            out = logcdf(k, n)
    return float(min(out, 0.0))


def binom_half_pvalue(
    k: int, n: int, alternative: Literal["two-sided", "less", "greater"] = "two-sided", *,
    mid: bool = False
) -> tuple[float, float]:
    """Exact (or mid-p) binomial test of ``k`` successes in ``n`` trials against p = 1/2.

    The exact p-value is ``scipy.stats.binomtest(k, n, 0.5, alternative).pvalue``; the mid-p
    value subtracts half the probability of the observed outcome (Fagerland et al., 2013)
    and, two-sided, is ``2·P(X < m) + P(X = m)`` with ``m = min(k, n − k)``, capped at 1.
    ``n = 0`` (no information) gives p = 1.  Returns ``(p, log10 p)``; below
    :data:`LOG10_EXACT_BELOW` the logarithm comes from a log-space sum, so it stays finite.
    """
    k = int(k)
    n = int(n)
    if n == 0:
        return 1.0, 0.0
    if alternative not in _ALTERNATIVES:
        raise ValueError(f"alternative={alternative!r} is not one of {list(_ALTERNATIVES)}")
    if not mid:
        p = float(stats.binomtest(k, n, 0.5, alternative=alternative).pvalue)
    else:
        half_pmf = 0.5 * float(stats.binom.pmf(k, n, 0.5))
        if alternative == "two-sided":
            m = min(k, n - k)
            p = 2.0 * float(stats.binom.cdf(m - 1, n, 0.5)) + float(stats.binom.pmf(m, n, 0.5))
        elif alternative == "greater":
            p = float(stats.binom.sf(k, n, 0.5)) + half_pmf
        else:
            p = float(stats.binom.cdf(k - 1, n, 0.5)) + half_pmf
        p = min(p, 1.0)
    if p > LOG10_EXACT_BELOW:
        log10p = math.log10(p)
    else:
        log10p = _log_binom_half_pvalue(k, n, alternative, mid) / _LN10
    return p, log10p


# --------------------------------------------------------------------------- intervals


def wald_interval(estimate, se, confidence_level, alternative: str = "two-sided"):
    """``estimate ± z·se``; one-sided alternatives give a half-infinite interval.

    ``greater`` → ``(estimate − z₁·se, +inf)``, ``less`` → ``(−inf, estimate + z₁·se)`` with
    z₁ = Φ⁻¹(δ), as scipy's one-sided confidence intervals.
    """
    estimate = np.asarray(estimate, dtype=float)
    se = np.asarray(se, dtype=float)
    if alternative == "two-sided":
        half = z_critical(confidence_level) * se
        return estimate - half, estimate + half
    half = z_critical(confidence_level, two_sided=False) * se
    if alternative == "greater":
        return estimate - half, np.full_like(estimate, np.inf)
    return np.full_like(estimate, -np.inf), estimate + half


def clopper_pearson(k: int, n: int, confidence_level, alternative: str = "two-sided"):
    """Clopper–Pearson (exact, beta-quantile) interval for a binomial proportion ``k/n``.

    One-sided alternatives give ``(low, 1)`` (``greater``) or ``(0, high)`` (``less``).
    """
    level = float(confidence_level)
    tail = (1.0 - level) / 2.0 if alternative == "two-sided" else 1.0 - level
    low = 0.0 if k == 0 else float(special.betaincinv(k, n - k + 1, tail))
    high = 1.0 if k == n else float(special.betaincinv(k + 1, n - k, 1.0 - tail))
    if alternative == "greater":
        high = 1.0
    elif alternative == "less":
        low = 0.0
    return low, high


# --------------------------------------------------------------------------- HTER / DCF


def hter(far, frr):
    """Half total error rate (FAR + FRR)/2."""
    return (np.asarray(far, dtype=float) + np.asarray(frr, dtype=float)) / 2.0


def class_error(far, frr, negatives, positives):
    """Classification error (FA + FR)/(NI + NC) from the rates and the class sizes."""
    far = np.asarray(far, dtype=float)
    frr = np.asarray(frr, dtype=float)
    return (far * negatives + frr * positives) / (np.asarray(negatives) + np.asarray(positives))


def proportion_se(p, n):
    """Binomial standard error sqrt(p(1 − p)/n) of a proportion of ``n`` trials."""
    p = np.asarray(p, dtype=float)
    return np.sqrt(p * (1.0 - p) / np.asarray(n, dtype=float))


def hter_se(far, frr, negatives, positives):
    """Bengio & Mariéthoz (2004) eq. 13: sqrt(FAR(1−FAR)/(4·NI) + FRR(1−FRR)/(4·NC))."""
    far = np.asarray(far, dtype=float)
    frr = np.asarray(frr, dtype=float)
    return np.sqrt(far * (1.0 - far) / (4.0 * negatives) + frr * (1.0 - frr) / (4.0 * positives))


def dcf(far, frr, p_target, c_miss, c_fa):
    """Detection cost C_miss·P_tar·FRR + C_fa·(1 − P_tar)·FAR (not normalized)."""
    return c_miss * p_target * np.asarray(frr, dtype=float) + c_fa * (1.0 - p_target) * np.asarray(
        far, dtype=float
    )


def dcf_se(far, frr, negatives, positives, p_target, c_miss, c_fa):
    """Generalized eq. 14: sqrt((C_fa(1−P))²·FAR(1−FAR)/NI + (C_miss·P)²·FRR(1−FRR)/NC)."""
    far = np.asarray(far, dtype=float)
    frr = np.asarray(frr, dtype=float)
    w_fa = c_fa * (1.0 - p_target)
    w_miss = c_miss * p_target
    return np.sqrt(
        w_fa**2 * far * (1.0 - far) / negatives + w_miss**2 * frr * (1.0 - frr) / positives
    )


def hter_diff_se_independent(far_a, frr_a, far_b, frr_b, negatives, positives):
    """Eq. 15: standard deviation of HTER_A − HTER_B for independent systems."""
    far_a, frr_a, far_b, frr_b = (np.asarray(x, dtype=float) for x in (far_a, frr_a, far_b, frr_b))
    return np.sqrt(
        (far_a * (1.0 - far_a) + far_b * (1.0 - far_b)) / (4.0 * negatives)
        + (frr_a * (1.0 - frr_a) + frr_b * (1.0 - frr_b)) / (4.0 * positives)
    )


def hter_diff_se_dependent(ni_ab, ni_ba, nc_ab, nc_ba, negatives, positives):
    """Eq. 16: sqrt((FAR_AB + FAR_BA)/(4·NI) + (FRR_AB + FRR_BA)/(4·NC)), FAR_AB = NI_AB/NI."""
    negatives = np.asarray(negatives, dtype=float)
    positives = np.asarray(positives, dtype=float)
    far_disc = (np.asarray(ni_ab, dtype=float) + np.asarray(ni_ba, dtype=float)) / negatives
    frr_disc = (np.asarray(nc_ab, dtype=float) + np.asarray(nc_ba, dtype=float)) / positives
    return np.sqrt(far_disc / (4.0 * negatives) + frr_disc / (4.0 * positives))


# --------------------------------------------------------------------------- McNemar / EER


def mcnemar_chi2(b, c, *, corrected: bool):
    """McNemar's χ² = (|b − c| − k)²/(b + c), k = 1 with Edwards' correction, else 0.

    The corrected numerator is clipped at 0 (so b = c gives χ² = 0, p = 1), and b + c = 0
    gives χ² = 0.
    """
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    diff = np.abs(b - c)
    if corrected:
        diff = np.maximum(diff - 1.0, 0.0)
    total = b + c
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, diff**2 / np.where(total > 0, total, 1.0), 0.0)


def mcnemar_z(b, c, *, corrected: bool, alternative: str = "two-sided"):
    """Signed normal form of McNemar's statistic, (b − c)/sqrt(b + c).

    With the continuity correction the shift is toward the null for the side being tested:
    ``two-sided`` → sign(b − c)·max(|b − c| − 1, 0), ``greater`` → b − c − 1,
    ``less`` → b − c + 1.  b + c = 0 gives z = 0.
    """
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    diff = b - c
    if corrected:
        if alternative == "two-sided":
            diff = np.sign(diff) * np.maximum(np.abs(diff) - 1.0, 0.0)
        elif alternative == "greater":
            diff = diff - 1.0
        else:
            diff = diff + 1.0
    total = b + c
    return np.where(total > 0, diff / np.sqrt(np.where(total > 0, total, 1.0)), 0.0)


def paired_difference_se(b, c, n):
    """Wald standard error of the paired difference (b − c)/n: sqrt((b+c)/n − ((b−c)/n)²)/√n."""
    b = np.asarray(b, dtype=float)
    c = np.asarray(c, dtype=float)
    n = np.asarray(n, dtype=float)
    var = (b + c) / n - ((b - c) / n) ** 2
    return np.sqrt(np.maximum(var, 0.0) / n)


def eer_bound_chi2(eer_a, eer_b, n):
    """Hofbauer & Uhl eq. 5: χ²' = N·(EER_A − EER_B)²/(EER_A + EER_B) (0 when both are 0)."""
    eer_a = np.asarray(eer_a, dtype=float)
    eer_b = np.asarray(eer_b, dtype=float)
    total = eer_a + eer_b
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, n * (eer_a - eer_b) ** 2 / np.where(total > 0, total, 1.0), 0.0)


def eer_bound_se(eer_a, eer_b, n):
    """Largest Wald s.e. of EER_A − EER_B compatible with the bound: b + c = (EER_A + EER_B)·N."""
    eer_a = np.asarray(eer_a, dtype=float)
    eer_b = np.asarray(eer_b, dtype=float)
    var = (eer_a + eer_b) - (eer_a - eer_b) ** 2
    return np.sqrt(np.maximum(var, 0.0) / np.asarray(n, dtype=float))


def min_significant_eer_difference(eer_max, n, alpha):
    """Hofbauer & Uhl eq. 7: ΔEER = sqrt(2·χ²*·EER_M/N), χ²* the χ²₁ quantile at 1 − alpha."""
    chi2_star = stats.chi2.isf(alpha, 1)
    return np.sqrt(2.0 * chi2_star * np.asarray(eer_max, dtype=float) / np.asarray(n, dtype=float))


# --------------------------------------------------------------------------- recognition rates


def gunter_simple_variance(r1, r2):
    """Günter (2004) eq. 3 variance per test item: R1(1 − R1) + R2(1 − R2)."""
    r1 = np.asarray(r1, dtype=float)
    r2 = np.asarray(r2, dtype=float)
    return r1 * (1.0 - r1) + r2 * (1.0 - r2)


def gunter_paired_variance(r1, r2, r12):
    """Günter (2004) eq. 6: variance σx of X(t) ∈ {+1, 0, −1}."""
    r1 = np.asarray(r1, dtype=float)
    r2 = np.asarray(r2, dtype=float)
    r12 = np.asarray(r12, dtype=float)
    var = (
        (r1 - r12) * (1.0 - r1 + r2) ** 2
        + (r2 - r12) * (1.0 + r1 - r2) ** 2
        + (1.0 + 2.0 * r12 - r1 - r2) * (r1 - r2) ** 2
    )
    return np.maximum(var, 0.0)  # E[X²] − μ² ≥ 0; clip rounding below zero
