r"""The t-DCF and the t-EER of ASV and CM systems in tandem, on a tandem table.

Definitions, sources and conventions: ``docs/tandem.md``; the arithmetic is
:mod:`pandas_biosig._kernels.tandem` (the organisers' code, reproduced to the last bit).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Literal

import pandas as pd
import xarray as xr

from .._core.counted import expand_counts
from .._core.curve_datasets import Layout, curve_dataset, curve_variable
from .._core.protocol import FIXED, asvspoof_eer_threshold
from .._core.schema import check_option
from .._core.validation import check_tandem_costs
from .._kernels.tandem import (
    asv_rates,
    cm_curve,
    min_tdcf,
    tdcf_at,
    tdcf_bayes_threshold,
    tdcf_values,
    tdcf_weights,
    tdcf_weights_2019,
)
from .._kernels.tandem import teer as teer_kernel
from ._common import (
    COST_FIELDS,
    check_threshold,
    cost_columns,
    fixed_threshold,
    in_group,
    plan,
    tandem_frame,
    threshold_from,
)
from ._table import TandemGroup, validate_tandem

__all__ = [
    "ASV_THRESHOLDS",
    "CM_THRESHOLDS",
    "TDCF_COLUMNS",
    "TDCF_VERSIONS",
    "TEER_COLUMNS",
    "tdcf",
    "tdcf_curve",
    "teer",
]

#: The t-DCF definitions: version -> (source, default cost preset, cost model).
TDCF_VERSIONS = {
    "2019": ("ASVspoof 2019 (compute_tDCF; ASVspoof 5's compute_tDCF_legacy)",
             "asvspoof2019", "tdcf_2019"),
    "2021": ("ASVspoof 2021 and ASVspoof 5 (compute_tDCF with C0, C1, C2)", "asvspoof5",
             "tandem"),
}
#: How ``asv_threshold`` is chosen when it is not a number.
ASV_THRESHOLDS = {"eer": "the ASVspoof organisers' EER threshold of the ASV (compute_eer)"}
#: How ``cm_threshold`` (the actual t-DCF's) is chosen when it is not a number.
CM_THRESHOLDS = {
    "bayes": "ln(C2 / C1): the Bayes threshold of a CM whose scores are natural-log "
             "likelihood ratios",
    "min": "the threshold of the minimum t-DCF on the split 'on' (a priori on eval)",
}

TDCF_COLUMNS = [
    "asv_system", "cm_system", "split", "version", "costs", *COST_FIELDS, "n_target",
    "n_nontarget", "n_spoof", "asv_threshold", "asv_threshold_from", "asv_pfa", "asv_pmiss",
    "asv_pmiss_spoof", "asv_pfa_spoof", "c0", "c1", "c2", "tdcf_norm", "min_tdcf",
    "min_tdcf_threshold", "min_pmiss_cm", "min_pfa_cm", "cm_threshold", "cm_threshold_from",
    "act_tdcf", "act_pmiss_cm", "act_pfa_cm",
]
TEER_COLUMNS = [
    "asv_system", "cm_system", "split", "n_target", "n_nontarget", "n_spoof", "teer",
    "asv_threshold", "cm_threshold", "asv_pmiss", "asv_pfa", "asv_pfa_spoof", "cm_pmiss",
    "cm_pfa",
]

TdcfVersion = Literal["2019", "2021"]
CostsArg = str | Mapping[str, float] | None


def tdcf_costs(version, costs):
    """The cost model of a t-DCF ``version`` (its default preset when ``costs`` is None)."""
    check_option(version, TDCF_VERSIONS, "version")
    _, preset, model = TDCF_VERSIONS[version]
    return check_tandem_costs(preset if costs is None else costs, model)


class _Point:
    """The ASV operating point and t-DCF weights of one group (``weights(g)`` also of its
    source group, at the same ASV threshold)."""

    def __init__(self, version, costs, asv_threshold, split_column):
        self.version, self.costs = version, costs
        self.asv_threshold, self.split_column = asv_threshold, split_column

    def choose_asv(self, g, src, on) -> tuple[float, Hashable]:
        if isinstance(self.asv_threshold, str):
            t = in_group(src, self.split_column, asvspoof_eer_threshold, src.of("asv", 0),
                         src.of("asv", 1))
            return t, threshold_from(on, g, src)
        return fixed_threshold(self.asv_threshold, "asv_threshold", "asv_system", g.key[0],
                               ASV_THRESHOLDS), FIXED

    def weights(self, g, t: float):
        rates = asv_rates(g.of("asv", 0), g.of("asv", 1), g.of("asv", 2), t)
        make = tdcf_weights_2019 if self.version == "2019" else tdcf_weights
        return rates, in_group(g, self.split_column, make, rates, self.costs)


def _cm_threshold(value, g, src, on, point: _Point, t_asv: float, weights):
    """The actual t-DCF's CM threshold and where it came from."""
    if isinstance(value, str) and value == "bayes":
        return tdcf_bayes_threshold(weights), "bayes"
    if isinstance(value, str):  # "min": the minimum's threshold on the source group
        w = weights if src is g else point.weights(src, t_asv)[1]
        return min_tdcf(src.bonafide_cm, src.of("cm", 2), w).threshold, threshold_from(on, g, src)
    return fixed_threshold(value, "cm_threshold", "cm_system", g.key[1], CM_THRESHOLDS), FIXED


