r"""The normalized cross-entropy over the prior: :func:`cllr_curve`, Cllr at every prior.

Cllr is the normalized cross-entropy of the scores read as LLRs at the effective prior
1/2. Over the prior log odds it becomes a curve (the APE-style view of Brümmer & du Preez:
the cost of the LLRs as the application's prior varies), with its minimum after the best
monotone recalibration (PAV) and the value 1 of saying nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import xarray as xr
from scipy.special import expit

from .._core.counted import expand_counts
from .._core.curve_datasets import Layout, curve_dataset, curve_variable, prior_grid
from .._core.frames import group_sweep
from .._core.options import NonFinite, Orientation
from .._core.schema import validate_trials
from .._kernels.calibration import min_cross_entropy, sweep_cross_entropy

__all__ = ["cllr_curve"]

_NATS = "1"  # normalized: a ratio of two costs


def _curves(sw, plo: np.ndarray, actual: bool) -> tuple[np.ndarray, np.ndarray]:
    """Actual and minimum normalized cross-entropy at each prior log odds (NaN at prior
    0 or 1, where the prior's own cost is 0)."""
    act = np.full(plo.size, np.nan)
    low = np.full(plo.size, np.nan)
    for i, lam in enumerate(plo):
        if not np.isfinite(lam):
            continue
        prior = float(expit(lam))
        if not 0.0 < prior < 1.0:
            continue
        low[i] = min_cross_entropy(sw, prior)
        if actual:
            act[i] = sweep_cross_entropy(sw, prior)
    return act, low


def cllr_curve(
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
    r"""Cllr over the prior: the normalized cross-entropy of the scores read as LLRs, and
    its minimum after the best monotone recalibration, at every prior log odds.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table; the scores are read as natural-log likelihood ratios (calibrate
        them first with :func:`pandas_biosig.calibrate`).
    prior_log_odds : array of float, optional
        The grid :math:`\lambda = \log(\pi / (1 - \pi))`; default ``np.linspace(-7, 7,
        141)``. Infinite values give NaN (the prior alone costs nothing there); NaN is
        refused.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.bayes_error`.
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
        ``prior_log_odds`` (with the coordinate ``prior``). Variables over (...,
        ``prior_log_odds``):

        - ``act_nxe``: the normalized cross-entropy :math:`C(\pi)` of the scores read as
          LLRs (NaN for distances, which are not LLRs);
        - ``min_nxe``: the same after PAV, the best monotone recalibration of these very
          scores (an optimistic bound, as ``min_cllr``);
        - ``default_nxe``: 1, the cost of LLRs that are all 0 (saying nothing).

        Over (..., ``system``, ``split``): ``cllr`` and ``min_cllr`` (bits: the curves at
        :math:`\lambda = 0`, as :func:`pandas_biosig.summary` reports them),
        ``n_genuine``, ``n_impostor``. Attrs ``kind="cllr_curve"``, ``orientation``,
        ``pandas_biosig_version``.

    See Also
    --------
    pandas_biosig.bayes_error : the normalized Bayes error rates over the same grid.
    pandas_biosig.plot.cllr_curve : its figure.

    Notes
    -----
    With :math:`\lambda = \operatorname{logit}\pi` and
    :math:`H(\pi) = -\pi\log\pi - (1 - \pi)\log(1 - \pi)`,

    .. math::

        C(\pi) = \frac{1}{H(\pi)}\Big[\frac{\pi}{N_{tar}} \sum_{tar} \log(1 + e^{-(\ell_i
                 + \lambda)}) + \frac{1 - \pi}{N_{non}} \sum_{non} \log(1 + e^{\ell_i +
                 \lambda})\Big],

    1 for a system that says nothing, Cllr at :math:`\pi = 1/2` (BOSARIS's normalized
    cross-entropy ``nxe``; PYLLR's ``cross_entropy`` divided by :math:`H(\pi)/\log 2`).
    The area-like summary of the curve is Cllr; its gap to the minimum curve is the
    calibration loss at each prior.

    References
    ----------
    Brümmer, N., & du Preez, J. (2006). Application-independent evaluation of speaker
    detection. *Computer Speech & Language, 20*\(2-3), 230-275.

    Examples
    --------
    >>> ds = pbs.cllr_curve(pbs.datasets.example_trials())
    >>> ev = ds.sel(system="cnn", split="eval")
    >>> float(ev.act_nxe.sel(prior_log_odds=0)) == float(ev.cllr)
    True
    >>> bool((ev.min_nxe <= ev.act_nxe).all())
    True
    """
    data = expand_counts(data, count, trial=trial)
    plo = prior_grid(prior_log_odds)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    groups = trials.groups
    layout = Layout(trials, groups, with_split=trials.split_column is not None)
    actual = trials.orientation != "distance"
    acts, lows, cllr, min_cllr, n_gen, n_imp = ([] for _ in range(6))
    for g in groups:
        sw = group_sweep(g)
        a, m = _curves(sw, plo, actual)
        acts.append(a)
        lows.append(m)
        cllr.append(sweep_cross_entropy(sw, 0.5) if actual else np.nan)
        min_cllr.append(sw.min_cllr())
        n_gen.append(sw.p)
        n_imp.append(sw.n)
    dims, summ = (*layout.names, "prior_log_odds"), layout.names
    act_attrs = {} if actual else {"note": "NaN: distances are not log-likelihood ratios"}
    variables = {
        "act_nxe": curve_variable(dims, layout.curve(acts), "normalized cross-entropy of the "
                                  "scores read as LLRs", _NATS, **act_attrs),
        "min_nxe": curve_variable(dims, layout.curve(lows), "normalized cross-entropy after "
                                  "PAV recalibration", _NATS),
        "default_nxe": curve_variable(dims, layout.curve([np.where(np.isnan(m), np.nan, 1.0)
                                                          for m in lows]),
                                      "normalized cross-entropy of saying nothing", _NATS),
        "cllr": curve_variable(summ, layout.summary(cllr), "Cllr", "bit"),
        "min_cllr": curve_variable(summ, layout.summary(min_cllr), "minimum Cllr (PAV)", "bit"),
        "n_genuine": curve_variable(summ, layout.summary(n_gen, dtype=np.int64, fill=0),
                                    "genuine trials", "1"),
        "n_impostor": curve_variable(summ, layout.summary(n_imp, dtype=np.int64, fill=0),
                                     "impostor trials", "1"),
    }
    coords = layout.coords()
    coords["prior_log_odds"] = curve_variable(
        ("prior_log_odds",), plo, "prior log odds log(prior / (1 - prior))", "1")
    coords["prior"] = curve_variable(
        ("prior_log_odds",), expit(plo), "prior probability of a genuine trial", "1")
    return curve_dataset(variables, coords, kind="cllr_curve", trials=trials)
