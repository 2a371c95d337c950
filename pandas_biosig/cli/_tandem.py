"""The tandem section of ``biosig report``: ASVspoof's ASV and CM score files (``biosig
report asv_dev.txt cm_dev.txt``), or one tidy tandem table, evaluated as the challenges
rank them, with the speakers' uncertainty.

The sections are added to the report object :mod:`pandas_biosig.cli._report` passes in
(its ``add`` and ``table`` methods); the figure is the t-DCF against the CM threshold.
"""

from __future__ import annotations

import pandas as pd

from .._core.schema import SchemaError
from ..io._formats import reads_as_table
from ..io._tandem import read_asvspoof_tandem, tandem_layout
from ..tandem._compare import tandem_compare
from ..tandem._metrics import tdcf, teer
from ..tandem._resampling import tandem_bootstrap
from ..tandem._sasv import adcf, cm_metrics, sasv_score
from ._folder import escape_markdown

__all__ = ["TANDEM_NOTES", "load_tandem", "tandem_sections"]

#: The tandem report's closing notes.
TANDEM_NOTES = (
    "Rates and costs are fractions (the t-EER too). t-DCF: ASVspoof 2019's and the ASVspoof "
    "2021/5 revision, normalized, the ASV at the organisers' EER threshold (chosen on dev "
    "when the table has dev and eval); min: over the CM threshold; act: at the Bayes "
    "threshold ln(C2/C1), meaningful when the CM's scores are natural-log likelihood "
    "ratios. Thresholds accept scores >= them. Intervals: speakers resampled (trials "
    "within each kind without a speaker column)."
)
_TDCF_SHOWN = ["asv_system", "cm_system", "split", "version", "asv_threshold",
               "asv_threshold_from", "asv_pfa", "asv_pmiss", "asv_pmiss_spoof", "min_tdcf",
               "min_tdcf_threshold", "act_tdcf", "cm_threshold"]
_TANDEM_COLUMNS = {"kind", "asv_score", "cm_score"}
#: How the tables are written: fractions (not %), four decimals.
_NUMBERS = {"percent": False, "precision": 4}


def load_tandem(args) -> tuple[pd.DataFrame, str] | None:
    """The tandem table of the command line, or None when it names no tandem input: two
    ASVspoof files (ASV then CM, or ASVspoof 5's score and key files), or one tidy table
    with the columns ``kind, asv_score, cm_score``."""
    files = list(args.files)
    if args.dev or args.eval or args.dev_eval or args.trials or len(files) not in (1, 2):
        return None
    if len(files) == 2 and all(f.is_file() for f in files) and tandem_layout(files[0]) in (
            "2019", "5"):
        return read_asvspoof_tandem(files[0], files[1]), f"{files[0]}, {files[1]}"
    if len(files) == 1 and files[0].is_file() and reads_as_table(files[0], args.format):
        suffixes = "".join(files[0].suffixes).lower()
        parquet = ".parquet" in suffixes or ".pq" in suffixes
        try:  # a table the pandas readers cannot open is left to the trial-table readers
            head = (pd.read_parquet(files[0]) if parquet else pd.read_csv(files[0], nrows=0))
        except (ValueError, OSError, ImportError):
            return None
        if _TANDEM_COLUMNS <= set(head.columns):
            return (head if parquet else pd.read_csv(files[0])), str(files[0])
    return None


def _counts(table: pd.DataFrame) -> str:
    kinds = table.groupby("kind").size().to_dict() if "kind" in table else {}
    parts = [f"{table['asv_system'].nunique()} ASV system(s)",
             f"{table['cm_system'].nunique()} CM system(s)",
             ", ".join(f"{v} {k}" for k, v in kinds.items()) + " rows"]
    if "subject" in table:
        parts.append(f"{table['subject'].nunique()} speakers")
    if "split" in table:
        parts.append("splits " + ", ".join(map(str, pd.unique(table["split"]))))
    return escape_markdown("; ".join(parts) + ".")


def tandem_sections(out, table: pd.DataFrame, *, n_resamples: int, confidence_level: float,
                    seed, adjust, alpha, progress) -> None:
    """Add the tandem sections to the report ``out``."""
    out.add("Trials (ASV + CM in tandem)", _counts(table))
    both = pd.concat([tdcf(table), tdcf(table, version="2021")], ignore_index=True)
    out.table("tdcf", "t-DCF", both[_TDCF_SHOWN], intro=(
        "The tandem detection cost of each CM in front of its ASV system: the ASV's "
        "operating point (its EER threshold), the minimum over the CM threshold and the "
        "actual t-DCF at the Bayes threshold."), **_NUMBERS)
    out.table("teer", "t-EER", teer(table), **_NUMBERS)
    out.table("cm_metrics", "CM detection costs (ASVspoof 5 track 1)", cm_metrics(table),
              **_NUMBERS)
    scored = table if "sasv_score" in table else sasv_score(table)
    how = "the table's own" if "sasv_score" in table else "the score sum asv_score + cm_score"
    out.table("adcf", "a-DCF", adcf(scored), intro=(
        f"The a-DCF of one spoofing-aware score per trial ({how}), ASVspoof 5's costs."),
        **_NUMBERS)
    if n_resamples:
        _intervals(out, table, scored, n_resamples=n_resamples,
                   confidence_level=confidence_level, seed=seed, progress=progress)
        if (table.groupby("asv_system")["cm_system"].nunique() > 1).any():
            _comparisons(out, table, n_resamples=n_resamples, confidence_level=confidence_level,
                         seed=seed, adjust=adjust, alpha=alpha, progress=progress)


def _intervals(out, table, scored, **kw) -> None:
    rows = [tandem_bootstrap(table, metric="min_tdcf", **kw),
            tandem_bootstrap(table, metric="teer", **kw),
            tandem_bootstrap(scored, metric="min_adcf", **kw)]
    frame = pd.concat(rows, ignore_index=True)
    out.table("tandem_bootstrap",
              f"Intervals ({100 * kw['confidence_level']:g}%, bootstrap)", frame, intro=(
                  "Minimum t-DCF (2019), t-EER and minimum a-DCF of each split on its own "
                  "trials, with percentile intervals; each replicate chooses the thresholds "
                  "again."), **_NUMBERS)


def _comparisons(out, table, **kw) -> None:
    try:
        cmp = tandem_compare(table, **kw)
    except SchemaError as exc:
        out.add("Pairwise comparison of the CM systems",
                f"Not computed: {escape_markdown(str(exc).splitlines()[0])}")
        return
    out.table("tandem_compare", "Pairwise comparison of the CM systems", cmp, intro=(
        "Every pair of CM systems of one ASV system by the minimum t-DCF (2019): paired "
        "bootstrap, the same speakers drawn for both, p-values adjusted per ASV system and "
        "split."), **_NUMBERS)


def tandem_figures(table: pd.DataFrame) -> dict:
    """The t-DCF figure: ``{"tdcf": (Figure, caption)}``."""
    from matplotlib.figure import Figure

    from ..plot._tandem import tdcf_curve

    fig = Figure(figsize=(8.0, 4.5), layout="constrained")
    tdcf_curve(table, ax=fig.add_subplot())
    return {"tdcf": (fig, "t-DCF (2019) against the CM threshold, the minimum marked")}
