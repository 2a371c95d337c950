"""Reference tests of the tandem (ASV + CM) kernels on raw arrays: the organisers' values
(tests/reference_tandem.py says how they were made), toys counted by hand, every
threshold tried by brute force on tied scores, and the named errors."""

from __future__ import annotations

import math
import os
from dataclasses import FrozenInstanceError
from pathlib import Path

import numpy as np
import pytest
from reference_tandem import (
    ASVSPOOF2019_DEV,
    TEER_TOY,
    TEER_TOY_ASV,
    TEER_TOY_CM,
    TIES,
    TOY,
    TOY_ASV,
    TOY_ASV_THRESHOLD,
    TOY_CM,
    TOY_ORGANISERS,
    ties_arrays,
)

from pandas_biosig._kernels import tandem as T

TOL = 1e-9
ROOT = Path(__file__).parents[1]
SHARED = Path(os.environ.get("BIOSIG_NEWCAPS_DATA", ROOT.parent / "shared" / "newcaps-data"))
DATA = SHARED / "asvspoof2019_tdcf_v1"


# ------------------------------------------------------------------------- helpers
def _by_kind(asv, cm, kind):
    return {k: (asv[kind == k], cm[kind == k]) for k in ("target", "nontarget", "spoof")}


def _all_metrics(asv, cm, kind, bona_cm, spoof_cm, paired=True):
    """Every kernel on one table, as the organisers' entries are named."""
    g = _by_kind(asv, cm, kind)
    tar, non, spf = g["target"][0], g["nontarget"][0], g["spoof"][0]
    eer, thr = T.asv_eer_threshold(tar, non)
    r = T.asv_rates(tar, non, spf, thr)
    p19 = T.min_tdcf(bona_cm, spoof_cm, T.tdcf_weights_2019(r, T.TDCF_2019))
    p21 = T.min_tdcf(bona_cm, spoof_cm, T.tdcf_weights(r, T.ASVSPOOF5))
    mindcf, mindcf_thr = T.cm_min_dcf(bona_cm, spoof_cm, T.ASVSPOOF5_CM)
    actdcf, actdcf_thr = T.cm_act_dcf(bona_cm, spoof_cm, T.ASVSPOOF5_CM)
    out = {
        "asv_eer": eer, "asv_threshold": thr, "asv_pfa": r.pfa, "asv_pmiss": r.pmiss,
        "asv_pmiss_spoof": r.pmiss_spoof, "asv_pfa_spoof": r.pfa_spoof,
        "min_tdcf_2019": p19.tdcf, "min_tdcf_2019_threshold": p19.threshold,
        "min_tdcf_2021": p21.tdcf, "min_tdcf_2021_threshold": p21.threshold,
        "cm_min_dcf": mindcf, "cm_min_dcf_threshold": mindcf_thr, "cm_act_dcf": actdcf,
        "cm_act_dcf_threshold": actdcf_thr, "cm_cllr": T.cm_cllr(bona_cm, spoof_cm),
        "cm_eer": T.asv_eer_threshold(bona_cm, spoof_cm)[0],
    }
    if paired:
        te = T.teer(tar, non, spf, np.concatenate([g["target"][1], g["nontarget"][1]]),
                    g["spoof"][1])
        out.update(teer_percent=100 * te.teer, teer_asv_threshold=te.asv_threshold,
                   teer_cm_threshold=te.cm_threshold)
        s = T.sasv_sum(asv, cm)
        for name, costs in (("adcf_sum_asvspoof5", T.ASVSPOOF5), ("adcf_sum_paper", T.SASV_ADCF)):
            p = T.min_adcf(s[kind == "target"], s[kind == "nontarget"], s[kind == "spoof"], costs)
            out[name], out[name + "_threshold"] = p.adcf, p.threshold
    return out


# Which sorted scores each library threshold of ``_all_metrics`` is read on.
_THRESHOLD_SCORES = {
    "min_tdcf_2019_threshold": "cm", "min_tdcf_2021_threshold": "cm",
    "cm_min_dcf_threshold": "cm", "teer_cm_threshold": "cm_teer",
    "teer_asv_threshold": "asv", "adcf_sum_asvspoof5_threshold": "sasv",
    "adcf_sum_paper_threshold": "sasv",
}


