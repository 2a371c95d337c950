"""The public tandem functions on tidy tables: the organisers' numbers on the ASVspoof
2019 example read by :func:`pbs.read_asvspoof_tandem`, hand-counted toys for every metric,
the protocol's splits, and the named errors of bad input.

The organisers' values (``tests/reference_tandem.py``) come from their code run
unmodified in a throwaway venv (Python 3.11.7, numpy 1.23.5): nesl/asvspoof2019 @
8b780369f7273345c22d979192119198bbf3db13 ``eval_metrics.py`` (``compute_eer``,
``obtain_asv_error_rates``, ``compute_tDCF``; ``MPLBACKEND=Agg python
evaluate_tDCF_asvspoof19.py cm_dev.txt asv_dev.txt``), asvspoof-challenge/asvspoof5 @
fe23d3053a0889b305d98c9e4cadf418c213d972 ``evaluation-package/calculate_modules.py``
(``compute_tDCF``, ``compute_teer``, ``compute_mindcf``, ``compute_actDCF``,
``calculate_CLLR``), ``calculate_metrics.py`` (``calculate_minDCF_EER_CLLR_actDCF``) and
``a_dcf.py`` (``_calculate_a_dcf`` of the score sum ``asv + cm``), shimhz/a_DCF @
0560623bb2ec15bba79a918fc6ef36afd9b4b02c ``a_dcf/a_dcf.py``; the driver imported those
files from ``git archive`` copies and printed every value with ``repr``.
"""

from __future__ import annotations

import math
import os
from fractions import Fraction as F
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from reference_tandem import (
    ASVSPOOF2019_DEV,
    TEER_TOY,
    TEER_TOY_ASV,
    TEER_TOY_CM,
    TOY,
    TOY_ASV,
    TOY_CM,
    TOY_ORGANISERS,
)

import pandas_biosig as pbs
from pandas_biosig._core.schema import SchemaError
from pandas_biosig._kernels.tandem import organiser_threshold

TOL = 1e-9
ROOT = Path(__file__).parents[1]
SHARED = Path(os.environ.get("BIOSIG_NEWCAPS_DATA", ROOT.parent / "shared" / "newcaps-data"))
DATA = SHARED / "asvspoof2019_tdcf_v1"
REF = ASVSPOOF2019_DEV["file_lines"]


@pytest.fixture(scope="module")
def asvspoof2019():
    if not DATA.is_dir():
        pytest.skip(f"{DATA} is absent (set BIOSIG_NEWCAPS_DATA to the newcaps-data folder)")
    return pbs.read_asvspoof_tandem(DATA / "asv_dev.txt", DATA / "cm_dev.txt")


def _sorted_cm(t):
    return np.sort(t["cm_score"].to_numpy())


def _close(got, want):
    assert got == pytest.approx(want, abs=TOL, rel=0)


# ------------------------------------------------------------ the organisers' numbers
def test_2019_min_tdcf_and_asv_point_equal_the_organisers(asvspoof2019):
    r = pbs.tdcf(asvspoof2019).iloc[0]
    _close(r.min_tdcf, REF["min_tdcf_2019"])
    for ours, theirs in (("asv_threshold", "asv_threshold"), ("asv_pfa", "asv_pfa"),
                         ("asv_pmiss", "asv_pmiss"), ("asv_pmiss_spoof", "asv_pmiss_spoof"),
                         ("asv_pfa_spoof", "asv_pfa_spoof")):
        _close(r[ours], REF[theirs])
    assert r.asv_threshold_from == "same trials"
    # the organisers report the highest rejected CM score; ours accepts >= the midpoint
    # to the next score: the same operating point
    cm = _sorted_cm(asvspoof2019)
    tau = REF["min_tdcf_2019_threshold"]
    _close(r.min_tdcf_threshold, organiser_threshold(cm, tau))
    assert np.count_nonzero(cm < r.min_tdcf_threshold) == np.count_nonzero(cm <= tau)


