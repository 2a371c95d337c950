r"""Figures for papers: DET, ROC, EPC with bootstrap bands, Bayes error rate, score histograms.

Every function takes the tidy trial table (the curve functions also take the Dataset that
:mod:`pandas_biosig.curves` or :func:`pandas_biosig.epc_bootstrap` returned), draws one
curve per system (and ``by`` group and split) with a legend outside the data, on the right
of the axes, and returns the matplotlib ``Axes``; :func:`hist` draws small multiples, one
axes per system and split, and returns them as an array. Pass ``ax=`` to draw into axes
you already have (save with ``bbox_inches="tight"`` to keep the legend); otherwise a new
figure is made with :func:`matplotlib.pyplot.subplots` (constrained layout).

matplotlib is a dependency of pandas-biosig, imported only when a figure is drawn, so ``import pandas_biosig`` never imports it.

The same functions are reachable from the accessor: ``trials.biosig.plot.det()`` is
``pbs.plot.det(trials)``.

Rates are plotted as fractions and labelled in percent. The DET axes are in normal-deviate
units: a point at rate :math:`r` is drawn at ``pbs.ppndf(r)``, and the ticks
(:data:`DET_TICKS`, thinned to the axes' size each time the figure is drawn) are labelled
with the rates, in percent. A marked EER lies on the drawn curve, and the legend's title
says which EER it is.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd
import xarray as xr

from . import curves as _cv
from . import metrics as _metrics
from . import resampling as _resampling
from ._schema import validate_trials
from ._typing import Criterion, NonFinite, Orientation
from .curves import EPCCriterion, ppndf

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["DET_TICKS", "bayes_error", "det", "epc", "hist", "roc"]

#: Tick positions of DET axes, as rates (NIST DETware's and bob.measure's ticks).
DET_TICKS = (
    1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 0.001, 0.002, 0.005, 0.01, 0.02,
    0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999,
)

ERROR_MATPLOTLIB = (
    "pandas_biosig.plot.{function} needs matplotlib, a dependency of pandas-biosig that is "
    "missing from this environment: pip install matplotlib"
)
ERROR_DATA = "{function} takes a DataFrame of trials{alternative}, got {type}"
ERROR_KIND = "{function} draws a Dataset of kind {expected}, got kind={kind!r}"
ERROR_NO_SPLIT = (
    "apply_to={value!r} selects a split, but the curves have no split dim (dims: {dims})"
)
ERROR_SPLIT = "apply_to={value!r}: the curves have only the splits {found}"
ERROR_LIMITS = (
    "limits={value!r} must be two rates (low, high), or two such pairs ((far_low, far_high), "
    "(frr_low, frr_high)), with 0 < low < high < 1"
)
ERROR_PAIR = "pair={value!r} is not a pair of systems of the Dataset; its pairs: {found}"
ERROR_NO_PAIRS = (
    "pair={value!r} needs the pairwise variables of pbs.epc_bootstrap (difference, "
    "significant); this Dataset has none"
)
ERROR_XSCALE = "xscale={value!r} is not one of ['linear', 'log']"
ERROR_PANELS = (
    "ax= has {got} axes; the histograms need {needed}, one per system and split"
)
ERROR_NOTHING = "{function}: no curve to draw (every system/split combination is empty)"

_LINESTYLES = ("-", "--", ":", "-.")
#: Where every figure puts its legend: outside the data, right of the axes, top-aligned.
_LEGEND_OUTSIDE = {
    "loc": "upper left", "bbox_to_anchor": (1.02, 1.0), "borderaxespad": 0.0,
    "fontsize": "small", "frameon": False,
}


# ----------------------------------------------------------------------------- helpers
def _pyplot(function: str):
    """``matplotlib.pyplot``, or an ImportError naming the extra."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(ERROR_MATPLOTLIB.format(function=function)) from exc
    return plt


def _axes(ax, function: str, *, figsize=None):
    """``ax``, or the axes of a new pyplot figure (pyplot is imported only then)."""
    if ax is not None:
        return ax
    _, ax = _pyplot(function).subplots(figsize=figsize, layout="constrained")
    return ax


def _fit_width(ax) -> None:
    """Fit the width of a figure this module made to what it holds, legend included.

    Axes of a fixed aspect (DET) do not grow or shrink with the figure's width, so the
    legend next to them can overflow the figure the layout engine sized, or leave empty
    bands beside them; the figure's width is set to the drawn content's (a few passes,
    since the layout moves the axes).
    """
    fig = ax.figure
    for _ in range(4):
        fig.canvas.draw()
        box = fig.get_tightbbox(fig.canvas.get_renderer())
        width, height = fig.get_size_inches()
        wanted = box.width + 0.1
        if box.x0 >= 0 and box.x1 <= width and abs(wanted - width) <= 0.05:
            return
        fig.set_size_inches(wanted, height)


def _args(local_vars: dict) -> dict:
    """The call's keyword arguments: the method's locals minus ``self``."""
    return {k: v for k, v in local_vars.items() if k != "self"}


def _percent(value: float) -> str:
    """A rate as a percentage without trailing zeros: 0.001 -> '0.1', 0.4 -> '40'."""
    return f"{round(100 * value, 6):g}"


def _percent_axis(axis) -> None:
    from matplotlib.ticker import FuncFormatter, NullFormatter

    axis.set_major_formatter(FuncFormatter(lambda v, _: _percent(v)))
    axis.set_minor_formatter(NullFormatter())


