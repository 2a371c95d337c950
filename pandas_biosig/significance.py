r"""The DataFrame significance layer: intervals per system, tests for every pair of systems.

Tidy trial table in, long tidy table out. The scalar formulas live in
:mod:`pandas_biosig.stats`, thresholds in :mod:`pandas_biosig.metrics` and the bootstrap in
:mod:`pandas_biosig.resampling`; this module validates the table, chooses the thresholds,
aligns the systems on ``trial``, counts what the tests need and shapes the result.

=======================================  ==================================================
:func:`ci`                               FAR, FRR (binomial), HTER (Bengio & Mariéthoz eq.
                                         13), DCF (eq. 14) intervals per system
:func:`compare`                          every pair of systems (or every system against a
                                         baseline), adjusted for multiplicity per family
:func:`pairwise_matrix`                  the k × k view of one column of a pairwise table
:func:`fold_metrics`                     a metric per fold (repeated runs)
:func:`fold_summary`                     its mean and spread across folds
:func:`compare_folds`                    sign test across folds for every pair
:func:`eer_bound_table`                  literature mode: pairwise Hofbauer & Uhl bounds
                                         from reported EERs
=======================================  ==================================================

A **family** of tests is one (``by`` group, split): the rows of the returned table that share
those values. Multiple-comparison adjustment (statsmodels ``multipletests``) runs once per
family, over exactly those rows.

Invalid options raise ``ValueError`` with one of the ``ERROR_*`` messages of this module;
invalid tables raise :class:`~pandas_biosig.SchemaError`.
"""

from __future__ import annotations

import gc
import itertools
import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Literal, get_args

import numpy as np
import pandas as pd

from . import stats
from ._kernels.cluster import design_effect
from ._kernels.mover import mover_sum
from ._kernels.pairwise import (
    decision_errors,
    pair_counts,
    sign_median_interval,
)
from ._kernels.rates import Sweep
from ._schema import (  # ERROR_OPTION: the message of check_option, named in the docs
    ERROR_MISSING_COLUMNS,
    ERROR_OPTION,  # noqa: F401
    Group,
    SchemaError,
    Trials,
    _factorize,
    check_option,
)
from ._typing import Alternative, Criterion, NonFinite, Orientation
from ._validation import check_costs as _check_costs
from ._validation import check_rate as _check_rate
from .metrics import _validate
from .protocol import AUTO, RESAMPLE, Protocol, Resolved, group_where, subject_clusters
from .resampling import (
    _FIXED,
    BOOTSTRAP_METRICS,
    ERROR_LABELS_DIFFER,
    ERROR_N_RESAMPLES,
    _metric_function,
    _progress,
    _rng,
    align_pair,
    bootstrap_difference,
)
from .results import TestResult

__all__ = [
    "ADJUST_METHODS",
    "DECISION_TESTS",
    "DecisionTestError",
    "default_test",
    "NULL_HYPOTHESIS",
    "CI_COLUMNS",
    "CI_COMBINE",
    "CI_METRICS",
    "COMPARE_COLUMNS",
    "COMPARE_FOLDS_COLUMNS",
    "EER_BOUND_COLUMNS",
    "FOLD_METRICS",
    "FOLD_METRICS_COLUMNS",
    "FOLD_SUMMARY_COLUMNS",
    "TESTS",
    "ci",
    "compare",
    "compare_folds",
    "eer_bound_table",
    "fold_metrics",
    "fold_summary",
    "pairwise_matrix",
]

# --------------------------------------------------------------------------- options

Test = Literal[
    "hter_dependent",
    "hter_independent",
    "naive",
    "class",
    "mcnemar",
    "gunter_simple",
    "gunter_paired",
    "bootstrap",
]

#: The tests of :func:`compare`: name -> what it tests.
TESTS: dict[str, str] = {
    "hter_dependent": "HTER_A - HTER_B, Bengio & Mariethoz eq. 16 (discordant counts)",
    "hter_independent": "HTER_A - HTER_B, Bengio & Mariethoz eq. 15 (rates only)",
    "naive": "HTER as a proportion of all trials, eq. 18 (over-confident, illustration only)",
    "class": "classification error (FA + FR)/(NI + NC), eq. 17 (over-confident, illustration)",
    "mcnemar": "McNemar's test on the per-trial errors at the decisions",
    "gunter_simple": "recognition (correct-decision) rates, Guenter eq. 3 (unpaired)",
    "gunter_paired": "recognition (correct-decision) rates, Guenter eq. 5-6 (paired)",
    "bootstrap": "paired bootstrap of the difference of `metric`",
}
#: The metric each test is about (the ``metric`` column); bootstrap: the ``metric`` argument.
_TEST_METRIC = {
    "hter_dependent": "hter",
    "hter_independent": "hter",
    "naive": "hter",
    "class": "error_rate",
    "mcnemar": "error_rate",
    "gunter_simple": "recognition_rate",
    "gunter_paired": "recognition_rate",
}
_HTER_METHOD = {
    "hter_dependent": "dependent",
    "hter_independent": "independent",
    "naive": "naive",
    "class": "class",
}
#: Tests whose ``statistic`` is a signed z (it changes sign when A and B are swapped).
_SIGNED_STATISTIC = {*_HTER_METHOD, "gunter_simple", "gunter_paired", "bootstrap"}

#: Interval metrics of :func:`ci`.
CI_METRICS: dict[str, str] = {
    "far": "false acceptance rate FA/NI, binomial interval (statsmodels proportion_confint)",
    "frr": "false rejection rate FR/NC, binomial interval (statsmodels proportion_confint)",
    "hter": "(FAR + FRR)/2, MOVER of the FAR and FRR intervals (or eq. 13 of Bengio & Mariethoz)",
    "dcf": "normalized actual DCF at the threshold, MOVER (or the normal interval, generalized eq. 14)",
}

#: How :func:`ci` builds the HTER and DCF intervals from the FAR and FRR.
CI_COMBINE: dict[str, str] = {
    "mover": "MOVER (Zou & Donner): the binomial intervals of FAR and FRR (method=) combined",
    "bengio": "normal interval of Bengio & Mariethoz eq. 13/14 (too narrow at low error rates)",
}

#: Metrics of the repeated-runs functions (the bootstrap's metrics, one value per fold).
FOLD_METRICS: dict[str, str] = dict(BOOTSTRAP_METRICS)
#: Metrics for which a higher value is better (all others are errors or costs).
_HIGHER_IS_BETTER = {"auc"}


def _multitest_codes() -> tuple[str, ...]:
    from statsmodels.stats import multitest

    alias = getattr(multitest, "multitest_alias", None)
    if alias:
        return tuple(alias)
    return tuple(c for names in multitest._alias_list for c in names)  # pragma: no cover


#: Every method code statsmodels' ``multipletests`` accepts (passed through unchanged).
ADJUST_METHODS: tuple[str, ...] = _multitest_codes()
_ALTERNATIVES: tuple[str, ...] = get_args(Alternative)

# --------------------------------------------------------------------------- messages

ERROR_ALPHA = "alpha must be a number strictly between 0 and 1, got {value!r}"
ERROR_CONFIDENCE_LEVEL = (
    "confidence_level must be a number strictly between 0 and 1, got {value!r}"
)
ERROR_ALTERNATIVE = "alternative={value!r} is not one of {allowed}"
ERROR_ADJUST = (
    "adjust={value!r} is not a statsmodels multipletests method; use one of {allowed}, "
    "or None for no adjustment"
)
ERROR_ONE_SYSTEM = (
    "{where} has only one system ({systems}); a comparison needs at least two systems"
)
ERROR_BASELINE = "baseline={value!r} is not a system of {where}; its systems: {systems}"
ERROR_METRIC_UNUSED = (
    "metric={value!r} is only used by test='bootstrap' (the other tests are about a fixed "
    "quantity: {test!r} compares {fixed!r}), got test={test!r}"
)
ERROR_TARGET = "metric={metric!r} needs target= (a rate in [0, 1])"
ERROR_NO_COMMON = (
    "systems {a!r} and {b!r} share no {cls} trial{where}; a paired test needs trials that "
    "both scored"
)
ERROR_FOLD_COLUMN = (
    "fold={fold!r} must be a column of its own, not one of the other keys {others}"
)
ERROR_NOT_PAIRWISE = (
    "expected a pairwise table with columns 'system_a' and 'system_b' (the result of "
    "compare, compare_folds or eer_bound_table); its columns: {found}"
)
ERROR_MATRIX_COLUMN = "col={col!r} is not a column of the table; its columns: {found}"
ERROR_MATRIX_FAMILIES = (
    "the table holds {n} families of tests ({names}: {families}); a matrix shows one: "
    "select its rows first, e.g. table[table[{first!r}] == {example!r}]"
)
ERROR_MATRIX_DUPLICATE_PAIRS = (
    "the table holds the pair ({a!r}, {b!r}) {n} times (several tests or a concatenation "
    "of results?); a matrix shows one value per pair: select one test's rows first"
)
ERROR_REPORTED_NOT_A_FRAME = (
    "expected a DataFrame of reported EERs (one row per method), got {type}"
)
ERROR_DUPLICATE_SYSTEMS = "{where}lists system(s) {systems} more than once"
ERROR_N_MISSING = (
    "the bound needs N, the number of trials of the common dataset: pass n=<int> or "
    "n='<column>' (the table has columns {found})"
)
ERROR_N_DIFFERS = (
    "{where}has different numbers of trials N ({values}); the bound compares EERs "
    "measured on one common dataset (use by= to separate the datasets)"
)

#: Tests that compare the systems' decisions (errors at each system's threshold).
DECISION_TESTS = ("naive", "class", "mcnemar", "gunter_simple", "gunter_paired")
#: The null hypothesis of each test of :func:`compare` (the ``null_hypothesis`` column).
NULL_HYPOTHESIS = {
    "hter_dependent": "HTER_A = HTER_B",
    "hter_independent": "HTER_A = HTER_B",
    "naive": "HTER_A = HTER_B, each HTER read as one proportion of all trials",
    "class": "(FA + FR)/(NI + NC) is the same for A and B",
    "mcnemar": "A and B are wrong on as many trials (P(only A wrong) = P(only B wrong))",
    "gunter_simple": "A and B make as many correct decisions",
    "gunter_paired": "A and B make as many correct decisions",
    "bootstrap": "metric_A = metric_B",
}
_OWN_RULES = ", at each system's own threshold (tests the decision rules)"


