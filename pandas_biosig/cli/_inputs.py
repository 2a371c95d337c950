"""How ``biosig report`` turns its file arguments into one trial table.

The command line gives score files the way evaluation folders keep them:

- positionally, the split read off each file name (bob's tokens ``dev``, ``eval``, ``test``
  = eval, ``train``): ``dev-1.txt test-1.txt dev-2.txt test-2.txt`` gives systems ``1`` and
  ``2``, each with a dev and an eval split;
- positionally in dev/eval pairs with ``-e`` (bob.measure's ``-e``): file 1 is the dev
  file of system 1, file 2 its eval file, file 3 the dev file of system 2...;
- as ``--dev FILE... --eval FILE...``: paired by name once the split tokens are removed,
  or, when the names do not pair, by position (the i-th dev file with the i-th eval file);
- ``--name`` names the systems (bob's legends), in order of first appearance.

Every message here names the command line's flags, never the Python keywords: the
messages of the library are translated by :func:`cli_message`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import pandas as pd

from .._core.schema import SchemaError
from ..io._formats import BOB_VULN_CSV_COLUMNS, read_kind_table, reads_as_table
from ..io._names import GENERIC_NAMES, SPLIT_TOKENS, parse_name
from ..io._open import DEFAULT_MAX_BYTES
from ..io._pad import (
    ASVSPOOF_ASV_KEYS,
    ASVSPOOF_CM_KEYS,
    BOB_PAD_CSV_COLUMNS,
    read_asvspoof_asv,
    read_asvspoof_cm,
    read_bob_pad,
    read_bob_vuln,
)
from ..io._scores import read_scores
from ._kinds import table_kind

__all__ = ["cli_message", "load_trials"]

ERROR_PAIRS_ODD = (
    "-e/--dev-eval pairs the files as dev, eval, dev, eval...: it needs an even number of "
    "files, got {n}"
)
ERROR_PAIRS_ORDER = (
    "-e/--dev-eval: {path} is in a {position} position (files 1, 3, 5... are dev, 2, 4, 6... "
    "eval) but its name says {split}"
)
ERROR_PAIRS_WITH_SPLITS = "-e/--dev-eval pairs positional files: do not also pass --dev / --eval"
ERROR_CANNOT_PAIR = (
    "--dev gives {n_dev} file(s) and --eval {n_eval}, and their names do not pair "
    "(dev systems {dev}, eval systems {eval}); give one --eval file per --dev file, in the "
    "same order"
)
ERROR_NAMES = (
    "--name gives {n_names} name(s) ({names}) for {n_systems} system(s) ({systems}); give "
    "one name per system, in the order the systems appear"
)
ERROR_NAMES_UNIQUE = "--name gives the name(s) {names} more than once"
ERROR_KEY_AS_SCORES = (
    "{path} is a trials key (its third field is {value!r}), not a score file; give the "
    "key with --trials, or one key per split with --trials-dev and --trials-eval"
)
ERROR_KINDS_MIXED = (
    "{first} is a {kind_first} score file ({reader_first}) and {second} a {kind_second} one "
    "({reader_second}): give the files of one kind of table to one report"
)
ERROR_KIND_OPTIONS = (
    "{path} is a {kind} score file, read by pandas_biosig.{reader}: {flags} only apply to "
    "verification score files"
)
ERROR_TRIALS_BOTH = "give either --trials or --trials-dev / --trials-eval, not both"
ERROR_EMPTY_SYSTEM = (
    "{n} row(s) have an empty system name (the first is row {row}, system {value!r}): "
    "every row needs a system name, or its system would be left out of the pairwise tests; "
    "name them in the file (or with --column OLD=system)"
)

#: Python keywords of the library and the flags of ``biosig report`` that set them.
CLI_FLAGS = {
    "dev": "--dev",
    "eval": "--eval",
    "trials": "--trials",
    "columns": "--column",
    "format": "--format",
    "nonfinite": "--nonfinite",
    "common_trials": "--common-trials",
    "on": "--on",
    "apply_to": "--apply-to",
    "orientation": "--orientation",
    "test": "--test",
    "adjust": "--adjust",
    "alpha": "--alpha",
    "confidence_level": "--confidence-level",
    "n_resamples": "--n-resamples",
    "seed": "--seed",
    "prior": "--prior",
    "folds": "--folds",
    "max_bytes": "--max-bytes",
}

_KEYWORD = re.compile(
    r"(?<![\w-])(" + "|".join(sorted(CLI_FLAGS, key=len, reverse=True)) + r")="
    r"(True|False|None|'[^']*'|\"[^\"]*\"|[^\s,;:)]+)?"
)
# a NIST trial's fields as the readers name them: (enroll='a', test='b'), not --test
_TRIAL_FIELDS = re.compile(r"""(\benroll=(?:'[^']*'|"[^"]*"), )test=""")
_LABEL_WORDS = {"target", "nontarget", "non-target", "tgt", "imp", "genuine", "impostor"}


def cli_message(text: str) -> str:
    """A library message with its Python keywords (``dev=``, ``nonfinite='drop'``,
    ``common_trials=True``) replaced by the command line's flags."""

    def flag(match: re.Match) -> str:
        name, value = match.group(1), match.group(2)
        option = CLI_FLAGS[name]
        if value is None or value == "True":
            return option
        if value in ("False", "None"):
            return f"no {option}"
        return f"{option} {value.strip(chr(39) + chr(34))}"

    text = text.replace("split='<column name>'", "--split-column NAME")
    text = text.replace("(or a mapping {split: path})", "(or --trials-dev and --trials-eval)")
    text = re.sub(r"trials= has no trials file for split '(\w+)'", r"--trials-\1 is missing: no trials file for split '\1'", text)
    text = re.sub(r"\bsplit='([^']*)'", r"split \1", text)  # a split's value, not a flag
    text = _TRIAL_FIELDS.sub("\\1test\0=", text)  # protected from the flags...
    text = _KEYWORD.sub(flag, text).replace("test\0=", "test=")  # ...and restored
    text = text.replace("a mapping {system: path}", "--name")
    if text.startswith("missing column(s)"):
        text += "; map a file's columns to them with --column OLD=NEW"
    return text


def read_pad_table(path, /, *, split_name=None, max_bytes=DEFAULT_MAX_BYTES) -> pd.DataFrame:
    """A tidy PAD table (:func:`~pandas_biosig.io._formats.read_kind_table`); ``split_name``
    (``--dev``/``--eval``) for a table without a split column."""
    table = read_kind_table(path, max_bytes=max_bytes)
    if split_name is not None and "split" not in table.columns:
        table["split"] = split_name
    return table


def read_vulnerability_table(path, /, *, split_name=None,
                             max_bytes=DEFAULT_MAX_BYTES) -> pd.DataFrame:
    """A tidy vulnerability table (a ``kind`` column), as :func:`read_pad_table`."""
    return read_pad_table(path, split_name=split_name, max_bytes=max_bytes)


#: Score files of another kind than verification, each read by its own reader:
#: ``{reader: (kind of table, kind of file)}``.
KIND_READERS = {
    read_bob_pad: ("PAD", "bob.pad"),
    read_asvspoof_cm: ("PAD", "ASVspoof countermeasure"),
    read_pad_table: ("PAD", "tidy PAD"),
    read_bob_vuln: ("vulnerability", "bob.bio.base vulnerability"),
    read_asvspoof_asv: ("vulnerability", "ASVspoof ASV"),
    read_vulnerability_table: ("vulnerability", "tidy vulnerability"),
}


def kind_reader(path: Path):
    """The reader of a PAD or vulnerability score file (:data:`KIND_READERS`), told by its
    first line, or None for any other file (read by :func:`read_scores`): a bob.pad or
    bob.bio.base vulnerability CSV header, or ASVspoof lines whose key field holds
    ``bonafide``/``spoof`` (countermeasure) or ``target``/``nontarget``/``spoof`` (ASV)."""
    if not path.is_file() or path.suffix.lower() in (".parquet", ".pq"):
        return None
    try:
        with path.open("rb") as handle:
            head = handle.read(4096).decode("utf-8")
    except (OSError, UnicodeDecodeError):  # compressed or binary: read_scores names it
        return None
    first = next((line for line in head.splitlines() if line.strip()), "")
    header = {field.strip() for field in first.split("\t" if "\t" in first else ",")}
    if set(BOB_PAD_CSV_COLUMNS) <= header:
        return read_bob_pad
    if set(BOB_VULN_CSV_COLUMNS) <= header:
        return read_bob_vuln
    if reads_as_table(path, "auto"):
        return _table_reader(path, header)
    fields = first.split()
    if len(fields) in (4, 5, 6) and fields[-2] in ASVSPOOF_CM_KEYS:
        return read_asvspoof_cm
    if len(fields) == 3 and fields[1] in ASVSPOOF_ASV_KEYS:
        return read_asvspoof_asv
    return None


def _table_reader(path: Path, header: set[str]):
    """The reader of a tidy table of PAD or vulnerability trials: a ``kind`` column and no
    ``label``; or a ``pai`` column, when the table reads as a PAD table
    (:func:`~pandas_biosig.cli._kinds.table_kind`). None for a verification table (also one
    whose impostors mix zero-effort impostors and attacks: it is read as one)."""
    if "kind" in header and "label" not in header:
        return read_vulnerability_table
    if "pai" in header and "label" in header:
        try:
            table = read_kind_table(path)
        except (SchemaError, ValueError):  # read_scores says what is wrong
            return None
        if table_kind(table) == "pad":
            return read_pad_table
    return None


def _read_kind_files(files, dev, ev, *, names, max_bytes, flags) -> pd.DataFrame | None:
    """The table of PAD or vulnerability score files (see :func:`kind_reader`), None when
    no file is one; files of two kinds, one of another kind beside a verification score
    file, or the verification files' ``flags`` given, are refused."""
    given = [*[(p, None) for p in files], *[(p, "dev") for p in dev or []],
             *[(p, "eval") for p in ev or []]]
    readers = [(path, split, kind_reader(Path(path))) for path, split in given]
    special = [(path, reader) for path, _, reader in readers if reader is not None]
    if not special:
        return None
    first, reader_first = special[0]
    if flags:
        raise ValueError(ERROR_KIND_OPTIONS.format(
            path=first, kind=KIND_READERS[reader_first][1], reader=reader_first.__name__,
            flags=" and ".join(flags)))
    for path, _, reader in readers:
        if reader is None or KIND_READERS[reader][0] != KIND_READERS[reader_first][0]:
            raise ValueError(ERROR_KINDS_MIXED.format(
                first=first, kind_first=KIND_READERS[reader_first][0],
                reader_first=reader_first.__name__, second=path,
                kind_second=KIND_READERS[reader][0] if reader else "verification",
                reader_second=reader.__name__ if reader else "read_scores",
            ))
    tables = [reader(path, split_name=split, max_bytes=max_bytes)
              for path, split, reader in readers]
    table = pd.concat(tables, ignore_index=True) if len(tables) > 1 else tables[0]
    table = _rename(table, names) if names else table
    _check_system_names(table)
    return table


def _system_and_split(path: Path) -> tuple[str, str | None]:
    system, split, _ = parse_name(path, split_tokens=SPLIT_TOKENS, class_tokens=None)
    return system, split


def _is_plain_file(path: Path, format: str) -> bool:
    return path.is_file() and not reads_as_table(path, format)


def _check_not_a_key(path: Path) -> None:
    """Refuse a NIST/Kaldi trials key given as a score file (its third field is a label)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(4096).decode("utf-8", "replace")
    except OSError:
        return
    for line in head.splitlines():
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            if len(fields) == 3 and fields[2].lower() in _LABEL_WORDS:
                raise ValueError(ERROR_KEY_AS_SCORES.format(path=path, value=fields[2]))
            return


def _pairs_by_order(files: Sequence[Path]) -> tuple[dict, dict]:
    """``-e``: dev, eval, dev, eval... as ``{system: path}`` mappings for dev and eval."""
    if len(files) % 2:
        raise ValueError(ERROR_PAIRS_ODD.format(n=len(files)))
    dev, ev = list(files[0::2]), list(files[1::2])
    for pair in zip(dev, ev, strict=True):
        for path, position in zip(pair, ("dev", "eval"), strict=True):
            said = _system_and_split(path)[1] if path.is_file() else None
            if said is not None and said != position:
                raise ValueError(
                    ERROR_PAIRS_ORDER.format(path=path, position=position, split=said)
                )
    return _by_position(dev, ev)


def _by_position(dev: list[Path], ev: list[Path]) -> tuple[dict, dict]:
    """The i-th dev file with the i-th eval file, as ``{system: path}`` mappings; systems
    named by :func:`_pair_name`, or numbered 1, 2... when those names repeat."""
    names = [_pair_name(d, e, index=i + 1) for i, (d, e) in enumerate(zip(dev, ev, strict=True))]
    if len(set(names)) < len(names):
        names = [str(i + 1) for i in range(len(dev))]
    return dict(zip(names, dev, strict=True)), dict(zip(names, ev, strict=True))


def _pair_name(dev: Path, ev: Path, *, index: int) -> str:
    """The system name of a dev/eval pair: the dev file's name without its split token
    (or its folder's, for bob's ``scores-dev``), else the eval file's, else ``index``."""
    a, b = _system_and_split(dev)[0], _system_and_split(ev)[0]
    for name in (a, b):
        if name and name.lower() not in GENERIC_NAMES:
            return name
    return str(index)


def _pair_dev_eval(dev: list[Path], ev: list[Path], format: str):
    """``--dev``/``--eval`` as given when their names pair up (or hold tables/folders),
    else ``{system: path}`` mappings that pair them by position."""
    if not all(_is_plain_file(p, format) for p in [*dev, *ev]):
        return dev, ev
    dev_names = [_system_and_split(p)[0] for p in dev]
    ev_names = [_system_and_split(p)[0] for p in ev]
    if sorted(dev_names) == sorted(ev_names) and len(set(dev_names)) == len(dev_names):
        return dev, ev
    if len(dev) != len(ev):
        raise ValueError(
            ERROR_CANNOT_PAIR.format(n_dev=len(dev), n_eval=len(ev), dev=dev_names, eval=ev_names)
        )
    return _by_position(dev, ev)


def _rename(trials: pd.DataFrame, names: Sequence[str]) -> pd.DataFrame:
    systems = list(dict.fromkeys(trials["system"]))
    if len(names) != len(systems):
        raise ValueError(
            ERROR_NAMES.format(n_names=len(names), names=", ".join(names),
                               n_systems=len(systems), systems=", ".join(map(str, systems)))
        )
    repeated = sorted({n for n in names if list(names).count(n) > 1})
    if repeated:
        raise ValueError(ERROR_NAMES_UNIQUE.format(names=repeated))
    mapping = dict(zip(systems, names, strict=True))
    return trials.assign(system=trials["system"].map(mapping))


def load_trials(
    files: Sequence[Path],
    *,
    dev: Sequence[Path] | None = None,
    eval: Sequence[Path] | None = None,
    pairs: bool = False,
    names: Sequence[str] | None = None,
    format: Literal["auto", "bob", "nist", "table", "lists"] = "auto",
    trials: Path | None = None,
    trials_dev: Path | None = None,
    trials_eval: Path | None = None,
    columns: dict | None = None,
    table: pd.DataFrame | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
) -> pd.DataFrame:
    """The trial table of the command line's file arguments (see the module docstring);
    ``table`` instead of files: only name its systems."""
    if table is not None:
        return _rename(table, names) if names else table
    if trials is not None and (trials_dev is not None or trials_eval is not None):
        raise ValueError(ERROR_TRIALS_BOTH)
    keys: dict[str, Path | None] | dict[str, str] | Path | None = (
        {"dev": trials_dev, "eval": trials_eval} if trials_dev or trials_eval
        else None if trials is None else trials
    )
    flags = [f for f, on in (("-e/--dev-eval", pairs), ("--trials", keys is not None),
                             ("--column", bool(columns)), ("--format", format != "auto")) if on]
    special = _read_kind_files(files, dev, eval, names=names, max_bytes=max_bytes, flags=flags)
    if special is not None:
        return special
    if isinstance(keys, dict):
        keys = {k: str(v) for k, v in keys.items() if v is not None}
    if keys is not None and format == "auto":
        format = "nist"  # a trials key says what the score files are
    if format == "nist":
        for path in [*files, *(dev or []), *(eval or [])]:
            if path.is_file():
                _check_not_a_key(path)
    files = list(files)
    dev_arg: list[Path] | dict | None  # paths, or {system: path} once paired
    ev_arg: list[Path] | dict | None
    dev_arg = list(dev) if dev else None
    ev_arg = list(eval) if eval else None
    if pairs:
        if dev_arg or ev_arg:
            raise ValueError(ERROR_PAIRS_WITH_SPLITS)
        dev_arg, ev_arg = _pairs_by_order(files)
        files = []
    elif dev_arg and ev_arg:
        dev_arg, ev_arg = _pair_dev_eval(dev_arg, ev_arg, format)

    def as_str(spec):
        if spec is None:
            return None
        if isinstance(spec, dict):
            return {k: str(v) for k, v in spec.items()}
        return [str(p) for p in spec]

    table = read_scores(
        as_str(files) if files else None,
        format=format,
        dev=as_str(dev_arg),
        eval=as_str(ev_arg),
        trials=keys,
        columns=columns or None,
        max_bytes=max_bytes,
    )
    table = _rename(table, names) if names else table
    _check_system_names(table)
    return table


def _check_system_names(table: pd.DataFrame) -> None:
    """Refuse rows whose system name is missing or blank (a CSV's empty field)."""
    system = table["system"]
    blank = system.isna().to_numpy() | system.astype(str).str.strip().eq("").to_numpy()
    if blank.any():
        row = int(blank.argmax())
        raise ValueError(ERROR_EMPTY_SYSTEM.format(
            n=int(blank.sum()), row=row, value=system.iloc[row]
        ))
