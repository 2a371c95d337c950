"""Type aliases shared by the public modules (no runtime logic).

Every string option of a public function has a ``Literal`` type here (or beside the
option's table when it belongs to one module: :mod:`pandas_biosig.stats._common`,
:mod:`pandas_biosig.demographics._plan`, ...). The runtime checks keep their own option
tables and messages; ``tests/test_validation.py`` checks that each ``Literal`` lists
exactly the values its check accepts.
"""

from __future__ import annotations

from typing import Literal

Orientation = Literal["similarity", "distance"]
NonFinite = Literal["raise", "drop", "reject"]
EERMethod = Literal["rocch", "interpolated", "threshold"]
Criterion = Literal["eer", "min_hter", "min_weighted", "far", "frr", "min_dcf"]
Alternative = Literal["two-sided", "less", "greater"]
#: How an EPC chooses its thresholds (:data:`pandas_biosig._kernels.curves.EPC_CRITERIA`).
EPCCriterion = Literal["min_weighted", "precision_recall", "far", "frr"]
#: How the bootstrap draws trials (:data:`pandas_biosig._core.protocol.RESAMPLE`).
Resample = Literal["label", "trial", "subject", "two_way"]
#: ``resample=`` of the table functions: a unit, or ``"auto"`` (subjects when the table
#: has a subject column, else labels).
ResampleOption = Literal["auto", "label", "trial", "subject", "two_way"]
#: Metrics of the bootstrap, the bootstrap test and the repeated-runs functions
#: (:data:`pandas_biosig.verification.BOOTSTRAP_METRICS`).
BootstrapMetric = Literal[
    "eer", "eer_threshold", "eer_rocch", "eer_interpolated", "auc", "min_hter", "min_dcf", "fnmr_at_fmr",
    "fmr_at_fnmr", "cllr", "min_cllr", "far", "frr", "hter",
]
#: The bootstrap's interval (:data:`pandas_biosig._core.replicates.CI_METHODS`).
BootstrapCIMethod = Literal["auto", "percentile", "basic", "bca", "studentized"]
#: Metrics of :func:`pandas_biosig.ci` (:data:`pandas_biosig.verification.CI_METRICS`).
CIMetric = Literal["far", "frr", "hter", "dcf"]
#: How :func:`pandas_biosig.ci` builds the HTER and DCF intervals.
Combine = Literal["mover", "bengio"]
#: statsmodels ``multipletests`` methods (their short aliases are accepted as well) and
#: ``"none"``; ``None`` also means no adjustment.
Adjust = Literal[
    "bonferroni", "sidak", "holm-sidak", "holm", "simes-hochberg", "hommel", "fdr_bh",
    "fdr_by", "fdr_tsbh", "fdr_tsbky", "none",
]

__all__ = [
    "Adjust",
    "Alternative",
    "BootstrapCIMethod",
    "BootstrapMetric",
    "CIMetric",
    "Combine",
    "Criterion",
    "EERMethod",
    "EPCCriterion",
    "NonFinite",
    "Orientation",
    "Resample",
    "ResampleOption",
]
