"""Curves as Datasets: layout, scikit-learn and bob.measure oracles, Hypothesis invariants,
bad input and the netCDF round trip."""

import io
from math import lcm

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from reference_data import iris_table

import pandas_biosig as pbs
from pandas_biosig._core.curve_datasets import ERROR_GRID_RANGE
from pandas_biosig._core.schema import ERROR_NO_SPLIT, ERROR_OPTION, SchemaError
from pandas_biosig._kernels.curves import EPC_CRITERIA
from pandas_biosig._kernels.rates import Sweep
from pandas_biosig.verification import _curves as curves
from pandas_biosig.verification._epc import epc

sklearn_metrics = pytest.importorskip("sklearn.metrics")

SETTINGS = settings(max_examples=40, deadline=None)
scores = arrays(
    np.float64,
    st.integers(1, 30),
    elements=st.integers(-12, 12).map(lambda v: v / 4),  # coarse grid: many ties
)


def table(neg, pos, *, system="s", split=None):
    neg, pos = np.asarray(neg, float), np.asarray(pos, float)
    df = pd.DataFrame(
        {
            "system": system,
            "trial": np.arange(neg.size + pos.size),
            "label": np.r_[np.zeros(neg.size, int), np.ones(pos.size, int)],
            "score": np.r_[neg, pos],
        }
    )
    if split is not None:
        df["split"] = split
    return df


def random_trials(seed, n=400, decimals=1):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    s = np.round(rng.normal(np.where(y, 1.0, 0.0), 1.0), decimals)
    return y, s


def iris_epc_table():
    """bob.measure's EPC fixture: dev = first 25 impostor + first 25 genuine, eval = the
    last 25 of each (Iris sepal length, setosa = impostor, versicolor = genuine)."""
    df = iris_table()
    rank = df.groupby("label").cumcount()
    return df.assign(split=np.where(rank < 25, "dev", "eval"))


def one(ds, name, **sel):
    """The curve of one system as a numpy array without the NaN padding."""
    v = ds[name].sel(**sel).values if sel else ds[name].values
    v = np.squeeze(v)
    return v[~np.isnan(v)] if v.ndim else v


# --------------------------------------------------------------------------- layout
def test_roc_layout_and_attrs(example):
    ds = curves.roc(example)
    assert dict(ds.sizes) == {"system": 4, "split": 2, "point": ds.sizes["point"]}
    assert ds.threshold.dims == ("system", "split", "point")
    assert ds.eer.dims == ("system", "split")
    assert list(ds.data_vars) == ["threshold", "far", "tpr", "eer", "auc", "n_genuine", "n_impostor"]
    # each curve carries its own axes: the DET the FRR in place of the TPR
    det = curves.det(example)
    assert list(det.data_vars) == ["threshold", "far", "frr", "eer", "auc", "n_genuine", "n_impostor"]
    assert ds.system.values.tolist() == ["cnn", "cnn_aug", "gmm", "lbp"]
    assert ds.attrs["kind"] == "roc" and ds.attrs["orientation"] == "similarity"
    assert ds.attrs["pandas_biosig_version"] == pbs.__version__
    for name, var in ds.variables.items():
        if name in ("system", "split"):
            continue
        assert {"long_name", "units"} <= set(var.attrs), name
    assert ds.far.attrs["units"] == "1" and ds.threshold.attrs["units"] == "score"
    # summaries agree with the per-system frames
    s = pbs.summary(example)
    np.testing.assert_allclose(ds.eer.values.ravel(), s.eer_rocch, rtol=0, atol=0)
    np.testing.assert_allclose(ds.auc.values.ravel(), s.auc, rtol=0, atol=0)
    assert ds.n_genuine.values.ravel().tolist() == s.n_genuine.tolist()


def test_roc_ragged_curves_are_nan_padded(example):
    ds = curves.roc(example)
    lengths = ds.far.notnull().sum("point")
    assert int(lengths.max()) == ds.sizes["point"] and int(lengths.min()) < ds.sizes["point"]
    for system in ds.system.values:
        for split in ds.split.values:
            far = ds.far.sel(system=system, split=split).values
            n = int(lengths.sel(system=system, split=split))
            assert not np.isnan(far[:n]).any() and np.isnan(far[n:]).all()
            assert far[0] == 1.0 and far[n - 1] == 0.0  # accept-all ... reject-all
            thr = ds.threshold.sel(system=system, split=split).values[:n]
            assert np.all(np.diff(thr) > 0)  # increasing threshold


