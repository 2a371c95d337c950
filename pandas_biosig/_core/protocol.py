r"""The evaluation protocol of every kind of table: which split chooses each threshold,
which splits are reported, how the threshold is chosen, and what a bootstrap resamples.

The one place of the package that reads split names and decides what ``"auto"`` means
(with :mod:`pandas_biosig._core.criteria`, the one place that chooses thresholds;
``tests/test_protocol_scan.py`` checks that no other module does either). Every kind of
table uses it: verification (:mod:`pandas_biosig.verification`), PAD and vulnerability
(:mod:`pandas_biosig.pad`), demographics, identification, the EPC, the out-of-core path
and the ``biosig report`` command.

The roles of the splits (:func:`split_roles`, :func:`resolve_splits`): a table with one
development split (``dev``/``development``) and evaluation splits
(``eval``/``test``/``evaluation``; case-insensitive, :data:`DEV_SPLITS`,
:data:`EVAL_SPLITS`) gets **a-priori** thresholds by default: ``on="auto"`` chooses them
on dev, ``apply_to="auto"`` reports them on the evaluation splits. Any other table gets
each group's threshold from its own trials, labelled ``threshold_from="same trials"``.
``on=None`` asks for that explicitly; a split value names the split to choose on (then
``apply_to="auto"`` reports every other split).

A :class:`Protocol` holds the threshold policy (a criterion of
:data:`~pandas_biosig._core.criteria.CRITERIA` with its parameters, one fixed number, or a
number per system), ``on``, ``apply_to`` and the resampling unit; :meth:`Protocol.resolve`
turns it, for one validated table of any kind, into one frozen :class:`Resolved` per
reported group: its threshold, where it came from (``threshold_from``: the split it was
chosen on, ``"fixed"`` or ``"same trials"``) and the group's sweep, built once.

What a bootstrap resamples (:data:`RESAMPLE`, :meth:`Protocol.unit`): a table with a
``subject`` column resamples whole subjects, and one with a ``reference_subject`` column
too resamples people in both roles (``"two_way"``: an impostor trial compares two people);
otherwise trials within each class (``"label"``).

A table is any object with ``groups`` (each with ``key`` = ``(*by, system, split)``,
``system`` and ``split``), ``split_column`` (None without one), ``by``, ``orientation``
and ``columns["found"]`` (the column names, for messages).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
import pandas as pd

from .._kernels.cluster import (
    ClusterDesign,
    cluster_design,
    lower_bound,
    prediction_bound,
    shared_pairs,
    upper_bound,
)
from .._kernels.rates import Sweep
from .._kernels.tandem import asv_eer_threshold
from .criteria import CRITERIA, check_criterion, choose, criterion_parameters
from .options import Resample
from .schema import (
    ERROR_NO_SPLIT,
    ERROR_ONE_CLUSTER,
    ERROR_SPLIT_VALUE,
    ERROR_SUBJECT,
    ERROR_SUBJECT_MISSING,
    Group,
    SchemaError,
    Trials,
    check_option,
    check_subjects,
)
from .validation import ERROR_TARGET, check_threshold_value

#: Names documented here first, now defined beside the checks they belong to.
REEXPORTED = (CRITERIA, ERROR_TARGET, ERROR_ONE_CLUSTER, ERROR_SUBJECT, ERROR_SUBJECT_MISSING)

__all__ = [
    "AUTO",
    "DEV_SPLITS",
    "ERROR_ON_FIXED",
    "ERROR_ON_MISSING",
    "ERROR_ONE_SPLIT",
    "ERROR_THRESHOLD_MISSING",
    "EVAL_SPLITS",
    "FIXED",
    "PEOPLE",
    "RESAMPLE",
    "SAME_TRIALS",
    "Protocol",
    "Resolved",
    "ResolvedColumns",
    "Splits",
    "check_policy",
    "group_where",
    "is_auto",
    "one_reported_split",
    "reported_groups",
    "reported_positions",
    "resolve_splits",
    "select_split",
    "asvspoof_eer_threshold",
    "people",
    "split_positions",
    "split_roles",
    "split_table",
    "split_values",
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

ERROR_THRESHOLD_MISSING = "no threshold given for system {system!r} (thresholds given for {given})"
ERROR_ON_FIXED = "on={on!r} chooses a threshold by a criterion; threshold={value!r} is fixed"
ERROR_ON_MISSING = (
    "system {system!r} has no trials in split {on!r}{where}, so no threshold can be chosen there"
)
ERROR_REFERENCE = (
    "resample='two_way' needs a subject and a reference subject column; column "
    "{column!r} is not in the table (its columns: {found})"
)
ERROR_REFERENCE_MISSING = (
    "{n} trial(s){where} have no reference subject id (rows at positions {rows}); an impostor "
    "trial depends on both people it compares, so resample='two_way' (the default when the "
    "table has subject and reference subject columns) needs both ids of every trial: fill "
    "them in, drop those trials, or resample the probes' subjects only "
    "(reference_subject=None, or resample='subject' where the function has that option)"
)
ERROR_ONE_SPLIT = (
    "{function} reports one split, and {found} would be reported; pass apply_to=<split>"
)


def is_auto(value: Any) -> bool:
    """Whether an ``on``/``apply_to``/``resample`` argument is ``"auto"``."""
    return isinstance(value, str) and value == AUTO


# ----------------------------------------------------------------------------- splits
def split_values(table) -> list:
    """The distinct split values of a table in order of first appearance ([] without a
    split column)."""
    if table.split_column is None:
        return []
    return list(dict.fromkeys(_group_splits(table)))


def _group_splits(table) -> list:
    """The split of each group, in order (a validated trial table reads them off its
    layout, without building its groups)."""
    return list(table.splits) if isinstance(table, Trials) else [g.split for g in table.groups]


def _named(value, names) -> bool:
    return isinstance(value, str) and value.strip().lower() in names


def split_roles(table) -> tuple[Hashable | None, list]:
    """The development split and the evaluation splits of a table (or of a list of split
    values), by name: ``(dev, [eval, ...])`` when exactly one split is named as a
    development split and at least one as an evaluation split (:data:`DEV_SPLITS`,
    :data:`EVAL_SPLITS`), else ``(None, [])``."""
    found = list(table) if isinstance(table, Sequence) else split_values(table)
    dev = [s for s in found if _named(s, DEV_SPLITS)]
    evals = [s for s in found if _named(s, EVAL_SPLITS)]
    if len(dev) == 1 and evals:
        return dev[0], evals
    return None, []


def _found_columns(table) -> list:
    columns = getattr(table, "columns", None)
    return list(columns.get("found", [])) if isinstance(columns, dict) else []


def select_split(table, value: Hashable, *, name: str) -> list:
    """The groups whose split is ``value`` (:data:`~pandas_biosig._core.schema.ERROR_NO_SPLIT`
    without a split column, :data:`~pandas_biosig._core.schema.ERROR_SPLIT_VALUE` naming the
    splits when it has no such value)."""
    groups = table.groups
    return [groups[i] for i in split_positions(table, value, name=name)]


def split_positions(table, value: Hashable, *, name: str) -> list[int]:
    """The positions of the groups whose split is ``value``, in order (the errors of
    :func:`select_split`)."""
    if table.split_column is None:
        raise SchemaError(ERROR_NO_SPLIT.format(name=name, value=value, column="split",
                                                found=_found_columns(table)))
    splits = _group_splits(table)
    found = list(dict.fromkeys(splits))
    if value not in found:
        raise SchemaError(ERROR_SPLIT_VALUE.format(name=name, value=value,
                                                   column=table.split_column, found=found))
    return [i for i, s in enumerate(splits) if s == value]


@dataclass(frozen=True)
class _SplitGroup:
    key: tuple
    split: Hashable


@dataclass(frozen=True)
class _SplitTable:
    groups: list
    split_column: str | None
    columns: dict
    by: tuple = ()


def split_table(values: Sequence, column: str | None, found: Iterable = ()) -> _SplitTable:
    """A table of its split values only (one group per value; none without a split
    column), for a caller that has not validated the trials (the ``biosig report``
    command) to resolve the roles of its splits with :func:`resolve_splits`."""
    groups = [_SplitGroup((None, v), v) for v in values] if column is not None else []
    return _SplitTable(groups, column, {"found": list(found)})


@dataclass(frozen=True)
class Splits:
    """The resolved roles of a table's splits.

    ``on``: the split every threshold is chosen on (None: each reported group's own
    trials). ``apply_to``: the reported splits, in order (None: every split, or the whole
    table without a split column).
    """

    on: Hashable | None
    apply_to: list | None

    @property
    def apriori(self) -> bool:
        """Thresholds chosen on one split and reported on others."""
        return (self.on is not None and self.apply_to is not None and len(self.apply_to) > 0
                and self.on not in self.apply_to)


def _as_list(value) -> list:
    if isinstance(value, str) or not isinstance(value, Sequence | np.ndarray | pd.Index):
        return [value]
    return list(value)


def resolve_splits(table, on: Any = AUTO, apply_to: Any = AUTO, *,
                   chooses: bool = True) -> Splits:
    """The split thresholds are chosen on and the splits reported, for any table.

    ``on="auto"``: the development split when the table has dev and eval splits (see
    :func:`split_roles`) and a threshold is to be chosen (``chooses``), else None (each
    group's own trials). ``apply_to="auto"``: the evaluation splits when thresholds come
    from dev, the other splits when they come from a named split, else every split. A
    split value named by ``on`` or ``apply_to`` must exist (a named
    :class:`~pandas_biosig.SchemaError` otherwise).
    """
    dev, evals = split_roles(table)
    if is_auto(on):
        on = dev if chooses else None
    elif on is not None and chooses:
        select_split(table, on, name="on")
    if is_auto(apply_to):
        apply_to = None
        if on is not None and chooses:
            others = evals if on == dev else [s for s in split_values(table) if s != on]
            apply_to = others or None
    elif apply_to is not None:
        apply_to = _as_list(apply_to)
        for value in apply_to:
            select_split(table, value, name="apply_to")
    return Splits(on, apply_to)


def reported_groups(table, splits: Splits) -> list:
    """The groups of the reported splits, in the table's order."""
    if splits.apply_to is None:
        return list(table.groups)
    groups = table.groups
    return [groups[i] for i in reported_positions(table, splits)]


def reported_positions(table, splits: Splits) -> list[int]:
    """The positions of the groups of the reported splits, in the table's order."""
    if splits.apply_to is None:
        return list(range(len(table.groups)))
    keep: set[int] = set()
    for value in splits.apply_to:
        keep.update(split_positions(table, value, name="apply_to"))
    return sorted(keep)


def one_reported_split(table, splits: Splits, function: str) -> Hashable | None:
    """The single split a function reports on (None: the table has no split column), or
    :data:`ERROR_ONE_SPLIT`."""
    found = splits.apply_to if splits.apply_to is not None else split_values(table)
    if len(found) > 1:
        raise SchemaError(ERROR_ONE_SPLIT.format(function=function, found=found))
    return found[0] if found else None


def group_where(table, group) -> str:
    """``by=..., system 'x', split 'y'``: a group named for a message."""
    parts = [f"{b}={v!r}" for b, v in zip(table.by, group.key, strict=False)]
    parts.append(f"system {group.system!r}")
    if table.split_column is not None:
        parts.append(f"split {group.split!r}")
    return ", ".join(parts)


# ----------------------------------------------------------------------------- subjects
def subject_clusters(subject: np.ndarray | None, where: str = "the table", **kw):
    """Integer cluster codes of the subject ids and how many there are (the one subject
    rule, :func:`pandas_biosig._core.schema.check_subjects`)."""
    return check_subjects(subject, where, **kw)


# ----------------------------------------------------------------------------- resolution
def _sweep(group) -> Sweep:
    """The in-memory sweep of a verification group: its scores sorted once (counted
    trials, ``count=``, as that many)."""
    count = getattr(group, "count", None)
    if count is not None:
        return Sweep.from_counts(group.scores, group.genuine, count)
    return Sweep.from_scores(group.scores, group.genuine)


class _Sweeps:
    """Each group's sorted sweep, built at most once."""

    def __init__(self, sweep_of: Callable[[Any], Any] | None):
        self._of = sweep_of or (lambda g: _sweep(g))
        self._done: dict[int, tuple[Any, Any]] = {}

    def __call__(self, group):
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
    ``resample`` the resampling unit. ``sweep`` is the group's sweep, built once.
    """

    group: Any
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
class ResolvedColumns:
    """:meth:`Protocol.resolve` of every reported group of a table of many groups, as
    columns (:meth:`Protocol.resolve_columns`): ``index`` the groups' positions, then one
    entry per reported group in ``threshold`` (oriented), ``threshold_from`` and
    ``threshold_split``; ``criterion``, ``weight`` and ``target`` are the same for all."""

    index: np.ndarray
    criterion: str
    threshold: np.ndarray
    threshold_from: list
    threshold_split: list
    weight: float
    target: float


@dataclass(frozen=True)
class Protocol:
    """The evaluation protocol (see the module docstring).

    ``threshold`` is a criterion name (the criteria ``kind`` accepts,
    :data:`~pandas_biosig._core.criteria.KIND_CRITERIA`), one number, or a mapping
    ``{system: number}``; ``weight``, ``target``, ``p_target``, ``c_miss``, ``c_fa`` are
    the criterion's parameters; ``on`` the split thresholds are chosen on, ``apply_to`` the
    split(s) reported, ``resample`` the unit a bootstrap draws; ``"auto"`` decides from the
    table.
    """

    threshold: Any = "eer"
    weight: float = 0.5
    target: float | None = None
    p_target: float = 0.01
    c_miss: float = 1.0
    c_fa: float = 1.0
    on: Hashable | None = AUTO
    apply_to: Hashable | Sequence[Hashable] | None = AUTO
    resample: str = "label"
    kind: str = "verification"

    def is_criterion(self, named: Mapping | None = None) -> bool:
        return isinstance(self.threshold, str) and self.threshold not in (named or {})

    def splits(self, table, *, needs_threshold: bool = True, named=None) -> Splits:
        """The resolved :class:`Splits` of this table."""
        return resolve_splits(table, self.on, self.apply_to,
                              chooses=needs_threshold and self.is_criterion(named))

    # ---------------------------------------------------------------- resampling
    def unit(self, table, *, subject: str | None = "subject",
             reference_subject: str | None = "reference_subject") -> Resample:
        """The resampling unit for this table (``"auto"``: ``"two_way"`` with subject and
        reference subject columns, ``"subject"`` with a subject column, else ``"label"``),
        its subject (and reference) ids checked by the one subject rule."""
        resample = self.resample
        has = bool(table.groups) and table.groups[0].subject is not None
        has_ref = has and getattr(table.groups[0], "reference", None) is not None
        if is_auto(resample):
            resample = ("two_way" if has_ref else "subject") if has else "label"
        check_option(resample, RESAMPLE, "resample")
        if resample == "two_way" and has and not has_ref:
            raise SchemaError(ERROR_REFERENCE.format(column=reference_subject,
                                                     found=_found_columns(table)))
        if resample in PEOPLE:
            for g in table.groups:
                check_subjects(g.subject, group_where(table, g), rows=g.rows, column=subject,
                               found=_found_columns(table), option=f"resample={resample!r}")
                if resample == "two_way":
                    _check_references(g.reference, table, g)
        return cast(Resample, resample)  # checked against RESAMPLE above

    # ---------------------------------------------------------------- thresholds
    def resolve(
        self,
        table,
        *,
        needs_threshold: bool = True,
        sweep_of: Callable[[Any], Any] | None = None,
        named: Mapping[str, Callable[[Any], float]] | None = None,
        resample: str | None = None,
        one_split: bool = False,
    ) -> list[Resolved]:
        """One :class:`Resolved` per reported group, in the table's order.

        ``sweep_of`` builds a group's sweep (default: sort its scores; the dask path passes
        its exact out-of-core sweeps, PAD its per-species sweeps); ``named`` adds threshold
        names computed from the group (e.g. ``{"bayes": ...}``); ``resample`` the unit
        already decided by :meth:`unit` (default None: nothing resampled). ``one_split``:
        without a threshold to choose, ``apply_to="auto"`` reports the evaluation split
        when the table has exactly one (a test of one group per system).
        """
        if not isinstance(self.threshold, str):  # a bad fixed threshold, even unused
            check_policy(self.threshold, kind=self.kind)
        sweeps = _Sweeps(sweep_of)
        splits = self.splits(table, needs_threshold=needs_threshold, named=named)
        if not needs_threshold and one_split and is_auto(self.apply_to):
            evals = split_roles(table)[1]
            if len(evals) == 1:
                splits = Splits(splits.on, evals)
        groups = reported_groups(table, splits)
        nan = float("nan")

        def make(g, crit, t, frm, tsplit, w=nan, tgt=nan):
            return Resolved(g, crit, t, frm, tsplit, w, tgt, resample, sweeps)

        if not needs_threshold:
            return [make(g, "none", nan, None, None) for g in groups]
        if self.is_criterion(named):
            return self._chosen(table, splits.on, groups, sweeps, make, named)
        if splits.on is not None:
            raise ValueError(ERROR_ON_FIXED.format(on=splits.on, value=self.threshold))
        return self._fixed(table, groups, named or {}, make)

    def resolve_columns(
        self,
        table: Trials,
        *,
        choose_all: Callable[[str, float, float], np.ndarray],
        named: Mapping[str, float] | None = None,
    ) -> ResolvedColumns:
        """:meth:`resolve` of a validated trial table with many groups, without a Python
        step per group: the same thresholds, labels and errors in the same order.

        ``choose_all(criterion, weight, target)`` gives the threshold each group's own
        trials choose (oriented, one per group of the table: the segmented engine of
        :mod:`pandas_biosig._core.segmented` reads them off all groups at once);
        ``named`` maps extra threshold names to one (oriented) value for every group.
        """
        named = dict(named or {})
        if not isinstance(self.threshold, str):  # a bad fixed threshold, even unused
            check_policy(self.threshold, kind=self.kind)
        splits = self.splits(table, needs_threshold=True, named=named)
        index = np.asarray(reported_positions(table, splits), dtype=np.int64)
        keys = table.keys
        nan = float("nan")
        if self.is_criterion(named):
            crit = check_criterion(self.threshold, self.kind, named)
            w, tgt = criterion_parameters(crit, weight=self.weight, target=self.target,
                                          p_target=self.p_target, c_miss=self.c_miss,
                                          c_fa=self.c_fa)
            chosen = choose_all(crit, w, tgt)
            on = splits.on
            if on is None:
                return ResolvedColumns(index, crit, chosen[index], [SAME_TRIALS] * index.size,
                                       [keys[i][-1] for i in index], w, tgt)
            source = _sources(table, index, on)
            frm = [SAME_TRIALS if s == i else on for s, i in zip(source, index, strict=True)]
            return ResolvedColumns(index, crit, chosen[source], frm, [on] * index.size, w, tgt)
        if splits.on is not None:
            raise ValueError(ERROR_ON_FIXED.format(on=splits.on, value=self.threshold))
        threshold = self.threshold
        sign = -1.0 if table.orientation == "distance" else 1.0
        if isinstance(threshold, str):
            if threshold not in named:
                check_criterion(threshold, self.kind, named)  # the named error of a bad name
            values = np.full(index.size, float(named[threshold]))
        elif isinstance(threshold, Mapping | pd.Series):
            given = dict(threshold)
            values = np.empty(index.size)
            for j, i in enumerate(index):
                system = keys[i][-2]
                if system not in given:
                    raise SchemaError(ERROR_THRESHOLD_MISSING.format(system=system,
                                                                     given=list(given)))
                values[j] = sign * check_threshold_value(given[system])
        else:
            values = np.full(index.size, sign * check_threshold_value(threshold))
        crit = threshold if isinstance(threshold, str) else FIXED
        return ResolvedColumns(index, crit, values, [FIXED] * index.size,
                               [None] * index.size, nan, nan)

    def _chosen(self, table, on, groups, sweeps, make, named) -> list[Resolved]:
        crit = check_criterion(self.threshold, self.kind, named)
        w, tgt = criterion_parameters(crit, weight=self.weight, target=self.target,
                                      p_target=self.p_target, c_miss=self.c_miss, c_fa=self.c_fa)

        def pick(g):
            return choose(crit, sweeps(g), weight=w, target=tgt, where=group_where(table, g))

        if on is None:
            return [make(g, crit, pick(g), SAME_TRIALS, g.split, w, tgt) for g in groups]
        source = {g.key[:-1]: g for g in select_split(table, on, name="on")}
        chosen: dict = {}
        out = []
        for g in groups:
            src = source.get(g.key[:-1])
            if src is None:
                where = "".join(f", {b}={v!r}" for b, v in zip(table.by, g.key, strict=False))
                raise SchemaError(ERROR_ON_MISSING.format(system=g.system, on=on, where=where))
            if g.key[:-1] not in chosen:
                chosen[g.key[:-1]] = pick(src)
            frm = SAME_TRIALS if src is g else on
            out.append(make(g, crit, chosen[g.key[:-1]], frm, on, w, tgt))
        return out

    def _fixed(self, table, groups, named, make) -> list[Resolved]:
        threshold = self.threshold
        sign = -1.0 if table.orientation == "distance" else 1.0
        if isinstance(threshold, str):
            if threshold in named:
                return [make(g, threshold, named[threshold](g), FIXED, None) for g in groups]
            check_criterion(threshold, self.kind, named)  # the named error of a bad name
        if isinstance(threshold, Mapping | pd.Series):
            given = dict(threshold)
            out = []
            for g in groups:
                if g.system not in given:
                    raise SchemaError(ERROR_THRESHOLD_MISSING.format(system=g.system,
                                                                     given=list(given)))
                t = sign * check_threshold_value(given[g.system])
                out.append(make(g, FIXED, t, FIXED, None))
            return out
        t = sign * check_threshold_value(threshold)
        return [make(g, FIXED, t, FIXED, None) for g in groups]


def _sources(table: Trials, index: np.ndarray, on: Hashable) -> np.ndarray:
    """The position of the group of split ``on`` with the same ``by`` values and system
    as each reported group (:data:`ERROR_ON_MISSING` for the first without one)."""
    keys = table.keys
    source = {keys[i][:-1]: i for i in split_positions(table, on, name="on")}
    out = np.empty(index.size, dtype=np.int64)
    for j, i in enumerate(index):
        src = source.get(keys[i][:-1])
        if src is None:
            where = "".join(f", {b}={v!r}" for b, v in zip(table.by, keys[i], strict=False))
            raise SchemaError(ERROR_ON_MISSING.format(system=keys[i][-2], on=on, where=where))
        out[j] = src
    return out


def check_policy(threshold, *, kind: str, weight=0.5, target=None, p_target=0.01,
                 c_miss=1.0, c_fa=1.0, named: Mapping | None = None) -> None:
    """Check a threshold policy before reading the table: the criterion's name and
    parameters, or the fixed threshold(s)."""
    if isinstance(threshold, str) and threshold not in (named or {}):
        criterion_parameters(check_criterion(threshold, kind, named), weight=weight,
                             target=target, p_target=p_target, c_miss=c_miss, c_fa=c_fa)
    elif isinstance(threshold, Mapping | pd.Series):
        for value in dict(threshold).values():
            check_threshold_value(value)
    elif not isinstance(threshold, str):
        check_threshold_value(threshold)


def asvspoof_eer_threshold(targets: np.ndarray, nontargets: np.ndarray) -> float:
    """The ASV threshold of the tandem metrics' ``asv_threshold="eer"``: the ASVspoof
    organisers' EER threshold (``compute_eer``), the highest score rejected at the sorted
    position where ``|FRR - FAR|`` is smallest, targets before non-targets among equal
    scores. The t-DCF's ASV accepts the scores ``>= threshold`` (as the organisers'
    ``obtain_asv_error_rates`` does), so its rates are those one tie-run lower than the
    EER's (:mod:`pandas_biosig._kernels.tandem`)."""
    return asv_eer_threshold(targets, nontargets)[1]


