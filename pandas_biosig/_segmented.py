"""Many groups of one table through the segmented engine, with the per-group answers.

A documented internal module (docs/architecture.md, layer 1): the per-system functions
of :mod:`pandas_biosig.metrics` read every group of a validated table through one
:class:`Engine`: the groups of up to :data:`SMALL_GROUP` trials through the segmented
kernels (:mod:`pandas_biosig._kernels.segments`: one sort for all, vectorised passes
over the groups), the larger ones through their own
:class:`~pandas_biosig._kernels.rates.Sweep` (a Python step per group costs nothing
beside their sort). Both give the same numbers to the bit, so where a group goes is a
matter of speed only. :func:`resolve` is :meth:`Protocol.resolve
<pandas_biosig.protocol.Protocol.resolve>` on group positions, its thresholds chosen by
the engine; :func:`frame` builds the result frame from the group keys.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

import numpy as np
import pandas as pd

from ._frames import _column, _frame_keys, _sweep
from ._kernels import segment_stats
from ._kernels.segments import Segments, interpolated_eer, threshold_eer
from ._schema import Group, SchemaError, Trials, check_option
from ._validation import check_rate
from .protocol import (
    CRITERIA,
    ERROR_ON_FIXED,
    ERROR_ON_MISSING,
    ERROR_TARGET,
    ERROR_THRESHOLD,
    ERROR_THRESHOLD_MISSING,
    FIXED,
    SAME_TRIALS,
    Protocol,
    criterion_weight,
    fixed_threshold,
    is_real,
)

__all__ = ["Engine", "SMALL_GROUP", "frame", "resolve", "uses_engine"]

#: Groups of at most this many rows go through the segmented engine.
SMALL_GROUP = 1 << 14


def uses_engine(trials: Trials) -> bool:
    """Whether a table is read through the :class:`Engine`: an in-memory table of more
    than one group, one of them small. A single group, or only large ones, keep the
    per-group path (the EER of one large group is found by selection, without a sort)."""
    lay = trials.layout
    if lay is None or lay.size < 2:
        return False
    return bool((np.diff(lay.offsets) <= SMALL_GROUP).any())


class Engine:
    """Every group of a table: the small ones in one :class:`Segments`, the large ones
    each in its own sweep (built on first use)."""

    def __init__(self, trials: Trials):
        lay = trials.layout
        self.trials, self.layout = trials, lay
        small = np.diff(lay.offsets) <= SMALL_GROUP
        self.small, self.big = np.flatnonzero(small), np.flatnonzero(~small)
        self.size = lay.size
        self.sg = _segments(lay, small) if self.small.size else None
        self._sweeps: dict[int, object] = {}
        self._cache: dict = {}

    def group(self, i: int) -> Group:
        return self.layout.group(int(i), Group)

    def sweep(self, i: int):
        i = int(i)
        if i not in self._sweeps:
            self._sweeps[i] = _sweep(self.group(i))
        return self._sweeps[i]

    def each(self, small: Callable, big: Callable, key=None) -> tuple[np.ndarray, ...]:
        """Per-group arrays: ``small(segments)`` gives a tuple of arrays over the small
        groups, ``big(sweep, i)`` a tuple of scalars for one large group ``i``; cached
        under ``key``."""
        if key is not None and key in self._cache:
            return self._cache[key]
        parts = small(self.sg) if self.sg is not None else None
        rows = [big(self.sweep(i), i) for i in self.big]
        width = len(parts) if parts is not None else len(rows[0])
        out = []
        for j in range(width):
            if parts is not None:
                col = np.empty(self.size, dtype=np.asarray(parts[j]).dtype)
                col[self.small] = parts[j]
            else:
                col = np.empty(self.size, dtype=np.asarray(rows[0][j]).dtype)
            for r, i in zip(rows, self.big, strict=True):
                col[i] = r[j]
            out.append(col)
        result = tuple(out)
        if key is not None:
            self._cache[key] = result
        return result

    def points(self, name: str, *args) -> tuple[np.ndarray, ...]:
        """``(threshold, fa, fr, n, p)`` of every group at the operating point that the
        Sweep method ``name`` (or its segmented namesake) chooses."""
        def big(sw, i):
            op = getattr(sw, name)(*args)
            if name == "eer_threshold":
                op = op[1]
            return op.threshold, op.fa, op.fr, op.n, op.p

        def small(sg):
            op = getattr(sg, name)(*args)
            return tuple(op[1] if name == "eer_threshold" else op)

        return self.each(small, big, key=(name, *args))

    def rates_at(self, index: np.ndarray, thresholds: np.ndarray) -> tuple[np.ndarray, ...]:
        """Counts ``(fa, fr, n, p)`` of the groups ``index`` at their ``thresholds``."""
        index = np.asarray(index, dtype=np.int64)
        t = np.asarray(thresholds, dtype=np.float64)
        fa = np.zeros(index.size, dtype=np.int64)
        fr = np.zeros(index.size, dtype=np.int64)
        n = np.zeros(index.size, dtype=np.int64)
        p = np.zeros(index.size, dtype=np.int64)
        if self.sg is not None:
            where = np.full(self.size, -1)
            where[self.small] = np.arange(self.small.size)
            mine = where[index] >= 0
            full = np.zeros(self.small.size)
            full[where[index[mine]]] = t[mine]
            sfa, sfr = self.sg.rates_at(full)
            k = where[index[mine]]
            fa[mine], fr[mine], n[mine], p[mine] = sfa[k], sfr[k], self.sg.n[k], self.sg.p[k]
        for j in np.flatnonzero(~np.isin(index, self.small)):
            sw = self.sweep(index[j])
            a, b = sw.rates_at_threshold(t[j])
            fa[j], fr[j], n[j], p[j] = int(a), int(b), sw.n, sw.p
        return fa, fr, n, p


def _segments(lay, small: np.ndarray) -> Segments:
    """The :class:`Segments` of the small groups (all of them without a gather)."""
    if small.all():
        return Segments(lay.scores, lay.genuine, lay.offsets, lay.counts)
    rows = np.repeat(small, np.diff(lay.offsets))
    sizes = np.diff(lay.offsets)[small]
    offsets = np.concatenate(([0], np.cumsum(sizes)))
    counts = None if lay.counts is None else lay.counts[rows]
    return Segments(lay.scores[rows], lay.genuine[rows], offsets, counts)


# ------------------------------------------------------------------ summaries
def hull_stats(eng: Engine) -> tuple[np.ndarray, ...]:
    """``(eer_rocch, min_cllr)`` of every group."""
    def small(sg):
        blocks = segment_stats.hull(sg)
        return segment_stats.rocch_eer(sg, blocks), segment_stats.min_cllr(sg, blocks)

    def big(sw, i):
        min_cllr = sw.min_cllr()  # pools the hull once: eer_rocch reads the same blocks
        return sw.eer_rocch(), min_cllr

    return eng.each(small, big, key="hull")


def score_stats(eng: Engine) -> tuple[np.ndarray, ...]:
    """``(auc, cllr, d_prime)`` of every group."""
    def small(sg):
        return segment_stats.auc(sg), segment_stats.cllr(sg), segment_stats.d_prime(sg)

    def big(sw, i):
        return sw.auc(), sw.cllr(), sw.d_prime()

    return eng.each(small, big)


# ------------------------------------------------------------------ thresholds
def resolve(protocol: Protocol, trials: Trials, eng: Engine,
            named: Mapping[str, float] | None = None) -> dict:
    """:meth:`Protocol.resolve` of every reported group, as columns: ``index`` (group
    positions), ``criterion``, ``threshold`` (oriented), ``threshold_from``,
    ``threshold_split``, ``weight``, ``target``; the same errors in the same order.
    ``named`` maps extra threshold names to their (oriented) value."""
    named = dict(named or {})
    on, apply_to = protocol.splits(trials, needs_threshold=True, named=named)
    index = np.asarray(protocol.reported_indices(trials, apply_to), dtype=np.int64)
    keys = trials.keys
    threshold = protocol.threshold
    nan = float("nan")
    out = dict(index=index, weight=nan, target=nan)
    if isinstance(threshold, str) and threshold not in named:
        check_option(threshold, CRITERIA, "threshold")
        crit = threshold
        w = criterion_weight(crit, protocol.weight, protocol.p_target, protocol.c_miss,
                             protocol.c_fa)
        tgt = nan
        if crit in ("far", "frr"):
            if protocol.target is None:
                raise ValueError(ERROR_TARGET.format(criterion=crit, target=protocol.target))
            tgt = check_rate(protocol.target, "target")
        chosen = _chosen(eng, crit, w, tgt)
        if on is None:
            source = index
            frm = [SAME_TRIALS] * index.size
            tsplit = [keys[i][-1] for i in index]
        else:
            source = _sources(trials, index, on)
            frm = [SAME_TRIALS if s == i else on for s, i in zip(source, index, strict=True)]
            tsplit = [on] * index.size
        return dict(out, criterion=crit, threshold=chosen[source], threshold_from=frm,
                    threshold_split=tsplit, weight=w, target=tgt)
    if on is not None:
        raise ValueError(ERROR_ON_FIXED.format(on=on, value=threshold))
    sign = -1.0 if trials.orientation == "distance" else 1.0
    if isinstance(threshold, str):
        values = np.full(index.size, float(named[threshold]))
    elif isinstance(threshold, Mapping | pd.Series):
        values = _per_system(dict(threshold), [keys[i] for i in index], sign)
    elif is_real(threshold) and not np.isnan(threshold):
        values = np.full(index.size, sign * float(threshold))
    else:
        raise ValueError(ERROR_THRESHOLD.format(value=threshold, allowed=[*CRITERIA, *named]))
    crit = threshold if isinstance(threshold, str) else FIXED
    return dict(out, criterion=crit, threshold=values, threshold_from=[FIXED] * index.size,
                threshold_split=[None] * index.size)


def _chosen(eng: Engine, crit: str, w: float, tgt: float) -> np.ndarray:
    """The threshold each group's own trials give under a criterion (every group;
    :func:`pandas_biosig.protocol.choose`)."""
    if crit == "eer":
        return eng.points("eer_threshold")[0]
    if crit in ("min_hter", "min_weighted", "min_dcf"):
        return eng.points("min_weighted", w)[0]
    if crit == "far":
        return eng.points("fnmr_at_fmr", tgt)[0]
    return eng.points("fmr_at_fnmr", tgt)[0]  # never infeasible: no score failed here


def _sources(trials: Trials, index: np.ndarray, on: Hashable) -> np.ndarray:
    """The group of split ``on`` with the same ``by`` values and system as each
    reported group (:data:`ERROR_ON_MISSING` for the first without one)."""
    keys = trials.keys
    source = {keys[i][:-1]: i for i in trials.split_indices(on, name="on")}
    out = np.empty(index.size, dtype=np.int64)
    for j, i in enumerate(index):
        src = source.get(keys[i][:-1])
        if src is None:
            where = "".join(f", {b}={v!r}" for b, v in zip(trials.by, keys[i], strict=False))
            raise SchemaError(ERROR_ON_MISSING.format(system=keys[i][-2], on=on, where=where))
        out[j] = src
    return out


def _per_system(given: dict, keys: Sequence[tuple], sign: float) -> np.ndarray:
    values = np.empty(len(keys))
    for j, key in enumerate(keys):
        if key[-2] not in given:
            raise SchemaError(ERROR_THRESHOLD_MISSING.format(system=key[-2], given=list(given)))
        values[j] = sign * fixed_threshold(given[key[-2]])
    return values


def rates_columns(eng: Engine, index: np.ndarray, t: np.ndarray, *, fta: bool) -> dict:
    """:func:`pandas_biosig._frames._rates_row` of the groups ``index`` at their
    thresholds ``t`` (oriented), as columns; ``fta``: pool the failures to acquire."""
    fa, fr, n, p = eng.rates_at(index, t)
    f = eng.layout.fta[index] if fta else np.zeros((index.size, 2), dtype=np.int64)
    n_fta = f[:, 0] + f[:, 1]
    rate = n_fta / (n + p + n_fta)
    n_imp, n_gen = n + f[:, 0], p + f[:, 1]
    fmr, fnmr = fa / n, fr / p
    pooled = n_fta > 0
    far = np.where(pooled, fmr * (1 - rate), fmr)
    frr = np.where(pooled, rate + fnmr * (1 - rate), fnmr)
    error_rate = np.where(pooled, (far * n_imp + frr * n_gen) / (n_imp + n_gen),
                          (fa + fr) / (n + p))
    cols = dict(n_genuine=n_gen, n_impostor=n_imp, fta=rate, fa=fa, fr=fr, far=far, frr=frr,
                hter=(far + frr) / 2, error_rate=error_rate, fmr=fmr, fnmr=fnmr)
    missing = np.isnan(t)
    if missing.any():
        for name in ("fa", "fr", "far", "frr", "hter", "error_rate", "fmr", "fnmr"):
            cols[name] = np.where(missing, np.nan, cols[name])
    return cols


# ------------------------------------------------------------------ the frame
def frame(trials: Trials, index: np.ndarray, cols: dict, columns: list[str]) -> pd.DataFrame:
    """The result frame of the groups ``index`` (positions, repeats allowed) with the
    value columns ``cols`` (arrays over ``index``, or one value for all), as
    :func:`pandas_biosig._frames._frame` builds it from rows."""
    body = {}
    for name in columns:
        if name in ("system", "split"):
            continue
        value = cols.get(name, np.nan)
        if isinstance(value, np.ndarray) and value.dtype.kind in "if":
            body[name] = value.astype(np.float64 if value.dtype.kind == "f" else np.int64)
        elif isinstance(value, list):
            body[name] = _column(value)
        else:
            body[name] = _column([value] * len(index))
    names = [*trials.key_names, *body]
    if [*trials.by, *columns] == names and len(set(names)) == len(names):
        whole = index.size == trials.layout.size and bool((index == np.arange(index.size)).all())
        data = {name: list(col) if whole else [col[i] for i in index]
                for name, col in zip(trials.key_names, trials.layout.key_columns, strict=True)}
        data.update(body)
        return pd.DataFrame(data)
    keys = trials.keys
    rows_keys = [keys[i] for i in index]
    records = [
        {name: (v[r] if isinstance(v, np.ndarray | list) else v) for name, v in body.items()}
        for r in range(len(index))
    ]
    return _frame_keys(trials, rows_keys, _records(records), columns)


def _records(records: list[dict]) -> list[dict]:
    """Rows with numpy scalars turned into Python ones (as the per-group rows hold)."""
    return [{k: (v.item() if isinstance(v, np.generic) else v) for k, v in r.items()}
            for r in records]


# ------------------------------------------------------------------ the functions
def eer_frame(trials: Trials, method: str, columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.eer` of every group through the engine."""
    eng = Engine(trials)
    sign = -1.0 if trials.orientation == "distance" else 1.0

    def small(sg):
        prev, has_prev, star = sg.eer_points()
        value, op = threshold_eer(prev, has_prev, star)
        if method == "interpolated":
            value = interpolated_eer(prev, has_prev, star)
        elif method == "rocch":
            value = segment_stats.rocch_eer(sg)
        return value, *op

    def big(sw, i):
        _, op = sw.eer_threshold()
        value = {"rocch": sw.eer_rocch, "interpolated": sw.eer_interpolated}.get(
            method, lambda: _)()
        return value, op.threshold, op.fa, op.fr, op.n, op.p

    value, t, fa, fr, n, p = eng.each(small, big)
    cols = dict(n_genuine=p, n_impostor=n, method=method, eer=value, threshold=sign * t,
                far=fa / n, frr=fr / p)
    return frame(trials, np.arange(eng.size), cols, columns)


