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
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any, cast

import numpy as np
import pandas as pd

from .. import __version__, datasets, stats
from .._core.options import ResampleOption
from .._core.pairwise import ADJUST_METHODS
from .._core.protocol import resolve_splits, split_table
from .._core.schema import BiosigWarning, SchemaError
from ..export._latex import to_latex
from ..export._rules import BEST
from ..io._open import DEFAULT_MAX_BYTES
from ..io._scores import FORMATS
from ..verification._bands import det_band
from ..verification._comparison import TESTS, DecisionTestError, Test, compare, default_test
from ..verification._epc import epc_bootstrap
from ..verification._intervals import ci
from ..verification._metrics import error_rates, summary
from ..verification._resampling import BOOTSTRAP_METRICS, bootstrap
from ._calibration import calibrated_trials, calibration_arguments, calibration_section
from ._demographics_section import demographics_section
from ._document import Options, Report, Steps, new_figure, one_line
from ._folder import escape_markdown, write_report
from ._independent import _compare_independent_sets
from ._inputs import load_trials
from ._kinds import attack_rows, genuine_rows, table_kind
from ._pad_section import pad_section
from ._tandem import TANDEM_NOTES, load_tandem, tandem_figures, tandem_sections
from ._vulnerability_section import vulnerability_section

__all__ = ["main"]

#: The columns of the per-system summary table, in order.
SUMMARY_SHOWN = [
    "system", "split", "n_genuine", "n_impostor", "eer_rocch", "eer_threshold", "threshold",
    "auc", "min_hter", "fmr100", "fmr1000", "min_dcf", "cllr", "min_cllr", "not_llr",
]
_PRECISION = {"threshold": 4, "auc": 4, "min_dcf": 3, "cllr": 3, "min_cllr": 3}
NOTES = (
    "Rates in %. EER (ROCCH): the EER of the ROC convex hull. EER (threshold): bob.measure's "
    "EER, (FAR + FRR)/2 at Threshold, the candidate threshold (a midpoint between consecutive "
    "distinct scores) that minimizes |FAR - FRR|; a trial is accepted iff score >= threshold. "
    "FMR100 / FMR1000: FNMR at FMR <= 1% / 0.1%. minDCF at p_target = 0.01 and unit costs; "
    "Cllr in bits."
)
# ----------------------------------------------------------------------------- the report
def report_kinds(trials: pd.DataFrame, /, *, split: str = "split") -> list[str]:
    """The kinds of table ``trials`` is, each a section of the report (:data:`SECTIONS`).

    ``vulnerability``: a ``kind`` column (genuine, zero-effort impostor, attack). ``pad``:
    PAD labels (bona fide / attack), or every impostor carrying an attack species (a
    ``pai``). A table whose impostors mix zero-effort impostors and attacks is a
    ``verification`` table (its rates pool the two: the report warns) and a
    ``vulnerability`` one. ``demographics``: a ``group`` column (the subjects' groups).
    Anything else is a ``verification`` table.
    """
    kinds: list[str] = [table_kind(trials)]
    if kinds == ["mixed"]:
        kinds = ["verification", "vulnerability"]
    if "group" in trials.columns and "label" in trials.columns:
        kinds.append("demographics")
    return kinds


def _report(trials: pd.DataFrame, /, *, title: str, **options) -> tuple[Report, dict]:
    """Compute the report of a trial table: its Markdown sections and, with ``figures``,
    its matplotlib figures ``{name: (Figure, caption)}``; ``options`` are
    :class:`~pandas_biosig.cli._document.Options`."""
    settings = Options(**options)
    out = Report(title)
    figs: dict = {}
    for kind in report_kinds(trials, split=settings.split):
        figs.update(SECTIONS[kind](out, trials, settings))
    return out, figs


