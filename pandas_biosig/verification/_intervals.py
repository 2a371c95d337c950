r"""The DataFrame significance layer: intervals per system (:func:`ci`), and the home of
the names of the pairwise tables.

Tidy trial table in, long tidy table out. The scalar formulas live in
:mod:`pandas_biosig.stats`, thresholds in :mod:`pandas_biosig._core.protocol` and the bootstrap in
:mod:`pandas_biosig.verification._resampling`. One idea per module:

=======================================  ==================================================
:func:`ci` (here)                        FAR, FRR (binomial), HTER (Bengio & Mariéthoz eq.
                                         13), DCF (eq. 14) intervals per system
:mod:`pandas_biosig.verification._comparison`          :func:`compare`: every pair of systems (or every
                                         system against a baseline), adjusted per family
:mod:`pandas_biosig._core.pairwise`           pairs, families, adjustment and
                                         :func:`pairwise_matrix`, the k × k view
:mod:`pandas_biosig.verification._folds`               :func:`fold_metrics`, :func:`fold_summary`,
                                         :func:`compare_folds` (repeated runs)
:mod:`pandas_biosig.verification._literature`          :func:`eer_bound_table`: pairwise Hofbauer & Uhl
                                         bounds from reported EERs
=======================================  ==================================================

Their public names stay importable from here. A **family** of tests is one (``by`` group,
split): the rows of the returned table that share those values. Multiple-comparison
adjustment (statsmodels ``multipletests``) runs once per family, over exactly those rows.

Invalid options raise ``ValueError`` with one of the ``ERROR_*`` messages of this module;
invalid tables raise :class:`~pandas_biosig.SchemaError`.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from .. import stats
from .._core.counted import expand_counts
from .._core.options import (
    CIMetric,
    Combine,
    Criterion,
    NonFinite,
    Orientation,
    ResampleOption,
)
from .._core.pairwise import (
    SIGNED_STATISTIC,
)
from .._core.protocol import AUTO, PEOPLE, RESAMPLE, Protocol, group_where, people
from .._core.schema import Group, Trials, check_option, validate_trials

# The pairwise tables, the repeated runs and literature mode live in their own modules;
# their public names stay reachable here (and through the top-level package).
from .._core.validation import (
    check_confidence_level,
    check_costs,
)
from .._kernels.cluster import ClusterDesign, cluster_design
from .._kernels.mover import mover_sum
from ..stats._common import RateCIMethod

__all__ = ['CI_COLUMNS', 'CI_COMBINE', 'CI_METRICS', 'ci']

# --------------------------------------------------------------------------- options

#: Interval metrics of :func:`ci`.
CI_METRICS: dict[str, str] = {
    "far": "false acceptance rate FA/NI, binomial interval (statsmodels proportion_confint)",
    "frr": "false rejection rate FR/NC, binomial interval (statsmodels proportion_confint)",
    "hter": "(FAR + FRR)/2, MOVER of the FAR and FRR intervals (or eq. 13 of Bengio & Mariethoz)",
    "dcf": "normalized actual DCF at the threshold, MOVER (or the normal interval, generalized eq. 14)",
}

#: How :func:`ci` builds the HTER and DCF intervals from the FAR and FRR.
CI_COMBINE: dict[str, str] = {
    "mover": "MOVER (Zou & Donner): the binomial intervals of FAR and FRR (ci_method=) combined",
    "bengio": "normal interval of Bengio & Mariethoz eq. 13/14 (too narrow at low error rates)",
}

#: Tests whose ``statistic`` is a signed z (it changes sign when A and B are swapped).
_SIGNED_STATISTIC = SIGNED_STATISTIC



# --------------------------------------------------------------------------- messages







# --------------------------------------------------------------------------- columns

#: Columns of :func:`ci` (after the ``by`` columns); the shared names mean what they mean
#: in :data:`pandas_biosig.verification.BOOTSTRAP_COLUMNS`, so the two tables concatenate.
CI_COLUMNS = [
    "system",
    "split",
    "metric",
    "estimate",
    "se",
    "ci_low",
    "ci_high",
    "confidence_level",
    "ci_method",
    "threshold",
    "criterion",
    "threshold_split",
    "threshold_from",
    "weight",
    "target",
    "resample",
    "n_genuine",
    "n_impostor",
    "p_target",
    "c_miss",
    "c_fa",
]

# --------------------------------------------------------------------------- validation


# --------------------------------------------------------------------------- protocol






# --------------------------------------------------------------------------- alignment






# --------------------------------------------------------------------------- one pair








# --------------------------------------------------------------------------- ci


def ci(
    data: pd.DataFrame,
    /,
    *,
    metric: CIMetric | Sequence[CIMetric] = ("far", "frr", "hter", "dcf"),
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    confidence_level: float = 0.95,
    ci_method: RateCIMethod = "beta",
    combine: Combine = "mover",
    resample: ResampleOption = "auto",
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Confidence intervals of FAR, FRR, HTER and DCF for every system.

    Each system's threshold is set by a threshold policy (as in
    :func:`pandas_biosig.error_rates`), then the error counts at that threshold give the
    intervals: binomial for FAR and FRR (Clopper–Pearson by default), and for HTER and DCF
    the MOVER combination of those two intervals (default) or the normal interval of
    Bengio & Mariéthoz (2004) eq. 13/14. When the table has a ``subject`` column the
    trials are not taken as independent: each class's count is shrunk to its effective
    sample size (design effect of the per-subject errors, Korn & Graubard 1998) first.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table, one row per (system, trial) with columns ``system, trial, label,
        score`` (names set by the keywords below) and optionally ``split`` and ``subject``.
    metric : str or sequence of str, default ("far", "frr", "hter", "dcf")
        The metrics, one row each (see :data:`CI_METRICS`): ``"far"`` and ``"frr"``
        (binomial interval), ``"hter"`` (eq. 13), ``"dcf"`` (the actual DCF at the threshold,
        normalized as in :func:`pandas_biosig.dcf`, generalized eq. 14).
    threshold : criterion name, number or mapping, default "eer"
        The threshold policy of :func:`pandas_biosig.error_rates`: a number, a mapping
        ``{system: threshold}`` or a criterion (``"eer"``, ``"min_hter"``,
        ``"min_weighted"``, ``"far"``, ``"frr"``, ``"min_dcf"``). All metrics of a system
        are read at the same threshold.
    weight, target : float
        Parameters of the ``"min_weighted"`` and ``"far"``/``"frr"`` criteria.
    on, apply_to : split value, "auto" or None, default "auto"
        The split the thresholds are chosen on and the split(s) reported. ``"auto"``: a
        table with dev and eval splits gets a-priori thresholds, chosen on dev and reported
        on eval; otherwise each group chooses on its own trials (``threshold_from`` says
        ``"same trials"``, and the estimate is optimistic). See
        :mod:`pandas_biosig._core.protocol`.
    confidence_level : float, default 0.95
        Two-sided level of every interval.
    ci_method : str, default "beta"
        The binomial interval of FAR and FRR: statsmodels' ``proportion_confint`` method
        (``"beta"`` = Clopper–Pearson, ``"wilson"``, ``"normal"``, ``"agresti_coull"``,
        ``"jeffreys"``, ``"binom_test"``), passed through unchanged. Clopper–Pearson is the
        default because it never covers less than the level; Wilson covers only 0.90 at
        FAR = 0.1 % with 100 trials (exact enumeration).
    combine : {"mover", "bengio"}, default "mover"
        The HTER and DCF intervals. ``"mover"``: the MOVER interval (Zou & Donner 2008)
        built from the ``ci_method`` intervals of FAR and FRR; with Clopper–Pearson it covers
        at least 0.95 over error rates 0.1 %–20 %, 100–10,000 genuine trials and 1–10
        impostors per genuine trial (exact enumeration; ``tests/test_protocol.py``).
        ``"bengio"``: the normal interval of eq. 13/14, which is too narrow at low error
        rates (coverage 0.71 at FAR = FRR = 1 % with 100 genuine and 1,000 impostor trials,
        0.67 at 0.1 %; width 0 at zero errors) and fine from a few dozen errors per class
        (0.948 at 1 % with 10,000 genuine trials).
    resample : {"auto", "subject", "label", "trial"}, default "auto"
        The unit the trials' dependence is accounted for in. ``"subject"`` (the default
        when the table has a ``subject`` column): FAR and FRR are computed on effective
        counts :math:`x^* = \hat p\,n^*`, :math:`n^* = \frac{N}{d}\,(t_{N-1}/t_{k-1})^2`,
        where ``d`` is the design effect (the cluster-robust variance of the rate over its
        binomial variance, floored at 1) and ``k`` the number of subjects of the class
        (Korn & Graubard 1998); the HTER and DCF intervals combine those. With subject
        effects (s.d. 0.5, 100 subjects) this covers 0.95 where the trial-level interval
        covers 0.73 (``docs/validity.md``); without them it is the trial-level interval
        up to the degrees-of-freedom factor. Missing subject ids and groups of one subject
        raise. ``"label"`` (or ``"trial"``, the same here): the trials are independent (the
        only choice without a subject column).
    p_target, c_miss, c_fa : float
        Prior and costs of the DCF (and of the ``"min_dcf"`` criterion).
    by : str or list of str, optional
        Extra grouping columns: one row per group, system, split and metric.
    system, trial, label, score, split, subject : str
        Column names (``subject``: read only when the column exists).
    orientation : {"similarity", "distance"}
        ``"distance"``: lower scores are more genuine; thresholds are in the score's units.
    nonfinite : {"raise", "drop", "reject"}
        NaN/inf scores: raise, drop the trials, or count them as failures to acquire
        (tests then compare the trials both systems acquired; see docs/methods.md).
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, split, metric), the ``by`` columns first, then

        - ``system``, ``split``: the group (``split`` is None without a split column);
        - ``metric``: ``"far"``, ``"frr"``, ``"hter"`` or ``"dcf"``;
        - ``estimate``: the metric at the threshold (a fraction; DCF normalized);
        - ``se``: its standard error — :math:`\sqrt{p(1-p)/n}` for FAR/FRR, σ below for
          HTER and DCF (``n`` the effective size under subject clustering);
        - ``ci_low``, ``ci_high``: the interval bounds (with ``combine="bengio"`` not
          clipped to [0, 1], so the width is exactly :math:`2 z \sigma` as in the paper's
          tables);
        - ``confidence_level``;
        - ``ci_method``: the binomial method (``"beta"``…) for FAR/FRR; for HTER and DCF
          ``"mover-<method>"`` or ``"bengio"``; with ``"-deff"`` appended when the
          counts were shrunk by the subjects' design effect;
        - ``threshold``: the threshold applied, in score units;
        - ``criterion``, ``threshold_split``: how and on which split it was chosen
          (``"fixed"`` and None for given thresholds);
        - ``threshold_from``: the split it was chosen on, ``"same trials"`` or ``"fixed"``;
        - ``weight``, ``target``: the criterion's weight and rate bound, as in
          :func:`pandas_biosig.error_rates` (NaN when the criterion reads none);
        - ``resample``: ``"subject"`` when the interval accounts for subject clusters,
          None when it treats the trials as independent;
        - ``n_genuine``, ``n_impostor``: NC and NI;
        - ``p_target``, ``c_miss``, ``c_fa``: the DCF parameters.

        The names shared with :func:`pandas_biosig.bootstrap` mean the same thing, so
        ``pd.concat([pbs.ci(...), pbs.bootstrap(...)])`` gives one table of intervals.

    Raises
    ------
    SchemaError
        An invalid table, or a split named by ``on``/``apply_to`` that does not exist.
    ValueError
        An unknown metric or ``ci_method`` (:data:`ERROR_OPTION`), ``confidence_level`` outside
        (0, 1) (:data:`ERROR_CONFIDENCE_LEVEL`), an unknown criterion or bad costs.

    See Also
    --------
    pandas_biosig.stats.hter_ci, pandas_biosig.stats.dcf_ci, pandas_biosig.stats.rate_ci :
        the scalar intervals used here.
    pandas_biosig.bootstrap : bootstrap intervals (also for EER, minDCF, AUC...).
    compare : tests between systems.

    Notes
    -----
    With :math:`z = \Phi^{-1}((1+\delta)/2)`, FAR = FA/NI and FRR = FR/NC at the threshold,

    .. math::

        \mathrm{HTER} \pm z\,\sqrt{\frac{\mathrm{FAR}(1-\mathrm{FAR})}{4 N_I}
              + \frac{\mathrm{FRR}(1-\mathrm{FRR})}{4 N_C}}, \qquad
        \mathrm{DCF} \pm \frac{z}{D}\sqrt{\bigl(c_{fa}(1-p)\bigr)^2
              \frac{\mathrm{FAR}(1-\mathrm{FAR})}{N_I}
              + (c_{miss}\,p)^2 \frac{\mathrm{FRR}(1-\mathrm{FRR})}{N_C}}

    with :math:`D = \min(c_{miss}\,p, c_{fa}(1-p))` (``combine="bengio"``). The MOVER
    interval of :math:`\theta = w_1 \mathrm{FAR} + w_2 \mathrm{FRR}` (``w = 1/2`` for
    HTER; :math:`c_{fa}(1-p)/D` and :math:`c_{miss}p/D` for DCF), from the binomial
    intervals :math:`[l_k, u_k]` of the two rates, is

    .. math::

        \Bigl[\hat\theta - \sqrt{\textstyle\sum_k w_k^2(\hat p_k - l_k)^2},\;
              \hat\theta + \sqrt{\textstyle\sum_k w_k^2(u_k - \hat p_k)^2}\Bigr].

    With ``resample="label"`` these intervals treat the trials as independent; when many
    trials share a subject they are then too narrow. The default on a table with subjects
    replaces :math:`N_I, N_C` (and the counts) by the effective sizes above; a subject
    bootstrap (:func:`pandas_biosig.bootstrap`) is the alternative for metrics read over
    all thresholds. A threshold chosen on the same trials (``threshold_from`` is
    ``"same trials"``) makes the estimate optimistic; a-priori thresholds avoid it.

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Zou, G. Y., & Donner, A. (2008). Construction of confidence limits about effect
    measures: A general approach. *Statistics in Medicine, 27*\(10), 1693–1702.

    Brown, L. D., Cai, T. T., & DasGupta, A. (2001). Interval estimation for a binomial
    proportion. *Statistical Science, 16*\(2), 101–133.

    Korn, E. L., & Graubard, B. I. (1998). Confidence intervals for proportions with small
    expected number of positive counts estimated from survey data. *Survey Methodology,
    24*\(2), 193–201.

    Examples
    --------
    The example table has a ``subject`` column; ``resample="label"`` gives the paper's
    trial-level interval:

    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.ci(trials, metric="hter", combine="bengio", resample="label")
    >>> res[["system", "split", "estimate", "ci_low", "ci_high"]].round(4)
        system split  estimate  ci_low  ci_high
    0      cnn  eval    0.0510  0.0376   0.0645
    1  cnn_aug  eval    0.0479  0.0342   0.0616
    2      gmm  eval    0.1005  0.0803   0.1208
    3      lbp  eval    0.1667  0.1415   0.1918

    Compare with the scalar API, fed with the rates of :func:`pandas_biosig.error_rates`:

    >>> er = pbs.error_rates(trials, on="dev", apply_to="eval").iloc[0]
    >>> low, high = pbs.stats.hter_ci(er.far, er.frr, n_impostor=960,
    ...                               n_genuine=240).confidence_interval()
    >>> print(f"{low:.4f} {high:.4f}")
    0.0376 0.0645
    """
    data = expand_counts(data, count, trial=trial)
    metrics = [metric] if isinstance(metric, str) else list(metric)
    for name in metrics:
        check_option(name, CI_METRICS, "metric")
    check_option(ci_method, stats.RATE_CI_METHODS, "ci_method")
    check_option(combine, CI_COMBINE, "combine")
    if resample != AUTO:
        check_option(resample, RESAMPLE, "resample")
    level = check_confidence_level(confidence_level)
    check_costs(p_target, c_miss, c_fa)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
        reference_subject=reference_subject,
    )
    sign = -1.0 if trials.orientation == "distance" else 1.0
    protocol = Protocol(
        threshold=threshold, weight=weight, target=target, p_target=p_target, c_miss=c_miss,
        c_fa=c_fa, on=on, apply_to=apply_to, resample=resample,
    )
    unit = protocol.unit(trials, subject=subject, reference_subject=reference_subject)
    members = protocol.resolve(trials, resample=unit)
    clustered = unit in PEOPLE

    def counts_of(m):
        return tuple(int(v) for v in m.sweep.rates_at_threshold(m.threshold))

    def designs_of(m):
        return _designs(trials, m.group, m.threshold, m.resample)

    rows = ci_rows(members, trials.key_names, counts_of, designs_of if clustered else None,
                   metrics=metrics, ci_method=ci_method, combine=combine, level=level,
                   sign=sign, costs=dict(p_target=p_target, c_miss=c_miss, c_fa=c_fa))
    return pd.DataFrame(rows, columns=[*trials.by, *CI_COLUMNS])


