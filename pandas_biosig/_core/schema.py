"""The tidy trial schema: canonical column names, the label vocabulary and validation.

Everything that decides what a valid trial table is lives here, as data where it can be
(the label vocabulary, the orientation and non-finite policies), so that every public
function validates its input in exactly the same way.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .arrow_strings import all_equal, chunked, spelled_labels
from .object_runs import neighbour_changes
from .trial_groups import Layout, LazyGroups, duplicated_groups, integer_codes, layout_groups

__all__ = [
    "LABEL_VOCABULARY",
    "BiosigWarning",
    "Group",
    "SchemaError",
    "Trials",
    "check_columns",
    "check_option",
    "check_subjects",
    "combine_codes",
    "count_values",
    "validate_trials",
]

#: Label vocabulary (case-insensitive, surrounding white space ignored): value -> is genuine.
LABEL_VOCABULARY: dict[str, bool] = {
    "genuine": True,
    "impostor": False,
    "imposter": False,
    "target": True,
    "nontarget": False,
    "non-target": False,
    "non_target": False,
    "client": True,
    "mated": True,
    "non-mated": False,
    "nonmated": False,
    "non_mated": False,
    "positive": True,
    "negative": False,
    "true": True,
    "false": False,
    "1": True,
    "0": False,
}

#: Score orientations: the factor that turns a score into "higher means more genuine".
ORIENTATIONS = {"similarity": 1.0, "distance": -1.0}

#: What to do with NaN / ±inf scores.
NONFINITE_POLICIES = {
    "raise": "raise a SchemaError naming the rows",
    "drop": "remove those trials before computing anything",
    "reject": (
        "count them as failures to acquire, as bob.measure and ISO/IEC 19795-1 do: "
        "thresholds, curves and tests use the acquired (finite) scores, and error_rates "
        "reports FTA = failures / all trials, FAR = FMR(1 - FTA), FRR = FTA + FNMR(1 - FTA)"
    ),
}

ERROR_NOT_A_FRAME = "expected a pandas DataFrame of trials, got {type}"
ERROR_EMPTY = "the trial table is empty: there are no trials to evaluate"
ERROR_MISSING_COLUMNS = "missing column(s) {missing}; the table has columns {found}"
ERROR_UNKNOWN_LABELS = (
    "column {column!r} holds label value(s) {values} outside the known vocabulary; "
    "genuine: {genuine}; impostor: {impostor}. Example rows:\n{rows}"
)
ERROR_MISSING_LABELS = "column {column!r} has {n} missing label(s). Example rows:\n{rows}"
ERROR_SCORE_DTYPE = "column {column!r} must hold numbers, got dtype {dtype}"
ERROR_SCORE_INEXACT = (
    "column {column!r} holds {n} integer score(s) beyond ±2**53, e.g. {examples}, which "
    "float64 cannot represent exactly (nearby scores would become ties); rescale them"
)
ERROR_SCORE_PRECISION = (
    "column {column!r} (dtype {dtype}) holds {n} score(s) that float64 cannot represent "
    "exactly, e.g. {examples}"
)
ERROR_MULTIINDEX_COLUMNS = (
    "the table has MultiIndex columns {found}; flatten them to one level of strings "
    "(e.g. data.columns = ['_'.join(map(str, c)) for c in data.columns])"
)
ERROR_DUPLICATE_COLUMNS = (
    "the table has duplicate column label(s) {duplicated}; each column needs its own name "
    "(its columns: {found})"
)
ERROR_COLUMN_NAME = "{name}={value!r}: a column name must be a string"
ERROR_MISSING_TRIALS = (
    "column {column!r} has {n} missing trial id(s) (NaN/None); a trial id pairs a trial "
    "across systems, so each trial needs one. Example rows:\n{rows}"
)
ERROR_NONFINITE = (
    "column {column!r} has {n} non-finite score(s) (NaN or inf). Pass nonfinite='drop' to "
    "remove them or nonfinite='reject' to count them as failures to acquire. Example rows:\n{rows}"
)
ERROR_ONE_CLASS = (
    "{where} has {n_genuine} genuine and {n_impostor} impostor trial(s); error rates need "
    "both classes"
)
ERROR_DUPLICATE_TRIALS = (
    "{where} has {n} duplicate trial id(s) in column {column!r}, e.g. {examples}; each "
    "(system, trial) must appear once. Example rows:\n{rows}"
)
ERROR_COUNT_DTYPE = (
    "column {column!r} (count=) must hold non-negative integers, the number of identical "
    "trials each row stands for; got dtype {dtype}"
)
ERROR_COUNT_VALUE = (
    "column {column!r} (count=) holds {n} value(s) that are not non-negative integers "
    "(negative, fractional or missing), e.g. {examples}. Example rows:\n{rows}"
)
ERROR_COUNT_TOTAL = (
    "column {column!r} (count=) adds up to {total:.4g} trials, beyond the 2**53 that "
    "float64 rates can count exactly"
)
ERROR_OPTION = "{name}={value!r} is not one of {allowed}"
ERROR_SPLIT_VALUE = "{name}={value!r}: column {column!r} has only the values {found}"
ERROR_NO_SPLIT = (
    "{name}={value!r} needs a split column, but column {column!r} is not in the table "
    "(its columns: {found}); pass split='<column name>'"
)


ERROR_SUBJECT = (
    "{option} needs a subject column; column {column!r} is not in the table (its columns: "
    "{found})"
)
ERROR_SUBJECT_MISSING = (
    "{n} trial(s){where} have no subject id (rows at positions {rows}); the intervals and "
    "tests that account for subjects draw or weigh whole subjects, so every trial needs one: "
    "fill them in, drop those trials, or leave the subject column out to treat the trials "
    "as independent"
)
ERROR_ONE_CLUSTER = (
    "{where} holds trials of {n} subject(s); the intervals and tests that account for "
    "subjects need at least two subjects to resample or to weigh (leave the subject column "
    "out, or pass resample='label' where it is offered, to treat the trials as independent)"
)


class SchemaError(ValueError):
    """A trial table does not follow the tidy schema (missing columns, bad values...)."""

    __module__ = "pandas_biosig"  # its public home, shown in tracebacks and reprs


class BiosigWarning(UserWarning):
    """A result is valid but may not mean what the caller expects."""

    __module__ = "pandas_biosig"  # its public home, shown in tracebacks and reprs


def check_option(value: Any, allowed: Sequence[Any] | dict, name: str) -> Any:
    """Return ``value`` if it is one of ``allowed``, else raise ``ValueError``."""
    if value not in allowed:
        raise ValueError(ERROR_OPTION.format(name=name, value=value, allowed=list(allowed)))
    return value


def check_subjects(
    subject: np.ndarray | None, where: str = "the table", *, rows: np.ndarray | None = None,
    column: str | None = "subject", found: Sequence = (), option: str = "resample='subject'",
) -> tuple[np.ndarray, int]:
    """Integer codes of the subject ids and how many subjects there are: the one subject
    rule of every kind of table.

    No subject column (:data:`ERROR_SUBJECT`, naming the ``option`` that needs it),
    missing ids (:data:`ERROR_SUBJECT_MISSING`, naming their positions, ``rows[i]`` for
    the i-th id when given) and fewer than two subjects (:data:`ERROR_ONE_CLUSTER`) are
    errors (:class:`SchemaError`).
    """
    if subject is None:
        raise SchemaError(ERROR_SUBJECT.format(option=option, column=column, found=list(found)))
    codes, uniques = pd.factorize(subject, use_na_sentinel=True)
    if (codes < 0).any():
        pos = np.flatnonzero(codes < 0)
        at = pos if rows is None else np.asarray(rows)[pos]
        raise SchemaError(ERROR_SUBJECT_MISSING.format(
            n=pos.size, where=f" of {where}", rows=[int(r) for r in at[:10]]))
    if len(uniques) < 2:
        raise SchemaError(ERROR_ONE_CLUSTER.format(where=where, n=len(uniques)))
    return codes, len(uniques)


def check_columns(data: pd.DataFrame) -> None:
    """Refuse MultiIndex columns and duplicate column labels (``data[name]`` would not be
    one column)."""
    if isinstance(data.columns, pd.MultiIndex):
        raise SchemaError(ERROR_MULTIINDEX_COLUMNS.format(found=list(data.columns)[:10]))
    if data.columns.has_duplicates:
        duplicated = list(dict.fromkeys(data.columns[data.columns.duplicated()]))
        raise SchemaError(
            ERROR_DUPLICATE_COLUMNS.format(duplicated=duplicated, found=list(data.columns))
        )


def check_column_names(**names: Any) -> None:
    """Each column argument (or each entry of a list of them) is a string."""
    for name, value in names.items():
        for v in value if isinstance(value, list | tuple) else (value,):
            if v is not None and not isinstance(v, str):
                raise SchemaError(ERROR_COLUMN_NAME.format(name=name, value=v))


def combine_codes(codes_list: Sequence[np.ndarray], sizes: Sequence[int], n: int) -> np.ndarray:
    """One int64 code per row for a key of several factorized columns.

    Codes order the rows as the tuples of per-column codes (lexicographically), so groups
    come out in the same order however they are numbered. The mixed-radix code is
    re-numbered densely (``np.unique``) whenever the next column would take it past
    2**62, so it cannot overflow whatever the number of columns and distinct values.
    """
    combined = None
    bound = 1
    for codes, size in zip(codes_list, sizes, strict=True):
        size = max(int(size), 1)
        if combined is None:  # the first column: its codes (one copy)
            combined = np.array(codes, dtype=np.int64)
            bound = size
            continue
        if bound * size >= 1 << 62:
            uniq, combined = np.unique(combined, return_inverse=True)
            combined = combined.reshape(-1).astype(np.int64)
            bound = max(int(uniq.size), 1)
        if size > 1:  # a column of one value adds nothing
            combined *= size
            combined += codes
        bound *= size
    return np.zeros(n, dtype=np.int64) if combined is None else combined


def example_rows(data: pd.DataFrame, positions: np.ndarray, limit: int = 5) -> str:
    return data.iloc[np.asarray(positions[:limit])].to_string()


@dataclass(frozen=True, eq=False)
class Group:
    """The trials of one system (within one ``by`` group and one split), validated.

    ``scores`` are oriented (higher = more genuine) float64 and finite: under
    ``nonfinite='reject'`` the failures to acquire are not among them but counted in
    ``fta``, ``(impostor failures, genuine failures)``. ``subject`` holds each trial's
    (probe's) subject id and ``reference`` the reference's, when the table has those
    columns; ``count`` how many identical trials each row stands for (None: one each).
    """

    key: tuple
    scores: np.ndarray
    genuine: np.ndarray
    trial: np.ndarray
    rows: np.ndarray | None
    subject: np.ndarray | None = None
    fta: tuple[int, int] = (0, 0)
    reference: np.ndarray | None = None
    count: np.ndarray | None = None

    @property
    def system(self) -> Hashable:
        return self.key[-2]

    @property
    def split(self) -> Hashable:
        return self.key[-1]

    @property
    def n_genuine(self) -> int:
        if self.count is not None:
            return int(self.count[self.genuine].sum())
        return int(np.count_nonzero(self.genuine))

    @property
    def n_impostor(self) -> int:
        if self.count is not None:
            return int(self.count[~self.genuine].sum())
        return int(self.genuine.size - np.count_nonzero(self.genuine))


@dataclass(frozen=True, eq=False)
class Trials:
    """A validated trial table, split into groups keyed by ``(*by, system, split)``."""

    groups: Sequence[Group]
    by: tuple[str, ...]
    split_column: str | None
    orientation: str
    columns: dict
    layout: Layout | None = None  # every group's trials, in group order (in memory)

    @property
    def key_names(self) -> list[str]:
        return [*self.by, "system", "split"]

    @property
    def keys(self) -> list[tuple]:
        """The key of each group, in order (without building the groups)."""
        return self.layout.keys if self.layout is not None else [g.key for g in self.groups]

    @property
    def splits(self) -> list:
        """The split of each group, in order (without building the groups)."""
        if self.layout is not None:
            return self.layout.key_columns[-1]
        return [g.split for g in self.groups]

    def key_frame(self, groups: Sequence[Group] | None = None) -> pd.DataFrame:
        groups = self.groups if groups is None else groups
        return pd.DataFrame([g.key for g in groups], columns=self.key_names)


def genuine_from_labels(data: pd.DataFrame, column: str) -> np.ndarray:
    """Map the label column to a boolean 'is genuine' array through the vocabulary."""
    series = data[column]
    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype.kind == "b":
        return series.to_numpy()
    if isinstance(dtype, np.dtype) and dtype.kind in "iuf":
        values = series.to_numpy()
        if dtype.kind == "f" and np.isnan(values).any():
            bad = np.flatnonzero(np.isnan(values))
            raise SchemaError(
                ERROR_MISSING_LABELS.format(
                    column=column, n=bad.size, rows=example_rows(data, bad)
                )
            )
        if values.min() >= 0 and values.max() <= 1:
            genuine = values == 1
            if dtype.kind != "f" or np.all(genuine | (values == 0)):
                return genuine
        bad_mask = (values != 0) & (values != 1)
        bad_values = pd.unique(values[bad_mask])
        _raise_unknown_labels(data, column, bad_values, np.flatnonzero(bad_mask))
    genuine = _arrow_labels(series)
    if genuine is not None:
        return genuine
    codes, uniques = pd.factorize(series, sort=False, use_na_sentinel=True)
    if (codes < 0).any():
        bad = np.flatnonzero(codes < 0)
        raise SchemaError(
            ERROR_MISSING_LABELS.format(column=column, n=bad.size, rows=example_rows(data, bad))
        )
    mapped = np.array([_lookup_label(u) for u in uniques], dtype=object)
    unknown = np.array([m is None for m in mapped], dtype=bool)
    if unknown.any():
        bad_codes = np.flatnonzero(unknown)
        _raise_unknown_labels(
            data, column, [uniques[i] for i in bad_codes.tolist()],
            np.flatnonzero(np.isin(codes, bad_codes))
        )
    return mapped.astype(bool)[codes]


def _arrow_labels(series: pd.Series) -> np.ndarray | None:
    """'Is genuine' of a pyarrow string label column whose every value is spelled as in
    :data:`LABEL_VOCABULARY`, or None (then the general path maps it or names the error).

    One vectorized lookup of each string in the vocabulary costs about half of hashing
    the column (factorize) and mapping its distinct values.
    """
    dtype = series.dtype
    if not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"):
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = chunked(series)
    genuine = spelled_labels(arr, LABEL_VOCABULARY)
    if genuine is not None:
        return genuine
    where = pc.index_in(arr, value_set=pa.array(list(LABEL_VOCABULARY), type=arr.type))
    if where.null_count:  # missing, or spelled otherwise (case, white space), or unknown
        return None
    return _VOCABULARY_GENUINE[where.to_numpy(zero_copy_only=False)]


_VOCABULARY_GENUINE = np.array(list(LABEL_VOCABULARY.values()), dtype=bool)


def _lookup_label(value: Any) -> bool | None:
    if isinstance(value, bool | np.bool_):
        return bool(value)
    if isinstance(value, int | np.integer | float | np.floating):
        return {0: False, 1: True}.get(int(value)) if value in (0, 1) else None
    if isinstance(value, str):
        return LABEL_VOCABULARY.get(value.strip().lower())
    return None


def _raise_unknown_labels(data, column, values, positions) -> None:
    genuine = sorted(k for k, v in LABEL_VOCABULARY.items() if v)
    impostor = sorted(k for k, v in LABEL_VOCABULARY.items() if not v)
    shown = [scalar_value(v) for v in list(values)[:10]]
    raise SchemaError(
        ERROR_UNKNOWN_LABELS.format(
            column=column,
            values=shown,
            genuine=genuine,
            impostor=impostor,
            rows=example_rows(data, positions),
        )
    )


def numeric_scores(data: pd.DataFrame, column: str) -> np.ndarray:
    """Float64 scores; a dtype float64 cannot hold exactly is an error, not a rounding."""
    series = data[column]
    dtype = series.dtype
    kind = getattr(dtype, "kind", "O")
    if (
        not pd.api.types.is_numeric_dtype(dtype)
        or pd.api.types.is_bool_dtype(dtype)
        or kind not in "iuf"
    ):
        raise SchemaError(ERROR_SCORE_DTYPE.format(column=column, dtype=dtype))
    values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    if kind in "iu":  # compared as integers: 2**53 + 1 rounds to 2**53 as a float
        big = ((series > 2**53) | (series < -(2**53))).to_numpy(dtype=bool, na_value=False)
        if big.any():
            examples = [scalar_value(v) for v in series[big].head(3)]
            raise SchemaError(
                ERROR_SCORE_INEXACT.format(column=column, n=int(big.sum()), examples=examples)
            )
    elif isinstance(dtype, np.dtype) and dtype.itemsize > 8:  # longdouble
        raw = series.to_numpy()
        inexact = (values.astype(raw.dtype) != raw) & ~np.isnan(raw)
        if inexact.any():
            raise SchemaError(
                ERROR_SCORE_PRECISION.format(
                    column=column, dtype=dtype, n=int(inexact.sum()),
                    examples=[str(v) for v in raw[inexact][:3]],
                )
            )
    return values


def _has_duplicates(values: np.ndarray) -> bool:
    if values.dtype.kind in "iuf" and values.size > 1 and _increasing(values):
        return False  # strictly increasing: no duplicate
    return pd.Index(values).has_duplicates


def _increasing(values: np.ndarray, block: int = 1 << 16) -> bool:
    """Whether ``values`` strictly increase, block by block (a small mask, early exit)."""
    for lo in range(0, values.size - 1, block):
        hi = min(lo + block, values.size - 1)
        if not np.greater(values[lo + 1 : hi + 1], values[lo:hi]).all():
            return False
    return True


def validate_trials(
    data: pd.DataFrame,
    *,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    by: str | Sequence[str] | None = None,
    orientation: str = "similarity",
    nonfinite: str = "raise",
    reference_subject: str | None = "reference_subject",
    count: str | None = None,
) -> Trials:
    """Validate a tidy trial table and split it into per-system groups.

    The input is never modified. ``split``, ``subject`` and ``reference_subject`` are used
    when present; they are required only when the caller names a column other than the
    default. ``count`` names a column of frequency weights: a row stands for that many
    identical trials, and a row counted 0 is no trial at all (it is left out before any
    other check).

    The steps, in the order their errors are raised: the arguments and columns
    (:func:`_check_table`), the counts (:func:`_counts`), the labels, the scores and the
    non-finite policy (:func:`_finite_scores`), the trial ids (:func:`_trial_ids`), then
    the groups (one class only, duplicate trial ids, the first failing group named)
    once the key columns have split the rows (:func:`_layout`).
    """
    by_cols, split_col, subject_col, reference_col = _check_table(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
        reference_subject=reference_subject, count=count,
    )
    counts = None
    if count is not None:
        data, counts = _counts(data, count)
    genuine = genuine_from_labels(data, label)
    scores, keep = _finite_scores(data, score, nonfinite)
    if orientation == "distance":
        scores = -scores
    key_cols = [*by_cols, system] + ([split_col] if split_col is not None else [])
    codes_list, uniques_list = [], []
    for col in key_cols:
        codes, uniques = factorize_keys(data[col])
        codes_list.append(codes)
        uniques_list.append(uniques)
    trial_values = _trial_ids(data, trial)
    subject_values = data[subject_col].to_numpy() if subject_col is not None else None
    reference_values = data[reference_col].to_numpy() if reference_col is not None else None
    layout = _layout(codes_list, uniques_list, keep, genuine, nonfinite, scores=scores,
                     trial=trial_values, counts=counts, subject=subject_values,
                     reference=reference_values, split=split_col is not None)
    _check_groups(data, layout, trial, by_cols, split_col)
    # groups in the order of the (by..., system, split) codes: first appearance within
    # each column (categories in their order)
    return Trials(
        groups=LazyGroups(layout, Group),
        by=by_cols,
        split_column=split_col,
        orientation=orientation,
        columns={"found": list(data.columns), "trial": trial, "system": system, "label": label,
                 "subject": subject, "reference_subject": reference_subject},
        layout=layout,
    )


def _optional_column(data, name, default) -> str | None:
    """An optional column: None when not asked for or absent under its default name."""
    return name if name is not None and (name in data.columns or name != default) else None


def _layout(codes_list, uniques_list, keep, genuine, nonfinite, **arrays) -> Layout:
    """The groups' :class:`~pandas_biosig._core.trial_groups.Layout`; a table whose every
    score failed is empty."""
    n = genuine.size
    combined = None
    if not (len(codes_list) == 1 and len(uniques_list[0]) == 1 and keep is None):
        combined = combine_codes(codes_list, [len(u) for u in uniques_list], n)
    layout = layout_groups(combined, codes_list, uniques_list, n=n, keep=keep,
                           genuine=genuine, nonfinite=nonfinite, **arrays)
    if layout.size == 0:
        raise SchemaError(ERROR_EMPTY)
    return layout


def _check_groups(data, layout: Layout, trial_col, by_cols, split_col) -> None:
    """Raise the error of the first group (in group order) holding one class only or
    a duplicate trial id, as :func:`_check_group` words it."""
    gen, imp = layout.class_weights()
    bad = (gen == 0) | (imp == 0)
    bad |= duplicated_groups(layout)
    if bad.any():
        first = int(np.argmax(bad))
        group = layout.group(first, Group, layout.ordered(layout.subject),
                             layout.ordered(layout.reference))
        _check_group(data, group, trial_col, by_cols, split_col)


def _counts(data: pd.DataFrame, column: str) -> tuple[pd.DataFrame, np.ndarray]:
    """The table without its rows counted 0, and the counts of the others (int64)."""
    counts = count_values(data, column)
    if counts.size and not counts.all():
        nonzero = np.flatnonzero(counts)
        if nonzero.size == 0:
            raise SchemaError(ERROR_EMPTY)
        return data.iloc[nonzero], counts[nonzero]
    return data, counts


def count_values(data: pd.DataFrame, column: str) -> np.ndarray:
    """The counts of column ``column`` (int64, one per row, zeros kept), checked: the
    dtype (:data:`ERROR_COUNT_DTYPE`), the values (:data:`ERROR_COUNT_VALUE`) and the
    total (:data:`ERROR_COUNT_TOTAL`)."""
    series = data[column]
    dtype = series.dtype
    kind = getattr(dtype, "kind", "O")
    if pd.api.types.is_bool_dtype(dtype) or not pd.api.types.is_numeric_dtype(dtype) \
            or kind not in "iuf":
        raise SchemaError(ERROR_COUNT_DTYPE.format(column=column, dtype=dtype))
    values = series.to_numpy(dtype=np.float64, na_value=np.nan)
    wrong = ~(np.isfinite(values) & (values >= 0) & (values == np.floor(values)))
    if kind in "iu":
        wrong = series.to_numpy(dtype=np.float64, na_value=-1.0) < 0
    if wrong.any():
        bad = np.flatnonzero(wrong)
        raise SchemaError(ERROR_COUNT_VALUE.format(
            column=column, n=bad.size, examples=[scalar_value(v) for v in series.iloc[bad[:3]]],
            rows=example_rows(data, bad)))
    if float(values.sum()) >= 2.0**53:
        raise SchemaError(ERROR_COUNT_TOTAL.format(column=column, total=float(values.sum())))
    return values.astype(np.int64) if kind == "f" else series.to_numpy(dtype=np.int64)


def _check_table(
    data, *, system, trial, label, score, split, subject, by, orientation, nonfinite,
    reference_subject=None, count=None,
) -> tuple[tuple[str, ...], str | None, str | None, str | None]:
    """The arguments and the columns: ``(by columns, split column, subject column,
    reference subject column)``, the
    optional ones None when absent under their default name; errors for a non-frame, an
    unknown option, a non-string column name, bad column labels, missing columns and an
    empty table, in that order."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(data).__name__))
    check_option(orientation, ORIENTATIONS, "orientation")
    check_option(nonfinite, NONFINITE_POLICIES, "nonfinite")
    by_cols = by_columns(by)
    check_column_names(
        system=system, trial=trial, label=label, score=score, split=split, subject=subject,
        by=list(by_cols), reference_subject=reference_subject, count=count,
    )
    check_columns(data)
    required = [*by_cols, system, trial, label, score]
    split_col = _optional_column(data, split, "split")
    subject_col = _optional_column(data, subject, "subject")
    reference_col = _optional_column(data, reference_subject, "reference_subject")
    for optional in (split_col, subject_col, reference_col, count):
        if optional is not None:
            required.append(optional)
    missing = [c for c in dict.fromkeys(required) if c not in data.columns]
    if missing:
        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=missing, found=list(data.columns)))
    if len(data) == 0:
        raise SchemaError(ERROR_EMPTY)
    return by_cols, split_col, subject_col, reference_col


