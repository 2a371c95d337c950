"""The tandem reader: ASVspoof's ASV and CM score files as one tandem table.

Three layouts, told apart by the first line of the first file:

- **ASVspoof 2019** (the t-DCF package): ASV lines ``attack key score`` (key ``target``,
  ``nontarget``, ``spoof``) and CM lines ``utterance attack key score`` (or the
  2019 protocol lines with the score appended: ``speaker utterance [environment] attack
  key score``). The ASV file names no trial, so the files pair **line by line**: line i
  of the CM file is the CM score of ASV trial i. Both files must have as many lines, and
  on every line the attacks must agree and the keys match (target or nontarget with
  bonafide, spoof with spoof); otherwise the pairing is refused.
- **ASVspoof 2021**: ASV lines ``speaker trial score`` with ``asv_keys`` (the ASV
  ``trial_metadata.txt``: ``speaker trial codec transmission attack key trim subset``) and
  CM lines ``trial score`` with ``cm_keys`` (the CM ``trial_metadata.txt``). Scores join
  their keys on ``(speaker, trial)`` and ``trial``; every ASV trial gets the CM score of
  its utterance (which several trials may share).
- **ASVspoof 5**: the track-2 SASV score file (tab-separated, with a header: ``spk,
  filename, cm-score, asv-score, sasv-score``, ``-`` for a score the system does not give)
  and its key file (``spk, filename, cm-label, asv-label``), joined on ``(spk,
  filename)`` as the organisers' ``util.load_sasv_scores_keys`` joins them.

``subject`` is the speaker: the claimed speaker where the files name it (2021, 5), else
the speaker of the test utterance (2019 t-DCF package: ``p253`` of ``p253/p253_237``,
``p310`` of the spoof ``SS_1/p310_s0505``, whose voice it imitates).
"""

from __future__ import annotations

import io as _io
from collections.abc import Hashable
from os import PathLike

import numpy as np
import pandas as pd

from ..tandem._build import ERROR_PAIR_KIND, tandem_table
from ._errors import ERROR_NOT_A_NUMBER, ScoreFileError
from ._names import _file_system_name
from ._open import _read_sources, _Source
from ._pad import ASVSPOOF_ASV_KEYS, _keys, read_asvspoof_asv, read_asvspoof_cm
from ._parse import _SCORE, _data_lines, _numbers, _parse_numbers, _split_fields

__all__ = [
    "ERROR_KEYS_DUPLICATED",
    "ERROR_KEYS_MISMATCH",
    "ERROR_LINE_COUNTS",
    "ERROR_TANDEM_KEYS_NEEDED",
    "ERROR_TANDEM_LAYOUT",
    "ERROR_TSV_COLUMNS",
    "read_asvspoof_tandem",
    "tandem_layout",
]

ERROR_LINE_COUNTS = (
    "{asv} has {n_asv} trial line(s) and {cm} {n_cm}: the ASVspoof 2019 layout pairs the "
    "ASV and CM files line by line, so they must hold the same trials in the same order"
)
ERROR_TANDEM_KEYS_NEEDED = (
    "{asv} holds ASVspoof 2021 ASV scores ('speaker trial score'): pass asv_keys= and "
    "cm_keys= (the ASV and CM trial_metadata.txt files) to read their kinds"
)
ERROR_TANDEM_LAYOUT = (
    "{source}: not an ASVspoof ASV score file: expected 'attack key score' (2019), "
    "'speaker trial score' (2021) or a tab-separated track-2 score file with a header "
    "(ASVspoof 5), found {line!r}"
)
ERROR_KEYS_MISMATCH = (
    "{scores} and {keys} do not hold the same trials (joined on {on}): {n_scores} score(s) "
    "without a key and {n_keys} key(s) without a score, e.g. {examples}"
)
ERROR_KEYS_DUPLICATED = "{source}: the trial {key!r} appears more than once (keys {on})"
ERROR_TSV_COLUMNS = "{source}: expected the columns {expected} in its header, found {found}"

#: The ASVspoof 2021 ``trial_metadata.txt`` fields (ASV and CM keys alike).
ASVSPOOF2021_KEY_FIELDS = ("speaker", "trial", "codec", "transmission", "attack", "key",
                           "trim", "subset")
#: The ASVspoof 5 header names, with the organisers' aliases (``util.load_tsv``).
_TSV_ALIASES = {"tar_spk_anon": "spk", "trial_anon": "filename", "asv-label": "asv-label",
                "cm-label": "cm-label"}
