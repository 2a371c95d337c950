"""The shared formatting rules of the exporters (internal): what a column name means (headers,
rates, best direction, settings, hidden columns, p-values), the messages, the checks of the
options, and the parameter documentation both exporters share.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Hashable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class ColumnFormat:
    """How a result column is shown: its display name, its unit and its decimals.

    ``unit``: ``"%"`` (a rate in [0, 1], shown in % with ``percent=True``), ``"count"``
    (whole numbers), ``"score"`` (score units: thresholds), ``"unitless"`` (AUC, DCF, Cllr,
    statistics...), ``"p"`` (a p-value) or ``"text"``. ``decimals``: the fewest decimals
    by default (``precision=None``); None leaves it to :data:`DEFAULT_DECIMALS`.
    ``bounds``: for an interval bound (``fmr_low``, ``ci_high``), the columns whose value
    it bounds, in order of preference: the bound is shown in the unit (% or not) and
    with the decimals of the first of them that the table has.
    """

    name: str
    unit: Literal["%", "count", "score", "unitless", "p", "text"] = "text"
    decimals: int | None = None
    bounds: tuple[str, ...] = ()


#: The fewest decimals of a number whose column has no ``decimals`` of its own.
DEFAULT_DECIMALS = 2


def _fmt(name, unit="text", decimals=None, bounds=()) -> ColumnFormat:
    return ColumnFormat(name, unit, decimals, tuple(bounds))


#: What an unnamed interval (``ci_low``, ``ci_high``) bounds when the table has no
#: ``metric`` column: its ``estimate``, or the one estimate column of a table of rates
#: (``rate`` of :func:`~pandas_biosig.pad_rates`, ``iapmr`` of :func:`~pandas_biosig.iapmr`).
_ESTIMATES = ("estimate", "rate", "iapmr")


#: The one registry of result columns (and of the values of ``metric``): display name,
#: unit and decimals. Every exporter reads it: extend it (``COLUMN_FORMATS[name] =
#: ColumnFormat(...)``) for the columns of another result frame. Within one table, the
#: columns of one unit ("%", "score") share their decimals.
COLUMN_FORMATS: dict[str, ColumnFormat] = {
    # keys
    "system": _fmt("System"), "system_a": _fmt("System A"), "system_b": _fmt("System B"),
    "split": _fmt("Split"), "metric": _fmt("Metric"), "test": _fmt("Test"),
    # counts
    "n_genuine": _fmt("# genuine", "count"), "n_impostor": _fmt("# impostor", "count"),
    "n": _fmt("n", "count"), "fa": _fmt("FA", "count"), "fr": _fmt("FR", "count"),
    "n_resamples": _fmt("Resamples", "count"), "n_folds": _fmt("Folds", "count"),
    # rates
    "eer": _fmt("EER", "%"), "eer_rocch": _fmt("EER (ROCCH)", "%"),
    "eer_threshold": _fmt("EER (threshold)", "%"),
    "eer_interpolated": _fmt("EER (interpolated)", "%"), "min_hter": _fmt("min HTER", "%"),
    "hter": _fmt("HTER", "%"), "far": _fmt("FAR", "%"), "frr": _fmt("FRR", "%"),
    "fta": _fmt("FTA", "%"), "fmr": _fmt("FMR", "%"), "fnmr": _fmt("FNMR", "%"),
    "error_rate": _fmt("Error rate", "%"), "recognition_rate": _fmt("Recognition rate", "%"),
    "fmr100": _fmt("FMR100", "%"), "fmr1000": _fmt("FMR1000", "%"),
    "zero_fmr": _fmt("ZeroFMR", "%"), "zero_fnmr": _fmt("ZeroFNMR", "%"),
    "fnmr_at_fmr": _fmt("FNMR @ FMR", "%"), "fmr_at_fnmr": _fmt("FMR @ FNMR", "%"),
    "target": _fmt("Target", "%"),
    # score units: enough decimals to apply the threshold again
    "threshold": _fmt("Threshold", "score", 4), "threshold_a": _fmt("Threshold A", "score", 4),
    "threshold_b": _fmt("Threshold B", "score", 4),
    "min_dcf_threshold": _fmt("minDCF threshold", "score", 4),
    # unitless numbers
    "auc": _fmt("AUC", "unitless", 4), "min_dcf": _fmt("minDCF", "unitless", 3),
    "act_dcf": _fmt("actDCF", "unitless", 3), "dcf": _fmt("DCF", "unitless", 3),
    "cllr": _fmt("Cllr", "unitless", 3), "min_cllr": _fmt("min Cllr", "unitless", 3),
    "cllr_loss": _fmt("Cllr loss", "unitless", 3), "dcf_loss": _fmt("DCF loss", "unitless", 3),
    "objective": _fmt("Objective", "unitless", 4),
    "d_prime": _fmt("d'", "unitless", 2), "estimate": _fmt("Estimate", "unitless"),
    "se": _fmt("SE", "unitless"), "statistic": _fmt("Statistic", "unitless", 2),
    "ci_low": _fmt("CI low", "unitless", bounds=_ESTIMATES),
    "ci_high": _fmt("CI high", "unitless", bounds=_ESTIMATES),
    "log10_pvalue": _fmt("log10 p", "unitless", 2), "alpha": _fmt("alpha", "unitless"),
    "confidence_level": _fmt("Confidence level", "unitless"),
    "weight": _fmt("Weight", "unitless"), "p_target": _fmt("P(target)", "unitless"),
    "c_miss": _fmt("C(miss)", "unitless"), "c_fa": _fmt("C(fa)", "unitless"),
    # p-values
    "pvalue": _fmt("p", "p", 3), "pvalue_adj": _fmt("p (adjusted)", "p", 3),
    "pvalue_mc_se": _fmt("p MC SE", "unitless", 3),
    # how a result was computed
    "adjust": _fmt("Correction"), "reject": _fmt("Significant"),
    "alternative": _fmt("Alternative"), "method": _fmt("Method"),
    "criterion": _fmt("Criterion"), "threshold_split": _fmt("Threshold split"),
    "threshold_from": _fmt("Threshold from"), "holds_for": _fmt("Holds for"),
    "ci_method": _fmt("CI method"),
    "resample": _fmt("Resampling"), "null_hypothesis": _fmt("Null hypothesis"),
    "fallback_reason": _fmt("Fallback reason"),
    # presentation-attack detection (ISO/IEC 30107-3) and vulnerability
    "pai": _fmt("Species"), "n_bonafide": _fmt("# bona fide", "count"),
    "n_attack": _fmt("# attack", "count"), "n_species": _fmt("# species", "count"),
    "n_zei": _fmt("# zero-effort", "count"), "errors": _fmt("Errors", "count"),
    "accepted": _fmt("Accepted", "count"),
    "apcer": _fmt("APCER", "%"), "apcer_max": _fmt("APCER (max)", "%"),
    "apcer_max_species": _fmt("APCER (max) species"), "apcer_pooled": _fmt("APCER (pooled)", "%"),
    "bpcer": _fmt("BPCER", "%"), "acer": _fmt("ACER", "%"), "rate": _fmt("Rate", "%"),
    "iapmr": _fmt("IAPMR", "%"), "iapmr_max": _fmt("IAPMR (max)", "%"),
    "iapmr_max_species": _fmt("IAPMR (max) species"),
    # demographic differentials
    "group": _fmt("Group"), "reference_group": _fmt("Reference group"),
    "group_a": _fmt("Group A"), "group_b": _fmt("Group B"), "impostors": _fmt("Impostors"),
    "n_groups": _fmt("# groups", "count"), "n_subjects": _fmt("# subjects", "count"),
    "n_a": _fmt("n A", "count"), "n_b": _fmt("n B", "count"),
    "fmr_low": _fmt("FMR low", "%", bounds=("fmr",)),
    "fmr_high": _fmt("FMR high", "%", bounds=("fmr",)),
    "fnmr_low": _fmt("FNMR low", "%", bounds=("fnmr",)),
    "fnmr_high": _fmt("FNMR high", "%", bounds=("fnmr",)),
    "rate_a": _fmt("Rate A", "%"), "rate_b": _fmt("Rate B", "%"),
    "value_a": _fmt("Value A", "unitless"), "value_b": _fmt("Value B", "unitless"),
    "fmr_max": _fmt("max FMR", "%"), "fmr_max_group": _fmt("max FMR group"),
    "fmr_min": _fmt("min FMR", "%"), "fmr_min_group": _fmt("min FMR group"),
    "fnmr_max": _fmt("max FNMR", "%"), "fnmr_max_group": _fmt("max FNMR group"),
    "fnmr_min": _fmt("min FNMR", "%"), "fnmr_min_group": _fmt("min FNMR group"),
    "fmr_ratio": _fmt("FMR ratio", "unitless"), "fnmr_ratio": _fmt("FNMR ratio", "unitless"),
    "fdr": _fmt("FDR", "unitless", 3), "gini_fmr": _fmt("Gini (FMR)", "unitless", 3),
    "gini_fnmr": _fmt("Gini (FNMR)", "unitless", 3), "garbe": _fmt("GARBE", "unitless", 3),
    "inequity_rate": _fmt("IR", "unitless"), "undefined_reason": _fmt("Undefined because"),
    # the EER bound of published results
    "verdict": _fmt("Verdict"), "eer_a": _fmt("EER A", "%"), "eer_b": _fmt("EER B", "%"),
    "min_significant_difference": _fmt("Least significant difference", "%"),
    # folds and identification
    "fold": _fmt("Fold"), "wins_a": _fmt("Wins A", "count"), "wins_b": _fmt("Wins B", "count"),
    "ties": _fmt("Ties", "count"), "mean": _fmt("Mean", "unitless"),
    "std": _fmt("SD", "unitless"), "min": _fmt("Min", "unitless"), "max": _fmt("Max", "unitless"),
    "mean_a": _fmt("Mean A", "unitless"), "mean_b": _fmt("Mean B", "unitless"),
    "rank": _fmt("Rank", "count"), "probe": _fmt("Probe"), "mated": _fmt("Mated"),
    "n_probes": _fmt("# probes", "count"), "n_mated": _fmt("# mated", "count"),
    "n_unmated": _fmt("# unmated", "count"), "n_correct": _fmt("# correct", "count"),
    "n_detected": _fmt("# detected", "count"),
    "n_false_alarms": _fmt("# false alarms", "count"),
    "n_references": _fmt("# references", "count"), "n_mates": _fmt("# mates", "count"),
    "dir": _fmt("DIR", "%"), "mate_score": _fmt("Mate score", "score", 4),
    "nonmate_score": _fmt("Best non-mate score", "score", 4),
    # calibration
    "not_llr": _fmt("Not LLRs"), "source": _fmt("Source"), "term": _fmt("Term"),
    "fitted_on": _fmt("Fitted on"), "applied_to": _fmt("Applied to"),
    "prior": _fmt("Prior", "unitless"), "fit": _fmt("Fit"),
    "iterations": _fmt("Iterations", "count"), "converged": _fmt("Converged"),
    # uncertainty: simultaneous bands and threshold guarantees
    "band_low": _fmt("Band low", "unitless", bounds=_ESTIMATES),
    "band_high": _fmt("Band high", "unitless", bounds=_ESTIMATES),
    "resolved": _fmt("Resolved"), "bound": _fmt("Upper bound", "%"),
    # ASV and CM in tandem (t-DCF, t-EER, a-DCF): rates in %, costs unitless
    "asv_system": _fmt("ASV system"), "cm_system": _fmt("CM system"),
    "version": _fmt("Version"), "costs": _fmt("Costs"),
    "p_nontarget": _fmt("P(non-target)", "unitless"), "p_spoof": _fmt("P(spoof)", "unitless"),
    "c_miss_asv": _fmt("C(miss, ASV)", "unitless"), "c_fa_asv": _fmt("C(fa, ASV)", "unitless"),
    "c_miss_cm": _fmt("C(miss, CM)", "unitless"), "c_fa_cm": _fmt("C(fa, CM)", "unitless"),
    "c_fa_spoof": _fmt("C(fa, spoof)", "unitless"),
    "n_target": _fmt("# target", "count"), "n_nontarget": _fmt("# non-target", "count"),
    "n_spoof": _fmt("# spoof", "count"), "n_failed": _fmt("# failed", "count"),
    "asv_threshold": _fmt("ASV threshold", "score", 4),
    "asv_threshold_from": _fmt("ASV threshold from"),
    "cm_threshold": _fmt("CM threshold", "score", 4), "cm_threshold_from": _fmt("CM threshold from"),
    "asv_pfa": _fmt("ASV P(fa)", "%"), "asv_pmiss": _fmt("ASV P(miss)", "%"),
    "asv_pmiss_spoof": _fmt("ASV P(miss, spoof)", "%"),
    "asv_pfa_spoof": _fmt("ASV P(fa, spoof)", "%"),
    "cm_pmiss": _fmt("CM P(miss)", "%"), "cm_pfa": _fmt("CM P(fa)", "%"),
    "c0": _fmt("C0", "unitless", 4), "c1": _fmt("C1", "unitless", 4),
    "c2": _fmt("C2", "unitless", 4), "tdcf_norm": _fmt("t-DCF normaliser", "unitless", 4),
    "min_tdcf": _fmt("min t-DCF", "unitless", 4), "act_tdcf": _fmt("act t-DCF", "unitless", 4),
    "min_tdcf_threshold": _fmt("min t-DCF threshold", "score", 4),
    "min_pmiss_cm": _fmt("CM P(miss) at min", "%"), "min_pfa_cm": _fmt("CM P(fa) at min", "%"),
    "act_pmiss_cm": _fmt("CM P(miss) at act", "%"), "act_pfa_cm": _fmt("CM P(fa) at act", "%"),
    "teer": _fmt("t-EER", "%"),
    "min_adcf": _fmt("min a-DCF", "unitless", 4), "act_adcf": _fmt("act a-DCF", "unitless", 4),
    "min_adcf_threshold": _fmt("min a-DCF threshold", "score", 4),
    "min_pmiss": _fmt("P(miss) at min", "%"), "min_pfa": _fmt("P(fa) at min", "%"),
    "min_pfa_spoof": _fmt("P(fa, spoof) at min", "%"),
    "act_pmiss": _fmt("P(miss) at act", "%"), "act_pfa": _fmt("P(fa) at act", "%"),
    "act_pfa_spoof": _fmt("P(fa, spoof) at act", "%"),
}

class _Names(Mapping):
    """Column -> display name: a live view of :data:`COLUMN_FORMATS`."""

    def __getitem__(self, column):
        return COLUMN_FORMATS[column].name

    def __iter__(self):
        return iter(COLUMN_FORMATS)

    def __len__(self):
        return len(COLUMN_FORMATS)


class _Rates(AbstractSet):
    """The columns of unit ``"%"``: a live view of :data:`COLUMN_FORMATS`."""

    def __contains__(self, column):
        fmt = COLUMN_FORMATS.get(column) if isinstance(column, str) else None
        return fmt is not None and fmt.unit == "%"

    def __iter__(self):
        return (c for c, f in COLUMN_FORMATS.items() if f.unit == "%")

    def __len__(self):
        return sum(1 for _ in self)


#: Header text of the known columns (and display names of the values of ``metric``):
#: the names of :data:`COLUMN_FORMATS` (a read-only view: extend the registry).
HEADERS: Mapping[str, str] = _Names()

#: Columns, and values of ``metric``, that hold rates in [0, 1]: shown in % with
#: ``percent=True``. Differences of rates (``estimate`` of a comparison) are in % too.
#: The registry's columns of unit ``"%"`` (a read-only view).
RATES: AbstractSet[str] = _Rates()


def _unit(column) -> str:
    fmt = COLUMN_FORMATS.get(column)
    return fmt.unit if fmt is not None else "text"


def _bound_of(column, columns) -> str | None:
    """The column of ``columns`` whose value ``column`` bounds (an interval bound's
    estimate, :attr:`ColumnFormat.bounds`), or None."""
    fmt = COLUMN_FORMATS.get(column)
    if fmt is None:
        return None
    return next((c for c in fmt.bounds if c in columns and c != column), None)


def _default_decimals(column) -> int:
    fmt = COLUMN_FORMATS.get(column)
    if fmt is not None and fmt.decimals is None and fmt.unit == "count":
        return 0  # whole numbers, even in a float column (a count with missing values)
    return fmt.decimals if fmt is not None and fmt.decimals is not None else DEFAULT_DECIMALS


#: Which value is best, by column (or ``metric`` value): lower for error rates and costs,
#: higher for AUC, d' and recognition rates. Other columns are not ranked by default.
BEST: dict[str, Literal["min", "max"]] = {
    **{name: "min" for name in set(RATES) - {"recognition_rate", "target", "dir"}
       if not COLUMN_FORMATS[name].bounds},
    "min_dcf": "min",
    "act_dcf": "min",
    "dcf": "min",
    "cllr": "min",
    "min_cllr": "min",
    "cllr_loss": "min",
    "dcf_loss": "min",
    "auc": "max",
    "d_prime": "max",
    "recognition_rate": "max",
    "dir": "max",
}

#: Columns whose meaning on a row is given by that row's ``metric``.
BY_METRIC = (
    "estimate", "se", "ci_low", "ci_high", "band_low", "band_high", "mean", "std", "min",
    "max", "mean_a", "mean_b", "value_a", "value_b",
)

#: Columns that record how a result was computed. By default one that has a single value
#: over the rows is left out of the table and named in the caption instead.
SETTINGS = (
    "metric", "test", "adjust", "alpha", "confidence_level", "alternative", "method",
    "criterion", "threshold_split", "weight", "target", "p_target", "c_miss", "c_fa",
    "ci_method", "resample", "n_resamples", "threshold_from", "impostors",
)

#: Columns left out by default: they repeat another column (``log10_pvalue``), or are
#: sentences that the caption and the docs give (``null_hypothesis``).
HIDDEN = ("log10_pvalue", "null_hypothesis")

#: The most decimals a column gets to tell its distinct values apart.
MAX_DECIMALS = 15

#: p-value columns: three decimals (more when two distinct p-values would print the
#: same), and "< 0.001" below :data:`PVALUE_FLOOR`.
PVALUES = ("pvalue", "pvalue_adj")
PVALUE_FLOOR = 0.001

#: Columns never ranked by ``best="min"`` / ``"max"``: counts, thresholds, test output.
NOT_RANKED = frozenset(
    {
        "n", "n_genuine", "n_impostor", "n_folds", "fa", "fr", "threshold", "threshold_a",
        "threshold_b", "min_dcf_threshold", "statistic", "log10_pvalue", "se", "ci_low",
        "ci_high", "wins_a", "wins_b", "ties", "not_llr", "objective", *PVALUES, *SETTINGS,
        *(c for c, f in COLUMN_FORMATS.items() if f.bounds or f.unit in ("count", "score")),
    }
)

#: Display names of the tests of :func:`pandas_biosig.compare` (+ " test").
TEST_NAMES = {
    "mcnemar": "McNemar",
    "hter_dependent": "dependent HTER",
    "hter_independent": "independent HTER",
    "naive": "naive HTER",
    "class": "classification-error",
    "gunter_simple": "Guenter",
    "gunter_paired": "paired Guenter",
    "bootstrap": "paired bootstrap",
    "sign": "sign",
    "eer_bound": "EER-bound McNemar",
}

#: Display names of statsmodels' ``multipletests`` methods, by canonical code.
ADJUST_NAMES = {
    "b": "Bonferroni",
    "s": "Sidak",
    "h": "Holm",
    "hs": "Holm-Sidak",
    "sh": "Simes-Hochberg",
    "ho": "Hommel",
    "fdr_bh": "Benjamini-Hochberg",
    "fdr_by": "Benjamini-Yekutieli",
    "fdr_tsbh": "two-stage Benjamini-Hochberg",
    "fdr_tsbky": "two-stage Benjamini-Krieger-Yekutieli",
    "fdr_gbs": "Gavrilov-Benjamini-Sarkar",
    "lfdr": "local FDR",
}
_NO_ADJUSTMENT = ("none", "", None)

#: Columns a comparison table needs for ``marks``.
COMPARISON_COLUMNS = ("system_a", "system_b", "metric", "reject")

#: When a comparison's metric is not a column of the table, the column that shows it (a bare
#: "eer" is the library's default EER, the threshold EER).
METRIC_COLUMNS = {"eer": "eer_threshold"}

ERROR_MISSING_EXTRA = (
    "{function} needs {package!r}, a dependency of pandas-biosig that is missing from this "
    "environment: pip install {package}"
)
ERROR_NOT_A_FRAME = "expected a pandas DataFrame, got {type}"
ERROR_COLUMNS = "{name}= names column(s) {missing} that the table does not have; its columns: {found}"
ERROR_PERCENT = "percent={value!r} must be True, False or a list of numeric columns"
ERROR_PRECISION = (
    "precision={value!r} must be None, a non-negative integer or a mapping {{column: integer}}"
)
ERROR_BEST = "best={value!r} must be 'auto', 'min', 'max', None or a mapping {{column: 'min' | 'max' | None}}"
ERROR_MARKS = "marks={value!r} must be True, False, a column name or a mapping {{metric: column}}"
ERROR_COMPARISON = (
    "comparison= must be a pairwise table (the result of compare) with columns {needed}; "
    "missing {missing}"
)
ERROR_MARK_COLUMN = (
    "the comparison tests metric {metric!r}, which is not a column of the table (its "
    "columns: {found}); pass marks={{{metric!r}: '<column>'}} to name the column"
)
ERROR_MARK_DIRECTION = (
    "cannot mark column {column!r}: which value is best is unknown; pass best={{{column!r}: 'min'}} "
    "or 'max'"
)
ERROR_MARK_PAIR = (
    "the comparison has no row for systems {a!r} and {b!r}{where} (metric {metric!r}); marks "
    "need every system compared with the best one"
)
ERROR_MARK_SPLIT = (
    "the comparison has no rows for the split(s) {splits} of the table (metric {metric!r}); "
    "its splits: {found}"
)
ERROR_BY = "by={value!r} must be a column name or a list of column names"
ERROR_LABEL = (
    "label={label!r} needs a caption (a \\label without a \\caption refers to the enclosing "
    "section); pass a caption, or caption=None for the generated one"
)
ERROR_MARK_SYSTEMS = "marks need a 'system' column in the table; its columns: {found}"

_DAGGER = "\ue000"  # placeholders, replaced after LaTeX escaping
_LESS = "\ue001"
_ALPHA = "\ue002"
_MINUS = "\ue003"
_SYMBOLS = {
    "latex": {_DAGGER: r"$^\dagger$", _LESS: r"$<$", _ALPHA: r"$\alpha$", _MINUS: "$-$"},
    "markdown": {_DAGGER: "\u2020", _LESS: "<", _ALPHA: "\u03b1", _MINUS: "-"},
}
_MISSING = {"latex": "--", "markdown": "\u2013"}


# ----------------------------------------------------------------------------- options
def _require(package: str, function: str) -> None:
    try:
        importlib.import_module(package)
    except ImportError:
        raise ImportError(ERROR_MISSING_EXTRA.format(function=function, package=package)) from None


def _check_columns(names, frame: pd.DataFrame, name: str) -> list:
    names = list(names)
    missing = [c for c in names if c not in frame.columns]
    if missing:
        raise ValueError(ERROR_COLUMNS.format(name=name, missing=missing, found=list(frame.columns)))
    return names




def _is_int(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool) and bool(value >= 0)


def _own_decimals(frame) -> dict:
    """Each column's default decimals; the columns whose meaning is the row's metric
    (:data:`BY_METRIC`) take that metric's when the table holds one metric (an FDR and
    its interval print with the FDR's decimals)."""
    metrics = (
        list(dict.fromkeys(frame["metric"].dropna())) if "metric" in frame.columns else []
    )
    one = metrics[0] if len(metrics) == 1 and isinstance(metrics[0], Hashable) else None
    return {
        c: _default_decimals(one if c in BY_METRIC and one in COLUMN_FORMATS else c)
        for c in frame.columns
    }


