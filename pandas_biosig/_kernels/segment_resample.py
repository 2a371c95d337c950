"""Bootstrap replicates of many groups at once (numpy only): label-stratified replicates
of every segment of a :class:`~pandas_biosig._kernels.segments.Segments`, drawn in
vectorised passes over all (segment, replicate) pairs.

A replicate draws each class of a segment with replacement (its size kept). The metrics
here read a replicate at a few operating points only, so, as
:class:`~pandas_biosig._kernels.resample.LazyPrefix` does for one group, a replicate's
counts are drawn only where they are read: the number of resampled impostor (genuine)
scores below a run of the segment is split binomially between the two nearest positions
already drawn. Any set of such reads is consistent with one multinomial sample, so every
value has exactly the distribution of resampling the trials and sorting them again.

- The EER (threshold and interpolated, :func:`eer_brackets`): a bisection over the runs
  of all pairs at once, each step one binomial per class for every pair still searching,
  until the two adjacent runs around the FAR = FRR crossing are known: about
  ``2 log2(runs)`` draws per replicate, whatever the number of groups.
- The rates at a fixed threshold (:func:`rates_at_fixed`): one binomial per class and
  replicate.

The floating-point operations of the rates are those of
:class:`~pandas_biosig._kernels.rates.Sweep`, so the value of a replicate equals, to the
bit, the Sweep of any full multiplicities consistent with the counts drawn
(``tests/test_segment_resample.py`` builds them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .segments import Points, Segments, interpolated_eer, threshold_eer

__all__ = [
    "Brackets",
    "bracket_eer",
    "eer_brackets",
    "eer_replicates",
    "rates_at_fixed",
]

#: (segment, replicate) pairs drawn at once: bounds the memory of a block.
BLOCK = 1 << 19


class Brackets(NamedTuple):
    """The runs around the FAR = FRR crossing of every (segment, replicate) pair, arrays
    of shape ``(segments, replicates)``: ``lo`` the segment-local position of the last
    run with FAR > FRR (its successor ``lo + 1`` the first with FAR <= FRR; the
    position past the last run is reject-all), ``cn_lo``/``cp_lo`` the replicate's
    impostor/genuine scores below run ``lo`` and ``cn_hi``/``cp_hi`` below ``lo + 1``."""

    lo: np.ndarray
    cn_lo: np.ndarray
    cp_lo: np.ndarray
    cn_hi: np.ndarray
    cp_hi: np.ndarray


def _split(rng: np.random.Generator, count: np.ndarray, part: np.ndarray,
           whole: np.ndarray) -> np.ndarray:
    """How many of ``count`` draws spread uniformly over ``whole`` items fall on the
    first ``part`` of them (binomially; none where ``whole`` is 0)."""
    prob = np.where(whole > 0, part / np.maximum(whole, 1), 0.0)
    return rng.binomial(count, prob)


def eer_replicates(sg: Segments, rng: np.random.Generator, n_resamples: int, method: str, *,
                   block: int = BLOCK, tick: Callable[[int], None] | None = None) -> np.ndarray:
    """The EER (:func:`bracket_eer`) of ``n_resamples`` label-stratified replicates of
    every segment, ``(segments, n_resamples)``: :func:`eer_brackets` read a block of
    replicates at a time (the same draws from ``rng``), so that only one block's
    brackets are held."""
    out = np.empty((sg.size, n_resamples))
    step = max(1, block // max(sg.size, 1))
    for a in range(0, n_resamples, step):
        b = min(n_resamples, a + step)
        br = eer_brackets(sg, rng, b - a, block=block)
        out[:, a:b] = bracket_eer(br, sg.n, sg.p, method)
        if tick is not None:
            tick(b * sg.size)
    return out


def eer_brackets(sg: Segments, rng: np.random.Generator, n_resamples: int, *,
                 block: int = BLOCK, tick: Callable[[int], None] | None = None) -> Brackets:
    """:class:`Brackets` of ``n_resamples`` label-stratified replicates of every segment
    (``tick(done)`` after each block of replicates).

    Position ``j`` of a segment accepts its runs ``j`` and above; position 0 (accept
    all) has FAR - FRR = 1 > 0 and the last (reject all) -1, so the crossing lies between
    them. Each step halves every pair's bracket: the replicate's count below the middle
    run is its count below the bracket's low end plus a binomial share of the draws
    inside the bracket, for each class.
    """
    size = sg.size
    ro = sg.run_offsets
    cn, cp = sg._cn, sg._cp
    n, p = sg.n, sg.p
    shape = (size, n_resamples)
    out = Brackets(*(np.empty(shape, dtype=np.int64) for _ in range(5)))
    step = max(1, block // max(size, 1))
    for a in range(0, n_resamples, step):
        b = min(n_resamples, a + step)
        lo, cnl, cpl, cnh, cph = _bisect(ro, cn, cp, n, p, rng, b - a)
        for arr, part in zip(out, (lo, cnl, cpl, cnh, cph), strict=True):
            arr[:, a:b] = part.reshape(size, b - a)
        if tick is not None:
            tick(b * size)
    return out


def _bisect(ro, cn, cp, n, p, rng, reps: int):
    """The bracket of ``reps`` replicates of every segment (pairs segment-major).

    The pairs still searching are held in compact arrays (their state carried from step
    to step: the bracket, the original and the drawn counts at both its ends); a pair
    leaves them, into the output, once its bracket is two adjacent positions.
    """
    size = n.size
    seg = np.repeat(np.arange(size), reps)
    total = seg.size
    out = [np.zeros(total, dtype=np.int64) for _ in range(5)]  # lo, cnl, cpl, cnh, cph
    base = ro[:-1][seg]
    hi = (ro[1:] - ro[:-1])[seg]
    zero = np.zeros(total, dtype=np.int64)
    ns, ps = n[seg], p[seg]
    # state: pair, base, lo, hi, drawn (cnl, cpl, cnh, cph), original (onl, opl, onh, oph)
    state = [np.arange(total), base, zero, hi, zero, zero, ns, ps, cn[base], cp[base],
             cn[base + hi], cp[base + hi], ns, ps]
    while True:
        pair, g0, lo, hi, cnl, cpl, cnh, cph, onl, opl, onh, oph, nn, pp = state
        done = hi - lo <= 1
        if done.any():
            for arr, v in zip(out, (lo, cnl, cpl, cnh, cph), strict=True):
                arr[pair[done]] = v[done]
            keep = ~done
            state = [v[keep] for v in state]
            pair, g0, lo, hi, cnl, cpl, cnh, cph, onl, opl, onh, oph, nn, pp = state
        if not pair.size:
            return out
        m = (lo + hi) >> 1
        onm, opm = cn[g0 + m], cp[g0 + m]
        xn = cnl + _split(rng, cnh - cnl, onm - onl, onh - onl)
        xp = cpl + _split(rng, cph - cpl, opm - opl, oph - opl)
        crossed = (nn - xn) / nn - xp / pp <= 0  # FAR - FRR <= 0, as Sweep._d computes it
        state = [pair, g0, np.where(crossed, lo, m), np.where(crossed, m, hi),
                 np.where(crossed, cnl, xn), np.where(crossed, cpl, xp),
                 np.where(crossed, xn, cnh), np.where(crossed, xp, cph),
                 np.where(crossed, onl, onm), np.where(crossed, opl, opm),
                 np.where(crossed, onm, onh), np.where(crossed, opm, oph), nn, pp]


def bracket_eer(br: Brackets, n: np.ndarray, p: np.ndarray, method: str) -> np.ndarray:
    """The EER of every pair from its bracket: bob.measure's (``"threshold"``,
    :func:`~pandas_biosig._kernels.segments.threshold_eer`) or the interpolated one;
    ``n``, ``p`` the class sizes of each segment, or of each pair (2-D)."""
    n2 = np.broadcast_to(n if n.ndim == 2 else n[:, None], br.lo.shape)
    p2 = np.broadcast_to(p if p.ndim == 2 else p[:, None], br.lo.shape)
    zero = np.zeros(br.lo.shape)
    prev = Points(zero, n2 - br.cn_lo, br.cp_lo, n2, p2)
    star = Points(zero, n2 - br.cn_hi, br.cp_hi, n2, p2)
    has_prev = np.ones(br.lo.shape, dtype=bool)
    if method == "interpolated":
        return interpolated_eer(prev, has_prev, star)
    return threshold_eer(prev, has_prev, star)[0]


def rates_at_fixed(rng: np.random.Generator, fa: np.ndarray, fr: np.ndarray, n: np.ndarray,
                   p: np.ndarray, n_resamples: int) -> tuple[np.ndarray, np.ndarray]:
    """Replicated counts ``(fa, fr)`` of every segment at its fixed threshold, arrays
    ``(segments, replicates)``: of the ``n`` impostor draws, those on the ``fa`` accepted
    impostors (binomially), and of the ``p`` genuine draws those on the ``fr`` rejected
    genuines."""
    shape = (n.size, n_resamples)
    rfa = rng.binomial(np.broadcast_to(n[:, None], shape), np.broadcast_to((fa / n)[:, None], shape))
    rfr = rng.binomial(np.broadcast_to(p[:, None], shape), np.broadcast_to((fr / p)[:, None], shape))
    return rfa, rfr
