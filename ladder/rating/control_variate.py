"""Less luck per set: a control variate on the pairs' duplicate-set scores.

Duplicate deals cancel the luck of who holds which seat's cards, but not
all of a deal's luck: a deal may favour one seat over the next in turn
order, or the seats that share a team, and a pair of bots sits in the same
relative seats at every rotation of a set. What is left is measured by a
**reference**: the game's built-in heuristic playing the same deal from
every seat (self-play, in this process, through the one match loop
`referee.match` by way of `referee.simulation`; no untrusted code runs, so
no jail). This is the baseline method of Davidson, Archibald and Bowling
("Baseline: practical control variates for agent evaluation in zero-sum
domains", AAMAS 2013), on the ladder's pairwise score.

For a pair (a, b) of one set, with a at seat s_r and b at seat t_r in
rotation r, the set's score x is a's mean result against b (1 ahead, 1/2 the
same place, 0 behind; ladder.rating.evidence). The reference's counterpart
on the same deal is y = mean over r of [reference seat s_r ahead of
reference seat t_r]. Its expectation over deals is not known (turn order
matters), so it is estimated on SHADOW_DEALS other deals derived from the
set's seed alone: y' = the same mean over those deals. The corrected score
is

    z = x - (y - y')

and E[z] = E[x] = mu exactly, because the shadow deals are drawn like the
set's deal and independently of it, so E[y] = E[y']: the correction has mean
zero whatever the bots do, and the verdicts keep their error rates. Its
variance is Var(x) - 2 Cov(x, y) + Var(y) (1 + 1 / SHADOW_DEALS): lower when
the bots' results follow the reference's on the deal.

The ladder weighs the correction by a coefficient beta learned from the
pair's sets before (CorrectedPair): z = x - beta (y - y'), still unbiased
as beta is fixed before the set is played, and in [-beta, 1 + beta] while
its mean stays in [0, 1]; the evidence (the betting confidence sequence)
and the SPRT take it with that range (PairEvidence.least and most), which
caps their bets lower than [0, 1] does. Where the reference does not follow
the bots beta stays near 0 and costs little.

With a full cyclic rotation and two seats (Leduc heads-up) y + (1 - y) over
the two rotations is 1/2 on every deal, so the correction is exactly 0
there: duplicate deals already cancel what a self-play baseline knows.

Everything is a pure function of the deal (game, seats, seed, variant): a
resumed ladder, `referee table` and the bench compute the same corrections.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from ladder.rating.evidence import PairEvidence
from ladder.rating.set_feed import StoredMatch, whole_store
from ladder.store.database import Store
from referee.games import load_game
from referee.games.base import derive_seed
from referee.simulation import play_random_match

REFERENCE = "heuristic"
"""The reference bot: the game's built-in heuristic (referee.simulation's seat policy)."""

SHADOW_DEALS = 16
"""Deals that estimate the reference's mean per set: the correction's
variance carries Var(y) / SHADOW_DEALS extra (6 %), and a set costs
1 + SHADOW_DEALS reference matches (Gnadenlos! about 0.4 s, Saboteur 1-2 s)."""

MIN_SETS = 5
"""Sets of a pair before its coefficient is learned (0 until then)."""

SEED_BITS = 62
"""Shadow seeds are as wide as a ladder deal's (ladder.deals.seedchain)."""


@dataclass(frozen=True)
class Deal:
    """What the reference needs to replay a set's deal."""

    game: str
    seats: int
    seed: int
    variant: tuple[tuple[str, str], ...] = ()


Match = tuple[Sequence[int], Sequence[int]]
"""One match of a set: bot ids by seat, places by seat (0 = first)."""


def shadow_seeds(seed: int, count: int = SHADOW_DEALS) -> tuple[int, ...]:
    """The deals that estimate the reference's mean for the set dealt from `seed`."""
    return tuple(derive_seed(seed, f"control-variate-shadow-{i}") >> (64 - SEED_BITS) for i in range(count))


@lru_cache(maxsize=65_536)
def reference_places(deal: Deal) -> tuple[int, ...]:
    """The reference's places by seat when it holds every seat of `deal`
    (deterministic: the decisions are drawn from the seed)."""
    game = load_game(deal.game, dict(deal.variant))
    return play_random_match(game, deal.seats, deal.seed, seating=(REFERENCE,) * deal.seats).ranks


Places = Callable[[Deal], Sequence[int]]
"""The reference's places by seat on a deal."""


def ahead(places: Sequence[int], seat: int, other: int) -> float:
    """1 when `seat` finished ahead of `other`, 1/2 on a shared place, 0 behind."""
    return 1.0 if places[seat] < places[other] else 0.5 if places[seat] == places[other] else 0.0


def pair_results(a: int, b: int, matches: Sequence[Match]) -> list[tuple[int, int, float]]:
    """(a's seat, b's seat, a's result against b) in each match of the set
    where both sat."""
    results = []
    for bots, places in matches:
        if a in bots and b in bots:
            s, t = list(bots).index(a), list(bots).index(b)
            results.append((s, t, ahead(places, s, t)))
    return results


def reference_score(places: Sequence[int], seats: Sequence[tuple[int, int]]) -> float:
    """The reference's score from a's seats against b's over the rotations."""
    return sum(ahead(places, s, t) for s, t in seats) / len(seats)


