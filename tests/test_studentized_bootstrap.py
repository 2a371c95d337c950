"""The studentized paired bootstrap (subjects resampled, a metric at fixed thresholds):
Welch–Satterthwaite degrees of freedom checked by hand, and the test it makes."""

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats

import pandas_biosig as pbs
from pandas_biosig._core.replicates import satterthwaite_df, studentized_pvalue


def subject_table(rows):
    """(n_subjects, 8) cell counts from {cell: count} per subject (cell = 4*genuine + 2*A
    accepts + B accepts)."""
    table = np.zeros((len(rows), 8), dtype=np.int64)
    for j, cells in enumerate(rows):
        for cell, count in cells.items():
            table[j, cell] = count
    return table


def test_satterthwaite_df_by_hand():
    # impostors: 10 per subject, all rejected by both (cell 0): no FAR difference.
    # genuines: subject 0 has 2, one rejected by A alone (cell 5) and one accepted by both
    # (cell 7); subject 1 has 2, one rejected by B alone (cell 6); subject 2 has 4, all
    # accepted by both. D = (1 - 1) / 8 = 0, so u_j = d_j / 8 / 2 = 1/16, -1/16, 0 and
    # df = (2/256)^2 / (2/256^2) = 2: the two subjects whose errors differ.
    table = subject_table([{0: 10, 5: 1, 7: 1}, {0: 10, 6: 1, 7: 1}, {0: 10, 7: 4}])
    assert satterthwaite_df(table, "hter") == pytest.approx(2.0)
    assert satterthwaite_df(table, "frr") == pytest.approx(2.0)
    assert math.isnan(satterthwaite_df(table, "far"))  # no impostor decision differs
    # a non-zero difference: genuine d = (2, -1, 0), n = (2, 2, 4), D = 1/8, so
    # u ∝ d - D n = (1.75, -1.25, -0.5): df = 4.875² / (1.75⁴ + 1.25⁴ + 0.5⁴)
    table = subject_table([{0: 10, 5: 2}, {0: 10, 6: 1, 7: 1}, {0: 10, 7: 4}])
    want = 4.875**2 / (1.75**4 + 1.25**4 + 0.5**4)
    assert satterthwaite_df(table, "frr") == pytest.approx(want)
    # impostors: A alone accepts (cell 2) twice in subject 0, B alone (cell 1) once in
    # subject 1; 10, 10 and 20 impostors, D = 1/40: u ∝ (2 - 0.25, -1 - 0.25, -0.5)
    table = subject_table([{0: 8, 2: 2}, {0: 9, 1: 1}, {0: 20}])
    assert satterthwaite_df(table, "far") == pytest.approx(want)
    # the HTER adds the classes' contributions subject by subject before squaring
    both = table.copy()
    both[:, 4:] = subject_table([{5: 2}, {6: 1, 7: 1}, {7: 4}])[:, 4:]
    u = 0.5 * (np.array([1.75, -1.25, -0.5]) / 40 + np.array([1.75, -1.25, -0.5]) / 8)
    assert satterthwaite_df(both, "hter") == pytest.approx((u**2).sum() ** 2 / (u**4).sum())


def test_studentized_pvalue_is_students_t():
    p, log10_p = studentized_pvalue(2.1, 7.0)
    assert p == pytest.approx(2 * stats.t.sf(2.1, 7.0))
    assert log10_p == pytest.approx(math.log10(p))
    assert studentized_pvalue(-2.1, 7.0, "less")[0] == pytest.approx(stats.t.cdf(-2.1, 7.0))
    assert studentized_pvalue(2.1, 7.0, "greater")[0] == pytest.approx(stats.t.sf(2.1, 7.0))
    assert studentized_pvalue(0.0, 3.0)[0] == 1.0


def paired_table(seed=0, n_subjects=40, per_subject=12, rho=0.8):
    rng = np.random.default_rng(seed)
    n = n_subjects * per_subject
    subject = np.repeat(np.arange(n_subjects), per_subject)
    genuine = rng.random(n) < 0.25
    z1 = rng.standard_normal(n)
    z2 = rho * z1 + math.sqrt(1 - rho**2) * rng.standard_normal(n)
    mu = np.where(genuine, 2.0, 0.0)
    frames = [
        pd.DataFrame(dict(system=name, trial=np.arange(n), label=genuine, score=mu + z,
                          subject=subject))
        for name, z in (("A", z1), ("B", z2))
    ]
    return pd.concat(frames, ignore_index=True)


