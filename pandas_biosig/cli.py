"""``biosig``: the command-line report.

``biosig report`` evaluates score files (bob, NIST/Kaldi, score lists; read by
:func:`pandas_biosig.read_scores`), tidy CSV/Parquet tables, or, with no file, the bundled
example, and prints a per-system report in Markdown. With ``--out DIR`` it writes a report
folder instead::

    DIR/report.md          the report, with the figures linked
    DIR/*.csv              every table, as numbers (summary, eer_bootstrap, apriori, compare)
    DIR/*.tex              the same tables in LaTeX (--latex)
    DIR/det.png, epc.png   the figures (and .pdf with --pdf)

Thresholds follow bob.measure: candidates are the midpoints between consecutive distinct
scores, a trial is accepted iff its score is at least the threshold, and the a-priori
threshold is the EER threshold of the development split, applied unchanged to the
evaluation split.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from . import __version__, datasets
from ._schema import SchemaError
from .export import HEADERS, to_latex, to_markdown
from .io import FORMATS, read_scores
from .metrics import error_rates, summary
from .resampling import bootstrap
from .significance import ADJUST_METHODS, TESTS, DecisionTestError, ci, compare

__all__ = ["main"]

#: The columns of the per-system summary table, in order.
SUMMARY_SHOWN = [
    "system", "split", "n_genuine", "n_impostor", "eer_rocch", "eer_threshold", "threshold",
    "auc", "min_hter", "fmr100", "fmr1000", "min_dcf", "cllr", "min_cllr",
]
_PRECISION = {"threshold": 4, "auc": 4, "min_dcf": 3, "cllr": 3, "min_cllr": 3}
NOTES = (
    "Rates in %. EER (ROCCH): the EER of the ROC convex hull. EER (threshold): bob.measure's "
    "EER, (FAR + FRR)/2 at Threshold, the candidate threshold (a midpoint between consecutive "
    "distinct scores) that minimizes |FAR - FRR|; a trial is accepted iff score >= threshold. "
    "FMR100 / FMR1000: FNMR at FMR <= 1% / 0.1%. minDCF at p_target = 0.01 and unit costs; "
    "Cllr in bits."
)
ERROR_MATPLOTLIB = (
    "the report's figures (--out) need matplotlib, a dependency of pandas-biosig that is "
    "missing from this environment: pip install matplotlib"
)


class _Steps:
    """Progress lines on stderr, only when it is a terminal."""

    def __init__(self, total: int, enabled: bool | None = None):
        self.total = total
        self.done = 0
        self.enabled = sys.stderr.isatty() if enabled is None else enabled
        self.start = time.perf_counter()

    def __call__(self, what: str) -> None:
        self.done += 1
        if self.enabled:
            elapsed = time.perf_counter() - self.start
            print(f"biosig: [{self.done}/{self.total}] {what} ({elapsed:.1f} s)", file=sys.stderr)


class _Report:
    """What one report holds: its Markdown sections, tables and figures."""

    def __init__(self, title: str):
        self.title = title
        self.sections: list[str] = []
        self.tables: dict[str, tuple[pd.DataFrame, dict]] = {}

    def add(self, heading: str, body: str) -> None:
        self.sections.append(f"## {heading}\n\n{body.rstrip()}\n")

    def table(self, name: str, heading: str, frame: pd.DataFrame, *, intro: str = "",
              header: dict[str, str] | None = None, **options) -> None:
        text = _rename_headers(to_markdown(frame, **options), header, "markdown")
        self.add(heading, (intro + "\n\n" if intro else "") + text)
        self.tables[name] = (frame, {**options, "header": header})

    def markdown(self, figures: Sequence[tuple[str, str]] = ()) -> str:
        parts = [f"# pandas_biosig {__version__}: {self.title}\n", *self.sections]
        if figures:
            parts.append(
                "## Figures\n\n" + "\n\n".join(f"![{text}]({name})" for name, text in figures) + "\n"
            )
        parts.append(NOTES + "\n")
        return "\n".join(parts)


def _rename_headers(text: str, header: dict[str, str] | None, flavor: str) -> str:
    """Give a generic header (``Estimate (%)``) the metric's name, keeping the column width."""
    for old, new in (header or {}).items():
        if flavor == "latex":
            old, new = old.replace("%", r"\%"), new.replace("%", r"\%")
        if flavor == "markdown" and len(new) > len(old):
            continue  # a longer header would break the table's alignment
        text = text.replace(old, new.rjust(len(old)) if flavor == "markdown" else new)
    return text


