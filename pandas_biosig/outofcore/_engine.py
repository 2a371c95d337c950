"""The exact passes of the dask path: the partition schema, the histogram, refinement,
gather and pair passes, and the engine that runs them (:class:`_Engine`).

A documented internal module: :mod:`pandas_biosig.outofcore` (the public dask functions and
the ``biosig`` accessor of dask DataFrames) is its only user. How the numbers stay exact is
told in that module's docstring. Thresholds, families and tests are not decided here: the
engine hands the in-memory :class:`~pandas_biosig._core.protocol.Protocol` and the shared
pairwise rule (:mod:`pandas_biosig._core.pairwise`) exact per-group counts.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import dask
import numpy as np
import pandas as pd

from .._core.protocol import Protocol
from .._core.schema import (
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
    by_columns,
    check_column_names,
    check_option,
    combine_codes,
    factorize_keys,
    genuine_from_labels,
    numeric_scores,
    scalar_value,
    where_text,
)
from .._kernels import outofcore as _ooc
from .._kernels.calibration import XE_LOG_ODDS
from .._kernels.rates import softplus

if TYPE_CHECKING:
    # Not at import time (see _spec): a worker process that unpickles a task of this module
    # would import dask.dataframe while this module is half-imported, and the package's hook
    # on that import loads pandas_biosig.outofcore, which imports this module.
    import dask.dataframe as dd

ERROR_NOT_DASK = "expected a dask.dataframe.DataFrame of trials, got {type}"
ERROR_NO_CONVERGENCE = (
    "internal: the exact out-of-core computation did not settle after {passes} passes"
)
ERROR_COUNT = (
    "count={count!r}: counted trials are read in memory only for now; pass a pandas "
    "DataFrame, or expand the counted rows"
)

_DEFAULTS = {
    "bins": 20,
    "refine_bits": 16,
    "gather_limit": 2**23,
    "batch_size": 2**23,
    "split_every": 8,
    "max_passes": 64,
    "check_rows": 2**26,
    "bootstrap_bytes": 2**30,
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
    import dask.dataframe as dd

    if not isinstance(data, dd.DataFrame):
        raise TypeError(ERROR_NOT_DASK.format(type=type(data).__name__))
    check_option(orientation, ORIENTATIONS, "orientation")
    check_option(nonfinite, NONFINITE_POLICIES, "nonfinite")
    by_cols = by_columns(by)
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
    genuine = genuine_from_labels(pdf, spec.label)
    scores = numeric_scores(pdf, spec.score)
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
        codes, uniques = factorize_keys(pdf[col])
        codes_list.append(np.asarray(codes))
        uniques_list.append([scalar_value(u) for u in uniques])
    combined = combine_codes(codes_list, [len(u) for u in uniques_list], len(pdf))
    if keep is not None:
        combined = np.where(keep, combined, -1)
    uniq = np.unique(combined)
    uniq = uniq[uniq >= 0]
    groups = []
    slices: list[tuple[int, np.ndarray | None]]
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
    """(count, mean, M2, [cross-entropy sums]) of finite scores of one class; the sums
    are one tuple per chunk, the class's softplus terms at each prior log odds of
    :data:`~pandas_biosig._kernels.calibration.XE_LOG_ODDS` (the one at 0: Cllr's)."""
    if x.size == 0:
        return (0, 0.0, 0.0, [])
    m = float(x.mean())
    d = x - m
    sums = tuple(float(softplus(x + lo if impostor else -(x + lo)).sum()) for lo in XE_LOG_ODDS)
    return (x.size, m, float(np.dot(d, d)), [sums])


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
    out: dict[str, Any] = dict(groups={}, order=[{} for _ in results[0]["order"]], n_bad=0, bad=[],
                               rows=0)
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


_MIX = (np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB))
_GOLDEN = 0x9E3779B97F4A7C15
#: distinct repeated hashes kept per pass: the rows of the first ones are compared exactly
_REPEATS_KEPT = 2**20
#: hashes merged at once by :func:`_hash_repeats`
_MERGE_PIECE = 2**22


def _mix(x: np.ndarray) -> np.ndarray:
    """The splitmix64 finalizer, in place: a bijection of uint64 that scatters every bit."""
    x ^= x >> np.uint64(30)
    x *= _MIX[0]
    x ^= x >> np.uint64(27)
    x *= _MIX[1]
    x ^= x >> np.uint64(31)
    return x


