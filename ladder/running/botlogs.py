"""Bots' output from the workers of a real cluster, shipped back with each result.

On a real cluster a bot's log is written on its worker's machine (the
worker's own folder; workers never touch the store). So that `referee
logs` shows it wherever the bot played, a worker hands back, with each
result, what each of the match's bots wrote since the last result
(`LogCursor`: it follows the log across a rotation to `.log.1`), at most
`SHIP_LIMIT` bytes a bot a match (the newest); the process that owns the
store appends it to the bot's log in `logs/`, with the cap and rotation a
log has on one machine (`append_capped`: past the cap the file becomes
`.log.1` and a new one starts, so about twice the cap is kept).
With the embedded cluster the workers share the machine and write `logs/`
themselves, as they always did: nothing is shipped.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from ladder.store.database import version_log_path
from referee.files import PRIVATE_FILE, private_folders
from referee.sandbox.logpipe import rotated_path

SHIP_LIMIT = 256 * 1024
"""Bytes of a bot's output shipped with one result at most (the newest)."""
CUT = b"[referee: earlier output of this match not shipped from its worker]\n"


class LogCursor:
    """Where each bot's worker-side log was last read; see the module doc."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._read: dict[str, tuple[int, int]] = {}
        """label -> (inode of the file, bytes of it already shipped)."""
        self._lock = threading.Lock()

    def new_output(self, label: str) -> bytes:
        """What the bot `label` wrote since the last call (the newest SHIP_LIMIT bytes)."""
        path = version_log_path(self.folder, label)
        with self._lock:
            try:
                inode = path.stat().st_ino
            except FileNotFoundError:
                return b""
            seen, offset = self._read.get(label, (inode, 0))
            parts = []
            if seen != inode:  # rotated since: the rest of the old file first
                older = rotated_path(path)
                if older.exists() and older.stat().st_ino == seen:
                    parts.append(_read_from(older, offset))
                offset = 0
            latest = _read_from(path, offset)
            self._read[label] = (inode, offset + len(latest))
        data = b"".join([*parts, latest])
        return data if len(data) <= SHIP_LIMIT else CUT + data[-SHIP_LIMIT:]


def _read_from(path: Path, offset: int) -> bytes:
    with path.open("rb") as log:
        log.seek(offset)
        return log.read()


def append_capped(logs_dir: Path, label: str, data: bytes, cap: int) -> None:
    """Append shipped output to the bot's log in the store, rotating the
    log to `.log.1` first when `data` would take it past `cap`."""
    path = version_log_path(logs_dir, label)
    private_folders(logs_dir)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        size = 0
    if size and size + len(data) > cap:
        os.replace(path, rotated_path(path))
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, PRIVATE_FILE)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
    finally:
        os.close(fd)
