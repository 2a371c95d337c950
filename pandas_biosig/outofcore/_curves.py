"""The DET curve of a dask trial table: exact on a FAR grid, else a grid DET with its error
bound (see :mod:`pandas_biosig.outofcore`, which makes :func:`det` public).

A documented internal module (docs/architecture.md): the curve half of the dask API, beside
:mod:`pandas_biosig.outofcore._engine` (the passes) and :mod:`pandas_biosig.outofcore._pairwise`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import xarray as xr

from .._core.criteria import bounded_point
from .._core.curve_datasets import Layout, curve_dataset, curve_variable, rate_grid, threshold_attrs
from .._core.options import NonFinite, Orientation
from .._kernels import outofcore as _ooc
from .._kernels.curves import RocPoints
from ._engine import _engine, refuse_count

if TYPE_CHECKING:  # not at import: see pandas_biosig.outofcore._engine
    import dask.dataframe as dd

__all__ = ["DET_VARIABLES", "det", "roc"]

#: Variables of :func:`det`'s Dataset.
DET_VARIABLES = ["threshold", "far", "frr", "eer", "auc", "n_genuine", "n_impostor", "far_gap", "frr_gap"]


def det(
    data: dd.DataFrame,
    /,
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
    count: str | None = None,
) -> xr.Dataset:
    r"""DET curve of every system of a dask trial table: exact on a FAR grid, else a grid DET.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    far_grid : array of float in [0, 1], optional
        With a grid, the result is :func:`pandas_biosig.det`'s, bit for bit: at each
        grid value the smallest FRR with FAR at most the value, with the threshold that
        reaches it (each point is an exact FNMR-at-FMR query).

        Without a grid the pandas path returns one point per distinct score, which no
        bounded memory can hold for 10⁸ trials; this path returns instead the exact
        operating points at the edges of score bins, refined until no bin holding more
        than one distinct score moves FAR or FRR by more than 1/1000, and thinned to steps
        of about 1/1000. Each point is exact (counts and threshold); the full-resolution
        curve lies inside the boxes between consecutive points, whose largest sides are
        the variables ``far_gap`` and ``frr_gap``.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.det`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError``
        (:data:`pandas_biosig.outofcore._engine.ERROR_COUNT`); compute() the table to use
        counted trials.

    Returns
    -------
    xarray.Dataset
        The variables of :func:`pandas_biosig.det` (``threshold``, ``far``,
        ``frr`` over (..., ``point``); ``eer``, ``auc``, ``n_genuine``,
        ``n_impostor``), with ``kind="det"``. Without ``far_grid``, also ``far_gap`` and
        ``frr_gap`` (the error bound) and ``points="grid: ..."``; the thresholds are the
        bins' lower edges (accept iff ``score >= threshold``), not bob.measure midpoints.

    See Also
    --------
    pandas_biosig.det : the in-memory function.

    Notes
    -----
    ``auc`` needs every score in order: one extra pass per ``batch_size`` scores (as in
    :func:`summary`).

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> from pandas_biosig.verification._curves import det as pandas_det, det_grid
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> grid = det_grid(20, low=1e-3)
    >>> ddf.biosig.det(far_grid=grid).identical(pandas_det(trials, far_grid=grid))
    True
    >>> ds = ddf.biosig.det()  # the grid DET and its error bound
    >>> bool((ds.far_gap <= 1e-3).all())
    True
    """
    refuse_count(count)
    return _curve(data, far_grid, "frr", system=system, trial=trial, label=label, score=score,
                  split=split, by=by, orientation=orientation, nonfinite=nonfinite)


def roc(
    data: dd.DataFrame,
    /,
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
    count: str | None = None,
) -> xr.Dataset:
    r"""ROC of every system of a dask trial table: exact on a FAR grid, else a grid ROC.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    far_grid : array of float in [0, 1], optional
        With a grid, the result is :func:`pandas_biosig.roc`'s, bit for bit (``tpr`` is
        one minus the smallest FRR with FAR at most each grid value, from counts).
        Without one, the grid ROC of :func:`det`: exact points at score-bin edges, with
        the error bound ``far_gap`` and ``frr_gap``.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.roc`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError``
        (:data:`pandas_biosig.outofcore._engine.ERROR_COUNT`); compute() the table to use
        counted trials.

    Returns
    -------
    xarray.Dataset
        The variables of :func:`pandas_biosig.roc` (``threshold``, ``far``, ``tpr``,
        ``eer``, ``auc``, ``n_genuine``, ``n_impostor``), ``kind="roc"``; without
        ``far_grid`` also ``far_gap`` and ``frr_gap``, as in :func:`det`.

    See Also
    --------
    pandas_biosig.roc : the in-memory function.
    det : the same points on the DET's axes.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> from pandas_biosig.verification._curves import roc as pandas_roc
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> grid = [1e-3, 1e-2, 0.1]
    >>> ddf.biosig.roc(far_grid=grid).identical(pandas_roc(trials, far_grid=grid))
    True
    """
    refuse_count(count)
    return _curve(data, far_grid, "tpr", system=system, trial=trial, label=label, score=score,
                  split=split, by=by, orientation=orientation, nonfinite=nonfinite)


def _curve(data, far_grid, axis: str, **columns) -> xr.Dataset:
    """The DET (``axis="frr"``) or the ROC (``"tpr"``) of a dask table."""
    grid = None if far_grid is None else rate_grid(far_grid, "far_grid")
    eng = _engine(data, **columns)
    if grid is None:
        _refine_to_step(eng, _GRID_STEP)
    solved = eng.solve(lambda eng: _eer_and_grid_points(eng, grid))
    full = eng.full_sweeps()  # for the AUC; its pass may split bins, before the points
    points = _curve_points(eng, solved, grid)
    return _det_dataset(eng, solved, full, points, grid, columns["score"], axis)


#: The largest FAR or FRR step of a grid DET inside a bin of several distinct scores.
_GRID_STEP = 1e-3


def _refine_to_step(eng, step: float) -> None:
    """Gather the scores of every bin that holds several distinct scores and moves FAR or
    FRR by more than ``step``, until there is none."""
    while True:
        needs = {k: ps.lo[_ooc.coarse_bins(ps, step) & ps.opaque()] for k, ps in eng.scores.items()}
        needs = {k: v for k, v in needs.items() if v.size}
        if not needs:
            break
        eng.resolve(needs, gather=False)


def _eer_and_grid_points(eng, grid) -> list:
    """Per group: the ROCCH-EER and, with a FAR grid, the FNMR-at-FMR point of each value."""
    out = []
    for g in eng.trials.groups:
        sw = eng.sweep(g.key)
        ops = [] if grid is None else [bounded_point(sw, "far", x) for x in grid]
        out.append((sw.eer_rocch(), ops))
    return out


def _curve_points(eng, solved, grid) -> dict:
    """Per group, the points of the curve: thresholds in score units, FAR, FRR, and
    without a grid the largest steps between consecutive points."""
    sign = eng.spec.sign
    points: dict[str, list] = {"threshold": [], "far": [], "frr": [], "tpr": [], "gaps": []}
    for g, (_, ops) in zip(eng.trials.groups, solved, strict=True):
        ps = eng.scores[g.key]
        if grid is None:
            t, fa, fr, far_gap, frr_gap = _ooc.grid_points(ps, _GRID_STEP)
            points["gaps"].append((far_gap, frr_gap))
        else:
            t = np.array([op.threshold for op in ops])
            fa = np.array([op.fa for op in ops], dtype=np.int64)
            fr = np.array([op.fr for op in ops], dtype=np.int64)
        pts = RocPoints(t, t, fa, fr, ps.n, ps.p)
        points["threshold"].append(sign * pts.threshold)
        points["far"].append(pts.far)
        points["frr"].append(pts.frr)
        points["tpr"].append(pts.tpr)
    return points


def _det_dataset(eng, solved, full, points, grid, score, axis: str) -> xr.Dataset:
    """The Dataset of :func:`pandas_biosig.det` (``axis="frr"``) or
    :func:`pandas_biosig.roc` (``"tpr"``) from the solved points."""
    trials, groups = eng.trials, eng.trials.groups
    layout = Layout(trials, groups, with_split=trials.split_column is not None)
    dims = (*layout.names, "point")
    var = curve_variable
    summ = layout.summary
    variables = {
        "threshold": var(dims, layout.curve(points["threshold"]), **threshold_attrs(trials, score)),
        axis: var(dims, layout.curve(points[axis]), *_AXES[axis][:2]),
        "eer": var(layout.names, summ([e for e, _ in solved]), "equal error rate (ROC convex hull)", "1"),
        "auc": var(layout.names, summ([full[g.key].auc(eng.scores[g.key].p - eng.scores[g.key].rp) for g in groups]),
                   "area under the ROC (ties count half)", "1"),
        "n_genuine": var(layout.names, summ([eng.scores[g.key].p for g in groups], dtype=np.int64, fill=0),
                         "genuine trials", "1"),
        "n_impostor": var(layout.names, summ([eng.scores[g.key].n for g in groups], dtype=np.int64, fill=0),
                          "impostor trials", "1"),
    }
    coords = layout.coords()
    far_attrs = ("false acceptance rate (FAR, FMR)", "1")
    length = variables[axis].sizes["point"]
    if grid is None:
        gaps = points["gaps"]
        variables = {"threshold": variables.pop("threshold"),
                     "far": var(dims, layout.curve(points["far"]), *far_attrs), **variables}
        variables["far_gap"] = var(layout.names, summ([a for a, _ in gaps]),
                                   "largest FAR step between consecutive points", "1")
        variables["frr_gap"] = var(layout.names, summ([b for _, b in gaps]),
                                   "largest FRR step between consecutive points", "1")
        kind = (
            "grid: exact points at score-bin edges (out of core); the full curve lies in the "
            "boxes between consecutive points, of sides at most far_gap and frr_gap"
        )
    else:
        coords["far"] = var(("point",), grid, *far_attrs, description=_AXES[axis][2])
        kind = "far_grid: the smallest FRR with FAR at most each grid value"
    coords["point"] = var(("point",), np.arange(length), "operating point, accept-all first", "1")
    return curve_dataset(variables, coords, kind="det" if axis == "frr" else "roc", trials=trials,
                         points=kind)


#: The second axis of each curve: its description, unit, and the grid's description.
_AXES = {
    "frr": ("false rejection rate (FRR, FNMR)", "1", "frr is the smallest FRR with FAR <= far"),
    "tpr": ("true positive rate (1 - FRR)", "1", "tpr is 1 - the smallest FRR with FAR <= far"),
}
