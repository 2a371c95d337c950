r"""All-pairs comparisons of the CM (or SASV) systems in tandem with one ASV system: the
paired speaker bootstrap of the difference of their minimum t-DCF, t-EER or minimum
a-DCF, adjusted once per family (:mod:`pandas_biosig._core.pairwise`)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Literal

import numpy as np
import pandas as pd

from .._core.counted import expand_counts
from .._core.options import Adjust, Alternative, ResampleOption
from .._core.pairwise import finish, pair_row, pairs
from .._core.protocol import Protocol
from .._core.replicates import bootstrap_result, make_rng, replicate_progress
from .._core.schema import SchemaError
from .._core.validation import check_adjust, check_alpha, check_alternative
from ._metrics import TdcfVersion, _Point
from ._resampling import (
    Metric,
    _asv_fixed,
    _check_resampling,
    _Draws,
    _Engine,
    _estimate,
    _prepare,
    _replicates,
)
from ._table import TandemGroup

__all__ = ["ERROR_TANDEM_ALIGN", "TANDEM_COMPARE_COLUMNS", "tandem_compare"]

TANDEM_COMPARE_COLUMNS = [
    "asv_system", "system_a", "system_b", "split", "metric", "test", "n", "n_subjects",
    "estimate", "statistic", "pvalue", "log10_pvalue", "adjust", "pvalue_adj", "alpha",
    "reject", "confidence_level", "ci_low", "ci_high", "alternative", "method", "resample",
]

ERROR_TANDEM_ALIGN = (
    "CM systems {a!r} and {b!r} of ASV system {asv!r}{split} do not score the same trials "
    "with the same {what}: a paired comparison needs the same trial ids, kinds and "
    "speakers{and_asv}"
)


def _differ(mine: np.ndarray | None, theirs: np.ndarray | None) -> bool:
    """Whether two members' optional columns differ (one present, the other not, or
    unequal arrays)."""
    if mine is None or theirs is None:
        return (mine is None) != (theirs is None)
    return not np.array_equal(mine, theirs)


def _aligned(members: list[TandemGroup], metric: str, split_column) -> list[TandemGroup]:
    """The members reordered to the first one's trials; refused unless every member has
    the same trials, kinds, speakers (and, for the ASV-based metrics, ASV scores)."""
    base = members[0]
    out = [base]
    index = pd.Index(base.trial)
    for m in members[1:]:
        pos = index.get_indexer(m.trial) if m.trial.size == base.trial.size else None
        what = "trial ids"
        ok = pos is not None and (pos >= 0).all() and np.unique(pos).size == pos.size
        if ok:
            assert pos is not None and m.rows is not None  # ok: the same trials; rows kept
            order = np.argsort(pos)
            asv, cm, sasv = (None if getattr(m, r) is None else getattr(m, r)[order]
                             for r in ("asv", "cm", "sasv"))
            m = TandemGroup(m.key, m.scores[order], m.genuine[order], m.trial[order],
                            m.rows[order], None if m.subject is None else m.subject[order],
                            kind=m.kind[order], asv=asv, cm=cm, sasv=sasv)
            checks = [("kinds", m.kind, base.kind), ("speakers", m.subject, base.subject)]
            if metric != "min_adcf":
                checks.append(("ASV scores", m.asv, base.asv))
            differ = [name for name, mine, theirs in checks if _differ(mine, theirs)]
            if differ:
                ok, what = False, differ[0]
        if not ok:
            raise SchemaError(ERROR_TANDEM_ALIGN.format(
                a=base.key[1], b=m.key[1], asv=base.key[0], what=what,
                split="" if split_column is None else f", split {base.key[2]!r}",
                and_asv="" if metric == "min_adcf" else " and the ASV system's scores"))
        out.append(m)
    return out


def _families(table) -> list[tuple[tuple, list[TandemGroup]]]:
    """The groups by (ASV system, split), CM systems in input order."""
    out: dict[tuple, list[TandemGroup]] = {}
    for g in table.groups:
        out.setdefault((g.key[0], g.key[2]), []).append(g)
    return list(out.items())


def tandem_compare(
    data: pd.DataFrame,
    /,
    *,
    metric: Metric = "min_tdcf",
    version: TdcfVersion = "2019",
    costs: str | Mapping[str, float] | None = None,
    asv_threshold: Literal["eer"] | float | Mapping[Hashable, float] = "eer",
    alternative: Alternative = "two-sided",
    alpha: float = 0.05,
    adjust: Adjust | None = "holm",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    resample: ResampleOption = "auto",
    seed: int | np.random.Generator | None = None,
    progress: bool | None = None,
    score: str = "sasv_score",
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    asv_score: str = "asv_score",
    cm_score: str = "cm_score",
    split: str | None = "split",
    subject: str | None = "subject",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Compare every pair of CM systems (or of SASV systems) on the same trials by their
    minimum t-DCF, t-EER or minimum a-DCF: a paired bootstrap that resamples speakers.

    The systems compared are the CM systems of each ASV system and split (a family);
    SASV systems, each with its own spoofing-aware ``score``, are compared as the CM
    systems of one ASV system (name them in ``cm_system``). Every replicate draws the
    same speakers for both systems of a pair and chooses their thresholds again (the
    ASV's EER threshold, each system's threshold of the minimum), so the test accounts
    for the thresholds' noise. P-values are adjusted once per family.

    Parameters
    ----------
    data : DataFrame
        A tandem table (see :func:`tandem_bootstrap`).
    metric : {"min_tdcf", "teer", "min_adcf"}, default "min_tdcf"
    version, costs, asv_threshold
        As in :func:`tandem_bootstrap`.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        ``"less"``: system A's metric is below (better than) B's.
    alpha : float, default 0.05
    adjust : str or None, default "holm"
        A statsmodels ``multipletests`` method, applied within each family.
    confidence_level : float, default 0.95
        Level of the percentile interval of the difference.
    n_resamples : int, default 1000
    resample, seed, progress
        As in :func:`tandem_bootstrap` (speakers by default when the table names them).
    score, asv_system, cm_system, trial, kind, asv_score, cm_score, split, subject : str
        Column names.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per unordered pair of CM systems, in input order, per ASV system and
        split: ``asv_system, system_a, system_b, split, metric, test`` (``"bootstrap"``),
        ``n`` (paired trials), ``n_subjects``, ``estimate`` (metric of A minus metric of
        B), ``statistic`` (the estimate over the replicates' standard deviation),
        ``pvalue, log10_pvalue, adjust, pvalue_adj, alpha, reject, confidence_level,
        ci_low, ci_high, alternative, method, resample``.

    Raises
    ------
    SchemaError
        As :func:`tandem_bootstrap`; systems that do not score the same trials (ids,
        kinds, speakers, and the ASV's scores for the t-DCF and t-EER); a family with one
        CM system.
    ValueError
        A bad option (``alternative``, ``alpha``, ``adjust``, ``confidence_level``,
        ``n_resamples``, ``resample``, ``metric``).

    Notes
    -----
    The test is the percentile test of the replicated differences
    :math:`\Delta^*_b = \theta^*_{A,b} - \theta^*_{B,b}`: twice the smaller share of
    replicates on either side of 0 (with the +1 correction). The library's studentized
    test applies to rates at fixed thresholds (:func:`pandas_biosig.compare`'s HTER);
    these metrics are minima over thresholds chosen in every replicate, so the percentile
    test is used. Its type-I error on simulated tandem systems that are equally good is
    measured in ``docs/validity.md``.

    Examples
    --------
    >>> t = pbs.datasets.example_tandem()
    >>> r = pbs.tandem_compare(t, n_resamples=200, seed=0)
    >>> r[["system_a", "system_b", "split", "estimate", "pvalue", "reject"]].round(3)
      system_a system_b split  estimate  pvalue  reject
    0     cm_a     cm_b   dev    -0.206    0.01    True
    1     cm_a     cm_b  eval    -0.215    0.01    True
    """
    data = expand_counts(data, count, trial=trial)
    n_resamples, level = _check_resampling(n_resamples, confidence_level, resample)
    alternative = check_alternative(alternative)
    alpha = check_alpha(alpha)
    adjust = check_adjust(adjust)
    table, costs = _prepare(data, metric, version, costs, score, dict(
        asv_system=asv_system, cm_system=cm_system, trial=trial, kind=kind,
        asv_score=asv_score, cm_score=cm_score, split=split, subject=subject))
    unit = Protocol(resample=resample).unit(table, subject=subject)
    rng = make_rng(seed)
    families = _families(table)
    tick = replicate_progress(progress, n_resamples * len(families), "tandem_compare")
    rows, family_of = [], []
    for f, (fam, members) in enumerate(families):
        plan = pairs([m.key[1] for m in members], None,
                     f"ASV system {fam[0]!r}" + ("" if fam[1] is None else f", split {fam[1]!r}"))
        members = _aligned(members, metric, table.split_column)
        point = (_Point(version, costs, asv_threshold, table.split_column)
                 if metric == "min_tdcf" else None)
        est = [_estimate(m, metric, costs, point, table.split_column) for m in members]
        engine = _Engine(members, metric, costs, _asv_fixed(asv_threshold, members[0])
                         if metric == "min_tdcf" else None)
        draws = _Draws(members[0], unit, table.split_column)
        reps = _replicates(engine, draws, n_resamples, rng,
                           lambda d, f=f: tick(f * n_resamples + d))
        for i, j in plan:
            res = bootstrap_result(est[i] - est[j], reps[:, i] - reps[:, j], alternative,
                                   n=members[0].kind.size)
            row = pair_row(["asv_system"], fam, (members[i].key[1], members[j].key[1]),
                           metric=metric, test="bootstrap", level=level, res=res,
                           alternative=alternative, nan_method="")
            row.update(n_subjects=draws.n_subjects, resample=unit)
            rows.append(row)
            family_of.append(f)
    return finish(rows, ["asv_system"], TANDEM_COMPARE_COLUMNS[1:], family_of, adjust, alpha)
