"""How far can each test and interval be trusted? A simulation harness with known truth.

Scores follow a binormal model: impostor scores are N(0, 1) and genuine scores N(mu, 1) for
every system, so FAR(t) = 1 - Phi(t) and FRR(t) = Phi(t - mu) are known exactly. Two
systems scored on the same trials have correlated noise (correlation ``rho``); with
``subject_sd > 0`` part of the noise is a per-subject effect shared by all the trials of a
person (and by both systems), so trials are no longer independent, as in real data.

Run the full report (about 20 minutes on 2 cores) with::

    python -m pandas_biosig.validity --out docs/validity.md

and a quick version (seconds) with ``--quick``. Every function here is usable on its own
for your own sample sizes and correlations.
"""

from __future__ import annotations

import argparse
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from .. import stats
from .._core.criteria import choose, eer_point, min_weighted_point
from .._core.progress import progress_bar
from .._core.replicates import bootstrap_pvalue, fixed_threshold_deltas
from .._kernels.rates import Sweep
from .._kernels.resample import percentile_interval, uniform_counts
from ..verification._resampling import bootstrap

__all__ = [
    'Setting',
    'coverage',
    'rejection_rates',
    'simulate_trials',
    'threshold_selection',
    'true_eer',
]

#: The seed paper's two protocols (Bengio & Mariéthoz 2004): (n_genuine, n_impostor).
XM2VTS = (400, 112_000)
NIST2000 = (5_825, 57_748)

TESTS = (
    "hter_independent",
    "hter_dependent",
    "naive",
    "class",
    "mcnemar_exact",
    "mcnemar_chi2",
    "bootstrap_label",
    "bootstrap_subject",
    "eer_bound",
)


@dataclass(frozen=True)
class Setting:
    """One simulated protocol.

    ``mu_a``, ``mu_b``: genuine means (impostor mean 0, unit variances); ``rho``: correlation
    of the two systems' noise on the same trial; ``subject_sd``: standard deviation of the
    per-subject effect (the rest of the unit variance is per-trial noise); ``n_subjects``:
    subjects (each trial belongs to one); ``top_share``: the share of the trials that
    subject 0 holds (0: subjects drawn uniformly; 0.5: one subject holds half of the
    trials, the rest spread over the others). Thresholds are fixed at ``mu/2`` (the true
    EER threshold), as a-priori thresholds would be.
    """

    n_genuine: int
    n_impostor: int
    mu_a: float = 2.0
    mu_b: float = 2.0
    rho: float = 0.0
    subject_sd: float = 0.0
    n_subjects: int = 200
    shift_b: float = 0.0
    top_share: float = 0.0

    @property
    def thresholds(self) -> tuple[float, float]:
        """A-priori thresholds: the true EER threshold ``mu/2``, A's moved down and B's
        up by ``shift_b``.

        HTER(mu/2 + c) = HTER(mu/2 - c) in the binormal model, so with ``mu_a == mu_b`` the
        shift keeps the two true HTERs equal while their FAR and FRR differ: the null
        hypothesis of the HTER tests, but not of tests of the total error count."""
        return self.mu_a / 2 - self.shift_b, self.mu_b / 2 + self.shift_b

    def true_hter(self) -> tuple[float, ...]:
        return tuple(
            float((norm.sf(t) + norm.cdf(t - mu)) / 2)
            for t, mu in zip(self.thresholds, (self.mu_a, self.mu_b), strict=True)
        )


def true_eer(mu: float) -> float:
    """The EER of the binormal model N(0, 1) vs N(mu, 1): Phi(-mu / 2)."""
    return float(norm.cdf(-mu / 2))


