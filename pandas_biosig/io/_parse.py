"""Strict parsing: data lines, whitespace-separated fields, numbers and labels."""

from __future__ import annotations

import csv
import io
import re
import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from ._errors import (
    ERROR_CSV_FIELDS,
    ERROR_EMPTY_FILE,
    ERROR_FIELDS,
    ERROR_LABEL,
    ERROR_LINE_FIELDS,
    ERROR_NOT_A_NUMBER,
    ScoreFileError,
)
from ._open import MAX_FIELDS_PER_LINE, _check_parse_cost, _Source

# str.split() splits at these too, the C parser of pandas does not: read such files slowly.
_OTHER_WHITESPACE = re.compile(
    "[\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)

# Lines end at \n, \r\n or \r (as for pandas' C parser); other white space separates fields.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _lines(text: str):
    """The lines of ``text``, one at a time (no list of them all: a file's lines cost more
    memory than its text)."""
    start = 0
    for match in _LINE_BREAK.finditer(text):
        yield text[start : match.start()]
        start = match.end()
    yield text[start:]


# a blank line of a text without "\r": spaces and tabs only
_BLANK_LINE = re.compile(r"(?m)^[ \t]*$")


def _count_data_lines(text: str) -> int:
    """The number of non-blank lines, without a list of the lines."""
    if "\r" in text:
        return sum(1 for line in _lines(text) if line.strip())
    blank = sum(1 for _ in _BLANK_LINE.finditer(text))
    return text.count("\n") + 1 - blank


def _data_lines(text: str):
    """``(line number, fields)`` of every non-blank line, numbered from 1."""
    for number, line in enumerate(_lines(text), 1):
        fields = line.split()
        if fields:
            yield number, fields


def _line_number(source: _Source, row: int) -> int:
    """The line number of the ``row``-th data line (0-based) of ``source``."""
    for i, (number, _) in enumerate(_data_lines(source.text)):
        if i == row:
            return number
    raise IndexError(row)  # pragma: no cover - rows come from the same text


def _fields_error(source: _Source, line: int, layouts: Mapping[int, Sequence[str]], found: int):
    counts = sorted(layouts)
    expected = (
        str(counts[0])
        if len(counts) == 1
        else ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"
    )
    names = " | ".join(" ".join(layouts[n]) for n in counts)
    return ScoreFileError(
        ERROR_FIELDS.format(source=source.name, line=line, expected=expected, names=names, found=found)
    )


def _fast_fields(text: str, n: int) -> list[np.ndarray] | None:
    """Columns parsed by pandas' C parser, or None when the slow reader must decide."""
    if _OTHER_WHITESPACE.search(text):
        return None
    try:
        frame = pd.read_csv(
            io.StringIO(text), sep=r"\s+", header=None, dtype=object, na_filter=False,
            quoting=csv.QUOTE_NONE, engine="c", skip_blank_lines=True,
        )
    except (pd.errors.ParserError, ValueError):
        return None
    if frame.shape[1] != n:
        return None
    columns = [frame[c].to_numpy(dtype=object) for c in frame.columns]
    if (columns[-1] == "").any():  # a short line: the C parser pads it on the right
        return None
    if len(frame) != _count_data_lines(text):
        return None
    return columns


def _split_fields(source: _Source, layouts: Mapping[int, Sequence[str]]) -> list[np.ndarray]:
    """The whitespace-separated fields of every data line, one object array per field.

    The first data line fixes the number of fields (one of ``layouts``); every other line
    must have as many.
    """
    first = next(_data_lines(source.text), None)
    if first is None:
        raise ScoreFileError(ERROR_EMPTY_FILE.format(source=source.name))
    line, fields = first
    n = len(fields)
    if n not in layouts:
        raise _fields_error(source, line, layouts, n)
    _check_parse_cost(source, n)
    columns = _fast_fields(source.text, n)
    if columns is not None:
        return columns
    rows = []
    for line, fields in _data_lines(source.text):
        if len(fields) != n:
            raise _fields_error(source, line, {n: layouts[n]}, len(fields))
        rows.append(fields)
    return [np.array(column, dtype=object) for column in zip(*rows, strict=True)]


def _csv_header(source: _Source, sep: str) -> list[str]:
    """The first line's fields of a CSV text (after its parse cost is checked)."""
    header = next(csv.reader(io.StringIO(source.text[: source.text.find("\n") + 1 or None]),
                             delimiter=sep), [])
    _check_parse_cost(source, len(header))
    return header


def _read_csv_strict(source: _Source, buffer, sep: str = ",", **options) -> pd.DataFrame:
    """``pandas.read_csv`` of ``buffer`` (the bytes or text of ``source``), where a line
    with more fields than the header is an error naming the file and line: pandas would
    take an extra first field for an index, or drop the extra ones, or raise its own
    ParserError."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.ParserWarning)
        try:
            return pd.read_csv(buffer, sep=sep, index_col=False, **options)
        except (pd.errors.ParserError, pd.errors.ParserWarning):
            ragged = _ragged_csv_line(source, sep)
            if ragged is None:
                raise
            line, expected, found = ragged
            raise ScoreFileError(ERROR_CSV_FIELDS.format(
                source=source.name, line=line, expected=expected, found=found
            )) from None


def _ragged_csv_line(source: _Source, sep: str) -> tuple[int, int, int] | None:
    """``(line, header's fields, line's fields)`` of the first line whose number of fields
    differs from the header's, or None."""
    reader = csv.reader(io.StringIO(source.text), delimiter=sep)
    expected = None
    for row in reader:
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if expected is None:
            expected = len(row)
        elif len(row) != expected:
            return reader.line_num, expected, len(row)
    return None


def _many_fields(source: _Source, line: int, found: int) -> ScoreFileError:
    return ScoreFileError(ERROR_LINE_FIELDS.format(
        source=source.name, line=line, found=found, limit=MAX_FIELDS_PER_LINE
    ))


#: What a score field may be: a decimal number (ASCII digits, optional sign, point and
#: exponent), or nan / inf / infinity in lower, Title or UPPER case. ``float()`` accepts
#: more (``1_5``, ``iNfInItY``, non-ASCII digits, surrounding spaces): those are errors.
SCORE_PATTERN = (
    r"[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?"
    r"|nan|NaN|NAN|inf|Inf|INF|infinity|Infinity|INFINITY)"
)
_SCORE = re.compile(SCORE_PATTERN)
_SCORES = re.compile(f"(?:{SCORE_PATTERN}\n)*")


def _first_bad_number(column: np.ndarray) -> int | None:
    """The position of the first token that is not a score, or None."""
    tokens = [t if isinstance(t, str) else "?" for t in column]
    if _SCORES.fullmatch("".join(t + "\n" for t in tokens)):
        return None
    return next(i for i, t in enumerate(tokens) if not _SCORE.fullmatch(t))


def _parse_numbers(column: np.ndarray, error) -> np.ndarray:
    """Float64 scores of string tokens; ``error(i)`` makes the error of bad token ``i``."""
    bad = _first_bad_number(column)
    if bad is not None:
        raise error(bad)
    return column.astype(np.float64)


def _numbers(source: _Source, column: np.ndarray, field: int, name: str) -> np.ndarray:
    """Float64 scores, or an error naming the first field that is not a number."""
    return _parse_numbers(
        column,
        lambda i: ScoreFileError(
            ERROR_NOT_A_NUMBER.format(
                source=source.name, line=_line_number(source, i), field=field, name=name,
                value=column[i],
            )
        ),
    )


def _labels(
    source: _Source, column: np.ndarray, field: int, vocabulary: Mapping[str, bool], expected: str
) -> np.ndarray:
    """Boolean "is genuine" from label words, or an error naming the first unknown one."""
    codes, uniques = pd.factorize(column)
    mapped = np.empty(len(uniques), dtype=bool)
    for k, value in enumerate(uniques):
        genuine = vocabulary.get(str(value).lower())
        if genuine is None:
            row = int(np.flatnonzero(codes == k)[0])
            raise ScoreFileError(
                ERROR_LABEL.format(
                    source=source.name, line=_line_number(source, row), field=field,
                    expected=expected, value=value,
                )
            )
        mapped[k] = genuine
    return mapped[codes]


def _label_words(genuine: np.ndarray) -> np.ndarray:
    return np.where(genuine, "genuine", "impostor")


def _tidy(
    system, trial, genuine, score, split, extra: Mapping[str, np.ndarray] | None = None
) -> pd.DataFrame:
    data = {"system": system, "trial": trial, "label": _label_words(genuine), "score": score}
    if split is not None:
        data["split"] = split
    data.update(extra or {})
    return pd.DataFrame(data)
