"""Gnadenlos! observations, actions and events <-> `gnadenlos.v1` messages.

The observation is encoded field by field from `GnadenlosObservation` — the
seat's information set (G-10), which has no seed and no unknown card — never
from `State.to_json()`, so nothing a bot receives can rebuild hidden cards.
Every decode is the exact inverse (tests/test_protocol_codec.py checks
encode -> decode == original for every action type and for observations and
events of random matches). Decoding raises `InvalidActionError` (a
`ValueError`) on a message that does not describe a valid value.

Events travel typed, one message per kind (the `body` oneof, whose field
names are the engine's kinds), as Saboteur's do; each also carries the
first gnadenlos.v1's untyped form (`kind` and a JSON `Struct`), kept so that
bots written against it read events as before.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from google.protobuf import struct_pb2
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from referee.games.base import Action, Event, InvalidActionError, Seat
from referee.games.gnadenlos.actions import Bid, BidPosition, Buy, Commit, FinalBuy, OptOut, Order, Pick, Refill, Take
from referee.games.gnadenlos.observation import HIDDEN, GnadenlosObservation, HandView, Slot
from referee.protocol.flat import groups
from referee.protocol.typed_events import Converters, TypedEvents, each, same
from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as pb

_EMPTY = pb.SLOT_STATE_EMPTY
_HIDDEN = pb.SLOT_STATE_HIDDEN
_KNOWN = pb.SLOT_STATE_KNOWN


# ------------------------------------------------------------------ actions


def encode_action(action: Action) -> pb.Action:
    """The `gnadenlos.v1.Action` of a Gnadenlos! action (G-11)."""
    kind = type(action)
    if kind is Commit:
        return pb.Action(commit=pb.Commit(card=action.card))  # type: ignore[attr-defined]
    if kind is Bid:
        ious = action.ious  # type: ignore[attr-defined]
        return pb.Action(bid=pb.Bid(colours=[c for c, _ in ious], values=[v for _, v in ious]))
    if kind is Pick:
        return pb.Action(pick=pb.Pick(cards=action.cards))  # type: ignore[attr-defined]
    if kind is Take:
        return pb.Action(take=pb.Take(row=action.row, col=action.col))  # type: ignore[attr-defined]
    if kind is Refill:
        return pb.Action(refill=pb.Refill(col=action.col))  # type: ignore[attr-defined]
    if kind is Buy:
        return pb.Action(buy=pb.Buy(steps=action.steps))  # type: ignore[attr-defined]
    if kind is FinalBuy:
        return pb.Action(final_buy=pb.FinalBuy(steps=action.steps))  # type: ignore[attr-defined]
    if kind is OptOut:
        return pb.Action(opt_out=pb.OptOut())
    if kind is BidPosition:
        return pb.Action(bid_position=pb.BidPosition(first=action.first))  # type: ignore[attr-defined]
    if kind is Order:
        return pb.Action(order=pb.Order(card=action.card))  # type: ignore[attr-defined]
    raise TypeError(f"not a Gnadenlos! action: {action!r}")


def decode_action(msg: pb.Action) -> Action:
    """The engine action of a `gnadenlos.v1.Action`. Raises InvalidActionError
    when no action kind is set."""
    kind = msg.WhichOneof("kind")
    if kind == "commit":
        return Commit(msg.commit.card)
    if kind == "bid":
        # G-6.4: a bid is a set; the engine's canonical form is sorted.
        return Bid(tuple(sorted(zip(msg.bid.colours[:], msg.bid.values[:]))))
    if kind == "pick":
        return Pick(tuple(msg.pick.cards[:]))
    if kind == "take":
        return Take(msg.take.row, msg.take.col)
    if kind == "refill":
        return Refill(msg.refill.col)
    if kind == "buy":
        return Buy(msg.buy.steps)
    if kind == "final_buy":
        return FinalBuy(msg.final_buy.steps)
    if kind == "opt_out":
        return OptOut()
    if kind == "bid_position":
        return BidPosition(msg.bid_position.first)
    if kind == "order":
        return Order(msg.order.card)
    raise InvalidActionError("the action message sets no action kind")


# -------------------------------------------------------------- observation

_SLOT_CODE: dict[Slot, tuple[int, int, int]] = {
    None: (_EMPTY, 0, 0),
    HIDDEN: (_HIDDEN, 0, 0),
    **{(c, v): (_KNOWN, c, v) for c in range(8) for v in range(8)},
}
"""A market slot as (state, colour, value), for colours and values 0..7 (the
game has colours 0..3 and values 0..4; the spare entries cost nothing)."""


def _columns(rows: list[tuple[int, ...]], width: int) -> tuple[tuple[int, ...], ...]:
    """Transpose rows of `width` values into `width` columns (empty rows: empty columns)."""
    return tuple(zip(*rows)) if rows else ((),) * width


def encode_observation(obs: GnadenlosObservation) -> pb.Observation:
    """The `gnadenlos.v1.Observation` of a seat's information set (G-10).

    Built field by field from the observation only: the seed and the cards
    the seat does not know are not in it, so they cannot be sent. Nested
    lists go out flattened with their group sizes (see the proto for why).
    Fields at their default (0, False, "", empty) are left out of the
    constructor call: the message is the same (proto3 defaults), and the
    upb constructor takes about half the time without them (measured).
    """
    adv_hands, iou_hands, bids = obs.adv_hands, obs.iou_hands, obs.bids
    iou_colours, iou_values = _columns([c for h in iou_hands for c in h.known], 2)
    private_colours, private_values = _columns(list(obs.iou_private), 2)
    bid_colours, bid_values = _columns([c for b in bids if b for c in b], 2)
    market_states, market_colours, market_values = _columns(
        [_SLOT_CODE[s] for row in obs.market for s in row], 3
    )
    fields: dict[str, Any] = {
        "seat": obs.seat,
        "num_seats": obs.num_seats,
        "advanced": obs.advanced,
        "opt_out_variant": obs.opt_out_variant,
        "turn": obs.turn,
        "active": obs.active,
        "phase": obs.phase,
        "to_act": obs.to_act,
        "stage": obs.stage,
        "quiet_turns": obs.quiet_turns,
        "fields": obs.fields,
        "nuggets": obs.nuggets,
        "vultures": obs.vultures,
        "undertaker": obs.undertaker,
        "event": obs.event,
        "event_revealed": obs.event_revealed,
        "event_deck_count": obs.event_deck_count,
        "adv_hand_known": [c for h in adv_hands for c in h.known],
        "adv_hand_sizes": [len(h.known) for h in adv_hands],
        "adv_hand_unknown": [h.unknown for h in adv_hands],
        "adv_private": obs.adv_private,
        "adv_deck_known": obs.adv_deck_known,
        "adv_deck_unknown": obs.adv_deck_unknown,
        "adv_discard": obs.adv_discard,
        "unit_cards": [c for u in obs.units for c in u],
        "unit_sizes": [len(u) for u in obs.units],
        "iou_hand_colours": iou_colours,
        "iou_hand_values": iou_values,
        "iou_hand_sizes": [len(h.known) for h in iou_hands],
        "iou_hand_unknown": [h.unknown for h in iou_hands],
        "iou_private_colours": private_colours,
        "iou_private_values": private_values,
        "market_states": market_states,
        "market_colours": market_colours,
        "market_values": market_values,
        "market_row_sizes": [len(row) for row in obs.market],
        "participants": obs.participants,
        "deciding": obs.deciding,
        "commits": obs.commits,
        "shot": obs.shot,
        "takers": obs.takers,
        "bid_order": obs.bid_order,
        "bid_made": [b is not None for b in bids],
        "bid_sizes": [len(b) if b else 0 for b in bids],
        "bid_colours": bid_colours,
        "bid_values": bid_values,
        "pick_order": obs.pick_order,
        "final_order": obs.final_order,
        "end_reason": obs.end_reason,
        "end_detail": obs.end_detail,
        "opt_out_soft": obs.opt_out_soft,
        "single_auction": obs.single_auction,
        "order_best": obs.order_best,
        "buy_limit_one": obs.buy_limit_one,
        "ordered": obs.ordered,
        "bought": obs.bought,
    }
    return pb.Observation(**{name: value for name, value in fields.items() if value})


_UNKNOWN_SLOT: dict[int, Slot] = {_EMPTY: None, _HIDDEN: HIDDEN}


def _slots(msg: pb.Observation) -> tuple[Slot, ...]:
    try:
        return tuple(
            [
                (c, v) if s == _KNOWN else _UNKNOWN_SLOT[s]
                for s, c, v in zip(msg.market_states[:], msg.market_colours[:], msg.market_values[:])
            ]
        )
    except KeyError as exc:
        raise InvalidActionError(f"market slot state {exc} is not defined") from None


def decode_observation(msg: pb.Observation) -> GnadenlosObservation:
    """The engine's `GnadenlosObservation` of a `gnadenlos.v1.Observation`.

    Raises InvalidActionError when the group sizes do not fit their lists.
    Repeated fields are read with `[:]` (a native copy to a list), measured
    three times faster than iterating the upb container with `tuple()`.
    """
    adv_known = groups(msg.adv_hand_known[:], msg.adv_hand_sizes[:])
    iou_known = groups(tuple(zip(msg.iou_hand_colours[:], msg.iou_hand_values[:])), msg.iou_hand_sizes[:])
    slots = _slots(msg)
    bids = groups(tuple(zip(msg.bid_colours[:], msg.bid_values[:])), msg.bid_sizes[:])
    return GnadenlosObservation(
        seat=msg.seat,
        num_seats=msg.num_seats,
        advanced=msg.advanced,
        opt_out_variant=msg.opt_out_variant,
        turn=msg.turn,
        active=msg.active,
        phase=msg.phase,
        to_act=tuple(msg.to_act[:]),
        stage=msg.stage,
        quiet_turns=msg.quiet_turns,
        fields=tuple(msg.fields[:]),
        nuggets=tuple(msg.nuggets[:]),
        vultures=tuple(msg.vultures[:]),
        undertaker=msg.undertaker,
        event=msg.event,
        event_revealed=tuple(msg.event_revealed[:]),
        event_deck_count=msg.event_deck_count,
        adv_hands=tuple(map(HandView, adv_known, msg.adv_hand_unknown[:])),
        adv_private=tuple(msg.adv_private[:]),
        adv_deck_known=tuple(msg.adv_deck_known[:]),
        adv_deck_unknown=msg.adv_deck_unknown,
        adv_discard=tuple(msg.adv_discard[:]),
        units=groups(msg.unit_cards[:], msg.unit_sizes[:]),
        iou_hands=tuple(map(HandView, iou_known, msg.iou_hand_unknown[:])),
        iou_private=tuple(zip(msg.iou_private_colours[:], msg.iou_private_values[:])),
        market=groups(slots, msg.market_row_sizes[:]),
        participants=tuple(msg.participants[:]),
        deciding=tuple(msg.deciding[:]),
        commits=tuple(msg.commits[:]),
        shot=tuple(msg.shot[:]),
        takers=tuple(msg.takers[:]),
        bid_order=tuple(msg.bid_order[:]),
        bids=tuple(b if made else None for made, b in zip(msg.bid_made[:], bids)),
        pick_order=tuple(msg.pick_order[:]),
        final_order=tuple(msg.final_order[:]),
        end_reason=msg.end_reason,
        end_detail=msg.end_detail,
        opt_out_soft=msg.opt_out_soft,
        single_auction=msg.single_auction,
        order_best=msg.order_best,
        buy_limit_one=msg.buy_limit_one,
        ordered=msg.ordered,
        bought=tuple(msg.bought[:]),
    )


# ------------------------------------------------------------------- events

def _pair(message: type[Message]) -> Converters:
    """Converters between a two-field message (`Iou`, `Slot`) and the
    engine's [first, second] list."""
    first, second = (f.name for f in message.DESCRIPTOR.fields)

    def to_wire(value: list[int]) -> Message:
        return message(**{first: value[0], second: value[1]})

    def from_wire(msg: Message) -> list[int]:
        return [getattr(msg, first), getattr(msg, second)]

    return to_wire, from_wire


