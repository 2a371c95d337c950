"""Identification (1:N search): reference cases, oracles, properties and every bad input.

Reference values are rebuilt from their definitions:

- bob.measure's CMC fixture (``bob/measure/test_error.py::test_cmc``): four probes with
  negatives (0.3, 1.1, 0.5), (1.4, -1.3, 0.6), (0.8, 0.0, 1.5), (2.0, 1.3, 1.6, 0.9) and
  positives (0.7,), (0.2,), (-0.8, 1.8), (2.4,).  Counting the negatives >= the best
  positive gives 1, 2, 0, 0, so the ranks are 2, 3, 1, 1: recognition rate 2/4 = 0.5 and
  CMC [2/4, 3/4, 4/4, 1, 1] over the 5 ranks bob returns (1 + the most negatives).
- bob.measure's ``recognition_rate``, ``cmc``, ``detection_identification_rate`` and
  ``false_alarm_rate`` re-implemented below, loop by loop, from their documented
  definitions (``_bob_*``), as oracles on random tables.
"""

from __future__ import annotations

import inspect
import io
import re
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import given, settings
from hypothesis import strategies as st

from pandas_biosig import stats
from pandas_biosig._core.protocol import ERROR_THRESHOLD_MISSING
from pandas_biosig._core.schema import ERROR_MISSING_COLUMNS, ERROR_OPTION, SchemaError
from pandas_biosig._core.validation import (
    ERROR_ADJUST,
    ERROR_ALPHA,
    ERROR_CONFIDENCE_LEVEL,
    ERROR_POSITIVE_COUNT,
    ERROR_RATE,
)
from pandas_biosig._core.validation import ERROR_THRESHOLD_VALUE as ERROR_THRESHOLD
from pandas_biosig._kernels import identification as kern
from pandas_biosig.datasets import example_search
from pandas_biosig.identification import (
    CMC_DIFFERENCE_VARIABLES,
    CMC_VARIABLES,
    COMPARE_COLUMNS,
    DIR_COLUMNS,
    DIR_CURVE_VARIABLES,
    PROBE_RANK_COLUMNS,
    RECOGNITION_COLUMNS,
    cmc,
    cmc_difference,
    compare_identification,
    detection_identification_rate,
    dir_curve,
    probe_ranks,
    recognition_rate,
)
from pandas_biosig.identification._compare import (
    ERROR_FOLD_UNUSED,
    ERROR_NO_COMMON,
    ERROR_ONE_SYSTEM,
    ERROR_PROBES_DIFFER,
    ERROR_SIGN_NEEDS_FOLD,
)
from pandas_biosig.identification._search import (
    ERROR_DUPLICATE_PAIRS,
    ERROR_EMPTY,
    ERROR_NO_MATED,
    ERROR_NO_UNMATED,
    ERROR_NONFINITE,
    ERROR_NOT_A_FRAME,
    validate_search,
)
from pandas_biosig.io import read_bob_identification, read_pyeer_cmc
from pandas_biosig.io._identification import (
    ERROR_FILE_COLUMNS,
    ERROR_FILE_LAYOUT,
    ERROR_FILE_SCORES,
    WARN_TRUE_PAIRS_UNSCORED,
)


def prefix(template):
    """The longest literal fragment of a message template, as a regex."""
    return re.escape(max(re.split(r"\{[^}]*\}", template), key=len))


# ----------------------------------------------------------------------------- fixtures

#: bob.measure's CMC fixture: (negatives, positives) per probe.
BOB_CMC = [
    ((0.3, 1.1, 0.5), (0.7,)),
    ((1.4, -1.3, 0.6), (0.2,)),
    ((0.8, 0.0, 1.5), (-0.8, 1.8)),
    ((2.0, 1.3, 1.6, 0.9), (2.4,)),
]


def table_from_pairs(pairs, system="bob"):
    """A tidy search table from bob's ``[(negatives, positives), ...]`` (None allowed)."""
    rows = []
    for p, (neg, pos) in enumerate(pairs):
        for i, s in enumerate(neg or ()):
            rows.append((system, p, f"n{i}", float(s), False))
        for i, s in enumerate(pos or ()):
            rows.append((system, p, f"m{i}", float(s), True))
    return pd.DataFrame(rows, columns=["system", "probe", "reference", "score", "mate"])


def pairs_from_table(table):
    """bob's ``[(negatives, positives)]`` per probe, in probe order (None when empty)."""
    out = []
    for _, g in table.groupby("probe", sort=False):
        neg = g.score[~g.mate].to_numpy()
        pos = g.score[g.mate].to_numpy()
        out.append((neg if neg.size else None, pos if pos.size else None))
    return out


# bob.measure's definitions, loop by loop ------------------------------------------------


def _bob_cmc(pairs):
    n_ranks = max(len(neg) for neg, _ in pairs if neg is not None) + 1
    mc = np.zeros(n_ranks)
    for neg, pos in pairs:
        neg = np.zeros(0) if neg is None else np.asarray(neg)
        mc[int(np.sum(neg >= np.max(pos)))] += 1
    return np.cumsum(mc) / len(pairs)


def _bob_dir(pairs, threshold, rank=1):
    correct = counter = 0
    for neg, pos in pairs:
        if pos is None:
            continue
        counter += 1
        neg = np.zeros(0) if neg is None else np.asarray(neg)
        best = np.max(pos)
        if best >= threshold and np.sum(neg >= best) < rank:
            correct += 1
    return correct / counter


def _bob_far(pairs, threshold):
    incorrect = counter = 0
    for neg, pos in pairs:
        if pos is None:
            counter += 1
            incorrect += np.max(neg) >= threshold
    return incorrect / counter


def _brute_ranks(table):
    """Ranks by sorting each probe's scores (ties against the probe)."""
    out = {}
    for p, g in table.groupby("probe", sort=False):
        if not g.mate.any():
            out[p] = np.nan
            continue
        best = g.score[g.mate].max()
        order = np.sort(g.score[~g.mate].to_numpy())[::-1]
        out[p] = float(np.searchsorted(-order, -best, side="right") + 1)
    return out


