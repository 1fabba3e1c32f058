"""Codec round trips: engine value -> protobuf bytes -> engine value == original.

Every Gnadenlos! action type (G-11), observations of random states for every
seat (G-10), and events. Also: what a bot receives is a function of its
seat's observation alone (no seed, no hidden card can travel).
"""

from __future__ import annotations

import json
import random

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import load_game
from referee.games import Event
from referee.games.gnadenlos.actions import (
    Bid, BidPosition, Buy, Commit, FinalBuy, OptOut, Order, Pick, Refill, Take, make_bid,
)
from referee.protocol import codec as wire
from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as gpb
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

GAME = load_game("gnadenlos")
CODEC = wire.codec_for("gnadenlos")

small = st.integers(0, 40)
iou = st.tuples(st.integers(0, 3), st.integers(0, 4))
actions = st.one_of(
    st.builds(Commit, small),
    st.just(OptOut()),
    st.builds(Take, small, small),
    st.builds(Refill, small),
    st.builds(Buy, small),
    st.builds(FinalBuy, small),
    st.lists(iou, min_size=1, max_size=8).map(make_bid),
    st.lists(small, min_size=1, max_size=2).map(lambda cards: Pick(tuple(cards))),
    st.builds(BidPosition, st.booleans()),
    st.builds(Order, small),
)
VARIANTS = [
    None,
    {"setup": "advanced"},
    {"gunfight_opt_out": "soft", "auction": "single"},
    {"setup": "advanced", "auction": "single", "auction_order": "best", "auction_buy_limit": "many"},
]
"""The rule sets the random matches below are played under (G-2.6, G-5.11, G-6.7)."""


def _through_bytes(action):
    message = wire.game_action(CODEC, action).SerializeToString()
    return wire.decode_game_action(CODEC, tpb.GameAction.FromString(message))


@given(actions)
def test_every_action_type_round_trips(action):
    """G-11: every action kind survives encoding, by value."""
    assert _through_bytes(action) == action


def test_every_action_type_is_covered():
    every = (Commit(1), OptOut(), Take(0, 1), Refill(2), Buy(3), FinalBuy(1), make_bid([(0, 1)]), Pick((4, 5)),
             BidPosition(True), BidPosition(False), Order(22))
    assert {f.message_type.name for f in gpb.Action.DESCRIPTOR.oneofs_by_name["kind"].fields} == {
        type(a).__name__ for a in every
    }
    for action in every:
        assert _through_bytes(action) == action


def test_a_bid_is_a_set_and_arrives_in_canonical_order():
    """G-6.4: the IOUs of a bid in any order are the same bid."""
    shuffled = gpb.Action(bid=gpb.Bid(colours=[2, 0, 1], values=[3, 1, 4]))
    assert CODEC.decode_action(shuffled) == Bid(((0, 1), (1, 4), (2, 3)))


def _random_match(seed: int, variant: dict[str, str] | None, steps: int):
    """Yield (state, events of the last step) along a random match of up to `steps` steps."""
    state, events = load_game(GAME.name, variant).new_state_with_events(3 + seed % 2, seed)
    rng = random.Random(seed)
    yield state, events
    for _ in range(steps):
        if state.is_terminal():
            return
        events = state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
        yield state, events


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS), steps=st.integers(0, 200))
def test_observations_of_random_states_round_trip(seed, variant, steps):
    """G-10: every seat's observation survives encoding, at every step of a random match."""
    for state, _ in _random_match(seed, variant, steps):
        for seat in range(state.num_seats):
            observation = state.observe(seat)
            raw = wire.game_observation(CODEC, observation).SerializeToString()
            assert wire.decode_game_observation(CODEC, tpb.GameObservation.FromString(raw)) == observation


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(VARIANTS), steps=st.integers(0, 150))
def test_events_round_trip(seed, variant, steps):
    """Every event a seat may see survives encoding through its typed message
    (the body oneof), and its untyped first-v1 form still says the same."""
    checked = 0
    for _, events in _random_match(seed, variant, steps):
        for event in events:
            if not event.visible_to:
                continue
            message = wire.game_event(CODEC, event).gnadenlos
            assert message.WhichOneof("body") == message.kind == event.kind
            assert json_format.MessageToDict(message.data) == json.loads(json.dumps(event.data))
            raw = wire.game_event(CODEC, event).SerializeToString()
            decoded = wire.decode_game_event(CODEC, tpb.GameEvent.FromString(raw), seat=1)
            assert (decoded.kind, decoded.data, decoded.visible_to) == (event.kind, dict(event.data), frozenset({1}))
            checked += 1
    assert checked  # the setup's events at least


@pytest.mark.parametrize("event", [
    Event("spared", {"seat": 2, "card": 20}, frozenset({0, 1, 2})),  # G-5.11
    Event("ordered", {"seat": 0, "card": 7, "place": 0}, frozenset({0, 1, 2})),  # G-6.7.1
    Event("auction_order", {"cards": [22, 26, 9]}, frozenset({0, 1, 2})),
    Event("lot", {"card": 22, "bidders": [1, 2, 0]}, frozenset({0, 1, 2})),  # G-6.7.2
    Event("bid_position", {"seat": 0, "first": False, "bid_order": [1, 2, 0]}, frozenset({0, 1, 2})),
])
def test_the_variants_events_round_trip_typed(event):
    """The events of G-5.11 and G-6.7 travel as typed messages of their own."""
    message = wire.game_event(CODEC, event).gnadenlos
    assert message.WhichOneof("body") == event.kind
    raw = wire.game_event(CODEC, event).SerializeToString()
    decoded = wire.decode_game_event(CODEC, tpb.GameEvent.FromString(raw), seat=1)
    assert (decoded.kind, decoded.data) == (event.kind, event.data)


