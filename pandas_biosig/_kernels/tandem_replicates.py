"""Bootstrap replicates of the tandem metrics from trial multiplicities (numpy only).

A bootstrap replicate draws trials (or whole speakers) with replacement: each trial gets
a multiplicity, and the replicate's metric is the metric of the table in which every
trial appears that many times (the *expanded* table). The scores are sorted once, when a
group is prepared; a block of replicates is then a matrix ``W`` of multiplicities (one
row per replicate, one column per trial of the group) and cumulative sums of ``W`` along
the sorted order give every replicate's counts below every score at once. Nothing is
sorted per replicate, and the values equal those of :mod:`pandas_biosig._kernels.tandem`
on the expanded tables (``tests/test_tandem_resampling.py`` checks it):

- :class:`AsvReplicates`: the ASV's rates at the organisers' EER threshold (found in the
  expanded order: the crossing of ``FRR - FAR``, which increases by one step per
  expanded trial, is located between the cumulative sums and then inside the copies of
  one trial), or at a fixed threshold;
- :class:`ClassReplicates`: the rates of two or three classes of scores at every distinct
  score, from which the minimum t-DCF, the minimum a-DCF and the CM's minimum DCF follow;
- :func:`tdcf_weight_arrays`: the t-DCF weights of many ASV operating points (NaN where
  the kernel refuses the weights);
- :func:`expanded_teer`: the t-EER of one replicate, from the sorted scores repeated by
  their multiplicities (already sorted: the kernel skips its sorts).
"""

from __future__ import annotations

import numpy as np

from .tandem import TandemCosts2019, teer

__all__ = [
    "AsvReplicates",
    "ClassReplicates",
    "block_size",
    "expanded_teer",
    "taker",
    "tdcf_weight_arrays",
]

#: Cells (replicates x trials) of one block of multiplicities: about 32 MB of float64.
_BLOCK_CELLS = 1 << 16