def test_by_columns_become_dims_and_absent_groups_are_empty(example):
    df = example.assign(site=np.where(example.trial % 2 == 0, "a", "b"))
    df = df[~((df.system == "lbp") & (df.site == "b"))]
    ds = curves.roc(df, by="site")
    assert ds.far.dims == ("site", "system", "split", "point")
    assert int(ds.n_genuine.sel(site="b", system="lbp", split="dev")) == 0
    assert ds.far.sel(site="b", system="lbp").isnull().all()
    assert np.isnan(float(ds.eer.sel(site="b", system="lbp", split="dev")))
    one_group = curves.roc(df[(df.site == "a") & (df.system == "gmm") & (df.split == "dev")])
    np.testing.assert_array_equal(
        one(ds, "tpr", site="a", system="gmm", split="dev"), one(one_group, "tpr")
    )


def test_no_split_column_means_no_split_dim():
    ds = curves.roc(table([0.1, 0.3], [0.2, 0.9]))
    assert ds.far.dims == ("system", "point")
    # distinct scores 0.1 (i), 0.2 (g), 0.3 (i), 0.9 (g), then reject-all
    assert one(ds, "far").tolist() == [1.0, 0.5, 0.5, 0.0, 0.0]
    assert one(ds, "tpr").tolist() == [1.0, 1.0, 0.5, 0.5, 0.0]
    assert one(curves.det(table([0.1, 0.3], [0.2, 0.9])), "frr").tolist() == [0.0, 0.0, 0.5, 0.5, 1.0]
    np.testing.assert_allclose(one(ds, "threshold")[:-1], [0.1, 0.15, 0.25, 0.6])


def test_far_grid_at_most_rule(example):
    grid = [0.0, 0.001, 0.01, 0.1, 0.5, 1.0]
    ds = curves.det(example, far_grid=grid)
    assert ds.far.dims == ("point",) and ds.far.values.tolist() == grid
    assert "far" not in ds.data_vars and ds.frr.dims == ("system", "split", "point")
    r = curves.roc(example, far_grid=grid)
    assert "frr" not in r and r.tpr.dims == ("system", "split", "point")
    np.testing.assert_array_equal(r.threshold.values, ds.threshold.values)
    np.testing.assert_allclose(r.tpr.values, 1 - ds.frr.values, rtol=0, atol=1e-15)
    s = pbs.summary(example)
    np.testing.assert_array_equal(ds.frr.sel(point=0).values.ravel(), s.zero_fmr)
    np.testing.assert_array_equal(ds.frr.sel(point=2).values.ravel(), s.fmr100)
    np.testing.assert_array_equal(ds.frr.sel(point=1).values.ravel(), s.fmr1000)
    # the threshold reaches the reported FRR with a FAR at most the grid value
    er = pbs.error_rates(example, threshold=ds.threshold.sel(point=3, split="eval").to_series().to_dict())
    er = er[er.split == "eval"]
    assert np.all(er.far.to_numpy() <= 0.1)
    np.testing.assert_array_equal(er.frr, ds.frr.sel(point=3, split="eval").values)


def _no_attrs(ds):
    """``ds.drop_attrs()`` (xarray >= 2024.9) in every supported xarray: no attrs on the
    dataset, its variables or its coordinates."""
    ds = ds.copy()
    ds.attrs = {}
    for name in [*ds.variables]:
        ds[name].attrs = {}
    return ds


def test_det_is_the_roc_with_ppndf_axes(example):
    r, d = curves.roc(example), curves.det(example)
    assert d.attrs["kind"] == "det"
    xr.testing.assert_identical(_no_attrs(r.drop_vars("tpr")), _no_attrs(d.drop_vars("frr")))
    np.testing.assert_allclose(d.frr.values, 1 - r.tpr.values, rtol=0, atol=1e-15)
    grid = curves.det_grid(50)
    assert grid[0] == pytest.approx(1e-4) and grid[-1] == 1.0 and np.all(np.diff(grid) > 0)
    g = curves.det(example, far_grid=grid)
    z = curves.ppndf(g.frr)
    assert isinstance(z, xr.DataArray) and z.dims == g.frr.dims
    np.testing.assert_array_equal(z.values, curves.ppndf(g.frr.values))


