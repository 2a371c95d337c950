"""LaTeX (booktabs) tables through pandas' ``Styler.to_latex``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from .._core.validation import check_flag, fill_doc
from ._rules import _SHARED_DOC, ERROR_LABEL, _require
from ._table import _escape_latex, _prepare, _substitute

__all__ = ["to_latex"]

def to_latex(
    frame: pd.DataFrame,
    /,
    *,
    columns: Sequence[str] | None = None,
    percent: bool | Sequence[str] = True,
    precision: int | Mapping[str, int] | None = None,
    intervals: bool = True,
    best: Literal["auto", "min", "max"] | None | Mapping[str, Literal["min", "max"] | None] = "auto",
    comparison: pd.DataFrame | None = None,
    marks: bool | str | Mapping[str, str] = True,
    by: str | Sequence[str] | None = None,
    caption: str | None = None,
    label: str | None = None,
    fit: bool = True,
) -> str:
    r"""A result table as a LaTeX ``tabular`` with booktabs rules.

    Rendered by pandas' ``Styler.to_latex(hrules=True)``: ``\toprule``, ``\midrule``,
    ``\bottomrule`` (load ``\usepackage{booktabs}``). Text is escaped, numbers are
    right-aligned and the best values are ``\textbf``. A header of several words is set
    on two lines (``\shortstack``), the unit on the second. With a caption or a label the
    tabular is wrapped in a centered ``table`` float.
    {shared}
    fit : bool
        Shrink a tabular wider than the line to the line's width, never enlarging a
        narrower one: ``\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}``
        (load ``\usepackage{graphicx}``), so that every table fits the text width of the
        document (345 pt in the default ``article``). ``False``: the bare tabular.

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
    >>> import pytest; _ = pytest.importorskip("jinja2")
    >>> from pandas_biosig.export import to_latex
    >>> s = pbs.summary(pbs.datasets.example_trials().query("split == 'eval'"))
    >>> print(to_latex(s, columns=["system", "eer_rocch", "auc"], label="tab:eer"))
    \begin{table}
    \centering
    \caption{Rates in \%. Best per column in bold. p\_target = 0.01; c\_miss = 1; c\_fa = 1.}
    \label{tab:eer}
    \noindent\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%
    \begin{tabular}{lrr}
    \toprule
    System & \shortstack{EER (ROCCH)\\(\%)} & AUC \\
    \midrule
    cnn & 4.94 & 0.9897 \\
    cnn\_aug & \textbf{4.58} & \textbf{0.9902} \\
    gmm & 9.39 & 0.9647 \\
    lbp & 16.15 & 0.9072 \\
    \bottomrule
    \end{tabular}%
    }
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
    cells.columns = [_two_lines(h) for h in table.headers]
    styles = pd.DataFrame(
        np.where(table.bold, "textbf:--rwrap;", ""), index=cells.index, columns=cells.columns
    )
    styler = (
        Styler(cells)
        .hide(axis="index")
        .format(lambda text: _substitute(str(text), "latex"), escape="latex")
        .format_index(escape=None, axis="columns")
        .apply(lambda _: styles, axis=None)
    )
    if caption is None:
        caption = _substitute(_escape_latex(" ".join(table.caption)), "latex")
    if label and not caption:
        raise ValueError(ERROR_LABEL.format(label=label))
    float_args: dict[str, Any] = (
        {"caption": caption or None, "label": label, "position_float": "centering"}
        if caption or label
        else {}
    )
    column_format = "".join("r" if n else "l" for n in table.numeric)
    text = styler.to_latex(hrules=True, column_format=column_format, **float_args)
    return _fit(text) if check_flag(fit, "fit") else text


#: Shrinks what is wider than the line to the line's width (graphicx), never enlarges.
_FIT = "\\noindent\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%\n"


def _fit(text: str) -> str:
    """The tabular of ``text`` inside :data:`_FIT`."""
    start = text.index("\\begin{tabular}")
    end = text.index("\\end{tabular}") + len("\\end{tabular}")
    return text[:start] + _FIT + text[start:end] + "%\n}" + text[end:]


def _two_lines(header: str) -> str:
    """A header of two or more words (longer than 8 characters) on two lines, split where
    the longer line is shortest (``EER (ROCCH) (%)`` -> ``EER (ROCCH)`` over ``(%)``);
    escaped for LaTeX."""
    words = header.split(" ")
    if len(words) < 2 or len(header) <= 8:
        return _latex_text(header)
    splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    top, bottom = min(splits, key=lambda pair: (max(len(pair[0]), len(pair[1])), -len(pair[0])))
    return f"\\shortstack{{{_latex_text(top)}\\\\{_latex_text(bottom)}}}"


def _latex_text(text: str) -> str:
    return _substitute(_escape_latex(text), "latex")


to_latex.__doc__ = fill_doc(to_latex.__doc__, shared=_SHARED_DOC)
