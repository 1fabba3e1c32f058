"""Match records (docs/records.md): written line by line, self-contained,
replayable and verifiable; tampering is caught; seat views show only what
the seat saw (G-10)."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.main import cli
from referee.games import load_game
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
    assert header["seed"] == 31337 and header["variant"] == {"setup": "standard", "gunfight_opt_out": "off",
                                                             "auction": "standard"}
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


# --------------------------------------------- what each seat was offered


def digest_of(actions: list[Any]) -> str:
    """docs/records.md, `decision`: SHA-256 of the sorted canonical JSON texts, newline-joined."""
    texts = sorted(json.dumps(a.to_json(), sort_keys=True, separators=(",", ":")) for a in actions)
    return hashlib.sha256("\n".join(texts).encode("utf-8")).hexdigest()


def test_every_seat_s_line_says_how_many_actions_it_was_offered_and_their_digest(record_lines: list[str]) -> None:
    """The count and the digest of the set, recomputed as the page describes
    from the engine's legal actions at each decision (in shuffled order: a set)."""
    lines = entries(record_lines)
    state = load_game("gnadenlos", lines[0]["variant"]).new_state(4, 31337)
    rng = random.Random(1)
    checked = 0
    for decision in (e for e in lines if e["type"] == "decision"):
        for line in decision["seats"]:
            legal = list(state.legal_actions(line["seat"]))
            rng.shuffle(legal)
            assert line["legal_count"] == len(legal) >= 2  # docs/engine.md: never a forced choice
            assert line["legal_digest"] == digest_of(legal)
            checked += 1
        state.apply({line["seat"]: state.game.action_from_json(line["action"]) for line in decision["seats"]})
    assert checked > 10  # a whole match's seats' lines, not a record without decisions


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"legal_count": 1}, "the engine offers"),
        ({"legal_digest": "0" * 64}, "the engine offers"),
        ({"legal_count": None}, "does not say which actions were offered"),
    ],
)
def test_verify_catches_a_changed_or_missing_offer(
    record_lines: list[str], tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    lines = entries(record_lines)
    target = [e for e in lines if e["type"] == "decision"][5]["seats"][0]
    for key, value in change.items():
        if value is None:
            del target[key]
        else:
            target[key] = value
    with pytest.raises(ReplayMismatch, match=message):
        verify(parse_record([json.dumps(e) for e in lines]))
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in lines) + "\n")
    result = CliRunner().invoke(cli, ["replay", str(path), "--verify", "-q"], terminal_width=200)
    assert result.exit_code == 1 and "does not reproduce" in result.output and "decision 6, seat" in result.output
