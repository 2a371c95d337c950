"""McNemar's test of the paired decisions of two systems."""

from __future__ import annotations

import math
from typing import Any, Literal

from .._core.options import Alternative
from .._core.results import TestResult
from .._core.validation import (
    check_alternative,
    check_count,
)
from .._kernels import inference as _inference
from ._common import (
    _MCNEMAR_NAMES,
    ERROR_COUNT_EXCEEDS,
    ERROR_TABLE,
    MCNEMAR_METHODS,
    McNemarMethod,
    _check_method,
)

__all__ = [
    "mcnemar",
    "mcnemar_table",
]


# --------------------------------------------------------------------------- McNemar


def mcnemar(
    b: int,
    c: int,
    *,
    n: int | None = None,
    method: McNemarMethod = "exact",
    alternative: Alternative = "two-sided",
) -> TestResult:
    r"""McNemar's test for the paired decisions of two systems on the same trials.

    Parameters
    ----------
    b : int
        Trials that system A gets wrong and system B right.
    c : int
        Trials that A gets right and B wrong.
    n : int, optional
        Total number of trials (all four cells).  Needed only for ``estimate`` and the
        confidence interval; must be at least b + c.
    method : {"exact", "midp", "chi2", "chi2_corrected"}, default "exact"
        ``"exact"``: two-sided binomial test of b ~ Bin(b + c, 1/2)
        (``scipy.stats.binomtest``).  It is the default because it is valid for any b + c
        (the χ² forms need large b + c), never exceeds the nominal level, agrees with the
        χ² forms when b + c is large, and is statsmodels' default too.  ``"midp"``: the
        mid-p version, less conservative (Fagerland et al., 2013).  ``"chi2"``:
        (b − c)²/(b + c).  ``"chi2_corrected"``: Edwards' continuity correction
        (|b − c| − 1)²/(b + c).
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        ``"greater"``: H1 is that A's error rate is higher than B's (b > c); ``"less"``:
        lower.  The χ² methods use the signed normal form (b − c)/√(b + c) (corrected
        toward the null) for one-sided p-values.

    Returns
    -------
    TestResult
        ``statistic``: b for ``"exact"``/``"midp"``, the χ² value otherwise;
        ``pvalue``, ``log10_pvalue``; ``estimate``: the difference in error rates
        A − B = (b − c)/n, NaN when ``n`` is not given; ``n``; ``method``.
        ``.confidence_interval()`` is the Wald interval of the paired difference (NaN
        without ``n``); ``.confidence`` is δ = P(χ²₁ ≤ χ²) for the χ² methods.

    Raises
    ------
    ValueError
        A count that is not a non-negative integer (:data:`ERROR_COUNT`), ``n`` not positive
        (:data:`ERROR_POSITIVE_COUNT`) or below b + c (:data:`ERROR_COUNT_EXCEEDS`), or an
        unknown ``method`` or ``alternative`` (:data:`ERROR_METHOD`,
        :data:`ERROR_ALTERNATIVE`).

    See Also
    --------
    mcnemar_table : the same test from a 2×2 table.
    eer_bound : a bound on this p-value from two reported EERs.
    statsmodels.stats.contingency_tables.mcnemar : the oracle.

    Notes
    -----
    Under H0 each discordant trial is a fair coin, so :math:`b \sim \mathrm{Bin}(b+c, 1/2)`
    and for large :math:`b + c`

    .. math::

        \chi^2 = \frac{(b-c)^2}{b+c}, \qquad
        \chi^2_{\mathrm{corr}} = \frac{\max(|b-c|-1,\,0)^2}{b+c}
        \;\sim\; \chi^2_1.

    The exact two-sided p-value is :math:`\min(1, 2 P(X \le \min(b, c)))` and the mid-p value
    :math:`2 P(X < m) + P(X = m)`, :math:`m = \min(b, c)`.  Unlike statsmodels, the
    corrected numerator is clipped at 0, so b = c gives χ² = 0 and p = 1; b + c = 0 gives
    statistic 0 and p = 1 (no discordant trial, no evidence).  The interval uses
    :math:`\sigma^2 = [(b+c)/n - ((b-c)/n)^2]/n` (Agresti, 2013).

    Measured calibration (``docs/validity.md``): McNemar holds its level for its own
    hypothesis (equal error *counts*, 0.04–0.06) when trials are independent, but it is not
    a test of equal HTERs (it rejects every time when equal HTERs sit at different
    operating points), and with a per-subject effect it rejects 56–82 % of true nulls.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. *Psychometrika, 12*\(2), 153–157.

    Edwards, A. L. (1948). Note on the "correction for continuity" in testing the
    significance of the difference between correlated proportions. *Psychometrika,
    13*\(3), 185–187.

    Fagerland, M. W., Lydersen, S., & Laake, P. (2013). The McNemar test for binary
    matched-pairs data: Mid-p and asymptotic are better than exact conditional. *BMC
    Medical Research Methodology, 13*, 91.

    Agresti, A. (2013). *Categorical data analysis* (3rd ed.). Wiley.

    Examples
    --------
    Hofbauer & Uhl's Example 1 (b = 26055, c = 26707 of N = 3480841 trials):

    >>> from pandas_biosig.stats import mcnemar
    >>> res = mcnemar(26055, 26707, n=3480841, method="chi2_corrected")
    >>> print(f"chi2 {res.statistic:.3f}, p {res.pvalue:.5f}")
    chi2 8.032, p 0.00460

    Compare with statsmodels (table layout [[both right, A right B wrong],
    [A wrong B right, both wrong]]):

    >>> from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
    >>> sm = sm_mcnemar([[101, 121], [59, 33]], exact=True)
    >>> ours = mcnemar(59, 121, n=314)
    >>> print(f"{ours.pvalue:.4e} {sm.pvalue:.4e}")
    4.4344e-06 4.4344e-06
    """
    b = check_count(b, "b")
    c = check_count(c, "c")
    if n is not None:
        n = check_count(n, "n", positive=True)
        if n < b + c:
            raise ValueError(
                ERROR_COUNT_EXCEEDS.format(name="b + c", value=b + c, total_name="n", total=n)
            )
    method = _check_method(method, MCNEMAR_METHODS)
    alternative = check_alternative(alternative)

    distribution: Literal["chi2"] | None
    if b + c == 0:  # no discordant trial: no evidence either way, whatever the method
        statistic, p, log10p = 0.0, 1.0, 0.0
        distribution = "chi2" if method in ("chi2", "chi2_corrected") else None
    elif method in ("exact", "midp"):
        p, log10p = _inference.binom_half_pvalue(b, b + c, alternative, mid=method == "midp")
        statistic = float(b)
        distribution = None
    else:
        corrected = method == "chi2_corrected"
        statistic = float(_inference.mcnemar_chi2(b, c, corrected=corrected))
        z = _inference.mcnemar_z(b, c, corrected=corrected, alternative=alternative)
        p, log10p = map(float, _inference.normal_pvalue(z, alternative))
        distribution = "chi2"
    if n is None:
        estimate = se = math.nan
    else:
        estimate = (b - c) / n
        se = float(_inference.paired_difference_se(b, c, n))
    return TestResult(
        statistic=statistic,
        pvalue=float(p),
        log10_pvalue=float(log10p),
        estimate=float(estimate),
        alternative=alternative,
        method=_MCNEMAR_NAMES[method],
        n=n,
        _se=se,
        _distribution=distribution,
    )


