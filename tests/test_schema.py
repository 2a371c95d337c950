"""Every bad input gives a SchemaError / ValueError whose message names what is wrong."""

import numpy as np
import pandas as pd
import pytest
from versions import nan_string_dtype

import pandas_biosig as pbs
from pandas_biosig._core.schema import (
    ERROR_DUPLICATE_TRIALS,
    ERROR_EMPTY,
    ERROR_MISSING_COLUMNS,
    ERROR_NONFINITE,
    ERROR_ONE_CLASS,
    ERROR_OPTION,
    ERROR_SCORE_DTYPE,
    ERROR_SPLIT_VALUE,
    ERROR_UNKNOWN_LABELS,
    LABEL_VOCABULARY,
    SchemaError,
    validate_trials,
)


def prefix(template):
    """The longest literal fragment of a message template, as a regex."""
    import re

    return re.escape(max(re.split(r"\{[^}]*\}", template), key=len))


def test_missing_columns_lists_missing_and_found(trials_tiny):
    with pytest.raises(SchemaError, match=r"missing column\(s\) \['score'\]") as exc:
        pbs.eer(trials_tiny.drop(columns="score"))
    assert "'system', 'trial', 'label'" in str(exc.value)


def test_renamed_columns_work(trials_tiny):
    t = trials_tiny.rename(columns={"score": "llr", "label": "is_target", "system": "sys"})
    out = pbs.eer(t, score="llr", label="is_target", system="sys")
    assert out.system.tolist() == ["toy"]


def test_named_split_column_must_exist(trials_tiny):
    with pytest.raises(SchemaError, match=prefix(ERROR_MISSING_COLUMNS)):
        pbs.eer(trials_tiny, split="fold")


def test_empty_table(trials_tiny):
    with pytest.raises(SchemaError, match=ERROR_EMPTY):
        pbs.eer(trials_tiny.iloc[:0])


def test_not_a_frame():
    with pytest.raises(TypeError, match="expected a pandas DataFrame"):
        pbs.eer(np.zeros((3, 4)))


def test_unknown_labels_named_with_example_rows(trials_tiny):
    t = trials_tiny.copy()
    t.loc[2, "label"] = "maybe"
    with pytest.raises(SchemaError, match=prefix(ERROR_UNKNOWN_LABELS)) as exc:
        pbs.eer(t)
    msg = str(exc.value)
    assert "'maybe'" in msg and "label" in msg and "maybe" in msg.split("Example rows:")[1]


def test_numeric_labels_outside_0_1(trials_tiny):
    t = trials_tiny.assign(label=(trials_tiny.label == "genuine").astype(int) * 2 - 1)
    with pytest.raises(SchemaError, match=r"\[-1\]"):
        pbs.eer(t)


def test_missing_labels(trials_tiny):
    t = trials_tiny.astype({"label": object})
    t.loc[0, "label"] = None
    with pytest.raises(SchemaError, match="missing label"):
        pbs.eer(t)


@pytest.mark.parametrize(
    "genuine,impostor",
    [("genuine", "impostor"), ("Target", "NonTarget"), ("client", "impostor"),
     ("mated", "non-mated"), ("positive", "negative"), (True, False), (1, 0), (1.0, 0.0),
     ("1", "0"), (" TRUE ", "false"), ("target", "non-target")],
)
def test_label_vocabulary(trials_tiny, genuine, impostor):
    t = trials_tiny.copy()
    t["label"] = [genuine if v == "genuine" else impostor for v in t.label]
    assert pbs.eer(t, method="rocch").eer.iloc[0] == pytest.approx(4 / 17)


def test_categorical_labels_and_systems(trials_tiny):
    t = trials_tiny.astype({"label": "category", "system": "category"})
    assert pbs.eer(t, method="rocch").eer.iloc[0] == pytest.approx(4 / 17)


