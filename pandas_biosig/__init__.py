"""pandas_biosig: error rates, curves and significance tests for biometric verification.

Importing the package registers the ``DataFrame.biosig`` accessor.
"""

from importlib.metadata import PackageNotFoundError, version

from . import datasets, plot, stats
from ._schema import LABEL_VOCABULARY, BiosigWarning, SchemaError
from .accessor import BiosigAccessor
from .curves import bayes_error, det, det_grid, epc, ppndf, roc, rocch
from .demographics import (
    compare_fairness,
    compare_groups,
    cross_group_fmr,
    fairness,
    fdr_curve,
    group_rates,
)
from .export import to_latex, to_markdown
from .identification import (
    cmc,
    cmc_difference,
    compare_identification,
    detection_identification_rate,
    dir_curve,
    probe_ranks,
    read_bob_identification,
    read_pyeer_cmc,
    recognition_rate,
)
from .io import (
    FileTooLargeError,
    ScoreFileError,
    read_bob,
    read_nist,
    read_score_lists,
    read_scores,
    read_table,
)
from .io_pad import read_asvspoof_asv, read_asvspoof_cm, read_bob_pad, read_bob_vuln
from .metrics import dcf, eer, error_rates, summary
from .pad import pad_det, pad_metrics, pad_rates
from .pad_compare import pad_compare
from .resampling import bootstrap, epc_bootstrap, paired_bootstrap
from .significance import (
    ci,
    compare,
    compare_folds,
    eer_bound_table,
    fold_metrics,
    fold_summary,
    pairwise_matrix,
)
from .vulnerability import epsc, iapmr, vulnerability

try:
    __version__ = version("pandas-biosig")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "LABEL_VOCABULARY",
    "BiosigAccessor",
    "BiosigWarning",
    "SchemaError",
    "__version__",
    "bootstrap",
    "datasets",
    "plot",
    "stats",
    "dcf",
    "eer",
    "paired_bootstrap",
    "error_rates",
    "summary",
    "ci",
    "compare",
    "compare_folds",
    "eer_bound_table",
    "fold_metrics",
    "fold_summary",
    "pairwise_matrix",
    "bayes_error",
    "det",
    "det_grid",
    "epc",
    "epc_bootstrap",
    "ppndf",
    "roc",
    "rocch",
    "to_latex",
    "to_markdown",
    "ScoreFileError",
    "FileTooLargeError",
    "read_bob",
    "read_nist",
    "read_score_lists",
    "read_scores",
    "read_table",
    "cmc",
    "cmc_difference",
    "compare_identification",
    "detection_identification_rate",
    "dir_curve",
    "probe_ranks",
    "read_bob_identification",
    "read_pyeer_cmc",
    "recognition_rate",
    "pad_compare",
    "pad_det",
    "pad_metrics",
    "pad_rates",
    "epsc",
    "iapmr",
    "vulnerability",
    "read_asvspoof_asv",
    "read_asvspoof_cm",
    "read_bob_pad",
    "read_bob_vuln",
    "compare_fairness",
    "compare_groups",
    "cross_group_fmr",
    "fairness",
    "fdr_curve",
    "group_rates",
]

import importlib.util as _util

if _util.find_spec("dask") is not None:  # optional extra: registers dask's ddf.biosig
    from . import outofcore  # noqa: F401

#: Public submodules, offered by dir() next to __all__.
_SUBMODULES = (
    "accessor", "cli", "curves", "datasets", "export", "identification", "io", "metrics",
    "outofcore", "plot", "resampling", "results", "significance", "stats", "validity",
)


def __dir__() -> list[str]:
    """The public names and submodules: what ``dir()`` and tab completion offer."""
    return sorted({*__all__, "__version__", *(m for m in _SUBMODULES if m in globals())})
