"""The ROC, the Bayes error-rate curve and the EPC of a dask trial table: identical to
the pandas path's Datasets (the ROC on a FAR grid; without one, the grid ROC's points are
those of the grid DET), on tables with ties, ``by`` groups, distances, failures to acquire,
and a histogram too coarse for the data."""

import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402
from test_outofcore import TINY, _table  # noqa: E402

import pandas_biosig as pbs  # noqa: E402
import pandas_biosig.outofcore as ooc  # noqa: E402  (registers ddf.biosig)
from pandas_biosig.outofcore import _epc  # noqa: E402
from pandas_biosig.verification._curves import bayes_error, det_grid, roc  # noqa: E402


@pytest.fixture(params=["synchronous", "threads"])
def scheduler(request):
    with dask.config.set(scheduler=request.param):
        yield request.param


def _tables():
    ties = _table(4000, 3, [("a", 2.0, 1), ("b", 1.0, None)])
    ties["site"] = np.where(ties.trial % 3 == 0, "x", "y")
    holes = ties.copy()
    holes.loc[[3, 77, 500], "score"] = np.nan
    return [(ties, dict(by="site")), (ties.assign(score=-ties.score), dict(orientation="distance")),
            (holes, dict(nonfinite="reject")), (pbs.datasets.example_trials(), {})]


@pytest.mark.parametrize("case", range(4))
def test_roc_on_a_grid_is_identical(scheduler, case):
    table, kw = _tables()[case]
    grid = det_grid(25, low=1e-3)
    got = ooc.roc(dd.from_pandas(table, npartitions=4), far_grid=grid, **kw)
    assert got.identical(roc(table, far_grid=grid, **kw))


@pytest.mark.parametrize("case", range(4))
def test_bayes_error_is_identical(scheduler, case):
    table, kw = _tables()[case]
    plo = np.r_[-np.inf, np.linspace(-6, 6, 49), np.inf]
    got = ooc.bayes_error(dd.from_pandas(table, npartitions=4), prior_log_odds=plo, **kw)
    assert got.identical(bayes_error(table, prior_log_odds=plo, **kw))


@pytest.mark.parametrize("case", range(4))
def test_epc_is_identical(scheduler, case):
    table, kw = _tables()[case]
    ddf = dd.from_pandas(table, npartitions=4)
    weights = np.linspace(0, 1, 21)
    assert ooc.epc(ddf, weight=weights, **kw).identical(pbs.epc(table, weight=weights, **kw))
    flipped = dict(on="eval", apply_to="dev", weight=0.25, **kw)
    assert ooc.epc(ddf, **flipped).identical(pbs.epc(table, **flipped))


def test_epc_refuses_other_criteria():
    ddf = dd.from_pandas(pbs.datasets.example_trials(), npartitions=2)
    with pytest.raises(ValueError) as info:
        ooc.epc(ddf, criterion="far")
    assert str(info.value) == _epc.ERROR_EPC_CRITERION.format(criterion="far")


def test_coarse_histogram():
    table, _ = _tables()[0]
    ddf = dd.from_pandas(table, npartitions=5)
    with dask.config.set(TINY):
        assert ooc.bayes_error(ddf).identical(bayes_error(table))
        assert ooc.epc(ddf).identical(pbs.epc(table))
        grid = det_grid(10, low=1e-2)
        assert ooc.roc(ddf, far_grid=grid).identical(roc(table, far_grid=grid))


def test_grid_roc_is_the_grid_det():
    """Without a grid: the DET's exact points at bin edges, tpr = (p - fr) / p from the
    same counts, within the stated error bound of the exact ROC."""
    table = pbs.datasets.example_trials()
    ddf = dd.from_pandas(table, npartitions=3)
    r, d = ooc.roc(ddf), ddf.biosig.det()
    assert r.attrs["kind"] == "roc" and d.attrs["kind"] == "det"
    assert r.threshold.identical(d.threshold) and r.far.identical(d.far)
    n = d.n_genuine
    fr = np.round(d.frr * n)
    np.testing.assert_array_equal(r.tpr.values, ((n - fr) / n).values)
    assert bool((r.far_gap <= 1e-3).all()) and bool((r.frr_gap <= 1e-3).all())
