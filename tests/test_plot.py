"""Figures: what each plot draws (lines, labels, ticks, markers), and that matplotlib stays optional."""

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from scipy.stats import norm

import pandas_biosig as pbs
from pandas_biosig import plot

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from pandas_biosig.plot._axes import ERROR_LIMITS, ERROR_MATPLOTLIB  # noqa: E402
from pandas_biosig.plot._histograms import ERROR_PANELS  # noqa: E402


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
    assert str(info.value) == ERROR_MATPLOTLIB.format(function=name)


# ------------------------------------------------------------------ DET
def _drawn(ax):
    """Draw the figure with the Agg renderer; return the renderer."""
    ax.figure.canvas.draw()
    return ax.figure.canvas.get_renderer()


def _x_span(patch) -> tuple[float, float]:
    xs = patch.get_path().transformed(patch.get_patch_transform()).vertices[:, 0] \
        if hasattr(patch, "get_patch_transform") else patch.get_xy()[:, 0]
    return float(np.min(xs)), float(np.max(xs))


def _label_boxes(ax, which):
    renderer = _drawn(ax)
    labels = ax.get_xticklabels() if which == "x" else ax.get_yticklabels()
    return [t.get_window_extent(renderer) for t in labels if t.get_visible() and t.get_text()]


def _overlaps(boxes) -> list:
    return [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if a.overlaps(b)]


def test_det_lines_labels_and_ticks(trials):
    ax = plot.det(trials, apply_to="eval")
    # the diagonal, then a curve and an EER marker per system
    assert len(ax.get_lines()) == 1 + 4 + 4
    # the EER the figure reports is bob.measure's threshold EER, and the legend says so
    assert _legend(ax) == [
        "cnn, EER 5.36%", "cnn_aug, EER 4.58%", "gmm, EER 9.69%", "lbp, EER 16.35%"
    ]
    assert ax.get_legend().get_title().get_text() == "EER at the threshold (dot)"
    _drawn(ax)
    xlabels = [t.get_text() for t in ax.get_xticklabels()]
    # which ticks fit depends on the fonts of the matplotlib version: those of DET_TICKS,
    # in order, at least the decades and the middle of the range
    named = [f"{100 * t:g}" for t in plot.DET_TICKS]
    assert xlabels == [t for t in named if t in xlabels]
    assert {"1", "10", "20", "40"} <= set(xlabels)
    # ticks sit at the normal deviates of the rates they name
    np.testing.assert_allclose(
        ax.get_xticks(), pbs.ppndf([float(t) / 100 for t in xlabels])
    )
    assert ax.get_xlabel() == "False acceptance rate, FAR (%)"


def test_det_axes_are_fitted_to_the_data_independently(trials):
    ax = plot.det(trials, apply_to="eval")
    ds = pbs.det(trials).sel(split="eval")
    far, frr = ds.far.values, ds.frr.values
    ok = np.isfinite(far) & np.isfinite(frr)
    far, frr = far[ok], frr[ok]
    assert far[far > 0].min() == pytest.approx(1 / 960)
    inner = (far > 0) & (far < 1) & (frr > 0) & (frr < 1)
    # x: from the smallest non-zero FAR (1/960) to the largest FAR while 0 < FRR < 1
    lo, hi = far[inner].min(), far[inner].max()
    assert lo == pytest.approx(1 / 960)
    np.testing.assert_allclose(ax.get_xlim(), pbs.ppndf([lo, hi]) + [-0.12, 0.12])
    # y: from the smallest non-zero FRR (1/240) to the largest FRR while 0 < FAR < 1
    lo, hi = frr[inner].min(), frr[inner].max()
    assert lo == pytest.approx(1 / 240)
    np.testing.assert_allclose(ax.get_ylim(), pbs.ppndf([lo, hi]) + [-0.12, 0.12])
    assert ax.get_xlim()[0] != pytest.approx(ax.get_ylim()[0])  # no shared floor
    assert hi > 0.4  # the curves are not cut at 40 %


