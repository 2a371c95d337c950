r"""Identification (1:N search): ranks, CMC curves, recognition rates and open-set rates.

The input is a tidy **search table**: one row per (system, probe, reference) comparison,
with its ``score`` and a ``mate`` column saying whether the reference belongs to the
probe's identity (the label vocabulary of :data:`pandas_biosig.LABEL_VOCABULARY`: True/1,
"mated", "genuine"... against False/0, "non-mated", "impostor"...).  A probe with no mate
row is an **open-set** (unmated) probe: its identity is not enrolled.

=============================================  ==============================================
:func:`probe_ranks`                            one row per probe: best mate and non-mate
                                               scores, rank of the mate
:func:`cmc`                                    CMC curve, ``Dataset`` over (system, rank)
:func:`recognition_rate`                       rank-N recognition rate with its interval
:func:`detection_identification_rate`          open-set DIR and false alarm rate at a
                                               threshold or at a target false alarm rate
:func:`dir_curve`                              DIR against false alarm rate, ``Dataset``
:func:`compare_identification`                 McNemar, Günter, sign and bootstrap tests
                                               between systems, one row per pair, adjusted
:func:`cmc_difference`                         paired bootstrap band on CMC_A - CMC_B
=============================================  ==============================================

Rules, as bob.measure
---------------------
- **Rank**: :math:`\mathrm{rank} = 1 + \#\{\text{non-mate scores} \ge \text{best mate
  score}\}`.  Ties count *against* the probe.
- **Several mates** (a probe compared with several references of its identity): the best
  mate score counts; the other mates are never counted against the probe.  Ranks count
  references, not identities.
- **Open-set probes** have no rank: the CMC and the recognition rate use the mated probes
  only (``n_unmated`` reports how many were left out).  The detection and identification
  rate (DIR) counts mated probes only in its denominator, the false alarm rate (FAR)
  unmated probes only (Phillips, Grother & Micheals, 2005; bob.measure's
  ``detection_identification_rate`` and ``false_alarm_rate``).
- **Decision**: a comparison is accepted iff ``score >= threshold`` (for distances: iff
  ``distance <= threshold``).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd
import xarray as xr

from .._core.counted import REASON_IDENTIFICATION, refuse_counts
from .._core.options import Orientation
from .._core.protocol import AUTO, Protocol, check_policy
from .._core.results import binomial_intervals
from .._core.schema import by_columns, check_option
from .._core.validation import check_confidence_level, check_count
from .._kernels import identification as _k
from ..stats._common import RATE_CI_METHODS, RateCIMethod
from ._search import (
    SearchNonFinite,
    _attrs,
    _cmc_counts,
    _fill_doc,
    _frame,
    _Grid,
    _open_set_counts,
    _rank_list,
    _require_mated,
    _require_unmated,
    _search_counts,
    _unmated_top,
    _var,
    validate_search,
)

__all__ = [
    'CMC_VARIABLES',
    'DIR_COLUMNS',
    'DIR_CURVE_VARIABLES',
    'PROBE_RANK_COLUMNS',
    'RECOGNITION_COLUMNS',
    'cmc',
    'detection_identification_rate',
    'dir_curve',
    'probe_ranks',
    'recognition_rate',
]

# --------------------------------------------------------------------------- schemas

PROBE_RANK_COLUMNS = [
    "system",
    "probe",
    "mated",
    "n_references",
    "n_mates",
    "mate_score",
    "nonmate_score",
    "rank",
]
RECOGNITION_COLUMNS = [
    "system",
    "rank",
    "n_probes",
    "n_unmated",
    "n_correct",
    "recognition_rate",
    "confidence_level",
    "ci_method",
    "ci_low",
    "ci_high",
]
DIR_COLUMNS = [
    "system",
    "split",
    "rank",
    "criterion",
    "target",
    "threshold_split",
    "threshold_from",
    "threshold",
    "n_mated",
    "n_unmated",
    "n_detected",
    "n_false_alarms",
    "dir",
    "far",
    "resample",
]
CMC_VARIABLES = ["cmc", "n_correct", "n_probes", "n_unmated", "max_rank", "recognition_rate"]
DIR_CURVE_VARIABLES = ["threshold", "far", "dir", "n_mated", "n_unmated"]

# --------------------------------------------------------------------------- per-probe


@_fill_doc
def probe_ranks(
    data: pd.DataFrame,
    /,
    *,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Rank of the mate of every probe, and its best mate and non-mate scores.

    Parameters
    ----------
    data : DataFrame
        Tidy search table: one row per (system, probe, reference) comparison with its
        ``score`` and whether the reference is the probe's ``mate``.
    {column_args}
    count : str, optional
        Refused with a named error: the rows of a probe × reference score table are
        comparisons within a search, not trials (see docs/schema.md, "Counted trials").

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, probe), probes in order of first appearance
        (integer ids: ascending; categorical: category order), with columns ``system``, ``probe``, ``mated`` (the probe has a mate in the
        gallery), ``n_references`` (comparisons of the probe), ``n_mates``,
        ``mate_score`` (the best mate score; NaN for an unmated probe),
        ``nonmate_score`` (the best non-mate score; NaN when there is none) and ``rank``
        (float; NaN for an unmated probe).

    Raises
    ------
    SchemaError
        Missing columns (``ERROR_MISSING_COLUMNS``), an empty table (:data:`ERROR_EMPTY`),
        mate values outside the label vocabulary, non-numeric or non-finite scores
        (:data:`ERROR_NONFINITE`), or a (probe, reference) pair scored twice by one system
        (:data:`ERROR_DUPLICATE_PAIRS`).
    ValueError
        An unknown ``orientation`` or ``nonfinite``.

    See Also
    --------
    cmc : the distribution of these ranks.

    Notes
    -----
    With :math:`m_p` the best mate score of probe :math:`p` and :math:`N_p` its non-mate
    scores,

    .. math::

        \mathrm{rank}(p) = 1 + \#\{s \in N_p : s \ge m_p\},

    so ties count against the probe (bob.measure).  When a probe has several mates the
    best one counts and the others are never counted against it; ranks count references,
    not identities.  The ranks are computed in one pass over the rows, without sorting.

    References
    ----------
    Phillips, P. J., Grother, P., & Micheals, R. (2005). Evaluation methods in face
    recognition. In S. Z. Li & A. K. Jain (Eds.), *Handbook of face recognition*
    (pp. 328–348). Springer.

    Examples
    --------
    bob.measure's CMC fixture: four probes whose best mates rank 2, 3, 1 and 1 (the
    third probe has two mates, and only the better one counts):

    >>> from pandas_biosig.identification import probe_ranks
    >>> rows = [(p, f"{p}-{i}", s, False)
    ...         for p, neg in enumerate([(0.3, 1.1, 0.5), (1.4, -1.3, 0.6),
    ...                                  (0.8, 0.0, 1.5), (2.0, 1.3, 1.6, 0.9)])
    ...         for i, s in enumerate(neg)]
    >>> rows += [(0, "0-m", 0.7, True), (1, "1-m", 0.2, True), (2, "2-m", -0.8, True),
    ...          (2, "2-n", 1.8, True), (3, "3-m", 2.4, True)]
    >>> table = pd.DataFrame(rows, columns=["probe", "reference", "score", "mate"])
    >>> probe_ranks(table.assign(system="bob"))[["probe", "n_mates", "mate_score", "rank"]]
       probe  n_mates  mate_score  rank
    0      0        1         0.7   2.0
    1      1        1         0.2   3.0
    2      2        2         1.8   1.0
    3      3        1         2.4   1.0
    """
    refuse_counts(count, function="probe_ranks", reason=REASON_IDENTIFICATION)
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    st = s.stats
    assert st is not None and s.offsets is not None  # every group's probes, in one
    body = pd.DataFrame(
        {
            "probe": s.labels,
            "mated": st.mated,
            "n_references": st.n_references.astype(np.int64),
            "n_mates": st.n_mates.astype(np.int64),
            "mate_score": s.sign * st.mate_score,
            "nonmate_score": s.sign * st.nonmate_score,
            "rank": st.rank,
        }
    )
    keys = s.key_frame(None, np.diff(s.offsets))
    out = pd.concat([keys, body], axis=1)
    return out[[*s.by, *PROBE_RANK_COLUMNS]]


