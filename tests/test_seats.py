"""Seats of every kind in one match loop (issue 25, part 1; docs/architecture.md).

A bot process, a bot in the referee's process and a heuristic policy sit at
one table, played by `run_match` with a record: each in-process player gets
exactly what the protocol gives a bot — its own observation, legal actions,
the events its seat may see (G-10), never the state — and the record names
each seat's kind. The failure policy is the same for a seat in the
referee's process as for a process: a late answer is a timeout, an
exception a crash; and every answer is timed on its own, so a slow seat
is never charged to another (G-5.4's simultaneous commitments).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from botsdk import DecisionContext, MatchInfo
from botsdk.contract import TimeControl

from referee.games import Action, Event, Observation, Outcome, State, load_game
from referee.games.plugin import load_strategy
from referee.games.strategy import Player
from referee.match import STRIKE_LIMIT, run_match
from referee.process import BotProcess, start_bots
from referee.records import MatchRecord, parse_record, read_record
from referee.replay import Replayer, verify
from referee.seats.in_process import InProcessSeat
from referee.seats.policy import PlayerSeat
from referee.seats.process import ProcessSeat

RANDOM = [sys.executable, "-m", "bots.random", "--seed", "3"]
GAME = load_game("gnadenlos")


class SpyBot:
    """An in-process bot (shaped like bots.sdk.Bot) that writes down
    everything it is given and plays the first legal action, after `sleep`
    seconds on a commitment, or raises on its `raise_on`-th decision."""

    name = "spy"
    version = "2"

    def __init__(self, sleep: float = 0.0, raise_on: int = 0) -> None:
        self.sleep = sleep
        self.raise_on = raise_on
        self.received: list[tuple[str, Any]] = []
        self.match: MatchInfo | None = None

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        self.match = match
        self.received.append(("start", (match, observation)))

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...],
               context: DecisionContext) -> Action:
        self.received.append(("decide", (observation, legal_actions, context)))
        if self.raise_on and sum(kind == "decide" for kind, _ in self.received) == self.raise_on:
            raise RuntimeError("the spy gives up")
        if self.sleep and legal_actions[0].to_json()["type"] == "commit":
            time.sleep(self.sleep)
        return legal_actions[0]

    def on_events(self, events: Sequence[Event]) -> None:
        self.received.append(("events", list(events)))

    def on_match_end(self, outcome: Outcome) -> None:
        self.received.append(("end", outcome))


class SpyPlayer(Player):
    """The game's heuristic, writing down what it is given."""

    def __init__(self) -> None:
        self.inner = load_strategy("gnadenlos").player()
        self.received: list[tuple[str, Any]] = []

    def start(self, observation: Observation) -> None:
        self.received.append(("start", observation))
        self.inner.start(observation)

    def on_events(self, events: Sequence[Event]) -> None:
        self.received.append(("events", list(events)))
        self.inner.on_events(events)

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        self.received.append(("decide", (observation, legal_actions)))
        return self.inner.decide(observation, legal_actions)


@pytest.fixture(scope="module")
def random_bot(tmp_path_factory: pytest.TempPathFactory) -> Any:
    (bot,) = start_bots([RANDOM], ["random"], log_dir=tmp_path_factory.mktemp("logs"))
    yield bot
    bot.close()


@pytest.fixture(scope="module")
def mixed(random_bot: BotProcess, tmp_path_factory: pytest.TempPathFactory) -> tuple[SpyBot, SpyPlayer, MatchRecord]:
    spy, player = SpyBot(), SpyPlayer()
    path = tmp_path_factory.mktemp("mixed") / "match.jsonl"
    result = run_match("gnadenlos", [ProcessSeat(random_bot), InProcessSeat(spy), PlayerSeat(player, "heuristic")],
                       seed=77, time_control=TimeControl(move_time=1.0), record_path=path)
    assert all(seat.forfeit is None and seat.strikes == 0 for seat in result.seats)
    return spy, player, read_record(path)


def observations(received: list[tuple[str, Any]]) -> list[Observation]:
    """The observations a spy was given: at the start, then with each decision."""
    found = []
    for kind, value in received:
        if kind == "start":
            found.append(value[1] if isinstance(value, tuple) else value)  # (MatchInfo, observation) for a bot
        elif kind == "decide":
            found.append(value[0])
    return found


def seen_by(record: MatchRecord, seat: int) -> list[list[dict[str, Any]]]:
    """The events of the setup and of each decision that `seat` may see, as JSON."""
    lines = [record.setup, *record.decisions]
    return [[e for e in line["events"] if seat in e["visible_to"]] for line in lines]


