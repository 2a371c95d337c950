"""Tables for papers: LaTeX (booktabs) and Markdown from any result frame.

This module is the only place where numbers become text. Every other function returns
numbers. :func:`to_latex` renders through pandas' ``Styler.to_latex`` (it needs jinja2) and
:func:`to_markdown` through ``DataFrame.to_markdown`` (it needs tabulate). Both are
dependencies of pandas-biosig, imported only when a table is rendered.

What to show, and how, is decided by column name. The rules are data, in the module
constants :data:`HEADERS`, :data:`RATES`, :data:`BEST`, :data:`SETTINGS`, :data:`HIDDEN`
and :data:`PVALUES`, so a column name means the same thing in every table. A column that
is not listed there is shown as is.
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd

__all__ = [
    "BEST",
    "HEADERS",
    "HIDDEN",
    "MAX_DECIMALS",
    "PVALUES",
    "RATES",
    "SETTINGS",
    "to_latex",
    "to_markdown",
]

#: Header text of the known columns (and display names of the values of ``metric``).
HEADERS: dict[str, str] = {
    "system": "System",
    "system_a": "System A",
    "system_b": "System B",
    "split": "Split",
    "n_genuine": "# genuine",
    "n_impostor": "# impostor",
    "n": "n",
    "eer": "EER",
    "eer_rocch": "EER (ROCCH)",
    "eer_threshold": "EER (threshold)",
    "eer_interpolated": "EER (interpolated)",
    "threshold": "Threshold",
    "auc": "AUC",
    "min_hter": "min HTER",
    "hter": "HTER",
    "far": "FAR",
    "frr": "FRR",
    "fa": "FA",
    "fr": "FR",
    "fta": "FTA",
    "fmr": "FMR",
    "fnmr": "FNMR",
    "error_rate": "Error rate",
    "recognition_rate": "Recognition rate",
    "fmr100": "FMR100",
    "fmr1000": "FMR1000",
    "zero_fmr": "ZeroFMR",
    "zero_fnmr": "ZeroFNMR",
    "fnmr_at_fmr": "FNMR @ FMR",
    "fmr_at_fnmr": "FMR @ FNMR",
    "min_dcf": "minDCF",
    "act_dcf": "actDCF",
    "dcf": "DCF",
    "cllr": "Cllr",
    "min_cllr": "min Cllr",
    "d_prime": "d'",
    "metric": "Metric",
    "test": "Test",
    "estimate": "Estimate",
    "se": "SE",
    "statistic": "Statistic",
    "pvalue": "p",
    "pvalue_adj": "p (adjusted)",
    "log10_pvalue": "log10 p",
    "adjust": "Correction",
    "alpha": "alpha",
    "reject": "Significant",
    "confidence_level": "Confidence level",
    "ci_low": "CI low",
    "ci_high": "CI high",
    "threshold_a": "Threshold A",
    "threshold_b": "Threshold B",
    "alternative": "Alternative",
    "method": "Method",
    "criterion": "Criterion",
    "threshold_split": "Threshold split",
    "ci_method": "CI method",
    "resample": "Resampling",
}

#: Columns, and values of ``metric``, that hold rates in [0, 1]: shown in % with
#: ``percent=True``. Differences of rates (``estimate`` of a comparison) are in % too.
RATES = frozenset(
    {
        "eer", "eer_rocch", "eer_threshold", "eer_interpolated", "min_hter", "hter", "far",
        "frr", "error_rate", "recognition_rate", "fmr100", "fmr1000", "zero_fmr",
        "zero_fnmr", "fnmr_at_fmr", "fmr_at_fnmr", "target", "fta", "fmr", "fnmr",
    }
)

#: Which value is best, by column (or ``metric`` value): lower for error rates and costs,
#: higher for AUC, d' and recognition rates. Other columns are not ranked by default.
BEST: dict[str, Literal["min", "max"]] = {
    **{name: "min" for name in RATES - {"recognition_rate", "target"}},
    "min_dcf": "min",
    "act_dcf": "min",
    "dcf": "min",
    "cllr": "min",
    "min_cllr": "min",
    "auc": "max",
    "d_prime": "max",
    "recognition_rate": "max",
}

#: Columns whose meaning on a row is given by that row's ``metric``.
BY_METRIC = ("estimate", "se", "ci_low", "ci_high", "mean", "std", "min", "max", "mean_a", "mean_b")

#: Columns that record how a result was computed. By default one that has a single value
#: over the rows is left out of the table and named in the caption instead.
SETTINGS = (
    "metric", "test", "adjust", "alpha", "confidence_level", "alternative", "method",
    "criterion", "threshold_split", "weight", "target", "p_target", "c_miss", "c_fa",
    "ci_method", "resample", "n_resamples",
)

#: Columns left out by default: they repeat another column.
HIDDEN = ("log10_pvalue",)

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
        "ci_high", "wins_a", "wins_b", "ties", *PVALUES, *SETTINGS,
    }
)

#: Display names of the tests of :func:`pandas_biosig.significance.compare` (+ " test").
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

#: When a comparison's metric is not a column of the table, the column that shows it.
METRIC_COLUMNS = {"eer": "eer_rocch"}

ERROR_MISSING_EXTRA = (
    "{function} needs {package!r}, a dependency of pandas-biosig that is missing from this "
    "environment: pip install {package}"
)
ERROR_NOT_A_FRAME = "expected a pandas DataFrame, got {type}"
ERROR_COLUMNS = "{name}= names column(s) {missing} that the table does not have; its columns: {found}"
ERROR_PERCENT = "percent={value!r} must be True, False or a list of numeric columns"
ERROR_PRECISION = "precision={value!r} must be a non-negative integer or a mapping {{column: integer}}"
ERROR_BEST = "best={value!r} must be 'auto', 'min', 'max', None or a mapping {{column: 'min' | 'max' | None}}"
ERROR_MARKS = "marks={value!r} must be True, False, a column name or a mapping {{metric: column}}"
ERROR_FLAG = "{name}={value!r} must be True or False"
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


def _check_flag(value, name: str) -> bool:
    if not isinstance(value, bool | np.bool_):
        raise ValueError(ERROR_FLAG.format(name=name, value=value))
    return bool(value)


def _is_int(value) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool) and value >= 0


def _check_precision(precision, frame) -> dict:
    if _is_int(precision):
        return {c: int(precision) for c in frame.columns}
    if isinstance(precision, Mapping) and all(_is_int(v) for v in precision.values()):
        _check_columns(precision, frame, "precision")
        return {c: int(precision.get(c, 2)) for c in frame.columns}
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


def _number(value: float) -> str:
    return f"{value:g}"


# ----------------------------------------------------------------------------- the table
@dataclass
class _Table:
    """What both renderers need: display strings, headers, styles and the caption."""

    cells: pd.DataFrame  # display strings, placeholders not yet substituted
    headers: list[str]
    numeric: list[bool]
    bold: np.ndarray  # (rows, columns) booleans
    caption: list[str] = field(default_factory=list)


def _display_columns(frame, columns, intervals) -> tuple[list, list, bool]:
    """``(shown columns, settings moved to the caption, merge the interval)``."""
    has_interval = all(c in frame.columns for c in ("estimate", "ci_low", "ci_high"))
    if columns is not None:
        shown = _check_columns(columns, frame, "columns")
        moved = [
            c for c in frame.columns
            if c in SETTINGS and c not in shown and not frame[c].isna().all()
            and len(_distinct(frame[c])) == 1
        ]
    else:
        shown, moved = [], []
        for c in frame.columns:
            values = frame[c]
            if values.isna().all() or c in HIDDEN:
                continue
            if c in SETTINGS and len(_distinct(values)) == 1:
                moved.append(c)
                continue
            shown.append(c)
    merge = intervals and has_interval and "estimate" in shown
    if merge:
        shown = [c for c in shown if c not in ("ci_low", "ci_high")]
    return shown, moved, merge


def _percent_mask(frame, shown, percent) -> dict[str, np.ndarray]:
    """Column -> rows whose values are shown in %."""
    if isinstance(percent, bool | np.bool_):
        if not percent:
            return {}
        metric_rates = (
            frame["metric"].isin(RATES).to_numpy()
            if "metric" in frame.columns
            else np.zeros(len(frame), dtype=bool)
        )
        mask = {}
        for c in frame.columns:
            if not _is_numeric(frame[c]):
                continue
            if c in RATES:
                mask[c] = np.ones(len(frame), dtype=bool)
            elif c in BY_METRIC and metric_rates.any():
                mask[c] = metric_rates
        return mask
    if isinstance(percent, str) or not isinstance(percent, Sequence):
        raise ValueError(ERROR_PERCENT.format(value=percent))
    names = _check_columns(percent, frame, "percent")
    if not all(_is_numeric(frame[c]) for c in names):
        raise ValueError(ERROR_PERCENT.format(value=percent))
    return {c: np.ones(len(frame), dtype=bool) for c in names}


def _by_columns(frame, by) -> list:
    """The ``by`` columns of a result table: as given, or the columns before ``system``
    (``system_a`` in a pairwise table), where the library's results put them."""
    if by is not None:
        names = [by] if isinstance(by, str) else list(by) if isinstance(by, Sequence) else None
        if names is None:
            raise ValueError(ERROR_BY.format(value=by))
        return _check_columns(names, frame, "by")
    columns = list(frame.columns)
    for anchor in ("system", "system_a"):
        if anchor in columns:
            return columns[: columns.index(anchor)]
    return []


