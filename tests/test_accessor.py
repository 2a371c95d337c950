"""The accessor is a mirror: same signatures, same docs, same results, a current stub,
and a repr that says what it sees."""

import inspect

import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig._core.mirror import mirror, mirror_doc
from pandas_biosig._stubgen import STUB, accessor_stub
from pandas_biosig.accessor import BiosigAccessor, PlotAccessor

METHODS = [m for m, v in vars(BiosigAccessor).items() if isinstance(v, mirror)]
PLOT_METHODS = [m for m, v in vars(PlotAccessor).items() if isinstance(v, mirror)]
CASES = [("biosig", m) for m in METHODS] + [("plot", m) for m in PLOT_METHODS]


def _pair(example, kind, name):
    """(function, bound accessor method) of one case."""
    if kind == "plot":
        return getattr(pbs.plot, name), getattr(example.biosig.plot, name)
    return getattr(pbs, name), getattr(example.biosig, name)


def test_every_method_has_a_function():
    assert set(METHODS) >= {"eer", "error_rates", "dcf", "summary"}
    for name in METHODS:
        assert callable(getattr(pbs, name)), name
    assert all(inspect.isfunction(getattr(BiosigAccessor, name)) for name in METHODS)


def test_every_table_function_has_a_method():
    """Every public function of a table is a method; the rest are not tables' functions."""
    not_methods = {"ppndf", "det_grid", "to_latex", "to_markdown", "read_asvspoof_asv",
                   "read_asvspoof_tandem",
                   "read_asvspoof_cm", "read_bob", "read_bob_identification", "read_bob_pad",
                   "read_bob_vuln", "read_nist", "read_pyeer_cmc", "read_score_lists",
                   "read_scores", "read_table"}
    functions = {n for n in pbs.__all__ if inspect.isfunction(getattr(pbs, n))}
    assert functions - not_methods == set(METHODS)
    assert set(PLOT_METHODS) == set(pbs.plot.__all__) - {"DET_TICKS"}


@pytest.mark.parametrize("kind,name", CASES)
def test_signature_and_doc_are_the_functions(example, kind, name):
    func, method = _pair(example, kind, name)
    signature = inspect.signature(func)
    assert inspect.signature(method) == signature.replace(
        parameters=list(signature.parameters.values())[1:]
    )
    doc = inspect.getdoc(method)
    assert doc == mirror_doc(func)
    # the whole documentation but the data parameter's entry
    first = next(iter(signature.parameters))
    full = inspect.getdoc(func)
    params = doc.partition("Parameters\n----------\n")[2].partition("\n\n")[0]
    assert not params.startswith((f"{first} :", f"{first},")), params[:80]
    for section in ("Parameters", "Returns", "Examples"):
        if f"\n{section}\n---" in full:
            assert f"\n{section}\n---" in doc, section
    assert len(doc) > 0.8 * len(full)


def test_methods_read_off_the_class_are_the_functions():
    assert BiosigAccessor.compare is pbs.compare
    assert PlotAccessor.det is pbs.plot.det


def test_the_stub_is_current():
    assert STUB.read_text() == accessor_stub(), (
        "pandas_biosig/accessor.pyi is stale: run python -m pandas_biosig._stubgen"
    )


@pytest.mark.parametrize(
    "name,kwargs",
    [
        ("eer", {}),
        ("eer", dict(method="threshold")),
        ("error_rates", dict(threshold="eer", on="dev", apply_to="eval")),
        ("dcf", dict(p_target=[0.01, 0.05])),
        ("summary", {}),
        ("bootstrap", dict(metric="auc", n_resamples=20, seed=1)),
        ("ci", {}),
        ("ci", dict(metric="hter", on="dev", apply_to="eval", confidence_level=0.9)),
        ("compare", dict(seed=0)),
        ("compare", dict(test="mcnemar", baseline="gmm", on="dev", apply_to="eval",
                         test_decision_rules=True)),
        ("compare", dict(test="bootstrap", metric="eer", n_resamples=20, seed=3)),
        ("fold_metrics", dict(fold="split", split=None, metric="eer")),
        ("fold_summary", dict(fold="split", split=None)),
        ("compare_folds", dict(fold="split", split=None, adjust="bonferroni")),
    ],
)
def test_results_match(example, name, kwargs):
    pd.testing.assert_frame_equal(
        getattr(example.biosig, name)(**kwargs), getattr(pbs, name)(example, **kwargs)
    )


def test_plot_namespace_is_a_property():
    assert isinstance(vars(BiosigAccessor)["plot"], property)
    assert "det" in repr(pbs.datasets.example_trials().biosig.plot)