# random search tables ---------------------------------------------------------------------

grid_scores = st.integers(-8, 8).map(lambda v: v / 4)  # a coarse grid: many ties


@st.composite
def searches(draw, open_set=True, min_refs=1):
    n_probes = draw(st.integers(1, 7))
    n_refs = draw(st.integers(min_refs, 7))
    rows = []
    for p in range(n_probes):
        mated = draw(st.booleans()) if open_set else True
        n_mates = draw(st.integers(1, min(2, n_refs))) if mated else 0
        for r in range(n_refs):
            rows.append(("s", f"p{p}", f"r{r}", draw(grid_scores), r < n_mates))
    return pd.DataFrame(rows, columns=["system", "probe", "reference", "score", "mate"])


SETTINGS = settings(max_examples=60, deadline=None)


# ----------------------------------------------------------------------------- kernels


def test_kernel_probe_stats_on_bob_fixture():
    t = table_from_pairs(BOB_CMC)
    st_ = kern.probe_stats(
        t.probe.to_numpy(), t.mate.to_numpy(), t.score.to_numpy(), 4
    )
    assert st_.rank.tolist() == [2.0, 3.0, 1.0, 1.0]
    assert st_.mate_score.tolist() == [0.7, 0.2, 1.8, 2.4]
    assert st_.nonmate_score.tolist() == [1.1, 1.4, 1.5, 2.0]
    assert st_.n_mates.tolist() == [1, 1, 2, 1]
    assert st_.n_references.tolist() == [4, 4, 5, 5]
    assert kern.cmc_counts(st_.rank, 5).tolist() == [2, 3, 4, 4, 4]
    assert kern.recognition_counts(st_.rank, [1, 2, 3]).tolist() == [2, 3, 4]


def test_kernel_unmated_probe_and_failed_scores():
    probe = np.array([0, 0, 1, 1, 1])
    mate = np.array([True, False, False, False, False])
    scores = np.array([-np.inf, -np.inf, 0.1, 0.3, -np.inf])
    st_ = kern.probe_stats(probe, mate, scores, 2)
    # a failed mate ties with a failed non-mate: ties count against the probe
    assert st_.rank[0] == 2.0
    assert np.isnan(st_.rank[1]) and np.isnan(st_.mate_score[1])
    assert st_.nonmate_score[1] == 0.3


@pytest.mark.parametrize("chunk", [1, 2, 3, 1 << 22])
def test_kernel_chunks_and_sorted_fast_path_agree(monkeypatch, chunk):
    rng = np.random.default_rng(3)
    probe = np.repeat(np.arange(40), 25)
    mate = np.zeros(probe.size, bool)
    mate[np.arange(40) * 25 + rng.integers(0, 25, 40)] = True
    mate[:25:5] = True  # several mates for probe 0
    mate[25:50] = False  # probe 1 is unmated
    scores = np.round(rng.standard_normal(probe.size), 1)  # ties
    monkeypatch.setattr(kern, "CHUNK", chunk)
    grouped = kern.probe_stats(probe, mate, scores, 40)  # codes non-decreasing
    perm = rng.permutation(probe.size)
    shuffled = kern.probe_stats(probe[perm], mate[perm], scores[perm], 40)
    for a, b in zip(grouped, shuffled, strict=True):
        np.testing.assert_array_equal(a, b)


def test_kernel_duplicate_pairs_both_paths():
    p = np.array([0, 0, 1, 1])
    r = np.array([0, 1, 0, 1])
    assert not kern.has_duplicate_pairs(p, r, 2, 2)
    assert kern.has_duplicate_pairs(np.r_[p, 1], np.r_[r, 0], 2, 2)
    # rows grouped by reference (bob's file order) are keyed reference-major
    p_ref, r_ref = np.array([0, 1, 2, 0, 1, 2]), np.array([0, 0, 0, 1, 1, 1])
    assert not kern.has_duplicate_pairs(p_ref, r_ref, 3, 2)
    assert kern.has_duplicate_pairs(np.r_[p_ref, 2], np.r_[r_ref, 1], 3, 2)
    # a huge code space takes the sorting path
    big = 10**7
    assert not kern.has_duplicate_pairs(p * big, r * big, big + 1, big + 1)
    assert kern.has_duplicate_pairs(np.r_[p, 1] * big, np.r_[r, 0] * big, big + 1, big + 1)


# ----------------------------------------------------------------------------- reference


def test_bob_fixture_recognition_rate_and_cmc():
    t = table_from_pairs(BOB_CMC)
    assert probe_ranks(t)["rank"].tolist() == [2.0, 3.0, 1.0, 1.0]
    assert recognition_rate(t).recognition_rate.tolist() == [0.5]
    ds = cmc(t)
    assert ds.cmc.sel(system="bob").values.tolist() == [0.5, 0.75, 1.0, 1.0, 1.0]
    assert ds["rank"].values.tolist() == [1, 2, 3, 4, 5]  # ds.rank is a method
    assert int(ds.max_rank.sel(system="bob")) == 5
    np.testing.assert_array_equal(ds.cmc.sel(system="bob").values, _bob_cmc(BOB_CMC))


def test_issue_case_ranks_1_2_1_3():
    # probe i has (rank_i - 1) non-mates above its mate, the rest below, gallery of 5
    ranks = [1, 2, 1, 3]
    pairs = [(tuple([2.0] * (k - 1) + [0.0] * (5 - k)), (1.0,)) for k in ranks]
    t = table_from_pairs(pairs)
    assert probe_ranks(t)["rank"].tolist() == [1.0, 2.0, 1.0, 3.0]
    assert recognition_rate(t).recognition_rate.iloc[0] == 0.5
    assert cmc(t).cmc.values[0].tolist() == [0.5, 0.75, 1.0, 1.0, 1.0]


def test_ties_count_against_the_probe():
    t = table_from_pairs([((0.5, 0.5, 0.1), (0.5,)), ((0.4,), (0.5,))])
    assert probe_ranks(t)["rank"].tolist() == [3.0, 1.0]
    # the mates' own ties never count: two mates at the same score
    t2 = table_from_pairs([((0.1,), (0.5, 0.5))])
    assert probe_ranks(t2)["rank"].tolist() == [1.0]


