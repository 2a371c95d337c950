"""Deferred imports: the package and its accessor load without the optional or heavy parts
(plotting, statistics, identification, dask), which load the first time they are used."""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import types

__all__ = ["LazyModule", "register_when_imported"]


class LazyModule(types.ModuleType):
    """A stand-in for ``name`` that imports it on the first attribute access."""

    def __init__(self, name: str):
        super().__init__(name)
        self.__dict__["_lazy_target"] = name

    def _load(self) -> types.ModuleType:
        return importlib.import_module(self.__dict__["_lazy_target"])

    def __getattr__(self, attr: str):
        return getattr(self._load(), attr)

    def __dir__(self):
        return dir(self._load())


class _AfterImport(importlib.abc.MetaPathFinder):
    """Runs ``callback`` right after module ``target`` has been executed."""

    def __init__(self, target: str, callback):
        self.target, self.callback = target, callback

    def find_spec(self, fullname, path, target=None):
        if fullname != self.target:
            return None
        sys.meta_path.remove(self)  # one shot, and no recursion into this finder
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        loader, callback = spec.loader, self.callback
        run = loader.exec_module

        def exec_module(module):
            run(module)
            callback()

        loader.exec_module = exec_module
        return spec


def register_when_imported(target: str, callback) -> None:
    """Call ``callback`` now if module ``target`` is already imported, else right after
    it is first imported."""
    if target in sys.modules:
        callback()
    else:
        sys.meta_path.insert(0, _AfterImport(target, callback))
