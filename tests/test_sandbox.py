"""The sandbox's own contract (issue 6): private folders, scrubbed
environment, closed stdin, capped log, limits, peer checks, clean ending —
also when the referee itself is killed.

The hostile programs of issue 6 are in test_sandbox_hostile.py. After every
test nothing of any sandbox may remain (`leftovers()`).
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from referee.process import BotProcess
from referee.protocol.client import BotStartFailed
from referee.sandbox import (
    Limits,
    PeerMismatch,
    Sandbox,
    SandboxError,
    SandboxPolicy,
    SandboxUnavailable,
    SpawnFailed,
    capabilities,
    leftovers,
    spawn,
    sweep_stale_boxes,
)

HOSTILE = Path(__file__).parent / "hostile"
PY = sys.executable
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


def run(code: str, tmp_path: Path, policy: SandboxPolicy | None = None, **env: str) -> tuple[int, str]:
    """Run a Python snippet in a sandbox to the end; its exit code and log."""
    proc = spawn([PY, "-c", textwrap.dedent(code)], log_path=tmp_path / "bot.log", policy=policy, env=env)
    with proc:
        code_ = proc.wait(60)
        return code_, proc.read_log()


def wait_for(predicate, timeout: float = 30.0) -> bool:  # type: ignore[no-untyped-def]
    """Poll `predicate` until true or `timeout` (a bound on waiting, not a speed check)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return predicate()


def test_capabilities_are_probed_and_reported() -> None:
    caps = capabilities()
    assert caps is capabilities()  # probed once
    assert caps.root == (os.geteuid() == 0)
    assert set(caps.as_dict()) >= {"jail", "switch_user", "cgroup", "pidfd"}
    assert all(name in caps.as_dict() for name in caps.missing())
    assert caps.summary().startswith("sandbox: ")


def test_environment_is_scrubbed_and_stdin_closed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LADDER_DB_PASSWORD", "hunter2")
    code, out = run("""
        import json, os, sys
        print(json.dumps({"env": dict(os.environ), "stdin": sys.stdin.read(), "cwd": os.getcwd(),
                          "files": os.listdir(".")}))
    """, tmp_path, REFEREE_BOT_SOCKET="/x/bot.sock")
    assert code == 0
    seen = json.loads(out)
    assert set(seen["env"]) == {"PATH", "HOME", "TMPDIR", "LANG", "REFEREE_BOT_SOCKET"}
    assert seen["env"]["HOME"] == seen["cwd"] == seen["env"]["TMPDIR"]
    assert seen["stdin"] == ""
    assert seen["files"] == []  # a private, empty working folder


def test_folders_are_private_and_removed(tmp_path: Path) -> None:
    with Sandbox("private") as box:
        proc = box.spawn([PY, "-c", "open('f', 'w').write('x'); import time; time.sleep(60)"],
                         log_path=tmp_path / "bot.log")
        assert wait_for(lambda: (box.workdir / "f").exists())
        for folder in (box.workdir, box.socket_dir):
            info = folder.stat()
            assert info.st_mode & 0o077 == 0  # nobody but the bot's user (and root)
            assert info.st_uid == (box.uid if box.uid is not None else os.geteuid())
        proc.kill_tree()
        assert not box.workdir.exists() and not box.box_dir.exists()


def test_bot_runs_as_its_own_user_when_root(tmp_path: Path) -> None:
    with Sandbox("user") as box:
        proc = box.spawn([PY, "-c", "import os; print(os.getuid(), os.getgid(), os.getgroups())"],
                         log_path=tmp_path / "bot.log")
        proc.wait(30)
        uid, gid, groups = proc.read_log().split(maxsplit=2)
        if CAPS.root and CAPS.switch_user:
            assert box.uid is not None and int(uid) == box.uid != 0
            assert int(gid) == box.uid and groups.strip() == "[]"
        else:
            assert box.uid is None and int(uid) == os.getuid()