_CM_KEYS = {"bonafide": "bona fide", "spoof": "attack"}


def _first_line(path) -> tuple[str, list[str], str]:
    source = _read_sources(path)[0]
    first = next(_data_lines(source.text), None)
    line = source.text.lstrip().split("\n", 1)[0]
    return source.name, [] if first is None else first[1], line


def tandem_layout(path) -> str | None:
    """The ASVspoof layout of an ASV score file, by its first line: ``"2019"`` (``attack
    key score``), ``"2021"`` (``speaker trial score``), ``"5"`` (a tab-separated track-2
    score file with its header), or None (another file, or one that cannot be read)."""
    try:
        _, fields, line = _first_line(path)
    except (OSError, ScoreFileError):
        return None
    if "\t" in line and ("filename" in line or "trial_anon" in line) and "sasv-score" in line:
        return "5"
    if len(fields) == 3 and fields[1].lower() in ASVSPOOF_ASV_KEYS:
        return "2019"
    if len(fields) == 3 and _SCORE.fullmatch(fields[2]):
        return "2021"
    return None


def _speaker(utterance: np.ndarray) -> np.ndarray:
    """The speaker of a 2019 t-DCF utterance id: its base name's first ``_`` token."""
    return np.array([str(u).rsplit("/", 1)[-1].split("_", 1)[0] for u in utterance],
                    dtype=object)


def _read_2019(asv, cm, names, split_name) -> pd.DataFrame:
    a = read_asvspoof_asv(asv, system_name=names[0], split_name=split_name)
    c = read_asvspoof_cm(cm, system_name=names[1], split_name=split_name)
    if split_name is None:
        # the readers take a split off a file name; the tandem table has one only when given
        a, c = (f.drop(columns="split", errors="ignore") for f in (a, c))
    if len(a) != len(c):
        raise ScoreFileError(ERROR_LINE_COUNTS.format(asv=_read_sources(asv)[0].name,
                                                      n_asv=len(a), cm=_read_sources(cm)[0].name,
                                                      n_cm=len(c)))
    if c["utterance"].astype(str).str.contains("/").all():  # the t-DCF package's ids
        c["subject"] = _speaker(c["utterance"].to_numpy())
    return tandem_table(a, c, key="trial")


def _unique_join(scores: pd.DataFrame, keys: pd.DataFrame, on: list[str], names) -> pd.DataFrame:
    for frame, name in ((scores, names[0]), (keys, names[1])):
        dup = frame.duplicated(on)
        if dup.any():
            raise ScoreFileError(ERROR_KEYS_DUPLICATED.format(
                source=name, key=tuple(frame.loc[dup, on].iloc[0]), on=on))
    merged = scores.merge(keys, on=on, how="outer", indicator="__in")
    alone = merged["__in"] != "both"
    if alone.any():
        raise ScoreFileError(ERROR_KEYS_MISMATCH.format(
            scores=names[0], keys=names[1], on=on,
            n_scores=int((merged["__in"] == "left_only").sum()),
            n_keys=int((merged["__in"] == "right_only").sum()),
            examples=[tuple(r) for r in merged.loc[alone, on].head(3).itertuples(index=False)]))
    order = scores.reset_index(drop=True).reset_index()[[*on, "index"]]
    return merged.drop(columns="__in").merge(order, on=on).sort_values("index").drop(
        columns="index").reset_index(drop=True)


def _metadata(path, vocabulary: dict) -> pd.DataFrame:
    frames = []
    for source in _read_sources(path):
        cols = dict(zip(ASVSPOOF2021_KEY_FIELDS,
                        _split_fields(source, {8: ASVSPOOF2021_KEY_FIELDS}), strict=True))
        label = _keys(source, cols["key"], vocabulary, 6)
        frames.append(pd.DataFrame({"speaker": cols["speaker"], "trial": cols["trial"],
                                    "label": label, "attack": cols["attack"]}))
    return pd.concat(frames, ignore_index=True)


