"""PAD rates, vulnerability and the EPSC: hand-counted toy tables, oracles, invariants."""

from __future__ import annotations

import gzip

import numpy as np
import pandas as pd
import pytest
from reference_pad import PAD_EXPECTED, VULN_EXPECTED, pad_toy, vuln_toy

import pandas_biosig as pbs
from pandas_biosig import SchemaError, ScoreFileError
from pandas_biosig._core.validation import ERROR_TARGET as ERROR_PAD_TARGET
from pandas_biosig._kernels.pad import PadSweep, area_trapezoid
from pandas_biosig.pad import IAPMR_COLUMNS, PAD_COMPARE_COLUMNS, VULNERABILITY_COLUMNS
from pandas_biosig.pad._compare import ERROR_MCNEMAR_METRIC, ERROR_PAIR_TRIALS
from pandas_biosig.pad._table import (
    ERROR_NO_ATTACKS,
    ERROR_NO_SPECIES,
    ERROR_PAD_LABELS,
    PAD_METRICS_COLUMNS,
    PAD_RATES_COLUMNS,
)
from pandas_biosig.pad._vulnerability import ERROR_GRID, ERROR_KIND, ERROR_KIND_MISSING


def _row(frame):
    assert len(frame) == 1
    return frame.iloc[0]


# ------------------------------------------------------------------------- PAD metrics
@pytest.mark.parametrize(
    "case,kwargs",
    [
        ("fixed_0.5", dict(threshold=0.5)),
        ("eer", dict()),
        ("apcer_0.34", dict(threshold="apcer", target=0.34)),
        ("apcer_0", dict(threshold="apcer", target=0.0)),
        ("bpcer_0.2", dict(threshold="bpcer", target=0.2)),
    ],
)
def test_pad_metrics_toy(case, kwargs):
    got = _row(pbs.pad_metrics(pad_toy(), **kwargs))
    for key, value in PAD_EXPECTED[case].items():
        if key.startswith("apcer_") and key not in ("apcer_max", "apcer_max_species", "apcer_pooled"):
            continue
        if isinstance(value, str):
            assert got[key] == value, key
        else:
            assert got[key] == pytest.approx(value, abs=1e-12), key
    assert list(pbs.pad_metrics(pad_toy(), **kwargs).columns) == PAD_METRICS_COLUMNS


def test_pad_rates_per_species_toy():
    r = pbs.pad_rates(pad_toy(), threshold=0.5)
    assert list(r.columns) == PAD_RATES_COLUMNS
    assert r.metric.tolist() == ["apcer", "apcer", "bpcer"]
    assert r.pai.tolist()[:2] == ["print", "replay"] and pd.isna(r.pai.iloc[2])
    assert r.n.tolist() == [4, 3, 5]
    assert r.errors.tolist() == [2, 1, 2]
    assert r.rate.tolist() == pytest.approx([0.5, 1 / 3, 0.4])
    assert (r.ci_method == "wilson").all()  # no subject column


def test_acer_is_mean_of_max_apcer_and_bpcer():
    m = pbs.pad_metrics(pbs.datasets.example_pad())
    assert np.allclose(m.acer, (m.apcer_max + m.bpcer) / 2)


def test_wilson_and_clopper_pearson_match_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    pad = pbs.datasets.example_pad()
    for method in ("wilson", "beta"):
        r = pbs.pad_rates(pad, ci_method=method, confidence_level=0.9)
        for row in r.itertuples():
            low, high = proportion_confint(row.errors, row.n, alpha=0.1, method=method)
            low = 0.0 if row.errors == 0 else low
            high = 1.0 if row.errors == row.n else high
            assert (row.ci_low, row.ci_high) == pytest.approx((low, high))


def test_subject_column_switches_to_cluster_intervals():
    pad = pbs.datasets.example_pad()
    r = pbs.pad_rates(pad)
    assert (r.ci_method == "cluster").all()
    assert ((r.ci_low <= r.rate) & (r.rate <= r.ci_high)).all()
    # clustered presentations: the design effect widens the Wilson interval
    w = pbs.pad_rates(pad, ci_method="wilson")
    assert ((r.ci_high - r.ci_low) >= (w.ci_high - w.ci_low) - 1e-12).all()
    assert (r.ci_high - r.ci_low).mean() > (w.ci_high - w.ci_low).mean()
    b = pbs.pad_rates(pad, ci_method="bootstrap", seed=1, n_resamples=300)
    assert ((b.ci_low <= b.rate) & (b.rate <= b.ci_high)).all()
    for method in ("bootstrap", "cluster"):
        with pytest.raises(SchemaError, match=f"ci_method='{method}' needs a subject column"):
            pbs.pad_rates(pad.drop(columns="subject"), ci_method=method)