def ci_rows(members, key_names, counts_of, designs_of, *, metrics, ci_method: RateCIMethod,
            combine: str, level: float, sign: float, costs: dict) -> list[dict]:
    """The rows of :func:`ci` for resolved groups, from their counts: ``counts_of(m)``
    gives ``(FA, FR)`` at ``m.threshold``, ``designs_of(m)`` (None: the trials are
    independent) the :class:`~pandas_biosig._kernels.cluster.ClusterDesign` of FAR and of
    FRR there. Shared by the in-memory and the out-of-core :func:`ci`."""
    from scipy.stats import norm

    clustered = designs_of is not None
    suffix = "-deff" if clustered else ""
    z = float(norm.ppf((1 + level) / 2))
    rows = []
    for m in members:
        base = dict(zip(key_names, m.group.key, strict=True))
        base.update(
            confidence_level=level, threshold=sign * m.threshold, criterion=m.criterion,
            threshold_split=m.threshold_split, threshold_from=m.threshold_from,
            weight=m.weight, target=m.target, resample=m.resample if clustered else None,
            n_genuine=m.sweep.p, n_impostor=m.sweep.n, **costs,
        )
        rates = None
        if not math.isnan(m.threshold):
            fa, fr = counts_of(m)
            rates = _rate_intervals((fa, m.sweep.n), (fr, m.sweep.p),
                                    designs_of(m) if clustered else None, ci_method, level)
        for name in metrics:
            row = dict(base, metric=name)
            row["ci_method"] = (
                ci_method + suffix if name in ("far", "frr")
                else ("bengio" if combine == "bengio" else f"mover-{ci_method}") + suffix
            )
            if rates is None:
                row.update(estimate=np.nan, se=np.nan, ci_low=np.nan, ci_high=np.nan)
            else:
                row.update(_metric_interval(name, rates, combine, z, **costs))
            rows.append(row)
    return rows