def correction(deal: Deal, seats: Sequence[tuple[int, int]], places: Places = reference_places) -> float:
    """y - y': the reference's score on the set's deal from the pair's seats,
    less its mean over the shadow deals (mean zero over deals). `places` is
    the reference (a model of one in the tests)."""
    actual = reference_score(places(deal), seats)
    shadows = [reference_score(places(Deal(deal.game, deal.seats, s, deal.variant)), seats)
               for s in shadow_seeds(deal.seed)]
    return actual - sum(shadows) / len(shadows)


def helps(duplicate: bool, sizes: Sequence[int]) -> bool:
    """Whether the correction was measured to settle pairs in fewer matches
    for a run of these tables (docs/ladder.md, "Less luck per match"): single
    matches at two seats (Leduc's hands, where the reference knows whose cards
    are better: 0.40x the matches of the raw scores). On whole duplicate
    sets it is 0 at two seats and barely follows the bots at more, and at
    single matches of 3 seats or more it barely follows them either: there
    it gains nothing (Saboteur's duplicate sets needed 1.2x the matches)."""
    return not duplicate and max(sizes) == 2


@dataclass
class CorrectedPair:
    """One pair's evidence from corrected scores z = x - beta (y - y').

    beta is learned from the sets before (the regression of x on the
    correction, clipped to [0, 1]; 0 until MIN_SETS), so it is known before
    the set's own score: E[z | the sets before] = mu still, since the
    correction has mean zero whatever beta is. z then lies in
    [-beta, 1 + beta], which the evidence caps its bets by. Where the
    reference does not follow the bots beta stays near 0 and the evidence
    is nearly the raw one; where it does, beta nears the baseline method's 1."""

    evidence: PairEvidence
    n: int = 0
    corrections: float = 0.0
    """Sum of c = y - y'."""
    squares: float = 0.0
    """Sum of c^2."""
    scores: float = 0.0
    """Sum of x."""
    products: float = 0.0
    """Sum of x c."""

    @property
    def beta(self) -> float:
        """The coefficient of the next set, from the sets before."""
        if self.n < MIN_SETS:
            return 0.0
        spread = self.squares - self.corrections**2 / self.n
        if spread <= 1e-12:
            return 0.0
        return min(1.0, max(0.0, (self.products - self.scores * self.corrections / self.n) / spread))

    def add(self, x: float, c: float) -> None:
        """One more set: its raw score x and the reference's correction c."""
        beta = self.beta
        self.evidence.add(x - beta * c, (-beta, 1 + beta))
        self.n += 1
        self.corrections += c
        self.squares += c * c
        self.scores += x
        self.products += x * c


class CorrectedCollector:
    """The evidence by places with the reference's correction being built,
    set by set in the order they finished (a ladder.rating.set_feed.Collector):
    each pair's coefficient is learned from its sets before."""

    def __init__(self, alpha: float, places: Places = reference_places) -> None:
        self.alpha, self.places = alpha, places
        self.pairs: dict[tuple[int, int], CorrectedPair] = {}

    def add_set(self, matches: Sequence[tuple[Deal, Match]]) -> None:
        """One more set: its matches, each with the set's deal."""
        deal = matches[0][0]
        played = [match for _, match in matches]
        for a, b in itertools.combinations(sorted({b for ids, _ in played for b in ids}), 2):
            results = pair_results(a, b, played)
            if not results:
                continue
            x = sum(r for _, _, r in results) / len(results)
            c = correction(deal, [(s, t) for s, t, _ in results], self.places)
            if (a, b) not in self.pairs:
                self.pairs[(a, b)] = CorrectedPair(PairEvidence(self.alpha))
            self.pairs[(a, b)].add(x, c)

    def evidence(self) -> dict[tuple[int, int], PairEvidence]:
        return {key: pair.evidence for key, pair in self.pairs.items()}


def collect_corrected(sets: Sequence[tuple[Deal, Sequence[Match]]], alpha: float,
                      places: Places = reference_places) -> dict[tuple[int, int], PairEvidence]:
    """ladder.rating.evidence.collect with every set's score corrected by the
    reference on its deal (CorrectedPair): evidence for every pair that
    shared a set, keyed (smaller id, larger id), seen from the smaller id."""
    collector = CorrectedCollector(alpha, places)
    for deal, matches in sets:
        collector.add_set([(deal, match) for match in matches])
    return collector.evidence()


def read_dealt(store: Store, game: str, rule_set: str, after: int) -> list[StoredMatch[tuple[Deal, Match]]]:
    """Each match stored after sequence number `after` with its deal (a
    ladder.rating.set_feed.Reader)."""
    facts = store.matches(game, rule_set, after=after)  # first: see ladder.rating.set_feed.Reader
    seats: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for row in store.seat_rows(game, rule_set, after=after):
        seats[row.match_id].append((row.seat, row.bot_id, row.place))
    read: list[StoredMatch[tuple[Deal, Match]]] = []
    for fact in facts:
        played = sorted(seats[fact["match_id"]])
        deal = Deal(game, fact["num_seats"], fact["seed"], _variant(fact["variant"]))
        match: Match = (tuple(bot for _, bot, _ in played), tuple(place for _, _, place in played))
        read.append(StoredMatch(fact["set_id"], fact["seq"], (deal, match)))
    return read


def _variant(stored: str | Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    options = json.loads(stored) if isinstance(stored, str) else stored
    return tuple(sorted(options.items()))


def corrected_pair_evidence(store: Store, game: str, confidence: float, *,
                            rule_set: str = "") -> dict[tuple[int, int], PairEvidence]:
    """ladder.rating.standings.pair_evidence with the reference's correction."""
    collector = CorrectedCollector(1 - confidence)
    for matches in whole_store(store, game, rule_set, read_dealt):
        collector.add_set(matches)
    return collector.evidence()
