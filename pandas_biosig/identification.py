r"""Identification (1:N search): ranks, CMC curves, recognition rates and open-set rates.

The input is a tidy **search table**: one row per (system, probe, reference) comparison,
with its ``score`` and a ``mate`` column saying whether the reference belongs to the
probe's identity (the label vocabulary of :data:`pandas_biosig.LABEL_VOCABULARY`: True/1,
"mated", "genuine"... against False/0, "non-mated", "impostor"...).  A probe with no mate
row is an **open-set** (unmated) probe: its identity is not enrolled.

=============================================  ==============================================
:func:`probe_ranks`                            one row per probe: best mate and non-mate
                                               scores, rank of the mate
:func:`cmc`                                    CMC curve, ``Dataset`` over (system, rank)
:func:`recognition_rate`                       rank-N recognition rate with its interval
:func:`detection_identification_rate`          open-set DIR and false alarm rate at a
                                               threshold or at a target false alarm rate
:func:`dir_curve`                              DIR against false alarm rate, ``Dataset``
:func:`compare_identification`                 McNemar, Günter, sign and bootstrap tests
                                               between systems, one row per pair, adjusted
:func:`cmc_difference`                         paired bootstrap band on CMC_A - CMC_B
:func:`read_bob_identification`                bob 4/5-column score files
:func:`read_pyeer_cmc`                         pyeer CMC files (scores + true pairs)
:func:`example_search`                         a small synthetic search experiment
=============================================  ==============================================

Rules, as bob.measure
---------------------
- **Rank**: :math:`\mathrm{rank} = 1 + \#\{\text{non-mate scores} \ge \text{best mate
  score}\}`.  Ties count *against* the probe.
- **Several mates** (a probe compared with several references of its identity): the best
  mate score counts; the other mates are never counted against the probe.  Ranks count
  references, not identities.
- **Open-set probes** have no rank: the CMC and the recognition rate use the mated probes
  only (``n_unmated`` reports how many were left out).  The detection and identification
  rate (DIR) counts mated probes only in its denominator, the false alarm rate (FAR)
  unmated probes only (Phillips, Grother & Micheals, 2005; bob.measure's
  ``detection_identification_rate`` and ``false_alarm_rate``).
- **Decision**: a comparison is accepted iff ``score >= threshold`` (for distances: iff
  ``distance <= threshold``).
"""

from __future__ import annotations

import io
import math
import numbers
import os
import warnings
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib.metadata import PackageNotFoundError, version
from itertools import combinations
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd
import xarray as xr

from . import stats
from ._kernels import identification as _k
from ._pairwise import adjust_pvalues as _adjust
from ._schema import (
    ERROR_MISSING_COLUMNS,
    ORIENTATIONS,
    BiosigWarning,
    SchemaError,
    _example_rows,
    _factorize,
    _genuine_from_labels,
    _scalar,
    _scores,
    check_column_names,
    check_columns,
    check_option,
    combine_codes,
)
from ._schema import (
    _by_columns as _schema_by_columns,
)
from ._typing import Alternative, Orientation
from ._validation import check_adjust as _check_adjust
from .io import DEFAULT_MAX_BYTES
from .resampling import _bootstrap_result
from .results import TestResult, _check_confidence_level
from .stats import (
    ERROR_ALPHA,
    ERROR_POSITIVE_COUNT,
    RATE_CI_METHODS,
    RateCIMethod,
    _check_count,
    _check_open_unit,
    _check_rate,
)

__all__ = [
    "CMC_DIFFERENCE_VARIABLES",
    "CMC_VARIABLES",
    "COMPARE_COLUMNS",
    "DIR_COLUMNS",
    "DIR_CURVE_VARIABLES",
    "NONFINITE_POLICIES",
    "PROBE_RANK_COLUMNS",
    "RECOGNITION_COLUMNS",
    "TESTS",
    "cmc",
    "cmc_difference",
    "compare_identification",
    "detection_identification_rate",
    "dir_curve",
    "example_search",
    "probe_ranks",
    "read_bob_identification",
    "read_pyeer_cmc",
    "recognition_rate",
]

# --------------------------------------------------------------------------- options

SearchNonFinite = Literal["raise", "reject"]
IdentificationTest = Literal["mcnemar", "gunter", "sign", "bootstrap"]

#: What to do with NaN / ±inf scores.
NONFINITE_POLICIES = {
    "raise": "raise a SchemaError naming the rows",
    "reject": (
        "keep them as failed comparisons that never match: a failed mate ranks below every "
        "non-mate that did not fail, and a failed non-mate never outranks a mate that did "
        "not fail"
    ),
}

#: Tests of :func:`compare_identification`: name -> (what it compares, allowed methods).
TESTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "mcnemar": (
        "McNemar's test on the probes that exactly one system gets right at the rank",
        stats.MCNEMAR_METHODS,
    ),
    "gunter": (
        "Günter (2004) simple (eq. 3) or paired (eq. 5-6) test of the recognition rates",
        stats.RECOGNITION_METHODS,
    ),
    "sign": ("sign test over the runs named by `by` (Günter 2004 eq. 7)", ()),
    "bootstrap": ("paired bootstrap of the difference of recognition rates over probes", ()),
}
_DEFAULT_METHOD = {"mcnemar": "exact", "gunter": "paired", "sign": None, "bootstrap": None}

# --------------------------------------------------------------------------- schemas

PROBE_RANK_COLUMNS = [
    "system",
    "probe",
    "mated",
    "n_references",
    "n_mates",
    "mate_score",
    "nonmate_score",
    "rank",
]
RECOGNITION_COLUMNS = [
    "system",
    "rank",
    "n_probes",
    "n_unmated",
    "n_correct",
    "recognition_rate",
    "confidence_level",
    "ci_method",
    "ci_low",
    "ci_high",
]
DIR_COLUMNS = [
    "system",
    "rank",
    "criterion",
    "target",
    "threshold",
    "n_mated",
    "n_unmated",
    "n_detected",
    "n_false_alarms",
    "dir",
    "far",
]
#: The pairwise columns of :func:`pandas_biosig.compare`, with ``rank`` for its ``split``.
COMPARE_COLUMNS = [
    "system_a",
    "system_b",
    "metric",
    "rank",
    "test",
    "n",
    "estimate",
    "statistic",
    "pvalue",
    "log10_pvalue",
    "adjust",
    "pvalue_adj",
    "alpha",
    "reject",
    "confidence_level",
    "ci_low",
    "ci_high",
    "alternative",
    "method",
]
CMC_VARIABLES = ["cmc", "n_correct", "n_probes", "n_unmated", "max_rank", "recognition_rate"]
DIR_CURVE_VARIABLES = ["threshold", "far", "dir", "n_mated", "n_unmated"]
CMC_DIFFERENCE_VARIABLES = ["estimate", "ci_low", "ci_high", "band_low", "band_high", "n"]

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
ERROR_THRESHOLD = (
    "threshold={value!r} must be a number, a mapping {{system: threshold}} or 'far'"
)
ERROR_THRESHOLD_MISSING = "no threshold given for system {system!r} (thresholds given for {given})"
ERROR_TEST_METHOD = "method={value!r} is not one of {allowed} for test={test!r}"
ERROR_SIGN_NEEDS_BY = (
    "test='sign' compares the systems over repeated runs: pass by='<column>' naming the runs "
    "(folds, seeds, datasets)"
)
ERROR_PROBES_DIFFER = (
    "systems {a!r} and {b!r} do not rank the same mated probes{where}: {n_a} only in {a!r} "
    "and {n_b} only in {b!r} (e.g. {examples}); pass common_probes=True to keep the probes "
    "they share"
)
ERROR_NO_COMMON = "systems {a!r} and {b!r} share no mated probe{where}"
ERROR_ONE_SYSTEM = "comparing systems needs at least two systems, found {found}"
ERROR_FILE_LAYOUT = "{path}: {detail}"
ERROR_FILE_COLUMNS = "{path}: found {found} column(s); {layout}"
ERROR_FILE_SCORES = "{path}: {n} score(s) are not numbers, e.g. {examples}"
WARN_TRUE_PAIRS_UNSCORED = (
    "{path}: {n} true pair(s) name a (query, reference) that the scores file does not "
    "contain, e.g. {examples}; such a query has no mate in the gallery and is an open-set "
    "probe (a query without any score is ignored)"
)

