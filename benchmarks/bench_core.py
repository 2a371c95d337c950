"""Benchmark of the core engine: EER and summary() of one system, as ratios to np.sort.

Run:  python benchmarks/bench_core.py [--n 10000000] [--repeat 3]

Peak memory is the peak of numpy/Python allocations traced by ``tracemalloc`` during the
call (numpy reports its buffers to tracemalloc), relative to the bytes of the input columns.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc

import numpy as np
import pandas as pd

import pandas_biosig as pbs
from pandas_biosig._kernels.rates import Sweep


def best_time(func, repeat):
    best = np.inf
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - t0)
    return best


def peak_bytes(func):
    gc.collect()
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    func()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return peak


def make_table(n, seed=0, system_dtype="category"):
    rng = np.random.default_rng(seed)
    genuine = rng.random(n) < 0.1
    score = rng.normal(np.where(genuine, 3.0, 0.0), 1.0)
    table = pd.DataFrame(
        {
            "system": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["sys"]),
            "trial": np.arange(n),
            "label": genuine,
            "score": score,
        }
    )
    if system_dtype == "str":
        table["system"] = table["system"].astype(str)
    return table


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    table = make_table(args.n)
    scores = table["score"].to_numpy()
    genuine = table["label"].to_numpy()
    input_bytes = int(table.memory_usage(deep=True, index=False).sum())

    t_sort = best_time(lambda: np.sort(scores), args.repeat)
    rows = [("np.sort (floor)", t_sort, peak_bytes(lambda: np.sort(scores)))]
    cases = {
        "Sweep(...).eer_rocch() on arrays": lambda: Sweep.from_scores(scores, genuine).eer_rocch(),
        "pbs.eer(method='threshold')": lambda: pbs.eer(table, method="threshold"),
        "pbs.eer() (ROCCH)": lambda: pbs.eer(table),
        "pbs.summary()": lambda: pbs.summary(table),
    }
    for name, func in cases.items():
        rows.append((name, best_time(func, args.repeat), peak_bytes(func)))
    print(f"n = {args.n:,} trials, 10 % genuine; input columns {input_bytes / 2**20:.0f} MiB")
    print(f"{'operation':40s} {'seconds':>8s} {'x np.sort':>10s} {'peak MiB':>9s} {'x input':>8s}")
    for name, t, peak in rows:
        print(
            f"{name:40s} {t:8.3f} {t / t_sort:10.2f} {peak / 2**20:9.0f} {peak / input_bytes:8.2f}"
        )


if __name__ == "__main__":
    main()
