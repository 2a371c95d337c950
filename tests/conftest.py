import pytest

import pandas_biosig as pbs


@pytest.fixture
def trials_tiny():
    """The hand-counted toy table of tests/reference_data.py (one system)."""
    from reference_data import TOY

    return TOY.table()


@pytest.fixture
def example():
    return pbs.datasets.example_trials()


def pytest_terminal_summary(terminalreporter):
    """With BIOSIG_HOSTILE_COUNTS set, print (and optionally save) the hostile-suite counts."""
    import json
    import os

    wanted = os.environ.get("BIOSIG_HOSTILE_COUNTS")
    if not wanted:
        return
    import hostile

    if not hostile.COUNTS:
        return
    terminalreporter.write_sep("-", "hostile-input cases by outcome")
    terminalreporter.write_line(hostile.summary())
    if wanted.endswith(".json"):
        with open(wanted, "w") as handle:
            json.dump({f"{f}/{k}": v for (f, k), v in sorted(hostile.COUNTS.items())}, handle)
