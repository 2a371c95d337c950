"""One validator per concept: every public function taking ``confidence_level``,
``alpha``, ``alternative`` or ``adjust`` rejects the same bad value with the same message
(the constants of :mod:`pandas_biosig._validation`)."""

import importlib
import inspect
import re
from functools import cache

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig import datasets
from pandas_biosig._validation import (
    ERROR_ADJUST,
    ERROR_ALPHA,
    ERROR_ALTERNATIVE,
    ERROR_CONFIDENCE_LEVEL,
    adjust_methods,
)

BAD = {"confidence_level": 1.5, "alpha": 0.0, "alternative": "bigger", "adjust": "nope"}


def expected(param: str) -> str:
    value = BAD[param]
    if param == "confidence_level":
        return ERROR_CONFIDENCE_LEVEL.format(value=value)
    if param == "alpha":
        return ERROR_ALPHA.format(value=value)
    if param == "alternative":
        return ERROR_ALTERNATIVE.format(value=value, allowed=["two-sided", "less", "greater"])
    return ERROR_ADJUST.format(value=value, allowed=list(adjust_methods()))


@cache
def data(kind: str):
    if kind == "trials":
        return datasets.example_trials()
    if kind == "pad":
        return datasets.example_pad()
    if kind == "vulnerability":
        return datasets.example_vulnerability()
    if kind == "demographic":
        return datasets.example_demographic_trials()
    if kind == "search":
        return datasets.example_search()
    if kind == "dask":
        dd = pytest.importorskip("dask.dataframe")
        return dd.from_pandas(datasets.example_trials(), npartitions=2)
    return pd.DataFrame({"system": ["a", "b", "c"], "eer": [0.01, 0.02, 0.03]})


#: function -> (how to call it with the bad keyword).
CALLS = {
    "pandas_biosig.comparison.compare": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.folds.compare_folds": lambda f, kw: f(data("trials"), fold="split", **kw),
    "pandas_biosig.literature.eer_bound_table": lambda f, kw: f(data("reported"), n=1000, **kw),
    "pandas_biosig.outofcore.compare":
        lambda f, kw: f(data("dask"), test="hter_dependent", **kw),
    "pandas_biosig.significance.ci": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.resampling.bootstrap": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.resampling.epc_bootstrap": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.resampling.paired_bootstrap":
        lambda f, kw: f(data("trials"), system_a="cnn", system_b="lbp", **kw),
    "pandas_biosig.pad.pad_rates": lambda f, kw: f(data("pad"), **kw),
    "pandas_biosig.pad_compare.pad_compare": lambda f, kw: f(data("pad"), **kw),
    "pandas_biosig.vulnerability.iapmr": lambda f, kw: f(data("vulnerability"), **kw),
    "pandas_biosig.demographics.group_rates": lambda f, kw: f(data("demographic"), **kw),
    "pandas_biosig.demographics.compare_groups": lambda f, kw: f(data("demographic"), **kw),
    "pandas_biosig.demographics.compare_fairness": lambda f, kw: f(data("demographic"), **kw),
    "pandas_biosig.identification.recognition_rate": lambda f, kw: f(data("search"), **kw),
    "pandas_biosig.identification_tests.cmc_difference": lambda f, kw: f(data("search"), **kw),
    "pandas_biosig.identification_tests.compare_identification":
        lambda f, kw: f(data("search"), **kw),
    "pandas_biosig.stats.min_significant_eer_difference":
        lambda f, kw: f(0.05, n=1000, **kw),
    "pandas_biosig.stats.hter_test":
        lambda f, kw: f(0.1, 0.1, 0.2, 0.2, n_impostor=100, n_genuine=100, **kw),
    "pandas_biosig.stats.mcnemar": lambda f, kw: f(3, 9, **kw),
    "pandas_biosig.stats.mcnemar_table": lambda f, kw: f([[5, 3], [9, 2]], **kw),
    "pandas_biosig.stats.recognition_rate_test":
        lambda f, kw: f(0.9, 0.8, n=100, **kw),
    "pandas_biosig.stats.sign_test": lambda f, kw: f(7, 2, **kw),
}


def public_functions():
    """Every public function of the package's public modules, by qualified name."""
    names = ["comparison", "folds", "literature", "significance", "resampling", "pad",
             "pad_compare", "vulnerability", "demographics", "identification_tests", "identification", "stats", "metrics", "curves",
             "outofcore"]
    out, seen = {}, set()
    for name in names:  # a function re-exported by a later module keeps its first home
        module = importlib.import_module(f"pandas_biosig.{name}")
        for n in module.__all__:
            f = getattr(module, n)
            if inspect.isfunction(f) and id(f) not in seen:
                seen.add(id(f))
                out[f"pandas_biosig.{name}.{n}"] = f
    return out


