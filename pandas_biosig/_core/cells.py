"""Replicated counts of the eight decision cells of two systems at fixed thresholds.

A documented internal module (docs/architecture.md, layer 1). A trial falls in one of
eight cells (class x A accepts x B accepts); a difference of FAR, FRR or HTER between the
two systems reads only the cells' marginal counts (:func:`cell_marginals`), integers that
are exact in floating point whatever order they are summed in. The in-memory paired
bootstrap (:mod:`pandas_biosig._core.replicates`) and the out-of-core one
(:mod:`pandas_biosig.outofcore`) both draw their replicates here.
"""

from __future__ import annotations

import numpy as np

__all__ = ["cell_deltas", "cell_draws", "cell_marginals", "marginal_deltas"]


def cell_marginals(cells: np.ndarray) -> np.ndarray:
    """The counts a difference at fixed thresholds reads, from cell counts ``(..., 8)``
    (``4 * genuine + 2 * A accepts + B accepts``): ``(..., 6)`` floats, impostors, A's and
    B's false acceptances, genuines, A's and B's false rejections. Integer-valued, so exact whatever the order
    of the sums (below 2**53)."""
    c = np.asarray(cells, dtype=np.float64)
    return np.stack([c[..., :4].sum(axis=-1), c[..., 2] + c[..., 3], c[..., 1] + c[..., 3],
                     c[..., 4:].sum(axis=-1), c[..., 4] + c[..., 5], c[..., 4] + c[..., 6]],
                    axis=-1)


def marginal_deltas(counts: np.ndarray, metric: str) -> np.ndarray:
    """Replicated metric(A) - metric(B) from each replicate's marginal counts
    (:func:`cell_marginals`, one row per replicate); NaN where a class was drawn empty."""
    with np.errstate(invalid="ignore", divide="ignore"):
        ni, nc = counts[:, 0], counts[:, 3]
        far_a, far_b = counts[:, 1] / ni, counts[:, 2] / ni
        frr_a, frr_b = counts[:, 4] / nc, counts[:, 5] / nc
    if metric == "far":
        return far_a - far_b
    if metric == "frr":
        return frr_a - frr_b
    return (far_a + frr_a) / 2 - (far_b + frr_b) / 2


def cell_deltas(n_cell: np.ndarray, metric: str, n_resamples: int, resample: str,
                rng) -> np.ndarray:
    """Replicated differences with trials drawn (``"label"`` or ``"trial"``) from the
    pair's 8 cell counts (:func:`cell_draws`)."""
    counts = cell_draws(np.asarray(n_cell), n_resamples, resample, rng)
    return marginal_deltas(cell_marginals(counts), metric)


def cell_draws(n_cell: np.ndarray, n_resamples: int, resample: str, rng) -> np.ndarray:
    """Replicated counts of the 8 cells (class x A accepts x B accepts), drawn so that
    swapping A and B swaps the discordant cells of every replicate: per class, the two
    concordant cells and the discordant total first, then the split of the discordant
    trials, binomially (numpy draws Bin(n, 1 - q) as n - Bin(n, q) from the same stream).
    """
    n_cell = n_cell.astype(np.int64)
    totals = n_cell.reshape(2, 4).sum(axis=1)
    if resample == "label":
        per_class = np.broadcast_to(totals, (n_resamples, 2))
    else:  # trials regardless of class: the class sizes vary too
        n = int(totals.sum())
        n_neg = rng.binomial(n, totals[0] / n, size=n_resamples)
        per_class = np.stack([n_neg, n - n_neg], axis=1)
    counts = np.zeros((n_resamples, 8))
    disc = n_cell[[1, 5]] + n_cell[[2, 6]]
    sign = np.sign(n_cell[[2, 6]] - n_cell[[1, 5]])  # which of A, B errs alone more
    for k, lo in enumerate((0, 4)):
        size = totals[k]
        if size == 0:
            continue
        probs = np.array([n_cell[lo], n_cell[lo + 3], disc[k]], dtype=np.float64) / size
        three = _multinomial(rng, per_class[:, k], probs)
        counts[:, lo], counts[:, lo + 3] = three[:, 0], three[:, 1]
        d = three[:, 2]
        if disc[k] == 0:
            continue
        if n_cell[lo + 1] == 0 or n_cell[lo + 2] == 0:  # one-sided: no draw (numpy
            a_alone = d if n_cell[lo + 1] == 0 else d * 0  # may consume the stream at p=1)
        else:
            a_alone = rng.binomial(d, n_cell[lo + 2] / disc[k])
            if sign[k] == 0 and sign[1 - k] < 0:  # a tie: orient it by the other class
                a_alone = d - a_alone
        counts[:, lo + 2], counts[:, lo + 1] = a_alone, d - a_alone
    return counts


def _multinomial(rng, n: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """One multinomial draw per entry of ``n`` (numpy broadcasts the counts)."""
    return rng.multinomial(np.asarray(n, dtype=np.int64), probs)