def test_record_only_events_cannot_be_encoded():
    """The shuffles' orders and the market's face-down deal are for the record:
    no message carries them, so no seat can be sent them."""
    _, events = GAME.new_state_with_events(3, 4)
    record_only = [e for e in events if not e.visible_to]
    assert {e.kind for e in record_only} == {"deck_shuffled", "market_dealt"}
    for event in record_only:
        with pytest.raises(ValueError, match="gnadenlos.v1 has no"):
            CODEC.encode_event(event)


def test_private_parts_of_events_travel_only_in_their_seats_copies():
    """G-2.1, G-5.7: the drawer's copy of its setup draw names the cards and
    the others' gives a count; a High Noon take's IOU is set only in the copies
    of the seats that know it."""
    state, events = GAME.new_state_with_events(4, 11)
    rng = random.Random(11)
    while not state.is_terminal():
        events += state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    taken = [e for e in events if e.kind == "iou_taken"]
    drawn = [e for e in events if e.kind == "adventurers_drawn"]
    assert taken and len(drawn) == 8
    for event in drawn:
        body = CODEC.encode_event(event).adventurers_drawn
        private = event.visible_to == {event.data["seat"]}
        assert (list(body.cards) != [], body.HasField("count")) == (private, not private)
    bodies = [(CODEC.encode_event(e).iou_taken, e) for e in taken]
    for body, event in bodies:
        assert body.HasField("iou") == (event.data["seat"] in event.visible_to)
    assert any(not body.HasField("iou") for body, _ in bodies), "a face-down setup IOU should be taken"


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 150), draw=st.integers(0, 10**6))
def test_the_decide_a_seat_receives_depends_only_on_its_information_set(seed, steps, draw):
    """G-10: a determinized state (same information set, hidden cards dealt
    anew, fresh chance streams) gives the seat byte-identical Decide messages:
    neither the seed nor any card the seat does not know is on the wire."""
    for state, _ in _random_match(seed, False, steps):
        pass
    if state.is_terminal():
        return
    seat = min(state.to_act())
    other = state.determinize(seat, random.Random(draw))
    encoder = wire.DecideEncoder(CODEC)
    mine = encoder.encode(7, state.observe(seat), state.legal_actions(seat), 1000)
    theirs = encoder.encode(7, other.observe(seat), other.legal_actions(seat), 1000)
    assert mine == theirs


def test_decide_assembled_from_cached_bytes_is_a_valid_message():
    state = GAME.new_state(4, 9)
    rng = random.Random(9)
    encoder = wire.DecideEncoder(CODEC)
    for request_id in range(1, 60):
        if state.is_terminal():
            break
        seat = min(state.to_act())
        legal = state.legal_actions(seat)
        decide = tpb.RefereeMessage.FromString(
            encoder.encode(request_id, state.observe(seat), legal, 1234)
        ).decide
        assert decide.request_id == request_id and decide.deadline_ms == 1234
        assert wire.decode_game_observation(CODEC, decide.observation) == state.observe(seat)
        assert tuple(wire.decode_game_action(CODEC, a) for a in decide.legal_actions) == legal
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})


def test_notify_assembled_from_cached_event_fields_is_a_valid_message():
    """Each event is encoded once for all the seats that see it; the message
    a seat gets still carries exactly its events, in order."""
    state, events = GAME.new_state(4, 5), []
    rng = random.Random(5)
    while len(events) < 40 and not state.is_terminal():
        events += state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    for seat in range(4):
        mine = [e for e in events if seat in e.visible_to]
        for _ in range(2):  # the second time from the cache
            notify = tpb.RefereeMessage.FromString(wire.notify_message(CODEC, mine)).notify
            decoded = [wire.decode_game_event(CODEC, e, seat) for e in notify.events]
            assert [(e.kind, e.data) for e in decoded] == [(e.kind, dict(e.data)) for e in mine]


def test_no_message_before_the_end_has_a_seed_field():
    """Nothing a bot receives before the match ends may carry the match seed
    (issue 3, Protocol): MatchStart holds only the salted commitment to it,
    and the seed itself is revealed in MatchEnd (docs/records.md, Provably
    fair deals)."""
    def fields(descriptor, seen):
        if descriptor.full_name in seen:
            return
        seen.add(descriptor.full_name)
        for field in descriptor.fields:
            yield f"{descriptor.name}.{field.name}"
            if field.message_type is not None:
                yield from fields(field.message_type, seen)

    names = set(fields(tpb.RefereeMessage.DESCRIPTOR, set()))
    assert "MatchStart.observation" in names
    assert {n for n in names if "seed" in n} == {"MatchStart.seed_commitment", "MatchEnd.seed", "MatchEnd.seed_salt"}


def test_time_control_round_trips_in_milliseconds():
    from botsdk.contract import GRACE, TimeControl

    for control in (TimeControl(), TimeControl(move_time=0.2, time_bank=30.0), TimeControl(0.05, 0.0, 0.1)):
        assert TimeControl.from_message(control.to_message()) == control
    assert TimeControl().to_message().grace_ms == round(GRACE * 1000)
    assert not TimeControl().to_message().HasField("time_bank_ms")
