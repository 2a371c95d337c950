"""EPC figure: HTER on ``apply_to`` at thresholds chosen on ``on``, bootstrap bands, shading
where two systems differ.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import xarray as xr

from .._core.options import EPCCriterion, NonFinite, Orientation, ResampleOption
from ..verification import epc as _epc_dataset
from ..verification import epc_bootstrap

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

from ._axes import _axes, _Colours, _dataset, _legend, _lines, _percent_axis

ERROR_PAIR = "pair={value!r} is not a pair of systems of the Dataset; its pairs: {found}"
ERROR_NO_PAIRS = (
    "pair={value!r} needs the pairwise variables of pbs.epc_bootstrap (difference, "
    "significant); this Dataset has none"
)

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


def epc(
    data: pd.DataFrame | xr.Dataset,
    /,
    *,
    bands: bool = True,
    pair: str | tuple[Hashable, Hashable] | None = None,
    criterion: EPCCriterion = "min_weighted",
    weight=None,
    on: Hashable | None = "auto",
    apply_to: Hashable | None = "auto",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    resample: ResampleOption = "auto",
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
    criterion, weight, on, apply_to
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
        x: the weight :math:`\alpha` of the criterion (FAR's weight for ``"min_weighted"``);
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
    >>> ax = pbs.plot.epc(two, weight=np.linspace(0.05, 0.95, 19), n_resamples=200, seed=0)
    >>> ax.get_legend_handles_labels()[1]
    ['cnn', 'gmm', 'cnn ≠ gmm (95% bootstrap)']
    >>> ax.get_legend().get_title().get_text()
    '95% bootstrap bands, subjects resampled'
    >>> plt.close(ax.figure)
    """
    def compute(d):
        common = dict(
            criterion=criterion, weight=weight, on=on, apply_to=apply_to, system=system,
            trial=trial, label=label, score=score, split=split, orientation=orientation,
            nonfinite=nonfinite,
        )
        if not bands:
            return _epc_dataset(d, **common)
        return epc_bootstrap(
            d, n_resamples=n_resamples, confidence_level=confidence_level, resample=resample,
            seed=seed, progress=progress, subject=subject, **common,
        )

    ds = _dataset(data, "epc", ("epc",), compute)
    index = _pair_index(ds, pair) if bands else None
    found = _lines(ds, "epc", split_style=False)
    ax = _axes(ax, "epc")
    weight = ds["weight"].values
    colours = _Colours()
    with_bands = bands and "hter_low" in ds
    for c in found:
        y = ds["hter"].sel(c.sel).values
        colours.plot(ax, c, weight, y, label=c.label, linewidth=1.5, zorder=3)
        if with_bands:
            ax.fill_between(
                weight, ds["hter_low"].sel(c.sel).values, ds["hter_high"].sel(c.sel).values,
                color=colours[c.group], alpha=0.2, linewidth=0, zorder=2,
            )
    if index is not None:
        sig = ds["significant"].isel(pair=index).values.astype(bool)
        half = np.diff(weight) / 2 if weight.size > 1 else np.array([0.0])
        level = ds.attrs.get("confidence_level", 0.95)
        a, b = ds["system_a"].values[index], ds["system_b"].values[index]
        for k, (i, j) in enumerate(_runs(sig)):
            lo = weight[i] - (half[i - 1] if i > 0 else 0.0)
            hi = weight[j] + (half[j] if j < weight.size - 1 else 0.0)
            ax.axvspan(
                lo, hi, color="0.5", alpha=0.15, linewidth=0, zorder=1,
                label=f"{a} ≠ {b} ({100 * level:g}% bootstrap)" if k == 0 else None,
            )
    ax.set_xlim(weight.min(), weight.max())
    ax.set_ylim(bottom=0.0)
    _percent_axis(ax.yaxis)
    ax.grid(True, color="0.88", linewidth=0.6)
    crit = ds.attrs.get("criterion", "min_weighted")
    on_split = ds.attrs.get("on", on)
    what = {"min_weighted": "weight α of FAR", "precision_recall": "weight α of precision",
            "far": "target FAR α", "frr": "target FRR α"}.get(crit, "weight α")
    ax.set_xlabel(f"{what} (threshold chosen on {on_split})")
    ax.set_ylabel(f"HTER on {ds.attrs.get('apply_to', apply_to)} (%)")
    _legend(ax, title=_bands_title(ds.attrs) if with_bands else None, title_fontsize="small")
    return ax


def _bands_title(attrs: dict) -> str:
    """The legend's title over bootstrap bands: their level and what was resampled."""
    level = attrs.get("confidence_level", 0.95)
    unit = attrs.get("resample", "")
    drawn = {"subject": "subjects", "label": "trials within each class",
             "trial": "trials"}.get(unit, unit)
    return f"{100 * level:g}% bootstrap bands" + (f", {drawn} resampled" if drawn else "")


