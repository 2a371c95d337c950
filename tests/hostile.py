"""Shared pieces of the hostile-input suite (tests/test_hostile_*.py).

Every generated case ends in one of three outcomes, counted here:

- ``correct``: the library returned a number, and it equals a brute-force count;
- ``named``: the library raised one of its own errors, deliberately (see :func:`is_named`);
- ``other``: anything else (an internal exception, a wrong number, a mutated input, a file
  written outside the output folder). The suite fails on the first such case, so a green
  run has ``other == 0``.

``BIOSIG_HOSTILE_COUNTS=1 pytest tests/test_hostile_*.py`` prints the counts at the end
(the hook is in tests/conftest.py); ``BIOSIG_HOSTILE_COUNTS=path.json`` also writes them.
"""

from __future__ import annotations

import collections
import traceback
from pathlib import Path

import pandas_biosig
from pandas_biosig._core.schema import SchemaError

COUNTS: collections.Counter = collections.Counter()
_PACKAGE = Path(pandas_biosig.__file__).resolve().parent


def is_named(exc: BaseException) -> bool:
    """An error the library raised on purpose: a SchemaError (ScoreFileError...), or a
    ValueError / TypeError / FileNotFoundError raised by a ``raise`` in the package's own
    code (not by numpy, pandas or the standard library underneath it)."""
    if isinstance(exc, SchemaError):
        return True
    if type(exc) not in (ValueError, TypeError, FileNotFoundError) and not (
        isinstance(exc, ValueError) and type(exc).__module__.startswith("pandas_biosig")
    ):
        return False
    frames = traceback.extract_tb(exc.__traceback__)
    return bool(frames) and Path(frames[-1].filename).resolve().is_relative_to(_PACKAGE)


def outcome(
    call, check=None, *, expect: str | None = None, family: str = "", match: str | None = None
) -> str:
    """Run ``call()``; return ``"correct"`` or ``"named"`` and count it.

    ``check(result)`` asserts the result against a brute-force count. ``expect`` pins the
    outcome when the case is known to be valid (``"correct"``) or invalid (``"named"``);
    ``match`` is text the error message must hold (the file's name, say).
    Any other exception, or a failed check, propagates and fails the test.
    """
    try:
        result = call()
    except Exception as exc:
        if not is_named(exc):
            COUNTS[(family, "other")] += 1
            raise
        if expect == "correct" or (match is not None and match not in str(exc)):
            COUNTS[(family, "other")] += 1
            raise AssertionError(f"unexpected {type(exc).__name__}: {exc}") from exc
        COUNTS[(family, "named")] += 1
        return "named"
    if expect == "named":
        COUNTS[(family, "other")] += 1
        raise AssertionError(f"an invalid case returned a result:\n{result}")
    try:
        if check is not None:
            check(result)
    except BaseException:
        COUNTS[(family, "other")] += 1
        raise
    COUNTS[(family, "correct")] += 1
    return "correct"


def summary() -> str:
    families = sorted({f for f, _ in COUNTS})
    lines = []
    for f in families:
        c, n, o = (COUNTS[(f, k)] for k in ("correct", "named", "other"))
        lines.append(f"{f:<10} cases={c + n + o:5d} correct={c:5d} named error={n:5d} other={o}")
    total = {k: sum(v for (_, kk), v in COUNTS.items() if kk == k) for k in ("correct", "named", "other")}
    lines.append(
        f"{'total':<10} cases={sum(total.values()):5d} correct={total['correct']:5d} "
        f"named error={total['named']:5d} other={total['other']}"
    )
    return "\n".join(lines)
