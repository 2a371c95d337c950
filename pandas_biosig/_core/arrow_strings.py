"""Questions about a pyarrow string column answered without hashing every string.

Two questions the trial schema asks of a key or label column are cheaper answered by
vectorized passes than by hashing every string (``factorize``, a vocabulary lookup):

- :func:`all_equal`: does every row hold the same string (one system per table)?
- :func:`spelled_labels`: is every row one of two labels spelled exactly as words of a
  vocabulary (``genuine`` / ``impostor``), and which?

Each returns None for a layout it does not read (missing values, other types); the
caller then takes its general path, which gives the same answer.
"""

from __future__ import annotations

import numpy as np

__all__ = ["all_equal", "spelled_labels"]

_BLOCK = 1 << 16


def chunked(series):
    """The pyarrow ChunkedArray of a pyarrow-backed string Series: ``__arrow_array__``
    gives one (pandas >= 2.2) or, in older pandas, may give one that pyarrow 14's
    ``chunked_array`` cannot take again."""
    import pyarrow as pa

    raw = series.array.__arrow_array__()
    return raw if isinstance(raw, pa.ChunkedArray) else pa.chunked_array([raw])


def _layout(chunk):
    """``(offsets, data)`` of a string chunk without missing values as numpy views (the
    offsets of its own rows, the whole data buffer), or None for another layout."""
    import pyarrow as pa

    if chunk.null_count or chunk.type not in (pa.string(), pa.large_string()):
        return None
    _, off_buf, data_buf = chunk.buffers()
    width = np.int64 if chunk.type == pa.large_string() else np.int32
    off = np.frombuffer(off_buf, dtype=width)[chunk.offset : chunk.offset + len(chunk) + 1]
    data = np.zeros(0, np.uint8) if data_buf is None else np.frombuffer(data_buf, np.uint8)
    return off, data


def all_equal(arr, block: int = _BLOCK) -> bool | None:
    """Whether every string of a pyarrow ``string`` / ``large_string`` chunked array
    without missing values equals the first, read off its buffers; None for other layouts.

    They do iff every offset step equals the first string's length ``L`` (the steps sum
    to ``L`` times the rows and none exceeds ``L``) and the bytes repeat with period
    ``L`` from the first string on: block-wise passes over the offsets and the bytes,
    several times cheaper than comparing every string.
    """
    first = None
    for chunk in arr.chunks:
        if len(chunk) == 0:
            continue
        layout = _layout(chunk)
        if layout is None:
            return None
        off, data = layout
        start, length = int(off[0]), int(off[1] - off[0])
        data = data[start : int(off[-1])] if length else None
        if first is None:
            first = b"" if data is None else data[:length].tobytes()
        if length != len(first) or int(off[-1]) - start != length * len(chunk):
            return False
        if data is not None and data[:length].tobytes() != first:
            return False
        # the steps sum to length * len(chunk) (checked above), so none exceeding
        # ``length`` means every one equals it: one reduction per block, not two
        step = np.empty(block, dtype=off.dtype)
        for a in range(0, len(chunk), block):
            seg = off[a : a + block + 1]
            if np.subtract(seg[1:], seg[:-1], out=step[: seg.size - 1]).max() > length:
                return False
        if data is not None:
            for a in range(0, data.size - length, block):
                later = data[a + length : a + length + block]
                if not np.array_equal(later, data[a : a + later.size]):
                    return False
    return True


def spelled_labels(arr, vocabulary: dict[str, bool]) -> np.ndarray | None:
    """The vocabulary value of each row of a pyarrow string chunked array that holds at
    most two distinct strings, each spelled exactly as a key of ``vocabulary``; None
    otherwise (missing values, another spelling, case or white space, a third string).

    Two vectorized comparisons with a scalar (the first row's string, then the first
    other one), two bit counts and the first comparison's bits unpacked as booleans:
    cheaper than looking every row up in the whole vocabulary, which hashes each string.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(arr)
    if arr.null_count or n == 0:
        return None
    first = arr[0].as_py()
    if first not in vocabulary:
        return None
    is_first = _booleans(pc.equal(arr, pa.scalar(first, arr.type)))
    n_first = int(np.count_nonzero(is_first))
    if n_first == n:
        return np.full(n, vocabulary[first])
    other = arr[int(np.argmin(is_first))].as_py()  # the first row of another string
    if other not in vocabulary:
        return None
    n_other = pc.sum(pc.equal(arr, pa.scalar(other, arr.type))).as_py()
    if n_first + n_other != n:
        return None
    if vocabulary[first] == vocabulary[other]:
        return np.full(n, vocabulary[first])
    return is_first if vocabulary[first] else ~is_first


def _booleans(bits) -> np.ndarray:
    """A pyarrow boolean chunked array without missing values as a numpy bool array,
    unpacked from its bitmaps (a tenth of the time of arrow's own conversion)."""
    parts = []
    for chunk in bits.chunks:
        if len(chunk) == 0:
            continue
        packed = np.frombuffer(chunk.buffers()[1], dtype=np.uint8)
        unpacked = np.unpackbits(packed, count=chunk.offset + len(chunk), bitorder="little")
        parts.append(unpacked[chunk.offset :].view(bool))
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=bool)