def _compare(ours, theirs, scores):
    """Every organisers' value equals ours to TOL; their thresholds (the highest rejected
    score) are compared through ``organiser_threshold``, except the ASV EER threshold and
    actDCF's, which accept ``score >= threshold`` as the library does."""
    for key, want in theirs.items():
        got = ours[key]
        if key in _THRESHOLD_SCORES:
            want = T.organiser_threshold(scores[_THRESHOLD_SCORES[key]], want)
        assert got == pytest.approx(want, abs=TOL, rel=0), key


def _scores(asv, cm, kind, bona_cm, spoof_cm):
    return {
        "cm": np.sort(np.concatenate([bona_cm, spoof_cm])),
        "cm_teer": np.sort(cm),
        "asv": np.sort(asv),
        "sasv": np.sort(T.sasv_sum(asv, cm)),
    }


# ------------------------------------------------------------- organisers' values
def _read_2019():
    if not DATA.is_dir():
        pytest.skip(f"{DATA} is absent (set BIOSIG_NEWCAPS_DATA to the newcaps-data folder)")
    asv = np.loadtxt(DATA / "asv_dev.txt", dtype=str)
    cm = np.loadtxt(DATA / "cm_dev.txt", dtype=str)
    assert (asv[:, 0] == cm[:, 1]).all()  # the same trials, line by line
    return asv, cm


def test_asvspoof2019_dev_file_lines_equal_the_organisers():
    asv_rows, cm_rows = _read_2019()
    asv = asv_rows[:, 2].astype(np.float64)
    kind = asv_rows[:, 1]
    cm = cm_rows[:, 3].astype(np.float64)
    bona, spoof = cm[cm_rows[:, 2] == "bonafide"], cm[cm_rows[:, 2] == "spoof"]
    ours = _all_metrics(asv, cm, kind, bona, spoof)
    _compare(ours, ASVSPOOF2019_DEV["file_lines"], _scores(asv, cm, kind, bona, spoof))


def test_asvspoof2019_dev_unique_utterances_equal_the_organisers():
    asv_rows, cm_rows = _read_2019()
    _, first = np.unique(cm_rows[:, 0], return_index=True)
    first.sort()
    cm = cm_rows[first, 3].astype(np.float64)
    key = cm_rows[first, 2]
    bona, spoof = cm[key == "bonafide"], cm[key == "spoof"]
    assert (bona.size, spoof.size) == (1680, 14904)
    asv = asv_rows[:, 2].astype(np.float64)
    ours = _all_metrics(asv, np.zeros_like(asv), asv_rows[:, 1], bona, spoof, paired=False)
    _compare(ours, ASVSPOOF2019_DEV["unique_utterances"],
             {"cm": np.sort(np.concatenate([bona, spoof]))})


def test_tied_scores_equal_the_organisers():
    asv, cm, kind = ties_arrays()
    bona, spoof = cm[kind != "spoof"], cm[kind == "spoof"]
    ours = _all_metrics(asv, cm, kind, bona, spoof)
    _compare(ours, TIES, _scores(asv, cm, kind, bona, spoof))


def test_toy_equals_the_organisers():
    tar, non, spf = (np.array(TOY_ASV[k]) for k in ("target", "nontarget", "spoof"))
    bona = np.array(TOY_CM["target"] + TOY_CM["nontarget"])
    spoof = np.array(TOY_CM["spoof"])
    o = TOY_ORGANISERS
    assert T.asv_eer_threshold(tar, non) == (o["eer"], o["eer_threshold"])
    r = T.asv_rates(tar, non, spf, o["eer_threshold"])
    assert (r.pfa, r.pmiss, r.pmiss_spoof, r.pfa_spoof) == o["rates_at_eer_threshold"]
    w19 = T.tdcf_weights_2019(T.asv_rates(tar, non, spf, TOY_ASV_THRESHOLD), T.TDCF_2019)
    cm_sorted = np.sort(np.concatenate([bona, spoof]))
    for tau, value in o["tdcf_2019_curve"]:  # the actual t-DCF at each of their points
        at = T.tdcf_at(bona, spoof, w19, T.organiser_threshold(cm_sorted, tau))
        assert at.tdcf == pytest.approx(value, abs=TOL, rel=0)
    p = T.min_tdcf(bona, spoof, w19)
    assert p.tdcf == o["min_tdcf_2019"]
    assert p.threshold == T.organiser_threshold(cm_sorted, o["min_tdcf_2019_threshold"])
    assert T.cm_cllr(bona, spoof) == pytest.approx(o["cm_cllr"], abs=TOL, rel=0)
    assert T.cm_min_dcf(bona, spoof, T.ASVSPOOF5_CM)[0] == pytest.approx(o["cm_min_dcf"],
                                                                          abs=TOL, rel=0)


