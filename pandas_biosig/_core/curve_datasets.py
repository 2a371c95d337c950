"""The builders of the curve Datasets: dims and coordinates of the groups, variables with
``long_name`` and ``units``, and the Dataset attrs every curve carries.

A documented internal module (docs/architecture.md, layer 1): :mod:`pandas_biosig.verification._curves`,
:mod:`pandas_biosig.pad`, :func:`pandas_biosig.vulnerability` and
:mod:`pandas_biosig.outofcore` build their ``xarray.Dataset`` results with these ``_`` names.
Every Dataset has the group dims (``by`` columns, ``system``, ``split``) and the attrs
``kind``, ``orientation`` and ``pandas_biosig_version``, so it round-trips through netCDF.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version
from typing import Protocol

import numpy as np
import xarray as xr

from .schema import SchemaError, Trials
from .validation import check_rate

ERROR_GRID_SHAPE = "{name} must be a non-empty one-dimensional array of numbers, got {value!r}"
ERROR_GRID_RANGE = "{name} must lie in [0, 1]; got {bad} (NaN counts as outside)"

ERROR_LABELS = (
    "coordinate {name!r}: the values {first!r} and {second!r} would both be labelled "
    "{label!r}; give them distinct names"
)
ERROR_PRIOR_LOG_ODDS = "prior_log_odds must not contain NaN; got NaN at position(s) {positions}"

FRACTION = "1"  # the units of a rate
#: The default prior log-odds grid of the Bayes-error and cross-entropy curves:
#: -7, -6.9, ..., 7.
DEFAULT_PRIOR_LOG_ODDS = np.linspace(-7.0, 7.0, 141)


class _Table(Protocol):
    """What the builders read of a validated table of any kind (trials, PAD, vulnerability)."""

    @property
    def by(self) -> tuple[str, ...]: ...

    @property
    def orientation(self) -> str: ...


class _Keyed(Protocol):
    """A group of any kind of table, keyed ``(*by, system, split)``."""

    @property
    def key(self) -> tuple: ...


def _version() -> str:
    """The installed package's version (the same lookup as ``pandas_biosig.__version__``)."""
    try:
        return version("pandas-biosig")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0+unknown"


def rate_grid(values, name: str, *, scalar: bool = False) -> np.ndarray:
    """A validated 1-D float grid of rates in [0, 1] (``scalar``: a number is a grid of one,
    checked as every single rate is, :data:`pandas_biosig._core.validation.ERROR_RATE`)."""
    if scalar and np.ndim(values) == 0 and not isinstance(values, str):
        return np.array([check_rate(values, name)])
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(ERROR_GRID_SHAPE.format(name=name, value=values)) from None
    if scalar and arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(ERROR_GRID_SHAPE.format(name=name, value=values))
    bad = ~((arr >= 0) & (arr <= 1))
    if bad.any():
        raise ValueError(ERROR_GRID_RANGE.format(name=name, bad=arr[bad][:5].tolist()))
    return arr


