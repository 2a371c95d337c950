"""Comparing identification systems: McNemar, Günter, sign and bootstrap tests
(:func:`compare_identification`) and the paired bootstrap band of a CMC difference
(:func:`cmc_difference`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from itertools import combinations
from typing import Literal

import numpy as np
import pandas as pd
import xarray as xr

from .. import stats
from .._core.counted import REASON_IDENTIFICATION, refuse_counts
from .._core.options import Adjust, Alternative, Orientation
from .._core.pairwise import finish
from .._core.replicates import FALLBACK_DIFFERENCE, bootstrap_result, clopper_pearson
from .._core.results import ConfidenceInterval, TestResult
from .._core.schema import SchemaError, by_columns, check_option, scalar_value
from .._core.validation import (
    check_adjust,
    check_alpha,
    check_confidence_level,
    check_count,
    check_n_resamples,
)
from .._kernels import identification as _k
from ..stats._common import McNemarMethod
from ._search import (
    Searches,
    SearchGroup,
    SearchNonFinite,
    _attrs,
    _fill_doc,
    _Grid,
    _largest_rank,
    _require_mated,
    _var,
    validate_search,
)

#: The pairwise columns of :func:`pandas_biosig.compare`, with ``rank`` for its ``split``.
COMPARE_COLUMNS = [
    "system_a",
    "system_b",
    "metric",
    "rank",
    "test",
    "n",
    "estimate",
    "statistic",
    "pvalue",
    "log10_pvalue",
    "adjust",
    "pvalue_adj",
    "alpha",
    "reject",
    "confidence_level",
    "ci_low",
    "ci_high",
    "alternative",
    "method",
    "fallback_reason",
]
CMC_DIFFERENCE_VARIABLES = [
    "estimate", "ci_low", "ci_high", "band_low", "band_high", "constant", "n",
]

__all__ = ["CMC_DIFFERENCE_VARIABLES", "COMPARE_COLUMNS", "TESTS", "cmc_difference", "compare_identification"]

IdentificationTest = Literal["mcnemar", "gunter_simple", "gunter_paired", "sign", "bootstrap"]


#: Tests of :func:`compare_identification`: name -> (what it compares, allowed methods).
TESTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "mcnemar": (
        "McNemar's test on the probes that exactly one system gets right at the rank",
        stats.MCNEMAR_METHODS,
    ),
    "gunter_simple": ("Günter (2004) simple test of the recognition rates (eq. 3)", ()),
    "gunter_paired": ("Günter (2004) paired test of the recognition rates (eq. 5-6)", ()),
    "sign": ("sign test over the runs named by `fold` (Günter 2004 eq. 7)", ()),
    "bootstrap": ("paired bootstrap of the difference of recognition rates over probes", ()),
}

ERROR_SIGN_NEEDS_FOLD = (
    "test='sign' compares the systems over repeated runs: pass fold='<column>' naming the "
    "runs (folds, seeds, datasets)"
)
ERROR_FOLD_UNUSED = (
    "fold={fold!r} names the runs of test='sign'; with test={test!r} pass by={fold!r} to "
    "test each run on its own"
)
ERROR_PROBES_DIFFER = (
    "systems {a!r} and {b!r} do not rank the same mated probes{where}: {n_a} only in {a!r} "
    "and {n_b} only in {b!r} (e.g. {examples}); pass common_probes=True to keep the probes "
    "they share"
)
ERROR_NO_COMMON = "systems {a!r} and {b!r} share no mated probe{where}"
ERROR_ONE_SYSTEM = "comparing systems needs at least two systems, found {found}"


# --------------------------------------------------------------------------- comparisons


def _aligned_ranks(s: Searches, ga: SearchGroup, gb: SearchGroup, *, common_probes: bool):
    """Ranks of the mated probes both systems ranked, in the same order."""
    ia = pd.Index(ga.probes[ga.mated])
    ib = pd.Index(gb.probes[gb.mated])
    ra = ga.stats.rank[ga.mated]
    rb = gb.stats.rank[gb.mated]
    if ia.equals(ib):
        return ra, rb
    where = "".join(f", {b}={v!r}" for b, v in zip(s.by, ga.key, strict=False))
    only_a = ia.difference(ib, sort=False)
    only_b = ib.difference(ia, sort=False)
    if (len(only_a) or len(only_b)) and not common_probes:
        examples = [scalar_value(v) for v in [*only_a[:3], *only_b[:3]]]
        raise SchemaError(
            ERROR_PROBES_DIFFER.format(
                a=ga.system, b=gb.system, where=where, n_a=len(only_a), n_b=len(only_b),
                examples=examples,
            )
        )
    common = ia.intersection(ib, sort=False)
    if len(common) == 0:
        raise SchemaError(ERROR_NO_COMMON.format(a=ga.system, b=gb.system, where=where))
    return ra[ia.get_indexer(common)], rb[ib.get_indexer(common)]


def _families(s: Searches) -> dict[tuple, dict[Hashable, SearchGroup]]:
    """The groups of each ``by`` group, by system: the systems to compare with each other."""
    families: dict[tuple, dict[Hashable, SearchGroup]] = {}
    for g in s.groups:
        families.setdefault(g.key[:-1], {})[g.system] = g
    return families


def _pair_test(test, method, ra, rb, at_rank, alternative, rng, n_resamples) -> TestResult:
    """One test of "recognition rate of A minus B" on aligned ranks."""
    ca = ra <= at_rank
    cb = rb <= at_rank
    n = int(ca.size)
    only_a = int(np.count_nonzero(ca & ~cb))
    only_b = int(np.count_nonzero(~ca & cb))
    if test == "mcnemar":
        # b = "A right, B wrong" so that estimate = (b - c)/n = RR_A - RR_B
        return stats.mcnemar(only_a, only_b, n=n, method=method, alternative=alternative)
    if test in ("gunter_simple", "gunter_paired"):
        r1, r2 = float(np.mean(ca)), float(np.mean(cb))
        r12 = float(np.mean(ca & cb)) if method == "paired" else None
        return stats.recognition_rate_test(
            r1, r2, n=n, r12=r12, method=method, alternative=alternative
        )
    # paired bootstrap over probes: only the discordant probes move the difference, so a
    # replicate is one multinomial draw of (A only, B only, the rest)
    if only_a == only_b == 0:  # no discordant probe: every replicate is 0
        return _NoDiscordance(0.0, 1.0, 0.0, 0.0, alternative,
                              "paired bootstrap of the recognition rate difference", n)
    draws = rng.multinomial(n, [only_a / n, only_b / n, 1.0 - (only_a + only_b) / n], n_resamples)
    deltas = (draws[:, 0] - draws[:, 1]) / n
    res = bootstrap_result((only_a - only_b) / n, deltas, alternative, n)
    return replace(res, method="paired bootstrap of the recognition rate difference")


@dataclass(frozen=True)
class _NoDiscordance(TestResult):
    """The paired bootstrap when no probe is identified by one system only: every
    replicated difference is 0, so the bootstrap cannot measure the uncertainty. The
    interval bounds the two discordant proportions (A only, B only; 0 of ``n`` each) by
    Clopper–Pearson, Bonferroni over the two; p-value 1."""

    fallback_reason: str = ""

    def __post_init__(self):
        object.__setattr__(self, "fallback_reason", FALLBACK_DIFFERENCE.format(
            value=0.0, units=f"{self.n} probes", m=2,
            p="p-value 1 (no probe is identified by one system only)"))

    def confidence_interval(self, *, confidence_level: float = 0.95) -> ConfidenceInterval:
        level = check_confidence_level(confidence_level)
        sides = 2 if self.alternative == "two-sided" else 1
        assert self.n is not None  # made with the number of probes
        high = clopper_pearson(0, self.n, 2 * (1 - level) / (2 * sides))[1]
        low = -high
        if self.alternative == "greater":
            high = float("inf")
        elif self.alternative == "less":
            low = -float("inf")
        return ConfidenceInterval(low, high)


def _sign_result(wins_a: int, wins_b: int, alternative: Alternative) -> TestResult:
    if wins_a + wins_b == 0:  # every run tied: no evidence either way
        return TestResult(
            statistic=0.0, pvalue=1.0, log10_pvalue=0.0, estimate=0.0, alternative=alternative,
            method="sign test over runs (Guenter 2004 eq. 7, exact binomial; every run tied)",
            n=0,
        )
    return stats.sign_test(wins_a, wins_b, alternative=alternative)


def compare_identification(
    data: pd.DataFrame,
    /,
    *,
    test: IdentificationTest = "mcnemar",
    mcnemar_method: McNemarMethod = "exact",
    rank: int = 1,
    alternative: Alternative = "two-sided",
    adjust: Adjust | None = "holm",
    alpha: float = 0.05,
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    common_probes: bool = False,
    fold: str | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Test every pair of systems on their rank-N recognition rates, on the same probes.

    Parameters
    ----------
    data : DataFrame
        Tidy search table (see :func:`probe_ranks`) with at least two systems that
        searched the same probes.
    test : {"mcnemar", "gunter_paired", "gunter_simple", "sign", "bootstrap"}, default "mcnemar"
        ``"mcnemar"``: McNemar's test on the probes exactly one of the two systems
        recognises (:func:`pandas_biosig.stats.mcnemar`); ``"gunter_paired"``,
        ``"gunter_simple"``: Günter's (2004) paired (eq. 5–6) or simple (eq. 3) test
        (:func:`pandas_biosig.stats.recognition_rate_test`), as in
        :func:`pandas_biosig.compare`; ``"sign"``: the sign test
        over the runs named by ``fold`` (:func:`pandas_biosig.stats.sign_test`; ties are
        dropped); ``"bootstrap"``: a paired bootstrap over probes.
    mcnemar_method : {"exact", "midp", "chi2", "chi2_corrected"}, default "exact"
        The variant of McNemar's test (``test="mcnemar"``), as in
        :func:`pandas_biosig.compare`.
    rank : int, default 1
        A probe is recognised iff its mate ranks ``rank`` or better.
    alternative : {"two-sided", "less", "greater"}, default "two-sided"
        ``"greater"``: H1 is that system A's rate is higher than B's.
    adjust : str or None, default "holm"
        statsmodels ``multipletests`` method
        (:data:`pandas_biosig._core.pairwise.ADJUST_METHODS`), applied once per family (the
        rows of one ``by`` group), over exactly its rows, as in
        :func:`pandas_biosig.compare`; None or ``"none"``: no adjustment.
    alpha : float, default 0.05
        Level of ``reject``.
    confidence_level : float, default 0.95
        Level of the interval on the difference.
    n_resamples : int, default 1000
        Replicates of ``test="bootstrap"``.
    seed : int or numpy.random.Generator, optional
        Seed of the bootstrap.
    common_probes : bool, default False
        Keep the mated probes both systems ranked instead of raising when they differ.
    fold : str, optional
        The column naming the repeated runs (folds, seeds, datasets) of ``test="sign"``,
        as in :func:`pandas_biosig.compare_folds`; required by that test, and only used
        by it.
    by : str or list of str, optional
        Separate search experiments: each group's pairs are tested on their own (one row
        per group and pair), and each group is one family of the adjustment.
    system, probe, reference, score, mate, orientation, nonfinite
        As in :func:`probe_ranks`.
    count : str, optional
        Refused with a named error: the rows of a probe × reference score table are
        comparisons within a search, not trials (see docs/schema.md, "Counted trials").

    Returns
    -------
    DataFrame
        One row per unordered pair of systems (in order of first appearance) and ``by``
        group, the ``by`` columns first, then
        :data:`COMPARE_COLUMNS`: ``system_a``, ``system_b``, ``metric``
        (``"recognition_rate"``), ``rank``, ``test``, ``n`` (aligned mated probes; untied
        runs for the sign test), ``estimate`` (RR_A − RR_B; the mean sign for the sign
        test), ``statistic``, ``pvalue``, ``log10_pvalue``, ``adjust``, ``pvalue_adj``,
        ``alpha``, ``reject``, ``confidence_level``, ``ci_low``, ``ci_high``,
        ``alternative`` and ``method`` (the full name of the test).

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`; systems that do not rank the same mated probes
        (:data:`ERROR_PROBES_DIFFER`, unless ``common_probes``) or share none
        (:data:`ERROR_NO_COMMON`).
    ValueError
        Fewer than two systems (:data:`ERROR_ONE_SYSTEM`), ``test="sign"`` without
        ``fold`` (:data:`ERROR_SIGN_NEEDS_FOLD`), ``fold`` with another test
        (:data:`ERROR_FOLD_UNUSED`), or another bad option.

    See Also
    --------
    cmc_difference : a bootstrap band over every rank.
    pandas_biosig.stats.recognition_rate_test : the same tests from reported rates.

    Notes
    -----
    With :math:`b` the probes only A recognises and :math:`c` those only B recognises,
    McNemar's test and the bootstrap use the discordant counts (under H0 each discordant
    probe is a fair coin), and Günter's paired test uses :math:`R_1 = ` RR_A,
    :math:`R_2 = ` RR_B and :math:`R_{12}` (both right).  The paired bootstrap draws
    probes with replacement, the same for both systems; as only the discordant probes
    move the difference, a replicate is one multinomial draw of
    :math:`(b^*, c^*)` and the difference :math:`(b^* - c^*)/n`.

    References
    ----------
    Günter, S. (2004). *Vergleich von Erkennungsmethoden* (Technical Report IAM-04-001).
    Institut für Informatik und angewandte Mathematik, Universität Bern.

    McNemar, Q. (1947). Note on the sampling error of the difference between correlated
    proportions or percentages. *Psychometrika, 12*\(2), 153–157.

    Examples
    --------
    >>> from pandas_biosig.datasets import example_search
    >>> from pandas_biosig.identification import compare_identification
    >>> out = compare_identification(example_search())
    >>> out[["system_a", "system_b", "n", "estimate", "pvalue", "pvalue_adj"]].round(4)
      system_a system_b    n  estimate  pvalue  pvalue_adj
    0      cnn  cnn_aug  100      0.07  0.2100      0.4201
    1      cnn      gmm  100      0.14  0.0094      0.0281
    2      cnn      lbp  100      0.33  0.0000      0.0000
    3  cnn_aug      gmm  100      0.07  0.2478      0.4201
    4  cnn_aug      lbp  100      0.26  0.0000      0.0001
    5      gmm      lbp  100      0.19  0.0043      0.0173

    The sign test over the five folds of the example: with five runs, even five wins of
    five give only p = 2 · 0.5⁵ = 0.0625 (two-sided):

    >>> out = compare_identification(example_search(), test="sign", fold="fold")
    >>> out[["system_a", "system_b", "n", "statistic", "pvalue"]].round(4)
      system_a system_b  n  statistic  pvalue
    0      cnn  cnn_aug  5        4.0  0.3750
    1      cnn      gmm  5        4.0  0.3750
    2      cnn      lbp  5        5.0  0.0625
    3  cnn_aug      gmm  5        4.0  0.3750
    4  cnn_aug      lbp  5        5.0  0.0625
    5      gmm      lbp  5        5.0  0.0625
    """
    refuse_counts(count, function="compare_identification", reason=REASON_IDENTIFICATION)
    check_option(test, TESTS, "test")
    method = _test_method(test, mcnemar_method, fold)
    at_rank = check_count(rank, "rank", positive=True)
    check_option(alternative, stats.ALTERNATIVES, "alternative")
    adjust = check_adjust(adjust)
    alpha = check_alpha(alpha)
    level = check_confidence_level(confidence_level)
    n_resamples = check_n_resamples(n_resamples)
    by_cols = by_columns(by)
    s = validate_search(
        data, by=[*by_cols, fold] if fold is not None else by_cols, system=system, probe=probe,
        reference=reference, score=score, mate=mate, orientation=orientation,
        nonfinite=nonfinite,
    )
    systems = list(dict.fromkeys(g.system for g in s.groups))
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(found=systems))
    for g in s.groups:
        _require_mated(s, g, "a recognition rate")
    if test == "sign":
        pairs = _sign_pairs(s, systems, len(by_cols), at_rank, alternative, common_probes)
    else:
        rng = np.random.default_rng(seed)
        pairs = [
            (key, _pair_test(test, method, ra, rb, at_rank, alternative, rng, n_resamples))
            for key, ra, rb in _aligned_pairs(s, _families(s), systems, common_probes)
        ]
    families = {key[:-2]: None for key, _ in pairs}
    family_of = [list(families).index(key[:-2]) for key, _ in pairs]
    rows = [
        {
            **dict(zip([*by_cols, "system_a", "system_b"], key, strict=True)),
            **_result_columns(res, test, at_rank, level, alternative),
        }
        for key, res in pairs
    ]
    return finish(rows, by_cols, COMPARE_COLUMNS, family_of, adjust, alpha)


