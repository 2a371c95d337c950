"""The Bayes error-rate curve of a dask trial table, exact (see :mod:`pandas_biosig.outofcore`,
which makes :func:`bayes_error` public).

A documented internal module (docs/architecture.md): each prior's minimum Bayes error is
a minimum of a weighted sum of FAR and FRR over the operating points, which the exact
passes (:mod:`pandas_biosig.outofcore._engine`) resolve as they resolve minDCF; the actual
error reads the counts at the Bayes thresholds, whose bins the passes gather.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import xarray as xr
from scipy.special import expit

from .._core.curve_datasets import bayes_error_dataset, prior_grid
from .._core.options import NonFinite, Orientation
from ._engine import _engine, refuse_count

if TYPE_CHECKING:  # not at import: see pandas_biosig.outofcore._engine
    import dask.dataframe as dd

__all__ = ["bayes_error"]


def bayes_error(
    data: dd.DataFrame,
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
    r"""Bayes error-rate curve of every system of a dask trial table, exactly as
    :func:`pandas_biosig.bayes_error`.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    prior_log_odds, by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.bayes_error`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError``
        (:data:`pandas_biosig.outofcore._engine.ERROR_COUNT`); compute() the table to use
        counted trials.

    Returns
    -------
    xarray.Dataset
        The Dataset of :func:`pandas_biosig.bayes_error` (``min_ber``, ``act_ber``,
        ``default_ber``, their normalized forms, ``eer``, ``n_genuine``,
        ``n_impostor``), identical to it.

    See Also
    --------
    pandas_biosig.bayes_error : the in-memory function.

    Notes
    -----
    Each prior's ``min_ber`` is located as :func:`dcf` locates minDCF (a lower bound of
    the criterion in every histogram bin: only the bins that can reach the minimum are
    gathered); ``act_ber`` needs the bins holding the thresholds ``-prior_log_odds``.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> from pandas_biosig.verification._curves import bayes_error as pandas_bayes_error
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> plo = np.linspace(-5, 5, 21)
    >>> ddf.biosig.bayes_error(prior_log_odds=plo).identical(
    ...     pandas_bayes_error(trials, prior_log_odds=plo))
    True
    """
    refuse_count(count)
    plo = prior_grid(prior_log_odds)
    eng = _engine(data, system=system, trial=trial, label=label, score=score, split=split,
                  by=by, orientation=orientation, nonfinite=nonfinite)
    actual = eng.spec.orientation != "distance"
    pi, pi_bar = expit(plo), expit(-plo)

    def build(eng):
        out = []
        for g in eng.trials.groups:
            ex = eng.sweep(g.key)
            # the kernel's criterion, pi * FRR + (1 - pi) * FAR, one prior at a time
            mins = np.array([ex.min_criterion(lambda far, frr, a=a, b=b: a * frr + b * far)[0]
                             for a, b in zip(pi, pi_bar, strict=True)])
            if actual:
                a_fa, a_fr = ex.rates_at_threshold(-plo)
                act = pi * (a_fr / ex.p) + pi_bar * (a_fa / ex.n)
            else:
                act = np.full(plo.size, np.nan)
            out.append((mins, act, np.minimum(pi, pi_bar), ex.eer_rocch(), ex.p, ex.n))
        return out

    return bayes_error_dataset(eng.trials, plo, eng.solve(build), actual)
