"""``biosig``: the command-line report.

``biosig report`` with no file evaluates the bundled example; with a tidy CSV or Parquet
file (columns ``system, trial, label, score`` and optionally ``split``) it evaluates that.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pandas as pd

from . import __version__, datasets
from ._schema import SchemaError
from .metrics import error_rates, summary

__all__ = ["main"]

_PERCENT_COLUMNS = [
    "eer_rocch",
    "eer_threshold",
    "min_hter",
    "fmr100",
    "fmr1000",
    "zero_fmr",
    "far",
    "frr",
    "hter",
]


def _read_table(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise SchemaError(f"{path}: no such file")
    suffixes = "".join(path.suffixes).lower()
    if suffixes.endswith(".parquet") or suffixes.endswith(".pq"):
        return pd.read_parquet(path)
    return pd.read_csv(path)


def _format(frame: pd.DataFrame) -> str:
    shown = frame.copy()
    for col in _PERCENT_COLUMNS:
        if col in shown:
            shown[col] = (100 * shown[col]).map(lambda v: f"{v:6.2f}%")
    for col in ("auc", "min_dcf", "cllr", "min_cllr", "d_prime", "threshold"):
        if col in shown:
            shown[col] = shown[col].map(lambda v: f"{v:.4g}")
    return shown.to_string(index=False)


def report(trials: pd.DataFrame, *, title: str, out=sys.stdout) -> None:
    """Print the per-system report of a trial table."""
    s = summary(trials)
    cols = [
        c
        for c in (
            "system", "split", "n_genuine", "n_impostor", "eer_rocch", "eer_threshold",
            "threshold", "auc", "min_hter", "fmr100", "fmr1000", "min_dcf", "cllr", "min_cllr",
        )
        if c in s
    ]
    if s["split"].isna().all():
        cols.remove("split")
    print(f"# pandas_biosig {__version__}: {title}\n", file=out)
    print("## Per-system summary (a posteriori, each split on its own)\n", file=out)
    print(_format(s[cols]), file=out)
    splits = list(dict.fromkeys(s["split"].dropna()))
    if {"dev", "eval"} <= set(splits):
        er = error_rates(trials, threshold="eer", on="dev", apply_to="eval")
        print("\n## A-priori error rates on eval (EER threshold chosen on dev)\n", file=out)
        print(
            _format(er[["system", "threshold", "far", "frr", "hter", "fa", "fr"]]),
            file=out,
        )
    print(
        "\nRates in percent. eer_rocch: EER of the ROC convex hull; eer_threshold: "
        "bob.measure's EER at `threshold`; fmr100/fmr1000: FNMR at FMR <= 1% / 0.1%; "
        "min_dcf at p_target=0.01, unit costs; cllr in bits.",
        file=out,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="biosig", description="Evaluate biometric verification scores."
    )
    parser.add_argument("--version", action="version", version=f"pandas_biosig {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    rep = sub.add_parser("report", help="print a per-system report")
    rep.add_argument(
        "table",
        nargs="?",
        type=Path,
        help="tidy CSV/Parquet trial table; the bundled example when omitted",
    )
    args = parser.parse_args(argv)
    try:
        if args.table is None:
            trials = datasets.example_trials()
            title = "bundled example (pandas_biosig.datasets.example_trials())"
        else:
            trials = _read_table(args.table)
            title = str(args.table)
        report(trials, title=title)
    except (SchemaError, ValueError, OSError) as exc:
        print(f"biosig: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
