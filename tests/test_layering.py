"""The kernels never import pandas or xarray (STYLE principle 1)."""

import ast
from pathlib import Path

import pytest

KERNELS = sorted((Path(__file__).parents[1] / "pandas_biosig" / "_kernels").glob("*.py"))
FORBIDDEN = {"pandas", "xarray", "statsmodels", "matplotlib", "dask"}


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
def test_kernel_imports(path):
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            assert node.level == 1, f"{path.name} reaches outside _kernels"
    assert not imported & FORBIDDEN, f"{path.name} imports {imported & FORBIDDEN}"