def _groups(frame, by_columns) -> np.ndarray:
    """Group codes of the rows within which the best value is chosen (``by`` columns,
    split, metric)."""
    keys = [*by_columns, *(c for c in ("split", "metric") if c in frame.columns)]
    if not keys:
        return np.zeros(len(frame), dtype=np.intp)
    key_frame = frame[keys].astype(object).map(_normalize)
    return key_frame.apply(tuple, axis=1).factorize()[0] if len(frame) else np.zeros(0, np.intp)


def _directions(frame, shown, best) -> dict[str, np.ndarray]:
    """Column -> per-row direction ("min", "max" or "") of the columns to rank."""
    n = len(frame)

    def by_name(c) -> np.ndarray:
        if c in ("estimate", "mean") and "metric" in frame.columns:  # the row's metric
            return np.array([BEST.get(m, "") for m in frame["metric"]], dtype=object)
        return np.full(n, BEST.get(c, ""), dtype=object)

    if isinstance(best, Mapping):
        _check_columns(best, frame, "best")
        out = {}
        for c, d in best.items():
            if d not in ("min", "max", None):
                raise ValueError(ERROR_BEST.format(value=best))
            if d is not None:
                out[c] = np.full(n, d, dtype=object)
        return out
    if best is None:
        return {}
    if best not in ("auto", "min", "max"):
        raise ValueError(ERROR_BEST.format(value=best))
    if "system" not in frame.columns:
        return {}  # a pairwise table: there is no best system
    out = {}
    for c in shown:
        if not _is_numeric(frame[c]) or c in NOT_RANKED:
            continue
        directions = by_name(c) if best == "auto" else np.full(n, best, dtype=object)
        if (directions != "").any():
            out[c] = directions
    return out


