"""Spoofing-aware speaker verification: ASV and CM in tandem (numpy only).

Two systems score each trial: an automatic speaker verification system (ASV: target,
non-target and spoof trials) and a spoofing countermeasure (CM: bona fide = target or
non-target, spoof). The definitions are the ASVspoof and SASV organisers' code (SPEC §10;
``docs/tandem.md`` gives the formulas and sources):

- ASV error rates at a threshold (``obtain_asv_error_rates``), the ASV operating point at
  the organisers' EER threshold (``compute_eer``);
- t-DCF, the 2019 form (``compute_tDCF`` of ASVspoof 2019, ``compute_tDCF_legacy`` of
  ASVspoof 5) and the 2021 / ASVspoof 5 revision with C0, C1, C2 (``compute_tDCF``);
- the concurrent t-EER (``compute_teer``);
- the a-DCF of one spoofing-aware score (``a_dcf.py``);
- the CM's minDCF, actDCF and Cllr with the ASVspoof 5 costs (``compute_mindcf``,
  ``compute_actDCF``, ``calculate_CLLR``).

Conventions. Scores are oriented so that higher means more target / more bona fide, and a
trial is accepted iff ``score >= threshold`` (SPEC §1); ``-inf`` is rejected at every
threshold. The organisers sweep their thresholds over the sorted scores and report, at
each point, the highest *rejected* score ``tau`` (accept iff ``score > tau``; the lowest
score minus 0.001, or 1e-8 for the a-DCF, when nothing is rejected). The thresholds here
are the library's: the point that rejects the scores ``<= tau`` is reached by accepting
the scores ``>= u``, ``u`` the next higher score, and its threshold is the midpoint of
``tau`` and ``u`` (the lowest score when nothing is rejected, the next float above the
highest when everything is); :func:`organiser_threshold` maps it back. Every value is
computed with the organisers' operations in their order, so that two operating points of
equal cost resolve the same way (the lowest threshold wins, as ``np.argmin`` picks).

The organisers' sweep also visits positions *inside* a run of tied scores (the trials of
one class of the run rejected before those of the next: targets or bona fide first). For
the costs (t-DCF, a-DCF, minDCF) such a position is never cheaper than the run's ends, so
only the distinct scores are visited here. The ASV EER threshold and the t-EER can land
inside a run; there the organisers' rates are reproduced, and the threshold reported is
the run's upper end (:func:`organiser_threshold` of the run's value).
"""

from __future__ import annotations

import math
from dataclasses import astuple, dataclass
from typing import NamedTuple

import numpy as np

from .curves import _merge, _midpoints
from .rates import cllr

__all__ = [
    "ASVSPOOF5",
    "ASVSPOOF5_CM",
    "ERROR_COSTS",
    "ERROR_EMPTY_CLASS",
    "ERROR_NEGATIVE_WEIGHT",
    "ERROR_NO_SPOOF",
    "ERROR_NO_TEER",
    "ERROR_PRIORS",
    "ERROR_ZERO_NORMALIZER",
    "PRESETS",
    "SASV_ADCF",
    "TDCF_2019",
    "AdcfPoint",
    "AsvRates",
    "CmCosts",
    "TandemCosts",
    "TandemCosts2019",
    "TdcfPoint",
    "TdcfWeights",
    "TeerPoint",
    "adcf_at",
    "asv_eer_threshold",
    "asv_rates",
    "check_cost_model",
    "cm_act_dcf",
    "cm_cllr",
    "cm_curve",
    "cm_min_dcf",
    "min_adcf",
    "min_tdcf",
    "organiser_threshold",
    "sasv_cascade",
    "sasv_sum",
    "tdcf_at",
    "tdcf_bayes_threshold",
    "tdcf_values",
    "tdcf_weights",
    "tdcf_weights_2019",
    "teer",
]

ERROR_EMPTY_CLASS = "no {name} scores: every class of trials needs at least one score"
ERROR_NO_SPOOF = (
    "no spoof trials: the tandem metrics need the ASV scores of spoofed trials "
    "(the rate of spoofs the ASV accepts)"
)
ERROR_PRIORS = (
    "p_target, p_nontarget and p_spoof must be non-negative and sum to 1, got {values}"
)
ERROR_COSTS = "the costs must be non-negative finite numbers, got {values}"
ERROR_NEGATIVE_WEIGHT = (
    "the t-DCF weight {name} = {value!r} is negative: the ASV error rates "
    "(Pmiss {pmiss!r}, Pfa {pfa!r}) cost more than a CM that rejects every bona fide trial"
)
ERROR_ZERO_NORMALIZER = (
    "the {metric} normalizer is 0 ({detail}): the normalized cost is undefined for this "
    "cost model and these ASV error rates"
)
ERROR_NO_TEER = (
    "the t-EER is undefined: at no ASV threshold that accepts spoofs is the ASV miss rate "
    "below the mean of its non-target and spoof false-alarm rates"
)

