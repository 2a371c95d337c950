"""The DataFrame significance layer (pandas_biosig.verification._intervals).

In this order: the pairwise kernels; compare() against hand counts (plain loops over the
trials) fed to the scalar tests, and against statsmodels; multiplicity adjustment;
properties (swapping, identical systems, shuffling); alignment; ci(); pairwise_matrix();
repeated runs; literature mode; input validation.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

import pandas_biosig as pbs
from pandas_biosig import stats
from pandas_biosig._core.pairwise import (
    ADJUST_METHODS,
    ERROR_BASELINE,
    ERROR_MATRIX_COLUMN,
    ERROR_MATRIX_FAMILIES,
    ERROR_NOT_PAIRWISE,
    ERROR_ONE_SYSTEM,
)
from pandas_biosig._core.schema import ERROR_OPTION, SchemaError
from pandas_biosig._core.validation import (
    ERROR_ADJUST,
    ERROR_ALPHA,
    ERROR_ALTERNATIVE,
    ERROR_CONFIDENCE_LEVEL,
)
from pandas_biosig._kernels.pairwise import (
    block_rows,
    decision_errors,
    pair_counts,
    sign_median_interval,
)
from pandas_biosig.verification import (
    BOOTSTRAP_COLUMNS,
    CI_COLUMNS,
    COMPARE_COLUMNS,
    COMPARE_FOLDS_COLUMNS,
    EER_BOUND_COLUMNS,
    FOLD_METRICS_COLUMNS,
    FOLD_SUMMARY_COLUMNS,
    TESTS,
)
from pandas_biosig.verification import _comparison as comparison
from pandas_biosig.verification import _intervals as sig
from pandas_biosig.verification._comparison import (
    ERROR_METRIC_UNUSED,
    ERROR_NO_COMMON,
    ERROR_TARGET,
)
from pandas_biosig.verification._folds import ERROR_FOLD_COLUMN
from pandas_biosig.verification._literature import (
    ERROR_DUPLICATE_SYSTEMS,
    ERROR_N_DIFFERS,
    ERROR_N_MISSING,
    ERROR_REPORTED_NOT_A_FRAME,
)

MATRIX_TESTS = [t for t in TESTS if t != "bootstrap"]
SYSTEMS = ["cnn", "cnn_aug", "gmm", "lbp"]


def prefix(message: str) -> str:
    """The longest fixed text of a message constant (for ``match=``)."""
    import re

    chunks = re.split(r"\{[^}]*\}", message)
    return re.escape(max(chunks, key=len))


@pytest.fixture(scope="module")
def trials():
    return pbs.datasets.example_trials()


@pytest.fixture(scope="module")
def eval_trials(trials):
    return trials[trials.split == "eval"].reset_index(drop=True)


# ============================================================================ kernels


def brute_counts(errors, genuine, present):
    k = errors.shape[1]
    out = {f"{n}_{c}": np.zeros((k, k), dtype=np.int64) for n in ("both", "err", "n") for c in "ic"}
    for t in range(errors.shape[0]):  # a plain loop over trials
        c = "c" if genuine[t] else "i"
        for a in range(k):
            for b in range(k):
                if present[t, a] and present[t, b]:
                    out[f"n_{c}"][a, b] += 1
                    out[f"err_{c}"][a, b] += int(errors[t, a])
                    out[f"both_{c}"][a, b] += int(errors[t, a] and errors[t, b])
    return out


@pytest.mark.parametrize("ragged", [False, True])
def test_pair_counts_equal_a_loop_over_trials(ragged):
    rng = np.random.default_rng(3)
    n, k = 200, 4
    genuine = rng.random(n) < 0.3
    present = (rng.random((n, k)) < 0.8) if ragged else np.ones((n, k), bool)
    errors = (rng.random((n, k)) < 0.3) & present
    got = pair_counts(errors.astype(np.float32), genuine, present.astype(np.float32) if ragged else None)
    want = brute_counts(errors, genuine, present)
    for name in want:
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)


def test_blocked_products_are_exact():
    rng = np.random.default_rng(5)
    n, k = 3000, 40  # several blocks of block_rows(40) = 256 rows
    assert block_rows(k) < n
    errors = rng.random((n, k)) < 0.5
    genuine = rng.random(n) < 0.5
    got = pair_counts(np.asfortranarray(errors, dtype=np.float32), genuine)
    e = errors.astype(np.int64)
    np.testing.assert_array_equal(got["both_c"], e[genuine].T @ e[genuine])
    np.testing.assert_array_equal(got["both_i"], e[~genuine].T @ e[~genuine])


def test_pair_counts_gathers_either_class():
    # the smaller class is gathered; the result must not depend on which one that is
    rng = np.random.default_rng(4)
    errors = (rng.random((100, 3)) < 0.4).astype(np.float32)
    for share in (0.2, 0.8):
        genuine = rng.random(100) < share
        want = brute_counts(errors.astype(bool), genuine, np.ones((100, 3), bool))
        got = pair_counts(errors, genuine)
        for name in want:
            np.testing.assert_array_equal(got[name], want[name])


def test_decision_errors_reject_failures_to_acquire():
    scores = np.array([-np.inf, -np.inf, 0.0, 1.0])
    genuine = np.array([True, False, True, False])
    # at threshold -inf every finite score is accepted, a failure to acquire never
    np.testing.assert_array_equal(
        decision_errors(scores, -np.inf, genuine), [True, False, False, True]
    )
    np.testing.assert_array_equal(
        decision_errors(scores, 0.5, genuine), [True, False, True, True]
    )


def test_sign_median_interval_order_statistics():
    d = np.arange(1.0, 9.0)  # n = 8: P(Bin <= 0) = 0.0039 <= 0.025 < P(Bin <= 1) = 0.035
    assert sign_median_interval(d, 0.95) == (1.0, 8.0)
    assert sign_median_interval(d, 0.90) == (2.0, 7.0)  # P(Bin <= 1) = 0.035 <= 0.05
    assert sign_median_interval(d[:5], 0.95) == (-np.inf, np.inf)  # 2/32 > 0.05
    low, high = sign_median_interval(d, 0.95, "greater")
    assert (low, high) == (2.0, np.inf)
    assert sign_median_interval(d, 0.95, "less") == (-np.inf, 7.0)


# ============================================================================ hand counts


def hand_decisions(df, thresholds):
    """{system: {trial: (is_genuine, accepted)}} with plain loops over the rows."""
    out = {}
    for row in df.itertuples(index=False):
        accepted = row.score >= thresholds[row.system]
        out.setdefault(row.system, {})[row.trial] = (row.label == "genuine", accepted)
    return out


def hand_counts(dec_a, dec_b):
    """Counts of the two systems' decisions, one trial at a time."""
    c = dict(ni=0, nc=0, fa_a=0, fa_b=0, fr_a=0, fr_b=0, ni_ab=0, ni_ba=0, nc_ab=0, nc_ba=0,
             b=0, c=0, both_right=0)
    for trial, (genuine, acc_a) in dec_a.items():
        acc_b = dec_b[trial][1]
        wrong_a = acc_a != genuine
        wrong_b = acc_b != genuine
        if genuine:
            c["nc"] += 1
            c["fr_a"] += not acc_a
            c["fr_b"] += not acc_b
            c["nc_ab"] += acc_a and not acc_b
            c["nc_ba"] += (not acc_a) and acc_b
        else:
            c["ni"] += 1
            c["fa_a"] += acc_a
            c["fa_b"] += acc_b
            c["ni_ab"] += (not acc_a) and acc_b
            c["ni_ba"] += acc_a and not acc_b
        c["b"] += wrong_a and not wrong_b
        c["c"] += wrong_b and not wrong_a
        c["both_right"] += not wrong_a and not wrong_b
    return c


