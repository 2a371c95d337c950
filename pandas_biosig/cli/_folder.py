"""The report folder of ``biosig report --out DIR``: written safely, owned by the library.

A report folder is recognised by :data:`MANIFEST`, a small JSON file that lists the files
the library wrote there. Writing a report

- into a missing or empty folder creates it;
- into a folder holding a previous report (a valid manifest) replaces that report whole:
  the files of the old report that the new one does not have are removed, so no stale
  table or figure is left beside the new report; files the manifest does not list (the
  user's own) are kept;
- a file is the library's only while its content is what the library wrote: the manifest
  records the SHA-256 of each file, and a listed file whose content differs (the user
  copied their own data over it, or edited it) is the user's: it is kept, and a report
  that would write a file of that name is refused;
- into any other non-empty folder is refused, unless ``force`` (then the report is added
  beside the files already there).

A file that is not the library's is never overwritten, ``force`` or not, and nothing is
written through a symbolic link: the new files are written in a fresh staging folder
inside DIR, then renamed into place (a rename replaces a link, it never follows it).
User strings (system names, file names) are escaped before they reach Markdown, so raw
HTML or Markdown syntax in a system name is shown as text.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path

import pandas as pd

__all__ = ["MANIFEST", "ReportFolderError", "escape_markdown", "escape_frame", "write_report"]

#: The file that marks a folder as a report of pandas_biosig.
MANIFEST = ".pandas_biosig-report.json"
_GENERATOR = "pandas_biosig report"
_MAX_MANIFEST_BYTES = 1 << 20

ERROR_NOT_EMPTY = (
    "--out {path}: the folder is not empty and holds no report of pandas_biosig (no "
    "{manifest}); choose a new or empty folder, or pass --force to add the report beside "
    "its files"
)
ERROR_NOT_A_FOLDER = "--out {path}: exists and is not a folder"
ERROR_SYMLINK = "--out {path}: is a symbolic link; give the folder it points to"
ERROR_CLASH = (
    "--out {path}: would overwrite {files}, which pandas_biosig did not write (or which "
    "changed since it wrote them); move them or choose another folder"
)


class ReportFolderError(ValueError):
    """The report folder cannot be written without touching files that are not the library's."""


# Markdown's inline syntax; "_" only where it could open or close emphasis (not inside
# a word such as cnn_aug), "#" only where it could start a heading, "(" and "[" only
# after "]" (where they would make a link or an image)
_MARKDOWN_SPECIAL = re.compile(
    r"([\\`*|~<>&]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|^#|(?<=\])[(\[])"
)
_HTML = {"&": "&amp;", "<": "&lt;", ">": "&gt;"}


def escape_markdown(text: str, *, pipes: bool = True) -> str:
    """``text`` shown literally in Markdown: HTML's ``& < >`` as entities, Markdown's
    inline punctuation (and, with ``pipes``, the table separator ``|``) behind a
    backslash, line breaks as spaces."""
    text = re.sub(r"[\r\n\t]+", " ", str(text))

    def one(m: re.Match) -> str:
        char = m.group(1)
        if char == "|" and not pipes:
            return char
        return _HTML.get(char, "\\" + char)

    return _MARKDOWN_SPECIAL.sub(one, text)