_BOB_LAYOUTS = {
    4: ["claimed_id", "real_id", "test_label", "score"],
    5: ["claimed_id", "model_label", "real_id", "test_label", "score"],
}
_BOB_LAYOUT_TEXT = (
    "bob identification score files have 4 columns (claimed_id real_id test_label score) "
    "or 5 (claimed_id model_label real_id test_label score)"
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


def _by_columns(by) -> tuple[str, ...]:
    return _schema_by_columns(by)


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
    if not isinstance(data, pd.DataFrame):
        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(data).__name__))
    check_option(orientation, ORIENTATIONS, "orientation")
    check_option(nonfinite, NONFINITE_POLICIES, "nonfinite")
    by_cols = _by_columns(by)
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

    is_mate = _genuine_from_labels(data, mate)
    values = _scores(data, score)
    finite = np.isfinite(values)
    if not finite.all():
        bad = np.flatnonzero(~finite)
        if nonfinite == "raise":
            raise SchemaError(
                ERROR_NONFINITE.format(column=score, n=bad.size, rows=_example_rows(data, bad))
            )
        values = np.where(finite, values, -np.inf * ORIENTATIONS[orientation])
    if orientation == "distance":
        values = -values

    for column in (probe, reference):
        missing_ids = pd.isna(data[column]).to_numpy()
        if missing_ids.any():
            bad = np.flatnonzero(missing_ids)
            raise SchemaError(
                ERROR_MISSING_IDS.format(column=column, n=bad.size, rows=_example_rows(data, bad))
            )
    probe_codes, probe_uniques = _id_codes(data[probe])
    ref_codes, ref_uniques = _id_codes(data[reference])
    n_probes, n_refs = len(probe_uniques), len(ref_uniques)

    key_codes, key_uniques = [], []
    for col in [*by_cols, system]:
        codes, uniques = _key_codes(data[col])
        key_codes.append(np.asarray(codes))
        key_uniques.append(uniques)
    if all(len(u) == 1 for u in key_uniques):  # one group: no combined key to build
        slices: list[tuple[int, Any]] = [(0, slice(None))]
    else:
        combined = combine_codes(key_codes, [len(u) for u in key_uniques], len(data))
        slices = _group_rows(combined)

    groups: list[SearchGroup] = []
    for _code, rows in slices:
        # the key of a group: the per-column codes of its first row
        first = (rows.start or 0) if isinstance(rows, slice) else int(rows[0])
        key = tuple(
            _scalar(u[int(c[first])]) for u, c in zip(key_uniques, key_codes, strict=True)
        )
        p, r, m, s = (a[rows] for a in (probe_codes, ref_codes, is_mate, values))
        if _k.has_duplicate_pairs(p, r, n_probes, n_refs):
            _raise_duplicates(data, rows, probe, reference, _where(by_cols, key))
        st = _k.probe_stats(p, m, s, n_probes)
        present = np.flatnonzero(st.n_references > 0)
        groups.append(SearchGroup(key, np.asarray(probe_uniques)[present], st.take(present)))
    return Searches(groups=groups, by=by_cols, orientation=orientation, mate_column=mate)


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
    return _factorize(series)


def _key_codes(series: pd.Series) -> tuple[np.ndarray, Any]:
    """``_factorize`` of a key column, without a pass over a one-category categorical."""
    if isinstance(series.dtype, pd.CategoricalDtype) and len(series.cat.categories) == 1:
        codes = series.cat.codes.to_numpy()
        if codes.size and codes.min() >= 0:
            return codes, series.cat.categories
    return _factorize(series)


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
        (_scalar(a), _scalar(b)) for a, b in sub.loc[first, [probe, reference]].to_numpy()[:3]
    ]
    raise SchemaError(
        ERROR_DUPLICATE_PAIRS.format(
            where=where,
            n=int(first.sum()),
            examples=examples,
            rows=_example_rows(data, positions),
        )
    )


# --------------------------------------------------------------------------- helpers


def _rank_list(rank: Any) -> list[int]:
    if isinstance(rank, Sequence | np.ndarray) and not isinstance(rank, str):
        values = [_check_count(r, "rank", positive=True) for r in rank]
        if not values:
            raise ValueError(ERROR_POSITIVE_COUNT.format(name="rank", value=rank))
        return values
    return [_check_count(rank, "rank", positive=True)]


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
    func.__doc__ = func.__doc__.replace("{column_args}", _COLUMN_ARGS)
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


# --------------------------------------------------------------------------- per-probe


@_fill_doc
def probe_ranks(
    data: pd.DataFrame,
    /,
    *,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
) -> pd.DataFrame:
    r"""Rank of the mate of every probe, and its best mate and non-mate scores.

    Parameters
    ----------
    data : DataFrame
        Tidy search table: one row per (system, probe, reference) comparison with its
        ``score`` and whether the reference is the probe's ``mate``.
    {column_args}

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, probe), probes in order of first appearance
        (integer ids: ascending; categorical: category order), with columns ``system``, ``probe``, ``mated`` (the probe has a mate in the
        gallery), ``n_references`` (comparisons of the probe), ``n_mates``,
        ``mate_score`` (the best mate score; NaN for an unmated probe),
        ``nonmate_score`` (the best non-mate score; NaN when there is none) and ``rank``
        (float; NaN for an unmated probe).

    Raises
    ------
    SchemaError
        Missing columns (``ERROR_MISSING_COLUMNS``), an empty table (:data:`ERROR_EMPTY`),
        mate values outside the label vocabulary, non-numeric or non-finite scores
        (:data:`ERROR_NONFINITE`), or a (probe, reference) pair scored twice by one system
        (:data:`ERROR_DUPLICATE_PAIRS`).
    ValueError
        An unknown ``orientation`` or ``nonfinite``.

    See Also
    --------
    cmc : the distribution of these ranks.

    Notes
    -----
    With :math:`m_p` the best mate score of probe :math:`p` and :math:`N_p` its non-mate
    scores,

    .. math::

        \mathrm{rank}(p) = 1 + \#\{s \in N_p : s \ge m_p\},

    so ties count against the probe (bob.measure).  When a probe has several mates the
    best one counts and the others are never counted against it; ranks count references,
    not identities.  The ranks are computed in one pass over the rows, without sorting.

    References
    ----------
    Phillips, P. J., Grother, P., & Micheals, R. (2005). Evaluation methods in face
    recognition. In S. Z. Li & A. K. Jain (Eds.), *Handbook of face recognition*
    (pp. 328–348). Springer.

    Examples
    --------
    bob.measure's CMC fixture: four probes whose best mates rank 2, 3, 1 and 1 (the
    third probe has two mates, and only the better one counts):

    >>> from pandas_biosig.identification import probe_ranks
    >>> rows = [(p, f"{p}-{i}", s, False)
    ...         for p, neg in enumerate([(0.3, 1.1, 0.5), (1.4, -1.3, 0.6),
    ...                                  (0.8, 0.0, 1.5), (2.0, 1.3, 1.6, 0.9)])
    ...         for i, s in enumerate(neg)]
    >>> rows += [(0, "0-m", 0.7, True), (1, "1-m", 0.2, True), (2, "2-m", -0.8, True),
    ...          (2, "2-n", 1.8, True), (3, "3-m", 2.4, True)]
    >>> table = pd.DataFrame(rows, columns=["probe", "reference", "score", "mate"])
    >>> probe_ranks(table.assign(system="bob"))[["probe", "n_mates", "mate_score", "rank"]]
       probe  n_mates  mate_score  rank
    0      0        1         0.7   2.0
    1      1        1         0.2   3.0
    2      2        2         1.8   1.0
    3      3        1         2.4   1.0
    """
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    bodies = []
    for g in s.groups:
        st = g.stats
        bodies.append(
            pd.DataFrame(
                {
                    "probe": g.probes,
                    "mated": st.mated,
                    "n_references": st.n_references.astype(np.int64),
                    "n_mates": st.n_mates.astype(np.int64),
                    "mate_score": s.sign * st.mate_score,
                    "nonmate_score": s.sign * st.nonmate_score,
                    "rank": st.rank,
                }
            )
        )
    keys = s.key_frame(s.groups, [len(g.probes) for g in s.groups])
    out = pd.concat([keys, pd.concat(bodies, ignore_index=True)], axis=1)
    return out[[*s.by, *PROBE_RANK_COLUMNS]]


# --------------------------------------------------------------------------- CMC