class DecisionTestError(ValueError):
    """A decision-level test was asked to compare systems at thresholds it cannot judge."""


ERROR_DECISION_TEST = (
    "test={test!r} tests '{null}' for the two systems' decisions at their thresholds. "
    "Here each system's threshold is chosen by threshold={criterion!r} (from {where!r}), "
    "so the thresholds differ by estimation noise and the test detects that the two "
    "decision rules differ, not that the systems do: on two identical systems it rejects "
    "far more often than alpha. Ways out: threshold=<number>, one common threshold fixed "
    "in advance; test='hter_dependent', a class-balanced test whose null is 'HTER_A = "
    "HTER_B' and which holds its level at per-system thresholds; or "
    "test_decision_rules=True to test the decision rules themselves (the rows say so in "
    "null_hypothesis)"
)

# --------------------------------------------------------------------------- columns

#: Columns of :func:`ci` (after the ``by`` columns); the shared names mean what they mean
#: in :data:`pandas_biosig.resampling.BOOTSTRAP_COLUMNS`, so the two tables concatenate.
CI_COLUMNS = [
    "system",
    "split",
    "metric",
    "estimate",
    "se",
    "ci_low",
    "ci_high",
    "confidence_level",
    "ci_method",
    "threshold",
    "criterion",
    "threshold_split",
    "threshold_from",
    "resample",
    "n_genuine",
    "n_impostor",
    "p_target",
    "c_miss",
    "c_fa",
]
_PAIR_COLUMNS = [
    "system_a",
    "system_b",
    "split",
    "metric",
    "test",
    "n",
    "estimate",
    "statistic",
    "pvalue",
    "log10_pvalue",
    "adjust",
    "pvalue_adj",
    "alpha",
    "reject",
    "confidence_level",
    "ci_low",
    "ci_high",
    "alternative",
    "method",
]
#: Columns of :func:`compare` (after the ``by`` columns).
COMPARE_COLUMNS = [
    *_PAIR_COLUMNS,
    "threshold_a",
    "threshold_b",
    "threshold_from",
    "resample",
    "null_hypothesis",
]
#: Columns of :func:`compare_folds` (after the ``by`` columns).
COMPARE_FOLDS_COLUMNS = [
    *_PAIR_COLUMNS,
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
    "threshold",
    "n_genuine",
    "n_impostor",
]
#: Columns of :func:`fold_summary` (after the ``by`` columns).
FOLD_SUMMARY_COLUMNS = ["system", "split", "metric", "n_folds", "mean", "std", "min", "max"]
#: Columns of :func:`eer_bound_table` (after the ``by`` columns).
EER_BOUND_COLUMNS = [
    "system_a",
    "system_b",
    "metric",
    "test",
    "n",
    "estimate",
    "statistic",
    "pvalue",
    "log10_pvalue",
    "adjust",
    "pvalue_adj",
    "alpha",
    "reject",
    "verdict",
    "eer_a",
    "eer_b",
    "min_significant_difference",
    "method",
]

# --------------------------------------------------------------------------- validation


def _check_unit(value: Any, message: str) -> float:
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float | np.integer | np.floating)
        or not 0.0 < float(value) < 1.0
    ):
        raise ValueError(message.format(value=value))
    return float(value)


def _check_alpha(alpha: Any) -> float:
    return _check_unit(alpha, ERROR_ALPHA)


def _check_level(confidence_level: Any) -> float:
    return _check_unit(confidence_level, ERROR_CONFIDENCE_LEVEL)


def _check_alternative(alternative: Any) -> str:
    if alternative not in _ALTERNATIVES:
        raise ValueError(ERROR_ALTERNATIVE.format(value=alternative, allowed=list(_ALTERNATIVES)))
    return alternative


def _check_adjust(adjust: Any) -> str | None:
    if adjust is None or adjust == "none":
        return None
    # statsmodels lower-cases the code; accept what it accepts, record it as given
    if not isinstance(adjust, str) or adjust.lower() not in ADJUST_METHODS:
        raise ValueError(ERROR_ADJUST.format(value=adjust, allowed=list(ADJUST_METHODS)))
    return adjust


