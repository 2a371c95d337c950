"""The segmented engine equals each group's own sweep to the bit, and a counted table
equals its expanded table to the bit.

Three levels: the kernels (every quantity of :class:`Segments` against
:class:`Sweep` of each segment, counted segments against the Sweep of the expanded
scores); the public functions through the engine against the per-group path (the
engine switched off), with ties, failures to acquire, tiny groups, large groups read by
their own sweep inside the engine, and every threshold policy; and ``count=`` against
the table with each row repeated ``count`` times.
"""

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pandas_biosig as pbs
import pandas_biosig._core.segmented as segmented
import pandas_biosig.verification._metrics as metrics
from pandas_biosig._core.schema import (
    ERROR_COUNT_DTYPE,
    ERROR_COUNT_TOTAL,
    ERROR_COUNT_VALUE,
    ERROR_EMPTY,
    ERROR_ONE_CLASS,
    SchemaError,
    factorize_keys,
    validate_trials,
)
from pandas_biosig._kernels import segment_stats
from pandas_biosig._kernels.calibration import llr_check
from pandas_biosig._kernels.rates import Sweep, interpolated_eer, threshold_eer
from pandas_biosig._kernels.segments import Segments, max_counts, sort_segments

SETTINGS = settings(max_examples=60, deadline=None)


def bits(x):
    """A float's bits, ``-0.0`` read as ``0.0`` (a sort may put either first, so the
    sweep itself may report either for a run of zeros)."""
    return (float(x) + 0.0).hex()


def op_key(op):
    return bits(op.threshold), int(op.fa), int(op.fr), int(op.n), int(op.p)


def seg_key(points, i):
    return bits(points.threshold[i]), int(points.fa[i]), int(points.fr[i]), \
        int(points.n[i]), int(points.p[i])


# ----------------------------------------------------------------- the kernels
grid = st.integers(-6, 6).map(lambda v: v / 2)
extreme = st.sampled_from([1e308, -1e308, 5e-324, 0.0, -0.0, 3.0])
fine = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


@st.composite
def segment(draw, counted):
    size = draw(st.integers(2, 40))
    scores = draw(st.lists(st.one_of(grid, grid, fine, extreme), min_size=size, max_size=size))
    genuine = draw(st.lists(st.booleans(), min_size=size, max_size=size))
    genuine[0], genuine[1] = True, False
    counts = draw(st.lists(st.integers(1, 4), min_size=size, max_size=size)) if counted \
        else [1] * size
    return scores, genuine, counts


@st.composite
def segment_tables(draw, counted=False):
    parts = draw(st.lists(segment(counted), min_size=1, max_size=8))
    scores = np.array([s for p in parts for s in p[0]], dtype=np.float64)
    genuine = np.array([g for p in parts for g in p[1]], dtype=bool)
    counts = np.array([c for p in parts for c in p[2]], dtype=np.int64)
    offsets = np.concatenate(([0], np.cumsum([len(p[0]) for p in parts])))
    return scores, genuine, counts if counted else None, offsets


def sweep_of(scores, genuine, counts, offsets, i):
    a, b = offsets[i], offsets[i + 1]
    s, g = scores[a:b], genuine[a:b]
    if counts is not None:  # the expanded scores
        s, g = np.repeat(s, counts[a:b]), np.repeat(g, counts[a:b])
    return Sweep.from_scores(s, g)


