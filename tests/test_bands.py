"""Bands of DET/ROC curves (det_band, frr_at_far) against brute force.

The kernels are checked against the Sweep's own operating points on reweighted sweeps;
the band of a tiny table against an independent computation: the same bootstrap draws
(the library's generator, replayed), every replicate expanded into a table of repeated
trials and its operating points found by enumerating every threshold, the percentile,
max-t and Hilgers bounds recomputed from scratch.
"""

import math

import numpy as np
import pandas as pd
import pytest
from scipy.special import betaincinv

import pandas_biosig as pbs
from pandas_biosig._kernels import bands as K
from pandas_biosig._kernels.rates import Sweep
from pandas_biosig.verification._bands import FEW_ERRORS


# ----------------------------------------------------------------------------- kernels
def test_kernels_equal_the_sweep_on_reweighted_replicates():
    rng = np.random.default_rng(0)
    neg = np.sort(np.round(rng.normal(0, 1, 300), 1))  # ties
    pos = np.sort(np.round(rng.normal(1.5, 1, 120), 1))
    sw = Sweep(neg, pos, assume_sorted=True)
    wn = rng.integers(0, 3, size=(20, neg.size))
    wp = rng.integers(0, 3, size=(20, pos.size))
    grid = np.array([0.0, 1e-3, 0.004, 0.01, 0.05, 0.2, 0.5, 0.999, 1.0])
    fr = K.frr_at_far(neg, pos, K.cumulative(wn), K.cumulative(wp), grid)
    fa = K.far_at_frr(neg, pos, K.cumulative(wn), K.cumulative(wp), grid)
    for b in range(20):
        rep = sw.reweighted(wn[b], wp[b])
        assert fr[b].tolist() == [rep.fnmr_at_fmr(x).fr for x in grid]
        assert fa[b].tolist() == [rep.fmr_at_fnmr(y).fa for y in grid]


def test_max_counts_is_the_largest_count_within_the_rate():
    totals = np.array([3, 10, 999, 1000])
    rates = np.array([0.0, 0.1, 0.3, 1 / 3, 0.999, 1.0])
    k = K.max_counts(rates, totals)
    for i, n in enumerate(totals):
        for j, x in enumerate(rates):
            assert k[i, j] / n <= x and (k[i, j] == n or (k[i, j] + 1) / n > x)


def test_monotone_envelope_tightens_a_non_increasing_band():
    grid = np.array([0.3, 0.1, 0.2, 0.4])  # unsorted on purpose
    low = np.array([0.1, 0.5, 0.05, 0.2])
    high = np.array([0.6, 0.9, 0.95, 0.7])
    lo, hi = K.monotone_envelope(low, high, grid)
    # in grid order 0.1, 0.2, 0.3, 0.4: high -> running min, low -> reverse running max
    np.testing.assert_array_equal(hi, [0.6, 0.9, 0.9, 0.6])
    np.testing.assert_array_equal(lo, [0.2, 0.5, 0.2, 0.2])


# ----------------------------------------------------------------------------- brute force
def _frr_at_far(imp, gen, x):
    """Enumerate every threshold: the smallest FRR with FAR <= x (NaN without trials)."""
    if imp.size == 0 or gen.size == 0:
        return math.nan
    best = 1.0
    for t in np.append(np.unique(np.concatenate((imp, gen))), np.inf):
        if np.mean(imp >= t) <= x:
            best = min(best, float(np.mean(gen < t)))
    return best


def _cp(x, n, q, side):
    """One-sided Clopper-Pearson bound at level q."""
    if side == "upper":
        return 1.0 if x >= n else float(betaincinv(x + 1, n - x, q))
    return 0.0 if x <= 0 else float(betaincinv(x, n - x + 1, 1 - q))


def _hilgers(imp, gen, x, alpha):
    """Hilgers' bound of FRR at FAR x, by enumeration of the thresholds the library
    considers (the lowest threshold allowing each count k of false acceptances)."""
    q = 1 - alpha / 4
    n, p = imp.size, gen.size
    cands = np.append(np.unique(np.concatenate((imp, gen))), np.inf)
    lowest = []  # (k, threshold): the lowest threshold with at most k false acceptances
    for k in range(n + 1):
        lowest.append(min(t for t in cands if np.sum(imp >= t) <= k))
    fa = [int(np.sum(imp >= t)) for t in lowest]
    safe = [k for k in range(n + 1) if _cp(fa[k], n, q, "upper") <= x]
    risky = [k for k in range(n + 1) if _cp(fa[k], n, q, "lower") >= x]
    high = _cp(int(np.sum(gen < lowest[max(safe)])), p, q, "upper") if safe else 1.0
    low = _cp(int(np.sum(gen < lowest[min(risky)])), p, q, "lower") if risky else 0.0
    return low, high


