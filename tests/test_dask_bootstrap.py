"""The subject bootstrap of a dask trial table: :func:`pandas_biosig.bootstrap`'s numbers
to the last bit for the same seed, on tables built to push the replicates' thresholds
below any small tail (few subjects, one subject whose impostors score far lower or
higher, ties at every score, subjects that only appear as impostors), with the cut forced
too high (the check must catch it and gather more), and with the check switched off (the
numbers must then differ: the check is what makes them exact).
"""

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402
from test_outofcore import TINY  # noqa: E402

import pandas_biosig as pbs  # noqa: E402
import pandas_biosig.outofcore as ooc  # noqa: E402  (registers ddf.biosig)
from pandas_biosig._core.schema import SchemaError  # noqa: E402
from pandas_biosig.outofcore import _bootstrap  # noqa: E402

CASES = [
    dict(metric="eer"),
    dict(metric="eer_interpolated", ci_method="basic"),
    dict(metric="fnmr_at_fmr", target=0.01),
    dict(metric="fnmr_at_fmr", target=0.2, ci_method="bca"),
    dict(metric="fnmr_at_fmr", target=0.0),
    dict(metric="eer_threshold", ci_method="bca"),
]


def _subjects_table(seed, *, n_subjects=6, per=120, decimals=None, odd=3.0, ids="str"):
    """``n_subjects`` subjects, a fifth of each one's trials genuine; subject 0's impostors
    score ``odd`` higher (a wolf), subject 1's ``odd`` lower; subject ``s_only`` appears in
    impostor trials only, at the very bottom. Rows shuffled, so subjects first appear in
    no particular order."""
    rng = np.random.default_rng(seed)
    frames = []
    for s in range(n_subjects):
        gen = rng.random(per) < 0.2
        shift = odd if s == 0 else -odd if s == 1 else 0.0
        score = rng.normal(np.where(gen, 2.0, shift), 1.0)
        frames.append(pd.DataFrame({"subject": s, "label": gen, "score": score}))
    frames.append(pd.DataFrame({"subject": n_subjects, "label": False,
                                "score": rng.normal(-6.0, 0.5, per // 2)}))
    t = pd.concat(frames, ignore_index=True)
    if decimals is not None:
        t["score"] = t["score"].round(decimals)  # ties within and across classes
    t = t.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    t["subject"] = [f"p{s:02d}" for s in t.subject] if ids == "str" else t.subject * 7 + 3
    t["trial"] = np.arange(len(t))
    t["system"] = "sys"
    return t


def _two_systems(seed=0, **kw):
    a = _subjects_table(seed, **kw)
    b = _subjects_table(seed + 1, **kw).assign(system="other")
    b["trial"] += len(a)
    t = pd.concat([a, b], ignore_index=True)
    t["split"] = np.where(t.trial % 2 == 0, "dev", "eval")
    return t


def _same(ddf, table, **kw):
    kw = dict(n_resamples=60, seed=11, **kw)
    got = ooc.bootstrap(ddf, **kw)
    pd.testing.assert_frame_equal(got, pbs.bootstrap(table, **kw), check_exact=True)
    return got


@pytest.fixture(params=["synchronous", "threads"])
def scheduler(request):
    with dask.config.set(scheduler=request.param):
        yield request.param


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c.values())))
def test_equal_to_memory(scheduler, case):
    table = _two_systems(decimals=1)
    _same(dd.from_pandas(table, npartitions=4), table, **case)


@pytest.mark.parametrize("kw", [
    dict(n_subjects=3, per=40, odd=4.0, decimals=0),
    dict(n_subjects=12, per=200, odd=1.0, ids="int"),
    dict(n_subjects=3, per=300, odd=0.0, decimals=2),
])
def test_adversarial_tables(kw):
    table = _subjects_table(5, **kw)
    ddf = dd.from_pandas(table, npartitions=3)
    for case in CASES:
        _same(ddf, table, **case)


def test_a_replicate_without_genuine_trials_is_left_out_as_in_memory():
    """Two subjects with genuine trials and one without: some replicate draws the third
    only; both paths leave it out (NaN) with the same warning and the same numbers."""
    table = _subjects_table(5, n_subjects=2, per=300, odd=0.0, decimals=2)
    kw = dict(metric="eer", n_resamples=60, seed=11)
    with pytest.warns(pbs.BiosigWarning, match="drew no trial of one class") as mem:
        expected = pbs.bootstrap(table, **kw)
    with pytest.warns(pbs.BiosigWarning, match="drew no trial of one class") as ooc_w:
        got = ooc.bootstrap(dd.from_pandas(table, npartitions=3), **kw)
    pd.testing.assert_frame_equal(got, expected, check_exact=True)
    assert str(mem[0].message) == str(ooc_w[0].message)


def test_by_distance_and_dropped_scores():
    table = _two_systems(3, decimals=1)
    table["site"] = np.where(table.trial % 3 == 0, "x", "y")
    table["score"] = -table["score"]
    table.loc[[4, 50, 333], "score"] = np.nan
    ddf = dd.from_pandas(table, npartitions=5)
    for nonfinite in ("drop", "reject"):
        for case in CASES[:3]:
            _same(ddf, table, by="site", orientation="distance", nonfinite=nonfinite, **case)


def test_coarse_histogram():
    table = _two_systems(8)
    with dask.config.set(TINY):
        _same(dd.from_pandas(table, npartitions=6), table, metric="eer")


def test_cut_too_high_is_caught(monkeypatch):
    """The highest cut (the top histogram bin) for every group: the replicates fail the
    check, the cut is lowered group by group, and the numbers are still exact."""
    monkeypatch.setattr(_bootstrap, "_choose", lambda ladders, *a, **k: [0] * len(ladders))
    tails = []
    real = _bootstrap._compressed
    monkeypatch.setattr(_bootstrap, "_compressed",
                        lambda g, lad, j, tail: tails.append(j) or real(g, lad, j, tail))
    table = _two_systems(4, decimals=1)
    ddf = dd.from_pandas(table, npartitions=3)
    for case in (CASES[0], CASES[2], CASES[3]):
        tails.clear()
        _same(ddf, table, **case)
        assert max(tails) > 0  # a lower cut was needed


def test_check_is_what_makes_it_exact(monkeypatch):
    """Without the check, the highest cut gives other numbers: the replicates' thresholds
    do reach below a small tail, and the check is not vacuous."""
    monkeypatch.setattr(_bootstrap, "_choose", lambda ladders, *a, **k: [0] * len(ladders))
    monkeypatch.setattr(_bootstrap, "_condition",
                        lambda metric, target: lambda fa, n, fr, p: True)
    table = _subjects_table(2, decimals=1)
    ddf = dd.from_pandas(table, npartitions=3)
    for case in (CASES[0], CASES[3]):
        kw = dict(n_resamples=60, seed=11, **case)
        assert not ooc.bootstrap(ddf, **kw).equals(pbs.bootstrap(table, **kw))


def test_tail_is_small_on_a_large_table():
    """Most impostors stay on the workers: at FMR 1 %, the gathered tail holds a small
    share of them."""
    table = _subjects_table(9, n_subjects=40, per=500, odd=0.5)
    seen = []
    real = _bootstrap._compressed

    def spy(g, lad, j, tail):
        seen.append((tail[0].size, int(lad.n_s.sum())))
        return real(g, lad, j, tail)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_bootstrap, "_compressed", spy)
        _same(dd.from_pandas(table, npartitions=4), table, metric="fnmr_at_fmr", target=0.01)
    gathered, total = seen[-1]
    assert 0 < gathered < total / 4