def test_teer_toy_equals_the_organisers():
    g = TEER_TOY_ASV
    te = T.teer(g["target"], g["nontarget"], g["spoof"], TEER_TOY_CM["bonafide"],
                TEER_TOY_CM["spoof"])
    assert 100 * te.teer == TEER_TOY["organisers_teer_percent"]
    asv_sorted = np.sort(np.concatenate([g["target"], g["nontarget"], g["spoof"]]))
    cm_sorted = np.sort(np.concatenate([TEER_TOY_CM["bonafide"], TEER_TOY_CM["spoof"]]))
    assert te.asv_threshold == T.organiser_threshold(asv_sorted, TEER_TOY["organisers_asv_tau"])
    assert te.cm_threshold == T.organiser_threshold(cm_sorted, TEER_TOY["organisers_cm_tau"])


# ----------------------------------------------------------------------- by hand
@pytest.fixture
def toy():
    tar, non, spf = (np.array(TOY_ASV[k]) for k in ("target", "nontarget", "spoof"))
    bona = np.array(TOY_CM["target"] + TOY_CM["nontarget"])
    return tar, non, spf, bona, np.array(TOY_CM["spoof"])


def test_toy_asv_rates(toy):
    tar, non, spf, _, _ = toy
    r = T.asv_rates(tar, non, spf, TOY_ASV_THRESHOLD)
    assert (r.pfa, r.pmiss, r.pmiss_spoof, r.pfa_spoof) == TOY["rates"]
    eer, thr = T.asv_eer_threshold(tar, non)
    assert (eer, thr) == (TOY["eer"], TOY["eer_threshold"])
    r = T.asv_rates(tar, non, spf, thr)  # the organisers' point accepts their threshold
    assert (r.pfa, r.pmiss, r.pmiss_spoof, r.pfa_spoof) == TOY["rates_at_eer_threshold"]


def test_toy_tdcf(toy):
    tar, non, spf, bona, spoof = toy
    rates = T.asv_rates(tar, non, spf, TOY_ASV_THRESHOLD)
    w = T.tdcf_weights_2019(rates, T.TDCF_2019)
    assert (w.c0, w.c1, w.c2, w.norm) == pytest.approx((0, TOY["c1_2019"], 0.25, 0.25))
    p = T.min_tdcf(bona, spoof, w)
    assert p.tdcf == pytest.approx(TOY["min_tdcf_2019"])
    assert p.threshold == pytest.approx(TOY["min_tdcf_2019_threshold"])
    assert (p.pmiss_cm, p.pfa_cm) == (0, 0.5)
    assert T.tdcf_at(bona, spoof, w, 0.55).tdcf == pytest.approx(TOY["act_tdcf_2019_at_055"])
    assert T.tdcf_bayes_threshold(w) == pytest.approx(math.log(0.25 / TOY["c1_2019"]))
    w = T.tdcf_weights(rates, T.ASVSPOOF5)
    assert w.c0 == pytest.approx(TOY["c0_2021"])
    p = T.min_tdcf(bona, spoof, w)
    assert p.tdcf == pytest.approx(float(TOY["min_tdcf_2021"]))
    assert p.threshold == pytest.approx(TOY["min_tdcf_2021_threshold"])


def test_toy_cm_costs(toy):
    _, _, _, bona, spoof = toy
    value, thr = T.cm_min_dcf(bona, spoof, T.ASVSPOOF5_CM)
    assert (value, thr) == pytest.approx((TOY["cm_min_dcf"], TOY["cm_min_dcf_threshold"]))
    value, thr = T.cm_act_dcf(bona, spoof, T.ASVSPOOF5_CM)
    assert (value, thr) == pytest.approx((TOY["cm_act_dcf"], -math.log(1.9)))
    # Cllr in bits: the mean of log2(1 + e^-s) over bona fide and log2(1 + e^s) over spoof
    want = 0.5 * (np.mean(np.log2(1 + np.exp(-bona))) + np.mean(np.log2(1 + np.exp(spoof))))
    assert T.cm_cllr(bona, spoof) == pytest.approx(want)


