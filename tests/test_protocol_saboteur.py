"""The saboteur.v1 messages: exact round trips, secrecy on the wire, and a real
random-bot process playing Saboteur (docs/protocol.md, "Saboteur messages").

Round trips go through bytes and the tournament.v1 envelope: engine value ->
encoded message -> bytes -> decoded message -> engine value == original, for
every observation of every seat, every legal action and every event a seat
receives, over random matches of 3, 7 and 10 seats (S-8, S-9). Secrecy is
checked twice: a determinized state (hidden cards dealt anew, fresh chance
streams) gives the seat byte-identical messages, and the wire messages
themselves carry no other seat's role or hand and no goal the seat has not
looked at.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol_support import bot_process, random_bot, start_match as start_gnadenlos_match
from referee.games import load_game
from referee.games.base import Event, Outcome
from referee.games.saboteur.actions import PASS, BreakTool, Discard, Map, PlacePath, Repair, Rockfall
from referee.games.saboteur.cards import ACTION, KINDS, PATH, TOOLS
from referee.protocol import codec as wire
from botsdk.contract import TimeControl
from referee.protocol.client import BotClient
from botsdk.pb.saboteur.v1 import saboteur_pb2 as spb
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

GAME = load_game("saboteur")
CODEC = wire.codec_for("saboteur")
SEAT_COUNTS = (3, 7, 10)
EVENT_KINDS = {f.name for f in spb.Event.DESCRIPTOR.oneofs_by_name["kind"].fields}
"""Every event kind a seat can receive (the record-only ones have no message)."""


def _through_bytes_action(action: Any) -> Any:
    raw = wire.game_action(CODEC, action).SerializeToString()
    return wire.decode_game_action(CODEC, tpb.GameAction.FromString(raw))


def _through_bytes_observation(observation: Any) -> Any:
    raw = wire.game_observation(CODEC, observation).SerializeToString()
    return wire.decode_game_observation(CODEC, tpb.GameObservation.FromString(raw))


def _through_bytes_event(event: Event, seat: int) -> Event:
    raw = wire.game_event(CODEC, event).SerializeToString()
    return wire.decode_game_event(CODEC, tpb.GameEvent.FromString(raw), seat)


def _random_match(seats: int, seed: int, variant: str = "off") -> Iterator[tuple[Any, list[Event]]]:
    """Yield (state, events of the last step) along a whole random match."""
    state, events = load_game(GAME.name, {"sabotaged_diggers_lose_share": variant}).new_state_with_events(seats, seed)
    rng = random.Random(seed)
    yield state, events
    while not state.is_terminal():
        (seat,) = state.to_act()
        events = state.apply({seat: rng.choice(state.legal_actions(seat))})
        yield state, events


def _scenario(**fields: Any) -> Any:
    obj = {"seats": 4, "seed": 5, "roles": ["gold_digger", "saboteur", "gold_digger", "gold_digger"]}
    obj.update(fields)
    return GAME.state_from_json(json.loads(json.dumps(obj)))


ROW_TO_6 = [{"x": x, "y": 0, "card": "ew" if x < 3 else "nesw"} for x in range(1, 7)]


def _scenario_events() -> list[Event]:
    """Events random play almost never produces: a goal turned up (S-4.5),
    a pass with an empty hand (S-3.1), a map look (S-5.4)."""
    gold = _scenario(
        goals=[{"card": "stone_ne"}, {"card": "gold"}, {"card": "stone_nw"}],
        maze=ROW_TO_6, hands=[["nesw"], ["ns"], ["ns"], ["ns"]], supply=[3, 2, 2, 1, 1, 1],
    )
    empty = _scenario(hands=[["ns", "ew"], [], ["ns"], []], draw_pile=[])  # seat 1 then passes
    looks = _scenario(hands=[["map"], [], [], []])
    return [
        *gold.apply({0: PlacePath("nesw", 7, 0)}),
        *empty.apply({0: Discard("ew")}),
        *looks.apply({0: Map(8, -2)}),
    ]


# ------------------------------------------------------------------ the schema


def test_the_card_and_tool_enums_name_exactly_the_engines_kinds():
    """S-1: one enum value per card kind and per tool, named as the engine names them."""
    cards = {v.name for v in spb.Card.DESCRIPTOR.values if v.number}
    assert cards == {"CARD_" + kind.name.upper() for kind in KINDS}
    assert spb.Card.Value("CARD_UNKNOWN") == 0
    assert {v.name for v in spb.Tool.DESCRIPTOR.values if v.number} == {"TOOL_" + t.upper() for t in TOOLS}


def test_every_action_type_has_its_message():
    """S-9: the Action oneof has one message per engine action class."""
    messages = {f.message_type.name for f in spb.Action.DESCRIPTOR.oneofs_by_name["kind"].fields}
    assert messages == {c.__name__ for c in (PlacePath, BreakTool, Repair, Rockfall, Map, Discard, type(PASS))}


# ------------------------------------------------------------------ round trips

coordinate = st.integers(-40, 40)
seat = st.integers(0, 9)
path_kinds = [k.name for k in KINDS if k.family == PATH]
repairs = [(k.name, tool) for k in KINDS if k.name.startswith("repair_") for tool in k.tools]
actions = st.one_of(
    st.builds(PlacePath, st.sampled_from(path_kinds), coordinate, coordinate, st.booleans()),
    st.builds(BreakTool, st.sampled_from(TOOLS), seat),
    st.builds(lambda rt, s: Repair(rt[0], s, rt[1]), st.sampled_from(repairs), seat),
    st.builds(Rockfall, coordinate, coordinate),
    st.builds(Map, coordinate, coordinate),
    st.builds(Discard, st.sampled_from([k.name for k in KINDS if k.family in (PATH, ACTION)])),
    st.just(PASS),
)


@given(actions)
def test_every_action_round_trips(action):
    """S-9: every action survives encoding, by value, negative cells included."""
    assert _through_bytes_action(action) == action


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_random_matches_round_trip_observations_actions_and_events(seats):
    """S-8: at every step of whole random matches, every seat's observation,
    every legal action, and every event to every seat in its audience comes
    back equal; a Decide assembled from cached bytes decodes to the same
    observation and legal actions."""
    encoder = wire.DecideEncoder(CODEC)
    kinds = set()
    request_id = 0
    for seed, variant in ((seats, "off"), (seats + 100, "on")):
        for state, events in _random_match(seats, seed, variant):
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
    assert {"path_placed", "card_drawn", "discarded", "round_ended", "nuggets_received", "match_ended"} <= kinds


def test_every_event_kind_a_seat_can_receive_round_trips():
    """The events of a random match and of hand-built scenarios cover every
    kind in saboteur.v1.Event; each comes back equal for each receiver."""
    events = [e for _, step in _random_match(4, 21) for e in step] + _scenario_events()
    seen = set()
    for event in events:
        for receiver in event.visible_to:
            decoded = _through_bytes_event(event, receiver)
            assert (decoded.kind, decoded.data) == (event.kind, event.data)
            seen.add(event.kind)
    assert seen == EVENT_KINDS


def test_record_only_events_cannot_be_encoded():
    """The deal's secrets (roles, goals, deck and supply order, drawn nuggets)
    go to the record only: no message can carry them."""
    _, events = GAME.new_state_with_events(5, 3)
    record_only = [e for e in events if not e.visible_to]
    assert {e.kind for e in record_only} == {"roles_dealt", "goals_placed", "deck_shuffled", "supply_shuffled"}
    for event in record_only:
        with pytest.raises(ValueError, match="never sent"):
            CODEC.encode_event(event)


def test_malformed_actions_are_refused_on_decode():
    for message in (
        spb.Action(),
        spb.Action(place_path=spb.PlacePath(x=1)),  # CARD_UNKNOWN
        spb.Action(discard=spb.Discard(card=999)),
        spb.Action(break_tool=spb.BreakTool(target=1)),  # TOOL_UNSPECIFIED
        spb.Action(repair=spb.Repair(card=spb.CARD_REPAIR_PICK, target=0, tool=7)),
    ):
        with pytest.raises(ValueError):
            CODEC.decode_action(message)


# ------------------------------------------------------------------ secrecy


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_what_a_seat_receives_depends_only_on_its_information_set(seats):
    """S-8: states the seat cannot tell apart (hidden hands, roles, unseen goals
    and the draw pile dealt anew, fresh chance streams) give it byte-identical
    Decide and observation messages: neither the seed nor any card it does not
    know is on the wire. The determinized states do differ in hidden cards."""
    encoder = wire.DecideEncoder(CODEC)
    rng = random.Random(seats)
    differed = 0
    for step, (state, _) in enumerate(_random_match(seats, seats * 7)):
        if step % 9 or state.is_terminal():
            continue
        (active,) = state.to_act()
        watcher = (active + 1 + step) % seats
        for seat in (active, watcher):
            other = state.determinize(seat, rng)
            legal = state.legal_actions(seat)
            assert encoder.encode(1, state.observe(seat), legal, 900) == encoder.encode(
                1, other.observe(seat), other.legal_actions(seat), 900)
            differed += _hidden(state.to_json(), seat) != _hidden(other.to_json(), seat)
    assert differed > 10


def _hidden(full: dict[str, Any], seat: int) -> Any:
    """The cards of a JSON state a seat may not know: the other hands, the
    other seats' roles, the goals (identities only, not who knows them)."""
    return (
        [sorted(card for card, _ in hand) for s, hand in enumerate(full["hands"]) if s != seat],
        [role for s, (role, _) in enumerate(full["roles"]) if s != seat],
        [goal["card"] for goal in full["goals"]],
    )


