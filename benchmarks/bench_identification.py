"""Benchmark of identification: ranks and CMC of P probes x R references per system.

Run:  python benchmarks/bench_identification.py [--probes 10000] [--references 10000]
      [--systems 1] [--repeat 3]

The table has one row per (system, probe, reference): ``system`` categorical, ``probe`` and
``reference`` int32 codes, ``score`` float64, ``mate`` bool; one probe in ten is unmated
(open-set).  Rows come grouped by probe, as a score matrix read row by row; two more cases
run the same table grouped by reference (the order of bob's score files) and in random row
order.

Baselines: ``np.sort`` of all the scores (the floor of the core's benchmarks), a row-wise
``np.sort`` / ``np.partition`` of the P x R score matrix (what a per-probe CMC does) and the
rank as one comparison of the dense matrix with each row's best mate score (the kernel's
method, when the scores already form a matrix: no codes, no validation).  Peak
memory is the peak of numpy/Python allocations traced by ``tracemalloc`` during the call,
as a multiple of the bytes of the input columns.
"""

from __future__ import annotations

import argparse
import gc
import time
import tracemalloc
from functools import partial

import numpy as np
import pandas as pd

from pandas_biosig._kernels.identification import probe_stats
from pandas_biosig.identification import cmc, detection_identification_rate, recognition_rate


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


def make_table(n_probes, n_refs, n_systems=1, seed=0):
    rng = np.random.default_rng(seed)
    n = n_probes * n_refs
    frames = []
    for k in range(n_systems):
        mate_ref = rng.integers(0, n_refs, n_probes)
        mated = rng.random(n_probes) >= 0.1
        scores = rng.standard_normal((n_probes, n_refs))
        mate = np.zeros((n_probes, n_refs), dtype=bool)
        mate[np.flatnonzero(mated), mate_ref[mated]] = True
        scores[mate] += 3.0
        frames.append(
            pd.DataFrame(
                {
                    "system": pd.Categorical.from_codes(
                        np.full(n, k, dtype=np.int8), [f"sys{i}" for i in range(n_systems)]
                    ),
                    "probe": np.repeat(np.arange(n_probes, dtype=np.int32), n_refs),
                    "reference": np.tile(np.arange(n_refs, dtype=np.int32), n_probes),
                    "score": scores.ravel(),
                    "mate": mate.ravel(),
                }
            )
        )
    return frames[0] if n_systems == 1 else pd.concat(frames, ignore_index=True)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--probes", type=int, default=10_000)
    ap.add_argument("--references", type=int, default=10_000)
    ap.add_argument("--systems", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    table = make_table(args.probes, args.references, args.systems)
    n = len(table)
    input_bytes = int(table.memory_usage(deep=True, index=False).sum())
    first = table.iloc[: args.probes * args.references]
    scores = first["score"].to_numpy()
    matrix = scores.reshape(args.probes, args.references)
    codes = first["probe"].to_numpy()
    mate = first["mate"].to_numpy()
    print(
        f"{args.systems} system(s) x {args.probes} probes x {args.references} references = "
        f"{n:,} rows ({input_bytes / 2**30:.2f} GiB of columns)"
    )

    rows = []

    def case(name, func, memory=True):
        t = best_time(func, args.repeat)
        rows.append((name, t, peak_bytes(func) if memory else np.nan))

    case("np.sort of one system's scores (floor)", lambda: np.sort(scores))
    case("row-wise np.sort of the score matrix", lambda: np.sort(matrix, axis=1))
    kth = min(4, args.references - 1)
    case(f"row-wise np.partition (kth={kth})", lambda: np.partition(matrix, kth, axis=1))
    mate_matrix = mate.reshape(args.probes, args.references)
    best = np.where(mate_matrix, matrix, -np.inf).max(axis=1)
    case("dense matrix: 1 + (S >= best mate).sum(1)",
         lambda: 1 + (matrix >= best[:, None]).sum(axis=1) - mate_matrix.any(axis=1))
    case("kernel probe_stats, one system (arrays)",
         lambda: probe_stats(codes, mate, scores, args.probes))
    case("cmc(table)", lambda: cmc(table))
    case("recognition_rate(table, rank=[1, 10])", lambda: recognition_rate(table, rank=[1, 10]))
    case("detection_identification_rate(target=0.01)",
         lambda: detection_identification_rate(table, target=0.01))
    by_reference = table.sort_values(["system", "reference"], kind="stable", ignore_index=True)
    case("cmc(table), rows grouped by reference", partial(cmc, by_reference))
    del by_reference
    shuffled = table.sample(frac=1.0, random_state=0, ignore_index=True)
    case("cmc(table), rows shuffled", partial(cmc, shuffled))
    del shuffled

    floor = rows[0][1]
    width = max(len(r[0]) for r in rows)
    print(f"{'case':<{width}}  {'seconds':>8}  {'x np.sort':>9}  {'peak mem / input':>16}")
    for name, t, peak in rows:
        mem = "" if np.isnan(peak) else f"{peak / input_bytes:.2f}"
        print(f"{name:<{width}}  {t:8.3f}  {t / floor:9.2f}  {mem:>16}")


if __name__ == "__main__":
    main()
