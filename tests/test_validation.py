"""One validator per concept: every public function taking ``confidence_level``,
``alpha``, ``alternative``, ``adjust``, a ``threshold``, a ``target``, a ``weight``,
``n_resamples`` or a ``subject`` column rejects the same bad value with the same message
(the constants of :mod:`pandas_biosig._core.validation` and
:mod:`pandas_biosig._core.schema`), whatever the kind of table; every function with
``on`` defaults it to ``"auto"`` and has ``apply_to`` (:mod:`pandas_biosig._core.protocol`)."""

import importlib
import inspect
import re
from functools import cache

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig import datasets
from pandas_biosig._core.replicates import CI_METHODS
from pandas_biosig._core.schema import SchemaError
from pandas_biosig._core.validation import (
    ERROR_ADJUST,
    ERROR_ALPHA,
    ERROR_ALTERNATIVE,
    ERROR_CONFIDENCE_LEVEL,
    ERROR_COUNT,
    ERROR_N_RESAMPLES,
    ERROR_POSITIVE_COUNT,
    ERROR_RATE,
    ERROR_THRESHOLD_VALUE,
    adjust_methods,
)
from pandas_biosig._kernels.curves import EPC_CRITERIA

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
    if kind == "tandem":
        return datasets.example_tandem()
    if kind == "dask":
        dd = pytest.importorskip("dask.dataframe")
        return dd.from_pandas(datasets.example_trials(), npartitions=2)
    return pd.DataFrame({"system": ["a", "b", "c"], "eer": [0.01, 0.02, 0.03]})


#: function -> (how to call it with the bad keyword).
CALLS = {
    "pandas_biosig.compare": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.compare_folds": lambda f, kw: f(data("trials"), fold="split", **kw),
    "pandas_biosig.compare_fusion":
        lambda f, kw: f(data("trials"), systems=["cnn", "gmm"], n_resamples=2, **kw),
    "pandas_biosig.eer_bound_table": lambda f, kw: f(data("reported"), n=1000, **kw),
    "pandas_biosig.outofcore.compare":
        lambda f, kw: f(data("dask"), test="hter_dependent", **kw),
    "pandas_biosig.outofcore.bootstrap": lambda f, kw: f(data("dask"), **kw),
    "pandas_biosig.outofcore.ci": lambda f, kw: f(data("dask"), **kw),
    "pandas_biosig.ci": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.bootstrap": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.epc_bootstrap": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.det_band": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.frr_at_far": lambda f, kw: f(data("trials"), **kw),
    "pandas_biosig.threshold_guarantee": lambda f, kw: f(data("trials"), target=0.05, **kw),
    "pandas_biosig.paired_bootstrap":
        lambda f, kw: f(data("trials"), system_a="cnn", system_b="lbp", **kw),
    "pandas_biosig.pad_rates": lambda f, kw: f(data("pad"), **kw),
    "pandas_biosig.pad_compare": lambda f, kw: f(data("pad"), **kw),
    "pandas_biosig.iapmr": lambda f, kw: f(data("vulnerability"), **kw),
    "pandas_biosig.group_rates": lambda f, kw: f(data("demographic"), **kw),
    "pandas_biosig.compare_groups": lambda f, kw: f(data("demographic"), **kw),
    "pandas_biosig.compare_fairness": lambda f, kw: f(data("demographic"), **kw),
    "pandas_biosig.recognition_rate": lambda f, kw: f(data("search"), **kw),
    "pandas_biosig.tandem_bootstrap": lambda f, kw: f(data("tandem"), **kw),
    "pandas_biosig.tandem_compare": lambda f, kw: f(data("tandem"), **kw),
    "pandas_biosig.cmc_difference": lambda f, kw: f(data("search"), **kw),
    "pandas_biosig.compare_identification":
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
    "pandas_biosig.plot.epc": lambda f, kw: f(data("trials"), n_resamples=20, **kw),
}