@_fill_doc
def cmc(
    data: pd.DataFrame,
    /,
    *,
    max_rank: int | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
) -> xr.Dataset:
    r"""Cumulative match characteristic (CMC) of every system.

    Parameters
    ----------
    data : DataFrame
        Tidy search table (see :func:`probe_ranks`).
    max_rank : int, optional
        Last rank of the curve.  Default: the largest rank any mated probe can have in any
        system (one more than its number of non-mates; the gallery size for one mate per
        probe).
    {column_args}

    Returns
    -------
    Dataset
        Dimensions ``(*by, system, rank)`` with ``rank = 1..max_rank``.  Data variables:
        ``cmc`` (fraction of mated probes with rank <= r), ``n_correct`` (their number)
        over ``(*by, system, rank)``; ``n_probes`` (mated probes), ``n_unmated``
        (open-set probes, left out), ``max_rank`` (the largest rank possible in the
        system) and ``recognition_rate`` (rank-1 rate) over ``(*by, system)``.  Every
        variable has ``long_name`` and ``units`` attributes.  Past a system's own
        ``max_rank`` its curve stays at its last value (1), so curves of systems with
        different gallery sizes share the rank axis without padding; missing
        ``(by, system)`` combinations are NaN.

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`, or a system without any mated probe
        (:data:`ERROR_NO_MATED`).
    ValueError
        ``max_rank`` not a positive integer (:data:`~pandas_biosig.stats.ERROR_POSITIVE_COUNT`).

    See Also
    --------
    recognition_rate : one rank, with a confidence interval.
    cmc_difference : bootstrap band on the difference of two curves.

    Notes
    -----
    With :math:`P_G` the mated probes,

    .. math::

        \mathrm{CMC}(r) = \frac{\#\{p \in P_G : \mathrm{rank}(p) \le r\}}{|P_G|},

    non-decreasing in :math:`r` and equal to 1 at ``max_rank``.  Open-set probes have no
    rank and are not in the denominator (bob.measure's ``cmc`` refuses them).

    Examples
    --------
    The probes of bob.measure's fixture rank 2, 3, 1 and 1 (see :func:`probe_ranks`):

    >>> from pandas_biosig.identification import cmc, example_search
    >>> rows = [(0, "a", 0.3, False), (0, "b", 1.1, False), (0, "c", 0.5, False),
    ...         (0, "m", 0.7, True), (1, "a", 1.4, False), (1, "b", -1.3, False),
    ...         (1, "c", 0.6, False), (1, "m", 0.2, True), (2, "a", 0.8, False),
    ...         (2, "b", 0.0, False), (2, "c", 1.5, False), (2, "m", -0.8, True),
    ...         (2, "n", 1.8, True), (3, "a", 2.0, False), (3, "b", 1.3, False),
    ...         (3, "c", 1.6, False), (3, "d", 0.9, False), (3, "m", 2.4, True)]
    >>> table = pd.DataFrame(rows, columns=["probe", "reference", "score", "mate"])
    >>> cmc(table.assign(system="bob")).cmc.sel(system="bob").values
    array([0.5 , 0.75, 1.  , 1.  , 1.  ])

    On the bundled example, four systems over 60 gallery references:

    >>> ds = cmc(example_search())
    >>> ds.cmc.sel(rank=[1, 5]).to_pandas().round(3)
    rank        1     5
    system
    cnn      0.87  0.97
    cnn_aug  0.80  0.95
    gmm      0.73  0.95
    lbp      0.54  0.85
    """
    if max_rank is not None:
        max_rank = _check_count(max_rank, "max_rank", positive=True)
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    for g in s.groups:
        _require_mated(s, g, "the CMC")
    largest = [_largest_rank(g) for g in s.groups]
    r = max(largest) if max_rank is None else max_rank
    correct = [_k.cmc_counts(g.stats.rank, r) for g in s.groups]
    n_probes = [g.n_mated for g in s.groups]
    grid = _Grid(s.by, [g.key for g in s.groups])
    dims = grid.dims
    n_correct = grid.array(correct, (r,), dtype=np.int64)
    n = grid.array(n_probes, dtype=np.int64)
    curve = n_correct / np.asarray(n, dtype=np.float64)[..., None]
    ds = xr.Dataset(
        {
            "cmc": _var(
                [*dims, "rank"], curve, "cumulative match characteristic (rank <= r)", "1"
            ),
            "n_correct": _var([*dims, "rank"], n_correct, "mated probes with rank <= r", "1"),
            "n_probes": _var(dims, n, "mated probes", "1"),
            "n_unmated": _var(
                dims, grid.array([g.n_unmated for g in s.groups], dtype=np.int64),
                "unmated (open-set) probes, not in the CMC", "1",
            ),
            "max_rank": _var(
                dims, grid.array(largest, dtype=np.int64), "largest possible rank", "1"
            ),
            "recognition_rate": _var(dims, curve[..., 0], "rank-1 recognition rate", "1"),
        },
        coords={**grid.coords, "rank": np.arange(1, r + 1)},
        attrs=_attrs(s, "cmc"),
    )
    return ds


@_fill_doc
def recognition_rate(
    data: pd.DataFrame,
    /,
    *,
    rank: int | Sequence[int] = 1,
    confidence_level: float = 0.95,
    ci_method: RateCIMethod = "wilson",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
) -> pd.DataFrame:
    r"""Rank-N recognition (identification) rate of every system, with its interval.

    Parameters
    ----------
    data : DataFrame
        Tidy search table (see :func:`probe_ranks`).
    rank : int or sequence of int, default 1
        The rank(s) N: a probe is recognised iff its mate ranks N or better.
    confidence_level : float, default 0.95
        Level of the two-sided binomial interval.
    ci_method : {"wilson", "beta", "normal", "agresti_coull", "jeffreys", "binom_test"}
        statsmodels ``proportion_confint`` method (see
        :func:`pandas_biosig.stats.rate_ci`).
    {column_args}

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, rank) with columns ``system``, ``rank``,
        ``n_probes`` (mated probes), ``n_unmated`` (open-set probes, left out),
        ``n_correct``, ``recognition_rate`` (= CMC at the rank), ``confidence_level``,
        ``ci_method``, ``ci_low``, ``ci_high``.

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`, or a system without mated probes (:data:`ERROR_NO_MATED`).
    ValueError
        A rank that is not a positive integer (:data:`~pandas_biosig.stats.ERROR_POSITIVE_COUNT`), a
        ``confidence_level`` outside (0, 1) (:data:`~pandas_biosig.results.ERROR_CONFIDENCE_LEVEL`) or an unknown
        ``ci_method``.

    See Also
    --------
    cmc : every rank at once.
    compare_identification : is one system's rate significantly higher?

    Notes
    -----
    :math:`\mathrm{RR}_N = \#\{p \in P_G : \mathrm{rank}(p) \le N\} / |P_G|`, the CMC at
    N, over the mated probes :math:`P_G`.  bob.measure's ``recognition_rate`` without a
    threshold instead counts every open-set probe as a failure in its denominator; use
    :func:`detection_identification_rate` for open-set rates.

    Examples
    --------
    >>> from pandas_biosig.identification import example_search, recognition_rate
    >>> rr = recognition_rate(example_search(), rank=[1, 5])
    >>> rr[["system", "rank", "n_probes", "n_correct", "recognition_rate"]]
        system  rank  n_probes  n_correct  recognition_rate
    0      cnn     1       100         87              0.87
    1      cnn     5       100         97              0.97
    2  cnn_aug     1       100         80              0.80
    3  cnn_aug     5       100         95              0.95
    4      gmm     1       100         73              0.73
    5      gmm     5       100         95              0.95
    6      lbp     1       100         54              0.54
    7      lbp     5       100         85              0.85
    """
    ranks = _rank_list(rank)
    level = _check_confidence_level(confidence_level)
    check_option(ci_method, RATE_CI_METHODS, "ci_method")
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    rows = []
    for g in s.groups:
        _require_mated(s, g, "a recognition rate")
        counts = _k.recognition_counts(g.stats.rank, ranks)
        for k, c in zip(ranks, counts, strict=True):
            res = stats.rate_ci(int(c), g.n_mated, method=ci_method)
            ci = res.confidence_interval(confidence_level=level)
            rows.append(
                dict(
                    rank=k, n_probes=g.n_mated, n_unmated=g.n_unmated, n_correct=int(c),
                    recognition_rate=res.estimate, confidence_level=level,
                    ci_method=ci_method, ci_low=ci.low, ci_high=ci.high,
                )
            )
    return _frame(s, s.groups, rows, RECOGNITION_COLUMNS, repeats=len(ranks))


# --------------------------------------------------------------------------- open set


