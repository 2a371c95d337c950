r"""The DataFrame significance layer: intervals per system (:func:`ci`), and the home of
the names of the pairwise tables.

Tidy trial table in, long tidy table out. The scalar formulas live in
:mod:`pandas_biosig.stats`, thresholds in :mod:`pandas_biosig.protocol` and the bootstrap in
:mod:`pandas_biosig.resampling`. One idea per module:

=======================================  ==================================================
:func:`ci` (here)                        FAR, FRR (binomial), HTER (Bengio & Mariéthoz eq.
                                         13), DCF (eq. 14) intervals per system
:mod:`pandas_biosig.comparison`          :func:`compare`: every pair of systems (or every
                                         system against a baseline), adjusted per family
:mod:`pandas_biosig._pairwise`           pairs, families, adjustment and
                                         :func:`pairwise_matrix`, the k × k view
:mod:`pandas_biosig.folds`               :func:`fold_metrics`, :func:`fold_summary`,
                                         :func:`compare_folds` (repeated runs)
:mod:`pandas_biosig.literature`          :func:`eer_bound_table`: pairwise Hofbauer & Uhl
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

from . import stats
from ._kernels.mover import mover_sum
from ._pairwise import (  # noqa: F401
    ADJUST_METHODS,
    ERROR_BASELINE,
    ERROR_MATRIX_COLUMN,
    ERROR_MATRIX_DUPLICATE_PAIRS,
    ERROR_MATRIX_FAMILIES,
    ERROR_NOT_PAIRWISE,
    ERROR_ONE_SYSTEM,
    SIGNED_STATISTIC,
    pairwise_matrix,
)
from ._schema import (  # ERROR_OPTION: the message of check_option, named in the docs
    ERROR_OPTION,  # noqa: F401
    check_option,
)
from ._typing import Criterion, NonFinite, Orientation

# The pairwise tables, the repeated runs and literature mode live in their own modules;
# their public names stay reachable here (and through the top-level package).
from ._validation import (  # noqa: F401
    ERROR_ADJUST,
    ERROR_ALPHA,
    ERROR_ALTERNATIVE,
    ERROR_CONFIDENCE_LEVEL,
    check_adjust,
    check_alpha,
    check_alternative,
    check_confidence_level,
)
from ._validation import check_costs as _check_costs
from .comparison import (  # noqa: F401
    COMPARE_COLUMNS,
    DECISION_TESTS,
    ERROR_DECISION_TEST,
    ERROR_METRIC_UNUSED,
    ERROR_NO_COMMON,
    ERROR_TARGET,
    NULL_HYPOTHESIS,
    TESTS,
    DecisionTestError,
    Test,
    compare,
    default_test,
)
from .folds import (  # noqa: F401
    COMPARE_FOLDS_COLUMNS,
    ERROR_FOLD_COLUMN,
    FOLD_METRICS,
    FOLD_METRICS_COLUMNS,
    FOLD_SUMMARY_COLUMNS,
    compare_folds,
    fold_metrics,
    fold_summary,
)
from .literature import (  # noqa: F401
    EER_BOUND_COLUMNS,
    ERROR_DUPLICATE_SYSTEMS,
    ERROR_N_DIFFERS,
    ERROR_N_MISSING,
    ERROR_REPORTED_NOT_A_FRAME,
    eer_bound_table,
)
from .metrics import _validate
from .protocol import Protocol

__all__ = [
    "ADJUST_METHODS",
    "DECISION_TESTS",
    "DecisionTestError",
    "default_test",
    "NULL_HYPOTHESIS",
    "CI_COLUMNS",
    "CI_COMBINE",
    "CI_METRICS",
    "COMPARE_COLUMNS",
    "COMPARE_FOLDS_COLUMNS",
    "EER_BOUND_COLUMNS",
    "FOLD_METRICS",
    "FOLD_METRICS_COLUMNS",
    "FOLD_SUMMARY_COLUMNS",
    "TESTS",
    "ci",
    "compare",
    "compare_folds",
    "eer_bound_table",
    "fold_metrics",
    "fold_summary",
    "pairwise_matrix",
]

# --------------------------------------------------------------------------- options

#: Interval metrics of :func:`ci`.
CI_METRICS: dict[str, str] = {
    "far": "false acceptance rate FA/NI, binomial interval (statsmodels proportion_confint)",
    "frr": "false rejection rate FR/NC, binomial interval (statsmodels proportion_confint)",
    "hter": "(FAR + FRR)/2, normal interval of Bengio & Mariethoz eq. 13",
    "dcf": "normalized actual DCF at the threshold, normal interval (generalized eq. 14)",
}

#: How :func:`ci` builds the HTER and DCF intervals from the FAR and FRR.
CI_COMBINE: dict[str, str] = {
    "mover": "MOVER (Zou & Donner): the binomial intervals of FAR and FRR (method=) combined",
    "bengio": "normal interval of Bengio & Mariethoz eq. 13/14 (too narrow at low error rates)",
}

#: Tests whose ``statistic`` is a signed z (it changes sign when A and B are swapped).
_SIGNED_STATISTIC = SIGNED_STATISTIC



# --------------------------------------------------------------------------- messages







# --------------------------------------------------------------------------- columns

#: Columns of :func:`ci` (after the ``by`` columns); the shared names mean what they mean
#: in :data:`pandas_biosig.resampling.BOOTSTRAP_COLUMNS`, so the two tables concatenate.
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
    metric: str | Sequence[str] = ("far", "frr", "hter", "dcf"),
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    confidence_level: float = 0.95,
    method: str = "beta",
    combine: str = "mover",
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
) -> pd.DataFrame:
    r"""Confidence intervals of FAR, FRR, HTER and DCF for every system.

    Each system's threshold is set by a threshold policy (as in
    :func:`pandas_biosig.error_rates`), then the error counts at that threshold give the
    intervals: binomial for FAR and FRR (Clopper–Pearson by default), and for HTER and DCF
    the MOVER combination of those two intervals (default) or the normal interval of
    Bengio & Mariéthoz (2004) eq. 13/14.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table, one row per (system, trial) with columns ``system, trial, label,
        score`` (names set by the keywords below) and optionally ``split``.
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
        :mod:`pandas_biosig.protocol`.
    confidence_level : float, default 0.95
        Two-sided level of every interval.
    method : str, default "beta"
        The binomial interval of FAR and FRR: statsmodels' ``proportion_confint`` method
        (``"beta"`` = Clopper–Pearson, ``"wilson"``, ``"normal"``, ``"agresti_coull"``,
        ``"jeffreys"``, ``"binom_test"``), passed through unchanged. Clopper–Pearson is the
        default because it never covers less than the level; Wilson covers only 0.90 at
        FAR = 0.1 % with 100 trials (exact enumeration).
    combine : {"mover", "bengio"}, default "mover"
        The HTER and DCF intervals. ``"mover"``: the MOVER interval (Zou & Donner 2008)
        built from the ``method`` intervals of FAR and FRR; with Clopper–Pearson it covers
        at least 0.95 over error rates 0.1 %–20 %, 100–10,000 genuine trials and 1–10
        impostors per genuine trial (exact enumeration; ``tests/test_protocol.py``).
        ``"bengio"``: the normal interval of eq. 13/14, which is too narrow at low error
        rates (coverage 0.71 at FAR = FRR = 1 % with 100 genuine and 1,000 impostor trials,
        0.67 at 0.1 %; width 0 at zero errors) and fine from a few dozen errors per class
        (0.948 at 1 % with 10,000 genuine trials).
    p_target, c_miss, c_fa : float
        Prior and costs of the DCF (and of the ``"min_dcf"`` criterion).
    by : str or list of str, optional
        Extra grouping columns: one row per group, system, split and metric.
    system, trial, label, score, split : str
        Column names.
    orientation : {"similarity", "distance"}
        ``"distance"``: lower scores are more genuine; thresholds are in the score's units.
    nonfinite : {"raise", "drop", "reject"}
        NaN/inf scores: raise, drop the trials, or count them as failures to acquire
        (tests then compare the trials both systems acquired; see docs/methods.md).

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, split, metric), the ``by`` columns first, then

        - ``system``, ``split``: the group (``split`` is None without a split column);
        - ``metric``: ``"far"``, ``"frr"``, ``"hter"`` or ``"dcf"``;
        - ``estimate``: the metric at the threshold (a fraction; DCF normalized);
        - ``se``: its standard error — :math:`\sqrt{p(1-p)/n}` for FAR/FRR, σ below for
          HTER and DCF;
        - ``ci_low``, ``ci_high``: the interval bounds (with ``combine="bengio"`` not
          clipped to [0, 1], so the width is exactly :math:`2 z \sigma` as in the paper's
          tables);
        - ``confidence_level``;
        - ``ci_method``: the binomial method (``"beta"``…) for FAR/FRR; for HTER and DCF
          ``"mover-<method>"`` or ``"bengio"``;
        - ``threshold``: the threshold applied, in score units;
        - ``criterion``, ``threshold_split``: how and on which split it was chosen
          (``"fixed"`` and None for given thresholds);
        - ``threshold_from``: the split it was chosen on, ``"same trials"`` or ``"fixed"``;
        - ``resample``: None (parametric intervals resample nothing);
        - ``n_genuine``, ``n_impostor``: NC and NI;
        - ``p_target``, ``c_miss``, ``c_fa``: the DCF parameters.

        The names shared with :func:`pandas_biosig.bootstrap` mean the same thing, so
        ``pd.concat([pbs.ci(...), pbs.bootstrap(...)])`` gives one table of intervals.

    Raises
    ------
    SchemaError
        An invalid table, or a split named by ``on``/``apply_to`` that does not exist.
    ValueError
        An unknown metric or method (:data:`ERROR_OPTION`), ``confidence_level`` outside
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

    These intervals treat the trials as
    independent; when many trials share a subject they are too narrow, and a subject
    bootstrap (:func:`pandas_biosig.bootstrap` with ``resample="subject"``) is the honest
    alternative. A threshold chosen on the same trials (``threshold_from`` is
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

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.ci(trials, metric="hter", combine="bengio")
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
    metrics = [metric] if isinstance(metric, str) else list(metric)
    for m in metrics:
        check_option(m, CI_METRICS, "metric")
    check_option(method, stats.RATE_CI_METHODS, "method")
    check_option(combine, CI_COMBINE, "combine")
    level = check_confidence_level(confidence_level)
    _check_costs(p_target, c_miss, c_fa)
    trials = _validate(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    sign = -1.0 if trials.orientation == "distance" else 1.0
    members = Protocol(
        threshold=threshold, weight=weight, target=target, p_target=p_target, c_miss=c_miss,
        c_fa=c_fa, on=on, apply_to=apply_to,
    ).resolve(trials)
    rows = []
    for m in members:
        g = m.group
        sw = m.sweep
        ni, nc = sw.n, sw.p
        fa = fr = None
        if not math.isnan(m.threshold):
            fa, fr = (int(v) for v in sw.rates_at_threshold(m.threshold))
        base = dict(zip(trials.key_names, g.key, strict=True))
        base.update(
            confidence_level=level,
            threshold=sign * m.threshold,
            criterion=m.criterion,
            threshold_split=m.threshold_split,
            threshold_from=m.threshold_from,
            resample=m.resample,
            n_genuine=nc,
            n_impostor=ni,
            p_target=p_target,
            c_miss=c_miss,
            c_fa=c_fa,
        )
        for name in metrics:
            row = dict(base, metric=name)
            row["ci_method"] = (
                method if name in ("far", "frr")
                else "bengio" if combine == "bengio" else f"mover-{method}"
            )
            if fa is None:
                row.update(estimate=np.nan, se=np.nan, ci_low=np.nan, ci_high=np.nan)
                rows.append(row)
                continue
            if name in ("far", "frr"):
                count, total = (fa, ni) if name == "far" else (fr, nc)
                res = stats.rate_ci(count, total, method=method)
                se = math.sqrt(res.estimate * (1.0 - res.estimate) / total)
            elif name == "hter":
                res = stats.hter_ci(fa / ni, fr / nc, n_impostor=ni, n_genuine=nc)
                se = res.se
            else:
                res = stats.dcf_ci(
                    fa / ni, fr / nc, n_impostor=ni, n_genuine=nc, p_target=p_target,
                    c_miss=c_miss, c_fa=c_fa, normalize=True,
                )
                se = res.se
            low, high = res.confidence_interval(confidence_level=level)
            if name in ("hter", "dcf") and combine == "mover":
                norm = min(c_miss * p_target, c_fa * (1 - p_target))
                w = (0.5, 0.5) if name == "hter" else (c_fa * (1 - p_target) / norm,
                                                         c_miss * p_target / norm)
                parts = [stats.rate_ci(k, t, method=method).confidence_interval(
                    confidence_level=level) for k, t in ((fa, ni), (fr, nc))]
                low, high = mover_sum((fa / ni, fr / nc), [p.low for p in parts],
                                      [p.high for p in parts], w)
            row.update(estimate=res.estimate, se=se, ci_low=low, ci_high=high)
            rows.append(row)
    return pd.DataFrame(rows, columns=[*trials.by, *CI_COLUMNS])


# --------------------------------------------------------------------------- compare






# --------------------------------------------------------------------------- matrix view


# --------------------------------------------------------------------------- repeated runs














# --------------------------------------------------------------------------- literature




def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
