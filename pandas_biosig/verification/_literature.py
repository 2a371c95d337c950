r"""Literature mode: :func:`eer_bound_table`, pairwise Hofbauer & Uhl bounds from
reported EERs (no trial table needed).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .. import stats
from .._core import pairwise as _pw
from .._core.options import Adjust
from .._core.schema import ERROR_MISSING_COLUMNS, SchemaError
from .._core.validation import check_adjust, check_alpha, check_count, check_rate

__all__ = [
    "EER_BOUND_COLUMNS",
    "eer_bound_table",
]


ERROR_REPORTED_NOT_A_FRAME = (
    "expected a DataFrame of reported EERs (one row per method), got {type}"
)

ERROR_DUPLICATE_SYSTEMS = "{where}lists system(s) {systems} more than once"

ERROR_N_MISSING = (
    "the bound needs N, the number of trials of the common dataset: pass n=<int> or "
    "n='<column>' (the table has columns {found})"
)

ERROR_N_DIFFERS = (
    "{where}has different numbers of trials N ({values}); the bound compares EERs "
    "measured on one common dataset (use by= to separate the datasets)"
)

#: Columns of :func:`eer_bound_table` (after the ``by`` columns).
EER_BOUND_COLUMNS = [
    "system_a",
    "system_b",
    "metric",
    "test",
    "n",
    "estimate",
    "statistic",
    "pvalue",
    "log10_pvalue",
    "adjust",
    "pvalue_adj",
    "alpha",
    "reject",
    "verdict",
    "eer_a",
    "eer_b",
    "min_significant_difference",
    "method",
]


def eer_bound_table(
    reported: pd.DataFrame,
    /,
    *,
    n: int | str | None = None,
    system: str = "system",
    eer: str = "eer",
    alpha: float = 0.05,
    adjust: Adjust | None = "holm",
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    r"""Literature mode: which reported EERs differ significantly (Hofbauer & Uhl bound).

    From a small table of EERs reported on one dataset (one row per method), the bound
    χ²' and p' for every pair, adjusted for multiplicity, and the smallest EER difference
    that is significant for the whole family. No scores are needed.

    Parameters
    ----------
    reported : DataFrame
        One row per method: a ``system`` column and an ``eer`` column (fractions, not
        percent), optionally a column of N and ``by`` columns (one family per dataset).
    n : int or str, optional
        N, the number of trials of the common dataset: a number, or the name of a column
        holding it (constant within each family). Default: the column ``"n"``.
    system, eer : str
        Column names of the method and of its EER.
    alpha : float, default 0.05
        Level of ``reject`` and of ``min_significant_difference``.
    adjust : str or None, default "holm"
        statsmodels ``multipletests`` method code, or None.
    by : str or list of str, optional
        Columns separating the datasets: one family each.

    Returns
    -------
    DataFrame
        One row per unordered pair in input order within each family: the ``by`` columns,
        then (:data:`EER_BOUND_COLUMNS`)

        - ``system_a``, ``system_b``; ``metric`` (``"eer"``); ``test`` (``"eer_bound"``);
          ``n`` (N);
        - ``estimate``: EER_A − EER_B;
        - ``statistic``: χ²'; ``pvalue``: p' = P(χ²₁ > χ²'), an **upper bound** on
          McNemar's p at the EER thresholds; ``log10_pvalue`` (finite where p'
          underflows);
        - ``adjust``, ``pvalue_adj``, ``alpha``, ``reject`` (as :func:`compare`);
        - ``verdict``: ``"significant"`` when rejected, else ``"cannot tell"`` — the bound
          proves a difference, never an equality;
        - ``eer_a``, ``eer_b``: the reported EERs;
        - ``min_significant_difference``: ΔEER of eq. 7 for the family, at the
          per-comparison level ``alpha`` without adjustment and ``alpha / m`` (Bonferroni,
          m pairs) with it, with EER_M the family's largest EER: any pair of the family
          whose EERs differ by at least this much is ``"significant"`` (under Bonferroni,
          Holm, Hommel, Šidák and Benjamini–Hochberg; not guaranteed for the
          Benjamini–Yekutieli and adaptive methods);
        - ``method``: the test's name.

    Raises
    ------
    TypeError
        ``reported`` is not a DataFrame (:data:`ERROR_REPORTED_NOT_A_FRAME`).
    SchemaError
        A missing ``system``, ``eer`` or ``by`` column.
    ValueError
        A missing column of N (:data:`ERROR_N_MISSING`), N that differs within a family
        (:data:`ERROR_N_DIFFERS`), a method listed twice (:data:`ERROR_DUPLICATE_SYSTEMS`),
        fewer than two methods (:data:`ERROR_ONE_SYSTEM`), an EER outside [0, 1]
        (:data:`pandas_biosig.stats.ERROR_RATE`), ``alpha`` outside (0, 1)
        (:data:`ERROR_ALPHA`) or an unknown ``adjust`` (:data:`ERROR_ADJUST`).

    See Also
    --------
    pandas_biosig.stats.eer_bound : the bound for one pair.
    pandas_biosig.stats.min_significant_eer_difference : eq. 7.
    compare : the real test, when the scores are available.

    Notes
    -----
    At the EER thresholds, McNemar's :math:`b - c = (\mathrm{EER}_A - \mathrm{EER}_B) N`
    and :math:`b + c \le (\mathrm{EER}_A + \mathrm{EER}_B) N`, so

    .. math::

        \chi^{2\prime} = \frac{N(\mathrm{EER}_A - \mathrm{EER}_B)^2}
                              {\mathrm{EER}_A + \mathrm{EER}_B}
        \le \chi^2_{McNemar}, \qquad
        \Delta\mathrm{EER} = \sqrt{\frac{2\,\chi^{2*}\,\mathrm{EER}_M}{N}}.

    A large p' says nothing: the real McNemar p-value may still be small.

    References
    ----------
    Hofbauer, H., & Uhl, A. (2016). Calculating a boundary for the significance from the
    equal-error rate. In *Proceedings of the 2016 International Conference on Biometrics
    (ICB)* (pp. 1–4). IEEE.

    Examples
    --------
    Example 3 of the paper (Casia v1.0; TAN entered at 0.58 %, the EER_M the paper uses):

    >>> reported = pd.DataFrame({
    ...     "system": ["TAN", "DAUGMAN", "MA", "YAO", "BASTYS"],
    ...     "eer": [0.0058, 0.0008, 0.0007, 0.0028, 0.0]})
    >>> tab = pbs.eer_bound_table(reported, n=285390, alpha=0.01, adjust=None)
    >>> print(f"{tab.min_significant_difference.iloc[0]:.4%}")
    0.0519%
    >>> tab[["system_a", "system_b", "statistic", "pvalue", "verdict"]].iloc[4:6].round(4)
      system_a system_b  statistic  pvalue      verdict
    4  DAUGMAN       MA     1.9026  0.1678  cannot tell
    5  DAUGMAN      YAO   317.1000  0.0000  significant
    """
    if not isinstance(reported, pd.DataFrame):
        raise TypeError(ERROR_REPORTED_NOT_A_FRAME.format(type=type(reported).__name__))
    alpha = check_alpha(alpha)
    adjust = check_adjust(adjust)
    by_cols = [] if by is None else ([by] if isinstance(by, str) else list(by))
    n_col = "n" if n is None else (n if isinstance(n, str) else None)
    needed = [*by_cols, system, eer] + ([n_col] if n_col is not None else [])
    missing = [c for c in needed if c not in reported.columns]
    if n_col is not None and n_col in missing:
        raise ValueError(ERROR_N_MISSING.format(found=list(reported.columns)))
    if missing:
        raise SchemaError(
            ERROR_MISSING_COLUMNS.format(missing=missing, found=list(reported.columns))
        )
    if n_col is None:
        n_fixed = check_count(n, "n", positive=True)
    groups = reported.groupby(by_cols, sort=False) if by_cols else [((), reported)]
    rows, family_of = [], []
    for i_fam, (key, sub) in enumerate(groups):
        key = key if isinstance(key, tuple) else (key,)
        where = "".join(f"{c}={v!r} " for c, v in zip(by_cols, key, strict=True))
        systems = list(sub[system])
        dup = pd.Index(systems)[pd.Index(systems).duplicated()].unique().tolist()
        if dup:
            raise ValueError(ERROR_DUPLICATE_SYSTEMS.format(where=where or "the table ",
                                                            systems=dup))
        if n_col is None:
            n_fam = n_fixed
        else:
            values = pd.unique(sub[n_col])
            if len(values) != 1:
                raise ValueError(ERROR_N_DIFFERS.format(where=where or "the table ",
                                                        values=list(values)))
            n_fam = check_count(values[0], "n", positive=True)
        eers = [check_rate(float(v), f"{eer} of {s!r}") for s, v in
                zip(systems, sub[eer], strict=True)]
        pairs = _pw.pairs(systems, None, where.strip() or "the table")
        m = len(pairs)
        level = alpha if adjust is None else alpha / m
        delta = stats.min_significant_eer_difference(max(eers), n=n_fam, alpha=level)
        for a, b in pairs:
            res = stats.eer_bound(eers[a], eers[b], n=n_fam)
            row = dict(zip(by_cols, key, strict=True))
            row.update(system_a=systems[a], system_b=systems[b], metric="eer",
                       test="eer_bound", n=n_fam, estimate=res.estimate,
                       statistic=res.statistic, pvalue=res.pvalue,
                       log10_pvalue=res.log10_pvalue, eer_a=eers[a], eer_b=eers[b],
                       min_significant_difference=delta, method=res.method)
            rows.append(row)
            family_of.append(i_fam)
    out = _pw.finish(rows, by_cols, EER_BOUND_COLUMNS, family_of, adjust, alpha)
    out["verdict"] = np.where(out["reject"], "significant", "cannot tell")
    return out
