"""The system calls a bot may not make: a seccomp-bpf filter, written in
Kafel (nsjail's policy language) and compiled by nsjail as it starts the jail.

Namespaces already keep a bot from another's network, IPC, processes and
files; this filter closes what no namespace covers, and shrinks the kernel
surface a bot can reach. Every rule says what it stops; everything else is
allowed (a bot may be written in any language, so an allow-list would break
runtimes we never tried). Denied calls fail with an error code, never kill:
a runtime that probes a feature (Python's os module, the JVM) carries on.
"""

from __future__ import annotations

EPERM = 1
ENOLCK = 37
ENOSYS = 38

KEYRINGS = ("keyctl", "add_key", "request_key")
"""Kernel keyrings: no namespace covers them, so two bots of one author
passed their roles and hands through keys readable by all, which also
outlived the match."""

WATCHES = ("inotify_init", "inotify_init1", "fanotify_init")
"""File watches: bots share read-only files (the interpreter, the SDK), and a
watch on one reports every other process's opening and reading of it."""

PROBES = ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "perf_event_open")
"""Looking into other processes (the PID namespace hides them too) or at the
CPU's counters (a timing side channel)."""

KERNEL_SURFACE = (
    "bpf", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "mount", "umount", "pivot_root", "chroot", "unshare", "setns", "open_by_handle_at",
    "name_to_handle_at", "swapon", "swapoff", "reboot", "kexec_load", "kexec_file_load",
    "init_module", "finit_module", "delete_module", "acct", "quotactl", "syslog",
    "settimeofday", "clock_settime", "clock_adjtime", "adjtimex", "iopl", "ioperm",
    "vhangup", "lookup_dcookie",
)
"""Calls no game bot needs and kernel exploits favour (new namespaces,
mounts, eBPF, io_uring, modules, clock and machine control)."""

LOCK_COMMANDS = {"F_GETLK": 5, "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37,
                 "F_OFD_SETLKW": 38}
"""fcntl's record locks. Two bots exchanged whole hands through byte-range
read locks on a file both could read (F_GETLK shows another process's
locks); flock() leaks a bit per try the same way. Locks fail with ENOLCK
("no locks available"), which runtimes treat as "locking unsupported"."""

NEW_NAMESPACE_FLAGS = 0x7E020000
"""CLONE_NEWNS | NEWCGROUP | NEWUTS | NEWIPC | NEWUSER | NEWPID | NEWNET:
clone() may make threads and processes, not namespaces."""


def policy() -> str:
    """The Kafel policy text passed to nsjail (`--seccomp_string`)."""
    denied = ", ".join((*KEYRINGS, *WATCHES, *PROBES, *KERNEL_SURFACE))
    locks = " || ".join(f"cmd == {number}" for number in LOCK_COMMANDS.values())
    return (
        "POLICY bot {"
        f" ERRNO({EPERM}) {{ {denied}, clone(flags) {{ (flags & {NEW_NAMESPACE_FLAGS:#x}) != 0 }} }},"
        f" ERRNO({ENOLCK}) {{ flock, fcntl(fd, cmd) {{ {locks} }} }},"
        f" ERRNO({ENOSYS}) {{ clone3 }}"  # clone3's flags are in memory a filter cannot read: glibc falls back to clone
        " } USE bot DEFAULT ALLOW"
    )