def test_several_mates_best_counts_others_never_against():
    t = table_from_pairs([((1.0, 0.2), (0.1, 1.5, 0.9))])
    out = probe_ranks(t)
    assert out["rank"].tolist() == [1.0]
    assert out.n_mates.tolist() == [3] and out.mate_score.tolist() == [1.5]


def test_open_set_rules_hand_counted():
    # two mated probes (ranks 1 and 2, best mates 0.9 and 0.8) and two unmated probes
    # (best scores 0.85 and 0.3)
    pairs = [((0.2, 0.1), (0.9,)), ((0.95, 0.1), (0.8,)), ((0.85, 0.2), None), ((0.3,), None)]
    t = table_from_pairs(pairs)
    r = recognition_rate(t)
    assert (r.n_probes.item(), r.n_unmated.item(), r.recognition_rate.item()) == (2, 2, 0.5)
    assert cmc(t).cmc.values[0].tolist() == [0.5, 1.0, 1.0]
    at = detection_identification_rate(t, threshold=0.84)
    # DIR: only probe 0 (rank 1, 0.9 >= 0.84) over the 2 mated probes; FAR: the unmated
    # probe at 0.85 over the 2 unmated probes -- open-set probes only in FAR's denominator
    assert at[["n_detected", "dir", "n_false_alarms", "far"]].iloc[0].tolist() == [1, 0.5, 1, 0.5]
    assert at.dir.item() == _bob_dir(pairs, 0.84) and at.far.item() == _bob_far(pairs, 0.84)
    at2 = detection_identification_rate(t, threshold=0.84, rank=2)
    assert at2.dir.item() == 0.5  # probe 1 is rank 2 but 0.8 < 0.84
    at3 = detection_identification_rate(t, threshold=0.5, rank=2)
    assert at3.dir.item() == 1.0 and at3.far.item() == 0.5
    # bob's recognition_rate without threshold counts unmated probes as failures
    assert r.n_correct.item() / (r.n_probes.item() + r.n_unmated.item()) == 0.25


def test_dir_at_far_target_hand_counted():
    pairs = [((0.2, 0.1), (0.9,)), ((0.95, 0.1), (0.8,)), ((0.85, 0.2), None), ((0.3,), None)]
    t = table_from_pairs(pairs)
    out = detection_identification_rate(t, target=0.0)
    # no false alarm allowed: accept only scores above 0.85 -> midpoint (0.85 + 0.9) / 2
    assert out.threshold.item() == pytest.approx(0.875)
    assert (out.n_false_alarms.item(), out.dir.item(), out.criterion.item()) == (0, 0.5, "far")
    out = detection_identification_rate(t, target=0.5)
    assert out.threshold.item() == pytest.approx(0.3 / 2 + 0.85 / 2)  # next lower candidate
    assert (out.far.item(), out.dir.item()) == (0.5, 0.5)
    out = detection_identification_rate(t, target=1.0)
    assert (out.far.item(), out.dir.item(), out.threshold.item()) == (1.0, 0.5, 0.3)


def test_threshold_mapping_and_distances():
    pairs = [((0.2, 0.1), (0.9,)), ((0.95, 0.1), (0.8,)), ((0.85, 0.2), None), ((0.3,), None)]
    sim = table_from_pairs(pairs)
    both = pd.concat([sim, sim.assign(system="b")])
    out = detection_identification_rate(both, threshold={"bob": 0.84, "b": 0.5})
    assert out.dir.tolist() == [0.5, 0.5] and out.far.tolist() == [0.5, 0.5]
    dist = sim.assign(score=-sim.score)
    a = detection_identification_rate(sim, target=0.0)
    b = detection_identification_rate(dist, target=0.0, orientation="distance")
    assert b.threshold.item() == pytest.approx(-a.threshold.item())
    assert b.dir.item() == a.dir.item()
    pd.testing.assert_series_equal(
        probe_ranks(dist, orientation="distance")["rank"], probe_ranks(sim)["rank"]
    )
    np.testing.assert_allclose(
        probe_ranks(dist, orientation="distance").mate_score, -probe_ranks(sim).mate_score
    )


def test_dir_curve_hand_counted():
    pairs = [((0.2, 0.1), (0.9,)), ((0.95, 0.1), (0.8,)), ((0.85, 0.2), None), ((0.3,), None)]
    ds = dir_curve(table_from_pairs(pairs))
    c = ds.sel(system="bob")
    # distinct candidates: 0.9 (rank-1 mate), 0.85 and 0.3 (unmated tops); probe 1 is
    # rank 2 and never identified at rank 1
    assert c.far.values.tolist() == [0.0, 0.0, 0.5, 1.0]
    assert c.dir.values.tolist() == [0.0, 0.5, 0.5, 0.5]
    assert c.threshold.values[0] == np.nextafter(0.9, np.inf)
    np.testing.assert_allclose(c.threshold.values[1:], [0.875, 0.575, 0.3])
    assert int(c["rank"]) == 1 and c.n_mated.item() == 2 and c.n_unmated.item() == 2


# ----------------------------------------------------------------------------- oracles


@SETTINGS
@given(searches(open_set=False))
def test_cmc_matches_bob_definition(table):
    pairs = pairs_from_table(table)
    if all(neg is None for neg, _ in pairs):
        return
    ours = cmc(table).cmc.values[0]
    theirs = _bob_cmc(pairs)
    np.testing.assert_array_equal(ours[: theirs.size], theirs)


@SETTINGS
@given(searches(), st.sampled_from([-0.5, 0.0, 0.25, 1.0]), st.integers(1, 3))
def test_open_set_rates_match_bob_definitions(table, threshold, rank):
    pairs = pairs_from_table(table)
    has_mated = any(pos is not None for _, pos in pairs)
    has_unmated = any(pos is None for _, pos in pairs)
    if not has_mated:
        return
    out = detection_identification_rate(table, threshold=threshold, rank=rank)
    assert out.dir.item() == _bob_dir(pairs, threshold, rank)
    if has_unmated:
        assert out.far.item() == _bob_far(pairs, threshold)
    else:
        assert np.isnan(out.far.item())


