"""The PAD trial table shared by the PAD and vulnerability modules (internal): label vocabulary,
validation into per-system groups, threshold choice, binomial and clustered intervals.

Every threshold comes from one function, :func:`_choose_thresholds`, which reads the
sorted-score engine (:class:`pandas_biosig._kernels.pad.PadSweep`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from .._core.schema import SchemaError, check_option, validate_trials
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

#: Threshold criteria of the PAD functions.
PAD_CRITERIA = {
    "eer": "bob.measure's EER threshold, all attacks pooled against bona fide",
    "apcer": "lowest threshold with every species' APCER <= target (BPCER at APCER <= target)",
    "bpcer": "highest threshold with BPCER <= target (APCER at BPCER <= target)",
}

#: Where the threshold is chosen when ``on="auto"``.
AUTO_SPLIT = "dev"

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
ERROR_PAD_TARGET = "threshold={criterion!r} needs target= (a rate in [0, 1]), got {target!r}"
ERROR_PAD_THRESHOLD = (
    "threshold={value!r} must be a number, a mapping {{system: threshold}} or one of {allowed}"
)
ERROR_PAD_THRESHOLD_MISSING = "no threshold given for system {system!r} (given for {given})"
ERROR_PAD_ON = (
    "{where} has no presentations in split {on!r}, so no threshold can be chosen there"
)
ERROR_PAD_ON_FIXED = "on={on!r} chooses a threshold by a criterion; threshold={value!r} is fixed"
ERROR_PAD_SUBJECT = (
    "ci_method={method!r} needs subjects; column {column!r} is not in the table "
    "(its columns: {found})"
)

PAD_METRICS_COLUMNS = [
    "system",
    "split",
    "criterion",
    "threshold_split",
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
]
PAD_RATES_COLUMNS = [
    "system",
    "split",
    "criterion",
    "threshold_split",
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
    groups: list[PadGroup]
    species: list
    by: tuple[str, ...]
    split_column: str | None
    orientation: str
    found: list

    @property
    def key_names(self) -> list[str]:
        return [*self.by, "system", "split"]

    def where(self, g: PadGroup) -> str:
        parts = [f"{b}={v!r}" for b, v in zip(self.by, g.key, strict=False)]
        parts.append(f"system {g.system!r}")
        if self.split_column is not None:
            parts.append(f"split {g.split!r}")
        return ", ".join(parts)


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
        missing = (~bonafide) & species_values.isna().to_numpy()
        if pai_col is not None:
            as_text = species_values.astype(str).str.strip()
            missing |= (~bonafide) & (as_text == "").to_numpy()
        if missing.any():
            bad = np.flatnonzero(missing)
            raise SchemaError(
                ERROR_NO_SPECIES.format(
                    column=pai_col, n=bad.size, rows=data.iloc[bad[:5]].to_string()
                )
            )
    if bonafide.all():
        raise SchemaError(ERROR_NO_ATTACKS.format(where="the table"))
    codes, species = pd.factorize(species_values.where(~pd.Series(bonafide), None))
    # a derived table with boolean labels: validated by the one trial validator
    frame = pd.DataFrame(
        {c: data[c].to_numpy() for c in dict.fromkeys(data.columns) if c != label}
    )
    frame[label] = bonafide
    trials = validate_trials(
        frame, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    groups = []
    for g in trials.groups:
        rows = np.arange(len(frame)) if g.rows is None else g.rows
        groups.append(
            PadGroup(g.key, g.scores, g.genuine, codes[rows], g.trial, g.subject)
        )
    table = PadTable(
        groups, [(s.item() if isinstance(s, np.generic) else s) for s in species],
        trials.by, trials.split_column, trials.orientation, list(data.columns),
    )
    for pg in groups:
        if pg.bonafide.all():
            raise SchemaError(ERROR_NO_ATTACKS.format(where=table.where(pg)))
    return table


# ----------------------------------------------------------------------------- thresholds
def _resolve_on(table: PadTable, on):
    """``"auto"``: the ``dev`` split when the table has one (thresholds a priori), else
    each split's own trials."""
    if on != "auto":
        return on
    if table.split_column is not None and any(g.split == AUTO_SPLIT for g in table.groups):
        return AUTO_SPLIT
    return None


def _check_target(criterion, target):
    if criterion == "eer":
        return float("nan")
    if (
        target is None
        or isinstance(target, bool)
        or not isinstance(target, int | float | np.integer | np.floating)
        or not 0 <= target <= 1
    ):
        raise ValueError(ERROR_PAD_TARGET.format(criterion=criterion, target=target))
    return float(target)


