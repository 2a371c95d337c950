"""The benchmark scripts are not run by the suite (they take minutes), but they must not rot:
each one imports (so every package name it uses still exists) and answers ``--help``."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).parents[1] / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("path", SCRIPTS, ids=[p.stem for p in SCRIPTS])
def test_benchmark_script_imports(path):
    spec = importlib.util.spec_from_file_location(f"_bench_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # top level only: main() is behind __name__ guard
    assert callable(getattr(module, "main", None)), f"{path.name} has no main()"


def test_benchmark_scripts_answer_help():
    assert SCRIPTS, "no benchmark scripts found"
    for path in SCRIPTS:
        out = subprocess.run(
            [sys.executable, str(path), "--help"], capture_output=True, text=True,
            stdin=subprocess.DEVNULL,
        )
        assert out.returncode == 0, f"{path.name} --help failed:\n{out.stderr[-2000:]}"
        assert "usage" in out.stdout.lower()
