r"""Is a fusion's gain real? :func:`compare_fusion`: each fused system against the fusion.

With the weights held fixed (``refit=False``) this is :func:`pandas_biosig.compare` of the
table :func:`pandas_biosig.fuse` returns, each component against the fused system on eval,
with compare's default test. The weights were estimated on dev, so that test conditions
on them: it says whether *this* fused system beats its components. ``refit=True`` asks
whether *fusing* does: every bootstrap replicate resamples the dev trials (subjects,
when known) and the eval trials, refits the fusion on the resampled dev split (the full
map and its cross-fitted dev LLRs), re-chooses every system's threshold on the resampled
dev split, and measures the difference on the resampled eval split, so the interval
carries the weights' own estimation noise and the thresholds'.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from .._core import pairwise as _pw
from .._core.counted import expand_counts
from .._core.criteria import check_criterion, choose, criterion_parameters
from .._core.options import Adjust, Alternative, BootstrapMetric, Criterion, ResampleOption
from .._core.protocol import Protocol
from .._core.replicates import (
    FIXED_THRESHOLD_METRICS,
    PairedResampler,
    bootstrap_result,
    make_rng,
    metric_function,
    replicate_progress,
)
from .._core.schema import Group, check_option
from .._core.validation import (
    check_adjust,
    check_alpha,
    check_alternative,
    check_confidence_level,
    check_costs,
    check_flag,
    check_n_resamples,
    check_rate,
)
from .._kernels.calibration import LinearFit
from .._kernels.rates import Sweep
from ..verification import BOOTSTRAP_METRICS, COMPARE_COLUMNS, compare
from ._api import fusion_plan
from ._fit import Settings, Unit, _blocks, cross_fit, fit_map, run, trial_frame

__all__ = ["ERROR_REFIT_SPLITS", "NULL_REFIT", "compare_fusion"]

ERROR_REFIT_SPLITS = (
    "refit=True refits the fusion on a development split and tests it on another, but "
    "this table has no split to fit on (on={on!r}): pass on= and apply_to=, or refit=False"
)
#: The ``null_hypothesis`` of the refitted test.
NULL_REFIT = "metric_A = metric_B, the fusion refitted (and thresholds re-chosen) per replicate"


def compare_fusion(
    data: pd.DataFrame,
    /,
    *,
    systems: Sequence[Hashable] | None = None,
    name: Hashable = "fused",
    prior: float = 0.5,
    refit: bool = False,
    metric: BootstrapMetric | None = None,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    folds: int = 5,
    alpha: float = 0.05,
    adjust: Adjust | None = "holm",
    confidence_level: float = 0.95,
    alternative: Alternative = "two-sided",
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
    count: str | None = None,
) -> pd.DataFrame:
    r"""Test the gain of a linear fusion: each fused system against the fused one.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table in which the fused systems score the same trials.
    systems, name, prior, folds
        The fusion, as in :func:`pandas_biosig.fuse`.
    refit : bool, default False
        False: the weights fitted on ``on`` are held fixed and the table is
        :func:`pandas_biosig.compare` of the fused table, each component against the fused
        system (``baseline=name``), with compare's default test (the studentized subject
        bootstrap of the HTER when the table has a subject column). True: a paired
        bootstrap in which every replicate resamples the dev and the eval trials (both
        by subject when known), refits the fusion on the resampled dev trials (the full
        map for eval, the cross-fitted LLRs for dev), re-chooses each threshold on dev
        and measures ``metric`` on the resampled eval trials; percentile interval and
        p-value of the replicated differences.
    metric : str, optional
        The metric compared (:data:`pandas_biosig.verification.BOOTSTRAP_METRICS`);
        default ``"hter"`` at the threshold policy. With ``refit=False`` a metric makes
        the test the paired bootstrap (``compare(test="bootstrap")``).
    threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        The threshold policy and the splits, as in :func:`pandas_biosig.compare`; ``on``
        is also the split the fusion is fitted on (``"auto"``: dev), ``apply_to`` the
        split(s) tested.
    alpha, adjust, confidence_level, alternative, n_resamples, resample, progress
        As in :func:`pandas_biosig.compare` (one family per ``by`` group and tested
        split: its rows are adjusted together).
    seed : int, numpy Generator or None
        Seeds the cross-fitting folds and the bootstrap.
    by, system, trial, label, score, split, subject
        As in :func:`pandas_biosig.compare`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        The columns of :func:`pandas_biosig.compare` (:data:`COMPARE_COLUMNS`), one row
        per fused system: ``system_a`` the component, ``system_b`` the fused system, so
        ``estimate`` = metric(component) − metric(fused): positive when the fusion
        lowers an error metric. With ``refit=True``: ``test="bootstrap"``, ``method``
        says the fusion was refitted, ``threshold_a``, ``threshold_b`` are the point
        estimate's thresholds (chosen on the cross-fitted dev LLRs for the fused system)
        and ``null_hypothesis`` is :data:`NULL_REFIT`.

    Raises
    ------
    SchemaError, ValueError, CalibrationError
        As :func:`pandas_biosig.fuse` and :func:`pandas_biosig.compare`; with
        ``refit=True``, a table without a split to fit on (:data:`ERROR_REFIT_SPLITS`).

    See Also
    --------
    pandas_biosig.fuse, pandas_biosig.compare

    Notes
    -----
    Fusing a useful system with pure noise adds nothing: the fused system is the useful
    one plus a noise term whose weight is estimated near 0. The validity harness
    (``docs/validity.md``, "Calibration and fusion") measures how often each version of
    this test claims a difference then.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.compare_fusion(trials, systems=["cnn", "gmm"], seed=0, n_resamples=200)
    >>> res[["system_a", "system_b", "split", "estimate", "reject"]].round(3)
      system_a system_b split  estimate  reject
    0      cnn    fused  eval     0.010   False
    1      gmm    fused  eval     0.060    True
    """
    data = expand_counts(data, count, trial=trial)
    check_flag(refit, "refit")
    rng = make_rng(seed)
    fold_seed = int(rng.integers(2**32))
    trials, settings, units = fusion_plan(
        data, systems=systems, name=name, prior=prior, on=on, apply_to=apply_to, folds=folds,
        seed=fold_seed, by=by, system=system, trial=trial, label=label, score=score,
        split=split, subject=subject, orientation="similarity")
    out = run(trials, units, settings)
    if not refit:
        table = trial_frame(data, out.rows, system=system, score=score)
        table = table[table[system].isin([*units[0].sources, name])]
        return compare(
            table, test="auto" if metric is None else "bootstrap", baseline=name,
            metric=metric, threshold=threshold, weight=weight, target=target,
            p_target=p_target, c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to,
            alpha=alpha, adjust=adjust, confidence_level=confidence_level,
            alternative=alternative, n_resamples=n_resamples, resample=resample, seed=rng,
            progress=progress, by=by, system=system, trial=trial, label=label, score=score,
            split=split, subject=subject)
    options = _options(metric, threshold, weight, target, p_target, c_miss, c_fa, on,
                       apply_to, resample, alpha, adjust, confidence_level, alternative,
                       n_resamples)
    return _refitted(trials, settings, units[0], out, options, rng, progress, subject)


@dataclass(frozen=True)
class _Options:
    metric: str
    f: Callable[[Sweep, float], float]  # metric_function(metric, ...)
    protocol: Protocol
    unit: str  # the resampling unit, decided later
    alpha: float
    adjust: str | None
    level: float
    alternative: str
    n_resamples: int


def _options(metric, threshold, weight, target, p_target, c_miss, c_fa, on, apply_to,
             resample, alpha, adjust, level, alternative, n_resamples) -> _Options:
    metric = "hter" if metric is None else check_option(metric, BOOTSTRAP_METRICS, "metric")
    check_costs(p_target, c_miss, c_fa)
    if metric in ("fnmr_at_fmr", "fmr_at_fnmr") or threshold in ("far", "frr"):
        target = check_rate(target, "target")
    if isinstance(threshold, str):
        check_criterion(threshold, "verification")
    protocol = Protocol(threshold=threshold, weight=weight, target=target, p_target=p_target,
                        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, resample=resample)
    f = metric_function(metric, target=target, p_target=p_target, c_miss=c_miss, c_fa=c_fa)
    return _Options(metric, f, protocol, "", check_alpha(alpha), check_adjust(adjust),
                    check_confidence_level(level), check_alternative(alternative),
                    check_n_resamples(n_resamples))


def _threshold(protocol: Protocol, sweep: Sweep, system, where: str) -> float:
    """The threshold of ``system`` under the protocol's policy, chosen on ``sweep``."""
    t = protocol.threshold
    if isinstance(t, str):
        w, target = criterion_parameters(t, weight=protocol.weight, target=protocol.target,
                                         p_target=protocol.p_target, c_miss=protocol.c_miss,
                                         c_fa=protocol.c_fa)
        return choose(t, sweep, weight=w, target=target, where=where)
    if isinstance(t, Mapping | pd.Series):
        return float(t[system])
    return float(t)