def _finite_scores(
    data: pd.DataFrame, column: str, nonfinite: str
) -> tuple[np.ndarray, np.ndarray | None]:
    """The float64 scores and, when some are NaN/±inf, the mask of the finite ones (None
    when all are finite); under ``nonfinite='raise'`` a non-finite score is an error."""
    scores = numeric_scores(data, column)
    # a finite sum proves every score finite without a mask (an overflowing or non-finite
    # sum falls back to the exact check)
    with np.errstate(over="ignore"):
        total = np.add.reduce(scores)
    if bool(np.isfinite(total)) or bool(np.isfinite(scores).all()):
        return scores, None
    finite = np.isfinite(scores)
    if nonfinite == "raise":
        bad = np.flatnonzero(~finite)
        raise SchemaError(
            ERROR_NONFINITE.format(column=column, n=bad.size, rows=example_rows(data, bad))
        )
    return scores, finite  # "drop", and "reject" counts them per group


def _trial_ids(data: pd.DataFrame, column: str) -> np.ndarray:
    """The trial ids as an array; a missing one is an error."""
    series = data[column]
    values = series.to_numpy()
    if values.dtype.kind in "iub":  # integers cannot be missing: skip the mask
        return values
    missing = pd.isna(series).to_numpy()
    if missing.any():
        bad = np.flatnonzero(missing)
        raise SchemaError(
            ERROR_MISSING_TRIALS.format(column=column, n=bad.size, rows=example_rows(data, bad))
        )
    return values


