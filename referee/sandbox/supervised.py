"""A bot running in its sandbox, as the referee holds it.

`SandboxedProcess.start` launches the bot's supervisor (`supervisor.py`,
which starts the jail) and returns once the bot's program runs. From then
on the object owns the bot: its budgets (`renew`), its end (`terminate`,
`kill_tree`: everything it started dies with it, its folders and control
group go, its uid is freed), its log, and its socket (`claim_socket`).
"""

from __future__ import annotations

import logging
import marshal
import os
import select
import signal
import socket
import stat
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.sandbox import messages
from referee.sandbox.errors import ExitStatus, PeerCredentials, PeerMismatch, SpawnFailed
from referee.sandbox.logpipe import CappedLog, append_note, read_tail
from referee.sandbox.proctable import Table, proc_table
from referee.sandbox.registry import register

if TYPE_CHECKING:
    from referee.sandbox.sandbox import Sandbox

log = logging.getLogger(__name__)

SUPERVISOR = Path(__file__).with_name("supervisor.py")

START_TIMEOUT = 10.0
"""Seconds the bot's program may take to be running in its jail."""

KILL_TIMEOUT = 10.0
"""Seconds the supervisor may take to kill and reap a tree before the
referee kills what is left itself."""

CLAIMED_SOCKET = "bot.sock"


