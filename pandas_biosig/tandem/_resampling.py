r"""Uncertainty of the tandem metrics: intervals by resampling speakers, and all-pairs
comparisons of CM (or SASV) systems on the same trials.

A replicate draws whole speakers with replacement (the table's ``subject`` column, by
the protocol's rule :meth:`pandas_biosig._core.protocol.Protocol.unit`), or, without
speakers, trials within each kind. Each trial gets the multiplicity of its speaker and
the replicate's metric is that of the table with every trial repeated so often: the
scores are sorted once and every block of replicates is read off cumulative sums of the
multiplicities (:mod:`pandas_biosig._kernels.tandem_replicates`), vectorised over the
replicates of the block (the t-EER, a search over two thresholds, replicate by
replicate on the repeated sorted scores). Thresholds chosen by a criterion (the ASV's EER
threshold, the CM threshold of the minimum) are chosen again in every replicate, so their
noise is part of the interval.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Hashable, Mapping
from typing import Literal

import numpy as np
import pandas as pd
from scipy.stats import norm

from .._core.counted import expand_counts
from .._core.options import ResampleOption
from .._core.protocol import AUTO, RESAMPLE, Protocol, subject_clusters
from .._core.replicates import make_rng, replicate_progress
from .._core.schema import check_option
from .._core.validation import check_confidence_level, check_n_resamples, check_tandem_costs
from .._kernels.min_band import Moments, band_edges_minima, candidates, max_t
from .._kernels.resample import percentile_interval
from .._kernels.tandem import min_adcf, min_tdcf
from .._kernels.tandem import teer as teer_kernel
from .._kernels.tandem_replicates import (
    AsvReplicates,
    ClassReplicates,
    block_size,
    expanded_teer,
    taker,
    tdcf_weight_arrays,
)
from ._common import cost_columns, fixed_threshold, in_group
from ._metrics import ASV_THRESHOLDS, TdcfVersion, _Point, tdcf_costs
from ._table import TandemGroup, validate_tandem, where

__all__ = [
    "ERROR_BAND_TEER",
    "TANDEM_CI_METHODS",
    "TANDEM_DEFAULT_CI",
    "bootstrap_interval",
    "group_replicates",
    "prepare",
    "TANDEM_BOOTSTRAP_COLUMNS",
    "TANDEM_METRICS",
    "tandem_bootstrap",
]

#: The metrics of :func:`tandem_bootstrap` and :func:`tandem_compare`.
TANDEM_METRICS = {
    "min_tdcf": "the minimum t-DCF, the ASV at its EER threshold (chosen again in every "
                "replicate) or at a given one",
    "teer": "the concurrent t-EER",
    "min_adcf": "the minimum a-DCF of the spoofing-aware score (column score)",
}
#: Interval methods of :func:`tandem_bootstrap`.
TANDEM_CI_METHODS = {
    "auto": "band for the minima (min_tdcf, min_adcf), percentile for the t-EER",
    "band": "the minima of the two edges of a simultaneous max-t band of the curve over "
            "thresholds (the minima only; conservative by construction)",
    "bc": "bias-corrected percentile (Efron 1987): the replicates' quantiles at levels moved "
          "by the share of replicates below the estimate",
    "percentile": "quantiles of the replicates",
    "basic": "2 * estimate - quantiles of the replicates",
}
#: The interval ``ci_method="auto"`` (the default) gives each metric (docs/validity.md).
TANDEM_DEFAULT_CI: dict[str, Literal["band", "percentile"]] = {
    "min_tdcf": "band", "min_adcf": "band", "teer": "percentile"}
ERROR_BAND_TEER = (
    "ci_method='band' is the interval of a minimum over one threshold (metric 'min_tdcf' or "
    "'min_adcf'); the t-EER takes 'percentile' (its default), 'bc' or 'basic'")
TANDEM_BOOTSTRAP_COLUMNS = [
    "asv_system", "cm_system", "split", "metric", "version", "costs", "estimate", "ci_low",
    "ci_high", "confidence_level", "ci_method", "resample", "n_resamples", "n_failed",
    "n_subjects",
]

Metric = Literal["min_tdcf", "teer", "min_adcf"]


class _Engine:
    """The metric of every member of one family (groups aligned on the same trials),
    for blocks of replicates' multiplicities ``W`` (replicates x trials)."""

    def __init__(self, members: list[TandemGroup], metric: str, costs, asv_threshold):
        self.metric, self.costs, self.k = metric, costs, len(members)
        base = members[0]
        if metric == "min_tdcf":
            self.asv = AsvReplicates(base.scores_of("asv"), base.kind, asv_threshold)
            self.cms = [ClassReplicates(m.scores_of("cm"), (m.kind == 2).astype(np.int8), 2)
                        for m in members]
        elif metric == "min_adcf":
            self.sasv = [ClassReplicates(m.scores_of("sasv"), m.kind, 3) for m in members]
        else:
            self.orders = [[_order(base.scores_of("asv"), base.kind == c) for c in range(3)]
                           + [_order(m.scores_of("cm"), m.kind != 2),
                              _order(m.scores_of("cm"), m.kind == 2)]
                           for m in members]

    def curves(self, W, member: int = 0) -> np.ndarray:
        """A minimum's curve over the CM (or SASV) thresholds of one member, for a block
        (replicates x thresholds); NaN where a replicate's weights are refused."""
        if self.metric == "min_tdcf":
            c0, c1, c2, norm = tdcf_weight_arrays(self.costs, *self.asv.rates(W))
            return _tdcf_curve(self.cms[member].below(W), c0, c1, c2, norm)
        return _adcf_curve(self.sasv[member].below(W), self.costs)

    def values(self, W) -> np.ndarray:
        """``(replicates, members)`` values of a block: ``W`` the multiplicities
        (replicates x trials) or a :func:`~pandas_biosig._kernels.tandem_replicates.taker`."""
        out: list[np.ndarray | list[float]]
        if self.metric == "min_tdcf":
            c0, c1, c2, norm = tdcf_weight_arrays(self.costs, *self.asv.rates(W))
            out = [np.min(_tdcf_curve(cm.below(W), c0, c1, c2, norm), axis=1)
                   for cm in self.cms]
        elif self.metric == "min_adcf":
            out = [np.min(_adcf_curve(s.below(W), self.costs), axis=1) for s in self.sasv]
        else:
            take = taker(W)
            out = []
            for member in self.orders:
                scores, mats = [s for s, _ in member], [take(o) for _, o in member]
                out.append([expanded_teer(scores, [m[b] for m in mats])
                            for b in range(mats[0].shape[0])])
        return np.column_stack(out)


