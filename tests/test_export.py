"""LaTeX and Markdown export: golden files, options, errors and the optional dependencies.

Golden files live in ``tests/golden/``: the exact text that :func:`to_latex` and
:func:`to_markdown` give for (a) ``pbs.summary(pbs.datasets.example_trials())``, (b) a
hand-made table with the columns of ``compare`` and (c) a summary marked with such a
comparison. After an intended change of the output, regenerate them and review the diff:

    UPDATE_GOLDEN=1 python -m pytest tests/test_export.py -p no:cacheprovider
    git diff tests/golden/

Tests that render need jinja2 (LaTeX) or tabulate (Markdown), dependencies of the
package; without them they are skipped (``requires_jinja2``, ``requires_tabulate``). If
``pdflatex`` is on the PATH, one test compiles the LaTeX tables in a minimal document.
"""

import difflib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig._core.validation import ERROR_FLAG
from pandas_biosig.export import to_latex, to_markdown
from pandas_biosig.export._rules import (
    ERROR_BEST,
    ERROR_BY,
    ERROR_COLUMNS,
    ERROR_COMPARISON,
    ERROR_LABEL,
    ERROR_MARK_COLUMN,
    ERROR_MARK_DIRECTION,
    ERROR_MARK_PAIR,
    ERROR_MARK_SPLIT,
    ERROR_MARK_SYSTEMS,
    ERROR_MARKS,
    ERROR_MISSING_EXTRA,
    ERROR_NOT_A_FRAME,
    ERROR_PERCENT,
    ERROR_PRECISION,
)

has_jinja2 = importlib.util.find_spec("jinja2") is not None
has_tabulate = importlib.util.find_spec("tabulate") is not None
requires_jinja2 = pytest.mark.skipif(not has_jinja2, reason="needs jinja2")
requires_tabulate = pytest.mark.skipif(
    not has_tabulate, reason="needs tabulate"
)
requires_export = [requires_jinja2, requires_tabulate]

GOLDEN = Path(__file__).parent / "golden"
RENDERERS = {"tex": to_latex, "md": to_markdown}
COMPARE_COLUMNS = [
    "system_a", "system_b", "split", "metric", "test", "n", "estimate", "statistic", "pvalue",
    "log10_pvalue", "adjust", "pvalue_adj", "alpha", "reject", "confidence_level", "ci_low",
    "ci_high",
]


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN") == "1":
        path.parent.mkdir(exist_ok=True)
        path.write_text(text)
        return
    if not path.exists():
        pytest.fail(f"{path} is missing; create it with UPDATE_GOLDEN=1 (see the module docstring)")
    expected = path.read_text()
    diff = "".join(
        difflib.unified_diff(
            expected.splitlines(keepends=True), text.splitlines(keepends=True), str(path), "now"
        )
    )
    assert text == expected, f"output differs from the golden file (UPDATE_GOLDEN=1 to accept):\n{diff}"


