"""What kind of table the report was given: verification, PAD, vulnerability, or a
verification table whose impostors mix zero-effort impostors and presentation attacks.

The labels are read as the library reads them (:func:`validate_trials` for genuine /
impostor, the PAD vocabulary for bona fide / attack); nothing here chooses a threshold or
reads a split.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd

from .._core.schema import SchemaError, validate_trials
from ..pad._table import PAD_LABEL_VOCABULARY

__all__ = ["TableKind", "attack_rows", "genuine_rows", "pad_labels", "table_kind", "with_kind"]

TableKind = Literal["verification", "pad", "vulnerability", "mixed"]

#: Label values that only a PAD table uses (``bona fide``, ``attack``, ``spoof``...).
PAD_ONLY_LABELS = frozenset(
    k for k in PAD_LABEL_VOCABULARY if k not in ("genuine", "true", "false", "1", "0")
)


def attack_rows(trials: pd.DataFrame) -> np.ndarray | None:
    """Which rows carry a presentation attack instrument (a non-empty ``pai``), or None
    when the table has no ``pai`` column."""
    if "pai" not in trials.columns:
        return None
    pai = trials["pai"]
    return pai.notna().to_numpy() & (pai.astype(str).str.strip() != "").to_numpy()


def genuine_rows(trials: pd.DataFrame) -> np.ndarray | None:
    """Which rows are genuine, as the verification schema reads ``label`` (one group of
    every row, in order); None when the labels are not genuine / impostor labels or hold
    one class only."""
    labels = pd.DataFrame({"system": 0, "trial": range(len(trials)),
                           "label": trials["label"].to_numpy(), "score": 0.0})
    try:
        return validate_trials(labels, split=None, subject=None).groups[0].genuine
    except SchemaError:
        return None


def table_kind(trials: pd.DataFrame) -> TableKind:
    """The kind of ``trials`` (see :func:`pandas_biosig.cli._report.report_kinds`)."""
    if "kind" in trials.columns:
        return "vulnerability"
    if "label" not in trials.columns:
        return "verification"  # the verification checks name what is missing
    values = pd.unique(trials["label"].dropna())
    if any(isinstance(v, str) and v.strip().lower() in PAD_ONLY_LABELS for v in values):
        return "pad"
    attack = attack_rows(trials)
    if attack is None or not attack.any():
        return "verification"
    genuine = genuine_rows(trials)
    if genuine is None:
        return "verification"
    attacks, impostors = int((attack & ~genuine).sum()), int((~genuine).sum())
    if attacks == impostors:
        return "pad"
    return "mixed" if attacks else "verification"


def with_kind(trials: pd.DataFrame) -> pd.DataFrame:
    """A mixed table as a vulnerability table: ``kind`` genuine for the genuine rows,
    attack for the impostor rows with a ``pai``, zei (zero-effort impostor) for the others.
    The caller's table is not changed."""
    genuine, attack = genuine_rows(trials), attack_rows(trials)
    assert genuine is not None and attack is not None  # a mixed table has both
    kind = np.where(genuine, "genuine", np.where(attack, "attack", "zei"))
    return trials.drop(columns=["label"]).assign(kind=kind)


def pad_labels(trials: pd.DataFrame) -> pd.DataFrame:
    """A PAD table whose labels are verification labels (genuine / impostor, every
    impostor with a ``pai``) with the labels bona fide / attack; any other table as it
    is. The caller's table is not changed."""
    values = pd.unique(trials["label"].dropna())
    if all(not isinstance(v, str) or v.strip().lower() in PAD_LABEL_VOCABULARY for v in values):
        return trials
    genuine = genuine_rows(trials)
    assert genuine is not None  # a PAD table by its pai has genuine / impostor labels
    return trials.assign(label=np.where(genuine, "bona fide", "attack"))