def _draw(rng: np.random.Generator, s: Setting):
    """Scores of A and B, labels and subjects for one simulated dataset (numpy)."""
    n = s.n_genuine + s.n_impostor
    genuine = np.zeros(n, dtype=bool)
    genuine[: s.n_genuine] = True
    if s.top_share > 0:  # one subject holds a share of the trials
        subject = np.where(rng.random(n) < s.top_share, 0, rng.integers(1, s.n_subjects, n))
    else:
        subject = rng.integers(0, s.n_subjects, n)
    tau = s.subject_sd
    own = math.sqrt(max(1 - tau**2, 0.0))
    z1 = rng.standard_normal(n)
    z2 = s.rho * z1 + math.sqrt(1 - s.rho**2) * rng.standard_normal(n)
    u1 = rng.standard_normal(s.n_subjects)
    u2 = s.rho * u1 + math.sqrt(1 - s.rho**2) * rng.standard_normal(s.n_subjects)
    a = own * z1 + tau * u1[subject] + np.where(genuine, s.mu_a, 0.0)
    b = own * z2 + tau * u2[subject] + np.where(genuine, s.mu_b, 0.0)
    return a, b, genuine, subject


def simulate_trials(setting: Setting, *, seed: int | None = None) -> pd.DataFrame:
    """One simulated dataset as a tidy trial table (systems ``A`` and ``B``).

    Examples
    --------
    >>> from pandas_biosig.validity import Setting, simulate_trials
    >>> t = simulate_trials(Setting(n_genuine=100, n_impostor=400, rho=0.5), seed=0)
    >>> t.groupby("system").size().tolist()
    [500, 500]
    """
    a, b, genuine, subject = _draw(np.random.default_rng(seed), setting)
    n = a.size
    base = {"trial": np.arange(n), "label": genuine, "subject": subject}
    return pd.concat(
        [pd.DataFrame({"system": "A", **base, "score": a}),
         pd.DataFrame({"system": "B", **base, "score": b})],
        ignore_index=True,
    )[["system", "trial", "label", "score", "subject"]]


class _Group:
    """The minimal Group interface used by the 8-cell bootstrap."""

    def __init__(self, scores, genuine, subject):
        self.scores, self.genuine, self.subject = scores, genuine, subject


def _pvalues(rng, s: Setting, n_boot: int, alpha: float) -> dict[str, float]:
    a, b, g, subj = _draw(rng, s)
    ta, tb = s.thresholds
    acc_a, acc_b = a >= ta, b >= tb
    imp, gen = ~g, g
    ni, nc = int(imp.sum()), int(gen.sum())
    fa_a, fa_b = int((acc_a & imp).sum()), int((acc_b & imp).sum())
    fr_a, fr_b = int((~acc_a & gen).sum()), int((~acc_b & gen).sum())
    rates = (fa_a / ni, fr_a / nc, fa_b / ni, fr_b / nc)
    kw: dict[str, Any] = dict(n_impostor=ni, n_genuine=nc)
    out = {
        "hter_independent": stats.hter_test(*rates, method="independent", **kw).pvalue,
        "naive": stats.hter_test(*rates, method="naive", **kw).pvalue,
        "class": stats.hter_test(*rates, method="class", **kw).pvalue,
    }
    ni_ab = int((imp & ~acc_a & acc_b).sum())
    ni_ba = int((imp & acc_a & ~acc_b).sum())
    nc_ab = int((gen & acc_a & ~acc_b).sum())
    nc_ba = int((gen & ~acc_a & acc_b).sum())
    if ni_ab + ni_ba + nc_ab + nc_ba == 0:
        out["hter_dependent"] = 1.0
    else:
        out["hter_dependent"] = stats.hter_test(
            *rates, method="dependent", ni_ab=ni_ab, ni_ba=ni_ba, nc_ab=nc_ab, nc_ba=nc_ba, **kw
        ).pvalue
    err_a = acc_a ^ g
    err_b = acc_b ^ g
    b_cnt = int((err_a & ~err_b).sum())
    c_cnt = int((~err_a & err_b).sum())
    out["mcnemar_exact"] = stats.mcnemar(b_cnt, c_cnt, method="exact").pvalue
    out["mcnemar_chi2"] = stats.mcnemar(b_cnt, c_cnt, method="chi2_corrected").pvalue
    ga, gb = _Group(a, g, subj), _Group(b, g, subj)
    for resample in ("label", "subject"):
        d = fixed_threshold_deltas(ga, gb, "hter", (ta, tb), n_boot, resample, rng)
        out[f"bootstrap_{resample}"] = bootstrap_pvalue(d)
    eer_a = eer_point(Sweep(a[imp], a[gen]))[0]
    eer_b = eer_point(Sweep(b[imp], b[gen]))[0]
    out["eer_bound"] = stats.eer_bound(eer_a, eer_b, n=ni + nc).pvalue
    return out


