"""Shared validators: one function and one message per concept.

Public modules import the checks from here so that the same bad value gets the same error
everywhere; the message constants are re-exported where they were first documented.
"""

from __future__ import annotations

import math
import numbers
import textwrap
from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from typing import Any, TypeVar, cast, get_args

import numpy as np

from .._kernels.tandem import PRESETS, CmCosts, TandemCosts, TandemCosts2019, check_cost_model
from .options import Alternative

_T = TypeVar("_T")

__all__ = [
    "ALTERNATIVES",
    "ERROR_ADJUST",
    "ERROR_ALPHA",
    "ERROR_ALTERNATIVE",
    "ERROR_CONFIDENCE_LEVEL",
    "ERROR_COSTS",
    "ERROR_COST_MODEL",
    "ERROR_COUNT",
    "ERROR_FLAG",
    "ERROR_POSITIVE_COUNT",
    "ERROR_N_RESAMPLES",
    "ERROR_RATE",
    "ERROR_TARGET",
    "ERROR_THRESHOLD_VALUE",
    "adjust_methods",
    "check_adjust",
    "check_alpha",
    "check_alternative",
    "check_confidence_level",
    "check_costs",
    "check_count",
    "check_tandem_costs",
    "check_flag",
    "check_open_unit",
    "check_n_resamples",
    "check_rate",
    "check_target",
    "check_threshold_value",
    "check_weight",
]

ERROR_RATE = "{name} must be a rate in [0, 1], got {value!r}"
ERROR_FLAG = "{name} must be True or False, got {value!r}"
ERROR_COUNT = "{name} must be a non-negative integer, got {value!r}"
ERROR_POSITIVE_COUNT = "{name} must be a positive integer, got {value!r}"
ERROR_COSTS = (
    "p_target must lie strictly between 0 and 1 and c_miss, c_fa must be positive finite "
    "numbers"
)
ERROR_COST_MODEL = (
    "costs={value!r} is not a cost model of the {metric}: give one of the presets {presets} "
    "or a mapping of exactly the numbers {fields}"
)
ERROR_N_RESAMPLES = "n_resamples must be a positive integer, got {value!r}"
ERROR_TARGET = "threshold={criterion!r} needs target= (a rate in [0, 1]), got {target!r}"
ERROR_THRESHOLD_VALUE = (
    "threshold={value!r} is not a threshold: pass a real number in score units (+inf or "
    "-inf reject or accept every trial; NaN is refused), a mapping {{system: number}} or "
    "a criterion name"
)
ERROR_ALPHA = "alpha must be a number strictly between 0 and 1, got {value!r}"
ERROR_CONFIDENCE_LEVEL = (
    "confidence_level must be a number strictly between 0 and 1, got {value!r}"
)
ERROR_ALTERNATIVE = "alternative={value!r} is not one of {allowed}"
ERROR_ADJUST = (
    "adjust={value!r} is not a statsmodels multipletests method; use one of {allowed}, "
    "or None for no adjustment"
)

#: The alternatives of every test (scipy's names).
ALTERNATIVES: tuple[str, ...] = get_args(Alternative)


def check_rate(value: Any, name: str) -> float:
    """``value`` as a float in [0, 1] (NaN and bools refused), else ``ValueError``
    (:data:`ERROR_RATE`)."""
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, numbers.Real)
        or not 0.0 <= float(value) <= 1.0
    ):
        raise ValueError(ERROR_RATE.format(name=name, value=value))
    return float(value)


def check_count(value: Any, name: str, *, positive: bool = False) -> int:
    """``value`` as a non-negative (``positive``: >= 1) int; integral floats such as
    ``400.0`` are accepted, bools are not.  Else ``ValueError`` (:data:`ERROR_COUNT`,
    :data:`ERROR_POSITIVE_COUNT`)."""
    message = ERROR_POSITIVE_COUNT if positive else ERROR_COUNT
    if isinstance(value, bool | np.bool_):
        raise ValueError(message.format(name=name, value=value))
    if isinstance(value, numbers.Integral):
        count = int(value)
    elif (
        isinstance(value, numbers.Real)
        and math.isfinite(float(value))
        and float(value).is_integer()
    ):
        count = int(value)  # type: ignore[call-overload]  # typeshed's numbers.Real has no __int__
    else:
        raise ValueError(message.format(name=name, value=value))
    if count < 0 or (positive and count == 0):
        raise ValueError(message.format(name=name, value=value))
    return count


def check_weight(value: Any) -> float:
    """A criterion's or a figure of merit's ``weight``: a rate in [0, 1]
    (:data:`ERROR_RATE`)."""
    return check_rate(value, "weight")


def check_target(criterion: str, target: Any) -> float:
    """The ``target`` of a criterion that bounds a rate: :data:`ERROR_TARGET` when it is
    missing, :data:`ERROR_RATE` when it is not a rate in [0, 1]."""
    if target is None:
        raise ValueError(ERROR_TARGET.format(criterion=criterion, target=target))
    return check_rate(target, "target")


def check_threshold_value(value: Any) -> float:
    """A fixed threshold as a float: a real number, ±inf allowed (accept or reject all),
    NaN and bools refused (:data:`ERROR_THRESHOLD_VALUE`)."""
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, numbers.Real)
        or math.isnan(float(value))
    ):
        raise ValueError(ERROR_THRESHOLD_VALUE.format(value=value))
    return float(value)


def check_costs(p_target, c_miss, c_fa) -> None:
    """A detection-cost operating point, else ``ValueError`` (:data:`ERROR_COSTS`)."""
    values = (p_target, c_miss, c_fa)
    if not all(
        isinstance(v, int | float | np.integer | np.floating) and not isinstance(v, bool | np.bool_)
        and np.isfinite(v)
        for v in values
    ):
        raise ValueError(ERROR_COSTS)
    if not (0 < p_target < 1) or not (c_miss > 0) or not (c_fa > 0):
        raise ValueError(ERROR_COSTS)


