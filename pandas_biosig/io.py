"""Score-file readers: bob, NIST/Kaldi, CSV/Parquet tables and genuine/impostor score lists.

Every reader returns the tidy trial table: ``system, trial, label, score``, then ``split``
when the split is known, then the identifying fields of the file format. Each table is
checked with :func:`pandas_biosig._schema.validate_trials`, so a table that reads
without error is one that every metric accepts. Non-finite scores (``nan``, ``inf``) are kept.
The metric functions decide what to do with them (``nonfinite=``).

Text files are read transparently when they are gzip, bzip2 or xz compressed, or are tar
archives (``.tar``, ``.tar.gz``, ...): codecs are recognised by their magic bytes, archives
by their magic bytes or a name ending in a tar suffix. Decompression streams under a bound,
``max_bytes=`` (:data:`DEFAULT_MAX_BYTES`), past which :class:`FileTooLargeError` is
raised; corrupt or truncated data is a :class:`ScoreFileError` naming the file and member. A tar archive gives all its regular, non-hidden
members, one after the other, or the single ``member=`` you name. A malformed line is
reported with the file, the line number and what was expected: these messages are the
``ERROR_*`` constants of this module.

Labels are written as ``"genuine"`` / ``"impostor"`` by the text readers. :func:`read_table`
keeps the file's own label values, which must be in :data:`pandas_biosig.LABEL_VOCABULARY`.
"""

from __future__ import annotations

import bz2
import csv
import gzip
import io
import lzma
import os
import re
import tarfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pandas as pd

from ._schema import (
    ERROR_DUPLICATE_COLUMNS,
    LABEL_VOCABULARY,
    SchemaError,
    check_columns,
    check_option,
    validate_trials,
)

__all__ = [
    "BOB_LAYOUTS",
    "CLASS_TOKENS",
    "EXTENSIONS",
    "FORMATS",
    "GENERIC_NAMES",
    "SPLIT_TOKENS",
    "DEFAULT_MAX_BYTES",
    "FileTooLargeError",
    "ScoreFileError",
    "read_bob",
    "read_nist",
    "read_score_lists",
    "read_scores",
    "read_table",
]

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

#: Formats of :func:`read_scores`.
FORMATS = {
    "auto": "'table' for .csv, .tsv, .parquet and .pq files, 'bob' for every other file",
    "bob": "bob's 2-, 4- or 5-column text files (read_bob)",
    "nist": "NIST SRE / Kaldi score files, joined with the trials= key (read_nist)",
    "table": "CSV or Parquet tables, renamed with columns= (read_table)",
    "lists": "one genuine and one impostor list per system (read_score_lists)",
}

#: Suffixes dropped from a file name to form a system name (repeatedly, case-insensitive).
EXTENSIONS = (
    ".gz", ".bz2", ".xz", ".tgz", ".tar", ".txt", ".csv", ".tsv", ".parquet", ".pq",
    ".scores", ".score", ".lst", ".dat",
)

#: File-name tokens that give the split (a token is delimited by "-", "_" or ".";
#: case-insensitive). bob's names: ``test`` is the evaluation split.
SPLIT_TOKENS = {
    "dev": "dev",
    "development": "dev",
    "eval": "eval",
    "evaluation": "eval",
    "test": "eval",
    "train": "train",
    "training": "train",
}

#: File-name tokens that tell a genuine list from an impostor list (format="lists").
CLASS_TOKENS = {
    "genuine": "genuine",
    "gen": "genuine",
    "true": "genuine",
    "target": "genuine",
    "positive": "genuine",
    "pos": "genuine",
    "impostor": "impostor",
    "imposter": "impostor",
    "imp": "impostor",
    "false": "impostor",
    "nontarget": "impostor",
    "negative": "impostor",
    "neg": "impostor",
}

#: Names that do not name a system: the parent directory's name is used instead
#: (bob's ``<system>/scores-dev`` layout).
GENERIC_NAMES = ("", "scores", "score")

