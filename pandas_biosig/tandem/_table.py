"""The tandem table: each trial's ASV and CM scores side by side, checked and grouped.

One row per (ASV system, CM system, trial): ``asv_system, cm_system, trial, kind,
asv_score, cm_score``, optionally ``subject`` (the speaker), ``split``, ``pai`` (the
attack) and, for a spoofing-aware score, ``sasv_score``. ``kind`` is ``target``,
``nontarget`` or ``spoof`` (the vocabulary of :data:`TANDEM_KINDS`; the CM's classes
follow: target and non-target trials are bona fide). :func:`validate_tandem` checks a
table and groups it by ``(asv_system, cm_system, split)`` into a
:class:`~pandas_biosig._core.schema.Trials` of :class:`TandemGroup`, so that the
protocol's split rules (:func:`pandas_biosig._core.protocol.split_roles`) and subject
clusters apply unchanged. :func:`tandem_table` builds the table from an ASV table and a
CM table.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._core.schema import (
    ERROR_DUPLICATE_TRIALS,
    ERROR_MISSING_COLUMNS,
    ERROR_MISSING_TRIALS,
    ERROR_NOT_A_FRAME,
    Group,
    SchemaError,
    Trials,
    check_column_names,
    check_columns,
    combine_codes,
    example_rows,
    factorize_keys,
    numeric_scores,
    scalar_value,
)
from ..pad import KIND_VOCABULARY

__all__ = [
    "ERROR_KIND",
    "ERROR_KIND_MISSING",
    "ERROR_NO_ASV_SCORE",
    "ERROR_NO_CM_SCORE",
    "ERROR_NO_SCORE",
    "ERROR_NO_SPOOF_TRIALS",
    "ERROR_SCORE_INFINITE",
    "KIND_NAMES",
    "TANDEM_KINDS",
    "TandemGroup",
    "group_keys",
    "kind_codes",
    "validate_tandem",
    "where",
]

#: The trial kinds of a tandem table (case-insensitive): value -> 0 target, 1 non-target,
#: 2 spoof (the vulnerability tables' vocabulary, :data:`pandas_biosig.pad.KIND_VOCABULARY`).
TANDEM_KINDS: dict[str, int] = dict(KIND_VOCABULARY)
#: The kinds by code.
KIND_NAMES = ("target", "nontarget", "spoof")

ERROR_KIND = (
    "column {column!r} holds kind(s) {values} outside the vocabulary; target: {target}; "
    "nontarget: {nontarget}; spoof: {spoof}"
)
ERROR_KIND_MISSING = (
    "{where} has no {kind} trials; the tandem metrics need target, nontarget and spoof trials"
)
ERROR_NO_SPOOF_TRIALS = (
    "{where} has no spoof trials: the tandem metrics need the scores of spoofed trials "
    "(the rate of spoofs the ASV accepts, the CM's spoof class)"
)
ERROR_NO_CM_SCORE = (
    "{n} trial(s) have an ASV score but no CM score (NaN in column {column!r}), e.g. "
    "rows:\n{rows}\nevery trial of a tandem table needs both scores: score them with the "
    "CM, or drop them from the table"
)
ERROR_NO_ASV_SCORE = (
    "{n} trial(s) have a CM score but no ASV score (NaN in column {column!r}), e.g. "
    "rows:\n{rows}\nevery trial of a tandem table needs both scores"
)
ERROR_NO_SCORE = "{n} trial(s) have no score in column {column!r} (NaN), e.g. rows:\n{rows}"
ERROR_SCORE_INFINITE = (
    "column {column!r} holds {n} infinite or NaN score(s){allowed}, e.g. rows:\n{rows}"
)


@dataclass(frozen=True, eq=False, kw_only=True)
class TandemGroup(Group):
    """The trials of one (ASV system, CM system, split): ``scores`` are the group's main
    scores (the ASV's, or the spoofing-aware score of an a-DCF table), ``genuine`` the
    targets; ``kind`` codes every trial (0 target, 1 non-target, 2 spoof), ``asv``,
    ``cm`` and ``sasv`` hold the scores the table has (None for a missing column); these
    four are keyword arguments."""

    kind: np.ndarray
    asv: np.ndarray | None = None
    cm: np.ndarray | None = None
    sasv: np.ndarray | None = None

    @property
    def asv_system(self) -> Hashable:
        return self.key[0]

    def of(self, which: str, code: int) -> np.ndarray:
        """The ``which`` scores (``"asv"``, ``"cm"``, ``"sasv"``) of the trials of kind
        ``code``."""
        return getattr(self, which)[self.kind == code]

    def scores_of(self, which: str) -> np.ndarray:
        """The ``which`` scores (``"asv"``, ``"cm"``, ``"sasv"``) of every trial."""
        values = getattr(self, which)
        assert values is not None, which  # the table was validated with these scores
        return values

    @property
    def bonafide_cm(self) -> np.ndarray:
        return self.scores_of("cm")[self.kind != 2]

    @property
    def counts(self) -> dict:
        n = np.bincount(self.kind, minlength=3)
        return dict(n_target=int(n[0]), n_nontarget=int(n[1]), n_spoof=int(n[2]))


def where(group: Group, split_column: str | None) -> str:
    """``ASV system 'a', CM system 'c', split 'dev'``: a group named for a message."""
    text = f"ASV system {group.key[0]!r}, CM system {group.key[1]!r}"
    return text + (f", split {group.key[2]!r}" if split_column is not None else "")


def kind_codes(series: pd.Series, column: str) -> np.ndarray:
    """The kind of every trial, 0 target, 1 non-target, 2 spoof (:data:`TANDEM_KINDS`);
    an unknown or missing kind is :data:`ERROR_KIND`."""
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    mapped = [TANDEM_KINDS.get(u.strip().lower()) if isinstance(u, str) else None
              for u in uniques]
    bad = [scalar_value(u) for u, m in zip(uniques, mapped, strict=True) if m is None]
    if bad or (codes < 0).any():
        names = {i: sorted(k for k, v in TANDEM_KINDS.items() if v == i) for i in range(3)}
        raise SchemaError(ERROR_KIND.format(
            column=column, values=[*bad[:10], *(["<missing>"] if (codes < 0).any() else [])],
            target=names[0], nontarget=names[1], spoof=names[2]))
    return np.asarray(mapped, dtype=np.int8)[codes]


def _scores(data: pd.DataFrame, columns: dict[str, str], *, sasv_inf: bool) -> dict:
    """The score columns as float64; a NaN (a trial scored by one system only) and an
    infinite score are named errors (the spoofing-aware score may be ``-inf``: rejected
    at every threshold, as a cascade's)."""
    values = {role: numeric_scores(data, col) for role, col in columns.items()}
    missing = {role: np.isnan(v) for role, v in values.items()}
    for role, other, message in (("cm", "asv", ERROR_NO_CM_SCORE),
                                 ("asv", "cm", ERROR_NO_ASV_SCORE)):
        if role in values and other in values:
            bad = np.flatnonzero(missing[role] & ~missing[other])
            if bad.size:
                raise SchemaError(message.format(n=bad.size, column=columns[role],
                                                 rows=example_rows(data, bad)))
    for role, v in values.items():
        if missing[role].any():
            bad = np.flatnonzero(missing[role])
            raise SchemaError(ERROR_NO_SCORE.format(n=bad.size, column=columns[role],
                                                    rows=example_rows(data, bad)))
        ok = np.isfinite(v) | ((v == -np.inf) if role == "sasv" and sasv_inf else False)
        if not ok.all():
            bad = np.flatnonzero(~ok)
            raise SchemaError(ERROR_SCORE_INFINITE.format(
                column=columns[role], n=bad.size, rows=example_rows(data, bad),
                allowed=" (-inf only is allowed: rejected at every threshold)"
                if role == "sasv" and sasv_inf else ""))
    return values


def _group_rows(data: pd.DataFrame, keys: list[str]) -> list[tuple[tuple, np.ndarray]]:
    """``(key values, rows)`` of every group, in the order of the key codes (first
    appearance in each column)."""
    codes, uniques = zip(*(factorize_keys(data[c]) for c in keys), strict=True)
    combined = combine_codes(codes, [len(u) for u in uniques], len(data))
    uniq, dense = np.unique(combined, return_inverse=True)
    order = np.argsort(dense.reshape(-1), kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(dense.reshape(-1)))))
    out = []
    for i in range(uniq.size):
        rows = order[bounds[i]:bounds[i + 1]]
        out.append((tuple(scalar_value(u[int(c[rows[0]])]) for u, c in zip(uniques, codes,
                                                                             strict=True)),
                    rows))
    return out