def test_det_legend_is_outside_the_data(trials):
    ax = plot.det(trials)
    renderer = _drawn(ax)
    legend = ax.get_legend().get_window_extent(renderer)
    assert not legend.overlaps(ax.get_window_extent(renderer))
    assert legend.x0 >= ax.get_window_extent(renderer).x1
    figure = ax.figure.bbox
    assert figure.x0 <= legend.x0 and legend.x1 <= figure.x1  # and inside the figure
    # the figure made for it is fitted to what it holds: nothing cut, no wide empty band
    content = ax.figure.get_tightbbox(renderer)
    width = ax.figure.get_size_inches()[0]
    assert 0 <= content.x0 <= 0.1 and width - 0.1 <= content.x1 <= width


@pytest.mark.parametrize("size", [(2.5, 2.5), (4.0, 3.0), (8.0, 5.5), (12.0, 12.0)])
@pytest.mark.parametrize("n_impostor", [100, 10_000, 1_000_000])
def test_det_tick_labels_never_overlap(size, n_impostor):
    # the curve's floor is 1/n_impostor: up to 1e-6, every tick of DET_TICKS is in range
    far = np.concatenate(([1.0], np.geomspace(0.5, 1 / n_impostor, 40), [0.0]))
    frr = np.concatenate(([0.0], np.geomspace(1e-3, 0.999, 40), [1.0]))
    ds = xr.Dataset(
        {"far": (("system", "point"), far[None]), "frr": (("system", "point"), frr[None]),
         "eer": (("system",), [np.nan])},
        coords={"system": ["s"]}, attrs={"kind": "det"},
    )
    fig, axes = plt.subplots(figsize=size)
    ax = plot.det(ds, ax=axes)
    for which in "xy":
        boxes = _label_boxes(ax, which)
        assert len(boxes) >= 2, which
        assert not _overlaps(boxes), (which, [b.bounds for b in boxes])
    # the most important ticks are kept first: a decade is always labelled
    assert any(t.get_text() in ("0.1", "1", "10") for t in ax.get_xticklabels())


def test_det_tick_labels_follow_a_resize(trials):
    ax = plot.det(trials, apply_to="eval")
    _drawn(ax)
    wide = len(ax.get_xticks())
    ax.figure.set_size_inches(3, 2.5)
    small = _label_boxes(ax, "x")
    assert 2 <= len(small) < wide and not _overlaps(small)


def test_det_eer_marker_lies_on_the_plotted_curve(trials):
    ax = plot.det(trials, apply_to="eval")
    expected = pbs.summary(trials).query("split == 'eval'").eer_threshold.to_numpy()
    markers, curves = _markers(ax), _curves(ax)
    assert len(markers) == 4
    for marker, curve, e in zip(markers, curves, expected, strict=True):
        point = marker.get_xydata()[0]
        # a vertex of the drawn line, where (FAR + FRR) / 2 is the reported EER
        assert (np.abs(curve.get_xydata() - point).max(axis=1) < 1e-12).any()
        far, frr = (float(norm.cdf(v)) for v in point)
        assert (far + frr) / 2 == pytest.approx(e)
        assert f"EER {100 * e:.2f}%" in curve.get_label()


