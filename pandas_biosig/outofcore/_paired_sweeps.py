r"""The paired subject bootstrap of the EER and of FNMR at FMR between two systems of a
dask table: :func:`pandas_biosig.outofcore.compare` with ``test="bootstrap"`` and
``metric`` one of :data:`SWEEP_METRICS`, subjects drawn.

A documented internal module: :mod:`pandas_biosig.outofcore._pairwise` calls it. In memory
(:class:`~pandas_biosig._core.replicates.PairedResampler`) a replicate draws every
subject's multiplicity once (``uniform_counts`` over the first system's subjects, in the
order of their first trial there), weighs both systems' trials by their subject's, and
reads the metric on each system's reweighted sweep. Here each system's trials are the
compressed table of :mod:`pandas_biosig.outofcore._bootstrap` (every genuine trial, the
impostor tail that the replicates' thresholds can reach, one pseudo-trial per subject for
the rest), its subjects coded in the pair's first system's order, and each replicate
reads the same draws from the same generator. The sufficiency condition of that module
holds for each system separately (it reads one system's counts at its cut), and is
checked on the estimate and on every replicate of both systems; a system whose replicates
reach below its tail is gathered again one cut lower, and the replicates rerun from the
generator's state on entry. Each trial must have the same subject in every system (the
aligned pass checks it).
"""

from __future__ import annotations

import copy
import math
from dataclasses import replace

import numpy as np
import pandas as pd

from .._core.replicates import (
    bootstrap_result,
    class_permutations,
    reweighted_or_none,
    warn_empty_replicates,
)
from .._core.schema import SchemaError
from .._kernels.resample import people_weights, uniform_counts
from ._bootstrap import (
    _check_bytes,
    _compressed,
    _condition,
    _cuts,
    _Insufficient,
    _Ladder,
    _ladder_chunk,
    _ladder_combine,
    _tail_chunk,
    _tail_combine,
)
from ._pairpass import ERROR_SUBJECTS_DIFFER

__all__ = ["SWEEP_METRICS", "sweep_tests"]

#: The metrics of ``compare(test="bootstrap")`` out of core whose replicates read a few
#: thresholds near the impostor tail (subjects drawn).
SWEEP_METRICS = ("eer_threshold", "eer_interpolated", "fnmr_at_fmr")


class _Lower(Exception):  # a signal caught by sweep_tests, never a ValueError
    """A system's replicates reach below its gathered tail: gather it one cut lower."""

    def __init__(self, key: tuple):
        self.key = key


def _ordered_entry(entry: dict, subjects: np.ndarray) -> dict:
    """A system's ladder entry with its subjects ranked in another system's order."""
    rank = pd.Index(subjects).get_indexer(entry["subjects"])
    if (rank < 0).any() or rank.size != subjects.size:  # the aligned pass missed them
        raise SchemaError(ERROR_SUBJECTS_DIFFER.format(n="some", examples="not listed"))
    return dict(entry, first=rank.astype(np.int64))


class _Pairs:
    """The ladders of the pairs' systems, each in its pair's first system's subject order."""

    def __init__(self, entries: dict, cuts: dict, pairs: list):
        self.pairs = pairs
        self.ladders: dict[tuple, _Ladder] = {}
        for ga, gb in pairs:
            lad_a = self._ladder(entries, cuts, ga.key, ga.key, None)
            self._ladder(entries, cuts, gb.key, ga.key, lad_a.subjects)

    def _ladder(self, entries, cuts, key, order, subjects) -> _Ladder:
        if (key, order) not in self.ladders:
            entry = entries[key] if subjects is None else _ordered_entry(entries[key], subjects)
            self.ladders[key, order] = _Ladder(entry, cuts[key])
        return self.ladders[key, order]

    def of(self, ga, gb) -> tuple[_Ladder, _Ladder]:
        return self.ladders[ga.key, ga.key], self.ladders[gb.key, ga.key]

    def levels(self, rng, n_resamples: int, check) -> dict:
        """The highest cut of each system that the estimate and every replicate of every
        pair it takes part in pass (drawn from a copy of ``rng``, as the pairs draw them)."""
        rng = copy.deepcopy(rng)
        ok: dict = {}
        for ga, gb in self.pairs:
            lads = self.of(ga, gb)
            k = lads[0].subjects.size
            passed = [lad.passes(np.ones((1, k)), check) for lad in lads]
            for start in range(0, n_resamples, 256):
                mult = np.stack([uniform_counts(rng, k)
                                 for _ in range(min(256, n_resamples - start))])
                passed = [p & lad.passes(mult, check) for p, lad in zip(passed, lads, strict=True)]
            for g, lad, p in zip((ga, gb), lads, passed, strict=True):
                ok[g.key] = ok.get(g.key, True) & (p | (lad.sigma == 0))
        return {key: int(np.argmax(v)) for key, v in ok.items()}


