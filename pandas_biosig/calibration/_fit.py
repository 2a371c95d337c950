"""The machinery of :func:`calibrate` and :func:`fuse`: which maps are fitted on which
trials, the fits themselves, and the rows they write.

A *unit* is one calibrated system to add: its name, its source systems (one for a
calibration, several for a fusion) and its method. For each ``by`` group and unit the
source scores of each split are aligned into a *block* (trials x sources). Then:

- with a split to fit on (``on``): one map is fitted on all of that split's block and
  applied to every split of ``apply_to`` (``fit="held-out"``); the ``on`` split's own
  rows get cross-fitted LLRs (``fit="cross-fit"``: each fold's from a map fitted on the
  other folds), or, only when ``apply_to`` names that split, LLRs from the map fitted on
  them (``fit="same trials"``, with a warning);
- without one, every reported split is cross-fitted within itself.

Every map gives rows of the parameter frame (:data:`PARAMS_COLUMNS`); the LLRs become new
rows of the trial table, copies of the source rows (the first source's, for a fusion)
with the calibrated system's name, the LLR as the score and the method in
:data:`CALIBRATION_COLUMN`.
"""

from __future__ import annotations

import warnings
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._core.protocol import group_where
from .._core.replicates import ERROR_LABELS_DIFFER
from .._core.schema import BiosigWarning, Group, SchemaError, Trials, scalar_value
from .._kernels.calibration import (
    CollinearError,
    SeparableError,
    cross_entropy,
    train_linear,
    train_pav,
)
from ._folds import assign_folds

__all__ = [
    "CALIBRATION_COLUMN",
    "ERROR_FIT_MISSING",
    "ERROR_FUSE_MISSING",
    "ERROR_FUSE_TRIALS",
    "ERROR_NAME_TAKEN",
    "FITS",
    "PARAMS_COLUMNS",
    "WARN_NOT_CONVERGED",
    "WARN_SAME_TRIALS",
    "CalibrationError",
    "Settings",
    "Unit",
    "cross_fit",
    "fit_map",
    "params_frame",
    "run",
    "trial_frame",
]

#: The column that marks the rows a calibration wrote: the method (``"linear"``,
#: ``"pav"``, ``"fusion"``) on rows whose score is an LLR in nats, missing elsewhere.
CALIBRATION_COLUMN = "calibration"

#: How a map relates to the rows it wrote (the ``fit`` column of the parameter frame).
FITS = {
    "held-out": "fitted on all of split `fitted_on`, applied to another split",
    "cross-fit": "fitted on the other folds of the split, applied to fold `fold`",
    "same trials": "fitted on the very trials it was applied to (optimistic)",
}

#: Columns of the parameter frame (after the ``by`` columns).
PARAMS_COLUMNS = [
    "system", "source", "method", "prior", "fitted_on", "applied_to", "fit", "fold",
    "n_folds", "term", "estimate", "objective", "iterations", "converged", "n_genuine",
    "n_impostor",
]

ERROR_FUSE_TRIALS = (
    "systems {a!r} and {b!r} do not share the same trials{where}: {n_a} trial(s) only in "
    "{a!r} and {n_b} only in {b!r} (e.g. {examples}); a fusion needs every system's score "
    "of every trial: keep the trials they share, or fuse other systems"
)
ERROR_FIT_MISSING = (
    "system {system!r} has no trials in split {on!r}{where}, so no calibration map can be "
    "fitted there"
)
ERROR_FUSE_MISSING = (
    "system {system!r} has no trials in split {split!r}{where}: a fusion needs every fused "
    "system's score of every trial"
)
ERROR_NAME_TAKEN = (
    "system name {name!r} is already a system of the table; pass another name (or drop "
    "the rows of an earlier calibration)"
)
WARN_SAME_TRIALS = (
    "the calibration maps fitted on split {split!r} are applied to its own trials "
    "(apply_to names that split): their calibrated scores are optimistic, and the "
    "parameter frame says fit='same trials'. Leave that split out of apply_to to get "
    "cross-fitted LLRs for it"
)
WARN_NOT_CONVERGED = (
    "{n} calibration map(s) stopped before convergence (see the converged column of the "
    "parameter frame), e.g. {where}"
)


class CalibrationError(ValueError):
    """No calibration map can be fitted to these trials (separable or redundant scores)."""

    __module__ = "pandas_biosig"  # its public home, shown in tracebacks and reprs