def _commitments_to_wire(commitments: dict[str, int | None]) -> list[pb.Commitment]:
    """G-5.4: the engine's {seat: card, or None for an opt-out} as `Commitment`s."""
    return [pb.Commitment(seat=int(seat), card=card) for seat, card in commitments.items()]


def _commitments_from_wire(commitments: Iterable[pb.Commitment]) -> dict[str, int | None]:
    return {str(c.seat): c.card if c.HasField("card") else None for c in commitments}


def _converters(field: FieldDescriptor) -> Converters:
    """How an event field travels: IOUs and slots are [a, b] lists in the
    data, commitments a {seat: card} mapping, everything else a number,
    flag or text (a list of them if repeated)."""
    message = field.message_type.name if field.message_type is not None else None
    if message == "Commitment":
        return _commitments_to_wire, _commitments_from_wire
    if message is not None:
        to_wire, from_wire = _pair(getattr(pb, message))
        return (each(to_wire), each(from_wire)) if field.is_repeated else (to_wire, from_wire)
    return (same, list) if field.is_repeated else (same, same)


_EVENTS = TypedEvents("gnadenlos.v1", pb, "body", _converters, secret_lists={("adventurers_drawn", "cards")})
"""Only the drawer receives which adventurers it drew."""


def encode_event(event: Event) -> pb.Event:
    """The `gnadenlos.v1.Event` of an event the receiving seat may see: its
    typed message, and the untyped kind and data the first gnadenlos.v1 sent.

    Only kind and data travel: `visible_to` is the referee's business.
    Raises ValueError for a record-only event (the shuffles' orders) or a
    data key the kind's message has no field for.
    """
    body = _EVENTS.body(event)
    legacy = struct_pb2.Struct()
    legacy.update(event.data)
    return pb.Event(kind=event.kind, data=legacy, **{event.kind: body})


def decode_event(msg: pb.Event, seat: Seat) -> Event:
    """The engine `Event` of a `gnadenlos.v1.Event` received by `seat`, read
    from its typed body. Raises InvalidActionError when no body is set."""
    return _EVENTS.event(msg, seat)
