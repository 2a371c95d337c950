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


# ----------------------------------------------------------------------------- demographics
def _demographic_with_references(seed=0):
    """The example demographic table with the reference's subject of every trial: the
    subject itself for a genuine trial, another person of the reference group (same split)
    for an impostor trial, one per trial id (the systems score the same trials)."""
    t = pbs.datasets.example_demographic_trials()
    rng = np.random.default_rng(seed)
    first = t.drop_duplicates("trial").set_index("trial")
    ref = first.subject.astype(object).copy()
    for (sp, g), ids in first[first.label == "impostor"].groupby(
            ["split", "reference_group"]).groups.items():
        pool = first[(first.split == sp) & (first.group == g)].subject.unique()
        for trial in ids:  # a person of the group other than the probe's subject
            ref[trial] = rng.choice(pool[pool != first.subject[trial]])
    return t.assign(reference_subject=t.trial.map(ref).to_numpy(dtype=object))


DEMOGRAPHIC = {
    "group_rates": lambda t: pbs.group_rates(t, target=0.05),
    "group_rates bootstrap": lambda t: pbs.group_rates(t, target=0.05, n_resamples=20, seed=0,
                                                       ci_method="bootstrap"),
    "compare_groups": lambda t: pbs.compare_groups(t, target=0.05, n_resamples=20, seed=0),
    "compare_fairness": lambda t: pbs.compare_fairness(t, target=0.05, n_resamples=20, seed=0),
}


@pytest.mark.parametrize("call", list(DEMOGRAPHIC))
def test_demographic_functions_resample_people_in_both_roles(call):
    t = _demographic_with_references()
    assert set(DEMOGRAPHIC[call](t)["resample"]) == {"two_way"}
    assert set(DEMOGRAPHIC[call](t.drop(columns="reference_subject"))["resample"]) == {"subject"}
    name = "group_rates" if call.startswith("group_rates") else call
    off = getattr(pbs, name)(t, target=0.05, reference_subject=None, n_resamples=20, seed=0)
    assert set(off["resample"]) == {"subject"}  # reference_subject=None: probes only
    t.loc[[7, 40], "reference_subject"] = None
    head = re.escape(ERROR_REFERENCE_MISSING.split("{where}")[0].format(n=2))
    with pytest.raises(pbs.SchemaError, match=head + ".*no reference subject id"):
        DEMOGRAPHIC[call](t)


def test_demographic_wilson_ignores_the_reference_column():
    """Trials taken as independent: no people are read, a missing reference id is no
    error and nothing is resampled."""
    t = _demographic_with_references()
    t.loc[7, "reference_subject"] = None
    assert pbs.group_rates(t, target=0.05, ci_method="wilson")["resample"].isna().all()


def test_demographic_cell_rates_equal_per_trial_weights():
    """The rates of a replicate from the (probe, reference, class) cells equal those of
    the trials weighted one by one: a genuine trial by its subject's multiplicity, an
    impostor trial by the product of its probe's and its reference's."""
    from pandas_biosig.demographics._plan import _Part
    from pandas_biosig.demographics._two_way import _cells

    rng = np.random.default_rng(0)
    n, k = 80, 6  # people 0-2 in group 0, 3-5 in group 1
    probe = rng.integers(0, k, n)
    ref = np.where(rng.random(n) < 0.3, probe, (probe + rng.integers(1, k, n)) % k)
    genuine = probe == ref
    group = (probe >= 3).astype(np.int64)
    part = _Part("A", None, rng.normal(size=n), genuine, group, (ref >= 3).astype(np.int64),
                 np.ones(n, bool), probe, ref)
    cells = _cells(part, 0.0, np.arange(k), np.repeat([0, 1], 3), 2)
    mult = rng.integers(0, 3, size=(7, k)).astype(float)
    err = np.where(genuine, part.scores < 0, part.scores >= 0)
    for j in (0, 1):
        fmr, fnmr = cells.rates(mult, j)
        for b in range(7):
            w = np.where(genuine, mult[b, probe], mult[b, probe] * mult[b, ref]) * (group == j)
            for rates, cls in ((fmr, ~genuine), (fnmr, genuine)):
                total = (w * cls).sum()
                expected = (w * cls * err).sum() / total if total else np.nan
                np.testing.assert_allclose(rates[b], expected, rtol=1e-12)


def _tiny_demographic_table(seed=3):
    """Two groups of three people; two genuine trials each and one impostor trial for
    every ordered pair of different people (same group and across groups)."""
    rng = np.random.default_rng(seed)
    people = [f"{g}{i}" for g in "ab" for i in range(3)]
    rows = [(p, p, True) for p in people for _ in range(2)]
    rows += [(p, q, False) for p in people for q in people if p != q]
    t = pd.DataFrame(rows, columns=["subject", "reference_subject", "label"])
    t["score"] = rng.normal(size=len(t)) + 0.8 * t.label
    t["group"], t["reference_group"] = t.subject.str[0], t.reference_subject.str[0]
    return t.assign(system="A", trial=np.arange(len(t)))


