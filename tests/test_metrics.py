"""Reference tests of the per-system frames (tidy table in, one row per system out)."""

import numpy as np
import pandas as pd
import pytest
from reference_data import IRIS, TOY, iris_table

import pandas_biosig as pbs
from pandas_biosig._core.protocol import ERROR_TARGET
from pandas_biosig.verification._metrics import (
    DCF_COLUMNS,
    EER_COLUMNS,
    ERROR_RATE_COLUMNS,
    SUMMARY_COLUMNS,
)

E = TOY.expected


def two_splits():
    dev = TOY.table()
    dev["split"] = "dev"
    ev = TOY.table()
    ev["split"] = "eval"
    ev["trial"] += 100
    # eval: shift genuine scores so the dev threshold lands elsewhere
    ev.loc[ev.label == "genuine", "score"] -= 0.2
    return pd.concat([dev, ev], ignore_index=True)


@pytest.mark.parametrize(
    "method,expected",
    [("threshold", E["eer_threshold"]), ("interpolated", E["eer_interpolated"]),
     ("rocch", E["eer_rocch"])],
)
def test_eer_toy(trials_tiny, method, expected):
    out = pbs.eer(trials_tiny, method=method)
    assert list(out.columns) == EER_COLUMNS
    assert isinstance(out.index, pd.RangeIndex)
    row = out.iloc[0]
    assert row.eer == pytest.approx(expected)
    assert row.method == method
    assert row.threshold == pytest.approx(0.55)
    assert (row.far, row.frr) == pytest.approx((0.2, 0.25))
    assert (row.n_genuine, row.n_impostor) == (4, 5)
    assert row.split is None


def test_eer_iris():
    t = iris_table()
    row = pbs.eer(t, method="threshold").iloc[0]
    assert row.eer == pytest.approx(IRIS["eer_threshold"])
    assert row.threshold == IRIS["threshold"]
    assert pbs.eer(t, method="rocch").iloc[0].eer == pytest.approx(IRIS["eer_rocch"], rel=1e-12)


def test_summary_toy_every_column(trials_tiny):
    s = pbs.summary(trials_tiny, p_target=0.5)
    assert list(s.columns) == SUMMARY_COLUMNS
    row = s.iloc[0]
    neg, pos = np.array(TOY.impostor), np.array(TOY.genuine)
    expected_cllr = (np.mean(np.log1p(np.exp(-pos))) + np.mean(np.log1p(np.exp(neg)))) / (
        2 * np.log(2)
    )
    assert row.eer_rocch == pytest.approx(E["eer_rocch"])
    assert row.eer_threshold == pytest.approx(E["eer_threshold"])
    assert row.threshold == pytest.approx(0.55)
    assert row.auc == pytest.approx(E["auc"])
    assert row.min_hter == pytest.approx(E["min_hter"])
    assert row.fmr100 == pytest.approx(0.5)  # FAR <= 1 % of 5 impostors: none accepted
    assert row.fmr1000 == pytest.approx(0.5)
    assert row.zero_fmr == pytest.approx(E["zero_fmr"][0])
    assert row.zero_fnmr == pytest.approx(E["zero_fnmr"][0])
    assert row.min_dcf == pytest.approx(0.45)  # p=0.5, unit costs: FAR + FRR at 0.55
    assert row.cllr == pytest.approx(expected_cllr)
    assert row.min_cllr == pytest.approx(E["min_cllr"])
    assert row.d_prime == pytest.approx(0.27 / np.sqrt((0.0416 + 0.0525) / 2))
    assert (row.p_target, row.c_miss, row.c_fa) == (0.5, 1.0, 1.0)


def test_summary_iris():
    row = pbs.summary(iris_table()).iloc[0]
    assert row.auc == pytest.approx(IRIS["auc"])
    assert row.fmr100 == pytest.approx(IRIS["fnmr_at_far_001"])
    assert row.cllr == pytest.approx(IRIS["cllr"], abs=5e-6)


