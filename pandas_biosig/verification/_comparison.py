r"""Pairwise tests of systems on one tidy trial table: :func:`compare`.

Every pair of systems (or every system against a baseline) of each (``by`` group, split)
family, tested on the trials they share, adjusted once per family (the rule of
:mod:`pandas_biosig._core.pairwise`). The scalar formulas live in :mod:`pandas_biosig.stats`,
the thresholds in :mod:`pandas_biosig._core.protocol` and the bootstrap in
:mod:`pandas_biosig.verification._resampling`; this module aligns the systems on ``trial``, counts what
the tests need and shapes the table.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

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
    ResampleOption,
)
from .._core.protocol import AUTO, RESAMPLE, Protocol, Resolved
from .._core.replicates import (
    ERROR_LABELS_DIFFER,
    FIXED_THRESHOLD_METRICS,
    FamilyDraws,
    align_pair,
    bootstrap_difference,
    canonical_metric,
    make_rng,
    metric_function,
    replicate_progress,
)
from .._core.results import TestResult
from .._core.schema import Group, SchemaError, check_option, validate_trials
from .._core.validation import (
    check_adjust,
    check_alpha,
    check_alternative,
    check_confidence_level,
    check_costs,
    check_n_resamples,
    check_rate,
)
from .._kernels.pairwise import decision_errors, pair_counts
from ..stats._common import HterTestMethod, McNemarMethod
from ._resampling import BOOTSTRAP_METRICS

__all__ = [
    "COMPARE_COLUMNS",
    "DECISION_TESTS",
    "DecisionTestError",
    "NULL_HYPOTHESIS",
    "TESTS",
    "Test",
    "compare",
    "default_test",
]


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
TESTS: dict[Test, str] = {
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
TEST_METRIC = {
    "hter_dependent": "hter",
    "hter_independent": "hter",
    "naive": "hter",
    "class": "error_rate",
    "mcnemar": "error_rate",
    "gunter_simple": "recognition_rate",
    "gunter_paired": "recognition_rate",
}

_HTER_METHOD: dict[str, HterTestMethod] = {
    "hter_dependent": "dependent",
    "hter_independent": "independent",
    "naive": "naive",
    "class": "class",
}

ERROR_METRIC_UNUSED = (
    "metric={value!r} is only used by test='bootstrap' (the other tests are about a fixed "
    "quantity: {test!r} compares {fixed!r}), got test={test!r}"
)

ERROR_TARGET = "metric={metric!r} needs target= (a rate in [0, 1])"

ERROR_NO_COMMON = (
    "systems {a!r} and {b!r} share no {cls} trial{where}; a paired test needs trials that "
    "both scored"
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

    __module__ = "pandas_biosig"  # its public home, shown in tracebacks and reprs

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

#: Columns of :func:`compare` (after the ``by`` columns).
COMPARE_COLUMNS = [
    *_pw.PAIR_COLUMNS,
    "threshold_a",
    "threshold_b",
    "threshold_from",
    "resample",
    "null_hypothesis",
    "pvalue_mc_se",
]


def default_test(test: str, data: Any, subject: str | None) -> Test:
    """The test ``"auto"`` stands for: the subject-level paired bootstrap of the HTER when
    the table has a subject column (trial-level tests are too liberal when trials share
    subjects), else the dependent HTER test."""
    if test != AUTO:
        return check_option(test, TESTS, "test")
    has = subject is not None and isinstance(data, pd.DataFrame) and subject in data.columns
    return "bootstrap" if has else "hter_dependent"


def null_hypothesis_of(test: str, protocol: Protocol, members: list[Resolved],
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


def result_from_counts(
    test: str,
    counts: dict[str, np.ndarray],
    a: int,
    b: int,
    *,
    alternative: Alternative,
    mcnemar_method: McNemarMethod,
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


def check_test_options(test, *, metric, resample, n_resamples, target, mcnemar_method):
    """The options that only some tests use: ``(metric, target)`` once checked."""
    if test == "bootstrap":
        metric = "hter" if metric is None else metric
        metric = canonical_metric(check_option(metric, BOOTSTRAP_METRICS, "metric"))
        if resample != AUTO:
            check_option(resample, RESAMPLE, "resample")
        check_n_resamples(n_resamples)
        if metric in ("fnmr_at_fmr", "fmr_at_fnmr"):
            if target is None:
                raise ValueError(ERROR_TARGET.format(metric=metric))
            target = check_rate(target, "target")
        return metric, target
    if metric is not None:
        raise ValueError(
            ERROR_METRIC_UNUSED.format(value=metric, test=test, fixed=TEST_METRIC[test])
        )
    if test == "mcnemar":
        check_option(mcnemar_method, stats.MCNEMAR_METHODS, "mcnemar_method")
    return metric, target


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
    adjust: Adjust | None = "holm",
    confidence_level: float = 0.95,
    alternative: Alternative = "two-sided",
    common_trials: bool = False,
    mcnemar_method: McNemarMethod = "exact",
    test_decision_rules: bool = False,
    metric: BootstrapMetric | None = None,
    n_resamples: int = 1000,
    resample: ResampleOption = "auto",
    seed: int | np.random.Generator | None = None,
    progress: bool | None = None,
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
          :func:`pandas_biosig.paired_bootstrap` (the same numbers for the same seed);
          with subjects resampled and a metric at fixed thresholds (the default), a
          studentized test: estimate / bootstrap s.e. against Student's t with
          Welch–Satterthwaite degrees of freedom (``method`` gives them).

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
        thresholds, chosen on dev and tested on eval (see :mod:`pandas_biosig._core.protocol`);
        other tables choose each split's thresholds on its own trials. ``on=None,
        apply_to=None`` asks for that explicitly.
    alpha : float, default 0.05
        Family-wise level (or false discovery rate) of ``reject``.
    adjust : str or None, default "holm"
        A statsmodels ``multipletests`` method code (:data:`pandas_biosig._core.pairwise.ADJUST_METHODS`: ``"holm"``,
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
        :data:`pandas_biosig.verification.BOOTSTRAP_METRICS`; default ``"hter"`` at the
        threshold policy). Other tests compare a fixed quantity and reject it.
    n_resamples, resample, seed, progress
        Bootstrap replicates, resampling scheme (``"auto"``: ``"subject"`` when the table
        has a subject column, else ``"label"``; or ``"label"``, ``"trial"``,
        ``"subject"``), seed and progress bar of ``test="bootstrap"`` (see
        :func:`pandas_biosig.bootstrap`); other tests ignore them. The pairs are resampled
        from one generator, so a seed reproduces the whole table. With subjects resampled
        and a metric at fixed thresholds (``"hter"``, ``"far"``, ``"frr"``), the pairs of a
        family whose trials carry the same subjects share each replicate's draw of the
        subjects (on common trials, every pair of the first family then gets the numbers
        of :func:`pandas_biosig.paired_bootstrap` with the same seed); otherwise the pairs
        draw one after the other.
    by : str or list of str, optional
        Extra grouping columns: one family per group and split.
    system, trial, label, score, split, subject, orientation, nonfinite
        Column names and score handling, as in :func:`pandas_biosig.eer`. ``subject`` is
        read only by ``test="bootstrap"`` (which resamples subjects by default when the
        column exists).
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

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
          difference (unadjusted; Wald, or the bootstrap percentile interval, or for
          the bootstrap of a metric at fixed thresholds with subjects resampled, the
          studentized ``estimate ± t_df · se`` of :func:`pandas_biosig.paired_bootstrap`;
          one-sided for one-sided alternatives);
        - ``alternative``; ``method``: the test's full name (which equation, which
          McNemar variant);
        - ``threshold_a``, ``threshold_b``: the thresholds that made the decisions, in
          score units (NaN for a bootstrap metric that needs none);
        - ``threshold_from``: where they came from — the split they were chosen on,
          ``"same trials"`` (chosen on the tested trials) or ``"fixed"`` (given); None
          when no threshold is used;
        - ``resample``: what the bootstrap resampled (``"subject"``, ``"label"``,
          ``"trial"``), None for the other tests;
        - ``null_hypothesis``: what the test's null says (see ``test``);
        - ``pvalue_mc_se``: the bootstrap's Monte-Carlo standard error of ``pvalue``
          (:attr:`~pandas_biosig.BootstrapTestResult.pvalue_mc_se`): how much it
          would move with another seed; NaN for the tests whose p-value is not resampled.

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

    The dependent HTER test (the default without a subject column) holds its level, also for strongly correlated
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
    data = expand_counts(data, count, trial=trial)
    test = default_test(test, data, subject)
    level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    adjust = check_adjust(adjust)
    alternative = check_alternative(alternative)
    metric, target = check_test_options(test, metric=metric, resample=resample,
                                         n_resamples=n_resamples, target=target,
                                         mcnemar_method=mcnemar_method)
    check_costs(p_target, c_miss, c_fa)
    who = dict(subject=subject, reference_subject=reference_subject)  # read by the bootstrap
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite,
        **(who if test == "bootstrap" else dict.fromkeys(who)),
    )
    sign = -1.0 if trials.orientation == "distance" else 1.0
    fixed = test != "bootstrap" or metric in FIXED_THRESHOLD_METRICS
    protocol = Protocol(threshold=threshold, weight=weight, target=target, p_target=p_target,
                        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, resample=resample)
    unit = protocol.unit(trials, **who) if test == "bootstrap" else None
    members = protocol.resolve(trials, needs_threshold=fixed, resample=unit)
    null = null_hypothesis_of(test, protocol, members, test_decision_rules)
    n_by = len(trials.by)
    names, plans = _pw.family_plans(trials, members, n_by, baseline)
    rows: list[dict] = []
    family_of: list[int] = []
    boot = None if unit is None else _BootstrapPairs(
        metric_function(metric, target=target, p_target=p_target, c_miss=c_miss, c_fa=c_fa),
        make_rng(seed), replicate_progress(progress, n_resamples * sum(len(p) for _, _, p in plans),
                              "compare (bootstrap)"), n_resamples, unit, metric,
    )
    for i_fam, (fam, fam_members, pairs) in enumerate(plans):
        in_where = _pw.in_where(names, fam)
        # one sort per system and one subject draw per family, shared by its pairs
        shared = FamilyDraws() if boot is not None else None
        counts = None
        if boot is None:
            counts = pair_counts(*_error_columns(fam_members, common_trials=common_trials,
                                                 in_where=in_where))
        for a, b in pairs:
            ma, mb = fam_members[a], fam_members[b]
            pair = (ma.group.system, mb.group.system)
            res = _pair_result(boot, shared, test, counts, (a, ma), (b, mb), len(rows),
                               common_trials=common_trials, in_where=in_where,
                               alternative=alternative, mcnemar_method=mcnemar_method)
            row = _pw.pair_row(trials.by, fam, pair, test=test, level=level, res=res,
                               metric=metric if boot is not None else TEST_METRIC[test],
                               alternative=alternative, nan_method=TESTS[test])
            row.update(threshold_a=sign * ma.threshold, threshold_b=sign * mb.threshold,
                       threshold_from=ma.threshold_from,
                       resample=unit, null_hypothesis=null,
                       pvalue_mc_se=getattr(res, "pvalue_mc_se", math.nan))
            rows.append(row)
            family_of.append(i_fam)
    return _pw.finish(rows, trials.by, COMPARE_COLUMNS, family_of, adjust, alpha)


def _pair_result(boot, shared, test, counts, a, b, row, *, common_trials, in_where,
                 alternative, mcnemar_method):
    """The test of one pair (``a``, ``b``: position in the family and member): the paired
    bootstrap's, or the test from the family's discordance counts; None when a threshold
    is NaN (no threshold reaches the criterion: no decisions to compare)."""
    (i, ma), (j, mb) = a, b
    if boot is not None:
        return boot.test(ma, mb, row, common_trials=common_trials, in_where=in_where,
                         alternative=alternative, shared=shared)
    if math.isnan(ma.threshold) or math.isnan(mb.threshold):
        return None
    return result_from_counts(test, counts, i, j, alternative=alternative,
                              mcnemar_method=mcnemar_method,
                              names=(ma.group.system, mb.group.system), in_where=in_where)


@dataclass(frozen=True)
class _BootstrapPairs:
    """The paired bootstrap of :func:`compare`: one generator and one progress bar for
    every pair of the table, in order, so that a seed reproduces the whole table."""

    f: Callable
    rng: np.random.Generator
    tick: Callable[[int], None]
    n_resamples: int
    unit: str
    metric: BootstrapMetric

    def test(self, ma: Resolved, mb: Resolved, done: int, *, common_trials: bool,
             in_where: str, alternative: Alternative, shared: FamilyDraws | None) -> TestResult:
        """The test of one pair, the ``done``-th of the table; ``shared`` holds the sorts
        and subject draws of its family (each pair's numbers stay paired_bootstrap's)."""
        ga, gb = align_pair(ma.group, mb.group, common_trials=common_trials, where=in_where)
        start = done * self.n_resamples
        res = bootstrap_difference(
            ga, gb, self.f, (ma.threshold, mb.threshold), n_resamples=self.n_resamples,
            resample=self.unit, rng=self.rng, alternative=alternative,
            tick=lambda i: self.tick(start + i), metric=self.metric, shared=shared,
        )
        how = f"{res.method} ({self.n_resamples} resamples, resample={self.unit!r})"
        return replace(res, method=how)
