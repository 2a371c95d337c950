"""Counted trials: a table whose rows stand for ``count`` identical trials, written out.

``eer``, ``error_rates``, ``dcf`` and ``summary`` count the trials natively (the sweeps
weigh each row by its count, :func:`~pandas_biosig._core.schema.validate_trials`). Every
other function that takes a trial table and ``count=`` expands the table once, here, into
one row per trial, so that its numbers are those of the expanded table by construction:
:func:`expand_counts`. The expanded table is bounded (:data:`MAX_EXPANDED_TRIALS`) so that
a large total count is a named error instead of an exhausted memory.

The copies of a row are trials of their own, so they need trial ids of their own, the
same in every system (a trial scored by two systems pairs copy by copy): the ``k``-th copy
(``k = 0 .. count - 1``) of the row whose trial id ranks ``r``-th among the distinct ids
of the rows counted at least once (in sorted order when the ids sort, else in order of first appearance) gets
the id ``r * K + k``, ``K`` the largest count. The ids keep their order, so a table counted
1 throughout gives the numbers of the uncounted table.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .schema import (
    ERROR_EMPTY,
    ERROR_MISSING_COLUMNS,
    SchemaError,
    _trial_ids,
    count_values,
)

__all__ = [
    "COUNT_PARAMETER_DOC",
    "ERROR_COUNT_EXPANDED",
    "ERROR_COUNT_UNSUPPORTED",
    "COUNT_REFUSED_DOC",
    "MAX_EXPANDED_TRIALS",
    "REASON_IDENTIFICATION",
    "expand_counts",
    "refuse_counts",
]

#: The most trials a counted table may expand to (memory grows with the total count).
MAX_EXPANDED_TRIALS = 10**8

ERROR_COUNT_EXPANDED = (
    "column {column!r} (count=) adds up to {total:,} trials; this function expands a counted "
    "table into one row per trial (memory in proportion to the total count), at most "
    "{limit:,}. eer, error_rates, dcf and summary count trials without expanding them"
)
ERROR_COUNT_UNSUPPORTED = (
    "count={count!r}: {function} takes no counted table: {reason}"
)
#: Why the identification functions refuse ``count``.
REASON_IDENTIFICATION = (
    "its rows are the scores of a probe against each reference, comparisons within one "
    "search, not trials; a repeated row would list a reference twice in the search. "
    "Repeat a probe's rows under a probe id of its own instead"
)

#: The one wording of the ``count`` parameter in every docstring (tests check it).
COUNT_PARAMETER_DOC = (
    "count : str, optional\n"
    "    A column of non-negative integers: each row stands for that many identical\n"
    "    trials (a frequency weight; a row counted 0 is left out). Every number equals\n"
    "    that of the table with each row repeated ``count`` times, to the bit (see\n"
    "    docs/schema.md, \"Counted trials\"; a table expanded in memory holds at most\n"
    "    10**8 trials)."
)

#: The wording of ``count`` in the docstrings of the functions that refuse it.
COUNT_REFUSED_DOC = (
    "count : str, optional\n"
    "    Refused with a named error: the rows of a probe × reference score table are\n"
    "    comparisons within a search, not trials (see docs/schema.md, \"Counted trials\")."
)


def expand_counts(data, count: str | None, *, trial: str = "trial"):
    """``data`` with each row repeated ``count`` times, the ``count`` column dropped and
    the copies numbered as trials of their own (see the module); ``data`` itself when
    ``count`` is None or ``data`` is no DataFrame (the caller's validation names that).

    Errors: the count column missing (:data:`~pandas_biosig._core.schema.ERROR_MISSING_COLUMNS`),
    bad counts (:func:`~pandas_biosig._core.schema.count_values`), no trial left
    (:data:`~pandas_biosig._core.schema.ERROR_EMPTY`), a missing trial id
    (:data:`~pandas_biosig._core.schema.ERROR_MISSING_TRIALS`) and more than
    :data:`MAX_EXPANDED_TRIALS` trials (:data:`ERROR_COUNT_EXPANDED`).
    """
    if count is None or not isinstance(data, pd.DataFrame):
        return data
    if count not in data.columns:
        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=[count],
                                                       found=list(data.columns)))
    counts = count_values(data, count)
    total = int(counts.sum())
    if total == 0:
        raise SchemaError(ERROR_EMPTY)
    if total > MAX_EXPANDED_TRIALS:
        raise SchemaError(ERROR_COUNT_EXPANDED.format(column=count, total=total,
                                                      limit=MAX_EXPANDED_TRIALS))
    kept = np.flatnonzero(counts)  # a row counted 0 is no trial: nothing of it is read
    counts = counts[kept]
    rows = np.repeat(kept, counts)
    out = data.iloc[rows].drop(columns=count)
    if trial in data.columns:
        ranks = _id_ranks(data.iloc[kept], trial)
        copy = np.arange(total) - np.repeat(np.cumsum(counts) - counts, counts)
        out[trial] = np.repeat(ranks, counts) * int(counts.max()) + copy
    return out


def _id_ranks(data: pd.DataFrame, trial: str) -> np.ndarray:
    """The rank of each row's trial id among the distinct ids (int64)."""
    values = _trial_ids(data, trial)
    try:
        codes, _ = pd.factorize(values, sort=True)
    except TypeError:  # ids that do not sort: numbered in order of first appearance
        codes, _ = pd.factorize(values, sort=False)
    return codes.astype(np.int64)


def refuse_counts(count: str | None, *, function: str, reason: str) -> None:
    """Raise :class:`~pandas_biosig._core.schema.SchemaError`
    (:data:`ERROR_COUNT_UNSUPPORTED`) when a function without counted tables gets
    ``count``."""
    if count is not None:
        raise SchemaError(ERROR_COUNT_UNSUPPORTED.format(count=count, function=function,
                                                         reason=reason))