def _verification_section(out: Report, trials: pd.DataFrame, o: Options) -> dict:
    """The verification report: summary, bootstrap EERs, a-priori rates, pairwise tests,
    DET and EPC."""
    split, n_resamples = o.split, o.n_resamples
    on: Any = o.on  # a split value once the protocol has resolved it
    apply_to: Any = o.apply_to
    resample, confidence_level, seed, progress = o.resample, o.confidence_level, o.seed, o.progress
    orientation, nonfinite, figures = o.orientation, o.nonfinite, o.figures
    cols = dict(split=split, orientation=orientation, nonfinite=nonfinite)
    has_split = split in trials.columns
    splits = list(dict.fromkeys(trials[split].dropna())) if has_split else []
    roles = resolve_splits(
        split_table(splits, split if has_split else None, list(trials.columns)), on, apply_to)
    apriori = roles.apriori
    # the protocol's roles: thresholds on one split and rates on others, or each split's own
    on = roles.on
    apply_to = roles.apply_to[0] if roles.apply_to and len(roles.apply_to) == 1 else roles.apply_to
    n_systems = trials["system"].nunique() if "system" in trials.columns else 0
    steps = Steps(1 + bool(n_resamples) + apriori + (n_systems > 1) + 2 * figures, progress)
    out.note(NOTES)
    _summary_section(out, trials, splits, cols)
    steps("per-system summary")
    if n_resamples:
        _bootstrap_section(out, trials, has_split, cols, n_resamples=n_resamples,
                           confidence_level=confidence_level, resample=resample, seed=seed,
                           progress=progress)
        steps("bootstrap intervals")
    if apriori:
        _apriori_section(out, trials, on, apply_to, confidence_level, resample, cols)
        steps("a-priori error rates")
    elif has_split and len(splits) > 1:
        out.add(
            "A-priori error rates",
            escape_markdown(
                f"Not computed: the split column {split!r} has the values {splits}, not a "
                "development split and evaluation splits named as the protocol reads them "
                f"(dev/development; eval/test/evaluation): pass --on and --apply-to."
            ),
        )
    if n_systems > 1:
        _compare_section(
            out, trials, cols, apriori=apriori, has_split=has_split, on=on, apply_to=apply_to,
            test=o.test, adjust=o.adjust, alpha=o.alpha, confidence_level=confidence_level,
            seed=seed, n_resamples=n_resamples, resample=resample, progress=progress,
            common_trials=o.common_trials,
        )
        steps("pairwise tests")
    figs: dict = {}
    if figures:
        figs = _figures(trials, apriori=apriori, on=on, apply_to=apply_to, n_systems=n_systems,
                        n_resamples=n_resamples, confidence_level=confidence_level,
                        resample=resample, seed=seed, progress=progress, steps=steps, **cols)
    return figs


#: The report's sections by kind of table (:func:`report_kinds`): each writes its tables
#: and text into the report and returns its figures ``{name: (Figure, caption)}``.
SECTIONS = {
    "verification": _verification_section,
    "pad": pad_section,
    "vulnerability": vulnerability_section,
    "demographics": demographics_section,
}


def _summary_section(out: Report, trials: pd.DataFrame, splits: list, cols: dict) -> None:
    """The trial counts and the per-system summary (each split on its own)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", BiosigWarning)
        s = summary(trials, **cols)
    shown = [c for c in SUMMARY_SHOWN if c in s and not (c == "split" and s[c].isna().all())]
    flagged = list(dict.fromkeys(s.loc[s["not_llr"] & s["cllr"].notna(), "system"]))
    out.add(
        "Trials",
        f"{s['system'].nunique()} system(s)"
        + (f", splits {', '.join(escape_markdown(x) for x in splits)}" if splits else "")
        + f"; {len(trials)} scores."
        + _attack_note(trials)
        + _not_llr_note(flagged, caught),
    )
    # Cllr read off scores that cannot be LLRs is not ranked (no bold "best" for them)
    best = {c: BEST[c] for c in shown if c in BEST and not (flagged and c == "cllr")}
    out.table(
        "summary", "Per-system summary (a posteriori, each split on its own)", s[shown],
        precision=_PRECISION, best=best,
    )


def _not_llr_note(flagged: list, caught) -> str:
    """The summary's warning about scores that cannot be LLRs, in the report's words."""
    if not flagged or not any(issubclass(w.category, BiosigWarning) for w in caught):
        return ""
    names = ", ".join(escape_markdown(str(s)) for s in flagged)
    return (
        f" Warning: the scores of {names} cannot be calibrated log-likelihood ratios "
        "(not_llr): their Cllr (not ranked) and any cost at the Bayes threshold read them "
        "as LLRs and mean little; calibrate them (--calibrate, or "
        "pandas_biosig.calibrate)."
    )


def _attack_note(trials: pd.DataFrame) -> str:
    """A warning when the impostor trials mix presentation attacks (a ``pai`` value) and
    zero-effort impostors (none): the report's error rates then pool the two."""
    attack = attack_rows(trials)
    if attack is None or "label" not in trials.columns or not attack.any():
        return ""
    genuine = genuine_rows(trials)
    if genuine is None:  # one class only, or not genuine / impostor labels
        return ""
    attacks, impostors = int((attack & ~genuine).sum()), int((~genuine).sum())
    if attacks == 0 or attacks == impostors:
        return ""
    return escape_markdown(
        f" Warning: {attacks} of the {impostors} impostor trials carry a presentation attack "
        "instrument (column 'pai'): every error rate below pools zero-effort impostors and "
        "attacks. pandas_biosig.iapmr measures the attacks apart."
    )


