"""Tests of demographic differentials: every pair of groups of a system, every pair of systems on
a figure of merit; p-values adjusted per family.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from .._core.options import Adjust, NonFinite, Orientation
from .._core.pairwise import adjust_pvalues as _adjust
from .._core.replicates import bootstrap_pvalue
from .._core.schema import SchemaError, check_option
from .._core.validation import check_adjust, check_alpha, check_confidence_level
from .._core.validation import check_n_resamples as _check_resamples
from .._kernels import fairness as _fair
from .._kernels.resample import percentile_interval
from ._plan import (
    _BOOT,
    COMPARE_FAIRNESS_COLUMNS,
    COMPARE_GROUPS_COLUMNS,
    ERROR_ONE_GROUP,
    ERROR_ONE_SYSTEM,
    FAIRNESS_METRICS,
    TEST_METHODS,
    FairnessMetric,
    GroupCriterion,
    Impostors,
    TestMethod,
    _check_weight,
    _cluster_counts,
    _counts,
    _doc,
    _frame,
    _group_replicates,
    _method,
    _pair_counts,
    _Plan,
    _plan,
    _replicates,
    _rng,
)


def _score_test(k1, n1, k2, n2, level):
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = test_proportions_2indep(k1, n1, k2, n2, method="score", compare="diff")
        low, high = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff",
                                               alpha=1 - level)
    stat, p = float(res.statistic), float(res.pvalue)
    if not np.isfinite(p):  # pooled rate 0 or 1: both groups identical, no evidence
        stat, p = 0.0, 1.0
    return stat, p, float(low), float(high)


def _bootstrap_test(est: float, d: np.ndarray, level: float):
    """``(statistic, pvalue, low, high)`` of one difference from its replicated differences
    ``d`` (NaN replicates dropped): estimate / replicate s.d., the two-sided bootstrap
    p-value and the percentile interval."""
    d = d[np.isfinite(d)]
    p = bootstrap_pvalue(d)
    sd = float(np.std(d, ddof=1)) if d.size > 1 else float("nan")
    stat = est / sd if sd > 0 else (0.0 if est == 0 else float("nan"))
    lo, hi = (float(v) for v in percentile_interval(d, level))
    return stat, p, lo, hi


@_doc
def compare_groups(
    data: pd.DataFrame,
    /,
    *,
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
    threshold: GroupCriterion | float = "fmr",
    target: float = 1e-3,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = None,
    test: TestMethod = "auto",
    adjust: Adjust | None = "holm",
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Is the FMR (FNMR) of group a different from group b's? Every pair, every system.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    {common}
    test : {"auto", "wilson", "bootstrap"}
        ``"auto"``: ``"bootstrap"`` with a subject column (subjects resampled within each
        group, independently between the two groups; p-value: twice the smaller share of
        replicated differences on either side of 0, +1 corrected; percentile interval),
        else ``"wilson"`` (score test of two proportions and Newcombe's hybrid score
        interval, statsmodels). Trials of one subject are not independent: with a subject
        column the binomial tests reject too often (docs/validity.md).
    adjust : str or None
        statsmodels ``multipletests`` code; the family is all rows of one (system, split):
        both metrics, every pair.
    alpha, confidence_level : float
        Level of ``reject`` and of the intervals.
    n_resamples, seed
        Bootstrap replicates and seed.

    Returns
    -------
    DataFrame
        One row per (system, split, metric, pair), pairs in group order: ``system, split,
        metric`` (``"fmr"``/``"fnmr"``), ``group_a, group_b, impostors, threshold_from, threshold``,
        ``n_a, n_b`` (trials of the class), ``rate_a, rate_b``, ``estimate`` = rate_a −
        rate_b, ``statistic`` (score z; bootstrap: estimate / replicate s.d.), ``pvalue``,
        ``test``, ``adjust``, ``pvalue_adj``, ``alpha``, ``reject``,
        ``confidence_level``, ``ci_low``, ``ci_high``.

    Examples
    --------
    >>> t = pbs.compare_groups(pbs.datasets.example_demographic_trials(), target=0.01,
    ...                        n_resamples=200, seed=1)
    >>> t[["system", "metric", "group_a", "group_b", "test"]].head(2)
      system metric group_a group_b       test
    0  net_a    fmr       A       B  bootstrap
    1  net_a    fmr       A       C  bootstrap
    """
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite, reference_subject=reference_subject,
    )
    how = _method(test, plan, TEST_METHODS, _BOOT, "test")
    level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    adj = check_adjust(adjust)
    n_resamples = _check_resamples(n_resamples)
    rng = _rng(seed)
    k = len(plan.labels)
    n_clusters = plan.cluster_group.size
    out = []
    for rep in plan.reported:
        n_gen, n_imp, fr, fa = _counts(rep.part, rep.threshold, k)
        present = [j for j in range(k) if n_gen[j] + n_imp[j] > 0]
        if len(present) < 2:
            raise SchemaError(ERROR_ONE_GROUP.format(
                function="compare_groups", where=f" for system {rep.part.system!r}",
                found=[plan.labels[j] for j in present]))
        reps = {}
        if how == _BOOT:
            cc = _cluster_counts(rep.part, rep.threshold, n_clusters)
            for j in present:
                reps[j] = dict(zip(("fmr", "fnmr"), _group_replicates(
                    rng, n_resamples, plan, rep.part, rep.threshold, j, cc), strict=True))
        rows = []
        for metric, err, tot in (("fmr", fa, n_imp), ("fnmr", fr, n_gen)):
            for a, b in itertools.combinations(present, 2):
                ra = err[a] / tot[a] if tot[a] else float("nan")
                rb = err[b] / tot[b] if tot[b] else float("nan")
                est = ra - rb
                if tot[a] == 0 or tot[b] == 0:
                    stat = p = lo = hi = float("nan")
                elif how == _BOOT:
                    stat, p, lo, hi = _bootstrap_test(est, reps[a][metric] - reps[b][metric],
                                                      level)
                else:
                    stat, p, lo, hi = _score_test(int(err[a]), int(tot[a]), int(err[b]),
                                                  int(tot[b]), level)
                rows.append(dict(
                    system=rep.part.system, split=rep.part.split, metric=metric,
                    group_a=plan.labels[a], group_b=plan.labels[b], impostors=plan.impostors,
                    threshold_from=rep.threshold_from,
                    threshold=plan.sign * rep.threshold, n_a=int(tot[a]), n_b=int(tot[b]),
                    rate_a=ra, rate_b=rb, estimate=est, statistic=stat, pvalue=p,
                    test=how, adjust=adj if adj is not None else "none", alpha=alpha,
                    confidence_level=level, ci_low=lo, ci_high=hi,
                    resample=plan.resample if how == _BOOT else None,
                ))
        p_adj, reject = _adjust(np.array([r["pvalue"] for r in rows]), adj, alpha)
        for r, pa, rj in zip(rows, p_adj, reject, strict=True):
            r["pvalue_adj"], r["reject"] = float(pa), bool(rj)
        out.extend(rows)
    return _frame(out, COMPARE_GROUPS_COLUMNS)


