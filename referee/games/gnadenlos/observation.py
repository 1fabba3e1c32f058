"""A seat's information set in Gnadenlos! (G-10), built from scratch.

Nothing is copied from the state and then stripped: every field is chosen for
what the seat may know. A card the seat knows shows as itself; a card it does
not know shows only as a count in its zone (a hand, the deck) or as a hidden
slot in the market. The observation also carries the public course of play
in the rules' terms (whose decision, the stage of the match, the orders of
bids, picks and final buys, the safety valve's count), never the engine's
bookkeeping (its step stack and positions), so that a bot reads it without
knowing the engine, and `determinize` can still rebuild a full state from it
alone (stages.py maps one to the other).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final, TYPE_CHECKING

from mypy_extensions import mypyc_attr

from referee.games.base import JSON, Observation, Seat, fields_reduce
from referee.games.gnadenlos import market as mk
from referee.games.gnadenlos.cards import Iou, iou
from referee.games.gnadenlos.stages import stage_of

if TYPE_CHECKING:  # the state imports this module
    from referee.games.gnadenlos.state import GnadenlosState

HIDDEN: Final = "?"
"""A market slot holding a card the seat does not know."""

Slot = Iou | str | None
"""A market slot as observed: None (empty), HIDDEN, or a known (colour, value)."""


@dataclass(frozen=True, slots=True)
class HandView:
    """One hand as a seat sees it: the cards it knows, and how many others."""

    known: tuple[Any, ...]
    unknown: int

    def __reduce__(self) -> tuple[Any, ...]:
        return fields_reduce(self)


@mypyc_attr(native_class=False)  # a plain class, as Observation is (base.py)
@dataclass(frozen=True)
class GnadenlosObservation(Observation):
    """Everything `seat` may know, and nothing else (G-10)."""

    seat: Seat
    num_seats: int
    advanced: bool
    opt_out_variant: bool
    turn: int
    active: Seat
    phase: str
    to_act: tuple[Seat, ...]
    stage: str
    """Where the match stands (stages.py): setup, event, buy, auction, payday or end."""
    quiet_turns: int
    """G-9.5: turns in a row without progress, the current one included while
    nothing has happened in it yet (0: something has); a turn that ends with
    it at num_seats ends the match."""
    fields: tuple[int, ...]
    nuggets: tuple[int, ...]
    vultures: tuple[int, ...]
    undertaker: int
    event: int
    event_revealed: tuple[int, ...]
    event_deck_count: int
    adv_hands: tuple[HandView, ...]
    adv_private: tuple[int, ...]
    """The seat's own adventurers that no other seat knows."""
    adv_deck_known: tuple[int, ...]
    adv_deck_unknown: int
    adv_discard: tuple[int, ...]
    units: tuple[tuple[int, ...], ...]
    iou_hands: tuple[HandView, ...]
    iou_private: tuple[Iou, ...]
    """The seat's own IOUs that no other seat knows."""
    market: tuple[tuple[Slot, ...], ...]
    participants: tuple[Seat, ...]
    deciding: tuple[Seat, ...]
    commits: tuple[int, ...]
    shot: tuple[Seat, ...]
    takers: tuple[Seat, ...]
    bid_order: tuple[Seat, ...]
    bids: tuple[tuple[Iou, ...] | None, ...]
    pick_order: tuple[Seat, ...]
    final_order: tuple[Seat, ...]
    end_reason: str
    end_detail: str
    opt_out_soft: bool = False
    """Variant gunfight_opt_out=soft (G-5.11)."""
    single_auction: bool = False
    """Variant auction=single (G-6.7); the two options below apply under it."""
    order_best: bool = False
    """auction_order=best (G-6.7.1)."""
    buy_limit_one: bool = False
    """auction_buy_limit=one (G-6.7.4)."""
    ordered: int = 0
    """G-6.7.1: how many of `units` have their place in the auction order fixed."""
    bought: tuple[Seat, ...] = ()
    """G-6.7.4: the seats that bought a card in this single-card auction."""

    @property
    def adv_hand(self) -> tuple[int, ...]:
        """The seat's own adventurers."""
        return self.adv_hands[self.seat].known

    @property
    def iou_hand(self) -> tuple[Iou, ...]:
        """The seat's own IOUs as (colour, value)."""
        return self.iou_hands[self.seat].known

    def to_json(self) -> JSON:
        return _jsonable(asdict(self))

    @classmethod
    def from_json(cls, obj: JSON) -> "GnadenlosObservation":
        data = dict(obj)
        data["adv_hands"] = tuple(HandView(tuple(h["known"]), h["unknown"]) for h in obj["adv_hands"])
        data["iou_hands"] = tuple(
            HandView(tuple(tuple(c) for c in h["known"]), h["unknown"]) for h in obj["iou_hands"]
        )
        data["iou_private"] = tuple(tuple(c) for c in obj["iou_private"])
        data["units"] = tuple(tuple(u) for u in obj["units"])
        data["market"] = tuple(
            tuple(tuple(s) if isinstance(s, list) else s for s in row) for row in obj["market"]
        )
        data["bids"] = tuple(None if b is None else tuple(tuple(c) for c in b) for b in obj["bids"])
        for key in (
            "to_act", "fields", "nuggets", "vultures", "event_revealed", "adv_private",
            "adv_deck_known", "adv_discard", "participants", "deciding", "commits", "shot",
            "takers", "bid_order", "pick_order", "final_order",
        ):
            data[key] = tuple(obj[key])
        data["bought"] = tuple(obj.get("bought", ()))
        return cls(**data)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def _quiet_turns(state: GnadenlosState) -> int:
    """G-9.5: the turns in a row without progress, the current one counted
    while nothing has happened in it (0 once something has); after the end,
    the finished ones (no turn is current)."""
    if state.end_reason:
        return int(state.quiet)
    return 0 if state.activity else int(state.quiet) + 1


