"""The built-in bots play complete matches through the referee as real
processes (`python -m bots.heuristic`, `python -m bots.mcts`), warm across
matches and games, with no strike: every answer legal and in time
(DESIGN.md, Bots) — Gnadenlos! and Saboteur (issue 7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.builtins import resolve_bot_command
from referee.match import run_match
from referee.process import BotProcess, start_bots
from botsdk.contract import TimeControl
from referee.records import read_record

TIME = TimeControl(move_time=0.5)


@pytest.fixture
def bots(tmp_path: Path):
    commands = [
        resolve_bot_command("heuristic"),
        resolve_bot_command("mcts") + ["--iterations", "5", "--seed", "1"],
        resolve_bot_command("mcts:0.02"),
        resolve_bot_command("random"),
    ]
    started = start_bots(commands, ["heuristic", "mcts-iter", "mcts-time", "random"], log_dir=tmp_path / "logs")
    yield started
    for bot in started:
        bot.close()


END_REASONS = {"gnadenlos": ("vultures", "undertaker", "goal", "safety_valve"), "saboteur": ("rounds_played",),
               "leduc": ("showdown", "folds")}


@pytest.mark.slow
@pytest.mark.parametrize("game", ["gnadenlos", "saboteur", "leduc"])
def test_heuristic_and_mcts_play_complete_matches_as_processes(
    game: str, bots: list[BotProcess], tmp_path: Path
) -> None:
    pids = [bot.pid for bot in bots]
    for seed, seats in ((3, 4), (4, 3)):
        path = tmp_path / f"match{seed}.jsonl"
        result = run_match(game, bots[:seats], seed=seed, time_control=TIME, record_path=path)
        record = read_record(path)
        assert all(line["by"] == "bot" and "strike" not in line for d in record.decisions for line in d["seats"])
        assert all(s.forfeit is None for s in result.seats)
        assert [s.name for s in result.seats] == ["heuristic", "mcts", "mcts", "random"][:seats]
        assert result.end_reason in END_REASONS[game]
    assert [bot.pid for bot in bots] == pids and all(bot.alive for bot in bots)
