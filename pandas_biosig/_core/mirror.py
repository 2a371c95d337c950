"""Accessor methods generated from functions: one mechanism for ``df.biosig`` and
``ddf.biosig``.

``eer = mirror("eer")`` in an accessor class gives a method that reads the function of that
name from a module (``pandas_biosig`` by default, loading it on first use) and returns it
bound to the accessor's table, with the function's signature and full docstring, the data
argument left out: ``inspect.signature`` and ``inspect.getdoc`` of ``df.biosig.eer`` are
those of :func:`pandas_biosig.eer` without ``data``.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable
from typing import Any

__all__ = ["mirror", "mirror_doc"]


def mirror_doc(func: Callable[..., Any]) -> str:
    """``func``'s docstring (cleaned as :func:`inspect.getdoc` cleans it) without the entry
    of its first parameter, the table that the accessor supplies."""
    doc = inspect.getdoc(func) or ""
    first = next(iter(inspect.signature(func).parameters))
    lines = doc.splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if (
            line.strip() == "Parameters"
            and i + 2 < len(lines)
            and lines[i + 1].startswith("---")
            and lines[i + 2].split(":")[0].strip() == first
        ):
            out += [line, lines[i + 1]]
            i += 3
            while i < len(lines) and (not lines[i].strip() or lines[i][0] == " "):
                i += 1  # the description of the data parameter
            continue
        if (
            line.strip() == "Parameters"
            and i + 2 < len(lines)
            and lines[i + 2].startswith(f"{first}, ")
        ):  # "data, threshold, ... : As in ..."
            out += [line, lines[i + 1], lines[i + 2].removeprefix(f"{first}, ")]
            i += 3
            continue
        out.append(line)
        i += 1
    return "\n".join(out)


@functools.cache
def _bound_parts(func: Callable[..., Any]) -> tuple[inspect.Signature, str]:
    """The signature and docstring a method bound to a table shows (computed once)."""
    signature = inspect.signature(func)
    parameters = list(signature.parameters.values())[1:]
    return signature.replace(parameters=parameters), mirror_doc(func)


class mirror:
    """An accessor method: the function ``name`` of module ``namespace``, called with the
    accessor's table as its first argument."""

    def __init__(self, name: str, namespace: str = "pandas_biosig"):
        self.name = name
        self.namespace = namespace

    def function(self) -> Callable[..., Any]:
        """The mirrored function (its module is imported on first use)."""
        return getattr(importlib.import_module(self.namespace), self.name)

    def __get__(self, accessor: Any, owner: type | None = None) -> Callable[..., Any]:
        func = self.function()
        signature, doc = _bound_parts(func)
        if accessor is None:  # read off the class: the function itself (help, Sphinx)
            return func
        table = accessor._obj

        def method(*args: Any, **kwargs: Any) -> Any:
            return func(table, *args, **kwargs)

        method.__name__ = method.__qualname__ = self.name
        method.__module__ = func.__module__
        method.__doc__ = doc
        method.__signature__ = signature  # type: ignore[attr-defined]
        method.__wrapped__ = func  # type: ignore[attr-defined]
        return method
