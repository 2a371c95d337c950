"""Sphinx configuration of the pandas_biosig documentation.

Build with ``sphinx-build -W -b html docs docs/_build/html`` (the docs extra:
``pip install -e ".[docs]"``). The Markdown pages are read by myst-parser; their ``>>>``
examples run as doctests in the test suite, and the notebooks run under nbmake, so Sphinx
executes nothing.
"""

import re

import pandas_biosig

try:  # the DataFrame.biosig.* pages; optional, so that pytest can import this file anyway
    import sphinx_autosummary_accessors
except ImportError:  # pragma: no cover
    sphinx_autosummary_accessors = None

project = "pandas_biosig"
author = "pandas_biosig developers"
copyright = "pandas_biosig developers"
release = pandas_biosig.__version__
version = release

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
]
templates_path = []
if sphinx_autosummary_accessors is not None:
    extensions.append("sphinx_autosummary_accessors")
    templates_path.append(sphinx_autosummary_accessors.templates_path)

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]

myst_heading_anchors = 3
autosummary_generate = True
autodoc_typehints = "none"  # numpydoc's Parameters sections say it
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False

html_theme = "alabaster"
html_title = f"pandas_biosig {release}"
html_theme_options = {
    "description": "Biometric verification evaluation on tidy pandas tables",
    "fixed_sidebar": True,
}


# ----------------------------------------------------------------------------- docstrings
# Plain-text notation in a few docstrings that reST would misread, fixed before numpydoc
# parses them (the build runs with -W, so anything else still fails it):
#
# - ``|T|``, ``|b - c|`` (absolute values, set sizes) outside math and literals are
#   substitution references to reST: the bars are escaped;
# - a type line continued with a trailing backslash (``method : {...}, \``) is joined to
#   the next line.
_BARS = re.compile(r"(?<![\\\w|])\|(?=\S)([^|\n]*?\S)\|(?![\w|])")
_PROTECTED = re.compile(r"(``.*?``|:\w+:`[^`]*`|`[^`]*`)")


def _escape_bars(text: str) -> str:
    parts = _PROTECTED.split(text)
    return "".join(p if i % 2 else _BARS.sub(r"\\|\1\\|", p) for i, p in enumerate(parts))


def _plain_notation(app, what, name, obj, options, lines) -> None:
    i, literal_indent, doctest = 0, None, False
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if literal_indent is not None:
            if stripped and indent <= literal_indent:
                literal_indent = None
            else:
                i += 1
                continue
        if stripped.startswith(">>>"):
            doctest = True
        if doctest:
            doctest = bool(stripped)
            i += 1
            continue
        if stripped.startswith(".. "):  # a directive (math, code...): leave its content
            literal_indent = indent
            i += 1
            continue
        if stripped.endswith("::"):  # a literal block follows
            literal_indent = indent
        continued = line.rstrip().endswith("\\") and not line.rstrip().endswith("\\\\")
        if continued and i + 1 < len(lines):
            lines[i] = line.rstrip()[:-1].rstrip() + " " + lines[i + 1].strip()
            del lines[i + 1]
            continue
        lines[i] = _escape_bars(line)
        i += 1


def setup(app):
    app.connect("autodoc-process-docstring", _plain_notation, priority=100)