def by_columns(by) -> tuple[str, ...]:
    if by is None:
        return ()
    if isinstance(by, str):
        return (by,)
    if isinstance(by, list | tuple | pd.Index):
        return tuple(by)
    raise SchemaError(ERROR_COLUMN_NAME.format(name="by", value=by))


def factorize_keys(series: pd.Series) -> tuple[np.ndarray, Any]:
    """Integer codes and unique values of a key column.

    A categorical column keeps its category order (and costs nothing to factorize);
    other columns are numbered in order of first appearance.
    """
    if isinstance(series.dtype, pd.CategoricalDtype):
        codes = series.cat.codes.to_numpy()
        if codes.size == 0 or codes.min() >= 0:  # no missing value (code -1)
            categories = series.cat.categories
            if len(categories) == 1:
                return codes, categories
            used = np.bincount(codes, minlength=len(categories)) > 0
            if used.all():
                return codes, categories
            remap = np.cumsum(used) - 1
            return remap[codes], categories[used]
    runs = _run_heads(series)
    if runs is not None:  # few runs of equal values: hash only the first of each run
        heads, lengths = runs
        codes, uniques = pd.factorize(series.iloc[heads], sort=False, use_na_sentinel=False)
        if heads.size == 1:
            return np.zeros(len(series), dtype=codes.dtype), uniques
        return np.repeat(codes, lengths), uniques
    counted = integer_codes(series)
    if counted is not None:
        return counted
    return pd.factorize(series, sort=False, use_na_sentinel=False)


