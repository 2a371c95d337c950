r"""Thresholds with a guarantee: a FAR (or FRR) that holds on new data with stated
confidence, and the test of whether it held.

A threshold set at the empirical FAR quantile of a development set (``threshold="far"``)
has a FAR on new data above the target about half of the time. :func:`threshold_guarantee`
chooses instead, on the development split, the threshold whose one-sided upper confidence
bound of the FAR stays at most the target (:func:`pandas_biosig._core.protocol.guaranteed_threshold`),
the bound accounting for subjects (and for the reference of each impostor trial) when the
table names them. It then reports, on every evaluation split and demographic group, the
realised FAR and FRR at that threshold and tests whether the operating point held.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from .._core.counted import expand_counts
from .._core.frames import group_sweep, orientation_sign
from .._core.options import NonFinite, Orientation, ResampleOption
from .._core.protocol import (
    GUARANTEED_RATES,
    SAME_TRIALS,
    Protocol,
    group_where,
    guaranteed_threshold,
    rate_design,
    rate_layout,
    reported_groups,
    select_split,
)
from .._core.schema import BiosigWarning, Group, SchemaError, Trials, check_option, validate_trials
from .._core.validation import check_alpha, check_confidence_level, check_rate
from .._kernels.cluster import exceedance_pvalue

__all__ = ["GUARANTEE_COLUMNS", "HOLDS_FOR", "HoldsFor", "threshold_guarantee"]

GuaranteedRate = Literal["far", "frr"]
HoldsFor = Literal["auto", "reported", "population"]
HOLDS_FOR = ("auto", "reported", "population")

GUARANTEE_COLUMNS = [
    "system", "split", "group", "rate", "target", "confidence_level", "threshold",
    "threshold_split", "threshold_from", "holds_for", "bound", "n_genuine", "n_impostor", "fa", "fr", "far",
    "frr", "pvalue", "alpha", "reject", "resample",
]

WARN_NO_GUARANTEE = (
    "{where}: no threshold keeps the {rate} at most {target} with confidence "
    "{level}: even the safest threshold's bound is {bound:.3g} (a bound at zero errors needs "
    "about {needed} trials of the class, or more with subjects); its rows are NaN"
)
ERROR_GROUP_COLUMN = "group={value!r}: column {value!r} is not in the table (its columns: {found})"


def threshold_guarantee(
    data: pd.DataFrame,
    /,
    *,
    target: float,
    rate: GuaranteedRate = "far",
    confidence_level: float = 0.95,
    holds_for: HoldsFor = "auto",
    alpha: float = 0.05,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    resample: ResampleOption = "auto",
    group: str | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""A threshold whose FAR (or FRR) holds on new data with stated confidence, and
    whether it held.

    On the split ``on`` (by default the development split of a table with dev and eval
    splits), each system's threshold is the one with the smallest other error rate whose
    one-sided ``confidence_level`` bound of ``rate`` is at most ``target``. With
    ``holds_for="reported"`` (the default when the threshold is reported on other trials)
    the bound is a *prediction* bound of the rate that will be measured on the reported
    trials: the FAR measured on eval exceeds ``target`` with probability at most
    ``1 - confidence_level``. With ``holds_for="population"`` it bounds the true rate of
    new trials (which a finite evaluation set then measures with noise of its own). On
    every reported split (and each ``group`` value) the realised FAR and FRR are given,
    with a one-sided test of "the rate is at most ``target``".

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`pandas_biosig.eer`), optionally with ``split``,
        ``subject`` and ``reference_subject`` columns.
    target : float
        The rate bound, in (0, 1).
    rate : {"far", "frr"}, default "far"
        The rate that is bounded (FAR = FMR; FRR = FNMR).
    confidence_level : float, default 0.95
        Confidence that the rate at the chosen threshold is at most ``target``.
    holds_for : {"auto", "reported", "population"}, default "auto"
        Which rate the guarantee is about: ``"reported"``, the rate measured on each
        reported split (each split gets the threshold its size and people call for);
        ``"population"``, the true rate of new trials. ``"auto"``: ``"reported"`` when the
        threshold is chosen on other trials than it is reported on, ``"population"``
        when on the same trials (whose realised rate is then at most the bound anyway).
        The ``holds_for`` column says which. Demographic ``group`` rows are tested at
        their split's threshold; the guarantee is about the split's rate, not each
        group's.
    alpha : float, default 0.05
        Level of the test on the reported trials (``reject``: the realised rate is
        significantly above ``target``).
    on, apply_to : split value, "auto" or None, default "auto"
        Where the threshold is chosen and what is reported (see
        :func:`pandas_biosig.error_rates`): ``"auto"`` chooses on dev and reports on eval
        when the table has both; otherwise each group on its own trials
        (``threshold_from`` ``"same trials"``).
    resample : {"auto", "label", "trial", "subject", "two_way"}, default "auto"
        Which trials the bound and the test treat as dependent: ``"auto"`` follows the
        table (people in both roles with subject and reference columns, subjects with a
        subject column, else independent trials; the ``resample`` column says which).
    group : str, optional
        A column of demographic groups (the probe's): the reported splits get one row
        per group value too, at the same threshold (``group`` None on the row of all
        trials).
    by, system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        As in :func:`pandas_biosig.ci`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, reported split, demographic group), the ``by``
        columns first, then ``system``, ``split``, ``group``; ``rate``, ``target``,
        ``confidence_level``; ``threshold`` (score units), ``threshold_split``,
        ``threshold_from`` (as in :func:`pandas_biosig.ci`); ``holds_for`` (``"reported"``
        or ``"population"``); ``bound``, the one-sided bound of ``rate`` at the threshold
        (at most ``target``); on the reported trials ``n_genuine``, ``n_impostor``,
        ``fa``, ``fr``, ``far``, ``frr``; ``pvalue`` of "the rate is at most ``target``"
        (on the effective counts of the subjects' design), ``alpha``, ``reject`` (the
        operating point did not hold: ``pvalue < alpha``); ``resample``. When no
        threshold can be guaranteed (too few trials: a bound at zero errors is about
        :math:`-\ln(1-\gamma)/n`) a :class:`~pandas_biosig.BiosigWarning` says so and the
        system's values are NaN.

    Raises
    ------
    SchemaError
        An invalid table, missing subject or reference ids, a ``group`` column that is
        not there.
    ValueError
        ``target``, ``confidence_level`` or ``alpha`` outside (0, 1), an unknown ``rate``
        or ``holds_for``.

    See Also
    --------
    pandas_biosig.error_rates : ``threshold="far"`` (the empirical quantile).
    pandas_biosig.ci : intervals at a threshold.

    Notes
    -----
    ``"population"``: the bound at a threshold is Clopper–Pearson's one-sided bound on
    Korn & Graubard's effective counts (the design effect of the people the trials share
    and Satterthwaite's degrees of freedom; :func:`pandas_biosig.ci` explains them). The
    bound grows with the errors the threshold allows, so the chosen threshold is where
    it reaches ``target``; its true rate exceeds ``target`` only when the bound at the
    threshold whose true rate is ``target`` fell below it, with probability at most
    :math:`1 - \gamma`. ``"reported"``: the measured rate differs from the development
    estimate by the sampling error of both sets; the prediction bound
    (:func:`pandas_biosig._kernels.cluster.prediction_bound`) is Clopper–Pearson's on the
    effective trials of the difference, :math:`(1/n^*_{dev} + d_{new}/n_{new})^{-1}`,
    the new trials' design effect :math:`d_{new}` following from their layout of people
    and the correlation estimated on dev. The test on the reported trials is the exact
    one-sided binomial test on the same effective counts. docs/validity.md gives the
    measured exceedance of both.

    References
    ----------
    Korn, E. L., & Graubard, B. I. (1998). Confidence intervals for proportions with small
    expected number of positive counts estimated from survey data. *Survey Methodology,
    24*\(2), 193–201.

    Hahn, G. J., & Meeker, W. Q. (1991). *Statistical Intervals: A Guide for
    Practitioners*. Wiley.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> g = pbs.threshold_guarantee(trials, target=0.05)
    >>> g[["system", "split", "holds_for", "bound", "far", "reject"]].round(4)
        system split holds_for   bound     far  reject
    0      cnn  eval  reported  0.0500  0.0594   False
    1  cnn_aug  eval  reported  0.0477  0.0365   False
    2      gmm  eval  reported  0.0499  0.0281   False
    3      lbp  eval  reported  0.0480  0.0260   False
    """
    data = expand_counts(data, count, trial=trial)
    check_option(rate, GUARANTEED_RATES, "rate")
    check_option(holds_for, HOLDS_FOR, "holds_for")
    target = check_rate(target, "target")
    level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
        reference_subject=reference_subject,
    )
    labels = _group_labels(data, group)
    protocol = Protocol(threshold=rate, target=target, on=on, apply_to=apply_to,
                        resample=resample)
    unit = protocol.unit(trials, subject=subject, reference_subject=reference_subject)
    splits = protocol.splits(trials)
    choose = _Chooser(trials, splits.on, rate, target, level, unit)
    sign = orientation_sign(trials)
    rows = []
    for g in reported_groups(trials, splits):
        source = choose.source(g)
        holds = "population" if source is g or holds_for == "population" else "reported"
        t, bound = choose.guaranteed(source, rate_layout(g, rate, unit)
                                    if holds == "reported" else None)
        base = dict(zip(trials.key_names, g.key, strict=True))
        base.update(rate=rate, target=target, confidence_level=level, threshold=sign * t,
                    threshold_split=source.split, holds_for=holds, bound=bound, alpha=alpha,
                    resample=unit, threshold_from=SAME_TRIALS if source is g else source.split)
        for name, mask in _subsets(g, labels):
            rows.append({**base, "group": name, **_realised(g, mask, t, rate, target, unit,
                                                           level, alpha)})
    return pd.DataFrame(rows, columns=[*trials.by, *GUARANTEE_COLUMNS])


