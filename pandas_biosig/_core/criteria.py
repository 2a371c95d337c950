r"""The threshold criteria of every kind of table: one registry, one chooser.

Part of the evaluation protocol (:mod:`pandas_biosig._core.protocol` resolves the splits
and calls :func:`choose`): no other module of the package chooses a threshold or reads an
operating point off a sweep (``tests/test_protocol_scan.py`` checks it).

One name per criterion, whatever the kind of table:

=================  ===========================================================  ==========
name               the threshold it chooses                                     parameters
=================  ===========================================================  ==========
``eer``            bob.measure's EER threshold: minimizes \|FAR − FRR\|           —
``min_hter``       minimizes (FAR + FRR) / 2                                     —
``min_weighted``   minimizes weight · FAR + (1 − weight) · FRR                   weight
``far``            the smallest FRR with FAR ≤ target (FMR, FPIR: the false      target
                   acceptances of the negative class)
``frr``            the smallest FAR with FRR ≤ target                            target
``min_dcf``        minimizes c_miss · p_target · FRR + c_fa · (1 − p_target) · FAR  costs
``apcer``          PAD: the lowest threshold with *every* species' APCER ≤ target  target
``bpcer``          PAD: the highest threshold with BPCER ≤ target                target
=================  ===========================================================  ==========

:data:`KIND_CRITERIA` says which criteria each kind of table accepts. A spelling that
names a criterion under another name (``"fmr"`` for ``"far"``) is refused with
:data:`ERROR_SPELLING`, which names the one to use; there are no aliases.

PAD names its two bounded rates as ISO/IEC 30107-3 does: a PAD table's negatives are
attack species, and ``"apcer"`` bounds each species' rate (not the pooled one, which
``"far"`` would); ``"bpcer"`` bounds the bona fide presentations' rejections.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any, Literal, cast, overload

import numpy as np

from .._kernels import curves as _curves
from .._kernels.pad import PadSegments, PadSweep, epsc_choice
from .._kernels.rates import OperatingPoint, Sweep, threshold_eer
from .._kernels.segments import Points
from .._kernels.select import eer_points
from .schema import BiosigWarning, check_option
from .validation import check_costs, check_rate, check_target

__all__ = [
    "CRITERIA",
    "EPC_CRITERIA",
    "EPSC_CRITERIA",
    "ERROR_SPELLING",
    "KIND_CRITERIA",
    "SPELLINGS",
    "WARN_INFEASIBLE",
    "check_criterion",
    "choose",
    "choose_epc",
    "choose_epsc",
    "criterion_parameters",
    "criterion_weight",
    "eer_point",
    "eer_point_of_scores",
    "bounded_point",
    "min_weighted_point",
    "min_dcf_point",
    "best_hter_and_dcf",
    "eer_candidates",
    "operating_point",
]

#: Every threshold criterion: name -> what it minimizes (one name per criterion).
CRITERIA = {
    "eer": "|FAR - FRR| (bob.measure's EER threshold)",
    "min_hter": "(FAR + FRR) / 2",
    "min_weighted": "weight * FAR + (1 - weight) * FRR",
    "far": "FRR subject to FAR <= target",
    "frr": "FAR subject to FRR <= target",
    "min_dcf": "c_miss * p_target * FRR + c_fa * (1 - p_target) * FAR",
    "apcer": "BPCER subject to every attack species' APCER <= target (PAD)",
    "bpcer": "APCER subject to BPCER <= target (PAD)",
}

#: The criteria each kind of table accepts (a criterion keeps its name in every kind).
KIND_CRITERIA: dict[str, tuple[str, ...]] = {
    "verification": ("eer", "min_hter", "min_weighted", "far", "frr", "min_dcf"),
    "pad": ("eer", "apcer", "bpcer"),
    "vulnerability": ("eer", "min_hter", "far", "frr"),
    "demographics": ("eer", "min_hter", "far", "frr"),
    "identification": ("far",),
}

#: Spellings that are not criterion names -> the name of that criterion.
SPELLINGS = {"fmr": "far", "fnmr": "frr", "fpir": "far", "fnir": "frr"}

#: Criteria of the EPC: one threshold per weight of a grid (Bengio & Mariéthoz, 2005).
EPC_CRITERIA = _curves.EPC_CRITERIA
#: Criteria of the EPSC threshold for each (omega, beta) (Chingovska et al., 2014).
EPSC_CRITERIA = {
    "eer": "|(1 - beta) FNMR - beta FAR_omega| (bob.bio.base's EPSC default)",
    "wer": "WER_omega,beta = (1 - beta) FNMR + beta FAR_omega",
}

ERROR_SPELLING = (
    "threshold={value!r}: this criterion is spelled {name!r} ({description}); "
    "pandas_biosig gives each criterion one name in every kind of table"
)
WARN_INFEASIBLE = "{where}: no threshold reaches {rate} <= {target}: failures to acquire alone exceed it"

_NAN = float("nan")


def check_criterion(name: Any, kind: str, named: Mapping | None = None) -> str:
    """``name`` if ``kind`` accepts it (or it is one of ``named``), else the named error:
    :data:`ERROR_SPELLING` for another spelling of a criterion, ``ERROR_OPTION`` listing
    what ``kind`` accepts otherwise."""
    allowed = [*KIND_CRITERIA[kind], *(named or {})]
    if isinstance(name, str) and name.strip().lower() in SPELLINGS and name not in allowed:
        proper = SPELLINGS[name.strip().lower()]
        raise ValueError(ERROR_SPELLING.format(value=name, name=proper,
                                               description=CRITERIA[proper]))
    return check_option(name, allowed, "threshold")


def criterion_weight(criterion: str, weight, p_target, c_miss, c_fa) -> float:
    """The weight of FAR that a weighted criterion minimizes (NaN for the others)."""
    if criterion == "min_hter":
        return 0.5
    if criterion == "min_weighted":
        return check_rate(weight, "weight")
    if criterion == "min_dcf":
        check_costs(p_target, c_miss, c_fa)
        a = c_fa * (1 - p_target)
        return a / (a + c_miss * p_target)
    return _NAN


def criterion_parameters(criterion: str, *, weight=0.5, target=None, p_target=0.01,
                         c_miss=1.0, c_fa=1.0) -> tuple[float, float]:
    """``(weight, target)`` of a criterion, checked: the weight of FAR it minimizes (NaN
    when it bounds a rate) and its target (NaN when it minimizes)."""
    w = criterion_weight(criterion, weight, p_target, c_miss, c_fa)
    tgt = check_target(criterion, target) if criterion in ("far", "frr", "apcer", "bpcer") else _NAN
    return w, tgt


def _sweep_of(sweep) -> Sweep:
    """The verification sweep of a kind's sweep (a PAD sweep, or the segments of many PAD
    groups: all attacks pooled)."""
    if isinstance(sweep, PadSegments):  # read alike: the segments of many groups
        return cast(Sweep, sweep.pooled)
    return sweep.pooled if isinstance(sweep, PadSweep) else sweep


def operating_point(criterion: str, sweep, *, weight: float = _NAN, target: float = _NAN,
                    where: str = "the table") -> OperatingPoint | Points:
    """The operating point ``criterion`` chooses on ``sweep`` (oriented threshold; NaN and
    no errors counted when no threshold reaches a bound, with :data:`WARN_INFEASIBLE`).

    ``weight`` and ``target`` as :func:`criterion_parameters` gives them. A PAD sweep is
    read pooled (all attacks against bona fide) for every criterion but ``"apcer"``. The
    segments of many groups (:class:`~pandas_biosig._kernels.segments.Segments`,
    :class:`~pandas_biosig._kernels.pad.PadSegments`) give every group's point at once.
    """
    if criterion == "apcer" and isinstance(sweep, PadSegments):
        return sweep.apcer_point(target)
    if criterion == "apcer":
        t = sweep.threshold("apcer", target)
        sw = sweep.pooled
        return OperatingPoint(t, int(sw.fa_at(t)), int(sw.fr_at(t)), sw.n, sw.p)
    sw = _sweep_of(sweep)
    if criterion == "eer":
        return sw.eer_threshold()[1]
    if criterion in ("min_hter", "min_weighted", "min_dcf"):
        return sw.min_weighted(0.5 if criterion == "min_hter" else weight)
    if criterion == "far":
        return sw.fnmr_at_fmr(target)
    op = sw.fmr_at_fnmr(target)  # "frr", "bpcer"
    if op is None:
        rate = "BPCER" if criterion == "bpcer" else "FRR"
        warnings.warn(WARN_INFEASIBLE.format(where=where, rate=rate, target=target),
                      BiosigWarning, stacklevel=4)
        return OperatingPoint(_NAN, 0, 0, sw.n, sw.p)
    return op


def choose(criterion: str, sweep, *, weight: float = _NAN, target: float = _NAN,
           where: str = "the table") -> float:
    """The oriented threshold ``criterion`` chooses on ``sweep`` (NaN when none reaches a
    bound): ``choose("far", sweep, target=1e-3)``. Any kind's sweep: the verification
    :class:`~pandas_biosig._kernels.rates.Sweep` (also a demographic population's, a
    vulnerability table's licit scenario or an open-set search's), or a PAD
    :class:`~pandas_biosig._kernels.pad.PadSweep`."""
    return float(operating_point(criterion, sweep, weight=weight, target=target,
                                 where=where).threshold)


def eer_point(sweep) -> tuple[float, OperatingPoint]:
    """bob.measure's threshold EER of ``sweep`` and its operating point: ``(eer, point)``."""
    return _sweep_of(sweep).eer_threshold()


