"""Counted trials (``count=``): every public table function gives, on a counted table, the
numbers of the table with each row repeated ``count`` times, to the bit.

The expanded table is built here independently of the package: each row repeated
(``df.loc[df.index.repeat(df[count])]``), the count column dropped, and the copies given
trial ids of their own as docs/schema.md states them (the ``k``-th copy of the row whose
trial id ranks ``r``-th among the distinct ids of the rows counted at least once gets
``r * K + k``, ``K`` the largest count), the same in every system so that paired
functions pair copy by copy. Bootstraps are called with the same seed on both tables.
"""

from __future__ import annotations

import dataclasses
import inspect
import warnings

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pandas_biosig as pbs
from pandas_biosig._core.counted import (
    COUNT_PARAMETER_DOC,
    COUNT_REFUSED_DOC,
    ERROR_COUNT_EXPANDED,
    ERROR_COUNT_UNSUPPORTED,
    MAX_EXPANDED_TRIALS,
    expand_counts,
)
from pandas_biosig._core.schema import (
    ERROR_COUNT_DTYPE,
    ERROR_COUNT_VALUE,
    ERROR_EMPTY,
    ERROR_MISSING_COLUMNS,
    SchemaError,
)

# ------------------------------------------------------------------ the functions
#: every public function that takes a trial table, by kind of table, with the arguments
#: of a small, quick call
VERIFICATION = {
    "eer": {}, "error_rates": {}, "dcf": {}, "summary": {}, "det": {}, "roc": {},
    "rocch": {}, "bayes_error": {}, "epc": {}, "ci": {}, "bootstrap": {},
    "paired_bootstrap": dict(system_a="cnn", system_b="gmm"), "compare": {},
    "det_band": {}, "frr_at_far": {}, "epc_bootstrap": {},
    "threshold_guarantee": dict(target=0.2), "fold_metrics": {}, "fold_summary": {},
    "compare_folds": {}, "calibrate": dict(folds=2), "fuse": dict(folds=2),
    "compare_fusion": dict(folds=2), "cllr_curve": {},
}
PAD = {"pad_metrics": {}, "pad_rates": {}, "pad_det": {}, "pad_compare": {}}
VULNERABILITY = {"vulnerability": {}, "iapmr": {}, "epsc": {}}
DEMOGRAPHIC = {"fairness": {}, "fdr_curve": {}, "group_rates": {}, "cross_group_fmr": {},
               "compare_groups": {}, "compare_fairness": {}}
TANDEM = {"tdcf": {}, "tdcf_curve": {}, "teer": {}, "tandem_bootstrap": {},
          "tandem_compare": {}, "sasv_score": {}, "cm_metrics": {}, "adcf": {}}
COUNTED = {**{n: ("verification", k) for n, k in VERIFICATION.items()},
           **{n: ("pad", k) for n, k in PAD.items()},
           **{n: ("vulnerability", k) for n, k in VULNERABILITY.items()},
           **{n: ("demographic", k) for n, k in DEMOGRAPHIC.items()},
           **{n: ("tandem", k) for n, k in TANDEM.items()}}
#: the identification functions: rows are a probe's scores against each reference
REFUSED = ["cmc", "cmc_difference", "compare_identification", "detection_identification_rate",
           "dir_curve", "probe_ranks", "recognition_rate"]
#: public functions that take no trial table (a trial table's builders and readers,
#: scalar tools, result-frame tools)
NOT_TABLES = {"det_grid", "eer_bound_table", "pairwise_matrix", "ppndf", "tandem_table",
              "to_latex", "to_markdown"}


def public_functions() -> list[str]:
    return [n for n in pbs.__all__ if inspect.isfunction(getattr(pbs, n))
            and not n.startswith("read_")]


def test_every_public_table_function_takes_count():
    """A new public function must be listed above: counted, refused or no table."""
    names = set(public_functions())
    listed = set(COUNTED) | set(REFUSED) | NOT_TABLES
    assert names - listed == set(), "a public function neither takes count= nor is listed"
    assert listed - names == set()
    for name in [*COUNTED, *REFUSED]:
        parameter = inspect.signature(getattr(pbs, name)).parameters.get("count")
        assert parameter is not None, name
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default is None