def test_design_effect_and_wilson_kernel():
    from statsmodels.stats.proportion import proportion_confint

    from pandas_biosig._kernels.cluster import design_effect, wilson_interval

    # independent-looking clusters: variance below binomial is floored at deff = 1
    assert design_effect(np.array([1, 1, 1, 1]), np.array([4, 4, 4, 4])) == 1.0
    # all errors in two of four subjects of 5: ratio variance 4/3 * 4 * 2.5^2 / 20^2 = 1/12,
    # binomial p(1-p)/n = 0.25/20 = 1/80: deff = 80/12
    assert design_effect(np.array([5, 5, 0, 0]), np.array([5, 5, 5, 5])) == pytest.approx(80 / 12)
    low, high = proportion_confint(7, 40, method="wilson")
    assert wilson_interval(7 / 40, 40, 1.959963984540054) == pytest.approx((low, high))


def test_thresholds_are_a_priori_by_default():
    pad = pbs.datasets.example_pad()
    m = pbs.pad_metrics(pad)
    assert (m.threshold_split == "dev").all()
    dev = pbs.pad_metrics(pad[pad.split == "dev"])
    ev = m[m.split == "eval"].reset_index(drop=True)
    assert np.allclose(ev.threshold, dev.threshold)
    # the eval rates are those of the dev thresholds applied as fixed numbers
    for row in ev.itertuples():
        fixed = pbs.pad_metrics(pad[(pad.split == "eval") & (pad.system == row.system)], threshold=row.threshold)
        assert fixed.apcer_max.item() == row.apcer_max and fixed.bpcer.item() == row.bpcer
    own = pbs.pad_metrics(pad, on=None)
    assert (own.threshold_split == own.split).all()


def test_bpcer_at_apcer_is_the_best_feasible_operating_point():
    """Brute force over every threshold: every species' APCER <= x, smallest BPCER."""
    rng = np.random.default_rng(3)
    for _ in range(40):
        n_b, sizes = rng.integers(3, 30), rng.integers(1, 12, size=rng.integers(1, 4))
        bona = np.round(rng.normal(1, 1, n_b), 1)
        attacks = [np.round(rng.normal(0, 1, s), 1) for s in sizes]
        x = float(rng.choice([0.0, 0.05, 0.2, 0.5]))
        cands = np.append(np.unique(np.concatenate([bona, *attacks])), np.inf)
        feasible = [t for t in cands if all((a >= t).mean() <= x for a in attacks)]
        best = min((bona < t).mean() for t in feasible)
        sw = PadSweep(bona, attacks)
        t = sw.threshold("apcer", x)
        acc, rej = sw.counts_at(t)
        assert rej / n_b == best
        assert all(acc / sizes <= x)
        # APCER at BPCER <= x: every species' APCER is smallest among feasible thresholds
        t2 = sw.threshold("bpcer", x)
        ok = [t for t in cands if (bona < t).mean() <= x]
        acc2, rej2 = sw.counts_at(t2)
        assert rej2 / n_b <= x
        for a, k in zip(attacks, acc2, strict=True):
            assert k == min((a >= t).sum() for t in ok)


def test_orientation_and_row_order_do_not_matter():
    toy = pad_toy()
    dist = toy.assign(score=-toy.score)
    a = pbs.pad_metrics(toy, threshold="apcer", target=0.34)
    b = pbs.pad_metrics(dist, threshold="apcer", target=0.34, orientation="distance")
    assert b.bpcer.item() == a.bpcer.item() and b.apcer_max.item() == a.apcer_max.item()
    assert b.threshold.item() == pytest.approx(-a.threshold.item())
    shuffled = toy.sample(frac=1, random_state=0)
    pd.testing.assert_frame_equal(pbs.pad_metrics(shuffled), pbs.pad_metrics(toy))


def test_label_synonyms_and_booleans():
    toy = pad_toy()
    words = toy.assign(label=np.where(toy.label == "bona fide", "BonaFide", "Spoof"))
    flags = toy.assign(label=toy.label == "bona fide")
    expected = pbs.pad_metrics(toy)
    pd.testing.assert_frame_equal(pbs.pad_metrics(words), expected)
    pd.testing.assert_frame_equal(pbs.pad_metrics(flags), expected)
    renamed = toy.rename(columns={"pai": "attack_type"})
    pd.testing.assert_frame_equal(pbs.pad_metrics(renamed, pai="attack_type"), expected)
    before = toy.copy()
    pbs.pad_rates(toy)
    pd.testing.assert_frame_equal(toy, before)  # inputs are never changed


