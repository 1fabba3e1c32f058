"""Pairwise evidence with the deal as the unit: a Leduc pair judged hand by
hand, each hand's chips less its luck.

A duplicate set of 100-hand matches is one draw of a pair's mean chip
difference, which lies within the bound of one hand
(ladder.rating.score_evidence): a confidence sequence that may assume
nothing but that bound can bet only about mean / bound a set, whatever the
spread, and the heuristic and the random bot, 1.8 chips a hand apart, took
79 sets to order. The same set holds 100
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
sets, but an **empirical-Bernstein** confidence sequence, which holds for
units with any conditional means (Howard, Ramdas, McAuliffe and Sekhon,
"Time-uniform, nonparametric, nonasymptotic confidence sequences", Annals of
Statistics 49(2), 2021, Theorem 4; Waudby-Smith and Ramdas, "Estimating
means of bounded random variables by betting", JRSS B 86(1), 2024, Theorem
2): with probability 1 - alpha, at every moment, the interval holds the mean
of the units' expected scores, each given everything played before it. For
bots that play every hand alike that is the pair's chips per hand; for bots
that adapt, what they won per hand on average, net of the cards, over the
hands they played. For a unit x_i in [0, 1] (the chip difference scaled by
the bound, as ladder.rating.score_evidence does), m_i the plug-in mean
before it (a prior unit of 1/2 counted once), S = sum x_i, V = sum (x_i -
m_i)^2 and psi(l) = -log(1 - l) - l, each constant bet l of a grid makes

    exp(l (S - t mu) - psi(l) V)

a nonnegative supermartingale whatever the conditional means averaging mu
are, and so does their mean over the grid (a discrete mixture: the bet
that suits the spread and the gap wins, for the price of log(grid) in the
threshold). A candidate m is ruled out from below while the mixture at m
exceeds 2 / alpha (and from above likewise with -l); the interval is what
is left now, not intersected over time (its target may move when bots
adapt), so a verdict can be taken back. Mixtures over constant bets, not
the predictable plug-in bets of Waudby-Smith and Ramdas' Theorem 2: the
plug-in's bets shrink as 1 / sqrt(i log i) and weigh the first hands most;
on the same Leduc sets it needed 2.7 times the matches to call two copies
of the random bot indistinguishable, while it settled distant pairs in 4-5
matches instead of 6-8 (docs/ladder.md, "Hands as the unit, luck taken
out").

A set played before the per-hand figures were kept (or a game that keeps
none) enters as one unit, its set score: bounded the same way, so the
guarantee is unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ladder.rating.evidence import BET_CAP, MAX_PROJECTED_SETS, ROUNDING

PRIOR_VARIANCE = 0.25
"""The plug-in variance's prior unit (for the projection), Waudby-Smith and Ramdas' 1/4."""

BETS = 32
"""The grid's constant bets: geometric from SMALLEST_BET to BET_CAP (each
about 1.27 times the one before), equally weighted."""

SMALLEST_BET = 1e-3
"""The best constant bet is about gap / variance: this one suits a gap of
a thousandth of a unit's variance, below any pair a ladder could settle."""


@lru_cache(maxsize=1)
def bets() -> tuple[float, ...]:
    """The mixture's bets."""
    ratio = (BET_CAP / SMALLEST_BET) ** (1 / (BETS - 1))
    return tuple(SMALLEST_BET * ratio**k for k in range(BETS))


def _psi(bet: float) -> float:
    return -math.log1p(-bet) - bet


def _log_mixture(drift: float, variation: float) -> float:
    """log of the mean over the bets l of exp(l drift - psi(l) variation)."""
    exponents = [bet * drift - _psi(bet) * variation for bet in bets()]
    top = max(exponents)
    return top + math.log(math.fsum(math.exp(e - top) for e in exponents) / len(exponents))


