r"""Statistical tests and intervals from summary numbers (rates and counts).

For readers of a paper who have only the reported numbers: FAR/FRR and the numbers of
impostor and genuine trials, EERs and the size of the common test set, recognition rates,
or the discordant counts of two systems.  Every test returns a frozen
:class:`~pandas_biosig.results.TestResult` (``statistic``, ``pvalue``, ``log10_pvalue``,
``estimate``, ``alternative``, ``method``, ``n`` and ``.confidence_interval()``), every
interval an :class:`~pandas_biosig.results.IntervalResult`.

============================================  ===============================================
:func:`hter_ci`, :func:`dcf_ci`               interval around one HTER / DCF (Bengio &
                                              Mariéthoz 2004, eq. 13–14)
:func:`hter_test`                             HTER_A vs HTER_B (eq. 15, 16; NAIVE eq. 18 and
                                              CLASS eq. 17 for illustration only)
:func:`mcnemar`, :func:`mcnemar_table`        paired decisions of two systems
:func:`eer_bound`                             upper bound on McNemar's p from two reported
                                              EERs (Hofbauer & Uhl)
:func:`min_significant_eer_difference`        smallest EER difference that is significant
:func:`recognition_rate_test`                 Günter (2004) simple and paired tests
:func:`sign_test`                             wins over repeated runs (Günter 2004, eq. 7)
:func:`rate_ci`                               binomial interval for one FAR or FRR
============================================  ===============================================

Invalid input raises ``ValueError`` with one of the ``ERROR_*`` messages of this module.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Literal, get_args

import numpy as np

from pandas_biosig._kernels import inference as _inference
from pandas_biosig._typing import Alternative
from pandas_biosig.results import IntervalResult, TestResult

__all__ = [
    "ALTERNATIVES",
    "HTER_CI_METHODS",
    "HTER_TEST_METHODS",
    "MCNEMAR_METHODS",
    "RATE_CI_METHODS",
    "RECOGNITION_METHODS",
    "dcf_ci",
    "eer_bound",
    "hter_ci",
    "hter_test",
    "mcnemar",
    "mcnemar_table",
    "min_significant_eer_difference",
    "rate_ci",
    "recognition_rate_test",
    "sign_test",
]

# --------------------------------------------------------------------------- options

HterCIMethod = Literal["bengio", "naive", "class"]
HterTestMethod = Literal["independent", "dependent", "naive", "class"]
McNemarMethod = Literal["exact", "midp", "chi2", "chi2_corrected"]
RecognitionMethod = Literal["simple", "paired"]
RateCIMethod = Literal["wilson", "beta", "normal", "agresti_coull", "jeffreys", "binom_test"]

#: Allowed values of each enumerated option (the error messages list them).
ALTERNATIVES: tuple[str, ...] = get_args(Alternative)
HTER_CI_METHODS: tuple[str, ...] = get_args(HterCIMethod)
HTER_TEST_METHODS: tuple[str, ...] = get_args(HterTestMethod)
MCNEMAR_METHODS: tuple[str, ...] = get_args(McNemarMethod)
RECOGNITION_METHODS: tuple[str, ...] = get_args(RecognitionMethod)
#: statsmodels ``proportion_confint`` method names, passed through unchanged.
RATE_CI_METHODS: tuple[str, ...] = get_args(RateCIMethod)

# --------------------------------------------------------------------------- messages

ERROR_METHOD = "method={value!r} is not one of {allowed}"
ERROR_ALTERNATIVE = "alternative={value!r} is not one of {allowed}"
ERROR_RATE = "{name} must be a rate in [0, 1], got {value!r}"
ERROR_COUNT = "{name} must be a non-negative integer, got {value!r}"
ERROR_POSITIVE_COUNT = "{name} must be a positive integer, got {value!r}"
ERROR_COUNT_EXCEEDS = "{name}={value!r} exceeds {total_name}={total!r}"
ERROR_FLAG = "{name} must be True or False, got {value!r}"
ERROR_P_TARGET = "p_target must be strictly between 0 and 1, got {value!r}"
ERROR_COST = "{name} must be a positive finite number, got {value!r}"
ERROR_ALPHA = "alpha must be strictly between 0 and 1, got {value!r}"
ERROR_DISCORDANT_MISSING = (
    "method='dependent' needs the discordant counts ni_ab, ni_ba, nc_ab and nc_ba; "
    "missing: {missing}"
)
ERROR_DISCORDANT_UNUSED = (
    "the discordant counts ni_ab, ni_ba, nc_ab and nc_ba are only used by "
    "method='dependent', got method={method!r}"
)
ERROR_DISCORDANT_EXCEED = "{first} + {second} = {total} discordant trials exceed {n_name}={n}"
ERROR_DISCORDANT_NONE = (
    "ni_ab = ni_ba = nc_ab = nc_ba = 0 means A and B took the same decision on every trial, "
    "but their HTERs differ ({hter_a!r} vs {hter_b!r})"
)
ERROR_EER_SUM = "the bound assumes eer_a + eer_b <= 1, got {eer_a!r} + {eer_b!r} = {total!r}"
ERROR_R12_MISSING = (
    "method='paired' needs r12, the proportion of test items that both methods recognise correctly"
)
ERROR_R12_UNUSED = "r12 is only used by method='paired', got method={method!r}"
ERROR_R12_RANGE = (
    "r12 must lie in [max(0, r1 + r2 - 1), min(r1, r2)] = [{low!r}, {high!r}], got {value!r}"
)
ERROR_TABLE = "table must be a 2x2 table of non-negative integer counts, got {value!r}"
ERROR_NO_RUNS = "the sign test needs at least one run that is not a tie, got wins_a = wins_b = 0"

# --------------------------------------------------------------------------- references

_BENGIO = "Bengio & Mariethoz 2004"

_HTER_CI_NAMES = {
    "bengio": f"HTER confidence interval ({_BENGIO} eq. 13)",
    "naive": f"NAIVE: HTER as a proportion of NI + NC ({_BENGIO} eq. 18; over-confident)",
    "class": (
        f"CLASS: classification error (FA + FR)/(NI + NC) ({_BENGIO} eq. 17; over-confident)"
    ),
}
_HTER_TEST_NAMES = {
    "independent": f"HTER difference (independent, {_BENGIO} eq. 15)",
    "dependent": f"HTER difference (dependent, {_BENGIO} eq. 16)",
    "naive": f"NAIVE: HTER difference as proportions ({_BENGIO} eq. 18; over-confident)",
    "class": (f"CLASS: classification error difference ({_BENGIO} eq. 17; over-confident)"),
}
_MCNEMAR_NAMES = {
    "exact": "McNemar exact (binomial, two-sided p doubled)",
    "midp": "McNemar mid-p (Fagerland et al. 2013)",
    "chi2": "McNemar chi-square (no continuity correction)",
    "chi2_corrected": "McNemar chi-square (Edwards continuity correction)",
}
_RECOGNITION_NAMES = {
    "simple": "recognition rates, simple test (Guenter 2004 eq. 3)",
    "paired": "recognition rates, paired test (Guenter 2004 eq. 5-6)",
}
_RATE_CI_NAMES = {
    "wilson": "binomial proportion, Wilson score interval",
    "beta": "binomial proportion, Clopper-Pearson (beta) interval",
    "normal": "binomial proportion, normal (Wald) interval",
    "agresti_coull": "binomial proportion, Agresti-Coull interval",
    "jeffreys": "binomial proportion, Jeffreys interval",
    "binom_test": "binomial proportion, inverted binomial test",
}

# --------------------------------------------------------------------------- validation


def _check_option(value: Any, allowed: tuple[str, ...], message: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(message.format(value=value, allowed=list(allowed)))
    return value


def _check_method(value: Any, allowed: tuple[str, ...]) -> str:
    return _check_option(value, allowed, ERROR_METHOD)


def _check_alternative(value: Any) -> str:
    return _check_option(value, ALTERNATIVES, ERROR_ALTERNATIVE)


def _check_rate(value: Any, name: str) -> float:
    """A real number in [0, 1] (NaN and bools are rejected)."""
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not 0.0 <= float(value) <= 1.0
    ):
        raise ValueError(ERROR_RATE.format(name=name, value=value))
    return float(value)


def _check_count(value: Any, name: str, *, positive: bool = False) -> int:
    """A non-negative (or positive) integer; integral floats such as ``400.0`` are accepted."""
    message = ERROR_POSITIVE_COUNT if positive else ERROR_COUNT
    if isinstance(value, bool):
        raise ValueError(message.format(name=name, value=value))
    if isinstance(value, numbers.Integral):
        count = int(value)
    elif (
        isinstance(value, numbers.Real)
        and math.isfinite(float(value))
        and float(value).is_integer()
    ):
        count = int(value)
    else:
        raise ValueError(message.format(name=name, value=value))
    if count < 0 or (positive and count == 0):
        raise ValueError(message.format(name=name, value=value))
    return count


def _check_positive_real(value: Any, name: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(float(value))
        or float(value) <= 0.0
    ):
        raise ValueError(ERROR_COST.format(name=name, value=value))
    return float(value)


def _check_flag(value: Any, name: str) -> bool:
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(ERROR_FLAG.format(name=name, value=value))


def _check_open_unit(value: Any, message: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not 0.0 < float(value) < 1.0
    ):
        raise ValueError(message.format(value=value))
    return float(value)


# --------------------------------------------------------------------------- helpers


def _z(estimate: float, se: float) -> float:
    """estimate/se, with 0/0 → 0 (no evidence) and x/0 → ±inf."""
    if se > 0.0:
        return estimate / se
    if estimate == 0.0:
        return 0.0
    return math.copysign(math.inf, estimate)


def _normal_result(
    estimate: float, se: float, *, alternative: str, method: str, n: int | None
) -> TestResult:
    z = _z(estimate, se)
    p, log10p = _inference.normal_pvalue(z, alternative)
    return TestResult(
        statistic=float(z),
        pvalue=float(p),
        log10_pvalue=float(log10p),
        estimate=float(estimate),
        alternative=alternative,
        method=method,
        n=n,
        _se=float(se),
        _distribution="normal",
    )


# --------------------------------------------------------------------------- HTER / DCF


def hter_ci(
    far: float,
    frr: float,
    *,
    n_impostor: int,
    n_genuine: int,
    method: HterCIMethod = "bengio",
) -> IntervalResult:
    r"""Normal confidence interval around one half total error rate (HTER).

    Parameters
    ----------
    far, frr : float
        False acceptance rate FA/NI and false rejection rate FR/NC, in [0, 1].
    n_impostor : int
        NI, the number of impostor trials (> 0).
    n_genuine : int
        NC, the number of genuine (client) trials (> 0).
    method : {"bengio", "naive", "class"}, default "bengio"
        ``"bengio"``: the proper interval of Bengio & Mariéthoz (2004), eq. 13.
        ``"naive"`` (eq. 18) and ``"class"`` (eq. 17) are **over-confident**: they treat the
        HTER, or the classification error, as a proportion of all NI + NC trials, so their
        intervals shrink with the number of impostor trials even though the HTER's
        precision is limited by the smaller class.  They are offered only to show how
        over-confident they are, never as a default.

    Returns
    -------
    IntervalResult
        ``estimate``: HTER = (FAR + FRR)/2 (for ``"class"``: (FA + FR)/(NI + NC));
        ``se``: σ below; ``method``: the name of the interval; ``n``: NI + NC.
        ``.confidence_interval(confidence_level=δ)`` gives ``estimate ± z·σ``.

    Raises
    ------
    ValueError
        A rate outside [0, 1] (:data:`ERROR_RATE`), a count that is not a positive integer
        (:data:`ERROR_POSITIVE_COUNT`), or an unknown ``method`` (:data:`ERROR_METHOD`).

    See Also
    --------
    dcf_ci : the same interval for a detection cost.
    hter_test : compare two HTERs.

    Notes
    -----
    With :math:`z_\delta = \Phi^{-1}((1+\delta)/2)`, the interval is
    :math:`\mathrm{HTER} \pm z_\delta\,\sigma` with

    .. math::

        \sigma^2_{\mathrm{bengio}} = \frac{\mathrm{FAR}(1-\mathrm{FAR})}{4\,N_I}
            + \frac{\mathrm{FRR}(1-\mathrm{FRR})}{4\,N_C}, \qquad
        \sigma^2_{\mathrm{naive}} = \frac{\mathrm{HTER}(1-\mathrm{HTER})}{N_C+N_I}, \qquad
        \sigma^2_{\mathrm{class}} = \frac{p(1-p)}{N_C+N_I},\;
            p = \frac{\mathrm{FA}+\mathrm{FR}}{N_I+N_C}.

    The interval is not clipped to [0, 1]; its width is exactly :math:`2 z_\delta \sigma`, the
    number printed in the paper's Tables 2 and 5.

    Measured calibration. This is a normal (Wald) interval: it needs a few dozen errors
    in each class. Computed exactly by enumerating the binomial outcomes, the 95 %
    interval covers 0.948 at FAR = FRR = 1 % with 10,000 genuine and 100,000 impostor
    trials, but 0.71 at 1 % and 0.67 at 0.1 % with 100 genuine and 1,000 impostor trials
    (its width is 0 when there are no errors). With independent trials and about 20
    errors per class it covers 94.7 % (``docs/validity.md``); when trials share a subject
    effect, about 90 %. :func:`pandas_biosig.ci` uses a MOVER interval by default
    (coverage ≥ 0.95 over 0.1 %–20 % and 100–10,000 genuine trials) and
    ``pbs.bootstrap(resample="subject")`` resamples subjects.

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Examples
    --------
    Model A of the paper's XM2VTS study (Table 2):

    >>> from pandas_biosig.stats import hter_ci
    >>> res = hter_ci(0.0115, 0.025, n_impostor=112000, n_genuine=400)
    >>> ci = res.confidence_interval(confidence_level=0.95)
    >>> print(f"HTER {res.estimate:.3%}, 95% interval width {ci.high - ci.low:.3%}")
    HTER 1.825%, 95% interval width 1.531%

    The over-confident NAIVE interval is ten times narrower:

    >>> naive = hter_ci(0.0115, 0.025, n_impostor=112000, n_genuine=400, method="naive")
    >>> ci = naive.confidence_interval(confidence_level=0.95)
    >>> print(f"{ci.high - ci.low:.4%}")
    0.1565%
    """
    far = _check_rate(far, "far")
    frr = _check_rate(frr, "frr")
    negatives = _check_count(n_impostor, "n_impostor", positive=True)
    positives = _check_count(n_genuine, "n_genuine", positive=True)
    method = _check_method(method, HTER_CI_METHODS)
    n = negatives + positives
    if method == "bengio":
        estimate = _inference.hter(far, frr)
        se = _inference.hter_se(far, frr, negatives, positives)
    elif method == "naive":
        estimate = _inference.hter(far, frr)
        se = _inference.proportion_se(estimate, n)
    else:
        estimate = _inference.class_error(far, frr, negatives, positives)
        se = _inference.proportion_se(estimate, n)
    return IntervalResult(
        estimate=float(estimate), se=float(se), method=_HTER_CI_NAMES[method], n=n
    )


def dcf_ci(
    far: float,
    frr: float,
    *,
    n_impostor: int,
    n_genuine: int,
    p_target: float,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    normalize: bool = False,
) -> IntervalResult:
    r"""Normal confidence interval around a detection cost (DCF) at one threshold.

    Parameters
    ----------
    far, frr : float
        False acceptance rate (P_fa) and false rejection rate (P_miss), in [0, 1].
    n_impostor, n_genuine : int
        NI and NC, the numbers of impostor and genuine trials (> 0).
    p_target : float
        Prior probability of a genuine (target) trial, strictly between 0 and 1.
    c_miss, c_fa : float, default 1.0
        Costs of a false rejection (miss) and of a false acceptance (> 0).
    normalize : bool, default False
        Divide the cost (and σ) by :math:`\min(C_{miss} P_{tar}, C_{fa}(1-P_{tar}))`,
        the cost of the better trivial system.

    Returns
    -------
    IntervalResult
        ``estimate``: the (normalized) DCF; ``se``: σ below; ``method``; ``n``: NI + NC.

    Raises
    ------
    ValueError
        A rate outside [0, 1] (:data:`ERROR_RATE`), a count that is not a positive integer
        (:data:`ERROR_POSITIVE_COUNT`), ``p_target`` outside (0, 1)
        (:data:`ERROR_P_TARGET`), a cost that is not positive and finite
        (:data:`ERROR_COST`), or a non-boolean ``normalize`` (:data:`ERROR_FLAG`).

    See Also
    --------
    hter_ci : the special case p_target = 0.5, c_miss = c_fa = 1.

    Notes
    -----
    :math:`\mathrm{DCF} = C_{miss} P_{tar}\,\mathrm{FRR} + C_{fa}(1-P_{tar})\,\mathrm{FAR}`,
    and, generalizing Bengio & Mariéthoz (2004), eq. 14,

    .. math::

        \sigma^2 = \bigl(C_{fa}(1-P_{tar})\bigr)^2 \frac{\mathrm{FAR}(1-\mathrm{FAR})}{N_I}
                 + \bigl(C_{miss} P_{tar}\bigr)^2 \frac{\mathrm{FRR}(1-\mathrm{FRR})}{N_C}.

    With :math:`P_{tar} = 0.5` and unit costs, DCF = HTER and σ is eq. 13.

    Measured calibration: a normal interval, as :func:`hter_ci`, and worse at the NIST
    operating point, where the false acceptances carry weight :math:`\approx 99` times the
    misses: computed exactly by enumeration, the 95 % interval of the normalized DCF
    (p = 0.01, unit costs) covers as little as 0.10 at FAR = FRR = 0.1 % with 100
    trials per class. :func:`pandas_biosig.ci` uses a MOVER interval by default
    (coverage ≥ 0.95 over the same grid).

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Examples
    --------
    The NIST cost of the paper's eq. 14 (C_miss = 10, C_fa = 1, P_target = 0.01), with the
    rates of model C of the NIST'2000 study:

    >>> from pandas_biosig.stats import dcf_ci
    >>> res = dcf_ci(0.131, 0.096, n_impostor=57748, n_genuine=5825,
    ...              p_target=0.01, c_miss=10.0, c_fa=1.0)
    >>> ci = res.confidence_interval(confidence_level=0.95)
    >>> print(f"DCF {res.estimate:.4f} ({ci.low:.4f} to {ci.high:.4f})")
    DCF 0.1393 (0.1365 to 0.1421)
    """
    far = _check_rate(far, "far")
    frr = _check_rate(frr, "frr")
    negatives = _check_count(n_impostor, "n_impostor", positive=True)
    positives = _check_count(n_genuine, "n_genuine", positive=True)
    p_target = _check_open_unit(p_target, ERROR_P_TARGET)
    c_miss = _check_positive_real(c_miss, "c_miss")
    c_fa = _check_positive_real(c_fa, "c_fa")
    normalize = _check_flag(normalize, "normalize")
    estimate = float(_inference.dcf(far, frr, p_target, c_miss, c_fa))
    se = float(_inference.dcf_se(far, frr, negatives, positives, p_target, c_miss, c_fa))
    name = "DCF confidence interval (generalized Bengio & Mariethoz 2004 eq. 14)"
    if normalize:
        scale = min(c_miss * p_target, c_fa * (1.0 - p_target))
        estimate, se = estimate / scale, se / scale
        name = "normalized " + name
    return IntervalResult(estimate=estimate, se=se, method=name, n=negatives + positives)


def hter_test(
    far_a: float,
    frr_a: float,
    far_b: float,
    frr_b: float,
    *,
    n_impostor: int,
    n_genuine: int,
    method: HterTestMethod = "independent",
    alternative: Alternative = "two-sided",
    ni_ab: int | None = None,
    ni_ba: int | None = None,
    nc_ab: int | None = None,
    nc_ba: int | None = None,
) -> TestResult:
    r"""Test whether two systems' HTERs differ, from their FAR/FRR on a common test set.

    Parameters
    ----------
    far_a, frr_a, far_b, frr_b : float
        FAR and FRR of systems A and B on the same NI impostor and NC genuine trials.
    n_impostor, n_genuine : int
        NI and NC (> 0).
    method : {"independent", "dependent", "naive", "class"}, default "independent"
        ``"independent"``: eq. 15, needs only the rates.  ``"dependent"``: eq. 16, needs
        the four discordant counts below.  ``"naive"`` (eq. 18) and ``"class"`` (eq. 17)
        are **over-confident** (their σ shrinks with NI + NC although the HTER's precision
        is limited by the smaller class); they are offered for illustration only, never as
        a default.  Bengio & Mariéthoz advise trusting a difference only when both the
        independent and the dependent test find it.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        ``"less"``: H1 is that A's error is lower than B's; ``"greater"``: higher.
    ni_ab, ni_ba, nc_ab, nc_ba : int, optional
        Discordant counts, required by ``method="dependent"`` and rejected otherwise.
        ``ni_ab``: impostor trials rejected by A and accepted by B (A right, B wrong);
        ``ni_ba``: impostor trials accepted by A and rejected by B;
        ``nc_ab``: genuine trials accepted by A and rejected by B (A right, B wrong);
        ``nc_ba``: genuine trials rejected by A and accepted by B.

    Returns
    -------
    TestResult
        ``estimate``: HTER_A − HTER_B (signed; for ``"class"`` the difference of the
        classification errors (FA + FR)/(NI + NC), the quantity that test is about);
        ``statistic``: z = estimate/σ (signed); ``pvalue`` and ``log10_pvalue`` for
        ``alternative``; ``n``: NI + NC; ``method``.  ``.se`` is σ, ``.confidence`` the
        paper's δ = 2Φ(|z|) − 1, and ``.confidence_interval()`` is estimate ± z·σ.

    Raises
    ------
    ValueError
        A rate outside [0, 1] (:data:`ERROR_RATE`); a count that is not a (positive)
        integer (:data:`ERROR_POSITIVE_COUNT`, :data:`ERROR_COUNT`); an unknown ``method``
        or ``alternative`` (:data:`ERROR_METHOD`, :data:`ERROR_ALTERNATIVE`); discordant
        counts missing for ``"dependent"`` (:data:`ERROR_DISCORDANT_MISSING`), given to
        another method (:data:`ERROR_DISCORDANT_UNUSED`), more than the trials of their
        class (:data:`ERROR_DISCORDANT_EXCEED`), or all zero while the HTERs differ
        (:data:`ERROR_DISCORDANT_NONE`).

    See Also
    --------
    hter_ci : interval around one HTER.
    mcnemar : paired test on one error rate.

    Notes
    -----
    With :math:`\Delta = \mathrm{HTER}_A - \mathrm{HTER}_B`, :math:`z = \Delta/\sigma` and

    .. math::

        \sigma^2_{\mathrm{indep}} &= \frac{\mathrm{FAR}_A(1-\mathrm{FAR}_A)
            + \mathrm{FAR}_B(1-\mathrm{FAR}_B)}{4 N_I}
            + \frac{\mathrm{FRR}_A(1-\mathrm{FRR}_A) + \mathrm{FRR}_B(1-\mathrm{FRR}_B)}{4 N_C}

        \sigma^2_{\mathrm{dep}} &= \frac{\mathrm{FAR}_{AB} + \mathrm{FAR}_{BA}}{4 N_I}
            + \frac{\mathrm{FRR}_{AB} + \mathrm{FRR}_{BA}}{4 N_C}, \qquad
            \mathrm{FAR}_{AB} = N_{I,AB}/N_I,\; \mathrm{FRR}_{AB} = N_{C,AB}/N_C

        \sigma^2_{\mathrm{naive}} &= \frac{\mathrm{HTER}_A(1-\mathrm{HTER}_A)
            + \mathrm{HTER}_B(1-\mathrm{HTER}_B)}{N_C + N_I}

    and for CLASS the same as NAIVE with :math:`p = (FA + FR)/(N_I + N_C)` in place of the
    HTERs.  Two-sided, :math:`p = 2\Phi(-|z|)` and the paper's confidence that the systems
    differ is :math:`\delta = 2\Phi(|z|) - 1 = 1 - p`.

    The dependent numerator follows eq. 16, :math:`|\mathrm{HTER}_A - \mathrm{HTER}_B|`.
    The summary in the paper's Fig. 2 writes
    :math:`|\mathrm{FAR}_{AB} - \mathrm{FAR}_{BA} + \mathrm{FRR}_{AB} - \mathrm{FRR}_{BA}|`,
    twice as large: an erratum.  When the rates and the discordant counts come from the same
    trials, :math:`\Delta = \tfrac12[(N_{I,BA} - N_{I,AB})/N_I + (N_{C,BA} - N_{C,AB})/N_C]`;
    the estimate is computed from the rates given.  The paper notes that the dependent
    test underestimates σ when the two systems are strongly correlated.

    Measured calibration (``docs/validity.md``, type-I error at α = 0.05 under equal true
    HTERs): ``"dependent"`` holds its level at every correlation between the systems
    (0.05–0.06) when trials are independent; ``"independent"`` becomes very conservative as
    the correlation grows (0.001 at ρ = 0.9); ``"naive"`` rejects up to 83 % of true nulls
    when NC ≪ NI; ``"class"`` tests the total error count, not the HTER, and rejects every
    time when equal HTERs sit at different operating points. With a per-subject effect
    every variant is anti-conservative (up to 0.22); use the subject-level paired
    bootstrap (``pbs.compare(test="bootstrap", resample="subject")``).

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Examples
    --------
    Models A and B of the paper's XM2VTS study (Table 3): not significantly different.

    >>> from pandas_biosig.stats import hter_test
    >>> res = hter_test(0.0115, 0.025, 0.0195, 0.0275, n_impostor=112000, n_genuine=400)
    >>> print(f"sigma {res.se:.5f}, delta {res.confidence:.1%}, p {res.pvalue:.3f}")
    sigma 0.00566, delta 64.7%, p 0.353

    The over-confident NAIVE test would call the difference certain:

    >>> naive = hter_test(0.0115, 0.025, 0.0195, 0.0275, n_impostor=112000,
    ...                   n_genuine=400, method="naive")
    >>> print(f"sigma {naive.se:.5f}, delta {naive.confidence:.1%}")
    sigma 0.00060, delta 100.0%

    The dependent test, from the discordant counts of the two systems:

    >>> dep = hter_test(0.02, 0.05, 0.03, 0.08, n_impostor=1000, n_genuine=100,
    ...                 method="dependent", ni_ab=15, ni_ba=5, nc_ab=4, nc_ba=1)
    >>> print(f"estimate {dep.estimate:+.3f}, z {dep.statistic:.3f}, p {dep.pvalue:.4f}")
    estimate -0.020, z -1.754, p 0.0794
    """
    far_a = _check_rate(far_a, "far_a")
    frr_a = _check_rate(frr_a, "frr_a")
    far_b = _check_rate(far_b, "far_b")
    frr_b = _check_rate(frr_b, "frr_b")
    negatives = _check_count(n_impostor, "n_impostor", positive=True)
    positives = _check_count(n_genuine, "n_genuine", positive=True)
    method = _check_method(method, HTER_TEST_METHODS)
    alternative = _check_alternative(alternative)
    discordant = {"ni_ab": ni_ab, "ni_ba": ni_ba, "nc_ab": nc_ab, "nc_ba": nc_ba}
    n = negatives + positives

    if method != "dependent":
        if any(v is not None for v in discordant.values()):
            raise ValueError(ERROR_DISCORDANT_UNUSED.format(method=method))
    else:
        missing = [k for k, v in discordant.items() if v is None]
        if missing:
            raise ValueError(ERROR_DISCORDANT_MISSING.format(missing=", ".join(missing)))
        counts = {k: _check_count(v, k) for k, v in discordant.items()}
        for first, second, n_name, total in (
            ("ni_ab", "ni_ba", "n_impostor", negatives),
            ("nc_ab", "nc_ba", "n_genuine", positives),
        ):
            if counts[first] + counts[second] > total:
                raise ValueError(
                    ERROR_DISCORDANT_EXCEED.format(
                        first=first,
                        second=second,
                        total=counts[first] + counts[second],
                        n_name=n_name,
                        n=total,
                    )
                )

    if method == "class":
        p_a = float(_inference.class_error(far_a, frr_a, negatives, positives))
        p_b = float(_inference.class_error(far_b, frr_b, negatives, positives))
        estimate = p_a - p_b
        se = math.sqrt((p_a * (1.0 - p_a) + p_b * (1.0 - p_b)) / n)
    else:
        h_a = float(_inference.hter(far_a, frr_a))
        h_b = float(_inference.hter(far_b, frr_b))
        estimate = h_a - h_b
        if method == "independent":
            se = float(
                _inference.hter_diff_se_independent(
                    far_a, frr_a, far_b, frr_b, negatives, positives
                )
            )
        elif method == "dependent":
            if not any(counts.values()) and abs(estimate) > 1e-12:
                raise ValueError(ERROR_DISCORDANT_NONE.format(hter_a=h_a, hter_b=h_b))
            se = float(
                _inference.hter_diff_se_dependent(
                    counts["ni_ab"],
                    counts["ni_ba"],
                    counts["nc_ab"],
                    counts["nc_ba"],
                    negatives,
                    positives,
                )
            )
        else:
            se = math.sqrt((h_a * (1.0 - h_a) + h_b * (1.0 - h_b)) / n)
    return _normal_result(
        estimate, se, alternative=alternative, method=_HTER_TEST_NAMES[method], n=n
    )


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
    b = _check_count(b, "b")
    c = _check_count(c, "c")
    if n is not None:
        n = _check_count(n, "n", positive=True)
        if n < b + c:
            raise ValueError(
                ERROR_COUNT_EXCEEDS.format(name="b + c", value=b + c, total_name="n", total=n)
            )
    method = _check_method(method, MCNEMAR_METHODS)
    alternative = _check_alternative(alternative)

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
        p, log10p = _inference.normal_pvalue(z, alternative)
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
        cells = [[_check_count(v, "table cell") for v in row] for row in rows]
    except ValueError:
        raise ValueError(ERROR_TABLE.format(value=table)) from None
    n = sum(sum(row) for row in cells)
    if n == 0:
        raise ValueError(ERROR_TABLE.format(value=table))
    return mcnemar(cells[1][0], cells[0][1], n=n, method=method, alternative=alternative)


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
    eer_a = _check_rate(eer_a, "eer_a")
    eer_b = _check_rate(eer_b, "eer_b")
    if eer_a + eer_b > 1.0:
        raise ValueError(ERROR_EER_SUM.format(eer_a=eer_a, eer_b=eer_b, total=eer_a + eer_b))
    n = _check_count(n, "n", positive=True)
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
    eer_max = _check_rate(eer_max, "eer_max")
    n = _check_count(n, "n", positive=True)
    alpha = _check_open_unit(alpha, ERROR_ALPHA)
    return float(_inference.min_significant_eer_difference(eer_max, n, alpha))


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
    r1 = _check_rate(r1, "r1")
    r2 = _check_rate(r2, "r2")
    n = _check_count(n, "n", positive=True)
    method = _check_method(method, RECOGNITION_METHODS)
    alternative = _check_alternative(alternative)
    if method == "simple":
        if r12 is not None:
            raise ValueError(ERROR_R12_UNUSED.format(method=method))
        variance = float(_inference.gunter_simple_variance(r1, r2))
    else:
        if r12 is None:
            raise ValueError(ERROR_R12_MISSING)
        r12 = _check_rate(r12, "r12")
        low, high = max(0.0, r1 + r2 - 1.0), min(r1, r2)
        # a little slack for rates computed in floating point
        if not low - 1e-12 <= r12 <= high + 1e-12:
            raise ValueError(ERROR_R12_RANGE.format(low=low, high=high, value=r12))
        variance = float(_inference.gunter_paired_variance(r1, r2, r12))
    se = math.sqrt(variance / n)
    return _normal_result(
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
    wins_a = _check_count(wins_a, "wins_a")
    wins_b = _check_count(wins_b, "wins_b")
    alternative = _check_alternative(alternative)
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
    errors = _check_count(errors, "errors")
    n = _check_count(n, "n", positive=True)
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


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
