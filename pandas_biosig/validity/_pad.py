"""The validity harness of the PAD tests: simulated presentation attacks with known truth.

Part of the simulation harness of :mod:`pandas_biosig.validity` (which re-exports every
name): bona fide and attack scores from normal models, per-subject effects, two correlated
systems, to measure the type-I error of :func:`pandas_biosig.pad_compare` and the coverage
of :func:`pandas_biosig.pad_rates`' intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

__all__ = [
    "PAD_TESTS",
    "PadSetting",
    "pad_coverage",
    "pad_rejection_rates",
    "pad_report",
    "simulate_pad",
    "simulate_vulnerability",
    "vulnerability_coverage",
]


@dataclass(frozen=True)
class PadSetting:
    """One simulated PAD protocol with known truth.

    Bona fide scores N(``mu_bonafide``, 1); the attacks of species ``s`` N(``attack_means[s]``,
    1); two systems with correlation ``rho`` on the same presentation; a per-subject effect
    of s.d. ``subject_sd`` (shared by a subject's presentations); ``n_subjects`` subjects per
    split, each with ``bonafide_per_subject`` bona fide presentations and
    ``attacks_per_subject`` attacks of each species. Dev and eval are independent draws.
    System B's scores are shifted by ``delta_b`` (0: the null hypothesis).
    """

    n_subjects: int = 50
    bonafide_per_subject: int = 8
    attacks_per_subject: int = 4
    mu_bonafide: float = 3.0
    attack_means: tuple = (0.0, 0.5, 1.0)
    rho: float = 0.5
    subject_sd: float = 0.0
    delta_b: float = 0.0

    def true_apcer(self, threshold: float) -> np.ndarray:
        return norm.sf(threshold - np.asarray(self.attack_means))

    def true_bpcer(self, threshold: float) -> float:
        return float(norm.cdf(threshold - self.mu_bonafide))


def simulate_pad(setting: PadSetting, *, seed=None) -> pd.DataFrame:
    """One simulated PAD experiment (systems ``A`` and ``B``, splits dev and eval).

    Examples
    --------
    >>> from pandas_biosig.validity import PadSetting, simulate_pad
    >>> t = simulate_pad(PadSetting(n_subjects=10), seed=0)
    >>> t.groupby(["system", "split"]).size().tolist()
    [200, 200, 200, 200]
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    s = setting
    k = len(s.attack_means)
    per = s.bonafide_per_subject + k * s.attacks_per_subject
    frames = []
    for split in ("dev", "eval"):
        subj = np.repeat(np.arange(s.n_subjects), per)
        species = np.tile(
            np.concatenate([np.full(s.bonafide_per_subject, -1),
                            np.repeat(np.arange(k), s.attacks_per_subject)]),
            s.n_subjects,
        )
        mean = np.where(species < 0, s.mu_bonafide, np.asarray(s.attack_means)[np.maximum(species, 0)])
        n = subj.size
        tau = s.subject_sd
        own = math.sqrt(max(1 - tau**2, 0.0))
        z1 = rng.standard_normal(n)
        z2 = s.rho * z1 + math.sqrt(1 - s.rho**2) * rng.standard_normal(n)
        u1 = rng.standard_normal(s.n_subjects)
        u2 = s.rho * u1 + math.sqrt(1 - s.rho**2) * rng.standard_normal(s.n_subjects)
        pai = np.array([None] + [f"s{i}" for i in range(k)], dtype=object)[species + 1]
        for name, z, u, shift in (("A", z1, u1, 0.0), ("B", z2, u2, s.delta_b)):
            frames.append(pd.DataFrame({
                "system": name, "trial": np.arange(n), "label": species < 0,
                "score": mean + own * z + tau * u[subj] + shift, "pai": pai,
                "split": split, "subject": np.char.add(f"{split}", subj.astype(str)),
            }))
    return pd.concat(frames, ignore_index=True)


#: PAD tests measured by :func:`pad_rejection_rates`: (name, pad_compare arguments).
PAD_TESTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("bootstrap_apcer_max", dict(metric="apcer_max", test="bootstrap")),
    ("bootstrap_bpcer", dict(metric="bpcer", test="bootstrap")),
    ("mcnemar_bpcer", dict(metric="bpcer", test="mcnemar")),
)


