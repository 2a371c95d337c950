"""Identification (1:N search) kernels (numpy only).

Conventions: scores are oriented (higher = more similar); ``-inf`` marks a comparison that
failed (it never matches).  Rows are comparisons of one probe with one reference;
``probe`` holds an integer code per row in ``0..n_probes-1`` and ``mate`` says whether the
reference is the probe's mate.

The rank of a probe follows bob.measure: **ties count against the probe**,

    rank = 1 + #{non-mate scores of the probe >= its best mate score},

so a probe is correct at rank ``k`` iff at most ``k - 1`` non-mates score at least as high
as its best mate.  Several mates: the best one counts and the others are never counted
against the probe.  Probes without a mate (open-set probes) have no rank (NaN).

Nothing is sorted: the rank of every probe is one comparison per row against the best mate
score of its probe (gathered through the probe codes) and one ``bincount`` -- or, when the
rows come grouped by probe, one reduction per run of rows -- O(n) in time, chunk by chunk.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .rates import Sweep
from .resample import uniform_counts

__all__ = [
    "ProbeStats",
    "cmc_counts",
    "cmc_difference_replicates",
    "has_duplicate_pairs",
    "open_set_counts",
    "open_set_sweep",
    "probe_stats",
    "recognition_counts",
]

#: Rows per chunk of the passes over the rows: bounds the temporaries (a few arrays of the
#: chunk's length); larger chunks are not faster.
CHUNK = 1 << 22


class ProbeStats(NamedTuple):
    """Per-probe results of one search experiment (arrays of length ``n_probes``).

    ``n_references``: comparisons of the probe; ``n_mates``: those with a mate;
    ``mate_score``: best mate score (NaN without a mate); ``nonmate_score``: best
    non-mate score (NaN without a non-mate); ``rank``: 1 + non-mates scoring at least
    ``mate_score`` (float, NaN without a mate).
    """

    n_references: np.ndarray
    n_mates: np.ndarray
    mate_score: np.ndarray
    nonmate_score: np.ndarray
    rank: np.ndarray

    @property
    def mated(self) -> np.ndarray:
        return self.n_mates > 0

    def take(self, idx) -> ProbeStats:
        """The statistics of the probes ``idx`` (an index or boolean mask)."""
        return ProbeStats(*(a[idx] for a in self))


def probe_stats(probe: np.ndarray, mate: np.ndarray, scores: np.ndarray, n_probes: int) -> ProbeStats:
    """Ranks and best mate / non-mate scores of every probe, in one pass over the rows.

    Parameters
    ----------
    probe : ndarray of int
        Probe code of each row, in ``0..n_probes-1``.
    mate : ndarray of bool
        Whether the row compares the probe with one of its mates.
    scores : ndarray of float64
        Oriented scores (higher = more similar, ``-inf`` = failed comparison).
    n_probes : int
        Number of probe codes.

    Returns
    -------
    ProbeStats
    """
    probe = np.asarray(probe)
    mate = np.asarray(mate, dtype=bool)
    scores = np.asarray(scores, dtype=np.float64)
    mate_probe = np.compress(mate, probe)
    mate_scores = np.compress(mate, scores)
    n_mates = np.bincount(mate_probe, minlength=n_probes)
    best = np.full(n_probes, np.nan)
    np.fmax.at(best, mate_probe, mate_scores)  # NaN start: fmax keeps the score

    # rows per probe, rows scoring at least the best mate score of their probe (NaN: no
    # mate, never) and best non-mate score, chunk by chunk
    n_refs = np.zeros(n_probes, dtype=np.int64)
    at_least = np.zeros(n_probes, dtype=np.int64)
    top = np.full(n_probes, -np.inf)
    for start in range(0, probe.size, CHUNK):
        stop = start + CHUNK
        _rank_pass(
            probe[start:stop], scores[start:stop], mate[start:stop], best, n_refs, at_least, top
        )
    # the mates among them are those at the best mate score (the best one and its ties)
    at_best = np.bincount(np.compress(mate_scores >= best[mate_probe], mate_probe), minlength=n_probes)
    mated = n_mates > 0
    rank = np.where(mated, (at_least - at_best + 1).astype(np.float64), np.nan)
    nonmate = np.where(n_refs > n_mates, top, np.nan)
    return ProbeStats(n_refs, n_mates, best, nonmate, rank)


def _rank_pass(p, s, m, best, n_refs, at_least, top) -> None:
    """Add one chunk's rows to ``n_refs``, ``at_least`` (rows >= the best mate score) and
    ``top`` (best non-mate score), per probe.

    Rows grouped by probe (codes non-decreasing, as in a score matrix read row by row) are
    reduced per run of equal codes, which avoids the scattered updates.
    """
    nonmate = np.where(m, -np.inf, s)
    if p.size > 1 and _non_decreasing(p):
        starts = np.flatnonzero(np.concatenate(([True], p[1:] != p[:-1])))
        keys = p[starts].astype(np.intp)
        lengths = np.diff(np.append(starts, p.size))
        hit = np.greater_equal(s, np.repeat(best[keys], lengths))
        n_refs[keys] += lengths
        at_least[keys] += np.add.reduceat(hit, starts, dtype=np.int64)
        top[keys] = np.maximum(top[keys], np.maximum.reduceat(nonmate, starts))
        return
    p = p.astype(np.intp)
    hit = np.greater_equal(s, best[p])
    n_refs += np.bincount(p, minlength=n_refs.size)
    at_least += np.bincount(np.compress(hit, p), minlength=at_least.size)
    np.maximum.at(top, p, nonmate)


def has_duplicate_pairs(
    probe: np.ndarray, reference: np.ndarray, n_probes: int, n_references: int
) -> bool:
    """Whether some (probe, reference) pair of codes occurs twice (rows in any order).

    A bitmap over the ``n_probes * n_references`` pair codes when it is not much larger
    than the table (O(n), filled chunk by chunk), a sort of the pair codes otherwise.  Rows
    grouped by reference (as bob writes its score files) are keyed reference-major, so
    consecutive rows fill neighbouring bits.
    """
    n = np.size(probe)
    if n < 2:
        return False
    head = slice(0, min(n, CHUNK))
    if _non_decreasing(reference[head]) and not _non_decreasing(probe[head]):
        probe, reference = reference, probe
        n_probes, n_references = n_references, n_probes
    size = int(n_probes) * int(n_references)
    if size <= max(8 * n, 1 << 20):
        dtype: type[np.signedinteger] = np.int32 if size < 2**31 else np.int64
        stride = dtype(n_references)
        seen = np.zeros(size, dtype=bool)
        for start in range(0, n, CHUNK):
            key = probe[start : start + CHUNK].astype(dtype) * stride
            key += reference[start : start + CHUNK]
            seen[key] = True
        return int(np.count_nonzero(seen)) < n
    stride = np.int64(n_references)
    key = np.asarray(probe, dtype=np.int64) * stride + np.asarray(reference, dtype=np.int64)
    key.sort()
    return bool(np.any(key[1:] == key[:-1]))


def _non_decreasing(a: np.ndarray) -> bool:
    return a.size < 2 or bool(np.all(a[1:] >= a[:-1]))


def cmc_counts(rank: np.ndarray, max_rank: int) -> np.ndarray:
    """Cumulative number of ranked probes with ``rank <= r`` for ``r = 1..max_rank``.

    ``rank`` holds the ranks of mated probes (NaN entries are ignored).
    """
    rank = np.asarray(rank, dtype=np.float64)
    r = rank[~np.isnan(rank)].astype(np.int64)
    counts = np.bincount(np.minimum(r, max_rank + 1), minlength=max_rank + 2)
    return np.cumsum(counts[1 : max_rank + 1])


def recognition_counts(rank: np.ndarray, at_rank) -> np.ndarray:
    """Number of mated probes correct at each rank of ``at_rank`` (rank <= k)."""
    rank = np.asarray(rank, dtype=np.float64)
    r = np.sort(rank[~np.isnan(rank)])
    return np.searchsorted(r, np.asarray(at_rank, dtype=np.float64), side="right")


def open_set_counts(mate_score, rank, unmated_top, threshold, at_rank: int):
    """Detected-and-identified mated probes and false alarms at ``threshold``.

    A mated probe is detected and identified iff ``rank <= at_rank`` and its best mate
    score is ``>= threshold``; an unmated probe raises a false alarm iff its best score is
    ``>= threshold`` (Phillips, Grother & Micheals, 2005; bob.measure).

    Returns ``(detected, false_alarms)`` (arrays shaped like ``threshold``).
    """
    mate_score = np.asarray(mate_score, dtype=np.float64)
    rank = np.asarray(rank, dtype=np.float64)
    good = np.sort(mate_score[rank <= at_rank])
    top = np.sort(np.asarray(unmated_top, dtype=np.float64))
    t = np.asarray(threshold, dtype=np.float64)
    detected = good.size - np.searchsorted(good, t, side="left")
    false_alarms = top.size - np.searchsorted(top, t, side="left")
    return detected, false_alarms


def open_set_sweep(mate_score, rank, unmated_top, at_rank: int) -> Sweep:
    """The DIR-vs-FAR problem as a verification sweep.

    Negatives are the best scores of the unmated probes (a false alarm is a negative
    accepted); positives are the best mate scores of the mated probes (``rank`` not NaN),
    with ``-inf`` for the probes not correct at ``at_rank`` (never detected and identified, whatever the
    threshold).  So FAR = false alarm rate and 1 - FRR = DIR at every threshold, and the
    sweep's candidate thresholds and ``fnmr_at_fmr`` apply unchanged.
    """
    mate_score = np.asarray(mate_score, dtype=np.float64)
    rank = np.asarray(rank, dtype=np.float64)
    mated = ~np.isnan(rank)
    positives = np.where(rank[mated] <= at_rank, mate_score[mated], -np.inf)
    return Sweep(np.asarray(unmated_top, dtype=np.float64), positives)


def cmc_difference_replicates(
    rank_a: np.ndarray,
    rank_b: np.ndarray,
    max_rank: int,
    n_resamples: int,
    rng: np.random.Generator,
) -> np.ndarray:
    """Paired bootstrap replicates of CMC_A - CMC_B over ranks ``1..max_rank``.

    ``rank_a`` and ``rank_b`` are the ranks of the same probes (aligned, no NaN).  Each
    replicate draws the probes with replacement (the same draw for both systems) and
    returns an array of shape ``(n_resamples, max_rank)``.
    """
    n = rank_a.size
    ra = np.minimum(rank_a.astype(np.int64), max_rank + 1)
    rb = np.minimum(rank_b.astype(np.int64), max_rank + 1)
    out = np.empty((n_resamples, max_rank))
    for i in range(n_resamples):
        w = uniform_counts(rng, n)
        ca = np.bincount(ra, weights=w, minlength=max_rank + 2)
        cb = np.bincount(rb, weights=w, minlength=max_rank + 2)
        out[i] = np.cumsum(ca[1 : max_rank + 1] - cb[1 : max_rank + 1]) / n
    return out
