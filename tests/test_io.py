"""Score-file readers: every format round-trips a small file written here, and every
malformed-input message (the ``ERROR_*`` constants of ``pandas_biosig.io``) is checked."""

import gzip
import io
import tarfile

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig import io as pio
from pandas_biosig._core.schema import SchemaError
from pandas_biosig.io import (
    CLASS_TOKENS,
    ScoreFileError,
    read_bob,
    read_nist,
    read_score_lists,
    read_scores,
    read_table,
)
from pandas_biosig.io._errors import (
    ERROR_COLUMN_CLASH,
    ERROR_DUPLICATE_KEY,
    ERROR_DUPLICATE_SOURCE,
    ERROR_EMPTY_DIRECTORY,
    ERROR_EMPTY_FILE,
    ERROR_EXTRA_SCORE,
    ERROR_FIELDS,
    ERROR_FIELDS_OPTION,
    ERROR_LABEL,
    ERROR_LIST_CLASS,
    ERROR_LIST_PAIR,
    ERROR_MAPPING,
    ERROR_MEMBER,
    ERROR_MEMBER_NOT_TAR,
    ERROR_MIXED_SPLITS,
    ERROR_NO_FILE,
    ERROR_NO_MEMBERS,
    ERROR_NO_SCORE,
    ERROR_NO_SOURCES,
    ERROR_NOT_A_NUMBER,
    ERROR_NOT_TEXT,
    ERROR_SOURCES,
    ERROR_TRIALS_NEEDED,
    ERROR_TRIALS_SPLIT,
    ERROR_UNUSED,
)

FIELDS_4 = "claimed_id real_id test_label score"

# claimed_id, model_label, real_id, test_label, score: three genuine and three impostor trials
ROWS = [
    ("alice", "alice_m1", "alice", "p01", 2.5),
    ("alice", "alice_m1", "bob", "p02", -1.25),
    ("bob", "bob_m1", "bob", "p02", 1.5),
    ("bob", "bob_m1", "carol", "p03", 0.375),
    ("carol", "carol_m1", "carol", "p03", 3.0),
    ("carol", "carol_m1", "alice", "p01", -2.0),
]
GENUINE = [c == r for c, _, r, _, _ in ROWS]
SCORES = [s for *_, s in ROWS]
LABELS = ["genuine" if g else "impostor" for g in GENUINE]


def lines_4(rows=ROWS):
    return "".join(f"{c} {r} {t} {s!r}\n" for c, _, r, t, s in rows)


def lines_5(rows=ROWS):
    return "".join(f"{c}\t{m}\t{r}\t{t}\t{s!r}\n" for c, m, r, t, s in rows)


def lines_2(rows=ROWS, impostor="-1"):
    return "".join(f"{'1' if c == r else impostor} {s!r}\n" for c, _, r, _, s in rows)


def write_tar(path, members, mode="w"):
    with tarfile.open(path, mode) as archive:
        for name, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def message(template, **fields):
    return template.format(**fields)


# ----------------------------------------------------------------------------- bob
def test_bob_4_columns_round_trip(tmp_path):
    path = tmp_path / "cnn.txt"
    path.write_text(lines_4())
    got = read_bob(path)
    expected = pd.DataFrame(
        {
            "system": "cnn",
            "trial": [f"{c} {t}" for c, _, _, t, _ in ROWS],
            "label": LABELS,
            "score": SCORES,
            "claimed_id": [c for c, *_ in ROWS],
            "real_id": [r for _, _, r, _, _ in ROWS],
            "test_label": [t for *_, t, _ in ROWS],
            "subject": [r for _, _, r, _, _ in ROWS],
        }
    )
    pd.testing.assert_frame_equal(got, expected)


def test_bob_5_columns_round_trip(tmp_path):
    path = tmp_path / "isv.txt"
    path.write_text(lines_5())
    got = read_bob(path, split_name="dev")
    assert list(got.columns) == [
        "system", "trial", "label", "score", "split",
        "claimed_id", "model_label", "real_id", "test_label", "subject",
    ]
    assert got.trial.tolist() == [f"{m} {t}" for _, m, _, t, _ in ROWS]
    assert got.label.tolist() == LABELS
    assert got.score.tolist() == SCORES
    assert (got.split == "dev").all()


