"""End to end through real bot processes over gRPC: full matches between
random bots, warm processes across matches, start-up failures, and the whole
process tree killed on close (DESIGN.md: Referee; issue 3: Referee, Tests).
"""

from __future__ import annotations

import sys
from pathlib import Path

import psutil
import pytest

from referee.games import load_game
from referee.match import run_match
from referee.process import BotProcess, start_bots
from botsdk.contract import TimeControl
from referee.protocol.client import BotStartFailed
from referee.records import read_record
from referee.replay import verify
from referee.sandbox import SandboxPolicy, leftovers

AS_REFEREE = SandboxPolicy(run_as="self")
"""For bots that are shell scripts running this interpreter, which the bots'
own users may not be allowed to execute (it may live under /root)."""

RANDOM = [sys.executable, "-m", "bots.random"]
TIME = TimeControl(move_time=0.5)


@pytest.fixture
def random_bots(tmp_path: Path):
    bots = start_bots([RANDOM + ["--seed", str(i)] for i in range(4)], [f"random{i}" for i in range(4)],
                      log_dir=tmp_path / "logs")
    yield bots
    for bot in bots:
        bot.close()


def test_four_random_bots_play_full_matches_on_warm_processes(random_bots: list[BotProcess], tmp_path: Path) -> None:
    pids = [bot.pid for bot in random_bots]
    for number, seed in enumerate((1, 2)):
        path = tmp_path / f"match{number}.jsonl"
        result = run_match("gnadenlos", random_bots, seed=seed, time_control=TIME, record_path=path)
        record = read_record(path)
        verify(record)
        assert result.decisions == len(record.decisions) > 0
        assert all(line["by"] == "bot" and "strike" not in line for d in record.decisions for line in d["seats"])
        assert sorted(result.ranks)[0] == 0 and all(s.forfeit is None for s in result.seats)
        assert result.end_reason in ("vultures", "undertaker", "goal", "safety_valve")
        assert set(result.summary) >= {"fields", "nuggets", "vultures"}
        assert [s.name for s in result.seats] == ["random"] * 4
    # Warm: the same processes played both matches.
    assert [bot.pid for bot in random_bots] == pids and all(bot.alive for bot in random_bots)


def test_three_seats_and_the_advanced_setup(random_bots: list[BotProcess], tmp_path: Path) -> None:
    path = tmp_path / "advanced.jsonl"
    result = run_match(load_game("gnadenlos", "setup=advanced"), random_bots[:3], seed=5,
                       time_control=TIME, record_path=path)
    record = read_record(path)
    verify(record)
    assert record.header["variant"]["setup"] == "advanced" and len(result.ranks) == 3


def test_the_same_seed_and_bots_give_the_same_match(tmp_path: Path) -> None:
    """Seeded random bots and a seeded deal: the whole record reproduces."""
    def actions(name: str) -> list[object]:
        bots = start_bots([RANDOM + ["--seed", "9"]] * 3, ["a", "b", "c"])
        try:
            run_match("gnadenlos", bots, seed=77, time_control=TIME, record_path=tmp_path / name,
                      match_id="same-id")
        finally:
            for bot in bots:
                bot.close()
        return [line["action"] for d in read_record(tmp_path / name).decisions for line in d["seats"]]
    assert actions("one.jsonl") == actions("two.jsonl")


def test_a_missing_program_fails_to_start_clearly(tmp_path: Path) -> None:
    with pytest.raises(BotStartFailed, match="cannot run"):
        BotProcess.start([str(tmp_path / "no-such-bot")], label="ghost")


def test_a_program_that_never_listens_times_out_and_is_killed() -> None:
    with pytest.raises(BotStartFailed, match="did not listen"):
        BotProcess.start(["sh", "-c", "exec sleep 60", "sh"], label="mute", startup_timeout=0.5, policy=AS_REFEREE)
    assert not leftovers()  # no process and no folder of its sandbox remains


def test_close_kills_the_whole_process_tree(tmp_path: Path) -> None:
    """A bot that started a child of its own: close leaves neither behind."""
    script = f'sleep 60 & exec {sys.executable} -m bots.random "$@"'
    bot = BotProcess.start(["sh", "-c", script, "sh"], label="parent", policy=AS_REFEREE)
    tree = [bot.pid] + [child.pid for child in psutil.Process(bot.pid).children(recursive=True)]
    assert len(tree) >= 2
    bot.close()
    bot.close()  # idempotent
    assert not bot.alive
    for pid in tree:
        assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
