r"""The evaluation protocol: how each threshold is chosen, where, what is reported and
what a bootstrap resamples — one object, resolved once per group.

A :class:`Protocol` holds the threshold policy (a criterion with its parameters, one fixed
number, or a number per system), the split the thresholds are chosen on (``on``), the
split(s) reported (``apply_to``) and the resampling unit (``resample``).
:meth:`Protocol.resolve` turns it, for one validated table, into one frozen
:class:`Resolved` per reported group: the threshold, where it came from
(``threshold_from``: the split it was chosen on, ``"fixed"``, or ``"same trials"``) and the
group's sorted sweep, built once and shared by every reader.  :mod:`pandas_biosig.verification._metrics`,
:mod:`~pandas_biosig.verification._intervals`, :mod:`~pandas_biosig.verification._resampling` and the dask path all
read it; none re-derives a threshold.

Defaults (``"auto"``) follow the table:

- a table with one development split (``dev``/``development``) and evaluation splits
  (``eval``/``test``/``evaluation``; case-insensitive, see :data:`DEV_SPLITS` and
  :data:`EVAL_SPLITS`) gets **a-priori** thresholds: chosen on dev, reported on eval;
  otherwise each group's threshold is chosen on its own trials (``"same trials"``);
- a table with a ``subject`` column resamples whole subjects, and one with a
  ``reference_subject`` column too resamples people in both roles (``"two_way"``: an
  impostor trial compares two people, see :data:`RESAMPLE`); otherwise trials within
  each class (``"label"``).

Pass ``on=None`` (and ``apply_to=None``) to choose on the same trials explicitly, or any
split names of your own.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._kernels.cluster import ClusterDesign, cluster_design, lower_bound, upper_bound
from .._kernels.rates import OperatingPoint, Sweep
from .schema import BiosigWarning, Group, SchemaError, Trials, check_option
from .validation import check_costs, check_rate

__all__ = [
    "AUTO",
    "CRITERIA",
    "DEV_SPLITS",
    "EVAL_SPLITS",
    "FIXED",
    "PEOPLE",
    "RESAMPLE",
    "SAME_TRIALS",
    "Protocol",
    "Resolved",
    "people",
    "split_roles",
    "subject_clusters",
]

#: The default of ``on``, ``apply_to`` and ``resample``: decided from the table.
AUTO = "auto"
#: ``threshold_from`` of a threshold chosen on the very trials it is applied to.
SAME_TRIALS = "same trials"
#: ``threshold_from`` of a threshold given as a number (or one per system).
FIXED = "fixed"
#: Split names read as the development split (case-insensitive).
DEV_SPLITS = ("dev", "development")
#: Split names read as evaluation splits (case-insensitive).
EVAL_SPLITS = ("eval", "test", "evaluation")

#: Threshold criteria: name -> what is minimized over the candidate thresholds.
CRITERIA = {
    "eer": "|FAR - FRR| (bob.measure's EER threshold)",
    "min_hter": "(FAR + FRR) / 2",
    "min_weighted": "weight * FAR + (1 - weight) * FRR",
    "far": "FRR subject to FAR <= target",
    "frr": "FAR subject to FRR <= target",
    "min_dcf": "c_miss * p_target * FRR + c_fa * (1 - p_target) * FAR",
}

#: How trials are drawn with replacement.
RESAMPLE = {
    "label": "trials within each class, so the genuine and impostor counts stay fixed",
    "trial": "trials regardless of class",
    "subject": "whole subjects (all their trials together), for trials that share a person",
    "two_way": (
        "people in both roles, for impostor trials that depend on their probe and their "
        "reference: one draw of every person's multiplicity; a genuine trial weighs its "
        "subject's, an impostor trial the product of its subject's and its reference's "
        "(the pigeonhole bootstrap, Owen 2007)"
    ),
}

#: The resampling units that draw people (``subject`` and ``reference_subject`` ids).
PEOPLE = ("subject", "two_way")

ERROR_TARGET = "threshold={criterion!r} needs target= (a rate in [0, 1]), got {target!r}"
ERROR_THRESHOLD = (
    "threshold={value!r} must be a number, a mapping {{system: threshold}} or one of {allowed}"
)
ERROR_THRESHOLD_MISSING = "no threshold given for system {system!r} (thresholds given for {given})"
ERROR_ON_FIXED = "on={on!r} chooses a threshold by a criterion; threshold={value!r} is fixed"
ERROR_ON_MISSING = (
    "system {system!r} has no trials in split {on!r}{where}, so no threshold can be chosen there"
)
WARN_FRR_INFEASIBLE = (
    "{where}: no threshold reaches FRR <= {target}: failures to acquire alone exceed it"
)
ERROR_SUBJECT = (
    "resample='subject' needs a subject column; column {column!r} is not in the table "
    "(its columns: {found})"
)
ERROR_SUBJECT_MISSING = (
    "{n} trial(s){where} have no subject id (rows at positions {rows}); resample='subject' "
    "draws whole subjects, so every trial needs one: fill them in, drop those trials, or "
    "pass resample='label' to treat the trials as independent"
)
ERROR_REFERENCE = (
    "resample='two_way' needs a subject and a reference subject column; column "
    "{column!r} is not in the table (its columns: {found})"
)
ERROR_REFERENCE_MISSING = (
    "{n} trial(s){where} have no reference subject id (rows at positions {rows}); an impostor "
    "trial depends on both people it compares, so resample='two_way' (the default when the "
    "table has subject and reference subject columns) needs both ids of every trial: fill "
    "them in, drop those trials, or pass resample='subject' to resample the probes' "
    "subjects only"
)
ERROR_ONE_CLUSTER = (
    "{where} holds trials of {n} subject(s); a subject bootstrap needs at least two "
    "subjects to resample (pass resample='label' to resample trials instead)"
)


def split_roles(trials: Trials) -> tuple[Hashable | None, list]:
    """The development split and the evaluation splits of a table, by name.

    ``(dev, [eval, ...])`` when exactly one split is named as a development split and at
    least one as an evaluation split (:data:`DEV_SPLITS`, :data:`EVAL_SPLITS`), else
    ``(None, [])``.
    """
    if trials.split_column is None:
        return None, []
    found = list(dict.fromkeys(g.split for g in trials.groups))

    def named(s, names):
        return isinstance(s, str) and s.strip().lower() in names

    dev = [s for s in found if named(s, DEV_SPLITS)]
    evals = [s for s in found if named(s, EVAL_SPLITS)]
    if len(dev) == 1 and evals:
        return dev[0], evals
    return None, []


def criterion_weight(criterion, weight, p_target, c_miss, c_fa) -> float:
    """The weight of FAR that a weighted criterion minimizes (NaN for the others)."""
    if criterion == "min_hter":
        return 0.5
    if criterion == "min_weighted":
        return check_rate(weight, "weight")
    if criterion == "min_dcf":
        check_costs(p_target, c_miss, c_fa)
        a = c_fa * (1 - p_target)
        return a / (a + c_miss * p_target)
    return float("nan")


def choose(sweep, criterion: str, weight: float, target, where: str) -> OperatingPoint:
    """The operating point chosen by ``criterion`` on ``sweep`` (oriented threshold)."""
    if criterion == "eer":
        return sweep.eer_threshold()[1]
    if criterion in ("min_hter", "min_weighted", "min_dcf"):
        return sweep.min_weighted(weight)
    if criterion == "far":
        return sweep.fnmr_at_fmr(target)
    op = sweep.fmr_at_fnmr(target)
    if op is None:
        warnings.warn(WARN_FRR_INFEASIBLE.format(where=where, target=target), BiosigWarning,
                      stacklevel=5)
        return OperatingPoint(float("nan"), 0, 0, sweep.n, sweep.p)
    return op


def group_where(trials: Trials, group: Group) -> str:
    """``by=..., system 'x', split 'y'``: a group named for a message."""
    parts = [f"{b}={v!r}" for b, v in zip(trials.by, group.key, strict=False)]
    parts.append(f"system {group.system!r}")
    if trials.split_column is not None:
        parts.append(f"split {group.split!r}")
    return ", ".join(parts)


def _sweep(group: Group) -> Sweep:
    """The in-memory sweep of a group: its scores sorted once."""
    return Sweep.from_scores(group.scores, group.genuine)


class _Sweeps:
    """Each group's sorted sweep, built at most once (in memory, or the dask path's)."""

    def __init__(self, sweep_of: Callable[[Group], Any] | None):
        self._of = sweep_of or (lambda g: _sweep(g))
        self._done: dict[int, tuple[Group, Any]] = {}

    def __call__(self, group: Group):
        hit = self._done.get(id(group))
        if hit is None:
            hit = self._done[id(group)] = (group, self._of(group))
        return hit[1]


@dataclass(frozen=True, eq=False)
class Resolved:
    """One reported group under a resolved protocol.

    ``threshold`` is oriented (higher = more genuine; NaN when no threshold is needed or
    none reaches the criterion); ``threshold_from`` says where it came from: the split it
    was chosen on, :data:`FIXED` or :data:`SAME_TRIALS` (None when no threshold is used);
    ``threshold_split`` is the split it was chosen on (None for given thresholds);
    ``resample`` the resampling unit. ``sweep`` is the group's sorted sweep, built once.
    """

    group: Group
    criterion: str
    threshold: float
    threshold_from: Hashable | None
    threshold_split: Hashable | None
    weight: float
    target: float
    resample: str | None
    _sweeps: _Sweeps = field(repr=False)

    @property
    def sweep(self):
        return self._sweeps(self.group)


@dataclass(frozen=True)
class Protocol:
    """The evaluation protocol (see the module docstring).

    ``threshold`` is a criterion name (:data:`CRITERIA`), one number, or a mapping
    ``{system: number}``; ``weight``, ``target``, ``p_target``, ``c_miss``, ``c_fa`` are the
    criterion's parameters; ``on`` the split thresholds are chosen on, ``apply_to`` the
    split(s) reported, ``resample`` the unit a bootstrap draws; ``"auto"`` decides from the
    table.
    """

    threshold: Any = "eer"
    weight: float = 0.5
    target: float | None = None
    p_target: float = 0.01
    c_miss: float = 1.0
    c_fa: float = 1.0
    on: Hashable | None = None
    apply_to: Hashable | Sequence[Hashable] | None = None
    resample: str = "label"

    # ---------------------------------------------------------------- splits
    def is_criterion(self, named: Mapping | None = None) -> bool:
        return isinstance(self.threshold, str) and self.threshold not in (named or {})

    def splits(self, trials: Trials, *, needs_threshold: bool = True, named=None):
        """The effective ``(on, apply_to)`` for this table ("auto" decided)."""
        on, apply_to = self.on, self.apply_to
        dev, evals = split_roles(trials)
        if isinstance(on, str) and on == AUTO:
            on = dev if needs_threshold and self.is_criterion(named) else None
        if isinstance(apply_to, str) and apply_to == AUTO:
            apply_to = None
            if on is not None and needs_threshold:
                found = list(dict.fromkeys(g.split for g in trials.groups))
                others = evals if on == dev else [s for s in found if s != on]
                apply_to = others or None
        return on, apply_to

    def reported(self, trials: Trials, apply_to) -> list[Group]:
        groups = trials.groups
        if apply_to is None:
            return list(groups)
        wanted = (
            [apply_to] if isinstance(apply_to, str) or not isinstance(apply_to, Sequence)
            else list(apply_to)
        )
        keep = {id(g) for v in wanted for g in trials.select_split(v, name="apply_to")}
        return [g for g in groups if id(g) in keep]

    # ---------------------------------------------------------------- resampling
    def unit(self, trials: Trials, *, subject: str | None = "subject",
             reference_subject: str | None = "reference_subject") -> str:
        """The resampling unit for this table, its subject (and reference) ids checked."""
        resample = self.resample
        has = bool(trials.groups) and trials.groups[0].subject is not None
        has_ref = bool(trials.groups) and trials.groups[0].reference is not None
        if resample == AUTO:
            resample = ("two_way" if has_ref else "subject") if has else "label"
        check_option(resample, RESAMPLE, "resample")
        if resample in PEOPLE and not has:
            raise SchemaError(ERROR_SUBJECT.format(column=subject, found=trials.columns["found"]))
        if resample == "two_way" and not has_ref:
            raise SchemaError(ERROR_REFERENCE.format(column=reference_subject,
                                                     found=trials.columns["found"]))
        if resample in PEOPLE:
            for g in trials.groups:
                _check_ids(g.subject, ERROR_SUBJECT_MISSING, trials, g)
                if resample == "two_way":
                    _check_ids(g.reference, ERROR_REFERENCE_MISSING, trials, g)
        return resample

    # ---------------------------------------------------------------- thresholds
    def resolve(
        self,
        trials: Trials,
        *,
        needs_threshold: bool = True,
        sweep_of: Callable[[Group], Any] | None = None,
        named: Mapping[str, Callable[[Group], float]] | None = None,
        resample: str | None = None,
    ) -> list[Resolved]:
        """One :class:`Resolved` per reported group, in the table's order.

        ``sweep_of`` builds a group's sweep (default: sort its scores; the dask path passes
        its exact out-of-core sweeps); ``named`` adds threshold names computed from the
        group (e.g. ``{"bayes": ...}``); ``resample`` the unit already decided by
        :meth:`unit` (default None: nothing resampled).
        """
        sweeps = _Sweeps(sweep_of)
        unit = resample
        on, apply_to = self.splits(trials, needs_threshold=needs_threshold, named=named)
        groups = self.reported(trials, apply_to)
        nan = float("nan")
        sign = -1.0 if trials.orientation == "distance" else 1.0

        def make(g, crit, t, frm, tsplit, w=nan, tgt=nan):
            return Resolved(g, crit, t, frm, tsplit, w, tgt, unit, sweeps)

        if not needs_threshold:
            return [make(g, "none", nan, None, None) for g in groups]
        named = dict(named or {})
        threshold = self.threshold
        if isinstance(threshold, str) and threshold not in named:
            check_option(threshold, CRITERIA, "threshold")
            crit = threshold
            w = criterion_weight(crit, self.weight, self.p_target, self.c_miss, self.c_fa)
            tgt = nan
            if crit in ("far", "frr"):
                if self.target is None:
                    raise ValueError(ERROR_TARGET.format(criterion=crit, target=self.target))
                tgt = check_rate(self.target, "target")
            if on is None:
                out = []
                for g in groups:
                    op = choose(sweeps(g), crit, w, tgt, group_where(trials, g))
                    out.append(make(g, crit, op.threshold, SAME_TRIALS, g.split, w, tgt))
                return out
            source = {g.key[:-1]: g for g in trials.select_split(on, name="on")}
            chosen: dict = {}
            out = []
            for g in groups:
                src = source.get(g.key[:-1])
                if src is None:
                    where = "".join(f", {b}={v!r}" for b, v in zip(trials.by, g.key, strict=False))
                    raise SchemaError(ERROR_ON_MISSING.format(system=g.system, on=on, where=where))
                if g.key[:-1] not in chosen:
                    chosen[g.key[:-1]] = choose(sweeps(src), crit, w, tgt, group_where(trials, src))
                frm = SAME_TRIALS if src is g else on
                out.append(make(g, crit, chosen[g.key[:-1]].threshold, frm, on, w, tgt))
            return out
        if on is not None:
            raise ValueError(ERROR_ON_FIXED.format(on=on, value=threshold))
        if isinstance(threshold, str):
            return [make(g, threshold, named[threshold](g), FIXED, None) for g in groups]
        if isinstance(threshold, Mapping | pd.Series):
            given = dict(threshold)
            out = []
            for g in groups:
                if g.system not in given:
                    raise SchemaError(ERROR_THRESHOLD_MISSING.format(system=g.system, given=list(given)))
                out.append(make(g, FIXED, sign * _fixed(given[g.system]), FIXED, None))
            return out
        if _is_real(threshold) and not np.isnan(threshold):
            return [make(g, FIXED, sign * float(threshold), FIXED, None) for g in groups]
        raise ValueError(ERROR_THRESHOLD.format(value=threshold, allowed=[*CRITERIA, *named]))


def _check_ids(ids: np.ndarray, message: str, trials: Trials, g: Group) -> None:
    """A named error for missing ids (``message`` names which column's)."""
    missing = pd.isna(ids)
    if np.any(missing):
        pos = np.flatnonzero(missing)
        rows = pos if g.rows is None else g.rows[pos]
        raise SchemaError(message.format(n=pos.size, where=f" of {group_where(trials, g)}",
                                         rows=[int(r) for r in rows[:10]]))


def _is_real(value) -> bool:
    return isinstance(value, int | float | np.integer | np.floating) and not isinstance(
        value, bool | np.bool_
    )


def _fixed(value) -> float:
    """A fixed threshold: a real number, ±inf allowed (accept or reject all), NaN not."""
    if not _is_real(value) or np.isnan(value):
        raise ValueError(ERROR_THRESHOLD.format(value=value, allowed=list(CRITERIA)))
    return float(value)


def subject_clusters(subject: np.ndarray | None, where: str = "the table") -> tuple[np.ndarray, int]:
    """Integer cluster codes of the subject ids, and how many there are.

    Missing ids and fewer than two subjects raise :class:`~pandas_biosig.SchemaError`
    (:data:`ERROR_SUBJECT_MISSING`, :data:`ERROR_ONE_CLUSTER`).
    """
    if subject is None:
        raise SchemaError(ERROR_SUBJECT.format(column="subject", found="(no subject column)"))
    codes, uniques = pd.factorize(subject, use_na_sentinel=True)
    if (codes < 0).any():
        pos = np.flatnonzero(codes < 0)
        raise SchemaError(ERROR_SUBJECT_MISSING.format(
            n=pos.size, where=f" of {where}", rows=[int(r) for r in pos[:10]]))
    if len(uniques) < 2:
        raise SchemaError(ERROR_ONE_CLUSTER.format(where=where, n=len(uniques)))
    return codes, len(uniques)


def people(group: Group, resample: str, where: str = "the table"
           ) -> tuple[np.ndarray, np.ndarray | None, int]:
    """The people a resampling unit draws: each trial's subject code, its reference's code
    (``resample="two_way"``; None otherwise) and how many people there are.

    Under ``"two_way"`` the subject and reference ids are read as one set of people (a
    person can be the probe of one trial and the reference of another); missing ids and
    fewer than two people raise :class:`~pandas_biosig.SchemaError`.
    """
    if resample != "two_way":
        codes, k = subject_clusters(group.subject, where)
        return codes, None, k
    n = group.subject.size
    sub, ref = np.asarray(group.subject), np.asarray(group.reference)
    same_kind = sub.dtype.kind == ref.dtype.kind and sub.dtype.kind in "iuU"
    both = (np.concatenate((sub, ref)) if same_kind
            else np.concatenate((sub.astype(object), ref.astype(object))))
    codes, uniques = pd.factorize(both, use_na_sentinel=True)
    if (codes < 0).any():
        pos = np.flatnonzero(codes < 0)
        message = ERROR_SUBJECT_MISSING if pos[0] < n else ERROR_REFERENCE_MISSING
        raise SchemaError(message.format(n=pos.size, where=f" of {where}",
                                         rows=[int(r % n) for r in pos[:10]]))
    if len(uniques) < 2:
        raise SchemaError(ERROR_ONE_CLUSTER.format(where=where, n=len(uniques)))
    return codes[:n].astype(np.int64), codes[n:].astype(np.int64), len(uniques)


# ----------------------------------------------------------------------------- guarantees
#: Rates a guaranteed threshold can bound.
GUARANTEED_RATES = ("far", "frr")


def rate_design(group: Group, threshold: float, rate: str, resample: str,
                who: tuple | None = None) -> ClusterDesign:
    """The design of ``rate`` (``"far"`` or ``"frr"``) at an oriented ``threshold``: its
    errors, and the people they belong to under ``resample`` (``who`` the codes of
    :func:`people`, computed when not given; each trial its own unit otherwise); an
    impostor trial belongs to its subject and its reference under ``"two_way"``."""
    accepted = group.scores >= threshold
    cls = group.genuine if rate == "frr" else ~group.genuine
    errors = ~accepted[cls] if rate == "frr" else accepted[cls]
    if resample not in PEOPLE:  # independent trials: the binomial counts themselves
        n = errors.size
        return ClusterDesign(float(errors.mean()) if n else float("nan"), float(n), 1.0,
                             float(max(n - 1, 1)), n)
    probe, ref, _ = who if who is not None else people(group, resample)
    two = ref is not None and rate == "far"
    return cluster_design(errors, probe[cls], ref[cls] if two else None)


def guaranteed_threshold(group: Group, sweep: Sweep, *, rate: str, target: float,
                         confidence_level: float, resample: str, side: str = "upper",
                         who: tuple | None = None) -> tuple[float, float]:
    """The threshold whose ``rate`` (``"far"``: FAR, or ``"frr"``) stays at most
    ``target`` on new trials with confidence ``confidence_level``, and its bound:
    ``(oriented threshold, bound)``; ``(nan, bound at the safest threshold)`` when no
    threshold reaches it.

    The threshold criterion ``"far"`` takes the empirical quantile, whose FAR on new data
    exceeds the target about half of the time. This one takes, among the thresholds of
    the sweep, the one with the smallest other error rate whose one-sided upper
    confidence bound (:func:`pandas_biosig._kernels.cluster.upper_bound`: Clopper–Pearson
    on the effective counts of the subjects' design, or of the people in both roles)
    stays at most ``target``: a binary search over the number of errors allowed, the
    bound growing with it. The true rate at the chosen threshold exceeds ``target`` with
    probability at most ``1 - confidence_level`` when the bound is valid at the
    threshold whose true rate is ``target``.

    ``side="lower"`` gives the mirror image: the threshold allowing the fewest errors
    whose one-sided *lower* bound reaches ``target`` (its true rate is below ``target``
    with probability at most ``1 - confidence_level``); ``(nan, bound)`` when even the
    most permissive threshold's lower bound stays below it. ``who``: the codes of
    :func:`people`, when the caller has them.
    """
    if who is None and resample in PEOPLE:
        who = people(group, resample)
    n = sweep.n if rate == "far" else sweep.p
    bound_of = upper_bound if side == "upper" else lower_bound

    def point(k: int):
        op = sweep.fnmr_at_fmr(k / n) if rate == "far" else sweep.fmr_at_fnmr(k / n)
        return op.threshold, bound_of(rate_design(group, op.threshold, rate, resample, who),
                                      confidence_level)

    return (_fewest_reaching if side == "lower" else _most_within)(point, n, target)


def _most_within(point, n: int, target: float) -> tuple[float, float]:
    """``point(k)`` = (threshold, bound) for k errors allowed, the bound growing with k:
    the largest k whose bound is at most ``target`` (binary search)."""
    best = point(0)
    if not best[1] <= target:
        return float("nan"), float(best[1])
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        t, b = point(mid)
        if b <= target:
            lo, best = mid, (t, b)
        else:
            hi = mid - 1
    return float(best[0]), float(best[1])


def _fewest_reaching(point, n: int, target: float) -> tuple[float, float]:
    """The smallest k whose (lower) bound reaches ``target``."""
    best = point(n)
    if not best[1] >= target:
        return float("nan"), float(best[1])
    lo, hi = 0, n
    while lo < hi:
        mid = (lo + hi) // 2
        t, b = point(mid)
        if b >= target:
            hi, best = mid, (t, b)
        else:
            lo = mid + 1
    return float(best[0]), float(best[1])