def test_protections_are_recorded() -> None:
    with Sandbox("record") as box:
        seen = box.protections()
    assert seen["jail"] == "nsjail" and seen["seccomp"] is True
    assert set(seen["namespaces"]) == {"pid", "mount", "ipc", "uts", "cgroup", "network"}
    assert seen["cgroup"] == (CAPS.cgroup or None)
    assert (seen["own_uid"] is not None) == OWN_USER
    assert set(seen["unavailable"]) == {"switch_user", "cgroup"} & set(CAPS.missing())
    assert seen["limits"]["max_processes"] == Limits().max_processes


def test_two_sandboxes_get_different_users() -> None:
    with Sandbox("a") as one, Sandbox("b") as two:
        if CAPS.root and CAPS.switch_user:
            assert one.uid != two.uid
        else:
            assert one.uid is None and two.uid is None


def test_log_is_capped_and_marked(tmp_path: Path) -> None:
    policy = SandboxPolicy(limits=Limits(log_bytes=1000))
    proc = spawn([PY, "-c", "print('y' * 5000, flush=True); import sys; print('tail', file=sys.stderr)"],
                 log_path=tmp_path / "bot.log", policy=policy)
    proc.wait(30)
    status = proc.kill_tree()
    text = (tmp_path / "bot.log").read_text()
    assert text.startswith("y" * 1000) and "truncated at 1000 bytes" in text
    assert "tail" not in text
    assert status.log_truncated and status.returncode == 0


def test_missing_executable_is_a_spawn_failure(tmp_path: Path) -> None:
    with pytest.raises(SpawnFailed) as info:
        spawn(["/nonexistent/bot"], log_path=tmp_path / "bot.log")
    assert isinstance(info.value, OSError) and info.value.errno == errno.ENOENT


def test_exit_code_and_signal_are_reported(tmp_path: Path) -> None:
    proc = spawn([PY, "-c", "import sys; sys.exit(3)"], log_path=tmp_path / "a.log")
    assert proc.wait(30) == 3 and proc.kill_tree().reason == "exit"
    # a real fault: the bot is PID 1 of its namespace, which ignores a
    # signal it sends itself without a handler
    proc = spawn([PY, "-c", "import ctypes; ctypes.string_at(0)"], log_path=tmp_path / "b.log")
    proc.wait(30)
    status = proc.kill_tree()
    assert status.returncode == -signal.SIGSEGV and status.reason == "signal"
    assert status.describe() == "killed by SIGSEGV"


def test_file_size_and_open_files_limits(tmp_path: Path) -> None:
    limits = Limits(file_size_bytes=1024 * 1024, open_files=32)
    code, out = run("""
        import errno
        try:
            open("big", "wb").write(b"x" * (2 * 1024 * 1024))
        except OSError as exc:
            print("write:", errno.errorcode[exc.errno])
        files = []
        try:
            while True:
                files.append(open("/dev/null"))
        except OSError as exc:
            print("open:", errno.errorcode[exc.errno], len(files) < 32)
    """, tmp_path, SandboxPolicy(limits=limits))
    assert "write: EFBIG" in out and "open: EMFILE True" in out


def test_peer_is_verified(tmp_path: Path) -> None:
    with Sandbox("one") as one, Sandbox("two") as two:
        procs = []
        for box in (one, two):
            procs.append(box.spawn([PY, str(HOSTILE / "victim.py"), str(box.socket_path())],
                                   log_path=tmp_path / f"{box.name}.log", expose=[HOSTILE]))
        assert wait_for(lambda: all(b.socket_path().exists() for b in (one, two)))
        creds = procs[0].verify_socket(one.socket_path())
        assert creds.pid in procs[0].members()
        with pytest.raises(PeerMismatch):
            procs[0].verify_socket(two.socket_path())  # another bot's socket
        # a socket served by someone else (here: the test itself)
        path = tmp_path / "impostor.sock"
        with socket.socket(socket.AF_UNIX) as server, socket.socket(socket.AF_UNIX) as client:
            server.bind(str(path))
            server.listen(1)
            client.connect(str(path))
            with pytest.raises(PeerMismatch):
                procs[0].verify_peer(client)


