"""The sandbox's own errors and the values it reports."""

from __future__ import annotations

import signal
from dataclasses import dataclass


class SandboxError(Exception):
    """Base of the sandbox's own errors."""


class SpawnFailed(SandboxError, OSError):
    """The bot could not be started (e.g. its executable is missing); an
    OSError with the errno of the failed exec, so callers that catch OSError
    around process creation keep working."""


class SandboxUnavailable(SandboxError):
    """A protection the policy requires is not available here."""


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
    with "exit" and a MemoryError in its log (its address space), or with
    "signal" SIGKILL from the kernel's OOM killer (its tree's memory).
    """

    returncode: int
    reason: str
    cpu_seconds: float
    max_rss_bytes: int
    log_truncated: bool
    oom_kills: int = 0
    """Processes of its tree the kernel's OOM killer ended (its group's
    memory limit), read before the group was removed."""

    def describe(self) -> str:
        """One line for a record or a forfeit message."""
        how = describe_code(self.returncode)
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


def describe_code(code: int) -> str:
    if code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"killed by signal {-code}"
    return f"exit code {code}"
