"""The tandem reader: the three ASVspoof layouts give one tandem table, and bad files are
refused by name.

The 2021 and ASVspoof 5 files are written here, in the organisers' documented layouts
(``asvspoof-challenge/2021`` eval-package ``config.py``: ASV score ``asv_spk trial
score``, ``trial_metadata.txt`` ``spk trial codec trans attack label trim subset``; CM
score ``trial score``; ``asvspoof-challenge/asvspoof5`` evaluation-package README: the
track-2 score and key files), from the ASVspoof 2019 example's scores, so that every
layout must reproduce the organisers' numbers of that example.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from reference_tandem import ASVSPOOF2019_DEV

import pandas_biosig as pbs
from pandas_biosig._core.schema import SchemaError
from pandas_biosig.io import ScoreFileError

TOL = 1e-9
ROOT = Path(__file__).parents[1]
SHARED = Path(os.environ.get("BIOSIG_NEWCAPS_DATA", ROOT.parent / "shared" / "newcaps-data"))
DATA = SHARED / "asvspoof2019_tdcf_v1"
REF = ASVSPOOF2019_DEV["file_lines"]


@pytest.fixture(scope="module")
def lines():
    if not DATA.is_dir():
        pytest.skip(f"{DATA} is absent (set BIOSIG_NEWCAPS_DATA to the newcaps-data folder)")
    asv = np.loadtxt(DATA / "asv_dev.txt", dtype=str)
    cm = np.loadtxt(DATA / "cm_dev.txt", dtype=str)
    return asv, cm


def _claims(utterance, kind):
    """A claimed speaker per trial: the utterance's speaker for targets and spoofs, and for
    the non-target utterances (each scored against six speakers) one of six names."""
    speaker = np.array([u.rsplit("/", 1)[-1].split("_")[0] for u in utterance], dtype=object)
    seen: dict = {}
    for i in np.flatnonzero(kind == "nontarget"):
        k = seen[utterance[i]] = seen.get(utterance[i], -1) + 1
        speaker[i] = f"claim{k}"
    return speaker


def _write_2021(tmp_path, asv, cm):
    utt = np.char.replace(cm[:, 0], "/", "-")
    kind, attack = asv[:, 1], asv[:, 0]
    spk = _claims(utt, kind)
    rows = zip(spk, utt, attack, kind, strict=True)
    (tmp_path / "asv_score.txt").write_text(
        "".join(f"{s} {u} {v}\n" for s, u, v in zip(spk, utt, asv[:, 2], strict=True)))
    (tmp_path / "asv_keys.txt").write_text(
        "".join(f"{s} {u} none - {a} {k} notrim eval\n" for s, u, a, k in rows))
    first = pd.Index(utt).drop_duplicates(keep="first")
    keep = np.flatnonzero(~pd.Index(utt).duplicated())
    assert len(first) == keep.size == 16584
    (tmp_path / "cm_score.txt").write_text(
        "".join(f"{u} {v}\n" for u, v in zip(utt[keep], cm[keep, 3], strict=True)))
    (tmp_path / "cm_keys.txt").write_text("".join(
        f"{s} {u} none - {a} {k} notrim eval\n"
        for s, u, a, k in zip(spk[keep], utt[keep], cm[keep, 1], cm[keep, 2], strict=True)))


def test_the_2021_layout_pairs_by_utterance(tmp_path, lines):
    asv, cm = lines
    _write_2021(tmp_path, asv, cm)
    t = pbs.read_asvspoof_tandem(tmp_path / "asv_score.txt", tmp_path / "cm_score.txt",
                                 asv_keys=tmp_path / "asv_keys.txt",
                                 cm_keys=tmp_path / "cm_keys.txt", split_name="eval")
    assert len(t) == 20364 and set(t.split) == {"eval"}
    assert (t.asv_system.iloc[0], t.cm_system.iloc[0]) == ("asv_score", "cm_score")
    # each trial has the CM score of its line in the 2019 file: the same numbers
    np.testing.assert_array_equal(t.cm_score, cm[:, 3].astype(float))
    r = pbs.tdcf(t).iloc[0]
    assert r.min_tdcf == pytest.approx(REF["min_tdcf_2019"], abs=TOL, rel=0)
    assert pbs.teer(t).teer.iloc[0] * 100 == pytest.approx(REF["teer_percent"], abs=TOL, rel=0)


def test_the_2021_layout_needs_its_keys(tmp_path, lines):
    asv, cm = lines
    _write_2021(tmp_path, asv, cm)
    with pytest.raises(ScoreFileError, match="pass asv_keys= and cm_keys="):
        pbs.read_asvspoof_tandem(tmp_path / "asv_score.txt", tmp_path / "cm_score.txt")
    keys = (tmp_path / "asv_keys.txt").read_text().splitlines()
    (tmp_path / "short_keys.txt").write_text("\n".join(keys[1:]) + "\n")
    with pytest.raises(ScoreFileError, match="do not hold the same trials"):
        pbs.read_asvspoof_tandem(tmp_path / "asv_score.txt", tmp_path / "cm_score.txt",
                                 asv_keys=tmp_path / "short_keys.txt",
                                 cm_keys=tmp_path / "cm_keys.txt")


def _write_5(tmp_path, asv, cm, sasv=None):
    kind = asv[:, 1]
    spk = _claims(cm[:, 0], kind)
    utt = np.char.replace(cm[:, 0], "/", "-")
    a, c = asv[:, 2].astype(float), cm[:, 3].astype(float)
    s = a + c if sasv is None else sasv
    (tmp_path / "sasv.tsv").write_text("spk\tfilename\tcm-score\tasv-score\tsasv-score\n" + "".join(
        f"{p}\t{u}\t{float(y)!r}\t{float(x)!r}\t{float(z)!r}\n"
        for p, u, x, y, z in zip(spk, utt, a, c, s, strict=True)))
    order = np.random.default_rng(0).permutation(len(kind))  # keys in another order
    (tmp_path / "keys.tsv").write_text("spk\tfilename\tcm-label\tasv-label\n" + "".join(
        f"{spk[i]}\t{utt[i]}\t{cm[i, 2]}\t{kind[i]}\n" for i in order))


def test_the_asvspoof5_layout_joins_on_speaker_and_file(tmp_path, lines):
    asv, cm = lines
    _write_5(tmp_path, asv, cm)
    t = pbs.read_asvspoof_tandem(tmp_path / "sasv.tsv", tmp_path / "keys.tsv")
    assert list(t.columns) == ["asv_system", "cm_system", "trial", "kind", "asv_score",
                               "cm_score", "sasv_score", "subject", "utterance"]
    r = pbs.adcf(t).iloc[0]  # the file's own SASV score: the score sum
    assert r.min_adcf == pytest.approx(REF["adcf_sum_asvspoof5"], abs=TOL, rel=0)
    assert pbs.tdcf(t, version="2021").min_tdcf.iloc[0] == pytest.approx(
        REF["min_tdcf_2021"], abs=TOL, rel=0)


def test_an_asvspoof5_score_file_without_asv_and_cm_scores(tmp_path):
    (tmp_path / "s.tsv").write_text("spk\tfilename\tcm-score\tasv-score\tsasv-score\n"
                                    "A\tf1\t-\t-\t2.5\nA\tf2\t-\t-\t-1.0\nB\tf3\t-\t-\t0.5\n")
    (tmp_path / "k.tsv").write_text("spk\tfilename\tcm-label\tasv-label\n"
                                    "A\tf1\tbonafide\ttarget\nA\tf2\tbonafide\tnontarget\n"
                                    "B\tf3\tspoof\tspoof\n")
    t = pbs.read_asvspoof_tandem(tmp_path / "s.tsv", tmp_path / "k.tsv")
    assert t.asv_score.isna().all() and t.sasv_score.tolist() == [2.5, -1.0, 0.5]
    assert pbs.adcf(t).min_adcf.iloc[0] == 0.0  # 2.5 > 0.5 > -1: a perfect SASV score
    with pytest.raises(SchemaError, match="no score in column 'asv_score'"):
        pbs.tdcf(t)


def test_2019_files_of_different_lengths_are_refused(tmp_path):
    (tmp_path / "asv.txt").write_text("- target 4.1\n- nontarget -3.2\nSS_1 spoof 1.7\n")
    (tmp_path / "cm.txt").write_text("p1/p1_1 - bonafide 0.9\np2/p2_2 - bonafide 0.7\n")
    with pytest.raises(ScoreFileError, match="pairs the ASV and CM files line by line"):
        pbs.read_asvspoof_tandem(tmp_path / "asv.txt", tmp_path / "cm.txt")


def test_2019_lines_whose_attacks_or_keys_disagree_are_refused(tmp_path):
    (tmp_path / "asv.txt").write_text("- target 4.1\n- nontarget -3.2\nSS_1 spoof 1.7\n")
    (tmp_path / "cm.txt").write_text(
        "p1/p1_1 - bonafide 0.9\np2/p2_2 - bonafide 0.7\nSS_2/p1_s1 SS_2 spoof -1.0\n")
    with pytest.raises(SchemaError, match="name different attacks"):
        pbs.read_asvspoof_tandem(tmp_path / "asv.txt", tmp_path / "cm.txt")
    (tmp_path / "cm.txt").write_text(
        "p1/p1_1 - bonafide 0.9\nSS_1/p1_s1 SS_1 spoof -1.0\np2/p2_2 - bonafide 0.7\n")
    with pytest.raises(SchemaError, match="disagree on the kind of trial"):
        pbs.read_asvspoof_tandem(tmp_path / "asv.txt", tmp_path / "cm.txt")


def test_a_file_of_no_layout_is_named(tmp_path):
    (tmp_path / "asv.txt").write_text("a b c d e f g\n")
    (tmp_path / "cm.txt").write_text("x 1.0\n")
    with pytest.raises(ScoreFileError, match="not an ASVspoof ASV score file"):
        pbs.read_asvspoof_tandem(tmp_path / "asv.txt", tmp_path / "cm.txt")
    (tmp_path / "s.tsv").write_text("spk\tfilename\tasv-score\nA\tf1\t1.0\n")
    with pytest.raises(ScoreFileError, match="expected the columns"):
        pbs.read_asvspoof_tandem(tmp_path / "s.tsv", tmp_path / "cm.txt")


def test_system_names_and_split_are_given(tmp_path):
    (tmp_path / "asv.txt").write_text("- target 4.1\n- nontarget -3.2\nSS_1 spoof 1.7\n")
    (tmp_path / "cm.txt").write_text(
        "p1/p1_1 - bonafide 0.9\np2/p2_2 - bonafide 0.7\nSS_1/p1_s1 SS_1 spoof -1.0\n")
    t = pbs.read_asvspoof_tandem(tmp_path / "asv.txt", tmp_path / "cm.txt",
                                 asv_system_name="ivector", cm_system_name="lcnn",
                                 split_name="dev")
    assert t[["asv_system", "cm_system", "split"]].drop_duplicates().values.tolist() == [
        ["ivector", "lcnn", "dev"]]
    assert t.subject.tolist() == ["p1", "p2", "p1"]