def _replayed_label_weights(seed, n_neg, n_pos, n_resamples):
    """The draws of the library's label bootstrap, replayed from the same generator:
    per class, ``n_resamples`` rows of uniform picks, counted."""
    rng = np.random.default_rng(seed)
    out = []
    for k in (n_neg, n_pos):
        picks = rng.integers(0, k, size=(n_resamples, k))
        out.append(np.array([np.bincount(row, minlength=k) for row in picks]))
    return out


def test_band_of_a_tiny_table_equals_brute_force():
    imp = np.array([0.1, 0.4, 0.4, 0.7, 1.2, 2.0])
    gen = np.array([0.4, 0.9, 1.5, 1.5, 2.2])
    t = pd.DataFrame({
        "system": "s", "trial": np.arange(11),
        "label": np.r_[np.zeros(6, bool), np.ones(5, bool)], "score": np.r_[imp, gen],
    })
    grid = np.array([0.2, 0.4, 0.6, 0.8])
    level, B = 0.9, 2000
    band = pbs.det_band(t, far_grid=grid, frr_grid=[0.5], n_resamples=B,
                        confidence_level=level, seed=7, resample="label").isel(system=0)
    wn, wp = _replayed_label_weights(7, imp.size, gen.size, B)
    reps = np.array([[_frr_at_far(np.repeat(imp, wn[b]), np.repeat(gen, wp[b]), x)
                      for x in grid] for b in range(B)])
    est = np.array([_frr_at_far(imp, gen, x) for x in grid])
    np.testing.assert_array_equal(band.frr_at_far.values, est)
    # pointwise: percentile, widened to Hilgers' bound (every point has < 30 errors)
    lo, hi = np.quantile(reps, [(1 - level) / 2, (1 + level) / 2], axis=0)
    hil = np.array([_hilgers(imp, gen, x, 1 - level) for x in grid]).T
    np.testing.assert_allclose(band.frr_at_far_low.values, np.minimum(lo, hil[0]), atol=1e-12)
    np.testing.assert_allclose(band.frr_at_far_high.values, np.maximum(hi, hil[1]), atol=1e-12)
    # simultaneous: max-t, widened to Hilgers at the Bonferroni level, monotone envelope
    s = reps.std(axis=0, ddof=1)
    c = np.quantile(np.max(np.abs(reps - est) / s, axis=1), level)
    hil_j = np.array([_hilgers(imp, gen, x, (1 - level) / grid.size) for x in grid]).T
    b_lo = np.minimum(np.clip(est - c * s, 0, 1), hil_j[0])
    b_hi = np.maximum(np.clip(est + c * s, 0, 1), hil_j[1])
    b_hi = np.minimum.accumulate(b_hi)  # the grid is increasing: FRR cannot increase
    b_lo = np.maximum.accumulate(b_lo[::-1])[::-1]
    np.testing.assert_allclose(band.frr_at_far_band_low.values, b_lo, atol=1e-12)
    np.testing.assert_allclose(band.frr_at_far_band_high.values, b_hi, atol=1e-12)
    assert float(band.critical_value_far) == pytest.approx(c, rel=1e-12)


