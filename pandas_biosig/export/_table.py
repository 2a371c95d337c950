"""From a result frame to the cells of a table (internal): shown columns, % scaling, decimals,
best values, significance daggers, the generated caption, LaTeX escaping.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._core.validation import check_flag
from ._rules import (
    _ALPHA,
    _DAGGER,
    _LESS,
    _MINUS,
    _MISSING,
    _SYMBOLS,
    BEST,
    BY_METRIC,
    COMPARISON_COLUMNS,
    ERROR_BEST,
    ERROR_BY,
    ERROR_COMPARISON,
    ERROR_MARK_COLUMN,
    ERROR_MARK_DIRECTION,
    ERROR_MARK_PAIR,
    ERROR_MARK_SPLIT,
    ERROR_MARK_SYSTEMS,
    ERROR_MARKS,
    ERROR_NOT_A_FRAME,
    ERROR_PERCENT,
    HEADERS,
    HIDDEN,
    MAX_DECIMALS,
    METRIC_COLUMNS,
    NOT_RANKED,
    PVALUE_FLOOR,
    PVALUES,
    RATES,
    SETTINGS,
    TEST_NAMES,
    _adjust_name,
    _bound_of,
    _check_columns,
    _check_precision,
    _distinct,
    _is_numeric,
    _lower_first,
    _normalize,
    _number,
    _unit,
)


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
            if c in SETTINGS and (len(_distinct(values)) == 1 or _long_text(values)):
                moved.append(c)  # named in the caption
                continue
            shown.append(c)
    merge = intervals and has_interval and "estimate" in shown
    if merge:
        shown = [c for c in shown if c not in ("ci_low", "ci_high")]
    return shown, moved, merge


#: A setting whose texts are longer than this is named in the caption, not shown: one
#: column of sentences (a test's full name per row) would widen the table past the page.
LONG_TEXT = 40


def _long_text(values: pd.Series) -> bool:
    return any(isinstance(v, str) and len(v) > LONG_TEXT for v in values)


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
        by_metric = "metric" in frame.columns
        for c in frame.columns:
            if not _is_numeric(frame[c]):
                continue
            owner = _bound_of(c, frame.columns)
            if c in RATES:
                mask[c] = np.ones(len(frame), dtype=bool)
            elif c in BY_METRIC and by_metric:
                if metric_rates.any():
                    mask[c] = metric_rates
            elif owner in RATES:  # an interval bound in the unit of its estimate
                mask[c] = np.ones(len(frame), dtype=bool)
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
    if "system" not in frame.columns or {"group_a", "group_b"} <= set(frame.columns):
        return {}  # a pairwise table: there is no best system (or group)
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
    _check_comparison(frame, comparison)
    metrics = _distinct(comparison["metric"])
    targets = _mark_targets(frame, metrics, marks)
    systems = frame["system"].map(_normalize).to_numpy(dtype=object)
    splits = np.empty(len(frame), dtype=object)
    splits[:] = _cells_of(frame, len(frame), by_columns)
    row_metric = (
        frame["metric"].to_numpy(dtype=object) if "metric" in frame.columns else None
    )
    pairs = _pair_rejections(comparison, by_columns)
    out: dict[str, np.ndarray] = {}
    for metric, column in targets.items():
        mask = out.setdefault(column, np.zeros(len(frame), dtype=bool))
        rows_of_metric = (
            row_metric == metric if row_metric is not None else np.ones(len(frame), dtype=bool)
        )
        _mark_metric(
            mask, frame[column].to_numpy(dtype=float), metric, column, rows_of_metric, splits,
            systems, pairs, directions, groups, bold,
        )
    used = [m for m in metrics if m in targets]
    return {c: m for c, m in out.items() if m.any()}, used


def _check_comparison(frame, comparison) -> None:
    if not isinstance(comparison, pd.DataFrame):
        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(comparison).__name__))
    missing = [c for c in COMPARISON_COLUMNS if c not in comparison.columns]
    if missing:
        raise ValueError(ERROR_COMPARISON.format(needed=list(COMPARISON_COLUMNS), missing=missing))
    if "system" not in frame.columns:
        raise ValueError(ERROR_MARK_SYSTEMS.format(found=list(frame.columns)))


def _mark_targets(frame, metrics: list, marks) -> dict:
    """Metric of the comparison -> the column of ``frame`` whose values it marks."""
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
        return targets
    if isinstance(marks, str):
        _check_columns([marks], frame, "marks")
        return dict.fromkeys(metrics, marks)
    if isinstance(marks, Mapping):
        _check_columns(marks.values(), frame, "marks")
        targets = dict(marks)
        for m in metrics:
            if m not in targets:
                raise ValueError(ERROR_MARK_COLUMN.format(metric=m, found=list(frame.columns)))
        return targets
    raise ValueError(ERROR_MARKS.format(value=marks))


def _cells_of(table, n, by_columns):
    """Each row's (``by`` values..., split): the cell its comparisons belong to."""
    keys = [c for c in (*by_columns, "split") if c in table.columns]
    if "split" not in table.columns:
        keys.append(None)
    cols = [table[c].map(_normalize).tolist() if c else [None] * n for c in keys]
    return [tuple(v) for v in zip(*cols, strict=True)] if cols else [(None,)] * n