# --------------------------------------------------------------------------- CMC
@_fill_doc
def cmc(
    data: pd.DataFrame,
    /,
    *,
    max_rank: int | None = None,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
    count: str | None = None,
) -> xr.Dataset:
    r"""Cumulative match characteristic (CMC) of every system.

    Parameters
    ----------
    data : DataFrame
        Tidy search table (see :func:`probe_ranks`).
    max_rank : int, optional
        Last rank of the curve.  Default: the largest rank any mated probe can have in any
        system (one more than its number of non-mates; the gallery size for one mate per
        probe).
    {column_args}
    count : str, optional
        Refused with a named error: the rows of a probe × reference score table are
        comparisons within a search, not trials (see docs/schema.md, "Counted trials").

    Returns
    -------
    Dataset
        Dimensions ``(*by, system, rank)`` with ``rank = 1..max_rank``.  Data variables:
        ``cmc`` (fraction of mated probes with rank <= r), ``n_correct`` (their number)
        over ``(*by, system, rank)``; ``n_probes`` (mated probes), ``n_unmated``
        (open-set probes, left out), ``max_rank`` (the largest rank possible in the
        system) and ``recognition_rate`` (rank-1 rate) over ``(*by, system)``.  Every
        variable has ``long_name`` and ``units`` attributes.  Past a system's own
        ``max_rank`` its curve stays at its last value (1), so curves of systems with
        different gallery sizes share the rank axis without padding; missing
        ``(by, system)`` combinations are NaN.

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`, or a system without any mated probe
        (:data:`ERROR_NO_MATED`).
    ValueError
        ``max_rank`` not a positive integer (:data:`~pandas_biosig.stats.ERROR_POSITIVE_COUNT`).

    See Also
    --------
    recognition_rate : one rank, with a confidence interval.
    cmc_difference : bootstrap band on the difference of two curves.

    Notes
    -----
    With :math:`P_G` the mated probes,

    .. math::

        \mathrm{CMC}(r) = \frac{\#\{p \in P_G : \mathrm{rank}(p) \le r\}}{|P_G|},

    non-decreasing in :math:`r` and equal to 1 at ``max_rank``.  Open-set probes have no
    rank and are not in the denominator (bob.measure's ``cmc`` refuses them).

    Examples
    --------
    The probes of bob.measure's fixture rank 2, 3, 1 and 1 (see :func:`probe_ranks`):

    >>> from pandas_biosig.datasets import example_search
    >>> from pandas_biosig.identification import cmc
    >>> rows = [(0, "a", 0.3, False), (0, "b", 1.1, False), (0, "c", 0.5, False),
    ...         (0, "m", 0.7, True), (1, "a", 1.4, False), (1, "b", -1.3, False),
    ...         (1, "c", 0.6, False), (1, "m", 0.2, True), (2, "a", 0.8, False),
    ...         (2, "b", 0.0, False), (2, "c", 1.5, False), (2, "m", -0.8, True),
    ...         (2, "n", 1.8, True), (3, "a", 2.0, False), (3, "b", 1.3, False),
    ...         (3, "c", 1.6, False), (3, "d", 0.9, False), (3, "m", 2.4, True)]
    >>> table = pd.DataFrame(rows, columns=["probe", "reference", "score", "mate"])
    >>> cmc(table.assign(system="bob")).cmc.sel(system="bob").values
    array([0.5 , 0.75, 1.  , 1.  , 1.  ])

    On the bundled example, four systems over 60 gallery references:

    >>> ds = cmc(example_search())
    >>> ds.cmc.sel(rank=[1, 5]).to_pandas().round(3)
    rank        1     5
    system
    cnn      0.87  0.97
    cnn_aug  0.80  0.95
    gmm      0.73  0.95
    lbp      0.54  0.85
    """
    refuse_counts(count, function="cmc", reason=REASON_IDENTIFICATION)
    if max_rank is not None:
        max_rank = check_count(max_rank, "max_rank", positive=True)
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    largest, n_mated, n_unmated = _search_counts(s, "the CMC")
    r = int(largest.max()) if max_rank is None else max_rank
    grid = _Grid(s.by, s.group_keys())
    dims = grid.dims
    n_correct = grid.array(_cmc_counts(s, r), (r,), dtype=np.int64)
    n = grid.array(n_mated, dtype=np.int64)
    curve = n_correct / np.asarray(n, dtype=np.float64)[..., None]
    ds = xr.Dataset(
        {
            "cmc": _var(
                [*dims, "rank"], curve, "cumulative match characteristic (rank <= r)", "1"
            ),
            "n_correct": _var([*dims, "rank"], n_correct, "mated probes with rank <= r", "1"),
            "n_probes": _var(dims, n, "mated probes", "1"),
            "n_unmated": _var(
                dims, grid.array(n_unmated, dtype=np.int64),
                "unmated (open-set) probes, not in the CMC", "1",
            ),
            "max_rank": _var(
                dims, grid.array(largest, dtype=np.int64), "largest possible rank", "1"
            ),
            "recognition_rate": _var(dims, curve[..., 0], "rank-1 recognition rate", "1"),
        },
        coords={**grid.coords, "rank": np.arange(1, r + 1)},
        attrs=_attrs(s, "cmc"),
    )
    return ds


