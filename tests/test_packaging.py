"""The distributions: the wheel and the sdist build from the repository with the build
backend itself (hatchling, the version from git by hatch-vcs), and the wheel installs into a
fresh virtual environment, where the package imports and ``biosig --help`` runs.

The fresh environment gets nothing but the wheel (``--no-deps --no-index``); the running
environment's packages (numpy, pandas ...) are made visible to it afterwards through a
``.pth`` path, without their site hooks, so the source tree's editable install stays out of
sight and nothing is downloaded.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "pandas_biosig"


def _run(args, **kwargs) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    res = subprocess.run([str(a) for a in args], capture_output=True, text=True, env=env,
                         **kwargs)
    assert res.returncode == 0, f"{args} exited {res.returncode}:\n{res.stdout}\n{res.stderr}"
    return res


@pytest.fixture(scope="module")
def dists(tmp_path_factory) -> tuple[Path, Path]:
    """The wheel and the sdist, built by the backend's PEP 517 hooks from the repository."""
    out = tmp_path_factory.mktemp("dist")
    code = ("import sys, hatchling.build as b; "
            "print(b.build_wheel(sys.argv[1])); print(b.build_sdist(sys.argv[1]))")
    names = _run([sys.executable, "-c", code, out], cwd=ROOT).stdout.split()[-2:]
    wheel, sdist = (out / n for n in names)
    assert wheel.suffix == ".whl" and sdist.name.endswith(".tar.gz")
    return wheel, sdist


def _source_files() -> set[str]:
    """The package's files as they sit in the source tree (caches aside)."""
    return {
        p.relative_to(ROOT).as_posix() for p in PACKAGE.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


def _wheel_version(wheel: Path) -> str:
    return wheel.name.split("-")[1]


def test_wheel_holds_the_package_its_stubs_and_no_tests(dists):
    wheel, _ = dists
    names = set(zipfile.ZipFile(wheel).namelist())
    package = {n for n in names if n.startswith("pandas_biosig/")}
    assert {"pandas_biosig/py.typed", "pandas_biosig/__init__.pyi",
            "pandas_biosig/accessor.pyi"} <= package
    assert package == _source_files()
    assert not any(n.startswith(("tests/", "benchmarks/", "docs/")) for n in names)
    assert not any(Path(n).name.startswith(("test_", "conftest")) for n in names)
    info = f"pandas_biosig-{_wheel_version(wheel)}.dist-info"
    assert names - package <= {f"{info}/{f}" for f in
                               ("METADATA", "WHEEL", "RECORD", "entry_points.txt",
                                "licenses/LICENSE")}
    entry_points = zipfile.ZipFile(wheel).read(f"{info}/entry_points.txt").decode()
    assert "biosig = pandas_biosig.cli:main" in entry_points


def test_sdist_builds_the_same_version(dists):
    wheel, sdist = dists
    with tarfile.open(sdist) as tar:
        names = set(tar.getnames())
        top = sdist.name.removesuffix(".tar.gz")
        pkg_info = email.message_from_bytes(tar.extractfile(f"{top}/PKG-INFO").read())
    assert pkg_info["Name"] == "pandas-biosig"
    assert pkg_info["Version"] == _wheel_version(wheel)
    for f in ("pyproject.toml", "README.md", "LICENSE", "CHANGELOG.md",
              "pandas_biosig/__init__.pyi", "pandas_biosig/accessor.pyi",
              "pandas_biosig/py.typed"):
        assert f"{top}/{f}" in names


def test_version_comes_from_git(dists):
    wheel, _ = dists
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout: the version is pyproject's fallback-version")
    version = _wheel_version(wheel)
    tag = subprocess.run(["git", "describe", "--tags", "--exact-match"], cwd=ROOT,
                         capture_output=True, text=True)
    if tag.returncode == 0 and not _run(["git", "status", "--porcelain"], cwd=ROOT).stdout:
        assert version == tag.stdout.strip().removeprefix("v")
    else:  # a development version: a dev release, tagged with the commit it was built from
        head = _run(["git", "rev-parse", "HEAD"], cwd=ROOT).stdout.strip()
        assert ".dev" in version and f"+g{head[:7]}" in version


def test_wheel_installs_into_a_fresh_environment(dists, tmp_path):
    wheel, _ = dists
    env = tmp_path / "env"
    _run([sys.executable, "-m", "venv", "--without-pip", env])
    bindir = env / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / Path(sys.executable).name
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps",
          "--no-index", "--quiet", wheel])
    # then (not before: pip would see the editable install) the running environment's
    # packages as plain paths
    site = _run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    Path(site.stdout.strip(), "_dependencies.pth").write_text("\n".join(sorted(deps)) + "\n")
    code = (
        "import importlib.metadata as m, pandas_biosig as pbs\n"
        "print(pbs.__file__)\n"
        "print(m.version('pandas-biosig'), pbs.__version__)\n"
        "print(pbs.eer(pbs.datasets.example_trials()).shape[0])\n"
    )
    out = _run([python, "-c", code], cwd=tmp_path).stdout.splitlines()
    assert Path(out[0]).is_relative_to(env)
    assert out[1].split() == [_wheel_version(wheel)] * 2
    assert int(out[2]) > 0
    usage = _run([bindir / "biosig", "--help"], cwd=tmp_path).stdout
    assert usage.startswith("usage: biosig")
