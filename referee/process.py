"""Bot processes: start one from a command line, wait until it is healthy,
keep it warm across matches, and kill its whole process tree on close.

A bot is a gRPC server on a Unix domain socket whose path the referee chooses
(a fresh private folder per process) and hands over twice: as the argument
`--socket PATH` and as the environment variable REFEREE_BOT_SOCKET. The
referee connects only once the socket file exists, so gRPC's one-second
reconnect backoff never starts (DESIGN.md, Protocol), then calls the
handshake with a timeout (`BotClient.wait_ready`).

Each bot runs in a sandbox (`referee.sandbox`: a jail with its own
namespaces, read-only root and seccomp filter, a control group for its
tree, a supervisor that kills the whole tree, its own uid when the referee
is root); stdin is closed and stdout/stderr go to a size-capped log. Before
it connects, the referee moves the bot's socket into a folder the bot
cannot reach and checks there that the process it started serves it, so no
later reconnection can be redirected. Every started process is closed at
interpreter exit at the latest, so the referee never leaves orphans.

The jail's root holds the system's programs and libraries; besides them a
bot may read its program's folder, the bot SDK installed with the referee
and what the caller exposes (its folder in the ladder's closed store),
bound in read-only. A program its own user may not execute is refused with
a clear error; it never silently runs with the referee's privileges (only a
policy with run_as="self" asks for that).
"""

from __future__ import annotations

import atexit
import errno
import functools
import importlib.util
import logging
import os
import shutil
import sys
import tempfile
import threading
import time
import weakref
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from botsdk.contract import SOCKET_ENV

from referee.files import safe_label
from referee.protocol.client import BotClient, BotFault, BotInfo, BotStartFailed
from referee.protocol.faults import BotExitedAtStart
from referee.sandbox import (
    GiB,
    MiB,
    PeerMismatch,
    Sandbox,
    SandboxedProcess,
    SandboxError,
    SandboxPolicy,
    SpawnFailed,
)

log = logging.getLogger(__name__)

DEFAULT_POLICY = SandboxPolicy()
"""The containment every bot gets unless the caller passes another policy."""

SOCKET_POLL = 0.002
"""Seconds between looks for the bot's socket file while it starts (a
Python bot needs about 0.1 s to import gRPC, so this costs nothing)."""

TERM_GRACE = 0.5
"""Seconds a bot gets to exit after SIGTERM before its tree is killed."""

MEMORY_NEAR_LIMIT = 0.9
"""A crashed bot whose address space reached this share of its limit ran
out of memory: the allocation that failed asked for more than was left. A
Python bot that grows a table dies within a few MiB of it; one that asks for
a large block at once may die further below, and is then not called out."""

_LIVE: "weakref.WeakSet[BotProcess]" = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()

SDK_PACKAGES: tuple[str, ...] = ("botsdk", "bots", "referee")
"""The packages a Python bot imports from the referee's installation (the
bot SDK distribution, and the built-in bots' SDK with the rules engines and
codecs it uses): public code, which every bot may read even when it is
installed in a closed folder."""


