"""Shared doctest namespace for the package's docstrings and the Markdown docs."""

import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr

sys.path.insert(0, str(Path(__file__).parent / "tests"))

import pandas_biosig as pbs

# modules whose optional dependency is missing are not collected for doctests
collect_ignore = []
try:
    import dask.dataframe  # noqa: F401
except ImportError:
    collect_ignore.append("pandas_biosig/outofcore.py")


@pytest.fixture(autouse=True)
def _add_doctest_namespace(doctest_namespace):
    doctest_namespace.update(np=np, pd=pd, xr=xr, pbs=pbs)


def pytest_collection_modifyitems(config, items):
    """The accessor's methods carry their functions' docstrings, whose examples already run
    as the functions' doctests: do not run them a second time."""
    mirrored = [
        item for item in items
        if item.name.startswith(
            ("pandas_biosig.accessor.BiosigAccessor.", "pandas_biosig.plot._namespace._PlotNamespace.")
        )
    ]
    if mirrored:
        config.hook.pytest_deselected(items=mirrored)
        items[:] = [item for item in items if item not in mirrored]