def _best_mask(values: np.ndarray, directions: np.ndarray, groups: np.ndarray, digits: int):
    """Rows holding the best displayed value of their group (ties at display precision)."""
    rounded = np.array(  # the values as shown, so that equal-looking values tie
        [float(f"{v:.{digits}f}") if np.isfinite(v) else np.nan for v in values.astype(float)]
    )
    mask = np.zeros(values.size, dtype=bool)
    for g in np.unique(groups):
        rows = np.flatnonzero((groups == g) & ~np.isnan(rounded) & (directions != ""))
        if rows.size < 2:
            continue
        direction = directions[rows[0]]
        target = rounded[rows].min() if direction == "min" else rounded[rows].max()
        mask[rows[rounded[rows] == target]] = True
    return mask


def _format_number(value, digits: int, *, scaled: bool, suffix: str) -> str:
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, int | np.integer) and not scaled:
        return str(int(value)).replace("-", _MINUS)
    value = float(value) * (100.0 if scaled else 1.0)
    text = f"{value:.{digits}f}"
    if float(text) == 0:
        text = text.lstrip("-")
    return text.replace("-", _MINUS) + suffix  # a minus sign in LaTeX, not a hyphen


def _format_pvalue(value, digits: int = 3) -> str:
    if value < PVALUE_FLOOR:
        return f"{_LESS} {PVALUE_FLOOR:g}"
    return f"{value:.{digits}f}"


def _value_name(column: str, value) -> str:
    if column == "metric":
        return HEADERS.get(value, str(value))
    if column == "test":
        return TEST_NAMES.get(value, str(value))
    if column == "adjust":
        return _adjust_name(value) or "none"
    return str(value)


