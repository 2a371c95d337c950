"""File names: the system and split a score file's name gives."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from ._open import _regular_file

PathLike = str | os.PathLike


#: Suffixes dropped from a file name to form a system name (repeatedly, case-insensitive).
EXTENSIONS = (
    ".gz", ".bz2", ".xz", ".tgz", ".tar", ".txt", ".csv", ".tsv", ".parquet", ".pq",
    ".scores", ".score", ".lst", ".dat",
)

#: File-name tokens that give the split (a token is delimited by "-", "_" or ".";
#: case-insensitive). bob's names: ``test`` is the evaluation split.
SPLIT_TOKENS = {
    "dev": "dev",
    "development": "dev",
    "eval": "eval",
    "evaluation": "eval",
    "test": "eval",
    "train": "train",
    "training": "train",
}

#: File-name tokens that tell a genuine list from an impostor list (format="lists").
CLASS_TOKENS = {
    "genuine": "genuine",
    "gen": "genuine",
    "true": "genuine",
    "target": "genuine",
    "positive": "genuine",
    "pos": "genuine",
    "impostor": "impostor",
    "imposter": "impostor",
    "imp": "impostor",
    "false": "impostor",
    "nontarget": "impostor",
    "negative": "impostor",
    "neg": "impostor",
}

#: Names that do not name a system: the parent directory's name is used instead
#: (bob's ``<system>/scores-dev`` layout).
GENERIC_NAMES = ("", "scores", "score")


# ---------------------------------------------------------------------------- names
def _strip_extensions(name: str) -> str:
    lowered = name.lower()
    stripped = True
    while stripped:
        stripped = False
        for extension in EXTENSIONS:
            if lowered.endswith(extension) and len(lowered) > len(extension):
                name, lowered = name[: -len(extension)], lowered[: -len(extension)]
                stripped = True
    return name


def _file_system_name(path: PathLike) -> str:
    """The system name of a single-file reader: the file name without its extensions."""
    return _strip_extensions(_regular_file(path).name)


def _take_token(parts: list[str], tokens: Mapping[str, str]) -> str | None:
    """Remove a name token found in ``tokens`` (the last, else the first, else one in the
    middle: ``scores-dev-isv``); return what it stands for.

    ``parts`` alternates words and separators, as ``re.split`` with a group leaves them.
    """
    words = [i for i, p in enumerate(parts) if p not in ("-", "_", ".")]
    for index in [*words[-1:], *words[:1], *words[1:-1]]:
        if parts[index].lower() in tokens:
            value = tokens[parts[index].lower()]
            # the token and the separator next to it (before it, or after a first token)
            side = index - 1 if index > 0 and parts[index - 1] in ("-", "_", ".") else index + 1
            for i in sorted({index, side}, reverse=True):
                if i < len(parts) and (i == index or parts[i] in ("-", "_", ".")):
                    del parts[i]
            return value
    return None


def _drop_generic(parts: list[str]) -> None:
    """Drop a first or last generic word (``scores``) when other words remain: bob's
    ``scores-dev-isv`` names system ``isv``."""
    words = [i for i, p in enumerate(parts) if p not in ("-", "_", ".")]
    if len(words) < 2:
        return
    for index in (words[-1], words[0]):
        if parts[index].lower() in GENERIC_NAMES:
            del parts[index]
            return


def parse_name(
    path: Path, *, split_tokens: Mapping[str, str], class_tokens: Mapping[str, str] | None
) -> tuple[str, str | None, str | None]:
    """``(system, split, class)`` read off a file name (see :func:`read_scores`)."""
    parts = [p for p in re.split(r"([-_.])", _strip_extensions(path.name)) if p]
    split = cls = None
    for _ in range(2):
        if class_tokens is not None and cls is None:
            cls = _take_token(parts, class_tokens)
        if split is None:
            split = _take_token(parts, split_tokens)
    _drop_generic(parts)
    name = "".join(parts).strip("-_.")
    parent = path.parent
    while name.lower() in GENERIC_NAMES and parent.name:
        name, parent = parent.name, parent.parent
    return name, split, cls


# ---------------------------------------------------------------------------- frames
