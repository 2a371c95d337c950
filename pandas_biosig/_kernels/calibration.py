"""Calibration and fusion of scores into natural-log likelihood ratios (numpy and scipy).

Three transforms and the measures that judge them (SPEC §9; Brümmer & de Villiers 2013,
the BOSARIS toolkit):

- :func:`train_linear`: prior-weighted linear logistic regression of K >= 1 score columns
  (K = 1 calibrates, K >= 2 fuses). With targets :math:`T_i = +1`, non-targets
  :math:`-1`, LLR :math:`\\ell_i = w^\\top s_i + b` and effective prior :math:`\\pi`, it
  minimises

  .. math:: O(w, b) = \\sum_i \\omega_i \\log(1 + e^{-T_i(\\ell_i + \\operatorname{logit}\\pi)}),
     \\quad \\omega_i = \\pi / N_{tar} \\text{ or } (1 - \\pi) / N_{non},

  by Newton's method with a backtracking line search on standardised scores (the
  objective is convex; gradient and Hessian are analytic). ``b`` is the LLR offset in
  nats: the prior's log odds are *not* part of the fitted LLR. The reported objective is
  BOSARIS's normalised cross-entropy :math:`O / H(\\pi)`, 1 for a system that says
  nothing, Cllr at :math:`\\pi = 1/2`.
- :func:`train_pav`: BOSARIS ``pav_calibration``: one target below and one non-target
  above every score, pool-adjacent-violators of the labels in score order, bin LLR
  :math:`\\operatorname{logit} P_k - \\operatorname{logit}` (the data's prior, dummies
  included); a new score maps to its bin's LLR inside a bin and by linear interpolation
  between the facing ends of two neighbouring bins.
- :func:`cross_entropy`, :func:`min_cross_entropy`, :func:`normalized_bayes_error`,
  :func:`llr_check`: the normalised cross-entropy (Cllr at any prior) and its PAV
  minimum, the normalised Bayes error-rate curves (min / act / default), and the rule
  that says when scores cannot be read as calibrated LLRs.

Scores are finite here; the public layer applies the table's policy for non-finite ones.
Optional ``counts`` make a row stand for that many identical trials (frequency weights):
every value equals that of the expanded arrays.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.special import expit

from .curves import bayes_error
from .rates import Sweep, softplus

__all__ = [
    "ERROR_COLLINEAR",
    "ERROR_NONFINITE",
    "ERROR_NO_TRIALS",
    "ERROR_SEPARABLE",
    "ERROR_SHAPE",
    "CollinearError",
    "LinearFit",
    "LlrCheck",
    "PavCalibration",
    "SeparableError",
    "cross_entropy",
    "llr_check",
    "llr_verdict",
    "min_cross_entropy",
    "min_normalized_min_ber",
    "normalized_act_ber",
    "normalized_bayes_error",
    "prior_entropy",
    "sweep_cross_entropy",
    "train_linear",
    "train_pav",
]

ERROR_SEPARABLE = (
    "the {what} separate targets from non-targets (one threshold makes no error on the "
    "training trials), so the logistic fit has no finite optimum: the weights grow "
    "without bound. Calibrate with the PAV transform, or train on more trials"
)
ERROR_SHAPE = "{name} must be a non-empty (n,) or (n, K) array of scores, got shape {shape}"
ERROR_NONFINITE = "{name} must be finite scores (NaN and infinite scores are the caller's to handle)"
ERROR_NO_TRIALS = "both classes need trials with a positive count"
ERROR_COLLINEAR = (
    "the score columns are linearly dependent (a column is constant, or one is a linear "
    "combination of the others), so the fusion weights are not determined; drop the "
    "redundant systems"
)

#: llr_check: the prior log odds of its cross-entropy rule, and the rules' limits.
XE_LOG_ODDS = (-6.0, -4.0, -2.0, 0.0, 2.0, 4.0, 6.0)
XE_LIMIT = 2.0
SEPARATION_LIMIT = 0.5
#: Newton iterations before the fit is declared not converged.
MAX_ITER = 100
#: Convergence: the Newton decrement (twice the predicted decrease of the objective)
#: below this fraction of the objective.
REL_TOL = 1e-14
#: Columns whose correlation matrix has a smallest eigenvalue below this are dependent.
RANK_TOL = 1e-10
#: From this iteration on, an iteration that still decreases the objective by a large
#: fraction checks whether the current direction separates the classes.
SEPARATION_CHECK_FROM = 5


class SeparableError(ValueError):
    """The training scores separate the classes: no finite logistic optimum."""


class CollinearError(ValueError):
    """The score columns are linearly dependent: the weights are not determined."""


class LinearFit(NamedTuple):
    """A fitted affine map from K score columns to LLRs (nats)."""

    weights: np.ndarray  #: (K,) one weight per score column
    offset: float  #: b: the LLR of a trial whose scores are all 0
    prior: float  #: the effective prior of the objective
    objective: float  #: normalised cross-entropy O / H(prior) at the optimum
    iterations: int  #: Newton iterations taken
    converged: bool  #: the Newton decrement fell below REL_TOL of the objective

    def apply(self, scores) -> np.ndarray:
        """LLRs of ``scores`` (shape (n,) for K = 1, or (n, K))."""
        s = np.asarray(scores, dtype=np.float64)
        if s.ndim == 1:
            s = s[:, None]
        return s @ self.weights + self.offset


class PavCalibration(NamedTuple):
    """BOSARIS's PAV transform: the ends of its line segments.

    ``score_bounds`` holds the lowest and highest training score of each PAV bin in
    turn (``-inf`` opens the first bin, ``+inf`` closes the last: the added trials);
    ``llr_bounds`` the LLR at each, the bin's LLR minus ``small_val`` at its left end and
    plus ``small_val`` at its right end.
    """

    score_bounds: np.ndarray
    llr_bounds: np.ndarray

    def apply(self, scores) -> np.ndarray:
        """LLRs of ``scores``: a bin's own line inside it, a straight line from one
        bin's right end to the next bin's left end between them; flat at their inner
        ends' values in the two outer bins, which reach to -inf and +inf (NaN stays
        NaN)."""
        x = np.asarray(scores, dtype=np.float64)
        b, v = self.score_bounds, self.llr_bounds
        if b.size == 2:  # one bin: every score gets its LLR
            return np.where(np.isnan(x), np.nan, (v[0] + v[1]) / 2)
        p = np.searchsorted(b, x, side="right") - 1  # the last bound <= x
        p = np.clip(p, 1, b.size - 3)  # the outer segments: flat at the inner ends
        x1, x2, v1, v2 = b[p], b[p + 1], v[p], v[p + 1]
        xc = np.clip(x, x1, x2)
        out = (v2 - v1) * (xc - x1) / (x2 - x1) + v1  # BOSARIS's order of operations
        return np.where(np.isnan(x), np.nan, out)


class LlrCheck(NamedTuple):
    """Whether scores read as LLRs do worse than not using them (:func:`llr_check`)."""

    cllr: float  #: bits, the scores read as LLRs
    min_cllr: float  #: bits, after the best monotone calibration
    max_cross_entropy: float  #: largest normalised cross-entropy over XE_LOG_ODDS
    max_norm_act_ber: float  #: largest normalised actual Bayes error over the grid
    min_norm_act_ber: float  #: smallest normalised actual Bayes error over the grid
    min_norm_min_ber: float  #: smallest normalised minimum Bayes error over the grid
    not_llr: bool  #: the rule's verdict


# ------------------------------------------------------------------ cross-entropy
def prior_entropy(prior: float) -> float:
    """:math:`H(\\pi) = -\\pi \\log \\pi - (1 - \\pi) \\log(1 - \\pi)` in nats: the
    objective of a system whose LLRs are all 0."""
    return float(-prior * np.log(prior) - (1.0 - prior) * np.log1p(-prior))


def _weighted_sum(values: np.ndarray, counts) -> float:
    return float(values.sum() if counts is None else np.dot(counts, values))


def _total(size: int, counts) -> float:
    return float(size if counts is None else np.sum(counts))


def cross_entropy(negatives, positives, prior: float = 0.5, *, neg_counts=None,
                  pos_counts=None) -> float:
    """Normalised cross-entropy of LLRs at the effective prior ``prior``.

    :math:`[\\pi\\,\\overline{\\log(1 + e^{-(\\ell + L)})}_{tar} + (1 - \\pi)\\,
    \\overline{\\log(1 + e^{\\ell + L})}_{non}] / H(\\pi)`, :math:`L = \\operatorname{logit}
    \\pi`: 1 for LLRs that are all 0, Cllr (bits) at ``prior = 0.5`` (BOSARIS's
    ``nxe``; PYLLR's ``cross_entropy`` times :math:`\\log 2 / H(\\pi)`).
    """
    neg = np.asarray(negatives, dtype=np.float64)
    pos = np.asarray(positives, dtype=np.float64)
    lo = np.log(prior) - np.log1p(-prior)
    tar = _weighted_sum(softplus(-(pos + lo)), pos_counts) / _total(pos.size, pos_counts)
    non = _weighted_sum(softplus(neg + lo), neg_counts) / _total(neg.size, neg_counts)
    return (prior * tar + (1.0 - prior) * non) / prior_entropy(prior)


def sweep_cross_entropy(sweep: Sweep, prior: float = 0.5) -> float:
    """:func:`cross_entropy` of a sweep's scores read as LLRs, with its multiplicities
    (a bootstrap replicate's) and its failures to acquire (LLR ``-inf``: infinite for a
    target, free for a non-target): ``sweep.cllr()`` at ``prior = 0.5``."""
    if sweep.rp:
        return float("inf")
    lo = np.log(prior) - np.log1p(-prior)
    wn = None if sweep._cn is None else np.diff(sweep._cn)
    wp = None if sweep._cp is None else np.diff(sweep._cp)
    tar = _weighted_sum(softplus(-(sweep.pos + lo)), wp) / sweep.p
    non = _weighted_sum(softplus(sweep.neg + lo), wn) / sweep.n
    return float((prior * tar + (1.0 - prior) * non) / prior_entropy(prior))


def min_cross_entropy(sweep: Sweep, prior: float = 0.5) -> float:
    """:func:`cross_entropy` after the best monotone (PAV) calibration of the sweep's
    scores, the training data's own: equals ``sweep.min_cllr()`` at ``prior = 0.5``.

    A PAV block with ``P`` targets and ``N`` non-targets gets the LLR
    :math:`\\log(P/N) - \\log(N_{tar}/N_{non})`; a block of one class costs nothing.
    """
    P, N = (a.astype(np.float64) for a in sweep.pav_blocks())
    lo = np.log(prior) - np.log1p(-prior)
    mixed = (P > 0) & (N > 0)
    llr = np.log(P[mixed]) - np.log(N[mixed]) - (np.log(sweep.p) - np.log(sweep.n))
    tar = np.dot(P[mixed], softplus(-(llr + lo))) / sweep.p
    non = np.dot(N[mixed], softplus(llr + lo)) / sweep.n
    return float((prior * tar + (1.0 - prior) * non) / prior_entropy(prior))


# ------------------------------------------------------------------ linear logistic
class _Problem(NamedTuple):
    """The training data of :func:`train_linear`, standardised: ``xt`` / ``xn`` the
    target and non-target score matrices (n, K), ``at`` / ``an`` each row's objective
    weight (a scalar without counts), ``prior`` and ``lo`` the prior and its log odds."""

    xt: np.ndarray
    xn: np.ndarray
    at: np.ndarray | float
    an: np.ndarray | float
    prior: float
    lo: float


def _as_matrix(scores, name: str) -> np.ndarray:
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim == 1:
        s = s[:, None]
    if s.ndim != 2 or s.shape[0] == 0 or s.shape[1] == 0:
        raise ValueError(ERROR_SHAPE.format(name=name, shape=s.shape))
    if not np.isfinite(s).all():
        raise ValueError(ERROR_NONFINITE.format(name=name))
    return s


def _standardise(neg, pos, neg_counts, pos_counts):
    """Column means and standard deviations over all trials (counted), and the
    correlation check: dependent columns make the weights undetermined."""
    x = np.concatenate([neg, pos])
    c = None if neg_counts is None and pos_counts is None else np.concatenate([
        np.ones(neg.shape[0]) if neg_counts is None else np.asarray(neg_counts, np.float64),
        np.ones(pos.shape[0]) if pos_counts is None else np.asarray(pos_counts, np.float64),
    ])
    mean = np.average(x, axis=0, weights=c)
    dev = x - mean
    cov = (dev.T * (1.0 if c is None else c)) @ dev / _total(x.shape[0], c)
    sd = np.sqrt(np.diag(cov))
    scale = np.maximum(np.abs(mean), sd)
    if np.any(sd <= 1e-12 * np.where(scale > 0, scale, 1.0)):
        raise CollinearError(ERROR_COLLINEAR)
    corr = cov / np.outer(sd, sd)
    if corr.shape[0] > 1 and np.linalg.eigvalsh(corr)[0] < RANK_TOL:
        raise CollinearError(ERROR_COLLINEAR)
    return mean, sd


def _margins(prob: _Problem, theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each class's argument of the softplus: ``-(l + L)`` for targets, ``l + L`` for
    non-targets (``l`` the LLR, ``L`` the prior's log odds)."""
    w, b = theta[:-1], theta[-1] + prob.lo
    return prob.xt @ -w - b, prob.xn @ w + b


def _value(prob: _Problem, margins) -> float:
    """The objective from the margins of :func:`_margins`."""
    return sum(float(np.sum(a * softplus(u))) if np.ndim(a) else float(a * softplus(u).sum())
               for u, a in zip(margins, (prob.at, prob.an), strict=True))


def _system(prob: _Problem, margins) -> tuple[np.ndarray, np.ndarray]:
    """Gradient and Hessian of the objective in ``theta = (w, b)`` at the margins."""
    k = prob.xt.shape[1]
    g = np.zeros(k + 1)
    H = np.zeros((k + 1, k + 1))
    for x, u, sign, a in ((prob.xt, margins[0], -1.0, prob.at), (prob.xn, margins[1], 1.0, prob.an)):
        s = expit(u)  # d softplus(u) / du
        h = s * (1.0 - s)
        h *= a
        s *= sign * a if np.ndim(a) else sign * a
        g[:k] += x.T @ s
        g[k] += s.sum()
        H[:k, :k] += (x.T * h) @ x
        hx = x.T @ h
        H[:k, k] += hx
        H[k, :k] += hx
        H[k, k] += h.sum()
    return g, H


def _start(prob: _Problem) -> tuple[np.ndarray, float, tuple]:
    """The equal-covariance Gaussian LLR (linear discriminant) in standardised units, or
    zero when that starts worse (zero's objective is :math:`H(\\pi)`: every LLR is 0)."""
    k = prob.xt.shape[1]
    mt, mn = prob.xt.mean(axis=0), prob.xn.mean(axis=0)
    within = np.eye(k) * 1e-6
    for x, m in ((prob.xt, mt), (prob.xn, mn)):
        d = x - m
        within += d.T @ d / (2 * x.shape[0])
    w = np.linalg.solve(within, mt - mn)
    theta = np.append(w, -w @ (mt + mn) / 2)
    if np.all(np.isfinite(theta)):
        margins = _margins(prob, theta)
        f = _value(prob, margins)
        if f < prior_entropy(prob.prior):
            return theta, f, margins
    theta = np.zeros(k + 1)
    margins = _margins(prob, theta)
    return theta, _value(prob, margins), margins


def _newton(prob: _Problem, max_iter: int, start: np.ndarray | None = None):
    """Damped Newton on the convex objective. Returns ``(theta, f, iterations,
    converged)``; raises :class:`SeparableError` when an iterate's direction proves the
    classes separable."""
    theta = None
    if start is not None and np.all(np.isfinite(start)):  # kept if it beats saying nothing
        margins = _margins(prob, start)
        f = _value(prob, margins)
        if f < prior_entropy(prob.prior):
            theta = start
    if theta is None:
        theta, f, margins = _start(prob)
    for it in range(1, max_iter + 1):
        g, H = _system(prob, margins)
        try:
            step = -np.linalg.solve(H, g)
        except np.linalg.LinAlgError:
            step = -np.linalg.lstsq(H, g, rcond=None)[0]
        dec = float(-g @ step)  # the Newton decrement squared
        if not np.isfinite(dec) or dec <= REL_TOL * f:
            # the quadratic model's decrease is at rounding level: one last full step
            if np.isfinite(dec) and dec > 0:
                theta = theta + step
                f = _value(prob, _margins(prob, theta))
            return theta, f, it, bool(np.isfinite(dec))
        t = 1.0
        while True:
            new = theta + t * step
            new_margins = _margins(prob, new)
            f_new = _value(prob, new_margins)
            if f_new <= f - 1e-4 * t * dec or t < 1e-12:
                break
            t /= 2
        if f_new >= f:  # no descent possible at double precision
            return theta, f, it, dec <= 1e-10 * f
        if it >= SEPARATION_CHECK_FROM and dec > 0.1 * f:
            _raise_if_direction_separates(prob, new[:-1])
        theta, f, margins = new, f_new, new_margins
    return theta, f, max_iter, False


def _separates(proj_neg: np.ndarray, proj_pos: np.ndarray) -> bool:
    """Whether one threshold puts every target on one side and every non-target on the
    other (ties at the threshold allowed: quasi-complete separation)."""
    return bool(proj_neg.max() <= proj_pos.min() or proj_pos.max() <= proj_neg.min())


def _raise_if_direction_separates(prob: _Problem, w: np.ndarray) -> None:
    if _separates(prob.xn @ w, prob.xt @ w):
        what = "scores" if w.size == 1 else "fused scores"
        raise SeparableError(ERROR_SEPARABLE.format(what=what))


def _separable_lp(prob: _Problem) -> bool:
    """Exact (quasi-)separation test, a linear programme: is there a direction
    ``d = (w, b) != 0`` with ``T_i (w.x_i + b) >= 0`` for every trial, > 0 for some?
    Only run when Newton fails to converge (it takes seconds at 10^6 trials)."""
    from scipy.optimize import linprog

    k = prob.xt.shape[1]
    a = np.concatenate([
        -np.column_stack([prob.xt, np.ones(prob.xt.shape[0])]),
        np.column_stack([prob.xn, np.ones(prob.xn.shape[0])]),
    ])
    res = linprog(a.sum(axis=0), A_ub=a, b_ub=np.zeros(a.shape[0]),
                  bounds=[(-1.0, 1.0)] * (k + 1), method="highs")
    return res.status == 0 and res.fun < -1e-9 * a.shape[0]


def train_linear(negatives, positives, *, prior: float = 0.5, neg_counts=None,
                 pos_counts=None, max_iter: int = MAX_ITER,
                 start: LinearFit | None = None) -> LinearFit:
    """Prior-weighted linear logistic calibration (K = 1) or fusion (K >= 2).

    Parameters
    ----------
    negatives, positives : array, shape (n,) or (n, K)
        Non-target and target scores, one column per system (rows are trials).
    prior : float
        Effective target prior :math:`\\pi` in (0, 1) (validated by the caller).
    neg_counts, pos_counts : array of non-negative numbers, optional
        Trials each row stands for.
    max_iter : int
        Newton iterations at most.
    start : LinearFit, optional
        A fit to start Newton's method from (e.g. the same problem's fit on other
        multiplicities: a bootstrap replicate) instead of the linear discriminant, when
        its objective is below that of saying nothing. The optimum does not depend on it;
        the iterations do.

    Returns
    -------
    LinearFit
        ``weights`` (K,), ``offset`` (nats), ``prior``, ``objective`` (normalised
        cross-entropy on the training trials), ``iterations``, ``converged``.

    Raises
    ------
    SeparableError
        The classes are (quasi-)separable: no finite optimum exists (BOSARIS's trust
        region stops at its iteration limit and scikit-learn's unpenalised fit at its
        tolerance, each with an arbitrary large weight; this refuses instead).
    CollinearError
        A column is constant or the columns are linearly dependent.
    """
    neg, pos = _as_matrix(negatives, "negatives"), _as_matrix(positives, "positives")
    if neg.shape[1] != pos.shape[1]:
        raise ValueError("negatives and positives need the same number of score columns")
    if _total(pos.shape[0], pos_counts) <= 0 or _total(neg.shape[0], neg_counts) <= 0:
        raise ValueError(ERROR_NO_TRIALS)
    mean, sd = _standardise(neg, pos, neg_counts, pos_counts)
    if neg.shape[1] == 1 and _separates(neg[:, 0], pos[:, 0]):
        raise SeparableError(ERROR_SEPARABLE.format(what="scores"))
    at = prior / _total(pos.shape[0], pos_counts)
    an = (1.0 - prior) / _total(neg.shape[0], neg_counts)
    prob = _Problem(
        (pos - mean) / sd, (neg - mean) / sd,
        at if pos_counts is None else at * np.asarray(pos_counts, np.float64),
        an if neg_counts is None else an * np.asarray(neg_counts, np.float64),
        float(prior), float(np.log(prior) - np.log1p(-prior)),
    )
    theta0 = None
    if start is not None:  # into standardised units: w' = w sd, b' = b + w . mean
        theta0 = np.append(start.weights * sd, start.offset + np.dot(start.weights, mean))
    theta, f, iterations, converged = _newton(prob, max_iter, theta0)
    if not converged and _separable_lp(prob):
        raise SeparableError(ERROR_SEPARABLE.format(what="fused scores"))
    w = theta[:-1] / sd
    b = float(theta[-1] - np.dot(theta[:-1], mean / sd))
    return LinearFit(w, b, float(prior), f / prior_entropy(prior), iterations, converged)


# ------------------------------------------------------------------ PAV transform
def train_pav(negatives, positives, *, neg_counts=None, pos_counts=None,
              small_val: float = 0.0) -> PavCalibration:
    """BOSARIS's ``pav_calibration``: a monotone score-to-LLR transform.

    One target is added below every score and one non-target above (BOSARIS places them
    at -1e6 and +1e6; here at -inf and +inf, the same bins whenever every score lies
    inside (-1e6, 1e6), and the recipe's intent beyond), so every bin holds both classes
    and every LLR is finite. PAV of the labels in score order (tied scores pooled, as
    BOSARIS's stable sort with targets first pools them) gives bins of proportion
    :math:`P_k`; the bin's LLR is :math:`\\operatorname{logit} P_k - \\operatorname{logit}
    \\frac{N_{tar} + 1}{N_{tar} + N_{non} + 2}`, the data's prior with the two added
    trials.

    ``small_val`` makes the transform strictly increasing (BOSARIS's argument of that
    name): the bin's LLR minus it at the bin's lowest score and plus it at its highest.
    The two outer bins are flat at their inner ends' values (BOSARIS ramps from there
    towards its added trials at -1e6 and +1e6 and errs beyond them; the two differ in the
    outer bins by less than ``2 * small_val * |s - edge| / 1e6``, not at all for
    ``small_val = 0``). Neighbouring bins of exactly equal proportion are one bin here;
    BOSARIS's running means can leave them apart by rounding, which changes nothing at
    ``small_val = 0``.
    """
    neg = _as_matrix(negatives, "negatives")[:, 0]
    pos = _as_matrix(positives, "positives")[:, 0]
    values, inverse = np.unique(np.concatenate([neg, pos]), return_inverse=True)
    w_neg = np.ones(neg.size) if neg_counts is None else np.asarray(neg_counts, np.float64)
    w_pos = np.ones(pos.size) if pos_counts is None else np.asarray(pos_counts, np.float64)
    m = values.size
    npos = np.concatenate([[1.0], np.bincount(inverse[neg.size :], w_pos, minlength=m), [0.0]])
    nneg = np.concatenate([[0.0], np.bincount(inverse[: neg.size], w_neg, minlength=m), [1.0]])
    values = np.concatenate([[-np.inf], values, [np.inf]])
    first, last, P, N = _pav_bins(npos, nneg)
    llr = np.log(P) - np.log(N) - (np.log(npos.sum()) - np.log(nneg.sum()))
    bounds = np.column_stack([values[first], values[last]]).ravel()
    llrs = np.column_stack([llr - small_val, llr + small_val]).ravel()
    return PavCalibration(bounds, llrs)


def _pav_bins(npos: np.ndarray, nneg: np.ndarray):
    """PAV of the label proportions of the score groups (weights = group sizes), bins
    of equal proportion merged (BOSARIS's ``pavx`` pools on ``>=``). Returns each bin's
    first and last group and its target and non-target totals."""
    from scipy.optimize import isotonic_regression

    total = npos + nneg
    keep = np.flatnonzero(total > 0)
    res = isotonic_regression(npos[keep] / total[keep], weights=total[keep])
    starts = np.asarray(res.blocks[:-1])
    P = np.add.reduceat(npos[keep], starts)
    N = np.add.reduceat(nneg[keep], starts)
    # neighbours of exactly equal proportion are one bin (integer counts: exact products)
    new = np.concatenate([[True], P[1:] * (P[:-1] + N[:-1]) != P[:-1] * (P[1:] + N[1:])])
    starts = starts[new]
    P = np.add.reduceat(P, np.flatnonzero(new))
    N = np.add.reduceat(N, np.flatnonzero(new))
    ends = np.append(starts[1:], keep.size) - 1
    return keep[starts], keep[ends], P, N


# ------------------------------------------------------------------ Bayes error
def normalized_bayes_error(sweep: Sweep, prior_log_odds, *, actual: bool = True):
    """The normalised Bayes error-rate curves of BOSARIS's and PYLLR's plot.

    Returns ``(min, act, default)`` over the prior log odds :math:`\\lambda`: the minimum
    and actual (threshold :math:`-\\lambda`, scores read as LLRs) Bayes error rates of
    :func:`~pandas_biosig._kernels.curves.bayes_error`, each divided by
    :math:`\\min(\\pi, 1 - \\pi)` (= the default curve, which becomes 1): the normalised
    minimum and actual DCF at effective prior :math:`\\pi` with unit costs. NaN where
    :math:`\\pi` is 0 or 1.
    """
    mins, acts, default = bayes_error(sweep, prior_log_odds, actual=actual)
    with np.errstate(divide="ignore", invalid="ignore"):
        scale = np.where(default > 0, default, np.nan)
        return mins / scale, acts / scale, default / scale


def normalized_act_ber(fa, fr, n: float, p: float, prior_log_odds) -> np.ndarray:
    """The normalised actual Bayes error :math:`[\\pi P_{miss} + (1 - \\pi) P_{fa}] /
    \\min(\\pi, 1 - \\pi)` from the false acceptances ``fa`` and false rejections ``fr``
    at the thresholds ``-prior_log_odds`` (out of ``n`` non-targets and ``p`` targets);
    NaN where :math:`\\pi` is 0 or 1. :func:`normalized_bayes_error`'s ``act``."""
    plo = np.asarray(prior_log_odds, dtype=np.float64)
    pi, pi_bar = expit(plo), expit(-plo)
    act = pi * (np.asarray(fr) / p) + pi_bar * (np.asarray(fa) / n)
    default = np.minimum(pi, pi_bar)
    with np.errstate(divide="ignore", invalid="ignore"):
        return act / np.where(default > 0, default, np.nan)


def min_normalized_min_ber(sweep, prior_log_odds) -> float:
    """The smallest normalised minimum Bayes error over a grid of prior log odds.

    For :math:`\\lambda \\ge 0` the normalised error at a threshold is
    :math:`e^\\lambda P_{miss} + P_{fa}`, for :math:`\\lambda \\le 0`
    :math:`P_{miss} + e^{-\\lambda} P_{fa}`: both grow as :math:`|\\lambda|` grows, so the
    smallest value over the grid is at its prior log odds nearest 0 on either side (at 0:
    :math:`\\min_\\theta (P_{miss} + P_{fa})`, twice the minimum HTER). Two minimised
    weighted errors (``sweep.min_weighted``, which the out-of-core sweeps answer exactly)
    replace the whole curve. NaN when the grid has no finite value.
    """
    plo = np.asarray(prior_log_odds, dtype=np.float64)
    plo = plo[np.isfinite(plo)]
    below, above = plo[plo <= 0], plo[plo >= 0]
    nearest = ([float(below.max())] if below.size else []) + (
        [float(above.min())] if above.size else [])
    values = []
    for lam in dict.fromkeys(nearest):
        pi, pi_bar = float(expit(lam)), float(expit(-lam))
        op = sweep.min_weighted(pi_bar)
        values.append((pi * op.frr + pi_bar * op.far) / min(pi, pi_bar))
    return min(values) if values else float("nan")


def llr_verdict(max_cross_entropy: float, norm_act_ber, min_norm_min_ber: float) -> bool:
    """The rule of :func:`llr_check` from its three quantities: the largest normalised
    cross-entropy over :data:`XE_LOG_ODDS`, the normalised actual Bayes errors over the
    grid, and the smallest normalised minimum Bayes error over it."""
    acts = np.asarray(norm_act_ber, dtype=np.float64)
    trivial = bool(np.isfinite(acts).any() and np.nanmin(acts) >= 1.0)
    return bool(max_cross_entropy > XE_LIMIT) or (trivial and min_norm_min_ber < SEPARATION_LIMIT)


def llr_check(sweep: Sweep, prior_log_odds=None) -> LlrCheck:
    """Whether the scores, read as natural-log LLRs, cannot be calibrated LLRs.

    Calibrated LLRs do, on average, no worse than the prior alone: their normalised
    cross-entropy is at most 1 at every prior, and Bayes decisions with them cost at most
    the default decision's (normalised actual DCF <= 1). The rule flags ``not_llr`` when

    1. the normalised cross-entropy exceeds ``XE_LIMIT`` (2) at one of the prior log
       odds ``XE_LOG_ODDS`` (-6, -4, ..., 6): somewhere, the scores cost more than twice
       what saying nothing costs (overconfident or shifted scores: Cllr 14 at 1/2, or
       scores 25 times too large); or
    2. the normalised actual Bayes error is >= 1 at every prior of the grid (the trivial
       bound everywhere: the threshold ``-lambda`` never falls inside the scores' useful
       range, as for probabilities in [0, 1] read as LLRs) while the normalised minimum
       drops below ``SEPARATION_LIMIT`` (0.5) somewhere (the scores do separate).

    The limits leave room for sampling noise. On exact LLRs of two normal classes (d'
    0.1 to 5; 20, 100 and 1000 targets with 4 non-targets each; 200 tables per cell,
    ``benchmarks/llr_check_flags.py``) the rule flagged 1 table of 3000 (d' = 5, 20
    targets), while ``cllr > 1`` alone flagged up to 48 % of the small tables of weak
    systems: Cllr is reported, not used. ``prior_log_odds`` (the grid of rule 2) defaults
    to the curves' grid ``np.linspace(-7, 7, 141)``.

    Cost: seven cross-entropy passes over the scores (``cllr`` is the one at 0), one
    search of the grid's thresholds and two minimised weighted errors
    (:func:`min_normalized_min_ber`): no curve over every operating point.
    """
    plo = np.linspace(-7.0, 7.0, 141) if prior_log_odds is None else np.asarray(
        prior_log_odds, dtype=np.float64)
    priors = expit(np.asarray(XE_LOG_ODDS, dtype=np.float64))
    xe = [sweep_cross_entropy(sweep, p) for p in priors]
    fa, fr = sweep.rates_at_threshold(-plo)
    acts = normalized_act_ber(fa, fr, sweep.n, sweep.p, plo)
    lowest = min_normalized_min_ber(sweep, plo)
    finite = np.isfinite(acts).any()
    return LlrCheck(xe[XE_LOG_ODDS.index(0.0)], sweep.min_cllr(), float(max(xe)),
                    float(np.nanmax(acts)) if finite else float("nan"),
                    float(np.nanmin(acts)) if finite else float("nan"), float(lowest),
                    llr_verdict(max(xe), acts, lowest))
