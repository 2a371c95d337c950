"""The house rules of the package (docs/architecture.md), read off the source with :mod:`ast`.

Four layers, lowest first; an import may go down or sideways, never up:

0. ``_kernels/``: numpy (and scipy) arithmetic; imports nothing of the package outside
   ``_kernels`` and none of pandas, xarray, statsmodels, matplotlib, dask.
1. ``_core/``: what every kind of table shares (schema, checks, protocol, results, the
   replicate machinery).
2. one package per kind of table and the shared subject libraries: ``verification``,
   ``pad``, ``demographics``, ``identification``, ``stats``, ``io``, ``outofcore``,
   ``validity`` (and ``datasets``). Packages of this layer may use each other, without
   cycles between packages.
3. front ends: ``accessor``, ``export``, ``plot``, ``cli``, the public namespace.

Every kind of import counts: ``import``/``from`` statements anywhere in a module (inside
functions too), ``importlib.import_module("pandas_biosig...")`` calls, the names the public
namespace loads lazily (``__init__.pyi``) and the functions the accessor mirrors by name
(``mirror("eer")``, resolved through ``__init__.pyi``).

Packages keep their internals: a module imports ``_private`` names only from modules of its
own package. A package's ``__init__`` exports names of its own modules (no re-export of
another package's names), any other module exports (``__all__``) only what it defines,
and every public name is exported by at most one public package.
"""

import ast
import importlib
import inspect
from collections import defaultdict
from pathlib import Path

import pytest

import pandas_biosig as pbs

ROOT = Path(__file__).parents[1] / "pandas_biosig"
FORBIDDEN = {"pandas", "xarray", "statsmodels", "matplotlib", "dask"}
KINDS = {"verification", "pad", "demographics", "identification", "stats", "io", "outofcore",
         "validity", "datasets", "calibration", "tandem"}
FRONT_ENDS = {"accessor", "export", "plot", "cli", "_stubgen", ""}
PUBLIC_PACKAGES = sorted(KINDS - {"datasets"} | {"export", "plot"})


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _stub_names() -> dict[str, str]:
    """name -> module for the names the public namespace loads lazily (``__init__.pyi``)."""
    tree = ast.parse((ROOT / "__init__.pyi").read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            assert node.level == 1, "__init__.pyi imports only from the package"
            for alias in node.names:  # a submodule, or a name of a module
                out[alias.name] = node.module or alias.name
    return out


STUB = _stub_names()


def _resolve(name: str, path: Path, node: ast.ImportFrom) -> str:
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    if not node.level:
        return node.module.removeprefix("pandas_biosig").lstrip(".")
    base = package.split(".") if package else []
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(name: str):
    """Yield ``(target module, imported name or None)`` for every import of the package by
    module ``name``, including lazy and string imports."""
    path = MODULES[name]
    tree = ast.parse(path.read_text())
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("pandas_biosig"):
                    target = alias.name.removeprefix("pandas_biosig").lstrip(".")
                    aliases[alias.asname or alias.name] = target
                    yield target, None
        elif isinstance(node, ast.ImportFrom):
            if not node.level and not (node.module or "").startswith("pandas_biosig"):
                continue
            target = _resolve(name, path, node)
            for alias in node.names:
                sub = f"{target}.{alias.name}".lstrip(".")
                if sub in MODULES:
                    aliases[alias.asname or alias.name] = sub
                    yield sub, None
                else:
                    yield target, alias.name
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            text = node.args[0].value
            if called == "import_module" and str(text).startswith("pandas_biosig"):
                yield str(text).removeprefix("pandas_biosig").lstrip("."), None
            if called == "mirror" and isinstance(text, str):  # the accessor's methods
                namespace = "pandas_biosig"
                if len(node.args) > 1 and isinstance(node.args[1], ast.Constant):
                    namespace = node.args[1].value
                if namespace == "pandas_biosig":
                    yield STUB[text], None
                else:
                    yield namespace.removeprefix("pandas_biosig").lstrip("."), text
    if name == "":  # the public namespace loads the stub's names
        for target in STUB.values():
            yield target, None
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases):
            yield aliases[node.value.id], node.attr


def layer(name: str) -> int:
    top = name.split(".")[0]
    if top == "_kernels":
        return 0
    if top == "_core":
        return 1
    if top in FRONT_ENDS:
        return 3
    assert top in KINDS, f"{name!r} is in no layer: add its package to KINDS or FRONT_ENDS"
    return 2


@pytest.mark.parametrize("name", sorted(MODULES), ids=lambda n: n or "pandas_biosig")
def test_every_module_has_a_layer(name):
    layer(name)


