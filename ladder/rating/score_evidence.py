"""Pairwise evidence from a match's score: Leduc's chips instead of its places.

A game whose match is ranked by a score (its plugin's `MatchFormat`: a
Leduc match is 100 hands ranked by chips, rules L-7) is judged by that
score: the places of a match say who won more chips, not how many, so two
bots that split their places evenly may still differ by many chips
(docs/ladder.md, "Leduc poker").

The unit is the **duplicate deal** (ladder.rating.hand_evidence): hand h of
every rotation of a set, the same cards from every seat (L-7.2). The pair
(a, b)'s unit is their mean difference on it, each seat's chips less the
hand's luck where the referee measured it (L-7.5: expectation 0 whatever
the bots do), d_h = mean over the set's matches where both sat of
(a's chips - a's luck) - (b's chips - b's luck) in hand h. A set whose
records keep no per-hand figures (played before they were kept) enters as
one unit, its mean difference per hand over its matches.

The always-valid evidence needs a unit in a range known before it is
played: d lies within +-B, B the largest difference two seats' judged
chips can have after one hand (the match format's `swing`: for Leduc
`judged_swing`, 31.11 heads-up: 26 for chips alone, from rules L-2.1,
L-3.3, L-3.5 and L-5.1 to L-5.3, wider with the luck taken out), so the
unit fed to the evidence is

    x = 1/2 + d / (2 B)   in [0, 1],

whose mean is 1/2 exactly for two copies of one bot, above 1/2 when a wins
chips from b: "ordered" then means a wins chips from b on average. A
difference outside the bound is refused (`ScoreOutOfBounds`), never
clipped: the evidence's guarantee holds only for units in its range, and
such a unit means a record or a rule changed under the ladder.

The bound is a worst case that real play never comes near (0.1-2 chips a
hand separate the built-in bots), which is why the hand, not the set, is
the unit: the set's mean lies within the same bound and a sequence that may
assume nothing else grows by about mean / B a unit whatever the spread,
while a hundred hands a set let the bets follow the hands' own spread. The
margin of "indistinguishable" (and the improvement --versus's H1 claims)
is stated in chips, SCORE_MARGIN per 100 hands, not as a share of places.

At a table of n seats B grows with n, and each match's difference is scaled
by its own table's B (known before it is played); the margin is that of
heads-up, the Leduc ladder's usual table. Games without a score, and a
score game whose bound is not known here, are judged by places.
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ladder.rating.evidence import GRID, PLACES, Evidence, PairEvidence
from ladder.rating.hand_evidence import HandEvidence
from ladder.rating.set_feed import Reader, StoredMatch, whole_store
from ladder.store.database import Store
from referee.games.plugin import load_game, match_format_of

SCORE_MARGIN = 10.0
"""Indistinguishable, by a score: the pair's mean differs by less than this
per `per` deals (10 chips per 100 hands; the built-in MCTS bots at 0.05 s
and 0.2 s a decision differ by about 14). With --versus, the improvement
H1 claims."""

TOLERANCE = 1e-9
"""Chips are summed in floating point (a split pot is half a chip, L-5.3)."""


class ScoreOutOfBounds(ValueError):
    """A unit's score difference (a deal's, or a set's per deal) lies
    outside the bound the evidence was declared with: refused, as the
    evidence would lose its guarantee."""


@dataclass(frozen=True)
class Basis:
    """What a game's pairs are judged by, and the numbers that go with it."""

    name: str
    """"places", or the score's name ("chips")."""
    margin: float
    """The margin of "indistinguishable" (and of --versus's H1) on the
    evidence's [0, 1] scale."""
    bound: Callable[[int], float] | None = None
    """The largest difference per deal by table size (None: places)."""
    per: int = 1
    """Deals a score rate is given per (100 hands)."""
    unit: str = ""
    """A rate's unit in the tables' words: "chips per 100 hands"."""
    seats: int = 2
    """The game's smallest table, whose bound scales a rate (heads-up)."""

    @property
    def by_score(self) -> bool:
        return self.bound is not None

    def rate(self, x: float) -> float:
        """A heads-up evidence score x as the score won per `per` deals
        (chips per 100 hands): (x - 1/2) 2 B per."""
        assert self.bound is not None
        return (x - 0.5) * 2 * self.bound(self.seats) * self.per

    def evidence(self, alpha: float) -> Evidence:
        """An empty confidence sequence of this basis: on sets for places,
        on deals for a score."""
        return PairEvidence(alpha, grid=GRID) if self.bound is None else HandEvidence(alpha)


