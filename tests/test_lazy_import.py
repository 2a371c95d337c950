"""``import pandas_biosig`` registers the accessor and loads nothing optional or heavy;
the rest loads when first used (checked in fresh interpreters, not timed)."""

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).parents[1]
HEAVY = ["dask", "matplotlib", "scipy.stats", "scipy.optimize", "statsmodels",
         "pandas_biosig.plot", "pandas_biosig.stats", "pandas_biosig.identification",
         "pandas_biosig.significance", "pandas_biosig.outofcore", "pandas_biosig.resampling",
         "pandas_biosig.demographics", "pandas_biosig.pad", "pandas_biosig.vulnerability"]


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True)


def test_import_loads_nothing_heavy_and_registers_the_accessor():
    result = _run(
        f"""
        import sys
        import pandas as pd
        import pandas_biosig as pbs
        loaded = [m for m in {HEAVY!r} if m in sys.modules]
        assert not loaded, loaded
        assert type(pd.DataFrame().biosig).__name__ == "BiosigAccessor"
        trials = pbs.datasets.example_trials()
        print(round(float(trials.biosig.eer(method="rocch").eer.iloc[0]), 4))
        assert "matplotlib" not in sys.modules and "scipy.stats" not in sys.modules
        print(pbs.compare is pbs.significance.compare, "pandas_biosig.significance" in sys.modules)
        print(callable(pbs.plot.det), "ci" in dir(pbs))
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


def test_dask_accessor_registers_whichever_is_imported_first():
    for first, second in (("pandas_biosig", "dask.dataframe"), ("dask.dataframe", "pandas_biosig")):
        result = _run(
            f"""
            import importlib, sys
            importlib.import_module({first!r})
            assert "pandas_biosig.outofcore" not in sys.modules or {first!r} == "dask.dataframe"
            importlib.import_module({second!r})
            import dask.dataframe as dd
            import pandas as pd
            ddf = dd.from_pandas(pd.DataFrame({{"a": [1, 2]}}), npartitions=1)
            print(type(ddf.biosig).__name__)
            """
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == ["DaskBiosigAccessor"]
