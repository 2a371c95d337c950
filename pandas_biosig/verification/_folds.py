r"""Repeated runs (folds): :func:`fold_metrics`, :func:`fold_summary`, :func:`compare_folds`.

A metric per fold and system, its mean and spread across folds, and the sign test across
folds for every pair of systems (pairs, families and adjustment of
:mod:`pandas_biosig._core.pairwise`).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from .. import stats
from .._core import pairwise as _pw
from .._core.counted import expand_counts
from .._core.options import (
    Adjust,
    Alternative,
    BootstrapMetric,
    Criterion,
    NonFinite,
    Orientation,
)
from .._core.protocol import AUTO, Protocol, Resolved
from .._core.replicates import FIXED_THRESHOLD_METRICS, canonical_metric, metric_function
from .._core.schema import Trials, check_option, factorize_keys, validate_trials
from .._core.validation import (
    check_adjust,
    check_alpha,
    check_alternative,
    check_confidence_level,
    check_costs,
    check_rate,
)
from .._kernels.pairwise import sign_median_interval
from .._kernels.rates import Sweep
from ._comparison import ERROR_TARGET
from ._resampling import BOOTSTRAP_METRICS

__all__ = [
    "COMPARE_FOLDS_COLUMNS",
    "FOLD_METRICS",
    "FOLD_METRICS_COLUMNS",
    "FOLD_SUMMARY_COLUMNS",
    "compare_folds",
    "fold_metrics",
    "fold_summary",
]


#: Metrics of the repeated-runs functions (the bootstrap's metrics, one value per fold).
FOLD_METRICS: dict[str, str] = dict(BOOTSTRAP_METRICS)

#: Metrics for which a higher value is better (all others are errors or costs).
_HIGHER_IS_BETTER = {"auc"}

ERROR_FOLD_COLUMN = (
    "fold={fold!r} must be a column of its own, not one of the other keys {others}"
)

#: Columns of :func:`compare_folds` (after the ``by`` columns).
COMPARE_FOLDS_COLUMNS = [
    *_pw.PAIR_COLUMNS,
    "n_folds",
    "wins_a",
    "wins_b",
    "ties",
    "mean_a",
    "mean_b",
]

#: Columns of :func:`fold_metrics` (after the ``by`` columns).
FOLD_METRICS_COLUMNS = [
    "fold",
    "system",
    "split",
    "metric",
    "estimate",
    "threshold_from",
    "threshold",
    "n_genuine",
    "n_impostor",
    "resample",
]

#: Columns of :func:`fold_summary` (after the ``by`` columns).
FOLD_SUMMARY_COLUMNS = ["system", "split", "metric", "n_folds", "mean", "std", "min", "max"]


def _fold_trials(data, *, fold, by, system, trial, label, score, split, orientation, nonfinite):
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    others = [*by_cols, system, trial, label, score] + ([split] if split is not None else [])
    if fold in others:
        raise ValueError(ERROR_FOLD_COLUMN.format(fold=fold, others=others))
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=[*by_cols, fold], orientation=orientation, nonfinite=nonfinite,
    )
    return trials, len(by_cols)


def _check_fold_metric(metric, target, p_target, c_miss, c_fa):
    metric = canonical_metric(check_option(metric, FOLD_METRICS, "metric"))
    if metric in ("fnmr_at_fmr", "fmr_at_fnmr"):
        if target is None:
            raise ValueError(ERROR_TARGET.format(metric=metric))
        target = check_rate(target, "target")
    check_costs(p_target, c_miss, c_fa)
    return metric, target


def _fold_values(trials: Trials, metric: str, *, threshold, weight, target, p_target, c_miss,
                 c_fa, on, apply_to) -> list[tuple[Resolved, float, Sweep]]:
    f = metric_function(metric, target=target, p_target=p_target, c_miss=c_miss, c_fa=c_fa)
    members = Protocol(
        threshold=threshold, weight=weight, target=target, p_target=p_target, c_miss=c_miss,
        c_fa=c_fa, on=on, apply_to=apply_to,
    ).resolve(trials, needs_threshold=metric in FIXED_THRESHOLD_METRICS)
    out = []
    for m in members:
        sw = m.sweep
        value = float("nan") if metric in FIXED_THRESHOLD_METRICS and math.isnan(m.threshold) else f(sw, m.threshold)
        out.append((m, float(value), sw))
    return out


def fold_metrics(
    data: pd.DataFrame,
    /,
    *,
    fold: str = "fold",
    metric: BootstrapMetric = "hter",
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""A metric of every system in every fold of a repeated experiment.

    Repeated runs (cross-validation folds, seeds, protocols) are rows of one tidy table
    with a ``fold`` column. Each (fold, system, split) is evaluated on its own, as
    ``pbs.error_rates(data, by=fold)`` would.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table with a fold column.
    fold : str, default "fold"
        The column naming the run of each trial. Trial ids need only be unique within a
        (fold, system, split).
    metric : str, default "hter"
        One of :data:`FOLD_METRICS` (the bootstrap's metrics): ``"far"``, ``"frr"``,
        ``"hter"`` at the threshold policy, or a threshold-free one (``"eer"`` — ROCCH —,
        ``"eer_threshold"``, ``"min_hter"``, ``"min_dcf"``, ``"auc"``, ``"cllr"``…).
    threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        The threshold policy of ``"far"``, ``"frr"``, ``"hter"`` (as in
        :func:`pandas_biosig.error_rates`), applied in each fold: ``on="auto"`` (the
        default) chooses each fold's threshold on that fold's dev split when the table
        has dev and eval splits, and reports eval. ``target`` and the costs also
        parametrize ``"fnmr_at_fmr"``/``"fmr_at_fnmr"`` and ``"min_dcf"``.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (``by`` group, fold, system, split): the ``by`` columns, then ``fold``
        (the fold value, whatever the fold column's name), ``system``, ``split``,
        ``metric``, ``estimate`` (the metric in that fold), ``threshold_from`` (as in
        :func:`pandas_biosig.error_rates`; None for a threshold-free metric),
        ``threshold`` (score units; NaN for a threshold-free metric), ``n_genuine``,
        ``n_impostor``, ``resample`` (None: nothing is resampled).

    Raises
    ------
    SchemaError
        An invalid table, e.g. a missing fold column or a one-class (fold, system).
    ValueError
        An unknown metric (:data:`ERROR_OPTION`), a fold column that is also another key
        (:data:`ERROR_FOLD_COLUMN`).

    See Also
    --------
    fold_summary : mean and spread across folds.
    compare_folds : sign test across folds for every pair of systems.

    Examples
    --------
    The two splits of the example data, read as two folds:

    >>> trials = pbs.datasets.example_trials()
    >>> per_fold = pbs.fold_metrics(trials, fold="split", split=None, metric="eer")
    >>> per_fold[["fold", "system", "metric", "estimate"]].head(3).round(4)
      fold   system         metric  estimate
    0  dev      cnn  eer_threshold    0.0417
    1  dev  cnn_aug  eer_threshold    0.0385
    2  dev      gmm  eer_threshold    0.1010
    """
    data = expand_counts(data, count, trial=trial)
    metric, target = _check_fold_metric(metric, target, p_target, c_miss, c_fa)
    trials, n_by = _fold_trials(
        data, fold=fold, by=by, system=system, trial=trial, label=label, score=score,
        split=split, orientation=orientation, nonfinite=nonfinite,
    )
    sign = -1.0 if trials.orientation == "distance" else 1.0
    rows = []
    for m, value, sw in _fold_values(
        trials, metric, threshold=threshold, weight=weight, target=target, p_target=p_target,
        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to,
    ):
        key = m.group.key
        row = dict(zip(trials.by[:n_by], key[:n_by], strict=True))
        row.update(fold=key[n_by], system=key[-2], split=key[-1], metric=metric,
                   estimate=value, threshold_from=m.threshold_from,
                   threshold=sign * m.threshold, n_genuine=sw.p, n_impostor=sw.n,
                   resample=None)
        rows.append(row)
    return pd.DataFrame(rows, columns=[*trials.by[:n_by], *FOLD_METRICS_COLUMNS])


