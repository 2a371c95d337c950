"""Verification score files: bob, NIST SRE / Kaldi, CSV/Parquet tables, score lists."""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from .._schema import (
    ERROR_DUPLICATE_COLUMNS,
    LABEL_VOCABULARY,
    SchemaError,
    check_columns,
    validate_trials,
)
from ._errors import (
    ERROR_COLUMN_CLASH,
    ERROR_CORRUPT,
    ERROR_DUPLICATE_KEY,
    ERROR_EMPTY_FILE,
    ERROR_EXTRA_SCORE,
    ERROR_FIELDS_OPTION,
    ERROR_MAPPING,
    ERROR_NO_SCORE,
    ERROR_NOT_A_NUMBER,
    ERROR_TABLE_MEMBERS,
    ERROR_TOO_LARGE,
    FileTooLargeError,
    ScoreFileError,
)
from ._names import _file_system_name
from ._open import (
    DEFAULT_MAX_BYTES,
    _check_max_bytes,
    _decode,
    _read_blobs,
    _read_sources,
    _reason,
    _regular_file,
    _Source,
)
from ._parse import (
    _data_lines,
    _labels,
    _line_number,
    _numbers,
    _parse_numbers,
    _split_fields,
    _tidy,
)

PathLike = str | os.PathLike

#: bob's text formats: number of fields -> field names.
BOB_LAYOUTS: dict[int, tuple[str, ...]] = {
    2: ("label", "score"),
    4: ("claimed_id", "real_id", "test_label", "score"),
    5: ("claimed_id", "model_label", "real_id", "test_label", "score"),
}

#: Fields of the two files of the NIST SRE / Kaldi format.
NIST_TRIALS_FIELDS = ("enroll", "test", "label")
NIST_SCORES_FIELDS = ("enroll", "test", "score")

#: Labels of bob's 2-column format, on top of :data:`~pandas_biosig.LABEL_VOCABULARY`
#: (case-insensitive): 1 is genuine, -1 or 0 impostor.
BOB_LABELS: dict[str, bool] = {
    **LABEL_VOCABULARY,
    "+1": True,
    "1.0": True,
    "+1.0": True,
    "-1": False,
    "-1.0": False,
    "0.0": False,
}


_TABLE_SUFFIXES = (".csv", ".tsv", ".parquet", ".pq")
_CANONICAL = ("system", "trial", "label", "score", "split")


def _bob_frame(path, *, fields, member, system, split, max_bytes=DEFAULT_MAX_BYTES) -> pd.DataFrame:
    if fields != "auto" and fields not in BOB_LAYOUTS:
        raise ValueError(
            ERROR_FIELDS_OPTION.format(value=fields, allowed=["auto", *BOB_LAYOUTS])
        )
    layouts = dict(BOB_LAYOUTS) if fields == "auto" else {fields: BOB_LAYOUTS[fields]}
    system = _file_system_name(path) if system is None else system
    parts, offset = [], 0
    for source in _read_sources(path, member, max_bytes):
        columns = _split_fields(source, layouts)
        n = len(columns)
        layouts = {n: BOB_LAYOUTS[n]}  # every member of an archive has the same layout
        score = _numbers(source, columns[-1], n, "score")
        if n == 2:
            genuine = _labels(
                source, columns[0], 1, BOB_LABELS, "1 for genuine, -1 or 0 for impostor"
            )
            trial = np.arange(offset, offset + score.size)
            offset += score.size
            parts.append(_tidy(system, trial, genuine, score, split))
            continue
        named = dict(zip(BOB_LAYOUTS[n], columns, strict=True))
        genuine = named["claimed_id"] == named["real_id"]
        model = named["model_label" if n == 5 else "claimed_id"]
        trial = model + " " + named["test_label"]
        extra = {k: v for k, v in named.items() if k != "score"}
        extra["subject"] = named["real_id"]
        parts.append(_tidy(system, trial, genuine, score, split, extra))
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


@dataclass(frozen=True)
class _Rows:
    """The data rows of one file read as one or more sources (tar members), to locate a row."""

    name: str  # the file
    sources: tuple[_Source, ...]
    offsets: np.ndarray  # the first row of each source

    def locate(self, row: int) -> tuple[str, int]:
        """``(source name, line number)`` of a row."""
        k = int(np.searchsorted(self.offsets, row, side="right")) - 1
        return self.sources[k].name, _line_number(self.sources[k], row - int(self.offsets[k]))


