"""Intervals around one HTER or DCF and the HTER tests (Bengio & Mariéthoz 2004, eq. 13-18)."""

from __future__ import annotations

import math

from .._core.options import Alternative
from .._core.results import IntervalResult, TestResult
from .._core.validation import (
    check_alternative,
    check_count,
    check_flag,
    check_open_unit,
    check_rate,
)
from .._kernels import inference as _inference
from ._common import (
    _HTER_CI_NAMES,
    _HTER_TEST_NAMES,
    ERROR_DISCORDANT_EXCEED,
    ERROR_DISCORDANT_MISSING,
    ERROR_DISCORDANT_NONE,
    ERROR_DISCORDANT_UNUSED,
    ERROR_P_TARGET,
    HTER_CI_METHODS,
    HTER_TEST_METHODS,
    HterCIMethod,
    HterTestMethod,
    _check_method,
    _check_positive_real,
    normal_result,
)

__all__ = [
    "hter_ci",
    "dcf_ci",
    "hter_test",
]


# --------------------------------------------------------------------------- HTER / DCF


def hter_ci(
    far: float,
    frr: float,
    *,
    n_impostor: int,
    n_genuine: int,
    method: HterCIMethod = "bengio",
) -> IntervalResult:
    r"""Normal confidence interval around one half total error rate (HTER).

    Parameters
    ----------
    far, frr : float
        False acceptance rate FA/NI and false rejection rate FR/NC, in [0, 1].
    n_impostor : int
        NI, the number of impostor trials (> 0).
    n_genuine : int
        NC, the number of genuine (client) trials (> 0).
    method : {"bengio", "naive", "class"}, default "bengio"
        ``"bengio"``: the proper interval of Bengio & Mariéthoz (2004), eq. 13.
        ``"naive"`` (eq. 18) and ``"class"`` (eq. 17) are **over-confident**: they treat the
        HTER, or the classification error, as a proportion of all NI + NC trials, so their
        intervals shrink with the number of impostor trials even though the HTER's
        precision is limited by the smaller class.  They are offered only to show how
        over-confident they are, never as a default.

    Returns
    -------
    IntervalResult
        ``estimate``: HTER = (FAR + FRR)/2 (for ``"class"``: (FA + FR)/(NI + NC));
        ``se``: σ below; ``method``: the name of the interval; ``n``: NI + NC.
        ``.confidence_interval(confidence_level=δ)`` gives ``estimate ± z·σ``.

    Raises
    ------
    ValueError
        A rate outside [0, 1] (:data:`ERROR_RATE`), a count that is not a positive integer
        (:data:`ERROR_POSITIVE_COUNT`), or an unknown ``method`` (:data:`ERROR_METHOD`).

    See Also
    --------
    dcf_ci : the same interval for a detection cost.
    hter_test : compare two HTERs.

    Notes
    -----
    With :math:`z_\delta = \Phi^{-1}((1+\delta)/2)`, the interval is
    :math:`\mathrm{HTER} \pm z_\delta\,\sigma` with

    .. math::

        \sigma^2_{\mathrm{bengio}} = \frac{\mathrm{FAR}(1-\mathrm{FAR})}{4\,N_I}
            + \frac{\mathrm{FRR}(1-\mathrm{FRR})}{4\,N_C}, \qquad
        \sigma^2_{\mathrm{naive}} = \frac{\mathrm{HTER}(1-\mathrm{HTER})}{N_C+N_I}, \qquad
        \sigma^2_{\mathrm{class}} = \frac{p(1-p)}{N_C+N_I},\;
            p = \frac{\mathrm{FA}+\mathrm{FR}}{N_I+N_C}.

    The interval is not clipped to [0, 1]; its width is exactly :math:`2 z_\delta \sigma`, the
    number printed in the paper's Tables 2 and 5.

    Measured calibration. This is a normal (Wald) interval: it needs a few dozen errors
    in each class. Computed exactly by enumerating the binomial outcomes, the 95 %
    interval covers 0.948 at FAR = FRR = 1 % with 10,000 genuine and 100,000 impostor
    trials, but 0.71 at 1 % and 0.67 at 0.1 % with 100 genuine and 1,000 impostor trials
    (its width is 0 when there are no errors). With independent trials and about 20
    errors per class it covers 94.7 % (``docs/validity.md``); when trials share a subject
    effect, about 90 %. :func:`pandas_biosig.ci` uses a MOVER interval by default
    (coverage ≥ 0.95 over 0.1 %–20 % and 100–10,000 genuine trials) and
    ``pbs.bootstrap(resample="subject")`` resamples subjects.

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Examples
    --------
    Model A of the paper's XM2VTS study (Table 2):

    >>> from pandas_biosig.stats import hter_ci
    >>> res = hter_ci(0.0115, 0.025, n_impostor=112000, n_genuine=400)
    >>> ci = res.confidence_interval(confidence_level=0.95)
    >>> print(f"HTER {res.estimate:.3%}, 95% interval width {ci.high - ci.low:.3%}")
    HTER 1.825%, 95% interval width 1.531%

    The over-confident NAIVE interval is ten times narrower:

    >>> naive = hter_ci(0.0115, 0.025, n_impostor=112000, n_genuine=400, method="naive")
    >>> ci = naive.confidence_interval(confidence_level=0.95)
    >>> print(f"{ci.high - ci.low:.4%}")
    0.1565%
    """
    far = check_rate(far, "far")
    frr = check_rate(frr, "frr")
    negatives = check_count(n_impostor, "n_impostor", positive=True)
    positives = check_count(n_genuine, "n_genuine", positive=True)
    method = _check_method(method, HTER_CI_METHODS)
    n = negatives + positives
    if method == "bengio":
        estimate = _inference.hter(far, frr)
        se = _inference.hter_se(far, frr, negatives, positives)
    elif method == "naive":
        estimate = _inference.hter(far, frr)
        se = _inference.proportion_se(estimate, n)
    else:
        estimate = _inference.class_error(far, frr, negatives, positives)
        se = _inference.proportion_se(estimate, n)
    return IntervalResult(
        estimate=float(estimate), se=float(se), method=_HTER_CI_NAMES[method], n=n
    )


