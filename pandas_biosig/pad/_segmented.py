"""PAD tables of many groups read in vectorised passes over the groups (internal).

A table of more than one group (``by`` groups, systems, splits), each of at most
:data:`~pandas_biosig._core.segmented.SMALL_GROUP` presentations, is read through one
:class:`~pandas_biosig._kernels.pad.PadSegments`: every group sorted in one call, its
thresholds chosen by the protocol (:meth:`Protocol.resolve_columns
<pandas_biosig._core.protocol.Protocol.resolve_columns>`, the operating points of
:func:`~pandas_biosig._core.criteria.operating_point` read off all groups at once), its
errors per species counted in one pass. Each number equals that of the group's own
:class:`~pandas_biosig._kernels.pad.PadSweep` to the bit (``tests/test_pad_segmented.py``),
so where a table goes is a matter of speed only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._core.criteria import eer_point, operating_point
from .._core.protocol import Protocol, ResolvedColumns
from .._core.segmented import SMALL_GROUP
from .._kernels.pad import PadSegments
from ._table import PadTable

__all__ = ["metrics_frame", "rate_rows", "resolve", "segments_of"]


def segments_of(table: PadTable) -> PadSegments | None:
    """The segments of every group of ``table`` when it is read through them: more than
    one group, none of more than ``SMALL_GROUP`` presentations (None otherwise: each
    group through its own sweep)."""
    trials = table.trials
    lay = None if trials is None else trials.layout
    if lay is None or table.codes is None or lay.size < 2:
        return None
    if int(np.diff(lay.offsets).max()) > SMALL_GROUP:
        return None
    return PadSegments(lay.scores, lay.genuine, table.codes, lay.offsets, len(table.species))


def resolve(table: PadTable, sg: PadSegments, *, threshold, target, on,
            apply_to) -> ResolvedColumns:
    """The protocol of :func:`~pandas_biosig.pad._table.resolve_pad` resolved on every
    reported group at once."""
    protocol = Protocol(threshold=threshold, target=target, on=on, apply_to=apply_to,
                        kind="pad")

    def choose_all(criterion: str, weight: float, tgt: float) -> np.ndarray:
        return np.asarray(operating_point(criterion, sg, weight=weight, target=tgt).threshold)

    assert table.trials is not None  # segments_of() found them
    return protocol.resolve_columns(table.trials, choose_all=choose_all)


def _counts(table: PadTable, sg: PadSegments, r: ResolvedColumns):
    """Errors and presentations per (reported group, stratum) at the groups' thresholds
    (as :func:`~pandas_biosig.pad._table._rates`: NaN errors and no presentations where
    a threshold is NaN)."""
    full = np.full(sg.size, np.nan)
    full[r.index] = r.threshold
    errs, totals = sg.strata_counts(full)
    errs, totals = errs[r.index], totals[r.index]
    missing = np.isnan(r.threshold)
    errs[missing] = np.nan
    totals[missing] = 0.0
    return errs, totals, missing


def _head(table: PadTable, r: ResolvedColumns, width: int = 1) -> dict[str, Any]:
    """The columns every row of a reported group repeats."""
    sign = -1.0 if table.orientation == "distance" else 1.0

    def each(values) -> list:
        return [v for v in values for _ in range(width)]

    m = r.index.size * width
    return dict(criterion=[r.criterion] * m, threshold_split=each(r.threshold_split),
                threshold_from=each(r.threshold_from), target=np.full(m, r.target),
                threshold=np.repeat(sign * r.threshold, width))


def _frame(table: PadTable, index: np.ndarray, cols: dict, columns: list[str]) -> pd.DataFrame:
    """The result frame of the groups ``index`` (positions, repeats allowed), as
    :func:`~pandas_biosig.pad._table._frame` builds it from rows."""
    assert table.trials is not None
    keys = table.trials.keys
    head = pd.DataFrame([keys[i] for i in index], columns=table.key_names)
    body = pd.DataFrame({c: cols[c] for c in columns if c not in ("system", "split")})
    out = pd.concat([head, body], axis=1)
    return out[[*table.by, *columns]]


def metrics_frame(table: PadTable, sg: PadSegments, r: ResolvedColumns,
                  columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.pad_metrics` of every reported group."""
    k = len(table.species)
    idx = r.index
    errs, totals, missing = _counts(table, sg, r)
    present = totals[:, :k] > 0
    with np.errstate(invalid="ignore", divide="ignore"):
        apcers = np.where(present, errs[:, :k] / np.where(present, totals[:, :k], 1), np.nan)
        which = np.where(np.isnan(apcers), -np.inf, apcers).argmax(axis=1)
        amax = np.where(missing, np.nan, apcers[np.arange(idx.size), which])
        pooled = errs[:, :k].sum(axis=1) / totals[:, :k].sum(axis=1)
        bpcer = errs[:, k] / totals[:, k]
    assert table.trials is not None and table.trials.layout is not None
    bona, attacks = table.trials.layout.class_weights()
    cols = _head(table, r)
    cols.update(
        n_bonafide=bona[idx], n_attack=attacks[idx], n_species=present.sum(axis=1),
        apcer_max=amax,
        apcer_max_species=[None if m else table.species[i]
                           for m, i in zip(missing, which, strict=True)],
        apcer_pooled=np.where(missing, np.nan, pooled), bpcer=np.where(missing, np.nan, bpcer),
        acer=(amax + bpcer) / 2, eer=np.asarray(eer_point(sg)[0])[idx], resample=[None] * idx.size,
    )
    return _frame(table, idx, cols, columns)


def rate_rows(table: PadTable, sg: PadSegments, r: ResolvedColumns, intervals,
              columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.pad_rates` of every reported group: one row per species,
    then the bona fide row. ``intervals(n, errors, ok)`` gives the columns ``ci_low``,
    ``ci_high``, ``fallback_reason`` of the rows (``ok``: rows with presentations and a
    threshold) and the columns every row shares."""
    k = len(table.species)
    width = k + 1
    errs, totals, missing = _counts(table, sg, r)
    n = totals.astype(np.int64).ravel()
    e = errs.ravel()
    ok = n > 0  # a NaN threshold counts no presentations (errors 0, rate NaN)
    errors = np.where(ok, e, 0.0).astype(np.int64)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(ok, e / np.where(ok, n, 1), np.nan)
    cols = _head(table, r, width)
    cols.update(
        metric=(["apcer"] * k + ["bpcer"]) * r.index.size,
        pai=[*table.species, None] * r.index.size, n=n, errors=errors, rate=rate,
    )
    cols.update(intervals(n, errors, ok))
    return _frame(table, np.repeat(r.index, width), cols, columns)