def _read_2021(asv, cm, asv_keys, cm_keys, names, split_name) -> pd.DataFrame:
    a_frames, c_frames = [], []
    for source in _read_sources(asv):
        spk, trial, raw = _split_fields(source, {3: ("speaker", "trial", "score")})
        a_frames.append(pd.DataFrame({"speaker": spk, "trial": trial,
                                      "score": _numbers(source, raw, 3, "score")}))
    for source in _read_sources(cm):
        trial, raw = _split_fields(source, {2: ("trial", "score")})
        c_frames.append(pd.DataFrame({"trial": trial, "score": _numbers(source, raw, 2, "score")}))
    a = _unique_join(pd.concat(a_frames, ignore_index=True), _metadata(asv_keys, ASVSPOOF_ASV_KEYS),
                     ["speaker", "trial"], (str(asv), str(asv_keys)))
    c = _unique_join(pd.concat(c_frames, ignore_index=True),
                     _metadata(cm_keys, _CM_KEYS).drop(columns="speaker"), ["trial"],
                     (str(cm), str(cm_keys)))
    asv_table = pd.DataFrame({
        "system": names[0], "trial": np.arange(len(a)), "kind": a["label"].to_numpy(),
        "score": a["score"].to_numpy(), "utterance": a["trial"].to_numpy(),
        "subject": a["speaker"].to_numpy(),
        "pai": np.where(a["label"] == "attack", a["attack"], np.array(None))})
    cm_table = pd.DataFrame({
        "system": names[1], "utterance": c["trial"].to_numpy(), "label": c["label"].to_numpy(),
        "score": c["score"].to_numpy(),
        "pai": np.where(c["label"] == "attack", c["attack"], np.array(None))})
    if split_name is not None:
        asv_table["split"] = cm_table["split"] = split_name
    return tandem_table(asv_table, cm_table, key="utterance")


def _tsv(path, expected: list[str]) -> tuple[pd.DataFrame, str]:
    source = _read_sources(path)[0]
    frame = pd.read_csv(_io.StringIO(source.text), sep="\t", dtype=str, keep_default_na=False)
    frame.columns = [_TSV_ALIASES.get(c.strip(), c.strip()) for c in frame.columns]
    if not set(expected) <= set(frame.columns):
        raise ScoreFileError(ERROR_TSV_COLUMNS.format(source=source.name, expected=expected,
                                                      found=list(frame.columns)))
    return frame, source.name


def _sasv_scores(frame: pd.DataFrame, name: str) -> dict:
    """The three scores of an ASVspoof 5 score file; ``-`` (not given) is NaN."""
    out = {}
    for col in ("asv-score", "cm-score", "sasv-score"):
        raw = frame[col].str.strip().to_numpy(dtype=object)
        given = np.flatnonzero(raw != "-")
        values = np.full(raw.size, np.nan)
        field = list(frame.columns).index(col) + 1
        values[given] = _parse_numbers(
            raw[given], lambda i, g=given, f=field, c=col, r=raw: ScoreFileError(
                ERROR_NOT_A_NUMBER.format(source=name, line=int(g[i]) + 2, field=f, name=c,
                                          value=r[g[i]])))
        out[col] = values
    return out


def _read_5(scores, keys, names, split_name) -> pd.DataFrame:
    s, s_name = _tsv(scores, ["spk", "filename", "cm-score", "asv-score", "sasv-score"])
    k, k_name = _tsv(keys, ["spk", "filename", "cm-label", "asv-label"])
    j = _unique_join(s, k[["spk", "filename", "cm-label", "asv-label"]], ["spk", "filename"],
                     (s_name, k_name))
    field = list(k.columns).index("asv-label") + 1
    kind = _keys(_Source(k_name, ""), j["asv-label"].str.strip().to_numpy(dtype=object),
                 {"target": "target", "nontarget": "nontarget", "spoof": "spoof"}, field)
    cm_label = _keys(_Source(k_name, ""), j["cm-label"].str.strip().to_numpy(dtype=object),
                     _CM_KEYS, list(k.columns).index("cm-label") + 1)
    wrong = (kind == "spoof") != (cm_label == "attack")
    if wrong.any():
        raise ScoreFileError(ERROR_PAIR_KIND.format(
            n=int(wrong.sum()), asv=names[0], cm=names[1],
            examples=[tuple(r) for r in j.loc[wrong, ["spk", "filename"]].head(3).itertuples(
                index=False)]))
    values = _sasv_scores(j, s_name)
    out = pd.DataFrame({
        "asv_system": names[0], "cm_system": names[1], "trial": np.arange(len(j)),
        "kind": kind, "asv_score": values["asv-score"], "cm_score": values["cm-score"],
        "sasv_score": values["sasv-score"], "subject": j["spk"].to_numpy(),
        "utterance": j["filename"].to_numpy()})
    if split_name is not None:
        out["split"] = split_name
    return out


