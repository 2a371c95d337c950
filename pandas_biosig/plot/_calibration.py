"""Cllr over the prior (an APE-style figure): the cost of the scores read as LLRs as the
application's prior varies, against the best monotone recalibration and saying nothing.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd
import xarray as xr

from .. import calibration
from .._core.options import NonFinite, Orientation

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

from ._axes import _LEGEND_OUTSIDE, _axes, _Colours, _dataset, _lines, _select_split


def cllr_curve(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    prior_log_odds=None,
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
    r"""Cllr over the prior: the normalized cross-entropy of the scores read as LLRs
    (solid) and after the best monotone recalibration (dashed), against the prior log odds.

    Parameters
    ----------
    data : DataFrame or Dataset
        The tidy trial table (scores read as natural-log likelihood ratios), or a Dataset
        of :func:`pandas_biosig.cllr_curve`.
    apply_to : split value or list, optional
        Draw only these splits; by default every split.
    prior_log_odds : array of float, optional
        Table only: the grid of :func:`pandas_biosig.cllr_curve`.
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure.
    by, system, trial, label, score, split, orientation, nonfinite
        Table only: as in :func:`pandas_biosig.cllr_curve`.

    Returns
    -------
    matplotlib.axes.Axes
        Lines: the dotted cost of saying nothing (1), then per curve the actual
        normalized cross-entropy ``act_nxe`` (solid; left out for distances) and the
        minimum ``min_nxe`` (dashed); a dot marks each curve's Cllr, its value at prior log
        odds 0. The legend gives each curve's Cllr and minCllr (bits; "-" for distances,
        which have no Cllr), then the line styles. The gap between a solid and its dashed line is the calibration loss at
        that prior.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    ValueError
        A Dataset of another kind, or a split that is not in the curves.

    See Also
    --------
    pandas_biosig.cllr_curve, pandas_biosig.plot.bayes_error

    References
    ----------
    Brümmer, N., & du Preez, J. (2006). Application-independent evaluation of speaker
    detection. Computer Speech & Language, 20(2-3), 230-275.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> res = pbs.calibrate(pbs.datasets.example_trials(), systems="gmm")
    >>> ax = pbs.plot.cllr_curve(res.trials.query("system.str.startswith('gmm')"),
    ...                          apply_to="eval")
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['gmm: 0.431 / 0.318', 'gmm:linear: 0.347 / 0.318', 'actual', 'minimum (PAV)', 'saying nothing']
    >>> plt.close(ax.figure)
    """
    ds = _dataset(
        data, "cllr_curve", ("cllr_curve",),
        lambda d: calibration.cllr_curve(
            d, prior_log_odds=prior_log_odds, by=by, system=system, trial=trial, label=label,
            score=score, split=split, orientation=orientation, nonfinite=nonfinite,
        ),
    )
    ds = _select_split(ds, apply_to)
    found = _lines(ds, "cllr_curve", split_style=False)
    ax = _axes(ax, "cllr_curve")
    plo = ds["prior_log_odds"].values
    ax.plot(plo, ds["default_nxe"].sel(found[0].sel).values, color="0.5", linewidth=1.0,
            linestyle=":", zorder=1)
    top, has_actual = _draw(ax, ds, found, plo)
    ax.set_xlim(plo.min(), plo.max())
    ax.set_ylim(0.0, min(max(top, 1.0), 2.0) * 1.05)
    ax.grid(True, color="0.88", linewidth=0.6)
    ax.set_xlabel(r"prior log odds $\log(\pi / (1 - \pi))$")
    ax.set_ylabel("normalized cross-entropy")
    from matplotlib.lines import Line2D

    handles, labels = ax.get_legend_handles_labels()
    styles: list[tuple[Literal["-", "--", ":"], str]] = [("-", "actual")] if has_actual else []
    for style, text in [*styles, ("--", "minimum (PAV)"), (":", "saying nothing")]:
        handles.append(Line2D([], [], color="0.3", linestyle=style))
        labels.append(text)
    ax.legend(handles, labels, **_LEGEND_OUTSIDE, title="Cllr / min Cllr (bits)",
              title_fontsize="small")
    return ax


def _draw(ax, ds: xr.Dataset, found, plo: np.ndarray) -> tuple[float, bool]:
    """The curves; returns the largest value drawn and whether any actual line was."""
    colours = _Colours()
    top, has_actual = 0.0, False
    zero = int(np.argmin(np.abs(plo)))
    for c in found:
        act, low = ds["act_nxe"].sel(c.sel).values, ds["min_nxe"].sel(c.sel).values
        cllr, min_cllr = float(ds["cllr"].sel(c.sel)), float(ds["min_cllr"].sel(c.sel))
        text: str | None = f"{c.label}: {cllr:.3f} / {min_cllr:.3f}" if np.isfinite(cllr) \
            else f"{c.label}: - / {min_cllr:.3f}"
        if np.isfinite(act).any():
            has_actual = True
            colours.plot(ax, c, plo, act, label=text, linewidth=1.5, linestyle="-", zorder=2)
            text = None
            if plo[zero] == 0.0:
                ax.plot(0.0, act[zero], marker="o", markersize=5, linestyle="none",
                        color=colours[c.group], markeredgecolor="white",
                        markeredgewidth=0.8, zorder=3)
        colours.plot(ax, c, plo, low, label=text, linewidth=1.2, linestyle="--", zorder=2)
        top = max(top, float(np.nanmax(np.r_[act, low, 0.0])))
    return top, has_actual
