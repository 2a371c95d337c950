"""One group's people bootstrap read a block of replicates at a time.

A documented internal module (docs/architecture.md, layer 1). A replicate that resamples
people (``resample="subject"`` or ``"two_way"``) draws the people's multiplicities from
the generator one replicate after another (:meth:`Replicates.draw
<pandas_biosig._core.replicates.Replicates.draw>`: the stream the out-of-core bootstrap
reproduces). The draws stay one by one; what follows them, the trials' weights and the
metric, is computed for a block of replicates at once
(:class:`~pandas_biosig._kernels.replicate_sweeps.ReplicateSweeps`), for the EER
(threshold and interpolated) and the rates at a fixed threshold. Every value equals that
of the replicate's own reweighted sweep, to the bit, so a seed gives the numbers it gave
one replicate at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from .._kernels.replicate_sweeps import ReplicateSweeps, block_rows
from .._kernels.resample import people_weights, uniform_counts
from .protocol import PEOPLE

if TYPE_CHECKING:
    from .replicates import PairedResampler, Replicates

__all__ = ["BLOCK_METRICS", "PAIRED_BLOCK_METRICS", "block_applies", "block_values",
           "class_weights", "paired_block_deltas"]

#: Metrics whose people replicates are read a block at a time.
BLOCK_METRICS = {"eer_threshold", "eer_interpolated", "far", "frr", "hter"}


#: Metrics of the paired bootstrap read a block at a time (the rates at fixed thresholds
#: have their own cell-count path).
PAIRED_BLOCK_METRICS = {"eer_threshold", "eer_interpolated"}


def class_weights(reps: Replicates, mult: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The impostor and genuine trials' weights, each class in its sweep's order, from
    the people's multiplicities ``mult`` (last axis; any leading axes)."""
    w = people_weights(mult, reps.clusters, reps.reference, reps.group.genuine)
    neg_order, pos_order = reps.perm
    return w[..., neg_order], w[..., pos_order]


def block_applies(reps: Replicates | None, metric: str) -> bool:
    """Whether ``reps`` resamples people for a metric of :data:`BLOCK_METRICS`, without
    counted trials."""
    return (reps is not None and reps.resample in PEOPLE and metric in BLOCK_METRICS
            and getattr(reps.group, "count", None) is None)


def block_values(reps: Replicates, metric: str, t: float, n_resamples: int,
                 rng: np.random.Generator, tick: Callable[[int], None],
                 done: int) -> tuple[np.ndarray, int]:
    """``(values, empty)``: the metric of ``n_resamples`` replicates (NaN where one drew
    no trial of a class) and how many did so; ``tick(done + i)`` after each block."""
    sw = reps.sweep
    values = np.empty(n_resamples)
    step = block_rows(sw.rn + sw.neg.size + sw.rp + sw.pos.size)
    for a in range(0, n_resamples, step):
        b = min(n_resamples, a + step)
        mult = np.stack([uniform_counts(rng, reps.n_clusters) for _ in range(b - a)])
        rs = ReplicateSweeps(sw, *class_weights(reps, mult))
        if metric in ("eer_threshold", "eer_interpolated"):
            values[a:b] = rs.eer("interpolated" if metric == "eer_interpolated" else "threshold")
        else:
            far, frr = rs.rates_at(t)
            values[a:b] = far if metric == "far" else frr if metric == "frr" else (far + frr) / 2
        tick(done + b)
    return values, int(np.isnan(values).sum())


def paired_block_deltas(res: PairedResampler, metric: str, n_resamples: int,
                        rng: np.random.Generator, tick: Callable[[int], None] | None
                        ) -> tuple[np.ndarray, int]:
    """``(deltas, empty)`` of the paired bootstrap of an EER: metric(A) - metric(B) of
    ``n_resamples`` replicates whose trial multiplicities are drawn one after another
    (:meth:`PairedResampler.weights <pandas_biosig._core.replicates.PairedResampler.weights>`,
    any unit), NaN where a system's replicate drew a class empty, and how many did."""
    method = "interpolated" if metric == "eer_interpolated" else "threshold"
    deltas = np.empty(n_resamples)
    empty = 0
    step = block_rows(2 * res.groups[0].genuine.size)
    for a in range(0, n_resamples, step):
        b = min(n_resamples, a + step)
        w = np.stack([res.weights(rng) for _ in range(b - a)])
        sweeps = [ReplicateSweeps(sw, w[:, neg], w[:, pos])
                  for sw, (neg, pos) in zip(res.sweeps, res.perms, strict=True)]
        void = sweeps[0].empty | sweeps[1].empty
        deltas[a:b] = np.where(void, np.nan, sweeps[0].eer(method) - sweeps[1].eer(method))
        empty += int(void.sum())
        if tick is not None:
            tick(b)
    return deltas, empty
