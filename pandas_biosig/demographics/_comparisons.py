"""Tests of demographic differentials: every pair of groups of a system, every pair of systems on
a figure of merit; p-values adjusted per family.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd

from .._core import pairwise as _pw
from .._core.counted import expand_counts
from .._core.options import Adjust, NonFinite, Orientation
from .._core.pairwise import adjust_pvalues as _adjust
from .._core.protocol import AUTO
from .._core.replicates import (
    bootstrap_pvalue,
    constant_replicates,
)
from .._core.schema import SchemaError, check_option
from .._core.validation import check_adjust, check_alpha, check_confidence_level, check_weight
from .._core.validation import check_n_resamples as _check_resamples
from .._kernels import fairness as _fair
from .._kernels.resample import percentile_interval
from ._pairs import pair_columns
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
    _cluster_counts,
    _counts,
    _doc,
    _frame,
    _method,
    _Plan,
    _plan,
    _replicates,
    _rng,
    check_clusters,
    group_members,
)
from ._two_way import replicates as _two_way_replicates


@_doc
def compare_groups(
    data: pd.DataFrame,
    /,
    *,
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
    threshold: GroupCriterion | float = "far",
    target: float = 1e-3,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    test: TestMethod = "auto",
    baseline: Hashable | None = None,
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
    count: str | None = None,
) -> pd.DataFrame:
    r"""Is the FMR (FNMR) of group a different from group b's? Every pair (or every group
    against a baseline), every system.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    {common}
    {subject}
    test : {"auto", "wilson", "bootstrap"}
        ``"auto"``: ``"bootstrap"`` with a subject column (subjects resampled within each
        group, independently between the two groups; p-value: twice the smaller share of
        replicated differences on either side of 0, +1 corrected; percentile interval),
        else ``"wilson"`` (score test of two proportions and Newcombe's hybrid score
        interval, statsmodels). Trials of one subject are not independent: with a subject
        column the binomial tests reject too often (docs/validity.md). With a
        ``reference_subject`` column too, the bootstrap draws the people in both roles,
        one draw for every group of the system (within each group), so two groups' FMRs
        that share references (``impostors="all"``) are resampled together.
    baseline : group label, optional
        Compare every other group with this one only: G − 1 pairs instead of
        G (G − 1) / 2, so the cost follows the number of groups. The other group is
        ``group_a``, the baseline ``group_b``, so ``estimate`` is rate(group) −
        rate(baseline). Each row equals the all-pairs row of the same two groups
        (``estimate`` and the interval negated where the baseline comes first in group
        order); only the adjusted p-values differ, their family being smaller. A baseline
        that is not a group with trials of the system raises ``ValueError``
        (:data:`pandas_biosig._core.pairwise.ERROR_BASELINE`).
    adjust : str or None
        statsmodels ``multipletests`` code; the family is all rows of one (system, split):
        both metrics, every pair.
    alpha, confidence_level : float
        Level of ``reject`` and of the intervals.
    n_resamples, seed
        Bootstrap replicates and seed.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (system, split, metric, pair), pairs in group order: ``system, split,
        metric`` (``"fmr"``/``"fnmr"``), ``group_a, group_b, impostors, threshold_from, threshold``,
        ``n_a, n_b`` (trials of the class), ``rate_a, rate_b``, ``estimate`` = rate_a −
        rate_b, ``statistic`` (score z; bootstrap: estimate / replicate s.d.), ``pvalue``,
        ``test``, ``adjust``, ``pvalue_adj``, ``alpha``, ``reject``,
        ``confidence_level``, ``ci_low``, ``ci_high``, ``resample`` (``"two_way"``
        with subject and reference subject columns, ``"subject"``, ``"trial"`` for the
        bootstrap without subjects, None for the score test) and
        ``fallback_reason`` (None, or why the interval is not the bootstrap's).

    Examples
    --------
    >>> t = pbs.compare_groups(pbs.datasets.example_demographic_trials(), target=0.01,
    ...                        n_resamples=200, seed=1)
    >>> t[["system", "metric", "group_a", "group_b", "test"]].head(2)
      system metric group_a group_b       test
    0  net_a    fmr       A       B  bootstrap
    1  net_a    fmr       A       C  bootstrap
    """
    data = expand_counts(data, count, trial=trial)
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite, reference_subject=reference_subject,
    )
    how = _method(test, plan, TEST_METHODS, _BOOT, "test")
    if how == _BOOT:
        check_clusters(plan, "the subject bootstrap of compare_groups", subject,
                       reference_subject)
    level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    adj = check_adjust(adjust)
    n_resamples = _check_resamples(n_resamples)
    rng = _rng(seed)
    k = len(plan.labels)
    out = []
    for rep in plan.reported:
        n_gen, n_imp, fr, fa = _counts(rep.part, rep.threshold, k)
        present = [j for j in range(k) if n_gen[j] + n_imp[j] > 0]
        if len(present) < 2:
            raise SchemaError(ERROR_ONE_GROUP.format(
                function="compare_groups", where=f" for system {rep.part.system!r}",
                found=[plan.labels[j] for j in present]))
        reps = (_group_replicates(plan, rep, present, rng, n_resamples) if how == _BOOT
                else None)
        pa, pb = _group_pairs(plan, present, baseline, rep.part)
        parts = [(metric, pair_columns(reps, metric, pa, pb, counts, level,
                                       _units(plan, metric)), counts[1])
                 for metric, counts in (("fmr", (fa, n_imp)), ("fnmr", (fr, n_gen)))]
        p_adj, reject = _adjust(np.concatenate([c["pvalue"] for _, c, _ in parts]), adj, alpha)
        m = 2 * pa.size
        same = dict(system=[rep.part.system] * m, split=[rep.part.split] * m,
                    impostors=[plan.impostors] * m, threshold_from=[rep.threshold_from] * m,
                    threshold=np.full(m, plan.sign * rep.threshold), test=[how] * m,
                    adjust=[adj if adj is not None else "none"] * m, alpha=np.full(m, alpha),
                    confidence_level=np.full(m, level),
                    resample=[plan.resample if how == _BOOT else None] * m)
        cols = {
            "metric": [metric for metric, _, _ in parts for _ in range(pa.size)],
            "group_a": [plan.labels[j] for j in pa] * 2, "group_b": [plan.labels[j] for j in pb] * 2,
            "n_a": np.concatenate([tot[pa] for *_, tot in parts]).astype(np.int64),
            "n_b": np.concatenate([tot[pb] for *_, tot in parts]).astype(np.int64),
            **{name: _joined([c[name] for _, c, _ in parts])
               for name in ("rate_a", "rate_b", "estimate", "statistic", "pvalue", "ci_low",
                            "ci_high", "fallback_reason")},
            "pvalue_adj": p_adj, "reject": reject.astype(bool), **same,
        }
        out.append(cols)
    return _frame_columns(out, COMPARE_GROUPS_COLUMNS)


def _group_pairs(plan: _Plan, present: list[int], baseline, part) -> tuple[np.ndarray, np.ndarray]:
    """Group indices (a, b) of the rows: every pair in group order, or each other group
    against the baseline."""
    present_arr = np.asarray(present)
    if baseline is None:
        first, second = np.triu_indices(len(present), 1)  # itertools.combinations' order
        return present_arr[first], present_arr[second]
    labels = [plan.labels[j] for j in present]
    b = present[_pw.pairs(labels, baseline, f"system {part.system!r}, split {part.split!r}",
                              "groups")[0][1]]
    others = present_arr[present_arr != b]
    return others, np.full(others.size, b)


def _units(plan: _Plan, metric: str) -> str:
    """What the bootstrap of ``metric`` resamples, as its exact fallback names them."""
    if plan.two_way and metric == "fmr":
        return "people"
    return "subjects" if plan.has_subject else "trials"


def _joined(values: list):
    if isinstance(values[0], list):
        return [v for part in values for v in part]
    return np.concatenate(values)


def _frame_columns(parts: list[dict], columns: list[str]) -> pd.DataFrame:
    """The rows of every family, from their columns (as :func:`_frame` builds them from
    records: Python objects inferred, numbers as numbers)."""
    data = {name: _joined([p[name] for p in parts]) for name in columns}
    return pd.DataFrame(data, columns=columns)


def _group_replicates(plan: _Plan, rep, present, rng, n_resamples) -> dict:
    """Per group: its FMR and FNMR replicates (its subjects resampled; with people in
    both roles, one draw of the people for every group) and how many subjects (people)
    hold each class."""
    if plan.two_way:
        return _two_way_replicates(rng, n_resamples, plan, [(rep.part, rep.threshold)],
                                   present)[0]
    cc = _cluster_counts(rep.part, rep.threshold, plan.cluster_group.size)
    members_of = group_members(plan.cluster_group, (cc[0] + cc[2]) > 0, len(plan.labels))
    out = {}
    for j in present:
        members = members_of(j)
        reps = _replicates(rng, n_resamples, members, [(cc[3], cc[2]), (cc[1], cc[0])])
        out[j] = {"fmr": (reps[0], int((cc[2][members] > 0).sum())),
                  "fnmr": (reps[1], int((cc[0][members] > 0).sum()))}
    return out


def _fom_values(metric: str, fmr: np.ndarray, fnmr: np.ndarray,
                weight: float) -> np.ndarray | float:
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
    threshold: GroupCriterion | float = "far",
    target: float = 1e-3,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    baseline: Hashable | None = None,
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
    count: str | None = None,
) -> pd.DataFrame:
    r"""Is system A fairer than system B? Every pair of systems on one figure of merit.

    A paired bootstrap: subjects (or, without a subject column, trials) are resampled
    within each group, with the same draws for every system, so the correlation of
    systems scored on the same people is kept; with a ``reference_subject`` column too,
    people in both roles (one draw of the split's people, within their groups, for every
    system and group; an impostor trial weighs the product of its two people's
    multiplicities). Each system keeps its global threshold
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
    {subject}
    baseline : system name, optional
        Compare every other system with this one only, as in :func:`pandas_biosig.compare`:
        the other system is ``system_a``, the baseline ``system_b``. A baseline that is not
        a system of a split raises ``ValueError``
        (:data:`pandas_biosig._core.pairwise.ERROR_BASELINE`).
    adjust : str or None
        statsmodels ``multipletests`` code; the family is all pairs of one split.
    alpha, confidence_level, n_resamples, seed
        Level of ``reject``, of the percentile interval, replicates and seed.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per pair of systems (input order) and split: ``system_a, system_b, split,
        metric, impostors, weight, threshold_from, threshold_a, threshold_b, value_a,
        value_b``,
        ``estimate`` = value_a − value_b, ``pvalue`` (twice the smaller share of
        replicated differences on either side of 0, +1 corrected; undefined replicates
        dropped), ``test``, ``resample`` (``"two_way"``, ``"subject"`` or ``"trial"``),
        ``n_resamples``,
        ``adjust, pvalue_adj, alpha, reject, confidence_level, ci_low, ci_high`` and
        ``fallback_reason``: when every replicated difference is the same (the bootstrap
        cannot measure its uncertainty) the row has no p-value and no interval (NaN) and
        says why; None otherwise. Subjects follow the one subject rule (a subject id on
        every trial, at least two subjects in every group).

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
    data = expand_counts(data, count, trial=trial)
    check_option(metric, FAIRNESS_METRICS, "metric")
    w = check_weight(weight)
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite, reference_subject=reference_subject,
    )
    check_clusters(plan, "the subject bootstrap of compare_fairness", subject,
                   reference_subject)
    level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    adj = check_adjust(adjust)
    n_resamples = _check_resamples(n_resamples)
    rng = _rng(seed)
    n_clusters = plan.cluster_group.size
    systems = list(dict.fromkeys(r.part.system for r in plan.reported))
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(found=systems))
    by_split: dict = {}
    for r in plan.reported:
        by_split.setdefault(r.part.split, {})[r.part.system] = r
    out = []
    for sp, reps in by_split.items():
        names = [s for s in systems if s in reps]
        counts = {s: _cluster_counts(reps[s].part, reps[s].threshold, n_clusters) for s in names}
        ok = _usable_groups(plan, counts, names, sp)
        est_rates, rep_rates = _group_rate_replicates(plan, counts, names, ok, n_resamples, rng,
                                                      [reps[s] for s in names])
        values = {s: float(_fom_values(metric, *est_rates[s], w)) for s in names}
        boots = {s: np.asarray(_fom_values(metric, *rep_rates[s], w)) for s in names}
        rows = []
        for a, b in _system_pairs(names, baseline, sp):
            est = values[a] - values[b]
            p, lo, hi, why = _paired_difference(boots[a] - boots[b], est, level)
            rows.append(dict(
                system_a=a, system_b=b, split=sp, metric=metric, impostors=plan.impostors,
                weight=w, threshold_from=reps[a].threshold_from,
                threshold_a=plan.sign * reps[a].threshold,
                threshold_b=plan.sign * reps[b].threshold, value_a=values[a], value_b=values[b],
                estimate=est, pvalue=p, test="paired cluster bootstrap",
                resample=plan.resample, n_resamples=n_resamples,
                adjust=adj if adj is not None else "none", alpha=alpha,
                confidence_level=level, ci_low=lo, ci_high=hi, fallback_reason=why,
            ))
        p_adj, reject = _adjust(np.array([r["pvalue"] for r in rows]), adj, alpha)
        for row, pa, rj in zip(rows, p_adj, reject, strict=True):
            row["pvalue_adj"], row["reject"] = float(pa), bool(rj)
        out.extend(rows)
    return _frame(out, COMPARE_FAIRNESS_COLUMNS)


