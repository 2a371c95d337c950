"""Expected values for tests/test_stats.py, each with its provenance.

A printed value is stored as ``Printed(value, decimals)``: the test checks that our number,
in the same units, lies within half a unit of the last printed decimal of ``value``.
Percentages are stored in percent, as printed.

Sources
-------
SPEC   /work/shared/SPEC.md (§3, §4, §5), whose numbers were recomputed from the formulas.
B&M    Bengio, S., & Mariéthoz, J. (2004). A statistical significance test for person
       authentication. Odyssey 2004 (seed 001), Tables 2, 3, 5, 6.
H&U    Hofbauer, H., & Uhl, A. (2016). Calculating a boundary for the significance from the
       equal-error rate. ICB 2016 (seed 000), Examples 1–3.
G      Günter, S. (2004). Vergleich von Erkennungsmethoden. IAM-04-001 (seed 003).
SM     statsmodels 0.15 ``statsmodels.stats.contingency_tables.mcnemar`` (values given in
       the task brief; the oracle test also recomputes them with statsmodels).
HAND   computed by hand from the formula, shown in the comment.
"""

from __future__ import annotations

from typing import NamedTuple


class Printed(NamedTuple):
    value: float
    decimals: int


LEVELS = (0.90, 0.95, 0.99)

# --------------------------------------------------------------------------- §3 HTER (B&M)

# XM2VTS, B&M Table 1: model A FAR 1.15 %, FRR 2.50 %; model B FAR 1.95 %, FRR 2.75 %;
# NI = 112000 impostor and NC = 400 client accesses.
XM2VTS = {"n_impostor": 112000, "n_genuine": 400}
XM2VTS_A = {"far": 0.0115, "frr": 0.025}
XM2VTS_B = {"far": 0.0195, "frr": 0.0275}

# Full interval widths 2·z·σ in percent, by method and confidence level.
# SPEC §3 table rows 1-3 (= B&M Table 2, except that the paper prints 2.013 % for the 99 %
# HTER width; SPEC's recomputation, and ours, give 2.0124 %).
XM2VTS_A_WIDTHS = {
    "bengio": {0.90: Printed(1.285, 3), 0.95: Printed(1.531, 3), 0.99: Printed(2.012, 3)},
    "naive": {0.90: Printed(0.131, 3), 0.95: Printed(0.156, 3), 0.99: Printed(0.206, 3)},
    "class": {0.90: Printed(0.105, 3), 0.95: Printed(0.125, 3), 0.99: Printed(0.164, 3)},
}
# The NAIVE 95 % width is 0.1565045 % (HTER 1.825 %, N 112400, z = 1.959964): it rounds to
# 0.157, not to the 0.156 printed in SPEC and in B&M Table 2.  No reading of the inputs
# reproduces all three NAIVE widths (HTER 1.82 % gives 0.156 but then 0.205 at 99 %), so
# that one case is checked to within one unit of the last printed decimal instead of half.
NAIVE_95_SLACK_UNITS = 1.0

# A vs B, two-sided, SPEC §3 (B&M Table 3): σ and δ (δ in percent).
XM2VTS_AB = {
    "independent": {"se": Printed(0.00566, 5), "delta": Printed(64.7, 1)},  # SPEC
    "naive": {"se": Printed(0.00060, 5), "delta": Printed(100.0, 1)},  # SPEC
    "class": {"se": Printed(0.0005, 4), "delta": Printed(100.0, 1)},  # B&M Table 3 only
}

# NIST'2000, B&M Table 4: model C FAR 13.1 %, FRR 9.6 %; model D FAR 15.8 %, FRR 7.8 %;
# NI = 57748, NC = 5825.
NIST = {"n_impostor": 57748, "n_genuine": 5825}
NIST_C = {"far": 0.131, "frr": 0.096}
NIST_D = {"far": 0.158, "frr": 0.078}
NIST_C_WIDTHS = {
    # SPEC §3 (= B&M Table 5, HTER column)
    "bengio": {0.90: Printed(0.676, 3), 0.95: Printed(0.805, 3), 0.99: Printed(1.058, 3)},
    # B&M Table 5, NAIVE and CLASS columns (not in SPEC; our recomputation agrees)
    "naive": {0.90: Printed(0.414, 3), 0.95: Printed(0.493, 3), 0.99: Printed(0.648, 3)},
    "class": {0.90: Printed(0.436, 3), 0.95: Printed(0.519, 3), 0.99: Printed(0.682, 3)},
}
# C vs D independent, SPEC §3 (B&M Table 6): σ = 0.00281, δ = 89.1 %.
NIST_CD_INDEPENDENT = {"se": Printed(0.00281, 5), "delta": Printed(89.1, 1)}

