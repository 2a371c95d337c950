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
