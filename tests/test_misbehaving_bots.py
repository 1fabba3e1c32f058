"""Misbehaving bots, each a small real process (tests/bots/misbehave_*.py),
seated with two random bots: the match completes, the failure policy of
DESIGN.md is applied, the record says why, and the other bots are unaffected
(no strike, every decision theirs, their match plays to its end).
"""

from __future__ import annotations

import sys
from pathlib import Path

import psutil
import pytest

from referee.match import STRIKE_LIMIT, MatchResult, run_match
from referee.process import BotProcess, start_bots
from botsdk.contract import TimeControl
from referee.records import MatchRecord, read_record
from referee.replay import verify
from referee.sandbox import Limits, MiB, SandboxPolicy, leftovers

BOTS = Path(__file__).parent / "bots"
RANDOM = [sys.executable, "-m", "bots.random", "--seed", "1"]
TIME = TimeControl(move_time=0.3, grace=0.05)


def command(script: str, *args: str) -> list[str]:
    return [sys.executable, str(BOTS / f"misbehave_{script}.py"), *args]


def play(bots: list[BotProcess], tmp_path: Path, name: str = "match", seed: int = 11,
         time_control: TimeControl = TIME) -> tuple[MatchResult, MatchRecord]:
    path = tmp_path / f"{name}.jsonl"
    result = run_match("gnadenlos", bots, seed=seed, time_control=time_control, record_path=path)
    record = read_record(path)
    verify(record)  # the match completed and replays to the same result
    return result, record


@pytest.fixture(scope="module")
def random_bots(tmp_path_factory: pytest.TempPathFactory):
    """Two random bots that sit through every misbehaving bot's match of this
    module: warm processes, unaffected by what the others do."""
    bots = start_bots([RANDOM, RANDOM], ["random-1", "random-2"], log_dir=tmp_path_factory.mktemp("logs"))
    yield bots
    for bot in bots:
        bot.close()


@pytest.fixture
def seated(tmp_path: Path, random_bots: list[BotProcess]):
    """Seat the misbehaving bot in seat 0 next to the two random bots; close it
    after, and check that no process or folder of its sandbox is left."""
    started: list[BotProcess] = []

    def seat(script: str, *args: str, policy: SandboxPolicy | None = None) -> list[BotProcess]:
        (bad,) = start_bots([command(script, *args)], [script], startup_timeout=10.0, log_dir=tmp_path / "logs",
                            policy=policy)
        started.append(bad)
        return [bad, *random_bots]

    yield seat
    assert all(bot.alive for bot in random_bots)  # still there for the next match
    pids = [bot.pid for bot in started if bot.pid > 0]
    for bot in started:
        bot.close()
    assert not [pid for pid in pids if psutil.pid_exists(pid)]
    assert not leftovers()  # nor any process or folder of its sandbox


def assert_others_unaffected(result: MatchResult, record: MatchRecord, bad: int = 0) -> None:
    for seat in result.seats:
        if seat.seat != bad:
            assert seat.strikes == 0 and seat.forfeit is None
    others = [line for d in record.decisions for line in d["seats"] if line["seat"] != bad]
    assert others and all(line["by"] == "bot" and "strike" not in line for line in others)


def strikes(record: MatchRecord, seat: int = 0) -> list[str]:
    return [line["strike"]["reason"] for d in record.decisions for line in d["seats"]
            if line["seat"] == seat and "strike" in line]


def test_crash_before_handshake_forfeits_from_the_start(seated, tmp_path: Path) -> None:
    bots = seated("crash_at_start")
    assert not bots[0].alive and bots[0].fault is not None
    result, record = play(bots, tmp_path)
    assert result.seats[0].forfeit == "startup" and result.ranks[0] == 2
    (forfeit,) = record.forfeits
    assert forfeit["decision"] == 0 and "exit code 3" in forfeit["detail"]
    played_for = [line for d in record.decisions for line in d["seats"] if line["seat"] == 0]
    assert played_for and all(line["by"] == "referee" for line in played_for)
    assert_others_unaffected(result, record)


