"""Figures: what each plot draws (lines, labels, ticks, markers), and that matplotlib stays optional."""

import subprocess
import sys

import numpy as np
import pytest
import xarray as xr

import pandas_biosig as pbs
from pandas_biosig import plot

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def trials():
    return pbs.datasets.example_trials()


def _markers(ax):
    return [ln for ln in ax.get_lines() if ln.get_marker() == "o"]


def _legend(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def _curves(ax):
    return [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]


# ------------------------------------------------------------------ optional dependency
def test_importing_the_package_does_not_import_matplotlib():
    code = (
        "import sys, pandas_biosig, pandas_biosig.plot\n"
        "df = pandas_biosig.datasets.example_trials()\n"
        "df.biosig.plot\n"
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("name", ["det", "roc", "epc", "bayes_error", "hist"])
def test_missing_matplotlib_says_what_to_install(trials, monkeypatch, name):
    for module in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, module, None)
    kwargs = {"bands": False} if name == "epc" else {}
    with pytest.raises(ImportError, match="pip install matplotlib") as info:
        getattr(plot, name)(trials, **kwargs)
    assert str(info.value) == plot.ERROR_MATPLOTLIB.format(function=name)


# ------------------------------------------------------------------ DET
def test_det_lines_labels_and_ticks(trials):
    ax = plot.det(trials, apply_to="eval")
    # the diagonal, then a curve and an EER marker per system
    assert len(ax.get_lines()) == 1 + 4 + 4
    labels = _legend(ax)
    assert labels == [
        "cnn, EER 4.94%", "cnn_aug, EER 4.58%", "gmm, EER 9.39%", "lbp, EER 16.15%"
    ]
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "0.1", "0.2", "0.5", "1", "2", "5", "10", "20", "40"
    ]
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "0.1", "0.2", "0.5", "1", "2", "5", "10", "20", "40"
    ]
    # ticks sit at the normal deviates of the rates they name
    np.testing.assert_allclose(ax.get_xticks(), pbs.ppndf([0.001, 0.002, 0.005, 0.01, 0.02,
                                                          0.05, 0.1, 0.2, 0.4]))
    np.testing.assert_allclose(ax.get_xlim(), pbs.ppndf([0.001, 0.4]))
    assert ax.get_xlabel() == "False acceptance rate, FAR (%)"


def test_det_eer_marker_lies_at_the_eer(trials):
    ax = plot.det(trials, apply_to="eval")
    expected = pbs.eer(trials, method="rocch").query("split == 'eval'").eer.to_numpy()  # ROCCH EER
    markers = _markers(ax)
    assert len(markers) == 4
    for marker, e in zip(markers, expected, strict=True):
        (x,), (y,) = marker.get_xdata(), marker.get_ydata()
        assert x == pytest.approx(pbs.ppndf(e)) and y == pytest.approx(pbs.ppndf(e))


def test_det_curve_is_the_dataset_in_deviates(trials):
    ax = plot.det(trials, apply_to="eval", eer=False)
    ds = pbs.det(trials).sel(split="eval", system="cnn")
    far, frr = ds.far.dropna("point").values, ds.frr.dropna("point").values
    line = _curves(ax)[0]
    np.testing.assert_allclose(line.get_xdata(), pbs.ppndf(far))
    np.testing.assert_allclose(line.get_ydata(), pbs.ppndf(frr))
    assert not _markers(ax)
    assert _legend(ax)[0] == "cnn"


def test_det_splits_share_a_colour_and_differ_in_style(trials):
    ax = plot.det(trials)
    curves = _curves(ax)
    assert [c.get_label().split(",")[0] for c in curves[:2]] == ["cnn (dev)", "cnn (eval)"]
    assert curves[0].get_color() == curves[1].get_color()
    assert curves[0].get_color() != curves[2].get_color()
    assert (curves[0].get_linestyle(), curves[1].get_linestyle()) == ("-", "--")
    assert len(curves) == 8


def test_det_accepts_datasets_and_existing_axes(trials):
    fig, existing = plt.subplots()
    ds = pbs.det(trials, far_grid=pbs.det_grid(50, low=1e-3))
    ax = plot.det(ds, apply_to="eval", ax=existing, limits=(0.01, 0.5))
    assert ax is existing
    assert [t.get_text() for t in ax.get_xticklabels()] == ["1", "2", "5", "10", "20", "40"]
    hull = plot.det(pbs.rocch(trials), apply_to="dev")
    assert len(_curves(hull)) == 4