def test_terminate_lets_a_polite_bot_exit(tmp_path: Path) -> None:
    proc = spawn([PY, "-c", "import os, signal, time\n"
                  "signal.signal(signal.SIGTERM, lambda *a: (os.write(1, b'bye'), os._exit(0)))\n"
                  "os.write(1, b'ready')\ntime.sleep(60)"], log_path=tmp_path / "bot.log")
    assert wait_for(lambda: "ready" in proc.read_log())
    status = proc.terminate(grace=10)
    assert status.returncode == 0 and status.reason == "killed" and "bye" in proc.read_log(), proc.read_log()


def test_strict_policy_refuses_what_the_machine_lacks(tmp_path: Path) -> None:
    strict = SandboxPolicy(strict=True)
    if CAPS.missing():
        with pytest.raises(SandboxUnavailable):
            spawn([PY, "-c", "pass"], log_path=tmp_path / "bot.log", policy=strict)
    else:
        proc = spawn([PY, "-c", "pass"], log_path=tmp_path / "bot.log", policy=strict)
        assert proc.wait(30) == 0
        proc.kill_tree()


NON_ROOT_SCRIPT = """
import json, sys
from pathlib import Path
from referee.sandbox import SandboxPolicy, SandboxUnavailable, capabilities, spawn
log = Path(sys.argv[1])
caps = capabilities()
try:
    spawn(["/bin/true"], log_path=log, policy=SandboxPolicy(strict=True))
    strict = "ran"
except SandboxUnavailable as exc:
    strict = "refused"
proc = spawn([sys.executable, "-c", "import os, socket; s = socket.socket();"
              "print(os.getuid(), s.connect_ex(('127.0.0.1', 9)))"], log_path=log)
proc.wait(30)
proc.kill_tree()
print(json.dumps({"caps": caps.as_dict(), "strict": strict, "bot": proc.read_log().split()}))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to become an ordinary user for the test")
def test_without_root_the_referee_degrades_and_says_so() -> None:
    """The referee as an ordinary user: no own uid for bots and no control
    groups (refused under strict), the jail through a user namespace if the
    kernel allows it — recorded in the capabilities."""
    user = 62999  # outside the sandbox range
    # Our interpreter may live in a folder an ordinary user cannot enter
    # (pyenv under /root here); the system's Python of the same version can
    # use our installed packages instead.
    system_python = shutil.which("python3", path="/usr/bin:/bin")
    assert system_python is not None
    packages = [str(Path(__file__).parents[1]), *(p for p in sys.path if p.endswith("site-packages"))]
    closed = [p for p in packages if not _open_to_others(Path(p))]
    if closed:  # a precondition of the machine, not of the code: say which
        pytest.skip(f"an ordinary user cannot enter {closed[0]} (a folder above it is closed to others), "
                    "so it cannot import the referee from this checkout")
    with tempfile.TemporaryDirectory(prefix="sandbox-nonroot-") as home:
        os.chown(home, user, user)
        out = subprocess.run(
            ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", system_python, "-c",
             NON_ROOT_SCRIPT, str(Path(home) / "bot.log")],
            capture_output=True, text=True, timeout=120, cwd=home,
            env={"PATH": os.environ["PATH"], "HOME": home, "PYTHONPATH": os.pathsep.join(packages)},
        )
    assert out.returncode == 0, out.stderr
    assert "not available on this machine" in out.stderr  # said once, clearly
    seen = json.loads(out.stdout)
    assert seen["caps"]["root"] is False and seen["caps"]["switch_user"] is False
    assert seen["strict"] == "refused"
    uid, connect = seen["bot"][-2:]
    assert int(uid) == user
    assert seen["caps"]["jail"] and int(connect) == errno.ENETUNREACH


def _open_to_others(path: Path) -> bool:
    """Whether every folder down to `path` lets other users pass (o+x)."""
    return all(folder.stat().st_mode & 0o001 for folder in [path, *path.parents] if folder.is_dir())


REFEREE_SCRIPT = """
import sys, time
from pathlib import Path
from referee.sandbox import spawn
proc = spawn([sys.executable, sys.argv[1]], log_path=Path(sys.argv[2]), name="orphan-test",
             expose=[Path(sys.argv[1]).parent])
