"""The search-table model shared by the identification modules: validation, ranking per
(system, ``by``) group, and the frame and Dataset helpers of their results.

Internal: :mod:`pandas_biosig.identification` and
:mod:`pandas_biosig.identification._compare` import from here."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.schema import (
    ERROR_MISSING_COLUMNS,
    ORIENTATIONS,
    SchemaError,
    by_columns,
    check_column_names,
    check_columns,
    check_option,
    combine_codes,
    example_rows,
    factorize_keys,
    genuine_from_labels,
    numeric_scores,
    scalar_value,
)
from .._core.validation import ERROR_POSITIVE_COUNT, check_count, fill_doc
from .._kernels import identification as _k
from .._kernels.segments import sort_segments

# --------------------------------------------------------------------------- options

SearchNonFinite = Literal["raise", "reject"]

#: What to do with NaN / ±inf scores.
NONFINITE_POLICIES = {
    "raise": "raise a SchemaError naming the rows",
    "reject": (
        "keep them as failed comparisons that never match: a failed mate ranks below every "
        "non-mate that did not fail, and a failed non-mate never outranks a mate that did "
        "not fail"
    ),
}


# --------------------------------------------------------------------------- messages

ERROR_NOT_A_FRAME = "expected a pandas DataFrame of search results, got {type}"
ERROR_EMPTY = "the search table is empty: there are no comparisons to evaluate"
ERROR_MISSING_IDS = (
    "column {column!r} has {n} missing id(s) (NaN/None); every comparison needs its probe "
    "and reference. Example rows:\n{rows}"
)
ERROR_DUPLICATE_PAIRS = (
    "{where} compares {n} (probe, reference) pair(s) more than once, e.g. {examples}; each "
    "(system, probe, reference) must appear once (several separate searches, such as "
    "folds, need by='<column>'). Example rows:\n{rows}"
)
ERROR_NO_MATED = (
    "{where} has no mated probe (no row whose {column!r} is true); {what} needs probes whose "
    "mate is in the gallery"
)
ERROR_NO_UNMATED = (
    "{where} has no unmated probe (every probe has a row whose {column!r} is true); {what} "
    "needs open-set probes to count false alarms"
)
ERROR_NONFINITE = (
    "column {column!r} has {n} non-finite score(s) (NaN or inf). Pass nonfinite='reject' to "
    "count them as failed comparisons that never match. Example rows:\n{rows}"
)
_TIES = "against the probe (bob.measure): rank = 1 + non-mate scores >= the best mate score"


def _package_version() -> str:
    try:
        return version("pandas-biosig")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


# --------------------------------------------------------------------------- validation


@dataclass(frozen=True, eq=False)
class SearchGroup:
    """The probes of one system (within one ``by`` group), ranked.

    ``probes`` holds the probe labels, ``stats`` the kernel's per-probe arrays in the
    same order (oriented scores: higher = more similar).
    """

    key: tuple
    probes: np.ndarray
    stats: _k.ProbeStats

    @property
    def system(self) -> Hashable:
        return self.key[-1]

    @property
    def mated(self) -> np.ndarray:
        return self.stats.mated

    @property
    def n_mated(self) -> int:
        return int(np.count_nonzero(self.stats.mated))

    @property
    def n_unmated(self) -> int:
        return int(self.stats.mated.size - np.count_nonzero(self.stats.mated))


@dataclass(frozen=True, eq=False)
class Searches:
    """A validated search table, ranked per ``(*by, system)`` group."""

    groups: Sequence[SearchGroup]
    by: tuple[str, ...]
    orientation: str
    mate_column: str
    #: every group's probes one after another (group ``i``: ``offsets[i]:offsets[i + 1]``)
    stats: _k.ProbeStats | None = None
    labels: np.ndarray | None = None
    offsets: np.ndarray | None = None
    keys: list[tuple] | None = None  # each group's key (without building the groups)

    def per_group(self, values: np.ndarray, reduce=np.add) -> np.ndarray:
        """``reduce`` of ``values`` (one per probe, in :attr:`stats` order) over each
        group's probes."""
        assert self.offsets is not None
        return reduce.reduceat(values, self.offsets[:-1])

    @property
    def sign(self) -> float:
        return ORIENTATIONS[self.orientation]

    def where(self, group: SearchGroup) -> str:
        return _where(self.by, group.key)

    def group_keys(self) -> list[tuple]:
        """The key of every group."""
        return self.keys if self.keys is not None else [g.key for g in self.groups]

    def key_frame(self, groups: Sequence[SearchGroup] | None, repeats=None) -> pd.DataFrame:
        """The keys of ``groups`` (None: every group), each repeated ``repeats`` times."""
        listed = self.group_keys() if groups is None else [g.key for g in groups]
        keys = pd.DataFrame(listed, columns=[*self.by, "system"])
        if repeats is not None:
            keys = keys.loc[keys.index.repeat(repeats)].reset_index(drop=True)
        return keys


