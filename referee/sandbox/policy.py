"""What a sandbox allows a bot: resource limits and the protections asked for.

Plain frozen values, so a policy can be written into a match record and
compared. The defaults suit a warm bot process that lives through a whole
ladder run (many matches, a few minutes of CPU), not a single decision: the
per-decision time is the referee's own timer, these are the backstops.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

MiB = 1024 * 1024
GiB = 1024 * MiB


@dataclass(frozen=True)
class Limits:
    """Resource limits: per process (setrlimit, applied by the jail and
    inherited by everything the bot starts), per tree (its control group),
    and the supervisor's per-match CPU and wall-clock budgets.

    `None` means "no limit" for that resource.
    """

    memory_bytes: int | None = 2 * GiB
    """Address space of each process (RLIMIT_AS): a process that asks for
    more gets an allocation failure it can report (Python's MemoryError).
    gRPC's threads reserve stacks and malloc arenas, so a healthy Python bot
    needs a few hundred MiB of address space."""

    tree_memory_bytes: int | None = 2 * GiB
    """Memory of the bot's whole tree, all its processes together (its
    control group's memory.max): past it the kernel's OOM killer ends a
    process of the tree, never another bot's."""

    cpu_cores: float | None = 1.0
    """CPU the bot's whole tree may use at once, in cores (its control
    group's cpu.max), on top of an equal share (cpu.weight) with every other
    bot: a bot that forks 40 spinners still gets one core, not 40 slices."""

    cpu_seconds: float | None = 3600.0
    """CPU time of the bot's whole tree, all its processes together, checked
    by its supervisor every second (SIGKILL when spent; not
    RLIMIT_CPU, which counts one process and which only a root with
    CAP_SYS_RESOURCE — not ours here — could raise for the next match).
    Counted from the start or from the last `SandboxedProcess.renew()`,
    which the referee calls at each match start."""

    max_processes: int | None = 128
    """Processes and threads of the bot's tree (its control group's
    pids.max, and RLIMIT_NPROC, which the kernel counts per user: exact when
    each bot runs as its own user, see `SandboxPolicy.run_as`; otherwise it
    is added to the count the referee's user already has)."""

    open_files: int | None = 256
    """Open file descriptors (RLIMIT_NOFILE)."""

    file_size_bytes: int | None = 64 * MiB
    """Largest file the bot may write (RLIMIT_FSIZE)."""

    wall_seconds: float | None = 4 * 3600.0
    """Wall-clock life of the bot process, enforced by its supervisor;
    restarted by `SandboxedProcess.renew()`."""

    tmpfs_bytes: int = 64 * MiB
    """Size of each private tmpfs (/tmp and /dev/shm); it is memory, so it
    is small."""

    log_bytes: int = 1 * MiB
    """Bytes of stdout+stderr kept per bot process and per log file: past
    it a process's output is read and discarded (so the bot never blocks on
    a full pipe), and a log file about to pass it is rotated to `.1`, so a
    bot restarted with the same log keeps at most about twice this
    (`logpipe.py`)."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SandboxPolicy:
    """The protections a sandbox applies. Each one the machine cannot give is
    logged once as a warning and reported by `capabilities()`; with
    `strict=True` spawning fails instead (SandboxUnavailable)."""

    limits: Limits = field(default_factory=Limits)

    isolate_network: bool = True
    """Run the bot in its own network namespace: no interface but a
    loopback that is down, so TCP/UDP out and to localhost fail; its Unix
    socket, a filesystem path, still works. (The other namespaces, the
    read-only root and the seccomp filter are not optional.)"""

    run_as: str | int = "auto"
    """Whom the bot runs as. "auto": when the referee is root, a fresh
    unprivileged uid per sandbox (no /etc/passwd entry needed), else the
    referee's own user. "self": always the referee's user. An int uid or a
    user name: that user (shared by every bot using it: weaker)."""

    expose_interpreter: bool = True
    """Bind this Python's installation (and its virtual environment) into
    the jail, read-only, so Python bots run; the jail's root holds nothing
    else but the system's programs and libraries."""

    expose: tuple[str, ...] = ()
    """More paths every bot may read (bound in read-only)."""

    uid_range: tuple[int, int] = (61000, 62000)
    """Uids [start, stop) reserved for "auto" sandboxes on this machine."""

    path: str = "/usr/local/bin:/usr/bin:/bin"
    """PATH given to the bot unless the caller's env sets one."""

    strict: bool = False
    """Fail instead of warning when a requested protection is unavailable."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)