def check_flag(value: Any, name: str) -> bool:
    """``value`` as a bool; anything but True/False (numpy's included) is ERROR_FLAG."""
    if isinstance(value, bool | np.bool_):
        return bool(value)
    raise ValueError(ERROR_FLAG.format(name=name, value=value))


def check_open_unit(value: Any, message: str) -> float:
    """A real number strictly between 0 and 1, else ``message`` formatted with it."""
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, numbers.Real)
        or not 0.0 < float(value) < 1.0
    ):
        raise ValueError(message.format(value=value))
    return float(value)


def check_n_resamples(n_resamples: Any) -> int:
    """``n_resamples`` as an int >= 1 (bools refused), else ``ValueError``
    (:data:`ERROR_N_RESAMPLES`)."""
    if (isinstance(n_resamples, bool) or not isinstance(n_resamples, int | np.integer)
            or n_resamples < 1):
        raise ValueError(ERROR_N_RESAMPLES.format(value=n_resamples))
    return int(n_resamples)


def check_alpha(alpha: Any) -> float:
    """A significance level in (0, 1), else ``ValueError`` (:data:`ERROR_ALPHA`)."""
    return check_open_unit(alpha, ERROR_ALPHA)


def check_confidence_level(confidence_level: Any) -> float:
    """A confidence level in (0, 1), else ``ValueError`` (:data:`ERROR_CONFIDENCE_LEVEL`)."""
    return check_open_unit(confidence_level, ERROR_CONFIDENCE_LEVEL)


def check_alternative(alternative: Any) -> Alternative:
    """One of :data:`ALTERNATIVES`, else ``ValueError`` (:data:`ERROR_ALTERNATIVE`)."""
    if not isinstance(alternative, str) or alternative not in ALTERNATIVES:
        raise ValueError(ERROR_ALTERNATIVE.format(value=alternative, allowed=list(ALTERNATIVES)))
    return cast(Alternative, alternative)


@cache
def adjust_methods() -> tuple[str, ...]:
    """Every method code statsmodels' ``multipletests`` accepts (imported on first use)."""
    from statsmodels.stats import multitest

    alias = getattr(multitest, "multitest_alias", None)
    if alias:
        return tuple(alias)
    return tuple(c for names in multitest._alias_list for c in names)  # pragma: no cover


def check_adjust(adjust: _T | None) -> _T | None:
    """A statsmodels ``multipletests`` code as given, or None for ``None``/``"none"``, else
    ``ValueError`` (:data:`ERROR_ADJUST`)."""
    if adjust is None or adjust == "none":
        return None
    # statsmodels lower-cases the code; accept what it accepts, record it as given
    methods = adjust_methods()
    if not isinstance(adjust, str) or adjust.lower() not in methods:
        raise ValueError(ERROR_ADJUST.format(value=adjust, allowed=list(methods)))
    return adjust


def fill_doc(doc: str | None, **parts: str) -> str | None:
    """``doc`` with each ``{key}`` replaced by ``parts[key]``, re-indented to the line the
    placeholder stands on: a docstring is indented in the source before Python 3.13 and
    dedented from 3.13 on, while the shared texts keep their source indentation (their
    first line follows the placeholder; the others are indented as in the source). None
    (``python -OO`` strips docstrings) stays None."""
    if doc is None:
        return None
    for key, text in parts.items():
        token = "{" + key + "}"
        line = next((ln for ln in doc.splitlines() if token in ln), None)
        if line is None:
            continue
        indent = line[: len(line) - len(line.lstrip())]
        first, newline, rest = text.partition("\n")
        body = first + (newline + textwrap.indent(textwrap.dedent(rest), indent) if rest else "")
        doc = doc.replace(token, body)
    return doc
#: The cost models of the tandem metrics: name -> (class, what it prices).
_TANDEM_MODELS = {
    "tdcf_2019": (TandemCosts2019, "2019 t-DCF"),
    "tandem": (TandemCosts, "revised t-DCF (ASVspoof 2021 and 5) and a-DCF"),
    "cm": (CmCosts, "CM detection cost"),
}


def check_tandem_costs(costs: Any, model: str):
    """The cost model ``costs`` of a tandem metric (``model``: ``"tdcf_2019"``,
    ``"tandem"`` or ``"cm"``) as the kernel's frozen dataclass: a preset name of
    :data:`pandas_biosig._kernels.tandem.PRESETS` for that model, or a mapping of exactly
    its fields, checked as the organisers check it (priors summing to 1, non-negative
    finite costs). Else ``ValueError`` (:data:`ERROR_COST_MODEL`, or the kernel's
    ``ERROR_PRIORS`` / ``ERROR_COSTS``)."""
    cls, metric = _TANDEM_MODELS[model]
    names = [f.name for f in fields(cls)]
    presets = [k for k, v in PRESETS.items() if isinstance(v, cls)]
    if isinstance(costs, str) and costs in presets:
        return PRESETS[costs]
    if isinstance(costs, cls):
        out = costs
    elif isinstance(costs, Mapping) and set(costs) == set(names) and all(
            isinstance(v, numbers.Real) and not isinstance(v, bool | np.bool_)
            for v in costs.values()):
        out = cls(**{k: float(costs[k]) for k in names})
    else:
        raise ValueError(ERROR_COST_MODEL.format(value=costs, metric=metric, presets=presets,
                                                 fields=names))
    check_cost_model(out)
    return out
