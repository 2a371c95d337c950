"""Every public result frame, exported to Markdown and LaTeX, shows every column under a
display name and in its unit: a rate under a "%" caption or header is in %, its interval
bounds too and with its decimals; counts are whole numbers; ratios and indices (FDR,
GARBE, IR, Gini, FMR ratio) are never scaled.

The rates, counts and interval bounds are listed here, by hand, from the functions' own
docs (not read off the export registry), so that the registry is checked against them.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig.export import COLUMN_FORMATS, HIDDEN

pytest.importorskip("tabulate")
pytest.importorskip("jinja2")

_trials = pbs.datasets.example_trials
_demo = pbs.datasets.example_demographic_trials
_search = pbs.datasets.example_search
_pad = pbs.datasets.example_pad
_vuln = pbs.datasets.example_vulnerability
_tandem = pbs.datasets.example_tandem


def _folds():
    t = _trials()
    return t.assign(fold=t.subject.str[1:].astype(int) % 4)


#: Every public function of the namespace that returns a result DataFrame.
RESULTS = {
    "summary": lambda: pbs.summary(_trials()),
    "eer": lambda: pbs.eer(_trials()),
    "error_rates": lambda: pbs.error_rates(_trials()),
    "dcf": lambda: pbs.dcf(_trials()),
    "ci": lambda: pbs.ci(_trials()),
    "bootstrap": lambda: pbs.bootstrap(_trials(), n_resamples=20, seed=0),
    "compare": lambda: pbs.compare(_trials(), n_resamples=20, seed=0),
    "pairwise_matrix": lambda: pbs.pairwise_matrix(pbs.compare(_trials(), n_resamples=20,
                                                               seed=0)),
    "eer_bound_table": lambda: pbs.eer_bound_table(
        pd.DataFrame({"system": ["A", "B", "C"], "eer": [0.0058, 0.0008, 0.0007]}), n=285390),
    "fold_metrics": lambda: pbs.fold_metrics(_folds(), metric="eer"),
    "fold_summary": lambda: pbs.fold_summary(_folds(), metric="eer"),
    "compare_folds": lambda: pbs.compare_folds(_folds(), metric="eer"),
    "group_rates": lambda: pbs.group_rates(_demo(), target=0.01),
    "fairness": lambda: pbs.fairness(_demo(), target=0.01),
    "compare_groups": lambda: pbs.compare_groups(_demo(), target=0.01, n_resamples=20, seed=0),
    "compare_fairness": lambda: pbs.compare_fairness(_demo(), target=0.01, n_resamples=20,
                                                     seed=0),
    "pad_metrics": lambda: pbs.pad_metrics(_pad()),
    "pad_rates": lambda: pbs.pad_rates(_pad()),
    "pad_compare": lambda: pbs.pad_compare(_pad(), n_resamples=20, seed=0),
    "vulnerability": lambda: pbs.vulnerability(_vuln()),
    "iapmr": lambda: pbs.iapmr(_vuln()),
    "probe_ranks": lambda: pbs.probe_ranks(_search()),
    "recognition_rate": lambda: pbs.recognition_rate(_search()),
    "detection_identification_rate": lambda: pbs.detection_identification_rate(_search()),
    "compare_identification": lambda: pbs.compare_identification(_search()),
    "calibrate.params": lambda: pbs.calibrate(_trials()).params,
    "fuse.params": lambda: pbs.fuse(_trials()).params,
    "compare_fusion": lambda: pbs.compare_fusion(_trials(), n_resamples=20, seed=0),
    "frr_at_far": lambda: pbs.frr_at_far(_trials(), n_resamples=20, seed=0),
    "threshold_guarantee": lambda: pbs.threshold_guarantee(_trials(), target=0.01),
    "tdcf": lambda: pbs.tdcf(_tandem()),
    "teer": lambda: pbs.teer(_tandem()),
    "cm_metrics": lambda: pbs.cm_metrics(_tandem()),
    "adcf": lambda: pbs.adcf(pbs.sasv_score(_tandem())),
    "tandem_bootstrap": lambda: pbs.tandem_bootstrap(_tandem(), n_resamples=20, seed=0),
    "tandem_compare": lambda: pbs.tandem_compare(_tandem(), n_resamples=20, seed=0),
}

#: Columns that hold a rate in [0, 1] (shown in % under a "%" caption).
RATES = {
    "eer", "eer_rocch", "eer_threshold", "eer_interpolated", "min_hter", "hter", "far", "frr",
    "fta", "fmr", "fnmr", "fmr100", "fmr1000", "zero_fmr", "zero_fnmr", "error_rate",
    "recognition_rate", "target", "apcer_max", "apcer_pooled", "bpcer", "acer", "rate",
    "iapmr", "iapmr_max", "fmr_max", "fmr_min", "fnmr_max", "fnmr_min", "rate_a", "rate_b",
    "dir", "eer_a", "eer_b", "min_significant_difference", "fnmr_at_fmr", "fmr_at_fnmr",
    "bound", "teer", "asv_pfa", "asv_pmiss", "asv_pmiss_spoof", "asv_pfa_spoof", "cm_pmiss",
    "cm_pfa", "min_pmiss_cm", "min_pfa_cm", "act_pmiss_cm", "act_pfa_cm", "min_pmiss",
    "min_pfa", "min_pfa_spoof", "act_pmiss", "act_pfa", "act_pfa_spoof",
}
#: Metrics (values of ``metric``) that are rates.
RATE_METRICS = RATES | {"apcer", "bpcer"}
#: Ratios and indices: never in %.
UNITLESS = {"fdr", "garbe", "gini_fmr", "gini_fnmr", "inequity_rate", "fmr_ratio",
            "fnmr_ratio", "auc", "cllr", "min_cllr", "min_dcf", "statistic", "min_tdcf",
            "act_tdcf", "min_adcf", "act_adcf", "c0", "c1", "c2", "tdcf_norm", "p_nontarget",
            "p_spoof", "prior"}
#: Whole numbers.
COUNTS = {
    "n", "n_genuine", "n_impostor", "fa", "fr", "n_bonafide", "n_attack", "n_species",
    "n_zei", "errors", "accepted", "n_groups", "n_subjects", "n_a", "n_b", "n_resamples",
    "rank", "n_probes", "n_mated", "n_unmated", "n_correct", "n_detected", "n_false_alarms",
    "n_references", "n_mates", "wins_a", "wins_b", "ties", "n_target", "n_nontarget",
    "n_spoof", "n_failed", "iterations",
}
#: Interval bounds of a named estimate (without a ``metric`` column).
BOUNDS = {"fmr_low": "fmr", "fmr_high": "fmr", "fnmr_low": "fnmr", "fnmr_high": "fnmr"}
#: Columns whose meaning is the row's metric.
BY_METRIC = {"estimate", "ci_low", "ci_high", "band_low", "band_high",
             "se", "mean", "std", "min", "max", "mean_a",
             "mean_b", "value_a", "value_b"}


@pytest.fixture(scope="module", params=sorted(RESULTS))
def result(request):
    return request.param, RESULTS[request.param]()


def _columns(name: str, frame: pd.DataFrame) -> list[str]:
    if name == "pairwise_matrix":  # its columns are the systems; its axes are named
        return [frame.index.name, frame.columns.name]
    return list(frame.columns)


def test_every_column_of_every_result_has_a_display_name(result):
    name, frame = result
    missing = [c for c in _columns(name, frame) if c not in COLUMN_FORMATS]
    assert not missing, f"{name}: {missing}"
    for column in _columns(name, frame):
        shown = COLUMN_FORMATS[column].name
        assert "_" not in shown, f"{name}: {column} is shown as {shown!r}"


def test_the_lists_of_this_test_agree_with_the_registry():
    """The hand lists are the ground truth: the registry gives every rate the unit %,
    every count the unit count, every ratio or index no unit."""
    assert {c for c in RATES if COLUMN_FORMATS[c].unit != "%"} == set()
    assert {c for c in COUNTS if COLUMN_FORMATS[c].unit != "count"} == set()
    assert {c for c in UNITLESS if COLUMN_FORMATS[c].unit != "unitless"} == set()


# ----------------------------------------------------------------------------- parsing
def _cells_markdown(text: str) -> tuple[list[str], list[list[str]], str]:
    lines = [line for line in text.splitlines() if line.startswith("|")]
    rows = [[c.strip() for c in re.split(r"(?<!\\)\|", line)[1:-1]] for line in lines]
    caption = next((line for line in text.splitlines() if line.startswith("Table:")), "")
    return rows[0], rows[2:], caption


def _latex_text(cell: str) -> str:
    cell = cell.replace("$-$", "-").replace("$<$", "<").replace(r"\%", "%").replace(r"\#", "#")
    cell = re.sub(r"\\shortstack\{(.*)\}", lambda m: m.group(1).replace("\\\\", " "), cell)
    cell = re.sub(r"\\textbf\{(.*)\}", r"\1", cell)
    return cell.replace(r"\_", "_").strip()


def _cells_latex(text: str) -> tuple[list[str], list[list[str]], str]:
    body = text.split("\\toprule", 1)[1].split("\\bottomrule", 1)[0]
    head, rows = body.split("\\midrule", 1)
    split = lambda line: [_latex_text(c) for c in line.strip().rstrip("\\").split(" & ")]  # noqa: E731
    caption = re.search(r"\\caption\{(.*)\}", text)
    return (split(head.strip().rstrip("\\").strip()),
            [split(r) for r in rows.strip().splitlines() if r.strip()],
            caption.group(1).replace(r"\%", "%") if caption else "")


def _decimals(cell: str) -> int:
    number = cell.rstrip("%")
    return len(number.split(".", 1)[1]) if "." in number else 0


def _check_cell(name, column, cell, value, in_percent):
    """The cell shows ``value`` (times 100 when ``in_percent``) at its decimals."""
    if cell in ("\u2013", "--"):
        assert pd.isna(value), f"{name}.{column}: {cell!r} for {value!r}"
        return
    if isinstance(value, bool | np.bool_) or not isinstance(value, int | float | np.number):
        return
    if not np.isfinite(value):
        assert cell.lstrip("-").rstrip("%") in ("inf", "nan"), f"{name}.{column}: {cell!r}"
        return
    shown = float(cell.rstrip("%").replace("< ", ""))
    expected = 100 * float(value) if in_percent else float(value)
    if cell.startswith("< "):  # a p-value below the floor
        assert expected < shown, f"{name}.{column}"
        return
    assert abs(shown - expected) <= 0.5 * 10 ** -_decimals(cell) + 1e-9, (
        f"{name}.{column}: {cell!r} shows {value!r}"
        + (" in %" if in_percent else " as a fraction"))


@pytest.mark.parametrize("flavor", ["markdown", "latex"])
def test_a_column_under_a_percent_caption_or_header_is_in_percent(result, flavor):
    name, frame = result
    if name == "pairwise_matrix":
        frame = frame.reset_index()
    columns = [c for c in frame.columns if not frame[c].isna().all() and c not in HIDDEN]
    render = pbs.to_markdown if flavor == "markdown" else pbs.to_latex
    text = render(frame, columns=columns, intervals=False, best=None)
    headers, rows, caption = (_cells_markdown if flavor == "markdown" else _cells_latex)(text)
    assert len(headers) == len(columns) and len(rows) == len(frame)
    says_percent = "Rates in %" in caption
    metric = frame["metric"].to_numpy(dtype=object) if "metric" in frame else None
    for j, (column, header) in enumerate(zip(columns, headers, strict=True)):
        if name != "pairwise_matrix":
            assert "_" not in header, f"{name}: header {header!r} of {column}"
        header_percent = header.endswith("(%)")
        for i, row in enumerate(rows):
            cell, value = row[j], frame[column].iloc[i]
            rate = (column in RATES or BOUNDS.get(column) in RATES
                    or (column in ("ci_low", "ci_high") and metric is None
                        and ({"rate", "iapmr"} & set(frame.columns)))
                    or (column in BY_METRIC and metric is not None
                        and metric[i] in RATE_METRICS))
            in_percent = header_percent or cell.endswith("%")
            number = isinstance(value, int | float | np.number) and not isinstance(
                value, bool | np.bool_)  # threshold_guarantee's rate names one ("far")
            if says_percent and rate and number and not pd.isna(value):
                assert in_percent, f"{name}: rate column {column} not in % under 'Rates in %'"
            if in_percent:
                assert says_percent, f"{name}: {column} in % without the caption saying so"
                assert rate, f"{name}: {column} is not a rate but is shown in %"
            if column in UNITLESS or (column in BY_METRIC and metric is not None
                                      and metric[i] in UNITLESS):
                assert not in_percent, f"{name}: {column} is unitless"
            if column in COUNTS and not pd.isna(value):
                assert re.fullmatch(r"-?\d+", cell), f"{name}: count {column} shown {cell!r}"
            _check_cell(name, column, cell, value, in_percent)


def test_a_rate_and_its_interval_share_their_decimals(result):
    name, frame = result
    if name == "pairwise_matrix":
        return
    columns = [c for c in frame.columns if not frame[c].isna().all() and c not in HIDDEN]
    headers, rows, _ = _cells_markdown(
        pbs.to_markdown(frame, columns=columns, intervals=False, best=None))
    estimates = {**BOUNDS, "ci_low": "estimate", "ci_high": "estimate"}
    if "estimate" not in frame:
        for owner in ("rate", "iapmr"):
            if owner in frame:
                estimates.update(ci_low=owner, ci_high=owner)
    for bound, owner in estimates.items():
        if bound in columns and owner in columns:
            b, o = columns.index(bound), columns.index(owner)
            got = {(_decimals(r[b]), _decimals(r[o])) for r in rows
                   if re.fullmatch(r"-?\d+(\.\d+)?%?", r[b])}
            assert all(x == y for x, y in got), f"{name}: {bound} and {owner}: {got}"


def test_the_examples_of_the_report_read_in_percent():
    """vulnerability() and pad_metrics() were captioned "Rates in %" with IAPMR, APCER and
    BPCER as fractions beside FMR and EER in %."""
    text = pbs.to_markdown(pbs.vulnerability(_vuln()))
    assert "IAPMR (%)" in text and "IAPMR (max) (%)" in text and "42.33" in text
    text = pbs.to_markdown(pbs.pad_metrics(_pad()))
    assert "APCER (max) (%)" in text and "BPCER (%)" in text and "7.75" in text
    text = pbs.to_markdown(pbs.fairness(_demo(), target=0.01))
    assert "FDR |" in text and "max FMR (%)" in text and "target = 1%" in text
