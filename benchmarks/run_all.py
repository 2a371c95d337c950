"""The whole speed table in one run: every call as a ratio to ``np.sort`` of the same scores.

Run:  python benchmarks/run_all.py --out benchmarks/results/table.md
      python benchmarks/run_all.py --quick                 # 10^5 / 10^6, 100 replicates
      python benchmarks/run_all.py --other-python /tmp/venv/bin/python   # bob.measure, pyeer
      python benchmarks/run_all.py --only compare          # one row (names: see --skip)

Every row runs in a fresh Python process (this script with ``--worker``). A worker makes
its data first, then runs the call once after resetting the process's resident-set
high-water mark (``/proc/self/clear_refs``), so the peak RSS it reports (``VmHWM``) is that
of the call with its input and the interpreter in memory; a second run under
``tracemalloc`` (numpy reports its buffers to it) gives the peak of the call's own
allocations, as a multiple of the bytes of the input columns.
Then it times the call and ``np.sort`` of the same scores alternately, ``--repeat`` times
each, and keeps the fastest of each (the other jobs on a shared machine only ever slow a
run down); the ratio is taken inside the worker, so both timings saw the same machine.

Data: one system, binormal scores (impostor N(0, 1), genuine N(3, 1)), 10 % genuine,
columns ``system`` (categorical unless the row says otherwise), ``trial`` (int64),
``label`` (bool unless the row says otherwise), ``score`` (float64).

The other tools are measured where they can be imported: scikit-learn (``roc_curve`` and
the EER where ``|FPR - FNR|`` is smallest) by this Python, bob.measure (``eer``) and pyeer
(``calculate_roc`` + ``get_eer_values``) by ``--other-python`` (neither is a dependency of
pandas_biosig: install them in a throwaway venv). A tool that cannot be imported reads
"not installed".
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve()

# name -> (label in the table, which python runs it)
CURVE_CASES = {
    "sort": ("`np.sort` (the floor)", "self"),
    "kernel_eer": ("kernel `Sweep.from_scores(...).eer_threshold()`", "self"),
    "kernel_select": ("kernel `threshold_eer(*eer_points(...))` (selection, no sort)", "self"),
    "eer_threshold": ('`eer(method="threshold")`', "self"),
    "eer_interpolated": ('`eer(method="interpolated")`', "self"),
    "eer_rocch": ('`eer(method="rocch")`', "self"),
    "eer_default": ("`eer()` (default method)", "self"),
    "eer_system_str": ('`eer(method="threshold")`, `system` as str', "self"),
    "eer_system_object": ('`eer(method="threshold")`, `system` as object', "self"),
    "eer_system_object_shared": (
        '`eer(method="threshold")`, `system` as object, one shared str', "self"
    ),
    "eer_label_str": ('`eer(method="threshold")`, `label` as str', "self"),
    "summary": ("`summary()`", "self"),
    "det": ("`det()`", "self"),
    "roc": ("`roc()`", "self"),
    "sklearn": ("scikit-learn `roc_curve` + EER", "self"),
    "bob": ("bob.measure `eer`", "other"),
    "pyeer": ("pyeer `calculate_roc` + `get_eer_values`", "other"),
}
SMALL_CASES = {
    "small_sort": "`np.sort`",
    "small_eer": "`eer()`",
    "small_eer_threshold": '`eer(method="threshold")`',
    "small_summary": "`summary()`",
}
#: Many groups of 100 trials (20 % genuine), every call with ``by="grp"``; the ratio is
#: to one ``np.sort`` of all the scores.
GROUP_CASES = {
    "groups_sort": "`np.sort` of all scores (the floor)",
    "groups_one": "`eer()` of all trials as one group",
    "groups_eer": '`eer(by="grp")`',
    "groups_summary": '`summary(by="grp")`',
    "groups_error_rates": '`error_rates(by="grp", threshold="eer")`',
    "groups_eer_shuffled": '`eer(by="grp")`, rows in random order',
    "groups_summary_shuffled": '`summary(by="grp")`, rows in random order',
    "groups_bootstrap": '`bootstrap(by="grp")` (its defaults: threshold EER, 1,000 replicates)',
    "groups_bootstrap_subjects": (
        '`bootstrap(by="grp")` with a subject column (10 subjects per group; subjects '
        "resampled, threshold EER, 1,000 replicates)"),
    "groups_compare_groups": (
        '`compare_groups(group="grp")` (10 subjects per group; its defaults: FMR and FNMR '
        "at the FMR-1e-3 threshold, subject bootstrap of 1,000 replicates, every pair)"),
    "groups_compare_groups_baseline": (
        '`compare_groups(group="grp", baseline=0)` (the same, every group against group 0: '
        "G - 1 pairs)"),
    "groups_group_rates": (
        '`group_rates(group="grp")` (the same table; its defaults: cluster Wilson intervals)'),
    "groups_pad_metrics": (
        '`pad_metrics(by="grp")` (20 bona fide and 4 species of 20 attacks per group)'),
    "groups_cmc": (
        '`cmc(by="grp")` (a search of 10 probes, one unmated, against 20 references per '
        "group: 200 comparisons; the ratio to `np.sort` of those scores)"),
}
GROUP_SIZE = 100
#: A call that takes longer (seconds) is not run again under ``tracemalloc``: its traced
#: peak is left out (the peak RSS stays).
TRACE_LIMIT = 60
#: ``compare_groups`` reports every pair of groups (G (G - 1) rows): run up to this many.
COMPARE_GROUPS_MAX = 1000
#: Subjects per group in the ``compare_groups`` row.
GROUP_SUBJECTS = 10
MODULES = {"sklearn": "sklearn", "bob": "bob.measure", "pyeer": "pyeer"}
#: The compare row: systems scoring the same trials (all pairs paired), and their subjects.
COMPARE_SYSTEMS, COMPARE_SUBJECTS = 20, 1000


# ------------------------------------------------------------------------- worker side
def _status() -> dict:
    out = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith(("VmRSS", "VmHWM")):
                key, value = line.split(":")
                out[key] = int(value.split()[0]) * 1024
    return out


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _arrays(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    genuine = rng.random(n) < 0.1
    scores = rng.normal(np.where(genuine, 3.0, 0.0), 1.0)
    return scores, genuine


def _table(n: int, *, system_dtype="category", label_dtype="bool"):
    import pandas as pd

    scores, genuine = _arrays(n)
    table = pd.DataFrame(
        {
            "system": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["sys"]),
            "trial": np.arange(n),
            "label": genuine,
            "score": scores,
        }
    )
    if system_dtype == "str":
        table["system"] = table["system"].astype(str)
    elif system_dtype == "object":
        # dtype=object said explicitly: pandas 3 would store a plain object array as str;
        # np.full makes a str object per row (as a str column cast to object holds)
        table["system"] = pd.Series(np.full(n, "sys", dtype=object), dtype=object)
    elif system_dtype == "object_shared":
        # every row the same str object, as read_csv(dtype=object) and a categorical cast
        # to object give
        table["system"] = pd.Series(["sys"] * n, dtype=object)
    if label_dtype == "str":
        table["label"] = np.where(genuine, "genuine", "impostor").astype(object)
    return table


def _group_table(groups: int, seed: int = 0, shuffled: bool = False):
    """``groups`` groups of :data:`GROUP_SIZE` trials, 20 % genuine, binormal scores
    (impostor N(0, 1), genuine N(2, 1)), one system; ``grp`` an int64 column, its rows
    group after group, or in random order (``shuffled``)."""
    import pandas as pd

    n = groups * GROUP_SIZE
    rng = np.random.default_rng(seed)
    genuine = rng.random(n) < 0.2
    table = pd.DataFrame({
        "system": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["sys"]),
        "grp": np.repeat(np.arange(groups), GROUP_SIZE), "trial": np.arange(n),
        "label": genuine, "score": rng.normal(np.where(genuine, 2.0, 0.0), 1.0),
    })
    if shuffled:
        table = table.iloc[rng.permutation(n)].reset_index(drop=True)
    return table


def _demographic_table(groups: int):
    """:func:`_group_table` as a demographic table: ``grp`` the group of the probe and of
    the reference (every impostor trial within its group), :data:`GROUP_SUBJECTS`
    subjects per group (trial ``i`` of a group belongs to subject ``i`` mod 10)."""
    table = _group_table(groups)
    within = np.tile(np.arange(GROUP_SIZE) % GROUP_SUBJECTS, groups)
    table["subject"] = table["grp"].to_numpy() * GROUP_SUBJECTS + within
    table["ref_grp"] = table["grp"]
    return table


def _pad_table(groups: int):
    """:func:`_group_table` as a PAD table: the genuine trials bona fide, the others
    attacks of four species (``pai``) in turn."""
    table = _group_table(groups)
    attack = ~table["label"].to_numpy()
    table["label"] = np.where(attack, "attack", "bona fide")
    species = np.array(["print", "replay", "mask", "makeup"], dtype=object)
    table["pai"] = np.where(attack, species[np.arange(len(table)) % 4], None)
    return table


def _search_table(groups: int, probes: int = 10, references: int = 20, seed: int = 0):
    """``groups`` searches (``grp``) of ``probes`` probes against ``references`` references
    each, every comparison a row (probe-major), ids distinct across groups; the last probe
    of each group unmated (open-set), the others with one mate scoring N(3, 1) against
    non-mates N(0, 1)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    per = probes * references
    n = groups * per
    grp = np.repeat(np.arange(groups), per)
    probe = np.tile(np.repeat(np.arange(probes), references), groups)
    ref = np.tile(np.arange(references), groups * probes)
    mate = (ref == np.repeat(rng.integers(0, references, groups * probes), references)) & (
        probe != probes - 1)
    return pd.DataFrame({
        "system": pd.Categorical.from_codes(np.zeros(n, dtype=np.int8), ["sys"]), "grp": grp,
        "probe": grp * probes + probe, "reference": grp * references + ref,
        "score": rng.standard_normal(n) + 3.0 * mate, "mate": mate,
    })


