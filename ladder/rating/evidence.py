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

The confidence sequence comes from testing by betting (Waudby-Smith and
Ramdas, "Estimating means of bounded random variables by betting", JRSS B
86(1), 2024, Sections 4-5): for every candidate mean m on a grid of steps
of 1/GRID, two gamblers bet against "mu <= m" and "mu >= m", each starting
with 1 and multiplying its wealth by 1 + lambda_i (x_i - m) (the other one
by 1 - lambda_i (x_i - m)). Under its hypothesis a gambler's wealth is a
nonnegative supermartingale, so by Ville's inequality it ever reaches
2 / alpha with probability at most alpha / 2: a candidate whose gambler did
is ruled out for good, however often the ladder looks and whenever it
stops. The interval is what is left. The bets are aGRAPA's (Section 5.3
there): lambda_i = (mean - m) / (variance + (mean - m)^2) from the scores
before set i, capped at BET_CAP / m (BET_CAP / (1 - m)) so that wealth
never reaches 0. They adapt to both the gap and the spread, which duplicate
deals make small; against the predictable plug-in empirical-Bernstein
sequence (Theorem 2 there), which this replaced, they settle the simulated
rosters in 38-57% fewer matches at the same guarantee (docs/ladder.md,
"Validation by simulation"). Written here because no maintained package for Python 3.11
provides it (confseq is a source-only C++ build last released in 2023;
`expectation` needs Python 3.12).

A corrected score (ladder.rating.control_variate) lies in a wider range
with the same mean: the gamblers take the range (`least`, `most`) and cap
their bets by it, so that no score of it ruins them.

A pair is **ordered** when every candidate up to 1/2 is ruled out from
below (the interval lies above 1/2), and **indistinguishable** when the
interval lies inside [1/2 - margin, 1/2 + margin]; each verdict is wrong
with probability at most alpha = 1 - confidence (two copies of one bot, at
exactly 1/2, could be ordered either way: alpha / 2 each).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

import numpy as np
import numpy.typing as npt

PLACES = "places"
"""What a pair's scores here are of (a game judged by its match score says
its score's name instead: ladder.rating.score_evidence)."""

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

GRID = 100
"""Candidate means are m = j / GRID: the interval's ends move in steps of 0.01."""

BET_CAP = 0.75
"""c of the paper (which suggests 1/2 or 3/4): a bet risks at most this
share of the wealth, so one bad set never ruins a gambler."""

MAX_PROJECTED_SETS = 100_000
"""Beyond this many more sets a pair is reported as needing more."""

ROUNDING = 1e-9
"""A margin of 0.07 ends at 0.43000000000000005: the grid's 0.43 is its end."""


@lru_cache(maxsize=8)
def _grid_means(grid: int) -> npt.NDArray[np.float64]:
    """The candidates j / grid (shared and read-only: every pair of a grid has the same)."""
    means = np.arange(grid + 1) / grid
    means.flags.writeable = False
    return means


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


class Evidence(Protocol):
    """What a verdict reads of a pair's evidence, seen from one bot: the
    betting sequence on sets here (PairEvidence) or the sequence on deals
    (ladder.rating.hand_evidence.HandEvidence)."""

    alpha: float
    n: int
    """Shared sets."""
    scores: list[float]
    """Each set's score, in the order played (what --versus's SPRT reads)."""
    least: float
    most: float
    """The scores' range."""

    @property
    def mean(self) -> float: ...

    @property
    def low(self) -> float: ...

    @property
    def high(self) -> float: ...

    def flipped(self) -> "Evidence": ...

    def more_sets(self, margin: float) -> int: ...


