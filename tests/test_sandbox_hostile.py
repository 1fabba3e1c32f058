"""Hostile bots against the sandbox alone (issue 6): each one is a small real
program in tests/hostile/. For each: it is contained or killed, the reason
is observable (exit status, limit reason, its log), and afterwards nothing
of it remains (no process, no folder, no file: `leftovers()` after every
test). Where a protection depends on the machine, the test checks the
protection when `capabilities()` says it is there, and that the lack is
reported when it is not.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from referee.sandbox import (
    Limits,
    MiB,
    Sandbox,
    SandboxPolicy,
    capabilities,
    leftovers,
    spawn,
)
from referee.sandbox.logpipe import TRUNCATED
from sandbox_support import host_pid

HOSTILE = Path(__file__).parent / "hostile"
PY = os.environ.get("SANDBOX_TEST_PYTHON") or __import__("sys").executable
CAPS = capabilities()
OWN_USER = CAPS.root and CAPS.switch_user


@pytest.fixture(autouse=True)
def nothing_remains() -> Iterator[None]:
    """No orphans, ever: no process and no folder of a sandbox outlives a
    test, and the test leaves no child of its own (children of other
    modules' fixtures, sharing this worker, may live on)."""
    before = {child.pid for child in psutil.Process().children(recursive=True)}
    yield
    assert not leftovers()
    assert [c for c in psutil.Process().children(recursive=True) if c.pid not in before] == []


def hostile(name: str, tmp_path: Path, limits: Limits | None = None, *args: str,
            policy: SandboxPolicy | None = None):  # type: ignore[no-untyped-def]
    policy = policy or SandboxPolicy(limits=limits or Limits())
    return spawn([PY, str(HOSTILE / f"{name}.py"), *args], log_path=tmp_path / f"{name}.log",
                 policy=policy, name=name, expose=[HOSTILE])


def wait_for(predicate, timeout: float = 60.0) -> bool:  # type: ignore[no-untyped-def]
    """Poll `predicate` until true or `timeout` (a bound on waiting, not a speed check)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_fork_bomb_hits_the_process_limit_and_dies_whole(tmp_path: Path) -> None:
    proc = hostile("fork_bomb", tmp_path, Limits(max_processes=32))
    assert wait_for(lambda: "fork refused" in proc.read_log())  # the limit was hit
    if OWN_USER:
        assert len(proc.members()) <= 32
    status = proc.kill_tree()
    assert status.reason == "killed" and status.returncode == -signal.SIGKILL
    assert proc.members() == []


def test_memory_hog_hits_the_memory_limit(tmp_path: Path) -> None:
    proc = hostile("memory_hog", tmp_path, Limits(memory_bytes=256 * MiB))
    code = proc.wait(60)
    status = proc.kill_tree()
    assert code == 1 and status.reason == "exit"
    assert "MemoryError" in proc.read_log()
    assert status.max_rss_bytes < 256 * MiB


@pytest.mark.slow
def test_busy_loop_is_stopped_by_the_cpu_limit(tmp_path: Path) -> None:
    proc = hostile("busy_loop", tmp_path, Limits(cpu_seconds=1))
    proc.wait(120)
    status = proc.kill_tree()
    assert status.reason == "cpu_limit" and status.returncode == -signal.SIGKILL
    assert status.cpu_seconds >= 1.0
    assert "CPU time limit" in status.describe()


@pytest.mark.slow
def test_cpu_limit_counts_the_whole_tree(tmp_path: Path) -> None:
    """Four spinning processes share one budget: the tree is stopped when
    their CPU time together reaches it."""
    proc = spawn([PY, "-c", "import os\nfor _ in range(2): os.fork()\nwhile True: pass"],
                 log_path=tmp_path / "bot.log", policy=SandboxPolicy(limits=Limits(cpu_seconds=2)))
    proc.wait(120)
    status = proc.kill_tree()
    assert status.reason == "cpu_limit" and 2.0 <= status.cpu_seconds < 4.0  # the tree's total, checked each second


def test_busy_loop_is_stopped_by_the_wall_clock(tmp_path: Path) -> None:
    proc = hostile("busy_loop", tmp_path, Limits(wall_seconds=1.0, cpu_seconds=None))
    proc.wait(120)
    status = proc.kill_tree()
    assert status.reason == "wall_limit" and status.returncode == -signal.SIGKILL


def test_busy_loop_ignoring_sigterm_is_killed_on_forfeit(tmp_path: Path) -> None:
    proc = hostile("busy_loop", tmp_path)
    assert wait_for(lambda: "spinning" in proc.read_log())
    status = proc.terminate(grace=0.2)
    assert status.reason == "killed" and status.returncode == -signal.SIGKILL


def test_child_left_behind_is_killed_when_the_bot_exits(tmp_path: Path) -> None:
    proc = hostile("spawn_and_exit", tmp_path)
    assert proc.wait(60) == 0
    assert "grandchild" in proc.read_log()
    assert proc.members() == []  # the bot was PID 1 of its namespace: its end ended everyone in it
    assert proc.kill_tree().reason == "exit"


def test_escaped_grandchild_is_killed_with_the_tree(tmp_path: Path) -> None:
    proc = hostile("escape_and_stay", tmp_path)
    assert wait_for(lambda: "grandchild" in proc.read_log())
    grandchild = host_pid(proc, int(proc.read_log().split()[-1]))  # outside the bot's session, still counted
    proc.kill_tree()
    assert not psutil.pid_exists(grandchild)


@pytest.fixture
def local_server() -> Iterator[int]:
    """A TCP port on localhost that accepts connections (the referee's side)."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        yield server.getsockname()[1]


def test_network_is_unreachable_even_localhost(tmp_path: Path, local_server: int) -> None:
    proc = hostile("network", tmp_path, None, str(local_server))
    assert proc.wait(60) == 0
    seen = json.loads(proc.read_log())
    proc.kill_tree()
    if CAPS.jail:
        assert all(result.startswith("failed") for result in seen.values()), seen
    else:
        assert "network_namespace" in CAPS.missing()  # said so, and recorded
        assert seen["localhost"] == "connected"


def test_network_probe_can_tell_a_connection(tmp_path: Path, local_server: int) -> None:
    """The control for the test above: without isolation, localhost connects."""
    proc = hostile("network", tmp_path, None, str(local_server), policy=SandboxPolicy(isolate_network=False))
    assert proc.wait(60) == 0
    assert json.loads(proc.read_log())["localhost"] == "connected"
    proc.kill_tree()


@pytest.fixture
def referee_secret() -> Iterator[Path]:
    """A file only the referee's user may read, in a folder anyone may enter
    (so only the file's own mode protects it), like a ladder database."""
    folder = Path(tempfile.mkdtemp(prefix="sandbox-secret-"))
    folder.chmod(0o755)
    secret = folder / "ladder.sqlite"
    secret.write_text("all the ratings")
    secret.chmod(0o600)
    yield secret
    secret.unlink()
    folder.rmdir()


def test_snooping_on_the_referee_and_another_bot_fails(tmp_path: Path, referee_secret: Path) -> None:
    with Sandbox("victim") as victim_box:
        victim = victim_box.spawn([PY, str(HOSTILE / "victim.py"), str(victim_box.socket_path())],
                                  log_path=tmp_path / "victim.log", expose=[HOSTILE])
        assert wait_for(lambda: "listening" in victim.read_log())
        snoop = hostile("snoop", tmp_path, None, str(referee_secret), str(victim_box.workdir),
                        str(victim_box.socket_path()), str(os.getpid()))
        assert snoop.wait(60) == 0
        seen = json.loads(snoop.read_log())
        snoop.kill_tree()
        assert victim.poll() is None  # the victim plays on
    if OWN_USER:
        assert all(result.startswith("denied") for result in seen.values()), seen
    else:
        assert "switch_user" in CAPS.missing()  # said so, and recorded
        assert seen["secret_file"] == "got: 'all the ratings'"


def test_gigabyte_on_stdout_is_capped_without_blocking(tmp_path: Path) -> None:
    cap = 1 * MiB
    before = psutil.Process().memory_info().rss
    proc = hostile("flood_stdout", tmp_path, Limits(log_bytes=cap))
    assert proc.wait(300) == 0  # it wrote its gigabyte and exited: never blocked
    status = proc.kill_tree()
    size = (tmp_path / "flood_stdout.log").stat().st_size
    assert status.log_truncated
    assert size <= cap + len(TRUNCATED.format(cap=cap))
    assert proc.read_log(200).endswith("further output discarded]\n")
    assert psutil.Process().memory_info().rss - before < 64 * MiB  # the referee stayed small


def test_losing_the_supervisor_still_kills_everything(tmp_path: Path) -> None:
    """If the supervisor itself is killed (say, by the kernel's OOM killer),
    the bot dies with it (PR_SET_PDEATHSIG) and the referee sweeps up the
    rest of the tree: the status says "lost"."""
    proc = hostile("escape_and_stay", tmp_path)
    assert wait_for(lambda: "grandchild" in proc.read_log())
    grandchild = host_pid(proc, int(proc.read_log().split()[-1]))
    os.kill(proc.supervisor_pid, signal.SIGKILL)
    proc.wait(60)
    status = proc.kill_tree()
    assert status.reason == "lost"
    assert not psutil.pid_exists(grandchild) or psutil.Process(grandchild).status() == psutil.STATUS_ZOMBIE


@pytest.mark.slow
def test_renew_turns_the_limits_into_per_match_budgets(tmp_path: Path) -> None:
    """A warm bot gets fresh CPU and wall budgets at each match start."""
    proc = hostile("busy_loop", tmp_path, Limits(cpu_seconds=1))
    assert wait_for(lambda: _cpu(proc.pid) >= 0.5)
    proc.renew()  # a new match: one more CPU second from now
    proc.wait(120)
    status = proc.kill_tree()
    assert status.reason == "cpu_limit" and status.cpu_seconds >= 1.5

    sleeper = spawn([PY, "-c", "import time; time.sleep(600)"], log_path=tmp_path / "sleeper.log",
                    policy=SandboxPolicy(limits=Limits(wall_seconds=2.0)))
    started = time.monotonic()
    while time.monotonic() - started < 3.0:  # twice its wall budget, renewed as matches start
        sleeper.renew()
        time.sleep(0.2)
    assert sleeper.poll() is None
    sleeper.wait(60)  # no more matches: the watchdog ends it
    assert sleeper.kill_tree().reason == "wall_limit"


def _cpu(pid: int) -> float:
    try:
        times = psutil.Process(pid).cpu_times()
    except psutil.Error:
        return 0.0
    return times.user + times.system