def test_pad_errors():
    toy = pad_toy()
    with pytest.raises(SchemaError, match="outside the PAD vocabulary") as e:
        pbs.pad_metrics(toy.assign(label="impostor"))
    assert ERROR_PAD_LABELS.split("{")[0] in str(e.value)
    no_species = toy.copy()
    no_species.loc[7, "pai"] = None
    with pytest.raises(SchemaError, match="without an attack species"):
        pbs.pad_metrics(no_species)
    assert "without an attack species" in ERROR_NO_SPECIES
    with pytest.raises(SchemaError, match="no attack presentations"):
        pbs.pad_metrics(toy[toy.label == "bona fide"])
    assert "no attack presentations" in ERROR_NO_ATTACKS
    with pytest.raises(ValueError, match="needs target="):
        pbs.pad_metrics(toy, threshold="apcer")
    assert "needs target=" in ERROR_PAD_TARGET
    with pytest.raises(ValueError, match="not one of"):
        pbs.pad_metrics(toy, threshold="hter")
    with pytest.raises(SchemaError, match="on='dev': column 'split' has only the values"):
        pbs.pad_metrics(toy.assign(split="eval"), on="dev")
    # without a pai column every attack is one species
    one = pbs.pad_metrics(toy.drop(columns="pai"), threshold=0.5)
    assert one.apcer_max.item() == pytest.approx(3 / 7) and one.apcer_max_species.item() == "attack"


def test_pad_det_toy():
    ds = pbs.pad_det(pad_toy())
    assert ds.attrs["kind"] == "pad_det"
    assert list(ds.species.values) == ["print", "replay", "max"]
    ap = ds.apcer.sel(system="toy")
    # 12 distinct scores plus reject-all
    assert ds.sizes["point"] == 13
    assert ap.sel(species="print").values.tolist() == [1, 1, .75, .75, .75, .5, .5, .25, .25, .25, 0, 0, 0]
    assert ap.sel(species="max").values == pytest.approx(np.maximum(ap.sel(species="print"), ap.sel(species="replay")))
    assert ds.bpcer.sel(system="toy").values.tolist() == pytest.approx([0, 0, 0, 0, .2, .2, .4, .4, .4, .6, .6, .8, 1])
    assert ds.eer.sel(system="toy").item() == pytest.approx(29 / 70)


# ------------------------------------------------------------------------- comparison
def _two_systems():
    a = pad_toy("a")
    b = pad_toy("b")
    b.loc[[1, 3], "score"] = [0.95, 0.1]  # bona fide 0.4 -> 0.95, 0.8 -> 0.1
    b.loc[8, "score"] = 0.99  # print 0.75 -> 0.99
    return pd.concat([a, b], ignore_index=True)


def test_mcnemar_counts_paired_bona_fide_errors():
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    data = _two_systems()
    res = _row(pbs.pad_compare(data, metric="bpcer", test="mcnemar"))
    assert list(pbs.pad_compare(data, metric="bpcer", test="mcnemar").columns) == PAD_COMPARE_COLUMNS
    m = pbs.pad_metrics(data)
    ta, tb = m.threshold.tolist()
    bona_a = np.array([0.2, 0.4, 0.7, 0.8, 0.9])
    bona_b = np.array([0.2, 0.95, 0.7, 0.1, 0.9])
    ea, eb = bona_a < ta, bona_b < tb
    b, c = int((ea & ~eb).sum()), int((~ea & eb).sum())
    table = [[int((ea & eb).sum()), b], [c, int((~ea & ~eb).sum())]]
    assert res.statistic == b
    assert res.pvalue == pytest.approx(sm_mcnemar(table, exact=True).pvalue)
    assert res.estimate == pytest.approx(ea.mean() - eb.mean())
    with pytest.raises(ValueError) as e:
        pbs.pad_compare(data, test="mcnemar")
    assert str(e.value) == ERROR_MCNEMAR_METRIC.format(metric="apcer_max")


