r"""Calibration and fusion as trial-table transforms: :func:`calibrate`, :func:`fuse`.

Both return a :class:`CalibrationResult`: the input table with the calibrated systems
added as new systems (their scores natural-log likelihood ratios, their rows marked in the
``calibration`` column) and the parameter frame of every map that wrote them. Maps are
fitted on one split and applied to another through the evaluation protocol
(:mod:`pandas_biosig._core.protocol`: dev → eval by default); the rows of the split a map
was fitted on get cross-fitted LLRs, never the map's own in-sample output unless asked.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from .._core.counted import expand_counts
from .._core.options import NonFinite, Orientation
from .._core.protocol import reported_groups, resolve_splits
from .._core.replicates import make_rng
from .._core.schema import (
    BiosigWarning,
    SchemaError,
    Trials,
    check_option,
    scalar_value,
    validate_trials,
)
from .._core.validation import check_open_unit
from ._fit import (
    ERROR_NAME_TAKEN,
    WARN_SAME_TRIALS,
    Settings,
    Unit,
    params_frame,
    run,
    trial_frame,
)
from ._folds import check_folds

__all__ = [
    "ERROR_FUSE_SYSTEMS",
    "ERROR_PRIOR",
    "ERROR_UNKNOWN_SYSTEMS",
    "METHODS",
    "NAME_PATTERN",
    "WARN_DISTANCE",
    "CalibrationMethod",
    "CalibrationResult",
    "calibrate",
    "fuse",
    "fusion_plan",
]

#: Calibration methods: name -> what the map is.
METHODS = {
    "linear": "prior-weighted logistic regression, llr = scale * score + offset (BOSARIS, PYLLR)",
    "pav": "BOSARIS's PAV transform: monotone, piecewise linear, fitted by pool-adjacent-violators",
}
CalibrationMethod = Literal["linear", "pav"]

#: The name of a calibrated system: ``cnn`` calibrated by ``linear`` is ``cnn:linear``.
NAME_PATTERN = "{system}:{method}"

ERROR_PRIOR = (
    "prior={value!r}: the effective target prior must be a number strictly between 0 and 1"
)
ERROR_UNKNOWN_SYSTEMS = "systems {missing} are not systems of the table; its systems: {found}"
ERROR_FUSE_SYSTEMS = (
    "a fusion needs at least two distinct systems scored on the same trials, got "
    "systems={value!r}"
)
WARN_DISTANCE = (
    "orientation='distance': the calibrated systems' scores are log-likelihood ratios, "
    "higher = more genuine; evaluate them with orientation='similarity' (their rows have "
    "the 'calibration' column set)"
)


@dataclass(frozen=True, eq=False)
class CalibrationResult:
    """What :func:`calibrate` and :func:`fuse` return.

    Attributes
    ----------
    trials : DataFrame
        The input table with the calibrated systems' rows appended (LLRs in nats in the
        score column, the method in the ``calibration`` column, missing on the input
        rows).
    params : DataFrame
        One row per fitted map and term (see :func:`calibrate`, Returns).
    systems : tuple
        The names of the calibrated systems added, in order.
    """

    trials: pd.DataFrame
    params: pd.DataFrame
    systems: tuple

    def __repr__(self) -> str:
        fits = ", ".join(f"{k}: {v}" for k, v in self.params.fit.value_counts(sort=False).items())
        return (f"CalibrationResult(systems={self.systems!r}; .trials: {len(self.trials)} "
                f"rows; .params: {len(self.params)} rows ({fits}))")


# ----------------------------------------------------------------------------- shared steps
def _validate(data, *, system, trial, label, score, split, subject, by, orientation,
              nonfinite) -> Trials:
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    if orientation == "distance":
        warnings.warn(WARN_DISTANCE, BiosigWarning, stacklevel=4)
    return trials


def _settings(trials: Trials, *, prior, on, apply_to, folds, seed) -> Settings:
    """The options checked and the splits resolved by the protocol."""
    prior = check_open_unit(prior, ERROR_PRIOR)
    k = check_folds(folds)
    splits = resolve_splits(trials, on, apply_to)
    on = splits.on
    applied = None
    if splits.apply_to is not None:
        applied = list(dict.fromkeys(g.split for g in reported_groups(trials, splits)))
    same = on is not None and applied is not None and on in applied
    return Settings(prior, k, make_rng(seed), on, applied, same)


def _systems_of(trials: Trials, systems) -> list:
    """The systems asked for (all, in input order, for None), each checked."""
    found = list(dict.fromkeys(g.system for g in trials.groups))
    if systems is None:
        return found
    wanted = [systems] if isinstance(systems, str) or not isinstance(systems, Sequence) \
        else list(dict.fromkeys(systems))
    missing = [s for s in wanted if s not in found]
    if missing:
        raise SchemaError(ERROR_UNKNOWN_SYSTEMS.format(missing=missing, found=found))
    return wanted


def _check_names(trials: Trials, units: list[Unit]) -> None:
    found = {g.system for g in trials.groups}
    for u in units:
        if u.name in found:
            raise SchemaError(ERROR_NAME_TAKEN.format(name=u.name))


def _failures(data: pd.DataFrame, trials: Trials, rows: list, *, system, score,
              nonfinite) -> list:
    """Under ``nonfinite="reject"``: the non-finite rows of every calibrated group, to be
    written as failures (NaN scores) of the calibrated system."""
    if nonfinite != "reject":
        return []
    values = data[score].to_numpy(dtype=np.float64, na_value=np.nan)
    bad = np.flatnonzero(~np.isfinite(values))
    if bad.size == 0:
        return []
    written = {g.key: u for g, _, u in rows}
    cols = [*trials.by, system] + ([trials.split_column] if trials.split_column else [])
    keys = data.iloc[bad][cols].itertuples(index=False, name=None)
    found: dict = {}
    for pos, key in zip(bad, keys, strict=True):
        key = tuple(scalar_value(v) for v in key) + (() if trials.split_column else (None,))
        if key in written:
            found.setdefault(key, []).append(pos)
    return [(np.asarray(p), written[k]) for k, p in found.items()]


def _result(data, trials: Trials, units: list[Unit], settings: Settings, *, system, score,
            split, nonfinite) -> CalibrationResult:
    out = run(trials, units, settings)
    if settings.same_trials:
        warnings.warn(WARN_SAME_TRIALS.format(split=settings.on), BiosigWarning, stacklevel=3)
    extra = _failures(data, trials, out.rows, system=system, score=score,
                      nonfinite=nonfinite)
    table = trial_frame(data, out.rows, system=system, score=score, extra=extra)
    return CalibrationResult(table, params_frame(trials, out), tuple(u.name for u in units))


# ----------------------------------------------------------------------------- public API
def calibrate(
    data: pd.DataFrame,
    /,
    *,
    method: CalibrationMethod = "linear",
    prior: float = 0.5,
    systems: Hashable | Sequence[Hashable] | None = None,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    folds: int = 5,
    seed: int | np.random.Generator | None = 0,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> CalibrationResult:
    r"""Calibrate each system's scores into log-likelihood ratios, fitted on one split and
    applied to another.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table (``system, trial, label, score``; ``split`` and ``subject`` used
        when present).
    method : {"linear", "pav"}, default "linear"
        ``"linear"``: the affine map :math:`\ell = a s + b` that minimizes the
        prior-weighted logistic objective of BOSARIS and PYLLR (SPEC §9);
        ``"pav"``: BOSARIS's PAV transform (``pav_calibration``), monotone and piecewise
        linear, one added target below and non-target above every score so that every
        LLR is finite.
    prior : float, default 0.5
        The effective target prior :math:`\pi` of the linear objective, in (0, 1)
        (:data:`ERROR_PRIOR` otherwise); the PAV transform does not use it beyond the
        ``objective`` column.
    systems : system name or list, optional
        The systems to calibrate (default: all), each into a new system named
        ``"<system>:<method>"`` (:data:`NAME_PATTERN`).
    on : split value, "auto" or None, default "auto"
        The split each map is fitted on. ``"auto"``: the development split of a table
        with dev and eval splits (:func:`pandas_biosig._core.protocol.split_roles`); none
        otherwise. None: no split is fitted on: every split's LLRs are cross-fitted within
        itself.
    apply_to : split value, list, "auto" or None, default "auto"
        The split(s) given LLRs by the map fitted on all of ``on``. ``"auto"``: the
        evaluation splits (or every other split); None: every split but ``on``. The
        ``on`` split's own rows get **cross-fitted** LLRs (each fold's from a map fitted
        on the other folds), unless ``apply_to`` names that split: then they get the
        in-sample output of the map fitted on them, ``fit="same trials"`` in ``params``,
        with a :class:`~pandas_biosig.BiosigWarning`.
    folds : int, default 5
        Cross-fitting folds (at least 2). With a subject column, whole subjects are dealt
        into folds; otherwise the trials of each class, so every fold holds both. A trial
        has the same fold in every system (one draw per ``by`` group and split).
    seed : int, numpy Generator or None, default 0
        Seeds the fold draw (the default makes the calibrated table reproducible).
    by : str or list of str, optional
        Extra grouping columns: one map per group (and system).
    system, trial, label, score, split, subject : str
        Column names (``subject``: used for the folds when the column exists).
    orientation : {"similarity", "distance"}
        ``"distance"``: the maps are fitted on the negated distances; the calibrated
        systems' scores are LLRs (higher = more genuine) all the same, with a warning.
    nonfinite : {"raise", "drop", "reject"}
        NaN/inf scores: an error, left out, or (``"reject"``) left out of the fits and
        written as NaN scores of the calibrated system, so they stay failures to acquire.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    CalibrationResult
        ``.trials``: the input rows, then one copy of each calibrated source row (every
        column kept) with the calibrated system's name in ``system``, its LLR (natural
        log, **nats**) in ``score`` and the method in ``calibration`` (``"linear"``,
        ``"pav"``; the column is added, missing on the input rows, when the table lacks it).
        Every function of the package reads the calibrated systems as systems, on the
        same trials as their sources: ``summary``, ``dcf`` (its Bayes threshold is now
        meaningful), ``compare`` against the source system, the plots.

        ``.params``: one row per map and term, the ``by`` columns first, then
        (:data:`~pandas_biosig.calibration.PARAMS_COLUMNS`):

        - ``system``: the calibrated system; ``source``: the source system of the term
          (None for the offset); ``method``, ``prior``;
        - ``fitted_on``: the split the map was fitted on; ``applied_to``: the split it
          wrote LLRs for; ``fit``: ``"held-out"`` (another split), ``"cross-fit"``
          (``fold`` of ``n_folds``, the fold it was not fitted on and wrote) or
          ``"same trials"``;
        - ``term``: ``"scale"`` and ``"offset"`` (linear: :math:`\ell = scale \cdot s +
          offset`, ``offset`` in nats without the prior's log odds) or ``"bins"`` (PAV:
          the number of bins); ``estimate``: its value;
        - ``objective``: the normalized cross-entropy of the map's LLRs on its training
          trials at ``prior`` (BOSARIS's objective value: 1 for a map that says nothing,
          Cllr at ``prior = 0.5``); ``iterations``, ``converged``: of the Newton solver
          (NaN and True for PAV);
        - ``n_genuine``, ``n_impostor``: the training trials.

    Raises
    ------
    SchemaError
        An invalid table (a split with one class among them: ``ERROR_ONE_CLASS``), a
        split named by ``on``/``apply_to`` that does not exist, an unknown system, a
        calibrated name already in the table, too few subjects or trials for ``folds``.
    ValueError
        ``prior`` outside (0, 1) (:data:`ERROR_PRIOR`), ``folds`` below 2, an unknown
        method.
    CalibrationError
        Scores that separate the classes (no finite logistic optimum: the message points
        to ``method="pav"``), or a constant score.

    See Also
    --------
    fuse : several systems into one LLR.
    pandas_biosig.summary : ``cllr_loss``, ``dcf_loss`` and ``not_llr`` say what
        calibration gains.

    Notes
    -----
    The linear map minimizes, with targets :math:`T_i = 1`, non-targets :math:`T_i = -1`
    and :math:`\lambda = \operatorname{logit}\pi`,

    .. math::

        O(a, b) = \frac{\pi}{N_{tar}} \sum_{tar} \log(1 + e^{-(a s_i + b + \lambda)})
                + \frac{1 - \pi}{N_{non}} \sum_{non} \log(1 + e^{a s_i + b + \lambda}),

    the optimum of scikit-learn's unpenalized ``LogisticRegression`` with class weights
    :math:`\pi / N_{tar}` and :math:`(1 - \pi) / N_{non}`, whose intercept is
    :math:`b + \lambda`. Separable training scores have no finite optimum and are refused.
    The formulas, conventions and reference checks are in ``docs/calibration.md``.

    References
    ----------
    Brümmer, N., & du Preez, J. (2006). Application-independent evaluation of speaker
    detection. *Computer Speech & Language, 20*\(2-3), 230-275.

    Brümmer, N., & de Villiers, E. (2011). *The BOSARIS toolkit user guide: Theory,
    algorithms and code for binary classifier score processing*.

    Examples
    --------
    Fitted on dev, applied to eval (the example table has both splits):

    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.calibrate(trials, systems="gmm")
    >>> res.systems
    ('gmm:linear',)
    >>> res.params.query("fit == 'held-out'")[["system", "fitted_on", "applied_to", "term",
    ...                                       "estimate"]].round(3)
           system fitted_on applied_to   term  estimate
    0  gmm:linear       dev       eval  scale     2.239
    1  gmm:linear       dev       eval offset     0.244
    >>> s = pbs.summary(res.trials).query("split == 'eval'").set_index("system")
    >>> s.loc[["gmm", "gmm:linear"], ["cllr", "min_cllr", "cllr_loss", "act_dcf"]].round(3)
                 cllr  min_cllr  cllr_loss  act_dcf
    system
    gmm         0.431     0.318      0.114    1.000
    gmm:linear  0.347     0.318      0.030    0.646

    Compare with scikit-learn: ``LogisticRegression(C=np.inf, class_weight={1: 0.5 /
    N_tar, 0: 0.5 / N_non})`` on the dev scores has ``coef_`` 2.239 and ``intercept_``
    0.244 (``logit(0.5) = 0``).
    """
    data = expand_counts(data, count, trial=trial)
    check_option(method, METHODS, "method")
    trials = _validate(data, system=system, trial=trial, label=label, score=score,
                       split=split, subject=subject, by=by, orientation=orientation,
                       nonfinite=nonfinite)
    settings = _settings(trials, prior=prior, on=on, apply_to=apply_to, folds=folds, seed=seed)
    units = [Unit(NAME_PATTERN.format(system=s, method=method), (s,), method, method)
             for s in _systems_of(trials, systems)]
    _check_names(trials, units)
    return _result(data, trials, units, settings, system=system, score=score, split=split,
                   nonfinite=nonfinite)


def fuse(
    data: pd.DataFrame,
    /,
    *,
    systems: Sequence[Hashable] | None = None,
    name: Hashable = "fused",
    prior: float = 0.5,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    folds: int = 5,
    seed: int | np.random.Generator | None = 0,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    orientation: Orientation = "similarity",
    count: str | None = None,
) -> CalibrationResult:
    r"""Fuse systems scored on the same trials into one log-likelihood ratio (linear
    logistic fusion), fitted on one split and applied to another.

    Parameters
    ----------
    data : DataFrame
        Tidy trial table in which the fused systems score the same trials.
    systems : list of system names, optional
        The systems to fuse (default: every system of the table), at least two.
    name : hashable, default "fused"
        The fused system's name (it must not be a system of the table already).
    prior, on, apply_to, folds, seed, by, system, trial, label, score, split, subject, orientation
        As in :func:`calibrate`; the fold of a trial is the same as there, so the
        cross-fitted LLRs of a fusion and of calibrated systems are held out alike.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    CalibrationResult
        As :func:`calibrate`: ``.trials`` gains the fused system (copies of the first
        fused system's rows, its LLR in ``score``, ``"fusion"`` in ``calibration``);
        ``.params`` has one ``"weight"`` row per fused system (``source``) and one
        ``"offset"`` row per map, ``method="linear"``.

    Raises
    ------
    SchemaError
        Systems that do not share the same trials in a split (:data:`ERROR_FUSE_TRIALS`),
        or that disagree on a trial's label; a fused system missing from a split; and
        the errors of :func:`calibrate`.
    ValueError
        Fewer than two systems (:data:`ERROR_FUSE_SYSTEMS`), ``prior`` outside (0, 1).
    CalibrationError
        Fused scores that separate the classes, or linearly dependent systems (a system
        and a copy of it).

    See Also
    --------
    calibrate, compare_fusion

    Notes
    -----
    One weight per system and one offset, :math:`\ell = \sum_k w_k s_k + b`, minimizing
    the objective of :func:`calibrate` (BOSARIS ``train_linear_fuser``). A fused system
    is just another system: ``compare`` tests it against its components on eval with
    the weights held fixed; :func:`compare_fusion` can refit them in every bootstrap
    replicate.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.fuse(trials, systems=["cnn", "gmm", "lbp"])
    >>> res.params.query("fit == 'held-out'")[["source", "term", "estimate"]].round(2)
      source    term  estimate
    0    cnn  weight      2.46
    1    gmm  weight      1.19
    2    lbp  weight      0.69
    3   None  offset      0.70
    >>> s = pbs.summary(res.trials).query("split == 'eval'").set_index("system")
    >>> s.loc[["cnn", "fused"], ["eer_rocch", "cllr", "min_cllr"]].round(3)
            eer_rocch   cllr  min_cllr
    system
    cnn         0.049  0.324     0.166
    fused       0.032  0.141     0.116

    Compare with scikit-learn: ``LogisticRegression(C=np.inf, class_weight=...)`` on the
    three dev columns reaches the same weights (``tests/test_calibration.py``).
    """
    data = expand_counts(data, count, trial=trial)
    trials, settings, units = fusion_plan(
        data, systems=systems, name=name, prior=prior, on=on, apply_to=apply_to, folds=folds,
        seed=seed, by=by, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, orientation=orientation)
    return _result(data, trials, units, settings, system=system, score=score, split=split,
                   nonfinite="raise")


def fusion_plan(data, *, systems, name, prior, on, apply_to, folds, seed, by, system, trial,
                label, score, split, subject, orientation) -> tuple[Trials, Settings, list]:
    """The validated table, the settings and the one unit of a fusion (shared with
    :func:`pandas_biosig.compare_fusion`)."""
    trials = _validate(data, system=system, trial=trial, label=label, score=score,
                       split=split, subject=subject, by=by, orientation=orientation,
                       nonfinite="raise")
    settings = _settings(trials, prior=prior, on=on, apply_to=apply_to, folds=folds, seed=seed)
    chosen = _systems_of(trials, systems)
    if len(chosen) < 2:
        raise ValueError(ERROR_FUSE_SYSTEMS.format(value=systems))
    units = [Unit(name, tuple(chosen), "linear", "fusion")]
    _check_names(trials, units)
    return trials, settings, units