# The organisers' check of the priors' sum (compute_tDCF).
_PRIOR_TOLERANCE = 1e-10


@dataclass(frozen=True)
class TandemCosts2019:
    """The ASVspoof 2019 t-DCF cost model: priors of the three trial kinds and the costs
    of the ASV's and the CM's two errors each."""

    p_target: float
    p_nontarget: float
    p_spoof: float
    c_miss_asv: float
    c_fa_asv: float
    c_miss_cm: float
    c_fa_cm: float


@dataclass(frozen=True)
class TandemCosts:
    """The cost model of the revised t-DCF (ASVspoof 2021 and 5) and of the a-DCF: priors
    of the three trial kinds, the cost of rejecting a target (``c_miss``), of accepting a
    non-target (``c_fa``) and of accepting a spoof (``c_fa_spoof``)."""

    p_target: float
    p_nontarget: float
    p_spoof: float
    c_miss: float
    c_fa: float
    c_fa_spoof: float


@dataclass(frozen=True)
class CmCosts:
    """The CM's detection cost: prior of a spoof, cost of rejecting a bona fide trial
    (``c_miss``) and of accepting a spoof (``c_fa``)."""

    p_spoof: float
    c_miss: float
    c_fa: float


_P_SPOOF = 0.05
#: ASVspoof 2019 evaluation plan (``evaluate_tDCF_asvspoof19.py``).
TDCF_2019 = TandemCosts2019(
    p_target=(1 - _P_SPOOF) * 0.99, p_nontarget=(1 - _P_SPOOF) * 0.01, p_spoof=_P_SPOOF,
    c_miss_asv=1.0, c_fa_asv=10.0, c_miss_cm=1.0, c_fa_cm=10.0,
)
#: ASVspoof 2021 (``eval-package/config.py``) and ASVspoof 5 (``calculate_metrics.py``):
#: the revised t-DCF and ASVspoof 5's a-DCF.
ASVSPOOF5 = TandemCosts(
    p_target=(1 - _P_SPOOF) * 0.99, p_nontarget=(1 - _P_SPOOF) * 0.01, p_spoof=_P_SPOOF,
    c_miss=1.0, c_fa=10.0, c_fa_spoof=10.0,
)
#: The a-DCF paper's default (Shim et al., 2024, "a-DCF1"; ``a_dcf.CostModel()``).
SASV_ADCF = TandemCosts(
    p_target=0.9, p_nontarget=0.05, p_spoof=0.05, c_miss=1.0, c_fa=10.0, c_fa_spoof=20.0
)
#: ASVspoof 5 track 1 (``calculate_minDCF_EER_CLLR_actDCF``).
ASVSPOOF5_CM = CmCosts(p_spoof=_P_SPOOF, c_miss=1.0, c_fa=10.0)

PRESETS = {
    "asvspoof2019": TDCF_2019,
    "asvspoof2021": ASVSPOOF5,
    "asvspoof5": ASVSPOOF5,
    "sasv": SASV_ADCF,
    "asvspoof5_cm": ASVSPOOF5_CM,
}


class AsvRates(NamedTuple):
    """The ASV's rates at ``threshold`` (accept iff ``score >= threshold``): non-targets
    accepted (``pfa``), targets rejected (``pmiss``), spoofs rejected (``pmiss_spoof``,
    the organisers' ``Pmiss_spoof_asv``) and spoofs accepted (``pfa_spoof`` =
    1 - ``pmiss_spoof``)."""

    threshold: float
    pfa: float
    pmiss: float
    pmiss_spoof: float
    pfa_spoof: float


class TdcfWeights(NamedTuple):
    """``t-DCF(s) = (c0 + c1 Pmiss_cm(s) + c2 Pfa_cm(s)) / norm`` (the 2019 form has
    ``c0 = 0`` and ``norm = min(c1, c2)``)."""

    c0: float
    c1: float
    c2: float
    norm: float


class TdcfPoint(NamedTuple):
    """A normalized t-DCF and the CM operating point it was read at."""

    tdcf: float
    threshold: float
    pmiss_cm: float
    pfa_cm: float