class SandboxedProcess:
    """A running (or finished) bot in its sandbox.

    `pid` is the bot's own pid (its supervisor's is `supervisor_pid`).
    Everything it started is killed with it; `kill_tree`/`close` also remove
    its folders and free its uid. Thread-safe.
    """

    def __init__(self, sandbox: Sandbox, supervisor: subprocess.Popen[bytes], pid: int,
                 status_fd: int, control_fd: int, log: CappedLog, pending: bytes = b"") -> None:
        self.sandbox = sandbox
        self.name = sandbox.name
        self.pid = pid
        self.supervisor_pid = supervisor.pid
        self.uid = sandbox.uid
        self.workdir = sandbox.workdir
        self.socket_dir = sandbox.socket_dir
        self.log_path = log.path
        self._supervisor = supervisor
        self._control_fd = control_fd
        self._log = log
        self._lock = threading.Lock()
        self._exited = threading.Event()
        self._status: ExitStatus | None = None
        self._killed = False
        self._reader = threading.Thread(target=self._read_status, args=(status_fd, pending),
                                        name=f"sandbox-status-{self.name}", daemon=True)
        self._reader.start()
        register(self)

    # ------------------------------------------------------------ start

    @classmethod
    def start(cls, sandbox: Sandbox, jail_argv: list[str], program: str, log_path: Path) -> SandboxedProcess:
        """Start the supervisor of `sandbox` with the jail's command line;
        return once `program` runs in the jail. Raises SpawnFailed."""
        status_r, status_w = os.pipe()
        control_r, control_w = os.pipe()
        log_r, log_w = os.pipe()
        config = _config(sandbox, jail_argv, status_w, control_r)
        # the locks go to the supervisor too: held until it has cleaned up
        keep = [status_w, control_r, sandbox._box_lock] + ([sandbox._lease.lock_fd] if sandbox._lease else [])
        try:
            supervisor = subprocess.Popen(
                [sys.executable, "-I", "-S", str(SUPERVISOR)], stdin=subprocess.PIPE, stdout=log_w,
                stderr=log_w, pass_fds=keep, start_new_session=True, close_fds=True, env={},
            )
        except BaseException:
            for fd in (status_r, status_w, control_r, control_w, log_r, log_w):
                os.close(fd)
            raise
        for fd in (status_w, control_r, log_w):
            os.close(fd)
        capped = CappedLog(log_r, log_path, sandbox.policy.limits.log_bytes, sandbox.name)
        try:
            assert supervisor.stdin is not None
            supervisor.stdin.write(marshal.dumps(config))
            supervisor.stdin.close()
        except BrokenPipeError:
            pass  # the supervisor died at once; the status read below says so
        first, rest = _read_first(status_r, START_TIMEOUT + 5.0)
        if first is None or first.get("event") != "started":
            os.close(control_w)
            os.close(status_r)
            _finish(supervisor)
            capped.join(1.0)
            sandbox.close()
            message = str(first.get("message")) if first else "the sandbox supervisor did not start"
            code = int(first.get("errno") or 0) if first else 0
            raise SpawnFailed(code, message if message.startswith(program) else f"{program}: {message}")
        return cls(sandbox, supervisor, int(first["pid"]), status_r, control_w, capped, rest)

    # ------------------------------------------------------------ state

    @property
    def returncode(self) -> int | None:
        """The bot's exit code (negative: killed by that signal), or None."""
        status = self.exit_status
        return None if status is None else status.returncode

    @property
    def exit_status(self) -> ExitStatus | None:
        """How it ended, once the supervisor has killed and reaped its tree."""
        return self._status if self._exited.is_set() else None

    @property
    def closed(self) -> bool:
        """True once the referee has killed it (its sandbox is then gone too)."""
        return self._killed

    def poll(self) -> int | None:
        """`returncode` without waiting."""
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        """Wait until the bot and its tree are gone. Raises TimeoutError."""
        if not self._exited.wait(timeout):
            raise TimeoutError(f"sandboxed bot {self.name} still running after {timeout} s")
        assert self._status is not None
        return self._status.returncode

    def read_log(self, limit: int = 64 * 1024) -> str:
        """The last `limit` bytes of the bot's log."""
        return read_tail(self.log_path, limit)

    def note(self, text: str) -> None:
        """Add the referee's `text` to the bot's log, as "[referee: text]"."""
        append_note(self.log_path, text)

    def renew(self) -> None:
        """Give a warm bot fresh budgets from now: `cpu_seconds` of CPU for
        its whole tree and `wall_seconds` of life. Call it at each match
        start, so the limits bound a match, not a ladder run."""
        if not self._exited.is_set():
            self._command(b"R")

    # ------------------------------------------------------------ ending

    def terminate(self, grace: float = 0.5) -> ExitStatus:
        """SIGTERM the bot (it is PID 1 of its namespace, so it gets the
        signal only if it handles it), then kill the tree after `grace`."""
        self._command(b"T")
        try:
            self.wait(grace)
        except TimeoutError:
            pass
        return self.kill_tree()

    def kill_tree(self) -> ExitStatus:
        """Kill the bot and everything it started, remove its folders and
        group, free its uid; verify that no process of it remains. Idempotent."""
        with self._lock:
            if not self._killed:
                self._killed = True
                self._command(b"K")
                try:
                    os.close(self._control_fd)
                except OSError:
                    pass
                self._exited.wait(KILL_TIMEOUT)
                _await_exit(self._supervisor.pid, KILL_TIMEOUT)
                self._reader.join(1.0)
                self._sweep()  # before the supervisor is reaped: its pid still names this tree
                _finish(self._supervisor)
                if self._status is None:
                    self._status = self._lost()
                    self._exited.set()
                self._log.join(KILL_TIMEOUT)
        self.sandbox.close()
        assert self._status is not None
        return self._status

    close = kill_tree

    def __enter__(self) -> SandboxedProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill_tree()

    def members(self) -> list[int]:
        """Pids of every live process of this sandbox (empty once it ended)."""
        table = proc_table()
        in_group = set(self.sandbox.group.pids()) if self.sandbox.group is not None else set()
        return [pid for pid, (_ppid, sid, owner) in table.items()
                if pid != self.supervisor_pid and (pid in in_group or sid == self.supervisor_pid
                                                   or (self.uid is not None and owner == self.uid)
                                                   or self._descends(pid, table))]

    def address_space_peak(self) -> int:
        """The largest address space (VmPeak, bytes) any live process of
        this sandbox has had: near the per-process limit (RLIMIT_AS) when an
        allocation failed. 0 once none is left."""
        return max((_vm_peak(pid) for pid in self.members()), default=0)

    def oom_kills(self) -> int:
        """How many of its processes the kernel's OOM killer ended for
        passing the tree's memory limit: so far while it runs, in the end
        once it has ended (its supervisor removes its group then)."""
        status = self.exit_status
        if status is None and self.sandbox.group is not None:
            counted = self.sandbox.group.oom_kills()
            if counted is not None:
                return counted
            try:  # its supervisor has just removed the group: the count comes with its exit report
                self.wait(KILL_TIMEOUT)
            except TimeoutError:
                return 0
            status = self.exit_status
        return status.oom_kills if status is not None else 0

    # ------------------------------------------------------------ peers

    def verify_peer(self, conn: socket.socket) -> PeerCredentials:
        """Check that the peer of a connected Unix socket is this bot (or a
        process of its tree); return its credentials. Raises PeerMismatch."""
        raw = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        creds = PeerCredentials(*struct.unpack("3i", raw))
        if self.uid is not None and creds.uid != self.uid:
            raise PeerMismatch(f"{self.name}: socket peer has uid {creds.uid}, expected {self.uid}")
        if not self._descends(creds.pid, proc_table()):
            raise PeerMismatch(f"{self.name}: socket peer pid {creds.pid} is not in the bot's process tree")
        return creds

    def verify_socket(self, path: Path, timeout: float = 1.0) -> PeerCredentials:
        """Check that `path` is a socket (not a link) in this bot's socket
        folder or claimed by the referee, owned by its uid, served by its
        process tree. Raises PeerMismatch."""
        try:
            info = os.lstat(path)
        except OSError as exc:
            raise PeerMismatch(f"{self.name}: no socket at {path}: {exc.strerror}") from None
        folders = {self.socket_dir.resolve(), self.sandbox.referee_dir.resolve()}
        if not stat.S_ISSOCK(info.st_mode) or Path(path).parent.resolve() not in folders:
            raise PeerMismatch(f"{self.name}: {path} is not a socket in the bot's socket folder")
        if self.uid is not None and info.st_uid != self.uid:
            raise PeerMismatch(f"{self.name}: {path} belongs to uid {info.st_uid}, expected {self.uid}")
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(timeout)
            try:
                conn.connect(str(path))
            except OSError as exc:
                raise PeerMismatch(f"{self.name}: cannot connect to {path}: {exc}") from None
            return self.verify_peer(conn)

    def claim_socket(self, path: Path, timeout: float = 5.0) -> Path:
        """Move the bot's socket out of its reach, verify it there, and
        return where the referee connects from now on.

        gRPC reconnects by path whenever a connection drops, so a path in
        the bot's own folder would let the bot redirect the referee later
        (a link to another process's socket, found after a forced
        reconnect). The socket is moved into the sandbox's referee folder,
        which is never bound into the jail: what is checked there is what
        the referee talks to for the bot's whole life. Moving first and
        checking after also leaves no moment between check and use.
        Raises PeerMismatch."""
        claimed = self.sandbox.referee_dir / CLAIMED_SOCKET
        try:
            os.rename(path, claimed)  # a link is moved as a link, and then refused below
        except OSError as exc:
            raise PeerMismatch(f"{self.name}: no socket at {path}: {exc.strerror}") from None
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.verify_socket(claimed)
                return claimed
            except PeerMismatch as exc:
                # bound a moment before it accepts: a refused connection is retried
                if "cannot connect" not in str(exc) or self.poll() is not None or time.monotonic() > deadline:
                    os.unlink(claimed)
                    raise
            time.sleep(0.002)

    def __repr__(self) -> str:
        return f"SandboxedProcess({self.name!r}, pid={self.pid}, returncode={self.returncode})"

    # ------------------------------------------------------------ internals

    def _descends(self, pid: int, table: Table) -> bool:
        seen = 0
        while pid in table and seen < 4096:
            if pid == self.supervisor_pid:
                return True
            pid = table[pid][0]
            seen += 1
        return False

    def _command(self, code: bytes) -> None:
        try:
            os.write(self._control_fd, code)
        except OSError:
            pass  # supervisor already gone or control closed: nothing to tell

    def _read_status(self, fd: int, buffer: bytes) -> None:
        try:
            while True:
                events, buffer = messages.unframe(buffer)
                for event in events:
                    if event.get("event") == "exited":
                        self._status = self._interpret(event)
                        self._exited.set()
                chunk = os.read(fd, 4096)
                if not chunk:
                    return
                buffer += chunk
        finally:
            os.close(fd)
            if self._status is None and not self._killed:
                # the supervisor died without a report: clean up ourselves
                self._sweep()
                self._status = self._lost()
                self._exited.set()

    def _interpret(self, event: Mapping[str, Any]) -> ExitStatus:
        code = int(event.get("returncode", 0))
        cpu = float(event.get("cpu_seconds", 0.0))
        reason = str(event.get("reason"))
        if reason == "exit" and code < 0:
            reason = "file_size_limit" if -code == signal.SIGXFSZ else "signal"
        return ExitStatus(returncode=code, reason=reason, cpu_seconds=cpu,
                          max_rss_bytes=int(event.get("max_rss_bytes", 0)),
                          log_truncated=self._log.truncated, oom_kills=int(event.get("oom_kills", 0)))

    def _lost(self) -> ExitStatus:
        code = self._supervisor.poll()
        return ExitStatus(returncode=code if code is not None else -signal.SIGKILL, reason="lost",
                          cpu_seconds=0.0, max_rss_bytes=0, log_truncated=self._log.truncated)

    def _sweep(self) -> None:
        """Backstop when the supervisor could not finish: kill what is left.
        Call it before the supervisor is reaped (see `_await_exit`)."""
        deadline = time.monotonic() + KILL_TIMEOUT
        while (left := self.members()) and time.monotonic() < deadline:
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            time.sleep(0.01)
        if left:
            log.error("sandbox %s: processes %s survived SIGKILL", self.name, left)


