"""Figures of presentation-attack detection and vulnerability: DET per species, EPSC.

Reached as ``pbs.plot.pad_det`` / ``pbs.plot.epsc`` and ``df.biosig.plot.pad_det()`` /
``df.biosig.plot.epsc()``. Each takes a table (computing the curves) or the Dataset that
:func:`pandas_biosig.pad_det` / :func:`pandas_biosig.epsc` returned.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pandas as pd
import xarray as xr

from .._core.options import NonFinite, Orientation
from .._core.protocol import is_auto
from ._axes import _LINESTYLES, _fit_width, _legend

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["epsc", "pad_det"]

ERROR_PAD_DATA = "{function} takes a DataFrame or the Dataset of pandas_biosig.{function}, got {type}"
ERROR_PAD_KIND = "{function} draws a Dataset of kind {expected!r}, got kind={kind!r}"
ERROR_PAD_SPLIT = "apply_to={value!r}: the curves have only the splits {found}"


def _dataset(data, function: str, kind: str, compute) -> xr.Dataset:
    if isinstance(data, xr.Dataset):
        if data.attrs.get("kind") != kind:
            raise ValueError(ERROR_PAD_KIND.format(function=function, expected=kind, kind=data.attrs.get("kind")))
        return data
    if isinstance(data, pd.DataFrame):
        return compute(data)
    raise TypeError(ERROR_PAD_DATA.format(function=function, type=type(data).__name__))


def _splits(ds: xr.Dataset, apply_to) -> list:
    if "split" not in ds.dims:
        return [None]
    found = list(ds.split.values)
    if apply_to is None:
        return found
    wanted = [apply_to] if isinstance(apply_to, str) or not isinstance(apply_to, Sequence) else list(apply_to)
    bad = [w for w in wanted if w not in found]
    if bad:
        raise ValueError(ERROR_PAD_SPLIT.format(value=apply_to, found=found))
    return wanted


def _axes(ax, figsize=(8.0, 5.5)):
    from ._axes import _axes as plot_axes

    return plot_axes(ax, "pad", figsize=figsize)


def pad_det(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    limits: tuple[float, float] | None = None,
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
    r"""DET plot of PAD systems: APCER of each attack species (thin, named at its line)
    and their maximum (thick, the standard's APCER) against BPCER, on normal-deviate axes.

    One colour per system, one line style per split (as :func:`pbs.plot.det
    <pandas_biosig.plot.det>`). A species whose APCER is 0 wherever the BPCER is on the
    axes has no line on a normal-deviate plot: the legend's title names those species.

    Parameters
    ----------
    data : DataFrame or Dataset
        A PAD table, or the Dataset of :func:`pandas_biosig.pad_det`.
    apply_to : split value or list, optional
        The splits to draw (default: all).
    limits : (float, float), optional
        Axis range, as rates; by default the range that holds every drawn curve.
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure, sized so that a plain
        ``fig.savefig(path)`` keeps the legend.
    by, system, trial, label, score, pai, split, orientation, nonfinite
        As in :func:`pandas_biosig.pad_det`.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> ax = pbs.plot.pad_det(pbs.datasets.example_pad(), apply_to="eval")
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('BPCER (%)', 'APCER (%)')
    >>> sorted(t.get_text() for t in ax.texts)[:3]
    ['mask', 'mask', 'print']
    """
    from ..pad._metrics import pad_det
    from ._axes import _check_limits, _det_axes, _det_limits

    kwargs: dict[str, Any] = dict(by=by, system=system, trial=trial, label=label, score=score,
                                  pai=pai, split=split, orientation=orientation,
                                  nonfinite=nonfinite)
    ds = _dataset(data, "pad_det", "pad_det", lambda d: pad_det(d, **kwargs))
    limits_given = None if limits is None else _check_limits(limits)
    made = ax is None
    ax = _axes(ax)
    drawn, hidden = _pad_lines(ax, ds, _splits(ds, apply_to))
    xlim, ylim = _det_limits(drawn) if limits_given is None else limits_given
    _det_axes(ax, xlim, ylim)
    _species_names(ax, xlim, ylim)
    ax.grid(True, color="0.88", linewidth=0.6)
    ax.set_xlabel("BPCER (%)")
    ax.set_ylabel("APCER (%)")
    title = "thin: one line per species (named)"
    if hidden:
        rows = [", ".join(hidden[i:i + 4]) for i in range(0, len(hidden), 4)]
        title += "\nAPCER 0 on these axes:\n" + ",\n".join(rows)
    _legend(ax, title=title, title_fontsize="small")
    if made:
        _fit_width(ax)
    return ax


def _pad_lines(ax, ds: xr.Dataset, splits: list) -> tuple[list, list]:
    """Draw every (system, split)'s species and max lines: colour = system, line style =
    split; return the drawn (BPCER, APCER) curves and the species never above APCER 0."""
    from ..verification._curves import ppndf
    species = [s for s in ds.species.values if s != "max"]
    drawn, shown = [], set()
    for i, name in enumerate(ds.system.values):
        for j, sp in enumerate(splits):
            sel = ds.sel(system=name) if sp is None else ds.sel(system=name, split=sp)
            tag = f"{name}" if sp is None or len(splits) == 1 else f"{name} ({sp})"
            style: dict[str, Any] = dict(color=f"C{i % 10}",
                                         linestyle=_LINESTYLES[j % len(_LINESTYLES)])
            bp = sel.bpcer.values
            for s in [*species, "max"]:
                ap = sel.apcer.sel(species=s).values
                ok = np.isfinite(ap) & np.isfinite(bp) & (ap > 0) & (bp > 0) & (ap < 1) & (bp < 1)
                if not ok.any():
                    continue
                shown.add(s)
                x, y = ppndf(bp[ok]), ppndf(ap[ok])
                if s == "max":
                    ax.plot(x, y, lw=2.2, label=f"{tag}: max over species", zorder=3, **style)
                else:
                    (line,) = ax.plot(x, y, lw=0.9, alpha=0.75, zorder=2, **style)
                    line.set_gid(f"species:{s}")
                drawn.append((bp[ok], ap[ok]))
    return drawn, [str(s) for s in species if s not in shown]


def _species_names(ax, xlim, ylim) -> None:
    """Name each species line on the line, in its colour; the names of one system and
    split are spread along the BPCER axis (curves of similar species overlap)."""
    lines = [line for line in ax.get_lines()
             if str(line.get_gid() or "").startswith("species:")]
    for k, line in enumerate(lines):
        x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
        inside = (x >= xlim[0]) & (x <= xlim[1]) & (y >= ylim[0]) & (y <= ylim[1])
        if not inside.any():
            continue
        at = xlim[0] + (xlim[1] - xlim[0]) * (0.1 + 0.8 * (k + 0.5) / len(lines))
        candidates = np.flatnonzero(inside)
        i = int(candidates[np.argmin(np.abs(x[candidates] - at))])
        ax.annotate(str(line.get_gid()).split(":", 1)[1], (x[i], y[i]), xytext=(2, 2),
                    textcoords="offset points", fontsize=7, color=line.get_color(),
                    ha="left", va="bottom", clip_on=True,
                    bbox=dict(boxstyle="square,pad=0.05", fc="white", ec="none", alpha=0.7))


def epsc(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    beta: float = 0.5,
    iapmr: bool = True,
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
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
    r"""EPSC plot: WER\ :sub:`ω,β` against ω (thick) and, with ``iapmr=True``, the IAPMR
    at the same thresholds (thin), both in % on one y axis.

    One colour per system, one line style per split (as :func:`pbs.plot.det
    <pandas_biosig.plot.det>`).

    Parameters
    ----------
    data : DataFrame or Dataset
        A vulnerability table, or the Dataset of :func:`pandas_biosig.epsc` (which must
        hold ``beta``).
    beta : float, default 0.5
        The β whose curve is drawn.
    iapmr : bool, default True
    apply_to : split value, list, "auto" or None, default "auto"
        The splits drawn: with a table, the splits :func:`pandas_biosig.epsc` reports
        (``"auto"``: eval when the thresholds come from dev); with a Dataset, these of its
        splits (``"auto"`` or None: all of them).
    criterion, on, by, system, trial, kind, score, pai, split, orientation, nonfinite
        As in :func:`pandas_biosig.epsc` (used when ``data`` is a table).
    ax : matplotlib Axes, optional
        Draw into these axes; by default a new figure, sized so that a plain
        ``fig.savefig(path)`` keeps the legend.

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> ax = pbs.plot.epsc(pbs.datasets.example_vulnerability(), apply_to="eval")
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('omega (weight of attacks among impostors)', 'WER at beta = 0.5, IAPMR (%)')
    """
    from ..pad._vulnerability import epsc

    kwargs: dict[str, Any] = dict(
        beta=(beta,), criterion=criterion, on=on, apply_to=apply_to, by=by, system=system,
        trial=trial, kind=kind, score=score, pai=pai, split=split, orientation=orientation,
        nonfinite=nonfinite)
    apply_to = None if is_auto(apply_to) else apply_to
    ds = _dataset(data, "epsc", "epsc", lambda d: epsc(d, **kwargs))
    ds = ds.sel(beta=beta)
    made = ax is None
    ax = _axes(ax, figsize=(8.0, 4.5))
    splits = _splits(ds, apply_to)
    for i, name in enumerate(ds.system.values):
        for j, sp in enumerate(splits):
            sel = ds.sel(system=name) if sp is None else ds.sel(system=name, split=sp)
            tag = f"{name}" if sp is None or len(splits) == 1 else f"{name} ({sp})"
            style: dict[str, Any] = dict(color=f"C{i % 10}",
                                         linestyle=_LINESTYLES[j % len(_LINESTYLES)])
            ax.plot(ds.omega, 100 * sel.wer, lw=2.0, label=f"{tag}: area {float(sel.aue):.3f}",
                    **style)
            if iapmr:
                ax.plot(ds.omega, 100 * sel.iapmr, lw=0.9, alpha=0.8, **style)
    ax.set_xlabel("omega (weight of attacks among impostors)")
    ax.set_ylabel(f"WER at beta = {beta:g}{', IAPMR' if iapmr else ''} (%)")
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(bottom=0.0)
    ax.grid(True, color="0.88", linewidth=0.6)
    title = "thick: WER (area under it)" + ("\nthin: IAPMR" if iapmr else "")
    _legend(ax, title=title, title_fontsize="small")
    if made:
        _fit_width(ax)
    return ax
