"""The identity-first neighbour comparison of object key columns gives pandas' answers."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from versions import nan_string_dtype

from pandas_biosig._core.object_runs import neighbour_changes, pointers
from pandas_biosig._core.schema import factorize_keys


def _fresh(text: str) -> str:
    """An object equal to ``text`` (two characters or more) but not ``text`` itself."""
    return "".join([text[:1], text[1:]])


def _outcome(values):
    series = pd.Series(np.array(values, dtype=object), dtype=object)
    codes, uniques = factorize_keys(series)
    want_codes, want_uniques = pd.factorize(series, sort=False, use_na_sentinel=False)
    assert np.array_equal(codes, want_codes)
    assert pd.isna(list(uniques)).tolist() == pd.isna(list(want_uniques)).tolist()
    assert [u for u in uniques if not pd.isna(u)] == [u for u in want_uniques if not pd.isna(u)]


@pytest.mark.parametrize(
    "values",
    [
        ["sys"] * 40,
        ["a"] * 20 + ["b"] * 20,
        ["a"] * 20 + [None] * 20,
        ["a"] * 20 + [None] + ["a"] * 19,
        ["a"] * 20 + [np.nan] * 3 + ["b"] * 17,
        ["a"] * 20 + [pd.NA] + ["a"] * 19,
        ["a"] * 39 + [None],
        [None] + ["a"] * 39,
    ],
)
def test_object_key_runs_equal_factorize(values):
    """A numpy object key column (no ``hasnans`` pass): the runs path gives pandas'
    factorization, missing values included."""
    _outcome(values)


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
    import pandas_biosig._core.schema as schema

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


# -- labels of a pyarrow string column: the fast path against pd.factorize + lookup --

_LABEL_WORDS = ["genuine", "impostor", "target", "nontarget", "genuin", "genuinee", "genuinf",
                "impostoR", "Genuine", "", "é", None]  # fmt: skip


def _general_labels(series):
    import pandas_biosig._core.schema as schema

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(schema, "_arrow_labels", lambda s: None)
        return _labels(series)


def _labels(series):
    from pandas_biosig import SchemaError
    from pandas_biosig._core.schema import genuine_from_labels

    try:
        return genuine_from_labels(pd.DataFrame({"label": series}), "label"), None
    except SchemaError as exc:
        return None, str(exc)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(range(len(_LABEL_WORDS))), min_size=1, max_size=60),
    st.sampled_from([(0, 1), (0, 1), (1, 0), (2, 3), (0, 4), (0, 5), (0, 6), (1, 7), (0, 8)]),
    st.lists(st.integers(0, 60), max_size=3),
    st.booleans(),
    st.integers(0, 2),
)
def test_arrow_labels_equal_the_general_path(picks, pair, cuts, large, head):
    """Mostly two words (a pair of the vocabulary, or a word and a near miss: a prefix,
    an extension, one changed byte, another case), now and then any other word, empty or
    missing; chunked at ``cuts``, each chunk a slice of a larger array: the fast path
    gives the general path's booleans, or its error."""
    import pyarrow as pa

    words = [_LABEL_WORDS[pair[i % 2]] if i < 8 else _LABEL_WORDS[i] for i in picks]
    if head:  # the first row, which the fast path compares with, from the pair
        words[0] = _LABEL_WORDS[pair[head - 1]]
    kind = pa.large_string() if large else pa.string()
    bounds = [0, *sorted(min(c, len(words)) for c in cuts), len(words)]
    chunks = [
        pa.array(["pad", *words[a:b], "pad"], type=kind).slice(1, b - a)
        for a, b in zip(bounds[:-1], bounds[1:], strict=True)
    ]
    series = pd.Series(pa.chunked_array(chunks, type=kind), dtype=nan_string_dtype())
    fast, general = _labels(series), _general_labels(series)
    assert fast[1] == general[1]
    if general[1] is None:
        assert fast[0].dtype == bool and np.array_equal(fast[0], general[0])
