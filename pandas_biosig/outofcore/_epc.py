"""The Expected Performance Curve of a dask trial table, exact (see
:mod:`pandas_biosig.outofcore`, which makes :func:`epc` public).

A documented internal module (docs/architecture.md): each weight's threshold is a
weighted-error minimum on the ``on`` split, located by the exact passes
(:mod:`pandas_biosig.outofcore._engine`) as :func:`error_rates` locates
``threshold="min_weighted"``; the rates at those thresholds on the ``apply_to`` split read
the bins that hold them. The Dataset is built as :func:`pandas_biosig.epc` builds it.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import xarray as xr

from .._core.criteria import choose_epc
from .._core.curve_datasets import (
    Layout,
    epc_dataset,
    rate_grid,
)
from .._core.options import NonFinite, Orientation
from .._core.protocol import (
    AUTO,
    ERROR_ON_MISSING,
    one_reported_split,
    reported_groups,
    resolve_splits,
    select_split,
)
from .._core.schema import SchemaError
from .._kernels.curves import epc_values
from ..verification._epc import DEFAULT_WEIGHTS, ERROR_SPLIT_SCALAR
from ._engine import _engine, refuse_count

if TYPE_CHECKING:  # not at import: see pandas_biosig.outofcore._engine
    import dask.dataframe as dd

__all__ = ["ERROR_EPC_CRITERION", "epc"]

ERROR_EPC_CRITERION = (
    "criterion={criterion!r}: the dask EPC chooses its thresholds by 'min_weighted' (a "
    "minimum the exact passes locate); compute() the table for {criterion!r}"
)


def epc(
    data: dd.DataFrame,
    /,
    *,
    criterion: str = "min_weighted",
    weight=None,
    on: Hashable | None = AUTO,
    apply_to: Hashable | None = AUTO,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> xr.Dataset:
    r"""Expected Performance Curve of every system of a dask trial table, exactly as
    :func:`pandas_biosig.epc`.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    criterion : {"min_weighted"}
        The weighted error :math:`\alpha FAR + (1-\alpha) FRR` minimized on ``on`` (the
        in-memory default; the other criteria raise :data:`ERROR_EPC_CRITERION`).
    weight, on, apply_to, by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.epc`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError``
        (:data:`pandas_biosig.outofcore._engine.ERROR_COUNT`); compute() the table to use
        counted trials.

    Returns
    -------
    xarray.Dataset
        The Dataset of :func:`pandas_biosig.epc`, identical to it.

    See Also
    --------
    pandas_biosig.epc : the in-memory function.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> ddf.biosig.epc(weight=[0.1, 0.5, 0.9]).identical(pbs.epc(trials, weight=[0.1, 0.5, 0.9]))
    True
    """
    refuse_count(count)
    if criterion != "min_weighted":
        raise ValueError(ERROR_EPC_CRITERION.format(criterion=criterion))
    alpha = DEFAULT_WEIGHTS.copy() if weight is None else rate_grid(weight, "weight", scalar=True)
    for value, name in ((on, "on"), (apply_to, "apply_to")):
        if isinstance(value, list | tuple | np.ndarray | pd.Index | pd.Series | set):
            raise ValueError(ERROR_SPLIT_SCALAR.format(name=name, value=value))
    eng = _engine(data, system=system, trial=trial, label=label, score=score, split=split,
                  by=by, orientation=orientation, nonfinite=nonfinite)
    trials = eng.trials
    splits = resolve_splits(trials, on, apply_to)
    one_reported_split(trials, splits, "epc")
    on, targets = splits.on, reported_groups(trials, splits)
    source = targets if on is None else select_split(trials, on, name="on")
    row = {g.key[:-1]: g for g in source}
    for g in targets:
        if g.key[:-1] not in row:
            where = "".join(f", {b}={v!r}" for b, v in zip(trials.by, g.key, strict=False))
            raise SchemaError(ERROR_ON_MISSING.format(system=g.system, on=on, where=where))
    # the in-memory chooser, on the exact sweeps: one min_weighted point per weight
    chosen = eng.solve(lambda eng: {key: choose_epc(eng.sweep(g.key), alpha, "min_weighted")
                                    for key, g in row.items()})
    rows = eng.solve(lambda eng: _rows(eng, targets, chosen, alpha))
    layout = Layout(trials, targets, with_split=False)
    return epc_dataset(trials, layout, rows, alpha, "min_weighted", on, targets[0].split, score)


def _rows(eng, targets, chosen, alpha) -> dict[str, list]:
    """Per reported group: the thresholds (score units), the rates, the criterion's
    value, its mean over the grid, the EER and the counts."""
    names = ("threshold", "far", "frr", "hter", "value", "area", "area_hter", "eer",
             "n_genuine", "n_impostor")
    out: dict[str, list] = {name: [] for name in names}
    for g in targets:
        t = chosen[g.key[:-1]]
        ex = eng.sweep(g.key)
        fa, fr = ex.rates_at_threshold(t)
        far, frr, hter, value = epc_values(fa, fr, ex.n, ex.p, alpha, "min_weighted")
        for name, v in zip(names, (eng.spec.sign * t, far, frr, hter, value, value.mean(),
                                   hter.mean(), ex.eer_rocch(), ex.p, ex.n), strict=True):
            out[name].append(v)
    return out