def _system_pairs(names: list, baseline, sp) -> list[tuple]:
    """The pairs of systems of a split: all, in input order, or each against the baseline."""
    if baseline is None:
        return list(itertools.combinations(names, 2))
    return [(names[a], names[b]) for a, b in _pw.pairs(names, baseline, f"split {sp!r}")]


def _group_sums(plan: _Plan, per_cluster: np.ndarray) -> np.ndarray:
    """Per group: the sum of a per-cluster count (exact: integer counts below 2**53)."""
    return np.bincount(plan.cluster_group, weights=per_cluster, minlength=len(plan.labels))


def _usable_groups(plan: _Plan, counts: dict, names: list, sp) -> list[int]:
    """The groups with both classes in every system of the split (at least two)."""
    usable = np.ones(len(plan.labels), dtype=bool)
    for s in names:
        usable &= (_group_sums(plan, counts[s][0]) > 0) & (_group_sums(plan, counts[s][2]) > 0)
    ok = np.flatnonzero(usable).tolist()
    if len(ok) < 2:
        raise SchemaError(ERROR_ONE_GROUP.format(function="compare_fairness",
                                                 where=f" in split {sp!r}",
                                                 found=[plan.labels[j] for j in ok]))
    return ok


#: (FMR, FNMR) of the usable groups of one system, or their replicates
_Rates = tuple[np.ndarray, np.ndarray]