def _tdcf_row(g, src, on, point: _Point, cm_threshold) -> dict:
    t_asv, asv_from = point.choose_asv(g, src, on)
    rates, w = point.weights(g, t_asv)
    bona, spoof = g.bonafide_cm, g.of("cm", 2)
    best = min_tdcf(bona, spoof, w)
    t_cm, cm_from = _cm_threshold(cm_threshold, g, src, on, point, t_asv, w)
    act = tdcf_at(bona, spoof, w, t_cm)
    return dict(
        version=point.version, **cost_columns(point.costs), **g.counts,
        asv_threshold=t_asv, asv_threshold_from=asv_from, asv_pfa=rates.pfa,
        asv_pmiss=rates.pmiss, asv_pmiss_spoof=rates.pmiss_spoof, asv_pfa_spoof=rates.pfa_spoof,
        c0=w.c0, c1=w.c1, c2=w.c2, tdcf_norm=w.norm, min_tdcf=best.tdcf,
        min_tdcf_threshold=best.threshold, min_pmiss_cm=best.pmiss_cm,
        min_pfa_cm=best.pfa_cm, cm_threshold=t_cm, cm_threshold_from=cm_from,
        act_tdcf=act.tdcf, act_pmiss_cm=act.pmiss_cm, act_pfa_cm=act.pfa_cm,
    )


