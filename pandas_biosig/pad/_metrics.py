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

The table, its thresholds and intervals are in :mod:`pandas_biosig.pad._table`; comparisons
of systems in :func:`pandas_biosig.pad_compare`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd
import xarray as xr

from .._core.counted import expand_counts
from .._core.options import NonFinite, Orientation
from .._core.protocol import AUTO, check_policy
from .._core.results import binomial_intervals
from .._core.schema import SchemaError, check_option
from .._core.validation import check_confidence_level, check_n_resamples
from ._segmented import metrics_frame, rate_rows, segments_of
from ._segmented import resolve as resolve_segments
from ._table import (
    CI_METHODS,
    PAD_METRICS_COLUMNS,
    PAD_RATES_COLUMNS,
    CIMethod,
    PadCriterion,
    _binomial_interval,
    _frame,
    _rates,
    rate_intervals,
    resolve_pad,
    validate_pad,
)

__all__ = ['pad_det', 'pad_metrics', 'pad_rates']

#: The ``species`` label of :func:`pad_det`'s curve of the largest APCER over species (a
#: species of that name is refused rather than given a second curve of the same label).
MAX_SPECIES = "max"
ERROR_MAX_SPECIES = (
    "pad_det labels the curve of the largest APCER over species {label!r} on its 'species' "
    "coordinate, and the table has an attack species {value!r} with that label; rename it"
)