def _group_rate_replicates(plan: _Plan, counts: dict, names: list, ok: list[int], n_resamples: int,
                           rng, reported: list) -> tuple[dict[Hashable, _Rates], dict[Hashable, _Rates]]:
    """Per system: the (FMR, FNMR) of every usable group, and their paired replicates
    (``reported``: each system's reported part, in ``names`` order; with people in both
    roles one draw of the split's people serves every system and group)."""
    est_rates = {}
    rep_rates = {s: (np.empty((n_resamples, len(ok))), np.empty((n_resamples, len(ok))))
                 for s in names}
    for s in names:
        c = counts[s]
        est_rates[s] = (_group_sums(plan, c[3])[ok] / _group_sums(plan, c[2])[ok],
                        _group_sums(plan, c[1])[ok] / _group_sums(plan, c[0])[ok])
    if plan.two_way:
        both = _two_way_replicates(rng, n_resamples, plan,
                                   [(r.part, r.threshold) for r in reported], ok)
        for s, drawn in zip(names, both, strict=True):
            for col, j in enumerate(ok):
                rep_rates[s][0][:, col] = drawn[j]["fmr"][0]
                rep_rates[s][1][:, col] = drawn[j]["fnmr"][0]
        return est_rates, rep_rates
    held = np.zeros(plan.cluster_group.size, dtype=bool)  # subjects with trials here
    for s in names:
        held |= (counts[s][0] + counts[s][2]) > 0
    members_of = group_members(plan.cluster_group, held, len(plan.labels))
    for col, j in enumerate(ok):
        members = members_of(j)
        cols = []
        for s in names:
            c = counts[s]
            cols += [(c[3], c[2]), (c[1], c[0])]
        res = _replicates(rng, n_resamples, members, cols)
        for i, s in enumerate(names):
            rep_rates[s][0][:, col] = res[2 * i]
            rep_rates[s][1][:, col] = res[2 * i + 1]
    return est_rates, rep_rates


#: ``fallback_reason`` of a figure-of-merit difference whose replicates cannot vary.
FALLBACK_NO_TEST = (
    "every bootstrap replicate gives the difference {value:.6g}, so the bootstrap cannot "
    "measure its uncertainty: no p-value and no interval"
)


def _paired_difference(d: np.ndarray, est: float, level: float):
    """p-value and percentile interval of the finite replicated differences, and the
    reason there are none when the replicates cannot vary."""
    d = d[np.isfinite(d)]
    nan = float("nan")
    if d.size and np.isfinite(est) and constant_replicates(d):
        return nan, nan, nan, FALLBACK_NO_TEST.format(value=float(d[0]))
    if d.size and np.isfinite(est):
        p = bootstrap_pvalue(d)
        lo, hi = (float(v) for v in percentile_interval(d, level))
    else:
        p = lo = hi = nan
    return p, lo, hi, None
