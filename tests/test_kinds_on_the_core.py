"""Every kind of table on the core's footing: one protocol, one set of checks, one subject
rule. Each defect once reproduced on the PAD, demographic, vulnerability and
identification functions is a regression test here, with its fixed outcome."""

from __future__ import annotations

import re
import string
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import beta

import pandas_biosig as pbs
from pandas_biosig._core.curve_datasets import ERROR_LABELS
from pandas_biosig._core.replicates import FALLBACK_DIFFERENCE
from pandas_biosig._core.schema import ERROR_ONE_CLUSTER, ERROR_SUBJECT_MISSING, SchemaError
from pandas_biosig._core.validation import ERROR_THRESHOLD_VALUE
from pandas_biosig.pad._metrics import ERROR_MAX_SPECIES

ASVSPOOF_CM = Path(__file__).parents[1] / ".." / "shared" / "newcaps-data" / \
    "asvspoof2019_tdcf_v1" / "cm_dev.txt"


def pattern(template: str) -> str:
    """A regex matching every message of ``template`` (its fields as ``.*``)."""
    parts = []
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(".*")
    return "^" + "".join(parts) + "$"


@pytest.fixture(scope="module")
def pad():
    return pbs.datasets.example_pad()


@pytest.fixture(scope="module")
def demo():
    return pbs.datasets.example_demographic_trials()


@pytest.fixture(scope="module")
def vuln():
    return pbs.datasets.example_vulnerability()


# ------------------------------------------------------------------ the one subject rule
def test_pad_compare_with_one_subject_is_refused(pad):
    """Was: p = 0.0066, a zero-width interval and reject=True from one 'subject'."""
    with pytest.raises(SchemaError, match=pattern(ERROR_ONE_CLUSTER)) as err:
        pbs.pad_compare(pad.assign(subject="s"), n_resamples=50, seed=0)
    assert "holds trials of 1 subject(s)" in str(err.value)
    # with real subjects the test runs, and says what it resampled
    res = pbs.pad_compare(pad, n_resamples=200, seed=0)
    assert res["resample"].eq("subject").all() and res.fallback_reason.isna().all()


def test_compare_groups_without_subject_ids_is_refused(demo):
    """Was: every pair p = 0.004 with a zero-width interval, all subjects missing."""
    with pytest.raises(SchemaError, match=pattern(ERROR_SUBJECT_MISSING)) as err:
        pbs.compare_groups(demo.assign(subject=np.nan), target=0.01)
    assert "rows at positions [0, 1, 2" in str(err.value)


@pytest.mark.parametrize("call", [
    lambda pad, demo, vuln: pbs.pad_compare(pad.assign(subject=np.nan), n_resamples=20),
    lambda pad, demo, vuln: pbs.iapmr(vuln.assign(subject=np.nan)),
    lambda pad, demo, vuln: pbs.pad_rates(pad.assign(subject=np.nan)),
    lambda pad, demo, vuln: pbs.pad_rates(pad.assign(subject=np.nan), ci_method="bootstrap"),
    lambda pad, demo, vuln: pbs.group_rates(demo.assign(subject=np.nan)),
    lambda pad, demo, vuln: pbs.compare_fairness(demo.assign(subject=np.nan), n_resamples=20),
], ids=["pad_compare", "iapmr", "pad_rates", "pad_rates-bootstrap", "group_rates",
        "compare_fairness"])
def test_missing_subject_ids_are_refused_by_name(pad, demo, vuln, call):
    """Was: ZeroDivisionError or numpy's ValueError from np.bincount."""
    with pytest.raises(SchemaError, match=pattern(ERROR_SUBJECT_MISSING)):
        call(pad, demo, vuln)


def test_one_subject_rule_holds_in_every_group(demo):
    """A demographic group with one subject cannot be resampled: refused by name."""
    first = demo.subject[(demo.group == "A") & (demo.split == "eval")].iloc[0]
    one = demo[(demo.group != "A") | (demo.subject == first)]
    with pytest.raises(SchemaError, match=pattern(ERROR_ONE_CLUSTER)) as err:
        pbs.compare_groups(one, target=0.01, n_resamples=20)
    assert "group 'A' of system 'net_a'" in str(err.value)


# ------------------------------------------------------------------ NaN thresholds
@pytest.mark.parametrize("call", [
    lambda pad, demo, vuln: pbs.fairness(demo, threshold=np.nan),
    lambda pad, demo, vuln: pbs.pad_rates(pad, threshold=np.nan),
    lambda pad, demo, vuln: pbs.pad_metrics(pad, threshold={"resnet": np.nan, "cnn": 1.0}),
    lambda pad, demo, vuln: pbs.vulnerability(vuln, threshold=np.nan),
    lambda pad, demo, vuln: pbs.error_rates(pbs.datasets.example_trials(), threshold=np.nan),
    lambda pad, demo, vuln: pbs.detection_identification_rate(
        pbs.datasets.example_search(), threshold=np.nan),
], ids=["fairness", "pad_rates", "pad_metrics-mapping", "vulnerability", "error_rates",
        "detection_identification_rate"])
