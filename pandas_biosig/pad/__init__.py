r"""Presentation-attack detection (PAD) and the vulnerability of verification systems.

A PAD table is the tidy trial table whose ``label`` says bona fide or attack, with the
attack species in ``pai``; a vulnerability table adds ``kind`` (genuine, zero-effort
impostor, attack) to a verification table.

=====================================  ======================================================
:func:`pad_metrics`, :func:`pad_rates`  APCER per species and its maximum, BPCER, ACER at a
                                        threshold policy (``_metrics``; table: ``_table``)
:func:`pad_det`                         DET of bona fide against each species and the max
:func:`pad_compare`                     paired tests of PAD systems (``_compare``)
:func:`iapmr`, :func:`vulnerability`,   IAPMR at the licit operating point, the EPSC
:func:`epsc`                            (``_vulnerability``)
=====================================  ======================================================
"""

from ._compare import PAD_COMPARE_COLUMNS, PAD_COMPARE_METRICS, PAD_TESTS, pad_compare
from ._metrics import pad_det, pad_metrics, pad_rates
from ._vulnerability import (
    EPSC_CRITERIA,
    IAPMR_COLUMNS,
    KIND_VOCABULARY,
    LICIT_CRITERIA,
    VULNERABILITY_COLUMNS,
    epsc,
    iapmr,
    vulnerability,
)

__all__ = [
    "EPSC_CRITERIA",
    "IAPMR_COLUMNS",
    "KIND_VOCABULARY",
    "LICIT_CRITERIA",
    "PAD_COMPARE_COLUMNS",
    "PAD_COMPARE_METRICS",
    "PAD_TESTS",
    "VULNERABILITY_COLUMNS",
    "epsc",
    "iapmr",
    "pad_compare",
    "pad_det",
    "pad_metrics",
    "pad_rates",
    "vulnerability",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
