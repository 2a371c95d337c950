"""The ``DataFrame.biosig`` accessor: a namespace that mirrors the public functions.

Each method delegates in one line to the function of the same name, with the same
keyword-only signature (a test compares them). The accessor keeps only the DataFrame
(``self._obj``): column names are arguments of each call, so nothing is validated or cached
when the accessor is created.
"""

from __future__ import annotations

import inspect
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd

from ._accessor_tables import _args, _GroupMethods, _PadMethods, _SearchMethods
from ._lazy import LazyModule
from ._schema import SchemaError, _genuine_from_labels, check_columns
from ._typing import (
    Adjust,
    Alternative,
    BootstrapCIMethod,
    BootstrapMetric,
    CIMetric,
    Combine,
    Criterion,
    EERMethod,
    EPCCriterion,
    NonFinite,
    Orientation,
    ResampleOption,
)

# the modules behind the methods load when a method is first called
curves = LazyModule("pandas_biosig.curves")
expected_performance = LazyModule("pandas_biosig.expected_performance")
metrics = LazyModule("pandas_biosig.metrics")
resampling = LazyModule("pandas_biosig.resampling")
significance = LazyModule("pandas_biosig.significance")
_plot = LazyModule("pandas_biosig.plot")

if TYPE_CHECKING:
    import xarray as xr

    from .stats import McNemarMethod, RateCIMethod

__all__ = ["BiosigAccessor"]

def _delegate(method):
    """The function a one-line delegation ``return module.func(self._obj, ...)`` or
    ``return func(self._obj, ...)`` calls."""
    names = method.__code__.co_names
    target = method.__globals__.get(names[0]) if names else None
    if inspect.ismodule(target):
        return getattr(target, names[1], None) if len(names) > 1 else None
    return target if inspect.isfunction(target) else None


def mirror_doc(func, method_name: str, namespace: str = "pandas_biosig") -> str:
    """``func``'s full docstring for the accessor method ``method_name``: the same text,
    said of the DataFrame the accessor belongs to, without the ``data`` parameter."""
    doc = inspect.cleandoc(func.__doc__ or "")
    first = next(iter(inspect.signature(func).parameters))
    lines = doc.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if (
            line.strip() == "Parameters"
            and i + 2 < len(lines)
            and lines[i + 1].startswith("---")
            and lines[i + 2].split(":")[0].strip() == first
        ):
            out += [line, lines[i + 1]]
            i += 3
            while i < len(lines) and (not lines[i].strip() or lines[i][0] == " "):
                i += 1  # the description of the data parameter
            continue
        out.append(line)
        i += 1
    summary, _, rest = "\n".join(out).partition("\n")
    where = "df.biosig" if namespace == "pandas_biosig" else f"df.biosig.{namespace.split('.')[-1]}"
    call = f"``{where}.{method_name}(...)`` is :func:`{namespace}.{method_name}` with "
    note = f"{call}``{first}=df``: the same parameters (but ``{first}``) and results."
    return f"{summary}\n\n{note}\n{rest}"


def _with_function_docs(cls, namespace: str = "pandas_biosig"):
    """Give every delegating method of ``cls`` (and of its bases) the full docstring of its
    function."""
    for base in cls.__mro__[:-1]:
        for name, method in vars(base).items():
            if name.startswith("_") or not inspect.isfunction(method):
                continue
            func = _delegate(method)
            if func is not None and func.__doc__:
                method.__doc__ = mirror_doc(func, name, namespace)
    return cls


class _FunctionDocs(type):
    """Gives the accessor's methods (and ``df.biosig.plot.*``) their functions' full
    docstrings the first time a public attribute is read from the class (``help``,
    Sphinx, ``pd.DataFrame.biosig.eer``): reading them imports every module behind the
    methods, which ``import pandas_biosig`` itself does not."""

    _done = False

    def __getattribute__(cls, name):
        if not name.startswith("_") and not type.__getattribute__(cls, "_done"):
            type.__setattr__(cls, "_done", True)
            _with_function_docs(cls)
            # df.biosig.plot.* mirror pandas_biosig.plot.* the same way
            _with_function_docs(_plot._PlotNamespace, "pandas_biosig.plot")
        return type.__getattribute__(cls, name)