def test_a_nan_threshold_is_refused_by_name(pad, demo, vuln, call):
    """Was: FMR 0, FNMR 1 in every group and FDR = 1.0 (fairness); rows with n = 0
    (pad_rates)."""
    with pytest.raises(ValueError, match=pattern(ERROR_THRESHOLD_VALUE)):
        call(pad, demo, vuln)


# ------------------------------------------------------------------ degenerate resamples
def test_zero_false_matches_in_both_groups_give_an_exact_interval(demo):
    """Was: FMR difference 0, CI [0.000, 0.000], p = 1.0 from a bootstrap whose replicates
    cannot vary (the bundled example at its default target 1e-3: 0/480 false matches
    in groups A and B of net_a)."""
    res = pbs.compare_groups(demo, n_resamples=200, seed=1)
    row = res[(res.system == "net_a") & (res.metric == "fmr") & (res.group_a == "A")
              & (res.group_b == "B")].iloc[0]
    assert (row.rate_a, row.rate_b, row.estimate) == (0.0, 0.0, 0.0)
    assert row.ci_low < 0 < row.ci_high and row.pvalue == 1.0
    assert row.fallback_reason.startswith("every bootstrap replicate gives the difference 0")
    assert row.fallback_reason == FALLBACK_DIFFERENCE.format(
        value=0.0, units="subjects", m=2, p="p-value 1 (the two rates are equal)")
    # Clopper-Pearson at 1 - 0.05/2 each (Bonferroni) on the subjects holding impostor
    # trials of each group: the upper bound of 0 errors in k is 1 - (0.0125)^(1/k)
    plan = demo[(demo.system == "net_a") & (demo.split == "eval") & (demo.label == "impostor")
                & (demo.group == demo.reference_group)]
    k = {g: plan[plan.group == g].subject.nunique() for g in ("A", "B")}
    up = {g: float(beta.ppf(1 - 0.0125, 1, k[g])) for g in k}
    assert row.ci_high == pytest.approx(up["A"]) and row.ci_low == pytest.approx(-up["B"])
    assert up["A"] == pytest.approx(1 - 0.0125 ** (1 / k["A"]))
    # rows whose replicates vary keep the bootstrap
    varied = res[res.fallback_reason.isna()]
    assert len(varied) and (varied.ci_high > varied.ci_low).all()


def test_pad_compare_with_replicates_that_cannot_vary():
    """Two PAD systems that never err: every replicate difference is 0; exact bounds,
    p-value 1, and the reason, instead of [0, 0] with p = 1."""
    rng = np.random.default_rng(0)
    n = 40
    subject = np.repeat(np.arange(n), 6)
    bona = np.tile([True, True, True, False, False, False], n)
    rows = []
    for system in ("a", "b"):
        for split in ("dev", "eval"):
            rows.append(pd.DataFrame({
                "system": system, "split": split, "trial": np.arange(subject.size),
                "label": np.where(bona, "bona fide", "attack"),
                "pai": np.where(bona, None, "print"), "subject": subject,
                "score": np.where(bona, 10.0, -10.0) + rng.standard_normal(subject.size)}))
    res = pbs.pad_compare(pd.concat(rows, ignore_index=True), metric="bpcer",
                          n_resamples=100, seed=0).iloc[0]
    assert res.estimate == 0.0 and res.pvalue == 1.0 and res.ci_low < 0 < res.ci_high
    assert "Clopper-Pearson" in res.fallback_reason
    up = float(beta.ppf(1 - 0.0125, 1, n))  # 0 of 40 subjects, Bonferroni over two rates
    assert (res.ci_low, res.ci_high) == (pytest.approx(-up), pytest.approx(up))


def test_pad_rates_bootstrap_with_a_zero_rate_says_why(pad):
    r = pbs.pad_rates(pad, threshold=100.0, ci_method="bootstrap", n_resamples=50, seed=0)
    bpcer = r[r.metric == "bpcer"].iloc[0]  # every bona fide rejected: BPCER 1
    assert bpcer.rate == 1.0 and bpcer.ci_low < 1.0 and bpcer.ci_high == 1.0
    assert "every subject bootstrap replicate gives the same rate" in bpcer.fallback_reason


# ------------------------------------------------------------------ labels
def test_a_species_called_max_is_refused_by_name(pad):
    with pytest.raises(SchemaError) as err:
        pbs.pad_det(pad.assign(pai=pad.pai.replace("print", "max")))
    assert str(err.value) == ERROR_MAX_SPECIES.format(label="max", value="max")


