"""`referee play` and `referee replay` from the command line, with real bot
processes (issue 3: Referee; docs/records.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee.builtins import BotCommandError, resolve_bot_command
from referee.cli.main import cli
from referee.cli.play import EXIT_FORFEIT, EXIT_NOT_STARTED
from referee.durations import parse_duration

SPY = Path(__file__).parent / "bots" / "misbehave_spy.py"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    record = tmp_path_factory.mktemp("play") / "match.jsonl"
    result = CliRunner().invoke(cli, ["play", "--bot", "random", "--bot", "random", "--bot", "random",
                                      "--seed", "5", "--move-time", "500ms", "--record", str(record), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout), record


def test_json_result_has_the_ranking_and_the_table_figures(played: tuple[dict, Path]) -> None:
    summary, _ = played
    assert summary["seed"] == 5 and summary["game"] == "gnadenlos"
    assert sorted(summary["ranking"]) == [0, 1, 2] and len(summary["ranks"]) == 3
    for key in ("fields", "nuggets", "vultures"):
        assert len(summary[key]) == 3
    assert summary["strikes"] == [0, 0, 0] and summary["forfeits"] == {}
    assert summary["end_reason"] in ("vultures", "undertaker", "goal", "safety_valve")
    assert [s["name"] for s in summary["seats"]] == ["random"] * 3


def test_the_record_replays_and_verifies(played: tuple[dict, Path]) -> None:
    summary, record = played
    result = CliRunner().invoke(cli, ["replay", str(record), "--verify"])
    assert result.exit_code == 0, result.output
    assert "verified" in result.output and "Result" in result.output
    assert json.loads(record.read_text().splitlines()[-1])["ranks"] == summary["ranks"]


def test_a_seat_view_shows_only_what_that_seat_saw(played: tuple[dict, Path]) -> None:
    """G-2.1/G-10: seat 1 sees its own draw and only counts of the others'."""
    _, record = played
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    draws = {e["data"]["seat"]: e["data"]["cards"] for e in lines[1]["events"]
             if e["kind"] == "adventurers_drawn" and "cards" in e["data"]}
    result = CliRunner().invoke(cli, ["replay", str(record), "--seat", "1"], terminal_width=200)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "record only" not in out  # no deck orders
    from referee.games.gnadenlos.render import adventurer

    assert all(adventurer(card) in out for card in draws[1])
    assert "random[0] draws 2 cards face down" in out
    everyone = CliRunner().invoke(cli, ["replay", str(record)], terminal_width=200).output
    assert "record only" in everyone and all(adventurer(c) in everyone for c in draws[0])


def test_a_tampered_record_does_not_verify(played: tuple[dict, Path], tmp_path: Path) -> None:
    _, record = played
    lines = record.read_text().splitlines()
    footer = json.loads(lines[-1])
    footer["end_reason"] = "made_up"
    (tmp_path / "bad.jsonl").write_text("\n".join(lines[:-1] + [json.dumps(footer)]) + "\n")
    result = CliRunner().invoke(cli, ["replay", str(tmp_path / "bad.jsonl"), "--verify", "-q"])
    assert result.exit_code == 1 and "does not reproduce" in result.output


def test_play_shows_the_match_as_it_happens(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["play", "--bot", "random", "--bot", "random", "--bot", "random",
                                      "--seed", "8", "--move-time", "0.5"], terminal_width=160)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "public view" in out and "— turn 1" in out and "market" in out and "Result" in out
    assert "record only" not in out  # a spectator sees no deck order


def test_bad_bot_commands_get_one_clear_line(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(cli, ["play", "--bot", "random", "--bot", "random", "--bot", str(tmp_path / "nope.py")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    too_few = runner.invoke(cli, ["play", "--bot", "random", "--bot", "random"])
    assert too_few.exit_code == 2 and "3 to 4 seats" in too_few.output


def test_builtin_names_and_command_lines_resolve(tmp_path: Path) -> None:
    assert resolve_bot_command("random") == [sys.executable, "-m", "bots.random"]
    assert resolve_bot_command("mcts:0.05") == [sys.executable, "-m", "bots.mcts", "--move-time", "0.05"]
    assert resolve_bot_command(f"{SPY} --name 'a b'") == [sys.executable, str(SPY), "--name", "a b"]
    assert resolve_bot_command("sh -c true") == ["sh", "-c", "true"]

    with pytest.raises(BotCommandError, match="not found on PATH"):
        resolve_bot_command("no-such-program-xyz")
    assert resolve_bot_command("mcts:250ms") == [sys.executable, "-m", "bots.mcts", "--move-time", "0.25"]
    with pytest.raises(BotCommandError, match="is not a time"):
        resolve_bot_command("mcts:fast")
    script = tmp_path / "bot.sh"
    script.write_text("#!/bin/sh\n")
    with pytest.raises(BotCommandError, match="chmod"):
        resolve_bot_command(str(script))


def test_a_relative_program_path_is_made_absolute(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bot runs in its own private folder, so a relative path would not be found there."""
    monkeypatch.chdir(SPY.parent)
    assert resolve_bot_command(f"./{SPY.name} --x") == [sys.executable, str(SPY.resolve()), "--x"]


def test_durations_read_like_a_person_writes_them() -> None:
    assert parse_duration("1s") == 1.0 and parse_duration("250ms") == 0.25
    assert parse_duration("0.5") == 0.5 and parse_duration("2m") == 120.0
    with pytest.raises(ValueError):
        parse_duration("fast")


def test_a_bot_that_cannot_start_stops_the_match_unless_asked_to_play_on(tmp_path: Path) -> None:
    """Issue 29, point 6: a match is not played around a bot that never
    started (exit status 4), unless --play-on asks for it (then the seat
    forfeits from the start: 1). Either way its output says why."""
    seats = ["play", "--bot", "random", "--bot", "random", "--bot", "sh -c 'echo no luck today >&2; exit 3'",
             "--seed", "3", "--move-time", "0.3", "--json", "--log-dir", str(tmp_path)]
    stopped = CliRunner().invoke(cli, seats)
    assert stopped.exit_code == EXIT_NOT_STARTED == 4, stopped.output
    (seat,) = json.loads(stopped.stdout)["not_started"]
    assert seat["seat"] == 2 and seat["reason"] == "startup" and "exit code 3" in seat["detail"]
    assert seat["log_tail"] == ["no luck today"]
    assert "was not played" in stopped.stderr and "no luck today" in stopped.stderr

    played_on = CliRunner().invoke(cli, [*seats, "--play-on"])
    assert played_on.exit_code == EXIT_FORFEIT == 1, played_on.output  # a seat forfeited
    summary = json.loads(played_on.stdout)
    assert summary["forfeits"] == {"2": "startup"} and summary["ranks"][2] == 2
    assert "no luck today" in played_on.stderr
