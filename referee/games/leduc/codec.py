"""Leduc poker observations, actions and events <-> `leduc.v1` messages.

The observation is encoded field by field from `LeducObservation` — the
seat's information set (L-6): its own card, the public card once dealt, the
betting — never from `State.to_json()`, so nothing a bot receives can
rebuild another seat's card. Every decode is the exact inverse
(tests/test_protocol_leduc.py checks encode -> decode == original for every
action, observation and event of random matches of 2 to 10 seats).
Decoding raises `InvalidActionError` (a `ValueError`) on a message that
does not describe a valid value.

Moves travel as the `leduc.v1.Move` enum, whose value names are the
engine's move names (`MOVE_RAISE` is "raise"); the table is read from the
generated descriptor, so the schema is the one place that names them.
"""

from __future__ import annotations

from typing import Any

from botsdk.pb.leduc.v1 import leduc_pb2 as pb
from referee.games.base import Action, Event, InvalidActionError, Seat
from referee.games.leduc.actions import BY_NAME, LeducAction
from referee.games.leduc.observation import Bet, LeducObservation

_MOVE_NAME: dict[int, str] = {v.number: v.name.removeprefix("MOVE_").lower()
                              for v in pb.Move.DESCRIPTOR.values if v.number}
_MOVE_CODE: dict[str, Any] = {name: number for number, name in _MOVE_NAME.items()}
"""Engine move name <-> enum number (typed Any: the generated stubs type enum
fields as their enum's value type, which a plain number from a table is not)."""


def _move(code: int) -> str:
    name = _MOVE_NAME.get(code)
    if name is None:
        raise InvalidActionError(f"move {code} is not fold, call or raise")
    return name


# ------------------------------------------------------------------ actions


def encode_action(action: Action) -> pb.Action:
    """The `leduc.v1.Action` of a Leduc poker action."""
    if not isinstance(action, LeducAction):
        raise TypeError(f"not a Leduc poker action: {action!r}")
    return pb.Action(move=_MOVE_CODE[action.name])


def decode_action(msg: pb.Action) -> Action:
    """The engine action of a `leduc.v1.Action`. Raises InvalidActionError
    when the move is unset or unknown (whether it is legal is the referee's
    check, against the offered ones)."""
    return BY_NAME[_move(msg.move)]


# -------------------------------------------------------------- observation


def _bets(bets: tuple[Bet, ...]) -> list[pb.Bet]:
    return [pb.Bet(seat=bet.seat, move=_MOVE_CODE[bet.move]) for bet in bets]


def encode_observation(obs: LeducObservation) -> pb.Observation:
    """The `leduc.v1.Observation` of a seat's information set (L-6), field by field."""
    return pb.Observation(
        seat=obs.seat,
        num_seats=obs.num_seats,
        card=obs.card,
        public_card=obs.public_card,
        round=obs.round,
        to_act=obs.to_act,
        stakes=obs.stakes,
        raises=obs.raises,
        pot=obs.pot,
        contributions=obs.contributions,
        folded=obs.folded,
        round1=_bets(obs.history[0]),
        round2=_bets(obs.history[1]),
        over=obs.over,
        end_reason=obs.end_reason,
        winners=obs.winners,
        returns=obs.returns,
    )


def decode_observation(msg: pb.Observation) -> LeducObservation:
    """The engine's `LeducObservation` of a `leduc.v1.Observation`.
    Raises InvalidActionError for a bet with no valid move."""
    return LeducObservation(
        seat=msg.seat,
        num_seats=msg.num_seats,
        card=msg.card,
        public_card=msg.public_card if msg.HasField("public_card") else None,
        round=msg.round,
        to_act=msg.to_act,
        stakes=msg.stakes,
        raises=msg.raises,
        pot=msg.pot,
        contributions=tuple(msg.contributions),
        folded=tuple(msg.folded),
        history=(tuple(Bet(b.seat, _move(b.move)) for b in msg.round1),
                 tuple(Bet(b.seat, _move(b.move)) for b in msg.round2)),
        over=msg.over,
        end_reason=msg.end_reason,
        winners=tuple(msg.winners),
        returns=tuple(msg.returns),
    )


# ------------------------------------------------------------------- events

_EVENT_TYPES: dict[str, Any] = {
    field.name: getattr(pb, field.message_type.name) for field in pb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields
}
"""Event kind -> its message class: the oneof field's name is the engine's kind,
each message field's name a key of the event's data."""


def encode_event(event: Event) -> pb.Event:
    """The `leduc.v1.Event` of an event the receiving seat may see.

    Only kind and data travel: `visible_to` is the referee's business.
    Raises ValueError for a record-only event (the shuffle), which no seat
    may receive and no message can carry.
    """
    message = _EVENT_TYPES.get(event.kind)
    if message is None:
        raise ValueError(f"the Leduc poker event {event.kind!r} is never sent to a seat")
    unknown = set(event.data) - set(message.DESCRIPTOR.fields_by_name)
    if unknown:
        raise ValueError(f"leduc.v1 has no field for {sorted(unknown)} of {event.kind!r}")
    return pb.Event(**{event.kind: message(**event.data)})


def decode_event(msg: pb.Event, seat: Seat) -> Event:
    """The engine `Event` of a `leduc.v1.Event` received by `seat`: a field
    with presence (the dealt card) is in the data only when it is set."""
    kind = msg.WhichOneof("kind")
    if kind is None:
        raise InvalidActionError("the event message sets no event kind")
    body = getattr(msg, kind)
    data: dict[str, Any] = {}
    for field in body.DESCRIPTOR.fields:
        if field.has_presence and not field.is_repeated and not body.HasField(field.name):
            continue
        value = getattr(body, field.name)
        data[field.name] = list(value) if field.is_repeated else value
    return Event(kind, data, frozenset((seat,)))
