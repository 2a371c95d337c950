"""Progress bars (tqdm) for the calls that can take more than a moment.

One knob across the API, ``progress``: ``True`` shows a bar, ``False`` never does, and
``None`` (the default) shows one where someone is watching — an interactive terminal
(stderr is a TTY) or a Jupyter notebook — and stays silent in pipes, log files and CI.
Bars show the count, the rate and the time left; the library's bars appear only once the
work has run for half a second, so quick calls print nothing.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable

__all__ = ["interactive", "progress_bar"]

#: Seconds of work before a library progress bar appears.
DELAY = 0.5


def _in_notebook() -> bool:
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except AttributeError:  # pragma: no cover - a partial IPython
        return False
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


def interactive() -> bool:
    """Whether someone is watching: a Jupyter kernel, or stderr is a terminal."""
    if _in_notebook():
        return True
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def _bar_class():
    if _in_notebook() and importlib.util.find_spec("ipywidgets") is not None:
        from tqdm.notebook import tqdm

        return tqdm
    from tqdm.std import tqdm as std_tqdm

    return std_tqdm


def make_bar(total: int, label: str, *, unit: str, delay: float | None = None):
    """A tqdm bar on stderr (or a notebook widget), shown after ``delay`` seconds
    (default :data:`DELAY`)."""
    delay = DELAY if delay is None else delay
    cls = _bar_class()
    options = dict(total=total, desc=label, unit=unit, delay=delay, dynamic_ncols=True)
    if cls.__module__ == "tqdm.std":
        options["file"] = sys.stderr
    return cls(**options)


def progress_bar(
    enabled: bool | None, total: int, label: str, *, unit: str = "resample"
) -> Callable[[int], None]:
    """``tick(done)``: report that ``done`` of ``total`` units are finished.

    Returns a no-op when ``enabled`` is False, or None and :func:`interactive` is not.
    The bar closes when ``done`` reaches ``total``.
    """
    if enabled is None:
        enabled = interactive()
    if not enabled or total <= 0:
        return lambda done: None
    bar = make_bar(total, label, unit=unit)
    state = {"done": 0}

    def tick(done: int) -> None:
        if done > state["done"]:
            bar.update(done - state["done"])
            state["done"] = done
        if done >= total:
            bar.close()

    return tick
