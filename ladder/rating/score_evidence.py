"""Pairwise evidence from a match's score: Leduc's chips instead of its places.

A game whose match is ranked by a score (its plugin's `MatchFormat`: a
Leduc match is 100 hands ranked by chips, rules L-7) is judged by that
score: the places of a match say who won more chips, not how many, so two
bots that split their places evenly may still differ by many chips
(docs/ladder.md, "Leduc poker"). The unit stays the duplicate set
(ladder.rating.evidence): the pair (a, b)'s set score is its **mean chip
difference per hand**, d = (a's chips - b's chips) over the hands of the
set's matches where both sat, divided by those hands.

The always-valid evidence needs a score in a range known before the set is
played: d lies within +-B per hand, B the largest difference two seats'
chips can have after one hand (the match format's `swing`: for Leduc
`hand_swing`, from rules L-2.1, L-3.3, L-3.5 and L-5.1 to L-5.3), so the score fed to the evidence is

    x = 1/2 + d / (2 B)   in [0, 1],

whose mean is 1/2 exactly for two copies of one bot, above 1/2 when a wins
chips from b: "ordered" then means a wins chips from b on average. A
difference outside the bound is refused (`ScoreOutOfBounds`), never
clipped: the evidence's guarantee holds only for scores in its range, and
such a score means a record or a rule changed under the ladder.

The bound is a worst case that real play never comes near (heads-up, 26
chips a hand against the 0.1-2 a hand that separates the built-in bots),
so x stays close to 1/2 and the gamblers' bets, capped by the range, grow
slowly: the price of a guarantee that needs nothing but the bound. Two
consequences, both in `Basis`: the candidates are spaced one chip per 100
hands apart (the places' 0.01 would be 52 chips per 100 hands), and the
margin of "indistinguishable" (and the improvement --versus's H1 claims)
is stated in chips, SCORE_MARGIN per 100 hands, not as a share of places.

At a table of n seats B grows with n (13 n), and each set's x is scaled by
its own table's B (known before it is played); the margin and the steps
are those of heads-up, the Leduc ladder's usual table. Games without a
score, and a score game whose bound is not known here, are judged by
places.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ladder.rating.evidence import PLACES, PairEvidence
from ladder.store.database import Store
from referee.games.plugin import load_game, match_format_of

SCORE_MARGIN = 10.0
"""Indistinguishable, by a score: the pair's mean differs by less than this
per `per` deals (10 chips per 100 hands; the built-in MCTS bots at 0.05 s
and 0.2 s a decision differ by about 14). With --versus, the improvement
H1 claims."""

SCORE_STEP = 1.0
"""The candidates' spacing, per `per` deals (1 chip per 100 hands)."""

TOLERANCE = 1e-9
"""Chips are summed in floating point (a split pot is half a chip, L-5.3)."""


class ScoreOutOfBounds(ValueError):
    """A set's score difference lies outside the bound the evidence was
    declared with: refused, as the evidence would lose its guarantee."""


@dataclass(frozen=True)
class Basis:
    """What a game's pairs are judged by, and the numbers that go with it."""

    name: str
    """"places", or the score's name ("chips")."""
    margin: float
    """The margin of "indistinguishable" (and of --versus's H1) on the
    evidence's [0, 1] scale."""
    grid: int
    """The evidence's candidates: m = j / grid."""
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

    def evidence(self, alpha: float) -> PairEvidence:
        """An empty confidence sequence of this basis."""
        return PairEvidence(alpha, grid=self.grid)


def basis_of(game: str, margin: float, *, by_score: bool = True, score_margin: float = SCORE_MARGIN) -> Basis:
    """How `game`'s pairs are judged: by its match score when it declares one
    (rules L-7: Leduc's chips), its bound per deal is known and `by_score`,
    with `score_margin` per `per` deals (10 chips per 100 hands); else by
    places with `margin` (the ladder's --margin)."""
    declared = match_format_of(game)
    if declared is None or not by_score:
        return Basis(PLACES, margin, PairEvidence(1.0).grid)
    seats = load_game(game).min_seats
    smallest = declared.swing(seats)
    grid = 2 * math.ceil(smallest * declared.per / SCORE_STEP)
    return Basis(declared.score, score_margin / declared.per / (2 * smallest), grid, declared.swing, declared.per,
                 f"{declared.score} per {declared.per} {declared.parameter}", seats)