def test_rocch_vertices(trials_tiny):
    ds = curves.rocch(trials_tiny)
    # tests/reference_data.py: vertices (1, 0), (0.8, 0), (0.2, 0.25), (0, 0.5), (0, 1)
    np.testing.assert_allclose(one(ds, "far"), [1, 0.8, 0.2, 0, 0])
    np.testing.assert_allclose(one(ds, "frr"), [0, 0, 0.25, 0.5, 1])
    np.testing.assert_allclose(one(ds, "threshold")[:-1], [0.1, 0.2, 0.55, 0.75])
    assert ds.eer.item() == pytest.approx(4 / 17)
    assert ds.attrs["kind"] == "rocch"


def test_rocch_vertices_lie_on_the_roc(example):
    hull, r = curves.rocch(example), curves.det(example)
    for system in hull.system.values:
        for split in hull.split.values:
            sel = dict(system=system, split=split)
            thr = one(hull, "threshold", **sel)
            points = dict(zip(one(r, "threshold", **sel), zip(one(r, "far", **sel), one(r, "frr", **sel), strict=True), strict=True))
            for t, fa, fr in zip(thr, one(hull, "far", **sel), one(hull, "frr", **sel), strict=True):
                assert points[t] == (fa, fr)


# ---------------------------------------------------------------- scikit-learn oracle
def _assert_matches_sklearn_roc(ds, y, s):
    fpr, tpr, thr = sklearn_metrics.roc_curve(y, s, drop_intermediate=False)
    assert np.isinf(thr[0])  # sklearn's extra (0, 0) point at +inf is our reject-all
    genuine = np.asarray(y, dtype=bool)
    det = curves.det(table(s[~genuine], s[genuine]))
    far, frr, ours_tpr = one(ds, "far"), one(det, "frr"), one(ds, "tpr")
    np.testing.assert_array_equal(one(det, "far"), far)
    np.testing.assert_array_equal(far, fpr[::-1])
    np.testing.assert_array_equal(ours_tpr, tpr[::-1])
    np.testing.assert_allclose(frr, 1 - tpr[::-1], rtol=0, atol=1e-15)
    # each of our points (but reject-all) sits at a distinct score, sklearn's threshold
    np.testing.assert_array_equal(np.unique(s), thr[1:][::-1])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("decimals", [0, 1, 3])
def test_roc_vs_sklearn_roc_curve_with_ties(seed, decimals):
    y, s = random_trials(seed, decimals=decimals)
    ds = curves.roc(table(s[~y], s[y]))
    order = np.r_[np.flatnonzero(~y), np.flatnonzero(y)]
    _assert_matches_sklearn_roc(ds, y[order], s[order])
    assert ds.auc.item() == pytest.approx(sklearn_metrics.roc_auc_score(y, s), abs=1e-12)


def test_roc_vs_sklearn_on_iris():
    df = iris_table()
    ds = curves.roc(df)
    _assert_matches_sklearn_roc(ds, df.label.to_numpy(), df.score.to_numpy())
    assert ds.sizes["point"] == np.unique(df.score).size + 1


@pytest.mark.parametrize("seed", range(4))
def test_det_vs_sklearn_det_curve(seed):
    iris = iris_table()
    y, s = random_trials(seed)
    for yy, ss in ((y, s), (iris.label.to_numpy() == 1, iris.score.to_numpy())):
        ds = curves.det(table(ss[~yy], ss[yy]))
        far, frr = one(ds, "far"), one(ds, "frr")
        fpr, fnr, thr = sklearn_metrics.det_curve(yy, ss)
        assert len(thr) > 2
        # sklearn's thresholds are distinct scores (inf: reject-all); our point i is the
        # one at the i-th distinct score (its threshold is bob.measure's midpoint below it)
        i = np.searchsorted(np.unique(ss), thr)
        np.testing.assert_array_equal(far[i], fpr)
        np.testing.assert_array_equal(frr[i], fnr)


