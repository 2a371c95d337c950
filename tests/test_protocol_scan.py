"""One module resolves thresholds and splits for every kind of table, read off the source
with :mod:`ast` (as ``tests/test_layering.py`` reads the imports).

The evaluation protocol is ``_core/protocol.py`` (splits, what ``"auto"`` means, the
resolution of a threshold policy) and ``_core/criteria.py`` (the one table of threshold
criteria and the one chooser). No other module of the package may:

- choose a threshold or read an operating point off a sweep: call a sweep's selection
  methods (``eer_threshold``, ``fnmr_at_fmr``, ``fmr_at_fnmr``, ``min_weighted``,
  ``min_dcf``, ``min_hter_and_dcf``, ``eer_points``, a PAD sweep's ``threshold``) or the
  kernels' choosers (``select_thresholds``, ``epsc_choice``, ``threshold_eer``,
  ``eer_points``);
- read split names: compare a split with a split-name constant (``split == "eval"``,
  ``s.lower() in ("dev", "development")``), compare a ``.split`` attribute with
  ``==``/``!=``, decide what ``on``/``apply_to`` mean (compare them with a string such as
  ``"auto"``), default them to a split name, or name the protocol's split tables
  (``DEV_SPLITS``, ``EVAL_SPLITS``, ``split_roles``; ``x.select_split(...)``).

Calling the protocol's functions (``resolve_splits``, ``select_split(table, value)``,
``choose``...) is what the other modules do instead.

The kernels (layer 0) define the sweeps and their operating points; they are not scanned.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1] / "pandas_biosig"
PROTOCOL = {"_core/protocol.py", "_core/criteria.py"}
#: Selection methods of the sweeps and the kernels' choosers.
CHOOSERS = {
    "eer_threshold", "fnmr_at_fmr", "fmr_at_fnmr", "min_weighted", "min_dcf",
    "min_hter_and_dcf", "eer_points", "select_thresholds", "epsc_choice", "threshold_eer",
}
#: Split names the protocol reads (``DEV_SPLITS`` and ``EVAL_SPLITS``).
SPLIT_NAMES = {"dev", "development", "eval", "evaluation", "test"}
#: Names of the protocol's split tables and split readers.
SPLIT_READERS = {"DEV_SPLITS", "EVAL_SPLITS", "DEV_NAMES", "EVAL_NAMES", "AUTO_SPLIT",
                 "split_roles"}

MODULES = sorted(
    p for p in ROOT.rglob("*.py")
    if p.relative_to(ROOT).parts[0] != "_kernels"
    and p.relative_to(ROOT).as_posix() not in PROTOCOL
)


def _called(node: ast.Call) -> str | None:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)


def _split_name(node: ast.AST) -> bool:
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)
            and node.value.strip().lower() in SPLIT_NAMES)


def _split_names(node: ast.AST) -> bool:
    """A tuple, list or set of constants with a split name among them."""
    return isinstance(node, ast.Tuple | ast.List | ast.Set) and any(
        _split_name(e) for e in node.elts)


def _mentions_split(node: ast.AST) -> bool:
    return "split" in ast.unparse(node).lower()


def _is_split_knob(node: ast.AST) -> bool:
    """``on``/``apply_to`` (a name, or an attribute ``x.on``/``x.apply_to``)."""
    name = node.id if isinstance(node, ast.Name) else getattr(node, "attr", None)
    return name in ("on", "apply_to")


def _a_string(node: ast.AST) -> bool:
    """A string constant, the name ``AUTO``, or a tuple/list/set holding one."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_a_string(e) for e in node.elts)
    return (isinstance(node, ast.Constant) and isinstance(node.value, str)) or (
        isinstance(node, ast.Name) and node.id == "AUTO")


def violations(source: str) -> list[str]:
    """What a module does that only the protocol may do (one line per finding)."""
    out = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Call):
            name = _called(node)
            if name in CHOOSERS:
                out.append(f"{line}: chooses a threshold ({name})")
            elif name == "threshold" and isinstance(node.func, ast.Attribute):
                out.append(f"{line}: chooses a threshold (a PAD sweep's threshold())")
            elif name == "select_split" and isinstance(node.func, ast.Attribute):
                out.append(f"{line}: reads the splits (a table's select_split)")
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            eq = any(isinstance(op, ast.Eq | ast.NotEq) for op in node.ops)
            if any(_split_names(o) for o in operands) or (
                    any(_split_name(o) for o in operands) and any(map(_mentions_split, operands))):
                out.append(f"{line}: compares with a split name: {ast.unparse(node)}")
            elif eq and any(isinstance(o, ast.Attribute) and o.attr == "split" for o in operands):
                out.append(f"{line}: compares a .split: {ast.unparse(node)}")
            elif any(map(_is_split_knob, operands)) and any(map(_a_string, operands)):
                out.append(f"{line}: decides what on/apply_to mean: {ast.unparse(node)}")
        elif isinstance(node, ast.Name) and node.id in SPLIT_READERS:
            out.append(f"{line}: reads the splits ({node.id})")
        elif isinstance(node, ast.arguments):
            pos = [*node.posonlyargs, *node.args]
            pairs = list(zip([a.arg for a in pos[len(pos) - len(node.defaults):]],
                             node.defaults, strict=True))
            pairs += [(a.arg, d) for a, d in zip(node.kwonlyargs, node.kw_defaults, strict=True)]
            for arg, default in pairs:
                if arg in ("on", "apply_to") and default is not None and _split_name(default):
                    out.append(f"{line}: a split name as the default of {arg}=")
    return out


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_only_the_protocol_chooses_thresholds_and_reads_splits(path):
    found = violations(path.read_text())
    assert not found, f"{path.relative_to(ROOT)}:\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    "op = sw.fnmr_at_fmr(0.01)",
    "t = sweep.eer_threshold()[1].threshold",
    "t = pad_sweep.threshold('apcer', 0.05)",
    "x = _k.select_thresholds(sw, w, 'far')",
    "keep = [g for g in groups if g.split == on]",
    "dev = [s for s in splits if s.lower() in ('dev', 'development')]",
    "if split == 'eval': pass",
    "if on == 'auto': pass",
    "if on not in (None, 'auto'): pass",
    "if data.split == 'eval': pass",
    "names = DEV_SPLITS",
    "groups = trials.select_split(v, name='apply_to')",
    "def f(data, *, on='dev', apply_to='eval'): pass",
])
def test_the_scan_finds_what_it_looks_for(source):
    assert violations(source)


@pytest.mark.parametrize("source", [
    "rates = rates_row(sw, t)",
    "t = r.threshold",
    "frame = frame.assign(split='dev')",
    "if group.split is None: pass",
    "def f(data, *, on='auto', apply_to='auto'): pass",
    "if column == 'test': pass",
    "groups = select_split(table, splits.on, name='on')",
    "if splits.on is None: pass",
])
def test_the_scan_passes_what_is_allowed(source):
    assert not violations(source)


def test_the_protocol_modules_exist():
    for name in PROTOCOL:
        assert (ROOT / name).is_file()
        assert violations((ROOT / name).read_text())  # the protocol does all of it
