"""Two identities per impostor trial: the reference_subject column, the two-way (pigeonhole)
bootstrap and the multiway cluster-robust variance, checked by hand and by brute force."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

import pandas_biosig as pbs
from pandas_biosig._core.protocol import ERROR_REFERENCE, ERROR_REFERENCE_MISSING
from pandas_biosig._core.replicates import FamilyDraws, _cells, _two_way_counts
from pandas_biosig._core.schema import validate_trials
from pandas_biosig._kernels.cluster import cluster_design, design_effect, person_sums
from pandas_biosig._kernels.resample import acceleration, bca_interval, people_weights
from pandas_biosig.validity import CrossedSetting, crossed_trials


def _crossed(seed=0, **kw):
    return crossed_trials(CrossedSetting(n_people=12, references_per_person=5, **kw), seed=seed)


# ----------------------------------------------------------------------------- variance
def test_two_way_variance_is_the_sum_over_trials_that_share_a_person():
    rng = np.random.default_rng(2)
    n, k = 60, 10
    probe = rng.integers(0, k, n)
    ref = (probe + rng.integers(1, k, n)) % k
    involved = (probe == 0) | (ref == 0)
    errors = (rng.random(n) < np.where(involved, 0.9, 0.05)).astype(float)  # person 0 errs
    d = cluster_design(errors, probe, ref)
    r = errors - errors.mean()
    share = np.array([[len({probe[t], ref[t]} & {probe[s], ref[s]}) > 0 for s in range(n)]
                      for t in range(n)])
    v = k / (k - 1) * float(r @ share @ r) / n**2
    assert v > d.p * (1 - d.p) / n  # a design effect above 1: not floored
    assert d.deff == pytest.approx(v / (d.p * (1 - d.p) / n), rel=1e-12)


def test_two_way_variance_is_cameron_gelbach_miller_for_disjoint_roles():
    """Probes and references from two disjoint sets: V_probe + V_reference - V_pair."""
    rng = np.random.default_rng(5)
    probe = rng.integers(0, 5, 60)
    ref = 5 + rng.integers(0, 4, 60)
    e = (rng.random(60) < 0.3).astype(float)
    r = e - e.mean()
    by = lambda codes: float(np.sum(np.bincount(codes, weights=r) ** 2))  # noqa: E731
    cgm = by(probe) + by(ref) - by(pd.factorize(probe * 100 + ref)[0])
    u, dyad = person_sums(r, probe, ref)
    assert float(u @ u - dyad @ dyad) == pytest.approx(cgm, rel=1e-12)


def test_one_way_design_is_korn_graubard_and_df_follow_the_cluster_weights():
    rng = np.random.default_rng(1)
    codes = np.repeat(np.arange(10), 8)  # ten equal subjects
    e = (rng.random(80) < np.repeat(rng.uniform(0, 0.6, 10), 8)).astype(float)
    d = cluster_design(e, codes)
    assert d.deff == pytest.approx(design_effect(np.bincount(codes, weights=e),
                                                 np.bincount(codes)), rel=1e-12)
    # equal weights: Korn & Graubard's k - 1, unless the subjects' terms say fewer
    u2 = (np.bincount(codes, weights=e) - e.mean() * 8) ** 2
    assert d.df == pytest.approx(min(9, u2.sum() ** 2 / (u2**2).sum()), rel=1e-12)
    # one subject holds half of the trials and errs alone: its term dominates
    codes = np.r_[np.zeros(80, int), np.arange(1, 81)]
    e = np.r_[np.ones(30), np.zeros(50), np.zeros(80)]
    d = cluster_design(e, codes)
    assert d.k == 81 and d.df < 1.5


# ----------------------------------------------------------------------------- bootstrap
def test_people_weights_are_products_for_impostors():
    mult = np.array([[2, 0, 1], [1, 1, 1]])
    probe, ref = np.array([0, 0, 2, 1]), np.array([0, 2, 1, 0])
    genuine = np.array([True, False, False, False])
    np.testing.assert_array_equal(people_weights(mult, probe, ref, genuine),
                                  [[2, 2, 0, 0], [1, 1, 1, 1]])


def test_two_way_cell_counts_equal_brute_force():
    t = _crossed()
    t = t[t.split == "dev"]
    trials = validate_trials(t)
    a, b = trials.groups
    shared = FamilyDraws()
    counts = _two_way_counts(a, b, (0.5, 0.7), shared, np.random.default_rng(0), 30)
    probe, ref, k, key = shared.people(a)
    mult = shared.multiplicities(None, key, k, 30)  # the draw just made, cached
    cell = _cells(a, b, (0.5, 0.7))
    for m, c in zip(mult, counts, strict=True):
        w = np.where(a.genuine, m[probe], m[probe] * m[ref])
        np.testing.assert_allclose(c, np.bincount(cell, weights=w, minlength=8))


def test_auto_resamples_people_in_both_roles():
    t = _crossed()
    assert set(pbs.ci(t)["resample"]) == {"two_way"}
    assert set(pbs.ci(t.drop(columns="reference_subject"))["resample"]) == {"subject"}
    assert set(pbs.bootstrap(t, n_resamples=20, seed=0)["resample"]) == {"two_way"}
    assert set(pbs.compare(t, n_resamples=20, seed=0)["resample"]) == {"two_way"}
    res = pbs.paired_bootstrap(t, "A", "B", metric="hter", n_resamples=20, seed=0)
    assert "Satterthwaite" in res.method
    assert pbs.det_band(t, n_resamples=20, seed=0).attrs["resample"] == "two_way"
    assert set(pbs.threshold_guarantee(t, target=0.1)["resample"]) == {"two_way"}
    # with a strong reference effect the two-way interval of the FAR is wider than the
    # probe-only one
    t = crossed_trials(CrossedSetting(tau_probe=0.1, tau_reference=0.8), seed=0)
    both = pbs.ci(t, metric="far").set_index("system")
    probe = pbs.ci(t.drop(columns="reference_subject"), metric="far").set_index("system")
    assert ((both.ci_high - both.ci_low) > (probe.ci_high - probe.ci_low)).all()


CALLS = {
    "ci": lambda t: pbs.ci(t),
    "bootstrap": lambda t: pbs.bootstrap(t, n_resamples=5),
    "paired_bootstrap": lambda t: pbs.paired_bootstrap(t, "A", "B", n_resamples=5),
    "compare": lambda t: pbs.compare(t, n_resamples=5),
    "det_band": lambda t: pbs.det_band(t, n_resamples=5),
    "frr_at_far": lambda t: pbs.frr_at_far(t, n_resamples=5),
    "threshold_guarantee": lambda t: pbs.threshold_guarantee(t, target=0.1),
}


@pytest.mark.parametrize("call", list(CALLS))
def test_missing_reference_ids_are_a_named_error(call):
    t = _crossed().astype({"reference_subject": object})
    t.loc[[3, 11], "reference_subject"] = None
    head = re.escape(ERROR_REFERENCE_MISSING.split("{where}")[0].format(n=2))
    with pytest.raises(pbs.SchemaError, match=head + ".*no reference subject id"):
        CALLS[call](t)


def test_two_way_without_a_reference_column_is_a_named_error():
    t = _crossed().drop(columns="reference_subject")
    msg = re.escape(ERROR_REFERENCE.split("{column")[0])
    with pytest.raises(pbs.SchemaError, match=msg):
        pbs.ci(t, resample="two_way")


# ----------------------------------------------------------------------------- BCa
def test_bca_interval_equals_scipy():
    """scipy.stats.bootstrap(method="BCa") on the same replicates and jackknife."""
    x = np.random.default_rng(3).exponential(size=40)
    res = sps.bootstrap((x,), np.mean, method="BCa", n_resamples=999, confidence_level=0.9,
                        random_state=np.random.default_rng(4))
    jack = np.array([np.delete(x, i).mean() for i in range(x.size)])
    low, high = bca_interval(res.bootstrap_distribution, x.mean(), acceleration(jack), 0.9)
    assert (low, high) == pytest.approx(tuple(res.confidence_interval), rel=1e-10)


def test_bootstrap_bca_is_asked_for_by_name():
    t = pbs.datasets.example_trials()
    r = pbs.bootstrap(t, ci_method="bca", n_resamples=100, seed=0)
    assert set(r.ci_method) == {"bca"}
    assert (r.ci_low <= r.estimate).all() and (r.estimate <= r.ci_high).all()
