r"""The subject bootstrap of a dask trial table, exact: :func:`bootstrap`.

A documented internal module (docs/architecture.md): :mod:`pandas_biosig.outofcore` makes
:func:`bootstrap` public. The replicates are those of :func:`pandas_biosig.bootstrap` with
``resample="subject"``, drawn by the same code (:class:`~pandas_biosig._core.replicates.Replicates`,
:func:`~pandas_biosig._core.replicates.jackknife`, the same metric functions and intervals)
on a small *compressed* table gathered from the partitions, so that one seed gives the same
numbers to the last bit.

The compressed table
--------------------
Per group (``by`` values, system, split) it holds every genuine trial with its subject,
every impostor trial whose score is at least a cut :math:`\tau` (the *tail*, :math:`\tau`
its lowest score), and, for each subject :math:`s` with impostor scores below the cut, one
*pseudo-trial* at :math:`\sigma`, the largest impostor score below the cut, standing for
those :math:`b_s` trials (a count). A replicate gives subject :math:`s` a multiplicity
:math:`m_s` (the in-memory draw); a trial weighs its subject's :math:`m_s`, a pseudo-trial
:math:`m_s b_s`. Write :math:`N^*, P^*` for the replicate's impostor and genuine totals and
:math:`FA^*(u), FR^*(u)` for its weighted counts of impostors :math:`\ge u` and genuines
:math:`< u` (a trial is accepted iff score :math:`\ge u`).

**Lemma.** For every :math:`u > \sigma`, the compressed and the full replicate have the
same :math:`FA^*(u)` and :math:`FR^*(u)`, the same totals, and the same distinct scores
:math:`\ge u` in each class. *Proof:* the impostors :math:`\ge u > \sigma` are tail trials,
present with their own weights; all genuines are present; each pseudo-trial carries
exactly the weight of the trials it replaces, so the totals agree. Below :math:`\sigma`
the compressed replicate accepts every impostor: :math:`FA_c^*(u) = N^* \ge FA^*(u)`.

**FNMR at FMR** ``target`` :math:`f`. :meth:`~pandas_biosig._kernels.rates.Sweep.fnmr_at_fmr`
takes :math:`k`, the largest count with :math:`k / N^* \le f` (in floating point), the
impostor score :math:`v` below which the weighted impostors reach :math:`N^* - k`, and
the point at the next distinct score above :math:`v`. If :math:`FA^*(\tau) / N^* > f`
then :math:`FA^*(\tau) \ge k + 1`, so fewer than :math:`N^* - k` impostors lie below
:math:`\tau`: :math:`v \ge \tau > \sigma`, in both tables, and :math:`v`, the next score
and the point's counts are the same (lemma).

**EER** (threshold and interpolated). :meth:`~pandas_biosig._kernels.rates.Sweep.eer_bracket`
finds :math:`u_\star`, the lowest distinct score where :math:`d(u) = FAR - FRR \le 0`
(:math:`d` does not increase with :math:`u`, also in floating point: each rate is a
correctly rounded quotient of a count by a fixed total), and reads the points at
:math:`u_\star` and its predecessor. If :math:`d^*(\tau) > 0` (computed as the sweep
computes it), then every :math:`u \le \tau` has :math:`d > 0` in the full replicate, and in
the compressed one, where below :math:`\sigma` FAR is 1 and FRR no larger than at
:math:`\tau`. So :math:`u_\star > \tau` and its predecessor is :math:`\ge \tau > \sigma`
in both; both points are the same (lemma).

**Sufficiency is verified, not assumed.** Each replicate sweep (and the estimate, and
each jackknife value of a BCa interval) is checked against the condition above before the
metric reads it. Because the condition reads only :math:`FA^*(\tau)`, :math:`FR^*(\tau)`
and the totals, which are exact in the compressed replicate (lemma), the check holds for
the compressed replicate exactly when it holds for the full one. A table with no impostor
below the cut needs no check. The cut is chosen from the replicates themselves: a pass
counts, per subject, the impostors above each of a ladder of cuts (the cut at each
power-of-two fraction of the impostors, from the histogram pass), the replicates are drawn
from a copy of the generator, and the highest cut that every one of them passes is taken.
Should any replicate fail the check anyway, the generator is restored and the next lower
cut gathered; the lowest cut gathers every impostor, where the table is the full one.

What is gathered is bounded: :data:`ERROR_TAIL_TOO_LARGE` (a ``MemoryError``) when the
genuine trials, the tail and the pseudo-trials of all groups would take more than
``pandas_biosig.bootstrap_bytes`` (``dask.config``, default 2**30 bytes) at
:data:`ROW_BYTES` bytes a row.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Hashable, Sequence
from dataclasses import replace
from typing import Literal

import numpy as np
import pandas as pd

from .._core.frames import result_frame
from .._core.options import BootstrapCIMethod, NonFinite, Orientation, ResampleOption
from .._core.protocol import Protocol
from .._core.replicates import (
    Replicates,
    canonical_metric,
    check_common,
    class_permutations,
    jackknife,
    make_rng,
    metric_function,
    warn_empty_replicates,
)
from .._core.schema import (
    ERROR_SUBJECT,
    ERROR_SUBJECT_MISSING,
    Group,
    SchemaError,
    check_option,
    where_text,
)
from .._core.validation import check_rate
from .._kernels import outofcore as _ooc
from .._kernels.rates import Sweep
from .._kernels.resample import acceleration, bca_interval, percentile_interval, uniform_counts
from ..verification._resampling import BOOTSTRAP_COLUMNS, ERROR_STUDENTIZED
from ._engine import _engine, _option, _split

__all__ = ["BOOTSTRAP_METRICS", "ERROR_TAIL_TOO_LARGE", "ROW_BYTES", "bootstrap"]

#: The metrics of :data:`BOOTSTRAP_METRICS`, as a type.
DaskBootstrapMetric = Literal["eer", "eer_threshold", "eer_interpolated", "fnmr_at_fmr"]
#: Metrics the dask bootstrap resamples: those whose replicates read a few thresholds
#: near the impostor tail.
BOOTSTRAP_METRICS = {
    "eer": "the library's default EER (eer_threshold)",
    "eer_threshold": "bob.measure's threshold EER",
    "eer_interpolated": "EER of the piecewise-linear ROC",
    "fnmr_at_fmr": "smallest FRR with FAR <= target",
}
#: Bytes a gathered row is counted at against ``pandas_biosig.bootstrap_bytes`` (score,
#: subject code, count, class, and the row's share of the per-subject tables).
ROW_BYTES = 32

ERROR_TAIL_TOO_LARGE = (
    "the trials that the replicates' thresholds can reach take {need:,} bytes ({rows:,} rows "
    "at {row_bytes} bytes), more than pandas_biosig.bootstrap_bytes = {limit:,}: raise it "
    "with dask.config.set({{'pandas_biosig.bootstrap_bytes': ...}}) if the driver has the "
    "memory, or compute() a sample of subjects"
)
ERROR_RESAMPLE = (
    "resample={resample!r}: the dask bootstrap draws whole subjects (resample='subject', "
    "the default with a subject column); compute() the table for resample={resample!r}"
)
ERROR_TARGET = "metric={metric!r} needs target= (a rate in [0, 1])"
ERROR_METRIC_CI = "ci_method={ci_method!r}: the dask bootstrap gives {allowed}"



class _Insufficient(Exception):  # a signal caught by _run, never a ValueError
    """A replicate reaches below the gathered tail (see the module docstring)."""

    def __init__(self, index: int):
        self.index = index


# ----------------------------------------------------------------------------- passes
def _keys(pdf, spec, cuts):
    """Per group of one partition: oriented finite scores, classes, subjects, keys."""
    out = {}
    for key, s, g, subj in _split(pdf, spec, trials=True).groups:
        if key in cuts:
            out[key] = (s, g, subj, _ooc.order_keys(s))
    return out


def _ladder_chunk(pdf, index, spec, cuts):
    """Per group: each subject's first row, its impostors between consecutive cuts, the
    lowest and highest impostor key on each side of every cut, and the genuine trials."""
    out = {}
    for key, (s, g, subj, k) in _keys(pdf, spec, cuts).items():
        codes, uniques = pd.factorize(subj)
        c = cuts[key]  # descending; the last is 0
        kimp = k[~g]
        level = _level(c, kimp)
        imp = codes[~g]
        ok = imp >= 0
        bands = np.bincount(imp[ok] * c.size + level[ok], minlength=len(uniques) * c.size)
        ends = pd.Series(kimp).groupby(level).agg(["min", "max"])
        low = np.full(c.size, np.iinfo(np.uint64).max, np.uint64)
        high = np.zeros(c.size, np.uint64)
        low[ends.index] = ends["min"].to_numpy(np.uint64)
        high[ends.index] = ends["max"].to_numpy(np.uint64)
        pos = np.flatnonzero(codes >= 0)
        # factorize numbers the subjects by first appearance: the first rows, in code order
        first = pos[pd.Series(codes[pos]).drop_duplicates().index.to_numpy()]
        out[key] = dict(subjects=np.asarray(uniques, dtype=object),
                        first=(index << 40) + first, bands=bands.reshape(len(uniques), c.size),
                        low=low, high=high, gen=(s[g], k[g], np.asarray(subj[g], dtype=object)),
                        missing=int(codes.size - pos.size))
    return out


def _level(cuts: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """Index of the first (highest) cut at or below each key (cuts descending, last 0)."""
    return (cuts.size - np.searchsorted(cuts[::-1], keys, side="right")).astype(np.int64)


def _merge_subjects(a, b):
    """One table of subjects from two: union of ids, first rows, summed band counts."""
    inverse, subjects = pd.factorize(np.concatenate((a["subjects"], b["subjects"])))
    k = len(subjects)
    first = np.full(k, np.iinfo(np.int64).max, np.int64)
    np.minimum.at(first, inverse, np.concatenate((a["first"], b["first"])))
    bands = np.zeros((k, a["bands"].shape[1]), np.int64)
    np.add.at(bands, inverse, np.concatenate((a["bands"], b["bands"])))
    return dict(
        subjects=np.asarray(subjects, dtype=object), first=first, bands=bands,
        low=np.minimum(a["low"], b["low"]), high=np.maximum(a["high"], b["high"]),
        gen=tuple(np.concatenate((x, y)) for x, y in zip(a["gen"], b["gen"], strict=True)),
        missing=a["missing"] + b["missing"],
    )


def _ladder_combine(results):
    out: dict = {}
    for res in results:
        for key, e in res.items():
            out[key] = e if key not in out else _merge_subjects(out[key], e)
    return out


def _tail_chunk(pdf, index, spec, cuts):
    """Per group: the impostor scores at or above its cut, with their subjects."""
    out = {}
    for key, (s, g, subj, k) in _keys(pdf, spec, cuts).items():
        take = ~g & (k >= cuts[key][0])
        out[key] = (s[take], np.asarray(subj[take], dtype=object))
    return out


def _tail_combine(results):
    out: dict = {}
    for res in results:
        for key, (s, subj) in res.items():
            cur = out.get(key)
            out[key] = (s, subj) if cur is None else (np.concatenate((cur[0], s)),
                                                      np.concatenate((cur[1], subj)))
    return out


# ----------------------------------------------------------------------------- the cut
def _cuts(ps: _ooc.PartialScores) -> np.ndarray:
    """Descending cut keys: the bin edge below which the impostors above first number
    ``ceil(n / 2**j)``, j = 0, 1, ... (from the histogram pass), and last 0 (every impostor)."""
    above = np.cumsum(ps.neg[::-1])[::-1]  # impostors in the bins from each one up
    n = int(above[0])
    targets = -(-n // (2 ** np.arange(int(n).bit_length() + 1, dtype=np.float64)))
    i = np.searchsorted(-above, -np.maximum(targets, 1), side="right") - 1
    cuts = np.unique(ps.lo[np.maximum(i, 0)])[::-1]
    return np.append(cuts[cuts > 0], np.uint64(0))


class _Ladder:
    """One group's subjects in first-appearance order (the in-memory codes) and, at each
    cut of the ladder, each subject's impostors above it and genuines below its tail."""

    def __init__(self, entry: dict, cuts: np.ndarray):
        order = np.argsort(entry["first"], kind="stable")
        self.subjects = entry["subjects"][order]
        self.cuts = cuts
        k = self.subjects.size
        self.above = np.cumsum(entry["bands"][order], axis=1)  # (subjects, cuts)
        self.n_s = self.above[:, -1]
        #: lowest tail key and highest key below each cut (0: none below)
        self.tau = np.minimum.accumulate(entry["low"])
        high = np.append(entry["high"], np.uint64(0))
        self.sigma = np.maximum.accumulate(high[::-1])[::-1][1:]
        gs, gk, gsub = entry["gen"]
        self.gen_scores = gs
        self.gen_rank = pd.Index(self.subjects).get_indexer(gsub)
        self.g_s = np.bincount(self.gen_rank, minlength=k)
        self.below = np.stack([np.bincount(self.gen_rank[gk < t], minlength=k)
                               for t in self.tau], axis=1)

    def passes(self, mult: np.ndarray, check) -> np.ndarray:
        """Which cuts every replicate of ``mult`` (replicates x subjects) passes."""
        m = mult.astype(np.float64)  # exact: counts stay far below 2**53
        n, p = m @ self.n_s, m @ self.g_s
        live = (n > 0) & (p > 0)  # an empty class raises in memory too, whatever the cut
        fa, fr = m[live] @ self.above, m[live] @ self.below
        return check(fa, n[live, None], fr, p[live, None]).all(axis=0)