# Dependent test, HAND: NI = 1000, NC = 100; A: FA 20, FR 5; B: FA 30, FR 8;
# NI_AB = 15 (A rejects, B accepts), NI_BA = 5, NC_AB = 4 (A accepts, B rejects), NC_BA = 1,
# consistent with FA_B - FA_A = 15 - 5 and FR_B - FR_A = 4 - 1.
# HTER_A - HTER_B = (0.035 - 0.055) = -0.02 = ((5 - 15)/1000 + (1 - 4)/100)/2;
# σ² = (20/1000)/(4·1000) + (5/100)/(4·100) = 5e-6 + 1.25e-4 = 1.3e-4;
# z = -0.02/sqrt(1.3e-4) = -1.75412 (eq. 16; the erratum of Fig. 2 would give twice that);
# p = 2·Φ(-1.75412) = 0.079411.
DEPENDENT_CASE = {
    "args": (0.02, 0.05, 0.03, 0.08),
    "kwargs": {
        "n_impostor": 1000,
        "n_genuine": 100,
        "ni_ab": 15,
        "ni_ba": 5,
        "nc_ab": 4,
        "nc_ba": 1,
    },
    "estimate": -0.02,
    "se": 1.3e-4**0.5,
    "statistic": -0.02 / 1.3e-4**0.5,
    "pvalue": Printed(0.079411, 6),
}

# --------------------------------------------------------------------------- §4 McNemar / EER

# H&U Example 1, actual McNemar counts: b = 26055, c = 26707 (d = 10198), N = 3480841.
# SPEC §4: χ² = 8.032 corrected, 8.057 uncorrected, p = 0.00460 (corrected).
MCNEMAR_HU = {"b": 26055, "c": 26707, "n": 3480841}
MCNEMAR_HU_EXPECTED = {
    "chi2_corrected": Printed(8.032, 3),
    "chi2": Printed(8.057, 3),
    "pvalue_corrected": Printed(0.00460, 5),
    # H&U print p_v = 0.00459: the exact binomial p is 0.0045946.
    "pvalue_exact": Printed(0.00459, 5),
}

# SM oracle tables, layout [[both right, A right B wrong], [A wrong B right, both wrong]]:
# (table, exact p, corrected χ²), values from statsmodels (see module docstring).
MCNEMAR_TABLES = [
    ([[101, 121], [59, 33]], 4.4344e-06, 20.6722),
    ([[9959, 11], [1, 29]], 0.0063477, 6.75),
    ([[9945, 25], [15, 15]], 0.15386, 2.025),
]

# H&U Examples, SPEC §4 table.
EER_EXAMPLE_1 = {
    # from the rounded EERs; the paper prints 2.027 / 0.155 from unrounded EERs
    "eer_a": 0.010426,
    "eer_b": 0.010317,
    "n": 3480841,
    "chi2": Printed(1.994, 3),
    "pvalue": Printed(0.158, 3),
}
EER_EXAMPLE_2 = {
    "eer_a": 0.0013,
    "eer_b": 0.0058,
    "n": 719400,
    "chi2": Printed(2051.8, 1),
    "pvalue_below": 1e-6,
    # SPEC: log10 p' ≈ −447.3 (scipy.stats.chi2.logsf underflows to -inf there)
    "log10_pvalue": Printed(-447.3, 1),
}
EER_EXAMPLE_3 = {
    # minimum significant difference at p = 1 %, EER_M = 0.58 %, N = 285390: 0.0519 %
    "eer_max": 0.0058,
    "n": 285390,
    "alpha": 0.01,
    "delta_percent": Printed(0.0519, 4),
}
EER_MA_DAUGMAN = {
    # Example 3, MA (0.07 %) vs DAUGMAN (0.08 %): χ²' = 1.9026, p' = 0.1678
    "eer_a": 0.0007,
    "eer_b": 0.0008,
    "n": 285390,
    "chi2": Printed(1.9026, 4),
    "pvalue": Printed(0.1678, 4),
}

# --------------------------------------------------------------------------- §5 Günter

# Simple test (G eq. 3 example; SPEC §5): R1 = 2/3, R2 = 1/3, |T| = 64 → Z = 4.000,
# P = 3.17e-5 (G prints 0.0033 %).
GUNTER_SIMPLE = {
    "r1": 2 / 3,
    "r2": 1 / 3,
    "n": 64,
    "statistic": Printed(4.000, 3),
    "pvalue": Printed(3.17e-5, 7),
}
# Paired test (G eq. 5-6 example with R1/R2 named as SPEC says: method 1 is the better one):
# |T| = 100, R1 = 0.6, R2 = 0.5, R12 = 0.5 → σx = 0.09, Z = 3.333, P = 4.3e-4
# (G prints 0.06 % from a table).
GUNTER_PAIRED = {
    "r1": 0.6,
    "r2": 0.5,
    "r12": 0.5,
    "n": 100,
    "sigma_x": Printed(0.09, 2),
    "statistic": Printed(3.333, 3),
    "pvalue": Printed(4.3e-4, 5),
}
# Same data with the simple test, G: "Z = 0.1/sqrt((0.24 + 0.25)/100) = 1.43"
# (its P = 7.78 % is read from a table; the normal tail is 7.66 %, so only Z is checked).
GUNTER_PAIRED_AS_SIMPLE = {"statistic": Printed(1.43, 2)}
# Sign test (G eq. 7 with 0.5^n, SPEC §5): 4 wins of 4 → P = 0.0625.
SIGN_TEST = {"wins_a": 4, "wins_b": 0, "pvalue": Printed(0.0625, 4)}
