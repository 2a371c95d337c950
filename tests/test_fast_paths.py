"""Fast paths against the paths they replace: bit for bit, or in distribution for the
bootstrap."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import pandas_biosig as pbs
from pandas_biosig._core.schema import factorize_keys
from pandas_biosig._kernels.rates import Sweep
from pandas_biosig._kernels.resample import HullReplicates, uniform_counts


def _sweep(seed, n, *, ties=False, fta=False):
    rng = np.random.default_rng(seed)
    g = rng.random(n) < rng.uniform(0.15, 0.6)
    s = rng.normal(np.where(g, 1.5, 0.0), 1.0)
    if ties:
        s = np.round(s, 1)
    if fta:
        s[rng.random(n) < 0.03] = -np.inf
    return Sweep.from_scores(s, g).prepare_resampling()


@pytest.mark.parametrize(("seed", "ties", "fta", "window"), [
    (0, False, False, 32), (1, True, False, 0), (2, True, True, 3), (3, False, True, 1),
])
def test_hull_replicates_have_the_resorted_distribution(seed, ties, fta, window):
    """The lazily drawn hull EER has the law of resampling each class and sorting again
    (here: of integer multiplicities over the sorted scores, itself checked against
    re-sorting in test_bootstrap.py)."""
    sw = _sweep(seed, 1500, ties=ties, fta=fta)
    rng = np.random.default_rng(seed + 10)
    hull = HullReplicates(sw, window=window)
    fast = [hull.draw(rng) for _ in range(2000)]
    slow = [
        sw.reweighted(uniform_counts(rng, sw.n), uniform_counts(rng, sw.p)).eer_rocch()
        for _ in range(2000)
    ]
    assert stats.ks_2samp(fast, slow).pvalue > 0.001


def test_hull_replicate_value_is_that_of_any_completion():
    """When the lazy engine stops, the EER it reads is that of every replicate consistent
    with the counts drawn so far (completed at random, many times)."""
    rng = np.random.default_rng(7)
    for seed in range(8):
        sw = _sweep(seed, 600, ties=seed % 2 == 1, fta=seed % 3 == 0)
        hull = HullReplicates(sw, window=2)
        for _ in range(10):
            cn = rng.multinomial(sw.n, hull._pn)
            cp = rng.multinomial(sw.p, hull._pp)
            K = hull._skeleton
            CN = np.concatenate(([0], np.cumsum(cn[1:])))
            CP = np.concatenate(([0], np.cumsum(cp[1:])))
            rn, rp = int(cn[0]), int(cp[0])
            while True:
                value, flagged = hull._step(K, CN, CP, rn, rp)
                if value is not None:
                    break
                K, CN, CP = hull._split(rng, K, CN, CP, flagged)
            for _ in range(3):
                assert hull._full(rng, K, CN, CP, rn, rp) == pytest.approx(value, abs=1e-12)


def test_bootstrap_hull_eer_interval_matches_the_multiplicity_engine():
    rng = np.random.default_rng(0)
    n = 4000
    g = rng.random(n) < 0.2
    t = pd.DataFrame({"system": "s", "trial": np.arange(n), "label": g,
                      "score": rng.normal(np.where(g, 2.0, 0.0), 1.0)})
    fast = pbs.bootstrap(t, metric="eer_rocch", n_resamples=1500, seed=1).iloc[0]
    sw = Sweep.from_scores(t.score.to_numpy(), g).prepare_resampling()
    slow = [sw.reweighted(uniform_counts(rng, sw.n), uniform_counts(rng, sw.p)).eer_rocch()
            for _ in range(1500)]
    assert fast.estimate == sw.eer_rocch()
    lo, hi = np.quantile(slow, [0.025, 0.975])
    assert fast.ci_low == pytest.approx(lo, abs=0.004)
    assert fast.ci_high == pytest.approx(hi, abs=0.004)


@pytest.mark.parametrize("kind", ["object", "str", "string", "string[python]", "string[pyarrow]"])
def test_run_factorization_is_pandas_factorize(kind):
    rng = np.random.default_rng(0)
    vals = np.array(["cnn", "gmm", "lbp", "cnn_aug"], dtype=object)
    for layout in range(30):
        n = int(rng.integers(1, 300))
        v = vals[np.sort(rng.integers(0, 4, n))] if layout % 2 else vals[rng.integers(0, 1 + layout % 4, n)]
        s = pd.Series(v, dtype=object) if kind == "object" else pd.Series(v).astype(kind)
        codes, uniques = factorize_keys(s)
        want_codes, want_uniques = pd.factorize(s, sort=False, use_na_sentinel=False)
        np.testing.assert_array_equal(codes, want_codes)
        assert list(uniques) == list(want_uniques) and type(uniques) is type(want_uniques)


def test_string_system_column_gives_the_categorical_result(example):
    cat = example.assign(system=example.system.astype("category"))
    want = pbs.eer(cat)
    for dtype in (object, "str"):
        got = pbs.eer(example.assign(system=example.system.astype(dtype)))
        pd.testing.assert_frame_equal(got.drop(columns="system"), want.drop(columns="system"))
        assert got.system.tolist() == want.system.tolist()


@pytest.mark.parametrize("resample", ["label", "trial"])
def test_epc_band_cells_match_textbook_paired_resampling(example, resample):
    """EPC bands from cell counts against drawing the eval trials themselves (paired)."""
    w = np.array([0.1, 0.5, 0.9])
    ds = pbs.epc_bootstrap(example, weight=w, n_resamples=3000, seed=0, resample=resample)
    thr = pbs.epc(example, weight=w).threshold  # oriented scores: accept iff >= threshold
    ev = example[example.split == "eval"]
    systems = list(ds.system.values)
    scores = {s: ev[ev.system == s].sort_values("trial") for s in systems}
    genuine = scores[systems[0]].label.map(lambda v: v == "genuine").to_numpy()
    rng = np.random.default_rng(1)
    idx_g, idx_i = np.flatnonzero(genuine), np.flatnonzero(~genuine)
    hter = {s: [] for s in systems}
    for _ in range(3000):
        if resample == "label":
            idx = np.r_[rng.choice(idx_i, idx_i.size), rng.choice(idx_g, idx_g.size)]
        else:
            idx = rng.integers(0, genuine.size, genuine.size)
        g = genuine[idx]
        for s in systems:
            acc = scores[s].score.to_numpy()[idx][:, None] >= thr.sel(system=s).values
            far = (acc & ~g[:, None]).sum(0) / (~g).sum()
            frr = (~acc & g[:, None]).sum(0) / g.sum()
            hter[s].append((far + frr) / 2)
    for s in systems:
        lo, hi = np.quantile(np.array(hter[s]), [0.025, 0.975], axis=0)
        np.testing.assert_allclose(ds.hter_low.sel(system=s), lo, atol=0.006)
        np.testing.assert_allclose(ds.hter_high.sel(system=s), hi, atol=0.006)
    a, b = systems[0], systems[2]
    d = np.array(hter[a]) - np.array(hter[b])
    lo, hi = np.quantile(d, [0.025, 0.975], axis=0)
    pair = ds.sel(pair=f"{a} vs {b}")
    np.testing.assert_allclose(pair.difference_low, lo, atol=0.006)
    np.testing.assert_allclose(pair.difference_high, hi, atol=0.006)
