"""Sandboxes: a private folder and user for one bot, and the contained process.

`Sandbox` prepares the place (folders, uid) so the caller can tell the bot
where its socket goes before it starts; `Sandbox.spawn` starts the bot under
its supervisor (`_shim.py`) and returns the `SandboxedProcess` that owns
everything from then on. `spawn()` does both in one call.
"""

from __future__ import annotations

import atexit
import fcntl
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
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.sandbox import _shim
from referee.sandbox.capabilities import SHIM, capabilities, warn_missing, warn_once
from referee.sandbox.logpipe import CappedLog, read_tail
from referee.sandbox.policy import SandboxPolicy
from referee.sandbox.users import UidLease, lease_uid, resolve_user, uid_leased

log = logging.getLogger(__name__)

START_TIMEOUT = 10.0
"""Seconds the supervisor may take to report that the bot was exec'd."""

KILL_TIMEOUT = 10.0
"""Seconds the supervisor may take to kill and reap a tree before the
referee kills what is left itself."""


class SandboxError(Exception):
    """Base of the sandbox's own errors."""


class SpawnFailed(SandboxError, OSError):
    """The bot could not be started (e.g. its executable is missing); an
    OSError with the errno of the failed exec, so callers that catch OSError
    around process creation keep working."""


class SandboxUnavailable(SandboxError):
    """`strict` policy: a requested protection is not available here."""


class PeerMismatch(SandboxError):
    """The process at the other end of a socket is not the sandboxed bot."""


@dataclass(frozen=True)
class ExitStatus:
    """How a sandboxed bot ended.

    `reason` is a stable code: "exit" (it exited by itself), "signal" (a
    signal it did not get from us, e.g. SIGSEGV), "cpu_limit" (its tree's
    CPU budget, enforced by the supervisor), "file_size_limit",
    "wall_limit" (the watchdog), "killed" (the referee ended it), "lost" (its
    supervisor vanished; the referee cleaned up itself). A memory hog ends
    with "exit" or "signal" and a MemoryError (or the C equivalent) in its log.
    """

    returncode: int
    reason: str
    cpu_seconds: float
    max_rss_bytes: int
    log_truncated: bool

    def describe(self) -> str:
        """One line for a record or a forfeit message."""
        how = _describe_code(self.returncode)
        notes = {
            "cpu_limit": "CPU time limit reached",
            "file_size_limit": "file size limit reached",
            "wall_limit": "wall-clock limit reached",
            "killed": "killed by the referee",
            "lost": "supervisor lost",
        }
        note = notes.get(self.reason)
        return f"{how} ({note})" if note else how


@dataclass(frozen=True)
class PeerCredentials:
    """Who is at the other end of a Unix socket (SO_PEERCRED)."""

    pid: int
    uid: int
    gid: int


