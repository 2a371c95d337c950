"""``df.biosig.plot``: the plot functions applied to the accessor's table."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd

from .._typing import Criterion, EPCCriterion, NonFinite, Orientation, ResampleOption
from ..demographics import GroupCriterion, Impostors

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

from ._axes import _args
from .bayes import bayes_error
from .demographics import fmr_heatmap, group_det
from .det_roc import det, roc
from .expected_performance import epc
from .histograms import hist
from .pad import epsc, pad_det


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
        criterion: EPCCriterion = "min_weighted",
        weight=None,
        on: Hashable = "dev",
        apply_to: Hashable = "eval",
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

    def pad_det(
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

    def epsc(
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

    def fmr_heatmap(
        self,
        *,
        select: Hashable | None = None,
        threshold: GroupCriterion | float = "fmr",
        target: float = 1e-3,
        impostors: Impostors = "same_group",
        group: str = "group",
        reference_group: str = "reference_group",
        ax: Axes | None = None,
    ) -> Axes:
        """Cross-group FMR heatmap of this table; see :func:`pandas_biosig.plot.fmr_heatmap`."""
        return fmr_heatmap(self._obj, **_args(locals()))

    def group_det(
        self,
        *,
        select: Hashable | None = None,
        threshold: GroupCriterion | float = "fmr",
        target: float = 1e-3,
        impostors: Impostors = "same_group",
        group: str = "group",
        reference_group: str | None = "reference_group",
        system: str = "system",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        ax: Axes | None = None,
    ) -> Axes:
        """Per-group DET curves of this table; see :func:`pandas_biosig.plot.group_det`."""
        return group_det(self._obj, **_args(locals()))
