"""Hand-counted PAD and vulnerability toy tables and their expected values.

PAD_TOY (one system). Bona fide 0.2, 0.4, 0.7, 0.8, 0.9; attacks of species ``print``
0.1, 0.3, 0.5, 0.75 and ``replay`` 0.05, 0.15, 0.6. Accepting the scores >= u:

    u      print acc.  replay acc.  bona fide rej.
    0.05   4           3            0
    0.1    4           2            0
    0.15   3           2            0
    0.2    3           1            0
    0.3    3           1            1
    0.4    2           1            1
    0.5    2           1            2
    0.6    1           1            2
    0.7    1           0            2
    0.75   1           0            3
    0.8    0           0            3
    0.9    0           0            4
    reject 0           0            5

- threshold 0.5: APCER print 2/4, replay 1/3 (max 0.5, print), pooled 3/7, BPCER 2/5,
  ACER 0.45.
- EER (7 attacks pooled): |FAR - FRR| is 0.2286 at u=0.4, 0.0286 at u=0.5, 0.1143 at
  u=0.6, so u=0.5, threshold (0.4+0.5)/2 = 0.45, EER = (3/7 + 2/5)/2 = 29/70.
- BPCER at APCER <= 0.34: at most 1 accepted print (of 4) and 1 replay (of 3): the lowest
  such u is 0.6, threshold 0.55; BPCER 2/5, APCER print 1/4, replay 1/3 (max).
- BPCER at APCER = 0: u = 0.8, threshold 0.775, BPCER 3/5.
- APCER at BPCER <= 0.2: at most 1 bona fide rejected: the highest such u is 0.4,
  threshold 0.35; APCER print 2/4 (max), replay 1/3.

VULN_TOY (one system). Genuine 3, 4, 5, 6; zero-effort impostors 0, 1, 2, 3.5; attacks
``print`` 2.5, 4.5 and ``replay`` 1.5, 3.2, 5.5.

- threshold 3: FNMR 0, FMR 1/4, IAPMR print 1/2, replay 2/3 (max), overall 3/5.
- licit EER: FAR - FRR = 1/4 at u=3, 0 at u=3.5: threshold (3+3.5)/2 = 3.25 (bob.measure's
  midpoint of the licit scores): FMR = FNMR = 1/4; IAPMR print 1/2, replay 1/3 (3.2 is
  below 3.25), overall 2/5.
- licit FMR <= 0: u = 4, threshold 3.75; FNMR 1/4, IAPMR 2/5.
- EPSC, beta 0.5, criterion "wer": omega = 1 minimizes (FNMR + IAPMR)/2 over every score:
  0.3 at u = 3 (FNMR 0, IAPMR 3/5), threshold (2.5+3)/2 = 2.75. omega = 0 minimizes
  (FNMR + FMR)/2: 0.125 at u = 2.5, 3 (FMR 1/4) and 4 (FNMR 1/4); ties go to the higher
  threshold, (3.5+4)/2 = 3.75.
- EPSC, criterion "eer", omega = 0: |FNMR - FMR|/2 is 0 at u = 3.2 and u = 3.5 (both WER
  0.25): the higher, threshold (3.2+3.5)/2 = 3.35.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

BONAFIDE = [0.2, 0.4, 0.7, 0.8, 0.9]
PRINT = [0.1, 0.3, 0.5, 0.75]
REPLAY = [0.05, 0.15, 0.6]


def pad_toy(system="toy") -> pd.DataFrame:
    scores = BONAFIDE + PRINT + REPLAY
    labels = ["bona fide"] * 5 + ["attack"] * 7
    pai = [None] * 5 + ["print"] * 4 + ["replay"] * 3
    return pd.DataFrame(
        {"system": system, "trial": np.arange(12), "label": labels, "score": scores,
         "pai": pd.Series(pai, dtype=object)}
    )


PAD_EXPECTED = {
    "fixed_0.5": dict(threshold=0.5, apcer_print=0.5, apcer_replay=1 / 3, apcer_max=0.5,
                      apcer_max_species="print", apcer_pooled=3 / 7, bpcer=0.4, acer=0.45),
    "eer": dict(threshold=0.45, eer=29 / 70, apcer_max=0.5, bpcer=0.4),
    "apcer_0.34": dict(threshold=0.55, bpcer=0.4, apcer_max=1 / 3, apcer_max_species="replay"),
    "apcer_0": dict(threshold=0.775, bpcer=0.6, apcer_max=0.0),
    "bpcer_0.2": dict(threshold=0.35, bpcer=0.2, apcer_max=0.5, apcer_max_species="print"),
}

GENUINE = [3.0, 4.0, 5.0, 6.0]
ZEI = [0.0, 1.0, 2.0, 3.5]
V_PRINT = [2.5, 4.5]
V_REPLAY = [1.5, 3.2, 5.5]


def vuln_toy(system="toy") -> pd.DataFrame:
    scores = GENUINE + ZEI + V_PRINT + V_REPLAY
    kind = ["genuine"] * 4 + ["zei"] * 4 + ["attack"] * 5
    pai = [None] * 8 + ["print"] * 2 + ["replay"] * 3
    return pd.DataFrame(
        {"system": system, "trial": np.arange(13), "kind": kind, "score": scores,
         "pai": pd.Series(pai, dtype=object)}
    )


VULN_EXPECTED = {
    "fixed_3": dict(threshold=3.0, fnmr=0.0, fmr=0.25, iapmr=0.6, iapmr_max=2 / 3,
                    iapmr_max_species="replay"),
    "eer": dict(threshold=3.25, fnmr=0.25, fmr=0.25, iapmr=0.4, iapmr_max=0.5,
                iapmr_max_species="print"),
    "far_0": dict(threshold=3.75, fnmr=0.25, fmr=0.0, iapmr=0.4),
    "epsc_wer_omega1": dict(threshold=2.75, wer=0.3, iapmr=0.6, fnmr=0.0),
    "epsc_wer_omega0": dict(threshold=3.75, wer=0.125),
    "epsc_eer_omega0": dict(threshold=3.35, wer=0.25),
}