def test_2021_min_tdcf_equals_the_organisers(asvspoof2019):
    r = pbs.tdcf(asvspoof2019, version="2021").iloc[0]
    _close(r.min_tdcf, REF["min_tdcf_2021"])
    _close(r.min_tdcf_threshold,
           organiser_threshold(_sorted_cm(asvspoof2019), REF["min_tdcf_2021_threshold"]))
    assert r.costs == "asvspoof5" and math.isnan(r.c_miss_asv)


def test_teer_equals_the_organisers(asvspoof2019):
    r = pbs.teer(asvspoof2019).iloc[0]
    _close(100 * r.teer, REF["teer_percent"])
    asv = np.sort(asvspoof2019["asv_score"].to_numpy())
    _close(r.asv_threshold, organiser_threshold(asv, REF["teer_asv_threshold"]))
    _close(r.cm_threshold, organiser_threshold(_sorted_cm(asvspoof2019), REF["teer_cm_threshold"]))


def test_cm_metrics_equal_the_organisers(asvspoof2019):
    r = pbs.cm_metrics(asvspoof2019).iloc[0]
    for name in ("min_dcf", "act_dcf", "cllr", "eer"):
        _close(r[name], REF[f"cm_{name}"])
    _close(r.threshold, REF["cm_act_dcf_threshold"])  # accepts >= it, as theirs
    assert r.threshold_from == "bayes"
    _close(r.min_dcf_threshold,
           organiser_threshold(_sorted_cm(asvspoof2019), REF["cm_min_dcf_threshold"]))
    assert (r.n_bonafide, r.n_spoof) == (5460, 14904)


@pytest.mark.parametrize("costs,key", [("asvspoof5", "adcf_sum_asvspoof5"),
                                       ("sasv", "adcf_sum_paper")])
def test_adcf_of_the_score_sum_equals_the_organisers(asvspoof2019, costs, key):
    s = pbs.sasv_score(asvspoof2019, method="sum")
    r = pbs.adcf(s, costs=costs).iloc[0]
    _close(r.min_adcf, REF[key])
    _close(r.min_adcf_threshold, organiser_threshold(np.sort(s["sasv_score"].to_numpy()),
                                                     REF[f"{key}_threshold"]))
    _close(r.act_adcf, r.min_adcf)  # on the same trials, at the minimum's threshold
    assert r.threshold_from == "same trials"


def test_the_example_pairs_line_by_line(asvspoof2019):
    t = asvspoof2019
    assert len(t) == 20364
    assert t.kind.value_counts().to_dict() == {"spoof": 14904, "nontarget": 4536, "target": 924}
    assert t.subject.nunique() == 12  # six target speakers (also spoofed), six others
    assert set(t.loc[t.kind == "spoof", "subject"]) == set(t.loc[t.kind == "target", "subject"])


# ------------------------------------------------------------------- hand-counted toys
def _toy(asv_split=None) -> pd.DataFrame:
    rows = []
    for kind in ("target", "nontarget", "spoof"):
        for a, c in zip(TOY_ASV[kind], TOY_CM[kind], strict=True):
            rows.append((kind, a, c))
    t = pd.DataFrame(rows, columns=["kind", "asv_score", "cm_score"])
    t.insert(0, "trial", range(len(t)))
    t.insert(0, "cm_system", "cm")
    t.insert(0, "asv_system", "asv")
    return t