def _group_labels(data: pd.DataFrame, group: str | None) -> np.ndarray | None:
    if group is None:
        return None
    if group not in data.columns:
        raise SchemaError(ERROR_GROUP_COLUMN.format(value=group, found=list(data.columns)))
    return data[group].to_numpy()


def _subsets(g: Group, labels: np.ndarray | None):
    """``(group value, trial mask)``: all the trials (None), then each group value."""
    yield None, None
    if labels is None:
        return
    mine = labels if g.rows is None else labels[g.rows]
    for value in pd.unique(mine):
        yield (value.item() if isinstance(value, np.generic) else value), mine == value


class _Chooser:
    """The guaranteed thresholds of the source groups (the ``on`` split's, or each group
    itself), computed once per (source, layout of the trials predicted)."""

    def __init__(self, trials: Trials, on, rate: str, target: float, level: float, unit: str):
        self.trials, self.on, self.rate, self.target, self.level, self.unit = (
            trials, on, rate, target, level, unit)
        sources = trials.groups if on is None else select_split(trials, on, name="on")
        self.sources = {g.key[:-1] if on is not None else g.key: g for g in sources}
        self.cache: dict = {}

    def source(self, g: Group) -> Group:
        return self.sources[g.key[:-1] if self.on is not None else g.key]

    def guaranteed(self, source: Group, new: tuple[float, float] | None) -> tuple[float, float]:
        import warnings

        key = (source.key, new)
        if key not in self.cache:
            t, bound = guaranteed_threshold(
                source, group_sweep(source), rate=self.rate, target=self.target,
                confidence_level=self.level, resample=self.unit, new=new)
            if math.isnan(t):
                warnings.warn(WARN_NO_GUARANTEE.format(
                    where=group_where(self.trials, source), rate=self.rate.upper(),
                    target=self.target, level=self.level, bound=bound,
                    needed=math.ceil(-math.log(1 - self.level) / self.target)),
                    BiosigWarning, stacklevel=4)
            self.cache[key] = (t, bound)
        return self.cache[key]