def _make_groups(case: str, groups: int):
    """(input, call) of a many-groups row."""
    import pandas_biosig as pbs

    if case == "groups_compare_groups":
        demo = _demographic_table(groups)
        return demo, lambda: pbs.compare_groups(demo, group="grp", reference_group="ref_grp",
                                                seed=0)
    if case == "groups_bootstrap_subjects":
        demo = _demographic_table(groups)
        return demo, lambda: pbs.bootstrap(demo, by="grp", seed=0)
    if case == "groups_compare_groups_baseline":
        demo = _demographic_table(groups)
        return demo, lambda: pbs.compare_groups(demo, group="grp", reference_group="ref_grp",
                                                baseline=0, seed=0)
    if case == "groups_group_rates":
        demo = _demographic_table(groups)
        return demo, lambda: pbs.group_rates(demo, group="grp", reference_group="ref_grp")
    if case == "groups_pad_metrics":
        pad = _pad_table(groups)
        return pad, lambda: pbs.pad_metrics(pad, by="grp")
    if case == "groups_cmc":
        search = _search_table(groups)
        return search, lambda: pbs.cmc(search, by="grp")
    table = _group_table(groups, shuffled=case.endswith("_shuffled"))
    calls = {
        "groups_sort": lambda: np.sort(table["score"].to_numpy()),
        "groups_one": lambda: pbs.eer(table),
        "groups_eer": lambda: pbs.eer(table, by="grp"),
        "groups_summary": lambda: pbs.summary(table, by="grp"),
        "groups_error_rates": lambda: pbs.error_rates(table, by="grp", threshold="eer"),
        "groups_eer_shuffled": lambda: pbs.eer(table, by="grp"),
        "groups_summary_shuffled": lambda: pbs.summary(table, by="grp"),
        "groups_bootstrap": lambda: pbs.bootstrap(table, by="grp", seed=0),
    }
    return table, calls[case]


