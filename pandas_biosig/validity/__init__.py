r"""The simulation harness that measures every test's level and every interval's coverage.

``python -m pandas_biosig.validity`` prints the report of docs/validity.md; ``python -m
pandas_biosig.validity defaults`` the run over every default call.

======================================  =====================================================
:func:`simulate_trials`, :func:`rejection_rates`,  verification tables with a known truth,
:func:`coverage`, :func:`threshold_selection`,      type-I error and power, coverage
:func:`true_eer`                                    (``_verification``)
:func:`dev_eval_trials`, :func:`defaults_report`    every default call (``_defaults``)
:func:`simulate_pad`, :func:`pad_rejection_rates`,  PAD (``_pad``)
:func:`pad_coverage`, :func:`pad_report`,
:func:`simulate_vulnerability`,
:func:`vulnerability_coverage`
:func:`simulate_demographic_trials`, ...            demographics (``_demographics``)
:func:`fusion_rejection_rates`,                     calibration and fusion: a useless
:func:`calibrated_cllr_coverage`, ...               component, a known Cllr (``_calibration``)
:func:`simulate_tandem`, :func:`tandem_coverage`,   ASV + CM in tandem (``_tandem``)
:func:`tandem_rejection_rates`, :func:`tandem_report`
:func:`crossed_trials`, :func:`ci_coverage`,        crossed probe/reference effects, bands,
:func:`group_rates_coverage`, :func:`eer_tails`,   guarantees, demographic intervals
:func:`band_coverage`,                              (``_crossed``, ``_uncertainty``)
:func:`guarantee_exceedance`
======================================  =====================================================
"""

from ._calibration import (
    CALIBRATION_PROTOCOLS,
    CalibrationSetting,
    calibrated_cllr_coverage,
    calibration_report,
    fusion_rejection_rates,
    simulate_calibration_trials,
    true_cllr,
)
from ._crossed import CrossedSetting, crossed_trials
from ._defaults import PROTOCOLS, defaults_report, dev_eval_trials
from ._demographics import (
    demographic_coverage,
    demographic_rejection_rates,
    fairness_rejection_rates,
    simulate_demographic_trials,
)
from ._pad import (
    PAD_TESTS,
    PadSetting,
    pad_coverage,
    pad_rejection_rates,
    pad_report,
    simulate_pad,
    simulate_vulnerability,
    vulnerability_coverage,
)
from ._tandem import (
    TandemSetting,
    simulate_tandem,
    tandem_coverage,
    tandem_rejection_rates,
    tandem_report,
)
from ._uncertainty import (
    band_coverage,
    ci_coverage,
    eer_tails,
    group_rates_coverage,
    guarantee_exceedance,
    uncertainty_report,
)
from ._verification import (
    Setting,
    coverage,
    rejection_rates,
    simulate_trials,
    threshold_selection,
    true_eer,
)

__all__ = [
    "CALIBRATION_PROTOCOLS",
    "CalibrationSetting",
    "PAD_TESTS",
    "PROTOCOLS",
    "CrossedSetting",
    "PadSetting",
    "Setting",
    "calibrated_cllr_coverage",
    "calibration_report",
    "TandemSetting",
    "band_coverage",
    "ci_coverage",
    "coverage",
    "crossed_trials",
    "defaults_report",
    "demographic_coverage",
    "demographic_rejection_rates",
    "dev_eval_trials",
    "eer_tails",
    "fairness_rejection_rates",
    "fusion_rejection_rates",
    "group_rates_coverage",
    "guarantee_exceedance",
    "pad_coverage",
    "pad_rejection_rates",
    "pad_report",
    "rejection_rates",
    "simulate_calibration_trials",
    "simulate_demographic_trials",
    "simulate_pad",
    "simulate_tandem",
    "simulate_trials",
    "simulate_vulnerability",
    "tandem_coverage",
    "tandem_rejection_rates",
    "tandem_report",
    "threshold_selection",
    "true_cllr",
    "true_eer",
    "vulnerability_coverage",
    "uncertainty_report",
]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
