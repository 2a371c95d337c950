r"""The validity harness of calibration and fusion: a useless component and a known Cllr.

Part of the simulation harness of :mod:`pandas_biosig.validity` (which re-exports every
name). Each replication draws a dev and an eval split (:func:`dev_eval_trials`) of two
systems scored on the same trials by 100 subjects: ``A`` is useful (genuine N(mu, 1),
impostor N(0, 1)) but not calibrated (its scores are ``0.5 x + 1``), ``noise`` is pure
noise (N(0, 1) for both classes, independent of ``A``); with ``subject_sd > 0`` a part of
each system's noise is shared by a subject's trials.

- :func:`fusion_rejection_rates`: fusing ``A`` with ``noise`` adds nothing, so a test that
  the fusion beats ``A`` (:func:`pandas_biosig.compare_fusion`, weights fixed or refitted
  in every replicate) should reject at most ``alpha`` of the time;
- :func:`calibrated_cllr_coverage`: ``A`` calibrated on dev and applied to eval
  (:func:`pandas_biosig.calibrate`); the default bootstrap interval of its eval Cllr
  (:func:`pandas_biosig.bootstrap`, ``metric="cllr"``) should cover the population Cllr of
  that fitted map, :math:`\frac{1}{2\log 2}(E_{tar}\log(1 + e^{-\ell}) + E_{non}\log(1 +
  e^{\ell}))` with :math:`\ell = a s + b` normal in each class, computed by Gauss–Hermite
  quadrature, 95 % of the time.

Run the report rows of ``docs/validity.md`` with::

    python -m pandas_biosig.validity calibration --out calibration.md
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._core.progress import progress_bar
from .._kernels.rates import softplus
from ..calibration import calibrate, compare_fusion
from ..verification import bootstrap
from ._defaults import dev_eval_trials
from ._verification import Setting

__all__ = [
    "CALIBRATION_PROTOCOLS",
    "CalibrationSetting",
    "calibrated_cllr_coverage",
    "calibration_report",
    "fusion_rejection_rates",
    "simulate_calibration_trials",
    "true_cllr",
]

#: The raw scores of ``A`` are ``SCALE * x + SHIFT`` (x the binormal score): not LLRs.
SCALE, SHIFT = 0.5, 1.0


@dataclass(frozen=True)
class CalibrationSetting:
    """One simulated protocol: trials per split, subjects per split, ``A``'s genuine mean
    ``mu`` and the subject effect's standard deviation."""

    n_genuine: int = 200
    n_impostor: int = 2000
    n_subjects: int = 100
    mu: float = 2.0
    subject_sd: float = 0.5

    def setting(self) -> Setting:
        """The two-system setting: ``A`` useful, ``noise`` uninformative, independent."""
        return Setting(self.n_genuine, self.n_impostor, mu_a=self.mu, mu_b=0.0, rho=0.0,
                       subject_sd=self.subject_sd, n_subjects=self.n_subjects)


#: The simulated protocols of the report.
CALIBRATION_PROTOCOLS = {
    "subject effects (sd 0.5), 200/2000": CalibrationSetting(),
    "independent trials, 100/1000": CalibrationSetting(100, 1000, subject_sd=0.0),
}


def simulate_calibration_trials(setting: CalibrationSetting, *, seed: int) -> pd.DataFrame:
    """Dev and eval splits of systems ``A`` (useful, uncalibrated) and ``noise``.

    Examples
    --------
    >>> from pandas_biosig.validity import CalibrationSetting, simulate_calibration_trials
    >>> t = simulate_calibration_trials(CalibrationSetting(50, 200, n_subjects=20), seed=0)
    >>> t.groupby(["system", "split"]).size().tolist()
    [250, 250, 250, 250]
    """
    t = dev_eval_trials(setting.setting(), seed=seed)
    a = t.system == "A"
    t.loc[a, "score"] = SCALE * t.loc[a, "score"] + SHIFT
    t["system"] = np.where(a, "A", "noise")
    return t


def true_cllr(setting: CalibrationSetting, scale: float, offset: float, *,
              points: int = 80) -> float:
    """The population Cllr (bits) of ``llr = scale * s + offset`` on ``A``'s raw scores
    ``s``: normal in each class (the subject effect and the trial noise add up to unit
    variance), integrated by Gauss–Hermite quadrature."""
    x, w = np.polynomial.hermite_e.hermegauss(points)
    w = w / w.sum()
    sd = abs(scale) * SCALE
    tar = scale * (SCALE * setting.mu + SHIFT) + offset + sd * x
    non = scale * SHIFT + offset + sd * x
    return float((w @ softplus(-tar) + w @ softplus(non)) / (2 * math.log(2)))


