"""PAD tables of many groups read in vectorised passes (pandas_biosig.pad._segmented) give
the per-group numbers to the bit: random tables with ties, failures to acquire, groups of
one species, species absent from some groups, dev/eval protocols and every criterion."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig import SchemaError
from pandas_biosig.pad import _metrics, _segmented
from pandas_biosig.pad._table import (
    _default_text_dtype,
    _derived_frame,
    _is_bonafide,
    _species_codes,
    validate_pad,
)

SPECIES = np.array(["print", "replay", "mask", "makeup"], dtype=object)


def make_pad(rng, groups=24, *, splits=True, fta=False, tiny=True):
    """``groups`` (site, system) pairs, each with dev and eval presentations (or one
    split): integer scores (ties everywhere) in a third of them, a random subset of the
    four species in each (one species in some), two presentations in some."""
    frames = []
    for i in range(groups):
        size = 2 if (tiny and i % 8 == 3) else int(rng.integers(3, 70))
        bona = rng.random(size) < rng.uniform(0.2, 0.6)
        bona[0], bona[1] = True, False
        kinds = SPECIES[: 1 + i % 4] if i % 5 else SPECIES[[2]]
        pai = np.where(bona, None, kinds[rng.integers(0, kinds.size, size)])
        if i % 3 == 0:
            scores = rng.integers(-3, 4, size).astype(float)
        else:
            scores = np.round(rng.normal(bona * 1.5, 1.0), 2)
        for split, shift in (("dev", 0.0), ("eval", 0.25))[: 2 if splits else 1]:
            frames.append(pd.DataFrame({
                "site": f"site{i % 3}", "system": f"s{i // 3}", "split": split,
                "trial": rng.permutation(size) + 1000 * i,
                "label": np.where(bona, "bona fide", "attack"), "pai": pai,
                "score": scores + shift, "subject": np.arange(size) % 4 + 10 * i}))
    table = pd.concat(frames, ignore_index=True)
    if fta:
        first = table.groupby(["site", "system", "split", "label"]).cumcount() == 0
        table.loc[(rng.random(len(table)) < 0.1) & ~first, "score"] = np.nan
    return table


def _loop(f, table, **kwargs):
    """``f`` with the segments switched off: each group through its own sweep."""
    with pytest.MonkeyPatch.context() as m:
        m.setattr(_metrics, "segments_of", lambda t: None)
        return f(table, **kwargs)


def _compare(f, table, **kwargs):
    assert _segmented.segments_of(validate_pad(
        table, by=kwargs.get("by"), subject=None, nonfinite=kwargs.get("nonfinite", "raise")))
    got = f(table, **kwargs)
    want = _loop(f, table, **kwargs)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    return got


SYSTEMS = {f"s{i}": float(t) for i, t in enumerate(np.linspace(-1, 2, 8))}
METRICS = [
    {}, dict(threshold="apcer", target=0.05), dict(threshold="apcer", target=0.0),
    dict(threshold="apcer", target=0.3), dict(threshold="bpcer", target=0.1),
    dict(threshold="bpcer", target=0.0), dict(threshold=0.5), dict(threshold=SYSTEMS),
    dict(threshold=np.inf), dict(on=None, apply_to=None), dict(on="eval"),
    dict(threshold="apcer", target=0.1, apply_to=["dev", "eval"]),
    dict(threshold="bpcer", target=0.2, on=None, apply_to="eval"),
    dict(orientation="distance"), dict(orientation="distance", threshold=-0.5),
    dict(orientation="distance", threshold="apcer", target=0.05),
]


@pytest.mark.parametrize("kwargs", METRICS, ids=[str(i) for i in range(len(METRICS))])
@pytest.mark.parametrize("by", [None, "site", ["site", "split"]])
def test_pad_metrics_equals_the_per_group_path(kwargs, by):
    if by == ["site", "split"]:  # the split column a by column: no protocol of splits
        kwargs = {k: v for k, v in kwargs.items() if k not in ("on", "apply_to")}
        kwargs["split"] = None
    got = _compare(pbs.pad_metrics, make_pad(np.random.default_rng(3)), by=by, **kwargs)
    assert len(got) > 1


@pytest.mark.parametrize("kwargs", METRICS[:9], ids=[str(i) for i in range(9)])
@pytest.mark.parametrize("ci_method", ["wilson", "beta", "cluster"])
def test_pad_rates_equals_the_per_group_path(kwargs, ci_method):
    got = _compare(pbs.pad_rates, make_pad(np.random.default_rng(4)), by="site",
                   ci_method=ci_method, **kwargs)
    assert (got["n"] == 0).any()  # a species absent from a group: its row is empty


def test_the_subject_bootstrap_draws_as_the_per_group_path():
    table = make_pad(np.random.default_rng(5))
    _compare(pbs.pad_rates, table, by="site", ci_method="bootstrap", n_resamples=200, seed=9)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    got = pbs.pad_rates(table, ci_method="bootstrap", n_resamples=50, seed=rng_a)
    want = _loop(pbs.pad_rates, table, ci_method="bootstrap", n_resamples=50, seed=rng_b)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert rng_a.random() == rng_b.random()  # as many draws as the per-group rows made


@pytest.mark.parametrize("nonfinite", ["drop", "reject"])
@pytest.mark.parametrize("kwargs", METRICS[:6], ids=[str(i) for i in range(6)])
def test_failures_to_acquire_as_the_per_group_path(nonfinite, kwargs):
    table = make_pad(np.random.default_rng(6), fta=True)
    assert table["score"].isna().any()
    _compare(pbs.pad_metrics, table, by="site", nonfinite=nonfinite, **kwargs)
    _compare(pbs.pad_rates, table, by="site", nonfinite=nonfinite, **kwargs)


@pytest.mark.parametrize("seed", range(4))
def test_pad_metrics_equals_each_group_on_its_own(seed):
    # without splits every group is a (site, system) sub-table of its own
    table = make_pad(np.random.default_rng(seed), splits=False)
    for kwargs in ({}, dict(threshold="apcer", target=0.05), dict(threshold="bpcer", target=0.1)):
        got = _compare(pbs.pad_metrics, table, by="site", **kwargs)
        parts = [pbs.pad_metrics(sub, by="site", **kwargs)
                 for _, sub in table.groupby(["site", "system"], sort=False)]
        want = pd.concat(parts, ignore_index=True)
        order = got.set_index(["site", "system"]).index
        want = want.set_index(["site", "system"]).loc[order].reset_index()
        # the species attaining the largest APCER is the first in the table's order of
        # species on ties, and a sub-table lists its species in its own order
        pd.testing.assert_frame_equal(got.drop(columns="apcer_max_species"),
                                      want.drop(columns="apcer_max_species"), check_exact=True)


def test_the_example_table_and_many_tiny_groups():
    ex = pbs.datasets.example_pad()
    for kwargs in ({}, dict(threshold="apcer", target=0.05, apply_to=["dev", "eval"])):
        _compare(pbs.pad_metrics, ex, **kwargs)
        _compare(pbs.pad_rates, ex, **kwargs)
    rng = np.random.default_rng(2)
    n = 2000
    tiny = pd.DataFrame({"grp": np.repeat(np.arange(n // 2), 2), "system": "a",
                         "trial": np.arange(n), "label": np.tile(["bona fide", "attack"], n // 2),
                         "pai": np.tile([None, "print"], n // 2),
                         "score": rng.integers(0, 3, n).astype(float)})
    got = _compare(pbs.pad_metrics, tiny, by="grp")
    assert set(got["n_species"]) == {1}


def test_large_groups_keep_their_own_sweep(monkeypatch):
    table = make_pad(np.random.default_rng(8))
    monkeypatch.setattr(_segmented, "SMALL_GROUP", 40)
    assert _segmented.segments_of(validate_pad(table, by="site", subject=None)) is None
    got = pbs.pad_metrics(table, by="site")
    monkeypatch.undo()
    pd.testing.assert_frame_equal(got, pbs.pad_metrics(table, by="site"), check_exact=True)


def test_the_same_errors_as_the_per_group_path():
    table = make_pad(np.random.default_rng(9))
    one_class = table[~((table.site == "site1") & (table.label == "attack"))]
    for f, kwargs in [(pbs.pad_metrics, dict(by="site")),
                      (pbs.pad_metrics, dict(on="dev", apply_to="eval"))]:
        data = one_class if "on" not in kwargs else table[
            ~((table.split == "dev") & (table.system == "s2"))]
        with pytest.raises(SchemaError) as got:
            f(data, **kwargs)
        with pytest.raises(SchemaError) as want:
            _loop(f, data, **kwargs)
        assert str(got.value) == str(want.value)


# ----------------------------------------------------------------- the validation
def _old_species(values: pd.Series, bonafide: np.ndarray):
    """The species codes as validate_pad computed them before (the bona fide rows masked,
    then factorized)."""
    codes, species = pd.factorize(values.where(~pd.Series(bonafide), None))
    return codes, list(species)


@pytest.mark.parametrize("kind", ["str", "object", "object_int", "category", "int", "float"])
@pytest.mark.parametrize("bona_values", [False, True])
def test_species_codes_equal_factorizing_the_attacks_alone(kind, bona_values):
    rng = np.random.default_rng(12)
    n = 500
    bonafide = rng.random(n) < 0.3
    raw = rng.integers(0, 5, n)
    if kind in ("int", "float", "object_int"):
        values = pd.Series(raw if kind == "int" else raw.astype(float)) \
            if kind != "object_int" else pd.Series(list(raw), dtype=object)
    else:
        names = np.array(["b", "a", "e", "d", "c"], dtype=object)[raw]
        values = {"str": pd.Series(names, dtype=_default_text_dtype()),
                  "object": pd.Series(names, dtype=object),
                  "category": pd.Series(pd.Categorical(names, categories=list("edcba")))}[kind]
    if not bona_values and kind not in ("int",):
        values = values.where(~pd.Series(bonafide), None)
    codes, species, missing = _species_codes(values, bonafide)
    want_codes, want_species = _old_species(values, bonafide)
    assert np.array_equal(codes, want_codes)
    assert [s.item() if isinstance(s, np.generic) else s for s in species] == \
        [s.item() if isinstance(s, np.generic) else s for s in want_species]
    assert not missing.any()


def test_blank_and_missing_species_are_found_as_before():
    values = pd.Series(["print", " ", None, "print", "", "mask"], dtype=object)
    bonafide = np.array([False, False, False, True, False, False])
    for column in (values, values.astype(_default_text_dtype())):
        missing = _species_codes(column, bonafide)[2]
        assert missing.tolist() == [False, True, True, False, True, False]


@pytest.mark.parametrize("dtype", ["category", "str", "object", "int", "Int64", "datetime"])
def test_the_derived_frame_is_the_round_trip_through_numpy(dtype):
    rng = np.random.default_rng(13)
    n = 40
    base = np.array(["b", "a", "c"], dtype=object)[rng.integers(0, 3, n)]
    column = {"category": pd.Series(pd.Categorical(base, categories=["c", "b", "a", "z"])),
              "str": pd.Series(base, dtype=_default_text_dtype()),
              "object": pd.Series(base, dtype=object), "int": pd.Series(rng.integers(0, 3, n)),
              "Int64": pd.Series(rng.integers(0, 3, n), dtype="Int64"),
              "datetime": pd.Series(pd.date_range("2020", periods=n, tz="UTC"))}[dtype]
    data = pd.DataFrame({"system": column, "label": np.where(rng.random(n) < 0.5, "attack",
                                                             "bona fide"),
                         "score": rng.random(n)}, index=np.arange(n) * 3)
    bonafide = _is_bonafide(data["label"], "label")
    want = pd.DataFrame({c: data[c].to_numpy() for c in data.columns if c != "label"})
    want["label"] = bonafide
    pd.testing.assert_frame_equal(_derived_frame(data, "label", bonafide), want,
                                  check_exact=True)