def _check_precision(precision, frame) -> dict:
    own = _own_decimals(frame)
    if precision is None:
        return own
    if _is_int(precision):
        return {c: int(precision) for c in frame.columns}
    if isinstance(precision, Mapping) and all(_is_int(v) for v in precision.values()):
        _check_columns(precision, frame, "precision")
        return {c: int(precision.get(c, own[c])) for c in frame.columns}
    raise ValueError(ERROR_PRECISION.format(value=precision))


def _is_numeric(series: pd.Series) -> bool:
    return pd.api.types.is_numeric_dtype(series.dtype) and not pd.api.types.is_bool_dtype(
        series.dtype
    )


def _normalize(value) -> Hashable:
    """None for missing keys (None, NaN), the value otherwise (for matching splits)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    return value.item() if isinstance(value, np.generic) else value


def _lower_first(text: str) -> str:
    return text[0].lower() + text[1:] if len(text) > 1 and text[1].islower() else text


def _adjust_name(code) -> str | None:
    if _normalize(code) in _NO_ADJUSTMENT or str(code).lower() == "none":
        return None
    from statsmodels.stats.multitest import multitest_alias

    canonical = multitest_alias.get(str(code).lower(), str(code))
    return ADJUST_NAMES.get(canonical, str(code))


def _distinct(series: pd.Series) -> list:
    return list(dict.fromkeys(_normalize(v) for v in series))


def _number(value: float | np.number) -> str:
    return f"{value:g}"



_SHARED_DOC = """
    Parameters
    ----------
    frame : DataFrame
        A result table: :func:`~pandas_biosig.summary`, :func:`~pandas_biosig.error_rates`,
        :func:`~pandas_biosig.eer`, :func:`~pandas_biosig.dcf`,
        :func:`~pandas_biosig.bootstrap`, :func:`~pandas_biosig.compare`... or
        any frame. It is not modified. A named or non-default index becomes columns.
    columns : list of str, optional
        The columns to show, in order. By default all of them except: columns with no
        value, :data:`HIDDEN` columns, and :data:`SETTINGS` columns with one value over
        the rows. A setting with one value that is not shown is named in the generated
        caption.
    percent : bool or list of str
        ``True``: rates (:data:`RATES`, and ``estimate``, ``ci_low``, ``ci_high``... on
        rows whose ``metric`` is a rate) are multiplied by 100 and their header gets
        "(%)". A list names the columns to show in % instead; ``False`` shows fractions.
    precision : None, int or mapping
        The fewest decimals after the point (after scaling to %), for all columns or
        ``{column: decimals}``. ``None`` (and the columns a mapping leaves out): each
        column's own, from :data:`COLUMN_FORMATS` (thresholds 4, AUC 4, DCF and Cllr 3,
        rates and the rest :data:`DEFAULT_DECIMALS`). The columns of one unit (rates in %,
        thresholds in score units) then share the most decimals any of them needs, so one
        quantity prints with one number of decimals. A column gets more, up to
        :data:`MAX_DECIMALS`, when two of its distinct values would otherwise print the
        same (an AUC of 0.9996 and one of 1.0 print as 0.9996 and 1.0000, not both as
        1.00); the interval bounds merged into ``estimate`` count as its values.
        Integers are shown whole; p-values with at least three decimals, and as
        "< 0.001" below :data:`PVALUE_FLOOR`.
    intervals : bool
        Merge ``estimate``, ``ci_low`` and ``ci_high`` (when all three exist) into one
        ``"estimate [low, high]"`` column.
    best : {"auto", "min", "max"}, None or mapping
        Bold the best value of each column, within each group of rows that share their
        ``by`` values, ``split`` and ``metric``, when the table has a ``system`` column. ``"auto"`` ranks the columns of :data:`BEST`:
        lower is better for error rates, EER, DCF and Cllr, higher for AUC, d' and
        recognition rates. ``"min"`` / ``"max"`` rank every numeric column but counts,
        thresholds and test output (:data:`NOT_RANKED`). A mapping ``{column: "min" |
        "max" | None}`` ranks exactly those columns. Values equal at the shown precision
        are all bold.
    comparison : DataFrame, optional
        A pairwise table of :func:`~pandas_biosig.compare` (columns
        ``system_a, system_b, metric, reject`` and ``split``, ``test``, ``adjust``,
        ``alpha``) about the systems of ``frame``.
    marks : bool, str or mapping
        With ``comparison``: mark with a dagger the systems that are *not* significantly
        different from the best one (``reject`` is False, after the adjustment), in the
        column that shows the comparison's metric. ``True`` finds that column by name
        (a table with a ``metric`` column: ``estimate``; otherwise the metric's own
        column, or :data:`METRIC_COLUMNS`). A column name or a mapping ``{metric:
        column}`` names it.
    by : str or list of str, optional
        The columns whose values are separate experiments (protocols, datasets...): the
        best value and the daggers are chosen within each of their groups, never across
        them. By default the columns before ``system`` (``system_a`` in a pairwise
        table), where the library's results put the ``by`` columns of the call.
    caption : str, optional
        Used as given. By default a caption is generated. It says what is in %, what is bold, what
        the daggers and brackets mean, names the test, the correction and the
        significance level of a comparison, and gives the settings left out of the
        table. Pass ``""`` for no caption (not allowed with a ``label``).
    label : str, optional
        The cross-reference label; it needs a caption.
"""