def test_groups_with_one_label_are_refused_by_name(demo):
    m = {"A": 1, "B": "1", "C": "C"}
    with pytest.raises(SchemaError) as err:
        pbs.cross_group_fmr(demo.assign(group=demo.group.map(m),
                                        reference_group=demo.reference_group.map(m)))
    assert str(err.value) == ERROR_LABELS.format(name="group", first=1, second="1", label="1")
    # distinct labels stay distinct
    ds = pbs.cross_group_fmr(demo.assign(group=demo.group.map({"A": 1, "B": 2, "C": 3}),
                                         reference_group=demo.reference_group.map(
                                             {"A": 1, "B": 2, "C": 3})))
    assert ds.group.values.tolist() == [1, 2, 3] and not ds.indexes["group"].has_duplicates


# ------------------------------------------------------------------ readers
def test_read_asvspoof_cm_subject_is_the_speaker(tmp_path):
    """Was: the subject of a spoofed trial was its attack directory (VC_4/p335_...)."""
    cm = tmp_path / "cm_dev.txt"
    cm.write_text("p335/p335_001 - bonafide 0.7\nVC_4/p335_0042 VC_4 spoof -1.2\n"
                  "SS_1/p336_s0001 SS_1 spoof 0.3\nLA_D_1047731 A01 spoof -2.0\n")
    t = pbs.read_asvspoof_cm(cm)
    assert t.subject.tolist() == ["p335", "p335", "p336", "LA_D_1047731"]
    assert t.pai.tolist() == [None, "VC_4", "SS_1", "A01"]


@pytest.mark.skipif(not ASVSPOOF_CM.exists(), reason="the ASVspoof 2019 t-DCF package is absent")
def test_read_asvspoof_cm_real_file_speakers():
    t = pbs.read_asvspoof_cm(ASVSPOOF_CM)
    species = set(t.pai.dropna())
    assert species == {"SS_1", "SS_2", "SS_4", "US_1_S", "VC_1", "VC_4"}
    assert not species & set(t.subject)  # no subject is an attack species
    assert t.subject.str.match(r"^p\d{3}$").all()
    attacks = t[t.label == "attack"]
    # every spoofed speaker is one of the bona fide speakers
    assert set(attacks.subject) <= set(t[t.label == "bona fide"].subject)


# ------------------------------------------------------------------ one name per quantity
def test_a_bare_eer_is_the_default_eer_everywhere():
    """bootstrap(metric="eer") estimated the ROCCH EER (0.0402 where eer() says 0.0417);
    now "eer" is eer()'s number in bootstrap, paired_bootstrap and compare."""
    t = pbs.datasets.example_trials()
    e = pbs.eer(t).set_index(["system", "split"]).eer
    b = pbs.bootstrap(t, metric="eer", n_resamples=20, seed=0).set_index(["system", "split"])
    np.testing.assert_array_equal(b.estimate, e.loc[b.index])
    assert e.loc[("cnn", "dev")] == pytest.approx(0.0417, abs=1e-4)
    pb = pbs.paired_bootstrap(t, "cnn", "lbp", metric="eer", n_resamples=20, seed=0)
    assert pb.estimate == pytest.approx(e.loc[("cnn", "eval")] - e.loc[("lbp", "eval")])
    cmp = pbs.compare(t, test="bootstrap", metric="eer", n_resamples=20, seed=0)
    row = cmp[(cmp.system_a == "cnn") & (cmp.system_b == "lbp") & (cmp.split == "eval")].iloc[0]
    assert row.metric == "eer_threshold"
    assert row.estimate == pytest.approx(e.loc[("cnn", "eval")] - e.loc[("lbp", "eval")])
    hull = pbs.bootstrap(t, metric="eer_rocch", n_resamples=20, seed=0)
    np.testing.assert_array_equal(hull.estimate, pbs.eer(t, method="rocch").eer)
    s = pbs.summary(t)
    np.testing.assert_array_equal(s.eer_threshold, pbs.eer(t).eer)
    np.testing.assert_array_equal(s.eer_rocch, pbs.eer(t, method="rocch").eer)


# ------------------------------------------------------------------ one meaning of auto
def test_auto_means_dev_to_eval_in_every_kind(pad, demo, vuln):
    frames = {
        "error_rates": pbs.error_rates(pbs.datasets.example_trials()),
        "pad_metrics": pbs.pad_metrics(pad),
        "pad_rates": pbs.pad_rates(pad),
        "vulnerability": pbs.vulnerability(vuln),
        "iapmr": pbs.iapmr(vuln),
        "group_rates": pbs.group_rates(demo, target=0.01),
        "fairness": pbs.fairness(demo, target=0.01),
    }
    for name, frame in frames.items():
        assert set(frame.split) == {"eval"}, name
        assert set(frame.threshold_from) == {"dev"}, name
        assert "resample" in frame.columns, name
    same = pbs.pad_metrics(pad.assign(split="a"))
    assert set(same.threshold_from) == {"same trials"}
