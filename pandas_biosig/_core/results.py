"""Result objects of the scalar statistical tests and intervals.

Every test in :mod:`pandas_biosig.stats` returns a frozen :class:`TestResult` and every
single-quantity interval a frozen :class:`IntervalResult`.  As scipy's ``BinomTestResult``,
the objects keep what they need to compute ``.confidence_interval(confidence_level=...)`` at
any level, and hold numbers only (never rounded values or strings).  ``to_dict()`` gives the
public fields as a plain dict, one row of a results table; its keys never depend on arguments.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any, Literal, NamedTuple

import numpy as np

from .._kernels import inference as _inference
from .validation import check_confidence_level

__all__ = [
    "ConfidenceInterval",
    "IntervalResult",
    "TestResult",
    "binomial_intervals",
]


class ConfidenceInterval(NamedTuple):
    """Bounds of a confidence interval; a bound may be ``±inf`` for a one-sided interval.

    Examples
    --------
    >>> from pandas_biosig._core.results import ConfidenceInterval
    >>> ci = ConfidenceInterval(low=0.01, high=0.03)
    >>> print(f"{ci.high - ci.low:.2f}")
    0.02
    """

    low: float
    high: float


# one validator per concept (pandas_biosig._core.validation)
_check_confidence_level = check_confidence_level


def _public_dict(obj: Any) -> dict[str, Any]:
    return {f.name: getattr(obj, f.name) for f in fields(obj) if not f.name.startswith("_")}


@dataclass(frozen=True)
class TestResult:
    r"""Result of a hypothesis test on summary numbers (frozen; scipy style).

    Attributes
    ----------
    statistic : float
        The test statistic.  Its meaning is given by ``method``: a signed z for the normal
        tests (``estimate / se``), McNemar's or Hofbauer & Uhl's :math:`\chi^2`, or a count
        of the binomial (sign / exact McNemar) tests.
    pvalue : float
        P-value for ``alternative``.
    log10_pvalue : float
        :math:`\log_{10}` of the p-value, computed in log space, so it stays finite where
        ``pvalue`` underflows to 0.  Equal to ``log10(pvalue)`` whenever
        ``pvalue > 1e-300``.
    estimate : float
        The estimated difference "A minus B" (or "method 1 minus method 2") of the quantity
        tested, in the units of a rate.  NaN when it cannot be estimated from the inputs.
    alternative : str
        ``"two-sided"``, ``"less"`` (the true difference is below 0) or ``"greater"``.
    method : str
        Human-readable name of the test and the equation it follows.
    n : int or None
        Number of trials (or runs) the test is based on; None if unknown.

    Notes
    -----
    Swapping the two systems flips the sign of ``estimate`` (and of a signed ``statistic``)
    and leaves the two-sided ``pvalue`` unchanged.  Use ``to_dict()`` to build table rows;
    its keys are exactly the attributes above, whatever the arguments.

    Examples
    --------
    >>> from pandas_biosig.stats import hter_test
    >>> res = hter_test(0.0115, 0.025, 0.0195, 0.0275, n_impostor=112000, n_genuine=400)
    >>> print(f"z = {res.statistic:.3f}, p = {res.pvalue:.3f}, delta = {res.confidence:.1%}")
    z = -0.928, p = 0.353, delta = 64.7%
    >>> ci = res.confidence_interval(confidence_level=0.95)
    >>> print(f"{ci.low:.4f} to {ci.high:.4f}")
    -0.0163 to 0.0058
    >>> sorted(res.to_dict())
    ['alternative', 'estimate', 'log10_pvalue', 'method', 'n', 'pvalue', 'statistic']
    """

    __test__ = False  # the name starts with "Test": tell pytest this is not a test class

    statistic: float
    pvalue: float
    log10_pvalue: float
    estimate: float
    alternative: str
    method: str
    n: int | None = None
    #: standard error of ``estimate`` for a Wald interval (NaN if there is none)
    _se: float = field(default=math.nan, repr=False)
    #: reference distribution of ``statistic`` under H0, for :attr:`confidence`
    _distribution: Literal["normal", "chi2"] | None = field(default=None, repr=False)
    #: ``(wins_a, runs)`` of a sign test: the interval is the exact Clopper–Pearson one
    _sign_counts: tuple[int, int] | None = field(default=None, repr=False)

    @property
    def se(self) -> float:
        """Standard error of ``estimate`` used by :meth:`confidence_interval` (NaN if none).

        For the HTER tests this is the paper's σ of HTER_A − HTER_B.
        """
        return float(self._se)

    @property
    def confidence(self) -> float:
        r"""Bengio & Mariéthoz's confidence δ that the two systems differ.

        :math:`\delta = 2\Phi(|z|) - 1` for a normal statistic, and
        :math:`P(\chi^2_1 \le \chi^2)` (the same number) for a :math:`\chi^2_1` statistic;
        it equals one minus the *two-sided* p-value whatever ``alternative`` is.  NaN for
        the exact binomial tests, whose statistic is a count.
        """
        if self._distribution == "normal":
            return float(_inference.confidence_delta(self.statistic))
        if self._distribution == "chi2":
            return float(_inference.confidence_delta(math.sqrt(max(self.statistic, 0.0))))
        return math.nan

    def confidence_interval(self, *, confidence_level: float = 0.95) -> ConfidenceInterval:
        r"""Confidence interval for ``estimate``.

        Parameters
        ----------
        confidence_level : float, default 0.95
            Confidence level δ in (0, 1).

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``.  Two-sided: :math:`\hat\theta \pm z_{(1+\delta)/2}\,\sigma`.
            For ``alternative="greater"`` the interval is ``(low, inf)`` and for ``"less"``
            ``(-inf, high)``, with :math:`z_\delta` (as scipy's one-sided intervals).  The sign
            test uses the exact Clopper–Pearson interval of the win proportion, mapped to the
            mean sign.  NaN bounds when ``estimate`` or its standard error is unknown.

        Raises
        ------
        ValueError
            If ``confidence_level`` is not strictly between 0 and 1
            (:data:`ERROR_CONFIDENCE_LEVEL`).
        """
        level = _check_confidence_level(confidence_level)
        if self._sign_counts is not None:
            wins, runs = self._sign_counts
            low, high = _inference.clopper_pearson(wins, runs, level, self.alternative)
            return ConfidenceInterval(2.0 * low - 1.0, 2.0 * high - 1.0)
        low, high = _inference.wald_interval(self.estimate, self._se, level, self.alternative)
        return ConfidenceInterval(float(low), float(high))

    def to_dict(self) -> dict[str, Any]:
        """The public fields as a plain dict (one row of a results table)."""
        return _public_dict(self)


@dataclass(frozen=True)
class IntervalResult:
    r"""A single estimated quantity (HTER, DCF, an error rate) with its interval (frozen).

    Attributes
    ----------
    estimate : float
        The point estimate.
    se : float or None
        Its standard error when the interval is a normal (Wald) one,
        :math:`\hat\theta \pm z\,\sigma`; None for binomial intervals that are not.
    method : str
        Human-readable name of the interval and the equation it follows.
    n : int or None
        Number of trials behind the estimate.

    Examples
    --------
    >>> from pandas_biosig.stats import hter_ci
    >>> res = hter_ci(0.0115, 0.025, n_impostor=112000, n_genuine=400)
    >>> for level in (0.90, 0.95, 0.99):
    ...     ci = res.confidence_interval(confidence_level=level)
    ...     print(f"{level:.0%}: width {ci.high - ci.low:.3%}")
    90%: width 1.285%
    95%: width 1.531%
    99%: width 2.012%
    """

    estimate: float
    se: float | None
    method: str
    n: int | None = None
    #: number of errors, for a binomial interval computed by statsmodels
    _count: int | None = field(default=None, repr=False)
    #: statsmodels ``proportion_confint`` method name, None for a Wald interval
    _binomial_method: str | None = field(default=None, repr=False)

    def confidence_interval(self, *, confidence_level: float = 0.95) -> ConfidenceInterval:
        r"""Two-sided confidence interval for ``estimate``.

        Parameters
        ----------
        confidence_level : float, default 0.95
            Confidence level δ in (0, 1).

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``: :math:`\hat\theta \pm z_{(1+\delta)/2}\,\sigma` (not clipped to
            [0, 1], so the width is exactly :math:`2 z \sigma` as in the papers' tables), or
            statsmodels' ``proportion_confint(count, n, alpha=1 - confidence_level, method)``
            for a binomial interval, with the lower bound set to 0 when there are no errors and
            the upper bound to 1 when every trial is an error (this changes only the Jeffreys
            interval, as Brown et al. (2001) recommend, and float rounding noise).

        Raises
        ------
        ValueError
            If ``confidence_level`` is not strictly between 0 and 1
            (:data:`ERROR_CONFIDENCE_LEVEL`).
        """
        level = _check_confidence_level(confidence_level)
        if self._binomial_method is not None:
            from statsmodels.stats.proportion import proportion_confint

            low, high = proportion_confint(
                self._count, self.n, alpha=1.0 - level, method=self._binomial_method
            )
            # 0 errors: the lower bound is 0; all errors: the upper bound is 1.  This removes
            # rounding noise (Wilson gives 2e-19) and is Brown et al.'s (2001) boundary fix
            # for the Jeffreys interval, which otherwise excludes the estimate there.
            if self._count == 0:
                low = 0.0
            if self._count == self.n:
                high = 1.0
            return ConfidenceInterval(float(low), float(high))
        se = math.nan if self.se is None else self.se
        low, high = _inference.wald_interval(self.estimate, se, level)
        return ConfidenceInterval(float(low), float(high))

    def to_dict(self) -> dict[str, Any]:
        """The public fields as a plain dict (one row of a results table)."""
        return _public_dict(self)


def binomial_intervals(errors: np.ndarray, n: np.ndarray, level: float,
                       method: str) -> tuple[np.ndarray, np.ndarray]:
    """The binomial intervals of :meth:`IntervalResult.confidence_interval` (statsmodels'
    ``proportion_confint``, the bounds 0 without errors and 1 when every trial is one) of
    many ``(errors, n)`` pairs in one call: ``(low, high)`` arrays."""
    from statsmodels.stats.proportion import proportion_confint

    errors, n = np.asarray(errors), np.asarray(n)
    if errors.size == 0:
        return np.zeros(0), np.zeros(0)
    low, high = proportion_confint(errors, n, alpha=1.0 - level, method=method)
    low = np.where(errors == 0, 0.0, np.asarray(low, dtype=np.float64))
    return low, np.where(errors == n, 1.0, np.asarray(high, dtype=np.float64))
