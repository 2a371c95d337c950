"""``compare_groups`` tests every pair of a family as arrays: each row equals, to the bit,
the test of that pair alone (:func:`pair_test`, one pair at a time, as the rows were built
before), on random demographic tables with ties, subjects, replicates that cannot vary,
undefined replicates, the score test, dev/eval thresholds and every impostor rule."""

import itertools

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig._core.pairwise import adjust_pvalues
from pandas_biosig.demographics._comparisons import _group_replicates
from pandas_biosig.demographics._pairs import pair_test
from pandas_biosig.demographics._plan import (
    _BOOT,
    COMPARE_GROUPS_COLUMNS,
    TEST_METHODS,
    _counts,
    _method,
    _plan,
    _rng,
)


def one_pair_at_a_time(data, *, test="auto", adjust="holm", alpha=0.05, confidence_level=0.95,
                       n_resamples=1000, seed=None, **kwargs):
    """The rows of ``compare_groups``, each pair tested alone and the frame built from
    records (the reference)."""
    plan = _plan(data, **{"group": "group", "reference_group": "reference_group",
                          "impostors": "same_group", "threshold": "far", "target": 1e-3,
                          "on": "auto", "apply_to": "auto", "system": "system",
                          "trial": "trial", "label": "label", "score": "score",
                          "split": "split", "subject": "subject",
                          "reference_subject": "reference_subject",
                          "orientation": "similarity", "nonfinite": "raise", **kwargs})
    how = _method(test, plan, TEST_METHODS, _BOOT, "test")
    rng = _rng(seed)
    k = len(plan.labels)
    out = []
    for rep in plan.reported:
        n_gen, n_imp, fr, fa = _counts(rep.part, rep.threshold, k)
        present = [j for j in range(k) if n_gen[j] + n_imp[j] > 0]
        reps = _group_replicates(plan, rep, present, rng, n_resamples) if how == _BOOT else None
        rows = []
        for metric, err, tot in (("fmr", fa, n_imp), ("fnmr", fr, n_gen)):
            units = ("people" if plan.two_way and metric == "fmr"
                     else "subjects" if plan.has_subject else "trials")
            for a, b in itertools.combinations(present, 2):
                ra = err[a] / tot[a] if tot[a] else float("nan")
                rb = err[b] / tot[b] if tot[b] else float("nan")
                stat, p, lo, hi, why = pair_test(reps, metric, a, b, (err, tot), ra - rb,
                                                 confidence_level, units)
                rows.append(dict(
                    system=rep.part.system, split=rep.part.split, metric=metric,
                    group_a=plan.labels[a], group_b=plan.labels[b], impostors=plan.impostors,
                    threshold_from=rep.threshold_from, threshold=plan.sign * rep.threshold,
                    n_a=int(tot[a]), n_b=int(tot[b]), rate_a=ra, rate_b=rb, estimate=ra - rb,
                    statistic=stat, pvalue=p, test=how,
                    adjust=adjust if adjust is not None else "none", alpha=alpha,
                    confidence_level=confidence_level, ci_low=lo, ci_high=hi,
                    resample=plan.resample if how == _BOOT else None, fallback_reason=why))
        p_adj, reject = adjust_pvalues(np.array([r["pvalue"] for r in rows]), adjust, alpha)
        for r, pa, rj in zip(rows, p_adj, reject, strict=True):
            r["pvalue_adj"], r["reject"] = float(pa), bool(rj)
        out.extend(rows)
    return pd.DataFrame(out, columns=COMPARE_GROUPS_COLUMNS)


