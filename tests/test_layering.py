"""The import direction of the package (docs/architecture.md, STYLE principle 1).

Four layers, lowest first:

0. ``_kernels/``: numpy-only arithmetic; imports nothing of the package outside ``_kernels``.
1. internal helpers shared by the function modules (``HELPERS``): schema, validation, the
   protocol object, result objects, the pairwise-family machinery.
2. public function modules (everything not listed elsewhere) and their private parts.
3. front ends (``FRONT_ENDS``): the accessor, the CLI, export and plotting.

An import may go down or sideways, never up.  Imports are read with :mod:`ast`, including
imports inside functions.  Today's exceptions are listed with a reason; the lists may only
shrink.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1] / "pandas_biosig"
KERNELS = sorted((ROOT / "_kernels").glob("*.py"))
FORBIDDEN = {"pandas", "xarray", "statsmodels", "matplotlib", "dask"}

HELPERS = {
    "_typing", "_validation", "_schema", "_arrow_strings", "_object_runs", "results", "protocol",
    "_pairwise",
    "_progress", "_lazy", "_frames", "_datasets", "_replicates", "_trial_groups", "_segmented",
    "stats._common",
    "io._errors", "io._names", "io._open", "io._parse", "io._formats",
}  # fmt: skip
FRONT_ENDS = (
    "accessor", "_accessor_tables", "cli", "_cli_inputs", "_cli_independent", "_report_folder",
    "export", "plot",
)  # fmt: skip

# (importer, imported): why the climb is there today.  Shrink only.
ALLOWED_CLIMBS: dict[tuple[str, str], str] = {}

# (importer, imported module, name): a private name taken from a module that is not an
# internal one (no ``_`` in its dotted path), by ``from m import _name`` or as the
# attribute ``m._name`` of an imported module.  Shrink only.
ALLOWED_PRIVATE: set[tuple[str, str, str]] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _imports(name: str):
    """Yield ``(target module, imported name or None)`` for every package import, and
    ``(module, attribute)`` for every attribute read off an imported package module."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text())
    aliases = {}  # local name -> package module bound to it
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("pandas_biosig"):
                    target = alias.name.removeprefix("pandas_biosig").lstrip(".")
                    if alias.asname:
                        aliases[alias.asname] = target
                    yield target, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            elif node.module.startswith("pandas_biosig"):
                target = node.module.removeprefix("pandas_biosig").lstrip(".")
            else:
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}".lstrip(".")
                if sub in MODULES:
                    aliases[alias.asname or alias.name] = sub
                    yield sub, None
                else:
                    yield target, alias.name
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
        ):
            yield aliases[node.value.id], node.attr


def layer(name: str) -> int:
    if name == "_kernels" or name.startswith("_kernels."):
        return 0
    if name in HELPERS:
        return 1
    if name == "" or name.split(".")[0] in FRONT_ENDS:
        return 3
    return 2


@pytest.mark.parametrize("path", KERNELS, ids=lambda p: p.name)
def test_kernel_imports(path):
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.level > 0:
            assert node.level == 1, f"{path.name} reaches outside _kernels"
    assert not imported & FORBIDDEN, f"{path.name} imports {imported & FORBIDDEN}"


def test_kernels_import_only_kernels():
    for name in MODULES:
        if layer(name) == 0:
            outside = {t for t, _ in _imports(name) if layer(t) != 0}
            assert not outside, f"{name} imports {outside} from outside _kernels"


def _climbs():
    return {
        (name, target)
        for name in MODULES
        for target, _ in _imports(name)
        if layer(target) > layer(name)
    }


def test_no_new_import_climbs_a_layer():
    new = _climbs() - set(ALLOWED_CLIMBS)
    assert not new, (
        "imports from a lower layer to a higher one (see docs/architecture.md): "
        + ", ".join(f"{a} -> {b or 'pandas_biosig'}" for a, b in sorted(new))
    )


def test_climb_allow_list_is_current():
    stale = set(ALLOWED_CLIMBS) - _climbs()
    assert not stale, f"fixed, remove from ALLOWED_CLIMBS: {sorted(stale)}"


def _internal(target: str) -> bool:
    return any(part.startswith("_") for part in target.split("."))


def _private_imports():
    return {
        (name, target, imported)
        for name in MODULES
        for target, imported in _imports(name)
        if imported
        and imported.startswith("_")
        and not imported.startswith("__")
        and not _internal(target)
        and target != name
    }


def test_no_new_private_name_imports():
    new = _private_imports() - ALLOWED_PRIVATE
    assert not new, (
        "private names imported from a public module; move them to an internal module: "
        + ", ".join(f"{a} <- {b}.{c}" for a, b, c in sorted(new))
    )


def test_private_allow_list_is_current():
    stale = ALLOWED_PRIVATE - _private_imports()
    assert not stale, f"fixed, remove from ALLOWED_PRIVATE: {sorted(stale)}"


def test_every_helper_and_front_end_exists():
    for name in HELPERS:
        assert name in MODULES, f"HELPERS names a missing module {name}"
    assert layer("accessor") == 3 and layer("metrics") == 2 and layer("_kernels.rates") == 0