def escape_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells are escaped for Markdown (numbers unchanged);
    ``|`` is left to the table writer (:func:`pandas_biosig.export.to_markdown` escapes it)."""
    out = frame.copy()
    for column in out.columns:
        values = out[column]
        if values.dtype == object or pd.api.types.is_string_dtype(values.dtype) or isinstance(
            values.dtype, pd.CategoricalDtype
        ):
            out[column] = [
                escape_markdown(v, pipes=False) if isinstance(v, str) else v
                for v in values.astype(object)
            ]
    return out


def _is_plain_name(name: object) -> bool:
    return (
        isinstance(name, str) and name not in ("", ".", "..") and "/" not in name
        and "\\" not in name and "\0" not in name and not name.startswith(".")
    )


def _sha256(path: Path) -> str | None:
    """The SHA-256 of a regular file (not a link), or None."""
    try:
        if not stat.S_ISREG(path.lstat().st_mode):
            return None
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    except OSError:
        return None
    return digest.hexdigest()


def _owned(out: Path, previous: dict[str, str]) -> set[str]:
    """The files of ``previous`` ({name: sha256}) that still hold what the library wrote."""
    return {name for name, digest in previous.items() if _sha256(out / name) == digest}


def _previous_files(out: Path) -> dict[str, str] | None:
    """``{name: sha256}`` of the files a valid manifest in ``out`` lists, or None when
    there is none; a name without a recorded hash is not listed (it cannot be checked)."""
    path = out / MANIFEST
    try:
        info = path.lstat()
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_MANIFEST_BYTES:
        return None
    try:
        with open(path, "rb") as handle:
            manifest = json.loads(handle.read(_MAX_MANIFEST_BYTES).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or manifest.get("generator") != _GENERATOR:
        return None
    files, hashes = manifest.get("files"), manifest.get("sha256")
    if not isinstance(files, list) or not isinstance(hashes, dict):
        return None
    return {
        f: hashes[f] for f in files
        if _is_plain_name(f) and isinstance(hashes.get(f), str)
    }


def _write_manifest(stage: Path, out: Path, files: dict[str, str | None], version: str) -> None:
    text = json.dumps(
        {"generator": _GENERATOR, "version": version, "files": sorted(files),
         "sha256": dict(sorted(files.items()))},
        indent=1,
    )
    (stage / MANIFEST).write_text(text + "\n", encoding="utf-8")
    os.replace(stage / MANIFEST, out / MANIFEST)


def write_report(
    out: Path, write: Callable[[Path], None], *, force: bool = False, version: str = ""
) -> list[Path]:
    """Write a report into ``out`` safely; return the files written (report first).

    ``write(stage)`` writes the report's files into ``stage``, a fresh empty folder.
    """
    out = Path(out)
    if out.is_symlink():
        raise ReportFolderError(ERROR_SYMLINK.format(path=out))
    if out.exists() and not out.is_dir():
        raise ReportFolderError(ERROR_NOT_A_FOLDER.format(path=out))
    out.mkdir(parents=True, exist_ok=True)
    previous = _previous_files(out)
    existing = {p.name for p in out.iterdir()}
    if previous is None and existing and not force:
        raise ReportFolderError(ERROR_NOT_EMPTY.format(path=out, manifest=MANIFEST))
    if previous is None and MANIFEST in existing:
        raise ReportFolderError(ERROR_CLASH.format(path=out, files=[MANIFEST]))
    owned = _owned(out, previous or {})
    stage = Path(tempfile.mkdtemp(prefix=".pandas_biosig-staging-", dir=out))
    try:
        write(stage)
        new = sorted(p.name for p in stage.iterdir() if _is_plain_name(p.name))
        extra = [p for p in stage.iterdir() if not _is_plain_name(p.name)]
        if extra:  # pragma: no cover - the writer names its files
            raise ReportFolderError(ERROR_CLASH.format(path=out, files=[p.name for p in extra]))
        clash = sorted(n for n in new if n in existing and n not in owned)
        if clash:
            raise ReportFolderError(ERROR_CLASH.format(path=out, files=clash))
        written = {name: _sha256(stage / name) for name in new}
        # the manifest lists old and new files while they are swapped, then the new ones
        _write_manifest(stage, out, {**{n: (previous or {})[n] for n in owned}, **written},
                        version)
        for name in new:
            os.replace(stage / name, out / name)  # replaces a link; never follows it
        for name in sorted(owned - set(new)):
            target = out / name
            with contextlib.suppress(FileNotFoundError):
                if _sha256(target) != (previous or {})[name]:
                    continue  # changed since it was written: the user's now
                target.unlink()
        _write_manifest(stage, out, written, version)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    ordered = sorted(new, key=lambda n: (n != "report.md", n))
    return [out / n for n in ordered]
