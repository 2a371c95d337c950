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


def _axes(ax):
    from ._axes import _axes as plot_axes

    return plot_axes(ax, "pad")


def pad_det(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | Sequence[Hashable] | None = None,
    limits: tuple[float, float] = (1e-3, 0.6),
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
    r"""DET plot of PAD systems: APCER of each attack species (thin) and their maximum
    (thick, the standard's APCER) against BPCER, on normal-deviate axes.

    Parameters
    ----------
    data : DataFrame or Dataset
        A PAD table, or the Dataset of :func:`pandas_biosig.pad_det`.
    apply_to : split value or list, optional
        The splits to draw (default: all).
    limits : (float, float), default (0.001, 0.6)
        Axis range, as rates.
    ax : matplotlib Axes, optional
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
    """
    from ..pad._metrics import pad_det
    from ..verification._curves import ppndf
    from ._axes import _check_limits, _det_axes, _legend

    kwargs: dict[str, Any] = dict(by=by, system=system, trial=trial, label=label, score=score,
                                  pai=pai, split=split, orientation=orientation,
                                  nonfinite=nonfinite)
    ds = _dataset(data, "pad_det", "pad_det", lambda d: pad_det(d, **kwargs))
    low, high = _check_limits(limits)
    ax = _axes(ax)
    species = list(ds.species.values)
    # one colour per drawn (system, split): dev and eval of one system differ
    drawn = [(n, sp) for n in ds.system.values for sp in _splits(ds, apply_to)]
    for i, (name, sp) in enumerate(drawn):
        sel = ds.sel(system=name) if sp is None else ds.sel(system=name, split=sp)
        tag = f"{name}" if sp is None else f"{name} / {sp}"
        bp = sel.bpcer.values
        for s in species:
            ap = sel.apcer.sel(species=s).values
            ok = np.isfinite(ap) & np.isfinite(bp)
            if s == "max":
                ax.plot(ppndf(np.clip(bp[ok], 1e-9, 1)), ppndf(np.clip(ap[ok], 1e-9, 1)),
                        color=f"C{i % 10}", lw=2.2, label=f"{tag}: max over species")
            else:
                ax.plot(ppndf(np.clip(bp[ok], 1e-9, 1)), ppndf(np.clip(ap[ok], 1e-9, 1)),
                        color=f"C{i % 10}", lw=0.8, alpha=0.6)
    _det_axes(ax, low, high)
    ax.set_xlabel("BPCER (%)")
    ax.set_ylabel("APCER (%)")
    _legend(ax, title="thin: one line per species", title_fontsize="small")
    return ax


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
    r"""EPSC plot: WER\ :sub:`ω,β` against ω (solid) and, with ``iapmr=True``, the IAPMR at
    the same thresholds (dashed, right axis).

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

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> ax = pbs.plot.epsc(pbs.datasets.example_vulnerability(), apply_to="eval")
    >>> ax.get_xlabel()
    'omega (weight of attacks among impostors)'
    """
    from ..pad._vulnerability import epsc

    kwargs = dict(beta=(beta,), criterion=criterion, on=on, apply_to=apply_to, by=by,
                  system=system, trial=trial, kind=kind, score=score, pai=pai, split=split,
                  orientation=orientation, nonfinite=nonfinite)
    apply_to = None if is_auto(apply_to) else apply_to
    ds = _dataset(data, "epsc", "epsc", lambda d: epsc(d, **kwargs))
    ds = ds.sel(beta=beta)
    ax = _axes(ax)
    twin = ax.twinx() if iapmr else None
    # one colour per drawn (system, split): dev and eval of one system differ
    drawn = [(n, sp) for n in ds.system.values for sp in _splits(ds, apply_to)]
    for i, (name, sp) in enumerate(drawn):
        sel = ds.sel(system=name) if sp is None else ds.sel(system=name, split=sp)
        tag = f"{name}" if sp is None else f"{name} / {sp}"
        aue = float(sel.aue)
        ax.plot(ds.omega, 100 * sel.wer, color=f"C{i % 10}", label=f"{tag}: WER (area {aue:.3f})")
        if twin is not None:
            twin.plot(ds.omega, 100 * sel.iapmr, color=f"C{i % 10}", ls="--", label=f"{tag}: IAPMR")
    ax.set_xlabel("omega (weight of attacks among impostors)")
    ax.set_ylabel(f"WER at beta = {beta:g} (%)")
    handles, labels = ax.get_legend_handles_labels()
    if twin is not None:
        twin.set_ylabel("IAPMR (%)")
        more = twin.get_legend_handles_labels()
        handles, labels = handles + more[0], labels + more[1]
    # outside the data, right of the IAPMR axis's labels
    ax.legend(handles, labels, fontsize=8, loc="upper left", frameon=False,
              bbox_to_anchor=(1.15 if twin is not None else 1.02, 1.0), borderaxespad=0.0)
    return ax
