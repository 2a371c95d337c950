"""The report's presentation-attack-detection section: APCER per species, BPCER and ACER
(:func:`pandas_biosig.pad_metrics`), their intervals (:func:`pandas_biosig.pad_rates`), the
pairwise tests of :func:`pandas_biosig.pad_compare` and the PAD DET figure.

Every number is the public function's with its defaults (thresholds and splits are the
protocol's); the command line only passes the columns' meaning (``--orientation``,
``--nonfinite``, ``--split-column``) and the interval settings.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from .._core.schema import SchemaError
from ..pad._compare import pad_compare
from ..pad._metrics import pad_metrics, pad_rates
from ._document import Options, Report, Steps, new_figure, one_line
from ._folder import escape_markdown
from ._kinds import pad_labels

__all__ = ["PAD_NOTES", "columns_of", "pad_section", "with_intervals"]

PAD_NOTES = (
    "PAD (ISO/IEC 30107-3), rates in %: APCER, the share of one species' attack "
    "presentations accepted as bona fide; APCER (max), its worst species; BPCER, the share "
    "of bona fide presentations rejected; ACER = (APCER (max) + BPCER)/2; EER, the rate where "
    "the pooled APCER and the BPCER meet. A presentation is accepted as bona fide iff its "
    "score >= Threshold."
)


def columns_of(o: Options) -> dict:
    """The table's columns and how to read its scores, as the command line says."""
    return dict(split=o.split, orientation=o.orientation, nonfinite=o.nonfinite)


def with_intervals(function: Callable[..., pd.DataFrame], trials: pd.DataFrame, o: Options,
                   **options) -> tuple[pd.DataFrame, str]:
    """``function``'s table with its default intervals, and a sentence on how they were
    made. ``--resample label``/``trial`` treats the trials as independent; so does a table
    whose subjects cannot be weighed (one subject only, as in an anonymised file), said in
    the sentence."""
    common = dict(confidence_level=o.confidence_level, n_resamples=max(o.n_resamples, 1),
                  seed=o.seed, **columns_of(o), **options)
    if o.resample in ("label", "trial") or "subject" not in trials.columns:
        return function(trials, subject=None, **common), ""
    try:
        return function(trials, **common), ""
    except SchemaError as exc:
        table = function(trials, subject=None, **common)
        return table, (
            " The intervals treat the trials as independent: "
            + escape_markdown(one_line(exc).split(" (")[0]) + "."
        )


def _overview(trials: pd.DataFrame, metrics: pd.DataFrame) -> str:
    species = sorted(map(str, pd.unique(trials["pai"].dropna()))) if "pai" in trials else []
    splits = list(dict.fromkeys(metrics["split"].dropna())) if "split" in metrics else []
    return (
        f"{metrics['system'].nunique()} PAD system(s)"
        + (f", splits {', '.join(escape_markdown(str(s)) for s in splits)}" if splits else "")
        + f"; {len(trials)} presentations; attack species: "
        + (", ".join(escape_markdown(s) for s in species) or "none named")
        + "."
    )


def pad_section(out: Report, trials: pd.DataFrame, o: Options) -> dict:
    """The PAD tables and figure (see the module docstring)."""
    trials = pad_labels(trials)
    n_systems = trials["system"].nunique() if "system" in trials.columns else 0
    steps = Steps(2 + (n_systems > 1) + o.figures, o.progress)
    metrics = pad_metrics(trials, **columns_of(o))
    out.add("Presentation attack detection", _overview(trials, metrics))
    out.table(
        "pad_metrics", "PAD metrics", metrics, precision={"threshold": 4},
        intro="Each system at its EER threshold, chosen as the table's protocol says "
              "(Threshold split, Threshold from).",
    )
    steps("PAD metrics")
    rates, how = with_intervals(pad_rates, trials, o)
    out.table(
        "pad_rates", f"APCER per species and BPCER with {100 * o.confidence_level:g}% intervals",
        rates, precision={"threshold": 4}, best=None,
        intro="At the thresholds of the PAD metrics; CI method as the caption says." + how,
    )
    steps("PAD intervals")
    if n_systems > 1:
        _compare(out, trials, o)
        steps("PAD pairwise tests")
    out.note(PAD_NOTES)
    figs: dict = {}
    if o.figures:
        from .. import plot

        fig = new_figure(8.0, 5.5)
        plot.pad_det(trials, ax=fig.add_subplot(), **columns_of(o))
        figs["pad_det"] = (
            fig, "PAD DET: BPCER against the APCER of each attack species (thin lines) and "
                 "their maximum (thick line), one colour per system",
        )
        steps("PAD DET figure")
    return figs


def _compare(out: Report, trials: pd.DataFrame, o: Options) -> None:
    """Every pair of PAD systems, tested with :func:`pad_compare`'s default test."""
    try:
        cmp = pad_compare(
            trials, alpha=o.alpha, adjust=o.adjust, confidence_level=o.confidence_level,
            n_resamples=max(o.n_resamples, 1), seed=o.seed, **columns_of(o),
        )
    except SchemaError as exc:
        out.add("PAD pairwise significance", f"Not computed: {escape_markdown(one_line(exc))}")
        return
    out.table(
        "pad_compare", "PAD pairwise significance", cmp, best=None,
        intro="Every pair of systems: the paired bootstrap of the difference in APCER (max) "
              "at each system's EER threshold (pandas_biosig.pad_compare's default), "
              "p-values adjusted for the number of pairs.",
    )
