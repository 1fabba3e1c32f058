"""Hostile bots through full matches (issue 6).

Each program of tests/hostile/ (and the raw-gRPC attackers of tests/bots/)
sits in seat 0 of a real match (`referee.match.run_match`) next to two
random bots, and commits its act during the match. For each: the match finishes and replays; the offender is
struck or forfeits with a clear recorded reason (or, where its act is merely
contained, plays on); the random bots play every decision themselves,
without a strike; nothing of the offender remains afterwards (no process of
its sandbox or its uid, no folder, no file of its uid in the world-writable
folders); and what it tried to see, it did not see.

Also here: a warm bot's CPU budget is per match (`BotProcess.begin_match`).
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil
import pytest

from botsdk.contract import TimeControl
from ladder.store.database import Store
from referee.match import STRIKE_LIMIT, MatchResult, run_match
from referee.process import BotProcess, start_bots
from referee.records import MatchRecord, read_record
from referee.replay import verify
from referee.sandbox import Limits, MiB, SandboxPolicy, capabilities, leftovers
from referee.sandbox.logpipe import TRUNCATED

HOSTILE = Path(__file__).parent / "hostile"
RAW = Path(__file__).parent / "bots"
"""The hostile bots on raw gRPC live beside their helper (tests/bots/raw_bot.py)."""
RANDOM = [sys.executable, "-m", "bots.random", "--seed", "1"]
TIME = TimeControl(move_time=0.5, grace=0.1)
"""Generous for the random bots on a loaded machine; a strike-limit
forfeit costs its offender three of these."""
SEED = 11
CAPS = capabilities()
OWN_USER = CAPS.root and CAPS.switch_user
WORLD_WRITABLE = ("/tmp", "/var/tmp", "/dev/shm")


@pytest.fixture(scope="module")
def random_bots(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[BotProcess]]:
    """Two random bots that sit through every hostile bot's match of this
    module: warm processes, which must stay unaffected."""
    bots = start_bots([RANDOM, RANDOM], ["random-1", "random-2"], log_dir=tmp_path_factory.mktemp("logs"))
    yield bots
    for bot in bots:
        bot.close()


@pytest.fixture
def hostile(tmp_path: Path, random_bots: list[BotProcess]) -> Iterator[Any]:
    """Start a hostile program as a bot (`--socket` is added, as for every
    bot); after the test, check that nothing of it remains and that the
    random bots still run."""
    started: list[BotProcess] = []

    def start(name: str, *args: str, policy: SandboxPolicy | None = None,
              expose: tuple[Path, ...] = (), folder: Path = HOSTILE) -> BotProcess:
        bot = BotProcess.start([sys.executable, str(folder / f"{name}.py"), *args], label=name,
                               log_path=tmp_path / f"{name}.log", policy=policy, expose=expose)
        started.append(bot)
        return bot

    yield start
    uids = [bot.protections()["own_uid"] for bot in started]
    for bot in started:
        bot.close()
    assert not leftovers()  # no process and no folder of its sandbox
    for uid in filter(None, uids):
        assert not [p.pid for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == uid]
        assert files_of(uid) == []
    assert all(bot.alive for bot in random_bots)


def files_of(uid: int) -> list[str]:
    """Files the uid owns in the world-writable folders."""
    found = subprocess.run(["find", *WORLD_WRITABLE, "-xdev", "-uid", str(uid)], capture_output=True, text=True)
    return found.stdout.split()


def play(bots: list[BotProcess], tmp_path: Path, name: str = "match",
         time_control: TimeControl = TIME) -> tuple[MatchResult, MatchRecord]:
    path = tmp_path / f"{name}.jsonl"
    result = run_match("gnadenlos", bots, seed=SEED, time_control=time_control, record_path=path)
    record = read_record(path)
    verify(record)  # the match finished and replays to the same result
    return result, record


def assert_others_unaffected(result: MatchResult, record: MatchRecord) -> None:
    """Seats 1 and 2 decided every time themselves, without a strike."""
    assert all(seat.strikes == 0 and seat.forfeit is None for seat in result.seats[1:])
    others = [line for d in record.decisions for line in d["seats"] if line["seat"] != 0]
    assert others and all(line["by"] == "bot" and "strike" not in line for line in others)


def strikes(record: MatchRecord) -> list[dict[str, Any]]:
    return [line["strike"] for d in record.decisions for line in d["seats"] if line["seat"] == 0 and "strike" in line]


def forfeit(record: MatchRecord) -> dict[str, Any]:
    (only,) = record.forfeits
    assert only["seat"] == 0
    return only


@pytest.mark.slow
def test_fork_bomb_forfeits_and_every_fork_dies(hostile: Any, random_bots: list[BotProcess],
                                                tmp_path: Path) -> None:
    bomb = hostile("fork_bomb", policy=SandboxPolicy(limits=Limits(max_processes=32)))
    result, record = play([bomb, *random_bots], tmp_path)
    assert [s["reason"] for s in strikes(record)] == ["timeout"] * STRIKE_LIMIT
    assert forfeit(record)["reason"] == "strike_limit" and result.ranks[0] == 2
    assert "Resource temporarily unavailable" in bomb.log_path.read_text()  # the process limit held it
    assert not bomb.alive  # killed at its forfeit, with every fork
    assert_others_unaffected(result, record)


def test_memory_hog_crashes_on_its_limit_and_forfeits(hostile: Any, random_bots: list[BotProcess],
                                                      tmp_path: Path) -> None:
    hog = hostile("memory_hog", policy=SandboxPolicy(limits=Limits(memory_bytes=768 * MiB)))
    result, record = play([hog, *random_bots], tmp_path)
    assert forfeit(record)["reason"] == "crashed" and result.ranks[0] == 2
    assert "MemoryError" in hog.log_path.read_text()  # what its author reads with `referee logs`
    assert_others_unaffected(result, record)


@pytest.mark.slow
def test_busy_loop_ignoring_deadlines_is_struck_out_and_killed(hostile: Any, random_bots: list[BotProcess],
                                                               tmp_path: Path) -> None:
    spinner = hostile("busy_loop")
    result, record = play([spinner, *random_bots], tmp_path)
    assert [s["reason"] for s in strikes(record)] == ["timeout"] * STRIKE_LIMIT
    assert forfeit(record)["detail"] == f"{STRIKE_LIMIT} strikes (timeout, timeout, timeout)"
    assert "killed by SIGKILL (killed by the referee)" in spinner.exit_description()
    assert_others_unaffected(result, record)


def test_a_bot_that_spawns_a_child_and_exits_forfeits_and_the_child_dies(
        hostile: Any, random_bots: list[BotProcess], tmp_path: Path) -> None:
    parent = hostile("spawn_and_exit")
    result, record = play([parent, *random_bots], tmp_path)
    detail = forfeit(record)["detail"]
    assert forfeit(record)["reason"] == "crashed" and "exit code 0" in detail
    assert "grandchild" in parent.log_path.read_text()
    # it was PID 1 of its namespace: its exit ended the grandchild (the fixture
    # checks that no process of its sandbox or uid is left)
    assert parent._process is not None and parent._process.members() == []
    assert_others_unaffected(result, record)


@pytest.fixture
def local_server() -> Iterator[int]:
    """A TCP port on the referee's localhost that accepts connections."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield server.getsockname()[1]