def test_bootstrap_comparison_is_antisymmetric():
    pad = pbs.datasets.example_pad()
    ab = _row(pbs.pad_compare(pad, n_resamples=200, seed=5))
    swapped = pad.assign(system=pad.system.map({"resnet": "b_resnet", "cnn": "a_cnn"}))
    swapped = pd.concat([swapped[swapped.system == "a_cnn"], swapped[swapped.system == "b_resnet"]])
    ba = _row(pbs.pad_compare(swapped, n_resamples=200, seed=5))
    assert ba.estimate == pytest.approx(-ab.estimate)
    assert ba.pvalue == pytest.approx(ab.pvalue)
    assert ab.threshold_split == "dev" and ab.split == "eval"
    assert ab.ci_low <= ab.estimate <= ab.ci_high


def test_compare_needs_the_same_presentations():
    data = _two_systems()
    data = data.drop(index=13)
    with pytest.raises(SchemaError) as e:
        pbs.pad_compare(data, metric="bpcer", test="mcnemar")
    assert ERROR_PAIR_TRIALS.split("{")[0] in str(e.value)


# ------------------------------------------------------------------------- vulnerability
@pytest.mark.parametrize(
    "case,kwargs",
    [("fixed_3", dict(threshold=3.0)), ("eer", dict()), ("far_0", dict(threshold="far", target=0.0))],
)
def test_vulnerability_toy(case, kwargs):
    frame = pbs.vulnerability(vuln_toy(), **kwargs)
    assert list(frame.columns) == VULNERABILITY_COLUMNS
    got = _row(frame)
    for key, value in VULN_EXPECTED[case].items():
        if isinstance(value, str):
            assert got[key] == value
        else:
            assert got[key] == pytest.approx(value), key


def test_iapmr_per_species_toy():
    r = pbs.iapmr(vuln_toy(), threshold=3.0, ci_method="beta")
    assert list(r.columns) == IAPMR_COLUMNS
    assert r.pai.tolist() == ["print", "replay"]
    assert r.accepted.tolist() == [1, 2] and r.n_attack.tolist() == [2, 3]
    from scipy.stats import binomtest

    ci = binomtest(2, 3).proportion_ci(0.95, method="exact")
    assert (r.ci_low.iloc[1], r.ci_high.iloc[1]) == pytest.approx((ci.low, ci.high))


def test_epsc_toy():
    toy = vuln_toy()
    ds = pbs.epsc(toy, omega=[0.0, 1.0], criterion="wer")
    sel = ds.sel(system="toy", beta=0.5)
    one = VULN_EXPECTED["epsc_wer_omega1"]
    for key, value in one.items():
        assert sel[key].sel(omega=1.0).item() == pytest.approx(value), key
    zero = VULN_EXPECTED["epsc_wer_omega0"]
    assert sel.threshold.sel(omega=0.0).item() == pytest.approx(zero["threshold"])
    assert sel.wer.sel(omega=0.0).item() == pytest.approx(zero["wer"])
    eer = pbs.epsc(toy, omega=[0.0], criterion="eer").sel(system="toy", beta=0.5, omega=0.0)
    assert eer.threshold.item() == pytest.approx(VULN_EXPECTED["epsc_eer_omega0"]["threshold"])
    assert eer.wer.item() == pytest.approx(VULN_EXPECTED["epsc_eer_omega0"]["wer"])


def test_epsc_formulas_and_area():
    ds = pbs.epsc(pbs.datasets.example_vulnerability(), beta=[0.2, 0.5, 0.9],
                  apply_to=["dev", "eval"])
    far_w = (1 - ds.omega) * ds.fmr + ds.omega * ds.iapmr
    wer = (1 - ds.beta) * ds.fnmr + ds.beta * far_w
    assert np.allclose(ds.far_w, far_w.transpose(*ds.far_w.dims))
    assert np.allclose(ds.wer, wer.transpose(*ds.wer.dims))
    from scipy.integrate import trapezoid

    assert np.allclose(ds.aue, trapezoid(ds.wer.values, ds.omega.values, axis=-1))
    assert area_trapezoid(np.array([0.0, 1.0, 1.0]), np.array([0.0, 0.5, 1.0])) == pytest.approx(0.75)
    # each EPSC threshold is chosen on dev: minimal criterion among all dev operating points
    assert ds.attrs["threshold_split"] == "dev"
    assert np.allclose(ds.threshold.sel(split="dev"), ds.threshold.sel(split="eval"))
    with pytest.raises(ValueError) as e:
        pbs.epsc(pbs.datasets.example_vulnerability(), omega=[0.5, 0.2])
    assert str(e.value) == ERROR_GRID.format(name="omega", value=[0.5, 0.2])