def basis_of(game: str, margin: float, *, by_score: bool = True, score_margin: float = SCORE_MARGIN) -> Basis:
    """How `game`'s pairs are judged: by its match score when it declares one
    (rules L-7: Leduc's chips), its bound per deal is known and `by_score`,
    with `score_margin` per `per` deals (10 chips per 100 hands); else by
    places with `margin` (the ladder's --margin)."""
    declared = match_format_of(game)
    if declared is None or not by_score:
        return Basis(PLACES, margin)
    seats = load_game(game).min_seats
    smallest = declared.swing(seats)
    return Basis(declared.score, score_margin / declared.per / (2 * smallest), declared.swing, declared.per,
                 f"{declared.score} per {declared.per} {declared.parameter}", seats)


@dataclass(frozen=True, eq=False)  # eq=False: numpy arrays have no truth value to compare by
class ScoredMatch:
    """One match of a set as the evidence reads it."""

    bots: Sequence[int]
    """Bot ids by seat."""
    scores: Sequence[float]
    """Each seat's score (chips won in all the deals)."""
    deals: int
    judged: npt.NDArray[np.float64] | None = None
    """Each deal's score less its luck, by seat (L-7.5), in the order
    played (deals x seats); None where the record keeps no per-deal figures."""


def _difference(a: int, b: int, match: ScoredMatch, gap: float, deals: int, bound: Callable[[int], float]) -> float:
    """a's score less b's over `deals` deals of `match`, as a share of the
    bound: gap / (bound x deals). Raises ScoreOutOfBounds beyond it."""
    limit = bound(len(match.bots)) * deals
    if not abs(gap) <= limit + TOLERANCE:
        raise ScoreOutOfBounds(
            f"bots {a} and {b} differ by {gap:+g} over {deals} deals at a table of {len(match.bots)}, beyond the "
            f"bound of {limit:g} ({bound(len(match.bots)):g} a deal): the evidence's guarantee needs scores within "
            "it; check the match's record (its rules or summary changed)")
    return gap / limit


def set_score(a: int, b: int, matches: Iterable[ScoredMatch], bound: Callable[[int], float]) -> float | None:
    """a's unit against b for a whole set: 1/2 + d / (2 B), d their mean
    chip difference per hand over the matches where both sat (each scaled
    by its own table's B); None when they never did. Raises
    ScoreOutOfBounds for a match whose difference exceeds B per hand."""
    shares = []
    for match in matches:
        seat = {bot: s for s, bot in enumerate(match.bots)}
        if a in seat and b in seat:
            gap = float(match.scores[seat[a]]) - float(match.scores[seat[b]])
            shares.append((_difference(a, b, match, gap, match.deals, bound), match.deals))
    if not shares:
        return None
    return 0.5 + sum(share * deals for share, deals in shares) / (2 * sum(deals for _, deals in shares))


def deal_units(a: int, b: int, matches: Iterable[ScoredMatch], bound: Callable[[int], float]) -> list[float] | None:
    """a's units against b, one per duplicate deal of the set: deal h's
    1/2 + d_h / (2 B), d_h the mean over the matches where both sat of
    their judged difference in deal h, each scaled by its own table's B.
    None when they never sat together or a match where they did keeps no
    per-deal figures (the set is then one unit, `set_score`). Raises
    ScoreOutOfBounds beyond the bound."""
    shared = [m for m in matches if a in m.bots and b in m.bots]
    tables = [m.judged for m in shared if m.judged is not None]
    if not shared or len(tables) < len(shared) or len({len(t) for t in tables}) != 1:
        return None
    shares = []
    for match, table in zip(shared, tables):
        bots = list(match.bots)
        gaps = table[:, bots.index(a)] - table[:, bots.index(b)]
        worst = int(np.argmax(np.abs(gaps)))
        _difference(a, b, match, float(gaps[worst]), 1, bound)  # the largest gap within the bound: all are
        shares.append(gaps / bound(len(bots)))
    return list(0.5 + np.mean(shares, axis=0) / 2)


