"""The design effect of a proportion estimated from clustered trials (numpy only).

Trials that share a subject are not independent: the variance of an error rate estimated
from ``k`` subjects is the cluster-robust (ratio-estimator) variance, not the binomial one.
Their ratio, the design effect, shrinks the number of trials to an effective sample size
:math:`n_{eff} = N / d` on which any binomial interval can be computed (Korn & Graubard,
1998). Used by the per-system intervals (:func:`pandas_biosig.ci`), the demographic and
the PAD intervals.
"""

from __future__ import annotations

import numpy as np

__all__ = ["design_effect", "wilson_interval"]


def design_effect(errors, totals) -> float:
    r"""Design effect of :math:`p = \sum e_i / \sum n_i` estimated from clusters
    (subjects) with ``errors[i]`` errors in ``totals[i]`` trials each: the cluster-robust
    variance :math:`\hat v_c = \frac{k}{k-1}\sum_i (e_i - p\,n_i)^2 / N^2` over the
    binomial one :math:`\hat v_b = p(1-p)/N`, floored at 1 (Korn & Graubard, 1998).
    Clusters without trials are ignored; 1 when p is 0 or 1 or there are fewer than two
    clusters (the variance ratio is not estimable)."""
    n_i = np.asarray(totals, dtype=np.float64)
    keep = n_i > 0
    e = np.asarray(errors, dtype=np.float64)[keep]
    m = n_i[keep]
    k, n = e.size, float(m.sum())
    if k < 2 or n == 0:
        return 1.0
    p = float(e.sum()) / n
    if p <= 0 or p >= 1:
        return 1.0
    vc = k / (k - 1) * float(np.sum((e - p * m) ** 2)) / n**2
    return float(max(vc / (p * (1.0 - p) / n), 1.0))


def wilson_interval(p: float, n: float, z: float) -> tuple[float, float]:
    r"""Wilson score interval of a proportion ``p`` observed on ``n`` (possibly effective,
    non-integer) trials with critical value ``z``:
    :math:`\frac{p + z^2/2n \pm z\sqrt{p(1-p)/n + z^2/4n^2}}{1 + z^2/n}`."""
    d = 1.0 + z * z / n
    centre = (p + z * z / (2.0 * n)) / d
    half = z * np.sqrt(p * (1.0 - p) / n + z * z / (4.0 * n * n)) / d
    return float(max(0.0, centre - half)), float(min(1.0, centre + half))
