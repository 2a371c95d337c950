"""``biosig report --calibrate [METHOD] --fuse [SYSTEMS]``: calibrated and fused systems
added to the report, and the maps that made them.

The calibrated systems (``<system>:<method>``) and the fused one (``fused``) are added to
the trial table before the report is computed, so every section reads them as systems:
the summary (Cllr, actual DCF and their calibration losses become meaningful), the
a-priori error rates, the pairwise tests (a fused system against its components, on
eval). The maps are fitted on ``--on`` and applied to ``--apply-to`` (the rows of
``--on`` get cross-fitted LLRs); the section "Calibration" lists them.
"""

from __future__ import annotations

import argparse
import warnings

import pandas as pd

from .._core.options import NonFinite
from .._core.schema import BiosigWarning
from ..calibration import METHODS, calibrate, fuse
from ._folder import escape_markdown

__all__ = ["ERROR_DISTANCE", "FUSED", "calibrated_trials", "calibration_arguments",
           "calibration_section"]

#: The name of the fused system in the report.
FUSED = "fused"

ERROR_DISTANCE = (
    "--calibrate and --fuse write log-likelihood ratios (higher = more genuine), which "
    "--orientation distance would read reversed: negate the distances instead"
)

#: The parameter rows shown in the report: the maps applied to the reported split.
_SHOWN = ["system", "source", "term", "estimate", "fitted_on", "applied_to", "objective",
          "n_genuine", "n_impostor"]


def calibration_arguments(rep: argparse.ArgumentParser) -> None:
    """``--calibrate``, ``--fuse``, ``--prior``, ``--folds``."""
    rep.add_argument("--calibrate", nargs="?", const="linear", choices=list(METHODS),
                     metavar="METHOD",
                     help="add each system calibrated into log-likelihood ratios as a system "
                          "<system>:<method>, fitted on --on and applied to --apply-to "
                          "(METHOD: linear, the default, or pav)")
    rep.add_argument("--fuse", nargs="?", const="", metavar="SYSTEM,SYSTEM...",
                     help="add the linear logistic fusion of these systems (default: all) as "
                          f"the system '{FUSED}', fitted on --on and applied to --apply-to")
    rep.add_argument("--prior", type=float, default=0.5,
                     help="the effective target prior of the calibration and fusion objective "
                          "(default 0.5)")
    rep.add_argument("--folds", type=int, default=5,
                     help="cross-fitting folds for the split the maps are fitted on "
                          "(default 5)")


def calibrated_trials(trials: pd.DataFrame, args, *, split: str, on: str, apply_to: str,
                      orientation: str, nonfinite: NonFinite) -> tuple[pd.DataFrame, list]:
    """The table with the calibrated and fused systems added (``--calibrate``,
    ``--fuse``), and the parameter frames with the notes of their calibrations."""
    if args.calibrate is None and args.fuse is None:
        return trials, []
    if orientation == "distance":
        raise ValueError(ERROR_DISTANCE)
    cols = dict(split=split if split in trials.columns else None, on=on, apply_to=apply_to,
                prior=args.prior, folds=args.folds)
    done, notes = [], []
    base = trials
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BiosigWarning)
        if args.fuse is not None:
            names = [n.strip() for n in args.fuse.split(",") if n.strip()] or None
            res = fuse(base, systems=names, name=FUSED, **cols)
            trials, done = res.trials, [res.params]
        if args.calibrate is not None:
            res = calibrate(base, method=args.calibrate, nonfinite=nonfinite, **cols)
            added = res.trials.iloc[len(base):]
            trials = pd.concat([trials, added], ignore_index=True)
            done.append(res.params)
    notes = [str(w.message) for w in caught if issubclass(w.category, BiosigWarning)]
    return trials, [(p, notes) for p in done]


def calibration_section(out, frames: list) -> None:
    """The report section of the maps applied to the reported split (and a note on how
    the fitted split's own rows were calibrated)."""
    if not frames:
        return
    params = pd.concat([p for p, _ in frames], ignore_index=True)
    shown = params[params["fit"] != "cross-fit"].reset_index(drop=True)
    notes = list(dict.fromkeys(escape_markdown(n) for _, ns in frames for n in ns))
    k = params["n_folds"].dropna()
    intro = (
        "Scores turned into natural-log likelihood ratios (nats) by prior-weighted "
        "logistic regression (linear; BOSARIS, PYLLR) or BOSARIS's PAV transform, "
        "fitted on one split and applied to another"
        + (f"; the rows of the split they were fitted on got cross-fitted LLRs "
           f"({int(k.iloc[0])} folds)" if len(k) else "")
        + ". objective: the normalized cross-entropy on the training trials."
        + "".join(f" Note: {n}" for n in notes)
    )
    out.table("calibration", "Calibration", shown[_SHOWN], intro=intro,
              precision={"estimate": 4, "objective": 4}, best=None)
