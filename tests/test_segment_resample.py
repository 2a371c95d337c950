"""The label-stratified bootstrap through the segment kernels (``bootstrap`` of a small
group, with or without ``by=``) against each group's own sweep.

- every replicate value equals, to the bit, the metric of the group's own
  :class:`Sweep` reweighted by full multiplicities consistent with the counts the
  replicate drew (built here, brute force, one pair at a time);
- with ``by=`` the groups draw one after another: every column, the replicates' interval
  included, equals each group's own call from a generator in the same state, to the bit,
  with ties, failures to acquire and dev/eval thresholds;
- the replicates have the distribution of the replicates drawn one by one from the
  sweep (a two-sample test);
- what the segment kernels do not serve (subjects resampled, other metrics, counted
  trials, a group past ``SMALL_GROUP``) keeps its own replicates.
"""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import ks_2samp

import pandas_biosig as pbs
from pandas_biosig._core.criteria import eer_point
from pandas_biosig._core.segmented_bootstrap import segmented_replicates
from pandas_biosig._kernels.rates import Sweep
from pandas_biosig._kernels.segment_resample import (
    bracket_eer,
    eer_brackets,
    rates_at_fixed,
)
from pandas_biosig._kernels.segments import Segments


def group_table(groups, size=40, seed=0, decimals=None, fta=0.0, split=False):
    """``groups`` groups of about ``size`` trials (sizes vary), 25 % genuine; scores
    rounded to ``decimals`` (ties within and across classes), a share ``fta`` of them
    NaN (failures to acquire under ``nonfinite="reject"``)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(max(4, size // 2), size * 3 // 2, groups)
    grp = np.repeat(np.arange(groups), sizes)
    n = grp.size
    genuine = rng.random(n) < 0.25
    first = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    genuine[first], genuine[first + 1] = True, False  # both classes in every group
    score = rng.normal(np.where(genuine, 1.5, 0.0), 1.0)
    if decimals is not None:
        score = np.round(score, decimals)
    if fta:
        score[(rng.random(n) < fta) & (np.arange(n) > first[grp] + 1)] = np.nan
    table = pd.DataFrame({"system": "s", "grp": grp, "trial": np.arange(n), "label": genuine,
                          "score": score})
    if split:
        table["split"] = np.where(rng.random(n) < 0.5, "dev", "eval")
        table.loc[first, "split"], table.loc[first + 1, "split"] = "dev", "dev"
        table.loc[first + 2, "split"], table.loc[first + 3, "split"] = "eval", "eval"
        table.loc[first + 2, "label"], table.loc[first + 3, "label"] = True, False
    return table


def segments_of(table):
    groups = [g for _, g in table.groupby("grp", sort=True)]
    sizes = [len(g) for g in groups]
    offsets = np.concatenate(([0], np.cumsum(sizes)))
    return Segments(table["score"].to_numpy(float), table["label"].to_numpy(bool), offsets), groups


def full_weights(sweep, runs, lo, counts, genuine):
    """Multiplicities over one class of ``sweep`` (sorted) with ``counts = (below lo,
    in run lo, at lo + 1 and above)`` resampled scores: each part put on the class's
    first score in it (any placement consistent with the counts gives the same
    bracket)."""
    values = sweep.pos if genuine else sweep.neg
    w = np.zeros(values.size, dtype=np.int64)
    edges = np.searchsorted(values, [runs[0], runs[lo], runs[lo + 1] if lo + 1 < runs.size
                                     else np.inf], side="left")
    for at, c in zip(edges, counts, strict=True):
        if c:
            w[at] += c  # a part with draws holds a score of the class
    return w


@pytest.mark.parametrize("decimals", [None, 1, 0])
@pytest.mark.parametrize("method", ["threshold", "interpolated"])
def test_every_replicate_equals_the_sweep_of_its_drawn_counts(decimals, method):
    table = group_table(25, size=30, seed=1, decimals=decimals)
    sg, groups = segments_of(table)
    br = eer_brackets(sg, np.random.default_rng(7), 40, block=97)  # blocks of a few pairs
    values = bracket_eer(br, sg.n, sg.p, method)
    assert ((br.cn_lo <= br.cn_hi) & (br.cp_lo <= br.cp_hi)).all()
    for s, g in enumerate(groups):
        sweep = Sweep.from_scores(g["score"].to_numpy(), g["label"].to_numpy())
        runs = np.unique(g["score"].to_numpy())
        for b in range(values.shape[1]):
            lo = int(br.lo[s, b])
            cn = (br.cn_lo[s, b], br.cn_hi[s, b] - br.cn_lo[s, b], sweep.n - br.cn_hi[s, b])
            cp = (br.cp_lo[s, b], br.cp_hi[s, b] - br.cp_lo[s, b], sweep.p - br.cp_hi[s, b])
            rep = sweep.reweighted(full_weights(sweep, runs, lo, cn, False),
                                   full_weights(sweep, runs, lo, cp, True))
            want = eer_point(rep)[0] if method == "threshold" else rep.eer_interpolated()
            assert values[s, b].hex() == float(want).hex(), (s, b)


def test_the_fixed_threshold_rates_are_binomial_counts_of_each_class():
    fa, fr = np.array([0, 3, 10]), np.array([2, 0, 5])
    n, p = np.array([10, 10, 10]), np.array([5, 4, 5])
    rfa, rfr = rates_at_fixed(np.random.default_rng(0), fa, fr, n, p, 2000)
    assert rfa.shape == (3, 2000)
    assert (rfa[0] == 0).all() and (rfa[2] == 10).all() and (rfr[1] == 0).all()
    assert (rfr[2] == 5).all()
    assert abs(rfa[1].mean() - 3) < 0.2 and abs(rfr[0].mean() - 2) < 0.1


def per_group(table, seed=0, **kwargs):
    """``bootstrap`` of each group alone, one after another from one generator (the
    per-group loop), rows in group order."""
    rng = np.random.default_rng(seed)
    rows = [pbs.bootstrap(g.drop(columns="grp"), seed=rng, **kwargs).assign(grp=k)
            for k, g in table.groupby("grp", sort=True)]
    out = pd.concat(rows, ignore_index=True)
    return out[["grp", *[c for c in out.columns if c != "grp"]]]


@pytest.mark.parametrize("metric", ["eer_threshold", "eer_interpolated", "far", "frr", "hter"])
@pytest.mark.parametrize(("decimals", "fta", "split"), [(None, 0.0, False), (1, 0.1, False),
                                                        (1, 0.0, True)])
@pytest.mark.parametrize("ci_method", ["percentile", "bca"])
def test_every_column_equals_the_per_group_loop(metric, decimals, fta, split, ci_method):
    table = group_table(12, seed=2, decimals=decimals, fta=fta, split=split)
    kwargs = dict(metric=metric, n_resamples=30, nonfinite="reject", ci_method=ci_method)
    got = pbs.bootstrap(table, by="grp", seed=0, **kwargs)
    want = per_group(table, seed=0, **kwargs)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert (got["resample"] == "label").all()
    assert (got["ci_low"] <= got["estimate"] + 0.5).all() and (got["se"] > 0).any()


def test_the_replicates_have_the_per_group_distribution():
    table = group_table(2, size=60, seed=3, decimals=1)
    one = table[table["grp"] == 0].drop(columns="grp")
    reps = 3000
    plan_table = pbs.bootstrap(table, by="grp", n_resamples=2, seed=0)  # the path is taken
    assert len(plan_table) == 2
    from pandas_biosig._core.protocol import Protocol
    from pandas_biosig._core.schema import validate_trials

    trials = validate_trials(table, by="grp")
    plan = Protocol().resolve(trials, needs_threshold=False, resample="label")
    values, _ = segmented_replicates(plan, "eer_threshold", reps, np.random.default_rng(1),
                                     lambda done: None)
    # the per-group path's replicates: the interval's quantiles of 3,000 of them
    from pandas_biosig._core.replicates import Replicates, metric_function

    f = metric_function("eer_threshold", target=None, p_target=0.01, c_miss=1, c_fa=1)
    r0 = Protocol().resolve(validate_trials(one), needs_threshold=False, resample="label")[0]
    lazy = Replicates(r0.group, r0.sweep, "label", lazy=True)
    rng = np.random.default_rng(2)
    old = np.array([f(lazy.draw(rng), np.nan) for _ in range(reps)])
    assert ks_2samp(values[0], old).pvalue > 0.01
    assert abs(values[0].mean() - old.mean()) < 4 * old.std() / np.sqrt(reps / 2)


def test_the_rest_keeps_the_per_group_path():
    table = group_table(6, seed=4, decimals=1)
    within = table.groupby("grp").cumcount().to_numpy()
    table["subject"] = table["grp"] * 100 + within % 4  # each subject with both classes:
    table["label"] = np.where(within < 4, True, np.where(within < 8, False, table["label"]))
    for kwargs in (dict(metric="auc", resample="label"), dict(metric="min_hter"),
                   dict(metric="far", resample="label", ci_method="studentized"),
                   dict(metric="hter", ci_method="percentile"),  # subjects, a rate
                   dict(ci_method="bca"), dict(resample="trial")):
        got = pbs.bootstrap(table, by="grp", n_resamples=20, seed=5, **kwargs)
        rng = np.random.default_rng(5)
        # the per-group path draws the groups one after another from one stream
        want = pd.concat([pbs.bootstrap(g.drop(columns="grp"), n_resamples=20, seed=rng,
                                        **kwargs).assign(grp=k)
                          for k, g in table.groupby("grp", sort=True)], ignore_index=True)
        cols = [c for c in got.columns if c != "grp"]
        pd.testing.assert_frame_equal(got[cols], want[cols], check_exact=True)


def test_one_class_groups_are_refused_as_before():
    table = group_table(4, seed=5)
    table.loc[table["grp"] == 2, "label"] = False
    with pytest.raises(pbs.SchemaError, match="grp=2.*both classes"):
        pbs.bootstrap(table, by="grp", n_resamples=10, seed=0)


def test_the_same_seed_gives_the_same_numbers_and_the_input_is_kept():
    table = group_table(8, seed=6, decimals=1)
    before = table.copy()
    a = pbs.bootstrap(table, by="grp", n_resamples=50, seed=3)
    b = pbs.bootstrap(table, by="grp", n_resamples=50, seed=3)
    pd.testing.assert_frame_equal(a, b, check_exact=True)
    pd.testing.assert_frame_equal(table, before)
    c = pbs.bootstrap(table, by="grp", n_resamples=50, seed=4)
    assert not np.array_equal(a["ci_low"].to_numpy(), c["ci_low"].to_numpy())


# ----------------------------------------------------------------- subjects resampled
def with_subjects(table, k=4):
    """``k`` subjects per group (and split), each holding a genuine and an impostor
    trial."""
    keys = ["grp", "split"] if "split" in table else ["grp"]
    within = table.groupby(keys).cumcount().to_numpy()
    out = table.copy()
    out["subject"] = out["grp"] * 100 + within % k
    out["label"] = np.where(within < k, True, np.where(within < 2 * k, False, out["label"]))
    return out


@pytest.mark.parametrize("metric", ["eer_threshold", "eer_interpolated"])
@pytest.mark.parametrize(("decimals", "fta", "split"), [(None, 0.0, False), (1, 0.1, False),
                                                        (1, 0.0, True)])
def test_subject_bootstrap_keeps_the_per_group_path(metric, decimals, fta, split):
    """Subjects resampled: each group's own draws, one group after another (the stream
    the out-of-core bootstrap reproduces), so every column equals the per-group path."""
    table = with_subjects(group_table(10, seed=11, decimals=decimals, fta=fta, split=split))
    kwargs = dict(metric=metric, n_resamples=30, seed=0, nonfinite="reject")
    got = pbs.bootstrap(table, by="grp", **kwargs)
    rng = np.random.default_rng(0)
    want = pd.concat([pbs.bootstrap(g.drop(columns="grp"), **{**kwargs, "seed": rng}
                                    ).assign(grp=k)
                      for k, g in table.groupby("grp", sort=True)], ignore_index=True)
    cols = [c for c in got.columns if c != "grp"]
    pd.testing.assert_frame_equal(got[cols], want[cols], check_exact=True)
    assert (got["resample"] == "subject").all() and (got["se"] > 0).all()


def test_the_replicates_read_block_by_block_equal_the_brackets_of_the_same_draws():
    from pandas_biosig._kernels.segment_resample import eer_replicates

    sg, _ = segments_of(group_table(30, size=30, seed=12, decimals=1))
    for method in ("threshold", "interpolated"):
        got = eer_replicates(sg, np.random.default_rng(3), 50, method, block=200)
        br = eer_brackets(sg, np.random.default_rng(3), 50, block=200)
        want = bracket_eer(br, sg.n, sg.p, method)
        assert np.array_equal(got, want)


def test_a_group_past_small_group_draws_one_replicate_at_a_time_in_both_calls():
    """The rule reads each group alone: a group larger than ``SMALL_GROUP`` draws from its
    sweep with and without ``by=``, and the rows still equal the per-group loop."""
    from pandas_biosig._core.segmented import SMALL_GROUP

    small = group_table(3, seed=9, decimals=1)
    rng = np.random.default_rng(10)
    n = SMALL_GROUP + 500
    genuine = rng.random(n) < 0.2
    big = pd.DataFrame({"system": "s", "grp": 99, "trial": np.arange(n) + 10**6,
                        "label": genuine, "score": np.round(rng.normal(genuine * 1.5, 1), 2)})
    table = pd.concat([small, big], ignore_index=True)
    kwargs = dict(metric="eer_threshold", n_resamples=20)
    got = pbs.bootstrap(table, by="grp", seed=4, **kwargs)
    pd.testing.assert_frame_equal(got, per_group(table, seed=4, **kwargs), check_exact=True)
    assert got["ci_low"].notna().all()