def _read_keyed(
    path, fields: tuple[str, str, str], max_bytes: int
) -> tuple[_Rows, list[np.ndarray]]:
    """The three fields of every line of a NIST trials or scores file (all members)."""
    sources, parts = [], []
    for source in _read_sources(path, None, max_bytes):
        columns = _split_fields(source, {3: fields})
        if fields[2] == "score":
            columns[2] = _numbers(source, columns[2], 3, "score")
        else:
            columns[2] = _labels(source, columns[2], 3, LABEL_VOCABULARY, "target or nontarget")
        sources.append(source)
        parts.append(columns)
    sizes = [len(p[0]) for p in parts]
    rows = _Rows(str(path), tuple(sources), np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int))
    return rows, [np.concatenate([p[i] for p in parts]) for i in range(3)]


def _keys(rows: _Rows, enroll: np.ndarray, test: np.ndarray) -> pd.Index:
    """The (enroll, test) keys of a file as one string index, refusing duplicates."""
    keys = pd.Index(enroll + " " + test)  # fields hold no white space: the join is unique
    duplicated = keys.duplicated()
    if duplicated.any():
        row = int(np.flatnonzero(duplicated)[0])
        first = int(np.flatnonzero(keys == keys[row])[0])
        name, line = rows.locate(row)
        first_name, first_line = rows.locate(first)
        raise ScoreFileError(
            ERROR_DUPLICATE_KEY.format(
                source=name, line=line, enroll=enroll[row], test=test[row],
                first=first_line if first_name == name else f"{first_line} of {first_name}",
            )
        )
    return keys


def _nist_frame(
    trials_path, scores_path, *, system, split, max_bytes=DEFAULT_MAX_BYTES
) -> pd.DataFrame:
    system = _file_system_name(scores_path) if system is None else system
    trial_rows, (enroll, test, genuine) = _read_keyed(trials_path, NIST_TRIALS_FIELDS, max_bytes)
    score_rows, (s_enroll, s_test, scores) = _read_keyed(scores_path, NIST_SCORES_FIELDS, max_bytes)
    trial_keys = _keys(trial_rows, enroll, test)
    score_keys = _keys(score_rows, s_enroll, s_test)
    position = score_keys.get_indexer(trial_keys)
    missing = np.flatnonzero(position < 0)
    if missing.size:
        row = int(missing[0])
        name, line = trial_rows.locate(row)
        raise ScoreFileError(
            ERROR_NO_SCORE.format(
                scores=score_rows.name, enroll=enroll[row], test=test[row], trials=name,
                line=line,
            )
        )
    if score_keys.size > trial_keys.size:
        used = np.zeros(score_keys.size, dtype=bool)
        used[position] = True
        row = int(np.flatnonzero(~used)[0])
        name, line = score_rows.locate(row)
        raise ScoreFileError(
            ERROR_EXTRA_SCORE.format(
                scores=name, line=line, enroll=s_enroll[row], test=s_test[row],
                trials=trial_rows.name,
            )
        )
    return _tidy(
        system, np.asarray(trial_keys, dtype=object), genuine, scores[position], split,
        {"enroll": enroll, "test": test},
    )


def _list_scores(path, max_bytes: int) -> np.ndarray:
    parts = []
    for source in _read_sources(path, None, max_bytes):
        tokens, counts = [], []
        for _, fields in _data_lines(source.text):
            tokens.append(fields[-1])
            counts.append(len(fields))
        if not tokens:
            raise ScoreFileError(ERROR_EMPTY_FILE.format(source=source.name))
        column = np.array(tokens, dtype=object)
        parts.append(
            _parse_numbers(
                column,
                lambda i, source=source, column=column, counts=counts: ScoreFileError(
                    ERROR_NOT_A_NUMBER.format(
                        source=source.name, line=_line_number(source, i),
                        field=counts[i], name="score", value=column[i],
                    )
                ),
            )
        )
    return np.concatenate(parts)


def _lists_frame(
    genuine_path, impostor_path, *, system, split, max_bytes=DEFAULT_MAX_BYTES
) -> pd.DataFrame:
    system = _file_system_name(genuine_path) if system is None else system
    genuine_scores = _list_scores(genuine_path, max_bytes)
    impostor_scores = _list_scores(impostor_path, max_bytes)
    score = np.concatenate([genuine_scores, impostor_scores])
    genuine = np.arange(score.size) < genuine_scores.size
    return _tidy(system, np.arange(score.size), genuine, score, split)