def _dataset(data, function: str, kinds: Sequence[str], compute) -> xr.Dataset:
    """The Dataset to draw: ``data`` itself (checked) or ``compute(data)`` for a table."""
    if isinstance(data, xr.Dataset):
        kind = data.attrs.get("kind")
        if kind not in kinds:
            raise ValueError(ERROR_KIND.format(function=function, expected=list(kinds), kind=kind))
        return data
    if isinstance(data, pd.DataFrame):
        return compute(data)
    raise TypeError(
        ERROR_DATA.format(
            function=function, alternative=f" or a Dataset of kind {list(kinds)}",
            type=type(data).__name__,
        )
    )


def _select_split(ds: xr.Dataset, apply_to) -> xr.Dataset:
    if apply_to is None:
        return ds
    if "split" not in ds.dims:
        raise ValueError(ERROR_NO_SPLIT.format(value=apply_to, dims=list(ds.dims)))
    found = ds["split"].values.tolist()
    wanted = list(apply_to) if isinstance(apply_to, list | tuple) else [apply_to]
    if any(w not in found for w in wanted):
        raise ValueError(ERROR_SPLIT.format(value=apply_to, found=found))
    return ds.sel(split=wanted)


@dataclass(frozen=True)
class _Curve:
    """One line to draw: where it is in the Dataset, its legend text and its style."""

    sel: dict
    label: str
    group: tuple
    style: int


def _lines(ds: xr.Dataset, function: str, *, split_style: bool) -> list[_Curve]:
    """One curve per combination of the summary dims (``by`` columns, system, split).

    Curves of one group (system and ``by`` values) share a colour; with ``split_style``
    the splits of a group differ by line style, otherwise the split is part of the group.
    Combinations absent from the table (no trials) are skipped.
    """
    summary = ds["n_genuine"] if "n_genuine" in ds else ds["eer"]
    dims = list(summary.dims)
    values = {d: ds[d].values.tolist() for d in dims}
    out = []
    for combo in itertools.product(*(range(len(values[d])) for d in dims)):
        sel = {d: values[d][i] for d, i in zip(dims, combo, strict=True)}
        if "n_genuine" in ds and int(summary.isel(dict(zip(dims, combo, strict=True)))) == 0:
            continue
        names = [str(sel[d]) for d in dims if d != "split"]
        label = ", ".join(names)
        many_splits = "split" in dims and len(values["split"]) > 1
        if many_splits:
            label = f"{label} ({sel['split']})"
        if split_style and many_splits:
            group = tuple(sel[d] for d in dims if d != "split")
            style = combo[dims.index("split")]
        else:
            group = tuple(sel.values())
            style = 0
        out.append(_Curve(sel=sel, label=label, group=group, style=style))
    if not out:
        raise ValueError(ERROR_NOTHING.format(function=function))
    return out


class _Colours:
    """A colour per curve group, taken from the axes' property cycle on first use."""

    def __init__(self):
        self._by_group: dict[tuple, Any] = {}

    def plot(self, ax, curve: _Curve, x, y, **kwargs):
        kwargs.setdefault("linestyle", _LINESTYLES[curve.style % len(_LINESTYLES)])
        if curve.group in self._by_group:
            kwargs["color"] = self._by_group[curve.group]
        (line,) = ax.plot(x, y, **kwargs)
        self._by_group.setdefault(curve.group, line.get_color())
        return line

    def __getitem__(self, group: tuple):
        return self._by_group[group]


def _legend(ax, **kwargs) -> None:
    """The legend, outside the data: to the right of the axes, top-aligned."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(handles, labels, **{**_LEGEND_OUTSIDE, **kwargs})


def _eer_label(label: str, eer: float) -> str:
    return label if not np.isfinite(eer) else f"{label}, EER {100 * eer:.2f}%"


def _eer_point(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """``(far, frr, eer)`` at the plotted point nearest FAR = FRR, bob.measure's rule.

    The point minimizes :math:`|FAR - FRR|` (ties: the smaller FAR + FRR, then the later
    point, i.e. the higher threshold) and the EER is :math:`(FAR + FRR) / 2` there. On the
    exact curve of :func:`pandas_biosig.det` these are the operating points of every
    candidate threshold, so the value is the ``eer_threshold`` of
    :func:`pandas_biosig.summary`.
    """
    if x.size == 0:
        return np.nan, np.nan, np.nan
    order = np.lexsort((-np.arange(x.size), x + y, np.abs(x - y)))
    i = int(order[0])
    return float(x[i]), float(y[i]), float((x[i] + y[i]) / 2)


def _hull_eer_point(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """``(eer, eer, eer)`` where the hull's segment crosses FAR = FRR (BOSARIS' rule)."""
    d = x - y  # decreasing along the hull (FAR falls, FRR rises)
    k = np.flatnonzero((d[:-1] >= 0) & (d[1:] <= 0))
    if not k.size:
        return np.nan, np.nan, np.nan
    i = int(k[0])
    if d[i] == d[i + 1]:
        e = float(x[i])
    else:
        t = d[i] / (d[i] - d[i + 1])
        e = float(x[i] + t * (x[i + 1] - x[i]))
    return e, e, e


def _hull_path(x: np.ndarray, y: np.ndarray, per_segment: int = 64):
    """The hull's straight ROC segments, sampled densely so they draw as curves on DET axes."""
    if x.size < 2:
        return x, y
    t = np.linspace(0.0, 1.0, per_segment, endpoint=False)
    xs = (x[:-1, None] + t * np.diff(x)[:, None]).ravel()
    ys = (y[:-1, None] + t * np.diff(y)[:, None]).ravel()
    return np.append(xs, x[-1]), np.append(ys, y[-1])