def tdcf(
    data: pd.DataFrame,
    /,
    *,
    version: TdcfVersion = "2019",
    costs: CostsArg = None,
    asv_threshold: Literal["eer"] | float | Mapping[Hashable, float] = "eer",
    cm_threshold: Literal["bayes", "min"] | float | Mapping[Hashable, float] = "bayes",
    on: Hashable | None = "auto",
    apply_to: Hashable | list | None = "auto",
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    asv_score: str = "asv_score",
    cm_score: str = "cm_score",
    split: str | None = "split",
    count: str | None = None,
) -> pd.DataFrame:
    r"""The tandem detection cost (t-DCF) of CM systems in front of ASV systems: its
    minimum over the CM threshold, and its actual value at a CM threshold.

    Parameters
    ----------
    data : DataFrame
        A tandem table (:func:`pandas_biosig.tandem_table`,
        :func:`pandas_biosig.read_asvspoof_tandem`): ``asv_system, cm_system, trial,
        kind`` (``target``, ``nontarget``, ``spoof``), ``asv_score, cm_score``.
    version : {"2019", "2021"}, default "2019"
        ``"2019"``: the ASVspoof 2019 t-DCF; ``"2021"``: the revision of ASVspoof 2021 and
        ASVspoof 5 (with C0).
    costs : str or mapping, optional
        The cost model: a preset (``"asvspoof2019"``, the default of ``"2019"``;
        ``"asvspoof2021"`` / ``"asvspoof5"``, the default of ``"2021"``) or a mapping of
        its numbers (2019: ``p_target, p_nontarget, p_spoof, c_miss_asv, c_fa_asv,
        c_miss_cm, c_fa_cm``; 2021: ``p_target, p_nontarget, p_spoof, c_miss, c_fa,
        c_fa_spoof``).
    asv_threshold : "eer", number or mapping, default "eer"
        The ASV's operating point: the organisers' EER threshold of its targets and
        non-targets (on split ``on``), or a threshold (``{asv_system: threshold}`` per
        system). The ASV accepts the scores ``>= asv_threshold``.
    cm_threshold : {"bayes", "min"}, number or mapping, default "bayes"
        The CM threshold of the actual t-DCF: ``"bayes"``, :math:`\ln(C_2 / C_1)`, the
        Bayes threshold of a CM whose scores are natural-log likelihood ratios of bona
        fide against spoof (meaningless for other scores: give a number); ``"min"``, the
        threshold of the minimum t-DCF on split ``on``; or a threshold
        (``{cm_system: threshold}`` per system).
    on : split value, None or "auto", default "auto"
        The split where the thresholds chosen by a criterion (``"eer"``, ``"min"``) are
        chosen: ``"auto"`` takes the development split of a table with ``dev`` and
        ``eval`` splits (a priori) and each split's own trials otherwise
        (:func:`pandas_biosig._core.protocol.split_roles`).
    apply_to : split value, list, None or "auto", default "auto"
        The splits reported (``"auto"``: the evaluation splits when ``on`` is the
        development split, else every split).
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
        One row per (ASV system, CM system, split): ``asv_system, cm_system, split,
        version, costs`` (the preset's name or ``"custom"``), the cost model
        ``p_target, p_nontarget, p_spoof, c_miss_asv, c_fa_asv, c_miss_cm, c_fa_cm, c_miss,
        c_fa, c_fa_spoof`` (NaN where the version has no such number), ``n_target,
        n_nontarget, n_spoof``; the ASV's operating point ``asv_threshold,
        asv_threshold_from`` (a split, ``"same trials"`` or ``"fixed"``), ``asv_pfa,
        asv_pmiss, asv_pmiss_spoof, asv_pfa_spoof``; the weights ``c0, c1, c2`` and
        ``tdcf_norm``; ``min_tdcf`` with ``min_tdcf_threshold, min_pmiss_cm, min_pfa_cm``;
        ``cm_threshold, cm_threshold_from`` (``"bayes"``, a split, ``"same trials"``,
        ``"fixed"``) and ``act_tdcf, act_pmiss_cm, act_pfa_cm`` there. Thresholds accept
        the scores ``>=`` them.

    Raises
    ------
    SchemaError
        Missing columns, unknown kinds, a trial with one score only, a group without
        spoof (or target, or non-target) trials, repeated trial ids.
    ValueError
        An unknown version, threshold or cost preset, a cost model whose priors do not
        sum to 1, or one that makes the normalizer 0 or a weight negative for these
        ASV error rates (the kernels' named errors, said of the group).

    See Also
    --------
    tdcf_curve : the t-DCF at every CM threshold.
    teer : the tandem EER.
    tandem_bootstrap : its interval by resampling speakers.

    Notes
    -----
    With the ASV's miss rate :math:`P^{asv}_{miss}`, false-alarm rate
    :math:`P^{asv}_{fa}` and spoof false-alarm rate :math:`P^{asv}_{fa,spoof}` at its
    threshold, and the CM's rates at threshold :math:`s`,

    .. math::

        \mathrm{t\text{-}DCF}(s) = \frac{C_0 + C_1 P^{cm}_{miss}(s)
            + C_2 P^{cm}_{fa}(s)}{C_0 + \min(C_1, C_2)}

    with :math:`C_0 = 0` in 2019 and the weights of ``docs/tandem.md``.

    References
    ----------
    Kinnunen, T., Delgado, H., Evans, N., Lee, K. A., Vestman, V., Nautsch, A.,
    Todisco, M., Wang, X., Sahidullah, M., Yamagishi, J., & Reynolds, D. A. (2020).
    Tandem assessment of spoofing countermeasures and automatic speaker verification:
    fundamentals. *IEEE/ACM Transactions on Audio, Speech, and Language Processing, 28*,
    2195–2210.

    Examples
    --------
    >>> t = pbs.datasets.example_tandem()
    >>> r = pbs.tdcf(t)
    >>> r[["cm_system", "split", "asv_threshold_from", "min_tdcf", "act_tdcf"]].round(4)
      cm_system split asv_threshold_from  min_tdcf  act_tdcf
    0      cm_a  eval                dev    0.3614    0.3787
    1      cm_b  eval                dev    0.5716    0.5952
    >>> pbs.tdcf(t, version="2021", on=None)[["split", "min_tdcf"]].round(4).head(2)
      split  min_tdcf
    0   dev    0.3975
    1  eval    0.3982
    """
    data = expand_counts(data, count, trial=trial)
    costs = tdcf_costs(version, costs)
    check_threshold(asv_threshold, "asv_threshold", "asv_system", ASV_THRESHOLDS)
    check_threshold(cm_threshold, "cm_threshold", "cm_system", CM_THRESHOLDS)
    table = validate_tandem(data, asv_system=asv_system, cm_system=cm_system, trial=trial,
                            kind=kind, scores={"asv": asv_score, "cm": cm_score}, split=split,
                            subject=None)
    chosen = isinstance(asv_threshold, str) or (isinstance(cm_threshold, str)
                                                and cm_threshold == "min")
    on, pairs = plan(table, on=on, apply_to=apply_to, chosen=chosen)
    point = _Point(version, costs, asv_threshold, table.split_column)
    rows = [_tdcf_row(g, src, on, point, cm_threshold) for g, src in pairs]
    return tandem_frame(table, [g for g, _ in pairs], rows, TDCF_COLUMNS[3:])


