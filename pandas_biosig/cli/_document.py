"""The report document every section writes into: its Markdown sections, tables, notes
and figures; the options of the command line; the progress bar; the matplotlib figure."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from .. import __version__
from .._core.options import Adjust, ResampleOption
from .._core.progress import interactive, make_bar
from ..export._markdown import to_markdown
from ._folder import escape_frame, escape_markdown
from ._inputs import cli_message

__all__ = ["ERROR_MATPLOTLIB", "Options", "Report", "Steps", "new_figure", "one_line"]

ERROR_MATPLOTLIB = (
    "the report's figures (--out) need matplotlib, a dependency of pandas-biosig that is "
    "missing from this environment: pip install matplotlib"
)


@dataclass(frozen=True)
class Options:
    """What the command line says about the evaluation (``biosig report --help``)."""

    split: str = "split"
    on: str = "auto"
    apply_to: str = "auto"
    orientation: str = "similarity"
    nonfinite: str = "raise"
    n_resamples: int = 1000
    resample: ResampleOption = "auto"
    confidence_level: float = 0.95
    seed: int | None = 0
    test: str = "auto"
    adjust: Adjust | None = "holm"
    alpha: float = 0.05
    common_trials: bool = False
    figures: bool = False
    progress: bool | None = None


class Steps:
    """The report's steps as one progress bar on stderr (tqdm: count, rate, time left),
    shown where someone is watching (see :func:`pandas_biosig._core.progress.interactive`)."""

    def __init__(self, total: int, enabled: bool | None = None):
        self.enabled = interactive() if enabled is None else enabled
        self.bar = make_bar(total, "biosig report", unit="step", delay=0) if self.enabled else None

    def __call__(self, what: str) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(what, refresh=False)
            self.bar.update(1)
            if self.bar.n >= self.bar.total:
                self.bar.close()


class Report:
    """What one report holds: its Markdown sections, tables, notes and figures."""

    def __init__(self, title: str, notes: str | None = None):
        self.title = title
        self.sections: list[str] = []
        self.tables: dict[str, tuple[pd.DataFrame, dict]] = {}
        self.notes: list[str] = [notes] if notes else []

    def add(self, heading: str, body: str) -> None:
        self.sections.append(f"## {heading}\n\n{body.rstrip()}\n")

    def table(self, name: str, heading: str, frame: pd.DataFrame, *, intro: str = "",
              **options) -> None:
        text = to_markdown(escape_frame(frame), **options)
        self.add(heading, (intro + "\n\n" if intro else "") + text)
        self.tables[name] = (frame, options)

    def note(self, text: str) -> None:
        """A note printed once at the end of the report (what the tables' terms mean)."""
        if text not in self.notes:
            self.notes.append(text)

    def markdown(self, figures: Sequence[tuple[str, str]] = ()) -> str:
        parts = [f"# pandas_biosig {__version__}: {escape_markdown(self.title)}\n", *self.sections]
        if figures:
            parts.append(
                "## Figures\n\n"
                + "\n\n".join(f"![{escape_markdown(text)}]({name})" for name, text in figures)
                + "\n"
            )
        parts.extend(note + "\n" for note in self.notes)
        return "\n".join(parts)


def one_line(exc: BaseException) -> str:
    """The first line of an error message (the readers' messages name file and line)."""
    lines = str(exc).strip().splitlines() or [type(exc).__name__]
    return cli_message(re.sub(r"\s*Example rows:$", "", lines[0]))


def new_figure(width: float, height: float):
    """A matplotlib Figure (not pyplot's: nothing global), laid out so that a plain
    ``savefig`` keeps its labels and legend."""
    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ImportError(ERROR_MATPLOTLIB) from exc
    return Figure(figsize=(width, height), layout="constrained")
