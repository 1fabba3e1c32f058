"""Files and folders the referee and the ladder write: private from the first byte.

Match records hold the seed and every hand, logs hold a bot's own output,
and bots run under uids of their own (docs/security.md): whatever the umask
and whatever folder the user names, everything written here is created
with mode 0600 (files) or 0700 (folders) in the call that creates it, never
created open and narrowed afterwards. Folders that already exist are the
user's and are left as they are.

A file written whole is written under a temporary name in its own folder
and renamed into place, so a process killed at any moment leaves the old
file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

PRIVATE_FILE = 0o600
PRIVATE_FOLDER = 0o700


def private_folders(path: Path) -> Path:
    """Create `path` and every missing folder above it, each 0700 (set by
    mkdir itself, so never open for a moment). Returns `path`."""
    missing = []
    for folder in (path, *path.parents):
        if folder.is_dir():
            break
        missing.append(folder)
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made by a concurrent writer meanwhile
            os.mkdir(folder, PRIVATE_FOLDER)
    return path


def _temporary_beside(path: Path) -> tuple[int, str]:
    """A new private file (0600, O_EXCL) in `path`'s folder, named after it."""
    private_folders(path.parent)
    return tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")


def create_private(path: Path) -> int:
    """A new, empty file at `path`, mode 0600, open for writing (the fd).

    Whatever was at `path` (an older file, a link) is replaced, never
    written through: the file is created under a temporary name and renamed
    into place before its first byte, so a reader who opened an earlier file
    of that name sees nothing of this one. For files written as they grow
    (a match record); `write_atomically` for files written whole."""
    fd, temporary = _temporary_beside(path)
    try:
        os.replace(temporary, path)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return fd


def write_atomically(path: Path, text: str, mode: int = PRIVATE_FILE) -> None:
    """Replace `path` with `text` (UTF-8) in one step, as a file of `mode`:
    written and synced under a private temporary name, then renamed over
    `path`, so a process killed at any moment leaves the old file or the new
    one, and nobody reads the new one half-written."""
    fd, temporary = _temporary_beside(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
            if mode != PRIVATE_FILE:
                os.fchmod(out.fileno(), mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def safe_label(label: str) -> str:
    """`label` (a bot's label, which its user chose) made fit to be part of a
    file name: only letters, digits, '-', '_' and '.', at most 40 characters."""
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in label)[:40]