class Sandbox:
    """A private place for one bot: an empty working folder and a socket
    folder (both readable by the bot's user and root only), and, when the
    referee is root, a uid of its own. Use `spawn` once to start the bot;
    `close` ends everything (also as a context manager).
    """

    def __init__(self, name: str = "bot", policy: SandboxPolicy | None = None,
                 base_dir: Path | None = None) -> None:
        self.name = name
        self.policy = policy or SandboxPolicy()
        self.caps = capabilities(self.policy.uid_range[0])
        self._lease: UidLease | None = None
        self.unavailable: list[str] = []
        """Protections the policy asked for that this machine could not give."""
        self.uid: int | None = self._choose_user()
        try:
            self.isolate_network = self._wanted("network_namespace", self.policy.isolate_network,
                                                "bots can open network connections")
            self.private_mounts = self._wanted("private_mounts", self.policy.private_mounts,
                                               "bots can read other processes' command lines in /proc "
                                               "and share files in /tmp")
            sweep_stale_boxes(base_dir)
            self.box_dir = Path(tempfile.mkdtemp(prefix=f"{BOX_PREFIX}{_safe(name)}-", dir=base_dir))
            self._box_lock = _hold(self.box_dir / ".lock")
        except BaseException:
            if self._lease is not None:
                self._lease.release()
            raise
        self.workdir = self.box_dir / "work"
        self.socket_dir = self.box_dir / "sock"
        self.process: SandboxedProcess | None = None
        self.exposed: list[list[str]] = []
        self._closed = False
        try:
            for folder in (self.workdir, self.socket_dir):
                folder.mkdir(mode=0o700)
                if self.uid is not None:
                    os.chown(folder, self.uid, self.uid)
            if self.uid is not None:
                os.chmod(self.box_dir, 0o711)  # the bot may pass through, not list
        except BaseException:
            self.close()
            raise

    def socket_path(self, filename: str = "bot.sock") -> Path:
        """Where the bot should create its listening socket."""
        return self.socket_dir / filename

    def protections(self) -> dict[str, Any]:
        """What this sandbox applies, for the match record."""
        return {
            "own_uid": self.uid,
            "network_namespace": self.isolate_network,
            "private_mounts": self.private_mounts,
            "limits": self.policy.limits.as_dict(),
            "unavailable": list(self.unavailable),
        }

    def spawn(self, argv: Sequence[str], *, log_path: Path, env: Mapping[str, str] | None = None,
              expose: Sequence[Path] = ()) -> SandboxedProcess:
        """Start `argv` in this sandbox and return once it has been exec'd.

        The bot's environment is exactly PATH (the policy's), HOME and
        TMPDIR (its working folder), LANG=C.UTF-8, and then `env`. Its
        output goes to `log_path` (appended, capped). `expose`: paths the
        bot must read (e.g. its own code in the ladder's closed store),
        bound in read-only. Raises SpawnFailed.
        """
        if self.process is not None or self._closed:
            raise SandboxError("a sandbox runs one process; make a new Sandbox")
        self.exposed = self._exposures(expose)
        self.process = SandboxedProcess._start(self, list(argv), env or {}, log_path)
        return self.process

    def _exposures(self, extra: Sequence[Path]) -> list[list[str]]:
        """[path, what hides it] for each wanted path the bot could not reach:
        a closed folder above it (when the bot has its own uid), or a
        private tmpfs laid over it (/tmp and the like)."""
        wanted: list[str | Path] = [*extra, *self.policy.expose]
        if self.policy.expose_interpreter:
            wanted += [sys.base_prefix, sys.prefix]
        pairs: list[list[str]] = []
        for path in dict.fromkeys(os.path.realpath(p) for p in wanted):
            cover = _closed_ancestor(path) if self.uid is not None else None
            if cover is None and self.private_mounts:
                cover = next((f for f in _shim.PRIVATE_TMPFS if _shim.inside(path, f)), None)
            if cover is None:
                continue
            if not self.private_mounts:
                why = "are unavailable here" if self.policy.private_mounts else "are off in the policy"
                if self.policy.strict:
                    raise SandboxUnavailable(f"the bot cannot reach {path} and private mounts {why}")
                warn_once(f"exposure of {path}", f"sandbox: the bot's user cannot reach {path} (closed "
                          f"folder {cover}) and private mounts {why}; a bot that needs it will fail")
                continue
            pairs.append([path, cover])
        return pairs

    def close(self) -> None:
        """Kill the bot's tree (if started), remove the folders, free the uid."""
        if self._closed:
            return
        self._closed = True
        if self.process is not None:
            self.process.kill_tree()
        _shim.remove_tree(str(self.box_dir))  # normally the supervisor did it already
        os.close(self._box_lock)
        if self._lease is not None:
            self._lease.release()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ policy

    def _choose_user(self) -> int | None:
        run_as = self.policy.run_as
        if run_as == "self":
            return None
        if run_as == "auto":
            if self.caps.root and self.caps.switch_user:
                self._lease = lease_uid(self.policy.uid_range)
                return self._lease.uid
            self._missing("switch_user", "bots run as the referee's user and can read and signal what it can")
            return None
        uid = resolve_user(run_as)
        if uid == os.geteuid():
            return None
        if not self.caps.root:
            raise SandboxUnavailable(f"cannot run bots as {run_as!r}: the referee is not root")
        return uid

    def _wanted(self, capability: str, requested: bool, consequence: str) -> bool:
        if not requested:
            return False
        if getattr(self.caps, capability):
            return True
        self._missing(capability, consequence)
        return False

    def _missing(self, capability: str, consequence: str) -> None:
        if self.policy.strict:
            raise SandboxUnavailable(f"{capability} is not available on this machine: {consequence}")
        self.unavailable.append(capability)
        warn_missing(capability, consequence)


