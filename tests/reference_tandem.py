"""Reference values of the tandem (ASV + CM) metrics: the organisers' code and toys by hand.

Provenance of the organisers' values
------------------------------------
Their code was run unmodified (imported, never edited) in a throwaway venv: Python 3.11.7,
numpy 1.23.5 (their scripts use ``np.float``), scipy 1.11.4, pandas 2.0.3. A driver script
(outside the repository) imported the modules below from ``git archive`` copies of these
commits, called the functions named in each entry on the arrays described there, and
printed every value with ``repr``:

- ``nesl/asvspoof2019`` @ 8b780369f7273345c22d979192119198bbf3db13, ``eval_metrics.py``
  (the ASVspoof 2019 ``tDCF_python_v1`` package): ``compute_eer``,
  ``obtain_asv_error_rates``, ``compute_tDCF`` with the cost model of its
  ``evaluate_tDCF_asvspoof19.py``; the script itself, run as
  ``MPLBACKEND=Agg python evaluate_tDCF_asvspoof19.py cm_dev.txt asv_dev.txt``, prints
  the same ASV rates and ``min-tDCF = 0.110498366``.
- ``asvspoof-challenge/asvspoof5`` @ fe23d3053a0889b305d98c9e4cadf418c213d972,
  ``evaluation-package/calculate_modules.py``: ``compute_eer``,
  ``obtain_asv_error_rates``, ``compute_tDCF`` (the 2021 / ASVspoof 5 revision),
  ``compute_Pmiss_Pfa_Pspoof_curves``, ``compute_det_curve``, ``compute_teer`` (the full
  search; ``compute_teer_accelerated`` gives the same values here), ``compute_mindcf``,
  ``compute_actDCF``; ``calculate_metrics.py``: ``calculate_minDCF_EER_CLLR_actDCF``
  (on the score arrays, not through ``util.load_cm_scores_keys``, whose join on the file
  name multiplies the rows of repeated utterance ids); ``a_dcf.py``: ``CostModel``,
  ``_calculate_a_dcf``.
  The CM's EER (``cm_eer``) is the EER that ``calculate_minDCF_EER_CLLR_actDCF`` returns
  (ASVspoof 5's ``compute_eer`` of the bona fide and spoof CM scores); nesl/asvspoof2019's
  ``compute_eer`` on the same arrays gives the same value.
- ``asvspoof-challenge/2021`` @ 9b33f5eca887bd3bf629e3fb79428cd9bb7ac972,
  ``eval-package/eval_metrics.py``: ``compute_tDCF`` gives the same curve, bit for bit, as
  ASVspoof 5's.
- ``shimhz/a_DCF`` @ 0560623bb2ec15bba79a918fc6ef36afd9b4b02c, ``a_dcf/a_dcf.py``:
  ``compute_a_det_curve`` and ``normalize`` give the same minimum as ASVspoof 5's copy.

Cost models: ASVspoof 2019, ``Pspoof = 0.05``, ``Ptar = (1 - Pspoof) * 0.99``,
``Pnon = (1 - Pspoof) * 0.01``, ``Cmiss_asv = Cmiss_cm = 1``, ``Cfa_asv = Cfa_cm = 10``;
ASVspoof 2021 / 5, the same priors and ``Cmiss = 1``, ``Cfa = Cfa_spoof = 10`` (also the
a-DCF costs of ASVspoof 5, as ``calculate_aDCF_tdcf_tEER`` builds them); the a-DCF paper's
default, ``a_dcf.CostModel()``: ``Ptrg = 0.9``, ``Pnontrg = Pspf = 0.05``, ``Cmiss = 1``,
``Cfa_asv = 10``, ``Cfa_cm = 20``; the CM, ``Pspoof = 0.05``, ``Cmiss = 1``, ``Cfa = 10``.

The SASV score of the a-DCF entries is the score sum ``asv + cm`` (SASV 2022 evaluation
plan v0.2, section 6.3, "Baseline1: score-sum ensemble";
``sasv-challenge/SASVC2022_Baseline`` @ 1545f2bbc5860504cd24003e864fa06adcfdd26e,
``pdfs/2022_SASV_evaluation_plan_v0.2.pdf``).

Thresholds: the organisers report the highest *rejected* score (``tau``); the kernels
report the library's threshold (accept iff ``score >= threshold``), whose
:func:`~pandas_biosig._kernels.tandem.organiser_threshold` of ``tau`` the tests compare.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np

# ----------------------------------------------------------------------------------------
# The ASVspoof 2019 t-DCF v1 example (``../shared/newcaps-data/asvspoof2019_tdcf_v1``).
# ``asv_dev.txt`` (attack, kind, score) and ``cm_dev.txt`` (utterance, attack, key, score)
# hold the same 20,364 trials line by line: line i of the CM file is the CM score of the
# test utterance of ASV trial i (the attack columns agree on every line; the 4,536
# non-target trials reuse 756 utterances six times each, with equal CM scores). The
# organisers' scripts read the CM file as it is ("file_lines": 5,460 bona fide, the 756
# utterances six times); "unique_utterances" keeps each CM utterance once (1,680 bona
# fide: 924 target and 756 non-target utterances; 14,904 spoofs). The ASV scores are the
# same in both. t-EER and a-DCF pair the two files by line.
ASVSPOOF2019_DEV = {
    "file_lines": {
        "asv_eer": 0.04434223184223184,
        "asv_threshold": -0.249033,
        "asv_pfa": 0.0445326278659612,
        "asv_pmiss": 0.044372294372294376,
        "asv_pmiss_spoof": 0.3083735909822866,
        "asv_pfa_spoof": 0.6916264090177133,
        "min_tdcf_2019": 0.1104983661284351,
        "min_tdcf_2019_threshold": 0.286409,
        "min_tdcf_2021": 0.2148537633052445,
        "min_tdcf_2021_threshold": 0.286409,
        "cm_min_dcf": 0.10019556664484197,
        "cm_min_dcf_threshold": 0.34007,
        "cm_act_dcf": 0.338365539452496,
        "cm_act_dcf_threshold": -0.6418538861723947,
        "cm_cllr": 0.5313063200120342,
        "cm_eer": 0.046701084744563005,
        "teer_percent": 5.355693507692387,
        "teer_asv_threshold": -0.564615,
        "teer_cm_threshold": 0.313678,
        "adcf_sum_asvspoof5": 0.49305293776125586,
        "adcf_sum_asvspoof5_threshold": 1.8008410000000001,
        "adcf_sum_paper": 0.5248270993037499,
        "adcf_sum_paper_threshold": 3.57274,
    },
    "unique_utterances": {
        "asv_eer": 0.04434223184223184,
        "asv_threshold": -0.249033,
        "asv_pfa": 0.0445326278659612,
        "asv_pmiss": 0.044372294372294376,
        "asv_pmiss_spoof": 0.3083735909822866,
        "asv_pfa_spoof": 0.6916264090177133,
        "min_tdcf_2019": 0.10414817652541812,
        "min_tdcf_2019_threshold": 0.301242,
        "min_tdcf_2021": 0.20924857127495436,
        "min_tdcf_2021_threshold": 0.301242,
        "cm_min_dcf": 0.0950627827620581,
        "cm_min_dcf_threshold": 0.34007,
        "cm_act_dcf": 0.338365539452496,
        "cm_act_dcf_threshold": -0.6418538861723947,
        "cm_cllr": 0.5311302663855736,
    },
}

# ASVspoof 5's ``calculate_aDCF_tdcf_tEER`` as shipped, on the same paired trials, returns
# min t-DCF 0.18662153661723788: it uses hard-coded ASV error rates of the ASVspoof 5 ASV
# (Pfa 0.0188..., Pmiss 0.0188..., Pfa_spoof 0.4607...), not those of the scores given.
SHIPPED_TRACK2_MIN_TDCF = 0.18662153661723788

# ----------------------------------------------------------------------------------------
# TIES: 36 trials with integer scores, most of them tied (drawn once with
# np.random.default_rng(20240528) and written out). The organisers' code on these arrays:
TIES_ASV = [7, 3, 4, 4, 5, 4, 6, 4, 5, 5, 1, 1, 4, 1, 2, 4, 4, 4, 0, 2, 0, 3, 3, 5, 5, 4,
            6, 2, 6, 2, 4, 5, 6, 2, 4, 6]
TIES_CM = [5, 5, 5, 5, 3, 5, 5, 5, 4, 3, 2, 4, 4, 4, 2, 4, 5, 4, 3, 4, 3, 4, 0, 2, 0, 0, 1,
           2, 3, 2, 3, 2, 0, 3, 2, 1]
TIES_KIND = ["target"] * 10 + ["nontarget"] * 12 + ["spoof"] * 14
TIES = {
    "asv_eer": 0.31666666666666665,
    "asv_threshold": 4.0,
    "asv_pfa": 0.3333333333333333,
    "asv_pmiss": 0.1,
    "asv_pmiss_spoof": 0.2857142857142857,
    "asv_pfa_spoof": 0.7142857142857143,
    "min_tdcf_2019": 0.42168510822510824,
    "min_tdcf_2019_threshold": 2.0,
    "min_tdcf_2021": 0.5722544081822389,
    "min_tdcf_2021_threshold": 2.0,
    "cm_min_dcf": 0.38701298701298686,
    "cm_min_dcf_threshold": 2.0,
    "cm_act_dcf": 1.0,
    "cm_act_dcf_threshold": -0.6418538861723947,
    "cm_cllr": 1.3185883698759775,
    "cm_eer": 0.22077922077922077,
    "teer_percent": 25.510204081632654,
    "teer_asv_threshold": 4.0,
    "teer_cm_threshold": 2.0,
    "adcf_sum_asvspoof5": 0.11324529811924769,
    "adcf_sum_asvspoof5_threshold": 7.0,
    "adcf_sum_paper": 0.26455026455026454,
    "adcf_sum_paper_threshold": 7.0,
}


def ties_arrays():
    """``(asv, cm, kind)`` of TIES as arrays."""
    return (np.array(TIES_ASV, dtype=np.float64), np.array(TIES_CM, dtype=np.float64),
            np.array(TIES_KIND))


# ----------------------------------------------------------------------------------------
# TOY: 12 trials counted by hand (and confirmed by the organisers' code, values below).
#
#   kind       ASV score   CM score   SASV = ASV + CM
#   target     3, 6, 8, 9  .8 .9 .4 .7   3.8, 6.9, 8.4, 9.7
#   nontarget  1, 2, 4, 7  .6 .85 .95 .75  1.6, 2.85, 4.95, 7.75
#   spoof      2.5, 5, 7.5, 10  .1 .5 .3 .65  2.6, 5.5, 7.8, 10.65
#
# ASV at the given threshold 5.5 (accept iff >= 5.5): Pfa = {7}/4 = 1/4, Pmiss = {3}/4 =
# 1/4, Pmiss_spoof = {2.5, 5}/4 = 1/2, Pfa_spoof = 1/2.
#
# The organisers' ASV EER threshold: targets and non-targets sorted, 1N 2N 3T 4N 6T 7N 8T
# 9T; rejecting the k lowest, |FRR - FAR| = 1, .75, .5, |.25-.5|, 0 (k = 4) ...: EER 1/4,
# threshold 4 (the highest rejected score). The t-DCF's ASV point then *accepts* 4
# (obtain_asv_error_rates accepts score >= threshold): Pfa = {4, 7}/4 = 1/2, Pmiss =
# {3}/4 = 1/4, Pmiss_spoof = {2.5}/4 = 1/4.
#
# CM: bona fide .4 .6 .7 .75 .8 .85 .9 .95 (8), spoof .1 .3 .5 .65 (4). Accepting >= u:
#   u      .1   .3   .4   .5   .6   .65  .7   .75 ...  reject all
#   miss   0    0    0    1/8  1/8  2/8  2/8  3/8      1
#   fa     1    3/4  1/2  1/2  1/4  1/4  0    0        0
#
# t-DCF 2019 (TDCF_2019): C1 = .9405 (1 - 1/4) - .0095 * 10 * 1/4 = .705375 - .02375 =
# .681625; C2 = 10 * .05 * (1 - 1/2) = .25; normalizer min = .25; t-DCF = 2.7265 miss + fa:
# 1, .75, .5, .8408125, .5908125, .931625, .681625, ...: minimum .5 at u = .4, threshold
# (.3 + .4)/2 = .35 (the organisers' .3, the highest rejected score).
# t-DCF 2021 (ASVSPOOF5): C0 = .9405/4 + .095/4 = .258875, C1 = .9405 - .258875 = .681625,
# C2 = .05 * 10 * 1/2 = .25, normalizer C0 + .25 = .508875; at u = .4:
# (.258875 + .125)/.508875 = 3071/4071 (the minimum: .446375 at .3, .406578125 at .6).
# Actual t-DCF at threshold .55 (accept .6 and up): miss 1/8, fa 1/4: 2019 .5908125.
# Bayes threshold of the 2019 weights: ln(.25 / .681625).
#
# CM minDCF (ASVSPOOF5_CM): c_det = 1 * miss * .95 + 10 * fa * .05, normalizer
# min(.95, .5) = .5: .5, .375, .25, .36875, .24375, .3625, .2375 (u = .7), .35625, ...:
# minimum .2375 / .5 = .475 at u = .7, threshold .675 (organisers' .65). actDCF at
# -ln(1 * .95 / (10 * .05)) = -ln 1.9: every score is above it, miss 0, fa 1: .5 / .5 = 1.
#
# a-DCF of the SASV score, sorted: 1.6N 2.6S 2.85N 3.8T 4.95N 5.5S 6.9T 7.75N 7.8S 8.4T
# 9.7T 10.65S. Accepting >= u, (miss, fa non-target, fa spoof):
#   1.6 (0, 1, 1)   2.6 (0, 3/4, 1)   2.85 (0, 3/4, 3/4)   3.8 (0, 1/2, 3/4)
#   4.95 (1/4, 1/2, 3/4)   5.5 (1/4, 1/4, 3/4)   6.9 (1/4, 1/4, 1/2)   7.75 (1/2, 1/4, 1/2)
#   7.8 (1/2, 0, 1/2)   8.4 (1/2, 0, 1/4)   9.7 (3/4, 0, 1/4)   10.65 (1, 0, 1/4)
# ASVSPOOF5 costs: .9405 miss + .095 fa + .5 fa_spoof, normalizer min(.595, .9405) =
# .595: at 3.8, .0475 + .375 = .4225 (the minimum; .44625 at 2.85, .508875 at 6.9):
# .4225/.595 = 169/238, threshold (2.85 + 3.8)/2 = 3.325.
# SASV_ADCF costs: .9 miss + .5 fa + 1.0 fa_spoof, normalizer min(1.5, .9) = .9: at 8.4,
# .45 + .25 = .7 (.85 at 6.9, .95 at 7.8, .925 at 9.7): 7/9, threshold (7.8 + 8.4)/2 = 8.1.
TOY_ASV = {"target": [3.0, 6.0, 8.0, 9.0], "nontarget": [1.0, 2.0, 4.0, 7.0],
           "spoof": [2.5, 5.0, 7.5, 10.0]}
TOY_CM = {"target": [0.8, 0.9, 0.4, 0.7], "nontarget": [0.6, 0.85, 0.95, 0.75],
          "spoof": [0.1, 0.5, 0.3, 0.65]}
TOY_ASV_THRESHOLD = 5.5
TOY = {
    "rates": (F(1, 4), F(1, 4), F(1, 2), F(1, 2)),  # pfa, pmiss, pmiss_spoof, pfa_spoof
    "eer": F(1, 4),
    "eer_threshold": 4.0,
    "rates_at_eer_threshold": (F(1, 2), F(1, 4), F(1, 4), F(3, 4)),
    "c1_2019": 0.681625,
    "c2_2019": 0.25,
    "min_tdcf_2019": 0.5,
    "min_tdcf_2019_threshold": 0.35,
    "c0_2021": 0.258875,
    "min_tdcf_2021": F(3071, 4071),
    "min_tdcf_2021_threshold": 0.35,
    "act_tdcf_2019_at_055": 0.5908125,
    "cm_min_dcf": 0.475,
    "cm_min_dcf_threshold": 0.675,
    "cm_act_dcf": 1.0,
    "adcf_asvspoof5": F(169, 238),
    "adcf_asvspoof5_threshold": 3.325,
    "adcf_sasv": F(7, 9),
    "adcf_sasv_threshold": 8.1,
}
# The organisers' code on TOY (driver, as above): the same values, their thresholds the
# highest rejected scores.
TOY_ORGANISERS = {
    "eer": 0.25, "eer_threshold": 4.0,
    "rates_at_eer_threshold": (0.5, 0.25, 0.25, 0.75),
    "min_tdcf_2019": 0.5, "min_tdcf_2019_threshold": 0.3,
    "min_tdcf_2021": 0.7543601080815525, "min_tdcf_2021_threshold": 0.3,
    "adcf_asvspoof5": 0.7100840336134454, "adcf_asvspoof5_threshold": 2.85,
    "adcf_sasv": 0.7777777777777777, "adcf_sasv_threshold": 7.8,
    "cm_min_dcf": 0.47499999999999953, "cm_min_dcf_threshold": 0.65,
    "cm_act_dcf": 1.0, "cm_cllr": 0.939681807034323,
    # their 2019 curve at every CM point: (highest rejected score, normalized t-DCF)
    "tdcf_2019_curve": [(0.099, 1.0), (0.1, 0.75), (0.3, 0.5), (0.4, 0.8408125),
                        (0.5, 0.5908125), (0.6, 0.9316249999999999),
                        (0.65, 0.6816249999999999), (0.7, 1.0224374999999999),
                        (0.75, 1.3632499999999999), (0.8, 1.7040624999999998),
                        (0.85, 2.0448749999999998), (0.9, 2.3856874999999995),
                        (0.95, 2.7264999999999997)],
}

# ----------------------------------------------------------------------------------------
# TEER_TOY: the concurrent t-EER by hand. ASV targets 4, 7; non-targets 2.5, 6.5; spoofs
# 1.25, 5.25. CM bona fide 1, 5, 7, 9; spoofs 3.5, 4.5.
#
# ASV positions (targets, then non-targets, then spoofs first in ties; here no ties),
# 1.25S 2.5N 4T 5.25S 6.5N 7T, rejecting the m lowest: a = Pmiss, b = Pfa non-target,
# c = Pfa spoof; the ASV point counts when a < (b + c)/2:
#   m = 0: (0, 1, 1) yes   m = 1: (0, 1, 1/2) yes   m = 2: (0, 1/2, 1/2) yes
#   m = 3: (1/2, 1/2, 1/2) no (1/2 < 1/2 fails); m = 4, 5, 6: no
# CM positions 1B 3.5S 4.5S 5B 7B 9B: (P = Pmiss_cm, F = Pfa_cm) = (0, 1), (1/4, 1),
# (1/4, 1/2), (1/4, 0), (1/2, 0), (3/4, 0), (1, 0).
# gap = tandem miss - tandem false alarm = P + (1-P) a - ((1-P) b/2 + F c/2):
#   m = 0: -1, -5/8, -3/8, -1/8, 1/4, ...: nearest 0 at k = 3 (|-1/8|);
#          crit = |b/c - F/(1-P)| = |1 - 0| = 1
#   m = 1: -3/4, -3/8, -1/4, -1/8, 1/4: k = 3; crit = |2 - 0| = 2
#   m = 2: -1/2, -3/16, -1/16, +1/16, ...: |-1/16| = |1/16|, the first: k = 2;
#          crit = |1 - (1/2)/(3/4)| = 1/3
# The smallest crit is m = 2, k = 2: t-EER = c F = 1/2 * 1/2 = 1/4; the ASV rejects 1.25
# and 2.5 (threshold (2.5 + 4)/2 = 3.25), the CM rejects 1 and 3.5 (threshold
# (3.5 + 4.5)/2 = 4). The organisers' compute_teer: 25.0 (percent), ASV index 2 (tau 2.5),
# CM index 2 (tau 3.5).
TEER_TOY_ASV = {"target": [4.0, 7.0], "nontarget": [2.5, 6.5], "spoof": [1.25, 5.25]}
TEER_TOY_CM = {"bonafide": [1.0, 5.0, 7.0, 9.0], "spoof": [4.5, 3.5]}
TEER_TOY = {"teer": F(1, 4), "asv_threshold": 3.25, "cm_threshold": 4.0,
            "organisers_teer_percent": 25.0, "organisers_asv_tau": 2.5,
            "organisers_cm_tau": 3.5}