def _adjust(pvalues: np.ndarray, adjust: str | None, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Adjusted p-values and rejections of one family (NaN p-values are left out)."""
    p = np.asarray(pvalues, dtype=np.float64)
    p_adj = np.full(p.shape, np.nan)
    reject = np.zeros(p.shape, dtype=bool)
    ok = np.isfinite(p)
    if not ok.any():
        return p_adj, reject
    if adjust is None:
        p_adj[ok] = p[ok]
        reject[ok] = p[ok] <= alpha
        return p_adj, reject
    from statsmodels.stats.multitest import multipletests

    # statsmodels' Holm branch calls gc.collect(), which costs a full collection of the
    # process (~0.2 s with pandas and scipy loaded) for every family (statsmodels PR
    # #8671). Freezing the existing objects first makes it collect only the new ones;
    # skipped when the caller has frozen objects of their own.
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    try:
        rej, corrected, _, _ = multipletests(p[ok], alpha=alpha, method=adjust)
    finally:
        if freeze:
            gc.unfreeze()
    p_adj[ok] = corrected
    reject[ok] = rej
    return p_adj, reject


def _key_where(names: Sequence[str], values: Sequence[Any]) -> str:
    parts = [f"{n}={v!r}" for n, v in zip(names, values, strict=True) if n != "split" or v is not None]
    return ", ".join(parts)


# --------------------------------------------------------------------------- protocol


def default_test(test: str, data: Any, subject: str | None) -> str:
    """The test ``"auto"`` stands for: the subject-level paired bootstrap of the HTER when
    the table has a subject column (trial-level tests are too liberal when trials share
    subjects), else the dependent HTER test."""
    if test != AUTO:
        return check_option(test, TESTS, "test")
    has = subject is not None and isinstance(data, pd.DataFrame) and subject in data.columns
    return "bootstrap" if has else "hter_dependent"


def _null_hypothesis(test: str, protocol: Protocol, members: list[Resolved],
                     opt_in: bool) -> str:
    """The null of ``test`` under the protocol; refuses a decision-level test at
    thresholds chosen per system by a criterion, unless ``opt_in``."""
    own_rules = test in DECISION_TESTS and protocol.is_criterion()
    if own_rules and not opt_in:
        raise DecisionTestError(ERROR_DECISION_TEST.format(
            test=test, criterion=protocol.threshold, null=NULL_HYPOTHESIS[test],
            where=members[0].threshold_from if members else protocol.on,
        ))
    return NULL_HYPOTHESIS[test] + (_OWN_RULES if own_rules else "")


def _families(
    trials: Trials, members: list[Resolved], n_by: int
) -> list[tuple[tuple, list[Resolved]]]:
    """Members grouped by (``by`` values, split), families and systems in input order."""
    out: dict[tuple, list[Resolved]] = {}
    for m in members:
        key = m.group.key
        out.setdefault((*key[:n_by], key[-1]), []).append(m)
    return list(out.items())


def _family_names(trials: Trials, n_by: int) -> list[str]:
    return [*trials.by[:n_by], "split"]


def _where(names: Sequence[str], fam: tuple) -> str:
    text = _key_where(names, fam)
    return text if text else "the table"


def _in_where(names: Sequence[str], fam: tuple) -> str:
    text = _key_where(names, fam)
    return f" in {text}" if text else ""


def _pairs(systems: list, baseline, where: str) -> list[tuple[int, int]]:
    """Index pairs (a, b) in input order: all unordered pairs, or each system vs baseline."""
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(where=where, systems=systems))
    if baseline is None:
        return list(itertools.combinations(range(len(systems)), 2))
    if baseline not in systems:
        raise ValueError(ERROR_BASELINE.format(value=baseline, where=where, systems=systems))
    b = systems.index(baseline)
    return [(a, b) for a in range(len(systems)) if a != b]


# --------------------------------------------------------------------------- alignment


def _same_trials(a: np.ndarray, b: np.ndarray) -> bool:
    if a is b:
        return True
    if a.shape != b.shape:
        return False
    try:
        return bool(np.array_equal(a, b))
    except (TypeError, ValueError):  # pragma: no cover - exotic trial ids
        return pd.Index(a).equals(pd.Index(b))


def _error_columns(
    members: list[Resolved], *, common_trials: bool, in_where: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The (n, k) error matrix of a family on its aligned trials, the class of each trial,
    and the (n, k) presence matrix (None when every system scored every trial)."""
    ref = members[0].group
    k = len(members)
    aligned: list[Group] = [ref]
    ragged = False
    for m in members[1:]:
        g = m.group
        if _same_trials(g.trial, ref.trial):
            if not np.array_equal(g.genuine, ref.genuine):
                align_pair(ref, g, common_trials=False, where=in_where)  # raises the label error
            aligned.append(g)
            continue
        same_set = g.trial.size == ref.trial.size and not (
            pd.Index(ref.trial).get_indexer(g.trial) < 0
        ).any()
        if same_set or not common_trials:
            # reorders g to ref's trial order, or raises the SchemaError naming the trials
            aligned.append(align_pair(ref, g, common_trials=False, where=in_where)[1])
        else:
            ragged = True
            break
    if not ragged:
        n = ref.trial.size
        errors = np.empty((n, k), dtype=np.float32, order="F")
        for j, (m, g) in enumerate(zip(members, aligned, strict=True)):
            errors[:, j] = decision_errors(g.scores, m.threshold, g.genuine)
        return errors, ref.genuine, None
    # ragged: the union of the trials, with a presence matrix (common_trials=True)
    codes, uniques = pd.factorize(np.concatenate([m.group.trial for m in members]))
    n = len(uniques)
    bounds = np.cumsum([0] + [m.group.trial.size for m in members])
    errors = np.zeros((n, k), dtype=np.float32, order="F")
    present = np.zeros((n, k), dtype=np.float32, order="F")
    label = np.full(n, -1, dtype=np.int8)
    for j, m in enumerate(members):
        g = m.group
        pos = codes[bounds[j] : bounds[j + 1]]
        seen = label[pos]
        clash = (seen >= 0) & (seen != g.genuine)
        if clash.any():
            trial = g.trial[np.argmax(clash)]
            raise SchemaError(
                ERROR_LABELS_DIFFER.format(trial=trial.item() if isinstance(trial, np.generic) else trial)
            )
        label[pos] = g.genuine
        errors[pos, j] = decision_errors(g.scores, m.threshold, g.genuine)
        present[pos, j] = 1
    return errors, label == 1, present


# --------------------------------------------------------------------------- one pair


def _matrix_test(
    test: str,
    counts: dict[str, np.ndarray],
    a: int,
    b: int,
    *,
    alternative: str,
    mcnemar_method: str,
    names: tuple,
    in_where: str,
) -> TestResult:
    """The test of pair (a, b) from the family's co-occurrence counts."""
    ni, nc = int(counts["n_i"][a, b]), int(counts["n_c"][a, b])
    for cls, size in (("impostor", ni), ("genuine", nc)):
        if size == 0:
            raise SchemaError(
                ERROR_NO_COMMON.format(a=names[0], b=names[1], cls=cls, where=in_where)
            )
    fa_a, fa_b = int(counts["err_i"][a, b]), int(counts["err_i"][b, a])
    fr_a, fr_b = int(counts["err_c"][a, b]), int(counts["err_c"][b, a])
    both_i, both_c = int(counts["both_i"][a, b]), int(counts["both_c"][a, b])
    if test in _HTER_METHOD:
        discordant = {}
        if test == "hter_dependent":
            discordant = dict(
                ni_ab=fa_b - both_i,  # impostor: rejected by A (right), accepted by B (wrong)
                ni_ba=fa_a - both_i,
                nc_ab=fr_b - both_c,  # genuine: accepted by A (right), rejected by B (wrong)
                nc_ba=fr_a - both_c,
            )
        return stats.hter_test(
            fa_a / ni, fr_a / nc, fa_b / ni, fr_b / nc, n_impostor=ni, n_genuine=nc,
            method=_HTER_METHOD[test], alternative=alternative, **discordant,
        )
    n = ni + nc
    wrong_a, wrong_b, both = fa_a + fr_a, fa_b + fr_b, both_i + both_c
    if test == "mcnemar":
        return stats.mcnemar(
            wrong_a - both, wrong_b - both, n=n, method=mcnemar_method, alternative=alternative
        )
    r1, r2 = (n - wrong_a) / n, (n - wrong_b) / n
    r12 = (n - wrong_a - wrong_b + both) / n
    if test == "gunter_simple":
        return stats.recognition_rate_test(r1, r2, n=n, method="simple", alternative=alternative)
    return stats.recognition_rate_test(
        r1, r2, n=n, r12=r12, method="paired", alternative=alternative
    )


def _row(res: TestResult, confidence_level: float) -> dict:
    ci = res.confidence_interval(confidence_level=confidence_level)
    return dict(
        n=res.n,
        estimate=res.estimate,
        statistic=res.statistic,
        pvalue=res.pvalue,
        log10_pvalue=res.log10_pvalue,
        ci_low=ci.low,
        ci_high=ci.high,
        alternative=res.alternative,
        method=res.method,
    )


_NAN_ROW = dict(
    n=0,
    estimate=math.nan,
    statistic=math.nan,
    pvalue=math.nan,
    log10_pvalue=math.nan,
    ci_low=math.nan,
    ci_high=math.nan,
)


def _finish(rows: list[dict], by: Sequence[str], columns: list[str], family_of: list[int],
            adjust: str | None, alpha: float) -> pd.DataFrame:
    """Adjust each family once, over exactly its rows, and build the frame."""
    p = np.array([r["pvalue"] for r in rows], dtype=np.float64)
    fam = np.asarray(family_of)
    p_adj = np.full(p.size, np.nan)
    reject = np.zeros(p.size, dtype=bool)
    for f in dict.fromkeys(family_of):
        idx = np.flatnonzero(fam == f)
        p_adj[idx], reject[idx] = _adjust(p[idx], adjust, alpha)
    for r, pa, rj in zip(rows, p_adj, reject, strict=True):
        r.update(adjust="none" if adjust is None else adjust, pvalue_adj=pa, alpha=alpha,
                 reject=bool(rj))
    out = pd.DataFrame(rows, columns=[*by, *columns])
    out["n"] = out["n"].astype(np.int64)
    out["reject"] = out["reject"].astype(bool)
    return out


# --------------------------------------------------------------------------- ci


def ci(
    data: pd.DataFrame,
    /,
    *,
    metric: str | Sequence[str] = ("far", "frr", "hter", "dcf"),
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    confidence_level: float = 0.95,
    method: str = "beta",
    combine: str = "mover",
    resample: str = "auto",
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Confidence intervals of FAR, FRR, HTER and DCF for every system.

    Each system's threshold is set by a threshold policy (as in
    :func:`pandas_biosig.error_rates`), then the error counts at that threshold give the
    intervals: binomial for FAR and FRR (Clopper–Pearson by default), and for HTER and DCF
    the MOVER combination of those two intervals (default) or the normal interval of
    Bengio & Mariéthoz (2004) eq. 13/14. When the table has a ``subject`` column the
    trials are not taken as independent: each class's count is shrunk to its effective
    sample size (design effect of the per-subject errors, Korn & Graubard 1998) first.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table, one row per (system, trial) with columns ``system, trial, label,
        score`` (names set by the keywords below) and optionally ``split`` and ``subject``.
    metric : str or sequence of str, default ("far", "frr", "hter", "dcf")
        The metrics, one row each (see :data:`CI_METRICS`): ``"far"`` and ``"frr"``
        (binomial interval), ``"hter"`` (eq. 13), ``"dcf"`` (the actual DCF at the threshold,
        normalized as in :func:`pandas_biosig.dcf`, generalized eq. 14).
    threshold : criterion name, number or mapping, default "eer"
        The threshold policy of :func:`pandas_biosig.error_rates`: a number, a mapping
        ``{system: threshold}`` or a criterion (``"eer"``, ``"min_hter"``,
        ``"min_weighted"``, ``"far"``, ``"frr"``, ``"min_dcf"``). All metrics of a system
        are read at the same threshold.
    weight, target : float
        Parameters of the ``"min_weighted"`` and ``"far"``/``"frr"`` criteria.
    on, apply_to : split value, "auto" or None, default "auto"
        The split the thresholds are chosen on and the split(s) reported. ``"auto"``: a
        table with dev and eval splits gets a-priori thresholds, chosen on dev and reported
        on eval; otherwise each group chooses on its own trials (``threshold_from`` says
        ``"same trials"``, and the estimate is optimistic). See
        :mod:`pandas_biosig.protocol`.
    confidence_level : float, default 0.95
        Two-sided level of every interval.
    method : str, default "beta"
        The binomial interval of FAR and FRR: statsmodels' ``proportion_confint`` method
        (``"beta"`` = Clopper–Pearson, ``"wilson"``, ``"normal"``, ``"agresti_coull"``,
        ``"jeffreys"``, ``"binom_test"``), passed through unchanged. Clopper–Pearson is the
        default because it never covers less than the level; Wilson covers only 0.90 at
        FAR = 0.1 % with 100 trials (exact enumeration).
    combine : {"mover", "bengio"}, default "mover"
        The HTER and DCF intervals. ``"mover"``: the MOVER interval (Zou & Donner 2008)
        built from the ``method`` intervals of FAR and FRR; with Clopper–Pearson it covers
        at least 0.95 over error rates 0.1 %–20 %, 100–10,000 genuine trials and 1–10
        impostors per genuine trial (exact enumeration; ``tests/test_protocol.py``).
        ``"bengio"``: the normal interval of eq. 13/14, which is too narrow at low error
        rates (coverage 0.71 at FAR = FRR = 1 % with 100 genuine and 1,000 impostor trials,
        0.67 at 0.1 %; width 0 at zero errors) and fine from a few dozen errors per class
        (0.948 at 1 % with 10,000 genuine trials).
    resample : {"auto", "subject", "label"}, default "auto"
        The unit the trials' dependence is accounted for in. ``"subject"`` (the default
        when the table has a ``subject`` column): FAR and FRR are computed on effective
        counts :math:`x^* = \hat p\,n^*`, :math:`n^* = \frac{N}{d}\,(t_{N-1}/t_{k-1})^2`,
        where ``d`` is the design effect (the cluster-robust variance of the rate over its
        binomial variance, floored at 1) and ``k`` the number of subjects of the class
        (Korn & Graubard 1998); the HTER and DCF intervals combine those. With subject
        effects (s.d. 0.5, 100 subjects) this covers 0.95 where the trial-level interval
        covers 0.73 (``docs/validity.md``); without them it is the trial-level interval
        up to the degrees-of-freedom factor. Missing subject ids and groups of one subject
        raise. ``"label"``: the trials are independent (the only choice without a subject
        column).
    p_target, c_miss, c_fa : float
        Prior and costs of the DCF (and of the ``"min_dcf"`` criterion).
    by : str or list of str, optional
        Extra grouping columns: one row per group, system, split and metric.
    system, trial, label, score, split, subject : str
        Column names (``subject``: read only when the column exists).
    orientation : {"similarity", "distance"}
        ``"distance"``: lower scores are more genuine; thresholds are in the score's units.
    nonfinite : {"raise", "drop", "reject"}
        NaN/inf scores: raise, drop the trials, or count them as failures to acquire
        (tests then compare the trials both systems acquired; see docs/methods.md).

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, split, metric), the ``by`` columns first, then

        - ``system``, ``split``: the group (``split`` is None without a split column);
        - ``metric``: ``"far"``, ``"frr"``, ``"hter"`` or ``"dcf"``;
        - ``estimate``: the metric at the threshold (a fraction; DCF normalized);
        - ``se``: its standard error — :math:`\sqrt{p(1-p)/n}` for FAR/FRR, σ below for
          HTER and DCF (``n`` the effective size under subject clustering);
        - ``ci_low``, ``ci_high``: the interval bounds (with ``combine="bengio"`` not
          clipped to [0, 1], so the width is exactly :math:`2 z \sigma` as in the paper's
          tables);
        - ``confidence_level``;
        - ``ci_method``: the binomial method (``"beta"``…) for FAR/FRR; for HTER and DCF
          ``"mover-<method>"`` or ``"bengio"``; with ``"-deff"`` appended when the
          counts were shrunk by the subjects' design effect;
        - ``threshold``: the threshold applied, in score units;
        - ``criterion``, ``threshold_split``: how and on which split it was chosen
          (``"fixed"`` and None for given thresholds);
        - ``threshold_from``: the split it was chosen on, ``"same trials"`` or ``"fixed"``;
        - ``resample``: ``"subject"`` when the interval accounts for subject clusters,
          None when it treats the trials as independent;
        - ``n_genuine``, ``n_impostor``: NC and NI;
        - ``p_target``, ``c_miss``, ``c_fa``: the DCF parameters.

        The names shared with :func:`pandas_biosig.bootstrap` mean the same thing, so
        ``pd.concat([pbs.ci(...), pbs.bootstrap(...)])`` gives one table of intervals.

    Raises
    ------
    SchemaError
        An invalid table, or a split named by ``on``/``apply_to`` that does not exist.
    ValueError
        An unknown metric or method (:data:`ERROR_OPTION`), ``confidence_level`` outside
        (0, 1) (:data:`ERROR_CONFIDENCE_LEVEL`), an unknown criterion or bad costs.

    See Also
    --------
    pandas_biosig.stats.hter_ci, pandas_biosig.stats.dcf_ci, pandas_biosig.stats.rate_ci :
        the scalar intervals used here.
    pandas_biosig.bootstrap : bootstrap intervals (also for EER, minDCF, AUC...).
    compare : tests between systems.

    Notes
    -----
    With :math:`z = \Phi^{-1}((1+\delta)/2)`, FAR = FA/NI and FRR = FR/NC at the threshold,

    .. math::

        \mathrm{HTER} \pm z\,\sqrt{\frac{\mathrm{FAR}(1-\mathrm{FAR})}{4 N_I}
              + \frac{\mathrm{FRR}(1-\mathrm{FRR})}{4 N_C}}, \qquad
        \mathrm{DCF} \pm \frac{z}{D}\sqrt{\bigl(c_{fa}(1-p)\bigr)^2
              \frac{\mathrm{FAR}(1-\mathrm{FAR})}{N_I}
              + (c_{miss}\,p)^2 \frac{\mathrm{FRR}(1-\mathrm{FRR})}{N_C}}

    with :math:`D = \min(c_{miss}\,p, c_{fa}(1-p))` (``combine="bengio"``). The MOVER
    interval of :math:`\theta = w_1 \mathrm{FAR} + w_2 \mathrm{FRR}` (``w = 1/2`` for
    HTER; :math:`c_{fa}(1-p)/D` and :math:`c_{miss}p/D` for DCF), from the binomial
    intervals :math:`[l_k, u_k]` of the two rates, is

    .. math::

        \Bigl[\hat\theta - \sqrt{\textstyle\sum_k w_k^2(\hat p_k - l_k)^2},\;
              \hat\theta + \sqrt{\textstyle\sum_k w_k^2(u_k - \hat p_k)^2}\Bigr].

    With ``resample="label"`` these intervals treat the trials as independent; when many
    trials share a subject they are then too narrow. The default on a table with subjects
    replaces :math:`N_I, N_C` (and the counts) by the effective sizes above; a subject
    bootstrap (:func:`pandas_biosig.bootstrap`) is the alternative for metrics read over
    all thresholds. A threshold chosen on the same trials (``threshold_from`` is
    ``"same trials"``) makes the estimate optimistic; a-priori thresholds avoid it.

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Zou, G. Y., & Donner, A. (2008). Construction of confidence limits about effect
    measures: A general approach. *Statistics in Medicine, 27*\(10), 1693–1702.

    Brown, L. D., Cai, T. T., & DasGupta, A. (2001). Interval estimation for a binomial
    proportion. *Statistical Science, 16*\(2), 101–133.

    Korn, E. L., & Graubard, B. I. (1998). Confidence intervals for proportions with small
    expected number of positive counts estimated from survey data. *Survey Methodology,
    24*\(2), 193–201.

    Examples
    --------
    The example table has a ``subject`` column; ``resample="label"`` gives the paper's
    trial-level interval:

    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.ci(trials, metric="hter", combine="bengio", resample="label")
    >>> res[["system", "split", "estimate", "ci_low", "ci_high"]].round(4)
        system split  estimate  ci_low  ci_high
    0      cnn  eval    0.0510  0.0376   0.0645
    1  cnn_aug  eval    0.0479  0.0342   0.0616
    2      gmm  eval    0.1005  0.0803   0.1208
    3      lbp  eval    0.1667  0.1415   0.1918

    Compare with the scalar API, fed with the rates of :func:`pandas_biosig.error_rates`:

    >>> er = pbs.error_rates(trials, on="dev", apply_to="eval").iloc[0]
    >>> low, high = pbs.stats.hter_ci(er.far, er.frr, n_impostor=960,
    ...                               n_genuine=240).confidence_interval()
    >>> print(f"{low:.4f} {high:.4f}")
    0.0376 0.0645
    """
    metrics = [metric] if isinstance(metric, str) else list(metric)
    for m in metrics:
        check_option(m, CI_METRICS, "metric")
    check_option(method, stats.RATE_CI_METHODS, "method")
    check_option(combine, CI_COMBINE, "combine")
    if resample != AUTO:
        check_option(resample, RESAMPLE, "resample")
    level = _check_level(confidence_level)
    _check_costs(p_target, c_miss, c_fa)
    trials = _validate(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    sign = -1.0 if trials.orientation == "distance" else 1.0
    protocol = Protocol(
        threshold=threshold, weight=weight, target=target, p_target=p_target, c_miss=c_miss,
        c_fa=c_fa, on=on, apply_to=apply_to, resample=resample,
    )
    unit = protocol.unit(trials, subject=subject)
    members = protocol.resolve(trials, resample=unit)
    clustered = unit == "subject"
    suffix = "-deff" if clustered else ""
    from scipy.stats import norm

    z = float(norm.ppf((1 + level) / 2))
    rows = []
    for m in members:
        g = m.group
        sw = m.sweep
        ni, nc = sw.n, sw.p
        fa = fr = None
        if not math.isnan(m.threshold):
            fa, fr = (int(v) for v in sw.rates_at_threshold(m.threshold))
        base = dict(zip(trials.key_names, g.key, strict=True))
        base.update(
            confidence_level=level,
            threshold=sign * m.threshold,
            criterion=m.criterion,
            threshold_split=m.threshold_split,
            threshold_from=m.threshold_from,
            resample=m.resample if clustered else None,
            n_genuine=nc,
            n_impostor=ni,
            p_target=p_target,
            c_miss=c_miss,
            c_fa=c_fa,
        )
        parts = None
        if fa is not None:
            # effective counts (x*, n*) of FAR and FRR: the trials themselves, or with
            # subjects the design-effect sample size (Korn & Graubard 1998)
            eff = [(float(fa), float(ni)), (float(fr), float(nc))]
            if clustered:
                eff = _effective_counts(trials, g, m.threshold, (fa, ni), (fr, nc), level)
            parts = [_rate_interval(x, n, method, level, exact=not clustered, counts=c)
                     for (x, n), c in zip(eff, ((fa, ni), (fr, nc)), strict=True)]
            far, frr = fa / ni, fr / nc
            n_fa, n_fr = eff[0][1], eff[1][1]
        for name in metrics:
            row = dict(base, metric=name)
            row["ci_method"] = (
                method + suffix if name in ("far", "frr")
                else ("bengio" if combine == "bengio" else f"mover-{method}") + suffix
            )
            if parts is None:
                row.update(estimate=np.nan, se=np.nan, ci_low=np.nan, ci_high=np.nan)
                rows.append(row)
                continue
            if name in ("far", "frr"):
                est, n_eff = (far, n_fa) if name == "far" else (frr, n_fr)
                low, high = parts[0] if name == "far" else parts[1]
                se = math.sqrt(est * (1.0 - est) / n_eff)
                row.update(estimate=est, se=se, ci_low=low, ci_high=high)
                rows.append(row)
                continue
            if name == "hter":
                w = (0.5, 0.5)
            else:
                norm = min(c_miss * p_target, c_fa * (1 - p_target))
                w = (c_fa * (1 - p_target) / norm, c_miss * p_target / norm)
            est = w[0] * far + w[1] * frr
            se = math.sqrt(w[0] ** 2 * far * (1 - far) / n_fa + w[1] ** 2 * frr * (1 - frr) / n_fr)
            if combine == "mover":
                low, high = mover_sum((far, frr), [p[0] for p in parts], [p[1] for p in parts], w)
            else:
                low, high = est - z * se, est + z * se
            row.update(estimate=est, se=se, ci_low=low, ci_high=high)
            rows.append(row)
    return pd.DataFrame(rows, columns=[*trials.by, *CI_COLUMNS])


def _effective_counts(trials: Trials, g: Group, threshold: float, far_counts, frr_counts,
                      level: float) -> list[tuple[float, float]]:
    """``[(x*, n*)]`` of FAR and FRR at ``threshold`` under subject clustering: the counts
    divided by each class's design effect (:func:`._kernels.cluster.design_effect`, from
    the per-subject error counts), with Korn & Graubard's degrees-of-freedom factor
    :math:`(t_{N-1}/t_{k-1})^2` for ``k`` subjects in the class."""
    from scipy.stats import t as student

    codes, _ = subject_clusters(g.subject, group_where(trials, g))
    accepted = g.scores >= threshold
    impostor = ~g.genuine
    out = []
    for cls, wrong, (x, n) in ((impostor, accepted, far_counts),
                               (g.genuine, ~accepted, frr_counts)):
        c = codes[cls]
        errors = wrong[cls]
        k = np.unique(c).size
        if n == 0 or k < 2:
            out.append((float(x), float(n)))
            continue
        deff = design_effect(np.bincount(c, weights=errors.astype(np.float64)), np.bincount(c))
        q = (1 + level) / 2
        df = (student.ppf(q, max(n - 1, 1)) / student.ppf(q, k - 1)) ** 2 if n > 1 else 1.0
        n_eff = min(n / deff * df, float(n))
        out.append((x / n * n_eff, n_eff))
    return out


def _rate_interval(x: float, n: float, method: str, level: float, *, exact: bool,
                   counts: tuple[int, int]) -> tuple[float, float]:
    """The ``method`` binomial interval of ``x`` errors in ``n`` trials (effective, possibly
    non-integer counts unless ``exact``); ends at 0 / 1 when no / every trial errs."""
    if exact or method == "binom_test":
        if not exact:  # statsmodels' binomial test needs integer counts
            n_int = max(round(n), 1)
            x, n = min(round(x), n_int), n_int
        else:
            x, n = counts
        r = stats.rate_ci(int(x), int(n), method=method).confidence_interval(
            confidence_level=level)
        return float(r.low), float(r.high)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(x, n, alpha=1 - level, method=method)
    err, total = counts
    return (0.0 if err == 0 else max(float(low), 0.0),
            1.0 if err == total else min(float(high), 1.0))


# --------------------------------------------------------------------------- compare


def compare(
    data: pd.DataFrame,
    /,
    *,
    test: Test | Literal["auto"] = "auto",
    baseline: Hashable | None = None,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    alpha: float = 0.05,
    adjust: str | None = "holm",
    confidence_level: float = 0.95,
    alternative: Alternative = "two-sided",
    common_trials: bool = False,
    mcnemar_method: str = "exact",
    test_decision_rules: bool = False,
    metric: str | None = None,
    n_resamples: int = 1000,
    resample: str = "auto",
    seed: int | np.random.Generator | None = None,
    progress: bool | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Test every pair of systems on their common trials, adjusted for multiplicity.

    One row per unordered pair of systems in input order — (1, 2), (1, 3), …, (2, 3), … —
    or, with ``baseline``, one row per other system against it, within each family
    (``by`` group and split). The two systems of a pair are paired on ``trial``. Each
    family's p-values are adjusted once, over exactly the family's rows.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table in which the systems score the same trials (paired on ``trial``).
    test : str, default "auto"
        ``"auto"``: ``"bootstrap"`` (resampling subjects) when the table has a subject
        column, because trials that share subjects make every trial-level test too
        liberal; ``"hter_dependent"`` otherwise. Or one of :data:`TESTS`:

        - ``"hter_dependent"``: HTER_A − HTER_B with the variance of Bengio & Mariéthoz's
          eq. 16, from the discordant decisions of the two systems;
        - ``"hter_independent"``: the same difference with eq. 15 (rates only);
        - ``"naive"`` (eq. 18) and ``"class"`` (eq. 17): **over-confident**, for showing
          how over-confident they are, never for a conclusion;
        - ``"mcnemar"``: McNemar's test on the per-trial errors (variant:
          ``mcnemar_method``);
        - ``"gunter_simple"``, ``"gunter_paired"``: Günter's tests on the per-trial
          correct decisions (recognition rates), eq. 3 and eq. 5–6;
        - ``"bootstrap"``: the paired bootstrap of ``metric``, by the engine of
          :func:`pandas_biosig.paired_bootstrap` (the same numbers for the same seed).

        The null hypothesis of each, in one sentence (the ``null_hypothesis`` column):
        HTER tests and NAIVE: the two HTERs are equal; CLASS: the two classification
        errors (FA + FR)/(NI + NC) are equal; McNemar: the two systems are wrong on as
        many trials; Günter: they make as many correct decisions; bootstrap: the metric is
        equal. The decision-level tests (:data:`DECISION_TESTS`: NAIVE, CLASS, McNemar,
        Günter) compare the *decisions* at each system's threshold. When each system's
        threshold is chosen by a criterion, the thresholds differ by estimation noise and
        these tests detect that the decision rules differ even for identical systems
        (McNemar rejects 24–25 % of the time at α = 0.05 on two identical systems with ten
        impostors per genuine trial, with a-priori thresholds); so they raise
        :class:`DecisionTestError` unless the threshold is one fixed number (or one per
        system, given) or ``test_decision_rules=True``.
    baseline : system name, optional
        Compare every other system with this one only (k − 1 rows per family). The other
        system is ``system_a``, the baseline ``system_b``, so ``estimate`` is
        metric(system) − metric(baseline).
    threshold, weight, target, p_target, c_miss, c_fa
        The threshold policy that makes the decisions (see
        :func:`pandas_biosig.error_rates`).
    on, apply_to : split value, "auto" or None, default "auto"
        The split each system's threshold is chosen on, and the split(s) tested. With
        ``"auto"``, a table with a development split (``dev``/``development``) and an
        evaluation split (``eval``/``test``/``evaluation``, case-insensitive) gets a-priori
        thresholds, chosen on dev and tested on eval (see :mod:`pandas_biosig.protocol`);
        other tables choose each split's thresholds on its own trials. ``on=None,
        apply_to=None`` asks for that explicitly.
    alpha : float, default 0.05
        Family-wise level (or false discovery rate) of ``reject``.
    adjust : str or None, default "holm"
        A statsmodels ``multipletests`` method code (:data:`ADJUST_METHODS`: ``"holm"``,
        ``"bonferroni"``, ``"fdr_bh"``, ``"hommel"``…), passed through unchanged; None for
        no adjustment.
    confidence_level : float, default 0.95
        Level of ``ci_low``, ``ci_high``.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        About the true ``estimate`` (metric A − metric B): ``"less"`` means A's metric is
        lower under H1 (fewer errors for an error metric, a lower recognition rate for
        Günter's tests).
    common_trials : bool, default False
        When two systems did not score the same trials, use the trials they share instead
        of raising :class:`~pandas_biosig.SchemaError`.
    mcnemar_method : {"exact", "midp", "chi2", "chi2_corrected"}, default "exact"
        The variant of ``test="mcnemar"`` (see :func:`pandas_biosig.stats.mcnemar`);
        other tests ignore it.
    test_decision_rules : bool, default False
        Run a decision-level test at per-system criterion thresholds anyway: it then tests
        whether the two decision rules err equally, and ``null_hypothesis`` says so.
    metric : str, optional
        The metric of ``test="bootstrap"`` (one of
        :data:`pandas_biosig.resampling.BOOTSTRAP_METRICS`; default ``"hter"`` at the
        threshold policy). Other tests compare a fixed quantity and reject it.
    n_resamples, resample, seed, progress
        Bootstrap replicates, resampling scheme (``"auto"``: ``"subject"`` when the table
        has a subject column, else ``"label"``; or ``"label"``, ``"trial"``,
        ``"subject"``), seed and progress bar of ``test="bootstrap"`` (see
        :func:`pandas_biosig.bootstrap`); other tests ignore them. The pairs are resampled
        one after the other from one generator, so a seed reproduces the whole table.
    by : str or list of str, optional
        Extra grouping columns: one family per group and split.
    system, trial, label, score, split, subject, orientation, nonfinite
        Column names and score handling, as in :func:`pandas_biosig.eer`. ``subject`` is
        read only by ``resample="subject"``.

    Returns
    -------
    DataFrame
        The ``by`` columns, then (:data:`COMPARE_COLUMNS`, whatever the arguments):

        - ``system_a``, ``system_b``: the pair, in input order;
        - ``split``: the split tested (None without a split column);
        - ``metric``: what ``estimate`` measures — ``"hter"`` (HTER tests and NAIVE),
          ``"error_rate"`` ((FA + FR)/(NI + NC): CLASS, McNemar),
          ``"recognition_rate"`` (1 − error_rate: Günter), or the bootstrap metric;
        - ``test``: the test code;
        - ``n``: the number of trials of the pair (NI + NC);
        - ``estimate``: metric(A) − metric(B), signed: swapping A and B flips it;
        - ``statistic``: the signed z (HTER tests, Günter, the bootstrap's
          estimate/SE), or McNemar's statistic (b for ``"exact"``/``"midp"``, χ²
          otherwise);
        - ``pvalue``, ``log10_pvalue``: for ``alternative`` (the log stays finite where the
          p-value underflows);
        - ``adjust``: the method code (``"none"`` for None);
        - ``pvalue_adj``: the adjusted p-value within the family (≥ ``pvalue`` for the
          FWER methods);
        - ``alpha``; ``reject``: whether H0 is rejected after adjustment, as
          statsmodels decides it;
        - ``confidence_level``, ``ci_low``, ``ci_high``: the test's interval for the
          difference (unadjusted; Wald, or the bootstrap percentile interval; one-sided
          for one-sided alternatives);
        - ``alternative``; ``method``: the test's full name (which equation, which
          McNemar variant);
        - ``threshold_a``, ``threshold_b``: the thresholds that made the decisions, in
          score units (NaN for a bootstrap metric that needs none);
        - ``threshold_from``: where they came from — the split they were chosen on,
          ``"same trials"`` (chosen on the tested trials) or ``"fixed"`` (given); None
          when no threshold is used;
        - ``resample``: what the bootstrap resampled (``"subject"``, ``"label"``,
          ``"trial"``), None for the other tests;
        - ``null_hypothesis``: what the test's null says (see ``test``).

    Raises
    ------
    SchemaError
        An invalid table; systems of a family that do not score the same trials (unless
        ``common_trials=True``) or disagree on a trial's label; a pair sharing no trial of
        a class.
    ValueError
        An unknown test, adjustment, alternative or option (:data:`ERROR_OPTION`,
        :data:`ERROR_ADJUST`, :data:`ERROR_ALTERNATIVE`), a family with one system
        (:data:`ERROR_ONE_SYSTEM`), a baseline missing from a family
        (:data:`ERROR_BASELINE`), ``alpha`` or ``confidence_level`` outside (0, 1)
        (:data:`ERROR_ALPHA`, :data:`ERROR_CONFIDENCE_LEVEL`), ``metric`` given to a test
        other than the bootstrap (:data:`ERROR_METRIC_UNUSED`).

    See Also
    --------
    pairwise_matrix : the k × k view of one column.
    pandas_biosig.stats.hter_test, pandas_biosig.stats.mcnemar,
    pandas_biosig.stats.recognition_rate_test : the scalar tests behind each row.
    compare_folds : the sign test across repeated runs.
    eer_bound_table : the same table from reported EERs only.

    Notes
    -----
    For a family of k systems on n common trials, the per-trial error indicators form an
    :math:`n \times k` matrix :math:`E` (per class: impostor trials accepted, genuine
    trials rejected). One product :math:`E^\top E` per class gives every count every test
    needs, for all :math:`k(k-1)/2` pairs at once: its diagonal holds each system's errors
    and :math:`(E^\top E)_{AB}` the trials both get wrong, so, e.g., the impostor trials
    rejected by A and accepted by B are :math:`N_{I,AB} = FA_B - (E_I^\top E_I)_{AB}`.
    With :math:`\Delta = \mathrm{HTER}_A - \mathrm{HTER}_B`:

    .. math::

        z_{dep} = \Delta \Big/ \sqrt{\frac{N_{I,AB} + N_{I,BA}}{4 N_I^2}
            + \frac{N_{C,AB} + N_{C,BA}}{4 N_C^2}}, \qquad
        \chi^2_{McNemar} = \frac{(b - c)^2}{b + c}

    with b (c) the trials A (B) alone gets wrong. Günter's tests read the correct-decision
    rates :math:`R = 1 - (FA + FR)/n` of A and B and :math:`R_{12}`, the rate of trials
    both get right; A is always "method 1", so ``estimate`` = :math:`R_A - R_B`.

    Many tests at once reject true nulls by chance: with 10 independent tests at 5 % each,
    the chance of at least one false rejection is 40 %. Holm's step-down adjustment (the
    default) controls it at ``alpha`` under any dependence between the tests, and always
    rejects at least what Bonferroni rejects.

    The dependent HTER test (the default) holds its level, also for strongly correlated
    systems: measured rejection rates of two identical systems at α = 0.05 are 0.04–0.07
    for correlations 0 to 0.9, with thresholds chosen a priori on dev or on the tested
    trials (``docs/validity.md``). The independent test ignores the pairing and is
    conservative for correlated systems (about 0.02 at ρ = 0.5), so requiring both tests
    only loses power. NAIVE and CLASS are over-confident whenever the classes differ in
    size. Every parametric test here treats trials as independent; trials that share
    subjects call for ``test="bootstrap"``, which resamples subjects by default.

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Günter, S. (2004). *Vergleich von Erkennungsmethoden* (Technical Report IAM-04-001).
    Institut für Informatik und angewandte Mathematik, Universität Bern.

    Holm, S. (1979). A simple sequentially rejective multiple test procedure.
    *Scandinavian Journal of Statistics, 6*\(2), 65–70.

    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. *Psychometrika, 12*\(2), 153–157.

    Examples
    --------
    The example table has dev and eval splits, so by default each system's threshold is
    its EER threshold on dev, and the systems are tested on eval:

    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.compare(trials, test="hter_dependent")
    >>> res[["system_a", "system_b", "estimate", "pvalue", "pvalue_adj", "reject"]].round(4)
      system_a system_b  estimate  pvalue  pvalue_adj  reject
    0      cnn  cnn_aug    0.0031  0.6898      0.6898   False
    1      cnn      gmm   -0.0495  0.0000      0.0000    True
    2      cnn      lbp   -0.1156  0.0000      0.0000    True
    3  cnn_aug      gmm   -0.0526  0.0000      0.0000    True
    4  cnn_aug      lbp   -0.1188  0.0000      0.0000    True
    5      gmm      lbp   -0.0661  0.0000      0.0001    True

    Compare with statsmodels: the adjusted p-values are ``multipletests``' Holm values.

    >>> from statsmodels.stats.multitest import multipletests
    >>> bool(np.allclose(multipletests(res.pvalue, method="holm")[1], res.pvalue_adj))
    True

    McNemar at one common threshold fixed in advance, each system against a baseline:

    >>> mc = pbs.compare(trials, test="mcnemar", baseline="lbp", threshold=0.5,
    ...                  apply_to="eval")
    >>> mc[["system_a", "system_b", "metric", "estimate", "pvalue_adj"]].round(4)
      system_a system_b      metric  estimate  pvalue_adj
    0      cnn      lbp  error_rate   -0.0858         0.0
    1  cnn_aug      lbp  error_rate   -0.0925         0.0
    2      gmm      lbp  error_rate   -0.0667         0.0
    """
    test = default_test(test, data, subject)
    level = _check_level(confidence_level)
    alpha = _check_alpha(alpha)
    adjust = _check_adjust(adjust)
    alternative = _check_alternative(alternative)
    if test == "bootstrap":
        metric = "hter" if metric is None else metric
        check_option(metric, BOOTSTRAP_METRICS, "metric")
        if resample != AUTO:
            check_option(resample, RESAMPLE, "resample")
        if (
            not isinstance(n_resamples, int | np.integer)
            or isinstance(n_resamples, bool)
            or n_resamples < 1
        ):
            raise ValueError(ERROR_N_RESAMPLES.format(value=n_resamples))
        if metric in ("fnmr_at_fmr", "fmr_at_fnmr"):
            if target is None:
                raise ValueError(ERROR_TARGET.format(metric=metric))
            target = _check_rate(target, "target")
    else:
        if metric is not None:
            raise ValueError(
                ERROR_METRIC_UNUSED.format(value=metric, test=test, fixed=_TEST_METRIC[test])
            )
        if test == "mcnemar":
            check_option(mcnemar_method, stats.MCNEMAR_METHODS, "mcnemar_method")
    _check_costs(p_target, c_miss, c_fa)
    trials = _validate(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject if test == "bootstrap" else None, by=by, orientation=orientation,
        nonfinite=nonfinite,
    )
    sign = -1.0 if trials.orientation == "distance" else 1.0
    fixed = test != "bootstrap" or metric in _FIXED
    protocol = Protocol(threshold=threshold, weight=weight, target=target, p_target=p_target,
                        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, resample=resample)
    unit = protocol.unit(trials, subject=subject) if test == "bootstrap" else None
    members = protocol.resolve(trials, needs_threshold=fixed, resample=unit)
    null = _null_hypothesis(test, protocol, members, test_decision_rules)
    n_by = len(trials.by)
    names = _family_names(trials, n_by)
    families = _families(trials, members, n_by)
    plans = []
    for fam, fam_members in families:
        systems = [m.group.system for m in fam_members]
        plans.append((fam, fam_members, _pairs(systems, baseline, _where(names, fam))))
    rows: list[dict] = []
    family_of: list[int] = []
    if test == "bootstrap":
        f = _metric_function(metric, target=target, p_target=p_target, c_miss=c_miss, c_fa=c_fa)
        rng = _rng(seed)
        total = n_resamples * sum(len(p) for _, _, p in plans)
        tick = _progress(progress, total, "compare (bootstrap)")
    for i_fam, (fam, fam_members, pairs) in enumerate(plans):
        in_where = _in_where(names, fam)
        if test != "bootstrap":
            errors, genuine, present = _error_columns(
                fam_members, common_trials=common_trials, in_where=in_where
            )
            counts = pair_counts(errors, genuine, present)
            del errors, present
        for a, b in pairs:
            ma, mb = fam_members[a], fam_members[b]
            pair = (ma.group.system, mb.group.system)
            if test == "bootstrap":
                ga, gb = align_pair(ma.group, mb.group, common_trials=common_trials,
                                    where=in_where)
                done = len(rows) * n_resamples
                res = bootstrap_difference(
                    ga, gb, f, (ma.threshold, mb.threshold), n_resamples=n_resamples,
                    resample=unit, rng=rng, alternative=alternative,
                    tick=lambda i, done=done: tick(done + i), metric=metric,
                )
                res_metric = metric
            elif math.isnan(ma.threshold) or math.isnan(mb.threshold):
                res = None  # no threshold reaches the criterion: no decisions to compare
                res_metric = _TEST_METRIC[test]
            else:
                res = _matrix_test(
                    test, counts, a, b, alternative=alternative,
                    mcnemar_method=mcnemar_method, names=pair, in_where=in_where,
                )
                res_metric = _TEST_METRIC[test]
            row = dict(zip(trials.by, fam[:n_by], strict=True))
            row.update(system_a=pair[0], system_b=pair[1], split=fam[-1], metric=res_metric,
                       test=test, confidence_level=level)
            if res is None:
                row.update(_NAN_ROW, alternative=alternative, method=TESTS[test])
            else:
                row.update(_row(res, level))
                if test == "bootstrap":
                    row["method"] = (
                        f"{res.method} ({n_resamples} resamples, resample={unit!r})"
                    )
            row.update(threshold_a=sign * ma.threshold, threshold_b=sign * mb.threshold,
                       threshold_from=ma.threshold_from,
                       resample=unit, null_hypothesis=null)
            rows.append(row)
            family_of.append(i_fam)
    return _finish(rows, trials.by, COMPARE_COLUMNS, family_of, adjust, alpha)


