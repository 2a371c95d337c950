"""The PAD trial table shared by the PAD and vulnerability modules (internal): label vocabulary,
validation into per-system groups, binomial and clustered intervals.

Thresholds and splits are the evaluation protocol's (:mod:`pandas_biosig._core.protocol`):
:func:`resolve_pad` hands it the table and each group's sorted-score engine
(:class:`pandas_biosig._kernels.pad.PadSweep`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.criteria import CRITERIA, KIND_CRITERIA
from .._core.protocol import Protocol, Resolved, group_where
from .._core.schema import SchemaError, Trials, check_subjects, validate_trials
from .._core.trial_groups import LazyGroups
from .._kernels.cluster import design_effect, wilson_interval
from .._kernels.pad import PadSweep, weighted_rates
from .._kernels.resample import percentile_interval

#: PAD label vocabulary (case-insensitive, white space ignored): value -> is bona fide.
PAD_LABEL_VOCABULARY: dict[str, bool] = {
    "bona fide": True,
    "bonafide": True,
    "bona_fide": True,
    "bona-fide": True,
    "genuine": True,
    "real": True,
    "live": True,
    "attack": False,
    "spoof": False,
    "fake": False,
    "presentation attack": False,
    "pa": False,
    "true": True,
    "false": False,
    "1": True,
    "0": False,
}

#: Threshold criteria of the PAD functions (the protocol's, :data:`pandas_biosig._core.criteria.CRITERIA`).
PAD_CRITERIA = {name: CRITERIA[name] for name in KIND_CRITERIA["pad"]}

PadCriterion = Literal["eer", "apcer", "bpcer"]
CIMethod = Literal["auto", "wilson", "beta", "cluster", "bootstrap"]
#: Interval methods of :func:`pad_rates` and :func:`pandas_biosig.iapmr`.
CI_METHODS = ("auto", "wilson", "beta", "cluster", "bootstrap")

ERROR_PAD_LABELS = (
    "column {column!r} holds label value(s) {values} outside the PAD vocabulary; "
    "bona fide: {bonafide}; attack: {attack}"
)
ERROR_NO_SPECIES = (
    "column {column!r} has {n} attack presentation(s) without an attack species. "
    "Example rows:\n{rows}"
)
ERROR_NO_ATTACKS = "{where} has no attack presentations; PAD rates need bona fide and attacks"

PAD_METRICS_COLUMNS = [
    "system",
    "split",
    "criterion",
    "threshold_split",
    "threshold_from",
    "target",
    "threshold",
    "n_bonafide",
    "n_attack",
    "n_species",
    "apcer_max",
    "apcer_max_species",
    "apcer_pooled",
    "bpcer",
    "acer",
    "eer",
    "resample",
]
PAD_RATES_COLUMNS = [
    "system",
    "split",
    "criterion",
    "threshold_split",
    "threshold_from",
    "target",
    "threshold",
    "metric",
    "pai",
    "n",
    "errors",
    "rate",
    "confidence_level",
    "ci_method",
    "ci_low",
    "ci_high",
    "resample",
    "fallback_reason",
]




# ----------------------------------------------------------------------------- the table
@dataclass(frozen=True, eq=False)
class PadGroup:
    """The presentations of one system (within one ``by`` group and split), validated.

    ``scores`` are oriented (higher = more bona fide); ``species`` holds an index into the
    table's species list for attacks and -1 for bona fide presentations.
    """

    key: tuple
    scores: np.ndarray
    bonafide: np.ndarray
    species: np.ndarray
    trial: np.ndarray
    subject: np.ndarray | None
    rows: np.ndarray | None = None  # positions in the input table (for messages)

    @property
    def system(self) -> Hashable:
        return self.key[-2]

    @property
    def split(self) -> Hashable:
        return self.key[-1]

    def present(self) -> np.ndarray:
        """Indices of the species that have attacks in this group."""
        return np.unique(self.species[~self.bonafide])

    def sweep(self) -> PadSweep:
        s = self.scores
        return PadSweep(
            s[self.bonafide], [s[self.species == k] for k in self.present()]
        )

    def errors_at(self, threshold: float) -> np.ndarray:
        """Per presentation: is it misclassified at ``threshold``."""
        accepted = self.scores >= threshold
        return np.where(self.bonafide, ~accepted, accepted)

    def strata(self, n_species: int) -> np.ndarray:
        """Stratum code per presentation: its species, bona fide last (= n_species)."""
        return np.where(self.bonafide, n_species, self.species)


@dataclass(frozen=True, eq=False)
class PadTable:
    """A validated PAD table: its groups (built on first use), the species in order of
    their first attack, and the validated trials (``trials``, the table's columns named
    in ``columns["found"]``) with the species code of each of their presentations in
    group order (``codes``, -1 for bona fide)."""

    groups: Sequence[PadGroup]
    species: list
    by: tuple[str, ...]
    split_column: str | None
    orientation: str
    found: list
    subject_column: str | None = "subject"
    trials: Trials | None = None
    codes: np.ndarray | None = None

    @property
    def has_subject(self) -> bool:
        """Whether the presentations carry subject ids."""
        if self.trials is not None and self.trials.layout is not None:
            return self.trials.layout.subject is not None
        return bool(self.groups) and self.groups[0].subject is not None

    @property
    def key_names(self) -> list[str]:
        return [*self.by, "system", "split"]

    @property
    def columns(self) -> dict:
        return {"found": self.found}

    def where(self, g: PadGroup) -> str:
        return group_where(self, g)


def _is_bonafide(series: pd.Series, column: str) -> np.ndarray:
    dtype = series.dtype
    if isinstance(dtype, np.dtype) and dtype.kind == "b":
        return series.to_numpy()
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    mapped: list[bool | None] = []
    for u in uniques:
        if isinstance(u, bool | np.bool_):
            mapped.append(bool(u))
        elif isinstance(u, int | np.integer | float | np.floating) and u in (0, 1):
            mapped.append(bool(u))
        elif isinstance(u, str):
            mapped.append(PAD_LABEL_VOCABULARY.get(u.strip().lower()))
        else:
            mapped.append(None)
    bad = [u for u, m in zip(uniques, mapped, strict=True) if m is None]
    if bad or (codes < 0).any():
        shown = [*bad[:10], *(["<missing>"] if (codes < 0).any() else [])]
        raise SchemaError(
            ERROR_PAD_LABELS.format(
                column=column,
                values=shown,
                bonafide=sorted(k for k, v in PAD_LABEL_VOCABULARY.items() if v),
                attack=sorted(k for k, v in PAD_LABEL_VOCABULARY.items() if not v),
            )
        )
    return np.asarray(mapped, dtype=bool)[codes]


def validate_pad(
    data: pd.DataFrame,
    *,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    subject: str | None = "subject",
    by: str | Sequence[str] | None = None,
    orientation: str = "similarity",
    nonfinite: str = "raise",
) -> PadTable:
    """Validate a PAD table and split it into per-system groups (the input is not changed).

    Without a ``pai`` column (and ``pai`` left at its default) every attack belongs to one
    species named ``"attack"``.
    """
    if not isinstance(data, pd.DataFrame):
        from .._core.schema import ERROR_NOT_A_FRAME

        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(data).__name__))
    if label not in data.columns:
        from .._core.schema import ERROR_MISSING_COLUMNS

        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=[label], found=list(data.columns)))
    pai_col = pai if pai is not None and (pai in data.columns or pai != "pai") else None
    if pai_col is not None and pai_col not in data.columns:
        from .._core.schema import ERROR_MISSING_COLUMNS

        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=[pai_col], found=list(data.columns)))
    bonafide = _is_bonafide(data[label], label)
    if pai_col is None:
        species_values = pd.Series(np.where(bonafide, np.array(None), "attack"), dtype=object)
    else:
        species_values = data[pai_col].reset_index(drop=True)
    codes, species, missing = _species_codes(species_values, bonafide)
    if pai_col is not None and missing.any():
        bad = np.flatnonzero(missing)
        raise SchemaError(
            ERROR_NO_SPECIES.format(column=pai_col, n=bad.size, rows=data.iloc[bad[:5]].to_string())
        )
    if bonafide.all():
        raise SchemaError(ERROR_NO_ATTACKS.format(where="the table"))
    # a derived table with boolean labels: validated by the one trial validator
    frame = _derived_frame(data, label, bonafide)
    trials = validate_trials(
        frame, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    lay = trials.layout
    assert lay is not None  # an in-memory table
    table = PadTable(
        LazyGroups(lay, _group_maker(codes)),
        [(s.item() if isinstance(s, np.generic) else s) for s in species],
        trials.by, trials.split_column, trials.orientation, list(data.columns), subject,
        replace(trials, columns={**trials.columns, "found": list(data.columns)}),
        codes if lay.order is None else codes[lay.order],
    )
    no_attacks = np.flatnonzero(lay.class_weights()[1] == 0)
    if no_attacks.size:
        raise SchemaError(ERROR_NO_ATTACKS.format(where=table.where(table.groups[no_attacks[0]])))
    return table


def _group_maker(codes: np.ndarray):
    """The :class:`PadGroup` of a group of the validated trials (for
    :class:`~pandas_biosig._core.trial_groups.LazyGroups`): its rows' species codes."""
    def make(key, scores, genuine, trial, rows, subject, fta, reference=None, count=None):
        rows = np.arange(codes.size) if rows is None else rows
        return PadGroup(key, scores, genuine, codes[rows], trial, subject, rows)

    return make


