"""Pairwise evidence with the deal as the unit: a Leduc pair judged hand by
hand, each hand's chips less its luck.

A duplicate set of 100-hand matches is one draw of a pair's mean chip
difference, which lies within the bound of one hand (ladder.rating.
score_evidence): a confidence sequence that may assume nothing but that
bound can bet only about mean / bound a set, whatever the spread, and two
bots a chip a hand apart took 79 sets to order. The same set holds 100
**duplicate hands**: hand h of every rotation, the same cards played from
every seat (L-7.2). Each is a unit within the same bound, a hundred times
as many, so the sequence's bets follow the hands' own spread instead of the
bound. And each unit takes out the hand's luck, the AIVAT-style correction
the referee reports with every hand (rules L-7.5: what the deal and the
public card were worth beyond their average, expectation 0 whatever the
bots do), which duplicate hands do not cancel when the bots bet differently
before the public card.

Hands of one match are not independent draws: a bot may learn from the
hands before (a poker bot models its opponent). So this is not the
betting sequence of ladder.rating.evidence, whose guarantee is for i.i.d.
sets, but the **predictable plug-in empirical-Bernstein** confidence
sequence (Waudby-Smith and Ramdas, "Estimating means of bounded random
variables by betting", JRSS B 86(1), 2024, Theorem 2), which holds for
units with any conditional means (Howard, Ramdas, McAuliffe and Sekhon,
"Time-uniform, nonparametric, nonasymptotic confidence sequences", Annals of
Statistics 49(2), 2021): with probability 1 - alpha, at every moment, the
interval holds the lambda-weighted mean of each unit's expected score given
everything played before it. For bots that play every hand alike that is
the pair's chips per hand; for bots that adapt, what they won per hand on
average, net of the cards, in the hands they played. A unit x_i in [0, 1]
(the chip difference scaled by the bound, as ladder.rating.score_evidence
does) enters with a bet lambda_i fixed by the units before it:

    lambda_i = min(sqrt(2 log(2/alpha) / (s2_{i-1} i log(1 + i))), BET_CAP)
    interval = sum lambda x / sum lambda  +-  (log(2/alpha) + sum v psi(lambda)) / sum lambda

with s2 the plug-in variance and m the plug-in mean (a prior unit of 1/2
and of spread 1/2 counted once, as theirs), v_i = 4 (x_i - m_{i-1})^2 and
psi(l) = (-log(1 - l) - l) / 4. The interval is not intersected over time
(its target may move when bots adapt), so a verdict can be taken back.

A set played before the per-hand figures were kept (or a game that keeps
none) enters as one unit, its set score: bounded the same way, with the
same conditional mean, so the guarantee is unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from ladder.rating.evidence import BET_CAP, MAX_PROJECTED_SETS, ROUNDING

PRIOR_VARIANCE = 0.25
"""The plug-in variance's prior unit, Waudby-Smith and Ramdas' 1/4."""

PROJECTION_POINTS = 64
"""Points of the integral that projects the interval's width (`width_after`)."""


def _psi(bet: float) -> float:
    return (-math.log1p(-bet) - bet) / 4


