"""``biosig report`` on PAD, vulnerability and demographic tables: the kind of each table,
its sections, and numbers equal to the public functions' with their defaults, to the bit.

The real files are third-party score files in ``../shared/newcaps-data`` (see its
README); the tests that read them skip when they are absent.
"""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import pandas_biosig as pbs
from pandas_biosig.cli import main
from pandas_biosig.cli._inputs import ERROR_KIND_OPTIONS, ERROR_KINDS_MIXED
from pandas_biosig.cli._report import report_kinds

pytest.importorskip("tabulate")
pytest.importorskip("matplotlib")

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "newcaps-data"
ASVSPOOF = DATA / "asvspoof2019_tdcf_v1"


def _run(capsys, *argv):
    status = main(["report", *map(str, argv)])
    out, err = capsys.readouterr()
    return status, out, err


def _read(path: Path) -> pd.DataFrame:
    """A report CSV with its numbers read back exactly (the report writes each float as
    the shortest text that reads back to it; pandas' own parser may differ in the last
    digit)."""
    raw = pd.read_csv(path, dtype=str, keep_default_na=False)
    out = {}
    for column in raw.columns:
        try:
            out[column] = np.array([float(v) if v != "" else np.nan for v in raw[column]])
        except ValueError:
            out[column] = raw[column].replace("", None).to_numpy(dtype=object)
    return pd.DataFrame(out)


def _assert_same(written: pd.DataFrame, expected: pd.DataFrame) -> None:
    """Every column of ``expected`` is in ``written`` with the same values, floats to the
    bit, text as text, missing as missing."""
    assert list(written.columns) == list(expected.columns) and len(written) == len(expected)
    for column in expected.columns:
        want = expected[column]
        got = written[column]
        if pd.api.types.is_bool_dtype(want.dtype):
            np.testing.assert_array_equal(got.astype(str), want.astype(str), err_msg=column)
        elif pd.api.types.is_numeric_dtype(want.dtype):
            np.testing.assert_array_equal(got.to_numpy(dtype=float),
                                          want.to_numpy(dtype=float), err_msg=column)
        else:
            shown = [None if pd.isna(v) else str(v) for v in want]
            gotten = [None if v is None or (isinstance(v, float) and np.isnan(v))
                      else (str(v) if not isinstance(v, float) else repr(v)) for v in got]
            if shown != gotten:  # a text column whose values read back as numbers
                gotten = [None if g is None else str(written[column].iloc[i]) for i, g in
                          enumerate(gotten)]
            assert gotten == shown, column


# ----------------------------------------------------------------------------- dispatch
def _table(labels, pai=None, **extra) -> pd.DataFrame:
    t = pd.DataFrame({"system": "s", "trial": range(len(labels)), "label": labels,
                      "score": np.linspace(0, 1, len(labels)), **extra})
    if pai is not None:
        t["pai"] = pd.Series(pai, dtype=object)
    return t


@pytest.mark.parametrize(
    ("table", "kinds"),
    [
        (_table(["genuine", "impostor"]), ["verification"]),
        (_table(["bona fide", "attack"], ["", "print"]), ["pad"]),
        (_table(["genuine", "impostor", "impostor"], [None, "print", "mask"]), ["pad"]),
        (_table(["genuine", "impostor", "impostor"], [None, None, "print"]),
         ["verification", "vulnerability"]),
        (_table(["genuine", "impostor"], [None, None]), ["verification"]),
        (_table(["genuine", "impostor", "impostor"], kind=["genuine", "zei", "attack"]),
         ["vulnerability"]),
        (_table(["genuine", "impostor"], group=["a", "b"]), ["verification", "demographics"]),
    ],
)
def test_the_kinds_of_a_table_are_its_sections(table, kinds):
    before = table.copy()
    assert report_kinds(table) == kinds
    pd.testing.assert_frame_equal(table, before)  # nothing the user passed is changed


