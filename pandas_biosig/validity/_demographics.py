"""The validity harness of the demographic tests: simulated groups with known truth.

Part of the simulation harness of :mod:`pandas_biosig.validity` (which re-exports every
name): two groups of subjects whose scores share a per-subject effect, to measure the
type-I error of :func:`pandas_biosig.compare_groups` and
:func:`pandas_biosig.compare_fairness` and the coverage of
:func:`pandas_biosig.group_rates`' intervals.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy.stats import norm

__all__ = [
    "demographic_coverage",
    "demographic_rejection_rates",
    "fairness_rejection_rates",
    "simulate_demographic_trials",
]


def simulate_demographic_trials(
    *,
    n_subjects: int = 40,
    genuine_per_subject: int = 5,
    impostor_per_subject: int = 20,
    subject_sd: float = 0.5,
    mu: float = 3.29,
    seed: int | np.random.Generator | None = None,
) -> pd.DataFrame:
    """Two demographic groups (``g1``, ``g2``) that truly share one FMR and one FNMR.

    One system; ``n_subjects`` subjects per group; genuine scores N(mu, 1), impostor
    scores N(0, 1), of which a part ``subject_sd`` is a per-subject effect shared by all
    the trials of a person. At the threshold ``mu/2`` both groups have FMR = FNMR =
    Phi(-mu/2) (0.05 with the default ``mu``): the null hypothesis of the group tests.

    Examples
    --------
    >>> from pandas_biosig.validity import simulate_demographic_trials
    >>> t = simulate_demographic_trials(n_subjects=10, seed=0)
    >>> t.groupby("group").size().tolist()
    [250, 250]
    """
    rng = seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)
    k = 2 * n_subjects
    per = genuine_per_subject + impostor_per_subject
    subj = np.repeat(np.arange(k), per)
    gen = np.tile(np.r_[np.ones(genuine_per_subject, bool), np.zeros(impostor_per_subject, bool)], k)
    effect = rng.standard_normal(k)[subj]
    own = math.sqrt(max(1 - subject_sd**2, 0.0))
    score = np.where(gen, mu, 0.0) + subject_sd * effect + own * rng.standard_normal(subj.size)
    return pd.DataFrame({
        "system": "A", "trial": np.arange(subj.size), "label": gen, "score": score,
        "subject": subj, "group": np.where(subj < n_subjects, "g1", "g2"),
    })


def demographic_rejection_rates(
    *,
    subject_sd: float = 0.5,
    n_subjects: int = 40,
    n_replications: int = 1000,
    n_resamples: int = 500,
    methods: tuple[str, ...] = ("auto", "wilson"),
    seed: int = 0,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Type-I error of :func:`pandas_biosig.compare_groups` (g1 vs g2, FMR and FNMR) when
    the two groups share one rate, at the fixed threshold ``mu/2`` (true rates 0.05).

    Returns one row per (method, metric): ``method`` (as passed; ``"auto"`` is the
    default, the subject bootstrap here), ``metric``, ``rejection_rate``, ``mc_se``,
    ``subject_sd``, ``n_subjects``, ``n_replications``.
    """
    from ..demographics._comparisons import compare_groups

    rng = np.random.default_rng(seed)
    hits = {(m, metric): 0 for m in methods for metric in ("fmr", "fnmr")}
    for r in range(n_replications):
        t = simulate_demographic_trials(n_subjects=n_subjects, subject_sd=subject_sd, seed=rng)
        for m in methods:
            res = compare_groups(t, reference_group=None, threshold=3.29 / 2, test=m,
                                 adjust=None, alpha=alpha, n_resamples=n_resamples, seed=r)
            for metric in ("fmr", "fnmr"):
                hits[(m, metric)] += bool(res.loc[res.metric == metric, "reject"].iloc[0])
    rows = []
    for (m, metric), h in hits.items():
        rate = h / n_replications
        rows.append(dict(method=m, metric=metric, rejection_rate=rate,
                         mc_se=math.sqrt(max(rate * (1 - rate), 1e-12) / n_replications),
                         subject_sd=subject_sd, n_subjects=n_subjects,
                         n_replications=n_replications))
    return pd.DataFrame(rows)



