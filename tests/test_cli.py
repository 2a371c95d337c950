"""``biosig report``: the printed report, the report folder, bob's conventions, and errors."""

import re
import shutil
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig.cli import main
from pandas_biosig.cli._document import ERROR_MATPLOTLIB
from pandas_biosig.cli._folder import MANIFEST

pytest.importorskip("tabulate")
pytest.importorskip("matplotlib")

# A bob 4-column dev/eval pair (claimed_id real_id test_label score; genuine iff
# claimed_id == real_id), counted by hand:
#
# dev:  genuine 0.9 0.7 0.5, impostor 0.6 0.5 0.3 0.1. bob.measure's candidate thresholds
#       are the lowest score and the midpoints between distinct scores: 0.1 0.2 0.4 0.55
#       0.65 0.8 (and one above 0.9). Accepting iff score >= t, |FAR - FRR| is 1, .75, .5,
#       |1/4 - 1/3| = 1/12, 1/3, 2/3: the EER threshold is 0.55 (between 0.5 and 0.6),
#       the threshold EER (1/4 + 1/3)/2 = 7/24.
# eval: genuine 0.8 0.55 0.4, impostor 0.6 0.55 0.2 0.1. At the dev threshold 0.55 the
#       impostor *at* 0.55 is accepted (FA = 2: 0.55, 0.6; FAR = 1/2) and so is the genuine
#       at 0.55 (FR = 1: 0.4; FRR = 1/3): a-priori HTER = (1/2 + 1/3)/2 = 5/12. (Rejecting
#       on equality would give FA = 1, FR = 2, HTER = 11/24.) On its own, eval's EER
#       threshold is 0.475 (between 0.4 and 0.55): FAR 1/2, FRR 1/3, threshold EER 5/12.
BOB_DEV = "a a a1 0.9\nb b b1 0.7\nc c c1 0.5\na b b2 0.6\nb c c2 0.5\nc a a2 0.3\na c c3 0.1\n"
BOB_EVAL = "a a a4 0.8\nb b b4 0.55\nc c c4 0.4\na b b5 0.55\nb c c5 0.2\nc a a5 0.1\na c c6 0.6\n"


@pytest.fixture
def bob_files(tmp_path):
    dev, ev = tmp_path / "face-dev.txt", tmp_path / "face-eval.txt"
    dev.write_text(BOB_DEV)
    ev.write_text(BOB_EVAL)
    return dev, ev