def observe(state: GnadenlosState, seat: Seat) -> GnadenlosObservation:
    """Project `state` onto what `seat` knows (G-10)."""
    bit = 1 << seat
    everyone = (1 << state.n) - 1
    adv_known, iou_known = state.adv_known, state.iou_known
    adv_hands = []
    iou_hands = []
    for holder in range(state.n):
        if holder == seat:
            adv_hands.append(HandView(tuple(sorted(state.adv_hands[seat])), 0))
            iou_hands.append(HandView(tuple(sorted(iou(c) for c in state.iou_hands[seat])), 0))
            continue
        cards = state.adv_hands[holder]
        known = tuple(sorted(c for c in cards if adv_known[c] & bit))
        adv_hands.append(HandView(known, len(cards) - len(known)))
        ious = state.iou_hands[holder]
        known_ious = tuple(sorted(iou(c) for c in ious if iou_known[c] & bit))
        iou_hands.append(HandView(known_ious, len(ious) - len(known_ious)))
    deck_known = tuple(sorted(c for c in state.adv_deck if adv_known[c] & bit))
    market = tuple(
        tuple(
            None if c == mk.EMPTY else iou(c) if iou_known[c] & bit else HIDDEN
            for c in row
        )
        for row in state.market
    )
    return GnadenlosObservation(
        seat=seat,
        num_seats=state.n,
        advanced=state.advanced,
        opt_out_variant=state.opt_out_variant,
        turn=state.turn,
        active=state.active,
        phase=state.phase or "",
        to_act=tuple(sorted(state.to_act())),
        stage=stage_of(state.phase or "", state.todo, bool(state.end_reason)),
        quiet_turns=_quiet_turns(state),
        fields=tuple(state.fields),
        nuggets=tuple(state.nuggets),
        vultures=tuple(state.vultures),
        undertaker=state.undertaker,
        event=int(state.event),
        event_revealed=tuple(int(e) for e in state.event_revealed),
        event_deck_count=len(state.event_deck),
        adv_hands=tuple(adv_hands),
        adv_private=tuple(sorted(c for c in state.adv_hands[seat] if adv_known[c] != everyone)),
        adv_deck_known=deck_known,
        adv_deck_unknown=len(state.adv_deck) - len(deck_known),
        adv_discard=tuple(state.adv_discard),
        units=tuple(state.units),
        iou_hands=tuple(iou_hands),
        iou_private=tuple(sorted(iou(c) for c in state.iou_hands[seat] if iou_known[c] != everyone)),
        market=market,
        participants=tuple(state.participants),
        deciding=tuple(state.deciding),
        commits=tuple(state.commits),
        shot=tuple(state.shot),
        takers=tuple(state.takers),
        bid_order=tuple(state.bid_order),
        bids=tuple(None if b is None else tuple(iou(c) for c in b) for b in state.bids),
        pick_order=tuple(state.pick_order),
        final_order=tuple(state.final_order),
        end_reason=state.end_reason,
        end_detail=state.end_detail,
        opt_out_soft=state.opt_out_soft,
        single_auction=state.single_auction,
        order_best=state.order_best,
        buy_limit_one=state.buy_limit_one,
        ordered=state.ordered,
        bought=tuple(state.bought),
    )
