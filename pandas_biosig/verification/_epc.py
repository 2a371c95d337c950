r"""The Expected Performance Curve (EPC) and its bootstrap bands.

:func:`epc` chooses a threshold on one split for every weight of a grid and reports
the rates it gives on another split (Bengio, Mariéthoz & Keller 2005);
:func:`epc_bootstrap` keeps those thresholds fixed and resamples the reporting split, the
same trials for every system, for percentile bands of every curve and of the difference of
every pair. Both return an :class:`xarray.Dataset` built like the other curves
(:mod:`pandas_biosig.verification._curves`, which re-exports :func:`epc`;
:mod:`pandas_biosig.verification._resampling` re-exports :func:`epc_bootstrap`).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import numpy as np
import pandas as pd
import xarray as xr

from .._core.counted import expand_counts
from .._core.criteria import choose_epc
from .._core.curve_datasets import (
    Layout,
    epc_dataset,
    rate_grid,
)
from .._core.frames import group_sweep, orientation_sign
from .._core.options import EPCCriterion, NonFinite, Orientation, ResampleOption
from .._core.protocol import (
    AUTO,
    ERROR_ON_MISSING,
    Protocol,
    one_reported_split,
    people,
    reported_groups,
    resolve_splits,
    select_split,
)
from .._core.replicates import align_pair, check_common, make_rng, replicate_progress
from .._core.schema import SchemaError, Trials, check_option, validate_trials
from .._kernels import curves as _k
from .._kernels.curves import EPC_CRITERIA
from .._kernels.resample import cell_draws, people_weights, percentile_interval, uniform_counts

__all__ = ['DEFAULT_WEIGHTS', 'epc', 'epc_bootstrap']


ERROR_SPLIT_SCALAR = "{name} must be one split value, got {value!r}"

#: The default EPC weight grid: 0, 0.01, ..., 1 (includes 0.5, the HTER criterion).
DEFAULT_WEIGHTS = np.linspace(0.0, 1.0, 101)


def _split_value(value, name):
    if isinstance(value, list | tuple | np.ndarray | pd.Index | pd.Series | set):
        raise ValueError(ERROR_SPLIT_SCALAR.format(name=name, value=value))
    return value


def _epc_splits(trials: Trials, on, apply_to) -> tuple[Hashable | None, list]:
    """The split the thresholds are chosen on (None: the reported trials themselves) and
    the groups of the one reported split, as the protocol resolves them."""
    on = _split_value(on, "on")
    apply_to = _split_value(apply_to, "apply_to")
    splits = resolve_splits(trials, on, apply_to)
    one_reported_split(trials, splits, "epc")
    return splits.on, reported_groups(trials, splits)


def _epc_thresholds(
    trials: Trials, *, criterion: str, weights: np.ndarray, on: Hashable | None, targets
) -> tuple[list[tuple], np.ndarray]:
    """The thresholds an EPC chooses on split ``on`` (None: on the reported groups
    ``targets`` themselves): one row per (``by`` group, system).

    Returns ``(keys, thresholds)``: ``keys[i]`` is ``(*by values, system)`` and
    ``thresholds[i, k]`` the *oriented* threshold (higher score = more genuine; multiply by
    ``orientation_sign(trials)`` for score units) chosen for ``weights[k]``. This is the step that a
    bootstrap keeps fixed while it resamples the split the thresholds are applied to.
    """
    source = targets if on is None else select_split(trials, on, name="on")
    keys = [g.key[:-1] for g in source]
    out = np.empty((len(source), weights.size))
    for i, g in enumerate(source):
        out[i] = choose_epc(group_sweep(g), weights, criterion)
    return keys, out


def epc(
    data: pd.DataFrame,
    /,
    *,
    criterion: EPCCriterion = "min_weighted",
    weight=None,
    on: Hashable | None = AUTO,
    apply_to: Hashable | None = AUTO,
    by: str | Sequence[str] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
    count: str | None = None,
) -> xr.Dataset:
    r"""Expected Performance Curve: thresholds chosen on one split, rates on another.

    For each weight :math:`\alpha` of the grid, the threshold
    :math:`\theta^*(\alpha) = \arg\min_\theta C(\theta; \alpha)` is chosen on split ``on``
    and the rates it gives are reported on split ``apply_to`` (Bengio, Mariéthoz & Keller
    2005, Algorithm 1).

    Parameters
    ----------
    data : DataFrame
        Tidy trial table with a split column (see :func:`roc`).
    criterion : {"min_weighted", "precision_recall", "far", "frr"}
        :math:`C(\theta; \alpha)` on the ``on`` split:

        - ``"min_weighted"`` (eq. 10): :math:`\alpha FAR + (1-\alpha) FRR` (0.5: min HTER);
        - ``"precision_recall"`` (eq. 11): :math:`-(\alpha P + (1-\alpha) R)` with
          precision :math:`P = TP/(TP+FA)` (0 where nothing is accepted) and recall
          :math:`R = 1 - FRR`;
        - ``"far"`` (eq. 12): :math:`|\alpha - FAR|`, the FAR *nearest* to the target
          (not "at most");
        - ``"frr"`` (eq. 13): :math:`|\alpha - FRR|`.

        Candidate thresholds and ties follow bob.measure (SPEC §2): midpoints between
        consecutive distinct scores; among equal criterion values the smaller FAR + FRR,
        then the higher threshold.
    weight : float or array of float in [0, 1], optional
        The :math:`\alpha` grid (a number gives a grid of one); default ``np.linspace(0, 1, 101)`` (steps of 0.01,
        includes 0.5).
    on : split value, "auto" or None, default "auto"
        The split the thresholds are chosen on (the development set). ``"auto"``
        (:mod:`pandas_biosig._core.protocol`): the dev split of a table with dev and eval
        splits; otherwise the reported trials themselves (the optimistic a-posteriori
        curve, ``threshold_from="same trials"``), as ``on=None`` asks.
    apply_to : split value or "auto", default "auto"
        The one split the rates are reported on (the test set): ``"auto"``, the eval
        split when thresholds come from dev, else the table's only split (or the whole
        table without a split column). ``on == apply_to`` gives the a-posteriori curve.
    by, system, trial, label, score, split, orientation, nonfinite
        As in :func:`roc`.
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    Dataset
        Dims: the ``by`` columns, ``system`` and ``weight`` (coordinate = the weights).
        Variables over (..., ``system``, ``weight``):

        - ``threshold``: :math:`\theta^*(\alpha)` chosen on ``on``, in score units;
        - ``far``, ``frr``, ``hter`` = (FAR + FRR)/2: on ``apply_to`` at that threshold;
        - ``value``: the criterion's own quantity on ``apply_to``:
          :math:`\alpha FAR + (1-\alpha) FRR` (``"min_weighted"``), F1 =
          :math:`2TP/(2TP + FA + FR)` (``"precision_recall"``), FAR (``"far"``), FRR
          (``"frr"``).

        Over (..., ``system``):

        - ``area``: the mean of ``value`` over the ``weight`` grid (eqs. 15-16: the area
          under the EPC, a plain mean, which is the integral for a uniform grid over
          [0, 1]);
        - ``area_hter``: the mean of ``hter`` over the grid (:math:`E[V]` of eqs. 15-16
          with :math:`V` = HTER, the paper's summary for person authentication);
        - ``eer``: the ROC convex hull EER of the ``apply_to`` split (the a-posteriori
          number the EPC is an honest version of);
        - ``n_genuine``, ``n_impostor``: trials of the ``apply_to`` split.

        Scalar coords ``split`` (the reported split), ``threshold_split`` (the split the
        thresholds were chosen on) and ``threshold_from`` (that split, or ``"same
        trials"``). Attrs: ``kind="epc"``, ``criterion``, ``on``, ``apply_to``,
        ``orientation``, ``pandas_biosig_version``.

    Raises
    ------
    SchemaError
        A named ``on``/``apply_to`` that is not a split of the table (or no split
        column), several splits to report (pass ``apply_to``), or a system without trials
        in ``on``.
    ValueError
        An unknown ``criterion``, or ``weight`` outside [0, 1].

    See Also
    --------
    roc, pandas_biosig.error_rates

    Notes
    -----
    With the thresholds chosen on the test split itself and tie-free scores, the average
    of the target-FAR and target-FRR curves' ``area_hter`` relates to the area
    :math:`A = 1 - AUC` under the (FAR, FRR) curve (eq. 18):
    :math:`\frac12\{E_{V1}[V] + E_{V2}[V]\} = \frac12(A + \frac12)`, up to the
    :math:`O(1/N)` end effects of a finite sample.

    References
    ----------
    Bengio, S., Mariéthoz, J., & Keller, M. (2005). The expected performance curve.
    ICML Workshop on ROC Analysis in Machine Learning.

    Examples
    --------
    >>> import pandas_biosig as pbs
    >>> from pandas_biosig import epc
    >>> trials = pbs.datasets.example_trials()
    >>> ds = epc(trials)
    >>> dict(ds.sizes)
    {'system': 4, 'weight': 101}
    >>> ds.hter.sel(weight=0.5).round(4).values.tolist()
    [0.051, 0.0453, 0.1052, 0.1625]
    >>> ds.area_hter.round(4).values.tolist()
    [0.0673, 0.0733, 0.1363, 0.2368]

    At weight 0.5 the HTER is that of ``pbs.error_rates(trials, threshold="min_hter",
    on="dev", apply_to="eval")``. Compare with bob.measure:
    ``epc(dev_neg, dev_pos, eval_neg, eval_pos, 101)`` gives the same ``hter`` for the
    ``"min_weighted"`` criterion (except where bob.measure returns the reject-all threshold at
    a weight of exactly 0 or 1 although another candidate ties with a smaller FRR; SPEC §2).
    """
    data = expand_counts(data, count, trial=trial)
    check_option(criterion, EPC_CRITERIA, "criterion")
    alpha = DEFAULT_WEIGHTS.copy() if weight is None else rate_grid(weight, "weight", scalar=True)
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=None, by=by, orientation=orientation, nonfinite=nonfinite,
    )
    on, targets = _epc_splits(trials, on, apply_to)
    keys, dev_thr = _epc_thresholds(trials, criterion=criterion, weights=alpha, on=on,
                                    targets=targets)
    rows = _epc_rows(trials, targets, keys, dev_thr, alpha, criterion, on)
    layout = Layout(trials, targets, with_split=False)
    return epc_dataset(trials, layout, rows, alpha, criterion, on, targets[0].split, score)


def _epc_rows(trials, targets, keys, dev_thr, alpha, criterion, on) -> dict[str, list]:
    """Per ``apply_to`` group: the thresholds chosen on ``on`` (score units), the rates
    they give, the criterion value, its mean over the grid, the EER and the counts."""
    row = {k: i for i, k in enumerate(keys)}
    sign = orientation_sign(trials)
    names = ("threshold", "far", "frr", "hter", "value", "area", "area_hter", "eer",
             "n_genuine", "n_impostor")
    out: dict[str, list] = {name: [] for name in names}
    for g in targets:
        if g.key[:-1] not in row:
            where = "".join(f", {b}={v!r}" for b, v in zip(trials.by, g.key, strict=False))
            raise SchemaError(ERROR_ON_MISSING.format(system=g.system, on=on, where=where))
        t = dev_thr[row[g.key[:-1]]]
        sw = group_sweep(g)
        fa, fr = sw.rates_at_threshold(t)
        r_far, r_frr, r_hter, r_value = _k.epc_values(fa, fr, sw.n, sw.p, alpha, criterion)
        for name, v in zip(names, (sign * t, r_far, r_frr, r_hter, r_value, r_value.mean(),
                                   r_hter.mean(), sw.eer_rocch(), sw.p, sw.n), strict=True):
            out[name].append(v)
    return out


#: The ``long_name`` of the ``value`` variable, per criterion.
# ------------------------------------------------------------------------- bootstrap bands
def epc_bootstrap(
    data: pd.DataFrame,
    /,
    *,
    criterion: EPCCriterion = "min_weighted",
    weight=None,
    on: Hashable | None = AUTO,
    apply_to: Hashable | None = AUTO,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    resample: ResampleOption = "auto",
    seed: int | np.random.Generator | None = None,
    progress: bool | None = None,
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
):
    r"""Expected Performance Curve with bootstrap bands, and where two systems differ.

    The thresholds :math:`\theta^*(\alpha)` are chosen once on ``on``; the ``apply_to``
    trials are resampled with replacement (whole subjects by default when the table has a
    subject column, see ``resample``), the same draw for every system (paired), and
    the rates at the fixed thresholds are recomputed for every replicate (Bengio,
    Mariéthoz & Keller 2005, section 5 and Fig. 8).

    Parameters
    ----------
    data : DataFrame
        Tidy trial table with a split column; the systems must share their ``apply_to``
        trials.
    criterion, weight, on, apply_to
        As in :func:`pandas_biosig.epc`.
    n_resamples, confidence_level, resample, seed, progress
        As in :func:`pandas_biosig.bootstrap`.
    system, trial, label, score, split, subject, reference_subject, orientation, nonfinite
        Column names and policies, as in :func:`pandas_biosig.bootstrap` (with subject and
        reference subject columns, people are drawn in both roles: ``"two_way"``).
    count : str, optional
        A column of non-negative integers: each row stands for that many identical
        trials (a frequency weight; a row counted 0 is left out). Every number equals
        that of the table with each row repeated ``count`` times, to the bit (see
        docs/schema.md, "Counted trials"; a table expanded in memory holds at most
        10**8 trials).

    Returns
    -------
    xarray.Dataset
        Everything :func:`pandas_biosig.epc` returns, plus

        - ``hter_low``, ``hter_high``, ``value_low``, ``value_high`` over
          (``system``, ``weight``): percentile bands of ``hter`` and ``value``;
        - over (``pair``, ``weight``), one entry per unordered pair of systems in input order
          (coords ``system_a``, ``system_b`` on ``pair``): ``difference`` (HTER of A minus
          HTER of B), ``difference_low``, ``difference_high`` (its percentile interval)
          and ``significant`` (the interval excludes 0).

        Attrs add ``n_resamples``, ``confidence_level`` and ``resample``.

    Notes
    -----
    ``significant`` is marked weight by weight, with no correction for the many weights
    of the grid; read it as the paper's Fig. 8 does, as the region where the systems
    differ, not as one test.

    With ``resample="label"`` or ``"trial"``, a replicate at one weight is drawn from the
    counts of four cells per class (each system: accepted or not at that weight's
    threshold; each pair: both, A only, B only, neither): exactly the distribution of
    resampling the trials, at O(1) per replicate and weight. Weights are drawn
    independently of each other. With ``resample="subject"`` a replicate draws the
    subjects once and counts every trial by its subject's multiplicity, at every weight.

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> ds = pbs.epc_bootstrap(trials, weight=np.linspace(0.1, 0.9, 9), n_resamples=200, seed=0)
    >>> ds.pair.size, ds.significant.dims
    (6, ('pair', 'weight'))
    >>> bool(ds.significant.sel(pair="cnn vs lbp").all())
    True
    """
    data = expand_counts(data, count, trial=trial)
    check_common(n_resamples, confidence_level, resample, "percentile")
    ds = epc(
        data, criterion=criterion, weight=weight, on=on, apply_to=apply_to, system=system,
        trial=trial, label=label, score=score, split=split, orientation=orientation,
        nonfinite=nonfinite,
    )
    alpha = ds["weight"].values
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split,
        subject=subject, by=None, orientation=orientation, nonfinite=nonfinite,
        reference_subject=reference_subject,
    )
    resample = Protocol(resample=resample).unit(trials, subject=subject,
                                                reference_subject=reference_subject)
    aligned, buckets, orders = _threshold_buckets(trials, criterion, alpha, on, apply_to)
    apply_to = aligned[0].split
    genuine = aligned[0].genuine
    rng = make_rng(seed)
    if resample == "label" and (genuine.all() or not genuine.any()):
        raise SchemaError("the apply_to split needs both genuine and impostor trials")
    if resample in ("label", "trial"):  # counts per cell between the fixed thresholds
        (hter, value), diff = _epc_cell_replicates(rng, buckets, orders, genuine, alpha,
                                                   criterion, n_resamples, resample)
        replicate_progress(progress, n_resamples, "EPC bootstrap")(n_resamples)
    else:
        (hter, value), diff = _epc_subject_replicates(rng, aligned, buckets, orders, alpha,
                                                      criterion, n_resamples, apply_to, progress, resample)
    return _epc_result(ds, aligned, hter, value, diff, confidence_level, n_resamples, resample)


def _threshold_buckets(trials, criterion, alpha, on, apply_to):
    """The ``apply_to`` groups aligned on the first one's trials, and per system, for every
    trial, how many of the thresholds chosen on ``on`` (sorted) it reaches, with the
    order that sorts the thresholds."""
    on, targets = _epc_splits(trials, on, apply_to)
    keys, dev_thr = _epc_thresholds(trials, criterion=criterion, weights=alpha, on=on,
                                    targets=targets)
    row = {k: i for i, k in enumerate(keys)}
    ref = targets[0]
    aligned = [align_pair(ref, g, common_trials=False)[1] for g in targets]
    buckets, orders = [], []
    for g in aligned:
        t = dev_thr[row[g.key[:-1]]]
        order = np.argsort(t, kind="stable")
        buckets.append(np.searchsorted(t[order], g.scores, side="right"))
        orders.append(order)
    return aligned, buckets, orders


def _epc_subject_replicates(rng, aligned, buckets, orders, alpha, criterion, n_resamples,
                            apply_to, progress, unit="subject"):
    """Replicated HTER and criterion value of every system, and HTER differences of every
    pair, drawing whole subjects (or, ``unit="two_way"``, people in both roles: an impostor
    trial weighs the product of its two people's multiplicities): per chunk of
    replicates, the trials' multiplicities, then
    each system's accepted counts per bucket (one gather and one reduceat per chunk)."""
    ref = aligned[0]
    genuine = ref.genuine
    n_w, n_trials, k = alpha.size, genuine.size, len(aligned)
    codes, refs, n_subjects = people(ref, unit, f"split {apply_to!r}")
    layouts = [_bucket_layout(b, genuine, n_w) for b in buckets]
    hter = np.empty((n_resamples, k, n_w))
    value = np.empty((n_resamples, k, n_w))
    tick = replicate_progress(progress, n_resamples, "EPC bootstrap")
    chunk = max(1, min(n_resamples, int(2e7 // max(n_trials, 1))))
    imp_idx = np.flatnonzero(~genuine)
    gen_idx = np.flatnonzero(genuine)
    for lo in range(0, n_resamples, chunk):
        b_c = min(chunk, n_resamples - lo)
        mult = np.stack([people_weights(uniform_counts(rng, n_subjects), codes, refs, genuine)
                         for _ in range(b_c)])
        w = mult.astype(np.int32)
        n = w[:, imp_idx].sum(axis=1, dtype=np.int64)[:, None]
        p = w[:, gen_idx].sum(axis=1, dtype=np.int64)[:, None]
        for s, (layout, t_order) in enumerate(zip(layouts, orders, strict=True)):
            fa, fr = _bucket_counts(w, layout, t_order, p, n_w)
            with np.errstate(invalid="ignore", divide="ignore"):
                _, _, hter[lo : lo + b_c, s], value[lo : lo + b_c, s] = _k.epc_values(
                    fa, fr, n, p, alpha, criterion
                )
        tick(lo + b_c)
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    diff = np.stack([hter[:, a] - hter[:, b] for a, b in pairs], axis=1) if pairs else None
    return (hter, value), diff


def _bucket_layout(bucket: np.ndarray, genuine: np.ndarray, n_w: int):
    """One system's trials grouped by bucket, impostors first: the order and the start of
    each (class, bucket) run."""
    key = bucket + (n_w + 1) * genuine
    order = np.argsort(key, kind="stable")
    starts = np.searchsorted(key[order], np.arange(2 * (n_w + 1)))
    return order, starts


def _bucket_counts(w, layout, t_order, p, n_w):
    """False accepts and false rejects of one system at every weight's threshold, for each
    replicate of multiplicities ``w`` (replicates x trials)."""
    order, starts = layout
    b_c, n_trials = w.shape
    per = np.add.reduceat(w[:, order], np.minimum(starts, n_trials - 1), axis=1,
                          dtype=np.int64)
    per[:, np.diff(np.append(starts, n_trials)) == 0] = 0  # empty buckets
    acc_imp, acc_gen = per[:, : n_w + 1], per[:, n_w + 1 :]
    # the threshold of sorted rank r accepts the trials whose bucket is > r
    fa_sorted = np.cumsum(acc_imp[:, ::-1], axis=1)[:, ::-1][:, 1:]
    tp_sorted = np.cumsum(acc_gen[:, ::-1], axis=1)[:, ::-1][:, 1:]
    fa = np.empty((b_c, n_w))
    fr = np.empty((b_c, n_w))
    fa[:, t_order] = fa_sorted
    fr[:, t_order] = p - tp_sorted
    return fa, fr


def _epc_cell_replicates(rng, buckets, orders, genuine, alpha, criterion, n_resamples,
                         resample):
    """Replicated HTER and criterion value of every system, and HTER differences of every
    pair, weight by weight from cell counts: at one weight a system's rates depend on a
    trial only through its class and whether the weight's threshold accepts it, a pair's
    difference through the class and both decisions (four cells per class)."""
    m = alpha.size + 1  # buckets: how many sorted thresholds a trial reaches
    # the threshold of weight w accepts the trials whose bucket exceeds its rank
    first = [np.argsort(order, kind="stable") + 1 for order in orders]
    classes = (~genuine, genuine)

    def at_least(b):
        """Per class: the number of trials whose bucket is >= i, for i = 0..m."""
        hist = [np.bincount(b[c], minlength=m) for c in classes]
        return [np.concatenate((np.cumsum(h[::-1])[::-1], [0])) for h in hist]

    def draw(sizes):
        """Counts of the impostor and the genuine cells (sizes: class x cell x weight)."""
        sizes = np.asarray(sizes)
        if resample == "label":
            return cell_draws(rng, sizes[0], n_resamples), cell_draws(rng, sizes[1], n_resamples)
        c = cell_draws(rng, sizes.reshape(-1, sizes.shape[-1]), n_resamples)
        return c[:, : sizes.shape[1]], c[:, sizes.shape[1] :]

    def rates(fa, fr, n, p):
        with np.errstate(invalid="ignore", divide="ignore"):
            _, _, hter, value = _k.epc_values(fa, fr, n, p, alpha, criterion)
        return hter, value

    k = len(buckets)
    totals = [int(np.count_nonzero(c)) for c in classes]
    single = []
    hter = np.empty((n_resamples, k, alpha.size))
    value = np.empty((n_resamples, k, alpha.size))
    for s in range(k):
        acc = [ge[first[s]] for ge in at_least(buckets[s])]  # per class, per weight
        single.append(acc)
        ci, cg = draw([[a, t - a] for a, t in zip(acc, totals, strict=True)])
        hter[:, s], value[:, s] = rates(ci[:, 0], cg[:, 1], ci.sum(axis=1), cg.sum(axis=1))
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    if not pairs:
        return (hter, value), None
    diff = np.empty((n_resamples, len(pairs), alpha.size))
    for j, (a, b) in enumerate(pairs):
        sizes = []
        for c, cls in enumerate(classes):
            h = np.bincount(buckets[a][cls] * m + buckets[b][cls], minlength=m * m)
            both_ge = np.zeros((m + 1, m + 1), dtype=np.int64)
            both_ge[:m, :m] = h.reshape(m, m)[::-1, ::-1].cumsum(0).cumsum(1)[::-1, ::-1]
            both = both_ge[first[a], first[b]]
            only_a = single[a][c] - both
            only_b = single[b][c] - both
            sizes.append([both, only_a, only_b, totals[c] - both - only_a - only_b])
        ci, cg = draw(sizes)  # cells: both accept, A only, B only, neither
        n, p = ci.sum(axis=1), cg.sum(axis=1)
        ha, _ = rates(ci[:, 0] + ci[:, 1], cg[:, 2] + cg[:, 3], n, p)
        hb, _ = rates(ci[:, 0] + ci[:, 2], cg[:, 1] + cg[:, 3], n, p)
        diff[:, j] = ha - hb
    return (hter, value), diff


def _epc_result(ds, aligned, hter, value, diff, level, n_resamples, resample):
    k = len(aligned)
    n_w = hter.shape[-1]
    band = {}
    for name, arr in (("hter", hter), ("value", value)):
        low, high = percentile_interval(arr, level)
        for suffix, vals in (("low", low), ("high", high)):
            band[f"{name}_{suffix}"] = (
                ("system", "weight"),
                vals,
                {"long_name": f"{100 * level:g}% bootstrap {suffix} bound of {name}", "units": "1"},
            )
    names = [g.system for g in aligned]
    pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
    if pairs:
        d_low, d_high = percentile_interval(diff, level)
    else:  # one system: bands only, an empty pair dimension
        d_low = d_high = np.zeros((0, n_w))
    point = ds.hter.values
    est = np.array([point[a] - point[b] for a, b in pairs]).reshape(len(pairs), n_w)
    out = ds.assign(**{name: xr_var for name, xr_var in band.items()})
    pair_labels = [f"{names[a]} vs {names[b]}" for a, b in pairs]
    out = out.assign_coords(
        pair=("pair", pair_labels),
        system_a=("pair", [str(names[a]) for a, _ in pairs]),
        system_b=("pair", [str(names[b]) for _, b in pairs]),
    )
    frac = {"units": "1"}
    out["difference"] = (("pair", "weight"), est, {"long_name": "HTER of A minus HTER of B", **frac})
    out["difference_low"] = (("pair", "weight"), d_low,
                             {"long_name": f"{100 * level:g}% bootstrap low bound of difference", **frac})
    out["difference_high"] = (("pair", "weight"), d_high,
                              {"long_name": f"{100 * level:g}% bootstrap high bound of difference", **frac})
    out["significant"] = (("pair", "weight"), (d_low > 0) | (d_high < 0),
                          {"long_name": "the difference interval excludes 0"})
    out.attrs.update(n_resamples=int(n_resamples), confidence_level=float(level), resample=resample)
    return out
