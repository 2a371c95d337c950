"""Per-system error-rate frames: tidy trial table in, one row per system out.

Every function here validates the table through :mod:`pandas_biosig._core.schema`, builds one
sorted sweep per (``by`` group, system, split) and reads every number off it
(:mod:`pandas_biosig._kernels.rates`).  Result frames have a plain ``RangeIndex``, the
``by`` columns first, then ``system`` and ``split`` (``None`` when the table has no split
column), and a fixed list of columns that never depends on the arguments.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Literal

import numpy as np
import pandas as pd

from .._core.criteria import (
    best_hter_and_dcf,
    bounded_point,
    eer_candidates,
    eer_point,
    eer_point_of_scores,
    min_dcf_point,
)
from .._core.frames import group_sweep, orientation_sign, rates_row, result_frame
from .._core.options import Criterion, EERMethod, NonFinite, Orientation
from .._core.protocol import AUTO, Protocol
from .._core.schema import check_option, validate_trials
from .._core.segmented import (
    dcf_frame,
    eer_frame,
    error_rates_frame,
    summary_frame,
    uses_engine,
)
from .._core.validation import ERROR_COSTS, check_costs
from .._kernels.rates import interpolated_eer
from ._llr import llr_columns, not_llr, warn_not_llr

__all__ = ['dcf', 'eer', 'error_rates', 'summary', 'EER_METHODS']

#: EER definitions (SPEC §2).
EER_METHODS = {
    "rocch": "EER of the ROC convex hull (BOSARIS / pyllr)",
    "interpolated": "crossing of the piecewise-linear (FAR, FRR) curve with FAR = FRR",
    "threshold": "bob.measure: the candidate threshold minimizing |FAR - FRR|, (FAR+FRR)/2 there",
}

ERROR_BAYES_DISTANCE = (
    "threshold='bayes' reads scores as log-likelihood ratios, which distances are not; "
    "pass a number or a criterion"
)

ERROR_RATE_COLUMNS = [
    "system",
    "split",
    "criterion",
    "threshold_split",
    "threshold_from",
    "weight",
    "target",
    "threshold",
    "n_genuine",
    "n_impostor",
    "fa",
    "fr",
    "far",
    "frr",
    "hter",
    "error_rate",
    "fta",
    "fmr",
    "fnmr",
    "resample",
]
EER_COLUMNS = ["system", "split", "n_genuine", "n_impostor", "method", "eer", "threshold", "far", "frr"]
DCF_COLUMNS = [
    "system",
    "split",
    "p_target",
    "c_miss",
    "c_fa",
    "criterion",
    "threshold_from",
    "threshold",
    "far",
    "frr",
    "act_dcf",
    "min_dcf",
    "min_dcf_threshold",
    "dcf_loss",
    "not_llr",
    "resample",
]
SUMMARY_COLUMNS = [
    "system",
    "split",
    "n_genuine",
    "n_impostor",
    "eer_rocch",
    "eer_threshold",
    "threshold",
    "auc",
    "min_hter",
    "fmr100",
    "fmr1000",
    "zero_fmr",
    "zero_fnmr",
    "min_dcf",
    "p_target",
    "c_miss",
    "c_fa",
    "cllr",
    "min_cllr",
    "d_prime",
    "act_dcf",
    "dcf_loss",
    "cllr_loss",
    "not_llr",
]


# ----------------------------------------------------------------------------- helpers
def _cost_arrays(p_target, c_miss, c_fa) -> tuple[np.ndarray, ...]:
    """The costs as broadcast float arrays; anything but real numbers is ERROR_COSTS."""
    try:
        arrays = [np.atleast_1d(np.asarray(v)) for v in (p_target, c_miss, c_fa)]
        if any(a.dtype.kind not in "iuf" or a.ndim != 1 for a in arrays):
            raise ValueError(ERROR_COSTS)
        return np.broadcast_arrays(*(a.astype(float) for a in arrays))
    except (TypeError, ValueError):
        raise ValueError(ERROR_COSTS) from None


# ----------------------------------------------------------------------------- public API
def eer(
    data: pd.DataFrame,
    /,
    *,
    method: EERMethod = "threshold",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Equal error rate of every system.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table, one row per (system, trial) with columns ``system, trial, label,
        score`` (names set by the keywords below) and optionally ``split``.
    method : {"threshold", "rocch", "interpolated"}, default "threshold"
        ``"threshold"``: bob.measure's EER, (FAR + FRR) / 2 at the candidate threshold
        minimizing :math:`|FAR - FRR|` (the default: its bootstrap interval keeps its
        95 %, see ``docs/methods.md``); ``"rocch"``: EER of the ROC convex hull (BOSARIS,
        pyllr; biased low on small sets); ``"interpolated"``: where the piecewise-linear
        (FAR, FRR) curve crosses FAR = FRR.
    by : str or list of str, optional
        Extra grouping columns (protocol, condition...): one row per group and system.
    system, trial, label, score, split : str
        Column names. ``split`` is used when the column exists (one row per split).
    orientation : {"similarity", "distance"}
        ``"distance"``: lower scores are more genuine; thresholds are reported in the
        score's own units and a trial is accepted iff ``score <= threshold``.
    nonfinite : {"raise", "drop", "reject"}
        What to do with NaN/inf scores: raise, drop the trials, or count them as failures
        to acquire (FTA) as bob.measure does: every quantity here is computed on the
        acquired (finite) scores, and :func:`error_rates` adds the pooled FTA to its
        ``far`` and ``frr`` (see docs/methods.md, "Failures to acquire").
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per system (and ``by`` group and split), with columns

        - ``system``, ``split``: the group (``split`` is None without a split column);
        - ``n_genuine``, ``n_impostor``: trial counts;
        - ``method``: the EER definition used;
        - ``eer``: the equal error rate, a fraction in [0, 1];
        - ``threshold``, ``far``, ``frr``: the achievable operating point nearest to equal
          error (bob.measure's EER threshold, whatever ``method``), and its rates.

    Raises
    ------
    SchemaError
        Missing columns, unknown labels, non-finite scores, a one-class system,
        duplicate trials or an empty table.

    See Also
    --------
    summary, error_rates

    Notes
    -----
    With :math:`FAR(\theta)` and :math:`FRR(\theta)` the rates at threshold
    :math:`\theta` (accept iff score :math:`\ge \theta`), the ROCCH-EER equals
    :math:`\max_\pi \min_\theta [\pi FRR(\theta) + (1-\pi) FAR(\theta)]` (Brümmer's
    Bayes-error view); the threshold EER is :math:`(FAR + FRR)/2` at
    :math:`\arg\min_\theta |FAR - FRR|`.

    References
    ----------
    Brümmer, N., & de Villiers, E. (2011). The BOSARIS toolkit user guide.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> pbs.eer(trials, method="threshold").round(3)[["system", "split", "eer", "threshold"]].head(2)
      system split    eer  threshold
    0    cnn   dev  0.042     -0.211
    1    cnn  eval  0.054      0.144
    >>> pbs.eer(trials, method="rocch").eer.round(4).tolist()[:2]  # ROC convex hull
    [0.0402, 0.0494]

    Counted trials, each row standing for ``count`` identical ones (counted by hand: at
    the threshold 0.45, 2 of the 6 impostor trials are accepted and 1 of the 4 genuine
    ones rejected, so the EER is (2/6 + 1/4) / 2):

    >>> counted = pd.DataFrame({"system": "s", "trial": [1, 2, 3, 4], "label": [1, 1, 0, 0],
    ...                         "score": [0.9, 0.4, 0.5, 0.1], "count": [3, 1, 2, 4]})
    >>> pbs.eer(counted, count="count")[["n_genuine", "n_impostor", "eer", "threshold"]].round(4)
       n_genuine  n_impostor     eer  threshold
    0          4           6  0.2917       0.45
    """
    check_option(method, EER_METHODS, "method")
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite, count=count,
    )
    if uses_engine(trials):  # many groups: one sort for all
        return eer_frame(trials, method, EER_COLUMNS)
    sign = orientation_sign(trials)
    rows = []
    for g in trials.groups:
        if method == "rocch" or g.count is not None:  # counted trials: their sweep
            sw = group_sweep(g)
            value, op = eer_point(sw)
            if method == "rocch":
                value = sw.eer_rocch()
            elif method == "interpolated":
                value = sw.eer_interpolated()
        elif method == "interpolated":
            points = eer_candidates(g.scores, g.genuine)
            _, op = eer_point_of_scores(g.scores, g.genuine, points)
            value = interpolated_eer(*points)
        else:  # two operating points suffice: found by selection, without a sort
            value, op = eer_point_of_scores(g.scores, g.genuine)
        rows.append(
            dict(
                n_genuine=op.p,
                n_impostor=op.n,
                method=method,
                eer=value,
                threshold=sign * op.threshold,
                far=op.far,
                frr=op.frr,
            )
        )
    return result_frame(trials, trials.groups, rows, EER_COLUMNS)