def _pair_rejections(comparison, by_columns) -> dict[tuple, bool]:
    """(cell, metric, system, other system) -> whether the comparison rejected equality."""
    pairs: dict[tuple, bool] = {}
    c_split = _cells_of(comparison, len(comparison), by_columns)
    for a, b, s, m, r in zip(
        comparison["system_a"], comparison["system_b"], c_split, comparison["metric"],
        comparison["reject"], strict=True,
    ):
        key = (s, _normalize(m))
        pairs[(*key, _normalize(a), _normalize(b))] = bool(r)
        pairs[(*key, _normalize(b), _normalize(a))] = bool(r)
    return pairs


def _mark_metric(mask, values, metric, column, rows_of_metric, splits, systems, pairs,
                 directions, groups, bold) -> None:
    """Set ``mask`` on the rows of ``metric`` not significantly different from their group's
    best row."""
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


def _caption(frame, comparison, used_metrics, moved, percent_shown, bold_any, within,
             merged, marked, scaled=None) -> list[str]:
    sentences: list[str] = []
    pairwise = "system_a" in frame.columns and "system_b" in frame.columns
    if pairwise:
        sentences.append(_pairwise_sentence(frame))
    if percent_shown:
        sentences.append("Rates in %.")
    if bold_any:
        names = [HEADERS.get(c, str(c)).lower() for c in within]
        sentences.append(
            "Best per column in bold"
            + (f", within each {' and '.join(names)}." if names else ".")
        )
    if marked and comparison is not None:
        test_text, adjust_text, alpha_text = _describe_tests(comparison)
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
    settings = _settings(frame, [c for c in moved if c not in consumed], scaled)
    if settings:
        sentences.append(settings)
    return sentences


def _describe_tests(table) -> tuple[str, str, str]:
    """The tests, the multiplicity corrections and the levels of a pairwise table, in words."""
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


def _pairwise_sentence(frame) -> str:
    """The caption's sentence on the tests of a pairwise table."""
    test_text, adjust_text, alpha_text = _describe_tests(frame)
    metrics = [_lower_first(_value_name("metric", m)) for m in _distinct(frame["metric"])] \
        if "metric" in frame.columns else []
    text = f"Pairwise comparisons: {test_text}"
    if metrics:
        text += " of the difference in " + " and ".join(metrics)
    if "alternative" in frame.columns and len(_distinct(frame["alternative"])) == 1:
        text += f" ({_distinct(frame['alternative'])[0]})"
    return text + "; " + "; ".join(t for t in (adjust_text, alpha_text) if t) + "."


def _settings(frame, columns, scaled=None) -> str:
    """The constant columns moved out of the table, as one sentence ("" for none); a rate
    in % where the table's rates are (``scaled``)."""
    scaled = scaled or {}
    settings = []
    for c in columns:
        values = _distinct(frame[c])
        if len(values) > 1:  # a long text that varies by row
            settings.append(f"{HEADERS.get(c, c)}: varies by row (the result's {c} column)")
            continue
        value = values[0]
        if isinstance(value, int | float | np.number) and not isinstance(value, bool):
            in_percent = c in scaled and bool(np.asarray(scaled[c]).all())
            settings.append(f"{c} = {_number(100 * value)}%" if in_percent
                            else f"{c} = {_number(value)}")
        else:
            settings.append(f"{HEADERS.get(c, c)}: {_value_name(c, value)}")
    return "; ".join(settings) + "." if settings else ""


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