def said(bot: BotProcess) -> dict[str, str]:
    """The JSON line the hostile act printed into its log."""
    assert bot.log_path is not None
    line = next(line for line in bot.log_path.read_text().splitlines() if line.startswith("{"))
    return dict(json.loads(line))


def test_tcp_out_and_to_localhost_fail_and_the_bot_plays_on(hostile: Any, random_bots: list[BotProcess],
                                                            tmp_path: Path, local_server: int) -> None:
    prober = hostile("network", str(local_server))
    result, record = play([prober, *random_bots], tmp_path)
    tried = said(prober)
    if CAPS.jail:
        assert set(tried) == {"localhost", "outside", "udp_outside"}
        assert all(outcome.startswith("failed") for outcome in tried.values()), tried
    else:
        assert "network_namespace" in record.header["seats"][0]["sandbox"]["unavailable"]  # recorded
    assert result.seats[0].forfeit is None and strikes(record) == []  # contained, not a fault
    assert_others_unaffected(result, record)


@pytest.mark.parametrize("in_sight", [False, True], ids=["hidden", "in-sight"])
def test_snooping_on_the_ladder_and_another_bot_sees_nothing(
        hostile: Any, random_bots: list[BotProcess], tmp_path: Path, in_sight: bool) -> None:
    """The snoop tries the ladder's database, the working folder and socket
    of the random bot it plays against, and the referee. Its private /tmp
    hides all of them; "in-sight" binds the ladder's data folder and the
    other bot's sandbox folder into its view as well, so only their modes
    and its own uid stand in the way."""
    with Store(tmp_path / "data" / "ladder.sqlite") as store:
        database = store.path
    victim = Path(os.readlink(f"/proc/{random_bots[0].pid}/cwd"))  # its private working folder
    (victim / "notes.txt").write_text("my hand")
    sight = (database.parent, victim.parent) if in_sight else ()
    snoop = hostile("snoop", str(database), str(victim), str(victim.parent / "sock" / "bot.sock"),
                    str(os.getpid()), expose=sight)
    result, record = play([snoop, *random_bots], tmp_path)
    tried = said(snoop)
    assert set(tried) == {"secret_file", "other_workdir", "other_file", "other_socket", "referee_cmdline",
                          "signal_referee"}
    if OWN_USER:
        assert all(outcome.startswith("denied") for outcome in tried.values()), tried
    assert result.seats[0].forfeit is None and strikes(record) == []
    assert_others_unaffected(result, record)
    (victim / "notes.txt").unlink()