@pytest.mark.parametrize("limits", [(0.5, 0.1), (0, 0.5), (0.1,), "wide"])
def test_det_rejects_bad_limits(trials, limits):
    with pytest.raises(ValueError, match="limits="):
        plot.det(trials, limits=limits)


def test_det_rejects_other_inputs(trials):
    with pytest.raises(ValueError, match="kind"):
        plot.det(pbs.epc(trials))
    with pytest.raises(TypeError, match="DataFrame"):
        plot.det([1, 2, 3])
    with pytest.raises(ValueError, match="only the splits"):
        plot.det(trials, apply_to="test")
    with pytest.raises(ValueError, match="no split dim"):
        plot.det(trials.drop(columns="split").query("trial < 2400"), apply_to="eval")


# ------------------------------------------------------------------ ROC
def test_roc_lines_and_eer_markers(trials):
    ax = plot.roc(trials, apply_to="eval")
    assert len(ax.get_lines()) == 2 + 4 + 4  # chance and FAR = FRR diagonals
    assert len(_legend(ax)) == 4
    expected = pbs.eer(trials, method="rocch").query("split == 'eval'").eer.to_numpy()
    for marker, e in zip(_markers(ax), expected, strict=True):
        assert marker.get_xdata()[0] == pytest.approx(e)
        assert marker.get_ydata()[0] == pytest.approx(1 - e)
    assert ax.get_xlim() == (0.0, 1.0)
    assert [t.get_text() for t in ax.get_yticklabels()][-1] == "100"


def test_roc_log_scale(trials):
    ax = plot.roc(trials, apply_to="eval", xscale="log")
    assert ax.get_xscale() == "log"
    assert all((c.get_xdata() > 0).all() for c in _curves(ax))
    with pytest.raises(ValueError, match="xscale"):
        plot.roc(trials, xscale="probit")


# ------------------------------------------------------------------ EPC
@pytest.fixture(scope="module")
def two_boot(trials):
    two = trials[trials.system.isin(["cnn", "gmm"])]
    return pbs.epc_bootstrap(two, weights=np.linspace(0, 1, 21), n_resamples=200, seed=0)


def test_epc_bands_and_significance_shading(two_boot):
    ax = plot.epc(two_boot)
    assert _legend(ax) == ["cnn", "gmm", "cnn ≠ gmm (95% bootstrap)"]
    assert len(ax.collections) == 2  # one band per system
    for line, name in zip(_curves(ax), ["cnn", "gmm"], strict=True):
        np.testing.assert_allclose(line.get_ydata(), two_boot.hter.sel(system=name).values)
    band = ax.collections[0].get_paths()[0].vertices[:, 1]
    lo, hi = two_boot.hter_low.sel(system="cnn"), two_boot.hter_high.sel(system="cnn")
    assert band.min() == pytest.approx(float(lo.min()))
    assert band.max() == pytest.approx(float(hi.max()))
    # the shaded spans cover exactly the significant weights
    cost = two_boot.cost.values
    sig = two_boot.significant.isel(pair=0).values
    spans = [p.get_x() for p in ax.patches], [p.get_x() + p.get_width() for p in ax.patches]
    covered = np.array([any(a <= c <= b for a, b in zip(*spans, strict=True)) for c in cost])
    np.testing.assert_array_equal(covered, sig)


def test_epc_pair_selection(trials):
    ds = pbs.epc_bootstrap(trials, weights=np.linspace(0.1, 0.9, 9), n_resamples=100, seed=1)
    unshaded = plot.epc(ds)
    assert not unshaded.patches  # six pairs: none shaded unless chosen
    assert len(_legend(unshaded)) == 4
    shaded = plot.epc(ds, pair=("lbp", "cnn"))
    assert _legend(shaded)[-1] == "cnn ≠ lbp (95% bootstrap)"
    assert plot.epc(ds, pair="cnn vs lbp").patches
    with pytest.raises(ValueError, match="not a pair"):
        plot.epc(ds, pair=("cnn", "svm"))