def _cell_name(cell: tuple):
    """A (``by`` values..., split) cell for messages: the split alone when there is no ``by``."""
    return cell[0] if len(cell) == 1 else cell


def _mark_rows(frame, shown, comparison, marks, directions, groups, bold,
               by_columns=()) -> tuple[dict, list]:
    """Column -> rows to mark with a dagger, and the comparison's metrics that were used."""
    if comparison is None or marks is False:
        return {}, []
    if not isinstance(comparison, pd.DataFrame):
        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(comparison).__name__))
    missing = [c for c in COMPARISON_COLUMNS if c not in comparison.columns]
    if missing:
        raise ValueError(ERROR_COMPARISON.format(needed=list(COMPARISON_COLUMNS), missing=missing))
    if "system" not in frame.columns:
        raise ValueError(ERROR_MARK_SYSTEMS.format(found=list(frame.columns)))
    metrics = _distinct(comparison["metric"])
    if marks is True:
        targets = {}
        for m in metrics:
            if "metric" in frame.columns and "estimate" in frame.columns:
                targets[m] = "estimate"
            elif m in frame.columns:
                targets[m] = m
            elif METRIC_COLUMNS.get(m) in frame.columns:
                targets[m] = METRIC_COLUMNS[m]
            else:
                raise ValueError(ERROR_MARK_COLUMN.format(metric=m, found=list(frame.columns)))
    elif isinstance(marks, str):
        _check_columns([marks], frame, "marks")
        targets = dict.fromkeys(metrics, marks)
    elif isinstance(marks, Mapping):
        _check_columns(marks.values(), frame, "marks")
        targets = dict(marks)
        for m in metrics:
            if m not in targets:
                raise ValueError(ERROR_MARK_COLUMN.format(metric=m, found=list(frame.columns)))
    else:
        raise ValueError(ERROR_MARKS.format(value=marks))

    systems = frame["system"].map(_normalize).to_numpy(dtype=object)
    def cells_of(table, n):
        """Each row's (``by`` values..., split): the cell its comparisons belong to."""
        keys = [c for c in (*by_columns, "split") if c in table.columns]
        if "split" not in table.columns:
            keys.append(None)
        cols = [table[c].map(_normalize).tolist() if c else [None] * n for c in keys]
        return [tuple(v) for v in zip(*cols, strict=True)] if cols else [(None,)] * n

    splits = np.empty(len(frame), dtype=object)
    splits[:] = cells_of(frame, len(frame))
    row_metric = (
        frame["metric"].to_numpy(dtype=object) if "metric" in frame.columns else None
    )
    pairs: dict[tuple, bool] = {}
    c_split = cells_of(comparison, len(comparison))
    for a, b, s, m, r in zip(
        comparison["system_a"], comparison["system_b"], c_split, comparison["metric"],
        comparison["reject"], strict=True,
    ):
        key = (s, _normalize(m))
        pairs[(*key, _normalize(a), _normalize(b))] = bool(r)
        pairs[(*key, _normalize(b), _normalize(a))] = bool(r)
    out: dict[str, np.ndarray] = {}
    for metric, column in targets.items():
        values = frame[column].to_numpy(dtype=float)
        mask = out.setdefault(column, np.zeros(len(frame), dtype=bool))
        rows_of_metric = (
            row_metric == metric if row_metric is not None else np.ones(len(frame), dtype=bool)
        )
        chosen = set(directions[column][rows_of_metric]) - {""} if column in directions else set()
        direction = (
            chosen.pop() if len(chosen) == 1 else BEST.get(metric if column == "estimate" else column)
        )
        if direction is None:
            raise ValueError(ERROR_MARK_DIRECTION.format(column=column))
        compared_splits = {k[0] for k in pairs if k[1] == metric}
        table_splits = list(dict.fromkeys(splits[rows_of_metric]))
        if not compared_splits.intersection(table_splits):
            raise ValueError(
                ERROR_MARK_SPLIT.format(
                    splits=[_cell_name(t) for t in table_splits], metric=metric,
                    found=sorted((_cell_name(t) for t in compared_splits), key=str),
                )
            )
        for g in np.unique(groups):
            rows = np.flatnonzero((groups == g) & rows_of_metric & ~np.isnan(values))
            if rows.size < 2:
                continue
            split = splits[rows[0]]
            if split not in compared_splits:
                continue
            order = values[rows] if direction == "min" else -values[rows]
            best_row = rows[int(np.argmin(order))]
            for row in rows:
                if row == best_row or (column in bold and bold[column][row]):
                    continue
                key = (split, metric, systems[best_row], systems[row])
                if key not in pairs:
                    name = _cell_name(split)
                    where = "" if name is None else f" in split {name!r}"
                    raise ValueError(
                        ERROR_MARK_PAIR.format(
                            a=systems[best_row], b=systems[row], where=where, metric=metric
                        )
                    )
                if not pairs[key]:
                    mask[row] = True
    used = [m for m in metrics if m in targets]
    return {c: m for c, m in out.items() if m.any()}, used


