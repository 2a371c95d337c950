"""The parsers behind the verification readers: one function per file format, each
returning an unvalidated tidy frame, and the final check every reader applies.

A documented internal module (docs/architecture.md, layer 1): :mod:`pandas_biosig.io._verification`
(one public reader per format), :mod:`pandas_biosig.io._scores` (the auto-detecting
:func:`~pandas_biosig.io.read_scores`) and the command line import its ``_`` names from here.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from .._core.schema import (
    ERROR_DUPLICATE_COLUMNS,
    LABEL_VOCABULARY,
    SchemaError,
    check_columns,
    validate_trials,
)
from ._errors import (
    ERROR_ASVSPOOF_FILE,
    ERROR_COLUMN_CLASH,
    ERROR_CORRUPT,
    ERROR_DUPLICATE_KEY,
    ERROR_EMPTY_FILE,
    ERROR_EXTRA_SCORE,
    ERROR_FIELDS_OPTION,
    ERROR_HISTOGRAM_LINE,
    ERROR_HISTOGRAM_TOTAL,
    ERROR_LIST_AMBIGUOUS,
    ERROR_MAPPING,
    ERROR_NO_SCORE,
    ERROR_NOT_A_NUMBER,
    ERROR_ONE_FIELD,
    ERROR_TABLE_MEMBERS,
    ERROR_TOO_LARGE,
    ERROR_VULN_TABLE,
    MAX_HISTOGRAM_TRIALS,
    FileTooLargeError,
    ScoreFileError,
)
from ._names import SPLIT_TOKENS, _file_system_name, parse_name
from ._open import (
    DEFAULT_MAX_BYTES,
    MAX_FIELDS_PER_LINE,
    _check_max_bytes,
    _check_parse_cost,
    _decode,
    _read_blobs,
    _read_sources,
    _reason,
    _regular_file,
    _Source,
)
from ._parse import (
    _csv_header,
    _data_lines,
    _labels,
    _line_number,
    _many_fields,
    _numbers,
    _parse_numbers,
    _read_csv_strict,
    _split_fields,
    _tidy,
)

#: bob's text formats: number of fields -> field names.
BOB_LAYOUTS: dict[int, tuple[str, ...]] = {
    2: ("label", "score"),
    4: ("claimed_id", "real_id", "test_label", "score"),
    5: ("claimed_id", "model_label", "real_id", "test_label", "score"),
}

#: Columns of bob.bio.base's vulnerability score CSV (read by
#: :func:`~pandas_biosig.read_bob_vuln`; refused here, as it has no label column).
BOB_VULN_CSV_COLUMNS = ("bio_ref_subject_id", "probe_subject_id", "probe_key", "probe_attack_type", "score")

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
        try:
            columns = _split_fields(source, layouts)
        except ScoreFileError as error:
            _refuse_asvspoof_asv_lines(source)
            _suggest_lists(source, error)
            raise
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
        _refuse_asvspoof(source, columns)
        genuine = named["claimed_id"] == named["real_id"]
        model = named["model_label" if n == 5 else "claimed_id"]
        trial = model + " " + named["test_label"]
        extra = {k: v for k, v in named.items() if k != "score"}
        extra["subject"] = named["real_id"]
        parts.append(_tidy(system, trial, genuine, score, split, extra))
    return pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]


#: Keys of the ASVspoof score files: ``{keys: (kind of file, reader)}``.
_ASVSPOOF_KEYS = {
    frozenset({"target", "nontarget", "spoof"}): ("ASV", "read_asvspoof_asv"),
    frozenset({"bonafide", "spoof"}): ("CM", "read_asvspoof_cm"),
}


def _refuse_asvspoof(source, columns: list[np.ndarray]) -> None:
    """An ASVspoof score file has the field count of a bob one, but a field of keys
    (``target``/``nontarget``/``spoof``, ``bonafide``/``spoof``) where bob has subject
    ids: read as bob's, it would have no genuine trial (or a wrong one)."""
    heads = [frozenset(pd.unique(column[:10_000]).tolist()) for column in columns[:-1]]
    for keys, (kind, reader) in _ASVSPOOF_KEYS.items():  # the ASV keys are the telling ones
        for field, (head, column) in enumerate(zip(heads, columns, strict=False), start=1):
            if len(head) > 1 and head <= keys and frozenset(pd.unique(column)) <= keys:
                raise ScoreFileError(ERROR_ASVSPOOF_FILE.format(
                    source=source.name, field=field, keys=sorted(keys), kind=kind, reader=reader,
                ))