# ------------------------------------------------------------------------------- EPC
def test_epc_bob_reference_on_iris():
    ds = epc(iris_epc_table(), weight=np.linspace(0, 1, 100))
    assert ds.threshold.dims == ("system", "weight")
    for i, (thr, hter) in {0: (4.85, 0.36), 50: (5.45, 0.10), 99: (5.85, 0.30)}.items():
        point = ds.isel(system=0, weight=i)
        assert float(point.threshold) == pytest.approx(thr, abs=1e-12)
        assert float(point.hter) == pytest.approx(hter, abs=1e-12)
    assert float(ds.weight[50]) == np.linspace(0, 1, 100)[50]


def test_epc_layout_and_agreement_with_error_rates(example):
    ds = epc(example)
    assert dict(ds.sizes) == {"system": 4, "weight": 101}
    assert ds.weight.values.tolist() == np.linspace(0, 1, 101).tolist()
    assert list(ds.data_vars) == [
        "threshold", "far", "frr", "hter", "value", "area", "area_hter", "eer", "n_genuine", "n_impostor",
    ]
    assert ds.attrs["criterion"] == "min_weighted" and ds.attrs["kind"] == "epc"
    assert (ds.attrs["on"], ds.attrs["apply_to"]) == ("dev", "eval")
    assert str(ds.split.values) == "eval" and str(ds.threshold_split.values) == "dev"
    for w in (0.0, 0.25, 0.5, 0.9, 1.0):
        er = pbs.error_rates(example, threshold="min_weighted", weight=w, on="dev", apply_to="eval")
        sel = ds.sel(weight=w)
        np.testing.assert_array_equal(sel.threshold.values, er.threshold)
        np.testing.assert_array_equal(sel.far.values, er.far)
        np.testing.assert_array_equal(sel.frr.values, er.frr)
        np.testing.assert_allclose(sel.value.values, w * er.far + (1 - w) * er.frr, rtol=0, atol=1e-16)
    np.testing.assert_allclose(ds.area.values, ds.value.mean("weight").values)
    np.testing.assert_allclose(ds.area_hter.values, ds.hter.mean("weight").values)
    np.testing.assert_array_equal(
        ds.eer.values, pbs.eer(example, method="rocch").query("split == 'eval'").eer
    )
    for name, var in ds.variables.items():
        if name != "system":
            assert {"long_name", "units"} <= set(var.attrs), name


@pytest.mark.parametrize("criterion", ["precision_recall", "far", "frr"])
def test_epc_other_criteria(example, criterion):
    ds = epc(example, criterion=criterion, weight=[0.0, 0.01, 0.1, 0.5, 1.0])
    assert ds.attrs["criterion"] == criterion
    dev = example[(example.split == "dev") & (example.system == "gmm")]
    ev = example[(example.split == "eval") & (example.system == "gmm")]
    sw_dev = Sweep(dev.score[dev.label == "impostor"], dev.score[dev.label == "genuine"])
    sw_ev = Sweep(ev.score[ev.label == "impostor"], ev.score[ev.label == "genuine"])
    from pandas_biosig._kernels.curves import epc_values, select_thresholds

    thr = select_thresholds(sw_dev, ds.weight.values, criterion)
    np.testing.assert_array_equal(ds.threshold.sel(system="gmm").values, thr)
    fa, fr = sw_ev.rates_at_threshold(thr)
    expected = epc_values(fa, fr, sw_ev.n, sw_ev.p, ds.weight.values, criterion)[3]
    np.testing.assert_array_equal(ds.value.sel(system="gmm").values, expected)
    if criterion == "far":  # |a - FAR| on dev: the dev FAR is the nearest reachable one
        far_dev = sw_dev.rates_at_threshold(thr)[0] / sw_dev.n
        assert np.all(np.abs(far_dev - ds.weight.values) <= 1 / sw_dev.n)
    if criterion == "precision_recall":
        tp = sw_ev.p - fr
        np.testing.assert_allclose(ds.value.sel(system="gmm").values, 2 * tp / (2 * tp + fa + fr))


