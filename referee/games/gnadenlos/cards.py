"""The components of Gnadenlos! (G-1): adventurers, IOUs and event cards.

Adventurer ids are indices into ADVENTURERS (every adventurer is unique).
IOUs of one colour and value are interchangeable (G-6.4), so an IOU's identity
is the pair (colour, value); colours are seat numbers.
"""

from __future__ import annotations

from typing import Final

from dataclasses import dataclass
from enum import IntEnum


@dataclass(frozen=True, slots=True)
class Adventurer:
    name: str
    gold: int
    gun: int
    poker: int


ADVENTURERS: Final[tuple[Adventurer, ...]] = (
    Adventurer("Poker Paul", 0, 3, 7),
    Adventurer("Sheriff Dooley", 0, 7, 0),
    Adventurer("Jack Jennings", 1, 2, 2),
    Adventurer("Jasmin Dooley", 1, 2, 3),
    Adventurer("Joey Gun", 1, 3, 3),
    Adventurer("Buffalo Johnson", 1, 3, 4),
    Adventurer("Blind Joe", 1, 4, 1),
    Adventurer("Jenny Cassidy", 1, 5, 5),
    Adventurer("Joshua Tree", 1, 6, 4),
    Adventurer("Joke Greenhorn", 2, 1, 2),
    Adventurer("Tricky Jeff", 2, 1, 4),
    Adventurer("Jacky Belle", 2, 2, 2),
    Adventurer("Slim Jim", 2, 3, 1),
    Adventurer("Janice Boone", 2, 3, 2),
    Adventurer("Joseph Trigger", 2, 4, 3),
    Adventurer("Blue Jack", 3, 1, 1),
    Adventurer("Jolly Hopper", 3, 2, 1),
    Adventurer("Jackson Bill", 3, 2, 2),
    Adventurer("Jesse Frank", 3, 5, 4),
    Adventurer("Killer Miller", 3, 6, 5),
    Adventurer("Jonas Smiley", 4, 1, 1),
    Adventurer("Greedy Geoff", 4, 2, 1),
    Adventurer("Gamblin Jay", 4, 5, 6),
    Adventurer("Jeremiah Jones", 5, 1, 1),
    Adventurer("Nugget Jones", 5, 1, 2),
    Adventurer("Lucky James", 5, 4, 5),
    Adventurer("John Digger", 6, 1, 3),
    Adventurer("Reverend Jon", 6, 4, 6),
    Adventurer("Daddy Digger", 7, 4, 0),
)
NUM_ADVENTURERS: Final = len(ADVENTURERS)

IOU_VALUES: Final[tuple[int, ...]] = (0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4)
"""G-1: the 13 IOUs of one colour (total value 30)."""

IOU_SETUP_GIVE_UP: Final[tuple[int, ...]] = (1, 2)
"""G-2.3: the values each player gives up to the market at setup."""

Iou = tuple[int, int]
"""An IOU's identity: (colour, value)."""

IOUS_PER_COLOUR: Final = len(IOU_VALUES)
IOU_COLOUR: Final[tuple[int, ...]] = tuple(i // IOUS_PER_COLOUR for i in range(4 * IOUS_PER_COLOUR))
"""IOU instance id -> colour (instances 13*c .. 13*c+12 are colour c's)."""
IOU_VALUE: Final[tuple[int, ...]] = tuple(IOU_VALUES[i % IOUS_PER_COLOUR] for i in range(4 * IOUS_PER_COLOUR))
IOUS: Final[tuple[Iou, ...]] = tuple(zip(IOU_COLOUR, IOU_VALUE))
"""IOU instance id -> identity, ascending: sorting instance ids sorts their
identities (colours in blocks, IOU_VALUES ascending), which the legal-bid
lookup relies on to sort ints instead of pairs."""
assert list(IOUS) == sorted(IOUS)


def iou(card: int) -> Iou:
    """The identity of an IOU instance."""
    return IOUS[card]


class EventCard(IntEnum):
    GOLD_FEVER_3_1 = 0
    GOLD_FEVER_5_3 = 1
    GOLD_FEVER_7_4 = 2
    POKER = 3
    HIGH_NOON = 4

    @property
    def rating(self) -> str:
        """The adventurer rating this event compares (G-5.5)."""
        if self is EventCard.POKER:
            return "poker"
        if self is EventCard.HIGH_NOON:
            return "gun"
        return "gold"

    @property
    def gold_rewards(self) -> tuple[int, int]:
        """G-5.6: nuggets for the highest and second-highest gold ratings."""
        return {
            EventCard.GOLD_FEVER_3_1: (3, 1),
            EventCard.GOLD_FEVER_5_3: (5, 3),
            EventCard.GOLD_FEVER_7_4: (7, 4),
        }[self]

    @property
    def label(self) -> str:
        return {
            EventCard.GOLD_FEVER_3_1: "Gold Fever 3/1",
            EventCard.GOLD_FEVER_5_3: "Gold Fever 5/3",
            EventCard.GOLD_FEVER_7_4: "Gold Fever 7/4",
            EventCard.POKER: "Poker",
            EventCard.HIGH_NOON: "High Noon",
        }[self]


EVENT_DECK: Final[tuple[EventCard, ...]] = (
    EventCard.GOLD_FEVER_3_1,
    EventCard.GOLD_FEVER_5_3,
    EventCard.GOLD_FEVER_7_4,
    EventCard.POKER,
    EventCard.POKER,
    EventCard.HIGH_NOON,
    EventCard.HIGH_NOON,
)
"""G-1: the seven event cards."""

RATINGS: Final[dict[str, tuple[int, ...]]] = {
    kind: tuple(getattr(a, kind) for a in ADVENTURERS) for kind in ("gold", "gun", "poker")
}
"""Ratings by kind, indexed by adventurer id (the hot path reads these)."""

EVENT_RATING: Final[tuple[str, ...]] = tuple(card.rating for card in EventCard)
"""EventCard.rating by event number: the hot paths read these tables, not the
enum (building an EventCard from an int runs the enum's Python code)."""
EVENT_RATINGS: Final[tuple[tuple[int, ...], ...]] = tuple(RATINGS[card.rating] for card in EventCard)
"""The ratings an event compares (G-5.5), by event number, indexed by adventurer id."""
GOLD_REWARDS: Final[tuple[tuple[int, int], ...]] = tuple(
    card.gold_rewards if card.rating == "gold" else (0, 0) for card in EventCard
)
"""EventCard.gold_rewards by event number ((0, 0) for the other events)."""

COLOUR_NAMES = ("red", "green", "blue", "yellow")


def _auction_value(card: Adventurer) -> int:
    ratings = (card.gold, card.gun, card.poker)
    return sum(ratings) + max(ratings)


AUCTION_VALUE: Final[tuple[int, ...]] = tuple(_auction_value(a) for a in ADVENTURERS)
"""G-6.7.1: an adventurer's value for the auction order `best`: twice its best
rating plus its other two (Gamblin Jay 4/5/6: 21), indexed by id."""
