"""What every scalar test and interval of :mod:`pandas_biosig.stats` shares: the option
tuples, the ``ERROR_*`` messages, the method names and the checks of counts and rates.

A documented internal module: the submodules of :mod:`pandas_biosig.stats` and the
DataFrame layers (:mod:`pandas_biosig.verification._comparison`, :mod:`pandas_biosig.verification._literature`,
:mod:`pandas_biosig.identification`) import its checks from here.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Literal, TypeVar, get_args

from .._core.options import Alternative
from .._core.results import TestResult
from .._kernels import inference as _inference

_T = TypeVar("_T")

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
ERROR_COUNT_EXCEEDS = "{name}={value!r} exceeds {total_name}={total!r}"
ERROR_P_TARGET = "p_target must be strictly between 0 and 1, got {value!r}"
ERROR_COST = "{name} must be a positive finite number, got {value!r}"
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


def _check_option(value: _T, allowed: tuple[str, ...], message: str) -> _T:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(message.format(value=value, allowed=list(allowed)))
    return value


def _check_method(value: _T, allowed: tuple[str, ...]) -> _T:
    return _check_option(value, allowed, ERROR_METHOD)




def _check_positive_real(value: Any, name: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, numbers.Real)
        or not math.isfinite(float(value))
        or float(value) <= 0.0
    ):
        raise ValueError(ERROR_COST.format(name=name, value=value))
    return float(value)






# --------------------------------------------------------------------------- helpers


def _z(estimate: float, se: float) -> float:
    """estimate/se, with 0/0 → 0 (no evidence) and x/0 → ±inf."""
    if se > 0.0:
        return estimate / se
    if estimate == 0.0:
        return 0.0
    return math.copysign(math.inf, estimate)


def normal_result(
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