def _check_references(ids: np.ndarray, table, g) -> None:
    """:data:`ERROR_REFERENCE_MISSING` for trials without a reference subject id."""
    missing = pd.isna(ids)
    if np.any(missing):
        pos = np.flatnonzero(missing)
        rows = pos if g.rows is None else g.rows[pos]
        raise SchemaError(ERROR_REFERENCE_MISSING.format(
            n=pos.size, where=f" of {group_where(table, g)}", rows=[int(r) for r in rows[:10]]))


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
    assert group.subject is not None  # two_way: Protocol.unit checked the subject ids
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


def rate_layout(group: Group, rate: str, resample: str) -> tuple[float, float]:
    """``(trials, ordered pairs sharing a person)`` of the trials ``rate`` is measured on
    (:func:`pandas_biosig._kernels.cluster.shared_pairs`), people as :func:`rate_design`
    reads them: what a prediction of the rate measured on ``group`` needs."""
    cls = group.genuine if rate == "frr" else ~group.genuine
    if resample not in PEOPLE:
        return float(np.count_nonzero(cls)), 0.0
    probe, ref, _ = people(group, resample)
    return shared_pairs(probe[cls], ref[cls] if ref is not None and rate == "far" else None)


def guaranteed_threshold(group: Group, sweep: Sweep, *, rate: str, target: float,
                         confidence_level: float, resample: str, side: str = "upper",
                         who: tuple | None = None, new: tuple[float, float] | None = None
                         ) -> tuple[float, float]:
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
    :func:`people`, when the caller has them. ``new``: the :func:`rate_layout` of the
    trials the rate will be measured on; the bound is then the prediction bound of that
    measured rate (:func:`pandas_biosig._kernels.cluster.prediction_bound`).
    """
    if who is None and resample in PEOPLE:
        who = people(group, resample)
    n = sweep.n if rate == "far" else sweep.p
    bound_of = upper_bound if side == "upper" else lower_bound

    def point(k: int):
        op = sweep.fnmr_at_fmr(k / n) if rate == "far" else sweep.fmr_at_fnmr(k / n)
        assert op is not None  # a group's scores are finite: every FRR bound is reached
        design = rate_design(group, op.threshold, rate, resample, who)
        if new is not None:
            return op.threshold, prediction_bound(design, confidence_level, *new)
        return op.threshold, bound_of(design, confidence_level)

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
