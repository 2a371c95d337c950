"""Are the defaults valid? Every public function that returns a p-value or an interval,
called with its defaults on simulated dev/eval tables with known truth.

Each replication draws two independent datasets of :func:`pandas_biosig.validity.simulate_trials`
(the ``dev`` and ``eval`` splits of one table, with a ``subject`` column) for two systems
with the same genuine mean, so every null hypothesis of "equal systems" is true and every
true rate is known: FAR(t) = 1 - Phi(t), FRR(t) = Phi(t - mu), EER = Phi(-mu/2). The
functions are called with no argument beyond the table (and a seed; ``n_resamples`` only
in the quick version), and the table reports, per protocol, the rejection rate of each
test at alpha = 0.05 and the coverage of each 95 % interval, with Monte-Carlo standard
errors.

Run::

    python -m pandas_biosig.validity defaults --out docs/validity_defaults.md

(``--quick``: a few replications, seconds to a minute).
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import numpy as np
import pandas as pd
from scipy.stats import norm

from ..verification._comparison import DECISION_TESTS, TESTS, DecisionTestError, compare
from ..verification._intervals import ci
from ..verification._resampling import bootstrap, paired_bootstrap
from ._verification import Setting, simulate_trials, true_eer

__all__ = ["PROTOCOLS", "defaults_report", "dev_eval_trials"]

#: The simulated protocols: name -> Setting (identical systems A and B).
PROTOCOLS = {
    "independent, rho 0": Setting(200, 2000, rho=0.0, n_subjects=100),
    "rho 0.5": Setting(200, 2000, rho=0.5, n_subjects=100),
    "rho 0.9": Setting(200, 2000, rho=0.9, n_subjects=100),
    "subject effects (sd 0.5), rho 0.5": Setting(200, 2000, rho=0.5, subject_sd=0.5,
                                                 n_subjects=100),
    "unbalanced 50/5000": Setting(50, 5000, rho=0.5, n_subjects=100),
    "low error rates (EER 0.6 %)": Setting(1000, 10000, mu_a=5.0, mu_b=5.0, rho=0.5,
                                          n_subjects=200),
}


def dev_eval_trials(setting: Setting, *, seed: int) -> pd.DataFrame:
    """Two independent simulated datasets as the ``dev`` and ``eval`` splits of one table
    (trial and subject ids distinct across the splits)."""
    dev = simulate_trials(setting, seed=2 * seed).assign(split="dev")
    ev = simulate_trials(setting, seed=2 * seed + 1).assign(split="eval")
    ev["trial"] += int(dev["trial"].max()) + 1
    ev["subject"] += setting.n_subjects
    return pd.concat([dev, ev], ignore_index=True)


def _truth(setting: Setting, threshold: float, p_target=0.01) -> dict[str, float]:
    far = float(norm.sf(threshold))
    frr = float(norm.cdf(threshold - setting.mu_a))
    cost = (p_target * frr + (1 - p_target) * far) / min(p_target, 1 - p_target)
    return {"far": far, "frr": frr, "hter": (far + frr) / 2, "dcf": cost}


def _one(setting: Setting, seed: int, boot: dict) -> list[tuple[str, str, bool]]:
    """(function, kind, outcome) for one replication: rejected (tests) or covered."""
    t = dev_eval_trials(setting, seed=seed)
    out = []
    for test in TESTS:
        # the tables have a subject column: compare()'s default is the subject bootstrap
        name = "compare()" if test == "bootstrap" else f'compare(test="{test}")'
        try:
            res = compare(t, test=test, seed=seed, **(boot if test == "bootstrap" else {}))
        except DecisionTestError:
            out.append((name, "refuses", True))
            continue
        out.append((name, "type-I error", bool(res.pvalue.iloc[0] <= 0.05)))
    p = paired_bootstrap(t, "A", "B", seed=seed, **boot).pvalue
    row: Any  # pandas' stubs type a row's fields as any scalar
    out.append(("paired_bootstrap()", "type-I error", bool(p <= 0.05)))
    for row in ci(t).itertuples():
        truth = _truth(setting, row.threshold)[row.metric]
        out.append((f"ci() {row.metric}", "coverage", row.ci_low <= truth <= row.ci_high))
    eer = true_eer(setting.mu_a)
    for row in bootstrap(t, seed=seed, **boot).itertuples():
        out.append(("bootstrap() eer", "coverage", row.ci_low <= eer <= row.ci_high))
    for row in bootstrap(t, metric="hter", seed=seed, **boot).itertuples():
        truth = _truth(setting, row.threshold)["hter"]
        out.append(('bootstrap(metric="hter")', "coverage", row.ci_low <= truth <= row.ci_high))
    return out


def defaults_report(*, replications: int = 500, n_resamples: int | None = None,
                    protocols: dict | None = None, seed: int = 0) -> pd.DataFrame:
    """Rejection rate / coverage of every default, per protocol, with Monte-Carlo s.e.

    ``n_resamples`` overrides the bootstrap's default (1000) to save time; None keeps it.
    """
    boot = {} if n_resamples is None else {"n_resamples": n_resamples}
    rows = []
    for name, setting in (protocols or PROTOCOLS).items():
        outcomes: dict[tuple[str, str], list[bool]] = {}
        for i in range(replications):
            for fn, kind, ok in _one(setting, seed + i, boot):
                outcomes.setdefault((fn, kind), []).append(ok)
        for (fn, kind), values in outcomes.items():
            rate = float(np.mean(values))
            n = len(values)
            target = 0.05 if kind == "type-I error" else 0.95
            se = math.sqrt(target * (1 - target) / n) if kind != "refuses" else 0.0
            valid = (0.025 <= rate <= 0.075 if kind == "type-I error"
                     else rate >= 0.93 if kind == "coverage" else rate == 1.0)
            rows.append(dict(protocol=name, function=fn, kind=kind, rate=rate, mc_se=se, n=n,
                             valid=valid))
    return pd.DataFrame(rows)


def _markdown(table: pd.DataFrame, seconds: float, command: str, replications: int) -> str:
    wide = table.pivot_table(index=["function", "kind"], columns="protocol", values="rate",
                             sort=False)
    wide = wide[[p for p in PROTOCOLS if p in wide.columns]]
    se = table.groupby("kind").mc_se.max()
    return "\n".join([
        "## The defaults, measured",
        "",
        f"Regenerate with `{command}` ({seconds / 60:.0f} minutes on this machine). "
        f"{replications} replications per protocol (intervals: one per system and split "
        "reported); largest Monte-Carlo s.e.: "
        + ", ".join(f"{k} {v:.3f}" for k, v in se.items() if v > 0) + ".",
        "",
        "Type-I error must lie in [0.025, 0.075] and coverage be at least 0.93; "
        "\"refuses\" = 1 means the call raised its named error every time. Decision-level "
        f"tests ({', '.join(DECISION_TESTS)}) refuse per-system criterion thresholds.",
        "",
        wide.round(3).to_markdown(),
        "",
    ])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m pandas_biosig.validity defaults")
    ap.add_argument("--quick", action="store_true", help="few replications, 199 resamples")
    ap.add_argument("--replications", type=int, default=None)
    ap.add_argument("--out", help="write the Markdown table here (else print)")
    ap.add_argument("--csv", help="also write the long table as CSV here")
    args = ap.parse_args(argv)
    reps = args.replications or (20 if args.quick else 500)
    t0 = time.perf_counter()
    table = defaults_report(replications=reps, n_resamples=199 if args.quick else None)
    command = ("python -m pandas_biosig.validity defaults"
               + (f" --replications {args.replications}" if args.replications else "")
               + (" --quick" if args.quick else ""))
    text = _markdown(table, time.perf_counter() - t0, command, reps)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    else:
        print(text)
    if args.csv:
        table.to_csv(args.csv, index=False)
    return 0
