"""The accessor is a mirror: same signatures, same results, a repr that says what it sees."""

import inspect

import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig.accessor import BiosigAccessor

# the methods of the accessor and of the mixins it inherits (one per table kind)
METHODS = [
    m
    for cls in BiosigAccessor.__mro__[:-1]
    for m in vars(cls)
    if not m.startswith("_") and m != "plot"
]
PLOT_METHODS = [m for m in vars(pbs.plot._PlotNamespace) if not m.startswith("_")]


def test_every_method_has_a_function():
    assert set(METHODS) >= {"eer", "error_rates", "dcf", "summary"}
    for name in METHODS:
        assert callable(getattr(pbs, name)), name


@pytest.mark.parametrize(
    "owner,name",
    [(pbs, m) for m in METHODS] + [(pbs.plot, m) for m in PLOT_METHODS],
)
def test_signatures_match(owner, name):
    namespace = BiosigAccessor if owner is pbs else pbs.plot._PlotNamespace
    func = inspect.signature(getattr(owner, name))
    meth = inspect.signature(getattr(namespace, name))
    func_params = list(func.parameters.values())[1:]  # minus data
    meth_params = list(meth.parameters.values())[1:]  # minus self
    assert [(p.name, p.kind, p.default) for p in meth_params] == [
        (p.name, p.kind, p.default) for p in func_params
    ]
    # everything after the leading positional arguments (system pairs) is keyword-only
    kinds = [p.kind for p in meth_params]
    n_pos = sum(k is inspect.Parameter.POSITIONAL_OR_KEYWORD for k in kinds)
    assert all(k is inspect.Parameter.KEYWORD_ONLY for k in kinds[n_pos:])


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


def test_plot_namespace_is_a_property_with_every_plot():
    assert isinstance(vars(BiosigAccessor)["plot"], property)
    assert set(PLOT_METHODS) == {
        "det", "roc", "epc", "bayes_error", "hist", "pad_det", "epsc", "fmr_heatmap", "group_det",
    }
    assert set(PLOT_METHODS) == set(pbs.plot.__all__) - {"DET_TICKS"}


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


@pytest.mark.parametrize("name", METHODS)
def test_methods_carry_their_functions_docstrings(name):
    from pandas_biosig.accessor import mirror_doc

    func, method = getattr(pbs, name), getattr(BiosigAccessor, name)
    assert method.__doc__ == mirror_doc(func, name)
    first = next(iter(inspect.signature(func).parameters))
    doc = method.__doc__
    # the whole documentation: every section of the function's docstring is there
    for section in ("Parameters", "Returns", "Examples"):
        if f"\n{section}\n---" in func.__doc__:
            assert f"\n{section}\n---" in doc, section
    assert len(doc) > 0.8 * len(inspect.cleandoc(func.__doc__))
    # said of the DataFrame: the data parameter is not listed, the call is named
    params = doc.split("Parameters\n----------\n", 1)[-1]
    assert not params.startswith(f"{first} :")
    assert f"``df.biosig.{name}(...)`` is :func:`pandas_biosig.{name}`" in doc
    # the explicit signature is kept (not *args, **kwargs)
    kinds = {p.kind for p in inspect.signature(method).parameters.values()}
    assert inspect.Parameter.VAR_KEYWORD not in kinds


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


@pytest.mark.parametrize("name", PLOT_METHODS)
def test_plot_methods_carry_their_functions_docstrings(name):
    from pandas_biosig.accessor import mirror_doc

    func = getattr(pbs.plot, name)
    method = getattr(pbs.plot._PlotNamespace, name)
    assert method.__doc__ == mirror_doc(func, name, "pandas_biosig.plot")
    assert f"``df.biosig.plot.{name}(...)`` is :func:`pandas_biosig.plot.{name}`" in method.__doc__
    assert len(method.__doc__) > 0.8 * len(inspect.cleandoc(func.__doc__))