@pytest.mark.parametrize("seats", SEAT_COUNTS)
def test_the_wire_carries_no_other_seats_role_or_hand_and_no_unseen_goal(seats):
    """S-8, S-6.2, S-5.4 on the encoded messages themselves: until a round
    ends a seat's observation names only its own dwarf card; a face-down goal
    is named only to the seats that looked at it; events with a private part
    (a dealt hand, a drawn or discarded card, a map look, a payout) carry it
    only in the copy for the seat they are about."""
    unknown = spb.CARD_UNKNOWN
    for state, events in _random_match(seats, seats + 3):
        for event in events:
            for receiver in event.visible_to:
                _check_event_secrecy(CODEC.encode_event(event), receiver)
        for seat in range(seats):
            msg = CODEC.encode_observation(state.observe(seat))
            if not msg.over:
                assert [r != unknown for r in msg.roles] == [s == seat for s in range(seats)]
                assert msg.set_aside == unknown
            for goal in msg.goals:
                assert (goal.card != unknown) == (goal.revealed or seat in goal.seen_by)
            assert len(msg.hand) == msg.hand_counts[seat]


def _check_event_secrecy(msg: spb.Event, receiver: int) -> None:
    kind = msg.WhichOneof("kind")
    body: Any = getattr(msg, kind)
    mine = "seat" in body.DESCRIPTOR.fields_by_name and body.seat == receiver
    if kind == "role_dealt":
        assert mine
    elif kind in ("discarded", "card_drawn"):
        assert body.HasField("card") == mine
    elif kind == "map_used":
        assert body.HasField("goal") == mine
    elif kind == "hand_dealt":
        assert (len(body.cards) == body.count) if mine else not body.cards
    elif kind == "nuggets_received":
        assert (len(body.values) == body.count) if mine else not body.values


