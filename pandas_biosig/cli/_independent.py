"""The report's test of systems scored on different trial lists: Bengio & Mariéthoz's
independent HTER test from each system's rates alone.

A documented internal module of the command line (docs/architecture.md, layer 3):
:mod:`pandas_biosig.cli` falls back to it when :func:`pandas_biosig.compare` refuses a table
whose systems do not share their trials.  Its input is an
:func:`pandas_biosig.error_rates` table, not a trial table, so it is no public function;
its output has the columns of :data:`pandas_biosig.verification.COMPARE_COLUMNS`.
"""

from __future__ import annotations

import itertools
import math

import pandas as pd

from .._core import pairwise as _pw
from ..stats._common import normal_result
from ..verification._comparison import COMPARE_COLUMNS, TESTS


def _compare_independent_sets(
    rates: pd.DataFrame, *, adjust: str | None, alpha: float, confidence_level: float,
    alternative: str = "two-sided",
) -> pd.DataFrame:
    """Bengio & Mariéthoz's independent HTER test (eq. 15) for every pair of systems of
    each split, from their rates only: for systems scored on different trial lists.

    ``rates`` is an :func:`pandas_biosig.error_rates` table. Each system's HTER variance
    uses its own trial counts, FAR(1 - FAR)/(4 NI) + FRR(1 - FRR)/(4 NC); with one common
    test set this is eq. 15 exactly. Each split is one family, adjusted once.
    """
    rows, family_of = [], []
    method = TESTS["hter_independent"] + ", each system on its own trials"
    for i_fam, (split, fam) in enumerate(rates.groupby("split", sort=False, dropna=False)):
        recs = fam.to_dict("records")
        for a, b in itertools.combinations(range(len(recs)), 2):
            ra, rb = recs[a], recs[b]
            row = dict(system_a=ra["system"], system_b=rb["system"], split=split,
                       metric="hter", test="hter_independent",
                       confidence_level=confidence_level)
            if any(math.isnan(r[c]) for r in (ra, rb) for c in ("far", "frr")):
                row.update(_pw.NAN_ROW, alternative=alternative, method=method)
            else:
                var = sum(
                    r["far"] * (1 - r["far"]) / (4 * r["n_impostor"])
                    + r["frr"] * (1 - r["frr"]) / (4 * r["n_genuine"])
                    for r in (ra, rb)
                )
                res = normal_result(
                    ra["hter"] - rb["hter"], math.sqrt(var), alternative=alternative,
                    method=method,
                    n=int(ra["n_impostor"] + ra["n_genuine"] + rb["n_impostor"] + rb["n_genuine"]),
                )
                row.update(_pw.row_of(res, confidence_level))
            row.update(threshold_a=ra["threshold"], threshold_b=rb["threshold"])
            rows.append(row)
            family_of.append(i_fam)
    return _pw.finish(rows, (), COMPARE_COLUMNS, family_of, adjust, alpha)