def block_size(n_trials: int, n_resamples: int) -> int:
    """How many replicates one block holds for a group of ``n_trials`` trials."""
    return int(max(1, min(n_resamples, _BLOCK_CELLS // max(n_trials, 1))))


def taker(W):
    """``take(idx)``: the multiplicities of the trials ``idx`` (replicates x ``idx``), from a
    matrix ``W`` (replicates x trials) or from a callable that gathers them itself (a
    speaker bootstrap gathers its speakers' multiplicities straight into each sorted order,
    one gather instead of two)."""
    return W if callable(W) else (lambda idx: W[:, idx])


def _cumsum0(w: np.ndarray) -> np.ndarray:
    """Row-wise cumulative sums with a leading 0 column: ``out[:, k]`` sums ``w[:, :k]``."""
    out = np.zeros((w.shape[0], w.shape[1] + 1))
    np.cumsum(w, axis=1, out=out[:, 1:])
    return out


class AsvReplicates:
    """The ASV's rates of replicates of one group (accept iff ``score >= threshold``).

    ``asv`` holds the group's ASV scores and ``kind`` their kinds (0 target, 1 non-target,
    2 spoof). ``threshold=None`` re-chooses the organisers' EER threshold in every
    replicate (:func:`pandas_biosig._kernels.tandem.asv_eer_threshold` on the expanded
    targets and non-targets); a number holds the threshold fixed.
    """

    def __init__(self, asv: np.ndarray, kind: np.ndarray, threshold: float | None = None):
        asv = np.asarray(asv, dtype=np.float64)
        licit = np.flatnonzero(kind != 2)
        # targets before non-targets among equal scores, as the organisers' stable sort
        self.m_idx = licit[np.lexsort((kind[licit], asv[licit]))]
        self.m_scores = asv[self.m_idx]
        self.m_tar = kind[self.m_idx] == 0
        spoofs = np.flatnonzero(kind == 2)
        self.s_idx = spoofs[np.argsort(asv[spoofs], kind="stable")]
        s_scores = asv[self.s_idx]
        n = self.m_idx.size
        new = np.concatenate(([True], self.m_scores[1:] != self.m_scores[:-1]))
        self.run_start = np.maximum.accumulate(np.where(new, np.arange(n), 0))
        self.spoof_below = np.searchsorted(s_scores, self.m_scores, side="left")
        self.spoof_below_low = np.searchsorted(s_scores, self.m_scores - 0.001, side="left")
        self.threshold = threshold
        if threshold is not None:
            self.fixed = (int(np.searchsorted(self.m_scores, threshold, side="left")),
                          int(np.searchsorted(s_scores, threshold, side="left")))

    def rates(self, W) -> tuple[np.ndarray, ...]:
        """``(pfa, pmiss, pmiss_spoof, pfa_spoof)`` of each row of multiplicities ``W``
        (replicates x trials of the group, or a :func:`taker`); NaN where a class is
        empty."""
        take = taker(W)
        w = take(self.m_idx)
        ct = _cumsum0(w * self.m_tar)
        cn = _cumsum0(w) - ct
        cs = _cumsum0(take(self.s_idx))
        n_t, n_n, n_s = ct[:, -1], cn[:, -1], cs[:, -1]
        ok = (n_t > 0) & (n_n > 0) & (n_s > 0)
        size = w.shape[0]
        if self.threshold is None:
            at_m, at_s = self._eer_cut(w, ct, cn, n_t, n_n, ok)
        else:
            at_m = np.full(size, self.fixed[0])
            at_s = np.full(size, self.fixed[1])
        rows = np.arange(size)
        rej_t, rej_n, rej_s = ct[rows, at_m], cn[rows, at_m], cs[rows, at_s]
        with np.errstate(invalid="ignore", divide="ignore"):
            out = ((n_n - rej_n) / n_n, rej_t / n_t, rej_s / n_s, (n_s - rej_s) / n_s)
        return tuple(np.where(ok, v, np.nan) for v in out)

    def _eer_cut(self, w, ct, cn, n_t, n_n, ok):
        """Per replicate, where the organisers' EER threshold ``tau`` cuts the sorted
        targets and non-targets (the first index of ``tau``'s run: the trials below are
        rejected) and the sorted spoofs."""
        rows = np.arange(w.shape[0])
        n_t = np.where(ok, n_t, 1.0)
        n_n = np.where(ok, n_n, 1.0)

        def gap(k):  # FRR - FAR at the cut before trial k (non-decreasing in k)
            return ct[rows, k] / n_t - (n_n - cn[rows, k]) / n_n

        lo, hi = np.zeros(rows.size, dtype=np.int64), np.full(rows.size, w.shape[1])
        while (lo < hi).any():  # the first cut with FRR - FAR >= 0, by bisection
            mid = (lo + hi) >> 1
            up = gap(mid) >= 0
            hi, lo = np.where(up, mid, hi), np.where(up, lo, np.minimum(mid + 1, hi))
        q = np.maximum(lo - 1, 0)  # the crossing is inside the copies of trial q
        m = w[rows, q]
        tar = self.m_tar[q]
        k_t, k_n = ct[rows, q], cn[rows, q]

        def d(j):  # FRR - FAR after j copies of trial q (the organisers' operations)
            return (k_t + j * tar) / n_t - (n_n - (k_n + j * ~tar)) / n_n

        step = np.where(tar, n_t, n_n)
        j = np.clip(np.ceil(-gap(q) * step), 1, np.maximum(m, 1))
        for _ in range(2):  # rounding: the first j in [1, m] with d(j) >= 0
            j = np.where((j > 1) & (d(j - 1) >= 0), j - 1, j)
            j = np.where((j < m) & (d(j) < 0), j + 1, j)
        j = np.where(np.abs(d(j - 1)) <= np.abs(d(j)), j - 1, j)  # the first of equals
        before = np.full(rows.size, -1)
        for i in np.flatnonzero((j < 1) & (q > 0)):  # the last trial drawn before q
            drawn = np.flatnonzero(w[i, :q[i]] > 0)
            before[i] = drawn[-1] if drawn.size else -1
        r = np.where(j >= 1, q, np.maximum(before, 0))  # the highest rejected trial
        low = (j < 1) & (before < 0)  # nothing rejected: tau = lowest score - 0.001
        at_m = np.where(low, 0, self.run_start[r])
        at_s = np.where(low, self.spoof_below_low[q], self.spoof_below[r])
        return at_m, at_s


class ClassReplicates:
    """The rates of two or three classes of scores at every distinct score, for blocks of
    replicates: accepting the scores ``>= u`` for every distinct finite score ``u`` of
    the group, then rejecting all (as :func:`pandas_biosig._kernels.tandem.min_tdcf`
    and :func:`~pandas_biosig._kernels.tandem.min_adcf` sweep; ``-inf`` is rejected
    at every threshold)."""

    def __init__(self, scores: np.ndarray, classes: np.ndarray, n_classes: int):
        scores = np.asarray(scores, dtype=np.float64)
        self.order = np.lexsort((classes, scores))
        self.classes = classes[self.order]
        self.n_classes = n_classes
        merged = scores[self.order]
        new = np.concatenate(([True], merged[1:] != merged[:-1]))
        starts = np.flatnonzero(new)
        starts = starts[merged[starts] > -np.inf]
        self.at = np.append(starts, merged.size)

    def below(self, W) -> list[np.ndarray]:
        """Per class, the multiplicities below each point (replicates x points, ``W`` a
        matrix of multiplicities or a :func:`taker`); the last point (reject all) holds
        each class's total."""
        w = taker(W)(self.order)
        out = [_cumsum0(w * (self.classes == c))[:, self.at] for c in range(self.n_classes - 1)]
        return [*out, _cumsum0(w)[:, self.at] - sum(out)]


def tdcf_weight_arrays(costs, pfa, pmiss, pmiss_spoof, pfa_spoof):
    """``(c0, c1, c2, norm)`` of many ASV operating points, by the operations of
    :func:`~pandas_biosig._kernels.tandem.tdcf_weights_2019` (``costs`` a
    :class:`TandemCosts2019`) or :func:`~pandas_biosig._kernels.tandem.tdcf_weights`;
    NaN where the kernel refuses them (a negative weight, a normalizer that is not
    positive)."""
    if isinstance(costs, TandemCosts2019):
        c1 = costs.p_target * (costs.c_miss_cm - costs.c_miss_asv * pmiss) - \
            costs.p_nontarget * costs.c_fa_asv * pfa
        c2 = costs.c_fa_cm * costs.p_spoof * (1 - pmiss_spoof)
        c0 = np.zeros_like(c1)
        norm = np.minimum(c1, c2)
    else:  # TandemCosts
        c0 = costs.p_target * costs.c_miss * pmiss + costs.p_nontarget * costs.c_fa * pfa
        c1 = costs.p_target * costs.c_miss - (
            costs.p_target * costs.c_miss * pmiss + costs.p_nontarget * costs.c_fa * pfa)
        c2 = costs.p_spoof * costs.c_fa_spoof * pfa_spoof
        norm = c0 + np.minimum(c1, c2)
    bad = ~((c0 >= 0) & (c1 >= 0) & (c2 >= 0) & (norm > 0))
    return tuple(np.where(bad, np.nan, v) for v in (c0, c1, c2, norm))


def expanded_teer(sorted_classes: list[np.ndarray], weights: list[np.ndarray]) -> float:
    """The t-EER of one replicate: ``sorted_classes`` are the sorted ASV scores of the
    targets, non-targets and spoofs and the sorted CM scores of the bona fide trials and
    the spoofs, ``weights`` their multiplicities; NaN where the t-EER is undefined."""
    expanded = [np.repeat(s, np.asarray(w, dtype=np.int64))
                for s, w in zip(sorted_classes, weights, strict=True)]
    if any(e.size == 0 for e in expanded):
        return float("nan")
    try:
        return teer(*expanded, presorted=True).teer
    except ValueError:  # the t-EER is undefined on this replicate
        return float("nan")