def _compare_independent_sets(
    rates: pd.DataFrame, *, adjust: str | None, alpha: float, confidence_level: float,
    alternative: str = "two-sided",
) -> pd.DataFrame:
    """Bengio & Mariéthoz's independent HTER test (eq. 15) for every pair of systems of
    each split, from their rates only: for systems scored on different trial lists.

    ``rates`` is an :func:`pandas_biosig.error_rates` table. Each system's HTER variance
    uses its own trial counts, FAR(1 - FAR)/(4 NI) + FRR(1 - FRR)/(4 NC); with one common
    test set this is eq. 15 exactly. Each split is one family, adjusted once.
    """
    rows, family_of = [], []
    method = TESTS["hter_independent"] + ", each system on its own trials"
    for i_fam, (split, fam) in enumerate(rates.groupby("split", sort=False, dropna=False)):
        recs = fam.to_dict("records")
        for a, b in itertools.combinations(range(len(recs)), 2):
            ra, rb = recs[a], recs[b]
            row = dict(system_a=ra["system"], system_b=rb["system"], split=split,
                       metric="hter", test="hter_independent",
                       confidence_level=confidence_level)
            if any(math.isnan(r[c]) for r in (ra, rb) for c in ("far", "frr")):
                row.update(_NAN_ROW, alternative=alternative, method=method)
            else:
                var = sum(
                    r["far"] * (1 - r["far"]) / (4 * r["n_impostor"])
                    + r["frr"] * (1 - r["frr"]) / (4 * r["n_genuine"])
                    for r in (ra, rb)
                )
                res = stats._normal_result(
                    ra["hter"] - rb["hter"], math.sqrt(var), alternative=alternative,
                    method=method,
                    n=int(ra["n_impostor"] + ra["n_genuine"] + rb["n_impostor"] + rb["n_genuine"]),
                )
                row.update(_row(res, confidence_level))
            row.update(threshold_a=ra["threshold"], threshold_b=rb["threshold"])
            rows.append(row)
            family_of.append(i_fam)
    return _finish(rows, (), COMPARE_COLUMNS, family_of, adjust, alpha)