@dataclass
class HandEvidence:
    """The running confidence sequence of one pair, fed set by set, each set
    as its units (its duplicate hands, or itself)."""

    alpha: float
    n: int = 0
    """Sets."""
    units: int = 0
    bets: float = 0.0
    """Sum of lambda_i."""
    weighted: float = 0.0
    """Sum of lambda_i x_i."""
    penalty: float = 0.0
    """Sum of v_i psi(lambda_i)."""
    total: float = 0.0
    squares: float = 0.0
    """Sum of (x_i - m_i)^2, the plug-in variance's."""
    scores: list[float] = field(default_factory=list)
    """Each set's mean unit: the per-set scores the SPRT of --versus reads."""
    least: float = 0.0
    most: float = 1.0
    """The scores' range (every unit lies in [0, 1])."""

    @property
    def log_term(self) -> float:
        return math.log(2 / self.alpha)

    def add_set(self, units: Sequence[float]) -> None:
        """One more set's units, in the order played (hand 1 first)."""
        if not units:
            raise ValueError("a set has at least one unit")
        for x in units:
            self._add(x)
        self.n += 1
        self.scores.append(math.fsum(units) / len(units))

    def _add(self, x: float) -> None:
        if not 0.0 <= x <= 1.0:
            raise ValueError(f"a unit lies in [0, 1], not {x}")
        i = self.units + 1
        bet = min(math.sqrt(2 * self.log_term / (self.variance * i * math.log1p(i))), BET_CAP)
        self.bets += bet
        self.weighted += bet * x
        self.penalty += 4 * (x - self.plug_in_mean) ** 2 * _psi(bet)
        self.units = i
        self.total += x
        self.squares += (x - self.plug_in_mean) ** 2

    @property
    def plug_in_mean(self) -> float:
        return (0.5 + self.total) / (self.units + 1)

    @property
    def variance(self) -> float:
        """The plug-in variance of one unit."""
        return (PRIOR_VARIANCE + self.squares) / (self.units + 1)

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def mean(self) -> float:
        """The mean unit (1/2 = even)."""
        return self.total / self.units if self.units else 0.5

    @property
    def centre(self) -> float:
        return self.weighted / self.bets if self.bets else 0.5

    @property
    def half_width(self) -> float:
        return (self.log_term + self.penalty) / self.bets if self.bets else math.inf

    @property
    def low(self) -> float:
        return max(0.0, self.centre - self.half_width)

    @property
    def high(self) -> float:
        return min(1.0, self.centre + self.half_width)

    def flipped(self) -> "HandEvidence":
        """The same evidence seen from the other bot (units 1 - x): the bets
        and penalties do not change, as the spread does not."""
        return HandEvidence(self.alpha, self.n, self.units, self.bets, self.bets - self.weighted, self.penalty,
                            self.units - self.total, self.squares, [1 - x for x in self.scores],
                            1 - self.most, 1 - self.least)

    def more_sets(self, margin: float) -> int:
        """Roughly how many more shared sets the pair needs, the nearer way
        (ordered, or within the margin), if its units went on with their
        mean and spread: an estimate, not a promise."""
        per_set = self.units / self.n if self.n else 1.0
        gap = abs(self.mean - 0.5)
        need = max(gap, margin - gap) if gap < margin else gap  # the wider half-width of the two verdicts
        if need <= ROUNDING:
            return MAX_PROJECTED_SETS + 1
        units = self.units_to_reach(need)
        more = (units - self.units) / per_set
        return MAX_PROJECTED_SETS + 1 if more > MAX_PROJECTED_SETS else max(1, math.ceil(more))

    def units_to_reach(self, width: float) -> float:
        """Units after which the interval's half-width would be `width` at
        the current spread (doubling, then bisection, on `width_after`)."""
        high = float(max(2 * self.units, 2))
        while width_after(high, self.variance, self.alpha) > width:
            high *= 2
            if high > (MAX_PROJECTED_SETS + 1) * 1000:
                return math.inf
        low = high / 2
        for _ in range(40):
            middle = (low + high) / 2
            low, high = (middle, high) if width_after(middle, self.variance, self.alpha) > width else (low, middle)
        return high


def width_after(units: float, variance: float, alpha: float) -> float:
    """The half-width after `units` units of spread sqrt(variance): the
    sums over i of lambda_i and of E[v] psi(lambda_i) = 4 variance psi(lambda_i),
    as integrals over log i (trapezoids on PROJECTION_POINTS points)."""
    log_term = math.log(2 / alpha)
    points = [math.exp(math.log(units) * k / (PROJECTION_POINTS - 1)) for k in range(PROJECTION_POINTS)]
    bets = [min(math.sqrt(2 * log_term / (variance * i * math.log1p(i))), BET_CAP) for i in points]
    total_bet = total_penalty = 0.0
    for (i, a), (j, b) in zip(zip(points, bets), zip(points[1:], bets[1:])):
        total_bet += (j - i) * (a + b) / 2
        total_penalty += (j - i) * 4 * variance * (_psi(a) + _psi(b)) / 2
    total_bet += bets[0]
    total_penalty += 4 * variance * _psi(bets[0])
    return (log_term + total_penalty) / total_bet
