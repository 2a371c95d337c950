r"""Bootstrap bands of DET and ROC curves, and the table of FRR at fixed FARs.

:func:`det_band` reads every curve at a grid of FAR values (the smallest FRR whose FAR is
at most each) and at a grid of FRR values (the converse), and gives each point a
percentile interval and the whole grid a simultaneous band (max-t), from bootstrap
replicates that resample what the table says is independent: trials within each class,
or whole subjects, or people in both roles when impostor trials name their reference
(:mod:`pandas_biosig._core.protocol`). :func:`frr_at_far` is the same at the FARs of a
results table (NIST's FNMR at FMR 10⁻¹ … 10⁻⁶), one row per system and FAR.

Every replicate reuses the one sort of each system: the multiplicities of its sorted
scores are drawn (a block of replicates at a time) and read by the vectorized counts of
:mod:`pandas_biosig._kernels.bands`. A grid value below one trial of its class (FAR under
1/N impostors) is not resolved by the data: it is marked (``far_resolved``, ``resolved``)
and its values are NaN, not the rate at zero errors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import xarray as xr

from .._core.counted import expand_counts
from .._core.criteria import bounded_point
from .._core.curve_datasets import FRACTION, Layout, curve_dataset, curve_variable, rate_grid
from .._core.frames import group_sweep, orientation_sign
from .._core.options import NonFinite, Orientation, ResampleOption
from .._core.protocol import PEOPLE, Protocol, guaranteed_threshold, people, rate_design
from .._core.replicates import check_common, class_permutations, make_rng, replicate_progress
from .._core.schema import Group, Trials, validate_trials
from .._kernels import bands as _b
from .._kernels.cluster import lower_bound, upper_bound
from .._kernels.fairness import cluster_weights
from .._kernels.resample import people_weights

__all__ = [
    "BAND_METHODS", "DEFAULT_BAND_GRID", "FRR_AT_FAR_COLUMNS", "NIST_FAR", "det_band",
    "frr_at_far",
]

#: The default grids of :func:`det_band`: 30 log-spaced rates from 10⁻⁴ to 0.5.
DEFAULT_BAND_GRID = np.geomspace(1e-4, 0.5, 30)
#: The FARs of :func:`frr_at_far` by default: NIST's FNMR at FMR 10⁻¹ … 10⁻⁶.
NIST_FAR = (1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6)
#: Doddington's rule of 30: below this many errors of either class at a grid value, the
#: band also reaches the distribution-free bound there (:func:`_exact`).
FEW_ERRORS = 30
#: The most multiplicities one block of replicates holds (replicates x trials).
_BLOCK = 1 << 23

POINTWISE = "percentile interval at each grid value"
SIMULTANEOUS = (
    "max-t over the grid: estimate ± c·s, s the replicates' s.d. at each grid value and c "
    "the quantile of the replicates' largest |deviation| / s"
)

FRR_AT_FAR_COLUMNS = [
    "system", "split", "metric", "target", "estimate", "ci_low", "ci_high", "band_low",
    "band_high", "threshold", "fa", "fr", "n_genuine", "n_impostor", "resolved",
    "confidence_level", "ci_method", "resample", "n_resamples",
]
#: ``ci_method`` of :func:`frr_at_far`: the percentile interval, and where fewer than
#: :data:`FEW_ERRORS` errors support the point, its hull with Hilgers' bound.
BAND_METHODS = {
    "percentile": "percentile interval of the replicates",
    "percentile+hilgers": (
        "the hull of the percentile interval and Hilgers' distribution-free bound (fewer "
        "than 30 errors of a class at the point)"
    ),
}


# ----------------------------------------------------------------------------- replicates
def _weights(rng, unit: str, g: Group, who, size: int):
    """Multiplicities of the group's trials for ``size`` replicates: ``(size, trials)``."""
    n = g.scores.size
    if unit in PEOPLE:
        probe, ref, k = who
        return people_weights(cluster_weights(rng, k, size), probe, ref, g.genuine)
    if unit == "trial":
        return cluster_weights(rng, n, size)
    w = np.empty((size, n), dtype=np.int64)  # "label": each class keeps its size
    for cls in (~g.genuine, g.genuine):
        idx = np.flatnonzero(cls)
        w[:, idx] = cluster_weights(rng, idx.size, size)
    return w


