"""Binomial interval for one error rate (statsmodels ``proportion_confint``)."""

from __future__ import annotations

from .._core.results import IntervalResult
from .._core.validation import check_count
from .._kernels import inference as _inference
from ._common import (
    _RATE_CI_NAMES,
    ERROR_COUNT_EXCEEDS,
    RATE_CI_METHODS,
    RateCIMethod,
    _check_method,
)

__all__ = [
    "rate_ci",
]


# --------------------------------------------------------------------------- one rate


def rate_ci(errors: int, n: int, *, method: RateCIMethod = "wilson") -> IntervalResult:
    r"""Binomial confidence interval for one error rate (a FAR or an FRR).

    Parameters
    ----------
    errors : int
        Number of errors (false acceptances, or false rejections), 0 ≤ errors ≤ n.
    n : int
        Number of trials of that class (impostor trials for a FAR, genuine for an FRR).
    method : {"wilson", "beta", "normal", "agresti_coull", "jeffreys", "binom_test"}, \
default "wilson"
        statsmodels' ``proportion_confint`` method, passed through unchanged; ``"beta"`` is
        the Clopper–Pearson interval.  Wilson is the default: its coverage is close to
        nominal even for rates near 0, where error rates live and the normal (Wald) interval
        fails (Brown et al., 2001).

    Returns
    -------
    IntervalResult
        ``estimate``: errors/n; ``se``: sqrt(p(1 − p)/n) for ``"normal"``, else None;
        ``method``; ``n``.  ``.confidence_interval(confidence_level=δ)`` calls
        ``proportion_confint(errors, n, alpha=1 − δ, method=method)``, then sets the lower
        bound to 0 when errors = 0 and the upper bound to 1 when errors = n (Brown et al.'s
        boundary rule; it changes only the Jeffreys interval, which would otherwise exclude
        the estimate there).

    Raises
    ------
    ValueError
        ``errors`` not a non-negative integer (:data:`ERROR_COUNT`), ``n`` not a positive
        integer (:data:`ERROR_POSITIVE_COUNT`), errors > n (:data:`ERROR_COUNT_EXCEEDS`), or
        an unknown ``method`` (:data:`ERROR_METHOD`).

    See Also
    --------
    statsmodels.stats.proportion.proportion_confint : the implementation.
    hter_ci : interval for the HTER, which combines a FAR and an FRR.

    Notes
    -----
    The Wilson score interval solves :math:`|\hat p - p| = z\sqrt{p(1-p)/n}` for p:

    .. math::

        \frac{\hat p + z^2/(2n) \pm z\sqrt{\hat p(1-\hat p)/n + z^2/(4n^2)}}{1 + z^2/n}.

    Trials that share a subject are not independent; these intervals then are too narrow.

    Measured calibration (``docs/validity.md``): Wilson and Clopper–Pearson cover at
    94–97 % with independent trials, but only 59–84 % when trials share a subject effect;
    then resample subjects (``pbs.bootstrap(metric="far", resample="subject")``).

    References
    ----------
    Brown, L. D., Cai, T. T., & DasGupta, A. (2001). Interval estimation for a binomial
    proportion. *Statistical Science, 16*\(2), 101–133.

    Examples
    --------
    FRR of model A in the XM2VTS study, 10 false rejections of 400 genuine trials:

    >>> from pandas_biosig.stats import rate_ci
    >>> ci = rate_ci(10, 400).confidence_interval(confidence_level=0.95)
    >>> print(f"{ci.low:.4f} to {ci.high:.4f}")
    0.0136 to 0.0454

    Compare with statsmodels:

    >>> from statsmodels.stats.proportion import proportion_confint
    >>> low, high = proportion_confint(10, 400, alpha=0.05, method="wilson")
    >>> print(f"{low:.4f} to {high:.4f}")
    0.0136 to 0.0454
    """
    errors = check_count(errors, "errors")
    n = check_count(n, "n", positive=True)
    if errors > n:
        raise ValueError(
            ERROR_COUNT_EXCEEDS.format(name="errors", value=errors, total_name="n", total=n)
        )
    method = _check_method(method, RATE_CI_METHODS)
    estimate = errors / n
    se = float(_inference.proportion_se(estimate, n)) if method == "normal" else None
    return IntervalResult(
        estimate=estimate,
        se=se,
        method=_RATE_CI_NAMES[method],
        n=n,
        _count=errors,
        _binomial_method=method,
    )
