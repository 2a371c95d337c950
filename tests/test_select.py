"""The EER crossing by selection equals the sorted sweep to the last bit."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import pandas_biosig as pbs
from pandas_biosig._kernels import select
from pandas_biosig._kernels.rates import Sweep, interpolated_eer, threshold_eer

SETTINGS = settings(max_examples=150, deadline=None)


def bits(x):
    """The float's bits; ``-0.0`` and ``0.0`` are one score (which of the two a sort puts
    first is up to its algorithm, so the sorted sweep itself may report either)."""
    return None if x is None else (float(x) + 0.0).hex()


def key(points):
    """Every number of the two operating points, floats as their bits."""
    return [
        None
        if pt is None
        else (bits(pt.threshold), pt.fa, pt.fr, pt.n, pt.p, bits(pt.far), bits(pt.frr))
        for pt in points
    ]


def sorted_points(scores, genuine):
    return Sweep.from_scores(np.asarray(scores, float), np.asarray(genuine, bool)).eer_points()


def assert_same(points, scores, genuine):
    ref = sorted_points(scores, genuine)
    assert key(points) == key(ref)
    v, op = threshold_eer(*points)
    v_ref, op_ref = threshold_eer(*ref)
    assert (bits(v), key([op])) == (bits(v_ref), key([op_ref]))
    assert bits(interpolated_eer(*points)) == bits(interpolated_eer(*ref))


# coarse grids make ties everywhere, also at the crossing and at the bracket's ends
grid = st.integers(-12, 12).map(lambda v: v / 4)
fine = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)
wild = st.one_of(grid, fine, st.sampled_from([-np.inf, 1e308, -1e308, 5e-324, 0.0, -0.0]))


@st.composite
def tables(draw, elements=grid, max_size=300):
    n = draw(st.integers(2, max_size))
    scores = draw(arrays(np.float64, n, elements=elements))
    genuine = draw(arrays(np.bool_, n))
    i, j = draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))
    if i == j:
        j = (i + 1) % n
    genuine[i], genuine[j] = True, False  # both classes present
    return scores, genuine


@SETTINGS
@given(tables(st.one_of(grid, wild)), st.data())
def test_any_bracket_is_refused_or_exact(table, data):
    """Whatever bracket the sample proposes, a verified answer is the sorted one."""
    scores, genuine = table
    ends = st.one_of(st.sampled_from(list(scores)), st.sampled_from([-np.inf, np.inf]), grid)
    lo, hi = sorted([data.draw(ends), data.draw(ends)])
    if np.isnan(lo) or np.isnan(hi):
        return
    p = int(genuine.sum())
    found = select._in_bracket(scores, genuine, lo, hi, genuine.size - p, p)
    if found is not None:
        assert_same(found, scores, genuine)


@SETTINGS
@given(
    tables(st.one_of(grid, fine, wild), max_size=600),
    st.integers(1, 80),
    st.lists(st.sampled_from([0.0, 0.3, 1.0, 4.0]), min_size=1, max_size=3),
    st.integers(0, 3),
)
def test_eer_points_equal_the_sorted_sweep(table, sample_size, margins, seed):
    scores, genuine = table
    found = select.eer_points(
        scores,
        genuine,
        min_size=0,
        sample_size=sample_size,
        margins=tuple(margins),
        max_fraction=1.0,
        seed=seed,
    )
    assert_same(found, scores, genuine)


@SETTINGS
@given(tables(st.one_of(grid, fine, wild), max_size=400))
def test_small_tables_sorted_whole_equal_the_sorted_sweep(table):
    scores, genuine = table
    assert_same(select.eer_points(scores, genuine), scores, genuine)


@SETTINGS
@given(tables(grid, max_size=2000))
def test_default_tuning_equals_the_sorted_sweep(table):
    scores, genuine = table
    assert_same(select.eer_points(scores, genuine, min_size=0), scores, genuine)


def binormal(n, seed=0, share=0.1, mu=3.0, levels=None):
    rng = np.random.default_rng(seed)
    genuine = rng.random(n) < share
    scores = rng.normal(np.where(genuine, mu, 0.0), 1.0)
    if levels is not None:
        scores = np.round(scores * levels) / levels
    return scores, genuine


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(),
        dict(share=0.5),
        dict(share=0.01),
        dict(share=0.0002),  # a class this small is taken whole into the sample
        dict(levels=20),  # heavy ties around the crossing
        dict(mu=0.0),  # no separation: crossing in the middle
        dict(mu=8.0),  # almost separable
    ],
)
def test_selection_is_used_and_exact(kwargs):
    scores, genuine = binormal(200_000, **kwargs)
    ref = sorted_points(scores, genuine)
    original = select._sorted
    select._sorted = None  # a fallback to the sort would fail
    try:
        found = select.eer_points(scores, genuine, min_size=0)
    finally:
        select._sorted = original
    assert key(found) == key(ref)


def test_two_score_levels_may_sort_but_stay_exact():
    scores, genuine = binormal(200_000, levels=2)
    assert_same(select.eer_points(scores, genuine, min_size=0), scores, genuine)


@pytest.mark.parametrize(
    "scores, genuine",
    [
        ([1.0, 1.0, 1.0, 1.0], [True, False, False, False]),  # all equal: reject-all
        ([0.0, 1.0], [True, False]),  # one of each, reversed
        ([0.0, 1.0], [False, True]),  # separable
        ([0.0, 0.0, 1.0, 1.0, 2.0], [False, True, False, True, True]),  # ties at the crossing
        ([-np.inf, -np.inf, 0.0, 1.0], [True, False, False, True]),  # failures to acquire
        ([-np.inf, -np.inf], [True, False]),  # nothing acquired
        ([1e308, -1e308, 1e308, 1e308], [True, False, False, True]),  # midpoint overflows
        ([5e-324, 0.0, -0.0, 5e-324], [True, False, True, False]),  # adjacent floats
        ([np.inf, 0.0, 1.0, np.inf], [True, False, False, False]),  # +inf scores
    ],
)
def test_adversarial_cases(scores, genuine):
    scores = np.array(scores, float)
    genuine = np.array(genuine, bool)
    for size in (1, 2, 3, 50):
        for margins in ((0.0,), (0.0, 0.0), (4.0, 16.0)):
            found = select.eer_points(
                scores,
                genuine,
                min_size=0,
                sample_size=size,
                margins=margins,
                max_fraction=1.0,
            )
            assert_same(found, scores, genuine)


@pytest.mark.parametrize("flip", [False, True])
def test_one_genuine_among_many(flip):
    scores, genuine = binormal(100_000, share=0.0)
    genuine[12345] = True
    if flip:  # one impostor among many genuines
        scores, genuine = -scores, ~genuine
    assert_same(select.eer_points(scores, genuine, min_size=0), scores, genuine)


def test_window_edge_on_a_tie_run():
    # the crossing at the lowest score of the bracket, a tie run across its lower end
    scores = np.repeat(np.arange(10.0), 1000)
    genuine = np.zeros(scores.size, bool)
    genuine[scores >= 5] = True
    genuine[::7] = ~genuine[::7]
    p = int(genuine.sum())
    for lo in np.arange(10.0):
        for hi in np.arange(lo, 10.0):
            found = select._in_bracket(scores, genuine, lo, hi, scores.size - p, p)
            if found is not None:
                assert_same(found, scores, genuine)


def test_one_class_is_an_error_as_in_the_sweep():
    with pytest.raises(ValueError, match="both classes"):
        select.eer_points(np.zeros(3), np.zeros(3, bool), min_size=0)


@pytest.mark.parametrize("method", ["threshold", "interpolated"])
@pytest.mark.parametrize("orientation", ["similarity", "distance"])
def test_eer_frame_equals_the_sorted_sweep(method, orientation):
    scores, genuine = binormal(150_000, seed=3, levels=50)
    scores[::1001] = np.nan
    table = pd.DataFrame(
        {
            "system": np.where(np.arange(scores.size) % 3, "a", "b"),
            "trial": np.arange(scores.size),
            "label": genuine,
            "score": -scores if orientation == "distance" else scores,
        }
    )
    out = pbs.eer(table, method=method, orientation=orientation, nonfinite="reject")
    sign = -1.0 if orientation == "distance" else 1.0
    for row in out.itertuples():
        mine = (table["system"] == row.system).to_numpy() & np.isfinite(scores)
        sw = Sweep.from_scores(scores[mine], genuine[mine])
        value, op = sw.eer_threshold()
        if method == "interpolated":
            value = sw.eer_interpolated()
        assert [bits(row.eer), bits(row.threshold), bits(row.far), bits(row.frr)] == [
            bits(value),
            bits(sign * op.threshold),
            bits(op.far),
            bits(op.frr),
        ]
        assert (row.n_genuine, row.n_impostor) == (sw.p, sw.n)