def _table_suffix(path: Path) -> str | None:
    """``.csv``, ``.tsv``, ``.parquet`` or ``.pq`` when the name ends so (before a codec
    suffix such as ``.gz``), else None."""
    suffixes = [s.lower() for s in path.suffixes]
    while suffixes and suffixes[-1] in (".gz", ".bz2", ".xz"):
        suffixes.pop()
    return suffixes[-1] if suffixes and suffixes[-1] in _TABLE_SUFFIXES else None


def _is_parquet(path: Path) -> bool:
    if _table_suffix(path) in (".parquet", ".pq"):
        return True
    with open(path, "rb") as handle:
        return handle.read(4) == b"PAR1"


def _read_parquet(path: Path, max_bytes: int) -> pd.DataFrame:
    """A Parquet file, refused before reading when its columns decompress past the bound."""
    try:
        import pyarrow.parquet as pq

        metadata = pq.ParquetFile(path).metadata
        size = sum(metadata.row_group(i).total_byte_size for i in range(metadata.num_row_groups))
        if max(size, path.stat().st_size) > max_bytes:
            raise FileTooLargeError(ERROR_TOO_LARGE.format(source=path, max_bytes=max_bytes))
        return pd.read_parquet(path)
    except ScoreFileError:
        raise
    except ImportError:
        raise
    except Exception as error:  # pyarrow's errors are not one class: name the file
        raise ScoreFileError(
            ERROR_CORRUPT.format(source=path, what="Parquet file", reason=_reason(error))
        ) from None


def _read_csv(path: Path, max_bytes: int) -> pd.DataFrame:
    blobs = _read_blobs(path, None, max_bytes)
    if len(blobs) != 1:
        raise ScoreFileError(ERROR_TABLE_MEMBERS.format(path=path, n=len(blobs)))
    name, data = blobs[0]
    text = _decode(data, name).text  # a clear error for text that is not UTF-8
    sep = "\t" if _table_suffix(path) == ".tsv" else ","
    header = next(csv.reader(io.StringIO(text), delimiter=sep), [])
    repeated = sorted({c for c in header if header.count(c) > 1})
    if repeated:  # pandas would rename the second copy silently ("a.1")
        raise SchemaError(ERROR_DUPLICATE_COLUMNS.format(duplicated=repeated, found=header))
    try:
        return pd.read_csv(
            io.BytesIO(data), sep=sep,
            encoding="utf-8-sig", compression=None,
        )
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as error:
        raise ScoreFileError(
            ERROR_CORRUPT.format(source=name, what="table", reason=_reason(error))
        ) from None


