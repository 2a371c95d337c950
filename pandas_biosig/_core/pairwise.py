"""Pairs, families, p-value adjustment and the matrix view: the one rule of every
pairwise table of the package.

A documented internal module: :func:`pandas_biosig.compare`, the repeated-run and
literature tables, :func:`pandas_biosig.compare_identification`, the PAD and demographic
comparisons and the dask :func:`pandas_biosig.outofcore.compare` import from here.

- **Pairs** come in input order: all unordered pairs ``(a, b)`` with ``a`` before ``b``, or
  each system against a ``baseline`` (:func:`pairs`).
- A **family** of tests is one (``by`` group, split): the rows of the returned table that
  share those values (:func:`families`).
- Multiple-comparison **adjustment** (statsmodels ``multipletests``, its codes passed through
  unchanged) runs once per family, over exactly those rows (:func:`adjust_pvalues`,
  :func:`finish`).
- :func:`pairwise_matrix` is the k × k view of one column of such a table.
"""

from __future__ import annotations

import gc
import itertools
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .validation import adjust_methods

if TYPE_CHECKING:
    from .protocol import Resolved
    from .results import TestResult
    from .schema import Trials

__all__ = [
    'ADJUST_METHODS',
    'ERROR_BASELINE',
    'ERROR_MATRIX_COLUMN',
    'ERROR_MATRIX_DUPLICATE_PAIRS',
    'ERROR_MATRIX_FAMILIES',
    'ERROR_NOT_PAIRWISE',
    'ERROR_ONE_SYSTEM',
    'NAN_ROW',
    'PAIR_COLUMNS',
    'SIGNED_STATISTIC',
    'adjust_pvalues',
    'families',
    'family_plans',
    'family_names',
    'finish',
    'in_where',
    'key_where',
    'pairs',
    'pair_row',
    'pairwise_matrix',
    'row_of',
    'where',
]

#: Every method code statsmodels' ``multipletests`` accepts (passed through unchanged).
ADJUST_METHODS: tuple[str, ...] = adjust_methods()
#: Tests whose ``statistic`` is a signed z (it changes sign when A and B are swapped).
SIGNED_STATISTIC = frozenset({
    "hter_dependent", "hter_independent", "naive", "class", "gunter_simple", "gunter_paired",
    "bootstrap",
})

ERROR_ONE_SYSTEM = (
    "{where} has only one system ({systems}); a comparison needs at least two systems"
)
ERROR_BASELINE = "baseline={value!r} is not one of the {kind} of {where}; its {kind}: {found}"
ERROR_NOT_PAIRWISE = (
    "expected a pairwise table with columns 'system_a' and 'system_b' (the result of "
    "compare, compare_folds or eer_bound_table); its columns: {found}"
)
ERROR_MATRIX_COLUMN = "col={col!r} is not a column of the table; its columns: {found}"
ERROR_MATRIX_FAMILIES = (
    "the table holds {n} families of tests ({names}: {families}); a matrix shows one: "
    "select its rows first, e.g. table[table[{first!r}] == {example!r}]"
)
ERROR_MATRIX_DUPLICATE_PAIRS = (
    "the table holds the pair ({a!r}, {b!r}) {n} times (several tests or a concatenation "
    "of results?); a matrix shows one value per pair: select one test's rows first"
)

# --------------------------------------------------------------------------- pairs and families


def key_where(names: Sequence[str], values: Sequence[Any]) -> str:
    parts = [f"{n}={v!r}" for n, v in zip(names, values, strict=True) if n != "split" or v is not None]
    return ", ".join(parts)


def families(
    trials: Trials, members: list[Resolved], n_by: int
) -> list[tuple[tuple, list[Resolved]]]:
    """Members grouped by (``by`` values, split), families and systems in input order."""
    out: dict[tuple, list[Resolved]] = {}
    for m in members:
        key = m.group.key
        out.setdefault((*key[:n_by], key[-1]), []).append(m)
    return list(out.items())


def family_names(trials: Trials, n_by: int) -> list[str]:
    return [*trials.by[:n_by], "split"]


def where(names: Sequence[str], fam: tuple) -> str:
    text = key_where(names, fam)
    return text if text else "the table"