while "grandchild" not in proc.read_log():
    time.sleep(0.01)
print(proc.supervisor_pid, proc.sandbox.box_dir, *proc.members(), flush=True)
time.sleep(600)
"""


def test_killing_the_referee_kills_every_bot_process(tmp_path: Path) -> None:
    """Even SIGKILL of the referee leaves no process and no folder behind."""
    referee = subprocess.Popen([PY, "-c", REFEREE_SCRIPT, str(HOSTILE / "escape_and_stay.py"),
                                str(tmp_path / "bot.log")], stdout=subprocess.PIPE, text=True)
    assert referee.stdout is not None
    supervisor_pid, box_dir, *members = referee.stdout.readline().split()
    tree = [int(supervisor_pid), *map(int, members)]  # the bot, its grandchild, nsjail
    assert len(tree) >= 4 and all(_alive(pid) for pid in tree)
    referee.kill()
    referee.wait()
    assert wait_for(lambda: not any(_alive(pid) for pid in tree))
    assert wait_for(lambda: not Path(box_dir).exists())


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_exposed_bot_folder_is_readable_but_not_writable(tmp_path: Path) -> None:
    """A bot kept in a closed folder (like the ladder's store, here under
    pytest's 0700 temporary folder and the bot's private /tmp) runs from it
    when the folder is exposed, and cannot change it."""
    folder = tmp_path / "store" / "bot-1"
    folder.mkdir(parents=True)
    (folder / "helper.py").write_text("WORD = 'imported'\n")
    (folder / "bot.py").write_text(textwrap.dedent("""
        import sys
        sys.path.insert(0, sys.argv[1])
        import helper
        try:
            open(sys.argv[1] + "/mine.txt", "w")
            print(helper.WORD, "wrote")
        except OSError as exc:
            print(helper.WORD, "read-only", exc.strerror)
    """))
    proc = spawn([PY, str(folder / "bot.py"), str(folder)], log_path=tmp_path / "a.log", expose=[folder])
    assert proc.wait(30) == 0 and proc.read_log().startswith("imported read-only")
    proc.kill_tree()
    assert not (folder / "mine.txt").exists()
    # without exposure the bot cannot even find its code: the jail's root holds nothing of it
    proc = spawn([PY, str(folder / "bot.py"), str(folder)], log_path=tmp_path / "b.log")
    assert proc.wait(30) == 2 and "No such file" in proc.read_log()
    proc.kill_tree()


def test_the_jail_root_is_read_only_and_holds_only_what_a_bot_needs(tmp_path: Path) -> None:
    """The root is nsjail's empty tmpfs with the system's programs and
    libraries, a few files of /etc and the exposed code bound in read-only:
    no /home, /root, /var, /run or /srv, no secrets of /etc, no writable
    place but the bot's own folders and private tmpfs."""
    code, out = run("""
        import json, os
        def writable(path):
            try:
                with open(os.path.join(path, "probe"), "w"):
                    return True
            except OSError:
                return False
        print(json.dumps({"root": sorted(os.listdir("/")), "etc": sorted(os.listdir("/etc")),
                          "writable": [p for p in ("/", "/usr", "/etc", "/tmp", "/dev/shm", ".") if writable(p)]}))
    """, tmp_path)
    assert code == 0, out
    seen = json.loads(out)
    assert not {"home", "root", "var", "run", "srv", "opt", "mnt"} & set(seen["root"]) - {
        Path(p).parts[1] for p in (sys.prefix, sys.base_prefix, str(tmp_path))}
    assert "shadow" not in seen["etc"] and "passwd" in seen["etc"]
    assert set(seen["writable"]) == {"/tmp", "/dev/shm", "."}