@SETTINGS
@given(searches(), st.sampled_from([0.0, 0.2, 0.5, 1.0]))
def test_dir_at_far_is_the_best_feasible_threshold(table, target):
    pairs = pairs_from_table(table)
    if not any(p is None for _, p in pairs) or all(p is None for _, p in pairs):
        return
    out = detection_identification_rate(table, target=target)
    t = out.threshold.item()
    assert out.far.item() <= target
    assert out.far.item() == _bob_far(pairs, t) and out.dir.item() == _bob_dir(pairs, t)
    # no threshold with a feasible FAR has a higher DIR
    for cand in np.unique(table.score):
        if _bob_far(pairs, cand) <= target:
            assert _bob_dir(pairs, cand) <= out.dir.item()
    # and the curve passes through it
    c = dir_curve(table).sel(system="s").dropna("point")
    hit = c.threshold.values == t  # exact: nextafter(0.0) is "close" to 0.0
    assert hit.any() and c.dir.values[hit][0] == out.dir.item()


@SETTINGS
@given(searches())
def test_ranks_match_brute_force_sorting(table):
    brute = _brute_ranks(table)
    ours = probe_ranks(table)
    np.testing.assert_array_equal(ours["rank"].to_numpy(), [brute[p] for p in ours.probe])


def test_mcnemar_and_gunter_match_the_scalar_tests():
    from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

    search = example_search()
    ranks = probe_ranks(search)
    ranks = ranks[ranks.mated]
    ok = {s: g.set_index("probe")["rank"] <= 1 for s, g in ranks.groupby("system", sort=False)}
    a, b = ok["cnn"], ok["gmm"]
    table = [[int((a & b).sum()), int((a & ~b).sum())], [int((~a & b).sum()), int((~a & ~b).sum())]]
    out = compare_identification(search, adjust=None).set_index(["system_a", "system_b"])
    row = out.loc[("cnn", "gmm")]
    assert row.pvalue == pytest.approx(sm_mcnemar(table, exact=True).pvalue, rel=1e-12)
    assert row.estimate == pytest.approx(a.mean() - b.mean())
    assert row.n == 100 and row.adjust == "none" and row.pvalue_adj == row.pvalue
    g = compare_identification(search, test="gunter_paired").set_index(["system_a", "system_b"])
    ref = stats.recognition_rate_test(
        a.mean(), b.mean(), n=100, r12=(a & b).mean(), method="paired", alternative="two-sided"
    )
    assert g.loc[("cnn", "gmm")].statistic == pytest.approx(ref.statistic)
    assert g.loc[("cnn", "gmm")].pvalue == pytest.approx(ref.pvalue)
    ci = ref.confidence_interval(confidence_level=0.95)
    assert g.loc[("cnn", "gmm")].ci_low == pytest.approx(ci.low)


def test_adjustment_over_exactly_the_returned_rows():
    from statsmodels.stats.multitest import multipletests

    search = example_search()
    for adjust in ("holm", "bonferroni", "fdr_bh"):
        out = compare_identification(search, adjust=adjust, alpha=0.01)
        reject, p_adj, _, _ = multipletests(out.pvalue, alpha=0.01, method=adjust)
        np.testing.assert_allclose(out.pvalue_adj, p_adj)
        assert out.reject.tolist() == reject.tolist()
        assert (out.adjust == adjust).all() and (out.alpha == 0.01).all()
    per_fold = compare_identification(search, by="fold")
    assert len(per_fold) == 5 * 6 and list(per_fold.columns) == ["fold", *COMPARE_COLUMNS]
    for _, family in per_fold.groupby("fold"):  # one family per by group, as in compare()
        _, p_adj, _, _ = multipletests(family.pvalue, method="holm")
        np.testing.assert_allclose(family.pvalue_adj, p_adj)


def test_sign_test_over_folds_matches_scipy():
    from scipy.stats import binomtest

    search = example_search()
    rr = recognition_rate(search, by="fold").pivot(
        index="fold", columns="system", values="recognition_rate"
    )
    out = compare_identification(search, test="sign", fold="fold", adjust=None)
    row = out.set_index(["system_a", "system_b"]).loc[("cnn", "lbp")]
    wins = int((rr.cnn > rr.lbp).sum())
    losses = int((rr.cnn < rr.lbp).sum())
    assert row.statistic == wins and row.n == wins + losses
    assert row.pvalue == pytest.approx(binomtest(wins, wins + losses, 0.5).pvalue)
    assert "fold" not in out.columns and list(out.columns) == COMPARE_COLUMNS


def test_sign_test_all_runs_tied_gives_no_evidence():
    t = table_from_pairs(BOB_CMC)
    runs = pd.concat([t.assign(run=1), t.assign(run=2)])
    both = pd.concat([runs, runs.assign(system="copy")])
    out = compare_identification(both, test="sign", fold="run")
    assert (out.n.item(), out.pvalue.item(), out.estimate.item()) == (0, 1.0, 0.0)


def test_recognition_rate_interval_matches_statsmodels():
    from statsmodels.stats.proportion import proportion_confint

    out = recognition_rate(example_search(), rank=[1, 3], confidence_level=0.9, ci_method="beta")
    for row in out.itertuples():
        low, high = proportion_confint(row.n_correct, row.n_probes, alpha=0.1, method="beta")
        if row.n_correct == row.n_probes:
            high = 1.0
        assert (row.ci_low, row.ci_high) == pytest.approx((low, high))
    assert list(out.columns) == RECOGNITION_COLUMNS


# ----------------------------------------------------------------------------- bootstrap