ScoredMatch = tuple[Sequence[int], Sequence[float], int]
"""One match of a set: bot ids by seat, each seat's score (chips won), deals (hands)."""


def set_score(a: int, b: int, matches: Iterable[ScoredMatch], bound: Callable[[int], float]) -> float | None:
    """a's evidence score against b over one set: 1/2 + d / (2 B), d their
    chip difference per hand over the matches where both sat; None when
    they never did. Raises ScoreOutOfBounds for a match whose difference
    exceeds B per hand (B = bound(seats) of its table)."""
    difference, most = 0.0, 0.0
    for bots, scores, deals in matches:
        seat = {bot: s for s, bot in enumerate(bots)}
        if a not in seat or b not in seat:
            continue
        gap = float(scores[seat[a]]) - float(scores[seat[b]])
        limit = bound(len(bots)) * deals
        if not abs(gap) <= limit + TOLERANCE:
            raise ScoreOutOfBounds(
                f"bots {a} and {b} differ by {gap:+g} over {deals} deals at a table of {len(bots)}, beyond the "
                f"bound of {limit:g} ({bound(len(bots)):g} a deal): the evidence's guarantee needs scores within "
                "it; check the match's record (its rules or summary changed)")
        difference += gap
        most += limit
    return 0.5 + difference / (2 * most) if most else None


def collect(sets: Iterable[Sequence[ScoredMatch]], basis: Basis, alpha: float) -> dict[tuple[int, int], PairEvidence]:
    """Evidence for every pair that shared a set, keyed (smaller id, larger
    id) and seen from the smaller id, as ladder.rating.evidence.collect but
    from the score; `sets` in the order they finished."""
    assert basis.bound is not None
    evidence: dict[tuple[int, int], PairEvidence] = {}
    for matches in sets:
        bots = sorted({b for ids, _, _ in matches for b in ids})
        for i, a in enumerate(bots):
            for b in bots[i + 1:]:
                score = set_score(a, b, matches, basis.bound)
                if score is not None:
                    evidence.setdefault((a, b), basis.evidence(alpha)).add(score)
    return evidence


def scored_sets(store: Store, game: str, parameter: str, rule_set: str = "") -> list[list[ScoredMatch]]:
    """The whole duplicate sets of one rule set of `game` whose every match
    carries its score (a match summary's `scores` and `parameter`, e.g.
    "hands"), in the order they finished (a set with rotations still
    planned waits, as in ladder.rating.standings.finished_sets; one with a
    match of one deal played before the match format is left out)."""
    pending = {p["set_id"] for p in store.planned(game, rule_set)}
    bots_of: dict[str, dict[int, int]] = defaultdict(dict)
    for row in store.seat_rows(game, rule_set):
        bots_of[row.match_id][row.seat] = row.bot_id
    sets: dict[str, list[ScoredMatch]] = defaultdict(list)
    unscored: set[str] = set()
    finished: dict[str, int] = {}
    for match in store.matches(game, rule_set):
        set_id = match["set_id"]
        if set_id in pending:
            continue
        summary: dict[str, Any] = json.loads(match["summary"]) if isinstance(match["summary"], str) else {}
        scores, deals = summary.get("scores"), summary.get(parameter)
        seats = bots_of[match["match_id"]]
        if not isinstance(scores, list) or not isinstance(deals, int) or len(scores) != len(seats):
            unscored.add(set_id)
            continue
        sets[set_id].append((tuple(seats[s] for s in sorted(seats)), tuple(scores), deals))
        finished[set_id] = max(finished.get(set_id, 0), match["seq"])
    return [sets[s] for s in sorted(sets, key=lambda s: finished[s]) if s not in unscored]


def score_pair_evidence(store: Store, game: str, basis: Basis, confidence: float, *,
                        rule_set: str = "") -> dict[tuple[int, int], PairEvidence]:
    """The evidence of every pair from the score of the finished sets of
    one rule set of `game` (ladder.rating.standings.pair_evidence's
    counterpart for a game judged by its score)."""
    declared = match_format_of(game)
    assert declared is not None
    return collect(scored_sets(store, game, declared.parameter, rule_set), basis, 1 - confidence)