def test_det_hull_eer_marker_lies_on_the_hull(trials):
    ax = plot.det(pbs.rocch(trials), apply_to="eval")
    expected = pbs.eer(trials, method="rocch").query("split == 'eval'").eer.to_numpy()  # ROCCH EER
    assert ax.get_legend().get_title().get_text() == "EER of the ROC convex hull"
    for marker, curve, e in zip(_markers(ax), _curves(ax), expected, strict=True):
        (x,), (y,) = marker.get_xdata(), marker.get_ydata()
        assert x == pytest.approx(pbs.ppndf(e)) and y == pytest.approx(pbs.ppndf(e))
        # the hull is drawn as straight ROC segments: the crossing is on the drawn line
        line = curve.get_xydata()
        d = line[:, 0] - line[:, 1]
        k = np.flatnonzero((d[:-1] >= 0) & (d[1:] <= 0))[0]
        t = d[k] / (d[k] - d[k + 1])
        crossing = line[k] + t * (line[k + 1] - line[k])
        assert crossing == pytest.approx([x, y], abs=2e-3)


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
    np.testing.assert_allclose(ax.get_xlim(), pbs.ppndf([0.01, 0.5]))
    np.testing.assert_allclose(ax.get_ylim(), pbs.ppndf([0.01, 0.5]))
    ax = plot.det(ds, apply_to="eval", limits=((0.001, 0.5), (0.01, 0.9)))
    np.testing.assert_allclose(ax.get_ylim(), pbs.ppndf([0.01, 0.9]))
    hull = plot.det(pbs.rocch(trials), apply_to="dev")
    assert len(_curves(hull)) == 4


def test_roc_and_det_draw_the_same_curves_from_a_table_or_either_dataset(trials):
    """roc() carries tpr and det() frr: drawn by either plot, each gives the same lines
    and the same EER points (the FRR read back from tpr's counts is det's to the bit;
    1 - tpr is not, and moves the EER point of a near tie: gmm's eval EER 9.69 %)."""
    for draw in (plot.det, plot.roc):
        drawn = [draw(data, apply_to="eval") for data in (trials, pbs.det(trials), pbs.roc(trials))]
        labels = [ax.get_legend_handles_labels()[1] for ax in drawn]
        assert labels[0] == labels[1] == labels[2]
        assert "gmm, EER 9.69%" in labels[0]
        for ax in drawn[1:]:
            for a, b in zip(_curves(drawn[0]), _curves(ax), strict=True):
                np.testing.assert_array_equal(a.get_xydata(), b.get_xydata())
        for ax in drawn:
            plt.close(ax.figure)


@pytest.mark.parametrize(
    "limits", [(0.5, 0.1), (0, 0.5), (0.1,), "wide", ((0.1, 0.5), (0.5, 0.1)), ((0.1, 0.5),)]
)
def test_det_rejects_bad_limits(trials, limits):
    with pytest.raises(ValueError) as info:
        plot.det(trials, limits=limits)
    assert str(info.value) == ERROR_LIMITS.format(value=limits)


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
    expected = pbs.summary(trials).query("split == 'eval'").eer_threshold.to_numpy()
    for marker, curve, e in zip(_markers(ax), _curves(ax), expected, strict=True):
        point = marker.get_xydata()[0]  # a vertex of the drawn curve, at the reported EER
        assert (np.abs(curve.get_xydata() - point).max(axis=1) < 1e-12).any()
        assert (point[0] + 1 - point[1]) / 2 == pytest.approx(e)
    assert ax.get_legend().get_title().get_text() == "EER at the threshold (dot)"
    hull = plot.roc(pbs.rocch(trials), apply_to="eval")
    for marker, e in zip(_markers(hull), pbs.eer(trials, method="rocch").query("split == 'eval'").eer,
                         strict=True):
        assert marker.get_xydata()[0] == pytest.approx([e, 1 - e])
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
    return pbs.epc_bootstrap(two, weight=np.linspace(0, 1, 21), n_resamples=200, seed=0)