def _check_group(data, g: TandemGroup, split_column, trial_column) -> None:
    n = np.bincount(g.kind, minlength=3)
    for code, name in ((2, "spoof"), (0, "target"), (1, "nontarget")):
        if n[code] == 0:
            message = ERROR_NO_SPOOF_TRIALS if code == 2 else ERROR_KIND_MISSING
            raise SchemaError(message.format(where=where(g, split_column), kind=name))
    index = pd.Index(g.trial)
    if index.has_duplicates:
        dup = index.duplicated(keep=False)
        rows = g.rows
        assert rows is not None  # validate_tandem gives every group its row positions
        raise SchemaError(ERROR_DUPLICATE_TRIALS.format(
            where=where(g, split_column), n=int(index.duplicated().sum()), column=trial_column,
            examples=[scalar_value(v) for v in pd.unique(g.trial[dup])[:5]],
            rows=example_rows(data, rows[dup])))


def _optional(data: pd.DataFrame, name: str | None, default: str) -> str | None:
    """An optional column: used when present; required when named other than its default."""
    if name is None or (name == default and name not in data.columns):
        return None
    return name


def validate_tandem(
    data: pd.DataFrame,
    *,
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    scores: dict[str, str],
    split: str | None = "split",
    subject: str | None = "subject",
    sasv_inf: bool = False,
) -> Trials:
    """Check a tandem table and group it: a :class:`~pandas_biosig._core.schema.Trials`
    of :class:`TandemGroup` keyed ``(asv_system, cm_system, split)`` (``by`` is
    ``("asv_system",)``, so ``group.system`` is the CM system). ``scores`` maps the score
    roles the caller needs (``"asv"``, ``"cm"``, ``"sasv"``) to their columns. The input
    is never modified."""
    if not isinstance(data, pd.DataFrame):
        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(data).__name__))
    check_column_names(asv_system=asv_system, cm_system=cm_system, trial=trial, kind=kind,
                       split=split, subject=subject, **scores)
    check_columns(data)
    split_col = _optional(data, split, "split")
    subject_col = _optional(data, subject, "subject")
    required = [asv_system, cm_system, trial, kind, *scores.values(),
                *(c for c in (split_col, subject_col) if c is not None)]
    missing = [c for c in dict.fromkeys(required) if c not in data.columns]
    if missing:
        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=missing, found=list(data.columns)))
    if len(data) == 0:
        raise SchemaError("the tandem table is empty: there are no trials to evaluate")
    kinds = kind_codes(data[kind], kind)
    values = _scores(data, scores, sasv_inf=sasv_inf)
    trial_ids = data[trial].to_numpy()
    if pd.isna(data[trial]).any():
        bad = np.flatnonzero(pd.isna(data[trial]).to_numpy())
        raise SchemaError(ERROR_MISSING_TRIALS.format(column=trial, n=bad.size,
                                                      rows=example_rows(data, bad)))
    subjects = None if subject_col is None else data[subject_col].to_numpy()
    keys = [asv_system, cm_system] + ([split_col] if split_col is not None else [])
    groups: list[Group] = []
    for key, rows in _group_rows(data, keys):
        key = key if split_col is not None else (*key, None)
        main = next(values[r] for r in ("asv", "sasv", "cm") if r in values)
        asv, cm, sasv = (values[r][rows] if r in values else None
                         for r in ("asv", "cm", "sasv"))
        g = TandemGroup(
            key, main[rows], kinds[rows] == 0, trial_ids[rows], rows,
            None if subjects is None else subjects[rows], kind=kinds[rows], asv=asv, cm=cm,
            sasv=sasv)
        _check_group(data, g, split_col, trial)
        groups.append(g)
    return Trials(groups=groups, by=("asv_system",), split_column=split_col,
                  orientation="similarity",
                  columns={"found": list(data.columns), "trial": trial, "system": cm_system,
                           "label": kind})


def group_keys(trials: Trials, groups: Sequence[Group]) -> dict[str, list]:
    """The key columns of result rows: ``asv_system, cm_system, split``."""
    return {"asv_system": [g.key[0] for g in groups], "cm_system": [g.key[1] for g in groups],
            "split": [g.key[2] for g in groups]}
