"""Benchmark of the tandem (ASV + CM) kernels, as ratios to np.sort.

Run:  python benchmarks/bench_tandem.py [--n 1000000] [--repeat 5]

Data: ``n`` trials, 10 % target, 40 % non-target, 50 % spoof; each trial has an ASV score
(target N(3, 1), non-target N(0, 1), spoof N(2, 1.5)) and a CM score (bona fide N(2, 1),
spoof N(-1, 1.5)), rounded to 4 decimals as score files are (so there are ties). Each
call and ``np.sort`` of the ``n`` ASV scores are timed alternately, ``--repeat`` times
each, and the fastest of each is kept; the ratio compares two timings that saw the same
machine. The t-EER and the t-DCF with the ASV's EER point sort the ASV and the CM scores
(``2 n`` values), the others ``n``.
"""

from __future__ import annotations

import argparse
import gc
import time

import numpy as np

from pandas_biosig._kernels import tandem as T


def make_trials(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    nt, nn = n // 10, 4 * n // 10
    kind = np.repeat(np.array([0, 1, 2], dtype=np.int8), [nt, nn, n - nt - nn])
    asv = rng.normal(np.select([kind == 0, kind == 2], [3.0, 2.0], 0.0),
                     np.where(kind == 2, 1.5, 1.0))
    cm = rng.normal(np.where(kind == 2, -1.0, 2.0), np.where(kind == 2, 1.5, 1.0))
    return np.round(asv, 4), np.round(cm, 4), kind


def calls(asv, cm, kind):
    tar, non, spf = (asv[kind == k] for k in range(3))
    bona, spoof = cm[kind != 2], cm[kind == 2]
    sasv = T.sasv_sum(asv, cm)
    s_by = [sasv[kind == k] for k in range(3)]

    def tdcf_with_asv_point():
        _, thr = T.asv_eer_threshold(tar, non)
        rates = T.asv_rates(tar, non, spf, thr)
        return T.min_tdcf(bona, spoof, T.tdcf_weights(rates, T.ASVSPOOF5))

    weights = T.TdcfWeights(0.05, 0.7, 0.3, 0.35)
    return {
        "asv_eer_threshold (organisers' ASV point)": lambda: T.asv_eer_threshold(tar, non),
        "min_tdcf (CM sweep only)": lambda: T.min_tdcf(bona, spoof, weights),
        "min_tdcf with the ASV EER point": tdcf_with_asv_point,
        "teer": lambda: T.teer(tar, non, spf, bona, spoof),
        "min_adcf (score sum)": lambda: T.min_adcf(*s_by, T.ASVSPOOF5),
        "cm_min_dcf": lambda: T.cm_min_dcf(bona, spoof, T.ASVSPOOF5_CM),
        "cm_curve": lambda: T.cm_curve(bona, spoof),
    }


def timed(func) -> float:
    gc.collect()
    t0 = time.perf_counter()
    func()
    return time.perf_counter() - t0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1_000_000, help="trials (default 10^6)")
    parser.add_argument("--repeat", type=int, default=5, help="timings per call (fastest kept)")
    args = parser.parse_args(argv)
    asv, cm, kind = make_trials(args.n)
    print(f"{args.n:,} trials; np.sort of the {args.n:,} ASV scores is the unit")
    print("| call | time | ratio to np.sort |\n|---|---|---|")
    for name, func in calls(asv, cm, kind).items():
        best_call, best_sort = np.inf, np.inf
        for _ in range(args.repeat):
            best_sort = min(best_sort, timed(lambda: np.sort(asv)))
            best_call = min(best_call, timed(func))
        print(f"| {name} | {best_call * 1e3:.1f} ms | {best_call / best_sort:.2f}x "
              f"({best_sort * 1e3:.1f} ms) |")


if __name__ == "__main__":
    main()
