r"""The paired bootstrap of :func:`pandas_biosig.outofcore.compare` (``test="bootstrap"``).

A documented internal module: :mod:`pandas_biosig.outofcore._pairwise` calls it. The
replicates are :func:`pandas_biosig.compare`'s for the same seed, to the bit, for the
metrics read at fixed thresholds (``"far"``, ``"frr"`` and ``"hter"``, the default): there
the in-memory test (:func:`~pandas_biosig._core.replicates.bootstrap_difference`) reads
only counts, drawn by the same code here (:mod:`pandas_biosig._core.cells`). The EER and
FNMR at FMR, subjects drawn, are :mod:`pandas_biosig.outofcore._paired_sweeps`'.

- **Trials drawn** (``resample="label"`` or ``"trial"``, the default without a subject
  column): a replicate is a multinomial draw of the pair's eight cell counts (class x A
  accepts x B accepts); the aligned pass gives every family's error co-occurrence counts,
  from which the eight cells follow exactly.
- **Subjects drawn** (``"subject"``, the default with a subject column): a replicate
  weighs each subject's marginal counts (impostors, A's and B's false acceptances,
  genuines, A's and B's false rejections) by the subject's multiplicity. These are sums
  of each system's own trials per subject, one grouped pass; they are the pair's as long
  as each trial has the same subject in every system, which the aligned pass checks
  (:data:`~pandas_biosig.outofcore._pairpass.ERROR_SUBJECTS_DIFFER` otherwise; in memory
  the first system's subject would count). The subjects are ordered by their first trial
  in the first system of the pair (the in-memory codes), and the draws are shared by the
  pairs of a family exactly when the in-memory ones are: when the subject codes of the
  pairs' first systems, trial by trial in table order, are equal. That is decided on a
  128-bit hash of each system's code sequence (one more pass, made only when a family's
  pairs have different first systems); two different sequences would have to collide.

Integer counts below 2**53 are exact in floating point whatever the order of their sums,
so the replicated differences, the Satterthwaite degrees of freedom and the estimate are
the in-memory ones. Refused by name: the metrics that read every trial of a replicate
(:data:`ERROR_BOOTSTRAP_METRIC`), people in both roles
(:data:`~pandas_biosig.outofcore._intervals.ERROR_TWO_WAY`), and subjects drawn with
``common_trials=True`` when two systems do not score the same trials
(:data:`ERROR_BOOTSTRAP_COMMON`).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd

from .._core.cells import cell_deltas
from .._core.pairwise import pair_row
from .._core.replicates import (
    FIXED_THRESHOLD_METRICS,
    FamilyDraws,
    bootstrap_result,
    marginal_df,
    subject_deltas,
)
from .._core.schema import SchemaError
from ._engine import _GOLDEN, _mix, _split
from ._intervals import ordered, resampling_unit
from ._paired_sweeps import SWEEP_METRICS
from ._pairpass import ERROR_SUBJECTS_DIFFER

__all__ = ["ERROR_BOOTSTRAP_COMMON", "ERROR_BOOTSTRAP_METRIC", "bootstrap_rows",
           "check_bootstrap", "check_complete", "layouts"]

ERROR_BOOTSTRAP_METRIC = (
    "test='bootstrap' out of core resamples 'far', 'frr' and 'hter' (the default) at fixed "
    "thresholds, and with subjects drawn 'eer', 'eer_interpolated' and 'fnmr_at_fmr'; "
    "metric={metric!r} with resample={unit!r} reads every trial of every replicate: "
    "compute() the table (or a sample of subjects)"
)
ERROR_BOOTSTRAP_COMMON = (
    "systems {a!r} and {b!r} do not score the same trials{where}: with subjects resampled "
    "out of core each system's trials are summed per subject, so the paired bootstrap "
    "needs every system of a split to score every trial (drop the others, resample='label', "
    "or compute() the table)"
)
_SALT = np.uint64(0x632BE59BD9B4E019)


def check_bootstrap(data, metric: str, resample: str, subject, reference_subject) -> str:
    """The resampling unit of the test (as in memory), for a metric read at fixed
    thresholds or, subjects drawn, one of :data:`SWEEP_METRICS`."""
    unit = resampling_unit(data, resample, subject, reference_subject)
    if metric in FIXED_THRESHOLD_METRICS or (metric in SWEEP_METRICS and unit == "subject"):
        return unit
    raise ValueError(ERROR_BOOTSTRAP_METRIC.format(metric=metric, unit=unit))


class _Counted:
    """One system's decisions on a pair's trials, read by the metric functions of
    :func:`~pandas_biosig._core.replicates.metric_function` as they read a sweep at a
    fixed threshold."""

    def __init__(self, fa: int, fr: int, n: int, p: int):
        self.n, self.p, self._fa, self._fr = n, p, fa, fr

    def fa_at(self, threshold: float) -> int:
        return self._fa

    def fr_at(self, threshold: float) -> int:
        return self._fr


def _pair_cells(c: dict, i: int, j: int):
    """The pair's eight cell counts (``4 * genuine + 2 * A accepts + B accepts``) and each
    system's counted decisions, from the family's co-occurrence counts."""
    def get(name, x, y):
        return int(c[name][x, y])

    ni, nc = get("n_i", i, j), get("n_c", i, j)
    fa_a, fa_b, fr_a, fr_b = get("err_i", i, j), get("err_i", j, i), get("err_c", i, j), get("err_c", j, i)
    both_i, both_c = get("both_i", i, j), get("both_c", i, j)
    cells = np.array([ni - fa_a - fa_b + both_i, fa_b - both_i, fa_a - both_i, both_i,
                      both_c, fr_a - both_c, fr_b - both_c, nc - fr_a - fr_b + both_c],
                     dtype=np.int64)
    return cells, _Counted(fa_a, fr_a, ni, nc), _Counted(fa_b, fr_b, ni, nc)


def _marginals(entries: dict, key_a, key_b) -> np.ndarray:
    """Each subject's marginal counts of the pair (rows: A's subjects in first-appearance
    order; columns as :func:`~pandas_biosig._core.cells.cell_marginals`)."""
    subjects, ca = ordered(entries[key_a])
    at = pd.Index(entries[key_b]["subjects"]).get_indexer(subjects)
    if (at < 0).any() or at.size != len(entries[key_b]["subjects"]):  # the aligned pass
        raise SchemaError(ERROR_SUBJECTS_DIFFER.format(  # missed them (hashes collided)
            n="some", examples="not listed"))
    cb = entries[key_b]["counts"][at]
    return np.stack([ca[:, 0], ca[:, 1], cb[:, 1], ca[:, 2], ca[:, 3], cb[:, 3]],
                    axis=1).astype(np.float64)


# ----------------------------------------------------------------------------- layouts
def _layout_chunk(pdf, index, spec, plan):
    """Per group: rows, and two 64-bit sums of mixed (position, subject code) of its rows
    here, positions counted over the group's rows in table order."""
    out = {}
    for key, _, _, subj in _split(pdf, spec, trials=True).groups:
        if key not in plan or subj is None:
            continue
        subjects, offsets = plan[key]
        codes = subjects.get_indexer(subj).astype(np.uint64)
        pos = np.arange(codes.size, dtype=np.uint64) + np.uint64(offsets.get(index, 0))
        one = _mix(pos * np.uint64(_GOLDEN) + codes)
        two = _mix((codes << np.uint64(32)) ^ pos ^ _SALT)
        out[key] = (codes.size, int(one.sum(dtype=np.uint64)), int(two.sum(dtype=np.uint64)))
    return out