@_fill_doc
def detection_identification_rate(
    data: pd.DataFrame,
    /,
    *,
    threshold: Literal["far"] | float | Mapping[Hashable, float] = "far",
    target: float = 0.01,
    rank: int = 1,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
) -> pd.DataFrame:
    r"""Open-set detection and identification rate (DIR) and false alarm rate (FAR).

    Parameters
    ----------
    data : DataFrame
        Tidy search table with mated and unmated (open-set) probes (see
        :func:`probe_ranks`).
    threshold : "far", number or mapping, default "far"
        ``"far"``: each system's threshold is the one with the highest DIR among those
        whose false alarm rate is at most ``target``.  A number: one threshold for every
        system; a mapping ``{system: threshold}``: one per system.
    target : float, default 0.01
        The false alarm rate bound of ``threshold="far"`` (ignored otherwise, and
        reported as NaN).
    rank : int, default 1
        A mated probe is identified iff its mate ranks ``rank`` or better.
    {column_args}

    Returns
    -------
    DataFrame
        One row per (``by`` group, system) with columns ``system``, ``rank``,
        ``criterion`` (``"far"`` or ``"fixed"``), ``target``, ``threshold`` (in the
        score's units), ``n_mated``, ``n_unmated``, ``n_detected`` (mated probes detected
        and identified), ``n_false_alarms`` (unmated probes whose best score reaches the
        threshold), ``dir`` = n_detected / n_mated and ``far`` = n_false_alarms /
        n_unmated (NaN without unmated probes).

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`; a system without mated probes (:data:`ERROR_NO_MATED`);
        ``threshold="far"`` on a system without unmated probes
        (:data:`ERROR_NO_UNMATED`); a mapping without the system
        (:data:`ERROR_THRESHOLD_MISSING`).
    ValueError
        A bad ``threshold`` (:data:`ERROR_THRESHOLD`), ``target`` (:data:`~pandas_biosig.stats.ERROR_RATE`) or
        ``rank`` (:data:`~pandas_biosig.stats.ERROR_POSITIVE_COUNT`).

    See Also
    --------
    dir_curve : DIR against FAR at every threshold.

    Notes
    -----
    Following Phillips, Grother & Micheals (2005) and bob.measure, with :math:`P_G` the
    mated and :math:`P_N` the unmated probes, :math:`m_p` the best mate score and
    :math:`t_p` the best score of probe :math:`p`,

    .. math::

        \mathrm{DIR}(\tau, N) = \frac{\#\{p \in P_G : \mathrm{rank}(p) \le N,\;
            m_p \ge \tau\}}{|P_G|}, \qquad
        \mathrm{FAR}(\tau) = \frac{\#\{p \in P_N : t_p \ge \tau\}}{|P_N|}.

    Open-set probes are counted in the FAR's denominator only, mated probes in the
    DIR's only.  ISO/IEC 19795-1 calls the FAR the false positive identification rate
    (FPIR); at rank 1 its false negative identification rate is FNIR = 1 - DIR.  With
    ``threshold="far"`` the threshold is chosen from bob.measure's candidate list
    (midpoints between consecutive distinct scores), as the core's ``fnmr_at_fmr``: the
    FAR never exceeds ``target``.

    References
    ----------
    Phillips, P. J., Grother, P., & Micheals, R. (2005). Evaluation methods in face
    recognition. In S. Z. Li & A. K. Jain (Eds.), *Handbook of face recognition*
    (pp. 328–348). Springer.

    Examples
    --------
    >>> from pandas_biosig.identification import (
    ...     detection_identification_rate, example_search)
    >>> out = detection_identification_rate(example_search(), target=0.1)
    >>> out[["system", "threshold", "n_false_alarms", "far", "dir"]].round(3)
        system  threshold  n_false_alarms   far   dir
    0      cnn      3.085               2  0.08  0.64
    1  cnn_aug      2.920               2  0.08  0.71
    2      gmm      2.755               2  0.08  0.61
    3      lbp      2.885               2  0.08  0.37
    """
    at_rank = _check_count(rank, "rank", positive=True)
    criterion = _check_threshold(threshold)
    if criterion == "far":
        target = _check_rate(target, "target")
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    rows = []
    for g in s.groups:
        _require_mated(s, g, "the detection and identification rate")
        st = g.stats
        top = _unmated_top(g)
        if criterion == "far":
            _require_unmated(s, g, "threshold='far'")
            op = _k.open_set_sweep(st.mate_score, st.rank, top, at_rank).fnmr_at_fmr(target)
            t, detected, alarms = float(op.threshold), op.p - op.fr, op.fa
        else:
            t = s.sign * _fixed_threshold(threshold, g.system)
            detected, alarms = (
                int(x) for x in _k.open_set_counts(st.mate_score, st.rank, top, t, at_rank)
            )
        n_u = g.n_unmated
        rows.append(
            dict(
                rank=at_rank,
                criterion=criterion,
                target=target if criterion == "far" else np.nan,
                threshold=s.sign * t,
                n_mated=g.n_mated,
                n_unmated=n_u,
                n_detected=int(detected),
                n_false_alarms=int(alarms),
                dir=detected / g.n_mated,
                far=alarms / n_u if n_u else np.nan,
            )
        )
    return _frame(s, s.groups, rows, DIR_COLUMNS)


def _check_threshold(threshold) -> str:
    if isinstance(threshold, str):
        if threshold != "far":
            raise ValueError(ERROR_THRESHOLD.format(value=threshold))
        return "far"
    if isinstance(threshold, Mapping | pd.Series):
        return "fixed"
    if _is_number(threshold):
        return "fixed"
    raise ValueError(ERROR_THRESHOLD.format(value=threshold))


def _is_number(value) -> bool:
    return (
        isinstance(value, numbers.Real) and not isinstance(value, bool) and not math.isnan(value)
    )


def _fixed_threshold(threshold, name) -> float:
    if isinstance(threshold, Mapping | pd.Series):
        given = dict(threshold)
        if name not in given:
            raise SchemaError(ERROR_THRESHOLD_MISSING.format(system=name, given=list(given)))
        value = given[name]
        if not _is_number(value):
            raise ValueError(ERROR_THRESHOLD.format(value=threshold))
        return float(value)
    return float(threshold)


@_fill_doc
def dir_curve(
    data: pd.DataFrame,
    /,
    *,
    rank: int = 1,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
) -> xr.Dataset:
    r"""Detection and identification rate against false alarm rate, at every threshold.

    Parameters
    ----------
    data : DataFrame
        Tidy search table with mated and unmated probes (see :func:`probe_ranks`).
    rank : int, default 1
        A mated probe is identified iff its mate ranks ``rank`` or better.
    {column_args}

    Returns
    -------
    Dataset
        Dimensions ``(*by, system, point)``.  ``threshold``, ``far`` (false alarm rate)
        and ``dir`` over ``(*by, system, point)``; ``n_mated`` and ``n_unmated`` over
        ``(*by, system)``; ``rank`` a scalar coordinate.  Point 0 rejects everything
        (threshold just above the highest score, FAR = DIR = 0); each next point accepts
        the next distinct score (thresholds at bob.measure's midpoints), the last one
        accepts every score (FAR = 1 and DIR = the rank-N recognition rate unless some
        scores failed).  Systems have different numbers of points: the shorter curves are
        NaN-padded.

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`, or a system without mated (:data:`ERROR_NO_MATED`) or
        unmated (:data:`ERROR_NO_UNMATED`) probes.
    ValueError
        ``rank`` not a positive integer (:data:`~pandas_biosig.stats.ERROR_POSITIVE_COUNT`).

    See Also
    --------
    detection_identification_rate : one operating point, at a threshold or a FAR bound.

    Notes
    -----
    See :func:`detection_identification_rate` for the definitions.  The curve is the ROC
    of a verification problem whose negatives are the best scores of the unmated probes
    and whose positives are the best mate scores of the mated probes, the probes not
    identified at the rank being rejected at every threshold; it is computed by the same
    sorted sweep as :func:`pandas_biosig.eer`.

    Examples
    --------
    >>> from pandas_biosig.identification import dir_curve, example_search
    >>> ds = dir_curve(example_search())
    >>> cnn = ds.sel(system="cnn").dropna("point")
    >>> float(cnn.far[0]), float(cnn.dir[0]), float(cnn.far[-1]), float(cnn.dir[-1])
    (0.0, 0.0, 1.0, 0.87)
    """
    at_rank = _check_count(rank, "rank", positive=True)
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    curves = []
    for g in s.groups:
        _require_mated(s, g, "the DIR curve")
        _require_unmated(s, g, "the DIR curve")
        st = g.stats
        sw = _k.open_set_sweep(st.mate_score, st.rank, _unmated_top(g), at_rank)
        u = np.unique(np.concatenate([sw.neg, sw.pos]))[::-1]
        u = np.concatenate([[np.inf], u])
        curves.append(
            (
                s.sign * np.asarray(sw.threshold_for(u)),
                sw.fa_at(u) / sw.n,
                (sw.p - sw.fr_at(u)) / sw.p,
            )
        )
    grid = _Grid(s.by, [g.key for g in s.groups])
    dims = grid.dims
    n_points = max(c[0].size for c in curves)
    pad = (n_points,)
    point_dims = [*dims, "point"]
    ds = xr.Dataset(
        {
            "threshold": _var(
                point_dims, grid.array([c[0] for c in curves], pad),
                "decision threshold (accept iff score >= threshold)"
                if s.sign > 0 else "decision threshold (accept iff distance <= threshold)",
                "score",
            ),
            "far": _var(point_dims, grid.array([c[1] for c in curves], pad),
                        "false alarm rate", "1"),
            "dir": _var(point_dims, grid.array([c[2] for c in curves], pad),
                        "detection and identification rate", "1"),
            "n_mated": _var(dims, grid.array([g.n_mated for g in s.groups], dtype=np.int64),
                            "mated probes", "1"),
            "n_unmated": _var(
                dims, grid.array([g.n_unmated for g in s.groups], dtype=np.int64),
                "unmated (open-set) probes", "1",
            ),
        },
        coords={**grid.coords, "point": np.arange(n_points), "rank": at_rank},
        attrs=_attrs(s, "dir"),
    )
    return ds


