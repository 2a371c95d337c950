"""Oracle tests: our numbers against scikit-learn and brute-force implementations."""

import numpy as np
import pytest

import pandas_biosig as pbs
from pandas_biosig._kernels.rates import Sweep

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def random_trials(seed, n=400, ties=2):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[:2] = [True, False]
    s = np.round(rng.normal(np.where(y, 1.0, 0.0), 1.0), ties)
    return y, s


def brute_force(neg, pos):
    """Every operating point by literally trying bob.measure's candidate thresholds."""
    u = np.unique(np.r_[neg, pos])
    cands = np.r_[u[0], (u[:-1] + u[1:]) / 2, np.nextafter(u[-1], np.inf)]
    far = np.array([(neg >= t).mean() for t in cands])
    frr = np.array([(pos < t).mean() for t in cands])
    return cands, far, frr


def pick(cands, far, frr, crit):
    """SPEC §2 tie rule: smallest criterion, then smallest FAR+FRR, then highest threshold."""
    order = np.lexsort((-cands, far + frr, crit))
    return order[0]


@pytest.mark.parametrize("seed", range(8))
def test_auc_vs_sklearn(seed):
    y, s = random_trials(seed)
    sw = Sweep(s[~y], s[y])
    assert sw.auc() == pytest.approx(sklearn_metrics.roc_auc_score(y, s), abs=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_fnmr_at_fmr_vs_sklearn_roc(seed):
    y, s = random_trials(seed)
    sw = Sweep(s[~y], s[y])
    fpr, tpr, _ = sklearn_metrics.roc_curve(y, s, drop_intermediate=False)
    for x in (0.0, 0.01, 0.05, 0.1, 0.3):
        expected = np.min(1 - tpr[fpr <= x])
        assert sw.fnmr_at_fmr(x).frr == pytest.approx(expected, abs=1e-12)
        assert sw.fnmr_at_fmr(x).far <= x


@pytest.mark.parametrize("seed", range(8))
def test_thresholds_vs_brute_force(seed):
    y, s = random_trials(seed, n=120, ties=1)
    neg, pos = s[~y], s[y]
    sw = Sweep(neg, pos)
    cands, far, frr = brute_force(neg, pos)
    i = pick(cands, far, frr, np.abs(far - frr))
    value, op = sw.eer_threshold()
    assert op.threshold == pytest.approx(cands[i]) and value == pytest.approx((far[i] + frr[i]) / 2)
    for w in (0.0, 0.1, 0.5, 0.9, 1.0):
        i = pick(cands, far, frr, w * far + (1 - w) * frr)
        op = sw.min_weighted(w)
        assert (op.threshold, op.far, op.frr) == pytest.approx((cands[i], far[i], frr[i]))


@pytest.mark.parametrize("seed", range(8))
def test_rocch_eer_is_max_bayes_error(seed):
    """Seed 002: ROCCH-EER = max over priors of min over thresholds of the Bayes error.
    BER(pi) is concave piecewise linear, so its maximum is at a crossing of two of the
    lines pi*FRR_i + (1-pi)*FAR_i: try them all."""
    y, s = random_trials(seed, n=60, ties=1)
    sw = Sweep(s[~y], s[y])
    _, far, frr = brute_force(s[~y], s[y])
    a = frr[:, None] - far[:, None] - frr[None, :] + far[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        pis = (far[None, :] - far[:, None]) / a
    pis = np.unique(pis[np.isfinite(pis) & (pis >= 0) & (pis <= 1)])
    ber = np.min(pis[:, None] * frr[None, :] + (1 - pis[:, None]) * far[None, :], axis=1)
    assert sw.eer_rocch() == pytest.approx(ber.max(), abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_interpolated_eer_vs_sklearn_curve(seed):
    y, s = random_trials(seed)
    fpr, tpr, _ = sklearn_metrics.roc_curve(y, s, drop_intermediate=False)
    fnr = 1 - tpr
    d = fpr - fnr  # increasing along sklearn's order (decreasing threshold)
    k = np.flatnonzero(d >= 0)[0]
    t = -d[k - 1] / (d[k] - d[k - 1])
    expected = fpr[k - 1] + t * (fpr[k] - fpr[k - 1])
    assert Sweep(s[~y], s[y]).eer_interpolated() == pytest.approx(expected, abs=1e-12)


def test_summary_auc_on_example_vs_sklearn(example):
    s = pbs.summary(example)
    for _, row in s.iterrows():
        sub = example[(example.system == row.system) & (example.split == row.split)]
        expected = sklearn_metrics.roc_auc_score(sub.label == "genuine", sub.score)
        assert row.auc == pytest.approx(expected, abs=1e-12)


def test_error_rates_vs_confusion_matrix(example):
    er = pbs.error_rates(example, threshold=0.25)
    for _, row in er.iterrows():
        sub = example[(example.system == row.system) & (example.split == row.split)]
        cm = sklearn_metrics.confusion_matrix(sub.label == "genuine", sub.score >= 0.25)
        assert (row.fa, row.fr) == (cm[0, 1], cm[1, 0])


def test_det_curve_points_vs_sklearn():
    y, s = random_trials(3)
    fpr, fnr, thr = sklearn_metrics.det_curve(y, s)
    sw = Sweep(s[~y], s[y])
    fa, fr = sw.rates_at_threshold(thr)
    np.testing.assert_allclose(fa / sw.n, fpr)
    np.testing.assert_allclose(fr / sw.p, fnr)
