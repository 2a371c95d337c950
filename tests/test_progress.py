"""Progress bars: one knob (``progress``), tqdm with rate and time left, silent by default
where nobody watches (pipes, logs, CI)."""

import sys

import pytest

import pandas_biosig as pbs
from pandas_biosig._core import progress as _progress


@pytest.fixture
def no_delay(monkeypatch):
    monkeypatch.setattr(_progress, "DELAY", 0)


def test_progress_true_shows_count_rate_and_time_left(capsys, no_delay):
    trials = pbs.datasets.example_trials()
    pbs.bootstrap(trials, metric="eer", n_resamples=50, seed=0, progress=True)
    err = capsys.readouterr().err
    assert "bootstrap:" in err and "400/400" in err  # 50 resamples x 4 systems x 2 splits
    assert "resample/s" in err and "<" in err  # the rate and the time left


@pytest.mark.parametrize(
    "call",
    [
        lambda t, p: pbs.bootstrap(t, metric="eer", n_resamples=20, seed=0, progress=p),
        lambda t, p: pbs.compare(t, test="bootstrap", n_resamples=20, seed=0, progress=p,
                                 apply_to="eval"),
        lambda t, p: pbs.epc_bootstrap(t, n_resamples=20, seed=0, progress=p),
        lambda t, p: pbs.paired_bootstrap(t, "cnn", "gmm", n_resamples=20, seed=0,
                                          progress=p, apply_to="eval"),
    ],
    ids=["bootstrap", "compare", "epc_bootstrap", "paired_bootstrap"],
)
def test_every_long_call_has_the_knob(capsys, monkeypatch, no_delay, call):
    trials = pbs.datasets.example_trials()
    call(trials, True)
    assert "/s" in capsys.readouterr().err
    call(trials, False)  # asked to be silent
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    call(trials, None)  # a pipe or a CI log: silent by default
    assert capsys.readouterr().err == ""


def test_default_follows_terminals_and_notebooks(monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    assert _progress.interactive()
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    assert not _progress.interactive()
    monkeypatch.setattr(_progress, "_in_notebook", lambda: True)
    assert _progress.interactive()


def test_quick_calls_print_nothing(capsys):
    # the bar appears only after DELAY seconds of work
    assert _progress.DELAY == 0.5
    pbs.bootstrap(pbs.datasets.example_trials(), metric="eer", n_resamples=2, seed=0,
                  progress=True)
    assert capsys.readouterr().err == ""


def test_the_validity_harness_shows_its_replications(capsys, no_delay):
    from pandas_biosig.validity import Setting, coverage, rejection_rates, threshold_selection

    rejection_rates(Setting(100, 400), n_replications=3, n_boot=19, progress=True)
    coverage(Setting(100, 400), n_replications=2, n_boot=19, progress=True)
    threshold_selection(Setting(100, 400), n_replications=2, progress=True)
    err = capsys.readouterr().err
    assert "type-I error / power" in err and "3/3" in err
    assert "coverage" in err and "threshold selection" in err and "replication/s" in err
    rejection_rates(Setting(100, 400), n_replications=2, n_boot=19, progress=False)
    assert capsys.readouterr().err == ""