def _bootstrap_section(out: Report, trials: pd.DataFrame, has_split: bool, cols: dict, *,
                       n_resamples, confidence_level, resample, seed, progress) -> None:
    """The bootstrap interval of every system's EER."""
    b = bootstrap(
        trials, n_resamples=n_resamples, confidence_level=confidence_level,
        resample=resample, seed=seed, progress=progress, **cols,
    )
    out.table(
        "eer_bootstrap",
        f"EER with {100 * confidence_level:g}% bootstrap intervals",
        b.drop(columns=[c for c in ("split",) if not has_split]),
    )


def _apriori_table(trials: pd.DataFrame, on, apply_to, confidence_level, cols: dict,
                   resample: ResampleOption = "auto"):
    """The a-priori error rates at the EER threshold of ``on`` with the HTER interval
    (subjects accounted for as ``--resample`` says), and whether failures to acquire are
    shown."""
    er = error_rates(trials, threshold="eer", on=on, apply_to=apply_to, **cols)
    hter_ci = ci(
        trials, metric="hter", threshold="eer", on=on, apply_to=apply_to,
        confidence_level=confidence_level, resample=resample, **cols,
    )
    fta = ["fta", "fmr", "fnmr"] if (er["fta"] > 0).any() else []
    low: np.ndarray | list[float]
    high: np.ndarray | list[float]
    low, high = hter_ci["ci_low"].to_numpy(), hter_ci["ci_high"].to_numpy()
    if fta:  # eq. 13 around the reported HTER: FTA-inclusive FAR, FRR over all trials
        bounds = [
            stats.hter_ci(r.far, r.frr, n_impostor=int(r.n_impostor),
                          n_genuine=int(r.n_genuine)).confidence_interval(
                confidence_level=confidence_level)
            for r in cast("Iterable[Any]", er.itertuples())  # pandas' stubs: fields of any type
        ]
        low, high = [b.low for b in bounds], [b.high for b in bounds]
    table = er[
        ["system", "threshold_split", "criterion", "threshold", "n_genuine", "n_impostor",
         "fa", "fr", *fta, "far", "frr"]
    ].assign(
        metric="hter", estimate=er["hter"], ci_low=low,
        ci_high=high, confidence_level=confidence_level,
        ci_method="bengio" if fta else hter_ci["ci_method"].to_numpy(),
    )
    return table, bool(fta)


