"""The tandem front ends: the t-DCF figure, the report section of ``biosig report``, and a
quick run of the validity harness (the full runs are marked slow)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import numpy as np
import pytest

import pandas_biosig as pbs
from pandas_biosig.cli import main

pytest.importorskip("matplotlib")
pytest.importorskip("tabulate")

ROOT = Path(__file__).parents[1]
SHARED = Path(os.environ.get("BIOSIG_NEWCAPS_DATA", ROOT.parent / "shared" / "newcaps-data"))
DATA = SHARED / "asvspoof2019_tdcf_v1"


@pytest.fixture(scope="module")
def example():
    return pbs.datasets.example_tandem()


# ------------------------------------------------------------------------- figure
def test_the_figure_draws_each_curve_and_marks_its_minimum(example):
    import matplotlib.pyplot as plt

    ax = pbs.plot.tdcf_curve(example)
    ds = pbs.tdcf_curve(example)
    lines = [ln for ln in ax.get_lines() if ln.get_marker() in ("None", "", None)
             and len(ln.get_xdata()) > 2]
    dots = [ln for ln in ax.get_lines() if ln.get_marker() == "o"]
    assert len(lines) == len(dots) == 2
    for dot, cm in zip(dots, ["cm_a", "cm_b"], strict=True):
        sel = ds.sel(cm_system=cm, split="eval", asv_system="asv")
        assert dot.get_xdata()[0] == float(sel.min_tdcf_threshold)
        assert dot.get_ydata()[0] == float(sel.min_tdcf)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts[0].startswith("cm_a / eval: min 0.3614 at ")
    assert ax.get_ylim()[0] == 0 and ax.get_ylim()[1] >= 1.2
    # the Dataset draws the same; the accessor too
    again = pbs.plot.tdcf_curve(ds)
    assert [t.get_text() for t in again.get_legend().get_texts()] == texts
    via = example.biosig.plot.tdcf_curve()
    assert [t.get_text() for t in via.get_legend().get_texts()] == texts
    plt.close("all")


def test_the_figure_refuses_other_datasets(example):
    with pytest.raises(ValueError, match="tdcf_curve"):
        pbs.plot.tdcf_curve(pbs.det(pbs.datasets.example_trials()))


# ------------------------------------------------------------------------- report
def _run(capsys, *argv):
    status = main(["report", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def test_report_of_the_asvspoof_files(capsys, tmp_path):
    if not DATA.is_dir():
        pytest.skip(f"{DATA} is absent")
    status, out, err = _run(capsys, DATA / "asv_dev.txt", DATA / "cm_dev.txt",
                            "--n-resamples", "20", "--out", tmp_path / "rep")
    assert status == 0, err
    text = (tmp_path / "rep" / "report.md").read_text()
    for heading in ("## t-DCF", "## t-EER", "## CM detection costs (ASVspoof 5 track 1)",
                    "## a-DCF", "## Intervals (95%, bootstrap)"):
        assert heading in text
    assert re.search(r"\|\s+0\.1105\s+\|", text)  # the min t-DCF 2019, four decimals
    assert (tmp_path / "rep" / "tdcf.png").is_file()
    tdcf = (tmp_path / "rep" / "tdcf.csv").read_text()
    assert "0.1104983661284351" in tdcf and "0.2148537633052445" in tdcf


def test_report_of_a_tidy_tandem_table(capsys, tmp_path, example):
    path = tmp_path / "tandem.csv"
    example.to_csv(path, index=False)
    status, out, err = _run(capsys, path, "--n-resamples", "20")
    assert status == 0, err
    assert "## Pairwise comparison of the CM systems" in out
    assert "2 CM system(s)" in out and "48 speakers" in out
    assert "Rates and costs are fractions" in out


def test_a_verification_table_still_gets_the_verification_report(capsys, tmp_path):
    path = tmp_path / "trials.csv"
    pbs.datasets.example_trials().to_csv(path, index=False)
    status, out, _ = _run(capsys, path, "--n-resamples", "0")
    assert status == 0 and "## Per-system summary" in out and "t-DCF" not in out


# ------------------------------------------------------------------------ validity
def test_the_simulated_truth_is_what_large_samples_give():
    from pandas_biosig.validity import TandemSetting, simulate_tandem

    s = TandemSetting(n_speakers=2000, speaker_sd=0.5)
    truth = s.truth()
    t = simulate_tandem(s, seed=3)
    a = t[t.cm_system == "A"]
    assert pbs.tdcf(a).min_tdcf.iloc[0] == pytest.approx(truth["min_tdcf"], abs=0.01)
    assert pbs.teer(a).teer.iloc[0] == pytest.approx(truth["teer"], abs=0.005)
    assert pbs.adcf(a).min_adcf.iloc[0] == pytest.approx(truth["min_adcf"], abs=0.01)
    assert s.truth("2021")["min_tdcf"] == pytest.approx(
        pbs.tdcf(a, version="2021").min_tdcf.iloc[0], abs=0.01)


def test_validity_harness_quick():
    """A few replications of the harness (the shape of its tables, and that intervals
    and tests are computed on the simulated tables)."""
    from pandas_biosig.validity import TandemSetting, tandem_coverage, tandem_rejection_rates

    s = TandemSetting(n_speakers=12)
    c = tandem_coverage(s, n_replications=4, n_resamples=39, seed=1)
    assert set(c.ci_method) == set(pbs.tandem.TANDEM_CI_METHODS) - {"auto"}
    assert ((c.coverage >= 0) & (c.coverage <= 1)).all() and (c.mean_width > 0).all()
    r = tandem_rejection_rates(s, metrics=("min_tdcf", "min_adcf"), n_replications=4,
                               n_resamples=39, seed=2)
    assert r.metric.tolist() == ["min_tdcf", "min_adcf"]
    assert ((r.rejection_rate >= 0) & (r.rejection_rate <= 1)).all()


@pytest.mark.slow
def test_tandem_defaults_are_valid():
    """docs/validity.md's tandem rows, shortened (minutes; run with -m slow): the default
    intervals cover at least 0.93 and the default test rejects at most 0.075, within
    three Monte-Carlo standard errors, with speaker effects."""
    from pandas_biosig.validity import TandemSetting, tandem_coverage, tandem_rejection_rates

    s = TandemSetting(speaker_sd=0.5)
    c = tandem_coverage(s, n_replications=200, n_resamples=299, seed=5)
    default = c[c.ci_method == c.metric.map(pbs.tandem.TANDEM_DEFAULT_CI)]
    assert len(default) == 3
    assert (default.coverage >= 0.93 - 3 * np.maximum(default.mc_se, 0.015)).all(), default
    r = tandem_rejection_rates(s, n_replications=200, n_resamples=299, seed=6)
    assert (r.rejection_rate <= 0.075 + 3 * np.maximum(r.mc_se, 0.015)).all(), r
