"""Identification score files: bob's 4/5-column files and pyeer's CMC files, read as tidy
search tables (``system, probe, reference, score, mate``)."""

from __future__ import annotations

import io
import os
import warnings
from collections.abc import Hashable
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.schema import BiosigWarning, SchemaError
from ._errors import (
    ERROR_PATH_TYPE,
    ERROR_TABLE_MEMBERS,
    ERROR_TOO_LARGE,
    FileTooLargeError,
    ScoreFileError,
)
from ._open import (
    DEFAULT_MAX_BYTES,
    _check_max_bytes,
    _check_parse_cost,
    _decode,
    _read_blobs,
    _Source,
)
from ._parse import SCORE_PATTERN, _data_lines

__all__ = ["read_bob_identification", "read_pyeer_cmc"]

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


def _source_text(source, path: str, max_bytes: int) -> _Source:
    """The text of a local file (decompressed, bounded) or of a file-like object (bounded).

    A string is always a local path: it is never downloaded.
    """
    max_bytes = _check_max_bytes(max_bytes)
    if isinstance(source, str | os.PathLike):
        blobs = _read_blobs(source, None, max_bytes)
        if len(blobs) != 1:
            raise ScoreFileError(ERROR_TABLE_MEMBERS.format(path=path, n=len(blobs)))
        name, data = blobs.pop()
        return _decode(data, name, max_bytes)
    read = getattr(source, "read", None)
    if read is None:
        raise TypeError(ERROR_PATH_TYPE.format(type=type(source).__name__))
    data = read(max_bytes + 1)
    if len(data) > max_bytes:
        raise FileTooLargeError(ERROR_TOO_LARGE.format(source=path, max_bytes=max_bytes))
    if isinstance(data, bytes | bytearray):
        return _decode(bytes(data), path, max_bytes)
    if not isinstance(data, str):
        raise TypeError(ERROR_PATH_TYPE.format(type=type(source).__name__))
    return _decode(data.encode("utf-8"), path, max_bytes)


def _read_fields(source, path: str, *, usecols=None, max_bytes: int) -> pd.DataFrame:
    """Whitespace-separated text fields as strings; '#' starts a comment."""
    text = _source_text(source, path, max_bytes)
    first: list[str] = next((f for _, f in _data_lines(text.text) if not f[0].startswith("#")), [])
    _check_parse_cost(text, len(first) if usecols is None else len(usecols))
    try:
        fields = pd.read_csv(
            io.StringIO(text.text), sep=r"\s+", header=None, comment="#", dtype=str,
            usecols=usecols, skip_blank_lines=True, engine="c", na_filter=False,
        )
        # a score "NaN" is a value; only the fields a short line lacks are missing
        return fields.mask(fields == "")
    except pd.errors.EmptyDataError:
        return pd.DataFrame(dtype=str)
    except (pd.errors.ParserError, ValueError) as exc:  # ragged lines, too few columns
        raise SchemaError(ERROR_FILE_LAYOUT.format(path=path, detail=exc)) from None


def _numeric(fields: pd.Series, path: str) -> np.ndarray:
    bad = ~fields.str.fullmatch(SCORE_PATTERN).fillna(False).to_numpy(dtype=bool)
    if bad.any():
        examples = fields[bad].tolist()[:3]
        raise SchemaError(ERROR_FILE_SCORES.format(path=path, n=int(bad.sum()), examples=examples))
    return fields.to_numpy(dtype=object).astype(np.float64)


def read_bob_identification(
    source: str | os.PathLike | Any,
    /,
    *,
    system_name: Hashable | None = None,
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
    system_name : hashable, optional
        The value of the ``system`` column (default: the file name without suffix).
    columns : {4, 5}, optional
        The expected layout (default: from the first line).
    max_bytes : int, default :data:`~pandas_biosig.io.DEFAULT_MAX_BYTES` (8 GiB)
        The most memory reading the file may take: its bytes after decompression, and
        its text with the estimated cost of its parsed fields (checked before
        parsing; the read's peak stays within :data:`~pandas_biosig.io.PEAK_MULTIPLE`
        times it); past it :class:`~pandas_biosig.io.FileTooLargeError`. Raise it to
        read a larger file.

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
    >>> from pandas_biosig import cmc
    >>> from pandas_biosig.io import read_bob_identification
    >>> text = '''# claimed_id real_id test_label score
    ... alice alice p1.png 0.9
    ... bob   alice p1.png 0.4
    ... alice bob   p2.png 0.7
    ... bob   bob   p2.png 0.6
    ... '''
    >>> table = read_bob_identification(io.StringIO(text), system_name="demo")
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
            "system": pd.Categorical([_system_name(source, system_name)] * len(fields)),
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
    system_name: Hashable | None = None,
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
    system_name : hashable, optional
        The value of the ``system`` column (default: the scores file name without
        suffix).
    max_bytes : int, default :data:`~pandas_biosig.io.DEFAULT_MAX_BYTES` (8 GiB)
        The most memory reading each file may take: its bytes after decompression, and
        its text with the estimated cost of its parsed fields (checked before
        parsing; the read's peak stays within :data:`~pandas_biosig.io.PEAK_MULTIPLE`
        times it); past it :class:`~pandas_biosig.io.FileTooLargeError`. Raise it to
        read a larger file.

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
    >>> from pandas_biosig import recognition_rate
    >>> from pandas_biosig.io import read_pyeer_cmc
    >>> scores = io.StringIO("q1 t1 0.9\nq1 t2 0.5\nq2 t1 0.8\nq2 t2 0.3\n")
    >>> pairs = io.StringIO("q1 t1\nq2 t2\n")
    >>> table = read_pyeer_cmc(scores, pairs, system_name="demo")
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
            "system": pd.Categorical([_system_name(scores, system_name)] * len(fields)),
            "probe": fields["probe"].astype("category"),
            "reference": fields["reference"].astype("category"),
            "score": _numeric(fields["score"], path),
            "mate": scored.isin(true_index),
        }
    )
