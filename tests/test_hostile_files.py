"""Hostile and odd score files: the rows written, or the library's named error.

Files are generated from a model (rows of a bob 4-column file or score lists), then
rendered with odd encodings (BOM, CRLF, tabs, blank lines), odd number tokens, codecs and
tar archives, and optionally truncated or corrupted. The model knows the rows; a reader
must return exactly them or raise its named error (tests/hostile.py counts the outcomes).
Decompression bombs run in a subprocess under ``resource.setrlimit(RLIMIT_AS)``.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import os
import re
import subprocess
import sys
import tarfile
import textwrap
import zlib
from pathlib import Path

import numpy as np
import pytest
from hostile import COUNTS, outcome

import pandas_biosig as pbs
from pandas_biosig.io import (
    FileTooLargeError,
    ScoreFileError,
    read_bob_identification,
    read_pyeer_cmc,
)
from pandas_biosig.io._parse import SCORE_PATTERN

hypothesis = pytest.importorskip("hypothesis")
st = pytest.importorskip("hypothesis.strategies")
given, settings, HealthCheck = hypothesis.given, hypothesis.settings, hypothesis.HealthCheck

SETTINGS = settings(
    max_examples=80, deadline=None, derandomize=True, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
#: score tokens: (text, float value or None when no score file means it)
TOKENS = [
    ("1.5", 1.5), ("-2", -2.0), ("+.5", 0.5), ("3.", 3.0), ("1e3", 1000.0), ("-1.5E-2", -0.015),
    ("0", 0.0), ("inf", np.inf), ("-Infinity", -np.inf), ("NaN", np.nan),
    ("1_5", None), ("iNf", None), ("InFiNiTy", None), ("0x1p3", None), ("٣", None),
    ("１", None), ("1,5", None), ("--1", None), ("1e", None), ("nan(1)", None), ("", None),
]
CODECS = ["none", "gzip", "bzip2", "xz", "tar", "tar.gz"]


def _tokens_valid(tokens) -> bool:
    return all(v is not None for _, v in tokens)


@st.composite
def bob_files(draw):
    n = draw(st.integers(2, 12))
    ids = ["alice", "bob", "carol"]
    rows = []
    for i in range(n):
        claimed = ids[i % 3]
        real = claimed if i % 2 == 0 else ids[(i + 1) % 3]
        token = draw(st.sampled_from(TOKENS[:7])) if draw(st.integers(0, 19)) else draw(
            st.sampled_from(TOKENS)
        )
        rows.append((claimed, real, f"p{i}", token))
    return dict(
        rows=rows,
        newline=draw(st.sampled_from(["\n", "\r\n", "\r"])),
        sep=draw(st.sampled_from([" ", "\t", "  \t "])),
        bom=draw(st.booleans()),
        blank=draw(st.booleans()),
        latin1=draw(st.integers(0, 7)) == 0,
        codec=draw(st.sampled_from(CODECS)),
        damage=draw(st.sampled_from(["none"] * 4 + ["truncate", "flip"])),
        cut=draw(st.floats(0.05, 0.95)),
        name=draw(st.sampled_from(["sys.txt", "cnn.target.txt", "x.tar.notes", "scores"])),
    )


def _text(m) -> str:
    lines = [m["sep"].join((c, r, t, tok)) for c, r, t, (tok, _) in m["rows"]]
    if m["blank"]:
        lines.insert(1, "   ")
    text = m["newline"].join(lines) + m["newline"]
    return ("\ufeff" if m["bom"] else "") + text


def _render(m, folder: Path) -> Path:
    raw = _text(m).encode("utf-8")
    if m["latin1"]:
        raw = raw.replace(b"alice", "alicé".encode("latin-1"), 1)
    name = m["name"]
    codec = m["codec"]
    if codec.startswith("tar"):
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as archive:
            info = tarfile.TarInfo("member.txt")
            info.size = len(raw)
            archive.addfile(info, io.BytesIO(raw))
        raw = buf.getvalue()
        name = name + ".tar"
        if codec == "tar.gz":
            raw, name = gzip.compress(raw, mtime=0), name + ".gz"
    elif codec == "gzip":
        raw, name = gzip.compress(raw, mtime=0), name + ".gz"
    elif codec == "bzip2":
        raw, name = bz2.compress(raw), name + ".bz2"
    elif codec == "xz":
        raw, name = lzma.compress(raw), name + ".xz"
    if m["damage"] == "truncate" and codec != "none":
        raw = raw[: max(1, int(len(raw) * m["cut"]))]
    elif m["damage"] == "flip" and codec != "none":
        k = int(len(raw) * m["cut"])
        raw = raw[:k] + bytes([raw[k] ^ 0x5A]) + raw[k + 1 :]
    path = folder / name
    path.write_bytes(raw)
    return path


def _listing(folder: Path) -> set:
    return {p.relative_to(folder) for p in folder.rglob("*")}


@SETTINGS
@given(bob_files())
def test_bob_files_read_exactly_or_fail_by_name(tmp_path_factory, m):
    folder = tmp_path_factory.mktemp("bob")
    path = _render(m, folder)
    before = _listing(folder)
    damaged = m["damage"] != "none" and m["codec"] != "none"
    valid = _tokens_valid([r[3] for r in m["rows"]]) and not m["latin1"] and not damaged
    # non-finite scores are failures to acquire: each class needs an acquired (finite) one
    for genuine in (True, False):
        finite = [np.isfinite(v) for c, r, _, (_, v) in m["rows"] if (c == r) == genuine and v is not None]
        valid = valid and any(finite)

    def check(frame):
        assert len(frame) == len(m["rows"])
        got = frame["score"].to_numpy()
        want = np.array([v for *_, (_, v) in m["rows"]], dtype=float)
        np.testing.assert_array_equal(got, want)  # NaN == NaN here
        assert frame["trial"].tolist() == [f"{c} {t}" for c, _, t, _ in m["rows"]]
        assert (frame["label"] == "genuine").tolist() == [c == r for c, r, _, _ in m["rows"]]

    outcome(lambda: pbs.read_bob(path), check,
            expect="correct" if valid else ("named" if not damaged else None), family="files")
    assert _listing(folder) == before  # nothing extracted or written


@SETTINGS
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=8), st.sampled_from(CODECS[:4]))
def test_score_lists_parse_numbers_strictly(tmp_path_factory, tokens, codec):
    folder = tmp_path_factory.mktemp("lists")
    m = dict(rows=[("a", "a", "p", t) for t in tokens], newline="\n", sep=" ", bom=False,
             blank=False, latin1=False, codec=codec, damage="none", cut=0.5, name="x")
    genuine = _render(dict(m, name="cnn_genuine.txt"), folder)
    impostor = folder / "cnn_impostor.txt"
    impostor.write_text("0.25\n")
    # non-finite scores are failures to acquire: the genuine list needs a finite one
    valid = _tokens_valid(tokens) and any(np.isfinite(v) for _, v in tokens)

    def check(frame):
        want = np.array([v for _, v in tokens] + [0.25])
        np.testing.assert_array_equal(frame["score"].to_numpy(), want)

    outcome(lambda: pbs.read_score_lists(genuine, impostor, system_name="cnn"), check,
            expect="correct" if valid else "named", family="files")


@pytest.mark.parametrize("text,ok", [(t, v is not None) for t, v in TOKENS if t])
def test_identification_reader_parses_numbers_strictly(text, ok):
    lines = f"alice alice p1 {text}\nbob alice p1 0.5\n"
    outcome(lambda: read_bob_identification(io.StringIO(lines), system_name="s"),
            expect="correct" if ok else "named", family="files")
    assert bool(re.fullmatch(SCORE_PATTERN, text)) == ok


# -------------------------------------------------------------------- names and magic
def test_a_name_containing_tar_is_not_an_archive(tmp_path):
    path = tmp_path / "cnn.target.txt"
    path.write_text("alice alice p1 1.0\nalice bob p2 0.0\n")
    outcome(lambda: pbs.read_bob(path), lambda f: f.score.tolist() == [1.0, 0.0],
            expect="correct", family="files")


@pytest.mark.parametrize("name", ["x.gz", "x.bz2", "x.xz", "x.tgz", "x.tar", "x.tar.gz"])
def test_a_suffix_that_lies_is_a_named_error(tmp_path, name):
    path = tmp_path / name
    path.write_text("alice alice p1 1.0\nalice bob p2 0.0\n")
    outcome(lambda: pbs.read_bob(path), expect="named", family="files")


@pytest.mark.parametrize("codec", ["gzip", "bzip2", "xz", "tar.gz"])
@pytest.mark.parametrize("damage", ["truncate", "empty", "garbage"])
def test_broken_archives_name_the_file(tmp_path, codec, damage):
    raw = b"alice alice p1 1.0\nalice bob p2 0.0\n" * 50
    compress = {"gzip": gzip.compress, "bzip2": bz2.compress, "xz": lzma.compress,
                "tar.gz": gzip.compress}[codec]
    suffix = {"gzip": ".gz", "bzip2": ".bz2", "xz": ".xz", "tar.gz": ".tar.gz"}[codec]
    if codec == "tar.gz":
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as archive:
            info = tarfile.TarInfo("m.txt")
            info.size = len(raw)
            archive.addfile(info, io.BytesIO(raw))
        raw = buf.getvalue()
    data = compress(raw)
    data = {"truncate": data[: len(data) // 2], "empty": b"",
            "garbage": data[:6] + os.urandom(64)}[damage]
    path = tmp_path / f"sys{suffix}"
    path.write_bytes(data)
    outcome(lambda: pbs.read_bob(path), expect="named", family="files", match=str(path))
    with pytest.raises(ScoreFileError):
        pbs.read_bob(path)


def test_urls_are_never_downloaded(monkeypatch):
    import urllib.request

    def refuse(*args, **kwargs):  # pragma: no cover - must not be called
        raise AssertionError("a reader tried to download")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    url = "https://example.invalid/scores.txt"
    for call in (lambda: pbs.read_bob(url), lambda: pbs.read_table(url + ".csv"),
                 lambda: pbs.read_scores([url]), lambda: read_bob_identification(url),
                 lambda: read_pyeer_cmc(url, url)):
        outcome(call, expect="named", family="files")


def test_read_scores_of_nothing_is_a_named_error():
    for source in ([], {}, ()):
        outcome(lambda s=source: pbs.read_scores(s), expect="named", family="files")


@pytest.mark.parametrize("text", [
    "pair,llr,is_target\n7,1_5,true\n8,-1.0,false\n",
    "pair,llr,is_target\n7,2.5,true\n8,-1.0\n9,\n",
    b"pair,llr,is_target\n7,2.5,\xff\n8,-1.0,false\n",
    "pair,llr,is_target,is_target\n7,2.5,true,true\n8,-1.0,false,false\n",
    "",
])
def test_odd_csv_tables(tmp_path, text):
    path = tmp_path / "cnn.csv"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    outcome(lambda: pbs.read_table(
        path, columns={"pair": "trial", "llr": "score", "is_target": "label"}
    ), expect="named", family="files")


def test_csv_with_bom_and_crlf_reads_exactly(tmp_path):
    path = tmp_path / "cnn.csv.gz"
    path.write_bytes(gzip.compress("\ufeffpair,llr,is_target\r\n7,2.5,true\r\n8,-1,false\r\n".encode()))
    outcome(lambda: pbs.read_table(path, columns={"pair": "trial", "llr": "score",
                                                  "is_target": "label"}),
            lambda f: f.score.tolist() == [2.5, -1.0] and f.trial.tolist() == [7, 8],
            expect="correct", family="files")


# -------------------------------------------------------------------- tar members
def _tar(path: Path, members) -> Path:
    with tarfile.open(path, "w") as archive:
        for info, data in members:
            archive.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def _info(name, data=b"", **attrs):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    for k, v in attrs.items():
        setattr(info, k, v)
    return info


GOOD = b"alice alice p1 1.0\nalice bob p2 0.0\n"


@pytest.mark.parametrize("extra", [
    "symlink", "hardlink", "device", "fifo", "directory", "dotdot", "absolute", "control",
    "hidden", "sparse", "oversized",
])
def test_hostile_tar_members_are_skipped_or_refused(tmp_path, extra):
    work = tmp_path / "work"
    work.mkdir()
    members = [(_info("ok.txt", GOOD), GOOD)]
    if extra == "symlink":
        members.append((_info("link.txt", type=tarfile.SYMTYPE, linkname="/etc/passwd"), None))
    elif extra == "hardlink":
        members.append((_info("hard.txt", type=tarfile.LNKTYPE, linkname="ok.txt"), None))
    elif extra == "device":
        members.append((_info("dev", type=tarfile.CHRTYPE, devmajor=1, devminor=3), None))
    elif extra == "fifo":
        members.append((_info("fifo", type=tarfile.FIFOTYPE), None))
    elif extra == "directory":
        members.append((_info("dir", type=tarfile.DIRTYPE), None))
    elif extra == "dotdot":
        members = [(_info("../../escape.txt", GOOD), GOOD)]
    elif extra == "absolute":
        members = [(_info("/tmp/absolute.txt", GOOD), GOOD)]
    elif extra == "control":
        members = [(_info("a\nb\x1b[31m.txt", GOOD), GOOD)]
    elif extra == "hidden":
        members.append((_info(".hidden", b"garbage\n"), b"garbage\n"))
    path = tmp_path / "work" / "scores.tar"
    if extra == "sparse":
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as archive:
            info = _info("big.txt", GOOD)
            info.pax_headers = {"GNU.sparse.map": f"{8 << 30},{len(GOOD)}",
                                "GNU.sparse.size": str(8 << 30), "GNU.sparse.name": "big.txt"}
            archive.addfile(info, io.BytesIO(GOOD))
        path.write_bytes(buf.getvalue())
    elif extra == "oversized":  # a header claiming more bytes than the archive holds
        raw = bytearray(_tar(tmp_path / "tmp.tar", members).read_bytes())
        size_field = f"{(1 << 30):011o}\0".encode()
        raw[124:136] = size_field
        header = raw[:512]
        header[148:156] = b"        "
        raw[148:156] = f"{sum(header):06o}\0 ".encode()
        path.write_bytes(bytes(raw))
    else:
        _tar(path, members)
    before = _listing(tmp_path)
    cwd = os.getcwd()
    os.chdir(work)
    try:
        result = outcome(lambda: pbs.read_bob(path),
                         lambda f: f.score.tolist() == [1.0, 0.0] and len(f) == 2,
                         family="files")
    finally:
        os.chdir(cwd)
    assert _listing(tmp_path) == before
    if extra in ("sparse", "oversized"):
        assert result == "named"
    else:
        assert result == "correct"


# -------------------------------------------------------------------- bombs
# One subprocess reads every bomb: it measures its own address space after importing the
# library (threads reserve a lot of it), caps it 512 MiB above that with
# resource.setrlimit(RLIMIT_AS), and reads each file with max_bytes=64 MiB.
BOMB_SCRIPT = textwrap.dedent("""
    import json, resource, sys
    from pandas_biosig.io import read_bob, FileTooLargeError, ScoreFileError
    status = open("/proc/self/status").read()
    peak = int(status.split("VmPeak:")[1].split()[0]) * 1024
    limit = peak + (512 << 20)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    out = {}
    for path in sys.argv[1:]:
        try:
            read_bob(path, max_bytes=64 << 20)
            out[path] = "read"
        except FileTooLargeError as error:
            out[path] = "FileTooLargeError " + str(error)
        except ScoreFileError as error:
            out[path] = "ScoreFileError " + str(error)
        except MemoryError:
            out[path] = "MemoryError"
    print(json.dumps(out))
