"""Pairwise evidence from shared duplicate sets: is one bot better than the
other, or are the two indistinguishable, with a stated error rate?

The unit of evidence is a **duplicate set** (one deal, played once per seat
rotation) in which both bots sat. Its score for the pair (a, b) is the mean,
over the set's matches, of 1 when a finished ahead of b, 1/2 when they shared
a place and 0 when a finished behind: a number in [0, 1] whose expectation
mu is "how often a finishes ahead of b at a table they share" (ties counting
half). Two copies of one bot have mu = 1/2 exactly, by symmetry. Sets are
independent draws (each has its own deal); the matches of one set are not
(they share the cards), which is why the set, not the match, is the unit.

The confidence sequence is the predictable plug-in empirical-Bernstein one
of Waudby-Smith and Ramdas, "Estimating means of bounded random variables by
betting" (JRSS B 86(1), 2024, Theorem 2). It holds at every number of sets at
once: the probability that mu ever leaves the interval, however often the
ladder looks and whenever it stops, is at most alpha. It adapts to the
scores' variance, which duplicate deals make small. Written here because no
maintained package for Python 3.11 provides it (confseq is a source-only C++
build last released in 2023; `expectation` needs Python 3.12).

A pair is **ordered** when the whole interval lies on one side of 1/2, and
**indistinguishable** when it lies inside (1/2 - margin, 1/2 + margin); each
verdict is wrong with probability at most alpha = 1 - confidence.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

ORDERED = "ordered"
"""The upper bot of the pair is better (the interval lies above 1/2)."""
REVERSED = "reversed"
"""The lower bot is better: the standings' order contradicts the evidence."""
INDISTINGUISHABLE = "indistinguishable"
"""The interval lies within the margin around 1/2."""
OPEN = "open"
"""Neither yet."""

SETTLED = frozenset({ORDERED, INDISTINGUISHABLE})
"""Verdicts that let `--until-stable` stop (a reversed pair must be played
on until the ratings reorder it)."""

BET_CAP = 0.5
"""The largest bet lambda_i (c in the paper, which suggests 1/2 or 3/4)."""

MAX_PROJECTED_SETS = 100_000
"""Beyond this many more sets a pair is reported as needing more."""


def set_score(a: int, b: int, matches: Iterable[tuple[Sequence[int], Sequence[int]]]) -> float | None:
    """a's score against b over one set's matches (bot ids by seat, places;
    0 = first): the mean of 1 (ahead), 1/2 (same place), 0 (behind), or None
    when they never sat at one table in it."""
    points: list[float] = []
    for bots, places in matches:
        place = dict(zip(bots, places))
        if a in place and b in place:
            points.append(1.0 if place[a] < place[b] else 0.5 if place[a] == place[b] else 0.0)
    return sum(points) / len(points) if points else None


def _psi(bet: float) -> float:
    """psi_E of the paper: (-log(1 - lambda) - lambda) / 4."""
    return (-math.log1p(-bet) - bet) / 4


def _bet(log_term: float, variance: float, i: int) -> float:
    """The predictable plug-in bet lambda_i of set i (1-based)."""
    return min(math.sqrt(2 * log_term / (variance * i * math.log(1 + i))), BET_CAP)