def test_a_gigabyte_on_stdout_is_capped_and_the_bot_plays_on(hostile: Any, random_bots: list[BotProcess],
                                                              tmp_path: Path) -> None:
    cap = Limits().log_bytes
    before = psutil.Process().memory_info().rss
    flood = hostile("flood_stdout")
    result, record = play([flood, *random_bots], tmp_path, time_control=TimeControl(move_time=120.0))
    assert result.seats[0].forfeit is None and strikes(record) == []  # never blocked on its output
    assert flood.log_path.stat().st_size <= cap + len(TRUNCATED.format(cap=cap))
    assert flood.log_path.read_text().endswith("further output discarded]\n")
    assert psutil.Process().memory_info().rss - before < 64 * MiB  # the referee stayed small
    assert_others_unaffected(result, record)


def test_a_huge_message_breaks_only_its_own_stream(hostile: Any, random_bots: list[BotProcess],
                                                   tmp_path: Path) -> None:
    sender = hostile("hostile_huge_message", folder=RAW)
    result, record = play([sender, *random_bots], tmp_path)
    gone = forfeit(record)
    assert gone["reason"] == "crashed" and gone["decision"] == 1
    assert "larger than max" in gone["detail"]
    assert_others_unaffected(result, record)


def test_an_action_of_another_seat_is_illegal(hostile: Any, random_bots: list[BotProcess],
                                              tmp_path: Path) -> None:
    """The impostor knows the deal (the seed) and answers with another
    seat's card: struck as illegal, in words that say nothing of whose."""
    impostor = hostile("hostile_impostor", "other-seat", str(SEED), folder=RAW)
    result, record = play([impostor, *random_bots], tmp_path)
    found = strikes(record)
    assert [s["reason"] for s in found] == ["illegal"] * STRIKE_LIMIT
    assert found[0]["detail"].endswith("is not one of the 2 legal actions offered")
    assert "seat" not in found[0]["detail"]
    assert forfeit(record)["reason"] == "strike_limit"
    assert_others_unaffected(result, record)


def test_an_answer_of_another_match_is_malformed(hostile: Any, random_bots: list[BotProcess],
                                                 tmp_path: Path) -> None:
    """A warm impostor replays, in its second match, the last answer of its
    first: the request was never asked in this match."""
    impostor = hostile("hostile_impostor", "other-match", folder=RAW)
    first, first_record = play([impostor, *random_bots], tmp_path, "first")
    assert first.seats[0].forfeit is None and strikes(first_record) == []
    result, record = play([impostor, *random_bots], tmp_path, "second")
    found = strikes(record)
    assert [s["reason"] for s in found] == ["malformed"] * STRIKE_LIMIT
    assert "which was never asked" in found[0]["detail"]
    assert forfeit(record)["reason"] == "strike_limit"
    assert_others_unaffected(result, record)


@pytest.mark.slow
def test_a_warm_bot_gets_a_fresh_cpu_budget_at_each_match(hostile: Any, random_bots: list[BotProcess],
                                                          tmp_path: Path) -> None:
    """Each match costs the greedy bot about 1.2 s of CPU, under a budget of
    1.8 s: three matches in a row use twice its budget in all, yet none of
    them is cut short (without the renewal at each match start the CPU
    limit would kill it in the second or, at the latest, the third)."""
    greedy = hostile("cpu_per_match", "1.2", policy=SandboxPolicy(limits=Limits(cpu_seconds=1.8)))
    for index in range(3):
        result, record = play([greedy, *random_bots], tmp_path, f"match{index}",
                              time_control=TimeControl(move_time=60.0))
        assert result.seats[0].forfeit is None and strikes(record) == []
    times = psutil.Process(greedy.pid).cpu_times()
    tick = 1 / os.sysconf("SC_CLK_TCK")  # /proc counts user and system time in clock ticks, each truncated
    assert times.user + times.system >= 3 * 1.2 - 2 * tick > 1.8  # its budgets, not its total, were bounded
    assert greedy.alive
