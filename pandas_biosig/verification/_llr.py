"""The calibration-loss columns of :func:`summary` and :func:`dcf`, and the flag of scores
that cannot be log-likelihood ratios.

Actual DCF and Cllr read scores as natural-log likelihood ratios; minimum DCF and minCllr
after the best monotone recalibration. Their gaps are the calibration loss (Brümmer):
``dcf_loss = act_dcf - min_dcf`` and ``cllr_loss = cllr - min_cllr``. Scores that cannot
be LLRs at all (probabilities in [0, 1], distances, raw similarity scores on an arbitrary
scale) make both losses meaningless; ``not_llr`` says so, by the rule of
:func:`pandas_biosig._kernels.calibration.llr_check`, and the table functions warn once
per call (:data:`WARN_NOT_LLR`), pointing to :func:`pandas_biosig.calibrate`.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from .._core.schema import BiosigWarning
from .._kernels.calibration import llr_check

__all__ = ["LLR_COLUMNS", "WARN_NOT_LLR", "bayes_act_dcf", "llr_columns", "not_llr",
           "warn_not_llr"]

#: The columns the helpers add (summary: all four; dcf: the last two).
LLR_COLUMNS = ["act_dcf", "dcf_loss", "cllr_loss", "not_llr"]

WARN_NOT_LLR = (
    "the scores of {systems} cannot be calibrated log-likelihood ratios (see the not_llr "
    "column: read as LLRs they cost more than ignoring them): act_dcf, cllr and the "
    "calibration losses of {them} mean little. Calibrate the scores first "
    "(pandas_biosig.calibrate, e.g. fitted on dev and applied to eval), or read min_dcf "
    "and min_cllr"
)


def not_llr(sweep, *, similarity: bool) -> bool:
    """Whether the scores of ``sweep`` cannot be calibrated LLRs (distances never are)."""
    return True if not similarity else llr_check(sweep).not_llr


def bayes_act_dcf(sweep, p_target: float, c_miss: float, c_fa: float) -> float:
    """The normalized DCF at the Bayes threshold :math:`\\log\\frac{c_{fa}(1-p)}{c_{miss}
    p}`, the scores read as natural-log likelihood ratios (failures to acquire as
    :func:`pandas_biosig.dcf` counts them: not at all)."""
    t = float(np.log(c_fa * (1 - p_target) / (c_miss * p_target)))
    fa, fr = sweep.rates_at_threshold(t)
    norm = min(c_miss * p_target, c_fa * (1 - p_target))
    return float(c_miss * p_target * (fr / sweep.p) + c_fa * (1 - p_target) * (fa / sweep.n)) / norm


def llr_columns(sweep, *, cllr: float, min_cllr: float, min_dcf: float, p_target: float,
                c_miss: float, c_fa: float, similarity: bool) -> dict:
    """The four :data:`LLR_COLUMNS` of one summary row: the actual DCF at the Bayes
    threshold (NaN for distances), the two losses and the flag."""
    act = bayes_act_dcf(sweep, p_target, c_miss, c_fa) if similarity else float("nan")
    return dict(act_dcf=act, dcf_loss=act - min_dcf, cllr_loss=cllr - min_cllr,
                not_llr=not_llr(sweep, similarity=similarity))


def warn_not_llr(systems: Sequence, *, stacklevel: int = 3) -> None:
    """One :class:`~pandas_biosig.BiosigWarning` naming the flagged systems (none: no
    warning)."""
    names = list(dict.fromkeys(systems))
    if not names:
        return
    text = ", ".join(repr(s) for s in names[:10]) + (" ..." if len(names) > 10 else "")
    them = "this system" if len(names) == 1 else "these systems"
    warnings.warn(WARN_NOT_LLR.format(systems=text, them=them), BiosigWarning,
                  stacklevel=stacklevel)