def _input_bytes(obj) -> int:
    if isinstance(obj, tuple):
        return int(sum(a.nbytes for a in obj))
    return int(obj.memory_usage(deep=True, index=False).sum())


def _make(case: str, n: int):
    """(input, call) for one case; the input is built before any clock starts."""
    if case.startswith("groups_"):
        return _make_groups(case, n)
    if case in ("sort", "kernel_eer", "kernel_select", "sklearn", "bob", "pyeer"):
        scores, genuine = _arrays(n)
        data = (scores, genuine)
        if case == "sort":
            return data, lambda: np.sort(scores)
        if case == "kernel_eer":
            from pandas_biosig._kernels.rates import Sweep

            return data, lambda: Sweep.from_scores(scores, genuine).eer_threshold()
        if case == "kernel_select":
            from pandas_biosig._kernels.rates import threshold_eer
            from pandas_biosig._kernels.select import eer_points

            return data, lambda: threshold_eer(*eer_points(scores, genuine))
        if case == "sklearn":
            from sklearn.metrics import roc_curve

            def run():
                fpr, tpr, _ = roc_curve(genuine, scores)
                fnr = 1 - tpr
                i = int(np.nanargmin(np.abs(fnr - fpr)))
                return (fpr[i] + fnr[i]) / 2

            return data, run
        neg, pos = scores[~genuine], scores[genuine]
        if case == "bob":
            import bob.measure

            return data, lambda: bob.measure.eer(neg, pos)
        from pyeer.eer_stats import calculate_roc, get_eer_values

        def run():
            _, fm, fnm = calculate_roc(pos, neg, False, rates=False)
            return get_eer_values(fm / neg.size, fnm / pos.size)[3]

        return data, run

    import pandas_biosig as pbs

    small = case.startswith("small_")
    base = case.removeprefix("small_")
    kwargs = {}
    if base == "eer_system_str":
        kwargs["system_dtype"] = "str"
    elif base == "eer_system_object":
        kwargs["system_dtype"] = "object"
    elif base == "eer_system_object_shared":
        kwargs["system_dtype"] = "object_shared"
    elif base == "eer_label_str":
        kwargs["label_dtype"] = "str"
    table = _table(n, **kwargs)
    calls = {
        "sort": lambda: np.sort(table["score"].to_numpy()),
        "eer": lambda: pbs.eer(table),
        "eer_default": lambda: pbs.eer(table),
        "eer_threshold": lambda: pbs.eer(table, method="threshold"),
        "eer_interpolated": lambda: pbs.eer(table, method="interpolated"),
        "eer_rocch": lambda: pbs.eer(table, method="rocch"),
        "eer_system_str": lambda: pbs.eer(table, method="threshold"),
        "eer_system_object": lambda: pbs.eer(table, method="threshold"),
        "eer_system_object_shared": lambda: pbs.eer(table, method="threshold"),
        "eer_label_str": lambda: pbs.eer(table, method="threshold"),
        "summary": lambda: pbs.summary(table),
        "det": lambda: pbs.det(table),
        "roc": lambda: pbs.roc(table),
    }
    del small
    return table, calls[base]