""")
BOMBS = ["gzip", "bzip2", "xz", "tar.gz"]


def _bomb(folder: Path, codec: str) -> Path:
    """2 GiB of "0" once decompressed (1 GiB for the tar), as repeated compressed streams:
    a few MB on disk, quick to build."""
    if codec == "tar.gz":
        block = b"0" * (64 << 20)
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as archive:
            for i in range(2):
                info = tarfile.TarInfo(f"m{i}.txt")
                info.size = len(block)
                archive.addfile(info, io.BytesIO(block))
        c = zlib.compressobj(1, zlib.DEFLATED, 31)
        path = folder / "bomb.tar.gz"
        path.write_bytes(c.compress(buf.getvalue()) + c.flush())
        return path
    block = b"0" * (1 << 24)
    member = {"gzip": lambda b: gzip.compress(b, compresslevel=9, mtime=0),
              "bzip2": bz2.compress, "xz": lzma.compress}[codec](block)
    suffix = {"gzip": "gz", "bzip2": "bz2", "xz": "xz"}[codec]
    path = folder / f"bomb.txt.{suffix}"
    path.write_bytes(member * ((2 << 30) // len(block)))
    return path


@pytest.fixture(scope="module")
def bomb_results(tmp_path_factory):
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to measure the address space")
    folder = tmp_path_factory.mktemp("bombs")
    paths = {codec: _bomb(folder, codec) for codec in BOMBS}
    assert all(p.stat().st_size < 8 << 20 for p in paths.values())
    env = dict(os.environ, PYTHONPATH=str(Path(pbs.__file__).parents[1]))
    run = subprocess.run(
        [sys.executable, "-c", BOMB_SCRIPT, *map(str, paths.values())],
        capture_output=True, text=True, env=env,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    results = json.loads(run.stdout)
    return {codec: (str(path), results[str(path)]) for codec, path in paths.items()}


@pytest.mark.parametrize("codec", BOMBS)
def test_bombs_stop_at_max_bytes_under_a_memory_cap(bomb_results, codec):
    """A few MB that decompress to GiBs, read under a cap 512 MiB above the idle process:
    the reader stops at max_bytes with FileTooLargeError naming the file."""
    path, result = bomb_results[codec]
    ok = result.startswith(f"FileTooLargeError {path}")
    COUNTS[("bombs", "named" if ok else "other")] += 1
    assert ok, result


def test_max_bytes_is_the_users_to_raise(tmp_path):
    path = tmp_path / "cnn.txt.gz"
    path.write_bytes(gzip.compress(GOOD))
    with pytest.raises(FileTooLargeError, match="max_bytes=10 "):
        pbs.read_bob(path, max_bytes=10)
    # the bound covers the parse too: the text, and per line (at most 3 here: two line
    # breaks) 4 fields and the row, as PARSE_BYTES_PER_FIELD / _ROW say
    from pandas_biosig.io import PARSE_BYTES_PER_FIELD, PARSE_BYTES_PER_ROW

    cost = len(GOOD) + 3 * (4 * PARSE_BYTES_PER_FIELD + PARSE_BYTES_PER_ROW)
    outcome(lambda: pbs.read_bob(path, max_bytes=cost),
            lambda f: f.score.tolist() == [1.0, 0.0], expect="correct", family="files")
    with pytest.raises(FileTooLargeError, match=f"parsing it would take about {cost} bytes"):
        pbs.read_bob(path, max_bytes=cost - 1)
    for bad in (0, -1, 1.5, "1", True):
        outcome(lambda b=bad: pbs.read_bob(path, max_bytes=b), expect="named", family="files")


# -------------------------------------------------------------------- the parse's memory
# A file of valid lines whose parse would cost more than max_bytes: read in a subprocess
# whose address space is capped PEAK_MULTIPLE * max_bytes above the idle interpreter's.
# Before, max_bytes bounded only the decompressed bytes: a 1.16 MB .txt.gz holding 400 MB
# of bob lines took 4.66 GB, and 0.97 MB of ASVspoof CM lines ended in a bare MemoryError.
PARSE_SCRIPT = textwrap.dedent("""
    import json, resource, sys
    import pandas_biosig.io as pio
    def vm(key):
        status = open("/proc/self/status").read()
        return int(status.split(key + ":")[1].split()[0]) * 1024
    bound = int(sys.argv[1])
    idle = vm("VmHWM")
    if sys.argv[2] == "cap":
        limit = vm("VmPeak") + pio.PEAK_MULTIPLE * bound
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    out = {}
    for reader, path in zip(sys.argv[3::2], sys.argv[4::2]):
        try:
            out[path] = "read %d rows" % len(getattr(pio, reader)(path, max_bytes=bound))
        except pio.FileTooLargeError as error:
            out[path] = "FileTooLargeError " + str(error)
        except MemoryError:
            out[path] = "MemoryError"
    out["peak_above_idle"] = vm("VmHWM") - idle
    print(json.dumps(out))