def test_bootstrap_test_is_reproducible_and_has_the_paired_variance():
    search = example_search()
    a = compare_identification(search, test="bootstrap", seed=1, n_resamples=4000)
    b = compare_identification(search, test="bootstrap", seed=1, n_resamples=4000)
    pd.testing.assert_frame_equal(a, b)
    ranks = probe_ranks(search)
    ranks = ranks[ranks.mated]
    ok = {s: g.set_index("probe")["rank"] <= 1 for s, g in ranks.groupby("system", sort=False)}
    x, y = ok["cnn"], ok["gmm"]
    n = len(x)
    disc = ((x & ~y).sum() + (~x & y).sum()) / n
    se = np.sqrt((disc - (x.mean() - y.mean()) ** 2) / n)
    row = a.set_index(["system_a", "system_b"]).loc[("cnn", "gmm")]
    assert row.estimate / row.statistic == pytest.approx(se, rel=0.1)
    assert row.ci_low <= row.estimate <= row.ci_high
    assert (a.pvalue >= 1 / 4001).all()


def test_cmc_difference_layout_and_bands():
    search = example_search()
    ds = cmc_difference(search, n_resamples=200, seed=0, max_rank=8)
    assert list(ds.data_vars) == CMC_DIFFERENCE_VARIABLES
    assert ds.estimate.dims == ("pair", "rank") and ds.n.dims == ("pair",)
    assert ds.system_a.values.tolist() == ["cnn", "cnn", "cnn", "cnn_aug", "cnn_aug", "gmm"]
    c = cmc(search, max_rank=8).cmc
    np.testing.assert_allclose(
        ds.estimate.isel(pair=2).values, (c.sel(system="cnn") - c.sel(system="lbp")).values
    )
    assert bool((ds.band_low <= ds.estimate).all() and (ds.estimate <= ds.band_high).all())
    # the simultaneous band is at least as wide as the pointwise interval somewhere
    assert bool(((ds.band_high - ds.band_low) >= (ds.ci_high - ds.ci_low)).any())
    for var in ds.data_vars.values():
        assert {"long_name", "units"} <= set(var.attrs)
    again = cmc_difference(search, n_resamples=200, seed=0, max_rank=8)
    xr.testing.assert_identical(ds, again)
    by_fold = cmc_difference(search, n_resamples=50, seed=0, max_rank=3, by="fold")
    assert by_fold.estimate.dims == ("fold", "pair", "rank")


def test_replicates_kernel_identical_systems_are_zero():
    r = np.array([1.0, 2.0, 1.0, 5.0])
    reps = kern.cmc_difference_replicates(r, r, 5, 20, np.random.default_rng(0))
    assert reps.shape == (20, 5) and not reps.any()


# ----------------------------------------------------------------------------- properties


@SETTINGS
@given(searches(open_set=False))
def test_cmc_is_non_decreasing_and_reaches_one_at_the_gallery_size(table):
    ds = cmc(table)
    curve = ds.cmc.values[0]
    assert np.all(np.diff(curve) >= 0)
    gallery = table.groupby("probe").size().max()  # references per probe
    # one mate per probe at least: the largest possible rank is at most the gallery size
    assert int(ds.max_rank.values[0]) <= gallery
    assert curve[int(ds.max_rank.values[0]) - 1] == 1.0 and curve[-1] == 1.0


@SETTINGS
@given(searches(), st.randoms(use_true_random=False))
def test_shuffling_rows_changes_nothing(table, random):
    perm = list(range(len(table)))
    random.shuffle(perm)
    shuffled = table.iloc[perm].reset_index(drop=True)
    a = probe_ranks(table).sort_values("probe").reset_index(drop=True)
    b = probe_ranks(shuffled).sort_values("probe").reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)
    if a.mated.any():
        xr.testing.assert_identical(cmc(table), cmc(shuffled))


@SETTINGS
@given(searches(), st.integers(0, 6), grid_scores)
def test_adding_a_non_mate_never_improves_a_rank(table, which, new_score):
    probes = table.probe.unique()
    p = probes[which % len(probes)]
    extra = pd.DataFrame([("s", p, "extra", new_score, False)], columns=table.columns)
    before = probe_ranks(table).set_index("probe")["rank"]
    after = probe_ranks(pd.concat([table, extra], ignore_index=True)).set_index("probe")["rank"]
    mated = before.notna()
    assert (after[mated] >= before[mated]).all()
    best = table[(table.probe == p) & table.mate].score.max()
    if new_score < best:  # a worse-scored non-mate changes nothing
        pd.testing.assert_series_equal(before, after)
    others = before.index != p
    pd.testing.assert_series_equal(before[others], after[others])


@SETTINGS
@given(searches())
def test_dir_curve_is_monotone_and_ends_at_the_recognition_rate(table):
    pairs = pairs_from_table(table)
    if not any(p is None for _, p in pairs) or all(p is None for _, p in pairs):
        return
    c = dir_curve(table).sel(system="s").dropna("point")
    assert np.all(np.diff(c.far.values) >= 0) and np.all(np.diff(c.dir.values) >= 0)
    assert np.all(np.diff(c.threshold.values) < 0)
    assert c.far.values[0] == 0 and c.dir.values[0] == 0 and c.far.values[-1] == 1
    assert c.dir.values[-1] == recognition_rate(table).recognition_rate.item()


@SETTINGS
@given(searches(open_set=False))
def test_swapping_systems_flips_the_estimate(table):
    rng = np.random.default_rng(0)
    other = table.assign(system="t", score=table.score + rng.integers(-1, 2, len(table)) / 4)
    both = pd.concat([table, other], ignore_index=True)
    swapped = pd.concat([other, table], ignore_index=True)
    for test in ("mcnemar", "gunter_paired", "gunter_simple"):
        a = compare_identification(both, test=test, adjust=None)
        b = compare_identification(swapped, test=test, adjust=None)
        assert a.estimate.item() == -b.estimate.item()
        assert a.pvalue.item() == pytest.approx(b.pvalue.item())


# ----------------------------------------------------------------------------- schema