_TABLE_SUFFIXES = (".csv", ".tsv", ".parquet", ".pq")
_CANONICAL = ("system", "trial", "label", "score", "split")

ERROR_FIELDS = (
    "{source}, line {line}: expected {expected} whitespace-separated fields ({names}), "
    "found {found}"
)
ERROR_NOT_A_NUMBER = "{source}, line {line}: expected a number in field {field} ({name}), found {value!r}"
ERROR_LABEL = "{source}, line {line}: expected a label in field {field} ({expected}), found {value!r}"
ERROR_EMPTY_FILE = "{source}: no data lines (the file is empty or blank)"
ERROR_NOT_TEXT = "{source}: not UTF-8 text ({reason})"
ERROR_NO_FILE = "{path}: no such file or directory"
ERROR_NOT_REGULAR = "{path}: not a regular file (a directory, a device or a pipe)"
ERROR_EMPTY_DIRECTORY = "{path}: the directory has no score files"
ERROR_NO_MEMBERS = "{path}: the tar archive has no regular (non-hidden) member"
ERROR_MEMBER = "{path}: the tar archive has no member {member!r}; its members: {members}"
ERROR_MEMBER_NOT_TAR = "{path}: member={member!r} was given, but the file is not a tar archive"
ERROR_NO_SCORE = "{scores}: no score for the trial (enroll={enroll!r}, test={test!r}) of {trials}, line {line}"
ERROR_EXTRA_SCORE = (
    "{scores}, line {line}: a score for (enroll={enroll!r}, test={test!r}), which is not "
    "a trial of {trials}"
)
ERROR_DUPLICATE_KEY = "{source}, line {line}: (enroll={enroll!r}, test={test!r}) already appeared on line {first}"
ERROR_MAPPING = "{path}: columns= maps column(s) {missing} that the file does not have; its columns: {found}"
ERROR_COLUMN_CLASH = (
    "{path}: the table already has a {column!r} column, so {column}={value!r} would "
    "overwrite it; drop the keyword or rename the column with columns="
)
ERROR_FIELDS_OPTION = "fields={value!r} is not one of {allowed}"
ERROR_SOURCES = "pass score files positionally or with dev= / eval=, not both"
ERROR_NO_SOURCES = "no score files given: pass paths positionally or with dev= / eval="
ERROR_DUPLICATE_SOURCE = (
    "{first} and {second} both give system {system!r}{where}; name the systems with a "
    "mapping {{system: path}}"
)
ERROR_MIXED_SPLITS = (
    "some files name a split (dev/eval) and others do not: {files}; pass them as "
    "dev= / eval= instead"
)
ERROR_LIST_CLASS = (
    "{path}: cannot tell a genuine from an impostor list by this name; name the files "
    "like <system>_genuine.txt and <system>_impostor.txt (class tokens: {tokens})"
)
ERROR_LIST_PAIR = "{path}: no {missing} list for system {system!r}{where}"
ERROR_TRIALS_NEEDED = "format='nist' needs trials=: the trials file (or a mapping {{split: path}})"
ERROR_TRIALS_SPLIT = "trials= has no trials file for split {split!r} (it has {found})"
ERROR_UNUSED = "{name}= is only used with format={formats}, got format={format!r}"
ERROR_TOO_LARGE = (
    "{source}: more than max_bytes={max_bytes} bytes (after decompression); pass a larger "
    "max_bytes= to read it"
)
ERROR_MAX_BYTES_OPTION = "max_bytes={value!r} must be a positive integer (a number of bytes)"
ERROR_CORRUPT = "{source}: cannot read the {what} ({reason})"
ERROR_NOT_COMPRESSED = "{path}: the name says {codec}, but the file is not {codec} data"
ERROR_SPARSE_MEMBER = "{source}: a sparse tar member; extract the archive and read the file"
ERROR_PATH_TYPE = "expected a path (str or path-like), got {type}"
ERROR_NO_FILES = "no score files given: the list of paths is empty"
ERROR_TABLE_MEMBERS = "{path}: a table is read from a tar archive of one member, found {n}"


