"""The README's two set-up commands, as a newcomer runs them on a fresh machine.

The first command (install the package, run the report on the bundled example) runs here in
a fresh virtual environment made from a copy of this checkout, so the environment has exactly
what that command installs and nothing the test suite installed. The second command is the
one ``.ci/run`` executes; a test checks the two say the same thing.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
IGNORED = shutil.ignore_patterns(
    ".venv", ".git", "__pycache__", "*.pyc", ".pytest_cache", ".hypothesis", ".ruff_cache",
    "_build", "build", "dist", "*.egg-info", "results",
)


def setup_commands() -> list[str]:
    """The first line of every ```bash block of the README's "Quick start", in order."""
    text = README.read_text(encoding="utf-8")
    return [block.strip().splitlines()[0] for block in re.findall(r"```bash\n(.*?)```", text, re.S)]


def test_the_readme_holds_two_setup_commands_and_ci_runs_the_second():
    commands = setup_commands()
    assert len(commands) >= 2
    install_and_report, install_and_test = commands[:2]
    assert install_and_report.endswith("biosig report")
    assert install_and_test.endswith("python -m pytest -n 2")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert install_and_test in ci


def test_the_first_readme_command_works_in_a_fresh_environment(tmp_path):
    command = setup_commands()[0]
    clone = tmp_path / "clone"
    shutil.copytree(ROOT, clone, ignore=IGNORED)
    env = {k: v for k, v in os.environ.items()
           if k not in {"VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PIP_REQUIRE_VIRTUALENV"}}
    # the venv's own bin first is what a newcomer's shell would not have either: keep PATH as is,
    # but make sure python3 is not this test run's virtual environment
    venv_bin = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != venv_bin)
    result = subprocess.run(["bash", "-c", command], cwd=clone, env=env, capture_output=True,
                            text=True, stdin=subprocess.DEVNULL)
    assert result.returncode == 0, f"{command!r} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    assert result.stdout.startswith("# pandas_biosig"), result.stdout[:500]
    assert "## Per-system summary" in result.stdout
    # the fresh environment holds only what the command installed: no test-only package
    python = clone / ".venv" / "bin" / "python"
    probe = subprocess.run([str(python), "-c", "import importlib.util as u; "
                            "print(u.find_spec('pytest') is None and u.find_spec('sklearn') is None)"],
                           capture_output=True, text=True)
    assert probe.stdout.strip() == "True"


def test_every_line_of_the_python_tour_runs(monkeypatch):
    """The README's "In Python" block, line by line, as a newcomer pastes it."""
    import matplotlib

    matplotlib.use("Agg")
    text = README.read_text(encoding="utf-8")
    (block,) = re.findall(r"```python\n(.*?)```", text, re.S)
    namespace: dict = {}
    for line in block.splitlines():
        code = line.split("  #", 1)[0].rstrip()
        if code:
            exec(compile(code, "README.md", "exec"), namespace)
    assert "trials" in namespace


def test_license_and_citation_agree_with_the_package_metadata():
    import tomllib

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    meta = pyproject["project"]
    # the version comes from git tags; the citation names the release the package is
    # without git metadata (hatch-vcs's fallback version)
    release = pyproject["tool"]["hatch"]["version"]["fallback-version"]
    license_text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert meta["license"] == "BSD-3-Clause" and license_text.startswith("BSD 3-Clause License")
    assert "pandas_biosig developers" in license_text
    cff = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert f'version: "{release}"' in cff
    assert "license: BSD-3-Clause" in cff and "cff-version: 1.2.0" in cff
    assert "## How to cite" in README.read_text(encoding="utf-8")
