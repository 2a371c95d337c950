"""numpy's pairwise sum walked in leaves equals np.add.reduce of the whole array."""

import numpy as np
import pytest

from pandas_biosig._kernels.rates import Sweep, softplus
from pandas_biosig._kernels.sums import pairwise_sum, softplus_into


@pytest.mark.parametrize("size", [0, 1, 7, 8, 9, 127, 128, 129, 1000, 4096, 4097, 99_991])
@pytest.mark.parametrize("leaf", [136, 1000, 1 << 14])
def test_pairwise_sum_is_numpys_sum(size, leaf):
    rng = np.random.default_rng(size)
    x = rng.standard_normal(size) * np.exp(rng.uniform(-20, 20, size))  # order matters
    copy = lambda lo, hi, out: out.__setitem__(slice(None), x[lo:hi])  # noqa: E731
    assert pairwise_sum(copy, size, leaf) == float(np.add.reduce(x))
    soft = lambda lo, hi, out: softplus_into(x[lo:hi], out, negate=True)  # noqa: E731
    assert pairwise_sum(soft, size, leaf) == float(softplus(-x).sum())


def test_cllr_of_a_large_sweep_is_the_whole_array_sum():
    rng = np.random.default_rng(1)
    neg, pos = rng.normal(-1, 2, 150_000), rng.normal(2, 2, 40_000)
    sw = Sweep(neg, pos)
    total = softplus(-sw.pos).sum() / sw.p + softplus(sw.neg).sum() / sw.n
    assert sw.cllr() == float(total / (2 * np.log(2.0)))