def test_result_layouts_do_not_depend_on_arguments():
    search = example_search()
    assert list(probe_ranks(search).columns) == PROBE_RANK_COLUMNS
    assert list(probe_ranks(search, by="fold").columns) == ["fold", *PROBE_RANK_COLUMNS]
    for kwargs in ({}, {"rank": [2, 3], "confidence_level": 0.8}):
        assert list(recognition_rate(search, **kwargs).columns) == RECOGNITION_COLUMNS
    for kwargs in ({}, {"threshold": 2.0}, {"threshold": {s: 2.0 for s in search.system}}):
        assert list(detection_identification_rate(search, **kwargs).columns) == DIR_COLUMNS
    for test in ("mcnemar", "gunter_paired", "gunter_simple", "bootstrap"):
        out = compare_identification(search, test=test, n_resamples=50, seed=0)
        assert list(out.columns) == COMPARE_COLUMNS
    ds = cmc(search)
    assert list(ds.data_vars) == CMC_VARIABLES
    assert ds.cmc.dims == ("system", "rank") and ds.attrs["kind"] == "cmc"
    assert cmc(search, by="fold").cmc.dims == ("fold", "system", "rank")
    dc = dir_curve(search, rank=2)
    assert list(dc.data_vars) == DIR_CURVE_VARIABLES and int(dc["rank"]) == 2
    for d in (ds, dc):
        for var in d.data_vars.values():
            assert {"long_name", "units"} <= set(var.attrs)
        assert {"kind", "orientation", "ties", "pandas_biosig_version"} <= set(d.attrs)


def test_max_rank_truncates_and_pads():
    t = table_from_pairs(BOB_CMC)
    assert cmc(t, max_rank=2).cmc.values[0].tolist() == [0.5, 0.75]
    assert cmc(t, max_rank=7).cmc.values[0].tolist() == [0.5, 0.75, 1, 1, 1, 1, 1]


def test_systems_with_different_galleries_share_the_rank_axis():
    small = table_from_pairs([((0.1,), (0.5,))], system="small")
    t = pd.concat([table_from_pairs(BOB_CMC), small])
    ds = cmc(t)
    assert ds.cmc.sel(system="small").values.tolist() == [1.0] * 5
    assert ds.max_rank.values.tolist() == [5, 2]


def test_missing_by_combinations_are_nan():
    t = table_from_pairs(BOB_CMC)
    parts = pd.concat(
        [t.assign(run=1), t.assign(run=1, system="x"), t.assign(run=2)], ignore_index=True
    )
    ds = cmc(parts, by="run")
    assert ds.cmc.dims == ("run", "system", "rank")
    assert np.isnan(ds.cmc.sel(run=2, system="x")).all()
    assert ds.n_probes.dtype == np.float64  # NaN where missing


def test_mate_vocabulary_and_renamed_columns():
    t = table_from_pairs(BOB_CMC)
    renamed = t.rename(
        columns={"system": "algo", "probe": "query", "reference": "template", "score": "s"}
    ).assign(mate=np.where(t.mate, "mated", "non-mated")).rename(columns={"mate": "is_mate"})
    out = recognition_rate(
        renamed, system="algo", probe="query", reference="template", score="s", mate="is_mate"
    )
    assert out.system.tolist() == ["bob"] and out.recognition_rate.item() == 0.5
    assert recognition_rate(t.assign(mate=t.mate.astype(int))).recognition_rate.item() == 0.5


def test_categorical_columns_and_the_input_is_not_modified():
    t = table_from_pairs(BOB_CMC).astype({"probe": "category", "reference": "category"})
    before = t.copy()
    assert probe_ranks(t)["rank"].tolist() == [2.0, 3.0, 1.0, 1.0]
    pd.testing.assert_frame_equal(t, before)


def test_reject_policy_for_failed_comparisons():
    t = table_from_pairs([((0.1, 0.2), (0.5,)), ((0.1, np.nan), (0.5,)), ((0.1,), (np.nan,))])
    out = probe_ranks(t, nonfinite="reject")
    # a failed non-mate never outranks; a failed mate ranks below every non-mate
    assert out["rank"].tolist() == [1.0, 1.0, 2.0]
    assert np.isneginf(out.mate_score.iloc[2])
    dist = probe_ranks(t.assign(score=-t.score), orientation="distance", nonfinite="reject")
    assert dist["rank"].tolist() == [1.0, 1.0, 2.0] and np.isposinf(dist.mate_score.iloc[2])


def test_public_signatures_are_data_then_keywords():
    funcs = [probe_ranks, cmc, recognition_rate, detection_identification_rate, dir_curve,
             compare_identification, cmc_difference]
    for f in funcs:
        params = list(inspect.signature(f).parameters.values())
        assert params[0].name == "data" and params[0].kind is inspect.Parameter.POSITIONAL_ONLY
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params[1:])
        names = [p.name for p in params]
        for col in ("system", "probe", "reference", "score", "mate", "by"):
            assert col in names


def test_example_search_is_deterministic():
    a, b = example_search(), example_search()
    pd.testing.assert_frame_equal(a, b)
    assert not a.equals(example_search(1))
    assert list(a.columns) == ["system", "fold", "probe", "reference", "mate", "score"]


# ----------------------------------------------------------------------------- errors


@pytest.fixture
def bob_table():
    return table_from_pairs(BOB_CMC)


def test_not_a_frame():
    with pytest.raises(TypeError, match=prefix(ERROR_NOT_A_FRAME)):
        cmc(np.zeros((3, 4)))


def test_missing_columns_lists_missing_and_found(bob_table):
    with pytest.raises(SchemaError, match=prefix(ERROR_MISSING_COLUMNS)) as exc:
        cmc(bob_table.drop(columns="mate"))
    assert "['mate']" in str(exc.value) and "'reference'" in str(exc.value)


def test_empty_table(bob_table):
    with pytest.raises(SchemaError, match=prefix(ERROR_EMPTY)):
        probe_ranks(bob_table.iloc[:0])


def test_unknown_mate_labels(bob_table):
    t = bob_table.astype({"mate": object})
    t.loc[2, "mate"] = "perhaps"
    with pytest.raises(SchemaError, match="'perhaps'"):
        cmc(t)


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nonfinite_scores_raise(bob_table, bad):
    t = bob_table.copy()
    t.loc[1, "score"] = bad
    with pytest.raises(SchemaError, match=prefix(ERROR_NONFINITE)):
        cmc(t)
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        cmc(t, nonfinite="drop")


