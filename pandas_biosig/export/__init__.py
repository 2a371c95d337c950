"""Tables for papers: LaTeX (booktabs) and Markdown from any result frame.

This module is the only place where numbers become text. Every other function returns
numbers. :func:`to_latex` renders through pandas' ``Styler.to_latex`` (it needs jinja2) and
:func:`to_markdown` through ``DataFrame.to_markdown`` (it needs tabulate). Both are
dependencies of pandas-biosig, imported only when a table is rendered.

What to show, and how, is decided by column name. The rules are data, in the module
constants :data:`COLUMN_FORMATS` (the one registry of display names, units and decimals,
of which :data:`HEADERS` and :data:`RATES` are views), :data:`BEST`, :data:`SETTINGS`,
:data:`HIDDEN` and :data:`PVALUES`, so a column name means the same thing in every table.
A column that is not listed there is shown as is; add a :class:`ColumnFormat` to
:data:`COLUMN_FORMATS` to format another result frame's columns.

Modules: ``latex`` (:func:`to_latex`), ``markdown`` (:func:`to_markdown`); ``_rules`` holds
the rules and option checks they share, ``_table`` turns a frame into formatted cells.
"""

from ._latex import to_latex
from ._markdown import to_markdown
from ._rules import (
    BEST,
    COLUMN_FORMATS,
    DEFAULT_DECIMALS,
    HEADERS,
    HIDDEN,
    MAX_DECIMALS,
    PVALUES,
    RATES,
    SETTINGS,
    ColumnFormat,
)

__all__ = [
    "BEST",
    "COLUMN_FORMATS",
    "ColumnFormat",
    "DEFAULT_DECIMALS",
    "HEADERS",
    "HIDDEN",
    "MAX_DECIMALS",
    "PVALUES",
    "RATES",
    "SETTINGS",
    "to_latex",
    "to_markdown",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
