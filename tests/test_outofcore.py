"""Dask-backed trial tables: every number equals the pandas path's, to the last bit.

Three layers of evidence:

- the numpy kernel on its own, driven pass by pass without dask on random tables (ties,
  discrete scores, failures to acquire), against :class:`Sweep` for every criterion;
- the dask functions on a 300 000-row table in 40 partitions, on the synchronous and the
  threaded schedulers, against the pandas functions (``DataFrame.equals``: same values,
  dtypes and order), and the pairwise counts against a count made with pandas;
- small tables for the options and the errors, with tiny histograms so that every
  refinement path runs.
"""

import inspect
import re

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
import dask  # noqa: E402

import pandas_biosig as pbs  # noqa: E402
import pandas_biosig.outofcore as ooc  # noqa: E402  (registers ddf.biosig)
from pandas_biosig._core.schema import SchemaError  # noqa: E402
from pandas_biosig._kernels import outofcore as K  # noqa: E402
from pandas_biosig._kernels.rates import Sweep  # noqa: E402

SCHEDULERS = ["synchronous", "threads"]
#: A histogram far too coarse for the data, so that refinement and gathering run often.
TINY = {
    "pandas_biosig.bins": 12,
    "pandas_biosig.refine_bits": 3,
    "pandas_biosig.gather_limit": 400,
    "pandas_biosig.batch_size": 3000,
}