@pytest.fixture(scope="module")
def apriori(trials):
    """Thresholds chosen at the EER of dev, the eval decisions counted by hand."""
    er = pbs.error_rates(trials, threshold="eer", on="dev", apply_to="eval")
    thresholds = dict(zip(er.system, er.threshold, strict=True))
    ev = trials[trials.split == "eval"]
    return thresholds, hand_decisions(ev, thresholds)


def test_hter_dependent_equals_the_scalar_test_on_hand_counts(trials, apriori):
    thresholds, dec = apriori
    res = pbs.compare(trials, test="hter_dependent", on="dev", apply_to="eval")
    assert len(res) == 6
    for row in res.itertuples():
        c = hand_counts(dec[row.system_a], dec[row.system_b])
        want = stats.hter_test(
            c["fa_a"] / c["ni"], c["fr_a"] / c["nc"], c["fa_b"] / c["ni"], c["fr_b"] / c["nc"],
            n_impostor=c["ni"], n_genuine=c["nc"], method="dependent",
            ni_ab=c["ni_ab"], ni_ba=c["ni_ba"], nc_ab=c["nc_ab"], nc_ba=c["nc_ba"],
        )
        assert row.estimate == want.estimate
        assert row.statistic == want.statistic
        assert row.pvalue == want.pvalue
        assert row.log10_pvalue == want.log10_pvalue
        assert row.n == c["ni"] + c["nc"] == 1200
        ci = want.confidence_interval(confidence_level=0.95)
        assert (row.ci_low, row.ci_high) == (ci.low, ci.high)
        assert (row.threshold_a, row.threshold_b) == (
            thresholds[row.system_a], thresholds[row.system_b]
        )
        assert row.metric == "hter" and row.method == want.method


@pytest.mark.parametrize("test", ["hter_independent", "naive", "class"])
def test_rate_only_hter_tests_equal_the_scalar_test(trials, apriori, test):
    _, dec = apriori
    res = pbs.compare(trials, test_decision_rules=True, test=test, on="dev", apply_to="eval")
    method = {"hter_independent": "independent", "naive": "naive", "class": "class"}[test]
    for row in res.itertuples():
        c = hand_counts(dec[row.system_a], dec[row.system_b])
        want = stats.hter_test(
            c["fa_a"] / c["ni"], c["fr_a"] / c["nc"], c["fa_b"] / c["ni"], c["fr_b"] / c["nc"],
            n_impostor=c["ni"], n_genuine=c["nc"], method=method,
        )
        assert (row.estimate, row.statistic, row.pvalue) == (
            want.estimate, want.statistic, want.pvalue
        )
    assert set(res.metric) == {"error_rate" if test == "class" else "hter"}


@pytest.mark.parametrize("variant", ["exact", "midp", "chi2", "chi2_corrected"])
def test_mcnemar_equals_hand_counts_and_statsmodels(trials, apriori, variant):
    thresholds, dec = apriori
    res = pbs.compare(trials, test_decision_rules=True, test="mcnemar", mcnemar_method=variant, on="dev", apply_to="eval")
    ev = trials[trials.split == "eval"]
    for row in res.itertuples():
        c = hand_counts(dec[row.system_a], dec[row.system_b])
        n = c["ni"] + c["nc"]
        want = stats.mcnemar(c["b"], c["c"], n=n, method=variant)
        assert (row.estimate, row.statistic, row.pvalue) == (
            want.estimate, want.statistic, want.pvalue
        )
        # statsmodels on the 2x2 table of pd.crosstab
        wrong = {}
        for s in (row.system_a, row.system_b):
            sub = ev[ev.system == s].set_index("trial")
            wrong[s] = (sub.score >= thresholds[s]) != (sub.label == "genuine")
        table = pd.crosstab(wrong[row.system_a], wrong[row.system_b])
        # rows: A right / A wrong; columns: B right / B wrong
        assert table.loc[True, False] == c["b"] and table.loc[False, True] == c["c"]
        if variant == "exact":
            oracle = sm_mcnemar(table.to_numpy(), exact=True).pvalue
        elif variant == "chi2_corrected":
            oracle = sm_mcnemar(table.to_numpy(), exact=False, correction=True).pvalue
        elif variant == "chi2":
            oracle = sm_mcnemar(table.to_numpy(), exact=False, correction=False).pvalue
        else:
            continue
        assert row.pvalue == pytest.approx(oracle, rel=1e-9, abs=1e-300)
    assert set(res.metric) == {"error_rate"}


@pytest.mark.parametrize("test", ["gunter_simple", "gunter_paired"])
def test_gunter_equals_the_scalar_test_with_a_as_method_one(trials, apriori, test):
    _, dec = apriori
    res = pbs.compare(trials, test_decision_rules=True, test=test, on="dev", apply_to="eval")
    for row in res.itertuples():
        c = hand_counts(dec[row.system_a], dec[row.system_b])
        n = c["ni"] + c["nc"]
        r1 = (n - c["fa_a"] - c["fr_a"]) / n
        r2 = (n - c["fa_b"] - c["fr_b"]) / n
        kw = dict(method="simple") if test == "gunter_simple" else dict(
            method="paired", r12=c["both_right"] / n
        )
        want = stats.recognition_rate_test(r1, r2, n=n, alternative="two-sided", **kw)
        assert row.estimate == want.estimate == r1 - r2
        assert row.statistic == pytest.approx(want.statistic, rel=1e-12)
        assert row.pvalue == pytest.approx(want.pvalue, rel=1e-12)
    assert set(res.metric) == {"recognition_rate"}