def test_epc_distance_orientation(example):
    a = epc(example)
    b = epc(example.assign(score=-example.score), orientation="distance")
    for name in ("far", "frr", "hter", "value", "area"):
        np.testing.assert_array_equal(a[name].values, b[name].values)
    np.testing.assert_array_equal(a.threshold.values, -b.threshold.values)
    assert b.attrs["orientation"] == "distance"
    assert "<=" in b.threshold.attrs["long_name"]


def test_epc_by_groups(example):
    df = example.assign(site=np.where(example.trial % 2 == 0, "a", "b"))
    ds = epc(df, by="site")
    assert ds.threshold.dims == ("site", "system", "weight")
    single = epc(df[df.site == "b"])
    np.testing.assert_array_equal(ds.hter.sel(site="b").values, single.hter.values)


@SETTINGS
@given(scores, scores)
def test_epc_on_the_split_itself_at_half_weight_is_min_hter(neg, pos):
    df = table(neg, pos, split="test")
    ds = epc(df, weight=[0.5], on="test", apply_to="test")
    s = pbs.summary(df)
    assert float(ds.hter[0, 0]) == s.min_hter[0]
    assert float(ds.value[0, 0]) == pytest.approx(s.min_hter[0], abs=1e-16)


@SETTINGS
@given(
    st.lists(st.floats(-100, 100, allow_subnormal=False), min_size=2, max_size=40, unique=True),
    st.data(),
)
def test_epc_eq18_relation_to_auc(values, data):
    """Seed 004 eq. 18, exactly for a finite sample: with the thresholds chosen on the test
    split itself and tie-free scores, over the midpoint grid a_k = (2k + 1) / (2M) (M a
    multiple of 2n and 2p, so no a falls halfway between two reachable rates),

        E_far[HTER] = (1/2 + A - ZeroFMR / (2n)) / 2,  E_frr[HTER] = (1/2 + A - ZeroFNMR / (2p)) / 2,

    A = 1 - AUC the area under the (FAR, FRR) curve; so their average is (A + 1/2) / 2 up
    to the O(1/N) end terms, the paper's eq. 18."""
    n = data.draw(st.integers(1, len(values) - 1))
    neg, pos = np.array(values[:n]), np.array(values[n:])
    p = pos.size
    df = table(neg, pos, split="test")
    m = lcm(2 * n, 2 * p)
    a = (2 * np.arange(m) + 1) / (2 * m)
    far = epc(df, criterion="far", weight=a, on="test", apply_to="test")
    frr = epc(df, criterion="frr", weight=a, on="test", apply_to="test")
    s = pbs.summary(df)
    area = 1 - s.auc[0]
    e_far, e_frr = float(far.area_hter[0]), float(frr.area_hter[0])
    assert e_far == pytest.approx((0.5 + area - s.zero_fmr[0] / (2 * n)) / 2, abs=1e-12)
    assert e_frr == pytest.approx((0.5 + area - s.zero_fnmr[0] / (2 * p)) / 2, abs=1e-12)
    # the targeted rate is reached on average: the mean FAR of the target-FAR curve is 1/2
    assert float(far.area[0]) == pytest.approx(0.5, abs=1e-12)
    g = (e_far + e_frr) / 2
    assert g == pytest.approx((area + 0.5) / 2, abs=1 / (4 * n) + 1 / (4 * p))


# ---------------------------------------------------------------------- Bayes error
def test_bayes_error_layout(example):
    ds = curves.bayes_error(example)
    assert ds.min_ber.dims == ("system", "split", "prior_log_odds")
    assert ds.prior_log_odds.values.tolist() == np.linspace(-7, 7, 141).tolist()
    np.testing.assert_allclose(ds.prior.values, 1 / (1 + np.exp(-ds.prior_log_odds.values)))
    assert bool((ds.min_ber <= ds.default_ber + 1e-15).all())
    assert bool((ds.min_ber <= ds.act_ber + 1e-15).all())
    # act_ber at prior log odds 0 is the HTER at threshold 0
    er = pbs.error_rates(example, threshold=0.0)
    np.testing.assert_allclose(ds.act_ber.sel(prior_log_odds=0).values.ravel(), er.hter, atol=1e-16)
    # and min_ber at even odds is the min HTER
    np.testing.assert_allclose(
        ds.min_ber.sel(prior_log_odds=0).values.ravel(), pbs.summary(example).min_hter, atol=1e-16
    )


