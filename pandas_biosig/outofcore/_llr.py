"""The calibration-loss columns of the out-of-core :func:`summary` and :func:`dcf`: the
in-memory rule (:mod:`pandas_biosig.verification._llr`) on the engine's exact pieces.

The rule of :func:`pandas_biosig._kernels.calibration.llr_check` needs three things, each
available out of core without gathering the scores: the normalised cross-entropy at seven
prior log odds (the histogram pass sums each class's softplus terms at each of them,
:func:`pandas_biosig.outofcore._engine._moments`), the actual Bayes errors at the grid's
thresholds (rates at 141 thresholds of the exact sweep) and the smallest normalised
minimum Bayes error (two minimised weighted errors of the exact sweep).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.special import expit

from .._kernels.calibration import (
    XE_LOG_ODDS,
    llr_verdict,
    min_normalized_min_ber,
    normalized_act_ber,
    prior_entropy,
)

__all__ = ["PRIOR_LOG_ODDS", "cross_entropies", "exact_parts", "flag"]

#: The grid of the rule's Bayes errors (the in-memory default).
PRIOR_LOG_ODDS = np.linspace(-7.0, 7.0, 141)


def exact_parts(sw) -> tuple[np.ndarray, float]:
    """Inside a ``build`` of the engine: the normalised actual Bayes errors over
    :data:`PRIOR_LOG_ODDS` and the smallest normalised minimum one, exact once solved."""
    fa, fr = sw.rates_at_threshold(-PRIOR_LOG_ODDS)
    return (normalized_act_ber(fa, fr, sw.n, sw.p, PRIOR_LOG_ODDS),
            min_normalized_min_ber(sw, PRIOR_LOG_ODDS))


def cross_entropies(moments, n: int, p: int, rp: int) -> list[float]:
    """The normalised cross-entropy at each of ``XE_LOG_ODDS`` from the per-chunk sums of
    the histogram pass (infinite when a target failed to acquire, as in memory)."""
    if rp:
        return [math.inf] * len(XE_LOG_ODDS)
    (_, _, _, sums_non), (_, _, _, sums_tar) = moments
    out = []
    for i, lo in enumerate(XE_LOG_ODDS):
        prior = float(expit(lo))
        tar = math.fsum(s[i] for s in sums_tar) / p
        non = math.fsum(s[i] for s in sums_non) / n
        out.append((prior * tar + (1.0 - prior) * non) / prior_entropy(prior))
    return out


def flag(parts, moments, n: int, p: int, rp: int, *, similarity: bool) -> bool:
    """``not_llr`` of one group (True for distances, which are never LLRs)."""
    if not similarity:
        return True
    acts, lowest = parts
    return llr_verdict(max(cross_entropies(moments, n, p, rp)), acts, lowest)