class ScoreCollector:
    """The evidence by a score being built, deal by deal, set by set in the
    order they finished (a ladder.rating.set_feed.Collector)."""

    def __init__(self, basis: Basis, alpha: float) -> None:
        assert basis.bound is not None
        self.bound, self.alpha = basis.bound, alpha
        self.pairs: dict[tuple[int, int], HandEvidence] = {}

    def add_set(self, matches: Sequence[ScoredMatch]) -> None:
        """One more set: each pair's duplicate deals as its units, or the
        whole set as one where its records keep no per-deal figures."""
        for a, b in itertools.combinations(sorted({b for m in matches for b in m.bots}), 2):
            units = deal_units(a, b, matches, self.bound)
            if units is None:
                whole = set_score(a, b, matches, self.bound)
                if whole is None:
                    continue
                units = [whole]
            if (a, b) not in self.pairs:
                self.pairs[(a, b)] = HandEvidence(self.alpha)
            self.pairs[(a, b)].add_set(units)

    def evidence(self) -> dict[tuple[int, int], HandEvidence]:
        return self.pairs


def collect(sets: Iterable[Sequence[ScoredMatch]], basis: Basis, alpha: float) -> dict[tuple[int, int], HandEvidence]:
    """Evidence for every pair that shared a set, keyed (smaller id, larger
    id) and seen from the smaller id, as ladder.rating.evidence.collect but
    from the score, deal by deal; `sets` in the order they finished."""
    collector = ScoreCollector(basis, alpha)
    for matches in sets:
        collector.add_set(matches)
    return collector.evidence()


def judged_deals(summary: Mapping[str, Any], seats: int, deals: int) -> npt.NDArray[np.float64] | None:
    """A summary's per-deal scores less their luck (L-7.5), deals x seats,
    or None where it keeps no per-deal scores of that shape and finite (an
    older record: the set then enters whole). A luck that is absent counts
    as none."""
    chips = _table(summary.get("deal_scores"), deals, seats)
    luck = summary.get("deal_luck")
    lucky = np.zeros((deals, seats)) if luck is None else _table(luck, deals, seats)
    if chips is None or lucky is None:
        return None
    return chips - lucky


def _table(value: object, deals: int, seats: int) -> npt.NDArray[np.float64] | None:
    """A summary's list of per-deal rows as numbers, or None unless it is
    `deals` rows of `seats` finite numbers."""
    if not isinstance(value, list):
        return None
    try:
        table = np.array(value, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    return table if table.shape == (deals, seats) and bool(np.isfinite(table).all()) else None


def scored_reader(parameter: str) -> Reader[ScoredMatch]:
    """The reader of a game whose summaries count their deals under
    `parameter` ("hands"): each match's score (a summary's `scores`) and,
    where kept, each deal's `deal_scores` and `deal_luck`. A match without
    them (one of a single deal, played before the match format) reads as
    None: its set is left out."""

    def read(store: Store, game: str, rule_set: str, after: int) -> list[StoredMatch[ScoredMatch]]:
        matches = store.matches(game, rule_set, after=after)  # first: see ladder.rating.set_feed.Reader
        bots_of: dict[str, dict[int, int]] = defaultdict(dict)
        for row in store.seat_rows(game, rule_set, after=after):
            bots_of[row.match_id][row.seat] = row.bot_id
        return [StoredMatch(match["set_id"], match["seq"], _scored(match, bots_of[match["match_id"]], parameter))
                for match in matches]

    return read


def _scored(match: Mapping[str, Any], seats: Mapping[int, int], parameter: str) -> ScoredMatch | None:
    summary: dict[str, Any] = json.loads(match["summary"]) if isinstance(match["summary"], str) else {}
    scores, deals = summary.get("scores"), summary.get(parameter)
    if not isinstance(scores, list) or not isinstance(deals, int) or len(scores) != len(seats):
        return None
    return ScoredMatch(tuple(seats[s] for s in sorted(seats)), tuple(scores), deals,
                       judged_deals(summary, len(seats), deals))


def score_reader(game: str) -> Reader[ScoredMatch]:
    """The reader of `game`'s match score (its plugin's match format)."""
    declared = match_format_of(game)
    assert declared is not None
    return scored_reader(declared.parameter)


def score_pair_evidence(store: Store, game: str, basis: Basis, confidence: float, *,
                        rule_set: str = "") -> dict[tuple[int, int], HandEvidence]:
    """The evidence of every pair from the score of the finished sets of
    one rule set of `game` (ladder.rating.standings.pair_evidence's
    counterpart for a game judged by its score)."""
    return collect(whole_store(store, game, rule_set, score_reader(game)), basis, 1 - confidence)
