"""The resampling engine: exact in distribution, reproducible, and sane on edge cases."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import pandas_biosig as pbs
from pandas_biosig._core.protocol import ERROR_SUBJECT
from pandas_biosig._core.replicates import ERROR_ALIGN
from pandas_biosig._core.validation import ERROR_N_RESAMPLES
from pandas_biosig._kernels.rates import Sweep
from pandas_biosig._kernels.resample import (
    LazyPrefix,
    cluster_counts,
    lazy_replicate,
    stratified_counts,
    uniform_counts,
)
from pandas_biosig.verification import BOOTSTRAP_COLUMNS


def small_sweep(seed=0, n=300):
    rng = np.random.default_rng(seed)
    g = rng.random(n) < 0.3
    s = np.round(rng.normal(np.where(g, 1.5, 0.0), 1.0), 1)  # ties
    return Sweep.from_scores(s, g)


def resorted(sw, rng):
    """The textbook bootstrap replicate: draw scores with replacement and sort again."""
    neg = np.r_[np.full(sw.rn, -np.inf), sw.neg]
    pos = np.r_[np.full(sw.rp, -np.inf), sw.pos]
    return Sweep(neg[rng.integers(0, neg.size, neg.size)], pos[rng.integers(0, pos.size, pos.size)])


def test_lazy_prefix_counts_are_binomial():
    # the number of draws below position k of a multinomial(N, uniform) is Bin(N, k/N)
    rng = np.random.default_rng(0)
    counts = np.array([LazyPrefix(rng, 50)[20] for _ in range(4000)])
    expected = stats.binom(50, 0.4)
    assert abs(counts.mean() - expected.mean()) < 4 * expected.std() / np.sqrt(4000)
    assert abs(counts.var() - expected.var()) < 0.1 * expected.var()


def test_lazy_prefix_is_consistent():
    rng = np.random.default_rng(1)
    lp = LazyPrefix(rng, 100, offset=10)
    a = [lp[k] for k in (50, 20, 70, 20, 50)]
    assert a[1] == a[3] and a[0] == a[4]
    assert a[1] <= a[0] <= a[2] <= lp[-1]
    assert lp.searchsorted(lp[40], "left") <= 40


@pytest.mark.parametrize("metric", ["eer_threshold", "eer_interpolated", "fnmr_at_fmr"])
def test_lazy_replicates_have_the_resorted_distribution(metric):
    sw = small_sweep()
    f = {
        "eer_threshold": lambda s: s.eer_threshold()[0],
        "eer_interpolated": lambda s: s.eer_interpolated(),
        "fnmr_at_fmr": lambda s: s.fnmr_at_fmr(0.1).frr,
    }[metric]
    rng = np.random.default_rng(2)
    lazy = [f(lazy_replicate(sw, rng)) for _ in range(3000)]
    textbook = [f(resorted(sw, rng)) for _ in range(3000)]
    assert stats.ks_2samp(lazy, textbook).pvalue > 0.001


@pytest.mark.parametrize("metric", ["eer_rocch", "auc", "min_cllr"])
def test_weighted_replicates_have_the_resorted_distribution(metric):
    sw = small_sweep(3).prepare_resampling()
    rng = np.random.default_rng(4)
    f = lambda s: getattr(s, metric)()  # noqa: E731
    weighted = [
        f(sw.reweighted(uniform_counts(rng, sw.n), uniform_counts(rng, sw.p)))
        for _ in range(2000)
    ]
    textbook = [f(resorted(sw, rng)) for _ in range(2000)]
    assert stats.ks_2samp(weighted, textbook).pvalue > 0.001


def test_stratified_and_cluster_counts():
    rng = np.random.default_rng(0)
    strata = np.array([0, 0, 0, 1, 1, 0, 1])
    w = stratified_counts(rng, strata, 2)
    assert w[strata == 0].sum() == 4 and w[strata == 1].sum() == 3
    clusters = np.array([0, 0, 1, 1, 1, 2])
    w = cluster_counts(rng, clusters, 3)
    assert w[0] == w[1] and w[2] == w[3] == w[4]
    assert (w[[0, 2, 5]]).sum() == 3


def test_bootstrap_frame_and_reproducibility(example):
    a = pbs.bootstrap(example, metric="eer", n_resamples=50, seed=7)
    b = pbs.bootstrap(example, metric="eer", n_resamples=50, seed=7)
    assert list(a.columns) == BOOTSTRAP_COLUMNS
    pd.testing.assert_frame_equal(a, b)
    c = pbs.bootstrap(example, metric="eer", n_resamples=50, seed=8)
    assert not a.ci_low.equals(c.ci_low)
    assert (a.ci_low <= a.estimate).all() and (a.estimate <= a.ci_high).all()
    # a bare "eer" is the library's default EER: the number eer() gives on the same rows
    pe = pbs.eer(example)
    assert a[["system", "split"]].equals(pe[["system", "split"]])
    np.testing.assert_array_equal(a.estimate, pe.eer)
    assert set(a.metric) == {"eer_threshold"}
    hull = pbs.bootstrap(example, metric="eer_rocch", n_resamples=50, seed=7)
    np.testing.assert_array_equal(hull.estimate, pbs.eer(example, method="rocch").eer)
    assert set(hull.metric) == {"eer_rocch"}


@pytest.mark.parametrize("metric", ["hter", "far", "frr"])
def test_fixed_threshold_metrics_use_the_policy(example, metric):
    out = pbs.bootstrap(example, metric=metric, n_resamples=30, seed=0, threshold="eer",
                        on="dev", apply_to="eval")
    er = pbs.error_rates(example, threshold="eer", on="dev", apply_to="eval")
    np.testing.assert_allclose(out.estimate, er[metric])
    np.testing.assert_allclose(out.threshold, er.threshold)


@pytest.mark.parametrize("weight", [0.1, 0.5, 0.9])
def test_min_weighted_threshold_is_error_rates_one(example, weight):
    kw = dict(threshold="min_weighted", weight=weight, on="dev", apply_to="eval")
    out = pbs.bootstrap(example, metric="hter", n_resamples=20, seed=0, **kw)
    er = pbs.error_rates(example, **kw)
    np.testing.assert_array_equal(out.threshold, er.threshold)
    np.testing.assert_array_equal(out.estimate, er.hter)
    np.testing.assert_array_equal(out.weight, er.weight)
    res = pbs.paired_bootstrap(example, "cnn", "gmm", metric="hter", n_resamples=20, seed=0,
                               **kw)
    hter = er.set_index("system").hter
    assert res.estimate == hter["cnn"] - hter["gmm"] and res.weight == weight
    # no weighted criterion: NaN, as in error_rates
    assert pbs.bootstrap(example, n_resamples=5, seed=0).weight.isna().all()
    assert np.isnan(pbs.paired_bootstrap(example, "cnn", "gmm", n_resamples=5, seed=0).weight)


@pytest.mark.parametrize("bad", [1.5, -0.1, "half", None])
def test_bad_weight_same_message_as_error_rates(example, bad):
    kw = dict(threshold="min_weighted", weight=bad, on="dev", apply_to="eval")
    with pytest.raises(ValueError) as want:
        pbs.error_rates(example, **kw)
    for call in (lambda: pbs.bootstrap(example, metric="hter", n_resamples=5, **kw),
                 lambda: pbs.paired_bootstrap(example, "cnn", "gmm", metric="hter",
                                              n_resamples=5, **kw)):
        with pytest.raises(ValueError) as got:
            call()
        assert str(got.value) == str(want.value)


def test_subject_resampling_needs_subjects(trials_tiny):
    with pytest.raises(pbs.SchemaError, match="resample='subject' needs a subject column"):
        pbs.bootstrap(trials_tiny, resample="subject", n_resamples=5)
    assert "subject" in ERROR_SUBJECT


def test_subject_resampling_is_wider_with_subject_effects():
    # genuine scores share a strong per-subject effect ("goats" and "sheep"): trials of
    # one subject are not independent, and resampling subjects shows it
    rng = np.random.default_rng(0)
    n_sub, per = 40, 10
    subject = np.repeat(np.arange(n_sub), per)
    gen = 2.0 + 1.5 * rng.standard_normal(n_sub)[subject] + 0.5 * rng.standard_normal(subject.size)
    imp = rng.standard_normal(4 * subject.size)
    t = pd.DataFrame(
        {
            "system": "s",
            "trial": np.arange(5 * subject.size),
            "label": [1] * subject.size + [0] * imp.size,
            "score": np.r_[gen, imp],
            "subject": np.r_[subject, np.tile(subject, 4)],
        }
    )
    lab = pbs.bootstrap(t, metric="eer", n_resamples=400, seed=0, resample="label").se.iloc[0]
    sub = pbs.bootstrap(t, metric="eer", n_resamples=400, seed=0, resample="subject").se.iloc[0]
    assert sub > 1.5 * lab


@pytest.mark.parametrize("bad", [0, -3, 2.5, True])
def test_bad_n_resamples(trials_tiny, bad):
    with pytest.raises(ValueError, match=ERROR_N_RESAMPLES.split("{")[0]):
        pbs.bootstrap(trials_tiny, n_resamples=bad)


def test_bad_options(trials_tiny):
    with pytest.raises(ValueError, match="metric='accuracy' is not one of"):
        pbs.bootstrap(trials_tiny, metric="accuracy")
    with pytest.raises(ValueError, match="resample='rows' is not one of"):
        pbs.bootstrap(trials_tiny, resample="rows")
    with pytest.raises(ValueError, match="needs target="):
        pbs.bootstrap(trials_tiny, metric="fnmr_at_fmr")
    with pytest.raises(ValueError, match="confidence_level"):
        pbs.bootstrap(trials_tiny, confidence_level=95)


def test_identical_systems_never_differ(example):
    twin = example[example.system == "gmm"].assign(system="gmm_copy")
    t = pd.concat([example, twin])
    res = pbs.paired_bootstrap(t, "gmm", "gmm_copy", apply_to="eval", n_resamples=100, seed=0)
    assert res.estimate == 0 and res.pvalue == 1.0
    assert res.confidence_interval() == (0.0, 0.0)


def test_paired_bootstrap_swaps_sign(example):
    kw = dict(metric="eer_threshold", apply_to="eval", n_resamples=100, seed=3)
    ab = pbs.paired_bootstrap(example, "cnn", "gmm", **kw)
    ba = pbs.paired_bootstrap(example, "gmm", "cnn", **kw)
    assert ab.estimate == -ba.estimate
    assert ab.pvalue == ba.pvalue
    low, high = ab.confidence_interval()
    assert low <= ab.estimate <= high


def test_paired_bootstrap_needs_aligned_trials(example):
    t = example.drop(index=example.index[(example.system == "lbp") & (example.trial < 5)])
    with pytest.raises(pbs.SchemaError, match=ERROR_ALIGN.split("{")[0][:10]) as exc:
        pbs.paired_bootstrap(t, "cnn", "lbp", apply_to="dev", n_resamples=10)
    assert "5 trials only in 'cnn'" in str(exc.value)
    res = pbs.paired_bootstrap(t, "cnn", "lbp", apply_to="dev", n_resamples=10, common_trials=True)
    assert res.n == 1200 - 5


def test_paired_bootstrap_labels_must_agree(example):
    t = example.copy()
    t.loc[(t.system == "lbp") & (t.trial == 0), "label"] = "impostor"
    with pytest.raises(pbs.SchemaError, match="genuine for one system and impostor"):
        pbs.paired_bootstrap(t, "cnn", "lbp", apply_to="dev", n_resamples=10)


@pytest.mark.parametrize("resample", ["label", "trial", "subject"])
def test_fixed_threshold_cells_match_the_generic_path(example, resample):
    """The 8-cell multinomial shortcut has the distribution of resampling trials."""
    from pandas_biosig._core.replicates import (
        align_pair,
        bootstrap_difference,
        fixed_threshold_deltas,
        metric_function,
    )
    from pandas_biosig._core.schema import validate_trials

    tr = validate_trials(example)
    ga = next(g for g in tr.groups if g.system == "cnn" and g.split == "eval")
    gb = next(g for g in tr.groups if g.system == "gmm" and g.split == "eval")
    ga, gb = align_pair(ga, gb, common_trials=False)
    f = metric_function("hter", target=None, p_target=0.01, c_miss=1, c_fa=1)
    fast = fixed_threshold_deltas(ga, gb, "hter", (0.0, 0.1), 3000, resample,
                                   np.random.default_rng(0))
    slow = bootstrap_difference(ga, gb, f, (0.0, 0.1), n_resamples=1500, resample=resample,
                                rng=np.random.default_rng(1))._replicates
    assert stats.ks_2samp(fast, slow).pvalue > 0.001
    quick = bootstrap_difference(ga, gb, f, (0.0, 0.1), n_resamples=100, resample=resample,
                                 rng=np.random.default_rng(1), metric="hter")
    assert quick.estimate == pytest.approx(
        f(Sweep.from_scores(ga.scores, ga.genuine), 0.0) - f(Sweep.from_scores(gb.scores, gb.genuine), 0.1)
    )


def test_epc_bootstrap_bands(example):
    w = np.array([0.2, 0.5, 0.8])
    ds = pbs.epc_bootstrap(example, weight=w, n_resamples=2000, seed=0)
    point = pbs.epc(example, weight=w)
    np.testing.assert_array_equal(ds.hter.values, point.hter.values)
    assert ds.pair.size == 6 and ds.significant.dims == ("pair", "weight")
    assert bool(((ds.hter_low <= ds.hter) & (ds.hter <= ds.hter_high)).all())
    # the band at one weight is the bootstrap interval of the HTER at that fixed threshold
    thr = float(point.threshold.sel(system="gmm", weight=0.5))
    ci = pbs.bootstrap(example, metric="hter", threshold={"cnn": 0, "cnn_aug": 0, "gmm": thr,
                                                          "lbp": 0},
                       apply_to="eval", n_resamples=2000, seed=1).set_index("system")
    band = ds.sel(system="gmm", weight=0.5)
    assert float(band.hter_low) == pytest.approx(ci.loc["gmm", "ci_low"], abs=0.006)
    assert float(band.hter_high) == pytest.approx(ci.loc["gmm", "ci_high"], abs=0.006)


def test_epc_bootstrap_identical_systems_never_differ(example):
    twin = example[example.system == "gmm"].assign(system="gmm_copy")
    t = pd.concat([example[example.system == "gmm"], twin])
    ds = pbs.epc_bootstrap(t, weight=np.linspace(0, 1, 11), n_resamples=100, seed=0)
    assert not ds.significant.any()
    assert float(abs(ds.difference).max()) == 0.0


def test_epc_bootstrap_subject_resampling(example):
    ds = pbs.epc_bootstrap(example, weight=[0.5], n_resamples=50, seed=0, resample="subject")
    assert ds.attrs["resample"] == "subject"
    assert bool((ds.hter_high >= ds.hter_low).all())


def test_epc_bootstrap_one_system(example):
    ds = pbs.epc_bootstrap(example[example.system == "gmm"], weight=[0.5], n_resamples=30, seed=0)
    assert ds.pair.size == 0 and ds.hter_low.shape == (1, 1)


def test_bootstrap_pvalue_by_hand():
    from pandas_biosig._core.replicates import bootstrap_pvalue

    d = np.array([-1.0, 1.0, 2.0, 3.0, np.nan])  # NaN ignored: 4 replicates
    # share at or below 0: (1 + 1) / 5; at or above 0: (3 + 1) / 5
    assert bootstrap_pvalue(d, "greater") == pytest.approx(0.4)
    assert bootstrap_pvalue(d, "less") == pytest.approx(0.8)
    assert bootstrap_pvalue(d) == pytest.approx(0.8)


def test_paired_bootstrap_unknown_system(example):
    with pytest.raises(pbs.SchemaError, match=r"system 'nope' is not in the table \(systems: \['cnn'"):
        pbs.paired_bootstrap(example, "cnn", "nope", apply_to="eval", n_resamples=5)


def test_compare_says_the_monte_carlo_error_of_its_bootstrap_pvalue():
    """Without a seed the bootstrap p-value moved between calls (0.0295, 0.0284, 0.0319):
    pvalue_mc_se says by how much. Percentile test, two-sided: sqrt(p(2 - p)/B); the
    studentized one: |dp/dz| |z| / sqrt(2(B - 1)); NaN where nothing is resampled."""
    from scipy import stats as st

    trials = pbs.datasets.example_trials().query("system in ['cnn', 'cnn_aug']")
    b = 200
    pct = pbs.compare(trials, test="bootstrap", metric="eer", n_resamples=b, seed=1)
    assert "studentized" not in pct.method.iloc[0]
    p = pct.pvalue.to_numpy()
    np.testing.assert_allclose(pct.pvalue_mc_se, np.sqrt(p * (2 - p) / b), rtol=1e-12)
    stu = pbs.compare(trials, n_resamples=b, seed=1)
    assert "studentized" in stu.method.iloc[0]
    z = stu.statistic.abs().to_numpy()
    df = float(stu.method.iloc[0].split("t with ")[1].split()[0])
    slope = 2 * st.t.pdf(z, df)
    np.testing.assert_allclose(stu.pvalue_mc_se, slope * z / np.sqrt(2 * (b - 1)), rtol=2e-2)
    assert pbs.compare(trials, test="hter_dependent").pvalue_mc_se.isna().all()


def test_the_studentized_pvalue_moves_between_seeds_as_its_mc_se_says():
    trials = pbs.datasets.example_trials().query("system in ['cnn', 'cnn_aug']")
    runs = [pbs.compare(trials, n_resamples=200, seed=s) for s in range(20)]
    spread = np.std([r.pvalue.item() for r in runs], ddof=1)
    said = np.mean([r.pvalue_mc_se.item() for r in runs])
    assert 0.6 < spread / said < 1.6  # 20 seeds: the spread is known to about 16 %


# ------------------------------------------------ replicates that draw a class empty
def _one_impostor_subject():
    """Eight trials: every impostor trial belongs to subject 3, so a subject replicate
    that does not draw subject 3 has no impostor trial."""
    return pd.DataFrame(dict(
        system="A", trial=np.arange(8),
        label=[True, True, True, False, False, True, True, False],
        score=[1.0, 3.0, 1.0, 1.0, 3.0, 1.0, 1.0, 2.0], subject=[2, 0, 0, 3, 3, 3, 2, 3]))


@pytest.mark.parametrize("by", [None, "grp"])
def test_replicates_without_a_class_are_left_out_with_a_named_warning(by):
    t = _one_impostor_subject()
    if by:  # the many-groups path: two copies of the table as two groups
        t = pd.concat([t.assign(grp=0), t.assign(grp=1, trial=t.trial + 8)], ignore_index=True)
    with pytest.warns(pbs.BiosigWarning, match="drew no trial of one class"):
        r = pbs.bootstrap(t, n_resamples=200, seed=0, by=by)
    assert np.isfinite(r[["se", "ci_low", "ci_high"]].to_numpy()).all()
    # the interval is that of the replicates that drew both classes: (3/4)^4 of them miss
    # subject 3, about 32 % of 200
    from pandas_biosig._core.replicates import Replicates, make_rng, metric_function
    from pandas_biosig._core.schema import validate_trials
    from pandas_biosig._kernels.rates import Sweep

    if by is None:
        g = validate_trials(t).groups[0]
        reps = Replicates(g, Sweep.from_scores(g.scores, g.genuine), "subject", lazy=False)
        rng = make_rng(0)
        draws = [reps.draw(rng) for _ in range(200)]
        f = metric_function("eer_threshold", target=None, p_target=0.01, c_miss=1, c_fa=1)
        values = np.array([np.nan if d is None else f(d, 0.0) for d in draws])
        assert 0.2 < np.isnan(values).mean() < 0.45
        low, high = np.nanquantile(values, [0.025, 0.975])
        assert (r.ci_low.iloc[0], r.ci_high.iloc[0]) == (low, high)


def test_paired_replicates_without_a_class_are_left_out_with_a_named_warning():
    t = _one_impostor_subject()
    both = pd.concat([t, t.assign(system="B", score=t.score[::-1].to_numpy())],
                     ignore_index=True)
    with pytest.warns(pbs.BiosigWarning, match="systems 'A' and 'B': .* of 100"):
        r = pbs.paired_bootstrap(both, "A", "B", n_resamples=100, seed=0)
    assert np.isfinite(r.pvalue)