def _species_codes(species_values: pd.Series,
                   bonafide: np.ndarray) -> tuple[np.ndarray, Any, np.ndarray]:
    """``(codes, species, missing)``: ``pd.factorize`` of the attacks' species (-1 for
    bona fide presentations; the species in order of their first attack), and the attacks
    without a species (missing, or blank as text).

    A column of strings or objects is factorized whole (its missing and blank values read
    off its distinct values) and renumbered: the codes of factorizing the attacks alone.
    """
    attack = ~bonafide
    if not (species_values.dtype == object or species_values.dtype == _default_text_dtype()):
        missing = attack & species_values.isna().to_numpy()
        missing |= attack & (species_values.astype(str).str.strip() == "").to_numpy()
        codes, uniques = pd.factorize(species_values.where(~pd.Series(bonafide), None))
        return np.asarray(codes, dtype=np.int64), uniques, missing
    codes, uniques = pd.factorize(species_values, use_na_sentinel=True)
    n = len(uniques)
    blank = np.fromiter((str(u).strip() == "" for u in uniques), dtype=bool, count=n)
    missing = attack & np.append(blank, True)[codes]  # code -1: missing
    if not (codes[bonafide] >= 0).any():  # no species on a bona fide row: as they are
        return codes.astype(np.int64, copy=False), uniques, missing
    codes = np.where(bonafide, -1, codes)
    first = np.full(n + 1, codes.size, dtype=np.int64)
    np.minimum.at(first, np.where(codes < 0, n, codes), np.arange(codes.size))
    used = np.flatnonzero(first[:n] < codes.size)
    used = used[np.argsort(first[used], kind="stable")]
    if used.size == n and (used == np.arange(n)).all():  # already in order of first attack
        return codes.astype(np.int64), uniques, missing
    renumber = np.full(n + 1, -1, dtype=np.int64)
    renumber[used] = np.arange(used.size)
    return renumber[codes], uniques.take(used), missing