def _replications(n: int, progress: bool | None, label: str):
    """``range(n)`` that ticks a progress bar (:mod:`pandas_biosig._core.progress`)."""
    tick = progress_bar(progress, n, label, unit="replication")
    for i in range(n):
        yield i
        tick(i + 1)


def rejection_rates(
    setting: Setting,
    *,
    n_replications: int = 2000,
    alpha: float = 0.05,
    n_boot: int = 499,
    seed: int = 0,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Fraction of simulated datasets in which each two-system test rejects at ``alpha``.

    ``progress``: a progress bar over the replications (see
    :func:`pandas_biosig.bootstrap`); by default in terminals and notebooks only.

    Under a null setting (``mu_a == mu_b``: equal true HTER) this is the type-I error; under
    an alternative, the power.

    Returns
    -------
    DataFrame
        Columns ``test, rejection_rate, mc_se`` (Monte-Carlo standard error
        :math:`\\sqrt{r(1-r)/R}`), ``n_replications, alpha``.

    Examples
    --------
    >>> from pandas_biosig.validity import Setting, rejection_rates
    >>> r = rejection_rates(Setting(100, 1000), n_replications=20, n_boot=49)
    >>> sorted(r.columns)
    ['alpha', 'mc_se', 'n_replications', 'rejection_rate', 'test']
    """
    rng = np.random.default_rng(seed)
    hits = dict.fromkeys(TESTS, 0)
    for _ in _replications(n_replications, progress, "type-I error / power"):
        for name, p in _pvalues(rng, setting, n_boot, alpha).items():
            hits[name] += p < alpha
    rate = np.array([hits[t] / n_replications for t in TESTS])
    return pd.DataFrame(
        {
            "test": TESTS,
            "rejection_rate": rate,
            "mc_se": np.sqrt(rate * (1 - rate) / n_replications),
            "n_replications": n_replications,
            "alpha": alpha,
        }
    )


def coverage(
    setting: Setting,
    *,
    n_replications: int = 1000,
    confidence_level: float = 0.95,
    n_boot: int = 499,
    seed: int = 0,
    progress: bool | None = None,
) -> pd.DataFrame:
    """Fraction of simulated datasets whose interval covers the true value (system A).

    ``progress``: a progress bar over the replications, as in :func:`rejection_rates`.

    Intervals: HTER (Bengio & Mariéthoz eq. 13), DCF (eq. 14 generalised, p_target = 0.5,
    unit costs), FAR and FRR (Wilson and Clopper-Pearson), and the percentile bootstrap of
    the threshold EER (label-stratified and subject resampling) and of the HTER at the fixed
    threshold (label and subject resampling).

    Returns
    -------
    DataFrame
        Columns ``interval, coverage, mc_se, n_replications, confidence_level``.

    Examples
    --------
    >>> from pandas_biosig.validity import Setting, coverage
    >>> c = coverage(Setting(200, 800), n_replications=10, n_boot=49)
    >>> c.interval.tolist()[:3]
    ['hter_bengio', 'dcf_bengio', 'far_wilson']
    """
    rng = np.random.default_rng(seed)
    mu, t = setting.mu_a, setting.mu_a / 2
    true_far, true_frr = float(norm.sf(t)), float(norm.cdf(t - mu))
    truth = dict(far=true_far, frr=true_frr, hter=(true_far + true_frr) / 2, eer=true_eer(mu))
    names = [
        "hter_bengio", "dcf_bengio", "far_wilson", "far_clopper_pearson", "frr_wilson",
        "frr_clopper_pearson", "hter_bootstrap_label", "hter_bootstrap_subject",
        "eer_bootstrap_label", "eer_bootstrap_subject",
    ]
    hits = dict.fromkeys(names, 0)
    for _ in _replications(n_replications, progress, "coverage"):
        a, b, g, subj = _draw(rng, setting)
        covered = {
            **_formula_covers(a, g, t, truth, confidence_level),
            **_bootstrap_covers(rng, a, g, subj, t, truth, setting.n_subjects, n_boot,
                                confidence_level),
        }
        for name, hit in covered.items():
            hits[name] += hit
    cov = np.array([hits[n] / n_replications for n in names])
    return pd.DataFrame(
        {
            "interval": names,
            "coverage": cov,
            "mc_se": np.sqrt(cov * (1 - cov) / n_replications),
            "n_replications": n_replications,
            "confidence_level": confidence_level,
        }
    )


def _formula_covers(a, g, t, truth, confidence_level) -> dict:
    """Whether each closed-form interval of system A's rates at threshold ``t`` covers the
    truth: HTER and DCF (Bengio & Mariéthoz), FAR and FRR (Wilson, Clopper-Pearson)."""
    imp = ~g
    ni, nc = int(imp.sum()), int(g.sum())
    fa, fr = int((a[imp] >= t).sum()), int((a[g] < t).sum())
    far, frr = fa / ni, fr / nc
    checks = {
        "hter_bengio": (stats.hter_ci(far, frr, n_impostor=ni, n_genuine=nc), truth["hter"]),
        "dcf_bengio": (
            stats.dcf_ci(far, frr, n_impostor=ni, n_genuine=nc, p_target=0.5),
            0.5 * truth["frr"] + 0.5 * truth["far"],
        ),
        "far_wilson": (stats.rate_ci(fa, ni, method="wilson"), truth["far"]),
        "far_clopper_pearson": (stats.rate_ci(fa, ni, method="beta"), truth["far"]),
        "frr_wilson": (stats.rate_ci(fr, nc, method="wilson"), truth["frr"]),
        "frr_clopper_pearson": (stats.rate_ci(fr, nc, method="beta"), truth["frr"]),
    }
    out = {}
    for name, (res, value) in checks.items():
        low, high = res.confidence_interval(confidence_level=confidence_level)
        out[name] = low <= value <= high
    return out


def _bootstrap_covers(rng, a, g, subj, t, truth, n_subjects, n_boot, confidence_level) -> dict:
    """Whether each percentile bootstrap interval covers the truth: the HTER at the fixed
    threshold ``t`` and the threshold EER, each under label and subject resampling."""
    out = {}
    imp = ~g
    ga = _Group(a, g, subj)
    zero = _Group(np.full_like(a, -np.inf), g, subj)  # HTER(B) = 0.5 at any threshold
    for resample in ("label", "subject"):
        d = fixed_threshold_deltas(ga, zero, "hter", (t, 0.0), n_boot, resample, rng) + 0.5
        low, high = percentile_interval(d[np.isfinite(d)], confidence_level)
        out[f"hter_bootstrap_{resample}"] = low <= truth["hter"] <= high
    # the label bootstrap as bootstrap() draws it (every replicate of the group at once)
    table = pd.DataFrame({"system": "A", "trial": np.arange(a.size), "label": g, "score": a})
    row = bootstrap(table, metric="eer_threshold", resample="label", n_resamples=n_boot,
                    seed=rng, confidence_level=confidence_level).iloc[0]
    out["eer_bootstrap_label"] = row.ci_low <= truth["eer"] <= row.ci_high
    sw = Sweep(a[imp], a[g])
    sw.prepare_resampling()
    neg_order = np.argsort(a[imp], kind="stable")
    pos_order = np.argsort(a[g], kind="stable")
    vals = np.empty(n_boot)
    for i in range(n_boot):
        w = uniform_counts(rng, n_subjects)[subj]
        wn, wp = w[imp][neg_order], w[g][pos_order]
        vals[i] = eer_point(sw.reweighted(wn, wp))[0] if wn.sum() and wp.sum() else np.nan
    low, high = percentile_interval(vals, confidence_level)
    out["eer_bootstrap_subject"] = low <= truth["eer"] <= high
    return out


def threshold_selection(
    setting: Setting, *, n_replications: int = 1000, seed: int = 0,
    progress: bool | None = None,
) -> pd.DataFrame:
    """The cost of choosing the threshold on dev instead of knowing the best one.

    ``progress``: a progress bar over the replications, as in :func:`rejection_rates`.

    Each replication draws a dev and an eval set of the same size; the EER threshold is
    chosen on dev (bob.measure's rule) and applied to eval. Reported: the mean eval HTER
    at the dev threshold, the mean eval HTER at the oracle threshold ``mu/2``, the true
    minimum HTER, and the mean a-posteriori minimum HTER on eval (optimistically biased).

    Examples
    --------
    >>> from pandas_biosig.validity import Setting, threshold_selection
    >>> threshold_selection(Setting(100, 400), n_replications=5).columns.tolist()
    ['true_min_hter', 'oracle_threshold', 'dev_threshold', 'a_posteriori_min_hter', 'n_replications']
    """
    rng = np.random.default_rng(seed)
    mu = setting.mu_a
    dev_h: list[np.ndarray] = []
    oracle_h: list[np.ndarray] = []
    post_h: list[float] = []
    for _ in _replications(n_replications, progress, "threshold selection"):
        a_dev, _, g_dev, _ = _draw(rng, setting)
        a_ev, _, g_ev, _ = _draw(rng, setting)
        dev = Sweep(a_dev[~g_dev], a_dev[g_dev])
        ev = Sweep(a_ev[~g_ev], a_ev[g_ev])
        thr = choose("eer", dev)
        for t, sink in ((thr, dev_h), (mu / 2, oracle_h)):
            fa, fr = ev.rates_at_threshold(t)
            sink.append((fa / ev.n + fr / ev.p) / 2)
        op = min_weighted_point(ev, 0.5)
        post_h.append((op.far + op.frr) / 2)
    return pd.DataFrame(
        {
            "true_min_hter": [true_eer(mu)],
            "oracle_threshold": [np.mean(oracle_h)],
            "dev_threshold": [np.mean(dev_h)],
            "a_posteriori_min_hter": [np.mean(post_h)],
            "n_replications": [n_replications],
        }
    )


# --------------------------------------------------------------------------- the report
def _type1_grid(quick: bool):
    sizes = {"XM2VTS 400/112000": XM2VTS, "NIST'2000 5825/57748": NIST2000}
    if quick:
        sizes = {"small 200/5000": (200, 5000)}
    for size_name, (nc, ni) in sizes.items():
        for rho in (0.0, 0.5, 0.9):
            for sd in (0.0, 0.5):
                yield size_name, rho, sd, 0.0, Setting(nc, ni, rho=rho, subject_sd=sd)
        # equal true HTERs reached at different operating points (B's threshold moved)
        yield size_name, 0.5, 0.0, 0.5, Setting(nc, ni, rho=0.5, shift_b=0.5)


def report(
    *, quick: bool = False, seed: int = 0, progress: bool | None = None
) -> dict[str, pd.DataFrame]:
    """Run every measurement; return the tables (quick: small sizes, few replications).

    ``progress``: a progress bar per measurement (minutes in all without ``quick``)."""
    reps = 300 if quick else 2000
    n_boot = 199 if quick else 399
    rows = []
    for size_name, rho, sd, shift, s in _type1_grid(quick):
        r = rejection_rates(s, n_replications=reps, n_boot=n_boot, seed=seed, progress=progress)
        r.insert(0, "shift_b", shift)
        r.insert(0, "subject_sd", sd)
        r.insert(0, "rho", rho)
        r.insert(0, "protocol", size_name)
        rows.append(r)
    type1 = pd.concat(rows, ignore_index=True)
    power_rows = []
    nc, ni = (200, 5000) if quick else NIST2000
    for delta in (0.05, 0.1, 0.2):
        s = Setting(nc, ni, mu_a=2.0, mu_b=2.0 - delta, rho=0.5)
        r = rejection_rates(s, n_replications=reps // 2, n_boot=n_boot, seed=seed + 1, progress=progress)
        hter_a, hter_b = s.true_hter()
        r.insert(0, "true_hter_difference", hter_b - hter_a)
        power_rows.append(r)
    power = pd.concat(power_rows, ignore_index=True)
    cov_rows = []
    cov_reps = 200 if quick else 1000
    for sd in (0.0, 0.5):
        c = coverage(Setting(1000, 4000, subject_sd=sd, n_subjects=100),
                     n_replications=cov_reps, n_boot=n_boot // 2 if quick else 199, seed=seed,
                     progress=progress)
        c.insert(0, "subject_sd", sd)
        cov_rows.append(c)
    cov = pd.concat(cov_rows, ignore_index=True)
    sel = pd.concat(
        [threshold_selection(Setting(nc_, 4 * nc_), n_replications=reps // 2, seed=seed,
                             progress=progress)
         .assign(n_genuine=nc_, n_impostor=4 * nc_) for nc_ in (50, 200, 1000)],
        ignore_index=True,
    )
    return {"type1": type1, "power": power, "coverage": cov, "threshold_selection": sel}


def _markdown(tables: dict[str, pd.DataFrame], seconds: float, command: str) -> str:
    t1 = tables["type1"].pivot_table(
        index="test", columns=["protocol", "rho", "subject_sd", "shift_b"],
        values="rejection_rate",
    )
    t1 = t1.reindex(list(TESTS))
    mc = tables["type1"].mc_se.max()
    power = tables["power"].pivot_table(index="test", columns="true_hter_difference",
                                        values="rejection_rate").reindex(list(TESTS))
    cov = tables["coverage"].pivot_table(index="interval", columns="subject_sd", values="coverage")
    return "\n".join(
        [
            "## Measured tables",
            "",
            f"Regenerate with `{command}` ({seconds / 60:.0f} minutes on this machine).",
            "",
            f"### Type-I error at alpha = 0.05 (largest Monte-Carlo s.e. {mc:.3f})",
            "",
            "Columns: protocol, correlation rho between the systems, subject effect s.d., "
            "shift of B's threshold (equal true HTERs at different FAR/FRR).",
            "",
            t1.round(3).to_markdown(),
            "",
            "### Power (NIST'2000 sizes, rho = 0.5), by true HTER difference",
            "",
            power.round(3).to_markdown(),
            "",
            "### Coverage of 95 % intervals (1000 genuine / 4000 impostor, 100 subjects)",
            "",
            "Columns: subject effect s.d.",
            "",
            cov.round(3).to_markdown(),
            "",
            "### Threshold chosen on dev vs the oracle threshold (mean eval HTER)",
            "",
            tables["threshold_selection"].round(4).to_markdown(index=False),
            "",
        ]
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pandas_biosig.validity")
    ap.add_argument("--quick", action="store_true", help="small sizes, few replications")
    ap.add_argument("--out", help="write the Markdown tables to this file (else print)")
    ap.add_argument("--csv", help="also write the raw tables as CSV files with this prefix")
    ap.add_argument("--plot", help="write the type-I error vs rho plot (PNG) here")
    ap.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                    help="progress bars on stderr (default: only on a terminal)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    tables = report(quick=args.quick, progress=args.progress)
    seconds = time.perf_counter() - t0
    command = "python -m pandas_biosig.validity" + (" --quick" if args.quick else "")
    text = _markdown(tables, seconds, command)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    else:
        print(text)
    if args.csv:
        for name, frame in tables.items():
            frame.to_csv(f"{args.csv}{name}.csv", index=False)
    if args.plot:
        _plot(tables["type1"], args.plot)
    return 0


def _plot(type1: pd.DataFrame, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    proto = type1.protocol.iloc[0]
    for ax, sd in zip(axes, (0.0, 0.5), strict=True):
        sub = type1[(type1.protocol == proto) & (type1.subject_sd == sd) & (type1.shift_b == 0)]
        for test, grp in sub.groupby("test", sort=False):
            ax.plot(grp.rho, grp.rejection_rate, marker="o", label=test)
        ax.axhline(0.05, color="k", lw=0.8, ls="--")
        ax.set_yscale("log")
        ax.set_xlabel("correlation rho between the two systems")
        ax.set_title(f"{proto}, subject s.d. {sd}")
    axes[0].set_ylabel("type-I error at alpha = 0.05")
    axes[1].legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
