"""Demographic differentials: hand-counted toy tables, the FDR authors' published example,
oracles (statsmodels), parity with the accessor, errors, and the validity claim."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig._core.schema import SchemaError
from pandas_biosig._kernels import fairness as kf

# ----------------------------------------------------------------------------- the toy
# One system, no split, no subject (so intervals are Wilson). Fixed threshold 0.5: a trial
# is accepted iff score >= 0.5.
#
# group X: genuine 0.9 0.8 0.4 0.7            -> 1 false non-match of 4  (FNMR 0.25)
#          same-group impostors 0.6 0.1 0.2 0.3 0.55 -> 2 false matches of 5 (FMR 0.4)
#          cross: X->Y 0.7 (accepted), X->Z 0.1
# group Y: genuine 0.9 0.6                    -> 0 of 2                  (FNMR 0)
#          same-group impostors 0.1 0.2 0.6 0.3      -> 1 of 4           (FMR 0.25)
#          cross: Y->X 0.2
# group Z: genuine 0.3 0.2 0.8 0.9 0.7        -> 2 of 5                  (FNMR 0.4)
#          same-group impostors 0.1 ... 0.9, 0.05 (10) -> 0.5 0.6 0.7 0.8 0.9: 5 of 10 (0.5)
#          cross: Z->X 0.8 (accepted)
#
# impostors="all": X 3 of 7, Y 1 of 5, Z 6 of 11.
# Figures of merit (same_group, weight 0.5):
#   FMR  (0.4, 0.25, 0.5):  max 0.5 (Z), min 0.25 (Y), ratio 2, spread 0.25
#   FNMR (0.25, 0, 0.4):    max 0.4 (Z), min 0 (Y), ratio undefined, spread 0.4
#   FDR = 1 - (0.5 * 0.25 + 0.5 * 0.4) = 0.675
#   Gini FMR: mean 1.15/3; sum over ordered pairs |xi - xj| = 2 (0.15 + 0.1 + 0.25) = 1.0;
#             G = 3/2 * 1.0 / (2 * 9 * 1.15/3) = 1.5 / 6.9
#   Gini FNMR: mean 0.65/3; ordered-pair sum 2 (0.25 + 0.15 + 0.4) = 1.6;
#             G = 3/2 * 1.6 / (2 * 9 * 0.65/3) = 2.4 / 3.9
#   GARBE = (1.5/6.9 + 2.4/3.9) / 2
#   inequity rate: NaN (min FNMR is 0); with weight 1 it is the FMR ratio, 2.
# Cross-group FMR (rows probe group, columns reference group):
#   X: 2/5, 1/1, 0/1    Y: 0/1, 1/4, none    Z: 1/1, none, 5/10

_TOY = [
    # group, reference_group, label, score
    *[("X", "X", "genuine", s) for s in (0.9, 0.8, 0.4, 0.7)],
    *[("X", "X", "impostor", s) for s in (0.6, 0.1, 0.2, 0.3, 0.55)],
    ("X", "Y", "impostor", 0.7),
    ("X", "Z", "impostor", 0.1),
    *[("Y", "Y", "genuine", s) for s in (0.9, 0.6)],
    *[("Y", "Y", "impostor", s) for s in (0.1, 0.2, 0.6, 0.3)],
    ("Y", "X", "impostor", 0.2),
    *[("Z", "Z", "genuine", s) for s in (0.3, 0.2, 0.8, 0.9, 0.7)],
    *[("Z", "Z", "impostor", s) for s in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.05)],
    ("Z", "X", "impostor", 0.8),
]


def toy(system="toy") -> pd.DataFrame:
    g, r, lab, s = zip(*_TOY, strict=True)
    return pd.DataFrame({"system": system, "trial": np.arange(len(_TOY)), "label": lab,
                         "score": s, "group": g, "reference_group": r})


G_FMR = 1.5 / 6.9
G_FNMR = 2.4 / 3.9


def test_group_rates_hand_counted():
    r = pbs.group_rates(toy(), threshold=0.5)
    assert list(r.columns) == GROUP_RATE_COLUMNS
    assert r.group.tolist() == ["X", "Y", "Z"]
    assert r.n_genuine.tolist() == [4, 2, 5]
    assert r.n_impostor.tolist() == [5, 4, 10]
    assert r.fa.tolist() == [2, 1, 5]
    assert r.fr.tolist() == [1, 0, 2]
    np.testing.assert_allclose(r.fmr, [0.4, 0.25, 0.5])
    np.testing.assert_allclose(r.fnmr, [0.25, 0.0, 0.4])
    assert r.criterion.eq("fixed").all() and r.threshold.eq(0.5).all()
    assert r.threshold_split.isna().all() and r.target.isna().all()
    assert r.impostors.eq("same_group").all() and r.ci_method.eq("wilson").all()
    assert r.n_subjects.isna().all() and r.confidence_level.eq(0.95).all()


def test_group_rates_all_impostors_hand_counted():
    r = pbs.group_rates(toy(), threshold=0.5, impostors="all")
    assert r.n_impostor.tolist() == [7, 5, 11]
    assert r.fa.tolist() == [3, 1, 6]
    assert r.impostors.eq("all").all()
    assert r.fr.tolist() == [1, 0, 2]  # genuine trials never change


def test_group_rate_intervals_are_wilson():
    from statsmodels.stats.proportion import proportion_confint

    r = pbs.group_rates(toy(), threshold=0.5, confidence_level=0.9)
    for row in r.itertuples():
        for k, n, lo, hi in ((row.fa, row.n_impostor, row.fmr_low, row.fmr_high),
                             (row.fr, row.n_genuine, row.fnmr_low, row.fnmr_high)):
            elo, ehi = proportion_confint(k, n, alpha=0.1, method="wilson")
            assert lo == pytest.approx(0.0 if k == 0 else elo)
            assert hi == pytest.approx(1.0 if k == n else ehi)


def test_cross_group_fmr_hand_counted():
    ds = pbs.cross_group_fmr(toy(), threshold=0.5)
    m = ds.fmr.sel(system="toy").squeeze("split")
    assert ds.fa.sel(system="toy").squeeze("split").values.tolist() == [[2, 1, 0], [0, 1, 0],
                                                                        [1, 0, 5]]
    assert ds.n_impostor.sel(system="toy").squeeze("split").values.tolist() == [
        [5, 1, 1], [1, 4, 0], [1, 0, 10]]
    np.testing.assert_allclose(m.values, [[0.4, 1.0, 0.0], [0.0, 0.25, np.nan],
                                          [1.0, np.nan, 0.5]])
    assert ds.attrs["kind"] == "cross_group_fmr"
    assert str(ds.impostors.values) == "same_group"
    assert float(ds.threshold.squeeze()) == 0.5


def test_fairness_hand_computed():
    f = pbs.fairness(toy(), threshold=0.5)
    assert list(f.columns) == FAIRNESS_COLUMNS
    row = f.iloc[0]
    assert row.n_groups == 3
    assert (row.fmr_max, row.fmr_max_group, row.fmr_min, row.fmr_min_group) == (0.5, "Z", 0.25, "Y")
    assert row.fmr_ratio == pytest.approx(2.0)
    assert (row.fnmr_max, row.fnmr_max_group, row.fnmr_min, row.fnmr_min_group) == (0.4, "Z", 0.0, "Y")
    assert math.isnan(row.fnmr_ratio)
    assert row.fdr == pytest.approx(0.675)
    assert row.gini_fmr == pytest.approx(G_FMR)
    assert row.gini_fnmr == pytest.approx(G_FNMR)
    assert row.garbe == pytest.approx((G_FMR + G_FNMR) / 2)
    assert math.isnan(row.inequity_rate)
    assert row.undefined_reason == "min FNMR is 0 (group 'Y'): the FNMR ratio is undefined"


def test_fairness_weight():
    f = pbs.fairness(toy(), threshold=0.5, weight=1.0).iloc[0]
    assert f.fdr == pytest.approx(0.75)  # 1 - FMR spread
    assert f.garbe == pytest.approx(G_FMR)
    assert f.inequity_rate == pytest.approx(2.0)  # the undefined FNMR ratio has exponent 0
    f = pbs.fairness(toy(), threshold=0.5, weight=0.25).iloc[0]
    assert f.fdr == pytest.approx(1 - (0.25 * 0.25 + 0.75 * 0.4))
    assert f.weight == 0.25


# ----------------------------------------------------------------------------- kernels
def test_kernel_values_by_hand():
    assert kf.gini([0.4, 0.25, 0.5]) == pytest.approx(G_FMR)
    assert kf.gini([0.0, 0.0, 1.0]) == pytest.approx(1.0)  # all errors in one group
    assert kf.gini([0.2, 0.2]) == 0.0
    assert math.isnan(kf.gini([0.0, 0.0])) and math.isnan(kf.gini([0.3]))
    assert kf.ratio([0.2, 0.05, 0.1]) == pytest.approx(4.0)
    assert math.isnan(kf.ratio([0.2, 0.0]))
    assert kf.inequity_rate([0.2, 0.05], [0.1, 0.4], 0.5) == pytest.approx(math.sqrt(4 * 4))
    assert kf.fdr([0.1, 0.3], [0.2, 0.25], 0.5) == pytest.approx(1 - (0.1 + 0.025))
    # vectorized over replicates (leading axis)
    np.testing.assert_allclose(kf.gini(np.array([[0.4, 0.25, 0.5], [0.2, 0.2, 0.2]])), [G_FMR, 0.0])


def test_gini_matches_the_mean_absolute_difference_formula():
    rng = np.random.default_rng(0)
    for n in (2, 3, 7):
        x = rng.uniform(0, 1, n)
        mad = np.mean([abs(a - b) for a, b in itertools.product(x, x)])
        assert kf.gini(x) == pytest.approx(n / (n - 1) * mad / (2 * x.mean()))


def test_area_scales():
    # a constant curve has its own value as area on either scale
    assert kf.area([0.8, 0.8, 0.8], [0.1, 0.01, 0.001], "linear") == pytest.approx(0.8)
    assert kf.area([0.8, 0.8, 0.8], [0.1, 0.01, 0.001], "log") == pytest.approx(0.8)
    # log: equal weights per decade; linear: the widest interval dominates
    assert kf.area([1.0, 0.0, 0.0], [0.1, 0.01, 0.001], "log") == pytest.approx(0.25)
    lin = (0.1 - 0.01) / (0.1 - 0.001) * 0.5
    assert kf.area([1.0, 0.0, 0.0], [0.1, 0.01, 0.001], "linear") == pytest.approx(lin)


# ----------------------------------------------------------------------------- published
# de Freitas Pereira & Marcel (2021), the authors' notebook "1.fair_unfair_example.ipynb" in
# github.com/tiagofrepereira2012/fdr (stored outputs): per-group FMR and FNMR of the
# synthetic unfair and fair systems at the thresholds of FMR 1e-1 ... 1e-6 on dev, the FDR
# row it prints (alpha = 0.5), and "AU-FDR from unfair system 0.638968396991188", "AU-FDR
# from fair system 0.999493051121444" computed by its fpr_auc_score (FMR axis rescaled to
# [0, 1], trapezoids). The printed rates are rounded to 4 decimals, the FDRs to 5.
_TARGETS = [0.1, 0.01, 0.001, 0.0001, 0.00001, 0.000001]
_UNFAIR_FMR = [[0.2142, 0.0256, 0.0024, 0.0002, 0, 0], [0.0155, 0, 0, 0, 0, 0],
               [0.0006, 0, 0, 0, 0, 0]]
_UNFAIR_FNMR = [[0, 0, 0, 0, 0, 0], [0, 0.006, 0.0876, 0.2471, 0.4596, 0.6482],
                [0.1835, 0.9614, 0.9935, 0.9981, 0.9992, 0.9999]]
_UNFAIR_FDR = [0.80145, 0.5065, 0.50205, 0.50085, 0.5004, 0.50005]
_FAIR_FMR = [[0.0804, 0.0084, 0.0008, 0.0001, 0, 0], [0.0821, 0.0085, 0.0008, 0.0001, 0, 0],
             [0.0804, 0.0086, 0.0008, 0, 0, 0]]
_FAIR_FNMR = [[0, 0, 0.0027, 0.0389, 0.186, 0.4577], [0, 0.0001, 0.0041, 0.0403, 0.191, 0.4599],
              [0, 0, 0.0044, 0.0415, 0.1756, 0.4346]]
_FAIR_FDR = [0.99915, 0.99985, 0.99915, 0.99865, 0.9923, 0.98735]


@pytest.mark.parametrize("fmr,fnmr,expected,au", [
    (_UNFAIR_FMR, _UNFAIR_FNMR, _UNFAIR_FDR, 0.638968396991188),
    (_FAIR_FMR, _FAIR_FNMR, _FAIR_FDR, 0.999493051121444),
])
def test_published_fdr_example(fmr, fnmr, expected, au):
    fdr = kf.fdr(np.array(fmr).T, np.array(fnmr).T, 0.5)  # targets on the leading axis
    np.testing.assert_allclose(fdr, expected, atol=1e-9)
    # the published area was computed from unrounded FDRs: agree to the rounding
    assert kf.area(fdr, _TARGETS, "linear") == pytest.approx(au, abs=1e-4)


# ----------------------------------------------------------------------------- thresholds
def _split_table():
    t = pbs.datasets.example_demographic_trials()
    return t


def test_global_threshold_is_error_rates_on_the_pooled_dev_trials():
    t = _split_table()
    r = pbs.group_rates(t, target=0.01)
    assert r.threshold_split.eq("dev").all() and r.split.eq("eval").all()
    counted = t[(t.label == "genuine") | (t.group == t.reference_group)]
    er = pbs.error_rates(counted, threshold="far", target=0.01, on="dev", apply_to="eval")
    expected = dict(zip(er.system, er.threshold, strict=True))
    for row in r.drop_duplicates("system").itertuples():
        assert row.threshold == pytest.approx(expected[row.system])
    # at the EER: bob.measure's criterion on the same trials
    r = pbs.group_rates(t, threshold="eer")
    er = pbs.error_rates(counted, threshold="eer", on="dev", apply_to="eval")
    assert r.drop_duplicates("system").threshold.tolist() == pytest.approx(er.threshold.tolist())
    assert r.target.isna().all() and r.criterion.eq("eer").all()


def test_global_threshold_depends_on_the_impostor_choice():
    t = _split_table()
    same = pbs.fairness(t, target=0.01).threshold
    every = pbs.fairness(t, target=0.01, impostors="all").threshold
    assert (same != every).any()


def test_on_none_is_a_posteriori_per_split():
    r = pbs.fairness(_split_table(), target=0.01, on=None)
    assert r.split.tolist() == ["dev", "eval"] * 3
    assert (r.threshold_split == r.split).all()


def test_group_counts_sum_to_the_pooled_counts():
    t = _split_table()
    r = pbs.group_rates(t, threshold=2.0)
    counted = t[((t.label == "genuine") | (t.group == t.reference_group)) & (t.split == "dev")]
    er = pbs.error_rates(counted, threshold=2.0, split=None)
    agg = r[r.split == "dev"].groupby("system", sort=False)[["fa", "fr"]].sum()
    assert agg.fa.tolist() == er.fa.tolist() and agg.fr.tolist() == er.fr.tolist()


def test_distance_orientation_mirrors_similarity():
    t = toy()
    d = t.assign(score=-t.score)
    a = pbs.group_rates(t, threshold=0.5)
    b = pbs.group_rates(d, threshold=-0.5, orientation="distance")
    assert a.fa.tolist() == b.fa.tolist() and a.fr.tolist() == b.fr.tolist()
    assert b.threshold.eq(-0.5).all()


# ----------------------------------------------------------------------------- tests
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_compare_groups_wilson_matches_statsmodels():
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.proportion import confint_proportions_2indep, test_proportions_2indep

    t = pbs.compare_groups(toy(), threshold=0.5)
    assert list(t.columns) == COMPARE_GROUPS_COLUMNS
    assert t[["metric", "group_a", "group_b"]].values.tolist() == [
        ["fmr", "X", "Y"], ["fmr", "X", "Z"], ["fmr", "Y", "Z"],
        ["fnmr", "X", "Y"], ["fnmr", "X", "Z"], ["fnmr", "Y", "Z"]]
    counts = {"X": (2, 5, 1, 4), "Y": (1, 4, 0, 2), "Z": (5, 10, 2, 5)}
    for row in t.itertuples():
        i = 0 if row.metric == "fmr" else 2
        ka, na = counts[row.group_a][i:i + 2]
        kb, nb = counts[row.group_b][i:i + 2]
        assert (row.n_a, row.n_b) == (na, nb)
        assert row.estimate == pytest.approx(ka / na - kb / nb)
        res = test_proportions_2indep(ka, na, kb, nb, method="score", compare="diff")
        assert row.pvalue == pytest.approx(res.pvalue)
        assert row.statistic == pytest.approx(res.statistic)
        assert (row.rate_a, row.rate_b) == pytest.approx((ka / na, kb / nb))
        lo, hi = confint_proportions_2indep(ka, na, kb, nb, method="newcomb", compare="diff")
        assert (row.ci_low, row.ci_high) == pytest.approx((lo, hi))
    _, p_adj, _, _ = multipletests(t.pvalue, method="holm")
    np.testing.assert_allclose(t.pvalue_adj, p_adj)
    assert t.adjust.eq("holm").all() and t.test.eq("wilson").all()
    assert t.alpha.eq(0.05).all() and t.confidence_level.eq(0.95).all()
    assert (t.reject == (t.pvalue_adj <= 0.05)).all() and t.impostors.eq("same_group").all()
    assert t.threshold.eq(0.5).all() and t.split.isna().all() and t.system.eq("toy").all()


def test_compare_groups_swapping_flips_the_estimate():
    t = toy()
    order = {"X": "b", "Y": "a", "Z": "c"}  # rename so Y comes first
    t2 = t.assign(group=t.group.map(order), reference_group=t.reference_group.map(order))
    t2 = t2.iloc[np.argsort(t2.group.to_numpy(), kind="stable")]
    a = pbs.compare_groups(t, threshold=0.5).set_index(["metric", "group_a", "group_b"])
    b = pbs.compare_groups(t2, threshold=0.5)
    xy = a.loc[("fmr", "X", "Y")]
    ab = b[(b.metric == "fmr") & (b.group_a == "a") & (b.group_b == "b")].iloc[0]
    assert ab.estimate == pytest.approx(-xy.estimate)
    assert ab.pvalue == pytest.approx(xy.pvalue)


def test_both_rates_zero_is_no_evidence():
    t = toy()
    t = t[~((t.group != "Y") & (t.label == "genuine") & (t.score < 0.5))]  # no FR anywhere
    r = pbs.compare_groups(t, threshold=0.5)
    fn = r[r.metric == "fnmr"]
    assert fn.estimate.eq(0).all() and fn.pvalue.eq(1.0).all()


def _wilson_q(p, n, q):
    """The Wilson formula written out, with critical value q."""
    d = 1 + q * q / n
    c = (p + q * q / (2 * n)) / d
    h = q * math.sqrt(p * (1 - p) / n + q * q / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def test_subject_defaults():
    from scipy.stats import t as student

    t = _split_table()
    r = pbs.group_rates(t, target=0.01, seed=3)
    assert r.ci_method.eq("wilson_cluster").all() and r.n_subjects.eq(30).all()
    assert ((r.fmr_low <= r.fmr) & (r.fmr <= r.fmr_high)).all()
    assert ((r.fnmr_low <= r.fnmr) & (r.fnmr <= r.fnmr_high)).all()
    # a rate of 0: Wilson with n = 30 subjects and t on 29 degrees of freedom
    zero = r[r.fa == 0].iloc[0]
    assert (zero.fmr_low, zero.fmr_high) == pytest.approx(_wilson_q(0.0, 30, student.ppf(0.975, 29)))
    b = pbs.group_rates(t, target=0.01, seed=3, ci_method="bootstrap")
    assert b.ci_method.eq("bootstrap").all()
    pd.testing.assert_frame_equal(b, pbs.group_rates(t, target=0.01, seed=3, ci_method="bootstrap"))
    from statsmodels.stats.proportion import proportion_confint

    zero = b[b.fa == 0].iloc[0]  # a point bootstrap distribution: Wilson with n = subjects
    assert zero.fmr_low == 0.0
    assert zero.fmr_high == pytest.approx(proportion_confint(0, 30, method="wilson")[1])
    c = pbs.compare_groups(t, target=0.01, n_resamples=200, seed=1)
    assert c.test.eq("bootstrap").all()
    assert ((c.ci_low <= c.estimate) & (c.estimate <= c.ci_high)).all()


def test_compare_fairness_estimate_and_symmetry():
    t = _split_table()
    f = pbs.fairness(t, target=0.01).set_index("system")
    c = pbs.compare_fairness(t, target=0.01, n_resamples=300, seed=2)
    assert list(c.columns) == COMPARE_FAIRNESS_COLUMNS
    assert c[["system_a", "system_b"]].values.tolist() == [["net_a", "net_b"], ["net_a", "net_c"],
                                                          ["net_b", "net_c"]]
    for row in c.itertuples():
        assert row.value_a == pytest.approx(f.loc[row.system_a, "fdr"])
        assert row.estimate == pytest.approx(row.value_a - row.value_b)
        assert row.ci_low <= row.estimate <= row.ci_high
    assert c["resample"].eq("subject").all() and c.n_resamples.eq(300).all()
    assert c.test.eq("paired cluster bootstrap").all() and c.metric.eq("fdr").all()
    assert c.weight.eq(0.5).all() and c.threshold_from.eq("dev").all() and c.split.eq("eval").all()
    assert c.threshold_a.tolist() == [f.loc[s, "threshold"] for s in c.system_a]
    assert c.threshold_b.tolist() == [f.loc[s, "threshold"] for s in c.system_b]
    from statsmodels.stats.multitest import multipletests

    np.testing.assert_allclose(c.pvalue_adj, multipletests(c.pvalue, method="holm")[1])
    # reversed system order: the estimate flips, the p-value stays
    order = {"net_a": 2, "net_b": 1, "net_c": 0}
    rev = t.iloc[np.argsort(t.system.map(order).to_numpy(), kind="stable")]
    r = pbs.compare_fairness(rev, target=0.01, n_resamples=300, seed=2)
    ac = r[(r.system_a == "net_c") & (r.system_b == "net_a")].iloc[0]
    ca = c[(c.system_a == "net_a") & (c.system_b == "net_c")].iloc[0]
    assert ac.estimate == pytest.approx(-ca.estimate)


def test_compare_fairness_garbe_matches_fairness():
    t = _split_table()
    f = pbs.fairness(t, target=0.05).set_index("system")
    c = pbs.compare_fairness(t, metric="garbe", target=0.05, n_resamples=50, seed=0)
    assert c.value_a.tolist() == pytest.approx([f.loc[s, "garbe"] for s in c.system_a])


def test_fdr_curve_matches_fairness_at_each_target():
    t = _split_table()
    ds = pbs.fdr_curve(t, targets=[0.1, 0.01, 0.001], scale="log")
    for target in (0.1, 0.01, 0.001):
        f = pbs.fairness(t, target=target)
        np.testing.assert_allclose(ds.fdr.sel(target=target, split="eval").values, f.fdr)
    expected = kf.area(ds.fdr.values, [0.1, 0.01, 0.001], "log")
    np.testing.assert_allclose(ds.au_fdr.values, expected)
    assert str(ds.scale.values) == "log"


# ----------------------------------------------------------------------------- errors
def test_errors():
    t = toy()
    with pytest.raises(SchemaError, match="missing column"):
        pbs.group_rates(t.drop(columns="reference_group"), threshold=0.5)
    bad = t.copy()
    bad.loc[0, "reference_group"] = "Y"  # a genuine trial across groups
    with pytest.raises(SchemaError, match="genuine trial"):
        pbs.group_rates(bad, threshold=0.5)
    bad = t.copy()
    bad.loc[3, "group"] = None
    with pytest.raises(SchemaError, match="missing group"):
        pbs.group_rates(bad, threshold=0.5)
    with pytest.raises(ValueError, match="impostors="):
        pbs.group_rates(t, impostors="cross")
    with pytest.raises(ValueError, match="target must be a rate"):
        pbs.group_rates(t, target=1.5)
    with pytest.raises(ValueError, match="threshold="):
        pbs.fairness(t, threshold="hter")
    with pytest.raises(ValueError, match="weight must be a rate"):
        pbs.fairness(t, threshold=0.5, weight=1.5)
    with pytest.raises(ValueError, match="fixed"):
        pbs.fairness(t, threshold=0.5, on="dev")
    with pytest.raises(SchemaError, match="reference_group="):
        pbs.cross_group_fmr(t, reference_group=None, threshold=0.5)
    with pytest.raises(ValueError, match="targets"):
        pbs.fdr_curve(t, targets=[0.1])
    with pytest.raises(ValueError, match="two systems"):
        pbs.compare_fairness(t, threshold=0.5)
    only_cross = t[(t.label == "genuine") | (t.group != t.reference_group)]
    with pytest.raises(SchemaError, match="no counted impostor"):
        pbs.group_rates(only_cross, threshold=0.5)
    with pytest.raises(ValueError, match="ci_method="):
        pbs.group_rates(t, threshold=0.5, ci_method="normal")
    with pytest.raises(ValueError, match="test="):
        pbs.compare_groups(t, threshold=0.5, test="wilson_cluster")
    with pytest.raises(ValueError, match="adjust"):
        pbs.compare_groups(t, threshold=0.5, adjust="nonsense")


def test_one_group_column():
    t = toy().drop(columns="reference_group")
    r = pbs.group_rates(t, threshold=0.5, reference_group=None)
    # every impostor counts as same-group: the cross impostors join their probe's group
    assert r.n_impostor.tolist() == [7, 5, 11]


def test_input_is_not_mutated():
    t = toy()
    before = t.copy()
    pbs.fairness(t, threshold=0.5)
    pbs.compare_groups(t, threshold=0.5)
    pd.testing.assert_frame_equal(t, before)


def test_dask_is_refused_by_name():
    dd = pytest.importorskip("dask.dataframe")
    ddf = dd.from_pandas(toy(), npartitions=2)
    with pytest.raises(TypeError, match=r"call \.compute\(\)"):
        pbs.group_rates(ddf, threshold=0.5)
    assert "compute" in ERROR_DASK


# ----------------------------------------------------------------------------- accessor
@pytest.mark.parametrize("name,kwargs", [
    ("group_rates", dict(target=0.01, seed=0)),
    ("fairness", dict(target=0.01)),
    ("compare_groups", dict(target=0.01, n_resamples=50, seed=0)),
    ("compare_fairness", dict(target=0.01, n_resamples=50, seed=0)),
])
def test_accessor_parity(name, kwargs):
    t = _split_table()
    pd.testing.assert_frame_equal(getattr(t.biosig, name)(**kwargs), getattr(pbs, name)(t, **kwargs))


@pytest.mark.parametrize("name,kwargs", [
    ("cross_group_fmr", dict(target=0.01)),
    ("fdr_curve", dict(targets=[0.1, 0.01])),
])
def test_accessor_parity_datasets(name, kwargs):
    t = _split_table()
    assert getattr(t.biosig, name)(**kwargs).identical(getattr(pbs, name)(t, **kwargs))


# ----------------------------------------------------------------------------- validity
def test_group_tests_hold_their_level_with_subject_effects_quick():
    """The default (subject bootstrap) holds alpha = 0.05 when two groups share one rate
    and trials share subject effects; the binomial score test does not (docs/validity.md
    has the 2000-replication table)."""
    from pandas_biosig.validity import demographic_rejection_rates

    r = demographic_rejection_rates(n_replications=150, n_resamples=200, seed=5)
    r = r.set_index(["method", "metric"]).rejection_rate
    # 150 replications: Monte-Carlo s.e. about 0.018 at 0.05
    assert r[("auto", "fmr")] < 0.11 and r[("auto", "fnmr")] < 0.11
    assert r[("wilson", "fmr")] > r[("auto", "fmr")] + 0.05


# ----------------------------------------------------------------------------- figures
def test_figures():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pandas_biosig import plot as pdm

    ds = pbs.cross_group_fmr(toy(), threshold=0.5)
    ax = pdm.fmr_heatmap(ds)
    texts = sorted(t.get_text() for t in ax.texts)
    assert "40%\n2/5" in texts and texts.count("–") == 2  # two empty cells
    plt.close(ax.figure)
    ax = pdm.group_det(_split_table(), select="net_c", target=0.01)
    assert ax.get_legend_handles_labels()[1][:3] == ["A", "B", "C"]
    assert len(ax.get_lines()) >= 3 + 3  # a curve and a marker per group
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="select="):
        pdm.fmr_heatmap(ds, select="nope")


# ----------------------------------------------------------------------------- properties
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pandas_biosig.demographics._plan import (  # noqa: E402
    COMPARE_FAIRNESS_COLUMNS,
    COMPARE_GROUPS_COLUMNS,
    ERROR_DASK,
    FAIRNESS_COLUMNS,
    GROUP_RATE_COLUMNS,
)

_FOM = ["fdr", "garbe", "gini_fmr", "gini_fnmr", "fmr_ratio", "inequity_rate"]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), shift=st.floats(-5, 5), scale=st.floats(0.1, 10))
def test_row_order_group_names_and_monotone_scores_change_nothing(seed, shift, scale):
    rng = np.random.default_rng(seed)
    t = toy()
    base = pbs.fairness(t, threshold=0.5)[_FOM]
    shuffled = t.iloc[rng.permutation(len(t))]
    names = dict(zip("XYZ", rng.permutation(["p", "q", "r"]), strict=True))
    renamed = shuffled.assign(group=shuffled.group.map(names),
                              reference_group=shuffled.reference_group.map(names))
    moved = renamed.assign(score=shift + scale * renamed.score)
    out = pbs.fairness(moved, threshold=shift + scale * 0.5)[_FOM]
    pd.testing.assert_frame_equal(out, base, check_exact=False, rtol=1e-12)


@settings(max_examples=25, deadline=None)
@given(rates=st.lists(st.floats(0.001, 1.0), min_size=2, max_size=6), factor=st.floats(0.1, 0.99))
def test_gini_and_ratio_are_scale_free(rates, factor):
    x = np.array(rates)
    assert kf.gini(x * factor) == pytest.approx(kf.gini(x), abs=1e-12)
    assert kf.ratio(x * factor) == pytest.approx(kf.ratio(x), rel=1e-9)
    assert 0 <= kf.gini(x) <= 1 + 1e-12


def test_no_dev_trials_for_a_system():
    t = _split_table()
    t = t[~((t.system == "net_c") & (t.split == "dev"))]
    with pytest.raises(SchemaError, match="no trials in split 'dev'"):
        pbs.fairness(t, target=0.01, on="dev", apply_to="eval")


def test_threshold_from_says_where_the_threshold_came_from():
    t = _split_table()
    assert pbs.fairness(t, target=0.01).threshold_from.eq("dev").all()
    assert pbs.fairness(t, target=0.01, on=None).threshold_from.eq("same trials").all()
    assert pbs.fairness(t, threshold=2.0).threshold_from.eq("fixed").all()
    assert pbs.group_rates(toy(), threshold="eer").threshold_from.eq("same trials").all()
    assert pbs.compare_groups(toy(), threshold=0.5).threshold_from.eq("fixed").all()


def test_system_comparison_is_not_liberal_quick():
    """Two equally fair systems: compare_fairness rejects at most at about alpha
    (docs/validity.md: 0.03 for the FDR over 2000 replications)."""
    from pandas_biosig.validity import fairness_rejection_rates

    r = fairness_rejection_rates(n_replications=150, n_resamples=200, seed=3)
    assert r.n_defined.iloc[0] == 150
    assert r.rejection_rate.iloc[0] < 0.1  # Monte-Carlo s.e. about 0.018


# The toy at a target FMR. The 19 same-group impostor scores, pooled over the groups:
# X 0.1 0.2 0.3 0.55 0.6 | Y 0.1 0.2 0.3 0.6 | Z 0.05 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9.
# FMR <= 0.2 allows 3 false matches: accept >= 0.7 (the next distinct score above 0.6), at
# bob's midpoint threshold 0.65. There: FA X 0/5, Y 0/4, Z 3/10; FR X 1/4 (0.4), Y 1/2
# (0.6), Z 2/5 (0.3, 0.2); FMR spread 0.3, FNMR spread 0.25, FDR 1 - (0.3 + 0.25)/2 = 0.725.
# FMR <= 0.5 allows 9: accept >= 0.4, threshold 0.35. FA X 2/5, Y 1/4, Z 6/10; FR X 0/4,
# Y 0/2, Z 2/5; spreads 0.35 and 0.4, FDR 0.625. Area over [0.2, 0.5]: 0.675.
def test_target_fmr_threshold_by_hand():
    r = pbs.group_rates(toy(), threshold="far", target=0.2)
    np.testing.assert_allclose(r.threshold, 0.65)  # (0.6 + 0.7) / 2 in floating point
    assert r.threshold_from.eq("same trials").all()
    assert r.fa.tolist() == [0, 0, 3] and r.fr.tolist() == [1, 1, 2]
    r = pbs.group_rates(toy(), threshold="far", target=0.5)
    np.testing.assert_allclose(r.threshold, 0.35)
    assert r.fa.tolist() == [2, 1, 6] and r.fr.tolist() == [0, 0, 2]
    ds = pbs.fdr_curve(toy(), targets=[0.2, 0.5])
    np.testing.assert_allclose(ds.fdr.squeeze(["system", "split"]).values, [0.725, 0.625])
    np.testing.assert_allclose(ds.fmr_spread.squeeze(["system", "split"]).values, [0.3, 0.35])
    np.testing.assert_allclose(ds.fnmr_spread.squeeze(["system", "split"]).values, [0.25, 0.4])
    np.testing.assert_allclose(ds.threshold.squeeze(["system", "split"]).values, [0.65, 0.35])
    assert float(ds.au_fdr.squeeze()) == pytest.approx(0.675)


# The toy with subjects: X has subjects x1 (genuine 0.9 0.8; impostors 0.6 0.1 0.2) and
# x2 (genuine 0.4 0.7; impostors 0.3 0.55 and the cross ones), Y one subject y1, Z two
# (z1: the first 3 genuine and 5 impostors, z2: the rest). Y has no false non-match: its
# bootstrap interval would be a point, so it is Wilson's for 0 of 1 subject.
def test_subjects_by_hand():
    t = toy()
    subj = (["x1", "x1", "x2", "x2"] + ["x1", "x1", "x1", "x2", "x2"] + ["x2", "x2"]
            + ["y1"] * 7 + ["z1"] * 3 + ["z2"] * 2 + ["z1"] * 5 + ["z2"] * 5 + ["z2"])
    # group Y holds one subject: intervals over subjects are refused by name (the one
    # subject rule); they are about Y's two subjects below
    for method in ("wilson_cluster", "bootstrap"):
        with pytest.raises(SchemaError, match="group 'Y' of system 'toy' holds trials of 1 "):
            pbs.group_rates(t.assign(subject=subj), threshold=0.5, ci_method=method)
    subj[11:18] = ["y1", "y2", "y1", "y1", "y2", "y2", "y2"]
    t["subject"] = subj
    from scipy.stats import t as student

    c = pbs.group_rates(t, threshold=0.5)
    assert c.ci_method.eq("wilson_cluster").all() and c.n_subjects.tolist() == [2, 2, 2]
    # X's FNMR: x1 0 of 2, x2 1 of 2; p = 1/4, N = 4, binomial variance p(1-p)/N = 3/64,
    # cluster variance 2/1 * ((0 - 1/2)^2 + (1 - 1/2)^2) / 16 = 1/16, design effect 4/3,
    # effective n = 3; Student's t on 1 degree of freedom
    x = c.iloc[0]
    assert (x.fnmr_low, x.fnmr_high) == pytest.approx(_wilson_q(0.25, 3.0, student.ppf(0.975, 1)))
    assert kf.effective_size([0, 1], [2, 2]) == pytest.approx((0.25, 3.0, 2))
    r = pbs.group_rates(t, threshold=0.5, seed=0, n_resamples=200, ci_method="bootstrap")
    assert r.ci_method.eq("bootstrap").all()
    assert r.n_subjects.tolist() == [2, 2, 2]
    from statsmodels.stats.proportion import proportion_confint

    # Y's FNMR is 0 in every replicate: Wilson on its two subjects instead, said so
    y = r.iloc[1]
    assert (y.fnmr_low, y.fnmr_high) == (0.0, pytest.approx(proportion_confint(0, 2, method="wilson")[1]))
    assert "every bootstrap replicate gives the same rate" in y.fallback_reason
    assert pd.isna(r.iloc[0].fallback_reason)
    # X's FNMR: subject x1 has 0 of 2 false non-matches, x2 1 of 2; every replicate is
    # 0, 1/4 or 1/2, so the percentile interval lies on that grid
    x = r.iloc[0]
    assert {x.fnmr_low, x.fnmr_high} <= {0.0, 0.25, 0.5}


def test_auto_reports_every_eval_split():
    t = _split_table()
    t = t.assign(split=np.where((t.split == "eval") & (t.subject.str[-1].isin(list("01234"))),
                                "test", t.split))
    f = pbs.fairness(t, target=0.01)
    assert sorted(set(f.split)) == ["eval", "test"] and f.threshold_from.eq("dev").all()


def test_default_intervals_cover_with_subject_effects_quick():
    """docs/validity.md: the default per-group intervals cover at 0.95-0.96 with subject
    effects, where Wilson on trials covers the FMR at about 0.81."""
    from pandas_biosig.validity import demographic_coverage

    r = demographic_coverage(n_replications=100, methods=("auto", "wilson"), seed=2)
    r = r.set_index(["method", "metric"]).coverage
    # 100 replications x 2 groups: Monte-Carlo s.e. about 0.015 at 0.95
    assert r[("auto", "fmr")] > 0.9 and r[("auto", "fnmr")] > 0.9
    assert r[("wilson", "fmr")] < r[("auto", "fmr")]
