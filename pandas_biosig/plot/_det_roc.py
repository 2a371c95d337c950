"""DET and ROC figures: one curve per system (and ``by`` group and split), EER marked.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd
import xarray as xr

from .._core.options import NonFinite, Orientation
from ..verification import _curves as _cv
from ..verification._curves import ppndf

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

from ._axes import (
    _axes,
    _check_limits,
    _Colours,
    _dataset,
    _det_axes,
    _det_limits,
    _eer_label,
    _eer_point,
    _fit_width,
    _hull_eer_point,
    _hull_path,
    _legend,
    _lines,
    _percent_axis,
    _select_split,
)
from ._bands import (
    band_dataset,
    band_legend,
    draw_band,
    draw_rule_of_30,
    rule_of_30_legend,
    supported,
    with_neighbours,
)

ERROR_XSCALE = "xscale={value!r} is not one of ['linear', 'log']"

def det(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    far_grid=None,
    limits: tuple[float, float] | None = None,
    eer: bool = True,
    band: bool | xr.Dataset = False,
    rule_of_30: bool = False,
    ax: Axes | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> Axes:
    r"""Detection error tradeoff plot: FRR against FAR on normal-deviate axes.

    Parameters
    ----------
    data : DataFrame or Dataset
        The tidy trial table, or a Dataset of :func:`pandas_biosig.det`,
        :func:`pandas_biosig.roc` or :func:`pandas_biosig.rocch` (the hull draws as the
        ROCCH-DET).
    apply_to : split value or list, optional
        Draw only these splits (e.g. ``"eval"``); by default every split, the splits of
        a system in one colour and different line styles.
    far_grid : array of float in [0, 1], optional
        Table only: resample the curves on this FAR grid (:func:`pandas_biosig.det`); by
        default every exact operating point is drawn.
    limits : (float, float) or ((float, float), (float, float)), optional
        The rate range of both axes, e.g. ``(0.001, 0.4)``, or of each, ``((far_low,
        far_high), (frr_low, frr_high))``. By default each axis is fitted to the curves on
        its own, over the points where neither rate is 0 or 1 (the others lie off any DET
        plot): from its smallest rate (one trial of its class: the resolution of the
        data) to its largest, with a margin of 0.12 normal deviates.
    eer : bool
        Mark each curve's EER with a dot on the drawn curve, and give it in the legend,
        whose title says which EER it is. For a curve of operating points (a table, or a
        Dataset of :func:`pandas_biosig.det` / :func:`pandas_biosig.roc`) it is
        bob.measure's threshold EER, :math:`(FAR + FRR) / 2` at the point that minimizes
        :math:`|FAR - FRR|` (``eer_threshold`` of :func:`pandas_biosig.summary` for an
        exact curve), and the dot is that point. For a :func:`pandas_biosig.rocch`
        Dataset it is the hull's EER, and the dot is where the hull, drawn as straight
        ROC segments, crosses FAR = FRR.
    band : bool or Dataset, default False
        A bootstrap band around each curve: a Dataset of :func:`pandas_biosig.det_band`
        (its FRR at each grid FAR), or True to compute one from the table with
        :func:`pandas_biosig.det_band`'s defaults (1,000 replicates, subjects resampled
        when the table names them; a new draw each time). The pointwise interval is
        shaded in the curve's colour, the simultaneous band drawn dashed.
    rule_of_30 : bool, default False
        Doddington's rule of 30: fade the parts of each curve whose FAR or FRR rests on
        fewer than 30 errors (false acceptances or false rejections), and mark with a
        diamond where each count reaches 30. A rate from fewer errors is not known to
        within ±30 % at 90 % confidence.
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure (constrained layout), widened
        until the legend fits. The legend is placed outside the axes, on their right.
    by, system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        Table only: as in :func:`pandas_biosig.det` (``subject``, ``reference_subject``:
        read by ``band=True``, see :func:`pandas_biosig.det_band`).

    Returns
    -------
    matplotlib.axes.Axes
        The axes, in normal-deviate units (a rate :math:`r` is at ``pbs.ppndf(r)``), of
        equal scale on both axes, with ticks from :data:`DET_TICKS` labelled in percent.
        Which ticks are labelled is decided each time the figure is drawn, from the
        axes' length and the tick font: decades first (0.1 %, 1 %, 10 %... and 90 %,
        99 %...), then fives, then the rest, each kept only if its label does not
        touch one already kept. Lines: the dotted diagonal FAR = FRR, then per curve its
        line and (with ``eer``) its EER marker; with ``band``, the simultaneous band's two
        dashed lines of each curve after its line.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    ValueError
        A Dataset of another kind, a split that is not in the curves, bad ``limits``.

    See Also
    --------
    pandas_biosig.det, pandas_biosig.ppndf, roc

    References
    ----------
    Martin, A., Doddington, G., Kamm, T., Ordowski, M., & Przybocki, M. (1997). The DET
    curve in assessment of detection task performance. Proceedings of Eurospeech '97,
    1895-1898.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> trials = pbs.datasets.example_trials()
    >>> ax = pbs.plot.det(trials, apply_to="eval")
    >>> labels = [t.get_text() for t in ax.get_xticklabels()]  # as many as fit the axes
    >>> labels[0], labels[-1], "10" in labels
    ('0.1', '90', True)
    >>> ax.get_legend().get_title().get_text(), ax.get_legend_handles_labels()[1][0]
    ('EER at the threshold (dot)', 'cnn, EER 5.36%')
    >>> plt.close(ax.figure)
    """
    ds = _dataset(
        data, "det", ("det", "roc", "rocch"),
        lambda d: _cv.det(
            d, far_grid=far_grid, by=by, system=system, trial=trial, label=label,
            score=score, split=split, orientation=orientation, nonfinite=nonfinite,
        ),
    )
    table = dict(by=by, system=system, trial=trial, label=label, score=score, split=split,
                 subject=subject, reference_subject=reference_subject,
                 orientation=orientation, nonfinite=nonfinite)
    bands = band_dataset(band, data, "det", table)
    ds = _select_split(ds, apply_to)
    found = _lines(ds, "det", split_style=True)
    frr_all = _frr(ds)
    far = ds["far"].broadcast_like(frr_all)
    hull = ds.attrs.get("kind") == "rocch"
    made = ax is None
    ax = _axes(ax, "det", figsize=(8.0, 5.5))
    ax.axline((0.0, 0.0), slope=1.0, color="0.6", linewidth=0.8, linestyle=":", zorder=1)
    colours = _Colours()
    drawn = []
    for c in found:
        x = far.sel(c.sel).values
        y = frr_all.sel(c.sel).values
        keep = np.isfinite(x) & np.isfinite(y)
        x, y = x[keep], y[keep]
        px, py, e = _hull_eer_point(x, y) if hull else _eer_point(x, y)
        lx, ly = _hull_path(x, y) if hull else (x, y)
        ok = _supported(ds, c, x, y) if rule_of_30 and not hull else None
        line = colours.plot(
            ax, c, ppndf(lx), ppndf(ly) if ok is None else np.where(with_neighbours(ok), ppndf(ly), np.nan),
            label=_eer_label(c.label, e) if eer else c.label, linewidth=1.5, zorder=2,
        )
        if eer and np.isfinite(e):
            ax.plot(ppndf(px), ppndf(py), marker="o", markersize=6, linestyle="none",
                    color=colours[c.group], markeredgecolor="white", markeredgewidth=0.8,
                    zorder=3)
        if bands is not None:
            draw_band(ax, bands, c.sel, colours[c.group], ppndf, ppndf)
        if ok is not None:
            draw_rule_of_30(ax, x, y, ok, line, ppndf)
        drawn.append((x, y))
    _extra_legend(ax, bands, rule_of_30 and not hull)
    xlim, ylim = _det_limits(drawn) if limits is None else _check_limits(limits)
    _det_axes(ax, xlim, ylim)
    ax.grid(True, color="0.88", linewidth=0.6)
    ax.set_xlabel("False acceptance rate, FAR (%)")
    ax.set_ylabel("False rejection rate, FRR (%)")
    title = "EER of the ROC convex hull" if hull else "EER at the threshold (dot)"
    _legend(ax, title=title if eer else None, title_fontsize="small")
    if made:
        _fit_width(ax)
    return ax


def roc(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    far_grid=None,
    xscale: Literal["linear", "log"] = "linear",
    eer: bool = True,
    band: bool | xr.Dataset = False,
    ax: Axes | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> Axes:
    r"""Receiver operating characteristic: the genuine acceptance rate 1 - FRR against FAR.

    Parameters
    ----------
    data : DataFrame or Dataset
        The tidy trial table, or a Dataset of :func:`pandas_biosig.roc`,
        :func:`pandas_biosig.det` or :func:`pandas_biosig.rocch`.
    apply_to : split value or list, optional
        Draw only these splits; by default every split.
    far_grid : array of float in [0, 1], optional
        Table only: resample the curves on this FAR grid.
    xscale : {"linear", "log"}
        ``"log"`` spreads out the low-FAR region (points at FAR = 0 are then left out).
    eer : bool
        Mark each curve's EER on the drawn curve and give it in the legend, as
        :func:`det` does: bob.measure's threshold EER at its operating point, or for a
        :func:`pandas_biosig.rocch` Dataset the hull's EER where the hull crosses the
        dotted line FAR = FRR. The legend's title says which.
    band : bool or Dataset, default False
        A bootstrap band around each curve, as in :func:`det` (drawn as 1 - FRR).
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure (constrained layout). The legend
        is placed outside the axes, on their right.
    by, system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        Table only: as in :func:`det`.

    Returns
    -------
    matplotlib.axes.Axes
        Rates as fractions, labelled in percent. Lines: with a linear x axis the dotted
        chance diagonal and the dotted line FAR = FRR (1 - FRR = 1 - FAR), then per curve
        its line and (with ``eer``) its EER marker.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    ValueError
        A Dataset of another kind, a split that is not in the curves, an unknown
        ``xscale``.

    See Also
    --------
    pandas_biosig.roc, det

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = pbs.plot.roc(pbs.datasets.example_trials(), apply_to="eval")
    >>> len(ax.get_legend_handles_labels()[1])  # one curve per system
    4
    >>> plt.close(ax.figure)
    """
    if xscale not in ("linear", "log"):
        raise ValueError(ERROR_XSCALE.format(value=xscale))
    # a table is drawn from the DET's rates: its FRR gives the EER as summary() does
    ds = _dataset(
        data, "roc", ("roc", "det", "rocch"),
        lambda d: _cv.det(
            d, far_grid=far_grid, by=by, system=system, trial=trial, label=label,
            score=score, split=split, orientation=orientation, nonfinite=nonfinite,
        ),
    )
    table = dict(by=by, system=system, trial=trial, label=label, score=score, split=split,
                 subject=subject, reference_subject=reference_subject,
                 orientation=orientation, nonfinite=nonfinite)
    bands = band_dataset(band, data, "roc", table)
    ds = _select_split(ds, apply_to)
    found = _lines(ds, "roc", split_style=True)
    frr_all = _frr(ds)
    far = ds["far"].broadcast_like(frr_all)
    ax = _axes(ax, "roc")
    if xscale == "linear":
        ax.plot([0, 1], [0, 1], color="0.6", linewidth=0.8, linestyle=":", zorder=1)
        ax.plot([0, 1], [1, 0], color="0.6", linewidth=0.8, linestyle=":", zorder=1)
    colours = _Colours()
    lowest = 1.0
    hull = ds.attrs.get("kind") == "rocch"
    for c in found:
        x = far.sel(c.sel).values
        frr = frr_all.sel(c.sel).values
        y = 1.0 - frr
        keep = np.isfinite(x) & np.isfinite(y)
        px, py, e = (_hull_eer_point if hull else _eer_point)(x[keep], frr[keep])
        if xscale == "log":
            keep &= x > 0
            if keep.any():
                lowest = min(lowest, float(x[keep].min()))
        colours.plot(ax, c, x[keep], y[keep], label=_eer_label(c.label, e) if eer else c.label,
                     linewidth=1.5, zorder=2)
        if eer and np.isfinite(e) and (xscale == "linear" or px > 0):
            ax.plot(px, 1.0 - py, marker="o", markersize=6, linestyle="none",
                    color=colours[c.group], markeredgecolor="white", markeredgewidth=0.8,
                    zorder=3)
        if bands is not None:
            draw_band(ax, bands, c.sel, colours[c.group], lambda v: 1.0 - v)
    _extra_legend(ax, bands, False)
    ax.set_xscale(xscale)
    if xscale == "log":
        ax.set_xlim(lowest, 1.0)
    else:
        ax.set_xlim(0.0, 1.0)
    ax.set_ylim(0.0, 1.0)
    _percent_axis(ax.xaxis)
    _percent_axis(ax.yaxis)
    ax.grid(True, color="0.88", linewidth=0.6)
    ax.set_xlabel("False acceptance rate, FAR (%)")
    ax.set_ylabel("Genuine acceptance rate, 1 - FRR (%)")
    title = "EER of the ROC convex hull" if hull else "EER at the threshold (dot)"
    _legend(ax, title=title if eer else None, title_fontsize="small")
    return ax


def _supported(ds: xr.Dataset, c, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Whether each point of one curve rests on 30 errors of each class."""
    counts = ds[["n_impostor", "n_genuine"]].sel(c.sel)
    return supported(x, y, int(counts["n_impostor"]), int(counts["n_genuine"]))


def _extra_legend(ax, bands, rule_of_30: bool) -> None:
    """Legend entries that say what the band and the marks are."""
    if bands is not None:
        band_legend(ax, bands)
    if rule_of_30:
        rule_of_30_legend(ax)


def _frr(ds: xr.Dataset) -> xr.DataArray:
    """The FRR of a curve Dataset: its own (:func:`pandas_biosig.det`,
    :func:`pandas_biosig.rocch`), or for a :func:`pandas_biosig.roc` one the same value
    to the last bit, from the count of false rejections that ``tpr`` holds exactly
    (``1 - tpr`` may differ by a rounding, enough to move the EER point of a near tie)."""
    if "frr" in ds:
        return ds["frr"]
    p = ds["n_genuine"].astype(np.float64)
    return (p - np.round(ds["tpr"] * p)) / p