def check_segments(scores, genuine, counts, offsets):
    sg = Segments(scores, genuine, offsets, counts)
    prev, has_prev, star = sg.eer_points()
    eer, best = sg.eer_threshold()
    interp = sg.eer_interpolated()
    weighted = sg.min_weighted(0.3)
    dcf, dcf_op = sg.min_dcf(0.01, 1.0, 1.0)
    hter, hter_dcf = sg.min_hter_and_dcf(0.1, 2.0, 1.0)
    fnmr = {r: sg.fnmr_at_fmr(r) for r in (0.0, 0.01, 0.25, 1.0)}
    fmr = {r: sg.fmr_at_fnmr(r) for r in (0.0, 0.2, 1.0)}
    t = np.linspace(-3, 3, sg.size)
    fa, fr = sg.rates_at(t)
    grid = np.array([2.0, -0.5, np.nan, 0.0, -np.inf, 1e308, 0.5, 2.0, np.inf, -3.25])
    grid_fa, grid_fr = sg.rates_on_grid(grid, cells=16)  # several blocks of segments
    grid_each = [sg.rates_at(np.full(sg.size, x)) for x in grid]
    blocks = segment_stats.hull(sg)
    stats = dict(auc=segment_stats.auc(sg), cllr=segment_stats.cllr(sg),
                 d_prime=segment_stats.d_prime(sg), eer_rocch=segment_stats.rocch_eer(sg, blocks),
                 min_cllr=segment_stats.min_cllr(sg, blocks))
    flags = segment_stats.not_llr(sg)
    for i in range(sg.size):
        sw = sweep_of(scores, genuine, counts, offsets, i)
        p, s = sw.eer_points()
        assert seg_key(star, i) == op_key(s)
        assert bool(has_prev[i]) == (p is not None)
        if p is not None:
            assert seg_key(prev, i) == op_key(p)
        v, op = threshold_eer(p, s)
        assert (bits(eer[i]), seg_key(best, i)) == (bits(v), op_key(op))
        assert bits(interp[i]) == bits(interpolated_eer(p, s))
        assert seg_key(weighted, i) == op_key(sw.min_weighted(0.3))
        c, op = sw.min_dcf(0.01, 1.0, 1.0)
        assert (bits(dcf[i]), seg_key(dcf_op, i)) == (bits(c), op_key(op))
        op, c = sw.min_hter_and_dcf(0.1, 2.0, 1.0)
        assert (seg_key(hter, i), bits(hter_dcf[i])) == (op_key(op), bits(c))
        for r, pts in fnmr.items():
            assert seg_key(pts, i) == op_key(sw.fnmr_at_fmr(r))
        for r, pts in fmr.items():
            assert seg_key(pts, i) == op_key(sw.fmr_at_fnmr(r))
        assert (int(fa[i]), int(fr[i])) == tuple(int(x) for x in sw.rates_at_threshold(t[i]))
        for k, x in enumerate(grid):
            assert (grid_fa[i, k], grid_fr[i, k]) == (grid_each[k][0][i], grid_each[k][1][i])
            if not np.isnan(x):
                assert (grid_fa[i, k], grid_fr[i, k]) == tuple(sw.rates_at_threshold(x))
        want = dict(auc=sw.auc(), cllr=sw.cllr(), d_prime=sw.d_prime(), eer_rocch=sw.eer_rocch(),
                    min_cllr=sw.min_cllr())
        assert {k: bits(v[i]) for k, v in stats.items()} == {k: bits(v) for k, v in want.items()}
        assert bool(flags[i]) == llr_check(sw).not_llr


@SETTINGS
@given(segment_tables())
def test_segments_equal_each_sweep(table):
    check_segments(*table)


@SETTINGS
@given(segment_tables(counted=True))
def test_counted_segments_equal_the_expanded_sweep(table):
    check_segments(*table)


def test_many_segments_of_many_lengths():
    # lengths on both sides of every power of two up to 2**10, in shuffled order: every
    # width class of the sort, rows padded and not
    rng = np.random.default_rng(3)
    lengths = rng.permutation(np.concatenate([[2, 3], *[[2**k - 1, 2**k, 2**k + 1]
                                                         for k in range(2, 11)]] * 2))
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    genuine = rng.random(offsets[-1]) < 0.3
    genuine[offsets[:-1]], genuine[offsets[:-1] + 1] = True, False
    scores = np.round(rng.normal(genuine * 1.5, 1.0), 1)
    check_segments(scores, genuine, None, offsets)
    counts = rng.integers(1, 4, offsets[-1])
    check_segments(scores, genuine, counts, offsets)


