"""Search tables of many groups ranked in one pass give the per-group numbers to the bit:
validate_search against the per-group ranking it replaced, and every identification
function with ``by=`` against the same function on each group's sub-table (random tables
with ties, failed comparisons, open-set probes, several mates, rows in any order)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig import SchemaError
from pandas_biosig._core.schema import combine_codes, genuine_from_labels
from pandas_biosig._kernels import identification as _k
from pandas_biosig.identification._search import (
    _id_codes,
    _key_codes,
    _oriented_scores,
    validate_search,
)


def make_search(rng, groups=12, *, shared_ids=True, shuffle=False, fta=False):
    """``groups`` (site, system) searches of 4-7 probes against 1-9 references: integer
    scores (ties) in a third, one probe in four unmated, some probes with two mates;
    probe and reference ids repeated across groups (``shared_ids``) or not."""
    frames = []
    for i in range(groups):
        n_p, n_r = int(rng.integers(4, 8)), int(rng.integers(2, 10))
        probe = np.repeat(np.arange(n_p), n_r)
        ref = np.tile(np.arange(n_r), n_p)
        mate = ref == np.repeat(rng.integers(0, n_r, n_p), n_r)
        mate |= (ref == (np.repeat(rng.integers(0, n_r, n_p), n_r))) & (rng.random(ref.size) < 0.3)
        mate &= np.repeat(np.arange(n_p) % 4 != 3, n_r)  # open-set probes
        mate[0] = True
        if i % 3 == 0:
            score = rng.integers(0, 4, ref.size).astype(float) + 2 * mate
        else:
            score = np.round(rng.normal(2.0 * mate, 1.0), 2)
        shift = 0 if shared_ids else 100 * i
        frames.append(pd.DataFrame({
            "site": f"site{i % 3}", "system": f"s{i // 3}", "probe": probe + shift,
            "reference": [f"r{x + shift}" for x in ref], "score": score, "mate": mate}))
    table = pd.concat(frames, ignore_index=True)
    if fta:
        table.loc[rng.random(len(table)) < 0.1, "score"] = np.nan
    if shuffle:
        table = table.sample(frac=1, random_state=int(rng.integers(1000))).reset_index(drop=True)
    return table


def _old_groups(data, by):
    """The per-group ranking validate_search did before: each group's rows ranked
    against the whole table's probe codes."""
    by = [by] if isinstance(by, str) else list(by or [])
    is_mate = genuine_from_labels(data, "mate")
    values = _oriented_scores(data, "score", "similarity", "reject")
    probe_codes, probe_uniques = _id_codes(data["probe"])
    codes, uniques = zip(*(_key_codes(data[c]) for c in [*by, "system"]), strict=True)
    combined = combine_codes([np.asarray(c) for c in codes], [len(u) for u in uniques],
                             len(data))
    out = []
    for code in np.unique(combined):
        rows = np.flatnonzero(combined == code)
        st = _k.probe_stats(np.asarray(probe_codes)[rows], is_mate[rows], values[rows],
                            len(probe_uniques))
        present = np.flatnonzero(st.n_references > 0)
        key = tuple(u[int(c[rows[0]])] for u, c in zip(uniques, codes, strict=True))
        out.append((key, np.asarray(probe_uniques)[present], st.take(present)))
    return out


CASES = [dict(), dict(shared_ids=False), dict(shuffle=True), dict(shared_ids=False, shuffle=True),
         dict(fta=True), dict(fta=True, shuffle=True)]


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
@pytest.mark.parametrize("by", [None, "site", ["fold", "site"]])
def test_validate_search_equals_the_per_group_ranking(case, by):
    table = make_search(np.random.default_rng(1), **case)
    if by is None:  # one search per system: a system per (site, system)
        table = table.assign(system=table.site + table.system)
    table["fold"] = (table["site"].str[-1].astype(int) % 2).astype(np.int16)  # numbers too
    s = validate_search(table, by=by, nonfinite="reject")
    old = _old_groups(table, by)
    assert len(s.groups) == len(old) > 1
    for g, (key, probes, st) in zip(s.groups, old, strict=True):
        assert g.key == tuple(k.item() if isinstance(k, np.generic) else k for k in key)
        assert np.array_equal(g.probes, probes)
        for a, b in zip(g.stats, st, strict=True):
            assert a.dtype == b.dtype and np.array_equal(a, b, equal_nan=True)


def _per_group(f, table, keys, **kwargs):
    """``f`` on each (site, system) sub-table, the rows in the order of ``keys``."""
    parts = {k: f(sub, by="site", **kwargs) for k, sub in table.groupby(["site", "system"])}
    return pd.concat([parts[k] for k in keys], ignore_index=True)


def _keys(frame) -> list:
    return list(dict.fromkeys(zip(frame["site"], frame["system"], strict=True)))


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
def test_probe_ranks_and_recognition_rate_equal_each_group_alone(case):
    table = make_search(np.random.default_rng(2), **case)
    got = pbs.probe_ranks(table, by="site", nonfinite="reject")
    want = _per_group(pbs.probe_ranks, table, _keys(got), nonfinite="reject")
    # within a group the probes come in the whole table's order of probe ids
    sort = ["site", "system", "probe"]
    pd.testing.assert_frame_equal(got.sort_values(sort, kind="stable").reset_index(drop=True),
                                  want.sort_values(sort, kind="stable").reset_index(drop=True),
                                  check_exact=True)
    for method in ("wilson", "beta", "jeffreys", "agresti_coull", "normal", "binom_test"):
        kwargs = dict(rank=[1, 2, 5], ci_method=method, nonfinite="reject")
        got = pbs.recognition_rate(table, by="site", **kwargs)
        want = _per_group(pbs.recognition_rate, table, _keys(got), **kwargs)
        pd.testing.assert_frame_equal(got, want, check_exact=True)