def _rate_intervals(far_counts: tuple[int, int], frr_counts: tuple[int, int], designs,
                    ci_method: RateCIMethod, level: float):
    """FAR and FRR of one resolved group from their counts ``(errors, trials)``:
    ``((far, frr), (n_fa, n_fr), (far interval, frr interval))``, the sizes effective
    under subject clustering (Korn & Graubard 1998) when ``designs`` (those of FAR and
    FRR) are given."""
    (fa, ni), (fr, nc) = far_counts, frr_counts
    # effective counts (x*, n*) of FAR and FRR: the trials themselves, or with subjects
    # the design-effect sample size
    eff = [(float(fa), float(ni)), (float(fr), float(nc))]
    clustered = designs is not None
    if clustered:
        eff = _effective_counts(designs, (fa, ni), (fr, nc), level)
    parts = [_rate_interval(x, n, ci_method, level, exact=not clustered, counts=c)
             for (x, n), c in zip(eff, ((fa, ni), (fr, nc)), strict=True)]
    return (fa / ni, fr / nc), (eff[0][1], eff[1][1]), parts


def _metric_interval(name: str, rates, combine: str, z: float, *, p_target: float,
                     c_miss: float, c_fa: float) -> dict:
    """``estimate, se, ci_low, ci_high`` of one metric from the FAR and FRR intervals:
    the binomial interval itself, or for HTER and DCF the MOVER / Bengio combination."""
    (far, frr), (n_fa, n_fr), parts = rates
    if name in ("far", "frr"):
        est, n_eff = (far, n_fa) if name == "far" else (frr, n_fr)
        low, high = parts[0] if name == "far" else parts[1]
        return dict(estimate=est, se=math.sqrt(est * (1.0 - est) / n_eff), ci_low=low,
                    ci_high=high)
    if name == "hter":
        w = (0.5, 0.5)
    else:
        norm = min(c_miss * p_target, c_fa * (1 - p_target))
        w = (c_fa * (1 - p_target) / norm, c_miss * p_target / norm)
    est = w[0] * far + w[1] * frr
    se = math.sqrt(w[0] ** 2 * far * (1 - far) / n_fa + w[1] ** 2 * frr * (1 - frr) / n_fr)
    if combine == "mover":
        low, high = mover_sum((far, frr), [p[0] for p in parts], [p[1] for p in parts], w)
    else:
        low, high = est - z * se, est + z * se
    return dict(estimate=est, se=se, ci_low=low, ci_high=high)


