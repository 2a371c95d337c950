"""The tandem table from an ASV table and a CM table: how trials pair, and the refusals.

Each ASV trial gets the CM score of the row of the CM table with the same value of the
pairing key ``key`` (the trial id by default; with ``split`` added when both tables have
a split column). The pairing is refused, by name, when it is ambiguous or incomplete:

- a CM key that appears more than once with different scores or labels
  (:data:`ERROR_AMBIGUOUS_PAIR`; repeated rows with one score are one CM score, as the
  2019 example's utterances that six non-target trials reuse);
- an ASV trial with no CM score (:data:`ERROR_NO_CM_PAIR`), and a CM score that no ASV
  trial uses (:data:`ERROR_CM_UNPAIRED`: the CM's rates would otherwise be computed on
  other trials than the table's);
- a pair whose kinds disagree: a target or non-target trial whose CM label is an attack,
  a spoof whose CM label is bona fide (:data:`ERROR_PAIR_KIND`), or two different
  attacks (:data:`ERROR_PAIR_ATTACK`, when both tables name it in ``pai``).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._core.schema import (
    ERROR_MISSING_COLUMNS,
    ERROR_NOT_A_FRAME,
    SchemaError,
    check_column_names,
    check_columns,
    numeric_scores,
    scalar_value,
)
from ..pad._table import PAD_LABEL_VOCABULARY
from ._table import KIND_NAMES, kind_codes

__all__ = [
    "ERROR_AMBIGUOUS_PAIR",
    "ERROR_CM_LABEL",
    "ERROR_CM_UNPAIRED",
    "ERROR_NO_CM_PAIR",
    "ERROR_PAIR_ATTACK",
    "ERROR_PAIR_KIND",
    "tandem_table",
]

ERROR_AMBIGUOUS_PAIR = (
    "the CM table holds {n} key(s) {on} more than once with different scores or labels "
    "(CM system {system!r}), e.g. {examples}: an ASV trial cannot be paired with one CM "
    "score; pair on a key that names one CM trial (e.g. key=['subject', 'utterance'])"
)
ERROR_NO_CM_PAIR = (
    "{n} trial(s) of ASV system {asv!r} have an ASV score but no CM score of CM system "
    "{cm!r} (no CM row with the same {on}), e.g. {examples}"
)
ERROR_CM_UNPAIRED = (
    "{n} CM score(s) of CM system {cm!r} pair with no trial of ASV system {asv!r} (keys "
    "{on}), e.g. {examples}; a tandem table holds the trials both systems scored: drop "
    "those CM rows first"
)
ERROR_PAIR_KIND = (
    "{n} pair(s) of ASV system {asv!r} and CM system {cm!r} disagree on the kind of trial "
    "(a target or nontarget trial whose CM label is an attack, or a spoof whose CM label "
    "is bona fide), e.g. keys {examples}"
)
ERROR_PAIR_ATTACK = (
    "{n} spoof pair(s) of ASV system {asv!r} and CM system {cm!r} name different attacks "
    "in column {column!r}, e.g. keys {examples}"
)
ERROR_CM_LABEL = (
    "column {column!r} of the CM table holds label(s) {values} outside the vocabulary; "
    "bona fide: {bonafide}; attack: {attack}"
)


def _bonafide(series: pd.Series, column: str) -> np.ndarray:
    codes, uniques = pd.factorize(series.astype(object).map(
        lambda v: str(v).strip().lower() if not pd.isna(v) else v), use_na_sentinel=True)
    mapped = [PAD_LABEL_VOCABULARY.get(u) for u in uniques]
    bad = [scalar_value(u) for u, m in zip(uniques, mapped, strict=True) if m is None]
    if bad or (codes < 0).any():
        raise SchemaError(ERROR_CM_LABEL.format(
            column=column, values=[*bad[:10], *(["<missing>"] if (codes < 0).any() else [])],
            bonafide=sorted(k for k, v in PAD_LABEL_VOCABULARY.items() if v),
            attack=sorted(k for k, v in PAD_LABEL_VOCABULARY.items() if not v)))
    return np.asarray(mapped, dtype=bool)[codes]


def _examples(frame: pd.DataFrame, keys: list[str], mask) -> list:
    rows = frame.loc[np.asarray(mask), keys].head(5)
    return [tuple(scalar_value(v) for v in r) if len(keys) > 1 else scalar_value(r[0])
            for r in rows.itertuples(index=False)]


def _cm_side(cm: pd.DataFrame, keys: list[str], system: str) -> pd.DataFrame:
    """One row per CM key and system; repeated keys must agree on score and label."""
    dup = cm.duplicated([system, *keys], keep=False)
    if dup.any():
        rows = cm[dup]
        spread = rows.groupby([system, *keys], sort=False, dropna=False)[
            ["__cm_score", "__bonafide"]].nunique(dropna=False)
        bad = spread[(spread > 1).any(axis=1)]
        if len(bad):
            raise SchemaError(ERROR_AMBIGUOUS_PAIR.format(
                n=len(bad), on=keys, system=scalar_value(bad.index[0][0]),
                examples=[k[1:] if len(k) > 2 else k[1] for k in bad.index[:5]]))
    return cm.drop_duplicates([system, *keys])


def _pair(a_rows, c_rows, keys, names) -> pd.DataFrame:
    """The ASV trials of one ASV system with the CM scores of one CM system."""
    merged = a_rows.merge(c_rows.drop(columns=["__system"]), on=keys, how="left",
                          indicator="__found", suffixes=("", "__cm"), validate="many_to_one")
    asv_name, cm_name = names
    lost = merged["__found"].to_numpy() == "left_only"
    if lost.any():
        raise SchemaError(ERROR_NO_CM_PAIR.format(
            n=int(lost.sum()), asv=asv_name, cm=cm_name, on=keys,
            examples=_examples(merged, keys, lost)))
    used = c_rows.set_index(keys).index.isin(a_rows.set_index(keys).index)
    if not used.all():
        raise SchemaError(ERROR_CM_UNPAIRED.format(
            n=int((~used).sum()), cm=cm_name, asv=asv_name, on=keys,
            examples=_examples(c_rows, keys, ~used)))
    wrong = (merged["__kind"].to_numpy() == 2) == merged["__bonafide"].to_numpy(dtype=bool)
    if wrong.any():
        raise SchemaError(ERROR_PAIR_KIND.format(n=int(wrong.sum()), asv=asv_name, cm=cm_name,
                                                 examples=_examples(merged, keys, wrong)))
    if "__pai" in merged and "__pai__cm" in merged:
        a, c = merged["__pai"], merged["__pai__cm"]
        differ = (a.notna() & c.notna() & (a.astype(str) != c.astype(str))).to_numpy()
        if differ.any():
            raise SchemaError(ERROR_PAIR_ATTACK.format(
                n=int(differ.sum()), asv=asv_name, cm=cm_name, column="pai",
                examples=_examples(merged, keys, differ)))
    return merged


def _side(frame, name, columns: dict, keys: list[str]) -> pd.DataFrame:
    """The columns one side of the pairing needs, under working names."""
    missing = [c for c in dict.fromkeys([*columns.values(), *keys]) if c not in frame.columns]
    if missing:
        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=missing, found=list(frame.columns))
                          + f" (the {name} table)")
    out = pd.DataFrame({f"__{k}": frame[c].to_numpy() for k, c in columns.items()})
    for k in keys:
        out[k] = frame[k].to_numpy()
    return out


def tandem_table(
    asv: pd.DataFrame,
    cm: pd.DataFrame,
    /,
    *,
    key: str | Sequence[str] = "trial",
    system: str = "system",
    trial: str = "trial",
    kind: str = "kind",
    label: str = "label",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    subject: str | None = "subject",
) -> pd.DataFrame:
    r"""A tandem table from an ASV table and a CM table: each ASV trial with the CM score
    of the same trial, for every ASV system and CM system.

    Parameters
    ----------
    asv : DataFrame
        The ASV's trials: ``system, trial, kind, score`` with ``kind`` target, nontarget
        or spoof (the vulnerability tables' vocabulary: genuine / zei / attack also), as
        :func:`pandas_biosig.read_asvspoof_asv` reads them.
    cm : DataFrame
        The CM's trials: ``system, label, score`` and the key columns ``key``, with
        ``label`` bona fide or attack (the PAD vocabulary), as
        :func:`pandas_biosig.read_asvspoof_cm` reads them.
    key : str or list of str, default "trial"
        The key that pairs an ASV trial with its CM score, in both tables; ``split`` is
        added when both tables have a split column. ``"trial"`` pairs the 2019 t-DCF
        files line by line (their readers number the lines); ``"utterance"`` (or
        ``["subject", "utterance"]``) gives every ASV trial the CM score of its test
        utterance, which several trials may share.
    system, trial, kind, label, score : str
        Column names (``system`` and ``score`` in both tables, ``trial`` and ``kind`` in
        the ASV table, ``label`` in the CM table).
    pai, split, subject : str or None
        Optional columns (used when present): the attack, checked to agree where both
        tables name it; the split; the speaker (taken from the ASV table, else the CM
        table).

    Returns
    -------
    DataFrame
        The tandem table: ``asv_system, cm_system, trial`` (the ASV table's), ``kind``
        (``target``, ``nontarget``, ``spoof``), ``asv_score, cm_score``, then
        ``subject, split, pai`` when known and the other key columns of ``key``, one row
        per (ASV system, CM system, ASV trial), in the ASV table's order.

    Raises
    ------
    SchemaError
        Missing columns, unknown kinds or labels, and the pairings refused by name:
        an ambiguous CM key, an ASV trial without a CM score, a CM score without a
        trial, kinds or attacks that disagree (see ``docs/tandem.md``).

    Examples
    --------
    >>> asv = pd.DataFrame({"system": "asv", "trial": [0, 1, 2],
    ...                     "kind": ["target", "nontarget", "spoof"],
    ...                     "score": [3.1, -2.0, 1.5]})
    >>> cm = pd.DataFrame({"system": "cm", "trial": [0, 1, 2],
    ...                    "label": ["bona fide", "bona fide", "attack"],
    ...                    "score": [2.2, 1.9, -3.0]})
    >>> pbs.tandem_table(asv, cm)
      asv_system cm_system  trial       kind  asv_score  cm_score
    0        asv        cm      0     target        3.1       2.2
    1        asv        cm      1  nontarget       -2.0       1.9
    2        asv        cm      2      spoof        1.5      -3.0
    """
    for frame in (asv, cm):
        if not isinstance(frame, pd.DataFrame):
            raise TypeError(ERROR_NOT_A_FRAME.format(type=type(frame).__name__))
        check_columns(frame)
    keys = [key] if isinstance(key, str) else list(key)
    check_column_names(key=keys, system=system, trial=trial, kind=kind, label=label,
                       score=score, pai=pai, split=split, subject=subject)
    both = {c for c in (split,) if c is not None and c in asv and c in cm}
    keys = [*keys, *(c for c in both if c not in keys)]
    extra = {k: c for k, c in (("pai", pai), ("subject", subject)) if c is not None}
    a = _side(asv, "ASV", {"system": system, "trial": trial, "kind": kind, "score": score,
                           **{k: c for k, c in extra.items() if c in asv},
                           **({"split": split} if split in asv and split not in keys else {})},
              keys)
    c = _side(cm, "CM", {"system": system, "label": label, "score": score,
                         **{k: v for k, v in extra.items() if v in cm}}, keys)
    a["__kind"] = kind_codes(asv[kind], kind)
    a["__score"] = numeric_scores(asv, score)
    c["__bonafide"] = _bonafide(cm[label], label)
    c["__cm_score"] = numeric_scores(cm, score)
    c = _cm_side(c.drop(columns=["__label", "__score"]), keys, "__system")
    return _assemble(a, c, keys, trial=trial)


def _assemble(a, c, keys, *, trial) -> pd.DataFrame:
    frames = []
    for asv_name, a_rows in a.groupby("__system", sort=False):
        for cm_name, c_rows in c.groupby("__system", sort=False):
            m = _pair(a_rows.drop(columns=["__system"]), c_rows, keys, (asv_name, cm_name))
            out = pd.DataFrame({
                "asv_system": asv_name, "cm_system": cm_name, "trial": m["__trial"].to_numpy(),
                "kind": np.asarray(KIND_NAMES, dtype=object)[m["__kind"].to_numpy()],
                "asv_score": m["__score"].to_numpy(), "cm_score": m["__cm_score"].to_numpy()})
            for name in ("subject", "split", "pai"):
                for col in (f"__{name}", f"__{name}__cm", name):
                    if col in m and name not in out:
                        values = m[col].to_numpy(dtype=object)
                        values[pd.isna(values)] = None
                        out[name] = pd.Series(values, dtype=object)
            for k in keys:
                if k not in out and k != trial:
                    out[k] = m[k].to_numpy()
            frames.append(out)
    return pd.concat(frames, ignore_index=True)
