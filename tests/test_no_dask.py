"""Without dask the package imports, computes, and every non-dask test passes.

dask is an optional extra (``pandas-biosig[dask]``). Each test runs Python in a subprocess
where ``sys.modules["dask"] = None``, which is how a missing module looks to ``import``
(``dask.dataframe`` and every submodule fail through their parent) and to
``importlib.util.find_spec``, so the checks hold on an environment that has dask
installed too. (Only the top-level name is blocked: scipy reads ``sys.modules["dask.array"]``
and must find no entry rather than None.)
"""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
BLOCK = "import sys\nsys.modules['dask'] = None\nsys.modules['distributed'] = None\n"


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", BLOCK + textwrap.dedent(code)],
        cwd=ROOT, capture_output=True, text=True,
    )


def test_package_imports_and_computes_without_dask():
    result = _run(
        """
        import importlib.util
        import pandas_biosig as pbs

        assert importlib.util.find_spec("dask") is None  # dask looks uninstalled
        trials = pbs.datasets.example_trials()
        print(round(float(pbs.eer(trials, method="rocch").eer.iloc[0]), 4))
        print(pbs.summary(trials).shape)
        try:
            import pandas_biosig.outofcore  # noqa: F401
        except ImportError:
            print("outofcore needs dask")
        # the guard that registers the dask accessor from pandas_biosig/__init__.py
        if importlib.util.find_spec("dask") is not None:
            from pandas_biosig import outofcore  # noqa: F401
        print("guard ok")
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0.0402", "(8,", "24)", "outofcore", "needs", "dask",
                                     "guard", "ok"]


@pytest.mark.slow
def test_every_non_dask_test_passes_without_dask():
    """The whole suite minus the dask tests, with dask hidden (run with ``-m slow``)."""
    result = _run(
        """
        import pytest
        sys.exit(pytest.main([
            "-q", "-p", "no:cacheprovider",
            "--ignore=tests/test_outofcore.py", "--ignore=tests/test_no_dask.py",
            "--ignore=pandas_biosig/outofcore.py",
        ]))
        """,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