@pytest.mark.parametrize("name", [*COUNTED, *REFUSED])
def test_count_has_one_wording(name):
    doc = inspect.getdoc(getattr(pbs, name))
    want = COUNT_REFUSED_DOC if name in REFUSED else COUNT_PARAMETER_DOC
    assert " ".join(want.split()) in " ".join(doc.split()), name


@pytest.mark.parametrize("name", REFUSED)
def test_identification_functions_refuse_count_by_name(name):
    search = pbs.datasets.example_search()
    with pytest.raises(SchemaError, match="takes no counted table") as err:
        getattr(pbs, name)(search, count="n")
    assert str(err.value).startswith(ERROR_COUNT_UNSUPPORTED.split(":")[0].format(count="n"))


# ------------------------------------------------------------------ the tables
def _subset(table, rng, per_class, ties):
    """Some trials of each class of an example table (every system keeps them), scores
    blurred (the same noise for a trial id in every system) so that the classes overlap,
    on a coarse grid when ``ties``."""
    cls = next(c for c in ("label", "kind") if c in table.columns)
    ids = np.concatenate([rng.choice(t["trial"].unique(), size=per_class, replace=False)
                          for _, t in table.groupby(cls, sort=True)])
    out = table[table["trial"].isin(ids)].reset_index(drop=True)
    trial = out["trial"].to_numpy()
    for col in [c for c in out.columns if c.endswith("score")]:
        noise = rng.normal(0.0, 3.0, trial.max() + 1)[trial]
        out[col] = np.round(out[col].to_numpy() + noise, 0 if ties else 3)
    return out


def _counts(table, rng):
    """Counts 0..4, one per trial id (a trial weighs the same in every system); the first
    few trials of every stratum are counted at least once, so no group loses a class."""
    ids = table["trial"].unique()
    per_id = pd.Series(rng.integers(0, 5, ids.size), index=ids)
    strata = [c for c in ("split", "label", "kind", "group", "pai") if c in table.columns]
    first = table.groupby(strata, dropna=False, sort=False).head(3)["trial"].unique()
    per_id[first] = np.maximum(per_id[first], 1)
    return per_id.loc[table["trial"]].to_numpy()


EXAMPLES = {
    "verification": lambda: pbs.datasets.example_trials().query("system in ['cnn', 'gmm']"),
    "pad": pbs.datasets.example_pad,
    "vulnerability": pbs.datasets.example_vulnerability,
    "demographic": pbs.datasets.example_demographic_trials,
    "tandem": pbs.datasets.example_tandem,
}
SIZES = {"verification": 60, "pad": 40, "vulnerability": 20, "demographic": 60,
         "tandem": 25}


@st.composite
def counted_tables(draw, kind):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    table = _subset(EXAMPLES[kind]().reset_index(drop=True), rng, SIZES[kind],
                    ties=draw(st.booleans()))
    if kind == "verification":
        table["fold"] = table["trial"] % 2
    if kind == "tandem":
        table = pbs.sasv_score(table)
    if draw(st.booleans()):  # subject resampling, or trial resampling without subjects
        table = table.drop(columns="subject")
    if kind in ("verification", "tandem") and draw(st.booleans()):
        table = table[table["split"] == "dev"].drop(columns="split").reset_index(drop=True)
    table["n"] = _counts(table, rng)
    return table.sample(frac=1.0, random_state=rng.integers(2**31)).reset_index(drop=True)


def expanded(table, count="n"):
    out = table.loc[table.index.repeat(table[count])].drop(columns=count)
    copy = out.groupby(level=0).cumcount().to_numpy()
    kept = table[table[count] > 0]
    rank = pd.Series(pd.factorize(kept["trial"], sort=True)[0], index=kept.index)
    out["trial"] = rank.loc[out.index].to_numpy() * int(table[count].max()) + copy
    return out


def assert_same(got, want):
    if isinstance(want, pd.DataFrame):
        pd.testing.assert_frame_equal(got, want, check_exact=True)
    elif isinstance(want, xr.Dataset | xr.DataArray):
        xr.testing.assert_identical(got, want)
    elif dataclasses.is_dataclass(want):
        for field in dataclasses.fields(want):
            assert_same(getattr(got, field.name), getattr(want, field.name))
    elif isinstance(want, np.ndarray):
        np.testing.assert_array_equal(got, want, strict=True)
    elif isinstance(want, tuple | list):
        assert type(got) is type(want) and len(got) == len(want)
        for a, b in zip(got, want, strict=True):
            assert_same(a, b)
    else:
        assert type(got) is type(want) and (got == want or (got != got and want != want))


