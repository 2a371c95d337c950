"""Dask-backed trial tables on a ``dask.distributed`` cluster of worker processes.

The tables, the partitions and the scores travel between processes (pickled), and the
partial results are combined wherever the scheduler puts them: the numbers must still
equal the pandas path's to the last bit, as they do on the synchronous and threaded
schedulers (``tests/test_outofcore.py``, whose tables and cases this module reuses). One
local cluster of two single-threaded worker processes serves the whole module.
"""

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402
from test_outofcore import ERROR_RATE_CASES, TINY, _table  # noqa: E402

import pandas_biosig as pbs  # noqa: E402
import pandas_biosig.outofcore  # noqa: E402  (registers ddf.biosig)


@pytest.fixture(scope="module")
def client():
    """Two worker processes with one thread each, no dashboard; closed with the module."""
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (the test extra has it)"
    )
    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0",
        memory_limit=0,
    )
    try:
        with distributed.Client(cluster) as c:
            yield c
    finally:
        cluster.close()


@pytest.fixture(scope="module")
def big():
    """90 000 rows: 3 systems x 30 000 trials (10 % genuine), one with tied scores."""
    table = _table(30_000, 7, [("a", 2.5, None), ("b", 2.0, 2), ("c", 1.5, None)])
    return table, dd.from_pandas(table, npartitions=8)


def _python(code: str, stdin: bytes = b"") -> bytes:
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], input=stdin,
                            cwd=Path(__file__).parents[1], capture_output=True)
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


def test_a_task_unpickles_in_a_fresh_process():
    """What a worker process does first: unpickle a task of the engine, with neither
    dask.dataframe nor the accessor loaded. The hook that registers ``ddf.biosig`` when
    dask.dataframe is imported must not load pandas_biosig.outofcore while the engine is
    half-imported."""
    blob = _python(
        """
        import pickle, sys
        from pandas_biosig.outofcore import _engine as _dask_engine, _pairpass, _paired
        sys.stdout.buffer.write(pickle.dumps((_dask_engine._hist_chunk, _pairpass._pair_chunk,
                                              _paired._layout_chunk)))
        """
    )
    out = _python(
        """
        import pickle, sys
        tasks = pickle.loads(sys.stdin.buffer.read())
        import dask.dataframe as dd
        import pandas as pd
        ddf = dd.from_pandas(pd.DataFrame({"a": [1, 2]}), npartitions=1)
        print(*(t.__name__ for t in tasks), type(ddf.biosig).__name__)
        """,
        blob,
    )
    assert out.decode().split() == ["_hist_chunk", "_pair_chunk", "_layout_chunk",
                                    "DaskBiosigAccessor"]


def test_runs_on_worker_processes(client):
    """The cluster is what the module claims: processes, not threads of this one."""
    pids = set(client.run(lambda: __import__("os").getpid()).values())
    assert len(pids) == 2 and all(p != __import__("os").getpid() for p in pids)
    assert dask.config.get("scheduler") == "dask.distributed"


@pytest.mark.parametrize("method", ["rocch", "interpolated", "threshold"])
def test_eer_exact(client, big, method):
    table, ddf = big
    pd.testing.assert_frame_equal(ddf.biosig.eer(method=method), pbs.eer(table, method=method),
                                  check_exact=True)


def test_error_rates_exact(client, big):
    """A criterion on the same trials, one chosen on dev, a target rate, fixed thresholds."""
    table, ddf = big
    for kw in [ERROR_RATE_CASES[i] for i in (0, 2, 5, 6)]:
        got = ddf.biosig.error_rates(**kw)
        pd.testing.assert_frame_equal(got, pbs.error_rates(table, **kw), check_exact=True)


def test_summary_exact(client, big):
    table, ddf = big
    got, exp = ddf.biosig.summary(), pbs.summary(table)
    floats = ["cllr", "d_prime", "cllr_loss"]  # sums over all scores: equal to rounding, not bit for bit
    pd.testing.assert_frame_equal(got.drop(columns=floats), exp.drop(columns=floats),
                                  check_exact=True)
    np.testing.assert_allclose(got[floats], exp[floats], rtol=1e-12)


