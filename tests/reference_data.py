"""Expected values for the reference tests, each with its provenance.

TOY: a table small enough to count by hand. Impostor scores 0.1, 0.3, 0.3, 0.5, 0.7;
genuine 0.3, 0.6, 0.8, 0.9. Distinct scores and the operating point "accept >= u":

    u      FA  FR   FAR   FRR   bob threshold
    0.1    5   0    1.0   0.00  0.1   (lowest score)
    0.3    4   0    0.8   0.00  0.2
    0.5    2   1    0.4   0.25  0.4
    0.6    1   1    0.2   0.25  0.55
    0.7    1   2    0.2   0.50  0.65
    0.8    0   2    0.0   0.50  0.75
    0.9    0   3    0.0   0.75  0.85
    reject 0   4    0.0   1.00  nextafter(0.9)

ROC convex hull (PAV blocks {0.1} {0.3,0.3,0.3,0.5} {0.6,0.7} {0.8,0.9}): vertices
(FAR, FRR) = (1, 0), (0.8, 0), (0.2, 0.25), (0, 0.5), (0, 1); the segment from (0.8, 0) to
(0.2, 0.25) crosses FAR = FRR at 0.2/0.85 = 4/17.
AUC: genuine 0.3 beats 1 impostor and ties 2 (2 wins), 0.6 beats 4, 0.8 and 0.9 beat 5:
16/20.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd


@dataclass(frozen=True)
class Toy:
    impostor: tuple = (0.1, 0.3, 0.3, 0.5, 0.7)
    genuine: tuple = (0.3, 0.6, 0.8, 0.9)
    expected: dict = field(default_factory=dict)

    def table(self, system="toy") -> pd.DataFrame:
        scores = [*self.impostor, *self.genuine]
        labels = ["impostor"] * len(self.impostor) + ["genuine"] * len(self.genuine)
        return pd.DataFrame(
            {"system": system, "trial": np.arange(len(scores)), "label": labels, "score": scores}
        )


# minCllr by hand from the PAV blocks (P, N) = (0,1), (1,3), (1,1), (2,0), prior odds 4/5:
# genuine cost  sum P*ln(1 + N*odds/P), impostor cost sum N*ln(1 + P/(N*odds)).
_odds = 4 / 5
_pos_cost = math.log(1 + 3 * _odds) + math.log(1 + 1 * _odds)
_neg_cost = 3 * math.log(1 + 1 / (3 * _odds)) + math.log(1 + 1 / _odds)
TOY_MIN_CLLR = (_pos_cost / 4 + _neg_cost / 5) / (2 * math.log(2))

TOY = Toy(
    expected=dict(
        eer_threshold=0.225,  # (0.2 + 0.25) / 2 at u = 0.6, |FAR-FRR| = 0.05 is the smallest
        eer_threshold_at=0.55,
        eer_interpolated=0.25,  # between u=0.5 (0.4, 0.25) and u=0.6 (0.2, 0.25): FRR = 0.25
        eer_rocch=4 / 17,
        auc=16 / 20,
        min_hter=0.225,  # (0.2 + 0.25)/2 at 0.55
        min_weighted_025=(0.2, 0.2),  # 0.25*FAR + 0.75*FRR smallest (0.2) at u=0.3 -> thr 0.2
        fnmr_at_far_020=(0.25, 0.55),  # FAR <= 0.2 allows 1 FA: u=0.6
        zero_fmr=(0.5, 0.75),
        zero_fnmr=(0.8, 0.2),
        min_cllr=TOY_MIN_CLLR,
        fixed_055=dict(fa=1, fr=1, far=0.2, frr=0.25, hter=0.225, error_rate=2 / 9),
    )
)

# bob.measure's Iris fixture: sklearn load_iris, feature 0 (sepal length), class 0 (setosa)
# = impostor, class 1 (versicolor) = genuine. Values quoted in SPEC.md §2 and issue 2:
# bob.measure eer_threshold -> 5.45 with FAR+FRR)/2 = 0.110; BOSARIS 1.06 rocch2eer ->
# 0.116363636...; interpolated 0.116667; AUC 0.9326 (sklearn roc_auc_score agrees);
# FNMR 0.48 at FAR <= 1 %; Cllr (scores read as LLRs) 3.61833.
IRIS = dict(
    eer_threshold=0.110,
    threshold=5.45,
    eer_rocch=0.11636363636363636,
    eer_interpolated=0.116667,
    auc=0.9326,
    fnmr_at_far_001=0.48,
    cllr=3.61833,
)


def iris_table() -> pd.DataFrame:
    from sklearn.datasets import load_iris

    X, y = load_iris(return_X_y=True)
    neg = X[y == 0, 0]
    pos = X[y == 1, 0]
    scores = np.concatenate([neg, pos])
    return pd.DataFrame(
        {
            "system": "iris",
            "trial": np.arange(scores.size),
            "label": np.r_[np.zeros(neg.size, int), np.ones(pos.size, int)],
            "score": scores,
        }
    )