def demographic_table(groups=12, seed=0, subjects=4, decimals=1, split=False, systems=1,
                      one_class_subjects=False, references=False):
    """Groups of 20-60 trials, 30 % genuine, scores rounded (ties), some cross-group
    impostor trials; subject ids per group (None: no subject column); with
    ``one_class_subjects``, in every other group the first subject holds all the genuine
    trials and no other (a replicate may draw no trial of a class: undefined rates)."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(20, 60, groups)
    grp = np.repeat(np.arange(groups), sizes)
    n = grp.size
    genuine = rng.random(n) < 0.3
    sub = rng.integers(0, subjects or 1, n)
    if one_class_subjects:
        genuine = np.where(grp % 2 == 0, sub == 0, genuine)
    quality = rng.normal(0, 0.4, groups)[grp]  # groups differ
    ref = np.where(~genuine & (rng.random(n) < 0.2), rng.integers(0, groups, n), grp)
    frames = []
    for s in range(systems):
        score = np.round(rng.normal(np.where(genuine, 2.0 + quality, 0.0), 1.0), decimals)
        t = pd.DataFrame({"system": f"s{s}", "group": grp.astype(str), "reference_group":
                          ref.astype(str), "trial": np.arange(n), "label": genuine,
                          "score": score})
        if subjects:
            t["subject"] = grp * 100 + sub
        if subjects and references:  # people in both roles: a reference of the same group
            t["reference_subject"] = np.where(genuine, t["subject"], ref * 100 + (sub + 1) % subjects)
        if split:
            t["split"] = np.where(np.arange(n) % 2 == 0, "dev", "eval")
        frames.append(t)
    return pd.concat(frames, ignore_index=True)


CASES = [
    (dict(), dict(seed=0, n_resamples=200)),
    (dict(subjects=2, seed=1, one_class_subjects=True),
     dict(seed=1, n_resamples=100, threshold="eer")),  # undefined replicates
    (dict(seed=2), dict(seed=2, n_resamples=100, target=0.2, adjust="bonferroni")),
    (dict(subjects=None, seed=3), dict()),  # the score test
    (dict(subjects=None, seed=4), dict(test="bootstrap", seed=4, n_resamples=50)),
    (dict(seed=5, split=True, systems=2), dict(seed=5, n_resamples=80, threshold="min_hter",
                                              impostors="all", adjust=None)),
    (dict(seed=6, decimals=0), dict(seed=6, n_resamples=60, threshold=0.5,
                                    confidence_level=0.9)),
    (dict(seed=7, references=True), dict(seed=7, n_resamples=80)),  # people in both roles
]


@pytest.mark.parametrize(("table", "kwargs"), CASES)
def test_every_row_equals_its_pair_tested_alone(table, kwargs):
    data = demographic_table(**table)
    got = pbs.compare_groups(data, **kwargs)
    want = one_pair_at_a_time(data, **kwargs)
    pd.testing.assert_frame_equal(got, want, check_exact=True)


def test_the_cases_hold_each_kind_of_row():
    """The tables above hold bootstrap rows, exact fallbacks and undefined replicates."""
    kinds = set()
    for table, kwargs in CASES[:3]:
        t = pbs.compare_groups(demographic_table(**table), **kwargs)
        kinds |= {"fallback"} if t["fallback_reason"].notna().any() else set()
        kinds |= {"bootstrap"} if (t["fallback_reason"].isna() & t["pvalue"].notna()).any() else set()
    assert kinds == {"fallback", "bootstrap"}
    data = demographic_table(**CASES[1][0])
    plan = _plan(data, group="group", reference_group="reference_group",
                 reference_subject="reference_subject",
                 impostors="same_group", threshold="eer", target=1e-3, on="auto",
                 apply_to="auto", system="system", trial="trial", label="label",
                 score="score", split="split", subject="subject",
                 orientation="similarity", nonfinite="raise")
    rep = plan.reported[0]
    present = list(range(len(plan.labels)))
    reps = _group_replicates(plan, rep, present, np.random.default_rng(1), 100)
    assert any(np.isnan(r["fmr"][0]).any() or np.isnan(r["fnmr"][0]).any()
               for r in reps.values())


def test_group_rates_of_many_groups_equal_each_group_counted_alone():
    """``group_rates`` finds each group's subjects with one sort: its ``n_subjects`` and
    cluster Wilson bounds equal those of the group's own trials, masked one at a time."""
    from pandas_biosig.demographics._plan import _cluster_wilson

    data = demographic_table(groups=30, seed=7, subjects=5)
    got = pbs.group_rates(data, threshold=0.5)
    assert (got["ci_method"] == "wilson_cluster").all()
    score = data["score"].to_numpy()
    counted = data["label"].to_numpy() | (data["group"] == data["reference_group"]).to_numpy()
    for _, row in got.iterrows():
        mine = (data["group"] == row["group"]).to_numpy() & counted
        subj = data["subject"].to_numpy()[mine]
        assert row["n_subjects"] == np.unique(subj).size
        gen = data["label"].to_numpy()[mine]
        err = np.where(gen, score[mine] < 0.5, score[mine] >= 0.5)
        ids, code = np.unique(subj, return_inverse=True)
        for metric, cls in (("fmr", ~gen), ("fnmr", gen)):
            e = np.bincount(code[cls & err], minlength=ids.size)
            n = np.bincount(code[cls], minlength=ids.size)
            keep = np.bincount(code, minlength=ids.size) > 0
            low, high = _cluster_wilson(e[keep], n[keep], 0.95)
            assert (row[f"{metric}_low"], row[f"{metric}_high"]) == (low, high)


def _mirrored(rows: pd.DataFrame) -> pd.DataFrame:
    """All-pairs rows written as (group_b, group_a): the estimate, the statistic and the
    interval change sign, the p-value stays."""
    out = rows.rename(columns={"group_a": "group_b", "group_b": "group_a", "n_a": "n_b",
                               "n_b": "n_a", "rate_a": "rate_b", "rate_b": "rate_a",
                               "ci_low": "ci_high", "ci_high": "ci_low"})
    for col in ("estimate", "statistic", "ci_low", "ci_high"):
        out[col] = -out[col]
    return out


