"""Readers for presentation-attack-detection and vulnerability score files.

Every reader opens files through :mod:`pandas_biosig.io`'s one opening helper (plain,
gzip/bz2/xz-compressed or tar archives) and returns a table in the schema of
:mod:`pandas_biosig.pad` (``system, trial, label, score, pai, split`` …) or of
:func:`pandas_biosig.vulnerability` (``system, trial, kind, score, pai, split`` …).

Formats
-------
- bob.pad.base CSV: ``claimed_id,test_label,is_bonafide,attack_type,score``;
- bob.pad.base 4-column text: ``claimed_id real_id test_label score``; a presentation is
  bona fide iff ``real_id == claimed_id``; the attack species is read from one field
  (``real_id`` by default), optionally through a regular expression;
- bob.bio.base vulnerability CSV: ``bio_ref_subject_id,probe_subject_id,probe_key,
  probe_attack_type,score``: an attack iff ``probe_attack_type`` is not empty, else genuine
  iff the two subject ids agree, else a zero-effort impostor;
- ASVspoof countermeasure scores: ``utterance attack key score`` (the 2019 t-DCF
  package), ``speaker utterance attack key score`` or ``speaker utterance environment
  attack key score`` (2019 protocol lines with the score appended); key ``bonafide`` or
  ``spoof``; attack ``-`` for bona fide;
- ASVspoof ASV scores: ``attack key score`` with key ``target``, ``nontarget`` or
  ``spoof`` (the 2019 t-DCF package).
"""

from __future__ import annotations

import io as _io
import re
from collections.abc import Hashable
from os import PathLike
from typing import Literal

import numpy as np
import pandas as pd

from ._errors import ScoreFileError
from ._formats import BOB_VULN_CSV_COLUMNS
from ._names import SPLIT_TOKENS, parse_name
from ._open import DEFAULT_MAX_BYTES, _read_sources, _regular_file
from ._parse import _csv_header, _numbers, _read_csv_strict, _split_fields

__all__ = [
    "read_asvspoof_asv",
    "read_asvspoof_cm",
    "read_bob_pad",
    "read_bob_vuln",
]

BOB_PAD_CSV_COLUMNS = ("claimed_id", "test_label", "is_bonafide", "attack_type", "score")
BOB_PAD_FIELDS = ("claimed_id", "real_id", "test_label", "score")
ASVSPOOF_CM_LAYOUTS = {
    4: ("utterance", "attack", "key", "score"),
    5: ("speaker", "utterance", "attack", "key", "score"),
    6: ("speaker", "utterance", "environment", "attack", "key", "score"),
}
ASVSPOOF_ASV_LAYOUTS = {3: ("attack", "key", "score")}
ASVSPOOF_CM_KEYS = {"bonafide": "bona fide", "spoof": "attack"}
ASVSPOOF_ASV_KEYS = {"target": "genuine", "nontarget": "zei", "spoof": "attack"}

ERROR_CSV_COLUMNS = "{source}: expected the columns {expected}; the file has {found}"
ERROR_KEY = "{source}, line {line}: expected a key in {allowed} in field {field}, found {value!r}"
ERROR_BONAFIDE = "{source}: column 'is_bonafide' must hold True or False, found {values}"
ERROR_PAI_FIELD = "pai_field={value!r} is not one of {allowed}"
ERROR_PATTERN = "{source}: pai_pattern={pattern!r} does not match {value!r} (line {line})"


def _csv(source, expected) -> pd.DataFrame:
    _csv_header(source, ",")  # its parse cost is checked before pandas parses it
    frame = _read_csv_strict(
        source, _io.StringIO(source.text), dtype=str, keep_default_na=False,
        skipinitialspace=True,
    )
    frame.columns = [c.strip() for c in frame.columns]
    missing = [c for c in expected if c not in frame.columns]
    if missing:
        raise ScoreFileError(
            ERROR_CSV_COLUMNS.format(source=source.name, expected=list(expected), found=list(frame.columns))
        )
    return frame