def _run_heads(series: pd.Series) -> tuple[np.ndarray, np.ndarray] | None:
    """Start and length of each run of equal values of a string/object/integer key
    column, or None when there are many runs (or missing values): then plain hashing (or
    counting) is cheaper.

    A trial table usually lists each system's trials together, so comparing neighbours
    (a vectorized string comparison; for Python objects, of identities first) finds the
    few runs faster than hashing every row.
    """
    n = len(series)
    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype.kind in "iu" and n >= 2:  # numbers: compared
        numbers = series.to_numpy()
        changes = np.flatnonzero(numbers[1:] != numbers[:-1])
        if changes.size > n // 16:
            return None
        starts = np.concatenate(([0], changes + 1))
        return starts, np.diff(np.append(starts, n))
    arrow = isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"
    numpy_object = isinstance(dtype, np.dtype) and dtype.kind == "O"
    # an object column's missing values are looked for among the run heads below (a
    # missing value never compares equal to a string, so it heads a run): ``hasnans``
    # would be a pass as slow as the comparison itself
    if n < 2 or (not arrow and not numpy_object and series.hasnans):
        return None
    heads: np.ndarray | None
    if arrow:
        import pyarrow.compute as pc

        arr = chunked(series)
        if arr.null_count:  # a missing value, counted by arrow (``hasnans`` is a pass)
            return None
        same = all_equal(arr)
        if same is None:
            same = pc.all(pc.equal(arr, arr[0])).as_py()
        if same:
            return np.zeros(1, dtype=np.intp), np.array([n])
        change = pc.not_equal(arr[1:], arr[:-1]).to_numpy(zero_copy_only=False)
        heads = np.flatnonzero(change)
        if heads.size > n // 16:
            return None
    elif isinstance(dtype, pd.StringDtype) or (isinstance(dtype, np.dtype) and dtype.kind == "O"):
        values = series.to_numpy(dtype=object)
        if not all(isinstance(v, str) for v in values[:: max(1, n // 64)]):
            return None
        heads = neighbour_changes(values, n // 16)
        if heads is None:  # many runs, or pd.NA (no truth value)
            return None
    else:
        return None
    heads = np.concatenate(([0], heads + 1))
    if numpy_object and pd.isna(values[heads]).any():
        return None  # missing values: plain factorizing handles (and reports) them
    return heads, np.diff(np.append(heads, n))


def scalar_value(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def where_text(group: Group, by_cols, split_col) -> str:
    parts = [f"{name}={value!r}" for name, value in zip(by_cols, group.key, strict=False)]
    parts.append(f"system {group.system!r}")
    if split_col is not None:
        parts.append(f"{split_col}={group.split!r}")
    return ", ".join(parts)


def _check_group(data, group: Group, trial_col, by_cols, split_col) -> None:
    n_gen = group.n_genuine
    n_imp = group.n_impostor
    if n_gen == 0 or n_imp == 0:
        raise SchemaError(
            ERROR_ONE_CLASS.format(
                where=where_text(group, by_cols, split_col), n_genuine=n_gen, n_impostor=n_imp
            )
        )
    if _has_duplicates(group.trial):
        dup = pd.Index(group.trial).duplicated(keep=False)
        examples = [scalar_value(v) for v in pd.unique(group.trial[dup])[:5]]
        positions = np.flatnonzero(dup)
        if group.rows is not None:
            positions = group.rows[positions]
        raise SchemaError(
            ERROR_DUPLICATE_TRIALS.format(
                where=where_text(group, by_cols, split_col),
                n=int(pd.Index(group.trial).duplicated().sum()),
                column=trial_col,
                examples=examples,
                rows=example_rows(data, positions),
            )
        )