def test_toy_adcf():
    s = {k: np.array(TOY_ASV[k]) + np.array(TOY_CM[k]) for k in TOY_ASV}
    np.testing.assert_allclose(s["target"], [3.8, 6.9, 8.4, 9.7])
    p = T.min_adcf(s["target"], s["nontarget"], s["spoof"], T.ASVSPOOF5)
    assert p.adcf == pytest.approx(float(TOY["adcf_asvspoof5"]))
    assert p.threshold == pytest.approx(TOY["adcf_asvspoof5_threshold"])
    assert (p.pmiss, p.pfa, p.pfa_spoof) == (0, 0.5, 0.75)
    p = T.min_adcf(s["target"], s["nontarget"], s["spoof"], T.SASV_ADCF)
    assert p.adcf == pytest.approx(float(TOY["adcf_sasv"]))
    assert p.threshold == pytest.approx(TOY["adcf_sasv_threshold"])
    # the actual a-DCF at the minimum's threshold is the minimum
    at = T.adcf_at(s["target"], s["nontarget"], s["spoof"], T.SASV_ADCF, p.threshold)
    assert at == p


def test_teer_toy_by_hand():
    g = TEER_TOY_ASV
    te = T.teer(g["target"], g["nontarget"], g["spoof"], TEER_TOY_CM["bonafide"],
                TEER_TOY_CM["spoof"])
    assert te.teer == TEER_TOY["teer"]
    assert (te.asv_threshold, te.cm_threshold) == (TEER_TOY["asv_threshold"],
                                                   TEER_TOY["cm_threshold"])
    assert (te.pmiss_asv, te.pfa_asv, te.pfa_spoof_asv) == (0, 0.5, 0.5)
    assert (te.pmiss_cm, te.pfa_cm) == (0.25, 0.5)


def test_cascade_score_rejects_what_the_cm_rejects():
    s = T.sasv_cascade([1.0, 2.0, 3.0], [0.5, -1.0, 0.0], 0.0)
    assert s.tolist() == [1.0, -np.inf, 3.0]
    # -inf is rejected at every threshold: the lowest threshold accepts 1 and 3 only
    p = T.adcf_at([3.0], [1.0], s[1:2], T.ASVSPOOF5, -1e300)
    assert (p.pmiss, p.pfa, p.pfa_spoof) == (0, 1, 0)
    p = T.min_adcf([3.0], [1.0], s[1:2], T.ASVSPOOF5)
    assert (p.adcf, p.threshold, p.pfa_spoof) == (0, 2.0, 0)


# --------------------------------------------------------------- brute force
def _positions(classes):
    """The organisers' sweep, from its definition: a stable sort of the concatenated
    classes, then the number of trials of each class among the k lowest."""
    scores = np.concatenate(classes)
    label = np.repeat(np.arange(len(classes)), [len(c) for c in classes])
    order = np.argsort(scores, kind="stable")
    return [np.concatenate(([0], np.cumsum(label[order] == c))) for c in range(len(classes))]


def _brute_min(score_sets, cost, threshold_of=None):
    """Minimum of ``cost(accepted counts)`` over every threshold (every score and above
    all), the lowest threshold on ties."""
    cands = np.unique(np.concatenate(score_sets))
    best = None
    for t in list(cands) + [np.inf]:
        value = cost(*[np.count_nonzero(np.asarray(s) >= t) for s in score_sets])
        if best is None or value < best[0]:
            best = (value, t)
    return best


def _brute_teer(tar, non, spf, bona, cspf):
    rt, rn, rs = _positions([tar, non, spf])
    a, b, c = rt / len(tar), 1 - rn / len(non), 1 - rs / len(spf)
    rb, _ = _positions([bona, cspf])
    k = np.arange(rb.size)
    pm, fa = rb / len(bona), (len(cspf) - (k - rb)) / len(cspf)
    best = (np.inf, None)
    for m in range(a.size):
        if not a[m] < 0.5 * b[m] + 0.5 * c[m]:
            continue
        gap = (pm + (1 - pm) * a[m]) - (0.5 * (1 - pm) * b[m] + 0.5 * fa * c[m])
        t = int(np.argmin(np.abs(gap)))
        with np.errstate(divide="ignore", invalid="ignore"):
            crit = abs(b[m] / c[m] - fa[t] / (1 - pm[t]))
        if crit < best[0]:
            best = (crit, c[m] * fa[t])
    return best[1]