# --------------------------------------------------------------------------- tables
def _table(n, seed, systems, *, split=True, label_words=True):
    rng = np.random.default_rng(seed)
    gen = rng.random(n) < 0.1
    frames = []
    for name, d, decimals in systems:
        s = rng.normal(np.where(gen, d, 0.0), 1.0)
        if decimals is not None:
            s = np.round(s, decimals)  # ties within and across classes
        cols = {
            "system": name,
            "trial": np.arange(n),
            "label": np.where(gen, "genuine", "impostor") if label_words else gen,
            "score": s,
        }
        if split:
            cols["split"] = np.where(np.arange(n) < n // 2, "dev", "eval")
        frames.append(pd.DataFrame(cols))
    return pd.concat(frames, ignore_index=True)


@pytest.fixture(scope="module")
def big():
    """300 000 rows: 3 systems x 100 000 trials (10 % genuine), one with tied scores."""
    table = _table(100_000, 7, [("a", 2.5, None), ("b", 2.0, 2), ("c", 1.5, None)])
    return table, dd.from_pandas(table, npartitions=40)


@pytest.fixture(scope="module")
def small():
    table = pbs.datasets.example_trials()
    return table, dd.from_pandas(table, npartitions=5)


# ----------------------------------------------------------- kernel, without dask
def _kernel_run(scores, genuine, query, *, depth, leaf=40, extra=3, nparts=4):
    """Drive :class:`ExactSweep` pass by pass over numpy "partitions" until exact."""
    fin = np.isfinite(scores)
    rn = int(np.count_nonzero(~fin & ~genuine))
    rp = int(np.count_nonzero(~fin & genuine))
    s, g = scores[fin], genuine[fin]
    chunks = np.array_split(np.arange(s.size), nparts)
    merged = K.merge_bins([K.bin_counts(K.order_keys(s[c]), g[c], depth) for c in chunks])
    lo, neg, pos = merged if merged is not None else (np.zeros(0, np.uint64), [], [])
    ps = K.PartialScores(lo, depth, neg, pos, rn=rn, rp=rp,
                         low=s.min() if s.size else np.nan, high=s.max() if s.size else np.nan)
    ex = K.ExactSweep(ps)
    for _ in range(100):
        ex.needs.clear()
        out = query(ex)
        if not ex.needs:
            return out
        need = np.array(sorted(ex.needs), dtype=np.uint64)
        idx = np.searchsorted(ps.lo, need)
        big = (ps.neg[idx] + ps.pos[idx]) > leaf
        if big.any():
            ref = need[big]
            dep = ps.depth[idx[big]]
            parts = [K.refine_counts(K.order_keys(s[c]), g[c], ref, dep, np.minimum(extra, 64 - dep))
                     for c in chunks]
            ps.split(ref, *K.merge_bins(parts))
        if (~big).any():
            gat = idx[~big]
            parts = [K.gather_values(s[c], K.order_keys(s[c]), g[c], ps.lo[gat], ps.hi[gat])
                     for c in chunks]
            ps.resolve(ps.lo[gat], *K.merge_values(parts))
    raise AssertionError("the kernel did not settle")


QUERIES = {
    "eer_threshold": lambda s: s.eer_threshold(),
    "eer_interpolated": lambda s: s.eer_interpolated(),
    "eer_rocch": lambda s: s.eer_rocch(),
    "min_hter": lambda s: s.min_weighted(0.5),
    "min_weighted": lambda s: s.min_weighted(0.13),
    "min_dcf": lambda s: s.min_dcf(0.01, 1.0, 1.0),
    "min_dcf_costly": lambda s: s.min_dcf(0.3, 10.0, 1.0),
    "fmr100": lambda s: s.fnmr_at_fmr(0.01),
    "zero_fmr": lambda s: s.fnmr_at_fmr(0.0),
    "all_fmr": lambda s: s.fnmr_at_fmr(1.0),
    "zero_fnmr": lambda s: s.fmr_at_fnmr(0.0),
    "fnmr5": lambda s: s.fmr_at_fnmr(0.05),
    "rates": lambda s: s.rates_at_threshold(0.7),
}


def _kernel_cases():
    rng = np.random.default_rng(2024)
    for case in range(24):
        n = int(rng.integers(30, 2500))
        gen = rng.random(n) < rng.uniform(0.05, 0.6)
        gen[:2] = [True, False]
        kind = case % 4
        if kind == 0:  # continuous
            s = rng.normal(np.where(gen, 2.0, 0.0), 1.0)
        elif kind == 1:  # rounded: ties within and across classes
            s = np.round(rng.normal(np.where(gen, 1.0, 0.0), 1.0), 1)
        elif kind == 2:  # a few integer levels: heavy ties, collinear hull vertices
            s = rng.integers(0, 6, n).astype(float) + gen
        else:  # failures to acquire, zeros of both signs
            s = rng.normal(np.where(gen, 1.5, 0.0), 1.0)
            s[rng.random(n) < 0.05] = -np.inf
            s[rng.random(n) < 0.05] = 0.0
            s[rng.random(n) < 0.03] = -0.0
        yield pytest.param(s, gen, int(rng.choice([12, 14, 20])), id=f"case{case}-kind{kind}")


def _same(a, b):
    if a is None or b is None:
        return a is b
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return bool(np.array_equal(a, b, equal_nan=True))


@pytest.mark.parametrize("scores,genuine,depth", list(_kernel_cases()))
def test_kernel_equals_sweep(scores, genuine, depth):
    ref = Sweep(scores[~genuine], scores[genuine])
    for name, query in QUERIES.items():
        got = _kernel_run(scores, genuine, query, depth=depth)
        assert _same(got, query(ref)), name


@pytest.mark.parametrize("scores,genuine,depth", list(_kernel_cases())[:12])
def test_full_sweep_equals_sweep(scores, genuine, depth):
    """AUC and the PAV blocks (hence min Cllr), streamed in batches of distinct values."""
    ref = Sweep(scores[~genuine], scores[genuine])
    fin = np.isfinite(scores)
    fs = K.FullSweep(ref.n, ref.p, int((~fin & ~genuine).sum()), int((~fin & genuine).sum()))
    values, inverse = np.unique(scores[fin], return_inverse=True)
    g = genuine[fin]
    neg = np.bincount(inverse[~g], minlength=values.size)
    pos = np.bincount(inverse[g], minlength=values.size)
    for chunk in np.array_split(np.arange(values.size), 5):
        fs.feed(values[chunk], neg[chunk], pos[chunk])
    P, N = fs.finish()
    P0, N0 = ref.pav_blocks()
    assert np.array_equal(P, P0) and np.array_equal(N, N0)
    assert fs.auc(ref.n_finite_pos) == ref.auc()
    assert fs.min_cllr() == ref.min_cllr()


def test_keys_preserve_order():
    x = np.array([-np.inf, -1e308, -2.5, -1e-300, -0.0, 0.0, 5e-324, 1.0, 1.5, 1e308])
    keys = K.order_keys(x)
    assert np.all(np.diff(keys.astype(object)) >= 0)
    assert keys[4] == keys[5]  # -0.0 and +0.0 are one score
    assert np.array_equal(K.key_values(keys)[5:], x[5:])
    assert keys[0] == K.NEG_INF_KEY


# ----------------------------------------------------------- dask vs pandas, large
@pytest.mark.parametrize("scheduler", SCHEDULERS)
@pytest.mark.parametrize("method", ["rocch", "interpolated", "threshold"])
def test_eer_exact(big, scheduler, method):
    table, ddf = big
    with dask.config.set(scheduler=scheduler):
        got = ddf.biosig.eer(method=method)
    pd.testing.assert_frame_equal(got, pbs.eer(table, method=method), check_exact=True)


ERROR_RATE_CASES = [
    dict(threshold="eer"),
    dict(threshold="min_hter"),
    dict(threshold="far", target=0.001),
    dict(threshold="frr", target=0.02),
    dict(threshold="min_dcf", p_target=0.05),
    dict(threshold="eer", on="dev", apply_to="eval"),
    dict(threshold={"a": 1.0, "b": 1.25, "c": 0.5}),
]


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_error_rates_exact(big, scheduler):
    table, ddf = big
    with dask.config.set(scheduler=scheduler):
        for kw in ERROR_RATE_CASES:
            got = ddf.biosig.error_rates(**kw)
            pd.testing.assert_frame_equal(got, pbs.error_rates(table, **kw), check_exact=True)
            assert got.fa.dtype == np.int64 and got.fr.dtype == np.int64


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_dcf_exact(big, scheduler):
    table, ddf = big
    kw = dict(p_target=[0.5, 0.01, 0.001], c_miss=[1.0, 1.0, 10.0])
    with dask.config.set(scheduler=scheduler):
        got = ddf.biosig.dcf(**kw)
    pd.testing.assert_frame_equal(got, pbs.dcf(table, **kw), check_exact=True)


def _pandas_pair_counts(table, thresholds, split):
    """Discordance counts of every pair, counted directly with pandas."""
    t = table[table.split == split]
    wide = t.pivot(index="trial", columns="system", values="score")
    genuine = t.drop_duplicates("trial").set_index("trial").label.eq("genuine").loc[wide.index]
    wrong = {s: np.where(genuine, wide[s] < thresholds[s], wide[s] >= thresholds[s])
             for s in wide.columns}
    g = genuine.to_numpy()
    out = {}
    for a, b in [("a", "b"), ("a", "c"), ("b", "c")]:
        wa, wb = wrong[a], wrong[b]
        out[(a, b)] = dict(
            ni_ab=int(np.sum(~g & ~wa & wb)), ni_ba=int(np.sum(~g & wa & ~wb)),
            nc_ab=int(np.sum(g & ~wa & wb)), nc_ba=int(np.sum(g & wa & ~wb)),
            b=int(np.sum(wa & ~wb)), c=int(np.sum(~wa & wb)),
            fa_a=int(np.sum(~g & wa)), fr_a=int(np.sum(g & wa)), n=len(g),
        )
    return out


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_pairwise_counts_exact(big, scheduler):
    table, ddf = big
    with dask.config.set(scheduler=scheduler):
        got = ddf.biosig.pairwise_counts(on="dev", apply_to="eval")
    rates = pbs.error_rates(table, on="dev", apply_to="eval")
    thresholds = dict(zip(rates.system, rates.threshold, strict=True))
    expected = _pandas_pair_counts(table, thresholds, "eval")
    assert list(zip(got.system_a, got.system_b, strict=True)) == list(expected)
    for row in got.itertuples():
        exp = expected[(row.system_a, row.system_b)]
        assert {k: getattr(row, k) for k in exp} == exp
        assert row.threshold_a == thresholds[row.system_a]
    # fa_a, fr_a are error_rates' integer counts at the same thresholds
    ev = rates.set_index("system")
    assert got.fa_a.tolist() == [ev.fa[s] for s in got.system_a]


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_compare_exact(big, scheduler):
    table, ddf = big
    with dask.config.set(scheduler=scheduler):
        for kw in [dict(on="dev", apply_to="eval"), dict(test="mcnemar", threshold="min_hter",
                                                            test_decision_rules=True)]:
            pd.testing.assert_frame_equal(
                ddf.biosig.compare(**kw), pbs.compare(table, **kw), check_exact=True
            )


def test_summary_exact(big):
    table, ddf = big
    got, exp = ddf.biosig.summary(), pbs.summary(table)
    floats = ["cllr", "d_prime", "cllr_loss"]  # sums over all scores: equal to rounding, not bit for bit
    pd.testing.assert_frame_equal(got.drop(columns=floats), exp.drop(columns=floats),
                                  check_exact=True)
    np.testing.assert_allclose(got[floats], exp[floats], rtol=1e-12)


# ----------------------------------------------------------- options, small tables
@pytest.mark.parametrize(
    "kwargs",
    [
        dict(),
        dict(method="threshold", orientation="distance"),
        dict(method="interpolated", by="subject_group", split=None),
    ],
)
def test_eer_options_with_tiny_histogram(small, kwargs):
    table = small[0].assign(subject_group=lambda d: d.subject.str[-1].isin(list("01234")))
    ddf = dd.from_pandas(table, npartitions=6)
    with dask.config.set(TINY, scheduler="synchronous"):
        got = ddf.biosig.eer(**kwargs)
    pd.testing.assert_frame_equal(got, pbs.eer(table, **kwargs), check_exact=True)


def test_everything_with_tiny_histogram():
    """Refinement, gathering and the batched full sweep on many passes."""
    table = _table(6000, 3, [("x", 2.0, 1), ("y", 1.0, None)], label_words=False)
    ddf = dd.from_pandas(table, npartitions=7)
    with dask.config.set(TINY, scheduler="synchronous"):
        for kw in [dict(threshold="far", target=0.01), dict(threshold="min_dcf"),
                   dict(threshold="frr", target=0.0, on="dev", apply_to="eval")]:
            pd.testing.assert_frame_equal(ddf.biosig.error_rates(**kw), pbs.error_rates(table, **kw))
        pd.testing.assert_frame_equal(ddf.biosig.dcf(p_target=[0.01, 0.2]),
                                      pbs.dcf(table, p_target=[0.01, 0.2]))
        got, exp = ddf.biosig.summary(), pbs.summary(table)
    pd.testing.assert_frame_equal(got.drop(columns=["cllr", "d_prime", "cllr_loss"]),
                                  exp.drop(columns=["cllr", "d_prime", "cllr_loss"]), check_exact=True)


def test_failures_to_acquire(small):
    table = small[0].copy()
    table.loc[::37, "score"] = np.nan
    table.loc[5::41, "score"] = np.inf
    ddf = dd.from_pandas(table, npartitions=4)
    for policy in ["reject", "drop"]:
        pd.testing.assert_frame_equal(
            ddf.biosig.error_rates(threshold="min_hter", nonfinite=policy),
            pbs.error_rates(table, threshold="min_hter", nonfinite=policy),
        )
        pd.testing.assert_frame_equal(ddf.biosig.eer(nonfinite=policy), pbs.eer(table, nonfinite=policy))
    with pytest.raises(SchemaError, match=r"has \d+ non-finite score"):
        ddf.biosig.eer()
    n_bad = int((~np.isfinite(table.score)).sum())
    with pytest.raises(SchemaError, match=f"has {n_bad} non-finite"):
        ddf.biosig.eer()


def test_group_order_and_empty_partitions():
    """Categorical order, first appearance, and partitions without some systems."""
    table = _table(3000, 11, [("zeta", 2.0, None), ("alpha", 1.0, None)], split=False)
    table["system"] = pd.Categorical(table.system, categories=["zeta", "alpha", "unused"])
    ddf = dd.from_pandas(table, npartitions=8)  # each partition holds one system only
    pd.testing.assert_frame_equal(ddf.biosig.eer(), pbs.eer(table))
    empty = ddf[ddf.score > 1e9]
    with pytest.raises(SchemaError, match="empty"):
        empty.biosig.eer()


def test_det_on_a_grid_is_exact(small):
    from pandas_biosig.verification import det, det_grid

    table, ddf = small
    grid = det_grid(40, low=1e-4)
    got = ddf.biosig.det(far_grid=grid)
    assert got.identical(det(table, far_grid=grid))


def test_grid_det_bounds_the_exact_curve():
    from pandas_biosig.verification import det

    table = _table(20_000, 5, [("x", 2.0, None), ("y", 1.5, 2)], split=False)
    ddf = dd.from_pandas(table, npartitions=5)
    got = ddf.biosig.det()
    exact = det(table)
    for system in ["x", "y"]:
        g, e = got.sel(system=system), exact.sel(system=system)
        gf, gr = g.far.dropna("point").values, g.frr.dropna("point").values
        ef, er = e.far.dropna("point").values, e.frr.dropna("point").values
        assert float(g.far_gap) <= 1e-3 and float(g.frr_gap) <= 1e-3
        # the grid points are exact points, in order, from the first to reject-all ...
        where = {p: i for i, p in enumerate(zip(ef.tolist(), er.tolist(), strict=True))}
        pos = np.array([where[p] for p in zip(gf.tolist(), gr.tolist(), strict=True)])
        assert pos[0] == 0 and pos[-1] == ef.size - 1 and np.all(np.diff(pos) > 0)
        # ... and the exact points skipped between two of them lie in a box within the gaps
        hidden = np.diff(pos) > 1
        assert np.all(-np.diff(gf)[hidden] <= float(g.far_gap))
        assert np.all(np.diff(gr)[hidden] <= float(g.frr_gap))
        assert float(g.eer) == float(e.eer) and float(g.auc) == float(e.auc)


def test_pairwise_alignment_errors(small):
    table = small[0]
    # the default protocol reports eval (thresholds from dev): drop two eval trials
    gone = table.index[(table.system == "cnn") & (table.split == "eval")][:2]
    with pytest.raises(SchemaError, match="not scored by every system"):
        dd.from_pandas(table.drop(index=gone), npartitions=3).biosig.pairwise_counts()
    dup = pd.concat([table, table.loc[gone[:1]]], ignore_index=True)
    with pytest.raises(SchemaError, match="more than once"):
        dd.from_pandas(dup, npartitions=3).biosig.pairwise_counts()
    bad = table.copy()
    bad.loc[(bad.system == "gmm") & (bad.trial == 7), "label"] = "genuine"
    bad.loc[(bad.system == "gmm") & (bad.trial == 8), "label"] = "impostor"
    with pytest.raises(SchemaError, match="genuine for one system and impostor"):
        dd.from_pandas(bad, npartitions=3).biosig.pairwise_counts(threshold=0.0)
    with pytest.raises(ValueError, match="reads every trial of every replicate"):
        dd.from_pandas(table, npartitions=3).biosig.compare(test="bootstrap", metric="auc")


def test_compare_on_common_trials_and_trial_index(small):
    table = small[0]
    ragged = table.drop(index=table.index[(table.system == "lbp") & (table.trial % 5 == 0)])
    ddf = dd.from_pandas(ragged, npartitions=4)
    kw = dict(test="mcnemar", threshold=0.0, common_trials=True)
    pd.testing.assert_frame_equal(ddf.biosig.compare(**kw), pbs.compare(ragged, **kw))
    indexed = dd.from_pandas(table.set_index("trial", drop=False).rename_axis("trial_id"),
                             npartitions=4)
    by_index = dd.from_pandas(table.set_index("trial").sort_index(), npartitions=4)
    assert by_index.known_divisions and by_index.index.name == "trial"
    expected = ddf.biosig.pairwise_counts(threshold=0.0, common_trials=True)
    assert indexed.biosig.pairwise_counts(threshold=0.0).shape[0] == 12
    got = by_index.reset_index().biosig.pairwise_counts(threshold=0.0)
    assert (got.n == 1200).all() and (expected.n <= 1200).all()


def test_schema_errors(small):
    table, ddf = small
    with pytest.raises(SchemaError, match=r"missing column\(s\) \['score'\]"):
        ddf.rename(columns={"score": "s"}).biosig.eer()
    with pytest.raises(SchemaError, match="outside the known vocabulary"):
        dd.from_pandas(table.assign(label="maybe"), npartitions=2).biosig.eer()
    one_class = table[~((table.system == "gmm") & (table.label == "genuine"))]
    with pytest.raises(SchemaError, match="0 genuine"):
        dd.from_pandas(one_class, npartitions=2).biosig.eer()
    with pytest.raises(TypeError, match="dask.dataframe.DataFrame"):
        ooc.eer(table)
    with pytest.raises(ValueError, match="method="):
        ddf.biosig.eer(method="nope")


# ----------------------------------------------------------- the accessor is a mirror
MIRRORED = {
    "eer": pbs.eer,
    "error_rates": pbs.error_rates,
    "dcf": pbs.dcf,
    "summary": pbs.summary,
    "compare": pbs.compare,
    "ci": pbs.ci,
}


def _params(func, skip):
    return [(p.name, p.kind, p.default) for p in list(inspect.signature(func).parameters.values())[skip:]]


@pytest.mark.parametrize("name", [m for m in vars(ooc.DaskBiosigAccessor) if not m.startswith("_")])
def test_accessor_mirrors_functions(name):
    meth = getattr(ooc.DaskBiosigAccessor, name)
    assert _params(meth, 1) == _params(getattr(ooc, name), 1)
    if name in MIRRORED:
        assert _params(getattr(ooc, name), 1) == _params(MIRRORED[name], 1)
    if name == "det":
        from pandas_biosig.verification import det

        assert _params(ooc.det, 1) == _params(det, 1)


def test_accessor_stores_only_the_frame(small):
    ddf = small[1]
    assert vars(ddf.biosig) == {"_obj": ddf}
    text = repr(ddf.biosig)
    assert "5 partitions" in text and "system, trial, label, score, split" in text


def test_failures_to_acquire_match_the_in_memory_convention():
    # bob.measure's convention (docs/methods.md): everything on the acquired scores, one
    # pooled FTA in error_rates; the out-of-core engine gives the same numbers
    t = pbs.datasets.example_trials()
    rng = np.random.default_rng(0)
    t.loc[rng.choice(len(t), 60, replace=False), "score"] = np.nan
    ddf = dd.from_pandas(t, npartitions=3)
    kw = dict(nonfinite="reject")
    pd.testing.assert_frame_equal(ddf.biosig.summary(**kw), pbs.summary(t, **kw),
                                  check_dtype=False)
    apriori = dict(threshold="eer", on="dev", apply_to="eval", **kw)
    ours = pbs.error_rates(t, **apriori)
    pd.testing.assert_frame_equal(ddf.biosig.error_rates(**apriori), ours, check_dtype=False)
    assert (ours.fta > 0).all()
    both = dict(common_trials=True, on="dev", apply_to="eval", test="hter_dependent", **kw)
    pd.testing.assert_frame_equal(ddf.biosig.compare(**both), pbs.compare(t, **both),
                                  check_dtype=False)


@pytest.mark.parametrize("name", ["eer", "error_rates", "dcf", "summary", "det", "roc",
                                  "bayes_error", "epc", "compare", "bootstrap", "ci"])
def test_counted_tables_are_refused_by_name(small, name):
    from pandas_biosig.outofcore._engine import ERROR_COUNT

    with pytest.raises(ValueError, match=re.escape(ERROR_COUNT.format(count="n"))):
        getattr(ooc, name)(small[1], count="n")