def _gather(eng, spec, frame, pairs: _Pairs, levels: dict, tails: dict) -> None:
    """Fetch the tails of the systems whose cut is not gathered yet."""
    lads = {key: lad for (key, _), lad in pairs.ladders.items()}
    _check_bytes(sum(lad.gen_scores.size + int(lad.above[:, levels[key]].sum())
                     + lad.subjects.size for key, lad in lads.items()))
    want = {key: lads[key].cuts[j : j + 1] for key, j in levels.items() if (key, j) not in tails}
    if want:
        got = eng._run(_tail_chunk, _tail_combine, spec, want, frame=frame)
        empty = (np.zeros(0), np.zeros(0, dtype=object))
        tails.update({(key, levels[key]): got.get(key, empty) for key in want})


def _replicates(pair, compressed, k: int, rng, opts: dict, tick) -> tuple[object, int]:
    """One pair's test, as :func:`~pandas_biosig._core.replicates.bootstrap_difference`
    computes it with subjects drawn, on the compressed tables; and the replicates that
    drew a class empty."""
    ma, f, check = pair[0], opts["f"], opts["check"]

    def checked(index, sw):
        tau = compressed[index][2]
        if tau is not None and not check(sw.fa_at(tau), sw.n, sw.fr_at(tau), sw.p):
            raise _Insufficient(index)
        return f(sw, math.nan)

    perms = [class_permutations(c[0]) for c in compressed]
    for c in compressed:
        c[1].prepare_resampling()
    full = [c[1].reweighted(np.ones(c[1].neg.size, np.int64), np.ones(c[1].pos.size, np.int64))
            for c in compressed]
    est = checked(0, full[0]) - checked(1, full[1])
    n = opts["n_resamples"]
    deltas = np.empty(n)
    empty = 0
    for i in range(n):
        mult = uniform_counts(rng, k)
        sweeps = []
        for (group, sweep, _), (neg, pos) in zip(compressed, perms, strict=True):
            w = people_weights(mult, group.subject, None, group.genuine)
            sweeps.append(reweighted_or_none(sweep, w[neg], w[pos]))
        if sweeps[0] is None or sweeps[1] is None:
            empty += 1
            deltas[i] = math.nan
        else:
            deltas[i] = checked(0, sweeps[0]) - checked(1, sweeps[1])
        tick(i + 1)
    res = bootstrap_result(est, deltas, opts["alternative"], n=opts["n_trials"](ma.group.key))
    return replace(res, method=f"{res.method} ({n} resamples, resample='subject')"), empty


def sweep_tests(eng, frame, spec, members_pairs: list, opts: dict) -> list:
    """The tests of ``members_pairs`` (``[(member A, member B)]`` in the in-memory order),
    from the generator ``opts["rng"]`` left where the in-memory loop leaves it."""
    groups = {m.group.key: m.group for pair in members_pairs for m in pair}
    cuts = {key: _cuts(eng.scores[key]) for key in groups}
    _check_bytes(sum(eng.scores[key].p for key in groups))
    entries = eng._run(_ladder_chunk, _ladder_combine, spec, cuts, frame=frame)
    pairs = _Pairs(entries, cuts, [(ma.group, mb.group) for ma, mb in members_pairs])
    check = opts["check"] = _condition(opts["metric"], opts["target"])
    rng = opts["rng"]
    levels = pairs.levels(rng, opts["n_resamples"], check)
    tails: dict = {}
    snapshot = copy.deepcopy(rng)
    while True:
        _gather(eng, spec, frame, pairs, levels, tails)
        work = copy.deepcopy(snapshot)
        try:
            out = _run_pairs(members_pairs, pairs, levels, tails, work, opts)
        except _Lower as exc:
            levels[exc.key] += 1
            continue
        if rng is not work:  # the caller's generator ends where the in-memory call leaves it
            rng.bit_generator.state = work.bit_generator.state
        return out


def _run_pairs(members_pairs, pairs: _Pairs, levels: dict, tails: dict, rng, opts) -> list:
    """Every pair's test in order (the warnings of replicates without a class, said once
    the tests are final)."""
    out, empties = [], []
    n = opts["n_resamples"]
    for done, (ma, mb) in enumerate(members_pairs):
        lads = pairs.of(ma.group, mb.group)
        compressed = [_compressed(m.group, lad, levels[m.group.key], tails[m.group.key,
                                                                            levels[m.group.key]])
                      for m, lad in zip((ma, mb), lads, strict=True)]
        try:
            res, empty = _replicates((ma, mb), compressed, lads[0].subjects.size, rng, opts,
                                     lambda i, start=done * n: opts["tick"](start + i))
        except _Insufficient as exc:
            raise _Lower((ma, mb)[exc.index].group.key) from None
        out.append(res)
        empties.append((f"systems {ma.group.system!r} and {mb.group.system!r}", empty))
    for where, empty in empties:  # as the in-memory test says them, one pair at a time
        warn_empty_replicates([(where, empty)], n, "subject")
    return out
