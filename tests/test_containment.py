"""Hostile bots that broke the first sandbox, in full matches (the
containment issue, properties 1, 3, 4 and 6; the others are tested where
their protection lives: records, submissions, display, the handshake,
request ids, logs).

Each hostile program in tests/hostile/ is seated in a real match
(`referee.match.run_match`) through real processes; each test failed on
the sandbox before nsjail and passes now.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.match import run_match
from referee.process import BotProcess, start_bots
from botsdk.contract import TimeControl
from referee.records import read_record
from referee.replay import verify
from referee.sandbox import Limits, SandboxPolicy, capabilities, leftovers, spawn, sweep_stale_boxes

pytestmark = pytest.mark.slow  # hostile bots in real jails, seconds each

HOSTILE = Path(__file__).parent / "hostile"
RANDOM = [sys.executable, "-m", "bots.random", "--seed", "1"]
TIME = TimeControl(move_time=0.5, grace=0.1)
CAPS = capabilities()


@pytest.fixture
def bots() -> Iterator[list[BotProcess]]:
    """Bots started by a test, closed after it; then nothing of them remains."""
    started: list[BotProcess] = []
    yield started
    for bot in started:
        bot.close()
    assert not leftovers()


def hostile(name: str, *args: str, log: Path) -> BotProcess:
    return BotProcess.start([sys.executable, str(HOSTILE / f"{name}.py"), *args], label=name, log_path=log,
                            expose=[HOSTILE])


def play(seats: list[BotProcess], record: Path, game: str = "gnadenlos", seed: int = 5,
         time_control: TimeControl = TIME) -> Any:
    result = run_match(game, seats, seed=seed, time_control=time_control, record_path=record)
    verify(read_record(record))
    return result


def wait_for_line(log: Path, word: str, timeout: float = 30.0) -> str:
    """The first line of `log` containing `word` (a bound on waiting, not a speed check)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines() if log.exists() else []:
            if word in line:
                return line
        time.sleep(0.05)
    raise AssertionError(f"{word!r} never appeared in {log}: {log.read_text()[-2000:]}")


# ------------------------------------------------------------ property 1


def test_what_a_bot_leaves_behind_cannot_crash_the_cleanup_or_a_later_run(tmp_path: Path,
                                                                           bots: list[BotProcess]) -> None:
    """Links to folders outside, to / and to themselves, 3,000 nested
    folders, mode-000 folders: the match ends normally, the bot's folder is
    removed whole, nothing outside it is touched, and the next sandboxes and
    matches (and their sweeps) run as usual."""
    outside = tmp_path / "outside"
    (outside / "keep").mkdir(parents=True)
    (outside / "keep" / "canary").write_text("still here")
    litter = hostile("litter", str(outside), log=tmp_path / "litter.log")
    bots += [litter, *start_bots([RANDOM, RANDOM], ["random-1", "random-2"])]
    result = play(bots, tmp_path / "one.jsonl")
    assert "littered" in litter.log_path.read_text()  # type: ignore[union-attr]
    assert all(seat.forfeit is None for seat in result.seats), read_record(tmp_path / "one.jsonl").forfeits
    box = litter._process.sandbox.box_dir  # type: ignore[union-attr]
    litter.close()
    assert not box.exists()
    assert (outside / "keep" / "canary").read_text() == "still here"
    assert sweep_stale_boxes() is not None  # the sweep of a later run does not trip either
    again = hostile("litter", str(outside), log=tmp_path / "again.log")
    bots.append(again)
    result = play([again, *bots[1:3]], tmp_path / "two.jsonl", seed=6)
    assert all(seat.forfeit is None for seat in result.seats)


# ------------------------------------------------------------ property 3


def test_a_bot_cannot_redirect_the_referee_to_another_socket(tmp_path: Path, bots: list[BotProcess]) -> None:
    """At the end of a match the bot replaces its socket with a link to an
    accomplice outside any sandbox and shuts down its listener to force a
    reconnect. The referee connects only through the socket it claimed at
    start-up, out of the bot's reach: the accomplice is never contacted,
    and the bot's seat fails in the next match instead."""
    contact = tmp_path / "contacted.txt"
    accomplice_socket = tmp_path / "accomplice.sock"
    accomplice = subprocess.Popen([sys.executable, str(HOSTILE / "accomplice.py"), str(contact),
                                   "--socket", str(accomplice_socket)])
    try:
        deadline = time.monotonic() + 30
        while not accomplice_socket.exists():
            assert time.monotonic() < deadline and accomplice.poll() is None, "the accomplice did not start"
            time.sleep(0.05)
        redirect = hostile("redirect", str(accomplice_socket), log=tmp_path / "redirect.log")
        bots += [redirect, *start_bots([RANDOM, RANDOM], ["random-1", "random-2"])]
        first = play(bots, tmp_path / "one.jsonl")
        assert first.seats[0].forfeit is None
        wait_for_line(tmp_path / "redirect.log", "redirected")
        redirect.begin_match()
        second = play(bots, tmp_path / "two.jsonl", seed=6)
        assert second.seats[0].forfeit is not None  # its own listener is gone: its seat fails
        assert all(seat.forfeit is None and seat.strikes == 0 for seat in second.seats[1:])
        assert not contact.exists(), contact.read_text()
    finally:
        accomplice.kill()
        accomplice.wait()


