"""Score-file readers: bob, NIST/Kaldi, CSV/Parquet tables and genuine/impostor score lists.

Every reader returns the tidy trial table: ``system, trial, label, score``, then ``split``
when the split is known, then the identifying fields of the file format. Each table is
checked with :func:`pandas_biosig._core.schema.validate_trials`, so a table that reads
without error is one that every metric accepts. Non-finite scores (``nan``, ``inf``) are kept.
The metric functions decide what to do with them (``nonfinite=``).

Text files are read transparently when they are gzip, bzip2 or xz compressed, or are tar
archives (``.tar``, ``.tar.gz``, ...): codecs are recognised by their magic bytes, archives
by their magic bytes or a name ending in a tar suffix. Every read is bounded by
``max_bytes=`` (:data:`DEFAULT_MAX_BYTES`): decompression streams under it, and the text
with the estimated cost of its parsed fields must fit it too, checked before parsing (so
a read's peak memory stays within :data:`PEAK_MULTIPLE` times the bound); past it
:class:`FileTooLargeError` is raised. One line may hold at most
:data:`MAX_FIELDS_PER_LINE` fields of at most :data:`MAX_FIELD_BYTES` bytes; corrupt or truncated data is a :class:`ScoreFileError` naming the file and member. A tar archive gives all its regular, non-hidden
members, one after the other, or the single ``member=`` you name. A malformed line is
reported with the file, the line number and what was expected: these messages are the
``ERROR_*`` constants of this module.

Labels are written as ``"genuine"`` / ``"impostor"`` by the text readers. :func:`read_table`
keeps the file's own label values, which must be in :data:`pandas_biosig.LABEL_VOCABULARY`.

Layout: ``._open`` opens files under the byte bound (codecs, tar archives),
``._parse`` parses fields, numbers and labels strictly, ``._names`` reads system and
split off file names, ``.verification`` holds the verification readers, ``.scores``
:func:`read_scores`, ``.identification`` the identification readers, ``.pad`` the
presentation-attack and vulnerability readers and ``.tandem`` the ASVspoof tandem reader. The named errors live in ``._errors``.
"""

from ._errors import FileTooLargeError, ScoreFileError
from ._formats import BOB_LAYOUTS
from ._identification import read_bob_identification, read_pyeer_cmc
from ._names import CLASS_TOKENS, EXTENSIONS, GENERIC_NAMES, SPLIT_TOKENS
from ._open import (
    DEFAULT_MAX_BYTES,
    MAX_FIELD_BYTES,
    MAX_FIELDS_PER_LINE,
    PARSE_BYTES_PER_FIELD,
    PARSE_BYTES_PER_ROW,
    PEAK_MULTIPLE,
)
from ._pad import read_asvspoof_asv, read_asvspoof_cm, read_bob_pad, read_bob_vuln
from ._scores import FORMATS, read_scores
from ._tandem import read_asvspoof_tandem
from ._verification import read_bob, read_nist, read_score_lists, read_table

__all__ = [
    "BOB_LAYOUTS",
    "CLASS_TOKENS",
    "EXTENSIONS",
    "FORMATS",
    "GENERIC_NAMES",
    "SPLIT_TOKENS",
    "DEFAULT_MAX_BYTES",
    "MAX_FIELD_BYTES",
    "MAX_FIELDS_PER_LINE",
    "PARSE_BYTES_PER_FIELD",
    "PARSE_BYTES_PER_ROW",
    "PEAK_MULTIPLE",
    "FileTooLargeError",
    "ScoreFileError",
    "read_bob",
    "read_nist",
    "read_score_lists",
    "read_scores",
    "read_table",
    "read_bob_identification",
    "read_pyeer_cmc",
    "read_asvspoof_asv",
    "read_asvspoof_cm",
    "read_asvspoof_tandem",
    "read_bob_pad",
    "read_bob_vuln",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