class BotProcess:
    """A started, healthy, warm bot; reusable across matches.

    `fault` is set instead when the bot could not be started (see `failed`):
    such a placeholder lets a match go on with that seat forfeited.
    """

    def __init__(
        self,
        *,
        label: str,
        info: BotInfo,
        client: BotClient | None,
        process: SandboxedProcess | None,
        scratch_dir: Path | None,
        log_path: Path | None,
        fault: BotFault | None = None,
    ) -> None:
        self.label = label
        self.info = info
        self._client = client
        self._process = process
        self._scratch_dir = scratch_dir
        self.log_path = log_path
        self.fault = fault
        self._closed = False
        self._memory_noted = False
        if process is not None:
            with _LIVE_LOCK:
                _LIVE.add(self)

    # ----------------------------------------------------------- creation

    @classmethod
    def start(
        cls,
        command: Sequence[str],
        *,
        label: str,
        startup_timeout: float = 10.0,
        log_path: Path | None = None,
        policy: SandboxPolicy | None = None,
        expose: Sequence[Path] = (),
    ) -> "BotProcess":
        """Start `command` as a bot in a sandbox and wait until it answered
        the handshake. `log_path` keeps its output (default: a temporary
        file, removed on close); `policy` defaults to DEFAULT_POLICY;
        `expose`: folders the bot must read although a closed folder hides
        them (its own folder in the ladder's store), bound in read-only.

        Raises BotStartFailed (it did not start, its own user may not
        execute it, it exited, served its socket from another process, or
        did not answer in `startup_timeout` seconds) or ProtocolMismatch (it
        speaks another protocol version); the process is killed before
        either is raised.
        """
        deadline = time.monotonic() + startup_timeout
        scratch = None if log_path is not None else Path(tempfile.mkdtemp(prefix="referee-botlog-"))
        output = log_path or scratch / "bot.log"  # type: ignore[operator]
        try:
            process, socket_path = _spawn(list(command), label, output, policy or DEFAULT_POLICY, expose)
        except (OSError, SandboxError) as exc:
            if scratch is not None:
                shutil.rmtree(scratch, ignore_errors=True)
            raise BotStartFailed(f"{label}: cannot run {command[0]!r}: {_os_error_text(exc)}") from None
        bot = cls(label=label, info=_unknown_info(label), client=None, process=process,
                  scratch_dir=scratch, log_path=output)
        try:
            _wait_for_socket(process, socket_path, deadline, label, log_path)
            claimed = _claim_socket(process, socket_path, deadline, label)
            client = BotClient(str(claimed))
            bot._client = client
            bot.info = client.wait_ready(timeout=max(0.05, deadline - time.monotonic()))
        except BaseException:
            bot.close()
            raise
        log.info("bot %s started (pid %d): %s %s", label, process.pid, bot.info.name, bot.info.version)
        return bot

    @classmethod
    def failed(cls, label: str, fault: BotFault) -> "BotProcess":
        """A placeholder for a bot that could not be started: a match that
        seats it forfeits that seat from the start, with `fault`'s reason."""
        return cls(label=label, info=_unknown_info(label), client=None, process=None,
                   scratch_dir=None, log_path=None, fault=fault)

    # -------------------------------------------------------------- state

    @property
    def client(self) -> BotClient:
        """The wire client. Raises BotStartFailed for a placeholder."""
        if self._client is None:
            raise self.fault or BotStartFailed(f"{self.label}: not started")
        return self._client

    @property
    def alive(self) -> bool:
        """True while the process runs and the referee has not closed it."""
        return self._process is not None and not self._closed and self._process.poll() is None

    @property
    def pid(self) -> int:
        return self._process.pid if self._process is not None else -1

    @property
    def returncode(self) -> int | None:
        """The exit code once the process ended (negative: killed by that
        signal), else None."""
        return self._process.returncode if self._process is not None else None

    def exit_description(self, wait: float = 0.0) -> str:
        """How the process ended, for a crash record: "exit code 3", "killed
        by SIGKILL (CPU time limit reached)", and whether it ran out of
        memory (`memory_note`). Waits up to `wait` seconds for it to end: a
        broken stream is often seen a moment before the process is gone.

        The note is also added to the bot's log (`_note_memory`)."""
        if self._process is None:
            return "never started"
        peak = self._process.address_space_peak()  # read from its live processes: before they are waited for
        try:
            self._process.wait(timeout=wait)
        except TimeoutError:
            pass
        status = self._process.exit_status
        how = "the process is still running" if status is None else status.describe()
        memory = self._note_memory(peak)  # after the wait: an OOM kill is counted in the exit status
        return how if memory is None else f"{how}; {memory}"

    def memory_note(self, address_space_peak: int | None = None) -> str | None:
        """"it ran out of memory: ..." with the limit it reached, if the
        kernel's OOM killer ended a process of its tree, or if a process's
        address space came within MEMORY_NEAR_LIMIT of the per-process
        limit (an allocation past it fails: Python's MemoryError, C++'s
        std::bad_alloc); else None. `address_space_peak`: as measured
        earlier, while its processes lived (default: now)."""
        if self._process is None:
            return None
        limits = self._process.sandbox.policy.limits
        if limits.tree_memory_bytes is not None and self._process.oom_kills():
            return (f"it ran out of memory: its processes together passed their limit of "
                    f"{_size(limits.tree_memory_bytes)} and the kernel ended one")
        peak = self._process.address_space_peak() if address_space_peak is None else address_space_peak
        if limits.memory_bytes is not None and peak >= MEMORY_NEAR_LIMIT * limits.memory_bytes:
            return (f"it ran out of memory: its address space reached {_size(peak)} of the "
                    f"{_size(limits.memory_bytes)} each process may use")
        return None

    def protections(self) -> dict[str, Any]:
        """What the sandbox applies to this bot (for the record)."""
        return self._process.sandbox.protections() if self._process is not None else {}

    def _note_memory(self, address_space_peak: int | None = None) -> str | None:
        """`memory_note()`, added to the bot's log the first time it says
        something: a bot that ran out of memory often cannot say so itself
        (printing a traceback needs memory too; a plain grpcio bot's log
        stays empty, and one whose table keeps its memory full can no
        longer answer at all)."""
        note = self.memory_note(address_space_peak)
        if note is not None and not self._memory_noted and self._process is not None:
            self._memory_noted = True
            self._process.note(note)
        return note

    # ------------------------------------------------------------ matches

    def begin_match(self) -> None:
        """Give the bot fresh CPU and wall-clock budgets from now (the
        sandbox's `Limits`): the referee calls this at each match start, so
        a warm bot's limits bound each match, not a whole ladder run."""
        if self._process is not None and not self._closed:
            self._process.renew()

    # ------------------------------------------------------------- ending

    def kill(self) -> None:
        """Close at once, without the grace a polite close gives: for a bot
        that forfeited, whose further work is wasted and may be hostile (a
        fork bomb, a loop that ignores SIGTERM). Idempotent. If it ran out
        of memory, its log says so first (`_note_memory`): the likely reason
        it stopped answering."""
        if not self._closed:
            self._note_memory()
        self.close(grace=0.0)

    def close(self, grace: float = TERM_GRACE) -> None:
        """Close the connection and kill the whole process tree, after
        `grace` seconds for the bot to exit on SIGTERM. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._client is not None:
            try:
                self._client.close()
            except Exception:  # a dying bot may break the channel; it is going anyway
                log.debug("closing the client of %s failed", self.label, exc_info=True)
        if self._process is not None:
            self._process.terminate(grace=grace)  # the whole tree, and the sandbox's folders
        if self._scratch_dir is not None:
            shutil.rmtree(self._scratch_dir, ignore_errors=True)
        with _LIVE_LOCK:
            _LIVE.discard(self)

    def __enter__(self) -> "BotProcess":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"BotProcess({self.label!r}, pid={self.pid}, alive={self.alive})"


def start_bots(
    commands: Sequence[Sequence[str]],
    labels: Sequence[str],
    *,
    startup_timeout: float = 10.0,
    log_dir: Path | None = None,
    policy: SandboxPolicy | None = None,
    expose: Sequence[Sequence[Path]] = (),
) -> list[BotProcess]:
    """Start several bots at once (their start-up times overlap).
    `expose[i]`, if given, are the folders bot i must read besides its
    program's (`BotProcess.start`).

    A bot that fails to start becomes a `BotProcess.failed` placeholder, so
    the match can go on with that seat forfeited (DESIGN.md, Failure policy).
    """

    def one(index: int) -> BotProcess:
        log_path = bot_log_path(log_dir, index, labels[index]) if log_dir else None
        try:
            return BotProcess.start(commands[index], label=labels[index], startup_timeout=startup_timeout,
                                    log_path=log_path, policy=policy,
                                    expose=expose[index] if index < len(expose) else ())
        except BotFault as fault:
            log.warning("bot %s failed to start: %s", labels[index], fault.detail)
            return BotProcess.failed(labels[index], fault)

    with ThreadPoolExecutor(max_workers=max(1, len(commands))) as pool:
        return list(pool.map(one, range(len(commands))))


def bot_log_path(log_dir: Path, index: int, label: str) -> Path:
    """Where `start_bots` keeps the output of the bot of seat `index`."""
    return log_dir / f"seat{index}-{safe_label(label)}.log"


def close_all() -> None:
    """Close every bot process this interpreter started and has not closed."""
    with _LIVE_LOCK:
        bots = list(_LIVE)
    for bot in bots:
        bot.close()


atexit.register(close_all)


def _size(size: int) -> str:
    """Bytes in GiB or MiB, as the limits are given."""
    return f"{size / GiB:.2f} GiB".replace(".00 ", " ") if size >= GiB else f"{size / MiB:.0f} MiB"


def _unknown_info(label: str) -> BotInfo:
    """What the record says about a bot that never completed its handshake."""
    return BotInfo(name=label, version="?", protocol_version=0, games=())


def _spawn(command: list[str], label: str, log_path: Path, policy: SandboxPolicy,
           expose: Sequence[Path]) -> tuple[SandboxedProcess, Path]:
    """Start the bot in a fresh sandbox; return it and its socket path.

    Besides `expose`, the bot may read its program's folder and the bot SDK
    (`code_paths`), so a program the referee could start runs under the
    bot's own uid even from a closed folder (a checkout under /root). If
    that user still may not execute it, the start fails: running it as the
    referee's user instead would hand an untrusted program the referee's
    files. Raises SpawnFailed (an OSError) or SandboxError.
    """
    box = Sandbox(label, policy)
    try:
        socket_path = box.socket_path()
        process = box.spawn([*command, "--socket", str(socket_path)], log_path=log_path,
                            env={SOCKET_ENV: str(socket_path)}, expose=[*expose, *code_paths(command)])
    except BaseException as exc:
        box.close()
        if isinstance(exc, OSError) and exc.errno == errno.EACCES and box.uid is not None:
            raise SpawnFailed(errno.EACCES, (
                f"the bot's own user (uid {box.uid}) may not execute it: make the program, its folder "
                f"and the interpreter its #! line names readable and executable by all (chmod a+rx; "
                f"a closed folder above them is fine), or trust it with the referee's user "
                f"(SandboxPolicy(run_as='self'))")) from None
        raise
    return process, socket_path


def code_paths(command: Sequence[str]) -> list[Path]:
    """What a bot started with `command` reads as its code: the folder of
    its program (the first word, or the script this interpreter runs) and
    the bot SDK's packages; for a virtualenv's interpreter, the whole
    virtualenv (its python is a link to the base interpreter, which finds
    the virtualenv's packages from the link's folder and `pyvenv.cfg`). The
    sandbox binds in those a closed folder hides and ignores the rest;
    their own file modes still apply."""
    paths = list(_sdk_folders())
    program = command[0]
    if os.sep in program:
        link_folder = Path(os.path.abspath(program)).parent
        paths += [link_folder, Path(program).resolve().parent]
        if (link_folder.parent / "pyvenv.cfg").is_file():
            paths.append(link_folder.parent)
    if len(command) > 1 and os.path.realpath(program) == os.path.realpath(sys.executable) \
            and os.path.isabs(command[1]) and os.path.isfile(command[1]):
        paths.append(Path(command[1]).resolve().parent)
    return paths


@functools.cache
def _sdk_folders() -> tuple[Path, ...]:
    """The folders of SDK_PACKAGES as this interpreter imports them (in the
    checkout itself for an editable install)."""
    folders = []
    for name in SDK_PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            folders += [Path(location).resolve() for location in spec.submodule_search_locations]
    return tuple(folders)


def _claim_socket(process: SandboxedProcess, socket_path: Path, deadline: float, label: str) -> Path:
    """Take the bot's socket out of its reach and check that its own process
    tree serves it; return where the referee connects from now on (gRPC
    reconnects by that path for the bot's whole life, so it must be one the
    bot cannot replace)."""
    try:
        return process.claim_socket(socket_path, timeout=max(0.05, deadline - time.monotonic()))
    except PeerMismatch as exc:
        raise BotStartFailed(f"{label}: {exc}") from None


def _os_error_text(exc: BaseException) -> str:
    return (exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)) or type(exc).__name__


def _wait_for_socket(
    process: SandboxedProcess, socket_path: Path, deadline: float, label: str, log_path: Path | None
) -> None:
    """Wait until the bot listens (its socket file exists) or gives up."""
    where = f"; its output is in {log_path}" if log_path else ""
    while not socket_path.exists():
        if process.poll() is not None:
            raise BotExitedAtStart(
                f"{label}: exited ({process.exit_status.describe() if process.exit_status else 'ended'}) "
                f"before it listened on its socket{where}"
            )
        if time.monotonic() > deadline:
            raise BotStartFailed(
                f"{label}: did not listen on its socket within the start-up timeout "
                f"(does it read --socket PATH or ${SOCKET_ENV}?){where}"
            )
        time.sleep(SOCKET_POLL)