def test_duplicate_pairs_named(bob_table):
    t = pd.concat([bob_table, bob_table.iloc[[4]]])
    with pytest.raises(SchemaError, match=prefix(ERROR_DUPLICATE_PAIRS)) as exc:
        cmc(t)
    assert "e.g. [(1, 'n0')]" in str(exc.value) and "system 'bob'" in str(exc.value)
    # the same pair in two separate runs is fine with by=
    runs = pd.concat([bob_table.assign(run=1), bob_table.assign(run=2)])
    with pytest.raises(SchemaError, match="by="):
        cmc(runs)
    assert cmc(runs, by="run").cmc.shape == (2, 1, 5)


def test_no_mated_or_unmated_probes(bob_table):
    unmated = bob_table[~bob_table.mate]
    with pytest.raises(SchemaError, match=prefix(ERROR_NO_MATED)):
        cmc(unmated)
    with pytest.raises(SchemaError, match=prefix(ERROR_NO_MATED)):
        recognition_rate(unmated)
    with pytest.raises(SchemaError, match=prefix(ERROR_NO_UNMATED)):
        dir_curve(bob_table)
    with pytest.raises(SchemaError, match=prefix(ERROR_NO_UNMATED)):
        detection_identification_rate(bob_table, threshold="far")
    # a fixed threshold works on closed-set data: the FAR is undefined
    out = detection_identification_rate(bob_table, threshold=1.0)
    assert np.isnan(out.far.item()) and out.dir.item() == 0.5


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "1", []])
def test_bad_rank(bob_table, bad):
    with pytest.raises(ValueError, match=prefix(ERROR_POSITIVE_COUNT)):
        recognition_rate(bob_table, rank=bad)
    with pytest.raises(ValueError, match=prefix(ERROR_POSITIVE_COUNT)):
        cmc(bob_table, max_rank=bad)


def test_bad_open_set_options(bob_table):
    with pytest.raises(ValueError, match=prefix(ERROR_RATE)):
        detection_identification_rate(bob_table, target=1.5)
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        detection_identification_rate(bob_table, threshold="eer")
    with pytest.raises(ValueError, match=prefix(ERROR_THRESHOLD)):
        detection_identification_rate(bob_table, threshold=None)
    with pytest.raises(ValueError, match=prefix(ERROR_THRESHOLD)):
        detection_identification_rate(bob_table, threshold=np.nan)
    with pytest.raises(ValueError, match=prefix(ERROR_THRESHOLD)):
        detection_identification_rate(bob_table, threshold={"bob": "high"})
    with pytest.raises(SchemaError, match=prefix(ERROR_THRESHOLD_MISSING)):
        detection_identification_rate(bob_table, threshold={"other": 0.5})


def test_bad_levels_and_ci_method(bob_table):
    with pytest.raises(ValueError, match=prefix(ERROR_CONFIDENCE_LEVEL)):
        recognition_rate(bob_table, confidence_level=1.0)
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        recognition_rate(bob_table, ci_method="exact")
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        probe_ranks(bob_table, orientation="higher")


def test_compare_errors(bob_table):
    two = pd.concat([bob_table, bob_table.assign(system="b")])
    with pytest.raises(ValueError, match=prefix(ERROR_ONE_SYSTEM)):
        compare_identification(bob_table)
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        compare_identification(two, test="gunter")
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        compare_identification(two, mcnemar_method="paired")
    with pytest.raises(ValueError, match=prefix(ERROR_FOLD_UNUSED)):
        compare_identification(two, fold="system")
    with pytest.raises(ValueError, match=prefix(ERROR_SIGN_NEEDS_FOLD)):
        compare_identification(two, test="sign")
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        compare_identification(two, test="wilcoxon")
    with pytest.raises(ValueError, match=prefix(ERROR_ADJUST)):
        compare_identification(two, adjust="holm_bonferroni")
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        compare_identification(two, alternative="bigger")
    with pytest.raises(ValueError, match=prefix(ERROR_ALPHA)):
        compare_identification(two, alpha=0)
    with pytest.raises(ValueError, match=prefix(ERROR_CONFIDENCE_LEVEL)):
        cmc_difference(two, confidence_level=95)
    with pytest.raises(ValueError, match=prefix(ERROR_POSITIVE_COUNT)):
        compare_identification(two, test="bootstrap", n_resamples=0)
    with pytest.raises(ValueError, match=prefix(ERROR_ONE_SYSTEM)):
        cmc_difference(bob_table)


def test_compare_needs_the_same_probes(bob_table):
    b = bob_table[bob_table.probe != 3].assign(system="b")
    two = pd.concat([bob_table, b])
    with pytest.raises(SchemaError, match=prefix(ERROR_PROBES_DIFFER)) as exc:
        compare_identification(two)
    assert "1 only in 'bob' and 0 only in 'b'" in str(exc.value)
    out = compare_identification(two, common_probes=True)
    assert out.n.item() == 3
    disjoint = pd.concat([bob_table, bob_table.assign(system="b", probe=bob_table.probe + 10)])
    with pytest.raises(SchemaError, match=prefix(ERROR_NO_COMMON)):
        compare_identification(disjoint, common_probes=True)
    with pytest.raises(SchemaError, match=prefix(ERROR_PROBES_DIFFER)):
        cmc_difference(two)


# ----------------------------------------------------------------------------- readers


BOB4 = """# claimed_id real_id test_label score
{lines}
"""


def bob_lines(pairs, five=False):
    """bob 4/5-column lines for ``[(negatives, positives)]`` (probe k has identity c<k>)."""
    lines = []
    for k, (neg, pos) in enumerate(pairs):
        real = f"c{k}" if pos is not None else f"x{k}"
        for i, s in enumerate(neg or ()):
            claimed = f"o{k}_{i}"
            lines.append((claimed, f"{claimed}.m", real, f"probe{k}", s))
        for i, s in enumerate(pos or ()):
            lines.append((f"c{k}", f"c{k}_{i}.m", real, f"probe{k}", s))
    if five:
        return "\n".join(" ".join(map(str, line)) for line in lines)
    return "\n".join(f"{c} {r} {p} {s}" for c, _, r, p, s in lines)