def _apriori_section(out: Report, trials: pd.DataFrame, on, apply_to, confidence_level,
                     resample: ResampleOption, cols: dict) -> None:
    """Error rates on ``apply_to`` at the EER thresholds chosen on ``on``."""
    table, fta = _apriori_table(trials, on, apply_to, confidence_level, cols, resample)
    out.table(
        "apriori",
        f"A-priori error rates on {escape_markdown(apply_to)} "
        f"(EER threshold chosen on {escape_markdown(on)})",
        table, precision={"threshold": 4},
        intro=(
            f"Each system's threshold is bob.measure's EER threshold on "
            f"{escape_markdown(on)}, applied unchanged to {escape_markdown(apply_to)}; "
            "the HTER interval combines the Clopper–Pearson intervals of FAR and FRR "
            "(MOVER)"
            + (
                ", each on its class's effective number of trials given the subjects "
                "(design effect)."
                if table["ci_method"].astype(str).str.endswith("-deff").any() else "."
            )
            + (
                " Failures to acquire (non-finite scores) as bob.measure counts them: "
                "thresholds and FA/FR on the acquired scores (FMR, FNMR), "
                "FAR = FMR(1 - FTA), FRR = FTA + FNMR(1 - FTA), FTA over all trials; "
                "the HTER interval is then Bengio & Mariéthoz's eq. 13."
                if fta else ""
            )
        ),
    )


def _compare_section(out: Report, trials: pd.DataFrame, cols: dict, *, apriori, has_split,
                     on, apply_to, test, adjust, alpha, confidence_level, seed, n_resamples,
                     resample, progress, common_trials) -> None:
    """Every pair of systems tested; the independent HTER test on each system's own
    trials when the systems did not score the same trials."""
    where = dict(on=on, apply_to=apply_to)
    how = (
        f"thresholds chosen on {escape_markdown(on)}, tested on {escape_markdown(apply_to)}"
        if apriori
        else "each split's own EER thresholds (a posteriori: optimistic)"
    )
    used = default_test(test, trials, "subject")
    try:
        cmp = compare(
            trials, test=test, adjust=adjust, alpha=alpha, confidence_level=confidence_level,
            seed=seed, n_resamples=max(n_resamples, 1), resample=resample,
            progress=progress, common_trials=common_trials, **where, **cols,
        )
    except DecisionTestError as exc:
        out.add("Pairwise significance", f"Not computed: {one_line(exc)}")
        return
    except SchemaError as exc:
        if used not in ("hter_dependent", "hter_independent"):
            out.add("Pairwise significance", f"Not computed: {escape_markdown(one_line(exc))}")
            return
        # different trial lists: the independent test needs only rates
        er = error_rates(trials, threshold="eer", **where, **cols)
        if not apriori and has_split:
            er = er[er["split"].notna()]
        cmp = _compare_independent_sets(
            er, adjust=adjust, alpha=alpha, confidence_level=confidence_level
        )
        reason = escape_markdown(one_line(exc).split(";")[0].rstrip("."))
        why = (
            " Test `hter_independent` (Bengio & Mariéthoz eq. 15, from each "
            "system's FAR and FRR on its own trials), because the systems were not "
            f"scored on the same trials ({reason})."
            + ("" if common_trials else
               " Pass --common-trials to test the trials they share, paired.")
        )
    else:
        why = (
            f" Test `{used}` ({_test_description(used, cmp)}): the systems scored the same trials"
            + (" (or, with --common-trials, are tested on the trials they share)."
               if common_trials else ".")
        )
    out.table(
        "compare", "Pairwise significance",
        cmp[["system_a", "system_b", "split", "metric", "test", "n", "estimate",
             "ci_low", "ci_high", "confidence_level", "statistic", "pvalue",
             "adjust", "pvalue_adj", "alpha", "reject"]],
        intro=f"Every pair of systems, {how}.{why}",
    )


#: What a bootstrap drew, in words, by its ``resample`` unit.
_DRAWN = {"subject": "subjects", "label": "trials within each class", "trial": "trials",
          "two_way": "people in both roles"}


def _test_description(test: Test, cmp: pd.DataFrame) -> str:
    """What ``test`` tested, in words; the bootstrap's metric and resampling unit as run."""
    if test != "bootstrap" or cmp.empty:
        return TESTS[test]
    metric, unit = cmp["metric"].iloc[0], cmp["resample"].iloc[0]
    what = (f"{metric.upper()} at those thresholds" if metric in ("far", "frr", "hter")
            else BOOTSTRAP_METRICS[metric])
    text = f"paired bootstrap of the difference in {what}, {_DRAWN.get(unit, unit)} resampled"
    if cmp["method"].astype(str).str.contains("studentized").any():
        text += ("; studentized: the difference over its bootstrap standard error, against "
                 "Student's t with the Welch–Satterthwaite degrees of freedom of the "
                 "subjects' errors, which each row's method gives")
    return text


