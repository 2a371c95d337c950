"""The validity harness of the tandem intervals and tests: simulated ASV + CM experiments
whose minimum t-DCF, t-EER and minimum a-DCF are known.

Part of the simulation harness of :mod:`pandas_biosig.validity` (which re-exports every
name). Every speaker claims target, non-target and spoof trials; the scores are normal
with unit variance, part of it (s.d. ``speaker_sd``) shared by one speaker's trials, so
the trials of a speaker are dependent, as in real data. Two CM systems ``A`` and ``B``
score every trial with the same model (equally good), their noises correlated ``rho``:
every null hypothesis of :func:`pandas_biosig.tandem_compare` is true, and the true
values of :func:`pandas_biosig.tandem_bootstrap`'s metrics follow from the normal
distribution functions (:meth:`TandemSetting.truth`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import brentq, minimize_scalar
from scipy.stats import norm

__all__ = [
    "TandemSetting",
    "simulate_tandem",
    "tandem_coverage",
    "tandem_rejection_rates",
    "tandem_report",
]


@dataclass(frozen=True)
class TandemSetting:
    """One simulated tandem protocol with known truth.

    ``n_speakers`` speakers, each claiming ``target_per_speaker`` target trials,
    ``nontarget_per_speaker`` non-target trials and ``spoof_per_speaker`` spoofs. ASV
    scores: targets N(``asv_target``, 1), non-targets N(0, 1), spoofs N(``asv_spoof``, 1).
    CM scores: bona fide N(``cm_mean``, 1), spoofs N(-``cm_mean``, 1), for two systems A
    and B whose noises (and speaker effects) are correlated ``rho``. A speaker effect of
    s.d. ``speaker_sd`` (ASV and CM effects independent) is part of each unit variance.
    """

    n_speakers: int = 40
    target_per_speaker: int = 10
    nontarget_per_speaker: int = 20
    spoof_per_speaker: int = 15
    asv_target: float = 3.0
    asv_spoof: float = 2.0
    cm_mean: float = 1.5
    rho: float = 0.5
    speaker_sd: float = 0.0

    def asv_rates(self) -> tuple[float, float, float, float]:
        """``(pfa, pmiss, pmiss_spoof, pfa_spoof)`` at the ASV's true EER threshold
        (``asv_target / 2``)."""
        t = self.asv_target / 2
        pmiss_spoof = float(norm.cdf(t - self.asv_spoof))
        return (float(norm.sf(t)), float(norm.cdf(t - self.asv_target)), pmiss_spoof,
                1 - pmiss_spoof)

    def truth(self, version: str = "2019", costs: str | None = None) -> dict[str, float]:
        """The true ``min_tdcf`` (``version``, ``costs``), ``teer`` and ``min_adcf`` (of
        the score sum, ASVspoof 5's costs)."""
        from .._core.validation import check_tandem_costs
        from .._kernels.tandem import AsvRates, tdcf_weights, tdcf_weights_2019

        model = "tdcf_2019" if version == "2019" else "tandem"
        default = "asvspoof2019" if version == "2019" else "asvspoof5"
        c = check_tandem_costs(default if costs is None else costs, model)
        pfa, pmiss, pms, pfs = self.asv_rates()
        make = tdcf_weights_2019 if version == "2019" else tdcf_weights
        w = make(AsvRates(self.asv_target / 2, pfa, pmiss, pms, pfs), c)
        m = self.cm_mean
        s = math.log(w.c2 / w.c1) / (2 * m)  # where C1 phi(s - m) = C2 phi(s + m)
        tdcf = (w.c0 + w.c1 * norm.cdf(s - m) + w.c2 * norm.sf(s + m)) / w.norm
        return {"min_tdcf": float(tdcf), "teer": self._teer(), "min_adcf": self._adcf()}

    def _teer(self) -> float:
        """Where the tandem miss and false-alarm rates are equal (spoof prevalence 1/2)
        and the ASV's non-target-to-spoof false-alarm ratio equals the CM's
        ``Pfa / (1 - Pmiss)``: then ``P = (b - a) / (1 - a + b)`` and t-EER = (1 - P) b."""
        mu, sp, m = self.asv_target, self.asv_spoof, self.cm_mean

        def gap(ta):
            a, b, c = norm.cdf(ta - mu), norm.sf(ta), norm.sf(ta - sp)
            p = (b - a) / (1 - a + b)
            tc = m + norm.ppf(p)  # the CM threshold with Pmiss = p
            return norm.sf(tc + m) - (1 - p) * b / c

        ta = brentq(gap, -8.0, mu / 2 - 1e-9)
        a, b = norm.cdf(ta - mu), norm.sf(ta)
        return float((1 - (b - a) / (1 - a + b)) * b)

    def _adcf(self) -> float:
        """The minimum a-DCF of ``asv + cm`` (variance 2 in every class), ASVspoof 5's
        costs."""
        from .._kernels.tandem import ASVSPOOF5 as c

        means = (self.asv_target + self.cm_mean, self.cm_mean, self.asv_spoof - self.cm_mean)
        sd = math.sqrt(2.0)
        w = (c.c_miss * c.p_target, c.c_fa * c.p_nontarget, c.c_fa_spoof * c.p_spoof)

        def cost(t):
            return (w[0] * norm.cdf((t - means[0]) / sd) + w[1] * norm.sf((t - means[1]) / sd)
                    + w[2] * norm.sf((t - means[2]) / sd))

        best = minimize_scalar(cost, bounds=(means[2] - 8, means[0] + 8), method="bounded",
                               options={"xatol": 1e-10})
        return float(min(best.fun, cost(np.inf), cost(-np.inf)) / min(w[1] + w[2], w[0]))


def simulate_tandem(setting: TandemSetting, *, seed=None) -> pd.DataFrame:
    """One simulated tandem experiment: ASV system ``asv``, CM systems ``A`` and ``B``,
    a ``subject`` column (the claimed speaker) and the score sum ``sasv_score``.

    Examples
    --------
    >>> from pandas_biosig.validity import TandemSetting, simulate_tandem
    >>> t = simulate_tandem(TandemSetting(n_speakers=4), seed=0)
    >>> t.groupby(["cm_system", "kind"]).size().tolist()
    [80, 60, 40, 80, 60, 40]
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    s = setting
    per = s.target_per_speaker + s.nontarget_per_speaker + s.spoof_per_speaker
    spk = np.repeat(np.arange(s.n_speakers), per)
    kind = np.tile(np.r_[np.zeros(s.target_per_speaker, int), np.ones(s.nontarget_per_speaker, int),
                         np.full(s.spoof_per_speaker, 2)], s.n_speakers)
    n, tau = spk.size, s.speaker_sd
    own = math.sqrt(max(1 - tau**2, 0.0))
    asv = (np.select([kind == 0, kind == 2], [s.asv_target, s.asv_spoof], 0.0)
           + own * rng.standard_normal(n) + tau * rng.standard_normal(s.n_speakers)[spk])
    z1, u1 = rng.standard_normal(n), rng.standard_normal(s.n_speakers)
    z2 = s.rho * z1 + math.sqrt(1 - s.rho**2) * rng.standard_normal(n)
    u2 = s.rho * u1 + math.sqrt(1 - s.rho**2) * rng.standard_normal(s.n_speakers)
    mean = np.where(kind == 2, -s.cm_mean, s.cm_mean)
    frames = []
    for name, z, u in (("A", z1, u1), ("B", z2, u2)):
        cm = mean + own * z + tau * u[spk]
        frames.append(pd.DataFrame({
            "asv_system": "asv", "cm_system": name, "trial": np.arange(n),
            "kind": np.array(["target", "nontarget", "spoof"])[kind], "asv_score": asv,
            "cm_score": cm, "sasv_score": asv + cm,
            "subject": np.char.add("s", spk.astype(str))}))
    return pd.concat(frames, ignore_index=True)


#: The metrics the harness measures.
_METRICS = ("min_tdcf", "teer", "min_adcf")


def tandem_coverage(
    setting: TandemSetting,
    *,
    metrics: tuple = _METRICS,
    n_replications: int = 200,
    n_resamples: int = 499,
    confidence_level: float = 0.95,
    seed: int = 0,
) -> pd.DataFrame:
    """Coverage of :func:`pandas_biosig.tandem_bootstrap`'s intervals (speakers resampled)
    of system A's metrics, whose true values are known: every interval method
    (:data:`pandas_biosig.tandem.TANDEM_CI_METHODS`; ``"band"`` for the minima only) of
    the same replicates.

    Returns one row per metric and interval: ``metric, ci_method, true_value, coverage,
    mc_se, below`` (share of intervals entirely below the truth), ``above``,
    ``mean_estimate, mean_width, n_replications, confidence_level``.

    Examples
    --------
    >>> from pandas_biosig.validity import TandemSetting, tandem_coverage
    >>> c = tandem_coverage(TandemSetting(n_speakers=10), n_replications=2, n_resamples=19)
    >>> c[c.metric == "teer"].ci_method.tolist()
    ['bc', 'percentile', 'basic']
    >>> c[c.metric == "min_tdcf"].ci_method.tolist()
    ['band', 'bc', 'percentile', 'basic']
    """
    from ..tandem._resampling import (
        TANDEM_CI_METHODS,
        bootstrap_interval,
        group_replicates,
        prepare,
    )

    rng = np.random.default_rng(seed)
    truth = setting.truth()
    methods = [c for c in TANDEM_CI_METHODS if c != "auto"]
    out: dict[tuple[str, str], list[tuple[float, float, float]]] = {
        (m, c): [] for m in metrics for c in methods}
    for _ in range(n_replications):
        data = simulate_tandem(setting, seed=rng)
        data = data[data.cm_system == "A"]
        for m in metrics:
            table, costs = prepare(data, m, "2019", None)
            (est, reps, _, band), = group_replicates(
                table, metric=m, version="2019", costs=costs, asv_threshold="eer",
                unit="subject", n_resamples=n_resamples, rng=rng,
                band_level=None if m == "teer" else confidence_level)
            finite = reps[np.isfinite(reps)]
            for c in methods:
                if c == "band":
                    if band is not None:
                        out[m, c].append((*band, est))
                    continue
                out[m, c].append((*bootstrap_interval(est, finite, confidence_level, c), est))
    rows = []
    for (m, c), values in out.items():
        if not values:  # the band of the t-EER
            continue
        low, high, est = np.array(values).T
        rows.append(_coverage_row(m, c, truth[m], low, high, est, n_replications,
                                  confidence_level))
    return pd.DataFrame(rows)


def _coverage_row(metric, method, t, low, high, est, n, level) -> dict:
    cover = float(np.mean((low <= t) & (t <= high)))
    return dict(metric=metric, ci_method=method, true_value=t, coverage=cover,
                mc_se=math.sqrt(cover * (1 - cover) / n), below=float(np.mean(high < t)),
                above=float(np.mean(low > t)), mean_estimate=float(np.mean(est)),
                mean_width=float(np.mean(high - low)), n_replications=n, confidence_level=level)


def tandem_rejection_rates(
    setting: TandemSetting,
    *,
    metrics: tuple = _METRICS,
    n_replications: int = 200,
    n_resamples: int = 499,
    alpha: float = 0.05,
    seed: int = 0,
) -> pd.DataFrame:
    """Type-I error of :func:`pandas_biosig.tandem_compare`'s default test (paired
    speaker bootstrap) on the equally good CM systems A and B: the share of simulated
    experiments where it rejects at ``alpha``.

    Examples
    --------
    >>> from pandas_biosig.validity import TandemSetting, tandem_rejection_rates
    >>> r = tandem_rejection_rates(TandemSetting(n_speakers=10), n_replications=2,
    ...                            n_resamples=19)
    >>> list(r.columns)
    ['metric', 'rejection_rate', 'mc_se', 'n_replications', 'alpha']
    """
    from ..tandem._compare import tandem_compare

    rng = np.random.default_rng(seed)
    hits = dict.fromkeys(metrics, 0)
    for _ in range(n_replications):
        data = simulate_tandem(setting, seed=rng)
        for m in metrics:
            res = tandem_compare(data, metric=m, n_resamples=n_resamples, seed=rng, adjust=None)
            hits[m] += bool(res.pvalue.iloc[0] <= alpha)
    rate = np.array([hits[m] / n_replications for m in metrics])
    return pd.DataFrame({"metric": list(metrics), "rejection_rate": rate,
                         "mc_se": np.sqrt(rate * (1 - rate) / n_replications),
                         "n_replications": n_replications, "alpha": alpha})


def tandem_report(*, quick: bool = False, seed: int = 0) -> dict[str, pd.DataFrame]:
    """The tandem rows of the validity report: coverage of the default intervals and
    type-I error of the default test, with and without speaker effects."""
    reps = 40 if quick else 300
    n_res = 99 if quick else 499
    cov, rej = [], []
    for sd in (0.0, 0.5):
        s = TandemSetting(speaker_sd=sd)
        cov.append(tandem_coverage(s, n_replications=reps, n_resamples=n_res, seed=seed)
                   .assign(speaker_sd=sd))
        rej.append(tandem_rejection_rates(s, n_replications=reps, n_resamples=n_res, seed=seed)
                   .assign(speaker_sd=sd))
    return {"tandem_coverage": pd.concat(cov, ignore_index=True),
            "tandem_type1": pd.concat(rej, ignore_index=True)}
