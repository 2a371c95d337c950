"""Literature mode: the Hofbauer & Uhl bound on McNemar's p from two reported EERs."""

from __future__ import annotations

from .._core.results import TestResult
from .._core.validation import check_alpha, check_count, check_rate
from .._kernels import inference as _inference
from ._common import ERROR_EER_SUM

__all__ = [
    "eer_bound",
    "min_significant_eer_difference",
]


# --------------------------------------------------------------------------- EER bound


def eer_bound(eer_a: float, eer_b: float, *, n: int) -> TestResult:
    r"""Hofbauer & Uhl's bound on McNemar's p-value from two reported EERs.

    When two papers report EERs on the same dataset of ``n`` trials but no significance
    test, this gives χ²' and p', an **upper bound** on the p-value McNemar's test would give
    at the EER thresholds: if p' is small the difference is significant; if p' is large,
    nothing follows (the bound is coarse; run :func:`mcnemar` when the decisions are
    available).

    Parameters
    ----------
    eer_a, eer_b : float
        Reported equal error rates of A and B, in [0, 1], with eer_a + eer_b ≤ 1.
    n : int
        N, the number of trials of the common dataset (> 0).

    Returns
    -------
    TestResult
        ``statistic``: χ²'; ``pvalue``: p' = P(χ²₁ > χ²') (two-sided); ``log10_pvalue``
        (finite even where p' underflows); ``estimate``: EER_A − EER_B; ``n``; ``method``.
        ``.confidence_interval()`` is the widest Wald interval of the paired difference
        compatible with the reported EERs (b + c = (EER_A + EER_B)·N, the same worst case
        as the bound), so it is conservative.

    Raises
    ------
    ValueError
        An EER outside [0, 1] (:data:`ERROR_RATE`), eer_a + eer_b > 1
        (:data:`ERROR_EER_SUM`), or ``n`` not a positive integer
        (:data:`ERROR_POSITIVE_COUNT`).

    See Also
    --------
    min_significant_eer_difference : the EER difference needed for significance.
    mcnemar : the test this bounds.

    Notes
    -----
    At the EER, :math:`b + d = \mathrm{EER}_A N` and :math:`c + d = \mathrm{EER}_B N`, so
    :math:`b - c = (\mathrm{EER}_A - \mathrm{EER}_B) N`, and :math:`b + c` is largest
    (χ² smallest, p largest) when :math:`d = 0`:

    .. math::

        \chi^{2\prime} = \frac{N (\mathrm{EER}_A - \mathrm{EER}_B)^2}
                              {\mathrm{EER}_A + \mathrm{EER}_B}, \qquad
        p' = P(\chi^2_1 > \chi^{2\prime}) = 2\Phi\bigl(-\sqrt{\chi^{2\prime}}\bigr)
        \ge p_{\mathrm{McNemar}}.

    ``log10_pvalue`` comes from the normal log-tail, so Example 2 below stays finite
    although ``scipy.stats.chi2.logsf`` underflows there.  Both EERs 0 give χ²' = 0, p' = 1.

    Measured calibration (``docs/validity.md``): with N = all trials and unbalanced classes
    the bound is **not** conservative — it rejected a true null of equal EERs in 21 %
    (NIST'2000 sizes, 5 825 genuine / 57 748 impostor) to 78 % (XM2VTS, 400 / 112 000) of
    simulated datasets at α = 0.05, because the EER's variance is driven by the smaller
    class. Use it only for balanced test sets, or pass the smaller class size as ``n``.

    References
    ----------
    Hofbauer, H., & Uhl, A. (2016). Calculating a boundary for the significance from the
    equal-error rate. In *Proceedings of the 2016 International Conference on Biometrics
    (ICB)* (pp. 1–4). IEEE.

    Examples
    --------
    Example 1 of the paper (Casia v4-Interval), from the rounded EERs:

    >>> from pandas_biosig.stats import eer_bound
    >>> res = eer_bound(0.010426, 0.010317, n=3480841)
    >>> print(f"chi2' {res.statistic:.3f}, p' {res.pvalue:.3f}")
    chi2' 1.994, p' 0.158

    Example 2 (Casia v2-Device 1): p' underflows, its logarithm does not:

    >>> res = eer_bound(0.0013, 0.0058, n=719400)
    >>> print(f"chi2' {res.statistic:.1f}, p' {res.pvalue}, log10 p' {res.log10_pvalue:.1f}")
    chi2' 2051.8, p' 0.0, log10 p' -447.3
    """
    eer_a = check_rate(eer_a, "eer_a")
    eer_b = check_rate(eer_b, "eer_b")
    if eer_a + eer_b > 1.0:
        raise ValueError(ERROR_EER_SUM.format(eer_a=eer_a, eer_b=eer_b, total=eer_a + eer_b))
    n = check_count(n, "n", positive=True)
    statistic = float(_inference.eer_bound_chi2(eer_a, eer_b, n))
    p, log10p = _inference.chi2_1_pvalue(statistic)
    return TestResult(
        statistic=statistic,
        pvalue=float(p),
        log10_pvalue=float(log10p),
        estimate=eer_a - eer_b,
        alternative="two-sided",
        method="EER bound on McNemar's test (Hofbauer & Uhl eq. 5)",
        n=n,
        _se=float(_inference.eer_bound_se(eer_a, eer_b, n)),
        _distribution="chi2",
    )


