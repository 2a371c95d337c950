"""pandas_biosig: error rates, curves and significance tests for biometric evaluation.

Importing the package registers the ``DataFrame.biosig`` accessor. Every other public name
(``pbs.eer``, ``pbs.compare``, ``pbs.plot`` ...) is listed in ``__init__.pyi`` beside this
file and loaded the first time it is used, by :func:`lazy_loader.attach_stub` (one
mechanism that type checkers and IDEs follow through the stub), so that importing the
package costs little more than importing pandas and xarray.
"""

import sys as _sys
from importlib.metadata import PackageNotFoundError, version

import lazy_loader as _lazy

from .accessor import BiosigAccessor as BiosigAccessor  # registers DataFrame.biosig

__getattr__, __dir__, __all__ = _lazy.attach_stub(__name__, __file__)

try:
    __version__ = version("pandas-biosig")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0+unknown"

if "dask.dataframe" in _sys.modules:  # ddf.biosig; else `import pandas_biosig.outofcore`
    from . import outofcore as _outofcore  # noqa: F401