def comparison_table() -> pd.DataFrame:
    """A compare-like table about the example's systems: EER, bootstrap, Holm, both splits.

    In dev the best system (cnn_aug) is not significantly better than cnn and gmm; in eval
    than cnn only.
    """
    rows = [
        # a, b, split, estimate, statistic, pvalue, pvalue_adj, reject
        ("cnn", "cnn_aug", "dev", 0.0025, 0.61, 0.54, 0.81, False),
        ("cnn", "gmm", "dev", -0.0607, -2.41, 0.016, 0.064, False),
        ("cnn", "lbp", "dev", -0.1117, -8.1, 2e-16, 1e-15, True),
        ("cnn_aug", "gmm", "dev", -0.0632, -2.2, 0.027, 0.081, False),
        ("cnn_aug", "lbp", "dev", -0.1142, -8.4, 4e-17, 2.4e-16, True),
        ("gmm", "lbp", "dev", -0.051, -3.9, 1e-4, 3e-4, True),
        ("cnn", "cnn_aug", "eval", 0.0036, 0.9, 0.37, 0.37, False),
        ("cnn", "gmm", "eval", -0.0444, -4.1, 4e-5, 1.6e-4, True),
        ("cnn", "lbp", "eval", -0.112, -9.0, 1e-19, 6e-19, True),
        ("cnn_aug", "gmm", "eval", -0.048, -4.4, 1e-5, 5e-5, True),
        ("cnn_aug", "lbp", "eval", -0.1156, -9.3, 1e-20, 6e-20, True),
        ("gmm", "lbp", "eval", -0.000004, -0.01, 0.99, 0.99, False),
    ]
    frame = pd.DataFrame(
        rows,
        columns=["system_a", "system_b", "split", "estimate", "statistic", "pvalue", "pvalue_adj", "reject"],
    )
    frame["metric"] = "eer"
    frame["test"] = "bootstrap"
    frame["n"] = 1200
    frame["log10_pvalue"] = np.log10(frame.pvalue)
    frame["adjust"] = "holm"
    frame["alpha"] = 0.05
    frame["confidence_level"] = 0.95
    frame["ci_low"] = frame.estimate - 0.012
    frame["ci_high"] = frame.estimate + 0.012
    return frame[COMPARE_COLUMNS]


@pytest.fixture(scope="module")
def summary():
    return pbs.summary(pbs.datasets.example_trials())


MARKED_COLUMNS = ["system", "split", "eer_threshold", "min_dcf", "cllr", "auc"]


def render(kind, frame, **options):
    return RENDERERS[kind](frame, **options)


kinds = pytest.mark.parametrize(
    "kind", [pytest.param("tex", marks=requires_jinja2), pytest.param("md", marks=requires_tabulate)]
)


# ----------------------------------------------------------------------------- golden files
@kinds
def test_golden_summary(kind, summary):
    check_golden(f"summary.{kind}", render(kind, summary))


@kinds
def test_golden_compare(kind):
    check_golden(f"compare.{kind}", render(kind, comparison_table(), label="tab:compare"))


@kinds
def test_golden_summary_marked(kind, summary):
    text = render(
        kind, summary, columns=MARKED_COLUMNS, precision={"auc": 4}, comparison=comparison_table(),
        label="tab:summary",
    )
    check_golden(f"summary_marked.{kind}", text)


# ----------------------------------------------------------------------------- content
@pytest.mark.parametrize("kind", ["tex", "md"])
def test_input_frames_are_untouched(kind, summary):
    pytest.importorskip("jinja2" if kind == "tex" else "tabulate")
    table, comparison = summary.copy(deep=True), comparison_table()
    before, before_cmp = table.copy(deep=True), comparison.copy(deep=True)
    render(kind, table, comparison=comparison, columns=MARKED_COLUMNS)
    render(kind, comparison)
    pd.testing.assert_frame_equal(table, before)
    pd.testing.assert_frame_equal(comparison, before_cmp)
    assert table.attrs == {} and comparison.attrs == {}


@requires_tabulate
def test_markdown_numbers_are_the_rounded_values(summary):
    text = to_markdown(summary, columns=["system", "split", "eer_rocch", "cllr"], best=None)
    rows = [line.strip("|").split("|") for line in text.splitlines()[2:] if line.startswith("|")]
    eer = [float(r[2]) for r in rows]
    cllr = [float(r[3]) for r in rows]
    np.testing.assert_allclose(eer, np.round(100 * summary.eer_rocch, 2))
    # two Cllr values differ only in the third decimal: the column gets three
    np.testing.assert_allclose(cllr, np.round(summary.cllr, 3))