def test_crash_mid_match_forfeits_and_the_match_goes_on(seated, tmp_path: Path) -> None:
    bots = seated("crash_mid_match")
    result, record = play(bots, tmp_path)
    assert result.seats[0].forfeit == "crashed" and result.ranks[0] == 2
    assert strikes(record) == ["crashed"]
    (forfeit,) = record.forfeits
    assert forfeit["decision"] > 0 and "exit code 7" in forfeit["detail"]
    assert not bots[0].alive
    assert_others_unaffected(result, record)


def test_a_decide_that_raises_forfeits_with_the_exception_named(seated, tmp_path: Path) -> None:
    """A bug in a bot's decide ends its stream (the SDK reports the
    exception's type and message); the referee records it as a crash."""
    bots = seated("raises")
    result, record = play(bots, tmp_path)
    assert result.seats[0].forfeit == "crashed" and result.ranks[0] == 2
    (forfeit,) = record.forfeits
    assert "ZeroDivisionError: the bot divided by zero" in forfeit["detail"]
    assert_others_unaffected(result, record)


def test_never_answering_reaches_the_strike_limit(seated, tmp_path: Path) -> None:
    bots = seated("silent")
    result, record = play(bots, tmp_path)
    assert strikes(record) == ["timeout"] * STRIKE_LIMIT
    assert result.seats[0].forfeit == "strike_limit" and result.ranks[0] == 2
    assert record.footer is not None and record.footer["forfeits"][0]["reason"] == "strike_limit"
    assert_others_unaffected(result, record)


def test_a_late_answer_is_struck_and_the_bot_plays_on(seated, tmp_path: Path) -> None:
    bots = seated("late")
    result, record = play(bots, tmp_path)
    assert strikes(record) == ["timeout"]
    assert result.seats[0].forfeit is None and result.seats[0].strikes == 1
    mine = [line for d in record.decisions for line in d["seats"] if line["seat"] == 0]
    assert mine[0]["by"] == "referee" and mine[0]["time"] >= TIME.move_time + TIME.grace
    # The late answer to the first request never counts for a later one.
    assert all(line["by"] == "bot" for line in mine[1:])
    assert_others_unaffected(result, record)


def test_illegal_answers_are_struck_then_forfeit(seated, tmp_path: Path) -> None:
    bots = seated("illegal")
    result, record = play(bots, tmp_path)
    assert strikes(record) == ["illegal"] * STRIKE_LIMIT
    assert result.seats[0].forfeit == "strike_limit"
    first = next(line["strike"] for d in record.decisions for line in d["seats"] if "strike" in line)
    assert "buy 99" in first["detail"]  # the author is told what was wrong
    assert_others_unaffected(result, record)


def test_malformed_answers_are_struck_then_forfeit(seated, tmp_path: Path) -> None:
    bots = seated("malformed")
    result, record = play(bots, tmp_path)
    assert strikes(record) == ["malformed"] * STRIKE_LIMIT
    assert result.seats[0].forfeit == "strike_limit"
    assert_others_unaffected(result, record)


def test_a_newer_protocol_version_is_refused_at_the_handshake(seated, tmp_path: Path) -> None:
    bots = seated("newer_protocol")
    assert bots[0].fault is not None and bots[0].fault.reason == "protocol_version"
    result, record = play(bots, tmp_path)
    assert result.seats[0].forfeit == "protocol_version"
    assert "version 2" in record.forfeits[0]["detail"]
    assert_others_unaffected(result, record)