def eer_point_of_scores(scores: np.ndarray, genuine: np.ndarray,
                        points=None) -> tuple[float, OperatingPoint]:
    """:func:`eer_point` of unsorted scores by selection (no full sort); ``points`` the
    two candidate points when the caller already has them
    (:func:`pandas_biosig._kernels.select.eer_points`)."""
    return threshold_eer(*(eer_points(scores, genuine) if points is None else points))


@overload
def bounded_point(sweep, rate: Literal["far"], target: float) -> OperatingPoint: ...
@overload
def bounded_point(sweep, rate: str, target: float) -> OperatingPoint | None: ...
def bounded_point(sweep, rate: str, target: float) -> OperatingPoint | None:
    """The operating point with ``rate`` (``"far"`` or ``"frr"``) at most ``target`` and
    the other rate smallest, read as a metric (None when no threshold reaches an FRR
    bound; no warning)."""
    sw = _sweep_of(sweep)
    return sw.fnmr_at_fmr(target) if rate == "far" else sw.fmr_at_fnmr(target)


def min_weighted_point(sweep, weight: float) -> OperatingPoint:
    """The operating point minimizing weight · FAR + (1 − weight) · FRR."""
    return _sweep_of(sweep).min_weighted(weight)


def min_dcf_point(sweep, p_target: float, c_miss: float, c_fa: float) -> tuple[float, OperatingPoint]:
    """The unnormalized minimum detection cost and its operating point."""
    return sweep.min_dcf(p_target, c_miss, c_fa)


def best_hter_and_dcf(sweep, p_target: float, c_miss: float, c_fa: float):
    """The minimum-HTER operating point and the minimum detection cost, in one pass."""
    return sweep.min_hter_and_dcf(p_target, c_miss, c_fa)


def eer_candidates(scores: np.ndarray, genuine: np.ndarray):
    """The two operating points around the EER, found by selection (no full sort): what
    :func:`eer_point_of_scores` and the interpolated EER read."""
    return eer_points(scores, genuine)


def choose_epc(sweep: Sweep, weights: np.ndarray, criterion: str) -> np.ndarray:
    """The oriented thresholds an EPC chooses on ``sweep``, one per weight
    (:data:`EPC_CRITERIA`)."""
    return _curves.select_thresholds(sweep, weights, criterion)


def choose_epsc(fmr, fnmr, iapmr, omega, beta, criterion: str) -> np.ndarray:
    """Index of the candidate operating point the EPSC chooses for every (beta, omega)
    (:data:`EPSC_CRITERIA`)."""
    return epsc_choice(fmr, fnmr, iapmr, omega, beta, criterion)
