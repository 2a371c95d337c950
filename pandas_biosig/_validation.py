"""Shared validators: one function and one message per concept.

Public modules import the checks from here so that the same bad value gets the same error
everywhere; the message constants are re-exported where they were first documented.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ERROR_COSTS", "ERROR_RATE", "check_costs", "check_rate"]

ERROR_RATE = "{name}={value!r} must be a number in [0, 1]"
ERROR_COSTS = (
    "p_target must lie strictly between 0 and 1 and c_miss, c_fa must be positive finite "
    "numbers"
)


def check_rate(value, name: str) -> float:
    """``value`` as a float in [0, 1], else ``ValueError`` (:data:`ERROR_RATE`)."""
    if not isinstance(value, int | float | np.integer | np.floating) or not 0 <= value <= 1:
        raise ValueError(ERROR_RATE.format(name=name, value=value))
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