def test_a_bot_that_exits_between_matches_forfeits_the_next(seated, tmp_path: Path) -> None:
    bots = seated("exit_after_match")
    first, first_record = play(bots, tmp_path, "first")
    assert all(seat.forfeit is None and seat.strikes == 0 for seat in first.seats)
    assert "exit code 0" in bots[0].exit_description(wait=5)
    assert not bots[0].alive and all(bot.alive for bot in bots[1:])
    second, record = play(bots, tmp_path, "second", seed=12)
    assert second.seats[0].forfeit == "crashed" and record.forfeits[0]["decision"] == 0
    assert "exit code 0" in record.forfeits[0]["detail"]
    assert_others_unaffected(second, record)


MEMORY_TIME = TimeControl(move_time=20.0, grace=0.05)
"""Time enough to fill the memory: the bot must fail by its limit, not by the clock."""
PLAIN_MEMORY = SandboxPolicy(limits=Limits(memory_bytes=768 * MiB))
"""A Python bot with gRPC's threads needs a few hundred MiB of address space of its own."""


@pytest.mark.slow
def test_a_plain_grpc_bot_that_runs_out_of_memory_forfeits_saying_so(seated, tmp_path: Path) -> None:
    """Issue 29: a bot without the SDK whose stream handler dies of
    MemoryError forfeited with "Exception iterating responses" and an empty
    log. The forfeit now names the limit it reached, and its log says so
    too (what the bot could not print itself)."""
    bots = seated("memory_plain", policy=PLAIN_MEMORY)
    result, record = play(bots, tmp_path, time_control=MEMORY_TIME)
    assert result.seats[0].forfeit == "crashed" and result.ranks[0] == 2
    (forfeit,) = record.forfeits
    assert "Exception iterating responses" in forfeit["detail"]
    assert "it ran out of memory: its address space reached" in forfeit["detail"]
    assert "of the 768 MiB each process may use" in forfeit["detail"]
    log = bots[0].log_path
    assert log is not None and "[referee: it ran out of memory" in log.read_text()
    assert log.read_text().count("[referee:") == 1  # said once, however often it is asked
    assert_others_unaffected(result, record)


@pytest.mark.slow
def test_a_bot_whose_memory_stays_full_is_struck_out_and_its_log_says_why(seated, tmp_path: Path) -> None:
    """A table kept across decisions leaves no memory even to end the
    stream: the bot times out to its forfeit, and its log, where its
    author looks for why, says that it ran out of memory."""
    bots = seated("memory_plain", "--keep", policy=PLAIN_MEMORY)
    result, record = play(bots, tmp_path, time_control=TimeControl(move_time=2.0, grace=0.05))
    assert strikes(record) == ["timeout"] * STRIKE_LIMIT and result.seats[0].forfeit == "strike_limit"
    log = bots[0].log_path
    assert log is not None
    # the bot may still write after the referee's note (a thread's last words as it starves): anywhere, once
    notes = [line for line in log.read_text().splitlines() if line.startswith("[referee:")]
    assert len(notes) == 1 and notes[0].startswith("[referee: it ran out of memory: its address space reached ")
    assert_others_unaffected(result, record)


def test_a_bot_the_oom_killer_ends_forfeits_saying_it_ran_out_of_memory(seated, tmp_path: Path) -> None:
    """Past its tree's memory limit (the control group's) the kernel kills
    the bot: the forfeit says so with that limit, not only "SIGKILL"."""
    policy = SandboxPolicy(limits=Limits(memory_bytes=None, tree_memory_bytes=256 * MiB))
    bots = seated("memory_tree", policy=policy)
    if not bots[0].protections().get("cgroup"):
        pytest.skip("no control group for the bot's tree on this machine")
    result, record = play(bots, tmp_path, time_control=MEMORY_TIME)
    assert result.seats[0].forfeit == "crashed"
    (forfeit,) = record.forfeits
    assert "killed by SIGKILL" in forfeit["detail"]
    assert ("it ran out of memory: its processes together passed their limit of 256 MiB and the kernel ended one"
            in forfeit["detail"])
    assert_others_unaffected(result, record)
