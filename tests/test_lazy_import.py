"""``import pandas_biosig`` registers the accessor, loads nothing optional or heavy and
installs no import hook; the rest loads when first used (checked in fresh interpreters,
not timed)."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parents[1]
HEAVY = ["dask", "matplotlib", "scipy.stats", "scipy.optimize", "statsmodels",
         "pandas_biosig.plot", "pandas_biosig.stats", "pandas_biosig.identification",
         "pandas_biosig.verification", "pandas_biosig.outofcore", "pandas_biosig.demographics",
         "pandas_biosig.pad", "pandas_biosig.validity", "pandas_biosig.io"]


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True)


def test_import_loads_nothing_heavy_and_registers_the_accessor():
    result = _run(
        f"""
        import sys
        import pandas as pd
        hooks = list(sys.meta_path)
        import pandas_biosig as pbs
        assert sys.meta_path == hooks, "import pandas_biosig changed sys.meta_path"
        loaded = [m for m in {HEAVY!r} if m in sys.modules]
        assert not loaded, loaded
        assert type(pd.DataFrame().biosig).__name__ == "BiosigAccessor"
        trials = pbs.datasets.example_trials()
        print(round(float(trials.biosig.eer(method="rocch").eer.iloc[0]), 4))
        assert "matplotlib" not in sys.modules and "dask" not in sys.modules
        print(pbs.compare is pbs.verification.compare, "pandas_biosig.verification" in sys.modules)
        print(callable(pbs.plot.det), "ci" in dir(pbs))
        assert sys.meta_path == hooks
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["0.0402", "True", "True", "True", "True"]


def test_unknown_attribute_raises():
    result = _run(
        """
        import pandas_biosig as pbs
        try:
            pbs.no_such_thing
        except AttributeError as exc:
            print("no_such_thing" in str(exc))
        """
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True"]


def test_dask_accessor_registers_with_the_engine_or_an_earlier_dask_import():
    """``import pandas_biosig`` registers ``ddf.biosig`` when dask.dataframe is already
    imported; otherwise ``import pandas_biosig.outofcore`` does (no import hook)."""
    cases = {
        "dask first": "import dask.dataframe\nimport pandas_biosig",
        "engine": "import pandas_biosig\nimport dask.dataframe\nimport pandas_biosig.outofcore",
    }
    for code in cases.values():
        result = _run(
            code + textwrap.dedent(
                """
                import dask.dataframe as dd
                import pandas as pd
                ddf = dd.from_pandas(pd.DataFrame({"a": [1, 2]}), npartitions=1)
                print(type(ddf.biosig).__name__)
                """
            )
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["DaskBiosigAccessor"]
