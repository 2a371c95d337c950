"""Shared figure helpers (the internal module the figure modules import their helpers from): matplotlib on demand, axes and legends, NIST DET ticks and limits,
the EER point drawn on a curve.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd
import xarray as xr

from ..verification._curves import ppndf

if TYPE_CHECKING:  # pragma: no cover
    pass


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
ERROR_NOTHING = "{function}: no curve to draw (every system/split combination is empty)"

_LINESTYLES = ("-", "--", ":", "-.")
#: Where every figure puts its legend: outside the data, right of the axes, top-aligned.
_LEGEND_OUTSIDE: dict[str, Any] = {
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

    name: Literal["ytick.labelsize", "xtick.labelsize"] = (
        "ytick.labelsize" if axis.axis_name == "y" else "xtick.labelsize"
    )
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
            assert self.axis is not None  # matplotlib sets it before asking for ticks
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