def test_bootstrap_equals_paired_bootstrap(eval_trials):
    two = eval_trials[eval_trials.system.isin(["cnn", "gmm"])]
    res = pbs.compare(two, resample="label", test="bootstrap", metric="eer", n_resamples=60, seed=7)
    want = pbs.paired_bootstrap(two, "cnn", "gmm", metric="eer", n_resamples=60, seed=7,
                                resample="label")
    row = res.iloc[0]
    assert (row.estimate, row.statistic, row.pvalue) == (
        want.estimate, want.statistic, want.pvalue
    )
    assert (row.ci_low, row.ci_high) == tuple(want.confidence_interval())
    assert math.isnan(row.threshold_a)  # the EER needs no threshold
    # the default metric is the HTER at the threshold policy
    hter = pbs.compare(two, resample="label", test="bootstrap", n_resamples=20, seed=1)
    assert hter.metric.iloc[0] == "hter" and np.isfinite(hter.threshold_a.iloc[0])


def test_one_matrix_product_per_family(trials, monkeypatch):
    calls = []
    real = comparison.pair_counts

    def counting(*args, **kwargs):
        calls.append(args[0].shape)
        return real(*args, **kwargs)

    monkeypatch.setattr(comparison, "pair_counts", counting)
    pbs.compare(trials, on=None, apply_to=None, test_decision_rules=True, test="mcnemar")  # two splits: two families
    assert calls == [(1200, 4), (1200, 4)]


# ============================================================================ table shape


def test_all_pairs_in_input_order_with_adjustment_per_family(trials):
    res = pbs.compare(trials, test="hter_dependent", on=None, apply_to=None)
    assert list(res.columns) == COMPARE_COLUMNS
    assert len(res) == 2 * 6  # k(k-1)/2 per split
    for _, fam in res.groupby("split", sort=False):
        assert list(zip(fam.system_a, fam.system_b, strict=True)) == list(
            itertools.combinations(SYSTEMS, 2)
        )
        assert (fam.pvalue_adj >= fam.pvalue).all()
        np.testing.assert_array_equal(
            fam.pvalue_adj, multipletests(fam.pvalue, method="holm")[1]
        )
        np.testing.assert_array_equal(
            fam.reject, multipletests(fam.pvalue, alpha=0.05, method="holm")[0]
        )
    assert list(res.split.unique()) == ["dev", "eval"]
    assert (res.adjust == "holm").all() and (res.alpha == 0.05).all()


@pytest.mark.parametrize("adjust", ["bonferroni", "fdr_bh", "hommel", "fdr_by", "sidak", "b"])
def test_any_multipletests_code_is_passed_through(eval_trials, adjust):
    res = pbs.compare(eval_trials, test="hter_dependent", adjust=adjust, alpha=0.1)
    raw = res.pvalue.to_numpy()
    reject, corrected, _, _ = multipletests(raw, alpha=0.1, method=adjust)
    np.testing.assert_array_equal(res.pvalue_adj, corrected)
    np.testing.assert_array_equal(res.reject, reject)
    assert (res.adjust == adjust).all()


def test_adjustment_leaves_the_garbage_collector_as_it_found_it(eval_trials):
    import gc

    before = gc.get_freeze_count()  # whatever the interpreter (or a plugin) froze
    pbs.compare(eval_trials, test="hter_dependent")
    assert gc.get_freeze_count() == before
    gc.freeze()  # a caller's own frozen objects stay frozen
    try:
        frozen = gc.get_freeze_count()
        pbs.compare(eval_trials, test="hter_dependent")
        assert gc.get_freeze_count() > frozen // 2  # not unfrozen (a few may be freed)
    finally:
        gc.unfreeze()


def test_no_adjustment(eval_trials):
    res = pbs.compare(eval_trials, test="hter_dependent", adjust=None)
    np.testing.assert_array_equal(res.pvalue_adj, res.pvalue)
    assert (res.adjust == "none").all()
    assert (res.reject == (res.pvalue <= 0.05)).all()


def test_baseline_gives_k_minus_one_rows(eval_trials):
    res = pbs.compare(eval_trials, test="hter_dependent", baseline="gmm")
    assert list(zip(res.system_a, res.system_b, strict=True)) == [
        ("cnn", "gmm"), ("cnn_aug", "gmm"), ("lbp", "gmm")
    ]
    np.testing.assert_array_equal(res.pvalue_adj, multipletests(res.pvalue, method="holm")[1])
    full = pbs.compare(eval_trials, test="hter_dependent")
    # the same tests, signs as system - baseline
    cnn = full[(full.system_a == "cnn") & (full.system_b == "gmm")].iloc[0]
    assert res.estimate.iloc[0] == cnn.estimate and res.pvalue.iloc[0] == cnn.pvalue
    lbp = full[(full.system_a == "gmm") & (full.system_b == "lbp")].iloc[0]
    assert res.estimate.iloc[2] == -lbp.estimate and res.pvalue.iloc[2] == lbp.pvalue


def test_by_adjusts_within_each_group():
    a = pbs.datasets.example_trials(seed=0).assign(protocol="P1")
    b = pbs.datasets.example_trials(seed=5).assign(protocol="P2")
    b = b[b.system != "lbp"]  # a smaller family in P2
    both = pd.concat([a, b], ignore_index=True)
    res = pbs.compare(both, test="hter_dependent", on=None, by="protocol", apply_to="eval")
    assert list(res.columns) == ["protocol", *COMPARE_COLUMNS]
    assert list(res.protocol.value_counts(sort=False)) == [6, 3]
    for protocol, fam in res.groupby("protocol"):
        np.testing.assert_array_equal(
            fam.pvalue_adj, multipletests(fam.pvalue, method="holm")[1]
        )
        alone = pbs.compare(both[both.protocol == protocol], test="hter_dependent", on=None, apply_to="eval")
        np.testing.assert_array_equal(fam.pvalue_adj, alone.pvalue_adj)
    # adjusting the 9 rows together would give other numbers
    assert not np.array_equal(res.pvalue_adj, multipletests(res.pvalue, method="holm")[1])


def test_columns_never_depend_on_the_arguments(eval_trials):
    kw = [
        dict(test=t) for t in MATRIX_TESTS
    ] + [
        dict(test="bootstrap", n_resamples=10, seed=0),
        dict(adjust=None, confidence_level=0.9, alternative="less"),
        dict(baseline="cnn"),
    ]
    for k in kw:
        res = pbs.compare(eval_trials, test_decision_rules=True, **k)
        assert list(res.columns) == COMPARE_COLUMNS, k
        for c in ("n", "estimate", "statistic", "pvalue", "pvalue_adj", "ci_low", "ci_high"):
            assert pd.api.types.is_numeric_dtype(res[c]), (k, c)
        assert res.reject.dtype == bool