def _run(capsys, *argv):
    status = main(["report", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


# ------------------------------------------------------------------ the bundled example
def test_no_file_prints_the_example_report(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = _run(capsys, "--n-resamples", "100")
    assert status == 0 and err == ""
    assert out.startswith(f"# pandas_biosig {pbs.__version__}: bundled example")
    for heading in ("## Per-system summary", "## EER with 95% bootstrap intervals",
                    "## A-priori error rates on eval (EER threshold chosen on dev)",
                    "## Pairwise significance"):
        assert heading in out
    # formatted by export.to_markdown: pipe tables, rates in %, best in bold
    assert "| System   | Split   |   # genuine |" in out
    assert "|   EER (ROCCH) (%) |" in out
    assert "| cnn_aug  | dev     |         240 |          960 |          **3.76** |" in out
    assert "| cnn      |     -0.2110 |" in out  # the dev EER threshold, applied to eval
    assert "HTER A-B (%)" in out and "Holm correction" in out
    assert "## Figures" not in out
    assert list(tmp_path.iterdir()) == []  # printing writes nothing


def test_example_report_folder(capsys, tmp_path):
    out_dir = tmp_path / "report"
    status, out, err = _run(capsys, "--out", out_dir, "--latex", "--pdf")
    assert status == 0, err
    names = {p.name for p in out_dir.iterdir()}
    tables = {"summary", "eer_bootstrap", "apriori", "compare"}
    assert names == (
        {"report.md", "det.png", "det.pdf", "epc.png", "epc.pdf", MANIFEST}
        | {f"{t}.csv" for t in tables} | {f"{t}.tex" for t in tables}
    )
    assert (out_dir / "det.png").read_bytes()[:4] == b"\x89PNG"
    assert (out_dir / "epc.pdf").read_bytes()[:4] == b"%PDF"
    text = (out_dir / "report.md").read_text()
    assert "![DET curves; the dot on each curve and the legend give its EER (threshold)" in text
    assert ("![EPC with 95% bootstrap bands (subjects resampled); shaded where cnn and cnn_aug "
            "differ](epc.png)") in text
    assert out.strip() == f"biosig: wrote {out_dir / 'report.md'} and 12 more file(s) in {out_dir}"
    # the CSV tables hold numbers, the same as the library's
    apriori = pd.read_csv(out_dir / "apriori.csv")
    expected = pbs.error_rates(pbs.datasets.example_trials(), on="dev", apply_to="eval")
    pd.testing.assert_series_equal(apriori.estimate, expected.hter, check_names=False)
    compare = pd.read_csv(out_dir / "compare.csv")
    assert len(compare) == 6 and set(compare.adjust) == {"holm"}
    assert r"\begin{tabular}" in (out_dir / "apriori.tex").read_text()
    assert r"HTER (\%)" in (out_dir / "apriori.tex").read_text()


def test_without_png_options_no_pdf_or_tex(capsys, tmp_path):
    status, _, _ = _run(capsys, "--out", tmp_path, "--n-resamples", "0")
    assert status == 0
    names = {p.name for p in tmp_path.iterdir()}
    assert "det.png" in names and "epc.png" in names
    assert not {n for n in names if n.endswith((".pdf", ".tex"))}
    assert "eer_bootstrap.csv" not in names  # --n-resamples 0 skips the bootstrap
    assert "![EPC (no bootstrap bands)](epc.png)" in (tmp_path / "report.md").read_text()


# ------------------------------------------------------------------ bob's conventions
def test_bob_dev_eval_follow_bob_measure(capsys, tmp_path, bob_files):
    dev, ev = bob_files
    out_dir = tmp_path / "out"
    status, _, err = _run(capsys, "--dev", dev, "--eval", ev, "--out", out_dir)
    assert status == 0, err
    summary = pd.read_csv(out_dir / "summary.csv").set_index("split")
    assert summary.loc["dev", "threshold"] == pytest.approx(0.55)
    assert summary.loc["dev", "eer_threshold"] == pytest.approx(7 / 24)
    assert summary.loc["eval", "threshold"] == pytest.approx(0.475)
    assert summary.loc["eval", "eer_threshold"] == pytest.approx(5 / 12)
    (row,) = pd.read_csv(out_dir / "apriori.csv").itertuples()
    assert (row.system, row.threshold_split, row.criterion) == ("face", "dev", "eer")
    assert row.threshold == pytest.approx(0.55)
    assert (row.fa, row.fr, row.n_impostor, row.n_genuine) == (2, 1, 4, 3)
    assert row.estimate == pytest.approx(5 / 12)  # the a-priori HTER on eval
    text = (out_dir / "report.md").read_text()
    assert "| face     |      0.5500 |           3 |            4 |    2 |    1 |" in text
    assert "41.67 [" in text
    assert "Pairwise significance" not in text  # one system: nothing to compare
    assert (out_dir / "epc.png").exists()


def test_bob_files_of_two_systems_are_compared(capsys, tmp_path, bob_files):
    other = BOB_DEV.replace("0.9", "0.95").replace("0.3\n", "0.65\n")
    (tmp_path / "iris-dev.txt").write_text(other)
    (tmp_path / "iris-eval.txt").write_text(BOB_EVAL.replace("0.2\n", "0.45\n"))
    status, out, err = _run(capsys, tmp_path, "--n-resamples", "50")
    assert status == 0, err
    assert "| face       | iris       | eval    |   7 |" in out
    assert "paired bootstrap test" in out  # bob files name subjects: the subject bootstrap


@pytest.mark.parametrize(("resample", "drawn"), [
    ("auto", "subjects resampled"), ("label", "trials within each class resampled"),
])
def test_the_report_says_what_the_bootstrap_test_and_the_interval_did(capsys, tmp_path,
                                                                      resample, drawn):
    status, _, err = _run(capsys, "--n-resamples", "20", "--resample", resample, "--out",
                          tmp_path)
    assert status == 0, err
    out = (tmp_path / "report.md").read_text()
    assert f"(paired bootstrap of the difference in HTER at those thresholds, {drawn}" in out
    # --resample reaches the EPC's bands too
    assert f"![EPC with 95% bootstrap bands ({drawn}); shaded where" in out
    assert "`metric`" not in out
    # the example has subjects: the a-priori interval is on the effective numbers of
    # trials, unless --resample says the trials are independent
    said = "(MOVER), each on its class's effective number of trials given the subjects" in out
    assert said == (resample == "auto")
    # with subjects resampled, the HTER difference is studentized (t, Satterthwaite df)
    assert ("resampled; studentized: the difference over its bootstrap standard error" in out) \
        == (resample == "auto")


# ------------------------------------------------------------------ tables and formats
@pytest.fixture
def example_csv(tmp_path):
    path = tmp_path / "trials.csv"
    pbs.datasets.example_trials().to_csv(path, index=False)
    return path


def test_tidy_csv_with_a_split_column(capsys, example_csv):
    status, out, _ = _run(capsys, example_csv, "--n-resamples", "0")
    assert status == 0
    assert "| cnn      |     -0.2110 |" in out
    assert "EER with" not in out


def test_parquet_and_a_renamed_split_column(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    path = tmp_path / "trials.parquet"
    pbs.datasets.example_trials().rename(columns={"split": "set", "score": "llr"}).to_parquet(path)
    status, out, err = _run(capsys, path, "--column", "llr=score", "--split-column", "set",
                            "--n-resamples", "0")
    assert status == 0, err
    assert "| cnn      |     -0.2110 |" in out


def test_a_table_without_splits_is_compared_a_posteriori(capsys, tmp_path):
    path = tmp_path / "one_split.csv"  # no dev/eval token in the name
    pbs.datasets.example_trials().query("split == 'eval'").drop(columns="split").to_csv(
        path, index=False
    )
    status, out, _ = _run(capsys, path, "--n-resamples", "0")
    assert status == 0
    assert "A-priori" not in out
    assert "each split's own EER thresholds (a posteriori: optimistic)" in out
    assert "| System   |   # genuine |" in out  # no split column shown
    # McNemar at per-system criterion thresholds is refused, and the report says so
    status, out, _ = _run(capsys, path, "--n-resamples", "0", "--test", "mcnemar")
    assert status == 0
    assert "Not computed: --test mcnemar tests" in out


def test_other_split_names_need_on_and_apply_to(capsys, tmp_path):
    path = tmp_path / "trials.csv"
    trials = pbs.datasets.example_trials()
    trials.assign(split=trials.split.map({"dev": "train", "eval": "test"})).to_csv(path)
    status, out, _ = _run(capsys, path, "--n-resamples", "0")
    assert status == 0
    assert "Not computed: the split column 'split' has the values ['train', 'test']" in out
    status, out, _ = _run(capsys, path, "--n-resamples", "0", "--on", "train",
                          "--apply-to", "test")
    assert "## A-priori error rates on test (EER threshold chosen on train)" in out


def test_nist_files_with_a_trials_key(capsys, tmp_path):
    key = tmp_path / "trials"
    key.write_text("s1 u1 target\ns1 u2 nontarget\ns2 u2 target\ns2 u1 nontarget\n")
    (tmp_path / "plda.txt").write_text("s1 u1 2.0\ns1 u2 -1.0\ns2 u2 0.5\ns2 u1 0.7\n")
    status, out, err = _run(capsys, tmp_path / "plda.txt", "--format", "nist", "--trials", key,
                            "--n-resamples", "0")
    assert status == 0, err
    assert "| plda     |" in out


# ------------------------------------------------------------------ errors and progress
def test_a_malformed_score_file_is_one_line_naming_file_and_line(capsys, tmp_path):
    bad = tmp_path / "cnn-dev.txt"
    bad.write_text("a a p1 2.5\na b 0.4\n")
    status, out, err = _run(capsys, "--dev", bad)
    assert status == 1 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("biosig: error: ")
    assert f"{bad}, line 2: expected 4 whitespace-separated fields" in err


@pytest.mark.parametrize(
    "make,expected",
    [
        (lambda p: None, "no such file or directory"),
        (lambda p: p.write_text("system,trial,label,score\ncnn,1,maybe,0.3\ncnn,2,genuine,1\n"),
         "holds label value(s) ['maybe'] outside the known vocabulary"),
        (lambda p: p.write_text("system,trial,label\ncnn,1,genuine\n"), "missing column(s)"),
    ],
)
def test_bad_inputs_exit_non_zero_with_one_line(capsys, tmp_path, make, expected):
    path = tmp_path / "scores.csv"
    make(path)
    status, out, err = _run(capsys, path)
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and expected in err
    assert "Example rows" not in err


@pytest.mark.parametrize(
    "argv,expected",
    [
        (["--column", "llr"], "expected OLD=NEW"),
        (["--adjust", "tukey"], "--adjust 'tukey' is not one of"),
        (["--latex"], "--latex needs --out DIR: without it the report is printed"),
        (["--latex", "--pdf"], "--latex and --pdf need --out DIR"),
    ],
)
def test_bad_options(capsys, argv, expected):
    status, _, err = _run(capsys, *argv)
    assert status == 1 and expected in err


def test_figures_without_matplotlib_say_what_to_install(capsys, tmp_path, monkeypatch):
    for module in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.setitem(sys.modules, module, None)
    status, out, err = _run(capsys, "--out", tmp_path, "--n-resamples", "0")
    assert status == 1
    assert err == f"biosig: error: {ERROR_MATPLOTLIB}\n"


def test_usage_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["report", "--format", "excel"])
    assert info.value.code == 2


def test_progress_only_on_a_terminal(capsys, monkeypatch):
    status, _, err = _run(capsys, "--n-resamples", "20")
    assert status == 0 and err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    status, _, err = _run(capsys, "--n-resamples", "20")
    assert status == 0
    # one tqdm bar over the report's steps: count, rate and the step under way
    assert "biosig report:" in err and "4/4" in err
    assert "pairwise tests" in err and "step/s" in err
    status, _, err = _run(capsys, "--n-resamples", "20", "--no-progress")
    assert status == 0 and err == ""


# ------------------------------------------------------------------ the installed script
def test_installed_entry_point(tmp_path):
    exe = shutil.which("biosig") or str(sys.executable).replace("python", "biosig")
    if not shutil.which(exe):
        pytest.skip("the biosig console script is not installed")
    result = subprocess.run(
        [exe, "report", "--n-resamples", "50"], capture_output=True, text=True, cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "## Per-system summary" in result.stdout
    bad = subprocess.run(
        [exe, "report", str(tmp_path / "missing.txt")], capture_output=True, text=True
    )
    assert bad.returncode == 1
    assert bad.stderr.strip().endswith("missing.txt: no such file or directory")


# ------------------------------------------------------------------ evaluation folders
# bob.measure's own test data are named dev-1.txt, test-1.txt, dev-2.txt, test-2.txt
# (2-column files: label score). Two small systems in that layout: trial i of every file
# has the same label, so the systems score the same trials.
BOB2_DEV = "1 0.9\n1 0.7\n1 0.5\n-1 0.6\n-1 0.5\n-1 0.3\n-1 0.1\n"
BOB2_EVAL = "1 0.8\n1 0.55\n1 0.4\n-1 0.55\n-1 0.2\n-1 0.1\n-1 0.6\n"


@pytest.fixture
def bob_measure_files(tmp_path):
    paths = []
    for i, shift in ((1, 0.0), (2, 0.05)):
        for split, text in (("dev", BOB2_DEV), ("test", BOB2_EVAL)):
            lines = [f"{lab} {float(s) + shift:.2f}" for lab, s in
                     (line.split() for line in text.splitlines())]
            path = tmp_path / f"{split}-{i}.txt"
            path.write_text("\n".join(lines) + "\n")
            paths.append(path)
    # in bob.measure's order: dev-1 test-1 dev-2 test-2
    return [paths[0], paths[1], paths[2], paths[3]]


def _systems_and_splits(out_dir):
    s = pd.read_csv(out_dir / "summary.csv")
    return sorted(map(tuple, s[["system", "split"]].astype(str).to_numpy()))


@pytest.mark.parametrize(
    "how",
    ["positional", "pairs", "dev-eval-options"],
)
def test_bob_measure_dev_test_files_give_two_paired_systems(capsys, tmp_path,
                                                            bob_measure_files, how):
    d1, t1, d2, t2 = bob_measure_files
    argv = {
        "positional": [d1, t1, d2, t2],
        "pairs": ["-e", d1, t1, d2, t2],
        "dev-eval-options": ["--dev", d1, d2, "--eval", t1, t2],
    }[how]
    out_dir = tmp_path / "out"
    status, _, err = _run(capsys, *argv, "--n-resamples", "0", "--out", out_dir)
    assert status == 0, err
    assert _systems_and_splits(out_dir) == [("1", "dev"), ("1", "eval"),
                                            ("2", "dev"), ("2", "eval")]
    apriori = pd.read_csv(out_dir / "apriori.csv")
    assert list(apriori.system.astype(str)) == ["1", "2"]
    # system 1 is BOB_DEV/BOB_EVAL of the hand count above: threshold 0.55, HTER 5/12
    assert apriori.threshold[0] == pytest.approx(0.55)
    assert apriori.estimate[0] == pytest.approx(5 / 12)
    cmp = pd.read_csv(out_dir / "compare.csv")
    assert (cmp.system_a.astype(str)[0], cmp.system_b.astype(str)[0]) == ("1", "2")
    assert cmp.test[0] == "hter_dependent"  # same trials: the paired test


def test_split_tokens_are_case_insensitive_and_test_is_eval(capsys, tmp_path):
    (tmp_path / "cnn_DEV.txt").write_text(BOB2_DEV)
    (tmp_path / "cnn_Test.txt").write_text(BOB2_EVAL)
    (tmp_path / "cnn_train.txt").write_text(BOB2_DEV)
    trials = pbs.read_scores(tmp_path)
    assert sorted(trials.split.unique()) == ["dev", "eval", "train"]
    assert set(trials.system) == {"cnn"}


def test_names_that_do_not_pair_are_paired_by_position(capsys, tmp_path):
    files = {}
    for name, text in (("a_d", BOB2_DEV), ("b_d", BOB2_DEV), ("a_e", BOB2_EVAL),
                       ("b_e", BOB2_EVAL)):
        files[name] = tmp_path / f"{name}.txt"
        files[name].write_text(text)
    out_dir = tmp_path / "out"
    status, _, err = _run(capsys, "--dev", files["a_d"], files["b_d"], "--eval", files["a_e"],
                          files["b_e"], "-l", "A", "-l", "B", "--n-resamples", "0", "--out", out_dir)
    assert status == 0, err
    assert _systems_and_splits(out_dir) == [("A", "dev"), ("A", "eval"), ("B", "dev"),
                                            ("B", "eval")]


def test_names_name_the_systems_in_order(capsys, tmp_path, bob_measure_files):
    status, out, err = _run(capsys, "--name", "ISV,GMM", *bob_measure_files,
                            "--n-resamples", "0")
    assert status == 0, err
    assert "| ISV        | GMM        | eval    |" in out
    status, _, err = _run(capsys, *bob_measure_files, "--name", "ISV", "--n-resamples", "0")
    assert status == 1
    assert "--name gives 1 name(s) (ISV) for 2 system(s) (1, 2)" in err


def test_pairs_in_the_wrong_order_are_refused(capsys, bob_measure_files):
    from pandas_biosig.cli._inputs import ERROR_PAIRS_ODD

    d1, t1, d2, t2 = bob_measure_files
    status, _, err = _run(capsys, "-e", t1, d1)
    assert status == 1 and "is in a dev position" in err and "its name says eval" in err
    status, _, err = _run(capsys, "-e", d1, t1, d2)
    assert status == 1 and ERROR_PAIRS_ODD.format(n=3) in err


def test_different_trial_lists_get_the_independent_test(capsys, tmp_path):
    (tmp_path / "dev-1.txt").write_text(BOB2_DEV)
    (tmp_path / "eval-1.txt").write_text(BOB2_EVAL)
    # system 2 scored other trials: its labels are in another order
    (tmp_path / "dev-2.txt").write_text("-1 0.1\n" + BOB2_DEV)
    (tmp_path / "eval-2.txt").write_text("-1 0.15\n1 0.3\n" + BOB2_EVAL)
    out_dir = tmp_path / "out"
    status, _, err = _run(capsys, tmp_path, "--n-resamples", "0", "--out", out_dir)
    assert status == 0, err
    (row,) = pd.read_csv(out_dir / "compare.csv").itertuples()
    assert row.test == "hter_independent"
    rates = pd.read_csv(out_dir / "apriori.csv").set_index("system")
    a, b = rates.loc[1], rates.loc[2]
    var = sum(r.far * (1 - r.far) / (4 * r.n_impostor) + r.frr * (1 - r.frr) / (4 * r.n_genuine)
              for r in (a, b))
    assert row.estimate == pytest.approx(a.estimate - b.estimate)
    assert row.statistic == pytest.approx((a.estimate - b.estimate) / var**0.5)
    text = (out_dir / "report.md").read_text()
    assert "because the systems were not scored on the same trials" in text
    assert "--common-trials" in text


def test_per_split_trials_keys(capsys, tmp_path):
    kd, ke = tmp_path / "trials_dev", tmp_path / "trials_eval"
    kd.write_text("s1 u1 target\ns1 u2 nontarget\ns2 u2 target\ns2 u1 nontarget\n")
    ke.write_text("s3 u3 target\ns3 u4 nontarget\ns4 u4 target\ns4 u3 nontarget\n")
    (tmp_path / "plda-dev.txt").write_text("s1 u1 2.0\ns1 u2 -1.0\ns2 u2 0.5\ns2 u1 0.7\n")
    (tmp_path / "plda-eval.txt").write_text("s3 u3 1.0\ns3 u4 -1.0\ns4 u4 0.2\ns4 u3 0.4\n")
    status, out, err = _run(capsys, tmp_path / "plda-dev.txt", tmp_path / "plda-eval.txt",
                            "--trials-dev", kd, "--trials-eval", ke, "--n-resamples", "0")
    assert status == 0, err
    assert "| plda     | dev     |" in out and "| plda     | eval    |" in out
    # the keys given the old way end up among the score files: said so, in flags
    status, _, err = _run(capsys, "--trials", kd, ke, tmp_path / "plda-dev.txt")
    assert status == 1
    assert "is a trials key (its third field is 'target'), not a score file" in err
    assert "--trials-dev and --trials-eval" in err


@pytest.mark.parametrize(
    "message,expected",
    [
        ("pass score files positionally or with dev= / eval=, not both",
         "pass score files positionally or with --dev / --eval, not both"),
        ("Pass nonfinite='drop' to remove them or nonfinite='reject' to count them",
         "Pass --nonfinite drop to remove them or --nonfinite reject to count them"),
        ("(unless common_trials=True)", "(unless --common-trials)"),
        ("on='train': column 'split' has only", "--on train: column 'split' has only"),
        ("pass split='<column name>'", "pass --split-column NAME"),
        ("format='nist' needs trials=: the trials file", "--format nist needs --trials: the "
         "trials file"),
    ],
)
def test_library_messages_are_phrased_in_flags(message, expected):
    from pandas_biosig.cli._inputs import cli_message

    assert cli_message(message) == expected


def test_nonfinite_error_names_the_flag(capsys, tmp_path):
    (tmp_path / "dev-1.txt").write_text(BOB2_DEV + "1 nan\n")
    status, _, err = _run(capsys, tmp_path / "dev-1.txt")
    assert status == 1
    assert "--nonfinite drop" in err and "--nonfinite reject" in err
    assert "nonfinite=" not in err


def test_a_table_with_other_column_names_is_told_about_column(capsys, tmp_path):
    path = tmp_path / "scores-dev.csv"
    path.write_text("probe,is_bonafide,score\np1,True,0.9\np2,False,0.1\n")
    status, _, err = _run(capsys, path)
    assert status == 1 and "missing column(s) ['label']" in err
    assert "--column OLD=NEW" in err
    status, out, err = _run(capsys, path, "--column", "is_bonafide=label", "--n-resamples", "0")
    assert status == 0, err


def test_no_library_message_reaches_the_command_line_in_python_keywords():
    import string

    from pandas_biosig import io
    from pandas_biosig._core import schema as _schema
    from pandas_biosig.cli._inputs import CLI_FLAGS, cli_message
    from pandas_biosig.verification import (
        _intervals as significance,
    )
    from pandas_biosig.verification import (
        _metrics as metrics,
    )
    from pandas_biosig.verification import (
        _resampling as resampling,
    )

    class Any(str):
        def __format__(self, spec):
            return "X"

    keyword = re.compile(r"(?<![\w-])(" + "|".join(CLI_FLAGS) + r")=")
    for module in (_schema, io, metrics, resampling, significance):
        for name in dir(module) + list(vars(module)):
            value = getattr(module, name, None)
            if not (name.startswith("ERROR_") and isinstance(value, str)):
                continue
            fields = {f for _, f, _, _ in string.Formatter().parse(value) if f}
            text = cli_message(value.format(**{f: Any("X") for f in fields}))
            # a NIST trial's fields (enroll='X', test='X') are data, not keywords
            text = text.replace("enroll='X', test='X'", "")
            assert not keyword.search(text), (module.__name__, name, text)


def test_a_nist_trial_field_named_test_is_not_the_test_flag(capsys, tmp_path):
    """The readers name a NIST trial (enroll='b101t9u.txt', test='b150l3u.txt'); the
    rewriter made that ``--test b150l3u.txt``, a flag that has nothing to do with it."""
    key = tmp_path / "trials"
    key.write_text("b101t9u.txt b150l3u.txt target\nb101t9u.txt b151l3u.txt nontarget\n")
    scores = tmp_path / "plda.txt"
    scores.write_text("b101t9u.txt b151l3u.txt -1.5\n")
    status, _, err = _run(capsys, "--trials", key, scores)
    assert status == 1
    assert "no score for the trial (enroll='b101t9u.txt', test='b150l3u.txt')" in err
    assert "--test" not in err
    from pandas_biosig.cli._inputs import cli_message

    assert cli_message("test='mcnemar' needs paired trials") == "--test mcnemar needs paired trials"


def test_an_empty_system_name_is_refused_not_left_out_of_the_pairwise_tests(capsys, tmp_path):
    """A CSV whose system field is empty on some rows read as one system fewer, and the
    report printed no pairwise section at all."""
    trials = pbs.datasets.example_trials().query("system in ['cnn', 'gmm']")
    path = tmp_path / "t.csv"
    trials.assign(system=trials.system.replace({"cnn": ""})).to_csv(path, index=False)
    status, out, err = _run(capsys, path, "--n-resamples", "0")
    assert status == 1 and out == ""
    assert "2400 row(s) have an empty system name" in err
    trials.assign(system=trials.system.replace({"cnn": " "})).to_csv(path, index=False)
    status, _, err = _run(capsys, path, "--n-resamples", "0")
    assert status == 1 and "empty system name" in err


def test_split_tokens_in_the_middle_of_names_pair_dev_and_eval(capsys, tmp_path, bob_files):
    dev, ev = bob_files
    for system in ("isv", "gmm"):
        shutil.copy(dev, tmp_path / f"scores-dev-{system}")
        shutil.copy(ev, tmp_path / f"scores-eval-{system}")
    files = sorted(tmp_path.glob("scores-*"))
    status, out, err = _run(capsys, *files, "--n-resamples", "0")
    assert status == 0, err
    assert "2 system(s), splits dev, eval" in out and "--common-trials" not in out
    assert "| isv      | dev     |" in out and "| gmm      | eval    |" in out


def test_a_pyeer_list_folder_without_format_lists_is_told_about_it(capsys, tmp_path):
    folder = tmp_path / "pyeer"
    folder.mkdir()
    (folder / "exp1_true.txt").write_text("0.91\n0.85\n0.77\n")
    (folder / "exp1_false.txt").write_text("0.12\n0.40\n0.33\n0.8\n")
    status, _, err = _run(capsys, folder, "--n-resamples", "0")
    assert status == 1
    assert "found 1" in err and "--format lists" in err and "format=" not in err
    status, out, err = _run(capsys, folder, "--format", "lists", "--n-resamples", "0")
    assert status == 0, err
    assert "| exp1     |" in out


def test_a_table_named_like_a_split_keeps_its_own_split_column(capsys, tmp_path):
    # "test" (bob's eval) in the name of a tidy table that has a split column of its own
    path = tmp_path / "results_test.csv"
    pbs.datasets.example_trials().to_csv(path, index=False)
    status, out, err = _run(capsys, path, "--n-resamples", "0")
    assert status == 0, err
    assert "splits dev, eval" in out
    # without a split column, the name gives it
    path = tmp_path / "cnn_test.csv"
    pbs.datasets.example_trials().query("split == 'eval'").drop(columns="split").to_csv(
        path, index=False)
    assert set(pbs.read_scores(path).split) == {"eval"}


def test_pairs_whose_names_repeat_are_numbered(capsys, tmp_path):
    files = []
    for group in ("lab_a", "lab_b"):
        (tmp_path / group).mkdir()
        for split, text in (("dev", BOB2_DEV), ("eval", BOB2_EVAL)):
            path = tmp_path / group / f"x-{split}.txt"
            path.write_text(text)
            files.append(path)
    out_dir = tmp_path / "out"
    status, _, err = _run(capsys, "-e", *files, "--n-resamples", "0", "--out", out_dir)
    assert status == 0, err
    assert _systems_and_splits(out_dir) == [("1", "dev"), ("1", "eval"), ("2", "dev"),
                                            ("2", "eval")]


# --------------------------------------------------------- tables of another kind
def test_impostors_mixed_with_attacks_are_said(capsys, tmp_path):
    """A tidy table whose impostor rows mix zero-effort impostors and presentation
    attacks (a pai value): the report warns that its error rates pool the two."""
    t = pbs.datasets.example_trials().query("split == 'dev'").reset_index(drop=True)
    impostor = (t.label == "impostor").to_numpy()
    attack = impostor & (t.trial.to_numpy() % 3 == 0)
    path = tmp_path / "mixed.csv"
    t.assign(pai=pd.Series(["print" if a else None for a in attack], dtype=object)).to_csv(
        path, index=False)
    code, out, _ = _run(capsys, str(path), "--n-resamples", "0")
    assert code == 0
    n_attacks, n_impostors = int(attack.sum()), int(impostor.sum())
    assert f"Warning: {n_attacks} of the {n_impostors} impostor trials carry a presentation " in out
    # only attacks as impostors (a PAD table), or no attack: nothing pooled, no warning
    for pai in (pd.Series(np.where(impostor, "print", None), dtype=object),
                pd.Series([None] * len(t), dtype=object)):
        t.assign(pai=pai).to_csv(path, index=False)
        code, out, _ = _run(capsys, str(path), "--n-resamples", "0")
        assert code == 0 and "Warning" not in out


def test_vulnerability_and_asvspoof_files_get_their_sections(capsys, tmp_path):
    """read_scores names the reader of a PAD or vulnerability file; the report reads it
    with that reader (a tidy table of kinds as a table) and writes its section."""
    vuln = tmp_path / "vuln-dev.csv"
    vuln.write_text("bio_ref_subject_id,probe_subject_id,probe_key,probe_attack_type,score\n"
                    "a,a,k1,,3.1\na,b,k2,,0.2\na,a,k3,print,1.4\nb,b,k4,,2.0\nb,a,k5,,1.0\n")
    kinds = tmp_path / "kinds.csv"
    kinds.write_text("system,trial,kind,score,pai\nA,0,genuine,2.0,\nA,1,zei,0.1,\n"
                     "A,2,attack,1.1,print\nA,3,genuine,1.5,\n")
    asv = tmp_path / "asv_dev.txt"
    asv.write_text("- target 13.2\n- nontarget -4.0\nSS_1 spoof 0.3\n- target 9.0\n")
    cm = tmp_path / "cm_dev.txt"
    cm.write_text("LA_0039 LA_E_1 - bonafide 1.2\nLA_0039 LA_E_2 A07 spoof -3.0\n"
                  "LA_0040 LA_E_3 - bonafide 0.7\nLA_0040 LA_E_4 A08 spoof 0.9\n")
    for path, reader in ((vuln, "read_bob_vuln"), (kinds, "pandas.read_csv"),
                         (asv, "read_asvspoof_asv"), (cm, "read_asvspoof_cm")):
        code, out, err = _run(capsys, str(path))
        assert code == 0, err
        heading = ("## Presentation attack detection" if path == cm
                   else "## Vulnerability to presentation attacks")
        assert heading in out and "## Per-system summary" not in out
        with pytest.raises(pbs.SchemaError, match=reader.replace(".", r"\.")):
            pbs.read_scores(path)


@pytest.mark.parametrize("resample", ["auto", "label"])
def test_the_a_priori_interval_follows_resample(capsys, tmp_path, resample):
    """--resample says the unit of dependence for the a-priori HTER interval too: the
    example has subjects, so the default interval is on the subjects' effective counts
    (pbs.ci's default), and --resample label gives the trial-level one."""
    out_dir = tmp_path / "report"
    status, _, err = _run(capsys, "--out", out_dir, "--n-resamples", "0", "--resample", resample)
    assert status == 0, err
    apriori = pd.read_csv(out_dir / "apriori.csv", float_precision="round_trip")
    expected = pbs.ci(pbs.datasets.example_trials(), metric="hter", threshold="eer", on="dev",
                      apply_to="eval", resample=resample)
    np.testing.assert_array_equal(apriori.ci_low, expected.ci_low)
    np.testing.assert_array_equal(apriori.ci_high, expected.ci_high)
    assert apriori.ci_method.str.endswith("-deff").all() == (resample == "auto")
    assert ("design effect" in (out_dir / "report.md").read_text()) == (resample == "auto")


def test_the_report_csvs_hold_every_float_exactly(capsys, tmp_path):
    """pandas' CSV writer wrote 0.0361289455043892 for 0.036128945504389276 (numpy 2.5,
    pandas 3.0): the report writes each float as the shortest text that reads back to it."""
    import csv

    out_dir = tmp_path / "report"
    status, _, err = _run(capsys, "--out", out_dir, "--n-resamples", "0")
    assert status == 0, err
    expected = pbs.summary(pbs.datasets.example_trials())
    with open(out_dir / "summary.csv", newline="") as handle:
        rows = list(csv.DictReader(handle))
    columns = ["eer_rocch", "eer_threshold", "threshold", "auc", "cllr", "min_cllr"]
    assert len(rows) == len(expected) and set(columns) <= set(rows[0])
    want = expected.set_index(["system", "split"])
    for row in rows:
        for column in columns:
            value = want.loc[(row["system"], row["split"]), column]
            assert row[column] == repr(float(value)), column
    apriori = pd.read_csv(out_dir / "apriori.csv", float_precision="round_trip")
    truth = pbs.ci(pbs.datasets.example_trials(), metric="hter", threshold="eer", on="dev",
                   apply_to="eval")
    np.testing.assert_array_equal(apriori.ci_low, truth.ci_low)


def test_the_epc_figure_says_its_hter_leaves_out_failures_to_acquire(capsys, tmp_path):
    """Under --nonfinite reject the a-priori table's HTER counts the failures to acquire
    and the EPC's does not; both were labelled "HTER"."""
    trials = pbs.datasets.example_trials()
    trials.loc[trials.index[::97], "score"] = np.nan
    path = tmp_path / "t.csv"
    trials.to_csv(path, index=False)
    out = tmp_path / "r"
    status, _, err = _run(capsys, path, "--nonfinite", "reject", "--n-resamples", "0",
                          "--out", out)
    assert status == 0, err
    report = (out / "report.md").read_text()
    assert "the HTER of the acquired trials: failures to acquire" in report
    from pandas_biosig.cli._report import _report

    _, figs = _report(trials, title="t", nonfinite="reject", n_resamples=0, figures=True)
    assert figs["epc"][0].axes[0].get_ylabel() == "HTER of the acquired trials on eval (%)"
    _, figs = _report(trials.dropna(), title="t", n_resamples=0, figures=True)
    assert figs["epc"][0].axes[0].get_ylabel() == "HTER on eval (%)"


def test_max_bytes_bounds_what_a_file_may_cost(capsys, tmp_path, bob_files):
    dev, ev = bob_files
    status, _, err = _run(capsys, dev, ev, "--max-bytes", "1K", "--n-resamples", "0")
    assert status == 1
    assert f"{dev}: parsing it would take about" in err
    assert "more than --max-bytes 1024; pass a larger --max-bytes to read it" in err
    status, out, err = _run(capsys, dev, ev, "--max-bytes", "64K", "--n-resamples", "0")
    assert status == 0, err
    for bad in ("0", "-5", "1T", "x"):
        with pytest.raises(SystemExit):
            _run(capsys, dev, "--max-bytes", bad)
        assert "is not a size" in capsys.readouterr().err
