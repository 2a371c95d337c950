"""The design effect of a proportion estimated from clustered trials (numpy only).

Trials that share a subject are not independent: the variance of an error rate estimated
from ``k`` subjects is the cluster-robust (ratio-estimator) variance, not the binomial one.
Their ratio, the design effect, shrinks the number of trials to an effective sample size
:math:`n_{eff} = N / d` on which any binomial interval can be computed (Korn & Graubard,
1998). Used by the per-system intervals (:func:`pandas_biosig.ci`), the demographic and
the PAD intervals.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = [
    "ClusterDesign",
    "cluster_design",
    "design_effect",
    "design_from_sums",
    "effective_trials",
    "exceedance_pvalue",
    "exact_interval",
    "lower_bound",
    "person_sums",
    "prediction_bound",
    "shared_pairs",
    "upper_bound",
    "wilson_interval",
]


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


class ClusterDesign(NamedTuple):
    """The design of a proportion estimated from trials that share people:
    ``p`` the proportion, ``n`` the trials, ``deff`` the design effect (at least 1),
    ``df`` the degrees of freedom of its variance, ``k`` the people involved, ``rho`` the
    correlation of the outcomes of two trials that share a person under the working model
    of :func:`cluster_design` (0 for independent trials)."""

    p: float
    n: float
    deff: float
    df: float
    k: int
    rho: float = 0.0


def person_sums(values, probe, reference=None, n_persons: int | None = None):
    """Per person, the sum of ``values`` over the trials that involve them (as probe or as
    reference; a trial whose probe and reference are the same person counts once), and per
    dyad (unordered pair of two different people), the sum over the trials that compare
    them: ``(person_totals, dyad_totals)`` (``dyad_totals`` empty without references)."""
    v = np.asarray(values, dtype=np.float64)
    probe = np.asarray(probe, dtype=np.int64)
    k = int(n_persons) if n_persons is not None else (int(probe.max()) + 1 if probe.size else 0)
    if reference is None:
        return np.bincount(probe, weights=v, minlength=k), np.zeros(0)
    ref = np.asarray(reference, dtype=np.int64)
    k = max(k, int(ref.max()) + 1 if ref.size else 0)
    two = probe != ref
    totals = np.bincount(probe, weights=v, minlength=k)
    totals += np.bincount(ref[two], weights=v[two], minlength=k)
    lo, hi = np.minimum(probe[two], ref[two]), np.maximum(probe[two], ref[two])
    _, dyad = np.unique(lo * k + hi, return_inverse=True)
    return totals, np.bincount(dyad.reshape(-1), weights=v[two])


def cluster_design(errors, probe, reference=None) -> ClusterDesign:
    r"""Design effect and degrees of freedom of an error rate whose trials share people.

    ``errors`` holds one 0/1 outcome per trial, ``probe`` each trial's person (integer
    codes), ``reference`` (optional, the same codes) the other person an impostor trial
    compares. With :math:`r_t = e_t - \hat p` and :math:`U_k` the sum of :math:`r_t` over
    the trials that involve person :math:`k`, :math:`D_d` over the trials of dyad
    :math:`d`, the variance of :math:`\hat p` is the multiway cluster-robust one (Cameron,
    Gelbach & Miller 2011; for one set of people in both roles, the dyadic form of Aronow,
    Samii & Assenova 2015),

    .. math::

        \hat v = \frac{K}{K-1}\,\frac{\sum_k U_k^2 - \sum_d D_d^2}{N^2}

    over :math:`K` people (without references: Korn & Graubard's cluster variance, the
    dyad sum empty). ``deff`` is :math:`\hat v / (\hat p(1-\hat p)/N)`, floored at 1.

    ``df`` are Satterthwaite's degrees of freedom of :math:`\hat v`, the smaller of two
    readings, at most :math:`K - 1` and at least 1. From the design: under the working
    model in which trials that share a person have outcomes correlated at :math:`\rho`
    (estimated from the unfloored design effect), person :math:`k`'s term has expected
    size :math:`v_k = m_k + \rho\,m_k(m_k - 1)` (:math:`m_k` its trials) and
    :math:`\nu_d = (\sum v_k)^2 / \sum v_k^2`: Korn & Graubard's :math:`K - 1` when the
    people weigh alike, close to 1 when one person holds most of the trials (the variance
    is then read off that person alone). From the terms themselves,
    :math:`\nu_r = (\sum U_k^2)^2 / \sum U_k^4` (Welch–Satterthwaite, as the paired
    bootstrap test's): about the number of people whose errors carry the variance, which
    the design reading misses when errors are rare and clustered (a few people's terms,
    far from normal). With :math:`\hat p` at 0 or 1 there is nothing to estimate:
    ``deff`` 1, ``df`` :math:`K - 1`.
    """
    e = np.asarray(errors, dtype=np.float64)
    if e.size == 0:
        return ClusterDesign(float("nan"), 0.0, 1.0, float("nan"), 0)
    m_k, m_d = person_sums(np.ones(e.size), probe, reference)
    e_k, e_d = person_sums(e, probe, reference, n_persons=m_k.size)
    return design_from_sums(float(e.sum()), float(e.size), e_k, m_k, e_d, m_d)


def design_from_sums(errors: float, n: float, e_k, m_k, e_d=None, m_d=None) -> ClusterDesign:
    r""":func:`cluster_design` from its sums: ``errors`` of ``n`` trials, each person's
    errors ``e_k`` and trials ``m_k`` (in person-code order, as :func:`person_sums` gives
    them) and each dyad's ``e_d``, ``m_d`` (None without references). The terms
    :math:`U_k = e_k - \hat p\,m_k` are formed from the integer counts, so the design is
    the same whatever order the trials came in (a table gathered out of core gives the
    in-memory numbers to the bit)."""
    if n == 0:
        return ClusterDesign(float("nan"), 0.0, 1.0, float("nan"), 0)
    m_k = np.asarray(m_k, dtype=np.float64)
    m_d = np.zeros(0) if m_d is None else np.asarray(m_d, dtype=np.float64)
    p = float(errors) / n
    keep = m_k > 0
    k = int(np.count_nonzero(keep))
    if k < 2 or p <= 0 or p >= 1:
        return ClusterDesign(p, n, 1.0, float(max(k - 1, 1)), k)
    u_k = np.asarray(e_k, dtype=np.float64) - p * m_k
    u_d = (np.zeros(0) if e_d is None else np.asarray(e_d, dtype=np.float64)) - p * m_d
    v_hat = k / (k - 1) * (float(np.dot(u_k, u_k)) - float(np.dot(u_d, u_d))) / n**2
    raw = v_hat / (p * (1.0 - p) / n)
    m = m_k[keep]
    shared = _shared(m, m_d, n)
    rho = min(max((raw - 1.0) * n / shared, 0.0), 1.0) if shared > 0 else 0.0
    v = m + rho * m * (m - 1.0)
    u2 = np.square(u_k[keep])
    spread = float(np.dot(u2, u2))  # 0 when every person errs at the pooled rate
    realized = float(u2.sum()) ** 2 / spread if spread > 0 else k - 1.0
    df = min(float(v.sum()) ** 2 / float(np.dot(v, v)), realized, k - 1.0)
    return ClusterDesign(p, n, float(max(raw, 1.0)), max(df, 1.0), k, rho)


def _shared(m_k: np.ndarray, m_d: np.ndarray, n: float) -> float:
    """Ordered pairs of different trials that share a person (a dyad's pairs once)."""
    return float(np.dot(m_k, m_k)) - float(np.dot(m_d, m_d)) - n


def shared_pairs(probe, reference=None) -> tuple[float, float]:
    r"""``(trials, ordered pairs of different trials that share a person)`` of a layout of
    trials (``probe`` and optional ``reference`` person codes, as :func:`cluster_design`
    reads them): with the outcome correlation :math:`\rho` of two such trials, the design
    effect of a rate measured on them is :math:`1 + \rho\,\text{pairs}/\text{trials}`."""
    n = float(len(probe))
    m_k, m_d = person_sums(np.ones(len(probe)), probe, reference)
    return n, _shared(m_k, m_d, n)


def effective_trials(design: ClusterDesign, level: float) -> float:
    r"""Korn & Graubard's effective number of trials for a one-sided bound at ``level``:
    :math:`n^* = \frac{N}{d}\,(t_{N-1}/t_{\nu})^2` (one-sided quantiles at ``level``),
    at most N; N itself without two people to estimate a design effect from."""
    from scipy.special import stdtrit  # Student's t quantile (a ufunc: no per-call overhead)

    n = design.n
    if n <= 1 or design.k < 2 or not np.isfinite(design.df):
        return float(n)
    factor = (stdtrit(n - 1, level) / stdtrit(design.df, level)) ** 2
    return float(min(n / design.deff * factor, n))


def upper_bound(design: ClusterDesign, level: float) -> float:
    r"""One-sided Clopper–Pearson upper confidence bound at ``level`` of the rate, on the
    effective counts :math:`x^* = \hat p\,n^*`, :math:`n^*` of :func:`effective_trials`:
    the ``level`` quantile of Beta(:math:`x^* + 1, n^* - x^*`); 1 when every trial
    errs, NaN without trials."""
    from scipy.special import betaincinv  # the Beta quantile

    if design.n == 0:
        return float("nan")
    if design.p >= 1:
        return 1.0
    n_eff = effective_trials(design, level)
    x = design.p * n_eff
    return float(betaincinv(x + 1.0, n_eff - x, level))


def prediction_bound(design: ClusterDesign, level: float, n_new: float,
                     shared_new: float = 0.0) -> float:
    r"""One-sided upper prediction bound at ``level`` of the rate that will be *measured*
    on ``n_new`` new trials (``shared_new`` ordered pairs of them sharing a person,
    :func:`shared_pairs`), from the rate estimated on the trials of ``design``.

    The measured rate differs from the estimate by the error of both: with :math:`n^*`
    the estimate's effective trials (:func:`effective_trials`) and
    :math:`d' = \max(1 + \hat
ho\,	ext{pairs}/n', 1)` the new trials' design effect
    (the estimate's outcome correlation :math:`\hat
ho` applied to their layout), the
    difference has the variance of a proportion on
    :math:`n_c = (1/n^* + d'/n')^{-1}` trials; the bound is Clopper–Pearson's on
    :math:`x = \hat p\,n_c` errors in :math:`n_c` trials (the prediction interval of a
    binomial proportion on effective counts, the normal-theory form of which is in Hahn
    & Meeker 1991 for independent trials). 1 when every trial errs, NaN without trials.

    Hahn, G. J., & Meeker, W. Q. (1991). *Statistical Intervals: A Guide for
    Practitioners* (prediction intervals for the number of occurrences in a future
    sample). Wiley.
    """
    from scipy.special import betaincinv

    if design.n == 0 or n_new <= 0:
        return float("nan")
    if design.p >= 1:
        return 1.0
    deff_new = max(1.0 + design.rho * shared_new / n_new, 1.0)
    n_c = 1.0 / (1.0 / effective_trials(design, level) + deff_new / n_new)
    x = design.p * n_c
    return float(betaincinv(x + 1.0, n_c - x, level))


def exceedance_pvalue(design: ClusterDesign, target: float, level: float = 0.95) -> float:
    r"""One-sided p-value of "the rate is at most ``target``" from the effective counts
    (``level`` sets the degrees-of-freedom factor of :func:`effective_size`): the
    probability of at least :math:`x^*` errors in :math:`n^*` trials at rate ``target``,
    :math:`I_{target}(x^*, n^* - x^* + 1)` (1 without errors), so that it is below
    :math:`1 - \gamma` exactly where the one-sided lower Clopper–Pearson bound at
    :math:`\gamma` exceeds ``target``."""
    from scipy.special import betainc  # the Beta distribution function

    if design.n == 0:
        return float("nan")
    n_eff = effective_trials(design, level)
    x = design.p * n_eff
    if x <= 0:
        return 1.0
    return float(betainc(x, n_eff - x + 1.0, target))


def exact_interval(design: ClusterDesign, level: float) -> tuple[float, float]:
    """Two-sided Clopper–Pearson interval at ``level`` on the effective counts of
    :func:`effective_trials` (each side at ``(1 + level) / 2``); ends at 0 and 1 when no
    trial or every trial errs."""
    from scipy.special import betaincinv

    if design.n == 0:
        return float("nan"), float("nan")
    q = (1 + level) / 2
    n_eff = effective_trials(design, q)
    x = design.p * n_eff
    low = 0.0 if x <= 0 else float(betaincinv(x, n_eff - x + 1.0, 1 - q))
    high = 1.0 if design.p >= 1 else float(betaincinv(x + 1.0, n_eff - x, q))
    return low, high


def lower_bound(design: ClusterDesign, level: float) -> float:
    """One-sided Clopper–Pearson lower confidence bound at ``level`` on the effective
    counts of :func:`effective_trials` (0 without errors, NaN without trials)."""
    from scipy.special import betaincinv

    if design.n == 0:
        return float("nan")
    n_eff = effective_trials(design, level)
    x = design.p * n_eff
    return 0.0 if x <= 0 else float(betaincinv(x, n_eff - x + 1.0, 1 - level))