def test_toy_tdcf_by_hand():
    t = _toy()
    r = pbs.tdcf(t, asv_threshold=5.5, cm_threshold=0.55).iloc[0]
    assert (r.asv_pfa, r.asv_pmiss, r.asv_pmiss_spoof, r.asv_pfa_spoof) == TOY["rates"]
    assert (r.c0, r.c1, r.c2, r.tdcf_norm) == pytest.approx((0, TOY["c1_2019"], 0.25, 0.25))
    assert r.min_tdcf == pytest.approx(TOY["min_tdcf_2019"])
    assert r.min_tdcf_threshold == pytest.approx(TOY["min_tdcf_2019_threshold"])
    assert (r.min_pmiss_cm, r.min_pfa_cm) == (0, 0.5)
    assert r.act_tdcf == pytest.approx(TOY["act_tdcf_2019_at_055"])
    assert (r.act_pmiss_cm, r.act_pfa_cm) == (1 / 8, 1 / 4)
    assert (r.asv_threshold_from, r.cm_threshold_from) == ("fixed", "fixed")
    r = pbs.tdcf(t, version="2021", asv_threshold=5.5).iloc[0]
    assert r.c0 == pytest.approx(TOY["c0_2021"])
    assert r.min_tdcf == pytest.approx(float(TOY["min_tdcf_2021"]))
    # the Bayes threshold of the weights: ln(C2 / C1)
    assert r.cm_threshold == pytest.approx(math.log(r.c2 / r.c1))
    assert r.cm_threshold_from == "bayes"


def test_toy_asv_eer_point_by_hand():
    """The organisers' EER threshold is 4 (the highest rejected score), and their ASV
    accepts 4: Pfa 1/2, Pmiss 1/4, Pmiss_spoof 1/4 (counted in reference_tandem.py)."""
    r = pbs.tdcf(_toy()).iloc[0]
    assert r.asv_threshold == TOY["eer_threshold"] == TOY_ORGANISERS["eer_threshold"]
    pfa, pmiss, pmiss_spoof, pfa_spoof = TOY["rates_at_eer_threshold"]
    assert (r.asv_pfa, r.asv_pmiss, r.asv_pmiss_spoof, r.asv_pfa_spoof) == (
        pfa, pmiss, pmiss_spoof, pfa_spoof)


def test_toy_tdcf_curve_by_hand():
    ds = pbs.tdcf_curve(_toy(), asv_threshold=5.5)
    sel = ds.sel(asv_system="asv", cm_system="cm")
    tdcf = sel.tdcf.values[np.isfinite(sel.tdcf.values)]
    # accepting >= .1, .3, .4, .5: 1, .75, .5, .8408125 (reference_tandem.py's table)
    np.testing.assert_allclose(tdcf[:4], [1.0, 0.75, 0.5, 0.8408125])
    assert float(sel.min_tdcf) == pytest.approx(0.5)
    assert float(sel.min_tdcf_threshold) == pytest.approx(0.35)


def test_toy_cm_metrics_by_hand():
    r = pbs.cm_metrics(_toy()).iloc[0]
    assert (r.min_dcf, r.min_dcf_threshold) == pytest.approx((TOY["cm_min_dcf"],
                                                              TOY["cm_min_dcf_threshold"]))
    assert r.act_dcf == TOY["cm_act_dcf"]
    assert r.threshold == pytest.approx(-math.log(1.9))
    assert r.cllr == pytest.approx(TOY_ORGANISERS["cm_cllr"], abs=TOL)
    # EER (the organisers' compute_eer): sorted .1S .3S .4B .5S .6B ..., rejecting the k
    # lowest, (FRR, FAR) = (0, 1), (0, 3/4), (0, 1/2), (1/8, 1/2), (1/8, 1/4), (1/4, 1/4):
    # |FRR - FAR| is 0 at k = 5, EER (1/4 + 1/4) / 2
    assert r.eer == 0.25


def test_toy_adcf_by_hand():
    s = pbs.sasv_score(_toy(), method="sum")
    np.testing.assert_allclose(s.sasv_score[:4], [3.8, 6.9, 8.4, 9.7])
    r = pbs.adcf(s).iloc[0]
    assert r.min_adcf == pytest.approx(float(TOY["adcf_asvspoof5"]))
    assert r.min_adcf_threshold == pytest.approx(TOY["adcf_asvspoof5_threshold"])
    assert (r.min_pmiss, r.min_pfa, r.min_pfa_spoof) == (0, 0.5, 0.75)
    r = pbs.adcf(s, costs="sasv", threshold=8.1).iloc[0]
    assert r.min_adcf == pytest.approx(float(TOY["adcf_sasv"]))
    assert r.act_adcf == pytest.approx(float(TOY["adcf_sasv"]))
    assert r.threshold_from == "fixed"