def pad_rejection_rates(
    setting: PadSetting,
    *,
    n_replications: int = 300,
    alpha: float = 0.05,
    n_resamples: int = 199,
    subject: bool = True,
    seed: int = 0,
) -> pd.DataFrame:
    """Fraction of simulated PAD experiments in which :func:`pandas_biosig.pad_compare`
    rejects at ``alpha`` (thresholds at the EER on dev, compared on eval): the type-I
    error when ``setting.delta_b == 0``, else the power. ``subject=False`` drops the
    subject column (presentations resampled within classes).

    Examples
    --------
    >>> from pandas_biosig.validity import PadSetting, pad_rejection_rates
    >>> r = pad_rejection_rates(PadSetting(n_subjects=10), n_replications=2, n_resamples=19)
    >>> r.test.tolist()
    ['bootstrap_apcer_max', 'bootstrap_bpcer', 'mcnemar_bpcer']
    """
    from ..pad._compare import pad_compare

    rng = np.random.default_rng(seed)
    hits = dict.fromkeys([t for t, _ in PAD_TESTS], 0)
    for _ in range(n_replications):
        data = simulate_pad(setting, seed=rng)
        if not subject:
            data = data.drop(columns="subject")
        for name, kwargs in PAD_TESTS:
            res = pad_compare(data, n_resamples=n_resamples, seed=rng, adjust=None, **kwargs)
            hits[name] += bool(res.pvalue.iloc[0] < alpha)
    rate = np.array([hits[t] / n_replications for t, _ in PAD_TESTS])
    return pd.DataFrame({
        "test": [t for t, _ in PAD_TESTS], "rejection_rate": rate,
        "mc_se": np.sqrt(rate * (1 - rate) / n_replications),
        "n_replications": n_replications, "alpha": alpha,
    })


def pad_coverage(
    setting: PadSetting,
    *,
    threshold: float = 1.5,
    n_replications: int = 300,
    confidence_level: float = 0.95,
    n_resamples: int = 499,
    intervals: tuple = ("wilson", "beta", "cluster", "bootstrap"),
    seed: int = 0,
) -> pd.DataFrame:
    """Coverage of :func:`pandas_biosig.pad_rates`' intervals of the per-species APCER and
    the BPCER of system A on eval, at a fixed ``threshold`` (true rates known), for each
    ``ci_method`` in ``intervals``.

    Examples
    --------
    >>> from pandas_biosig.validity import PadSetting, pad_coverage
    >>> c = pad_coverage(PadSetting(n_subjects=10), n_replications=2, n_resamples=19)
    >>> sorted(c.interval.unique())
    ['beta', 'bootstrap', 'cluster', 'wilson']
    """
    from ..pad._metrics import pad_rates

    rng = np.random.default_rng(seed)
    truth = np.append(setting.true_apcer(threshold), setting.true_bpcer(threshold))
    hits = {m: np.zeros(truth.size) for m in intervals}
    for _ in range(n_replications):
        data = simulate_pad(setting, seed=rng)
        data = data[data.system == "A"]
        for method in hits:
            r = pad_rates(data, threshold=threshold, apply_to="eval", ci_method=method,
                          n_resamples=n_resamples, seed=rng, confidence_level=confidence_level)
            hits[method] += ((r.ci_low <= truth) & (truth <= r.ci_high)).to_numpy()
    rows = []
    names = [f"apcer s{i}" for i in range(len(setting.attack_means))] + ["bpcer"]
    for method, h in hits.items():
        for name, value, t in zip(names, h / n_replications, truth, strict=True):
            rows.append(dict(interval=method, rate=name, true_rate=t, coverage=value,
                             mc_se=math.sqrt(value * (1 - value) / n_replications),
                             n_replications=n_replications, confidence_level=confidence_level))
    return pd.DataFrame(rows)


