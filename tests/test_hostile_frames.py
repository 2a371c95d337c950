"""Hostile and odd trial tables: a correct count or the library's named error, nothing else.

Each case is drawn by Hypothesis from a *model* (plain Python rows plus a list of defects)
and rendered into a DataFrame with odd but legal pandas dtypes (nullable, Arrow,
categorical with unused categories, mixed objects), odd indexes (duplicated labels,
MultiIndex) and odd column labels. The model says what the answer is: the FAR/FRR at a
fixed threshold counted by brute force, or a named error when the table is invalid.
The input frame must come back unchanged either way. Outcomes are counted (tests/hostile.py).
"""

from __future__ import annotations

import decimal

import numpy as np
import pandas as pd
import pytest
from hostile import COUNTS, outcome

import pandas_biosig as pbs

hypothesis = pytest.importorskip("hypothesis")
st = pytest.importorskip("hypothesis.strategies")
pa = pytest.importorskip("pyarrow")
given, settings, HealthCheck = hypothesis.given, hypothesis.settings, hypothesis.HealthCheck

SETTINGS = settings(
    max_examples=100, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
NAMES = ["a", "b_c", "<b>x</b>", "é|ü", "", "1", "nan"]
SCORES = [-3.0, -1.5, -1.0, 0.0, 0.5, 1.0, 2.0, 2.5, 3.0]  # exact in float32: many ties
GENUINE_WORDS = ["genuine", "Target", " mated ", "1", "TRUE"]
IMPOSTOR_WORDS = ["impostor", "NonTarget", "non-mated", "0", "false"]


@st.composite
def models(draw):
    n_systems = draw(st.integers(1, 3))
    systems = draw(st.lists(st.sampled_from(NAMES), min_size=n_systems, max_size=n_systems,
                            unique=True))
    rows = []
    for s in systems:
        # both classes at both sites (a valid table), then random trials (maybe one class)
        n = draw(st.integers(0, 6))
        fixed = [(True, "x"), (False, "x"), (True, "y"), (False, "y")]
        if draw(st.integers(0, 5)) == 0:
            fixed = []
        for i in range(len(fixed) + n):
            genuine, site = fixed[i] if i < len(fixed) else (
                draw(st.booleans()), draw(st.sampled_from("xy"))
            )
            rows.append(
                dict(system=s, trial=i, genuine=genuine, score=draw(st.sampled_from(SCORES)),
                     site=site)
            )
    defects = draw(st.sets(st.sampled_from([
        "nan_score", "inf_score", "na_score", "dup_trial", "na_trial", "unknown_label",
        "na_label", "big_int", "complex", "decimal", "dup_column", "multiindex_columns",
    ]), max_size=2))
    defects = defects if draw(st.integers(0, 2)) == 0 else set()  # most cases are valid
    return dict(
        rows=rows, defects=defects,
        system_dtype=draw(st.sampled_from(["object", "string", "category", "arrow"])),
        trial_dtype=draw(st.sampled_from(["int64", "Int64", "str", "float", "arrow"])),
        label_dtype=draw(st.sampled_from(["bool", "int", "words", "category", "boolean",
                                          "arrow"])),
        score_dtype=draw(st.sampled_from(["float64", "float32", "Float64", "arrow",
                                          "int64", "Int64"])),
        index=draw(st.sampled_from(["range", "duplicated", "multi", "shuffled"])),
        by=draw(st.booleans()),
        threshold=draw(st.sampled_from(SCORES)),
        mutate_row=draw(st.integers(0, 10_000)),
        extra=draw(st.sampled_from(["none", "mixed_objects", "unused_category"])),
    )


def _set(series: pd.Series, k: int, value) -> pd.Series:
    series = series.copy()
    series.iloc[k] = value
    return series


def _frame(m) -> pd.DataFrame:
    rows = [dict(r) for r in m["rows"]]
    if not rows:
        rows = [dict(system="a", trial=0, genuine=True, score=0.0, site="x")]
        m["rows"] = rows
    k = m["mutate_row"] % len(rows)
    d = m["defects"]
    scores: list = [r["score"] for r in rows]
    if m["score_dtype"] in ("int64", "Int64"):
        scores = [int(np.floor(s)) for s in scores]
        for r, s in zip(rows, scores, strict=True):
            r["score"] = float(s)
    trials: list = [r["trial"] for r in rows]
    if "dup_trial" in d:
        same = [i for i, r in enumerate(rows) if r["system"] == rows[k]["system"] and i != k]
        if same:
            trials[k] = trials[same[0]]
        else:
            d = d - {"dup_trial"}
    labels: list = [r["genuine"] for r in rows]
    system = pd.Series([r["system"] for r in rows])
    if m["system_dtype"] == "string":
        system = system.astype("string")
    elif m["system_dtype"] == "category":
        system = pd.Categorical(system, categories=[*dict.fromkeys(system), "unused"])
    elif m["system_dtype"] == "arrow":
        system = system.astype(pd.ArrowDtype(pa.string()))
    else:
        system = system.astype(object)
    trial = pd.Series(trials)
    if m["trial_dtype"] == "Int64":
        trial = trial.astype("Int64")
        if "na_trial" in d:
            trial = _set(trial, k, pd.NA)
    elif m["trial_dtype"] == "str":
        trial = trial.map(lambda t: f"t{t}").astype(object)
        if "na_trial" in d:
            trial = _set(trial, k, None)
    elif m["trial_dtype"] == "float":
        trial = trial.astype(float)
        if "na_trial" in d:
            trial = _set(trial, k, np.nan)
    elif m["trial_dtype"] == "arrow":
        trial = trial.astype(pd.ArrowDtype(pa.int64()))
        if "na_trial" in d:
            trial = _set(trial, k, pd.NA)
    else:
        trial = trial.astype(np.int64)
        if "na_trial" in d:
            trial = trial.astype(object)
            trial = _set(trial, k, None)
    lab = m["label_dtype"]
    if lab == "bool":
        label = pd.Series(labels, dtype=bool)
    elif lab == "int":
        label = pd.Series([int(x) for x in labels], dtype=np.int64)
    elif lab in ("words", "category"):
        words = [
            (GENUINE_WORDS if g else IMPOSTOR_WORDS)[i % 5] for i, g in enumerate(labels)
        ]
        label = pd.Series(words, dtype=object)
        if lab == "category":
            label = label.astype(pd.CategoricalDtype([*dict.fromkeys(words), "client"]))
    elif lab == "boolean":
        label = pd.Series(labels, dtype="boolean")
    else:
        label = pd.Series(labels, dtype=pd.ArrowDtype(pa.bool_()))
    if "unknown_label" in d:
        label = label.astype(object)
        label = _set(label, k, "maybe")
    if "na_label" in d:
        label = label.astype(object) if lab in ("bool", "int", "words") else label
        if isinstance(label.dtype, pd.CategoricalDtype):
            label = label.astype(object)
        label = _set(label, k, None if label.dtype == object else pd.NA)
    sd = m["score_dtype"]
    score = pd.Series(scores)
    score = {
        "float64": lambda s: s.astype(np.float64), "float32": lambda s: s.astype(np.float32),
        "Float64": lambda s: s.astype("Float64"),
        "arrow": lambda s: s.astype(pd.ArrowDtype(pa.float64())),
        "int64": lambda s: s.astype(np.int64), "Int64": lambda s: s.astype("Int64"),
    }[sd](score)
    if "nan_score" in d:
        if sd in ("int64", "Int64"):
            score = score.astype(np.float64)
        score = _set(score, k, np.nan)
    if "inf_score" in d:
        score = score.astype(np.float64) if sd in ("int64", "Int64", "Float64", "arrow") else score
        score = _set(score, k, -np.inf)
    if "na_score" in d:
        score = score.astype("Float64")
        score = _set(score, k, pd.NA)
    if "big_int" in d:
        score = score.astype(np.float64).fillna(0).replace([np.inf, -np.inf], 0)
        score = score.round().astype(np.int64) + 2**60
    if "complex" in d:
        score = score.astype(np.float64).fillna(0).astype(np.complex128)
    if "decimal" in d:
        score = pd.Series(
            [decimal.Decimal(str(float(np.real(s)))) for s in score.fillna(0)],
            dtype=object,
        )
    data = {"system": system, "trial": trial, "label": label, "score": score}
    if m["by"]:
        data["site"] = pd.Categorical([r["site"] for r in rows], categories=["y", "x", "z"])
    if m["extra"] == "mixed_objects":
        data["note"] = pd.Series([1, "x", None, 2.5, (1, 2)] * len(rows), dtype=object)[: len(rows)]
    frame = pd.DataFrame({c: pd.Series(v).reset_index(drop=True) for c, v in data.items()})
    n = len(frame)
    if m["index"] == "duplicated":
        frame.index = [7] * n
    elif m["index"] == "multi":
        frame.index = pd.MultiIndex.from_arrays([np.arange(n) % 2, np.arange(n)])
    elif m["index"] == "shuffled":
        frame = frame.iloc[np.random.default_rng(n).permutation(n)]
    if "dup_column" in d:
        frame = pd.concat([frame, frame[["score"]]], axis=1)
    if "multiindex_columns" in d:
        frame.columns = pd.MultiIndex.from_arrays([frame.columns, ["x"] * frame.shape[1]])
    return frame, d


def _expected(m, defects):
    """The brute-force per-(site, system) counts, or None when the table is invalid."""
    if defects:
        return None
    rows = m["rows"]
    if m["score_dtype"] in ("int64", "Int64"):
        rows = [dict(r, score=float(np.floor(r["score"]))) for r in rows]
    t = m["threshold"]
    out = {}
    keys = {((r["site"],) if m["by"] else ()) + (r["system"],) for r in rows}
    for key in keys:
        sel = [r for r in rows if (((r["site"],) if m["by"] else ()) + (r["system"],)) == key]
        gen = [r["score"] for r in sel if r["genuine"]]
        imp = [r["score"] for r in sel if not r["genuine"]]
        if not gen or not imp:
            return None  # a one-class group: an error
        fa = sum(s >= t for s in imp)
        fr = sum(s < t for s in gen)
        out[key] = (len(gen), len(imp), fa, fr, fa / len(imp), fr / len(gen))
    return out


@SETTINGS
@given(models())
def test_error_rates_at_a_fixed_threshold(m):
    frame, defects = _frame(m)
    before = frame.copy(deep=True)
    expected = _expected(m, defects)
    by = "site" if m["by"] else None

    def check(result):
        got = {}
        for _, row in result.iterrows():
            key = ((row["site"],) if by else ()) + (str(row["system"]),)
            got[key] = (row.n_genuine, row.n_impostor, row.fa, row.fr, row.far, row.frr)
        assert got == expected

    outcome(
        lambda: pbs.error_rates(frame, threshold=m["threshold"], by=by), check,
        expect="named" if expected is None else "correct", family="frames",
    )
    pd.testing.assert_frame_equal(frame, before)  # never mutated


@SETTINGS
@given(models())
def test_eer_and_accessor_agree_or_refuse_alike(m):
    """The EER through the function and the accessor: the same number or the same error;
    the EER lies between the rates at the brute-force equal-error crossing."""
    frame, defects = _frame(m)
    before = frame.copy(deep=True)
    expected = _expected(m, defects)
    by = "site" if m["by"] else None
    seen = {}

    def check(result):
        seen["eer"] = result["eer"].to_numpy()
        assert ((seen["eer"] >= 0) & (seen["eer"] <= 0.5)).all()

    first = outcome(lambda: pbs.eer(frame, by=by, method="rocch"), check,
                    expect="named" if expected is None else "correct", family="frames")
    if isinstance(frame.columns, pd.MultiIndex) or frame.columns.has_duplicates:
        return  # the accessor needs a frame it can be attached to; the function refused
    second = outcome(lambda: frame.biosig.eer(by=by, method="rocch"), None, expect=first, family="frames")
    if first == second == "correct":
        np.testing.assert_array_equal(frame.biosig.eer(by=by, method="rocch")["eer"].to_numpy(), seen["eer"])
    pd.testing.assert_frame_equal(frame, before)


# -------------------------------------------------------------------- group keys
def test_group_key_of_many_by_columns_does_not_overflow():
    """10 by columns with 100 values each (100**10 * 2 > 2**63 combined codes): every
    group key is one that occurs in the data, and one-class groups are still refused."""
    rng = np.random.default_rng(0)
    n = 400
    cols = {f"k{i}": rng.integers(0, 100, n) for i in range(10)}
    base = pd.DataFrame(cols)
    # every row pattern twice: a genuine and an impostor trial per group
    frame = pd.concat([base, base], ignore_index=True).assign(
        system="s", trial=np.arange(2 * n), label=[1] * n + [0] * n,
        score=np.r_[np.ones(n), np.zeros(n)],
    )
    by = list(cols)

    def check(result):
        keys = set(map(tuple, result[by].to_numpy().tolist()))
        assert keys == set(map(tuple, base.to_numpy().tolist()))
        assert (result.eer == 0).all()

    outcome(lambda: pbs.eer(frame, by=by), check, expect="correct", family="frames")
    one_class = frame.iloc[:-1]  # the last group loses its impostor trial
    outcome(lambda: pbs.eer(one_class, by=by), expect="named", family="frames")


def test_scores_float64_cannot_hold_are_refused():
    frame = pd.DataFrame({
        "system": "s", "trial": range(4), "label": [1, 1, 0, 0],
        "score": np.array([2**60 + 2, 2**60 + 1, 2**60, 2**60 - 1], dtype=np.int64),
    })
    outcome(lambda: pbs.eer(frame), expect="named", family="frames")
    ok = frame.assign(score=frame.score - 2**60)  # small ints: exact, EER 0
    outcome(lambda: pbs.eer(ok), lambda r: r.eer.tolist() == [0.0], expect="correct",
            family="frames")
    for score in (frame.score.astype(np.complex128), frame.score.map(decimal.Decimal)):
        outcome(lambda s=score: pbs.eer(frame.assign(score=s)), expect="named", family="frames")


@pytest.mark.parametrize("columns", [
    ["system", "trial", "label", "score", "score"],
    pd.MultiIndex.from_tuples([("system", ""), ("trial", ""), ("label", ""), ("score", ""),
                               ("x", "")]),
])
def test_odd_column_labels_are_named_errors(columns):
    frame = pd.DataFrame([["s", 0, 1, 1.0, 0], ["s", 1, 0, 0.0, 0]], columns=columns)
    outcome(lambda: pbs.eer(frame), expect="named", family="frames")


@pytest.mark.parametrize("kwargs", [
    dict(c_miss=np.inf), dict(c_fa=np.nan), dict(p_target=np.inf), dict(c_miss="1"),
    dict(p_target=True),
])
def test_bad_costs_are_named_errors(kwargs):
    outcome(lambda: pbs.dcf(pbs.datasets.example_trials(), **kwargs), expect="named",
            family="frames")


def test_missing_trial_ids_never_pair():
    trials = pbs.datasets.example_trials()
    eval_ = trials[trials.split == "eval"].copy()
    a = eval_[eval_.system == "cnn"].copy()
    b = eval_[eval_.system == "gmm"].copy()
    a.loc[a.index[0], "trial"] = np.nan
    b.loc[b.index[1], "trial"] = np.nan
    both = pd.concat([a, b])
    outcome(lambda: pbs.compare(both, common_trials=True), expect="named", family="frames")


def test_pairwise_matrix_of_two_tests_concatenated_is_refused():
    trials = pbs.datasets.example_trials()
    one = pbs.compare(trials, on="dev", apply_to="eval", test="mcnemar", test_decision_rules=True)
    two = pbs.compare(trials, on="dev", apply_to="eval", test="hter_dependent")
    outcome(lambda: pbs.pairwise_matrix(pd.concat([one, two], ignore_index=True)),
            expect="named", family="frames")


# -------------------------------------------------------------------- the dask path
@settings(max_examples=12, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(models())
def test_dask_path_counts_or_refuses_like_the_pandas_path(m):
    dd = pytest.importorskip("dask.dataframe")
    pytest.importorskip("pandas_biosig.outofcore")
    frame, defects = _frame(m)
    if isinstance(frame.index, pd.MultiIndex) or isinstance(frame.columns, pd.MultiIndex) or (
        frame.columns.has_duplicates
    ):
        hypothesis.assume(False)  # dask cannot hold these frames at all
    before = frame.copy(deep=True)
    expected = _expected(m, defects)
    by = "site" if m["by"] else None
    ddf = dd.from_pandas(frame.reset_index(drop=True), npartitions=2)

    def check(result):
        got = {}
        for _, row in result.iterrows():
            key = ((row["site"],) if by else ()) + (str(row["system"]),)
            got[key] = (row.n_genuine, row.n_impostor, row.fa, row.fr, row.far, row.frr)
        assert got == expected

    outcome(lambda: ddf.biosig.error_rates(threshold=m["threshold"], by=by), check,
            expect="named" if expected is None else "correct", family="dask")
    pd.testing.assert_frame_equal(frame, before)


def test_combined_codes_order_rows_like_their_key_tuples():
    """combine_codes (shared by the pandas, dask and identification paths) never overflows
    and orders rows exactly as the tuples of their per-column codes."""
    from pandas_biosig._core.schema import combine_codes

    rng = np.random.default_rng(1)
    n, k, size = 500, 12, 97  # 97**12 > 2**63
    codes = [rng.integers(0, size, n) for _ in range(k)]
    combined = combine_codes(codes, [size] * k, n)
    tuples = list(zip(*codes, strict=True))
    for i, j in rng.integers(0, n, (2000, 2)):
        assert (combined[i] < combined[j]) == (tuples[i] < tuples[j])
        assert (combined[i] == combined[j]) == (tuples[i] == tuples[j])
    COUNTS[("frames", "correct")] += 1


# -------------------------------------------------------------------- search tables
@st.composite
def searches(draw):
    n = draw(st.integers(1, 4))
    rows = []
    for p in range(n):
        for r in range(n):
            rows.append(dict(probe=f"p{p}", reference=f"r{r}", mate=p == r,
                             score=draw(st.sampled_from(SCORES))))
    return dict(
        rows=rows,
        dtype=draw(st.sampled_from(["object", "category", "arrow", "int"])),
        score_dtype=draw(st.sampled_from(["float64", "Float64", "arrow"])),
        defect=draw(st.sampled_from([None] * 6 + ["na_probe", "dup_pair", "nan_score",
                                                  "dup_column"])),
    )


@SETTINGS
@given(searches())
def test_rank_one_recognition_rate_or_a_named_error(m):
    """Rank-1 recognition rate against a brute-force count: a mated probe is recognised
    at rank 1 iff its mate's score beats every other reference's (ties count against it)."""
    from pandas_biosig.identification import recognition_rate

    rows = m["rows"]
    frame = pd.DataFrame(rows).assign(system="s")
    if m["dtype"] == "category":
        frame["probe"] = frame.probe.astype("category")
        frame["reference"] = pd.Categorical(frame.reference, categories=["zz", *frame.reference.unique()])
    elif m["dtype"] == "arrow":
        frame["probe"] = frame.probe.astype(pd.ArrowDtype(pa.string()))
        frame["reference"] = frame.reference.astype(pd.ArrowDtype(pa.string()))
    elif m["dtype"] == "int":
        frame["probe"] = frame.probe.str[1:].astype(int)
        frame["reference"] = frame.reference.str[1:].astype(int)
    frame["score"] = frame.score.astype(
        pd.ArrowDtype(pa.float64()) if m["score_dtype"] == "arrow" else m["score_dtype"]
    )
    if m["defect"] == "na_probe":
        frame["probe"] = [None, *frame.probe.astype(object).iloc[1:]]
    elif m["defect"] == "dup_pair":
        frame = pd.concat([frame, frame.iloc[[0]]], ignore_index=True)
    elif m["defect"] == "nan_score":
        frame["score"] = np.where(frame.index == 0, np.nan, frame.score.astype(float))
    elif m["defect"] == "dup_column":
        frame = pd.concat([frame, frame[["score"]]], axis=1)
    before = frame.copy(deep=True)
    probes = sorted({r["probe"] for r in rows})
    hits = 0
    for p in probes:
        mine = [r for r in rows if r["probe"] == p]
        mate = [r["score"] for r in mine if r["mate"]][0]
        hits += all(r["score"] < mate for r in mine if not r["mate"])
    expected = hits / len(probes)

    outcome(lambda: recognition_rate(frame, rank=1),
            lambda r: r.recognition_rate.tolist() == [expected],
            expect="correct" if m["defect"] is None else "named", family="frames")
    pd.testing.assert_frame_equal(frame, before)


@SETTINGS
@given(models())
def test_roc_points_match_a_brute_force_count(m):
    """Every DET point of every system: FAR and FRR at its threshold, counted by brute
    force with the decision rule (accept iff score >= threshold), or a named error."""
    frame, defects = _frame(m)
    before = frame.copy(deep=True)
    expected = _expected(dict(m, by=False), defects)
    rows = m["rows"]
    if m["score_dtype"] in ("int64", "Int64"):
        rows = [dict(r, score=float(np.floor(r["score"]))) for r in rows]

    def check(ds):
        assert {str(s) for s in ds.system.values} == {k[-1] for k in expected}
        for name in ds.system.values:
            sel = [r for r in rows if r["system"] == str(name)]
            gen = np.array([r["score"] for r in sel if r["genuine"]])
            imp = np.array([r["score"] for r in sel if not r["genuine"]])
            point = ds.sel(system=name)
            t = point.threshold.values
            ok = ~np.isnan(t)
            far = (imp[None, :] >= t[ok, None]).mean(axis=1)
            frr = (gen[None, :] < t[ok, None]).mean(axis=1)
            np.testing.assert_array_equal(point.far.values[ok], far)
            np.testing.assert_array_equal(point.frr.values[ok], frr)

    outcome(lambda: pbs.det(frame), check,
            expect="named" if expected is None else "correct", family="frames")
    pd.testing.assert_frame_equal(frame, before)