# --------------------------------------------------------------------------- comparisons


def _aligned_ranks(s: Searches, ga: SearchGroup, gb: SearchGroup, *, common_probes: bool):
    """Ranks of the mated probes both systems ranked, in the same order."""
    ia = pd.Index(ga.probes[ga.mated])
    ib = pd.Index(gb.probes[gb.mated])
    ra = ga.stats.rank[ga.mated]
    rb = gb.stats.rank[gb.mated]
    if ia.equals(ib):
        return ra, rb
    where = "".join(f", {b}={v!r}" for b, v in zip(s.by, ga.key, strict=False))
    only_a = ia.difference(ib, sort=False)
    only_b = ib.difference(ia, sort=False)
    if (len(only_a) or len(only_b)) and not common_probes:
        examples = [_scalar(v) for v in [*only_a[:3], *only_b[:3]]]
        raise SchemaError(
            ERROR_PROBES_DIFFER.format(
                a=ga.system, b=gb.system, where=where, n_a=len(only_a), n_b=len(only_b),
                examples=examples,
            )
        )
    common = ia.intersection(ib, sort=False)
    if len(common) == 0:
        raise SchemaError(ERROR_NO_COMMON.format(a=ga.system, b=gb.system, where=where))
    return ra[ia.get_indexer(common)], rb[ib.get_indexer(common)]


def _families(s: Searches) -> dict[tuple, dict[Hashable, SearchGroup]]:
    """The groups of each ``by`` group, by system: the systems to compare with each other."""
    families: dict[tuple, dict[Hashable, SearchGroup]] = {}
    for g in s.groups:
        families.setdefault(g.key[:-1], {})[g.system] = g
    return families


def _pair_test(test, method, ra, rb, at_rank, alternative, rng, n_resamples) -> TestResult:
    """One test of "recognition rate of A minus B" on aligned ranks."""
    ca = ra <= at_rank
    cb = rb <= at_rank
    n = int(ca.size)
    only_a = int(np.count_nonzero(ca & ~cb))
    only_b = int(np.count_nonzero(~ca & cb))
    if test == "mcnemar":
        # b = "A right, B wrong" so that estimate = (b - c)/n = RR_A - RR_B
        return stats.mcnemar(only_a, only_b, n=n, method=method, alternative=alternative)
    if test == "gunter":
        r1, r2 = float(np.mean(ca)), float(np.mean(cb))
        r12 = float(np.mean(ca & cb)) if method == "paired" else None
        return stats.recognition_rate_test(
            r1, r2, n=n, r12=r12, method=method, alternative=alternative
        )
    # paired bootstrap over probes: only the discordant probes move the difference, so a
    # replicate is one multinomial draw of (A only, B only, the rest)
    draws = rng.multinomial(n, [only_a / n, only_b / n, 1.0 - (only_a + only_b) / n], n_resamples)
    deltas = (draws[:, 0] - draws[:, 1]) / n
    res = _bootstrap_result((only_a - only_b) / n, deltas, alternative, n)
    return replace(res, method="paired bootstrap of the recognition rate difference")


def _sign_result(wins_a: int, wins_b: int, alternative: str) -> TestResult:
    if wins_a + wins_b == 0:  # every run tied: no evidence either way
        return TestResult(
            statistic=0.0, pvalue=1.0, log10_pvalue=0.0, estimate=0.0, alternative=alternative,
            method="sign test over runs (Guenter 2004 eq. 7, exact binomial; every run tied)",
            n=0,
        )
    return stats.sign_test(wins_a, wins_b, alternative=alternative)