@requires_tabulate
@pytest.mark.parametrize(
    "values, shown",
    [
        ([0.9996, 1.0, 0.95], ["0.9996", "1.0000", "0.9500"]),  # not "1.00" twice
        ([0.9996, 1.0], ["0.9996", "1.0000"]),
        ([0.91, 0.92], ["0.91", "0.92"]),  # distinct at the default precision: unchanged
        ([0.5, 0.5, 0.25], ["0.50", "0.50", "0.25"]),  # equal values may print equal
        ([0.12345678, 0.12345679], ["0.12345678", "0.12345679"]),
        ([0.3, 0.1 + 0.2], ["0.30", "0.30"]),  # floating-point noise is not a difference
    ],
)
def test_distinct_values_never_print_equal(values, shown):
    frame = pd.DataFrame({"system": list("abc"[: len(values)]), "value": values})
    text = to_markdown(frame, best=None, caption="")
    cells = [line.strip("|").split("|")[1].strip() for line in text.splitlines()[2:]]
    assert cells == shown


@requires_tabulate
def test_distinct_digits_count_the_interval_bounds_and_pvalues():
    frame = pd.DataFrame(
        {"system_a": ["a", "a"], "system_b": ["b", "c"], "metric": "auc",
         "estimate": [0.0, 0.001], "ci_low": [-0.0021, -0.0024], "ci_high": [0.002, 0.0041],
         "pvalue": [0.0101, 0.0104]}
    )
    text = to_markdown(frame, caption="")
    assert "0.0000 [-0.0021, 0.0020]" in text and "0.0010 [-0.0024, 0.0041]" in text
    assert "0.0101" in text and "0.0104" in text


@requires_tabulate
def test_auc_near_one_is_bold_only_where_best():
    # the case of the report: six systems, four of them with an AUC that rounds to 1.00
    aucs = [0.9996, 1.0, 0.99991, 0.9951, 0.9402, 0.99999]
    frame = pd.DataFrame({"system": list("abcdef"), "auc": aucs})
    text = to_markdown(frame, caption="")
    assert text.count("**") == 2 and "**1.00000**" in text


@requires_tabulate
def test_best_within_each_by_group(summary):
    both = pd.concat(
        [summary.assign(protocol="P1"),
         summary.assign(protocol="P2", eer_rocch=summary.eer_rocch + 0.5)],
        ignore_index=True,
    )[["protocol", "system", "split", "eer_rocch"]]
    text = to_markdown(both)
    bold = [line.split("|")[1:3] for line in text.splitlines()[2:18] if "**" in line]
    # cnn_aug is the best in each protocol and split: four bold cells, two per protocol
    assert [(p.strip(), s.strip()) for p, s in bold] == [("P1", "cnn_aug")] * 2 + [
        ("P2", "cnn_aug")
    ] * 2
    assert "within each protocol and split" in text
    # named explicitly (a by column that is not in front)
    moved = both[["system", "split", "eer_rocch", "protocol"]]
    assert to_markdown(moved, by="protocol").count("**") == 2 * 4
    assert to_markdown(moved).count("**") == 2 * 2  # without it: best across protocols
    with pytest.raises(ValueError) as info:
        to_markdown(moved, by="dataset")
    assert str(info.value) == ERROR_COLUMNS.format(
        name="by", missing=["dataset"], found=list(moved.columns)
    )
    with pytest.raises(ValueError) as info:
        to_markdown(moved, by=3)
    assert str(info.value) == ERROR_BY.format(value=3)


@requires_tabulate
def test_marks_within_each_by_group(summary):
    cols = ["protocol", "system", "split", "eer_threshold"]
    both = pd.concat(
        [summary.assign(protocol=p) for p in ("P1", "P2")], ignore_index=True
    )[cols].query("split == 'eval'")
    comparison = pd.concat(
        [comparison_table().assign(protocol="P1"),
         comparison_table().assign(protocol="P2", reject=True)],
        ignore_index=True,
    ).query("split == 'eval'")[["protocol", *COMPARE_COLUMNS]]
    text = to_markdown(both, comparison=comparison)
    rows = {
        (line.split("|")[1].strip(), line.split("|")[2].strip()): line
        for line in text.splitlines()[2:10]
    }
    assert "†" in rows[("P1", "cnn")]  # not different from cnn_aug in P1
    assert "†" not in rows[("P2", "cnn")]  # different in P2