def test_paired_bootstrap_is_studentized_at_fixed_thresholds_with_subjects():
    t = paired_table()
    res = pbs.paired_bootstrap(t, "A", "B", metric="hter", threshold=1.0, n_resamples=500,
                               seed=3)
    assert 1 <= res.df <= 40 and "Satterthwaite" in res.method
    se = float(np.std(res._replicates, ddof=1))
    assert res.statistic == pytest.approx(res.estimate / se)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(res.statistic), res.df))
    ci = res.confidence_interval(confidence_level=0.95)
    q = stats.t.ppf(0.975, res.df)
    assert (ci.low, ci.high) == pytest.approx((res.estimate - q * se, res.estimate + q * se))
    for level in (0.5, 0.8, 0.95):  # the interval excludes 0 exactly where p < 1 - level
        ci = res.confidence_interval(confidence_level=level)
        assert (ci.low > 0 or ci.high < 0) == (res.pvalue < 1 - level)
    # deterministic for a seed; swapping the systems flips the sign only
    again = pbs.paired_bootstrap(t, "A", "B", metric="hter", threshold=1.0, n_resamples=500,
                                 seed=3)
    assert again.pvalue == res.pvalue
    swapped = pbs.paired_bootstrap(t, "B", "A", metric="hter", threshold=1.0,
                                   n_resamples=500, seed=3)
    assert swapped.estimate == pytest.approx(-res.estimate)
    assert swapped.df == pytest.approx(res.df)
    # compare() gives the same numbers (one pair, same seed)
    row = pbs.compare(t, test="bootstrap", threshold=1.0, n_resamples=500, seed=3).iloc[0]
    assert row.pvalue == pytest.approx(res.pvalue)


def test_other_schemes_and_metrics_keep_the_percentile_test():
    t = paired_table()
    for kwargs in (dict(metric="hter", threshold=1.0, resample="label"),
                   dict(metric="eer_threshold")):
        res = pbs.paired_bootstrap(t, "A", "B", n_resamples=200, seed=0, **kwargs)
        assert math.isnan(res.df) and "Satterthwaite" not in res.method
        d = res._replicates
        below = (np.count_nonzero(d <= 0) + 1) / (d.size + 1)
        above = (np.count_nonzero(d >= 0) + 1) / (d.size + 1)
        assert res.pvalue == pytest.approx(min(1.0, 2 * min(below, above)))


def test_identical_systems_give_p_one():
    t = paired_table()
    t.loc[t.system == "B", "score"] = t.loc[t.system == "A", "score"].to_numpy()
    res = pbs.paired_bootstrap(t, "A", "B", metric="hter", threshold=1.0, n_resamples=100,
                               seed=0)
    assert res.estimate == 0 and res.pvalue == 1.0


def test_rate_df_by_hand():
    from pandas_biosig._core.replicates import rate_df
    from pandas_biosig._core.schema import Group

    # 3 subjects; genuine trials: subject 0 has 2 (both rejected at 0.5), subject 1 has 2
    # (one rejected), subject 2 has 4 (none rejected); impostors all rejected.
    # FRR = 3/8; u ∝ e_j - FRR n_j = (2 - 0.75, 1 - 0.75, -1.5) = (1.25, 0.25, -1.5)
    scores = np.array([0.0, 0.1, 0.2, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0])
    genuine = np.array([True] * 8 + [False] * 3)
    subject = np.array([0, 0, 1, 1, 2, 2, 2, 2, 0, 1, 2])
    g = Group(("A",), scores, genuine, np.arange(11), None, subject)
    u = np.array([1.25, 0.25, -1.5])
    want = (u**2).sum() ** 2 / (u**4).sum()
    assert rate_df(g, 0.5, "frr", subject, 3) == pytest.approx(want)
    assert rate_df(g, 0.5, "hter", subject, 3) == pytest.approx(want)  # FAR = 0 adds 0
    assert math.isnan(rate_df(g, 0.5, "far", subject, 3))
    # each trial its own unit: df = (Σu²)²/Σu⁴ with u ∝ (1 - 3/8) for 3 errors, -3/8 for 5
    u = np.r_[np.full(3, 5 / 8), np.full(5, -3 / 8), np.zeros(3)]
    assert rate_df(g, 0.5, "frr", np.arange(11), 11) == pytest.approx(
        (u**2).sum() ** 2 / (u**4).sum())


def test_bootstrap_interval_of_a_rate_is_studentized_with_subjects():
    t = paired_table()
    res = pbs.bootstrap(t, metric="hter", threshold=1.0, n_resamples=400, seed=2)
    assert (res.ci_method == "studentized").all() and (res["resample"] == "subject").all()
    pct = pbs.bootstrap(t, metric="hter", threshold=1.0, n_resamples=400, seed=2,
                        ci_method="percentile")
    assert (pct.ci_method == "percentile").all()
    np.testing.assert_array_equal(res.se, pct.se)  # the same replicates
    from pandas_biosig._core.replicates import rate_df
    from pandas_biosig._core.schema import validate_trials

    for row, g in zip(res.itertuples(), validate_trials(t).groups, strict=True):
        codes = np.unique(g.subject, return_inverse=True)[1]
        q = stats.t.ppf(0.975, rate_df(g, 1.0, "hter", codes, codes.max() + 1))
        assert (row.ci_low, row.ci_high) == pytest.approx(
            (max(row.estimate - q * row.se, 0.0), row.estimate + q * row.se))
    # label resampling keeps the percentile interval by default; studentized on request
    lab = pbs.bootstrap(t, metric="hter", threshold=1.0, n_resamples=100, seed=0,
                        resample="label")
    assert (lab.ci_method == "percentile").all()
    lab = pbs.bootstrap(t, metric="far", threshold=1.0, n_resamples=100, seed=0,
                        resample="label", ci_method="studentized")
    assert (lab.ci_method == "studentized").all() and (lab.ci_low >= 0).all()
    with pytest.raises(ValueError, match="studentized"):
        pbs.bootstrap(t, metric="eer_threshold", ci_method="studentized", n_resamples=10)