@dataclass(frozen=True)
class Unit:
    """One calibrated system to add: ``name``, its ``sources``, the fit ``method``
    (``"linear"`` or ``"pav"``) and the :data:`CALIBRATION_COLUMN` value ``label``."""

    name: Hashable
    sources: tuple
    method: str
    label: str


@dataclass(frozen=True)
class Settings:
    """What every fit of one call shares."""

    prior: float
    k: int
    rng: np.random.Generator
    on: Hashable | None
    apply_to: list | None  # splits given the `on` map (None: every split, cross-fitted)
    same_trials: bool  # apply_to names the `on` split: in-sample LLRs there


@dataclass
class _Out:
    """What a call accumulates: the rows to copy with their LLRs, and the parameters."""

    rows: list = field(default_factory=list)  # (group, llr, unit)
    params: list = field(default_factory=list)
    not_converged: list = field(default_factory=list)
    folds: dict = field(default_factory=dict)  # (by..., split) -> {id(group): folds}


@dataclass(frozen=True)
class _Block:
    """One unit's trials in one split: the first source's group (its rows are copied,
    its trial order kept) and the aligned score matrix (trials x sources)."""

    group: Group
    x: np.ndarray


# ------------------------------------------------------------------------- blocks
def _blocks(trials: Trials, unit: Unit, by_key: tuple) -> dict:
    """``{split: _Block}`` of ``unit`` in one ``by`` group (splits where the first source
    has trials; a fusion needs every source there, on the same trials)."""
    n_by = len(trials.by)
    index = {g.key: g for g in trials.groups}
    out = {}
    for g in trials.groups:
        if g.key[:n_by] != by_key or g.system != unit.sources[0]:
            continue
        columns = [g.scores]
        for other in unit.sources[1:]:
            h = index.get((*by_key, other, g.split))
            where = group_where(trials, g).replace(f"system {g.system!r}", "").strip(", ")
            if h is None:
                by = "".join(f", {b}={v!r}" for b, v in zip(trials.by, by_key, strict=True))
                raise SchemaError(ERROR_FUSE_MISSING.format(system=other, split=g.split,
                                                            where=by))
            columns.append(_aligned(g, h, where))
        out[g.split] = _Block(g, np.column_stack(columns))
    return out


def _aligned(g: Group, h: Group, where: str) -> np.ndarray:
    """``h``'s scores in ``g``'s trial order (the same trials and labels, else errors)."""
    ig, ih = pd.Index(g.trial), pd.Index(h.trial)
    pos = ih.get_indexer(ig) if ig.size == ih.size and ih.is_unique else None
    if pos is None or (pos < 0).any():
        only_g, only_h = ig.difference(ih, sort=False), ih.difference(ig, sort=False)
        examples = [scalar_value(v) for v in [*only_g[:3], *only_h[:3]]]
        raise SchemaError(ERROR_FUSE_TRIALS.format(
            a=g.system, b=h.system, where=f" in {where}" if where else "", n_a=len(only_g),
            n_b=len(only_h), examples=examples))
    differ = h.genuine[pos] != g.genuine
    if differ.any():
        raise SchemaError(ERROR_LABELS_DIFFER.format(
            trial=scalar_value(g.trial[np.argmax(differ)])))
    return h.scores[pos]


# ------------------------------------------------------------------------- fits
def fit_map(method: str, x: np.ndarray, genuine: np.ndarray, prior: float, where: str,
            counts: np.ndarray | None = None, start=None):
    """The map of ``method`` fitted on the rows of ``x`` (``counts``: multiplicities;
    ``start``: a linear fit to start from); kernel refusals become
    :class:`CalibrationError` naming ``where``."""
    neg, pos = x[~genuine], x[genuine]
    nc = None if counts is None else counts[~genuine]
    pc = None if counts is None else counts[genuine]
    try:
        if method == "pav":
            return train_pav(neg, pos, neg_counts=nc, pos_counts=pc)
        return train_linear(neg, pos, prior=prior, neg_counts=nc, pos_counts=pc, start=start)
    except (SeparableError, CollinearError) as exc:
        raise CalibrationError(f"{where}: {exc}") from None