def _refuse_asvspoof_asv_lines(source) -> None:
    """ASVspoof's ASV scores come as ``attack key score`` lines, three fields that no bob
    layout has: when the first line's key is an ASV one, say what reads the file."""
    first = next(_data_lines(source.text), None)
    if first is not None and len(first[1]) == 3 and first[1][1] in ("target", "nontarget", "spoof"):
        keys = sorted(next(k for k in _ASVSPOOF_KEYS if "target" in k))
        raise ScoreFileError(ERROR_ASVSPOOF_FILE.format(
            source=source.name, field=2, keys=keys, kind="ASV", reader="read_asvspoof_asv",
        ))


def _suggest_lists(source, error: ScoreFileError) -> None:
    """A file whose first line holds one field is a score list (pyeer's): say what reads it."""
    first = next(_data_lines(source.text), None)
    if first is not None and len(first[1]) == 1:
        raise ScoreFileError(ERROR_ONE_FIELD.format(message=error)) from None


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


#: How :func:`~pandas_biosig.io.read_score_lists` reads an impostor list.
IMPOSTOR_FORMATS = {
    "auto": "'scores', refused when the file could be either (ERROR_LIST_AMBIGUOUS)",
    "scores": "one score per line (the last field)",
    "histogram": "pyeer's histogram format: line i (from 0) counts the scores equal to i",
}


def _list_scores(path, max_bytes: int) -> np.ndarray:
    return _list_values(path, max_bytes)[0]


def _list_values(path, max_bytes: int, name: str = "score") -> tuple[np.ndarray, tuple | None]:
    """The last field of every line as float64, and the first line that is not one field
    of digits only (a non-negative integer, as a pyeer histogram's counts are written):
    ``(file, line number, line)``, None when there is none."""
    parts, other = [], None
    for source in _read_sources(path, None, max_bytes):
        _check_parse_cost(source, 1)
        tokens, counts = [], []
        for line, fields in _data_lines(source.text):
            if len(fields) > MAX_FIELDS_PER_LINE:
                raise _many_fields(source, line, len(fields))
            tokens.append(fields[-1])
            counts.append(len(fields))
        if not tokens:
            raise ScoreFileError(ERROR_EMPTY_FILE.format(source=source.name))
        if other is None:
            other = _first_non_count(source, tokens, counts)
        column = np.array(tokens, dtype=object)
        parts.append(
            _parse_numbers(
                column,
                lambda i, source=source, column=column, counts=counts: ScoreFileError(
                    ERROR_NOT_A_NUMBER.format(
                        source=source.name, line=_line_number(source, i),
                        field=counts[i], name=name, value=column[i],
                    )
                ),
            )
        )
    return np.concatenate(parts), other


def _first_non_count(source, tokens, counts) -> tuple | None:
    for i, (token, n) in enumerate(zip(tokens, counts, strict=True)):
        if n != 1 or not token.isdigit():
            return source.name, _line_number(source, i), token
    return None


def _lists_frame(
    genuine_path, impostor_path, *, system, split, max_bytes=DEFAULT_MAX_BYTES,
    impostor_format: str = "auto",
) -> pd.DataFrame:
    """A genuine and an impostor list as a trial table; the impostor list read as
    scores, or as a pyeer histogram (:func:`_histogram_frame`), or, under ``"auto"``,
    refused when it could be either (:data:`ERROR_LIST_AMBIGUOUS`)."""
    system = _file_system_name(genuine_path) if system is None else system
    genuine_scores = _list_scores(genuine_path, max_bytes)
    if impostor_format == "histogram":
        return _histogram_frame(genuine_scores, impostor_path, system, split, max_bytes)
    impostor_scores, other = _list_values(impostor_path, max_bytes)
    if impostor_format == "auto" and other is None and _integers(genuine_scores):
        raise ScoreFileError(ERROR_LIST_AMBIGUOUS.format(path=impostor_path,
                                                         genuine=genuine_path))
    score = np.concatenate([genuine_scores, impostor_scores])
    genuine = np.arange(score.size) < genuine_scores.size
    return _tidy(system, np.arange(score.size), genuine, score, split)


