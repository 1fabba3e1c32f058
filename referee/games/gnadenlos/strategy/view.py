"""What the heuristic reads about its seat's situation.

`view_from_observation` builds it from a `GnadenlosObservation` (G-10): this
is what the heuristic bot uses when it plays, so it sees only its own
information set; cards it does not know show as counts and hidden slots.
(The MCTS rollouts read a determinized state instead, with no view in
between: rollout.py.)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from referee.games.gnadenlos.cards import IOU_VALUES, NUM_ADVENTURERS, Iou
from referee.games.gnadenlos.observation import HIDDEN, GnadenlosObservation

Slot = Iou | str | None
"""A market slot: None (empty), HIDDEN, or a known (colour, value)."""


class SeatView:
    """One seat's picture of the table, as the heuristic needs it.

    Written out rather than as a dataclass: a dataclass's generated __init__
    runs as Python even compiled.
    """

    __slots__ = (
        "seat", "n", "active", "phase", "event", "fields", "nuggets", "vultures", "undertaker", "hand", "adv_known",
        "adv_unknown", "unseen_adventurers", "ious", "iou_known", "iou_unknown", "market", "filled", "exposure",
        "bid_totals", "bid_sizes", "bid_order", "units", "participants",
    )

    def __init__(
        self,
        *,
        seat: int,
        n: int,
        active: int,
        phase: str,
        event: int,
        fields: tuple[int, ...] | list[int],
        nuggets: tuple[int, ...] | list[int],
        vultures: tuple[int, ...] | list[int],
        undertaker: int,
        hand: tuple[int, ...] | list[int],
        adv_known: list[tuple[int, ...]] | list[list[int]],
        adv_unknown: list[int],
        unseen_adventurers: tuple[int, ...],
        ious: list[Iou],
        iou_known: list[list[Iou]],
        iou_unknown: list[int],
        market: list[list[Slot]],
        filled: int,
        exposure: float,
        bid_totals: list[int | None],
        bid_sizes: list[int],
        bid_order: tuple[int, ...] | list[int],
        units: list[tuple[int, ...]],
        participants: tuple[int, ...] | list[int],
    ) -> None:
        self.seat = seat
        self.n = n
        self.active = active
        self.phase = phase
        self.event = event
        self.fields = fields
        self.nuggets = nuggets
        self.vultures = vultures
        self.undertaker = undertaker
        self.hand = hand
        self.adv_known = adv_known
        """Per seat, the adventurers this seat knows are in that hand."""
        self.adv_unknown = adv_unknown
        """Per seat, how many cards of that hand this seat does not know."""
        self.unseen_adventurers = unseen_adventurers
        """Adventurers whose place this seat does not know (drawn blind, or in the deck)."""
        self.ious = ious
        self.iou_known = iou_known
        self.iou_unknown = iou_unknown
        self.market = market
        """The market as this seat sees it."""
        self.filled = filled
        """How many market slots hold a card."""
        self.exposure = exposure
        """Expected value of this seat's own IOUs lying in the market (G-8.2: what it
        will have to pay when they are turned up)."""
        self.bid_totals = bid_totals
        """Per seat, the total bid this auction; -1 for a pass, None if not yet bid."""
        self.bid_sizes = bid_sizes
        """Per seat, how many IOUs it bid this auction (0 if none)."""
        self.bid_order = bid_order
        """The auction's bidding order: the seats after the bidder bid later."""
        self.units = units
        """The lots the bids compete for: in a single-card auction (G-6.7) only
        the card on offer, the first of the order."""
        self.participants = participants


def view_from_observation(obs: GnadenlosObservation) -> SeatView:
    """The view of the seat that received `obs`, using nothing else."""
    seat, n = obs.seat, obs.num_seats
    adv_known = [h.known for h in obs.adv_hands]
    seen = set(obs.adv_deck_known) | set(obs.adv_discard) | {c for c in obs.commits if c >= 0}
    for cards in adv_known:
        seen.update(cards)
    for unit in obs.units:
        seen.update(unit)
    unseen = tuple(c for c in range(NUM_ADVENTURERS) if c not in seen)
    market = [list(row) for row in obs.market]
    return SeatView(
        seat=seat,
        n=n,
        active=obs.active,
        phase=obs.phase,
        event=obs.event,
        fields=obs.fields,
        nuggets=obs.nuggets,
        vultures=obs.vultures,
        undertaker=obs.undertaker,
        hand=obs.adv_hand,
        adv_known=adv_known,
        adv_unknown=[h.unknown for h in obs.adv_hands],
        unseen_adventurers=unseen,
        ious=list(obs.iou_hand),
        iou_known=[list(h.known) for h in obs.iou_hands],
        iou_unknown=[h.unknown for h in obs.iou_hands],
        market=market,
        filled=sum(1 for row in market for slot in row if slot is not None),
        exposure=_observed_exposure(obs, market),
        bid_totals=[None if b is None else (sum(v for _, v in b) if b else -1) for b in obs.bids],
        bid_sizes=[len(b or ()) for b in obs.bids],
        bid_order=obs.bid_order,
        units=list(obs.units[:1] if obs.single_auction and obs.ordered else obs.units),
        participants=obs.participants,
    )


def _observed_exposure(obs: GnadenlosObservation, market: list[list[Slot]]) -> float:
    """Own IOUs seen in the market, plus the unseen ones spread over the places
    they could be: hidden market slots and cards others hold unseen (G-2.3,
    G-5.7)."""
    seat = obs.seat
    unseen = Counter(IOU_VALUES)
    known_in_market = 0
    hidden_slots = 0
    for row in market:
        for slot in row:
            if slot == HIDDEN:
                hidden_slots += 1
            elif isinstance(slot, tuple) and slot[0] == seat:
                known_in_market += slot[1]
                unseen[slot[1]] -= 1
    for hand in obs.iou_hands:
        for colour, value in hand.known:
            if colour == seat:
                unseen[value] -= 1
    for bid in obs.bids:
        for colour, value in bid or ():
            if colour == seat:
                unseen[value] -= 1
    unseen_value = sum(v * k for v, k in unseen.items() if k > 0)
    if not unseen_value or not hidden_slots:
        return float(known_in_market)
    elsewhere = sum(h.unknown for s, h in enumerate(obs.iou_hands) if s != seat)
    return known_in_market + unseen_value * hidden_slots / (hidden_slots + elsewhere)