def _counted(scores: np.ndarray, genuine: np.ndarray, w: np.ndarray | None) -> Sweep:
    if w is None:
        return Sweep.from_scores(scores, genuine)
    return Sweep.from_scores(np.repeat(scores, w), np.repeat(genuine, w))


@dataclass
class _Family:
    """One ``by`` group's fusion: the dev block, its folds, the tested block, and the
    fits on the data themselves (the point estimate; every replicate's refit starts from
    them)."""

    unit: Unit
    settings: Settings
    dev_x: np.ndarray
    dev_genuine: np.ndarray
    fold: np.ndarray
    ev_x: np.ndarray
    ev_genuine: np.ndarray
    where: str
    full: LinearFit | None = None
    folds: list | None = None
    dev_llr: np.ndarray | None = None

    def fit(self) -> None:
        s = self.settings
        self.full = fit_map("linear", self.dev_x, self.dev_genuine, s.prior, self.where)
        self.dev_llr, maps = cross_fit("linear", self.dev_x, self.dev_genuine, self.fold,
                                       s.k, s.prior, self.where)
        self.folds = [m for m, _ in maps]

    def values(self, opt: _Options, w_dev, w_ev, comp_dev, comp_ev) -> np.ndarray:
        """metric(component) - metric(fused) of every component for one draw of
        multiplicities ``w_dev``, ``w_ev`` (None: the data themselves), NaN where the
        resampled dev trials cannot be fitted."""
        s, u = self.settings, self.unit
        needs = opt.metric in FIXED_THRESHOLD_METRICS
        if w_dev is None:
            assert self.full is not None  # fitted by fit() before any replicate
            m, llr = self.full, self.dev_llr
        else:
            try:
                m = fit_map("linear", self.dev_x, self.dev_genuine, s.prior, self.where,
                            w_dev, self.full)
                llr = None if not needs else cross_fit(
                    "linear", self.dev_x, self.dev_genuine, self.fold, s.k, s.prior,
                    self.where, w_dev, self.folds)[0]
            except ValueError:  # a resampled dev split the fusion cannot be fitted on
                return np.full(len(u.sources), np.nan)
        t_fused = math.nan
        if needs:
            assert llr is not None  # cross-fitted when a threshold is needed
            t_fused = _threshold(opt.protocol, _counted(llr, self.dev_genuine, w_dev), u.name,
                                 self.where)
        v_fused = opt.f(_counted(m.apply(self.ev_x), self.ev_genuine, w_ev), t_fused)
        out = np.empty(len(u.sources))
        for j, src in enumerate(u.sources):
            t = _threshold(opt.protocol, comp_dev[j], src, self.where) if needs else math.nan
            out[j] = opt.f(comp_ev[j], t) - v_fused
        return out

    def thresholds(self, opt: _Options, comp_dev) -> list[float]:
        """The point estimate's thresholds: the components', then the fused system's."""
        if opt.metric not in FIXED_THRESHOLD_METRICS:
            return [math.nan] * (len(self.unit.sources) + 1)
        assert self.dev_llr is not None  # cross-fitted by fit()
        fused = _threshold(opt.protocol, Sweep.from_scores(self.dev_llr, self.dev_genuine),
                           self.unit.name, self.where)
        return [_threshold(opt.protocol, sw, src, self.where)
                for sw, src in zip(comp_dev, self.unit.sources, strict=True)] + [fused]