def _param_rows(unit: Unit, fitted, x, genuine, prior: float, **where) -> list[dict]:
    """The parameter-frame rows of one map (``where``: fitted_on, applied_to, fit, fold,
    n_folds)."""
    common = dict(system=unit.name, method=unit.method, prior=prior, **where,
                  n_genuine=int(genuine.sum()), n_impostor=int((~genuine).sum()))
    if unit.method == "pav":
        llr = fitted.apply(x[:, 0])
        objective = cross_entropy(llr[~genuine], llr[genuine], prior)
        common.update(objective=objective, iterations=np.nan, converged=True)
        bins = fitted.score_bounds.size // 2
        return [dict(common, source=unit.sources[0], term="bins", estimate=float(bins))]
    common.update(objective=fitted.objective, iterations=float(fitted.iterations),
                  converged=bool(fitted.converged))
    term = "scale" if len(unit.sources) == 1 else "weight"
    rows = [dict(common, source=s, term=term, estimate=float(w))
            for s, w in zip(unit.sources, fitted.weights, strict=True)]
    return [*rows, dict(common, source=None, term="offset", estimate=float(fitted.offset))]


def _apply(fitted, x: np.ndarray) -> np.ndarray:
    return fitted.apply(x[:, 0]) if x.shape[1] == 1 else fitted.apply(x)


def cross_fit(method: str, x: np.ndarray, genuine: np.ndarray, fold: np.ndarray, k: int,
              prior: float, where: str, counts: np.ndarray | None = None, starts=None):
    """Cross-fitted LLRs of one block and the fitted maps, one per fold (``starts``: a
    linear fit per fold to start from)."""
    llr = np.empty(x.shape[0])
    maps = []
    for f in range(k):
        test = fold == f
        train = ~test
        c = None if counts is None else counts[train]
        m = fit_map(method, x[train], genuine[train], prior, f"{where}, without fold {f}", c,
                    None if starts is None else starts[f])
        llr[test] = _apply(m, x[test])
        maps.append((m, train))
    return llr, maps


# ------------------------------------------------------------------------- one call
def run(trials: Trials, units: Sequence[Unit], settings: Settings) -> _Out:
    """Every unit in every ``by`` group: the LLR rows to write and the parameter rows."""
    out = _Out()
    folds = out.folds
    n_by = len(trials.by)
    for by_key in dict.fromkeys(g.key[:n_by] for g in trials.groups):
        for unit in units:
            blocks = _blocks(trials, unit, by_key)
            if settings.on is None:
                for split, block in blocks.items():
                    if settings.apply_to is None or split in settings.apply_to:
                        _cross(out, trials, unit, block, settings, folds)
            else:
                _held_out(out, trials, unit, blocks, settings, folds, by_key)
    if out.not_converged:
        warnings.warn(WARN_NOT_CONVERGED.format(n=len(out.not_converged),
                                                where=out.not_converged[0]),
                      BiosigWarning, stacklevel=4)
    return out


def _fold_of(trials: Trials, block: _Block, settings: Settings, folds: dict) -> np.ndarray:
    """The fold of each trial of ``block`` (drawn once per ``by`` group and split)."""
    g = block.group
    key = (*g.key[: len(trials.by)], g.split)
    if key not in folds:
        peers = [h for h in trials.groups if (*h.key[: len(trials.by)], h.split) == key]
        where = group_where(trials, g).replace(f"system {g.system!r}", "").strip(", ")
        drawn = assign_folds(peers, settings.k, settings.rng, where or "the table")
        folds[key] = {id(h): f for h, f in zip(peers, drawn, strict=True)}
    return folds[key][id(g)]


def _cross(out: _Out, trials, unit: Unit, block: _Block, settings: Settings, folds) -> None:
    g = block.group
    fold = _fold_of(trials, block, settings, folds)
    where = _where(trials, unit, g)
    llr, maps = cross_fit(unit.method, block.x, g.genuine, fold, settings.k, settings.prior,
                          where)
    for f, (m, train) in enumerate(maps):
        _add(out, trials, g, _param_rows(unit, m, block.x[train], g.genuine[train],
                                         settings.prior, fitted_on=g.split, applied_to=g.split,
                                         fit="cross-fit", fold=f, n_folds=settings.k))
        _note(out, m, f"{where}, without fold {f}")
    out.rows.append((g, llr, unit))


