"""Verification score files: bob, NIST SRE / Kaldi, CSV/Parquet tables, score lists."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Literal

import pandas as pd

from .._core.schema import check_option
from ._formats import (
    IMPOSTOR_FORMATS,
    _bob_frame,
    _lists_frame,
    _nist_frame,
    _table_frame,
    _validated,
)
from ._open import DEFAULT_MAX_BYTES

PathLike = str | os.PathLike


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
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (8 GiB)
        The most memory reading the file (all tar members together) may take: its
        bytes after decompression, and its text with the estimated cost of its parsed
        fields (checked before parsing; the read's peak stays within :data:`~pandas_biosig.io.PEAK_MULTIPLE`
        times it); past it :class:`~pandas_biosig.io.FileTooLargeError`. Raise it to
        read a larger file.

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
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (8 GiB)
        The most memory reading each of the two files may take: its bytes after decompression, and
        its text with the estimated cost of its parsed fields (checked before
        parsing; the read's peak stays within :data:`~pandas_biosig.io.PEAK_MULTIPLE`
        times it); past it :class:`~pandas_biosig.io.FileTooLargeError`. Raise it to
        read a larger file.

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
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (8 GiB)
        The most memory reading the file may take: its bytes after decompression, and
        its text with the estimated cost of its parsed fields (checked before
        parsing; the read's peak stays within :data:`~pandas_biosig.io.PEAK_MULTIPLE`
        times it); past it :class:`~pandas_biosig.io.FileTooLargeError`. Raise it to
        read a larger file.

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
    impostor_format: Literal["auto", "scores", "histogram"] = "auto",
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
    max_bytes : int, default :data:`DEFAULT_MAX_BYTES` (8 GiB)
        The most memory reading each list may take: its bytes after decompression, and
        its text with the estimated cost of its parsed fields (checked before
        parsing; the read's peak stays within :data:`~pandas_biosig.io.PEAK_MULTIPLE`
        times it); past it :class:`~pandas_biosig.io.FileTooLargeError`. Raise it to
        read a larger file.

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
    check_option(impostor_format, IMPOSTOR_FORMATS, "impostor_format")
    counted = "count" if impostor_format == "histogram" else None
    return _validated(
        _lists_frame(
            genuine, impostor, system=system_name, split=split_name, max_bytes=max_bytes,
            impostor_format=impostor_format,
        ),
        counted,
    )
