"""Counters leak nothing (containment issue, property 9).

A request id counted across the whole match told a seat how many decisions
the others had made between its own; since the engine plays forced turns
itself, it told which of their turns were forced. In Saboteur a forced turn
means a hand of one card kind that cannot be played: a spy inferred exactly
that an opponent held two unplayable copies of one kind. Request ids now
count each seat's own decisions: the spy (tests/bots/misbehave_spy.py, a
real process that writes down everything it receives) sees 1, 2, 3, ...
whatever the others did in between.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.match import run_match
from referee.process import start_bots
from botsdk.contract import TimeControl
from referee.records import MatchRecord, read_record
from referee.replay import verify

SPY = [sys.executable, str(Path(__file__).parent / "bots" / "misbehave_spy.py")]
RANDOM = [sys.executable, "-m", "bots.random", "--seed", "3"]


def spied_match(game: str, seats: int, folder: Path) -> tuple[list[dict[str, Any]], MatchRecord]:
    """Play a match with the spy in seat 0 and random bots elsewhere; what
    the spy wrote down (its log) and the record."""
    bots = start_bots([SPY] + [RANDOM] * (seats - 1), ["spy"] + [f"random-{i}" for i in range(1, seats)],
                      log_dir=folder / "logs")
    try:
        run_match(game, bots, seed=9, time_control=TimeControl(move_time=0.5), record_path=folder / "match.jsonl")
    finally:
        for bot in bots:
            bot.close()
    (log,) = (folder / "logs").glob("seat0-*.log")
    seen = [json.loads(line[4:]) for line in log.read_text().splitlines() if line.startswith("SPY ")]
    record = read_record(folder / "match.jsonl")
    verify(record)
    return seen, record


def others_decided_between(record: MatchRecord, seat: int) -> bool:
    """Whether another seat was asked between two of `seat`'s decisions: the
    case in which a match-wide counter would jump."""
    deciders = [{line["seat"] for line in d["seats"] if line["by"] == "bot"} for d in record.decisions]
    mine = [i for i, who in enumerate(deciders) if seat in who]
    return any(who - {seat} for who in deciders[mine[0]:mine[-1]])


SABOTEUR_TURNS = {"path_placed", "tool_broken", "tool_repaired", "rockfall", "map_used", "discarded", "passed"}
"""The events that end a Saboteur turn: each turn has one that every seat sees."""


def forced_turns(record: MatchRecord) -> int:
    """Saboteur turns the engine played itself (a seat with a single legal
    action): the turns of each decision line beyond the one decided."""
    return sum(
        sum(1 for e in d["events"] if e["kind"] in SABOTEUR_TURNS and 0 in e["visible_to"]) - 1
        for d in record.decisions)


@pytest.mark.parametrize("game, seats", [("saboteur", 4), ("gnadenlos", 4)])
def test_a_seat_counts_only_its_own_requests(game: str, seats: int, tmp_path: Path) -> None:
    seen, record = spied_match(game, seats, tmp_path)
    ids = [m["request_id"] for m in seen if m["type"] == "decide"]
    asked = sum(1 for d in record.decisions for line in d["seats"] if line["seat"] == 0)
    assert ids == list(range(1, asked + 1))
    assert others_decided_between(record, 0)  # a match-wide counter would have jumped here
    assert all(line["by"] == "bot" for d in record.decisions for line in d["seats"])
    if game == "saboteur":
        assert forced_turns(record) > 0  # which a match-wide counter would have given away