def _tick_priority(rate: float) -> int:
    """How much a DET tick matters when labels must be thinned: decades first (and their
    mirror images 90 %, 99 %...), then the fives, then the rest."""
    r = round(1 - rate, 12) if rate > 0.5 else rate
    mantissa = round(r / 10 ** np.floor(np.log10(r)), 6)
    if rate in (0.4, 0.6):
        return 2
    return {1.0: 0, 5.0: 1, 2.0: 2}.get(mantissa, 3)


def _tick_font(axis):
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties

    name = "ytick.labelsize" if axis.axis_name == "y" else "xtick.labelsize"
    size = getattr(axis, "_major_tick_kw", {}).get("labelsize", mpl.rcParams[name])
    return FontProperties(size=size)


def _label_extent(text: str, prop, vertical: bool) -> float:
    """The extent, in points, of a tick label along its axis."""
    from matplotlib.textpath import TextToPath

    width, height, _ = TextToPath().get_text_width_height_descent(text, prop, ismath=False)
    return height if vertical else width


def _thin_ticks(positions, rates, lo, hi, length_points, prop, vertical):
    """The ticks whose labels fit without overlapping on an axis ``length_points`` long.

    Ticks are taken by priority (:func:`_tick_priority`), then in order along the axis; a
    tick is kept when its label, plus a gap of half the font size on each side, does not
    touch a label already kept.
    """
    if hi <= lo or length_points <= 0:
        return []
    scale = length_points / (hi - lo)
    gap = 0.5 * prop.get_size_in_points()
    kept: list[tuple[float, float]] = []
    chosen = []
    order = sorted(range(len(rates)), key=lambda i: (_tick_priority(rates[i]), positions[i]))
    for i in order:
        centre = (positions[i] - lo) * scale
        half = _label_extent(_percent(rates[i]), prop, vertical) / 2 + gap
        if all(centre + half <= a or centre - half >= b for a, b in kept):
            kept.append((centre - half, centre + half))
            chosen.append(i)
    return sorted(chosen)


_DET_POSITIONS = tuple(float(p) for p in ppndf(np.array(DET_TICKS)))


def _det_rate(position: float) -> float:
    """The rate of the DET tick at ``position`` (a normal deviate)."""
    return DET_TICKS[int(np.argmin(np.abs(np.array(_DET_POSITIONS) - position)))]


def _det_ticker(vertical: bool):
    """A matplotlib Locator placing the :data:`DET_TICKS` in view, thinned at draw time to
    those whose labels fit the axes' current length, and a Formatter labelling them in %."""
    from matplotlib.ticker import FuncFormatter, Locator

    class DETLocator(Locator):
        def __call__(self):
            return self.tick_values(*self.axis.get_view_interval())

        def tick_values(self, vmin, vmax):
            lo, hi = sorted((float(vmin), float(vmax)))
            inside = [
                i for i, p in enumerate(_DET_POSITIONS) if lo - 1e-9 <= p <= hi + 1e-9
            ]
            positions = [_DET_POSITIONS[i] for i in inside]
            axes = getattr(self.axis, "axes", None)
            if axes is None:
                return positions
            pixels = axes.bbox.height if vertical else axes.bbox.width
            length = pixels * 72.0 / axes.figure.dpi
            chosen = _thin_ticks(
                positions, [DET_TICKS[i] for i in inside], lo, hi, length,
                _tick_font(self.axis), vertical,
            )
            return [positions[i] for i in chosen]

    return DETLocator(), FuncFormatter(lambda v, _: _percent(_det_rate(v)))


#: Room left around the data on DET axes, in normal deviates.
_DET_MARGIN = 0.12
#: DET axis range (as rates) when a curve gives no non-zero rate to fit.
_DET_DEFAULT = (0.001, 0.5)


def _det_limits(curves) -> tuple[tuple[float, float], tuple[float, float]]:
    """The (FAR, FRR) ranges, in normal deviates, that hold every curve between its ends.

    Each axis runs over the rates of the curves' inner points, those where neither rate is
    0 or 1 (the others lie off any DET plot): from the smallest (the resolution of the
    data: one trial of the class) to the largest, with a margin of :data:`_DET_MARGIN`.
    The axes are fitted independently, within the range of :data:`DET_TICKS`; with no
    inner point at all they show :data:`_DET_DEFAULT`.
    """
    far_lo, far_hi, frr_lo, frr_hi = [], [], [], []
    for x, y in curves:
        inner = (x > 0) & (x < 1) & (y > 0) & (y < 1)
        if inner.any():
            far_lo.append(x[inner].min())
            far_hi.append(x[inner].max())
            frr_lo.append(y[inner].min())
            frr_hi.append(y[inner].max())

    def span(lows, highs):
        lo = min(lows) if lows else _DET_DEFAULT[0]
        hi = max(highs) if highs else _DET_DEFAULT[1]
        lo = min(max(lo, DET_TICKS[0]), 0.5)
        hi = min(max(hi, lo * 2, 0.01), DET_TICKS[-1])
        return float(ppndf(lo)) - _DET_MARGIN, float(ppndf(hi)) + _DET_MARGIN

    return span(far_lo, far_hi), span(frr_lo, frr_hi)


