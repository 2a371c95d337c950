"""Figures of merit of demographic differentials (numpy only).

Every function takes per-group rates along the last axis (one value per demographic
group; leading axes are bootstrap replicates or thresholds) and returns one value per
leading index. Formulas and sources are in ``docs/methods.md``:

- spread and ratio of the per-group rates (max − min, max / min);
- FDR, the fairness discrepancy rate (de Freitas Pereira & Marcel, 2021);
- the Gini coefficient with the small-sample factor n / (n − 1), and GARBE (Howard et
  al., 2022);
- the inequity rate (max/min FMR)^w · (max/min FNMR)^(1−w);
- the area under an FDR curve over FMR targets, on a linear or log10 FMR axis normalized
  to [0, 1].

Undefined values are NaN, never ``inf``: a ratio whose smallest rate is 0, a Gini
coefficient whose rates are all 0, or fewer than two groups.
"""

from __future__ import annotations

import numpy as np

from .cluster import design_effect

__all__ = [
    "area",
    "cluster_weights",
    "effective_size",
    "fdr",
    "garbe",
    "gini",
    "inequity_rate",
    "ratio",
    "ratio_of_sums",
    "spread",
    "stratified_weights",
    "weighted_rates",
]

#: Integration scales of :func:`area`.
SCALES = ("linear", "log")


def spread(rates) -> np.ndarray:
    """max − min of the rates along the last axis (NaN when any rate is NaN)."""
    x = np.asarray(rates, dtype=np.float64)
    return x.max(axis=-1) - x.min(axis=-1)


