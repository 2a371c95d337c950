"""Pairwise tables on dask DataFrames: :func:`pairwise_counts` and :func:`compare`.

What differs from the in-memory :func:`pandas_biosig.compare` is only how the counts are
made: one pass over the partitions (:mod:`pandas_biosig.outofcore._engine`) yields each family's
co-occurrence counts. Thresholds (:mod:`pandas_biosig._core.protocol`), pairs, families and
adjustment (:mod:`pandas_biosig._core.pairwise`) and the tests from counts
(:mod:`pandas_biosig.verification._comparison`) are the shared ones. Public through
:mod:`pandas_biosig.outofcore`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._core.options import (
    Adjust,
    Alternative,
    BootstrapMetric,
    Criterion,
    NonFinite,
    Orientation,
    ResampleOption,
)
from .._core.protocol import Protocol
from .._core.replicates import make_rng, metric_function, replicate_progress
from .._core.validation import (
    check_adjust,
    check_alpha,
    check_alternative,
    check_confidence_level,
    check_costs,
)
from ..stats._common import McNemarMethod
from ._engine import _Engine, _engine, _resolve, refuse_count
from ._intervals import subject_entries
from ._paired import bootstrap_rows, check_bootstrap, check_complete, layouts
from ._paired_sweeps import SWEEP_METRICS, sweep_tests
from ._pairpass import families_of, pair_pass

if TYPE_CHECKING:  # not at import: see pandas_biosig.outofcore._engine
    import dask.dataframe as dd

__all__ = ["PAIRWISE_COLUMNS", "compare", "pairwise_counts"]

PAIRWISE_COLUMNS = [
    "system_a",
    "system_b",
    "split",
    "criterion",
    "threshold_a",
    "threshold_b",
    "n",
    "n_genuine",
    "n_impostor",
    "fa_a",
    "fr_a",
    "fa_b",
    "fr_b",
    "ni_ab",
    "ni_ba",
    "nc_ab",
    "nc_ba",
    "b",
    "c",
]


def _members(eng: _Engine, **policy):
    return eng.solve(lambda eng: _resolve(eng, **policy))


def pairwise_counts(
    data: dd.DataFrame,
    /,
    *,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    common_trials: bool = False,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> pd.DataFrame:
    r"""Paired decision counts of every pair of systems, aligned on ``trial``, out of core.

    The inputs of McNemar's test and of the dependent HTER test (Bengio & Mariéthoz 2004,
    eq. 16), and exactly the counts :func:`pandas_biosig.compare` reads: each system's
    threshold is chosen exactly (as :func:`error_rates` chooses it), the rows are aligned
    on ``trial`` and every partition adds its per-class error co-occurrence matrices
    (:func:`~pandas_biosig._kernels.pairwise.pair_counts`). The alignment check (each
    trial once per system, scored by every system, with one label) runs in the same pass.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table. When its index is ``trial`` with known divisions, the
        partitions are aligned as they are; otherwise the rows are shuffled on ``trial``
        (dask's shuffle, out of core).
    threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        The threshold policy that makes the decisions, as in :func:`error_rates`.
    common_trials : bool
        Count each pair on the trials both systems scored, instead of raising when the
        systems of a split did not score the same trials.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.

    Returns
    -------
    pandas.DataFrame
        The ``by`` columns, then :data:`PAIRWISE_COLUMNS`, one row per unordered pair of
        systems (input order) and split: ``system_a, system_b, split, criterion,
        threshold_a, threshold_b``; ``n`` (trials both scored), ``n_genuine``,
        ``n_impostor``; ``fa_a, fr_a, fa_b, fr_b``; ``ni_ab`` (impostor trials rejected by
        A and accepted by B), ``ni_ba``, ``nc_ab`` (genuine trials accepted by A and
        rejected by B), ``nc_ba``; McNemar's ``b`` (A wrong, B right) ``= ni_ba + nc_ba``
        and ``c`` (A right, B wrong) ``= ni_ab + nc_ab``.

    Raises
    ------
    SchemaError
        Duplicate (system, trial) rows, trials not scored by every system (unless
        ``common_trials``), trials with different labels.
    ValueError
        A split with one system (:data:`pandas_biosig._core.pairwise.ERROR_ONE_SYSTEM`).

    See Also
    --------
    compare : the tests on these counts.
    pandas_biosig.stats.mcnemar, pandas_biosig.stats.hter_test

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> from pandas_biosig.stats import mcnemar
    >>> ddf = dd.from_pandas(pbs.datasets.example_trials(), npartitions=3)
    >>> counts = ddf.biosig.pairwise_counts(on="dev", apply_to="eval")
    >>> row = counts.iloc[0]
    >>> print(row.system_a, row.system_b, row.split, row.n, row.b, row.c)
    cnn cnn_aug eval 1200 50 41
    >>> print(f"{mcnemar(int(row.b), int(row.c), n=int(row.n)).pvalue:.3f}")
    0.402
    """
    from .._core.pairwise import ERROR_ONE_SYSTEM, key_where

    check_costs(p_target, c_miss, c_fa)
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite, duplicates=False,
    )
    members = _members(eng, threshold=threshold, weight=weight, target=target,
                       p_target=p_target, c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to)
    families = families_of(eng, members)
    names = [*eng.spec.by, "split"]
    for fam, systems in families.items():
        if len(systems) < 2:
            where = key_where(names, fam) or "the table"
            raise ValueError(ERROR_ONE_SYSTEM.format(where=where, systems=[s for s, _ in systems]))
    counts = pair_pass(eng, data, families, common_trials)
    crit = {m.group.key: m.criterion for m in members}
    rows = []
    sign = eng.spec.sign
    for fam, systems in families.items():
        c = counts.get(fam)
        k = len(systems)
        if c is None:  # no trial of the family reached a partition: every count is 0
            c = {n: np.zeros((k, k), np.int64) for n in ("n_i", "n_c", "err_i", "err_c", "both_i", "both_c")}
        for a in range(k):
            for b in range(a + 1, k):
                (sa, ta), (sb, tb) = systems[a], systems[b]

                def get(name, i, j, c=c):
                    return int(c[name][i, j])

                ni, nc = get("n_i", a, b), get("n_c", a, b)
                fa_a, fa_b, fr_a, fr_b = get("err_i", a, b), get("err_i", b, a), get("err_c", a, b), get("err_c", b, a)
                both_i, both_c = get("both_i", a, b), get("both_c", a, b)
                row = dict(zip(eng.spec.by, fam[:-1], strict=True))
                row.update(
                    system_a=sa, system_b=sb, split=fam[-1], criterion=crit[(*fam[:-1], sa, fam[-1])],
                    threshold_a=sign * ta, threshold_b=sign * tb, n=ni + nc, n_genuine=nc,
                    n_impostor=ni, fa_a=fa_a, fr_a=fr_a, fa_b=fa_b, fr_b=fr_b,
                    ni_ab=fa_b - both_i, ni_ba=fa_a - both_i, nc_ab=fr_b - both_c, nc_ba=fr_a - both_c,
                )
                row["b"] = row["ni_ba"] + row["nc_ba"]
                row["c"] = row["ni_ab"] + row["nc_ab"]
                rows.append(row)
    return pd.DataFrame(rows, columns=[*eng.spec.by, *PAIRWISE_COLUMNS])


def compare(
    data: dd.DataFrame,
    /,
    *,
    test: str = "auto",
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
    r"""Test every pair of systems of a dask trial table, as :func:`pandas_biosig.compare`.

    The per-pair counts come from one pass aligned on ``trial`` (see
    :func:`pairwise_counts`), the thresholds from the exact out-of-core criteria, and the
    tests, intervals and multiplicity adjustment from :mod:`pandas_biosig.verification._comparison`
    itself, so the table equals the pandas one. The paired bootstrap (``test="bootstrap"``,
    the default with a subject column) of a metric at fixed thresholds gives the in-memory
    replicates for the same seed, to the bit (:mod:`pandas_biosig.outofcore._paired`).

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    test, baseline, threshold, weight, target, p_target, c_miss, c_fa, on, apply_to, alpha, adjust, confidence_level, alternative, common_trials, mcnemar_method, n_resamples, seed, progress, by, system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        As in :func:`pandas_biosig.compare` (``"auto"`` is the subject bootstrap of the
        HTER with a subject column, as in memory).
    metric : {"hter", "far", "frr", "eer", "eer_threshold", "eer_interpolated", "fnmr_at_fmr"}, optional
        The metric of ``test="bootstrap"``: read at each system's threshold (``"hter"``,
        the default, ``"far"``, ``"frr"``), or, with subjects drawn, the EER and FNMR at
        FMR ``target`` (each system's genuine trials and the impostor tail the replicates
        can reach are gathered, as :func:`bootstrap` gathers them). The other metrics
        (``"auc"``, ``"min_dcf"``, ...; the EER with trials drawn) read every trial of
        every replicate and raise a ``ValueError``
        (:data:`pandas_biosig.outofcore._paired.ERROR_BOOTSTRAP_METRIC`).
    resample : {"auto", "subject", "label", "trial"}
        What ``test="bootstrap"`` draws, as in memory; ``"two_way"`` (the in-memory
        default with a reference subject column) raises a ``ValueError``
        (:data:`pandas_biosig.outofcore._intervals.ERROR_TWO_WAY`).
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError``
        (:data:`pandas_biosig.outofcore._engine.ERROR_COUNT`); compute() the table to use
        counted trials.

    Returns
    -------
    pandas.DataFrame
        :func:`pandas_biosig.compare`'s columns (``COMPARE_COLUMNS``).

    Raises
    ------
    SchemaError
        As :func:`pandas_biosig.compare`; with subjects resampled, a trial whose subject
        differs between systems
        (:data:`pandas_biosig.outofcore._pairpass.ERROR_SUBJECTS_DIFFER`).
    ValueError
        As :func:`pandas_biosig.compare`; the refusals above, and subjects resampled with
        ``common_trials=True`` where two systems do not score the same trials
        (:data:`pandas_biosig.outofcore._paired.ERROR_BOOTSTRAP_COMMON`).
    MemoryError
        The EER or FNMR at FMR with subjects drawn, when what the replicates can reach
        exceeds ``pandas_biosig.bootstrap_bytes``
        (:data:`pandas_biosig.outofcore._bootstrap.ERROR_TAIL_TOO_LARGE`).

    See Also
    --------
    pairwise_counts, pandas_biosig.compare

    Notes
    -----
    The bootstrap's passes: with subjects drawn, one that sums each subject's trials and
    errors per system at its threshold, the aligned pass (which then also checks that each
    trial has one subject), and, when a family's pairs start from different systems, one
    that hashes each system's subject codes in table order (which pairs share a draw).
    For the EER and FNMR at FMR, instead of the last: the ladder and tail passes of
    :func:`bootstrap` (:mod:`pandas_biosig.outofcore._paired_sweeps`).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> ours = ddf.biosig.compare(test="hter_dependent")
    >>> ours.equals(pbs.compare(trials, test="hter_dependent"))
    True

    The default on a table with subjects, the subject bootstrap of the HTER:

    >>> kw = dict(n_resamples=200, seed=1)
    >>> ddf.biosig.compare(**kw).equals(pbs.compare(trials, **kw))
    True
    """
    refuse_count(count)
    from .._core import pairwise as _pw
    from ..verification import _comparison as _cmp

    has_subject = subject is not None and subject in data.columns
    test = "bootstrap" if test == "auto" and has_subject else _cmp.default_test(test, None, None)
    level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    adjust = check_adjust(adjust)
    alternative = check_alternative(alternative)
    metric, target = _cmp.check_test_options(test, metric=metric, resample=resample,
                                             n_resamples=n_resamples, target=target,
                                             mcnemar_method=mcnemar_method)
    unit = None
    if test == "bootstrap":
        unit = check_bootstrap(data, metric, resample, subject, reference_subject)
    check_costs(p_target, c_miss, c_fa)
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite, duplicates=False,
    )
    policy: dict[str, Any] = dict(threshold=threshold, weight=weight, target=target,
                                  p_target=p_target, c_miss=c_miss, c_fa=c_fa, on=on,
                                  apply_to=apply_to)
    if metric in SWEEP_METRICS and unit is not None:  # read over all thresholds
        members = eng.solve(lambda eng: Protocol(**policy).resolve(
            eng.trials, needs_threshold=False, sweep_of=lambda g: eng.sweep(g.key)))
    else:
        members = _members(eng, **policy)
    null = _cmp.null_hypothesis_of(test, Protocol(**policy), members, test_decision_rules)
    names, plans = _pw.family_plans(eng.trials, members, len(eng.trials.by), baseline)
    if unit is None:
        counts = pair_pass(eng, data, families_of(eng, members), common_trials)
        rows, family_of = _count_rows(eng, test, plans, names, counts, null=null, level=level,
                                      alternative=alternative, mcnemar_method=mcnemar_method)
    else:
        opts = dict(f=metric_function(metric, target=target, p_target=p_target, c_miss=c_miss,
                                      c_fa=c_fa),
                    unit=unit, metric=metric, n_resamples=n_resamples, rng=make_rng(seed),
                    alternative=alternative, level=level, null=null, target=target)
        opts["tick"] = replicate_progress(progress, n_resamples * sum(len(p) for _, _, p in plans),
                                          "compare (bootstrap)")
        counts = _bootstrap_counts(eng, data, members, (names, plans), common_trials, subject,
                                   opts)
        rows, family_of = bootstrap_rows(eng, plans, names, counts, opts)
    return _pw.finish(rows, eng.trials.by, _cmp.COMPARE_COLUMNS, family_of, adjust, alpha)


def _bootstrap_counts(eng, data, members, families, common_trials, subject, opts) -> dict:
    """The passes of the paired bootstrap: with subjects drawn, each subject's counts per
    system before the aligned pass (which then also checks each trial's subject), and
    after it each system's subject layout (where the pairs of a family need it) or, for a
    metric of the sweep, the compressed tables and the tests themselves."""
    names, plans = families
    who = None
    if opts["unit"] == "subject":
        who = subject
        frame = data[list(dict.fromkeys([*eng.spec.columns, subject]))]
        opts["entries"] = subject_entries(eng, frame, subject,
                                          {m.group.key: m.threshold for m in members})
    counts = pair_pass(eng, data, families_of(eng, members), common_trials, subject=who)
    if who is None:
        return counts
    check_complete(eng, plans, names, counts)
    if opts["metric"] in SWEEP_METRICS:
        opts["n_trials"] = lambda key: eng.scores[key].n + eng.scores[key].p
        pairs = [(fm[a], fm[b]) for _, fm, ps in plans for a, b in ps]
        spec = replace(eng.spec, trial=subject)
        opts["results"] = iter(sweep_tests(eng, frame, spec, pairs, opts))
    else:
        opts["layouts"] = layouts(eng, frame, subject, opts["entries"], plans)
    return counts


def _count_rows(eng, test, plans, names, counts, *, null, level, alternative,
                mcnemar_method) -> tuple[list[dict], list[int]]:
    """The rows of the tests read from each family's co-occurrence counts."""
    from .._core import pairwise as _pw
    from ..verification import _comparison as _cmp

    sign = eng.spec.sign
    rows: list[dict] = []
    family_of: list[int] = []
    for i_fam, (fam, fam_members, pairs) in enumerate(plans):
        in_where = _pw.in_where(names, fam)
        for a, b in pairs:
            ma, mb = fam_members[a], fam_members[b]
            pair = (ma.group.system, mb.group.system)
            if math.isnan(ma.threshold) or math.isnan(mb.threshold):
                res = None
            else:
                res = _cmp.result_from_counts(
                    test, counts[fam], a, b, alternative=alternative,
                    mcnemar_method=mcnemar_method, names=pair, in_where=in_where,
                )
            row = _pw.pair_row(eng.trials.by, fam, pair, metric=_cmp.TEST_METRIC[test],
                               test=test, level=level, res=res, alternative=alternative,
                               nan_method=_cmp.TESTS[test])
            row.update(threshold_a=sign * ma.threshold, threshold_b=sign * mb.threshold,
                       threshold_from=ma.threshold_from, resample=None, null_hypothesis=null,
                       pvalue_mc_se=math.nan)
            rows.append(row)
            family_of.append(i_fam)
    return rows, family_of
