"""Many groups of one table through the segmented engine, with the per-group answers.

A documented internal module (docs/architecture.md, layer 1): the per-system functions
of :mod:`pandas_biosig.verification` read every group of a validated table through one
:class:`Engine`: the groups of up to :data:`SMALL_GROUP` trials through the segmented
kernels (:mod:`pandas_biosig._kernels.segments`: one sort for all, vectorised passes
over the groups), the larger ones through their own
:class:`~pandas_biosig._kernels.rates.Sweep` (a Python step per group costs nothing
beside their sort). Both give the same numbers to the bit, so where a group goes is a
matter of speed only. The operating points are read through
:mod:`pandas_biosig._core.criteria` (whose readers take one group's sweep or the
segments of many alike) and the thresholds resolved by :meth:`Protocol.resolve_columns
<pandas_biosig._core.protocol.Protocol.resolve_columns>`; :func:`frame` builds the
result frame from the group keys.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .._kernels import segment_stats
from .._kernels.segments import Segments
from .criteria import (
    best_hter_and_dcf,
    bounded_point,
    eer_point,
    min_dcf_point,
    operating_point,
)
from .frames import frame_from_keys, group_sweep, plain_column
from .protocol import Protocol, ResolvedColumns
from .schema import Group, Trials

__all__ = [
    "SMALL_GROUP",
    "Engine",
    "dcf_frame",
    "eer_frame",
    "error_rates_frame",
    "frame",
    "resolve",
    "summary_frame",
    "uses_engine",
]

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
        assert lay is not None  # uses_engine() asked for an in-memory layout
        self.trials, self.layout = trials, lay
        small = np.diff(lay.offsets) <= SMALL_GROUP
        self.small, self.big = np.flatnonzero(small), np.flatnonzero(~small)
        self.size = lay.size
        self.sg = _segments(lay, small) if self.small.size else None
        self._sweeps: dict[int, Any] = {}
        self._cache: dict = {}

    def group(self, i: int) -> Group:
        return self.layout.group(int(i), Group)

    def sweep(self, i: int | np.integer):
        i = int(i)
        if i not in self._sweeps:
            self._sweeps[i] = group_sweep(self.group(i))
        return self._sweeps[i]

    def sweeps_given(self, sweeps: list) -> None:
        """Take the large groups' sweeps from ``sweeps`` (every group's, in group order)
        instead of sorting them again."""
        self._sweeps.update((int(i), sweeps[i]) for i in self.big)

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

    def points(self, read: Callable, *args) -> tuple[np.ndarray, ...]:
        """``(threshold, fa, fr, n, p)`` of every group at the operating point
        ``read(sweep, *args)`` gives: a reader of :mod:`~pandas_biosig._core.criteria`,
        which takes one group's sweep or the segments of many alike."""
        def small(sg):
            return tuple(read(sg, *args))

        def big(sw, i):
            return tuple(read(sw, *args))

        return self.each(small, big, key=(read.__name__, *args))

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
            named: dict[str, float] | None = None) -> ResolvedColumns:
    """:meth:`Protocol.resolve <pandas_biosig._core.protocol.Protocol.resolve>` of every
    reported group, the criteria's thresholds read off all groups at once."""
    def choose_all(crit: str, weight: float, target: float) -> np.ndarray:
        return eng.points(_criterion_point, crit, weight, target)[0]

    return protocol.resolve_columns(trials, choose_all=choose_all, named=named)


def _criterion_point(sweep, crit: str, weight: float, target: float):
    """The operating point ``crit`` chooses
    (:func:`~pandas_biosig._core.criteria.operating_point`; never infeasible here: no
    score of the engine's groups failed to acquire)."""
    return operating_point(crit, sweep, weight=weight, target=target)


