"""The paired bootstrap of :func:`pandas_biosig.outofcore.compare` (``test="bootstrap"``):
:func:`pandas_biosig.compare`'s table to the last bit for the same seed, trials or subjects
drawn, on tables whose systems list the trials in the same order (one draw shared by the
pairs of a family) or each in its own order (a draw per first system, as in memory).
"""

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402

import pandas_biosig as pbs  # noqa: E402
import pandas_biosig.outofcore as ooc  # noqa: E402  (registers ddf.biosig)
from pandas_biosig._core.schema import SchemaError  # noqa: E402
from pandas_biosig.outofcore import (  # noqa: E402
    _intervals,
    _paired,
    _paired_sweeps,
    _pairpass,
    _pairwise,
)

CASES = [
    dict(),
    dict(metric="far", by="grp"),
    dict(metric="frr", orientation="distance"),
    dict(baseline="b", alternative="less"),
    dict(threshold="far", target=0.05, on=None, apply_to=None),
    dict(resample="label"),
    dict(test="bootstrap", resample="trial", metric="far"),
]


def paired_table(seed, *, n_subjects=8, per=60, own_order=False):
    """Three systems scoring the same trials of ``n_subjects`` subjects (subject effects
    on the impostor scores, ties); rows shuffled, the same way for every system or
    (``own_order``) each its own way."""
    rng = np.random.default_rng(seed)
    subj = np.repeat(np.arange(n_subjects), per)
    gen = rng.random(subj.size) < 0.25
    effect = rng.normal(0, 0.8, n_subjects)[subj]
    frames = []
    for k, name in enumerate("abc"):
        score = rng.normal(np.where(gen, 2.0 + 0.3 * k, effect), 1.0).round(1)
        f = pd.DataFrame({"system": name, "trial": np.arange(subj.size), "label": gen,
                          "score": score, "subject": [f"s{v}" for v in subj]})
        frames.append(f.sample(frac=1.0, random_state=seed + (k if own_order else 0)))
    t = pd.concat(frames, ignore_index=True)
    t["split"] = np.where(t.trial % 2 == 0, "dev", "eval")
    t["grp"] = np.where(t.trial % 3 == 0, "x", "y")
    return t


def _same(ddf, table, **kw):
    kw = dict(n_resamples=60, seed=4, **kw)
    got = ooc.compare(ddf, **kw)
    pd.testing.assert_frame_equal(got, pbs.compare(table, **kw), check_exact=True)
    return got


@pytest.fixture(params=["synchronous", "threads"])
def scheduler(request):
    with dask.config.set(scheduler=request.param):
        yield request.param


@pytest.mark.parametrize("own_order", [False, True])
@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c.values())) or "default")
def test_equal_to_memory(scheduler, case, own_order):
    table = paired_table(1, own_order=own_order)
    got = _same(dd.from_pandas(table, npartitions=5), table, **case)
    assert (got.test == "bootstrap").all() and got.pvalue.notna().all()


def test_the_draws_are_shared_as_in_memory(monkeypatch):
    """The layouts decide which pairs share a draw: equal for systems that list the same
    subjects in the same order, different otherwise (and the numbers follow memory's)."""
    seen = []
    real = _paired.layouts
    monkeypatch.setattr(_pairwise, "layouts", lambda *a: seen.append(real(*a)) or seen[-1])
    for own_order in (False, True):
        table = paired_table(2, own_order=own_order)
        _same(dd.from_pandas(table, npartitions=4), table, apply_to="eval")
        keys = seen[-1]
        a, b = keys[("a", "eval")], keys[("b", "eval")]
        assert a.size == 3 and np.array_equal(a, b) == (not own_order)


SWEEP_CASES = [
    dict(metric="eer"),
    dict(metric="eer_interpolated", baseline="b", alternative="greater"),
    dict(metric="fnmr_at_fmr", target=0.05, by="grp"),
    dict(metric="fnmr_at_fmr", target=0.0, on=None, apply_to=None),
]


@pytest.mark.parametrize("own_order", [False, True])
@pytest.mark.parametrize("case", SWEEP_CASES, ids=lambda c: "-".join(map(str, c.values())))
def test_sweep_metrics_equal_to_memory(case, own_order):
    """The EER and FNMR at FMR, subjects drawn: each system's compressed table, the same
    draws for both systems of a pair."""
    table = paired_table(3, own_order=own_order)
    _same(dd.from_pandas(table, npartitions=4), table, test="bootstrap", **case)