def _figures(trials, *, apriori, on, apply_to, n_systems, n_resamples, confidence_level,
             resample, seed, progress, steps, split, orientation, nonfinite) -> dict:
    from .. import plot

    cols = dict(split=split, orientation=orientation, nonfinite=nonfinite)
    figs = {}
    fig = new_figure(8.0, 5.5)
    band = _det_band(trials, apriori=apriori, apply_to=apply_to, n_resamples=n_resamples,
                     confidence_level=confidence_level, resample=resample, seed=seed,
                     progress=progress, cols=cols)
    plot.det(trials, apply_to=apply_to if apriori else None, ax=fig.add_subplot(),
             band=band if band is not None else False, rule_of_30=True, **cols)
    fig.axes[0].set_title(f"DET curves{f' on {apply_to}' if apriori else ''}")
    shaded = (
        f"; shaded: the {100 * confidence_level:g}% bootstrap bands of each curve "
        f"({_DRAWN.get(band.attrs['resample'], band.attrs['resample'])} resampled; darker: "
        "pointwise, lighter: simultaneous over the FAR grid)" if band is not None else "")
    figs["det"] = (
        fig, "DET curves; the dot on each curve and the legend give its EER (threshold), "
        "bob.measure's (FAR + FRR)/2 where the two are closest" + shaded
        + "; faded where fewer than 30 false acceptances or false rejections support a "
        "point (Doddington's rule of 30), a diamond where 30 are reached",
    )
    steps("DET figure")
    if apriori:
        figs["epc"] = _epc_figure(trials, on=on, apply_to=apply_to,
                                  n_systems=n_systems, n_resamples=n_resamples,
                                  confidence_level=confidence_level, resample=resample,
                                  seed=seed, progress=progress, nonfinite=nonfinite, cols=cols)
    steps("EPC figure")
    return figs


def _epc_figure(trials, *, on, apply_to, n_systems, n_resamples, confidence_level,
                resample, seed, progress, nonfinite, cols) -> tuple:
    """The EPC figure of an a-priori report and its caption: bootstrap bands when there
    are resamples and the systems share their trials, the best pair's differences shaded."""
    from .. import plot

    fig = new_figure(8.0, 4.5)
    if n_resamples:
        try:
            ds = epc_bootstrap(
                trials, on=on, apply_to=apply_to, n_resamples=n_resamples,
                confidence_level=confidence_level, resample=resample, seed=seed,
                progress=progress, **cols,
            )
        except SchemaError:  # systems that do not share their trials: no paired bands
            ds = None
    if not n_resamples or ds is None:
        from ..verification._epc import epc

        ds = epc(trials, on=on, apply_to=apply_to, **cols)
    pair = None
    if n_systems > 1 and "significant" in ds:
        best = ds["area_hter"].to_series().sort_values().index[:2]
        pair = (str(best[0]), str(best[1]))
    plot.epc(ds, pair=pair, ax=fig.add_subplot())
    fig.axes[0].set_title(
        f"Expected performance curve: thresholds on {on}, HTER on {apply_to}"
    )
    fta = _fta_note(trials, nonfinite, fig.axes[0], apply_to)
    bands = (
        f" with {100 * confidence_level:g}% bootstrap bands "
        f"({_DRAWN.get(ds.attrs['resample'], ds.attrs['resample'])} resampled)"
        if "hter_low" in ds else " (no bootstrap bands)"
    )
    return (
        fig,
        f"EPC{bands}" + (f"; shaded where {pair[0]} and {pair[1]} differ" if pair else "")
        + fta,
    )


