"""Score histograms: small multiples, one axes per system and split, with the threshold.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._core.options import Criterion, NonFinite, Orientation
from .._core.protocol import reported_groups, resolve_splits
from .._core.schema import validate_trials
from ..verification import _metrics

if TYPE_CHECKING:  # pragma: no cover
    from matplotlib.axes import Axes

from ._axes import _LEGEND_OUTSIDE, _fit_width, _pyplot

ERROR_PANELS = (
    "ax= has {got} axes; the histograms need {needed}, one per system and split"
)

def _panels(ax, shape: tuple[int, int], needed: int) -> np.ndarray:
    """The axes of a small-multiples figure: a new ``shape`` grid, or the axes given
    (at least ``needed`` of them, as a two-dimensional array)."""
    if ax is None:
        _, axes = _pyplot("hist").subplots(
            *shape, figsize=(3.4 * shape[1] + 1.8, 2.6 * shape[0] + 0.4), squeeze=False,
            layout="constrained",
        )
        return axes
    axes = np.array(ax, dtype=object)
    axes = axes.reshape(1, -1) if axes.ndim < 2 else axes
    if axes.size < needed:
        raise ValueError(ERROR_PANELS.format(needed=needed, got=axes.size))
    return axes


def _thresholds(data, *, threshold, **kwargs) -> tuple[dict[tuple, tuple[float, str]], str]:
    """(system, split) -> (threshold, how it was chosen), from :func:`pandas_biosig.error_rates`,
    and the legend's description of the policy."""
    er = _metrics.error_rates(data, threshold=threshold, **kwargs)
    thresholds: dict[tuple, tuple[float, str]] = {}
    row: Any  # pandas' stubs type a row's fields as any scalar
    for row in er.itertuples(index=False):
        how = str(row.criterion)
        if row.threshold_split is not None and not pd.isna(row.threshold_split):
            how = f"{how} on {row.threshold_split}"
        thresholds[(row.system, row.split)] = (float(row.threshold), how)
    hows = list(dict.fromkeys(how for _, how in thresholds.values()))
    policy = hows[0] if len(hows) == 1 else f"{threshold}, chosen on each split itself"
    return thresholds, policy


