r"""Calibration and fusion: from scores to log-likelihood ratios under the protocol.

=============================================  ==============================================
:func:`calibrate`, :func:`fuse`                scores into LLRs (nats), fitted on one split
                                               and applied to another, as new systems of the
                                               trial table (``_api``, ``_fit``, ``_folds``)
:func:`compare_fusion`                         is a fusion's gain real? the components
                                               against the fused system, optionally with the
                                               weights refitted in every replicate
                                               (``_gain``)
:func:`cllr_curve`                             the normalized cross-entropy (Cllr) over the
                                               prior, actual and minimum (``_curves``)
=============================================  ==============================================

The formulas, conventions (LLRs in nats, Cllr in bits) and the references they were
checked against are in ``docs/calibration.md``.
"""

from ._api import (
    ERROR_FUSE_SYSTEMS,
    ERROR_PRIOR,
    ERROR_UNKNOWN_SYSTEMS,
    METHODS,
    NAME_PATTERN,
    WARN_DISTANCE,
    CalibrationResult,
    calibrate,
    fuse,
)
from ._curves import cllr_curve
from ._fit import (
    CALIBRATION_COLUMN,
    ERROR_FIT_MISSING,
    ERROR_FUSE_MISSING,
    ERROR_FUSE_TRIALS,
    ERROR_NAME_TAKEN,
    FITS,
    PARAMS_COLUMNS,
    WARN_SAME_TRIALS,
    CalibrationError,
)
from ._folds import ERROR_FEW_UNITS, ERROR_FOLD_ONE_CLASS, ERROR_FOLDS
from ._gain import ERROR_REFIT_SPLITS, NULL_REFIT, compare_fusion

__all__ = [
    "CALIBRATION_COLUMN",
    "ERROR_FEW_UNITS",
    "ERROR_FOLDS",
    "ERROR_FIT_MISSING",
    "ERROR_FOLD_ONE_CLASS",
    "ERROR_FUSE_MISSING",
    "ERROR_FUSE_SYSTEMS",
    "ERROR_FUSE_TRIALS",
    "ERROR_NAME_TAKEN",
    "ERROR_PRIOR",
    "ERROR_REFIT_SPLITS",
    "ERROR_UNKNOWN_SYSTEMS",
    "FITS",
    "METHODS",
    "NAME_PATTERN",
    "NULL_REFIT",
    "PARAMS_COLUMNS",
    "WARN_DISTANCE",
    "WARN_SAME_TRIALS",
    "CalibrationError",
    "CalibrationResult",
    "calibrate",
    "cllr_curve",
    "compare_fusion",
    "fuse",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