def _designs(trials: Trials, g: Group, threshold: float, unit: str) -> list[ClusterDesign]:
    """The designs of FAR and FRR at ``threshold`` when trials share people
    (:func:`._kernels.cluster.cluster_design`): under ``unit="two_way"`` an impostor
    trial belongs to its subject and its reference (the two-way variance); a genuine
    trial to its subject."""
    probe, ref, _ = people(g, unit, group_where(trials, g))
    accepted = g.scores >= threshold
    impostor = ~g.genuine
    return [cluster_design(wrong[cls], probe[cls], None if refs is None else refs[cls])
            for cls, wrong, refs in ((impostor, accepted, ref), (g.genuine, ~accepted, None))]


def _effective_counts(designs, far_counts, frr_counts, level: float) -> list[tuple[float, float]]:
    r"""``[(x*, n*)]`` of FAR and FRR from their designs: the counts divided by each
    class's design effect, with Korn & Graubard's degrees-of-freedom factor
    :math:`(t_{N-1}/t_{\nu})^2`, :math:`\nu` the Satterthwaite degrees of freedom of the
    cluster variance (:math:`K - 1` for K people of equal weight)."""
    from scipy.stats import t as student

    out = []
    for design, (x, n) in zip(designs, (far_counts, frr_counts), strict=True):
        if n == 0 or design.k < 2:
            out.append((float(x), float(n)))
            continue
        q = (1 + level) / 2
        df = (student.ppf(q, max(n - 1, 1)) / student.ppf(q, design.df)) ** 2 if n > 1 else 1.0
        n_eff = min(n / design.deff * df, float(n))
        out.append((x / n * n_eff, n_eff))
    return out


def _rate_interval(x: float, n: float, method: RateCIMethod, level: float, *, exact: bool,
                   counts: tuple[int, int]) -> tuple[float, float]:
    """The ``method`` binomial interval of ``x`` errors in ``n`` trials (effective, possibly
    non-integer counts unless ``exact``); ends at 0 / 1 when no / every trial errs."""
    if exact or method == "binom_test":
        if not exact:  # statsmodels' binomial test needs integer counts
            n_int = max(round(n), 1)
            x, n = min(round(x), n_int), n_int
        else:
            x, n = counts
        r = stats.rate_ci(int(x), int(n), method=method).confidence_interval(
            confidence_level=level)
        return float(r.low), float(r.high)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(x, n, alpha=1 - level, method=method)
    err, total = counts
    return (0.0 if err == 0 else max(float(low), 0.0),
            1.0 if err == total else min(float(high), 1.0))


# --------------------------------------------------------------------------- compare






# --------------------------------------------------------------------------- matrix view


# --------------------------------------------------------------------------- repeated runs














# --------------------------------------------------------------------------- literature
