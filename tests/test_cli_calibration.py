"""``biosig report --calibrate --fuse``: calibrated and fused systems in the report, and
the flag of scores that cannot be log-likelihood ratios."""

import numpy as np
import pytest

import pandas_biosig as pbs
from pandas_biosig.cli import main

pytest.importorskip("tabulate")


def _run(capsys, *argv):
    status = main(["report", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def test_calibrate_and_fuse_add_systems_and_a_calibration_section(capsys):
    status, out, err = _run(capsys, "--n-resamples", "0", "--calibrate", "--fuse",
                            "cnn,gmm", "--prior", "0.3")
    assert status == 0, err
    for system in ("fused", "cnn:linear", "gmm:linear", "lbp:linear"):
        assert f"| {system} " in out
    section = out.split("## Calibration")[1]
    assert "cross-fitted LLRs (5 folds)" in section
    res = pbs.fuse(pbs.datasets.example_trials(), systems=["cnn", "gmm"], prior=0.3)
    w = res.params.query("fit == 'held-out' and source == 'cnn'").estimate.item()
    assert f"{w:.4f}" in section
    rows = [r for r in section.splitlines() if r.startswith("| ") and "---" not in r][1:]
    assert len(rows) == 3 + 4 * 2  # fusion: 2 weights + offset; 4 calibrations: scale, offset
    assert all("| dev " in r and "| eval " in r for r in rows)  # fitted on dev, applied to eval


def test_pav_calibration_from_the_command_line(capsys):
    status, out, err = _run(capsys, "--n-resamples", "0", "--calibrate", "pav")
    assert status == 0, err
    assert "| cnn:pav " in out and "| bins " in out


@pytest.mark.parametrize(
    "argv,expected",
    [
        (["--prior", "1.5"], "--prior 1.5: the effective target prior must be a number"),
        (["--fuse", "cnn,svm"], "systems ['svm'] are not systems of the table"),
        (["--folds", "1"], "--folds 1 must be an integer of at least 2"),
        (["--orientation", "distance"], "negate the distances instead"),
    ],
)
def test_bad_calibration_options_are_one_line(capsys, argv, expected):
    status, _, err = _run(capsys, "--n-resamples", "0", "--calibrate", *argv)
    assert status == 1
    assert expected in err and err.count("\n") == 1


def test_scores_that_cannot_be_llrs_are_said_and_not_ranked(capsys, tmp_path):
    t = pbs.datasets.example_trials()
    rng = np.random.default_rng(0)
    genuine = (t.label == "genuine").to_numpy()
    t["score"] = np.where(genuine, rng.uniform(0.03, 0.07, len(t)), rng.uniform(0.008, 0.04,
                                                                              len(t)))
    path = tmp_path / "probs.csv"
    t.to_csv(path, index=False)
    status, out, err = _run(capsys, path, "--n-resamples", "0")
    assert status == 0, err
    assert "cannot be calibrated log-likelihood ratios (not_llr)" in out
    assert "--calibrate" in out.split("## Per-system summary")[0]
    summary = out.split("## Per-system summary")[1].split("##")[0]
    rows = [r for r in summary.splitlines() if r.startswith("| cnn ")]
    cells = [c.strip() for c in rows[0].split("|")]
    assert cells[-2] == "yes"  # not_llr
    assert not cells[-4].startswith("**")  # Cllr: not ranked
    # calibrated, the same scores are LLRs: no note
    status, out, err = _run(capsys, path, "--n-resamples", "0", "--calibrate")
    assert status == 0, err
    assert "| cnn:linear " in out