def _shared_digits(frame, shown, digits, scaled=None) -> dict:
    """One number of decimals per quantity: the shown numeric columns of one unit (rates
    shown in %, score-unit thresholds) all get the most decimals any of them needs, and
    an interval bound gets those of the value it bounds."""
    scaled = scaled or {}
    out = dict(digits)
    numbers = [
        c for c in shown
        if _is_numeric(frame[c]) and not pd.api.types.is_integer_dtype(frame[c].dtype)
    ]

    def unit(c) -> str:
        owner = _bound_of(c, frame.columns)
        if c in scaled and len(frame) and scaled[c].all():
            return "%"
        return _unit(owner) if owner is not None else _unit(c)

    def pairs() -> None:  # a bound and its estimate, whatever their unit
        for c in numbers:
            owner = _bound_of(c, frame.columns)
            if owner in numbers:
                out[c] = out[owner] = max(out[c], out[owner])

    pairs()
    if "metric" in frame.columns and len(_distinct(frame["metric"])) == 1:
        same = [c for c in numbers if c in BY_METRIC]  # one quantity: the metric's
        if len(same) > 1:
            out.update(dict.fromkeys(same, max(out[c] for c in same)))
    for wanted in ("%", "score"):
        same = [c for c in numbers if unit(c) == wanted]
        if len(same) > 1:
            most = max(out[c] for c in same)
            out.update(dict.fromkeys(same, most))
    pairs()
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


def _column_texts(frame, c, digits: int, rows_scaled, mixed: bool, marked_rows, merged: bool,
                  flavor: str) -> list[str]:
    """The cells of column ``c`` as text: numbers, p-values, names, daggers, merged intervals."""
    values = frame[c]
    texts = []
    for i, value in enumerate(values):
        if value is None or (not isinstance(value, str) and pd.isna(value)):
            texts.append(_MISSING[flavor])
            continue
        if c in PVALUES and _is_numeric(values):
            text = _format_pvalue(float(value), digits)
        elif isinstance(value, int | float | np.number | bool | np.bool_):
            text = _format_number(
                value, digits, scaled=bool(rows_scaled[i]),
                suffix="%" if mixed and rows_scaled[i] else "",
            )
        else:
            text = _value_name(c, value)
        if marked_rows is not None and marked_rows[i]:
            text += _DAGGER
        if c == "estimate" and merged:
            low, high = frame["ci_low"].iloc[i], frame["ci_high"].iloc[i]
            if not (pd.isna(low) or pd.isna(high)):
                bounds = [
                    _format_number(v, digits, scaled=bool(rows_scaled[i]), suffix="")
                    for v in (low, high)
                ]
                text += f" [{bounds[0]}, {bounds[1]}]"
        texts.append(text)
    return texts


def _prepare(frame, *, columns, percent, precision, intervals, best, comparison, marks,
             flavor, by=None) -> _Table:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(ERROR_NOT_A_FRAME.format(type=type(frame).__name__))
    intervals = check_flag(intervals, "intervals")
    if not (isinstance(marks, bool | str) or isinstance(marks, Mapping)):
        raise ValueError(ERROR_MARKS.format(value=marks))
    index = frame.index  # unnamed integers are row labels (a filtered RangeIndex is one
    # in pandas 3, integers in pandas 2): not shown
    default = (index.name is None and not isinstance(index, pd.MultiIndex)
               and pd.api.types.is_integer_dtype(index.dtype))
    if not default:  # a named or meaningful index: columns of the table
        frame = frame.reset_index()
    frame = frame.reset_index(drop=True)  # a new frame: the caller's is never touched
    digits = _check_precision(precision, frame)
    shown, moved, merged = _display_columns(frame, columns, intervals)
    scaled = _percent_mask(frame, shown, percent)
    digits = _column_digits(frame, shown, scaled, digits, merged)
    digits = _shared_digits(frame, shown, digits, scaled)
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

    cells, headers, numeric, percent_shown = _cells(
        frame, shown, scaled, digits, marked, merged, flavor
    )
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
        bool(table.bold.any()), within, merged, bool(marked), scaled if percent_shown else None,
    )
    return table


def _cells(frame, shown, scaled, digits, marked, merged, flavor):
    """The text of every shown cell, the headers, which columns are numeric, and whether
    any rate is shown in percent."""
    cells = {}
    headers, numeric = [], []
    percent_shown = False
    for c in shown:
        rows_scaled = scaled.get(c, np.zeros(len(frame), dtype=bool))
        all_scaled = bool(rows_scaled.all()) and len(frame) > 0
        mixed = rows_scaled.any() and not all_scaled
        percent_shown |= bool(rows_scaled.any())
        cells[c] = _column_texts(
            frame, c, digits[c], rows_scaled, mixed, marked.get(c), merged, flavor
        )
        header = _metric_header(frame, c) or HEADERS.get(c, str(c))
        headers.append(header + (" (%)" if all_scaled else ""))
        numeric.append(_is_numeric(frame[c]))
    if len(set(headers)) < len(headers):  # never merge two columns under one header
        headers = [str(c) for c in shown]
    return cells, headers, numeric, percent_shown


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