def compare_identification(
    data: pd.DataFrame,
    /,
    *,
    test: IdentificationTest = "mcnemar",
    method: str | None = None,
    rank: int = 1,
    alternative: Alternative = "two-sided",
    adjust: str | None = "holm",
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    common_probes: bool = False,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
) -> pd.DataFrame:
    r"""Test every pair of systems on their rank-N recognition rates, on the same probes.

    Parameters
    ----------
    data : DataFrame
        Tidy search table (see :func:`probe_ranks`) with at least two systems that
        searched the same probes.
    test : {"mcnemar", "gunter", "sign", "bootstrap"}, default "mcnemar"
        ``"mcnemar"``: McNemar's test on the probes exactly one of the two systems
        recognises (:func:`pandas_biosig.stats.mcnemar`); ``"gunter"``: Günter's (2004)
        paired (eq. 5–6) or simple (eq. 3) test
        (:func:`pandas_biosig.stats.recognition_rate_test`); ``"sign"``: the sign test
        over the runs named by ``by`` (:func:`pandas_biosig.stats.sign_test`; ties are
        dropped); ``"bootstrap"``: a paired bootstrap over probes.
    method : str, optional
        The test's variant: for ``"mcnemar"`` one of ``"exact"`` (default), ``"midp"``,
        ``"chi2"``, ``"chi2_corrected"``; for ``"gunter"`` ``"paired"`` (default) or
        ``"simple"``; none for the others.
    rank : int, default 1
        A probe is recognised iff its mate ranks ``rank`` or better.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        ``"greater"``: H1 is that system A's rate is higher than B's.
    adjust : str or None, default "holm"
        statsmodels ``multipletests`` method
        (:data:`pandas_biosig.significance.ADJUST_METHODS`), applied once over exactly the
        rows returned (one family, whatever ``by``); None or ``"none"``: no adjustment.
    alpha : float, default 0.05
        Level of ``reject``.
    confidence_level : float, default 0.95
        Level of the interval on the difference.
    n_resamples : int, default 1000
        Replicates of ``test="bootstrap"``.
    seed : int or numpy.random.Generator, optional
        Seed of the bootstrap.
    common_probes : bool, default False
        Keep the mated probes both systems ranked instead of raising when they differ.
    by : str or list of str, optional
        Separate search experiments: each group's pairs are tested on their own (one row
        per group and pair), except with ``test="sign"``, where the groups are the runs
        and each pair gets one row.
    system, probe, reference, score, mate, orientation, nonfinite
        As in :func:`probe_ranks`.

    Returns
    -------
    DataFrame
        One row per unordered pair of systems (in order of first appearance; per ``by``
        group unless ``test="sign"``), the ``by`` columns first, then
        :data:`COMPARE_COLUMNS`: ``system_a``, ``system_b``, ``metric``
        (``"recognition_rate"``), ``rank``, ``test``, ``n`` (aligned mated probes; untied
        runs for the sign test), ``estimate`` (RR_A − RR_B; the mean sign for the sign
        test), ``statistic``, ``pvalue``, ``log10_pvalue``, ``adjust``, ``pvalue_adj``,
        ``alpha``, ``reject``, ``confidence_level``, ``ci_low``, ``ci_high``,
        ``alternative`` and ``method`` (the full name of the test).

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`; systems that do not rank the same mated probes
        (:data:`ERROR_PROBES_DIFFER`, unless ``common_probes``) or share none
        (:data:`ERROR_NO_COMMON`).
    ValueError
        Fewer than two systems (:data:`ERROR_ONE_SYSTEM`), ``test="sign"`` without ``by``
        (:data:`ERROR_SIGN_NEEDS_BY`), a ``method`` the test does not have
        (:data:`ERROR_TEST_METHOD`), or another bad option.

    See Also
    --------
    cmc_difference : a bootstrap band over every rank.
    pandas_biosig.stats.recognition_rate_test : the same tests from reported rates.

    Notes
    -----
    With :math:`b` the probes only A recognises and :math:`c` those only B recognises,
    McNemar's test and the bootstrap use the discordant counts (under H0 each discordant
    probe is a fair coin), and Günter's paired test uses :math:`R_1 = ` RR_A,
    :math:`R_2 = ` RR_B and :math:`R_{12}` (both right).  The paired bootstrap draws
    probes with replacement, the same for both systems; as only the discordant probes
    move the difference, a replicate is one multinomial draw of
    :math:`(b^*, c^*)` and the difference :math:`(b^* - c^*)/n`.

    References
    ----------
    Günter, S. (2004). *Vergleich von Erkennungsmethoden* (Technical Report IAM-04-001).
    Institut für Informatik und angewandte Mathematik, Universität Bern.

    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. *Psychometrika, 12*\(2), 153–157.

    Examples
    --------
    >>> from pandas_biosig.identification import compare_identification, example_search
    >>> out = compare_identification(example_search())
    >>> out[["system_a", "system_b", "n", "estimate", "pvalue", "pvalue_adj"]].round(4)
      system_a system_b    n  estimate  pvalue  pvalue_adj
    0      cnn  cnn_aug  100      0.07  0.2100      0.4201
    1      cnn      gmm  100      0.14  0.0094      0.0281
    2      cnn      lbp  100      0.33  0.0000      0.0000
    3  cnn_aug      gmm  100      0.07  0.2478      0.4201
    4  cnn_aug      lbp  100      0.26  0.0000      0.0001
    5      gmm      lbp  100      0.19  0.0043      0.0173

    The sign test over the five folds of the example: with five runs, even five wins of
    five give only p = 2 · 0.5⁵ = 0.0625 (two-sided):

    >>> out = compare_identification(example_search(), test="sign", by="fold")
    >>> out[["system_a", "system_b", "n", "statistic", "pvalue"]].round(4)
      system_a system_b  n  statistic  pvalue
    0      cnn  cnn_aug  5        4.0  0.3750
    1      cnn      gmm  5        4.0  0.3750
    2      cnn      lbp  5        5.0  0.0625
    3  cnn_aug      gmm  5        4.0  0.3750
    4  cnn_aug      lbp  5        5.0  0.0625
    5      gmm      lbp  5        5.0  0.0625
    """
    check_option(test, TESTS, "test")
    if method is None:
        method = _DEFAULT_METHOD[test]
    else:
        allowed = TESTS[test][1]
        if method not in allowed:
            raise ValueError(ERROR_TEST_METHOD.format(value=method, allowed=list(allowed), test=test))
    at_rank = _check_count(rank, "rank", positive=True)
    check_option(alternative, stats.ALTERNATIVES, "alternative")
    adjust = _check_adjust(adjust)
    alpha = _check_open_unit(alpha, ERROR_ALPHA)
    level = _check_confidence_level(confidence_level)
    n_resamples = _check_count(n_resamples, "n_resamples", positive=True)
    if test == "sign" and by is None:
        raise ValueError(ERROR_SIGN_NEEDS_BY)
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    systems = list(dict.fromkeys(g.system for g in s.groups))
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(found=systems))
    for g in s.groups:
        _require_mated(s, g, "a recognition rate")
    rng = np.random.default_rng(seed)
    families = _families(s)

    keys, results = [], []
    if test == "sign":
        for a, b in combinations(systems, 2):
            wins_a = wins_b = 0
            for fam in families.values():
                if a in fam and b in fam:
                    ra, rb = _aligned_ranks(s, fam[a], fam[b], common_probes=common_probes)
                    diff = np.count_nonzero(ra <= at_rank) - np.count_nonzero(rb <= at_rank)
                    wins_a += diff > 0
                    wins_b += diff < 0
            keys.append((a, b))
            results.append(_sign_result(int(wins_a), int(wins_b), alternative))
        by_out: tuple[str, ...] = ()
    else:
        for fam_key, fam in families.items():
            for a, b in combinations([x for x in systems if x in fam], 2):
                ra, rb = _aligned_ranks(s, fam[a], fam[b], common_probes=common_probes)
                keys.append((*fam_key, a, b))
                results.append(
                    _pair_test(test, method, ra, rb, at_rank, alternative, rng, n_resamples)
                )
        by_out = s.by

    pvalues = np.array([r.pvalue for r in results], dtype=np.float64)
    p_adj, reject = _adjust(pvalues, adjust, alpha)  # one family: every row returned
    rows = []
    for res, pa, rej in zip(results, p_adj, reject, strict=True):
        ci = res.confidence_interval(confidence_level=level)
        rows.append(
            dict(
                metric="recognition_rate", rank=at_rank, test=test, n=res.n,
                estimate=res.estimate, statistic=res.statistic, pvalue=res.pvalue,
                log10_pvalue=res.log10_pvalue, adjust="none" if adjust is None else adjust,
                pvalue_adj=float(pa), alpha=alpha, reject=bool(rej), confidence_level=level,
                ci_low=float(ci.low), ci_high=float(ci.high), alternative=alternative,
                method=res.method,
            )
        )
    key_frame = pd.DataFrame(keys, columns=[*by_out, "system_a", "system_b"])
    body = pd.DataFrame(rows, columns=COMPARE_COLUMNS[2:])
    return pd.concat([key_frame, body], axis=1)[[*by_out, *COMPARE_COLUMNS]]


@_fill_doc
def cmc_difference(
    data: pd.DataFrame,
    /,
    *,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    max_rank: int | None = None,
    common_probes: bool = False,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
) -> xr.Dataset:
    r"""Paired bootstrap band on the difference of the CMC curves of every pair of systems.

    Parameters
    ----------
    data : DataFrame
        Tidy search table (see :func:`probe_ranks`) with at least two systems.
    n_resamples : int, default 1000
        Bootstrap replicates (each draws the probes with replacement, the same draw for
        both systems of a pair).
    confidence_level : float, default 0.95
        Level of the pointwise intervals and of the simultaneous band.
    seed : int or numpy.random.Generator, optional
        Seed of the replicates.
    max_rank : int, optional
        Last rank (default: as :func:`cmc`).
    common_probes : bool, default False
        As in :func:`compare_identification`.
    {column_args}

    Returns
    -------
    Dataset
        Dimensions ``(*by, pair, rank)``; coordinates ``system_a`` and ``system_b`` over
        ``pair`` (every unordered pair in order of first appearance), ``rank``, and the
        scalars ``confidence_level`` and ``n_resamples``.  Data variables over
        ``(*by, pair, rank)``: ``estimate`` (CMC_A − CMC_B), ``ci_low``/``ci_high`` (the
        pointwise percentile interval at each rank), ``band_low``/``band_high`` (a
        simultaneous band over all ranks); ``n`` (aligned mated probes) over
        ``(*by, pair)``.  A pair missing in a ``by`` group is NaN.

    Raises
    ------
    SchemaError, ValueError
        As :func:`compare_identification` and :func:`cmc`.

    See Also
    --------
    compare_identification : tests at one rank, with adjusted p-values.

    Notes
    -----
    The band is the studentized max-|t| (sup-t) band: with :math:`\hat d_r` the
    difference at rank :math:`r`, :math:`\hat\sigma_r` the standard deviation of its
    replicates and :math:`c` the ``confidence_level`` quantile of
    :math:`\max_r |d^*_r - \hat d_r| / \hat\sigma_r` over the replicates, the band is
    :math:`\hat d_r \pm c\,\hat\sigma_r` (ranks where the difference never varies get
    :math:`\hat d_r`).  It covers the whole curve at once with the stated level, so a
    difference outside it at any rank is significant without a multiplicity correction;
    the pointwise intervals are narrower but hold for one rank at a time.  Memory:
    ``n_resamples × max_rank`` floats per pair.

    References
    ----------
    Montiel Olea, J. L., & Plagborg-Møller, M. (2019). Simultaneous confidence bands:
    Theory, implementation, and an application to SVARs. *Journal of Applied
    Econometrics, 34*\(1), 1–17.

    Examples
    --------
    >>> from pandas_biosig.identification import cmc_difference, example_search
    >>> ds = cmc_difference(example_search(), n_resamples=300, seed=0, max_rank=10)
    >>> pair = ds.isel(pair=2)  # cnn vs lbp
    >>> str(pair.system_a.item()), str(pair.system_b.item())
    ('cnn', 'lbp')
    >>> bool((pair.band_low.sel(rank=1) > 0).item())
    True
    """
    n_resamples = _check_count(n_resamples, "n_resamples", positive=True)
    level = _check_confidence_level(confidence_level)
    if max_rank is not None:
        max_rank = _check_count(max_rank, "max_rank", positive=True)
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    systems = list(dict.fromkeys(g.system for g in s.groups))
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(found=systems))
    for g in s.groups:
        _require_mated(s, g, "the CMC")
    r = max(_largest_rank(g) for g in s.groups) if max_rank is None else max_rank
    rng = np.random.default_rng(seed)
    pairs = list(combinations(systems, 2))
    families = _families(s)
    keys, values = [], []
    for fam_key, fam in families.items():
        for i, (a, b) in enumerate(pairs):
            if a not in fam or b not in fam:
                continue
            ra, rb = _aligned_ranks(s, fam[a], fam[b], common_probes=common_probes)
            est = (_k.cmc_counts(ra, r) - _k.cmc_counts(rb, r)) / ra.size
            reps = _k.cmc_difference_replicates(ra, rb, r, n_resamples, rng)
            keys.append((*fam_key, i))
            values.append((est, *_bands(est, reps, level), ra.size))
    grid = _Grid(s.by, keys, last="pair", values=range(len(pairs)))
    dims = grid.dims
    names = ["estimate", "ci_low", "ci_high", "band_low", "band_high"]
    long_names = [
        "difference of the CMC curves (A - B)",
        "pointwise bootstrap interval, lower bound",
        "pointwise bootstrap interval, upper bound",
        "simultaneous bootstrap band, lower bound",
        "simultaneous bootstrap band, upper bound",
    ]
    data_vars = {
        name: _var([*dims, "rank"], grid.array([v[j] for v in values], (r,)), long, "1")
        for j, (name, long) in enumerate(zip(names, long_names, strict=True))
    }
    data_vars["n"] = _var(dims, grid.array([v[-1] for v in values], dtype=np.int64),
                          "mated probes ranked by both systems", "1")
    attrs = _attrs(s, "cmc_difference")
    attrs["band"] = "studentized max-|t| (sup-t) over ranks; intervals: percentile"
    return xr.Dataset(
        data_vars,
        coords={
            **{d: grid.coords[d] for d in s.by},
            "pair": np.arange(len(pairs)),
            "system_a": ("pair", [p[0] for p in pairs]),
            "system_b": ("pair", [p[1] for p in pairs]),
            "rank": np.arange(1, r + 1),
            "confidence_level": level,
            "n_resamples": n_resamples,
        },
        attrs=attrs,
    )