def test_toy_cascade_adcf_by_hand():
    """Cascade at CM threshold .55: the CM rejects target 8 (.4) and the spoofs 2.5, 5,
    7.5; the SASV scores are targets {3, 6, -inf, 9}, non-targets {1, 2, 4, 7}, spoofs
    {-inf, -inf, -inf, 10}. With the a-DCF paper's costs (.9 miss, .5 fa, 1 fa_spoof,
    normalizer .9), accepting >= 3: miss 1/4, fa 2/4, fa_spoof 1/4: .225 + .25 + .25 =
    .725, the minimum (.975 at 1, .85 at 2, .95 at 4, .825 at 6, 1.05 at 7, .925 at 9,
    1.15 at 10, .9 rejecting all): 29/36 at (2 + 3) / 2."""
    s = pbs.sasv_score(_toy(), method="cascade", cm_threshold=0.55)
    assert np.isneginf(s.sasv_score).sum() == 4
    r = pbs.adcf(s, costs="sasv").iloc[0]
    assert r.min_adcf == pytest.approx(float(F(29, 36)))
    assert r.min_adcf_threshold == 2.5
    assert (r.min_pmiss, r.min_pfa, r.min_pfa_spoof) == (0.25, 0.5, 0.25)


def test_teer_toy_by_hand():
    rows = []
    cm = {"target": [5.0, 7.0], "nontarget": [1.0, 9.0], "spoof": [4.5, 3.5]}
    assert sorted(cm["target"] + cm["nontarget"]) == sorted(TEER_TOY_CM["bonafide"])
    for kind in ("target", "nontarget", "spoof"):
        rows += [(kind, a, c) for a, c in zip(TEER_TOY_ASV[kind], cm[kind], strict=True)]
    t = pd.DataFrame(rows, columns=["kind", "asv_score", "cm_score"]).assign(
        asv_system="asv", cm_system="cm", trial=range(6))
    r = pbs.teer(t).iloc[0]
    assert r.teer == TEER_TOY["teer"]
    assert (r.asv_threshold, r.cm_threshold) == (TEER_TOY["asv_threshold"],
                                                 TEER_TOY["cm_threshold"])
    assert (r.asv_pmiss, r.asv_pfa, r.asv_pfa_spoof, r.cm_pmiss, r.cm_pfa) == (
        0, 0.5, 0.5, 0.25, 0.5)


# ------------------------------------------------------------------- protocol, schema
def test_dev_eval_thresholds_come_from_dev():
    t = pbs.datasets.example_tandem()
    r = pbs.tdcf(t, cm_threshold="min")
    assert r.split.tolist() == ["eval", "eval"]
    assert set(r.asv_threshold_from) == {"dev"} and set(r.cm_threshold_from) == {"dev"}
    dev = pbs.tdcf(t[t.split == "dev"], cm_threshold="min")
    np.testing.assert_array_equal(r.asv_threshold, dev.asv_threshold)
    np.testing.assert_array_equal(r.cm_threshold, dev.min_tdcf_threshold)
    # the eval trials at dev's thresholds
    ev = pbs.tdcf(t[t.split == "eval"], asv_threshold=float(dev.asv_threshold[0]),
                  cm_threshold=dict(zip(dev.cm_system, dev.min_tdcf_threshold, strict=True)))
    np.testing.assert_allclose(r.act_tdcf, ev.act_tdcf)
    both = pbs.tdcf(t, on=None)
    assert both.split.tolist() == ["dev", "eval", "dev", "eval"]
    assert set(both.asv_threshold_from) == {"same trials"}
    a = pbs.adcf(pbs.sasv_score(t))
    assert set(a.threshold_from) == {"dev"} and a.split.tolist() == ["eval", "eval"]