@pytest.mark.parametrize("impostors", ["same_group", "all"])
def test_demographic_two_way_replicates_equal_the_resampled_tables(impostors):
    """One set of two-way bootstrap replicates, rebuilt by brute force: each replicate's
    people (drawn with replacement within their group), then the resampled table itself
    (every genuine trial of each person drawn, every impostor trial of each ordered pair
    of draws) and its rates counted."""
    from pandas_biosig._kernels.fairness import stratified_weights
    from pandas_biosig.demographics._plan import _plan
    from pandas_biosig.demographics._two_way import _people, replicates

    t = _tiny_demographic_table()
    plan = _plan(t, group="group", reference_group="reference_group", impostors=impostors,
                 threshold=0.0, target=None, on="auto", apply_to="auto", system="system",
                 trial="trial", label="label", score="score", split="split",
                 subject="subject", orientation="similarity", nonfinite="raise",
                 reference_subject="reference_subject")
    part = plan.reported[0].part
    reps = replicates(np.random.default_rng(7), 6, plan, [(part, 0.0)], [0, 1])[0]
    codes, sizes = _people(plan, [part])
    mult = stratified_weights(np.random.default_rng(7), sizes, 6)  # the same draws
    person = dict(zip(part.cluster, t.subject, strict=True))
    assert sorted(person[c] for c in codes) == sorted(t.subject.unique())
    counted = t.label | (t.group == t.reference_group) if impostors == "same_group" else t.label | True
    for b in range(6):
        drawn = [person[c] for c, m in zip(codes, mult[b], strict=True) for _ in range(m)]
        assert sum(p[0] == "a" for p in drawn) == 3  # each group keeps its three people
        boot = pd.concat([t[t.label & (t.subject == p)] for p in drawn]
                         + [t[~t.label & counted & (t.subject == p) & (t.reference_subject == q)]
                            for p in drawn for q in drawn])
        for j, g in enumerate(plan.labels):
            for metric, cls, err in (("fmr", ~boot.label, boot.score >= 0),
                                     ("fnmr", boot.label, boot.score < 0)):
                sel = cls & (boot.group == g)
                expected = err[sel].mean() if sel.any() else np.nan
                np.testing.assert_allclose(reps[j][metric][0][b], expected, rtol=1e-12)


def test_group_rates_two_way_interval_is_wilson_on_the_two_way_design():
    from scipy.special import stdtrit

    from pandas_biosig._kernels.cluster import wilson_interval

    t = _demographic_with_references()
    r = pbs.group_rates(t, target=0.05)
    assert set(r["resample"]) == {"two_way"}
    for row in r.itertuples():
        ev = t[(t.system == row.system) & (t.split == row.split) & (t.label == "impostor")
               & (t.group == row.group) & (t.reference_group == row.group)]
        people = pd.factorize(pd.concat([ev.subject, ev.reference_subject],
                                        ignore_index=True))[0]
        d = cluster_design((ev.score >= row.threshold).to_numpy(), people[:len(ev)],
                           people[len(ev):])
        n_eff = d.k if d.p in (0, 1) else d.n / d.deff
        low, high = wilson_interval(d.p, n_eff, float(stdtrit(d.df, 0.975)))
        assert (row.fmr_low, row.fmr_high) == pytest.approx((low, high), rel=1e-12)
    # the FNMR: a genuine trial has one person, the subjects' interval either way
    one = pbs.group_rates(t.drop(columns="reference_subject"), target=0.05)
    np.testing.assert_allclose(r[["fnmr_low", "fnmr_high"]], one[["fnmr_low", "fnmr_high"]])


@pytest.mark.parametrize("density", ["dense", "sparse", "probe only"])
def test_pair_sums_equal_the_weighted_cells(density):
    """The bilinear sums of the two-way bootstrap equal, to the bit, the cells weighted
    one by one with people_weights and summed (integer multiplicities and values)."""
    from pandas_biosig._kernels.fairness import cluster_weights
    from pandas_biosig._kernels.resample import PairSums, people_weights

    rng = np.random.default_rng(5)
    people = 40
    cells = 600 if density == "dense" else 25
    probe = rng.integers(0, 12, cells) * 2  # a subset of the people, in any order
    reference = None if density == "probe only" else rng.integers(0, people, cells)
    values = np.column_stack((rng.integers(0, 3, cells), rng.integers(1, 9, cells)))
    mult = cluster_weights(rng, people, 50).astype(np.float64)
    sums = PairSums(probe, reference, values)
    assert (isinstance(sums.matrices[0], np.ndarray)) == (density != "sparse")
    w = people_weights(mult, probe, reference)
    for got, v in zip(sums(mult), values.T, strict=True):
        np.testing.assert_array_equal(got, w @ v.astype(np.float64))