def test_one_sided_alternative(eval_trials):
    two = pbs.compare(eval_trials, test="hter_dependent")
    less = pbs.compare(eval_trials, test="hter_dependent", alternative="less")
    # cnn vs lbp: cnn has fewer errors, so "less" halves the two-sided p
    row = 2
    assert less.estimate[row] < 0
    assert less.pvalue[row] == pytest.approx(two.pvalue[row] / 2, rel=1e-9)
    assert less.ci_low[row] == -np.inf
    assert (less.alternative == "less").all()


@pytest.mark.parametrize("alternative", ["less", "greater"])
def test_bootstrap_rows_honour_a_one_sided_alternative(eval_trials, alternative):
    kw = dict(test="bootstrap", resample="label", n_resamples=400, seed=3)
    two = pbs.compare(eval_trials, **kw)
    one = pbs.compare(eval_trials, alternative=alternative, **kw)
    assert (one.alternative == alternative).all()
    # the same replicates: the one-sided interval is open on the side of H1, and its
    # closed bound is the (1 - level) quantile, which lies inside the two-sided interval
    np.testing.assert_array_equal(one.estimate, two.estimate)
    if alternative == "greater":
        assert (one.ci_high == np.inf).all() and (one.ci_low >= two.ci_low).all()
    else:
        assert (one.ci_low == -np.inf).all() and (one.ci_high <= two.ci_high).all()
    # as in the parametric rows, the interval excludes 0 where the p-value is small
    # (the +1 correction of the p-value aside: no replicate sits at the boundary here)
    excludes = (one.ci_low > 0) | (one.ci_high < 0)
    np.testing.assert_array_equal(excludes, one.pvalue < 0.05)
    # the same interval as the scalar bootstrap test
    pair = eval_trials[eval_trials.system.isin(["cnn", "lbp"])]
    want = pbs.paired_bootstrap(pair, "cnn", "lbp", metric="hter", alternative=alternative,
                                **{k: v for k, v in kw.items() if k != "test"})
    row = pbs.compare(pair, alternative=alternative, **kw).iloc[0]
    assert (row.ci_low, row.ci_high) == tuple(want.confidence_interval())
    assert row.pvalue == want.pvalue


def test_distance_orientation_gives_the_same_tests(eval_trials):
    dist = eval_trials.assign(score=-eval_trials.score)
    a = pbs.compare(eval_trials, test_decision_rules=True, test="mcnemar")
    b = pbs.compare(dist, test_decision_rules=True, test="mcnemar", orientation="distance")
    np.testing.assert_array_equal(a.pvalue, b.pvalue)
    np.testing.assert_array_equal(a.threshold_a, -b.threshold_a)


# ============================================================================ properties


def _table(scores, labels):
    k = len(scores)
    n = len(labels)
    return pd.DataFrame({
        "system": np.repeat([f"s{j}" for j in range(k)], n),
        "trial": np.tile(np.arange(n), k),
        "label": np.tile(labels, k),
        "score": np.concatenate(scores),
    })


@st.composite
def paired_tables(draw):
    n = draw(st.integers(6, 30))
    k = draw(st.integers(2, 3))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    labels[0], labels[1] = True, False
    scores = [
        np.array(draw(st.lists(st.integers(-5, 5), min_size=n, max_size=n)), float) / 2
        for _ in range(k)
    ]
    return _table(scores, np.array(labels))


@settings(max_examples=40, deadline=None)
@given(paired_tables(), st.sampled_from([*MATRIX_TESTS, "bootstrap"]))
def test_swapping_the_systems_flips_the_estimate_and_keeps_the_pvalue(df, test):
    kw = dict(test=test)
    if test == "bootstrap":
        # one generator serves the pairs in turn: only a single pair sees the same draws
        # whichever way round it is listed
        kw.update(n_resamples=20, seed=0)
        df = df[df.system.isin(["s0", "s1"])]
    rev = pd.concat([g for _, g in df.groupby("system", sort=False)][::-1])
    a = pbs.compare(df, test_decision_rules=True, **kw).set_index(["system_a", "system_b"])
    b = pbs.compare(rev, test_decision_rules=True, **kw).set_index(["system_b", "system_a"])  # swapped pairs
    b.index = b.index.set_names(["system_a", "system_b"])
    b = b.loc[a.index]
    np.testing.assert_array_equal(a.estimate, -b.estimate)
    np.testing.assert_allclose(a.pvalue, b.pvalue, rtol=1e-12, atol=0)
    if test in sig._SIGNED_STATISTIC:
        np.testing.assert_allclose(a.statistic, -b.statistic, rtol=1e-12, atol=0)


@settings(max_examples=25, deadline=None)
@given(paired_tables())
def test_shuffling_the_rows_changes_nothing_but_the_order(df):
    shuffled = df.sample(frac=1, random_state=0)
    a = pbs.compare(df, test_decision_rules=True, test="mcnemar").set_index(["system_a", "system_b"])
    b = pbs.compare(shuffled, test_decision_rules=True, test="mcnemar")
    # input order is first appearance: orient b's pairs like a's
    flip = [(y, x) in a.index for x, y in zip(b.system_a, b.system_b, strict=True)]
    b.loc[flip, ["system_a", "system_b"]] = b.loc[flip, ["system_b", "system_a"]].to_numpy()
    b.loc[flip, "estimate"] = -b.loc[flip, "estimate"]
    b = b.set_index(["system_a", "system_b"]).loc[a.index]
    np.testing.assert_array_equal(a.estimate, b.estimate)
    np.testing.assert_array_equal(a.pvalue, b.pvalue)


@pytest.mark.parametrize("test", [*MATRIX_TESTS, "bootstrap"])
def test_identical_systems_do_not_differ(eval_trials, test):
    cnn = eval_trials[eval_trials.system == "cnn"]
    df = pd.concat([cnn, cnn.assign(system="twin")], ignore_index=True)
    kw = dict(n_resamples=30, seed=0) if test == "bootstrap" else {}
    row = pbs.compare(df, test_decision_rules=True, test=test, **kw).iloc[0]
    assert row.estimate == 0.0
    assert row.pvalue == 1.0 and row.pvalue_adj == 1.0 and not row.reject


# ============================================================================ alignment


def test_misaligned_trials_raise_the_align_pair_error(eval_trials):
    bad = eval_trials.drop(eval_trials.index[eval_trials.system == "gmm"][:5])
    with pytest.raises(SchemaError, match="systems 'cnn' and 'gmm' do not share the same trials"):
        pbs.compare(bad)
    with pytest.raises(SchemaError, match="do not share the same trials"):
        pbs.compare(bad, test="bootstrap", n_resamples=5)