def test_sort_segments_sorts_each_segment_in_place():
    rng = np.random.default_rng(0)
    lengths = np.array([5, 5, 5, 17, 1, 100, 5, 64, 64, 3])
    offsets = np.concatenate(([0], np.cumsum(lengths)))
    scores = rng.integers(0, 7, offsets[-1]).astype(float)
    order = sort_segments(scores, offsets)
    assert np.array_equal(np.sort(order), np.arange(scores.size))
    for a, b in zip(offsets[:-1], offsets[1:], strict=True):
        assert set(order[a:b]) == set(range(a, b))
        assert np.array_equal(scores[order[a:b]], np.sort(scores[a:b]))


def test_max_counts_is_the_sweeps_own():
    from pandas_biosig._kernels.rates import _max_count

    totals = np.array([1, 3, 7, 10, 100, 1000, 12345, 99991])
    for rate in (0.0, 1e-9, 0.001, 0.01, 0.1, 1 / 3, 0.5, 0.999, 1.0):
        assert max_counts(rate, totals).tolist() == [_max_count(rate, int(t)) for t in totals]


# ----------------------------------------------------------------- the public functions
@pytest.fixture
def per_group(monkeypatch):
    """Switch the engine off: every group through its own sweep, as before it."""
    monkeypatch.setattr(metrics, "uses_engine", lambda trials: False)


def make_table(rng, groups=30, *, fta=False, tiny=True):
    frames = []
    for i in range(groups):
        size = 2 if (tiny and i % 10 == 3) else int(rng.integers(3, 80))
        genuine = rng.random(size) < rng.uniform(0.1, 0.6)
        genuine[0], genuine[1] = True, False
        if i % 3 == 0:
            scores = rng.integers(-3, 4, size).astype(float)  # ties everywhere
        else:
            scores = np.round(rng.normal(genuine * 1.5, 1.0), 2)
        for split, shift in (("dev", 0.0), ("eval", 0.25)):
            frames.append(pd.DataFrame({
                "site": f"site{i % 4}", "system": f"s{i // 4}", "split": split,
                "trial": rng.permutation(size) + 1000 * i, "label": genuine,
                "score": scores + shift}))
    table = pd.concat(frames, ignore_index=True)
    if fta:
        hit = (rng.random(len(table)) < 0.1) & ~table["trial"].isin(table["trial"].iloc[:0])
        first_two = table.groupby(["site", "system", "split", "label"]).cumcount() == 0
        table.loc[hit & ~first_two, "score"] = np.nan
    return table


CALLS = [
    ("eer", {}), ("eer", dict(method="rocch")), ("eer", dict(method="interpolated")),
    ("summary", {}), ("summary", dict(orientation="distance", p_target=0.1, c_miss=2.0)),
    ("error_rates", {}), ("error_rates", dict(threshold="min_hter")),
    ("error_rates", dict(threshold="min_weighted", weight=0.2)),
    ("error_rates", dict(threshold="far", target=0.05)),
    ("error_rates", dict(threshold="frr", target=0.1)),
    ("error_rates", dict(threshold="min_dcf", p_target=0.2)),
    ("error_rates", dict(threshold="eer", on="dev", apply_to="eval")),
    ("error_rates", dict(threshold="far", target=0.1, on="dev")),
    ("error_rates", dict(threshold=0.25)), ("error_rates", dict(threshold=np.inf)),
    ("error_rates", dict(threshold={"s0": 0.1, "s1": -0.2, "s2": 1.0, "s3": 0.0, "s4": 2.0,
                                    "s5": -1.0, "s6": 0.5, "s7": 0.3})),
    ("error_rates", dict(orientation="distance", threshold=-0.5)),
    ("dcf", dict(p_target=[0.01, 0.2, 0.5])), ("dcf", dict(threshold="eer", on="dev")),
    ("dcf", dict(threshold="min_weighted", weight=0.3, c_miss=[1.0, 10.0])),
    ("dcf", dict(threshold=0.5)),
]