def error_rates(
    data: pd.DataFrame,
    /,
    *,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""False acceptance and rejection counts and rates at a threshold policy.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`eer`).
    threshold : criterion name, number or mapping
        A number (one threshold for all systems), a mapping ``{system: threshold}``, or a
        criterion that chooses each system's threshold from its scores:

        - ``"eer"``: minimize :math:`|FAR - FRR|` (bob.measure);
        - ``"min_hter"``: minimize :math:`(FAR + FRR)/2`;
        - ``"min_weighted"``: minimize :math:`w \cdot FAR + (1-w) \cdot FRR`, ``w = weight``;
        - ``"far"``: the lowest threshold with :math:`FAR \le` ``target`` (at most, never
          "nearest"), which gives the smallest FRR at that bound (bob.measure's
          ``far_threshold``);
        - ``"frr"``: the highest threshold with :math:`FRR \le` ``target``, which gives the
          smallest FAR at that bound (bob.measure's ``frr_threshold``); NaN, with a
          ``BiosigWarning``, when the failures to acquire alone exceed the target;
        - ``"min_dcf"``: minimize the detection cost for ``p_target, c_miss, c_fa``.

        Candidate thresholds follow bob.measure (SPEC §2): midpoints between consecutive
        distinct scores. For the minimized criteria (``"eer"``, ``"min_hter"``,
        ``"min_weighted"``, ``"min_dcf"``) equal criterion values go to the smaller
        FAR + FRR, then to the higher threshold; ``"far"`` and ``"frr"`` have no ties to
        break (the lowest, resp. highest, threshold reaching the target).
    weight : float
        The weight of ``"min_weighted"``.
    target : float
        The rate bound of ``"far"`` and ``"frr"``.
    p_target, c_miss, c_fa : float
        Prior and costs of ``"min_dcf"``.
    on, apply_to : split value, "auto" or None, default "auto"
        ``on``: the split each criterion's threshold is chosen on, applied to the other
        splits (the a-priori protocol of Bengio & Mariéthoz, 2004); ``apply_to``: the
        splits reported. ``"auto"`` (:mod:`pandas_biosig._core.protocol`): a table with
        dev and eval splits gets thresholds chosen on dev and rates reported on eval, as
        :func:`pandas_biosig.ci` and :func:`pandas_biosig.compare` report them; any other
        table gets each group's threshold from its own trials (a posteriori, optimistic;
        ``threshold_from`` says ``"same trials"``). ``on=None, apply_to=None`` asks for the
        a-posteriori rates of every split.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`eer`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per reported group with columns

        - ``system``, ``split``: the group the rates are measured on;
        - ``criterion``: the criterion name, or ``"fixed"`` for given thresholds;
        - ``threshold_split``: the split the threshold was chosen on;
        - ``threshold_from``: where the threshold came from: that split, ``"same trials"``
          (chosen on the reported trials themselves) or ``"fixed"``;
        - ``weight``: the weight minimized (``min_hter``: 0.5; ``min_dcf``: the equivalent
          :math:`c_{fa}(1-p)/(c_{miss} p + c_{fa}(1-p))`), NaN otherwise;
        - ``target``: the rate bound of ``far``/``frr``, NaN otherwise;
        - ``threshold``: the threshold applied, in score units;
        - ``n_genuine``, ``n_impostor``: all trials of the group, failures to acquire
          included; ``fa``, ``fr``: false acceptances and rejections among the acquired
          trials;
        - ``far``, ``frr``, ``hter`` = (far + frr)/2, ``error_rate`` = (far·n_impostor +
          frr·n_genuine)/(n_impostor + n_genuine), i.e. (fa + fr)/(n_genuine + n_impostor)
          without failures to acquire (fractions);
        - ``fta``: the failure-to-acquire rate, failures of both classes over all trials
          (0 unless ``nonfinite="reject"``); ``fmr``, ``fnmr``: fa and fr over the acquired
          impostor and genuine trials. bob.measure and ISO/IEC 19795-1 pool one FTA:
          ``far`` = fmr·(1 − fta), ``frr`` = fta + fnmr·(1 − fta). The threshold is chosen
          on fmr and fnmr. Without failures ``far`` = ``fmr`` and ``frr`` = ``fnmr``.
        - ``resample``: None (nothing is resampled here; the column is shared with
          :func:`pandas_biosig.bootstrap` and :func:`pandas_biosig.ci`).

    Raises
    ------
    SchemaError
        Invalid table, or a split named by ``on``/``apply_to`` that does not exist.
    ValueError
        An unknown criterion, a missing ``target`` or an out-of-range parameter.

    See Also
    --------
    eer, dcf

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. Proceedings of Odyssey 2004.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> er = pbs.error_rates(trials, threshold="eer", on="dev", apply_to="eval")
    >>> er[["system", "split", "threshold_split", "far", "frr", "hter"]].round(3)
         system split threshold_split    far    frr   hter
    0       cnn  eval             dev  0.0...
    """
    check_costs(p_target, c_miss, c_fa)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite, count=count,
    )
    sign = orientation_sign(trials)
    groups, rows = [], []
    protocol = Protocol(threshold=threshold, weight=weight, target=target, p_target=p_target,
                        c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to)
    if uses_engine(trials):
        return error_rates_frame(trials, protocol, ERROR_RATE_COLUMNS)
    for r in protocol.resolve(trials):
        g, sw, t = r.group, r.sweep, r.threshold
        row = dict(
            criterion=r.criterion,
            threshold_split=r.threshold_split,
            threshold_from=r.threshold_from,
            weight=r.weight,
            target=r.target,
            threshold=sign * t,
            resample=r.resample,
        )
        row.update(rates_row(sw, t, g.fta))
        groups.append(g)
        rows.append(row)
    return result_frame(trials, groups, rows, ERROR_RATE_COLUMNS)


def dcf(
    data: pd.DataFrame,
    /,
    *,
    p_target: float | Sequence[float] = 0.01,
    c_miss: float | Sequence[float] = 1.0,
    c_fa: float | Sequence[float] = 1.0,
    threshold: Criterion | Literal["bayes"] | float | Mapping[Hashable, float] = "bayes",
    weight: float = 0.5,
    target: float | None = None,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Normalized detection cost: minimum (minDCF) and actual (actDCF), per operating point.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`eer`).
    p_target, c_miss, c_fa : float or sequence of float
        One or several operating points; sequences are broadcast together and give one
        row per system and operating point.
    threshold : "bayes", criterion name, number or mapping
        The threshold of actDCF. ``"bayes"`` (default) reads scores as natural-log
        likelihood ratios and uses the Bayes decision threshold
        :math:`\log\frac{c_{fa}(1-p)}{c_{miss}\,p}`; any other value works as in
        :func:`error_rates` (a criterion is evaluated at each operating point, with
        ``"min_dcf"`` using that operating point's costs).
    weight, target : float
        The weight of ``threshold="min_weighted"`` and the rate bound of ``"far"`` /
        ``"frr"``, as in :func:`error_rates`.
    on, apply_to, by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`error_rates`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        Columns ``system, split, p_target, c_miss, c_fa, criterion, threshold_from,
        threshold, far, frr, act_dcf, min_dcf, min_dcf_threshold, dcf_loss, not_llr,
        resample``: the actual DCF at ``threshold`` (with its FAR and FRR;
        ``threshold_from`` as in :func:`error_rates`, ``"fixed"`` for the Bayes threshold),
        the minimum over all thresholds and the threshold that reaches it; ``resample`` None
        (nothing is resampled). Both costs are normalized by
        :math:`\min(c_{miss} p, c_{fa} (1-p))`, so 1 is the cost of the best decision that
        ignores the scores. ``dcf_loss`` = ``act_dcf - min_dcf``: with the Bayes threshold,
        the **calibration loss** (what reading the scores as LLRs costs over the best
        threshold); with another threshold policy, what that policy costs. ``not_llr``:
        the scores cannot be calibrated log-likelihood ratios (the rule of
        ``docs/calibration.md``, "Scores that cannot be LLRs"; always True for distances),
        so their actual DCF at the Bayes threshold says little.

    Warns
    -----
    BiosigWarning
        Once per call, when ``threshold="bayes"`` reads scores that cannot be LLRs as
        LLRs (``not_llr``): calibrate them first (:func:`pandas_biosig.calibrate`).

    See Also
    --------
    error_rates, summary

    Notes
    -----
    .. math::

        DCF(\theta) = \frac{c_{miss}\,p\,FRR(\theta) + c_{fa}\,(1-p)\,FAR(\theta)}
                           {\min(c_{miss}\,p,\; c_{fa}\,(1-p))}

    References
    ----------
    NIST (2012). The NIST year 2012 speaker recognition evaluation plan.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> pbs.dcf(trials, p_target=[0.01, 0.1])[["system", "split", "p_target", "min_dcf"]].head(2)
      system split  p_target   min_dcf
    0    cnn   dev      0.01  0...
    1    cnn   dev      0.10  0...
    """
    pt, cm, cf = _cost_arrays(p_target, c_miss, c_fa)
    for a, b, c in zip(pt, cm, cf, strict=True):
        check_costs(a, b, c)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite, count=count,
    )
    if threshold == "bayes" and trials.orientation == "distance":
        raise ValueError(ERROR_BAYES_DISTANCE)
    if uses_engine(trials):
        options = dict(threshold=threshold, weight=weight, target=target, on=on,
                       apply_to=apply_to)
        out = dcf_frame(trials, list(zip(pt, cm, cf, strict=True)), options, DCF_COLUMNS)
        if threshold == "bayes":  # actual costs read the scores as LLRs
            warn_not_llr(out["system"][out["not_llr"]].tolist())
        return out
    sign = orientation_sign(trials)
    groups, rows = [], []
    flags: dict[int, bool] = {}  # not_llr of each group, checked once
    for a, b, c in zip(pt, cm, cf, strict=True):
        bayes = {"bayes": lambda g, a=a, b=b, c=c: float(np.log(c * (1 - a) / (b * a)))}
        norm = min(b * a, c * (1 - a))
        protocol = Protocol(threshold=threshold, weight=weight, target=target, p_target=a,
                            c_miss=b, c_fa=c, on=on, apply_to=apply_to)
        for r in protocol.resolve(trials, named=bayes):
            g, sw, t, crit = r.group, r.sweep, r.threshold, r.criterion
            rates = rates_row(sw, t)
            min_cost, op = min_dcf_point(sw, a, b, c)
            if id(g) not in flags:
                flags[id(g)] = not_llr(sw, similarity=sign > 0)
            act = (b * a * rates["frr"] + c * (1 - a) * rates["far"]) / norm
            rows.append(
                dict(
                    p_target=a,
                    c_miss=b,
                    c_fa=c,
                    criterion=crit,
                    threshold_from=r.threshold_from,
                    threshold=sign * t,
                    far=rates["far"],
                    frr=rates["frr"],
                    act_dcf=act,
                    min_dcf=min_cost / norm,
                    min_dcf_threshold=sign * op.threshold,
                    dcf_loss=act - min_cost / norm,
                    not_llr=flags[id(g)],
                    resample=r.resample,
                )
            )
            groups.append(g)
    if threshold == "bayes":  # actual costs read the scores as LLRs
        warn_not_llr([g.system for g in trials.groups if flags.get(id(g))])
    out = result_frame(trials, groups, rows, DCF_COLUMNS)
    # group the operating points of one system together, systems in input order
    order = {id(g): i for i, g in enumerate(trials.groups)}
    pos = np.argsort([order[id(g)] for g in groups], kind="stable")
    return out.iloc[pos].reset_index(drop=True)