@pd.api.extensions.register_dataframe_accessor("biosig")
class BiosigAccessor(_SearchMethods, _GroupMethods, _PadMethods, metaclass=_FunctionDocs):
    """Biometric evaluation of a tidy trial table: ``df.biosig.eer()`` and friends.

    Every method is :mod:`pandas_biosig`'s function of the same name applied to this
    DataFrame; see their documentation for the parameters and results. The methods of
    trial tables are defined here, those of search, demographic and PAD tables in
    :mod:`pandas_biosig._accessor_tables`.

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
    def plot(self) -> _plot._PlotNamespace:
        """Figures of this table: ``df.biosig.plot.det()``...; see :mod:`pandas_biosig.plot`."""
        return _plot._PlotNamespace(self._obj)

    def eer(
        self,
        *,
        method: EERMethod = "threshold",
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
        count: str | None = None,
    ) -> pd.DataFrame:
        """Equal error rate of every system; see :func:`pandas_biosig.eer`."""
        return metrics.eer(self._obj, **_args(locals()))

    def error_rates(
        self,
        *,
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
        count: str | None = None,
    ) -> pd.DataFrame:
        """Error counts and rates at a threshold policy; see :func:`pandas_biosig.error_rates`."""
        return metrics.error_rates(self._obj, **_args(locals()))

    def dcf(
        self,
        *,
        p_target: float | Sequence[float] = 0.01,
        c_miss: float | Sequence[float] = 1.0,
        c_fa: float | Sequence[float] = 1.0,
        threshold: Criterion | Literal["bayes"] | float | Mapping[Hashable, float] = "bayes",
        weight: float = 0.5,
        target: float | None = None,
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
        count: str | None = None,
    ) -> pd.DataFrame:
        """Normalized minDCF and actDCF; see :func:`pandas_biosig.dcf`."""
        return metrics.dcf(self._obj, **_args(locals()))

    def summary(
        self,
        *,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
        count: str | None = None,
    ) -> pd.DataFrame:
        """The headline numbers of every system; see :func:`pandas_biosig.summary`."""
        return metrics.summary(self._obj, **_args(locals()))

    def bootstrap(
        self,
        *,
        metric: BootstrapMetric = "eer_threshold",
        n_resamples: int = 1000,
        confidence_level: float = 0.95,
        ci_method: BootstrapCIMethod = "auto",
        resample: ResampleOption = "auto",
        seed: int | np.random.Generator | None = None,
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = "auto",
        progress: bool | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Bootstrap interval of a metric per system; see :func:`pandas_biosig.bootstrap`."""
        return resampling.bootstrap(self._obj, **_args(locals()))

    def paired_bootstrap(
        self,
        system_a: Hashable,
        system_b: Hashable,
        *,
        metric: BootstrapMetric = "eer_threshold",
        n_resamples: int = 1000,
        alternative: Alternative = "two-sided",
        resample: ResampleOption = "auto",
        seed: int | np.random.Generator | None = None,
        common_trials: bool = False,
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = "auto",
        apply_to: Hashable | None = "auto",
        progress: bool | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> resampling.BootstrapTestResult:
        """Paired bootstrap test of a metric difference; see
        :func:`pandas_biosig.paired_bootstrap`."""
        return resampling.paired_bootstrap(self._obj, **_args(locals()))

    def ci(
        self,
        *,
        metric: CIMetric | Sequence[CIMetric] = ("far", "frr", "hter", "dcf"),
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = "auto",
        confidence_level: float = 0.95,
        ci_method: RateCIMethod = "beta",
        combine: Combine = "mover",
        resample: ResampleOption = "auto",
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """FAR, FRR, HTER and DCF intervals per system; see :func:`pandas_biosig.ci`."""
        return significance.ci(self._obj, **_args(locals()))

    def compare(
        self,
        *,
        test: significance.Test | Literal["auto"] = "auto",
        baseline: Hashable | None = None,
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = "auto",
        apply_to: Hashable | Sequence[Hashable] | None = "auto",
        alpha: float = 0.05,
        adjust: Adjust | None = "holm",
        confidence_level: float = 0.95,
        alternative: Alternative = "two-sided",
        common_trials: bool = False,
        mcnemar_method: McNemarMethod = "exact",
        test_decision_rules: bool = False,
        metric: BootstrapMetric | None = None,
        n_resamples: int = 1000,
        resample: ResampleOption = "auto",
        seed: int | np.random.Generator | None = None,
        progress: bool | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Test every pair of systems, adjusted per family; see :func:`pandas_biosig.compare`."""
        return significance.compare(self._obj, **_args(locals()))

    def pairwise_matrix(self, *, col: str = "pvalue_adj") -> pd.DataFrame:
        """The k x k view of a pairwise table; see :func:`pandas_biosig.pairwise_matrix`."""
        return significance.pairwise_matrix(self._obj, **_args(locals()))

    def fold_metrics(
        self,
        *,
        fold: str = "fold",
        metric: BootstrapMetric = "hter",
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """A metric per fold and system; see :func:`pandas_biosig.fold_metrics`."""
        return significance.fold_metrics(self._obj, **_args(locals()))

    def fold_summary(
        self,
        *,
        fold: str = "fold",
        metric: BootstrapMetric = "hter",
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Mean and spread of a metric across folds; see :func:`pandas_biosig.fold_summary`."""
        return significance.fold_summary(self._obj, **_args(locals()))

    def compare_folds(
        self,
        *,
        fold: str = "fold",
        metric: BootstrapMetric = "hter",
        baseline: Hashable | None = None,
        threshold: Criterion | float | Mapping[Hashable, float] = "eer",
        weight: float = 0.5,
        target: float | None = None,
        p_target: float = 0.01,
        c_miss: float = 1.0,
        c_fa: float = 1.0,
        on: Hashable | None = None,
        apply_to: Hashable | Sequence[Hashable] | None = None,
        alpha: float = 0.05,
        adjust: Adjust | None = "holm",
        confidence_level: float = 0.95,
        alternative: Alternative = "two-sided",
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> pd.DataFrame:
        """Sign test across folds for every pair; see :func:`pandas_biosig.compare_folds`."""
        return significance.compare_folds(self._obj, **_args(locals()))

    def eer_bound_table(
        self,
        *,
        n: int | str | None = None,
        system: str = "system",
        eer: str = "eer",
        alpha: float = 0.05,
        adjust: Adjust | None = "holm",
        by: str | Sequence[str] | None = None,
    ) -> pd.DataFrame:
        """Pairwise EER bounds from reported EERs; see :func:`pandas_biosig.eer_bound_table`."""
        return significance.eer_bound_table(self._obj, **_args(locals()))


    def roc(
        self,
        *,
        far_grid=None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """Receiver operating characteristic of every system, as one Dataset; see :func:`pandas_biosig.roc`."""
        return curves.roc(self._obj, **_args(locals()))

    def det(
        self,
        *,
        far_grid=None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """Detection error tradeoff curve of every system: the ROC, for the DET axes; see :func:`pandas_biosig.det`."""
        return curves.det(self._obj, **_args(locals()))

    def rocch(
        self,
        *,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """Vertices of the ROC convex hull of every system; see :func:`pandas_biosig.rocch`."""
        return curves.rocch(self._obj, **_args(locals()))

    def epc(
        self,
        *,
        criterion: EPCCriterion = "min_weighted",
        weight=None,
        on: Hashable = "dev",
        apply_to: Hashable = "eval",
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """Expected Performance Curve: thresholds chosen on one split, rates on another; see :func:`pandas_biosig.epc`."""
        return expected_performance.epc(self._obj, **_args(locals()))

    def bayes_error(
        self,
        *,
        prior_log_odds=None,
        by: str | Sequence[str] | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """Bayes error-rate curve: the error of the best and of the calibrated decisions; see :func:`pandas_biosig.bayes_error`."""
        return curves.bayes_error(self._obj, **_args(locals()))

    def epc_bootstrap(
        self,
        *,
        criterion: EPCCriterion = "min_weighted",
        weight=None,
        on: Hashable = "dev",
        apply_to: Hashable = "eval",
        n_resamples: int = 1000,
        confidence_level: float = 0.95,
        resample: ResampleOption = "auto",
        seed: int | np.random.Generator | None = None,
        progress: bool | None = None,
        system: str = "system",
        trial: str = "trial",
        label: str = "label",
        score: str = "score",
        split: str | None = "split",
        subject: str | None = "subject",
        orientation: Orientation = "similarity",
        nonfinite: NonFinite = "raise",
    ) -> xr.Dataset:
        """Expected Performance Curve with bootstrap bands, and where two systems differ; see :func:`pandas_biosig.epc_bootstrap`."""
        return expected_performance.epc_bootstrap(self._obj, **_args(locals()))


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
        genuine = pd.Series(_genuine_from_labels(df, "label"), index=df.index)
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