def _caption(frame, comparison, used_metrics, moved, percent_shown, bold_any, within,
             merged, marked) -> list[str]:
    sentences: list[str] = []
    pairwise = "system_a" in frame.columns and "system_b" in frame.columns

    def describe_tests(table) -> tuple[str, str, str]:
        tests = [_value_name("test", t) for t in _distinct(table["test"])] if "test" in table else []
        test_text = " and ".join(f"{t} test" for t in tests) or "tests"
        adjusts = [_adjust_name(a) for a in _distinct(table["adjust"])] if "adjust" in table else []
        if not adjusts:
            adjust_text = ""
        elif all(a is None for a in adjusts):
            adjust_text = "no correction for multiple comparisons"
        else:
            adjust_text = " and ".join(f"{a} correction" for a in adjusts if a)
        alphas = _distinct(table["alpha"]) if "alpha" in table else []
        alpha_text = ", ".join(f"{_ALPHA} = {_number(a)}" for a in alphas if a is not None)
        return test_text, adjust_text, alpha_text

    if pairwise:
        test_text, adjust_text, alpha_text = describe_tests(frame)
        metrics = [_lower_first(_value_name("metric", m)) for m in _distinct(frame["metric"])] \
            if "metric" in frame.columns else []
        text = f"Pairwise comparisons: {test_text}"
        if metrics:
            text += " of the difference in " + " and ".join(metrics)
        if "alternative" in frame.columns and len(_distinct(frame["alternative"])) == 1:
            text += f" ({_distinct(frame['alternative'])[0]})"
        sentences.append(text + "; " + "; ".join(t for t in (adjust_text, alpha_text) if t) + ".")
    if percent_shown:
        sentences.append("Rates in %.")
    if bold_any:
        names = [HEADERS.get(c, str(c)).lower() for c in within]
        sentences.append(
            "Best per column in bold"
            + (f", within each {' and '.join(names)}." if names else ".")
        )
    if marked and comparison is not None:
        test_text, adjust_text, alpha_text = describe_tests(comparison)
        metrics = " and ".join(_lower_first(_value_name("metric", m)) for m in used_metrics)
        details = ", ".join(t for t in (f"{test_text} on {metrics}", adjust_text, alpha_text) if t)
        sentences.append(f"{_DAGGER}: not significantly different from the best system ({details}).")
    if merged:
        levels = _distinct(frame["confidence_level"]) if "confidence_level" in frame.columns else []
        if len(levels) == 1 and levels[0] is not None:
            sentences.append(f"Brackets: {_number(100 * levels[0])}% confidence interval.")
        else:
            sentences.append("Brackets: confidence interval.")
    consumed = {"test", "adjust", "alpha", "metric", "alternative"} if pairwise else set()
    if merged:
        consumed.add("confidence_level")
    settings = []
    for c in moved:
        if c in consumed:
            continue
        value = _distinct(frame[c])[0]
        if isinstance(value, int | float | np.number) and not isinstance(value, bool):
            settings.append(f"{c} = {_number(value)}")
        else:
            settings.append(f"{HEADERS.get(c, c)}: {_value_name(c, value)}")
    if settings:
        sentences.append("; ".join(settings) + ".")
    return sentences


def _distinct_digits(values: np.ndarray, digits: int) -> int:
    """The fewest decimals, at least ``digits``, at which distinct values print differently.

    Values are distinct when they differ in their first 12 significant digits (finer
    differences are floating-point noise); at most :data:`MAX_DECIMALS` decimals.
    """
    finite = values[np.isfinite(values)]
    distinct = np.unique([float(f"{v:.12g}") for v in finite])
    if distinct.size < 2:
        return digits
    for d in range(digits, MAX_DECIMALS + 1):
        if len({f"{v:.{d}f}".lstrip("-") if float(f"{v:.{d}f}") == 0 else f"{v:.{d}f}"
                for v in distinct}) == distinct.size:
            return d
    return MAX_DECIMALS