def min_significant_eer_difference(eer_max: float, *, n: int, alpha: float = 0.01) -> float:
    r"""Smallest EER difference that the EER bound declares significant at level ``alpha``.

    For many comparisons on one dataset (Hofbauer & Uhl, eq. 7): any two EERs, both at most
    ``eer_max``, that differ by at least the returned amount have a McNemar p-value below
    ``alpha``.

    Parameters
    ----------
    eer_max : float
        EER_M, the largest EER among the systems compared, in [0, 1].
    n : int
        N, the number of trials of the common dataset (> 0).
    alpha : float, default 0.01
        Significance level, strictly between 0 and 1 (the paper's :math:`p_v`).

    Returns
    -------
    float
        ΔEER, in the units of the EERs.

    Raises
    ------
    ValueError
        ``eer_max`` outside [0, 1] (:data:`ERROR_RATE`), ``n`` not a positive integer
        (:data:`ERROR_POSITIVE_COUNT`), or ``alpha`` outside (0, 1) (:data:`ERROR_ALPHA`).

    See Also
    --------
    eer_bound : the bound for one pair.

    Notes
    -----
    Replacing :math:`\mathrm{EER}_A + \mathrm{EER}_B` by its upper bound
    :math:`2\,\mathrm{EER}_M` in :func:`eer_bound`'s χ²' and solving for the difference,

    .. math::

        \Delta\mathrm{EER} = \sqrt{\frac{2\,\chi^{2*}_{\alpha}\,\mathrm{EER}_M}{N}},
        \qquad \chi^{2*}_{\alpha} = F^{-1}_{\chi^2_1}(1 - \alpha).

    Many comparisons at level ``alpha`` each are still many tests: correct for multiplicity
    (Salzberg, 1997).

    References
    ----------
    Hofbauer, H., & Uhl, A. (2016). Calculating a boundary for the significance from the
    equal-error rate. In *Proceedings of the 2016 International Conference on Biometrics
    (ICB)* (pp. 1–4). IEEE.

    Salzberg, S. L. (1997). On comparing classifiers: Pitfalls to avoid and a recommended
    approach. *Data Mining and Knowledge Discovery, 1*\(3), 317–327.

    Examples
    --------
    Example 3 of the paper (Casia v1.0, N = 285390, EER_M = 0.58 %):

    >>> from pandas_biosig.stats import min_significant_eer_difference
    >>> delta = min_significant_eer_difference(0.0058, n=285390, alpha=0.01)
    >>> print(f"{delta:.4%}")
    0.0519%
    """
    eer_max = check_rate(eer_max, "eer_max")
    n = check_count(n, "n", positive=True)
    alpha = check_alpha(alpha)
    return float(_inference.min_significant_eer_difference(eer_max, n, alpha))