def test_bayes_error_distance_has_no_actual_curve(example):
    a = curves.bayes_error(example)
    b = curves.bayes_error(example.assign(score=-example.score), orientation="distance")
    assert b.act_ber.isnull().all() and "note" in b.act_ber.attrs
    np.testing.assert_array_equal(a.min_ber.values, b.min_ber.values)


def _hull_prior_log_odds(neg, pos):
    """For each non-degenerate hull segment, the prior log odds at which it is optimal
    (pi * FRR + (1 - pi) * FAR is constant along it)."""
    pfa, pmiss = Sweep(neg, pos).rocch()
    dfa, dmiss = -np.diff(pfa), np.diff(pmiss)
    ok = (dfa > 0) & (dmiss > 0)
    return np.log(dfa[ok] / dmiss[ok])


@SETTINGS
@given(scores, scores)
def test_max_bayes_error_is_the_rocch_eer(neg, pos):
    """Seed 002: EER (ROCCH) = max over priors of the minimum Bayes error rate, attained at
    the prior of the hull segment that crosses FAR = FRR."""
    plo = np.r_[np.linspace(-7, 7, 29), _hull_prior_log_odds(neg, pos)]
    ds = curves.bayes_error(table(neg, pos), prior_log_odds=np.sort(plo))
    assert float(ds.min_ber.max()) == pytest.approx(ds.eer.item(), abs=1e-12)
    # and no prior of a finer grid exceeds it (BER is concave, the hull's max is global)
    fine = curves.bayes_error(table(neg, pos), prior_log_odds=np.linspace(-12, 12, 601))
    assert float(fine.min_ber.max()) <= ds.eer.item() + 1e-12


# ----------------------------------------------------------------------- invariants
@SETTINGS
@given(scores, scores)
def test_far_nonincreasing_frr_nondecreasing_along_points(neg, pos):
    ds = curves.det(table(neg, pos))
    far, frr = one(ds, "far"), one(ds, "frr")
    tpr = one(curves.roc(table(neg, pos)), "tpr")
    assert np.all(np.diff(tpr) <= 0) and (tpr[0], tpr[-1]) == (1.0, 0.0)
    assert np.all(np.diff(far) <= 0) and np.all(np.diff(frr) >= 0)
    assert (far[0], frr[-1]) == (1.0, 1.0) and (far[-1], frr[0]) == (0.0, 0.0)
    assert np.all(np.diff(one(ds, "threshold")) > 0)


@SETTINGS
@given(scores, scores, st.randoms(use_true_random=False))
def test_curves_invariant_under_increasing_transform_and_shuffles(neg, pos, rnd):
    df = table(neg, pos)
    shuffled = df.sample(frac=1, random_state=rnd.randint(0, 2**31)).reset_index(drop=True)
    moved = df.assign(score=np.exp(df.score / 2) * 3 + 1)
    a = curves.roc(df)
    for other in (curves.roc(shuffled), curves.roc(moved)):
        for name in ("far", "tpr", "eer", "auc"):
            np.testing.assert_array_equal(a[name].values, other[name].values)
    xr.testing.assert_identical(a, curves.roc(shuffled))
    np.testing.assert_array_equal(curves.det(df).frr.values, curves.det(moved).frr.values)
    xr.testing.assert_identical(curves.det(df), curves.det(shuffled))
    xr.testing.assert_identical(curves.rocch(df), curves.rocch(shuffled))
    np.testing.assert_array_equal(
        curves.bayes_error(df).min_ber.values, curves.bayes_error(moved).min_ber.values
    )
    e = epc(df.assign(split="t"), on="t", apply_to="t")
    e2 = epc(moved.assign(split="t"), on="t", apply_to="t")
    for name in ("far", "frr", "hter", "value"):
        np.testing.assert_array_equal(e[name].values, e2[name].values)


