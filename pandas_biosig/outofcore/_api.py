"""Dask-backed trial tables: the same functions on ``dask.dataframe.DataFrame``, exact.

Importing this module registers the ``biosig`` accessor on dask DataFrames (dask is an
optional dependency, ``pip install pandas-biosig[dask]``)::

    ddf = dd.read_parquet("trials/")            # never loaded whole
    ddf.biosig.eer()                           # == pbs.eer(ddf.compute()), to the last bit

How the numbers stay exact without collecting the scores
--------------------------------------------------------
Every computation is a few *passes* over the partitions (each a dask reduction; a worker
holds one partition and a bounded histogram at a time):

1. **Histogram.** Each score maps to an order-preserving uint64 key; the top ``bins`` bits
   (default 20) name a bin. Per group (``by`` values, system, split) and class, the exact
   count of every non-empty bin, the failures to acquire, and the extreme scores.
2. **Refinement.** Every operating point at a bin edge is a true operating point with
   exact counts. Each criterion is computed by the in-memory engine
   (:class:`~pandas_biosig._kernels.rates.Sweep`) on the bins, one weighted pseudo-score
   per bin, and then checks what its answer depends on: the chosen score and the next
   lower score (the bob.measure midpoint threshold), and, for a minimization, a lower
   bound of the criterion in every bin; for the ROCCH-EER, that every bin's box lies
   strictly above the lines of the hull segments around the FAR = FRR crossing. The bins
   that fail are *gathered* (their distinct scores fetched, with counts) or split into
   finer bins by the next pass. When nothing fails, the result is the in-memory result:
   the same integer counts FA and FR, the same thresholds, the same floating-point
   operations on them.

Typically two to four passes; the memory of the driver is bounded by the gather limit.

What is exact, and what is not
------------------------------
- ``eer`` (all three methods), ``error_rates`` (every criterion, fixed thresholds, ``on``
  / ``apply_to``), ``dcf`` (minDCF, actDCF), and in ``summary`` the EERs, thresholds,
  min HTER, FMR100 / FMR1000 / ZeroFMR / ZeroFNMR, minDCF and AUC: equal to the pandas path
  bit for bit.
- ``summary``'s ``auc`` and ``min_cllr`` need every score in order: they take one extra
  pass per ``batch_size`` scores (the scores are gathered batch by batch in key order, never
  all at once). AUC is exact (integer win counts). ``min_cllr`` streams the PAV blocks
  through scipy's PAVA; the blocks are the in-memory ones except when two pooled blocks
  have exactly equal genuine fractions, where floating-point pooling order can split or
  merge collinear hull vertices (the value then differs in the last bits).
- ``cllr`` (and ``cllr_loss``) and ``d_prime`` are floating-point sums over all scores,
  accumulated per partition: they agree with the pandas path to a relative 1e-12, not bit
  for bit (the pandas value depends on numpy's summation order over the sorted scores).
  The same per-partition sums at six more prior log odds give the cross-entropies of the
  ``not_llr`` rule of ``summary`` and ``dcf``.
- The ROCCH-EER is BOSARIS' value on the exact hull segments at the crossing (and the next
  one when the crossing is at a vertex); the pandas path takes the maximum over all
  segments, which is the same number unless two segments' intersections with FAR = FRR
  differ by less than one unit in the last place (which needs a hull vertex within about
  ``1/(n_genuine n_impostor)`` of the diagonal).
- ``bayes_error`` is exact (each prior's minimum is located as minDCF is); ``roc`` on a
  FAR grid is exact, and without one it is the grid DET's points on the ROC's axes;
  ``epc`` (criterion ``"min_weighted"``, the in-memory default) is exact, its thresholds
  located as ``error_rates(threshold="min_weighted")`` locates one.
- ``det`` is a grid DET: exact operating points at bin edges (refined until no bin with
  more than one distinct score moves FAR or FRR by more than ``1/points``); the
  full-resolution curve has one point per distinct score, too many to hold in bounded
  memory, and lies within the boxes between consecutive grid points (``far_gap`` and
  ``frr_gap`` bound them).
- Duplicate ``(system, trial)`` rows and missing trial ids are refused as on the pandas
  path (the same messages). Finding them costs one extra pass over the data, whatever its
  size: each row's key and trial are hashed to 64 bits, each partition sorts its hashes
  and cuts them into ``ceil(rows / check_rows)`` slices of the hash range, and one task per
  slice merges that slice's runs from every partition, where repeats show; the rows of a
  repeated hash are then compared exactly (a collision is never taken for a duplicate).
  No merge holds much more than ``check_rows`` hashes; between the read and the merges
  the hashes of all rows (8 bytes a row, less than the table) may be held across the
  workers, where ``distributed`` spills them to disk if memory runs short.
- ``bootstrap`` (the subject bootstrap of the EER and of FNMR at FMR) equals the pandas
  path's for the same seed, bit for bit: it gathers the genuine scores and the impostor
  tail that every replicate's threshold can reach, and checks each replicate
  (:mod:`pandas_biosig.outofcore._bootstrap`).
- ``ci`` equals the pandas path bit for bit: exact thresholds and counts, and with subjects
  each subject's counts per class from one grouped pass (the design effect is formed from
  integer counts, in memory too; :mod:`pandas_biosig.outofcore._intervals`).
- ``compare(test="bootstrap")`` of ``hter``, ``far`` or ``frr`` equals the pandas path's for
  the same seed, bit for bit: the replicates read only cell counts, from the aligned pass or
  summed per subject (:mod:`pandas_biosig.outofcore._paired`); so does, subjects drawn, that
  of the EER and FNMR at FMR, on the compressed tables of ``bootstrap``
  (:mod:`pandas_biosig.outofcore._paired_sweeps`). The metrics that read every trial of a
  replicate are refused.

Options (``dask.config``): ``pandas_biosig.bins`` (bits of the first histogram, 20),
``pandas_biosig.refine_bits`` (16), ``pandas_biosig.gather_limit`` (scores fetched per
pass, 2**23), ``pandas_biosig.batch_size`` (scores per pass of the full sweep, 2**23),
``pandas_biosig.split_every`` (fan-in of the reductions, 8), ``pandas_biosig.check_rows``
(row hashes per merge of the duplicate check, 2**26), ``pandas_biosig.bootstrap_bytes``
(what :func:`bootstrap` may gather, 2**30 bytes).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from typing import Literal

import dask.dataframe as dd
import numpy as np
import pandas as pd

from .._core.criteria import bounded_point, eer_point, min_dcf_point, min_weighted_point
from .._core.frames import rates_row, result_frame
from .._core.mirror import mirror
from .._core.options import (
    Criterion,
    EERMethod,
    NonFinite,
    Orientation,
)
from .._core.schema import check_option
from .._core.validation import check_costs
from .._kernels.calibration import XE_LOG_ODDS
from .._kernels.rates import LN2
from ..verification._llr import warn_not_llr
from ..verification._metrics import (
    DCF_COLUMNS,
    EER_COLUMNS,
    EER_METHODS,
    ERROR_BAYES_DISTANCE,
    ERROR_RATE_COLUMNS,
    SUMMARY_COLUMNS,
)
from ._engine import (
    _engine,
    _resolve,
)
from ._llr import exact_parts, flag

__all__ = ['DaskBiosigAccessor', 'dcf', 'eer', 'error_rates', 'summary']



# ----------------------------------------------------------------------------- public API
def eer(
    data: dd.DataFrame,
    /,
    *,
    method: EERMethod = "threshold",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Equal error rate of every system of a dask trial table, exactly as :func:`pandas_biosig.eer`.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table, one row per (system, trial); never collected.
    method, by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError`` that says
        so; compute() the table to use counted trials.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.eer` (``system, split, n_genuine, n_impostor,
        method, eer, threshold, far, frr``), equal to it bit for bit.

    Raises
    ------
    SchemaError
        Missing columns, unknown labels, non-finite scores (``nonfinite="raise"``), a
        one-class system, an empty table, duplicate (system, trial) rows or missing
        trial ids.

    See Also
    --------
    pandas_biosig.eer : the in-memory function.
    pairwise_counts : discordance counts of system pairs.

    Notes
    -----
    Two to four passes over the partitions: a histogram of order-preserving score keys,
    then the scores of the few bins around the FAR = FRR crossing (see the module
    docstring). The ROCCH-EER is computed from the exact hull segments at the crossing.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore  # registers ddf.biosig
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=4)
    >>> out = ddf.biosig.eer(method="threshold")
    >>> out.equals(pbs.eer(trials, method="threshold"))
    True
    """
    check_option(method, EER_METHODS, "method")
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite, count=count,
    )
    sign = eng.spec.sign

    def build(eng):
        rows = []
        for g in eng.trials.groups:
            sw = eng.sweep(g.key)
            value, op = eer_point(sw)
            if method == "rocch":
                value = sw.eer_rocch()
            elif method == "interpolated":
                value = sw.eer_interpolated()
            rows.append(dict(n_genuine=sw.p, n_impostor=sw.n, method=method, eer=value,
                             threshold=sign * op.threshold, far=op.far, frr=op.frr))
        return result_frame(eng.trials, eng.trials.groups, rows, EER_COLUMNS)

    return eng.solve(build)