@requires_tabulate
def test_estimate_header_names_the_metric(summary):
    pairwise = to_markdown(comparison_table())
    assert "EER A-B (%)" in pairwise.splitlines()[0]
    boot = pd.DataFrame(
        {"system": ["a", "b"], "metric": "hter", "estimate": [0.1, 0.2], "ci_low": [0.05, 0.1],
         "ci_high": [0.15, 0.3], "confidence_level": 0.95}
    )
    assert "HTER (%)" in to_markdown(boot).splitlines()[0]
    assert r"HTER (\%)" in to_latex(boot)
    mixed = boot.assign(metric=["hter", "auc"])
    assert "Estimate" in to_markdown(mixed).splitlines()[0]


@requires_tabulate
def test_best_directions_by_column_name(summary):
    eval_rows = summary[summary.split == "eval"]
    text = to_markdown(eval_rows, columns=["system", "eer_rocch", "auc", "d_prime", "threshold"], precision=4)
    lines = {line.split("|")[1].strip(): line for line in text.splitlines()[2:6]}
    assert "**4.58" in lines["cnn_aug"]  # lowest EER
    assert "**0.9902**" in lines["cnn_aug"]  # highest AUC
    assert "**3.1845**" in lines["cnn_aug"]  # highest d'
    assert not any("**" in line.split("|")[-2] for line in lines.values())  # threshold: unranked


@requires_tabulate
def test_best_ties_are_all_bold(summary):
    eval_rows = summary[summary.split == "eval"]
    text = to_markdown(eval_rows, columns=["system", "auc"])  # 0.9897 and 0.9902
    assert text.count("**") == 2 and "**0.9902**" in text  # distinct: not a tie at 0.99
    tied = pd.DataFrame({"system": list("abc"), "eer": [0.1, 0.1, 0.2]})
    assert to_markdown(tied).count("**10.00**") == 2


@requires_tabulate
def test_best_options(summary):
    cols = ["system", "split", "eer_rocch", "auc"]
    assert "**" not in to_markdown(summary, columns=cols, best=None)
    forced = to_markdown(summary, columns=cols, best="max", precision={"auc": 4})
    assert "**16.15**" in forced and "**0.9902**" in forced  # the highest EER, forced
    only = to_markdown(summary, columns=cols, best={"auc": "min"}, precision={"auc": 4})
    assert "**0.9072**" in only and "**4.58**" not in only
    assert "**" not in to_markdown(comparison_table())  # a pairwise table has no best system


@requires_tabulate
def test_percent_and_precision(summary):
    cols = ["system", "split", "eer_rocch", "min_dcf"]
    assert "EER (ROCCH) (%)" in to_markdown(summary, columns=cols)
    fractions = to_markdown(summary, columns=cols, percent=False, precision=3)
    assert "(%)" not in fractions.splitlines()[0]
    assert "0.040" in fractions and "Rates in %" not in fractions
    chosen = to_markdown(summary, columns=cols, percent=["min_dcf"], precision={"min_dcf": 1})
    assert "minDCF (%)" in chosen and "25.8" in chosen


@requires_tabulate
def test_intervals_merge_or_not():
    merged = to_markdown(comparison_table(), columns=["system_a", "system_b", "estimate", "ci_low", "ci_high"])
    assert "0.25 [-0.95, 1.45]" in merged and "CI low" not in merged
    separate = to_markdown(comparison_table(), intervals=False, columns=["system_a", "estimate", "ci_low"])
    assert "CI low" in separate and "[" not in separate


@requires_tabulate
def test_pvalues_negative_zero_and_missing():
    text = to_markdown(comparison_table())
    assert "< 0.001" in text and "0.540" in text
    assert "-0.00" not in text  # -0.0004 % rounds to 0.00, not -0.00
    frame = pd.DataFrame({"system": ["a", "b"], "eer": [0.1, np.nan]})
    assert "\u2013" in to_markdown(frame)