# --------------------------------------------------------------------------- matrix view


def _mirror(table: pd.DataFrame, col: str) -> pd.Series:
    """The value of ``col`` for the swapped pair (B, A) of each row."""
    values = table[col]
    if col == "estimate":
        return -values
    if col in ("ci_low", "ci_high"):
        other = "ci_high" if col == "ci_low" else "ci_low"
        return -table[other] if other in table.columns else pd.Series(np.nan, index=table.index)
    if col.endswith("_a") or col.endswith("_b"):
        other = col[:-1] + ("b" if col.endswith("_a") else "a")
        if other in table.columns:
            return table[other]
    if col == "statistic" and "test" in table.columns:
        out = values.astype(float).copy()
        test = table["test"]
        signed = test.isin(_SIGNED_STATISTIC).to_numpy()
        out[signed] = -values[signed]
        # McNemar's exact/mid-p statistic is b (A wrong, B right): swapped, it is c
        count = (test == "mcnemar").to_numpy() & ~table.get(
            "method", pd.Series("", index=table.index)
        ).astype(str).str.contains("chi-square").to_numpy()
        if count.any():
            b = values[count].astype(float)
            out[count] = np.rint(b - table["estimate"][count] * table["n"][count])
        # the sign test's statistic counts folds with A - B > 0: swapped, those with < 0
        sign = (test == "sign").to_numpy()
        if sign.any():
            rows = table[sign]
            out[sign] = rows["n"] - rows["statistic"]
        return out
    return values