def test_epc_without_bands(trials):
    ax = plot.epc(trials, bands=False)
    assert not ax.collections and not ax.patches
    assert len(_curves(ax)) == 4
    assert ax.get_xlabel() == "weight α of FAR (threshold chosen on dev)"
    assert ax.get_ylabel() == "HTER on eval (%)"
    with pytest.raises(ValueError, match="epc_bootstrap"):
        plot.epc(pbs.epc(trials), pair=("cnn", "gmm"))


def test_epc_from_a_table_bootstraps(trials):
    two = trials[trials.system.isin(["cnn", "cnn_aug"])]
    ax = two.biosig.plot.epc(weights=[0.25, 0.5, 0.75], n_resamples=50, seed=0)
    assert len(ax.collections) == 2


# ------------------------------------------------------------------ Bayes error
def test_bayes_error_lines_and_eer_at_the_peak(trials):
    ax = plot.bayes_error(trials, apply_to="eval")
    # "without the scores", then per system: actual, minimum, EER marker
    assert len(ax.get_lines()) == 1 + 4 * 3
    labels = _legend(ax)
    assert labels[0] == "cnn, EER 4.94%"
    assert labels[-3:] == ["actual", "minimum", "without the scores"]
    ds = pbs.bayes_error(trials).sel(split="eval")
    for marker, name in zip(_markers(ax), ds.system.values, strict=True):
        one = ds.sel(system=name)
        assert marker.get_ydata()[0] == pytest.approx(float(one.eer))
        assert marker.get_xdata()[0] == float(one.prior_log_odds[int(np.argmax(one.min_ber.values))])


def test_bayes_error_of_distances_has_no_actual_curve(trials):
    dist = trials.assign(score=-trials.score).query("split == 'eval'")
    ax = plot.bayes_error(dist, orientation="distance")
    assert "actual" not in _legend(ax)
    assert len(ax.get_lines()) == 1 + 4 * 2


# ------------------------------------------------------------------ histograms
def test_hist_one_system_marks_the_threshold(trials):
    cnn = trials.query("system == 'cnn'")
    ax = plot.hist(cnn, on="dev", apply_to="eval", bins=20)
    assert len(ax.patches) == 2 * 20
    (line,) = ax.get_lines()
    expected = pbs.error_rates(cnn, on="dev", apply_to="eval").threshold.item()
    assert line.get_xdata()[0] == pytest.approx(expected)
    assert _legend(ax)[-1] == f"threshold (eer on dev): {expected:.4g}"


def test_hist_many_systems_and_no_threshold(trials):
    ax = plot.hist(trials, apply_to="eval")
    assert len(ax.get_lines()) == 4  # a threshold per system
    assert len(_legend(ax)) == 4 * 3
    bare = plot.hist(trials.query("split == 'dev'"), threshold=None, density=False)
    assert not bare.get_lines()
    assert bare.get_ylabel() == "trials"


# ------------------------------------------------------------------ accessor and files
def test_accessor_namespace_draws_the_same(trials):
    a = trials.biosig.plot.det(apply_to="eval")
    b = plot.det(trials, apply_to="eval")
    for la, lb in zip(a.get_lines(), b.get_lines(), strict=True):
        np.testing.assert_array_equal(la.get_xydata(), lb.get_xydata())
    assert "det" in repr(trials.biosig.plot)
    assert vars(trials.biosig.plot) == {"_obj": trials}


def test_figures_save(trials, tmp_path, two_boot):
    plot.det(trials, apply_to="eval").figure.savefig(tmp_path / "det.png")
    plot.epc(two_boot).figure.savefig(tmp_path / "epc.pdf")
    assert (tmp_path / "det.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "epc.pdf").read_bytes()[:4] == b"%PDF"


def test_netcdf_round_trip_draws_the_same(trials, tmp_path):
    ds = pbs.det(trials, far_grid=pbs.det_grid(30, low=1e-3))
    ds.to_netcdf(tmp_path / "det.nc")
    back = xr.load_dataset(tmp_path / "det.nc")
    a, b = plot.det(ds), plot.det(back)
    for la, lb in zip(a.get_lines()[1:], b.get_lines()[1:], strict=True):
        np.testing.assert_allclose(la.get_xydata(), lb.get_xydata())
