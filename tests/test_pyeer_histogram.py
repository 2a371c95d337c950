"""pyeer's histogram score files, read as counted trials, give pyeer's own EER.

Reference: pyeer 0.5.6 (https://github.com/manuelaguadomtz/pyeer, the PyPI sdist
pyeer-0.5.6.tar.gz, sha256 58b5041abac56133d047b878d032a82faa8f8b7fecdc404b4a62089dbaf919f9),
run unmodified in a throwaway venv on its own example histogram files
(pyeer/example_files/hist/exp1_true.txt and exp1_false.txt, copied into tests/data/pyeer_hist
under pyeer's MIT licence, whose notice is tests/data/pyeer_hist/LICENSE):

    pip install pyeer==0.5.6
    geteerinf -p <site-packages>/pyeer/example_files/hist/ -i exp1_false.txt \\
        -g exp1_true.txt -e exp1 -ht -sp .

Its pyeer_report.csv gives EERlow 0.1109660378491138, EERhigh 0.11737257717157215,
EER 0.11416930751034297 at EER_TH 41 (the numbers below).

pyeer's EER (``get_eer_values``, FVC2000): along the thresholds 0, 1, 2... (accept iff
score >= t), ``t2`` is the first threshold with FMR <= FNMR and ``t1`` the one before it
(unless FMR = FNMR at ``t2``); of the two, the one with the smaller FMR + FNMR, and the EER
is (FMR + FNMR) / 2 there. The package's ``eer(method="threshold")`` is bob.measure's: the
candidate threshold minimizing |FAR - FRR|. Here the two rules pick neighbouring operating
points (accept iff score >= 40 versus >= 41), so the package's default EER is 0.11710 where
pyeer reports 0.11417; pyeer's rule applied to the package's own DET points gives pyeer's
number to 1e-9, and so do the package's error rates at pyeer's threshold.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

import pandas_biosig as pbs
from pandas_biosig.io import ScoreFileError, read_score_lists, read_scores
from pandas_biosig.io._errors import (
    ERROR_HISTOGRAM_LINE,
    ERROR_HISTOGRAM_TOTAL,
    ERROR_LIST_AMBIGUOUS,
)

DATA = Path(__file__).parent / "data" / "pyeer_hist"
GENUINE, IMPOSTOR = DATA / "exp1_true.txt", DATA / "exp1_false.txt"
PYEER = {"eer": 0.11416930751034297, "eer_low": 0.1109660378491138,
         "eer_high": 0.11737257717157215, "eer_th": 41}


@pytest.fixture(scope="module")
def counted():
    return read_score_lists(GENUINE, IMPOSTOR, impostor_format="histogram")


def test_a_histogram_is_read_as_counted_trials(counted):
    counts = np.loadtxt(IMPOSTOR, dtype=np.int64)
    impostor = counted[counted["label"] == "impostor"]
    assert impostor["score"].tolist() == list(range(1000))  # line i is the score i
    assert impostor["count"].tolist() == counts.tolist()
    assert (counted.loc[counted["label"] == "genuine", "count"] == 1).all()
    row = pbs.eer(counted, count="count").iloc[0]
    assert (row["n_genuine"], row["n_impostor"]) == (2786, int(counts.sum())) == (2786, 66633)


def test_pyeer_eer_rule_on_our_det_points_gives_pyeers_eer(counted):
    det = pbs.det(counted, count="count").isel(system=0)
    far, frr, thr = (det[v].to_numpy() for v in ("far", "frr", "threshold"))
    t2 = int(np.flatnonzero(far <= frr)[0])  # the points run in increasing threshold
    t1 = t2 - 1 if far[t2] != frr[t2] else t2
    best = min((t1, t2), key=lambda t: far[t] + frr[t])
    assert (far[best] + frr[best]) / 2 == pytest.approx(PYEER["eer"], abs=1e-9)
    assert far[best] == pytest.approx(PYEER["eer_low"], abs=1e-9)
    assert frr[best] == pytest.approx(PYEER["eer_high"], abs=1e-9)
    assert PYEER["eer_th"] - 1 < thr[best] <= PYEER["eer_th"]  # accept iff score >= 41


def test_error_rates_at_pyeers_threshold_are_pyeers(counted):
    row = pbs.error_rates(counted, count="count", threshold=float(PYEER["eer_th"])).iloc[0]
    assert row["far"] == pytest.approx(PYEER["eer_low"], abs=1e-9)
    assert row["frr"] == pytest.approx(PYEER["eer_high"], abs=1e-9)
    assert row["hter"] == pytest.approx(PYEER["eer"], abs=1e-9)


def test_the_default_eer_differs_by_the_rule_only(counted):
    """bob.measure's rule (min |FAR - FRR|) picks accept iff score >= 40, the point just
    before pyeer's: FAR 7808/66633, FRR 326/2786."""
    row = pbs.eer(counted, count="count").iloc[0]
    assert row["threshold"] == 39.5
    assert row["far"] == 7808 / 66633 and row["frr"] == 326 / 2786
    assert row["eer"] == (7808 / 66633 + 326 / 2786) / 2
    at_41 = pbs.error_rates(counted, count="count", threshold=41.0).iloc[0]
    assert abs(row["far"] - row["frr"]) < abs(at_41["far"] - at_41["frr"])
    assert row["far"] + row["frr"] > at_41["far"] + at_41["frr"]


