"""How much an adventurer is worth to hold, from its ratings (G-1, G-5).

The heuristic weighs a card by how likely each of its ratings is to be the
highest at the table: a rating's percentile among all 29 adventurers, squared
so that only a top rating counts for much (an event pays the highest rating;
G-5.6 to G-5.8). The weights follow the event deck (G-1): three Gold Fevers,
two Poker, two High Noon. A base value counts for any card: with no adventurer
a player takes no part in events at all (G-5.4).

Units are "nugget equivalents": one nugget buys one field (G-7.1), so a field
and a nugget are worth about the same.
"""

from __future__ import annotations

from typing import Final

from referee.games.gnadenlos.cards import ADVENTURERS, RATINGS

KINDS: Final = ("gold", "gun", "poker")
KIND_WEIGHT: Final = {"gold": 3.0, "gun": 2.0, "poker": 2.0}
"""Weights in proportion to how often each rating is called (G-1 event deck)."""
BASE_VALUE: Final = 1.0
"""What any card is worth: a ticket to take part in events."""


def _percentiles(kind: str) -> tuple[float, ...]:
    ratings = RATINGS[kind]
    others = len(ratings) - 1
    return tuple(
        (sum(1 for r in ratings if r < mine) + 0.5 * (sum(1 for r in ratings if r == mine) - 1)) / others
        for mine in ratings
    )


PERCENTILE: Final[dict[str, tuple[float, ...]]] = {kind: _percentiles(kind) for kind in KINDS}
"""Per kind, per adventurer id: the share of other adventurers it beats."""

CARD_VALUE: Final[tuple[float, ...]] = tuple(
    BASE_VALUE + sum(KIND_WEIGHT[k] * PERCENTILE[k][card] ** 2 for k in KINDS)
    for card in range(len(ADVENTURERS))
)
"""The worth of holding each adventurer, in nugget equivalents (about 1.5 to 5)."""


NEED: Final[tuple[float, ...]] = (1.6, 1.25, 1.0, 0.7)  # variable-length: mypyc (mypy 2.4) reads a Final fixed-length tuple of floats as never set
"""How much a player holding 0, 1, 2, 3 or more adventurers needs another."""


def unit_value(cards: tuple[int, ...], hand_size: int) -> float:
    """The worth of winning this auction unit (one card, or a pair in the
    advanced setup, G-2.6) for a player holding `hand_size` adventurers: the
    first cards matter most, since without one a player sits out every event."""
    worth = 0.0
    for card in cards:
        worth += CARD_VALUE[card]
    return NEED[min(hand_size, 3)] * worth

