r"""Identification (1:N search): ranks, CMC, recognition and open-set rates, comparisons.

A search table has one row per (probe, reference) comparison of each system; see
``_search`` for the table model.

=========================================  ==================================================
:func:`probe_ranks`, :func:`cmc`,           closed-set ranks, the CMC and rank-N rates
:func:`recognition_rate`                    (``_metrics``)
:func:`detection_identification_rate`,      open-set DIR at a false-alarm rate, and its curve
:func:`dir_curve`
:func:`compare_identification`,             paired tests of systems and the CMC difference
:func:`cmc_difference`                      band (``_compare``)
=========================================  ==================================================
"""

from ._compare import (
    CMC_DIFFERENCE_VARIABLES,
    COMPARE_COLUMNS,
    TESTS,
    cmc_difference,
    compare_identification,
)
from ._metrics import (
    CMC_VARIABLES,
    DIR_COLUMNS,
    DIR_CURVE_VARIABLES,
    PROBE_RANK_COLUMNS,
    RECOGNITION_COLUMNS,
    cmc,
    detection_identification_rate,
    dir_curve,
    probe_ranks,
    recognition_rate,
)

__all__ = [
    "CMC_DIFFERENCE_VARIABLES",
    "CMC_VARIABLES",
    "COMPARE_COLUMNS",
    "DIR_COLUMNS",
    "DIR_CURVE_VARIABLES",
    "PROBE_RANK_COLUMNS",
    "RECOGNITION_COLUMNS",
    "TESTS",
    "cmc",
    "cmc_difference",
    "compare_identification",
    "detection_identification_rate",
    "dir_curve",
    "probe_ranks",
    "recognition_rate",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