# ------------------------------------------------------------ property 4


def test_two_bots_at_one_table_share_no_channel_but_the_protocol(tmp_path: Path, bots: list[BotProcess]) -> None:
    """Keyrings, byte-range locks on a file both can read, /dev/shm, an
    abstract socket, SysV shared memory: the sender's attempts fail or stay
    in its own namespaces, the receiver finds nothing, may not watch shared
    files, and kill(pid, 0) shows it only its own processes."""
    token = uuid.uuid4().hex[:12]
    sender = hostile("covert", "send", token, log=tmp_path / "send.log")
    receiver = hostile("covert", "receive", token, log=tmp_path / "receive.log")
    bots += [sender, receiver, *start_bots([RANDOM], ["random"])]
    play(bots, tmp_path / "match.jsonl", game="saboteur")
    sent = json.loads(wait_for_line(tmp_path / "send.log", '"sent"'))["sent"]
    seen = json.loads(wait_for_line(tmp_path / "receive.log", '"found"'))
    assert seen["found"] == []
    assert sent["keyring"] == "error: Operation not permitted"  # seccomp: no keyrings
    assert sent["lock"] == "error: No locks available"  # seccomp: no file locks
    assert seen["inotify"] == "error: Operation not permitted"
    assert seen["visible_pids"] < 16  # its own tree in its PID namespace, not the machine's processes


def test_the_machine_wide_counters_of_proc_are_masked(tmp_path: Path) -> None:
    """/proc belongs to the bot's PID namespace, but some of its files show
    the whole machine: another bot's threads (loadavg), CPU time (stat,
    uptime) and memory (meminfo) moved them, a channel of over 100 bits/s.
    The jail shows fixed stand-ins and empty files instead."""
    code = """
import json, os
read = lambda name: open("/proc/" + name).read()
print(json.dumps({"loadavg": read("loadavg"), "stat": read("stat"), "uptime": read("uptime"),
                  "meminfo": read("meminfo"), "vmstat": read("vmstat"), "file-nr": read("sys/fs/file-nr"),
                  "pressure": os.listdir("/proc/pressure"), "cpus": os.cpu_count()}))
"""
    proc = spawn([sys.executable, "-c", code], log_path=tmp_path / "bot.log")
    proc.wait(60)
    proc.kill_tree()
    seen = json.loads(proc.read_log())
    assert seen["loadavg"] == "0.00 0.00 0.00 1/1 1\n" and seen["uptime"] == "0.00 0.00\n"
    assert "processes 1\n" in seen["stat"] and "ctxt 0\n" in seen["stat"]
    assert seen["vmstat"] == seen["file-nr"] == "" and seen["pressure"] == []
    assert "MemFree:" in seen["meminfo"] and seen["cpus"] >= 1  # runtimes still find what they look for


# ------------------------------------------------------------ property 6


@pytest.mark.skipif(not CAPS.cgroup, reason="no writable cgroup hierarchy: CPU is shared per process here")
def test_a_cpu_hog_cannot_slow_its_opponents_into_timeouts(tmp_path: Path, bots: list[BotProcess]) -> None:
    """40 spinners, each in a session of its own, stopped while the hog
    decides and resumed while its opponents do: its tree gets one equal
    share, capped at one core, so the honest bots answer without a single
    strike at a 100 ms move time (before: median 22-98 ms and strikes)."""
    hog = hostile("hog", log=tmp_path / "hog.log")
    bots += [hog, *start_bots([RANDOM, RANDOM], ["random-1", "random-2"])]
    result = play(bots, tmp_path / "match.jsonl", time_control=TimeControl(move_time=0.1, grace=0.1))
    assert "spinners 40" in (tmp_path / "hog.log").read_text()
    assert all(seat.strikes == 0 and seat.forfeit is None for seat in result.seats[1:])
    record = read_record(tmp_path / "match.jsonl")
    times = [line["time"] for d in record.decisions for line in d["seats"] if line["seat"] != 0 and "time" in line]
    assert times and statistics.median(times) < 0.05  # wide margin: about 2 ms unloaded


def test_memory_is_limited_per_tree_not_per_process(tmp_path: Path) -> None:
    """Four processes of 200 MiB each stay under a 256 MiB per-process
    limit, but not under a 400 MiB limit for the tree: the kernel ends one
    of them, and the tree's peak stays at the limit."""
    if not CAPS.cgroup:
        pytest.skip("no writable cgroup hierarchy here")
    code = """
import os, time
children = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        block = bytearray(200 * 1024 * 1024)  # touched: resident
        time.sleep(5)
        os._exit(0)
    children.append(pid)
ends = [os.waitpid(pid, 0)[1] for pid in children]
print("killed", sum(1 for status in ends if os.WIFSIGNALED(status)), flush=True)
"""
    limits = Limits(memory_bytes=256 * 1024 * 1024, tree_memory_bytes=400 * 1024 * 1024)
    proc = spawn([sys.executable, "-c", code], log_path=tmp_path / "bot.log",
                 policy=SandboxPolicy(limits=limits))
    proc.wait(60)
    status = proc.kill_tree()
    killed = int(proc.read_log().split("killed")[-1].split()[0])
    assert killed >= 2  # at most one more 200 MiB block fits beside the first
    assert status.max_rss_bytes <= 400 * 1024 * 1024 + 16 * 1024 * 1024