def _choose(ladders, rng, n_resamples: int, check, bca: bool) -> list[int]:
    """The highest cut of each group that its replicates (drawn from a copy of ``rng`` as
    the in-memory loop draws them), its estimate and its jackknife values all pass."""
    rng = copy.deepcopy(rng)
    levels = []
    for lad in ladders:
        k = lad.subjects.size
        ok = lad.passes(np.ones((1, k)), check)
        for start in range(0, n_resamples, 256):
            mult = np.stack([uniform_counts(rng, k)
                             for _ in range(min(256, n_resamples - start))])
            ok &= lad.passes(mult, check)
        if bca:
            groups = min(k, 200)  # pandas_biosig._core.replicates.JACKKNIFE_GROUPS
            ok &= lad.passes(np.arange(k)[None, :] % groups != np.arange(groups)[:, None],
                             check)
        ok |= lad.sigma == 0  # nothing below the cut: the full table
        levels.append(int(np.argmax(ok)))
    return levels


def _check_bytes(rows: int) -> None:
    limit = _option("bootstrap_bytes")
    if rows * ROW_BYTES > limit:
        raise MemoryError(ERROR_TAIL_TOO_LARGE.format(need=rows * ROW_BYTES, rows=rows,
                                                      row_bytes=ROW_BYTES, limit=limit))