def public_functions():
    """Every public function: the top-level namespace's, then those of the public
    packages that are not there (``pbs.stats.*``, ``pbs.outofcore.*``), by qualified name."""
    out = {f"pandas_biosig.{n}": getattr(pbs, n) for n in pbs.__all__
           if inspect.isfunction(getattr(pbs, n))}
    seen = {id(f) for f in out.values()}
    for name in ["verification", "pad", "demographics", "identification", "stats", "outofcore",
                 "plot"]:
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
    assert pbs.compare is FUNCTIONS["pandas_biosig.compare"]
    assert pbs.stats.mcnemar is FUNCTIONS["pandas_biosig.stats.mcnemar"]


# ------------------------------------------------------------------ typed string options
def _literal(name):
    from typing import get_args

    from pandas_biosig._core import options as _typing

    return get_args(getattr(_typing, name))


def test_literals_list_what_the_checks_accept():
    from pandas_biosig._core import protocol
    from pandas_biosig.verification import (
        _intervals as significance,
    )
    from pandas_biosig.verification import (
        _resampling as resampling,
    )

    assert _literal("BootstrapMetric") == tuple(resampling.BOOTSTRAP_METRICS)
    assert _literal("BootstrapCIMethod") == tuple(CI_METHODS)
    assert _literal("Resample") == tuple(protocol.RESAMPLE)
    assert _literal("ResampleOption") == ("auto", *protocol.RESAMPLE)
    assert _literal("CIMetric") == tuple(significance.CI_METRICS)
    assert _literal("Combine") == tuple(significance.CI_COMBINE)
    assert _literal("EPCCriterion") == tuple(EPC_CRITERIA)
    from pandas_biosig._core.criteria import KIND_CRITERIA

    assert _literal("Criterion") == KIND_CRITERIA["verification"]
    assert set(_literal("Adjust")) - {"none"} <= set(adjust_methods())


def _allowed(option):
    from pandas_biosig import stats
    from pandas_biosig._core import protocol
    from pandas_biosig.verification import (
        _intervals as significance,
    )
    from pandas_biosig.verification import (
        _resampling as resampling,
    )

    return {
        "resample": protocol.RESAMPLE,
        "metric": resampling.BOOTSTRAP_METRICS,
        "ci_method": CI_METHODS,
        "rate_ci_method": stats.RATE_CI_METHODS,
        "combine": significance.CI_COMBINE,
        "mcnemar_method": stats.MCNEMAR_METHODS,
        "criterion": EPC_CRITERIA,
    }[option]