def _derived_frame(data: pd.DataFrame, label: str, bonafide: np.ndarray) -> pd.DataFrame:
    """The table's columns as numpy arrays (the label last, as booleans): each column as
    ``to_numpy()`` gives it and the frame infers it, without the round trip where it
    changes nothing (numeric and default string columns, categories of strings)."""
    frame = pd.DataFrame({c: _as_built(data[c]) for c in dict.fromkeys(data.columns)
                          if c != label})
    frame[label] = bonafide
    return frame


def _as_built(column):
    """``column.to_numpy()`` as a new frame holds it."""
    if not isinstance(column, pd.Series):  # repeated column names: as before
        return column.to_numpy()
    dtype = column.dtype
    text = _default_text_dtype()
    if isinstance(dtype, np.dtype) and dtype.kind != "O":
        return column.to_numpy()
    if dtype == text:
        return column.array
    if isinstance(dtype, pd.CategoricalDtype) and dtype.categories.dtype == text:
        return dtype.categories.array.take(column.cat.codes.to_numpy(), allow_fill=True)
    return column.to_numpy()


@cache
def _default_text_dtype():
    """The dtype a frame gives an object array of strings."""
    return pd.DataFrame({"x": np.array(["x"], dtype=object)})["x"].dtype


# ----------------------------------------------------------------------------- protocol
def resolve_pad(table, *, threshold, target, on, apply_to, kind: str = "pad",
                sweep_of=None, resample: str | None = None) -> list[Resolved]:
    """The protocol resolved on a PAD (or vulnerability) table: one
    :class:`~pandas_biosig._core.protocol.Resolved` per reported group, its threshold chosen
    on the group's sweep (``sweep_of``; default the PAD sweep of every species)."""
    return Protocol(threshold=threshold, target=target, on=on, apply_to=apply_to,
                    kind=kind).resolve(table, sweep_of=sweep_of or (lambda g: g.sweep()),
                                       resample=resample)


def subject_codes(table, g, option: str) -> tuple[np.ndarray, int]:
    """The subject codes of a group for ``option`` (an interval or test over subjects): the
    one subject rule (a subject column, no missing id, at least two subjects)."""
    return check_subjects(g.subject, table.where(g), rows=g.rows,
                          column=table.subject_column, found=table.found, option=option)


