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
    reported_groups,
    select_split,
)
from .._core.schema import BiosigWarning, Group, SchemaError, Trials, check_option, validate_trials
from .._core.validation import check_alpha, check_confidence_level, check_rate
from .._kernels.cluster import exceedance_pvalue

__all__ = ["GUARANTEE_COLUMNS", "threshold_guarantee"]

GuaranteedRate = Literal["far", "frr"]

GUARANTEE_COLUMNS = [
    "system", "split", "group", "rate", "target", "confidence_level", "threshold",
    "threshold_split", "threshold_from", "bound", "n_genuine", "n_impostor", "fa", "fr", "far",
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
    one-sided ``confidence_level`` upper bound of ``rate`` is at most ``target``: the
    true rate at that threshold exceeds ``target`` with probability at most
    ``1 - confidence_level``. On every reported split (and each ``group`` value) the
    realised FAR and FRR at it are given, with a one-sided test of "the rate is at most
    ``target``".

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
        Confidence that the true rate at the chosen threshold is at most ``target``.
    alpha : float, default 0.05
        Level of the test on the reported trials (``reject``: the realised rate is
        significantly above ``target``).
    on, apply_to : split value, "auto" or None, default "auto"
        Where the threshold is chosen and what is reported (see
        :func:`pandas_biosig.error_rates`): ``"auto"`` chooses on dev and reports on eval
        when the table has both; otherwise each group on its own trials
        (``threshold_from`` ``"same trials"``; the guarantee still holds for the true
        rate, the realised one is then the development rate).
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
        ``threshold_from`` (as in :func:`pandas_biosig.ci`); ``bound``, the one-sided
        upper bound of ``rate`` at the threshold on the trials it was chosen on (at most
        ``target``); on the reported trials ``n_genuine``, ``n_impostor``, ``fa``,
        ``fr``, ``far``, ``frr``; ``pvalue`` of "the rate is at most ``target``" (on the
        effective counts of the subjects' design), ``alpha``, ``reject`` (the operating
        point did not hold: ``pvalue < alpha``); ``resample``. When no threshold can be
        guaranteed (too few trials: a bound at zero errors is about
        :math:`-\ln(1-\gamma)/n`) a :class:`~pandas_biosig.BiosigWarning` says so and the
        system's values are NaN.

    Raises
    ------
    SchemaError
        An invalid table, missing subject or reference ids, a ``group`` column that is
        not there.
    ValueError
        ``target``, ``confidence_level`` or ``alpha`` outside (0, 1), an unknown ``rate``.

    See Also
    --------
    pandas_biosig.error_rates : ``threshold="far"`` (the empirical quantile).
    pandas_biosig.ci : intervals at a threshold.

    Notes
    -----
    The bound at a threshold is Clopper–Pearson's one-sided bound on Korn & Graubard's
    effective counts (the design effect of the people the trials share and
    Satterthwaite's degrees of freedom; :func:`pandas_biosig.ci` explains them). The
    bound grows with the errors the threshold allows, so the chosen threshold is where
    it reaches ``target``; its true rate exceeds ``target`` only when the bound at the
    threshold whose true rate is ``target`` fell below it, with probability at most
    :math:`1 - \gamma`. The test on the reported trials is the exact one-sided binomial
    test on the same effective counts.

    References
    ----------
    Korn, E. L., & Graubard, B. I. (1998). Confidence intervals for proportions with small
    expected number of positive counts estimated from survey data. *Survey Methodology,
    24*\(2), 193–201.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> g = pbs.threshold_guarantee(trials, target=0.05)
    >>> g[["system", "split", "threshold_from", "bound", "far", "reject"]].round(4)
        system split threshold_from   bound     far  reject
    0      cnn  eval            dev  0.0499  0.0656   False
    1  cnn_aug  eval            dev  0.0495  0.0542   False
    2      gmm  eval            dev  0.0497  0.0323   False
    3      lbp  eval            dev  0.0494  0.0292   False
    """
    data = expand_counts(data, count, trial=trial)
    check_option(rate, GUARANTEED_RATES, "rate")
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
    on_split = splits.on
    chosen = _choose(trials, on_split, rate, target, level, unit)
    sign = orientation_sign(trials)
    rows = []
    for g in reported_groups(trials, splits):
        t, bound, source = chosen[g.key[:-1] if on_split is not None else g.key]
        src = source.split
        base = dict(zip(trials.key_names, g.key, strict=True))
        base.update(rate=rate, target=target, confidence_level=level, threshold=sign * t,
                    threshold_split=src, bound=bound, alpha=alpha, resample=unit,
                    threshold_from=SAME_TRIALS if source is g else src)
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


def _choose(trials: Trials, on, rate, target, level, unit) -> dict:
    """Each source group's guaranteed threshold and bound, keyed as the reported groups
    find them (without the split when chosen on ``on``)."""
    import warnings

    sources = trials.groups if on is None else select_split(trials, on, name="on")
    out = {}
    for g in sources:
        t, bound = guaranteed_threshold(g, group_sweep(g), rate=rate, target=target,
                                        confidence_level=level, resample=unit)
        if math.isnan(t):
            n = g.n_impostor if rate == "far" else g.n_genuine
            warnings.warn(WARN_NO_GUARANTEE.format(
                where=group_where(trials, g), rate=rate.upper(), target=target, level=level,
                bound=bound, needed=math.ceil(-math.log(1 - level) / target), n=n),
                BiosigWarning, stacklevel=3)
        out[g.key[:-1] if on is not None else g.key] = (t, bound, g)
    return out


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

