"""The Gnadenlos! observation is a player's view, not the engine's state (G-10).

It carries what a player at the table knows, in the rules' terms — the stage
of the match, the orders of bids, picks and final buys with the seat deciding
in them, the safety valve's count of quiet turns (G-9.5) — and none of the
engine's bookkeeping (its step stack, positions and counters), neither in the
engine's observation nor on the wire. A state rebuilt from the view alone
(determinize) still runs on exactly as the real one would.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Iterator
from typing import Any

import pytest
from google.protobuf import descriptor_pb2

from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as gpb
from referee.games import load_game
from referee.games.base import Event
from referee.games.gnadenlos.actions import Buy
from referee.games.gnadenlos.observation import GnadenlosObservation
from protocol_support import first_v1_module
from referee.protocol import codec as wire

GAME = load_game("gnadenlos")
CODEC = wire.codec_for("gnadenlos")
INTERNALS = ("todo", "bid_pos", "pick_pos", "final_pos", "quiet", "activity")
"""The engine's bookkeeping that the first gnadenlos.v1 observation carried."""
PROGRESS = {"event_revealed", "adventurers_revealed", "nuggets_gained", "nuggets_paid", "prestige_bought"}
"""G-9.5: the events that say a turn was not quiet (an event card revealed, an
auction held, nuggets changing hands)."""


