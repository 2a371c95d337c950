r"""Statistical tests and intervals from summary numbers (rates and counts).

For readers of a paper who have only the reported numbers: FAR/FRR and the numbers of
impostor and genuine trials, EERs and the size of the common test set, recognition rates,
or the discordant counts of two systems.  Every test returns a frozen
:class:`~pandas_biosig.TestResult` (``statistic``, ``pvalue``, ``log10_pvalue``,
``estimate``, ``alternative``, ``method``, ``n`` and ``.confidence_interval()``), every
interval an :class:`~pandas_biosig.IntervalResult`.

============================================  ===============================================
:func:`hter_ci`, :func:`dcf_ci`               interval around one HTER / DCF (Bengio &
                                              Mariéthoz 2004, eq. 13–14)
:func:`hter_test`                             HTER_A vs HTER_B (eq. 15, 16; NAIVE eq. 18 and
                                              CLASS eq. 17 for illustration only)
:func:`mcnemar`, :func:`mcnemar_table`        paired decisions of two systems
:func:`eer_bound`                             upper bound on McNemar's p from two reported
                                              EERs (Hofbauer & Uhl)
:func:`min_significant_eer_difference`        smallest EER difference that is significant
:func:`recognition_rate_test`                 Günter (2004) simple and paired tests
:func:`sign_test`                             wins over repeated runs (Günter 2004, eq. 7)
:func:`rate_ci`                               binomial interval for one FAR or FRR
============================================  ===============================================

One idea per submodule (:mod:`~pandas_biosig.stats._hter`, :mod:`~pandas_biosig.stats._mcnemar`,
:mod:`~pandas_biosig.stats._eer_bounds`, :mod:`~pandas_biosig.stats._recognition`,
:mod:`~pandas_biosig.stats._rates`); every public name is importable from here. Invalid
input raises ``ValueError`` with one of the ``ERROR_*`` messages of this package
(:mod:`pandas_biosig.stats._common`).
"""

from __future__ import annotations

from ._common import (
    ALTERNATIVES,
    HTER_CI_METHODS,
    HTER_TEST_METHODS,
    MCNEMAR_METHODS,
    RATE_CI_METHODS,
    RECOGNITION_METHODS,
)
from ._eer_bounds import eer_bound, min_significant_eer_difference
from ._hter import dcf_ci, hter_ci, hter_test
from ._mcnemar import mcnemar, mcnemar_table
from ._rates import rate_ci
from ._recognition import recognition_rate_test, sign_test

__all__ = [
    "ALTERNATIVES",
    "HTER_CI_METHODS",
    "HTER_TEST_METHODS",
    "MCNEMAR_METHODS",
    "RATE_CI_METHODS",
    "RECOGNITION_METHODS",
    "dcf_ci",
    "eer_bound",
    "hter_ci",
    "hter_test",
    "mcnemar",
    "mcnemar_table",
    "min_significant_eer_difference",
    "rate_ci",
    "recognition_rate_test",
    "sign_test",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