def in_where(names: Sequence[str], fam: tuple) -> str:
    text = key_where(names, fam)
    return f" in {text}" if text else ""


def pairs(systems: list, baseline, where: str, kind: str = "systems") -> list[tuple[int, int]]:
    """Index pairs (a, b) in input order: all unordered pairs, or each member vs baseline
    (``kind`` names the members in the error message: systems, groups)."""
    if len(systems) < 2:
        raise ValueError(ERROR_ONE_SYSTEM.format(where=where, systems=systems))
    if baseline is None:
        return list(itertools.combinations(range(len(systems)), 2))
    if baseline not in systems:
        raise ValueError(ERROR_BASELINE.format(value=baseline, where=where, kind=kind,
                                               found=systems))
    b = systems.index(baseline)
    return [(a, b) for a in range(len(systems)) if a != b]


def family_plans(
    trials: Trials, members: list[Resolved], n_by: int, baseline
) -> tuple[list[str], list[tuple[tuple, list[Resolved], list[tuple[int, int]]]]]:
    """The family key names and, per family, its members and the index pairs to test."""
    names = family_names(trials, n_by)
    plans = []
    for fam, fam_members in families(trials, members, n_by):
        systems = [m.group.system for m in fam_members]
        plans.append((fam, fam_members, pairs(systems, baseline, where(names, fam))))
    return names, plans


# --------------------------------------------------------------------------- adjustment


