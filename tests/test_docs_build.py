"""The documentation site builds without a warning, and its API page lists the whole API."""

import importlib.util
import inspect
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import pandas_biosig as pbs
from pandas_biosig.accessor import BiosigAccessor

DOCS = Path(__file__).parents[1] / "docs"
API = (DOCS / "api.rst").read_text()


def _listed(currentmodule: str) -> set[str]:
    """The names listed in autosummary blocks under a ``.. currentmodule::``."""
    names, module = set(), None
    for line in API.splitlines():
        if line.startswith(".. currentmodule::"):
            module = line.split("::")[1].strip()
        elif module == currentmodule and re.fullmatch(r"   [A-Za-z_][\w.]*", line):
            names.add(line.strip())
    return names


def test_api_page_lists_every_public_function():
    public = {
        name for name in pbs.__all__
        if inspect.isfunction(getattr(pbs, name)) or inspect.isclass(getattr(pbs, name))
    }
    public -= {"BiosigAccessor"}  # documented through DataFrame.biosig.*
    listed = _listed("pandas_biosig")
    assert public <= listed, sorted(public - listed)
    assert {f"plot.{name}" for name in pbs.plot.__all__ if name != "DET_TICKS"} <= listed
    stats = {n for n in pbs.stats.__all__ if inspect.isfunction(getattr(pbs.stats, n))}
    assert {f"stats.{n}" for n in stats} <= listed


def test_api_page_lists_every_accessor_method():
    methods = {
        n for cls in BiosigAccessor.__mro__[:-1] for n in vars(cls) if not n.startswith("_")
    }
    assert {f"DataFrame.biosig.{n}" for n in methods} == _listed("pandas")


def test_every_page_is_in_the_toctree():
    index = (DOCS / "index.md").read_text()
    toctree = index[index.index("```{toctree}"):]
    pages = {p.stem for p in DOCS.glob("*.md") if p.stem != "index"} | {"api"}
    assert {p for p in pages if not re.search(rf"^{re.escape(p)}$", toctree, re.M)} == set()


@pytest.mark.skipif(importlib.util.find_spec("sphinx") is None, reason="sphinx is not installed")
def test_sphinx_build_has_no_warnings(tmp_path):
    # build a copy, so that autosummary's generated/ pages never land in the source tree
    source = tmp_path / "docs"
    shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns("_build", "generated"))
    result = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q",
         str(source), str(tmp_path / "html")],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr[-5000:]
    html = tmp_path / "html"
    for page in ("index", "api", "schema", "guide", "which-test"):
        assert (html / f"{page}.html").exists(), page
    accessor = (html / "generated" / "pandas.DataFrame.biosig.eer.html").read_text()
    assert "DataFrame.biosig.eer" in accessor
    assert "Detection error tradeoff plot" in (
        html / "generated" / "pandas_biosig.plot.det.html"
    ).read_text()


def test_every_public_module_offers_only_its_public_names():
    import importlib
    import pkgutil

    for info in pkgutil.iter_modules(pbs.__path__):
        if info.name.startswith("_") or (info.name == "outofcore" and "outofcore" not in dir(pbs)):
            continue
        module = importlib.import_module(f"pandas_biosig.{info.name}")
        assert hasattr(module, "__all__"), info.name
        shown = dir(module)
        assert shown == sorted(module.__all__), info.name
        for name in module.__all__:
            assert hasattr(module, name), (info.name, name)
        # no imported helpers, typing names or error-message constants
        assert not {"np", "pd", "math", "Literal", "annotations"} & set(shown), info.name
        assert not [n for n in shown if n.startswith(("ERROR_", "WARN_"))], info.name
    assert "stats" in dir(pbs) and "np" not in dir(pbs) and "version" not in dir(pbs)
