"""Günter (2004): recognition-rate tests (simple, paired) and the sign test over runs."""

from __future__ import annotations

import math

from .._core.options import Alternative
from .._core.results import TestResult
from .._core.validation import (
    check_alternative,
    check_count,
    check_rate,
)
from .._kernels import inference as _inference
from ._common import (
    _RECOGNITION_NAMES,
    ERROR_NO_RUNS,
    ERROR_R12_MISSING,
    ERROR_R12_RANGE,
    ERROR_R12_UNUSED,
    RECOGNITION_METHODS,
    RecognitionMethod,
    _check_method,
    normal_result,
)

__all__ = [
    "recognition_rate_test",
    "sign_test",
]


# --------------------------------------------------------------------------- recognition rates


def recognition_rate_test(
    r1: float,
    r2: float,
    *,
    n: int,
    r12: float | None = None,
    method: RecognitionMethod = "simple",
    alternative: Alternative = "greater",
) -> TestResult:
    r"""Compare the recognition rates of two methods on the same test set (Günter, 2004).

    Parameters
    ----------
    r1, r2 : float
        Recognition (correct) rates R1 = E1/|T| of method 1 and R2 of method 2, in [0, 1].
        Method 1 is the one claimed to be better.
    n : int
        |T|, the number of test items (> 0).
    r12 : float, optional
        R12, the proportion of test items that *both* methods recognise correctly.
        Required by ``method="paired"``, rejected by ``"simple"``; it must lie in
        [max(0, R1 + R2 − 1), min(R1, R2)].
    method : {"simple", "paired"}, default "simple"
        ``"simple"`` (eq. 3) assumes the two results independent; ``"paired"``
        (eq. 5–6) uses R12 and is more powerful for correlated methods.
    alternative : {"greater", "two-sided", "less"}, default "greater"
        The paper's one-sided test: H1 is that method 1's rate is higher.

    Returns
    -------
    TestResult
        ``statistic``: Z (signed); ``pvalue``: P_n; ``log10_pvalue``; ``estimate``:
        R1 − R2; ``n``: |T|; ``method``.  ``.se`` is sqrt(σ/|T|) and
        ``.confidence_interval()`` the Wald interval (one-sided for one-sided alternatives).

    Raises
    ------
    ValueError
        A rate outside [0, 1] (:data:`ERROR_RATE`), ``n`` not a positive integer
        (:data:`ERROR_POSITIVE_COUNT`), an unknown ``method`` or ``alternative``
        (:data:`ERROR_METHOD`, :data:`ERROR_ALTERNATIVE`), or ``r12`` missing
        (:data:`ERROR_R12_MISSING`), superfluous (:data:`ERROR_R12_UNUSED`) or impossible
        (:data:`ERROR_R12_RANGE`).

    See Also
    --------
    mcnemar : the exact paired test when the counts are known.
    sign_test : wins over repeated runs.

    Notes
    -----
    Simple test (eq. 3):

    .. math::

        Z = \frac{R_1 - R_2}{\sqrt{\bigl(R_1(1-R_1) + R_2(1-R_2)\bigr)/|T|}}.

    Paired test (eq. 5–6), with :math:`X(t) \in \{+1, 0, -1\}` as method 1 alone, both or
    neither, or method 2 alone is correct, :math:`\mu_x = R_1 - R_2` and

    .. math::

        \sigma_x = (R_1 - R_{12})(1 - R_1 + R_2)^2 + (R_2 - R_{12})(1 + R_1 - R_2)^2
                 + (1 + 2R_{12} - R_1 - R_2)(R_1 - R_2)^2, \qquad
        Z = \frac{R_1 - R_2}{\sqrt{\sigma_x/|T|}}.

    P_n = 1 − Φ(Z), computed as Φ(−Z).  The paper's paired example swaps the names (R1 =
    0.5, R2 = 0.6 while stating R1 > R2); here ``r1`` is always method 1, the one
    tested to be better, so that example is ``r1=0.6, r2=0.5``.  It prints P_n = 0.06 %
    read from a table; the normal tail at Z = 3.333 is 0.043 %.

    References
    ----------
    Günter, S. (2004). *Vergleich von Erkennungsmethoden* (Technical Report IAM-04-001).
    Institut für Informatik und angewandte Mathematik, Universität Bern.

    Examples
    --------
    >>> from pandas_biosig.stats import recognition_rate_test
    >>> res = recognition_rate_test(2 / 3, 1 / 3, n=64)
    >>> print(f"Z {res.statistic:.3f}, P {res.pvalue:.2e}")
    Z 4.000, P 3.17e-05
    >>> res = recognition_rate_test(0.6, 0.5, n=100, r12=0.5, method="paired")
    >>> print(f"Z {res.statistic:.3f}, P {res.pvalue:.1e}")
    Z 3.333, P 4.3e-04
    """
    r1 = check_rate(r1, "r1")
    r2 = check_rate(r2, "r2")
    n = check_count(n, "n", positive=True)
    method = _check_method(method, RECOGNITION_METHODS)
    alternative = check_alternative(alternative)
    if method == "simple":
        if r12 is not None:
            raise ValueError(ERROR_R12_UNUSED.format(method=method))
        variance = float(_inference.gunter_simple_variance(r1, r2))
    else:
        if r12 is None:
            raise ValueError(ERROR_R12_MISSING)
        r12 = check_rate(r12, "r12")
        low, high = max(0.0, r1 + r2 - 1.0), min(r1, r2)
        # a little slack for rates computed in floating point
        if not low - 1e-12 <= r12 <= high + 1e-12:
            raise ValueError(ERROR_R12_RANGE.format(low=low, high=high, value=r12))
        variance = float(_inference.gunter_paired_variance(r1, r2, r12))
    se = math.sqrt(variance / n)
    return normal_result(
        r1 - r2, se, alternative=alternative, method=_RECOGNITION_NAMES[method], n=n
    )