def _frame(table: PadTable, keys: list[tuple], rows: list[dict], columns: list[str]):
    head = pd.DataFrame(keys, columns=table.key_names)
    body = pd.DataFrame(rows, columns=[c for c in columns if c not in ("system", "split")])
    out = pd.concat([head.reset_index(drop=True), body.reset_index(drop=True)], axis=1)
    return out[[*table.by, *columns]]


def _rates(g: PadGroup, n_species: int, t: float):
    """Errors and totals per stratum (species..., bona fide) at threshold ``t``."""
    if np.isnan(t):
        full = np.full(n_species + 1, np.nan)
        return full, weighted_rates(np.zeros(0), np.zeros(0, dtype=np.int64), n_species + 1)[1]
    return weighted_rates(g.errors_at(t), g.strata(n_species), n_species + 1)




def _binomial_interval(errors: int, n: int, level: float, method: str) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(errors, n, alpha=1 - level, method=method)
    return (0.0 if errors == 0 else float(low)), (1.0 if errors == n else float(high))


#: ``fallback_reason`` of a subject-bootstrap interval whose replicates cannot vary.
FALLBACK_CONSTANT = (
    "{what}: every subject bootstrap replicate gives the same rate, so its percentile "
    "interval would have width 0; Wilson interval on the {n} subjects that hold these "
    "presentations (each subject counted once)"
)


def _cell_counts(g: PadGroup, codes: np.ndarray, n_c: int, t: float, k: int):
    """Errors and presentations per (subject, stratum) at threshold ``t``."""
    cell = codes * (k + 1) + g.strata(k)
    err = g.errors_at(t).astype(np.float64)
    E = np.bincount(cell, weights=err, minlength=n_c * (k + 1)).reshape(n_c, k + 1)
    N = np.bincount(cell, minlength=n_c * (k + 1)).reshape(n_c, k + 1).astype(np.float64)
    return E, N


def _cluster_bootstrap(g: PadGroup, codes: np.ndarray, n_c: int, t: float, k: int,
                       n_resamples: int, level: float, rng) -> list[tuple]:
    """``(low, high, fallback_reason)`` of every stratum's rate when subjects are
    resampled: the percentile interval, or, when the rate is 0 or 1 (every replicate
    then equal), Wilson's on the number of subjects holding the stratum
    (:data:`FALLBACK_CONSTANT`)."""
    E, N = _cell_counts(g, codes, n_c, t, k)
    W = rng.multinomial(n_c, np.full(n_c, 1.0 / n_c), size=n_resamples).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        reps = (W @ E) / (W @ N)
    out: list[tuple[float, float, str | None]] = []
    for s in range(k + 1):
        e, n = E[:, s].sum(), N[:, s].sum()
        col = reps[:, s]
        col = col[np.isfinite(col)]
        if n == 0 or not col.size:
            out.append((np.nan, np.nan, None))
        elif e in (0, n):
            held = int(np.count_nonzero(N[:, s]))
            low, high = _binomial_interval(held if e else 0, held, level, "wilson")
            what = "no errors" if e == 0 else "every presentation an error"
            out.append((low, high, FALLBACK_CONSTANT.format(what=what, n=held)))
        else:
            low, high = percentile_interval(col, level)
            out.append((float(low), float(high), None))
    return out


def _cluster_wilson(g: PadGroup, codes: np.ndarray, n_c: int, t: float, k: int, level: float):
    """``(low, high, None)``: Wilson intervals on the effective sample size n / deff of
    every stratum, the design effect estimated from the subjects (Korn & Graubard, 1998)."""
    from scipy.stats import norm

    E, N = _cell_counts(g, codes, n_c, t, k)
    z = float(norm.ppf((1 + level) / 2))
    out = []
    for s in range(k + 1):
        n = N[:, s].sum()
        if n == 0:
            out.append((np.nan, np.nan, None))
            continue
        e = E[:, s].sum()
        deff = design_effect(E[:, s], N[:, s])
        low, high = wilson_interval(e / n, n / deff, z)
        out.append((0.0 if e == 0 else low, 1.0 if e == n else high, None))
    return out


def rate_intervals(table, g: PadGroup, t: float, k: int, method: str, *, n_resamples: int,
                   level: float, rng) -> list[tuple] | None:
    """The subject-clustered intervals of every stratum (``"cluster"`` or
    ``"bootstrap"``), the subjects checked by the one subject rule; None for the binomial
    methods (or no threshold)."""
    if method not in ("bootstrap", "cluster") or np.isnan(t):
        return None
    codes, n_c = subject_codes(table, g, f"ci_method={method!r}")
    if method == "bootstrap":
        return _cluster_bootstrap(g, codes, n_c, t, k, n_resamples, level, rng)
    return _cluster_wilson(g, codes, n_c, t, k, level)
