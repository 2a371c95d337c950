"""pandas_biosig: error rates, curves and significance tests for biometric verification.

Importing the package registers the ``DataFrame.biosig`` accessor.
"""

import sys as _sys
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType as _ModuleType

from . import datasets
from ._lazy import register_when_imported
from ._schema import LABEL_VOCABULARY, BiosigWarning, SchemaError
from .accessor import BiosigAccessor

# Everything else loads the first time it is used (``pbs.compare``, ``pbs.plot``...), so
# that importing the package costs little more than pandas and xarray.
_LAZY = {
    "plot": None,
    "stats": None,
    "curves": ["bayes_error", "det", "det_grid", "ppndf", "roc", "rocch"],
    "demographics": ["compare_fairness", "compare_groups", "cross_group_fmr", "fairness",
                     "fdr_curve", "group_rates"],
    "expected_performance": ["epc", "epc_bootstrap"],
    "export": ["to_latex", "to_markdown"],
    "identification": [
        "cmc", "cmc_difference", "compare_identification", "detection_identification_rate",
        "dir_curve", "probe_ranks", "recognition_rate",
    ],
    "io": ["FileTooLargeError", "ScoreFileError", "read_bob", "read_nist", "read_score_lists", "read_scores",
           "read_table", "read_bob_identification", "read_pyeer_cmc",
           "read_asvspoof_asv", "read_asvspoof_cm", "read_bob_pad", "read_bob_vuln"],
    "metrics": ["dcf", "eer", "error_rates", "summary"],
    "pad": ["pad_det", "pad_metrics", "pad_rates"],
    "pad_compare": ["pad_compare"],
    "resampling": ["bootstrap", "paired_bootstrap"],
    "significance": ["DecisionTestError", "ci", "compare", "compare_folds", "eer_bound_table", "fold_metrics",
                     "fold_summary", "pairwise_matrix"],
    "vulnerability": ["epsc", "iapmr", "vulnerability"],
}
_WHERE = {name: module for module, names in _LAZY.items() for name in (names or ())}


def __getattr__(name: str):
    import importlib

    if name in _WHERE:  # a function (before a submodule of the same name)
        value = getattr(importlib.import_module(f"{__name__}.{_WHERE[name]}"), name)
    elif name in _LAZY:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


try:
    __version__ = version("pandas-biosig")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

__all__ = [
    "LABEL_VOCABULARY",
    "BiosigAccessor",
    "BiosigWarning",
    "SchemaError",
    "DecisionTestError",
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


class _Package(_ModuleType):
    """The package module: a submodule whose function of the same name is exported
    (``pbs.vulnerability``) keeps the function when the import system binds the
    submodule on the package, whichever is loaded first."""

    def __setattr__(self, name, value):
        if name in _WHERE and _WHERE[name] == name and isinstance(value, _ModuleType):
            value = getattr(value, name)
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package


def _register_dask_accessor() -> None:  # optional extra: dask's ddf.biosig
    import importlib

    importlib.import_module(f"{__name__}.outofcore")


register_when_imported("dask.dataframe", _register_dask_accessor)

#: Public submodules, offered by dir() next to __all__.
_SUBMODULES = (
    "accessor", "cli", "curves", "datasets", "expected_performance", "export", "identification",
    "identification_tests",
    "io", "metrics",
    "outofcore", "plot", "resampling", "results", "significance", "stats", "validity",
)


def __dir__() -> list[str]:
    """The public names and submodules: what ``dir()`` and tab completion offer."""
    loaded = (m for m in _SUBMODULES if m in globals() or m in _LAZY)
    return sorted({*__all__, "__version__", *loaded})
