"""The duplicate-trial check of the dask path: 64-bit row hashes find the candidates,
exact comparison decides. With a hash weakened to a few values every row collides with
many others: no collision may be reported, and every true duplicate must still be found,
within a partition and across partitions, in one slice of the hash range or several."""

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402

import pandas_biosig as pbs  # noqa: E402
import pandas_biosig.outofcore  # noqa: E402  (registers ddf.biosig)
from pandas_biosig._core.schema import SchemaError  # noqa: E402
from pandas_biosig.outofcore import _engine as _dask_engine  # noqa: E402

REAL_HASH = _dask_engine._row_hashes


def _weak_hash(pdf, keys, trial):
    """Eight hash values, spread over the whole range (one per slice when sliced in
    eight): rows of every system whose trial ids agree modulo 8 collide."""
    t = np.nan_to_num(pdf[trial].to_numpy(dtype=float)).astype(np.int64) % 8
    return t.astype(np.uint64) << np.uint64(61)


def _error(fn):
    with pytest.raises(SchemaError) as exc:
        fn()
    return str(exc.value)


@pytest.fixture(params=["real", "weak"])
def hashing(request, monkeypatch):
    if request.param == "weak":
        monkeypatch.setattr(_dask_engine, "_row_hashes", _weak_hash)
    return request.param


@pytest.fixture(params=[None, 50])
def check_rows(request):
    """One merge of the whole hash range, or one merge per slice of it (in one pass)."""
    cfg = {} if request.param is None else {"pandas_biosig.check_rows": request.param}
    with dask.config.set(scheduler="threads", **cfg):
        yield request.param


def _table():
    return pbs.datasets.example_trials()


def test_collisions_are_never_duplicates(hashing, check_rows):
    table = _table()
    ddf = dd.from_pandas(table, npartitions=5)
    got = ddf.biosig.eer()
    pd.testing.assert_frame_equal(got, pbs.eer(table))


@pytest.mark.parametrize("where", ["within", "across"])
@pytest.mark.parametrize("trial", [2, 7])  # in the first batch of candidates, or a later one
def test_true_duplicates_are_found(hashing, check_rows, where, trial):
    table = _table()
    row = table.index[(table.trial == trial) & (table.system == "gmm")][0]
    pos = table.index.get_loc(row)
    if where == "within":
        dup = pd.concat([table.iloc[: pos + 1], table.iloc[[pos]], table.iloc[pos + 1 :]])
    else:
        dup = pd.concat([table, table.iloc[[pos]]])
    dup = dup.reset_index(drop=True)
    ddf = dd.from_pandas(dup, npartitions=5)
    if where == "across":  # the copy and the original lie in different partitions
        parts = ddf.map_partitions(lambda p: p.assign(part=p.index.min())).compute()
        both = parts[(parts.trial == trial) & (parts.system == "gmm")]
        assert both.part.nunique() == 2
    message = _error(lambda: ddf.biosig.eer())
    expected = _error(lambda: pbs.eer(dup))
    if hashing == "weak":  # some candidates unfetched: the count is a lower bound
        message = message.replace("has at least 1 ", "has 1 ")
    assert message.split("Example rows")[0] == expected.split("Example rows")[0]
    assert f"has 1 duplicate trial id(s) in column 'trial', e.g. [{trial}]" in message


def test_many_duplicates_are_counted_at_least(hashing, check_rows):
    table = _table()
    dup = pd.concat([table, table.iloc[:40]], ignore_index=True)
    message = _error(lambda: dd.from_pandas(dup, npartitions=5).biosig.eer())
    assert "has at least" in message and "duplicate trial id(s)" in message


def test_missing_trial_ids_come_first(hashing, check_rows):
    table = _table()
    dup = pd.concat([table, table.iloc[[3]]], ignore_index=True)
    dup["trial"] = dup["trial"].astype(float)
    dup.loc[[5, 700], "trial"] = np.nan
    ddf = dd.from_pandas(dup, npartitions=5)
    message = _error(lambda: ddf.biosig.eer())
    assert message.startswith("column 'trial' has 2 missing trial id(s)")
    expected = _error(lambda: pbs.eer(dup))
    assert message.split("Example rows")[0] == expected.split("Example rows")[0]
    assert message.split("\n")[2].split() == ["5", "cnn", "dev", "NaN"]
    assert message.split("\n")[3].split() == ["700", "cnn", "dev", "NaN"]


def test_sorted_runs_merged_piece_by_piece(monkeypatch):
    """The repeats of many sorted runs, merged a range of values at a time, are those of
    their concatenation (values repeated across pieces' edges included)."""
    monkeypatch.setattr(_dask_engine, "_MERGE_PIECE", 1000)
    monkeypatch.setattr(_dask_engine, "_REPEATS_KEPT", 300)
    rng = np.random.default_rng(3)
    runs = [np.sort(rng.integers(0, 30_000, n).astype(np.uint64)) for n in (9000, 0, 4000, 7)]
    repeated, n_repeated = _dask_engine._hash_repeats(runs)
    values, counts = np.unique(np.concatenate(runs), return_counts=True)
    assert n_repeated == int((counts > 1).sum())
    np.testing.assert_array_equal(repeated, values[counts > 1][:300])


def test_one_pass_over_the_data(monkeypatch):
    """However many slices of the hash range (here 1 + 9600 // 50 = 192), every partition
    is read and hashed once."""
    calls = []

    def counted(pdf, keys, trial):
        calls.append(len(pdf))
        return REAL_HASH(pdf, keys, trial)

    monkeypatch.setattr(_dask_engine, "_row_hashes", counted)
    table = _table()
    ddf = dd.from_pandas(table, npartitions=5)
    with dask.config.set({"pandas_biosig.check_rows": 50}, scheduler="threads"):
        pd.testing.assert_frame_equal(ddf.biosig.eer(), pbs.eer(table))
    assert sorted(calls) == sorted(len(p) for p in ddf.partitions)
    assert sum(calls) == len(table)
