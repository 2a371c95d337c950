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


@pytest.mark.parametrize("seed", range(6))
def test_segment_sums_are_numpys_sum_of_each_segment(seed):
    from pandas_biosig._kernels.sums import segment_sums

    rng = np.random.default_rng(seed)
    # lengths around every boundary of numpy's tree: 8, 128, the halving, and beyond
    lengths = rng.permutation(np.concatenate(([0, 1, 7, 8, 9, 127, 128, 129, 255, 256, 257,
                                               1000, 4097], rng.integers(0, 3000, 30))))
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    x = rng.standard_normal(offsets[-1]) * np.exp(rng.uniform(-20, 20, offsets[-1]))
    if seed == 5:
        x[:] = -0.0  # the sign of a zero sum
    got = segment_sums(x, offsets)
    want = np.array([np.add.reduce(x[a:b]) for a, b in zip(offsets[:-1], offsets[1:],
                                                             strict=True)])
    assert got.view(np.int64).tolist() == want.view(np.int64).tolist()