def test_error_rates_fixed_threshold(trials_tiny):
    er = pbs.error_rates(trials_tiny, threshold=0.55)
    assert list(er.columns) == ERROR_RATE_COLUMNS
    row = er.iloc[0]
    for k, v in E["fixed_055"].items():
        assert row[k] == pytest.approx(v), k
    assert row.criterion == "fixed"
    assert np.isnan(row.weight) and np.isnan(row.target)


def test_error_rates_accept_on_equality(trials_tiny):
    # at threshold 0.6 the genuine 0.6 is accepted (score >= threshold)
    row = pbs.error_rates(trials_tiny, threshold=0.6).iloc[0]
    assert (row.fa, row.fr) == (1, 1)
    row = pbs.error_rates(trials_tiny, threshold=0.3).iloc[0]
    assert (row.fa, row.fr) == (4, 0)


@pytest.mark.parametrize(
    "kwargs,threshold,far,frr,weight,target",
    [
        (dict(threshold="eer"), 0.55, 0.2, 0.25, np.nan, np.nan),
        (dict(threshold="min_hter"), 0.55, 0.2, 0.25, 0.5, np.nan),
        (dict(threshold="min_weighted", weight=0.25), 0.2, 0.8, 0.0, 0.25, np.nan),
        (dict(threshold="far", target=0.2), 0.55, 0.2, 0.25, np.nan, 0.2),
        (dict(threshold="far", target=0.0), 0.75, 0.0, 0.5, np.nan, 0.0),
        (dict(threshold="frr", target=0.0), 0.2, 0.8, 0.0, np.nan, 0.0),
        (dict(threshold="frr", target=0.25), 0.55, 0.2, 0.25, np.nan, 0.25),
        # p=0.5, c_miss=3: weight = 0.5 / (0.5 + 1.5) = 0.25 -> as min_weighted 0.25
        (dict(threshold="min_dcf", p_target=0.5, c_miss=3.0), 0.2, 0.8, 0.0, 0.25, np.nan),
    ],
)
def test_error_rates_criteria(trials_tiny, kwargs, threshold, far, frr, weight, target):
    row = pbs.error_rates(trials_tiny, **kwargs).iloc[0]
    assert row.threshold == pytest.approx(threshold)
    assert (row.far, row.frr) == pytest.approx((far, frr))
    np.testing.assert_allclose([row.weight, row.target], [weight, target], equal_nan=True)


def test_error_rates_dev_to_eval():
    t = two_splits()
    er = pbs.error_rates(t, threshold="eer", on="dev", apply_to="eval")
    assert er.shape[0] == 1
    row = er.iloc[0]
    assert (row.split, row.threshold_split, row.threshold) == ("eval", "dev", pytest.approx(0.55))
    # eval genuine scores 0.1, 0.4, 0.6, 0.7: one below 0.55 is 0.1 and 0.4 -> 2 FR
    assert (row.fa, row.fr) == (1, 2)
    assert pbs.error_rates(t, threshold="eer", on="dev").equals(er)  # apply_to="auto"
    assert pbs.error_rates(t, threshold="eer").equals(er)  # on="auto": dev -> eval
    both = pbs.error_rates(t, threshold="eer", on="dev", apply_to=None)
    assert both.split.tolist() == ["dev", "eval"]
    assert both.threshold.tolist() == pytest.approx([0.55, 0.55])
    own = pbs.error_rates(t, threshold="eer", on=None, apply_to=None)
    assert own.threshold_split.tolist() == ["dev", "eval"]


def test_per_system_thresholds(example):
    thr = {"cnn": 0.0, "cnn_aug": 0.1, "gmm": 0.2, "lbp": 0.3}
    er = pbs.error_rates(example, threshold=thr, apply_to="eval")
    assert er.threshold.tolist() == [0.0, 0.1, 0.2, 0.3]
    manual = example[(example.split == "eval") & (example.system == "gmm")]
    fa = ((manual.label == "impostor") & (manual.score >= 0.2)).sum()
    assert er.set_index("system").loc["gmm", "fa"] == fa