def pairwise_matrix(table: pd.DataFrame, /, *, col: str = "pvalue_adj") -> pd.DataFrame:
    r"""The k × k matrix view (system × system) of one column of a pairwise table.

    As statsmodels' ``AllPairsResults.pval_table``: row A, column B holds the value of the
    pair (A, B); the cell (B, A) holds the value the swapped pair would have.

    Parameters
    ----------
    table : DataFrame
        A table of :func:`compare`, :func:`compare_folds` or :func:`eer_bound_table`
        holding **one family** (one ``by`` group and one split): select its rows first when
        it holds several.
    col : str, default "pvalue_adj"
        The column to show.

    Returns
    -------
    DataFrame
        Index ``system_a`` and columns ``system_b``, both the systems in the order they
        first appear as ``system_a``, then as ``system_b``: input order for a table of all
        pairs, the baseline last for a table against a baseline.
        The diagonal is missing (NaN; ``<NA>`` for a boolean column), and so are the cells
        of pairs that were not tested (with ``baseline``). The swapped cell is

        - ``-x`` for ``estimate`` (antisymmetric) and for a signed z ``statistic``;
        - ``-ci_high`` for ``ci_low`` (and ``-ci_low`` for ``ci_high``);
        - the ``_b`` value for a ``_a`` column (``threshold_a``, ``eer_a``, ``wins_a``…)
          and vice versa;
        - c for McNemar's exact statistic b, the folds where B − A > 0 for the sign test;
        - the same value otherwise (p-values, ``reject``, ``n``…: symmetric).

        Numeric columns give float64, boolean ones the nullable ``boolean`` dtype.

    Raises
    ------
    ValueError
        A table without ``system_a``/``system_b`` (:data:`ERROR_NOT_PAIRWISE`), an unknown
        column (:data:`ERROR_MATRIX_COLUMN`), or several families
        (:data:`ERROR_MATRIX_FAMILIES`, which names them), or a pair that appears more
        than once, as in a concatenation of two tests' results
        (:data:`ERROR_MATRIX_DUPLICATE_PAIRS`).

    See Also
    --------
    compare : the long table.

    Notes
    -----
    The family key is the ``split`` column (when present) and every column before
    ``system_a`` (the ``by`` columns). For the estimate,

    .. math::

        M_{AB} = \hat\theta_A - \hat\theta_B = -M_{BA}, \qquad M_{AA} = \mathrm{NaN}.

    References
    ----------
    Seabold, S., & Perktold, J. (2010). statsmodels: Econometric and statistical modeling
    with Python. In *Proceedings of the 9th Python in Science Conference* (pp. 92–96).

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.compare(trials, on="dev", apply_to="eval")
    >>> pbs.pairwise_matrix(res, col="estimate").round(3)
    system_b    cnn  cnn_aug    gmm    lbp
    system_a
    cnn         NaN    0.003 -0.049 -0.116
    cnn_aug  -0.003      NaN -0.053 -0.119
    gmm       0.049    0.053    NaN -0.066
    lbp       0.116    0.119  0.066    NaN

    A table with two splits holds two families; pick one:

    >>> both = pbs.compare(trials, on="dev")
    >>> pbs.pairwise_matrix(both[both.split == "eval"]).shape
    (4, 4)
    """
    if not isinstance(table, pd.DataFrame) or not {"system_a", "system_b"} <= set(table.columns):
        found = list(table.columns) if isinstance(table, pd.DataFrame) else type(table).__name__
        raise ValueError(ERROR_NOT_PAIRWISE.format(found=found))
    if col not in table.columns:
        raise ValueError(ERROR_MATRIX_COLUMN.format(col=col, found=list(table.columns)))
    columns = list(table.columns)
    fam_cols = columns[: columns.index("system_a")]
    if "split" in columns:
        fam_cols.append("split")
    if fam_cols and len(table):
        fams = table[fam_cols].drop_duplicates()
        if len(fams) > 1:
            first = fam_cols[-1] if "split" in fam_cols and fams["split"].nunique() > 1 else fam_cols[0]
            raise ValueError(
                ERROR_MATRIX_FAMILIES.format(
                    n=len(fams), names=fam_cols,
                    families=[tuple(r) for r in fams.itertuples(index=False)],
                    first=first, example=fams[first].iloc[0],
                )
            )
    pairs = pd.Series(
        [frozenset((a, b)) for a, b in zip(table["system_a"], table["system_b"], strict=True)],
        dtype=object,
    )
    repeated = pairs.duplicated(keep=False).to_numpy()
    if repeated.any():
        row = int(np.flatnonzero(repeated)[0])
        raise ValueError(
            ERROR_MATRIX_DUPLICATE_PAIRS.format(
                a=table["system_a"].iloc[row], b=table["system_b"].iloc[row],
                n=int((pairs == pairs.iloc[row]).sum()),
            )
        )
    systems = list(dict.fromkeys([*table["system_a"], *table["system_b"]]))
    values = table[col]
    mirror = _mirror(table, col)
    if pd.api.types.is_bool_dtype(values.dtype):
        dtype: Any = "boolean"
        fill: Any = pd.NA
    elif pd.api.types.is_numeric_dtype(values.dtype):
        dtype, fill = np.float64, np.nan
    else:
        dtype, fill = object, np.nan
    out = pd.DataFrame(fill, index=pd.Index(systems, name="system_a"),
                       columns=pd.Index(systems, name="system_b"), dtype=dtype)
    for a, b, v, w in zip(table["system_a"], table["system_b"], values, mirror, strict=True):
        out.loc[a, b] = v
        out.loc[b, a] = w
    return out