def _worker_curve(case: str, n: int, repeat: int) -> dict:
    data, call = _make(case, n)
    scores = data[0] if isinstance(data, tuple) else data["score"].to_numpy()
    out = {"case": case, "n": n, "input_bytes": _input_bytes(data)}
    gc.collect()
    rss0 = _status()["VmRSS"]
    exact = _reset_peak()
    t0 = time.perf_counter()
    call()
    first = time.perf_counter() - t0
    st = _status()
    out.update(peak_rss=st["VmHWM"] if exact else None, rss_before=rss0)
    out["extra_bytes"] = st["VmHWM"] - rss0 if exact else None
    gc.collect()
    out["traced_peak"] = None
    if first < TRACE_LIMIT:  # tracing slows a call with many Python steps severalfold
        tracemalloc.start()
        call()
        out["traced_peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    # a slow call is timed once more only; the sort as often as asked
    reps = repeat if first < 20 else 1
    best_call, best_sort = (first if reps == 1 else np.inf), np.inf
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        np.sort(scores)
        best_sort = min(best_sort, time.perf_counter() - t0)
        if reps > 1:
            gc.collect()
            t0 = time.perf_counter()
            call()
            best_call = min(best_call, time.perf_counter() - t0)
            reps -= 1
    out.update(time=best_call, sort_time=best_sort)
    return out


def _worker_small(case: str, n: int, repeat: int) -> dict:
    data, call = _make(case, n)
    for _ in range(3):
        call()
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - t0)
    return {"case": case, "n": n, "time": best}