def _column_digits(frame, shown, scaled, digits, merged) -> dict:
    """``digits``, widened per column so that distinct values never print the same."""
    out = dict(digits)
    for c in shown:
        if not _is_numeric(frame[c]) or pd.api.types.is_integer_dtype(frame[c].dtype):
            continue
        factor = np.where(scaled.get(c, False), 100.0, 1.0)
        parts = [frame[c].to_numpy(dtype=float) * factor]
        if c == "estimate" and merged:  # the interval's bounds print in the same column
            parts += [frame[b].to_numpy(dtype=float) * factor for b in ("ci_low", "ci_high")]
        values = np.concatenate(parts)
        start = digits[c]
        if c in PVALUES:
            values = values[values >= PVALUE_FLOOR]  # the rest print as "< 0.001"
            start = max(start, 3)
        out[c] = _distinct_digits(values, start)
    return out


def _metric_header(frame, column: str) -> str | None:
    """The header of ``estimate`` named by the table's one metric: "EER", or "HTER A-B"
    for a pairwise difference; None when the rows hold several metrics."""
    if column != "estimate" or "metric" not in frame.columns:
        return None
    metrics = _distinct(frame["metric"])
    if len(metrics) != 1 or metrics[0] is None:
        return None
    name = HEADERS.get(metrics[0], str(metrics[0]))
    return f"{name} A-B" if "system_a" in frame.columns and "system_b" in frame.columns else name


def _prepare(frame, *, columns, percent, precision, intervals, best, comparison, marks,
             flavor, by=None) -> _Table:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(frame).__name__))
    intervals = _check_flag(intervals, "intervals")
    if not (isinstance(marks, bool | str) or isinstance(marks, Mapping)):
        raise ValueError(ERROR_MARKS.format(value=marks))
    if not isinstance(frame.index, pd.RangeIndex) or frame.index.name is not None:
        frame = frame.reset_index()
    frame = frame.reset_index(drop=True)  # a new frame: the caller's is never touched
    digits = _check_precision(precision, frame)
    shown, moved, merged = _display_columns(frame, columns, intervals)
    scaled = _percent_mask(frame, shown, percent)
    digits = _column_digits(frame, shown, scaled, digits, merged)
    by_columns = _by_columns(frame, by)
    groups = _groups(frame, by_columns)
    directions = _directions(frame, shown, best)
    bold = {
        c: _best_mask(
            frame[c].to_numpy(dtype=float) * np.where(scaled.get(c, False), 100.0, 1.0),
            d, groups, digits[c],
        )
        for c, d in directions.items() if c in shown
    }
    marked, used_metrics = _mark_rows(
        frame, shown, comparison, marks, directions, groups, bold, by_columns
    )

    cells = {}
    headers, numeric = [], []
    percent_shown = False
    for c in shown:
        values = frame[c]
        rows_scaled = scaled.get(c, np.zeros(len(frame), dtype=bool))
        all_scaled = bool(rows_scaled.all()) and len(frame) > 0
        mixed = rows_scaled.any() and not all_scaled
        percent_shown |= bool(rows_scaled.any())
        texts = []
        for i, value in enumerate(values):
            if value is None or (not isinstance(value, str) and pd.isna(value)):
                texts.append(_MISSING[flavor])
                continue
            if c in PVALUES and _is_numeric(values):
                text = _format_pvalue(float(value), digits[c])
            elif isinstance(value, int | float | np.number | bool | np.bool_):
                text = _format_number(
                    value, digits[c], scaled=bool(rows_scaled[i]),
                    suffix="%" if mixed and rows_scaled[i] else "",
                )
            else:
                text = _value_name(c, value)
            if c in marked and marked[c][i]:
                text += _DAGGER
            if c == "estimate" and merged:
                low, high = frame["ci_low"].iloc[i], frame["ci_high"].iloc[i]
                if not (pd.isna(low) or pd.isna(high)):
                    bounds = [
                        _format_number(v, digits[c], scaled=bool(rows_scaled[i]), suffix="")
                        for v in (low, high)
                    ]
                    text += f" [{bounds[0]}, {bounds[1]}]"
            texts.append(text)
        cells[c] = texts
        header = _metric_header(frame, c) or HEADERS.get(c, str(c))
        headers.append(header + (" (%)" if all_scaled else ""))
        numeric.append(_is_numeric(values))
    if len(set(headers)) < len(headers):  # never merge two columns under one header
        headers = [str(c) for c in shown]
    table = _Table(
        cells=pd.DataFrame(cells, index=range(len(frame)), columns=shown, dtype=object),
        headers=headers,
        numeric=numeric,
        bold=np.column_stack(
            [bold.get(c, np.zeros(len(frame), dtype=bool)) for c in shown]
        ) if shown else np.zeros((len(frame), 0), dtype=bool),
    )
    within = [
        c for c in (*by_columns, "split") if c in frame.columns and len(_distinct(frame[c])) > 1
    ]
    table.caption = _caption(
        frame, comparison, used_metrics, moved, percent_shown,
        bool(table.bold.any()), within, merged, bool(marked),
    )
    return table