def test_epc_bands_and_significance_shading(two_boot):
    ax = plot.epc(two_boot)
    assert _legend(ax) == ["cnn", "gmm", "cnn ≠ gmm (95% bootstrap)"]
    # the bands say what they are: the example has subjects, resampled by default
    assert ax.get_legend().get_title().get_text() == "95% bootstrap bands, subjects resampled"
    plain = plot.epc(pbs.epc(pbs.datasets.example_trials()))
    assert plain.get_legend().get_title().get_text() == ""  # no bands, no title
    labelled = pbs.epc_bootstrap(pbs.datasets.example_trials(), weight=[0.25, 0.75], n_resamples=20,
                                 seed=0, resample="label", confidence_level=0.9)
    assert plot.epc(labelled).get_legend().get_title().get_text() == (
        "90% bootstrap bands, trials within each class resampled")
    assert len(ax.collections) == 2  # one band per system
    for line, name in zip(_curves(ax), ["cnn", "gmm"], strict=True):
        np.testing.assert_allclose(line.get_ydata(), two_boot.hter.sel(system=name).values)
    band = ax.collections[0].get_paths()[0].vertices[:, 1]
    lo, hi = two_boot.hter_low.sel(system="cnn"), two_boot.hter_high.sel(system="cnn")
    assert band.min() == pytest.approx(float(lo.min()))
    assert band.max() == pytest.approx(float(hi.max()))
    # the shaded spans cover exactly the significant weights
    cost = two_boot.weight.values
    sig = two_boot.significant.isel(pair=0).values
    # axvspan gives a Rectangle (matplotlib >= 3.9) or a Polygon (3.7): read its x extent
    spans = [_x_span(p)[0] for p in ax.patches], [_x_span(p)[1] for p in ax.patches]
    covered = np.array([any(a <= c <= b for a, b in zip(*spans, strict=True)) for c in cost])
    np.testing.assert_array_equal(covered, sig)


def test_epc_pair_selection(trials):
    ds = pbs.epc_bootstrap(trials, weight=np.linspace(0.1, 0.9, 9), n_resamples=100, seed=1)
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
    ax = two.biosig.plot.epc(weight=[0.25, 0.5, 0.75], n_resamples=50, seed=0)
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
        peak = int(np.argmax(one.min_ber.values))
        # on the drawn minimum curve, at its peak, which is the EER up to the grid
        assert marker.get_xdata()[0] == float(one.prior_log_odds[peak])
        assert marker.get_ydata()[0] == float(one.min_ber[peak])
        assert marker.get_ydata()[0] == pytest.approx(float(one.eer), abs=5e-4)
    assert ax.get_legend().get_title().get_text() == "EER of the ROC convex hull"


def test_bayes_error_of_distances_has_no_actual_curve(trials):
    dist = trials.assign(score=-trials.score).query("split == 'eval'")
    ax = plot.bayes_error(dist, orientation="distance")
    assert "actual" not in _legend(ax)
    assert len(ax.get_lines()) == 1 + 4 * 2


# ------------------------------------------------------------------ histograms
def test_hist_one_system_marks_the_threshold(trials):
    cnn = trials.query("system == 'cnn'")
    axes = plot.hist(cnn, on="dev", apply_to="eval", bins=20)
    assert axes.shape == (1, 1)
    ax = axes[0, 0]
    assert len(ax.patches) == 2 * 20
    (line,) = ax.get_lines()
    expected = pbs.error_rates(cnn, on="dev", apply_to="eval").threshold.item()
    assert line.get_xdata()[0] == pytest.approx(expected)
    assert ax.get_title() == f"cnn: threshold {expected:.4g}"
    assert _legend(ax) == ["genuine", "impostor", "threshold (eer on dev)"]


def test_hist_small_multiples_one_axes_per_system_and_split(trials):
    # 4 systems x 2 splits, each split's own thresholds
    axes = plot.hist(trials, on=None, apply_to=None)
    assert axes.shape == (4, 2)
    expected = pbs.error_rates(trials, on=None, apply_to=None)
    for (i, j), ax in np.ndenumerate(axes):
        row = expected.iloc[2 * i + j]
        assert ax.get_title() == f"{row.system} ({row.split}): threshold {row.threshold:.4g}"
        assert len(ax.get_lines()) == 1  # this system's threshold only
        assert ax.get_lines()[0].get_xdata()[0] == pytest.approx(row.threshold)
        # each axes has its own bins, spanning its own scores
        group = trials.query("system == @row.system and split == @row.split").score
        xs = [p.get_x() for p in ax.patches]
        assert min(xs) == pytest.approx(group.min())
    # one legend, outside the data, naming the classes and the policy
    legends = [ax.get_legend() for ax in axes.flat if ax.get_legend() is not None]
    assert len(legends) == 1
    assert [t.get_text() for t in legends[0].get_texts()] == [
        "genuine", "impostor", "threshold (eer, chosen on each split itself)"
    ]
    renderer = _drawn(axes[0, 0])
    box = legends[0].get_window_extent(renderer)
    assert not any(box.overlaps(ax.get_window_extent(renderer)) for ax in axes.flat)
    assert box.x1 <= axes[0, 0].figure.bbox.x1