def _test_method(test: str, mcnemar_method, fold) -> str | None:
    """The variant of the chosen test, checked; ``fold`` only goes with the sign test."""
    if test == "sign" and fold is None:
        raise ValueError(ERROR_SIGN_NEEDS_FOLD)
    if test != "sign" and fold is not None:
        raise ValueError(ERROR_FOLD_UNUSED.format(fold=fold, test=test))
    if test == "mcnemar":
        return check_option(mcnemar_method, stats.MCNEMAR_METHODS, "mcnemar_method")
    if test in ("gunter_simple", "gunter_paired"):
        return test.removeprefix("gunter_")
    return None


def _aligned_pairs(s: Searches, families, systems, common_probes: bool):
    """``((*by, a, b), ranks of a, ranks of b)`` for every pair of systems of every family."""
    for fam_key, fam in families.items():
        for a, b in combinations([x for x in systems if x in fam], 2):
            ra, rb = _aligned_ranks(s, fam[a], fam[b], common_probes=common_probes)
            yield (*fam_key, a, b), ra, rb


def _sign_pairs(s: Searches, systems, n_by: int, at_rank: int, alternative: Alternative,
                common_probes: bool) -> list[tuple[tuple, TestResult]]:
    """The sign test of every pair over the runs (the last grouping column) of each ``by``
    group: a run is won by the system that recognises more of its probes."""
    wins: dict[tuple, list[int]] = {}
    for key, ra, rb in _aligned_pairs(s, _families(s), systems, common_probes):
        diff = np.count_nonzero(ra <= at_rank) - np.count_nonzero(rb <= at_rank)
        tally = wins.setdefault((*key[:n_by], *key[-2:]), [0, 0])
        tally[0] += int(diff > 0)
        tally[1] += int(diff < 0)
    present: dict[tuple, dict] = {}
    for g in s.groups:
        present.setdefault(g.key[:n_by], {})[g.system] = None
    return [
        ((*group, a, b), _sign_result(wins_a, wins_b, alternative))
        for group, here in present.items()
        for a, b in combinations([x for x in systems if x in here], 2)
        for wins_a, wins_b in [wins.get((*group, a, b), (0, 0))]
    ]