def test_distance_orientation_mirrors_similarity(trials_tiny):
    dist = trials_tiny.assign(score=-trials_tiny.score)
    a = pbs.error_rates(trials_tiny, threshold="eer").iloc[0]
    b = pbs.error_rates(dist, threshold="eer", orientation="distance").iloc[0]
    assert b.threshold == pytest.approx(-a.threshold)
    assert (b.fa, b.fr) == (a.fa, a.fr)
    # a fixed distance threshold accepts distance <= threshold
    row = pbs.error_rates(dist, threshold=-0.6, orientation="distance").iloc[0]
    assert (row.fa, row.fr) == (1, 1)
    s = pbs.summary(dist, orientation="distance").iloc[0]
    assert s.eer_rocch == pytest.approx(E["eer_rocch"])
    assert np.isnan(s.cllr)


def test_nonfinite_policies(trials_tiny):
    t = pd.concat(
        [trials_tiny, pd.DataFrame({"system": ["toy", "toy"], "trial": [9, 10],
                                    "label": ["genuine", "impostor"], "score": [np.nan, np.inf]})],
        ignore_index=True,
    )
    dropped = pbs.error_rates(t, threshold=0.55, nonfinite="drop").iloc[0]
    assert (dropped.n_genuine, dropped.n_impostor, dropped.fa, dropped.fr) == (4, 5, 1, 1)
    rej = pbs.error_rates(t, threshold=0.55, nonfinite="reject").iloc[0]
    # bob.measure / ISO/IEC 19795-1: FMR and FNMR on the 9 acquired trials, one pooled FTA
    # (2 failures of 11 trials); FAR = FMR(1 - FTA), FRR = FTA + FNMR(1 - FTA)
    assert (rej.n_genuine, rej.n_impostor, rej.fa, rej.fr) == (5, 6, 1, 1)
    assert (rej.fta, rej.fmr, rej.fnmr) == pytest.approx((2 / 11, 1 / 5, 1 / 4))
    assert (rej.far, rej.frr) == pytest.approx((1 / 5 * 9 / 11, 2 / 11 + 1 / 4 * 9 / 11))
    assert rej.hter == pytest.approx((rej.far + rej.frr) / 2)
    assert rej.error_rate == pytest.approx((rej.far * 6 + rej.frr * 5) / 11)
    # without failures the three new columns say so
    assert (dropped.fta, dropped.fmr, dropped.fnmr) == (0.0, dropped.far, dropped.frr)


def test_by_groups(example):
    t = example.assign(protocol=np.where(example.trial % 2 == 0, "even", "odd"))
    out = pbs.eer(t, by="protocol")
    assert list(out.columns) == ["protocol", *EER_COLUMNS]
    assert len(out) == 2 * 4 * 2
    one = pbs.eer(t[(t.protocol == "odd") & (t.system == "gmm") & (t.split == "dev")]).iloc[0]
    row = out[(out.protocol == "odd") & (out.system == "gmm") & (out.split == "dev")].iloc[0]
    assert row.eer == one.eer


def test_dcf_operating_points(trials_tiny):
    out = pbs.dcf(trials_tiny, p_target=[0.5, 0.25], threshold=0.55)
    assert list(out.columns) == DCF_COLUMNS
    assert out.p_target.tolist() == [0.5, 0.25]
    # p=0.5: (0.5*0.25 + 0.5*0.2) / 0.5 = 0.45; p=0.25: (0.25*0.25 + 0.75*0.2)/0.25 = 0.85
    assert out.act_dcf.tolist() == pytest.approx([0.45, 0.85])
    assert out.min_dcf.iloc[0] == pytest.approx(0.45)
    # p = 0.25: min over points of 0.25*FRR + 0.75*FAR: 0.75 at reject-all -> /0.25 = 1?
    u_rates = [(1, 0), (0.8, 0), (0.4, 0.25), (0.2, 0.25), (0.2, 0.5), (0, 0.5), (0, 0.75), (0, 1)]
    best = min(0.25 * frr + 0.75 * far for far, frr in u_rates) / 0.25
    assert out.min_dcf.iloc[1] == pytest.approx(best)


