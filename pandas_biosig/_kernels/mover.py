"""MOVER intervals for a positive linear combination of independent proportions (numpy only).

Zou & Donner's method of variance estimates recovery (MOVER): given each proportion's own
interval, the interval of :math:`\\theta = \\sum_k w_k p_k` is

.. math::

    L = \\hat\\theta - \\sqrt{\\textstyle\\sum_k w_k^2 (\\hat p_k - l_k)^2}, \\qquad
    U = \\hat\\theta + \\sqrt{\\textstyle\\sum_k w_k^2 (u_k - \\hat p_k)^2}.

It inherits the asymmetry of the component intervals, so it stays inside [0, 1] and does
not collapse to a point at zero errors, as the normal interval does.
"""

from __future__ import annotations

import numpy as np

__all__ = ["mover_sum"]


def mover_sum(estimates, lows, highs, weights) -> tuple[float, float]:
    """MOVER interval of ``sum(weights * estimates)`` from the components' intervals."""
    e = np.asarray(estimates, dtype=np.float64)
    lo = np.asarray(lows, dtype=np.float64)
    hi = np.asarray(highs, dtype=np.float64)
    w = np.asarray(weights, dtype=np.float64)
    theta = float(np.dot(w, e))
    low = theta - float(np.sqrt(np.sum((w * (e - lo)) ** 2)))
    high = theta + float(np.sqrt(np.sum((w * (hi - e)) ** 2)))
    return low, high