def test_vocabulary_is_data():
    assert LABEL_VOCABULARY["nontarget"] is False and LABEL_VOCABULARY["mated"] is True


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nonfinite_scores_raise_by_default(trials_tiny, bad):
    t = trials_tiny.copy()
    t.loc[3, "score"] = bad
    with pytest.raises(SchemaError, match=prefix(ERROR_NONFINITE)) as exc:
        pbs.eer(t)
    assert "1 non-finite" in str(exc.value)


def test_nonfinite_policy_is_validated(trials_tiny):
    with pytest.raises(ValueError, match=prefix(ERROR_OPTION)):
        pbs.eer(trials_tiny, nonfinite="ignore")


def test_score_must_be_numeric(trials_tiny):
    with pytest.raises(SchemaError, match=prefix(ERROR_SCORE_DTYPE)):
        pbs.eer(trials_tiny.assign(score=trials_tiny.score.astype(str)))


def test_one_class_system_is_named(trials_tiny):
    other = trials_tiny[trials_tiny.label == "impostor"].assign(system="onlyimp")
    with pytest.raises(SchemaError, match=prefix(ERROR_ONE_CLASS)) as exc:
        pbs.eer(pd.concat([trials_tiny, other]))
    assert "system 'onlyimp' has 0 genuine and 5 impostor" in str(exc.value)


def test_one_class_after_dropping(trials_tiny):
    t = trials_tiny.copy()
    t.loc[t.label == "genuine", "score"] = np.nan
    with pytest.raises(SchemaError, match="0 genuine"):
        pbs.eer(t, nonfinite="drop")


def test_duplicate_trials(trials_tiny):
    t = pd.concat([trials_tiny, trials_tiny.iloc[[2]]])
    with pytest.raises(SchemaError, match=prefix(ERROR_DUPLICATE_TRIALS)) as exc:
        pbs.eer(t)
    assert "e.g. [2]" in str(exc.value)


def test_same_trial_in_two_systems_is_fine(trials_tiny):
    t = pd.concat([trials_tiny, trials_tiny.assign(system="b")])
    assert len(pbs.eer(t)) == 2


def test_unknown_split_value(trials_tiny):
    t = trials_tiny.assign(split="dev")
    with pytest.raises(SchemaError, match=prefix(ERROR_SPLIT_VALUE)) as exc:
        pbs.error_rates(t, threshold="eer", on="train")
    assert "['dev']" in str(exc.value)


def test_on_without_split_column(trials_tiny):
    with pytest.raises(SchemaError, match="needs a split column"):
        pbs.error_rates(trials_tiny, threshold="eer", on="dev")


def test_unknown_method_and_orientation(trials_tiny):
    with pytest.raises(ValueError, match=r"method='roc' is not one of"):
        pbs.eer(trials_tiny, method="roc")
    with pytest.raises(ValueError, match=r"orientation='higher' is not one of"):
        pbs.eer(trials_tiny, orientation="higher")
    with pytest.raises(ValueError, match=r"threshold='best' is not one of"):
        pbs.error_rates(trials_tiny, threshold="best")


def test_validate_keeps_input_order_of_systems(trials_tiny):
    t = pd.concat([trials_tiny.assign(system="zeta"), trials_tiny.assign(system="alpha")])
    tr = validate_trials(t)
    assert [g.system for g in tr.groups] == ["zeta", "alpha"]


LABEL_CASES = [
    ["genuine", "impostor", "impostor", "genuine"],
    ["target", "nontarget", "non-target", "1", "0", "client", "mated", "non_mated"],
    ["impostor", "impostor"],  # one value
    ["Genuine", " impostor ", "genuine", "IMPOSTOR"],  # case and white space
]


@pytest.mark.parametrize("labels", LABEL_CASES)
@pytest.mark.parametrize("dtype", ["str", "string[pyarrow]", "string[python]", "object"])
def test_string_labels_map_alike_in_every_storage(labels, dtype):
    from pandas_biosig._core.schema import genuine_from_labels

    expected = np.array([LABEL_VOCABULARY[v.strip().lower()] for v in labels])
    frame = pd.DataFrame({"label": pd.Series(labels, dtype=dtype)})
    assert np.array_equal(genuine_from_labels(frame, "label"), expected)


