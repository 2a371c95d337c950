"""What the tandem functions share: where thresholds are chosen and reported (through the
protocol's split rules), the thresholds given as arguments, the cost columns and the
result frame."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import asdict

import pandas as pd

from .._core.protocol import (
    ERROR_ON_FIXED,
    ERROR_ON_MISSING,
    SAME_TRIALS,
    is_auto,
    reported_groups,
    resolve_splits,
    select_split,
)
from .._core.schema import SchemaError, Trials
from .._core.validation import check_threshold_value
from .._kernels.tandem import PRESETS
from ._table import TandemGroup, group_keys, where

__all__ = [
    "COST_FIELDS",
    "ERROR_GROUP",
    "ERROR_TANDEM_THRESHOLD",
    "ERROR_TANDEM_THRESHOLD_MISSING",
    "check_threshold",
    "cost_columns",
    "fixed_threshold",
    "in_group",
    "plan",
    "tandem_frame",
    "threshold_from",
]

#: Every cost column of the tandem results, in order (NaN where a model has no such field).
COST_FIELDS = ("p_target", "p_nontarget", "p_spoof", "c_miss_asv", "c_fa_asv", "c_miss_cm",
               "c_fa_cm", "c_miss", "c_fa", "c_fa_spoof")

ERROR_TANDEM_THRESHOLD = (
    "{name}={value!r} must be a finite number, a mapping {{{key}: threshold}} or one of "
    "{allowed}"
)
ERROR_TANDEM_THRESHOLD_MISSING = (
    "{name}: no threshold given for {key} {value!r} (thresholds given for {given})"
)
#: The names the ``costs`` column gives a preset's model, in order of preference (ASVspoof
#: 2021 and 5 share one model: it is called ``asvspoof5``).
_PRESET_NAMES = ("asvspoof2019", "asvspoof5", "sasv", "asvspoof5_cm", "asvspoof2021")
#: A kernel's named error, said of the group it happened in.
ERROR_GROUP = "{where}: {message}"


def cost_columns(costs, names: tuple[str, ...] = COST_FIELDS) -> dict:
    """``costs`` (the preset's name, or ``"custom"``) and one column per cost field."""
    label = next((k for k in _PRESET_NAMES if PRESETS[k] == costs), "custom")
    values = asdict(costs)
    return {"costs": label, **{n: float(values.get(n, math.nan)) for n in names}}


def in_group(group: TandemGroup, split_column, call: Callable, *args):
    """``call(*args)``; a kernel's ``ValueError`` (zero normalizer, negative weight, an
    undefined t-EER) is raised again naming the group."""
    try:
        return call(*args)
    except ValueError as exc:
        raise ValueError(ERROR_GROUP.format(where=where(group, split_column),
                                            message=exc)) from None


def fixed_threshold(value, name: str, key: str, of: Hashable, allowed) -> float:
    """A threshold given as a number, or the entry of ``of`` in a mapping
    ``{key: threshold}``."""
    if isinstance(value, Mapping | pd.Series):
        given = dict(value)
        if of not in given:
            raise SchemaError(ERROR_TANDEM_THRESHOLD_MISSING.format(
                name=name, key=key, value=of, given=list(given)))
        value = given[of]
    value = check_threshold_value(value)  # a real number: the message of every kind
    if not math.isfinite(value):
        raise ValueError(ERROR_TANDEM_THRESHOLD.format(name=name, value=value, key=key,
                                                       allowed=list(allowed)))
    return float(value)


def check_threshold(value, name: str, key: str, allowed) -> None:
    """A threshold argument: one of ``allowed``, a finite number or a mapping."""
    if isinstance(value, str):
        if value not in allowed:
            raise ValueError(ERROR_TANDEM_THRESHOLD.format(name=name, value=value, key=key,
                                                           allowed=list(allowed)))
    elif not isinstance(value, Mapping | pd.Series):
        fixed_threshold(value, name, key, None, allowed)


def plan(trials: Trials, *, on, apply_to, chosen: bool) -> tuple[Hashable | None, list]:
    """Where thresholds are chosen and which groups are reported, by the protocol's split
    rules (:func:`pandas_biosig._core.protocol.resolve_splits`): ``(on, [(group, source
    group)])``, the source group the one of split ``on`` with the same systems (the group
    itself when ``on`` is None). ``chosen``: some threshold is chosen by a criterion; else
    ``on`` must be left to ``"auto"`` (or None)."""
    if not chosen and not (on is None or is_auto(on)):
        raise ValueError(ERROR_ON_FIXED.format(on=on, value="given"))
    splits = resolve_splits(trials, on, apply_to, chooses=chosen)
    on = splits.on
    groups = reported_groups(trials, splits)
    if on is None:
        return None, [(g, g) for g in groups]
    source = {g.key[:-1]: g for g in select_split(trials, on, name="on")}
    out = []
    for g in groups:
        src = source.get(g.key[:-1])
        if src is None:
            raise SchemaError(ERROR_ON_MISSING.format(
                system=g.key[1], on=on, where=f", ASV system {g.key[0]!r}"))
        out.append((g, src))
    return on, out


def threshold_from(on, group, source) -> Hashable:
    """Where a threshold chosen by a criterion came from: its split, or the same trials."""
    return SAME_TRIALS if on is None or source is group else on


def tandem_frame(trials: Trials, groups: list, rows: list[dict], columns: list[str]):
    """One row per group: ``asv_system, cm_system, split``, then ``columns``."""
    data = group_keys(trials, groups)
    for name in columns:
        values = [r[name] for r in rows]
        data[name] = values
    return pd.DataFrame(data, columns=["asv_system", "cm_system", "split", *columns])