@SETTINGS
@given(scores, scores)
def test_distance_orientation_negates_thresholds_only(neg, pos):
    df = table(neg, pos)
    a = curves.roc(df)
    b = curves.roc(df.assign(score=-df.score), orientation="distance")
    for name in ("far", "tpr", "eer", "auc"):
        np.testing.assert_array_equal(a[name].values, b[name].values)
    d = curves.det(df.assign(score=-df.score), orientation="distance")
    np.testing.assert_array_equal(curves.det(df).frr.values, d.frr.values)
    np.testing.assert_array_equal(a.threshold.values, -b.threshold.values)
    h = curves.rocch(df.assign(score=-df.score), orientation="distance")
    np.testing.assert_array_equal(curves.rocch(df).threshold.values, -h.threshold.values)


def test_failures_to_acquire_leave_the_curves_to_the_acquired_scores():
    # bob.measure draws ROC/DET from the acquired scores (FMR/FNMR): no FRR floor at the
    # FTA rate, and a hull that starts where a threshold can reach
    df = table([0.1, 0.5, np.nan], [0.4, 0.9, np.nan, np.inf])
    ds = curves.det(df, nonfinite="reject")
    acquired = curves.det(df, nonfinite="drop")
    far, frr = one(ds, "far"), one(ds, "frr")
    assert (far[0], frr[0]) == (1.0, 0.0)
    assert (far[-1], frr[-1]) == (0.0, 1.0)
    for name in ("far", "frr", "threshold", "eer", "auc"):
        np.testing.assert_array_equal(ds[name].values, acquired[name].values)
    hull = curves.rocch(df, nonfinite="reject")
    assert (one(hull, "far")[0], one(hull, "frr")[0]) == (1.0, 0.0)
    assert not np.isnan(hull.threshold.values[0, 0])


# ----------------------------------------------------------------------- bad input
def test_epc_without_a_split_column():
    """on="auto" without splits: the thresholds come from the reported trials, labelled
    so; a split named by on= needs a split column."""
    df = iris_table()
    ds = epc(df)
    assert ds.threshold_from.item() == "same trials"
    same = epc(df.assign(split="test"), on="test", apply_to="test")
    np.testing.assert_array_equal(ds.hter.values, same.hter.values)
    with pytest.raises(SchemaError, match="needs a split column") as err:
        epc(df, on="dev")
    assert str(err.value) == ERROR_NO_SPLIT.format(
        name="on", value="dev", column="split", found=list(df.columns)
    )


def test_epc_unknown_split_value_and_missing_dev_system(example):
    with pytest.raises(SchemaError, match="test"):
        epc(example, on="test")
    df = example[~((example.system == "lbp") & (example.split == "dev"))]
    with pytest.raises(SchemaError, match="lbp"):
        epc(df)
    with pytest.raises(ValueError, match="one split value"):
        epc(example, apply_to=["eval", "dev"])


def test_epc_unknown_criterion(example):
    with pytest.raises(ValueError) as err:
        epc(example, criterion="hter")
    assert str(err.value) == ERROR_OPTION.format(
        name="criterion", value="hter", allowed=list(EPC_CRITERIA)
    )


@pytest.mark.parametrize("bad", [[0.5, 1.5], [-0.1], [np.nan], [], [[0.1, 0.2]], "abc"])
def test_grids_outside_unit_interval(example, bad):
    with pytest.raises(ValueError) as e1:
        epc(example, weight=bad)
    with pytest.raises(ValueError) as e2:
        curves.roc(example, far_grid=bad)
    for err, name in ((e1, "weight"), (e2, "far_grid")):
        assert str(err.value).startswith(name)
    if isinstance(bad, list) and len(bad) == 1 and np.ndim(bad) == 1:
        assert str(e1.value) == ERROR_GRID_RANGE.format(name="weight", bad=bad)


def test_bad_prior_log_odds_and_det_grid(example):
    with pytest.raises(ValueError) as err:
        curves.bayes_error(example, prior_log_odds=[0.0, np.nan])
    from pandas_biosig._core.curve_datasets import ERROR_PRIOR_LOG_ODDS

    assert str(err.value) == ERROR_PRIOR_LOG_ODDS.format(positions=[1])
    with pytest.raises(ValueError, match="prior_log_odds must be a non-empty"):
        curves.bayes_error(example, prior_log_odds=[])
    for kwargs in ({"n": 1}, {"low": 0.0}, {"low": 0.5, "high": 0.1}, {"high": 2.0}):
        with pytest.raises(ValueError) as err:
            curves.det_grid(**kwargs)
        assert str(err.value).startswith("det_grid needs")