@pytest.mark.parametrize("name", [m for m in MODULES if m.startswith("_kernels")])
def test_kernels_import_only_numpy_scipy_and_kernels(name):
    tree = ast.parse(MODULES[name].read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 1, f"{name} reaches outside _kernels"
    assert not imported & FORBIDDEN, f"{name} imports {imported & FORBIDDEN}"
    outside = {t for t, _ in _imports(name) if layer(t) != 0}
    assert not outside, f"{name} imports {outside} from outside _kernels"


def test_no_import_climbs_a_layer():
    climbs = sorted(
        (name, target)
        for name in MODULES
        for target, _ in _imports(name)
        if layer(target) > layer(name)
    )
    assert not climbs, "imports from a lower layer to a higher one (docs/architecture.md): " + (
        ", ".join(f"{a or 'pandas_biosig'} -> {b or 'pandas_biosig'}" for a, b in climbs))


def test_no_cycle_between_packages():
    graph = defaultdict(set)
    for name in MODULES:
        here = name.split(".")[0]
        for target, _ in _imports(name):
            there = target.split(".")[0]
            if there != here and layer(target) == layer(name) == 2:
                graph[here].add(there)

    def reach(start):
        seen, todo = set(), [start]
        while todo:
            for nxt in graph[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    cycles = sorted(p for p in list(graph) if p in reach(p))
    assert not cycles, f"packages that import each other: {cycles} ({dict(graph)})"


def test_private_names_stay_in_their_package():
    """``from m import _name`` (or ``m._name``) only for ``m`` in the importer's own package."""
    found = sorted(
        f"{name} <- {target}.{imported}"
        for name in MODULES
        for target, imported in _imports(name)
        if imported and imported.startswith("_") and not imported.startswith("__")
        and target.split(".")[0] != name.split(".")[0]
        and f"{target}.{imported}" not in MODULES
    )
    assert not found, "private names imported from another package: " + ", ".join(found)


def test_no_private_alias_of_a_public_name():
    """``from m import check_rate as _check_rate`` hides where a helper comes from."""
    found = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(name, path, node) if node.level or (
                    node.module or "").startswith("pandas_biosig") else None
                for alias in node.names:
                    if (alias.asname and alias.asname == f"_{alias.name}" and target is not None
                            and f"{target}.{alias.name}".lstrip(".") not in MODULES):
                        found.append(f"{name}: {alias.name} as {alias.asname}")
    assert not found, found


def _all_of(tree) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            getattr(t, "id", "") == "__all__" for t in node.targets
        ):
            return ast.literal_eval(node.value)
    return None


def test_no_re_export_shims():
    """A module that is not a package ``__init__`` exports only what it defines; a package
    ``__init__`` exports only names of its own modules."""
    shims = []
    for name, path in MODULES.items():
        tree = ast.parse(path.read_text())
        exported = _all_of(tree) or []
        imported = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and (node.level or (
                    node.module or "").startswith("pandas_biosig")):
                target = _resolve(name, path, node)
                for alias in node.names:
                    imported[alias.asname or alias.name] = target
        for export in exported:
            if export not in imported:
                continue
            if path.name != "__init__.py" or name == "":
                if name != "":  # the namespace is checked by test_the_namespace_is_the_stub
                    shims.append(f"{name}.{export} (from {imported[export]})")
            elif not (imported[export] + ".").startswith(name + "."):
                shims.append(f"{name}.{export} (from {imported[export]})")
    assert not shims, "re-exports: " + ", ".join(sorted(shims))


def test_a_public_name_has_one_public_package():
    homes = defaultdict(list)
    for package in PUBLIC_PACKAGES:
        try:
            module = importlib.import_module(f"pandas_biosig.{package}")
        except ImportError:  # an optional extra that is not installed
            continue
        for export in module.__all__:
            obj = getattr(module, export)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                homes[id(obj)].append(f"{package}.{export}")
    twice = sorted(v for v in homes.values() if len(v) > 1)
    assert not twice, twice


def test_the_namespace_is_the_stub():
    assert sorted(pbs.__all__) == sorted(STUB)
    stub_all = _all_of(ast.parse((ROOT / "__init__.pyi").read_text()))
    assert sorted(stub_all) == sorted(STUB), "__init__.pyi: __all__ and its imports differ"
    assert isinstance(pbs.__version__, str)
    for name, module in STUB.items():
        obj = getattr(pbs, name)
        if inspect.ismodule(obj):
            assert obj.__name__ == f"pandas_biosig.{name}"
        else:
            home = importlib.import_module(f"pandas_biosig.{module}")
            assert getattr(home, name) is obj, name
            if inspect.isfunction(obj) or (inspect.isclass(obj) and obj.__module__ != "pandas_biosig"):
                assert obj.__module__.startswith(f"pandas_biosig.{module}"), name


def test_lazy_and_string_imports_are_counted():
    accessor = set(_imports("accessor"))
    assert ("verification", None) in accessor  # mirror("eer"), through __init__.pyi
    assert ("plot", "det") in accessor  # mirror("det", "pandas_biosig.plot")
    assert ("pad", None) in set(_imports(""))  # the namespace's lazy names
    assert layer("accessor") == 3 and layer("verification._metrics") == 2
    assert layer("_core.protocol") == 1 and layer("_kernels.rates") == 0