@requires_jinja2
def test_latex_escapes_text_and_symbols():
    frame = pd.DataFrame({"system": ["a_b&c", "50%"], "eer": [0.1, 0.2], "pvalue": [0.5, 1e-9]})
    text = to_latex(frame)
    assert r"a\_b\&c" in text and r"50\%" in text
    assert r"$<$ 0.001" in text
    assert r"\toprule" in text and r"\midrule" in text and r"\bottomrule" in text


@requires_jinja2
def test_latex_caption_and_label():
    frame = pd.DataFrame({"system": ["a", "b"], "eer": [0.1, 0.2]})
    bare = to_latex(frame, caption="", fit=False)
    assert bare.startswith(r"\begin{tabular}") and r"\caption" not in bare
    fitted = to_latex(frame, caption="")  # shrunk to the line when wider, never enlarged
    assert fitted == (r"\noindent\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}"
                      "{!}{%\n" + bare.rstrip("\n") + "%\n}\n")
    labelled = to_latex(frame, label="tab:x")
    assert r"\begin{table}" in labelled and r"\label{tab:x}" in labelled
    assert r"\caption{Rates in \%. Best per column in bold.}" in labelled
    with pytest.raises(ValueError) as info:
        to_latex(frame, caption="", label="tab:x")  # a label needs a caption
    assert str(info.value) == ERROR_LABEL.format(label="tab:x")
    assert r"\caption{My $x$}" in to_latex(frame, caption="My $x$")  # used as given


@requires_tabulate
def test_markdown_caption_and_label():
    frame = pd.DataFrame({"system": ["a", "b"], "eer": [0.1, 0.2]})
    assert to_markdown(frame, label="tbl:x").endswith(
        "Table: Rates in %. Best per column in bold. {#tbl:x}\n"
    )
    with pytest.raises(ValueError) as info:
        to_markdown(frame, caption="", label="tbl:x")
    assert str(info.value) == ERROR_LABEL.format(label="tbl:x")
    assert to_markdown(frame, caption="Mine.").endswith("\n\nTable: Mine.\n")
    assert "Table:" not in to_markdown(frame, caption="")


@requires_tabulate
def test_generated_caption_names_test_correction_and_level(summary):
    marked = to_markdown(summary, columns=MARKED_COLUMNS, comparison=comparison_table())
    caption = marked.splitlines()[-1]
    assert "paired bootstrap test" in caption
    assert "Holm correction" in caption
    assert "\u03b1 = 0.05" in caption
    assert caption.count("\u2020") == 1
    pairwise = to_markdown(comparison_table()).splitlines()[-1]
    assert "Pairwise comparisons: paired bootstrap test" in pairwise and "Holm" in pairwise
    assert "95% confidence interval" in pairwise
    none = comparison_table().assign(adjust="none")
    assert "no correction" in to_markdown(none).splitlines()[-1]


@requires_tabulate
def test_marks_follow_the_adjusted_decisions(summary):
    # the comparison's metric "eer" is the library's default EER: column eer_threshold
    text = to_markdown(summary, columns=["system", "split", "eer_threshold"],
                       comparison=comparison_table())
    cells = {
        tuple(part.strip() for part in line.split("|")[1:3]): line.split("|")[3].strip()
        for line in text.splitlines()[2:10]
    }
    assert cells[("cnn_aug", "dev")] == "**3.85**"
    assert cells[("cnn", "dev")].endswith("\u2020") and cells[("gmm", "dev")].endswith("\u2020")
    assert not cells[("lbp", "dev")].endswith("\u2020")
    assert cells[("cnn", "eval")].endswith("\u2020")
    assert not cells[("gmm", "eval")].endswith("\u2020")
    assert "\u2020" not in to_markdown(
        summary, columns=["system", "split", "eer_threshold"], comparison=comparison_table(),
        marks=False
    )


