"""Pairwise kernels (numpy/scipy only): decision errors, discordance counts of every pair
of systems from one matrix product, and the sign-test interval of a median difference.

Nothing here imports pandas or xarray (a test parses the imports of this file).
"""

from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = [
    "MAX_BLOCK_ROWS",
    "block_rows",
    "decision_errors",
    "pair_counts",
    "sign_median_interval",
]

#: Largest row block of the blocked products: its float32 sums stay below 2**24, so exact.
MAX_BLOCK_ROWS = 2**16

_LOWEST = float(np.nextafter(-np.inf, 0.0))  # the most negative finite float


def decision_errors(scores: np.ndarray, threshold: float, genuine: np.ndarray) -> np.ndarray:
    """Per-trial errors of one system at one threshold (accept iff ``score >= threshold``).

    ``scores`` are oriented (higher = more genuine); ``-inf`` (a failure to acquire) is
    always rejected, even at ``threshold = -inf``. A genuine trial is an error when rejected,
    an impostor trial when accepted.
    """
    t = max(float(threshold), _LOWEST)
    return np.not_equal(scores >= t, genuine)


def block_rows(k: int) -> int:
    """Rows per block of the product of two n x k indicator matrices.

    Small enough that one block's product (k x rows x k multiply-adds, about 2**18) stays
    in cache and below the size where BLAS starts threads: a multi-threaded product of a
    tall, skinny matrix gains little and, on a busy machine, stalls for seconds while its
    threads wait for cores.
    """
    return int(np.clip(2**18 // max(k, 1) ** 2, 256, MAX_BLOCK_ROWS))


def _gram(x: np.ndarray, y: np.ndarray | None = None) -> np.ndarray:
    r"""``x.T @ y`` (``x.T @ x`` when ``y`` is None) as exact int64 counts.

    One matrix product, evaluated as the sum of the products of row blocks
    (:math:`X^\top Y = \sum_b X_b^\top Y_b`): each block sums at most
    :data:`MAX_BLOCK_ROWS` 0/1 terms, exact in float32, and the blocks add up in float64,
    exact to :math:`2^{53}`.
    """
    y = x if y is None else y
    k = max(x.shape[1], y.shape[1])
    step = block_rows(k)
    out = np.zeros((x.shape[1], y.shape[1]), dtype=np.float64)
    for start in range(0, x.shape[0], step):
        xb = x[start : start + step]
        out += xb.T @ (xb if y is x else y[start : start + step])
    return np.rint(out).astype(np.int64)


def pair_counts(
    errors: np.ndarray, genuine: np.ndarray, present: np.ndarray | None = None
) -> dict[str, np.ndarray]:
    """Error co-occurrence counts of every pair of systems, per class.

    Parameters
    ----------
    errors : ndarray, shape (n, k)
        0/1 error indicators of ``k`` systems on ``n`` aligned trials (float32, so that
        the products run in BLAS; column-major is cheapest to fill); 0 where a system did
        not score the trial.
    genuine : ndarray of bool, shape (n,)
        The class of each trial.
    present : ndarray, shape (n, k), optional
        0/1 indicators of the trials each system scored; None when every system scored
        every trial.

    Returns
    -------
    dict of (k, k) int64 arrays, for ``x`` in ``"i"`` (impostor) and ``"c"`` (genuine):

    - ``both_x[a, b]``: trials of class x that both a and b get wrong;
    - ``err_x[a, b]``: trials of class x that a gets wrong, among those b scored too;
    - ``n_x[a, b]``: trials of class x that both scored.

    Notes
    -----
    With :math:`E` the error matrix of one class, :math:`E^\\top E` holds every
    both-wrong count at once (its diagonal: each system's errors). Without ``present``
    only two products are needed, the full one and the one of the smaller class; the
    other class is their difference.
    """
    genuine = np.asarray(genuine, dtype=bool)
    k = errors.shape[1]
    n_gen = int(np.count_nonzero(genuine))
    n_imp = genuine.size - n_gen
    if present is None:
        full = _gram(errors)
        if n_gen <= n_imp:
            both_c = _gram(errors[genuine])
            both_i = full - both_c
        else:
            both_i = _gram(errors[~genuine])
            both_c = full - both_i
        ones = np.ones((1, k), dtype=np.int64)
        return {
            "both_i": both_i,
            "err_i": np.diag(both_i)[:, None] * ones,
            "n_i": np.full((k, k), n_imp, dtype=np.int64),
            "both_c": both_c,
            "err_c": np.diag(both_c)[:, None] * ones,
            "n_c": np.full((k, k), n_gen, dtype=np.int64),
        }
    out = {}
    for name, mask in (("i", ~genuine), ("c", genuine)):
        e, p = errors[mask], present[mask]
        out[f"both_{name}"] = _gram(e)
        out[f"err_{name}"] = _gram(e, p)
        out[f"n_{name}"] = _gram(p)
    return out


def sign_median_interval(
    differences: np.ndarray, confidence_level: float, alternative: str = "two-sided"
) -> tuple[float, float]:
    """Distribution-free interval for the median of paired differences (inverted sign test).

    With the differences sorted, :math:`d_{(1)} \\le \\dots \\le d_{(n)}`, the two-sided
    interval is :math:`[d_{(r)}, d_{(n-r+1)}]` with the largest ``r`` such that
    :math:`P(\\mathrm{Bin}(n, 1/2) \\le r - 1) \\le (1 - \\delta)/2`; its coverage is at
    least δ. When even ``r = 1`` is too narrow the bound is infinite. One-sided intervals
    use :math:`1 - \\delta` in one tail.
    """
    d = np.sort(np.asarray(differences, dtype=np.float64))
    n = d.size
    if n == 0:
        return float("nan"), float("nan")
    tail = (1.0 - confidence_level) / (2.0 if alternative == "two-sided" else 1.0)
    # the largest r with cdf(r - 1) <= tail; cdf(-1) = 0 means r >= 0 always
    cdf = stats.binom.cdf(np.arange(n), n, 0.5)
    r = int(np.count_nonzero(cdf <= tail))
    low = float(d[r - 1]) if r >= 1 else -np.inf
    high = float(d[n - r]) if r >= 1 else np.inf
    if alternative == "greater":
        high = np.inf
    elif alternative == "less":
        low = -np.inf
    return low, high
