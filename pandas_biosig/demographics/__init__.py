r"""Demographic differentials: per-group error rates at one global threshold.

A demographic trial table is the tidy trial table (``system, trial, label, score``, optional
``split`` and ``subject``) with a group column for each side of a comparison: ``group`` for
the probe and ``reference_group`` for the reference (or only ``group`` when a trial has one
group). A genuine trial belongs to its subject's group, so both sides must agree on it; an
impostor trial is *same-group* or *cross-group*, and every function counts either the
same-group impostors only (``impostors="same_group"``, as de Freitas Pereira & Marcel do) or
all of them (``"all"``, each attributed to the probe's group). The choice is a column of
every result.

One threshold per system is set on the whole population of counted trials — a-priori on
the ``dev`` split and reported on ``eval`` by default when the table has both — at a target
FMR, at the EER, or fixed; then every group is measured at that same threshold.

========================================  =================================================
:func:`group_rates`                       n, FMR and FNMR per (system, group), intervals
:func:`cross_group_fmr`                   FMR of every (group, reference group) cell
:func:`fairness`                          max/min ratios, FDR, Gini, GARBE, inequity rate
:func:`fdr_curve`                         FDR over FMR targets and its area
:func:`compare_groups`                    every pair of groups, FMR and FNMR, Holm
:func:`compare_fairness`                  every pair of systems on a figure of merit
========================================  =================================================

The functions need the whole table in memory: a dask DataFrame raises ``TypeError`` with
:data:`ERROR_DASK` (call ``.compute()`` first; the per-group counts are exact either way).

Modules: ``rates`` (group_rates, cross_group_fmr), ``merit`` (fairness, fdr_curve),
``comparisons`` (compare_groups, compare_fairness); ``_plan`` holds what they share.
"""

# options, messages and result columns, importable from here as before the split
from .._validation import ERROR_N_RESAMPLES  # noqa: F401
from ._plan import (  # noqa: F401
    COMPARE_FAIRNESS_COLUMNS,
    COMPARE_GROUPS_COLUMNS,
    CRITERIA,
    DEV_NAMES,
    ERROR_DASK,
    ERROR_GENUINE_CROSS,
    ERROR_MISSING_GROUP,
    ERROR_NO_IMPOSTORS,
    ERROR_ON_FIXED,
    ERROR_ON_MISSING,
    ERROR_ONE_GROUP,
    ERROR_ONE_SYSTEM,
    ERROR_REFERENCE_NEEDED,
    ERROR_TARGET,
    ERROR_TARGETS,
    ERROR_THRESHOLD,
    ERROR_WEIGHT,
    EVAL_NAMES,
    FAIRNESS_COLUMNS,
    FAIRNESS_METRICS,
    FIXED,
    GROUP_RATE_COLUMNS,
    IMPOSTORS,
    INTERVAL_METHODS,
    SAME_TRIALS,
    TEST_METHODS,
    FairnessMetric,
    GroupCriterion,
    Impostors,
    IntervalMethod,
    Scale,
    TestMethod,
)
from .comparisons import compare_fairness, compare_groups
from .merit import fairness, fdr_curve
from .rates import cross_group_fmr, group_rates

__all__ = [
    "compare_fairness",
    "compare_groups",
    "cross_group_fmr",
    "fairness",
    "fdr_curve",
    "group_rates",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
