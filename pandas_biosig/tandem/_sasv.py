r"""Spoofing-aware scores and their a-DCF; the CM's own detection costs (ASVspoof 5).

Definitions, sources and conventions: ``docs/tandem.md``; the arithmetic is
:mod:`pandas_biosig._kernels.tandem`.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Literal

import numpy as np
import pandas as pd

from .._core.counted import expand_counts
from .._core.protocol import FIXED
from .._core.schema import check_option
from .._core.validation import check_tandem_costs
from .._kernels.tandem import (
    adcf_at,
    asv_eer_threshold,
    cm_act_dcf,
    cm_cllr,
    cm_min_dcf,
    min_adcf,
    sasv_cascade,
    sasv_sum,
)
from ._common import (
    check_threshold,
    cost_columns,
    fixed_threshold,
    in_group,
    plan,
    tandem_frame,
    threshold_from,
)
from ._table import validate_tandem

__all__ = [
    "ADCF_COLUMNS",
    "ADCF_THRESHOLDS",
    "CM_COLUMNS",
    "CM_DCF_THRESHOLDS",
    "SASV_METHODS",
    "adcf",
    "cm_metrics",
    "sasv_score",
]

#: How :func:`sasv_score` builds one spoofing-aware score from the ASV and CM scores.
SASV_METHODS = {
    "sum": "asv_score + cm_score (the SASV 2022 evaluation plan's Baseline1, score-sum "
           "ensemble)",
    "cascade": "asv_score where cm_score >= cm_threshold, -inf (rejected at every "
               "threshold) where the CM rejects the trial",
}
#: How :func:`adcf`'s ``threshold`` is chosen when it is not a number.
ADCF_THRESHOLDS = {"min": "the threshold of the minimum a-DCF on the split 'on' "
                          "(a priori on eval)"}
#: How :func:`cm_metrics`' ``threshold`` (the actDCF's) is chosen when it is not a number.
CM_DCF_THRESHOLDS = {
    "bayes": "-ln(c_miss (1 - p_spoof) / (c_fa p_spoof)): the Bayes threshold of "
             "natural-log likelihood ratios (ASVspoof 5's actDCF)",
    "min": "the threshold of the minimum DCF on the split 'on'",
}

ADCF_COLUMNS = [
    "asv_system", "cm_system", "split", "costs", "p_target", "p_nontarget", "p_spoof",
    "c_miss", "c_fa", "c_fa_spoof", "n_target", "n_nontarget", "n_spoof", "min_adcf",
    "min_adcf_threshold", "min_pmiss", "min_pfa", "min_pfa_spoof", "threshold",
    "threshold_from", "act_adcf", "act_pmiss", "act_pfa", "act_pfa_spoof",
]
CM_COLUMNS = [
    "asv_system", "cm_system", "split", "costs", "p_spoof", "c_miss", "c_fa", "n_bonafide",
    "n_spoof", "min_dcf", "min_dcf_threshold", "threshold", "threshold_from", "act_dcf",
    "cllr", "eer",
]
_ADCF_COSTS = ("p_target", "p_nontarget", "p_spoof", "c_miss", "c_fa", "c_fa_spoof")

ERROR_CASCADE_THRESHOLD = (
    "method='cascade' needs cm_threshold= (a number, or a mapping {{cm_system: threshold}}): "
    "the CM threshold below which a trial is rejected"
)


def sasv_score(
    data: pd.DataFrame,
    /,
    *,
    method: Literal["sum", "cascade"] = "sum",
    cm_threshold: float | Mapping[Hashable, float] | None = None,
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    asv_score: str = "asv_score",
    cm_score: str = "cm_score",
    split: str | None = "split",
    count: str | None = None,
) -> pd.DataFrame:
    r"""One spoofing-aware (SASV) score per trial from its ASV and CM scores, for
    :func:`adcf`.

    Parameters
    ----------
    data : DataFrame
        A tandem table (see :func:`pandas_biosig.tdcf`).
    method : {"sum", "cascade"}, default "sum"
        ``"sum"``: :math:`s = s_{asv} + s_{cm}` (the SASV 2022 evaluation plan's
        score-sum baseline: no training, but it assumes comparable scales);
        ``"cascade"``: the ASV score where the CM accepts the trial
        (:math:`s_{cm} \ge` ``cm_threshold``), :math:`-\infty` (rejected at every
        threshold) where it does not.
    cm_threshold : number or mapping, optional
        The cascade's CM threshold (``{cm_system: threshold}`` per system); for example
        the ``min_tdcf_threshold`` of :func:`pandas_biosig.tdcf` on ``dev``.
    asv_system, cm_system, trial, kind, asv_score, cm_score, split : str
        Column names.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        A copy of ``data`` with the column ``sasv_score`` (added, or replaced).

    Examples
    --------
    >>> t = pbs.datasets.example_tandem()
    >>> s = pbs.sasv_score(t, method="cascade", cm_threshold=0.0)
    >>> s[["kind", "asv_score", "cm_score", "sasv_score"]].iloc[[0, 2]]
         kind  asv_score  cm_score  sasv_score
    0  target      6.765     2.243       6.765
    2  target      4.599    -4.629        -inf
    """
    data = expand_counts(data, count, trial=trial)
    check_option(method, SASV_METHODS, "method")
    validate_tandem(data, asv_system=asv_system, cm_system=cm_system, trial=trial, kind=kind,
                    scores={"asv": asv_score, "cm": cm_score}, split=split, subject=None)
    asv = data[asv_score].to_numpy(dtype=np.float64)
    cm = data[cm_score].to_numpy(dtype=np.float64)
    if method == "sum":
        return data.assign(sasv_score=sasv_sum(asv, cm))
    if cm_threshold is None:
        raise ValueError(ERROR_CASCADE_THRESHOLD)
    systems = data[cm_system]
    thresholds = np.array([fixed_threshold(cm_threshold, "cm_threshold", "cm_system", s, ())
                           for s in pd.unique(systems)])
    codes = pd.factorize(systems)[0]
    return data.assign(sasv_score=sasv_cascade(asv, cm - thresholds[codes], 0.0))


def adcf(
    data: pd.DataFrame,
    /,
    *,
    costs: str | Mapping[str, float] = "asvspoof5",
    threshold: Literal["min"] | float | Mapping[Hashable, float] = "min",
    on: Hashable | None = "auto",
    apply_to: Hashable | list | None = "auto",
    score: str = "sasv_score",
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    split: str | None = "split",
    count: str | None = None,
) -> pd.DataFrame:
    r"""The architecture-agnostic detection cost (a-DCF) of a spoofing-aware score: its
    minimum over the thresholds, and its actual value at a threshold.

    Parameters
    ----------
    data : DataFrame
        A tandem table with one spoofing-aware score per trial (column ``score``): from
        :func:`sasv_score`, or a SASV system's own (ASVspoof 5's ``sasv-score``). Only
        ``asv_system, cm_system, trial, kind`` and ``score`` are read; the score may be
        ``-inf`` (rejected at every threshold).
    costs : str or mapping, default "asvspoof5"
        The cost model: ``"asvspoof5"`` (ASVspoof 5's a-DCF), ``"sasv"`` (the a-DCF
        paper's default) or a mapping of ``p_target, p_nontarget, p_spoof, c_miss, c_fa,
        c_fa_spoof``.
    threshold : "min", number or mapping, default "min"
        The threshold of the actual a-DCF: the threshold of the minimum on split ``on``,
        or a threshold (``{cm_system: threshold}`` per system).
    on, apply_to : split value, None or "auto"
        As in :func:`pandas_biosig.tdcf`.
    score, asv_system, cm_system, trial, kind, split : str
        Column names.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (ASV system, CM system, split): ``asv_system, cm_system, split,
        costs, p_target, p_nontarget, p_spoof, c_miss, c_fa, c_fa_spoof, n_target,
        n_nontarget, n_spoof``, ``min_adcf`` with ``min_adcf_threshold, min_pmiss,
        min_pfa, min_pfa_spoof``, and ``threshold, threshold_from, act_adcf, act_pmiss,
        act_pfa, act_pfa_spoof`` (accept iff ``score >= threshold``).

    Raises
    ------
    SchemaError
        As :func:`pandas_biosig.tdcf`; a score that is NaN or ``+inf``.
    ValueError
        An unknown cost preset, priors that do not sum to 1, costs that make the
        normalizer 0.

    Notes
    -----
    .. math::

        \mathrm{a\text{-}DCF}(t) = \frac{C_{miss} \pi_{tar} P_{miss}(t)
            + C_{fa} \pi_{non} P_{fa}(t) + C_{fa,spoof} \pi_{spoof} P_{fa,spoof}(t)}
            {\min(C_{fa} \pi_{non} + C_{fa,spoof} \pi_{spoof}, C_{miss} \pi_{tar})}

    References
    ----------
    Shim, H., Jung, J., Kinnunen, T., Evans, N., Bonastre, J.-F., & Lapidot, I. (2024).
    a-DCF: an architecture agnostic metric with application to spoofing-robust speaker
    verification. In *Proceedings of Odyssey 2024: The Speaker and Language Recognition
    Workshop* (pp. 158–164).

    Examples
    --------
    >>> s = pbs.sasv_score(pbs.datasets.example_tandem())
    >>> pbs.adcf(s)[["cm_system", "split", "min_adcf", "act_adcf"]].round(4)
      cm_system split  min_adcf  act_adcf
    0      cm_a  eval    0.2295    0.2409
    1      cm_b  eval    0.3072    0.3392
    """
    data = expand_counts(data, count, trial=trial)
    adcf_costs = check_tandem_costs(costs, "tandem")
    check_threshold(threshold, "threshold", "cm_system", ADCF_THRESHOLDS)
    table = validate_tandem(data, asv_system=asv_system, cm_system=cm_system, trial=trial,
                            kind=kind, scores={"sasv": score}, split=split, subject=None,
                            sasv_inf=True)
    on, pairs = plan(table, on=on, apply_to=apply_to, chosen=isinstance(threshold, str))
    rows = []
    for g, src in pairs:
        classes = (g.of("sasv", 0), g.of("sasv", 1), g.of("sasv", 2))
        best = in_group(g, table.split_column, min_adcf, *classes, adcf_costs)
        if isinstance(threshold, str):
            mine = best if src is g else in_group(
                src, table.split_column, min_adcf, *(src.of("sasv", k) for k in range(3)),
                adcf_costs)
            t, frm = mine.threshold, threshold_from(on, g, src)
        else:
            t = fixed_threshold(threshold, "threshold", "cm_system", g.key[1], ADCF_THRESHOLDS)
            frm = FIXED
        act = adcf_at(*classes, adcf_costs, t)
        rows.append(dict(**cost_columns(adcf_costs, _ADCF_COSTS), **g.counts,
                         min_adcf=best.adcf,
                         min_adcf_threshold=best.threshold, min_pmiss=best.pmiss,
                         min_pfa=best.pfa, min_pfa_spoof=best.pfa_spoof, threshold=t,
                         threshold_from=frm, act_adcf=act.adcf, act_pmiss=act.pmiss,
                         act_pfa=act.pfa, act_pfa_spoof=act.pfa_spoof))
    return tandem_frame(table, [g for g, _ in pairs], rows, ADCF_COLUMNS[3:])


def cm_metrics(
    data: pd.DataFrame,
    /,
    *,
    costs: str | Mapping[str, float] = "asvspoof5_cm",
    threshold: Literal["bayes", "min"] | float | Mapping[Hashable, float] = "bayes",
    on: Hashable | None = "auto",
    apply_to: Hashable | list | None = "auto",
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    cm_score: str = "cm_score",
    split: str | None = "split",
    count: str | None = None,
) -> pd.DataFrame:
    r"""The CM's own detection costs, as ASVspoof 5 (track 1) ranks countermeasures:
    minDCF, actDCF, Cllr and EER of bona fide (target and non-target) trials against
    spoofs.

    Parameters
    ----------
    data : DataFrame
        A tandem table (only ``cm_score`` of its scores is read).
    costs : str or mapping, default "asvspoof5_cm"
        ``"asvspoof5_cm"`` (``p_spoof`` 0.05, ``c_miss`` 1, ``c_fa`` 10) or a mapping of
        ``p_spoof, c_miss, c_fa``.
    threshold : {"bayes", "min"}, number or mapping, default "bayes"
        The actDCF's threshold: the Bayes threshold of natural-log likelihood ratios
        :math:`-\ln(C_{miss}(1 - \pi_{spoof}) / (C_{fa} \pi_{spoof}))` (ASVspoof 5's), the
        minimum DCF's threshold on split ``on``, or a threshold (``{cm_system:
        threshold}`` per system).
    on, apply_to : split value, None or "auto"
        As in :func:`pandas_biosig.tdcf`.
    asv_system, cm_system, trial, kind, cm_score, split : str
        Column names.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (ASV system, CM system, split): ``asv_system, cm_system, split,
        costs, p_spoof, c_miss, c_fa, n_bonafide, n_spoof, min_dcf, min_dcf_threshold,
        threshold, threshold_from, act_dcf``, ``cllr`` (bits, the scores read as
        natural-log likelihood ratios) and ``eer`` (the organisers' ``compute_eer``).
        The CM's numbers do not depend on the ASV: a table with several ASV systems
        repeats them.

    Examples
    --------
    >>> r = pbs.cm_metrics(pbs.datasets.example_tandem())
    >>> r[["cm_system", "split", "min_dcf", "act_dcf", "cllr", "eer"]].round(4)
      cm_system split  min_dcf  act_dcf    cllr     eer
    0      cm_a   dev   0.3060   0.3084  0.3985  0.1274
    1      cm_a  eval   0.2984   0.3226  0.3928  0.1108
    2      cm_b   dev   0.4940   0.5111  0.6009  0.1941
    3      cm_b  eval   0.4856   0.5257  0.6043  0.1892
    """
    data = expand_counts(data, count, trial=trial)
    cm_costs = check_tandem_costs(costs, "cm")
    check_threshold(threshold, "threshold", "cm_system", CM_DCF_THRESHOLDS)
    table = validate_tandem(data, asv_system=asv_system, cm_system=cm_system, trial=trial,
                            kind=kind, scores={"cm": cm_score}, split=split, subject=None)
    on, pairs = plan(table, on=on, apply_to=apply_to,
                     chosen=isinstance(threshold, str) and threshold == "min")
    rows = []
    frm: Hashable
    for g, src in pairs:
        bona, spoof = g.bonafide_cm, g.of("cm", 2)
        best, best_t = in_group(g, table.split_column, cm_min_dcf, bona, spoof, cm_costs)
        if isinstance(threshold, str) and threshold == "bayes":
            t, frm = None, "bayes"
        elif isinstance(threshold, str):
            t = (best_t if src is g
                 else cm_min_dcf(src.bonafide_cm, src.of("cm", 2), cm_costs)[1])
            frm = threshold_from(on, g, src)
        else:
            t = fixed_threshold(threshold, "threshold", "cm_system", g.key[1], CM_DCF_THRESHOLDS)
            frm = FIXED
        act, t = cm_act_dcf(bona, spoof, cm_costs, t)
        rows.append(dict(**cost_columns(cm_costs, ("p_spoof", "c_miss", "c_fa")),
                         n_bonafide=int(bona.size), n_spoof=int(spoof.size), min_dcf=best,
                         min_dcf_threshold=best_t, threshold=t, threshold_from=frm,
                         act_dcf=act, cllr=cm_cllr(bona, spoof),
                         eer=asv_eer_threshold(bona, spoof)[0]))
    return tandem_frame(table, [g for g, _ in pairs], rows, CM_COLUMNS[3:])
