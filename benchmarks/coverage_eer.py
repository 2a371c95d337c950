"""Coverage of the 95 % bootstrap interval of the EER on data with a known true EER.

Run:  python benchmarks/coverage_eer.py [--datasets 1000] [--replicates 1000]

Binormal scores: impostor N(0, 1), genuine N(d, 1), so the true EER is Phi(-d/2). Each
simulated dataset gets a label-stratified percentile bootstrap interval; the script prints
the fraction of intervals that cover the true EER, with its Monte-Carlo standard error.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from scipy.stats import norm

from pandas_biosig._kernels.rates import Sweep
from pandas_biosig._kernels.resample import lazy_replicate, percentile_interval


def coverage(datasets, replicates, n_genuine, n_impostor, d, metric, seed=0):
    rng = np.random.default_rng(seed)
    truth = norm.cdf(-d / 2)
    f = {"eer_threshold": lambda s: s.eer_threshold()[0],
         "eer_interpolated": lambda s: s.eer_interpolated()}[metric]
    hits = 0
    for _ in range(datasets):
        sw = Sweep(rng.standard_normal(n_impostor), d + rng.standard_normal(n_genuine))
        vals = np.array([f(lazy_replicate(sw, rng)) for _ in range(replicates)])
        low, high = percentile_interval(vals, 0.95)
        hits += low <= truth <= high
    return hits / datasets, truth


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--datasets", type=int, default=1000)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--genuine", type=int, default=1000)
    ap.add_argument("--impostor", type=int, default=4000)
    ap.add_argument("--d", type=float, default=2.5)
    args = ap.parse_args(argv)
    for metric in ("eer_interpolated", "eer_threshold"):
        t0 = time.perf_counter()
        cov, truth = coverage(args.datasets, args.replicates, args.genuine, args.impostor,
                              args.d, metric)
        se = np.sqrt(cov * (1 - cov) / args.datasets)
        print(
            f"{metric:17s} true EER {truth:.4f}: coverage {cov:.3f} +/- {se:.3f} (MC s.e.) over "
            f"{args.datasets} datasets x {args.replicates} replicates, "
            f"{args.genuine} genuine / {args.impostor} impostor, {time.perf_counter() - t0:.0f} s"
        )


if __name__ == "__main__":
    main()