def _call(name, kwargs, table, **extra):
    f = getattr(pbs, name)
    parameters = inspect.signature(f).parameters
    if "n_resamples" in parameters:
        kwargs = {"n_resamples": 40, **kwargs}
    if "seed" in parameters:
        kwargs = {"seed": 7, **kwargs}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return f(table, **kwargs, **extra)


@pytest.mark.parametrize("name", list(COUNTED))
def test_a_counted_table_equals_its_expanded_table(name):
    kind, kwargs = COUNTED[name]

    @settings(max_examples=3, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(counted_tables(kind))
    def check(table):
        want = _call(name, kwargs, expanded(table))
        got = _call(name, kwargs, table, count="n")
        assert_same(got, want)

    check()


# ------------------------------------------------------------------ the expansion
def test_expansion_numbers_copies_by_trial_rank_and_copy():
    table = pd.DataFrame({"system": ["a", "a", "b", "b"], "trial": [5, 3, 5, 3],
                          "label": [1, 0, 1, 0], "score": [0.1, 0.2, 0.3, 0.4],
                          "n": [2, 0, 3, 1]})
    out = expand_counts(table, "n")
    # ids 3 and 5 rank 0 and 1 among the rows counted at least once, K = 3
    assert out["trial"].tolist() == [3, 4, 3, 4, 5, 0]
    assert out["system"].tolist() == ["a", "a", "b", "b", "b", "b"]
    assert "n" not in out.columns and "n" in table.columns  # the input is not mutated
    assert expand_counts(table, None) is table


def test_a_table_counted_once_throughout_gives_the_uncounted_numbers():
    rng = np.random.default_rng(1)
    table = _subset(EXAMPLES["verification"]().reset_index(drop=True), rng, 30, ties=True)
    once = table.assign(n=1)
    for name in ("bootstrap", "compare", "det"):
        want = _call(name, {}, table)
        assert_same(_call(name, {}, once, count="n"), want)


@pytest.mark.parametrize(("counts", "message"), [
    ([1, -1, 1, 1], ERROR_COUNT_VALUE.split("{n}")[0]),
    ([1, 0.5, 1, 1], ERROR_COUNT_VALUE.split("{n}")[0]),
    ([1, np.nan, 1, 1], ERROR_COUNT_VALUE.split("{n}")[0]),
    (["1", "2", "1", "1"], ERROR_COUNT_DTYPE.split("{dtype}")[0]),
    ([0, 0, 0, 0], ERROR_EMPTY),
])
def test_bad_counts_are_named_errors(counts, message):
    table = pd.DataFrame({"system": "s", "trial": [1, 2, 3, 4], "label": [1, 0, 1, 0],
                          "score": [0.1, 0.2, 0.3, 0.4], "n": counts})
    prefix = message.format(column="n")
    for name in ("det", "bootstrap"):
        with pytest.raises(SchemaError) as err:
            getattr(pbs, name)(table, count="n")
        assert str(err.value).startswith(prefix)


def test_a_missing_count_column_is_named():
    table = pbs.datasets.example_trials()
    with pytest.raises(SchemaError) as err:
        pbs.roc(table, count="n")
    assert str(err.value) == ERROR_MISSING_COLUMNS.format(missing=["n"],
                                                          found=list(table.columns))


def test_an_expansion_beyond_the_bound_is_refused_before_allocating():
    table = pd.DataFrame({"system": "s", "trial": [1, 2], "label": [1, 0],
                          "score": [0.1, 0.2], "n": [MAX_EXPANDED_TRIALS, 1]})
    with pytest.raises(SchemaError) as err:
        pbs.det(table, count="n")
    assert str(err.value) == ERROR_COUNT_EXPANDED.format(
        column="n", total=MAX_EXPANDED_TRIALS + 1, limit=MAX_EXPANDED_TRIALS)
    # the native counted path has no such bound
    assert pbs.eer(table, count="n")["n_impostor"].item() == 1
