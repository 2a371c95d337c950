"""Benchmark of the bootstrap engine against resampling by re-sorting.

Run:  python benchmarks/bench_bootstrap.py [--n 1000000] [--replicates 1000]

The re-sorting baseline (draw trials with replacement, sort, compute) is timed on
``--baseline-replicates`` replicates and scaled to ``--replicates``.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pandas_biosig._kernels.rates import Sweep
from pandas_biosig._kernels.resample import lazy_replicate, uniform_counts


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--baseline-replicates", type=int, default=30)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    genuine = rng.random(args.n) < 0.1
    scores = rng.normal(np.where(genuine, 3.0, 0.0), 1.0)
    t0 = time.perf_counter()
    sweep = Sweep.from_scores(scores, genuine)
    t_sort = time.perf_counter() - t0
    B = args.replicates

    def run(label, make, metric, reps):
        t0 = time.perf_counter()
        vals = np.array([metric(make()) for _ in range(reps)])
        dt = (time.perf_counter() - t0) * B / reps
        lo, hi = np.quantile(vals, [0.025, 0.975])
        print(f"{label:52s} {dt:8.2f} s   95% CI [{lo:.5f}, {hi:.5f}]")
        return dt

    eer_thr = lambda sw: sw.eer_threshold()[0]  # noqa: E731
    eer_int = lambda sw: sw.eer_interpolated()  # noqa: E731
    eer_hull = lambda sw: sw.eer_rocch()  # noqa: E731
    neg = np.r_[np.full(sweep.rn, -np.inf), sweep.neg]
    pos = np.r_[np.full(sweep.rp, -np.inf), sweep.pos]

    def resorted():
        return Sweep(neg[rng.integers(0, neg.size, neg.size)], pos[rng.integers(0, pos.size, pos.size)])

    sweep.prepare_resampling()

    def weighted():
        wn = uniform_counts(rng, sweep.n)
        wp = uniform_counts(rng, sweep.p)
        return sweep.reweighted(wn, wp)

    print(f"n = {args.n:,} trials (10 % genuine), {B} replicates; one sort of both classes "
          f"{t_sort:.3f} s")
    lazy_t = run("threshold EER, lazy binomial prefix counts", lambda: lazy_replicate(sweep, rng), eer_thr, B)
    run("interpolated EER, lazy binomial prefix counts", lambda: lazy_replicate(sweep, rng), eer_int, B)
    w_reps = max(B // 10, 20)
    run(f"ROCCH EER, multiplicities (timed on {w_reps})", weighted, eer_hull, w_reps)
    run(f"threshold EER, multiplicities (timed on {w_reps})", weighted, eer_thr, w_reps)
    base_t = run(
        f"threshold EER, re-sorting (timed on {args.baseline_replicates})",
        resorted, eer_thr, args.baseline_replicates,
    )
    print(f"speed-up of the lazy engine over re-sorting: {base_t / lazy_t:.0f}x")




def bench_epc(n_systems=5, n=100_000, n_weights=50, replicates=1000, baseline_replicates=20):
    """EPC band: thresholds fixed on dev, the eval trials resampled (paired)."""
    import pandas as pd

    import pandas_biosig as pbs

    rng = np.random.default_rng(1)
    genuine = rng.random(n) < 0.1
    frames = []
    shared = rng.standard_normal(n)
    for split in ("dev", "eval"):
        for s in range(n_systems):
            noise = 0.6 * shared + 0.8 * rng.standard_normal(n)
            frames.append(pd.DataFrame({
                "system": f"s{s}", "trial": np.arange(n), "label": genuine,
                "score": np.where(genuine, 2.5 + 0.1 * s, 0.0) + noise, "split": split,
            }))
    table = pd.concat(frames, ignore_index=True)
    weights = np.linspace(0, 1, n_weights)
    t0 = time.perf_counter()
    pbs.epc_bootstrap(table, weight=weights, n_resamples=replicates, seed=0)
    ours = time.perf_counter() - t0
    # baseline: per replicate, draw trials, re-sort each system's eval scores and recount
    dev_thr = pbs.epc(table, weight=weights).threshold.values
    ev = table[table.split == "eval"]
    scores = [ev[ev.system == f"s{s}"].score.to_numpy() for s in range(n_systems)]
    t0 = time.perf_counter()
    for _ in range(baseline_replicates):
        idx = rng.integers(0, n, n)
        g = genuine[idx]
        for s in range(n_systems):
            x = scores[s][idx]
            neg, pos = np.sort(x[~g]), np.sort(x[g])
            neg.size - np.searchsorted(neg, dev_thr[s])
            np.searchsorted(pos, dev_thr[s])
    base = (time.perf_counter() - t0) * replicates / baseline_replicates
    print(f"EPC band, {n_systems} systems x {n:,} eval trials, {n_weights} weights, "
          f"{replicates} replicates: {ours:.2f} s (re-sorting, timed on {baseline_replicates}: "
          f"{base:.2f} s, {base / ours:.1f}x)")


if __name__ == "__main__":
    main()
    bench_epc()