# --------------------------------------------------------------------------- repeated runs


def _fold_trials(data, *, fold, by, system, trial, label, score, split, orientation, nonfinite):
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    others = [*by_cols, system, trial, label, score] + ([split] if split is not None else [])
    if fold in others:
        raise ValueError(ERROR_FOLD_COLUMN.format(fold=fold, others=others))
    trials = _validate(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=[*by_cols, fold], orientation=orientation, nonfinite=nonfinite,
    )
    return trials, len(by_cols)


def _check_fold_metric(metric, target, p_target, c_miss, c_fa):
    check_option(metric, FOLD_METRICS, "metric")
    if metric in ("fnmr_at_fmr", "fmr_at_fnmr"):
        if target is None:
            raise ValueError(ERROR_TARGET.format(metric=metric))
        target = _check_rate(target, "target")
    _check_costs(p_target, c_miss, c_fa)
    return target


def _fold_values(trials: Trials, metric: str, *, threshold, weight, target, p_target, c_miss,
                 c_fa, on, apply_to) -> list[tuple[Resolved, float, Sweep]]:
    f = _metric_function(metric, target=target, p_target=p_target, c_miss=c_miss, c_fa=c_fa)
    members = Protocol(
        threshold=threshold, weight=weight, target=target, p_target=p_target, c_miss=c_miss,
        c_fa=c_fa, on=on, apply_to=apply_to,
    ).resolve(trials, needs_threshold=metric in _FIXED)
    out = []
    for m in members:
        sw = m.sweep
        value = float("nan") if metric in _FIXED and math.isnan(m.threshold) else f(sw, m.threshold)
        out.append((m, float(value), sw))
    return out