def ratio(rates) -> np.ndarray | float:
    """max / min of the rates along the last axis; NaN when the smallest rate is 0."""
    x = np.asarray(rates, dtype=np.float64)
    lo = x.min(axis=-1)
    hi = x.max(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(lo > 0, hi / np.where(lo > 0, lo, 1.0), np.nan)
    return out if out.ndim else float(out)


def gini(rates) -> np.ndarray | float:
    r"""Gini coefficient of the rates along the last axis, with the n/(n−1) factor.

    .. math:: G = \frac{n}{n-1}\,\frac{\sum_i\sum_j |x_i - x_j|}{2 n^2 \bar x}

    NaN when the mean is 0 or there are fewer than two groups. With the factor, one group
    holding all the errors gives G = 1 whatever n.
    """
    x = np.asarray(rates, dtype=np.float64)
    n = x.shape[-1]
    if n < 2:
        return np.full(x.shape[:-1], np.nan) if x.ndim > 1 else float("nan")
    mean = x.mean(axis=-1)
    diff = np.abs(x[..., :, None] - x[..., None, :]).sum(axis=(-2, -1))
    with np.errstate(divide="ignore", invalid="ignore"):
        g = np.where(mean > 0, n / (n - 1) * diff / (2.0 * n * n * np.where(mean > 0, mean, 1.0)), np.nan)
    return g if g.ndim else float(g)


def fdr(fmr, fnmr, weight: float = 0.5) -> np.ndarray:
    r"""Fairness discrepancy rate: :math:`1 - (w\,A + (1-w)\,B)` with A, B the largest
    pairwise differences (max − min) of the per-group FMRs and FNMRs."""
    return 1.0 - (weight * spread(fmr) + (1.0 - weight) * spread(fnmr))


def garbe(fmr, fnmr, weight: float = 0.5) -> np.ndarray | float:
    r"""GARBE: :math:`w\,G(FMR) + (1-w)\,G(FNMR)` (Howard et al., 2022)."""
    return weight * gini(fmr) + (1.0 - weight) * gini(fnmr)


def inequity_rate(fmr, fnmr, weight: float = 0.5) -> np.ndarray | float:
    r""":math:`(\max/\min FMR)^{w}\,(\max/\min FNMR)^{1-w}`; NaN when a ratio with a
    non-zero exponent is undefined (its smallest rate is 0)."""
    rf = np.asarray(ratio(fmr), dtype=np.float64)
    rn = np.asarray(ratio(fnmr), dtype=np.float64)
    a = rf**weight if weight > 0 else np.ones_like(rf)
    b = rn ** (1.0 - weight) if weight < 1 else np.ones_like(rn)
    out = a * b
    return out if out.ndim else float(out)


def area(values, targets, scale: str = "linear") -> np.ndarray:
    r"""Area under a curve of ``values`` over FMR ``targets`` (last axis), trapezoids on
    the FMR axis (``"linear"``) or the log10 FMR axis (``"log"``) rescaled to [0, 1].

    A constant curve has area equal to its value, so the area of an FDR curve is an FDR
    averaged over the chosen axis. ``"linear"`` is the FDR authors' ``fpr_auc_score``.
    """
    if scale not in SCALES:
        raise ValueError(f"scale={scale!r} is not one of {list(SCALES)}")
    t = np.asarray(targets, dtype=np.float64)
    y = np.asarray(values, dtype=np.float64)
    x = np.log10(t) if scale == "log" else t
    order = np.argsort(x)
    x = x[order]
    y = y[..., order]
    x = (x - x[0]) / (x[-1] - x[0])
    dx = np.diff(x)
    return ((y[..., 1:] + y[..., :-1]) / 2.0 * dx).sum(axis=-1)


def cluster_weights(rng: np.random.Generator, n_clusters: int, n_resamples: int) -> np.ndarray:
    """Multiplicities of ``n_clusters`` clusters drawn with replacement, one row per
    replicate: an ``(n_resamples, n_clusters)`` int64 array whose rows sum to
    ``n_clusters``."""
    if n_clusters == 0:
        return np.zeros((n_resamples, 0), dtype=np.int64)
    draws = rng.integers(0, n_clusters, size=(n_resamples, n_clusters))
    offsets = (np.arange(n_resamples) * n_clusters)[:, None]
    return np.bincount((draws + offsets).ravel(), minlength=n_resamples * n_clusters).reshape(
        n_resamples, n_clusters
    )


def stratified_weights(rng: np.random.Generator, sizes, n_resamples: int) -> np.ndarray:
    """Multiplicities of items drawn with replacement within each stratum, one row per
    replicate: the items are ordered by stratum, ``sizes[s]`` of stratum ``s``, and each
    stratum's ``sizes[s]`` draws fall on its own items only (so every row sums to
    ``sizes[s]`` over them). An ``(n_resamples, sum(sizes))`` int64 array; one stratum
    draws as :func:`cluster_weights`."""
    sizes = np.asarray(sizes, dtype=np.int64)
    m = int(sizes.sum())
    if m == 0:
        return np.zeros((n_resamples, 0), dtype=np.int64)
    start = np.repeat(np.cumsum(sizes) - sizes, sizes)  # each slot's stratum: first item
    width = np.repeat(sizes, sizes)  # ... and its size
    draws = start + rng.integers(0, width, size=(n_resamples, m))
    offsets = (np.arange(n_resamples) * m)[:, None]
    return np.bincount((draws + offsets).ravel(), minlength=n_resamples * m).reshape(
        n_resamples, m
    )


def weighted_rates(weights: np.ndarray, errors: np.ndarray, trials: np.ndarray) -> np.ndarray:
    """Error rate of every replicate: ``(W @ errors) / (W @ trials)``; NaN where a
    replicate drew no trial."""
    e = weights @ np.asarray(errors, dtype=np.float64)
    n = weights @ np.asarray(trials, dtype=np.float64)
    return ratio_of_sums(e, n)


def ratio_of_sums(errors: np.ndarray, trials: np.ndarray) -> np.ndarray:
    """``errors / trials`` of every replicate's weighted sums; NaN where a replicate drew
    no trial."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(trials > 0, errors / np.where(trials > 0, trials, 1.0), np.nan)


def effective_size(errors, trials) -> tuple[float, float, int]:
    r"""``(p, n_eff, k)`` of a rate estimated from ``k`` clusters (subjects) with
    ``errors[i]`` of ``trials[i]`` each: :math:`n_{eff} = N / d`, ``d`` the design effect
    of :func:`.cluster.design_effect` (Korn & Graubard, 1998). Clusters without trials are
    ignored; ``n_eff = N`` when p is 0 or 1 or there is one cluster."""
    e = np.asarray(errors, dtype=np.float64)
    n = np.asarray(trials, dtype=np.float64)
    keep = n > 0
    e, n = e[keep], n[keep]
    total = float(n.sum())
    if total == 0:
        return float("nan"), 0.0, 0
    return float(e.sum() / total), total / design_effect(e, n), int(n.size)
