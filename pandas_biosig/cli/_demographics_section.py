"""The report's demographic section, for a verification table with a ``group`` column:
FMR and FNMR per group with intervals (:func:`pandas_biosig.group_rates`), the fairness
summaries (:func:`pandas_biosig.fairness`), the pairwise tests of the groups
(:func:`pandas_biosig.compare_groups`), the per-group DET and the cross-group FMR heatmap.

Every number is the public function's with its defaults (one threshold per system at the
protocol's FMR target, on the split the protocol says).
"""

from __future__ import annotations

import pandas as pd

from .._core.schema import SchemaError
from ..demographics._comparisons import compare_groups
from ..demographics._merit import fairness
from ..demographics._rates import group_rates
from ._document import Options, Report, Steps, new_figure, one_line
from ._folder import escape_markdown
from ._pad_section import columns_of

__all__ = ["DEMOGRAPHICS_NOTES", "MAX_FIGURE_SYSTEMS", "demographics_section"]

#: The most systems whose group figures the report draws (two figures each).
MAX_FIGURE_SYSTEMS = 6

DEMOGRAPHICS_NOTES = (
    "Demographic groups, rates in %: one threshold per system (the FMR target over all "
    "groups, as the Threshold column gives), then FMR and FNMR within each group. FDR "
    "(fairness discrepancy rate, de Freitas Pereira & Marcel) is unitless and 1 when the "
    "groups' rates are equal; GARBE (Howard et al.) is unitless and 0 then. The group "
    f"figures show the first {MAX_FIGURE_SYSTEMS} systems."
)


def demographics_section(out: Report, trials: pd.DataFrame, o: Options) -> dict:
    """The demographic tables and figures (see the module docstring)."""
    steps = Steps(3 + o.figures, o.progress)
    cols = columns_of(o)
    intervals = dict(confidence_level=o.confidence_level, n_resamples=max(o.n_resamples, 1),
                     seed=o.seed)
    try:
        rates = group_rates(trials, **intervals, **cols)
        merit = fairness(trials, **cols)
    except SchemaError as exc:
        out.add("Demographic groups", f"Not computed: {escape_markdown(one_line(exc))}")
        return {}
    out.table("group_rates", f"FMR and FNMR per group with {100 * o.confidence_level:g}% "
              "intervals", rates, precision={"threshold": 4}, best=None)
    steps("group rates")
    out.table("fairness", "Fairness across groups", merit, precision={"threshold": 4})
    steps("fairness")
    try:
        cmp = compare_groups(trials, alpha=o.alpha, adjust=o.adjust, **intervals,
                             **cols)
    except SchemaError as exc:
        out.add("Pairwise tests of the groups", f"Not computed: {escape_markdown(one_line(exc))}")
    else:
        out.table("compare_groups", "Pairwise tests of the groups", cmp, best=None,
                  intro="Every pair of groups of each system, with compare_groups' default "
                        "test; p-values adjusted for the number of pairs.")
    steps("group tests")
    out.note(DEMOGRAPHICS_NOTES)
    return _figures(trials, o, steps) if o.figures else {}


def _figures(trials: pd.DataFrame, o: Options, steps: Steps) -> dict:
    from .. import plot

    figs = {}
    systems = list(dict.fromkeys(trials["system"]))[:MAX_FIGURE_SYSTEMS]
    for k, name in enumerate(systems, start=1):
        fig = new_figure(8.0, 5.5)
        plot.group_det(trials, select=name, ax=fig.add_subplot(), split=o.split)
        figs[f"group_det_{k}"] = (
            fig, f"{name}: DET curve of each group, one colour per group; the dots are the "
                 "groups' operating points at the system's one threshold")
        fig = new_figure(6.5, 5.0)
        plot.fmr_heatmap(trials, select=name, ax=fig.add_subplot())
        figs[f"fmr_heatmap_{k}"] = (
            fig, f"{name}: FMR (%) of every pair of probe and reference groups at that "
                 "threshold")
    steps("group figures")
    return figs
