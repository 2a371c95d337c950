"""Uncertainty at every operating point, measured: the defaults of :func:`pandas_biosig.ci`
with unequal subjects and with crossed probe/reference effects, the EER interval of
:func:`pandas_biosig.bootstrap` at low error rates, the bands of
:func:`pandas_biosig.det_band` and the guarantee of :func:`pandas_biosig.threshold_guarantee`.

Each function draws simulated tables with a known truth (binormal scores: FAR(t) = 1 -
Phi(t), FRR(t) = Phi(t - mu), with subject effects, one subject holding a share of the
trials, or crossed effects of :mod:`pandas_biosig.validity._crossed`), calls the library
with its defaults and returns the rates with their Monte-Carlo standard errors. Run the
report (long: run it in the background) with::

    python -m pandas_biosig.validity uncertainty --out report.md

(``--quick``: a few replications).
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from .._core.options import BootstrapCIMethod
from ..demographics._plan import IntervalMethod
from ..demographics._rates import group_rates
from ..verification._bands import det_band
from ..verification._guarantee import HoldsFor, threshold_guarantee
from ..verification._intervals import ci
from ..verification._resampling import bootstrap
from ._crossed import CrossedSetting, crossed_trials
from ._defaults import dev_eval_trials
from ._verification import Setting, _replications, simulate_trials

__all__ = [
    "BAND",
    "BAND_GRID",
    "CROSSED",
    "GUARANTEE",
    "LOW_EER",
    "TOP_SHARE",
    "band_coverage",
    "ci_coverage",
    "eer_tails",
    "group_rates_coverage",
    "guarantee_exceedance",
    "uncertainty_report",
]


def _table(setting, seed: int) -> pd.DataFrame:
    if isinstance(setting, CrossedSetting):
        return crossed_trials(setting, seed=seed)
    return dev_eval_trials(setting, seed=seed)


def _mu(setting) -> float:
    return setting.mu if isinstance(setting, CrossedSetting) else setting.mu_a


def _truth(metric: str, t: float, mu: float, p_target: float = 0.01) -> float:
    far, frr = float(norm.sf(t)), float(norm.cdf(t - mu))
    return dict(far=far, frr=frr, hter=(far + frr) / 2,
                dcf=(p_target * frr + (1 - p_target) * far) / p_target)[metric]


def _rates(hits: dict, level: float = 0.95) -> pd.DataFrame:
    rows = []
    for key, values in hits.items():
        v = np.asarray(values, dtype=np.float64)
        v = v[np.isfinite(v)]
        rate = float(v.mean()) if v.size else float("nan")
        se = math.sqrt(rate * (1 - rate) / v.size) if v.size else float("nan")
        rows.append(dict(quantity=key, rate=rate, mc_se=se, n=int(v.size)))
    return pd.DataFrame(rows)


def ci_coverage(setting, *, n_replications: int = 500, drop: tuple[str, ...] = (),
                seed: int = 0, progress: bool | None = None) -> pd.DataFrame:
    """Coverage of the default :func:`pandas_biosig.ci` (FAR, FRR, HTER, DCF at the dev EER
    threshold, reported on eval) on simulated dev/eval tables of ``setting`` (a
    :class:`~pandas_biosig.validity.Setting`, e.g. with ``top_share``, or a
    :class:`~pandas_biosig.validity.CrossedSetting`); ``drop`` removes columns first
    (``("reference_subject",)``: the table without the reference's identity).

    Returns
    -------
    DataFrame
        ``quantity`` (the metric), ``rate`` (coverage over both systems' intervals),
        ``mc_se``, ``n`` (intervals).

    Examples
    --------
    >>> from pandas_biosig.validity import CrossedSetting, ci_coverage
    >>> r = ci_coverage(CrossedSetting(n_people=20, references_per_person=10),
    ...                 n_replications=2)
    >>> r.quantity.tolist(), int(r.n.iloc[0])
    (['far', 'frr', 'hter', 'dcf'], 4)
    """
    hits: dict = {}
    row: Any  # pandas' stubs type a row's fields as any scalar
    for i in _replications(n_replications, progress, "ci() coverage"):
        t = _table(setting, seed + i).drop(columns=list(drop))
        for row in ci(t).itertuples():
            truth = _truth(row.metric, row.threshold, _mu(setting))
            hits.setdefault(row.metric, []).append(row.ci_low <= truth <= row.ci_high)
    return _rates(hits)


def group_rates_coverage(setting: CrossedSetting, *, n_groups: int = 2, target: float = 0.05,
                         ci_method: IntervalMethod = "auto", n_resamples: int = 1000,
                         n_replications: int = 500, drop: tuple[str, ...] = (),
                         seed: int = 0, progress: bool | None = None) -> pd.DataFrame:
    """Coverage of the :func:`pandas_biosig.group_rates` intervals of ``ci_method``
    (``"auto"``: the default; FMR and FNMR of every group at the global threshold of FMR
    ``target`` chosen on dev, reported on eval; same-group impostors) on crossed tables of ``setting`` whose people fall into
    ``n_groups`` groups (person id modulo ``n_groups``; the effects do not depend on the
    group, so every group's true FMR at threshold t is 1 - Phi(t)); ``drop`` removes
    columns first (``("reference_subject",)``: the probes' subjects only).

    Returns
    -------
    DataFrame
        ``quantity`` (``"fmr"``, ``"fnmr"``), ``rate`` (coverage over both systems' groups),
        ``mc_se``, ``n`` (intervals).

    Examples
    --------
    >>> from pandas_biosig.validity import CrossedSetting, group_rates_coverage
    >>> r = group_rates_coverage(CrossedSetting(n_people=20, references_per_person=10),
    ...                          n_replications=2)
    >>> r.quantity.tolist(), int(r.n.iloc[0])
    (['fmr', 'fnmr'], 8)
    """
    hits: dict = {"fmr": [], "fnmr": []}
    row: Any  # pandas' stubs type a row's fields as any scalar
    for i in _replications(n_replications, progress, "group_rates() coverage"):
        t = crossed_trials(setting, seed=seed + i)
        t = t.assign(group=t.subject % n_groups, reference_group=t.reference_subject % n_groups)
        res = group_rates(t.drop(columns=list(drop)), target=target, ci_method=ci_method,
                          n_resamples=n_resamples, seed=seed + i)
        for row in res.itertuples():
            truth = dict(fmr=_truth("far", row.threshold, setting.mu),
                         fnmr=_truth("frr", row.threshold, setting.mu))
            for q in hits:
                hits[q].append(getattr(row, f"{q}_low") <= truth[q] <= getattr(row, f"{q}_high"))
    return _rates(hits)


def eer_tails(setting: Setting, *, n_replications: int = 500,
              ci_method: BootstrapCIMethod = "auto",
              n_resamples: int = 1000, seed: int = 0,
              progress: bool | None = None) -> pd.DataFrame:
    """How often the true EER (Phi(-mu/2)) lies above and below the default
    :func:`pandas_biosig.bootstrap` interval of system A (dev and eval splits, each its
    own interval; subjects resampled), with ``ci_method``.

    Examples
    --------
    >>> from pandas_biosig.validity import Setting, eer_tails
    >>> r = eer_tails(Setting(100, 400, n_subjects=20), n_replications=2, n_resamples=50)
    >>> r.quantity.tolist()
    ['above', 'below', 'covered']
    """
    truth = float(norm.cdf(-setting.mu_a / 2))
    hits: dict = {"above": [], "below": [], "covered": []}
    row: Any  # pandas' stubs type a row's fields as any scalar
    for i in _replications(n_replications, progress, "bootstrap() EER tails"):
        t = dev_eval_trials(setting, seed=seed + i)
        res = bootstrap(t[t.system == "A"], seed=seed + i, ci_method=ci_method,
                        n_resamples=n_resamples)
        for row in res.itertuples():
            hits["above"].append(truth > row.ci_high)
            hits["below"].append(truth < row.ci_low)
            hits["covered"].append(row.ci_low <= truth <= row.ci_high)
    return _rates(hits)


def band_coverage(setting: Setting, *, far_grid, n_replications: int = 500,
                  n_resamples: int = 1000, seed: int = 0,
                  progress: bool | None = None) -> pd.DataFrame:
    """Coverage of the default :func:`pandas_biosig.det_band` of system A on one simulated
    table of ``setting``: per grid FAR the pointwise interval (and how often the truth
    lies below / above it), and the simultaneous band over the resolved grid values. The
    truth is FRR(x) = Phi(Phi^-1(1 - x) - mu).

    Examples
    --------
    >>> from pandas_biosig.validity import Setting, band_coverage
    >>> r = band_coverage(Setting(100, 400, n_subjects=20, subject_sd=0.5),
    ...                   far_grid=[0.05, 0.2], n_replications=2, n_resamples=50)
    >>> r.quantity.tolist()
    ['simultaneous', 'pointwise 0.05', 'pointwise 0.2', 'below 0.05', 'below 0.2', 'above 0.05', 'above 0.2']
    """
    grid = np.asarray(far_grid, dtype=np.float64)
    truth = norm.cdf(norm.isf(grid) - setting.mu_a)
    hits: dict = {"simultaneous": []}
    for x in grid:
        hits[f"pointwise {x:g}"] = []
    for name in ("below", "above"):
        for x in grid:
            hits[f"{name} {x:g}"] = []
    for i in _replications(n_replications, progress, "det_band() coverage"):
        t = simulate_trials(setting, seed=seed + i)
        b = det_band(t[t.system == "A"], far_grid=grid, frr_grid=[0.5], seed=seed + i,
                     n_resamples=n_resamples).isel(system=0)
        ok = b.far_resolved.values
        lo, hi = b.frr_at_far_low.values, b.frr_at_far_high.values
        inside = (b.frr_at_far_band_low.values <= truth) & (truth <= b.frr_at_far_band_high.values)
        hits["simultaneous"].append(bool(inside[ok].all()))
        for j, x in enumerate(grid):
            nan = float("nan")
            hits[f"pointwise {x:g}"].append(lo[j] <= truth[j] <= hi[j] if ok[j] else nan)
            hits[f"below {x:g}"].append(truth[j] < lo[j] if ok[j] else nan)
            hits[f"above {x:g}"].append(truth[j] > hi[j] if ok[j] else nan)
    return _rates(hits)


def guarantee_exceedance(setting, *, target: float, confidence_level: float = 0.95,
                         holds_for: HoldsFor = "auto", n_replications: int = 500, seed: int = 0,
                         progress: bool | None = None) -> pd.DataFrame:
    """How often the true FAR at the threshold of
    :func:`pandas_biosig.threshold_guarantee` (chosen on dev) exceeds ``target``, against
    the empirical quantile (``error_rates(threshold="far")``'s threshold, the
    ``"far"`` criterion); also how often the realised eval FAR exceeds it and the test on
    eval rejects.

    Examples
    --------
    >>> from pandas_biosig.validity import Setting, guarantee_exceedance
    >>> r = guarantee_exceedance(Setting(100, 2000, n_subjects=50), target=0.01,
    ...                          n_replications=2)
    >>> r.quantity.tolist()
    ['guaranteed: true FAR > target', 'guaranteed: eval FAR > target', 'guaranteed: test rejects', 'empirical quantile: true FAR > target', 'guaranteed: mean true FAR', 'guaranteed: mean true FRR']
    """
    from ..verification._metrics import error_rates

    mu = _mu(setting)
    hits: dict = {k: [] for k in (
        "guaranteed: true FAR > target", "guaranteed: eval FAR > target",
        "guaranteed: test rejects", "empirical quantile: true FAR > target")}
    means: dict = {"guaranteed: mean true FAR": [], "guaranteed: mean true FRR": []}
    row: Any  # pandas' stubs type a row's fields as any scalar
    for i in _replications(n_replications, progress, "threshold guarantee"):
        t = _table(setting, seed + i)
        g = threshold_guarantee(t, target=target, confidence_level=confidence_level,
                                holds_for=holds_for)
        for row in g.itertuples():
            true_far = norm.sf(row.threshold)
            hits["guaranteed: true FAR > target"].append(true_far > target)
            hits["guaranteed: eval FAR > target"].append(row.far > target)
            hits["guaranteed: test rejects"].append(row.reject)
            means["guaranteed: mean true FAR"].append(true_far)
            means["guaranteed: mean true FRR"].append(norm.cdf(row.threshold - mu))
        on: dict[str, Any] = dict(on="dev", apply_to="eval") if "split" in t.columns else {}
        e = error_rates(t, threshold="far", target=target, **on)
        hits["empirical quantile: true FAR > target"] += list(norm.sf(e.threshold) > target)
    out = _rates(hits)
    extra = pd.DataFrame([dict(quantity=k, rate=float(np.mean(v)), mc_se=float(
        np.std(v, ddof=1) / math.sqrt(len(v))) if len(v) > 1 else float("nan"), n=len(v))
        for k, v in means.items()])
    return pd.concat([out, extra], ignore_index=True)


#: The protocols of :func:`uncertainty_report`.
TOP_SHARE = {share: Setting(200, 2000, rho=0.5, subject_sd=0.5, n_subjects=100, top_share=share)
             for share in (0.2, 0.5)}
CROSSED = {tau: CrossedSetting(tau_probe=tau, tau_reference=tau) for tau in (0.5, 0.7)}
LOW_EER = Setting(1000, 10000, mu_a=2 * float(norm.isf(0.005)), mu_b=2 * float(norm.isf(0.005)),
                  rho=0.5, n_subjects=200)
BAND = Setting(500, 5000, mu_a=3.0, mu_b=3.0, subject_sd=0.5, n_subjects=100)
BAND_GRID = (0.001, 0.01, 0.05, 0.1, 0.2)
GUARANTEE: dict[str, tuple[Setting | CrossedSetting, float]] = {"subject effects": (Setting(200, 2000, subject_sd=0.5, n_subjects=100), 0.01),
             "crossed, tau 0.5": (CrossedSetting(), 0.02)}


def uncertainty_report(*, replications: int = 500, n_resamples: int = 1000,
                       parts=("ci", "crossed", "groups", "eer", "band", "guarantee"),
                       progress: bool | None = None) -> pd.DataFrame:
    """Every measurement of this module, one row per (part, protocol, quantity)."""
    frames = []

    def add(part, protocol, table):
        frames.append(table.assign(part=part, protocol=protocol))

    if "ci" in parts:
        for share, st in TOP_SHARE.items():
            add("ci", f"one subject holds {share:.0%} of the trials",
                ci_coverage(st, n_replications=replications, progress=progress))
    if "crossed" in parts:
        for tau, crossed in CROSSED.items():
            add("crossed", f"tau {tau}, subject and reference columns",
                ci_coverage(crossed, n_replications=replications, progress=progress))
            add("crossed", f"tau {tau}, subject column only",
                ci_coverage(crossed, n_replications=replications, drop=("reference_subject",),
                            progress=progress))
    if "groups" in parts:
        columns: tuple[tuple[str, tuple[str, ...]], ...] = (
            ("subject and reference columns", ()), ("subject column only", ("reference_subject",)))
        methods: tuple[IntervalMethod, ...] = ("auto", "bootstrap")
        for tau, crossed in CROSSED.items():
            for (name, drop), how in itertools.product(columns, methods):
                add("groups", f"tau {tau}, {name}, ci_method={how!r}", group_rates_coverage(
                    crossed, ci_method=how, n_resamples=n_resamples,
                    n_replications=replications, drop=drop, progress=progress))
    if "eer" in parts:
        for method in ("auto", "percentile"):
            add("eer", f"EER 0.5 %, ci_method={method!r}",
                eer_tails(LOW_EER, n_replications=replications, ci_method=method,
                          n_resamples=n_resamples, progress=progress))
    if "band" in parts:
        add("band", "binormal, subject effects", band_coverage(
            BAND, far_grid=BAND_GRID, n_replications=replications, n_resamples=n_resamples,
            progress=progress))
    if "guarantee" in parts:
        for name, (setting, target) in GUARANTEE.items():
            for holds in ("auto", "population"):
                add("guarantee", f"{name}, target {target}, holds_for={holds!r}",
                    guarantee_exceedance(setting, target=target, holds_for=holds,
                                         n_replications=replications, progress=progress))
    cols = ["part", "protocol", "quantity", "rate", "mc_se", "n"]
    return pd.concat(frames, ignore_index=True)[cols]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pandas_biosig.validity uncertainty")
    ap.add_argument("--quick", action="store_true", help="few replications, 199 resamples")
    ap.add_argument("--replications", type=int, default=None)
    ap.add_argument("--parts", default="ci,crossed,groups,eer,band,guarantee")
    ap.add_argument("--out", help="write the Markdown table here (else print)")
    args = ap.parse_args(argv)
    reps = args.replications or (4 if args.quick else 500)
    t0 = time.perf_counter()
    table = uncertainty_report(replications=reps, n_resamples=199 if args.quick else 1000,
                               parts=tuple(args.parts.split(",")))
    text = (f"Regenerated with `python -m pandas_biosig.validity uncertainty "
            f"--replications {reps} --parts {args.parts}` "
            f"({(time.perf_counter() - t0) / 60:.0f} minutes).\n\n"
            + table.round(4).to_markdown(index=False) + "\n")
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    else:
        print(text)
    return 0
