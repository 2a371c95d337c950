"""Bounded opening: plain, gzip, bzip2, xz and tar files, decoded to text under ``max_bytes``.

``max_bytes`` bounds the memory of a read, not only the bytes of the file: the decompressed
bytes may not exceed it, and neither may the text plus the estimated cost of its parsed
fields (:func:`_check_parse_cost`: :data:`PARSE_BYTES_PER_FIELD` per field and
:data:`PARSE_BYTES_PER_ROW` per line on top of the text), checked before anything is
parsed. The raw bytes are dropped once decoded, so a read's peak memory stays within
:data:`PEAK_MULTIPLE` times ``max_bytes`` above the idle interpreter. One line may cost
little too: at most :data:`MAX_FIELDS_PER_LINE` fields and :data:`MAX_FIELD_BYTES` bytes a
field, checked on the bytes before they are decoded.
"""

from __future__ import annotations

import bz2
import dataclasses
import gzip
import io
import lzma
import os
import re
import tarfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from ._errors import (
    ERROR_CORRUPT,
    ERROR_FIELD_BYTES,
    ERROR_LINE_FIELDS,
    ERROR_MAX_BYTES_OPTION,
    ERROR_MEMBER,
    ERROR_MEMBER_NOT_TAR,
    ERROR_NO_FILE,
    ERROR_NO_MEMBERS,
    ERROR_NOT_COMPRESSED,
    ERROR_NOT_REGULAR,
    ERROR_NOT_TEXT,
    ERROR_PARSE_COST,
    ERROR_PATH_TYPE,
    ERROR_SPARSE_MEMBER,
    ERROR_TOO_LARGE,
    FileTooLargeError,
    ScoreFileError,
)

PathLike = str | os.PathLike



# ---------------------------------------------------------------------------- reading text
#: The default bound on the memory a reader takes for one file: its bytes after
#: decompression, and its text and parsed fields together (8 GiB: 10^7 trials of a bob
#: 5-column file fit); raise or lower it with ``max_bytes=``.
DEFAULT_MAX_BYTES = 8 << 30

#: The estimated memory of one parsed field (a Python string and its pointer) and of one
#: parsed line (the tidy table's own columns: trial key, label, score...), in bytes, on top
#: of the text itself.
PARSE_BYTES_PER_FIELD = 64
PARSE_BYTES_PER_ROW = 160

#: A read's peak memory above the idle interpreter stays within this multiple of
#: ``max_bytes`` (tests/test_hostile_files.py checks it under ``RLIMIT_AS``).
PEAK_MULTIPLE = 3

#: What one line may hold: a line of more fields, or a field of more bytes, is an error
#: naming the file and the line (no score format needs more).
MAX_FIELDS_PER_LINE = 1024
MAX_FIELD_BYTES = 1 << 16

# name suffix -> (codec, magic bytes); a file is decompressed when it starts with the magic
# bytes, and a file whose name promises a codec must start with them.
_CODECS: dict[str, tuple[tuple[str, ...], bytes, Callable[..., IO[Any]]]] = {
    "gzip": ((".gz", ".tgz"), b"\x1f\x8b", gzip.open),
    "bzip2": ((".bz2", ".tbz", ".tbz2"), b"BZh", bz2.open),
    "xz": ((".xz", ".txz"), b"\xfd7zXZ\x00", lzma.open),
}
_TAR_SUFFIXES = (".tar", ".tgz", ".tbz", ".tbz2", ".txz", ".tar.gz", ".tar.bz2", ".tar.xz")
_CODEC_ERRORS = (EOFError, OSError, lzma.LZMAError, zlib.error, ValueError)


@dataclass(frozen=True)
class _Source:
    """The decoded text of one file, or of one member of a tar archive; ``lines`` bounds
    its number of lines and ``max_bytes`` is the read's memory bound."""

    name: str
    text: str
    lines: int = 0
    max_bytes: int = DEFAULT_MAX_BYTES
    read_chars: int = 0  # the text of every source of the read (all tar members)
    read_lines: int = 0  # and their lines


def _check_parse_cost(source: _Source, fields: int) -> None:
    """Refuse, before parsing, a read whose parsed fields would take it past its
    ``max_bytes``: the text plus ``lines * (fields * PARSE_BYTES_PER_FIELD +
    PARSE_BYTES_PER_ROW)``, over every source of the read (as if each had ``fields``)."""
    chars, lines = max(source.read_chars, len(source.text)), max(source.read_lines, source.lines)
    cost = chars + lines * (max(fields, 1) * PARSE_BYTES_PER_FIELD + PARSE_BYTES_PER_ROW)
    if cost > source.max_bytes:
        raise FileTooLargeError(ERROR_PARSE_COST.format(
            source=source.name, cost=cost, lines=lines, fields=fields,
            max_bytes=source.max_bytes,
        ))


