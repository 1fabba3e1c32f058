"""The leduc.v1 messages: exact round trips, secrecy on the wire, and a real
random-bot process playing Leduc poker (proto/leduc/v1/leduc.proto).

Round trips go through bytes and the tournament.v1 envelope: engine value ->
encoded message -> bytes -> decoded message -> engine value == original, for
every observation of every seat, every legal action and every event a seat
receives, over random matches of 2 to 10 seats (L-6). Secrecy: a
determinized state (the unseen cards dealt anew) gives the seat
byte-identical messages, and no message a seat receives names another
seat's private card (L-2.2, L-5.4).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from botsdk.contract import TimeControl
from botsdk.pb.leduc.v1 import leduc_pb2 as lpb
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb
from protocol_support import bot_process, random_bot
from referee.games import load_game
from referee.games.base import Event
from referee.games.leduc.actions import MOVES
from referee.games.leduc.hands import LeducHands, LeducHandsState
from referee.games.leduc.state import LeducState
from referee.protocol import codec as wire

GAME = load_game("leduc")
CODEC = wire.codec_for("leduc")
SEAT_COUNTS = (2, 3, 6, 10)
EVENT_KINDS = {f.name for f in lpb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}


def _through_bytes_observation(observation: Any) -> Any:
    raw = wire.game_observation(CODEC, observation).SerializeToString()
    return wire.decode_game_observation(CODEC, tpb.GameObservation.FromString(raw))


def _through_bytes_event(event: Event, seat: int) -> Event:
    raw = wire.game_event(CODEC, event).SerializeToString()
    return wire.decode_game_event(CODEC, tpb.GameEvent.FromString(raw), seat)


def _hand(state: LeducState | LeducHandsState) -> LeducState:
    """The hand being played: the state itself, or a match's current hand."""
    return state.hand if isinstance(state, LeducHandsState) else state


def _random_match(seats: int, seed: int) -> Iterator[tuple[LeducState | LeducHandsState, list[Event]]]:
    """Yield (state, events of the last step) along a whole random match:
    one hand for an odd seed, a match of two hands (L-7) for an even one."""
    state, events = (GAME if seed % 2 else LeducHands(2)).new_state_with_events(seats, seed)
    assert isinstance(state, (LeducState, LeducHandsState))
    rng = random.Random(seed)
    yield state, events
    while not state.is_terminal():
        (seat,) = state.to_act()
        events = state.apply({seat: rng.choice(state.legal_actions(seat))})
        yield state, events


def test_the_move_enum_names_exactly_the_engines_moves() -> None:
    """L-3.3 to L-3.5: one enum value per move, named as the engine names it."""
    assert {v.name for v in lpb.Move.DESCRIPTOR.values if v.number} == {"MOVE_" + m.name.upper() for m in MOVES}


@pytest.mark.parametrize("move", MOVES, ids=str)
def test_every_action_round_trips(move: Any) -> None:
    raw = wire.game_action(CODEC, move).SerializeToString()
    assert wire.decode_game_action(CODEC, tpb.GameAction.FromString(raw)) == move


def test_malformed_actions_are_refused_on_decode() -> None:
    unknown: Any = 7
    for message in (lpb.Action(), lpb.Action(move=unknown)):  # no move; a number the enum does not define
        with pytest.raises(ValueError, match="not fold, call or raise"):
            CODEC.decode_action(message)


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_random_matches_round_trip_observations_actions_and_events(seats: int) -> None:
    """L-6: at every step of whole random matches, every seat's observation,
    every legal action, and every event to every seat in its audience comes
    back equal; a Decide assembled from cached bytes decodes to the same
    observation and legal actions."""
    encoder = wire.DecideEncoder(CODEC)
    kinds = set()
    request_id = 0
    for seed in range(seats, seats + 12):
        for state, events in _random_match(seats, seed):
            for event in events:
                for receiver in event.visible_to:
                    decoded = _through_bytes_event(event, receiver)
                    assert (decoded.kind, decoded.data, decoded.visible_to) == (
                        event.kind, event.data, frozenset({receiver}))
                    kinds.add(event.kind)
            for s in range(seats):
                assert _through_bytes_observation(state.observe(s)) == state.observe(s)
            for s in state.to_act():
                legal = state.legal_actions(s)
                request_id += 1
                decide = tpb.RefereeMessage.FromString(encoder.encode(request_id, state.observe(s), legal, 500)).decide
                assert wire.decode_game_observation(CODEC, decide.observation) == state.observe(s)
                assert tuple(wire.decode_game_action(CODEC, a) for a in decide.legal_actions) == legal
    assert kinds == EVENT_KINDS  # every kind a seat can receive, each both ways