class TeerPoint(NamedTuple):
    """The concurrent t-EER and the pair of thresholds where it is read."""

    teer: float
    asv_threshold: float
    cm_threshold: float
    pmiss_asv: float
    pfa_asv: float
    pfa_spoof_asv: float
    pmiss_cm: float
    pfa_cm: float


class AdcfPoint(NamedTuple):
    """A normalized a-DCF and the operating point of the spoofing-aware score."""

    adcf: float
    threshold: float
    pmiss: float
    pfa: float
    pfa_spoof: float


# ------------------------------------------------------------------- checks
def _sorted(scores, name: str, presorted: bool = False) -> np.ndarray:
    out = np.asarray(scores, dtype=np.float64)
    if not presorted:
        out = np.sort(out)
    if out.size == 0:
        raise ValueError(ERROR_NO_SPOOF if name == "spoof" else
                         ERROR_EMPTY_CLASS.format(name=name))
    return out


def _check_costs(costs) -> None:
    """The organisers' checks of a cost model: non-negative priors summing to one, and
    non-negative finite costs."""
    values = astuple(costs)
    priors = values[:3] if not isinstance(costs, CmCosts) else ()
    costs_only = values[3:] if priors else values[1:]
    if priors and (min(priors) < 0 or abs(sum(priors) - 1) > _PRIOR_TOLERANCE):
        raise ValueError(ERROR_PRIORS.format(values=priors))
    if isinstance(costs, CmCosts) and not 0 <= costs.p_spoof <= 1:
        raise ValueError(ERROR_PRIORS.format(values=(costs.p_spoof,)))
    if any(not (math.isfinite(c) and c >= 0) for c in costs_only):
        raise ValueError(ERROR_COSTS.format(values=costs_only))


def check_cost_model(costs) -> None:
    """A cost model the organisers would accept, else ``ValueError``
    (:data:`ERROR_PRIORS`, :data:`ERROR_COSTS`)."""
    _check_costs(costs)


def _nonzero(norm: float, metric: str, detail: str) -> float:
    if not norm > 0:
        raise ValueError(ERROR_ZERO_NORMALIZER.format(metric=metric, detail=detail))
    return norm


