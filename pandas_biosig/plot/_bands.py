"""What the DET and ROC figures draw around their curves: the bootstrap band of
:func:`pandas_biosig.det_band` and Doddington's rule-of-30 marks."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import xarray as xr

from ..verification._bands import det_band

#: Doddington's rule of 30: fewer errors than this do not support a rate.
RULE_OF_30 = 30

ERROR_BAND_DATA = (
    "band=True computes the band from the trial table; {function}() was given a Dataset: "
    "pass band=pbs.det_band(trials) instead"
)
ERROR_BAND = (
    "band={value!r} must be False, True (computed from the table) or a Dataset of "
    "pandas_biosig.det_band (kind 'det_band')"
)


def band_dataset(band, data, function: str, table_args: dict) -> xr.Dataset | None:
    """The band to draw: None, the given det_band Dataset, or (``band=True``) one computed
    from the trial table with :func:`det_band`'s defaults."""
    if band is False or band is None:
        return None
    if isinstance(band, xr.Dataset):
        if band.attrs.get("kind") != "det_band":
            raise ValueError(ERROR_BAND.format(value=f"<Dataset kind={band.attrs.get('kind')!r}>"))
        return band
    if band is True:
        if not isinstance(data, pd.DataFrame):
            raise ValueError(ERROR_BAND_DATA.format(function=function))
        return det_band(data, **table_args)
    raise ValueError(ERROR_BAND.format(value=band))


def draw_band(ax, band: xr.Dataset, sel: dict, colour, y: Callable, x: Callable = lambda v: v
              ) -> bool:
    """Shade one curve's band (``sel`` its coordinates) in the curve's colour: the
    simultaneous band lightly, the pointwise intervals darker over it, through the axis
    transforms ``x`` (of the FAR) and ``y`` (of the FRR). False when the band has no such
    curve."""
    try:
        b = band.sel({d: v for d, v in sel.items() if d in band.dims})
    except (KeyError, ValueError):
        return False
    if set(b["frr_at_far"].dims) != {"far"}:
        return False
    ok = b["far_resolved"].values & np.isfinite(b["frr_at_far_low"].values)
    if not ok.any():
        return False
    xs = x(b["far"].values[ok])
    for lo, hi, alpha, z in (("band_low", "band_high", 0.10, 1.4), ("low", "high", 0.22, 1.5)):
        ax.fill_between(xs, y(b[f"frr_at_far_{lo}"].values[ok]),
                        y(b[f"frr_at_far_{hi}"].values[ok]), color=colour, alpha=alpha,
                        linewidth=0, zorder=z)
    return True


def band_legend(ax, band: xr.Dataset) -> None:
    """Legend entries that say what the two shades are."""
    from matplotlib.patches import Rectangle

    level = f"{100 * band.attrs.get('confidence_level', float('nan')):g}%"
    how = f"{band.attrs.get('resample')} bootstrap"
    for alpha, what in ((0.32, "pointwise"), (0.10, "simultaneous")):
        ax.add_patch(Rectangle((np.nan, np.nan), 0, 0, color="0.35", alpha=alpha,
                               label=f"{level} {what} band ({how})"))


def supported(far: np.ndarray, frr: np.ndarray, n_impostor: int, n_genuine: int):
    """Whether each operating point rests on at least :data:`RULE_OF_30` false acceptances
    and as many false rejections (the counts recovered from the rates)."""
    fa = np.round(np.asarray(far) * n_impostor)
    fr = np.round(np.asarray(frr) * n_genuine)
    return (fa >= RULE_OF_30) & (fr >= RULE_OF_30)


def with_neighbours(ok: np.ndarray) -> np.ndarray:
    """``ok`` grown by one point on each side, so that two complementary runs meet."""
    out = ok.copy()
    out[:-1] |= ok[1:]
    out[1:] |= ok[:-1]
    return out


def draw_rule_of_30(ax, x: np.ndarray, y: np.ndarray, ok: np.ndarray, line,
                    transform: Callable) -> None:
    """Draw the parts of a curve that rest on fewer than 30 errors of either class faded
    (the caller drew the supported parts with ``line``), and mark with a diamond each
    point where a class's count reaches 30 (the supported end of each boundary)."""
    tx, ty = transform(x), transform(y)
    colour = line.get_color()
    ax.plot(tx, np.where(with_neighbours(~ok), ty, np.nan), color=colour, alpha=0.35,
            linestyle=line.get_linestyle(), linewidth=line.get_linewidth(), zorder=2)
    for i in np.flatnonzero(ok[1:] != ok[:-1]):
        j = i + 1 if ok[i + 1] else i
        ax.plot(tx[j], ty[j], marker="D", markersize=4.5, color=colour,
                markeredgecolor="black", markeredgewidth=0.6, linestyle="none", zorder=3.5)


def rule_of_30_legend(ax) -> None:
    """Legend entries for the marks."""
    ax.plot([], [], color="0.3", alpha=0.35, linewidth=1.5,
            label="fewer than 30 errors (rule of 30)")
    ax.plot([], [], color="0.3", marker="D", markersize=4.5, markeredgecolor="black",
            markeredgewidth=0.6, linestyle="none", label="30 errors reached")