def _matches(count: int) -> Iterator[tuple[Any, list[Event], bool]]:
    """(state, events of the step that led to it, whether it is a new match)
    along random matches of 3 and 4 seats, standard and advanced setup, to
    their ends."""
    for seed in range(count):
        variant = {"setup": "advanced"} if seed % 2 else None
        state, events = load_game(GAME.name, variant).new_state_with_events(3 + seed % 3 // 2, seed)
        rng = random.Random(seed)
        yield state, events, True
        while not state.is_terminal():
            events = state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
            yield state, events, False


def test_the_observation_holds_none_of_the_engines_bookkeeping() -> None:
    """Neither the engine's observation nor the wire message has a field for
    the step stack, the positions or the valve's counters; the wire message
    reserves their old numbers and names, so no later field reuses them."""
    names = {f.name for f in dataclasses.fields(GnadenlosObservation)}
    assert not names & set(INTERNALS)
    descriptor = gpb.Observation.DESCRIPTOR
    assert not set(descriptor.fields_by_name) & set(INTERNALS)
    proto = descriptor_pb2.DescriptorProto()
    descriptor.CopyToProto(proto)
    assert set(proto.reserved_name) == set(INTERNALS)
    assert {r.start for r in proto.reserved_range} == {9, 42, 48, 50, 51, 52}
    state = GAME.new_state(4, 3)
    assert not set(state.observe(0).to_json()) & set(INTERNALS)


VARIANTS = ({"auction": "single"}, {"auction": "single", "auction_order": "best", "auction_buy_limit": "many"},
            {"gunfight_opt_out": "soft", "setup": "advanced"})
"""Variants whose flows have step plans of their own (G-5.11, G-6.7)."""


def test_a_state_rebuilt_from_the_view_has_the_real_ones_bookkeeping() -> None:
    """The engine's step plan, its position in the order of the bids, picks
    or final buys being asked, and the valve's counters follow from the
    view: a determinized state has the real one's, at every decision of
    random matches (after a round of bids, picks or final buys its
    position is spent: the next round starts from 0)."""
    rng = random.Random(0)
    checked = 0
    for state, _, _ in _matches(12):
        for seat in range(state.num_seats):
            other = state.determinize(seat, rng)
            assert other.todo == state.todo
            for phase, position in (("bid", "bid_pos"), ("pick", "pick_pos"), ("final_buy", "final_pos")):
                if state.phase == phase:
                    assert getattr(other, position) == getattr(state, position)
            if not state.end_reason:  # nothing reads the valve's counters after the end
                assert other.activity == state.activity
                assert state.activity or other.quiet == state.quiet  # a busy turn resets the count at its end
            assert other.observe(seat) == state.observe(seat)
            checked += 1
    assert checked > 1000


def _rebuilt(state: Any, seat: int, rng: random.Random) -> Any:
    """`state` (same cards, same chance streams) with the bookkeeping of a
    state determinized from `seat`'s view."""
    view = state.determinize(seat, rng)
    copy = state.clone()
    for name in INTERNALS:
        setattr(copy, name, getattr(view, name))
    copy.todo = list(view.todo)
    return copy


@pytest.mark.parametrize("variant", [None, *VARIANTS])
def test_bookkeeping_rebuilt_from_the_view_plays_on_as_the_real_one(variant: dict[str, str] | None) -> None:
    """The real state and its copy whose step plan, positions and valve
    counters are rebuilt from a seat's view play the rest of the match
    identically under the same decisions: every observation, every legal
    action and the result (G-6.7 and G-5.11's flows included)."""
    rng = random.Random(1)
    for seed in range(4):
        real = load_game(GAME.name, variant).new_state(3 + seed % 2, seed)
        play = random.Random(seed)
        decisions = 0
        while not real.is_terminal():
            if decisions % 9 == 0:
                twin = _rebuilt(real, decisions % real.num_seats, rng)
                _same_course(real.clone(), twin, random.Random(decisions))
            real.apply({s: play.choice(real.legal_actions(s)) for s in real.to_act()})
            decisions += 1


def _same_course(real: Any, twin: Any, rng: random.Random) -> None:
    while True:
        assert [twin.observe(s) for s in range(real.num_seats)] == [real.observe(s) for s in range(real.num_seats)]
        if real.is_terminal():
            assert twin.is_terminal() and twin.outcome() == real.outcome()
            return
        legal = {s: real.legal_actions(s) for s in real.to_act()}
        assert {s: twin.legal_actions(s) for s in twin.to_act()} == legal
        choice = {s: rng.choice(actions) for s, actions in legal.items()}
        real.apply(choice)
        twin.apply(choice)


def test_quiet_turns_is_what_a_seat_counts_from_its_events() -> None:
    """G-9.5: `quiet_turns` is the number of turns in a row without progress,
    the current one counted while nothing has happened in it — what any seat
    counts from the public events it receives."""
    longest = 0
    for state, events, new in _matches(40):
        if new:
            completed, progress, started = 0, False, False
        for event in events:
            if 0 not in event.visible_to:
                continue
            if event.kind == "turn_started":
                completed = 0 if progress or not started else completed + 1
                progress, started = False, True
            elif event.kind in PROGRESS and started:
                progress = True
        if state.is_terminal():
            continue
        quiet_turns = state.observe(0).quiet_turns
        assert quiet_turns == (0 if progress else completed + 1)
        longest = max(longest, quiet_turns)
    assert longest >= 1


def test_quiet_turns_reaches_the_table_size_on_the_turn_the_valve_ends() -> None:
    """G-9.5 (scenario): two quiet turns done at three seats; seat 2 holds every
    adventurer, so its turn has no event and no auction (G-5.1, G-4). Buying
    nothing keeps the turn quiet: the count stands at 3 while it decides, and
    the turn's end is the safety valve's. Buying a field breaks the streak."""
    quiet = {
        "seats": 3, "turn": 5, "active": 2, "quiet": 2, "nuggets": [0, 0, 3], "todo": ["turn"],
        "adventurers": {"hands": [[], [], [1, 2, 3]]},
    }
    state = GAME.state_from_json(quiet)
    view = state.observe(0)
    assert (view.phase, view.stage, view.quiet_turns) == ("buy", "buy", 3)
    busy = state.clone()
    busy.apply({2: Buy(1)})
    assert not busy.is_terminal() and busy.observe(0).turn == 6  # the valve let the next turn start
    state.apply({2: Buy(0)})
    view = state.observe(1)
    assert (view.end_reason, view.end_detail, view.stage, view.quiet_turns) == ("safety_valve", "stalled", "end", 3)


def test_the_stage_names_where_the_match_stands() -> None:
    """G-4: the stage of each decision follows the turn's phases, read from
    the events: the advanced setup's opening auction before the first turn;
    commitments and High Noon takes in the event; refills in the event while
    an event card is out (G-5.7), else between paydays (G-8.5); then the buy,
    the auction, and after the end (G-9.1) only the end."""
    seen = set()
    for state, events, new in _matches(12):
        if new:
            started = ended = False
        started = started or any(e.kind == "turn_started" for e in events)
        ended = ended or any(e.kind == "match_ending" for e in events)
        view = state.observe(0)
        phase = view.phase
        if ended:
            expected = "end"
        elif phase in ("bid", "pick"):
            expected = "auction" if started else "setup"
        elif phase == "refill":
            expected = "event" if view.event >= 0 else "payday"
        else:
            expected = {"commit": "event", "take": "event", "buy": "buy"}[phase]
        assert view.stage == expected, (phase, state.todo)
        seen.add((view.stage, phase))
    assert {s for s, _ in seen} == {"setup", "event", "buy", "auction", "payday", "end"}


@pytest.fixture(scope="module")
def first_v1(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The classes of the first gnadenlos.v1 schema, in a pool of their own."""
    module = first_v1_module()
    return module.load_schema(module.compile_schema(tmp_path_factory.mktemp("v1")))


def test_a_bot_of_the_first_v1_reads_the_new_observation(first_v1: Any) -> None:
    """Wire compatibility: the new observation's bytes parse under the first
    gnadenlos.v1 schema (tests/bots/gnadenlos_v1_first.proto); every kept
    field reads the same, the removed ones read as their defaults, the new
    ones are skipped as unknown."""
    kept = [f.name for f in gpb.Observation.DESCRIPTOR.fields
            if f.name in first_v1.Observation.DESCRIPTOR.fields_by_name]
    added = set(gpb.Observation.DESCRIPTOR.fields_by_name) - set(kept)
    assert {"stage", "quiet_turns"} <= added and not added & set(INTERNALS)
    for state, _, _ in _matches(2):
        for seat in range(state.num_seats):
            new = CODEC.encode_observation(state.observe(seat))
            old = first_v1.Observation.FromString(new.SerializeToString())
            for name in kept:
                value = getattr(new, name)
                assert (list(getattr(old, name)) if isinstance(value, Iterable) and not isinstance(value, str)
                        else getattr(old, name)) == (list(value) if not isinstance(value, (int, str)) else value)
            assert not any(getattr(old, name) for name in INTERNALS)