def test_keyword_only_signatures():
    import inspect

    for f in (curves.roc, curves.det, curves.rocch, epc, curves.bayes_error):
        params = list(inspect.signature(f).parameters.values())
        assert params[0].kind is inspect.Parameter.POSITIONAL_ONLY
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:])
        names = [p.name for p in params]
        assert names[-9:] == ["by", "system", "trial", "label", "score", "split", "orientation",
                             "nonfinite", "count"]


# ---------------------------------------------------------------------- netCDF
@pytest.mark.parametrize(
    "make",
    [
        lambda df: curves.roc(df),
        lambda df: curves.roc(df, far_grid=curves.det_grid(20)),
        lambda df: curves.det(df, by="site"),
        lambda df: curves.rocch(df),
        lambda df: epc(df, criterion="far"),
        lambda df: curves.bayes_error(df, orientation="distance"),
    ],
    ids=["roc", "roc_grid", "det_by", "rocch", "epc", "bayes_error"],
)
def test_netcdf_round_trip(example, make):
    pytest.importorskip("scipy.io")
    df = example.assign(site=np.where(example.trial % 3 == 0, "a", "b"))
    ds = make(df)
    for var in ds.variables.values():
        assert var.dtype != object or var.dims in ((), (var.dims[0],)) and var.dims[0] in ds.dims
        for v in var.attrs.values():
            assert isinstance(v, str | int | float)
    raw = ds.to_netcdf(engine="scipy")
    back = xr.open_dataset(io.BytesIO(bytes(raw)), engine="scipy").load()
    xr.testing.assert_identical(ds, back)


@pytest.mark.parametrize("grid", [[], [[0.1, 0.2]], ["a"]])
def test_far_grid_must_be_a_1d_array_of_numbers(example, grid):
    import re

    from pandas_biosig._core.curve_datasets import ERROR_GRID_SHAPE

    prefix = ERROR_GRID_SHAPE.split("{value!r}")[0].format(name="far_grid")
    with pytest.raises(ValueError, match=re.escape(prefix)):
        curves.roc(example, far_grid=grid)


def test_epc_weight_may_be_a_number(example):
    one = epc(example, weight=0.5)
    assert one.equals(epc(example, weight=[0.5]))
    assert one.sizes["weight"] == 1


@pytest.mark.parametrize("kind", ["det", "roc"])
def test_many_groups_equal_each_group_alone(kind):
    """With many groups the hull EER and the AUC come from the segmented engine's
    vectorised passes (a group too large for it from its own sweep): every group's
    Dataset equals that of its trials alone, to the bit, with ties and splits."""
    rng = np.random.default_rng(8)
    sizes = np.r_[rng.integers(4, 60, 40), 70_000]  # the last one past SMALL_GROUP
    grp = np.repeat(np.arange(sizes.size), sizes)
    n = grp.size
    within = np.arange(n) - np.repeat(np.r_[0, np.cumsum(sizes)[:-1]], sizes)
    genuine = np.where(within < 4, within < 2, rng.random(n) < 0.3)  # both classes ...
    df = pd.DataFrame({"system": "s", "site": grp, "trial": np.arange(n), "label": genuine,
                       "score": np.round(rng.normal(genuine * 2.0, 1.0), 1),
                       "split": np.where(within % 2 == 0, "dev", "eval")})  # ... per split
    ds = getattr(curves, kind)(df, by="site")
    for g in (0, 7, 39, 40):
        alone = getattr(curves, kind)(df[df["site"] == g])
        for var in ("eer", "auc", "n_genuine"):
            np.testing.assert_array_equal(ds[var].sel(site=g).values, alone[var].values)
        for split in ("dev", "eval"):
            m = alone.sizes["point"]
            axis = "frr" if kind == "det" else "tpr"
            np.testing.assert_array_equal(
                ds[axis].sel(site=g, split=split, system="s").values[:m],
                alone[axis].sel(split=split, system="s").values)
