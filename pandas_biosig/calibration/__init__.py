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
checked against are in ``docs/calibration.md``. The messages of the named errors are
the ``ERROR_*`` constants of the modules that raise them.
"""

from ._api import (
    METHODS,
    NAME_PATTERN,
    CalibrationResult,
    calibrate,
    fuse,
)
from ._curves import cllr_curve
from ._fit import (
    CALIBRATION_COLUMN,
    FITS,
    PARAMS_COLUMNS,
    CalibrationError,
)
from ._gain import NULL_REFIT, compare_fusion

__all__ = [
    "CALIBRATION_COLUMN",
    "FITS",
    "METHODS",
    "NAME_PATTERN",
    "NULL_REFIT",
    "PARAMS_COLUMNS",
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