def _compare(table, name, kwargs, monkeypatch, **extra):
    f = getattr(pbs, name)
    got = f(table, **kwargs, **extra)
    with monkeypatch.context() as m:
        m.setattr(metrics, "uses_engine", lambda trials: False)
        want = f(table, **kwargs, **extra)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    return got


@pytest.mark.parametrize(("name", "kwargs"), CALLS, ids=[f"{n}-{i}" for i, (n, _) in
                                                          enumerate(CALLS)])
@pytest.mark.parametrize("by", [None, "site"])
def test_engine_equals_the_per_group_path(name, kwargs, by, monkeypatch):
    rng = np.random.default_rng(7)
    assert segmented.uses_engine(validate_trials(make_table(rng), subject=None, by=by))
    _compare(make_table(np.random.default_rng(7)), name, kwargs, monkeypatch, by=by)


@pytest.mark.parametrize(("name", "kwargs"), CALLS[:12], ids=[f"{n}-{i}" for i, (n, _) in
                                                              enumerate(CALLS[:12])])
@pytest.mark.parametrize("nonfinite", ["reject", "drop"])
def test_engine_equals_with_failures_to_acquire(name, kwargs, nonfinite, monkeypatch):
    table = make_table(np.random.default_rng(11), fta=True)
    assert table["score"].isna().any()
    _compare(table, name, kwargs, monkeypatch, by="site", nonfinite=nonfinite)


@pytest.mark.parametrize(("name", "kwargs"), CALLS, ids=[f"{n}-{i}" for i, (n, _) in
                                                          enumerate(CALLS)])
def test_large_groups_read_by_their_own_sweep_inside_the_engine(name, kwargs, monkeypatch):
    # groups above the size limit take the per-group sweep inside one engine call
    monkeypatch.setattr(segmented, "SMALL_GROUP", 40)
    _compare(make_table(np.random.default_rng(5)), name, kwargs, monkeypatch, by="site")


def test_the_llr_flag_and_its_warning_equal_the_per_group_path(monkeypatch):
    # per site: LLR-like scores, the same scores 30 times too large (cross-entropy far
    # above the limit) and squeezed into [0.01, 0.02] (the trivial Bayes error at every
    # prior of the grid, though they separate): each rule of llr_check flags one system
    rng = np.random.default_rng(4)
    frames = []
    for i in range(12):
        genuine = rng.random(60) < 0.4
        genuine[:2] = True, False
        llr = rng.normal(np.where(genuine, 1.0, -1.0), 1.4)
        score = {0: llr, 1: 30 * llr, 2: 0.01 + 0.01 / (1 + np.exp(-2.5 * llr))}[i % 3]
        frames.append(pd.DataFrame({"site": f"site{i}", "system": f"s{i % 3}",
                                    "trial": np.arange(60), "label": genuine, "score": score}))
    table = pd.concat(frames, ignore_index=True)
    for name, kwargs in [("summary", {}), ("dcf", dict(p_target=[0.01, 0.3]))]:
        with pytest.warns(pbs.BiosigWarning) as caught:  # the engine's, then the loop's
            got = _compare(table, name, kwargs, monkeypatch, by="site")
        engine, loop = (str(w.message) for w in caught)
        assert engine == loop and "'s1', 's2'" in engine
        assert set(got.loc[got.system == "s0", "not_llr"]) == {False}
        assert set(got.loc[got.system == "s1", "not_llr"]) == {True}
        assert got.loc[got.system == "s2", "not_llr"].any()