# ---------------------------------------------------------------- the sweep
def _merge_classes(classes: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The sorted classes merged in linear time, ``(merged, label)``: ties keep the class
    order (class 0 first), as the organisers' stable sort of the concatenated classes."""
    merged, label = classes[-1], np.full(classes[-1].size, len(classes) - 1, dtype=np.int8)
    for c in range(len(classes) - 2, -1, -1):
        merged, is_first, at = _merge(merged, classes[c])
        rest = label
        label = np.empty(merged.size, dtype=np.int8)
        label[at] = c
        label[~is_first] = rest
    return merged, label


def _below(label: np.ndarray, c: int) -> np.ndarray:
    """How many trials of class ``c`` come before each position 0..N of the merge."""
    out = np.zeros(label.size + 1, dtype=np.int64)
    np.cumsum(label == c, out=out[1:])
    return out


class _Points(NamedTuple):
    """Every operating point that a threshold reaches: accept the scores ``>= u`` for
    each distinct finite score ``u`` (ascending), then reject all (``u = +inf``);
    ``below[c]`` counts the scores of class ``c`` under ``u``."""

    u: np.ndarray
    below: list[np.ndarray]
    sizes: list[int]
    merged: np.ndarray


def _points(classes: list[np.ndarray]) -> _Points:
    merged, label = _merge_classes(classes)
    starts = np.flatnonzero(np.concatenate(([True], merged[1:] != merged[:-1])))
    starts = starts[merged[starts] > -np.inf]  # -inf is never accepted
    at = np.append(starts, merged.size)
    below = [_below(label, c)[at] for c in range(len(classes))]
    u = np.append(merged[starts], np.inf)
    return _Points(u, below, [a.size for a in classes], merged)


def _threshold(merged: np.ndarray, u: float) -> float:
    """The library's threshold of the point that accepts the scores ``>= u`` (``u`` a
    score of the sorted ``merged`` or ``+inf``): the midpoint of ``u`` and the score
    below it, ``u`` itself when no finite score is below, the next float above the
    highest finite score for ``u = +inf`` (as :meth:`.rates.Sweep.threshold_for`)."""
    i = int(np.searchsorted(merged, u, side="left"))
    below = merged[i - 1] if i else -math.inf
    if np.isposinf(u):
        return float(np.nextafter(below, np.inf)) if below > -math.inf else math.inf
    if below == -math.inf:
        return float(u)
    mid = np.empty(1)
    _midpoints(np.array([below]), np.array([u]), mid, big=True)
    return float(mid[0])


def organiser_threshold(merged: np.ndarray, tau: float) -> float:
    """The library's threshold of the organisers' point ``tau`` (reject the scores
    ``<= tau``) on the sorted scores ``merged``; a ``tau`` below every score rejects
    nothing."""
    i = int(np.searchsorted(merged, tau, side="right"))
    return _threshold(merged, merged[i] if i < merged.size else math.inf)


# -------------------------------------------------------------------- ASV
def asv_rates(targets, nontargets, spoofs, threshold: float) -> AsvRates:
    """The ASV's error rates at ``threshold`` (``obtain_asv_error_rates``)."""
    tar = np.asarray(targets, dtype=np.float64)
    non = np.asarray(nontargets, dtype=np.float64)
    spf = np.asarray(spoofs, dtype=np.float64)
    for arr, name in ((tar, "target"), (non, "nontarget"), (spf, "spoof")):
        if arr.size == 0:
            raise ValueError(ERROR_NO_SPOOF if name == "spoof" else
                             ERROR_EMPTY_CLASS.format(name=name))
    t = float(threshold)
    pfa = int(np.count_nonzero(non >= t)) / non.size
    pmiss = int(np.count_nonzero(tar < t)) / tar.size
    rejected = int(np.count_nonzero(spf < t))
    return AsvRates(t, pfa, pmiss, rejected / spf.size,
                    (spf.size - rejected) / spf.size)


def _position_rates(classes: list[np.ndarray]):
    """The organisers' sweep over every position 0..N of the merged classes (class 0
    first in ties): ``(merged, [trials of each class among the k lowest])``."""
    merged, label = _merge_classes(classes)
    counts = [_below(label, c) for c in range(len(classes))]
    return merged, counts


def asv_eer_threshold(targets, nontargets) -> tuple[float, float]:
    """``(eer, threshold)`` of the organisers' ``compute_eer``: the position of the sorted
    targets and non-targets (targets first in ties) where ``|FRR - FAR|`` is smallest, and
    the highest score it rejects (the lowest score minus 0.001 when it rejects none).
    The ASV operating point of the t-DCF accepts the scores ``>= threshold``."""
    tar = _sorted(targets, "target")
    non = _sorted(nontargets, "nontarget")
    merged, (rej_tar, _) = _position_rates([tar, non])
    nt, nn = tar.size, non.size
    frr = rej_tar / nt
    k = np.arange(merged.size + 1)
    far = (nn - (k - rej_tar)) / nn
    i = int(np.argmin(np.abs(frr - far)))
    eer = (frr[i] + far[i]) / 2
    tau = merged[i - 1] if i else merged[0] - 0.001
    return float(eer), float(tau)


# ------------------------------------------------------------------ t-DCF
def tdcf_weights_2019(rates: AsvRates, costs: TandemCosts2019) -> TdcfWeights:
    """The 2019 t-DCF's weights ``C1, C2`` and normalizer ``min(C1, C2)``."""
    _check_costs(costs)
    c1 = costs.p_target * (costs.c_miss_cm - costs.c_miss_asv * rates.pmiss) - \
        costs.p_nontarget * costs.c_fa_asv * rates.pfa
    c2 = costs.c_fa_cm * costs.p_spoof * (1 - rates.pmiss_spoof)
    _no_negative(rates, c1=c1, c2=c2)
    norm = _nonzero(min(c1, c2), "t-DCF 2019", f"C1 = {c1!r}, C2 = {c2!r}")
    return TdcfWeights(0.0, float(c1), float(c2), float(norm))


def tdcf_weights(rates: AsvRates, costs: TandemCosts) -> TdcfWeights:
    """The revised t-DCF's weights ``C0, C1, C2`` (ASVspoof 2021 and 5) and normalizer
    ``C0 + min(C1, C2)``."""
    _check_costs(costs)
    c0 = costs.p_target * costs.c_miss * rates.pmiss + \
        costs.p_nontarget * costs.c_fa * rates.pfa
    c1 = costs.p_target * costs.c_miss - (
        costs.p_target * costs.c_miss * rates.pmiss + costs.p_nontarget * costs.c_fa * rates.pfa
    )
    c2 = costs.p_spoof * costs.c_fa_spoof * rates.pfa_spoof
    _no_negative(rates, c0=c0, c1=c1, c2=c2)
    norm = _nonzero(c0 + min(c1, c2), "t-DCF", f"C0 = {c0!r}, C1 = {c1!r}, C2 = {c2!r}")
    return TdcfWeights(float(c0), float(c1), float(c2), float(norm))


def _no_negative(rates: AsvRates, **weights: float) -> None:
    for name, value in weights.items():
        if value < 0:
            raise ValueError(ERROR_NEGATIVE_WEIGHT.format(
                name=name.upper(), value=float(value), pmiss=rates.pmiss, pfa=rates.pfa))


def tdcf_values(w: TdcfWeights, pmiss_cm, pfa_cm):
    """The normalized t-DCF at CM rates ``pmiss_cm``, ``pfa_cm`` (arrays or floats): the
    curve of :func:`cm_curve`'s rates against the CM threshold."""
    return (w.c0 + w.c1 * pmiss_cm + w.c2 * pfa_cm) / w.norm


def cm_curve(bonafide, spoof) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The CM's ``(threshold, pmiss, pfa)`` at every operating point: each distinct
    score accepted and above (ascending), then reject-all. One sort per class and a
    linear merge."""
    bona = _sorted(bonafide, "bona fide")
    spf = _sorted(spoof, "spoof")
    pts = _points([bona, spf])
    pmiss = pts.below[0] / bona.size
    pfa = (spf.size - pts.below[1]) / spf.size
    return _thresholds(pts), pmiss, pfa


def _thresholds(pts: _Points) -> np.ndarray:
    """:func:`_threshold` of every point of ``pts`` (consecutive distinct scores)."""
    u = pts.u
    out = np.empty(u.size)
    if u.size > 1:
        _midpoints(u[:-2], u[1:-1], out[1:-1], big=True)
        out[0] = _threshold(pts.merged, u[0])
    out[-1] = _threshold(pts.merged, math.inf)
    return out


def min_tdcf(bonafide, spoof, weights: TdcfWeights) -> TdcfPoint:
    """The minimum normalized t-DCF over the CM thresholds and the threshold that reaches
    it (the lowest, among equal costs)."""
    bona = _sorted(bonafide, "bona fide")
    spf = _sorted(spoof, "spoof")
    pts = _points([bona, spf])
    pmiss = pts.below[0] / bona.size
    pfa = (spf.size - pts.below[1]) / spf.size
    values = tdcf_values(weights, pmiss, pfa)
    i = int(np.argmin(values))
    return TdcfPoint(float(values[i]), _threshold(pts.merged, pts.u[i]),
                     float(pmiss[i]), float(pfa[i]))


def tdcf_at(bonafide, spoof, weights: TdcfWeights, threshold: float) -> TdcfPoint:
    """The normalized t-DCF of the CM at ``threshold`` (accept iff ``score >= threshold``):
    the actual t-DCF."""
    bona = np.asarray(bonafide, dtype=np.float64)
    spf = np.asarray(spoof, dtype=np.float64)
    if bona.size == 0:
        raise ValueError(ERROR_EMPTY_CLASS.format(name="bona fide"))
    if spf.size == 0:
        raise ValueError(ERROR_NO_SPOOF)
    t = float(threshold)
    pmiss = int(np.count_nonzero(bona < t)) / bona.size
    pfa = int(np.count_nonzero(spf >= t)) / spf.size
    return TdcfPoint(float(tdcf_values(weights, pmiss, pfa)), t, pmiss, pfa)


def tdcf_bayes_threshold(weights: TdcfWeights) -> float:
    """The CM threshold that minimizes the t-DCF when the CM's scores are natural-log
    likelihood ratios of bona fide against spoof: ``ln(C2 / C1)`` (accepting a trial of
    LLR ``l`` costs ``C2 p(x|spoof)``, rejecting it ``C1 p(x|bona fide)``)."""
    with np.errstate(divide="ignore"):
        return float(np.log(weights.c2) - np.log(weights.c1))


# ------------------------------------------------------------------ t-EER
def _teer_curves(asv_targets, asv_nontargets, asv_spoofs, cm_bonafide, cm_spoofs,
                 presorted: bool = False):
    """The organisers' curves of the t-EER, position by position
    (``compute_Pmiss_Pfa_Pspoof_curves``, ``compute_det_curve``); ``presorted``: every
    array is already sorted (not sorted again)."""
    tar = _sorted(asv_targets, "target", presorted)
    non = _sorted(asv_nontargets, "nontarget", presorted)
    spf = _sorted(asv_spoofs, "spoof", presorted)
    a_merged, (r_tar, r_non, r_spf) = _position_rates([tar, non, spf])
    asv = (r_tar / tar.size, 1 - r_non / non.size, 1 - r_spf / spf.size)
    bona = _sorted(cm_bonafide, "bona fide", presorted)
    cspf = _sorted(cm_spoofs, "spoof", presorted)
    c_merged, (r_bona, _) = _position_rates([bona, cspf])
    k = np.arange(c_merged.size + 1)
    cm = (r_bona / bona.size, (cspf.size - (k - r_bona)) / cspf.size)
    return asv, cm, a_merged, c_merged


def _gap(pm_cm, pfa_cm, a, b, c):
    """Tandem miss minus tandem false alarm (spoof prevalence 0.5), as ``compute_teer``."""
    keep = 1 - pm_cm
    return (pm_cm + keep * a) - (0.5 * keep * b + 0.5 * pfa_cm * c)


def _first_nonnegative(pm_cm, pfa_cm, a, b, c, lo, hi) -> np.ndarray:
    """Per row, the first CM position in ``[lo, hi)`` whose gap is ``>= 0`` (``hi``
    when none): a bisection of all rows at once, each on its own bracket."""
    lo = lo.copy()
    hi = hi.copy()
    active = np.flatnonzero(lo < hi)
    while active.size:
        mid = (lo[active] + hi[active]) >> 1
        up = _gap(pm_cm[mid], pfa_cm[mid], a[active], b[active], c[active]) >= 0
        hi[active[up]] = mid[up]
        lo[active[~up]] = mid[~up] + 1
        active = active[lo[active] < hi[active]]
    return lo


_FACTOR = 2  # the rows solved at one level are every _FACTOR-th of the next


def _roots(pm_cm, pfa_cm, a, b, c) -> np.ndarray:
    """The first non-negative gap of every row, coarse to fine.

    The gap at a CM position never decreases from one ASV point to the next (a target
    rejected adds to the tandem miss, a non-target or spoof rejected takes from the
    tandem false alarm), so the roots never increase along the rows: the rows at stride
    ``s`` are bisected only between the roots of their solved neighbours at stride
    ``_FACTOR * s``, whose brackets telescope (at most every position per level).
    :func:`_crossing` checks each root.
    """
    size, n = pm_cm.size, a.size
    root = np.zeros(n, dtype=np.int64)
    stride = 1
    while stride * _FACTOR < n:
        stride *= _FACTOR
    top = np.arange(0, n, stride)
    root[top] = _first_nonnegative(pm_cm, pfa_cm, a[top], b[top], c[top],
                                   np.zeros(top.size, dtype=np.int64),
                                   np.full(top.size, size, dtype=np.int64))
    while stride > 1:
        coarse, stride = stride, stride // _FACTOR
        rows = np.arange(0, n, stride)
        rows = rows[rows % coarse != 0]
        left = rows - rows % coarse
        right = left + coarse
        lo = np.where(right < n, root[np.minimum(right, n - 1)], 0)
        root[rows] = _first_nonnegative(pm_cm, pfa_cm, a[rows], b[rows], c[rows], lo,
                                        root[left])
    return root


def _crossing(pm_cm, pfa_cm, a, b, c) -> np.ndarray:
    """Per ASV point (rows of ``a, b, c``), the first CM position of smallest
    ``|gap|``: the gap increases along the CM positions (a CM miss adds
    ``1 - a + b/2 > 0``, a CM false alarm removed adds ``c/2 > 0``), so it is the first
    non-negative gap (:func:`_roots`) or the position before, the nearer (the earlier on
    a tie, as ``np.argmin``). Each root is checked to be a sign change (a row whose root
    left its bracket, which only rounding could do, is bisected over every position),
    and a pick whose gap equals its predecessor's moves back to the first equal one."""
    size = pm_cm.size
    root = _roots(pm_cm, pfa_cm, a, b, c)
    g_left, g_right = _gaps_around(pm_cm, pfa_cm, a, b, c, root)
    bad = np.flatnonzero(~((g_left < 0) & (g_right >= 0)))
    if bad.size:
        root[bad] = _first_nonnegative(pm_cm, pfa_cm, a[bad], b[bad], c[bad],
                                       np.zeros(bad.size, dtype=np.int64),
                                       np.full(bad.size, size, dtype=np.int64))
        g_left[bad], g_right[bad] = _gaps_around(pm_cm, pfa_cm, a[bad], b[bad], c[bad],
                                                 root[bad])
    pick = np.where(np.abs(g_left) <= np.abs(g_right), root - 1, root)
    back = np.flatnonzero((pick == root - 1) & (pick > 0))
    while back.size:
        p = pick[back]
        same = _gap(pm_cm[p - 1], pfa_cm[p - 1], a[back], b[back], c[back]) == \
            _gap(pm_cm[p], pfa_cm[p], a[back], b[back], c[back])
        back = back[same]
        pick[back] -= 1
        back = back[pick[back] > 0]
    return pick


def _gaps_around(pm_cm, pfa_cm, a, b, c, root) -> tuple[np.ndarray, np.ndarray]:
    """The gaps at ``root - 1`` and ``root``: ``-inf`` before the first position,
    ``+inf`` past the last (so that the nearer is always a real position)."""
    size = pm_cm.size
    prev = np.maximum(root - 1, 0)
    here = np.minimum(root, size - 1)
    g_left = np.where(root > 0, _gap(pm_cm[prev], pfa_cm[prev], a, b, c), -np.inf)
    g_right = np.where(root < size, _gap(pm_cm[here], pfa_cm[here], a, b, c), np.inf)
    return g_left, g_right


def teer(asv_targets, asv_nontargets, asv_spoofs, cm_bonafide, cm_spoofs, *,
         presorted: bool = False) -> TeerPoint:
    """The concurrent t-EER (``compute_teer``), from the ASV scores of each trial kind and
    the CM scores of the bona fide (target and non-target) and spoof trials.

    For each ASV point where the ASV's miss rate is below the mean of its two
    false-alarm rates, the CM point where tandem miss and tandem false alarm (spoof
    prevalence 0.5) are closest; of these pairs, the one where the ASV's
    non-target-to-spoof false-alarm ratio is closest to the CM's
    ``Pfa_cm / (1 - Pmiss_cm)`` (the first of equals). There both tandem error rates
    equal ``Pfa_spoof_asv * Pfa_cm``: the t-EER. ``presorted=True`` skips the sorts (the
    bootstrap's replicates repeat already sorted scores).
    """
    (a_pm, a_fn, a_fs), (c_pm, c_fa), a_merged, c_merged = _teer_curves(
        asv_targets, asv_nontargets, asv_spoofs, cm_bonafide, cm_spoofs, presorted)
    rows = np.flatnonzero((a_pm < 0.5 * a_fn + 0.5 * a_fs) & (a_fs > 0))
    k = _crossing(c_pm, c_fa, a_pm[rows], a_fn[rows], a_fs[rows])
    with np.errstate(divide="ignore", invalid="ignore"):
        crit = np.abs(a_fn[rows] / a_fs[rows] - c_fa[k] / (1 - c_pm[k]))
    crit[~np.isfinite(crit)] = np.inf
    if crit.size == 0 or not np.isfinite(crit).any():
        raise ValueError(ERROR_NO_TEER)
    j = int(np.argmin(crit))
    m, t = int(rows[j]), int(k[j])
    return TeerPoint(
        float(a_fs[m] * c_fa[t]),
        _position_threshold(a_merged, m), _position_threshold(c_merged, t),
        float(a_pm[m]), float(a_fn[m]), float(a_fs[m]),
        float(c_pm[t]), float(c_fa[t]),
    )


def _position_threshold(merged: np.ndarray, k: int) -> float:
    """The library's threshold of the organisers' position ``k`` (the ``k`` lowest
    scores rejected): that of its run's upper end inside a run of ties."""
    if k == 0:
        finite = merged[merged > -np.inf]
        return float(finite[0]) if finite.size else math.inf
    return organiser_threshold(merged, merged[k - 1])


# ------------------------------------------------------------------ a-DCF
def sasv_sum(asv, cm) -> np.ndarray:
    """The score-sum SASV score ``asv + cm`` (SASV 2022 evaluation plan, Baseline1)."""
    return np.asarray(asv, dtype=np.float64) + np.asarray(cm, dtype=np.float64)


def sasv_cascade(asv, cm, cm_threshold: float) -> np.ndarray:
    """The cascade's SASV score: the ASV score where the CM accepts the trial
    (``cm >= cm_threshold``), ``-inf`` (rejected at every threshold) where it does not."""
    asv = np.asarray(asv, dtype=np.float64)
    return np.where(np.asarray(cm, dtype=np.float64) >= cm_threshold, asv, -np.inf)


def _adcf_terms(costs: TandemCosts) -> tuple[float, float, float, float]:
    _check_costs(costs)
    w_miss = costs.c_miss * costs.p_target
    w_fa = costs.c_fa * costs.p_nontarget
    w_spf = costs.c_fa_spoof * costs.p_spoof
    norm = _nonzero(min(w_fa + w_spf, w_miss), "a-DCF",
                    f"accept all {w_fa + w_spf!r}, reject all {w_miss!r}")
    return w_miss, w_fa, w_spf, norm


def min_adcf(targets, nontargets, spoofs, costs: TandemCosts) -> AdcfPoint:
    """The minimum normalized a-DCF of one spoofing-aware score over its thresholds, and
    the threshold that reaches it (the lowest among equal costs); ``compute_a_det_curve``
    and ``_calculate_a_dcf``."""
    w_miss, w_fa, w_spf, norm = _adcf_terms(costs)
    classes = [_sorted(targets, "target"), _sorted(nontargets, "nontarget"),
               _sorted(spoofs, "spoof")]
    pts = _points(classes)
    nt, nn, ns = pts.sizes
    pmiss = pts.below[0] / nt
    pfa = (nn - pts.below[1]) / nn
    pfs = (ns - pts.below[2]) / ns
    values = (w_miss * pmiss + w_fa * pfa + w_spf * pfs) / norm
    i = int(np.argmin(values))
    return AdcfPoint(float(values[i]), _threshold(pts.merged, pts.u[i]),
                     float(pmiss[i]), float(pfa[i]), float(pfs[i]))


def adcf_at(targets, nontargets, spoofs, costs: TandemCosts, threshold: float) -> AdcfPoint:
    """The normalized a-DCF at ``threshold`` (accept iff ``score >= threshold``)."""
    w_miss, w_fa, w_spf, norm = _adcf_terms(costs)
    rates = asv_rates(targets, nontargets, spoofs, threshold)
    value = (w_miss * rates.pmiss + w_fa * rates.pfa + w_spf * rates.pfa_spoof) / norm
    return AdcfPoint(float(value), rates.threshold, rates.pmiss, rates.pfa, rates.pfa_spoof)


# --------------------------------------------------------------------- CM
def _cm_terms(costs: CmCosts) -> tuple[float, float]:
    _check_costs(costs)
    p_bona = 1 - costs.p_spoof
    norm = _nonzero(min(costs.c_miss * p_bona, costs.c_fa * (1 - p_bona)), "CM DCF",
                    f"c_miss {costs.c_miss!r}, c_fa {costs.c_fa!r}")
    return p_bona, norm


def cm_min_dcf(bonafide, spoof, costs: CmCosts) -> tuple[float, float]:
    """``(min_dcf, threshold)`` of the CM (``compute_mindcf``): the normalized detection
    cost minimized over the thresholds, the lowest among equal costs."""
    p_bona, norm = _cm_terms(costs)
    bona = _sorted(bonafide, "bona fide")
    spf = _sorted(spoof, "spoof")
    pts = _points([bona, spf])
    frr = pts.below[0] / bona.size
    far = (spf.size - pts.below[1]) / spf.size
    c_det = costs.c_miss * frr * p_bona + costs.c_fa * far * (1 - p_bona)
    i = int(np.argmin(c_det))
    return float(c_det[i] / norm), _threshold(pts.merged, pts.u[i])


def cm_act_dcf(bonafide, spoof, costs: CmCosts,
               threshold: float | None = None) -> tuple[float, float]:
    """``(act_dcf, threshold)`` of the CM at ``threshold`` (accept iff
    ``score >= threshold``), by default the Bayes threshold of natural-log likelihood
    ratios, ``-ln(c_miss (1 - p_spoof) / (c_fa p_spoof))`` (``compute_actDCF``)."""
    _cm_terms(costs)
    norm = min(costs.c_fa * costs.p_spoof, costs.c_miss * (1 - costs.p_spoof))
    if threshold is None:
        beta = costs.c_miss * (1 - costs.p_spoof) / (costs.c_fa * costs.p_spoof)
        threshold = -np.log(beta)
    bona = np.asarray(bonafide, dtype=np.float64)
    spf = np.asarray(spoof, dtype=np.float64)
    if bona.size == 0:
        raise ValueError(ERROR_EMPTY_CLASS.format(name="bona fide"))
    if spf.size == 0:
        raise ValueError(ERROR_NO_SPOOF)
    t = float(threshold)
    miss = int(np.count_nonzero(bona < t)) / bona.size
    fa = int(np.count_nonzero(spf >= t)) / spf.size
    act = costs.c_miss * (1 - costs.p_spoof) * miss + costs.c_fa * costs.p_spoof * fa
    return float(act / norm), t


def cm_cllr(bonafide, spoof) -> float:
    """The CM's Cllr in bits, its scores read as natural-log likelihood ratios
    (``calculate_CLLR``)."""
    bona = np.asarray(bonafide, dtype=np.float64)
    spf = np.asarray(spoof, dtype=np.float64)
    if bona.size == 0:
        raise ValueError(ERROR_EMPTY_CLASS.format(name="bona fide"))
    if spf.size == 0:
        raise ValueError(ERROR_NO_SPOOF)
    return cllr(spf, bona)