def _layout_combine(results):
    out: dict = {}
    mask = (1 << 64) - 1
    for res in results:
        for key, (n, one, two) in res.items():
            m, a, b = out.get(key, (0, 0, 0))
            out[key] = (m + n, (a + one) & mask, (b + two) & mask)
    return out


def layouts(eng, frame, subject: str, entries: dict, plans) -> dict:
    """Per group, what identifies its subject codes in table order (the key of the draws
    the pairs of a family share, :meth:`~pandas_biosig._core.replicates.FamilyDraws.multiplicities`):
    the group itself when no family has pairs with different first systems, else the
    length and a 128-bit hash of the code sequence (one pass)."""
    firsts = [{fam_members[a].group.key for a, _ in pairs} for _, fam_members, pairs in plans]
    keys = sorted({k for f in firsts for k in f}, key=repr)
    if all(len(f) < 2 for f in firsts):
        return {key: np.array([i], dtype=np.uint64) for i, key in enumerate(keys)}
    plan = {}
    for key in keys:
        rows = entries[key]["rows"]
        offsets, acc = {}, 0
        for index in sorted(rows):
            offsets[index], acc = acc, acc + rows[index]
        plan[key] = (pd.Index(ordered(entries[key])[0]), offsets)
    spec = replace(eng.spec, trial=subject)
    got = eng._run(_layout_chunk, _layout_combine, spec, plan, frame=frame)
    return {key: np.array(got[key], dtype=np.uint64) for key in keys}


