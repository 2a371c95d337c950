"""Hostile and odd ``biosig report`` invocations, and the safety of the --out folder.

Every run must end with exit status 0 and a correct report, or a one-line
``biosig: error: ...`` (status 1) or argparse's usage error (status 2): never a traceback,
never a file written outside the output folder, never a user file lost or overwritten,
never a write through a symbolic link, never raw HTML from a system name in report.md.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest
from hostile import COUNTS

import pandas_biosig as pbs
from pandas_biosig.cli import main
from pandas_biosig.cli._folder import MANIFEST, escape_markdown

pytest.importorskip("tabulate")
pytest.importorskip("matplotlib")
hypothesis = pytest.importorskip("hypothesis")
st = pytest.importorskip("hypothesis.strategies")


def _snapshot(root: Path) -> dict:
    """Every path under root (links not followed) with its content or link target."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            if p.is_symlink():
                out[p] = ("link", os.readlink(p))
            elif p.is_file():
                out[p] = ("file", p.read_bytes())
    return out


def _run(capsys, *args) -> tuple[int, str, str]:
    try:
        status = main(["report", *map(str, args)])
    except SystemExit as exit_:  # argparse's usage errors
        status = exit_.code
    out, err = capsys.readouterr()
    return status, out, err


def _judge(status: int, err: str, family: str = "cli") -> str:
    """'correct' (status 0), 'named' (a one-line error or a usage error), else fail."""
    assert "Traceback" not in err, err
    if status == 0:
        kind = "correct"
    elif status == 1:
        lines = err.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("biosig: error: "), err
        kind = "named"
    elif status == 2:
        assert "usage: biosig" in err, err
        kind = "named"
    else:  # pragma: no cover - reported as a failure
        COUNTS[(family, "other")] += 1
        raise AssertionError(f"exit status {status}: {err}")
    COUNTS[(family, kind)] += 1
    return kind


@pytest.fixture
def table(tmp_path) -> Path:
    trials = pbs.datasets.example_trials()
    trials = trials[trials.trial % 5 == 0]  # small: quick reports
    path = tmp_path / "in" / "trials.csv"
    path.parent.mkdir()
    trials.to_csv(path, index=False)
    return path


FAST = ["--n-resamples", "0"]


def _counts_match(folder: Path, table: Path) -> None:
    """summary.csv's trial counts against a brute-force count of the input."""
    trials = pd.read_csv(table)
    summary = pd.read_csv(folder / "summary.csv")
    for row in summary.itertuples():
        sel = trials[(trials.system == row.system) & (trials.split == row.split)]
        assert row.n_genuine == (sel.label == "genuine").sum()
        assert row.n_impostor == (sel.label == "impostor").sum()


# -------------------------------------------------------------------- the report folder
def test_a_second_report_replaces_the_first_whole(capsys, tmp_path, table):
    out = tmp_path / "report"
    status, _, err = _run(capsys, table, "--out", out, "--latex", *FAST)
    assert _judge(status, err) == "correct"
    assert (out / "summary.tex").exists() and (out / MANIFEST).exists()
    (out / "notes.txt").write_text("mine")  # a user's file beside the report
    status, _, err = _run(capsys, table, "--out", out, *FAST)
    assert _judge(status, err) == "correct"
    names = {p.name for p in out.iterdir()}
    assert not {n for n in names if n.endswith(".tex")}  # no stale file of the first run
    assert (out / "notes.txt").read_text() == "mine"
    manifest = json.loads((out / MANIFEST).read_text())
    assert set(manifest["files"]) == names - {MANIFEST, "notes.txt"}
    _counts_match(out, table)


def test_a_foreign_folder_is_refused_and_left_alone(capsys, tmp_path, table):
    out = tmp_path / "thesis"
    out.mkdir()
    (out / "report.md").write_text("my own report")
    (out / "data.csv").write_text("1,2\n")
    before = _snapshot(tmp_path)
    status, _, err = _run(capsys, table, "--out", out, *FAST)
    assert _judge(status, err) == "named" and "--force" in err
    assert _snapshot(tmp_path) == before
    # --force adds the report beside other files, but never overwrites one
    status, _, err = _run(capsys, table, "--out", out, "--force", *FAST)
    assert _judge(status, err) == "named" and "report.md" in err
    assert _snapshot(tmp_path) == before
    (out / "report.md").unlink()
    status, _, err = _run(capsys, table, "--out", out, "--force", *FAST)
    assert _judge(status, err) == "correct"
    assert (out / "data.csv").read_text() == "1,2\n"


def test_a_file_the_user_copied_over_a_report_file_is_never_replaced(capsys, tmp_path, table):
    """``biosig report t.csv --out o; cp t.csv o/summary.csv; biosig report o/summary.csv
    --out o``: the manifest lists summary.csv, but its content is no longer what the
    library wrote, so it is the user's: the second report is refused and the file kept."""
    out = tmp_path / "o"
    status, _, err = _run(capsys, table, "--out", out, *FAST)
    assert _judge(status, err) == "correct"
    shutil.copyfile(table, out / "summary.csv")
    data = (out / "summary.csv").read_bytes()
    before = _snapshot(tmp_path)
    status, _, err = _run(capsys, out / "summary.csv", "--out", out, *FAST)
    assert status == 1 and "summary.csv" in err and "changed since it wrote them" in err
    assert (out / "summary.csv").read_bytes() == data
    assert _snapshot(tmp_path) == before
    # a file of the old report that the user edited is theirs: not removed as stale
    (out / "summary.csv").unlink()
    status, _, err = _run(capsys, table, "--out", out, "--latex", *FAST)
    assert _judge(status, err) == "correct"
    (out / "summary.tex").write_text("% my edits\n")
    status, _, err = _run(capsys, table, "--out", out, *FAST)  # no .tex this time
    assert _judge(status, err) == "correct"
    assert (out / "summary.tex").read_text() == "% my edits\n"
    assert not (out / "apriori.tex").exists()  # unchanged stale files still go
    manifest = json.loads((out / MANIFEST).read_text())
    assert set(manifest["sha256"]) == set(manifest["files"]) and "summary.tex" not in manifest["files"]


