"""Speed of the calibration kernels: linear logistic calibration (K = 1) and fusion
(K = 3), and the PAV transform, on binormal scores.

Run:  python benchmarks/bench_calibration.py [--n 1000000] [--repeats 5] [--tables]

Each fit is timed ``--repeats`` times (fastest reported) next to ``np.sort`` of the same
scores, with the Newton iterations it took. scikit-learn's unpenalised prior-weighted
``LogisticRegression`` (newton-cholesky, tol 1e-10) is timed on the same data when
``--sklearn`` is given. ``llr_check`` (the not-LLR rule of ``summary()`` and ``dcf()``) is
timed on a sorted sweep, beside the sort; with ``--tables``, ``pbs.summary`` (which runs
it), ``pbs.calibrate`` and ``pbs.fuse`` on a dev/eval table of ``--n`` trials per split.
"""

from __future__ import annotations

import argparse
import time
from functools import partial

import numpy as np

from pandas_biosig._kernels.calibration import llr_check, train_linear, train_pav
from pandas_biosig._kernels.rates import Sweep


def best(fn, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def data(n, k, rng):
    genuine = rng.random(n) < 0.1
    base = rng.normal(np.where(genuine, 2.5, 0.0), 1.0)
    cols = [base + rng.normal(0, 0.7, n) * j for j in range(k)]  # correlated systems
    x = np.column_stack(cols) * 0.8 + 0.3
    return x[~genuine], x[genuine]


def sklearn_fit(neg, pos, prior):
    from sklearn.linear_model import LogisticRegression

    x = np.concatenate([neg, pos])
    y = np.r_[np.zeros(len(neg)), np.ones(len(pos))]
    cw = {1: prior / len(pos), 0: (1 - prior) / len(neg)}
    return LogisticRegression(C=np.inf, solver="newton-cholesky", tol=1e-10,
                              max_iter=1000, class_weight=cw).fit(x, y)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--sklearn", action="store_true")
    ap.add_argument("--tables", action="store_true")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(0)
    for k in (1, 3):
        neg, pos = data(args.n, k, rng)
        t_sort, _ = best(partial(np.sort, np.concatenate([neg[:, 0], pos[:, 0]])), args.repeats)
        for prior in (0.01, 0.5):
            t, fit = best(partial(train_linear, neg, pos, prior=prior), args.repeats)
            print(f"linear K={k} n={args.n:.0e} prior={prior}: {t * 1e3:7.1f} ms "
                  f"({t / t_sort:4.1f} x np.sort), {fit.iterations} Newton iterations, "
                  f"converged={fit.converged}")
            if args.sklearn:
                ts, _ = best(partial(sklearn_fit, neg, pos, prior), 1)
                print(f"  scikit-learn newton-cholesky: {ts * 1e3:7.1f} ms")
    neg, pos = data(args.n, 1, rng)
    t, pav = best(lambda: train_pav(neg[:, 0], pos[:, 0]), args.repeats)
    t_apply, _ = best(lambda: pav.apply(np.concatenate([neg[:, 0], pos[:, 0]])), args.repeats)
    print(f"pav n={args.n:.0e}: fit {t * 1e3:7.1f} ms ({pav.score_bounds.size // 2} bins), "
          f"apply to every score {t_apply * 1e3:7.1f} ms")
    scores = np.concatenate([neg[:, 0], pos[:, 0]])
    genuine = np.r_[np.zeros(len(neg), bool), np.ones(len(pos), bool)]
    t_sort, sw = best(lambda: Sweep.from_scores(scores, genuine), args.repeats)
    t, _ = best(lambda: llr_check(sw), args.repeats)
    print(f"llr_check n={args.n:.0e}: {t * 1e3:7.1f} ms ({t / t_sort:4.1f} x the sweep's sort)")
    if args.tables:
        tables(args.n, args.repeats, rng)


def tables(n, repeats, rng):
    """summary(), calibrate() and fuse() on a table of three systems, dev and eval."""
    import pandas as pd

    import pandas_biosig as pbs

    frames = []
    for split in ("dev", "eval"):
        neg, pos = data(n, 3, rng)
        x = np.concatenate([neg, pos])
        label = np.r_[np.zeros(len(neg), bool), np.ones(len(pos), bool)]
        for j in range(3):
            frames.append(pd.DataFrame({"system": f"s{j}", "trial": np.arange(len(x)),
                                        "label": label, "score": x[:, j], "split": split}))
    table = pd.concat(frames, ignore_index=True)
    for name, fn in [("summary", lambda: pbs.summary(table)),
                     ("calibrate", lambda: pbs.calibrate(table)),
                     ("fuse", lambda: pbs.fuse(table))]:
        t, _ = best(fn, repeats)
        print(f"{name} of 3 systems x 2 splits x n={n:.0e}: {t:6.2f} s")


if __name__ == "__main__":
    main()