@pytest.mark.parametrize("case", CASES[:4], ids=[str(i) for i in range(4)])
def test_cmc_equals_each_group_alone(case):
    table = make_search(np.random.default_rng(3), **case)
    got = pbs.cmc(table, by="site", max_rank=6)
    for (site, system), sub in table.groupby(["site", "system"]):
        alone = pbs.cmc(sub, by="site", max_rank=6).sel(site=site, system=system)
        part = got.sel(site=site, system=system)
        for name in alone.data_vars:
            assert np.array_equal(part[name].values, alone[name].values), name
    # the largest rank of each group, and the grid of ranks up to the largest of all
    free = pbs.cmc(table, by="site")
    assert free.sizes["rank"] == int(free.max_rank.max())


def test_dir_functions_equal_each_group_alone():
    table = make_search(np.random.default_rng(4))
    for kwargs in (dict(threshold=1.5), dict(threshold="far", target=0.5),
                   dict(threshold="far", target=0.5, rank=2)):
        got = pbs.detection_identification_rate(table, by="site", **kwargs)
        want = _per_group(pbs.detection_identification_rate, table, _keys(got), **kwargs)
        pd.testing.assert_frame_equal(got, want, check_exact=True)
    # dev and eval searches: the threshold chosen on dev, reported on eval (or each split)
    split = pd.concat([table.assign(split="dev"), table.assign(split="eval", score=table.score
                                                                + 0.3)], ignore_index=True)
    for kwargs in (dict(threshold="far", target=0.4), dict(threshold="far", target=0.4,
                                                            on=None, apply_to=None),
                   dict(threshold=2.0, apply_to=["eval", "dev"])):
        got = pbs.detection_identification_rate(split, by="site", **kwargs)
        want = _per_group(pbs.detection_identification_rate, split, _keys(got), **kwargs)
        order = ["site", "system", "split"]  # the whole table lists splits before systems
        pd.testing.assert_frame_equal(
            got.sort_values(order, kind="stable").reset_index(drop=True),
            want.sort_values(order, kind="stable").reset_index(drop=True), check_exact=True)
        assert set(got["split"]) == ({"eval"} if "on" not in kwargs and kwargs["threshold"]
                                     == "far" else {"dev", "eval"})
    got = pbs.dir_curve(table, by="site")
    for (site, system), sub in table.groupby(["site", "system"]):
        alone = pbs.dir_curve(sub, by="site").sel(site=site, system=system)
        part = got.sel(site=site, system=system)
        n = alone.sizes["point"]
        for name in ("threshold", "far", "dir"):
            assert np.array_equal(part[name].values[:n], alone[name].values, equal_nan=True)
            assert np.isnan(part[name].values[n:]).all()


def test_duplicate_pairs_name_the_first_group_as_before():
    table = make_search(np.random.default_rng(5), shared_ids=False)
    for order in ("appended", "shuffled", "grouped"):
        bad = pd.concat([table, table[(table.site == "site2") & (table.system == "s1")].head(2),
                         table[(table.site == "site1") & (table.system == "s3")].head(1)],
                        ignore_index=True)
        if order == "shuffled":
            bad = bad.sample(frac=1, random_state=0).reset_index(drop=True)
        if order == "grouped":  # each probe's rows together, the references falling
            bad = bad.sort_values(["site", "system", "probe", "reference"], kind="stable",
                                  ascending=[True, True, True, False], ignore_index=True)
        # the groups in order of their codes (first appearance): the first bad one named
        order = [key for key, *_ in _old_groups(bad.assign(score=0.0), "site")]
        first = min((("site1", "s3"), 1), (("site2", "s1"), 2), key=lambda k: order.index(k[0]))
        (site, system), n = first
        with pytest.raises(SchemaError, match=f"site='{site}', system '{system}'") as got:
            validate_search(bad, by="site")
        assert f"compares {n} (probe, reference) pair(s) more than once" in str(got.value)


def test_grouped_rows_without_repeats_pass_both_checks():
    table = make_search(np.random.default_rng(7), shared_ids=False)
    falling = table.sort_values(["site", "system", "probe", "reference"], kind="stable",
                                ascending=[True, True, True, False], ignore_index=True)
    for t in (table, falling):
        got = pbs.probe_ranks(t, by="site")
        assert len(got) == table.groupby(["site", "system", "probe"]).ngroups


def test_a_group_without_mated_probes_is_named():
    table = make_search(np.random.default_rng(6))
    no_mates = table.assign(mate=table.mate & ~((table.site == "site1") & (table.system == "s0")))
    for f in (pbs.cmc, pbs.recognition_rate):
        with pytest.raises(SchemaError, match="site='site1', system 's0' has no mated probe"):
            f(no_mates, by="site")