def _choose_thresholds(table: PadTable, *, threshold, target, on) -> list[tuple]:
    """The one place PAD thresholds are chosen.

    Returns, per group in table order, ``(criterion, threshold_split, target, oriented
    threshold)``. A criterion is applied on split ``on`` (``None``: each group's own
    presentations) and the threshold carried to every split of the same system.
    """
    sign = -1.0 if table.orientation == "distance" else 1.0
    if isinstance(threshold, str):
        check_option(threshold, PAD_CRITERIA, "threshold")
        tgt = _check_target(threshold, target)
        on = _resolve_on(table, on)
        if on is None:
            return [
                (threshold, g.split, tgt, g.sweep().threshold(threshold, tgt))
                for g in table.groups
            ]
        source = {g.key[:-1]: g for g in table.groups if g.split == on}
        out, cache = [], {}
        for g in table.groups:
            src = source.get(g.key[:-1])
            if src is None:
                raise SchemaError(ERROR_PAD_ON.format(where=table.where(g), on=on))
            if g.key[:-1] not in cache:
                cache[g.key[:-1]] = src.sweep().threshold(threshold, tgt)
            out.append((threshold, on, tgt, cache[g.key[:-1]]))
        return out
    if on not in (None, "auto"):
        raise ValueError(ERROR_PAD_ON_FIXED.format(on=on, value=threshold))
    nan = float("nan")
    if isinstance(threshold, Mapping | pd.Series):
        given = dict(threshold)
        out = []
        for g in table.groups:
            if g.system not in given:
                raise SchemaError(
                    ERROR_PAD_THRESHOLD_MISSING.format(system=g.system, given=list(given))
                )
            out.append(("fixed", None, nan, sign * float(given[g.system])))
        return out
    if isinstance(threshold, int | float | np.integer | np.floating) and not isinstance(threshold, bool):
        return [("fixed", None, nan, sign * float(threshold)) for _ in table.groups]
    raise ValueError(ERROR_PAD_THRESHOLD.format(value=threshold, allowed=list(PAD_CRITERIA)))


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


def _cluster_bootstrap(g: PadGroup, t: float, k: int, n_resamples: int, level: float, rng):
    """Percentile intervals of every stratum's rate when subjects are resampled."""
    assert g.subject is not None  # the cluster methods need the subject column (checked)
    codes, uniques = pd.factorize(g.subject)
    strata = g.strata(k)
    err = g.errors_at(t).astype(np.float64)
    n_c = len(uniques)
    cell = codes * (k + 1) + strata
    E = np.bincount(cell, weights=err, minlength=n_c * (k + 1)).reshape(n_c, k + 1)
    N = np.bincount(cell, minlength=n_c * (k + 1)).reshape(n_c, k + 1).astype(np.float64)
    W = rng.multinomial(n_c, np.full(n_c, 1.0 / n_c), size=n_resamples).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        reps = (W @ E) / (W @ N)
    out = []
    for s in range(k + 1):
        col = reps[:, s]
        col = col[np.isfinite(col)]
        out.append(percentile_interval(col, level) if col.size else (np.nan, np.nan))
    return out


def _cluster_wilson(g: PadGroup, t: float, k: int, level: float):
    """Wilson intervals on the effective sample size n / deff of every stratum, the design
    effect estimated from the subjects (Korn & Graubard, 1998)."""
    from scipy.stats import norm

    assert g.subject is not None  # the cluster methods need the subject column (checked)
    codes, uniques = pd.factorize(g.subject)
    strata = g.strata(k)
    err = g.errors_at(t).astype(np.float64)
    n_c = len(uniques)
    cell = codes * (k + 1) + strata
    E = np.bincount(cell, weights=err, minlength=n_c * (k + 1)).reshape(n_c, k + 1)
    N = np.bincount(cell, minlength=n_c * (k + 1)).reshape(n_c, k + 1)
    z = float(norm.ppf((1 + level) / 2))
    out = []
    for s in range(k + 1):
        n = N[:, s].sum()
        if n == 0:
            out.append((np.nan, np.nan))
            continue
        e = E[:, s].sum()
        deff = design_effect(E[:, s], N[:, s])
        low, high = wilson_interval(e / n, n / deff, z)
        out.append((0.0 if e == 0 else low, 1.0 if e == n else high))
    return out