def _fom_values(metric: str, fmr: np.ndarray, fnmr: np.ndarray, weight: float) -> np.ndarray:
    if metric == "fdr":
        return _fair.fdr(fmr, fnmr, weight)
    if metric == "garbe":
        return _fair.garbe(fmr, fnmr, weight)
    if metric == "inequity_rate":
        return _fair.inequity_rate(fmr, fnmr, weight)
    return _fair.ratio(fmr if metric == "fmr_ratio" else fnmr)


@_doc
def compare_fairness(
    data: pd.DataFrame,
    /,
    *,
    metric: FairnessMetric = "fdr",
    weight: float = 0.5,
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
    threshold: GroupCriterion | float = "fmr",
    target: float = 1e-3,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = None,
    adjust: Adjust | None = "holm",
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Is system A fairer than system B? Every pair of systems on one figure of merit.

    A paired bootstrap: subjects (or, without a subject column, trials) are resampled
    within each group, with the same draws for every system, so the correlation of
    systems scored on the same people is kept. Each system keeps its global threshold
    (chosen once, as in :func:`fairness`); the replicate figure of merit is computed from
    the replicate per-group rates.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    metric : {"fdr", "garbe", "inequity_rate", "fmr_ratio", "fnmr_ratio"}
        The figure of merit compared.
    weight : float
        Its :math:`\alpha`.
    {common}
    adjust : str or None
        statsmodels ``multipletests`` code; the family is all pairs of one split.
    alpha, confidence_level, n_resamples, seed
        Level of ``reject``, of the percentile interval, replicates and seed.

    Returns
    -------
    DataFrame
        One row per pair of systems (input order) and split: ``system_a, system_b, split,
        metric, impostors, weight, threshold_from, threshold_a, threshold_b, value_a,
        value_b``,
        ``estimate`` = value_a − value_b, ``pvalue`` (twice the smaller share of
        replicated differences on either side of 0, +1 corrected; undefined replicates
        dropped), ``test``, ``resample`` (``"subject"`` or ``"trial"``), ``n_resamples``,
        ``adjust, pvalue_adj, alpha, reject, confidence_level, ci_low, ci_high``.

    Examples
    --------
    >>> t = pbs.compare_fairness(pbs.datasets.example_demographic_trials(), target=0.01,
    ...                          n_resamples=200, seed=0)
    >>> t[["system_a", "system_b", "metric", "resample"]]
      system_a system_b metric resample
    0    net_a    net_b    fdr  subject
    1    net_a    net_c    fdr  subject
    2    net_b    net_c    fdr  subject
    """
    check_option(metric, FAIRNESS_METRICS, "metric")
    w = _check_weight(weight)
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite, reference_subject=reference_subject,
    )
    level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    adj = check_adjust(adjust)
    n_resamples = _check_resamples(n_resamples)
    rng = _rng(seed)
    n_clusters = plan.cluster_group.size
    systems = list(dict.fromkeys(r.part.system for r in plan.reported))
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(found=systems))
    splits = list(dict.fromkeys(r.part.split for r in plan.reported))
    out = []
    for sp in splits:
        reps = {r.part.system: r for r in plan.reported if r.part.split == sp}
        names = [s for s in systems if s in reps]
        counts = {s: _cluster_counts(reps[s].part, reps[s].threshold, n_clusters) for s in names}
        ok = _usable_groups(plan, counts, names, sp)
        est_rates, rep_rates = _group_rate_replicates(plan, counts, names, ok, n_resamples, rng,
                                                      reps)
        values = {s: float(_fom_values(metric, *est_rates[s], w)) for s in names}
        boots = {s: np.asarray(_fom_values(metric, *rep_rates[s], w)) for s in names}
        rows = []
        for a, b in itertools.combinations(names, 2):
            est = values[a] - values[b]
            p, lo, hi = _paired_difference(boots[a] - boots[b], est, level)
            rows.append(dict(
                system_a=a, system_b=b, split=sp, metric=metric, impostors=plan.impostors,
                weight=w, threshold_from=reps[a].threshold_from,
                threshold_a=plan.sign * reps[a].threshold,
                threshold_b=plan.sign * reps[b].threshold, value_a=values[a], value_b=values[b],
                estimate=est, pvalue=p, test="paired cluster bootstrap",
                resample=plan.resample, n_resamples=n_resamples,
                adjust=adj if adj is not None else "none", alpha=alpha,
                confidence_level=level, ci_low=lo, ci_high=hi,
            ))
        p_adj, reject = _adjust(np.array([r["pvalue"] for r in rows]), adj, alpha)
        for r, pa, rj in zip(rows, p_adj, reject, strict=True):
            r["pvalue_adj"], r["reject"] = float(pa), bool(rj)
        out.extend(rows)
    return _frame(out, COMPARE_FAIRNESS_COLUMNS)


def _usable_groups(plan: _Plan, counts: dict, names: list, sp) -> list[int]:
    """The groups with both classes in every system of the split (at least two)."""
    ok = [j for j in range(len(plan.labels)) if all(
        counts[s][0][plan.cluster_group == j].sum() > 0 and counts[s][2][plan.cluster_group == j].sum() > 0
        for s in names)]
    if len(ok) < 2:
        raise SchemaError(ERROR_ONE_GROUP.format(function="compare_fairness",
                                                 where=f" in split {sp!r}",
                                                 found=[plan.labels[j] for j in ok]))
    return ok


def _group_rate_replicates(plan: _Plan, counts: dict, names: list, ok: list[int], n_resamples: int,
                           rng, reported: dict) -> tuple[dict, dict]:
    """Per system: the (FMR, FNMR) of every usable group, and their paired replicates
    (under ``"two_way"`` each system's FMR from its (probe, reference) pairs)."""
    est_rates = {}
    rep_rates = {s: (np.empty((n_resamples, len(ok))), np.empty((n_resamples, len(ok))))
                 for s in names}
    for s in names:
        c = counts[s]
        est_rates[s] = (
            np.array([c[3][plan.cluster_group == j].sum() / c[2][plan.cluster_group == j].sum() for j in ok]),
            np.array([c[1][plan.cluster_group == j].sum() / c[0][plan.cluster_group == j].sum() for j in ok]),
        )
    for col, j in enumerate(ok):
        members = np.flatnonzero(plan.cluster_group == j)
        if plan.two_way:
            parts = [reported[s].part for s in names]
            members = np.union1d(members, np.concatenate([
                p.ref_cluster[~p.genuine & p.counted & (p.group == j)] for p in parts]))
            res = _replicates(rng, n_resamples, members, [(counts[s][1], counts[s][0]) for s in names],
                              [_pair_counts(reported[s].part, reported[s].threshold,
                                            np.flatnonzero(plan.cluster_group == j))
                               for s in names])
            fmr, fnmr = res[len(names):], res[:len(names)]
        else:
            cols = [col_ for s in names for col_ in ((counts[s][3], counts[s][2]),
                                                     (counts[s][1], counts[s][0]))]
            res = _replicates(rng, n_resamples, members, cols)
            fmr, fnmr = res[0::2], res[1::2]
        for i, s in enumerate(names):
            rep_rates[s][0][:, col] = fmr[i]
            rep_rates[s][1][:, col] = fnmr[i]
    return est_rates, rep_rates


def _paired_difference(d: np.ndarray, est: float, level: float) -> tuple[float, float, float]:
    """p-value and percentile interval of the finite replicated differences."""
    d = d[np.isfinite(d)]
    if d.size and np.isfinite(est):
        p = bootstrap_pvalue(d)
        lo, hi = (float(v) for v in percentile_interval(d, level))
    else:
        p = lo = hi = float("nan")
    return p, lo, hi
