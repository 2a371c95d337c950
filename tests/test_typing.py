"""The package type-checks: mypy, configured in pyproject.toml ([tool.mypy]), reports no error.

mypy reads ``__init__.pyi`` and ``accessor.pyi`` in place of the modules beside them, so the
stubs are what the package run checks (the namespace and every accessor method as IDEs see
them); a second run checks the two modules themselves. Both runs share the cache in
``.mypy_cache`` at the repository root (ignored by git): a fresh clone's first run analyses
numpy, pandas and the stubs once, later runs only what changed. They run one after the other
in one test, so that parallel workers (pytest-xdist) never write that cache at once.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _mypy(*args: str, cwd: Path = ROOT, cache: Path = ROOT / ".mypy_cache"):
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(cache), *args],
        cwd=cwd, capture_output=True, text=True,
    )


def _report(res: subprocess.CompletedProcess) -> str:
    return f"mypy exited {res.returncode}:\n{res.stdout}\n{res.stderr}"


def test_package_and_the_modules_behind_its_stubs_type_check():
    res = _mypy()  # the files of [tool.mypy]: the package, its stubs in place of their modules
    assert res.returncode == 0, _report(res)
    assert "Success: no issues found" in res.stdout
    checked = int(res.stdout.rsplit("in ", 1)[1].split()[0])
    modules = {p.with_suffix("") for p in (ROOT / "pandas_biosig").rglob("*.py")}
    modules |= {p.with_suffix("") for p in (ROOT / "pandas_biosig").rglob("*.pyi")}
    assert checked == len(modules)  # every module, none skipped

    shadowed = [p for p in sorted((ROOT / "pandas_biosig").rglob("*.pyi"))
                if p.with_suffix(".py").exists()]
    assert {p.name for p in shadowed} == {"__init__.pyi", "accessor.pyi"}
    res = _mypy(*(str(p.with_suffix(".py").relative_to(ROOT)) for p in shadowed))
    assert res.returncode == 0, _report(res)


def test_checker_is_strict_where_configured(tmp_path):
    """The settings that make the check mean something are in force: bodies of unannotated
    functions are checked, and an ignore that hides nothing is an error."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["files"] == ["pandas_biosig"]
    assert config["check_untyped_defs"] is True and config["warn_unused_ignores"] is True
    module = tmp_path / "probe.py"
    module.write_text(
        "def untyped(x):\n"
        "    return len(3)\n"
        "\n"
        "\n"
        "y: int = 1  # type: ignore[assignment]\n"
    )
    res = _mypy(str(module), cwd=tmp_path, cache=tmp_path / "cache")  # the standard library only
    assert res.returncode == 1, _report(res)
    assert 'probe.py:2: error: Argument 1 to "len" has incompatible type "int"' in res.stdout
    assert 'probe.py:5: error: Unused "type: ignore" comment' in res.stdout