def _table_frame(
    path, *, columns, system, split, default_system=None, split_from_name=False,
    max_bytes=DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    max_bytes = _check_max_bytes(max_bytes)
    path = _regular_file(path)
    frame = _read_parquet(path, max_bytes) if _is_parquet(path) else _read_csv(path, max_bytes)
    mapping = dict(columns or {})
    missing = [c for c in mapping if c not in frame.columns]
    if missing:
        raise SchemaError(ERROR_MAPPING.format(path=path, missing=missing, found=list(frame.columns)))
    frame = frame.rename(columns=mapping)
    check_columns(frame)
    if split_from_name and "split" in frame.columns:
        split = None  # the table's own split column wins over a token in its file name
    for column, value in (("system", system), ("split", split)):
        if value is not None and column in frame.columns:
            raise SchemaError(
                ERROR_COLUMN_CLASH.format(path=path, column=column, value=value)
            )
    if "system" not in frame.columns:
        name = default_system if default_system is not None else _file_system_name(path)
        frame.insert(0, "system", name if system is None else system)
    if split is not None:
        frame["split"] = split
    if "trial" not in frame.columns:
        frame["trial"] = frame.groupby("system", sort=False).cumcount().to_numpy()
    first = [c for c in _CANONICAL if c in frame.columns]
    return frame[first + [c for c in frame.columns if c not in first]].reset_index(drop=True)


def _validated(frame: pd.DataFrame) -> pd.DataFrame:
    validate_trials(frame, nonfinite="reject")
    return frame


# ---------------------------------------------------------------------------- public API
def read_bob(
    path: PathLike,
    /,
    *,
    fields: Literal["auto", 2, 4, 5] = "auto",
    member: str | None = None,
    system_name: str | None = None,
    split_name: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    """Read one of bob's score files (2-, 4- or 5-column text).

    Parameters
    ----------
    path : str or path-like
        A whitespace-separated text file, possibly gzip/bzip2/xz compressed, or a tar
        archive (``.tar``, ``.tar.gz``...) of such files.
    fields : {"auto", 2, 4, 5}
        The layout (:data:`BOB_LAYOUTS`); ``"auto"`` takes the number of fields on the
        first data line. Every line must then have that many fields.

        - 2: ``label score``, the label 1 for genuine and -1 or 0 for impostor (the words
          of :data:`~pandas_biosig.LABEL_VOCABULARY` are accepted too);
        - 4: ``claimed_id real_id test_label score``;
        - 5: ``claimed_id model_label real_id test_label score``.

        In the 4- and 5-column formats a trial is genuine iff ``claimed_id == real_id``.
    member : str, optional
        Read only this member of a tar archive (its full name or its base name). By
        default every regular, non-hidden member is read, in archive order.
    system_name : str, optional
        The system name; by default the file name without its extensions
        (:data:`EXTENSIONS`): ``scores-dev.txt.gz`` gives ``"scores-dev"``.
    split_name : str, optional
        Adds a ``split`` column holding this value.
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (1 GiB)
        The most bytes read from the file (all tar members together), after decompression; past it
        :class:`FileTooLargeError`. Raise it to read a larger file.

    Returns
    -------
    DataFrame
        One row per data line, in file order, with columns

        - ``system``: as above;
        - ``trial``: the 2-column format has no trial ids, so trials are numbered 0, 1...
          in file order (continuing across tar members); 4 columns: ``"claimed_id
          test_label"``; 5 columns: ``"model_label test_label"`` (fields hold no white
          space, so the joined key is unambiguous and pairs trials across systems);
        - ``label``: ``"genuine"`` or ``"impostor"``; ``score``: float64;
        - ``split`` when ``split_name`` is given;
        - 4 and 5 columns only: the file's fields ``claimed_id``, (``model_label``),
          ``real_id``, ``test_label``, and ``subject``, a copy of ``real_id`` (the person
          behind the probe) for subject-level resampling.

    Raises
    ------
    ScoreFileError
        A line with the wrong number of fields, a score that is not a number, an unknown
        label or an empty file: the message names the file and line. A corrupt or
        truncated compressed file or archive, text that is not UTF-8, a sparse tar
        member: the message names the file (and member).
    FileTooLargeError
        More than ``max_bytes`` bytes once decompressed.
    SchemaError
        The table breaks the tidy schema: one class only, duplicate trials.
    FileNotFoundError
        ``path`` is not a file.

    See Also
    --------
    read_scores : many files at once, one system each.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from pandas_biosig.io import read_bob
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "cnn.txt"
    >>> _ = path.write_text("alice alice probe1 2.5\\nalice bob probe2 -1.0\\n"
    ...                     "bob bob probe2 1.5\\nbob alice probe1 0.3\\n")
    >>> read_bob(path)[["system", "trial", "label", "score", "subject"]]
      system         trial     label  score subject
    0    cnn  alice probe1   genuine    2.5   alice
    1    cnn  alice probe2  impostor   -1.0     bob
    2    cnn    bob probe2   genuine    1.5     bob
    3    cnn    bob probe1  impostor    0.3   alice
    """
    return _validated(
        _bob_frame(
            path, fields=fields, member=member, system=system_name, split=split_name,
            max_bytes=max_bytes,
        )
    )


def read_nist(
    trials: PathLike,
    scores: PathLike,
    /,
    *,
    system_name: str | None = None,
    split_name: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    """Read a NIST SRE / Kaldi-style pair of a trials key and a score file.

    Parameters
    ----------
    trials : str or path-like
        The key: ``enroll test label`` per line, the label ``target`` or ``nontarget`` (or
        another word of :data:`~pandas_biosig.LABEL_VOCABULARY`).
    scores : str or path-like
        The system's scores: ``enroll test score`` per line, in any order.
    system_name : str, optional
        The system name; by default the score file's name without its extensions.
    split_name : str, optional
        Adds a ``split`` column holding this value.
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (1 GiB)
        The most bytes read from each of the two files, after decompression; past it
        :class:`FileTooLargeError`. Raise it to read a larger file.

    Returns
    -------
    DataFrame
        One row per trial of the key, in the key's order, with columns ``system``,
        ``trial`` (``"enroll test"``), ``label`` (``"genuine"`` / ``"impostor"``),
        ``score``, ``split`` (when given), ``enroll`` and ``test``.

    Raises
    ------
    ScoreFileError
        A malformed line (wrong number of fields, bad label, score not a number), an
        (enroll, test) pair that appears twice in one file, a trial without a score or
        a score for no trial: the message names the key and the file and line.
    SchemaError
        The table breaks the tidy schema (one class only).

    See Also
    --------
    read_scores : several systems scored against one key.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from pandas_biosig.io import read_nist
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "trials").write_text("spk1 utt1 target\\nspk1 utt2 nontarget\\n")
    >>> _ = (folder / "plda.txt").write_text("spk1 utt2 -3.5\\nspk1 utt1 4.25\\n")
    >>> read_nist(folder / "trials", folder / "plda.txt")
      system      trial     label  score enroll  test
    0   plda  spk1 utt1   genuine   4.25   spk1  utt1
    1   plda  spk1 utt2  impostor  -3.50   spk1  utt2
    """
    return _validated(
        _nist_frame(trials, scores, system=system_name, split=split_name, max_bytes=max_bytes)
    )


def read_table(
    path: PathLike,
    /,
    *,
    columns: Mapping[str, str] | None = None,
    system_name: str | None = None,
    split_name: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    """Read a CSV or Parquet table of trials, renaming its columns to the tidy schema.

    Parameters
    ----------
    path : str or path-like
        ``.parquet`` / ``.pq`` (or a file starting with Parquet's magic bytes) is read with
        :func:`pandas.read_parquet`; anything else with :func:`pandas.read_csv`, tab
        separated for ``.tsv`` and comma separated otherwise (compression inferred from
        the extension).
    columns : mapping, optional
        ``{name in the file: name in the schema}``, e.g. ``{"llr": "score",
        "is_target": "label"}``. Columns not mentioned are kept unchanged.
    system_name : str, optional
        For a table without a ``system`` column: the system name (by default the file
        name without its extensions). An error if the table has one.
    split_name : str, optional
        For a table without a ``split`` column: adds one holding this value.
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (1 GiB)
        The most bytes read from the file, after decompression; past it
        :class:`FileTooLargeError`. Raise it to read a larger file.

    Returns
    -------
    DataFrame
        The table with ``system, trial, label, score`` (and ``split``) first, then the
        other columns in file order. Labels keep the file's values. A table without a
        ``trial`` column gets one numbering the rows of each system 0, 1... in file order.

    Raises
    ------
    SchemaError
        ``columns=`` names a column the file lacks, ``system_name=`` / ``split_name=`` would
        overwrite a column, or the table breaks the tidy schema (missing columns, unknown
        labels, non-numeric scores...).

    See Also
    --------
    read_scores

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from pandas_biosig.io import read_table
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "cnn.csv"
    >>> _ = path.write_text("pair,llr,is_target\\n7,2.5,true\\n8,-1.0,false\\n")
    >>> read_table(path, columns={"pair": "trial", "llr": "score", "is_target": "label"})
      system  trial  label  score
    0    cnn      7   True    2.5
    1    cnn      8  False   -1.0
    """
    frame = _table_frame(
        path, columns=columns, system=system_name, split=split_name, max_bytes=max_bytes
    )
    return _validated(frame)


def read_score_lists(
    genuine: PathLike,
    impostor: PathLike,
    /,
    *,
    system_name: str | None = None,
    split_name: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    """Read a pair of genuine and impostor score lists (pyeer's input files).

    Parameters
    ----------
    genuine, impostor : str or path-like
        Text files with one score per line; the score is the last whitespace-separated
        field of the line (earlier fields, such as ids, are ignored), blank lines are
        skipped.
    system_name : str, optional
        The system name; by default the genuine file's name without its extensions.
    split_name : str, optional
        Adds a ``split`` column holding this value.
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (1 GiB)
        The most bytes read from each list, after decompression; past it
        :class:`FileTooLargeError`. Raise it to read a larger file.

    Returns
    -------
    DataFrame
        Columns ``system``, ``trial`` (0, 1... over the genuine list, then the impostor
        list, in file order), ``label``, ``score`` and ``split`` (when given).

    Raises
    ------
    ScoreFileError
        A last field that is not a number, or an empty file (the message names the file
        and line).

    See Also
    --------
    read_scores : pairs ``<system>_genuine`` and ``<system>_impostor`` files by name.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from pandas_biosig.io import read_score_lists
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "genuine.txt").write_text("0.91\\n0.85\\n")
    >>> _ = (folder / "impostor.txt").write_text("0.12\\n0.40\\n0.33\\n")
    >>> read_score_lists(folder / "genuine.txt", folder / "impostor.txt", system_name="cnn")
      system  trial     label  score
    0    cnn      0   genuine   0.91
    1    cnn      1   genuine   0.85
    2    cnn      2  impostor   0.12
    3    cnn      3  impostor   0.40
    4    cnn      4  impostor   0.33
    """
    return _validated(
        _lists_frame(
            genuine, impostor, system=system_name, split=split_name, max_bytes=max_bytes
        )
    )
