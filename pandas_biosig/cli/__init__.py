r"""``biosig report``: score files in, a report folder of tables and figures out.

``_report`` parses the arguments and writes the report, ``_inputs`` turns files into a
trial table, ``_independent`` holds the test the report falls back to when systems were
scored on different trials, ``_folder`` writes the folder (and never replaces a file it
did not write).
"""

from ._report import main

__all__ = ["main"]


def __dir__() -> list[str]:
    """The public names only: what ``dir()`` and tab completion offer."""
    return sorted(__all__)