class ScoreFileError(SchemaError):
    """A score file is malformed; the message names the file, the line and what was expected."""


class FileTooLargeError(ScoreFileError):
    """A file holds more than ``max_bytes`` bytes once decompressed (a reader's bound)."""


# ---------------------------------------------------------------------------- reading text
#: The default bound on the bytes a reader takes from one file, after decompression
#: (1 GiB); raise it with ``max_bytes=``.
DEFAULT_MAX_BYTES = 1 << 30

# name suffix -> (codec, magic bytes); a file is decompressed when it starts with the magic
# bytes, and a file whose name promises a codec must start with them.
_CODECS = {
    "gzip": ((".gz", ".tgz"), b"\x1f\x8b", gzip.open),
    "bzip2": ((".bz2", ".tbz", ".tbz2"), b"BZh", bz2.open),
    "xz": ((".xz", ".txz"), b"\xfd7zXZ\x00", lzma.open),
}
_TAR_SUFFIXES = (".tar", ".tgz", ".tbz", ".tbz2", ".txz", ".tar.gz", ".tar.bz2", ".tar.xz")
_CODEC_ERRORS = (EOFError, OSError, lzma.LZMAError, zlib.error, ValueError)


@dataclass(frozen=True)
class _Source:
    """The decoded text of one file, or of one member of a tar archive."""

    name: str
    text: str


def _check_max_bytes(max_bytes) -> int:
    if (
        isinstance(max_bytes, bool)
        or not isinstance(max_bytes, int | np.integer)
        or max_bytes < 1
    ):
        raise ValueError(ERROR_MAX_BYTES_OPTION.format(value=max_bytes))
    return int(max_bytes)


def _codec_of(path: Path, head: bytes) -> str | None:
    """The codec of a file, by its magic bytes; a suffix promising another is an error."""
    name = path.name.lower()
    by_magic = next((c for c, (_, magic, _) in _CODECS.items() if head.startswith(magic)), None)
    if by_magic == "bzip2" and not (head[3:4].isdigit() and head[4:6] in (b"1A", b"\x17r")):
        by_magic = None  # text that happens to start with "BZh"
    by_name = next(
        (c for c, (suffixes, _, _) in _CODECS.items() if name.endswith(suffixes)), None
    )
    if by_name is not None and by_magic != by_name:
        raise ScoreFileError(ERROR_NOT_COMPRESSED.format(path=path, codec=by_name))
    return by_magic


_CHUNK = 1 << 20


def _read_bounded(path: Path, max_bytes: int) -> bytearray:
    """The bytes of a file, decompressed as it streams, never more than ``max_bytes``."""
    codec = None
    try:
        with open(path, "rb") as handle:
            head = handle.read(6)
        codec = _codec_of(path, head)
        opener = open if codec is None else _CODECS[codec][2]
        data = bytearray()
        with opener(path, "rb") as handle:
            while len(data) <= max_bytes:  # in chunks: memory stays near max_bytes
                chunk = handle.read(min(_CHUNK, max_bytes + 1 - len(data)))
                if not chunk:
                    break
                data += chunk
    except ScoreFileError:
        raise
    except _CODEC_ERRORS as error:
        what = "file" if codec is None else f"{codec} data"
        raise ScoreFileError(
            ERROR_CORRUPT.format(source=path, what=what, reason=_reason(error))
        ) from None
    if len(data) > max_bytes:
        raise FileTooLargeError(ERROR_TOO_LARGE.format(source=path, max_bytes=max_bytes))
    return data


def _reason(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}" if str(error) else type(error).__name__


def _is_tar(data: bytes, path: Path) -> bool:
    """A tar archive: POSIX/GNU magic bytes, or a name ending in a tar suffix."""
    return data[257:262] == b"ustar" or path.name.lower().endswith(_TAR_SUFFIXES)


def _decode(data: bytes | bytearray, name: str) -> _Source:
    try:
        return _Source(name, data.decode("utf-8-sig"))
    except UnicodeDecodeError as error:
        raise ScoreFileError(ERROR_NOT_TEXT.format(source=name, reason=error.reason)) from None