FUNCTIONS = public_functions()
CASES = [
    pytest.param(qual, param, id=f"{qual.rsplit('.', 1)[-1]}-{param}")
    for qual, f in sorted(FUNCTIONS.items())
    for param in BAD
    if param in inspect.signature(f).parameters
]


def test_every_function_with_a_shared_option_is_checked():
    assert {qual for qual, _ in (c.values for c in CASES)} == set(CALLS)
    assert len(CASES) > 30  # sanity: the public functions were found


@pytest.mark.parametrize(("qual", "param"), CASES)
def test_same_bad_value_same_message(qual, param):
    f = FUNCTIONS[qual]
    with pytest.raises(ValueError, match=f"^{re.escape(expected(param))}$"):
        CALLS[qual](f, {param: BAD[param]})


def test_top_level_names_are_the_checked_functions():
    assert pbs.compare is FUNCTIONS["pandas_biosig.comparison.compare"]
    assert pbs.stats.mcnemar is FUNCTIONS["pandas_biosig.stats.mcnemar"]


# --------------------------------------------------------------- rates and counts
RATE_CALLS = {
    "error_rates(target=)": (
        lambda: pbs.error_rates(data("trials"), threshold="far", target=1.5), "target", 1.5),
    "bootstrap(target=)": (
        lambda: pbs.bootstrap(data("trials"), metric="fnmr_at_fmr", target=True), "target", True),
    "stats.hter_ci(far)": (
        lambda: pbs.stats.hter_ci(1.5, 0.1, n_impostor=10, n_genuine=10), "far", 1.5),
    "stats.eer_bound(eer_a)": (lambda: pbs.stats.eer_bound(-0.1, 0.1, n=10), "eer_a", -0.1),
    "identification.detection_identification_rate(target=)": (
        lambda: pbs.detection_identification_rate(data("search"), threshold="far", target=2.0),
        "target", 2.0),
}
COUNT_CALLS = {
    "stats.rate_ci(errors)": (lambda: pbs.stats.rate_ci(-1, 10), "errors", -1, False),
    "stats.rate_ci(n)": (lambda: pbs.stats.rate_ci(0, 0), "n", 0, True),
    "stats.mcnemar(b)": (lambda: pbs.stats.mcnemar(2.5, 3), "b", 2.5, False),
    "identification.recognition_rate(rank=)": (
        lambda: pbs.recognition_rate(data("search"), rank=0), "rank", 0, True),
}


def test_one_rate_and_count_message():
    from pandas_biosig import _validation, stats

    assert stats.ERROR_RATE is _validation.ERROR_RATE
    assert stats.ERROR_COUNT is _validation.ERROR_COUNT
    assert stats.ERROR_POSITIVE_COUNT is _validation.ERROR_POSITIVE_COUNT


@pytest.mark.parametrize("case", sorted(RATE_CALLS))
def test_same_bad_rate_same_message(case):
    from pandas_biosig._validation import ERROR_RATE

    call, name, value = RATE_CALLS[case]
    with pytest.raises(ValueError, match=f"^{re.escape(ERROR_RATE.format(name=name, value=value))}$"):
        call()


@pytest.mark.parametrize("case", sorted(COUNT_CALLS))
def test_same_bad_count_same_message(case):
    from pandas_biosig._validation import ERROR_COUNT, ERROR_POSITIVE_COUNT

    call, name, value, positive = COUNT_CALLS[case]
    message = (ERROR_POSITIVE_COUNT if positive else ERROR_COUNT).format(name=name, value=value)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


@pytest.mark.parametrize("bad", [True, np.bool_(False), float("nan"), -0.1, 1.1, "0.5", None])
def test_check_rate_refuses(bad):
    from pandas_biosig._validation import check_rate

    with pytest.raises(ValueError):
        check_rate(bad, "x")


@pytest.mark.parametrize(("value", "expected"), [(0, 0.0), (1, 1.0), (np.float32(0.25), 0.25)])
def test_check_rate_accepts(value, expected):
    from pandas_biosig._validation import check_rate

    assert check_rate(value, "x") == expected


def test_check_count():
    from pandas_biosig._validation import check_count

    assert check_count(400.0, "n") == 400 and check_count(np.int64(0), "n") == 0
    for bad in (True, -1, 1.5, float("inf"), "3"):
        with pytest.raises(ValueError):
            check_count(bad, "n")
    with pytest.raises(ValueError):
        check_count(0, "n", positive=True)