def rates_columns(eng: Engine, index: np.ndarray, t: np.ndarray, *, fta: bool) -> dict:
    """:func:`pandas_biosig._core.frames.rates_row` of the groups ``index`` at their
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
    :func:`pandas_biosig._core.frames.result_frame` builds it from rows."""
    body = {}
    for name in columns:
        if name in ("system", "split"):
            continue
        value = cols.get(name, np.nan)
        if isinstance(value, np.ndarray) and value.dtype.kind in "if":
            body[name] = value.astype(np.float64 if value.dtype.kind == "f" else np.int64)
        elif isinstance(value, np.ndarray) and value.dtype.kind == "b":
            body[name] = value
        elif isinstance(value, list):
            body[name] = plain_column(value)
        else:
            body[name] = plain_column([value] * len(index))
    names = [*trials.key_names, *body]
    lay = trials.layout
    if lay is not None and [*trials.by, *columns] == names and len(set(names)) == len(names):
        whole = index.size == lay.size and bool((index == np.arange(index.size)).all())
        data: dict[str, Any] = {
            name: list(col) if whole else [col[i] for i in index]
            for name, col in zip(trials.key_names, lay.key_columns, strict=True)}
        data.update(body)
        return pd.DataFrame(data)
    keys = trials.keys
    rows_keys = [keys[i] for i in index]
    records = [
        {name: (v[r] if isinstance(v, np.ndarray | list) else v) for name, v in body.items()}
        for r in range(len(index))
    ]
    return frame_from_keys(trials, rows_keys, _records(records), columns)


def _records(records: list[dict]) -> list[dict]:
    """Rows with numpy scalars turned into Python ones (as the per-group rows hold)."""
    return [{k: (v.item() if isinstance(v, np.generic) else v) for k, v in r.items()}
            for r in records]


# ------------------------------------------------------------------ the functions
def _sign(trials: Trials) -> float:
    return -1.0 if trials.orientation == "distance" else 1.0