def test_vulnerability_errors():
    toy = vuln_toy()
    with pytest.raises(SchemaError) as e:
        pbs.vulnerability(toy.assign(kind="client"))
    assert ERROR_KIND.split("{")[0] in str(e.value)
    with pytest.raises(SchemaError) as e:
        pbs.vulnerability(toy[toy.kind != "zei"])
    assert "no zei attempts" in str(e.value) and "vulnerability needs" in ERROR_KIND_MISSING
    with pytest.raises(ValueError, match="needs target="):
        pbs.vulnerability(toy, threshold="far")


# ------------------------------------------------------------------------- readers
def test_read_bob_pad_csv_and_four_column(tmp_path):
    csv = tmp_path / "scores-dev.csv"
    csv.write_text(
        "claimed_id,test_label,is_bonafide,attack_type,score\n"
        "x0,x0_1,True,,0.9\nx0,x0_2,False,print,0.6\nx1,x1_1,FALSE,mask,0.1\n"
    )
    t = pbs.read_bob_pad(csv, split_name="dev")
    assert t.label.tolist() == ["bona fide", "attack", "attack"]
    assert t.pai.tolist() == [None, "print", "mask"]
    # bob's layout: a generic file name names the system by its folder
    assert t.split.unique().tolist() == ["dev"] and t.system.iloc[0] == tmp_path.name
    four = tmp_path / "pad.txt.gz"
    four.write_bytes(gzip.compress(b"c1 c1 c1/real/1 0.8\nc1 attack c1/print/2 0.3\nc2 attack c2/replay/1 0.4\n"))
    f = pbs.read_bob_pad(four, system_name="s", pai_field="test_label", pai_pattern=r"/(print|replay)/")
    assert f.label.tolist() == ["bona fide", "attack", "attack"]
    assert f.pai.tolist() == [None, "print", "replay"]
    assert pbs.pad_metrics(f, threshold=0.35).apcer_max.item() == 1.0
    bad = tmp_path / "bad.csv"
    bad.write_text("claimed_id,test_label,is_bonafide,attack_type,score\nx,y,maybe,,1\n")
    with pytest.raises(ScoreFileError, match="True or False"):
        pbs.read_bob_pad(bad)


def test_read_bob_vuln(tmp_path):
    p = tmp_path / "vuln.csv"
    p.write_text(
        "bio_ref_subject_id,probe_subject_id,probe_key,probe_attack_type,score\n"
        "a,a,k,,3\na,b,k,,0\na,a,k,pai,2\n"
    )
    t = pbs.read_bob_vuln(p)
    assert t.kind.tolist() == ["genuine", "zei", "attack"] and t.pai.tolist() == [None, None, "pai"]


def test_read_asvspoof(tmp_path):
    cm = tmp_path / "cm.txt"
    cm.write_text("p1/p1_1 - bonafide 0.7\np1/p1_2 SS_1 spoof 0.1\np2/p2_1 VC_1 spoof 0.8\n")
    t = pbs.read_asvspoof_cm(cm)
    assert t.label.tolist() == ["bona fide", "attack", "attack"]
    assert t.pai.tolist() == [None, "SS_1", "VC_1"] and t.subject.tolist() == ["p1", "p1", "p2"]
    five = tmp_path / "cm5.txt"
    five.write_text("LA_0079 LA_T_1 - bonafide 1.5\nLA_0080 LA_T_2 A01 spoof -3\n")
    assert pbs.read_asvspoof_cm(five).subject.tolist() == ["LA_0079", "LA_0080"]
    asv = tmp_path / "asv.txt"
    asv.write_text("- target 3\n- nontarget -1\nSS_1 spoof 1\n")
    v = pbs.read_asvspoof_asv(asv)
    assert v.kind.tolist() == ["genuine", "zei", "attack"]
    bad = tmp_path / "bad.txt"
    bad.write_text("- target 3\n- other 1\n")
    with pytest.raises(ScoreFileError, match="expected a key"):
        pbs.read_asvspoof_asv(bad)


# ------------------------------------------------------------------------- accessor
def test_accessor_mirrors_pad_functions():
    pad = pbs.datasets.example_pad()
    pd.testing.assert_frame_equal(pad.biosig.pad_metrics(threshold="apcer", target=0.05),
                                  pbs.pad_metrics(pad, threshold="apcer", target=0.05))
    pd.testing.assert_frame_equal(pad.biosig.pad_rates(seed=0, n_resamples=50),
                                  pbs.pad_rates(pad, seed=0, n_resamples=50))
    vuln = pbs.datasets.example_vulnerability()
    pd.testing.assert_frame_equal(vuln.biosig.vulnerability(), pbs.vulnerability(vuln))
    assert vuln.biosig.epsc().equals(pbs.epsc(vuln))
