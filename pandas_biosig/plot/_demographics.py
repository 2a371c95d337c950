"""Figures of demographic differentials: the cross-group FMR heatmap and per-group DETs.

Both return the matplotlib ``Axes`` (matplotlib is imported only when a figure is drawn).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import xarray as xr

from .. import demographics as _dm
from .._core.schema import genuine_from_labels
from ..demographics._plan import GroupCriterion, Impostors
from ..verification._curves import ppndf
from ._axes import _axes

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

__all__ = ["fmr_heatmap", "group_det"]

ERROR_SELECT = "select={value!r} is not a system of the table; its systems: {found}"


def _pick(values: list, select):
    if select is None:
        return values[0]
    if select not in values:
        raise ValueError(ERROR_SELECT.format(value=select, found=values))
    return select


def fmr_heatmap(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    select: Hashable | None = None,
    threshold: GroupCriterion | float = "far",
    target: float = 1e-3,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    impostors: Impostors = "same_group",
    group: str = "group",
    reference_group: str = "reference_group",
    ax: Axes | None = None,
) -> Axes:
    """Heatmap of the cross-group FMR matrix of one system (probe group × reference group).

    Parameters
    ----------
    data : DataFrame or Dataset
        A demographic trial table (then :func:`pandas_biosig.cross_group_fmr` is called
        with the arguments below) or its result.
    select : system name, optional
        The system drawn (default: the first); the first reported split is drawn. The
        title names the system, the split and, when the table has others, how many.
    threshold, target, on, apply_to, impostors, group, reference_group
        As in :func:`pandas_biosig.cross_group_fmr`.
    ax : matplotlib Axes, optional

    Returns
    -------
    Axes
        Cells coloured by the FMR in % on a logarithmic colour bar (cells with no false
        match are white, as the title says), annotated with the FMR in percent and the
        false matches / impostor trials. The title gives the threshold and how it was
        chosen: at the default target (FMR 0.1% over all groups) the cells of groups
        with few impostor trials often hold no false match; a larger ``target`` fills
        them.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = pbs.plot.fmr_heatmap(pbs.datasets.example_demographic_trials(),
    ...                                        select="net_b", target=0.1)
    >>> ax.get_xlabel()
    'reference group'
    >>> plt.close(ax.figure)
    """
    ds = data if isinstance(data, xr.Dataset) else _dm.cross_group_fmr(
        data, threshold=threshold, target=target, on=on, apply_to=apply_to,
        impostors=impostors, group=group, reference_group=reference_group)
    systems = ds.system.values.tolist()
    name = _pick(systems, select)
    sub = ds.sel(system=name).isel(split=0)
    fmr = 100 * sub.fmr.values
    ax = _axes(ax, "fmr_heatmap", figsize=(5.5, 4.5))
    im = _cells(ax, fmr, sub)
    colorbar = ax.figure.colorbar(im, ax=ax, label="FMR (%)")
    for set_formatter in (colorbar.ax.yaxis.set_major_formatter,
                          colorbar.ax.yaxis.set_minor_formatter):
        set_formatter(_percent_ticks())
    split = sub.split.item() if "split" in sub.coords else None
    others = f" (1 of {len(systems)} systems; select= another)" if len(systems) > 1 else ""
    empty = "\nwhite: no false match" if (fmr == 0).any() else ""
    ax.set_title(f"{name}{f', {split}' if split is not None else ''}{others}\n"
                 f"threshold {float(sub.threshold):.4g}"
                 f"{_rule(threshold, target) if isinstance(data, pd.DataFrame) else ''}{empty}",
                 fontsize="small")
    return ax


def _rule(threshold, target: float) -> str:
    """How the one threshold was chosen, in words."""
    if not isinstance(threshold, str):
        return " (given)"
    if threshold in ("far", "frr"):
        return f": {threshold.upper()} {100 * target:g}% over all groups"
    return f": {threshold.upper()} over all groups"


def _cells(ax, fmr: np.ndarray, sub):
    """The cells, coloured by FMR in % on a log scale (zeros white), and their texts."""
    from matplotlib.colors import LogNorm

    positive = fmr[fmr > 0]
    low, high = (positive.min(), positive.max()) if positive.size else (0.01, 1.0)
    norm = LogNorm(vmin=low, vmax=high if high > low else low * 10)
    shown = np.ma.masked_where(~(fmr > 0), fmr)
    im = ax.imshow(shown, cmap="viridis", norm=norm, origin="upper")
    groups = [str(g) for g in sub.group.values]
    refs = [str(g) for g in sub.reference_group.values]
    ax.set_xticks(range(len(refs)), refs)
    ax.set_yticks(range(len(groups)), groups)
    ax.set_xlabel("reference group")
    ax.set_ylabel("probe group")
    for i in range(len(groups)):
        for j in range(len(refs)):
            n = int(sub.n_impostor.values[i, j])
            text = "–" if n == 0 else f"{fmr[i, j]:.3g}%\n{int(sub.fa.values[i, j])}/{n}"
            light = not fmr[i, j] > 0 or float(norm(fmr[i, j])) > 0.6
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="black" if light else "white")
    return im


def _percent_ticks():
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _: f"{v:.3g}")


def group_det(
    data: pd.DataFrame,
    /,
    *,
    select: Hashable | None = None,
    threshold: GroupCriterion | float = "far",
    target: float = 1e-3,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    impostors: Impostors = "same_group",
    group: str = "group",
    reference_group: str | None = "reference_group",
    system: str = "system",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    ax: Axes | None = None,
) -> Axes:
    """DET curves of every demographic group of one system on one axes, with each group's
    operating point at the global threshold.

    The curves use the counted trials of the reported split (as :func:`pandas_biosig.
    group_rates` chooses them); a marker shows where the one global threshold puts each
    group (groups with a zero rate there have no marker on the probit axes). ``threshold,
    target, on, apply_to, impostors, group, reference_group`` and the column names are
    :func:`pandas_biosig.group_rates`'s.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> ax = pbs.plot.group_det(pbs.datasets.example_demographic_trials(),
    ...                                      select="net_b", target=0.01)
    >>> ax.get_legend_handles_labels()[1][:3]
    ['A', 'B', 'C']
    >>> plt.close(ax.figure)
    """
    from ._det_roc import det

    rates = _dm.group_rates(data, threshold=threshold, target=target, on=on,
                            apply_to=apply_to, impostors=impostors,
                            group=group, reference_group=reference_group, system=system,
                            label=label, score=score, split=split, ci_method="wilson")
    name = _pick(list(dict.fromkeys(rates.system)), select)
    rows = rates[rates.system == name]
    sp = rows.split.iloc[0]
    t = data[data[system] == name]
    if sp is not None and split is not None and split in t.columns:
        t = t[t[split] == sp]
    genuine = genuine_from_labels(t, label)
    if impostors == "same_group" and reference_group is not None:
        t = t[genuine | (t[group] == t[reference_group]).to_numpy()]
    table = pd.DataFrame({"system": t[group].to_numpy(), "trial": np.arange(len(t)),
                          "label": t[label].to_numpy(), "score": t[score].to_numpy()})
    ax = det(table, split=None, eer=False, ax=ax)
    colours = {line.get_label(): line.get_color() for line in ax.get_lines()}
    unmarked = []
    for row in rows.itertuples():
        if row.fmr > 0 and row.fnmr > 0:
            ax.plot(ppndf(row.fmr), ppndf(row.fnmr), marker="o", linestyle="none",
                    color=colours.get(str(row.group), "k"), markeredgecolor="white", zorder=4)
        else:
            unmarked.append(f"{row.group} ({'FMR' if row.fmr == 0 else 'FNMR'} 0)")
    ax.set_xlabel("False match rate, FMR (%)")
    ax.set_ylabel("False non-match rate, FNMR (%)")
    systems = list(dict.fromkeys(rates.system))
    others = f" (1 of {len(systems)} systems; select= another)" if len(systems) > 1 else ""
    where = f", {sp}" if sp is not None else ""
    off = f"; off the axes: {', '.join(map(str, unmarked))}" if unmarked else ""
    ax.set_title(
        f"{name}{where}{others}\none threshold {rows.threshold.iloc[0]:.4g}"
        f"{_rule(threshold, target)}\ndots: each group's FMR, FNMR there{off}",
        fontsize="small")
    return ax
