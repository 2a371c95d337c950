"""Benchmark of the demographic functions on a large synthetic table.

Run:  python benchmarks/bench_demographics.py [--trials 1000000] [--groups 4]
      [--subjects 2000] [--systems 2] [--resamples 1000] [--repeat 3]

Every trial has a probe ``group`` and a ``reference_group`` (80 % of the impostor trials
are same-group), a ``subject`` (subjects nested in groups), a dev/eval ``split`` and a
binormal score. Reported: the best wall time of each call, as a multiple of ``np.sort`` of
all the scores (the floor of any threshold sweep), and the peak of traced numpy/Python
allocations as a multiple of the bytes of the input columns.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import numpy as np
import pandas as pd

import pandas_biosig as pbs


def table(n: int, groups: int, subjects: int, systems: int, seed: int = 0) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    subj = rng.integers(0, subjects, n)
    grp = subj % groups
    genuine = rng.random(n) < 0.1
    cross = ~genuine & (rng.random(n) < 0.2)
    ref = np.where(cross, (grp + 1 + rng.integers(0, groups - 1, n)) % groups, grp)
    split = np.where(subj < subjects // 2, "dev", "eval")
    frames = []
    for s in range(systems):
        score = np.where(genuine, 3.0 - 0.2 * grp * s, 0.1 * grp) + rng.standard_normal(n)
        frames.append(pd.DataFrame({"system": f"s{s}", "trial": np.arange(n), "label": genuine,
                                    "score": score, "split": split, "subject": subj,
                                    "group": grp, "reference_group": ref}))
    return pd.concat(frames, ignore_index=True)


def best(func, repeat: int) -> float:
    out = np.inf
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        func()
        out = min(out, time.perf_counter() - t0)
    return out


def peak(func) -> int:
    gc.collect()
    tracemalloc.start()
    func()
    _, high = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return high


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--trials", type=int, default=1_000_000)
    ap.add_argument("--groups", type=int, default=4)
    ap.add_argument("--subjects", type=int, default=2000)
    ap.add_argument("--systems", type=int, default=2)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    t = table(a.trials, a.groups, a.subjects, a.systems)
    nbytes = int(t.memory_usage(deep=False, index=False).sum())
    scores = t.score.to_numpy()
    floor = best(lambda: np.sort(scores), a.repeat)
    calls = {
        "group_rates (bootstrap)": lambda: pbs.group_rates(t, target=1e-3, n_resamples=a.resamples, seed=0),
        "fairness": lambda: pbs.fairness(t, target=1e-3),
        "cross_group_fmr": lambda: pbs.cross_group_fmr(t, target=1e-3),
        "compare_groups (bootstrap)": lambda: pbs.compare_groups(t, target=1e-3, n_resamples=a.resamples, seed=0),
        "compare_fairness": lambda: pbs.compare_fairness(t, target=1e-3, n_resamples=a.resamples, seed=0),
    }
    print(f"{len(t):,} rows ({a.systems} systems x {a.trials:,} trials), {a.groups} groups, "
          f"{a.subjects} subjects, {a.resamples} resamples; np.sort of all scores {floor:.3f} s")
    print(f"{'call':32s} {'seconds':>8s} {'x np.sort':>10s} {'peak / input':>13s}")
    for name, call in calls.items():
        s = best(call, a.repeat)
        m = peak(call)
        print(f"{name:32s} {s:8.3f} {s / floor:10.1f} {m / nbytes:13.2f}")


if __name__ == "__main__":
    main()