def test_dcf_bayes_threshold(trials_tiny):
    row = pbs.dcf(trials_tiny, p_target=0.5).iloc[0]
    assert row.threshold == 0.0  # log(1 * 0.5 / (1 * 0.5))
    assert row.criterion == "bayes"
    assert (row.far, row.frr) == (1.0, 0.0)


def test_missing_target_is_an_error(trials_tiny):
    with pytest.raises(ValueError, match=ERROR_TARGET.split("{")[0]):
        pbs.error_rates(trials_tiny, threshold="far")


def test_input_is_not_mutated(example):
    before = example.copy(deep=True)
    pbs.summary(example)
    pbs.error_rates(example, threshold="eer", on="dev")
    pd.testing.assert_frame_equal(example, before)


def test_threshold_policy_errors(trials_tiny, example):
    import re

    from pandas_biosig._core.protocol import ERROR_ON_FIXED, ERROR_ON_MISSING
    from pandas_biosig._core.validation import ERROR_COSTS
    from pandas_biosig.verification._metrics import ERROR_BAYES_DISTANCE

    with pytest.raises(ValueError, match=re.escape(ERROR_ON_FIXED.format(on="dev", value=0.5))):
        pbs.error_rates(example, threshold=0.5, on="dev")
    with pytest.raises(ValueError, match=re.escape(ERROR_COSTS)):
        pbs.dcf(trials_tiny, p_target=1.5)
    with pytest.raises(ValueError, match=re.escape(ERROR_COSTS)):
        pbs.error_rates(trials_tiny, c_miss=0)
    with pytest.raises(ValueError, match=re.escape(ERROR_BAYES_DISTANCE)):
        pbs.dcf(trials_tiny, orientation="distance")
    # a system scored on eval only: no dev threshold can be chosen for it
    lonely = example[(example.system == "lbp") & (example.split == "eval")].assign(system="new")
    with pytest.raises(pbs.SchemaError, match=re.escape(ERROR_ON_MISSING.split("{where}")[0].format(
            system="new", on="dev"))):
        pbs.error_rates(pd.concat([example, lonely]), threshold="eer", on="dev")


def test_frr_target_is_on_the_acquired_genuine_trials(trials_tiny):
    # bob.measure chooses thresholds on FMR/FNMR of the acquired scores: a genuine failure
    # to acquire does not make FNMR <= 0 unreachable; it shows in FRR = FTA
    t = pd.concat([trials_tiny, pd.DataFrame({"system": ["toy"], "trial": [99],
                                              "label": ["genuine"], "score": [np.nan]})])
    row = pbs.error_rates(t, threshold="frr", target=0.0, nonfinite="reject").iloc[0]
    assert row.fnmr == 0.0 and row.fr == 0
    assert row.fta == pytest.approx(1 / 10) and row.frr == pytest.approx(1 / 10)  # 1 of 10


# bob.measure's failure-to-acquire convention (bob/measure/utils.py get_fta, and
# script/figure.py Metrics._numbers), counted by hand on a bob 2-column file:
#   genuine  0.9 0.8 0.6 0.3 nan        impostor 0.7 0.4 0.2 0.1 nan nan
# get_fta: 3 NaN of 11 scores, FTA = 3/11, pooled over both classes. The threshold is
# bob's eer_threshold of the 4 + 4 acquired scores: accepting iff score >= t, at t = 0.5
# (between 0.4 and 0.6) FMR = 1/4 (0.7) and FNMR = 1/4 (0.3), |FMR - FNMR| = 0, the only
# candidate where they meet. bob then prints FAR = FMR(1 - FTA) = 2/11 and
# FRR = FTA + FNMR(1 - FTA) = 5/11, HTER = (FAR + FRR)/2 = 7/22.
BOB_FTA_FILE = "1 0.9\n1 0.8\n1 0.6\n1 0.3\n1 nan\n-1 0.7\n-1 0.4\n-1 0.2\n-1 0.1\n-1 nan\n-1 nan\n"