def _epc_table(n_systems, n):
    import pandas as pd

    rng = np.random.default_rng(1)
    genuine = rng.random(n) < 0.1
    frames = []
    shared = rng.standard_normal(n)
    for split in ("dev", "eval"):
        for s in range(n_systems):
            noise = 0.6 * shared + 0.8 * rng.standard_normal(n)
            frames.append(pd.DataFrame({
                "system": f"s{s}", "trial": np.arange(n), "label": genuine,
                "score": np.where(genuine, 2.5 + 0.1 * s, 0.0) + noise, "split": split,
            }))
    return pd.concat(frames, ignore_index=True)


def _compare_table(n_systems, n, n_subjects):
    """``n_systems`` correlated systems scoring the same ``n`` trials of ``n_subjects``
    subjects (10 % genuine): every pair is paired on all its trials."""
    import pandas as pd

    rng = np.random.default_rng(2)
    genuine = rng.random(n) < 0.1
    subject = rng.integers(0, n_subjects, n)
    shared = rng.standard_normal(n)
    scores = np.concatenate([
        np.where(genuine, 2.0 + 0.05 * s, 0.0) + 0.6 * shared + 0.8 * rng.standard_normal(n)
        for s in range(n_systems)
    ])
    names = [f"s{s:02d}" for s in range(n_systems)]
    return pd.DataFrame({
        "system": pd.Categorical.from_codes(np.repeat(np.arange(n_systems), n), names),
        "trial": np.tile(np.arange(n), n_systems),
        "label": np.tile(genuine, n_systems),
        "subject": np.tile(subject, n_systems),
        "score": scores,
    })


def _worker_bootstrap(case: str, n: int, replicates: int) -> dict:
    import pandas_biosig as pbs
    import pandas_biosig.verification._resampling

    if case == "compare":  # the default test on a table with subjects: subject bootstrap of the HTER
        table = _compare_table(COMPARE_SYSTEMS, n, COMPARE_SUBJECTS)
        t0 = time.perf_counter()
        out = pbs.compare(table, test="bootstrap", n_resamples=replicates, seed=0)
        assert set(out["resample"]) == {"subject"}
    elif case == "epc":
        table = _epc_table(5, n)
        weights = np.linspace(0, 1, 50)
        t0 = time.perf_counter()
        pbs.epc_bootstrap(table, weight=weights, n_resamples=replicates, seed=0)
    else:
        metric = case.removeprefix("boot_")
        table = _table(n)
        t0 = time.perf_counter()
        pbs.bootstrap(table, metric=metric, n_resamples=replicates, seed=0)
    return {"case": case, "n": n, "replicates": replicates, "time": time.perf_counter() - t0}


def _import_time(python: str, statement: str, repeat: int) -> float:
    best = np.inf
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([python, "-c", statement], check=True, env=env)
        best = min(best, time.perf_counter() - t0)
    return best


# ------------------------------------------------------------------------- driver side
def _run_worker(python: str, args: list[str], timeout: float) -> dict:
    env = dict(os.environ)
    root = str(HERE.parent.parent)
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    try:
        proc = subprocess.run(
            [python, str(HERE), "--worker", *args],
            capture_output=True, text=True, env=env, timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return {"error": f"over {timeout:.0f} s"}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["failed"])[-1]
        return {"error": last[:120]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _importable(python: str, module: str) -> bool:
    proc = subprocess.run([python, "-c", f"import {module}"], capture_output=True)
    return proc.returncode == 0


def _version(python: str, module: str) -> str:
    code = (
        "import importlib.metadata as m, sys\n"
        f"name = {module!r}\n"
        "try:\n print(m.version(name))\n"
        "except Exception:\n print('?')"
    )
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True)
    return proc.stdout.strip() or "?"