def _random_table(rng, n, levels):
    kind = rng.choice(["target", "nontarget", "spoof"], size=n, p=[0.25, 0.35, 0.4])
    kind[:3] = ["target", "nontarget", "spoof"]
    shift = np.select([kind == "target", kind == "spoof"], [3, 2], 0)
    asv = np.round(rng.normal(shift, 1.5) * levels) / levels
    cm = np.round(rng.normal(np.where(kind == "spoof", -1, 1), 1.2) * levels) / levels
    return asv, cm, kind


@pytest.mark.parametrize("seed", range(12))
def test_costs_equal_every_threshold_tried(seed):
    rng = np.random.default_rng(seed)
    asv, cm, kind = _random_table(rng, 60 + 20 * seed, levels=2)  # many ties
    g = _by_kind(asv, cm, kind)
    tar, non, spf = g["target"][0], g["nontarget"][0], g["spoof"][0]
    bona, spoof = cm[kind != "spoof"], cm[kind == "spoof"]
    w = T.tdcf_weights(T.asv_rates(tar, non, spf, 0.5), T.ASVSPOOF5)
    nb, ns = bona.size, spoof.size
    value, t = _brute_min([bona, spoof], lambda acc_b, acc_s: T.tdcf_values(
        w, (nb - acc_b) / nb, acc_s / ns))
    p = T.min_tdcf(bona, spoof, w)
    assert p.tdcf == pytest.approx(value, abs=1e-12)
    assert T.tdcf_at(bona, spoof, w, p.threshold).tdcf == p.tdcf  # the threshold reaches it
    assert np.count_nonzero(cm < p.threshold) == np.count_nonzero(cm < t)  # the same point
    s = T.sasv_sum(asv, cm)
    st, sn, ss = s[kind == "target"], s[kind == "nontarget"], s[kind == "spoof"]
    c = T.SASV_ADCF
    value, t = _brute_min([st, sn, ss], lambda at, an, as_: (
        c.c_miss * c.p_target * ((st.size - at) / st.size)
        + c.c_fa * c.p_nontarget * (an / sn.size) + c.c_fa_spoof * c.p_spoof * (as_ / ss.size)
    ) / 0.9)
    p = T.min_adcf(st, sn, ss, c)
    assert p.adcf == pytest.approx(value, abs=1e-12)
    assert np.count_nonzero(s < p.threshold) == np.count_nonzero(s < t)
    value, t = _brute_min([bona, spoof], lambda acc_b, acc_s: (
        (nb - acc_b) / nb * 0.95 + 10 * acc_s / ns * 0.05) / 0.5)
    assert T.cm_min_dcf(bona, spoof, T.ASVSPOOF5_CM)[0] == pytest.approx(value, abs=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_asv_eer_threshold_equals_the_position_sweep(seed):
    rng = np.random.default_rng(100 + seed)
    asv, cm, kind = _random_table(rng, 50 + 10 * seed, levels=1 + seed % 3)
    tar, non = asv[kind == "target"], asv[kind == "nontarget"]
    rt, _ = _positions([tar, non])
    k = np.arange(rt.size)
    frr, far = rt / tar.size, (non.size - (k - rt)) / non.size
    i = int(np.argmin(np.abs(frr - far)))
    merged = np.sort(np.concatenate([tar, non]))
    want = merged[i - 1] if i else merged[0] - 0.001
    assert T.asv_eer_threshold(tar, non) == ((frr[i] + far[i]) / 2, want)


@pytest.mark.parametrize("seed", range(16))
def test_teer_equals_its_definition_on_tied_scores(seed):
    rng = np.random.default_rng(200 + seed)
    asv, cm, kind = _random_table(rng, 40 + 25 * seed, levels=1 + seed % 4)
    g = _by_kind(asv, cm, kind)
    args = (g["target"][0], g["nontarget"][0], g["spoof"][0],
            np.concatenate([g["target"][1], g["nontarget"][1]]), g["spoof"][1])
    want = _brute_teer(*args)
    if want is None:
        with pytest.raises(ValueError, match="t-EER is undefined"):
            T.teer(*args)
    else:
        assert T.teer(*args).teer == want


def test_teer_equals_its_definition_on_many_rows():
    """Enough ASV points for every level of the coarse-to-fine search."""
    rng = np.random.default_rng(7)
    asv, cm, kind = _random_table(rng, 3000, levels=20)
    g = _by_kind(asv, cm, kind)
    args = (g["target"][0], g["nontarget"][0], g["spoof"][0],
            np.concatenate([g["target"][1], g["nontarget"][1]]), g["spoof"][1])
    assert T.teer(*args).teer == _brute_teer(*args)


def test_crossing_does_not_need_monotone_rows():
    """Rows out of order break the brackets; the check of each root repairs them."""
    rng = np.random.default_rng(3)
    asv, cm, kind = _random_table(rng, 400, levels=3)
    g = _by_kind(asv, cm, kind)
    (a, b, c), (pm, fa), *_ = T._teer_curves(
        g["target"][0], g["nontarget"][0], g["spoof"][0],
        np.concatenate([g["target"][1], g["nontarget"][1]]), g["spoof"][1])
    rows = np.flatnonzero((a < 0.5 * b + 0.5 * c) & (c > 0))
    want = [int(np.argmin(np.abs(T._gap(pm, fa, a[m], b[m], c[m])))) for m in rows]
    shuffled = rng.permutation(rows)
    got = T._crossing(pm, fa, a[shuffled], b[shuffled], c[shuffled])
    assert dict(zip(shuffled.tolist(), got.tolist(), strict=True)) == \
        dict(zip(rows.tolist(), want, strict=True))


def test_cm_curve_counts_every_threshold():
    rng = np.random.default_rng(11)
    _, cm, kind = _random_table(rng, 200, levels=2)
    bona, spoof = cm[kind != "spoof"], cm[kind == "spoof"]
    thr, pmiss, pfa = T.cm_curve(bona, spoof)
    assert np.all(np.diff(thr) > 0) and np.all(np.diff(pmiss) >= 0) and np.all(np.diff(pfa) <= 0)
    assert thr.size == np.unique(cm).size + 1
    for t, m, f in zip(thr, pmiss, pfa, strict=True):
        assert m == np.count_nonzero(bona < t) / bona.size
        assert f == np.count_nonzero(spoof >= t) / spoof.size


def test_bayes_threshold_is_near_the_minimum_for_calibrated_llrs():
    """Bona fide N(1, 2) and spoof N(-1, 2) scores are natural-log likelihood ratios; at
    ln(C2 / C1) the actual t-DCF is the minimum's, up to sampling."""
    rng = np.random.default_rng(5)
    bona = rng.normal(1, np.sqrt(2), 200_000)
    spoof = rng.normal(-1, np.sqrt(2), 200_000)
    w = T.TdcfWeights(c0=0.05, c1=0.6, c2=0.2, norm=0.25)
    act = T.tdcf_at(bona, spoof, w, T.tdcf_bayes_threshold(w))
    best = T.min_tdcf(bona, spoof, w)
    assert act.tdcf >= best.tdcf
    assert act.tdcf == pytest.approx(best.tdcf, rel=0.01)
    assert best.threshold == pytest.approx(math.log(0.2 / 0.6), abs=0.1)


# ------------------------------------------------------------------ presets
def test_presets_are_the_challenge_cost_models():
    assert T.TDCF_2019 == T.TandemCosts2019((1 - 0.05) * 0.99, (1 - 0.05) * 0.01, 0.05,
                                            1, 10, 1, 10)
    assert T.TDCF_2019.p_target == pytest.approx(0.9405)
    assert (T.ASVSPOOF5.c_miss, T.ASVSPOOF5.c_fa, T.ASVSPOOF5.c_fa_spoof) == (1, 10, 10)
    assert (T.ASVSPOOF5.p_target, T.ASVSPOOF5.p_nontarget) == ((1 - 0.05) * 0.99,
                                                                (1 - 0.05) * 0.01)
    assert T.SASV_ADCF == T.TandemCosts(0.9, 0.05, 0.05, 1, 10, 20)
    assert T.ASVSPOOF5_CM == T.CmCosts(0.05, 1, 10)
    assert T.PRESETS["asvspoof2021"] is T.PRESETS["asvspoof5"]
    with pytest.raises(FrozenInstanceError):
        T.ASVSPOOF5.c_fa = 1.0


def test_inputs_are_not_mutated():
    asv, cm, kind = ties_arrays()
    before = (asv.copy(), cm.copy())
    _all_metrics(asv, cm, kind, cm[kind != "spoof"], cm[kind == "spoof"])
    np.testing.assert_array_equal(asv, before[0])
    np.testing.assert_array_equal(cm, before[1])


# ------------------------------------------------------------------- errors
@pytest.mark.parametrize("call", [
    lambda: T.asv_eer_threshold([], [1.0]),
    lambda: T.asv_rates([1.0], [], [1.0], 0.0),
    lambda: T.min_tdcf([], [1.0], T.TdcfWeights(0, 1, 1, 1)),
    lambda: T.min_adcf([1.0], [], [1.0], T.ASVSPOOF5),
    lambda: T.cm_min_dcf([], [1.0], T.ASVSPOOF5_CM),
    lambda: T.cm_cllr([], [1.0]),
    lambda: T.tdcf_at([], [1.0], T.TdcfWeights(0, 1, 1, 1), 0.0),
])
def test_empty_class_is_named(call):
    with pytest.raises(ValueError, match="every class of trials needs at least one score"):
        call()


@pytest.mark.parametrize("call", [
    lambda: T.asv_rates([1.0], [0.0], [], 0.5),
    lambda: T.min_tdcf([1.0], [], T.TdcfWeights(0, 1, 1, 1)),
    lambda: T.teer([1.0], [0.0], [], [1.0], [0.0]),
    lambda: T.min_adcf([1.0], [0.0], [], T.ASVSPOOF5),
    lambda: T.cm_act_dcf([1.0], [], T.ASVSPOOF5_CM),
    lambda: T.cm_cllr([1.0], []),
])
def test_no_spoof_trials_is_named(call):
    with pytest.raises(ValueError) as err:
        call()
    assert str(err.value) == T.ERROR_NO_SPOOF


def test_zero_normalizer_is_named():
    # the ASV rejects every spoof: C2 = 0, and the 2019 normalizer min(C1, C2) is 0
    rates = T.asv_rates([2.0], [0.0], [0.5], 1.0)
    assert rates.pmiss_spoof == 1
    with pytest.raises(ValueError, match="t-DCF 2019 normalizer is 0"):
        T.tdcf_weights_2019(rates, T.TDCF_2019)
    # a perfect ASV (C0 = 0) that rejects every spoof (C2 = 0)
    with pytest.raises(ValueError, match="t-DCF normalizer is 0"):
        T.tdcf_weights(rates, T.ASVSPOOF5)
    free = T.TandemCosts(0.9, 0.05, 0.05, 0.0, 10.0, 10.0)  # rejecting costs nothing
    with pytest.raises(ValueError, match="a-DCF normalizer is 0"):
        T.min_adcf([1.0], [0.0], [0.5], free)
    with pytest.raises(ValueError, match="CM DCF normalizer is 0"):
        T.cm_min_dcf([1.0], [0.0], T.CmCosts(0.0, 1.0, 10.0))


def test_negative_weight_is_named():
    rates = T.asv_rates([0.0], [2.0], [0.5], 1.0)  # misses every target, accepts non-targets
    with pytest.raises(ValueError, match="t-DCF weight C1 = .* is negative"):
        T.tdcf_weights_2019(rates, T.TDCF_2019)


@pytest.mark.parametrize("costs", [
    T.TandemCosts(0.9, 0.05, 0.1, 1, 10, 10),
    T.TandemCosts(1.1, -0.05, -0.05, 1, 10, 10),
    T.TandemCosts2019(0.5, 0.5, 0.5, 1, 10, 1, 10),
])
def test_priors_must_sum_to_one(costs):
    rates = T.asv_rates([2.0], [0.0], [1.5], 1.0)
    weights = T.tdcf_weights_2019 if isinstance(costs, T.TandemCosts2019) else T.tdcf_weights
    with pytest.raises(ValueError, match="must be non-negative and sum to 1"):
        weights(rates, costs)


@pytest.mark.parametrize("costs", [T.TandemCosts(0.9, 0.05, 0.05, 1, -10, 10),
                                   T.TandemCosts(0.9, 0.05, 0.05, math.nan, 10, 10)])
def test_costs_must_be_non_negative(costs):
    with pytest.raises(ValueError, match="non-negative finite numbers"):
        T.min_adcf([1.0], [0.0], [0.5], costs)


def test_undefined_teer_is_named():
    # only the accept-all ASV point accepts a spoof, and there the CM point nearest the
    # crossing rejects every bona fide trial: Pfa_cm / (1 - Pmiss_cm) is 1/0
    with pytest.raises(ValueError) as err:
        T.teer([5.0], [4.0], [-1.0], [1.0], [2.0])
    assert str(err.value) == T.ERROR_NO_TEER