def read_asvspoof_tandem(
    asv: str | PathLike,
    cm: str | PathLike,
    /,
    *,
    asv_keys: str | PathLike | None = None,
    cm_keys: str | PathLike | None = None,
    asv_system_name: Hashable | None = None,
    cm_system_name: Hashable | None = None,
    split_name: Hashable | None = None,
) -> pd.DataFrame:
    r"""Read ASVspoof ASV and CM score files into a tandem table (the 2019, 2021 and
    ASVspoof 5 layouts).

    Parameters
    ----------
    asv : path
        The ASV scores: ``attack key score`` lines (ASVspoof 2019 t-DCF package),
        ``speaker trial score`` lines (ASVspoof 2021, with ``asv_keys``), or the
        tab-separated track-2 score file of ASVspoof 5 (``spk, filename, cm-score,
        asv-score, sasv-score``).
    cm : path
        The CM scores: ``utterance attack key score`` lines, or the 2019 protocol lines
        with the score appended (2019); ``trial score`` lines (2021, with ``cm_keys``);
        the track-2 key file (ASVspoof 5: ``spk, filename, cm-label, asv-label``).
    asv_keys, cm_keys : path, optional
        ASVspoof 2021 only: the ASV and CM ``trial_metadata.txt`` files (``speaker trial
        codec transmission attack key trim subset``).
    asv_system_name, cm_system_name : optional
        The systems' names (default: each score file's name without its extensions; for
        ASVspoof 5 the score file's, for both).
    split_name : optional
        A split value to add as column ``split``.

    Returns
    -------
    DataFrame
        The tandem table: ``asv_system, cm_system, trial`` (0, 1, ... in file order),
        ``kind`` (``target``, ``nontarget``, ``spoof``), ``asv_score, cm_score``, then
        ``subject`` (the speaker) and the layout's own columns: ``pai`` (the attack,
        2019 and 2021), ``utterance`` (2021, 5), ``sasv_score`` (5; NaN where a score is
        ``-``), and ``split`` when given. The module docstring of
        :mod:`pandas_biosig.io._tandem` says how each layout pairs its trials.

    Raises
    ------
    ScoreFileError
        A file of none of these layouts; a malformed line (named by file and line);
        2019 files of different lengths or whose lines disagree (attack, kind); scores
        and keys that do not hold the same trials.
    SchemaError
        The pairings :func:`pandas_biosig.tandem_table` refuses.

    See Also
    --------
    tandem_table : the same table from tidy ASV and CM tables.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "asv_dev.txt").write_text("- target 4.1\n- nontarget -3.2\nSS_1 spoof 1.7\n")
    >>> _ = (d / "cm_dev.txt").write_text(
    ...     "p253/p253_1 - bonafide 0.9\np257/p257_2 - bonafide 0.7\n"
    ...     "SS_1/p253_s3 SS_1 spoof -1.2\n")
    >>> pbs.read_asvspoof_tandem(d / "asv_dev.txt", d / "cm_dev.txt")
      asv_system cm_system  trial       kind  asv_score  cm_score subject   pai
    0    asv_dev    cm_dev      0     target        4.1       0.9    p253  None
    1    asv_dev    cm_dev      1  nontarget       -3.2       0.7    p257  None
    2    asv_dev    cm_dev      2      spoof        1.7      -1.2    p253  SS_1
    """
    name, fields, line = _first_line(asv)
    if "\t" in line and ("filename" in line or "trial_anon" in line):
        default = _file_system_name(asv)
        return _read_5(asv, cm, (asv_system_name or default, cm_system_name or default),
                       split_name)
    names = (_file_system_name(asv) if asv_system_name is None else asv_system_name,
             _file_system_name(cm) if cm_system_name is None else cm_system_name)
    if len(fields) == 3 and fields[1].lower() in ASVSPOOF_ASV_KEYS:
        return _read_2019(asv, cm, names, split_name)
    if len(fields) == 3:
        if asv_keys is None or cm_keys is None:
            raise ScoreFileError(ERROR_TANDEM_KEYS_NEEDED.format(asv=name))
        return _read_2021(asv, cm, asv_keys, cm_keys, names, split_name)
    raise ScoreFileError(ERROR_TANDEM_LAYOUT.format(source=name, line=line[:80]))
