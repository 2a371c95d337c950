"""A people bootstrap read a block of replicates at a time (``_kernels.replicate_sweeps``,
``_core.replicate_blocks``) against one replicate at a time.

- The kernel: every row's EER (threshold and interpolated) and rates at a threshold equal
  those of the sweep reweighted by that row, to the bit, with ties within and across
  classes, failures to acquire, zero weights and rows that empty a class (NaN).
- The bootstrap: the replicates a block at a time equal, to the bit, those drawn one by
  one from the same seed (:meth:`Replicates.draw` and the metric on each replicate's own
  sweep), subjects and people in both roles resampled; and the rows of ``bootstrap`` with
  ``by=`` equal each group's own call.
"""

import math

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig._core.criteria import eer_point
from pandas_biosig._core.replicate_blocks import BLOCK_METRICS, block_applies, block_values
from pandas_biosig._core.replicates import Replicates, metric_function
from pandas_biosig._core.schema import validate_trials
from pandas_biosig._kernels.rates import Sweep
from pandas_biosig._kernels.replicate_sweeps import ReplicateSweeps


def random_sweep(rng, n, p, decimals, fta):
    neg = np.round(rng.normal(0, 1, n), decimals)
    pos = np.round(rng.normal(1.5, 1, p), decimals)
    neg[: int(fta * n)] = -np.inf
    pos[: int(fta * p)] = -np.inf
    return Sweep(neg, pos)


@pytest.mark.parametrize("decimals", [0, 1, 3])
@pytest.mark.parametrize("fta", [0.0, 0.1])
def test_every_row_equals_its_reweighted_sweep(decimals, fta):
    rng = np.random.default_rng(decimals + int(fta * 10))
    sw = random_sweep(rng, 60, 25, decimals, fta)
    rows = 200
    wn = rng.poisson(1.0, (rows, sw.n))
    wp = rng.poisson(1.0, (rows, sw.p))
    wp[:3] = 0  # replicates without a genuine trial
    wn[3] = 0  # ... without an impostor
    wn[4, sw.rn:] = 0  # only failures to acquire among the impostors (if any)
    rs = ReplicateSweeps(sw, wn, wp)
    t = float(np.median(sw.neg)) if sw.neg.size else 0.0
    thr, interp = rs.eer("threshold"), rs.eer("interpolated")
    far, frr = rs.rates_at(t)
    for i in range(rows):
        if not (wn[i].any() and wp[i].any()):
            assert math.isnan(thr[i]) and math.isnan(interp[i]) and math.isnan(far[i])
            continue
        rep = sw.reweighted(wn[i], wp[i])
        assert thr[i] == eer_point(rep)[0]
        assert interp[i] == rep.eer_interpolated() or (
            math.isnan(interp[i]) and math.isnan(rep.eer_interpolated()))
        assert far[i] == float(rep.fa_at(t)) / rep.n
        assert frr[i] == float(rep.fr_at(t)) / rep.p


def people_table(seed=0, groups=3, references=False, decimals=1):
    rng = np.random.default_rng(seed)
    n = 150 * groups
    grp = np.repeat(np.arange(groups), 150)
    subject = grp * 100 + rng.integers(0, 6, n)
    genuine = rng.random(n) < 0.3
    score = np.round(rng.normal(np.where(genuine, 2.0, 0.0), 1.0), decimals)
    t = pd.DataFrame({"system": "s", "grp": grp, "trial": np.arange(n), "label": genuine,
                      "score": score, "subject": subject})
    if references:
        t["reference_subject"] = np.where(genuine, subject, grp * 100 + rng.integers(0, 6, n))
    return t


@pytest.mark.parametrize("metric", sorted(BLOCK_METRICS))
@pytest.mark.parametrize(("references", "decimals"), [(False, 1), (True, 1), (False, 0)])
def test_a_block_equals_the_replicates_one_by_one(metric, references, decimals):
    data = people_table(seed=3, groups=1, references=references, decimals=decimals)
    g = next(iter(validate_trials(data).groups))
    sw = Sweep.from_scores(g.scores, g.genuine)
    unit = "two_way" if references else "subject"
    reps = Replicates(g, sw, unit, lazy=False)
    assert block_applies(reps, metric)
    t = float(np.median(data["score"].dropna()))
    f = metric_function(metric, target=None, p_target=0.01, c_miss=1.0, c_fa=1.0)
    rng = np.random.default_rng(11)
    want = []
    for _ in range(300):
        rep = reps.draw(rng)
        want.append(math.nan if rep is None else f(rep, t))
    got, empty = block_values(reps, metric, t, 300, np.random.default_rng(11), lambda i: None, 0)
    np.testing.assert_array_equal(got, np.array(want))
    assert empty == int(np.isnan(want).sum())


@pytest.mark.parametrize("metric", ["eer_threshold", "eer_interpolated", "hter"])
@pytest.mark.parametrize("references", [False, True])
def test_by_rows_equal_each_group_alone(metric, references):
    """A group's row of ``bootstrap(by=)`` with a Generator passed through equals the
    group's own call from a generator in the same state (people resampled: each group's
    replicates drawn after the previous group's)."""
    data = people_table(seed=5, groups=3, references=references)
    kw = dict(metric=metric, n_resamples=200, threshold=0.5 if metric == "hter" else "eer")
    rng = np.random.default_rng(2)
    every = pbs.bootstrap(data, by="grp", seed=rng, **kw)
    rng = np.random.default_rng(2)
    alone = [pbs.bootstrap(data[data["grp"] == g].drop(columns="grp"), seed=rng, **kw)
             for g in range(3)]
    cols = ["estimate", "se", "ci_low", "ci_high", "resample"]
    pd.testing.assert_frame_equal(every[cols], pd.concat(alone, ignore_index=True)[cols],
                                  check_exact=True)
    assert every["resample"].eq("two_way" if references else "subject").all()


@pytest.mark.parametrize("metric", ["eer_threshold", "eer_interpolated"])
@pytest.mark.parametrize("unit", ["label", "trial", "subject", "two_way"])
def test_the_paired_block_equals_the_pairs_one_by_one(metric, unit):
    """The paired bootstrap of an EER difference, a block at a time, equals the
    replicates drawn and read one by one (every resampling unit)."""
    from pandas_biosig._core.replicate_blocks import paired_block_deltas
    from pandas_biosig._core.replicates import PairedResampler

    data = people_table(seed=7, groups=1, references=unit == "two_way", decimals=0)
    other = data.assign(system="t", score=data["score"] + np.round(
        np.random.default_rng(1).normal(0, 0.5, len(data)), 0))
    a, b = validate_trials(pd.concat([data, other], ignore_index=True)).groups
    res = PairedResampler([a, b], unit)
    f = metric_function(metric, target=None, p_target=0.01, c_miss=1.0, c_fa=1.0)
    rng = np.random.default_rng(4)
    want = []
    for _ in range(250):
        pair = res.sweeps_for(res.weights(rng))
        want.append(math.nan if pair is None else f(pair[0], 0.0) - f(pair[1], 0.0))
    got, empty = paired_block_deltas(res, metric, 250, np.random.default_rng(4), None)
    np.testing.assert_array_equal(got, np.array(want))
    assert empty == int(np.isnan(want).sum())