def _substitute(text: str, flavor: str) -> str:
    for placeholder, symbol in _SYMBOLS[flavor].items():
        text = text.replace(placeholder, symbol)
    return text


def _escape_latex(text: str) -> str:
    """Escape LaTeX's special characters in generated caption text."""
    table = {
        "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
        "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
    }
    return "".join(table.get(ch, ch) for ch in text)


# ----------------------------------------------------------------------------- public API
_SHARED_DOC = """
    Parameters
    ----------
    frame : DataFrame
        A result table: :func:`~pandas_biosig.summary`, :func:`~pandas_biosig.error_rates`,
        :func:`~pandas_biosig.eer`, :func:`~pandas_biosig.dcf`,
        :func:`~pandas_biosig.bootstrap`, :func:`~pandas_biosig.significance.compare`... or
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
    precision : int or mapping
        The fewest decimals after the point (after scaling to %), for all columns or
        ``{column: decimals}`` (others: 2). A column gets more, up to
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
        A pairwise table of :func:`~pandas_biosig.significance.compare` (columns
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


def to_latex(
    frame: pd.DataFrame,
    /,
    *,
    columns: Sequence[str] | None = None,
    percent: bool | Sequence[str] = True,
    precision: int | Mapping[str, int] = 2,
    intervals: bool = True,
    best: Literal["auto", "min", "max"] | None | Mapping[str, Literal["min", "max"] | None] = "auto",
    comparison: pd.DataFrame | None = None,
    marks: bool | str | Mapping[str, str] = True,
    by: str | Sequence[str] | None = None,
    caption: str | None = None,
    label: str | None = None,
) -> str:
    r"""A result table as a LaTeX ``tabular`` with booktabs rules.

    Rendered by pandas' ``Styler.to_latex(hrules=True)``: ``\toprule``, ``\midrule``,
    ``\bottomrule`` (load ``\usepackage{booktabs}``). Text is escaped, numbers are
    right-aligned and the best values are ``\textbf``. With a caption or a label the
    tabular is wrapped in a centered ``table`` float.
    {shared}
    Returns
    -------
    str
        The LaTeX source.

    Raises
    ------
    ImportError
        jinja2 is not installed.
    ValueError
        An unknown column or option, marks that cannot be placed (the comparison's
        metric is not shown, or a system was not compared with the best one), or a
        ``label`` without a caption.

    See Also
    --------
    to_markdown

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("jinja2")  # the [export] extra
    >>> from pandas_biosig.export import to_latex
    >>> s = pbs.summary(pbs.datasets.example_trials().query("split == 'eval'"))
    >>> print(to_latex(s, columns=["system", "eer_rocch", "auc"], precision={"auc": 4},
    ...                label="tab:eer"))
    \begin{table}
    \centering
    \caption{Rates in \%. Best per column in bold. p\_target = 0.01; c\_miss = 1; c\_fa = 1.}
    \label{tab:eer}
    \begin{tabular}{lrr}
    \toprule
    System & EER (ROCCH) (\%) & AUC \\
    \midrule
    cnn & 4.94 & 0.9897 \\
    cnn\_aug & \textbf{4.58} & \textbf{0.9902} \\
    gmm & 9.39 & 0.9647 \\
    lbp & 16.15 & 0.9072 \\
    \bottomrule
    \end{tabular}
    \end{table}
    <BLANKLINE>
    """
    _require("jinja2", "to_latex")
    table = _prepare(
        frame, columns=columns, percent=percent, precision=precision, intervals=intervals,
        best=best, comparison=comparison, marks=marks, flavor="latex", by=by,
    )
    from pandas.io.formats.style import Styler

    cells = table.cells.copy()
    cells.columns = table.headers
    styles = pd.DataFrame(
        np.where(table.bold, "textbf:--rwrap;", ""), index=cells.index, columns=cells.columns
    )
    styler = (
        Styler(cells)
        .hide(axis="index")
        .format(lambda text: _substitute(text, "latex"), escape="latex")
        .format_index(escape="latex", axis="columns")
        .apply(lambda _: styles, axis=None)
    )
    if caption is None:
        caption = _substitute(_escape_latex(" ".join(table.caption)), "latex")
    if label and not caption:
        raise ValueError(ERROR_LABEL.format(label=label))
    float_args = (
        {"caption": caption or None, "label": label, "position_float": "centering"}
        if caption or label
        else {}
    )
    column_format = "".join("r" if n else "l" for n in table.numeric)
    return styler.to_latex(hrules=True, column_format=column_format, **float_args)


def to_markdown(
    frame: pd.DataFrame,
    /,
    *,
    columns: Sequence[str] | None = None,
    percent: bool | Sequence[str] = True,
    precision: int | Mapping[str, int] = 2,
    intervals: bool = True,
    best: Literal["auto", "min", "max"] | None | Mapping[str, Literal["min", "max"] | None] = "auto",
    comparison: pd.DataFrame | None = None,
    marks: bool | str | Mapping[str, str] = True,
    by: str | Sequence[str] | None = None,
    caption: str | None = None,
    label: str | None = None,
) -> str:
    r"""A result table as a Markdown pipe table (GitHub, pandoc, MyST).

    Rendered by ``DataFrame.to_markdown`` (tabulate). Best values are ``**bold**``. The
    caption follows the table as a pandoc table caption, ``Table: ...``, and the label is
    appended as a pandoc-crossref anchor ``{#label}``.
    {shared}
    Returns
    -------
    str
        The Markdown source.

    Raises
    ------
    ImportError
        tabulate is not installed.
    ValueError
        As :func:`to_latex`.

    See Also
    --------
    to_latex

    Examples
    --------
    >>> import pytest; _ = pytest.importorskip("tabulate")  # the [export] extra
    >>> from pandas_biosig.export import to_markdown
    >>> s = pbs.summary(pbs.datasets.example_trials().query("split == 'eval'"))
    >>> print(to_markdown(s, columns=["system", "eer_rocch", "min_dcf"], caption=""))
    | System   |   EER (ROCCH) (%) |   minDCF |
    |:---------|------------------:|---------:|
    | cnn      |              4.94 |     0.52 |
    | cnn_aug  |          **4.58** | **0.28** |
    | gmm      |              9.39 |     0.54 |
    | lbp      |             16.15 |     0.91 |
    <BLANKLINE>
    """
    _require("tabulate", "to_markdown")
    table = _prepare(
        frame, columns=columns, percent=percent, precision=precision, intervals=intervals,
        best=best, comparison=comparison, marks=marks, flavor="markdown", by=by,
    )
    rows = [
        [
            f"**{text}**" if bold else text
            for text, bold in zip(
                (_substitute(t, "markdown").replace("|", r"\|") for t in row), flags, strict=True
            )
        ]
        for row, flags in zip(table.cells.to_numpy(dtype=object), table.bold, strict=True)
    ]
    cells = pd.DataFrame(
        rows, columns=[h.replace("|", r"\|") for h in table.headers], dtype=object
    )
    text = cells.to_markdown(
        index=False,
        disable_numparse=True,
        colalign=["right" if n else "left" for n in table.numeric],
    )
    if caption is None:
        caption = _substitute(" ".join(table.caption), "markdown")
    if label and not caption:
        raise ValueError(ERROR_LABEL.format(label=label))
    if label:
        caption = f"{caption} {{#{label}}}".strip()
    return f"{text}\n\nTable: {caption}\n" if caption else text + "\n"


to_latex.__doc__ = to_latex.__doc__.replace("{shared}", _SHARED_DOC)
to_markdown.__doc__ = to_markdown.__doc__.replace("{shared}", _SHARED_DOC)


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