def _bands(est: np.ndarray, reps: np.ndarray, level: float):
    """Pointwise percentile interval and sup-t band of bootstrap replicates."""
    alpha = 1.0 - level
    low, high = np.quantile(reps, [alpha / 2, 1 - alpha / 2], axis=0)
    se = reps.std(axis=0, ddof=1) if reps.shape[0] > 1 else np.zeros(est.size)
    varies = se > 0
    if varies.any():
        t = np.abs(reps[:, varies] - est[varies]) / se[varies]
        c = float(np.quantile(t.max(axis=1), level))
    else:
        c = 0.0
    half = np.where(varies, c * se, 0.0)
    return low, high, est - half, est + half


# --------------------------------------------------------------------------- readers


def _source_name(source) -> str:
    if isinstance(source, str | os.PathLike):
        return str(source)
    return getattr(source, "name", type(source).__name__)


def _system_name(source, system) -> Hashable:
    if system is not None:
        return system
    if isinstance(source, str | os.PathLike):
        return Path(source).stem
    name = getattr(source, "name", None)
    return Path(name).stem if isinstance(name, str) else "system"


def _source_text(source, path: str, max_bytes: int) -> str:
    """The text of a local file (decompressed, bounded) or of a file-like object (bounded).

    A string is always a local path: it is never downloaded.
    """
    from . import io as _io

    max_bytes = _io._check_max_bytes(max_bytes)
    if isinstance(source, str | os.PathLike):
        blobs = _io._read_blobs(source, None, max_bytes)
        if len(blobs) != 1:
            raise _io.ScoreFileError(_io.ERROR_TABLE_MEMBERS.format(path=path, n=len(blobs)))
        return _io._decode(blobs[0][1], blobs[0][0]).text
    read = getattr(source, "read", None)
    if read is None:
        raise TypeError(_io.ERROR_PATH_TYPE.format(type=type(source).__name__))
    data = read(max_bytes + 1)
    if len(data) > max_bytes:
        raise _io.FileTooLargeError(_io.ERROR_TOO_LARGE.format(source=path, max_bytes=max_bytes))
    if isinstance(data, bytes | bytearray):
        return _io._decode(bytes(data), path).text
    if not isinstance(data, str):
        raise TypeError(_io.ERROR_PATH_TYPE.format(type=type(source).__name__))
    return data


def _read_fields(source, path: str, *, usecols=None, max_bytes: int) -> pd.DataFrame:
    """Whitespace-separated text fields as strings; '#' starts a comment."""
    text = _source_text(source, path, max_bytes)
    try:
        fields = pd.read_csv(
            io.StringIO(text), sep=r"\s+", header=None, comment="#", dtype=str,
            usecols=usecols, skip_blank_lines=True, engine="c", na_filter=False,
        )
        # a score "NaN" is a value; only the fields a short line lacks are missing
        return fields.mask(fields == "")
    except pd.errors.EmptyDataError:
        return pd.DataFrame(dtype=str)
    except (pd.errors.ParserError, ValueError) as exc:  # ragged lines, too few columns
        raise SchemaError(ERROR_FILE_LAYOUT.format(path=path, detail=exc)) from None


def _numeric(fields: pd.Series, path: str) -> np.ndarray:
    from .io import SCORE_PATTERN

    bad = ~fields.str.fullmatch(SCORE_PATTERN).fillna(False).to_numpy(dtype=bool)
    if bad.any():
        examples = fields[bad].tolist()[:3]
        raise SchemaError(ERROR_FILE_SCORES.format(path=path, n=int(bad.sum()), examples=examples))
    return fields.to_numpy(dtype=object).astype(np.float64)