def _order(scores: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted scores of the trials in ``mask`` and their positions."""
    idx = np.flatnonzero(mask)
    idx = idx[np.argsort(scores[idx], kind="stable")]
    return scores[idx], idx


def _tdcf_curve(below, c0, c1, c2, norm) -> np.ndarray:
    """The t-DCF at every CM threshold (replicates x thresholds); NaN where the
    replicate's weights are refused."""
    bona, spoof = below
    with np.errstate(invalid="ignore", divide="ignore"):
        pmiss = bona / bona[:, -1:]
        pfa = (spoof[:, -1:] - spoof) / spoof[:, -1:]
        return (c0[:, None] + c1[:, None] * pmiss + c2[:, None] * pfa) / norm[:, None]


def _adcf_curve(below, costs) -> np.ndarray:
    """The a-DCF at every threshold (replicates x thresholds)."""
    w_miss = costs.c_miss * costs.p_target
    w_fa = costs.c_fa * costs.p_nontarget
    w_spf = costs.c_fa_spoof * costs.p_spoof
    norm = min(w_fa + w_spf, w_miss)
    tar, non, spf = below
    with np.errstate(invalid="ignore", divide="ignore"):
        pmiss = tar / tar[:, -1:]
        pfa = (non[:, -1:] - non) / non[:, -1:]
        pfs = (spf[:, -1:] - spf) / spf[:, -1:]
        return (w_miss * pmiss + w_fa * pfa + w_spf * pfs) / norm


def _estimate(g: TandemGroup, metric, costs, point: _Point | None, split_column) -> float:
    """The metric of the group itself (the kernels' named errors, said of the group)."""
    if metric == "min_tdcf":
        assert point is not None  # made for the t-DCF
        t = point.choose_asv(g, g, None)[0]
        w = point.weights(g, t)[1]
        return min_tdcf(g.bonafide_cm, g.of("cm", 2), w).tdcf
    if metric == "min_adcf":
        return in_group(g, split_column, min_adcf, *(g.of("sasv", k) for k in range(3)),
                        costs).adcf
    return in_group(g, split_column, teer_kernel, g.of("asv", 0), g.of("asv", 1),
                    g.of("asv", 2), g.bonafide_cm, g.of("cm", 2)).teer


class _Draws:
    """The replicates' multiplicities of the trials of one family, block by block."""

    def __init__(self, g: TandemGroup, unit: str, split_column):
        self.n = g.kind.size
        self.unit = unit
        if unit == "subject":
            self.codes, self.n_subjects = subject_clusters(g.subject, where(g, split_column))
        else:
            self.n_subjects = 0 if g.subject is None else int(pd.unique(g.subject).size)
            self.strata = [np.flatnonzero(g.kind == k) for k in range(3)]

    def block(self, rng: np.random.Generator, size: int):
        """The multiplicities of ``size`` replicates: a matrix (replicates x trials), or,
        when speakers are drawn, a taker that gathers the speakers' multiplicities
        straight into each sorted order."""
        if self.unit == "subject":
            mult = rng.multinomial(self.n_subjects, np.full(self.n_subjects, 1 / self.n_subjects),
                                   size=size).astype(np.float64)
            codes = self.codes
            return lambda idx: mult[:, codes[idx]]
        if self.unit == "trial":
            return rng.multinomial(self.n, np.full(self.n, 1 / self.n), size=size).astype(float)
        W = np.empty((size, self.n))
        for idx in self.strata:
            W[:, idx] = rng.multinomial(idx.size, np.full(idx.size, 1 / idx.size), size=size)
        return W


def _blocks(engine: _Engine, draws: _Draws, n_resamples: int, rng):
    """``(first replicate, block of multiplicities)``, block by block, drawn from ``rng``."""
    step = block_size(draws.n, n_resamples) if engine.metric != "teer" else 64
    done = 0
    while done < n_resamples:
        size = min(step, n_resamples - done)
        yield done, draws.block(rng, size)
        done += size


def _replicates(engine: _Engine, draws: _Draws, n_resamples: int, rng, tick,
                moments: Moments | None = None) -> np.ndarray:
    """``(n_resamples, members)`` replicated values; ``moments`` (one member): also
    accumulate each threshold's replicates of the minimum's curve."""
    out = np.empty((n_resamples, engine.k))
    for done, W in _blocks(engine, draws, n_resamples, rng):
        if moments is None:
            values = engine.values(W)
        else:
            curves = engine.curves(W)
            moments.add(curves)
            values = np.min(curves, axis=1)[:, None]
        out[done:done + values.shape[0]] = values
        tick(done + values.shape[0])
    return out


def _band(engine: _Engine, draws: _Draws, n_resamples: int, replay, moments: Moments,
          level: float) -> tuple[float, float]:
    """The band interval of a minimum (:mod:`pandas_biosig._kernels.min_band`): the
    replicates of :func:`_replicates` drawn again from ``replay`` (a copy of its
    generator) for the max-t statistic over every threshold, then over the candidates."""
    estimate = engine.curves(np.ones((1, draws.n)))[0]
    sd = moments.sd()

    def quantile(points: np.ndarray) -> float:
        stats = np.concatenate([
            max_t(engine.curves(W), estimate, sd, points)
            for _, W in _blocks(engine, draws, n_resamples, copy.deepcopy(replay))])
        stats = stats[np.isfinite(stats)]
        return float(np.quantile(stats, level)) if stats.size else math.nan

    q = quantile(np.isfinite(estimate))
    return band_edges_minima(estimate, sd, quantile(candidates(estimate, sd, q)))


def _prepare(data, metric, version, costs, score, columns: dict):
    """The checked table and the cost model of ``metric``."""
    check_option(metric, TANDEM_METRICS, "metric")
    if metric == "min_tdcf":
        costs = tdcf_costs(version, costs)
    elif metric == "min_adcf":
        costs = check_tandem_costs("asvspoof5" if costs is None else costs, "tandem")
    asv, cm = columns.pop("asv_score", "asv_score"), columns.pop("cm_score", "cm_score")
    scores = {"sasv": score} if metric == "min_adcf" else {"asv": asv, "cm": cm}
    table = validate_tandem(data, scores=scores, sasv_inf=metric == "min_adcf", **columns)
    return table, costs


def _check_resampling(n_resamples, confidence_level, resample) -> tuple[int, float]:
    n_resamples = check_n_resamples(n_resamples)
    level = check_confidence_level(confidence_level)
    if resample != AUTO:
        check_option(resample, RESAMPLE, "resample")
    return n_resamples, level


def _asv_fixed(asv_threshold, g) -> float | None:
    if isinstance(asv_threshold, str):
        check_option(asv_threshold, ASV_THRESHOLDS, "asv_threshold")
        return None
    return fixed_threshold(asv_threshold, "asv_threshold", "asv_system", g.key[0],
                           ASV_THRESHOLDS)


def tandem_bootstrap(
    data: pd.DataFrame,
    /,
    *,
    metric: Metric = "min_tdcf",
    version: TdcfVersion = "2019",
    costs: str | Mapping[str, float] | None = None,
    asv_threshold: Literal["eer"] | float | Mapping[Hashable, float] = "eer",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    ci_method: Literal["auto", "band", "bc", "percentile", "basic"] = "auto",
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
    r"""Bootstrap confidence intervals of the minimum t-DCF, the t-EER or the minimum
    a-DCF, resampling speakers.

    Each split is evaluated on its own trials, as the challenges report it: the ASV's
    EER threshold and the CM threshold of the minimum are chosen again in every
    replicate.

    Parameters
    ----------
    data : DataFrame
        A tandem table (see :func:`pandas_biosig.tdcf`); ``metric="min_adcf"`` reads the
        spoofing-aware score ``score`` instead of the ASV and CM scores.
    metric : {"min_tdcf", "teer", "min_adcf"}, default "min_tdcf"
    version, costs : optional
        The t-DCF's version and cost model (as :func:`pandas_biosig.tdcf`), or the
        a-DCF's cost model (default ``"asvspoof5"``, as :func:`pandas_biosig.adcf`).
    asv_threshold : "eer", number or mapping, default "eer"
        ``metric="min_tdcf"``: the ASV's EER threshold, chosen again in every replicate,
        or a fixed one (``{asv_system: threshold}`` per system).
    n_resamples : int, default 1000
    confidence_level : float, default 0.95
    ci_method : {"auto", "band", "bc", "percentile", "basic"}, default "auto"
        ``"band"`` (the default for the minima ``min_tdcf`` and ``min_adcf``): the
        minima of the two edges of a simultaneous max-t band of the whole curve over
        the CM (or SASV) thresholds (:mod:`pandas_biosig._kernels.min_band`), which
        holds the true minimum whenever the band holds the true curve. A minimum over
        thresholds is optimistic (biased low) and its bootstrap replicates see only
        about half of the bias, so the intervals of the replicated minimum itself
        (``"bc"``, Efron's bias-corrected percentile interval, ``"percentile"``,
        ``"basic"``) fall short: on simulated data of 40 speakers they covered
        0.80-0.91 at 95 %, the band 0.96-0.98, about 1.5 times wider
        (``docs/validity.md``). ``"percentile"`` is the t-EER's default (``"band"`` is
        for the minima only: :data:`ERROR_BAND_TEER`). :data:`TANDEM_CI_METHODS`.
    resample : {"auto", "subject", "label", "trial"}, default "auto"
        What a replicate draws with replacement: whole speakers (``"subject"``, the
        default with a subject column), trials within each kind (``"label"``, the
        default without), or trials regardless of kind.
    seed : int or Generator, optional
    progress : bool, optional
        A progress bar (default: only in an interactive session).
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
        One row per (ASV system, CM system, split): ``asv_system, cm_system, split,
        metric, version`` (None unless ``min_tdcf``), ``costs`` (the preset's name,
        ``"custom"``, or None for the t-EER), ``estimate, ci_low, ci_high,
        confidence_level, ci_method, resample, n_resamples``, ``n_failed`` (replicates
        where the metric is undefined: a kind drawn empty, a cost model refused, an
        undefined t-EER; left out of the interval) and ``n_subjects`` (0 without a
        subject column).

    Raises
    ------
    SchemaError
        As :func:`pandas_biosig.tdcf`; missing speaker ids, or fewer than two speakers,
        when speakers are resampled.
    ValueError
        An unknown option, a bad ``n_resamples`` or ``confidence_level``.

    See Also
    --------
    tandem_compare : paired tests of CM systems by the same metrics.

    Notes
    -----
    The speakers are the unit of dependence: one speaker's trials share the voice, the
    enrolment and the spoofs made from them. The coverage of these intervals on
    simulated tandem data with known truth is measured in ``docs/validity.md``.

    The band interval is
    :math:`[\min_t(\hat C(t) - q\hat\sigma(t)), \min_t(\hat C(t) + q\hat\sigma(t))]`,
    :math:`\hat C` the estimated curve, :math:`\hat\sigma(t)` the replicates' standard
    deviation at threshold :math:`t`, :math:`q` the ``confidence_level`` quantile of the
    replicates' :math:`\max_t |C^*(t) - \hat C(t)|/\hat\sigma(t)` over the thresholds
    that can hold the minimum (the replicates are drawn three times from copies of one
    generator, so memory stays one block). The bias-corrected interval is
    :math:`[\hat G^{-1}(\Phi(2 z_0 + z_{\alpha/2})), \hat G^{-1}(\Phi(2 z_0 + z_{1-\alpha/2}))]`,
    :math:`\hat G` the replicates' distribution and
    :math:`z_0 = \Phi^{-1}(\hat G(\hat\theta))`.

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. *Journal of the American
    Statistical Association, 82*\(397), 171–185.

    Fang, Z., & Santos, A. (2019). Inference on directionally differentiable functions.
    *The Review of Economic Studies, 86*\(1), 377–412.

    Examples
    --------
    >>> t = pbs.datasets.example_tandem()
    >>> r = pbs.tandem_bootstrap(t, n_resamples=200, seed=0)
    >>> r[["cm_system", "split", "estimate", "ci_low", "ci_high", "n_subjects"]].round(3)
      cm_system split  estimate  ci_low  ci_high  n_subjects
    0      cm_a   dev     0.358   0.253    0.448          24
    1      cm_a  eval     0.367   0.227    0.467          24
    2      cm_b   dev     0.564   0.408    0.675          24
    3      cm_b  eval     0.582   0.421    0.704          24
    """
    data = expand_counts(data, count, trial=trial)
    n_resamples, level = _check_resampling(n_resamples, confidence_level, resample)
    check_option(ci_method, TANDEM_CI_METHODS, "ci_method")
    if ci_method == "auto":
        ci_method = TANDEM_DEFAULT_CI.get(metric, "percentile")
    if ci_method == "band" and metric == "teer":
        raise ValueError(ERROR_BAND_TEER)
    table, costs = _prepare(data, metric, version, costs, score, dict(
        asv_system=asv_system, cm_system=cm_system, trial=trial, kind=kind,
        asv_score=asv_score, cm_score=cm_score, split=split, subject=subject))
    unit = Protocol(resample=resample).unit(table, subject=subject)
    tick = replicate_progress(progress, n_resamples * len(table.groups), "tandem_bootstrap")
    rows = []
    for est, reps, n_subjects, band in group_replicates(
            table, metric=metric, version=version, costs=costs, asv_threshold=asv_threshold,
            unit=unit, n_resamples=n_resamples, rng=make_rng(seed), tick=tick,
            band_level=level if ci_method == "band" else None):
        rows.append(_interval_row(metric, version, costs, est, reps, level, ci_method, unit,
                                  n_subjects, band))
    return pd.DataFrame(
        {"asv_system": [g.key[0] for g in table.groups],
         "cm_system": [g.key[1] for g in table.groups],
         "split": [g.key[2] for g in table.groups],
         **{c: [r[c] for r in rows] for c in TANDEM_BOOTSTRAP_COLUMNS[3:]}},
        columns=TANDEM_BOOTSTRAP_COLUMNS)


def group_replicates(table, *, metric, version, costs, asv_threshold, unit, n_resamples,
                     rng, tick=lambda done: None, band_level: float | None = None):
    """Per group of a checked tandem table, ``(estimate, replicates, n_subjects, band)``:
    the metric and its ``n_resamples`` replicates (NaN where undefined), drawn from
    ``rng`` under the resampling ``unit``, and with ``band_level`` (the minima) the band
    interval at that level of the same replicates (else None). :func:`tandem_bootstrap`
    reads them, and so does the validity harness (every interval of the same
    replicates)."""
    for i, g in enumerate(table.groups):
        point = (_Point(version, costs, asv_threshold, table.split_column)
                 if metric == "min_tdcf" else None)
        est = _estimate(g, metric, costs, point, table.split_column)
        engine = _Engine([g], metric, costs, _asv_fixed(asv_threshold, g)
                         if metric == "min_tdcf" else None)
        draws = _Draws(g, unit, table.split_column)
        band = band_level is not None and metric != "teer"
        replay = copy.deepcopy(rng) if band else None
        moments = Moments(engine.curves(np.ones((1, draws.n))).shape[1]) if band else None
        reps = _replicates(engine, draws, n_resamples, rng,
                           lambda d, i=i: tick(i * n_resamples + d), moments)[:, 0]
        yield est, reps, draws.n_subjects, (
            _band(engine, draws, n_resamples, replay, moments, band_level)
            if band_level is not None and moments is not None else None)


def prepare(data, metric, version, costs, score="sasv_score", **columns):
    """The checked tandem table of ``metric`` and its cost model (for the harness)."""
    return _prepare(data, metric, version, costs, score, columns)


def bootstrap_interval(est: float, finite: np.ndarray, level: float, ci_method: str):
    """The interval of ``ci_method`` (:data:`TANDEM_CI_METHODS`) from the finite
    replicates."""
    if finite.size == 0:
        return math.nan, math.nan
    if ci_method == "bc":
        # Efron's z0: the share of replicates below the estimate (ties count half),
        # kept off 0 and 1 by half a replicate
        below = (np.count_nonzero(finite < est) + 0.5 * np.count_nonzero(finite == est))
        share = min(max(below / finite.size, 0.5 / finite.size), 1 - 0.5 / finite.size)
        z0, z = norm.ppf(share), norm.ppf((1 + level) / 2)
        low, high = np.quantile(finite, norm.cdf([2 * z0 - z, 2 * z0 + z]))
        return float(low), float(high)
    low, high = percentile_interval(finite, level)
    if ci_method == "basic":
        low, high = 2 * est - high, 2 * est - low
    return float(low), float(high)


def _interval_row(metric, version, costs, est, reps, level, ci_method, unit, n_subjects,
                  band=None):
    finite = reps[np.isfinite(reps)]
    low, high = band if band is not None else bootstrap_interval(est, finite, level, ci_method)
    return dict(metric=metric, version=version if metric == "min_tdcf" else None,
                costs=None if metric == "teer" else cost_columns(costs, ())["costs"],
                estimate=float(est), ci_low=float(low), ci_high=float(high),
                confidence_level=level, ci_method=ci_method, resample=unit,
                n_resamples=int(reps.size), n_failed=int(reps.size - finite.size),
                n_subjects=int(n_subjects))
