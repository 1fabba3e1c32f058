"""Decisions of Gnadenlos! (G-11) as small, frozen, hashable values.

Each action's `str()` is a short text that `parse_action` reads back, and
`to_json()` / `action_from_json` round-trip. Market coordinates are 0-based:
row 0 is the row nearest the board, column c is die face c + 1 (G-3.1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from referee.games.base import JSON, Action, InvalidActionError
from referee.games.gnadenlos.cards import Iou


@dataclass(frozen=True, slots=True)
class Commit(Action):
    """G-5.4: commit this adventurer (by id) face down to the event."""

    card: int

    def __str__(self) -> str:
        return f"commit {self.card}"

    def to_json(self) -> JSON:
        return {"type": "commit", "card": self.card}


@dataclass(frozen=True, slots=True)
class OptOut(Action):
    """G-5.10 (variant gunfight_opt_out): stay out of a High Noon."""

    def __str__(self) -> str:
        return "opt-out"

    def to_json(self) -> JSON:
        return {"type": "opt_out"}


@dataclass(frozen=True, slots=True)
class Take(Action):
    """G-5.7: a High Noon taker takes the IOU in this market slot."""

    row: int
    col: int

    def __str__(self) -> str:
        return f"take {self.row} {self.col}"

    def to_json(self) -> JSON:
        return {"type": "take", "row": self.row, "col": self.col}


@dataclass(frozen=True, slots=True)
class Refill(Action):
    """G-3.4: move the card in this column of the last row into the gap."""

    col: int

    def __str__(self) -> str:
        return f"refill {self.col}"

    def to_json(self) -> JSON:
        return {"type": "refill", "col": self.col}


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """G-7.1: pay this many nuggets to move as many fields forward."""

    steps: int

    def __str__(self) -> str:
        return f"buy {self.steps}"

    def to_json(self) -> JSON:
        return {"type": "buy", "steps": self.steps}


@dataclass(frozen=True, slots=True)
class FinalBuy(Action):
    """G-9.3: the final buy at the end of the match."""

    steps: int

    def __str__(self) -> str:
        return f"final-buy {self.steps}"

    def to_json(self) -> JSON:
        return {"type": "final_buy", "steps": self.steps}


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """G-6.2/G-6.4: bid these IOUs, a sorted tuple of (colour, value)."""

    ious: tuple[Iou, ...]

    @property
    def total(self) -> int:
        return sum(value for _, value in self.ious)

    def __str__(self) -> str:
        return "bid " + " ".join(f"{c}:{v}" for c, v in self.ious)

    def to_json(self) -> JSON:
        return {"type": "bid", "ious": [[c, v] for c, v in self.ious]}


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """G-6.5: take these revealed adventurers (one, or a pair in the advanced setup)."""

    cards: tuple[int, ...]

    def __str__(self) -> str:
        return "pick " + " ".join(map(str, self.cards))

    def to_json(self) -> JSON:
        return {"type": "pick", "cards": list(self.cards)}


@dataclass(frozen=True, slots=True)
class BidPosition(Action):
    """G-6.7.2 (variant auction=single): the active player bids first, or last,
    in the coming card's auction."""

    first: bool

    def __str__(self) -> str:
        return f"bid-position {'first' if self.first else 'last'}"

    def to_json(self) -> JSON:
        return {"type": "bid_position", "first": self.first}


@dataclass(frozen=True, slots=True)
class Order(Action):
    """G-6.7.1 (variant auction=single, auction_order=best): of the tied
    cards, this one (by id) is auctioned next."""

    card: int

    def __str__(self) -> str:
        return f"order {self.card}"

    def to_json(self) -> JSON:
        return {"type": "order", "card": self.card}


GnadenlosAction = Commit | OptOut | Take | Refill | Buy | FinalBuy | Bid | Pick | BidPosition | Order


def make_bid(ious: list[Iou] | tuple[Iou, ...]) -> Bid:
    """A bid in canonical order (G-6.4: a bid is a set of cards)."""
    return Bid(tuple(sorted(ious)))


def _ints(words: list[str], count: int, text: str) -> list[int]:
    if len(words) != count:
        raise InvalidActionError(f"cannot parse action {text!r}")
    try:
        return [int(w) for w in words]
    except ValueError:
        raise InvalidActionError(f"cannot parse action {text!r}") from None


