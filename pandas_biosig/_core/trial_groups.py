"""The groups of a validated trial table laid out one after another, found and checked
in vectorised passes.

A documented internal module (docs/architecture.md, layer 1): :func:`pandas_biosig._core.schema.validate_trials`
builds a :class:`Layout` (every group's rows in group order, their offsets, keys, failures
to acquire and counts) with no Python loop over the groups, and hands out the
:class:`~pandas_biosig._core.schema.Group` objects lazily (:class:`LazyGroups`): the functions
that read many groups at once (:mod:`pandas_biosig._core.segmented`) never build them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from .._kernels.segments import sort_segments

__all__ = ["LazyGroups", "Layout", "duplicated_groups", "integer_codes", "layout_groups"]

#: Key codes below this many times the rows are numbered by counting, not by hashing.
_DENSE_FACTOR = 4
#: Groups up to this many rows look for repeated (numeric) trial ids by sorting.
_SORTED_CHECK = 1 << 14


@dataclass(frozen=True, eq=False)
class Layout:
    """The finite trials of every group, group after group (key-code order).

    ``order`` lists the table's row positions in group order (None when one group holds
    every row in table order); the trials of group ``i`` are
    ``offsets[i]:offsets[i + 1]`` of ``scores`` (oriented), ``genuine``, ``trial`` and
    ``counts`` (None without a count column). ``fta`` holds the (impostor, genuine)
    failures to acquire of each group (weighted by the counts), ``key_columns`` the values
    of each key column (by columns, system, split) for every group.
    """

    order: np.ndarray | None
    offsets: np.ndarray
    scores: np.ndarray
    genuine: np.ndarray
    trial: np.ndarray
    counts: np.ndarray | None
    fta: np.ndarray
    key_columns: list
    subject: np.ndarray | None = None  # the table's column, in table order
    reference: np.ndarray | None = None  # the reference subject column, in table order

    @property
    def size(self) -> int:
        return self.offsets.size - 1

    @cached_property
    def keys(self) -> list[tuple]:
        """The key tuple of each group."""
        return list(zip(*self.key_columns, strict=True))

    def class_weights(self) -> tuple[np.ndarray, np.ndarray]:
        """The (genuine, impostor) trials of each group, counts included."""
        lo, hi = self.offsets[:-1], self.offsets[1:]
        if self.counts is None and self.size == 1:  # one group: a count, no cumulative sum
            gen = np.array([np.count_nonzero(self.genuine)])
            return gen, (hi - lo) - gen
        if self.counts is None:
            cg = np.concatenate(([0], np.cumsum(self.genuine, dtype=np.int64)))
            gen = cg[hi] - cg[lo]
            return gen, (hi - lo) - gen
        cg = np.concatenate(([0], np.cumsum(np.where(self.genuine, self.counts, 0))))
        cw = np.concatenate(([0], np.cumsum(self.counts)))
        gen = cg[hi] - cg[lo]
        return gen, (cw[hi] - cw[lo]) - gen

    def group(self, i: int, make: Callable, subject: np.ndarray | None = None,
              reference: np.ndarray | None = None):
        """Group ``i`` built by ``make`` (the :class:`~pandas_biosig._core.schema.Group`
        constructor); ``subject``, ``reference``: the subject and reference subject ids in
        group order (:meth:`ordered`)."""
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        key = self.keys[i] if "keys" in self.__dict__ else tuple(c[i] for c in self.key_columns)
        fta = (int(self.fta[i, 0]), int(self.fta[i, 1]))
        count = None if self.counts is None else self.counts[a:b]
        if self.order is None:
            return make(key, self.scores, self.genuine, self.trial, None,
                        self.subject, fta, reference=self.reference, count=count)
        sub = None if subject is None else subject[a:b]
        ref = None if reference is None else reference[a:b]
        return make(key, self.scores[a:b], self.genuine[a:b], self.trial[a:b],
                    self.order[a:b], sub, fta, reference=ref, count=count)

    def ordered(self, column: np.ndarray | None) -> np.ndarray | None:
        """A column of the table (the subject ids) in group order."""
        if column is None or self.order is None:
            return column
        return column[self.order]


class LazyGroups(Sequence):
    """The groups of a :class:`Layout`, built on first use and then kept (one object per
    group, so that identities stay valid); ``len`` builds nothing."""

    def __init__(self, layout: Layout, make: Callable):
        self._layout, self._make = layout, make
        self._groups: list | None = None

    def _all(self) -> list:
        if self._groups is None:
            lay = self._layout
            subject, reference = lay.ordered(lay.subject), lay.ordered(lay.reference)
            self._groups = [lay.group(i, self._make, subject, reference)
                            for i in range(lay.size)]
        return self._groups

    def __len__(self) -> int:
        return self._layout.size

    def __getitem__(self, i):
        return self._all()[i]

    def __iter__(self):
        return iter(self._all())

    def __repr__(self) -> str:
        return f"LazyGroups({self._layout.size} groups)"


def layout_groups(combined: np.ndarray | None, codes_list, uniques_list, *, n: int, keep,
                  genuine, nonfinite: str, scores, trial, counts, subject, split: bool,
                  reference=None) -> Layout:
    """The :class:`Layout` of a table whose rows carry the key code ``combined`` (None:
    one group, every row); ``keep`` masks the finite scores (None: all are)."""
    if combined is None:
        keys = _keys(codes_list, uniques_list, np.zeros(1, dtype=np.int64), split)
        return Layout(None, np.array([0, n], dtype=np.int64), scores, genuine, trial, counts,
                      np.zeros((1, 2), dtype=np.int64), keys, subject, reference)
    uniq, dense = _dense(combined, keep)
    size = uniq.size
    grouped = _grouped(dense)
    order = np.arange(dense.size) if grouped else _stable_order(dense, size)
    sizes = np.bincount(dense, minlength=size + 1)[:size]
    offsets = np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
    order = order[: offsets[-1]]
    fta = np.zeros((size, 2), dtype=np.int64)
    if keep is not None and nonfinite == "reject":
        bad = np.flatnonzero(~keep)
        where = np.searchsorted(uniq, combined[bad])
        hit = (where < size) & (uniq[np.minimum(where, size - 1)] == combined[bad])
        w = np.ones(bad.size) if counts is None else counts[bad].astype(np.float64)
        for col, cls in ((0, False), (1, True)):
            mine = hit & (genuine[bad] == cls)
            fta[:, col] = np.bincount(where[mine], weights=w[mine], minlength=size)[:size]
    keys = _keys(codes_list, uniques_list, order[offsets[:-1]], split)
    if grouped and order.size == n:  # rows already group after group: no copies
        return Layout(order, offsets, scores, genuine, trial, counts, fta, keys, subject,
                      reference)
    return Layout(order, offsets, scores[order], genuine[order], trial[order],
                  None if counts is None else counts[order], fta, keys, subject, reference)


def _dense(combined: np.ndarray, keep) -> tuple[np.ndarray, np.ndarray]:
    """The key codes present (ascending) and each row's index among them (the number
    of groups for a row that ``keep`` leaves out)."""
    present = combined if keep is None else combined[keep]
    if present.size == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(combined.size, dtype=np.int64)
    top = int(present.max()) + 1
    if top <= _DENSE_FACTOR * combined.size + 1024:  # count instead of hashing
        used = np.bincount(present, minlength=top) > 0
        uniq = np.flatnonzero(used)
        if keep is None and uniq.size == top:  # every code used: already dense
            return uniq, combined
        rank = np.cumsum(used) - 1
        dense = rank[np.minimum(combined, top - 1)]
    else:
        uniq = np.unique(present)
        dense = np.searchsorted(uniq, combined)
    if keep is not None:
        dense = np.where(keep, dense, uniq.size)
    return uniq, dense.astype(np.int64)


def _grouped(dense: np.ndarray) -> bool:
    """Whether the rows come group after group already (codes never decrease)."""
    return bool(np.all(dense[1:] >= dense[:-1]))


def _stable_order(dense: np.ndarray, size: int) -> np.ndarray:
    """``np.argsort(dense, kind="stable")`` by radix sorts of 16-bit digits (numpy sorts
    16-bit keys by counting; wider keys by merging)."""
    if size < 1 << 15:
        return np.argsort(dense.astype(np.int16), kind="stable")
    order = np.argsort((dense & 0xFFFF).astype(np.uint16), kind="stable")
    high = (dense >> 16)[order]
    if int(high.max(initial=0)) == 0:
        return order
    return order[np.argsort(high.astype(np.uint16), kind="stable")]


def _keys(codes_list, uniques_list, first: np.ndarray, split: bool) -> list:
    """The values of each key column for every group: the column's value at the group's
    first row (None for the split of a table without one)."""
    columns = []
    for u, c in zip(uniques_list, codes_list, strict=True):
        u = pd.Index(u)
        listed = u.tolist()  # Python scalars, but for numpy scalars in an object column
        if u.dtype == object:
            listed = [_scalar(v) for v in listed]
        values = np.fromiter(listed, dtype=object, count=len(listed))
        columns.append(values[np.asarray(c)[first]].tolist())
    if not split:
        columns.append([None] * first.size)
    return columns


def _scalar(value: Any) -> Any:
    return value.item() if isinstance(value, np.generic) else value


def _rising(values: np.ndarray, starts: np.ndarray, block: int = 1 << 16) -> bool:
    """Whether ``values`` strictly increase within every group (they may fall only where
    a group starts), block by block: a small mask, and an early exit."""
    for lo in range(0, values.size - 1, block):
        hi = min(lo + block, values.size - 1)
        up = np.greater(values[lo + 1 : hi + 1], values[lo:hi])
        if not up.all():
            falls = np.flatnonzero(~up) + (lo + 1)
            if not np.isin(falls, starts).all():
                return False
    return True


def duplicated_groups(layout: Layout) -> np.ndarray:
    """Whether each group repeats a trial id (as ``pd.Index(ids).has_duplicates``):
    numbers rising within every group have none; other numbers are sorted within each
    group (:func:`~pandas_biosig._kernels.segments.sort_segments`) and compared with
    their neighbours; anything else is hashed."""
    trial, off = layout.trial, layout.offsets
    bad = np.zeros(layout.size, dtype=bool)
    if trial.size < 2:
        return bad
    starts = off[:-1][off[:-1] < trial.size]
    if trial.dtype.kind in "iuf":
        if _rising(trial, starts):
            return bad
        same = np.empty(trial.size, dtype=bool)
        same[0] = False
        if int(np.diff(off).max()) > _SORTED_CHECK:  # large groups: hashing is cheaper
            return _hashed_duplicates(layout, bad)
        ordered = sort_segments(trial, off, values=True)
        np.equal(ordered[1:], ordered[:-1], out=same[1:])
        same[starts] = False
        seg = np.searchsorted(off, np.flatnonzero(same), side="right") - 1
        bad[seg] = True
        return bad
    return _hashed_duplicates(layout, bad)


def _hashed_duplicates(layout: Layout, bad: np.ndarray) -> np.ndarray:
    """:func:`duplicated_groups` by hashing: one group's ids as they are, many groups'
    as (group, id code) pairs."""
    trial, off = layout.trial, layout.offsets
    if layout.size == 1:
        bad[0] = pd.Index(trial).has_duplicates
        return bad
    codes, _ = pd.factorize(trial, use_na_sentinel=False)
    seg = np.repeat(np.arange(layout.size), np.diff(off))
    dup = pd.Index(seg * (int(codes.max(initial=0)) + 1) + codes).duplicated()
    bad[np.unique(seg[dup])] = True
    return bad


def integer_codes(series: pd.Series, min_size: int = 1 << 12) -> tuple[np.ndarray, Any] | None:
    """``pd.factorize`` of a numpy integer column whose values span a small range (at
    most four times its length), by counting instead of hashing: each value's first
    row, then the values in the order of those rows. None for any other column."""
    dtype = series.dtype
    if not (isinstance(dtype, np.dtype) and dtype.kind in "iu") or len(series) < min_size:
        return None
    values = series.to_numpy()
    low, high = int(values.min()), int(values.max())
    if high - low >= 4 * values.size or high >= 2**63:
        return None
    shifted = values.astype(np.intp) - low
    first = np.full(high - low + 1, values.size, dtype=np.intp)
    np.minimum.at(first, shifted, np.arange(values.size))
    present = np.flatnonzero(first < values.size)
    present = present[np.argsort(first[present], kind="stable")]
    code = np.empty(high - low + 1, dtype=np.intp)
    code[present] = np.arange(present.size)
    uniques = pd.Index(np.asarray(present + low).astype(dtype, copy=False))
    return code[shifted], uniques