def test_generator_seed_left_as_in_memory():
    table = _two_systems(1)
    ddf = dd.from_pandas(table, npartitions=2)
    ours, theirs = np.random.default_rng(5), np.random.default_rng(5)
    got = ooc.bootstrap(ddf, metric="eer", n_resamples=30, seed=ours)
    exp = pbs.bootstrap(table, metric="eer", n_resamples=30, seed=theirs)
    pd.testing.assert_frame_equal(got, exp, check_exact=True)
    assert ours.random() == theirs.random()


def test_accessor_is_the_function():
    table = _two_systems(2)
    ddf = dd.from_pandas(table, npartitions=2)
    kw = dict(metric="fnmr_at_fmr", target=0.05, n_resamples=20, seed=1)
    pd.testing.assert_frame_equal(ddf.biosig.bootstrap(**kw), ooc.bootstrap(ddf, **kw))


def _raises(exc, fn):
    with pytest.raises(exc) as info:
        fn()
    return str(info.value)


def test_errors():
    table = _two_systems(6)
    ddf = dd.from_pandas(table, npartitions=2)
    assert "resample='label'" in _raises(ValueError, lambda: ooc.bootstrap(ddf, resample="label"))
    msg = _raises(ValueError, lambda: ooc.bootstrap(ddf.drop(columns="subject")))
    assert msg == _bootstrap.ERROR_RESAMPLE.format(resample="label")
    assert "needs a subject column" in _raises(
        SchemaError, lambda: ooc.bootstrap(ddf.drop(columns="subject"), resample="subject"))
    assert "needs target=" in _raises(ValueError, lambda: ooc.bootstrap(ddf, metric="fnmr_at_fmr"))
    assert "'auc'" in _raises(ValueError, lambda: ooc.bootstrap(ddf, metric="auc"))
    assert "studentized" in _raises(ValueError, lambda: ooc.bootstrap(ddf, ci_method="studentized"))
    holes = table.assign(subject=table.subject.where(table.trial != 7))
    assert "no subject id" in _raises(
        SchemaError, lambda: ooc.bootstrap(dd.from_pandas(holes, npartitions=2), n_resamples=5))
    with dask.config.set({"pandas_biosig.bootstrap_bytes": 1000}):
        msg = _raises(MemoryError, lambda: ooc.bootstrap(ddf, n_resamples=5))
    assert "pandas_biosig.bootstrap_bytes = 1,000" in msg