# ----------------------------------------------------------------------------- real files
REAL = [
    # path(s), reader, section tables {csv name: the public function with its defaults}
    ([ASVSPOOF / "cm_dev.txt"], pbs.read_asvspoof_cm, "pad"),
    ([ASVSPOOF / "bobpad_cm_dev.csv"], pbs.read_bob_pad, "pad"),
    ([DATA / "bob_pad_base" / "per_pai_scores-dev.csv"], pbs.read_bob_pad, "pad"),
    ([DATA / "bob_bio_base" / "vuln-scores-dev.csv", DATA / "bob_bio_base" / "vuln-scores-eval.csv"],
     pbs.read_bob_vuln, "vulnerability"),
    ([ASVSPOOF / "asv_dev.txt"], pbs.read_asvspoof_asv, "vulnerability"),
    ([ASVSPOOF / "bobvuln_asv_dev.csv"], pbs.read_bob_vuln, "vulnerability"),
]


def _intervals(function, table: pd.DataFrame) -> pd.DataFrame:
    """The interval table with its defaults; a file whose subjects cannot be weighed (one
    subject: bob's anonymised vulnerability files) with the trials as independent, as the
    report says."""
    try:
        return function(table, seed=0)
    except pbs.SchemaError:
        return function(table, seed=0, subject=None)


@pytest.mark.parametrize(("paths", "reader", "kind"), REAL,
                         ids=[p[0][0].name for p in REAL])
def test_a_real_file_gets_its_section_with_the_library_s_numbers(capsys, tmp_path, paths,
                                                                  reader, kind):
    if not all(p.exists() for p in paths):
        pytest.skip("the shared score files are absent")
    out = tmp_path / "R"
    status, _, err = _run(capsys, *paths, "--out", out, "--latex")
    assert status == 0, err
    table = pd.concat([reader(p) for p in paths], ignore_index=True)
    report = (out / "report.md").read_text()
    if kind == "pad":
        expected = {"pad_metrics": pbs.pad_metrics(table),
                    "pad_rates": _intervals(pbs.pad_rates, table)}
        assert "## Presentation attack detection" in report and "pad_det.png" in report
        figure = "pad_det.png"
    else:
        expected = {"vulnerability": pbs.vulnerability(table),
                    "iapmr": _intervals(pbs.iapmr, table)}
        assert "## Vulnerability to presentation attacks" in report and "epsc.png" in report
        figure = "epsc.png"
    assert "## Per-system summary" not in report  # not evaluated as verification
    for name, frame in expected.items():
        _assert_same(_read(out / f"{name}.csv"), frame)
        assert (out / f"{name}.tex").read_text().startswith("\\begin{table}")
    headline = expected[next(iter(expected))].iloc[0]
    rate = headline["apcer_max"] if kind == "pad" else headline["iapmr"]
    assert f" {100 * rate:.2f} |" in report  # the headline rate, shown in %
    assert (out / figure).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_splits_of_bob_vuln_files_come_from_their_names(capsys, tmp_path):
    """vuln-scores-dev.csv and vuln-scores-eval.csv: the threshold is chosen on dev and
    the rates are reported on eval, as vulnerability() does with its defaults."""
    paths = [DATA / "bob_bio_base" / f"vuln-scores-{s}.csv" for s in ("dev", "eval")]
    if not all(p.exists() for p in paths):
        pytest.skip("the shared score files are absent")
    out = tmp_path / "R"
    status, _, err = _run(capsys, *paths, "--out", out)
    assert status == 0, err
    written = _read(out / "vulnerability.csv")
    assert written.system.tolist() == ["vuln"] and written.split.tolist() == ["eval"]
    assert written.threshold_split.tolist() == ["dev"]