def _result_columns(res: TestResult, test: str, at_rank: int, level: float,
                    alternative: str) -> dict:
    """The columns of one test's row, before the adjustment."""
    ci = res.confidence_interval(confidence_level=level)
    return dict(
        metric="recognition_rate", rank=at_rank, test=test, n=res.n, estimate=res.estimate,
        statistic=res.statistic, pvalue=res.pvalue, log10_pvalue=res.log10_pvalue,
        confidence_level=level, ci_low=float(ci.low), ci_high=float(ci.high),
        alternative=alternative, method=res.method,
        fallback_reason=getattr(res, "fallback_reason", None) or None,
    )


@_fill_doc
def cmc_difference(
    data: pd.DataFrame,
    /,
    *,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    seed: int | np.random.Generator | None = None,
    max_rank: int | None = None,
    common_probes: bool = False,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
    count: str | None = None,
) -> xr.Dataset:
    r"""Paired bootstrap band on the difference of the CMC curves of every pair of systems.

    Parameters
    ----------
    data : DataFrame
        Tidy search table (see :func:`probe_ranks`) with at least two systems.
    n_resamples : int, default 1000
        Bootstrap replicates (each draws the probes with replacement, the same draw for
        both systems of a pair).
    confidence_level : float, default 0.95
        Level of the pointwise intervals and of the simultaneous band.
    seed : int or numpy.random.Generator, optional
        Seed of the replicates.
    max_rank : int, optional
        Last rank (default: as :func:`cmc`).
    common_probes : bool, default False
        As in :func:`compare_identification`.
    {column_args}
    count : str, optional
        Refused with a named error: the rows of a probe × reference score table are
        comparisons within a search, not trials (see docs/schema.md, "Counted trials").

    Returns
    -------
    Dataset
        Dimensions ``(*by, pair, rank)``; coordinates ``system_a`` and ``system_b`` over
        ``pair`` (every unordered pair in order of first appearance), ``rank``, and the
        scalars ``confidence_level`` and ``n_resamples``.  Data variables over
        ``(*by, pair, rank)``: ``estimate`` (CMC_A − CMC_B), ``ci_low``/``ci_high`` (the
        pointwise percentile interval at each rank), ``band_low``/``band_high`` (a
        simultaneous band over all ranks), ``constant`` (True where the replicates cannot
        vary, no probe being identified at the rank by one system only: the bounds there
        are exact Clopper–Pearson bounds instead, :data:`CONSTANT_RANKS`); ``n`` (aligned
        mated probes) over ``(*by, pair)``.  A pair missing in a ``by`` group is NaN.

    Raises
    ------
    SchemaError, ValueError
        As :func:`compare_identification` and :func:`cmc`.

    See Also
    --------
    compare_identification : tests at one rank, with adjusted p-values.

    Notes
    -----
    The band is the studentized max-|t| (sup-t) band: with :math:`\hat d_r` the
    difference at rank :math:`r`, :math:`\hat\sigma_r` the standard deviation of its
    replicates and :math:`c` the ``confidence_level`` quantile of
    :math:`\max_r |d^*_r - \hat d_r| / \hat\sigma_r` over the replicates, the band is
    :math:`\hat d_r \pm c\,\hat\sigma_r` (ranks where the difference never varies get
    :math:`\hat d_r`).  It covers the whole curve at once with the stated level, so a
    difference outside it at any rank is significant without a multiplicity correction;
    the pointwise intervals are narrower but hold for one rank at a time.  Memory:
    ``n_resamples × max_rank`` floats per pair.

    References
    ----------
    Montiel Olea, J. L., & Plagborg-Møller, M. (2019). Simultaneous confidence bands:
    Theory, implementation, and an application to SVARs. *Journal of Applied
    Econometrics, 34*\(1), 1–17.

    Examples
    --------
    >>> from pandas_biosig.datasets import example_search
    >>> from pandas_biosig.identification import cmc_difference
    >>> ds = cmc_difference(example_search(), n_resamples=300, seed=0, max_rank=10)
    >>> pair = ds.isel(pair=2)  # cnn vs lbp
    >>> str(pair.system_a.item()), str(pair.system_b.item())
    ('cnn', 'lbp')
    >>> bool((pair.band_low.sel(rank=1) > 0).item())
    True
    """
    refuse_counts(count, function="cmc_difference", reason=REASON_IDENTIFICATION)
    n_resamples = check_n_resamples(n_resamples)
    level = check_confidence_level(confidence_level)
    max_rank = None if max_rank is None else check_count(max_rank, "max_rank", positive=True)
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    systems = list(dict.fromkeys(g.system for g in s.groups))
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(found=systems))
    for g in s.groups:
        _require_mated(s, g, "the CMC")
    r = max(_largest_rank(g) for g in s.groups) if max_rank is None else max_rank
    rng = np.random.default_rng(seed)
    pairs = list(combinations(systems, 2))
    families = _families(s)
    keys, values = [], []
    for fam_key, fam in families.items():
        for i, (a, b) in enumerate(pairs):
            if a not in fam or b not in fam:
                continue
            ra, rb = _aligned_ranks(s, fam[a], fam[b], common_probes=common_probes)
            est = (_k.cmc_counts(ra, r) - _k.cmc_counts(rb, r)) / ra.size
            reps = _k.cmc_difference_replicates(ra, rb, r, n_resamples, rng)
            keys.append((*fam_key, i))
            values.append((est, *_exact_where_constant(ra, rb, r, *_bands(est, reps, level),
                                                       level), ra.size))
    grid = _Grid(s.by, keys, last="pair", values=range(len(pairs)))
    dims = grid.dims
    names = ["estimate", "ci_low", "ci_high", "band_low", "band_high"]
    long_names = [
        "difference of the CMC curves (A - B)",
        "pointwise bootstrap interval, lower bound",
        "pointwise bootstrap interval, upper bound",
        "simultaneous bootstrap band, lower bound",
        "simultaneous bootstrap band, upper bound",
    ]
    data_vars = {
        name: _var([*dims, "rank"], grid.array([v[j] for v in values], (r,)), long, "1")
        for j, (name, long) in enumerate(zip(names, long_names, strict=True))
    }
    data_vars["constant"] = _var([*dims, "rank"], _constant(grid, values, r), CONSTANT_RANKS, "")
    data_vars["n"] = _var(dims, grid.array([v[-1] for v in values], dtype=np.int64),
                          "mated probes ranked by both systems", "1")
    attrs = {**_attrs(s, "cmc_difference"),
             "band": "studentized max-|t| (sup-t) over ranks; intervals: percentile"}
    return xr.Dataset(
        data_vars,
        coords={
            **{d: grid.coords[d] for d in s.by},
            "pair": np.arange(len(pairs)),
            "system_a": ("pair", [p[0] for p in pairs]),
            "system_b": ("pair", [p[1] for p in pairs]),
            "rank": np.arange(1, r + 1),
            "confidence_level": level,
            "n_resamples": n_resamples,
        },
        attrs=attrs,
    )


