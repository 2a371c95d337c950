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

    groups: list[SearchGroup]
    by: tuple[str, ...]
    orientation: str
    mate_column: str

    @property
    def sign(self) -> float:
        return ORIENTATIONS[self.orientation]

    def where(self, group: SearchGroup) -> str:
        return _where(self.by, group.key)

    def key_frame(self, groups: Sequence[SearchGroup], repeats=None) -> pd.DataFrame:
        keys = pd.DataFrame([g.key for g in groups], columns=[*self.by, "system"])
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
    n_probes, n_refs = len(probe_uniques), len(ref_uniques)
    key_uniques, key_codes, slices = _search_groups(data, [*by_cols, system])
    groups: list[SearchGroup] = []
    for rows in slices:
        # the key of a group: the per-column codes of its first row
        first = (rows.start or 0) if isinstance(rows, slice) else int(rows[0])
        key = tuple(
            scalar_value(u[int(c[first])]) for u, c in zip(key_uniques, key_codes, strict=True)
        )
        p, r, m, s = (a[rows] for a in (probe_codes, ref_codes, is_mate, values))
        if _k.has_duplicate_pairs(p, r, n_probes, n_refs):
            _raise_duplicates(data, rows, probe, reference, _where(by_cols, key))
        st = _k.probe_stats(p, m, s, n_probes)
        present = np.flatnonzero(st.n_references > 0)
        groups.append(SearchGroup(key, np.asarray(probe_uniques)[present], st.take(present)))
    return Searches(groups=groups, by=by_cols, orientation=orientation, mate_column=mate)


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


def _search_groups(data, key_columns: list[str]):
    """The values and codes of each key column, and the rows of each group (in code order)."""
    key_codes, key_uniques = [], []
    for col in key_columns:
        codes, uniques = _key_codes(data[col])
        key_codes.append(np.asarray(codes))
        key_uniques.append(uniques)
    if all(len(u) == 1 for u in key_uniques):  # one group: no combined key to build
        return key_uniques, key_codes, [slice(None)]
    combined = combine_codes(key_codes, [len(u) for u in key_uniques], len(data))
    return key_uniques, key_codes, [rows for _code, rows in _group_rows(combined)]


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


def _group_rows(combined: np.ndarray) -> list[tuple[int, Any]]:
    """``(code, rows)`` per distinct group code, in code order; ``rows`` is a slice when
    the group's rows are contiguous (no copy), else an index array."""
    n = combined.size
    breaks = np.flatnonzero(combined[1:] != combined[:-1]) + 1
    starts = np.concatenate(([0], breaks))
    run_codes = combined[starts]
    if np.unique(run_codes).size == run_codes.size:  # each group is one contiguous run
        ends = np.append(breaks, n)
        order = np.argsort(run_codes, kind="stable")
        return [(int(run_codes[i]), slice(int(starts[i]), int(ends[i]))) for i in order]
    uniq, dense = np.unique(combined, return_inverse=True)
    order = np.argsort(dense, kind="stable")
    counts = np.bincount(dense, minlength=uniq.size)
    bounds = np.concatenate(([0], np.cumsum(counts)))
    return [(int(uniq[i]), order[bounds[i] : bounds[i + 1]]) for i in range(uniq.size)]


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


def _frame(s: Searches, groups, rows: list[dict], columns: list[str], repeats=None):
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
        self.index = [
            tuple(self.coords[d].index(k[i]) for i, d in enumerate(self.dims)) for k in keys
        ]
        self.full = len(set(self.index)) == math.prod(self.shape)

    def array(self, values: Sequence, extra: tuple[int, ...] = (), dtype=np.float64):
        """A grid array holding ``values[i]`` at key ``i`` (NaN where a key is missing;
        integer ``dtype`` only when every key is present)."""
        dtype = dtype if self.full else np.float64
        fill = 0 if np.issubdtype(dtype, np.integer) else np.nan
        out = np.full(self.shape + extra, fill, dtype=dtype)
        for idx, v in zip(self.index, values, strict=True):
            if extra:
                v = np.asarray(v)
                out[idx][tuple(slice(0, n) for n in v.shape)] = v
            else:
                out[idx] = v
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