def _check_limits(limits) -> tuple[tuple[float, float], tuple[float, float]]:
    """``limits`` as (FAR range, FRR range) in normal deviates."""
    try:
        pair = [float(v) for v in limits]
        ranges = [pair, pair]
    except (TypeError, ValueError):
        try:
            ranges = [[float(v) for v in r] for r in limits]
        except (TypeError, ValueError):
            raise ValueError(ERROR_LIMITS.format(value=limits)) from None
    if len(ranges) != 2 or any(len(r) != 2 or not 0 < r[0] < r[1] < 1 for r in ranges):
        raise ValueError(ERROR_LIMITS.format(value=limits))
    (a, b), (c, d) = ranges
    return (float(ppndf(a)), float(ppndf(b))), (float(ppndf(c)), float(ppndf(d)))


def _det_axes(ax, xlim: tuple[float, float], ylim: tuple[float, float]) -> None:
    for axis, vertical in ((ax.xaxis, False), (ax.yaxis, True)):
        locator, formatter = _det_ticker(vertical)
        axis.set_major_locator(locator)
        axis.set_major_formatter(formatter)
        axis.set_ticks([], minor=True)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    ax.set_aspect("equal", adjustable="box")


# ----------------------------------------------------------------------------- public API
def det(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    far_grid=None,
    limits: tuple[float, float] | None = None,
    eer: bool = True,
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
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure (constrained layout), widened
        until the legend fits. The legend is placed outside the axes, on their right.
    by, system, trial, label, score, split, orientation, nonfinite
        Table only: as in :func:`pandas_biosig.det`.

    Returns
    -------
    matplotlib.axes.Axes
        The axes, in normal-deviate units (a rate :math:`r` is at ``pbs.ppndf(r)``), of
        equal scale on both axes, with ticks from :data:`DET_TICKS` labelled in percent.
        Which ticks are labelled is decided each time the figure is drawn, from the
        axes' length and the tick font: decades first (0.1 %, 1 %, 10 %... and 90 %,
        99 %...), then fives, then the rest, each kept only if its label does not
        touch one already kept. Lines: the dotted diagonal FAR = FRR, then per curve its
        line and (with ``eer``) its EER marker.

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
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['0.1', '1', '2', '5', '10', '20', '40', '60', '80', '90']
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
    ds = _select_split(ds, apply_to)
    found = _lines(ds, "det", split_style=True)
    far = ds["far"].broadcast_like(ds["frr"])
    hull = ds.attrs.get("kind") == "rocch"
    made = ax is None
    ax = _axes(ax, "det", figsize=(8.0, 5.5))
    ax.axline((0.0, 0.0), slope=1.0, color="0.6", linewidth=0.8, linestyle=":", zorder=1)
    colours = _Colours()
    drawn = []
    for c in found:
        x = far.sel(c.sel).values
        y = ds["frr"].sel(c.sel).values
        keep = np.isfinite(x) & np.isfinite(y)
        x, y = x[keep], y[keep]
        px, py, e = _hull_eer_point(x, y) if hull else _eer_point(x, y)
        lx, ly = _hull_path(x, y) if hull else (x, y)
        colours.plot(
            ax, c, ppndf(lx), ppndf(ly), label=_eer_label(c.label, e) if eer else c.label,
            linewidth=1.5, zorder=2,
        )
        if eer and np.isfinite(e):
            ax.plot(ppndf(px), ppndf(py), marker="o", markersize=6, linestyle="none",
                    color=colours[c.group], markeredgecolor="white", markeredgewidth=0.8,
                    zorder=3)
        drawn.append((x, y))
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
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure (constrained layout). The legend
        is placed outside the axes, on their right.
    by, system, trial, label, score, split, orientation, nonfinite
        Table only: as in :func:`pandas_biosig.roc`.

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
    ds = _dataset(
        data, "roc", ("roc", "det", "rocch"),
        lambda d: _cv.roc(
            d, far_grid=far_grid, by=by, system=system, trial=trial, label=label,
            score=score, split=split, orientation=orientation, nonfinite=nonfinite,
        ),
    )
    ds = _select_split(ds, apply_to)
    found = _lines(ds, "roc", split_style=True)
    far = ds["far"].broadcast_like(ds["frr"])
    ax = _axes(ax, "roc")
    if xscale == "linear":
        ax.plot([0, 1], [0, 1], color="0.6", linewidth=0.8, linestyle=":", zorder=1)
        ax.plot([0, 1], [1, 0], color="0.6", linewidth=0.8, linestyle=":", zorder=1)
    colours = _Colours()
    lowest = 1.0
    hull = ds.attrs.get("kind") == "rocch"
    for c in found:
        x = far.sel(c.sel).values
        frr = ds["frr"].sel(c.sel).values
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


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """``(first, last)`` index of every run of True."""
    padded = np.concatenate(([False], mask, [False])).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _pair_index(ds: xr.Dataset, pair) -> int | None:
    if "significant" not in ds:
        if pair is None:
            return None
        raise ValueError(ERROR_NO_PAIRS.format(value=pair))
    labels = ds["pair"].values.tolist()
    if pair is None:
        return 0 if len(labels) == 1 else None
    a_names = [str(v) for v in ds["system_a"].values.tolist()]
    b_names = [str(v) for v in ds["system_b"].values.tolist()]
    if isinstance(pair, str):
        if pair in labels:
            return labels.index(pair)
    elif isinstance(pair, Sequence) and len(pair) == 2:
        a, b = (str(v) for v in pair)
        for i, (x, y) in enumerate(zip(a_names, b_names, strict=True)):
            if {x, y} == {a, b} and a != b:
                return i
    raise ValueError(ERROR_PAIR.format(value=pair, found=labels))