@dataclass
class PairEvidence:
    """The running confidence sequence for mu of one pair, fed set by set.

    `add` costs O(1), so the ladder and the simulation update it as sets
    finish; the interval is the running intersection (also valid)."""

    alpha: float
    n: int = 0
    total: float = 0.0
    """Sum of the scores."""
    squares: float = 0.0
    """Sum of (x_i - mu_hat_i)^2, for the plug-in variance."""
    bets: float = 0.0
    weighted: float = 0.0
    """Sum of lambda_i * x_i."""
    penalty: float = 0.0
    """Sum of v_i * psi_E(lambda_i)."""
    low: float = 0.0
    high: float = 1.0
    scores: list[float] = field(default_factory=list)

    @property
    def log_term(self) -> float:
        return math.log(2 / self.alpha)

    def add(self, x: float) -> None:
        """One more set's score (in [0, 1])."""
        i = self.n + 1
        mean_before = (0.5 + self.total) / i
        variance_before = (0.25 + self.squares) / i
        bet = _bet(self.log_term, variance_before, i)
        self.bets += bet
        self.weighted += bet * x
        self.penalty += 4 * (x - mean_before) ** 2 * _psi(bet)
        centre = self.weighted / self.bets
        half = (self.log_term + self.penalty) / self.bets
        self.low = max(self.low, centre - half)
        self.high = min(self.high, centre + half)
        self.n = i
        self.total += x
        self.squares += (x - (0.5 + self.total) / (i + 1)) ** 2
        self.scores.append(x)

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.5

    @property
    def sd(self) -> float:
        """The plug-in standard deviation of one set's score."""
        return math.sqrt((0.25 + self.squares) / (self.n + 1))

    def flipped(self) -> "PairEvidence":
        """The same evidence seen from the other bot (scores 1 - x)."""
        other = PairEvidence(self.alpha)
        for x in self.scores:
            other.add(1 - x)
        return other


@dataclass(frozen=True)
class Verdict:
    """What the evidence says about (upper, lower), from the upper bot's side."""

    kind: str
    sets: int
    mean: float
    """Mean score of the upper bot against the lower one (1/2 = even)."""
    low: float
    high: float
    """The confidence interval for mu (anytime-valid)."""
    more_sets: int | None
    """For an open pair, roughly how many more shared sets would settle it
    (None when settled; MAX_PROJECTED_SETS + 1 for "more than that")."""


def judge(evidence: PairEvidence, margin: float) -> Verdict:
    """The verdict on a pair from the upper bot's evidence."""
    if evidence.low > 0.5:
        kind = ORDERED
    elif evidence.high < 0.5:
        kind = REVERSED
    elif evidence.low > 0.5 - margin and evidence.high < 0.5 + margin:
        kind = INDISTINGUISHABLE
    else:
        kind = OPEN
    more = sets_to_settle(evidence, margin) if kind in (OPEN, REVERSED) else None
    return Verdict(kind, evidence.n, evidence.mean, evidence.low, evidence.high, more)


def sets_to_settle(evidence: PairEvidence, margin: float) -> int:
    """Roughly how many more shared sets the pair needs: until the projected
    half width is below the distance that settles it the nearer way (to 1/2
    for an order, to the margin for indistinguishable), at the current mean
    and spread. Ignores luck to come, so it is an estimate, not a promise."""
    gap = abs(evidence.mean - 0.5)
    target = max(gap, margin - gap)
    log_term = math.log(2 / evidence.alpha)
    sd = max(evidence.sd, 1e-3)
    bets = penalty = 0.0
    for i in range(1, evidence.n + MAX_PROJECTED_SETS + 1):
        bet = _bet(log_term, sd**2, i)
        bets += bet
        penalty += 4 * sd**2 * _psi(bet)
        if i > evidence.n and (log_term + penalty) / bets <= target:
            return i - evidence.n
    return MAX_PROJECTED_SETS + 1


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def collect(
    sets: Iterable[Sequence[tuple[Sequence[int], Sequence[int]]]], alpha: float
) -> dict[tuple[int, int], PairEvidence]:
    """Evidence for every pair that shared a set, keyed (smaller id, larger
    id) and seen from the smaller id; `sets` in the order they finished, each
    a list of (bot ids by seat, places)."""
    evidence: dict[tuple[int, int], PairEvidence] = {}
    for matches in sets:
        bots = sorted({b for ids, _ in matches for b in ids})
        for i, a in enumerate(bots):
            for b in bots[i + 1:]:
                score = set_score(a, b, matches)
                if score is not None:
                    evidence.setdefault((a, b), PairEvidence(alpha)).add(score)
    return evidence


def verdict_for(
    evidence: Mapping[tuple[int, int], PairEvidence], upper: int, lower: int, margin: float, alpha: float
) -> Verdict:
    """The verdict on (upper, lower), with no evidence an open pair."""
    found = evidence.get(pair_key(upper, lower), PairEvidence(alpha))
    return judge(found if upper < lower else found.flipped(), margin)