# ----------------------------------------------------------------------------- tables
class _CountedSweep(Sweep):
    """A sweep of sorted scores each standing for a count of trials: a replicate's
    multiplicities are multiplied by the counts (a pseudo-trial weighs its subject's
    multiplicity times the trials it stands for)."""

    def __init__(self, neg, pos, neg_counts, pos_counts):
        super().__init__(neg, pos, assume_sorted=True)
        self._weights = (neg_counts, pos_counts)

    def reweighted(self, neg_weights, pos_weights) -> Sweep:
        cn, cp = self._weights
        return super().reweighted(np.asarray(neg_weights) * cn, np.asarray(pos_weights) * cp)


def _compressed(group: Group, lad: _Ladder, level: int, tail):
    """The compressed group (subjects coded in first-appearance order), its counted sweep
    and the lowest tail score (None when nothing lies below the cut)."""
    ts, tsub = tail
    trank = pd.Index(lad.subjects).get_indexer(tsub)
    rest = lad.n_s - lad.above[:, level]
    pseudo = np.flatnonzero(rest > 0)
    has_rest = lad.sigma[level] > 0
    sigma = float(_ooc.key_values(lad.sigma[level : level + 1])[0]) if has_rest else 0.0
    scores = np.concatenate((lad.gen_scores, ts, np.full(pseudo.size, sigma)))
    rank = np.concatenate((lad.gen_rank, trank, pseudo))
    counts = np.concatenate((np.ones(lad.gen_rank.size + trank.size, np.int64), rest[pseudo]))
    genuine = np.zeros(scores.size, bool)
    genuine[: lad.gen_rank.size] = True
    order = np.argsort(rank, kind="stable")  # pd.factorize codes = first-appearance rank
    out = Group(group.key, scores[order], genuine[order], np.arange(scores.size), None,
                rank[order].astype(np.int64))
    neg, pos = class_permutations(out)
    sweep = _CountedSweep(out.scores[neg], out.scores[pos], counts[order][neg],
                          counts[order][pos])
    tau = float(_ooc.key_values(lad.tau[level : level + 1])[0]) if has_rest else None
    return out, sweep, tau