@pytest.mark.parametrize(("table", "kwargs"), [CASES[0], CASES[3], CASES[5], CASES[7]])
def test_baseline_rows_equal_the_all_pairs_rows(table, kwargs):
    """With ``baseline``, every other group against it: G - 1 pairs per family, each row
    the all-pairs row of the same two groups (mirrored where the baseline comes first);
    only the adjusted p-values differ (a smaller family)."""
    data = demographic_table(**table)
    base = sorted(data["group"].unique())[3]
    got = pbs.compare_groups(data, baseline=base, **kwargs)
    every = pbs.compare_groups(data, **kwargs)
    assert (got["group_b"] == base).all() and (got["group_a"] != base).all()
    n_fam = every.groupby(["system", "split", "metric"], dropna=False).ngroups
    assert len(got) == n_fam * (data["group"].nunique() - 1)
    keys = ["system", "split", "metric", "group_a", "group_b"]
    direct = every[every["group_b"] == base]
    flipped = _mirrored(every[every["group_a"] == base])
    want = pd.concat([direct, flipped]).set_index(keys)
    mine = got.set_index(keys)
    cols = ["n_a", "n_b", "rate_a", "rate_b", "estimate", "statistic", "pvalue", "ci_low",
            "ci_high", "threshold", "fallback_reason"]
    pd.testing.assert_frame_equal(mine[cols], want.loc[mine.index, cols], check_exact=True)
    for _, fam in got.groupby(["system", "split"], dropna=False):
        p_adj, _ = adjust_pvalues(fam["pvalue"].to_numpy(), kwargs.get("adjust", "holm"), 0.05)
        np.testing.assert_array_equal(fam["pvalue_adj"].to_numpy(), p_adj)


def test_a_baseline_that_is_not_a_group_is_named():
    from pandas_biosig._core.pairwise import ERROR_BASELINE

    data = demographic_table(groups=4)
    with pytest.raises(ValueError, match=r"baseline='Z' is not one of the groups") as err:
        pbs.compare_groups(data, baseline="Z", seed=0, n_resamples=20)
    assert str(err.value).startswith(ERROR_BASELINE.split("{")[0])


def test_compare_fairness_baseline_rows_equal_the_all_pairs_rows():
    data = demographic_table(groups=6, systems=3, seed=3)
    kw = dict(target=0.1, n_resamples=100, seed=3)
    every = pbs.compare_fairness(data, **kw)
    got = pbs.compare_fairness(data, baseline="s2", **kw)
    assert got[["system_a", "system_b"]].values.tolist() == [["s0", "s2"], ["s1", "s2"]]
    want = every[every["system_b"] == "s2"].reset_index(drop=True)
    cols = ["value_a", "value_b", "estimate", "pvalue", "ci_low", "ci_high"]
    pd.testing.assert_frame_equal(got[cols], want[cols], check_exact=True)
    with pytest.raises(ValueError, match=r"baseline='s9' is not one of the systems"):
        pbs.compare_fairness(data, baseline="s9", **kw)


def test_clopper_pearson_many_equals_one_at_a_time():
    """The fallback bounds of many groups come from one vectorised call: the same numbers
    as the scalar Clopper–Pearson (itself checked against statsmodels)."""
    from statsmodels.stats.proportion import proportion_confint

    from pandas_biosig._core.replicates import clopper_pearson, clopper_pearson_many

    n = np.array([1, 1, 5, 10, 10, 37, 200, 3])
    k = np.array([0, 1, 2, 0, 10, 5, 199, 3])
    low, high = clopper_pearson_many(k, n, 0.025)
    for i in range(n.size):
        assert (low[i], high[i]) == clopper_pearson(int(k[i]), int(n[i]), 0.025)
        np.testing.assert_allclose((low[i], high[i]),
                                   proportion_confint(k[i], n[i], alpha=0.025, method="beta"),
                                   rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("references", [False, True])
@pytest.mark.parametrize("function", [pbs.compare_fairness, pbs.compare_groups])
def test_a_split_resamples_only_the_people_with_trials_in_it(function, references):
    """The eval rows of a table whose dev split holds other people are the rows of the
    eval trials alone: people without a trial in the split are never drawn into it."""
    t = demographic_table(groups=5, subjects=6, systems=2, references=references, seed=4)
    if references:  # a reference of the same split as its probe
        sub = t["subject"] % 100
        t["reference_subject"] = np.where(t["label"], t["subject"],
                                          t["reference_group"].astype(int) * 100 + (sub + 2) % 6)
    t["split"] = np.where(t["subject"] % 2 == 0, "dev", "eval")
    kw = dict(threshold=0.8, n_resamples=100, seed=3, apply_to="eval", on=None)
    both = function(t, **kw)
    alone = function(t[t["split"] == "eval"], **kw)
    assert both["resample"].eq("two_way" if references else "subject").all()
    pd.testing.assert_frame_equal(both, alone, check_exact=True)