@requires_tabulate
def test_marks_on_a_metric_table():
    boot = pd.DataFrame(
        {
            "system": ["cnn", "cnn_aug", "gmm", "lbp"],
            "split": "eval",
            "metric": "eer",
            "estimate": [0.0494, 0.0458, 0.0939, 0.1615],
            "ci_low": [0.035, 0.033, 0.075, 0.14],
            "ci_high": [0.062, 0.057, 0.11, 0.18],
            "confidence_level": 0.95,
        }
    )
    text = to_markdown(boot, comparison=comparison_table())
    assert "4.94\u2020 [3.50, 6.20]" in text and "**4.58 [3.30, 5.70]**" in text
    assert "Metric: EER" in text


@requires_tabulate
def test_marks_with_a_real_comparison():
    significance = pytest.importorskip("pandas_biosig.verification")
    trials = pbs.datasets.example_trials()
    comparison = significance.compare(trials, test="mcnemar", on=None, apply_to=None,
                                      test_decision_rules=True)
    rates = pbs.error_rates(trials)
    text = to_markdown(rates, columns=["system", "split", "far", "frr", "error_rate"], comparison=comparison)
    assert "McNemar test on error rate" in text
    best = rates.loc[rates.groupby("split").error_rate.idxmin()]
    for system, split in zip(best.system, best.split, strict=True):
        rows = comparison[(comparison.split == split) & ((comparison.system_a == system) | (comparison.system_b == system))]
        tied = {a if b == system else b for a, b in zip(rows.system_a[~rows.reject], rows.system_b[~rows.reject], strict=True)}
        for line in text.splitlines()[2:]:
            parts = [p.strip() for p in line.split("|")[1:-1]]
            if len(parts) == 5 and parts[1] == split:
                assert parts[4].endswith("\u2020") == (parts[0] in tied)


# ----------------------------------------------------------------------------- errors
@requires_tabulate
def test_option_errors(summary):
    found = list(summary.columns)
    with pytest.raises(TypeError) as info:
        to_markdown(summary.to_dict())
    assert str(info.value) == ERROR_NOT_A_FRAME.format(type="dict")
    with pytest.raises(ValueError) as info:
        to_markdown(summary, columns=["system", "nope"])
    assert str(info.value) == ERROR_COLUMNS.format(name="columns", missing=["nope"], found=found)
    with pytest.raises(ValueError) as info:
        to_markdown(summary, percent="eer_rocch")
    assert str(info.value) == ERROR_PERCENT.format(value="eer_rocch")
    with pytest.raises(ValueError) as info:
        to_markdown(summary, percent=["system"])
    assert str(info.value) == ERROR_PERCENT.format(value=["system"])
    with pytest.raises(ValueError) as info:
        to_markdown(summary, precision=-1)
    assert str(info.value) == ERROR_PRECISION.format(value=-1)
    with pytest.raises(ValueError) as info:
        to_markdown(summary, best="lowest")
    assert str(info.value) == ERROR_BEST.format(value="lowest")
    with pytest.raises(ValueError) as info:
        to_markdown(summary, best={"auc": "up"})
    assert str(info.value) == ERROR_BEST.format(value={"auc": "up"})
    with pytest.raises(ValueError) as info:
        to_markdown(summary, intervals="yes")
    assert str(info.value) == ERROR_FLAG.format(name="intervals", value="yes")
    with pytest.raises(ValueError) as info:
        to_markdown(summary, marks=1.5)
    assert str(info.value) == ERROR_MARKS.format(value=1.5)