# ----------------------------------------------------------------------------- public
def bootstrap(
    data,
    /,
    *,
    metric: DaskBootstrapMetric = "eer_threshold",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    ci_method: BootstrapCIMethod = "auto",
    resample: ResampleOption = "auto",
    seed: int | np.random.Generator | None = None,
    target: float | None = None,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Subject bootstrap interval of the EER or of FNMR at an FMR, for every system of a
    dask trial table: :func:`pandas_biosig.bootstrap`'s numbers, bit for bit.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table with a subject column; never collected.
    metric : {"eer_threshold", "eer", "eer_interpolated", "fnmr_at_fmr"}
        As in :func:`pandas_biosig.bootstrap` (``"eer"`` is ``"eer_threshold"``;
        ``"fnmr_at_fmr"`` needs ``target``). The other metrics need every score of every
        replicate: compute() the table (or a sample of subjects) for them.
    n_resamples, confidence_level, seed, target, on, apply_to
        As in :func:`pandas_biosig.bootstrap`.
    ci_method : {"auto", "percentile", "basic", "bca"}
        As in :func:`pandas_biosig.bootstrap` (``"auto"`` is the percentile interval for
        these metrics).
    resample : {"auto", "subject"}
        Whole subjects are drawn, as the in-memory ``resample="subject"`` draws them (the
        default there with a subject column); the other units raise a ``ValueError``.
    by, system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        As in :func:`pandas_biosig.bootstrap`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError``.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.bootstrap`, equal to it bit for bit for the
        same seed (a ``numpy.random.Generator`` seed is left in the state the in-memory
        call leaves it in).

    Raises
    ------
    SchemaError
        As :func:`pandas_biosig.bootstrap` (no subject column, missing subject ids, one
        subject, ...), and as :func:`eer` for the table.
    MemoryError
        :data:`ERROR_TAIL_TOO_LARGE`: what the replicates can reach would take more than
        ``pandas_biosig.bootstrap_bytes`` (``dask.config``, default 2**30 bytes).

    See Also
    --------
    pandas_biosig.bootstrap : the in-memory function.

    Notes
    -----
    Four passes over the data: the histogram and the duplicate check of :func:`eer`, one
    that counts each subject's impostors above a ladder of cuts and gathers the genuine
    trials, and one that gathers the impostor tail the replicates can reach (one more per
    group whose replicates turn out to need a lower cut); the replicates then run on the
    driver, on the compressed table. Why the tail suffices, and how every replicate is
    checked, is in :mod:`pandas_biosig.outofcore._bootstrap`.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=4)
    >>> kw = dict(metric="fnmr_at_fmr", target=0.01, n_resamples=200, seed=3)
    >>> ddf.biosig.bootstrap(**kw).equals(pbs.bootstrap(trials, **kw))
    True
    """
    check_common(n_resamples, confidence_level, resample, ci_method)
    metric = canonical_metric(check_option(metric, BOOTSTRAP_METRICS, "metric"))
    method = _interval_method(ci_method, metric)
    if target is not None:  # refused even where the metric does not read it
        target = check_rate(target, "target")
    elif metric == "fnmr_at_fmr":
        raise ValueError(ERROR_TARGET.format(metric=metric))
    _check_unit(data, resample, subject, reference_subject)
    rng = make_rng(seed)
    eng = _engine(data, system=system, trial=trial, label=label, score=score, split=split,
                  by=by, orientation=orientation, nonfinite=nonfinite, count=count)
    plan = Protocol(on=on, apply_to=apply_to, resample="subject").resolve(
        eng.trials, needs_threshold=False, sweep_of=lambda g: eng.sweep(g.key), resample="subject")
    f = metric_function(metric, target=target, p_target=0.01, c_miss=1.0, c_fa=1.0)
    frame = data[list(dict.fromkeys([*eng.spec.columns, subject]))]
    rows = _run(eng, plan, frame, rng, dict(subject=subject, metric=metric, f=f, target=target,
                                              n_resamples=n_resamples, method=method,
                                              level=confidence_level))
    warn_empty_replicates([(where_text(r.group, eng.spec.by, eng.spec.split), row.pop("_empty"))
                           for r, row in zip(plan, rows, strict=True)], n_resamples, "subject")
    return result_frame(eng.trials, [r.group for r in plan], rows, BOOTSTRAP_COLUMNS)


def _interval_method(ci_method: str, metric: str) -> str:
    """The interval of these metrics (``ci_method`` checked by ``check_common``)."""
    if ci_method == "studentized":  # a rate at a fixed threshold only, as in memory
        raise ValueError(ERROR_STUDENTIZED.format(metric=metric))
    return "percentile" if ci_method == "auto" else ci_method


def _check_unit(data, resample, subject, reference_subject) -> None:
    """Subjects drawn, as the in-memory unit resolves ``resample`` (checked already)."""
    cols = list(data.columns)
    has = subject is not None and subject in cols
    if resample == "auto":
        if not has:
            raise ValueError(ERROR_RESAMPLE.format(resample="label"))
        if reference_subject is not None and reference_subject in cols:
            raise ValueError(ERROR_RESAMPLE.format(resample="two_way"))
    elif resample != "subject":
        raise ValueError(ERROR_RESAMPLE.format(resample=resample))
    elif not has:
        raise SchemaError(ERROR_SUBJECT.format(option="resample='subject'", column=subject,
                                               found=cols))


def _run(eng, plan, frame, rng, opts: dict) -> list[dict]:
    """Gather the compressed groups and run the replicates, from the generator's state on
    entry; again one cut lower for a group whose replicates reach below its tail."""
    spec = replace(eng.spec, trial=opts["subject"])  # _split reads the subjects as trials
    groups = [r.group for r in plan]
    _check_bytes(sum(eng.scores[g.key].p for g in groups))
    cuts = {g.key: _cuts(eng.scores[g.key]) for g in groups}
    entries = eng._run(_ladder_chunk, _ladder_combine, spec, cuts, frame=frame)
    for g in groups:
        if entries[g.key]["missing"]:
            where = where_text(g, eng.spec.by, eng.spec.split)
            raise SchemaError(ERROR_SUBJECT_MISSING.format(
                n=entries[g.key]["missing"], where=f" of {where}", rows="not listed out of core"))
    ladders = [_Ladder(entries[g.key], cuts[g.key]) for g in groups]
    levels = _choose(ladders, rng, opts["n_resamples"], _condition(opts["metric"], opts["target"]),
                     opts["method"] == "bca")
    tails: dict = {}
    snapshot = copy.deepcopy(rng)
    while True:
        _check_bytes(sum(lad.gen_scores.size + int(lad.above[:, j].sum()) + lad.subjects.size
                         for lad, j in zip(ladders, levels, strict=True)))
        want = {g.key: lad.cuts[j : j + 1]
                for g, lad, j in zip(groups, ladders, levels, strict=True) if (g.key, j) not in tails}
        if want:
            got = eng._run(_tail_chunk, _tail_combine, spec, want, frame=frame)
            empty = (np.zeros(0), np.zeros(0, dtype=object))
            tails.update({(key, int(np.flatnonzero(cuts[key] == c[0])[0])): got.get(key, empty)
                          for key, c in want.items()})
        work = copy.deepcopy(snapshot)
        try:
            rows = [_group_row(i, r, _compressed(r.group, lad, j, tails[r.group.key, j]), work,
                               opts, eng.spec.sign)
                    for i, (r, lad, j) in enumerate(zip(plan, ladders, levels, strict=True))]
        except _Insufficient as exc:
            levels[exc.index] += 1
            continue
        if rng is not work:  # the caller's generator ends where the in-memory call leaves it
            rng.bit_generator.state = work.bit_generator.state
        return rows


def _condition(metric: str, target):
    """The sufficiency condition of the module docstring on weighted counts at the lowest
    tail score: FAR > target (FNMR at FMR) or FAR - FRR > 0 (the EERs)."""
    if metric == "fnmr_at_fmr":
        return lambda fa, n, fr, p: fa / n > target
    return lambda fa, n, fr, p: fa / n - fr / p > 0


def _group_row(index: int, r, compressed, rng, opts: dict, sign: float) -> dict:
    """One group's estimate, replicates and interval, as the in-memory loop computes them."""
    group, sweep, tau = compressed
    f, check = opts["f"], _condition(opts["metric"], opts["target"])

    def checked(sw, t):
        if tau is not None and not check(sw.fa_at(tau), sw.n, sw.fr_at(tau), sw.p):
            raise _Insufficient(index)
        return f(sw, t)

    t = r.threshold
    reps = Replicates(group, sweep, "subject", lazy=False)
    estimate = checked(sweep.reweighted(np.ones(sweep.neg.size, np.int64),
                                        np.ones(sweep.pos.size, np.int64)), t)
    n = opts["n_resamples"]
    values = np.empty(n)
    empty = 0
    for i in range(n):
        rep = reps.draw(rng)
        empty += rep is None  # a class drawn empty: no metric, as in memory
        values[i] = math.nan if rep is None else checked(rep, t)
    level, method = opts["level"], opts["method"]
    if method == "bca":
        low, high = bca_interval(values, estimate, acceleration(jackknife(reps, checked, t)), level)
    else:
        low, high = percentile_interval(values, level)
        if method == "basic":
            low, high = 2 * estimate - high, 2 * estimate - low
        low, high = float(low), float(high)
    return dict(_empty=empty, metric=opts["metric"], estimate=estimate,
                se=float(np.nanstd(values, ddof=1)) if n > 1 else math.nan,
                ci_low=low, ci_high=high, confidence_level=level, ci_method=method,
                resample="subject", n_resamples=n, threshold=sign * t,
                threshold_from=r.threshold_from, weight=r.weight)
