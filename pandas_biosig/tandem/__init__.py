r"""Spoofing-aware speaker verification: an ASV system and a spoofing countermeasure (CM)
in tandem, on a tandem table (each trial's ASV and CM scores side by side).

=========================================  ===================================================
:func:`tandem_table`                       the table from an ASV table and a CM table
                                           (``_build``; checks: ``_table``)
:func:`tdcf`, :func:`tdcf_curve`,          t-DCF (2019 and 2021/ASVspoof 5) and t-EER
:func:`teer`                               (``_metrics``)
:func:`sasv_score`, :func:`adcf`,          a spoofing-aware score, its a-DCF; the CM's
:func:`cm_metrics`                         minDCF, actDCF, Cllr, EER (``_sasv``)
:func:`tandem_bootstrap`,                  intervals by resampling speakers, all-pairs tests
:func:`tandem_compare`                     of CM systems (``_resampling``)
=========================================  ===================================================

Definitions, sources and conventions: ``docs/tandem.md``.
"""

from ._build import tandem_table
from ._compare import TANDEM_COMPARE_COLUMNS, tandem_compare
from ._metrics import (
    ASV_THRESHOLDS,
    CM_THRESHOLDS,
    TDCF_COLUMNS,
    TDCF_VERSIONS,
    TEER_COLUMNS,
    tdcf,
    tdcf_curve,
    teer,
)
from ._resampling import (
    TANDEM_BOOTSTRAP_COLUMNS,
    TANDEM_CI_METHODS,
    TANDEM_DEFAULT_CI,
    TANDEM_METRICS,
    tandem_bootstrap,
)
from ._sasv import (
    ADCF_COLUMNS,
    ADCF_THRESHOLDS,
    CM_COLUMNS,
    CM_DCF_THRESHOLDS,
    SASV_METHODS,
    adcf,
    cm_metrics,
    sasv_score,
)
from ._table import KIND_NAMES, TANDEM_KINDS

__all__ = [
    "ADCF_COLUMNS",
    "ADCF_THRESHOLDS",
    "ASV_THRESHOLDS",
    "CM_COLUMNS",
    "CM_DCF_THRESHOLDS",
    "CM_THRESHOLDS",
    "KIND_NAMES",
    "SASV_METHODS",
    "TANDEM_BOOTSTRAP_COLUMNS",
    "TANDEM_CI_METHODS",
    "TANDEM_COMPARE_COLUMNS",
    "TANDEM_DEFAULT_CI",
    "TANDEM_KINDS",
    "TANDEM_METRICS",
    "TDCF_COLUMNS",
    "TDCF_VERSIONS",
    "TEER_COLUMNS",
    "adcf",
    "cm_metrics",
    "sasv_score",
    "tandem_bootstrap",
    "tandem_compare",
    "tandem_table",
    "tdcf",
    "tdcf_curve",
    "teer",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
