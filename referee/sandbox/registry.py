"""Every sandbox this interpreter started, and what sandboxes left behind.

The referee must never leave an orphan: every sandboxed process is killed
at interpreter exit at the latest (`close_all`), tests assert that nothing
of a closed sandbox remains (`leftovers`), and folders and control groups
of referees killed before their supervisor could clean up are swept by the
next sandbox made on the machine (`sweep_stale_boxes`).
"""

from __future__ import annotations

import atexit
import fcntl
import logging
import os
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from referee.sandbox import cgroups
from referee.sandbox.proctable import proc_table
from referee.sandbox.removal import remove_tree
from referee.sandbox.users import uid_leased

if TYPE_CHECKING:
    from referee.sandbox.supervised import SandboxedProcess

log = logging.getLogger(__name__)

BOX_PREFIX = cgroups.PREFIX
"""Name prefix of sandbox folders (and of their control groups, which share their names)."""

STALE_AGE = 60.0
"""Seconds after which a sandbox folder without a lock file, or a control
group without its folder, counts as stale (a referee killed in the instant
between making it and locking or using it)."""

_LIVE: weakref.WeakSet[SandboxedProcess] = weakref.WeakSet()
_HISTORY: list[tuple[int, int | None, Path]] = []
_LOCK = threading.Lock()


def register(process: SandboxedProcess) -> None:
    with _LOCK:
        _LIVE.add(process)
        _HISTORY.append((process.supervisor_pid, process.uid, process.sandbox.box_dir))


def close_all() -> None:
    """Kill every sandboxed process this interpreter started (run at exit)."""
    with _LOCK:
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
    with _LOCK:
        history = list(_HISTORY)
        open_boxes = {p.sandbox.box_dir for p in _LIVE if not p.closed}
    table = proc_table()
    pids: set[int] = set()
    paths: list[Path] = []
    for supervisor, uid, box_dir in history:
        if box_dir in open_boxes:
            continue
        if uid is None:  # the session of a dead supervisor (its pid may be reused: only without a uid)
            pids.update(pid for pid, (_ppid, sid, _owner) in table.items() if sid == supervisor)
        elif not uid_leased(uid):  # a uid counts only while nobody holds it again
            pids.update(pid for pid, (_ppid, _sid, owner) in table.items() if owner == uid)
        if box_dir.exists():
            paths.append(box_dir)
    return Leftovers(tuple(sorted(pids)), tuple(paths))


def sweep_stale_boxes(base_dir: Path | None = None) -> list[Path]:
    """Remove sandbox folders nobody holds any more (their referee was
    killed, even by SIGKILL, before it had started their supervisor, which
    would otherwise have removed them), and control groups left without
    their folder. Runs at every Sandbox creation; never raises for what a
    bot left in a folder (see `removal.remove_tree`)."""
    root = Path(base_dir or tempfile.gettempdir())
    removed: list[Path] = []
    for path in root.glob(BOX_PREFIX + "*"):
        if _abandoned(path):
            remove_tree(str(path))
            removed.append(path)
    _sweep_groups(root)
    return removed


def _abandoned(path: Path) -> bool:
    try:
        fd = os.open(path / ".lock", os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:
        return _older_than(path, STALE_AGE)
    except OSError:
        return False  # another user's sandbox, or gone
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False  # alive
    finally:
        os.close(fd)
    return True


def _sweep_groups(root: Path) -> None:
    """Remove the bots' control groups whose sandbox folder is gone (the
    supervisor removes a group before its folder) and that hold no process."""
    from referee.sandbox.capabilities import hierarchy

    found = hierarchy()
    if found is None:
        return
    for name in cgroups.empty_groups(found):
        folders = found.folder(name)
        if (root / name).exists() or not _older_than(Path(folders[0]), STALE_AGE):
            continue
        try:
            cgroups.TreeGroup(found.version, folders, found.controllers()).remove(timeout=0.0)
        except OSError as exc:
            log.debug("sandbox: stale control group %s stays: %s", name, exc)


def _older_than(path: Path, seconds: float) -> bool:
    try:
        return time.time() - path.stat().st_mtime >= seconds
    except OSError:
        return False


def hold_lock(lock_path: Path) -> int:
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