def summary(
    data: pd.DataFrame,
    /,
    *,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""The headline numbers of every system, one row each, from one sorted sweep.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`eer`).
    p_target, c_miss, c_fa : float
        Operating point of ``min_dcf`` (default: NIST SRE 2012-2021 primary,
        :math:`p = 0.01`, unit costs).
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`eer`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per system (and ``by`` group and split); rates are fractions:

        - ``n_genuine``, ``n_impostor``;
        - ``eer_rocch``: EER of the ROC convex hull;
        - ``eer_threshold``: bob.measure's EER, at ``threshold``;
        - ``auc``: area under the ROC, ties counted half (Mann-Whitney);
        - ``min_hter``: the smallest (FAR + FRR)/2 over thresholds;
        - ``fmr100``, ``fmr1000``: the smallest FRR (FNMR) with FAR (FMR) at most 1 % and
          0.1 % — the ROC's own value, not a threshold at an impostor score;
        - ``zero_fmr``: the smallest FRR with no false acceptance; ``zero_fnmr``: the
          smallest FAR with no false rejection;
        - ``min_dcf`` (normalized) with its ``p_target``, ``c_miss``, ``c_fa``;
        - ``cllr``: the log-likelihood-ratio cost in bits, reading scores as natural-log
          likelihood ratios (NaN for distances, which are not); ``min_cllr``: the same after the optimal monotone calibration
          (PAV);
        - ``d_prime``: :math:`|\mu_g - \mu_i| / \sqrt{(\sigma_g^2 + \sigma_i^2)/2}`
          (population variances);
        - ``act_dcf``: the normalized DCF at the Bayes threshold
          :math:`\log\frac{c_{fa}(1-p)}{c_{miss}\,p}`, scores read as natural-log
          likelihood ratios (NaN for distances), as :func:`dcf` computes it;
        - ``dcf_loss`` = ``act_dcf - min_dcf`` and ``cllr_loss`` = ``cllr - min_cllr``:
          the **calibration loss** (Brümmer), what reading the scores as LLRs costs over
          the best monotone recalibration;
        - ``not_llr``: the scores cannot be calibrated log-likelihood ratios (the rule of
          ``docs/calibration.md``, "Scores that cannot be LLRs"; always True for
          distances): ``act_dcf``, ``cllr`` and the losses then say little.

    Warns
    -----
    BiosigWarning
        Once per call, naming the systems whose (similarity) scores cannot be LLRs:
        calibrate them first (:func:`pandas_biosig.calibrate`).

    See Also
    --------
    eer, error_rates, dcf

    Notes
    -----
    .. math::

        C_{llr} = \frac{1}{2\log 2}\Big[\frac{1}{N_g}\sum_{g}\log(1+e^{-s_g})
                 + \frac{1}{N_i}\sum_{i}\log(1+e^{s_i})\Big]

    References
    ----------
    Brümmer, N., & du Preez, J. (2006). Application-independent evaluation of speaker
    detection. Computer Speech & Language, 20(2-3), 230-275.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> s = pbs.summary(trials)
    >>> list(s.columns[:6])
    ['system', 'split', 'n_genuine', 'n_impostor', 'eer_rocch', 'eer_threshold']

    Compare with scikit-learn: ``roc_auc_score(label, score)`` gives the same ``auc``.
    """
    check_costs(p_target, c_miss, c_fa)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite, count=count,
    )
    if uses_engine(trials):
        out = summary_frame(trials, p_target, c_miss, c_fa, SUMMARY_COLUMNS)
        if trials.orientation != "distance":
            warn_not_llr(out["system"][out["not_llr"]].tolist())
        return out
    sign = orientation_sign(trials)
    norm = min(c_miss * p_target, c_fa * (1 - p_target))
    rows = []
    for g in trials.groups:
        sw = group_sweep(g)
        eer_t, op = eer_point(sw)
        zero_fnmr = bounded_point(sw, "frr", 0.0)
        best_hter, min_cost = best_hter_and_dcf(sw, p_target, c_miss, c_fa)
        min_cllr = sw.min_cllr()  # pools the hull once: eer_rocch reads the same blocks
        cllr = sw.cllr() if sign > 0 else float("nan")
        rows.append(
            dict(
                n_genuine=sw.p,
                n_impostor=sw.n,
                eer_rocch=sw.eer_rocch(),
                eer_threshold=eer_t,
                threshold=sign * op.threshold,
                auc=sw.auc(),
                min_hter=(best_hter.far + best_hter.frr) / 2,
                fmr100=bounded_point(sw, "far", 0.01).frr,
                fmr1000=bounded_point(sw, "far", 0.001).frr,
                zero_fmr=bounded_point(sw, "far", 0.0).frr,
                zero_fnmr=float("nan") if zero_fnmr is None else zero_fnmr.far,
                min_dcf=min_cost / norm,
                p_target=p_target,
                c_miss=c_miss,
                c_fa=c_fa,
                cllr=cllr,
                min_cllr=min_cllr,
                d_prime=sw.d_prime(),
                **llr_columns(sw, cllr=cllr, min_cllr=min_cllr, min_dcf=min_cost / norm,
                              p_target=p_target, c_miss=c_miss, c_fa=c_fa,
                              similarity=sign > 0),
            )
        )
    if sign > 0:
        warn_not_llr([g.system for g, r in zip(trials.groups, rows, strict=True) if r["not_llr"]])
    return result_frame(trials, trials.groups, rows, SUMMARY_COLUMNS)