def _vm_peak(pid: int) -> int:
    """A process's peak address space in bytes (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmPeak:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _config(sandbox: Sandbox, jail_argv: list[str], status_fd: int, control_fd: int) -> dict[str, object]:
    limits = sandbox.policy.limits
    group = sandbox.group
    return {
        "jail_argv": jail_argv,
        "group": (group.version, list(group.folders), list(group.controllers)) if group is not None else None,
        "uid": sandbox.uid,
        "box_dir": str(sandbox.box_dir),
        "status_fd": status_fd,
        "control_fd": control_fd,
        "wall_seconds": limits.wall_seconds,
        "cpu_seconds": limits.cpu_seconds,
        "start_timeout": START_TIMEOUT,
    }


def _read_first(fd: int, timeout: float) -> tuple[dict[str, Any] | None, bytes]:
    """The supervisor's first message (None if it died or hung) and
    whatever followed it."""
    deadline = time.monotonic() + timeout
    buffer = b""
    while True:
        events, rest = messages.unframe(buffer)
        if events:
            return events[0], b"".join(messages.frame(e) for e in events[1:]) + rest
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            return None, b""
        chunk = os.read(fd, 4096)
        if not chunk:
            return None, b""
        buffer += chunk


def _await_exit(pid: int, timeout: float) -> None:
    """Wait until child `pid` has ended, without reaping it (its pid stays
    reserved, so the sweep cannot mistake a newcomer for a member)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None:
                return
        except ChildProcessError:
            return  # already reaped
        time.sleep(0.005)


def _finish(supervisor: subprocess.Popen[bytes]) -> None:
    """Wait for the supervisor; kill it if it hangs (it never should)."""
    try:
        supervisor.wait(KILL_TIMEOUT)
    except subprocess.TimeoutExpired:
        supervisor.kill()
        supervisor.wait()