# ----------------------------------------------------------------------------- public API
def pad_metrics(
    data: pd.DataFrame,
    /,
    *,
    threshold: PadCriterion | float | Mapping[Hashable, float] = "eer",
    target: float | None = None,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
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
    on, apply_to : split value, "auto" or None, default "auto"
        ``on``: the split whose presentations choose the threshold, applied to the
        reported splits of the same system (a priori); ``apply_to``: the splits reported.
        ``"auto"`` (the protocol of every kind of table, :mod:`pandas_biosig._core.protocol`):
        chosen on dev and reported on eval when the table has dev and eval splits
        (``dev``/``development``, ``eval``/``test``/``evaluation``), else each split's own
        presentations (a posteriori, ``threshold_from="same trials"``). ``on=None,
        apply_to=None`` asks for every split a posteriori.
    by : str or list of str, optional
        Extra grouping columns.
    system, trial, label, score, pai, split : str
        Column names. ``pai`` holds the attack species; without that column all attacks
        form one species ``"attack"``.
    orientation : {"similarity", "distance"}
        ``"distance"``: lower scores are more bona fide.
    nonfinite : {"raise", "drop", "reject"}
        NaN/inf scores: raise, drop, or count as always rejected.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per system (and ``by`` group and split):

        - ``system``, ``split``;
        - ``criterion``, ``threshold_split`` (the split the threshold was chosen on),
          ``threshold_from`` (that split, ``"same trials"`` or ``"fixed"``), ``target``
          (NaN for ``"eer"`` and fixed thresholds), ``threshold`` (score units);
        - ``n_bonafide``, ``n_attack``, ``n_species``;
        - ``apcer_max``: the largest APCER over species (ISO/IEC 30107-3's APCER);
          ``apcer_max_species``: the species that attains it (the first one on ties);
        - ``apcer_pooled``: accepted attacks / attacks, all species pooled (not the
          standard's figure);
        - ``bpcer``;
        - ``acer``: (apcer_max + bpcer)/2, **not** part of ISO/IEC 30107-3;
        - ``eer``: bob.measure's threshold EER of this split, attacks pooled;
        - ``resample``: None (nothing is resampled here).

    Raises
    ------
    SchemaError
        Missing columns, labels outside the PAD vocabulary, attacks without a species, a
        system without attacks or bona fide presentations, a split ``on`` missing.
    ValueError
        Unknown criterion, a bound ``target`` missing or outside [0, 1], a NaN threshold
        (the messages of :mod:`pandas_biosig._core.validation`).

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
    >>> m[["system", "split", "threshold_from", "apcer_max", "apcer_max_species", "bpcer"]]
       system split threshold_from  apcer_max apcer_max_species   bpcer
    0  resnet  eval            dev       0.22            replay  0.0775
    1     cnn  eval            dev       0.33              mask  0.0925

    BPCER20, the threshold chosen on dev so that every species' APCER stays within 5 %,
    on dev itself and on eval:

    >>> pbs.pad_metrics(pad, threshold="apcer", target=0.05, apply_to=["dev", "eval"]
    ...                 ).bpcer.round(4).tolist()
    [0.105, 0.1025, 0.2875, 0.2425]
    """
    data = expand_counts(data, count, trial=trial)
    check_policy(threshold, kind="pad", target=target)
    table = validate_pad(
        data, system=system, trial=trial, label=label, score=score, pai=pai, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    sg = segments_of(table)
    if sg is not None:
        chosen = resolve_segments(table, sg, threshold=threshold, target=target, on=on,
                                  apply_to=apply_to)
        return metrics_frame(table, sg, chosen, PAD_METRICS_COLUMNS)
    resolved = resolve_pad(table, threshold=threshold, target=target, on=on, apply_to=apply_to)
    sign = -1.0 if table.orientation == "distance" else 1.0
    k = len(table.species)
    rows, keys = [], []
    for r in resolved:
        g, t = r.group, r.threshold
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
                criterion=r.criterion,
                threshold_split=r.threshold_split,
                threshold_from=r.threshold_from,
                target=r.target,
                threshold=sign * t,
                n_bonafide=int(g.bonafide.sum()),
                n_attack=int((~g.bonafide).sum()),
                n_species=int(present.sum()),
                apcer_max=amax,
                apcer_max_species=which,
                apcer_pooled=pooled,
                bpcer=bpcer,
                acer=(amax + bpcer) / 2,
                eer=r.sweep.eer(),
                resample=None,
            )
        )
    return _frame(table, keys, rows, PAD_METRICS_COLUMNS)




def pad_rates(
    data: pd.DataFrame,
    /,
    *,
    threshold: PadCriterion | float | Mapping[Hashable, float] = "eer",
    target: float | None = None,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    confidence_level: float = 0.95,
    ci_method: CIMethod = "auto",
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
    count: str | None = None,
) -> pd.DataFrame:
    r"""APCER of every attack species and BPCER, with confidence intervals.

    Parameters
    ----------
    data, threshold, target, on, apply_to, by, system, trial, label, score, pai, split, orientation, nonfinite
        As in :func:`pad_metrics`.
    confidence_level : float, default 0.95
    ci_method : {"auto", "wilson", "beta", "cluster", "bootstrap"}, default "auto"
        ``"wilson"``: Wilson score interval; ``"beta"``: Clopper–Pearson; both treat
        presentations as independent. ``"cluster"``: Wilson interval on the effective
        sample size n / deff, the design effect deff ≥ 1 estimated from the subjects
        (column ``subject``; Korn & Graubard, 1998). ``"bootstrap"``: percentile interval
        from resampling subjects with replacement, the threshold held fixed; a rate of 0
        or 1 (every replicate equal) gets Wilson's interval on the number of subjects
        instead, said in ``fallback_reason``. ``"auto"``: ``"cluster"`` when the table has
        a subject column (presentations of one subject are not independent, and binomial
        intervals are then too narrow), else ``"wilson"``. The subject intervals need a
        subject id on every presentation and at least two subjects per system and split
        (the one subject rule, :func:`pandas_biosig._core.schema.check_subjects`).
    n_resamples : int, default 1000
        Bootstrap replicates (the package's one default).
    seed : int or Generator, optional
        Random seed of the bootstrap.
    subject : str
        Column of subject ids (used by the bootstrap).
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per system (and ``by`` group and split) and rate: first the APCER of each
        species in the table's order, then the BPCER. Columns ``system, split, criterion,
        threshold_split, target, threshold`` (as :func:`pad_metrics`), ``metric``
        (``"apcer"`` or ``"bpcer"``), ``pai`` (the species; None on the BPCER row),
        ``n`` (presentations), ``errors`` (accepted attacks or rejected bona fide),
        ``rate``, ``confidence_level``, ``ci_method``, ``ci_low``, ``ci_high``,
        ``resample`` (``"subject"`` for the subject intervals, None for the binomial
        ones) and ``fallback_reason`` (why a bootstrap interval is Wilson's instead, None
        otherwise); ``threshold_from`` as in :func:`pad_metrics`. A species without
        attacks in a group has ``n`` 0 and NaN rate.

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
    >>> r[["split", "pai", "n", "errors", "rate", "ci_low", "ci_high"]].round(4)
      split     pai    n  errors    rate  ci_low  ci_high
    0  eval   print  200      13  0.0650  0.0384   0.1080
    1  eval  replay  200      35  0.1750  0.1286   0.2336
    2  eval    mask  200      66  0.3300  0.2686   0.3978
    3  eval     NaN  400      37  0.0925  0.0679   0.1249

    Compare with statsmodels:

    >>> from statsmodels.stats.proportion import proportion_confint
    >>> [round(x, 4) for x in proportion_confint(13, 200, method="wilson")]
    [0.0384, 0.108]
    """
    data = expand_counts(data, count, trial=trial)
    level = check_confidence_level(confidence_level)
    check_option(ci_method, CI_METHODS, "ci_method")
    n_resamples = check_n_resamples(n_resamples)
    check_policy(threshold, kind="pad", target=target)
    table = validate_pad(
        data, system=system, trial=trial, label=label, score=score, pai=pai, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    method = interval_method(ci_method, table)
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    sg = segments_of(table)
    if sg is not None:
        chosen = resolve_segments(table, sg, threshold=threshold, target=target, on=on,
                                  apply_to=apply_to)
        intervals = _intervals(table, chosen, method, level=level, n_resamples=n_resamples,
                               rng=rng)
        return rate_rows(table, sg, chosen, intervals, PAD_RATES_COLUMNS)
    sign = -1.0 if table.orientation == "distance" else 1.0
    k = len(table.species)
    rows, keys = [], []
    for r in resolve_pad(table, threshold=threshold, target=target, on=on, apply_to=apply_to):
        g, t = r.group, r.threshold
        errs, totals = _rates(g, k, t)
        clustered = rate_intervals(table, g, t, k, method, n_resamples=n_resamples,
                                   level=level, rng=rng)
        for s in range(k + 1):
            n = int(totals[s])
            low = high = rate = np.nan
            e_out, why = (0 if n == 0 else np.nan), None
            if n and not np.isnan(t):
                e_out = int(errs[s])
                rate = e_out / n
                if clustered is None:
                    low, high = _binomial_interval(e_out, n, level, method)
                else:
                    low, high, why = clustered[s]
            keys.append(g.key)
            rows.append(dict(
                criterion=r.criterion, threshold_split=r.threshold_split,
                threshold_from=r.threshold_from, target=r.target, threshold=sign * t,
                metric="apcer" if s < k else "bpcer", pai=table.species[s] if s < k else None,
                n=n, errors=e_out, rate=rate, confidence_level=level, ci_method=method,
                ci_low=low, ci_high=high, resample=_RESAMPLED.get(method),
                fallback_reason=why,
            ))
    return _frame(table, keys, rows, PAD_RATES_COLUMNS)


#: What the interval methods account for: subjects (``resample`` column), or nothing.
_RESAMPLED = {"cluster": "subject", "bootstrap": "subject"}


def interval_method(ci_method: str, table) -> str:
    """The interval ``ci_method`` stands for: ``"auto"`` is ``"cluster"`` with a subject
    column, else ``"wilson"``."""
    if ci_method != "auto":
        return ci_method
    has = getattr(table, "has_subject", None)  # a PAD table says so without its groups
    if has is None:
        has = bool(table.groups) and table.groups[0].subject is not None
    return "cluster" if has else "wilson"


def _intervals(table, r, method: str, *, level: float, n_resamples: int, rng):
    """The interval columns of :func:`pad_rates`'s rows of the groups ``r`` (resolved on
    the segments): ``intervals(n, errors, ok)`` for :func:`~._segmented.rate_rows`, the
    binomial intervals in one call, the subject ones group by group (in the order the
    per-group rows draw the bootstrap's replicates)."""
    k = len(table.species)

    def intervals(n: np.ndarray, errors: np.ndarray, ok: np.ndarray) -> dict:
        low, high = np.full(n.size, np.nan), np.full(n.size, np.nan)
        why: list = [None] * n.size
        if method in ("bootstrap", "cluster"):
            groups = table.groups
            for j, (i, t) in enumerate(zip(r.index, r.threshold, strict=True)):
                clustered = rate_intervals(table, groups[i], float(t), k, method,
                                           n_resamples=n_resamples, level=level, rng=rng)
                for s, row in enumerate(range(j * (k + 1), (j + 1) * (k + 1))):
                    if clustered is not None and ok[row]:
                        low[row], high[row], why[row] = clustered[s]
        else:
            rows = np.flatnonzero(ok)
            low[rows], high[rows] = binomial_intervals(errors[rows], n[rows], level, method)
        return dict(confidence_level=np.full(n.size, level), ci_method=[method] * n.size,
                    ci_low=low, ci_high=high, resample=[_RESAMPLED.get(method)] * n.size,
                    fallback_reason=why)

    return intervals


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
    count: str | None = None,
) -> xr.Dataset:
    r"""DET curves of PAD systems: APCER of each species, and their maximum, against BPCER.

    Parameters
    ----------
    data, by, system, trial, label, score, pai, split, orientation, nonfinite
        As in :func:`pad_metrics`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        Dims ``(*by, system, split, point)`` (``split`` only with a split column) and
        ``species``. Data variables: ``threshold`` (score units), ``bpcer``, ``apcer``
        over ``(..., species, point)`` — the coordinate ``species`` lists the table's
        species and then ``"max"``, the curve of the standard's APCER (a species named
        ``"max"``, or two species with one label, is refused with a named error) —,
        ``eer`` (bob's threshold EER, attacks pooled). Every distinct score is a point, from accept-all
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
    data = expand_counts(data, count, trial=trial)
    from .._core.curve_datasets import Layout, curve_dataset, curve_variable, label_array

    table = validate_pad(
        data, system=system, trial=trial, label=label, score=score, pai=pai, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    sign = -1.0 if table.orientation == "distance" else 1.0
    k = len(table.species)
    layout = Layout(table, table.groups, with_split=table.split_column is not None)
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
    for value in table.species:
        if str(value) == MAX_SPECIES:
            raise SchemaError(ERROR_MAX_SPECIES.format(label=MAX_SPECIES, value=value))
    species = label_array([*table.species, MAX_SPECIES], "species")
    variables = {
        "threshold": curve_variable(dims, thr, "threshold (accept iff score >= threshold)", score),
        "bpcer": curve_variable(dims, bp, "BPCER", "1"),
        "apcer": curve_variable(sdims, ap, "APCER", "1"),
        "eer": curve_variable(tuple(layout.names), layout.summary(eers), "EER (attacks pooled)", "1"),
    }
    coords = {**layout.coords(), "species": species}
    return curve_dataset(variables, coords, kind="pad_det", trials=table)