def eer_frame(trials: Trials, method: str, columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.eer` of every group through the engine."""
    eng = Engine(trials)

    def small(sg):
        value: Any
        value, op = eer_point(sg)
        if method == "interpolated":
            value = sg.eer_interpolated()
        elif method == "rocch":
            value = segment_stats.rocch_eer(sg)
        return value, *op

    def big(sw, i):
        _, op = eer_point(sw)
        value = {"rocch": sw.eer_rocch, "interpolated": sw.eer_interpolated}.get(
            method, lambda: _)()
        return value, op.threshold, op.fa, op.fr, op.n, op.p

    value, t, fa, fr, n, p = eng.each(small, big)
    cols = dict(n_genuine=p, n_impostor=n, method=method, eer=value,
                threshold=_sign(trials) * t, far=fa / n, frr=fr / p)
    return frame(trials, np.arange(eng.size), cols, columns)


def summary_frame(trials: Trials, p_target: float, c_miss: float, c_fa: float,
                  columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.summary` of every group through the engine."""
    eng = Engine(trials)
    sign = _sign(trials)
    norm = min(c_miss * p_target, c_fa * (1 - p_target))

    def each(sw, i=None):
        eer_t, op = eer_point(sw)
        best, min_cost = best_hter_and_dcf(sw, p_target, c_miss, c_fa)
        return eer_t, op.threshold, op.n, op.p, (best.far + best.frr) / 2, min_cost

    eer_t, t, n, p, min_hter, min_cost = eng.each(each, each)
    eer_rocch, min_cllr = hull_stats(eng)
    auc, cllr, d_prime = score_stats(eng)
    if sign < 0:
        cllr = np.full(eng.size, np.nan)
    llr = llr_columns(eng, cllr=cllr, min_cllr=min_cllr, min_dcf=min_cost / norm,
                      p_target=p_target, c_miss=c_miss, c_fa=c_fa, similarity=sign > 0)
    fmr = [_frr(eng.points(bounded_point, "far", r)) for r in (0.01, 0.001, 0.0)]
    _, zfa, _, zn, _ = eng.points(bounded_point, "frr", 0.0)
    cols = dict(
        n_genuine=p, n_impostor=n, eer_rocch=eer_rocch, eer_threshold=eer_t,
        threshold=sign * t, auc=auc, min_hter=min_hter, fmr100=fmr[0], fmr1000=fmr[1],
        zero_fmr=fmr[2], zero_fnmr=zfa / zn, min_dcf=min_cost / norm, p_target=p_target,
        c_miss=c_miss, c_fa=c_fa, cllr=cllr, min_cllr=min_cllr, d_prime=d_prime, **llr,
    )
    return frame(trials, np.arange(eng.size), cols, columns)


def _frr(points) -> np.ndarray:
    t, fa, fr, n, p = points
    return fr / p


def error_rates_frame(trials: Trials, protocol: Protocol, columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.error_rates` of every reported group through the engine."""
    eng = Engine(trials)
    r = resolve(protocol, trials, eng)
    cols = dict(criterion=r.criterion, threshold_split=r.threshold_split,
                threshold_from=r.threshold_from, weight=r.weight, target=r.target,
                threshold=_sign(trials) * r.threshold, resample=None)
    cols.update(rates_columns(eng, r.index, r.threshold, fta=True))
    return frame(trials, r.index, cols, columns)


def dcf_frame(trials: Trials, costs, options: dict, columns: list[str]) -> pd.DataFrame:
    """:func:`pandas_biosig.dcf` of every reported group through the engine: the rows of
    each operating point, then grouped by group (stable)."""
    eng = Engine(trials)
    sign = _sign(trials)
    parts = []
    for a, b, c in costs:
        norm = min(b * a, c * (1 - a))
        protocol = Protocol(p_target=a, c_miss=b, c_fa=c, **options)
        bayes = {"bayes": float(np.log(c * (1 - a) / (b * a)))}
        r = resolve(protocol, trials, eng, named=bayes)
        index, t = r.index, r.threshold
        rates = rates_columns(eng, index, t, fta=False)
        min_cost, op_t = _min_dcf(eng, a, b, c)
        act = (b * a * rates["frr"] + c * (1 - a) * rates["far"]) / norm
        parts.append((index, dict(
            p_target=np.full(index.size, a), c_miss=np.full(index.size, b),
            c_fa=np.full(index.size, c), criterion=[r.criterion] * index.size,
            threshold_from=r.threshold_from, threshold=sign * t, far=rates["far"],
            frr=rates["frr"], act_dcf=act, min_dcf=min_cost[index] / norm,
            min_dcf_threshold=sign * op_t[index], dcf_loss=act - min_cost[index] / norm,
            not_llr=not_llr(eng, similarity=sign > 0)[index])))
    index = np.concatenate([i for i, _ in parts])
    pos = np.argsort(index, kind="stable")
    cols: dict[str, Any] = {}
    for name in parts[0][1]:
        values = [col[name] for _, col in parts]
        if isinstance(values[0], list):
            joined = [v for part in values for v in part]
            cols[name] = [joined[k] for k in pos]
        else:
            cols[name] = np.concatenate(values)[pos]
    cols["resample"] = None
    return frame(trials, index[pos], cols, columns)


def not_llr(eng: Engine, *, similarity: bool) -> np.ndarray:
    """Whether each group's scores cannot be calibrated LLRs (distances never are):
    :func:`~pandas_biosig._kernels.calibration.llr_check` of every group at once."""
    if not similarity:
        return np.ones(eng.size, dtype=bool)

    from .._kernels.calibration import llr_check  # scipy.special, for this flag only

    def big(sw, i):
        return (llr_check(sw).not_llr,)

    return eng.each(lambda sg: (segment_stats.not_llr(sg),), big, key="not_llr")[0]


def llr_columns(eng: Engine, *, cllr: np.ndarray, min_cllr: np.ndarray, min_dcf: np.ndarray,
                p_target: float, c_miss: float, c_fa: float, similarity: bool) -> dict:
    """The calibration-loss columns of every group's summary row (``act_dcf`` at the
    Bayes threshold, ``dcf_loss``, ``cllr_loss``, ``not_llr``), as the per-group rows
    hold them."""
    if similarity:
        t = float(np.log(c_fa * (1 - p_target) / (c_miss * p_target)))
        fa, fr, n, p = eng.rates_at(np.arange(eng.size), np.full(eng.size, t))
        norm = min(c_miss * p_target, c_fa * (1 - p_target))
        act = (c_miss * p_target * (fr / p) + c_fa * (1 - p_target) * (fa / n)) / norm
    else:
        act = np.full(eng.size, np.nan)
    return dict(act_dcf=act, dcf_loss=act - min_dcf, cllr_loss=cllr - min_cllr,
                not_llr=not_llr(eng, similarity=similarity))


def _min_dcf(eng: Engine, a: float, b: float, c: float) -> tuple[np.ndarray, ...]:
    """Unnormalized minimum DCF of every group and the threshold reaching it."""
    def each(sw, i=None):
        cost, op = min_dcf_point(sw, a, b, c)
        return cost, op.threshold

    return eng.each(each, each, key=("min_dcf", a, b, c))