def prior_grid(values) -> np.ndarray:
    """A validated 1-D grid of prior log odds (a copy of :data:`DEFAULT_PRIOR_LOG_ODDS`
    for None); infinite values are allowed (prior 0 or 1), NaN is not."""
    if values is None:
        return DEFAULT_PRIOR_LOG_ODDS.copy()
    try:
        arr = np.asarray(values, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(ERROR_GRID_SHAPE.format(name="prior_log_odds", value=values)) from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(ERROR_GRID_SHAPE.format(name="prior_log_odds", value=values))
    if np.isnan(arr).any():
        raise ValueError(
            ERROR_PRIOR_LOG_ODDS.format(positions=np.flatnonzero(np.isnan(arr))[:5].tolist())
        )
    return arr


def label_array(values: list, name: str = "") -> np.ndarray:
    """Coordinate labels: numbers stay numbers, anything else becomes str (netCDF-safe).

    Distinct values keep distinct labels: two values with one label (``1`` and ``"1"``)
    are a :class:`~pandas_biosig.SchemaError` (:data:`ERROR_LABELS`) naming them, never a
    coordinate with a duplicate label."""
    arr = np.asarray(values)
    if arr.dtype.kind in "biuf":
        return arr
    labels = [str(v) for v in values]
    check_labels(values, labels, name)
    return np.array(labels, dtype=object)


def check_labels(values: Sequence, labels: Sequence[str], name: str) -> None:
    """:data:`ERROR_LABELS` when two of ``values`` share a label."""
    seen: dict[str, object] = {}
    for v, label in zip(values, labels, strict=True):
        if label in seen:
            raise SchemaError(ERROR_LABELS.format(name=name, first=seen[label], second=v,
                                                  label=label))
        seen[label] = v


class Layout:
    """The dims and coordinates of the groups: ``by`` columns, system, split."""

    def __init__(self, trials: _Table, groups: Sequence[_Keyed], *, with_split: bool):
        self.names = [*trials.by, "system"] + (["split"] if with_split else [])
        positions = list(range(len(trials.by) + 1)) + ([len(trials.by) + 1] if with_split else [])
        self.values = [list(dict.fromkeys(g.key[i] for g in groups)) for i in positions]
        lookup = [{v: j for j, v in enumerate(vals)} for vals in self.values]
        self.index = [
            tuple(lk[g.key[i]] for lk, i in zip(lookup, positions, strict=True)) for g in groups
        ]
        self.shape = tuple(len(v) for v in self.values)

    def coords(self) -> dict:
        return {name: label_array(vals, name) for name, vals in zip(self.names, self.values, strict=True)}

    def summary(self, values, *, dtype=np.float64, fill=np.nan) -> np.ndarray:
        out = np.full(self.shape, fill, dtype=dtype)
        for idx, v in zip(self.index, values, strict=True):
            out[idx] = v
        return out

    def curve(self, arrays: Sequence[np.ndarray], length: int | None = None) -> np.ndarray:
        length = max((a.size for a in arrays), default=0) if length is None else length
        out = np.full((*self.shape, length), np.nan)
        for idx, a in zip(self.index, arrays, strict=True):
            out[idx][: a.size] = a
        return out


def curve_variable(dims, data, long_name: str, units: str, **attrs) -> xr.Variable:
    return xr.Variable(dims, data, attrs={"long_name": long_name, "units": units, **attrs})


def threshold_attrs(trials: Trials, score: str, *, on=None) -> dict:
    rule = "score <= threshold" if trials.orientation == "distance" else "score >= threshold"
    where = "" if on is None else f" chosen on split {on!r}"
    return {"units": score, "long_name": f"threshold{where} (accept iff {rule})"}


def curve_dataset(variables: dict, coords: dict, *, kind: str, trials: _Table,
                  **attrs) -> xr.Dataset:
    ds = xr.Dataset(variables, coords=coords)
    ds.attrs.update(
        kind=kind,
        orientation=trials.orientation,
        pandas_biosig_version=_version(),
        **attrs,
    )
    return ds


def bayes_error_dataset(trials: Trials, plo: np.ndarray, rows: Sequence[tuple],
                        actual: bool) -> xr.Dataset:
    """The Dataset of :func:`pandas_biosig.bayes_error` (in memory and out of core), from
    each group's ``(min, act, default, eer, n_genuine, n_impostor)``: the three curves,
    the same divided by the default one, min(prior, 1 - prior) (normalized DCFs at unit
    costs; NaN where the prior is 0 or 1), and the summaries. ``actual`` False: distances,
    whose actual error is NaN and says why."""
    from scipy.special import expit

    layout = Layout(trials, trials.groups, with_split=trials.split_column is not None)
    mins, acts, defaults, eer, n_gen, n_imp = (list(c) for c in zip(*rows, strict=True))
    dims, summ, var = (*layout.names, "prior_log_odds"), layout.names, curve_variable
    act_attrs = {} if actual else {"note": "NaN: distances are not log-likelihood ratios"}
    scale = [np.where(d > 0, d, np.nan) for d in defaults]
    with np.errstate(divide="ignore", invalid="ignore"):
        norm = [[a / c for a, c in zip(arrays, scale, strict=True)]
                for arrays in (mins, acts, defaults)]
    variables = {
        "min_ber": var(dims, layout.curve(mins), "minimum Bayes error rate", FRACTION),
        "act_ber": var(dims, layout.curve(acts), "Bayes error rate at the threshold -prior_log_odds",
                       FRACTION, **act_attrs),
        "default_ber": var(dims, layout.curve(defaults),
                           "Bayes error rate without the scores, min(prior, 1 - prior)", FRACTION),
        "norm_min_ber": var(dims, layout.curve(norm[0]),
                            "normalized minimum Bayes error rate (min DCF)", FRACTION),
        "norm_act_ber": var(dims, layout.curve(norm[1]),
                            "normalized Bayes error rate at the threshold -prior_log_odds (act DCF)",
                            FRACTION, **act_attrs),
        "norm_default_ber": var(dims, layout.curve(norm[2]),
                                "normalized Bayes error rate without the scores", FRACTION),
        "eer": var(summ, layout.summary(eer), "equal error rate (ROC convex hull)", FRACTION),
        "n_genuine": var(summ, layout.summary(n_gen, dtype=np.int64, fill=0), "genuine trials",
                         FRACTION),
        "n_impostor": var(summ, layout.summary(n_imp, dtype=np.int64, fill=0), "impostor trials",
                          FRACTION),
    }
    coords = layout.coords()
    coords["prior_log_odds"] = var(("prior_log_odds",), plo,
                                   "prior log odds log(prior / (1 - prior))", FRACTION)
    coords["prior"] = var(("prior_log_odds",), expit(plo), "prior probability of a genuine trial",
                          FRACTION)
    return curve_dataset(variables, coords, kind="bayes_error", trials=trials)


#: The ``value`` variable of each EPC criterion.
EPC_VALUE_NAMES = {
    "min_weighted": "weighted error rate a*FAR + (1-a)*FRR",
    "precision_recall": "F1 score",
    "far": "false acceptance rate (FAR)",
    "frr": "false rejection rate (FRR)",
}


def epc_dataset(trials, layout, rows, alpha, criterion, on, apply_to, score) -> xr.Dataset:
    """The Dataset of :func:`pandas_biosig.epc` (in memory and out of core): curves over
    (groups, ``weight``), summaries over the groups; ``rows`` each variable's values per
    reported group, ``on`` the split the thresholds were chosen on (None: the reported
    trials themselves), ``apply_to`` the reported split."""
    from .protocol import SAME_TRIALS

    dims = (*layout.names, "weight")
    summ = layout.names
    curve, summary = layout.curve, layout.summary
    variables = {
        "threshold": curve_variable(dims, curve(rows["threshold"]), **threshold_attrs(trials, score, on=on)),
        "far": curve_variable(dims, curve(rows["far"]), "false acceptance rate (FAR, FMR)", FRACTION),
        "frr": curve_variable(dims, curve(rows["frr"]), "false rejection rate (FRR, FNMR)", FRACTION),
        "hter": curve_variable(dims, curve(rows["hter"]), "half total error rate (FAR + FRR)/2", FRACTION),
        "value": curve_variable(dims, curve(rows["value"]), EPC_VALUE_NAMES[criterion], FRACTION),
        "area": curve_variable(summ, summary(rows["area"]), "mean of value over the weight grid", FRACTION),
        "area_hter": curve_variable(summ, summary(rows["area_hter"]), "mean of hter over the weight grid", FRACTION),
        "eer": curve_variable(
            summ, summary(rows["eer"]), f"equal error rate of split {apply_to!r} (ROC convex hull)",
            FRACTION,
        ),
        "n_genuine": curve_variable(summ, summary(rows["n_genuine"], dtype=np.int64, fill=0), "genuine trials", FRACTION),
        "n_impostor": curve_variable(summ, summary(rows["n_impostor"], dtype=np.int64, fill=0), "impostor trials", FRACTION),
    }
    coords = layout.coords()
    coords["weight"] = curve_variable(("weight",), alpha, f"weight a of the {criterion!r} criterion", FRACTION)
    chosen_on = apply_to if on is None else on
    coords["split"] = curve_variable((), label_array([apply_to])[0], "split the rates are measured on", "")
    coords["threshold_split"] = curve_variable((), label_array([chosen_on])[0], "split the thresholds are chosen on", "")
    coords["threshold_from"] = curve_variable(
        (), SAME_TRIALS if chosen_on == apply_to else str(chosen_on),
        "where the thresholds come from: their split, or the reported trials themselves", "")
    return curve_dataset(
        variables, coords, kind="epc", trials=trials, criterion=criterion,
        on=str(chosen_on), apply_to=str(apply_to),
    )