def test_subject_band_replicates_equal_brute_force():
    """Many errors per point (no Hilgers widening): the pointwise band is the percentile
    interval of replicates that draw whole subjects, recomputed here from the expanded
    table."""
    rng = np.random.default_rng(1)
    n_imp, n_gen, k = 400, 300, 12
    t = pd.DataFrame({
        "system": "s", "trial": np.arange(n_imp + n_gen),
        "label": np.r_[np.zeros(n_imp, bool), np.ones(n_gen, bool)],
        "score": np.r_[rng.normal(0, 1, n_imp), rng.normal(1.0, 1, n_gen)],
        "subject": np.r_[np.arange(n_imp) % k, np.arange(n_gen) % k],
    })
    grid = np.array([0.15, 0.3])
    B = 300
    band = pbs.det_band(t, far_grid=grid, frr_grid=[0.5], n_resamples=B, seed=3).isel(system=0)
    assert band.attrs["resample"] == "subject"
    mult = np.array([np.bincount(r, minlength=k)
                     for r in np.random.default_rng(3).integers(0, k, size=(B, k))])
    codes = pd.factorize(t.subject)[0]
    imp, gen = t.score[~t.label].to_numpy(), t.score[t.label].to_numpy()
    ci, cg = codes[~t.label.to_numpy()], codes[t.label.to_numpy()]
    reps = np.array([[_frr_at_far(np.repeat(imp, m[ci]), np.repeat(gen, m[cg]), x)
                      for x in grid] for m in mult])
    est = band.frr_at_far.values
    fr = est * n_gen
    assert (fr >= FEW_ERRORS).all() and (grid * n_imp >= FEW_ERRORS).all()
    lo, hi = np.quantile(reps, [0.025, 0.975], axis=0)
    np.testing.assert_allclose(band.frr_at_far_low.values, lo, atol=1e-12)
    np.testing.assert_allclose(band.frr_at_far_high.values, hi, atol=1e-12)


# ----------------------------------------------------------------------------- bad input
def test_grid_values_below_one_impostor_are_marked_not_made_up():
    t = pbs.datasets.example_trials()
    ev = t[t.split == "eval"]  # 960 impostor trials per system: 1/N = 0.00104
    band = pbs.det_band(ev, far_grid=[1e-4, 1e-3, 1 / 960, 0.01], frr_grid=[1e-3, 0.1],
                        n_resamples=50, seed=0).sel(system="cnn", split="eval")
    np.testing.assert_array_equal(band.far_resolved.values, [False, False, True, True])
    for name in ("frr_at_far", "frr_at_far_low", "frr_at_far_high", "frr_at_far_band_low",
                 "frr_at_far_band_high", "threshold_at_far"):
        assert np.isnan(band[name].values[:2]).all() and np.isfinite(band[name].values[2:]).all()
    # 240 genuine trials: an FRR of 0.001 is below one of them
    np.testing.assert_array_equal(band.frr_resolved.values, [False, True])
    assert np.isnan(band.far_at_frr.values[0]) and np.isfinite(band.far_at_frr.values[1])
    table = pbs.frr_at_far(ev, n_resamples=50, seed=0)
    cnn = table[table.system == "cnn"]
    assert cnn.target.tolist() == [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6]
    assert cnn.resolved.tolist() == [True, True, False, False, False, False]
    assert cnn.loc[~cnn.resolved, ["estimate", "ci_low", "ci_high", "band_low", "band_high",
                                   "threshold"]].isna().all().all()
    assert cnn.loc[~cnn.resolved, "ci_method"].isna().all()


def test_frr_at_far_rows_are_the_band_and_the_bootstrap_metric():
    t = pbs.datasets.example_trials()
    table = pbs.frr_at_far(t, far_grid=[0.1, 0.02], n_resamples=100, seed=4)
    band = pbs.det_band(t, far_grid=[0.1, 0.02], frr_grid=[0.5], n_resamples=100, seed=4)
    for row in table.itertuples():
        b = band.sel(system=row.system, split=row.split, far=row.target)
        assert row.estimate == float(b.frr_at_far)
        assert (row.ci_low, row.ci_high) == (float(b.frr_at_far_low), float(b.frr_at_far_high))
    boot = pbs.bootstrap(t, metric="fnmr_at_fmr", target=0.1, n_resamples=20, seed=0)
    at = table[table.target == 0.1].set_index(["system", "split"]).estimate
    np.testing.assert_allclose(boot.set_index(["system", "split"]).estimate, at)
    assert set(table.columns) >= {"metric", "estimate", "ci_low", "ci_high"}


def test_band_attrs_and_names_do_not_depend_on_arguments():
    t = pbs.datasets.example_trials()
    a = pbs.det_band(t, n_resamples=20, seed=0, confidence_level=0.9)
    b = pbs.det_band(t, far_grid=[0.1], frr_grid=[0.1], n_resamples=20, seed=0,
                     resample="label")
    assert set(a.data_vars) == set(b.data_vars)
    assert a.attrs["kind"] == "det_band" and b.attrs["resample"] == "label"
    assert "max-t" in a.attrs["simultaneous"] and a.attrs["confidence_level"] == 0.9