def test_failures_to_acquire_reproduce_bob_measure(tmp_path):
    path = tmp_path / "dev-fta.txt"
    path.write_text(BOB_FTA_FILE)
    trials = pbs.read_scores(path)
    row = pbs.error_rates(trials, threshold="eer", nonfinite="reject").iloc[0]
    assert row.threshold == pytest.approx(0.5)
    assert (row.n_genuine, row.n_impostor, row.fa, row.fr) == (5, 6, 1, 1)
    assert row.fta == pytest.approx(3 / 11)
    assert (row.fmr, row.fnmr) == pytest.approx((1 / 4, 1 / 4))
    assert (row.far, row.frr) == pytest.approx((2 / 11, 5 / 11))
    assert row.hter == pytest.approx(7 / 22)
    # EER, curves and Cllr are those of the acquired scores: finite, no FRR floor
    assert pbs.eer(trials, method="threshold", nonfinite="reject").eer[0] == pytest.approx(1 / 4)
    s = pbs.summary(trials, nonfinite="reject").iloc[0]
    dropped = pbs.summary(trials, nonfinite="drop").iloc[0]
    assert np.isfinite(s.cllr) and s.cllr == dropped.cllr
    det = pbs.det(trials, nonfinite="reject")
    assert float(det.frr.min()) == 0.0


@pytest.mark.parametrize("policy", [dict(threshold="min_weighted", weight=0.2),
                                    dict(threshold="far", target=0.05),
                                    dict(threshold="frr", target=0.1)])
def test_dcf_at_every_error_rates_criterion(policy):
    trials = pbs.datasets.example_trials()
    kw = dict(on="dev", apply_to="eval", **policy)
    d = pbs.dcf(trials, **kw)
    er = pbs.error_rates(trials, **kw)
    np.testing.assert_array_equal(d.threshold, er.threshold)
    np.testing.assert_array_equal(d.far, er.far)
    np.testing.assert_array_equal(d.frr, er.frr)


@pytest.mark.parametrize("factor", [1e300, 1e-310, 2.0**-1070, 1.7e308 / 5])
def test_d_prime_is_scale_invariant(factor):
    """d' = |3 - 0| / sqrt((1 + 1) / 2) = 3 for genuine {2, 4}, impostor {-1, 1}; the
    squared deviations of 1e300 scores overflowed (d' = 0) and those of 1e-310 scores
    underflowed (d' = inf)."""
    trials = pd.DataFrame({
        "system": "s", "trial": range(4), "label": ["genuine"] * 2 + ["impostor"] * 2,
        "score": np.array([2.0, 4.0, -1.0, 1.0]) * factor,
    })
    assert pbs.summary(trials).d_prime.item() == pytest.approx(3.0, rel=1e-12)


@pytest.mark.parametrize("power", [100, -600, 900])
def test_d_prime_keeps_its_bits_under_a_power_of_two_scaling(power):
    trials = pbs.datasets.example_trials()
    scaled = trials.assign(score=np.ldexp(trials.score.to_numpy(), power))
    expected = pbs.summary(trials).d_prime.to_numpy()
    assert np.array_equal(pbs.summary(scaled).d_prime.to_numpy(), expected)
    assert pbs.summary(trials.assign(score=trials.score * 1e300)).d_prime.to_numpy() \
        == pytest.approx(expected, rel=1e-13)