def simulate_vulnerability(setting: PadSetting, *, zei_per_subject: int = 8,
                           seed=None) -> pd.DataFrame:
    """One simulated vulnerability experiment: system ``A``, splits dev and eval.

    Per subject: ``bonafide_per_subject`` genuine attempts N(``mu_bonafide``, 1),
    ``zei_per_subject`` zero-effort impostor attempts N(0, 1) and ``attacks_per_subject``
    presentation attacks of each species N(``attack_means[s]``, 1); a per-subject effect
    of s.d. ``subject_sd`` shared by all of a subject's attempts (each score stays N(mean,
    1) marginally, so the true IAPMR at a threshold ``t`` is ``1 - Phi(t - mean)``).

    Examples
    --------
    >>> from pandas_biosig.validity import PadSetting, simulate_vulnerability
    >>> t = simulate_vulnerability(PadSetting(n_subjects=10), seed=0)
    >>> t.groupby(["split", "kind"]).size().tolist()
    [120, 80, 80, 120, 80, 80]
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    s = setting
    k = len(s.attack_means)
    kinds = ["genuine"] * s.bonafide_per_subject + ["zei"] * zei_per_subject
    kinds += ["attack"] * (k * s.attacks_per_subject)
    means = [s.mu_bonafide] * s.bonafide_per_subject + [0.0] * zei_per_subject
    means += list(np.repeat(np.asarray(s.attack_means, dtype=float), s.attacks_per_subject))
    pai: list[str | None] = [None] * (s.bonafide_per_subject + zei_per_subject)
    pai += [f"s{i}" for i in np.repeat(np.arange(k), s.attacks_per_subject)]
    frames = []
    for split in ("dev", "eval"):
        subj = np.repeat(np.arange(s.n_subjects), len(kinds))
        own = math.sqrt(max(1 - s.subject_sd**2, 0.0))
        u = rng.standard_normal(s.n_subjects)[subj]
        mean = np.tile(np.asarray(means), s.n_subjects)
        frames.append(pd.DataFrame({
            "system": "A", "trial": np.arange(subj.size), "kind": np.tile(kinds, s.n_subjects),
            "score": mean + s.subject_sd * u + own * rng.standard_normal(subj.size),
            "pai": np.tile(np.array(pai, dtype=object), s.n_subjects), "split": split,
            "subject": np.char.add(split, subj.astype(str)),
        }))
    return pd.concat(frames, ignore_index=True)


def vulnerability_coverage(
    setting: PadSetting,
    *,
    n_replications: int = 300,
    confidence_level: float = 0.95,
    n_resamples: int = 499,
    intervals: tuple = ("wilson", "beta", "cluster", "bootstrap"),
    seed: int = 0,
) -> pd.DataFrame:
    """Coverage of :func:`pandas_biosig.iapmr`'s intervals of every species' IAPMR, called
    as users call it: the licit threshold chosen on dev (bob's EER threshold of genuine
    vs zero-effort impostors) and reported on eval, where the truth at that threshold is
    ``1 - Phi(threshold - attack_mean)``; one ``ci_method`` per entry of ``intervals``.

    Examples
    --------
    >>> from pandas_biosig.validity import PadSetting, vulnerability_coverage
    >>> c = vulnerability_coverage(PadSetting(n_subjects=10), n_replications=2, n_resamples=19)
    >>> sorted(c.interval.unique())
    ['beta', 'bootstrap', 'cluster', 'wilson']
    """
    from ..pad._vulnerability import iapmr

    rng = np.random.default_rng(seed)
    k = len(setting.attack_means)
    hits = {m: np.zeros(k) for m in intervals}
    for _ in range(n_replications):
        data = simulate_vulnerability(setting, seed=rng)
        for method in hits:
            r = iapmr(data, ci_method=method, n_resamples=n_resamples, seed=rng,
                      confidence_level=confidence_level)
            truth = setting.true_apcer(float(r.threshold.iloc[0]))
            hits[method] += ((r.ci_low <= truth) & (truth <= r.ci_high)).to_numpy()
    rows = []
    for method, h in hits.items():
        for i, value in enumerate(h / n_replications):
            rows.append(dict(interval=method, rate=f"iapmr s{i}", coverage=value,
                             mc_se=math.sqrt(value * (1 - value) / n_replications),
                             n_replications=n_replications, confidence_level=confidence_level))
    return pd.DataFrame(rows)


def pad_report(*, quick: bool = False, seed: int = 0) -> dict[str, pd.DataFrame]:
    """The PAD rows of the validity report: type-I error of :func:`pandas_biosig.pad_compare`
    (with and without a subject effect, with and without the subject column) and the
    coverage of :func:`pandas_biosig.pad_rates`' intervals."""
    reps = 100 if quick else 500
    n_res = 99 if quick else 199
    rows = []
    for sd in (0.0, 0.5):
        for use_subject in (True, False):
            r = pad_rejection_rates(PadSetting(subject_sd=sd), n_replications=reps,
                                    n_resamples=n_res, subject=use_subject, seed=seed)
            rows.append(r.assign(subject_sd=sd, resample="subject" if use_subject else "presentation"))
    cov = pd.concat(
        [pad_coverage(PadSetting(subject_sd=sd), n_replications=reps, seed=seed).assign(subject_sd=sd)
         for sd in (0.0, 0.5)],
        ignore_index=True,
    )
    return {"pad_type1": pd.concat(rows, ignore_index=True), "pad_coverage": cov}
