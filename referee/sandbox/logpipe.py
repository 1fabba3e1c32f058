"""A bot's stdout and stderr: one pipe, drained by a thread into a capped log.

The bot only ever holds the pipe's write end, never the log file, so it
cannot write past the cap, read another bot's log, or learn where logs live.
Past the cap the thread keeps reading and discards, so a bot that writes
without end never blocks on a full pipe (and never slows the referee's
memory: one 64 KiB buffer at a time).

The cap holds per log file, not only per process: a bot is restarted with
the same log (the ladder keeps one per bot version, shared by its worker
processes), so a bot that exits after every match would otherwise add a
cap's worth each time. When an append would take the file past the cap,
the file is first renamed to `<name>.1` (replacing an older one) and a new
one started: at most about twice the cap is kept, the newest output always
in the file itself. Appends and rotations take the file's lock (flock), so
processes writing the same log concurrently never rotate it twice.
"""

from __future__ import annotations

import fcntl
import os
import threading
from pathlib import Path

from referee.files import PRIVATE_FILE, private_folders

CHUNK = 64 * 1024
TRUNCATED = "\n[referee: log truncated at {cap} bytes; further output discarded]\n"


def rotated_path(path: Path) -> Path:
    """Where a log's older part is kept after a rotation."""
    return path.with_name(path.name + ".1")


class CappedLog:
    """Drains `read_fd` into the log at `path`: at most `cap` bytes of this
    process's output, and the file rotated before it would pass `cap`
    (see the module doc)."""

    def __init__(self, read_fd: int, path: Path, cap: int, name: str) -> None:
        self.path = path
        self.cap = cap
        self.written = 0
        self.discarded = 0
        self._fd = read_fd
        self._out = _open_private_log(path)
        self._thread = threading.Thread(target=self._drain, name=f"sandbox-log-{name}", daemon=True)
        self._thread.start()

    @property
    def truncated(self) -> bool:
        return self.discarded > 0

    def _drain(self) -> None:
        try:
            while True:
                try:
                    chunk = os.read(self._fd, CHUNK)
                except InterruptedError:
                    continue
                if not chunk:
                    return
                kept = chunk[: max(0, self.cap - self.written)]
                if kept:
                    self._append(kept, may_rotate=True)
                    self.written += len(kept)
                if len(kept) < len(chunk):
                    if not self.discarded:  # the marker closes this process's part: it never rotates it away
                        self._append(TRUNCATED.format(cap=self.cap).encode(), may_rotate=False)
                    self.discarded += len(chunk) - len(kept)
        finally:
            os.close(self._fd)
            os.close(self._out)

    def _append(self, data: bytes, *, may_rotate: bool) -> None:
        """Append `data` to the current file, rotating it first if `data`
        would take it past the cap (an empty file takes any chunk)."""
        while True:
            self._lock_current()
            size = os.fstat(self._out).st_size
            if not (may_rotate and size and size + len(data) > self.cap):
                break
            os.replace(self.path, rotated_path(self.path))  # under the lock: nobody rotates it twice
            fcntl.flock(self._out, fcntl.LOCK_UN)  # the next turn opens the new file
        try:
            _write_all(self._out, data)
        finally:
            fcntl.flock(self._out, fcntl.LOCK_UN)

    def _lock_current(self) -> None:
        """Hold the lock of the file now at `path`. Another writer of the same
        log may have rotated our file away (or someone removed it): then the
        current one is opened (created if need be) instead."""
        while True:
            fcntl.flock(self._out, fcntl.LOCK_EX)
            if _is_file_at(self._out, self.path):
                return
            fcntl.flock(self._out, fcntl.LOCK_UN)
            os.close(self._out)
            self._out = _open_private_log(self.path)

    def join(self, timeout: float | None = None) -> bool:
        """Wait until every writer has closed the pipe; True if it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()


def append_note(path: Path, text: str) -> None:
    """Add the referee's `text` to a bot's log as a line of its own,
    "[referee: text]", under the log's lock: what the bot could not write
    itself (it ran out of memory), where its author reads its output."""
    out = _open_private_log(path)
    try:
        fcntl.flock(out, fcntl.LOCK_EX)
        start = "" if _ends_a_line(path, os.fstat(out).st_size) else "\n"  # the bot's last line may be unfinished
        _write_all(out, f"{start}[referee: {text}]\n".encode())
    finally:
        os.close(out)  # releases the lock


def _ends_a_line(path: Path, size: int) -> bool:
    """Whether the log's first `size` bytes are empty or end with a line break."""
    if size == 0:
        return True
    with open(path, "rb") as log:
        log.seek(size - 1)
        return log.read(1) == b"\n"


def _open_private_log(path: Path) -> int:
    """`path` opened for appending, created 0600 in 0700 folders if new: authors
    read logs through the referee, bots never. A log an older version left
    open to others is closed (fchmod) before the first byte is added."""
    private_folders(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE)
    if os.fstat(fd).st_mode & 0o077:
        os.fchmod(fd, PRIVATE_FILE)
    return fd


def _is_file_at(fd: int, path: Path) -> bool:
    """`fd` is the file that `path` names now."""
    try:
        named = os.stat(path)
    except FileNotFoundError:
        return False
    opened = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (opened.st_dev, opened.st_ino)


def _write_all(fd: int, data: bytes) -> None:
    """os.write until all of `data` is written (a write may be partial)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def read_tail(path: Path, limit: int) -> str:
    """The last `limit` bytes of a log, decoded leniently."""
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - limit))
            return handle.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""