def _finish(frames, path, system, split) -> pd.DataFrame:
    """One table of the file's frames, named as :func:`~pandas_biosig.read_scores` names
    a file: the system and the split read off the name (its split token removed; the
    folder's name for a generic name such as ``scores-dev.csv``), unless given."""
    named, named_split, _ = parse_name(
        _regular_file(path), split_tokens=SPLIT_TOKENS, class_tokens=None
    )
    out = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    out.insert(0, "system", named if system is None else system)
    out.insert(1, "trial", np.arange(len(out)))
    split = named_split if split is None else split
    if split is not None:
        out["split"] = split
    return out


def read_bob_pad(
    path: str | PathLike,
    /,
    *,
    system_name: Hashable | None = None,
    split_name: Hashable | None = None,
    pai_field: Literal["real_id", "claimed_id", "test_label"] = "real_id",
    pai_pattern: str | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    r"""Read a bob.pad.base score file (CSV or 4-column text) into a PAD table.

    Parameters
    ----------
    path : path
        The score file (may be compressed or a tar archive with one member).
    system_name : optional
        System name. By default it is read off the file name as
        :func:`~pandas_biosig.read_scores` reads it: the name without its extensions and
        its split token, ``scores`` dropped (``vuln-scores-dev.csv`` is system ``vuln``),
        or the folder's name when nothing else is left (``isv/scores-dev.csv`` is
        ``isv``).
    split_name : optional
        Split value of column ``split``. By default the split token of the file name
        (``dev``, ``eval``, ``test`` = eval, ``train``: :data:`~pandas_biosig.io.
        SPLIT_TOKENS`), and no ``split`` column when the name has none.
    pai_field : {"real_id", "claimed_id", "test_label"}, default "real_id"
        4-column files only: the field holding the attack species.
    pai_pattern : str, optional
        4-column files only: a regular expression whose first group (or whole match) is
        the species, as bob.pad.base's ``--regexps``.
    max_bytes : int, default :data:`~pandas_biosig.io.DEFAULT_MAX_BYTES` (8 GiB)
        The most memory the read may take: the decompressed bytes, and the text with its
        parsed fields (estimated before parsing); past it
        :class:`~pandas_biosig.io.FileTooLargeError`.

    Returns
    -------
    DataFrame
        ``system, trial, label`` (``"bona fide"``/``"attack"``), ``score``, ``pai``
        (None for bona fide), ``subject``, ``test_label``, and ``split`` when given
        or named by the file.
        ``subject`` is the claimed id: the person whose presentations they are (bona
        fide) or whose identity an attack presents, never the attack type (bob's
        ``real_id`` of an attack).

    Raises
    ------
    ScoreFileError
        Wrong columns or fields, scores that are not numbers, bad ``is_bonafide`` values.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "scores-dev.csv"
    >>> _ = p.write_text("claimed_id,test_label,is_bonafide,attack_type,score\n"
    ...                  "x0,x0_1,True,,0.9\nx0,x0_2,False,print,0.6\n")
    >>> pbs.read_bob_pad(p, split_name="dev")[["label", "score", "pai"]]
           label  score    pai
    0  bona fide    0.9   None
    1     attack    0.6  print
    """
    if pai_field not in ("real_id", "claimed_id", "test_label"):
        raise ValueError(ERROR_PAI_FIELD.format(value=pai_field, allowed=["real_id", "claimed_id", "test_label"]))
    frames = []
    for source in _read_sources(path, None, max_bytes):
        head = source.text.lstrip().split("\n", 1)[0]
        if "," in head and "is_bonafide" in head:
            f = _csv(source, BOB_PAD_CSV_COLUMNS)
            flag = f["is_bonafide"].str.strip().str.lower()
            bad = sorted(set(flag) - {"true", "false"})
            if bad:
                raise ScoreFileError(ERROR_BONAFIDE.format(source=source.name, values=bad[:5]))
            bona = (flag == "true").to_numpy()
            score = _numbers(source, f["score"].to_numpy(dtype=object), 5, "score")
            pai = np.where(bona, np.array(None), f["attack_type"].to_numpy(dtype=object))
            frames.append(
                pd.DataFrame(
                    {
                        "label": np.where(bona, "bona fide", "attack"),
                        "score": score,
                        "pai": pd.Series(pai, dtype=object),
                        "subject": f["claimed_id"].to_numpy(dtype=object),
                        "test_label": f["test_label"].to_numpy(dtype=object),
                    }
                )
            )
            continue
        claimed, real, test, raw = _split_fields(source, {4: BOB_PAD_FIELDS})
        score = _numbers(source, raw, 4, "score")
        bona = claimed == real
        field = {"real_id": real, "claimed_id": claimed, "test_label": test}[pai_field]
        species = field.copy()
        if pai_pattern is not None:
            rx = re.compile(pai_pattern)
            for i in np.flatnonzero(~bona):
                m = rx.search(str(field[i]))
                if m is None:
                    raise ScoreFileError(
                        ERROR_PATTERN.format(source=source.name, pattern=pai_pattern, value=field[i], line=i + 1)
                    )
                species[i] = m.group(1) if m.groups() else m.group(0)
        frames.append(
            pd.DataFrame(
                {
                    "label": np.where(bona, "bona fide", "attack"),
                    "score": score,
                    "pai": pd.Series(np.where(bona, np.array(None), species), dtype=object),
                    "subject": claimed,
                    "test_label": test,
                }
            )
        )
    return _finish(frames, path, system_name, split_name)


def read_bob_vuln(
    path: str | PathLike,
    /,
    *,
    system_name: Hashable | None = None,
    split_name: Hashable | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    r"""Read a bob.bio.base vulnerability CSV score file into a vulnerability table.

    Parameters
    ----------
    path : path
        The CSV score file (may be compressed).
    system_name, split_name, max_bytes : optional
        As in :func:`read_bob_pad`.

    Returns
    -------
    DataFrame
        ``system, trial, kind`` (``"genuine"``, ``"zei"``, ``"attack"``), ``score``,
        ``pai`` (the attack type; None unless an attack), ``subject`` (the probe's
        subject, ``probe_subject_id``: the person presented, the unit of dependence),
        ``reference`` (the reference's subject, ``bio_ref_subject_id``), and ``split``
        when given or named by the file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "vuln-scores-dev.csv"
    >>> _ = p.write_text("bio_ref_subject_id,probe_subject_id,probe_key,probe_attack_type,score\n"
    ...                  "a,a,k1,,3.1\na,b,k2,,0.2\na,a,k3,print,1.4\n")
    >>> pbs.read_bob_vuln(p)[["system", "split", "kind", "score", "pai"]]
      system split     kind  score    pai
    0   vuln   dev  genuine    3.1   None
    1   vuln   dev      zei    0.2   None
    2   vuln   dev   attack    1.4  print
    """
    frames = []
    for source in _read_sources(path, None, max_bytes):
        f = _csv(source, BOB_VULN_CSV_COLUMNS)
        attack = (f["probe_attack_type"].str.strip() != "").to_numpy()
        genuine = (f["bio_ref_subject_id"] == f["probe_subject_id"]).to_numpy()
        kind = np.where(attack, "attack", np.where(genuine, "genuine", "zei"))
        frames.append(
            pd.DataFrame(
                {
                    "kind": kind,
                    "score": _numbers(source, f["score"].to_numpy(dtype=object), 5, "score"),
                    "pai": pd.Series(np.where(attack, f["probe_attack_type"].to_numpy(dtype=object), np.array(None)), dtype=object),
                    "subject": f["probe_subject_id"].to_numpy(dtype=object),
                    "reference": f["bio_ref_subject_id"].to_numpy(dtype=object),
                }
            )
        )
    return _finish(frames, path, system_name, split_name)


def _keys(source, column, allowed: dict, field: int) -> np.ndarray:
    lowered = np.array([str(v).lower() for v in column], dtype=object)
    ok = np.isin(lowered, list(allowed))
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        raise ScoreFileError(
            ERROR_KEY.format(source=source.name, line=i + 1, allowed=list(allowed), field=field, value=column[i])
        )
    return np.array([allowed[v] for v in lowered], dtype=object)


def read_asvspoof_cm(
    path: str | PathLike,
    /,
    *,
    system_name: Hashable | None = None,
    split_name: Hashable | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    r"""Read ASVspoof countermeasure scores into a PAD table.

    Parameters
    ----------
    path : path
        Whitespace-separated lines ``utterance attack key score``, ``speaker utterance
        attack key score`` or ``speaker utterance environment attack key score``; key
        ``bonafide`` or ``spoof``; the attack (``A01``…, ``SS_1``…) is the species.
    system_name, split_name, max_bytes : optional
        As in :func:`read_bob_pad`.

    Returns
    -------
    DataFrame
        ``system, trial, label, score, pai`` (None for bona fide), ``utterance``,
        ``subject`` and ``split`` when given or named by the file. ``subject`` is the
        speaker, the unit of dependence of subject-clustered intervals and tests: the
        first field of the 5- and 6-field layouts; in the 4-field layout of the organisers' t-DCF package, whose
        utterance is ``DIRECTORY/SPEAKER_NUMBER`` with the directory the speaker for bona
        fide trials but the attack (``SS_1/p310_s0036``) for spoofed ones, the
        utterance's name up to its first ``_`` (``p310``); a 4-field utterance without a
        directory (``LA_D_1047731``) names no speaker, and is then its own subject (the
        trials are treated as independent).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "cm_dev.txt"
    >>> _ = p.write_text("p253/p253_237 - bonafide 0.68\nSS_1/p253_9 SS_1 spoof -2.1\n")
    >>> pbs.read_asvspoof_cm(p)[["label", "score", "pai", "subject"]]
           label  score   pai subject
    0  bona fide   0.68  None    p253
    1     attack  -2.10  SS_1    p253
    """
    frames = []
    for source in _read_sources(path, None, max_bytes):
        cols = _split_fields(source, ASVSPOOF_CM_LAYOUTS)
        names = ASVSPOOF_CM_LAYOUTS[len(cols)]
        f = dict(zip(names, cols, strict=True))
        label = _keys(source, f["key"], ASVSPOOF_CM_KEYS, names.index("key") + 1)
        bona = label == "bona fide"
        subject = f["speaker"] if "speaker" in f else _speakers(f["utterance"])
        frames.append(
            pd.DataFrame(
                {
                    "label": label,
                    "score": _numbers(source, f["score"], len(names), "score"),
                    "pai": pd.Series(np.where(bona, np.array(None), f["attack"]), dtype=object),
                    "utterance": f["utterance"],
                    "subject": subject,
                }
            )
        )
    return _finish(frames, path, system_name, split_name)


def _speakers(utterances: np.ndarray) -> np.ndarray:
    """The speaker of every ``DIRECTORY/SPEAKER_NUMBER`` utterance (the name up to its
    first ``_``; the directory may be the attack), or the utterance itself when it has no
    directory."""
    out = []
    for u in utterances:
        directory, slash, name = str(u).rpartition("/")
        out.append(name.split("_", 1)[0] if slash and name else u)
    return np.array(out, dtype=object)


def read_asvspoof_asv(
    path: str | PathLike,
    /,
    *,
    system_name: Hashable | None = None,
    split_name: Hashable | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    r"""Read ASVspoof automatic-speaker-verification scores into a vulnerability table.

    Parameters
    ----------
    path : path
        Whitespace-separated lines ``attack key score``; key ``target`` (genuine),
        ``nontarget`` (zero-effort impostor) or ``spoof`` (attack of species ``attack``).
    system_name, split_name, max_bytes : optional
        As in :func:`read_bob_pad`.

    Returns
    -------
    DataFrame
        ``system, trial, kind, score, pai`` (None unless an attack), and ``split`` when
        given or named by the file. No ``subject``: the file names no speaker, so
        intervals treat its attempts as independent.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "asv_dev.txt"
    >>> _ = p.write_text("- target 13.2\n- nontarget -4.0\nSS_1 spoof 0.3\n")
    >>> pbs.read_asvspoof_asv(p)[["kind", "score", "pai"]]
          kind  score   pai
    0  genuine   13.2  None
    1      zei   -4.0  None
    2   attack    0.3  SS_1
    """
    frames = []
    for source in _read_sources(path, None, max_bytes):
        attack, key, raw = _split_fields(source, ASVSPOOF_ASV_LAYOUTS)
        kind = _keys(source, key, ASVSPOOF_ASV_KEYS, 2)
        frames.append(
            pd.DataFrame(
                {
                    "kind": kind,
                    "score": _numbers(source, raw, 3, "score"),
                    "pai": pd.Series(np.where(kind == "attack", attack, np.array(None)), dtype=object),
                }
            )
        )
    return _finish(frames, path, system_name, split_name)