def parse_action(text: str) -> GnadenlosAction:
    """Read an action's `str()` back. Raises InvalidActionError."""
    head, *rest = text.split() or [""]
    if head == "commit":
        return Commit(*_ints(rest, 1, text))
    if head == "opt-out" and not rest:
        return OptOut()
    if head == "take":
        return Take(*_ints(rest, 2, text))
    if head == "refill":
        return Refill(*_ints(rest, 1, text))
    if head == "buy":
        return Buy(*_ints(rest, 1, text))
    if head == "final-buy":
        return FinalBuy(*_ints(rest, 1, text))
    if head == "pick" and rest:
        return Pick(tuple(_ints(rest, len(rest), text)))
    if head == "bid-position" and rest in (["first"], ["last"]):
        return BidPosition(rest == ["first"])
    if head == "order":
        return Order(*_ints(rest, 1, text))
    if head == "bid" and rest:
        ious: list[Iou] = []
        for word in rest:
            colour, sep, value = word.partition(":")
            if not sep:
                raise InvalidActionError(f"cannot parse action {text!r}")
            c, v = _ints([colour, value], 2, text)
            ious.append((c, v))
        return make_bid(ious)
    raise InvalidActionError(f"cannot parse action {text!r}")


def action_from_json(obj: JSON) -> GnadenlosAction:
    """Decode `Action.to_json()` output. Raises InvalidActionError."""
    try:
        kind = obj["type"]
        if kind == "commit":
            return Commit(int(obj["card"]))
        if kind == "opt_out":
            return OptOut()
        if kind == "take":
            return Take(int(obj["row"]), int(obj["col"]))
        if kind == "refill":
            return Refill(int(obj["col"]))
        if kind == "buy":
            return Buy(int(obj["steps"]))
        if kind == "final_buy":
            return FinalBuy(int(obj["steps"]))
        if kind == "bid":
            return make_bid([(int(c), int(v)) for c, v in obj["ious"]])
        if kind == "pick":
            return Pick(tuple(int(c) for c in obj["cards"]))
        if kind == "bid_position":
            first = obj["first"]
            if not isinstance(first, bool):
                raise ValueError(f"first must be true or false, not {first!r}")
            return BidPosition(first)
        if kind == "order":
            return Order(int(obj["card"]))
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidActionError(f"malformed action {obj!r}: {exc}") from None
    raise InvalidActionError(f"unknown action type in {obj!r}")


# ------------------------------------------------------------ shared values
# Actions are frozen values, so the engine hands out the same objects again
# rather than building new ones for every legal-action list (issue 30: most
# of a playout was allocation). Past the tables' ranges (a larger market or
# purse than the rules allow) a fresh value is built.

TAKES: Final[tuple[tuple[Take, ...], ...]] = tuple(tuple(Take(r, c) for c in range(8)) for r in range(16))
REFILLS: Final[tuple[Refill, ...]] = tuple(Refill(c) for c in range(8))
BUYS: Final[tuple[Buy, ...]] = tuple(Buy(k) for k in range(16))
FINAL_BUYS: Final[tuple[FinalBuy, ...]] = tuple(FinalBuy(k) for k in range(16))
ORDERS: Final[tuple[Order, ...]] = tuple(Order(c) for c in range(64))
BID_POSITIONS: Final[tuple[BidPosition, BidPosition]] = (BidPosition(True), BidPosition(False))
_PICKS: Final[dict[tuple[int, ...], Pick]] = {}


def take(row: int, col: int) -> Take:
    return TAKES[row][col] if row < len(TAKES) and col < len(TAKES[row]) else Take(row, col)


def refill(col: int) -> Refill:
    return REFILLS[col] if col < len(REFILLS) else Refill(col)


def buys(most: int) -> tuple[Buy, ...]:
    """Buy(0) to Buy(most)."""
    return BUYS[: most + 1] if most < len(BUYS) else tuple(Buy(k) for k in range(most + 1))


def final_buys(most: int) -> tuple[FinalBuy, ...]:
    """FinalBuy(0) to FinalBuy(most)."""
    return FINAL_BUYS[: most + 1] if most < len(FINAL_BUYS) else tuple(FinalBuy(k) for k in range(most + 1))


def order(card: int) -> Order:
    return ORDERS[card] if card < len(ORDERS) else Order(card)


def pick(cards: tuple[int, ...]) -> Pick:
    """The pick of this lot (a card, or a pair in the advanced setup)."""
    found = _PICKS.get(cards)
    if found is None:
        found = _PICKS[cards] = Pick(cards)
    return found