def test_hist_unrelated_score_scales_each_get_their_own_axes(trials):
    scaled = trials.assign(
        score=np.where(trials.system == "gmm", 1000 * trials.score, trials.score)
    ).query("split == 'eval'")
    axes = plot.hist(scaled, threshold=None, density=False)
    assert axes.shape == (2, 3)
    assert not axes[1, 1].get_visible() and not axes[1, 2].get_visible()
    gmm = axes[0, 2]
    assert gmm.get_title() == "gmm" and gmm.get_xlim()[1] > 500
    assert axes[0, 0].get_xlim()[1] < 10  # cnn is not squashed by gmm's scale
    assert not gmm.get_lines() and gmm.get_ylabel() == "trials"


def test_hist_into_given_axes(trials):
    fig, given = plt.subplots(2, 2)
    axes = plot.hist(trials.query("split == 'eval'"), ax=given)
    assert axes.shape == (2, 2) and axes[1, 1] is given[1, 1]
    with pytest.raises(ValueError) as info:
        plot.hist(trials, on=None, apply_to=None, ax=given)
    assert str(info.value) == ERROR_PANELS.format(needed=8, got=4)
    # by default the thresholds come from dev and are drawn on eval: four panels
    assert plot.hist(trials, ax=given)[1, 1] is given[1, 1]


# ------------------------------------------------------------------ PAD
def test_pad_det_labels_its_percent_axes_and_names_its_species_lines():
    ax = plot.pad_det(pbs.datasets.example_pad(), apply_to="eval")
    # the ticks are rates in percent, as on the verification DET
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("BPCER (%)", "APCER (%)")
    assert ax.get_legend().get_title().get_text() == "thin: one line per species (named)"
    assert _legend(ax) == ["resnet: max over species", "cnn: max over species"]
    # every species line carries its species' name, in its colour
    species = [line for line in ax.get_lines() if str(line.get_gid()).startswith("species:")]
    names = sorted(t.get_text() for t in ax.texts)
    assert names == sorted(str(line.get_gid()).split(":")[1] for line in species)
    assert names == ["mask", "mask", "print", "print", "replay", "replay"]


def test_pad_det_names_the_species_it_cannot_draw():
    """A species never accepted has APCER 0 everywhere: no line on probit axes; the legend
    says so instead of leaving it out silently."""
    pad = pbs.datasets.example_pad().query("split == 'eval' and system == 'cnn'")
    low = pad.label.eq("attack") & pad.pai.eq("mask")
    pad = pad.assign(score=pad.score.where(~low, pad.score.min() - 10.0))
    ax = plot.pad_det(pad)
    assert "mask" not in [t.get_text() for t in ax.texts]
    assert ax.get_legend().get_title().get_text().endswith("APCER 0 on these axes:\nmask")