def read_bob_identification(
    source: str | os.PathLike | Any,
    /,
    *,
    system: Hashable | None = None,
    columns: Literal[4, 5] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    r"""Read a bob score file (4 or 5 columns) as a tidy search table.

    Parameters
    ----------
    source : path or file-like
        A text score file with one comparison per line: ``claimed_id real_id test_label
        score`` (4 columns) or ``claimed_id model_label real_id test_label score`` (5
        columns), separated by white space.  Blank lines and lines starting with ``#``
        are skipped (as bob does; note that ``#`` starts a comment anywhere on a line).
    system : hashable, optional
        The value of the ``system`` column (default: the file name without suffix).
    columns : {4, 5}, optional
        The expected layout (default: from the first line).
    max_bytes : int, default 1 GiB
        The most bytes read from ``source`` (after decompression of a gzip, bzip2 or xz
        file); past it :class:`~pandas_biosig.io.FileTooLargeError`.

    Returns
    -------
    DataFrame
        One row per line with columns ``system``, ``probe`` (``test_label``),
        ``reference`` (``claimed_id`` for 4 columns, ``model_label`` for 5), ``score``
        (float), ``mate`` (bool: ``claimed_id == real_id``, bob's rule), ``probe_subject``
        (``real_id``) and ``reference_subject`` (``claimed_id``), the text columns as
        categoricals.  A probe without any line whose identities agree is an open-set
        probe.

    Raises
    ------
    SchemaError
        A line with the wrong number of fields (:data:`ERROR_FILE_LAYOUT`), a layout other
        than 4 or 5 columns or than ``columns`` (:data:`ERROR_FILE_COLUMNS`), or a score
        that is not a number (:data:`ERROR_FILE_SCORES`).

    See Also
    --------
    read_pyeer_cmc : pyeer's identification files.

    Notes
    -----
    bob.measure's ``cmc_four_column`` / ``cmc_five_column`` group the lines by
    ``test_label`` and split each probe's scores into positives (``claimed_id ==
    real_id``) and negatives, as here.  A gzip, bzip2 or xz compressed file is read
    (decompressed as it streams, up to ``max_bytes``), and so is a tar archive of one file.

    Examples
    --------
    >>> import io
    >>> from pandas_biosig.identification import read_bob_identification, cmc
    >>> text = '''# claimed_id real_id test_label score
    ... alice alice p1.png 0.9
    ... bob   alice p1.png 0.4
    ... alice bob   p2.png 0.7
    ... bob   bob   p2.png 0.6
    ... '''
    >>> table = read_bob_identification(io.StringIO(text), system="demo")
    >>> table[["system", "probe", "reference", "score", "mate"]]
      system   probe reference  score   mate
    0   demo  p1.png     alice    0.9   True
    1   demo  p1.png       bob    0.4  False
    2   demo  p2.png     alice    0.7  False
    3   demo  p2.png       bob    0.6   True
    >>> cmc(table).cmc.values
    array([[0.5, 1. ]])
    """
    path = _source_name(source)
    if columns is not None and columns not in _BOB_LAYOUTS:
        raise SchemaError(ERROR_FILE_COLUMNS.format(path=path, found=columns, layout=_BOB_LAYOUT_TEXT))
    fields = _read_fields(source, path, max_bytes=max_bytes)
    found = fields.shape[1]
    if found not in _BOB_LAYOUTS or (columns is not None and found != columns):
        layout = _BOB_LAYOUT_TEXT if columns is None else f"expected {columns}"
        raise SchemaError(ERROR_FILE_COLUMNS.format(path=path, found=found, layout=layout))
    fields.columns = _BOB_LAYOUTS[found]
    short = fields.isna().any(axis=1).to_numpy()
    if short.any():
        line = fields[short].iloc[0].dropna().tolist()
        raise SchemaError(
            ERROR_FILE_LAYOUT.format(
                path=path,
                detail=f"{int(short.sum())} line(s) have fewer than {found} fields, e.g. {line}",
            )
        )
    reference = fields["model_label"] if found == 5 else fields["claimed_id"]
    return pd.DataFrame(
        {
            "system": pd.Categorical([_system_name(source, system)] * len(fields)),
            "probe": fields["test_label"].astype("category"),
            "reference": reference.astype("category"),
            "score": _numeric(fields["score"], path),
            "mate": (fields["claimed_id"] == fields["real_id"]).to_numpy(dtype=bool),
            "probe_subject": fields["real_id"].astype("category"),
            "reference_subject": fields["claimed_id"].astype("category"),
        }
    )


def read_pyeer_cmc(
    scores: str | os.PathLike | Any,
    true_pairs: str | os.PathLike | Any,
    /,
    *,
    system: Hashable | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    r"""Read pyeer's identification files (``getcmcinf``) as a tidy search table.

    Parameters
    ----------
    scores : path or file-like
        One comparison per line: ``query template score`` (further fields are ignored,
        as pyeer does).
    true_pairs : path or file-like
        One line per query: ``query true_template``.
    system : hashable, optional
        The value of the ``system`` column (default: the scores file name without
        suffix).
    max_bytes : int, default 1 GiB
        The most bytes read from each file (after decompression); past it
        :class:`~pandas_biosig.io.FileTooLargeError`.

    Returns
    -------
    DataFrame
        One row per score line with columns ``system``, ``probe`` (the query),
        ``reference`` (the template), ``score`` (float) and ``mate`` (bool: the pair is
        a true pair); the text columns are categoricals.

    Raises
    ------
    SchemaError
        A malformed line (:data:`ERROR_FILE_LAYOUT`) or a score that is not a number
        (:data:`ERROR_FILE_SCORES`).

    Warns
    -----
    BiosigWarning
        When true pairs are missing from the scores file (:data:`WARN_TRUE_PAIRS_UNSCORED`).

    Notes
    -----
    A query without a true pair, or whose true template it was not compared with, has no
    mate: it is an open-set probe (pyeer fails on the first and counts the second as
    never found).  pyeer ranks the templates with a stable sort, so ties are broken by
    file order; here ties count against the probe, so on tied scores the CMC can be
    lower than pyeer's.

    Examples
    --------
    >>> import io
    >>> from pandas_biosig.identification import read_pyeer_cmc, recognition_rate
    >>> scores = io.StringIO("q1 t1 0.9\nq1 t2 0.5\nq2 t1 0.8\nq2 t2 0.3\n")
    >>> pairs = io.StringIO("q1 t1\nq2 t2\n")
    >>> table = read_pyeer_cmc(scores, pairs, system="demo")
    >>> table.mate.tolist()
    [True, False, False, True]
    >>> recognition_rate(table).recognition_rate.tolist()
    [0.5]
    """
    path = _source_name(scores)
    fields = _read_fields(scores, path, usecols=[0, 1, 2], max_bytes=max_bytes)
    if fields.shape[1] != 3 or fields.isna().any(axis=None):
        raise SchemaError(
            ERROR_FILE_LAYOUT.format(path=path, detail="every line needs: query template score")
        )
    fields.columns = ["probe", "reference", "score"]
    pairs_path = _source_name(true_pairs)
    pairs = _read_fields(true_pairs, pairs_path, max_bytes=max_bytes)
    if pairs.shape[1] != 2 or pairs.isna().any(axis=None):
        raise SchemaError(
            ERROR_FILE_LAYOUT.format(path=pairs_path, detail="every line needs: query true_template")
        )
    true_index = pd.MultiIndex.from_arrays([pairs[0], pairs[1]])
    scored = pd.MultiIndex.from_arrays([fields["probe"], fields["reference"]])
    unscored = ~true_index.isin(scored)
    if unscored.any():
        warnings.warn(
            WARN_TRUE_PAIRS_UNSCORED.format(
                path=pairs_path, n=int(unscored.sum()), examples=list(true_index[unscored][:3])
            ),
            BiosigWarning,
            stacklevel=2,
        )
    return pd.DataFrame(
        {
            "system": pd.Categorical([_system_name(scores, system)] * len(fields)),
            "probe": fields["probe"].astype("category"),
            "reference": fields["reference"].astype("category"),
            "score": _numeric(fields["score"], path),
            "mate": scored.isin(true_index),
        }
    )


# --------------------------------------------------------------------------- example data

#: The example systems: (name, mate score shift, weight of the shared comparison
#: difficulty, weight of the shared probe quality).  Large shared weights make systems
#: correlated, as two variants of one network would be.
_EXAMPLE_SYSTEMS = (
    ("cnn", 3.6, 0.75, 0.45),
    ("cnn_aug", 3.7, 0.75, 0.45),
    ("gmm", 3.1, 0.45, 0.40),
    ("lbp", 2.5, 0.30, 0.35),
)


def example_search(
    seed: int = 0,
    *,
    n_references: int = 60,
    n_folds: int = 5,
    mated_per_fold: int = 20,
    unmated_per_fold: int = 5,
) -> pd.DataFrame:
    """A small synthetic identification experiment in the tidy search schema.

    Four systems (``cnn``, ``cnn_aug``, ``gmm``, ``lbp``) search the *same* probes against
    the same gallery of ``n_references`` enrolled identities (one reference each), in
    ``n_folds`` folds of ``mated_per_fold`` mated probes (their identity is enrolled) and
    ``unmated_per_fold`` open-set probes (it is not).  Scores share a per-comparison
    difficulty and a per-probe quality across systems (so the systems are correlated,
    ``cnn`` and ``cnn_aug`` strongly) and are rounded to 2 decimals, so some scores tie.

    Parameters
    ----------
    seed : int
        Seed of the ``numpy.random.Generator``; the table is a pure function of the
        arguments.
    n_references : int
        Gallery size.
    n_folds, mated_per_fold, unmated_per_fold : int
        Folds and probes per fold.

    Returns
    -------
    DataFrame
        Columns ``system`` (str), ``fold`` (int, 1..n_folds), ``probe`` (str, unique over
        folds), ``reference`` (str), ``mate`` (bool), ``score`` (float; higher = more
        similar), one row per (system, probe, reference), systems in the order above.

    Examples
    --------
    >>> from pandas_biosig.identification import example_search
    >>> search = example_search()
    >>> search.groupby("system", sort=False).agg(
    ...     probes=("probe", "nunique"), rows=("score", "size"), mates=("mate", "sum"))
             probes  rows  mates
    system
    cnn         125  7500    100
    cnn_aug     125  7500    100
    gmm         125  7500    100
    lbp         125  7500    100
    """
    rng = np.random.default_rng(seed)
    per_fold = mated_per_fold + unmated_per_fold
    n_probes = n_folds * per_fold
    fold = np.repeat(np.arange(1, n_folds + 1), per_fold)
    mated = np.tile(np.r_[np.ones(mated_per_fold, bool), np.zeros(unmated_per_fold, bool)], n_folds)
    identity = np.where(
        mated,
        np.concatenate(
            [rng.choice(n_references, per_fold, replace=False) for _ in range(n_folds)]
        ),
        -1,
    )
    probes = np.array([f"f{f}-p{i:03d}" for f, i in zip(fold, range(n_probes), strict=True)])
    references = np.array([f"g{j:03d}" for j in range(n_references)])
    is_mate = identity[:, None] == np.arange(n_references)[None, :]
    difficulty = rng.standard_normal((n_probes, n_references))
    quality = rng.standard_normal(n_probes)[:, None]
    frames = []
    for name, shift, w_shared, w_quality in _EXAMPLE_SYSTEMS:
        w_own = np.sqrt(max(1.0 - w_shared**2, 0.05))
        noise = w_shared * difficulty + w_own * rng.standard_normal((n_probes, n_references))
        score = noise + np.where(is_mate, shift + w_quality * quality, 0.0)
        frames.append(
            pd.DataFrame(
                {
                    "system": name,
                    "fold": np.repeat(fold, n_references),
                    "probe": np.repeat(probes, n_references),
                    "reference": np.tile(references, n_probes),
                    "mate": is_mate.ravel(),
                    "score": np.round(score.ravel(), 2),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
