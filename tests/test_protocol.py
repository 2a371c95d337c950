"""The evaluation protocol object and the defaults it gives (issue "valid by default")."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy.stats import beta, binom
from statsmodels.stats.proportion import proportion_confint

import pandas_biosig as pbs
from pandas_biosig._core.protocol import (
    ERROR_ONE_CLUSTER,
    ERROR_SUBJECT_MISSING,
    FIXED,
    SAME_TRIALS,
    Protocol,
    split_roles,
)
from pandas_biosig._core.schema import validate_trials
from pandas_biosig._kernels.mover import mover_sum
from pandas_biosig.validity import Setting, simulate_trials
from pandas_biosig.verification import (
    DECISION_TESTS,
    NULL_HYPOTHESIS,
    TESTS,
    DecisionTestError,
)
from pandas_biosig.verification._comparison import ERROR_DECISION_TEST


def prefix(message: str) -> str:
    return re.escape(message.split("{")[0])


def dev_eval(setting: Setting, seed: int) -> pd.DataFrame:
    """Two independent simulated datasets as the dev and eval splits of one table."""
    dev = simulate_trials(setting, seed=2 * seed).assign(split="dev")
    ev = simulate_trials(setting, seed=2 * seed + 1).assign(split="eval")
    ev["trial"] += dev["trial"].max() + 1
    ev["subject"] += setting.n_subjects
    return pd.concat([dev, ev], ignore_index=True)


# ----------------------------------------------------------------------------- resolution
def test_split_roles_are_read_case_insensitively():
    t = pbs.datasets.example_trials()
    trials = validate_trials(t.assign(split=t.split.map({"dev": "Development",
                                                               "eval": "TEST"})))
    assert split_roles(trials) == ("Development", ["TEST"])
    assert split_roles(validate_trials(t.assign(split="a"))) == (None, [])


def test_resolution_says_where_each_threshold_came_from():
    t = pbs.datasets.example_trials()
    trials = validate_trials(t)
    auto = Protocol(on="auto", apply_to="auto").resolve(trials)
    assert {r.group.split for r in auto} == {"eval"}
    assert {r.threshold_from for r in auto} == {"dev"}
    same = Protocol(on=None, apply_to=None).resolve(trials)
    assert {r.threshold_from for r in same} == {SAME_TRIALS}
    assert len(same) == len(trials.groups)
    fixed = Protocol(threshold=0.5, on="auto", apply_to="auto").resolve(trials)
    assert {r.threshold_from for r in fixed} == {FIXED}
    assert len(fixed) == len(trials.groups)  # no threshold to choose: every split reported
    # the sweep is built once per group and shared
    assert auto[0].sweep is auto[0].sweep


def test_threshold_from_and_resample_columns():
    t = pbs.datasets.example_trials()
    ci = pbs.ci(t, metric="hter")  # a subject column: the interval accounts for subjects
    assert set(ci.split) == {"eval"} and set(ci.threshold_from) == {"dev"}
    assert set(ci["resample"]) == {"subject"} and set(ci.ci_method) == {"mover-beta-deff"}
    ci = pbs.ci(t, metric="hter", resample="label")
    assert ci["resample"].isna().all() and set(ci.ci_method) == {"mover-beta"}
    er = pbs.error_rates(t, threshold=0.0)
    assert set(er.threshold_from) == {"fixed"}
    er = pbs.error_rates(t)  # dev and eval: a priori, as ci() below
    assert set(er.split) == {"eval"} and set(er.threshold_from) == {"dev"}
    er = pbs.error_rates(t.assign(split="a"))
    assert set(er.threshold_from) == {"same trials"}
    b = pbs.bootstrap(t, metric="hter", n_resamples=20, seed=0)
    assert set(b.threshold_from) == {"dev"} and set(b["resample"]) == {"subject"}
    b = pbs.bootstrap(t.drop(columns="subject"), metric="hter", n_resamples=20, seed=0)
    assert set(b["resample"]) == {"label"}
    cmp = pbs.compare(t, n_resamples=50, seed=0)  # a subject column: the subject bootstrap
    assert set(cmp.split) == {"eval"} and set(cmp.threshold_from) == {"dev"}
    assert set(cmp.test) == {"bootstrap"} and set(cmp["resample"]) == {"subject"}
    assert set(cmp.null_hypothesis) == {NULL_HYPOTHESIS["bootstrap"]}
    cmp = pbs.compare(t.drop(columns="subject"))
    assert set(cmp.test) == {"hter_dependent"} and cmp["resample"].isna().all()
    assert set(cmp.null_hypothesis) == {NULL_HYPOTHESIS["hter_dependent"]}


def test_the_default_thresholds_are_the_a_priori_ones():
    t = pbs.datasets.example_trials()
    pd.testing.assert_frame_equal(pbs.compare(t, seed=1),
                                  pbs.compare(t, seed=1, on="dev", apply_to="eval"))
    pd.testing.assert_frame_equal(pbs.ci(t), pbs.ci(t, on="dev", apply_to="eval"))


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("test", DECISION_TESTS)
def test_decision_tests_refuse_per_system_criterion_thresholds(test):
    t = pbs.datasets.example_trials()
    with pytest.raises(DecisionTestError, match=prefix(ERROR_DECISION_TEST)) as info:
        pbs.compare(t, test=test)
    assert "threshold=<number>" in str(info.value) and "hter_dependent" in str(info.value)
    assert NULL_HYPOTHESIS[test] in str(info.value)
    with pytest.raises(DecisionTestError):  # a-posteriori thresholds too
        pbs.compare(t, test=test, on=None, apply_to=None)
    # one common threshold fixed in advance: allowed
    fixed = pbs.compare(t, test=test, threshold=0.5)
    assert set(fixed.threshold_from) == {"fixed"}
    assert set(fixed.null_hypothesis) == {NULL_HYPOTHESIS[test]}
    # the explicit opt-in marks the rows
    rules = pbs.compare(t, test=test, test_decision_rules=True)
    assert rules.null_hypothesis.str.endswith("(tests the decision rules)").all()


def test_every_decision_test_states_its_null():
    for test in TESTS:
        assert NULL_HYPOTHESIS[test]


# ----------------------------------------------------------------------------- subjects
MISSING = re.escape(ERROR_SUBJECT_MISSING.split("{where}")[1].split("{rows}")[0])


def test_missing_subject_ids_are_named():
    t = pbs.datasets.example_trials()
    t = t.astype({"subject": object})
    t.loc[[5, 7], "subject"] = None
    with pytest.raises(pbs.SchemaError, match=MISSING) as info:
        pbs.bootstrap(t, n_resamples=10)
    assert "[5, 7]" in str(info.value)
    with pytest.raises(pbs.SchemaError, match=MISSING):
        pbs.compare(t, test="bootstrap", n_resamples=10)
    # all missing: the same named error, not an internal one
    with pytest.raises(pbs.SchemaError, match=MISSING):
        pbs.bootstrap(t.assign(subject=np.nan), n_resamples=10)
    # an explicit policy: resample trials instead
    assert set(pbs.bootstrap(t, n_resamples=10, resample="label")["resample"]) == {"label"}


def test_one_subject_cannot_be_bootstrapped():
    t = pbs.datasets.example_trials().assign(subject="only")
    msg = ERROR_ONE_CLUSTER.split("{where}")[1].split("{n}")[0]
    with pytest.raises(pbs.SchemaError, match=re.escape(msg)):
        pbs.bootstrap(t, n_resamples=10)
    with pytest.raises(pbs.SchemaError, match=re.escape(msg)):
        pbs.compare(t, test="bootstrap", n_resamples=10)
    with pytest.raises(pbs.SchemaError, match=re.escape(msg)):
        pbs.paired_bootstrap(t, "cnn", "lbp", n_resamples=10)


# ----------------------------------------------------------------------------- engines
@pytest.mark.parametrize("metric", ["hter", "eer_threshold", "auc"])
def test_compare_bootstrap_is_paired_bootstrap(metric):
    t = pbs.datasets.example_trials()
    res = pbs.paired_bootstrap(t, "cnn", "lbp", metric=metric, n_resamples=200, seed=3)
    cmp = pbs.compare(t, test="bootstrap", metric=metric, baseline="lbp", n_resamples=200,
                      seed=3, apply_to="eval")
    row = cmp[cmp.system_a == "cnn"].iloc[0]
    # compare draws the pairs one after the other from one generator: the first pair
    first = pbs.compare(t[t.system.isin(["cnn", "lbp"])], test="bootstrap", metric=metric,
                        n_resamples=200, seed=3, apply_to="eval").iloc[0]
    assert first.statistic == res.statistic and first.pvalue == res.pvalue
    assert first.estimate == res.estimate == pytest.approx(row.estimate)


@pytest.mark.parametrize("metric", ["hter", "far"])
def test_compare_pairs_share_the_subject_draws(metric):
    """At fixed thresholds under subject resampling, the pairs of a family read one draw of
    the subjects per replicate: every row is paired_bootstrap's for its pair and the seed,
    bit for bit (paired_bootstrap draws the same subjects for any pair)."""
    t = pbs.datasets.example_trials()
    kw = dict(metric=metric, n_resamples=200, seed=3)
    cmp = pbs.compare(t, test="bootstrap", apply_to="eval", **kw)
    assert set(cmp["resample"]) == {"subject"} and len(cmp) == 6
    for row in cmp.itertuples():
        want = pbs.paired_bootstrap(t, row.system_a, row.system_b, **kw)
        assert (row.estimate, row.statistic, row.pvalue) == (
            want.estimate, want.statistic, want.pvalue
        )
        assert (row.ci_low, row.ci_high) == tuple(want.confidence_interval())
    # the families of a split table draw their own subjects, one after the other
    both = pbs.compare(t, test="bootstrap", on=None, apply_to=None, **kw)
    assert len(both) == 12 and not both.statistic.iloc[:6].equals(both.statistic.iloc[6:])


# ----------------------------------------------------------------------------- intervals
def _clopper_pearson(k, n, level=0.95):
    a = 1 - level
    low = 0.0 if k == 0 else beta.ppf(a / 2, k, n - k + 1)
    high = 1.0 if k == n else beta.ppf(1 - a / 2, k + 1, n - k)
    return low, high


def test_mover_hter_interval_by_hand():
    """HTER interval = MOVER of the Clopper-Pearson intervals of FAR and FRR."""
    t = pbs.datasets.example_trials()
    er = pbs.error_rates(t, on="dev", apply_to="eval").set_index("system")
    ci = pbs.ci(t, metric=["hter", "dcf"], resample="label").set_index(["system", "metric"])
    for system, row in er.iterrows():
        (l1, u1), (l2, u2) = (_clopper_pearson(row.fa, row.n_impostor),
                              _clopper_pearson(row.fr, row.n_genuine))
        sm = proportion_confint(row.fa, row.n_impostor, method="beta")
        assert sm == pytest.approx((l1, u1))
        h = (row.far + row.frr) / 2
        low = h - 0.5 * np.hypot(row.far - l1, row.frr - l2)
        high = h + 0.5 * np.hypot(u1 - row.far, u2 - row.frr)
        got = ci.loc[(system, "hter")]
        assert (got.ci_low, got.ci_high) == pytest.approx((low, high), rel=1e-12)
        assert got.ci_method == "mover-beta"
        # DCF (p = 0.01, unit costs): weights 99 and 1 after normalization by 0.01
        d = ci.loc[(system, "dcf")]
        dl = d.estimate - np.hypot(99 * (row.far - l1), 1 * (row.frr - l2))
        assert d.ci_low == pytest.approx(dl, rel=1e-12)


def test_zero_errors_give_a_real_interval():
    low, high = mover_sum((0.0, 0.0), (0.0, 0.0), (0.03, 0.04), (0.5, 0.5))
    assert low == 0 and high == pytest.approx(0.025)


def _coverage(ni, nc, p, w=(0.5, 0.5), level=0.95):
    """Exact coverage of the default interval, summing over the binomial outcomes."""
    def support(n):
        x = np.arange(int(binom.ppf(1e-10, n, p)), int(binom.isf(1e-10, n, p)) + 2)
        x = x[x <= n]
        return x, binom.pmf(x, n, p)

    (x, wx), (y, wy) = support(ni), support(nc)
    lx, ux = proportion_confint(x, ni, alpha=1 - level, method="beta")
    ly, uy = proportion_confint(y, nc, alpha=1 - level, method="beta")
    lx, ly = np.where(x == 0, 0, lx), np.where(y == 0, 0, ly)
    ux, uy = np.where(x == ni, 1, ux), np.where(y == nc, 1, uy)
    ex, ey = x / ni, y / nc
    est = w[0] * ex[:, None] + w[1] * ey[None, :]
    lo = est - np.hypot((w[0] * (ex - lx))[:, None], (w[1] * (ey - ly))[None, :])
    hi = est + np.hypot((w[0] * (ux - ex))[:, None], (w[1] * (uy - ey))[None, :])
    truth = w[0] * p + w[1] * p
    return float(wx @ ((lo <= truth) & (truth <= hi)) @ wy)


@pytest.mark.parametrize("nc", [100, 1000, 10000])
@pytest.mark.parametrize("p", [0.001, 0.01, 0.2])
def test_default_hter_interval_covers(nc, p):
    assert _coverage(10 * nc, nc, p) >= 0.93
    assert _coverage(nc, nc, p) >= 0.93


# ----------------------------------------------------------------------------- done means
def _rejections(test, n_rep, n_resamples=None):
    setting = Setting(200, 2000, rho=0.5, n_subjects=100)
    rejected = 0
    for i in range(n_rep):
        t = dev_eval(setting, seed=i)
        kw = {} if n_resamples is None else {"n_resamples": n_resamples, "seed": i}
        res = pbs.compare(t, test=test, **kw)
        rejected += bool(res.reject.iloc[0])
    return rejected / n_rep


@pytest.mark.parametrize("test", list(TESTS))
def test_compare_defaults_hold_their_level_or_refuse(test):
    """compare() with no threshold argument on two identical systems with dev/eval splits:
    each test refuses with its named error or rejects at most 8 % of the time."""
    if test in DECISION_TESTS:
        with pytest.raises(DecisionTestError):
            _rejections(test, 1)
        return
    n_rep = 150
    rate = _rejections(test, n_rep, n_resamples=199 if test == "bootstrap" else None)
    assert rate <= 0.08, (test, rate)