""")


def _lines_gzip(path: Path, line, total: int) -> Path:
    """``total`` bytes of text made of ``line(i)``, as one gzip member of about 1 MiB of
    lines written again and again (quick to build; the reader must stop early)."""
    block = "".join(line(i) for i in range(1000)).encode() * 64
    member = gzip.compress(block, compresslevel=9, mtime=0)
    with open(path, "wb") as handle:
        for _ in range(max(1, total // len(block))):
            handle.write(member)
    return path


def _bob_line(i):
    return f"c{i} c{i if i % 5 == 0 else i + 1} probe{i} 0.{i % 97}\n"


def _cm_line(i):
    return f"LA_{i:07d} {'-' if i % 3 else 'A07'} {'bonafide' if i % 3 else 'spoof'} {i % 89 / 10}\n"


def _run_parse(bound: int, mode: str, *reads) -> dict:
    env = dict(os.environ, PYTHONPATH=str(Path(pbs.__file__).parents[1]))
    run = subprocess.run(
        [sys.executable, "-c", PARSE_SCRIPT, str(bound), mode, *map(str, reads)],
        capture_output=True, text=True, env=env,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return json.loads(run.stdout)


def test_a_parse_past_max_bytes_stops_with_a_named_error_under_a_memory_cap(tmp_path):
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to measure the address space")
    from pandas_biosig.io import PEAK_MULTIPLE

    bound = 256 << 20
    big = _lines_gzip(tmp_path / "big.txt.gz", _bob_line, 400 << 20)  # past the bytes
    parse = _lines_gzip(tmp_path / "parse.txt.gz", _bob_line, 200 << 20)  # past the parse
    cm = _lines_gzip(tmp_path / "cm.txt.gz", _cm_line, 200 << 20)
    assert all(p.stat().st_size < 8 << 20 for p in (big, parse, cm))
    out = _run_parse(bound, "cap", "read_bob", big, "read_bob", parse, "read_asvspoof_cm", cm)
    assert out[str(big)].startswith(f"FileTooLargeError {big}: more than max_bytes=")
    assert out[str(parse)].startswith(f"FileTooLargeError {parse}: parsing it would take")
    assert out[str(cm)].startswith(f"FileTooLargeError {cm}: parsing it would take")
    assert out["peak_above_idle"] <= PEAK_MULTIPLE * bound


def test_a_parse_within_max_bytes_peaks_within_its_multiple(tmp_path):
    """A file whose estimated parse just fits the bound is read, and the process's peak
    resident memory rises by at most PEAK_MULTIPLE times the bound (the cap on the
    address space is not used here: pyarrow's allocator reserves more than it uses)."""
    if not Path("/proc/self/status").exists():
        pytest.skip("needs /proc to measure the resident memory")
    from pandas_biosig.io import PARSE_BYTES_PER_FIELD, PARSE_BYTES_PER_ROW, PEAK_MULTIPLE

    bound = 64 << 20
    n = bound // (4 * PARSE_BYTES_PER_FIELD + PARSE_BYTES_PER_ROW + 40)
    path = tmp_path / "fits.txt"
    path.write_text("".join(_bob_line(i) for i in range(n)))
    out = _run_parse(bound, "measure", "read_bob", path)
    assert out[str(path)] == f"read {n} rows"
    assert out["peak_above_idle"] <= PEAK_MULTIPLE * bound
