"""Chunked search of sorted keys equals np.searchsorted."""

import numpy as np
import pytest

from pandas_biosig._kernels.search import search_sorted_keys


@pytest.mark.parametrize("side", ["left", "right"])
@pytest.mark.parametrize("seed", range(5))
def test_search_sorted_keys_is_searchsorted(side, seed):
    rng = np.random.default_rng(seed)
    arr = np.sort(np.round(rng.normal(size=int(rng.integers(0, 50_000))), 1 + seed % 3))
    keys = np.sort(np.round(rng.normal(0.5, 1.5, size=int(rng.integers(1, 30_000))), 2))
    for chunk in (1, 7, 64, 1024):
        got = search_sorted_keys(arr, keys, side=side, chunk=chunk)
        want = np.searchsorted(arr, keys, side=side)
        assert got.dtype == want.dtype and np.array_equal(got, want)
