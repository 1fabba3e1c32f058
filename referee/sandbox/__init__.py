"""Containment of untrusted bot processes (issue 6; docs/security.md).

A submitted bot may try anything a program can: fork without end, eat
memory, spin, leave children behind, reach the network, read the ladder's
files or another bot's, flood its output. Each bot runs in a sandbox:

- its own session and process group under a small supervisor (a child
  subreaper) that kills and reaps the whole tree when the match ends, on
  forfeit, when the bot's main process exits, or when the referee exits for
  any reason (even SIGKILL: the supervisor watches it through a pidfd);
- resource limits (setrlimit in the bot before exec: address space, CPU
  time, processes/threads, open files, file size, no core dumps) and a
  wall-clock watchdog in the supervisor;
- a private, empty working folder (HOME and TMPDIR) and a socket folder,
  removed afterwards; a scrubbed environment; stdin from /dev/null;
  stdout+stderr through a pipe into a size-capped log the bot never holds;
- its own network and IPC namespaces (loopback down: no TCP/UDP, not even
  to localhost; its Unix socket still works), and a private /proc that shows
  only its own processes, and private /tmp, /var/tmp, /dev/shm, /run/lock;
- when the referee is root, a uid of its own (no account is created), so it
  cannot read the referee's files, other bots' folders or sockets, and
  everything of that uid can be killed at once;
- peer verification: SO_PEERCRED on the bot's socket must name a process of
  the bot's tree (and its uid).

Protections the machine lacks are probed once (`capabilities()`), warned
about once, and reported; `SandboxPolicy(strict=True)` refuses to run then.

Public API::

    caps = capabilities()                      # Capabilities, probed once
    policy = SandboxPolicy(limits=Limits(memory_bytes=..., cpu_seconds=...))
    with Sandbox("seat0", policy) as box:      # folders (+ uid) now
        sock = box.socket_path()               # tell the bot where to listen
        proc = box.spawn([exe, "--socket", str(sock)], log_path=log,
                         env={"REFEREE_BOT_SOCKET": str(sock)})
        proc.verify_socket(sock)               # PeerCredentials or PeerMismatch
        proc.renew()                           # at each match start: fresh CPU/wall budget
        proc.poll(); proc.wait(timeout); proc.returncode; proc.read_log()
        status = proc.terminate(grace=0.5)     # or proc.kill_tree(); ExitStatus
    # or in one call: proc = spawn(argv, log_path=..., policy=..., env=..., name=...)
    assert not leftovers()                     # nothing of closed sandboxes remains
    sweep_stale_boxes()                        # folders of referees killed mid-start (also automatic)
"""

from referee.sandbox.capabilities import Capabilities, capabilities
from referee.sandbox.policy import GiB, Limits, MiB, SandboxPolicy
from referee.sandbox.sandbox import (
    ExitStatus,
    Leftovers,
    PeerCredentials,
    PeerMismatch,
    Sandbox,
    SandboxedProcess,
    SandboxError,
    SandboxUnavailable,
    SpawnFailed,
    close_all,
    leftovers,
    spawn,
    sweep_stale_boxes,
)

__all__ = [
    "Capabilities", "ExitStatus", "GiB", "Leftovers", "Limits", "MiB", "PeerCredentials", "PeerMismatch",
    "Sandbox", "SandboxError", "SandboxPolicy", "SandboxUnavailable", "SandboxedProcess", "SpawnFailed",
    "capabilities", "close_all", "leftovers", "spawn", "sweep_stale_boxes",
]