def test_read_bob_five_columns_reproduces_the_fixture():
    text = bob_lines(BOB_CMC, five=True)
    t = read_bob_identification(io.StringIO(text), system_name="bob5")
    assert t.system.unique().tolist() == ["bob5"]
    assert cmc(t).cmc.values[0].tolist() == [0.5, 0.75, 1.0, 1.0, 1.0]
    assert t.loc[t.mate, "reference_subject"].astype(str).str.startswith("c").all()
    assert list(t.columns) == [
        "system", "probe", "reference", "score", "mate", "probe_subject", "reference_subject"
    ]


def test_read_bob_four_columns_from_a_path(tmp_path):
    # bob's 4-column files have one model per client: several positives of one probe would
    # share the reference id, so use the one-mate version of the fixture
    pairs = [(neg, (max(pos),)) for neg, pos in BOB_CMC] + [((0.1, 0.4), None)]
    path = tmp_path / "scores-dev.txt"
    path.write_text(BOB4.format(lines=bob_lines(pairs)) + "\n# trailing comment\n")
    t = read_bob_identification(path, columns=4)
    assert t.system.unique().tolist() == ["scores-dev"]
    assert recognition_rate(t).recognition_rate.item() == 0.5
    assert recognition_rate(t).n_unmated.item() == 1
    assert (t.reference.astype(str) == t.reference_subject.astype(str)).all()


def test_read_bob_errors(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("a a p1 0.5\nb a p1\n")
    with pytest.raises(SchemaError, match=prefix(ERROR_FILE_LAYOUT)):
        read_bob_identification(bad)
    bad.write_text("a a p1 0.5 x y\n")
    with pytest.raises(SchemaError, match=prefix(ERROR_FILE_COLUMNS)):
        read_bob_identification(bad)
    bad.write_text("a a p1 0.5\n")
    with pytest.raises(SchemaError, match=prefix(ERROR_FILE_COLUMNS)):
        read_bob_identification(bad, columns=5)
    with pytest.raises(SchemaError, match=prefix(ERROR_FILE_COLUMNS)):
        read_bob_identification(bad, columns=3)
    bad.write_text("a a p1 high\n")
    with pytest.raises(SchemaError, match=prefix(ERROR_FILE_SCORES)) as exc:
        read_bob_identification(bad)
    assert "'high'" in str(exc.value)
    bad.write_text("a a p1 0.5\nb a p1 0.4 extra\n")
    with pytest.raises(SchemaError, match=prefix(ERROR_FILE_LAYOUT)):
        read_bob_identification(bad)


def test_read_pyeer(tmp_path):
    scores = tmp_path / "exp1_scores.txt"
    scores.write_text(
        "q1 t1 0.9\nq1 t2 0.95\nq1 t3 0.1\n"  # q1: true t1 ranks 2
        "q2 t1 0.2\nq2 t2 0.8\nq2 t3 0.3\n"  # q2: true t2 ranks 1
        "q3 t1 0.5\nq3 t2 0.4\nq3 t3 0.6\n"  # q3: no true pair -> open-set
    )
    pairs = tmp_path / "exp1_tp.txt"
    pairs.write_text("q1 t1\nq2 t2\n")
    t = read_pyeer_cmc(scores, pairs)
    assert t.system.unique().tolist() == ["exp1_scores"]
    assert t.mate.sum() == 2
    ds = cmc(t)
    assert ds.cmc.values[0].tolist() == [0.5, 1.0, 1.0] and ds.n_unmated.values.tolist() == [1]
    pairs.write_text("q1 t1\nq2 t2\nq3 t9\nq4 t1\n")
    with pytest.warns(UserWarning, match=prefix(WARN_TRUE_PAIRS_UNSCORED)):
        t = read_pyeer_cmc(scores, pairs, system_name="x")
    assert t.mate.sum() == 2
    pairs.write_text("q1\n")
    with pytest.raises(SchemaError, match=prefix(ERROR_FILE_LAYOUT)):
        read_pyeer_cmc(scores, pairs)
    scores.write_text("q1 t1\n")
    with pytest.raises(SchemaError, match=prefix(ERROR_FILE_LAYOUT)):
        read_pyeer_cmc(scores, io.StringIO("q1 t1\n"))


def test_pyeer_extra_fields_are_ignored():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        t = read_pyeer_cmc(io.StringIO("q1 t1 0.9 extra\nq1 t2 0.3 more\n"), io.StringIO("q1 t1\n"))
    assert t.score.tolist() == [0.9, 0.3] and t.mate.tolist() == [True, False]


def test_validate_search_groups_in_order_of_appearance(bob_table):
    t = pd.concat([bob_table.assign(system="zeta"), bob_table.assign(system="alpha")])
    s = validate_search(t)
    assert [g.system for g in s.groups] == ["zeta", "alpha"]
    interleaved = t.sample(frac=1, random_state=0)
    s2 = validate_search(interleaved)
    assert sorted(g.system for g in s2.groups) == ["alpha", "zeta"]
    for g in s2.groups:
        order = np.argsort(g.probes)
        assert g.stats.rank[order].tolist() == [2.0, 3.0, 1.0, 1.0]


def test_sign_test_by_groups_are_separate_families():
    """With by=, each group gets its own sign test over its runs and its own adjustment
    family, exactly as if each group were compared alone (the family rule of compare)."""
    search = example_search()
    two = pd.concat([search.assign(site="x"), search.assign(site="y", score=-search.score)])
    both = compare_identification(two, test="sign", fold="fold", by="site")
    assert list(both.columns) == ["site", *COMPARE_COLUMNS] and len(both) == 2 * 6
    for site, part in both.groupby("site"):
        alone = compare_identification(two[two.site == site], test="sign", fold="fold")
        pd.testing.assert_frame_equal(
            part.drop(columns="site").reset_index(drop=True), alone.reset_index(drop=True)
        )
