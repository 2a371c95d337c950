"""Benchmark of compare(): all pairs of many systems on many common trials.

Run:  python benchmarks/bench_compare.py [--systems 20] [--trials 1000000] [--repeat 5]

The reference is the least any pairwise test must do from the same DataFrame: validate the
table, choose every system's threshold (its EER threshold) and build the per-system
decision vectors once. compare() does that too, then counts the discordant decisions of
every pair with one matrix product per class and runs the scalar test of each pair.
Targets: under 10 s, and at most 3x the reference.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd

import pandas_biosig as pbs
from pandas_biosig._core.protocol import Protocol
from pandas_biosig._core.schema import validate_trials
from pandas_biosig._kernels.pairwise import decision_errors


def make_table(k: int, n: int, seed: int = 0) -> pd.DataFrame:
    """k correlated systems scoring the same n trials (10 % genuine), one row per score."""
    rng = np.random.default_rng(seed)
    genuine = rng.random(n) < 0.1
    shared = rng.standard_normal(n)
    scores = np.empty(k * n)
    for j in range(k):
        own = rng.standard_normal(n)
        scores[j * n : (j + 1) * n] = np.where(genuine, 2.0 + 0.05 * j, 0.0) + 0.6 * shared + 0.8 * own
    names = [f"sys{j:02d}" for j in range(k)]
    return pd.DataFrame(
        {
            "system": pd.Categorical.from_codes(np.repeat(np.arange(k), n), names),
            "trial": np.tile(np.arange(n), k),
            "label": pd.Categorical.from_codes(
                np.tile(genuine.astype(np.int8), k), ["impostor", "genuine"]
            ),
            "score": scores,
        }
    )


def decision_vectors(df: pd.DataFrame) -> list[np.ndarray]:
    """The reference: validated groups, EER thresholds, one error vector per system."""
    trials = validate_trials(df, split=None, subject=None)
    return [
        decision_errors(r.group.scores, r.threshold, r.group.genuine)
        for r in Protocol(threshold="eer").resolve(trials)
    ]


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--systems", type=int, default=20)
    ap.add_argument("--trials", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args(argv)
    k, n = args.systems, args.trials
    t0 = time.perf_counter()
    df = make_table(k, n)
    print(f"{k} systems x {n:,} common trials = {len(df):,} rows, {k * (k - 1) // 2} pairs "
          f"(table built in {time.perf_counter() - t0:.1f} s; {args.repeat} timed runs each)")
    runs = {
        "reference: validate + EER thresholds + decision vectors": lambda: decision_vectors(df),
        "compare(test='hter_dependent')": lambda: pbs.compare(df, test="hter_dependent"),
        # a decision-level test at per-system thresholds tests the decision rules, which
        # compare() asks to be said explicitly (DecisionTestError otherwise)
        "compare(test='mcnemar')": lambda: pbs.compare(
            df, test="mcnemar", test_decision_rules=True
        ),
    }
    for f in runs.values():  # warm-up: first-touch page faults of the large temporaries
        f()
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeat):  # interleaved, so a busy spell hits every variant
        for name, f in runs.items():
            t0 = time.perf_counter()
            out = f()
            times[name].append(time.perf_counter() - t0)
            if name.startswith("compare"):
                assert len(out) == k * (k - 1) // 2
    ref = min(times[next(iter(runs))])
    for name, ts in times.items():
        best, med = min(ts), float(np.median(ts))
        line = f"{name:58s} best {best:6.2f} s  median {med:6.2f} s"
        if name.startswith("compare"):
            ok = "OK" if best < 10 and best <= 3 * ref else "MISSED"
            line += f"   {best / ref:4.2f}x reference  {ok}"
        print(line)


if __name__ == "__main__":
    main()