def mcnemar_table(
    table: Any,
    *,
    method: McNemarMethod = "exact",
    alternative: Alternative = "two-sided",
) -> TestResult:
    r"""McNemar's test from a 2×2 table of paired decisions.

    Parameters
    ----------
    table : array_like, shape (2, 2)
        Non-negative integer counts laid out as
        ``[[both right, A right B wrong], [A wrong B right, both wrong]]``, so
        ``b = table[1][0]``, ``c = table[0][1]`` and ``n`` is the sum.
    method : {"exact", "midp", "chi2", "chi2_corrected"}, default "exact"
        See :func:`mcnemar`.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        See :func:`mcnemar`.

    Returns
    -------
    TestResult
        As :func:`mcnemar` with ``n`` the table total, so ``estimate`` = (b − c)/n.

    Raises
    ------
    ValueError
        If ``table`` is not 2×2 with non-negative integer counts (:data:`ERROR_TABLE`),
        plus the errors of :func:`mcnemar`.

    See Also
    --------
    mcnemar : the same test from the two discordant counts.

    Notes
    -----
    Only the discordant cells enter the test (see :func:`mcnemar`):

    .. math::

        b = t_{10}, \qquad c = t_{01}, \qquad n = \textstyle\sum_{ij} t_{ij}, \qquad
        \hat\theta = (b - c)/n.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. *Psychometrika, 12*\(2), 153–157.

    Examples
    --------
    >>> from pandas_biosig.stats import mcnemar_table
    >>> res = mcnemar_table([[9959, 11], [1, 29]], method="chi2_corrected")
    >>> print(f"chi2 {res.statistic:.2f}, estimate {res.estimate:+.4f}")
    chi2 6.75, estimate -0.0010

    Compare with statsmodels:

    >>> from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
    >>> print(f"{sm_mcnemar([[9959, 11], [1, 29]], exact=False).statistic:.2f}")
    6.75
    """
    try:
        rows = [list(row) for row in table]
    except TypeError:
        raise ValueError(ERROR_TABLE.format(value=table)) from None
    if len(rows) != 2 or any(len(row) != 2 for row in rows):
        raise ValueError(ERROR_TABLE.format(value=table))
    try:
        cells = [[check_count(v, "table cell") for v in row] for row in rows]
    except ValueError:
        raise ValueError(ERROR_TABLE.format(value=table)) from None
    n = sum(sum(row) for row in cells)
    if n == 0:
        raise ValueError(ERROR_TABLE.format(value=table))
    return mcnemar(cells[1][0], cells[0][1], n=n, method=method, alternative=alternative)