def fold_summary(
    data: pd.DataFrame,
    /,
    *,
    fold: str = "fold",
    metric: BootstrapMetric = "hter",
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Mean and spread of a metric across folds, for every system (bob's multi-metrics).

    Parameters
    ----------
    data : DataFrame
        Tidy trial table with a fold column.
    fold, metric, threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        As in :func:`fold_metrics`.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, split): the ``by`` columns, ``system``,
        ``split``, ``metric``, ``n_folds`` (folds with a value), ``mean``, ``std`` (the
        sample standard deviation across folds, ddof = 1; NaN for one fold), ``min``,
        ``max``.

    Raises
    ------
    SchemaError, ValueError
        As :func:`fold_metrics`.

    See Also
    --------
    fold_metrics : the per-fold values.
    compare_folds : sign test across folds.

    Notes
    -----
    .. math::

        \bar m = \frac1F \sum_{f=1}^F m_f, \qquad
        s = \sqrt{\frac{1}{F-1}\sum_{f=1}^F (m_f - \bar m)^2}.

    The spread describes the variability of the experiment across runs; it is not a
    confidence interval (folds that share trials or subjects are not independent).

    References
    ----------
    Anjos, A., El Shafey, L., Wallace, R., Günther, M., McCool, C., & Marcel, S. (2012).
    Bob: A free signal processing and machine learning toolbox for researchers. In
    *Proceedings of the 20th ACM International Conference on Multimedia* (pp. 1449–1452).

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> summ = pbs.fold_summary(trials, fold="split", split=None, metric="eer")
    >>> summ[["system", "n_folds", "mean", "std"]].round(4)
        system  n_folds    mean     std
    0      cnn        2  0.0477  0.0085
    1  cnn_aug        2  0.0422  0.0052
    2      gmm        2  0.0990  0.0029
    3      lbp        2  0.1589  0.0066
    """
    data = expand_counts(data, count, trial=trial)
    per_fold = fold_metrics(
        data, fold=fold, metric=metric, threshold=threshold, weight=weight, target=target,
        p_target=p_target, c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, by=by,
        system=system, trial=trial, label=label, score=score, split=split,
        orientation=orientation, nonfinite=nonfinite,
    )
    metric = canonical_metric(metric)  # checked by fold_metrics
    by_cols = list(per_fold.columns[: len(per_fold.columns) - len(FOLD_METRICS_COLUMNS)])
    # group by hand: pandas' groupby would turn a None split into NaN
    keys = per_fold[[*by_cols, "system", "split"]].itertuples(index=False, name=None)
    groups: dict[tuple, list[float]] = {}
    for key, value in zip(keys, per_fold["estimate"].to_numpy(), strict=True):
        groups.setdefault(key, []).append(value)
    rows = []
    for key, values in groups.items():
        x = np.asarray(values, dtype=float)
        x = x[np.isfinite(x)]
        row = dict(zip([*by_cols, "system", "split"], key, strict=True))
        row.update(
            metric=metric,
            n_folds=x.size,
            mean=float(x.mean()) if x.size else np.nan,
            std=float(x.std(ddof=1)) if x.size > 1 else np.nan,
            min=float(x.min()) if x.size else np.nan,
            max=float(x.max()) if x.size else np.nan,
        )
        rows.append(row)
    out = pd.DataFrame(rows, columns=[*by_cols, *FOLD_SUMMARY_COLUMNS])
    out["n_folds"] = out["n_folds"].astype(np.int64)
    return out


def compare_folds(
    data: pd.DataFrame,
    /,
    *,
    fold: str = "fold",
    metric: BootstrapMetric = "hter",
    baseline: Hashable | None = None,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    alpha: float = 0.05,
    adjust: Adjust | None = "holm",
    confidence_level: float = 0.95,
    alternative: Alternative = "two-sided",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Sign test across folds for every pair of systems, adjusted for multiplicity.

    For each pair, the metric is computed in every fold both systems ran, and the sign
    test asks whether A − B is positive more (or less) often than chance (Günter, 2004,
    eq. 7; ties dropped). One row per unordered pair in input order (or per system against
    ``baseline``), within each family (``by`` group and split); adjustment as in
    :func:`compare`.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table with a fold column.
    fold, metric, threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        As in :func:`fold_metrics`.
    baseline : system name, optional
        Compare every other system with this one only (it is ``system_b``).
    alpha, adjust, confidence_level
        As in :func:`compare`.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        About the fold differences metric(A) − metric(B): ``"greater"`` means they tend to
        be positive.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        The ``by`` columns, then (:data:`COMPARE_FOLDS_COLUMNS`) the columns of
        :func:`compare` up to ``method``, with

        - ``test``: ``"sign"``; ``metric``: the metric;
        - ``n``: folds where A and B differ (ties dropped);
        - ``estimate``: the median over folds of metric(A) − metric(B);
        - ``statistic``: folds with metric(A) − metric(B) > 0;
        - ``pvalue``: the exact binomial sign test (1 when every fold ties);
        - ``ci_low``, ``ci_high``: the distribution-free interval of the median difference
          that inverts the sign test (order statistics; infinite when too few folds allow
          the level);

        then ``n_folds`` (folds both ran), ``wins_a``, ``wins_b`` (folds where A, B is
        better: lower for error metrics and costs, higher for ``"auc"``), ``ties``, and
        ``mean_a``, ``mean_b`` (the metric's mean over those folds).

    Raises
    ------
    SchemaError, ValueError
        As :func:`fold_metrics` and :func:`compare`.

    See Also
    --------
    fold_metrics : the per-fold values behind the test.
    pandas_biosig.stats.sign_test : the scalar test.
    compare : tests on the trials of one run.

    Notes
    -----
    With :math:`d_f = m_A(f) - m_B(f)`, :math:`Z = \#\{f: d_f > 0\}` and
    :math:`n = \#\{f: d_f \ne 0\}`, under H0 :math:`Z \sim \mathrm{Bin}(n, 1/2)`:

    .. math::

        P_{greater} = \sum_{i=Z}^{n} \binom{n}{i}\, 0.5^{\,n}.

    With few folds the test has little power: 5 folds can never reach p < 0.05 two-sided
    (the smallest p is :math:`2 \cdot 0.5^5 = 0.0625`). The folds must be independent runs;
    folds that share test trials or subjects are not.

    References
    ----------
    Günter, S. (2004). *Vergleich von Erkennungsmethoden* (Technical Report IAM-04-001).
    Institut für Informatik und angewandte Mathematik, Universität Bern.

    Examples
    --------
    Eight folds made from the subjects of the example data:

    >>> trials = pbs.datasets.example_trials()
    >>> trials["fold"] = trials.subject.str[1:].astype(int) % 8
    >>> res = pbs.compare_folds(trials, metric="eer", split=None)
    >>> res[["system_a", "system_b", "wins_a", "wins_b", "pvalue", "pvalue_adj"]].round(4)
      system_a system_b  wins_a  wins_b  pvalue  pvalue_adj
    0      cnn  cnn_aug       4       4  1.0000      1.0000
    1      cnn      gmm       8       0  0.0078      0.0469
    2      cnn      lbp       8       0  0.0078      0.0469
    3  cnn_aug      gmm       8       0  0.0078      0.0469
    4  cnn_aug      lbp       8       0  0.0078      0.0469
    5      gmm      lbp       8       0  0.0078      0.0469
    """
    data = expand_counts(data, count, trial=trial)
    metric, target = _check_fold_metric(metric, target, p_target, c_miss, c_fa)
    level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    adjust = check_adjust(adjust)
    alternative = check_alternative(alternative)
    trials, n_by = _fold_trials(
        data, fold=fold, by=by, system=system, trial=trial, label=label, score=score,
        split=split, orientation=orientation, nonfinite=nonfinite,
    )
    order = {s: i for i, s in enumerate(factorize_keys(data[system])[1])}
    values: dict[tuple, dict[Hashable, dict[Hashable, float]]] = {}
    for m, value, _ in _fold_values(
        trials, metric, threshold=threshold, weight=weight, target=target, p_target=p_target,
        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to,
    ):
        key = m.group.key
        fam = (*key[:n_by], key[-1])
        values.setdefault(fam, {}).setdefault(key[-2], {})[key[n_by]] = value
    names = [*trials.by[:n_by], "split"]
    higher_better = metric in _HIGHER_IS_BETTER
    rows, family_of = [], []
    for i_fam, (fam, by_system) in enumerate(values.items()):
        systems = sorted(by_system, key=lambda s: order.get(s, len(order)))
        for a, b in _pw.pairs(systems, baseline, _pw.where(names, fam)):
            row = dict(zip(trials.by[:n_by], fam[:n_by], strict=True))
            row.update(system_a=systems[a], system_b=systems[b], split=fam[-1], metric=metric,
                       test="sign", confidence_level=level)
            row.update(_sign_row(by_system[systems[a]], by_system[systems[b]], level,
                                 alternative, higher_better))
            rows.append(row)
            family_of.append(i_fam)
    out = _pw.finish(rows, trials.by[:n_by], COMPARE_FOLDS_COLUMNS, family_of, adjust, alpha)
    for c in ("n_folds", "wins_a", "wins_b", "ties"):
        out[c] = out[c].astype(np.int64)
    return out


def _sign_row(va: dict, vb: dict, level: float, alternative: Alternative,
              higher_better: bool) -> dict:
    """The sign test of one pair over the folds both systems have a finite value in
    (``va``, ``vb``: fold -> value), with the median difference and its interval."""
    folds = [f for f in va if f in vb and np.isfinite(va[f]) and np.isfinite(vb[f])]
    xa = np.array([va[f] for f in folds], dtype=float)
    xb = np.array([vb[f] for f in folds], dtype=float)
    d = xa - xb
    n_pos, n_neg = int(np.count_nonzero(d > 0)), int(np.count_nonzero(d < 0))
    if n_pos + n_neg:
        res = stats.sign_test(n_pos, n_neg, alternative=alternative)
        row = dict(n=res.n, statistic=res.statistic, pvalue=res.pvalue,
                   log10_pvalue=res.log10_pvalue, method=res.method)
    else:  # every fold ties (or none is shared): no evidence either way
        row = dict(n=0, statistic=0.0, pvalue=1.0 if d.size else np.nan,
                   log10_pvalue=0.0 if d.size else np.nan,
                   method="sign test over runs (Guenter 2004 eq. 7, exact binomial)")
    low, high = sign_median_interval(d, level, alternative)
    row.update(
        estimate=float(np.median(d)) if d.size else np.nan,
        ci_low=low,
        ci_high=high,
        alternative=alternative,
        n_folds=d.size,
        wins_a=n_pos if higher_better else n_neg,
        wins_b=n_neg if higher_better else n_pos,
        ties=int(d.size - n_pos - n_neg),
        mean_a=float(xa.mean()) if d.size else np.nan,
        mean_b=float(xb.mean()) if d.size else np.nan,
    )
    return row