class SandboxedProcess:
    """A running (or finished) bot in its sandbox.

    `pid` is the bot's own pid (its supervisor's is `supervisor_pid`).
    Everything it started is killed with it; `kill_tree`/`close` also remove
    its folders and free its uid. Thread-safe.
    """

    def __init__(self, sandbox: Sandbox, shim: subprocess.Popen[bytes], pid: int,
                 status_fd: int, control_fd: int, log: CappedLog, pending: bytes = b"") -> None:
        self.sandbox = sandbox
        self.name = sandbox.name
        self.pid = pid
        self.supervisor_pid = shim.pid
        self.uid = sandbox.uid
        self.workdir = sandbox.workdir
        self.socket_dir = sandbox.socket_dir
        self.log_path = log.path
        self._shim = shim
        self._control_fd = control_fd
        self._log = log
        self._lock = threading.Lock()
        self._exited = threading.Event()
        self._status: ExitStatus | None = None
        self._killed = False
        self._reader = threading.Thread(target=self._read_status, args=(status_fd, pending),
                                        name=f"sandbox-status-{self.name}", daemon=True)
        self._reader.start()
        _register(self)

    # ------------------------------------------------------------ start

    @classmethod
    def _start(cls, sandbox: Sandbox, argv: list[str], env: Mapping[str, str],
               log_path: Path) -> SandboxedProcess:
        status_r, status_w = os.pipe()
        control_r, control_w = os.pipe()
        log_r, log_w = os.pipe()
        config = _config(sandbox, argv, env, status_w, control_r)
        # the locks go to the supervisor too: held until it has cleaned up
        keep = [status_w, control_r, sandbox._box_lock] + ([sandbox._lease.lock_fd] if sandbox._lease else [])
        try:
            shim = subprocess.Popen(
                [sys.executable, "-I", "-S", str(SHIM)], stdin=subprocess.PIPE, stdout=log_w,
                stderr=log_w, pass_fds=keep, start_new_session=True, close_fds=True, env={},
            )
        except BaseException:
            for fd in (status_r, status_w, control_r, control_w, log_r, log_w):
                os.close(fd)
            raise
        for fd in (status_w, control_r, log_w):
            os.close(fd)
        log = CappedLog(log_r, log_path, sandbox.policy.limits.log_bytes, sandbox.name)
        try:
            assert shim.stdin is not None
            shim.stdin.write(marshal.dumps(config))
            shim.stdin.close()
        except BrokenPipeError:
            pass  # the supervisor died at once; the status read below says so
        first, rest = _read_first(status_r, START_TIMEOUT)
        if first is None or first.get("event") != "started":
            os.close(control_w)
            os.close(status_r)
            _finish(shim)
            log.join(1.0)
            sandbox.close()
            message = str(first.get("message")) if first else "the sandbox supervisor did not start"
            code = int(first.get("errno") or 0) if first else 0
            raise SpawnFailed(code, f"{argv[0]}: {message}")
        return cls(sandbox, shim, int(first["pid"]), status_r, control_w, log, rest)

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

    def renew(self) -> None:
        """Give a warm bot fresh budgets from now: `cpu_seconds` of CPU for
        its whole tree and `wall_seconds` of life. Call it at each match
        start, so the limits bound a match, not a ladder run."""
        if not self._exited.is_set():
            self._command(b"R")

    # ------------------------------------------------------------ ending

    def terminate(self, grace: float = 0.5) -> ExitStatus:
        """SIGTERM the bot's process group, then kill the tree after `grace`."""
        self._command(b"T")
        try:
            self.wait(grace)
        except TimeoutError:
            pass
        return self.kill_tree()

    def kill_tree(self) -> ExitStatus:
        """Kill the bot and everything it started, remove its folders and
        free its uid; verify that no process of it remains. Idempotent."""
        with self._lock:
            if not self._killed:
                self._killed = True
                self._command(b"K")
                try:
                    os.close(self._control_fd)
                except OSError:
                    pass
                self._exited.wait(KILL_TIMEOUT)
                _await_exit(self._shim.pid, KILL_TIMEOUT)
                self._reader.join(1.0)
                self._sweep()  # before the supervisor is reaped: its pid still names this tree
                _finish(self._shim)
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
        table = _shim.proc_table()
        return [pid for pid, (_ppid, sid, owner) in table.items()
                if pid != self.supervisor_pid and (sid == self.supervisor_pid
                                                   or (self.uid is not None and owner == self.uid)
                                                   or self._descends(pid, table))]

    # ------------------------------------------------------------ peers

    def verify_peer(self, conn: socket.socket) -> PeerCredentials:
        """Check that the peer of a connected Unix socket is this bot (or a
        process of its tree); return its credentials. Raises PeerMismatch."""
        raw = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
        creds = PeerCredentials(*struct.unpack("3i", raw))
        if self.uid is not None and creds.uid != self.uid:
            raise PeerMismatch(f"{self.name}: socket peer has uid {creds.uid}, expected {self.uid}")
        if not self._descends(creds.pid, _shim.proc_table()):
            raise PeerMismatch(f"{self.name}: socket peer pid {creds.pid} is not in the bot's process tree")
        return creds

    def verify_socket(self, path: Path, timeout: float = 1.0) -> PeerCredentials:
        """Check that `path` is a socket in this bot's socket folder, owned by
        its uid, served by its process tree. Raises PeerMismatch."""
        try:
            info = os.lstat(path)
        except OSError as exc:
            raise PeerMismatch(f"{self.name}: no socket at {path}: {exc.strerror}") from None
        if not stat.S_ISSOCK(info.st_mode) or Path(path).parent.resolve() != self.socket_dir.resolve():
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

    def __repr__(self) -> str:
        return f"SandboxedProcess({self.name!r}, pid={self.pid}, returncode={self.returncode})"

    # ------------------------------------------------------------ internals

    def _descends(self, pid: int, table: dict[int, tuple[int, int, int]]) -> bool:
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
                events, buffer = _shim.unframe(buffer)
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
                          log_truncated=self._log.truncated)

    def _lost(self) -> ExitStatus:
        code = self._shim.poll()
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
        if self._status is None and self.uid is not None:
            _shim.purge_uid_files(self.uid)  # no report: the supervisor may not have cleaned up