def _components(block, unit: Unit) -> list[Group]:
    g = block.group
    return [Group((*g.key[:-2], src, g.split), block.x[:, j], g.genuine, g.trial, None,
                  g.subject) for j, src in enumerate(unit.sources)]


def _refitted(trials, settings: Settings, unit: Unit, out, opt: _Options, rng, progress,
              subject) -> pd.DataFrame:
    """The refitted bootstrap test of every (``by`` group, tested split)."""
    if settings.on is None:
        raise ValueError(ERROR_REFIT_SPLITS.format(on=opt.protocol.on))
    opt = replace(opt, unit=opt.protocol.unit(trials, subject=subject))
    n_by = len(trials.by)
    plan = []
    for by_key in dict.fromkeys(g.key[:n_by] for g in trials.groups):
        blocks = _blocks(trials, unit, by_key)
        dev = blocks[settings.on]
        fold = out.folds[(*by_key, settings.on)][id(dev.group)]
        for split in blocks:
            if split != settings.on and (settings.apply_to is None
                                         or split in settings.apply_to):
                plan.append((by_key, split, _Family(
                    unit, settings, dev.x, dev.group.genuine, fold, blocks[split].x,
                    blocks[split].group.genuine, f"fusion {unit.name!r}"), dev, blocks[split]))
    tick = replicate_progress(progress, opt.n_resamples * len(plan), "compare_fusion (refit)")
    rows, family_of = [], []
    for i, (by_key, split, fam, dev, ev) in enumerate(plan):
        rows += _family_rows(trials, by_key, split, fam, dev, ev, opt, rng,
                             lambda d, i=i: tick(i * opt.n_resamples + d))
        family_of += [i] * len(unit.sources)
    return _pw.finish(rows, trials.by, COMPARE_COLUMNS, family_of, opt.adjust, opt.alpha)