def test_many_tiny_groups(monkeypatch):
    rng = np.random.default_rng(1)
    n = 3000
    table = pd.DataFrame({"system": np.repeat(np.arange(n // 3), 3), "trial": np.arange(n),
                          "label": np.tile([True, False, False], n // 3),
                          "score": rng.integers(0, 3, n).astype(float)})
    for name, kwargs in [("eer", {}), ("summary", {}), ("error_rates", {})]:
        out = _compare(table, name, kwargs, monkeypatch)
        assert len(out) == n // 3


def test_the_first_failing_group_is_named():
    # group keys in code order: (a, s0) one class, (b, s1) a repeated trial: the error
    # is the first's, as the loop over the groups raised it
    table = pd.DataFrame({
        "by": ["b", "b", "b", "a", "a", "c", "c"], "system": ["s1"] * 3 + ["s0"] * 2 + ["s2"] * 2,
        "trial": [1, 1, 2, 1, 2, 1, 2], "label": [1, 0, 0, 1, 1, 1, 0],
        "score": [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]})
    with pytest.raises(SchemaError, match="duplicate trial") as err:
        pbs.eer(table, by="by")
    assert "by='b', system 's1'" in str(err.value)
    table.loc[3, "label"] = 1
    table.loc[[3, 4], "by"] = "a"
    table["by"] = pd.Categorical(table["by"], ["a", "b", "c"])
    with pytest.raises(SchemaError) as err:
        pbs.eer(table, by="by")
    assert str(err.value) == ERROR_ONE_CLASS.format(where="by='a', system 's0'",
                                                    n_genuine=2, n_impostor=0)


@pytest.mark.parametrize("values", [
    ["x", "y", "x", "z"], [3, 1, 3, 2], [0.5, np.nan, 0.5, 1.5], [True, False, True, False],
    pd.Categorical(["q", "p", "q", "r"], ["r", "q", "p"]), [1, "a", 1, 2.5],
    pd.to_datetime(["2024-01-02", "2024-01-01", "2024-01-02", "2024-01-03"]),
])
def test_group_keys_are_the_column_values_at_each_group_first_row(values):
    n = 4
    table = pd.DataFrame({"key": pd.Series(values).repeat(6).reset_index(drop=True),
                          "system": "sys", "trial": np.arange(6 * n),
                          "label": np.tile([1, 0, 0, 1, 0, 0], n),
                          "score": np.arange(6 * n) % 5 * 0.5})
    trials = validate_trials(table, by="key", subject=None)
    codes, uniques = factorize_keys(table["key"])
    for k, g in zip(trials.keys, trials.groups, strict=True):
        first = int(g.rows[0])
        v = uniques[int(codes[first])]
        v = v.item() if isinstance(v, np.generic) else v
        assert k[0] is v or k[0] == v or (pd.isna(k[0]) and pd.isna(v))
        assert type(k[0]) is type(v)
        assert g.key == k


# ----------------------------------------------------------------- counted trials
def expand(table, count="count"):
    """Each row repeated ``count`` times, with trial ids of its own."""
    out = table.loc[table.index.repeat(table[count])].reset_index(drop=True)
    out["trial"] = np.arange(len(out))
    return out.drop(columns=count)


@st.composite
def counted_tables(draw):
    groups = draw(st.integers(1, 6))
    frames = []
    for i in range(groups):
        size = draw(st.integers(2, 12))
        scores = draw(st.lists(st.one_of(grid, fine), min_size=size, max_size=size))
        labels = draw(st.lists(st.booleans(), min_size=size, max_size=size))
        labels[0], labels[1] = True, False
        counts = draw(st.lists(st.integers(0, 4), min_size=size, max_size=size))
        counts[0], counts[1] = max(counts[0], 1), max(counts[1], 1)
        frames.append(pd.DataFrame({"by": i % 2, "system": f"s{i}", "trial": np.arange(size),
                                    "label": labels, "score": scores, "count": counts}))
    table = pd.concat(frames, ignore_index=True)
    if draw(st.booleans()):  # failures to acquire, never a group's first two rows
        nan = draw(st.lists(st.booleans(), min_size=len(table), max_size=len(table)))
        mask = np.array(nan) & (table["trial"].to_numpy() > 1)
        table.loc[mask, "score"] = np.nan
    return table


COUNTED_CALLS = [("eer", {}), ("eer", dict(method="rocch")), ("eer", dict(method="interpolated")),
                 ("summary", {}), ("error_rates", {}), ("error_rates", dict(threshold="far",
                                                                            target=0.2)),
                 ("dcf", dict(p_target=[0.01, 0.3]))]


@settings(max_examples=40, deadline=None)
@given(counted_tables(), st.sampled_from([None, "by"]))
def test_a_counted_table_equals_its_expanded_table(table, by):
    extra = dict(by=by, nonfinite="reject")
    expanded = expand(table)
    for name, kwargs in COUNTED_CALLS:
        f = getattr(pbs, name)
        want = f(expanded, **kwargs, **extra)
        got = f(table, count="count", **kwargs, **extra)
        pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_counted_per_group_path_equals_the_expanded_table(per_group):
    rng = np.random.default_rng(4)
    table = make_table(rng, groups=8)
    table["count"] = rng.integers(0, 5, len(table))
    table.loc[table.groupby(["site", "system", "split", "label"]).cumcount() == 0, "count"] = 2
    for name, kwargs in CALLS:
        f = getattr(pbs, name)
        got = f(table, count="count", by="site", **kwargs)
        want = f(expand(table), by="site", **kwargs)
        pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_a_single_large_counted_system_equals_the_expanded_table():
    rng = np.random.default_rng(8)
    n = 40_000  # beyond the selection's minimum: the uncounted EER would not sort
    genuine = rng.random(n) < 0.2
    table = pd.DataFrame({"system": "s", "trial": np.arange(n), "label": genuine,
                          "score": np.round(rng.normal(genuine * 2.0, 1.0), 2),
                          "count": rng.integers(1, 3, n)})
    for name in ("eer", "summary"):
        f = getattr(pbs, name)
        pd.testing.assert_frame_equal(f(table, count="count"), f(expand(table)),
                                      check_exact=True)


def test_rows_counted_zero_are_no_trials():
    table = pd.DataFrame({"system": "s", "trial": [1, 2, 3, 4, 5], "label": [1, 0, 1, 0, 0],
                          "score": [0.9, 0.1, np.nan, 0.3, 0.8], "count": [2, 3, 0, 1, 0]})
    # the NaN row is counted 0: not a trial, so not an error under nonfinite="raise"
    got = pbs.eer(table, count="count")
    assert (got.n_genuine.item(), got.n_impostor.item()) == (2, 4)
    pd.testing.assert_frame_equal(got, pbs.eer(expand(table)), check_exact=True)


def test_integral_float_counts_are_counts():
    table = pd.DataFrame({"system": "s", "trial": [1, 2, 3], "label": [1, 0, 0],
                          "score": [0.9, 0.1, 0.5], "count": [2.0, 1.0, 3.0]})
    assert pbs.summary(table, count="count").n_impostor.item() == 4


@pytest.mark.parametrize(("values", "message"), [
    ([1, -1, 2], ERROR_COUNT_VALUE.split("{")[0]),
    ([1.0, 0.5, 2.0], ERROR_COUNT_VALUE.split("{")[0]),
    ([1.0, np.nan, 2.0], ERROR_COUNT_VALUE.split("{")[0]),
    (pd.array([1, None, 2], dtype="Int64"), ERROR_COUNT_VALUE.split("{")[0]),
    ([True, False, True], ERROR_COUNT_DTYPE.split("{")[0]),
    (["1", "2", "3"], ERROR_COUNT_DTYPE.split("{")[0]),
    ([2**52, 2**52, 1], ERROR_COUNT_TOTAL.split("{")[0]),
    ([0, 0, 0], ERROR_EMPTY),
])
def test_bad_counts_are_named(values, message):
    table = pd.DataFrame({"system": "s", "trial": [1, 2, 3], "label": [1, 0, 0],
                          "score": [0.9, 0.1, 0.5], "count": values})
    for f in (pbs.eer, pbs.error_rates, pbs.dcf, pbs.summary):
        with pytest.raises(SchemaError, match=f"^{re.escape(message)}"):
            f(table, count="count")


def test_a_missing_count_column_is_named():
    table = pbs.datasets.example_trials()
    with pytest.raises(SchemaError, match="missing column"):
        pbs.eer(table, count="weight")


def test_the_input_is_not_modified():
    table = pd.DataFrame({"system": "s", "trial": [1, 2, 3, 4], "label": [1, 0, 0, 1],
                          "score": [0.9, 0.1, 0.5, 0.2], "count": [2, 0, 3, 1]})
    before = table.copy()
    pbs.summary(table, count="count")
    pd.testing.assert_frame_equal(table, before)


def test_dask_refuses_counts():
    dd = pytest.importorskip("dask.dataframe")
    from pandas_biosig import outofcore
    from pandas_biosig.outofcore._engine import ERROR_COUNT

    ddf = dd.from_pandas(pbs.datasets.example_trials(), npartitions=2)
    for name in ("eer", "error_rates", "dcf", "summary"):
        with pytest.raises(ValueError, match=f"^{ERROR_COUNT.format(count='n')[:20]}"):
            getattr(outofcore, name)(ddf, count="n")


@pytest.mark.parametrize(("a", "b", "repeated"), [
    ([5, 3, 2], [3, 1, 2], False), ([5, 3, 2], [3, 1, 3], True),
    ([5.0, 3.0, 2.5], [0.0, 2.5, 3.0], False), ([5.0, 3.0, 2.5], [0.0, 2.5, -0.0], True),
    (["x", "y", "b"], ["a", "b", "y"], False), (["x", "y", "b"], ["a", "b", "a"], True),
    (np.array([5, 3, 9], np.uint16), np.array([9, 1, 5], np.uint16), False),
    (np.array([5, 3, 9], np.uint16), np.array([9, 1, 9], np.uint16), True),
])
def test_a_repeated_trial_id_is_found_in_its_group_only(a, b, repeated):
    # ids shared by two groups are fine; an id twice within a group is an error, whether
    # the ids are numbers in no order, floats (-0.0 is 0.0) or strings
    table = pd.DataFrame({"system": ["a"] * 3 + ["b"] * 3,
                          "trial": np.concatenate([np.asarray(a), np.asarray(b)]),
                          "label": [1, 0, 0, 1, 0, 0], "score": np.arange(6.0)})
    if not repeated:
        assert len(pbs.eer(table)) == 2
        return
    with pytest.raises(SchemaError, match="system 'b' has 1 duplicate trial id"):
        pbs.eer(table)


@pytest.mark.parametrize("name", ["eer", "summary", "error_rates", "dcf"])
def test_a_by_column_named_like_a_result_column(name, monkeypatch):
    # the frame is then assembled from rows, keys and values apart, as before
    table = make_table(np.random.default_rng(2), groups=12).rename(columns={"site": "threshold"})
    _compare(table, name, {}, monkeypatch, by="threshold")


@pytest.mark.parametrize("groups", [1, 3])
def test_a_repeated_trial_id_in_a_large_group(groups):
    # groups beyond the sorted check are hashed: one group on its own, several by pairs
    rng = np.random.default_rng(0)
    n = 20_000
    frames = [pd.DataFrame({"system": f"s{i}", "trial": rng.permutation(n),
                            "label": np.arange(n) % 3 == 0, "score": rng.normal(size=n)})
              for i in range(groups)]
    table = pd.concat(frames, ignore_index=True)
    assert len(pbs.eer(table)) == groups
    table.loc[len(table) - 1, "trial"] = table["trial"].iloc[len(table) - 2]
    with pytest.raises(SchemaError, match=f"system 's{groups - 1}' has 1 duplicate trial id"):
        pbs.eer(table)