def _integers(values: np.ndarray) -> bool:
    return bool(np.all(np.isfinite(values) & (values == np.floor(values))))


def _histogram_frame(genuine_scores, path, system, split, max_bytes) -> pd.DataFrame:
    """pyeer's histogram format: line ``i`` (from 0) counts the impostor scores equal to
    ``i``. One row per genuine score (counted 1), then one per line (its count; the rows
    counted 0 are kept), with a ``count`` column."""
    counts, other = _list_values(path, max_bytes, name="count")
    if other is not None:
        raise ScoreFileError(ERROR_HISTOGRAM_LINE.format(source=other[0], line=other[1],
                                                         value=other[2]))
    if float(counts.sum()) >= MAX_HISTOGRAM_TRIALS:
        raise ScoreFileError(ERROR_HISTOGRAM_TOTAL.format(path=path, total=float(counts.sum()),
                                                          limit=MAX_HISTOGRAM_TRIALS))
    score = np.concatenate([genuine_scores, np.arange(counts.size, dtype=np.float64)])
    genuine = np.arange(score.size) < genuine_scores.size
    count = np.concatenate([np.ones(genuine_scores.size, dtype=np.int64),
                            counts.astype(np.int64)])
    return _tidy(system, np.arange(score.size), genuine, score, split, {"count": count})


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
    name, data = blobs.pop()
    source = _decode(data, name, max_bytes)  # a clear error for text that is not UTF-8
    sep = "\t" if _table_suffix(path) == ".tsv" else ","
    header = _csv_header(source, sep)
    repeated = sorted({c for c in header if header.count(c) > 1})
    if repeated:  # pandas would rename the second copy silently ("a.1")
        raise SchemaError(ERROR_DUPLICATE_COLUMNS.format(duplicated=repeated, found=header))
    try:
        return _read_csv_strict(
            source, io.BytesIO(data), sep=sep, encoding="utf-8-sig", compression=None,
        )
    except ScoreFileError:
        raise
    except (pd.errors.ParserError, pd.errors.EmptyDataError, ValueError) as error:
        raise ScoreFileError(
            ERROR_CORRUPT.format(source=name, what="table", reason=_reason(error))
        ) from None


def _table_frame(
    path, *, columns, system, split, default_system=None, split_from_name=False,
    max_bytes=DEFAULT_MAX_BYTES, verification=True,
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
    if verification:
        _refuse_vulnerability_table(path, frame)
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


def read_kind_table(path, /, *, max_bytes: int = DEFAULT_MAX_BYTES) -> pd.DataFrame:
    """A CSV or Parquet table of PAD or vulnerability trials (PAD labels and ``pai``, or
    a ``kind`` column), read and bounded as :func:`~pandas_biosig.read_table` reads a
    table, its system and split named by the file as :func:`~pandas_biosig.read_scores`
    names them when it has no such column; not checked as a verification table (the PAD
    and vulnerability functions check it)."""
    path = _regular_file(path)
    system, split, _ = parse_name(path, split_tokens=SPLIT_TOKENS, class_tokens=None)
    return _table_frame(path, columns=None, system=None, split=split, default_system=system,
                        split_from_name=True, max_bytes=max_bytes, verification=False)


def _refuse_vulnerability_table(path, frame: pd.DataFrame) -> None:
    """A bob vulnerability score file, or a table of genuine / zero-effort / attack
    probes (a ``kind`` column), has no label column: say what it is and what reads it."""
    if "label" in frame.columns:
        return
    if set(BOB_VULN_CSV_COLUMNS) <= set(frame.columns):
        raise SchemaError(ERROR_VULN_TABLE.format(
            path=path, what="bob vulnerability columns " + ", ".join(BOB_VULN_CSV_COLUMNS),
            advice="read it with pandas_biosig.read_bob_vuln",
        ))
    if "kind" in frame.columns:
        raise SchemaError(ERROR_VULN_TABLE.format(
            path=path, what="a 'kind' column",
            advice="read it with pandas.read_csv (or read_parquet)",
        ))


def _validated(frame: pd.DataFrame, count: str | None = None) -> pd.DataFrame:
    validate_trials(frame, nonfinite="reject", count=count)
    return frame


def reads_as_table(path: Path, format: str) -> bool:
    return format == "table" or (format == "auto" and _table_suffix(path) is not None)