def fold_metrics(
    data: pd.DataFrame,
    /,
    *,
    fold: str = "fold",
    metric: str = "hter",
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = None,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
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
        :func:`pandas_biosig.error_rates`), applied in each fold: ``on="dev"`` chooses
        each fold's threshold on that fold's dev split. ``target`` and the costs also
        parametrize ``"fnmr_at_fmr"``/``"fmr_at_fnmr"`` and ``"min_dcf"``.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.

    Returns
    -------
    DataFrame
        One row per (``by`` group, fold, system, split): the ``by`` columns, then ``fold``
        (the fold value, whatever the fold column's name), ``system``, ``split``,
        ``metric``, ``estimate`` (the metric in that fold), ``threshold`` (score units;
        NaN for a threshold-free metric), ``n_genuine``, ``n_impostor``.

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
    >>> per_fold[["fold", "system", "estimate"]].head(3).round(4)
      fold   system  estimate
    0  dev      cnn    0.0402
    1  dev  cnn_aug    0.0376
    2  dev      gmm    0.1008
    """
    target = _check_fold_metric(metric, target, p_target, c_miss, c_fa)
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
                   estimate=value, threshold=sign * m.threshold, n_genuine=sw.p,
                   n_impostor=sw.n)
        rows.append(row)
    return pd.DataFrame(rows, columns=[*trials.by[:n_by], *FOLD_METRICS_COLUMNS])


def fold_summary(
    data: pd.DataFrame,
    /,
    *,
    fold: str = "fold",
    metric: str = "hter",
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = None,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
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
    0      cnn        2  0.0448  0.0066
    1  cnn_aug        2  0.0417  0.0058
    2      gmm        2  0.0973  0.0049
    3      lbp        2  0.1566  0.0068
    """
    per_fold = fold_metrics(
        data, fold=fold, metric=metric, threshold=threshold, weight=weight, target=target,
        p_target=p_target, c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, by=by,
        system=system, trial=trial, label=label, score=score, split=split,
        orientation=orientation, nonfinite=nonfinite,
    )
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
    metric: str = "hter",
    baseline: Hashable | None = None,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = None,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    alpha: float = 0.05,
    adjust: str | None = "holm",
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
    target = _check_fold_metric(metric, target, p_target, c_miss, c_fa)
    level = _check_level(confidence_level)
    alpha = _check_alpha(alpha)
    adjust = _check_adjust(adjust)
    alternative = _check_alternative(alternative)
    trials, n_by = _fold_trials(
        data, fold=fold, by=by, system=system, trial=trial, label=label, score=score,
        split=split, orientation=orientation, nonfinite=nonfinite,
    )
    order = {s: i for i, s in enumerate(_factorize(data[system])[1])}
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
        for a, b in _pairs(systems, baseline, _where(names, fam)):
            va, vb = by_system[systems[a]], by_system[systems[b]]
            folds = [f for f in va if f in vb and np.isfinite(va[f]) and np.isfinite(vb[f])]
            xa = np.array([va[f] for f in folds], dtype=float)
            xb = np.array([vb[f] for f in folds], dtype=float)
            d = xa - xb
            n_pos, n_neg = int(np.count_nonzero(d > 0)), int(np.count_nonzero(d < 0))
            row = dict(zip(trials.by[:n_by], fam[:n_by], strict=True))
            row.update(system_a=systems[a], system_b=systems[b], split=fam[-1], metric=metric,
                       test="sign", confidence_level=level)
            if n_pos + n_neg:
                res = stats.sign_test(n_pos, n_neg, alternative=alternative)
                row.update(n=res.n, statistic=res.statistic, pvalue=res.pvalue,
                           log10_pvalue=res.log10_pvalue, method=res.method)
            else:  # every fold ties (or none is shared): no evidence either way
                row.update(n=0, statistic=0.0, pvalue=1.0 if d.size else np.nan,
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
            rows.append(row)
            family_of.append(i_fam)
    out = _finish(rows, trials.by[:n_by], COMPARE_FOLDS_COLUMNS, family_of, adjust, alpha)
    for c in ("n_folds", "wins_a", "wins_b", "ties"):
        out[c] = out[c].astype(np.int64)
    return out


# --------------------------------------------------------------------------- literature


def eer_bound_table(
    reported: pd.DataFrame,
    /,
    *,
    n: int | str | None = None,
    system: str = "system",
    eer: str = "eer",
    alpha: float = 0.05,
    adjust: str | None = "holm",
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    r"""Literature mode: which reported EERs differ significantly (Hofbauer & Uhl bound).

    From a small table of EERs reported on one dataset (one row per method), the bound
    χ²' and p' for every pair, adjusted for multiplicity, and the smallest EER difference
    that is significant for the whole family. No scores are needed.

    Parameters
    ----------
    reported : DataFrame
        One row per method: a ``system`` column and an ``eer`` column (fractions, not
        percent), optionally a column of N and ``by`` columns (one family per dataset).
    n : int or str, optional
        N, the number of trials of the common dataset: a number, or the name of a column
        holding it (constant within each family). Default: the column ``"n"``.
    system, eer : str
        Column names of the method and of its EER.
    alpha : float, default 0.05
        Level of ``reject`` and of ``min_significant_difference``.
    adjust : str or None, default "holm"
        statsmodels ``multipletests`` method code, or None.
    by : str or list of str, optional
        Columns separating the datasets: one family each.

    Returns
    -------
    DataFrame
        One row per unordered pair in input order within each family: the ``by`` columns,
        then (:data:`EER_BOUND_COLUMNS`)

        - ``system_a``, ``system_b``; ``metric`` (``"eer"``); ``test`` (``"eer_bound"``);
          ``n`` (N);
        - ``estimate``: EER_A − EER_B;
        - ``statistic``: χ²'; ``pvalue``: p' = P(χ²₁ > χ²'), an **upper bound** on
          McNemar's p at the EER thresholds; ``log10_pvalue`` (finite where p'
          underflows);
        - ``adjust``, ``pvalue_adj``, ``alpha``, ``reject`` (as :func:`compare`);
        - ``verdict``: ``"significant"`` when rejected, else ``"cannot tell"`` — the bound
          proves a difference, never an equality;
        - ``eer_a``, ``eer_b``: the reported EERs;
        - ``min_significant_difference``: ΔEER of eq. 7 for the family, at the
          per-comparison level ``alpha`` without adjustment and ``alpha / m`` (Bonferroni,
          m pairs) with it, with EER_M the family's largest EER: any pair of the family
          whose EERs differ by at least this much is ``"significant"`` (under Bonferroni,
          Holm, Hommel, Šidák and Benjamini–Hochberg; not guaranteed for the
          Benjamini–Yekutieli and adaptive methods);
        - ``method``: the test's name.

    Raises
    ------
    TypeError
        ``reported`` is not a DataFrame (:data:`ERROR_REPORTED_NOT_A_FRAME`).
    SchemaError
        A missing ``system``, ``eer`` or ``by`` column.
    ValueError
        A missing column of N (:data:`ERROR_N_MISSING`), N that differs within a family
        (:data:`ERROR_N_DIFFERS`), a method listed twice (:data:`ERROR_DUPLICATE_SYSTEMS`),
        fewer than two methods (:data:`ERROR_ONE_SYSTEM`), an EER outside [0, 1]
        (:data:`pandas_biosig.stats.ERROR_RATE`), ``alpha`` outside (0, 1)
        (:data:`ERROR_ALPHA`) or an unknown ``adjust`` (:data:`ERROR_ADJUST`).

    See Also
    --------
    pandas_biosig.stats.eer_bound : the bound for one pair.
    pandas_biosig.stats.min_significant_eer_difference : eq. 7.
    compare : the real test, when the scores are available.

    Notes
    -----
    At the EER thresholds, McNemar's :math:`b - c = (\mathrm{EER}_A - \mathrm{EER}_B) N`
    and :math:`b + c \le (\mathrm{EER}_A + \mathrm{EER}_B) N`, so

    .. math::

        \chi^{2\prime} = \frac{N(\mathrm{EER}_A - \mathrm{EER}_B)^2}
                              {\mathrm{EER}_A + \mathrm{EER}_B}
        \le \chi^2_{McNemar}, \qquad
        \Delta\mathrm{EER} = \sqrt{\frac{2\,\chi^{2*}\,\mathrm{EER}_M}{N}}.

    A large p' says nothing: the real McNemar p-value may still be small.

    References
    ----------
    Hofbauer, H., & Uhl, A. (2016). Calculating a boundary for the significance from the
    equal-error rate. In *Proceedings of the 2016 International Conference on Biometrics
    (ICB)* (pp. 1–4). IEEE.

    Examples
    --------
    Example 3 of the paper (Casia v1.0; TAN entered at 0.58 %, the EER_M the paper uses):

    >>> reported = pd.DataFrame({
    ...     "system": ["TAN", "DAUGMAN", "MA", "YAO", "BASTYS"],
    ...     "eer": [0.0058, 0.0008, 0.0007, 0.0028, 0.0]})
    >>> tab = pbs.eer_bound_table(reported, n=285390, alpha=0.01, adjust=None)
    >>> print(f"{tab.min_significant_difference.iloc[0]:.4%}")
    0.0519%
    >>> tab[["system_a", "system_b", "statistic", "pvalue", "verdict"]].iloc[4:6].round(4)
      system_a system_b  statistic  pvalue      verdict
    4  DAUGMAN       MA     1.9026  0.1678  cannot tell
    5  DAUGMAN      YAO   317.1000  0.0000  significant
    """
    if not isinstance(reported, pd.DataFrame):
        raise TypeError(ERROR_REPORTED_NOT_A_FRAME.format(type=type(reported).__name__))
    alpha = _check_alpha(alpha)
    adjust = _check_adjust(adjust)
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    n_col = "n" if n is None else (n if isinstance(n, str) else None)
    needed = [*by_cols, system, eer] + ([n_col] if n_col is not None else [])
    missing = [c for c in needed if c not in reported.columns]
    if n_col is not None and n_col in missing:
        raise ValueError(ERROR_N_MISSING.format(found=list(reported.columns)))
    if missing:
        raise SchemaError(
            ERROR_MISSING_COLUMNS.format(missing=missing, found=list(reported.columns))
        )
    if n_col is None:
        n_fixed = stats._check_count(n, "n", positive=True)
    groups = reported.groupby(by_cols, sort=False) if by_cols else [((), reported)]
    rows, family_of = [], []
    for i_fam, (key, sub) in enumerate(groups):
        key = key if isinstance(key, tuple) else (key,)
        where = "".join(f"{c}={v!r} " for c, v in zip(by_cols, key, strict=True))
        systems = list(sub[system])
        dup = pd.Index(systems)[pd.Index(systems).duplicated()].unique().tolist()
        if dup:
            raise ValueError(ERROR_DUPLICATE_SYSTEMS.format(where=where or "the table ",
                                                            systems=dup))
        if n_col is None:
            n_fam = n_fixed
        else:
            values = pd.unique(sub[n_col])
            if len(values) != 1:
                raise ValueError(ERROR_N_DIFFERS.format(where=where or "the table ",
                                                        values=list(values)))
            n_fam = stats._check_count(values[0], "n", positive=True)
        eers = [stats._check_rate(float(v), f"{eer} of {s!r}") for s, v in
                zip(systems, sub[eer], strict=True)]
        pairs = _pairs(systems, None, where.strip() or "the table")
        m = len(pairs)
        level = alpha if adjust is None else alpha / m
        delta = stats.min_significant_eer_difference(max(eers), n=n_fam, alpha=level)
        for a, b in pairs:
            res = stats.eer_bound(eers[a], eers[b], n=n_fam)
            row = dict(zip(by_cols, key, strict=True))
            row.update(system_a=systems[a], system_b=systems[b], metric="eer",
                       test="eer_bound", n=n_fam, estimate=res.estimate,
                       statistic=res.statistic, pvalue=res.pvalue,
                       log10_pvalue=res.log10_pvalue, eer_a=eers[a], eer_b=eers[b],
                       min_significant_difference=delta, method=res.method)
            rows.append(row)
            family_of.append(i_fam)
    out = _finish(rows, by_cols, EER_BOUND_COLUMNS, family_of, adjust, alpha)
    out["verdict"] = np.where(out["reject"], "significant", "cannot tell")
    return out


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