def _realised(g: Group, mask, t: float, rate: str, target: float, unit: str, level: float,
              alpha: float) -> dict:
    """Counts and rates of the (masked) trials at threshold ``t`` and the test of
    "``rate`` is at most ``target``" on them."""
    sub = g if mask is None else _subset(g, mask)
    gen = sub.genuine
    n_gen, n_imp = int(gen.sum()), int((~gen).sum())
    nan = float("nan")
    if math.isnan(t):
        return dict(n_genuine=n_gen, n_impostor=n_imp, fa=nan, fr=nan, far=nan, frr=nan,
                    pvalue=nan, reject=False)
    accepted = sub.scores >= t
    fa, fr = int((accepted & ~gen).sum()), int((~accepted & gen).sum())
    n_class = n_imp if rate == "far" else n_gen
    p = exceedance_pvalue(rate_design(sub, t, rate, unit), target, level) if n_class else nan
    return dict(n_genuine=n_gen, n_impostor=n_imp, fa=fa, fr=fr,
                far=fa / n_imp if n_imp else nan, frr=fr / n_gen if n_gen else nan,
                pvalue=p, reject=bool(p < alpha))


def _subset(g: Group, mask: np.ndarray) -> Group:
    return Group(g.key, g.scores[mask], g.genuine[mask], g.trial[mask],
                 None if g.rows is None else g.rows[mask],
                 None if g.subject is None else g.subject[mask],
                 reference=None if g.reference is None else g.reference[mask])

