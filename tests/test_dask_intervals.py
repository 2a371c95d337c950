"""Intervals of a dask trial table: :func:`pandas_biosig.ci`'s numbers to the last bit
(thresholds from the exact criteria, the subjects' design effect from one grouped pass),
on tables whose subjects first appear in no particular order and spread over partitions.
"""

import re

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402
from test_dask_bootstrap import _subjects_table, _two_systems  # noqa: E402
from test_outofcore import TINY  # noqa: E402

import pandas_biosig as pbs  # noqa: E402
import pandas_biosig.outofcore as ooc  # noqa: E402  (registers ddf.biosig)
from pandas_biosig._core.schema import SchemaError  # noqa: E402
from pandas_biosig._kernels.cluster import cluster_design  # noqa: E402
from pandas_biosig.outofcore import _intervals  # noqa: E402

CI_CASES = [
    dict(),
    dict(metric="hter", combine="bengio", resample="label"),
    dict(threshold="far", target=0.05, ci_method="wilson"),
    dict(threshold="min_hter", on="dev", apply_to=["dev", "eval"], ci_method="jeffreys"),
    dict(threshold=0.5, ci_method="binom_test", metric=["dcf", "far"], p_target=0.1),
    dict(threshold="eer", on=None, apply_to=None, combine="bengio", confidence_level=0.9),
]


def _same_ci(ddf, table, **kw):
    got = ooc.ci(ddf, **kw)
    pd.testing.assert_frame_equal(got, pbs.ci(table, **kw), check_exact=True)
    return got


@pytest.fixture(params=["synchronous", "threads"])
def scheduler(request):
    with dask.config.set(scheduler=request.param):
        yield request.param


def test_design_effect_does_not_depend_on_the_order_of_the_trials():
    """What makes the dask intervals exact: the design is formed from per-person counts,
    so any order of the same trials gives the same numbers to the bit."""
    rng = np.random.default_rng(0)
    probe = rng.integers(0, 30, 5000)
    errors = (rng.random(5000) < 0.02 + 0.1 * (probe % 7 == 0)).astype(float)
    ref = rng.integers(0, 30, 5000)
    for r in (None, ref):
        base = cluster_design(errors, probe, r)
        assert base.deff > 1
        for _ in range(3):
            p = rng.permutation(5000)
            assert cluster_design(errors[p], probe[p], None if r is None else r[p]) == base


@pytest.mark.parametrize("case", CI_CASES, ids=lambda c: "-".join(map(str, c.values())) or "default")
def test_ci_equal_to_memory(scheduler, case):
    table = _two_systems(decimals=1, n_subjects=9)
    _same_ci(dd.from_pandas(table, npartitions=5), table, **case)


def test_ci_subjects_shrink_the_counts():
    """The subject path is the one exercised: its intervals are wider than the trial-level
    ones (a wolf subject makes the impostor errors cluster), and still equal memory's."""
    table = _two_systems(2, n_subjects=9)
    ddf = dd.from_pandas(table, npartitions=4)
    deff = _same_ci(ddf, table, metric="far")
    flat = _same_ci(ddf, table, metric="far", resample="label")
    assert (deff.ci_method == "beta-deff").all() and (deff["resample"] == "subject").all()
    assert ((deff.ci_high - deff.ci_low) > (flat.ci_high - flat.ci_low)).all()


@pytest.mark.parametrize("kw", [
    dict(n_subjects=3, per=40, odd=4.0, decimals=0),
    dict(n_subjects=12, per=200, odd=1.0, ids="int"),
])
def test_ci_adversarial_tables(kw):
    table = _subjects_table(5, **kw)
    for n in (1, 3, 7):
        ddf = dd.from_pandas(table, npartitions=n)
        for case in CI_CASES[:3]:
            _same_ci(ddf, table, **case)


def test_ci_by_distance_dropped_scores_and_coarse_histogram():
    table = _two_systems(3, decimals=1)
    table["site"] = np.where(table.trial % 3 == 0, "x", "y")
    table["score"] = -table["score"]
    table.loc[[4, 50, 333], "score"] = np.nan
    ddf = dd.from_pandas(table, npartitions=6)
    with dask.config.set(TINY):
        for nonfinite in ("drop", "reject"):
            _same_ci(ddf, table, by="site", orientation="distance", nonfinite=nonfinite,
                     on=None, apply_to=None)


def test_ci_accessor_is_the_function():
    table = _two_systems(1)
    ddf = dd.from_pandas(table, npartitions=2)
    pd.testing.assert_frame_equal(ddf.biosig.ci(metric="hter"), ooc.ci(ddf, metric="hter"))


def _raises(exc, fn):
    with pytest.raises(exc) as info:
        fn()
    return str(info.value)


def test_ci_errors():
    table = _two_systems(6)
    ddf = dd.from_pandas(table, npartitions=2)
    refs = ddf.assign(reference_subject=ddf.subject)
    assert _raises(ValueError, lambda: ooc.ci(refs)) == _intervals.ERROR_TWO_WAY
    assert _raises(ValueError, lambda: ooc.ci(ddf, resample="two_way")) == _intervals.ERROR_TWO_WAY
    assert "needs a subject column" in _raises(
        SchemaError, lambda: ooc.ci(ddf.drop(columns="subject"), resample="subject"))
    pd.testing.assert_frame_equal(ooc.ci(ddf.drop(columns="subject")),
                                  pbs.ci(table.drop(columns="subject")), check_exact=True)
    holes = table.assign(subject=table.subject.where(table.trial != 7))
    assert "no subject id" in _raises(SchemaError, lambda: ooc.ci(dd.from_pandas(holes, npartitions=2)))
    one = table.assign(subject="p")
    msg = _raises(SchemaError, lambda: ooc.ci(dd.from_pandas(one, npartitions=2)))
    assert msg == _raises(SchemaError, lambda: pbs.ci(one))
    for bad in (dict(metric="auc"), dict(ci_method="nope"), dict(combine="nope"),
                dict(confidence_level=1.5), dict(resample="nope")):
        assert _raises(ValueError, lambda bad=bad: ooc.ci(ddf, **bad)) == _raises(
            ValueError, lambda bad=bad: pbs.ci(table, **bad))
    assert re.search("counted trials", _raises(ValueError, lambda: ooc.ci(ddf, count="n")))