@dataclass
class PairEvidence:
    """The running confidence sequence for mu of one pair, fed set by set.

    `add` costs O(grid): the ladder and the simulation update it as sets
    finish. `up[j]` (`down[j]`) is the log wealth of the gambler against
    mu <= m_j (mu >= m_j); `ruled_up[j]` (`ruled_down[j]`) whether it ever
    reached log(2 / alpha)."""

    alpha: float
    grid: int = GRID
    """Candidates m = j / grid: a score mapped from a wide range (a chip
    difference, ladder.rating.score_evidence) needs finer steps than 0.01."""
    n: int = 0
    total: float = 0.0
    """Sum of the scores."""
    squares: float = 0.0
    """Sum of (x_i - mu_hat_i)^2, for the plug-in variance."""
    up: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    down: npt.NDArray[np.float64] = field(default_factory=lambda: np.zeros(0))
    ruled_up: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    ruled_down: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, dtype=bool))
    scores: list[float] = field(default_factory=list)
    least: float = 0.0
    most: float = 1.0
    """The range of the scores: [0, 1] for the places, wider for corrected
    scores (ladder.rating.control_variate's lie in [-beta, 1 + beta]) whose
    mean is still in [0, 1]. The candidates stay in [0, 1]; each bet is
    capped so that no score of its range ruins a gambler."""

    def __post_init__(self) -> None:
        """New evidence: every gambler starts with log wealth 0, none ruled out."""
        if self.grid < 2 or self.grid % 2:
            raise ValueError(f"the grid must be even (1/2 a candidate), not {self.grid}")
        for name, kind in (("up", np.float64), ("down", np.float64), ("ruled_up", np.bool_), ("ruled_down", np.bool_)):
            if len(getattr(self, name)) == 0:
                setattr(self, name, np.zeros(self.grid + 1, dtype=kind))

    @property
    def means(self) -> npt.NDArray[np.float64]:
        """The candidates m = j / grid."""
        return _grid_means(self.grid)

    @property
    def log_term(self) -> float:
        """The log wealth that rules a candidate out: log(2 / alpha)."""
        return math.log(2 / self.alpha)

    def add(self, x: float, bounds: tuple[float, float] | None = None) -> None:
        """One more set's score, in `bounds` (known before the score: a
        corrected score's range depends on its coefficient), by default
        [least, most]; the evidence's range widens to hold them."""
        least, most = bounds or (self.least, self.most)
        self.least, self.most = min(self.least, least), max(self.most, most)
        gap = self.mean_before - self.means
        bet = gap / (self.sd**2 + gap**2)
        with np.errstate(divide="ignore"):
            up_bet = np.minimum(np.maximum(bet, 0.0), BET_CAP / (self.means - least))
            down_bet = np.minimum(np.maximum(-bet, 0.0), BET_CAP / (most - self.means))
        self.up += np.log1p(up_bet * (x - self.means))
        self.down += np.log1p(-down_bet * (x - self.means))
        self.ruled_up |= self.up >= self.log_term
        self.ruled_down |= self.down >= self.log_term
        self.n += 1
        self.total += x
        self.squares += (x - (0.5 + self.total) / (self.n + 1)) ** 2
        self.scores.append(x)

    @property
    def mean_before(self) -> float:
        """The plug-in mean the next bet uses (a prior score of 1/2 counted once)."""
        return (0.5 + self.total) / (self.n + 1)

    @property
    def low(self) -> float:
        """The largest m with every candidate up to it ruled out from below:
        mu > low (0 when none is)."""
        kept = np.flatnonzero(~self.ruled_up)
        return float(self.means[kept[0] - 1]) if kept[0] > 0 else 0.0

    @property
    def high(self) -> float:
        """The smallest m with every candidate from it up ruled out: mu < high."""
        kept = np.flatnonzero(~self.ruled_down)
        return float(self.means[kept[-1] + 1]) if kept[-1] < self.grid else 1.0

    @property
    def mean(self) -> float:
        return self.total / self.n if self.n else 0.5

    @property
    def sd(self) -> float:
        """The plug-in standard deviation of one set's score."""
        return math.sqrt((0.25 + self.squares) / (self.n + 1))

    def more_sets(self, margin: float) -> int:
        """Roughly how many more shared sets settle the pair (sets_to_settle)."""
        return sets_to_settle(self, margin)

    def flipped(self) -> "PairEvidence":
        """The same evidence seen from the other bot (scores 1 - x): the
        gambler against mu <= m for 1 - x is the one against mu >= 1 - m for
        x, bet for bet, so the grids are mirrored."""
        return PairEvidence(self.alpha, self.grid, self.n, self.n - self.total, self.squares,
                            self.down[::-1].copy(), self.up[::-1].copy(), self.ruled_down[::-1].copy(),
                            self.ruled_up[::-1].copy(), [1 - x for x in self.scores], 1 - self.most,
                            1 - self.least)


@dataclass(frozen=True)
class Verdict:
    """What the evidence says about (upper, lower), from the upper bot's side."""

    kind: str
    sets: int
    mean: float
    """Mean score of the upper bot against the lower one (1/2 = even)."""
    low: float
    high: float
    """The confidence interval for mu (anytime-valid; mu lies strictly between)."""
    more_sets: int | None
    """For an open pair, roughly how many more shared sets would settle it
    (None when settled; MAX_PROJECTED_SETS + 1 for "more than that")."""