@dataclass
class HandEvidence:
    """The running confidence sequence of one pair, fed set by set, each set
    as its units (its duplicate hands, or itself)."""

    alpha: float
    n: int = 0
    """Sets."""
    units: int = 0
    total: float = 0.0
    """S, the sum of the units."""
    variation: float = 0.0
    """V, the sum of (x_i - m_i)^2."""
    scores: list[float] = field(default_factory=list)
    """Each set's mean unit: the per-set scores the SPRT of --versus reads."""
    least: float = 0.0
    most: float = 1.0
    """The scores' range (every unit lies in [0, 1])."""

    @property
    def log_term(self) -> float:
        """The log of the mixture that rules a candidate out: log(2 / alpha)."""
        return math.log(2 / self.alpha)

    def add_set(self, units: Sequence[float]) -> None:
        """One more set's units, in the order played (hand 1 first)."""
        if not units:
            raise ValueError("a set has at least one unit")
        for x in units:
            if not 0.0 <= x <= 1.0:
                raise ValueError(f"a unit lies in [0, 1], not {x}")
            self.variation += (x - self.plug_in_mean) ** 2
            self.units += 1
            self.total += x
        self.n += 1
        self.scores.append(math.fsum(units) / len(units))

    @property
    def plug_in_mean(self) -> float:
        """m_i: the mean of the units so far with a prior unit of 1/2."""
        return (0.5 + self.total) / (self.units + 1)

    @property
    def variance(self) -> float:
        """The plug-in variance of one unit."""
        return (PRIOR_VARIANCE + self.variation) / (self.units + 1)

    @property
    def sd(self) -> float:
        return math.sqrt(self.variance)

    @property
    def mean(self) -> float:
        """The mean unit (1/2 = even)."""
        return self.total / self.units if self.units else 0.5

    def ruled_out(self, m: float, side: int) -> bool:
        """Whether candidate m is ruled out from below (side +1: the mean is
        above m) or from above (-1)."""
        return _log_mixture(side * (self.total - self.units * m), self.variation) >= self.log_term

    def _end(self, side: int) -> float:
        """The interval's end on `side`'s opposite: bisection between the
        mean and 0 (side +1) or 1 (-1), the ruled-out candidates a run."""
        inside, outside = self.mean, 0.0 if side > 0 else 1.0
        if not self.units or not self.ruled_out(outside, side):
            return outside
        for _ in range(50):
            middle = (inside + outside) / 2
            inside, outside = (inside, middle) if self.ruled_out(middle, side) else (middle, outside)
        return outside

    @property
    def low(self) -> float:
        """Every candidate up to it is ruled out: the mean is above (0 when none is)."""
        return self._end(1)

    @property
    def high(self) -> float:
        """Every candidate from it up is ruled out: the mean is below (1 when none is)."""
        return self._end(-1)

    def flipped(self) -> "HandEvidence":
        """The same evidence seen from the other bot (units 1 - x): the
        plug-in mean mirrors, so V does not change."""
        return HandEvidence(self.alpha, self.n, self.units, self.units - self.total, self.variation,
                            [1 - x for x in self.scores], 1 - self.most, 1 - self.least)

    def more_sets(self, margin: float) -> int:
        """Roughly how many more shared sets the pair needs, the nearer way
        (ordered, or within the margin), if its units went on with their
        mean and spread: an estimate, not a promise."""
        gap = abs(self.mean - 0.5)
        return self.sets_to_narrow(max(gap, margin - gap) if gap < margin else gap)  # the nearer verdict's width

    def sets_to_narrow(self, width: float) -> int:
        """Roughly how many more shared sets bring the half-width down to
        `width` at the current spread (MAX_PROJECTED_SETS + 1: more than that)."""
        if width <= ROUNDING:
            return MAX_PROJECTED_SETS + 1
        per_set = self.units / self.n if self.n else 1.0
        more = (units_for(width, self.variance, self.alpha) - self.units) / per_set
        return MAX_PROJECTED_SETS + 1 if more > MAX_PROJECTED_SETS else max(1, math.ceil(more))


def width_after(units: float, variance: float, alpha: float) -> float:
    """About the half-width after `units` units of the given variance: the
    gap at which the mixture reaches 2 / alpha, drift = units x gap and
    V = units x variance (bisection: the mixture grows with the gap)."""
    threshold = math.log(2 / alpha)
    low, high = 0.0, 1.0
    for _ in range(50):
        middle = (low + high) / 2
        low, high = (low, middle) if _log_mixture(units * middle, units * variance) >= threshold else (middle, high)
    return high


def units_for(width: float, variance: float, alpha: float) -> float:
    """Units after which the half-width would be `width` (doubling, then bisection)."""
    high = 2.0
    while width_after(high, variance, alpha) > width:
        high *= 2
        if high > 1e12:
            return math.inf
    low = high / 2
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (middle, high) if width_after(middle, variance, alpha) > width else (low, middle)
    return high