def spawn(argv: Sequence[str], *, log_path: Path, policy: SandboxPolicy | None = None,
          env: Mapping[str, str] | None = None, name: str = "bot", base_dir: Path | None = None,
          expose: Sequence[Path] = ()) -> SandboxedProcess:
    """Make a Sandbox and start `argv` in it (see Sandbox.spawn). Closing the
    returned process closes its sandbox. Raises SpawnFailed."""
    box = Sandbox(name, policy, base_dir)
    try:
        return box.spawn(argv, log_path=log_path, env=env, expose=expose)
    except BaseException:
        box.close()
        raise


# ------------------------------------------------------------ helpers

_LIVE: weakref.WeakSet[SandboxedProcess] = weakref.WeakSet()
_HISTORY: list[tuple[int, int | None, Path]] = []
_REGISTRY_LOCK = threading.Lock()


def _register(process: SandboxedProcess) -> None:
    with _REGISTRY_LOCK:
        _LIVE.add(process)
        _HISTORY.append((process.supervisor_pid, process.uid, process.sandbox.box_dir))


BOX_PREFIX = "referee-box-"
STALE_AGE = 60.0
"""Seconds after which a sandbox folder without a lock file counts as stale
(a referee killed in the instant between creating it and locking it)."""


def sweep_stale_boxes(base_dir: Path | None = None) -> list[Path]:
    """Remove sandbox folders that nobody holds any more: their referee was
    killed (even by SIGKILL) before it had started their supervisor, which
    would otherwise have removed them. Runs at every Sandbox creation."""
    removed: list[Path] = []
    for path in Path(base_dir or tempfile.gettempdir()).glob(BOX_PREFIX + "*"):
        try:
            fd = os.open(path / ".lock", os.O_RDWR | os.O_CLOEXEC)
        except FileNotFoundError:
            try:
                if time.time() - path.stat().st_mtime < STALE_AGE:
                    continue
            except OSError:
                continue
        except OSError:
            continue  # another user's sandbox, or gone
        else:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # alive
            finally:
                os.close(fd)
        _shim.remove_tree(str(path))
        removed.append(path)
    return removed


def _hold(lock_path: Path) -> int:
    """Create and lock a sandbox folder's lock file; the descriptor holds it.

    The file is locked under a temporary name and only then renamed into
    place: a sweep running in another referee at that moment sees either no
    lock file (a young folder, left alone) or a held one, never an unlocked
    lock file it would take for an abandoned box and remove under us."""
    staging = lock_path.with_name(lock_path.name + ".new")
    fd = os.open(staging, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX)
    os.rename(staging, lock_path)
    return fd


def close_all() -> None:
    """Kill every sandboxed process this interpreter started (run at exit)."""
    with _REGISTRY_LOCK:
        live = list(_LIVE)
    for process in live:
        process.kill_tree()


atexit.register(close_all)