def _replicates(g: Group, sw, unit: str, far, frr, n_resamples: int, rng, tick, done: int):
    """Replicated FRR at every FAR of ``far`` and FAR at every FRR of ``frr``:
    ``((B, len(far)), (B, len(frr)))``, a block of replicates at a time."""
    neg_order, pos_order = class_permutations(g)
    who = people(g, unit, f"system {g.system!r}") if unit in PEOPLE else None
    out_frr = np.empty((n_resamples, far.size))
    out_far = np.empty((n_resamples, frr.size))
    block = max(1, min(n_resamples, _BLOCK // max(g.scores.size, 1)))
    for lo in range(0, n_resamples, block):
        size = min(block, n_resamples - lo)
        w = _weights(rng, unit, g, who, size)
        cn, cp = _b.cumulative(w[:, neg_order]), _b.cumulative(w[:, pos_order])
        with np.errstate(invalid="ignore", divide="ignore"):
            out_frr[lo:lo + size] = _b.frr_at_far(sw.neg, sw.pos, cn, cp, far) / cp[:, -1:]
            out_far[lo:lo + size] = _b.far_at_frr(sw.neg, sw.pos, cn, cp, frr) / cn[:, -1:]
        tick(done + lo + size)
    return out_frr, out_far


def _estimates(sw, far, frr):
    """The curve itself at the grids: FRR, threshold, false acceptances and rejections at
    each FAR; FAR and threshold at each FRR (NaN where no threshold reaches it)."""
    at_far = [bounded_point(sw, "far", x) for x in far]
    at_frr = [bounded_point(sw, "frr", y) for y in frr]
    nan = float("nan")
    few = [np.array([op is None or min(op.fa, op.fr) < FEW_ERRORS for op in ops], dtype=bool)
           for ops in (at_far, at_frr)]
    return dict(
        frr=np.array([op.frr for op in at_far]),
        t_far=np.array([op.threshold for op in at_far]),
        fa=np.array([op.fa for op in at_far]),
        fr=np.array([op.fr for op in at_far]),
        far=np.array([nan if op is None else op.far for op in at_frr]),
        t_frr=np.array([nan if op is None else op.threshold for op in at_frr]),
        few_far=few[0], few_frr=few[1],
    )


def _exact(g: Group, sw, unit: str, grid, axis: str, alpha: float, resolved):
    r"""Distribution-free bounds of the curve at each grid value (Hilgers 1991), on the
    effective counts of the people the trials share: ``(2, len(grid))``.

    For FRR at FAR :math:`x` (``axis="far"``): the threshold :math:`\theta_x` whose true
    FAR is :math:`x` lies above :math:`\theta_L`, the first threshold whose one-sided
    lower bound of the FAR reaches :math:`x`, and below :math:`\theta_U`, the first whose
    upper bound stays at most :math:`x` (:func:`~pandas_biosig._core.protocol.guaranteed_threshold`);
    the FRR there lies between the Clopper–Pearson lower bound at :math:`\theta_L` and
    the upper bound at :math:`\theta_U`. Each of the four one-sided bounds is at
    :math:`1 - \alpha/4`, so each side errs with probability at most :math:`\alpha/2`.
    ``axis="frr"``: the same with the classes' roles swapped."""
    bounded, read = axis, ("frr" if axis == "far" else "far")
    q = 1 - alpha / 4
    who = people(g, unit, f"system {g.system!r}") if unit in PEOPLE else None
    out = np.full((2, len(grid)), np.nan)
    for j, x in enumerate(grid):
        if not resolved[j]:
            continue
        kw: dict[str, Any] = dict(rate=bounded, target=float(x), confidence_level=q,
                                  resample=unit, who=who)
        t_safe = guaranteed_threshold(g, sw, **kw)[0]
        t_risky = guaranteed_threshold(g, sw, side="lower", **kw)[0]
        # the read rate grows with the threshold (FRR) or falls with it (FAR)
        t_low, t_high = (t_risky, t_safe) if read == "frr" else (t_safe, t_risky)
        out[0, j] = (lower_bound(rate_design(g, t_low, read, unit, who), q)
                     if np.isfinite(t_low) else 0.0)
        out[1, j] = (upper_bound(rate_design(g, t_high, read, unit, who), q)
                     if np.isfinite(t_high) else 1.0)
    return out


def _band(est, reps, resolved, level, grid, exact):
    """Estimate, pointwise and simultaneous bounds, NaN where the grid is not resolved;
    the simultaneous band tightened by the curve's monotonicity.

    Where a grid value rests on fewer than :data:`FEW_ERRORS` errors of either class the
    bootstrap is not to be trusted: a replicate cannot show the uncertainty of errors the
    sample does not have (with no false rejection every replicate has none), and the
    threshold set by the few highest impostor scores is an extreme order statistic,
    whose replicates lie below it. There each bound also reaches the distribution-free
    bound of :func:`_exact` (``exact``: pointwise, and at the Bonferroni level over the
    resolved points for the simultaneous band)."""
    est = np.where(resolved, est, np.nan)
    reps = np.where(resolved, reps, np.nan)
    low, high = _b.pointwise_band(reps, level)
    low, high = np.fmin(low, exact[0][0]), np.fmax(high, exact[0][1])
    band_low, band_high, c = _b.simultaneous_band(reps, est, level)
    band_low, band_high = np.fmin(band_low, exact[1][0]), np.fmax(band_high, exact[1][1])
    band_low, band_high = _b.monotone_envelope(band_low, band_high, grid)
    nan = ~resolved
    for a in (low, high, band_low, band_high):
        a[nan] = np.nan
    return est, low, high, band_low, band_high, c


def _plan(data, *, far, frr, n_resamples, confidence_level, resample, by, system, trial,
          label, score, split, subject, reference_subject, orientation, nonfinite):
    check_common(n_resamples, confidence_level, resample, "percentile")
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
        reference_subject=reference_subject,
    )
    unit = Protocol(resample=resample).unit(trials, subject=subject,
                                            reference_subject=reference_subject)
    return trials, unit


def _compute(trials: Trials, unit: str, far, frr, n_resamples, level, seed, progress):
    """Per group: the estimates, the bands at both grids and the group's sizes."""
    rng = make_rng(seed)
    tick = replicate_progress(progress, n_resamples * len(trials.groups), "DET band")
    out = []
    for i, g in enumerate(trials.groups):
        sw = group_sweep(g)
        est = _estimates(sw, far, frr)
        r_frr, r_far = _replicates(g, sw, unit, far, frr, n_resamples, rng, tick,
                                   i * n_resamples)
        far_ok = _b.max_counts(far, np.array([sw.n]))[0] >= 1
        frr_ok = _b.max_counts(frr, np.array([sw.p]))[0] >= 1
        exact = {}
        for axis, ok, grid in (("far", far_ok, far), ("frr", frr_ok, frr)):
            alphas = (1 - level, (1 - level) / max(int(ok.sum()), 1))  # pointwise, joint
            exact[axis] = [_exact(g, sw, unit, grid, axis, a, ok & est[f"few_{axis}"])
                           for a in alphas]
        out.append(dict(est, n=sw.n, p=sw.p, far_ok=far_ok, frr_ok=frr_ok,
                        at_far=_band(est["frr"], r_frr, far_ok, level, far, exact["far"]),
                        at_frr=_band(est["far"], r_far, frr_ok, level, frr, exact["frr"])))
    return out


# ----------------------------------------------------------------------------- public API
def det_band(
    data: pd.DataFrame,
    /,
    *,
    far_grid=None,
    frr_grid=None,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
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
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> xr.Dataset:
    r"""Bootstrap bands of the DET (and ROC) curve of every system, on grids of rates.

    Each curve is read at every FAR of ``far_grid`` (the smallest FRR among the
    thresholds whose FAR is at most it: the ROC's own value, as :func:`pandas_biosig.det`
    with ``far_grid`` reads it) and at every FRR of ``frr_grid`` (the smallest FAR whose
    FRR is at most it). The bootstrap replicates give each grid point its percentile
    interval, and each grid its simultaneous band, which holds at all its points at once.
    :func:`pandas_biosig.plot.det` and :func:`pandas_biosig.plot.roc` draw it
    (``band=``).

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`pandas_biosig.eer`), optionally with ``subject`` and
        ``reference_subject`` columns.
    far_grid, frr_grid : array of float in [0, 1], optional
        The FARs at which the FRR is read, and the FRRs at which the FAR is read; default
        :data:`DEFAULT_BAND_GRID` (30 log-spaced rates from 10⁻⁴ to 0.5) for both.
    n_resamples : int, default 1000
        Bootstrap replicates.
    confidence_level : float, default 0.95
        Level of the pointwise intervals and of the simultaneous band.
    resample : {"auto", "label", "trial", "subject", "two_way"}, default "auto"
        What a replicate draws (see :func:`pandas_biosig.bootstrap`). ``"auto"``: people
        in both roles (``"two_way"``) when the table has ``subject`` and
        ``reference_subject`` columns, whole subjects with a ``subject`` column, else
        trials within each class.
    seed, progress
        As in :func:`pandas_biosig.bootstrap`.
    by, system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        As in :func:`pandas_biosig.bootstrap`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        Dims: the ``by`` columns, ``system``, ``split`` (with a split column), ``far`` (the
        FAR grid, a coordinate) and ``frr`` (the FRR grid). Over (..., ``far``):

        - ``frr_at_far``: the FRR at each grid FAR (fraction);
        - ``frr_at_far_low``, ``frr_at_far_high``: its pointwise percentile interval;
        - ``frr_at_far_band_low``, ``frr_at_far_band_high``: the simultaneous band;
        - ``threshold_at_far``: the threshold that reaches it, in score units;
        - ``far_resolved``: whether the data resolve the grid value (at least one
          impostor trial's worth: FAR ≥ 1/N impostors). Where they do not, every value
          above is NaN (the FRR at zero false acceptances would be a made-up value).

        Over (..., ``frr``) the same for the FAR at each grid FRR: ``far_at_frr``,
        ``far_at_frr_low``, ``far_at_frr_high``, ``far_at_frr_band_low``,
        ``far_at_frr_band_high``, ``threshold_at_frr``, ``frr_resolved``. Over the groups:
        ``n_genuine``, ``n_impostor``, and ``critical_value_far``, ``critical_value_frr``
        (the max-t factor c of each simultaneous band).

        Attrs: ``kind="det_band"``, ``method`` (what the band is, in words),
        ``pointwise``, ``simultaneous``, ``resample``, ``n_resamples``,
        ``confidence_level``, ``orientation``, ``pandas_biosig_version``.

    Raises
    ------
    SchemaError
        An invalid table, a missing subject or reference id when people are resampled.
    ValueError
        A grid outside [0, 1], a bad level or number of resamples.

    See Also
    --------
    frr_at_far : the same at a few FARs, one row per system and FAR.
    pandas_biosig.det : the curve itself.

    Notes
    -----
    No replicate sorts anything: each draws the multiplicities of the sorted scores
    (trials within a class; or every person once, a genuine trial weighing its subject's
    multiplicity and an impostor trial the product of its subject's and its reference's,
    the pigeonhole bootstrap of Owen 2007) and reads the operating points off their
    cumulative sums, a block of replicates at a time. The simultaneous band is max-t
    (sup-t) over the resolved grid points: with :math:`s_j` the replicates' standard
    deviation at point :math:`j` and :math:`c` the ``confidence_level`` quantile of
    :math:`\max_j |\theta^*_j - \hat\theta_j| / s_j`, the band is
    :math:`\hat\theta_j \pm c\,s_j`, clipped to [0, 1] (Montiel Olea & Plagborg-Møller
    2019). A confidence band covers the true curve; it is not a tolerance band for the
    curve of another sample.

    References
    ----------
    Owen, A. B. (2007). The pigeonhole bootstrap. *The Annals of Applied Statistics,
    1*\(2), 386–411.

    Montiel Olea, J. L., & Plagborg-Møller, M. (2019). Simultaneous confidence bands:
    Theory, implementation, and an application to SVARs. *Journal of Applied
    Econometrics, 34*\(1), 1–17.

    Macskassy, S. A., & Provost, F. (2004). Confidence bands for ROC curves: Methods and
    an empirical study. *ROC Analysis in Artificial Intelligence (ROCAI)*, 61–70.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> band = pbs.det_band(trials, far_grid=[0.01, 0.1], n_resamples=200, seed=0)
    >>> band.frr_at_far.sel(system="cnn", split="eval").round(3).values
    array([0.204, 0.012])
    >>> band.attrs["resample"]
    'subject'
    """
    data = expand_counts(data, count, trial=trial)
    far = rate_grid(DEFAULT_BAND_GRID if far_grid is None else far_grid, "far_grid")
    frr = rate_grid(DEFAULT_BAND_GRID if frr_grid is None else frr_grid, "frr_grid")
    trials, unit = _plan(
        data, far=far, frr=frr, n_resamples=n_resamples, confidence_level=confidence_level,
        resample=resample, by=by, system=system, trial=trial, label=label, score=score,
        split=split, subject=subject, reference_subject=reference_subject,
        orientation=orientation, nonfinite=nonfinite,
    )
    res = _compute(trials, unit, far, frr, n_resamples, confidence_level, seed, progress)
    return _band_dataset(trials, res, far, frr, unit, n_resamples, confidence_level, score)


def _band_dataset(trials, res, far, frr, unit, n_resamples, level, score) -> xr.Dataset:
    layout = Layout(trials, trials.groups, with_split=trials.split_column is not None)
    sign = orientation_sign(trials)
    variables = {}
    for axis, rate, other in (("far", far, "frr"), ("frr", frr, "far")):
        dims = (*layout.names, axis)
        name = f"{other}_at_{axis}"
        key = f"at_{axis}"
        what = f"{'FRR' if other == 'frr' else 'FAR'} at the grid {axis.upper()}"
        parts = ("", "_low", "_high", "_band_low", "_band_high")
        notes = ("", ", pointwise low bound", ", pointwise high bound",
                 ", simultaneous band low bound", ", simultaneous band high bound")
        for i, (suffix, note) in enumerate(zip(parts, notes, strict=True)):
            variables[name + suffix] = curve_variable(
                dims, layout.curve([r[key][i] for r in res], rate.size), what + note, FRACTION)
        thr = [sign * np.where(r[f"{axis}_ok"], r[f"t_{axis}"], np.nan) for r in res]
        variables[f"threshold_at_{axis}"] = curve_variable(
            dims, layout.curve(thr, rate.size), f"threshold reaching {name}", score)
        ok = np.zeros((*layout.shape, rate.size), dtype=bool)
        for idx, r in zip(layout.index, res, strict=True):
            ok[idx] = r[f"{axis}_ok"]
        variables[f"{axis}_resolved"] = curve_variable(
            dims, ok, f"the data resolve the grid {axis.upper()} (at least one trial)", "1")
        variables[f"critical_value_{axis}"] = curve_variable(
            layout.names, layout.summary([r[key][5] for r in res]),
            f"max-t factor of the simultaneous band of {name}", "1")
    variables["n_genuine"] = curve_variable(
        layout.names, layout.summary([r["p"] for r in res], dtype=np.int64, fill=0),
        "genuine trials", "1")
    variables["n_impostor"] = curve_variable(
        layout.names, layout.summary([r["n"] for r in res], dtype=np.int64, fill=0),
        "impostor trials", "1")
    coords = layout.coords()
    coords["far"] = curve_variable(("far",), far, "false acceptance rate (FAR, FMR)", FRACTION)
    coords["frr"] = curve_variable(("frr",), frr, "false rejection rate (FRR, FNMR)", FRACTION)
    method = (f"{100 * level:g}% bootstrap band ({unit} resampled, {n_resamples} replicates); "
              f"pointwise: {POINTWISE}; simultaneous: {SIMULTANEOUS}")
    return curve_dataset(variables, coords, kind="det_band", trials=trials, method=method,
                         pointwise=POINTWISE, simultaneous=SIMULTANEOUS, resample=unit,
                         n_resamples=int(n_resamples), confidence_level=float(level))


def frr_at_far(
    data: pd.DataFrame,
    /,
    *,
    far_grid=NIST_FAR,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
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
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""FRR (FNMR) at fixed FARs (FMRs) with intervals: NIST's table, one row per FAR.

    At each FAR of ``far_grid`` the FRR is the smallest among the thresholds whose FAR
    is at most it (the ROC's own value; :func:`pandas_biosig.bootstrap` with
    ``metric="fnmr_at_fmr"`` gives one at a time), with its pointwise interval and the
    simultaneous band over the FARs of the table (:func:`det_band`, whose numbers these
    are). A FAR below one impostor trial (1/N) is not resolved by the data: the row is
    kept, marked ``resolved=False``, with NaN values.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (see :func:`pandas_biosig.eer`).
    far_grid : sequence of float in [0, 1], default (1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6)
        The FARs of the table, in the order of its rows (:data:`NIST_FAR`).
    n_resamples, confidence_level, resample, seed, progress
        As in :func:`det_band`.
    by, system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        As in :func:`det_band`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, split, FAR), the ``by`` columns first, then
        ``system``, ``split``; ``metric`` (``"fnmr_at_fmr"``, the metric of
        :func:`pandas_biosig.bootstrap` these rows equal); ``target`` (the FAR bound);
        ``estimate`` (the FRR there); ``ci_low``, ``ci_high`` (pointwise interval);
        ``band_low``, ``band_high`` (simultaneous over the FARs of the table);
        ``threshold`` (score units), ``fa``, ``fr`` (false acceptances and rejections
        at it), ``n_genuine``, ``n_impostor``; ``resolved`` (FAR ≥ 1/N impostors; else
        the values are NaN); ``confidence_level``; ``ci_method`` (one of
        :data:`BAND_METHODS`: ``"percentile+hilgers"`` where fewer than 30 errors of a
        class support the point); ``resample``; ``n_resamples``. The shared names mean
        what they mean in :func:`pandas_biosig.bootstrap`, and
        :func:`pandas_biosig.export.to_markdown` / ``to_latex`` format the table.

    See Also
    --------
    det_band, pandas_biosig.bootstrap

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> evaluation = trials[trials.split == "eval"]
    >>> t = pbs.frr_at_far(evaluation, far_grid=[0.1, 0.01, 1e-4], n_resamples=200, seed=0)
    >>> t[["system", "target", "estimate", "resolved"]].head(3)
      system  target  estimate  resolved
    0    cnn  0.1000  0.012500      True
    1    cnn  0.0100  0.204167      True
    2    cnn  0.0001       NaN     False
    """
    data = expand_counts(data, count, trial=trial)
    grid = rate_grid(far_grid, "far_grid", scalar=True)
    trials, unit = _plan(
        data, far=grid, frr=grid, n_resamples=n_resamples, confidence_level=confidence_level,
        resample=resample, by=by, system=system, trial=trial, label=label, score=score,
        split=split, subject=subject, reference_subject=reference_subject,
        orientation=orientation, nonfinite=nonfinite,
    )
    res = _compute(trials, unit, grid, grid[:0], n_resamples, confidence_level, seed, progress)
    sign = orientation_sign(trials)
    common = dict(metric="fnmr_at_fmr", confidence_level=float(confidence_level),
                  resample=unit, n_resamples=int(n_resamples))
    rows = []
    for g, r in zip(trials.groups, res, strict=True):
        est, low, high, blow, bhigh, _ = r["at_far"]
        for j, x in enumerate(grid):
            ok = bool(r["far_ok"][j])
            rows.append({
                **dict(zip(trials.key_names, g.key, strict=True)), **common,
                "target": float(x), "estimate": est[j], "ci_low": low[j], "ci_high": high[j],
                "band_low": blow[j], "band_high": bhigh[j],
                "threshold": sign * r["t_far"][j] if ok else np.nan,
                "fa": int(r["fa"][j]) if ok else None, "fr": int(r["fr"][j]) if ok else None,
                "n_genuine": r["p"], "n_impostor": r["n"], "resolved": ok,
                "ci_method": (None if not ok else "percentile+hilgers" if r["few_far"][j]
                              else "percentile"),
            })
    out = pd.DataFrame(rows, columns=[*trials.by, *FRR_AT_FAR_COLUMNS])
    return out.astype({"fa": "Int64", "fr": "Int64"})  # counts, missing where not resolved
