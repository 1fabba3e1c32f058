"""A sequential probability ratio test of "is NEW better than OLD?".

The data are the per-set scores of ladder.rating.evidence: NEW's mean result
against OLD (1 ahead, 1/2 same place, 0 behind) over the seat rotations of
one duplicate set, at tables they share with bots of the rest of the roster.
The hypotheses are about their expectation mu:

    H0: mu = 1/2            (NEW is no better than OLD)
    H1: mu = 1/2 + margin   (NEW finishes ahead of OLD that much more often)

The score's distribution is not known (it depends on the game, the table
and the other bots), so this is the generalized SPRT that chess engine
testing uses (fishtest, fastchess with its pentanomial game pairs, whose
duplicate game pair is our duplicate set): the likelihood of the observed
scores under each hypothesis is that of the most likely distribution on the
observed values with the hypothesis' mean (a one-dimensional Lagrange
problem), and the log-likelihood ratio is compared with Wald's bounds
log(beta / (1 - alpha)) and log((1 - beta) / alpha). Accepting H1 when H0
holds happens with probability about alpha, accepting H0 when H1 holds about
beta; the validation in docs/ladder.md measures both.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

H1 = "H1"
H0 = "H0"

PSEUDO_COUNT = 1e-3
"""Weight of an imaginary set at each extreme (0 and 1), as fishtest
regularizes empty pentanomial cells: keeps both hypotheses' means inside the
range of the data, so a few identical first sets give a finite ratio."""


@dataclass(frozen=True)
class Sprt:
    margin: float = 0.05
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def mu0(self) -> float:
        return 0.5

    @property
    def mu1(self) -> float:
        return 0.5 + self.margin

    @property
    def lower(self) -> float:
        """Accept H0 at or below this log-likelihood ratio."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this log-likelihood ratio."""
        return math.log((1 - self.beta) / self.alpha)

    def decide(self, llr: float) -> str | None:
        """H1, H0 or None (play on)."""
        if llr >= self.upper:
            return H1
        if llr <= self.lower:
            return H0
        return None

    def llr(self, scores: Sequence[float], bounds: tuple[float, float] = (0.0, 1.0)) -> float:
        """The generalized log-likelihood ratio of H1 against H0; `bounds`
        is the scores' range (a corrected score's is wider: ladder.rating.control_variate)."""
        counts: dict[float, float] = dict(Counter(scores))
        for extreme in bounds:
            counts[extreme] = counts.get(extreme, 0.0) + PSEUDO_COUNT
        values = list(counts)
        weights = [counts[v] for v in values]
        return (_log_likelihood(values, weights, self.mu1) - _log_likelihood(values, weights, self.mu0))


def _log_likelihood(values: Sequence[float], weights: Sequence[float], mu: float) -> float:
    """Sum of w_j log p_j for the most likely p on `values` with mean `mu`,
    relative to the empirical distribution (which cancels in a ratio).

    The maximum is p_j = f_j / (1 + theta (v_j - mu)), theta the root of
    sum f_j (v_j - mu) / (1 + theta (v_j - mu)) = 0, which decreases in
    theta on the interval where every denominator is positive: bisection."""
    total = sum(weights)
    freqs = [w / total for w in weights]
    deviations = [v - mu for v in values]
    low = -1 / max(deviations) if max(deviations) > 0 else -1e12
    high = -1 / min(deviations) if min(deviations) < 0 else 1e12
    low, high = low + 1e-12 * abs(low), high - 1e-12 * abs(high)

    def slope(theta: float) -> float:
        return sum(f * d / (1 + theta * d) for f, d in zip(freqs, deviations))

    for _ in range(200):
        middle = (low + high) / 2
        if slope(middle) > 0:
            low = middle
        else:
            high = middle
        if high - low <= 1e-14 * max(1.0, abs(middle)):
            break
    theta = (low + high) / 2
    return -sum(w * math.log1p(theta * d) for w, d in zip(weights, deviations))


def sets_to_decide(sprt: Sprt, scores: Sequence[float], bounds: tuple[float, float] = (0.0, 1.0)) -> float:
    """Roughly how many more sets the test needs if the scores go on as
    they went: the distance to the bound they head for over the ratio's
    drift per set at their mean and spread, margin (2 mean - mu0 - mu1) /
    (2 variance) (inf when the mean sits halfway, where the ratio has no
    drift). An estimate for a spent budget, not a promise; the variance
    counts a prior set of spread 1/2, so a few equal scores do not promise
    a verdict at once."""
    mean = sum(scores) / len(scores)
    variance = (0.25 + sum((x - mean) ** 2 for x in scores)) / (len(scores) + 1)  # as ladder.rating.evidence's plug-in
    step = sprt.margin * (2 * mean - sprt.mu0 - sprt.mu1) / (2 * variance)
    llr = sprt.llr(scores, bounds)
    if step > 0:
        return max(0.0, (sprt.upper - llr) / step)
    if step < 0:
        return max(0.0, (sprt.lower - llr) / step)
    return math.inf


def expected_sets(sprt: Sprt, sd: float, mu: float) -> float:
    """Wald's approximate average number of sets when the true mean is `mu`
    (mu0 or mu1) and one set's score spreads by `sd`: the nominal figure the
    validation compares the measured average with."""
    step = sprt.margin * (2 * mu - sprt.mu0 - sprt.mu1) / (2 * sd**2)
    accept_h1 = sprt.alpha if mu <= sprt.mu0 else 1 - sprt.beta
    drift = accept_h1 * sprt.upper + (1 - accept_h1) * sprt.lower
    return drift / step
