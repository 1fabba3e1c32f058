"""A 10-player Saboteur match of real bot processes through `referee play`,
its record, `referee replay --verify` and a seat's replay (issue 7).

The seat's view must never run ahead of what the seat knew (S-8): another
seat's role only from the round's end (S-2.1, S-6.2), a face-down goal only
after the seat looked at it with a map or it turned up (S-5.4, S-4.5),
another seat's map look and nugget values never (S-6.5: the values only at
the match's end).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee.cli.main import cli

SEATS = 10
WIDE = {"COLUMNS": "400"}
"""Rich draws this wide: no line of ten seats wraps, so each check sees whole lines."""
ROLE_WORD = re.compile(r"\b(gold-digger|saboteur)\b(?!s)")
"""A role as the rendering names one seat's dwarf card (plurals name a team)."""
SEAT = re.compile(r"random\[(\d+)\]")
LOOKED = re.compile(r"random\[(\d+)\] looks at goal \((-?\d+), (-?\d+)\) with a map(: it is)?")
REVEALED = re.compile(r"goal \((-?\d+), (-?\d+)\) turns up")
KNOWN_FACE_DOWN = re.compile(r"goal \((-?\d+), (-?\d+)\) face down \((GOLD|stone): looked at\)")
FRAMED_KNOWN = re.compile(r"│[Go]│")
RECEIVED = re.compile(r"random\[(\d+)\] receives \d+ nugget cards?(: [\d ]+)?")


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path, list[dict[str, Any]]]:
    record = tmp_path_factory.mktemp("saboteur") / "match.jsonl"
    bots = [arg for _ in range(SEATS) for arg in ("--bot", "random")]
    result = CliRunner().invoke(cli, ["play", "--game", "saboteur", *bots, "--seed", "11", "--move-time", "2s",
                                      "--record", str(record)], env=WIDE)
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    return result.output, record, lines