@pytest.mark.parametrize("impostor", ["-1", "0", "-1.0", "impostor"])
def test_bob_2_columns_round_trip(tmp_path, impostor):
    path = tmp_path / "scores-dev"
    path.write_text(lines_2(impostor=impostor))
    got = read_bob(path, system_name="cnn")
    expected = pd.DataFrame(
        {"system": "cnn", "trial": np.arange(len(ROWS)), "label": LABELS, "score": SCORES}
    )
    pd.testing.assert_frame_equal(got, expected)


def test_bob_fields_option(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(lines_4())
    assert len(read_bob(path, fields=4)) == len(ROWS)
    with pytest.raises(ScoreFileError) as info:
        read_bob(path, fields=5)
    assert str(info.value) == message(
        ERROR_FIELDS, source=path, line=1, expected=5,
        names="claimed_id model_label real_id test_label score", found=4,
    )
    with pytest.raises(ValueError, match="fields=3 is not one of"):
        read_bob(path, fields=3)
    assert ERROR_FIELDS_OPTION.startswith("fields=")


def test_bob_gzip(tmp_path):
    path = tmp_path / "cnn.txt.gz"
    path.write_bytes(gzip.compress(lines_4().encode()))
    got = read_bob(path)
    assert got.system.unique().tolist() == ["cnn"]
    assert got.score.tolist() == SCORES
    plain = tmp_path / "plain.txt"
    plain.write_text(lines_4())
    pd.testing.assert_frame_equal(got.drop(columns="system"), read_bob(plain).drop(columns="system"))


def test_bob_gzip_without_extension(tmp_path):
    """bob names its files scores-dev, scores-eval: compression is found by content."""
    path = tmp_path / "scores-dev"
    path.write_bytes(gzip.compress(lines_4().encode()))
    assert read_bob(path).score.tolist() == SCORES


@pytest.mark.parametrize(("name", "mode"), [("cnn.tar", "w"), ("cnn.tar.gz", "w:gz")])
def test_bob_tar_all_members(tmp_path, name, mode):
    path = write_tar(
        tmp_path / name,
        {"part1.txt": lines_4(ROWS[:3]), "part2.txt": lines_4(ROWS[3:]), "._part1.txt": "junk"},
        mode,
    )
    got = read_bob(path)
    assert got.system.unique().tolist() == ["cnn"]
    assert got.score.tolist() == SCORES
    assert got.label.tolist() == LABELS


def test_bob_tar_two_column_trials_continue_across_members(tmp_path):
    path = write_tar(tmp_path / "s.tar", {"a": lines_2(ROWS[:3]), "b": lines_2(ROWS[3:])})
    assert read_bob(path).trial.tolist() == list(range(len(ROWS)))


def test_bob_tar_one_member(tmp_path):
    path = write_tar(
        tmp_path / "scores.tar.gz",
        {"dir/scores-dev.txt": lines_4(), "dir/scores-eval.txt": "broken"},
        "w:gz",
    )
    by_base = read_bob(path, member="scores-dev.txt")
    by_full = read_bob(path, member="dir/scores-dev.txt")
    pd.testing.assert_frame_equal(by_base, by_full)
    assert by_base.score.tolist() == SCORES
    with pytest.raises(ScoreFileError) as info:
        read_bob(path, member="nope")
    assert str(info.value) == message(
        ERROR_MEMBER, path=path, member="nope",
        members=["dir/scores-dev.txt", "dir/scores-eval.txt"],
    )


def test_bob_tar_member_error_names_the_member(tmp_path):
    path = write_tar(tmp_path / "s.tar", {"good": lines_4(), "bad": "a a p 1\na b p\n"})
    with pytest.raises(ScoreFileError) as info:
        read_bob(path)
    assert str(info.value) == message(
        ERROR_FIELDS, source=f"{path} (member bad)", line=2, expected=4, names=FIELDS_4, found=3
    )


def test_bob_tar_errors(tmp_path):
    empty = write_tar(tmp_path / "empty.tar", {".hidden": "1 0.5\n"})
    with pytest.raises(ScoreFileError, match="no regular") as info:
        read_bob(empty)
    assert str(info.value) == message(ERROR_NO_MEMBERS, path=empty)
    plain = tmp_path / "plain.txt"
    plain.write_text(lines_4())
    with pytest.raises(ScoreFileError) as info:
        read_bob(plain, member="x")
    assert str(info.value) == message(ERROR_MEMBER_NOT_TAR, path=plain, member="x")


def test_bob_malformed_line_names_file_line_and_expectation(tmp_path):
    path = tmp_path / "scores-dev.txt"
    rows = lines_4().splitlines()
    rows.insert(4, "")  # blank lines are skipped but counted
    rows[5] = "bob carol 0.375"
    path.write_text("\n".join(rows) + "\n")
    with pytest.raises(ScoreFileError) as info:
        read_bob(path)
    assert str(info.value) == (
        f"{path}, line 6: expected 4 whitespace-separated fields "
        "(claimed_id real_id test_label score), found 3"
    )
    assert str(info.value) == message(
        ERROR_FIELDS, source=path, line=6, expected=4, names=FIELDS_4, found=3
    )


def test_bob_too_many_fields(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(lines_4() + "a a p9 1.0 extra\n")
    with pytest.raises(ScoreFileError) as info:
        read_bob(path)
    assert str(info.value) == message(
        ERROR_FIELDS, source=path, line=7, expected=4, names=FIELDS_4, found=5
    )


def test_bob_unknown_layout(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("a b 1\n")
    with pytest.raises(ScoreFileError) as info:
        read_bob(path)
    assert str(info.value) == message(
        ERROR_FIELDS, source=path, line=1, expected="2, 4 or 5",
        names=f"label score | {FIELDS_4} | claimed_id model_label real_id test_label score",
        found=3,
    )


def test_bob_non_numeric_score(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(lines_4().replace("0.375", "0,375"))
    with pytest.raises(ScoreFileError) as info:
        read_bob(path)
    assert str(info.value) == message(
        ERROR_NOT_A_NUMBER, source=path, line=4, field=4, name="score", value="0,375"
    )


def test_bob_bad_two_column_label(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("1 0.5\n-1 0.2\n2 0.3\n")
    with pytest.raises(ScoreFileError) as info:
        read_bob(path)
    assert str(info.value) == message(
        ERROR_LABEL, source=path, line=3, field=1,
        expected="1 for genuine, -1 or 0 for impostor", value="2",
    )


def test_empty_and_binary_files(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("\n  \n")
    with pytest.raises(ScoreFileError) as info:
        read_bob(empty)
    assert str(info.value) == message(ERROR_EMPTY_FILE, source=empty)
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00 1")
    with pytest.raises(ScoreFileError) as info:
        read_bob(binary)
    assert str(info.value) == message(ERROR_NOT_TEXT, source=binary, reason="invalid start byte")


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        read_bob(tmp_path / "nope.txt")
    assert str(info.value) == message(ERROR_NO_FILE, path=tmp_path / "nope.txt")


def test_slow_and_fast_parsers_agree(tmp_path, monkeypatch):
    """A form feed is white space to str.split but not to pandas: the slow reader is used,
    and gives what the fast one gives on the plain file."""
    plain, odd = tmp_path / "plain.txt", tmp_path / "odd.txt"
    plain.write_text(lines_4())
    odd.write_text(lines_4().replace(" ", " \x0c", 2) + "   \n")
    fast = read_bob(plain, system_name="x")
    pd.testing.assert_frame_equal(read_bob(odd, system_name="x"), fast)
    monkeypatch.setattr(pio._parse, "_fast_fields", lambda text, n: None)
    pd.testing.assert_frame_equal(read_bob(plain, system_name="x"), fast)


def test_nonfinite_scores_are_kept(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text(lines_4().replace("0.375", "nan"))
    got = read_bob(path)
    assert got.score.isna().sum() == 1
    assert np.isfinite(pbs.eer(got, nonfinite="reject").eer).all()


def test_schema_errors_come_from_the_core(tmp_path):
    path = tmp_path / "s.txt"
    path.write_text("1 0.5\n1 0.7\n")
    with pytest.raises(SchemaError, match="1 genuine|2 genuine and 0 impostor"):
        read_bob(path)
    dup = tmp_path / "dup.txt"
    dup.write_text(lines_4() + lines_4(ROWS[:1]))
    with pytest.raises(SchemaError, match="duplicate trial"):
        read_bob(dup)


def test_read_table_matches_the_core(tmp_path):
    """A table read from a bob file gives the same EER as the one it was written from."""
    trials = pbs.datasets.example_trials().query("system == 'cnn' and split == 'dev'")
    genuine = trials.label == "genuine"
    claimed = np.where(genuine, trials.subject, "other")
    text = "".join(
        f"{c} {r} t{t} {s!r}\n"
        for c, r, t, s in zip(claimed, trials.subject, trials.trial, trials.score, strict=True)
    )
    path = tmp_path / "cnn.txt"
    path.write_text(text)
    got = read_bob(path)
    assert pbs.eer(got).eer.item() == pbs.eer(trials.drop(columns="split")).eer.item()


# ----------------------------------------------------------------------------- NIST / Kaldi
@pytest.fixture
def nist_files(tmp_path):
    trials = tmp_path / "trials"
    trials.write_text(
        "".join(f"{c} {t} {'target' if g else 'nontarget'}\n" for (c, _, _, t, _), g in zip(ROWS, GENUINE, strict=True))
    )
    scores = tmp_path / "plda.txt"
    scores.write_text("".join(f"{c} {t} {s!r}\n" for c, _, _, t, s in reversed(ROWS)))
    return trials, scores


def test_nist_round_trip(nist_files):
    trials, scores = nist_files
    got = read_nist(trials, scores)
    expected = pd.DataFrame(
        {
            "system": "plda",
            "trial": [f"{c} {t}" for c, _, _, t, _ in ROWS],
            "label": LABELS,
            "score": SCORES,
            "enroll": [c for c, *_ in ROWS],
            "test": [t for *_, t, _ in ROWS],
        }
    )
    pd.testing.assert_frame_equal(got, expected)


def test_nist_gzip_scores(nist_files, tmp_path):
    trials, scores = nist_files
    packed = tmp_path / "plda.txt.gz"
    packed.write_bytes(gzip.compress(scores.read_bytes()))
    pd.testing.assert_frame_equal(read_nist(trials, packed), read_nist(trials, scores))


def test_nist_missing_score(nist_files):
    trials, scores = nist_files
    scores.write_text("".join(scores.read_text().splitlines(keepends=True)[1:]))  # drop the last trial
    with pytest.raises(ScoreFileError) as info:
        read_nist(trials, scores)
    assert str(info.value) == message(
        ERROR_NO_SCORE, scores=scores, enroll="carol", test="p01", trials=trials, line=6
    )


def test_nist_extra_score(nist_files):
    trials, scores = nist_files
    scores.write_text(scores.read_text() + "dave p09 1.0\n")
    with pytest.raises(ScoreFileError) as info:
        read_nist(trials, scores)
    assert str(info.value) == message(
        ERROR_EXTRA_SCORE, scores=scores, line=7, enroll="dave", test="p09", trials=trials
    )


def test_nist_duplicate_key(nist_files):
    trials, scores = nist_files
    scores.write_text(scores.read_text() + "alice p02 1.0\n")
    with pytest.raises(ScoreFileError) as info:
        read_nist(trials, scores)
    assert str(info.value) == message(
        ERROR_DUPLICATE_KEY, source=scores, line=7, enroll="alice", test="p02", first=5
    )


def test_nist_bad_label_and_score(nist_files):
    trials, scores = nist_files
    trials.write_text(trials.read_text().replace("nontarget", "nontgt", 1))
    with pytest.raises(ScoreFileError) as info:
        read_nist(trials, scores)
    assert str(info.value) == message(
        ERROR_LABEL, source=trials, line=2, field=3, expected="target or nontarget", value="nontgt"
    )
    trials.write_text(trials.read_text().replace("nontgt", "nontarget"))
    scores.write_text(scores.read_text().replace("-2.0", "minus2"))
    with pytest.raises(ScoreFileError) as info:
        read_nist(trials, scores)
    assert str(info.value) == message(
        ERROR_NOT_A_NUMBER, source=scores, line=1, field=3, name="score", value="minus2"
    )


# ----------------------------------------------------------------------------- tables
def tidy_table():
    return pd.DataFrame(
        {
            "model": ["cnn"] * 6,
            "pair": [f"{c} {t}" for c, _, _, t, _ in ROWS],
            "is_target": GENUINE,
            "llr": SCORES,
            "note": list("abcdef"),
        }
    )


MAPPING = {"model": "system", "pair": "trial", "is_target": "label", "llr": "score"}


@pytest.mark.parametrize("name", ["t.csv", "t.tsv", "t.csv.gz", "t.parquet"])
def test_read_table_round_trip(tmp_path, name):
    table = tidy_table()
    path = tmp_path / name
    if name.endswith(".parquet"):
        table.to_parquet(path)
    else:
        table.to_csv(path, sep="\t" if ".tsv" in name else ",", index=False)
    got = read_table(path, columns=MAPPING)
    expected = table.rename(columns=MAPPING)[["system", "trial", "label", "score", "note"]]
    pd.testing.assert_frame_equal(got, expected, check_dtype=False)


def test_read_table_system_split_and_trial_defaults(tmp_path):
    path = tmp_path / "gmm.csv"
    tidy_table().drop(columns=["model", "pair"]).to_csv(path, index=False)
    got = read_table(path, columns={"llr": "score", "is_target": "label"}, split_name="eval")
    assert list(got.columns) == ["system", "trial", "label", "score", "split", "note"]
    assert got.system.unique().tolist() == ["gmm"]
    assert got.trial.tolist() == list(range(6))
    named = read_table(path, columns={"llr": "score", "is_target": "label"}, system_name="B")
    assert named.system.unique().tolist() == ["B"]


def test_read_table_errors(tmp_path):
    path = tmp_path / "t.csv"
    tidy_table().to_csv(path, index=False)
    with pytest.raises(SchemaError) as info:
        read_table(path, columns={"LLR": "score"})
    assert str(info.value) == message(
        ERROR_MAPPING, path=path, missing=["LLR"], found=list(tidy_table().columns)
    )
    with pytest.raises(SchemaError) as info:
        read_table(path, columns=MAPPING, system_name="x")
    assert str(info.value) == message(ERROR_COLUMN_CLASH, path=path, column="system", value="x")
    with pytest.raises(SchemaError, match="missing column"):  # the core's own message
        read_table(path, columns={"model": "system"})


# ----------------------------------------------------------------------------- score lists
def test_score_lists_round_trip(tmp_path):
    genuine = tmp_path / "exp1_true.txt"
    impostor = tmp_path / "exp1_false.txt"
    genuine.write_text("".join(f"{s!r}\n" for s, g in zip(SCORES, GENUINE, strict=True) if g))
    impostor.write_text(
        "".join(f"id{i} {s!r}\n" for i, (s, g) in enumerate(zip(SCORES, GENUINE, strict=True)) if not g)
    )
    got = read_score_lists(genuine, impostor, system_name="cnn", split_name="dev")
    expected = pd.DataFrame(
        {
            "system": "cnn",
            "trial": np.arange(6),
            "label": ["genuine"] * 3 + ["impostor"] * 3,
            "score": [s for s, g in zip(SCORES, GENUINE, strict=True) if g]
            + [s for s, g in zip(SCORES, GENUINE, strict=True) if not g],
            "split": "dev",
        }
    )
    pd.testing.assert_frame_equal(got, expected)
    assert read_score_lists(genuine, impostor).system.unique().tolist() == ["exp1_true"]


def test_score_lists_errors(tmp_path):
    genuine, impostor = tmp_path / "g.txt", tmp_path / "i.txt"
    genuine.write_text("0.9\n\n0.8 x\n")
    impostor.write_text("0.1\n")
    with pytest.raises(ScoreFileError) as info:
        read_score_lists(genuine, impostor)
    assert str(info.value) == message(
        ERROR_NOT_A_NUMBER, source=genuine, line=3, field=2, name="score", value="x"
    )
    genuine.write_text("")
    with pytest.raises(ScoreFileError) as info:
        read_score_lists(genuine, impostor)
    assert str(info.value) == message(ERROR_EMPTY_FILE, source=genuine)


# ----------------------------------------------------------------------------- read_scores
def four_rows(shift):
    return lines_4([(c, m, r, t, s + shift) for c, m, r, t, s in ROWS])


def test_read_scores_directory_with_split_tokens(tmp_path):
    for i, name in enumerate(["cnn-dev.txt", "cnn-eval.txt", "gmm_dev.txt.gz", "dev.gmm2.txt"]):
        data = four_rows(i).encode()
        (tmp_path / name).write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
    (tmp_path / ".hidden").write_text("junk")
    got = read_scores(tmp_path)
    assert list(got.columns[:5]) == ["system", "trial", "label", "score", "split"]
    pairs = got[["system", "split"]].drop_duplicates().values.tolist()
    assert pairs == [["cnn", "dev"], ["cnn", "eval"], ["gmm2", "dev"], ["gmm", "dev"]]
    assert got.query("system == 'cnn' and split == 'eval'").score.tolist() == [s + 1 for s in SCORES]


def test_a_split_token_in_the_middle_of_a_name_is_the_split(tmp_path):
    """``scores-dev-isv``: the split token was read only first or last, so dev and eval
    made four unrelated systems (scores-dev-isv, scores-eval-isv...)."""
    for system in ("isv", "gmm"):
        for split in ("dev", "eval"):
            (tmp_path / f"scores-{split}-{system}.txt").write_text(four_rows(0.5))
    got = read_scores(tmp_path)
    pairs = sorted(map(tuple, got[["system", "split"]].drop_duplicates().values))
    assert pairs == [("gmm", "dev"), ("gmm", "eval"), ("isv", "dev"), ("isv", "eval")]
    (tmp_path / "cnn-test-aug.txt").write_text(four_rows(0))
    got = read_scores(tmp_path / "cnn-test-aug.txt")
    assert got[["system", "split"]].drop_duplicates().values.tolist() == [["cnn-aug", "eval"]]


def test_read_scores_list_without_splits(tmp_path):
    paths = []
    for name in ["A.txt", "B.scores"]:
        (tmp_path / name).write_text(lines_4())
        paths.append(tmp_path / name)
    got = read_scores(paths)
    assert "split" not in got.columns
    assert got.system.unique().tolist() == ["A", "B"]


def test_read_scores_dev_eval_and_bob_layout(tmp_path):
    for system in ("isv", "gmm"):
        (tmp_path / system).mkdir()
        for split in ("dev", "eval"):
            (tmp_path / system / f"scores-{split}").write_text(four_rows(0.5))
    got = read_scores(
        dev=[tmp_path / "isv" / "scores-dev", tmp_path / "gmm" / "scores-dev"],
        eval=[tmp_path / "isv" / "scores-eval", tmp_path / "gmm" / "scores-eval"],
    )
    pairs = got[["system", "split"]].drop_duplicates().values.tolist()
    assert pairs == [["isv", "dev"], ["gmm", "dev"], ["isv", "eval"], ["gmm", "eval"]]
    positional = read_scores([tmp_path / "isv", tmp_path / "gmm"])  # directories; split by name
    assert sorted(map(tuple, positional[["system", "split"]].drop_duplicates().values)) == sorted(
        map(tuple, pairs)
    )


def test_read_scores_mapping_names_systems(tmp_path):
    (tmp_path / "run1-dev.txt").write_text(lines_4())
    (tmp_path / "run1-eval.txt").write_text(lines_4())
    got = read_scores({"final": [tmp_path / "run1-dev.txt", tmp_path / "run1-eval.txt"]})
    assert got[["system", "split"]].drop_duplicates().values.tolist() == [
        ["final", "dev"], ["final", "eval"],
    ]


def test_read_scores_tables(tmp_path):
    table = tidy_table()
    table.to_csv(tmp_path / "cnn-dev.csv", index=False)
    table.assign(model="gmm").to_parquet(tmp_path / "gmm-dev.parquet")
    got = read_scores(tmp_path, columns=MAPPING)
    assert got[["system", "split"]].drop_duplicates().values.tolist() == [
        ["cnn", "dev"], ["gmm", "dev"],
    ]
    no_system = tmp_path / "other"
    no_system.mkdir()
    table.drop(columns="model").to_csv(no_system / "lbp_eval.csv", index=False)
    without_model = {k: v for k, v in MAPPING.items() if k != "model"}
    got = read_scores(no_system, format="table", columns=without_model)
    assert got[["system", "split"]].drop_duplicates().values.tolist() == [["lbp", "eval"]]


def test_read_scores_nist(tmp_path, nist_files):
    trials, scores = nist_files
    (tmp_path / "ivector.txt").write_text(scores.read_text())
    got = read_scores([scores, tmp_path / "ivector.txt"], format="nist", trials=trials)
    assert got.system.unique().tolist() == ["plda", "ivector"]
    assert len(got) == 2 * len(ROWS)
    by_split = read_scores(
        dev=[scores], eval=[scores], format="nist", trials={"dev": trials, "eval": trials}
    )
    assert by_split.split.unique().tolist() == ["dev", "eval"]
    # a directory holding the key too: the key is not read as a score file
    assert read_scores(tmp_path, format="nist", trials=trials).system.unique().tolist() == [
        "ivector", "plda",
    ]
    with pytest.raises(ValueError) as info:
        read_scores(dev=[scores], format="nist", trials={"eval": trials})
    assert str(info.value) == message(ERROR_TRIALS_SPLIT, split="dev", found=["eval"])


def test_read_scores_lists(tmp_path):
    for system in ("exp1", "exp2"):
        for split in ("dev", "eval"):
            (tmp_path / f"{system}_{split}_true.txt").write_text("0.9\n0.8\n")
            (tmp_path / f"{system}_{split}_false.txt").write_text("0.1\n0.85\n0.2\n")
    got = read_scores(tmp_path, format="lists")
    assert got.groupby(["system", "split", "label"]).size().tolist() == [2, 3] * 4
    (tmp_path / "exp3_dev_genuine.txt").write_text("0.5\n")
    with pytest.raises(ValueError) as info:
        read_scores(tmp_path, format="lists")
    assert str(info.value) == message(
        ERROR_LIST_PAIR, path=tmp_path / "exp3_dev_genuine.txt", missing="impostor",
        system="exp3", where=" in split 'dev'",
    )
    (tmp_path / "exp3_dev_genuine.txt").unlink()
    (tmp_path / "exp3_dev.txt").write_text("0.5\n")
    with pytest.raises(ValueError) as info:
        read_scores(tmp_path, format="lists")
    assert str(info.value) == message(
        ERROR_LIST_CLASS, path=tmp_path / "exp3_dev.txt", tokens=sorted(CLASS_TOKENS)
    )


def test_read_scores_argument_errors(tmp_path):
    a, b = tmp_path / "a-dev.txt", tmp_path / "b.txt"
    a.write_text(lines_4())
    b.write_text(lines_4())
    with pytest.raises(ValueError) as info:
        read_scores(a, dev=b)
    assert str(info.value) == ERROR_SOURCES
    with pytest.raises(ValueError) as info:
        read_scores()
    assert str(info.value) == ERROR_NO_SOURCES
    with pytest.raises(ValueError) as info:
        read_scores([a, b])
    assert str(info.value) == message(ERROR_MIXED_SPLITS, files=[str(b)])
    with pytest.raises(ValueError) as info:
        read_scores(dev=[a, tmp_path / "a-dev.txt"])
    assert str(info.value) == message(
        ERROR_DUPLICATE_SOURCE, first=a, second=a, system="a", where=" in split 'dev'"
    )
    with pytest.raises(ValueError) as info:
        read_scores(b, format="nist")
    assert str(info.value) == ERROR_TRIALS_NEEDED
    with pytest.raises(ValueError) as info:
        read_scores(b, trials=a)
    assert str(info.value) == message(ERROR_UNUSED, name="trials", formats="'nist'", format="auto")
    with pytest.raises(ValueError) as info:
        read_scores(b, format="bob", columns={"x": "score"})
    assert str(info.value) == message(
        ERROR_UNUSED, name="columns", formats="'table' or 'auto'", format="bob"
    )
    with pytest.raises(ValueError, match="format='xml' is not one of"):
        read_scores(b, format="xml")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(FileNotFoundError) as info:
        read_scores(empty)
    assert str(info.value) == message(ERROR_EMPTY_DIRECTORY, path=empty)
    with pytest.raises(FileNotFoundError):
        read_scores(tmp_path / "nope")


def test_read_scores_feeds_the_metrics(tmp_path):
    (tmp_path / "cnn-dev.txt").write_text(four_rows(0))
    (tmp_path / "cnn-eval.txt").write_text(four_rows(0.25))
    trials = read_scores(tmp_path)
    rates = pbs.error_rates(trials, threshold="eer", on="dev", apply_to="eval")
    assert rates.system.tolist() == ["cnn"]


# ----------------------------------------------------------------------------- line bounds
def test_a_line_of_a_million_fields_fails_fast_naming_file_and_line(tmp_path):
    from pandas_biosig.io import MAX_FIELDS_PER_LINE
    from pandas_biosig.io._errors import ERROR_LINE_FIELDS

    path = tmp_path / "pad-dev.csv"
    header = "claimed_id,test_label,is_bonafide,attack_type,score\n"
    path.write_text(header + "x0,x0_1,True,,0.9\n" + ",".join(["1"] * 10**6) + "\n")
    with pytest.raises(ScoreFileError) as exc:
        pbs.read_bob_pad(path)
    assert str(exc.value) == ERROR_LINE_FIELDS.format(
        source=path, line=3, found=10**6, limit=MAX_FIELDS_PER_LINE
    )
    lists = tmp_path / "a_genuine.txt"
    lists.write_text("0.5\n" + " ".join(["1"] * 2000) + "\n")
    with pytest.raises(ScoreFileError, match=r"a_genuine.txt, line 2: 2000 fields"):
        pbs.read_score_lists(lists, lists)


def test_a_field_longer_than_its_bound_is_a_named_error(tmp_path):
    from pandas_biosig.io import MAX_FIELD_BYTES

    path = tmp_path / "cnn.txt"
    path.write_text("a a p1 0.5\nb b " + "p" * (MAX_FIELD_BYTES + 1) + " 0.1\n")
    with pytest.raises(ScoreFileError, match=rf"cnn.txt, line 2: a field of {MAX_FIELD_BYTES + 1} bytes"):
        read_bob(path)


@pytest.mark.parametrize("reader", ["table", "pad", "vuln"])
def test_a_csv_line_with_one_field_too_many_names_file_and_line(tmp_path, reader):
    """pandas took an extra field on the first data line for an index (shifting every
    column) and raised its own ParserError for one further down."""
    from pandas_biosig.io._errors import ERROR_CSV_FIELDS

    header, row = {
        "table": ("system,trial,label,score", "cnn,{i},{label},0.{i}"),
        "pad": ("claimed_id,test_label,is_bonafide,attack_type,score", "x,x{i},{flag},,0.{i}"),
        "vuln": ("bio_ref_subject_id,probe_subject_id,probe_key,probe_attack_type,score",
                 "a,a,k{i},,0.{i}"),
    }[reader]
    rows = [row.format(i=i, label=("genuine", "impostor")[i % 2], flag=i % 2 == 0)
            for i in range(1, 5)]
    read = {"table": read_table, "pad": pbs.read_bob_pad, "vuln": pbs.read_bob_vuln}[reader]
    for line in (2, 4):  # the first data line, and one further down
        lines = [header, *rows]
        lines[line - 1] += ",7"
        path = tmp_path / f"scores-{line}.csv"
        path.write_text("\n".join(lines) + "\n")
        with pytest.raises(ScoreFileError) as exc:
            read(path)
        assert str(exc.value) == ERROR_CSV_FIELDS.format(
            source=path, line=line, expected=len(header.split(",")),
            found=len(header.split(",")) + 1,
        )