def _fmt_n(n: int) -> str:
    e = int(round(np.log10(n)))
    sup = str(e).translate(str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"10{sup}" if 10**e == n else f"{n:,}"


def _seconds(t: float) -> str:
    if t < 1e-3:
        return f"{t * 1e6:.0f} µs"
    if t < 1:
        return f"{t * 1e3:.1f} ms" if t < 0.1 else f"{t * 1e3:.0f} ms"
    return f"{t:.2f} s"


def _machine() -> list[str]:
    import numpy
    import pandas

    model = "?"
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        model = next(
            (ln.split(":", 1)[1].strip() for ln in out.splitlines() if ln.startswith("Model name")),
            "?",
        )
    except OSError:
        pass
    try:
        mem = next(ln for ln in open("/proc/meminfo") if ln.startswith("MemTotal"))
        mem_gib = int(mem.split()[1]) / 2**20
    except (OSError, StopIteration):
        mem_gib = float("nan")
    versions = [f"numpy {numpy.__version__}", f"pandas {pandas.__version__}"]
    for mod in ("xarray", "scipy", "scikit-learn"):
        versions.append(f"{mod} {_version(sys.executable, mod)}")
    return [
        f"{os.cpu_count()} CPUs (`nproc`: {len(os.sched_getaffinity(0))}), {model}, "
        f"{mem_gib:.0f} GiB; Python {platform.python_version()}; " + ", ".join(versions),
    ]


class _SkipAllBut(list):
    """``case in skip`` for ``--only``: true of every case not named."""

    def __init__(self, skip, only):
        super().__init__(skip)
        self.only = set(only)

    def __contains__(self, case):
        return case not in self.only or super().__contains__(case)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=float, nargs="+", default=[1e6, 1e7])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--groups", type=float, nargs="+", default=[1e3, 1e4, 1e5],
                    help=f"numbers of groups of {GROUP_SIZE} trials in the many-groups rows")
    ap.add_argument("--small-n", type=int, default=10_000)
    ap.add_argument("--small-repeat", type=int, default=300)
    ap.add_argument("--bootstrap-n", type=int, default=1_000_000)
    ap.add_argument("--replicates", type=int, default=1000)
    ap.add_argument("--epc-n", type=int, default=100_000)
    ap.add_argument("--compare-n", type=int, default=100_000,
                    help=f"common trials of the {COMPARE_SYSTEMS} systems of the compare row")
    ap.add_argument("--import-repeat", type=int, default=7)
    ap.add_argument("--other-python", default=os.environ.get("BENCH_OTHER_PYTHON"),
                    help="a Python that can import bob.measure and/or pyeer")
    ap.add_argument("--pyeer-max-n", type=float, default=1e6,
                    help="largest N for pyeer (about 170x np.sort)")
    ap.add_argument("--skip", nargs="*", default=[], help="case names to leave out")
    ap.add_argument("--only", nargs="*", default=None,
                    help="case names to run, the others left out (e.g. --only compare)")
    ap.add_argument("--quick", action="store_true",
                    help="10^5 and 10^6, 100 replicates, 10^4 trials per system in the compare row")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--out", help="write the Markdown table here")
    ap.add_argument("--json", help="write the raw measurements here")
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.worker:
        kind, case, n, rep = args.worker[0], args.worker[1], int(args.worker[2]), int(args.worker[3])
        if kind == "curve":
            res = _worker_curve(case, n, rep)
        elif kind == "small":
            res = _worker_small(case, n, rep)
        else:
            res = _worker_bootstrap(case, n, rep)
        print(json.dumps(res))
        return

    if args.only is not None:  # --only: every other case is skipped
        args.skip = _SkipAllBut(args.skip, args.only)
    if args.quick:
        args.sizes, args.replicates, args.repeat = [1e5, 1e6], 100, 3
        args.groups = [1e3, 1e4]
        args.compare_n = min(args.compare_n, 10_000)
    sizes = [int(s) for s in args.sizes]
    other = args.other_python or sys.executable
    available = {
        "sklearn": _importable(sys.executable, "sklearn"),
        "bob": _importable(other, "bob.measure"),
        "pyeer": _importable(other, "pyeer"),
    }
    load = [os.getloadavg()[0]]
    results: dict = {"curve": {}, "groups": {}, "small": {}, "bootstrap": {}, "import": {}}
    t_start = time.perf_counter()

    def say(msg):
        print(f"[{time.perf_counter() - t_start:7.1f} s] {msg}", file=sys.stderr, flush=True)

    for case, (_, who) in CURVE_CASES.items():
        if case in args.skip:
            continue
        for n in sizes:
            if case in MODULES and not available[case]:
                res = {"error": "not installed"}
            elif case == "pyeer" and n > args.pyeer_max_n:
                res = {"error": "not run (> --pyeer-max-n)"}
            else:
                python = other if who == "other" else sys.executable
                res = _run_worker(python, ["curve", case, str(n), str(args.repeat)], args.timeout)
            results["curve"][f"{case}:{n}"] = res
            say(f"{case} {n}: {res}")
        load.append(os.getloadavg()[0])
    _run_groups(args, results, say)
    for case in SMALL_CASES:
        if case in args.skip:
            continue
        res = _run_worker(sys.executable, ["small", case, str(args.small_n), str(args.small_repeat)],
                          args.timeout)
        results["small"][case] = res
        say(f"{case}: {res}")
    from pandas_biosig.verification import BOOTSTRAP_METRICS

    boot_cases = [f"boot_{m}" for m in BOOTSTRAP_METRICS if m.startswith("eer")] + ["epc", "compare"]
    for case in boot_cases:
        if case in args.skip:
            continue
        n = {"epc": args.epc_n, "compare": args.compare_n}.get(case, args.bootstrap_n)
        res = _run_worker(sys.executable, ["boot", case, str(n), str(args.replicates)], args.timeout)
        results["bootstrap"][case] = res
        say(f"{case}: {res}")
    load.append(os.getloadavg()[0])
    if "import" not in args.skip:
        env_root = str(HERE.parent.parent)
        stmt = f"import sys; sys.path.insert(0, {env_root!r}); "
        results["import"] = {
            "pbs": _import_time(sys.executable, stmt + "import pandas_biosig", args.import_repeat),
            "base": _import_time(sys.executable, stmt + "import pandas, xarray", args.import_repeat),
            "pandas": _import_time(sys.executable, stmt + "import pandas", args.import_repeat),
        }
        say(f"import: {results['import']}")
    load.append(os.getloadavg()[0])
    results["machine"] = _machine()
    results["load"] = load
    results["other_versions"] = {
        k: _version(other if CURVE_CASES[k][1] == "other" else sys.executable,
                    {"sklearn": "scikit-learn", "bob": "bob.measure", "pyeer": "pyeer"}[k])
        for k in MODULES if available[k]
    }
    text = _markdown(results, sizes, args)
    print(text)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps(results, indent=1))