def test_a_split_pot_travels_in_halves() -> None:
    """L-5.3: a pot of 7 split two ways is 3.5 each; returns are doubles on the wire."""
    state = GAME.state_from_json({"seats": 3, "hands": [0, 1, 4], "public_card": 5,
                                  "history": [["raise", "call", "fold"], ["call", "call"]]})
    observation = state.observe(2)
    assert observation.winners == (0, 1) and observation.returns == (0.5, 0.5, -1.0)  # type: ignore[attr-defined]
    assert _through_bytes_observation(observation) == observation


def test_record_only_events_cannot_be_encoded() -> None:
    """The shuffle (the whole deal, L-2.3) goes to the record only: no message can carry it."""
    _, events = GAME.new_state_with_events(4, 3)
    record_only = [e for e in events if not e.visible_to]
    assert [e.kind for e in record_only] == ["deck_shuffled"]
    with pytest.raises(ValueError, match="never sent"):
        CODEC.encode_event(record_only[0])


# ------------------------------------------------------------------ secrecy


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_what_a_seat_receives_depends_only_on_its_information_set(seats: int) -> None:
    """L-6: states the seat cannot tell apart (the others' cards and the deck
    dealt anew) give it byte-identical Decide and observation messages. The
    determinized states do differ in the others' cards."""
    encoder = wire.DecideEncoder(CODEC)
    rng = random.Random(seats)
    differed = 0
    for seed in range(seats * 7, seats * 7 + 8):
        for state, _ in _random_match(seats, seed):
            for seat in range(seats):
                other = state.determinize(seat, rng)
                assert isinstance(other, LeducState)
                assert CODEC.encode_observation(state.observe(seat)).SerializeToString() == \
                    CODEC.encode_observation(other.observe(seat)).SerializeToString()
                if seat in state.to_act():
                    legal = state.legal_actions(seat)
                    assert encoder.encode(1, state.observe(seat), legal, 900) == encoder.encode(
                        1, other.observe(seat), other.legal_actions(seat), 900)
                differed += other.hands != state.hands
    assert differed > 10


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_the_wire_carries_no_other_seats_card(seats: int) -> None:
    """L-2.2, L-5.4 on the encoded messages themselves: a seat's observation
    names its own card and the public card only, even after a showdown, and
    a dealt card travels only in the copy for the seat it was dealt to."""
    dealt = observed = 0
    for seed in range(seats, seats + 8):
        for state, events in _random_match(seats, seed):
            for event in events:
                for receiver in event.visible_to:
                    msg = CODEC.encode_event(event)
                    if msg.WhichOneof("kind") == "card_dealt":
                        assert msg.card_dealt.HasField("card") == (msg.card_dealt.seat == receiver)
                        if msg.card_dealt.HasField("card"):
                            assert msg.card_dealt.card == _hand(state).hands[receiver]
                        dealt += 1
            for seat in range(seats):
                msg = CODEC.encode_observation(state.observe(seat))
                others = {card for s, card in enumerate(_hand(state).hands) if s != seat}
                named = {msg.card} | ({msg.public_card} if msg.HasField("public_card") else set())
                assert msg.card == _hand(state).hands[seat] and not named & others
                observed += 1
    assert dealt >= 8 * seats * seats and observed  # every seat's copy of every private deal was looked at


# ------------------------------------------------------------ a real bot process


def test_the_random_bot_process_plays_whole_leduc_matches() -> None:
    """The random bot advertises leduc in its handshake and answers every
    Decide of seat 0 with a legal action over several matches in one
    process; the events it is sent (decoded by the SDK in the bot process)
    never break its stream."""
    requests = 0
    with bot_process(random_bot()) as bot:
        assert bot.client.info is not None and "leduc" in bot.client.info.games
        for match, seats in enumerate((2, 5, 10)):
            state, events = GAME.new_state_with_events(seats, match)
            rng = random.Random(match)
            bot.client.start_match(
                match_id=f"leduc{match}", game="leduc", variant={}, seat=0, num_seats=seats,
                seat_names=[f"bot{s}" for s in range(seats)], time_control=TimeControl(move_time=0.5),
                observation=state.observe(0),
            )
            bot.client.notify([e for e in events if 0 in e.visible_to])
            while not state.is_terminal():
                (seat,) = state.to_act()
                legal = state.legal_actions(seat)
                if seat == 0:
                    requests += 1
                    bot.client.send_decide(request_id=requests, observation=state.observe(0), legal_actions=legal,
                                           allowance=10.0)
                    action = bot.client.receive_decision(request_id=requests, legal_actions=legal, timeout=10.0)
                    assert action in legal
                else:
                    action = rng.choice(legal)
                events = state.apply({seat: action})
                bot.client.notify([e for e in events if 0 in e.visible_to])
            bot.client.end_match(state.outcome(), state.outcome().reason)
        assert requests >= 3 and bot.process.poll() is None