def test_a_map_look_reaches_only_the_looker():
    """S-5.4: the looker's observation and event name the goal; the others learn
    only who looked at which cell."""
    state = _scenario(hands=[["map"], [], [], []], goals=[{"card": "stone_ne"}, {"card": "gold"},
                                                          {"card": "stone_nw"}])
    events = state.apply({0: Map(8, 0)})
    looker, other = CODEC.encode_observation(state.observe(0)), CODEC.encode_observation(state.observe(2))
    assert (looker.goals[1].card, list(looker.goals[1].seen_by)) == (spb.CARD_GOLD, [0])
    assert (other.goals[1].card, list(other.goals[1].seen_by)) == (spb.CARD_UNKNOWN, [0])
    sent = {r: CODEC.encode_event(e).map_used for e in events if e.kind == "map_used" for r in e.visible_to}
    assert sent[0].goal == spb.CARD_GOLD and not any(sent[s].HasField("goal") for s in (1, 2, 3))


# ------------------------------------------------------------ a real bot process


def _start_saboteur_match(client: BotClient, state: Any, seat: int, match_id: str) -> None:
    client.start_match(
        match_id=match_id, game="saboteur", variant={"sabotaged_diggers_lose_share": "off"}, seat=seat,
        num_seats=state.num_seats, seat_names=[f"bot{s}" for s in range(state.num_seats)],
        time_control=TimeControl(move_time=0.5), observation=state.observe(seat),
    )