def adjust_pvalues(pvalues: np.ndarray, adjust: str | None, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Adjusted p-values and rejections of one family (NaN p-values are left out)."""
    p = np.asarray(pvalues, dtype=np.float64)
    p_adj = np.full(p.shape, np.nan)
    reject = np.zeros(p.shape, dtype=bool)
    ok = np.isfinite(p)
    if not ok.any():
        return p_adj, reject
    if adjust is None:
        p_adj[ok] = p[ok]
        reject[ok] = p[ok] <= alpha
        return p_adj, reject
    from statsmodels.stats.multitest import multipletests

    # statsmodels' Holm branch calls gc.collect(), which costs a full collection of the
    # process (~0.2 s with pandas and scipy loaded) for every family (statsmodels PR
    # #8671). Freezing the existing objects first makes it collect only the new ones;
    # skipped when the caller has frozen objects of their own.
    freeze = gc.get_freeze_count() == 0
    if freeze:
        gc.freeze()
    try:
        rej, corrected, _, _ = multipletests(p[ok], alpha=alpha, method=adjust)
    finally:
        if freeze:
            gc.unfreeze()
    p_adj[ok] = corrected
    reject[ok] = rej
    return p_adj, reject


def finish(rows: list[dict], by: Sequence[str], columns: list[str], family_of: list[int],
            adjust: str | None, alpha: float) -> pd.DataFrame:
    """Adjust each family once, over exactly its rows, and build the frame."""
    p = np.array([r["pvalue"] for r in rows], dtype=np.float64)
    fam = np.asarray(family_of)
    p_adj = np.full(p.size, np.nan)
    reject = np.zeros(p.size, dtype=bool)
    for f in dict.fromkeys(family_of):
        idx = np.flatnonzero(fam == f)
        p_adj[idx], reject[idx] = adjust_pvalues(p[idx], adjust, alpha)
    for r, pa, rj in zip(rows, p_adj, reject, strict=True):
        r.update(adjust="none" if adjust is None else adjust, pvalue_adj=pa, alpha=alpha,
                 reject=bool(rj))
    out = pd.DataFrame(rows, columns=[*by, *columns])
    out["n"] = out["n"].astype(np.int64)
    out["reject"] = out["reject"].astype(bool)
    return out


# --------------------------------------------------------------------------- matrix view


def _mirror(table: pd.DataFrame, col: str) -> pd.Series:
    """The value of ``col`` for the swapped pair (B, A) of each row."""
    values = table[col]
    if col == "estimate":
        return -values
    if col in ("ci_low", "ci_high"):
        other = "ci_high" if col == "ci_low" else "ci_low"
        return -table[other] if other in table.columns else pd.Series(np.nan, index=table.index)
    if col.endswith("_a") or col.endswith("_b"):
        other = col[:-1] + ("b" if col.endswith("_a") else "a")
        if other in table.columns:
            return table[other]
    if col == "statistic" and "test" in table.columns:
        out = values.astype(float).copy()
        test = table["test"]
        signed = test.isin(SIGNED_STATISTIC).to_numpy()
        out[signed] = -values[signed]
        # McNemar's exact/mid-p statistic is b (A wrong, B right): swapped, it is c
        count = (test == "mcnemar").to_numpy() & ~table.get(
            "method", pd.Series("", index=table.index)
        ).astype(str).str.contains("chi-square").to_numpy()
        if count.any():
            b = values[count].astype(float)
            out[count] = np.rint(b - table["estimate"][count] * table["n"][count])
        # the sign test's statistic counts folds with A - B > 0: swapped, those with < 0
        sign = (test == "sign").to_numpy()
        if sign.any():
            rows = table[sign]
            out[sign] = rows["n"] - rows["statistic"]
        return out
    return values


def pairwise_matrix(table: pd.DataFrame, /, *, col: str = "pvalue_adj") -> pd.DataFrame:
    r"""The k × k matrix view (system × system) of one column of a pairwise table.

    As statsmodels' ``AllPairsResults.pval_table``: row A, column B holds the value of the
    pair (A, B); the cell (B, A) holds the value the swapped pair would have.

    Parameters
    ----------
    table : DataFrame
        A table of :func:`compare`, :func:`compare_folds` or :func:`eer_bound_table`
        holding **one family** (one ``by`` group and one split): select its rows first when
        it holds several.
    col : str, default "pvalue_adj"
        The column to show.

    Returns
    -------
    DataFrame
        Index ``system_a`` and columns ``system_b``, both the systems in the order they
        first appear as ``system_a``, then as ``system_b``: input order for a table of all
        pairs, the baseline last for a table against a baseline.
        The diagonal is missing (NaN; ``<NA>`` for a boolean column), and so are the cells
        of pairs that were not tested (with ``baseline``). The swapped cell is

        - ``-x`` for ``estimate`` (antisymmetric) and for a signed z ``statistic``;
        - ``-ci_high`` for ``ci_low`` (and ``-ci_low`` for ``ci_high``);
        - the ``_b`` value for a ``_a`` column (``threshold_a``, ``eer_a``, ``wins_a``…)
          and vice versa;
        - c for McNemar's exact statistic b, the folds where B − A > 0 for the sign test;
        - the same value otherwise (p-values, ``reject``, ``n``…: symmetric).

        Numeric columns give float64, boolean ones the nullable ``boolean`` dtype.

    Raises
    ------
    ValueError
        A table without ``system_a``/``system_b`` (:data:`ERROR_NOT_PAIRWISE`), an unknown
        column (:data:`ERROR_MATRIX_COLUMN`), or several families
        (:data:`ERROR_MATRIX_FAMILIES`, which names them), or a pair that appears more
        than once, as in a concatenation of two tests' results
        (:data:`ERROR_MATRIX_DUPLICATE_PAIRS`).

    See Also
    --------
    compare : the long table.

    Notes
    -----
    The family key is the ``split`` column (when present) and every column before
    ``system_a`` (the ``by`` columns). For the estimate,

    .. math::

        M_{AB} = \hat\theta_A - \hat\theta_B = -M_{BA}, \qquad M_{AA} = \mathrm{NaN}.

    References
    ----------
    Seabold, S., & Perktold, J. (2010). statsmodels: Econometric and statistical modeling
    with Python. In *Proceedings of the 9th Python in Science Conference* (pp. 92–96).

    Examples
    --------
    >>> trials = pbs.datasets.example_trials()
    >>> res = pbs.compare(trials, on="dev", apply_to="eval")
    >>> pbs.pairwise_matrix(res, col="estimate").round(3)
    system_b    cnn  cnn_aug    gmm    lbp
    system_a
    cnn         NaN    0.003 -0.049 -0.116
    cnn_aug  -0.003      NaN -0.053 -0.119
    gmm       0.049    0.053    NaN -0.066
    lbp       0.116    0.119  0.066    NaN

    A table with two splits holds two families; pick one:

    >>> both = pbs.compare(trials, on="dev")
    >>> pbs.pairwise_matrix(both[both.split == "eval"]).shape
    (4, 4)
    """
    if not isinstance(table, pd.DataFrame) or not {"system_a", "system_b"} <= set(table.columns):
        found = list(table.columns) if isinstance(table, pd.DataFrame) else type(table).__name__
        raise ValueError(ERROR_NOT_PAIRWISE.format(found=found))
    if col not in table.columns:
        raise ValueError(ERROR_MATRIX_COLUMN.format(col=col, found=list(table.columns)))
    columns = list(table.columns)
    fam_cols = columns[: columns.index("system_a")]
    if "split" in columns:
        fam_cols.append("split")
    if fam_cols and len(table):
        fams = table[fam_cols].drop_duplicates()
        if len(fams) > 1:
            first = fam_cols[-1] if "split" in fam_cols and fams["split"].nunique() > 1 else fam_cols[0]
            raise ValueError(
                ERROR_MATRIX_FAMILIES.format(
                    n=len(fams), names=fam_cols,
                    families=[tuple(r) for r in fams.itertuples(index=False)],
                    first=first, example=fams[first].iloc[0],
                )
            )
    pairs = pd.Series(
        [frozenset((a, b)) for a, b in zip(table["system_a"], table["system_b"], strict=True)],
        dtype=object,
    )
    repeated = pairs.duplicated(keep=False).to_numpy()
    if repeated.any():
        row = int(np.flatnonzero(repeated)[0])
        raise ValueError(
            ERROR_MATRIX_DUPLICATE_PAIRS.format(
                a=table["system_a"].iloc[row], b=table["system_b"].iloc[row],
                n=int((pairs == pairs.iloc[row]).sum()),
            )
        )
    systems = list(dict.fromkeys([*table["system_a"], *table["system_b"]]))
    values = table[col]
    mirror = _mirror(table, col)
    if pd.api.types.is_bool_dtype(values.dtype):
        dtype: Any = "boolean"
        fill: Any = pd.NA
    elif pd.api.types.is_numeric_dtype(values.dtype):
        dtype, fill = np.float64, np.nan
    else:
        dtype, fill = object, np.nan
    out = pd.DataFrame(fill, index=pd.Index(systems, name="system_a"),
                       columns=pd.Index(systems, name="system_b"), dtype=dtype)
    for a, b, v, w in zip(table["system_a"], table["system_b"], values, mirror, strict=True):
        out.loc[a, b] = v
        out.loc[b, a] = w
    return out


# --------------------------------------------------------------------------- rows

#: The columns every pairwise table shares (after the ``by`` columns).
PAIR_COLUMNS = [
    "system_a",
    "system_b",
    "split",
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
    "confidence_level",
    "ci_low",
    "ci_high",
    "alternative",
    "method",
]


def row_of(res: TestResult, confidence_level: float) -> dict:
    interval = res.confidence_interval(confidence_level=confidence_level)
    return dict(
        n=res.n,
        estimate=res.estimate,
        statistic=res.statistic,
        pvalue=res.pvalue,
        log10_pvalue=res.log10_pvalue,
        ci_low=interval.low,
        ci_high=interval.high,
        alternative=res.alternative,
        method=res.method,
    )


#: The test columns of a row whose test could not be computed.
NAN_ROW = dict(
    n=0,
    estimate=math.nan,
    statistic=math.nan,
    pvalue=math.nan,
    log10_pvalue=math.nan,
    ci_low=math.nan,
    ci_high=math.nan,
)


def pair_row(by: Sequence[str], fam: tuple, pair: tuple, *, metric: str, test: str,
             level: float, res: TestResult | None, alternative: str, nan_method: str) -> dict:
    """One row of a pairwise table: the family's ``by`` values and split, the pair, and
    the test's numbers (NaN when ``res`` is None: nothing could be tested)."""
    row = dict(zip(by, fam[: len(by)], strict=True))
    row.update(system_a=pair[0], system_b=pair[1], split=fam[-1], metric=metric, test=test,
               confidence_level=level)
    if res is None:
        row.update(NAN_ROW, alternative=alternative, method=nan_method)
    else:
        row.update(row_of(res, level))
    return row