@pytest.mark.parametrize("dtype", ["str", "string[pyarrow]", "object"])
def test_unknown_and_missing_string_labels_in_every_storage(dtype):
    frame = pd.DataFrame({"system": "a", "trial": range(4), "score": [0.0, 1, 2, 3]})
    frame["label"] = pd.Series(["genuine", "impostor", "maybe", "genuine"], dtype=dtype)
    with pytest.raises(SchemaError, match="maybe"):
        validate_trials(frame)
    frame["label"] = pd.Series(["genuine", "impostor", None, "genuine"], dtype=dtype)
    with pytest.raises(SchemaError, match="missing label"):
        validate_trials(frame)


@pytest.mark.parametrize(
    "values, same",
    [
        (["sys"] * 5, True),
        (["sys", "sys", "syt"], False),
        (["sy", "ss", "ys"], False),  # same bytes overall, other cuts
        (["", "", ""], True),
        (["", "a"], False),
        (["ab", "ab", "a"], False),
        (["é", "é"], True),  # multi-byte characters
    ],
)
@pytest.mark.parametrize("large", [False, True])
def test_arrow_all_equal_reads_the_buffers_exactly(values, same, large):
    import pyarrow as pa

    from pandas_biosig._core.arrow_strings import all_equal as _arrow_all_equal

    kind = pa.large_string() if large else pa.string()
    whole = pa.chunked_array([pa.array(["x", *values], type=kind).slice(1)])  # an offset
    assert _arrow_all_equal(whole) is same
    split = pa.chunked_array([pa.array(values[:1], type=kind), pa.array(values[1:], type=kind)])
    assert _arrow_all_equal(split) is same
    assert _arrow_all_equal(whole, block=1) is same


def _arrow_str(chunks, *, large=True, sliced=True):
    """A str column of pyarrow chunks (each sliced, so its rows start at an offset)."""
    import pyarrow as pa

    kind = pa.large_string() if large else pa.string()
    parts = [
        pa.array(["x", *c], type=kind).slice(1) if sliced else pa.array(c, type=kind)
        for c in chunks
    ]
    return pd.Series(pa.chunked_array(parts, type=kind), dtype=nan_string_dtype())


def _labels_outcome(series):
    """``(genuine, None)`` or ``(None, error message)`` of validating ``series`` as labels."""
    from pandas_biosig._core.schema import genuine_from_labels

    frame = pd.DataFrame({"label": series})
    try:
        return genuine_from_labels(frame, "label"), None
    except SchemaError as exc:
        return None, str(exc)


@pytest.mark.parametrize(
    "chunks",
    [
        [["genuine", "impostor", "impostor"], ["genuine"]],
        [["impostor"] * 3, ["impostor", "genuine"]],  # the first chunk holds one spelling
        [["genuine"] * 4],  # one spelling only
        [["impostor", "imposter", "genuine"]],  # three spellings: the general path
        [["impostor", "imposter"]],  # two spellings of one class
        [["target", "nontarget"], ["nontarget"]],
        [["1", "0", "1"]],
        [["genuine", "Genuine"]],  # case: the general path maps it
        [["genuine", " impostor"]],  # white space
        [["genuine", "maybe", "impostor"]],  # an unknown label: the error
        [["maybe", "genuine"]],  # the first row unknown
        [["genuine", ""], ["impostor"]],  # an empty string
        [["genuine", "impostor", "géñuine"]],  # non-ASCII
        [["génuine", "impostor"]],
        [["genuine", None, "impostor"]],  # a missing label: the error
        [[None, "genuine"], ["impostor"]],
        [[], ["genuine", "impostor"], []],  # empty chunks
    ],
)
@pytest.mark.parametrize("large", [True, False])
@pytest.mark.parametrize("sliced", [True, False])
def test_arrow_label_fast_path_equals_the_general_path(chunks, large, sliced, monkeypatch):
    import pandas_biosig._core.schema as schema

    series = _arrow_str(chunks, large=large, sliced=sliced)
    fast = _labels_outcome(series)
    monkeypatch.setattr(schema, "spelled_labels", lambda arr, vocabulary: None)
    general = _labels_outcome(series)
    assert (fast[1] is None) == (general[1] is None)
    if general[1] is None:
        assert fast[0].dtype == bool and np.array_equal(fast[0], general[0])
        flat = [v for c in chunks for v in c]  # the same as an object column
        assert np.array_equal(fast[0], _labels_outcome(pd.Series(flat, dtype=object))[0])
    else:
        assert fast[1] == general[1]


