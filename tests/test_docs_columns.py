"""The column lists in the docs' result tables are the columns the functions return.

A docs row ``| `function` | ... | `col, col, ...` |`` names a function's columns in order; a
renamed column (``interval`` -> ``ci_method``) must not survive in the docs.
"""

import re
from pathlib import Path

import pytest

import pandas_biosig as pbs

DOCS = Path(__file__).resolve().parent.parent / "docs"
ROW = re.compile(r"^\|\s*`([a-z_]+)`\s*\|(.*)\|\s*$")

_trials = pbs.datasets.example_trials
_folds = lambda: _trials().assign(fold=_trials().subject.str[1:].astype(int) % 4)  # noqa: E731
_demo = pbs.datasets.example_demographic_trials
_search = pbs.datasets.example_search
_pad = pbs.datasets.example_pad
_vuln = pbs.datasets.example_vulnerability
_tandem = pbs.datasets.example_tandem

CALLS = {
    "eer": lambda: pbs.eer(_trials()),
    "error_rates": lambda: pbs.error_rates(_trials()),
    "dcf": lambda: pbs.dcf(_trials()),
    "summary": lambda: pbs.summary(_trials()),
    "bootstrap": lambda: pbs.bootstrap(_trials(), n_resamples=20, seed=0),
    "ci": lambda: pbs.ci(_trials()),
    "frr_at_far": lambda: pbs.frr_at_far(_trials(), n_resamples=20, seed=0),
    "threshold_guarantee": lambda: pbs.threshold_guarantee(_trials(), target=0.05),
    "compare": lambda: pbs.compare(_trials(), n_resamples=20, seed=0),
    "calibrate": lambda: pbs.calibrate(_trials(), systems="cnn").params,
    "fuse": lambda: pbs.fuse(_trials(), systems=["cnn", "gmm"]).params,
    "compare_fusion": lambda: pbs.compare_fusion(_trials(), systems=["cnn", "gmm"],
                                                 n_resamples=20, seed=0, refit=True),
    "fold_metrics": lambda: pbs.fold_metrics(_folds(), metric="eer"),
    "fold_summary": lambda: pbs.fold_summary(_folds(), metric="eer"),
    "group_rates": lambda: pbs.group_rates(_demo(), target=0.01),
    "fairness": lambda: pbs.fairness(_demo(), target=0.01),
    "compare_groups": lambda: pbs.compare_groups(_demo(), target=0.01, n_resamples=20, seed=0),
    "compare_fairness": lambda: pbs.compare_fairness(_demo(), target=0.01, n_resamples=20,
                                                     seed=0),
    "pad_metrics": lambda: pbs.pad_metrics(_pad()),
    "pad_rates": lambda: pbs.pad_rates(_pad()),
    "pad_compare": lambda: pbs.pad_compare(_pad(), n_resamples=20, seed=0),
    "vulnerability": lambda: pbs.vulnerability(_vuln()),
    "iapmr": lambda: pbs.iapmr(_vuln()),
    "probe_ranks": lambda: pbs.probe_ranks(_search()),
    "recognition_rate": lambda: pbs.recognition_rate(_search()),
    "detection_identification_rate": lambda: pbs.detection_identification_rate(_search()),
    "compare_identification": lambda: pbs.compare_identification(_search()),
    "tdcf": lambda: pbs.tdcf(_tandem()),
    "teer": lambda: pbs.teer(_tandem()),
    "adcf": lambda: pbs.adcf(pbs.sasv_score(_tandem())),
    "cm_metrics": lambda: pbs.cm_metrics(_tandem()),
    "tandem_bootstrap": lambda: pbs.tandem_bootstrap(_tandem(), n_resamples=20, seed=0),
    "tandem_compare": lambda: pbs.tandem_compare(_tandem(), n_resamples=20, seed=0),
}


def _documented() -> list[tuple[str, str, list[str]]]:
    """(page, function, columns) of every docs table row that lists a function's columns."""
    rows = []
    for page in sorted(DOCS.glob("*.md")):
        for line in page.read_text(encoding="utf-8").splitlines():
            m = ROW.match(line)
            if not m or m.group(1) not in CALLS:
                continue
            cells = [c for c in m.group(2).split("|") if c.count(",") >= 3]
            if cells:
                names = re.findall(r"`([^`]+)`", cells[-1])
                rows.append((page.name, m.group(1),
                             [c.strip() for piece in names for c in piece.split(",")]))
    return rows


def test_docs_list_columns():
    assert len(_documented()) >= 15


@pytest.mark.parametrize(("page", "function", "columns"), _documented(),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_documented_columns_are_returned(page, function, columns):
    assert columns == list(CALLS[function]().columns), f"{page}: {function}"