def test_sweep_metrics_cut_too_high_is_caught(monkeypatch):
    """Every system's tail cut at the top bin: the checks lower the cuts, one system at a
    time, and the numbers are still memory's; without the checks they are not."""
    monkeypatch.setattr(_paired_sweeps._Pairs, "levels",
                        lambda self, *a: {k: 0 for k, _ in self.ladders})
    real, used = _paired_sweeps._compressed, []
    monkeypatch.setattr(_paired_sweeps, "_compressed",
                        lambda g, lad, j, tail: used.append(j) or real(g, lad, j, tail))
    table = paired_table(4, per=30).query("system != 'c' and split == 'eval'")
    ddf = dd.from_pandas(table, npartitions=3)
    for case in (SWEEP_CASES[0], SWEEP_CASES[2]):
        used.clear()
        _same(ddf, table, test="bootstrap", **case)
        assert max(used) > 0
    monkeypatch.setattr(_paired_sweeps, "_condition", lambda metric, target: lambda *a: True)
    kw = dict(test="bootstrap", metric="eer", n_resamples=60, seed=4)
    assert not ooc.compare(ddf, **kw).equals(pbs.compare(table, **kw))


def test_sweep_metric_replicates_without_a_class_warn_as_in_memory():
    table = paired_table(5, n_subjects=3, per=8)
    kw = dict(test="bootstrap", metric="eer", n_resamples=40, seed=2, on=None, apply_to=None)
    with pytest.warns(pbs.BiosigWarning, match="drew no trial of one class") as mem:
        expected = pbs.compare(table, **kw)
    with pytest.warns(pbs.BiosigWarning, match="drew no trial of one class") as ours:
        got = ooc.compare(dd.from_pandas(table, npartitions=2), **kw)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    assert [str(w.message) for w in mem] == [str(w.message) for w in ours]


def test_a_coarse_histogram_and_a_generator_seed():
    table = paired_table(3)
    ddf = dd.from_pandas(table, npartitions=3)
    ours, theirs = np.random.default_rng(8), np.random.default_rng(8)
    with dask.config.set({"pandas_biosig.bins": 2, "pandas_biosig.refine_bits": 1}):
        got = ooc.compare(ddf, n_resamples=30, seed=ours)
    pd.testing.assert_frame_equal(got, pbs.compare(table, n_resamples=30, seed=theirs),
                                  check_exact=True)
    assert ours.random() == theirs.random()


def test_common_trials():
    """Trials drawn: the pair's trials are those both systems scored, as in memory;
    subjects drawn: refused by name when a system misses some trials."""
    table = paired_table(4)
    ragged = table.drop(index=table.index[(table.system == "c") & (table.trial % 7 == 0)])
    ddf = dd.from_pandas(ragged, npartitions=3)
    _same(ddf, ragged, resample="label", common_trials=True)
    with pytest.raises(ValueError, match="do not score the same trials"):
        ooc.compare(ddf, common_trials=True, n_resamples=10)
    _same(dd.from_pandas(table, npartitions=3), table, common_trials=True)


def _raises(exc, fn):
    with pytest.raises(exc) as info:
        fn()
    return str(info.value)


def test_refused_by_name():
    table = paired_table(5)
    ddf = dd.from_pandas(table, npartitions=3)
    assert _raises(ValueError, lambda: ooc.compare(ddf, metric="auc")) == (
        _paired.ERROR_BOOTSTRAP_METRIC.format(metric="auc", unit="subject"))
    assert _raises(ValueError, lambda: ooc.compare(ddf, metric="eer", resample="label")) == (
        _paired.ERROR_BOOTSTRAP_METRIC.format(metric="eer_threshold", unit="label"))
    assert _raises(ValueError, lambda: ooc.compare(ddf.assign(reference_subject=ddf.subject))
                   ) == _intervals.ERROR_TWO_WAY
    moved = table.copy()
    moved.loc[(moved.system == "b") & (moved.trial == 3), "subject"] = "s7"
    msg = _raises(SchemaError, lambda: ooc.compare(dd.from_pandas(moved, npartitions=3)))
    assert msg.startswith(_pairpass.ERROR_SUBJECTS_DIFFER.split("{")[0] + "1 trial")
    holes = table.assign(subject=table.subject.where(table.trial != 5))
    assert "no subject id" in _raises(SchemaError,
                                      lambda: ooc.compare(dd.from_pandas(holes, npartitions=3)))
    for bad in (dict(metric="nope"), dict(resample="nope"), dict(n_resamples=0),
                dict(metric="fnmr_at_fmr")):
        assert _raises(ValueError, lambda bad=bad: ooc.compare(ddf, **bad)) == _raises(
            ValueError, lambda bad=bad: pbs.compare(table, **bad))
    one = table.assign(subject="p")
    assert _raises(SchemaError, lambda: ooc.compare(dd.from_pandas(one, npartitions=2))) == (
        _raises(SchemaError, lambda: pbs.compare(one)))