def test_result_columns_never_depend_on_arguments():
    t = pbs.datasets.example_tandem()
    cols = {tuple(pbs.tdcf(t, **kw).columns) for kw in (
        {}, {"version": "2021"}, {"asv_threshold": 1.0, "cm_threshold": 0.0, "on": None})}
    assert cols == {tuple(pbs.tandem.TDCF_COLUMNS)}
    assert list(pbs.teer(t).columns) == pbs.tandem.TEER_COLUMNS
    assert list(pbs.cm_metrics(t).columns) == pbs.tandem.CM_COLUMNS
    assert list(pbs.adcf(pbs.sasv_score(t)).columns) == pbs.tandem.ADCF_COLUMNS


def test_inputs_are_not_mutated_and_rows_order_is_irrelevant():
    t = pbs.datasets.example_tandem()
    before = t.copy()
    r = pbs.tdcf(t)
    pbs.sasv_score(t)
    pd.testing.assert_frame_equal(t, before)
    shuffled = t.sample(frac=1.0, random_state=1).reset_index(drop=True)
    again = pbs.tdcf(shuffled).sort_values("cm_system").reset_index(drop=True)
    pd.testing.assert_frame_equal(again, r)  # groups in order of first appearance


def test_tandem_table_builds_from_tidy_tables():
    t = _toy()
    asv = t.rename(columns={"asv_system": "system", "asv_score": "score"}).drop(
        columns=["cm_system", "cm_score"])
    cm = pd.DataFrame({"system": "cm", "trial": t.trial[::-1],
                       "label": np.where(t.kind[::-1] == "spoof", "attack", "bona fide"),
                       "score": t.cm_score[::-1]})
    built = pbs.tandem_table(asv, cm)
    pd.testing.assert_frame_equal(built, t, check_dtype=False)
    # several systems: every ASV system with every CM system
    cm2 = pd.concat([cm, cm.assign(system="cm2", score=-cm.score)])
    assert pbs.tandem_table(asv, cm2).groupby(["asv_system", "cm_system"]).size().tolist() == [12, 12]


def test_pairing_by_utterance_shares_one_cm_score():
    asv = pd.DataFrame({"system": "asv", "trial": range(4),
                        "kind": ["target", "nontarget", "nontarget", "spoof"],
                        "score": [3.0, -1.0, -2.0, 1.0], "utterance": ["u1", "u2", "u2", "s1"]})
    cm = pd.DataFrame({"system": "cm", "utterance": ["u1", "u2", "u2", "s1"],
                       "label": ["bonafide", "bonafide", "bonafide", "spoof"],
                       "score": [1.0, 0.5, 0.5, -1.0]})
    t = pbs.tandem_table(asv, cm, key="utterance")
    assert t.cm_score.tolist() == [1.0, 0.5, 0.5, -1.0]
    with pytest.raises(SchemaError, match="more than once with different scores"):
        pbs.tandem_table(asv, cm.assign(score=[1.0, 0.5, 0.6, -1.0]), key="utterance")


# ------------------------------------------------------------------ named errors
def test_asv_score_without_cm_score_is_named():
    t = _toy()
    t.loc[3, "cm_score"] = np.nan
    with pytest.raises(SchemaError, match="have an ASV score but no CM score"):
        pbs.tdcf(t)
    asv = t.rename(columns={"asv_system": "system", "asv_score": "score"})
    cm = pd.DataFrame({"system": "cm", "trial": t.trial[:-1], "label": "bona fide",
                       "score": 0.0})
    cm.loc[cm.trial >= 8, "label"] = "attack"
    with pytest.raises(SchemaError) as err:
        pbs.tandem_table(asv, cm)
    assert str(err.value).startswith("1 trial(s) of ASV system 'asv' have an ASV score but "
                                     "no CM score")


def test_unknown_kind_is_named():
    t = _toy()
    t.loc[0, "kind"] = "replay"
    with pytest.raises(SchemaError, match="kind.*'replay'.*outside the vocabulary"):
        pbs.teer(t)


