"""The named errors of the score-file readers and their messages (``ERROR_*``)."""

from __future__ import annotations

from .._core.schema import SchemaError

ERROR_FIELDS = (
    "{source}, line {line}: expected {expected} whitespace-separated fields ({names}), "
    "found {found}"
)
ERROR_ONE_FIELD = (
    "{message}; a file of one score per line is a genuine or an impostor list (pyeer's): "
    "read such files with format='lists' (read_score_lists), named like "
    "<system>_genuine.txt and <system>_impostor.txt"
)
ERROR_CSV_FIELDS = (
    "{source}, line {line}: expected {expected} fields (as many as the header has), found "
    "{found}"
)
ERROR_NOT_A_NUMBER = "{source}, line {line}: expected a number in field {field} ({name}), found {value!r}"
ERROR_LABEL = "{source}, line {line}: expected a label in field {field} ({expected}), found {value!r}"
ERROR_LIST_AMBIGUOUS = (
    "{path}: every line is one non-negative integer, and the genuine list {genuine} holds "
    "integer scores, so the file may be a list of integer scores or pyeer's histogram "
    "format (line i, from 0, counts the impostor scores equal to i). Say which: "
    "impostor_format='histogram' or 'scores' (read_scores: format='pyeer_histogram' or "
    "format='lists' with impostor_format='scores')"
)
ERROR_HISTOGRAM_LINE = (
    "{source}, line {line}: expected a count (one non-negative integer in digits, pyeer's "
    "histogram format), found {value!r}"
)
#: The most impostor trials a pyeer histogram may count: float64 rates count them exactly.
MAX_HISTOGRAM_TRIALS = 2.0**53
ERROR_HISTOGRAM_TOTAL = (
    "{path}: the histogram counts {total:.4g} impostor trials, at or beyond the {limit:.4g} "
    "(2**53) that float64 rates count exactly"
)
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
    "{path}: the table already has a {column!r} column, so {column}_name={value!r} would "
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
ERROR_PARSE_COST = (
    "{source}: parsing it would take about {cost} bytes of memory ({lines} lines of "
    "{fields} fields, and the text), more than max_bytes={max_bytes}; pass a larger "
    "max_bytes= to read it"
)
ERROR_LINE_FIELDS = (
    "{source}, line {line}: {found} fields, more than a line may hold ({limit}); not a "
    "score file?"
)
ERROR_FIELD_BYTES = (
    "{source}, line {line}: a field of {found} bytes, more than a field may hold ({limit}); "
    "not a score file?"
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

    __module__ = "pandas_biosig.io"


class FileTooLargeError(ScoreFileError):
    """A file holds more than ``max_bytes`` bytes once decompressed, or parsing it would
    take more memory than ``max_bytes`` (a reader's bound)."""

    __module__ = "pandas_biosig.io"
ERROR_ASVSPOOF_FILE = (
    "{source}: its field {field} holds ASVspoof keys {keys}: an ASVspoof "
    "{kind} score file, not a bob one (whose genuine trials are those with claimed_id == "
    "real_id); read it with pandas_biosig.{reader}"
)
ERROR_VULN_TABLE = (
    "{path}: {what}, no label column (genuine / impostor) as a verification table has: "
    "a table of genuine, zero-effort and attack probes; {advice}, and measure the attacks "
    "with pandas_biosig.iapmr"
)
