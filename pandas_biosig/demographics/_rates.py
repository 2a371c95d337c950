"""Per-group error rates at one global threshold: FMR and FNMR per group, and the cross-group
FMR matrix.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd
import xarray as xr

from .._core.counted import expand_counts
from .._core.curve_datasets import label_array
from .._core.options import NonFinite, Orientation
from .._core.protocol import AUTO
from .._core.schema import SchemaError
from .._core.validation import check_confidence_level
from .._core.validation import check_n_resamples as _check_resamples
from ._plan import (
    _BOOT,
    _CLUSTER,
    ERROR_REFERENCE_NEEDED,
    GROUP_RATE_COLUMNS,
    INTERVAL_METHODS,
    GroupCriterion,
    Impostors,
    IntervalMethod,
    _boot_bounds,
    _cluster_counts,
    _cluster_wilson,
    _counts,
    _doc,
    _frame,
    _method,
    _plan,
    _replicates,
    _rng,
    _wilson,
    check_clusters,
    group_members,
)
from ._two_way import fmr_intervals, replicates


# ----------------------------------------------------------------------------- public API
@_doc
def group_rates(
    data: pd.DataFrame,
    /,
    *,
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
    threshold: GroupCriterion | float = "far",
    target: float = 1e-3,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    ci_method: IntervalMethod = "auto",
    confidence_level: float = 0.95,
    n_resamples: int = 1000,
    seed: int | np.random.Generator | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    subject: str | None = "subject",
    reference_subject: str | None = "reference_subject",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> pd.DataFrame:
    r"""FMR and FNMR of every demographic group at one global threshold per system.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table (module docstring).
    {common}
    {subject}
    ci_method : {"auto", "wilson", "wilson_cluster", "bootstrap"}
        Interval of each rate. ``"auto"``: ``"wilson_cluster"`` when the table has a
        subject column (trials of one person are not independent, and binomial intervals
        are then too narrow): the Wilson interval on the effective sample size
        N / design effect of the subject clusters, with Student's t on (subjects − 1)
        degrees of freedom (Korn & Graubard, 1998); a rate of 0 or 1 uses n = the number
        of subjects. Without subjects, the Wilson score interval. ``"bootstrap"``:
        subjects resampled within the group, percentile interval (a rate of 0 or 1, whose
        replicates cannot vary: Wilson with n = subjects, or trials without a subject
        column, said in ``fallback_reason``). The subject intervals follow the one
        subject rule: a subject id on every trial and at least two subjects in every
        group (:func:`pandas_biosig._core.schema.check_subjects`). With a
        ``reference_subject`` column too, the FMR's ``"wilson_cluster"`` interval is
        Wilson's on N / design effect of the two-way design (the multiway
        cluster-robust variance over probes and references, Cameron, Gelbach & Miller
        2011) with Student's t on its Satterthwaite degrees of freedom, and
        ``"bootstrap"`` draws the people in both roles (a rate of 0 or 1: Wilson with
        n = the people of the group's impostor trials). Measured coverage:
        docs/validity.md.
    confidence_level : float
        Level of the intervals.
    n_resamples, seed
        Bootstrap replicates and seed.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (system, reported split, group), groups in order of first appearance
        (or category order):

        - ``system``, ``split``, ``group``; ``impostors``;
        - ``criterion`` (``"far"``, ``"eer"``... or ``"fixed"``), ``target`` (NaN unless
          ``"far"``/``"frr"``), ``threshold_split`` (None when fixed), ``threshold_from``
          (the split the threshold was chosen on, ``"same trials"`` or ``"fixed"``),
          ``threshold`` (score units);
        - ``n_genuine``, ``n_impostor``: counted trials of the group; ``n_subjects``:
          subjects with counted trials in the group (NaN without a subject column);
        - ``fa``, ``fr``: false matches and false non-matches;
        - ``fmr`` = fa / n_impostor, ``fnmr`` = fr / n_genuine, with ``*_low``, ``*_high``;
        - ``ci_method`` (``"wilson"``, ``"wilson_cluster"`` or ``"bootstrap"``),
          ``confidence_level``;
        - ``resample``: ``"two_way"`` when the interval accounts for the people in
          both roles (``wilson_cluster`` or the bootstrap with subject and reference
          subject columns), ``"subject"`` for subjects only (a subject column),
          ``"trial"`` for the bootstrap of trials, None for Wilson's;
        - ``fallback_reason``: why a bootstrap interval is Wilson's instead (None
          otherwise).

    Raises
    ------
    SchemaError
        Missing columns or group values, a genuine trial across groups, no counted
        impostor; for the subject intervals, a missing subject or reference subject id.
    ValueError
        An unknown option or an out-of-range number.
    TypeError
        A dask DataFrame (:data:`ERROR_DASK`).

    See Also
    --------
    fairness, compare_groups, cross_group_fmr

    References
    ----------
    ISO/IEC 19795-10:2024. Biometric performance testing and reporting — Part 10:
    Quantifying biometric system performance variation across demographic groups.

    Examples
    --------
    >>> trials = pbs.datasets.example_demographic_trials()
    >>> r = pbs.group_rates(trials, target=0.01, seed=0)
    >>> r[["system", "split", "group", "n_impostor", "fa", "fmr"]].head(3)
      system split group  n_impostor  fa       fmr
    0  net_a  eval     A         480   6  0.012500
    1  net_a  eval     B         480   3  0.006250
    2  net_a  eval     C         480   7  0.014583
    """
    data = expand_counts(data, count, trial=trial)
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=subject,
        orientation=orientation, nonfinite=nonfinite, reference_subject=reference_subject,
    )
    level = check_confidence_level(confidence_level)
    how = _method(ci_method, plan, INTERVAL_METHODS, _CLUSTER, "ci_method")
    n_resamples = _check_resamples(n_resamples)
    if how in (_BOOT, _CLUSTER):
        check_clusters(plan, f"ci_method={how!r}", subject, reference_subject)
    resample = _resampled(how, plan)
    rng = _rng(seed)
    k = len(plan.labels)
    n_clusters = plan.cluster_group.size
    rows = []
    for rep in plan.reported:
        n_gen, n_imp, fr, fa = _counts(rep.part, rep.threshold, k)
        cc = (_cluster_counts(rep.part, rep.threshold, n_clusters)
              if how in (_BOOT, _CLUSTER) else None)
        # each group's clusters with trials, ascending (one sort, not one scan per group)
        members_of = (group_members(plan.cluster_group, (cc[0] + cc[2]) > 0, k)
                      if cc is not None else None)
        held = (np.bincount(plan.cluster_group[np.unique(rep.part.cluster[rep.part.counted])],
                            minlength=k) if plan.has_subject else None)
        two = _both_roles(how, plan, rep, level, rng, n_resamples)
        for j, name in enumerate(plan.labels):
            if n_gen[j] + n_imp[j] == 0:
                continue
            members = None
            if members_of is not None:  # subjects, or trials without subjects
                members = members_of(j)
            n_subj: float = int(held[j]) if held is not None else float("nan")
            fmr = fa[j] / n_imp[j] if n_imp[j] else float("nan")
            fnmr = fr[j] / n_gen[j] if n_gen[j] else float("nan")
            bounds = _bounds(how, plan, (fa[j], n_imp[j], fr[j], n_gen[j]), cc, members, level,
                             rng, n_resamples, None if two is None else two[j])
            why = "; ".join(b[2] for b in bounds if b[2]) or None
            rows.append(dict(
                system=rep.part.system, split=rep.part.split, group=name, impostors=plan.impostors,
                criterion=plan.criterion, target=plan.target, threshold_split=rep.threshold_split,
                threshold_from=rep.threshold_from,
                threshold=plan.sign * rep.threshold, n_genuine=int(n_gen[j]),
                n_impostor=int(n_imp[j]), n_subjects=n_subj, fa=int(fa[j]), fr=int(fr[j]),
                fmr=fmr, fmr_low=bounds[0][0], fmr_high=bounds[0][1], fnmr=fnmr,
                fnmr_low=bounds[1][0], fnmr_high=bounds[1][1], ci_method=how,
                confidence_level=level, resample=resample, fallback_reason=why,
            ))
    return _frame(rows, GROUP_RATE_COLUMNS)


def _both_roles(how: str, plan, rep, level, rng, n_resamples) -> dict | None:
    """With people in both roles, per group: its FMR interval on the two-way design
    (``wilson_cluster``), or its replicated FMR and FNMR from one draw of the people for
    every group (``bootstrap``); None otherwise."""
    if not plan.two_way or how not in (_BOOT, _CLUSTER):
        return None
    groups = range(len(plan.labels))
    if how == _CLUSTER:
        return fmr_intervals(rep.part, rep.threshold, level, groups)
    return replicates(rng, n_resamples, plan, [(rep.part, rep.threshold)], groups)[0]


def _bounds(how: str, plan, counts, cc, members, level, rng, n_resamples,
            two=None) -> list[tuple]:
    """``[(low, high, fallback_reason)]`` of one group's FMR and FNMR by ``how``; ``two``:
    the group's entry of :func:`_both_roles` (people in both roles)."""
    fa, n_imp, fr, n_gen = counts
    if how == _BOOT:
        units = "subjects" if plan.has_subject else "trials"
        if two is not None:
            (rf, hf), (rn, hn) = two["fmr"], two["fnmr"]
        else:
            rf, rn = _replicates(rng, n_resamples, members, [(cc[3], cc[2]), (cc[1], cc[0])])
            hf, hn = int((cc[2][members] > 0).sum()), int((cc[0][members] > 0).sum())
        return [
            _boot_bounds(rf, fa, n_imp, hf, level, "fmr", "people" if two is not None else units),
            _boot_bounds(rn, fr, n_gen, hn, level, "fnmr", units),
        ]
    if how == _CLUSTER:  # a genuine trial has one person: the FNMR's design is the subjects'
        fmr = two if two is not None else _cluster_wilson(cc[3][members], cc[2][members], level)
        return [(*fmr, None), (*_cluster_wilson(cc[1][members], cc[0][members], level), None)]
    return [(*_wilson(fa, n_imp, level), None), (*_wilson(fr, n_gen, level), None)]


