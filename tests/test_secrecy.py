"""Secrecy through the real wire (G-10, G-5.4): spy bots record everything
they receive; replaying the referee's record through the engine shows that
each seat received exactly its own information set — every observation equal
to the engine's projection for that seat, every event one whose audience
holds the seat — and that no seat learned another's simultaneous commitment
before its own was in.
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
from referee.records import read_record
from referee.replay import Replayer

SPY = Path(__file__).parent / "bots" / "misbehave_spy.py"
NO_COMMIT = -2
"""How a Gnadenlos! observation shows a seat that has not committed (state.NO_COMMIT)."""


def dumps(folder: Path, seat: int) -> list[dict[str, Any]]:
    """What the spy in `seat` wrote down (its log: see tests/bots/misbehave_spy.py)."""
    (path,) = (folder / "logs").glob(f"seat{seat}-*.log")
    return [json.loads(line[4:]) for line in path.read_text().splitlines() if line.startswith("SPY ")]


@pytest.fixture(scope="module")
def spied_match(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    folder = tmp_path_factory.mktemp("spies")
    bots = start_bots([[sys.executable, str(SPY)]] * 4, [f"spy{i}" for i in range(4)], log_dir=folder / "logs")
    try:
        run_match("gnadenlos", bots, seed=2024, time_control=TimeControl(move_time=0.5),
                  record_path=folder / "match.jsonl")
    finally:
        for bot in bots:
            bot.close()
    return read_record(folder / "match.jsonl"), folder


def expected_messages(record: Any, seat: int) -> list[dict[str, Any]]:
    """What the seat may receive, in order, rebuilt by the engine from the record."""
    replayer = Replayer(record.header)
    expected: list[dict[str, Any]] = [{"type": "start", "observation": replayer.state.observe(seat).to_json()}]
    expected += [{"type": "event", "kind": e.kind, "data": e.data}
                 for e in replayer.setup_events if seat in e.visible_to]
    for decision in record.decisions:
        if any(line["seat"] == seat for line in decision["seats"]):
            expected.append({"type": "decide", "observation": replayer.state.observe(seat).to_json()})
        step = replayer.apply(decision)
        expected += [{"type": "event", "kind": e.kind, "data": e.data} for e in step.events_for(seat)]
    return json.loads(json.dumps(expected))


@pytest.mark.parametrize("seat", range(4))
def test_a_seat_receives_exactly_its_information_set(spied_match: tuple[Any, Path], seat: int) -> None:
    record, folder = spied_match
    assert record.footer is not None and not record.footer["forfeits"]
    received = [
        {key: m[key] for key in ("type", "observation", "kind", "data") if key in m}
        for m in dumps(folder, seat) if m["type"] in ("start", "decide", "event")
    ]
    assert received == expected_messages(record, seat)


@pytest.mark.parametrize("seat", range(4))
def test_private_draws_of_others_arrive_without_their_cards(spied_match: tuple[Any, Path], seat: int) -> None:
    """G-2.1: each player's two adventurers are private: the others hear only a count."""
    _, folder = spied_match
    draws = [m["data"] for m in dumps(folder, seat) if m.get("kind") == "adventurers_drawn"]
    assert len(draws) == 4
    for data in draws:
        assert ("cards" in data) == (data["seat"] == seat)


@pytest.mark.parametrize("seat", range(4))
def test_no_commitment_is_seen_before_ones_own_is_in(spied_match: tuple[Any, Path], seat: int) -> None:
    """G-5.4: when asked to commit, a seat has heard nothing of the others'
    commitments; they are revealed only after its own answer."""
    _, folder = spied_match
    messages = dumps(folder, seat)
    commits = [i for i, m in enumerate(messages)
               if m["type"] == "decide" and m["legal"][0]["type"] == "commit"]
    assert commits
    for index in commits:
        assert all(c == NO_COMMIT for c in messages[index]["observation"]["commits"])
        answer = messages[index + 1]
        assert answer["type"] == "answer" and answer["request_id"] == messages[index]["request_id"]
        reveal = next(m for m in messages[index + 1:] if m.get("kind") == "commitments_revealed")
        # The first reveal after the answer is this event's, and shows this seat's own commitment.
        assert reveal["data"]["event"] == messages[index]["observation"]["event"]
        assert reveal["data"]["commitments"][str(seat)] == answer["action"]["card"]
