"""Bootstrap replicates of the tandem metrics: each replicate, read off cumulative sums of
multiplicities over scores sorted once, equals the metric of the expanded table (every
trial repeated by its multiplicity, computed by the kernels from scratch); the intervals
and paired tests built on them."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig._core.schema import SchemaError
from pandas_biosig._kernels import tandem as T
from pandas_biosig._kernels.tandem_replicates import (
    AsvReplicates,
    ClassReplicates,
    expanded_teer,
    tdcf_weight_arrays,
)
from pandas_biosig.tandem._resampling import _adcf_curve, _tdcf_curve


def _random_table(rng, n, levels):
    kind = rng.choice(3, size=n, p=[0.3, 0.3, 0.4])
    kind[:3] = [0, 1, 2]
    asv = np.round(rng.normal(np.select([kind == 0, kind == 2], [2.5, 1.5], 0), 1.3) * levels)
    cm = np.round(rng.normal(np.where(kind == 2, -1, 1), 1.2) * levels) / levels
    return asv / levels, cm, kind


def _weights(rng, n, rows=8):
    W = rng.integers(0, 4, size=(rows, n)).astype(float)
    W[:, :3] = np.maximum(W[:, :3], 1)  # every kind present
    return W


def _expanded(values, kind, w, k):
    return np.repeat(values[kind == k], w[kind == k].astype(int))


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("threshold", [None, 0.75])
def test_asv_rates_of_replicates_equal_the_expanded_tables(seed, threshold):
    rng = np.random.default_rng(seed)
    asv, _, kind = _random_table(rng, 30 + 10 * seed, levels=1 + seed % 3)
    W = _weights(rng, asv.size)
    got = AsvReplicates(asv, kind, threshold).rates(W)
    for b in range(W.shape[0]):
        e = [_expanded(asv, kind, W[b], k) for k in range(3)]
        t = T.asv_eer_threshold(e[0], e[1])[1] if threshold is None else threshold
        r = T.asv_rates(*e, t)
        assert tuple(g[b] for g in got) == (r.pfa, r.pmiss, r.pmiss_spoof, r.pfa_spoof)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("version", ["2019", "2021"])
def test_min_tdcf_of_replicates_equals_the_expanded_tables(seed, version):
    rng = np.random.default_rng(50 + seed)
    asv, cm, kind = _random_table(rng, 40 + 10 * seed, levels=2)
    costs = T.TDCF_2019 if version == "2019" else T.ASVSPOOF5
    W = _weights(rng, asv.size)
    weights = tdcf_weight_arrays(costs, *AsvReplicates(asv, kind).rates(W))
    got = np.min(_tdcf_curve(ClassReplicates(cm, (kind == 2).astype(np.int8), 2).below(W),
                             *weights), axis=1)
    make = T.tdcf_weights_2019 if version == "2019" else T.tdcf_weights
    for b in range(W.shape[0]):
        e = [_expanded(asv, kind, W[b], k) for k in range(3)]
        bona = np.repeat(cm[kind != 2], W[b, kind != 2].astype(int))
        spoof = _expanded(cm, kind, W[b], 2)
        try:
            w = make(T.asv_rates(*e, T.asv_eer_threshold(e[0], e[1])[1]), costs)
        except ValueError:  # refused weights: the replicate is undefined
            assert np.isnan(got[b])
            continue
        assert got[b] == T.min_tdcf(bona, spoof, w).tdcf


@pytest.mark.parametrize("seed", range(8))
def test_min_adcf_of_replicates_equals_the_expanded_tables(seed):
    rng = np.random.default_rng(100 + seed)
    asv, cm, kind = _random_table(rng, 40 + 10 * seed, levels=2)
    sasv = np.where(cm > 0.5, asv, -np.inf)  # a cascade: -inf is never accepted
    W = _weights(rng, asv.size)
    got = np.min(_adcf_curve(ClassReplicates(sasv, kind, 3).below(W), T.SASV_ADCF), axis=1)
    for b in range(W.shape[0]):
        e = [_expanded(sasv, kind, W[b], k) for k in range(3)]
        assert got[b] == pytest.approx(T.min_adcf(*e, T.SASV_ADCF).adcf, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_teer_of_replicates_equals_the_expanded_tables(seed):
    rng = np.random.default_rng(200 + seed)
    asv, cm, kind = _random_table(rng, 40 + 10 * seed, levels=2)
    w = _weights(rng, asv.size, rows=1)[0]
    classes = [np.sort(asv[kind == k]) for k in range(3)]
    orders = [np.argsort(asv[kind == k], kind="stable") for k in range(3)]
    bona = np.flatnonzero(kind != 2)
    spoof = np.flatnonzero(kind == 2)
    ob, os_ = np.argsort(cm[bona], kind="stable"), np.argsort(cm[spoof], kind="stable")
    got = expanded_teer(classes + [cm[bona][ob], cm[spoof][os_]],
                        [w[kind == k][o] for k, o in zip(range(3), orders, strict=True)]
                        + [w[bona][ob], w[spoof][os_]])
    e = [_expanded(asv, kind, w, k) for k in range(3)]
    try:
        want = T.teer(*e, np.repeat(cm[bona], w[bona].astype(int)),
                      _expanded(cm, kind, w, 2)).teer
    except ValueError:
        assert np.isnan(got)
        return
    assert got == want


# --------------------------------------------------------------------- the functions
@pytest.fixture(scope="module")
def example():
    return pbs.datasets.example_tandem()


@pytest.mark.parametrize("metric", ["min_tdcf", "teer", "min_adcf"])
def test_bootstrap_intervals_hold_their_estimate(example, metric):
    data = pbs.sasv_score(example) if metric == "min_adcf" else example
    r = pbs.tandem_bootstrap(data, metric=metric, n_resamples=60, seed=1)
    assert list(r.columns) == pbs.tandem.TANDEM_BOOTSTRAP_COLUMNS
    assert (r.ci_low <= r.estimate).all() and (r.estimate <= r.ci_high).all()
    assert (r["resample"] == "subject").all() and (r.n_subjects == 24).all()
    assert (r.n_failed == 0).all()
    again = pbs.tandem_bootstrap(data, metric=metric, n_resamples=60, seed=1)
    pd.testing.assert_frame_equal(r, again)


def test_bootstrap_estimates_are_the_metrics(example):
    r = pbs.tandem_bootstrap(example, n_resamples=20, seed=0)
    m = pbs.tdcf(example, on=None)
    np.testing.assert_array_equal(r.estimate, m.min_tdcf)
    r = pbs.tandem_bootstrap(example, metric="teer", n_resamples=20, seed=0)
    np.testing.assert_array_equal(r.estimate, pbs.teer(example).teer)


def test_bootstrap_without_speakers_resamples_trials_within_kinds(example):
    r = pbs.tandem_bootstrap(example.drop(columns="subject"), n_resamples=30, seed=0)
    assert (r["resample"] == "label").all() and (r.n_subjects == 0).all()
    basic = pbs.tandem_bootstrap(example, n_resamples=30, seed=0, ci_method="basic")
    pct = pbs.tandem_bootstrap(example, n_resamples=30, seed=0, ci_method="percentile")
    np.testing.assert_allclose(basic.ci_low, 2 * pct.estimate - pct.ci_high)
    bc = pbs.tandem_bootstrap(example, n_resamples=30, seed=0, ci_method="bc")
    assert (bc.ci_method == "bc").all() and not np.allclose(bc.ci_low, pct.ci_low)
    default = pbs.tandem_bootstrap(example, n_resamples=30, seed=0)
    assert (default.ci_method == "band").all()  # "auto": the band for the minima
    te = pbs.tandem_bootstrap(example, metric="teer", n_resamples=30, seed=0)
    assert (te.ci_method == "percentile").all()  # "auto": percentile for the t-EER


@pytest.mark.parametrize("metric", ["min_tdcf", "min_adcf"])
def test_band_interval_equals_the_band_of_all_replicates_in_memory(example, metric):
    """The streamed band (moments in one pass, the max-t statistic in two more over the
    same draws) equals the band computed from the matrix of every replicated curve."""
    from pandas_biosig._core.replicates import make_rng
    from pandas_biosig.tandem._resampling import _blocks, _Draws, _Engine, prepare

    data = pbs.sasv_score(example) if metric == "min_adcf" else example
    n_res = 150
    r = pbs.tandem_bootstrap(data, metric=metric, n_resamples=n_res, seed=4)
    table, costs = prepare(data, metric, "2019", None)
    rng = make_rng(4)
    for g, row in zip(table.groups, r.itertuples(), strict=True):
        engine = _Engine([g], metric, costs, None)
        draws = _Draws(g, "subject", table.split_column)
        curves = np.vstack([engine.curves(W) for _, W in _blocks(engine, draws, n_res, rng)])
        est = engine.curves(np.ones((1, draws.n)))[0]
        assert np.nanmin(est) == pytest.approx(row.estimate, rel=1e-12)
        sd = np.nanstd(curves, axis=0, ddof=1)
        ok = np.isfinite(est) & np.isfinite(sd)

        def q_over(points, curves=curves, est=est, sd=sd):
            use = points & (sd > 0)
            return np.quantile(np.nanmax(np.abs(curves[:, use] - est[use]) / sd[use], axis=1),
                               0.95)

        q = q_over(ok)
        upper = np.min((est + q * sd)[ok])
        q = q_over(ok & (est - q * sd <= upper))
        want = (np.min((est - q * sd)[ok]), np.min((est + q * sd)[ok]))
        assert (row.ci_low, row.ci_high) == pytest.approx(want, rel=1e-9)
        assert row.ci_low <= row.estimate <= row.ci_high


def test_band_moments_and_edges_by_hand():
    from pandas_biosig._kernels.min_band import Moments, band_edges_minima, candidates, max_t

    rng = np.random.default_rng(0)
    x = rng.normal(size=(40, 6))
    x[3, 2] = np.nan
    m = Moments(6)
    for block in (x[:7], x[7:8], x[8:]):
        m.add(block)
    np.testing.assert_allclose(m.sd(), np.nanstd(x, axis=0, ddof=1), rtol=1e-12)
    est = np.array([3.5, 1.0, 0.5, 0.9, 2.0, np.nan])
    sd = np.array([1.0, 0.2, 0.4, 0.1, 0.0, 1.0])
    # edges 0.5 -+ 0.8 at q = 2: lower minimum 0.5 - 0.8, upper minimum min(1.4, 1.3, 1.1)
    assert band_edges_minima(est, sd, 2.0) == pytest.approx((-0.3, 1.1))
    # candidates: lower edge (1.5, 0.6, -0.3, 0.7, 2.0) at most 1.1: thresholds 1, 2, 3
    assert candidates(est, sd, 2.0).tolist() == [False, True, True, True, False, False]
    curves = est + np.array([[0.5, 0.1, -0.4, 0.0, 0.0, 9.0]])
    assert max_t(curves, est, sd, np.ones(6, bool)).tolist() == [1.0]  # 0.4 / 0.4
    assert np.isnan(max_t(curves, est, sd, np.zeros(6, bool))[0])


def test_bootstrap_errors_are_named(example):
    with pytest.raises(SchemaError, match="at least two"):
        pbs.tandem_bootstrap(example.assign(subject="one"), n_resamples=10)
    with pytest.raises(SchemaError, match="have no subject id"):
        pbs.tandem_bootstrap(example.assign(subject=None), n_resamples=10)
    with pytest.raises(ValueError, match="n_resamples must be a positive integer"):
        pbs.tandem_bootstrap(example, n_resamples=0)
    with pytest.raises(ValueError, match="metric='eer' is not one of"):
        pbs.tandem_bootstrap(example, metric="eer")
    with pytest.raises(ValueError, match="ci_method='band' is the interval of a minimum"):
        pbs.tandem_bootstrap(example, metric="teer", ci_method="band", n_resamples=10)
    with pytest.raises(ValueError, match="confidence_level must be a number"):
        pbs.tandem_bootstrap(example, confidence_level=95)


def test_compare_identical_systems_finds_no_difference(example):
    same = example[example.cm_system == "cm_a"]
    both = pd.concat([same, same.assign(cm_system="copy")], ignore_index=True)
    r = pbs.tandem_compare(both, n_resamples=50, seed=0)
    assert (r.estimate == 0).all() and (r.pvalue == 1).all() and not r.reject.any()


def test_compare_is_antisymmetric_and_adjusted_per_family(example):
    three = pd.concat([example, example[example.cm_system == "cm_b"].assign(
        cm_system="cm_c", cm_score=lambda d: d.cm_score * 0.9)], ignore_index=True)
    r = pbs.tandem_compare(three, n_resamples=80, seed=3)
    assert list(r.columns) == pbs.tandem.TANDEM_COMPARE_COLUMNS
    assert len(r) == 6  # three pairs in each of dev and eval
    from statsmodels.stats.multitest import multipletests

    for _, fam in r.groupby("split"):
        np.testing.assert_allclose(fam.pvalue_adj, multipletests(fam.pvalue, method="holm")[1])
    order = ["cm_b", "cm_a", "cm_c"]  # (b, a) is (a, b) swapped; (a, c), (b, c) are not
    swapped = pd.concat([three[three.cm_system == c] for c in order], ignore_index=True)
    s = pbs.tandem_compare(swapped, n_resamples=80, seed=3)
    ours = {(x.split, x.system_a, x.system_b): x for x in r.itertuples()}
    for x in s.itertuples():
        y = ours.get((x.split, x.system_a, x.system_b))
        sign = 1
        if y is None:
            y, sign = ours[(x.split, x.system_b, x.system_a)], -1
        assert x.estimate == pytest.approx(sign * y.estimate)
        assert x.pvalue == pytest.approx(y.pvalue)


def test_compare_refuses_systems_on_other_trials(example):
    other = example.copy()
    other.loc[(other.cm_system == "cm_b") & (other.trial == 0), "trial"] = 10**6
    with pytest.raises(SchemaError, match="do not score the same trials"):
        pbs.tandem_compare(other, n_resamples=10)
    moved = example.copy()
    moved.loc[moved.cm_system == "cm_b", "asv_score"] += 1.0
    with pytest.raises(SchemaError, match="with the same ASV scores"):
        pbs.tandem_compare(moved, n_resamples=10)
    pbs.tandem_compare(pbs.sasv_score(moved), metric="min_adcf", n_resamples=10)  # SASV
    with pytest.raises(ValueError, match="only one system"):
        pbs.tandem_compare(example[example.cm_system == "cm_a"], n_resamples=10)


def test_bias_corrected_interval_moves_the_quantiles_against_the_bias():
    """Efron's BC interval: with the estimate at the replicates' median it is the
    percentile interval; with most replicates below the estimate (a minimum's optimism) its
    quantile levels move up by Phi(2 z0 -+ z)."""
    from scipy.stats import norm

    from pandas_biosig.tandem._resampling import bootstrap_interval

    reps = np.arange(1, 1000) / 1000.0
    pct = bootstrap_interval(0.5, reps, 0.95, "percentile")
    assert bootstrap_interval(0.5, reps, 0.95, "bc") == pytest.approx(pct)
    z0 = norm.ppf(np.mean(reps < 0.7) + 0.5 * np.mean(reps == 0.7))
    levels = norm.cdf([2 * z0 - norm.ppf(0.975), 2 * z0 + norm.ppf(0.975)])
    assert bootstrap_interval(0.7, reps, 0.95, "bc") == pytest.approx(
        tuple(np.quantile(reps, levels)))
    low, high = bootstrap_interval(0.7, reps, 0.95, "bc")
    assert low > pct[0] and high > pct[1]
