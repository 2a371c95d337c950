"""Presentation-attack detection (ISO/IEC 30107-3): APCER per attack species, BPCER.

A PAD table is a tidy table of presentations: ``system, trial, label, score`` where the
label says *bona fide* or *attack* (vocabulary in :data:`PAD_LABEL_VOCABULARY`), plus the
attack species (PAI species) of every attack in column ``pai``, and optionally ``split``
and ``subject``. Bona fide is the positive class: a presentation is accepted as bona fide
iff ``score >= threshold``.

- APCER of a species = accepted attacks of that species / its attacks; the standard's
  headline is the **maximum over species** (``apcer_max``), not the pooled rate.
- BPCER = rejected bona fide presentations / bona fide presentations.
- ACER = (APCER_max + BPCER) / 2 is reported because it is common, but it is *not* part of
  ISO/IEC 30107-3 (the standard deprecates it).

Every threshold comes from one function, :func:`_choose_thresholds`, which reads the
sorted-score engine (:class:`pandas_biosig._kernels.pad.PadSweep`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
import xarray as xr

from ._kernels.pad import PadSweep, design_effect, weighted_rates, wilson_interval
from ._kernels.resample import percentile_interval
from ._schema import SchemaError, check_option, validate_trials
from ._typing import NonFinite, Orientation
from ._validation import check_confidence_level

__all__ = [
    "PAD_COMPARE_COLUMNS",
    "PAD_COMPARE_METRICS",
    "PAD_CRITERIA",
    "PAD_LABEL_VOCABULARY",
    "PAD_METRICS_COLUMNS",
    "PAD_RATES_COLUMNS",
    "pad_compare",
    "pad_det",
    "pad_metrics",
    "pad_rates",
]

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
ERROR_N_RESAMPLES = "n_resamples must be a positive integer, got {value!r}"

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
    mapped = []
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
        from ._schema import ERROR_NOT_A_FRAME

        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(data).__name__))
    if label not in data.columns:
        from ._schema import ERROR_MISSING_COLUMNS

        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=[label], found=list(data.columns)))
    pai_col = pai if pai is not None and (pai in data.columns or pai != "pai") else None
    if pai_col is not None and pai_col not in data.columns:
        from ._schema import ERROR_MISSING_COLUMNS

        raise SchemaError(ERROR_MISSING_COLUMNS.format(missing=[pai_col], found=list(data.columns)))
    bonafide = _is_bonafide(data[label], label)
    if pai_col is None:
        species_values = pd.Series(np.where(bonafide, None, "attack"), dtype=object)
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
    for g in groups:
        if g.bonafide.all():
            raise SchemaError(ERROR_NO_ATTACKS.format(where=table.where(g)))
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


# ----------------------------------------------------------------------------- public API
def pad_metrics(
    data: pd.DataFrame,
    /,
    *,
    threshold: PadCriterion | float | Mapping[Hashable, float] = "eer",
    target: float | None = None,
    on: Hashable | None = "auto",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""ISO/IEC 30107-3 error rates of every PAD system at a threshold policy.

    Parameters
    ----------
    data : DataFrame
        PAD table: one row per (system, presentation) with columns ``system, trial,
        label, score`` and the attack species in ``pai``. Labels: bona fide (``bona fide``,
        ``bonafide``, ``bona_fide``, ``genuine``, ``real``, ``live``, 1, True) or attack
        (``attack``, ``spoof``, ``fake``, 0, False), case-insensitive.
    threshold : {"eer", "apcer", "bpcer"}, number or mapping, default "eer"
        ``"eer"``: bob.measure's EER threshold of all attacks pooled against bona fide;
        ``"apcer"``: the lowest threshold at which *every* species' APCER is at most
        ``target`` — its BPCER is "BPCER at APCER ≤ target" (BPCER20 for 0.05, BPCER100
        for 0.01); ``"bpcer"``: the highest threshold with BPCER ≤ ``target`` — APCER at
        BPCER ≤ target. A number (or ``{system: number}``) is a fixed threshold in score
        units.
    target : float, optional
        The rate bound of ``"apcer"`` and ``"bpcer"``.
    on : split value, None or "auto", default "auto"
        Split whose presentations choose the threshold, which is then applied to every
        split of the same system (a priori). ``"auto"``: ``"dev"`` when the table has a
        dev split, else each split's own presentations (a posteriori, said in
        ``threshold_split``).
    by : str or list of str, optional
        Extra grouping columns.
    system, trial, label, score, pai, split : str
        Column names. ``pai`` holds the attack species; without that column all attacks
        form one species ``"attack"``.
    orientation : {"similarity", "distance"}
        ``"distance"``: lower scores are more bona fide.
    nonfinite : {"raise", "drop", "reject"}
        NaN/inf scores: raise, drop, or count as always rejected.

    Returns
    -------
    DataFrame
        One row per system (and ``by`` group and split):

        - ``system``, ``split``;
        - ``criterion``, ``threshold_split`` (where the threshold was chosen),
          ``target`` (NaN for ``"eer"`` and fixed thresholds), ``threshold`` (score units);
        - ``n_bonafide``, ``n_attack``, ``n_species``;
        - ``apcer_max``: the largest APCER over species (ISO/IEC 30107-3's APCER);
          ``apcer_max_species``: the species that attains it (the first one on ties);
        - ``apcer_pooled``: accepted attacks / attacks, all species pooled (not the
          standard's figure);
        - ``bpcer``;
        - ``acer``: (apcer_max + bpcer)/2, **not** part of ISO/IEC 30107-3;
        - ``eer``: bob.measure's threshold EER of this split, attacks pooled.

    Raises
    ------
    SchemaError
        Missing columns, labels outside the PAD vocabulary, attacks without a species, a
        system without attacks or bona fide presentations, a split ``on`` missing.
    ValueError
        Unknown criterion, a bound ``target`` missing or outside [0, 1].

    See Also
    --------
    pad_rates : per-species rates with binomial or subject-bootstrap intervals.
    pad_det : DET curves per species.

    Notes
    -----
    .. math::

        APCER_s(\theta) = \frac{|\{a \in A_s : score(a) \ge \theta\}|}{|A_s|},\quad
        APCER = \max_s APCER_s,\quad
        BPCER(\theta) = \frac{|\{b \in B : score(b) < \theta\}|}{|B|}.

    BPCER at APCER ≤ x is read at :math:`\min\{\theta : APCER_s(\theta) \le x\ \forall s\}`,
    the ROC's own value; bob.pad.base places the threshold at an attack score instead
    (``far_threshold``), which can give a higher BPCER (docs/methods.md).

    References
    ----------
    ISO/IEC 30107-3:2017. Information technology — Biometric presentation attack
    detection — Part 3: Testing and reporting.

    Examples
    --------
    >>> pad = pbs.datasets.example_pad()
    >>> m = pbs.pad_metrics(pad)
    >>> m[["system", "split", "threshold_split", "apcer_max", "apcer_max_species", "bpcer"]]
       system split threshold_split  apcer_max apcer_max_species   bpcer
    0  resnet   dev             dev      0.085            replay  0.0675
    1  resnet  eval             dev      0.220            replay  0.0775
    2     cnn   dev             dev      0.195              mask  0.1075
    3     cnn  eval             dev      0.330              mask  0.0925

    BPCER20, the threshold chosen on dev so that every species' APCER stays within 5 %:

    >>> pbs.pad_metrics(pad, threshold="apcer", target=0.05).bpcer.round(4).tolist()
    [0.105, 0.1025, 0.2875, 0.2425]
    """
    table = validate_pad(
        data, system=system, trial=trial, label=label, score=score, pai=pai, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    chosen = _choose_thresholds(table, threshold=threshold, target=target, on=on)
    sign = -1.0 if table.orientation == "distance" else 1.0
    k = len(table.species)
    rows, keys = [], []
    for g, (crit, tsplit, tgt, t) in zip(table.groups, chosen, strict=True):
        errs, totals = _rates(g, k, t)
        present = totals[:k] > 0
        with np.errstate(invalid="ignore", divide="ignore"):
            apcers = np.where(present, errs[:k] / np.where(present, totals[:k], 1), np.nan)
        if np.isnan(t):
            amax, which, pooled, bpcer = (np.nan, None, np.nan, np.nan)
        else:
            i = int(np.nanargmax(apcers))
            amax, which = float(apcers[i]), table.species[i]
            pooled = float(errs[:k].sum() / totals[:k].sum())
            bpcer = float(errs[k] / totals[k])
        keys.append(g.key)
        rows.append(
            dict(
                criterion=crit,
                threshold_split=tsplit,
                target=tgt,
                threshold=sign * t,
                n_bonafide=int(g.bonafide.sum()),
                n_attack=int((~g.bonafide).sum()),
                n_species=int(present.sum()),
                apcer_max=amax,
                apcer_max_species=which,
                apcer_pooled=pooled,
                bpcer=bpcer,
                acer=(amax + bpcer) / 2,
                eer=g.sweep().eer(),
            )
        )
    return _frame(table, keys, rows, PAD_METRICS_COLUMNS)


def _check_level(confidence_level) -> float:
    return check_confidence_level(confidence_level)


def _binomial_interval(errors: int, n: int, level: float, method: str) -> tuple[float, float]:
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(errors, n, alpha=1 - level, method=method)
    return (0.0 if errors == 0 else float(low)), (1.0 if errors == n else float(high))


def _cluster_bootstrap(g: PadGroup, t: float, k: int, n_resamples: int, level: float, rng):
    """Percentile intervals of every stratum's rate when subjects are resampled."""
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


def pad_rates(
    data: pd.DataFrame,
    /,
    *,
    threshold: PadCriterion | float | Mapping[Hashable, float] = "eer",
    target: float | None = None,
    on: Hashable | None = "auto",
    confidence_level: float = 0.95,
    ci_method: CIMethod = "auto",
    n_resamples: int = 2000,
    seed: int | np.random.Generator | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""APCER of every attack species and BPCER, with confidence intervals.

    Parameters
    ----------
    data, threshold, target, on, by, system, trial, label, score, pai, split, orientation, nonfinite
        As in :func:`pad_metrics`.
    confidence_level : float, default 0.95
    ci_method : {"auto", "wilson", "beta", "cluster", "bootstrap"}, default "auto"
        ``"wilson"``: Wilson score interval; ``"beta"``: Clopper–Pearson; both treat
        presentations as independent. ``"cluster"``: Wilson interval on the effective
        sample size n / deff, the design effect deff ≥ 1 estimated from the subjects
        (column ``subject``; Korn & Graubard, 1998). ``"bootstrap"``: percentile interval
        from resampling subjects with replacement, the threshold held fixed. ``"auto"``:
        ``"cluster"`` when the table has a subject column (presentations of one subject
        are not independent, and binomial intervals are then too narrow), else
        ``"wilson"``.
    n_resamples : int, default 2000
        Bootstrap replicates.
    seed : int or Generator, optional
        Random seed of the bootstrap.
    subject : str
        Column of subject ids (used by the bootstrap).

    Returns
    -------
    DataFrame
        One row per system (and ``by`` group and split) and rate: first the APCER of each
        species in the table's order, then the BPCER. Columns ``system, split, criterion,
        threshold_split, target, threshold`` (as :func:`pad_metrics`), ``metric``
        (``"apcer"`` or ``"bpcer"``), ``pai`` (the species; None on the BPCER row),
        ``n`` (presentations), ``errors`` (accepted attacks or rejected bona fide),
        ``rate``, ``confidence_level``, ``ci_method``, ``ci_low``, ``ci_high``. A species
        without attacks in a group has ``n`` 0 and NaN rate.

    Raises
    ------
    SchemaError, ValueError
        As :func:`pad_metrics`; also a bad ``confidence_level``, ``ci_method`` or
        ``n_resamples``, and ``ci_method="bootstrap"`` without a subject column.

    Notes
    -----
    Measured coverage of 95 % intervals (``docs/validity.md``, 50 subjects, 200 attacks per
    species): with independent presentations Wilson, Clopper–Pearson and ``"cluster"``
    cover 95–98 %; with a subject effect Wilson falls to 69–92 % and Clopper–Pearson to
    70–93 %, while ``"cluster"`` holds 93–95 % for the APCERs (90–91 % for the BPCER, whose
    presentations are more clustered); the subject bootstrap covers 88–94 %.

    References
    ----------
    Korn, E. L., & Graubard, B. I. (1998). Confidence intervals for proportions with small
    expected number of positive counts estimated from survey data. *Survey Methodology,
    24*, 193–201.

    Examples
    --------
    >>> pad = pbs.datasets.example_pad()
    >>> r = pbs.pad_rates(pad.query("system == 'cnn'"), ci_method="wilson")
    >>> r[r.split == "eval"][["pai", "n", "errors", "rate", "ci_low", "ci_high"]].round(4)
          pai    n  errors    rate  ci_low  ci_high
    4   print  200      13  0.0650  0.0384   0.1080
    5  replay  200      35  0.1750  0.1286   0.2336
    6    mask  200      66  0.3300  0.2686   0.3978
    7     NaN  400      37  0.0925  0.0679   0.1249

    Compare with statsmodels:

    >>> from statsmodels.stats.proportion import proportion_confint
    >>> [round(x, 4) for x in proportion_confint(13, 200, method="wilson")]
    [0.0384, 0.108]
    """
    level = _check_level(confidence_level)
    check_option(ci_method, CI_METHODS, "ci_method")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int | np.integer) or n_resamples < 1:
        raise ValueError(ERROR_N_RESAMPLES.format(value=n_resamples))
    table = validate_pad(
        data, system=system, trial=trial, label=label, score=score, pai=pai, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    has_subject = bool(table.groups) and table.groups[0].subject is not None
    method = ci_method
    if method == "auto":
        method = "cluster" if has_subject else "wilson"
    if method in ("bootstrap", "cluster") and not has_subject:
        raise SchemaError(ERROR_PAD_SUBJECT.format(method=method, column=subject, found=table.found))
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    chosen = _choose_thresholds(table, threshold=threshold, target=target, on=on)
    sign = -1.0 if table.orientation == "distance" else 1.0
    k = len(table.species)
    rows, keys = [], []
    for g, (crit, tsplit, tgt, t) in zip(table.groups, chosen, strict=True):
        errs, totals = _rates(g, k, t)
        boot = None
        if method == "bootstrap" and not np.isnan(t):
            boot = _cluster_bootstrap(g, t, k, n_resamples, level, rng)
        elif method == "cluster" and not np.isnan(t):
            boot = _cluster_wilson(g, t, k, level)
        for s in range(k + 1):
            n = int(totals[s])
            e = errs[s]
            if n == 0 or np.isnan(t):
                rate, low, high, e_out = np.nan, np.nan, np.nan, (0 if n == 0 else np.nan)
            else:
                e_out = int(e)
                rate = e_out / n
                if boot is None:
                    low, high = _binomial_interval(e_out, n, level, method)
                else:
                    low, high = (float(x) for x in boot[s])
            keys.append(g.key)
            rows.append(
                dict(
                    criterion=crit, threshold_split=tsplit, target=tgt, threshold=sign * t,
                    metric="apcer" if s < k else "bpcer",
                    pai=table.species[s] if s < k else None,
                    n=n, errors=e_out, rate=rate, confidence_level=level,
                    ci_method=method, ci_low=low, ci_high=high,
                )
            )
    return _frame(table, keys, rows, PAD_RATES_COLUMNS)


def pad_det(
    data: pd.DataFrame,
    /,
    *,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> xr.Dataset:
    r"""DET curves of PAD systems: APCER of each species, and their maximum, against BPCER.

    Parameters
    ----------
    data, by, system, trial, label, score, pai, split, orientation, nonfinite
        As in :func:`pad_metrics`.

    Returns
    -------
    Dataset
        Dims ``(*by, system, split, point)`` (``split`` only with a split column) and
        ``species``. Data variables: ``threshold`` (score units), ``bpcer``, ``apcer``
        over ``(..., species, point)`` — the coordinate ``species`` lists the table's
        species and then ``"max"``, the curve of the standard's APCER —, ``eer`` (bob's
        threshold EER, attacks pooled). Every distinct score is a point, from accept-all
        to reject-all; groups with fewer points are NaN-padded. Attrs ``kind="pad_det"``,
        ``orientation``, ``pandas_biosig_version``.

    Examples
    --------
    >>> ds = pbs.pad_det(pbs.datasets.example_pad())
    >>> ds.apcer.sel(system="cnn", split="eval", species="max").isel(point=0).item()
    1.0
    >>> list(ds.species.values)
    ['print', 'replay', 'mask', 'max']
    """
    from .curves import _dataset, _Layout, _var

    table = validate_pad(
        data, system=system, trial=trial, label=label, score=score, pai=pai, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    sign = -1.0 if table.orientation == "distance" else 1.0
    k = len(table.species)
    layout = _Layout(table, table.groups, with_split=table.split_column is not None)
    curves, eers = [], []
    for g in table.groups:
        sw = g.sweep()
        thr, ap, bp = sw.det_points()
        full = np.full((k + 1, thr.size), np.nan)
        full[g.present()] = ap
        full[k] = ap.max(axis=0)
        curves.append((sign * thr, full, bp))
        eers.append(sw.eer())
    length = max(c[0].size for c in curves)
    thr = layout.curve([c[0] for c in curves], length)
    bp = layout.curve([c[2] for c in curves], length)
    ap = np.full((*layout.shape, k + 1, length), np.nan)
    for idx, c in zip(layout.index, curves, strict=True):
        ap[idx][:, : c[1].shape[1]] = c[1]
    dims = (*layout.names, "point")
    sdims = (*layout.names, "species", "point")
    species = np.array([str(s) for s in table.species] + ["max"], dtype=object)
    variables = {
        "threshold": _var(dims, thr, "threshold (accept iff score >= threshold)", score),
        "bpcer": _var(dims, bp, "BPCER", "1"),
        "apcer": _var(sdims, ap, "APCER", "1"),
        "eer": _var(tuple(layout.names), layout.summary(eers), "EER (attacks pooled)", "1"),
    }
    coords = {**layout.coords(), "species": species}
    return _dataset(variables, coords, kind="pad_det", trials=table)


# ----------------------------------------------------------------------------- comparison
#: Metrics :func:`pad_compare` can compare.
PAD_COMPARE_METRICS = {
    "apcer_max": "largest APCER over attack species (ISO/IEC 30107-3's APCER)",
    "bpcer": "BPCER",
    "acer": "(apcer_max + bpcer) / 2 (not part of ISO/IEC 30107-3)",
}
#: Tests of :func:`pad_compare`.
PAD_TESTS = {
    "bootstrap": (
        "paired bootstrap of the difference: presentations (or subjects) resampled on the "
        "split that chooses the thresholds and on the tested split, thresholds re-chosen "
        "in every replicate"
    ),
    "mcnemar": (
        "exact McNemar test on the paired bona fide presentations at the chosen thresholds "
        "(conditional on them); BPCER only"
    ),
}
PAD_COMPARE_COLUMNS = [
    "system_a",
    "system_b",
    "split",
    "metric",
    "test",
    "criterion",
    "threshold_split",
    "target",
    "threshold_a",
    "threshold_b",
    "n",
    "estimate",
    "statistic",
    "pvalue",
    "adjust",
    "pvalue_adj",
    "alpha",
    "reject",
    "confidence_level",
    "ci_low",
    "ci_high",
]
ERROR_MCNEMAR_METRIC = (
    "test='mcnemar' compares paired decisions on one class; metric={metric!r} is not one "
    "error count (a maximum over species or an average of two rates): use test='bootstrap'"
)
ERROR_PAIR_TRIALS = (
    "systems {a!r} and {b!r} do not score the same presentations{where}: pairing on "
    "{column!r} needs the same trial ids with the same labels and species"
)
ERROR_PAD_ONE_SYSTEM = "{where}has only one system; a comparison needs at least two"


def _metric_value(metric: str, errs: np.ndarray, totals: np.ndarray, k: int) -> float:
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = errs / totals
    amax = np.nanmax(rates[:k]) if np.isfinite(rates[:k]).any() else np.nan
    if metric == "apcer_max":
        return float(amax)
    if metric == "bpcer":
        return float(rates[k])
    return float((amax + rates[k]) / 2)


class _Aligned:
    """The presentations of one system in one split, ordered by trial id, with the
    per-stratum sort orders needed to rebuild a weighted sweep without sorting."""

    def __init__(self, g: PadGroup, order: np.ndarray, k: int):
        self.scores = g.scores[order]
        self.strata = g.strata(k)[order]
        self.k = k
        self.orders = []
        for s in range(k + 1):
            idx = np.flatnonzero(self.strata == s)
            self.orders.append(idx[np.argsort(self.scores[idx], kind="stable")])

    def sweep(self, weights) -> PadSweep:
        parts = [np.repeat(self.scores[o], weights[o]) for o in self.orders]
        attacks = [p for p in parts[: self.k] if p.size]
        return PadSweep(parts[self.k], attacks, assume_sorted=True)

    def value(self, metric: str, t: float, weights) -> float:
        accepted = self.scores >= t
        err = np.where(self.strata == self.k, ~accepted, accepted)
        e, n = weighted_rates(err, self.strata, self.k + 1, weights)
        return _metric_value(metric, e, n, self.k)


def _draw(rng, units: np.ndarray, n_units: int, strata: np.ndarray | None, k: int):
    """Multiplicities per presentation: whole clusters (subjects) resampled, or
    presentations resampled within each stratum."""
    if strata is None:
        return rng.multinomial(n_units, np.full(n_units, 1.0 / n_units))[units]
    w = np.empty(strata.size, dtype=np.int64)
    for s in range(k + 1):
        idx = np.flatnonzero(strata == s)
        if idx.size:
            w[idx] = rng.multinomial(idx.size, np.full(idx.size, 1.0 / idx.size))
    return w


def _pair_order(ga: PadGroup, gb: PadGroup, where: str, trial_col: str):
    oa = np.argsort(ga.trial, kind="stable")
    ob = np.argsort(gb.trial, kind="stable")
    same = (
        ga.trial.size == gb.trial.size
        and np.array_equal(ga.trial[oa], gb.trial[ob])
        and np.array_equal(ga.bonafide[oa], gb.bonafide[ob])
        and np.array_equal(ga.species[oa], gb.species[ob])
    )
    if not same:
        raise SchemaError(ERROR_PAIR_TRIALS.format(a=ga.system, b=gb.system, where=where, column=trial_col))
    return oa, ob


def _units(g: PadGroup, order: np.ndarray, k: int, use_subject: bool):
    if use_subject:
        codes, uniques = pd.factorize(g.subject[order])
        return codes, len(uniques), None
    return None, 0, g.strata(k)[order]


def pad_compare(
    data: pd.DataFrame,
    /,
    *,
    metric: Literal["apcer_max", "bpcer", "acer"] = "apcer_max",
    test: Literal["bootstrap", "mcnemar"] = "bootstrap",
    threshold: PadCriterion = "eer",
    target: float | None = None,
    on: Hashable | None = "auto",
    alpha: float = 0.05,
    adjust: str | None = "holm",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Compare every pair of PAD systems on APCER (max over species), BPCER or ACER.

    The systems of a pair are paired on ``trial`` (the same presentations). Thresholds are
    chosen by ``threshold`` on split ``on`` (``"auto"``: ``dev`` when present) and the
    comparison is made on every other split (on each split itself when there is no
    choosing split).

    Parameters
    ----------
    data
        PAD table (see :func:`pad_metrics`).
    metric : {"apcer_max", "bpcer", "acer"}, default "apcer_max"
    test : {"bootstrap", "mcnemar"}, default "bootstrap"
        ``"bootstrap"``: paired bootstrap of the difference A − B. Each replicate
        resamples the presentations — whole subjects when the table has a ``subject``
        column, else presentations within each species and the bona fide class — of the
        choosing split and of the tested split, *re-chooses both thresholds* on the
        resampled choosing split, and recomputes the metric; the p-value is the
        percentile-inversion one (:func:`pandas_biosig.paired_bootstrap`'s). It accounts
        for the noise of the thresholds, so two equally good systems are rejected at the
        nominal rate (measured in ``docs/validity.md``). ``"mcnemar"``: exact McNemar on
        the paired bona fide presentations at the chosen thresholds (``metric="bpcer"``
        only); its null is "these two decision rules make as many errors", conditional on
        the thresholds.
    threshold : {"eer", "apcer", "bpcer"}, default "eer"
        Threshold criterion (see :func:`pad_metrics`).
    target : float, optional
        Bound of ``"apcer"`` / ``"bpcer"``.
    on : split value, None or "auto", default "auto"
    alpha : float, default 0.05
    adjust : str or None, default "holm"
        statsmodels ``multipletests`` method, applied within each family (``by`` group and
        split).
    confidence_level : float, default 0.95
        Level of the interval of the difference (bootstrap percentile; Wald for McNemar).
    n_resamples : int, default 1000
    seed : int or Generator, optional
    by, system, trial, label, score, pai, split, subject, orientation, nonfinite
        As in :func:`pad_metrics` and :func:`pad_rates`.

    Returns
    -------
    DataFrame
        One row per unordered pair of systems (input order) and tested split: columns
        ``system_a, system_b, split, metric, test, criterion, threshold_split, target,
        threshold_a, threshold_b, n`` (paired presentations), ``estimate`` (metric A −
        metric B), ``statistic`` (bootstrap: estimate / bootstrap SE; McNemar: b),
        ``pvalue, adjust, pvalue_adj, alpha, reject, confidence_level, ci_low, ci_high``.

    Raises
    ------
    SchemaError
        As :func:`pad_metrics`; systems that do not score the same presentations; a
        family with one system.
    ValueError
        Unknown ``metric`` or ``test``, McNemar with a metric other than BPCER, bad
        ``alpha``, ``adjust``, ``confidence_level`` or ``n_resamples``.

    Examples
    --------
    >>> pad = pbs.datasets.example_pad()
    >>> res = pbs.pad_compare(pad, n_resamples=200, seed=0)
    >>> res[["system_a", "system_b", "split", "estimate", "pvalue"]].round(3)
      system_a system_b split  estimate  pvalue
    0   resnet      cnn  eval     -0.11    0.04
    >>> pbs.pad_compare(pad, metric="bpcer", test="mcnemar")[["estimate", "statistic", "pvalue"]].round(4)
       estimate  statistic  pvalue
    0    -0.015       17.0  0.4296
    """
    from ._pairwise import adjust_pvalues
    from ._validation import check_adjust, check_alpha

    check_option(metric, PAD_COMPARE_METRICS, "metric")
    check_option(test, PAD_TESTS, "test")
    if test == "mcnemar" and metric != "bpcer":
        raise ValueError(ERROR_MCNEMAR_METRIC.format(metric=metric))
    alpha = check_alpha(alpha)
    adjust = check_adjust(adjust)
    level = _check_level(confidence_level)
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int | np.integer) or n_resamples < 1:
        raise ValueError(ERROR_N_RESAMPLES.format(value=n_resamples))
    if not isinstance(threshold, str):
        check_option(threshold, PAD_CRITERIA, "threshold")
    table = validate_pad(
        data, system=system, trial=trial, label=label, score=score, pai=pai, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    tgt = _check_target(threshold, target)
    chosen = _choose_thresholds(table, threshold=threshold, target=target, on=on)
    choose_split = _resolve_on(table, on)
    sign = -1.0 if table.orientation == "distance" else 1.0
    k = len(table.species)
    use_subject = table.groups[0].subject is not None
    t_of = {id(g): c[3] for g, c in zip(table.groups, chosen, strict=True)}
    by_key = {g.key: g for g in table.groups}
    # families: (by..., split) of the tested splits
    families: dict[tuple, list[PadGroup]] = {}
    for g in table.groups:
        if choose_split is not None and g.split == choose_split:
            continue
        families.setdefault((*g.key[:-2], g.split), []).append(g)
    rows, family_of = [], []
    for fi, (fam, members) in enumerate(families.items()):
        where = "".join(f"{n}={v!r}, " for n, v in zip(table.by, fam[:-1], strict=False))
        if len(members) < 2:
            raise SchemaError(ERROR_PAD_ONE_SYSTEM.format(where=where))
        for i in range(len(members)):
            for j in range(i + 1, len(members)):
                ga, gb = members[i], members[j]
                w_txt = f" ({where}split {ga.split!r})"
                oa, ob = _pair_order(ga, gb, w_txt, trial)
                ta, tb = t_of[id(ga)], t_of[id(gb)]
                ea, eb = _Aligned(ga, oa, k), _Aligned(gb, ob, k)
                one = np.ones(oa.size, dtype=np.int64)
                est = ea.value(metric, ta, one) - eb.value(metric, tb, one)
                if test == "mcnemar":
                    from .stats import mcnemar

                    bona = ea.strata == k
                    err_a = (ea.scores < ta)[bona]
                    err_b = (eb.scores < tb)[bona]
                    b = int((err_a & ~err_b).sum())
                    c = int((~err_a & err_b).sum())
                    res = mcnemar(b, c, n=int(bona.sum()))
                    ci = res.confidence_interval(confidence_level=level)
                    stat, p, low, high = float(res.statistic), float(res.pvalue), ci.low, ci.high
                else:
                    if choose_split is not None:
                        ca = by_key[(*ga.key[:-1], choose_split)]
                        cb = by_key[(*gb.key[:-1], choose_split)]
                        da_o, db_o = _pair_order(ca, cb, f" ({where}split {choose_split!r})", trial)
                        da, db = _Aligned(ca, da_o, k), _Aligned(cb, db_o, k)
                        dev_units = _units(ca, da_o, k, use_subject)
                    else:
                        da = db = None
                        dev_units = None
                    ev_units = _units(ga, oa, k, use_subject)
                    deltas = np.empty(n_resamples)
                    for r in range(n_resamples):
                        w_eval = _draw(rng, *ev_units, k)
                        if da is None:
                            sa, sb = ea.sweep(w_eval), eb.sweep(w_eval)
                        else:
                            w_dev = _draw(rng, *dev_units, k)
                            sa, sb = da.sweep(w_dev), db.sweep(w_dev)
                        try:
                            ra = sa.threshold(threshold, tgt)
                            rb = sb.threshold(threshold, tgt)
                        except ValueError:  # a replicate without one class
                            deltas[r] = np.nan
                            continue
                        deltas[r] = ea.value(metric, ra, w_eval) - eb.value(metric, rb, w_eval)
                    from .resampling import bootstrap_pvalue

                    finite = deltas[np.isfinite(deltas)]
                    p = float(bootstrap_pvalue(finite))
                    se = float(np.std(finite, ddof=1)) if finite.size > 1 else np.nan
                    stat = est / se if se and se > 0 else np.nan
                    low, high = (float(x) for x in percentile_interval(finite, level))
                rows.append(
                    dict(
                        system_a=ga.system, system_b=gb.system, split=ga.split, metric=metric,
                        test=test, criterion=threshold,
                        threshold_split=ga.split if choose_split is None else choose_split,
                        target=tgt, threshold_a=sign * ta, threshold_b=sign * tb,
                        n=int(oa.size), estimate=float(est), statistic=float(stat), pvalue=p,
                        adjust=adjust if adjust is not None else "none", alpha=alpha,
                        confidence_level=level, ci_low=float(low), ci_high=float(high),
                    )
                )
                family_of.append(fi)
    out = pd.DataFrame(rows, columns=[c for c in PAD_COMPARE_COLUMNS if c not in ("pvalue_adj", "reject")])
    p_adj = np.full(len(out), np.nan)
    reject = np.zeros(len(out), dtype=bool)
    fam = np.asarray(family_of)
    for fi in np.unique(fam):
        idx = np.flatnonzero(fam == fi)
        pa, rj = adjust_pvalues(out.pvalue.to_numpy()[idx], adjust, alpha)
        p_adj[idx], reject[idx] = pa, rj
    out["pvalue_adj"] = p_adj
    out["reject"] = reject
    by_cols = pd.DataFrame([f[:-1] for f in (list(families)[i] for i in family_of)], columns=list(table.by))
    out = pd.concat([by_cols.reset_index(drop=True), out.reset_index(drop=True)], axis=1)
    return out[[*table.by, *PAD_COMPARE_COLUMNS]]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