def test_common_trials_pairs_each_pair_on_its_shared_trials(eval_trials):
    rng = np.random.default_rng(0)
    keep = rng.random(len(eval_trials)) < 0.9  # every system loses different trials
    ragged = eval_trials[keep]
    for test in ("hter_dependent", "mcnemar", "gunter_paired"):
        res = pbs.compare(ragged, test_decision_rules=True, test=test, common_trials=True)
        for row in res.itertuples():
            a = ragged[ragged.system == row.system_a]
            b = ragged[ragged.system == row.system_b]
            shared = np.intersect1d(a.trial, b.trial)
            assert row.n == shared.size
            # thresholds come from each system's own trials; the test from the shared ones
            pair = pd.concat([a[a.trial.isin(shared)], b[b.trial.isin(shared)]])
            want = pbs.compare(pair, test_decision_rules=True, test=test, threshold={
                row.system_a: row.threshold_a, row.system_b: row.threshold_b})
            assert row.estimate == want.estimate.iloc[0]
            assert row.pvalue == want.pvalue.iloc[0]


def test_same_trials_in_another_order_are_aligned(eval_trials):
    parts = [g for _, g in eval_trials.groupby("system", sort=False)]
    parts[2] = parts[2].iloc[::-1]  # gmm lists its trials backwards
    a = pbs.compare(eval_trials, test_decision_rules=True, test="mcnemar")
    b = pbs.compare(pd.concat(parts), test_decision_rules=True, test="mcnemar")
    pd.testing.assert_frame_equal(a, b)


def test_disagreeing_labels_raise(eval_trials):
    bad = eval_trials.copy()
    i = bad.index[(bad.system == "gmm") & (bad.label == "genuine")][0]
    bad.loc[i, "label"] = "impostor"
    with pytest.raises(SchemaError, match="genuine for one system and impostor for another"):
        pbs.compare(bad)
    with pytest.raises(SchemaError, match="genuine for one system and impostor for another"):
        pbs.compare(bad.drop(bad.index[-1]), common_trials=True)


def test_pairs_without_shared_trials_of_a_class_raise():
    df = _table([np.array([1.0, 0.0, 1.0, 0.0]), np.array([1.0, 0.0, 1.0, 0.0])],
                np.array([True, False, True, False]))
    df = df[~((df.system == "s1") & df.trial.isin([0, 2]))]  # s1 keeps no genuine shared...
    df = pd.concat([df, pd.DataFrame({"system": ["s1"], "trial": [9], "label": [True],
                                      "score": [1.0]})])
    with pytest.raises(SchemaError, match=prefix(ERROR_NO_COMMON)):
        pbs.compare(df, common_trials=True)


# ============================================================================ ci


def test_ci_rows_equal_the_scalar_intervals(trials):
    res = pbs.ci(trials, on="dev", apply_to="eval", confidence_level=0.9, ci_method="wilson",
                 resample="label",
                 combine="bengio")
    er = pbs.error_rates(trials, on="dev", apply_to="eval")
    assert list(res.columns) == CI_COLUMNS
    assert len(res) == 4 * 4
    assert list(res.metric[:4]) == ["far", "frr", "hter", "dcf"]
    for s, rates in zip(er.system, er.itertuples(), strict=True):
        rows = res[res.system == s].set_index("metric")
        far = stats.rate_ci(rates.fa, rates.n_impostor).confidence_interval(confidence_level=0.9)
        assert (rows.loc["far", "ci_low"], rows.loc["far", "ci_high"]) == tuple(far)
        assert rows.loc["far", "estimate"] == rates.far
        frr = stats.rate_ci(rates.fr, rates.n_genuine).confidence_interval(confidence_level=0.9)
        assert (rows.loc["frr", "ci_low"], rows.loc["frr", "ci_high"]) == tuple(frr)
        hter = stats.hter_ci(rates.far, rates.frr, n_impostor=960, n_genuine=240)
        assert rows.loc["hter", "estimate"] == hter.estimate
        assert rows.loc["hter", "se"] == hter.se
        assert (rows.loc["hter", "ci_low"], rows.loc["hter", "ci_high"]) == tuple(
            hter.confidence_interval(confidence_level=0.9)
        )
        dcf = stats.dcf_ci(rates.far, rates.frr, n_impostor=960, n_genuine=240,
                           p_target=0.01, normalize=True)
        assert rows.loc["dcf", "estimate"] == pytest.approx(dcf.estimate, rel=1e-15)
        assert rows["threshold"].nunique() == 1
        assert rows.loc["far", "threshold"] == rates.threshold
    assert set(res.ci_method) == {"wilson", "bengio"}
    assert (res.threshold_split == "dev").all() and (res.criterion == "eer").all()


def test_ci_dcf_matches_pbs_dcf(eval_trials):
    res = pbs.ci(eval_trials, metric="dcf", threshold="min_dcf", p_target=0.05)
    d = pbs.dcf(eval_trials, p_target=0.05, threshold="min_dcf")
    np.testing.assert_allclose(res.estimate, d.act_dcf, rtol=1e-12)


def test_ci_concatenates_with_the_bootstrap(eval_trials):
    ours = pbs.ci(eval_trials, metric="hter")
    boot = pbs.bootstrap(eval_trials, metric="hter", n_resamples=50, seed=0)
    shared = [c for c in BOOTSTRAP_COLUMNS if c in CI_COLUMNS]
    assert shared == ["system", "split", "metric", "estimate", "se", "ci_low", "ci_high",
                      "confidence_level", "ci_method", "resample", "threshold",
                      "threshold_from", "weight"]
    both = pd.concat([ours, boot], ignore_index=True)
    assert len(both) == 8
    np.testing.assert_allclose(ours.estimate, boot.estimate, rtol=1e-15)  # same policy
    np.testing.assert_array_equal(ours.threshold, boot.threshold)
    np.testing.assert_array_equal(ours.weight, boot.weight)  # NaN: "eer" reads no weight
    weighted = pbs.ci(eval_trials, metric="hter", threshold="min_weighted", weight=0.3)
    er = pbs.error_rates(eval_trials, threshold="min_weighted", weight=0.3)
    np.testing.assert_array_equal(weighted.weight, er.weight)
    np.testing.assert_array_equal(weighted.threshold, er.threshold)