def _member_name(path: Path, member: tarfile.TarInfo) -> str:
    name = member.name if member.name.isprintable() else repr(member.name)
    return f"{path} (member {name})"


def _read_members(
    path: Path, data: bytes, member: str | None, max_bytes: int
) -> list[tuple[str, bytes]]:
    """``(name, bytes)`` of the regular, non-hidden members of a tar archive held in memory.

    Nothing is extracted to disk; links, devices and directories are skipped, a sparse
    member (whose size on reading is not its size in the archive) is refused, and the
    members read together never exceed ``max_bytes``.
    """
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
            members = [
                m for m in archive.getmembers()
                if m.isreg() and not Path(m.name).name.startswith(".")
            ]
            if member is not None:
                chosen = [m for m in members if m.name == member]
                chosen = chosen or [m for m in members if Path(m.name).name == member]
                if len(chosen) != 1:
                    raise ScoreFileError(
                        ERROR_MEMBER.format(
                            path=path, member=member, members=[m.name for m in members]
                        )
                    )
                members = chosen
            if not members:
                raise ScoreFileError(ERROR_NO_MEMBERS.format(path=path))
            out, total = [], 0
            for m in members:
                name = _member_name(path, m)
                if m.issparse():
                    raise ScoreFileError(ERROR_SPARSE_MEMBER.format(source=name))
                total += m.size
                if total > max_bytes:
                    raise FileTooLargeError(
                        ERROR_TOO_LARGE.format(source=name, max_bytes=max_bytes)
                    )
                handle = archive.extractfile(m)
                content = handle.read(m.size + 1) if handle is not None else b""
                if len(content) != m.size:
                    raise ScoreFileError(
                        ERROR_CORRUPT.format(
                            source=name, what="tar member",
                            reason=f"{len(content)} bytes where the header says {m.size}",
                        )
                    )
                out.append((name, content))
            return out
    except ScoreFileError:
        raise
    except (tarfile.TarError, *_CODEC_ERRORS) as error:
        raise ScoreFileError(
            ERROR_CORRUPT.format(source=path, what="tar archive", reason=_reason(error))
        ) from None


def _regular_file(path: PathLike) -> Path:
    """``path`` as a Path naming an existing regular file, or a named error."""
    if not isinstance(path, str | os.PathLike) or isinstance(path, bytes):
        raise TypeError(ERROR_PATH_TYPE.format(type=type(path).__name__))
    path = Path(path)
    if not path.is_file():
        if path.exists():
            raise FileNotFoundError(ERROR_NOT_REGULAR.format(path=path))
        raise FileNotFoundError(ERROR_NO_FILE.format(path=path))
    return path


