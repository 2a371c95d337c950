"""read_scores: one call for files, directories, globs and archives of every format."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import pandas as pd

from .._core.schema import check_option
from ._errors import (
    ERROR_DUPLICATE_SOURCE,
    ERROR_EMPTY_DIRECTORY,
    ERROR_LIST_CLASS,
    ERROR_LIST_PAIR,
    ERROR_MIXED_SPLITS,
    ERROR_NO_FILE,
    ERROR_NO_FILES,
    ERROR_NO_SOURCES,
    ERROR_PATH_TYPE,
    ERROR_SOURCES,
    ERROR_TRIALS_NEEDED,
    ERROR_TRIALS_SPLIT,
    ERROR_UNUSED,
)
from ._formats import (
    _CANONICAL,
    IMPOSTOR_FORMATS,
    _bob_frame,
    _lists_frame,
    _nist_frame,
    _table_frame,
    _validated,
    reads_as_table,
)
from ._names import CLASS_TOKENS, SPLIT_TOKENS, parse_name
from ._open import DEFAULT_MAX_BYTES

PathLike = str | os.PathLike


#: Formats of :func:`read_scores`.
FORMATS = {
    "auto": "'table' for .csv, .tsv, .parquet and .pq files, 'bob' for every other file",
    "bob": "bob's 2-, 4- or 5-column text files (read_bob)",
    "nist": "NIST SRE / Kaldi score files, joined with the trials= key (read_nist)",
    "table": "CSV or Parquet tables, renamed with columns= (read_table)",
    "lists": "one genuine and one impostor list per system (read_score_lists)",
    "pyeer_histogram": "'lists' whose impostor file is pyeer's histogram format: one count "
                       "per integer score, read as counted trials (read_score_lists)",
}


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
        out: list[tuple[Path, str | None]] = []
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
            system, split, cls = parse_name(
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
    format: Literal["auto", "bob", "nist", "table", "lists", "pyeer_histogram"] = "auto",
    dev: PathLike | Sequence[PathLike] | Mapping[str, PathLike | Sequence[PathLike]]
    | None = None,
    eval: PathLike | Sequence[PathLike] | Mapping[str, PathLike | Sequence[PathLike]]
    | None = None,
    trials: PathLike | Mapping[str, PathLike] | None = None,
    columns: Mapping[str, str] | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    impostor_format: Literal["auto", "scores", "histogram"] = "auto",
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
    format : {"auto", "bob", "nist", "table", "lists", "pyeer_histogram"}
        How to read each file (:data:`FORMATS`): ``"auto"`` reads ``.csv``, ``.tsv``,
        ``.parquet`` and ``.pq`` files with :func:`read_table` and the others with
        :func:`read_bob`; ``"nist"`` reads each file as a score file of :func:`read_nist`
        against ``trials=``; ``"lists"`` pairs genuine and impostor lists
        (:func:`read_score_lists`) by their names; ``"pyeer_histogram"`` pairs them too,
        the impostor file read as pyeer's histogram format (counted trials, a ``count``
        column: ``impostor_format="histogram"`` of :func:`read_score_lists`).
    dev, eval : path, list of paths or mapping, optional
        The score files of the development and evaluation sets: their rows get ``split``
        ``"dev"`` and ``"eval"``.
    trials : path or mapping, optional
        ``format="nist"`` only: the trials key shared by all systems, or ``{split: key}``.
    columns : mapping, optional
        Table files only: the column renaming of :func:`read_table`.
    impostor_format : {"auto", "scores", "histogram"}
        ``format="lists"`` only: how to read each impostor list, as in
        :func:`read_score_lists`.
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (8 GiB)
        The most memory reading each file may take: its bytes after decompression, and
        its text with the estimated cost of its parsed fields (checked before
        parsing; the read's peak stays within :data:`~pandas_biosig.io.PEAK_MULTIPLE`
        times it); past it :class:`~pandas_biosig.io.FileTooLargeError`. Raise it to
        read a larger file.

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
    2. cut the rest into tokens at ``-``, ``_`` and ``.``; a token in :data:`SPLIT_TOKENS`
       gives the split and is removed with the separator beside it: the last token, else
       the first, else one in the middle (``scores-dev-isv``) (positional files only; a
       file given as ``dev=`` may still carry the token ``dev``, which is removed);
    3. ``format="lists"``: a token in :data:`CLASS_TOKENS` (``genuine``, ``impostor``,
       pyeer's ``true`` / ``false``...), found the same way, gives the list's class and
       is removed;
    4. a first or last token of :data:`GENERIC_NAMES` (``scores``) is removed when other
       tokens remain (``scores-dev-isv`` gives system ``isv``, split dev);
    5. the rest is the system name, unless it is empty or one of :data:`GENERIC_NAMES`:
       then the parent directory's name is used, so bob's layout ``isv/scores-dev``,
       ``isv/scores-eval`` gives system ``isv``, splits dev and eval.

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
    lists = format in ("lists", "pyeer_histogram")
    check_option(impostor_format, IMPOSTOR_FORMATS, "impostor_format")
    if format == "pyeer_histogram":
        impostor_format = "histogram"
    entries = _entries(source, dev, eval, lists=lists, excluded=excluded)
    if not entries:
        raise ValueError(ERROR_NO_FILES)
    if lists:
        frames = _read_list_entries(entries, max_bytes, impostor_format)
    else:
        # a table may hold its own system column: only names taken from files must differ
        _check_unique(
            [e for e in entries if e.named or not reads_as_table(e.path, format)],
            lambda e: (e.system, e.split),
        )
        frames = [
            _read_entry(entry, format, trial_files, columns, max_bytes) for entry in entries
        ]
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    first = [c for c in _CANONICAL if c in frame.columns]
    frame = frame[first + [c for c in frame.columns if c not in first]]
    return _validated(frame, "count" if lists and "count" in frame.columns else None)


def _read_entry(entry: _Entry, format, trial_files, columns, max_bytes) -> pd.DataFrame:
    if reads_as_table(entry.path, format):
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


def _read_list_entries(entries: list[_Entry], max_bytes: int,
                       impostor_format: str) -> list[pd.DataFrame]:
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
                max_bytes=max_bytes, impostor_format=impostor_format,
            )
        )
    return frames
