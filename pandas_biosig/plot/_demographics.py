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
        The system drawn (default: the first); the first reported split is drawn.
    threshold, target, on, apply_to, impostors, group, reference_group
        As in :func:`pandas_biosig.cross_group_fmr`.
    ax : matplotlib Axes, optional

    Returns
    -------
    Axes
        Cells coloured by log10 FMR (cells with no false match are white), annotated with
        the FMR in percent and the false matches / impostor trials.

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
    name = _pick(ds.system.values.tolist(), select)
    sub = ds.sel(system=name).isel(split=0)
    fmr = sub.fmr.values
    ax = _axes(ax, "fmr_heatmap", figsize=(5, 4.5))
    with np.errstate(divide="ignore"):
        shown = np.where(fmr > 0, np.log10(np.where(fmr > 0, fmr, 1.0)), np.nan)
    im = ax.imshow(shown, cmap="viridis", origin="upper")
    ax.figure.colorbar(im, ax=ax, label="log10 FMR")
    groups = [str(g) for g in sub.group.values]
    refs = [str(g) for g in sub.reference_group.values]
    ax.set_xticks(range(len(refs)), refs)
    ax.set_yticks(range(len(groups)), groups)
    ax.set_xlabel("reference group")
    ax.set_ylabel("probe group")
    for i in range(len(groups)):
        for j in range(len(refs)):
            n = int(sub.n_impostor.values[i, j])
            text = "–" if n == 0 else f"{100 * fmr[i, j]:.3g}%\n{int(sub.fa.values[i, j])}/{n}"
            # matplotlib's stubs type a norm of a number as any array-like
            light = (not np.isfinite(shown[i, j])
                     or float(im.norm(shown[i, j])) > 0.6)  # type: ignore[arg-type]
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="black" if light else "white")
    thr = float(sub.threshold)
    ax.set_title(f"{name}: FMR at threshold {thr:.4g}")
    return ax


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
    for row in rows.itertuples():
        if row.fmr > 0 and row.fnmr > 0:
            ax.plot(ppndf(row.fmr), ppndf(row.fnmr), marker="o", linestyle="none",
                    color=colours.get(str(row.group), "k"), markeredgecolor="white", zorder=4)
    ax.set_xlabel("False match rate, FMR (%)")
    ax.set_ylabel("False non-match rate, FNMR (%)")
    ax.set_title(f"{name}: one threshold ({rows.threshold.iloc[0]:.4g}) for every group")
    return ax