def _family_rows(trials, by_key, split, fam: _Family, dev, ev, opt: _Options, rng,
                 tick) -> list[dict]:
    unit = fam.unit
    dev_res = PairedResampler(_components(dev, unit), opt.unit)
    ev_res = PairedResampler(_components(ev, unit), opt.unit)
    fam.fit()
    est = fam.values(opt, None, None, dev_res.sweeps, ev_res.sweeps)
    thresholds = fam.thresholds(opt, dev_res.sweeps)
    deltas = np.empty((opt.n_resamples, len(unit.sources)))
    for r in range(opt.n_resamples):
        w_dev, w_ev = dev_res.weights(rng), ev_res.weights(rng)
        comp_dev, comp_ev = dev_res.sweeps_for(w_dev), ev_res.sweeps_for(w_ev)
        deltas[r] = (np.nan if comp_dev is None or comp_ev is None  # a class drawn empty
                     else fam.values(opt, w_dev, w_ev, comp_dev, comp_ev))
        tick(r + 1)
    failed = int(np.isnan(deltas).any(axis=1).sum())
    how = (f"paired bootstrap of the metric difference, the fusion refitted on the "
           f"resampled dev trials in every replicate ({opt.n_resamples} resamples, "
           f"resample={opt.unit!r}" + (f", {failed} refits failed" if failed else "") + ")")
    rows = []
    for j, src in enumerate(unit.sources):
        res = replace(bootstrap_result(est[j], deltas[:, j], opt.alternative,
                                       n=ev.group.genuine.size), method=how)
        row = _pw.pair_row(trials.by, (*by_key, split), (src, unit.name), metric=opt.metric,
                           test="bootstrap", level=opt.level, res=res,
                           alternative=opt.alternative, nan_method=how)
        row.update(threshold_a=thresholds[j], threshold_b=thresholds[-1],
                   threshold_from=fam.settings.on if not math.isnan(thresholds[j]) else None,
                   resample=opt.unit, null_hypothesis=NULL_REFIT,
                   pvalue_mc_se=res.pvalue_mc_se)
        rows.append(row)
    return rows
