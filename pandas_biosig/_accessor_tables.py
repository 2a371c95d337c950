"""The accessor's methods for the other table kinds: search tables (identification),
demographic trial tables and PAD / vulnerability tables.

A documented internal module of the accessor (docs/architecture.md, layer 3): one mixin
class per table kind, which :class:`pandas_biosig.accessor.BiosigAccessor` inherits. Each
method delegates in one line to the function of the same name, with the same keyword-only
signature (tests/test_accessor.py compares them); the full docstrings are the functions'
(:func:`pandas_biosig.accessor.mirror_doc`).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd

from ._lazy import LazyModule
from ._typing import Adjust, Alternative, NonFinite, Orientation

# the modules behind the methods load when a method is first called
demographics = LazyModule("pandas_biosig.demographics")
identification = LazyModule("pandas_biosig.identification")
_pad = LazyModule("pandas_biosig.pad")
_pad_compare = LazyModule("pandas_biosig.pad_compare")
# the module, not the function of the same name that the package exports
_vulnerability = LazyModule("pandas_biosig.vulnerability")
# vulnerability.DEFAULT_OMEGA, without importing the module (the signature test checks
# that the two defaults agree)
_DEFAULT_OMEGA = tuple(np.round(np.linspace(0.0, 1.0, 101), 2))

if TYPE_CHECKING:
    import xarray as xr

    from ._search import SearchNonFinite
    from .demographics import (
        FairnessMetric,
        GroupCriterion,
        Impostors,
        IntervalMethod,
        Scale,
        TestMethod,
    )
    from .identification_tests import IdentificationTest
    from .pad import CIMethod, PadCriterion
    from .stats import McNemarMethod, RateCIMethod
    from .vulnerability import LicitCriterion


def _args(local_vars: dict) -> dict:
    """The call's keyword arguments: the method's locals minus ``self``."""
    return {k: v for k, v in local_vars.items() if k != "self"}


class _SearchMethods:
    """``df.biosig`` on a search table (``probe, reference, score, mate``)."""

    __slots__ = ()

    def probe_ranks(
        self,
        *,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        probe: str = "probe",
        reference: str = "reference",
        score: str = "score",
        mate: str = "mate",
        orientation: Orientation = "similarity",
        nonfinite: SearchNonFinite = "raise",
    ) -> pd.DataFrame:
        """Rank of the mate of every probe, and its best mate and non-mate scores (search tables); see :func:`pandas_biosig.probe_ranks`."""
        return identification.probe_ranks(self._obj, **_args(locals()))

    def cmc(
        self,
        *,
        max_rank: int | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        probe: str = "probe",
        reference: str = "reference",
        score: str = "score",
        mate: str = "mate",
        orientation: Orientation = "similarity",
        nonfinite: SearchNonFinite = "raise",
    ) -> xr.Dataset:
        """Cumulative match characteristic (CMC) of every system (search tables); see :func:`pandas_biosig.cmc`."""
        return identification.cmc(self._obj, **_args(locals()))

    def recognition_rate(
        self,
        *,
        rank: int | Sequence[int] = 1,
        confidence_level: float = 0.95,
        ci_method: RateCIMethod = "wilson",
        by: str | Sequence[str] | None = None,
        system: str = "system",
        probe: str = "probe",
        reference: str = "reference",
        score: str = "score",
        mate: str = "mate",
        orientation: Orientation = "similarity",
        nonfinite: SearchNonFinite = "raise",
    ) -> pd.DataFrame:
        """Rank-N recognition (identification) rate of every system, with its interval (search tables); see :func:`pandas_biosig.recognition_rate`."""
        return identification.recognition_rate(self._obj, **_args(locals()))

    def detection_identification_rate(
        self,
        *,
        threshold: Literal["far"] | float | Mapping[Hashable, float] = "far",
        target: float = 0.01,
        rank: int = 1,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        probe: str = "probe",
        reference: str = "reference",
        score: str = "score",
        mate: str = "mate",
        orientation: Orientation = "similarity",
        nonfinite: SearchNonFinite = "raise",
    ) -> pd.DataFrame:
        """Open-set detection and identification rate (DIR) and false alarm rate (FAR) (search tables); see :func:`pandas_biosig.detection_identification_rate`."""
        return identification.detection_identification_rate(self._obj, **_args(locals()))

    def dir_curve(
        self,
        *,
        rank: int = 1,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        probe: str = "probe",
        reference: str = "reference",
        score: str = "score",
        mate: str = "mate",
        orientation: Orientation = "similarity",
        nonfinite: SearchNonFinite = "raise",
    ) -> xr.Dataset:
        """Detection and identification rate against false alarm rate, at every threshold (search tables); see :func:`pandas_biosig.dir_curve`."""
        return identification.dir_curve(self._obj, **_args(locals()))

    def compare_identification(
        self,
        *,
        test: IdentificationTest = "mcnemar",
        mcnemar_method: McNemarMethod = "exact",
        rank: int = 1,
        alternative: Alternative = "two-sided",
        adjust: Adjust | None = "holm",
        alpha: float = 0.05,
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        seed: int | np.random.Generator | None = None,
        common_probes: bool = False,
        fold: str | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        probe: str = "probe",
        reference: str = "reference",
        score: str = "score",
        mate: str = "mate",
        orientation: Orientation = "similarity",
        nonfinite: SearchNonFinite = "raise",
    ) -> pd.DataFrame:
        """Test every pair of systems on their rank-N recognition rates, on the same probes (search tables); see :func:`pandas_biosig.compare_identification`."""
        return identification.compare_identification(self._obj, **_args(locals()))

    def cmc_difference(
        self,
        *,
        n_resamples: int = 1000,
        confidence_level: float = 0.95,
        seed: int | np.random.Generator | None = None,
        max_rank: int | None = None,
        common_probes: bool = False,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        probe: str = "probe",
        reference: str = "reference",
        score: str = "score",
        mate: str = "mate",
        orientation: Orientation = "similarity",
        nonfinite: SearchNonFinite = "raise",
    ) -> xr.Dataset:
        """Paired bootstrap band on the difference of the CMC curves of every pair of systems (search tables); see :func:`pandas_biosig.cmc_difference`."""
        return identification.cmc_difference(self._obj, **_args(locals()))


class _GroupMethods:
    """``df.biosig`` on a trial table with demographic groups."""

    __slots__ = ()

    def group_rates(
        self,
        *,
        group: str = "group",
        reference_group: str | None = "reference_group",
        impostors: Impostors = "same_group",
        threshold: GroupCriterion | float = "fmr",
        target: float = 0.001,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = None,
        ci_method: IntervalMethod = "auto",
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        seed: int | np.random.Generator | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """FMR and FNMR of every demographic group at one global threshold; see :func:`pandas_biosig.group_rates`."""
        return demographics.group_rates(self._obj, **_args(locals()))

    def cross_group_fmr(
        self,
        *,
        group: str = "group",
        reference_group: str | None = "reference_group",
        impostors: Impostors = "same_group",
        threshold: GroupCriterion | float = "fmr",
        target: float = 0.001,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """FMR of every (probe group, reference group) cell at the global threshold; see :func:`pandas_biosig.cross_group_fmr`."""
        return demographics.cross_group_fmr(self._obj, **_args(locals()))

    def fairness(
        self,
        *,
        weight: float = 0.5,
        group: str = "group",
        reference_group: str | None = "reference_group",
        impostors: Impostors = "same_group",
        threshold: GroupCriterion | float = "fmr",
        target: float = 0.001,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Figures of merit of the demographic differentials (ratios, FDR, GARBE, inequity rate); see :func:`pandas_biosig.fairness`."""
        return demographics.fairness(self._obj, **_args(locals()))

    def fdr_curve(
        self,
        *,
        targets: Sequence[float] = (0.1, 0.01, 0.001),
        weight: float = 0.5,
        scale: Scale = "linear",
        group: str = "group",
        reference_group: str | None = "reference_group",
        impostors: Impostors = "same_group",
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """FDR over FMR targets and its area; see :func:`pandas_biosig.fdr_curve`."""
        return demographics.fdr_curve(self._obj, **_args(locals()))

    def compare_groups(
        self,
        *,
        group: str = "group",
        reference_group: str | None = "reference_group",
        impostors: Impostors = "same_group",
        threshold: GroupCriterion | float = "fmr",
        target: float = 0.001,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = None,
        test: TestMethod = "auto",
        adjust: Adjust | None = "holm",
        alpha: float = 0.05,
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        seed: int | np.random.Generator | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Every pair of groups within a system, FMR and FNMR, adjusted; see :func:`pandas_biosig.compare_groups`."""
        return demographics.compare_groups(self._obj, **_args(locals()))

    def compare_fairness(
        self,
        *,
        metric: FairnessMetric = "fdr",
        weight: float = 0.5,
        group: str = "group",
        reference_group: str | None = "reference_group",
        impostors: Impostors = "same_group",
        threshold: GroupCriterion | float = "fmr",
        target: float = 0.001,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = None,
        adjust: Adjust | None = "holm",
        alpha: float = 0.05,
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        seed: int | np.random.Generator | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Every pair of systems on a figure of merit, paired subject bootstrap; see :func:`pandas_biosig.compare_fairness`."""
        return demographics.compare_fairness(self._obj, **_args(locals()))


class _PadMethods:
    """``df.biosig`` on a PAD or vulnerability table."""

    __slots__ = ()

    def pad_metrics(
        self,
        *,
        threshold: PadCriterion | float | Mapping[Hashable, float] = "eer",
        target: float | None = None,
        on: Hashable | None = "auto",
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        pai: str | None = "pai",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """ISO/IEC 30107-3 error rates of every PAD system at a threshold policy; see :func:`pandas_biosig.pad_metrics`."""
        return _pad.pad_metrics(self._obj, **_args(locals()))

    def pad_rates(
        self,
        *,
        threshold: PadCriterion | float | Mapping[Hashable, float] = "eer",
        target: float | None = None,
        on: Hashable | None = "auto",
        confidence_level: float = 0.95,
        ci_method: CIMethod = "auto",
        n_resamples: int = 2000,
        seed: int | np.random.Generator | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        pai: str | None = "pai",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """APCER of every attack species and BPCER, with confidence intervals; see :func:`pandas_biosig.pad_rates`."""
        return _pad.pad_rates(self._obj, **_args(locals()))

    def pad_det(
        self,
        *,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        pai: str | None = "pai",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """DET curves of PAD systems: APCER of each species, and their maximum, against BPCER; see :func:`pandas_biosig.pad_det`."""
        return _pad.pad_det(self._obj, **_args(locals()))

    def pad_compare(
        self,
        *,
        metric: Literal["apcer_max", "bpcer", "acer"] = "apcer_max",
        test: Literal["bootstrap", "mcnemar"] = "bootstrap",
        threshold: PadCriterion = "eer",
        target: float | None = None,
        on: Hashable | None = "auto",
        alpha: float = 0.05,
        adjust: Adjust | None = "holm",
        confidence_level: float = 0.95,
        n_resamples: int = 1000,
        seed: int | np.random.Generator | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        pai: str | None = "pai",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Compare every pair of PAD systems on APCER (max over species), BPCER or ACER; see :func:`pandas_biosig.pad_compare`."""
        return _pad_compare.pad_compare(self._obj, **_args(locals()))

    def vulnerability(
        self,
        *,
        threshold: LicitCriterion | float | Mapping[Hashable, float] = "eer",
        target: float | None = None,
        on: Hashable | None = "auto",
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        kind: str = "kind",
        score: str = "score",
        pai: str | None = "pai",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """FMR, FNMR and IAPMR of verification systems at the licit-scenario threshold; see :func:`pandas_biosig.vulnerability`."""
        return _vulnerability.vulnerability(self._obj, **_args(locals()))

    def iapmr(
        self,
        *,
        threshold: LicitCriterion | float | Mapping[Hashable, float] = "eer",
        target: float | None = None,
        on: Hashable | None = "auto",
        confidence_level: float = 0.95,
        ci_method: Literal["auto", "wilson", "beta", "bootstrap"] = "auto",
        n_resamples: int = 2000,
        seed: int | np.random.Generator | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        kind: str = "kind",
        score: str = "score",
        pai: str | None = "pai",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """IAPMR of every attack species at the licit threshold, with confidence intervals; see :func:`pandas_biosig.iapmr`."""
        return _vulnerability.iapmr(self._obj, **_args(locals()))

    def epsc(
        self,
        *,
        omega=_DEFAULT_OMEGA,
        beta=(0.5,),
        criterion: Literal["eer", "wer"] = "eer",
        on: Hashable | None = "auto",
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        kind: str = "kind",
        score: str = "score",
        pai: str | None = "pai",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """Expected performance and spoofability curve (EPSC) of verification systems; see :func:`pandas_biosig.epsc`."""
        return _vulnerability.epsc(self._obj, **_args(locals()))
