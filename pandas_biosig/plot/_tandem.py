"""The figure of spoofing-aware verification: the t-DCF against the CM threshold.

Reached as ``pbs.plot.tdcf_curve`` and ``df.biosig.plot.tdcf_curve()``; takes a tandem
table (computing the curves with :func:`pandas_biosig.tdcf_curve`) or that Dataset.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd
import xarray as xr

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["tdcf_curve"]


def tdcf_curve(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    apply_to: Hashable | list | None = "auto",
    version: Literal["2019", "2021"] = "2019",
    costs: str | Mapping[str, float] | None = None,
    asv_threshold: Literal["eer"] | float | Mapping[Hashable, float] = "eer",
    on: Hashable | None = "auto",
    ylim: tuple[float, float] | None = None,
    ax: Axes | None = None,
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    asv_score: str = "asv_score",
    cm_score: str = "cm_score",
    split: str | None = "split",
) -> Axes:
    r"""The normalized t-DCF against the CM threshold, one line per CM system (and ASV
    system, split), with each minimum marked by a dot.

    Parameters
    ----------
    data : DataFrame or Dataset
        A tandem table, or the Dataset of :func:`pandas_biosig.tdcf_curve`.
    apply_to : split value, list, None or "auto", default "auto"
        The splits drawn: for a table, as :func:`pandas_biosig.tdcf_curve` reports them
        (``"auto"``: the evaluation split of a dev/eval table); for a Dataset, ``"auto"``
        or None draws every split.
    version, costs, asv_threshold, on
        As in :func:`pandas_biosig.tdcf_curve` (used when ``data`` is a table).
    ylim : (float, float), optional
        The t-DCF axis' range (default: from 0 to a little above the largest minimum's
        neighbourhood, at least 1.2, so the minima and the level 1 stay readable).
    ax : matplotlib Axes, optional
    asv_system, cm_system, trial, kind, asv_score, cm_score, split : str
        Column names.

    Returns
    -------
    matplotlib Axes

    Notes
    -----
    The dashed line at 1 is the cost of the better of the two CMs that decide without
    looking (accept every trial, reject every trial); a CM is useful where its curve is
    below it.

    Examples
    --------
    >>> ax = pbs.plot.tdcf_curve(pbs.datasets.example_tandem())
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('CM threshold (cm_score)', 'normalized t-DCF (2019)')
    >>> [t.get_text().split(":")[0] for t in ax.get_legend().get_texts()]
    ['cm_a / eval', 'cm_b / eval']
    """
    from .._core.protocol import AUTO, is_auto
    from ..tandem._metrics import tdcf_curve as compute
    from ._axes import _axes, _dataset, _legend, _select_split

    table_apply = apply_to if isinstance(data, pd.DataFrame) else AUTO
    ds = _dataset(data, "tdcf_curve", ["tdcf"], lambda d: compute(
        d, version=version, costs=costs, asv_threshold=asv_threshold, on=on,
        apply_to=table_apply, asv_system=asv_system, cm_system=cm_system, trial=trial,
        kind=kind, asv_score=asv_score, cm_score=cm_score, split=split))
    if isinstance(data, xr.Dataset) and apply_to is not None and not is_auto(apply_to):
        ds = _select_split(ds, apply_to)
    ax = _axes(ax, "tdcf_curve", figsize=(7.5, 4.2))
    top, shown = 1.2, []
    asv_many = ds.sizes["asv_system"] > 1
    splits = list(ds["split"].values) if "split" in ds.dims else [None]
    for a in ds["asv_system"].values:
        for c in ds["cm_system"].values:
            for sp in splits:
                sel = ds.sel(asv_system=a, cm_system=c, **({} if sp is None else {"split": sp}))
                x, y = sel["threshold"].values, sel["tdcf"].values
                ok = np.isfinite(x) & np.isfinite(y)
                if not ok.any():
                    continue
                name = " / ".join(str(v) for v in ((a,) if asv_many else ()) + (c,)
                                  + (() if sp is None else (sp,)))
                best, at = float(sel["min_tdcf"]), float(sel["min_tdcf_threshold"])
                line, = ax.plot(x[ok], y[ok], lw=1.4,
                                label=f"{name}: min {best:.4f} at {at:.4g}")
                ax.plot([at], [best], "o", color=line.get_color(), ms=6, zorder=3)
                top = max(top, 1.5 * best)
                shown.append((x[ok], y[ok]))
    ax.axhline(1.0, color="0.5", lw=0.8, ls="--", zorder=0)
    low, high = ylim if ylim is not None else (0.0, top)
    ax.set_ylim(low, high)
    _zoom(ax, shown, high)
    ax.set_xlabel(f"CM threshold ({ds['threshold'].attrs.get('units', 'score')})")
    ax.set_ylabel(f"normalized t-DCF ({ds.attrs.get('version', '')})")
    _legend(ax, title="minimum t-DCF (dot) and its threshold", title_fontsize="small")
    return ax


def _zoom(ax, curves, high: float) -> None:
    """The threshold axis over the thresholds where some curve is inside the t-DCF axis
    (a curve far above it, as every t-DCF towards the reject-all end, shows nothing)."""
    inside = [x[y <= high] for x, y in curves if (y <= high).any()]
    if not inside:
        return
    lo = min(float(v.min()) for v in inside)
    hi = max(float(v.max()) for v in inside)
    pad = 0.03 * (hi - lo) if hi > lo else 1.0
    ax.set_xlim(lo - pad, hi + pad)