def test_read_scores_takes_the_format_by_name(tmp_path, counted):
    shutil.copy(GENUINE, tmp_path / "exp1_genuine.txt")
    shutil.copy(IMPOSTOR, tmp_path / "exp1_impostor.txt")
    table = read_scores(tmp_path, format="pyeer_histogram")
    assert table["count"].tolist() == counted["count"].tolist()
    assert pbs.eer(table, count="count")["eer"].item() == pbs.eer(counted, count="count")[
        "eer"].item()


def test_an_all_integer_list_is_never_silently_read_as_scores(tmp_path):
    with pytest.raises(ScoreFileError) as err:
        read_score_lists(GENUINE, IMPOSTOR)
    assert str(err.value) == ERROR_LIST_AMBIGUOUS.format(path=IMPOSTOR, genuine=GENUINE)
    shutil.copy(GENUINE, tmp_path / "exp1_genuine.txt")
    shutil.copy(IMPOSTOR, tmp_path / "exp1_impostor.txt")
    with pytest.raises(ScoreFileError, match="impostor_format='histogram'"):
        read_scores(tmp_path, format="lists")
    # said explicitly, the file is 1000 scores (the wrong reading, on request)
    scores = read_score_lists(GENUINE, IMPOSTOR, impostor_format="scores")
    assert "count" not in scores.columns and (scores["label"] == "impostor").sum() == 1000
    same = read_scores(tmp_path, format="lists", impostor_format="scores")
    assert len(same) == len(scores)


def test_a_list_of_decimal_scores_is_read_as_scores(tmp_path):
    (tmp_path / "g.txt").write_text("3\n5\n")
    (tmp_path / "i.txt").write_text("1.5\n2\n")
    table = read_score_lists(tmp_path / "g.txt", tmp_path / "i.txt")
    assert table["score"].tolist() == [3.0, 5.0, 1.5, 2.0] and "count" not in table.columns


@pytest.mark.parametrize(("text", "line", "value"), [
    ("3\n1.5\n2\n", 2, "1.5"), ("3\n-1\n", 2, "-1"), ("3\n4 5\n", 2, "5"),
])
def test_a_histogram_line_that_is_no_count_is_named(tmp_path, text, line, value):
    (tmp_path / "g.txt").write_text("3\n5\n")
    (tmp_path / "h.txt").write_text(text)
    with pytest.raises(ScoreFileError) as err:
        read_score_lists(tmp_path / "g.txt", tmp_path / "h.txt", impostor_format="histogram")
    assert str(err.value) == ERROR_HISTOGRAM_LINE.format(source=tmp_path / "h.txt",
                                                         line=line, value=value)


def test_a_histogram_beyond_exact_counting_is_named(tmp_path):
    (tmp_path / "g.txt").write_text("3\n5\n")
    (tmp_path / "h.txt").write_text(f"{2**53}\n1\n")
    with pytest.raises(ScoreFileError) as err:
        read_score_lists(tmp_path / "g.txt", tmp_path / "h.txt", impostor_format="histogram")
    assert str(err.value).startswith(ERROR_HISTOGRAM_TOTAL.split("{total")[0].format(
        path=tmp_path / "h.txt"))


def test_an_unknown_impostor_format_is_named():
    with pytest.raises(ValueError, match="impostor_format"):
        read_score_lists(GENUINE, IMPOSTOR, impostor_format="hist")