def dcf_ci(
    far: float,
    frr: float,
    *,
    n_impostor: int,
    n_genuine: int,
    p_target: float,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    normalize: bool = False,
) -> IntervalResult:
    r"""Normal confidence interval around a detection cost (DCF) at one threshold.

    Parameters
    ----------
    far, frr : float
        False acceptance rate (P_fa) and false rejection rate (P_miss), in [0, 1].
    n_impostor, n_genuine : int
        NI and NC, the numbers of impostor and genuine trials (> 0).
    p_target : float
        Prior probability of a genuine (target) trial, strictly between 0 and 1.
    c_miss, c_fa : float, default 1.0
        Costs of a false rejection (miss) and of a false acceptance (> 0).
    normalize : bool, default False
        Divide the cost (and σ) by :math:`\min(C_{miss} P_{tar}, C_{fa}(1-P_{tar}))`,
        the cost of the better trivial system.

    Returns
    -------
    IntervalResult
        ``estimate``: the (normalized) DCF; ``se``: σ below; ``method``; ``n``: NI + NC.

    Raises
    ------
    ValueError
        A rate outside [0, 1] (:data:`ERROR_RATE`), a count that is not a positive integer
        (:data:`ERROR_POSITIVE_COUNT`), ``p_target`` outside (0, 1)
        (:data:`ERROR_P_TARGET`), a cost that is not positive and finite
        (:data:`ERROR_COST`), or a non-boolean ``normalize`` (:data:`ERROR_FLAG`).

    See Also
    --------
    hter_ci : the special case p_target = 0.5, c_miss = c_fa = 1.

    Notes
    -----
    :math:`\mathrm{DCF} = C_{miss} P_{tar}\,\mathrm{FRR} + C_{fa}(1-P_{tar})\,\mathrm{FAR}`,
    and, generalizing Bengio & Mariéthoz (2004), eq. 14,

    .. math::

        \sigma^2 = \bigl(C_{fa}(1-P_{tar})\bigr)^2 \frac{\mathrm{FAR}(1-\mathrm{FAR})}{N_I}
                 + \bigl(C_{miss} P_{tar}\bigr)^2 \frac{\mathrm{FRR}(1-\mathrm{FRR})}{N_C}.

    With :math:`P_{tar} = 0.5` and unit costs, DCF = HTER and σ is eq. 13.

    Measured calibration: a normal interval, as :func:`hter_ci`, and worse at the NIST
    operating point, where the false acceptances carry weight :math:`\approx 99` times the
    misses: computed exactly by enumeration, the 95 % interval of the normalized DCF
    (p = 0.01, unit costs) covers as little as 0.10 at FAR = FRR = 0.1 % with 100
    trials per class. :func:`pandas_biosig.ci` uses a MOVER interval by default
    (coverage ≥ 0.95 over the same grid).

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Examples
    --------
    The NIST cost of the paper's eq. 14 (C_miss = 10, C_fa = 1, P_target = 0.01), with the
    rates of model C of the NIST'2000 study:

    >>> from pandas_biosig.stats import dcf_ci
    >>> res = dcf_ci(0.131, 0.096, n_impostor=57748, n_genuine=5825,
    ...              p_target=0.01, c_miss=10.0, c_fa=1.0)
    >>> ci = res.confidence_interval(confidence_level=0.95)
    >>> print(f"DCF {res.estimate:.4f} ({ci.low:.4f} to {ci.high:.4f})")
    DCF 0.1393 (0.1365 to 0.1421)
    """
    far = check_rate(far, "far")
    frr = check_rate(frr, "frr")
    negatives = check_count(n_impostor, "n_impostor", positive=True)
    positives = check_count(n_genuine, "n_genuine", positive=True)
    p_target = check_open_unit(p_target, ERROR_P_TARGET)
    c_miss = _check_positive_real(c_miss, "c_miss")
    c_fa = _check_positive_real(c_fa, "c_fa")
    normalize = check_flag(normalize, "normalize")
    estimate = float(_inference.dcf(far, frr, p_target, c_miss, c_fa))
    se = float(_inference.dcf_se(far, frr, negatives, positives, p_target, c_miss, c_fa))
    name = "DCF confidence interval (generalized Bengio & Mariethoz 2004 eq. 14)"
    if normalize:
        scale = min(c_miss * p_target, c_fa * (1.0 - p_target))
        estimate, se = estimate / scale, se / scale
        name = "normalized " + name
    return IntervalResult(estimate=estimate, se=se, method=name, n=negatives + positives)