def record_events(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [event for line in lines if line["type"] in ("setup", "decision") for event in line["events"]]


@pytest.mark.slow
def test_the_match_finishes_and_is_shown_as_the_maze_grows(played: tuple[str, Path, list[dict[str, Any]]]) -> None:
    out, _, lines = played
    footer = lines[-1]
    assert footer["type"] == "footer" and footer["end_reason"] == "rounds_played"
    assert footer["forfeits"] == [] and footer["strikes"] == [[]] * SEATS
    # The footer's public summary: nugget totals (S-7.2) and the three rounds (S-7.1).
    summary = footer["summary"]
    assert len(summary["nuggets"]) == SEATS and sum(summary["nuggets"]) <= 44
    assert [r["round"] for r in summary["rounds"]] == [1, 2, 3]
    placed = [e for e in record_events(lines) if e["kind"] == "path_placed"]
    assert placed  # random play places path cards, and each shows
    assert out.count("places ") >= len(placed)
    assert "public view" in out and "Saboteur — round 1/3" in out and "──S──" in out
    for number in (1, 2, 3):
        assert f"round {number} ends" in out and f"the maze at the end of round {number}" in out
    assert "Rounds" in out and "Result: rounds_played" in out
    # A spectator knows no role before the round ends, and no record-only chance outcome.
    assert not ROLE_WORD.search(out.split("round 1 begins")[1].split("round 1 ends")[0])
    assert "record only" not in out


def test_a_table_outside_three_to_ten_is_refused() -> None:
    result = CliRunner().invoke(cli, ["play", "--game", "saboteur", "--bot", "random", "--bot", "random"])
    assert result.exit_code == 2 and "3 to 10 seats" in result.output


@pytest.mark.slow
def test_the_record_replays_and_verifies(played: tuple[str, Path, list[dict[str, Any]]]) -> None:
    _, record, _ = played
    result = CliRunner().invoke(cli, ["replay", str(record), "--verify"], env=WIDE)
    assert result.exit_code == 0, result.output
    assert "verified" in result.output and "Rounds" in result.output
    assert "record only: dwarf cards dealt" in result.output  # the whole record shows every chance outcome


def test_a_record_with_other_end_figures_does_not_verify(
        played: tuple[str, Path, list[dict[str, Any]]], tmp_path: Path) -> None:
    """The footer's nugget totals must be the engine's (S-7.2), like its ranking."""
    _, record, lines = played
    footer = dict(lines[-1], summary=dict(lines[-1]["summary"]))
    footer["summary"]["nuggets"] = [total + 1 for total in footer["summary"]["nuggets"]]
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("".join(json.dumps(line) + "\n" for line in [*lines[:-1], footer]))
    result = CliRunner().invoke(cli, ["replay", str(tampered), "--verify", "-q"], env=WIDE)
    assert result.exit_code == 1 and "end figures" in result.output


def busiest_map_user(lines: list[dict[str, Any]]) -> int:
    """The seat that looked at goals most often: its view has the most private knowledge to keep."""
    looks = [e["data"]["seat"] for e in record_events(lines) if e["kind"] == "map_used" and "goal" in e["data"]]
    assert looks, "ten random players use no map in three rounds"
    return max(range(SEATS), key=looks.count)


@pytest.mark.slow
def test_a_seat_view_never_runs_ahead_of_what_the_seat_knew(
        played: tuple[str, Path, list[dict[str, Any]]]) -> None:
    _, record, lines = played
    seat = busiest_map_user(lines)
    result = CliRunner().invoke(cli, ["replay", str(record), "--seat", str(seat)], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "record only" not in out
    dealt = [e["data"]["roles"] for e in record_events(lines) if e["kind"] == "roles_dealt"]
    own_roles = re.findall(rf"random\[{seat}\] is dealt the dwarf card (\S+)", out)
    assert own_roles == [roles[seat].replace("_", "-") for roles in dealt]

    looked: set[tuple[int, int]] = set()
    revealed: set[tuple[int, int]] = set()
    ended = True
    looks = 0
    for line in out.splitlines():
        if "round " in line and " begins" in line:
            looked, revealed, ended = set(), set(), False
        if re.search(r"round \d ends", line):
            ended = True
        # S-2.1 / S-6.2: before the round's end a role is only ever this seat's own.
        if not ended and ROLE_WORD.search(line):
            assert {int(s) for s in SEAT.findall(line)} <= {seat}, line
        # S-5.4: a look's result only for this seat's own looks.
        for looker, x, y, result_shown in LOOKED.findall(line):
            assert (int(looker) == seat) == bool(result_shown), line
            if int(looker) == seat:
                looked.add((int(x), int(y)))
                looks += 1
        for x, y in REVEALED.findall(line):
            revealed.add((int(x), int(y)))
        # A face-down goal is known only once looked at; its framed letter likewise.
        for x, y, _ in KNOWN_FACE_DOWN.findall(line):
            assert (int(x), int(y)) in looked, line
        assert len(FRAMED_KNOWN.findall(line)) <= len(looked), line
        # S-6.5: another seat's nugget values stay hidden until the match's end.
        for owner, values in RECEIVED.findall(line):
            assert bool(values) == (int(owner) == seat), line
    assert looks >= 1


@pytest.mark.slow
def test_the_roles_are_shown_to_every_seat_at_each_round_end(
        played: tuple[str, Path, list[dict[str, Any]]]) -> None:
    """S-6.2: at a round's end every dwarf card is revealed, in every seat's view."""
    _, record, lines = played
    dealt = [e["data"]["roles"] for e in record_events(lines) if e["kind"] == "roles_dealt"]
    result = CliRunner().invoke(cli, ["replay", str(record), "--seat", "0"], env=WIDE)
    assert result.exit_code == 0, result.output
    out = result.output
    shown = re.findall(r"roles: (.*); set aside", out)
    assert len(shown) == 3
    for roles, line in zip(dealt, shown):
        assert line == ", ".join(f"random[{s}] {role.replace('_', '-')}" for s, role in enumerate(roles))
