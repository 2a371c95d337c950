"""The identity-first neighbour comparison of object key columns gives pandas' answers."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pandas_biosig._object_runs import neighbour_changes, pointers
from pandas_biosig._schema import _factorize


def _fresh(text: str) -> str:
    """An object equal to ``text`` (two characters or more) but not ``text`` itself."""
    return "".join([text[:1], text[1:]])


def _outcome(values):
    series = pd.Series(np.array(values, dtype=object), dtype=object)
    codes, uniques = _factorize(series)
    want_codes, want_uniques = pd.factorize(series, sort=False, use_na_sentinel=False)
    assert np.array_equal(codes, want_codes)
    assert pd.isna(list(uniques)).tolist() == pd.isna(list(want_uniques)).tolist()
    assert [u for u in uniques if not pd.isna(u)] == [u for u in want_uniques if not pd.isna(u)]


def test_pointers_view_the_objects_without_a_copy():
    a, b = "alpha", "beta"
    values = np.array([a, b, a, None], dtype=object)
    ptr = pointers(values)
    assert ptr.tolist() == [id(a), id(b), id(a), id(None)]
    assert not ptr.flags.writeable
    assert pointers(values[::-2]).tolist() == [id(None), id(b)]  # strides are followed
    assert pointers(np.zeros(3)) is None


@pytest.mark.parametrize("missing", [None, np.nan, float("nan"), pd.NA, pd.NaT, np.float64("nan")])
@pytest.mark.parametrize("where", ["run", "single", "start", "end", "scattered"])
def test_missing_objects_reach_the_general_path(missing, where):
    """A missing value (one object repeated, so identities alone call it one run) is
    still found among the run heads or by its comparison: pandas' factorization, with
    the rows sampled for the str check (every tenth) all strings."""
    n = 640
    values = ["sys"] * n
    spots = {
        "run": range(101, 139),
        "single": [55],
        "start": [1, 2, 3],
        "end": [n - 1],
        "scattered": [11, 12, 303, 304, 305, 611],
    }[where]
    for i in spots:
        values[i] = missing
    _outcome(values)
    if where in ("run", "scattered"):  # the whole call: as without the runs path
        _same_eer(values)


def _eer_outcome(table):
    import pandas_biosig as pbs
    from pandas_biosig import SchemaError

    try:
        return pbs.eer(table, method="threshold"), None
    except SchemaError as exc:
        return None, str(exc)


def _same_eer(values):
    import pandas_biosig._schema as schema

    n = len(values)
    table = pd.DataFrame(
        {
            "system": pd.Series(np.array(values, dtype=object), dtype=object),
            "trial": np.arange(n),
            "label": np.arange(n) % 2 == 0,
            "score": np.linspace(0, 1, n),
        }
    )
    fast = _eer_outcome(table)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(schema, "_run_heads", lambda series: None)
        general = _eer_outcome(table)
    assert fast[1] == general[1]
    if fast[1] is None:
        pd.testing.assert_frame_equal(fast[0], general[0])


def test_distinct_equal_objects_and_shared_ones_give_the_same_runs():
    n = 5000
    shared = ["alpha"] * 2000 + ["beta"] * 1000 + ["alpha"] * 2000
    distinct = [_fresh(v) for v in shared]
    assert distinct[0] is not distinct[1] and distinct[0] == distinct[1]
    mixed = shared[:1500] + distinct[1500:3500] + shared[3500:]
    want = np.flatnonzero(np.array(shared[1:]) != np.array(shared[:-1]))
    for values in (shared, distinct, mixed):
        arr = np.array(values, dtype=object)
        for block in (1, 7, 64, 1 << 16):
            got = neighbour_changes(arr, n, block=block)
            assert np.array_equal(got, want)
        assert neighbour_changes(arr, 1) is None  # more changes than the limit
        _outcome(values)


_WORDS = ["alpha", "beta", "sys", "", "a"]  # "" and "a": one object each in CPython


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(range(len(_WORDS))), st.booleans(), st.integers(1, 40)),
        min_size=1,
        max_size=12,
    ),
    st.sampled_from([1, 3, 16, 1 << 16]),
)
def test_neighbour_changes_equal_the_plain_comparison(runs, block):
    """Runs of strings, each row the shared object or a fresh equal one: the positions
    found equal ``values[1:] != values[:-1]``."""
    values = []
    for word, fresh, length in runs:
        text = _WORDS[word]
        values += [_fresh(text) if fresh and len(text) > 1 else text for _ in range(length)]
    arr = np.array(values, dtype=object)
    want = np.flatnonzero(np.asarray(arr[1:] != arr[:-1], dtype=bool))
    assert np.array_equal(neighbour_changes(arr, arr.size, block=block), want)
    _outcome(values)