def _read_blobs(
    path: PathLike, member: str | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> list[tuple[str, bytes]]:
    """``(name, bytes)`` of a local file, decompressed, one per member if it is a tar.

    ``path`` is always a local path: a string such as ``"https://..."`` names a file, it is
    never downloaded.
    """
    max_bytes = _check_max_bytes(max_bytes)
    path = _regular_file(path)
    data = _read_bounded(path, max_bytes)
    if not _is_tar(data, path):
        if member is not None:
            raise ScoreFileError(ERROR_MEMBER_NOT_TAR.format(path=path, member=member))
        return [(str(path), data)]
    return _read_members(path, data, member, max_bytes)


def _read_sources(
    path: PathLike, member: str | None = None, max_bytes: int = DEFAULT_MAX_BYTES
) -> list[_Source]:
    """The text(s) of a file: decompressed, and one per member if it is a tar archive."""
    return [_decode(data, name) for name, data in _read_blobs(path, member, max_bytes)]


# ---------------------------------------------------------------------------- fields
# str.split() splits at these too, the C parser of pandas does not: read such files slowly.
_OTHER_WHITESPACE = re.compile(
    "[\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)


# Lines end at \n, \r\n or \r (as for pandas' C parser); other white space separates fields.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _lines(text: str) -> list[str]:
    return _LINE_BREAK.split(text)


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
    if len(frame) != sum(1 for line in _lines(text) if line.strip()):
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
    columns = _fast_fields(source.text, n)
    if columns is not None:
        return columns
    rows = []
    for line, fields in _data_lines(source.text):
        if len(fields) != n:
            raise _fields_error(source, line, {n: layouts[n]}, len(fields))
        rows.append(fields)
    return [np.array(column, dtype=object) for column in zip(*rows, strict=True)]


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


# ---------------------------------------------------------------------------- names
def _strip_extensions(name: str) -> str:
    lowered = name.lower()
    stripped = True
    while stripped:
        stripped = False
        for extension in EXTENSIONS:
            if lowered.endswith(extension) and len(lowered) > len(extension):
                name, lowered = name[: -len(extension)], lowered[: -len(extension)]
                stripped = True
    return name


def _file_system_name(path: PathLike) -> str:
    """The system name of a single-file reader: the file name without its extensions."""
    return _strip_extensions(_regular_file(path).name)


def _take_token(parts: list[str], tokens: Mapping[str, str]) -> str | None:
    """Remove a first or last name token found in ``tokens``; return what it stands for.

    ``parts`` alternates words and separators, as ``re.split`` with a group leaves them.
    """
    for index in (-1, 0):
        if parts and parts[index].lower() in tokens:
            value = tokens[parts[index].lower()]
            del parts[index]
            if parts and parts[index] in ("-", "_", "."):  # the separator next to it
                del parts[index]
            return value
    return None


def _parse_name(
    path: Path, *, split_tokens: Mapping[str, str], class_tokens: Mapping[str, str] | None
) -> tuple[str, str | None, str | None]:
    """``(system, split, class)`` read off a file name (see :func:`read_scores`)."""
    parts = [p for p in re.split(r"([-_.])", _strip_extensions(path.name)) if p]
    split = cls = None
    for _ in range(2):
        if class_tokens is not None and cls is None:
            cls = _take_token(parts, class_tokens)
        if split is None:
            split = _take_token(parts, split_tokens)
    name = "".join(parts).strip("-_.")
    parent = path.parent
    while name.lower() in GENERIC_NAMES and parent.name:
        name, parent = parent.name, parent.parent
    return name, split, cls


# ---------------------------------------------------------------------------- frames
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
    system: str | None = None,
    split: str | None = None,
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
    system : str, optional
        The system name; by default the file name without its extensions
        (:data:`EXTENSIONS`): ``scores-dev.txt.gz`` gives ``"scores-dev"``.
    split : str, optional
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
        - ``split`` when ``split`` is given;
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
            path, fields=fields, member=member, system=system, split=split, max_bytes=max_bytes
        )
    )


