"""When the ladder knows enough: every adjacent pair of the standings settled.

The standings are ordered by the conservative TrueSkill rating. Each
adjacent pair is judged from its own shared duplicate sets
(ladder.rating.evidence): ordered, indistinguishable, reversed (the evidence puts
the lower bot above) or open. `--until-stable` stops when every adjacent
pair is ordered or indistinguishable; until then the matchmaking seats the
unsettled pairs together (their `focus`). The same functions drive the real
ladder (ladder.scheduling.scheduler) and its validation by simulation
(ladder.scheduling.validation).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ladder.rating.evidence import PLACES, REVERSED, SETTLED, Evidence, Verdict, verdict_for

DEFAULT_CONFIDENCE = 0.95
DEFAULT_MARGIN = 0.1
"""Indistinguishable means: neither finishes ahead of the other at shared
tables in more than 60% of their results (ties counting half), at the
confidence. Smaller margins cost quickly: the sets needed grow about as
1 / margin^2 (docs/ladder.md, "Validation")."""


@dataclass(frozen=True)
class PairStatus:
    """An adjacent pair of the standings (upper above lower) and its verdict."""

    upper: int
    lower: int
    verdict: Verdict
    basis: str = PLACES
    """What the verdict judged: "places", or a game's match score ("chips",
    ladder.rating.score_evidence)."""

    @property
    def settled(self) -> bool:
        """Ordered or indistinguishable; by a score, reversed too: the
        ratings rate places, which may never reorder what the score tells
        (bots that split their places evenly but not their chips), so
        playing on for them would spend the budget for nothing. The table
        shows the pair reversed."""
        return self.verdict.kind in SETTLED or (self.basis != PLACES and self.verdict.kind == REVERSED)


def adjacent_pairs(
    ranking: Sequence[int], evidence: Mapping[tuple[int, int], Evidence], *, confidence: float, margin: float,
    basis: str = PLACES, empty: Evidence | None = None,
) -> list[PairStatus]:
    """The verdict on each adjacent pair of `ranking` (bot ids, best first),
    from evidence of `basis` (places, or a score) on its own scale; a pair
    without any is judged from `empty` (by default the places')."""
    alpha = 1 - confidence
    return [PairStatus(a, b, verdict_for(evidence, a, b, margin, alpha, empty), basis)
            for a, b in zip(ranking, ranking[1:])]


def all_settled(pairs: Sequence[PairStatus]) -> bool:
    """The --until-stable stopping rule (a ladder of one bot has no pairs
    and nothing to learn)."""
    return all(p.settled for p in pairs)


def focus(pairs: Sequence[PairStatus]) -> list[tuple[int, int]]:
    """The unsettled pairs, for the matchmaking to seat together."""
    return [(p.upper, p.lower) for p in pairs if not p.settled]
