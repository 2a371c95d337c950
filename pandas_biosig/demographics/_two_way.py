r"""People in both roles (internal): the demographic intervals and tests when every trial
names its reference's subject.

An impostor trial compares two people, the probe's subject and the reference's; a person
who is easy to imitate or good at imitating raises every impostor score they take part
in, so the impostor trials of a group are dependent along both identities. With a
subject and a reference subject column (``resample="two_way"``, the protocol's default
when a table has both, :meth:`pandas_biosig._core.protocol.Protocol.unit`):

- the analytic interval of a group's FMR (:func:`fmr_intervals`) is the Wilson interval
  on the effective size :math:`N / d` of the two-way design, :math:`d` the design effect
  of the multiway cluster-robust variance of
  :func:`pandas_biosig._kernels.cluster.cluster_design` (probes and references one set of
  people; Cameron, Gelbach & Miller 2011, Aronow, Samii & Assenova 2015), with Student's
  t on its Satterthwaite degrees of freedom;
- a bootstrap (:func:`replicates`) draws every person once per replicate, with
  replacement within their group (the groups are strata, as in the subject bootstrap),
  and weighs the trials with :func:`pandas_biosig._kernels.resample.people_weights`: a
  genuine trial its subject's multiplicity, an impostor trial the product of its probe's
  and its reference's (the pigeonhole bootstrap, Owen 2007). One draw serves every group
  and every system of a split, so rates that share people (a reference of another group
  under ``impostors="all"``, the systems of :func:`pandas_biosig.compare_fairness`) are
  resampled together.

The people are the global clusters of :func:`pandas_biosig.demographics._plan._plan`:
(group, subject) for a probe, (reference group, reference subject) for a reference, one
code set.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .._kernels import fairness as _fair
from .._kernels.cluster import cluster_design, wilson_interval
from .._kernels.resample import PairSums
from ._plan import _BLOCK, _errors, _Part, _Plan

__all__ = ["fmr_intervals", "replicates"]


def fmr_intervals(part: _Part, t: float, level: float,
                  groups: Sequence[int]) -> dict[int, tuple[float, float]]:
    """The Wilson interval at ``level`` of each group's FMR at oriented threshold ``t`` on
    the effective size of its two-way design (the module docstring); a rate of 0 or 1 (no
    variance to estimate) uses n = the people of the group's impostor trials, each
    counted once, and Student's t on their number − 1 degrees of freedom. NaN for a
    group without counted impostor trials."""
    from scipy.special import stdtrit  # Student's t quantile

    idx, bounds = _by_group(part, ~part.genuine & part.counted, max(groups, default=-1) + 1)
    err = _errors(part, t)
    assert part.ref_cluster is not None  # two-way parts carry their references' clusters
    out = {}
    for j in groups:
        sel = idx[bounds[j]:bounds[j + 1]]
        if not sel.size:
            out[j] = (float("nan"), float("nan"))
            continue
        _, who = np.unique(np.concatenate((part.cluster[sel], part.ref_cluster[sel])),
                           return_inverse=True)
        who = who.reshape(-1)
        d = cluster_design(err[sel], who[:sel.size], who[sel.size:])
        n_eff = float(d.k) if d.p in (0.0, 1.0) else d.n / d.deff
        out[j] = wilson_interval(d.p, n_eff, float(stdtrit(d.df, (1 + level) / 2)))
    return out


def _by_group(part: _Part, mask: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The positions of the ``mask`` trials ordered by group (one stable sort) and the
    bounds of each of the first ``k`` groups: group j's are ``idx[bounds[j]:bounds[j+1]]``."""
    idx = np.flatnonzero(mask)
    idx = idx[np.argsort(part.group[idx], kind="stable")]
    return idx, np.searchsorted(part.group[idx], np.arange(k + 1))