def _difference_header(table: pd.DataFrame) -> str:
    metrics = table["metric"].unique()
    name = HEADERS.get(metrics[0], str(metrics[0])) if len(metrics) == 1 else "Estimate"
    return f"{name} A-B (%)"


def _one_line(exc: BaseException) -> str:
    """The first line of an error message (the readers' messages name file and line)."""
    lines = str(exc).strip().splitlines() or [type(exc).__name__]
    return re.sub(r"\s*Example rows:$", "", lines[0])


# ----------------------------------------------------------------------------- the report
def _report(
    trials: pd.DataFrame,
    /,
    *,
    title: str,
    split: str = "split",
    on: str = "dev",
    apply_to: str = "eval",
    orientation: str = "similarity",
    nonfinite: str = "raise",
    n_resamples: int = 1000,
    resample: str = "auto",
    confidence_level: float = 0.95,
    seed: int | None = 0,
    test: str = "auto",
    adjust: str | None = "holm",
    alpha: float = 0.05,
    figures: bool = False,
    progress: bool | None = None,
) -> tuple[_Report, dict]:
    """Compute the report of a trial table: its Markdown sections and, with ``figures``,
    its matplotlib figures ``{name: (Figure, caption)}``."""
    cols = dict(split=split, orientation=orientation, nonfinite=nonfinite)
    has_split = split in trials.columns
    splits = list(dict.fromkeys(trials[split].dropna())) if has_split else []
    apriori = has_split and on in splits and apply_to in splits and on != apply_to
    n_systems = trials["system"].nunique() if "system" in trials.columns else 0
    steps = _Steps(1 + bool(n_resamples) + apriori + (n_systems > 1) + 2 * figures, progress)
    out = _Report(title)

    s = summary(trials, **cols)
    steps("per-system summary")
    shown = [c for c in SUMMARY_SHOWN if c in s and not (c == "split" and s[c].isna().all())]
    out.add(
        "Trials",
        f"{s['system'].nunique()} system(s)"
        + (f", splits {', '.join(map(str, splits))}" if splits else "")
        + f"; {len(trials)} scores.",
    )
    out.table(
        "summary", "Per-system summary (a posteriori, each split on its own)", s[shown],
        precision=_PRECISION, caption="",
    )
    if n_resamples:
        b = bootstrap(
            trials, n_resamples=n_resamples, confidence_level=confidence_level,
            resample=resample, seed=seed, progress=progress, **cols,
        )
        steps("bootstrap intervals")
        out.table(
            "eer_bootstrap",
            f"EER with {100 * confidence_level:g}% bootstrap intervals",
            b.drop(columns=[c for c in ("split",) if not has_split]),
            header={"Estimate (%)": "EER (%)"},
        )
    if apriori:
        er = error_rates(trials, threshold="eer", on=on, apply_to=apply_to, **cols)
        hter_ci = ci(
            trials, metric="hter", threshold="eer", on=on, apply_to=apply_to,
            confidence_level=confidence_level, **cols,
        )
        table = er[
            ["system", "threshold_split", "criterion", "threshold", "n_genuine", "n_impostor",
             "fa", "fr", "far", "frr"]
        ].assign(
            metric="hter", estimate=er["hter"], ci_low=hter_ci["ci_low"].to_numpy(),
            ci_high=hter_ci["ci_high"].to_numpy(), confidence_level=confidence_level,
            ci_method=hter_ci["ci_method"].to_numpy(),
        )
        steps("a-priori error rates")
        out.table(
            "apriori",
            f"A-priori error rates on {apply_to} (EER threshold chosen on {on})",
            table, precision={"threshold": 4}, header={"Estimate (%)": "HTER (%)"},
            intro=(
                f"Each system's threshold is bob.measure's EER threshold on `{on}`, applied "
                f"unchanged to `{apply_to}`; the HTER interval combines the Clopper–Pearson "
                "intervals of FAR and FRR (MOVER)."
            ),
        )
    elif has_split and len(splits) > 1:
        out.add(
            "A-priori error rates",
            f"Not computed: the split column {split!r} has the values {splits}, not both "
            f"{on!r} and {apply_to!r} (pass --on and --apply-to).",
        )
    if n_systems > 1:
        where = dict(on=on, apply_to=apply_to) if apriori else {}
        how = (
            f"thresholds chosen on `{on}`, tested on `{apply_to}`" if apriori
            else "each split's own EER thresholds (a posteriori: optimistic)"
        )
        try:
            cmp = compare(
                trials, test=test, adjust=adjust, alpha=alpha, confidence_level=confidence_level,
                seed=seed, n_resamples=max(n_resamples, 1), resample=resample,
                progress=progress, **where, **cols,
            )
        except (SchemaError, DecisionTestError) as exc:
            out.add("Pairwise significance", f"Not computed: {_one_line(exc)}")
        else:
            out.table(
                "compare", "Pairwise significance",
                cmp[["system_a", "system_b", "split", "metric", "test", "n", "estimate",
                     "ci_low", "ci_high", "confidence_level", "statistic", "pvalue",
                     "adjust", "pvalue_adj", "alpha", "reject"]],
                intro=f"Every pair of systems, {how}.",
                header={"Estimate (%)": _difference_header(cmp)},
            )
        steps("pairwise tests")
    figs: dict = {}
    if figures:
        figs = _figures(trials, apriori=apriori, on=on, apply_to=apply_to, n_systems=n_systems,
                        n_resamples=n_resamples, confidence_level=confidence_level, seed=seed,
                        progress=progress, steps=steps, **cols)
    return out, figs