def _fta_note(trials: pd.DataFrame, nonfinite: str, ax, apply_to: str) -> str:
    """Under ``--nonfinite reject`` with failures to acquire, the EPC's HTER is that of the
    acquired trials (the curve's rates are FMR and FNMR), while the a-priori table's HTER
    counts the failures (FAR = FMR(1 - FTA), FRR = FTA + FNMR(1 - FTA)): label it so."""
    if nonfinite != "reject" or "score" not in trials:
        return ""
    scores = pd.to_numeric(trials["score"], errors="coerce").to_numpy(dtype=float)
    if np.isfinite(scores).all():
        return ""
    ax.set_ylabel(f"HTER of the acquired trials on {apply_to} (%)")
    return ("; the HTER of the acquired trials: failures to acquire (non-finite scores) are "
            "left out, while the a-priori table's HTER counts them")


def _det_band(trials, *, apriori, apply_to, n_resamples, confidence_level, resample, seed,
              progress, cols):
    """The bands of the drawn DET curves (the reported split only), None without
    resamples."""
    if not n_resamples:
        return None
    drawn = trials[trials[cols["split"]] == apply_to] if apriori else trials
    return det_band(drawn, n_resamples=n_resamples, confidence_level=confidence_level,
                    resample=resample, seed=seed, progress=progress, **cols)


# ----------------------------------------------------------------------------- command line
def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="biosig",
        description="Evaluate biometric verification, PAD and vulnerability scores."
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
    _input_arguments(rep)
    _analysis_arguments(rep)
    _output_arguments(rep)
    return parser


def _input_arguments(rep: argparse.ArgumentParser) -> None:
    """What to read: the files, their splits and names, their format and columns."""
    rep.add_argument(
        "files", nargs="*", type=Path,
        help="score files or directories (bob, NIST with --trials, lists) or tidy CSV/Parquet "
             "tables (columns system, trial, label, score, optionally split); the split is read "
             "off the file names (tokens dev, eval, test = eval, train; any case): "
             "dev-1.txt test-1.txt dev-2.txt test-2.txt gives systems 1 and 2. PAD files "
             "(ASVspoof CM, bob.pad CSV, a table with bona fide / attack labels) get the PAD "
             "report, vulnerability files (bob.bio.base vuln CSV, ASVspoof ASV, a table with "
             "a kind column) the vulnerability report, a group column the demographic one",
    )
    rep.add_argument("-e", "--dev-eval", action="store_true",
                     help="the files come in dev/eval pairs, in order: dev of system 1, eval "
                          "of system 1, dev of system 2... (bob.measure's -e)")
    rep.add_argument("--dev", nargs="+", type=Path, metavar="FILE",
                     help="score files of the development set (thresholds are chosen here)")
    rep.add_argument("--eval", nargs="+", type=Path, metavar="FILE",
                     help="score files of the evaluation set (a-priori rates are reported "
                          "here), paired with the --dev files by name (split tokens removed) "
                          "or else by position")
    rep.add_argument("-l", "--name", action="append", metavar="NAME[,NAME...]",
                     help="the systems' names (legends), in the order the systems appear: "
                          "-l ISV,GMM or -l ISV -l GMM (bob.measure's -lg)")
    # the report reads no counted table yet: a pyeer histogram is read in Python
    rep.add_argument("--format", default="auto",
                     choices=[f for f in FORMATS if f != "pyeer_histogram"],
                     help="how to read the files (default: auto, by extension)")
    rep.add_argument("--trials", type=Path, metavar="KEY",
                     help="NIST/Kaldi trials key (enroll test target|nontarget) shared by all "
                          "score files; implies --format nist")
    rep.add_argument("--trials-dev", type=Path, metavar="KEY",
                     help="the trials key of the dev score files (implies --format nist)")
    rep.add_argument("--trials-eval", type=Path, metavar="KEY",
                     help="the trials key of the eval score files (implies --format nist)")
    rep.add_argument("--column", action="append", default=[], metavar="OLD=NEW",
                     help="rename a table column to the schema, e.g. --column llr=score")
    rep.add_argument("--split-column", default="split", metavar="NAME",
                     help="the table's split column (default: split)")
    rep.add_argument("--max-bytes", type=_size, default=DEFAULT_MAX_BYTES, metavar="SIZE",
                     help="the most memory reading one file may take: its bytes after "
                          "decompression, and its text with its parsed fields (a number of "
                          "bytes, or with K, M or G: 512M; default 8G)")


