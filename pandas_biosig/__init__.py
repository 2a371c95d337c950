"""pandas_biosig: error rates, curves and significance tests for biometric verification.

Importing the package registers the ``DataFrame.biosig`` accessor.
"""

from importlib.metadata import PackageNotFoundError, version

from . import datasets, stats
from ._schema import LABEL_VOCABULARY, BiosigWarning, SchemaError
from .accessor import BiosigAccessor
from .metrics import dcf, eer, error_rates, summary
from .resampling import bootstrap, paired_bootstrap
from .significance import (
    ci,
    compare,
    compare_folds,
    eer_bound_table,
    fold_metrics,
    fold_summary,
    pairwise_matrix,
)

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
]
