r"""Curves as :class:`xarray.Dataset`\ s: ROC, DET, ROC convex hull, EPC, Bayes error rate.

Every function validates the tidy trial table through :mod:`pandas_biosig._core.schema`, builds
one sorted sweep per (``by`` group, system, split) and reads the curve off it with the
numpy kernels of :mod:`pandas_biosig._kernels.curves`. The result is one Dataset whose
dims are the ``by`` columns, ``system``, ``split`` (when the table has a split column) and
the curve's own dim (``point``, ``weight`` or ``prior_log_odds``). Curves whose length
differs between systems are padded at the end with NaN; summaries (``eer``, ``auc``...)
live in the same Dataset without the curve dim. Every variable carries ``long_name`` and
``units`` attrs (``"1"`` for fractions), and the Dataset the attrs ``kind``,
``orientation`` and ``pandas_biosig_version``, so it round-trips through netCDF.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import xarray as xr

from .._core.counted import expand_counts
from .._core.curve_datasets import (
    FRACTION,
    Layout,
    bayes_error_dataset,
    curve_dataset,
    curve_variable,
    prior_grid,
    rate_grid,
    threshold_attrs,
)
from .._core.frames import group_sweep, orientation_sign
from .._core.options import NonFinite, Orientation
from .._core.schema import Trials, validate_trials
from .._core.segmented import Engine, uses_engine
from .._kernels import curves as _k
from .._kernels import segment_stats

__all__ = ['bayes_error', 'det', 'det_grid', 'ppndf', 'roc', 'rocch']

ERROR_DET_GRID = "det_grid needs n >= 2 and 0 < low < high <= 1; got n={n!r}, low={low!r}, high={high!r}"


# ----------------------------------------------------------------------------- helpers
def _common(data, *, by, system, trial, label, score, split, orientation, nonfinite) -> Trials:
    return validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite,
    )


def _roc_dataset(trials: Trials, grid: np.ndarray | None, *, kind: str, score: str) -> xr.Dataset:
    groups = trials.groups
    layout = Layout(trials, groups, with_split=trials.split_column is not None)
    dims = (*layout.names, "point")
    sweeps = [group_sweep(g) for g in groups]
    # where the genuine scores fall among the impostor scores: one search per sweep, read
    # by the AUC, the curve's length and the merge
    ats = [_k.placement(sw) for sw in sweeps]
    eer, auc = _hull_eer_and_auc(trials, sweeps, ats)
    # each curve carries its own axes: (FAR, FRR) for the DET, (FAR, TPR) for the ROC
    axis = "frr" if kind == "det" else "tpr"
    if grid is None:
        curve = _exact_curves(trials, layout, sweeps, ats, axis)
    else:
        curve = _grid_curves(trials, layout, sweeps, grid, axis)
    n_gen = [sw.p for sw in sweeps]
    n_imp = [sw.n for sw in sweeps]
    del sweeps, ats
    length = curve[axis].shape[-1]
    fraction = FRACTION
    variables = {"threshold": curve_variable(dims, curve["threshold"], **threshold_attrs(trials, score))}
    if grid is None:
        variables["far"] = curve_variable(dims, curve["far"], "false acceptance rate (FAR, FMR)", fraction)
    if axis == "frr":
        variables["frr"] = curve_variable(dims, curve["frr"], "false rejection rate (FRR, FNMR)", fraction)
    else:
        variables["tpr"] = curve_variable(dims, curve["tpr"], "true positive rate (1 - FRR)", fraction)
    variables.update(
        eer=curve_variable(layout.names, layout.summary(eer), "equal error rate (ROC convex hull)", fraction),
        auc=curve_variable(layout.names, layout.summary(auc), "area under the ROC (ties count half)", fraction),
        n_genuine=curve_variable(
            layout.names, layout.summary(n_gen, dtype=np.int64, fill=0), "genuine trials", fraction
        ),
        n_impostor=curve_variable(
            layout.names, layout.summary(n_imp, dtype=np.int64, fill=0), "impostor trials", fraction
        ),
    )
    coords = layout.coords()
    if grid is None:
        points = "exact: one per distinct score, then reject-all"
    else:
        coords["far"] = curve_variable(
            ("point",), grid, "false acceptance rate (FAR, FMR)", fraction,
            description=(
                "frr is the smallest FRR with FAR <= far" if axis == "frr"
                else "tpr is 1 - the smallest FRR with FAR <= far"
            ),
        )
        points = "far_grid: the smallest FRR with FAR at most each grid value"
    # a RangeIndex: the same coordinate as np.arange, without an array (and the copies of
    # it that building a pandas index from an array makes)
    coords["point"] = curve_variable(
        ("point",), pd.RangeIndex(length), "operating point, accept-all first", fraction
    )
    return curve_dataset(variables, coords, kind=kind, trials=trials, points=points)


def _hull_eer_and_auc(trials: Trials, sweeps: list, ats: list) -> tuple:
    """Each group's hull EER and AUC: many small groups in the segmented engine's
    vectorised passes (the large ones from their sweeps), else from each sweep; the same
    numbers, to the bit."""
    if uses_engine(trials):
        eng = Engine(trials)
        eng.sweeps_given(sweeps)
        eer, auc = eng.each(lambda sg: (segment_stats.rocch_eer(sg, segment_stats.hull(sg)),
                                        segment_stats.auc(sg)),
                            lambda sw, i: (sw.eer_rocch(), _k.auc(sw, ats[i])))
    else:
        eer = np.array([sw.eer_rocch() for sw in sweeps], dtype=np.float64)
        auc = np.array([_k.auc(sw, at) for sw, at in zip(sweeps, ats, strict=True)],
                       dtype=np.float64)
    for sw in sweeps:  # free what a pooled hull cached before the curves are allocated
        sw._positions = sw._cand = sw._pav = None
    return eer, auc


def _exact_curves(trials: Trials, layout: Layout, sweeps: list, ats: list, axis: str) -> dict:
    """The exact curves (``threshold``, ``far`` and ``axis``: ``"frr"`` or ``"tpr"``),
    written straight into the output arrays: nothing of the input's size besides the
    sweeps, and for distinct scores each element written once (only the padding is
    filled with NaN)."""
    names = ("threshold", "far", axis)
    # room for one point per score plus reject-all: the length of a curve of distinct
    # scores, found without a pass of its own (ties make a curve shorter, see below)
    bound = max(sw.neg.size + sw.pos.size + 1 for sw in sweeps)
    out = {name: np.empty((*layout.shape, bound)) for name in names}
    filled = np.zeros(layout.shape, dtype=bool)
    sizes = []
    for idx, sw, at in zip(layout.index, sweeps, ats, strict=True):
        rows = [out[name][idx] for name in names]
        m = _k.roc_fill(sw, *rows, axis=axis, at=at)
        sizes.append(m)
        if orientation_sign(trials) != 1.0:
            np.negative(rows[0][:m], out=rows[0][:m])
        filled[idx] = True
    length = max(sizes)
    if length < bound:  # ties: the room no curve reaches goes (copied, not held)
        out = {name: np.ascontiguousarray(arr[..., :length]) for name, arr in out.items()}
    for idx, m in zip(layout.index, sizes, strict=True):  # pad the shorter curves
        for name in names:
            out[name][idx][m:] = np.nan
    if not filled.all():
        for name in names:
            out[name][~filled] = np.nan
    return out


def _grid_curves(trials: Trials, layout: Layout, sweeps: list, grid: np.ndarray,
                 axis: str) -> dict:
    """The curves read at the FAR grid (the "at most" rule): ``threshold`` and ``axis``."""
    sign = orientation_sign(trials)
    thr, rate = [], []
    for sw in sweeps:
        pts = _k.roc_points(sw)
        i = _k.at_most(pts, grid)
        thr.append(sign * pts.threshold[i])
        rate.append(getattr(pts, axis)[i])
    return {"threshold": layout.curve(thr), axis: layout.curve(rate)}


# ----------------------------------------------------------------------------- public API
def roc(
    data: pd.DataFrame,
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
    r"""Receiver operating characteristic of every system, as one Dataset.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table, one row per (system, trial) with columns ``system, trial, label,
        score`` and optionally ``split``.
    far_grid : array of float in [0, 1], optional
        Resample every curve onto these FAR values, so that systems share a ``far``
        coordinate. The "at most" rule: at each grid value :math:`x` the curve reads the
        smallest FRR whose FAR is at most :math:`x` (the ROC's own value, as FMR100 is
        read), with the threshold that reaches it. By default every exact point is kept.
    by : str or list of str, optional
        Extra grouping columns (protocol, condition...): each becomes a dim.
    system, trial, label, score, split : str
        Column names. When the table has a ``split`` column each split is its own curve
        and ``split`` is a dim.
    orientation : {"similarity", "distance"}
        ``"distance"``: lower scores are more genuine; thresholds are reported in the
        score's own units and a trial is accepted iff ``score <= threshold``.
    nonfinite : {"raise", "drop", "reject"}
        What to do with NaN/inf scores: raise, drop the trials, or count them as failures
        to acquire; curves are drawn from the acquired scores either way (FMR/FNMR, as
        bob.measure draws them), so failures put no floor under the FRR.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        Dims: the ``by`` columns, ``system``, ``split`` (if the table has a split column)
        and ``point``. Variables over (..., ``point``):

        - ``threshold``: the threshold of each operating point, in score units
          (bob.measure's candidates: the lowest score, midpoints between consecutive
          distinct scores, the next float above the highest score);
        - ``far`` (exact curve; with ``far_grid`` it is a coordinate over ``point``
          instead) and ``tpr``, the true positive rate (fractions): the ROC's own two
          axes. ``tpr`` is computed from counts, :math:`(N_G - \#\{\text{genuine }
          s < \theta\}) / N_G`, so it equals scikit-learn's ``tpr`` to the last bit;
          :func:`det` gives the FRR instead (``1 - tpr`` may differ from it by one
          rounding).

        Exact points: one per distinct score (tied scores form one point) plus
        reject-all, ordered from accept-all to reject-all, i.e. by increasing threshold
        (decreasing for distances); FAR and TPR never increase along ``point``. Systems with fewer points are padded at the end with NaN.

        Variables over (..., ``system``, ``split``): ``eer`` (ROC convex hull EER),
        ``auc`` (area under the ROC, ties counted half = Mann-Whitney U / (NI NC)),
        ``n_genuine``, ``n_impostor`` (0 for a combination absent from the table).

        Attrs: ``kind="roc"``, ``orientation``, ``points``, ``pandas_biosig_version``.

    Raises
    ------
    SchemaError
        Missing columns, unknown labels, non-finite scores, a one-class system...
    ValueError
        ``far_grid`` not a 1-D array of numbers in [0, 1].

    See Also
    --------
    det, rocch, pandas_biosig.eer

    Notes
    -----
    At threshold :math:`\theta`, :math:`FAR(\theta) = \#\{\text{impostor } s \ge \theta\}
    / N_I` and :math:`FRR(\theta) = \#\{\text{genuine } s < \theta\} / N_G`. The exact
    curve is computed by merging the two sorted classes in linear time.

    Examples
    --------
    >>> import pandas_biosig as pbs
    >>> from pandas_biosig.verification._curves import roc
    >>> trials = pbs.datasets.example_trials()
    >>> ds = roc(trials)
    >>> dict(ds.sizes)
    {'system': 4, 'split': 2, 'point': 1098}
    >>> ds.eer.sel(split="eval").round(4).values.tolist()
    [0.0494, 0.0458, 0.0939, 0.1615]
    >>> roc(trials, far_grid=[0.001, 0.01, 0.1]).tpr.sel(split="eval", system="cnn").values
    array([0.47916667, 0.79583333, 0.9875    ])

    Compare with scikit-learn: ``roc_curve(y, s, drop_intermediate=False)`` gives the same
    points in reverse order (its first point, threshold ``inf``, is our reject-all).
    """
    data = expand_counts(data, count, trial=trial)
    grid = None if far_grid is None else rate_grid(far_grid, "far_grid")
    trials = _common(
        data, by=by, system=system, trial=trial, label=label, score=score, split=split,
        orientation=orientation, nonfinite=nonfinite,
    )
    return _roc_dataset(trials, grid, kind="roc", score=score)


def det(
    data: pd.DataFrame,
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
    r"""Detection error tradeoff curve of every system: the ROC, for the DET axes.

    The content is that of :func:`roc` (``kind="det"``) with the DET's own axes: ``far``
    and ``frr`` (the false rejection rate, from counts, in place of the ROC's ``tpr``). A
    DET plot draws ``pbs.ppndf(ds.frr)`` against ``pbs.ppndf(ds.far)`` (:func:`ppndf`, the
    standard normal deviate, clipped so that rates of 0 and 1 stay finite); FRR never
    decreases along ``point``.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`roc`).
    far_grid : array of float in [0, 1], optional
        Resample onto these FAR values ("at most" rule, see :func:`roc`); :func:`det_grid`
        gives a log-spaced grid for DET plots. By default every exact point is kept.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`roc`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        As :func:`roc`, with ``kind="det"`` and ``frr`` (the false rejection rate, FNMR) in
        place of ``tpr``.

    See Also
    --------
    roc, ppndf, det_grid

    Examples
    --------
    >>> import pandas_biosig as pbs
    >>> from pandas_biosig.verification._curves import det, det_grid, ppndf
    >>> trials = pbs.datasets.example_trials()
    >>> ds = det(trials, far_grid=det_grid(5, low=1e-3))
    >>> ds.far.values
    array([0.001     , 0.00562341, 0.03162278, 0.17782794, 1.        ])
    >>> y = ppndf(ds.frr.sel(system="cnn", split="eval"))  # a DataArray, coords kept
    >>> y.round(2).values
    array([ 0.05, -0.64, -1.24, -2.39, -8.13])

    Compare with scikit-learn: ``det_curve(y, s)`` gives the same (FAR, FRR) at each of
    its thresholds.
    """
    data = expand_counts(data, count, trial=trial)
    grid = None if far_grid is None else rate_grid(far_grid, "far_grid")
    trials = _common(
        data, by=by, system=system, trial=trial, label=label, score=score, split=split,
        orientation=orientation, nonfinite=nonfinite,
    )
    return _roc_dataset(trials, grid, kind="det", score=score)


def det_grid(n: int = 100, *, low: float = 1e-4, high: float = 1.0) -> np.ndarray:
    """A log-spaced FAR grid for DET plots: ``n`` values from ``low`` to ``high``.

    Parameters
    ----------
    n : int
        Number of grid values (at least 2).
    low, high : float
        The smallest and largest FAR, ``0 < low < high <= 1``.

    Returns
    -------
    ndarray
        ``np.geomspace(low, high, n)``.

    Examples
    --------
    >>> from pandas_biosig.verification._curves import det_grid
    >>> det_grid(3, low=0.01)
    array([0.01, 0.1 , 1.  ])
    """
    if not (isinstance(n, int | np.integer) and n >= 2 and 0 < low < high <= 1):
        raise ValueError(ERROR_DET_GRID.format(n=n, low=low, high=high))
    return np.geomspace(low, high, int(n))


def ppndf(x):
    r"""Standard normal deviate :math:`\Phi^{-1}(x)`: the axis transform of DET plots.

    Parameters
    ----------
    x : array_like or DataArray
        Rates in [0, 1]. Values are clipped to :math:`[\epsilon, 1 - \epsilon]` (machine
        epsilon, as bob.measure does), so 0 and 1 map to about -8.13 and +8.13 instead of
        infinities; NaN (the padding of ragged curves) stays NaN.

    Returns
    -------
    ndarray, float or DataArray
        The same shape (a DataArray keeps its dims and coords).

    Examples
    --------
    >>> from pandas_biosig.verification._curves import ppndf
    >>> ppndf([0.5, 0.975, 0.0]).round(3)
    array([ 0.   ,  1.96 , -8.125])

    Compare with scipy: ``scipy.stats.norm.ppf`` (without the clipping).
    """
    if isinstance(x, xr.DataArray):
        return xr.apply_ufunc(_k.ppndf, x, keep_attrs=False)
    return _k.ppndf(x)


def rocch(
    data: pd.DataFrame,
    /,
    *,
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
    r"""Vertices of the ROC convex hull of every system.

    The hull is computed by pool-adjacent-violators on the labels in score order (the
    BOSARIS / pyllr construction); its vertices are operating points of the ROC.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`roc`).
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`roc`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        Dims as :func:`roc`. Variables over (..., ``point``), from accept-all (FAR 1,
        FRR 0) to reject-all (FAR 0, FRR 1), padded at the end with NaN:

        - ``far``, ``frr``: the hull vertices (fractions);
        - ``threshold``: the threshold that reaches each vertex, in score units (NaN for
          the accept-all vertex when it is unreachable).

        Over (..., ``system``, ``split``): ``eer`` (the hull's EER), ``n_genuine``,
        ``n_impostor``. Attrs ``kind="rocch"``, ``orientation``, ``pandas_biosig_version``.

    See Also
    --------
    roc, bayes_error

    References
    ----------
    Fawcett, T., & Niculescu-Mizil, A. (2007). PAV and the ROC convex hull. Machine
    Learning, 68(1), 97-106.

    Examples
    --------
    >>> import pandas_biosig as pbs
    >>> from pandas_biosig.verification._curves import rocch
    >>> hull = rocch(pbs.datasets.example_trials())
    >>> hull.far.sel(system="cnn", split="dev").dropna("point").values[[0, -1]]
    array([1., 0.])
    >>> float(hull.eer.sel(system="cnn", split="dev").round(4))
    0.0402
    """
    data = expand_counts(data, count, trial=trial)
    trials = _common(
        data, by=by, system=system, trial=trial, label=label, score=score, split=split,
        orientation=orientation, nonfinite=nonfinite,
    )
    groups = trials.groups
    layout = Layout(trials, groups, with_split=trials.split_column is not None)
    dims = (*layout.names, "point")
    sign = orientation_sign(trials)
    thr, far, frr, eer, n_gen, n_imp = ([] for _ in range(6))
    for g in groups:
        sw = group_sweep(g)
        pfa, pmiss = sw.rocch()
        P, N = sw.pav_blocks()
        # the vertex after rejecting the first k blocks, located on the exact ROC, whose
        # fr - fa strictly increases along the points
        fr_v = np.concatenate(([0], np.cumsum(P)))
        fa_v = sw.n - np.concatenate(([0], np.cumsum(N)))
        pts = _k.roc_points(sw)
        key = pts.fr - pts.fa
        j = np.minimum(np.searchsorted(key, fr_v - fa_v), key.size - 1)
        hit = (pts.fr[j] == fr_v) & (pts.fa[j] == fa_v)
        thr.append(np.where(hit, sign * pts.threshold[j], np.nan))
        far.append(pfa)
        frr.append(pmiss)
        eer.append(sw.eer_rocch())
        n_gen.append(sw.p)
        n_imp.append(sw.n)
    length = max(a.size for a in far)
    variables = {
        "threshold": curve_variable(dims, layout.curve(thr, length), **threshold_attrs(trials, score)),
        "far": curve_variable(dims, layout.curve(far, length), "false acceptance rate (FAR, FMR)", FRACTION),
        "frr": curve_variable(dims, layout.curve(frr, length), "false rejection rate (FRR, FNMR)", FRACTION),
        "eer": curve_variable(layout.names, layout.summary(eer), "equal error rate (ROC convex hull)", FRACTION),
        "n_genuine": curve_variable(
            layout.names, layout.summary(n_gen, dtype=np.int64, fill=0), "genuine trials", FRACTION
        ),
        "n_impostor": curve_variable(
            layout.names, layout.summary(n_imp, dtype=np.int64, fill=0), "impostor trials", FRACTION
        ),
    }
    coords = layout.coords()
    coords["point"] = curve_variable(("point",), np.arange(length), "hull vertex, accept-all first", FRACTION)
    return curve_dataset(variables, coords, kind="rocch", trials=trials)


def bayes_error(
    data: pd.DataFrame,
    /,
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
    count: str | None = None,
) -> xr.Dataset:
    r"""Bayes error-rate curve: the error of the best and of the calibrated decisions
    as the prior varies.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`roc`).
    prior_log_odds : array of float, optional
        The grid :math:`\lambda = \log(\pi / (1 - \pi))`, :math:`\pi` the prior of a
        genuine trial; default ``np.linspace(-7, 7, 141)``. Infinite values are allowed
        (:math:`\pi` = 0 or 1); NaN is not.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`roc`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        Dims: the ``by`` columns, ``system``, ``split`` (if present) and
        ``prior_log_odds`` (with the coordinate ``prior`` = :math:`\pi` along it).
        Variables over (..., ``prior_log_odds``):

        - ``min_ber``: :math:`\min_\theta [\pi FRR(\theta) + (1-\pi) FAR(\theta)]`, the
          Bayes error rate after the best threshold choice;
        - ``act_ber``: the same sum at the Bayes threshold :math:`\theta = -\lambda`,
          reading the scores as natural-log likelihood ratios (NaN for
          ``orientation="distance"``: distances are not log-likelihood ratios);
        - ``default_ber``: :math:`\min(\pi, 1-\pi)`, the error of deciding without the
          scores (the same for every system);
        - ``norm_min_ber``, ``norm_act_ber``, ``norm_default_ber``: the three divided by
          :math:`\min(\pi, 1-\pi)`, the normalized minimum and actual DCF at effective
          prior :math:`\pi` with unit costs (BOSARIS's and PYLLR's normalized Bayes
          error-rate plot; ``norm_default_ber`` is 1, NaN where :math:`\pi` is 0 or 1).

        Over (..., ``system``, ``split``): ``eer`` (ROC convex hull), ``n_genuine``,
        ``n_impostor``. Attrs ``kind="bayes_error"``, ``orientation``,
        ``pandas_biosig_version``.

    See Also
    --------
    roc, rocch, pandas_biosig.dcf

    Notes
    -----
    ``min_ber`` is concave in :math:`\pi` and its maximum is the ROCCH-EER (the EER is
    the worst-case Bayes error; seed 002): :math:`\max_\pi \mathrm{BER}(\pi) = EER`,
    reached at the prior log odds :math:`\log\frac{\Delta FAR}{-\Delta FRR}` of the hull
    segment that crosses FAR = FRR.

    References
    ----------
    Brümmer, N., & du Preez, J. (2006). Application-independent evaluation of speaker
    detection. Computer Speech & Language, 20(2-3), 230-275.

    Examples
    --------
    >>> import pandas_biosig as pbs
    >>> from pandas_biosig.verification._curves import bayes_error
    >>> ds = bayes_error(pbs.datasets.example_trials())
    >>> dict(ds.sizes)
    {'system': 4, 'split': 2, 'prior_log_odds': 141}
    >>> ev = ds.sel(system="cnn", split="eval")
    >>> bool(abs(float(ev.min_ber.max()) - float(ev.eer)) < 5e-3)
    True
    >>> float(ev.act_ber.sel(prior_log_odds=0).round(4))  # HTER at threshold 0
    0.0479
    """
    data = expand_counts(data, count, trial=trial)
    plo = prior_grid(prior_log_odds)
    trials = _common(
        data, by=by, system=system, trial=trial, label=label, score=score, split=split,
        orientation=orientation, nonfinite=nonfinite,
    )
    actual = trials.orientation != "distance"
    rows = []
    for g in trials.groups:
        sw = group_sweep(g)
        rows.append((*_k.bayes_error(sw, plo, actual=actual), sw.eer_rocch(), sw.p, sw.n))
    return bayes_error_dataset(trials, plo, rows, actual)
