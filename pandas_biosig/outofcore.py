"""Dask-backed trial tables: the same functions on ``dask.dataframe.DataFrame``, exact.

Importing this module registers the ``biosig`` accessor on dask DataFrames (dask is an
optional dependency, ``pip install pandas-biosig[dask]``)::

    ddf = dd.read_parquet("trials/")            # never loaded whole
    ddf.biosig.eer()                           # == pbs.eer(ddf.compute()), to the last bit

How the numbers stay exact without collecting the scores
--------------------------------------------------------
Every computation is a few *passes* over the partitions (each a dask reduction; a worker
holds one partition and a bounded histogram at a time):

1. **Histogram.** Each score maps to an order-preserving uint64 key; the top ``bins`` bits
   (default 20) name a bin. Per group (``by`` values, system, split) and class, the exact
   count of every non-empty bin, the failures to acquire, and the extreme scores.
2. **Refinement.** Every operating point at a bin edge is a true operating point with
   exact counts. Each criterion is computed by the in-memory engine
   (:class:`~pandas_biosig._kernels.rates.Sweep`) on the bins, one weighted pseudo-score
   per bin, and then checks what its answer depends on: the chosen score and the next
   lower score (the bob.measure midpoint threshold), and, for a minimization, a lower
   bound of the criterion in every bin; for the ROCCH-EER, that every bin's box lies
   strictly above the lines of the hull segments around the FAR = FRR crossing. The bins
   that fail are *gathered* (their distinct scores fetched, with counts) or split into
   finer bins by the next pass. When nothing fails, the result is the in-memory result:
   the same integer counts FA and FR, the same thresholds, the same floating-point
   operations on them.

Typically two to four passes; the memory of the driver is bounded by the gather limit.

What is exact, and what is not
------------------------------
- ``eer`` (all three methods), ``error_rates`` (every criterion, fixed thresholds, ``on``
  / ``apply_to``), ``dcf`` (minDCF, actDCF), and in ``summary`` the EERs, thresholds,
  min HTER, FMR100 / FMR1000 / ZeroFMR / ZeroFNMR, minDCF and AUC: equal to the pandas path
  bit for bit.
- ``summary``'s ``auc`` and ``min_cllr`` need every score in order: they take one extra
  pass per ``batch_size`` scores (the scores are gathered batch by batch in key order, never
  all at once). AUC is exact (integer win counts). ``min_cllr`` streams the PAV blocks
  through scipy's PAVA; the blocks are the in-memory ones except when two pooled blocks
  have exactly equal genuine fractions, where floating-point pooling order can split or
  merge collinear hull vertices (the value then differs in the last bits).
- ``cllr`` and ``d_prime`` are floating-point sums over all scores, accumulated per
  partition: they agree with the pandas path to a relative 1e-12, not bit for bit (the
  pandas value depends on numpy's summation order over the sorted scores).
- The ROCCH-EER is BOSARIS' value on the exact hull segments at the crossing (and the next
  one when the crossing is at a vertex); the pandas path takes the maximum over all
  segments, which is the same number unless two segments' intersections with FAR = FRR
  differ by less than one unit in the last place (which needs a hull vertex within about
  ``1/(n_genuine n_impostor)`` of the diagonal).
- ``det`` is a grid DET: exact operating points at bin edges (refined until no bin with
  more than one distinct score moves FAR or FRR by more than ``1/points``); the
  full-resolution curve has one point per distinct score, too many to hold in bounded
  memory, and lies within the boxes between consecutive grid points (``far_gap`` and
  ``frr_gap`` bound them).
- Duplicate ``(system, trial)`` rows and missing trial ids are refused as on the pandas
  path (the same messages). Finding them costs one extra pass: each row's key and trial
  are hashed to 64 bits and the hashes counted with a distributed ``value_counts``; the
  rows of a repeated hash are then compared exactly.

Options (``dask.config``): ``pandas_biosig.bins`` (bits of the first histogram, 20),
``pandas_biosig.refine_bits`` (16), ``pandas_biosig.gather_limit`` (scores fetched per
pass, 2**23), ``pandas_biosig.batch_size`` (scores per pass of the full sweep, 2**23),
``pandas_biosig.split_every`` (fan-in of the reductions, 8).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

import dask
import dask.dataframe as dd
import numpy as np
import pandas as pd
import xarray as xr

from ._kernels import outofcore as _ooc
from ._kernels.pairwise import decision_errors, pair_counts
from ._kernels.rates import _LN2, softplus
from ._schema import (
    ERROR_DUPLICATE_COLUMNS,
    ERROR_DUPLICATE_TRIALS,
    ERROR_EMPTY,
    ERROR_MISSING_COLUMNS,
    ERROR_MISSING_TRIALS,
    ERROR_NONFINITE,
    ERROR_ONE_CLASS,
    ERROR_SCORE_DTYPE,
    NONFINITE_POLICIES,
    ORIENTATIONS,
    Group,
    SchemaError,
    Trials,
    _by_columns,
    _factorize,
    _genuine_from_labels,
    _scalar,
    _scores,
    _where,
    check_column_names,
    check_option,
    combine_codes,
)
from ._typing import Alternative, Criterion, EERMethod, NonFinite, Orientation
from .metrics import (
    DCF_COLUMNS,
    EER_COLUMNS,
    EER_METHODS,
    ERROR_BAYES_DISTANCE,
    ERROR_RATE_COLUMNS,
    SUMMARY_COLUMNS,
    _check_costs,
    _frame,
    _rates_row,
)
from .protocol import Protocol
from .resampling import ERROR_LABELS_DIFFER

__all__ = [
    "DET_VARIABLES",
    "PAIRWISE_COLUMNS",
    "DaskBiosigAccessor",
    "compare",
    "dcf",
    "det",
    "eer",
    "error_rates",
    "pairwise_counts",
    "summary",
]

ERROR_NOT_DASK = "expected a dask.dataframe.DataFrame of trials, got {type}"
ERROR_NO_CONVERGENCE = (
    "internal: the exact out-of-core computation did not settle after {passes} passes"
)
ERROR_PAIR_DUPLICATES = (
    "{n} (system, trial) pair(s) appear more than once, e.g. {examples}; each (system, trial) "
    "must appear once"
)
ERROR_PAIR_MISSING = (
    "{n} trial(s) are not scored by every system, e.g. {examples}; pass common_trials=True "
    "to keep only the trials that all systems scored"
)
ERROR_BOOTSTRAP = (
    "test='bootstrap' resamples every trial of a pair in memory and is not available out of "
    "core; use a parametric test (hter_dependent, mcnemar, ...) or compute() a sample"
)

ERROR_AUTO_SUBJECT = (
    "the table has a subject column ({column!r}): the default test of compare() is then the "
    "subject-level paired bootstrap, which runs in memory only. Pass test='hter_dependent' "
    "if the trials are independent, or compute() the table (or a sample) for the bootstrap"
)

#: Columns of :func:`pairwise_counts` (after any ``by`` columns).
PAIRWISE_COLUMNS = [
    "system_a",
    "system_b",
    "split",
    "criterion",
    "threshold_a",
    "threshold_b",
    "n",
    "n_genuine",
    "n_impostor",
    "fa_a",
    "fr_a",
    "fa_b",
    "fr_b",
    "ni_ab",
    "ni_ba",
    "nc_ab",
    "nc_ba",
    "b",
    "c",
]

#: Variables of :func:`det`'s Dataset.
DET_VARIABLES = ["threshold", "far", "frr", "tpr", "eer", "auc", "n_genuine", "n_impostor", "far_gap", "frr_gap"]

_DEFAULTS = {
    "bins": 20,
    "refine_bits": 16,
    "gather_limit": 2**23,
    "batch_size": 2**23,
    "split_every": 8,
    "max_passes": 64,
}


def _option(name: str) -> int:
    return int(dask.config.get(f"pandas_biosig.{name}", _DEFAULTS[name]))


# ----------------------------------------------------------------------------- schema
@dataclass(frozen=True)
class _Spec:
    """The column names and policies of one call, resolved against the table."""

    system: str
    trial: str
    label: str
    score: str
    split: str | None
    by: tuple[str, ...]
    orientation: str
    nonfinite: str
    found: tuple

    @property
    def keys(self) -> list[str]:
        return [*self.by, self.system] + ([self.split] if self.split is not None else [])

    @property
    def columns(self) -> list[str]:
        return list(dict.fromkeys([*self.keys, self.label, self.score]))

    @property
    def sign(self) -> float:
        return -1.0 if self.orientation == "distance" else 1.0


def _spec(data, *, system, trial, label, score, split, by, orientation, nonfinite) -> _Spec:
    """Validate what can be validated without reading the data (the pandas checks)."""
    if not isinstance(data, dd.DataFrame):
        raise TypeError(ERROR_NOT_DASK.format(type=type(data).__name__))
    check_option(orientation, ORIENTATIONS, "orientation")
    check_option(nonfinite, NONFINITE_POLICIES, "nonfinite")
    by_cols = _by_columns(by)
    check_column_names(
        system=system, trial=trial, label=label, score=score, split=split, by=list(by_cols)
    )
    if data.columns.has_duplicates:
        raise SchemaError(
            ERROR_DUPLICATE_COLUMNS.format(
                duplicated=list(dict.fromkeys(data.columns[data.columns.duplicated()])),
                found=list(data.columns),
            )
        )
    found = list(data.columns)
    split_col = split if split is not None and (split in found or split != "split") else None
    required = [*by_cols, system, trial, label, score] + ([split_col] if split_col else [])
    missing = [c for c in dict.fromkeys(required) if c not in found]
    if missing:
        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=missing, found=found))
    dtype = data.dtypes[score]
    if not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_bool_dtype(dtype):
        raise SchemaError(ERROR_SCORE_DTYPE.format(column=score, dtype=dtype))
    return _Spec(system, trial, label, score, split_col, by_cols, orientation, nonfinite, tuple(found))


@dataclass
class _Part:
    """One partition split into groups (oriented scores, genuine mask, optional trials)."""

    groups: list[tuple[tuple, np.ndarray, np.ndarray, np.ndarray | None]]
    uniques: list[list]
    n_bad: int
    bad_rows: pd.DataFrame | None
    rows: int


def _split(pdf: pd.DataFrame, spec: _Spec, *, trials: bool = False) -> _Part:
    """Validate one partition (labels, scores, non-finite policy) and split it by group."""
    n_keys = len(spec.keys)
    if len(pdf) == 0:
        return _Part([], [[] for _ in range(n_keys)], 0, None, 0)
    genuine = _genuine_from_labels(pdf, spec.label)
    scores = _scores(pdf, spec.score)
    finite = np.isfinite(scores)
    keep = None
    n_bad, bad_rows = 0, None
    if not finite.all():
        bad = np.flatnonzero(~finite)
        n_bad = bad.size
        if spec.nonfinite == "raise":
            bad_rows = pdf.iloc[bad[:5]]
            keep = finite
        elif spec.nonfinite == "drop" or trials:
            keep = finite  # "reject": the pair pass compares acquired trials only
        else:  # "reject": -inf marks the failures, counted per group by the histogram pass
            scores = scores.copy()
            scores[bad] = -np.inf if spec.orientation == "similarity" else np.inf
    if spec.orientation == "distance":
        scores = -scores
    trial_values = pdf[spec.trial].to_numpy() if trials else None
    codes_list, uniques_list = [], []
    for col in spec.keys:
        codes, uniques = _factorize(pdf[col])
        codes_list.append(np.asarray(codes))
        uniques_list.append([_scalar(u) for u in uniques])
    combined = combine_codes(codes_list, [len(u) for u in uniques_list], len(pdf))
    if keep is not None:
        combined = np.where(keep, combined, -1)
    uniq = np.unique(combined)
    uniq = uniq[uniq >= 0]
    groups = []
    if uniq.size == 1 and keep is None:
        slices = [(int(uniq[0]), None)]
    else:
        order = np.argsort(combined, kind="stable")
        bounds = np.searchsorted(combined[order], uniq)
        ends = np.append(bounds[1:], len(pdf))
        slices = [(int(c), order[b:e]) for c, b, e in zip(uniq, bounds, ends, strict=True)]
    for _code, rows in slices:
        # the key of a group: the per-column codes of its first row
        first = 0 if rows is None else int(rows[0])
        key = tuple(u[int(c[first])] for u, c in zip(uniques_list, codes_list, strict=True))
        if spec.split is None:
            key = (*key, None)
        if rows is None:
            groups.append((key, scores, genuine, trial_values))
        else:
            groups.append(
                (key, scores[rows], genuine[rows], None if trial_values is None else trial_values[rows])
            )
    return _Part(groups, uniques_list, n_bad, bad_rows, len(pdf))


# ----------------------------------------------------------------------------- passes
def _tree(chunks, combine, split_every: int):
    while len(chunks) > 1:
        chunks = [
            dask.delayed(combine, pure=True)(chunks[i : i + split_every])
            for i in range(0, len(chunks), split_every)
        ]
    return chunks[0]


def _finite(scores, genuine):
    fin = np.isfinite(scores)
    if fin.all():
        return scores, genuine, 0, 0
    rn = int(np.count_nonzero(~fin & ~genuine))
    rp = int(np.count_nonzero(~fin & genuine))
    return scores[fin], genuine[fin], rn, rp


def _hist_chunk(pdf, index, spec, bits, moments):
    part = _split(pdf, spec)
    out = {}
    for key, s, g, _ in part.groups:
        s, g, rn, rp = _finite(s, g)
        keys = _ooc.order_keys(s)
        lo, neg, pos = _ooc.bin_counts(keys, g, bits)
        entry = dict(
            bins=(lo, neg, pos),
            rn=rn,
            rp=rp,
            low=float(s.min()) if s.size else np.inf,
            high=float(s.max()) if s.size else -np.inf,
        )
        if moments:
            entry["moments"] = [_moments(s[~g], True), _moments(s[g], False)]
        out[key] = entry
    order = [{u: (index, i) for i, u in enumerate(us)} for us in part.uniques]
    bad = [] if part.bad_rows is None else [part.bad_rows]
    return dict(groups=out, order=order, n_bad=part.n_bad, bad=bad, rows=part.rows)


def _moments(x: np.ndarray, impostor: bool):
    """(count, mean, M2, [sum of Cllr terms]) of finite scores of one class."""
    if x.size == 0:
        return (0, 0.0, 0.0, [])
    m = float(x.mean())
    d = x - m
    soft = softplus(x if impostor else -x)
    return (x.size, m, float(np.dot(d, d)), [float(soft.sum())])


def _merge_moments(a, b):
    na, ma, qa, sa = a
    nb, mb, qb, sb = b
    if na == 0:
        return b
    if nb == 0:
        return a
    n = na + nb
    delta = mb - ma
    return (n, ma + delta * nb / n, qa + qb + delta * delta * na * nb / n, sa + sb)


def _hist_combine(results):
    out = dict(groups={}, order=[{} for _ in results[0]["order"]], n_bad=0, bad=[], rows=0)
    for res in results:
        out["n_bad"] += res["n_bad"]
        out["rows"] += res["rows"]
        out["bad"] = (out["bad"] + res["bad"])[:5]
        for mine, theirs in zip(out["order"], res["order"], strict=True):
            for u, pos in theirs.items():
                if u not in mine or pos < mine[u]:
                    mine[u] = pos
        for key, e in res["groups"].items():
            cur = out["groups"].get(key)
            if cur is None:
                out["groups"][key] = dict(e)
                continue
            cur["bins"] = _ooc.merge_bins([cur["bins"], e["bins"]]) or cur["bins"]
            cur["rn"] += e["rn"]
            cur["rp"] += e["rp"]
            cur["low"] = min(cur["low"], e["low"])
            cur["high"] = max(cur["high"], e["high"])
            if "moments" in e:
                cur["moments"] = [_merge_moments(a, b) for a, b in zip(cur["moments"], e["moments"], strict=True)]
    return out


def _resolve_chunk(pdf, index, spec, plan):
    part = _split(pdf, spec)
    out = {}
    for key, s, g, _ in part.groups:
        if key not in plan:
            continue
        s, g, _, _ = _finite(s, g)
        keys = _ooc.order_keys(s)
        refine, gather = plan[key]
        res = {}
        if refine is not None:
            res["refine"] = _ooc.refine_counts(keys, g, *refine)
        if gather is not None:
            res["gather"] = _ooc.gather_values(s, keys, g, *gather)
        out[key] = res
    return out


def _resolve_combine(results):
    out: dict = {}
    for res in results:
        for key, r in res.items():
            cur = out.setdefault(key, {})
            for kind, merge in (("refine", _ooc.merge_bins), ("gather", _ooc.merge_values)):
                if kind in r:
                    cur[kind] = r[kind] if kind not in cur else (merge([cur[kind], r[kind]]) or cur[kind])
    return out


def _compact(pdf, spec, codes, meta):
    """One partition as ``(trial, group code, genuine, oriented score)``: validated, small
    and string-free, so that the shuffle on ``trial`` moves as few bytes as possible."""
    part = _split(pdf, spec, trials=True)
    pieces = [
        pd.DataFrame({"trial": t, "group": np.full(s.size, codes[key], np.int32), "genuine": g,
                      "score": s})
        for key, s, g, t in part.groups if key in codes
    ]
    return pd.concat(pieces, ignore_index=True) if pieces else meta


def _pair_chunk(pdf, index, families, where, common):
    """Pairwise error co-occurrence counts of one partition whose trials are complete.

    ``families`` lists ``(family, [(system, threshold)])``; ``where[code]`` is the
    ``(family index, column)`` of a group code. Returns, per family, the sums of
    :func:`pair_counts` and the alignment problems found (duplicate rows, missing trials,
    labels that differ).
    """
    out = dict(counts={}, errors={"dup": [0, []], "missing": [0, []], "labels": [0, []]})
    if len(pdf) == 0:
        return out
    code = pdf["group"].to_numpy()
    fam_of, col_of = where[code, 0], where[code, 1]
    trial_all = pdf["trial"].to_numpy()
    score_all = pdf["score"].to_numpy()
    gen_all = pdf["genuine"].to_numpy()
    for f in np.unique(fam_of):
        fam, systems = families[f]
        sel = np.flatnonzero(fam_of == f)
        codes, uniques = pd.factorize(trial_all[sel], use_na_sentinel=False)
        k, m = len(uniques), len(systems)
        flat = codes * m + col_of[sel]
        seen = np.bincount(flat, minlength=k * m).reshape(k, m)
        score = np.full(k * m, -np.inf)
        gen = np.zeros(k * m, dtype=np.int8)
        score[flat] = score_all[sel]
        gen[flat] = gen_all[sel]
        score, gen = score.reshape(k, m), gen.reshape(k, m)
        dup = (seen > 1).any(axis=1)
        _note(out["errors"]["dup"], uniques[dup])
        present = seen > 0
        complete = present.all(axis=1)
        if not common:
            _note(out["errors"]["missing"], uniques[~complete])
        lo = np.where(present, gen, 1).min(axis=1)
        hi = np.where(present, gen, 0).max(axis=1)
        _note(out["errors"]["labels"], uniques[present.any(axis=1) & (lo != hi)])
        keep = ~dup if common else complete & ~dup
        genuine = hi[keep].astype(bool)
        errors = np.empty((int(keep.sum()), m), dtype=np.float32, order="F")
        for j, (_, t) in enumerate(systems):
            errors[:, j] = decision_errors(score[keep, j], t, genuine)
        pres = None
        if common and not complete[keep].all():
            pres = present[keep].astype(np.float32)
            errors *= pres
        counts = pair_counts(errors, genuine, pres)
        cur = out["counts"].get(fam)
        out["counts"][fam] = counts if cur is None else {n: cur[n] + counts[n] for n in counts}
    return out


def _note(slot, values):
    slot[0] += len(values)
    slot[1] = (slot[1] + [_scalar(v) for v in values[:5]])[:5]


def _pair_combine(results):
    out = dict(counts={}, errors={"dup": [0, []], "missing": [0, []], "labels": [0, []]})
    for res in results:
        for name, (n, ex) in res["errors"].items():
            out["errors"][name][0] += n
            out["errors"][name][1] = (out["errors"][name][1] + ex)[:5]
        for fam, counts in res["counts"].items():
            cur = out["counts"].get(fam)
            out["counts"][fam] = counts if cur is None else {n: cur[n] + counts[n] for n in counts}
    return out


def _row_hashes(pdf: pd.DataFrame) -> pd.Series:
    return pd.util.hash_pandas_object(pdf, index=False)


def _check_trials(data: dd.DataFrame, spec: _Spec, *, duplicates: bool = True) -> None:
    """Refuse missing trial ids and duplicate (by..., system, split, trial) rows, as the
    pandas path does.

    One pass hashes each row's key and trial (64 bits) and counts the hashes with a
    distributed ``value_counts`` (``split_out``: no partition holds them all); the few rows
    whose hash repeats are then fetched and compared exactly, so a hash collision is never
    taken for a duplicate. Without ``duplicates`` (the pairwise functions, whose alignment
    on ``trial`` finds them) only missing trial ids are looked for.
    """
    cols = list(dict.fromkeys([*spec.keys, spec.trial]))
    sub = data[cols]
    if not duplicates:
        n_missing = int(sub[spec.trial].isna().sum().compute())
        if n_missing:
            rows = sub[sub[spec.trial].isna()].head(5, npartitions=-1)
            raise SchemaError(
                ERROR_MISSING_TRIALS.format(column=spec.trial, n=n_missing, rows=rows.to_string())
            )
        return
    hashes = sub.map_partitions(_row_hashes, meta=pd.Series(dtype=np.uint64))
    counts = hashes.value_counts(split_out=max(1, sub.npartitions // 4))
    repeated = counts[counts > 1]
    n_missing, n_repeated, examples = dask.compute(
        sub[spec.trial].isna().sum(), repeated.size, repeated.index.to_series().head(
            5, npartitions=-1, compute=False
        )
    )
    if n_missing:
        rows = sub[sub[spec.trial].isna()].head(5, npartitions=-1)
        raise SchemaError(
            ERROR_MISSING_TRIALS.format(column=spec.trial, n=int(n_missing), rows=rows.to_string())
        )
    if not n_repeated:
        return
    rows = sub[hashes.isin(list(examples))].compute()
    dup = rows.duplicated(keep=False)
    if not dup.any():  # pragma: no cover - a 64-bit hash collision
        return
    first = rows[dup].iloc[0]
    key = tuple(_scalar(first[c]) for c in spec.keys)
    group = Group(key if spec.split else (*key, None), np.zeros(0), np.zeros(0, bool),
                  np.zeros(0), None)
    same = rows[dup]
    same = same[(same[spec.keys] == first[spec.keys]).all(axis=1)]
    raise SchemaError(
        ERROR_DUPLICATE_TRIALS.format(
            where=_where(group, spec.by, spec.split),
            n=int(same.duplicated().sum()) if int(n_repeated) <= 5 else f"at least {len(same) - 1}",
            column=spec.trial,
            examples=[_scalar(v) for v in pd.unique(same[spec.trial])[:5]],
            rows=same.head(5).to_string(),
        )
    )


# ----------------------------------------------------------------------------- engine
class _Engine:
    """Passes over one dask table and the partly known scores of each group."""

    def __init__(
        self, data: dd.DataFrame, spec: _Spec, *, moments: bool = False, duplicates: bool = True
    ):
        self.spec = spec
        self.frame = data[spec.columns]
        self._parts = None
        self.passes = 0
        res = self._run(_hist_chunk, _hist_combine, spec, _option("bins"), moments)
        if res["n_bad"] and spec.nonfinite == "raise":
            rows = pd.concat(res["bad"]).head(5).to_string()
            raise SchemaError(ERROR_NONFINITE.format(column=spec.score, n=res["n_bad"], rows=rows))
        if res["rows"] == 0 or not res["groups"]:
            raise SchemaError(ERROR_EMPTY)
        self.keys = self._order(res)
        self.scores: dict[tuple, _ooc.PartialScores] = {}
        #: failures to acquire per group, (impostor, genuine), under nonfinite="reject":
        #: every rate is computed on the acquired scores, as in memory
        self.fta: dict[tuple, tuple[int, int]] = {}
        self.moments = {}
        groups = []
        for key in self.keys:
            e = res["groups"][key]
            lo, neg, pos = e["bins"]
            self.fta[key] = (e["rn"], e["rp"])
            ps = _ooc.PartialScores(
                lo, _option("bins"), neg, pos, rn=0, rp=0,
                low=e["low"] if np.isfinite(e["low"]) else np.nan,
                high=e["high"] if np.isfinite(e["high"]) else np.nan,
            )
            group = Group(key, np.zeros(0), np.zeros(0, bool), np.zeros(0), None)
            if ps.n == 0 or ps.p == 0:
                raise SchemaError(
                    ERROR_ONE_CLASS.format(
                        where=_where(group, spec.by, spec.split), n_genuine=ps.p, n_impostor=ps.n
                    )
                )
            self.scores[key] = ps
            self.moments[key] = e.get("moments")
            groups.append(group)
        self.sweeps = {key: _ooc.ExactSweep(ps) for key, ps in self.scores.items()}
        _check_trials(data, spec, duplicates=duplicates)
        self.trials = Trials(
            groups=groups,
            by=spec.by,
            split_column=spec.split,
            orientation=spec.orientation,
            columns={"found": list(spec.found), "trial": spec.trial, "system": spec.system,
                     "label": spec.label},
        )

    # ------------------------------------------------------------------ plumbing
    def _run(self, chunk, combine, *args, frame=None):
        if frame is None:  # one graph for every pass over the table
            if self._parts is None:
                self._parts = self.frame.to_delayed()
            parts = self._parts
        else:
            parts = frame.to_delayed()
        leaves = [dask.delayed(chunk, pure=True)(p, i, *args) for i, p in enumerate(parts)]
        self.passes += 1
        return dask.compute(_tree(leaves, combine, _option("split_every")))[0]

    def _order(self, res) -> list[tuple]:
        """Groups in the pandas path's order: per key column, category order or first
        appearance, combined lexicographically."""
        ranks = []
        for col, seen in zip(self.spec.keys, res["order"], strict=True):
            dtype = self.frame.dtypes[col]
            if isinstance(dtype, pd.CategoricalDtype) and self.frame[col].cat.known:
                cats = {_scalar(c): i for i, c in enumerate(dtype.categories)}
                ranks.append({u: (cats.get(u, len(cats)), 0) for u in seen})
            else:
                ranks.append(dict(seen))
        n = len(self.spec.keys)

        def rank(key):
            return tuple(ranks[i][key[i]] for i in range(n))

        return sorted(res["groups"], key=rank)

    def sweep(self, key) -> _ooc.ExactSweep:
        return self.sweeps[key]

    # ------------------------------------------------------------------ solving
    def solve(self, build):
        """Run ``build(self)`` until no answer needs a bin resolved; one pass per round."""
        for _ in range(_option("max_passes")):
            for ex in self.sweeps.values():
                ex.needs.clear()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = build(self)
            needs = {key: ex.needs for key, ex in self.sweeps.items() if ex.needs}
            if not needs:
                for w in caught:
                    warnings.warn(w.message, w.category, stacklevel=3)
                return out
            self.resolve({key: sorted(v) for key, v in needs.items()})
        raise RuntimeError(ERROR_NO_CONVERGENCE.format(passes=self.passes))

    def resolve(self, needs: Mapping[tuple, Sequence[int]], *, gather: bool = True) -> None:
        """One pass: gather the small needed bins, split the large ones."""
        limit = _option("gather_limit")
        budget = max(limit // max(len(needs), 1), 1)
        plan = {}
        for key, los in needs.items():
            ps = self.scores[key]
            los = np.asarray(los, dtype=np.uint64)
            idx = np.searchsorted(ps.lo, los)
            count = ps.neg[idx] + ps.pos[idx]
            order = np.argsort(count, kind="stable")
            take = np.zeros(idx.size, bool)
            if gather:
                room = np.cumsum(count[order]) <= budget
                take[order[room]] = True
            ref, gat = idx[~take], idx[take]
            refine = None
            if ref.size:
                extra = min(_option("refine_bits"), max(1, 22 - int(np.ceil(np.log2(ref.size)))))
                refine = (ps.lo[ref], ps.depth[ref], np.minimum(extra, 64 - ps.depth[ref]))
            plan[key] = (refine, (ps.lo[gat], ps.hi[gat]) if gat.size else None)
        res = self._run(_resolve_chunk, _resolve_combine, self.spec, plan)
        for key, (refine, gat) in plan.items():
            ps = self.scores[key]
            r = res.get(key, {})
            if refine is not None:
                sub = r.get("refine") or (np.zeros(0, np.uint64), np.zeros(0, np.int64),
                                          np.zeros(0, np.int64), np.zeros(0, np.int64))
                ps.split(refine[0], *sub)
            if gat is not None:
                vals = r.get("gather") or _ooc.merge_values([])
                ps.resolve(gat[0], *vals)

    def full_sweeps(self) -> dict[tuple, _ooc.FullSweep]:
        """Every group's scores in key order, gathered ``batch_size`` at a time."""
        budget = max(_option("batch_size") // len(self.keys), 1)
        while True:  # split the bins larger than half a batch (single values excepted)
            needs = {}
            for key, ps in self.scores.items():
                big = ((ps.neg + ps.pos) > budget // 2) & (ps.depth < 64) & ps.opaque()
                if big.any():
                    needs[key] = ps.lo[big]
            if not needs:
                break
            self.resolve(needs, gather=False)
        ranges = {}
        for key, ps in self.scores.items():
            count = ps.neg + ps.pos
            cuts, acc, start = [], 0, 0
            for i, c in enumerate(count.tolist()):
                if acc + c > budget and i > start:
                    cuts.append((start, i - 1))
                    start, acc = i, 0
                acc += c
            if count.size:
                cuts.append((start, count.size - 1))
            hi = ps.hi
            ranges[key] = [(ps.lo[a : a + 1], hi[b : b + 1]) for a, b in cuts]
        sweeps = {}
        for key, ps in self.scores.items():
            sweeps[key] = _ooc.FullSweep(ps.n, ps.p, ps.rn, ps.rp)
        for k in range(max(len(r) for r in ranges.values())):
            plan = {key: (None, r[k]) for key, r in ranges.items() if k < len(r)}
            res = self._run(_resolve_chunk, _resolve_combine, self.spec, plan)
            for key in plan:
                vals = res.get(key, {}).get("gather") or _ooc.merge_values([])
                sweeps[key].feed(*vals)
        return sweeps


# ----------------------------------------------------------------------------- thresholds
def _resolve(eng: _Engine, *, extra_named=None, **policy):
    """The protocol of :mod:`pandas_biosig.protocol`, resolved on the exact out-of-core
    sweeps."""
    return Protocol(**policy).resolve(eng.trials, sweep_of=lambda g: eng.sweep(g.key),
                                      named=extra_named)


def _engine(data, *, moments=False, duplicates=True, **columns) -> _Engine:
    return _Engine(data, _spec(data, **columns), moments=moments, duplicates=duplicates)


# ----------------------------------------------------------------------------- public API
def eer(
    data: dd.DataFrame,
    /,
    *,
    method: EERMethod = "threshold",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Equal error rate of every system of a dask trial table, exactly as :func:`pandas_biosig.eer`.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table, one row per (system, trial); never collected.
    method, by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.eer` (``system, split, n_genuine, n_impostor,
        method, eer, threshold, far, frr``), equal to it bit for bit.

    Raises
    ------
    SchemaError
        Missing columns, unknown labels, non-finite scores (``nonfinite="raise"``), a
        one-class system, an empty table, duplicate (system, trial) rows or missing
        trial ids.

    See Also
    --------
    pandas_biosig.eer : the in-memory function.
    pairwise_counts : discordance counts of system pairs.

    Notes
    -----
    Two to four passes over the partitions: a histogram of order-preserving score keys,
    then the scores of the few bins around the FAR = FRR crossing (see the module
    docstring). The ROCCH-EER is computed from the exact hull segments at the crossing.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore  # registers ddf.biosig
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=4)
    >>> out = ddf.biosig.eer(method="threshold")
    >>> out.equals(pbs.eer(trials, method="threshold"))
    True
    """
    check_option(method, EER_METHODS, "method")
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite,
    )
    sign = eng.spec.sign

    def build(eng):
        rows = []
        for g in eng.trials.groups:
            sw = eng.sweep(g.key)
            value, op = sw.eer_threshold()
            if method == "rocch":
                value = sw.eer_rocch()
            elif method == "interpolated":
                value = sw.eer_interpolated()
            rows.append(dict(n_genuine=sw.p, n_impostor=sw.n, method=method, eer=value,
                             threshold=sign * op.threshold, far=op.far, frr=op.frr))
        return _frame(eng.trials, eng.trials.groups, rows, EER_COLUMNS)

    return eng.solve(build)


def error_rates(
    data: dd.DataFrame,
    /,
    *,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = None,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""False acceptance and rejection counts of a dask trial table at a threshold policy.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        As in :func:`pandas_biosig.error_rates` (criteria, fixed numbers or a mapping
        ``{system: threshold}``; ``on``: choose on one split, apply to the others).
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.error_rates`, equal to it bit for bit
        (integer ``fa`` and ``fr``, the same thresholds).

    Raises
    ------
    SchemaError, ValueError
        As :func:`pandas_biosig.error_rates`.

    See Also
    --------
    pandas_biosig.error_rates : the in-memory function.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> kw = dict(threshold="far", target=0.01, on="dev", apply_to="eval")
    >>> ddf.biosig.error_rates(**kw).equals(pbs.error_rates(trials, **kw))
    True
    """
    _check_costs(p_target, c_miss, c_fa)
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite,
    )
    sign = eng.spec.sign

    def build(eng):
        groups, rows = [], []
        for r in _resolve(
            eng, threshold=threshold, weight=weight, target=target, p_target=p_target,
            c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to,
        ):
            g, sw, t = r.group, r.sweep, r.threshold
            row = dict(criterion=r.criterion, threshold_split=r.threshold_split,
                       threshold_from=r.threshold_from, weight=r.weight, target=r.target,
                       threshold=sign * t, resample=r.resample)
            row.update(_rates_row(sw, t, eng.fta[g.key]))
            groups.append(g)
            rows.append(row)
        return _frame(eng.trials, groups, rows, ERROR_RATE_COLUMNS)

    return eng.solve(build)


def dcf(
    data: dd.DataFrame,
    /,
    *,
    p_target: float | Sequence[float] = 0.01,
    c_miss: float | Sequence[float] = 1.0,
    c_fa: float | Sequence[float] = 1.0,
    threshold: Criterion | float | Mapping[Hashable, float] | str = "bayes",
    on: Hashable | None = None,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Normalized minDCF and actDCF of a dask trial table, exactly as :func:`pandas_biosig.dcf`.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    p_target, c_miss, c_fa, threshold, on, apply_to
        As in :func:`pandas_biosig.dcf`.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.dcf` (``system, split, p_target, c_miss,
        c_fa, criterion, threshold, far, frr, act_dcf, min_dcf, min_dcf_threshold``).

    Raises
    ------
    SchemaError, ValueError
        As :func:`pandas_biosig.dcf`.

    See Also
    --------
    pandas_biosig.dcf : the in-memory function.

    Notes
    -----
    The minimum is located with a lower bound of the cost in every histogram bin: only the
    bins whose bound reaches the smallest cost found at a bin edge are gathered.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> ddf.biosig.dcf(p_target=[0.01, 0.1]).equals(pbs.dcf(trials, p_target=[0.01, 0.1]))
    True
    """
    pt, cm, cf = np.broadcast_arrays(
        np.atleast_1d(np.asarray(p_target, dtype=float)),
        np.atleast_1d(np.asarray(c_miss, dtype=float)),
        np.atleast_1d(np.asarray(c_fa, dtype=float)),
    )
    for a, b, c in zip(pt, cm, cf, strict=True):
        _check_costs(a, b, c)
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite,
    )
    if threshold == "bayes" and eng.spec.orientation == "distance":
        raise ValueError(ERROR_BAYES_DISTANCE)
    sign = eng.spec.sign

    def build(eng):
        groups, rows = [], []
        for a, b, c in zip(pt, cm, cf, strict=True):
            bayes = {"bayes": lambda g, a=a, b=b, c=c: float(np.log(c * (1 - a) / (b * a)))}
            norm = min(b * a, c * (1 - a))
            for r in _resolve(
                eng, threshold=threshold, weight=0.5, target=None, p_target=a, c_miss=b,
                c_fa=c, on=on, apply_to=apply_to, extra_named=bayes,
            ):
                g, sw, t, crit = r.group, r.sweep, r.threshold, r.criterion
                rates = _rates_row(sw, t)
                min_cost, op = sw.min_dcf(a, b, c)
                rows.append(dict(
                    p_target=a, c_miss=b, c_fa=c, criterion=crit, threshold=sign * t,
                    far=rates["far"], frr=rates["frr"],
                    act_dcf=(b * a * rates["frr"] + c * (1 - a) * rates["far"]) / norm,
                    min_dcf=min_cost / norm, min_dcf_threshold=sign * op.threshold,
                ))
                groups.append(g)
        out = _frame(eng.trials, groups, rows, DCF_COLUMNS)
        order = {id(g): i for i, g in enumerate(eng.trials.groups)}
        pos = np.argsort([order[id(g)] for g in groups], kind="stable")
        return out.iloc[pos].reset_index(drop=True)

    return eng.solve(build)


def summary(
    data: dd.DataFrame,
    /,
    *,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""The headline numbers of every system of a dask trial table.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    p_target, c_miss, c_fa, by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.summary`.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.summary`. Equal to it bit for bit except
        ``cllr`` and ``d_prime`` (floating-point sums over all scores, equal to a relative
        1e-12) and, in the collinear-pooling case of the module notes, ``min_cllr``.

    Raises
    ------
    SchemaError, ValueError
        As :func:`pandas_biosig.summary`.

    See Also
    --------
    pandas_biosig.summary : the in-memory function.

    Notes
    -----
    ``auc`` and ``min_cllr`` need every score in order: after the exact passes of the
    other columns, the scores are gathered in key order, ``batch_size`` (a
    ``dask.config`` option) at a time, one pass per batch; the AUC counts wins exactly in
    integers and the PAV blocks are streamed through scipy's PAVA.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> ours, theirs = ddf.biosig.summary(), pbs.summary(trials)
    >>> ours.drop(columns=["cllr", "d_prime"]).equals(theirs.drop(columns=["cllr", "d_prime"]))
    True
    >>> bool(np.allclose(ours.cllr, theirs.cllr, rtol=1e-12))
    True
    """
    _check_costs(p_target, c_miss, c_fa)
    eng = _engine(
        data, moments=True, system=system, trial=trial, label=label, score=score, split=split,
        by=by, orientation=orientation, nonfinite=nonfinite,
    )
    sign = eng.spec.sign
    norm = min(c_miss * p_target, c_fa * (1 - p_target))

    def build(eng):
        rows = []
        for g in eng.trials.groups:
            sw = eng.sweep(g.key)
            eer_t, op = sw.eer_threshold()
            zero_fnmr = sw.fmr_at_fnmr(0.0)
            best_hter = sw.min_weighted(0.5)
            rows.append(dict(
                n_genuine=sw.p, n_impostor=sw.n, eer_rocch=sw.eer_rocch(), eer_threshold=eer_t,
                threshold=sign * op.threshold, auc=np.nan,
                min_hter=(best_hter.far + best_hter.frr) / 2,
                fmr100=sw.fnmr_at_fmr(0.01).frr, fmr1000=sw.fnmr_at_fmr(0.001).frr,
                zero_fmr=sw.fnmr_at_fmr(0.0).frr,
                zero_fnmr=float("nan") if zero_fnmr is None else zero_fnmr.far,
                min_dcf=sw.min_dcf(p_target, c_miss, c_fa)[0] / norm,
                p_target=p_target, c_miss=c_miss, c_fa=c_fa,
                cllr=np.nan, min_cllr=np.nan, d_prime=np.nan,
            ))
        return rows

    rows = eng.solve(build)
    full = eng.full_sweeps()
    for g, row in zip(eng.trials.groups, rows, strict=True):
        ps, fs = eng.scores[g.key], full[g.key]
        (nn, mn, qn, sn), (np_, mp, qp, sp) = eng.moments[g.key]
        row["auc"] = fs.auc(np_)
        row["min_cllr"] = fs.min_cllr()
        if sign > 0:
            row["cllr"] = (
                float("inf") if ps.rp
                else float((math.fsum(sp) / ps.p + math.fsum(sn) / ps.n) / (2 * _LN2))
            )
        row["d_prime"] = _d_prime(nn, mn, qn, np_, mp, qp)
    return _frame(eng.trials, eng.trials.groups, rows, SUMMARY_COLUMNS)


def _d_prime(nn, mn, qn, np_, mp, qp) -> float:
    """:func:`pandas_biosig._kernels.rates.d_prime` from merged moments."""
    if nn == 0 or np_ == 0:
        return float("nan")
    var_g, var_i = qp / np_, qn / nn
    spread = np.sqrt((var_g + var_i) / 2)
    diff = abs(mp - mn)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(diff / spread) if spread > 0 else float("inf") if diff > 0 else float("nan")


def det(
    data: dd.DataFrame,
    /,
    *,
    far_grid=None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> xr.Dataset:
    r"""DET curve of every system of a dask trial table: exact on a FAR grid, else a grid DET.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    far_grid : array of float in [0, 1], optional
        With a grid, the result is :func:`pandas_biosig.curves.det`'s, bit for bit: at each
        grid value the smallest FRR with FAR at most the value, with the threshold that
        reaches it (each point is an exact FNMR-at-FMR query).

        Without a grid the pandas path returns one point per distinct score, which no
        bounded memory can hold for 10⁸ trials; this path returns instead the exact
        operating points at the edges of score bins, refined until no bin holding more
        than one distinct score moves FAR or FRR by more than 1/1000, and thinned to steps
        of about 1/1000. Each point is exact (counts and threshold); the full-resolution
        curve lies inside the boxes between consecutive points, whose largest sides are
        the variables ``far_gap`` and ``frr_gap``.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.curves.det`.

    Returns
    -------
    xarray.Dataset
        The variables of :func:`pandas_biosig.curves.det` (``threshold``, ``far``,
        ``frr``, ``tpr`` over (..., ``point``); ``eer``, ``auc``, ``n_genuine``,
        ``n_impostor``), with ``kind="det"``. Without ``far_grid``, also ``far_gap`` and
        ``frr_gap`` (the error bound) and ``points="grid: ..."``; the thresholds are the
        bins' lower edges (accept iff ``score >= threshold``), not bob.measure midpoints.

    See Also
    --------
    pandas_biosig.curves.det : the in-memory function.

    Notes
    -----
    ``auc`` needs every score in order: one extra pass per ``batch_size`` scores (as in
    :func:`summary`).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> from pandas_biosig.curves import det as pandas_det, det_grid
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> grid = det_grid(20, low=1e-3)
    >>> ddf.biosig.det(far_grid=grid).identical(pandas_det(trials, far_grid=grid))
    True
    >>> ds = ddf.biosig.det()  # the grid DET and its error bound
    >>> bool((ds.far_gap <= 1e-3).all())
    True
    """
    from . import curves as _curves

    grid = None if far_grid is None else _curves._grid(far_grid, "far_grid")
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite,
    )
    trials, sign, groups = eng.trials, eng.spec.sign, eng.trials.groups
    if grid is None:
        step = 1e-3
        while True:
            needs = {k: ps.lo[_ooc.coarse_bins(ps, step) & ps.opaque()] for k, ps in eng.scores.items()}
            needs = {k: v for k, v in needs.items() if v.size}
            if not needs:
                break
            eng.resolve(needs, gather=False)

    def build(eng):
        out = []
        for g in groups:
            sw = eng.sweep(g.key)
            ops = [] if grid is None else [sw.fnmr_at_fmr(x) for x in grid]
            out.append((sw.eer_rocch(), ops))
        return out

    solved = eng.solve(build)
    full = eng.full_sweeps()
    layout = _curves._Layout(trials, groups, with_split=trials.split_column is not None)
    dims = (*layout.names, "point")
    thr, far, frr, tpr, gaps = [], [], [], [], []
    for g, (_, ops) in zip(groups, solved, strict=True):
        ps = eng.scores[g.key]
        if grid is None:
            t, fa, fr, far_gap, frr_gap = _ooc.grid_points(ps, step)
            gaps.append((far_gap, frr_gap))
        else:
            t = np.array([op.threshold for op in ops])
            fa = np.array([op.fa for op in ops], dtype=np.int64)
            fr = np.array([op.fr for op in ops], dtype=np.int64)
        pts = _curves._k.RocPoints(t, t, fa, fr, ps.n, ps.p)
        thr.append(sign * pts.threshold)
        far.append(pts.far)
        frr.append(pts.frr)
        tpr.append(pts.tpr)
    var = _curves._var
    summ = layout.summary
    variables = {
        "threshold": var(dims, layout.curve(thr), **_curves._threshold_attrs(trials, score)),
        "frr": var(dims, layout.curve(frr), "false rejection rate (FRR, FNMR)", "1"),
        "tpr": var(dims, layout.curve(tpr), "true positive rate (1 - FRR)", "1"),
        "eer": var(layout.names, summ([e for e, _ in solved]), "equal error rate (ROC convex hull)", "1"),
        "auc": var(layout.names, summ([full[g.key].auc(eng.scores[g.key].p - eng.scores[g.key].rp) for g in groups]),
                   "area under the ROC (ties count half)", "1"),
        "n_genuine": var(layout.names, summ([eng.scores[g.key].p for g in groups], dtype=np.int64, fill=0),
                         "genuine trials", "1"),
        "n_impostor": var(layout.names, summ([eng.scores[g.key].n for g in groups], dtype=np.int64, fill=0),
                          "impostor trials", "1"),
    }
    coords = layout.coords()
    far_attrs = ("false acceptance rate (FAR, FMR)", "1")
    length = variables["frr"].sizes["point"]
    if grid is None:
        variables = {"threshold": variables.pop("threshold"),
                     "far": var(dims, layout.curve(far), *far_attrs), **variables}
        variables["far_gap"] = var(layout.names, summ([a for a, _ in gaps]),
                                   "largest FAR step between consecutive points", "1")
        variables["frr_gap"] = var(layout.names, summ([b for _, b in gaps]),
                                   "largest FRR step between consecutive points", "1")
        points = (
            "grid: exact points at score-bin edges (out of core); the full curve lies in the "
            "boxes between consecutive points, of sides at most far_gap and frr_gap"
        )
    else:
        coords["far"] = var(("point",), grid, *far_attrs,
                            description="frr is the smallest FRR with FAR <= far")
        points = "far_grid: the smallest FRR with FAR at most each grid value"
    coords["point"] = var(("point",), np.arange(length), "operating point, accept-all first", "1")
    return _curves._dataset(variables, coords, kind="det", trials=trials, points=points)


def _families_of(eng: _Engine, members) -> dict:
    """(``by`` values, split) -> ordered ``[(system, oriented threshold)]``."""
    n_by = len(eng.spec.by)
    out: dict = {}
    for m in members:
        key = m.group.key
        out.setdefault((*key[:n_by], key[-1]), []).append((key[-2], m.threshold))
    return out


def _pair_pass(eng: _Engine, data: dd.DataFrame, families: dict, common: bool) -> dict:
    """One aligned pass: per family, the summed :func:`pair_counts` matrices."""
    spec = eng.spec
    fams = list(families.items())
    codes, where = {}, []
    for f, (fam, systems) in enumerate(fams):
        for j, (name, _) in enumerate(systems):
            codes[(*fam[:-1], name, fam[-1])] = len(where)
            where.append((f, j))
    where = np.array(where, dtype=np.int64).reshape(-1, 2)
    meta = pd.DataFrame({
        "trial": pd.Series(dtype=data.dtypes[spec.trial] if spec.trial in data.columns else object),
        "group": pd.Series(dtype=np.int32),
        "genuine": pd.Series(dtype=bool),
        "score": pd.Series(dtype=np.float64),
    })
    cols = list(dict.fromkeys([*spec.columns, spec.trial]))
    if data.index.name == spec.trial and data.known_divisions:  # aligned as it is
        frame = data.reset_index()[cols].map_partitions(_compact, spec, codes, meta, meta=meta)
    else:  # every row of a trial in one partition: dask's out-of-core shuffle
        frame = data[cols].map_partitions(_compact, spec, codes, meta, meta=meta).shuffle(on="trial")
    res = eng._run(_pair_chunk, _pair_combine, fams, where, bool(common), frame=frame)
    errs = res["errors"]
    if errs["dup"][0]:
        raise SchemaError(ERROR_PAIR_DUPLICATES.format(n=errs["dup"][0], examples=errs["dup"][1]))
    if errs["labels"][0]:
        raise SchemaError(ERROR_LABELS_DIFFER.format(trial=errs["labels"][1][0]))
    if errs["missing"][0]:
        raise SchemaError(ERROR_PAIR_MISSING.format(n=errs["missing"][0], examples=errs["missing"][1]))
    return res["counts"]


def _members(eng: _Engine, **policy):
    return eng.solve(lambda eng: _resolve(eng, **policy))


def pairwise_counts(
    data: dd.DataFrame,
    /,
    *,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = None,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    common_trials: bool = False,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Paired decision counts of every pair of systems, aligned on ``trial``, out of core.

    The inputs of McNemar's test and of the dependent HTER test (Bengio & Mariéthoz 2004,
    eq. 16), and exactly the counts :func:`pandas_biosig.compare` reads: each system's
    threshold is chosen exactly (as :func:`error_rates` chooses it), the rows are aligned
    on ``trial`` and every partition adds its per-class error co-occurrence matrices
    (:func:`~pandas_biosig._kernels.pairwise.pair_counts`). The alignment check (each
    trial once per system, scored by every system, with one label) runs in the same pass.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table. When its index is ``trial`` with known divisions, the
        partitions are aligned as they are; otherwise the rows are shuffled on ``trial``
        (dask's shuffle, out of core).
    threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        The threshold policy that makes the decisions, as in :func:`error_rates`.
    common_trials : bool
        Count each pair on the trials both systems scored, instead of raising when the
        systems of a split did not score the same trials.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then :data:`PAIRWISE_COLUMNS`, one row per unordered pair of
        systems (input order) and split: ``system_a, system_b, split, criterion,
        threshold_a, threshold_b``; ``n`` (trials both scored), ``n_genuine``,
        ``n_impostor``; ``fa_a, fr_a, fa_b, fr_b``; ``ni_ab`` (impostor trials rejected by
        A and accepted by B), ``ni_ba``, ``nc_ab`` (genuine trials accepted by A and
        rejected by B), ``nc_ba``; McNemar's ``b`` (A wrong, B right) ``= ni_ba + nc_ba``
        and ``c`` (A right, B wrong) ``= ni_ab + nc_ab``.

    Raises
    ------
    SchemaError
        Duplicate (system, trial) rows, trials not scored by every system (unless
        ``common_trials``), trials with different labels.
    ValueError
        A split with one system (:data:`pandas_biosig.significance.ERROR_ONE_SYSTEM`).

    See Also
    --------
    compare : the tests on these counts.
    pandas_biosig.stats.mcnemar, pandas_biosig.stats.hter_test

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> from pandas_biosig.stats import mcnemar
    >>> ddf = dd.from_pandas(pbs.datasets.example_trials(), npartitions=3)
    >>> counts = ddf.biosig.pairwise_counts(on="dev", apply_to="eval")
    >>> row = counts.iloc[0]
    >>> print(row.system_a, row.system_b, row.split, row.n, row.b, row.c)
    cnn cnn_aug eval 1200 50 41
    >>> print(f"{mcnemar(int(row.b), int(row.c), n=int(row.n)).pvalue:.3f}")
    0.402
    """
    from .significance import ERROR_ONE_SYSTEM, _key_where

    _check_costs(p_target, c_miss, c_fa)
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite, duplicates=False,
    )
    members = _members(eng, threshold=threshold, weight=weight, target=target,
                       p_target=p_target, c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to)
    families = _families_of(eng, members)
    names = [*eng.spec.by, "split"]
    for fam, systems in families.items():
        if len(systems) < 2:
            where = _key_where(names, fam) or "the table"
            raise ValueError(ERROR_ONE_SYSTEM.format(where=where, systems=[s for s, _ in systems]))
    counts = _pair_pass(eng, data, families, common_trials)
    crit = {m.group.key: m.criterion for m in members}
    rows = []
    sign = eng.spec.sign
    for fam, systems in families.items():
        c = counts.get(fam)
        k = len(systems)
        if c is None:  # no trial of the family reached a partition: every count is 0
            c = {n: np.zeros((k, k), np.int64) for n in ("n_i", "n_c", "err_i", "err_c", "both_i", "both_c")}
        for a in range(k):
            for b in range(a + 1, k):
                (sa, ta), (sb, tb) = systems[a], systems[b]

                def get(name, i, j, c=c):
                    return int(c[name][i, j])

                ni, nc = get("n_i", a, b), get("n_c", a, b)
                fa_a, fa_b, fr_a, fr_b = get("err_i", a, b), get("err_i", b, a), get("err_c", a, b), get("err_c", b, a)
                both_i, both_c = get("both_i", a, b), get("both_c", a, b)
                row = dict(zip(eng.spec.by, fam[:-1], strict=True))
                row.update(
                    system_a=sa, system_b=sb, split=fam[-1], criterion=crit[(*fam[:-1], sa, fam[-1])],
                    threshold_a=sign * ta, threshold_b=sign * tb, n=ni + nc, n_genuine=nc,
                    n_impostor=ni, fa_a=fa_a, fr_a=fr_a, fa_b=fa_b, fr_b=fr_b,
                    ni_ab=fa_b - both_i, ni_ba=fa_a - both_i, nc_ab=fr_b - both_c, nc_ba=fr_a - both_c,
                )
                row["b"] = row["ni_ba"] + row["nc_ba"]
                row["c"] = row["ni_ab"] + row["nc_ab"]
                rows.append(row)
    return pd.DataFrame(rows, columns=[*eng.spec.by, *PAIRWISE_COLUMNS])


def compare(
    data: dd.DataFrame,
    /,
    *,
    test: str = "auto",
    baseline: Hashable | None = None,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    alpha: float = 0.05,
    adjust: str | None = "holm",
    confidence_level: float = 0.95,
    alternative: Alternative = "two-sided",
    common_trials: bool = False,
    mcnemar_method: str = "exact",
    test_decision_rules: bool = False,
    metric: str | None = None,
    n_resamples: int = 1000,
    resample: str = "auto",
    seed: int | np.random.Generator | None = None,
    progress: bool | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Test every pair of systems of a dask trial table, as :func:`pandas_biosig.compare`.

    The per-pair counts come from one pass aligned on ``trial`` (see
    :func:`pairwise_counts`), the thresholds from the exact out-of-core criteria, and the
    tests, intervals and multiplicity adjustment from :mod:`pandas_biosig.significance`
    itself, so the table equals the pandas one.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    test, baseline, threshold, weight, target, p_target, c_miss, c_fa, on, apply_to, alpha, adjust, confidence_level, alternative, common_trials, mcnemar_method, metric, n_resamples, resample, seed, progress, by, system, trial, label, score, split, subject, orientation, nonfinite
        As in :func:`pandas_biosig.compare`. ``test="bootstrap"`` resamples every trial of
        a pair and is not available out of core (``ValueError``); ``metric``,
        ``n_resamples``, ``resample``, ``seed``, ``progress`` and ``subject`` belong to it.

    Returns
    -------
    pandas.DataFrame
        :func:`pandas_biosig.compare`'s columns (``COMPARE_COLUMNS``).

    Raises
    ------
    SchemaError, ValueError
        As :func:`pandas_biosig.compare`; ``ValueError`` (:data:`ERROR_BOOTSTRAP`) for
        ``test="bootstrap"``.

    See Also
    --------
    pairwise_counts, pandas_biosig.compare

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> ours = ddf.biosig.compare(test="hter_dependent")
    >>> ours.equals(pbs.compare(trials, test="hter_dependent"))
    True
    """
    from . import significance as _sig
    from . import stats as _stats

    if test == "auto" and subject is not None and subject in data.columns:
        raise ValueError(ERROR_AUTO_SUBJECT.format(column=subject))
    test = _sig.default_test(test, None, None)
    level = _sig._check_level(confidence_level)
    alpha = _sig._check_alpha(alpha)
    adjust = _sig._check_adjust(adjust)
    alternative = _sig._check_alternative(alternative)
    if test == "bootstrap":
        raise ValueError(ERROR_BOOTSTRAP)
    if metric is not None:
        raise ValueError(
            _sig.ERROR_METRIC_UNUSED.format(value=metric, test=test, fixed=_sig._TEST_METRIC[test])
        )
    if test == "mcnemar":
        check_option(mcnemar_method, _stats.MCNEMAR_METHODS, "mcnemar_method")
    _check_costs(p_target, c_miss, c_fa)
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite, duplicates=False,
    )
    trials = eng.trials
    policy = dict(threshold=threshold, weight=weight, target=target, p_target=p_target,
                  c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to)
    members = _members(eng, **policy)
    null = _sig._null_hypothesis(test, Protocol(**policy), members, test_decision_rules)
    n_by = len(trials.by)
    names = _sig._family_names(trials, n_by)
    plans = []
    for fam, fam_members in _sig._families(trials, members, n_by):
        systems = [m.group.system for m in fam_members]
        plans.append((fam, fam_members, _sig._pairs(systems, baseline, _sig._where(names, fam))))
    counts = _pair_pass(eng, data, _families_of(eng, members), common_trials)
    sign = eng.spec.sign
    rows: list[dict] = []
    family_of: list[int] = []
    for i_fam, (fam, fam_members, pairs) in enumerate(plans):
        in_where = _sig._in_where(names, fam)
        for a, b in pairs:
            ma, mb = fam_members[a], fam_members[b]
            pair = (ma.group.system, mb.group.system)
            if math.isnan(ma.threshold) or math.isnan(mb.threshold):
                res = None
            else:
                res = _sig._matrix_test(
                    test, counts[fam], a, b, alternative=alternative,
                    mcnemar_method=mcnemar_method, names=pair, in_where=in_where,
                )
            row = dict(zip(trials.by, fam[:n_by], strict=True))
            row.update(system_a=pair[0], system_b=pair[1], split=fam[-1],
                       metric=_sig._TEST_METRIC[test], test=test, confidence_level=level)
            if res is None:
                row.update(_sig._NAN_ROW, alternative=alternative, method=_sig.TESTS[test])
            else:
                row.update(_sig._row(res, level))
            row.update(threshold_a=sign * ma.threshold, threshold_b=sign * mb.threshold,
                       threshold_from=ma.threshold_from, resample=None, null_hypothesis=null)
            rows.append(row)
            family_of.append(i_fam)
    return _sig._finish(rows, trials.by, _sig.COMPARE_COLUMNS, family_of, adjust, alpha)


# ----------------------------------------------------------------------------- accessor
@dd.extensions.register_dataframe_accessor("biosig")
class DaskBiosigAccessor:
    """``ddf.biosig``: the trial-table functions on a dask DataFrame, exact out of core.

    Every method is this module's function of the same name applied to the DataFrame;
    ``eer``, ``error_rates``, ``dcf`` and ``summary`` have the signatures (and results)
    of the pandas functions. The repr does not compute anything.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> ddf = dd.from_pandas(pbs.datasets.example_trials(), npartitions=3)
    >>> print(repr(ddf.biosig).splitlines()[0])
    <pandas_biosig dask accessor: 3 partitions>
    """

    def __init__(self, dask_obj: dd.DataFrame):
        self._obj = dask_obj

    def __repr__(self) -> str:
        cols = list(self._obj.columns)
        present = [c for c in ("system", "trial", "label", "score", "split", "subject") if c in cols]
        missing = [c for c in ("system", "trial", "label", "score") if c not in cols]
        lines = [
            f"<pandas_biosig dask accessor: {self._obj.npartitions} partitions>",
            f"  canonical columns found: {', '.join(present) or 'none'}",
        ]
        if missing:
            lines.append(f"  missing (pass their names as keywords): {', '.join(missing)}")
        lines.append("  counts need a pass over the data: call .summary()")
        return "\n".join(lines)

    def eer(
        self,
        *,
        method: EERMethod = "threshold",
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Equal error rate of every system; see :func:`eer`."""
        return eer(self._obj, **_args(locals()))

    def error_rates(
        self,
        *,
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Error counts and rates at a threshold policy; see :func:`error_rates`."""
        return error_rates(self._obj, **_args(locals()))

    def dcf(
        self,
        *,
        p_target: float | Sequence[float] = 0.01,
        c_miss: float | Sequence[float] = 1.0,
        c_fa: float | Sequence[float] = 1.0,
        threshold: Criterion | float | Mapping[Hashable, float] | str = "bayes",
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Normalized minDCF and actDCF; see :func:`dcf`."""
        return dcf(self._obj, **_args(locals()))

    def summary(
        self,
        *,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """The headline numbers of every system; see :func:`summary`."""
        return summary(self._obj, **_args(locals()))

    def det(
        self,
        *,
        far_grid=None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """DET curve (exact on a FAR grid, else a grid DET with its bound); see :func:`det`."""
        return det(self._obj, **_args(locals()))

    def pairwise_counts(
        self,
        *,
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        common_trials: bool = False,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Paired decision counts of every pair of systems; see :func:`pairwise_counts`."""
        return pairwise_counts(self._obj, **_args(locals()))

    def compare(
        self,
        *,
        test: str = "auto",
        baseline: Hashable | None = None,
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = "auto",
        alpha: float = 0.05,
        adjust: str | None = "holm",
        confidence_level: float = 0.95,
        alternative: Alternative = "two-sided",
        common_trials: bool = False,
        mcnemar_method: str = "exact",
        test_decision_rules: bool = False,
        metric: str | None = None,
        n_resamples: int = 1000,
        resample: str = "auto",
        seed: int | np.random.Generator | None = None,
        progress: bool | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Test every pair of systems; see :func:`compare`."""
        return compare(self._obj, **_args(locals()))


def _args(local_vars: dict) -> dict:
    return {k: v for k, v in local_vars.items() if k != "self"}


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
