r"""The same functions on dask DataFrames, exact: tables that outgrow one machine.

Importing this package (it needs the ``dask`` extra) registers ``ddf.biosig`` on dask
DataFrames; ``import pandas_biosig`` does so too when ``dask.dataframe`` is already
imported. Each function returns the numbers the in-memory function returns for the
computed table.

======================================  =====================================================
:func:`eer`, :func:`error_rates`,        per-system rates from exact passes (``_api``,
:func:`dcf`, :func:`summary`             ``_engine``)
:func:`det`, :func:`roc`                 DET and ROC on a grid of rates (``_curves``)
:func:`bayes_error`                      Bayes error-rate curve (``_bayes``)
:func:`epc`                              expected performance curve (``_epc``)
:func:`bootstrap`                        subject bootstrap of the EER and FNMR at FMR
                                         (``_bootstrap``)
:func:`ci`                               FAR, FRR, HTER and DCF intervals at a threshold
                                         (``_intervals``)
:func:`compare`, :func:`pairwise_counts` every pair of systems (``_pairwise``, the aligned
                                         pass ``_pairpass``, the paired bootstrap
                                         ``_paired``, ``_paired_sweeps``)
======================================  =====================================================
"""

from ._api import DaskBiosigAccessor, dcf, eer, error_rates, summary
from ._bayes import bayes_error
from ._bootstrap import BOOTSTRAP_METRICS, bootstrap
from ._curves import DET_VARIABLES, det, roc
from ._epc import epc
from ._intervals import ci
from ._pairwise import PAIRWISE_COLUMNS, compare, pairwise_counts

__all__ = [
    "BOOTSTRAP_METRICS",
    "DET_VARIABLES",
    "PAIRWISE_COLUMNS",
    "DaskBiosigAccessor",
    "bayes_error",
    "bootstrap",
    "ci",
    "compare",
    "dcf",
    "det",
    "eer",
    "epc",
    "error_rates",
    "pairwise_counts",
    "roc",
    "summary",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
