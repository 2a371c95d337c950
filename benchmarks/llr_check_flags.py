"""How often ``llr_check`` flags scores that *are* calibrated LLRs (false flags), and how
often ``cllr > 1`` alone would.

Run:  python benchmarks/llr_check_flags.py [--tables 200] [--seed 11]

Exact LLRs of two normal classes d' apart: targets N(d'^2/2, d'^2), non-targets
N(-d'^2/2, d'^2), 4 non-targets per target; ``--tables`` tables per cell of
d' in (0.1, 0.3, 1, 3, 5) x targets in (20, 100, 1000).
"""

from __future__ import annotations

import argparse

import numpy as np

from pandas_biosig._kernels.calibration import llr_check
from pandas_biosig._kernels.rates import Sweep


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    for d in (0.1, 0.3, 1.0, 3.0, 5.0):
        row = []
        for n_tar in (20, 100, 1000):
            flag = cllr_above_one = 0
            for _ in range(args.tables):
                v = d * d
                check = llr_check(Sweep(rng.normal(-v / 2, d, 4 * n_tar), rng.normal(v / 2, d, n_tar)))
                flag += check.not_llr
                cllr_above_one += check.cllr > 1
            row.append(f"{n_tar} targets: rule {flag / args.tables:.3f}, "
                       f"cllr>1 {cllr_above_one / args.tables:.3f}")
        print(f"d'={d}: " + " | ".join(row))


if __name__ == "__main__":
    main()