#: ``long_name`` of :func:`cmc_difference`'s ``constant`` variable: why a rank's bounds
#: are not the bootstrap's.
CONSTANT_RANKS = (
    "every bootstrap replicate is equal at this rank (no probe, or every probe, "
    "identified by one system only), so the bootstrap cannot vary: the interval and band "
    "there are exact Clopper-Pearson bounds of the two discordant proportions (Bonferroni)"
)


def _constant(grid, values, r) -> np.ndarray:
    """The ``constant`` flags of every pair on the grid (False where a pair is missing)."""
    return grid.array([v[5].astype(float) for v in values], (r,)) > 0


def _exact_where_constant(ra, rb, r, low, high, band_low, band_high, level):
    """The bounds, with exact ones where the replicates cannot vary: every probe
    discordant the same way or none (``x10``, ``x01``: probes identified at the rank by
    A only, by B only)."""
    n = ra.size
    both = np.maximum(ra, rb)
    x10 = _k.cmc_counts(ra, r) - _k.cmc_counts(both, r)
    x01 = _k.cmc_counts(rb, r) - _k.cmc_counts(both, r)
    constant = np.isin(x10, (0, n)) & np.isin(x01, (0, n))
    if not constant.any():
        return low, high, band_low, band_high, constant
    alpha = (1 - level) / 2
    exact = [
        np.subtract(*(np.array([clopper_pearson(a, n, alpha)[i] for a in x[constant]])
                      for x, i in ((x10, side), (x01, 1 - side))))
        for side in (0, 1)
    ]
    out = [np.array(b, dtype=np.float64) for b in (low, high, band_low, band_high)]
    for b, e in zip(out, (*exact, *exact), strict=True):
        b[constant] = e
    return (*out, constant)


def _bands(est: np.ndarray, reps: np.ndarray,
           level: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Pointwise percentile interval and sup-t band of bootstrap replicates."""
    alpha = 1.0 - level
    low, high = np.quantile(reps, [alpha / 2, 1 - alpha / 2], axis=0)
    se = reps.std(axis=0, ddof=1) if reps.shape[0] > 1 else np.zeros(est.size)
    varies = se > 0
    if varies.any():
        t = np.abs(reps[:, varies] - est[varies]) / se[varies]
        c = float(np.quantile(t.max(axis=1), level))
    else:
        c = 0.0
    half = np.where(varies, c * se, 0.0)
    return low, high, est - half, est + half