def test_compare_exact(client, big):
    """The pairwise path aligns the systems by a shuffle on ``trial`` across workers."""
    table, ddf = big
    for kw in [dict(on="dev", apply_to="eval"),
               dict(test="mcnemar", threshold="min_hter", test_decision_rules=True)]:
        pd.testing.assert_frame_equal(ddf.biosig.compare(**kw), pbs.compare(table, **kw),
                                      check_exact=True)


def test_det_on_a_grid_exact(client):
    from pandas_biosig.verification import det, det_grid

    table = pbs.datasets.example_trials()
    grid = det_grid(40, low=1e-4)
    got = dd.from_pandas(table, npartitions=5).biosig.det(far_grid=grid)
    assert got.identical(det(table, far_grid=grid))


def test_many_passes_exact(client):
    """A histogram far too coarse (options read by the client): refinement, gathering and
    the batched full sweep run over many rounds of tasks on the workers."""
    table = _table(6000, 3, [("x", 2.0, 1), ("y", 1.0, None)], label_words=False)
    ddf = dd.from_pandas(table, npartitions=7)
    with dask.config.set(TINY):
        for kw in [dict(threshold="far", target=0.01), dict(threshold="min_dcf")]:
            pd.testing.assert_frame_equal(ddf.biosig.error_rates(**kw),
                                          pbs.error_rates(table, **kw), check_exact=True)
        pd.testing.assert_frame_equal(ddf.biosig.eer(), pbs.eer(table), check_exact=True)


def test_bootstrap_exact(client):
    """The subject bootstrap: the ladder and tail passes run on the workers, the replicates
    on the client, the same draws as in memory."""
    from test_dask_bootstrap import CASES, _two_systems

    table = _two_systems(7, decimals=1)
    ddf = dd.from_pandas(table, npartitions=4)
    for case in CASES:
        kw = dict(n_resamples=40, seed=2, **case)
        pd.testing.assert_frame_equal(pandas_biosig.outofcore.bootstrap(ddf, **kw),
                                      pbs.bootstrap(table, **kw), check_exact=True)


def test_ci_exact(client):
    """The intervals: the subject pass runs on the workers, its per-subject counts merged
    wherever the scheduler puts them, in the in-memory subject order."""
    from test_dask_bootstrap import _two_systems
    from test_dask_intervals import CI_CASES

    table = _two_systems(5, decimals=1, n_subjects=9)
    ddf = dd.from_pandas(table, npartitions=5)
    for kw in CI_CASES[:4]:
        pd.testing.assert_frame_equal(pandas_biosig.outofcore.ci(ddf, **kw), pbs.ci(table, **kw),
                                      check_exact=True)


def test_compare_bootstrap_exact(client):
    """The paired bootstrap: the subject, aligned and layout passes on the workers, the
    replicates drawn on the client as in memory (systems in one order and in their own)."""
    from test_dask_paired import paired_table

    for own_order in (False, True):
        table = paired_table(6, own_order=own_order)
        ddf = dd.from_pandas(table, npartitions=4)
        for kw in (dict(), dict(resample="label", metric="far"), dict(metric="eer")):
            kw.update(n_resamples=40, seed=3)
            pd.testing.assert_frame_equal(pandas_biosig.outofcore.compare(ddf, **kw),
                                          pbs.compare(table, **kw), check_exact=True)


def test_duplicates_in_one_pass(client):
    """The one-pass duplicate check, its slices merged on the workers."""
    table = pbs.datasets.example_trials()
    dup = pd.concat([table, table.iloc[[17]]], ignore_index=True)
    with dask.config.set({"pandas_biosig.check_rows": 500}):
        pd.testing.assert_frame_equal(dd.from_pandas(table, npartitions=5).biosig.eer(),
                                      pbs.eer(table), check_exact=True)
        with pytest.raises(pbs.SchemaError, match="duplicate trial id"):
            dd.from_pandas(dup, npartitions=5).biosig.eer()


def test_roc_bayes_error_and_epc_exact(client):
    from pandas_biosig.verification._curves import bayes_error, det_grid, roc

    table = pbs.datasets.example_trials()
    ddf = dd.from_pandas(table, npartitions=4)
    grid = det_grid(20, low=1e-3)
    assert ddf.biosig.roc(far_grid=grid).identical(roc(table, far_grid=grid))
    assert ddf.biosig.bayes_error().identical(bayes_error(table))
    assert ddf.biosig.epc().identical(pbs.epc(table))