def summary_frame(trials: Trials, p_target: float, c_miss: float, c_fa: float,
                  columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.summary` of every group through the engine."""
    eng = Engine(trials)
    sign = -1.0 if trials.orientation == "distance" else 1.0
    norm = min(c_miss * p_target, c_fa * (1 - p_target))

    def small(sg):
        eer_t, op = sg.eer_threshold()
        best, min_cost = sg.min_hter_and_dcf(p_target, c_miss, c_fa)
        return eer_t, op.threshold, op.n, op.p, (best.far + best.frr) / 2, min_cost

    def big(sw, i):
        eer_t, op = sw.eer_threshold()
        best, min_cost = sw.min_hter_and_dcf(p_target, c_miss, c_fa)
        return eer_t, op.threshold, op.n, op.p, (best.far + best.frr) / 2, min_cost

    eer_t, t, n, p, min_hter, min_cost = eng.each(small, big)
    eer_rocch, min_cllr = hull_stats(eng)
    auc, cllr, d_prime = score_stats(eng)
    fmr = [_frr(eng.points("fnmr_at_fmr", r)) for r in (0.01, 0.001, 0.0)]
    _, zfa, _, zn, _ = eng.points("fmr_at_fnmr", 0.0)
    cols = dict(
        n_genuine=p, n_impostor=n, eer_rocch=eer_rocch, eer_threshold=eer_t,
        threshold=sign * t, auc=auc, min_hter=min_hter, fmr100=fmr[0], fmr1000=fmr[1],
        zero_fmr=fmr[2], zero_fnmr=zfa / zn, min_dcf=min_cost / norm, p_target=p_target,
        c_miss=c_miss, c_fa=c_fa, cllr=cllr if sign > 0 else np.full(eng.size, np.nan),
        min_cllr=min_cllr, d_prime=d_prime,
    )
    return frame(trials, np.arange(eng.size), cols, columns)


def _frr(points) -> np.ndarray:
    t, fa, fr, n, p = points
    return fr / p


def error_rates_frame(trials: Trials, protocol: Protocol, columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.error_rates` of every reported group through the engine."""
    eng = Engine(trials)
    sign = -1.0 if trials.orientation == "distance" else 1.0
    r = resolve(protocol, trials, eng)
    t = r["threshold"]
    cols = dict(criterion=r["criterion"], threshold_split=r["threshold_split"],
                threshold_from=r["threshold_from"], weight=r["weight"], target=r["target"],
                threshold=sign * t, resample=None)
    cols.update(rates_columns(eng, r["index"], t, fta=True))
    return frame(trials, r["index"], cols, columns)


def dcf_frame(trials: Trials, costs, options: dict, columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.dcf` of every reported group through the engine: the rows of
    each operating point, then grouped by group (stable)."""
    eng = Engine(trials)
    sign = -1.0 if trials.orientation == "distance" else 1.0
    parts = []
    for a, b, c in costs:
        norm = min(b * a, c * (1 - a))
        protocol = Protocol(p_target=a, c_miss=b, c_fa=c, **options)
        bayes = {"bayes": float(np.log(c * (1 - a) / (b * a)))}
        r = resolve(protocol, trials, eng, named=bayes)
        index, t = r["index"], r["threshold"]
        rates = rates_columns(eng, index, t, fta=False)
        min_cost, op_t = _min_dcf(eng, a, b, c)
        parts.append((index, dict(
            p_target=np.full(index.size, a), c_miss=np.full(index.size, b),
            c_fa=np.full(index.size, c), criterion=[r["criterion"]] * index.size,
            threshold=sign * t, far=rates["far"], frr=rates["frr"],
            act_dcf=(b * a * rates["frr"] + c * (1 - a) * rates["far"]) / norm,
            min_dcf=min_cost[index] / norm, min_dcf_threshold=sign * op_t[index])))
    index = np.concatenate([i for i, _ in parts])
    pos = np.argsort(index, kind="stable")
    cols = {}
    for name in parts[0][1]:
        values = [col[name] for _, col in parts]
        if isinstance(values[0], list):
            joined = [v for part in values for v in part]
            cols[name] = [joined[k] for k in pos]
        else:
            cols[name] = np.concatenate(values)[pos]
    return frame(trials, index[pos], cols, columns)


def _min_dcf(eng: Engine, a: float, b: float, c: float) -> tuple[np.ndarray, np.ndarray]:
    """Unnormalized minimum DCF of every group and the threshold reaching it."""
    def small(sg):
        cost, op = sg.min_dcf(a, b, c)
        return cost, op.threshold

    def big(sw, i):
        cost, op = sw.min_dcf(a, b, c)
        return cost, op.threshold

    return eng.each(small, big, key=("min_dcf", a, b, c))