def kind_of(evidence: Evidence, margin: float) -> str:
    """The kind of verdict on a pair from the upper bot's evidence:
    ORDERED, REVERSED, INDISTINGUISHABLE or OPEN."""
    if evidence.low >= 0.5:
        return ORDERED
    if evidence.high <= 0.5:
        return REVERSED
    if evidence.low >= 0.5 - margin - ROUNDING and evidence.high <= 0.5 + margin + ROUNDING:
        return INDISTINGUISHABLE
    return OPEN


def judge(evidence: Evidence, margin: float) -> Verdict:
    """The verdict on a pair from the upper bot's evidence."""
    kind = kind_of(evidence, margin)
    more = evidence.more_sets(margin) if kind in (OPEN, REVERSED) else None
    return Verdict(kind, evidence.n, evidence.mean, evidence.low, evidence.high, more)


def _sets_to_rule_out(evidence: PairEvidence, j: int, side: int) -> float:
    """Roughly how many more sets the gambler against candidate j (side +1:
    mu <= m_j; -1: mu >= m_j) needs to rule it out, if mu were the current
    mean: the wealth still missing over aGRAPA's growth per set, about
    gap^2 / (2 (variance + gap^2))."""
    ruled, wealth = (evidence.ruled_up, evidence.up) if side > 0 else (evidence.ruled_down, evidence.down)
    if ruled[j]:
        return 0.0
    gap = side * (evidence.mean - evidence.means[j])
    if gap <= 0:
        return math.inf
    growth = gap**2 / (2 * (max(evidence.sd, 1e-3) ** 2 + gap**2))
    return float((evidence.log_term - wealth[j]) / growth)


def sets_to_settle(evidence: PairEvidence, margin: float) -> int:
    """Roughly how many more shared sets the pair needs, the nearer way: an
    order (1/2 ruled out on the mean's side) or indistinguishable (both
    ends of the margin ruled out), at the current mean and spread. Ignores
    luck to come, so it is an estimate, not a promise."""
    grid = evidence.grid
    order = _sets_to_rule_out(evidence, grid // 2, 1 if evidence.mean >= 0.5 else -1)
    low_end = math.ceil((0.5 - margin - ROUNDING) * grid)
    high_end = math.floor((0.5 + margin + ROUNDING) * grid)
    equal = max(_sets_to_rule_out(evidence, max(low_end, 0), 1), _sets_to_rule_out(evidence, min(high_end, grid), -1))
    more = min(order, equal)
    return MAX_PROJECTED_SETS + 1 if more > MAX_PROJECTED_SETS else max(1, math.ceil(more))


def pair_key(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


class PlacesCollector:
    """The evidence by places being built, set by set in the order they
    finished (a ladder.rating.set_feed.Collector)."""

    def __init__(self, alpha: float) -> None:
        self.alpha = alpha
        self.pairs: dict[tuple[int, int], PairEvidence] = {}

    def add_set(self, matches: Sequence[tuple[Sequence[int], Sequence[int]]]) -> None:
        """One more set, a list of (bot ids by seat, places)."""
        for a, b in itertools.combinations(sorted({b for ids, _ in matches for b in ids}), 2):
            score = set_score(a, b, matches)
            if score is None:
                continue
            if (a, b) not in self.pairs:
                self.pairs[(a, b)] = PairEvidence(self.alpha)
            self.pairs[(a, b)].add(score)

    def evidence(self) -> dict[tuple[int, int], PairEvidence]:
        return self.pairs


def collect(
    sets: Iterable[Sequence[tuple[Sequence[int], Sequence[int]]]], alpha: float
) -> dict[tuple[int, int], PairEvidence]:
    """Evidence for every pair that shared a set, keyed (smaller id, larger
    id) and seen from the smaller id; `sets` in the order they finished, each
    a list of (bot ids by seat, places)."""
    collector = PlacesCollector(alpha)
    for matches in sets:
        collector.add_set(matches)
    return collector.evidence()


def verdict_for(
    evidence: Mapping[tuple[int, int], Evidence], upper: int, lower: int, margin: float, alpha: float,
    empty: Evidence | None = None,
) -> Verdict:
    """The verdict on (upper, lower), with no evidence an open pair (judged
    from `empty`, by default the places' PairEvidence)."""
    found = evidence.get(pair_key(upper, lower), empty if empty is not None else PairEvidence(alpha))
    return judge(found if upper < lower else found.flipped(), margin)