# ----------------------------------------------------------------------------- tidy tables
def test_a_mixed_table_keeps_its_warning_and_gets_both_sections(capsys, tmp_path):
    t = pbs.datasets.example_trials().query("split == 'dev'").reset_index(drop=True)
    impostor = (t.label == "impostor").to_numpy()
    attack = impostor & (t.trial.to_numpy() % 3 == 0)
    mixed = t.assign(pai=pd.Series(np.where(attack, "print", None), dtype=object))
    path = tmp_path / "mixed.csv"
    mixed.to_csv(path, index=False)
    out = tmp_path / "R"
    status, _, err = _run(capsys, path, "--out", out, "--n-resamples", "0")
    assert status == 0, err
    report = (out / "report.md").read_text()
    assert f"Warning: {int(attack.sum())} of the {int(impostor.sum())} impostor" in report
    assert "## Per-system summary" in report and "## Vulnerability to presentation" in report
    # the vulnerability table counted by hand: genuine, attacks, the other impostors
    kinds = mixed.drop(columns="label").assign(
        kind=np.where(~impostor, "genuine", np.where(attack, "attack", "zei")))
    _assert_same(_read(out / "vulnerability.csv"), pbs.vulnerability(kinds))
    for name in ("summary.csv", "det.png", "epsc.png"):
        assert (out / name).exists()


def test_two_pad_systems_are_compared_with_the_default_test(capsys, tmp_path):
    pad = pbs.datasets.example_pad()
    path = tmp_path / "pad.csv"
    pad.to_csv(path, index=False)
    out = tmp_path / "R"
    status, _, err = _run(capsys, path, "--out", out, "--n-resamples", "50")
    assert status == 0, err
    table = pd.read_csv(path, keep_default_na=False, na_values={"pai": [""]})
    table["pai"] = table["pai"].astype(object).where(table["pai"].notna(), None)
    _assert_same(_read(out / "pad_metrics.csv"), pbs.pad_metrics(table))
    _assert_same(_read(out / "pad_compare.csv"),
                 pbs.pad_compare(table, n_resamples=50, seed=0))
    assert "## PAD pairwise significance" in (out / "report.md").read_text()


def test_a_table_with_groups_gets_the_demographic_section(capsys, tmp_path):
    demo = pbs.datasets.example_demographic_trials()
    path = tmp_path / "groups.csv"
    demo.to_csv(path, index=False)
    out = tmp_path / "R"
    status, _, err = _run(capsys, path, "--out", out, "--n-resamples", "50")
    assert status == 0, err
    table = pd.read_csv(path)
    _assert_same(_read(out / "fairness.csv"), pbs.fairness(table))
    _assert_same(_read(out / "group_rates.csv"),
                 pbs.group_rates(table, n_resamples=50, seed=0))
    report = (out / "report.md").read_text()
    assert "## Fairness across groups" in report
    for name in ("group_det_1.png", "fmr_heatmap_3.png", "det.png"):
        assert (out / name).exists()


# ----------------------------------------------------------------------------- errors
def test_files_of_two_kinds_or_verification_options_are_refused(capsys, tmp_path):
    cm = tmp_path / "cm_dev.txt"
    cm.write_text("p1/p1_1 - bonafide 0.7\np1/p1_2 A01 spoof 0.1\n")
    vuln = tmp_path / "vuln-dev.csv"
    vuln.write_text("bio_ref_subject_id,probe_subject_id,probe_key,probe_attack_type,score\n"
                    "a,a,k1,,3.1\na,b,k2,,0.2\na,a,k3,print,1.4\n")
    status, _, err = _run(capsys, cm, vuln)
    assert status == 1 and err == "biosig: error: " + ERROR_KINDS_MIXED.format(
        first=cm, kind_first="PAD", reader_first="read_asvspoof_cm", second=vuln,
        kind_second="vulnerability", reader_second="read_bob_vuln") + "\n"
    bob = tmp_path / "face-dev.txt"
    bob.write_text("a a a1 0.9\nb b b1 0.7\na b b2 0.6\nb a a2 0.3\n")
    status, _, err = _run(capsys, cm, bob)
    assert status == 1 and err == "biosig: error: " + ERROR_KINDS_MIXED.format(
        first=cm, kind_first="PAD", reader_first="read_asvspoof_cm", second=bob,
        kind_second="verification", reader_second="read_scores") + "\n"
    status, _, err = _run(capsys, cm, "--format", "bob")
    assert status == 1 and err == "biosig: error: " + ERROR_KIND_OPTIONS.format(
        path=cm, kind="ASVspoof countermeasure", reader="read_asvspoof_cm",
        flags="--format") + "\n"
