"""Match records (docs/records.md): written line by line, self-contained,
replayable and verifiable; tampering is caught; seat views show only what
the seat saw (G-10)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.match import run_match
from referee.process import start_bots
from botsdk.contract import GRACE, PROTOCOL_VERSION, TimeControl
from referee.records import RECORD_VERSION, RecordError, RecordWriter, parse_record, read_record
from referee.replay import ReplayMismatch, steps, verify


@pytest.fixture(scope="module")
def record_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("record")
    bots = start_bots([[sys.executable, "-m", "bots.random", "--seed", str(i)] for i in range(4)],
                      [f"r{i}" for i in range(4)])
    try:
        run_match("gnadenlos", bots, seed=31337, time_control=TimeControl(move_time=0.5, time_bank=2.0),
                  record_path=folder / "m.jsonl")
    finally:
        for bot in bots:
            bot.close()
    return (folder / "m.jsonl").read_text().splitlines()


def entries(lines: list[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def test_the_header_names_everything_needed_to_replay(record_lines: list[str]) -> None:
    header = entries(record_lines)[0]
    assert header["type"] == "header" and header["version"] == RECORD_VERSION
    assert header["game"] == "gnadenlos" and header["rules_version"] == "gnadenlos-2"
    assert header["seed"] == 31337 and header["variant"] == {"setup": "standard", "gunfight_opt_out": "off"}
    assert header["time_control"] == {"move_time": 0.5, "time_bank": 2.0, "grace": GRACE}
    assert header["protocol_version"] == PROTOCOL_VERSION
    assert [(s["seat"], s["name"], s["version"]) for s in header["seats"]] == [(i, "random", "1") for i in range(4)]


def test_every_decision_line_has_action_time_and_bank(record_lines: list[str]) -> None:
    decisions = [e for e in entries(record_lines) if e["type"] == "decision"]
    assert [d["n"] for d in decisions] == list(range(1, len(decisions) + 1))
    for decision in decisions:
        for line in decision["seats"]:
            assert line["by"] == "bot" and line["time"] >= 0 and 0 <= line["bank"] <= 2.0
            assert isinstance(line["action"], dict) and "type" in line["action"]
    assert any(len(d["seats"]) > 1 for d in decisions)  # G-5.4: simultaneous commitments in one line


def test_the_record_is_self_contained_without_our_generator(record_lines: list[str]) -> None:
    """An independent check: track the adventurer deck from the recorded
    shuffles alone and confirm every draw and reveal takes its top card."""
    deck: list[int] = []
    draws = 0
    for entry in entries(record_lines):
        for event in entry.get("events", []):
            data = event["data"]
            if event["kind"] == "deck_shuffled" and data["deck"] == "adventurers":
                assert event["visible_to"] == []  # record only: no seat sees a deck order
                deck = list(data["order"])
            elif event["kind"] in ("adventurers_drawn", "adventurers_revealed") and "cards" in data:
                for card in data["cards"]:
                    assert deck.pop() == card
                    draws += 1
    assert draws >= 8
    kinds = {event["kind"] for entry in entries(record_lines) for event in entry.get("events", [])}
    assert {"start_player", "market_dealt", "deck_shuffled"} <= kinds


def test_the_record_verifies_and_every_step_matches(record_lines: list[str]) -> None:
    record = parse_record(record_lines)
    verify(record)
    assert record.finished and sum(1 for _ in steps(record)) == len(record.decisions) + 1


def test_a_changed_decision_is_caught(record_lines: list[str]) -> None:
    lines = entries(record_lines)
    target = next(e for e in lines if e["type"] == "decision" and e["seats"][0]["action"]["type"] == "buy")
    legal_other = target["seats"][0]["action"]["steps"] ^ 1
    target["seats"][0]["action"]["steps"] = legal_other
    with pytest.raises(ReplayMismatch):
        verify(parse_record([json.dumps(e) for e in lines]))


def test_a_widened_audience_is_caught(record_lines: list[str]) -> None:
    lines = entries(record_lines)
    setup = lines[1]
    private = next(e for e in setup["events"] if len(e["visible_to"]) == 1)
    private["visible_to"] = [0, 1, 2, 3]
    with pytest.raises(ReplayMismatch, match="setup"):
        verify(parse_record([json.dumps(e) for e in lines]))


def test_a_changed_result_is_caught(record_lines: list[str]) -> None:
    lines = entries(record_lines)
    lines[-1]["ranks"] = list(reversed(lines[-1]["ranks"]))
    lines[-1]["engine_ranks"] = list(reversed(lines[-1]["engine_ranks"]))
    with pytest.raises(ReplayMismatch, match="ranking"):
        verify(parse_record([json.dumps(e) for e in lines]))


def test_a_torn_last_line_is_read_as_an_unfinished_record(record_lines: list[str]) -> None:
    torn = record_lines[:5] + [record_lines[5][: len(record_lines[5]) // 2]]
    record = parse_record(torn)
    assert record.torn_line and not record.finished and len(record.decisions) == 3
    list(steps(record))  # what is there still replays
    with pytest.raises(ReplayMismatch, match="footer"):
        verify(record)


def test_other_files_are_refused(tmp_path: Path, record_lines: list[str]) -> None:
    with pytest.raises(RecordError):
        parse_record(["not json", "{}"])
    header = json.loads(record_lines[0])
    header["version"] = RECORD_VERSION + 1
    with pytest.raises(RecordError, match="version"):
        parse_record([json.dumps(header)] + record_lines[1:])
    with pytest.raises(RecordError, match="cannot read"):
        read_record(tmp_path / "missing.jsonl")


def test_lines_are_on_disk_as_soon_as_they_are_written(tmp_path: Path) -> None:
    path = tmp_path / "live.jsonl"
    seen: list[dict[str, Any]] = []
    with RecordWriter(path, seen.append) as writer:
        writer.write({"type": "header", "n": 1})
        assert path.read_text() == '{"type":"header","n":1}\n'
        writer.write({"type": "setup", "events": []})
        assert len(path.read_text().splitlines()) == 2
    assert [e["type"] for e in seen] == ["header", "setup"]