def _figures(trials, *, apriori, on, apply_to, n_systems, n_resamples, confidence_level, seed,
             progress, steps, split, orientation, nonfinite) -> dict:
    from . import plot

    try:
        from matplotlib.figure import Figure
    except ImportError as exc:
        raise ImportError(ERROR_MATPLOTLIB) from exc

    cols = dict(split=split, orientation=orientation, nonfinite=nonfinite)
    figs = {}
    fig = Figure(figsize=(5.5, 5.5))
    plot.det(trials, apply_to=apply_to if apriori else None, ax=fig.add_subplot(), **cols)
    fig.axes[0].set_title(f"DET curves{f' on {apply_to}' if apriori else ''}")
    figs["det"] = (fig, "DET curves, EER marked (ROC convex hull)")
    steps("DET figure")
    if apriori:
        fig = Figure(figsize=(7.0, 4.5))
        if n_resamples:
            try:
                ds = plot._epc_bands(
                    trials, on=on, apply_to=apply_to, n_resamples=n_resamples,
                    confidence_level=confidence_level, seed=seed, progress=progress, **cols,
                )
            except SchemaError:  # systems that do not share their trials: no paired bands
                ds = None
        if not n_resamples or ds is None:
            from .curves import epc

            ds = epc(trials, on=on, apply_to=apply_to, **cols)
        pair = None
        if n_systems > 1 and "significant" in ds:
            best = ds["area_hter"].to_series().sort_values().index[:2]
            pair = (str(best[0]), str(best[1]))
        plot.epc(ds, pair=pair, ax=fig.add_subplot())
        fig.axes[0].set_title(
            f"Expected performance curve: thresholds on {on}, HTER on {apply_to}"
        )
        figs["epc"] = (
            fig,
            "EPC with bootstrap bands"
            + (f"; shaded where {pair[0]} and {pair[1]} differ" if pair else ""),
        )
    steps("EPC figure")
    return figs


# ----------------------------------------------------------------------------- command line
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="biosig", description="Evaluate biometric verification scores."
    )
    parser.add_argument("--version", action="version", version=f"pandas_biosig {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser(
        "report",
        help="a per-system report: printed, or written to a folder with --out",
        description=(
            "Evaluate score files, or the bundled example when none is given. Without --out "
            "the report is printed; with --out DIR, DIR gets report.md, the tables (CSV, and "
            "LaTeX with --latex) and the DET and EPC figures (PNG, and PDF with --pdf)."
        ),
    )
    rep.add_argument(
        "files", nargs="*", type=Path,
        help="score files or directories (bob, NIST with --trials, lists) or tidy CSV/Parquet "
             "tables (columns system, trial, label, score, optionally split); dev/eval are read "
             "off the file names",
    )
    rep.add_argument("--dev", nargs="+", type=Path, metavar="FILE",
                     help="score files of the development set (thresholds are chosen here)")
    rep.add_argument("--eval", nargs="+", type=Path, metavar="FILE",
                     help="score files of the evaluation set (a-priori rates are reported here)")
    rep.add_argument("--format", default="auto", choices=list(FORMATS),
                     help="how to read the files (default: auto, by extension)")
    rep.add_argument("--trials", type=Path, metavar="KEY",
                     help="--format nist: the trials key (enroll test target|nontarget)")
    rep.add_argument("--column", action="append", default=[], metavar="OLD=NEW",
                     help="rename a table column to the schema, e.g. --column llr=score")
    rep.add_argument("--split-column", default="split", metavar="NAME",
                     help="the table's split column (default: split)")
    rep.add_argument("--on", default="dev", metavar="SPLIT",
                     help="the split thresholds are chosen on (default: dev)")
    rep.add_argument("--apply-to", default="eval", metavar="SPLIT",
                     help="the split a-priori rates are reported on (default: eval)")
    rep.add_argument("--orientation", default="similarity", choices=["similarity", "distance"],
                     help="distance: lower scores are more genuine")
    rep.add_argument("--nonfinite", default="raise", choices=["raise", "drop", "reject"],
                     help="NaN/inf scores: an error, dropped, or failures to acquire")
    rep.add_argument("--test", default="auto", choices=["auto", *TESTS],
                     help="the pairwise test (default auto: the subject bootstrap with a "
                          "subject column, else hter_dependent)")
    rep.add_argument("--adjust", default="holm",
                     help="multiplicity correction, a statsmodels code or 'none' (default: holm)")
    rep.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    rep.add_argument("--confidence-level", type=float, default=0.95,
                     help="level of the intervals (default 0.95)")
    rep.add_argument("--n-resamples", type=int, default=1000, metavar="N",
                     help="bootstrap replicates; 0 skips the bootstrap (default 1000)")
    rep.add_argument("--resample", default="auto", choices=["auto", "label", "trial", "subject"],
                     help="what the bootstrap resamples (default auto: subjects when the "
                          "table has a subject column, else trials within each class)")
    rep.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    rep.add_argument("--out", type=Path, metavar="DIR", help="write the report folder here")
    rep.add_argument("--latex", action="store_true", help="also write the tables as .tex")
    rep.add_argument("--pdf", action="store_true", help="also write the figures as PDF")
    return parser


