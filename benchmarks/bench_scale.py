"""Scale benchmark: in-memory EER against its floor and two other tools, and the dask path
on Parquet tables up to 10^8 trials, with peak memory.

Run:  python benchmarks/bench_scale.py                      # everything (about 10 minutes)
      python benchmarks/bench_scale.py --quick              # 10^5-10^6 and dask at 10^6
      python benchmarks/bench_scale.py --sizes 1e5 1e6 1e7 --dask-sizes 1e7 1e8
      python benchmarks/bench_scale.py --pyeer-python /path/to/venv/bin/python
      python benchmarks/bench_scale.py --sizes --dask-sizes 1e8 --scheduler threads distributed

Every measurement runs in a fresh Python process (this script with ``--worker``), which
reports its wall time and its peak resident set size (``VmHWM`` of ``/proc/self/status``,
the high-water mark of the whole process: interpreter, libraries, input data, work).
In-memory rows generate their scores in the worker before the clock starts; the dask rows
read Parquet files written under ``--data`` (default ``/tmp/pandas_biosig_bench``; the
files are written once and reused). Results go to ``benchmarks/results/bench_scale.json``
and are printed as Markdown tables.

Data: binormal scores, impostor N(0, 1), genuine N(3, 1), 10 % genuine. The dask tables
have two systems (d' = 3 and 2.5) scoring the same trials, so 10^8 trials are 2 x 10^8
rows, in files of 5 x 10^6 rows (one partition each).

Columns:

- ``np.sort``: sorting the N scores once, the floor of any exact sorted-sweep method;
- ``pbs.eer``: ``pandas_biosig.eer(table)`` on a one-system DataFrame (ROCCH-EER, plus the
  bob.measure threshold and its rates);
- ``sklearn``: ``roc_curve(labels, scores)`` and the EER where ``|FPR - FNR|`` is smallest;
- ``pyeer``: ``calculate_roc`` + ``get_eer_values`` (pyeer's EER routine), when pyeer is
  importable by ``--pyeer-python`` (pyeer is not a dependency of pandas_biosig; install it in
  a throwaway venv);
- ``dask``: ``dd.read_parquet(path).biosig.eer()`` on the threaded scheduler, and for the
  ratio ``pd.read_parquet(path)`` + ``pbs.eer`` on the same 10^7-trial files; with
  ``--scheduler distributed`` (or ``--scheduler threads distributed``), also on a
  ``distributed.LocalCluster`` of worker processes (``--workers``, default one per core,
  one thread each) started in the measuring process before the clock. Its peak memory is
  the sum of the peak RSS (``VmHWM``) of every process of the cluster, each counted once:
  the measuring process (client, scheduler, and the nannies, which a LocalCluster runs
  in-process) and each worker, read by ``Client.run`` after the call. The peaks of
  different processes need not coincide, so the sum is an upper bound of the cluster's
  simultaneous peak.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROWS_PER_FILE = 5_000_000


# ----------------------------------------------------------------------------- worker
def _status() -> dict:
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmHWM", "VmRSS")):
                key, value = line.split(":")
                out[key] = int(value.split()[0]) * 1024
    return out


def _scores(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    genuine = rng.random(n) < 0.1
    scores = rng.standard_normal(n)
    scores[genuine] += 3.0
    return scores, genuine


def _time(func, repeat: int) -> float:
    best = np.inf
    for _ in range(repeat):
        t0 = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - t0)
    return best


def _worker(spec: dict) -> dict:
    kind, n, repeat = spec["kind"], int(spec["n"]), int(spec.get("repeat", 1))
    out = {"kind": kind, "n": n}
    if kind in ("sort", "pbs", "sklearn", "pyeer"):
        scores, genuine = _scores(n)
        if kind == "sort":
            def run():
                np.sort(scores)
        elif kind == "pbs":
            import pandas as pd

            import pandas_biosig as pbs

            table = pd.DataFrame({
                "system": pd.Categorical.from_codes(np.zeros(n, np.int8), ["sys"]),
                "trial": np.arange(n), "label": genuine, "score": scores,
            })

            def run():
                out["eer"] = float(pbs.eer(table).eer.iloc[0])
        elif kind == "sklearn":
            from sklearn.metrics import roc_curve

            def run():
                fpr, tpr, _ = roc_curve(genuine, scores)
                fnr = 1 - tpr
                i = int(np.nanargmin(np.abs(fnr - fpr)))
                out["eer"] = float((fpr[i] + fnr[i]) / 2)
        else:
            from pyeer.eer_stats import calculate_roc, get_eer_values

            gen, imp = scores[genuine], scores[~genuine]

            def run():
                _, fm, fnm = calculate_roc(gen, imp, False, rates=False)
                out["eer"] = float(get_eer_values(fm / imp.size, fnm / gen.size)[3])
        out["rss_before"] = _status()["VmRSS"]
        out["time"] = _time(run, repeat)
    elif kind in ("lazy_eer", "lazy_bootstrap", "lazy_ci"):
        out["rss_before"] = _status()["VmRSS"]
        return _lazy(spec, out)
    elif kind in ("dask", "pandas_parquet", "dask_summary"):
        import pandas_biosig as pbs

        path = spec["path"]
        out["rss_before"] = _status()["VmRSS"]
        scheduler = spec.get("scheduler", "threads")
        if scheduler == "distributed" and kind != "pandas_parquet":
            return _dask_distributed(spec, out)
        t0 = time.perf_counter()  # the threaded rows include importing dask
        if kind == "pandas_parquet":
            import pandas as pd

            table = pd.read_parquet(path)
            res = pbs.eer(table)
        else:
            import dask
            import dask.dataframe as dd

            import pandas_biosig.outofcore._api  # registers ddf.biosig

            ddf = dd.read_parquet(path)
            out["partitions"] = ddf.npartitions
            with dask.config.set(scheduler="threads"):
                res = ddf.biosig.summary() if kind == "dask_summary" else ddf.biosig.eer()
        out["time"] = time.perf_counter() - t0
        out["eer"] = res.eer_rocch.tolist() if kind == "dask_summary" else res.eer.tolist()
    else:
        raise ValueError(kind)
    out["peak_rss"] = _status()["VmHWM"]
    return out


def _peak_rss() -> int:
    """``VmHWM`` of the calling process (run on the cluster's processes too)."""
    return _status()["VmHWM"]


def _dask_distributed(spec: dict, out: dict) -> dict:
    """The dask rows on a ``distributed.LocalCluster`` of worker processes (one thread
    each), started before the clock; the peak memory is the sum of the peak RSS of every
    process of the cluster, each counted once: this one (client, scheduler and the
    workers' nannies, which a LocalCluster runs here) and the workers. Each peak is the
    process's own high-water mark; they need not coincide, so the sum bounds the
    simultaneous peak from above."""
    import dask.dataframe as dd
    import distributed

    import pandas_biosig.outofcore._api  # noqa: F401  (registers ddf.biosig)

    kind = spec["kind"]
    workers = int(spec.get("workers") or len(os.sched_getaffinity(0)))
    t0 = time.perf_counter()
    with distributed.LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        client.wait_for_workers(workers)
        out["cluster_start"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        ddf = dd.read_parquet(spec["path"])
        out["partitions"] = ddf.npartitions
        res = ddf.biosig.summary() if kind == "dask_summary" else ddf.biosig.eer()
        out["time"] = time.perf_counter() - t0
        peaks = {}  # pid -> peak: a process that hosts several roles is counted once
        for nanny in (False, True):
            peaks.update(client.run(_pid_and_peak, nanny=nanny).values())
    out["eer"] = res.eer_rocch.tolist() if kind == "dask_summary" else res.eer.tolist()
    here = os.getpid()
    peaks[here] = _peak_rss()
    out.update(workers=workers, scheduler="distributed", client_peak_rss=peaks[here],
               other_peak_rss=[v for pid, v in sorted(peaks.items()) if pid != here])
    out["peak_rss"] = sum(peaks.values())
    return out


def _pid_and_peak() -> tuple[int, int]:
    return os.getpid(), _peak_rss()


#: Rows of one partition of the lazy tables (generated where a task reads it).
LAZY_ROWS = 5_000_000


def _lazy_partition(i: int, n: int, subjects: int, genuine: float):
    """Partition ``i`` of the lazy table of ``n`` trials: generated from its own seed each
    time a pass reads it, never stored. One system; trial ``t`` belongs to subject
    ``t mod subjects``; a subject's scores are shifted by its own N(0, 0.3^2) effect."""
    import pandas as pd

    start = i * LAZY_ROWS
    m = min(LAZY_ROWS, n - start)
    rng = np.random.default_rng([i, n])
    effect = np.random.default_rng(subjects).normal(0.0, 0.3, subjects)
    trial = np.arange(start, start + m)
    subject = (trial % subjects).astype(np.int32)
    gen = rng.random(m) < genuine
    score = rng.standard_normal(m) + effect[subject]
    score[gen] += 3.0
    return pd.DataFrame({"system": pd.Categorical.from_codes(np.zeros(m, np.int8), ["a"]),
                         "trial": trial, "label": gen, "score": score, "subject": subject})


def lazy_table(n: int, subjects: int = 10_000, genuine: float = 0.01):
    """The dask DataFrame of ``n`` trials, 1 % genuine, ``subjects`` subjects, built
    lazily (``dd.from_map``): no partition exists until a task generates it."""
    import dask.dataframe as dd

    parts = -(-n // LAZY_ROWS)
    meta = _lazy_partition(0, 1, subjects, genuine).iloc[:0]
    return dd.from_map(_lazy_partition, range(parts), n=n, subjects=subjects, genuine=genuine,
                       meta=meta, enforce_metadata=False)


def _lazy(spec: dict, out: dict) -> dict:
    """``eer()``, the subject ``bootstrap(metric="fnmr_at_fmr", target=1e-3)`` (and of
    the EER) or ``ci()`` (FAR, FRR, HTER and DCF at the EER threshold, counts shrunk by
    the subjects' design effect) of a lazy table, threaded or on a LocalCluster; peak RSS
    of every process."""
    import dask

    import pandas_biosig.outofcore as ooc

    ddf = lazy_table(int(spec["n"]), int(spec.get("subjects", 10_000)))
    out["partitions"] = ddf.npartitions
    b = int(spec.get("n_resamples", 200))

    def call():
        if spec["kind"] == "lazy_eer":
            return {"eer": ooc.eer(ddf).eer.tolist()}
        if spec["kind"] == "lazy_ci":
            res = ooc.ci(ddf, metric="hter")
            return {"hter_ci": [res.ci_low.iloc[0], res.ci_high.iloc[0]],
                    "ci_method": res.ci_method.iloc[0]}
        fm = ooc.bootstrap(ddf, metric="fnmr_at_fmr", target=1e-3, n_resamples=b, seed=0)
        e = ooc.bootstrap(ddf, metric="eer", n_resamples=b, seed=0)
        return {"fnmr_at_fmr_ci": [fm.ci_low.iloc[0], fm.ci_high.iloc[0]],
                "eer_ci": [e.ci_low.iloc[0], e.ci_high.iloc[0]], "n_resamples": b}

    if spec.get("scheduler", "threads") != "distributed":
        t0 = time.perf_counter()
        with dask.config.set(scheduler="threads"):
            out.update(call())
        out["time"] = time.perf_counter() - t0
        out["peak_rss"] = _status()["VmHWM"]
        return out
    import distributed

    workers = int(spec.get("workers") or len(os.sched_getaffinity(0)))
    with distributed.LocalCluster(n_workers=workers, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        client.wait_for_workers(workers)
        t0 = time.perf_counter()
        out.update(call())
        out["time"] = time.perf_counter() - t0
        peaks = {}
        for nanny in (False, True):
            peaks.update(client.run(_pid_and_peak, nanny=nanny).values())
    here = os.getpid()
    peaks[here] = _peak_rss()
    out.update(workers=workers, scheduler="distributed", client_peak_rss=peaks[here],
               other_peak_rss=[v for pid, v in sorted(peaks.items()) if pid != here])
    out["peak_rss"] = sum(peaks.values())
    return out


def measure(spec: dict, python: str = sys.executable) -> dict:
    """Run one measurement in a fresh process."""
    proc = subprocess.run(
        [python, __file__, "--worker", json.dumps(spec)], capture_output=True, text=True
    )
    if proc.returncode:
        return {**spec, "error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# ----------------------------------------------------------------------------- data
def make_parquet(path: Path, n_trials: int) -> Path:
    """Two systems scoring ``n_trials`` trials (10 % genuine), in files of 5e6 rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    done = path / "_complete"
    if done.exists():
        return path
    path.mkdir(parents=True, exist_ok=True)
    per_file = ROWS_PER_FILE // 2
    system_dict = pa.array(["a", "b"])
    for i, start in enumerate(range(0, n_trials, per_file)):
        m = min(per_file, n_trials - start)
        rng = np.random.default_rng([i, n_trials])
        genuine = rng.random(m) < 0.1
        cols = {"system": [], "trial": [], "label": [], "score": []}
        for code, d in ((0, 3.0), (1, 2.5)):
            score = rng.standard_normal(m)
            score[genuine] += d
            cols["system"].append(pa.DictionaryArray.from_arrays(np.full(m, code, np.int8), system_dict))
            cols["trial"].append(pa.array(np.arange(start, start + m)))
            cols["label"].append(pa.array(genuine))
            cols["score"].append(pa.array(score))
        table = pa.table({k: pa.chunked_array(v) for k, v in cols.items()})
        pq.write_table(table, path / f"part-{i:05d}.parquet", row_group_size=ROWS_PER_FILE)
    done.touch()
    return path


# ----------------------------------------------------------------------------- report
def _fmt_n(n: int) -> str:
    e = int(round(np.log10(n)))
    return f"10^{e}" if 10**e == n else f"{n:.3g}"


def _mib(x) -> str:
    return "-" if x is None else f"{x / 2**20:,.0f}"


def report(results: dict) -> str:
    lines = []
    mem = results.get("in_memory", [])
    if mem:
        lines += [
            "### In memory: one system, N trials (time = best of repeats)",
            "",
            "| N | np.sort | pbs.eer | sklearn roc_curve + EER | pyeer | pbs.eer / np.sort | "
            "sklearn / pbs.eer | pyeer / pbs.eer | peak RSS MiB (sort / pbs / sklearn / pyeer) |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for n in sorted({r["n"] for r in mem}):
            row = {r["kind"]: r for r in mem if r["n"] == n}

            def t(k, row=row):
                r = row.get(k)
                return None if r is None or "time" not in r else r["time"]

            def cell(k, t=t):
                if t(k) is None:
                    return "n/a"
                ms = t(k) * 1000
                return f"{ms:,.0f} ms" if ms >= 10 else f"{ms:.2f} ms"

            def ratio(a, b, t=t):
                return "n/a" if t(a) is None or t(b) is None else f"{t(a) / t(b):.1f}x"

            peaks = " / ".join(_mib(row.get(k, {}).get("peak_rss")) for k in ("sort", "pbs", "sklearn", "pyeer"))
            lines.append(
                f"| {_fmt_n(n)} | {cell('sort')} | {cell('pbs')} | {cell('sklearn')} | {cell('pyeer')} | "
                f"{ratio('pbs', 'sort')} | {ratio('sklearn', 'pbs')} | {ratio('pyeer', 'pbs')} | {peaks} |"
            )
        lines.append("")
    dsk = results.get("dask", [])
    if dsk:
        ref = next((r for r in dsk if r["kind"] == "pandas_parquet" and "time" in r), None)
        lines += [
            "### Out of core: Parquet, 2 systems, 10 % genuine (fresh process each)",
            "",
            "| trials | rows | path | scheduler | partitions | time | rows / s | peak RSS MiB | time / (in-memory at 10^7) | per-row time / in-memory's |",
            "|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in dsk:
            sched = r.get("scheduler", "threads")
            if "time" not in r:
                lines.append(f"| {_fmt_n(r['n'])} | | {r['kind']} | {sched} | | failed: {r.get('error')} | | | | |")
                continue
            rows = 2 * r["n"]
            rel = per_row = "-"
            if ref is not None:
                rel = f"{r['time'] / ref['time']:.1f}x"
                per_row = f"{(r['time'] / rows) / (ref['time'] / (2 * ref['n'])):.2f}x"
            peak = _mib(r["peak_rss"])
            if sched == "distributed":  # the sum over the cluster's processes, and its parts
                parts = [_mib(r["client_peak_rss"]), *map(_mib, r["other_peak_rss"])]
                peak += f" ({' + '.join(parts)}: client with scheduler and nannies, workers)"
                sched += f", {r['workers']} processes (cluster start {r['cluster_start']:.1f} s, not timed)"
            lines.append(
                f"| {_fmt_n(r['n'])} | {rows:,} | {r['kind']} | {sched} | {r.get('partitions', '-')} | "
                f"{r['time']:.1f} s | {rows / r['time'] / 1e6:.1f} M | {peak} | {rel} | {per_row} |"
            )
        lines.append("")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- main
def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--sizes", nargs="*", type=float, default=[1e5, 1e6, 1e7])
    ap.add_argument("--dask-sizes", nargs="*", type=float, default=[1e7, 1e8])
    ap.add_argument("--pyeer-python", default=os.environ.get("PYEER_PYTHON", sys.executable))
    ap.add_argument("--data", default="/tmp/pandas_biosig_bench")
    ap.add_argument("--summary", action="store_true", help="also time ddf.biosig.summary() at the smallest dask size")
    ap.add_argument("--scheduler", nargs="+", choices=["threads", "distributed"], default=["threads"],
                    help="dask schedulers to run the dask rows on: the threaded one and/or a "
                         "distributed.LocalCluster of worker processes (one per core, one thread each)")
    ap.add_argument("--workers", type=int, default=None,
                    help="worker processes of the distributed cluster (default: one per core)")
    ap.add_argument("--lazy-sizes", nargs="*", type=float, default=[],
                    help="trials of lazily generated one-system tables (1 %% genuine, 10^4 "
                         "subjects) for eer(), the subject bootstrap and ci()")
    ap.add_argument("--lazy-kinds", nargs="+", default=["lazy_eer", "lazy_bootstrap", "lazy_ci"],
                    choices=["lazy_eer", "lazy_bootstrap", "lazy_ci"],
                    help="what to run on the lazy tables")
    ap.add_argument("--n-resamples", type=int, default=200,
                    help="replicates of the lazy tables' bootstraps")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=str(HERE / "results" / "bench_scale.json"))
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(_worker(json.loads(args.worker))))
        return
    if args.quick:
        args.sizes, args.dask_sizes = [1e5, 1e6], [1e6]
    has_pyeer = subprocess.run([args.pyeer_python, "-c", "import pyeer"], capture_output=True).returncode == 0
    results = {"machine": {"cpus": os.cpu_count(), "load_average_at_start": os.getloadavg()}, "in_memory": [], "dask": []}
    for n in (int(x) for x in args.sizes):
        repeat = 3 if n <= 1_000_000 else 1
        for kind in ("sort", "pbs", "sklearn", "pyeer"):
            if kind == "pyeer" and not has_pyeer:
                results["in_memory"].append({"kind": kind, "n": n, "error": "pyeer not importable"})
                continue
            python = args.pyeer_python if kind == "pyeer" else sys.executable
            r = measure({"kind": kind, "n": n, "repeat": repeat}, python)
            results["in_memory"].append(r)
            print(f"{kind:8s} n={n:>11,d}  {r.get('time', float('nan')):8.3f} s  peak {_mib(r.get('peak_rss'))} MiB  {r.get('error', '')}", flush=True)
    for i, n in enumerate(int(x) for x in args.dask_sizes):
        path = make_parquet(Path(args.data) / f"trials_{n}", n)
        runs = [(kind, sched) for sched in args.scheduler
                for kind in ["dask"] + (["dask_summary"] if i == 0 and args.summary else [])]
        if i == 0:
            runs.insert(1, ("pandas_parquet", "-"))
        for kind, sched in runs:
            r = measure({"kind": kind, "n": n, "path": str(path), "scheduler": sched,
                         "workers": args.workers})
            r.setdefault("scheduler", sched)
            results["dask"].append(r)
            print(f"{kind:15s} {sched:11s} trials={n:>13,d}  {r.get('time', float('nan')):8.1f} s  "
                  f"peak {_mib(r.get('peak_rss'))} MiB  {r.get('error', '')}", flush=True)
    results["lazy"] = []
    for n in (int(x) for x in args.lazy_sizes):
        for sched in args.scheduler:
            for kind in args.lazy_kinds:
                r = measure({"kind": kind, "n": n, "scheduler": sched, "workers": args.workers,
                             "n_resamples": args.n_resamples})
                r.setdefault("scheduler", sched)
                results["lazy"].append(r)
                print(f"{kind:15s} {sched:11s} trials={n:>13,d}  {r.get('time', float('nan')):8.1f} s  "
                      f"peak {_mib(r.get('peak_rss'))} MiB {r.get('other_peak_rss', '')} "
                      f"{r.get('error', '')}", flush=True)
    results["machine"]["load_average_at_end"] = os.getloadavg()
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(results, indent=1))
    print()
    print(report(results))
    print(f"load average at start / end: {results['machine']['load_average_at_start']} / "
          f"{results['machine']['load_average_at_end']} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
