"""CPU time of the per-system functions over many groups, against `np.sort` of all scores.

Run:  python benchmarks/bench_groups.py --groups 1000 10000 100000

Data: one system, groups of 100 trials (20 % genuine, impostor N(0, 1), genuine N(2, 1)),
an int64 `grp` column, the rows group after group and then in random order. Each call is
timed with `time.process_time` (CPU time of this process: a shared machine's other jobs
delay a call but do not add to it), fastest of `--repeat` calls; `np.sort` of all the
scores and `np.sort(kind="heapsort")` are timed the same way, so that a machine whose
SIMD sort is slow (the heapsort then costs about as much as the default sort) shows
itself. Prints one line per table and writes the numbers as JSON with `--json`.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

GROUP_SIZE = 100


def group_table(groups: int, *, shuffled: bool, seed: int = 0):
    import pandas as pd

    n = groups * GROUP_SIZE
    rng = np.random.default_rng(seed)
    genuine = rng.random(n) < 0.2
    table = pd.DataFrame({
        "system": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["sys"]),
        "grp": np.repeat(np.arange(groups), GROUP_SIZE), "trial": np.arange(n),
        "label": genuine, "score": rng.normal(np.where(genuine, 2.0, 0.0), 1.0),
    })
    if shuffled:
        table = table.iloc[rng.permutation(n)].reset_index(drop=True)
    return table


def cpu_time(call, repeat: int) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.process_time()
        call()
        best = min(best, time.process_time() - t0)
    return best


def measure(table, repeat: int) -> dict:
    """CPU seconds of the sorts and the calls on one table."""
    import pandas_biosig as pbs

    scores = table["score"].to_numpy()
    return {
        "sort": cpu_time(lambda: np.sort(scores), 7),
        "heapsort": cpu_time(lambda: np.sort(scores, kind="heapsort"), 3),
        "eer": cpu_time(lambda: pbs.eer(table, by="grp"), repeat),
        "error_rates": cpu_time(lambda: pbs.error_rates(table, by="grp", threshold="eer"),
                                repeat),
        "summary": cpu_time(lambda: pbs.summary(table, by="grp"), repeat),
        "one_group_eer": cpu_time(lambda: pbs.eer(table), repeat),
    }


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--groups", type=int, nargs="+", default=[1000, 10000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write the measurements here")
    args = ap.parse_args(argv)
    measure(group_table(10, shuffled=False), 1)  # imports (scipy's PAV) off the clock
    results = {}
    for groups in args.groups:
        for shuffled in (False, True):
            row = measure(group_table(groups, shuffled=shuffled), args.repeat)
            key = f"{groups}:{'random order' if shuffled else 'group after group'}"
            results[key] = row
            cells = ", ".join(f"{k} {v * 1e3:.1f} ms" for k, v in row.items())
            print(f"{groups} groups, rows {key.split(':')[1]}: {cells}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
