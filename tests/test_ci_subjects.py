"""ci() with a subject column: the design-effect (Korn & Graubard) interval by default.

The design effect is checked against a hand-computed toy table, the interval against an
independent re-computation (numpy + scipy) on the example table, and its coverage under
subject effects against the trial-level interval it replaces, on a small simulation.
"""

import re

import numpy as np
import pytest
from scipy.stats import beta, norm
from scipy.stats import t as student

import pandas_biosig as pbs
from pandas_biosig._core.protocol import ERROR_ONE_CLUSTER, ERROR_SUBJECT_MISSING
from pandas_biosig._kernels import fairness
from pandas_biosig._kernels.cluster import design_effect
from pandas_biosig.validity import Setting, simulate_trials


def test_design_effect_by_hand():
    # p = 3/6; v_c = 3/2 * ((0-1)^2 + (2-1)^2 + 0^2) / 36 = 1/12; v_b = 0.25/6 = 1/24
    assert design_effect([0, 2, 1], [2, 2, 2]) == pytest.approx(2.0, rel=1e-15)
    # floored at 1 (clusters less variable than binomial), 1 without two clusters or errors
    assert design_effect([1, 1, 1], [2, 2, 2]) == 1.0
    assert design_effect([3], [6]) == 1.0
    assert design_effect([0, 0], [3, 4]) == 1.0
    assert design_effect([0, 2, 1, 0], [2, 2, 2, 0]) == pytest.approx(2.0, rel=1e-15)
    p, n_eff, k = fairness.effective_size([0, 2, 1], [2, 2, 2])
    assert (p, k) == (0.5, 3) and n_eff == pytest.approx(3.0, rel=1e-15)


def _cp(x, n, level=0.95):
    a = 1 - level
    low = 0.0 if x == 0 else beta.ppf(a / 2, x, n - x + 1)
    high = 1.0 if x == n else beta.ppf(1 - a / 2, x + 1, n - x)
    return low, high


def _by_hand(errors, subjects, level=0.95):
    """Korn & Graubard's Clopper-Pearson interval with the df-adjusted effective size, the
    degrees of freedom the smaller of the design's and the subjects' terms' Satterthwaite
    values (at most k - 1)."""
    ids = np.unique(subjects)
    e = np.array([errors[subjects == s].sum() for s in ids], dtype=float)
    m = np.array([(subjects == s).sum() for s in ids], dtype=float)
    n, k = m.sum(), ids.size
    p = e.sum() / n
    raw = (k / (k - 1) * ((e - p * m) ** 2).sum() / n**2) / (p * (1 - p) / n)
    deff = max(1.0, raw)
    rho = min(max((raw - 1) * n / ((m**2).sum() - n), 0.0), 1.0)
    v = m + rho * m * (m - 1)
    u2 = (e - p * m) ** 2
    df = max(min(v.sum() ** 2 / (v**2).sum(), u2.sum() ** 2 / (u2**2).sum(), k - 1), 1.0)
    q = (1 + level) / 2
    n_eff = min(n, n / deff * (student.ppf(q, n - 1) / student.ppf(q, df)) ** 2)
    return p, n_eff, _cp(p * n_eff, n_eff, level)


def test_ci_default_is_the_design_effect_interval():
    t = pbs.datasets.example_trials()
    res = pbs.ci(t).set_index(["system", "metric"])
    assert set(res["resample"]) == {"subject"}
    assert set(res.ci_method) == {"beta-deff", "mover-beta-deff"}
    ev = t[t.split == "eval"]
    for system, g in ev.groupby("system"):
        thr = res.loc[(system, "far"), "threshold"]
        accepted = g.score.to_numpy() >= thr
        genuine = (g.label == "genuine").to_numpy()
        subj = g.subject.to_numpy()
        far, n_fa, (l1, u1) = _by_hand(accepted[~genuine], subj[~genuine])
        frr, n_fr, (l2, u2) = _by_hand(~accepted[genuine], subj[genuine])
        row = res.loc[(system, "far")]
        assert row.estimate == pytest.approx(far, rel=1e-12)
        assert (row.ci_low, row.ci_high) == pytest.approx((l1, u1), rel=1e-9)
        assert row.se == pytest.approx(np.sqrt(far * (1 - far) / n_fa), rel=1e-9)
        row = res.loc[(system, "frr")]
        assert (row.ci_low, row.ci_high) == pytest.approx((l2, u2), rel=1e-9)
        # HTER: the MOVER combination of the two clustered intervals
        h = (far + frr) / 2
        row = res.loc[(system, "hter")]
        assert row.ci_low == pytest.approx(h - 0.5 * np.hypot(far - l1, frr - l2), rel=1e-9)
        assert row.ci_high == pytest.approx(h + 0.5 * np.hypot(u1 - far, u2 - frr), rel=1e-9)
        # never narrower than the trial-level interval
        lab = pbs.ci(t, resample="label").set_index(["system", "metric"])
        for metric in ("far", "frr", "hter", "dcf"):
            assert res.loc[(system, metric), "ci_low"] <= lab.loc[(system, metric), "ci_low"]
            assert res.loc[(system, metric), "ci_high"] >= lab.loc[(system, metric), "ci_high"]


def test_ci_without_subjects_is_unchanged():
    t = pbs.datasets.example_trials()
    no_subject = pbs.ci(t.drop(columns="subject"))
    assert no_subject["resample"].isna().all()
    assert set(no_subject.ci_method) == {"beta", "mover-beta"}
    np.testing.assert_array_equal(no_subject.ci_low, pbs.ci(t, resample="label").ci_low)
    # another binomial method and the Bengio interval carry the adjustment too
    other = pbs.ci(t, ci_method="wilson", combine="bengio")
    assert set(other.ci_method) == {"wilson-deff", "bengio-deff"}
    assert (other.ci_high - other.ci_low > 0).all()


def test_ci_default_covers_under_subject_effects():
    """Strong subject effects, 20 subjects: the trial-level interval covers FAR about 0.6
    of the time, the default (design effect) at least 0.9 (50 replications, 2 systems)."""
    st = Setting(100, 400, rho=0.0, subject_sd=0.7, n_subjects=20)
    truth = norm.sf(1.0)
    cover = {"auto": [], "label": []}
    for i in range(50):
        t = simulate_trials(st, seed=i)
        for unit in cover:
            res = pbs.ci(t, metric="far", threshold=1.0, resample=unit)
            cover[unit] += list((res.ci_low <= truth) & (truth <= res.ci_high))
    assert np.mean(cover["auto"]) >= 0.9
    assert np.mean(cover["label"]) <= 0.75


def test_ci_subject_rules():
    t = pbs.datasets.example_trials()
    msg = ERROR_ONE_CLUSTER.split("{where}")[1].split("{n}")[0]
    with pytest.raises(pbs.SchemaError, match=re.escape(msg)):
        pbs.ci(t.assign(subject="only"))
    t = t.astype({"subject": object})
    t.loc[[5, 7], "subject"] = None
    missing = re.escape(ERROR_SUBJECT_MISSING.split("{where}")[1].split("{rows}")[0])
    with pytest.raises(pbs.SchemaError, match=missing):
        pbs.ci(t)
    assert pbs.ci(t, resample="label")["resample"].isna().all()
    with pytest.raises(ValueError, match="resample"):
        pbs.ci(t, resample="trials")
