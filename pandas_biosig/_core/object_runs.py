"""Where neighbouring values of a numpy object array differ, comparing identities first.

A key column of Python objects (a system name repeated on every row) is usually one
object repeated: ``["sys"] * n``, a categorical turned to object, a CSV parser that
boxes each distinct string once. Neighbours holding the same object are equal, so a
pass over the object *pointers* (a uint64 view of the array's buffer, no copy) finds the
only places where values may differ, and only those are compared as Python objects
(a rich comparison per row costs ten times a pointer comparison or more).

A block where most identities differ (distinct but equal objects) is compared as values
throughout: the pointer pass then costs a fraction of the comparison it could not avoid.
"""

from __future__ import annotations

import numpy as np

__all__ = ["neighbour_changes"]

_BLOCK = 1 << 16


class _Pointers:
    """The buffer of an object array read as unsigned integers (its array interface)."""

    def __init__(self, values: np.ndarray):
        self._values = values  # the view's base keeps the objects' array alive
        self.__array_interface__ = {
            "data": (values.ctypes.data, True),
            "shape": values.shape,
            "strides": values.strides,
            "typestr": np.dtype(np.uintp).str,
            "version": 3,
        }


def pointers(values: np.ndarray) -> np.ndarray | None:
    """The object pointers of a 1-d object array as a read-only ``uintp`` view, or None
    for another array."""
    if values.ndim != 1 or values.dtype != object or values.itemsize != np.dtype(np.uintp).itemsize:
        return None
    return np.asarray(_Pointers(values))


def neighbour_changes(values: np.ndarray, limit: int, block: int = _BLOCK) -> np.ndarray | None:
    """Positions ``i`` where ``values[i + 1] != values[i]`` (as ``values[1:] !=
    values[:-1]`` finds them), or None once more than ``limit`` are found or a comparison
    has no truth value (``pd.NA``).

    Neighbours holding the same object count as equal without being compared: they
    differ from the plain comparison only for an object unequal to itself (NaN), which
    then heads its run instead of every row of it (the caller looks for missing values
    among the run heads, so the outcome is the same). After a block whose identities
    mostly differ, the identities of the next 1, 3, 7, ... 63 blocks are not read: a
    column of distinct objects pays the pointer pass on a few blocks only.
    """
    n = values.size
    ptr = pointers(values)
    found: list[np.ndarray] = []
    total, misses, skip = 0, 0, 0
    moved = np.empty(min(block, max(n - 1, 0)), dtype=bool)
    differ = np.empty_like(moved)
    for a in range(0, n - 1, block):
        b = min(a + block, n - 1)
        k = b - a
        change = None
        try:
            if ptr is not None and skip == 0:
                np.not_equal(ptr[a + 1 : b + 1], ptr[a:b], out=moved[:k])
                if np.count_nonzero(moved[:k]) * 4 <= k:  # compare only where they moved
                    at = np.flatnonzero(moved[:k]) + a
                    change = at[np.asarray(values[at + 1] != values[at], dtype=bool)]
                    misses = 0
                else:
                    misses += 1
                    skip = (1 << min(misses, 6)) - 1
            else:
                skip = max(skip - 1, 0)
            if change is None:
                np.not_equal(values[a + 1 : b + 1], values[a:b], out=differ[:k])
                change = np.flatnonzero(differ[:k]) + a
        except TypeError:  # pd.NA compares to NA, which has no truth value
            return None
        total += change.size
        if total > limit:
            return None
        found.append(change)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.intp)
