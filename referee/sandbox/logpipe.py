"""A bot's stdout and stderr: one pipe, drained by a thread into a capped log.

The bot only ever holds the pipe's write end, never the log file, so it
cannot write past the cap, read another bot's log, or learn where logs live.
Past the cap the thread keeps reading and discards, so a bot that writes
without end never blocks on a full pipe (and never slows the referee's
memory: one 64 KiB buffer at a time).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from referee.files import PRIVATE_FILE, private_folders

CHUNK = 64 * 1024
TRUNCATED = "\n[referee: log truncated at {cap} bytes; further output discarded]\n"


class CappedLog:
    """Drains `read_fd` into `path` (appending), keeping at most `cap` bytes."""

    def __init__(self, read_fd: int, path: Path, cap: int, name: str) -> None:
        self.path = path
        self.cap = cap
        self.written = 0
        self.discarded = 0
        self._fd = read_fd
        self._out = open(_open_private_log(path), "ab", buffering=0)
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
                    self._out.write(kept)
                    self.written += len(kept)
                if len(kept) < len(chunk):
                    if not self.discarded:
                        self._out.write(TRUNCATED.format(cap=self.cap).encode())
                    self.discarded += len(chunk) - len(kept)
        finally:
            os.close(self._fd)
            self._out.close()

    def join(self, timeout: float | None = None) -> bool:
        """Wait until every writer has closed the pipe; True if it has."""
        self._thread.join(timeout)
        return not self._thread.is_alive()


def _open_private_log(path: Path) -> int:
    """`path` opened for appending, created 0600 in 0700 folders if new: authors
    read logs through the referee, bots never. A log an older version left
    open to others is closed (fchmod) before the first byte is added."""
    private_folders(path.parent)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE)
    if os.fstat(fd).st_mode & 0o077:
        os.fchmod(fd, PRIVATE_FILE)
    return fd


def read_tail(path: Path, limit: int) -> str:
    """The last `limit` bytes of a log, decoded leniently."""
    try:
        with open(path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - limit))
            return handle.read().decode("utf-8", errors="replace")
    except FileNotFoundError:
        return ""