def test_pad_figures_colour_the_system_and_style_the_split():
    both = plot.pad_det(pbs.datasets.example_pad())
    thick = [line for line in both.get_lines() if line.get_linewidth() > 2]
    assert len(thick) == 4 and len({line.get_color() for line in thick}) == 2
    assert {line.get_linestyle() for line in thick} == {"-", "--"}
    ax = plot.epsc(pbs.datasets.example_vulnerability(), apply_to=["dev", "eval"])
    assert _legend(ax) == ["face (dev): area 0.124", "face (eval): area 0.120"]
    assert ax.get_ylabel() == "WER at beta = 0.5, IAPMR (%)"
    assert len(ax.figure.axes) == 1  # one y axis: WER and IAPMR, both in %
    lines = ax.get_lines()
    assert len(lines) == 4 and len({line.get_color() for line in lines}) == 1
    assert [line.get_linestyle() for line in lines] == ["-", "-", "--", "--"]
    assert [line.get_linewidth() > 1.5 for line in lines] == [True, False, True, False]
    ds = pbs.epsc(pbs.datasets.example_vulnerability(), apply_to=["dev", "eval"]).sel(
        beta=0.5, split="eval")
    np.testing.assert_allclose(lines[3].get_ydata(), 100 * ds.iapmr.sel(system="face"))
    bayes = plot.bayes_error(pbs.datasets.example_trials())
    curves = [line for line in bayes.get_lines()
              if line.get_label() and not line.get_label().startswith("_")]
    colours = {line.get_label().split(" (")[0]: set() for line in curves}
    for line in curves:
        colours[line.get_label().split(" (")[0]].add(line.get_color())
    assert all(len(c) == 1 for c in colours.values()) and len(colours) == 4


@pytest.mark.parametrize("draw", [
    lambda: plot.pad_det(pbs.datasets.example_pad()),
    lambda: plot.epsc(pbs.datasets.example_vulnerability(), apply_to=["dev", "eval"]),
    lambda: plot.bayes_error(pbs.datasets.example_trials()),
    lambda: plot.fmr_heatmap(pbs.datasets.example_demographic_trials()),
    lambda: plot.group_det(pbs.datasets.example_demographic_trials()),
], ids=["pad_det", "epsc", "bayes_error", "fmr_heatmap", "group_det"])
def test_a_plain_savefig_keeps_every_label_and_the_legend(draw, tmp_path):
    """pad_det's tick labels, y label and legend were cut off by fig.savefig(path)."""
    fig = draw().figure
    fig.savefig(tmp_path / "figure.png")
    box = fig.get_tightbbox(fig.canvas.get_renderer())
    width, height = fig.get_size_inches()
    assert box.x0 >= -0.02 and box.y0 >= -0.02, (box, width, height)
    assert box.x1 <= width + 0.02 and box.y1 <= height + 0.02, (box, width, height)


def test_fmr_heatmap_colours_in_percent_and_says_what_it_shows():
    demo = pbs.datasets.example_demographic_trials()
    ax = plot.fmr_heatmap(demo)
    bar = ax.figure.axes[-1]
    assert bar.get_ylabel() == "FMR (%)"
    ds = pbs.cross_group_fmr(demo)
    first = ds.sel(system="net_a").isel(split=0)
    assert ax.get_title() == (
        f"net_a, eval (1 of 3 systems; select= another)\nthreshold "
        f"{float(first.threshold):.4g}: FAR 0.1% over all groups\nwhite: no false match")
    image = ax.get_images()[0]
    shown = np.ma.getdata(image.get_array())
    hit = first.fmr.values > 0
    np.testing.assert_allclose(shown[hit], 100 * first.fmr.values[hit])
    assert np.ma.getmaskarray(image.get_array()).sum() == int((first.fmr.values == 0).sum())


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


def test_det_of_a_perfect_system_keeps_the_other_curves_in_view(trials):
    cnn = trials.query("system == 'cnn' and split == 'eval'")
    perfect = cnn.assign(
        system="perfect", score=np.where(cnn.label == "genuine", 10.0, -10.0)
    )
    ax = plot.det(pd.concat([cnn, perfect]))
    assert _legend(ax)[1] == "perfect, EER 0.00%"
    alone = plot.det(cnn)
    np.testing.assert_allclose(ax.get_xlim(), alone.get_xlim())
    np.testing.assert_allclose(ax.get_ylim(), alone.get_ylim())
    # nothing to fit at all: the default range
    ax = plot.det(perfect)
    np.testing.assert_allclose(ax.get_ylim(), pbs.ppndf([0.001, 0.5]) + [-0.12, 0.12])