def _resampled(how: str, plan) -> str | None:
    """The unit of dependence an interval accounts for (the ``resample`` column)."""
    if how == _CLUSTER or (how == _BOOT and plan.has_subject):
        return plan.resample
    return "trial" if how == _BOOT else None


@_doc
def cross_group_fmr(
    data: pd.DataFrame,
    /,
    *,
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
    threshold: GroupCriterion | float = "far",
    target: float = 1e-3,
    on: Hashable | None = AUTO,
    apply_to: Hashable | Sequence[Hashable] | None = AUTO,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> xr.Dataset:
    r"""FMR of every (probe group, reference group) cell at the global threshold.

    The threshold is chosen as in :func:`group_rates` (on the counted trials, so
    ``impostors`` changes the threshold); the matrix then counts every impostor trial.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table with both group columns.
    {common}
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        Dims ``system``, ``split``, ``group`` (probe), ``reference_group``; variables
        ``fmr`` (NaN where a cell has no impostor trial), ``fa``, ``n_impostor`` over all
        four, and ``threshold`` and ``threshold_from`` over (system, split); ``split`` is
        ``""`` when the table has no split column. Scalar coords ``impostors``,
        ``criterion``, ``target``; attrs ``kind="cross_group_fmr"``. Group labels are the
        group values (str unless all are numbers).

    Raises
    ------
    SchemaError
        Without ``reference_group`` (:data:`ERROR_REFERENCE_NEEDED`), two group values with
        one label (``1`` and ``"1"``: :data:`pandas_biosig._core.curve_datasets.ERROR_LABELS`),
        and as :func:`group_rates`.

    Examples
    --------
    >>> ds = pbs.cross_group_fmr(pbs.datasets.example_demographic_trials(), target=0.1)
    >>> ds.fa.sel(system="net_b", split="eval").values.tolist()  # rows: probe group
    [[9, 0, 0], [0, 34, 1], [0, 0, 96]]
    >>> ds.fmr.sel(system="net_b", split="eval").round(3).values.tolist()
    [[0.019, 0.0, 0.0], [0.0, 0.071, 0.017], [0.0, 0.0, 0.2]]
    """
    data = expand_counts(data, count, trial=trial)
    if reference_group is None:
        raise SchemaError(ERROR_REFERENCE_NEEDED.format(function="cross_group_fmr"))
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=None, clusters=False,
        orientation=orientation, nonfinite=nonfinite,
    )
    k = len(plan.labels)
    systems = list(dict.fromkeys(r.part.system for r in plan.reported))
    splits = list(dict.fromkeys(r.part.split for r in plan.reported))
    fa = np.zeros((len(systems), len(splits), k, k), dtype=np.int64)
    n = np.zeros_like(fa)
    thr = np.full((len(systems), len(splits)), np.nan)
    frm = np.full((len(systems), len(splits)), None, dtype=object)
    for rep in plan.reported:
        i, s = systems.index(rep.part.system), splits.index(rep.part.split)
        p = rep.part
        imp = ~p.genuine
        cell = p.group[imp] * k + p.reference[imp]
        acc = p.scores[imp] >= rep.threshold
        n[i, s] = np.bincount(cell, minlength=k * k).reshape(k, k)
        fa[i, s] = np.bincount(cell[acc], minlength=k * k).reshape(k, k)
        thr[i, s] = plan.sign * rep.threshold
        frm[i, s] = str(rep.threshold_from)
    with np.errstate(divide="ignore", invalid="ignore"):
        fmr = np.where(n > 0, fa / np.where(n > 0, n, 1), np.nan)
    dims = ("system", "split", "group", "reference_group")
    ds = xr.Dataset(
        {
            "fmr": (dims, fmr, {"long_name": "false match rate", "units": "1"}),
            "fa": (dims, fa, {"long_name": "false matches", "units": "trials"}),
            "n_impostor": (dims, n, {"long_name": "impostor trials", "units": "trials"}),
            "threshold": (("system", "split"), thr, {"long_name": "global threshold",
                                                     "units": "score"}),
            "threshold_from": (("system", "split"), frm, {
                "long_name": "where the threshold came from: its split, same trials or fixed"}),
        },
        coords={
            "system": label_array(systems, "system"),
            "split": label_array(["" if s is None else s for s in splits], "split"),
            "group": label_array(plan.labels, "group"),
            "reference_group": label_array(plan.labels, "reference_group"),
            "impostors": plan.impostors, "criterion": plan.criterion, "target": plan.target,
        },
        attrs={"kind": "cross_group_fmr", "orientation": orientation},
    )
    return ds