def error_rates(
    data: dd.DataFrame,
    /,
    *,
    threshold: Criterion | float | Mapping[Hashable, float] = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""False acceptance and rejection counts of a dask trial table at a threshold policy.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    threshold, weight, target, p_target, c_miss, c_fa, on, apply_to
        As in :func:`pandas_biosig.error_rates` (criteria, fixed numbers or a mapping
        ``{system: threshold}``; ``on``: choose on one split, apply to the others).
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError`` that says
        so; compute() the table to use counted trials.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.error_rates`, equal to it bit for bit
        (integer ``fa`` and ``fr``, the same thresholds).

    Raises
    ------
    SchemaError, ValueError
        As :func:`pandas_biosig.error_rates`.

    See Also
    --------
    pandas_biosig.error_rates : the in-memory function.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> kw = dict(threshold="far", target=0.01, on="dev", apply_to="eval")
    >>> ddf.biosig.error_rates(**kw).equals(pbs.error_rates(trials, **kw))
    True
    """
    check_costs(p_target, c_miss, c_fa)
    eng = _engine(
        data, system=system, trial=trial, label=label, score=score, split=split, by=by,
        orientation=orientation, nonfinite=nonfinite, count=count,
    )
    sign = eng.spec.sign

    def build(eng):
        groups, rows = [], []
        for r in _resolve(
            eng, threshold=threshold, weight=weight, target=target, p_target=p_target,
            c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to,
        ):
            g, sw, t = r.group, r.sweep, r.threshold
            row = dict(criterion=r.criterion, threshold_split=r.threshold_split,
                       threshold_from=r.threshold_from, weight=r.weight, target=r.target,
                       threshold=sign * t, resample=r.resample)
            row.update(rates_row(sw, t, eng.fta[g.key]))
            groups.append(g)
            rows.append(row)
        return result_frame(eng.trials, groups, rows, ERROR_RATE_COLUMNS)

    return eng.solve(build)


def dcf(
    data: dd.DataFrame,
    /,
    *,
    p_target: float | Sequence[float] = 0.01,
    c_miss: float | Sequence[float] = 1.0,
    c_fa: float | Sequence[float] = 1.0,
    threshold: Criterion | Literal["bayes"] | float | Mapping[Hashable, float] = "bayes",
    weight: float = 0.5,
    target: float | None = None,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Normalized minDCF and actDCF of a dask trial table, exactly as :func:`pandas_biosig.dcf`.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    p_target, c_miss, c_fa, threshold, weight, target, on, apply_to
        As in :func:`pandas_biosig.dcf`.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.eer`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError`` that says
        so; compute() the table to use counted trials.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.dcf` (``system, split, p_target, c_miss,
        c_fa, criterion, threshold, far, frr, act_dcf, min_dcf, min_dcf_threshold,
        dcf_loss, not_llr``).

    Raises
    ------
    SchemaError, ValueError
        As :func:`pandas_biosig.dcf`.

    See Also
    --------
    pandas_biosig.dcf : the in-memory function.

    Notes
    -----
    The minimum is located with a lower bound of the cost in every histogram bin: only the
    bins whose bound reaches the smallest cost found at a bin edge are gathered.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> ddf.biosig.dcf(p_target=[0.01, 0.1]).equals(pbs.dcf(trials, p_target=[0.01, 0.1]))
    True
    """
    pt, cm, cf = np.broadcast_arrays(
        np.atleast_1d(np.asarray(p_target, dtype=float)),
        np.atleast_1d(np.asarray(c_miss, dtype=float)),
        np.atleast_1d(np.asarray(c_fa, dtype=float)),
    )
    for a, b, c in zip(pt, cm, cf, strict=True):
        check_costs(a, b, c)
    eng = _engine(
        data, moments=True, system=system, trial=trial, label=label, score=score, split=split,
        by=by, orientation=orientation, nonfinite=nonfinite, count=count,
    )
    if threshold == "bayes" and eng.spec.orientation == "distance":
        raise ValueError(ERROR_BAYES_DISTANCE)
    sign = eng.spec.sign
    parts: dict = {}

    def build(eng):
        groups, rows = [], []
        for g in eng.trials.groups:
            parts[g.key] = exact_parts(eng.sweep(g.key))
        for a, b, c in zip(pt, cm, cf, strict=True):
            bayes = {"bayes": lambda g, a=a, b=b, c=c: float(np.log(c * (1 - a) / (b * a)))}
            norm = min(b * a, c * (1 - a))
            for r in _resolve(
                eng, threshold=threshold, weight=weight, target=target, p_target=a, c_miss=b,
                c_fa=c, on=on, apply_to=apply_to, extra_named=bayes,
            ):
                g, sw, t, crit = r.group, r.sweep, r.threshold, r.criterion
                rates = rates_row(sw, t)
                min_cost, op = min_dcf_point(sw, a, b, c)
                act = (b * a * rates["frr"] + c * (1 - a) * rates["far"]) / norm
                rows.append(dict(
                    p_target=a, c_miss=b, c_fa=c, criterion=crit,
                    threshold_from=r.threshold_from, threshold=sign * t,
                    far=rates["far"], frr=rates["frr"], act_dcf=act,
                    min_dcf=min_cost / norm, min_dcf_threshold=sign * op.threshold,
                    dcf_loss=act - min_cost / norm, resample=r.resample,
                ))
                groups.append(g)
        return groups, rows

    groups, rows = eng.solve(build)
    flags = _flags(eng, parts, sign)
    for g, row in zip(groups, rows, strict=True):
        row["not_llr"] = flags[g.key]
    if threshold == "bayes":
        warn_not_llr([g.system for g in eng.trials.groups if flags[g.key]])
    out = result_frame(eng.trials, groups, rows, DCF_COLUMNS)
    order = {id(g): i for i, g in enumerate(eng.trials.groups)}
    pos = np.argsort([order[id(g)] for g in groups], kind="stable")
    return out.iloc[pos].reset_index(drop=True)


def _flags(eng, parts: dict, sign: float) -> dict:
    """``not_llr`` of every group, from the solved exact parts and the moments."""
    out = {}
    for g in eng.trials.groups:
        ps = eng.scores[g.key]
        out[g.key] = flag(parts[g.key], eng.moments[g.key], ps.n, ps.p, ps.rp,
                          similarity=sign > 0)
    return out


def summary(
    data: dd.DataFrame,
    /,
    *,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""The headline numbers of every system of a dask trial table.

    Parameters
    ----------
    data : dask.dataframe.DataFrame
        Tidy trial table.
    p_target, c_miss, c_fa, by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.summary`.
    count : str, optional
        Not read out of core yet: naming a column raises a ``ValueError`` that says
        so; compute() the table to use counted trials.

    Returns
    -------
    pandas.DataFrame
        The columns of :func:`pandas_biosig.summary`. Equal to it bit for bit except
        ``cllr``, ``cllr_loss`` and ``d_prime`` (floating-point sums over all scores, equal
        to a relative 1e-12) and, in the collinear-pooling case of the module notes,
        ``min_cllr``. ``not_llr`` applies the in-memory rule to the exact operating points
        and to cross-entropy sums accumulated per partition.

    Raises
    ------
    SchemaError, ValueError
        As :func:`pandas_biosig.summary`.

    See Also
    --------
    pandas_biosig.summary : the in-memory function.

    Notes
    -----
    ``auc`` and ``min_cllr`` need every score in order: after the exact passes of the
    other columns, the scores are gathered in key order, ``batch_size`` (a
    ``dask.config`` option) at a time, one pass per batch; the AUC counts wins exactly in
    integers and the PAV blocks are streamed through scipy's PAVA.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> trials = pbs.datasets.example_trials()
    >>> ddf = dd.from_pandas(trials, npartitions=3)
    >>> ours, theirs = ddf.biosig.summary(), pbs.summary(trials)
    >>> floats = ["cllr", "cllr_loss", "d_prime"]
    >>> ours.drop(columns=floats).equals(theirs.drop(columns=floats))
    True
    >>> bool(np.allclose(ours.cllr, theirs.cllr, rtol=1e-12))
    True
    """
    check_costs(p_target, c_miss, c_fa)
    eng = _engine(
        data, moments=True, system=system, trial=trial, label=label, score=score, split=split,
        by=by, orientation=orientation, nonfinite=nonfinite, count=count,
    )
    sign = eng.spec.sign
    norm = min(c_miss * p_target, c_fa * (1 - p_target))

    parts: dict = {}
    bayes = float(np.log(c_fa * (1 - p_target) / (c_miss * p_target)))

    def build(eng):
        rows = []
        for g in eng.trials.groups:
            sw = eng.sweep(g.key)
            parts[g.key] = exact_parts(sw) if sign > 0 else None
            fa, fr = sw.rates_at_threshold(bayes)
            act = (c_miss * p_target * (fr / sw.p) + c_fa * (1 - p_target) * (fa / sw.n)) / norm
            eer_t, op = eer_point(sw)
            zero_fnmr = bounded_point(sw, "frr", 0.0)
            best_hter = min_weighted_point(sw, 0.5)
            rows.append(dict(
                n_genuine=sw.p, n_impostor=sw.n, eer_rocch=sw.eer_rocch(), eer_threshold=eer_t,
                threshold=sign * op.threshold, auc=np.nan,
                min_hter=(best_hter.far + best_hter.frr) / 2,
                fmr100=bounded_point(sw, "far", 0.01).frr,
                fmr1000=bounded_point(sw, "far", 0.001).frr,
                zero_fmr=bounded_point(sw, "far", 0.0).frr,
                zero_fnmr=float("nan") if zero_fnmr is None else zero_fnmr.far,
                min_dcf=min_dcf_point(sw, p_target, c_miss, c_fa)[0] / norm,
                p_target=p_target, c_miss=c_miss, c_fa=c_fa,
                cllr=np.nan, min_cllr=np.nan, d_prime=np.nan,
                act_dcf=act if sign > 0 else np.nan,
            ))
        return rows

    rows = eng.solve(build)
    full = eng.full_sweeps()
    for g, row in zip(eng.trials.groups, rows, strict=True):
        ps, fs = eng.scores[g.key], full[g.key]
        (nn, mn, qn, sn), (np_, mp, qp, sp) = eng.moments[g.key]
        row["auc"] = fs.auc(np_)
        row["min_cllr"] = fs.min_cllr()
        if sign > 0:  # the Cllr sums: the cross-entropy terms at prior log odds 0
            zero = XE_LOG_ODDS.index(0.0)
            row["cllr"] = (
                float("inf") if ps.rp
                else float((math.fsum(s[zero] for s in sp) / ps.p
                            + math.fsum(s[zero] for s in sn) / ps.n) / (2 * LN2))
            )
        row["d_prime"] = _d_prime(nn, mn, qn, np_, mp, qp)
    flags = _flags(eng, parts, sign)
    for g, row in zip(eng.trials.groups, rows, strict=True):
        row.update(dcf_loss=row["act_dcf"] - row["min_dcf"],
                   cllr_loss=row["cllr"] - row["min_cllr"], not_llr=flags[g.key])
    if sign > 0:
        warn_not_llr([g.system for g in eng.trials.groups if flags[g.key]])
    return result_frame(eng.trials, eng.trials.groups, rows, SUMMARY_COLUMNS)


def _d_prime(nn, mn, qn, np_, mp, qp) -> float:
    """:func:`pandas_biosig._kernels.rates.d_prime` from merged moments."""
    if nn == 0 or np_ == 0:
        return float("nan")
    var_g, var_i = qp / np_, qn / nn
    spread = np.sqrt((var_g + var_i) / 2)
    diff = abs(mp - mn)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(diff / spread) if spread > 0 else float("inf") if diff > 0 else float("nan")


# ----------------------------------------------------------------------------- accessor
@dd.extensions.register_dataframe_accessor("biosig")
class DaskBiosigAccessor:
    """``ddf.biosig``: the trial-table functions on a dask DataFrame, exact out of core.

    Every method is the :mod:`pandas_biosig.outofcore` function of the same name applied to
    the DataFrame, with its signature and docstring (see
    :class:`~pandas_biosig._core.mirror.mirror`); ``eer``, ``error_rates``, ``dcf`` and
    ``summary`` have the signatures (and results) of the pandas functions. The repr does
    not compute anything.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> import pandas_biosig.outofcore
    >>> ddf = dd.from_pandas(pbs.datasets.example_trials(), npartitions=3)
    >>> print(repr(ddf.biosig).splitlines()[0])
    <pandas_biosig dask accessor: 3 partitions>
    """

    def __init__(self, dask_obj: dd.DataFrame):
        self._obj = dask_obj

    def __repr__(self) -> str:
        cols = list(self._obj.columns)
        present = [c for c in ("system", "trial", "label", "score", "split", "subject") if c in cols]
        missing = [c for c in ("system", "trial", "label", "score") if c not in cols]
        lines = [
            f"<pandas_biosig dask accessor: {self._obj.npartitions} partitions>",
            f"  canonical columns found: {', '.join(present) or 'none'}",
        ]
        if missing:
            lines.append(f"  missing (pass their names as keywords): {', '.join(missing)}")
        lines.append("  counts need a pass over the data: call .summary()")
        return "\n".join(lines)

    eer = mirror("eer", "pandas_biosig.outofcore")
    error_rates = mirror("error_rates", "pandas_biosig.outofcore")
    dcf = mirror("dcf", "pandas_biosig.outofcore")
    summary = mirror("summary", "pandas_biosig.outofcore")
    det = mirror("det", "pandas_biosig.outofcore")
    roc = mirror("roc", "pandas_biosig.outofcore")
    bayes_error = mirror("bayes_error", "pandas_biosig.outofcore")
    epc = mirror("epc", "pandas_biosig.outofcore")
    bootstrap = mirror("bootstrap", "pandas_biosig.outofcore")
    ci = mirror("ci", "pandas_biosig.outofcore")
    pairwise_counts = mirror("pairwise_counts", "pandas_biosig.outofcore")
    compare = mirror("compare", "pandas_biosig.outofcore")