@pytest.mark.parametrize("attack", ["link_file", "link_dir", "out_is_link", "out_is_file",
                                    "forged_manifest", "manifest_link"])
def test_links_and_forged_manifests_write_nothing_outside(capsys, tmp_path, table, attack):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "precious.txt").write_text("keep")
    out = tmp_path / "report"
    status, _, err = _run(capsys, table, "--out", out, *FAST)  # a genuine earlier report
    assert _judge(status, err) == "correct"
    if attack == "link_file":  # a report file replaced by a link to a file outside
        (out / "report.md").unlink()
        (out / "report.md").symlink_to(outside / "precious.txt")
    elif attack == "link_dir":
        (out / "det.png").unlink()
        (out / "det.png").symlink_to(outside)
    elif attack == "out_is_link":
        out = tmp_path / "link"
        out.symlink_to(outside)
    elif attack == "out_is_file":
        out = outside / "precious.txt"
    elif attack == "forged_manifest":
        manifest = json.loads((out / MANIFEST).read_text())
        manifest["files"] += ["../outside/precious.txt", str(outside / "precious.txt"), "..",
                              "", 7, None]
        (out / MANIFEST).write_text(json.dumps(manifest))
    elif attack == "manifest_link":
        (out / MANIFEST).unlink()
        (outside / "m.json").write_text(json.dumps(
            {"generator": "pandas_biosig report", "files": ["../outside/precious.txt"]}
        ))
        (out / MANIFEST).symlink_to(outside / "m.json")
    before_outside = _snapshot(outside)
    status, _, err = _run(capsys, table, "--out", out, *FAST)
    _judge(status, err)
    assert _snapshot(outside) == before_outside  # nothing outside changed
    if attack in ("out_is_link", "out_is_file", "manifest_link"):
        assert status == 1
    elif attack in ("link_file", "link_dir"):  # a link is not what the library wrote
        assert status == 1 and ("report.md" if attack == "link_file" else "det.png") in err
        assert (out / ("report.md" if attack == "link_file" else "det.png")).is_symlink()
    else:
        assert status == 0
        assert not (out / "report.md").is_symlink()
        _counts_match(out, table)


def test_system_names_are_escaped_in_markdown(capsys, tmp_path):
    trials = pbs.datasets.example_trials()
    trials = trials[trials.trial % 5 == 0].copy()
    names = {"cnn": "<script>alert(1)</script>", "gmm": "a|b", "lbp": "[x](http://e.invalid)",
             "cnn_aug": "_em_"}
    trials["system"] = trials.system.map(names)
    path = tmp_path / "t.csv"
    trials.to_csv(path, index=False)
    out = tmp_path / "r"
    status, _, err = _run(capsys, path, "--out", out, *FAST)
    assert _judge(status, err) == "correct"
    text = (out / "report.md").read_text()
    assert "<script>" not in text and "](http://e.invalid)" not in text
    assert escape_markdown(names["cnn"]) in text and "a\\|b" in text
    raw = pd.read_csv(out / "summary.csv")  # the CSV keeps the names as they are
    assert set(raw.system) == set(names.values())


# -------------------------------------------------------------------- odd invocations
ODD = [
    [], ["{missing}"], ["{empty_dir}"], ["{table}", "--format", "nist"],
    ["{table}", "--alpha", "2"], ["{table}", "--alpha", "nan"], ["{table}", "--n-resamples", "-1"],
    ["{table}", "--adjust", "bogus"], ["{table}", "--confidence-level", "1.5"],
    ["{table}", "--column", "noequals"], ["https://example.invalid/x.txt"],
    ["{table}", "--on", "nope"], ["{table}", "--split-column", "label"],
    ["{bad_bytes}"], ["{gz_lie}"], ["{table}", "--dev", "{table}"], ["{table}", "--seed", "x"],
    ["{table}", "--orientation", "distance"], ["{table}", "--nonfinite", "drop"],
    ["{table}", "--test", "mcnemar"], ["{table}", "--format", "bob"],
]


@hypothesis.settings(max_examples=25, deadline=None, derandomize=True, database=None,
                     suppress_health_check=list(hypothesis.HealthCheck))
@hypothesis.given(st.lists(st.sampled_from(ODD), min_size=1, max_size=2))
def test_odd_invocations_end_in_a_report_or_one_line(capsys, tmp_path_factory, combo):
    root = tmp_path_factory.mktemp("odd")
    table = root / "trials.csv"
    trials = pbs.datasets.example_trials()
    trials[trials.trial % 7 == 0].to_csv(table, index=False)
    (root / "empty").mkdir()
    (root / "bad.txt").write_bytes(b"a a p1 \xff\xfe\n")
    (root / "lie.txt.gz").write_text("a a p1 1.0\n")
    places = dict(missing=root / "nope.txt", empty_dir=root / "empty", table=table,
                  bad_bytes=root / "bad.txt", gz_lie=root / "lie.txt.gz")
    args = [a.format(**places) for part in combo for a in part]
    before = _snapshot(root)
    status, _, err = _run(capsys, *args, *FAST)
    _judge(status, err)
    assert _snapshot(root) == before  # printing a report writes nothing