def _layout(groups, ax) -> tuple[list, tuple[int, int], dict]:
    """The splits, the grid shape and the panel index of every group."""
    systems = list(dict.fromkeys(g.system for g in groups))
    splits = list(dict.fromkeys(g.split for g in groups))
    if len(splits) > 1:  # a row per system, a column per split
        shape = (len(systems), len(splits))
        where = {id(g): systems.index(g.system) * len(splits) + splits.index(g.split)
                 for g in groups}
    else:  # systems wrapped in rows of at most three
        n_cols = min(len(groups), 3)
        shape = (-(-len(groups) // n_cols), n_cols)
        where = {id(g): i for i, g in enumerate(groups)}
    if ax is not None:  # the given axes, filled in order
        where = {id(g): i for i, g in enumerate(groups)}
    return splits, shape, where


def hist(
    data: pd.DataFrame,
    /,
    *,
    threshold: Criterion | float | Mapping[Hashable, float] | None = "eer",
    weight: float = 0.5,
    target: float | None = None,
    p_target: float = 0.01,
    c_miss: float = 1.0,
    c_fa: float = 1.0,
    on: Hashable | None = "auto",
    apply_to: Hashable | Sequence[Hashable] | None = "auto",
    bins: int | Sequence[float] | str = "auto",
    density: bool = True,
    ax: Axes | Sequence[Axes] | None = None,
    system: str = "system",
    trial: str = "trial",
    label: str = "label",
    score: str = "score",
    split: str | None = "split",
    orientation: Orientation = "similarity",
    nonfinite: NonFinite = "raise",
) -> np.ndarray:
    r"""Histograms of the genuine and impostor scores, with the decision threshold marked:
    small multiples, one axes per system and split.

    Parameters
    ----------
    data : DataFrame
        The tidy trial table.
    threshold : criterion name, number, mapping or None
        The threshold policy of :func:`pandas_biosig.error_rates` (``"eer"``,
        ``"min_hter"``, ``"far"`` with ``target``..., a number or ``{system: number}``),
        drawn as a vertical line; None draws none.
    weight, target, p_target, c_miss, c_fa, on
        The rest of the threshold policy, as in :func:`pandas_biosig.error_rates`; with
        ``on="dev"`` the threshold is chosen on ``dev`` and drawn on the other splits
        (``"auto"``, the default: on dev when the table has dev and eval splits).
    apply_to : split value, list, "auto" or None, default "auto"
        Draw only these splits (e.g. ``"eval"``); ``"auto"``: the splits
        :func:`pandas_biosig.error_rates` reports (eval when the threshold comes from dev),
        every split without a threshold; None: every split.
    bins : int, sequence or str
        ``numpy.histogram_bin_edges``' ``bins``: an int or a rule gives each axes its own
        edges over its own scores (systems need not share a score scale); a sequence of
        edges is used by every axes.
    density : bool
        Normalize each class on its own (the default, since impostor trials usually
        outnumber genuine ones); False draws counts.
    ax : matplotlib Axes or array of Axes, optional
        Draw into these axes, one per system and split, filled in row order (the array
        is returned, as two-dimensional); by default a new figure (constrained layout).
    system, trial, label, score, split, orientation, nonfinite
        As in :func:`pandas_biosig.error_rates`. Non-finite scores are not drawn.

    Returns
    -------
    numpy.ndarray of matplotlib.axes.Axes
        Always two-dimensional: with several splits a row per system and a column per
        split, otherwise the systems in rows of at most three (one system: shape
        ``(1, 1)``); cells without a system and split are hidden. Each axes holds the
        filled genuine and impostor histograms and a dashed black threshold line, and
        its title names the system (and split) and gives the threshold. One legend, to
        the right of the top-right axes, names the classes and the threshold policy.

    Raises
    ------
    ImportError
        matplotlib is not installed.
    SchemaError, ValueError
        As :func:`pandas_biosig.error_rates`.

    See Also
    --------
    pandas_biosig.error_rates

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> cnn = pbs.datasets.example_trials().query("system == 'cnn'")
    >>> axes = pbs.plot.hist(cnn, on="dev", apply_to="eval")
    >>> axes.shape, axes[0, 0].get_title()
    ((1, 1), 'cnn: threshold -0.211')
    >>> [t.get_text() for t in axes[0, 0].get_legend().get_texts()]
    ['genuine', 'impostor', 'threshold (eer on dev)']
    >>> plt.close(axes[0, 0].figure)
    """
    trials = validate_trials(
        data, system=system, trial=trial, label=label, score=score, split=split, subject=None,
        orientation=orientation, nonfinite=nonfinite,
    )
    sign = -1.0 if trials.orientation == "distance" else 1.0
    chooses = isinstance(threshold, str)
    groups = reported_groups(trials, resolve_splits(trials, on if chooses else None, apply_to,
                                                    chooses=chooses))
    thresholds: dict[tuple, tuple[float, str]] = {}
    policy: str | None = None
    if threshold is not None:
        thresholds, policy = _thresholds(
            data, threshold=threshold, weight=weight, target=target, p_target=p_target,
            c_miss=c_miss, c_fa=c_fa, on=on, apply_to=apply_to, system=system, trial=trial,
            label=label, score=score, split=split, orientation=orientation, nonfinite=nonfinite,
        )
    splits, shape, where = _layout(groups, ax)
    panels = _panels(ax, shape, len(groups))
    edges_all = np.asarray(bins, dtype=float) if not isinstance(bins, int | str) else None
    for g in groups:
        ax_g = panels.flat[where[id(g)]]
        s = sign * g.scores
        gen, imp = s[g.genuine], s[~g.genuine]
        gen, imp = gen[np.isfinite(gen)], imp[np.isfinite(imp)]
        edges = edges_all if edges_all is not None else np.histogram_bin_edges(
            np.concatenate([gen, imp]), bins=bins
        )
        ax_g.hist(gen, bins=edges, density=density, alpha=0.55, color="C0", label="genuine")
        ax_g.hist(imp, bins=edges, density=density, alpha=0.55, color="C1", label="impostor")
        name = str(g.system) + (f" ({g.split})" if len(splits) > 1 else "")
        thr = thresholds.get((g.system, g.split))
        if thr is not None:
            ax_g.axvline(thr[0], color="black", linestyle="--", linewidth=1.2,
                         label=f"threshold ({policy})")
            name += f": threshold {thr[0]:.4g}"
        ax_g.set_title(name, fontsize="medium")
        ax_g.grid(True, color="0.88", linewidth=0.6)
        ax_g.set_ylabel("density" if density else "trials")
        ax_g.set_xlabel(f"{score} (accept iff {score} {'<=' if sign < 0 else '>='} threshold)")
    used = set(where.values())
    for i, ax_g in enumerate(panels.flat):
        if i not in used and ax is None:
            ax_g.set_visible(False)
    top_right = panels[0, min(panels.shape[1], len(groups)) - 1]
    handles, labels = panels.flat[0].get_legend_handles_labels()
    top_right.legend(handles, labels, **_LEGEND_OUTSIDE)
    if ax is None:
        _fit_width(top_right)
    return panels


# ----------------------------------------------------------------------------- accessor