@requires_tabulate
def test_marks_errors(summary):
    comparison = comparison_table()
    with pytest.raises(ValueError) as info:
        to_markdown(summary, comparison=comparison.drop(columns="reject"))
    assert str(info.value) == ERROR_COMPARISON.format(
        needed=["system_a", "system_b", "metric", "reject"], missing=["reject"]
    )
    with pytest.raises(ValueError) as info:
        to_markdown(summary, columns=["system", "split", "auc"], comparison=comparison.assign(metric="hter"))
    assert str(info.value) == ERROR_MARK_COLUMN.format(metric="hter", found=list(summary.columns))
    with pytest.raises(ValueError) as info:
        to_markdown(summary, comparison=comparison, marks="threshold")
    assert str(info.value) == ERROR_MARK_DIRECTION.format(column="threshold")
    with pytest.raises(ValueError) as info:
        to_markdown(summary, comparison=comparison.iloc[1:])
    assert str(info.value) == ERROR_MARK_PAIR.format(
        a="cnn_aug", b="cnn", where=" in split 'dev'", metric="eer"
    )
    with pytest.raises(ValueError) as info:
        to_markdown(summary, comparison=comparison.assign(split="test"))
    assert str(info.value) == ERROR_MARK_SPLIT.format(
        splits=["dev", "eval"], metric="eer", found=["test"]
    )
    with pytest.raises(ValueError) as info:
        to_markdown(summary.drop(columns="system"), comparison=comparison)
    assert str(info.value) == ERROR_MARK_SYSTEMS.format(found=list(summary.columns[1:]))
    # an explicit column and direction make any metric markable
    text = to_markdown(
        summary, columns=["system", "split", "cllr"], comparison=comparison.assign(metric="x"),
        marks={"x": "cllr"},
    )
    assert "\u2020" in text


# ----------------------------------------------------------------------------- optional deps
def test_to_latex_without_jinja2(monkeypatch, summary):
    monkeypatch.setitem(sys.modules, "jinja2", None)
    with pytest.raises(ImportError, match="pip install") as info:
        to_latex(summary)
    assert str(info.value) == ERROR_MISSING_EXTRA.format(function="to_latex", package="jinja2")


def test_to_markdown_without_tabulate(monkeypatch, summary):
    monkeypatch.setitem(sys.modules, "tabulate", None)
    with pytest.raises(ImportError, match="pip install"):
        to_markdown(summary)


# ----------------------------------------------------------------------------- pdflatex
@requires_jinja2
@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex is not installed")
def test_latex_compiles_and_fits_the_default_article_page(tmp_path, summary):
    """Every table, Python's and the command line's, compiles in the default ``article``
    (345 pt of text width, no geometry package) without an overfull box: the CLI's
    summary.tex was 360 pt too wide, apriori.tex 132 pt, to_latex(compare()) 381 pt."""
    from pandas_biosig.cli import main

    trials = pbs.datasets.example_trials()
    by_protocol = pd.concat(
        [summary.assign(protocol=p) for p in ("P1", "P2")], ignore_index=True
    )[["protocol", *MARKED_COLUMNS]]
    tables = {
        "marked": to_latex(summary, columns=MARKED_COLUMNS, comparison=comparison_table(),
                           label="tab:a"),
        "golden compare": to_latex(comparison_table(), label="tab:b"),
        "no caption": to_latex(summary.iloc[:, :8], caption=""),
        "by protocol": to_latex(by_protocol, label="tab:c"),
        "summary()": to_latex(pbs.summary(trials)),
        "compare()": to_latex(pbs.compare(trials, n_resamples=20, seed=0)),
        "ci()": to_latex(pbs.ci(trials)),
        "bootstrap()": to_latex(pbs.bootstrap(trials, n_resamples=20, seed=0)),
        "error_rates()": to_latex(pbs.error_rates(trials)),
    }
    # and every table of the command-line report, as written with --latex
    assert main(["report", "--out", str(tmp_path / "report"), "--latex", "--n-resamples", "20"]) == 0
    written = sorted((tmp_path / "report").glob("*.tex"))
    assert {p.stem for p in written} == {"summary", "eer_bootstrap", "apriori", "compare"}
    for path in written:
        text = path.read_text()
        assert r"\caption{" in text and r"\label{tab:" in text, path.name  # captions everywhere
        tables[path.name] = text
    for name, table in tables.items():  # one document per table: the log names it
        stem = re.sub(r"\W+", "_", name)
        (tmp_path / f"{stem}.tex").write_text(
            "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
            "\\begin{document}\n" + table + "\n\\end{document}\n"
        )
        result = subprocess.run(
            ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{stem}.tex"],
            cwd=tmp_path, capture_output=True, text=True,
        )
        assert result.returncode == 0, (name, result.stdout[-3000:])
        log = (tmp_path / f"{stem}.log").read_text(errors="replace")
        assert "Overfull" not in log, (name, re.findall(r"Overfull.*", log))
        assert (tmp_path / f"{stem}.pdf").stat().st_size > 0


