"""docs/architecture.md matches the package: its tables list what is on disk, the layers it
gives are the layering test's, and every module, object, file and test it names exists."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
ROOT = REPO / "pandas_biosig"
PAGE = REPO / "docs" / "architecture.md"
TEXT = PAGE.read_text()


def _layering():
    path = REPO / "tests" / "test_layering.py"
    spec = importlib.util.spec_from_file_location("_layering_rules", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


LAYERING = _layering()


def _section(title: str) -> str:
    parts = re.split(r"^## ", TEXT, flags=re.M)
    found = [p for p in parts if p.startswith(title)]
    assert len(found) == 1, f"docs/architecture.md has no one section {title!r}"
    return found[0]


def _table(text: str, after: str = "") -> list[list[str]]:
    """The rows (cells stripped) of the first Markdown table after ``after`` in ``text``."""
    lines = text[text.index(after):].splitlines() if after else text.splitlines()
    rows, started = [], False
    for line in lines:
        if line.startswith("|"):
            started = True
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if not all(set(c) <= set("-: ") for c in cells):
                rows.append(cells)
        elif started:
            break
    return rows[1:]  # the header row aside


def _quoted(text: str) -> list[str]:
    return re.findall(r"`([^`]+)`", text)


def _entries() -> set[str]:
    return {p.name + "/" if p.is_dir() else p.name for p in ROOT.iterdir()
            if p.name != "__pycache__"}


def _module_of(entry: str) -> str:
    """The module name (as tests/test_layering.py writes it) of an entry of the package."""
    name = entry.rstrip("/").split(".")[0]
    return "" if name == "__init__" else name


def test_the_package_table_lists_every_entry_of_the_package():
    rows = _table(_section("Packages"))
    listed = [name for row in rows for name in _quoted(row[0])]
    assert len(listed) == len(set(listed)), "an entry is listed twice"
    assert set(listed) == _entries()


def test_the_layers_are_the_layering_tests():
    for row in _table(_section("Packages")):
        if row[1]:
            for entry in _quoted(row[0]):
                assert LAYERING.layer(_module_of(entry)) == int(row[1]), entry
    rows = _table(_section("Four layers"))
    assert [int(r[0]) for r in rows] == [0, 1, 2, 3]
    named = set()
    for row in rows:
        for entry in _quoted(row[1]):
            assert LAYERING.layer(_module_of(entry)) == int(row[0]), entry
            named.add(entry)
    assert named == {e for e in _entries() if e.endswith(("/", ".py"))}


def test_the_core_table_lists_every_core_module():
    rows = _table(_section("Packages"), after="**`_core/`")
    listed = {name for row in rows for name in _quoted(row[0])}
    assert listed == {f"_core/{p.name}" for p in (ROOT / "_core").glob("*.py")}


def test_the_core_docstring_lists_every_core_module():
    """``_core/__init__.py`` holds the same table for readers of the code."""
    doc = ast.get_docstring(ast.parse((ROOT / "_core" / "__init__.py").read_text()))
    modules = {p.stem for p in (ROOT / "_core").glob("*.py")} - {"__init__"}
    assert modules <= set(re.findall(r"``(\w+)``", doc))


def _resolve(dotted: str):
    """The object a dotted name relative to the package names, importing as needed."""
    parts = dotted.split(".")
    for cut in range(len(parts), -1, -1):
        name = ".".join(["pandas_biosig", *parts[:cut]])
        try:
            obj = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and f"{name}.".startswith(f"{exc.name}."):  # an attribute, not a module
                continue
            raise
        for attr in parts[cut:]:
            assert hasattr(obj, attr), f"docs/architecture.md names {dotted!r}: no {attr!r}"
            obj = getattr(obj, attr)
        return obj
    raise AssertionError(f"docs/architecture.md names {dotted!r}, which does not exist")


def _code_names() -> list[str]:
    tops = {_module_of(e) for e in _entries() if e.endswith(("/", ".py"))} - {""}
    out = []
    for token in _quoted(TEXT):
        if (not re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+", token)
                or re.search(r"\.(py|pyi|md|toml)$", token)):  # a file
            continue
        head, _, rest = token.partition(".")
        if head == "pandas_biosig":
            out.append(rest)
        elif head in tops:
            out.append(token)
    return out


def test_every_named_object_exists():
    names = _code_names()
    assert len(names) > 30  # the path of one call names its steps
    for dotted in names:
        _resolve(dotted)


def _paths() -> list[str]:
    return [t for t in _quoted(TEXT)
            if re.fullmatch(r"[\w./]+", t) and ("/" in t or re.search(r"\.(py|pyi|md|toml)$", t))]


def test_every_named_file_exists():
    paths = _paths()
    assert "tests/test_layering.py" in paths and "_core/schema.py" in paths
    for path in paths:
        assert (REPO / path).exists() or (ROOT / path).exists(), path


def test_every_named_test_exists():
    refs = [t for t in _quoted(TEXT) if "::" in t]
    assert len(refs) >= 20
    for ref in refs:
        file, name = ref.split("::")
        tree = ast.parse((REPO / file).read_text())
        defined = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
        assert name in defined, ref


def test_every_rule_names_a_test():
    rows = _table(_section("Rules"))
    assert rows
    for rule, tests in rows:
        assert _quoted(tests) and all(t.startswith("tests/test_") for t in _quoted(tests)), rule


def test_no_line_count_but_the_limits():
    structure = ast.parse((REPO / "tests" / "test_structure.py").read_text())
    limits = {
        node.targets[0].id: node.value.value for node in structure.body
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id in ("MAX_MODULE_LINES", "MAX_BODY_LINES")
    }
    quoted = {int(n.replace(",", "")) for n in re.findall(r"(\d[\d,]*)\s+lines", TEXT)}
    assert quoted == set(limits.values()) == {800, 60}


def test_the_path_of_one_call_starts_where_the_stub_says():
    stub = ast.parse((ROOT / "__init__.pyi").read_text())
    homes = {a.name: n.module for n in stub.body if isinstance(n, ast.ImportFrom)
             for a in n.names}
    assert homes["compare"] == "verification"
    assert _resolve("verification.compare") is _resolve("verification._comparison.compare")
    assert "`verification/__init__.py` exports it from `verification._comparison`" in (
        " ".join(_section("The path of one call").split()))