# ----------------------------------------------------------------------------- rows
def check_complete(eng, plans, names, counts: dict) -> None:
    """Subjects drawn: every pair's trials are all of both systems' (else refused)."""
    from .._core.pairwise import in_where

    for fam, fam_members, pairs in plans:
        for a, b in pairs:
            n = sum(int(counts[fam][name][a, b]) for name in ("n_i", "n_c"))
            for m in (fam_members[a], fam_members[b]):
                ps = eng.scores[m.group.key]
                if ps.n + ps.p != n:
                    raise ValueError(ERROR_BOOTSTRAP_COMMON.format(
                        a=fam_members[a].group.system, b=fam_members[b].group.system,
                        where=in_where(names, fam)))


def _test(eng, fam_counts, pair, shared: FamilyDraws, opts: dict):
    """One pair's paired bootstrap test, as :func:`bootstrap_difference` computes it at
    fixed thresholds."""
    if "results" in opts:  # a metric of the sweep, tested beforehand in this order
        return next(opts["results"])
    (a, ma), (b, mb) = pair
    cells, ca, cb = _pair_cells(fam_counts, a, b)
    f, unit, n_res = opts["f"], opts["unit"], opts["n_resamples"]
    est = f(ca, ma.threshold) - f(cb, mb.threshold)
    df = math.nan
    if unit == "subject":
        marginals = _marginals(opts["entries"], ma.group.key, mb.group.key)
        deltas = subject_deltas(marginals, opts["layouts"][ma.group.key], opts["metric"], n_res,
                                opts["rng"], shared)
        df = marginal_df(marginals, opts["metric"])
    else:
        deltas = cell_deltas(cells, opts["metric"], n_res, unit, opts["rng"])
    res = bootstrap_result(est, deltas, opts["alternative"], n=ca.n + ca.p, df=df)
    return replace(res, method=f"{res.method} ({n_res} resamples, resample={unit!r})")


def bootstrap_rows(eng, plans, names, counts: dict, opts: dict) -> tuple[list[dict], list[int]]:
    """The rows of every pair, in the in-memory order (one generator, one draw per family
    shared as in memory), and each row's family."""
    from .._core.pairwise import in_where
    from ..verification._comparison import TESTS

    rows: list[dict] = []
    family_of: list[int] = []
    sign, by = eng.spec.sign, eng.trials.by
    for i_fam, (fam, fam_members, pairs) in enumerate(plans):
        shared = FamilyDraws()
        opts["in_where"] = in_where(names, fam)
        for a, b in pairs:
            ma, mb = fam_members[a], fam_members[b]
            res = _test(eng, counts[fam], ((a, ma), (b, mb)), shared, opts)
            opts["tick"]((len(rows) + 1) * opts["n_resamples"])
            row = pair_row(by, fam, (ma.group.system, mb.group.system), metric=opts["metric"],
                           test="bootstrap", level=opts["level"], res=res,
                           alternative=opts["alternative"], nan_method=TESTS["bootstrap"])
            row.update(threshold_a=sign * ma.threshold, threshold_b=sign * mb.threshold,
                       threshold_from=ma.threshold_from, resample=opts["unit"],
                       null_hypothesis=opts["null"], pvalue_mc_se=res.pvalue_mc_se)
            rows.append(row)
            family_of.append(i_fam)
    return rows, family_of
