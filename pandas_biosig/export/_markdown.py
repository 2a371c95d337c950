"""Markdown pipe tables through ``DataFrame.to_markdown``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

import pandas as pd

from .._core.validation import fill_doc
from ._rules import _SHARED_DOC, ERROR_LABEL, _require
from ._table import _prepare, _substitute

__all__ = ["to_markdown"]

def to_markdown(
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
    >>> import pytest; _ = pytest.importorskip("tabulate")
    >>> from pandas_biosig.export import to_markdown
    >>> s = pbs.summary(pbs.datasets.example_trials().query("split == 'eval'"))
    >>> print(to_markdown(s, columns=["system", "eer_rocch", "min_dcf"], caption=""))
    | System   |   EER (ROCCH) (%) |    minDCF |
    |:---------|------------------:|----------:|
    | cnn      |              4.94 |     0.521 |
    | cnn_aug  |          **4.58** | **0.275** |
    | gmm      |              9.39 |     0.537 |
    | lbp      |             16.15 |     0.912 |
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
    align = ["right" if n else "left" for n in table.numeric]
    colalign: dict[str, Any] = {"colalign": align} if rows else {}
    text = cells.to_markdown(  # tabulate 0.9.0 fails on colalign without rows
        index=False, disable_numparse=True, **colalign,
    )
    if caption is None:
        caption = _substitute(" ".join(table.caption), "markdown")
    if label and not caption:
        raise ValueError(ERROR_LABEL.format(label=label))
    if label:
        caption = f"{caption} {{#{label}}}".strip()
    return f"{text}\n\nTable: {caption}\n" if caption else text + "\n"


to_markdown.__doc__ = fill_doc(to_markdown.__doc__, shared=_SHARED_DOC)
