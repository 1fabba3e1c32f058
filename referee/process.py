"""Bot processes: start one from a command line, wait until it is healthy,
keep it warm across matches, and kill its whole process tree on close.

A bot is a gRPC server on a Unix domain socket whose path the referee chooses
(a fresh private folder per process) and hands over twice: as the argument
`--socket PATH` and as the environment variable REFEREE_BOT_SOCKET. The
referee connects only once the socket file exists, so gRPC's one-second
reconnect backoff never starts (DESIGN.md, Protocol), then calls the
handshake with a timeout (`BotClient.wait_ready`).

Each bot runs in its own session (python-chess's `setpgrp` habit), so the
whole tree can be killed at once and a Ctrl-C in the terminal does not race
the referee; stdin is closed and stdout/stderr go to a log file. When the
containment layer (`referee.sandbox`) is installed, it does the spawning
and adds its limits; this module keeps the bot's lifecycle either way.
Every started process is closed at interpreter exit at the latest, so the
referee never leaves orphans.
"""

from __future__ import annotations

import atexit
import logging
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO

import psutil

from referee.protocol.client import BotClient, BotFault, BotInfo, BotStartFailed

log = logging.getLogger(__name__)

SOCKET_ENV = "REFEREE_BOT_SOCKET"
"""The environment variable that carries the bot's socket path."""

SOCKET_POLL = 0.002
"""Seconds between looks for the bot's socket file while it starts (a
Python bot needs about 0.1 s to import gRPC, so this costs nothing)."""

TERM_GRACE = 0.5
"""Seconds a bot gets to exit after SIGTERM before its tree is killed."""

_LIVE: "weakref.WeakSet[BotProcess]" = weakref.WeakSet()
_LIVE_LOCK = threading.Lock()


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
        process: subprocess.Popen[bytes] | None,
        socket_dir: Path | None,
        log_path: Path | None,
        fault: BotFault | None = None,
    ) -> None:
        self.label = label
        self.info = info
        self._client = client
        self._process = process
        self._socket_dir = socket_dir
        self.log_path = log_path
        self.fault = fault
        self._closed = False
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
    ) -> "BotProcess":
        """Start `command` as a bot and wait until it answered the handshake.

        Raises BotStartFailed (it did not start, exited, or did not answer in
        `startup_timeout` seconds) or ProtocolMismatch (it speaks another
        protocol version); the process is killed before either is raised.
        """
        socket_dir = Path(tempfile.mkdtemp(prefix="referee-bot-"))
        socket_path = socket_dir / "bot.sock"
        deadline = time.monotonic() + startup_timeout
        try:
            process = _spawn(list(command), socket_path, log_path)
        except OSError as exc:
            shutil.rmtree(socket_dir, ignore_errors=True)
            raise BotStartFailed(f"{label}: cannot run {command[0]!r}: {exc.strerror or exc}") from None
        bot = cls(label=label, info=_unknown_info(label), client=None, process=process,
                  socket_dir=socket_dir, log_path=log_path)
        try:
            _wait_for_socket(process, socket_path, deadline, label, log_path)
            client = BotClient(str(socket_path))
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
                   socket_dir=None, log_path=None, fault=fault)

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

    def exit_description(self, wait: float = 0.0) -> str:
        """How the process ended, for a crash record: "exit code 3", "killed
        by SIGKILL". Waits up to `wait` seconds for it to end: a broken stream
        is often seen a moment before the process is gone."""
        if self._process is None:
            return "never started"
        try:
            code = self._process.wait(timeout=wait) if wait > 0 else self._process.poll()
        except subprocess.TimeoutExpired:
            code = None
        if code is None:
            return "the process is still running"
        if code < 0:
            try:
                return f"killed by {signal.Signals(-code).name}"
            except ValueError:
                return f"killed by signal {-code}"
        return f"exit code {code}"

    # ------------------------------------------------------------- ending

    def close(self) -> None:
        """Close the connection and kill the whole process tree. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self._client is not None:
            try:
                self._client.close()
            except Exception:  # a dying bot may break the channel; it is going anyway
                log.debug("closing the client of %s failed", self.label, exc_info=True)
        if self._process is not None:
            _kill_tree(self._process)
        if self._socket_dir is not None:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
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
) -> list[BotProcess]:
    """Start several bots at once (their start-up times overlap).

    A bot that fails to start becomes a `BotProcess.failed` placeholder, so
    the match can go on with that seat forfeited (DESIGN.md, Failure policy).
    """

    def one(index: int) -> BotProcess:
        log_path = log_dir / f"seat{index}-{_safe(labels[index])}.log" if log_dir else None
        try:
            return BotProcess.start(commands[index], label=labels[index],
                                    startup_timeout=startup_timeout, log_path=log_path)
        except BotFault as fault:
            log.warning("bot %s failed to start: %s", labels[index], fault.detail)
            return BotProcess.failed(labels[index], fault)

    with ThreadPoolExecutor(max_workers=max(1, len(commands))) as pool:
        return list(pool.map(one, range(len(commands))))


def close_all() -> None:
    """Close every bot process this interpreter started and has not closed."""
    with _LIVE_LOCK:
        bots = list(_LIVE)
    for bot in bots:
        bot.close()


atexit.register(close_all)


def _unknown_info(label: str) -> BotInfo:
    """What the record says about a bot that never completed its handshake."""
    return BotInfo(name=label, version="?", protocol_version=0, games=())


def _safe(label: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)[:40]


def _spawn(command: list[str], socket_path: Path, log_path: Path | None) -> subprocess.Popen[bytes]:
    """Start the bot in its own session, stdin closed, output to its log."""
    env = dict(os.environ)
    env[SOCKET_ENV] = str(socket_path)
    out: IO[bytes] | int = subprocess.DEVNULL
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
        out = open(log_path, "ab")
    try:
        return subprocess.Popen(
            [*command, "--socket", str(socket_path)],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            close_fds=True,
        )
    finally:
        if not isinstance(out, int):
            out.close()


def _wait_for_socket(
    process: subprocess.Popen[bytes], socket_path: Path, deadline: float, label: str, log_path: Path | None
) -> None:
    """Wait until the bot listens (its socket file exists) or gives up."""
    where = f"; its output is in {log_path}" if log_path else ""
    while not socket_path.exists():
        code = process.poll()
        if code is not None:
            raise BotStartFailed(
                f"{label}: exited ({_describe_code(code)}) before it listened on its socket{where}"
            )
        if time.monotonic() > deadline:
            raise BotStartFailed(
                f"{label}: did not listen on its socket within the start-up timeout "
                f"(does it read --socket PATH or ${SOCKET_ENV}?){where}"
            )
        time.sleep(SOCKET_POLL)


def _describe_code(code: int) -> str:
    return f"signal {-code}" if code < 0 else f"exit code {code}"


def _kill_tree(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the bot's process group, then SIGKILL whatever is left of it
    and of any descendant that left the group (a bot may call setsid)."""
    descendants = _descendants(process.pid)
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        process.wait(timeout=TERM_GRACE)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for child in descendants:
        try:
            child.kill()
        except Exception:  # already gone (psutil.NoSuchProcess) or not ours
            pass
    process.wait()


def _descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