def _run_groups(args, results, say) -> None:
    """The many-groups rows: each case at each number of groups, in its own process."""
    for case in GROUP_CASES:
        if case in args.skip:
            continue
        for groups in (int(g) for g in args.groups):
            if case == "groups_compare_groups" and groups > COMPARE_GROUPS_MAX:
                res = {"error": f"not run ({groups * (groups - 1):,} rows)"}
                results["groups"][f"{case}:{groups}"] = res
                continue
            res = _run_worker(sys.executable, ["curve", case, str(groups), str(args.repeat)],
                              args.timeout)
            results["groups"][f"{case}:{groups}"] = res
            say(f"{case} {groups}: {res}")


def _markdown_groups(results, args) -> list[str]:
    """The many-groups table: ratios to ``np.sort`` of all scores, and the times."""
    groups = [int(g) for g in args.groups]
    found = results.get("groups", {})
    if not found:
        return []
    lines = [
        "",
        f"**Many groups** of {GROUP_SIZE} trials (20 % genuine, one system, `by=\"grp\"`): "
        f"fastest of {args.repeat} runs (one run when a call takes over 20 s), as a ratio to "
        "the fastest `np.sort` of all the scores in the same process; the time in brackets.",
        "",
        "| call | " + " | ".join(f"{_fmt_n(g)} groups" for g in groups) + " |",
        "|---|" + "---|" * len(groups),
    ]
    for case, label in GROUP_CASES.items():
        if case in args.skip:
            continue
        cells = []
        for g in groups:
            r = found.get(f"{case}:{g}", {})
            if not r:
                cells.append("")
            elif "error" in r:
                cells.append(r["error"])
            elif case == "groups_sort":
                cells.append(f"1× ({_seconds(r['sort_time'])})")
            else:
                cells.append(f"{r['time'] / r['sort_time']:.2f}× ({_seconds(r['time'])})")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def _markdown(results, sizes, args) -> str:
    big = max(sizes)
    lines = [
        "Machine: " + results["machine"][0] + ".",
        f"Load average during the run: {min(results['load']):.1f}–{max(results['load']):.1f}.",
        "",
        "**One system, N trials, 10 % genuine**: fastest of "
        f"{args.repeat} runs, as a ratio to the fastest `np.sort` of the same scores in the "
        "same process; at the largest N, the peak RSS of the whole process during the call "
        "(interpreter and input included) and the peak of the call's own allocations "
        "traced by `tracemalloc`, as a multiple of the input columns' bytes.",
        "",
        "| call | " + " | ".join(_fmt_n(n) for n in sizes)
        + f" | time at {_fmt_n(big)} | peak RSS at {_fmt_n(big)} | traced peak / input |",
        "|---|" + "---|" * (len(sizes) + 3),
    ]
    versions = results.get("other_versions", {})
    for case, (label, _) in CURVE_CASES.items():
        if case in args.skip:
            continue
        if case in versions:
            label = label.replace("`eer`", f"{versions[case]} `eer`").replace(
                "scikit-learn", f"scikit-learn {versions[case]}").replace(
                "pyeer ", f"pyeer {versions[case]} ")
        cells = []
        for n in sizes:
            r = results["curve"].get(f"{case}:{n}", {})
            if "error" in r:
                cells.append(r["error"])
            elif case == "sort":
                cells.append(f"1× ({_seconds(r['sort_time'])})")
            else:
                cells.append(f"{r['time'] / r['sort_time']:.2f}×")
        r = results["curve"].get(f"{case}:{big}", {})
        if "error" in r or not r:
            tail = ["", "", ""]
        else:
            t = r["sort_time"] if case == "sort" else r["time"]
            peak = r.get("peak_rss")
            tail = [
                _seconds(t),
                f"{peak / 2**20:,.0f} MiB" if peak else "?",
                (f"{r['traced_peak'] / r['input_bytes']:.2f}×" if r.get("traced_peak")
                 else "not traced"),
            ]
        lines.append(f"| {label} | " + " | ".join(cells + tail) + " |")
    lines += _markdown_groups(results, args)
    small = results["small"]
    if small:
        lines += [
            "",
            f"**Small tables** ({args.small_n:,} trials, fastest of {args.small_repeat} calls):",
            "",
            "| call | time |",
            "|---|---|",
        ]
        for case, label in SMALL_CASES.items():
            r = small.get(case)
            if r:
                lines.append(f"| {label} | {r.get('error') or _seconds(r['time'])} |")
    boot = results["bootstrap"]
    if boot:
        lines += [
            "",
            f"**Bootstrap**: {args.replicates} replicates, one run each; `bootstrap(metric=...)` on "
            f"{args.bootstrap_n:,} trials of one system; the EPC band on 5 systems × "
            f"{args.epc_n:,} eval trials (thresholds chosen on as many dev trials) × 50 weights; "
            f"`compare` on {COMPARE_SYSTEMS} systems × {args.compare_n:,} common trials of "
            f"{COMPARE_SUBJECTS:,} subjects ({COMPARE_SYSTEMS * (COMPARE_SYSTEMS - 1) // 2} "
            "pairs, the default: subjects resampled, HTER at each system's EER threshold).",
            "",
            "| call | time |",
            "|---|---|",
        ]
        for case, r in boot.items():
            label = {
                "epc": "`epc_bootstrap(weight=50 values)`",
                "compare": '`compare(test="bootstrap")`',
            }.get(case, f'`bootstrap(metric="{case.removeprefix("boot_")}")`')
            lines.append(f"| {label} | {r.get('error') or _seconds(r['time'])} |")
    imp = results["import"]
    if imp:
        lines += [
            "",
            f"**Import** (fresh interpreter, fastest of {args.import_repeat}): "
            f"`import pandas_biosig` {_seconds(imp['pbs'])}, `import pandas, xarray` "
            f"{_seconds(imp['base'])} (ratio {imp['pbs'] / imp['base']:.2f}×), `import pandas` "
            f"{_seconds(imp['pandas'])}.",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
