"""Which user a bot runs as: a fresh unprivileged uid per sandbox when the
referee is root.

A uid needs no /etc/passwd entry for the kernel to enforce it, so nothing is
added to the system (no `useradd`): each sandbox takes a free uid from a
reserved range (default 61000-61999, inside Debian's 60000-64999 block that
no package allocates from dynamically) and holds it with an flock on
/run/referee-sandbox/uid-N.lock. The lock is shared with the sandbox's
supervisor, so a uid is free again only once every process of it is dead,
even if the referee itself was killed. One uid per bot means: bots cannot
read each other's folders or sockets, RLIMIT_NPROC counts exactly one bot,
and "kill every process of this uid" kills exactly one bot's tree.
"""

from __future__ import annotations

import fcntl
import os
import pwd
import random
from dataclasses import dataclass

LOCK_DIR = "/run/referee-sandbox"


class NoFreeUid(RuntimeError):
    """Every uid of the reserved range is in use."""


@dataclass
class UidLease:
    """A uid held for one sandbox; `lock_fd` must stay open while it is used."""

    uid: int
    lock_fd: int

    def release(self) -> None:
        if self.lock_fd >= 0:
            os.close(self.lock_fd)
            self.lock_fd = -1


def lease_uid(uid_range: tuple[int, int]) -> UidLease:
    """Take a free uid of `uid_range` (root only). Raises NoFreeUid."""
    os.makedirs(LOCK_DIR, mode=0o700, exist_ok=True)
    start, stop = uid_range
    candidates = list(range(start, stop))
    offset = random.randrange(len(candidates))  # concurrent referees rarely collide
    for uid in candidates[offset:] + candidates[:offset]:
        if _has_account(uid):
            continue
        fd = os.open(os.path.join(LOCK_DIR, f"uid-{uid}.lock"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        if _uid_has_processes(uid):
            # A previous owner's tree outlived its lock (its supervisor was
            # SIGKILLed); the uid is ours now, so end those strays first.
            _kill_uid_processes(uid)
        return UidLease(uid, fd)
    raise NoFreeUid(f"no free uid in {start}..{stop - 1} (is another referee using them all?)")


def uid_leased(uid: int) -> bool:
    """True if some sandbox (of any referee on this machine) holds `uid`."""
    try:
        fd = os.open(os.path.join(LOCK_DIR, f"uid-{uid}.lock"), os.O_RDWR | os.O_CLOEXEC)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def resolve_user(name_or_uid: str | int) -> int:
    """The uid of a named user or a numeric uid. Raises KeyError."""
    if isinstance(name_or_uid, int):
        return name_or_uid
    return pwd.getpwnam(name_or_uid).pw_uid


def _has_account(uid: int) -> bool:
    try:
        pwd.getpwuid(uid)
    except KeyError:
        return False
    return True


def _uid_has_processes(uid: int) -> bool:
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.stat(f"/proc/{name}").st_uid == uid:
                    return True
            except OSError:
                continue
    return False


def _kill_uid_processes(uid: int) -> None:
    import psutil

    for _round in range(50):
        victims = [p for p in psutil.process_iter(["uids"]) if p.info["uids"] and p.info["uids"].real == uid]
        if not victims:
            return
        for proc in victims:
            try:
                proc.kill()
            except psutil.Error:
                pass
        psutil.wait_procs(victims, timeout=0.5)
