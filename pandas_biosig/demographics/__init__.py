r"""Demographic differentials: per-group error rates at one global threshold.

A demographic trial table is the tidy trial table (``system, trial, label, score``, optional
``split``, ``subject`` and ``reference_subject``, the reference's subject) with a group
column for each side of a comparison: ``group`` for
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
``comparisons`` (compare_groups, compare_fairness); ``_plan`` holds what they share,
``_two_way`` the intervals and bootstrap of people in both roles (a ``reference_subject``
column beside ``subject``).
"""

from ._comparisons import compare_fairness, compare_groups
from ._merit import fairness, fdr_curve
from ._rates import cross_group_fmr, group_rates

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