def hter_test(
    far_a: float,
    frr_a: float,
    far_b: float,
    frr_b: float,
    *,
    n_impostor: int,
    n_genuine: int,
    method: HterTestMethod = "independent",
    alternative: Alternative = "two-sided",
    ni_ab: int | None = None,
    ni_ba: int | None = None,
    nc_ab: int | None = None,
    nc_ba: int | None = None,
) -> TestResult:
    r"""Test whether two systems' HTERs differ, from their FAR/FRR on a common test set.

    Parameters
    ----------
    far_a, frr_a, far_b, frr_b : float
        FAR and FRR of systems A and B on the same NI impostor and NC genuine trials.
    n_impostor, n_genuine : int
        NI and NC (> 0).
    method : {"independent", "dependent", "naive", "class"}, default "independent"
        ``"independent"``: eq. 15, needs only the rates.  ``"dependent"``: eq. 16, needs
        the four discordant counts below.  ``"naive"`` (eq. 18) and ``"class"`` (eq. 17)
        are **over-confident** (their σ shrinks with NI + NC although the HTER's precision
        is limited by the smaller class); they are offered for illustration only, never as
        a default.  Bengio & Mariéthoz advise trusting a difference only when both the
        independent and the dependent test find it.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        ``"less"``: H1 is that A's error is lower than B's; ``"greater"``: higher.
    ni_ab, ni_ba, nc_ab, nc_ba : int, optional
        Discordant counts, required by ``method="dependent"`` and rejected otherwise.
        ``ni_ab``: impostor trials rejected by A and accepted by B (A right, B wrong);
        ``ni_ba``: impostor trials accepted by A and rejected by B;
        ``nc_ab``: genuine trials accepted by A and rejected by B (A right, B wrong);
        ``nc_ba``: genuine trials rejected by A and accepted by B.

    Returns
    -------
    TestResult
        ``estimate``: HTER_A − HTER_B (signed; for ``"class"`` the difference of the
        classification errors (FA + FR)/(NI + NC), the quantity that test is about);
        ``statistic``: z = estimate/σ (signed); ``pvalue`` and ``log10_pvalue`` for
        ``alternative``; ``n``: NI + NC; ``method``.  ``.se`` is σ, ``.confidence`` the
        paper's δ = 2Φ(|z|) − 1, and ``.confidence_interval()`` is estimate ± z·σ.

    Raises
    ------
    ValueError
        A rate outside [0, 1] (:data:`ERROR_RATE`); a count that is not a (positive)
        integer (:data:`ERROR_POSITIVE_COUNT`, :data:`ERROR_COUNT`); an unknown ``method``
        or ``alternative`` (:data:`ERROR_METHOD`, :data:`ERROR_ALTERNATIVE`); discordant
        counts missing for ``"dependent"`` (:data:`ERROR_DISCORDANT_MISSING`), given to
        another method (:data:`ERROR_DISCORDANT_UNUSED`), more than the trials of their
        class (:data:`ERROR_DISCORDANT_EXCEED`), or all zero while the HTERs differ
        (:data:`ERROR_DISCORDANT_NONE`).

    See Also
    --------
    hter_ci : interval around one HTER.
    mcnemar : paired test on one error rate.

    Notes
    -----
    With :math:`\Delta = \mathrm{HTER}_A - \mathrm{HTER}_B`, :math:`z = \Delta/\sigma` and

    .. math::

        \sigma^2_{\mathrm{indep}} &= \frac{\mathrm{FAR}_A(1-\mathrm{FAR}_A)
            + \mathrm{FAR}_B(1-\mathrm{FAR}_B)}{4 N_I}
            + \frac{\mathrm{FRR}_A(1-\mathrm{FRR}_A) + \mathrm{FRR}_B(1-\mathrm{FRR}_B)}{4 N_C}

        \sigma^2_{\mathrm{dep}} &= \frac{\mathrm{FAR}_{AB} + \mathrm{FAR}_{BA}}{4 N_I}
            + \frac{\mathrm{FRR}_{AB} + \mathrm{FRR}_{BA}}{4 N_C}, \qquad
            \mathrm{FAR}_{AB} = N_{I,AB}/N_I,\; \mathrm{FRR}_{AB} = N_{C,AB}/N_C

        \sigma^2_{\mathrm{naive}} &= \frac{\mathrm{HTER}_A(1-\mathrm{HTER}_A)
            + \mathrm{HTER}_B(1-\mathrm{HTER}_B)}{N_C + N_I}

    and for CLASS the same as NAIVE with :math:`p = (FA + FR)/(N_I + N_C)` in place of the
    HTERs.  Two-sided, :math:`p = 2\Phi(-|z|)` and the paper's confidence that the systems
    differ is :math:`\delta = 2\Phi(|z|) - 1 = 1 - p`.

    The dependent numerator follows eq. 16, :math:`|\mathrm{HTER}_A - \mathrm{HTER}_B|`.
    The summary in the paper's Fig. 2 writes
    :math:`|\mathrm{FAR}_{AB} - \mathrm{FAR}_{BA} + \mathrm{FRR}_{AB} - \mathrm{FRR}_{BA}|`,
    twice as large: an erratum.  When the rates and the discordant counts come from the same
    trials, :math:`\Delta = \tfrac12[(N_{I,BA} - N_{I,AB})/N_I + (N_{C,BA} - N_{C,AB})/N_C]`;
    the estimate is computed from the rates given.  The paper notes that the dependent
    test underestimates σ when the two systems are strongly correlated.

    Measured calibration (``docs/validity.md``, type-I error at α = 0.05 under equal true
    HTERs): ``"dependent"`` holds its level at every correlation between the systems
    (0.05–0.06) when trials are independent; ``"independent"`` becomes very conservative as
    the correlation grows (0.001 at ρ = 0.9); ``"naive"`` rejects up to 83 % of true nulls
    when NC ≪ NI; ``"class"`` tests the total error count, not the HTER, and rejects every
    time when equal HTERs sit at different operating points. With a per-subject effect
    every variant is anti-conservative (up to 0.22); use the subject-level paired
    bootstrap (``pbs.compare(test="bootstrap", resample="subject")``).

    References
    ----------
    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
    authentication. In *Proceedings of Odyssey 2004: The Speaker and Language Recognition
    Workshop* (pp. 237–244).

    Examples
    --------
    Models A and B of the paper's XM2VTS study (Table 3): not significantly different.

    >>> from pandas_biosig.stats import hter_test
    >>> res = hter_test(0.0115, 0.025, 0.0195, 0.0275, n_impostor=112000, n_genuine=400)
    >>> print(f"sigma {res.se:.5f}, delta {res.confidence:.1%}, p {res.pvalue:.3f}")
    sigma 0.00566, delta 64.7%, p 0.353

    The over-confident NAIVE test would call the difference certain:

    >>> naive = hter_test(0.0115, 0.025, 0.0195, 0.0275, n_impostor=112000,
    ...                   n_genuine=400, method="naive")
    >>> print(f"sigma {naive.se:.5f}, delta {naive.confidence:.1%}")
    sigma 0.00060, delta 100.0%

    The dependent test, from the discordant counts of the two systems:

    >>> dep = hter_test(0.02, 0.05, 0.03, 0.08, n_impostor=1000, n_genuine=100,
    ...                 method="dependent", ni_ab=15, ni_ba=5, nc_ab=4, nc_ba=1)
    >>> print(f"estimate {dep.estimate:+.3f}, z {dep.statistic:.3f}, p {dep.pvalue:.4f}")
    estimate -0.020, z -1.754, p 0.0794
    """
    far_a = check_rate(far_a, "far_a")
    frr_a = check_rate(frr_a, "frr_a")
    far_b = check_rate(far_b, "far_b")
    frr_b = check_rate(frr_b, "frr_b")
    negatives = check_count(n_impostor, "n_impostor", positive=True)
    positives = check_count(n_genuine, "n_genuine", positive=True)
    method = _check_method(method, HTER_TEST_METHODS)
    alternative = check_alternative(alternative)
    discordant = {"ni_ab": ni_ab, "ni_ba": ni_ba, "nc_ab": nc_ab, "nc_ba": nc_ba}
    n = negatives + positives
    counts = _discordant_counts(method, discordant, negatives, positives)

    if method == "class":
        p_a = float(_inference.class_error(far_a, frr_a, negatives, positives))
        p_b = float(_inference.class_error(far_b, frr_b, negatives, positives))
        estimate = p_a - p_b
        se = math.sqrt((p_a * (1.0 - p_a) + p_b * (1.0 - p_b)) / n)
    else:
        h_a = float(_inference.hter(far_a, frr_a))
        h_b = float(_inference.hter(far_b, frr_b))
        estimate = h_a - h_b
        if method == "independent":
            se = float(
                _inference.hter_diff_se_independent(
                    far_a, frr_a, far_b, frr_b, negatives, positives
                )
            )
        elif method == "dependent":
            if not any(counts.values()) and abs(estimate) > 1e-12:
                raise ValueError(ERROR_DISCORDANT_NONE.format(hter_a=h_a, hter_b=h_b))
            se = float(
                _inference.hter_diff_se_dependent(
                    counts["ni_ab"],
                    counts["ni_ba"],
                    counts["nc_ab"],
                    counts["nc_ba"],
                    negatives,
                    positives,
                )
            )
        else:
            se = math.sqrt((h_a * (1.0 - h_a) + h_b * (1.0 - h_b)) / n)
    return normal_result(
        estimate, se, alternative=alternative, method=_HTER_TEST_NAMES[method], n=n
    )


def _discordant_counts(method: str, discordant: dict, negatives: int, positives: int) -> dict:
    """The checked discordant counts of ``method="dependent"`` (empty for the others,
    which refuse them)."""
    if method != "dependent":
        if any(v is not None for v in discordant.values()):
            raise ValueError(ERROR_DISCORDANT_UNUSED.format(method=method))
        return {}
    missing = [k for k, v in discordant.items() if v is None]
    if missing:
        raise ValueError(ERROR_DISCORDANT_MISSING.format(missing=", ".join(missing)))
    counts = {k: check_count(v, k) for k, v in discordant.items()}
    for first, second, n_name, total in (
        ("ni_ab", "ni_ba", "n_impostor", negatives),
        ("nc_ab", "nc_ba", "n_genuine", positives),
    ):
        if counts[first] + counts[second] > total:
            raise ValueError(
                ERROR_DISCORDANT_EXCEED.format(
                    first=first,
                    second=second,
                    total=counts[first] + counts[second],
                    n_name=n_name,
                    n=total,
                )
            )
    return counts