def test_spelled_labels_declines_what_it_does_not_read():
    import pyarrow as pa

    from pandas_biosig._core.arrow_strings import spelled_labels

    def run(values):
        return spelled_labels(pa.chunked_array([pa.array(values, type=pa.string())]), LABEL_VOCABULARY)

    assert run(["genuine", "GENUINE"]) is None
    assert run(["genuine", "impostor", "target"]) is None
    assert run(["genuine", None]) is None
    assert run(["", "genuine"]) is None
    assert run(["genuine", "impostor", "genuine"]).tolist() == [True, False, True]
    assert run(["impostor", "genuine"]).tolist() == [False, True]


@pytest.mark.parametrize(
    "chunks",
    [
        [["sys", "sys"], ["sys"]],
        [["sys", "sys"], ["syt"]],
        [["sys", None], ["sys"]],
        [["a", "b", "a"]],
        [["", ""], [""]],
        [["é", "é"], ["é"]],
        [["ab"], ["a", "b"]],  # same bytes, other cuts
    ],
)
@pytest.mark.parametrize("large", [True, False])
def test_arrow_key_fast_path_equals_factorize(chunks, large):
    from pandas_biosig._core.schema import factorize_keys

    series = _arrow_str(chunks, large=large)
    codes, uniques = factorize_keys(series)
    want_codes, want_uniques = pd.factorize(series, sort=False, use_na_sentinel=False)
    assert np.array_equal(codes, want_codes)
    assert list(uniques) == list(want_uniques) or (
        pd.isna(list(uniques)).tolist() == pd.isna(list(want_uniques)).tolist()
    )




@pytest.mark.parametrize("dtype", ["int64", "Int64", "uint64"])
@pytest.mark.parametrize("offset", [1, 2, 3])
def test_integer_scores_just_beyond_2_53_are_refused_exactly(dtype, offset):
    """2**53 + 1 is 2**53 as a float: the guard compares the integers themselves, so
    ±(2**53 + 1) is refused like 2**53 + 2 (it gave EER 0.5 where the exact EER is 0)."""
    from pandas_biosig._core.schema import ERROR_SCORE_INEXACT

    big = 2**53 + offset
    for sign in ([1] if dtype == "uint64" else [1, -1]):
        scores = [big, 2**53, 0, 1] if sign == 1 else [0, 1, -big, -(2**53)]
        trials = pd.DataFrame({
            "system": "s", "trial": range(4),
            "label": ["genuine", "impostor", "impostor", "genuine"] if sign == 1
            else ["genuine", "genuine", "impostor", "impostor"],
            "score": pd.array(scores, dtype=dtype),
        })
        with pytest.raises(SchemaError, match=prefix(ERROR_SCORE_INEXACT)) as exc:
            pbs.eer(trials)
        assert str(sign * big) in str(exc.value)


def test_integer_scores_at_2_53_are_exact_and_kept():
    trials = pd.DataFrame({
        "system": "s", "trial": range(4), "label": ["genuine", "impostor"] * 2,
        "score": np.array([2**53, -(2**53), 2**53 - 1, 0], dtype=np.int64),
    })
    assert pbs.eer(trials).eer.item() == 0.0