def test_a_sandbox_runs_one_process(tmp_path: Path) -> None:
    with Sandbox("once") as box:
        box.spawn(["/bin/true"], log_path=tmp_path / "bot.log").wait(30)
        with pytest.raises(SandboxError):
            box.spawn(["/bin/true"], log_path=tmp_path / "bot.log")


def test_folders_of_a_referee_killed_before_its_supervisor_are_swept(tmp_path: Path) -> None:
    """A referee SIGKILLed between preparing a sandbox and starting its
    supervisor leaves a folder nobody holds; the next sandbox removes it,
    and never one that is still held."""
    stale = tmp_path / "referee-box-stale-x"
    (stale / "work").mkdir(parents=True)
    (stale / ".lock").touch()
    with Sandbox("live", base_dir=tmp_path) as live:
        assert not stale.exists()
        assert sweep_stale_boxes(tmp_path) == []  # the live one is held
        assert live.workdir.exists()


def test_a_sweep_racing_sandbox_creation_never_removes_a_live_folder(tmp_path: Path) -> None:
    """Every new sandbox sweeps the folders of other referees' sandboxes; one
    still being prepared (its lock file not yet held) must not be taken for
    abandoned. Creation and sweeping race here in two threads."""
    stop = threading.Event()

    def sweep_until_stopped() -> None:
        while not stop.is_set():
            sweep_stale_boxes(tmp_path)

    sweeper = threading.Thread(target=sweep_until_stopped)
    sweeper.start()
    try:
        for index in range(200):
            with Sandbox(f"race{index}", policy=SandboxPolicy(run_as="self"), base_dir=tmp_path) as box:
                assert box.workdir.is_dir() and box.socket_dir.is_dir()
    finally:
        stop.set()
        sweeper.join()


def bot_in_a_closed_folder(tmp_path: Path, mode: int) -> Path:
    """A random bot script of file mode `mode` in its own folder, inside a
    folder only root may enter (like a checkout under /root)."""
    closed = tmp_path / "closed"
    closed.mkdir(mode=0o700)
    (closed / "bot").mkdir(mode=0o755)
    script = closed / "bot" / "bot.py"
    script.write_text(f"#!{PY}\nimport runpy\nrunpy.run_module('bots.random', run_name='__main__')\n")
    script.chmod(mode)
    return script


def test_a_bot_in_a_closed_folder_runs_under_its_own_uid(tmp_path: Path) -> None:
    """The referee exposes the program's folder to the bot's sandbox: no
    need to run it as the referee's user, nor to open the folder above."""
    with BotProcess.start([str(bot_in_a_closed_folder(tmp_path, 0o755))], label="closed") as bot:
        assert bot.info.name == "random"
        assert (bot.protections()["own_uid"] is not None) == OWN_USER


@pytest.mark.skipif(not OWN_USER, reason="bots run as the referee's user here: any program it may run starts")
def test_a_program_its_own_uid_may_not_execute_is_refused_not_run_as_the_referee(tmp_path: Path) -> None:
    script = bot_in_a_closed_folder(tmp_path, 0o700)
    with pytest.raises(BotStartFailed, match=r"own user \(uid \d+\) may not execute it: .*chmod a\+rx"):
        BotProcess.start([str(script)], label="private")
    with BotProcess.start([str(script)], label="trusted", policy=SandboxPolicy(run_as="self")) as bot:
        assert bot.protections()["own_uid"] is None  # only when the policy says so
