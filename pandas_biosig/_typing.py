"""Type aliases shared by the public modules (no runtime logic)."""

from __future__ import annotations

from typing import Literal

Orientation = Literal["similarity", "distance"]
NonFinite = Literal["raise", "drop", "reject"]
EERMethod = Literal["rocch", "interpolated", "threshold"]
Criterion = Literal["eer", "min_hter", "min_weighted", "far", "frr", "min_dcf"]
Alternative = Literal["two-sided", "less", "greater"]
#: How an EPC chooses its thresholds (:data:`pandas_biosig.curves.EPC_CRITERIA`).
EPCCriterion = Literal["min_weighted", "precision_recall", "far", "frr"]
#: How the bootstrap draws trials (:data:`pandas_biosig.resampling.RESAMPLE`).
Resample = Literal["label", "trial", "subject"]

__all__ = ["Alternative", "Criterion", "EERMethod", "EPCCriterion", "NonFinite", "Orientation", "Resample"]