_SCAN_BLOCK = 1 << 24


def _scan_lines(data: bytes | bytearray, name: str) -> int:
    """The number of lines of ``data`` (at most), after checking every line longer than
    :data:`MAX_FIELD_BYTES` (no other can break the per-line bounds' costly part) for
    its fields and their bytes; block by block, so the scan takes little memory."""
    view = memoryview(data)
    newlines = returns = 0
    line_start, line_number = 0, 1  # the current line's first byte and its number
    for lo in range(0, len(data), _SCAN_BLOCK):
        block = np.frombuffer(view[lo : lo + _SCAN_BLOCK], dtype=np.uint8)
        is_n, is_r = block == 10, block == 13
        newlines += int(np.count_nonzero(is_n))
        returns += int(np.count_nonzero(is_r))
        ends = np.flatnonzero(is_n | is_r) + lo
        starts = np.concatenate([[line_start], ends[:-1] + 1]) if ends.size else np.array([line_start])
        long: np.ndarray | list[int] = (
            np.flatnonzero(ends - starts[: ends.size] > MAX_FIELD_BYTES) if ends.size else []
        )
        for k in long:
            _check_line(view, int(starts[k]), int(ends[k]), name, line_number + _breaks(view, line_start, int(starts[k])))
        if ends.size:
            line_number += _breaks(view, line_start, int(ends[-1]) + 1)
            line_start = int(ends[-1]) + 1
    if len(data) - line_start > MAX_FIELD_BYTES:
        _check_line(view, line_start, len(data), name, line_number)
    return max(newlines, returns) + 1


def _breaks(view: memoryview, lo: int, hi: int) -> int:
    """The line breaks between ``lo`` and ``hi`` (``\r\n`` counts once)."""
    chunk = bytes(view[lo:hi])
    return chunk.count(b"\n") + chunk.count(b"\r") - chunk.count(b"\r\n")


def _check_line(view: memoryview, lo: int, hi: int, name: str, line: int) -> None:
    """A long line: its fields (at white space or commas) must be few and short."""
    text = bytes(view[lo:hi])
    fields = [f for f in re.split(rb"[\s,]+", text) if f]
    if len(fields) > MAX_FIELDS_PER_LINE:
        raise ScoreFileError(ERROR_LINE_FIELDS.format(
            source=name, line=line, found=len(fields), limit=MAX_FIELDS_PER_LINE
        ))
    longest = max((len(f) for f in fields), default=0)
    if longest > MAX_FIELD_BYTES:
        raise ScoreFileError(ERROR_FIELD_BYTES.format(
            source=name, line=line, found=longest, limit=MAX_FIELD_BYTES
        ))


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


def _is_tar(data: bytes | bytearray, path: Path) -> bool:
    """A tar archive: POSIX/GNU magic bytes, or a name ending in a tar suffix."""
    return data[257:262] == b"ustar" or path.name.lower().endswith(_TAR_SUFFIXES)


def _decode(
    data: bytes | bytearray, name: str, max_bytes: int = DEFAULT_MAX_BYTES
) -> _Source:
    """The text of ``data``, once its lines are checked (:func:`_scan_lines`)."""
    lines = _scan_lines(data, name)
    try:
        return _Source(name, data.decode("utf-8-sig"), lines, max_bytes)
    except UnicodeDecodeError as error:
        raise ScoreFileError(ERROR_NOT_TEXT.format(source=name, reason=error.reason)) from None


def _member_name(path: Path, member: tarfile.TarInfo) -> str:
    name = member.name if member.name.isprintable() else repr(member.name)
    return f"{path} (member {name})"


def _read_members(
    path: Path, data: bytes | bytearray, member: str | None, max_bytes: int
) -> list[tuple[str, bytes | bytearray]]:
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
            out: list[tuple[str, bytes | bytearray]] = []
            total = 0
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
) -> list[tuple[str, bytes | bytearray]]:
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
    """The text(s) of a file: decompressed, and one per member if it is a tar archive;
    each member's bytes are dropped once decoded."""
    blobs = _read_blobs(path, member, max_bytes)
    sources = []
    while blobs:
        name, data = blobs.pop(0)
        sources.append(_decode(data, name, _check_max_bytes(max_bytes)))
        del data
    chars = sum(len(s.text) for s in sources)
    lines = sum(s.lines for s in sources)
    return [dataclasses.replace(s, read_chars=chars, read_lines=lines) for s in sources]


# ---------------------------------------------------------------------------- fields