@requires_tabulate
def test_marks_need_a_direction_for_an_unknown_metric():
    table = pd.DataFrame(
        {"system": ["a", "b"], "metric": "speed", "estimate": [1.0, 2.0]}
    )
    comparison = pd.DataFrame(
        {"system_a": ["a"], "system_b": ["b"], "metric": ["speed"], "reject": [False]}
    )
    with pytest.raises(ValueError) as info:
        to_markdown(table, comparison=comparison)
    assert str(info.value) == ERROR_MARK_DIRECTION.format(column="estimate")
    text = to_markdown(table, comparison=comparison, best={"estimate": "max"})
    assert "**2.00**" in text and "1.00\u2020" in text


@pytest.mark.parametrize("kind", ["tex", "md"])
def test_empty_table(kind, summary):
    pytest.importorskip("jinja2" if kind == "tex" else "tabulate")
    text = render(kind, summary.iloc[:0], columns=["system", "eer_rocch"])
    assert "EER (ROCCH)" in text or r"\shortstack{EER\\(ROCCH)}" in text


@requires_tabulate
def test_one_registry_formats_every_column_and_extends_to_new_ones(monkeypatch):
    """COLUMN_FORMATS gives each column its name, unit and decimals; a column of another
    result frame is formatted once it is registered; the rates of one table share their
    decimals (EER was printed with 3 and 2 decimals in one table)."""
    from pandas_biosig.export import COLUMN_FORMATS, HEADERS, RATES, ColumnFormat

    frame = pd.DataFrame({"system": ["a", "b"], "apcer_x": [0.1234, 0.5], "eer": [0.01, 0.02],
                          "far": [0.01001, 0.01], "threshold": [0.5, 0.25]})
    before = to_markdown(frame, caption="", best=None).splitlines()[0]
    assert "apcer_x" in before and "EER (%)" in before
    monkeypatch.setitem(COLUMN_FORMATS, "apcer_x", ColumnFormat("APCER-x", "%", 1))
    assert HEADERS["apcer_x"] == "APCER-x" and "apcer_x" in RATES
    lines = to_markdown(frame, caption="", best=None).splitlines()
    assert lines[0].split("|")[2].strip() == "APCER-x (%)"
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]
    # far needs 3 decimals (1.001 vs 1.00); the other rates of the table get them too
    assert [row[1:4] for row in cells] == [["12.340", "1.000", "1.001"], ["50.000", "2.000", "1.000"]]
    assert [row[4] for row in cells] == ["0.5000", "0.2500"]  # thresholds: 4 decimals
    monkeypatch.delitem(COLUMN_FORMATS, "apcer_x")
    assert "apcer_x" not in HEADERS and "apcer_x" not in RATES


def test_every_column_of_the_main_results_has_a_display_name():
    from pandas_biosig.export import COLUMN_FORMATS

    trials = pbs.datasets.example_trials()
    results = {
        "summary": pbs.summary(trials), "compare": pbs.compare(trials, n_resamples=20, seed=0),
        "ci": pbs.ci(trials), "bootstrap": pbs.bootstrap(trials, n_resamples=20, seed=0),
        "error_rates": pbs.error_rates(trials), "eer": pbs.eer(trials), "dcf": pbs.dcf(trials),
    }
    missing = {name: [c for c in frame.columns if c not in COLUMN_FORMATS]
               for name, frame in results.items()}
    assert not any(missing.values()), missing