@_fill_doc
def recognition_rate(
    data: pd.DataFrame,
    /,
    *,
    rank: int | Sequence[int] = 1,
    confidence_level: float = 0.95,
    ci_method: RateCIMethod = "wilson",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Rank-N recognition (identification) rate of every system, with its interval.

    Parameters
    ----------
    data : DataFrame
        Tidy search table (see :func:`probe_ranks`).
    rank : int or sequence of int, default 1
        The rank(s) N: a probe is recognised iff its mate ranks N or better.
    confidence_level : float, default 0.95
        Level of the two-sided binomial interval.
    ci_method : {"wilson", "beta", "normal", "agresti_coull", "jeffreys", "binom_test"}
        statsmodels ``proportion_confint`` method (see
        :func:`pandas_biosig.stats.rate_ci`).
    {column_args}
    count : str, optional
        Refused with a named error: the rows of a probe × reference score table are
        comparisons within a search, not trials (see docs/schema.md, "Counted trials").

    Returns
    -------
    DataFrame
        One row per (``by`` group, system, rank) with columns ``system``, ``rank``,
        ``n_probes`` (mated probes), ``n_unmated`` (open-set probes, left out),
        ``n_correct``, ``recognition_rate`` (= CMC at the rank), ``confidence_level``,
        ``ci_method``, ``ci_low``, ``ci_high``.

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`, or a system without mated probes (:data:`ERROR_NO_MATED`).
    ValueError
        A rank that is not a positive integer (:data:`~pandas_biosig.stats.ERROR_POSITIVE_COUNT`), a
        ``confidence_level`` outside (0, 1) (:data:`~pandas_biosig._core.validation.ERROR_CONFIDENCE_LEVEL`) or an unknown
        ``ci_method``.

    See Also
    --------
    cmc : every rank at once.
    compare_identification : is one system's rate significantly higher?

    Notes
    -----
    :math:`\mathrm{RR}_N = \#\{p \in P_G : \mathrm{rank}(p) \le N\} / |P_G|`, the CMC at
    N, over the mated probes :math:`P_G`.  bob.measure's ``recognition_rate`` without a
    threshold instead counts every open-set probe as a failure in its denominator; use
    :func:`detection_identification_rate` for open-set rates.

    Examples
    --------
    >>> from pandas_biosig.datasets import example_search
    >>> from pandas_biosig.identification import recognition_rate
    >>> rr = recognition_rate(example_search(), rank=[1, 5])
    >>> rr[["system", "rank", "n_probes", "n_correct", "recognition_rate"]]
        system  rank  n_probes  n_correct  recognition_rate
    0      cnn     1       100         87              0.87
    1      cnn     5       100         97              0.97
    2  cnn_aug     1       100         80              0.80
    3  cnn_aug     5       100         95              0.95
    4      gmm     1       100         73              0.73
    5      gmm     5       100         95              0.95
    6      lbp     1       100         54              0.54
    7      lbp     5       100         85              0.85
    """
    refuse_counts(count, function="recognition_rate", reason=REASON_IDENTIFICATION)
    ranks = _rank_list(rank)
    level = check_confidence_level(confidence_level)
    check_option(ci_method, RATE_CI_METHODS, "ci_method")
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    _, n_mated, n_unmated = _search_counts(s, "a recognition rate")
    assert s.stats is not None
    at = np.asarray(ranks, dtype=np.float64)
    correct = np.stack([s.per_group((s.stats.rank <= k).astype(np.int64)) for k in at], axis=1)
    n = np.repeat(n_mated, len(ranks))
    c = correct.ravel()
    low, high = binomial_intervals(c, n, level, ci_method)
    m = c.size
    rows = dict(rank=np.tile(np.asarray(ranks, dtype=np.int64), len(s.groups)), n_probes=n,
                n_unmated=np.repeat(n_unmated, len(ranks)), n_correct=c, recognition_rate=c / n,
                confidence_level=np.full(m, level), ci_method=[ci_method] * m, ci_low=low,
                ci_high=high)
    return _frame(s, None, pd.DataFrame(rows), RECOGNITION_COLUMNS, repeats=len(ranks))


# --------------------------------------------------------------------------- open set


@_fill_doc
def detection_identification_rate(
    data: pd.DataFrame,
    /,
    *,
    threshold: Literal["far"] | float | Mapping[Hashable, float] = "far",
    target: float = 0.01,
    rank: int = 1,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    split: str | None = "split",
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""Open-set detection and identification rate (DIR) and false alarm rate (FAR).

    Parameters
    ----------
    data : DataFrame
        Tidy search table with mated and unmated (open-set) probes (see
        :func:`probe_ranks`).
    threshold : "far", number or mapping, default "far"
        ``"far"`` (the protocol's criterion of that name, one name in every kind of
        table): each system's threshold is the one with the highest DIR among those whose
        false alarm rate is at most ``target``.  A number: one threshold for every
        system; a mapping ``{system: threshold}``: one per system (NaN refused).
    target : float, default 0.01
        The false alarm rate bound of ``threshold="far"`` (ignored otherwise, and
        reported as NaN).
    rank : int, default 1
        A mated probe is identified iff its mate ranks ``rank`` or better.
    on, apply_to : split value, "auto" or None, default "auto"
        Where ``threshold="far"`` is chosen and the splits reported, the protocol of every
        kind of table (:mod:`pandas_biosig._core.protocol`): ``"auto"`` chooses on the dev
        split and reports the eval split(s) when the search table has both (column
        ``split``), else each split's own searches (``threshold_from="same trials"``).
    split : str or None, default "split"
        The split column (used when present; each split is a search experiment of its own).
    {column_args}
    count : str, optional
        Refused with a named error: the rows of a probe × reference score table are
        comparisons within a search, not trials (see docs/schema.md, "Counted trials").

    Returns
    -------
    DataFrame
        One row per reported (``by`` group, system, split) with columns ``system``,
        ``split`` (None without a split column), ``rank``, ``criterion`` (``"far"`` or
        ``"fixed"``), ``target``, ``threshold_split`` (the split the threshold was chosen
        on), ``threshold_from`` (that split, ``"same trials"`` or ``"fixed"``),
        ``threshold`` (in the score's units), ``n_mated``, ``n_unmated``, ``n_detected``
        (mated probes detected and identified), ``n_false_alarms`` (unmated probes whose
        best score reaches the threshold), ``dir`` = n_detected / n_mated, ``far`` =
        n_false_alarms / n_unmated (NaN without unmated probes) and ``resample`` (None:
        nothing is resampled).

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`; a system without mated probes (:data:`ERROR_NO_MATED`);
        ``threshold="far"`` on a system without unmated probes
        (:data:`ERROR_NO_UNMATED`); a mapping without the system
        (:data:`pandas_biosig._core.protocol.ERROR_THRESHOLD_MISSING`).
    ValueError
        A bad ``threshold`` (:data:`pandas_biosig._core.validation.ERROR_THRESHOLD_VALUE`,
        or an unknown criterion), ``target`` (:data:`~pandas_biosig.stats.ERROR_RATE`) or
        ``rank`` (:data:`~pandas_biosig.stats.ERROR_POSITIVE_COUNT`).

    See Also
    --------
    dir_curve : DIR against FAR at every threshold.

    Notes
    -----
    Following Phillips, Grother & Micheals (2005) and bob.measure, with :math:`P_G` the
    mated and :math:`P_N` the unmated probes, :math:`m_p` the best mate score and
    :math:`t_p` the best score of probe :math:`p`,

    .. math::

        \mathrm{DIR}(\tau, N) = \frac{\#\{p \in P_G : \mathrm{rank}(p) \le N,\;
            m_p \ge \tau\}}{|P_G|}, \qquad
        \mathrm{FAR}(\tau) = \frac{\#\{p \in P_N : t_p \ge \tau\}}{|P_N|}.

    Open-set probes are counted in the FAR's denominator only, mated probes in the
    DIR's only.  ISO/IEC 19795-1 calls the FAR the false positive identification rate
    (FPIR); at rank 1 its false negative identification rate is FNIR = 1 - DIR.  With
    ``threshold="far"`` the threshold is chosen from bob.measure's candidate list
    (midpoints between consecutive distinct scores), as the core's ``fnmr_at_fmr``: the
    FAR never exceeds ``target``.

    References
    ----------
    Phillips, P. J., Grother, P., & Micheals, R. (2005). Evaluation methods in face
    recognition. In S. Z. Li & A. K. Jain (Eds.), *Handbook of face recognition*
    (pp. 328–348). Springer.

    Examples
    --------
    >>> from pandas_biosig.identification import (
    ...     detection_identification_rate)
    >>> from pandas_biosig.datasets import example_search
    >>> out = detection_identification_rate(example_search(), target=0.1)
    >>> out[["system", "threshold", "n_false_alarms", "far", "dir"]].round(3)
        system  threshold  n_false_alarms   far   dir
    0      cnn      3.085               2  0.08  0.64
    1  cnn_aug      2.920               2  0.08  0.71
    2      gmm      2.755               2  0.08  0.61
    3      lbp      2.885               2  0.08  0.37
    """
    refuse_counts(count, function="detection_identification_rate", reason=REASON_IDENTIFICATION)
    at_rank = check_count(rank, "rank", positive=True)
    check_policy(threshold, kind="identification", target=target)
    by_cols = by_columns(by)
    split_col = split if split is not None and (split in data.columns or split != "split") else None
    s = validate_search(
        data, by=[*by_cols, split_col] if split_col is not None else by_cols, system=system,
        probe=probe, reference=reference, score=score, mate=mate, orientation=orientation,
        nonfinite=nonfinite,
    )
    table = _SplitSearches(s, by_cols, split_col, list(data.columns))
    _, n_mated, n_unmated = _search_counts(s, "the detection and identification rate")

    def sweep_of(kg):
        _require_unmated(s, kg.search, "threshold='far'")
        st = kg.search.stats
        return _k.open_set_sweep(st.mate_score, st.rank, _unmated_top(kg.search), at_rank)

    resolved = Protocol(threshold=threshold, target=target, on=on, apply_to=apply_to,
                        kind="identification").resolve(table, sweep_of=sweep_of)
    at = {id(kg): i for i, kg in enumerate(table.groups)}
    index = np.array([at[id(r.group)] for r in resolved], dtype=np.int64)
    t = np.array([r.threshold for r in resolved], dtype=np.float64)
    detected, alarms = _open_set_counts(s, index, t, at_rank)
    n_m, n_u = n_mated[index], n_unmated[index]
    with np.errstate(invalid="ignore", divide="ignore"):
        far = np.where(n_u > 0, alarms / np.where(n_u > 0, n_u, 1), np.nan)
    keys = [r.group.key for r in resolved]
    rows: dict[str, Any] = {name: [k[j] for k in keys]
                            for j, name in enumerate([*by_cols, "system", "split"])}
    rows.update(
        rank=np.full(index.size, at_rank), criterion=[r.criterion for r in resolved],
        target=np.array([r.target for r in resolved], dtype=np.float64),
        threshold_split=[r.threshold_split for r in resolved],
        threshold_from=[r.threshold_from for r in resolved], threshold=s.sign * t,
        n_mated=n_m, n_unmated=n_u, n_detected=detected, n_false_alarms=alarms,
        dir=detected / n_m, far=far, resample=[None] * index.size,
    )
    return pd.DataFrame(rows, columns=[*by_cols, *DIR_COLUMNS])


class _Keyed:
    """A search group keyed ``(*by, system, split)``, as the protocol reads groups."""

    subject = None

    def __init__(self, key: tuple, search):
        self.key, self.search = key, search

    @property
    def system(self):
        return self.key[-2]

    @property
    def split(self):
        return self.key[-1]


class _SplitSearches:
    """The searches of a table as the protocol reads a table: groups ``(*by, system,
    split)`` (split None without a split column)."""

    def __init__(self, s, by_cols, split_col, found):
        n = len(by_cols)
        self.groups = [
            _Keyed((*g.key[:n], g.key[-1], g.key[n] if split_col is not None else None), g)
            for g in s.groups
        ]
        self.by, self.split_column, self.orientation = tuple(by_cols), split_col, s.orientation
        self.columns = {"found": found}


@_fill_doc
def dir_curve(
    data: pd.DataFrame,
    /,
    *,
    rank: int = 1,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    probe: str = "probe",
    reference: str = "reference",
    score: str = "score",
    mate: str = "mate",
    orientation: Orientation = "similarity",
    nonfinite: SearchNonFinite = "raise",
    count: str | None = None,
) -> xr.Dataset:
    r"""Detection and identification rate against false alarm rate, at every threshold.

    Parameters
    ----------
    data : DataFrame
        Tidy search table with mated and unmated probes (see :func:`probe_ranks`).
    rank : int, default 1
        A mated probe is identified iff its mate ranks ``rank`` or better.
    {column_args}
    count : str, optional
        Refused with a named error: the rows of a probe × reference score table are
        comparisons within a search, not trials (see docs/schema.md, "Counted trials").

    Returns
    -------
    Dataset
        Dimensions ``(*by, system, point)``.  ``threshold``, ``far`` (false alarm rate)
        and ``dir`` over ``(*by, system, point)``; ``n_mated`` and ``n_unmated`` over
        ``(*by, system)``; ``rank`` a scalar coordinate.  Point 0 rejects everything
        (threshold just above the highest score, FAR = DIR = 0); each next point accepts
        the next distinct score (thresholds at bob.measure's midpoints), the last one
        accepts every score (FAR = 1 and DIR = the rank-N recognition rate unless some
        scores failed).  Systems have different numbers of points: the shorter curves are
        NaN-padded.

    Raises
    ------
    SchemaError
        As :func:`probe_ranks`, or a system without mated (:data:`ERROR_NO_MATED`) or
        unmated (:data:`ERROR_NO_UNMATED`) probes.
    ValueError
        ``rank`` not a positive integer (:data:`~pandas_biosig.stats.ERROR_POSITIVE_COUNT`).

    See Also
    --------
    detection_identification_rate : one operating point, at a threshold or a FAR bound.

    Notes
    -----
    See :func:`detection_identification_rate` for the definitions.  The curve is the ROC
    of a verification problem whose negatives are the best scores of the unmated probes
    and whose positives are the best mate scores of the mated probes, the probes not
    identified at the rank being rejected at every threshold; it is computed by the same
    sorted sweep as :func:`pandas_biosig.eer`.

    Examples
    --------
    >>> from pandas_biosig.datasets import example_search
    >>> from pandas_biosig.identification import dir_curve
    >>> ds = dir_curve(example_search())
    >>> cnn = ds.sel(system="cnn").dropna("point")
    >>> float(cnn.far[0]), float(cnn.dir[0]), float(cnn.far[-1]), float(cnn.dir[-1])
    (0.0, 0.0, 1.0, 0.87)
    """
    refuse_counts(count, function="dir_curve", reason=REASON_IDENTIFICATION)
    at_rank = check_count(rank, "rank", positive=True)
    s = validate_search(
        data, by=by, system=system, probe=probe, reference=reference, score=score,
        mate=mate, orientation=orientation, nonfinite=nonfinite,
    )
    curves = []
    for g in s.groups:
        _require_mated(s, g, "the DIR curve")
        _require_unmated(s, g, "the DIR curve")
        st = g.stats
        sw = _k.open_set_sweep(st.mate_score, st.rank, _unmated_top(g), at_rank)
        u = np.unique(np.concatenate([sw.neg, sw.pos]))[::-1]
        u = np.concatenate([[np.inf], u])
        curves.append(
            (
                s.sign * np.asarray(sw.threshold_for(u)),
                sw.fa_at(u) / sw.n,
                (sw.p - sw.fr_at(u)) / sw.p,
            )
        )
    grid = _Grid(s.by, [g.key for g in s.groups])
    dims = grid.dims
    n_points = max(c[0].size for c in curves)
    pad = (n_points,)
    point_dims = [*dims, "point"]
    ds = xr.Dataset(
        {
            "threshold": _var(
                point_dims, grid.array([c[0] for c in curves], pad),
                "decision threshold (accept iff score >= threshold)"
                if s.sign > 0 else "decision threshold (accept iff distance <= threshold)",
                "score",
            ),
            "far": _var(point_dims, grid.array([c[1] for c in curves], pad),
                        "false alarm rate", "1"),
            "dir": _var(point_dims, grid.array([c[2] for c in curves], pad),
                        "detection and identification rate", "1"),
            "n_mated": _var(dims, grid.array([g.n_mated for g in s.groups], dtype=np.int64),
                            "mated probes", "1"),
            "n_unmated": _var(
                dims, grid.array([g.n_unmated for g in s.groups], dtype=np.int64),
                "unmated (open-set) probes", "1",
            ),
        },
        coords={**grid.coords, "point": np.arange(n_points), "rank": at_rank},
        attrs=_attrs(s, "dir"),
    )
    return ds
