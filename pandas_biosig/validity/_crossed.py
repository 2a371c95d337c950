"""Simulated tables whose impostor scores depend on both people of a trial.

An impostor trial compares a probe with a reference of another person; a person who is
easy to imitate (a "lamb") or good at imitating (a "wolf") raises every impostor score
they take part in, so impostor trials are dependent along two crossed factors
(Doddington et al., 1998). :func:`crossed_trials` draws such tables with a known truth:

- every person ``i`` of a split has a probe effect ``a_i``, a reference effect ``b_i``
  and a genuine effect ``c_i``, each N(0, 1) (the two systems' effects correlated at
  ``rho``);
- an impostor score of probe ``i`` against reference ``j`` is
  ``tau_probe * a_i + tau_reference * b_j + sqrt(1 - tau_probe**2 - tau_reference**2) * e``,
  a genuine score of person ``i`` is ``mu + tau_genuine * c_i + sqrt(1 - tau_genuine**2) * e``
  (``e`` N(0, 1) noise, correlated at ``rho`` between the systems),

so that every score is N(0, 1) (impostor) or N(mu, 1) (genuine) marginally:
FAR(t) = 1 - Phi(t) and FRR(t) = Phi(t - mu) exactly, as in
:func:`pandas_biosig.validity.simulate_trials`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["CrossedSetting", "crossed_trials"]


@dataclass(frozen=True)
class CrossedSetting:
    """One simulated protocol with crossed probe and reference effects.

    ``n_people`` per split, each with ``genuine_per_person`` genuine trials and
    ``references_per_person`` impostor trials against distinct other people of the split
    (chosen at random); ``tau_probe``, ``tau_reference``, ``tau_genuine``: the s.d. of the
    effects (``tau_probe**2 + tau_reference**2 <= 1``); ``rho``: correlation of the two
    systems; ``mu``: the genuine mean.
    """

    n_people: int = 60
    genuine_per_person: int = 5
    references_per_person: int = 30
    mu: float = 2.0
    tau_probe: float = 0.5
    tau_reference: float = 0.5
    tau_genuine: float = 0.5
    rho: float = 0.5

    def __post_init__(self):
        if self.tau_probe**2 + self.tau_reference**2 > 1:
            raise ValueError("tau_probe**2 + tau_reference**2 must be at most 1")
        if not 0 < self.references_per_person < self.n_people:
            raise ValueError("references_per_person must lie in [1, n_people - 1]")


def _pairs(rng: np.random.Generator, s: CrossedSetting) -> tuple[np.ndarray, np.ndarray]:
    """Probe and reference of every impostor trial: for each person, distinct others."""
    k, m = s.n_people, s.references_per_person
    offsets = np.argsort(rng.random((k, k - 1)), axis=1)[:, :m] + 1  # 1..k-1, distinct
    probe = np.repeat(np.arange(k), m)
    return probe, (probe + offsets.ravel()) % k


def _correlated(rng, shape, rho: float) -> tuple[np.ndarray, np.ndarray]:
    z1 = rng.standard_normal(shape)
    return z1, rho * z1 + math.sqrt(1 - rho**2) * rng.standard_normal(shape)


def _split(rng: np.random.Generator, s: CrossedSetting) -> dict:
    k = s.n_people
    probe, ref = _pairs(rng, s)
    gen_person = np.repeat(np.arange(k), s.genuine_per_person)
    n_imp, n_gen = probe.size, gen_person.size
    effects = [_correlated(rng, k, s.rho) for _ in range(3)]  # a, b, c for A and B
    noise = _correlated(rng, n_imp + n_gen, s.rho)
    own_imp = math.sqrt(max(1 - s.tau_probe**2 - s.tau_reference**2, 0.0))
    own_gen = math.sqrt(1 - s.tau_genuine**2)
    scores = []
    for sys in (0, 1):
        a, b, c = (e[sys] for e in effects)
        e = noise[sys]
        imp = s.tau_probe * a[probe] + s.tau_reference * b[ref] + own_imp * e[:n_imp]
        gen = s.mu + s.tau_genuine * c[gen_person] + own_gen * e[n_imp:]
        scores.append(np.concatenate((imp, gen)))
    return dict(
        subject=np.concatenate((probe, gen_person)),
        reference_subject=np.concatenate((ref, gen_person)),
        label=np.concatenate((np.zeros(n_imp, bool), np.ones(n_gen, bool))),
        scores=scores,
    )


def crossed_trials(setting: CrossedSetting, *, seed: int | None = None,
                   splits: tuple[str, ...] = ("dev", "eval")) -> pd.DataFrame:
    """A tidy table of systems ``A`` and ``B`` with ``subject`` and ``reference_subject``
    columns, one independent population per split (people and trial ids distinct across
    splits).

    Examples
    --------
    >>> from pandas_biosig.validity import CrossedSetting, crossed_trials
    >>> t = crossed_trials(CrossedSetting(n_people=10, references_per_person=4), seed=0)
    >>> t.groupby(["split", "label"]).size().tolist()
    [80, 100, 80, 100]
    >>> sorted(t.columns)
    ['label', 'reference_subject', 'score', 'split', 'subject', 'system', 'trial']
    """
    rng = np.random.default_rng(seed)
    frames = []
    start = 0
    for i, name in enumerate(splits):
        d = _split(rng, setting)
        n = d["label"].size
        base = dict(trial=np.arange(start, start + n), label=d["label"],
                    subject=d["subject"] + i * setting.n_people,
                    reference_subject=d["reference_subject"] + i * setting.n_people, split=name)
        start += n
        for sys, score in zip(("A", "B"), d["scores"], strict=True):
            frames.append(pd.DataFrame({"system": sys, **base, "score": score}))
    cols = ["system", "trial", "label", "score", "subject", "reference_subject", "split"]
    return pd.concat(frames, ignore_index=True)[cols]