def tdcf_curve(
    data: pd.DataFrame,
    /,
    *,
    version: TdcfVersion = "2019",
    costs: CostsArg = None,
    asv_threshold: Literal["eer"] | float | Mapping[Hashable, float] = "eer",
    on: Hashable | None = "auto",
    apply_to: Hashable | list | None = "auto",
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    asv_score: str = "asv_score",
    cm_score: str = "cm_score",
    split: str | None = "split",
    count: str | None = None,
) -> xr.Dataset:
    r"""The normalized t-DCF at every CM threshold, with its minimum.

    Parameters
    ----------
    data, version, costs, asv_threshold, on, apply_to, asv_system, cm_system, trial, kind, asv_score, cm_score, split
        As in :func:`tdcf`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        Dims ``(asv_system, cm_system, split, point)`` (``split`` only with a split
        column), one point per distinct CM score (accept it and above) and the
        reject-all point, NaN-padded. Data variables over ``point``: ``threshold`` (accept
        iff ``cm_score >= threshold``), ``pmiss_cm``, ``pfa_cm``, ``tdcf``; per group:
        ``min_tdcf``, ``min_tdcf_threshold``, ``asv_threshold``. Attrs ``kind="tdcf"``,
        ``version``, ``costs``.

    See Also
    --------
    tdcf : the same minimum, and the actual t-DCF.
    pandas_biosig.plot.tdcf_curve : its figure.

    Examples
    --------
    >>> ds = pbs.tdcf_curve(pbs.datasets.example_tandem())
    >>> ds.min_tdcf.sel(split="eval").round(4).values.tolist()
    [[0.3614, 0.5716]]
    >>> bool((ds.tdcf.min("point") == ds.min_tdcf).all())
    True
    """
    data = expand_counts(data, count, trial=trial)
    costs = tdcf_costs(version, costs)
    check_threshold(asv_threshold, "asv_threshold", "asv_system", ASV_THRESHOLDS)
    table = validate_tandem(data, asv_system=asv_system, cm_system=cm_system, trial=trial,
                            kind=kind, scores={"asv": asv_score, "cm": cm_score}, split=split,
                            subject=None)
    on, pairs = plan(table, on=on, apply_to=apply_to,
                     chosen=isinstance(asv_threshold, str))
    point = _Point(version, costs, asv_threshold, table.split_column)
    curves, mins, asv_t = [], [], []
    for g, src in pairs:
        t_asv = point.choose_asv(g, src, on)[0]
        w = point.weights(g, t_asv)[1]
        thr, pmiss, pfa = cm_curve(g.bonafide_cm, g.of("cm", 2))
        curves.append((thr, pmiss, pfa, tdcf_values(w, pmiss, pfa)))
        mins.append(min_tdcf(g.bonafide_cm, g.of("cm", 2), w))
        asv_t.append(t_asv)
    groups = [g for g, _ in pairs]
    layout = Layout(table, groups, with_split=table.split_column is not None)
    dims = (*layout.names, "point")
    names = ("threshold", "pmiss_cm", "pfa_cm", "tdcf")
    long = ("CM threshold (accept iff cm_score >= threshold)", "CM miss rate (bona fide "
            "rejected)", "CM false-alarm rate (spoofs accepted)", f"normalized t-DCF ({version})")
    variables = {n: curve_variable(dims, layout.curve([c[i] for c in curves]), text,
                                   cm_score if n == "threshold" else "1")
                 for i, (n, text) in enumerate(zip(names, long, strict=True))}
    variables.update(
        min_tdcf=curve_variable(dims[:-1], layout.summary([m.tdcf for m in mins]),
                                "minimum normalized t-DCF", "1"),
        min_tdcf_threshold=curve_variable(dims[:-1], layout.summary([m.threshold for m in mins]),
                                          "CM threshold of the minimum", cm_score),
        asv_threshold=curve_variable(dims[:-1], layout.summary(asv_t), "ASV threshold",
                                     asv_score))
    ds = curve_dataset(variables, layout.coords(), kind="tdcf", trials=table, version=version,
                       costs=cost_columns(costs)["costs"])
    return ds.rename({"system": "cm_system"})