def _row_hashes(pdf: pd.DataFrame, keys: Sequence[str], trial: str) -> np.ndarray:
    """A 64-bit hash of each row's key and trial id: equal rows hash alike in every
    partition; unequal rows collide rarely, and the rows of a repeated hash are compared
    exactly. A key column hashes its few unique values once; the key's hash plus the trial
    id (its hash unless an integer) are scattered by :func:`_mix`, a bijection: two integer
    trial ids of one key never collide."""
    acc = np.zeros(len(pdf), np.uint64) if not keys else None
    for i, col in enumerate(keys):
        series = pdf[col]
        if isinstance(series.dtype, pd.CategoricalDtype):  # missing values: code -1
            codes, uniques = series.cat.codes.to_numpy(), [*series.cat.categories, np.nan]
        else:
            codes, uniques = factorize_keys(series)
        hu = pd.util.hash_array(np.asarray(uniques, dtype=object))
        hu *= np.uint64(pow(_GOLDEN, len(keys) - 1 - i, 2**64))
        acc = hu[codes] if acc is None else np.add(acc, hu[codes], out=acc)
    t = pdf[trial]
    if isinstance(t.dtype, np.dtype) and t.dtype.kind in "iu":
        v = t.to_numpy()
        v = v.view(np.uint64) if v.dtype.itemsize == 8 else v.astype(np.uint64)
    else:
        v = pd.util.hash_pandas_object(t, index=False).to_numpy()
    assert acc is not None  # zeros without keys, else the keys' hashes
    return _mix(np.add(acc, v, out=acc))


