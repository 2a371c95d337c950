"""Benchmark of the tandem bootstrap: replicates from multiplicities over one sort, against
expanding every replicate and calling the kernels (which sort again).

Run:  python benchmarks/bench_tandem_bootstrap.py [--n 100000] [--speakers 1000]
      [--replicates 200]

Data: ``n`` trials of ``--speakers`` speakers (10 % target, 40 % non-target, 50 % spoof;
``bench_tandem.py``'s score model). For each metric, ``--replicates`` speaker-bootstrap
replicates are drawn once; the library's path (``_Engine.values`` on blocks of
multiplicities, the ASV's EER threshold chosen again in each) and the naive path (each
replicate's trials repeated by ``np.repeat`` in the original order, then the kernels:
``asv_eer_threshold``, ``asv_rates``, ``tdcf_weights_2019``, ``min_tdcf``; ``min_adcf``;
``teer``) are timed on the same replicates, and checked to agree. The unit is one
``np.sort`` of the ``n`` ASV scores, per replicate.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pandas_biosig._kernels import tandem as T
from pandas_biosig._kernels.tandem_replicates import block_size
from pandas_biosig.tandem._resampling import _Engine
from pandas_biosig.tandem._table import TandemGroup


def make_trials(n: int, seed: int = 0):
    """``bench_tandem.py``'s trials: ASV and CM scores rounded to 4 decimals, and kinds."""
    rng = np.random.default_rng(seed)
    nt, nn = n // 10, 4 * n // 10
    kind = np.repeat(np.array([0, 1, 2], dtype=np.int8), [nt, nn, n - nt - nn])
    asv = rng.normal(np.select([kind == 0, kind == 2], [3.0, 2.0], 0.0),
                     np.where(kind == 2, 1.5, 1.0))
    cm = rng.normal(np.where(kind == 2, -1.0, 2.0), np.where(kind == 2, 1.5, 1.0))
    return np.round(asv, 4), np.round(cm, 4), kind


def _group(asv, cm, kind, speakers):
    n = kind.size
    return TandemGroup(("asv", "cm", None), asv, kind == 0, np.arange(n), np.arange(n),
                       speakers, kind=kind, asv=asv, cm=cm, sasv=asv + cm)


def _naive(metric, g, w):
    idx = np.repeat(np.arange(w.size), w.astype(np.int64))
    asv, cm, kind, sasv = g.asv[idx], g.cm[idx], g.kind[idx], g.sasv[idx]
    if metric == "min_adcf":
        return T.min_adcf(*(sasv[kind == k] for k in range(3)), T.ASVSPOOF5).adcf
    tar, non, spf = (asv[kind == k] for k in range(3))
    if metric == "teer":
        return T.teer(tar, non, spf, cm[kind != 2], cm[kind == 2]).teer
    rates = T.asv_rates(tar, non, spf, T.asv_eer_threshold(tar, non)[1])
    return T.min_tdcf(cm[kind != 2], cm[kind == 2], T.tdcf_weights_2019(rates, T.TDCF_2019)).tdcf


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="trials (default 10^5)")
    parser.add_argument("--speakers", type=int, default=1000, help="speakers (default 1000)")
    parser.add_argument("--replicates", type=int, default=200, help="replicates (default 200)")
    args = parser.parse_args(argv)
    asv, cm, kind = make_trials(args.n)
    rng = np.random.default_rng(1)
    speakers = rng.integers(0, args.speakers, args.n)
    g = _group(asv, cm, kind, speakers)
    mult = rng.multinomial(args.speakers, np.full(args.speakers, 1 / args.speakers),
                           size=args.replicates).astype(float)
    t0 = time.perf_counter()
    np.sort(asv)
    unit = time.perf_counter() - t0
    print(f"{args.n:,} trials, {args.speakers:,} speakers, {args.replicates} replicates; "
          f"one np.sort of the ASV scores: {unit * 1e3:.1f} ms")
    print("| metric | library, per replicate | naive, per replicate | speed-up |\n|---|---|---|---|")
    costs = {"min_tdcf": T.TDCF_2019, "min_adcf": T.ASVSPOOF5, "teer": None}
    for metric, costs_of in costs.items():
        engine = _Engine([g], metric, costs_of, None)
        step = block_size(args.n, args.replicates) if metric != "teer" else 64
        t0 = time.perf_counter()
        ours = np.concatenate([
            engine.values(lambda idx, m=mult[i:i + step]: m[:, speakers[idx]])[:, 0]
            for i in range(0, args.replicates, step)])
        t_ours = (time.perf_counter() - t0) / args.replicates
        t0 = time.perf_counter()
        naive = np.array([_naive(metric, g, mult[b][speakers]) for b in range(args.replicates)])
        t_naive = (time.perf_counter() - t0) / args.replicates
        assert np.allclose(ours, naive, rtol=0, atol=1e-12), metric
        print(f"| {metric} | {t_ours * 1e3:.1f} ms ({t_ours / unit:.2f} sorts) | "
              f"{t_naive * 1e3:.1f} ms ({t_naive / unit:.2f} sorts) | {t_naive / t_ours:.1f}x |")


if __name__ == "__main__":
    main()