def test_ci_one_metric_and_other_binomial_methods(eval_trials):
    res = pbs.ci(eval_trials, metric="far", ci_method="beta", resample="label")
    assert list(res.metric) == ["far"] * 4 and set(res.ci_method) == {"beta"}
    fa = np.rint(res.estimate * res.n_impostor).astype(int)
    for row, k in zip(res.itertuples(), fa, strict=True):
        want = stats.rate_ci(int(k), int(row.n_impostor), method="beta").confidence_interval()
        assert (row.ci_low, row.ci_high) == tuple(want)


def test_ci_errors(eval_trials):
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        pbs.ci(eval_trials, metric="eer")
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        pbs.ci(eval_trials, ci_method="wald")
    for level in (0, 1, 95, True):
        with pytest.raises(ValueError, match=prefix(ERROR_CONFIDENCE_LEVEL)):
            pbs.ci(eval_trials, confidence_level=level)


# ============================================================================ matrix


def test_pairwise_matrix_symmetric_and_antisymmetric(eval_trials):
    res = pbs.compare(eval_trials, test="hter_dependent")
    p = pbs.pairwise_matrix(res)
    assert list(p.index) == list(p.columns) == SYSTEMS
    assert p.index.name == "system_a" and p.columns.name == "system_b"
    assert np.isnan(np.diag(p)).all()
    np.testing.assert_array_equal(p.to_numpy(), p.to_numpy().T)
    e = pbs.pairwise_matrix(res, col="estimate")
    np.testing.assert_array_equal(e.to_numpy(), -e.to_numpy().T)
    assert e.loc["cnn", "lbp"] == res.estimate[2]
    z = pbs.pairwise_matrix(res, col="statistic")
    np.testing.assert_array_equal(z.to_numpy(), -z.to_numpy().T)
    lo = pbs.pairwise_matrix(res, col="ci_low")
    hi = pbs.pairwise_matrix(res, col="ci_high")
    np.testing.assert_array_equal(lo.to_numpy(), -hi.to_numpy().T)
    t = pbs.pairwise_matrix(res, col="threshold_a")
    assert t.loc["gmm", "cnn"] == res.threshold_b[0 + 1]  # (cnn, gmm) is row 1
    r = pbs.pairwise_matrix(res, col="reject")
    assert r.dtypes.unique().tolist() == [pd.BooleanDtype()]
    assert r.loc["cnn", "cnn"] is pd.NA and bool(r.loc["gmm", "cnn"])


def test_pairwise_matrix_mirrors_like_the_swapped_table(eval_trials):
    """Every mirrored cell equals the value compare() gives with the input reversed."""
    rev = pd.concat([g for _, g in eval_trials.groupby("system", sort=False)][::-1])
    for test in ("mcnemar", "hter_dependent", "gunter_paired"):
        fwd = pbs.compare(eval_trials, test_decision_rules=True, test=test)
        bwd = pbs.compare(rev, test_decision_rules=True, test=test)
        for col in ("statistic", "estimate", "pvalue", "ci_low", "threshold_a"):
            m = pbs.pairwise_matrix(fwd, col=col)
            want = pbs.pairwise_matrix(bwd, col=col).loc[m.index, m.columns]
            np.testing.assert_allclose(m.to_numpy(float), want.to_numpy(float), rtol=1e-12,
                                       err_msg=f"{test} {col}")


def test_pairwise_matrix_baseline_leaves_untested_pairs_empty(eval_trials):
    res = pbs.compare(eval_trials, test="hter_dependent", baseline="lbp")
    m = pbs.pairwise_matrix(res, col="pvalue")
    assert list(m.index) == SYSTEMS
    assert m.loc[["cnn", "cnn_aug", "gmm"], "lbp"].notna().all()
    assert m.loc["cnn", "gmm"] != m.loc["cnn", "gmm"]  # NaN


def test_pairwise_matrix_needs_one_family(trials):
    res = pbs.compare(trials, test="hter_dependent", on=None, apply_to=None)
    with pytest.raises(ValueError, match=prefix(ERROR_MATRIX_FAMILIES)) as info:
        pbs.pairwise_matrix(res)
    assert "'dev'" in str(info.value) and "'eval'" in str(info.value)
    assert pbs.pairwise_matrix(res[res.split == "dev"]).shape == (4, 4)
    with pytest.raises(ValueError, match=prefix(ERROR_MATRIX_COLUMN)):
        pbs.pairwise_matrix(res[res.split == "dev"], col="p_val")
    with pytest.raises(ValueError, match=prefix(ERROR_NOT_PAIRWISE)):
        pbs.pairwise_matrix(trials)


def test_pairwise_matrix_families_include_by_columns():
    a = pbs.datasets.example_trials(seed=0).assign(protocol="P1")
    b = pbs.datasets.example_trials(seed=1).assign(protocol="P2")
    res = pbs.compare(pd.concat([a, b]), test="hter_dependent", on=None, by="protocol", apply_to="eval")
    with pytest.raises(ValueError, match="'P1'"):
        pbs.pairwise_matrix(res)
    assert pbs.pairwise_matrix(res[res.protocol == "P2"]).shape == (4, 4)


# ============================================================================ folds


@pytest.fixture(scope="module")
def folded(trials):
    """Eight folds made of the subjects; folds with an odd number are harder for lbp."""
    return trials.assign(fold=trials.subject.str[1:].astype(int) % 8)


def test_fold_metrics_equal_error_rates_by_fold(folded):
    per = pbs.fold_metrics(folded, on="dev", apply_to="eval")
    assert list(per.columns) == FOLD_METRICS_COLUMNS
    er = pbs.error_rates(folded, by="fold", on="dev", apply_to="eval")
    assert len(per) == len(er) == 8 * 4
    np.testing.assert_array_equal(per.estimate, er.hter)
    np.testing.assert_array_equal(per.threshold, er.threshold)
    np.testing.assert_array_equal(per.fold, er.fold)
    eer = pbs.fold_metrics(folded, metric="eer", split=None)
    want = pbs.eer(folded, by="fold", split=None)  # the library's default EER
    np.testing.assert_allclose(eer.estimate, want.eer, rtol=1e-15)
    hull = pbs.fold_metrics(folded, metric="eer_rocch", split=None)
    want = pbs.eer(folded, by="fold", split=None, method="rocch")
    np.testing.assert_allclose(hull.estimate, want.eer, rtol=1e-15)
    assert eer.threshold.isna().all()


def test_fold_summary_is_mean_and_spread(folded):
    summ = pbs.fold_summary(folded, metric="eer")
    assert list(summ.columns) == FOLD_SUMMARY_COLUMNS
    per = pbs.fold_metrics(folded, metric="eer")
    g = per.groupby(["system", "split"], sort=False).estimate
    np.testing.assert_allclose(summ["mean"], g.mean().to_numpy(), rtol=1e-14)
    np.testing.assert_allclose(summ["std"], g.std().to_numpy(), rtol=1e-12)
    assert (summ.n_folds == 8).all() and len(summ) == 4 * 2