def _hash_chunk(pdf, index, keys, trial, slices):
    """One partition's missing trial ids, and the sorted hashes of its rows cut into
    ``slices`` runs by equal ranges of the hash: ``(missing, run_0, ..., run_{slices-1})``."""
    h = _row_hashes(pdf, keys, trial)
    h.sort()
    edges = [(i << 64) // slices for i in range(1, slices)]
    cut = np.searchsorted(h, np.array(edges, dtype=np.uint64), side="left")
    miss = np.flatnonzero(pdf[trial].isna().to_numpy())
    missing = (miss.size, [pdf.iloc[miss[:5]]] if miss.size else [])
    return (missing, *np.split(h, cut))


def _hash_repeats(runs):
    """The distinct hashes that occur more than once in the partitions' sorted runs of
    one slice (the first ``_REPEATS_KEPT``) and their number: only these leave the worker.
    The runs are merged a range of values at a time, so that little more than the runs
    themselves is held."""
    longest = max(runs, key=len)
    pieces = max(1, sum(map(len, runs)) // _MERGE_PIECE)
    cuts = longest[np.linspace(0, len(longest), pieces + 1).astype(np.int64)[1:-1]]
    bounds = [np.r_[0, np.searchsorted(r, cuts), len(r)] for r in runs]
    found: list[np.ndarray] = []
    n_repeated = 0
    for j in range(pieces):
        h = np.concatenate([r[b[j] : b[j + 1]] for r, b in zip(runs, bounds, strict=True)])
        h.sort()
        rep = h[1:][h[1:] == h[:-1]]
        rep = rep[np.r_[True, rep[1:] != rep[:-1]]] if rep.size else rep
        n_repeated += rep.size
        found.append(rep[: max(_REPEATS_KEPT - sum(map(len, found)), 0)])
    return np.concatenate(found), n_repeated


def _missing(results):
    n = sum(m[0] for m in results)
    rows = [r for m in results for r in m[1]]
    return n, (pd.concat(rows).head(5) if rows else None)


def _rows_with(pdf, hashes, keys, trial):
    return pdf[np.isin(_row_hashes(pdf, keys, trial), hashes)]


def _check_trials(eng: _Engine, data: dd.DataFrame, spec: _Spec, *, rows: int,
                  duplicates: bool = True) -> None:
    """Refuse missing trial ids and duplicate (by..., system, split, trial) rows, as the
    pandas path does.

    One pass over the data: each row's key and trial hash to 64 bits (:func:`_row_hashes`),
    each partition sorts its hashes and cuts them into ``ceil(rows / check_rows)`` runs by
    equal ranges of the hash; the runs of one range, from every partition, are merged in
    one task, where repeats show (no merge holds much more than ``check_rows`` hashes; all
    the hashes, 8 bytes a row, may be held across the workers between the read and the
    merges). The rows of the repeated hashes are then fetched and compared exactly, so a
    hash collision is never taken for a duplicate. Without ``duplicates`` (the pairwise
    functions, whose alignment on ``trial`` finds them) only missing trial ids are looked
    for.
    """
    cols = list(dict.fromkeys([*spec.keys, spec.trial]))
    sub = data[cols]
    if not duplicates:
        n_missing = int(sub[spec.trial].isna().sum().compute())
        if n_missing:
            shown = sub[sub[spec.trial].isna()].head(5, npartitions=-1)
            raise SchemaError(
                ERROR_MISSING_TRIALS.format(column=spec.trial, n=n_missing, rows=shown.to_string())
            )
        return
    slices = max(1, -(-rows // _option("check_rows")))
    hashed = dask.delayed(_hash_chunk, pure=True, nout=slices + 1)
    leaves = [hashed(p, i, spec.keys, spec.trial, slices) for i, p in enumerate(sub.to_delayed())]
    merges = [dask.delayed(_hash_repeats, pure=True)([leaf[j + 1] for leaf in leaves])
              for j in range(slices)]
    missing = dask.delayed(_missing, pure=True)([leaf[0] for leaf in leaves])
    (n_missing, shown), found = dask.compute(missing, merges)
    eng.passes += 1
    if n_missing:
        raise SchemaError(ERROR_MISSING_TRIALS.format(column=spec.trial, n=n_missing,
                                                      rows=shown.to_string()))
    repeated = [r for r, _ in found]
    n_repeated = sum(n for _, n in found)
    candidates = np.concatenate(repeated)
    start, batch = 0, 5
    while start < candidates.size:  # more than one batch only after a hash collision
        want = candidates[start : start + batch]
        start, batch = start + want.size, batch * 8
        rows_of = sub.map_partitions(_rows_with, want, spec.keys, spec.trial, meta=sub._meta)
        _raise_duplicates(rows_of.compute(), spec, exact=start >= n_repeated)


def _raise_duplicates(rows: pd.DataFrame, spec: _Spec, *, exact: bool) -> None:
    """Raise on the first exactly duplicated row of ``rows`` (if any)."""
    dup = rows.duplicated(keep=False)
    if not dup.any():  # only hash collisions
        return
    first = rows[dup].iloc[0]
    key = tuple(scalar_value(first[c]) for c in spec.keys)
    group = Group(key if spec.split else (*key, None), np.zeros(0), np.zeros(0, bool),
                  np.zeros(0), None)
    same = rows[dup]
    same = same[(same[spec.keys] == first[spec.keys]).all(axis=1)]
    raise SchemaError(
        ERROR_DUPLICATE_TRIALS.format(
            where=where_text(group, spec.by, spec.split),
            n=int(same.duplicated().sum()) if exact else f"at least {len(same) - 1}",
            column=spec.trial,
            examples=[scalar_value(v) for v in pd.unique(same[spec.trial])[:5]],
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
        self._parts: list | None = None
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
                        where=where_text(group, spec.by, spec.split), n_genuine=ps.p, n_impostor=ps.n
                    )
                )
            self.scores[key] = ps
            self.moments[key] = e.get("moments")
            groups.append(group)
        self.sweeps = {key: _ooc.ExactSweep(ps) for key, ps in self.scores.items()}
        _check_trials(self, data, spec, rows=res["rows"], duplicates=duplicates)
        self.trials = Trials(
            groups=groups,
            by=spec.by,
            split_column=spec.split,
            orientation=spec.orientation,
            columns={"found": list(spec.found), "trial": spec.trial, "system": spec.system,
                     "label": spec.label},
        )

    # ------------------------------------------------------------------ plumbing
    def _run(self, chunk, combine, *args, frame=None, finish=None):
        if frame is None:  # one graph for every pass over the table
            if self._parts is None:
                self._parts = self.frame.to_delayed()
            parts = self._parts
        else:
            parts = frame.to_delayed()
        leaves = [dask.delayed(chunk, pure=True)(p, i, *args) for i, p in enumerate(parts)]
        if combine is None:  # one flat reduction of every partition's result, by ``finish``
            root = dask.delayed(finish, pure=True)(leaves)
        else:
            root = _tree(leaves, combine, _option("split_every"))
        self.passes += 1
        return dask.compute(root)[0]

    def _order(self, res) -> list[tuple]:
        """Groups in the pandas path's order: per key column, category order or first
        appearance, combined lexicographically."""
        ranks = []
        for col, seen in zip(self.spec.keys, res["order"], strict=True):
            dtype = self.frame.dtypes[col]
            if isinstance(dtype, pd.CategoricalDtype) and self.frame[col].cat.known:
                cats = {scalar_value(c): i for i, c in enumerate(dtype.categories)}
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
        for key, wanted in needs.items():
            ps = self.scores[key]
            los = np.asarray(wanted, dtype=np.uint64)
            idx = np.searchsorted(ps.lo, los)
            count = ps.neg[idx] + ps.pos[idx]
            order = np.argsort(count, kind="stable")
            take = np.zeros(idx.size, bool)
            if gather:
                room = np.cumsum(count[order]) <= budget
                take[order[room]] = True
            ref, gathered = idx[~take], idx[take]
            refine = None
            if ref.size:
                extra = min(_option("refine_bits"), max(1, 22 - int(np.ceil(np.log2(ref.size)))))
                refine = (ps.lo[ref], ps.depth[ref], np.minimum(extra, 64 - ps.depth[ref]))
            plan[key] = (refine, (ps.lo[gathered], ps.hi[gathered]) if gathered.size else None)
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
    """The protocol of :mod:`pandas_biosig._core.protocol`, resolved on the exact out-of-core
    sweeps."""
    return Protocol(**policy).resolve(eng.trials, sweep_of=lambda g: eng.sweep(g.key),
                                      named=extra_named)


def refuse_count(count: str | None) -> None:
    """:data:`ERROR_COUNT` when a count column is named (counted tables are read in
    memory only)."""
    if count is not None:
        raise ValueError(ERROR_COUNT.format(count=count))


def _engine(data, *, moments=False, duplicates=True, count=None, **columns) -> _Engine:
    refuse_count(count)
    return _Engine(data, _spec(data, **columns), moments=moments, duplicates=duplicates)
