r"""Verification: error rates, curves, intervals and tests of 1:1 trial tables.

The core of the library. A tidy trial table (``system, trial, label, score``, optional
``split``, ``subject``) in, a tidy result out; every function is also a method of
``DataFrame.biosig`` and a name of the top-level namespace (``pbs.eer``).

=============================================  ==============================================
:func:`eer`, :func:`error_rates`, :func:`dcf`,  per-system error rates (``_metrics``)
:func:`summary`
:func:`roc`, :func:`det`, :func:`det_grid`,     curves as ``xarray.Dataset`` (``_curves``)
:func:`rocch`, :func:`bayes_error`,
:func:`ppndf`
:func:`epc`, :func:`epc_bootstrap`              the expected performance curve and its
                                                bands (``_epc``)
:func:`ci`                                      FAR, FRR, HTER, DCF intervals (``_intervals``)
:func:`bootstrap`, :func:`paired_bootstrap`     bootstrap intervals and paired tests
                                                (``_resampling``)
:func:`det_band`, :func:`frr_at_far`            bootstrap bands of DET/ROC curves, FRR at
                                                fixed FARs with intervals (``_bands``)
:func:`threshold_guarantee`                     a threshold whose FAR holds on new data
                                                with stated confidence (``_guarantee``)
:func:`compare`                                 every pair of systems (``_comparison``)
:func:`fold_metrics`, :func:`fold_summary`,     repeated runs (``_folds``)
:func:`compare_folds`
:func:`eer_bound_table`                         Hofbauer & Uhl bounds from reported EERs
                                                (``_literature``)
=============================================  ==============================================
"""

from ._bands import DEFAULT_BAND_GRID, FRR_AT_FAR_COLUMNS, NIST_FAR, det_band, frr_at_far
from ._comparison import (
    COMPARE_COLUMNS,
    DECISION_TESTS,
    NULL_HYPOTHESIS,
    TESTS,
    DecisionTestError,
    Test,
    compare,
    default_test,
)
from ._curves import bayes_error, det, det_grid, ppndf, roc, rocch
from ._epc import DEFAULT_WEIGHTS, epc, epc_bootstrap
from ._folds import (
    COMPARE_FOLDS_COLUMNS,
    FOLD_METRICS,
    FOLD_METRICS_COLUMNS,
    FOLD_SUMMARY_COLUMNS,
    compare_folds,
    fold_metrics,
    fold_summary,
)
from ._guarantee import GUARANTEE_COLUMNS, threshold_guarantee
from ._intervals import CI_COLUMNS, CI_COMBINE, CI_METRICS, ci
from ._literature import EER_BOUND_COLUMNS, eer_bound_table
from ._metrics import EER_METHODS, dcf, eer, error_rates, summary
from ._resampling import BOOTSTRAP_COLUMNS, BOOTSTRAP_METRICS, bootstrap, paired_bootstrap

__all__ = [
    "BOOTSTRAP_COLUMNS",
    "BOOTSTRAP_METRICS",
    "CI_COLUMNS",
    "CI_COMBINE",
    "CI_METRICS",
    "COMPARE_COLUMNS",
    "COMPARE_FOLDS_COLUMNS",
    "DECISION_TESTS",
    "DEFAULT_BAND_GRID",
    "DEFAULT_WEIGHTS",
    "EER_BOUND_COLUMNS",
    "EER_METHODS",
    "FOLD_METRICS",
    "FOLD_METRICS_COLUMNS",
    "FOLD_SUMMARY_COLUMNS",
    "FRR_AT_FAR_COLUMNS",
    "GUARANTEE_COLUMNS",
    "NIST_FAR",
    "NULL_HYPOTHESIS",
    "TESTS",
    "DecisionTestError",
    "Test",
    "bayes_error",
    "bootstrap",
    "ci",
    "compare",
    "compare_folds",
    "dcf",
    "default_test",
    "det",
    "det_band",
    "det_grid",
    "eer",
    "eer_bound_table",
    "epc",
    "epc_bootstrap",
    "error_rates",
    "fold_metrics",
    "fold_summary",
    "frr_at_far",
    "paired_bootstrap",
    "ppndf",
    "roc",
    "rocch",
    "summary",
    "threshold_guarantee",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