def _epc_bands(data: pd.DataFrame, *, system: str = "system", **kwargs) -> xr.Dataset:
    """:func:`pandas_biosig.epc_bootstrap`, also for a table of one system.

    ``epc_bootstrap`` needs at least one pair of systems (with one system it fails on the
    empty pairwise arrays), so a lone system is resampled alongside a copy of itself, which
    leaves its own bands unchanged, and the copy and the pair are dropped.
    """
    names = pd.unique(data[system]) if system in data.columns else []
    if len(names) != 1:
        return _resampling.epc_bootstrap(data, system=system, **kwargs)
    copy = f"{names[0]} (copy)"
    twice = pd.concat([data, data.assign(**{system: copy})], ignore_index=True)
    ds = _resampling.epc_bootstrap(twice, system=system, **kwargs)
    return ds.sel(system=[names[0]]).drop_dims("pair")


def epc(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    bands: bool = True,
    pair: str | tuple[Hashable, Hashable] | None = None,
    criterion: EPCCriterion = "weighted",
    weights=None,
    on: Hashable = "dev",
    apply_to: Hashable = "eval",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    resample: str = "label",
    seed: int | np.random.Generator | None = None,
    progress: bool | None = None,
    ax: Axes | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> Axes:
    r"""Expected Performance Curve: the HTER on ``apply_to`` at the thresholds chosen on ``on``,
    with bootstrap bands, shaded where two systems differ.

    Parameters
    ----------
    data : DataFrame or Dataset
        The tidy trial table (with a split column), or a Dataset of
        :func:`pandas_biosig.epc` or :func:`pandas_biosig.epc_bootstrap`.
    bands : bool
        Draw the bootstrap band of each curve and shade the weights where ``pair``
        differs significantly. For a table this computes
        :func:`pandas_biosig.epc_bootstrap` (otherwise :func:`pandas_biosig.epc`); a
        Dataset is drawn with the bands it has.
    pair : str or (system, system), optional
        The two systems whose difference is shaded: ``("cnn", "gmm")`` (either order) or
        the Dataset's pair label ``"cnn vs gmm"``. By default the only pair when there
        are two systems, and no shading with more.
    criterion, weights, on, apply_to
        Table only: the threshold criterion, its weight grid and the splits, as in
        :func:`pandas_biosig.epc`.
    n_resamples, confidence_level, resample, seed, progress
        Table only, with ``bands``: as in :func:`pandas_biosig.epc_bootstrap`.
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure.
    system, trial, label, score, split, subject, orientation, nonfinite
        Table only: column names and policies, as in :func:`pandas_biosig.epc_bootstrap`.

    Returns
    -------
    matplotlib.axes.Axes
        x: the weight :math:`\alpha` of the criterion (FAR's weight for ``"weighted"``);
        y: the HTER on ``apply_to``, labelled in percent. Per curve one line and, with
        bands, one filled band (a ``PolyCollection``); the shaded weights are ``axvspan``
        patches, the first one labelled in the legend.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    ValueError
        A Dataset of another kind, or a ``pair`` that is not in it.

    See Also
    --------
    pandas_biosig.epc, pandas_biosig.epc_bootstrap

    Notes
    -----
    The shading marks the weights at which the bootstrap interval of the HTER difference
    excludes 0, weight by weight and without correction for the many weights: read it as
    the region where the systems differ (Bengio, Mariéthoz & Keller's Fig. 8), not as one
    test.

    References
    ----------
    Bengio, S., Mariéthoz, J., & Keller, M. (2005). The expected performance curve.
    ICML Workshop on ROC Analysis in Machine Learning.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> trials = pbs.datasets.example_trials()
    >>> two = trials[trials.system.isin(["cnn", "gmm"])]
    >>> ax = pbs.plot.epc(two, weights=np.linspace(0.05, 0.95, 19), n_resamples=200, seed=0)
    >>> ax.get_legend_handles_labels()[1]
    ['cnn', 'gmm', 'cnn ≠ gmm (95% bootstrap)']
    >>> plt.close(ax.figure)
    """
    def compute(d):
        common = dict(
            criterion=criterion, weights=weights, on=on, apply_to=apply_to, system=system,
            trial=trial, label=label, score=score, split=split, orientation=orientation,
            nonfinite=nonfinite,
        )
        if not bands:
            return _cv.epc(d, **common)
        return _epc_bands(
            d, n_resamples=n_resamples, confidence_level=confidence_level, resample=resample,
            seed=seed, progress=progress, subject=subject, **common,
        )

    ds = _dataset(data, "epc", ("epc",), compute)
    index = _pair_index(ds, pair) if bands else None
    found = _lines(ds, "epc", split_style=False)
    ax = _axes(ax, "epc")
    cost = ds["cost"].values
    colours = _Colours()
    with_bands = bands and "hter_low" in ds
    for c in found:
        y = ds["hter"].sel(c.sel).values
        colours.plot(ax, c, cost, y, label=c.label, linewidth=1.5, zorder=3)
        if with_bands:
            ax.fill_between(
                cost, ds["hter_low"].sel(c.sel).values, ds["hter_high"].sel(c.sel).values,
                color=colours[c.group], alpha=0.2, linewidth=0, zorder=2,
            )
    if index is not None:
        sig = ds["significant"].isel(pair=index).values.astype(bool)
        half = np.diff(cost) / 2 if cost.size > 1 else np.array([0.0])
        level = ds.attrs.get("confidence_level", 0.95)
        a, b = ds["system_a"].values[index], ds["system_b"].values[index]
        for k, (i, j) in enumerate(_runs(sig)):
            lo = cost[i] - (half[i - 1] if i > 0 else 0.0)
            hi = cost[j] + (half[j] if j < cost.size - 1 else 0.0)
            ax.axvspan(
                lo, hi, color="0.5", alpha=0.15, linewidth=0, zorder=1,
                label=f"{a} ≠ {b} ({100 * level:g}% bootstrap)" if k == 0 else None,
            )
    ax.set_xlim(cost.min(), cost.max())
    ax.set_ylim(bottom=0.0)
    _percent_axis(ax.yaxis)
    ax.grid(True, color="0.88", linewidth=0.6)
    crit = ds.attrs.get("criterion", "weighted")
    on_split = ds.attrs.get("on", on)
    what = {"weighted": "weight α of FAR", "precision_recall": "weight α of precision",
            "far": "target FAR α", "frr": "target FRR α"}.get(crit, "weight α")
    ax.set_xlabel(f"{what} (threshold chosen on {on_split})")
    ax.set_ylabel(f"HTER on {ds.attrs.get('apply_to', apply_to)} (%)")
    _legend(ax)
    return ax


def bayes_error(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    prior_log_odds=None,
    eer: bool = True,
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
        Draw only these splits; by default every split (each a curve of its own colour).
    prior_log_odds : array of float, optional
        Table only: the grid of :func:`pandas_biosig.bayes_error`.
    eer : bool
        Give each curve's EER (the ROC convex hull's) in the legend and mark the peak of
        its drawn minimum Bayes error: the EER is the worst-case minimum Bayes error, so
        the dot's height is the EER up to the grid (the peak of the curve between two
        grid points is not drawn).
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure.
    by, system, trial, label, score, split, orientation, nonfinite
        Table only: as in :func:`pandas_biosig.bayes_error`.

    Returns
    -------
    matplotlib.axes.Axes
        Lines: the dotted error without the scores, :math:`\min(\pi, 1 - \pi)`, then per
        curve the actual Bayes error ``act_ber`` (solid; left out for distances, which
        have none), the minimum ``min_ber`` (dashed) and (with ``eer``) the EER marker.
        The legend names the curves, then the three line styles.

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
    """
    ds = _dataset(
        data, "bayes_error", ("bayes_error",),
        lambda d: _cv.bayes_error(
            d, prior_log_odds=prior_log_odds, by=by, system=system, trial=trial, label=label,
            score=score, split=split, orientation=orientation, nonfinite=nonfinite,
        ),
    )
    ds = _select_split(ds, apply_to)
    found = _lines(ds, "bayes_error", split_style=False)
    ax = _axes(ax, "bayes_error")
    from matplotlib.lines import Line2D

    plo = ds["prior_log_odds"].values
    first = found[0].sel
    default = ds["default_ber"].sel(first).values
    ax.plot(plo, default, color="0.5", linewidth=1.0, linestyle=":", zorder=1)
    colours = _Colours()
    top = 0.0
    has_actual = False
    for c in found:
        act = ds["act_ber"].sel(c.sel).values
        low = ds["min_ber"].sel(c.sel).values
        e = float(ds["eer"].sel(c.sel))
        text = _eer_label(c.label, e) if eer else c.label
        if np.isfinite(act).any():
            has_actual = True
            colours.plot(ax, c, plo, act, label=text, linewidth=1.5, linestyle="-", zorder=2)
            colours.plot(ax, c, plo, low, linewidth=1.2, linestyle="--", zorder=2)
        else:
            colours.plot(ax, c, plo, low, label=text, linewidth=1.2, linestyle="--", zorder=2)
        if eer and np.isfinite(e):
            peak = int(np.nanargmax(low))
            ax.plot(plo[peak], low[peak], marker="o", markersize=6, linestyle="none",
                    color=colours[c.group], markeredgecolor="white", markeredgewidth=0.8,
                    zorder=3)
        if np.isfinite(e):
            top = max(top, e)
    ax.set_xlim(plo.min(), plo.max())
    ax.set_ylim(0.0, min(float(np.nanmax(default)) * 1.02, max(2.0 * top, 0.05)))
    _percent_axis(ax.yaxis)
    ax.grid(True, color="0.88", linewidth=0.6)
    ax.set_xlabel(r"prior log odds $\log(\pi / (1 - \pi))$")
    ax.set_ylabel("Bayes error rate (%)")
    handles, labels = ax.get_legend_handles_labels()
    styles = [("-", "actual")] if has_actual else []
    styles += [("--", "minimum"), (":", "without the scores")]
    for style, text in styles:
        handles.append(Line2D([], [], color="0.3", linestyle=style))
        labels.append(text)
    ax.legend(handles, labels, **_LEGEND_OUTSIDE,
              title="EER of the ROC convex hull" if eer else None, title_fontsize="small")
    return ax


def _panels(ax, shape: tuple[int, int], needed: int) -> np.ndarray:
    """The axes of a small-multiples figure: a new ``shape`` grid, or the axes given
    (at least ``needed`` of them, as a two-dimensional array)."""
    if ax is None:
        _, axes = _pyplot("hist").subplots(
            *shape, figsize=(3.4 * shape[1] + 1.8, 2.6 * shape[0] + 0.4), squeeze=False,
            layout="constrained",
        )
        return axes
    axes = np.array(ax, dtype=object)
    axes = axes.reshape(1, -1) if axes.ndim < 2 else axes
    if axes.size < needed:
        raise ValueError(ERROR_PANELS.format(needed=needed, got=axes.size))
    return axes


def hist(
    data: pd.DataFrame,
    /,
    *,
    threshold: Criterion | float | Mapping[Hashable, float] | None = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = None,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    bins: int | Sequence[float] | str = "auto",
    density: bool = True,
    ax: Axes | Sequence[Axes] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> np.ndarray:
    r"""Histograms of the genuine and impostor scores, with the decision threshold marked:
    small multiples, one axes per system and split.

    Parameters
    ----------
    data : DataFrame
        The tidy trial table.
    threshold : criterion name, number, mapping or None
        The threshold policy of :func:`pandas_biosig.error_rates` (``"eer"``,
        ``"min_hter"``, ``"far"`` with ``target``..., a number or ``{system: number}``),
        drawn as a vertical line; None draws none.
    weight, target, p_target, c_miss, c_fa, on
        The rest of the threshold policy, as in :func:`pandas_biosig.error_rates`; with
        ``on="dev"`` the threshold is chosen on ``dev`` and drawn on the other splits.
    apply_to : split value or list, optional
        Draw only these splits (e.g. ``"eval"``).
    bins : int, sequence or str
        ``numpy.histogram_bin_edges``' ``bins``: an int or a rule gives each axes its own
        edges over its own scores (systems need not share a score scale); a sequence of
        edges is used by every axes.
    density : bool
        Normalize each class on its own (the default, since impostor trials usually
        outnumber genuine ones); False draws counts.
    ax : matplotlib Axes or array of Axes, optional
        Draw into these axes, one per system and split, filled in row order (the array
        is returned, as two-dimensional); by default a new figure (constrained layout).
    system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.error_rates`. Non-finite scores are not drawn.

    Returns
    -------
    numpy.ndarray of matplotlib.axes.Axes
        Always two-dimensional: with several splits a row per system and a column per
        split, otherwise the systems in rows of at most three (one system: shape
        ``(1, 1)``); cells without a system and split are hidden. Each axes holds the
        filled genuine and impostor histograms and a dashed black threshold line, and
        its title names the system (and split) and gives the threshold. One legend, to
        the right of the top-right axes, names the classes and the threshold policy.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    SchemaError, ValueError
        As :func:`pandas_biosig.error_rates`.

    See Also
    --------
    pandas_biosig.error_rates

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> cnn = pbs.datasets.example_trials().query("system == 'cnn'")
    >>> axes = pbs.plot.hist(cnn, on="dev", apply_to="eval")
    >>> axes.shape, axes[0, 0].get_title()
    ((1, 1), 'cnn: threshold -0.211')
    >>> [t.get_text() for t in axes[0, 0].get_legend().get_texts()]
    ['genuine', 'impostor', 'threshold (eer on dev)']
    >>> plt.close(axes[0, 0].figure)
    """
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split, subject=None,
        orientation=orientation, nonfinite=nonfinite,
    )
    sign = -1.0 if trials.orientation == "distance" else 1.0
    groups = trials.groups
    if apply_to is not None:
        wanted = list(apply_to) if isinstance(apply_to, list | tuple) else [apply_to]
        groups = [g for v in wanted for g in trials.select_split(v, name="apply_to")]
        order = {id(g): i for i, g in enumerate(trials.groups)}
        groups.sort(key=lambda g: order[id(g)])
    thresholds: dict[tuple, tuple[float, str]] = {}
    if threshold is not None:
        er = _metrics.error_rates(
            data, threshold=threshold, weight=weight, target=target, p_target=p_target,
            c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, system=system, trial=trial,
            label=label, score=score, split=split, orientation=orientation, nonfinite=nonfinite,
        )
        for row in er.itertuples(index=False):
            how = str(row.criterion)
            if row.threshold_split is not None and not pd.isna(row.threshold_split):
                how = f"{how} on {row.threshold_split}"
            thresholds[(row.system, row.split)] = (float(row.threshold), how)
    hows = list(dict.fromkeys(how for _, how in thresholds.values()))
    policy = hows[0] if len(hows) == 1 else f"{threshold}, chosen on each split itself"
    systems = list(dict.fromkeys(g.system for g in groups))
    splits = list(dict.fromkeys(g.split for g in groups))
    if len(splits) > 1:  # a row per system, a column per split
        shape = (len(systems), len(splits))
        where = {id(g): systems.index(g.system) * len(splits) + splits.index(g.split)
                 for g in groups}
    else:  # systems wrapped in rows of at most three
        n_cols = min(len(groups), 3)
        shape = (-(-len(groups) // n_cols), n_cols)
        where = {id(g): i for i, g in enumerate(groups)}
    if ax is not None:  # the given axes, filled in order
        where = {id(g): i for i, g in enumerate(groups)}
    panels = _panels(ax, shape, len(groups))
    edges_all = np.asarray(bins, dtype=float) if not isinstance(bins, int | str) else None
    for g in groups:
        ax_g = panels.flat[where[id(g)]]
        s = sign * g.scores
        gen, imp = s[g.genuine], s[~g.genuine]
        gen, imp = gen[np.isfinite(gen)], imp[np.isfinite(imp)]
        edges = edges_all if edges_all is not None else np.histogram_bin_edges(
            np.concatenate([gen, imp]), bins=bins
        )
        ax_g.hist(gen, bins=edges, density=density, alpha=0.55, color="C0", label="genuine")
        ax_g.hist(imp, bins=edges, density=density, alpha=0.55, color="C1", label="impostor")
        name = str(g.system) + (f" ({g.split})" if len(splits) > 1 else "")
        thr = thresholds.get((g.system, g.split))
        if thr is not None:
            ax_g.axvline(thr[0], color="black", linestyle="--", linewidth=1.2,
                         label=f"threshold ({policy})")
            name += f": threshold {thr[0]:.4g}"
        ax_g.set_title(name, fontsize="medium")
        ax_g.grid(True, color="0.88", linewidth=0.6)
        ax_g.set_ylabel("density" if density else "trials")
        ax_g.set_xlabel(f"{score} (accept iff {score} {'<=' if sign < 0 else '>='} threshold)")
    used = set(where.values())
    for i, ax_g in enumerate(panels.flat):
        if i not in used and ax is None:
            ax_g.set_visible(False)
    top_right = panels[0, min(panels.shape[1], len(groups)) - 1]
    handles, labels = panels.flat[0].get_legend_handles_labels()
    top_right.legend(handles, labels, **_LEGEND_OUTSIDE)
    if ax is None:
        _fit_width(top_right)
    return panels


# ----------------------------------------------------------------------------- accessor
class _PlotNamespace:
    """``df.biosig.plot``: the functions of :mod:`pandas_biosig.plot` applied to this table.

    Holds only the DataFrame; every method is the function of the same name with the
    table as its first argument.
    """

    def __init__(self, pandas_obj: pd.DataFrame):
        self._obj = pandas_obj

    def __repr__(self) -> str:
        return "<pandas_biosig plot namespace: " + ", ".join(
            n for n in vars(type(self)) if not n.startswith("_")
        ) + ">"

    def det(
        self,
        *,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        far_grid=None,
        limits: tuple[float, float] | None = None,
        eer: bool = True,
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
        """DET plot of this table; see :func:`pandas_biosig.plot.det`."""
        return det(self._obj, **_args(locals()))

    def roc(
        self,
        *,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        far_grid=None,
        xscale: Literal["linear", "log"] = "linear",
        eer: bool = True,
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
        """ROC plot of this table; see :func:`pandas_biosig.plot.roc`."""
        return roc(self._obj, **_args(locals()))

    def epc(
        self,
        *,
        bands: bool = True,
        pair: str | tuple[Hashable, Hashable] | None = None,
        criterion: EPCCriterion = "weighted",
        weights=None,
        on: Hashable = "dev",
        apply_to: Hashable = "eval",
        n_resamples: int = 1000,
        confidence_level: float = 0.95,
        resample: str = "label",
        seed: int | np.random.Generator | None = None,
        progress: bool | None = None,
        ax: Axes | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> Axes:
        """EPC plot with bootstrap bands; see :func:`pandas_biosig.plot.epc`."""
        return epc(self._obj, **_args(locals()))

    def bayes_error(
        self,
        *,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        prior_log_odds=None,
        eer: bool = True,
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
        """Bayes error-rate plot; see :func:`pandas_biosig.plot.bayes_error`."""
        return bayes_error(self._obj, **_args(locals()))

    def hist(
        self,
        *,
        threshold: Criterion | float | Mapping[Hashable, float] | None = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        bins: int | Sequence[float] | str = "auto",
        density: bool = True,
        ax: Axes | Sequence[Axes] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> np.ndarray:
        """Score histograms with the threshold, one axes per system and split; see
        :func:`pandas_biosig.plot.hist`."""
        return hist(self._obj, **_args(locals()))


# ------------------------------------------------------------- presentation attacks
from .plot_pad import epsc, pad_det  # noqa: E402  (after the namespace they extend)

__all__ += ["epsc", "pad_det"]


def _pad_det_method(
    self,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    limits: tuple[float, float] = (0.001, 0.6),
    ax: Axes | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> Axes:
    """PAD DET plot of this table; see :func:`pandas_biosig.plot.pad_det`."""
    return pad_det(self._obj, **_args(locals()))


_pad_det_method.__name__ = _pad_det_method.__qualname__ = "pad_det"
_PlotNamespace.pad_det = _pad_det_method


def _epsc_method(
    self,
    *,
    beta: float = 0.5,
    iapmr: bool = True,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    criterion: Literal["eer", "wer"] = "eer",
    on: Hashable | None = "auto",
    ax: Axes | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    kind: str = "kind",
    score: str = "score",
    pai: str | None = "pai",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> Axes:
    """EPSC plot of this table; see :func:`pandas_biosig.plot.epsc`."""
    return epsc(self._obj, **_args(locals()))


_epsc_method.__name__ = _epsc_method.__qualname__ = "epsc"
_PlotNamespace.epsc = _epsc_method


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
