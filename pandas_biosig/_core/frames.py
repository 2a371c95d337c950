"""The table helpers every per-system function shares: one sweep per group, the sign of
the score orientation, the row of counts and rates at a threshold, and the result frame.

A documented internal module (docs/architecture.md, layer 1): :mod:`pandas_biosig.verification._metrics`,
:mod:`pandas_biosig.verification._curves`, :mod:`pandas_biosig.verification._resampling` and
:mod:`pandas_biosig.outofcore` import these ``_`` names from here.  Result frames have a
plain ``RangeIndex``, the ``by`` columns first, then ``system`` and ``split``, then the
fixed columns of the function.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._kernels.rates import Sweep
from .schema import Group, Trials


def group_sweep(group: Group) -> Sweep:
    """The sorted sweep of one group (all thresholds, one sort)."""
    return Sweep.from_scores(group.scores, group.genuine)


def orientation_sign(trials: Trials) -> float:
    """-1 for distances (accept iff score <= threshold), +1 for similarities."""
    return -1.0 if trials.orientation == "distance" else 1.0


def result_frame(trials: Trials, groups: Sequence[Group], rows: list[dict], columns: list[str]):
    """One row per group: the ``by``/system/split keys of ``groups``, then ``columns``."""
    if rows and len(rows) != len(groups):  # several rows per group (dcf operating points)
        raise RuntimeError("internal: rows and groups disagree")
    names = [*trials.key_names, *(c for c in columns if c not in ("system", "split"))]
    if rows and [*trials.by, *columns] == names and len(set(names)) == len(names):
        # one construction from columns: a frame from records plus a concat costs more
        # than the numbers on a small table
        group_keys = [g.key for g in groups]
        data = {name: [k[i] for k in group_keys] for i, name in enumerate(trials.key_names)}
        for name in names[len(trials.key_names) :]:
            data[name] = _column([r.get(name, np.nan) for r in rows])
        return pd.DataFrame(data)
    keys = trials.key_frame(groups) if groups else pd.DataFrame(columns=trials.key_names)
    body = pd.DataFrame(rows, columns=[c for c in columns if c not in ("system", "split")])
    out = pd.concat([keys, body], axis=1)  # both have a RangeIndex
    wanted = [*trials.by, *columns]
    if list(out.columns) == wanted and len(set(wanted)) == len(wanted):
        return out  # already in order: skip the reindexing copy
    return out[wanted]


def _column(values: list):
    """A float64 or int64 array when every value is a float or every one a (machine-size)
    int, as pandas would infer it; anything else is left to pandas' inference."""
    kinds = {type(v) for v in values}
    if kinds <= {float, np.float64}:
        return np.array(values, dtype=np.float64)
    if kinds == {int} and all(-(2**63) <= v < 2**63 for v in values):
        return np.array(values, dtype=np.int64)
    return values


def rates_row(sweep: Sweep, t: float, fta: tuple[int, int] = (0, 0)) -> dict:
    """Counts and rates at threshold ``t``; ``fta`` = (impostor, genuine) failures to
    acquire, pooled into one FTA as bob.measure and ISO/IEC 19795-1 do (SPEC §1):
    FAR = FMR(1 - FTA), FRR = FTA + FNMR(1 - FTA)."""
    n_fta = fta[0] + fta[1]
    rate = n_fta / (sweep.n + sweep.p + n_fta)
    counts = dict(n_genuine=sweep.p + fta[1], n_impostor=sweep.n + fta[0], fta=rate)
    if np.isnan(t):
        return dict(counts, fa=np.nan, fr=np.nan, far=np.nan, frr=np.nan, hter=np.nan,
                    error_rate=np.nan, fmr=np.nan, fnmr=np.nan)
    n_fa, n_fr = sweep.rates_at_threshold(t)
    fa, fr = int(n_fa), int(n_fr)
    fmr, fnmr = fa / sweep.n, fr / sweep.p
    if n_fta:
        far, frr = fmr * (1 - rate), rate + fnmr * (1 - rate)
        n, p = counts["n_impostor"], counts["n_genuine"]
        error_rate = (far * n + frr * p) / (n + p)
    else:
        far, frr, error_rate = fmr, fnmr, (fa + fr) / (sweep.n + sweep.p)
    return dict(
        counts,
        fa=fa,
        fr=fr,
        far=far,
        frr=frr,
        hter=(far + frr) / 2,
        error_rate=error_rate,
        fmr=fmr,
        fnmr=fnmr,
    )