def test_no_spoof_trials_is_named():
    t = _toy()
    with pytest.raises(SchemaError, match="has no spoof trials"):
        pbs.tdcf(t[t.kind != "spoof"])
    with pytest.raises(SchemaError, match="has no nontarget trials"):
        pbs.tdcf(t[t.kind != "nontarget"])


def test_zero_normalizer_is_named():
    t = _toy()
    # an ASV that rejects every spoof: C2 = 0, and the 2019 normalizer min(C1, C2) = 0
    with pytest.raises(ValueError, match="ASV system 'asv', CM system 'cm': the t-DCF 2019 "
                                         "normalizer is 0"):
        pbs.tdcf(t, asv_threshold=11.0)
    free = {"p_target": 0.9, "p_nontarget": 0.05, "p_spoof": 0.05, "c_miss": 0.0,
            "c_fa": 10.0, "c_fa_spoof": 10.0}
    with pytest.raises(ValueError, match="a-DCF normalizer is 0"):
        pbs.adcf(pbs.sasv_score(t), costs=free)
    with pytest.raises(ValueError, match="CM DCF normalizer is 0"):
        pbs.cm_metrics(t, costs={"p_spoof": 0.0, "c_miss": 1.0, "c_fa": 10.0})


def test_bad_cost_models_are_named():
    t = _toy()
    with pytest.raises(ValueError, match="costs='sasv' is not a cost model of the 2019 t-DCF"):
        pbs.tdcf(t, costs="sasv")
    with pytest.raises(ValueError, match="must be non-negative and sum to 1"):
        pbs.tdcf(t, version="2021", costs={"p_target": 0.9, "p_nontarget": 0.1,
                                           "p_spoof": 0.1, "c_miss": 1, "c_fa": 1,
                                           "c_fa_spoof": 1})
    with pytest.raises(ValueError, match="version='2020' is not one of"):
        pbs.tdcf(t, version="2020")


def test_bad_thresholds_are_named():
    t = _toy()
    with pytest.raises(ValueError, match="cm_threshold='eer' must be a finite number"):
        pbs.tdcf(t, cm_threshold="eer")
    with pytest.raises(SchemaError, match="no threshold given for asv_system 'asv'"):
        pbs.tdcf(t, asv_threshold={"other": 1.0})
    with pytest.raises(ValueError, match="on='dev' chooses a threshold by a criterion"):
        pbs.tdcf(t.assign(split="dev"), asv_threshold=1.0, cm_threshold=0.0, on="dev")
    with pytest.raises(ValueError, match="method='cascade' needs cm_threshold="):
        pbs.sasv_score(t, method="cascade")


def test_ambiguous_or_wrong_pairings_are_named():
    t = _toy()
    asv = t.rename(columns={"asv_system": "system", "asv_score": "score"})
    cm = pd.DataFrame({"system": "cm", "trial": t.trial,
                       "label": np.where(t.kind == "spoof", "attack", "bona fide"),
                       "score": t.cm_score})
    with pytest.raises(SchemaError, match="disagree on the kind of trial"):
        pbs.tandem_table(asv, cm.assign(label="bona fide"))
    with pytest.raises(SchemaError, match="pair with no trial of ASV system"):
        pbs.tandem_table(asv[asv.trial != 0], cm)
    with pytest.raises(SchemaError, match="name different attacks"):
        pbs.tandem_table(asv.assign(pai=np.where(t.kind == "spoof", "A01", None)),
                         cm.assign(pai=np.where(t.kind == "spoof", "A02", None)))
    with pytest.raises(SchemaError, match="label.*outside the vocabulary"):
        pbs.tandem_table(asv, cm.assign(label="maybe"))


def test_accessor_matches_the_functions():
    t = pbs.datasets.example_tandem()
    pd.testing.assert_frame_equal(t.biosig.tdcf(version="2021"), pbs.tdcf(t, version="2021"))
    pd.testing.assert_frame_equal(t.biosig.teer(), pbs.teer(t))
    s = t.biosig.sasv_score()
    pd.testing.assert_frame_equal(s.biosig.adcf(), pbs.adcf(s))