def _size(text: str) -> int:
    """A number of bytes: an integer, or one with a binary suffix K, M or G (``512M``)."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)i?B?\s*", text, flags=re.IGNORECASE)
    if match is None or int(match.group(1)) < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size: give a positive number of bytes, or one with K, M or G"
        )
    return int(match.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[match.group(2).upper()]


def _analysis_arguments(rep: argparse.ArgumentParser) -> None:
    """How to evaluate: the protocol, the scores' meaning, the tests and the bootstrap."""
    rep.add_argument("--on", default="auto", metavar="SPLIT",
                     help="the split thresholds are chosen on (default auto: the dev split "
                          "when the table has dev and eval splits)")
    rep.add_argument("--apply-to", default="auto", metavar="SPLIT",
                     help="the split a-priori rates are reported on (default auto: the eval "
                          "split when the thresholds come from dev, else the other splits)")
    rep.add_argument("--orientation", default="similarity", choices=["similarity", "distance"],
                     help="distance: lower scores are more genuine")
    rep.add_argument("--nonfinite", default="raise", choices=["raise", "drop", "reject"],
                     help="NaN/inf scores: an error, dropped, or failures to acquire")
    rep.add_argument("--test", default="auto", choices=["auto", *TESTS],
                     help="the pairwise test (default auto: the subject bootstrap with a "
                          "subject column, else hter_dependent)")
    rep.add_argument("--common-trials", action="store_true",
                     help="pair systems on the trials they share (default: systems scored on "
                          "different trials get the independent HTER test)")
    rep.add_argument("--adjust", default="holm",
                     help="multiplicity correction, a statsmodels code or 'none' (default: holm)")
    rep.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    rep.add_argument("--confidence-level", type=float, default=0.95,
                     help="level of the intervals (default 0.95)")
    rep.add_argument("--n-resamples", type=int, default=1000, metavar="N",
                     help="bootstrap replicates; 0 skips the bootstrap (default 1000)")
    rep.add_argument("--resample", default="auto", choices=["auto", "label", "trial", "subject"],
                     help="the unit of dependence: what the bootstraps resample and what the "
                          "a-priori HTER interval counts as independent (default auto: "
                          "subjects when the table has a subject column, else trials within "
                          "each class)")
    rep.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    rep.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="progress bars on stderr (default: only on a terminal)")
    calibration_arguments(rep)


def _output_arguments(rep: argparse.ArgumentParser) -> None:
    """Where and how to write the report."""
    rep.add_argument("--out", type=Path, metavar="DIR", help="write the report folder here")
    rep.add_argument("--latex", action="store_true", help="also write the tables as .tex")
    rep.add_argument("--pdf", action="store_true", help="also write the figures as PDF")
    rep.add_argument("--force", action="store_true",
                     help="write into a non-empty folder that holds no earlier report (files "
                          "that are not the library's are never overwritten)")


def _load(args) -> tuple[pd.DataFrame, str]:
    columns = {}
    for item in args.column:
        old, sep, new = item.partition("=")
        if not sep or not old or not new:
            raise ValueError(f"--column {item!r}: expected OLD=NEW, e.g. --column llr=score")
        columns[old] = new
    if not args.files and not args.dev and not args.eval:
        trials = datasets.example_trials()
        if args.name:
            names = [n.strip() for item in args.name for n in item.split(",") if n.strip()]
            trials = load_trials([], names=names, table=trials)
        return trials, "bundled example (pandas_biosig.datasets.example_trials())"
    names = [n.strip() for item in args.name or [] for n in item.split(",") if n.strip()]
    trials = load_trials(
        args.files, dev=args.dev, eval=args.eval, pairs=args.dev_eval, names=names or None,
        format=args.format, trials=args.trials, trials_dev=args.trials_dev,
        trials_eval=args.trials_eval, columns=columns, max_bytes=args.max_bytes,
    )
    names = [*map(str, args.files), *map(str, args.dev or []), *map(str, args.eval or [])]
    title = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return trials, title


