"""Presentation-attack detection and vulnerability rates on sorted scores (numpy only).

Conventions as in :mod:`.rates`: scores are oriented so that higher means more bona fide
(more genuine); a presentation is accepted iff ``score >= threshold``; ``-inf`` marks a
presentation that is always rejected. Attack scores come one array per attack species
(PAI species); the bona fide scores are the positives of every species.

Every threshold is chosen by :class:`.rates.Sweep`: the per-species sweeps give the
threshold at which a species' APCER stays within a bound, the pooled sweep (all attacks
against bona fide) the EER and BPCER-bounded thresholds and the reported threshold value.
"""

from __future__ import annotations

import numpy as np

from .rates import Sweep
from .segments import Points, Segments

__all__ = [
    "PadSegments",
    "PadSweep",
    "area_trapezoid",
    "epsc_choice",
    "epsc_grid",
    "weighted_rates",
]


class PadSweep:
    """Sorted bona fide scores and the sorted attack scores of each species.

    Parameters
    ----------
    bonafide : ndarray
        Bona fide scores (the positives).
    attacks : list of ndarray
        Attack scores, one array per species (each non-empty).
    assume_sorted : bool
        Skip the sorts when every array is already ascending.
    """

    def __init__(self, bonafide, attacks, *, assume_sorted: bool = False):
        pos = np.asarray(bonafide, dtype=np.float64)
        if not assume_sorted:
            pos = np.sort(pos)
        self.species = [Sweep(a, pos, assume_sorted=assume_sorted) for a in attacks]
        if not self.species:
            raise ValueError("at least one attack species is needed")
        pooled = np.concatenate([np.concatenate(([-np.inf] * s.rn, s.neg)) for s in self.species])
        pooled.sort()
        self.pooled = Sweep(pooled, pos, assume_sorted=True)

    @property
    def n_bonafide(self) -> int:
        return self.pooled.p

    @property
    def n_attack(self) -> np.ndarray:
        return np.array([s.n for s in self.species], dtype=np.int64)

    def counts_at(self, threshold: float) -> tuple[np.ndarray, int]:
        """Accepted attacks per species and rejected bona fide presentations at
        ``threshold`` (accept iff score >= threshold)."""
        accepted = np.array([int(s.fa_at(threshold)) for s in self.species], dtype=np.int64)
        rejected = int(self.pooled.fr_at(threshold))
        return accepted, rejected

    def _normalized(self, threshold: float) -> float:
        """The pooled sweep's candidate threshold with the same decisions as ``threshold``."""
        if np.isnan(threshold):
            return threshold
        nxt = [a[i] for a in (self.pooled.neg, self.pooled.pos)
               if (i := np.searchsorted(a, threshold, side="left")) < a.size]
        u = min(nxt) if nxt else np.inf
        return float(self.pooled.threshold_for(u))

    def threshold(self, criterion: str, target: float = float("nan")) -> float:
        """The threshold chosen by ``criterion`` (NaN when no threshold meets the bound).

        - ``"eer"``: bob.measure's EER threshold of all attacks pooled against bona fide;
        - ``"apcer"``: the lowest threshold at which *every* species' APCER is at most
          ``target`` (so BPCER is smallest under that constraint: BPCER20 for 0.05);
        - ``"bpcer"``: the highest threshold at which BPCER is at most ``target`` (so every
          species' APCER is smallest under that constraint).
        """
        if criterion == "eer":
            return float(self.pooled.eer_threshold()[1].threshold)
        if criterion == "apcer":
            t = max(float(s.fnmr_at_fmr(target).threshold) for s in self.species)
            return self._normalized(t)
        if criterion == "bpcer":
            op = self.pooled.fmr_at_fnmr(target)
            return float("nan") if op is None else float(op.threshold)
        raise ValueError(f"unknown criterion {criterion!r}")

    def eer(self) -> float:
        """bob.measure's threshold EER of all attacks pooled against bona fide."""
        return float(self.pooled.eer_threshold()[0])

    def det_points(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every operating point: ``(threshold, apcer[species, point], bpcer[point])``,
        from accept-all to reject-all (one point per distinct score, plus reject-all)."""
        sw = self.pooled
        u = np.unique(np.concatenate((sw.neg, sw.pos)))
        u = np.append(u, np.inf)
        apcer = np.stack([s.fa_at(u) / s.n for s in self.species])
        bpcer = sw.fr_at(u) / sw.p
        return np.asarray(sw.threshold_for(u), dtype=np.float64), apcer, bpcer


class PadSegments:
    """Many PAD groups at once: :class:`PadSweep` of every group, each read in vectorised
    passes over the groups (:class:`~.segments.Segments`).

    Parameters
    ----------
    scores : ndarray of float64
        Oriented finite scores, group after group.
    bonafide : ndarray of bool
        Whether each presentation is bona fide.
    species : ndarray of int
        The species code (``0..n_species-1``) of each attack (any value for bona fide).
    offsets : ndarray of int
        Where each group starts, and the end; each group holds bona fide and attacks.
    n_species : int
        The number of species codes.

    ``pooled`` holds every group's attacks pooled against its bona fide presentations
    (each segment's numbers those of :attr:`PadSweep.pooled`, to the bit);
    :attr:`species_segments` one segment per species present in a group, the group's bona
    fide presentations against that species' attacks (:attr:`PadSweep.species`).
    """

    def __init__(self, scores, bonafide, species, offsets, n_species: int):
        self.scores = np.asarray(scores, dtype=np.float64)
        self.bonafide = np.asarray(bonafide, dtype=bool)
        self.species = np.asarray(species, dtype=np.int64)
        self.offsets = np.asarray(offsets, dtype=np.int64)
        self.k = int(n_species)
        self.pooled = Segments(self.scores, self.bonafide, self.offsets)
        self.size = self.pooled.size
        self._by_species: tuple[Segments, np.ndarray] | None = None

    @property
    def segment(self) -> np.ndarray:
        """The group of each presentation."""
        return np.repeat(np.arange(self.size), np.diff(self.offsets))

    @property
    def species_segments(self) -> tuple[Segments, np.ndarray]:
        """``(segments, first)``: one segment per (group, species present), group after
        group and species in code order; the segments of group ``g`` are
        ``first[g]:first[g + 1]``."""
        if self._by_species is None:
            self._by_species = self._split_species()
        return self._by_species

    def _split_species(self) -> tuple[Segments, np.ndarray]:
        seg, k = self.segment, self.k
        attack = np.flatnonzero(~self.bonafide)
        pair = seg[attack] * k + self.species[attack]
        used = np.zeros(self.size * k, dtype=bool)
        used[pair] = True
        pair_id = np.cumsum(used) - 1
        per_group = used.reshape(self.size, k).sum(axis=1)
        first = np.concatenate(([0], np.cumsum(per_group)))
        bona = np.flatnonzero(self.bonafide)
        reps = per_group[seg[bona]]
        within = np.arange(int(reps.sum())) - np.repeat(np.cumsum(reps) - reps, reps)
        rows = np.concatenate((attack, np.repeat(bona, reps)))
        pairs = np.concatenate((pair_id[pair], np.repeat(first[seg[bona]], reps) + within))
        order = np.argsort(pairs, kind="stable")
        rows = rows[order]
        offsets = np.concatenate(([0], np.cumsum(np.bincount(pairs, minlength=int(first[-1])))))
        return Segments(self.scores[rows], self.bonafide[rows], offsets), first

    def normalized(self, thresholds: np.ndarray) -> np.ndarray:
        """Each group's pooled threshold with the same decisions as ``thresholds``
        (:meth:`PadSweep._normalized`)."""
        sg = self.pooled
        t = np.asarray(thresholds, dtype=np.float64)
        run = sg.first_run(lambda r, s: sg.run_values[r] >= t[s])
        out = sg.threshold_of(run, run == sg.run_offsets[1:])
        return np.where(np.isnan(t), np.nan, out)

    def apcer_point(self, target: float) -> Points:
        """The pooled operating point at the lowest threshold where every species' APCER
        is at most ``target`` (:meth:`PadSweep.threshold` ``"apcer"``)."""
        segs, first = self.species_segments
        each = segs.fnmr_at_fmr(target).threshold
        t = self.normalized(np.maximum.reduceat(each, first[:-1]))
        fa, fr = self.pooled.rates_at(t)
        return Points(t, fa, fr, self.pooled.n, self.pooled.p)

    def strata_counts(self, thresholds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(errors, totals)`` of shape ``(groups, n_species + 1)`` at each group's
        threshold: accepted attacks of each species, then rejected bona fide
        presentations (:func:`weighted_rates` of every group; float64 counts)."""
        t = np.repeat(np.asarray(thresholds, dtype=np.float64), np.diff(self.offsets))
        accepted = self.scores >= t
        errors = np.where(self.bonafide, ~accepted, accepted)
        width = self.k + 1
        cell = self.segment * width + np.where(self.bonafide, self.k, self.species)
        size = self.size * width
        totals = np.bincount(cell, minlength=size).astype(np.float64)
        errs = np.bincount(cell, weights=errors.astype(np.float64), minlength=size)
        return errs.reshape(self.size, width), totals.reshape(self.size, width)


def weighted_rates(errors: np.ndarray, strata: np.ndarray, n_strata: int, weights=None):
    """Error counts and totals per stratum: ``(errors[s], totals[s])``, each presentation
    counted with its (integer) multiplicity ``weights``."""
    w = np.ones(strata.size, dtype=np.int64) if weights is None else np.asarray(weights)
    totals = np.bincount(strata, weights=w, minlength=n_strata)
    errs = np.bincount(strata, weights=w * errors, minlength=n_strata)
    return errs, totals


def epsc_grid(fmr, fnmr, iapmr, omega, beta):
    """``(far_w, wer)`` over ``(beta, omega)`` from rates over the same grid:
    FAR_ω = (1 − ω)·FMR + ω·IAPMR, WER_ω,β = (1 − β)·FNMR + β·FAR_ω (Chingovska et al.)."""
    omega = np.asarray(omega)[None, :]
    beta = np.asarray(beta)[:, None]
    far_w = (1 - omega) * fmr + omega * iapmr
    return far_w, (1 - beta) * fnmr + beta * far_w


def area_trapezoid(values: np.ndarray, grid: np.ndarray) -> np.ndarray:
    """Trapezoidal area under ``values`` along the last axis over ``grid``."""
    v = np.asarray(values, dtype=np.float64)
    g = np.asarray(grid, dtype=np.float64)
    return ((v[..., 1:] + v[..., :-1]) * np.diff(g) / 2).sum(axis=-1)


def epsc_choice(fmr, fnmr, iapmr, omega, beta, criterion: str) -> np.ndarray:
    """Index of the chosen operating point for every ``(beta, omega)``.

    ``fmr, fnmr, iapmr`` are the rates at the candidate operating points in increasing
    threshold order. ``"wer"`` minimizes WER_ω,β; ``"eer"`` (bob.bio.base's EPSC
    criterion) minimizes |(1 − β)·FNMR − β·FAR_ω|. Ties: the smaller WER, then the higher
    threshold.
    """
    omega = np.asarray(omega, dtype=np.float64)
    out = np.empty((len(beta), omega.size), dtype=np.intp)
    for i, b in enumerate(beta):
        far_w = (1 - omega)[None, :] * fmr[:, None] + omega[None, :] * iapmr[:, None]
        wer = (1 - b) * fnmr[:, None] + b * far_w
        crit = wer if criterion == "wer" else np.abs((1 - b) * fnmr[:, None] - b * far_w)
        best = crit.min(axis=0)
        cand = crit == best[None, :]
        masked = np.where(cand, wer, np.inf)
        best_wer = masked.min(axis=0)
        cand &= masked == best_wer[None, :]
        # the highest threshold among the remaining ties
        out[i] = crit.shape[0] - 1 - np.argmax(cand[::-1], axis=0)
    return out


