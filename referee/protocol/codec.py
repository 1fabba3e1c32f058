"""Engine values <-> the `tournament.v1` envelope, for every game.

A game's messages travel in the envelope's oneofs (`GameObservation`,
`GameAction`, `GameEvent`), whose field name is the game's name. `GameCodec`
holds a game's encoders, read from the codec module its package declares
(`GamePlugin.codec`); adding a game means adding its proto, the oneof fields
and its package (docs/engine.md, "Adding a game").

Per-decision path (`DecideEncoder`): a legal action's bytes are encoded once
and cached (actions are small frozen values that recur all match long), and
the `Decide` message is assembled by concatenating encoded fields — the
protobuf wire format defines a message as a sequence of fields in any order,
so this is byte for byte a valid `RefereeMessage`. It saves building and
copying three nested Python message objects per legal action and two copies
of the observation per decision, measured as the largest costs on that path
(about 2 us per nested message with the upb runtime).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from types import ModuleType

from google.protobuf.message import Message

from referee.games.base import Action, Event, InvalidActionError, Observation, Outcome, Seat
from referee.games.plugin import game_names, plugin
from botsdk.fairness import Evaluation
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb


@dataclass(frozen=True)
class GameCodec:
    """How one game's values travel: its oneof field and its message codecs.

    The codecs are its game's codec module's functions, each typed there
    with its game's own classes (`encode_observation(obs: LeducObservation)`,
    `decode_action(msg: leduc_pb2.Action)`); here they are held by the base
    classes, as the referee holds a game it knows only by name. That is a
    promise the envelope functions below keep: they hand a codec only its
    game's values (the match plays one game) and only its game's messages
    (`_game_field` checks the oneof). Messages are typed as protobuf's
    `Message`, which mypy sees as untyped: the protobuf runtime ships no
    type stubs.
    """

    game: str
    encode_observation: Callable[[Observation], Message]
    decode_observation: Callable[[Message], Observation]
    encode_action: Callable[[Action], Message]
    decode_action: Callable[[Message], Action]
    encode_event: Callable[[Event], Message]
    decode_event: Callable[[Message, Seat], Event]

    @classmethod
    def from_module(cls, game: str, module: ModuleType) -> "GameCodec":
        return cls(
            game,
            module.encode_observation,
            module.decode_observation,
            module.encode_action,
            module.decode_action,
            module.encode_event,
            module.decode_event,
        )


@lru_cache(maxsize=None)
def codec_for(game: str) -> GameCodec:
    """The codec of `game`. Raises ValueError for a game without protocol messages."""
    if game not in protocol_games():
        raise ValueError(f"the protocol has no messages for game {game!r}; known: {protocol_games()}")
    return GameCodec.from_module(game, plugin(game).load("codec"))


def protocol_games() -> list[str]:
    """The installed games the protocol can carry (those with a field in the envelope's oneofs)."""
    fields = tpb.GameObservation.DESCRIPTOR.fields_by_name
    return [name for name in game_names() if name in fields]


# ---------------------------------------------------------------- envelope


def game_observation(codec: GameCodec, observation: Observation) -> tpb.GameObservation:
    return tpb.GameObservation(**{codec.game: codec.encode_observation(observation)})


def game_action(codec: GameCodec, action: Action) -> tpb.GameAction:
    return tpb.GameAction(**{codec.game: codec.encode_action(action)})


def game_event(codec: GameCodec, event: Event) -> tpb.GameEvent:
    return tpb.GameEvent(**{codec.game: codec.encode_event(event)})


def _game_field(message: Message, codec: GameCodec, what: str) -> Message:
    """The game's message inside an envelope oneof. Raises InvalidActionError
    when the oneof holds another game's message or nothing."""
    if message.WhichOneof("game") != codec.game:
        raise InvalidActionError(f"the {what} does not carry a {codec.game} message")
    return getattr(message, codec.game)


def decode_game_observation(codec: GameCodec, message: tpb.GameObservation) -> Observation:
    return codec.decode_observation(_game_field(message, codec, "observation"))


def decode_game_action(codec: GameCodec, message: tpb.GameAction) -> Action:
    return codec.decode_action(_game_field(message, codec, "action"))


def decode_game_event(codec: GameCodec, message: tpb.GameEvent, seat: Seat) -> Event:
    return codec.decode_event(_game_field(message, codec, "event"), seat)


# ------------------------------------------------------ wire-level helpers


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _length_delimited(field: int, payload: bytes) -> bytes:
    """One length-delimited field (wire type 2) of the protobuf encoding."""
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


_DECIDE_OBSERVATION = tpb.Decide.DESCRIPTOR.fields_by_name["observation"].number
_DECIDE_LEGAL_ACTIONS = tpb.Decide.DESCRIPTOR.fields_by_name["legal_actions"].number
_DECIDE_EVENTS_TAG = _varint(tpb.Decide.DESCRIPTOR.fields_by_name["events"].number << 3 | 2)
_REFEREE_DECIDE = tpb.RefereeMessage.DESCRIPTOR.fields_by_name["decide"].number


class DecideEncoder:
    """Encodes one game's `Decide` messages, with each legal action's bytes cached."""

    def __init__(self, codec: GameCodec, cache_size: int = 8192) -> None:
        self.codec = codec
        self._observation_field = tpb.GameObservation.DESCRIPTOR.fields_by_name[codec.game].number

        @lru_cache(maxsize=cache_size)
        def action_field(action: Action) -> bytes:
            encoded = game_action(codec, action).SerializeToString()
            return _length_delimited(_DECIDE_LEGAL_ACTIONS, encoded)

        self.action_field = action_field

    def encode(
        self, request_id: int, observation: Observation, legal_actions: Sequence[Action], allowance_ms: int,
        events: Sequence[bytes] = (),
    ) -> bytes:
        """The encoded `RefereeMessage{decide: Decide{...}}` of one decision;
        `allowance_ms` is the time the bot has for it (the wire's
        `deadline_ms`, a duration despite its name, fixed by tournament.v1);
        `events` are the `event_payload`s of the events it carries."""
        observation_bytes = self.codec.encode_observation(observation).SerializeToString()
        action_field = self.action_field
        body = b"".join(
            [
                tpb.Decide(request_id=request_id, deadline_ms=allowance_ms).SerializeToString(),
                _length_delimited(
                    _DECIDE_OBSERVATION, _length_delimited(self._observation_field, observation_bytes)
                ),
                *[action_field(a) for a in legal_actions],
                *[_DECIDE_EVENTS_TAG + event for event in events],
            ]
        )
        return _length_delimited(_REFEREE_DECIDE, body)


_NOTIFY_EVENTS_TAG = _varint(tpb.Notify.DESCRIPTOR.fields_by_name["events"].number << 3 | 2)
_REFEREE_NOTIFY = tpb.RefereeMessage.DESCRIPTOR.fields_by_name["notify"].number
_EVENT_BYTES: dict[int, tuple[Event, bytes]] = {}
_EVENT_BYTES_LIMIT = 4096


def event_payload(codec: GameCodec, event: Event) -> bytes:
    """The encoded `GameEvent` of `event` with its length in front: what
    follows the field's tag wherever it goes (`Notify.events`, `Decide.events`).

    The referee sends a public event to every seat, and encoding it was the
    largest cost of sending events, so each event is encoded once and reused
    for every seat that sees it. Entries keep their event alive, so a cached
    id is never another event's; the cache is emptied when full (one match's
    events fit many times over)."""
    hit = _EVENT_BYTES.get(id(event))
    if hit is None or hit[0] is not event:
        if len(_EVENT_BYTES) >= _EVENT_BYTES_LIMIT:
            _EVENT_BYTES.clear()
        encoded = game_event(codec, event).SerializeToString()
        hit = (event, _varint(len(encoded)) + encoded)
        _EVENT_BYTES[id(event)] = hit
    return hit[1]


def notify_message(codec: GameCodec, events: Sequence[Event]) -> bytes:
    """The encoded `RefereeMessage{notify: Notify{events}}` of `events`."""
    return notify_bytes([event_payload(codec, event) for event in events])


def notify_bytes(events: Sequence[bytes]) -> bytes:
    """The encoded `RefereeMessage{notify: Notify{events}}` of events' `event_payload`s."""
    return _length_delimited(_REFEREE_NOTIFY, b"".join([_NOTIFY_EVENTS_TAG + e for e in events]))


def match_start_message(
    codec: GameCodec, *, match_id: str, game: str, variant: Mapping[str, str], seat: int, num_seats: int,
    seat_names: Sequence[str], time_control: tpb.TimeControl, observation: Observation,
    seed_commitment: bytes = b"",
    evaluation: Evaluation | None = None,
) -> tpb.RefereeMessage:
    """The first message of a seat's match stream. Its only text a bot chose
    is `seat_names`, bounded by referee.protocol.handshake."""
    return tpb.RefereeMessage(
        match_start=tpb.MatchStart(
            match_id=match_id, game=game, variant=variant_items(variant), seat=seat, num_seats=num_seats,
            seat_names=list(seat_names), time_control=time_control,
            observation=game_observation(codec, observation), seed_commitment=seed_commitment,
            evaluation=None if evaluation is None else tpb.Evaluation(
                purpose=evaluation.purpose, chosen_seats=evaluation.chosen_seats),
        )
    )


def match_end_message(outcome: Outcome, reason: str, seed: int | None = None,
                      seed_salt: bytes = b"") -> tpb.RefereeMessage:
    """The last message of a seat's match stream; it reveals the committed seed."""
    return tpb.RefereeMessage(
        match_end=tpb.MatchEnd(ranks=outcome.ranks, reason=reason, detail=outcome.detail,
                               seed=seed or 0, seed_salt=seed_salt)
    )


def variant_items(variant: Mapping[str, str]) -> dict[str, str]:
    return {str(k): str(v) for k, v in variant.items()}