def _held_out(out: _Out, trials, unit: Unit, blocks: dict, settings: Settings, folds,
              by_key: tuple) -> None:
    on = settings.on
    if on not in blocks:
        where = "".join(f", {b}={v!r}" for b, v in zip(trials.by, by_key, strict=True))
        raise SchemaError(ERROR_FIT_MISSING.format(system=unit.sources[0], on=on, where=where))
    fit_block = blocks[on]
    g = fit_block.group
    where = _where(trials, unit, g)
    m = fit_map(unit.method, fit_block.x, g.genuine, settings.prior, where)
    _note(out, m, where)
    targets = [s for s in blocks if s != on and (settings.apply_to is None
                                                 or s in settings.apply_to)]
    for split in targets:
        b = blocks[split]
        _add(out, trials, g, _param_rows(unit, m, fit_block.x, g.genuine, settings.prior,
                                         fitted_on=on, applied_to=split, fit="held-out",
                                         fold=None, n_folds=None))
        out.rows.append((b.group, _apply(m, b.x), unit))
    if settings.same_trials:
        _add(out, trials, g, _param_rows(unit, m, fit_block.x, g.genuine, settings.prior,
                                         fitted_on=on, applied_to=on, fit="same trials",
                                         fold=None, n_folds=None))
        out.rows.append((g, _apply(m, fit_block.x), unit))
    else:
        _cross(out, trials, unit, fit_block, settings, folds)


def _where(trials: Trials, unit: Unit, g: Group) -> str:
    text = group_where(trials, g)
    if len(unit.sources) > 1:
        text = text.replace(f"system {g.system!r}", f"fusion {unit.name!r}")
    return text


def _add(out: _Out, trials: Trials, g: Group, rows: list[dict]) -> None:
    """Parameter rows, with the ``by`` values of their group first."""
    by = dict(zip(trials.by, g.key[: len(trials.by)], strict=True))
    out.params += [{**by, **r} for r in rows]


def _note(out: _Out, fitted, where: str) -> None:
    if not getattr(fitted, "converged", True):
        out.not_converged.append(where)


# ------------------------------------------------------------------------- frames
def params_frame(trials: Trials, out: _Out) -> pd.DataFrame:
    """The parameter frame: the ``by`` columns, then :data:`PARAMS_COLUMNS`; ``fold`` and
    ``n_folds`` as nullable integers."""
    frame = pd.DataFrame(out.params, columns=[*trials.by, *PARAMS_COLUMNS])
    frame["source"] = pd.Series([r["source"] for r in out.params], dtype=object)
    for col in ("fold", "n_folds"):
        frame[col] = frame[col].astype("Int64")
    frame["converged"] = frame["converged"].astype(bool)
    return frame


def trial_frame(data: pd.DataFrame, rows: list, *, system: str, score: str,
                extra: Sequence[tuple[np.ndarray, Any]] = ()) -> pd.DataFrame:
    """The input table with the calibrated rows appended (copies of their source rows),
    :data:`CALIBRATION_COLUMN` added when missing (missing on the input rows).

    ``rows``: ``(group, llr, unit)``; ``extra``: ``(row positions, unit)`` written with
    NaN scores (failures to acquire of the source system, kept as failures)."""
    pieces = [(np.arange(len(data)) if g.rows is None else g.rows, llr, u)
              for g, llr, u in rows]
    pieces += [(pos, np.full(pos.size, np.nan), u) for pos, u in extra]
    positions = np.concatenate([p for p, _, _ in pieces]) if pieces else np.zeros(0, np.int64)
    new = data.iloc[positions].copy()
    sizes = [p.size for p, _, _ in pieces]
    names = np.empty(len(pieces), dtype=object)
    names[:] = [u.name for _, _, u in pieces]
    new[score] = np.concatenate([v for _, v, _ in pieces]) if pieces else np.zeros(0)
    new[system] = np.repeat(names, sizes)
    new[CALIBRATION_COLUMN] = pd.Series(
        np.repeat(np.array([u.label for _, _, u in pieces], object), sizes), index=new.index,
        dtype=object)
    base = data
    if CALIBRATION_COLUMN not in data.columns:
        base = data.assign(**{CALIBRATION_COLUMN: pd.Series(None, index=data.index,
                                                            dtype=object)})
    if isinstance(data[system].dtype, pd.CategoricalDtype):
        cats = data[system].cat.categories.append(pd.Index(list(dict.fromkeys(names))))
        base = base.assign(**{system: base[system].cat.set_categories(cats)})
        new[system] = pd.Categorical(new[system], categories=cats)
    return pd.concat([base, new], ignore_index=True)