def test_compare_folds_equals_the_sign_test_on_hand_counted_wins(folded):
    res = pbs.compare_folds(folded, metric="eer", split=None)
    assert list(res.columns) == COMPARE_FOLDS_COLUMNS
    per = pbs.fold_metrics(folded, metric="eer", split=None)
    table = per.pivot(index="fold", columns="system", values="estimate")
    for row in res.itertuples():
        wins_a = wins_b = 0
        for f in table.index:  # plain loop over folds
            a, b = table.loc[f, row.system_a], table.loc[f, row.system_b]
            wins_a += a < b
            wins_b += b < a
        assert (row.wins_a, row.wins_b, row.ties) == (wins_a, wins_b, 8 - wins_a - wins_b)
        want = stats.sign_test(wins_b, wins_a, alternative="two-sided")  # A - B > 0 = B wins
        assert row.pvalue == want.pvalue and row.statistic == wins_b
        d = table[row.system_a] - table[row.system_b]
        assert row.estimate == np.median(d)
        assert row.mean_a == pytest.approx(table[row.system_a].mean(), rel=1e-14)
    np.testing.assert_array_equal(res.pvalue_adj, multipletests(res.pvalue, method="holm")[1])


def test_compare_folds_reference_four_wins_of_four():
    # Guenter's example: A wins 4 runs of 4 -> one-sided P = 0.0625
    rows = []
    for f in range(4):
        for s, shift in (("A", 3.0), ("B", 1.0)):
            rng = np.random.default_rng(f)
            gen = np.r_[np.ones(50, bool), np.zeros(50, bool)]
            score = np.where(gen, shift, 0.0) + rng.standard_normal(100)
            rows.append(pd.DataFrame({"system": s, "trial": np.arange(100), "label": gen,
                                      "score": score, "fold": f}))
    df = pd.concat(rows)
    res = pbs.compare_folds(df, metric="eer", alternative="less")  # A's EER lower
    row = res.iloc[0]
    assert (row.wins_a, row.wins_b, row.n) == (4, 0, 4)
    assert row.pvalue == pytest.approx(0.0625)
    two = pbs.compare_folds(df, metric="auc")
    assert two.wins_a.iloc[0] == 4 and two.statistic.iloc[0] == 4  # AUC: higher is better
    assert two.pvalue.iloc[0] == pytest.approx(0.125)


def test_compare_folds_ties_are_dropped():
    df = pbs.datasets.example_trials()
    df = pd.concat([df[df.system == "cnn"], df[df.system == "cnn"].assign(system="twin")])
    res = pbs.compare_folds(df, fold="split", split=None, metric="eer")
    row = res.iloc[0]
    assert (row.n, row.ties, row.n_folds, row.pvalue, row.estimate) == (0, 2, 2, 1.0, 0.0)


def test_compare_folds_swap_and_baseline(folded):
    a = pbs.compare_folds(folded, metric="min_hter", apply_to="eval")
    rev = pd.concat([g for _, g in folded.groupby("system", sort=False)][::-1])
    b = pbs.compare_folds(rev, metric="min_hter", apply_to="eval")
    b = b.set_index(["system_b", "system_a"]).loc[list(zip(a.system_a, a.system_b, strict=True))]
    np.testing.assert_array_equal(a.estimate, -b.estimate)
    np.testing.assert_array_equal(a.pvalue, b.pvalue)
    np.testing.assert_array_equal(a.ci_low, -b.ci_high)
    base = pbs.compare_folds(folded, metric="eer", baseline="lbp")
    assert len(base) == 2 * 3
    m = pbs.pairwise_matrix(base[base.split == "eval"], col="statistic")
    assert m.loc["lbp", "cnn"] == base.n[3] - base.statistic[3]


def test_fold_errors(folded):
    with pytest.raises(ValueError, match=prefix(ERROR_FOLD_COLUMN)):
        pbs.compare_folds(folded, fold="system")
    with pytest.raises(SchemaError, match="missing column"):
        pbs.fold_metrics(folded.drop(columns="fold"))
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        pbs.fold_summary(folded, metric="accuracy")
    with pytest.raises(ValueError, match=prefix(ERROR_TARGET)):
        pbs.fold_metrics(folded, metric="fnmr_at_fmr")
    with pytest.raises(ValueError, match=prefix(ERROR_ALPHA)):
        pbs.compare_folds(folded, alpha=0)


# ============================================================================ literature


def test_eer_bound_example_2():
    reported = pd.DataFrame({"system": ["A", "B"], "eer": [0.0013, 0.0058]})
    tab = pbs.eer_bound_table(reported, n=719400)
    assert list(tab.columns) == EER_BOUND_COLUMNS
    row = tab.iloc[0]
    assert round(row.statistic, 1) == 2051.8
    assert row.pvalue < 1e-6 and row.pvalue_adj < 1e-6
    assert round(row.log10_pvalue, 1) == -447.3
    assert row.verdict == "significant" and row.estimate == pytest.approx(0.0013 - 0.0058)


EXAMPLE_3 = pd.DataFrame({
    "system": ["TAN", "DAUGMAN", "MA", "YAO", "BASTYS"],
    # TAN at 0.58 %: the EER_M the paper uses ("we don't know the exact number for TAN")
    "eer": [0.0058, 0.0008, 0.0007, 0.0028, 0.0],
    "n": 285390,
})


def test_eer_bound_example_3():
    tab = pbs.eer_bound_table(EXAMPLE_3, alpha=0.01, adjust=None)  # N from the "n" column
    assert len(tab) == 10
    assert round(tab.min_significant_difference.iloc[0] * 100, 4) == 0.0519
    assert tab.min_significant_difference.nunique() == 1
    ma = tab[(tab.system_a == "DAUGMAN") & (tab.system_b == "MA")].iloc[0]
    assert round(ma.statistic, 4) == 1.9026 and round(ma.pvalue, 4) == 0.1678
    # "all differences, except between MA and DAUGMAN are significant"
    assert (tab.verdict == "cannot tell").sum() == 1 and ma.verdict == "cannot tell"
    big = tab.estimate.abs() >= tab.min_significant_difference
    assert tab.reject[big].all()


