"""Comparison of PAD systems on the same presentations: paired tests of APCER, BPCER and ACER,
with p-values adjusted per family.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from .._core.counted import expand_counts
from .._core.criteria import choose
from .._core.options import Adjust, NonFinite, Orientation
from .._core.protocol import AUTO, SAME_TRIALS, check_policy, resolve_splits
from .._core.replicates import (
    FALLBACK_DIFFERENCE,
    clopper_pearson,
    constant_replicates,
    exact_difference,
)
from .._core.schema import SchemaError, check_option
from .._core.validation import check_confidence_level, check_n_resamples
from .._kernels.pad import PadSweep, weighted_rates
from .._kernels.resample import percentile_interval
from ._table import (
    PAD_CRITERIA,
    PadCriterion,
    PadGroup,
    PadTable,
    resolve_pad,
    subject_codes,
    validate_pad,
)

__all__ = ["PAD_COMPARE_COLUMNS", "PAD_COMPARE_METRICS", "PAD_TESTS", "pad_compare"]

# ----------------------------------------------------------------------------- comparison
#: Metrics :func:`pad_compare` can compare.
PAD_COMPARE_METRICS = {
    "apcer_max": "largest APCER over attack species (ISO/IEC 30107-3's APCER)",
    "bpcer": "BPCER",
    "acer": "(apcer_max + bpcer) / 2 (not part of ISO/IEC 30107-3)",
}
#: Tests of :func:`pad_compare`.
PAD_TESTS = {
    "bootstrap": (
        "paired bootstrap of the difference: presentations (or subjects) resampled on the "
        "split that chooses the thresholds and on the tested split, thresholds re-chosen "
        "in every replicate"
    ),
    "mcnemar": (
        "exact McNemar test on the paired bona fide presentations at the chosen thresholds "
        "(conditional on them); BPCER only"
    ),
}
PAD_COMPARE_COLUMNS = [
    "system_a",
    "system_b",
    "split",
    "metric",
    "test",
    "criterion",
    "threshold_split",
    "threshold_from",
    "target",
    "threshold_a",
    "threshold_b",
    "n",
    "estimate",
    "statistic",
    "pvalue",
    "adjust",
    "pvalue_adj",
    "alpha",
    "reject",
    "confidence_level",
    "ci_low",
    "ci_high",
    "resample",
    "fallback_reason",
]
ERROR_MCNEMAR_METRIC = (
    "test='mcnemar' compares paired decisions on one class; metric={metric!r} is not one "
    "error count (a maximum over species or an average of two rates): use test='bootstrap'"
)
ERROR_PAIR_TRIALS = (
    "systems {a!r} and {b!r} do not score the same presentations{where}: pairing on "
    "{column!r} needs the same trial ids with the same labels and species"
)
ERROR_CRITERION_ONLY = (
    "pad_compare chooses the thresholds again in every bootstrap replicate, so threshold "
    "must be a criterion ({allowed}), not {value!r}"
)
ERROR_PAD_ONE_SYSTEM = "{where}has only one system; a comparison needs at least two"


def _metric_value(metric: str, errs: np.ndarray, totals: np.ndarray, k: int) -> float:
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = errs / totals
    amax = np.nanmax(rates[:k]) if np.isfinite(rates[:k]).any() else np.nan
    if metric == "apcer_max":
        return float(amax)
    if metric == "bpcer":
        return float(rates[k])
    return float((amax + rates[k]) / 2)


class _Aligned:
    """The presentations of one system in one split, ordered by trial id, with the
    per-stratum sort orders needed to rebuild a weighted sweep without sorting."""

    def __init__(self, g: PadGroup, order: np.ndarray, k: int):
        self.scores = g.scores[order]
        self.strata = g.strata(k)[order]
        self.k = k
        self.orders = []
        for s in range(k + 1):
            idx = np.flatnonzero(self.strata == s)
            self.orders.append(idx[np.argsort(self.scores[idx], kind="stable")])

    def sweep(self, weights) -> PadSweep:
        parts = [np.repeat(self.scores[o], weights[o]) for o in self.orders]
        attacks = [p for p in parts[: self.k] if p.size]
        return PadSweep(parts[self.k], attacks, assume_sorted=True)

    def value(self, metric: str, t: float, weights) -> float:
        accepted = self.scores >= t
        err = np.where(self.strata == self.k, ~accepted, accepted)
        e, n = weighted_rates(err, self.strata, self.k + 1, weights)
        return _metric_value(metric, e, n, self.k)


#: Resampling units of a pair: ``(subject codes, number of subjects, None)`` or
#: ``(None, 0, strata)`` (:func:`_units`).
_Units = tuple[np.ndarray | None, int, np.ndarray | None]


def _draw(rng, units: np.ndarray | None, n_units: int, strata: np.ndarray | None, k: int):
    """Multiplicities per presentation: whole clusters (subjects) resampled, or
    presentations resampled within each stratum."""
    if strata is None:
        return rng.multinomial(n_units, np.full(n_units, 1.0 / n_units))[units]
    w = np.empty(strata.size, dtype=np.int64)
    for s in range(k + 1):
        idx = np.flatnonzero(strata == s)
        if idx.size:
            w[idx] = rng.multinomial(idx.size, np.full(idx.size, 1.0 / idx.size))
    return w


def _pair_order(ga: PadGroup, gb: PadGroup, where: str, trial_col: str):
    oa = np.argsort(ga.trial, kind="stable")
    ob = np.argsort(gb.trial, kind="stable")
    same = (
        ga.trial.size == gb.trial.size
        and np.array_equal(ga.trial[oa], gb.trial[ob])
        and np.array_equal(ga.bonafide[oa], gb.bonafide[ob])
        and np.array_equal(ga.species[oa], gb.species[ob])
    )
    if not same:
        raise SchemaError(ERROR_PAIR_TRIALS.format(a=ga.system, b=gb.system, where=where, column=trial_col))
    return oa, ob


def _units(table: PadTable, g: PadGroup, order: np.ndarray, k: int, use_subject: bool):
    """What a replicate draws: whole subjects (their codes, checked by the one subject
    rule) or presentations within each stratum."""
    if use_subject:
        assert g.subject is not None  # use_subject: the table's groups have subject ids
        ordered = PadGroup(g.key, g.scores, g.bonafide, g.species, g.trial, g.subject[order],
                           None if g.rows is None else g.rows[order])
        codes, n_units = subject_codes(table, ordered, "the subject bootstrap of pad_compare")
        return codes, n_units, None
    return None, 0, g.strata(k)[order]


def pad_compare(
    data: pd.DataFrame,
    /,
    *,
    metric: Literal["apcer_max", "bpcer", "acer"] = "apcer_max",
    test: Literal["bootstrap", "mcnemar"] = "bootstrap",
    threshold: PadCriterion = "eer",
    target: float | None = None,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    alpha: float = 0.05,
    adjust: Adjust | None = "holm",
    confidence_level: float = 0.95,
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
    r"""Compare every pair of PAD systems on APCER (max over species), BPCER or ACER.

    The systems of a pair are paired on ``trial`` (the same presentations). Thresholds are
    chosen by ``threshold`` on split ``on`` and the comparison is made on the splits
    ``apply_to`` (``"auto"``: chosen on dev and tested on eval when the table has both, else
    on each split itself, as in :func:`pad_metrics`).

    Parameters
    ----------
    data
        PAD table (see :func:`pad_metrics`).
    metric : {"apcer_max", "bpcer", "acer"}, default "apcer_max"
    test : {"bootstrap", "mcnemar"}, default "bootstrap"
        ``"bootstrap"``: paired bootstrap of the difference A − B. Each replicate
        resamples the presentations — whole subjects when the table has a ``subject``
        column, else presentations within each species and the bona fide class — of the
        choosing split and of the tested split, *re-chooses both thresholds* on the
        resampled choosing split, and recomputes the metric; the p-value is the
        percentile-inversion one (:func:`pandas_biosig.paired_bootstrap`'s). It accounts
        for the noise of the thresholds, so two equally good systems are rejected at the
        nominal rate (measured in ``docs/validity.md``). ``"mcnemar"``: exact McNemar on
        the paired bona fide presentations at the chosen thresholds (``metric="bpcer"``
        only); its null is "these two decision rules make as many errors", conditional on
        the thresholds. When every replicate gives the same difference (no errors in
        either system, say) the bootstrap cannot measure the difference's uncertainty:
        the row then gives exact Clopper–Pearson bounds of each system's rates instead,
        and says so in ``fallback_reason``. Subjects are resampled under the one subject
        rule: a subject id on every presentation, at least two subjects.
    threshold : {"eer", "apcer", "bpcer"}, default "eer"
        Threshold criterion (see :func:`pad_metrics`).
    target : float, optional
        Bound of ``"apcer"`` / ``"bpcer"``.
    on, apply_to : split value, "auto" or None, default "auto"
        As in :func:`pad_metrics`.
    alpha : float, default 0.05
    adjust : str or None, default "holm"
        statsmodels ``multipletests`` method, applied within each family (``by`` group and
        split).
    confidence_level : float, default 0.95
        Level of the interval of the difference (bootstrap percentile; Wald for McNemar).
    n_resamples : int, default 1000
    seed : int or Generator, optional
    by, system, trial, label, score, pai, split, subject, orientation, nonfinite
        As in :func:`pad_metrics` and :func:`pad_rates`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per unordered pair of systems (input order) and tested split: columns
        ``system_a, system_b, split, metric, test, criterion, threshold_split,
        threshold_from, target, threshold_a, threshold_b, n`` (paired presentations),
        ``estimate`` (metric A − metric B), ``statistic`` (bootstrap: estimate /
        bootstrap SE; McNemar: b), ``pvalue, adjust, pvalue_adj, alpha, reject,
        confidence_level, ci_low, ci_high``, ``resample`` (``"subject"`` or
        ``"label"``: presentations within each species and the bona fide class; None for
        McNemar) and ``fallback_reason`` (None, or why the interval is not the
        bootstrap's).

    Raises
    ------
    SchemaError
        As :func:`pad_metrics`; systems that do not score the same presentations; a
        family with one system.
    ValueError
        Unknown ``metric`` or ``test``, McNemar with a metric other than BPCER, bad
        ``alpha``, ``adjust``, ``confidence_level`` or ``n_resamples``.

    Examples
    --------
    >>> pad = pbs.datasets.example_pad()
    >>> res = pbs.pad_compare(pad, n_resamples=200, seed=0)
    >>> res[["system_a", "system_b", "split", "estimate", "pvalue", "resample"]].round(3)
      system_a system_b split  estimate  pvalue resample
    0   resnet      cnn  eval     -0.11    0.04  subject
    >>> pbs.pad_compare(pad, metric="bpcer", test="mcnemar")[["estimate", "statistic", "pvalue"]].round(4)
       estimate  statistic  pvalue
    0    -0.015       17.0  0.4296
    """
    data = expand_counts(data, count, trial=trial)
    check_policy(threshold, kind="pad", target=target)
    alpha, adjust, level, n_resamples = _checked_options(
        metric, test, threshold, alpha=alpha, adjust=adjust,
        confidence_level=confidence_level, n_resamples=n_resamples,
    )
    table = validate_pad(
        data, system=system, trial=trial, label=label, score=score, pai=pai, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    resolved = resolve_pad(table, threshold=threshold, target=target, on=on, apply_to=apply_to)
    choose_split = resolve_splits(table, on, apply_to).on
    use_subject = table.groups[0].subject is not None
    unit = None if test == "mcnemar" else ("subject" if use_subject else "label")
    families = _families(table, resolved)
    rows, family_of = [], []
    for fi, (fam, members) in enumerate(families.items()):
        where = "".join(f"{n}={v!r}, " for n, v in zip(table.by, fam[:-1], strict=False))
        if len(members) < 2:
            raise SchemaError(ERROR_PAD_ONE_SYSTEM.format(where=where))
        for i in range(len(members)):
            for j in range(i + 1, len(members)):
                row = _pair_row(table, members[i], members[j], where, trial, metric, test,
                                choose_split, use_subject, rng, n_resamples, level)
                row.update(metric=metric, test=test, adjust=adjust if adjust is not None else "none",
                           alpha=alpha, confidence_level=level, resample=unit)
                rows.append(row)
                family_of.append(fi)
    return _adjusted(rows, family_of, list(families), table.by, adjust, alpha)


def _pair_row(table, ra, rb, where, trial, metric, test, choose_split, use_subject, rng,
              n_resamples, level) -> dict:
    """The test of one pair of systems on one split."""
    sign = -1.0 if table.orientation == "distance" else 1.0
    k = len(table.species)
    ga, gb = ra.group, rb.group
    oa, ob = _pair_order(ga, gb, f" ({where}split {ga.split!r})", trial)
    ta, tb = ra.threshold, rb.threshold
    ea, eb = _Aligned(ga, oa, k), _Aligned(gb, ob, k)
    one = np.ones(oa.size, dtype=np.int64)
    est = ea.value(metric, ta, one) - eb.value(metric, tb, one)
    why = None
    if test == "mcnemar":
        stat, p, low, high = _mcnemar_pair(ea, eb, ta, tb, k, level)
    else:
        units = _units(table, ga, oa, k, use_subject)
        dev = None
        if choose_split is not None and ra.threshold_from != SAME_TRIALS:
            dev = _dev_pair(table, ga, gb, choose_split, where, trial, k, use_subject)
        deltas = _replicate_deltas(rng, ea, eb, dev, units, k, n_resamples, metric,
                                   ra.criterion, ra.target)
        stat, p, low, high = _bootstrap_summary(deltas, est, level)
        if constant_replicates(deltas):
            stat, p, low, high, why = _exact_fallback(deltas, est, level, metric, (ea, ta),
                                                      (eb, tb), units, k)
    return dict(
        system_a=ga.system, system_b=gb.system, split=ga.split, criterion=ra.criterion,
        threshold_split=ra.threshold_split, threshold_from=ra.threshold_from,
        target=ra.target, threshold_a=sign * ta, threshold_b=sign * tb, n=int(oa.size),
        estimate=float(est), statistic=float(stat), pvalue=p, ci_low=float(low),
        ci_high=float(high), fallback_reason=why,
    )


def _exact_fallback(deltas, est, level, metric, a, b, units, k):
    """Exact bounds of a difference whose bootstrap replicates cannot vary: each
    system's rates in the metric bounded by Clopper–Pearson on their units (subjects or
    presentations holding the stratum), Bonferroni over every rate of both systems."""
    codes, n_units, _ = units
    parts = [_stratum_counts(e, t, codes, n_units, k) for e, t in (a, b)]
    strata = {"apcer_max": range(k), "bpcer": [k], "acer": range(k + 1)}[metric]
    used = [s for s in strata if parts[0][1][s] > 0]
    alpha = (1 - level) / (2 * len(used))
    bounds = []
    for x, n in parts:
        cp = {s: clopper_pearson(x[s], n[s], alpha) for s in used}
        species = [cp[s] for s in used if s < k]
        rate = [(max(lo for lo, _ in species), max(hi for _, hi in species))] if species else []
        if k in cp:
            rate.append(cp[k])
        bounds.append((float(np.mean([lo for lo, _ in rate])), float(np.mean([hi for _, hi in rate]))))
    low, high = exact_difference(*bounds)
    p = 1.0 if est == 0 else float("nan")
    why = FALLBACK_DIFFERENCE.format(
        value=float(deltas[np.isfinite(deltas)][0]) if np.isfinite(deltas).any() else est,
        units="subjects" if codes is not None else "presentations", m=2 * len(used),
        p="p-value 1 (the two systems' rates are equal in every resample)" if est == 0
        else "no p-value")
    return (0.0 if est == 0 else float("nan")), p, low, high, why


def _stratum_counts(e: _Aligned, t: float, codes, n_units: int, k: int):
    """Errors and units per stratum (species..., bona fide) at threshold ``t``: subjects
    holding the stratum (those with an error, when every one errs or none does), or
    presentations."""
    accepted = e.scores >= t
    err = np.where(e.strata == k, ~accepted, accepted)
    errs, totals = weighted_rates(err, e.strata, k + 1)
    if codes is None:
        return errs, totals
    held = np.zeros((n_units, k + 1), dtype=bool)
    held[codes, e.strata] = True
    units = held.sum(axis=0).astype(np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        x = np.round(np.where(totals > 0, errs / np.where(totals > 0, totals, 1), 0) * units)
    return x, units


def _checked_options(metric, test, threshold, *, alpha, adjust, confidence_level,
                     n_resamples) -> tuple[float, Adjust | None, float, int]:
    """:func:`pad_compare`'s options checked: ``(alpha, adjust, level, n_resamples)``."""
    from .._core.validation import check_adjust, check_alpha

    check_option(metric, PAD_COMPARE_METRICS, "metric")
    check_option(test, PAD_TESTS, "test")
    if test == "mcnemar" and metric != "bpcer":
        raise ValueError(ERROR_MCNEMAR_METRIC.format(metric=metric))
    alpha = check_alpha(alpha)
    adjust = check_adjust(adjust)
    level = check_confidence_level(confidence_level)
    n_resamples = check_n_resamples(n_resamples)
    if not isinstance(threshold, str):
        raise ValueError(ERROR_CRITERION_ONLY.format(value=threshold, allowed=list(PAD_CRITERIA)))
    return alpha, adjust, level, n_resamples


def _families(table: PadTable, resolved) -> dict[tuple, list]:
    """The tested groups (the protocol's reported ones) by family, (by..., split)."""
    families: dict[tuple, list] = {}
    for r in resolved:
        families.setdefault((*r.group.key[:-2], r.group.split), []).append(r)
    return families


def _mcnemar_pair(ea: _Aligned, eb: _Aligned, ta: float, tb: float, k: int, level: float):
    """McNemar's test of BPCER on the paired bona fide presentations."""
    from ..stats._mcnemar import mcnemar

    bona = ea.strata == k
    err_a = (ea.scores < ta)[bona]
    err_b = (eb.scores < tb)[bona]
    b = int((err_a & ~err_b).sum())
    c = int((~err_a & err_b).sum())
    res = mcnemar(b, c, n=int(bona.sum()))
    ci = res.confidence_interval(confidence_level=level)
    return float(res.statistic), float(res.pvalue), ci.low, ci.high


def _dev_pair(table: PadTable, ga: PadGroup, gb: PadGroup, choose_split, where, trial, k,
              use_subject: bool):
    """The aligned groups of the pair on the split choosing thresholds, and its resampling
    units."""
    by_key = {g.key: g for g in table.groups}
    ca = by_key[(*ga.key[:-1], choose_split)]
    cb = by_key[(*gb.key[:-1], choose_split)]
    da_o, db_o = _pair_order(ca, cb, f" ({where}split {choose_split!r})", trial)
    return (_Aligned(ca, da_o, k), _Aligned(cb, db_o, k),
            _units(table, ca, da_o, k, use_subject))


def _replicate_deltas(rng, ea, eb, dev: tuple[_Aligned, _Aligned, _Units] | None,
                      ev_units: _Units, k, n_resamples, metric, threshold, tgt):
    """Bootstrap replicates of metric(a) - metric(b), thresholds re-chosen in each replicate."""
    deltas = np.empty(n_resamples)
    for r in range(n_resamples):
        w_eval = _draw(rng, *ev_units, k)
        if dev is None:
            sa, sb = ea.sweep(w_eval), eb.sweep(w_eval)
        else:
            da, db, dev_units = dev
            w_dev = _draw(rng, *dev_units, k)
            sa, sb = da.sweep(w_dev), db.sweep(w_dev)
        try:
            ra = choose(threshold, sa, target=tgt)
            rb = choose(threshold, sb, target=tgt)
        except ValueError:  # a replicate without one class
            deltas[r] = np.nan
            continue
        deltas[r] = ea.value(metric, ra, w_eval) - eb.value(metric, rb, w_eval)
    return deltas


def _bootstrap_summary(deltas: np.ndarray, est: float, level: float):
    """Statistic, p-value and percentile interval of the finite replicates."""
    from .._core.replicates import bootstrap_pvalue

    finite = deltas[np.isfinite(deltas)]
    p = float(bootstrap_pvalue(finite))
    se = float(np.std(finite, ddof=1)) if finite.size > 1 else np.nan
    stat = est / se if se and se > 0 else np.nan
    low, high = (float(x) for x in percentile_interval(finite, level))
    return stat, p, low, high


def _adjusted(rows, family_of, families: list, by: Sequence[str], adjust, alpha) -> pd.DataFrame:
    """The result table, p-values adjusted within each family."""
    from .._core.pairwise import adjust_pvalues as _adjust

    out = pd.DataFrame(rows, columns=[c for c in PAD_COMPARE_COLUMNS if c not in ("pvalue_adj", "reject")])
    p_adj = np.full(len(out), np.nan)
    reject = np.zeros(len(out), dtype=bool)
    fam = np.asarray(family_of)
    for fi in np.unique(fam):
        idx = np.flatnonzero(fam == fi)
        pa, rj = _adjust(out.pvalue.to_numpy()[idx], adjust, alpha)
        p_adj[idx], reject[idx] = pa, rj
    out["pvalue_adj"] = p_adj
    out["reject"] = reject
    by_cols = pd.DataFrame([f[:-1] for f in (families[i] for i in family_of)], columns=list(by))
    out = pd.concat([by_cols.reset_index(drop=True), out.reset_index(drop=True)], axis=1)
    return out[[*by, *PAD_COMPARE_COLUMNS]]