def test_the_record_names_each_seats_kind_and_old_records_stay_readable(mixed: Any) -> None:
    _, _, record = mixed
    seats = record.header["seats"]
    assert [s["kind"] for s in seats] == ["process", "in-process", "policy"]
    assert [s["name"] for s in seats] == ["random", "spy", "heuristic"] and seats[1]["version"] == "2"
    assert seats[0]["sandbox"] and seats[1]["sandbox"] == {} and seats[1]["protocol_version"] == 0
    verify(record)
    lines = [json.dumps(record.header), json.dumps(record.setup), *map(json.dumps, record.decisions),
             json.dumps(record.footer)]
    old = json.loads(lines[0])
    for seat in old["seats"]:
        del seat["kind"]  # as every record before the field was written
    verify(parse_record([json.dumps(old), *lines[1:]]))


@pytest.mark.parametrize("seat", [1, 2])
def test_in_process_seats_get_only_what_the_protocol_gives_a_bot(mixed: Any, seat: int) -> None:
    """G-10: their own observations (equal to the engine's projection for
    them), legal actions, and exactly the events their seat may see, in
    order; never a State."""
    spy, player, record = mixed
    received = spy.received if seat == 1 else player.received
    everything = [value for _, value in received]
    flat = [x for value in everything for x in (value if isinstance(value, (tuple, list)) else [value])]
    assert flat and not any(isinstance(x, State) for x in flat)

    replayer = Replayer(record.header)
    expected = [replayer.state.observe(seat)]  # at the start
    for decision in record.decisions:
        if seat in {line["seat"] for line in decision["seats"]}:
            expected.append(replayer.state.observe(seat))  # when it was asked
        replayer.apply(decision)
    assert [o.to_json() for o in observations(received)] == [o.to_json() for o in expected]

    told = [event.to_json() for kind, events in received if kind == "events" for event in events]
    assert told and told == [e for step in seen_by(record, seat) for e in step]


def test_an_in_process_bot_is_told_the_match_as_a_process_is(mixed: Any) -> None:
    spy, _, record = mixed
    assert spy.match is not None
    assert (spy.match.match_id, spy.match.game, spy.match.seat, spy.match.num_seats) == \
        (record.header["match_id"], "gnadenlos", 1, 3)
    assert spy.match.seat_names == ("random", "spy", "heuristic")
    assert spy.match.seed_commitment.hex() == record.header["seed_commitment"]
    contexts = [v[2] for kind, v in spy.received if kind == "decide"]
    assert [c.request_id for c in contexts] == list(range(1, len(contexts) + 1))  # its own count
    (end,) = [v for kind, v in spy.received if kind == "end"]
    assert list(end.ranks) == record.footer["ranks"]  # type: ignore[index]


def test_an_in_process_bot_that_is_late_or_raises_is_struck_like_a_process(random_bot: BotProcess,
                                                                          tmp_path: Path) -> None:
    late, raising = SpyBot(sleep=0.3), SpyBot(raise_on=2)
    path = tmp_path / "match.jsonl"
    result = run_match("gnadenlos", [ProcessSeat(random_bot), InProcessSeat(late), InProcessSeat(raising)],
                       seed=5, time_control=TimeControl(move_time=0.1, time_bank=0.05, grace=0.05),
                       record_path=path)
    record = read_record(path)
    verify(record)
    strikes = [line for d in record.decisions for line in d["seats"] if line["seat"] == 1 and "strike" in line]
    assert strikes and all(line["strike"]["reason"] == "timeout" and line["by"] == "referee" and line["bank"] == 0
                           for line in strikes)
    assert result.seats[1].strikes == min(len(strikes), STRIKE_LIMIT)
    assert result.seats[2].forfeit == "crashed" and "RuntimeError: the spy gives up" in result.seats[2].forfeit_detail
    assert result.ranks[2] == 2 and result.seats[0].strikes == 0


def test_each_answer_of_a_simultaneous_decision_is_timed_on_its_own(random_bot: BotProcess,
                                                                    tmp_path: Path) -> None:
    """G-5.4: the process seat is asked before the slow in-process seat
    before it thinks, and its answer is timed by its own clock, not charged
    for the other's 0.2 s (read one after another in seat order, it would be)."""
    path = tmp_path / "match.jsonl"
    run_match("gnadenlos", [InProcessSeat(SpyBot(sleep=0.2)), ProcessSeat(random_bot), InProcessSeat(SpyBot())],
              seed=9, time_control=TimeControl(move_time=1.0), record_path=path)
    together = [{line["seat"]: line["time"] for line in d["seats"]} for d in read_record(path).decisions
                if {0, 1} <= {line["seat"] for line in d["seats"]}]
    assert together
    for times in together:
        assert times[0] >= 0.2 and times[1] < 0.15, times