def test_eer_bound_table_adjusts_and_bounds_for_the_family():
    tab = pbs.eer_bound_table(EXAMPLE_3, alpha=0.01)  # Holm over the 10 pairs
    np.testing.assert_array_equal(tab.pvalue_adj, multipletests(tab.pvalue, method="holm")[1])
    # the family's delta is at the Bonferroni level alpha / m, so it guarantees significance
    want = stats.min_significant_eer_difference(0.0058, n=285390, alpha=0.01 / 10)
    assert tab.min_significant_difference.iloc[0] == want
    big = tab.estimate.abs() >= want
    assert tab.reject[big].all()
    assert set(tab.verdict) == {"significant", "cannot tell"}


def test_eer_bound_table_by_dataset():
    two = pd.concat([
        pd.DataFrame({"db": "v2", "system": ["A", "B"], "eer": [0.0013, 0.0058], "N": 719400}),
        EXAMPLE_3.rename(columns={"n": "N"}).assign(db="v1"),
    ])
    tab = pbs.eer_bound_table(two, n="N", by="db")
    assert list(tab.columns) == ["db", *EER_BOUND_COLUMNS]
    assert list(tab.db.value_counts(sort=False)) == [1, 10]
    assert tab.pvalue_adj.iloc[0] == tab.pvalue.iloc[0]  # a family of one
    assert pbs.pairwise_matrix(tab[tab.db == "v1"], col="eer_a").loc["MA", "DAUGMAN"] == 0.0007


def test_eer_bound_table_errors():
    with pytest.raises(ValueError, match=prefix(ERROR_N_MISSING)):
        pbs.eer_bound_table(EXAMPLE_3.drop(columns="n"))
    with pytest.raises(ValueError, match=prefix(ERROR_N_DIFFERS)):
        pbs.eer_bound_table(EXAMPLE_3.assign(n=[1000, 1000, 1000, 1000, 2000]))
    with pytest.raises(ValueError, match=prefix(ERROR_DUPLICATE_SYSTEMS)):
        pbs.eer_bound_table(EXAMPLE_3.assign(system=["A", "A", "B", "C", "D"]))
    with pytest.raises(ValueError, match=prefix(ERROR_ONE_SYSTEM)):
        pbs.eer_bound_table(EXAMPLE_3.iloc[:1])
    with pytest.raises(ValueError, match="must be a rate in"):
        pbs.eer_bound_table(EXAMPLE_3.assign(eer=[5.8, 0.8, 0.7, 2.8, 0.0]))  # percent
    with pytest.raises(ValueError, match=prefix(ERROR_ADJUST)):
        pbs.eer_bound_table(EXAMPLE_3, adjust="Holm-ish")
    with pytest.raises(SchemaError, match="missing column"):
        pbs.eer_bound_table(EXAMPLE_3, eer="EER")
    with pytest.raises(TypeError, match=prefix(ERROR_REPORTED_NOT_A_FRAME)):
        pbs.eer_bound_table(EXAMPLE_3.to_dict())
    with pytest.raises(ValueError, match=prefix(ERROR_ALPHA)):
        pbs.eer_bound_table(EXAMPLE_3, alpha=1.0)


# ============================================================================ validation


def test_unknown_test(eval_trials):
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)) as info:
        pbs.compare(eval_trials, test="wilcoxon")
    assert "hter_dependent" in str(info.value)


@pytest.mark.parametrize("adjust", ["holm_bonferroni", "BH", "fdr", 3])
def test_unknown_adjust(eval_trials, adjust):
    with pytest.raises(ValueError, match=prefix(ERROR_ADJUST)) as info:
        pbs.compare(eval_trials, adjust=adjust)
    assert "'holm'" in str(info.value)


def test_every_statsmodels_code_is_accepted():
    assert {"holm", "h", "bonferroni", "fdr_bh", "fdr_by", "hommel", "sidak"} <= set(ADJUST_METHODS)


def test_one_system_only(eval_trials):
    with pytest.raises(ValueError, match=prefix(ERROR_ONE_SYSTEM)) as info:
        pbs.compare(eval_trials[eval_trials.system == "cnn"])
    assert "split='eval'" in str(info.value)


def test_baseline_not_present(eval_trials):
    with pytest.raises(ValueError, match=prefix(ERROR_BASELINE)):
        pbs.compare(eval_trials, baseline="resnet")


@pytest.mark.parametrize("alpha", [0, 1, -0.1, 1.5, True, "0.05", float("nan")])
def test_alpha_outside_zero_one(eval_trials, alpha):
    with pytest.raises(ValueError, match=prefix(ERROR_ALPHA)):
        pbs.compare(eval_trials, alpha=alpha)


def test_other_option_errors(eval_trials):
    with pytest.raises(ValueError, match=prefix(ERROR_CONFIDENCE_LEVEL)):
        pbs.compare(eval_trials, confidence_level=1.0)
    with pytest.raises(ValueError, match=prefix(ERROR_ALTERNATIVE)):
        pbs.compare(eval_trials, alternative="two_sided")
    with pytest.raises(ValueError, match=prefix(ERROR_METRIC_UNUSED)):
        pbs.compare(eval_trials, test="mcnemar", metric="eer")
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        pbs.compare(eval_trials, test="mcnemar", mcnemar_method="yates")
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        pbs.compare(eval_trials, test="bootstrap", metric="accuracy")
    with pytest.raises(ValueError, match=prefix(ERROR_TARGET)):
        pbs.compare(eval_trials, test="bootstrap", metric="fnmr_at_fmr")
    with pytest.raises(SchemaError, match="needs a subject column"):
        pbs.compare(eval_trials.drop(columns="subject"), test="bootstrap", resample="subject")
    with pytest.raises(SchemaError, match="missing column"):
        pbs.compare(eval_trials.drop(columns="trial"))


def test_infeasible_threshold_gives_nan_rows(eval_trials, monkeypatch):
    # a sweep with a genuine trial that is always rejected (-inf): FRR <= 0 is unreachable
    from pandas_biosig._core import protocol
    from pandas_biosig._kernels.rates import Sweep

    def sweep(group):
        if group.system != "gmm":
            return Sweep.from_scores(group.scores, group.genuine)
        return Sweep.from_scores(np.append(group.scores, -np.inf), np.append(group.genuine, True))

    monkeypatch.setattr(protocol, "_sweep", sweep)
    with pytest.warns(pbs.BiosigWarning):
        res = pbs.compare(eval_trials, test="hter_dependent", threshold="frr", target=0.0)
    gmm = (res.system_a == "gmm") | (res.system_b == "gmm")
    assert res.pvalue[gmm].isna().all() and res.pvalue_adj[gmm].isna().all()
    assert res.pvalue[~gmm].notna().all()
    # the family adjusted is the rows with a p-value
    np.testing.assert_array_equal(
        res.pvalue_adj[~gmm], multipletests(res.pvalue[~gmm], method="holm")[1]
    )