def _where(by: Sequence[str], key: tuple) -> str:
    """Names a ``(*by, system)`` group in messages."""
    parts = [f"{b}={v!r}" for b, v in zip(by, key, strict=False)]
    return ", ".join([*parts, f"system {key[-1]!r}"])


def validate_search(
    data: pd.DataFrame,
    *,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: str = "similarity",
    nonfinite: str = "raise",
) -> Searches:
    """Validate a tidy search table and rank every probe of every ``(*by, system)`` group.

    The input is never modified.  Raises :class:`~pandas_biosig.SchemaError` for missing
    columns, an empty table, unknown or missing mate labels, non-numeric or non-finite
    scores (unless ``nonfinite="reject"``) and a (probe, reference) pair scored twice by
    one system.
    """
    by_cols = _check_search_frame(
        data, by=by, system=system, probe=probe, reference=reference, score=score, mate=mate,
        orientation=orientation, nonfinite=nonfinite,
    )
    is_mate = genuine_from_labels(data, mate)
    values = _oriented_scores(data, score, orientation, nonfinite)
    for column in (probe, reference):
        missing_ids = pd.isna(data[column]).to_numpy()
        if missing_ids.any():
            bad = np.flatnonzero(missing_ids)
            raise SchemaError(
                ERROR_MISSING_IDS.format(column=column, n=bad.size, rows=example_rows(data, bad))
            )
    probe_codes, probe_uniques = _id_codes(data[probe])
    ref_codes, ref_uniques = _id_codes(data[reference])
    key_uniques, key_codes, group, first = _group_index(data, [*by_cols, system])
    pair, pair_values = _pair_codes(group, np.asarray(probe_codes), len(probe_uniques))
    if _duplicated(pair, np.asarray(ref_codes), pair_values.size, len(ref_uniques)):
        g = _first_duplicated_group(group, pair, pair_values, np.asarray(ref_codes))
        key = _group_key(key_uniques, key_codes, first[g])
        _raise_duplicates(data, np.flatnonzero(group == g), probe, reference, _where(by_cols, key))
    # every probe of every group ranked in one pass: a probe is its (group, probe) pair
    st = _k.probe_stats(pair, is_mate, values, pair_values.size)
    n_probes = len(probe_uniques)
    offsets = np.searchsorted(pair_values // max(n_probes, 1), np.arange(first.size + 1))
    labels = np.asarray(probe_uniques)[pair_values % max(n_probes, 1)]
    keys = _group_keys(key_uniques, key_codes, first)
    return Searches(groups=_Groups(keys, labels, st, offsets), by=by_cols,
                    orientation=orientation, mate_column=mate, stats=st, labels=labels,
                    offsets=offsets, keys=keys)


class _Groups(Sequence):
    """The :class:`SearchGroup` of every group, built on first use (``len`` builds
    nothing): slices of every group's probes laid one after another."""

    def __init__(self, keys: list[tuple], labels: np.ndarray, stats: _k.ProbeStats,
                 offsets: np.ndarray):
        self._parts = keys, labels, stats, offsets
        self._groups: list[SearchGroup] | None = None

    def _all(self) -> list[SearchGroup]:
        if self._groups is None:
            keys, labels, st, off = self._parts
            self._groups = [
                SearchGroup(key, labels[a:b], _k.ProbeStats(*(x[a:b] for x in st)))
                for key, a, b in zip(keys, off[:-1].tolist(), off[1:].tolist(), strict=True)
            ]
        return self._groups

    def __len__(self) -> int:
        return len(self._parts[0])

    def __getitem__(self, i):
        return self._all()[i]

    def __iter__(self):
        return iter(self._all())


def _group_key(key_uniques, key_codes, row: int) -> tuple:
    """The key of a group: the values of the key columns at one of its rows."""
    return tuple(scalar_value(u[int(c[row])]) for u, c in zip(key_uniques, key_codes, strict=True))


def _group_keys(key_uniques, key_codes, rows: np.ndarray) -> list[tuple]:
    """:func:`_group_key` of many groups, one row of each given."""
    columns = []
    for u, c in zip(key_uniques, key_codes, strict=True):
        at = np.asarray(c)[rows].astype(np.intp)
        values = u.take(at).tolist() if hasattr(u, "take") else [u[i] for i in at]
        columns.append([scalar_value(v) for v in values])
    return list(zip(*columns, strict=True))


def _group_index(data, key_columns: list[str]):
    """The values and codes of each key column, the group of every row (groups numbered
    in code order) and one row of each group."""
    key_codes, key_uniques = [], []
    for col in key_columns:
        codes, uniques = _key_codes(data[col])
        key_codes.append(np.asarray(codes))
        key_uniques.append(uniques)
    n = len(data)
    if all(len(u) == 1 for u in key_uniques):  # one group
        return key_uniques, key_codes, np.zeros(n, dtype=np.int64), np.zeros(1, dtype=np.int64)
    combined = combine_codes(key_codes, [len(u) for u in key_uniques], n)
    top = int(combined.max()) + 1
    if top <= 4 * n + 1024:  # count instead of sorting
        used = np.bincount(combined, minlength=top) > 0
        group = (np.cumsum(used) - 1)[combined]
        size = int(used.sum())
    else:
        uniq, group = np.unique(combined, return_inverse=True)
        group, size = group.reshape(-1), uniq.size
    first = np.empty(size, dtype=np.int64)
    first[group] = np.arange(n)  # any row of a group holds its key
    return key_uniques, key_codes, group.astype(np.int64), first


def _pair_codes(group: np.ndarray, probe: np.ndarray,
                n_probes: int) -> tuple[np.ndarray, np.ndarray]:
    """Each row's (group, probe) pair numbered densely in (group, probe code) order, and
    the pairs' codes ``group * n_probes + probe``, ascending."""
    key = group * np.int64(max(n_probes, 1)) + probe.astype(np.int64)
    if key.size < 2 or bool(np.all(key[1:] >= key[:-1])):  # rows grouped by pair already
        heads = np.flatnonzero(np.concatenate(([True], key[1:] != key[:-1])))
        return np.repeat(np.arange(heads.size), np.diff(np.append(heads, key.size))), key[heads]
    codes, uniq = pd.factorize(key, sort=False)
    order = np.argsort(uniq)
    rank = np.empty(order.size, dtype=np.int64)
    rank[order] = np.arange(order.size)
    return rank[codes], np.asarray(uniq)[order]


def _duplicated(pair: np.ndarray, ref: np.ndarray, n_pairs: int, n_refs: int) -> bool:
    """Whether a (group, probe, reference) comparison occurs twice."""
    if pair.size > 1 and bool(np.all(pair[1:] >= pair[:-1])):  # each pair's rows together
        starts = np.flatnonzero(np.concatenate(([True], pair[1:] != pair[:-1])))
        falls = ref[1:] <= ref[:-1]
        falls[starts[1:] - 1] = False
        if not falls.any():  # the references of each pair rise: none repeats
            return False
        offsets = np.append(starts, pair.size)
        ordered = sort_segments(np.asarray(ref, dtype=np.int64), offsets, values=True)
        same = ordered[1:] == ordered[:-1]
        same[starts[1:] - 1] = False
        return bool(same.any())
    return _k.has_duplicate_pairs(pair, ref, n_pairs, n_refs)


def _first_duplicated_group(group, pair, pair_values, ref) -> int:
    """The first group (in group order) comparing a (probe, reference) pair twice."""
    key = pair.astype(np.int64) * np.int64(int(ref.max()) + 1) + ref
    order = np.argsort(key, kind="stable")
    twice = order[1:][key[order][1:] == key[order][:-1]]
    return int(group[twice].min())


def _check_search_frame(data, *, by, system, probe, reference, score, mate, orientation,
                        nonfinite) -> tuple[str, ...]:
    """Check the options and the columns of a search table; the ``by`` columns."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(data).__name__))
    check_option(orientation, ORIENTATIONS, "orientation")
    check_option(nonfinite, NONFINITE_POLICIES, "nonfinite")
    by_cols = by_columns(by)
    check_column_names(
        system=system, probe=probe, reference=reference, score=score, mate=mate,
        by=list(by_cols),
    )
    check_columns(data)
    required = [*by_cols, system, probe, reference, score, mate]
    missing = [c for c in dict.fromkeys(required) if c not in data.columns]
    if missing:
        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=missing, found=list(data.columns)))
    if len(data) == 0:
        raise SchemaError(ERROR_EMPTY)
    return by_cols


def _oriented_scores(data, score: str, orientation: str, nonfinite: str) -> np.ndarray:
    """The scores as similarities (higher = better match); a non-finite score raises, or
    (``nonfinite="reject"``) becomes a failed comparison that never matches."""
    values = numeric_scores(data, score)
    finite = np.isfinite(values)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        if nonfinite == "raise":
            raise SchemaError(
                ERROR_NONFINITE.format(column=score, n=bad.size, rows=example_rows(data, bad))
            )
        values = np.where(finite, values, -np.inf * ORIENTATIONS[orientation])
    return -values if orientation == "distance" else values


def _id_codes(series: pd.Series) -> tuple[np.ndarray, Any]:
    """Integer codes and their values for a probe or reference column.

    Non-negative integer ids that are not much sparser than the table are their own codes
    (no hashing, no copy; their values come out in ascending order); anything else is
    factorized as the key columns are (categories in category order, other values in
    order of first appearance).
    """
    values = series.to_numpy() if series.dtype.kind in "iu" else None
    if values is not None and values.size:
        low, high = int(values.min()), int(values.max())
        if low >= 0 and high < max(values.size, 1 << 16):
            return values, np.arange(high + 1, dtype=values.dtype)
    return factorize_keys(series)


def _key_codes(series: pd.Series) -> tuple[np.ndarray, Any]:
    """``factorize_keys`` of a key column, without a pass over a one-category categorical."""
    if isinstance(series.dtype, pd.CategoricalDtype) and len(series.cat.categories) == 1:
        codes = series.cat.codes.to_numpy()
        if codes.size and codes.min() >= 0:
            return codes, series.cat.categories
    return factorize_keys(series)


def _raise_duplicates(data, rows, probe, reference, where) -> None:
    sub = data.iloc[rows] if isinstance(rows, slice) else data.iloc[np.asarray(rows)]
    dup = sub.duplicated([probe, reference], keep=False).to_numpy()
    first = sub.duplicated([probe, reference], keep="first").to_numpy()
    positions = np.arange(len(data))[rows][dup]
    examples = [
        (scalar_value(a), scalar_value(b)) for a, b in sub.loc[first, [probe, reference]].to_numpy()[:3]
    ]
    raise SchemaError(
        ERROR_DUPLICATE_PAIRS.format(
            where=where,
            n=int(first.sum()),
            examples=examples,
            rows=example_rows(data, positions),
        )
    )


# --------------------------------------------------------------------------- helpers


def _rank_list(rank: Any) -> list[int]:
    if isinstance(rank, Sequence | np.ndarray) and not isinstance(rank, str):
        values = [check_count(r, "rank", positive=True) for r in rank]
        if not values:
            raise ValueError(ERROR_POSITIVE_COUNT.format(name="rank", value=rank))
        return values
    return [check_count(rank, "rank", positive=True)]


def _require_mated(s: Searches, g: SearchGroup, what: str) -> None:
    if g.n_mated == 0:
        raise SchemaError(ERROR_NO_MATED.format(where=s.where(g), column=s.mate_column, what=what))


def _require_unmated(s: Searches, g: SearchGroup, what: str) -> None:
    if g.n_unmated == 0:
        raise SchemaError(
            ERROR_NO_UNMATED.format(where=s.where(g), column=s.mate_column, what=what)
        )


def _unmated_top(g: SearchGroup) -> np.ndarray:
    """Best score of each unmated probe (oriented): what raises a false alarm."""
    return g.stats.nonmate_score[~g.mated]


def _largest_rank(g: SearchGroup) -> int:
    """The largest rank a mated probe of the group can have (1 + its non-mates)."""
    st = g.stats
    nonmates = (st.n_references - st.n_mates)[st.mated]
    return int(nonmates.max()) + 1 if nonmates.size else 1


def _search_counts(s, what: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(largest rank, mated probes, unmated probes)`` of every group (as
    :func:`_largest_rank`, ``n_mated``, ``n_unmated``); the first group without
    a mated probe raises (:func:`_require_mated`)."""
    st = s.stats
    mated = st.mated
    n_mated = s.per_group(mated.astype(np.int64))
    for i in np.flatnonzero(n_mated == 0)[:1]:
        _require_mated(s, s.groups[i], what)
    nonmates = np.where(mated, st.n_references - st.n_mates, -1).astype(np.int64)
    largest = s.per_group(nonmates, np.maximum) + 1
    return largest, n_mated, np.diff(s.offsets) - n_mated


def _cmc_counts(s, r: int) -> np.ndarray:
    """:func:`~pandas_biosig._kernels.identification.cmc_counts` of every group, one row
    per group."""
    st = s.stats
    mated = np.flatnonzero(st.mated)
    group = np.repeat(np.arange(len(s.groups)), np.diff(s.offsets))[mated]
    rank = np.minimum(st.rank[mated].astype(np.int64), r + 1)
    counts = np.bincount(group * (r + 2) + rank, minlength=len(s.groups) * (r + 2))
    return np.cumsum(counts.reshape(len(s.groups), r + 2)[:, 1 : r + 1], axis=1)


def _open_set_counts(s, index: np.ndarray, t: np.ndarray,
                     at_rank: int) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~pandas_biosig._kernels.identification.open_set_counts` of the groups
    ``index`` (positions in ``s.groups``) at their thresholds ``t``, in one pass over every
    group's probes."""
    st = s.stats
    full = np.full(len(s.groups), np.nan)
    full[index] = t
    at = np.repeat(full, np.diff(s.offsets))
    with np.errstate(invalid="ignore"):
        good = st.mated & (st.rank <= at_rank) & (st.mate_score >= at)
        alarm = ~st.mated & (st.nonmate_score >= at)
    return (s.per_group(good.astype(np.int64))[index],
            s.per_group(alarm.astype(np.int64))[index])


def _frame(s: Searches, groups, rows: list[dict] | pd.DataFrame, columns: list[str],
           repeats=None):
    keys = s.key_frame(groups, repeats)
    body = pd.DataFrame(rows, columns=columns[1:])
    out = pd.concat([keys, body.reset_index(drop=True)], axis=1)
    return out[[*s.by, *columns]]


class _Grid:
    """Positions of ``(*by, system)`` keys on a dense grid of Dataset dimensions."""

    def __init__(
        self, by: tuple[str, ...], keys: Sequence[tuple], last: str = "system", values=None
    ):
        self.dims = [*by, last]
        self.coords = {
            d: list(dict.fromkeys(k[i] for k in keys)) for i, d in enumerate(self.dims)
        }
        if values is not None:  # the last dimension's coordinate, in this order
            self.coords[last] = list(values)
        self.shape = tuple(len(self.coords[d]) for d in self.dims)
        at = [_positions(self.coords[d]) for d in self.dims]
        self.index = [tuple(at[i][k[i]] for i in range(len(self.dims))) for k in keys]
        distinct = len(set(self.index))
        self.full = distinct == math.prod(self.shape)
        self._distinct = distinct == len(self.index)

    def array(self, values: Sequence | np.ndarray, extra: tuple[int, ...] = (),
              dtype=np.float64):
        """A grid array holding ``values[i]`` at key ``i`` (NaN where a key is missing;
        integer ``dtype`` only when every key is present)."""
        dtype = dtype if self.full else np.float64
        fill = 0 if np.issubdtype(dtype, np.integer) else np.nan
        out = np.full(self.shape + extra, fill, dtype=dtype)
        if isinstance(values, np.ndarray) and values.shape == (len(self.index), *extra) \
                and self._distinct:  # every key's values at once
            if self.index:
                out[tuple(np.array(self.index).T)] = values
            return out
        for idx, v in zip(self.index, values, strict=True):
            if extra:
                v = np.asarray(v)
                out[idx][tuple(slice(0, n) for n in v.shape)] = v
            else:
                out[idx] = v
        return out


def _positions(values: list) -> dict:
    """The position of each value in ``values`` (the first, as ``list.index`` finds it)."""
    out: dict = {}
    for i, v in enumerate(values):
        out.setdefault(v, i)
    return out


def _var(dims, values, long_name: str, units: str):
    return (dims, values, {"long_name": long_name, "units": units})


def _attrs(s: Searches, kind: str) -> dict:
    return {
        "kind": kind,
        "orientation": s.orientation,
        "ties": _TIES,
        "pandas_biosig_version": _package_version(),
    }


def _fill_doc(func):
    """Insert the shared description of the column arguments into ``func``'s docstring."""
    func.__doc__ = fill_doc(func.__doc__, column_args=_COLUMN_ARGS)
    return func


_COLUMN_ARGS = """by : str or list of str, optional
        Columns whose groups are separate search experiments (folds, datasets); results
        are given per group, the ``by`` columns first (as dimensions for Datasets).
    system, probe, reference, score, mate : str
        Column names of the search table.
    orientation : {"similarity", "distance"}, default "similarity"
        ``"distance"``: lower scores are better matches; ranks and thresholds follow.
    nonfinite : {"raise", "reject"}, default "raise"
        NaN / inf scores raise, or count as failed comparisons that never match."""
