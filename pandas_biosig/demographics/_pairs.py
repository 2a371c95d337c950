"""Every pair of groups of one (system, split) tested at once (:func:`compare_groups`).

The rows of a family are built as columns: the bootstrap tests of all pairs read the
replicated differences of a block of pairs as one array (p-values, standard deviations
and percentile intervals along its rows), and the exact bounds of a rate whose
replicates cannot vary are computed once per group. Each number is the one the test of
that pair alone gives (:func:`pair_test`), to the bit (``tests/test_demographics_pairs.py``);
a pair whose replicates hold an undefined value goes through :func:`pair_test` itself.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._core.replicates import (
    FALLBACK_DIFFERENCE,
    bootstrap_pvalue,
    clopper_pearson,
    clopper_pearson_many,
    constant_replicates,
    exact_difference,
)
from .._kernels.resample import percentile_interval

__all__ = ["bootstrap_test", "exact_fallback", "pair_columns", "pair_test", "score_test"]

#: Replicated differences held at once (pairs x replicates).
_CELLS = 1 << 22


def score_test(k1, n1, k2, n2, level):
    """Score test of two proportions and Newcombe's hybrid score interval (statsmodels):
    ``(statistic, pvalue, low, high)``."""
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = test_proportions_2indep(k1, n1, k2, n2, method="score", compare="diff")
        low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff",
                                               alpha=1 - level)
    stat, p = float(res.statistic), float(res.pvalue)
    if not np.isfinite(p):  # pooled rate 0 or 1: both groups identical, no evidence
        stat, p = 0.0, 1.0
    return stat, p, float(low), float(high)


def bootstrap_test(est: float, d: np.ndarray, level: float):
    """``(statistic, pvalue, low, high)`` of one difference from its replicated differences
    ``d`` (NaN replicates dropped): estimate / replicate s.d., the two-sided bootstrap
    p-value and the percentile interval."""
    d = d[np.isfinite(d)]
    if not d.size:
        return float("nan"), float("nan"), float("nan"), float("nan")
    p = bootstrap_pvalue(d)
    sd = float(np.std(d, ddof=1)) if d.size > 1 else float("nan")
    stat = est / sd if sd > 0 else (0.0 if est == 0 else float("nan"))
    lo, hi = (float(v) for v in percentile_interval(d, level))
    return stat, p, lo, hi


def pair_test(reps, metric, a, b, counts, est, level, units):
    """``(statistic, pvalue, low, high, fallback_reason)`` of groups a and b: the bootstrap
    (``reps``; exact bounds when its replicates cannot vary) or the score test."""
    err, tot = counts
    if tot[a] == 0 or tot[b] == 0:
        nan = float("nan")
        return nan, nan, nan, nan, None
    if reps is None:
        return (*score_test(int(err[a]), int(tot[a]), int(err[b]), int(tot[b]), level), None)
    (da, ha), (db, hb) = reps[a][metric], reps[b][metric]
    d = da - db
    if constant_replicates(d):
        return exact_fallback(d, est, (err[a] / tot[a], ha), (err[b] / tot[b], hb), level,
                              units)
    return (*bootstrap_test(est, d, level), None)


def _exact_bounds(a, level):
    """The Clopper–Pearson bounds of one rate ``(rate, units)`` at the Bonferroni share
    of ``level`` that :func:`exact_fallback` gives it."""
    rate, n = a
    return clopper_pearson(round(rate * n), n, (1 - level) / 2)


def exact_fallback(d, est, a, b, level, units, bounds=None):
    """``(statistic, pvalue, low, high, fallback_reason)`` of a difference of two group
    rates whose replicates cannot vary (each rate 0 or 1 in every resample): exact
    Clopper–Pearson bounds of each rate on its units (the subjects, or trials, that hold
    the class), at level 1 − (1 − level)/2 each (Bonferroni), and p-value 1 when the two
    rates are equal (no evidence of a difference). ``bounds``: the two rates' bounds
    when the caller has them."""
    bounds = bounds or [_exact_bounds(a, level), _exact_bounds(b, level)]
    low, high = exact_difference(*bounds)
    p = 1.0 if est == 0 else float("nan")
    why = FALLBACK_DIFFERENCE.format(
        value=float(d[np.isfinite(d)][0]) if np.isfinite(d).any() else est, units=units, m=2,
        p="p-value 1 (the two rates are equal)" if est == 0 else "no p-value")
    return (0.0 if est == 0 else float("nan")), p, low, high, why


def pair_columns(reps, metric, pa, pb, counts, level, units) -> dict:
    """``rate_a, rate_b, estimate, statistic, pvalue, ci_low, ci_high, fallback_reason``
    of the pairs ``(pa[i], pb[i])`` of groups (arrays of group codes), as :func:`pair_test`
    gives them one by one."""
    err, tot = counts
    ta, tb = tot[pa], tot[pb]
    with np.errstate(divide="ignore", invalid="ignore"):
        ra = np.where(ta > 0, err[pa] / np.where(ta > 0, ta, 1), np.nan)
        rb = np.where(tb > 0, err[pb] / np.where(tb > 0, tb, 1), np.nan)
    est = ra - rb
    m = pa.size
    out = {name: np.full(m, np.nan) for name in ("statistic", "pvalue", "ci_low", "ci_high")}
    why: list = [None] * m
    todo = np.flatnonzero((ta > 0) & (tb > 0))
    if reps is None or not todo.size:
        for i in todo.tolist():
            res = pair_test(reps, metric, pa[i], pb[i], counts, est[i], level, units)
            _store(out, why, i, res)
    else:
        _bootstrap_columns(reps, metric, pa, pb, counts, est, level, units, todo, out, why)
    return dict(rate_a=ra, rate_b=rb, estimate=est, **out, fallback_reason=why)


def _store(out: dict, why: list, i: int, res) -> None:
    for name, v in zip(("statistic", "pvalue", "ci_low", "ci_high"), res[:4], strict=True):
        out[name][i] = v
    why[i] = res[4]


def _bootstrap_columns(reps, metric, pa, pb, counts, est, level, units, todo, out, why):
    """The bootstrap tests of the pairs ``todo``, a block of pairs at a time."""
    codes = sorted(reps)
    row = np.full(max(codes) + 1, -1)
    row[codes] = np.arange(len(codes))
    values = np.stack([reps[j][metric][0] for j in codes])
    finite_row = np.isfinite(values).all(axis=1)
    fallback = _Fallback(reps, metric, counts, level, units)
    step = max(1, _CELLS // max(values.shape[1], 1))
    for lo in range(0, todo.size, step):
        idx = todo[lo:lo + step]
        ra, rb = row[pa[idx]], row[pb[idx]]
        finite = finite_row[ra] & finite_row[rb]  # rates are finite or NaN
        for i in idx[~finite].tolist():  # undefined replicates: the pair alone
            _store(out, why, i, pair_test(reps, metric, pa[i], pb[i], counts, est[i], level,
                                          units))
        idx, ra, rb = idx[finite], ra[finite], rb[finite]
        d = values[ra] - values[rb]
        const = (d == d[:, :1]).all(axis=1)
        if const.any():
            fallback.store(idx[const], pa[idx[const]], pb[idx[const]], d[const, 0], est, out,
                           why)
        if not const.all():
            _vector_tests(d[~const], est[idx[~const]], level, idx[~const], out)


class _Fallback:
    """:func:`exact_fallback` of many pairs: each group's bounds computed once, the
    reasons formatted once per (value, estimate is 0)."""

    def __init__(self, reps, metric, counts, level, units):
        self.reps, self.metric, self.counts = reps, metric, counts
        self.level, self.units = level, units
        self.bounds: dict = {}
        self.text: dict = {}

    def _bounds(self, j) -> tuple[float, float]:
        if j not in self.bounds:
            err, tot = self.counts
            self.bounds[j] = _exact_bounds((err[j] / tot[j], self.reps[j][self.metric][1]),
                                           self.level)
        return self.bounds[j]

    def _prefetch(self, groups: np.ndarray) -> None:
        """The bounds of the groups not yet computed, in one vectorised call."""
        new = [j for j in np.unique(groups).tolist() if j not in self.bounds]
        if not new:
            return
        err, tot = self.counts
        units = np.array([self.reps[j][self.metric][1] for j in new], dtype=np.float64)
        rate = err[new] / tot[new]
        low, high = clopper_pearson_many(np.round(rate * units), units, (1 - self.level) / 2)
        self.bounds.update(zip(new, zip(low.tolist(), high.tolist(), strict=True), strict=True))

    def store(self, idx, a, b, value, est, out, why) -> None:
        self._prefetch(np.concatenate((a, b)))
        ba = np.array([self._bounds(j) for j in a]).reshape(-1, 2)
        bb = np.array([self._bounds(j) for j in b]).reshape(-1, 2)
        out["ci_low"][idx] = ba[:, 0] - bb[:, 1]  # exact_difference
        out["ci_high"][idx] = ba[:, 1] - bb[:, 0]
        zero = est[idx] == 0
        out["pvalue"][idx] = np.where(zero, 1.0, np.nan)
        out["statistic"][idx] = np.where(zero, 0.0, np.nan)
        for i, v, z in zip(idx.tolist(), value.tolist(), zero.tolist(), strict=True):
            key = (v, z)
            if key not in self.text:
                self.text[key] = FALLBACK_DIFFERENCE.format(
                    value=v, units=self.units, m=2,
                    p="p-value 1 (the two rates are equal)" if z else "no p-value")
            why[i] = self.text[key]


def _vector_tests(d: np.ndarray, est: np.ndarray, level: float, idx: np.ndarray,
                  out: dict) -> None:
    """:func:`bootstrap_test` of every row of ``d`` (finite replicated differences)."""
    b = d.shape[1]
    below = (np.count_nonzero(d <= 0, axis=1) + 1) / (b + 1)
    above = (np.count_nonzero(d >= 0, axis=1) + 1) / (b + 1)
    out["pvalue"][idx] = np.minimum(1.0, 2 * np.minimum(below, above))
    sd = np.std(d, ddof=1, axis=1) if b > 1 else np.full(d.shape[0], np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        stat = np.where(sd > 0, est / np.where(sd > 0, sd, 1.0),
                        np.where(est == 0, 0.0, np.nan))
    out["statistic"][idx] = stat
    alpha = 1 - level
    low, high = np.quantile(d, [alpha / 2, 1 - alpha / 2], axis=1)
    out["ci_low"][idx], out["ci_high"][idx] = low, high
