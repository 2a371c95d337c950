"""The ``DataFrame.biosig`` accessor: the public functions, applied to this table.

Each method is declared in one line, ``eer = mirror("eer")``: a
:class:`~pandas_biosig._core.mirror.mirror` is a descriptor that reads the function of that
name from the public namespace (loading its module on first use) and returns it bound to the
accessor's table, with the function's signature and full docstring, the data argument left
out (``inspect.signature`` and ``inspect.getdoc`` of ``df.biosig.eer`` are those of
:func:`pandas_biosig.eer` without ``data``). ``df.biosig.plot`` mirrors
:mod:`pandas_biosig.plot` the same way.
``accessor.pyi`` beside this file spells every method out for type checkers and IDEs;
``tests/test_accessor.py`` checks that it is current (regenerate it with
``python -m pandas_biosig._stubgen``).

The accessor keeps only the DataFrame (``self._obj``): column names are arguments of each
call, so nothing is validated or cached when the accessor is created.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._core.mirror import mirror
from ._core.schema import SchemaError, check_columns, genuine_from_labels

__all__ = ["BiosigAccessor", "PlotAccessor"]


class PlotAccessor:
    """``df.biosig.plot``: the functions of :mod:`pandas_biosig.plot` applied to this table."""

    def __init__(self, pandas_obj: pd.DataFrame):
        self._obj = pandas_obj

    def __repr__(self) -> str:
        names = (n for n, v in vars(type(self)).items() if isinstance(v, mirror))
        return "<pandas_biosig plot namespace: " + ", ".join(names) + ">"

    det = mirror("det", "pandas_biosig.plot")
    roc = mirror("roc", "pandas_biosig.plot")
    epc = mirror("epc", "pandas_biosig.plot")
    bayes_error = mirror("bayes_error", "pandas_biosig.plot")
    cllr_curve = mirror("cllr_curve", "pandas_biosig.plot")
    hist = mirror("hist", "pandas_biosig.plot")
    pad_det = mirror("pad_det", "pandas_biosig.plot")
    epsc = mirror("epsc", "pandas_biosig.plot")
    fmr_heatmap = mirror("fmr_heatmap", "pandas_biosig.plot")
    group_det = mirror("group_det", "pandas_biosig.plot")
    tdcf_curve = mirror("tdcf_curve", "pandas_biosig.plot")


@pd.api.extensions.register_dataframe_accessor("biosig")
class BiosigAccessor:
    """Biometric evaluation of a tidy table: ``df.biosig.eer()`` and friends.

    Every method is :mod:`pandas_biosig`'s function of the same name applied to this
    DataFrame, with the same parameters (but the table) and the same documentation.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> trials.biosig.eer()[["system", "split", "eer"]].shape
    (8, 3)
    """

    def __init__(self, pandas_obj: pd.DataFrame):
        self._obj = pandas_obj

    def __repr__(self) -> str:
        try:
            check_columns(self._obj)
        except SchemaError as exc:  # a repr never raises: it says what is wrong
            return f"biosig accessor: {exc}"
        return _describe(self._obj)

    def __dir__(self) -> list[str]:
        # pairwise_matrix reads a pairwise table (system_a, system_b): not offered on trials
        names = set(super().__dir__())
        if not {"system_a", "system_b"} <= set(self._obj.columns):
            names.discard("pairwise_matrix")
        return sorted(names)

    @property
    def plot(self) -> PlotAccessor:
        """Figures of this table: ``df.biosig.plot.det()``...; see :mod:`pandas_biosig.plot`."""
        return PlotAccessor(self._obj)

    # verification trial tables
    eer = mirror("eer")
    error_rates = mirror("error_rates")
    dcf = mirror("dcf")
    summary = mirror("summary")
    roc = mirror("roc")
    det = mirror("det")
    det_band = mirror("det_band")
    frr_at_far = mirror("frr_at_far")
    rocch = mirror("rocch")
    bayes_error = mirror("bayes_error")
    epc = mirror("epc")
    epc_bootstrap = mirror("epc_bootstrap")
    ci = mirror("ci")
    threshold_guarantee = mirror("threshold_guarantee")
    bootstrap = mirror("bootstrap")
    paired_bootstrap = mirror("paired_bootstrap")
    compare = mirror("compare")
    fold_metrics = mirror("fold_metrics")
    fold_summary = mirror("fold_summary")
    compare_folds = mirror("compare_folds")

    calibrate = mirror("calibrate")
    fuse = mirror("fuse")
    compare_fusion = mirror("compare_fusion")
    cllr_curve = mirror("cllr_curve")
    # tables of results
    eer_bound_table = mirror("eer_bound_table")
    pairwise_matrix = mirror("pairwise_matrix")
    # search tables (identification)
    probe_ranks = mirror("probe_ranks")
    cmc = mirror("cmc")
    recognition_rate = mirror("recognition_rate")
    detection_identification_rate = mirror("detection_identification_rate")
    dir_curve = mirror("dir_curve")
    compare_identification = mirror("compare_identification")
    cmc_difference = mirror("cmc_difference")
    # demographic trial tables
    group_rates = mirror("group_rates")
    cross_group_fmr = mirror("cross_group_fmr")
    fairness = mirror("fairness")
    fdr_curve = mirror("fdr_curve")
    compare_groups = mirror("compare_groups")
    compare_fairness = mirror("compare_fairness")
    # PAD and vulnerability tables
    pad_metrics = mirror("pad_metrics")
    pad_rates = mirror("pad_rates")
    pad_det = mirror("pad_det")
    pad_compare = mirror("pad_compare")
    vulnerability = mirror("vulnerability")
    iapmr = mirror("iapmr")
    epsc = mirror("epsc")

    # tandem tables (ASV + CM)
    tandem_table = mirror("tandem_table")
    tdcf = mirror("tdcf")
    tdcf_curve = mirror("tdcf_curve")
    teer = mirror("teer")
    sasv_score = mirror("sasv_score")
    adcf = mirror("adcf")
    cm_metrics = mirror("cm_metrics")
    tandem_bootstrap = mirror("tandem_bootstrap")
    tandem_compare = mirror("tandem_compare")


def _describe(df: pd.DataFrame) -> str:
    """What the accessor sees, with the canonical column names (cf-xarray style).

    One vectorized pass per statistic (no per-row Python), so it stays quick on large
    tables. A search table (``probe, reference, score, mate``) is described as such.
    """
    lines = [f"<pandas_biosig accessor: {len(df)} rows>"]
    search = ["system", "probe", "reference", "score", "mate"]
    if all(c in df.columns for c in search):
        lines.append("  search table (identification): " + ", ".join(search))
        for name, sub in df.groupby("system", sort=False, observed=True):
            n_probes = sub["probe"].nunique()
            n_refs = sub["reference"].nunique()
            mated = sub.loc[sub["mate"].astype(bool), "probe"].nunique()
            lines.append(
                f"  {name}: {n_probes} probes ({mated} mated), {n_refs} references, "
                f"{len(sub)} scores"
            )
        return "\n".join(lines)
    cols = ["system", "trial", "label", "score"]
    missing = [c for c in cols if c not in df.columns]
    present = [c for c in (*cols, "split", "subject") if c in df.columns]
    lines.append(f"  canonical columns found: {', '.join(present) or 'none'}")
    if missing:
        lines.append(f"  missing (pass their names as keywords): {', '.join(missing)}")
        return "\n".join(lines)
    try:
        genuine = pd.Series(genuine_from_labels(df, "label"), index=df.index)
    except SchemaError as exc:
        lines.append("  labels: " + str(exc).splitlines()[0])
        return "\n".join(lines)
    keys = ["system"] + (["split"] if "split" in df.columns else [])
    score = pd.to_numeric(df["score"], errors="coerce")
    finite = score.where(np.isfinite(score.to_numpy(dtype=float, na_value=np.nan)))
    frame = pd.DataFrame({"genuine": genuine, "score": finite})
    for k in keys:
        frame[k] = df[k]
    grouped = frame.groupby(keys, sort=False, observed=True, dropna=False)
    stats = grouped.agg(
        n_genuine=("genuine", "sum"),
        n=("genuine", "size"),
        n_finite=("score", "count"),
        low=("score", "min"),
        high=("score", "max"),
        distinct=("score", "nunique"),
    )
    for key, row in stats.iterrows():
        key = key if isinstance(key, tuple) else (key,)
        nonfinite = int(row.n - row.n_finite)
        lines.append(
            "  "
            + " / ".join(str(k) for k in key)
            + f": {int(row.n_genuine)} genuine, {int(row.n - row.n_genuine)} impostor, "
            + f"scores [{row.low:.4g}, {row.high:.4g}], {int(row.n_finite - row.distinct)} tied"
            + (f", {nonfinite} NaN/inf (see nonfinite=)" if nonfinite else "")
        )
    return "\n".join(lines)


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