#: (function, option, how the message names the option's table) -> call with the bad value.
OPTION_CALLS = {
    ("pandas_biosig.bootstrap", "resample", "resample"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.paired_bootstrap", "resample", "resample"):
        lambda f, kw: f(data("trials"), "cnn", "lbp", **kw),
    ("pandas_biosig.epc_bootstrap", "resample", "resample"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.ci", "resample", "resample"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.outofcore.ci", "resample", "resample"):
        lambda f, kw: f(data("dask"), **kw),
    ("pandas_biosig.outofcore.ci", "ci_method", "rate_ci_method"):
        lambda f, kw: f(data("dask"), **kw),
    ("pandas_biosig.outofcore.ci", "combine", "combine"):
        lambda f, kw: f(data("dask"), **kw),
    ("pandas_biosig.compare", "resample", "resample"):
        lambda f, kw: f(data("trials"), test="bootstrap", **kw),
    ("pandas_biosig.det_band", "resample", "resample"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.frr_at_far", "resample", "resample"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.threshold_guarantee", "resample", "resample"):
        lambda f, kw: f(data("trials"), target=0.05, **kw),
    ("pandas_biosig.bootstrap", "metric", "metric"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.paired_bootstrap", "metric", "metric"):
        lambda f, kw: f(data("trials"), "cnn", "lbp", **kw),
    ("pandas_biosig.compare", "metric", "metric"):
        lambda f, kw: f(data("trials"), test="bootstrap", **kw),
    ("pandas_biosig.outofcore.compare", "metric", "metric"):
        lambda f, kw: f(data("dask"), test="bootstrap", **kw),
    ("pandas_biosig.outofcore.compare", "resample", "resample"):
        lambda f, kw: f(data("dask"), test="bootstrap", **kw),
    ("pandas_biosig.compare_fusion", "metric", "metric"):
        lambda f, kw: f(data("trials"), systems=["cnn", "gmm"], refit=True, **kw),
    ("pandas_biosig.compare_fusion", "resample", "resample"):
        lambda f, kw: f(data("trials"), systems=["cnn", "gmm"], refit=True, **kw),
    ("pandas_biosig.fold_metrics", "metric", "metric"):
        lambda f, kw: f(data("trials"), fold="split", **kw),
    ("pandas_biosig.fold_summary", "metric", "metric"):
        lambda f, kw: f(data("trials"), fold="split", **kw),
    ("pandas_biosig.compare_folds", "metric", "metric"):
        lambda f, kw: f(data("trials"), fold="split", **kw),
    ("pandas_biosig.bootstrap", "ci_method", "ci_method"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.outofcore.bootstrap", "ci_method", "ci_method"):
        lambda f, kw: f(data("dask"), **kw),
    ("pandas_biosig.outofcore.bootstrap", "resample", "resample"):
        lambda f, kw: f(data("dask"), **kw),
    ("pandas_biosig.ci", "ci_method", "rate_ci_method"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.recognition_rate", "ci_method", "rate_ci_method"):
        lambda f, kw: f(data("search"), **kw),
    ("pandas_biosig.ci", "combine", "combine"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.compare", "mcnemar_method", "mcnemar_method"):
        lambda f, kw: f(data("trials"), test="mcnemar", threshold=0.0, **kw),
    ("pandas_biosig.outofcore.compare", "mcnemar_method", "mcnemar_method"):
        lambda f, kw: f(data("dask"), test="mcnemar", threshold=0.0, **kw),
    ("pandas_biosig.compare_identification", "mcnemar_method",
     "mcnemar_method"): lambda f, kw: f(data("search"), **kw),
    ("pandas_biosig.stats.rate_ci", "method", "rate_ci_method"): lambda f, kw: f(1, 10, **kw),
    ("pandas_biosig.stats.mcnemar", "method", "mcnemar_method"): lambda f, kw: f(3, 9, **kw),
    ("pandas_biosig.stats.mcnemar_table", "method", "mcnemar_method"):
        lambda f, kw: f([[5, 3], [9, 2]], **kw),
    ("pandas_biosig.tandem_bootstrap", "resample", "resample"):
        lambda f, kw: f(data("tandem"), **kw),
    ("pandas_biosig.tandem_compare", "resample", "resample"):
        lambda f, kw: f(data("tandem"), **kw),
    ("pandas_biosig.epc", "criterion", "criterion"): lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.epc_bootstrap", "criterion", "criterion"):
        lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.plot.epc", "criterion", "criterion"): lambda f, kw: f(data("trials"), **kw),
    ("pandas_biosig.plot.epc", "resample", "resample"):
        lambda f, kw: f(data("trials"), n_resamples=20, **kw),
}

#: The Literal types whose functions :data:`OPTION_CALLS` must cover.
TYPED = ("ResampleOption", "BootstrapMetric", "BootstrapCIMethod", "RateCIMethod", "Combine",
         "McNemarMethod", "EPCCriterion")


#: Typed options that no call can get wrong (none at present).
UNUSED: set[tuple[str, str]] = set()


def test_every_typed_option_is_checked():
    found = {
        (qual, name)
        for qual, f in FUNCTIONS.items()
        for name, p in inspect.signature(f).parameters.items()
        if isinstance(p.annotation, str)
        and any(re.search(rf"\b{t}\b", p.annotation) for t in TYPED)
    }
    assert found - UNUSED == {(qual, name) for qual, name, _ in OPTION_CALLS}


@pytest.mark.parametrize(("qual", "option", "table"), list(OPTION_CALLS),
                         ids=[f"{q.rsplit('.', 1)[-1]}-{o}" for q, o, _ in OPTION_CALLS])
def test_same_bad_option_same_message(qual, option, table):
    from pandas_biosig._core.schema import ERROR_OPTION

    want = ERROR_OPTION.format(name=option, value="nope", allowed=list(_allowed(table)))
    with pytest.raises(ValueError, match=f"^{re.escape(want)}$"):
        OPTION_CALLS[qual, option, table](FUNCTIONS[qual], {option: "nope"})


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
    from pandas_biosig._core import validation as _validation

    assert ERROR_RATE is _validation.ERROR_RATE
    assert ERROR_COUNT is _validation.ERROR_COUNT
    assert ERROR_POSITIVE_COUNT is _validation.ERROR_POSITIVE_COUNT


@pytest.mark.parametrize("case", sorted(RATE_CALLS))
def test_same_bad_rate_same_message(case):
    from pandas_biosig._core.validation import ERROR_RATE

    call, name, value = RATE_CALLS[case]
    with pytest.raises(ValueError, match=f"^{re.escape(ERROR_RATE.format(name=name, value=value))}$"):
        call()


@pytest.mark.parametrize("case", sorted(COUNT_CALLS))
def test_same_bad_count_same_message(case):
    from pandas_biosig._core.validation import ERROR_COUNT, ERROR_POSITIVE_COUNT

    call, name, value, positive = COUNT_CALLS[case]
    message = (ERROR_POSITIVE_COUNT if positive else ERROR_COUNT).format(name=name, value=value)
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        call()


@pytest.mark.parametrize("bad", [True, np.bool_(False), float("nan"), -0.1, 1.1, "0.5", None])
def test_check_rate_refuses(bad):
    from pandas_biosig._core.validation import check_rate

    with pytest.raises(ValueError):
        check_rate(bad, "x")


@pytest.mark.parametrize(("value", "expected"), [(0, 0.0), (1, 1.0), (np.float32(0.25), 0.25)])
def test_check_rate_accepts(value, expected):
    from pandas_biosig._core.validation import check_rate

    assert check_rate(value, "x") == expected


def test_check_count():
    from pandas_biosig._core.validation import check_count

    assert check_count(400.0, "n") == 400 and check_count(np.int64(0), "n") == 0
    for bad in (True, -1, 1.5, float("inf"), "3"):
        with pytest.raises(ValueError):
            check_count(bad, "n")
    with pytest.raises(ValueError):
        check_count(0, "n", positive=True)


# ------------------------------------------------------- one protocol, one set of checks
def _with(param: str) -> set[str]:
    return {q for q, f in FUNCTIONS.items() if param in inspect.signature(f).parameters}


def test_every_on_defaults_to_auto_and_has_apply_to():
    """Every function with ``on`` (and every function that chooses a threshold: it has a
    ``threshold`` or an EPC/EPSC ``criterion``) defaults ``on`` and ``apply_to`` to
    ``"auto"``."""
    choosers = _with("on") | _with("threshold") | {
        q for q in _with("criterion") if q.rsplit(".", 1)[-1] in ("epc", "epc_bootstrap", "epsc")}
    assert len(choosers) > 30
    for qual in sorted(choosers):
        params = inspect.signature(FUNCTIONS[qual]).parameters
        assert "on" in params and params["on"].default == "auto", qual
        assert "apply_to" in params and params["apply_to"].default == "auto", qual


def _trials_far(f, kw):
    return f(data("trials"), threshold="far", **kw)


def _pattern(template: str) -> str:
    """A regex matching every message of ``template`` (its fields as ``.*``)."""
    import string

    parts = []
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(".*")
    return "^" + "".join(parts) + "$"


#: How to call every function that takes ``param`` with the bad value (keyword ``bad``).
KINDS = {
    "trials": lambda f, kw: f(data("trials"), **kw),
    "pad": lambda f, kw: f(data("pad"), **kw),
    "vulnerability": lambda f, kw: f(data("vulnerability"), **kw),
    "demographic": lambda f, kw: f(data("demographic"), **kw),
    "search": lambda f, kw: f(data("search"), **kw),
    "dask": lambda f, kw: f(data("dask"), **kw),
    "dask_compare": lambda f, kw: f(data("dask"), test="hter_dependent", **kw),
    "folds": lambda f, kw: f(data("trials"), fold="split", split=None, **kw),
    "pair": lambda f, kw: f(data("trials"), system_a="cnn", system_b="lbp", **kw),
    "tandem": lambda f, kw: f(data("tandem"), **kw),
    "fusion": lambda f, kw: f(data("trials"), systems=["cnn", "gmm"], **kw),
}
TABLE_OF = {
    "bootstrap": "trials", "ci": "trials", "compare": "trials", "dcf": "trials",
    "error_rates": "trials", "epc": "trials", "epc_bootstrap": "trials", "hist": "trials",
    "paired_bootstrap": "pair", "fold_metrics": "folds", "fold_summary": "folds",
    "compare_folds": "folds", "pad_metrics": "pad", "pad_rates": "pad", "pad_compare": "pad",
    "vulnerability": "vulnerability", "iapmr": "vulnerability", "epsc": "vulnerability",
    "group_rates": "demographic", "cross_group_fmr": "demographic", "fairness": "demographic",
    "fdr_curve": "demographic", "compare_groups": "demographic",
    "compare_fairness": "demographic", "fmr_heatmap": "demographic", "group_det": "demographic",
    "detection_identification_rate": "search", "compare_identification": "search",
    "cmc_difference": "search", "recognition_rate": "search", "pairwise_counts": "dask",
    "det": "trials", "roc": "trials", "det_band": "trials", "frr_at_far": "trials",
    "threshold_guarantee": "trials", "calibrate": "trials", "fuse": "fusion",
    "compare_fusion": "fusion", "tandem_table": "tandem", "tandem_bootstrap": "tandem",
    "tandem_compare": "tandem", "tdcf": "tandem", "tdcf_curve": "tandem", "teer": "tandem",
    "adcf": "tandem", "cm_metrics": "tandem",
}
#: The criterion that reads the parameter, per kind of table.
READS = {
    "target": {"pad": dict(threshold="apcer"), "trials": dict(threshold="far"),
               "folds": dict(threshold="far"), "pair": dict(threshold="far", metric="hter"),
               "dask": dict(threshold="far"), "dask_compare": dict(threshold="far"),
               "vulnerability": dict(threshold="far"), "fusion": dict(threshold="far")},
    "weight": {"trials": dict(threshold="min_weighted"), "folds": dict(threshold="min_weighted"),
               "pair": dict(threshold="min_weighted", metric="hter"),
               "dask": dict(threshold="min_weighted"),
               "dask_compare": dict(threshold="min_weighted"),
               "fusion": dict(threshold="min_weighted")},
}
#: Parameters a function takes but cannot act on, with the reason.
EXEMPT = {
    # names the column whose presence decides the default test; computes nothing on it
    ("pandas_biosig.verification.default_test", "subject"),
    # builds a tandem table from two tables: carries the speaker column, resamples nothing
    ("pandas_biosig.tandem_table", "subject"),
}
BAD_VALUES = {
    "threshold": (np.nan, lambda: _pattern(ERROR_THRESHOLD_VALUE)),
    "target": (1.5, lambda: "^" + re.escape(ERROR_RATE.format(name="target", value=1.5)) + "$"),
    "weight": (1.5, lambda: "^" + re.escape(ERROR_RATE.format(name="weight", value=1.5)) + "$"),
    "n_resamples": (0, lambda: "^" + re.escape(ERROR_N_RESAMPLES.format(value=0)) + "$"),
}


def _call(qual: str, param: str):
    name = qual.rsplit(".", 1)[-1]
    kind = "dask" if ".outofcore." in qual else TABLE_OF[name]
    if qual == "pandas_biosig.outofcore.compare" and param not in ("n_resamples", "subject"):
        kind = "dask_compare"  # the others: the default test, the subject bootstrap
    extra = dict(READS.get(param, {}).get(kind, {}))
    params = inspect.signature(FUNCTIONS[qual]).parameters
    extra = {k: v for k, v in extra.items() if k in params}  # the EPC's weight is its grid
    if name == "bootstrap" and "threshold" in extra:
        extra["metric"] = "hter"  # a metric at the threshold policy
    if param == "subject":
        frame = data(kind if kind not in ("folds", "pair", "fusion") else "trials")
        frame = frame.assign(subject=np.nan)
        f = FUNCTIONS[qual]
        if kind == "pair":
            return lambda: f(frame, system_a="cnn", system_b="lbp", n_resamples=20)
        params = inspect.signature(f).parameters
        kw = {"n_resamples": 20} if "n_resamples" in params else {}
        if "band" in params:  # a figure reads the subjects for its bootstrap band
            kw["band"] = True
        if "target" in params and params["target"].default is inspect.Parameter.empty:
            kw["target"] = 0.05
        if kind == "fusion":
            kw["systems"] = ["cnn", "gmm"]
        return lambda: f(frame, **kw)
    value = BAD_VALUES[param][0]
    return lambda: KINDS[kind](FUNCTIONS[qual], {**extra, param: value})


SHARED = [
    pytest.param(qual, param, id=f"{qual.rsplit('.', 1)[-1]}-{param}")
    for param in ("threshold", "target", "weight", "n_resamples", "subject")
    for qual in sorted(_with(param))
    if (qual, param) not in EXEMPT and ".stats." not in qual
]


def test_every_function_with_a_shared_parameter_is_checked():
    for param in ("threshold", "target", "weight", "n_resamples", "subject"):
        listed = {q for q, p in (c.values for c in SHARED) if p == param}
        taken = {q for q in _with(param) if (q, param) not in EXEMPT and ".stats." not in q}
        assert listed == taken and listed, param
    kinds = {TABLE_OF.get(q.rsplit(".", 1)[-1]) for q, _ in (c.values for c in SHARED)}
    assert {"pad", "vulnerability", "demographic", "search"} <= kinds


@pytest.mark.parametrize(("qual", "param"), SHARED)
def test_same_bad_parameter_same_message(qual, param):
    if param == "subject":
        from pandas_biosig._core.schema import ERROR_SUBJECT_MISSING

        with pytest.raises(SchemaError, match=_pattern(ERROR_SUBJECT_MISSING)):
            _call(qual, param)()
        return
    with pytest.raises(ValueError, match=BAD_VALUES[param][1]()):
        _call(qual, param)()


def test_one_criterion_name_in_every_kind():
    """A criterion has one name: another spelling gets a message naming it, in every kind
    that bounds that rate (no aliases)."""
    from pandas_biosig._core.criteria import ERROR_SPELLING

    want = "^" + re.escape(ERROR_SPELLING.format(
        value="fmr", name="far", description="FRR subject to FAR <= target")) + "$"
    calls = [
        lambda: pbs.error_rates(data("trials"), threshold="fmr", target=0.01),
        lambda: pbs.group_rates(data("demographic"), threshold="fmr", target=0.01),
        lambda: pbs.vulnerability(data("vulnerability"), threshold="fmr", target=0.01),
        lambda: pbs.detection_identification_rate(data("search"), threshold="fmr"),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=want):
            call()


def test_one_n_resamples_default():
    """One default for one knob: every public function that resamples draws 1000
    replicates unless told otherwise (the validity harness measures them at it)."""
    found = {q: inspect.signature(FUNCTIONS[q]).parameters["n_resamples"].default
             for q in _with("n_resamples")}
    assert len(found) > 10 and set(found.values()) == {1000}, found
