"""The PAD and vulnerability readers: names read off the file name as read_scores reads
them, and the per-line bounds (fields per line, bytes per field, one field too many) as
named errors that give the file and the line."""

from __future__ import annotations

import pytest

import pandas_biosig as pbs
from pandas_biosig.io import MAX_FIELD_BYTES, MAX_FIELDS_PER_LINE, ScoreFileError
from pandas_biosig.io._errors import (
    ERROR_CSV_FIELDS,
    ERROR_FIELD_BYTES,
    ERROR_FIELDS,
    ERROR_LINE_FIELDS,
)

PAD_CSV = "claimed_id,test_label,is_bonafide,attack_type,score"
VULN_CSV = "bio_ref_subject_id,probe_subject_id,probe_key,probe_attack_type,score"

#: reader -> (header or None, three valid data lines, whitespace layout names or None)
FILES = {
    "read_bob_pad": (PAD_CSV, ["x0,x0_1,True,,0.9", "x0,x0_2,False,print,0.6",
                               "x1,x1_1,False,mask,0.2"], None),
    "read_bob_vuln": (VULN_CSV, ["a,a,k1,,3.1", "a,b,k2,,0.2", "a,a,k3,print,1.4"], None),
    "read_asvspoof_cm": (None, ["p1/p1_1 - bonafide 0.7", "p1/p1_2 A01 spoof 0.1",
                                "p2/p2_1 A02 spoof 0.8"], "utterance attack key score"),
    "read_asvspoof_asv": (None, ["- target 3", "- nontarget -1", "A01 spoof 1"],
                          "attack key score"),
}


def _write(path, reader, lines):
    header = FILES[reader][0]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(([header] if header else []) + lines) + "\n")
    return path


@pytest.mark.parametrize("reader", sorted(FILES))
@pytest.mark.parametrize(
    ("name", "system", "split"),
    [
        ("vuln-scores-dev.csv", "vuln", "dev"),
        ("cm_dev.txt", "cm", "dev"),
        ("asv-test.txt.gz", "asv", "eval"),  # bob's test split is the evaluation split
        ("isv/scores-eval.csv", "isv", "eval"),  # a generic name: the folder names the system
        ("lda.csv", "lda", None),  # no split token: no split column
    ],
)
def test_readers_name_system_and_split_as_read_scores_does(tmp_path, reader, name, system, split):
    path = tmp_path / name
    if name.endswith(".gz"):
        import gzip

        _write(tmp_path / "plain", reader, FILES[reader][1])
        path.write_bytes(gzip.compress((tmp_path / "plain").read_bytes()))
    else:
        _write(path, reader, FILES[reader][1])
    table = getattr(pbs, reader)(path)
    assert table.system.unique().tolist() == [system]
    if split is None:
        assert "split" not in table.columns
    else:
        assert table.split.unique().tolist() == [split]
    # what the caller passes wins over the name
    given = getattr(pbs, reader)(path, system_name="mine", split_name="train")
    assert given.system.unique().tolist() == ["mine"] and given.split.unique().tolist() == ["train"]


@pytest.mark.parametrize("reader", sorted(FILES))
def test_a_line_of_too_many_fields_is_a_named_error_with_file_and_line(tmp_path, reader):
    header, lines, _ = FILES[reader]
    sep = "," if header else " "
    path = _write(tmp_path / "s-dev.txt", reader, [lines[0], sep.join(["1"] * 10**5), lines[1]])
    with pytest.raises(ScoreFileError) as exc:
        getattr(pbs, reader)(path)
    assert str(exc.value) == ERROR_LINE_FIELDS.format(
        source=path, line=3 if header else 2, found=10**5, limit=MAX_FIELDS_PER_LINE
    )


@pytest.mark.parametrize("reader", sorted(FILES))
def test_a_field_longer_than_its_bound_is_a_named_error_with_file_and_line(tmp_path, reader):
    header, lines, _ = FILES[reader]
    if header:  # a CSV field: the second line's first field grows
        long = "p" * (MAX_FIELD_BYTES + 1) + lines[1][lines[1].index(","):]
    else:  # a whitespace field: the utterance / attack field grows
        fields = lines[1].split()
        fields[0] = "p" * (MAX_FIELD_BYTES + 1)
        long = " ".join(fields)
    path = _write(tmp_path / "s-dev.txt", reader, [lines[0], long, lines[2]])
    with pytest.raises(ScoreFileError) as exc:
        getattr(pbs, reader)(path)
    assert str(exc.value) == ERROR_FIELD_BYTES.format(
        source=path, line=3 if header else 2, found=MAX_FIELD_BYTES + 1, limit=MAX_FIELD_BYTES
    )


@pytest.mark.parametrize("reader", sorted(FILES))
@pytest.mark.parametrize("where", [0, 2])  # the first data line, and one further down
def test_one_field_too_many_is_a_named_error_with_file_and_line(tmp_path, reader, where):
    header, lines, names = FILES[reader]
    lines = list(lines)
    lines[where] += ",7" if header else " 7"
    path = _write(tmp_path / "s-dev.txt", reader, lines)
    with pytest.raises(ScoreFileError) as exc:
        getattr(pbs, reader)(path)
    if header:
        expected = len(header.split(","))
        message = ERROR_CSV_FIELDS.format(
            source=path, line=where + 2, expected=expected, found=expected + 1
        )
        assert str(exc.value) == message
    elif where == 2:  # the first line fixed the layout: this line has one field more
        found = len(lines[where].split())
        assert str(exc.value) == ERROR_FIELDS.format(
            source=path, line=3, expected=found - 1, names=names, found=found
        )
    elif reader == "read_asvspoof_asv":  # 4 fields are no ASV layout
        assert str(exc.value).startswith(f"{path}, line 1: expected 3 whitespace-separated")
    else:  # 5 fields are the CM layout with a speaker: the next line has one too few
        assert str(exc.value) == ERROR_FIELDS.format(
            source=path, line=2, expected=5, names="speaker utterance attack key score", found=4
        )
