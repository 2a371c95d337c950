"""Bounded opening: plain, gzip, bzip2, xz and tar files, decoded to text under ``max_bytes``."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import tarfile
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from ._errors import (
    ERROR_CORRUPT,
    ERROR_MAX_BYTES_OPTION,
    ERROR_MEMBER,
    ERROR_MEMBER_NOT_TAR,
    ERROR_NO_FILE,
    ERROR_NO_MEMBERS,
    ERROR_NOT_COMPRESSED,
    ERROR_NOT_REGULAR,
    ERROR_NOT_TEXT,
    ERROR_PATH_TYPE,
    ERROR_SPARSE_MEMBER,
    ERROR_TOO_LARGE,
    FileTooLargeError,
    ScoreFileError,
)

PathLike = str | os.PathLike



# ---------------------------------------------------------------------------- reading text
#: The default bound on the bytes a reader takes from one file, after decompression
#: (1 GiB); raise it with ``max_bytes=``.
DEFAULT_MAX_BYTES = 1 << 30

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


def _is_tar(data: bytes | bytearray, path: Path) -> bool:
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
    path: Path, data: bytes | bytearray, member: str | None, max_bytes: int
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
) -> Sequence[tuple[str, bytes | bytearray]]:
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