def sign_test(wins_a: int, wins_b: int, *, alternative: Alternative = "greater") -> TestResult:
    r"""Sign test over repeated runs (folds, seeds, datasets): does A win more often than B?

    Parameters
    ----------
    wins_a : int
        Runs in which method A did better than B (the paper's Z).
    wins_b : int
        Runs in which B did better than A.  Ties are dropped: do not count them in either.
    alternative : {"greater", "two-sided", "less"}, default "greater"
        The paper's one-sided test: H1 is that A wins more often than B.

    Returns
    -------
    TestResult
        ``statistic``: wins_a; ``pvalue`` = ``scipy.stats.binomtest(wins_a, n, 0.5,
        alternative).pvalue``; ``log10_pvalue``; ``estimate``: the mean sign
        (wins_a − wins_b)/n; ``n``: wins_a + wins_b, the runs that are not ties.
        ``.confidence_interval()`` is the exact Clopper–Pearson interval of wins_a/n mapped to
        the mean sign 2p − 1.

    Raises
    ------
    ValueError
        A count that is not a non-negative integer (:data:`ERROR_COUNT`), no untied run
        (:data:`ERROR_NO_RUNS`), or an unknown ``alternative`` (:data:`ERROR_ALTERNATIVE`).

    See Also
    --------
    recognition_rate_test : one run, many test items.
    scipy.stats.binomtest : the oracle.

    Notes
    -----
    Under H0 (the methods are equally good and the runs independent) :math:`Z \sim
    \mathrm{Bin}(n, 1/2)`, and

    .. math::

        P_n = \sum_{i=Z}^{n} \binom{n}{i}\, 0.5^{\,n}.

    The seed's eq. 7 prints :math:`0.5^{\,i}`, a typo that its own example does not follow.
    The runs must be independent: overlapping test sets are not.

    References
    ----------
    Günter, S. (2004). *Vergleich von Erkennungsmethoden* (Technical Report IAM-04-001).
    Institut für Informatik und angewandte Mathematik, Universität Bern.

    Hull, D. (1993). Using statistical testing in the evaluation of retrieval experiments. In
    *Proceedings of the 16th Annual International ACM SIGIR Conference on Research and
    Development in Information Retrieval* (pp. 329–338). ACM.

    Examples
    --------
    A wins all 4 runs:

    >>> from pandas_biosig.stats import sign_test
    >>> print(f"{sign_test(4, 0).pvalue:.4f}")
    0.0625

    Compare with scipy:

    >>> from scipy.stats import binomtest
    >>> print(f"{binomtest(4, 4, 0.5, alternative='greater').pvalue:.4f}")
    0.0625
    """
    wins_a = check_count(wins_a, "wins_a")
    wins_b = check_count(wins_b, "wins_b")
    alternative = check_alternative(alternative)
    runs = wins_a + wins_b
    if runs == 0:
        raise ValueError(ERROR_NO_RUNS)
    p, log10p = _inference.binom_half_pvalue(wins_a, runs, alternative)
    return TestResult(
        statistic=float(wins_a),
        pvalue=float(p),
        log10_pvalue=float(log10p),
        estimate=(wins_a - wins_b) / runs,
        alternative=alternative,
        method="sign test over runs (Guenter 2004 eq. 7, exact binomial)",
        n=runs,
        _sign_counts=(wins_a, runs),
    )