def fusion_rejection_rates(setting: CalibrationSetting, *, n_replications: int = 500,
                           refit: bool = False, n_resamples: int = 1000, alpha: float = 0.05,
                           seed: int = 0, progress: bool | None = None) -> dict:
    """How often :func:`pandas_biosig.compare_fusion` (the components against the fusion of
    ``A`` and ``noise``, on eval, its default test) rejects "the fusion is as good as A"
    at ``alpha``, and how often it claims a gain (rejects with the fused system better).

    Returns ``{"type-I error": rate, "false gain": rate, "n": replications}``.

    Examples
    --------
    >>> from pandas_biosig.validity import CalibrationSetting, fusion_rejection_rates
    >>> r = fusion_rejection_rates(CalibrationSetting(50, 500, n_subjects=25),
    ...                            n_replications=2, n_resamples=49)
    >>> sorted(r)
    ['false gain', 'n', 'type-I error']
    """
    tick = progress_bar(progress, n_replications, "fusion type-I", unit="replication")
    reject, gain = [], []
    for i in range(n_replications):
        t = simulate_calibration_trials(setting, seed=seed + i)
        res = compare_fusion(t, systems=["A", "noise"], refit=refit, n_resamples=n_resamples,
                             alpha=alpha, seed=seed + i)
        row = res.query("system_a == 'A'").iloc[0]
        reject.append(bool(row.pvalue <= alpha))
        gain.append(bool(row.pvalue <= alpha and row.estimate > 0))
        tick(i + 1)
    return {"type-I error": float(np.mean(reject)), "false gain": float(np.mean(gain)),
            "n": n_replications}


def calibrated_cllr_coverage(setting: CalibrationSetting, *, n_replications: int = 500,
                             n_resamples: int = 1000, confidence_level: float = 0.95,
                             seed: int = 0, progress: bool | None = None) -> dict:
    """How often the default bootstrap interval of the calibrated system's eval Cllr
    covers the population Cllr of the map fitted on dev (:func:`true_cllr`).

    Returns ``{"coverage": rate, "above": share of intervals above the truth, "n": ...}``.

    Examples
    --------
    >>> from pandas_biosig.validity import CalibrationSetting, calibrated_cllr_coverage
    >>> r = calibrated_cllr_coverage(CalibrationSetting(50, 500, n_subjects=25),
    ...                              n_replications=2, n_resamples=49)
    >>> sorted(r)
    ['above', 'coverage', 'n']
    """
    tick = progress_bar(progress, n_replications, "calibrated Cllr", unit="replication")
    covered, above = [], []
    for i in range(n_replications):
        t = simulate_calibration_trials(setting, seed=seed + i)
        res = calibrate(t, systems="A")
        held = res.params.query("fit == 'held-out'").set_index("term").estimate
        truth = true_cllr(setting, held["scale"], held["offset"])
        ev = res.trials.query("system == 'A:linear' and split == 'eval'")
        b = bootstrap(ev, metric="cllr", n_resamples=n_resamples,
                      confidence_level=confidence_level, seed=seed + i).iloc[0]
        covered.append(bool(b.ci_low <= truth <= b.ci_high))
        above.append(bool(b.ci_low > truth))
        tick(i + 1)
    return {"coverage": float(np.mean(covered)), "above": float(np.mean(above)),
            "n": n_replications}


def calibration_report(*, replications: int = 500, refit_replications: int = 200,
                       n_resamples: int | None = None, refit_resamples: int = 199,
                       seed: int = 0, progress: bool | None = None) -> pd.DataFrame:
    """The rows of ``docs/validity.md`` ("Calibration and fusion"), one per protocol and
    measure, with Monte-Carlo standard errors."""
    boot = 1000 if n_resamples is None else n_resamples
    rows = []
    for name, s in CALIBRATION_PROTOCOLS.items():
        for refit, reps, nb in ((False, replications, boot),
                                (True, refit_replications, refit_resamples)):
            r = fusion_rejection_rates(s, n_replications=reps, refit=refit, n_resamples=nb,
                                       seed=seed, progress=progress)
            fn = f"compare_fusion(refit={refit})" + (f", {nb} resamples" if refit else "")
            rows.append(dict(protocol=name, function=fn, kind="type-I error",
                             rate=r["type-I error"], mc_se=math.sqrt(0.05 * 0.95 / reps),
                             n=reps))
            rows.append(dict(rows[-1], kind="false gain", rate=r["false gain"],
                             mc_se=math.sqrt(0.025 * 0.975 / reps)))
        c = calibrated_cllr_coverage(s, n_replications=replications, n_resamples=boot,
                                     seed=seed, progress=progress)
        rows.append(dict(protocol=name, function='bootstrap(metric="cllr") of calibrate()',
                         kind="coverage", rate=c["coverage"],
                         mc_se=math.sqrt(0.95 * 0.05 / replications), n=replications))
        rows.append(dict(rows[-1], kind="above the truth", rate=c["above"],
                         mc_se=math.sqrt(0.025 * 0.975 / replications)))
    return pd.DataFrame(rows, columns=["protocol", "function", "kind", "rate", "mc_se", "n"])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pandas_biosig.validity calibration")
    ap.add_argument("--quick", action="store_true", help="few replications and resamples")
    ap.add_argument("--replications", type=int, default=None)
    ap.add_argument("--refit-replications", type=int, default=None)
    ap.add_argument("--out", help="write the Markdown table here (else print)")
    args = ap.parse_args(argv)
    reps = args.replications or (10 if args.quick else 500)
    refit_reps = args.refit_replications or (4 if args.quick else 200)
    t0 = time.perf_counter()
    table = calibration_report(replications=reps, refit_replications=refit_reps,
                               n_resamples=99 if args.quick else None,
                               refit_resamples=49 if args.quick else 199)
    wide = table.pivot_table(index=["function", "kind"], columns="protocol", values="rate",
                             sort=False)
    text = "\n".join([
        f"{(time.perf_counter() - t0) / 60:.0f} minutes; largest Monte-Carlo s.e. "
        f"{table.mc_se.max():.3f}.", "", wide.round(3).to_markdown(), ""])
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    else:
        print(text)
    return 0