def teer(
    data: pd.DataFrame,
    /,
    *,
    asv_system: str = "asv_system",
    cm_system: str = "cm_system",
    trial: str = "trial",
    kind: str = "kind",
    asv_score: str = "asv_score",
    cm_score: str = "cm_score",
    split: str | None = "split",
    count: str | None = None,
) -> pd.DataFrame:
    r"""The concurrent tandem equal error rate (t-EER) of ASV and CM systems, with its
    two thresholds.

    The t-EER needs no cost model and no threshold: it is the error rate where the
    tandem system's miss rate and false-alarm rate (spoof prevalence 1/2) are equal and
    the ASV's and the CM's thresholds balance (Kinnunen et al., 2023), computed as the
    organisers' ``compute_teer`` (every ASV threshold tried, its crossing found by
    bisection). Each split is evaluated on its own trials.

    Parameters
    ----------
    data : DataFrame
        A tandem table (see :func:`tdcf`).
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
        One row per (ASV system, CM system, split): ``asv_system, cm_system, split,
        n_target, n_nontarget, n_spoof, teer`` (a rate, not a percentage),
        ``asv_threshold, cm_threshold`` (accept iff score ``>=`` them), the ASV's
        ``asv_pmiss, asv_pfa, asv_pfa_spoof`` and the CM's ``cm_pmiss, cm_pfa`` there.

    Raises
    ------
    SchemaError
        As :func:`tdcf`.
    ValueError
        A group whose t-EER is undefined (no ASV threshold that accepts spoofs has a miss
        rate below its false-alarm rates' mean).

    References
    ----------
    Kinnunen, T. H., Lee, K. A., Tak, H., Evans, N., & Nautsch, A. (2023). t-EER:
    parameter-free tandem evaluation of countermeasures and biometric comparators.
    *IEEE Transactions on Pattern Analysis and Machine Intelligence, 46*\(5), 2622–2637.

    Examples
    --------
    >>> r = pbs.teer(pbs.datasets.example_tandem())
    >>> r[["cm_system", "split", "teer", "asv_threshold", "cm_threshold"]].round(4)
      cm_system split    teer  asv_threshold  cm_threshold
    0      cm_a   dev  0.1228        -0.3640        0.0010
    1      cm_a  eval  0.1056        -0.1580       -0.2290
    2      cm_b   dev  0.1844        -0.7925        0.0515
    3      cm_b  eval  0.1753        -0.5720        0.0315
    """
    data = expand_counts(data, count, trial=trial)
    table = validate_tandem(data, asv_system=asv_system, cm_system=cm_system, trial=trial,
                            kind=kind, scores={"asv": asv_score, "cm": cm_score}, split=split,
                            subject=None)
    rows = []
    for g in table.groups:
        assert isinstance(g, TandemGroup)  # validate_tandem's groups
        p = in_group(g, table.split_column, teer_kernel, g.of("asv", 0), g.of("asv", 1),
                     g.of("asv", 2), g.bonafide_cm, g.of("cm", 2))
        rows.append(dict(**g.counts, teer=p.teer, asv_threshold=p.asv_threshold,
                         cm_threshold=p.cm_threshold, asv_pmiss=p.pmiss_asv, asv_pfa=p.pfa_asv,
                         asv_pfa_spoof=p.pfa_spoof_asv, cm_pmiss=p.pmiss_cm, cm_pfa=p.pfa_cm))
    return tandem_frame(table, table.groups, rows, TEER_COLUMNS[3:])