def read_nist(
    trials: PathLike,
    scores: PathLike,
    /,
    *,
    system: str | None = None,
    split: str | None = None,
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
    system : str, optional
        The system name; by default the score file's name without its extensions.
    split : str, optional
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
    return _validated(_nist_frame(trials, scores, system=system, split=split, max_bytes=max_bytes))


def read_table(
    path: PathLike,
    /,
    *,
    columns: Mapping[str, str] | None = None,
    system: str | None = None,
    split: str | None = None,
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
    system : str, optional
        For a table without a ``system`` column: the system name (by default the file
        name without its extensions). An error if the table has one.
    split : str, optional
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
        ``columns=`` names a column the file lacks, ``system=`` / ``split=`` would
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
    frame = _table_frame(path, columns=columns, system=system, split=split, max_bytes=max_bytes)
    return _validated(frame)


def read_score_lists(
    genuine: PathLike,
    impostor: PathLike,
    /,
    *,
    system: str | None = None,
    split: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    """Read a pair of genuine and impostor score lists (pyeer's input files).

    Parameters
    ----------
    genuine, impostor : str or path-like
        Text files with one score per line; the score is the last whitespace-separated
        field of the line (earlier fields, such as ids, are ignored), blank lines are
        skipped.
    system : str, optional
        The system name; by default the genuine file's name without its extensions.
    split : str, optional
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
    >>> read_score_lists(folder / "genuine.txt", folder / "impostor.txt", system="cnn")
      system  trial     label  score
    0    cnn      0   genuine   0.91
    1    cnn      1   genuine   0.85
    2    cnn      2  impostor   0.12
    3    cnn      3  impostor   0.40
    4    cnn      4  impostor   0.33
    """
    return _validated(
        _lists_frame(genuine, impostor, system=system, split=split, max_bytes=max_bytes)
    )


@dataclass
class _Entry:
    path: Path
    system: str
    split: str | None
    cls: str | None
    named: bool  # the system name was given by a mapping key
    split_from_name: bool = False  # the split was read off the file name, not given


def _expand(spec, excluded: set[Path]) -> list[tuple[Path, str | None]]:
    """``(file, system name from a mapping or None)`` for a path, a list or a mapping."""
    if isinstance(spec, Mapping):
        out = []
        for name, value in spec.items():
            out.extend((path, str(name)) for path, _ in _expand(value, excluded))
        return out
    if isinstance(spec, str | os.PathLike):
        path = Path(spec)
        if path.is_dir():
            files = sorted(
                p for p in path.iterdir()
                if p.is_file() and not p.name.startswith(".") and p.resolve() not in excluded
            )
            if not files:
                raise FileNotFoundError(ERROR_EMPTY_DIRECTORY.format(path=path))
            return [(p, None) for p in files]
        if not path.is_file():
            raise FileNotFoundError(ERROR_NO_FILE.format(path=path))
        return [(path, None)]
    if not isinstance(spec, Sequence | set | frozenset) or isinstance(spec, bytes):
        raise TypeError(ERROR_PATH_TYPE.format(type=type(spec).__name__))
    return [item for element in spec for item in _expand(element, excluded)]


def _entries(source, dev, eval, *, lists: bool, excluded: set[Path]) -> list[_Entry]:
    if source is not None and (dev is not None or eval is not None):
        raise ValueError(ERROR_SOURCES)
    if source is None and dev is None and eval is None:
        raise ValueError(ERROR_NO_SOURCES)
    groups = (
        [(None, source, SPLIT_TOKENS)]
        if source is not None
        else [
            (split, spec, {k: v for k, v in SPLIT_TOKENS.items() if v == split})
            for split, spec in (("dev", dev), ("eval", eval))
            if spec is not None
        ]
    )
    entries = []
    for given_split, spec, tokens in groups:
        for path, name in _expand(spec, excluded):
            system, split, cls = _parse_name(
                path, split_tokens=tokens, class_tokens=CLASS_TOKENS if lists else None
            )
            entries.append(
                _Entry(path, name or system, given_split or split, cls, name is not None,
                       given_split is None and split is not None)
            )
    if source is not None:
        with_split = [e for e in entries if e.split is not None]
        if with_split and len(with_split) < len(entries):
            files = [str(e.path) for e in entries if e.split is None]
            raise ValueError(ERROR_MIXED_SPLITS.format(files=files))
    return entries


def _where(split) -> str:
    return "" if split is None else f" in split {split!r}"


def _check_unique(entries: list[_Entry], key) -> None:
    seen: dict = {}
    for entry in entries:
        k = key(entry)
        if k in seen:
            raise ValueError(
                ERROR_DUPLICATE_SOURCE.format(
                    first=seen[k].path, second=entry.path, system=entry.system,
                    where=_where(entry.split),
                )
            )
        seen[k] = entry


def read_scores(
    source: PathLike | Sequence[PathLike] | Mapping[str, PathLike | Sequence[PathLike]]
    | None = None,
    /,
    *,
    format: Literal["auto", "bob", "nist", "table", "lists"] = "auto",
    dev: PathLike | Sequence[PathLike] | Mapping[str, PathLike | Sequence[PathLike]]
    | None = None,
    eval: PathLike | Sequence[PathLike] | Mapping[str, PathLike | Sequence[PathLike]]
    | None = None,
    trials: PathLike | Mapping[str, PathLike] | None = None,
    columns: Mapping[str, str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    """Read the score files of several systems (and splits) into one tidy trial table.

    Give the files either positionally (the split, if any, is read off the file names) or
    as ``dev=`` and ``eval=`` (the split is the keyword). Each may be a file, a directory
    (its non-hidden files, sorted by name, not recursing), a list of those, or a mapping
    ``{system: path or list of paths}`` that names the systems.

    Parameters
    ----------
    source : path, list of paths or mapping, optional
        The score files.
    format : {"auto", "bob", "nist", "table", "lists"}
        How to read each file (:data:`FORMATS`): ``"auto"`` reads ``.csv``, ``.tsv``,
        ``.parquet`` and ``.pq`` files with :func:`read_table` and the others with
        :func:`read_bob`; ``"nist"`` reads each file as a score file of :func:`read_nist`
        against ``trials=``; ``"lists"`` pairs genuine and impostor lists
        (:func:`read_score_lists`) by their names.
    dev, eval : path, list of paths or mapping, optional
        The score files of the development and evaluation sets: their rows get ``split``
        ``"dev"`` and ``"eval"``.
    trials : path or mapping, optional
        ``format="nist"`` only: the trials key shared by all systems, or ``{split: key}``.
    columns : mapping, optional
        Table files only: the column renaming of :func:`read_table`.
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (1 GiB)
        The most bytes read from each file, after decompression; past it
        :class:`FileTooLargeError`. Raise it to read a larger file.

    Returns
    -------
    DataFrame
        The tidy tables of all files, concatenated in the order given (directory files by
        name): ``system, trial, label, score``, ``split`` when the split is known, then
        the format's own columns (see the single-file readers).

    Raises
    ------
    ScoreFileError
        A malformed file (the message names the file and line).
    SchemaError
        The combined table breaks the tidy schema.
    ValueError
        Files given both positionally and as dev/eval, two files that give the same
        system and split, files of which only some name a split, a genuine list without
        its impostor list (or the reverse), a missing or unused ``trials=`` or
        ``columns=``.
    FileNotFoundError
        A path that does not exist, or a directory without files.

    See Also
    --------
    read_bob, read_nist, read_table, read_score_lists

    Notes
    -----
    System, split and class are read off each file name as follows (mapping keys, when
    given, replace the system name only):

    1. drop the :data:`EXTENSIONS` from the end of the name: ``cnn-dev.txt.gz`` →
       ``cnn-dev``;
    2. cut the rest into tokens at ``-``, ``_`` and ``.``; a first or last token in
       :data:`SPLIT_TOKENS` gives the split and is removed (positional files only; a file
       given as ``dev=`` may still carry the token ``dev``, which is removed);
    3. ``format="lists"``: a first or last token in :data:`CLASS_TOKENS` (``genuine``,
       ``impostor``, pyeer's ``true`` / ``false``...) gives the list's class and is
       removed;
    4. the rest is the system name, unless it is empty or one of :data:`GENERIC_NAMES`
       (``scores``): then the parent directory's name is used, so bob's layout
       ``isv/scores-dev``, ``isv/scores-eval`` gives system ``isv``, splits dev and eval.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from pandas_biosig.io import read_scores
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> lines = "a a p1 {}\\na b p2 {}\\nb b p2 {}\\nb a p1 {}\\n"
    >>> _ = (folder / "cnn-dev.txt").write_text(lines.format(2.5, -1, 1.5, 0.3))
    >>> _ = (folder / "cnn-eval.txt").write_text(lines.format(1.2, -0.7, 3.1, 1.4))
    >>> _ = (folder / "gmm-dev.txt").write_text(lines.format(0.5, -2, 0.1, -0.3))
    >>> _ = (folder / "gmm-eval.txt").write_text(lines.format(0.9, 0.2, 1.0, -1.1))
    >>> trials = read_scores(folder)
    >>> trials.groupby(["system", "split"]).size()
    system  split
    cnn     dev      4
            eval     4
    gmm     dev      4
            eval     4
    dtype: int64

    The same files as ``dev=`` / ``eval=``, systems named by a mapping:

    >>> trials = read_scores(dev={"A": folder / "cnn-dev.txt"},
    ...                      eval={"A": folder / "cnn-eval.txt"})
    >>> trials[["system", "split"]].drop_duplicates()
      system split
    0      A   dev
    4      A  eval
    """
    check_option(format, FORMATS, "format")
    if format != "nist" and trials is not None:
        raise ValueError(ERROR_UNUSED.format(name="trials", formats="'nist'", format=format))
    if format not in ("auto", "table") and columns is not None:
        raise ValueError(
            ERROR_UNUSED.format(name="columns", formats="'table' or 'auto'", format=format)
        )
    if format == "nist" and trials is None:
        raise ValueError(ERROR_TRIALS_NEEDED)
    trial_files = (
        {} if trials is None
        else dict(trials) if isinstance(trials, Mapping)
        else {None: trials}
    )
    excluded = {Path(p).resolve() for p in trial_files.values()}
    entries = _entries(source, dev, eval, lists=format == "lists", excluded=excluded)
    if not entries:
        raise ValueError(ERROR_NO_FILES)
    if format == "lists":
        frames = _read_list_entries(entries, max_bytes)
    else:
        # a table may hold its own system column: only names taken from files must differ
        _check_unique(
            [e for e in entries if e.named or not _reads_as_table(e.path, format)],
            lambda e: (e.system, e.split),
        )
        frames = [
            _read_entry(entry, format, trial_files, columns, max_bytes) for entry in entries
        ]
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    first = [c for c in _CANONICAL if c in frame.columns]
    frame = frame[first + [c for c in frame.columns if c not in first]]
    return _validated(frame)


def _reads_as_table(path: Path, format: str) -> bool:
    return format == "table" or (format == "auto" and _table_suffix(path) is not None)


def _read_entry(entry: _Entry, format, trial_files, columns, max_bytes) -> pd.DataFrame:
    if _reads_as_table(entry.path, format):
        return _table_frame(
            entry.path, columns=columns, system=entry.system if entry.named else None,
            split=entry.split, default_system=entry.system,
            split_from_name=entry.split_from_name, max_bytes=max_bytes,
        )
    if format == "nist":
        key = entry.split if entry.split in trial_files else None
        if key not in trial_files:
            raise ValueError(
                ERROR_TRIALS_SPLIT.format(split=entry.split, found=list(trial_files))
            )
        return _nist_frame(
            trial_files[key], entry.path, system=entry.system, split=entry.split,
            max_bytes=max_bytes,
        )
    return _bob_frame(
        entry.path, fields="auto", member=None, system=entry.system, split=entry.split,
        max_bytes=max_bytes,
    )


def _read_list_entries(entries: list[_Entry], max_bytes: int) -> list[pd.DataFrame]:
    pairs: dict[tuple, dict[str, _Entry]] = {}
    for entry in entries:
        if entry.cls is None:
            raise ValueError(
                ERROR_LIST_CLASS.format(path=entry.path, tokens=sorted(CLASS_TOKENS))
            )
        pair = pairs.setdefault((entry.system, entry.split), {})
        if entry.cls in pair:
            raise ValueError(
                ERROR_DUPLICATE_SOURCE.format(
                    first=pair[entry.cls].path, second=entry.path, system=entry.system,
                    where=_where(entry.split),
                )
            )
        pair[entry.cls] = entry
    frames = []
    for (system, split), pair in pairs.items():
        for cls, other in (("genuine", "impostor"), ("impostor", "genuine")):
            if other not in pair:
                raise ValueError(
                    ERROR_LIST_PAIR.format(
                        path=pair[cls].path, missing=other, system=system, where=_where(split)
                    )
                )
        frames.append(
            _lists_frame(
                pair["genuine"].path, pair["impostor"].path, system=system, split=split,
                max_bytes=max_bytes,
            )
        )
    return frames


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