@dataclass(frozen=True)
class Leftovers:
    """What sandboxes of this interpreter left behind (both empty when clean)."""

    pids: tuple[int, ...]
    paths: tuple[Path, ...]

    def __bool__(self) -> bool:
        return bool(self.pids or self.paths)


def leftovers() -> Leftovers:
    """Processes and folders still present from sandboxes this interpreter
    started and closed (for tests and health checks: "no orphans, ever")."""
    with _REGISTRY_LOCK:
        history = list(_HISTORY)
        open_boxes = {p.sandbox.box_dir for p in _LIVE if not p._killed}
    table = _shim.proc_table()
    pids: set[int] = set()
    paths: list[Path] = []
    for supervisor, uid, box_dir in history:
        if box_dir in open_boxes:
            continue
        # a uid counts only while nobody holds it again (another sandbox,
        # maybe of another referee, may have taken it since)
        free_uid = uid if uid is not None and not uid_leased(uid) else None
        pids.update(pid for pid, (_ppid, sid, owner) in table.items()
                    if sid == supervisor or owner == free_uid)
        if box_dir.exists():
            paths.append(box_dir)
    return Leftovers(tuple(sorted(pids)), tuple(paths))


def _config(sandbox: Sandbox, argv: list[str], env: Mapping[str, str], status_fd: int,
            control_fd: int) -> dict[str, object]:
    limits = sandbox.policy.limits
    full_env = {"PATH": sandbox.policy.path, "HOME": str(sandbox.workdir), "TMPDIR": str(sandbox.workdir),
                "LANG": "C.UTF-8"}
    full_env.update(env)
    return {
        "argv": argv,
        "env": full_env,
        "uid": sandbox.uid,
        "workdir": str(sandbox.workdir),
        "box_dir": str(sandbox.box_dir),
        "status_fd": status_fd,
        "control_fd": control_fd,
        "isolate_network": sandbox.isolate_network,
        "private_mounts": sandbox.private_mounts,
        "tmpfs_bytes": limits.tmpfs_bytes,
        "exposed": sandbox.exposed,
        "wall_seconds": limits.wall_seconds,
        "cpu_seconds": limits.cpu_seconds,
        "rlimits": _rlimits(sandbox),
    }


def _rlimits(sandbox: Sandbox) -> dict[str, tuple[int, int]]:
    limits = sandbox.policy.limits
    chosen: dict[str, tuple[int, int]] = {"RLIMIT_CORE": (0, 0)}
    if limits.memory_bytes is not None:
        chosen["RLIMIT_AS"] = (limits.memory_bytes, limits.memory_bytes)
    if limits.max_processes is not None:
        # per-user counter: with the referee's own uid, add what it already runs
        extra = 0 if sandbox.uid is not None else _tasks_of(os.getuid())
        chosen["RLIMIT_NPROC"] = (limits.max_processes + extra,) * 2
    if limits.open_files is not None:
        chosen["RLIMIT_NOFILE"] = (limits.open_files, limits.open_files)
    if limits.file_size_bytes is not None:
        chosen["RLIMIT_FSIZE"] = (limits.file_size_bytes, limits.file_size_bytes)
    return chosen


def _closed_ancestor(path: str) -> str | None:
    """The topmost folder above `path` that others may not pass through."""
    parts = Path(path).parts
    for depth in range(1, len(parts)):
        folder = os.path.join(*parts[:depth])
        try:
            if not os.stat(folder).st_mode & stat.S_IXOTH:
                return folder
        except OSError:
            return None
    return None


def _tasks_of(uid: int) -> int:
    import psutil

    total = 0
    for proc in psutil.process_iter(["uids", "num_threads"]):
        uids = proc.info["uids"]
        if uids is not None and uids.real == uid:
            total += proc.info["num_threads"] or 1
    return total


def _read_first(fd: int, timeout: float) -> tuple[dict[str, Any] | None, bytes]:
    """The supervisor's first message (None if it died or hung) and
    whatever followed it."""
    deadline = time.monotonic() + timeout
    buffer = b""
    while True:
        events, rest = _shim.unframe(buffer)
        if events:
            return events[0], b"".join(_shim.frame(e) for e in events[1:]) + rest
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


def _finish(shim: subprocess.Popen[bytes]) -> None:
    """Wait for the supervisor; kill it if it hangs (it never should)."""
    try:
        shim.wait(KILL_TIMEOUT)
    except subprocess.TimeoutExpired:
        shim.kill()
        shim.wait()


def _describe_code(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"


def _safe(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)[:40]