@dataclass(frozen=True, eq=False)
class _Cells:
    """The counted trials of one (system, split) at one threshold, summed per cell:
    (probe, reference, class), the people as columns of a draw. The cells are ordered by
    group, then class: group j's impostor cells are ``bounds[2j]:bounds[2j+1]``, its
    genuine cells ``bounds[2j+1]:bounds[2j+2]`` (a genuine cell's reference is its probe)."""

    probe: np.ndarray
    reference: np.ndarray
    trials: np.ndarray
    errors: np.ndarray
    bounds: np.ndarray
    sums: dict = field(default_factory=dict)  # group: its PairSums, built on first use

    def _cls(self, j: int, genuine: bool) -> slice:
        return slice(self.bounds[2 * j + genuine], self.bounds[2 * j + genuine + 1])

    def rates(self, mult: np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray]:
        """Group j's FMR and FNMR under each row of people multiplicities ``mult`` (an
        impostor cell weighs the product of its two people's, a genuine cell its
        subject's: :func:`~pandas_biosig._kernels.resample.people_weights`, summed as
        a bilinear form by :class:`~pandas_biosig._kernels.resample.PairSums`)."""
        if j not in self.sums:
            imp, gen = self._cls(j, False), self._cls(j, True)
            self.sums[j] = (
                PairSums(self.probe[imp], self.reference[imp],
                         np.column_stack((self.errors[imp], self.trials[imp]))),
                PairSums(self.probe[gen], None,
                         np.column_stack((self.errors[gen], self.trials[gen]))))
        imp_sums, gen_sums = self.sums[j]
        return _fair.ratio_of_sums(*imp_sums(mult)), _fair.ratio_of_sums(*gen_sums(mult))

    def held(self, j: int) -> tuple[int, int]:
        """How many people hold group j's impostor cells (probes and references), and how
        many subjects its genuine cells."""
        imp, gen = self._cls(j, False), self._cls(j, True)
        people = np.unique(np.concatenate((self.probe[imp], self.reference[imp])))
        return int(people.size), int(np.unique(self.probe[gen]).size)


def _cells(part: _Part, t: float, column: np.ndarray, column_group: np.ndarray,
           k: int) -> _Cells:
    assert part.ref_cluster is not None  # two-way parts carry their references' clusters
    m = part.counted
    gen = part.genuine[m]
    probe = column[part.cluster[m]]
    ref = np.where(gen, probe, column[part.ref_cluster[m]])
    width = np.int64(column_group.size)
    key, cell = np.unique((probe * width + ref) * 2 + gen, return_inverse=True)
    cell = cell.reshape(-1)
    pair = key // 2
    probe_c = pair // width
    cls = column_group[probe_c] * 2 + key % 2  # (group, class) of every cell
    order = np.argsort(cls, kind="stable")
    return _Cells(
        probe_c[order], (pair % width)[order],
        np.bincount(cell, minlength=key.size).astype(np.float64)[order],
        np.bincount(cell, weights=_errors(part, t)[m].astype(np.float64),
                    minlength=key.size)[order],
        np.searchsorted(cls[order], np.arange(2 * k + 1)),
    )


def _people(plan: _Plan, parts: Sequence[_Part]) -> tuple[np.ndarray, np.ndarray]:
    """The people of the parts' counted trials, probes and impostor trials' references
    (global cluster codes ordered by group), and how many each group holds."""
    codes = np.unique(np.concatenate([
        c for p in parts for c in (p.cluster[p.counted],
                                   p.ref_cluster[p.counted & ~p.genuine])  # type: ignore[index]
    ]))
    codes = codes[np.argsort(plan.cluster_group[codes], kind="stable")]
    return codes, np.bincount(plan.cluster_group[codes], minlength=len(plan.labels))


def replicates(rng: np.random.Generator, n_resamples: int, plan: _Plan,
               items: Sequence[tuple[_Part, float]], groups: Sequence[int]) -> list[dict]:
    """The two-way bootstrap of the groups' rates (the module docstring): for each
    ``(part, oriented threshold)`` of ``items``, a dict ``{j: {"fmr": (replicates,
    people), "fnmr": (replicates, subjects)}}`` over ``groups``, the counts being the
    people that hold the group's impostor trials and the subjects its genuine ones. The
    items' replicates share one draw of the people each (paired). NaN where a replicate
    draws no trial of the class."""
    codes, sizes = _people(plan, [p for p, _ in items])
    column = np.full(plan.cluster_group.size, -1, dtype=np.int64)
    column[codes] = np.arange(codes.size)
    k = len(plan.labels)
    cells = [_cells(p, t, column, plan.cluster_group[codes], k) for p, t in items]
    out = [{j: {"fmr": np.empty(n_resamples), "fnmr": np.empty(n_resamples)} for j in groups}
           for _ in items]
    widest = max([codes.size, *(int(np.diff(c.bounds).max(initial=0)) for c in cells)])
    block = max(1, _BLOCK // max(widest, 1))  # a block's weights: replicates x one group's cells
    for start in range(0, n_resamples, block):
        stop = min(n_resamples, start + block)
        # people in columns, each column contiguous: the trials' weights gather columns
        mult = np.asfortranarray(_fair.stratified_weights(rng, sizes, stop - start),
                                 dtype=np.float64)
        for c, o in zip(cells, out, strict=True):
            for j in groups:
                o[j]["fmr"][start:stop], o[j]["fnmr"][start:stop] = c.rates(mult, j)
    result = []
    for c, o in zip(cells, out, strict=True):
        held = {j: c.held(j) for j in groups}
        result.append({j: {"fmr": (o[j]["fmr"], held[j][0]), "fnmr": (o[j]["fnmr"], held[j][1])}
                       for j in groups})
    return result
