"""Bayes error-rate figure: the error of the Bayes decision against the prior log-odds.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd
import xarray as xr

from .._core.options import NonFinite, Orientation
from ..verification import _curves as _cv

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

from ._axes import (
    _LEGEND_OUTSIDE,
    _axes,
    _Colours,
    _dataset,
    _eer_label,
    _lines,
    _percent_axis,
    _select_split,
)


def bayes_error(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    prior_log_odds=None,
    eer: bool = True,
    normalized: bool = False,
    ax: Axes | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> Axes:
    r"""Bayes error-rate plot: the error of the actual and of the best decisions against the
    prior log odds.

    Parameters
    ----------
    data : DataFrame or Dataset
        The tidy trial table (scores read as natural-log likelihood ratios), or a Dataset
        of :func:`pandas_biosig.bayes_error`.
    apply_to : split value or list, optional
        Draw only these splits; by default every split. One colour per system, one line
        style per split (as :func:`pbs.plot.det <pandas_biosig.plot.det>`).
    prior_log_odds : array of float, optional
        Table only: the grid of :func:`pandas_biosig.bayes_error`.
    eer : bool
        Give each curve's EER (the ROC convex hull's) in the legend and mark the peak of
        its drawn minimum Bayes error: the EER is the worst-case minimum Bayes error, so
        the dot's height is the EER up to the grid (the peak of the curve between two
        grid points is not drawn; no dot on the normalized curves, whose peak is not the
        EER).
    normalized : bool, default False
        Draw the normalized curves ``norm_act_ber``, ``norm_min_ber`` and
        ``norm_default_ber`` (each divided by :math:`\min(\pi, 1 - \pi)`: the normalized
        actual and minimum DCF with unit costs, and the line at 1 of deciding without
        the scores), BOSARIS's and PYLLR's normalized Bayes error-rate plot, instead of
        the error rates.
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure.
    by, system, trial, label, score, split, orientation, nonfinite
        Table only: as in :func:`pandas_biosig.bayes_error`.

    Returns
    -------
    matplotlib.axes.Axes
        Lines: the dotted grey error without the scores, :math:`\min(\pi, 1 - \pi)`,
        then per curve the actual Bayes error ``act_ber`` (thick; left out for distances,
        which have none), the minimum ``min_ber`` (thin) and (with ``eer``) the EER
        marker. The legend names the curves, then the three kinds of line.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    ValueError
        A Dataset of another kind, or a split that is not in the curves.

    See Also
    --------
    pandas_biosig.bayes_error, pandas_biosig.dcf

    References
    ----------
    Brümmer, N., & du Preez, J. (2006). Application-independent evaluation of speaker
    detection. Computer Speech & Language, 20(2-3), 230-275.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = pbs.plot.bayes_error(pbs.datasets.example_trials(), apply_to="eval")
    >>> [t.get_text() for t in ax.get_legend().get_texts()][-3:]
    ['actual', 'minimum', 'without the scores']
    >>> plt.close(ax.figure)
    >>> ax = pbs.plot.bayes_error(pbs.datasets.example_trials(), apply_to="eval",
    ...                           normalized=True)
    >>> ax.get_ylabel()
    'normalized Bayes error (DCF)'
    >>> plt.close(ax.figure)
    """
    ds = _dataset(
        data, "bayes_error", ("bayes_error",),
        lambda d: _cv.bayes_error(
            d, prior_log_odds=prior_log_odds, by=by, system=system, trial=trial, label=label,
            score=score, split=split, orientation=orientation, nonfinite=nonfinite,
        ),
    )
    ds = _select_split(ds, apply_to)
    found = _lines(ds, "bayes_error", split_style=True)
    ax = _axes(ax, "bayes_error")
    names = ("norm_act_ber", "norm_min_ber", "norm_default_ber") if normalized else (
        "act_ber", "min_ber", "default_ber")
    plo = ds["prior_log_odds"].values
    ax.plot(plo, ds[names[2]].sel(found[0].sel).values, color="0.5", linewidth=1.0,
            linestyle=":", zorder=1)
    top, has_actual = _draw_curves(ax, ds, found, names, eer=eer, marker=eer and not normalized)
    ax.set_xlim(plo.min(), plo.max())
    ax.grid(True, color="0.88", linewidth=0.6)
    ax.set_xlabel(r"prior log odds $\log(\pi / (1 - \pi))$")
    if normalized:
        ax.set_ylim(0.0, min(max(top, 1.0), 1.5) * 1.05)
        ax.set_ylabel("normalized Bayes error (DCF)")
    else:
        default = ds[names[2]].sel(found[0].sel).values
        ax.set_ylim(0.0, min(float(np.nanmax(default)) * 1.02, max(2.0 * top, 0.05)))
        _percent_axis(ax.yaxis)
        ax.set_ylabel("Bayes error rate (%)")
    _style_legend(ax, has_actual, eer)
    return ax


def _draw_curves(ax, ds, found, names, *, eer: bool, marker: bool) -> tuple[float, bool]:
    """Each curve's actual (solid) and minimum (dashed) line; returns the height the
    y-axis must show (the largest EER, or for normalized curves the largest value) and
    whether any actual line was drawn."""
    colours = _Colours()
    top, has_actual = 0.0, False
    for c in found:
        act, low = ds[names[0]].sel(c.sel).values, ds[names[1]].sel(c.sel).values
        e = float(ds["eer"].sel(c.sel))
        text = _eer_label(c.label, e) if eer else c.label
        if np.isfinite(act).any():
            has_actual = True
            colours.plot(ax, c, ds["prior_log_odds"].values, act, label=text, linewidth=2.2,
                         zorder=2)
            text = None
        colours.plot(ax, c, ds["prior_log_odds"].values, low, label=text, linewidth=0.9,
                     zorder=2)
        if marker and np.isfinite(e):
            peak = int(np.nanargmax(low))
            ax.plot(ds["prior_log_odds"].values[peak], low[peak], marker="o", markersize=6,
                    linestyle="none", color=colours[c.group], markeredgecolor="white",
                    markeredgewidth=0.8, zorder=3)
        if names[0].startswith("norm"):
            top = max(top, float(np.nanmax(np.r_[act, low, 0.0])))
        elif np.isfinite(e):
            top = max(top, e)
    return top, has_actual


def _style_legend(ax, has_actual: bool, eer: bool) -> None:
    from matplotlib.lines import Line2D

    handles, labels = ax.get_legend_handles_labels()
    styles: list[tuple[float, Literal["-", ":"], str]] = (
        [(2.2, "-", "actual")] if has_actual else [])
    styles += [(0.9, "-", "minimum"), (1.0, ":", "without the scores")]
    for width, style, text in styles:
        handles.append(Line2D([], [], color="0.3", linestyle=style, linewidth=width))
        labels.append(text)
    ax.legend(handles, labels, **_LEGEND_OUTSIDE,
              title="EER of the ROC convex hull" if eer else None, title_fontsize="small")