def test_accessor_stores_only_the_frame(example):
    acc = example.biosig
    assert vars(acc) == {"_obj": example}


def test_repr_reports_what_it_sees(example):
    text = repr(example.biosig)
    assert "9600 rows" in text
    assert "cnn / dev: 240 genuine, 960 impostor" in text
    assert "tied" in text


def test_repr_names_missing_columns(example):
    text = repr(example.rename(columns={"score": "llr"}).biosig)
    assert "missing (pass their names as keywords): score" in text


def test_importing_registers_only_biosig():
    assert hasattr(pd.DataFrame, "biosig")
    assert not hasattr(pd.DataFrame, "eer")


def test_paired_bootstrap_matches(example):
    kw = dict(metric="eer_threshold", apply_to="eval", n_resamples=20, seed=2)
    a = example.biosig.paired_bootstrap("cnn", "gmm", **kw)
    b = pbs.paired_bootstrap(example, "cnn", "gmm", **kw)
    assert a.to_dict() == b.to_dict()


def test_pairwise_matrix_matches(example):
    table = pbs.compare(example, apply_to="eval")
    for col in ("pvalue_adj", "estimate", "reject"):
        pd.testing.assert_frame_equal(
            table.biosig.pairwise_matrix(col=col), pbs.pairwise_matrix(table, col=col)
        )


def test_eer_bound_table_matches():
    reported = pd.DataFrame({"system": ["A", "B", "C"], "eer": [0.0013, 0.0058, 0.002]})
    pd.testing.assert_frame_equal(
        reported.biosig.eer_bound_table(n=719400, adjust="fdr_bh"),
        pbs.eer_bound_table(reported, n=719400, adjust="fdr_bh"),
    )


def test_repr_of_a_search_table():
    text = repr(pbs.datasets.example_search().biosig)
    assert "search table (identification)" in text
    assert "cnn: 125 probes (100 mated), 60 references" in text


def test_repr_reports_bad_labels_instead_of_failing(example):
    bad = example.copy()
    bad.loc[0, "label"] = "maybe"
    assert "labels: column 'label' holds label value(s) ['maybe']" in repr(bad.biosig)


def test_identification_mirrors_match():
    search = pbs.datasets.example_search()
    pd.testing.assert_frame_equal(search.biosig.recognition_rate(rank=[1, 5]),
                                  pbs.recognition_rate(search, rank=[1, 5]))


def test_help_shows_the_full_documentation(example):
    text = pydoc_text(example.biosig.compare)
    assert "Bengio" in text and "Returns" in text and "adjust" in text


def pydoc_text(obj) -> str:
    import pydoc

    return pydoc.render_doc(obj, renderer=pydoc.plaintext)


def test_repr_counts_nan_scores_apart_from_ties():
    t = pd.DataFrame({"system": "a", "trial": range(6),
                      "label": ["genuine", "genuine", "genuine", "impostor", "impostor",
                                "impostor"],
                      "score": [0.9, 0.9, float("nan"), 0.1, float("nan"), float("inf")]})
    text = repr(t.biosig)
    # 0.9 twice is one tie; the two NaN and the inf are not ties and not in the range
    assert "a: 3 genuine, 3 impostor, scores [0.1, 0.9], 1 tied, 3 NaN/inf" in text


def test_pairwise_matrix_is_offered_on_pairwise_tables_only(example):
    assert "pairwise_matrix" not in dir(example.biosig)
    assert "compare" in dir(example.biosig)
    table = example.biosig.compare()
    assert "pairwise_matrix" in dir(table.biosig)
    with pytest.raises(ValueError, match="expected a pairwise table"):
        example.biosig.pairwise_matrix()


def test_the_dask_accessor_mirrors_the_outofcore_functions():
    dd = pytest.importorskip("dask.dataframe")
    import pandas_biosig.outofcore as ooc

    ddf = dd.from_pandas(pbs.datasets.example_trials(), npartitions=2)
    names = [m for m, v in vars(ooc.DaskBiosigAccessor).items() if isinstance(v, mirror)]
    assert set(names) == {n for n in ooc.__all__ if inspect.isfunction(getattr(ooc, n))}
    for name in names:
        func, method = getattr(ooc, name), getattr(ddf.biosig, name)
        signature = inspect.signature(func)
        assert inspect.signature(method) == signature.replace(
            parameters=list(signature.parameters.values())[1:]
        )
        assert inspect.getdoc(method) == mirror_doc(func)
    pd.testing.assert_frame_equal(ddf.biosig.eer(), ooc.eer(ddf))