def test_the_random_bot_process_plays_a_whole_saboteur_match():
    """The random bot advertises saboteur in its handshake and answers every
    Decide of seat 0 with a legal action; the events it is sent (decoded by
    the SDK in the bot process) never break its stream."""
    state, events = GAME.new_state_with_events(3, 17)
    rng = random.Random(17)
    with bot_process(random_bot()) as bot:
        assert bot.client.info is not None and "saboteur" in bot.client.info.games
        _start_saboteur_match(bot.client, state, 0, "sab1")
        bot.client.notify([e for e in events if 0 in e.visible_to])
        request_id = 0
        while not state.is_terminal():
            (seat,) = state.to_act()
            legal = state.legal_actions(seat)
            if seat == 0 and len(legal) > 1:
                request_id += 1
                bot.client.send_decide(request_id=request_id, observation=state.observe(0), legal_actions=legal,
                                       allowance=10.0)
                action = bot.client.receive_decision(request_id=request_id, legal_actions=legal, timeout=10.0)
                assert action in legal
            else:
                action = rng.choice(legal)
            events = state.apply({seat: action})
            bot.client.notify([e for e in events if 0 in e.visible_to])
        bot.client.end_match(state.outcome(), state.outcome().reason)
        assert request_id > 20 and bot.process.poll() is None


def test_one_bot_process_plays_saboteur_then_gnadenlos():
    """Consecutive matches of different games in one process: the referee's
    client and the SDK switch codecs per match."""
    sab = GAME.new_state(4, 2)
    (seat,) = sab.to_act()
    gnadenlos = load_game("gnadenlos").new_state(4, 3)
    g_seat = min(gnadenlos.to_act())
    with bot_process(random_bot()) as bot:
        _start_saboteur_match(bot.client, sab, seat, "sab")
        legal = sab.legal_actions(seat)
        bot.client.send_decide(request_id=1, observation=sab.observe(seat), legal_actions=legal, allowance=10.0)
        assert bot.client.receive_decision(request_id=1, legal_actions=legal, timeout=10.0) in legal
        bot.client.end_match(_unfinished(sab.num_seats), "test")
        start_gnadenlos_match(bot.client, gnadenlos, g_seat, match_id="gn")
        legal = gnadenlos.legal_actions(g_seat)
        bot.client.send_decide(request_id=1, observation=gnadenlos.observe(g_seat), legal_actions=legal,
                               allowance=10.0)
        assert bot.client.receive_decision(request_id=1, legal_actions=legal, timeout=10.0) in legal
        bot.client.end_match(_unfinished(gnadenlos.num_seats), "test")
        assert bot.process.poll() is None


def _unfinished(seats: int) -> Outcome:
    return Outcome("test", tuple(range(seats)))