def fairness_rejection_rates(
    *,
    metric: str = "fdr",
    n_subjects: int = 40,
    subject_sd: float = 0.5,
    n_replications: int = 1000,
    n_resamples: int = 300,
    seed: int = 1,
    alpha: float = 0.05,
) -> pd.DataFrame:
    """Type-I error of :func:`pandas_biosig.compare_fairness` when two systems are equally
    fair: both draw their scores from one model (three groups with different genuine
    means 3, 3.3, 3.6 and same-group impostor means 0.3, 0, -0.3; a per-subject effect of
    s.d. ``subject_sd`` shared by the systems; independent trial noise), at the fixed
    threshold 1.6, so their true figures of merit are equal and their estimates
    correlated. ``n_subjects`` subjects per group with 5 genuine and 20 impostor trials.

    Returns one row: ``metric``, ``rejection_rate`` (over replications with a defined
    p-value), ``mc_se``, ``n_defined``, ``subject_sd``, ``n_subjects``, ``n_replications``.
    """
    from ..demographics._comparisons import compare_fairness

    rng = np.random.default_rng(seed)
    k = 3 * n_subjects
    subj = np.repeat(np.arange(k), 25)
    grp = subj % 3
    gen = np.tile(np.r_[np.ones(5, bool), np.zeros(20, bool)], k)
    mean = np.where(gen, np.array([3.0, 3.3, 3.6])[grp], np.array([0.3, 0.0, -0.3])[grp])
    own = math.sqrt(max(1 - subject_sd**2, 0.0))
    hits = n = 0
    for r in range(n_replications):
        u = subject_sd * rng.standard_normal(k)[subj]
        frames = [pd.DataFrame({"system": s, "trial": np.arange(subj.size), "label": gen,
                                "score": mean + u + own * rng.standard_normal(subj.size),
                                "subject": subj, "group": grp}) for s in ("A", "B")]
        res = compare_fairness(pd.concat(frames, ignore_index=True), metric=metric,
                               reference_group=None, threshold=1.6, alpha=alpha,
                               n_resamples=n_resamples, seed=r)
        if np.isfinite(res.pvalue.iloc[0]):
            n += 1
            hits += bool(res.reject.iloc[0])
    rate = hits / n if n else float("nan")
    return pd.DataFrame([dict(metric=metric, rejection_rate=rate,
                              mc_se=math.sqrt(max(rate * (1 - rate), 1e-12) / max(n, 1)),
                              n_defined=n, subject_sd=subject_sd, n_subjects=n_subjects,
                              n_replications=n_replications)])



def demographic_coverage(
    *,
    subject_sd: float = 0.5,
    n_subjects: int = 40,
    n_replications: int = 1000,
    n_resamples: int = 500,
    methods: tuple[str, ...] = ("auto", "wilson"),
    seed: int = 0,
    confidence_level: float = 0.95,
) -> pd.DataFrame:
    """Coverage of the per-group intervals of :func:`pandas_biosig.group_rates` (both
    groups, FMR and FNMR) on :func:`simulate_demographic_trials`, whose true rates at the
    threshold ``mu/2`` are Phi(-mu/2) (0.05).

    Returns one row per (method, metric): ``coverage``, ``mc_se``, ``mean_width``,
    ``subject_sd``, ``n_subjects``, ``n_replications``.
    """
    from ..demographics._rates import group_rates

    truth = float(norm.cdf(-3.29 / 2))
    rng = np.random.default_rng(seed)
    hits: dict[tuple, list[np.ndarray]] = {(m, r): [] for m in methods for r in ("fmr", "fnmr")}
    for r in range(n_replications):
        t = simulate_demographic_trials(n_subjects=n_subjects, subject_sd=subject_sd, seed=rng)
        for m in methods:
            res = group_rates(t, reference_group=None, threshold=3.29 / 2, ci_method=m,
                              confidence_level=confidence_level, n_resamples=n_resamples, seed=r)
            for metric in ("fmr", "fnmr"):
                lo, hi = res[f"{metric}_low"].to_numpy(), res[f"{metric}_high"].to_numpy()
                hits[(m, metric)] += [((lo <= truth) & (truth <= hi)), hi - lo]
    rows = []
    for (m, metric), parts in hits.items():
        cover = np.concatenate(parts[0::2])
        width = np.concatenate(parts[1::2])
        c = float(cover.mean())
        rows.append(dict(method=m, metric=metric, coverage=c,
                         mc_se=math.sqrt(max(c * (1 - c), 1e-12) / cover.size),
                         mean_width=float(width.mean()), subject_sd=subject_sd,
                         n_subjects=n_subjects, n_replications=n_replications))
    return pd.DataFrame(rows)
