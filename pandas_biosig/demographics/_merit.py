"""Figures of merit of demographic differentials: max/min ratios, FDR, Gini, GARBE, inequity
rate, and the FDR curve over FMR targets.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd
import xarray as xr

from .._core.counted import expand_counts
from .._core.options import NonFinite, Orientation
from .._core.protocol import AUTO
from .._core.schema import check_option
from .._core.validation import check_weight
from .._kernels import fairness as _fair
from ._plan import (
    ERROR_TARGETS,
    FAIRNESS_COLUMNS,
    GroupCriterion,
    Impostors,
    Scale,
    _counts,
    _doc,
    _frame,
    _plan,
)


def _fom_row(labels, n_gen, n_imp, fr, fa, weight) -> dict:
    ok = (n_gen > 0) & (n_imp > 0)
    idx = np.flatnonzero(ok)
    fmr = fa[idx] / n_imp[idx]
    fnmr = fr[idx] / n_gen[idx]
    names = [labels[i] for i in idx]
    reasons = []
    if idx.size < 2:
        reasons.append(f"fewer than two groups with both classes ({idx.size})")
        nan = float("nan")
        return dict(n_groups=int(idx.size), fmr_max=nan, fmr_max_group=None, fmr_min=nan,
                    fmr_min_group=None, fmr_ratio=nan, fnmr_max=nan, fnmr_max_group=None,
                    fnmr_min=nan, fnmr_min_group=None, fnmr_ratio=nan, fdr=nan, gini_fmr=nan,
                    gini_fnmr=nan, garbe=nan, inequity_rate=nan, undefined_reason="; ".join(reasons))
    for name, r in (("FMR", fmr), ("FNMR", fnmr)):
        if r.min() == 0:
            reasons.append(f"min {name} is 0 (group {names[int(np.argmin(r))]!r}): the {name} ratio is undefined")
        if r.max() == 0:
            reasons.append(f"every {name} is 0: its Gini coefficient is undefined")
    return dict(
        n_groups=int(idx.size),
        fmr_max=float(fmr.max()), fmr_max_group=names[int(np.argmax(fmr))],
        fmr_min=float(fmr.min()), fmr_min_group=names[int(np.argmin(fmr))],
        fmr_ratio=float(_fair.ratio(fmr)),
        fnmr_max=float(fnmr.max()), fnmr_max_group=names[int(np.argmax(fnmr))],
        fnmr_min=float(fnmr.min()), fnmr_min_group=names[int(np.argmin(fnmr))],
        fnmr_ratio=float(_fair.ratio(fnmr)),
        fdr=float(_fair.fdr(fmr, fnmr, weight)),
        gini_fmr=float(_fair.gini(fmr)), gini_fnmr=float(_fair.gini(fnmr)),
        garbe=float(_fair.garbe(fmr, fnmr, weight)),
        inequity_rate=float(_fair.inequity_rate(fmr, fnmr, weight)),
        undefined_reason="; ".join(reasons) if reasons else None,
    )


@_doc
def fairness(
    data: pd.DataFrame,
    /,
    *,
    weight: float = 0.5,
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
) -> pd.DataFrame:
    r"""Figures of merit of the demographic differentials of every system.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    weight : float
        The weight :math:`\alpha` of the FMR term (the papers' alpha; 0.5 by default).
    {common}
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    DataFrame
        One row per (system, reported split), over the groups that have both genuine and
        counted impostor trials:

        - ``system``, ``split``, ``impostors``, ``criterion``, ``target``,
          ``threshold_split``, ``threshold_from``, ``threshold``, ``weight``, ``n_groups``,
          ``resample`` (None: nothing is resampled);
        - ``fmr_max``, ``fmr_max_group``, ``fmr_min``, ``fmr_min_group``, ``fmr_ratio`` =
          max / min (and the same for ``fnmr``);
        - ``fdr``: :math:`1 - (\alpha\,(\max - \min)_{FMR} + (1-\alpha)\,(\max -
          \min)_{FNMR})` (1 is fair);
        - ``gini_fmr``, ``gini_fnmr``, ``garbe`` = :math:`\alpha G_{FMR} + (1-\alpha)
          G_{FNMR}` (0 is fair);
        - ``inequity_rate`` = :math:`(\max/\min FMR)^\alpha (\max/\min FNMR)^{1-\alpha}`
          (1 is fair);
        - ``undefined_reason``: why a value is NaN (a group with rate 0, all rates 0,
          fewer than two groups), None when every value is defined.

    Notes
    -----
    Formulas and sources: ``docs/methods.md`` (demographic differentials).

    References
    ----------
    de Freitas Pereira, T., & Marcel, S. (2021). Fairness in biometrics: a figure of merit
    to assess biometric verification systems. *IEEE TBIOM, 4*\(1), 19–29.

    Howard, J. J., Laird, E. J., Rubin, R. E., Sirotin, Y. B., Tipton, J. L., & Vemury,
    A. R. (2022). Evaluating proposed fairness models for face recognition algorithms.
    *ICPR 2022 workshops*.

    Examples
    --------
    >>> f = pbs.fairness(pbs.datasets.example_demographic_trials(), target=0.01)
    >>> f[["system", "fmr_max_group", "fmr_ratio", "fdr", "garbe"]].round(3)
      system fmr_max_group  fmr_ratio    fdr  garbe
    0  net_a             C      2.333  0.975  0.264
    1  net_b             C        NaN  0.894  0.576
    2  net_c             C      2.500  0.809  0.246
    >>> print(f.undefined_reason[1])
    min FMR is 0 (group 'A'): the FMR ratio is undefined
    """
    data = expand_counts(data, count, trial=trial)
    w = check_weight(weight)
    plan = _plan(
        data, group=group, reference_group=reference_group, impostors=impostors,
        threshold=threshold, target=target, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, subject=None, clusters=False,
        orientation=orientation, nonfinite=nonfinite,
    )
    k = len(plan.labels)
    rows = []
    for rep in plan.reported:
        row = dict(system=rep.part.system, split=rep.part.split, impostors=plan.impostors,
                   criterion=plan.criterion, target=plan.target,
                   threshold_split=rep.threshold_split, threshold_from=rep.threshold_from,
                   threshold=plan.sign * rep.threshold,
                   weight=w, resample=None)
        row.update(_fom_row(plan.labels, *_counts(rep.part, rep.threshold, k), w))
        rows.append(row)
    return _frame(rows, FAIRNESS_COLUMNS)


@_doc
def fdr_curve(
    data: pd.DataFrame,
    /,
    *,
    targets: Sequence[float] = (1e-1, 1e-2, 1e-3),
    weight: float = 0.5,
    scale: Scale = "linear",
    group: str = "group",
    reference_group: str | None = "reference_group",
    impostors: Impostors = "same_group",
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
    r"""FDR at global thresholds set at several FMR targets, and the area under it.

    Parameters
    ----------
    data : DataFrame
        Demographic trial table.
    targets : sequence of float
        FMR targets (at least two), each giving one global threshold (``threshold="far"``).
    weight : float
        The FDR's :math:`\alpha`.
    scale : {"linear", "log"}
        Integration axis of ``au_fdr``: FMR targets (``"linear"``, the FDR authors'
        ``fpr_auc_score``) or log10 FMR targets (``"log"``), rescaled to [0, 1] so that a
        constant FDR has that area.
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
        Dims ``system``, ``split``, ``target``: ``fdr``, ``threshold``, ``fmr_spread``,
        ``fnmr_spread`` (max − min across groups); ``au_fdr`` over (system, split). Scalar
        coords ``weight``, ``scale``, ``impostors``; attrs ``kind="fdr_curve"``.

    Examples
    --------
    >>> ds = pbs.fdr_curve(pbs.datasets.example_demographic_trials(), targets=[0.1, 0.01])
    >>> ds.au_fdr.sel(split="eval").round(3).values.tolist()
    [0.967, 0.885, 0.814]
    """
    data = expand_counts(data, count, trial=trial)
    w = check_weight(weight)
    check_option(scale, _fair.SCALES, "scale")
    t = np.asarray(list(targets), dtype=np.float64) if not np.isscalar(targets) else np.array([])
    if t.size < 2 or np.unique(t).size != t.size or not np.all((t > 0) & (t < 1)):
        raise ValueError(ERROR_TARGETS.format(value=targets))
    planned = [
        _plan(data, group=group, reference_group=reference_group, impostors=impostors,
              threshold="far", target=float(x), on=on, apply_to=apply_to, system=system,
              trial=trial, label=label, score=score, split=split, subject=None, clusters=False,
              orientation=orientation, nonfinite=nonfinite)
        for x in t
    ]
    reps0 = planned[0].reported
    systems = list(dict.fromkeys(r.part.system for r in reps0))
    splits = list(dict.fromkeys(r.part.split for r in reps0))
    shape = (len(systems), len(splits), t.size)
    out = {v: np.full(shape, np.nan) for v in ("fdr", "threshold", "fmr_spread", "fnmr_spread")}
    k = len(planned[0].labels)
    for j, plan in enumerate(planned):
        for rep in plan.reported:
            i, s = systems.index(rep.part.system), splits.index(rep.part.split)
            n_gen, n_imp, fr, fa = _counts(rep.part, rep.threshold, k)
            ok = (n_gen > 0) & (n_imp > 0)
            fmr, fnmr = fa[ok] / n_imp[ok], fr[ok] / n_gen[ok]
            out["fdr"][i, s, j] = _fair.fdr(fmr, fnmr, w)
            out["fmr_spread"][i, s, j] = _fair.spread(fmr)
            out["fnmr_spread"][i, s, j] = _fair.spread(fnmr)
            out["threshold"][i, s, j] = plan.sign * rep.threshold
    au = _fair.area(out["fdr"], t, scale)
    dims = ("system", "split", "target")
    return xr.Dataset(
        {
            "fdr": (dims, out["fdr"], {"long_name": "fairness discrepancy rate", "units": "1"}),
            "threshold": (dims, out["threshold"], {"long_name": "global threshold", "units": "score"}),
            "fmr_spread": (dims, out["fmr_spread"], {"long_name": "max - min FMR", "units": "1"}),
            "fnmr_spread": (dims, out["fnmr_spread"], {"long_name": "max - min FNMR", "units": "1"}),
            "au_fdr": (("system", "split"), au, {"long_name": f"area under FDR ({scale} FMR axis)",
                                                  "units": "1"}),
        },
        coords={"system": systems, "split": ["" if s is None else s for s in splits],
                "target": t, "weight": w, "scale": scale, "impostors": impostors},
        attrs={"kind": "fdr_curve", "orientation": orientation},
    )