def _round_trip(value: Any) -> str:
    """A float as the shortest text that reads back to the same float (``repr``): pandas'
    own writer may drop the last digit (0.0361289455043892 for 0.036128945504389276)."""
    return repr(float(value))


def _write(
    rep: Report, figs: dict, out: Path, *, latex: bool, pdf: bool, force: bool = False
) -> list[Path]:
    """Write the report folder (see :mod:`pandas_biosig.cli._folder` for the rules)."""

    def write(stage: Path) -> None:
        for name, (frame, options) in rep.tables.items():
            frame.to_csv(stage / f"{name}.csv", index=False, float_format=_round_trip)
            if latex:
                text = to_latex(frame, label=f"tab:{name}", **options)
                (stage / f"{name}.tex").write_text(text)
        shown = []
        for name, (fig, caption) in figs.items():
            fig.savefig(stage / f"{name}.png", dpi=150, bbox_inches="tight")
            if pdf:
                fig.savefig(stage / f"{name}.pdf", bbox_inches="tight")
            shown.append((f"{name}.png", caption))
        (stage / "report.md").write_text(rep.markdown(shown))

    return write_report(out, write, force=force, version=__version__)


def _trials_report(args, adjust) -> tuple[Report, dict]:
    """The report of the trial table the command line names."""
    trials, title = _load(args)
    trials, maps = calibrated_trials(
        trials, args, split=args.split_column, on=args.on, apply_to=args.apply_to,
        orientation=args.orientation, nonfinite=args.nonfinite)
    rep, figs = _report(
        trials, title=title, split=args.split_column, on=args.on, apply_to=args.apply_to,
        orientation=args.orientation, nonfinite=args.nonfinite,
        n_resamples=args.n_resamples, resample=args.resample,
        confidence_level=args.confidence_level,
        seed=args.seed, test=args.test, adjust=adjust, alpha=args.alpha,
        common_trials=args.common_trials, figures=args.out is not None,
        progress=args.progress,
    )
    calibration_section(rep, maps)
    return rep, figs


def _tandem_report(table, title: str, args, adjust) -> tuple[Report, dict]:
    """The report of a tandem table (ASVspoof ASV + CM files, or a tidy tandem table)."""
    rep = Report(title, notes=TANDEM_NOTES)
    tandem_sections(rep, table, n_resamples=args.n_resamples,
                    confidence_level=args.confidence_level, seed=args.seed, adjust=adjust,
                    alpha=args.alpha, progress=args.progress)
    return rep, tandem_figures(table) if args.out is not None else {}


def main(argv: list[str] | None = None) -> int:
    """Run ``biosig``; return the exit status (0, or 1 after a one-line error on stderr)."""
    args = _parser().parse_args(argv)
    try:
        unused = [f for f, on in (("--latex", args.latex), ("--pdf", args.pdf),
                                  ("--force", args.force)) if on]
        if unused and args.out is None:
            verb = "needs" if len(unused) == 1 else "need"
            raise ValueError(f"{' and '.join(unused)} {verb} --out DIR: without it the report "
                             "is printed, not written")
        adjust = None if args.adjust.lower() in ("none", "") else args.adjust
        if adjust is not None and adjust not in ADJUST_METHODS:
            raise ValueError(f"--adjust {args.adjust!r} is not one of {list(ADJUST_METHODS)}")
        tandem = load_tandem(args)
        if tandem is not None:
            rep, figs = _tandem_report(*tandem, args, adjust)
        else:
            rep, figs = _trials_report(args, adjust)
        if args.out is None:
            print(rep.markdown())
            return 0
        written = _write(
            rep, figs, args.out, latex=args.latex, pdf=args.pdf, force=args.force
        )
    except (SchemaError, ValueError, OSError, ImportError) as exc:
        print(f"biosig: error: {one_line(exc)}", file=sys.stderr)
        return 1
    print(f"biosig: wrote {written[0]} and {len(written) - 1} more file(s) in {args.out}")
    return 0