def _load(args) -> tuple[pd.DataFrame, str]:
    columns = {}
    for item in args.column:
        old, sep, new = item.partition("=")
        if not sep or not old or not new:
            raise ValueError(f"--column {item!r}: expected OLD=NEW, e.g. --column llr=score")
        columns[old] = new
    if not args.files and not args.dev and not args.eval:
        return datasets.example_trials(), "bundled example (pandas_biosig.datasets.example_trials())"
    trials = read_scores(
        [str(p) for p in args.files] if args.files else None,
        format=args.format,
        dev=[str(p) for p in args.dev] if args.dev else None,
        eval=[str(p) for p in args.eval] if args.eval else None,
        trials=str(args.trials) if args.trials else None,
        columns=columns or None,
    )
    names = [*map(str, args.files), *map(str, args.dev or []), *map(str, args.eval or [])]
    title = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return trials, title


def _write(rep: _Report, figs: dict, out: Path, *, latex: bool, pdf: bool) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (frame, options) in rep.tables.items():
        frame.to_csv(out / f"{name}.csv", index=False)
        written.append(out / f"{name}.csv")
        if latex:
            header = options.pop("header", None)
            text = to_latex(frame, label=f"tab:{name}", **options)
            (out / f"{name}.tex").write_text(_rename_headers(text, header, "latex"))
            written.append(out / f"{name}.tex")
    shown = []
    for name, (fig, caption) in figs.items():
        fig.savefig(out / f"{name}.png", dpi=150, bbox_inches="tight")
        written.append(out / f"{name}.png")
        if pdf:
            fig.savefig(out / f"{name}.pdf", bbox_inches="tight")
            written.append(out / f"{name}.pdf")
        shown.append((f"{name}.png", caption))
    (out / "report.md").write_text(rep.markdown(shown))
    return [out / "report.md", *written]


def main(argv: list[str] | None = None) -> int:
    """Run ``biosig``; return the exit status (0, or 1 after a one-line error on stderr)."""
    args = _parser().parse_args(argv)
    try:
        trials, title = _load(args)
        adjust = None if args.adjust.lower() in ("none", "") else args.adjust
        if adjust is not None and adjust not in ADJUST_METHODS:
            raise ValueError(f"--adjust {args.adjust!r} is not one of {list(ADJUST_METHODS)}")
        rep, figs = _report(
            trials, title=title, split=args.split_column, on=args.on, apply_to=args.apply_to,
            orientation=args.orientation, nonfinite=args.nonfinite,
            n_resamples=args.n_resamples, resample=args.resample,
            confidence_level=args.confidence_level,
            seed=args.seed, test=args.test, adjust=adjust, alpha=args.alpha,
            figures=args.out is not None,
        )
        if args.out is None:
            print(rep.markdown())
            return 0
        written = _write(rep, figs, args.out, latex=args.latex, pdf=args.pdf)
    except (SchemaError, ValueError, OSError, ImportError) as exc:
        print(f"biosig: error: {_one_line(exc)}", file=sys.stderr)
        return 1
    print(f"biosig: wrote {written[0]} and {len(written) - 1} more file(s) in {args.out}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
