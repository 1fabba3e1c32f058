"""Containment of untrusted bot processes (docs/security.md).

A submitted bot may try anything a program can: fork without end, eat
memory, spin, leave children behind, reach the network, read the ladder's
files or another bot's, pass notes to another bot, flood its output. Each
bot runs in a jail built by nsjail, Google's isolation tool (`jail.py`):

- PID, mount, network, IPC, UTS and cgroup namespaces: it sees only its own
  processes, has no network at all, shares no IPC object with anyone;
- a read-only root holding only what a bot needs (the system's programs and
  libraries, its interpreter and code), a private working folder and socket
  folder, private tmpfs on /tmp and /dev/shm;
- a seccomp filter (`seccomp.py`): no keyrings, file locks, file watches,
  ptrace, new namespaces or mounts, and a smaller kernel surface;
- its own uid when the referee is root; no capabilities, no new privileges;
- per-process limits (address space, files, file size) and a control group
  per tree (`cgroups.py`, v2 or v1): an equal CPU share and a cap, memory,
  processes;
- a supervisor (`supervisor.py`) that enforces per-match CPU and wall
  budgets, kills the whole tree when the match ends, on forfeit, or when the
  referee dies (even by SIGKILL), and removes everything the bot left
  (`removal.py`, which no link or depth can trip);
- stdout+stderr into a size-capped log the bot never holds (`logpipe.py`);
- its socket verified (SO_PEERCRED) and moved out of its reach before the
  referee connects (`SandboxedProcess.claim_socket`).

Protections the machine lacks are probed once (`capabilities()`), said at
start-up and warned about once, and written into every record;
`SandboxPolicy(strict=True)` refuses to run then. No jail at all is always
refused.

Public API::

    caps = capabilities()                      # Capabilities, probed once; caps.summary()
    policy = SandboxPolicy(limits=Limits(memory_bytes=..., cpu_seconds=...))
    with Sandbox("seat0", policy) as box:      # folders, uid, control group now
        sock = box.socket_path()               # tell the bot where to listen
        proc = box.spawn([exe, "--socket", str(sock)], log_path=log,
                         env={"REFEREE_BOT_SOCKET": str(sock)}, expose=[bot_folder])
        path = proc.claim_socket(sock)         # moved out of the bot's reach, verified
        proc.renew()                           # at each match start: fresh CPU/wall budget
        proc.poll(); proc.wait(timeout); proc.returncode; proc.read_log()
        status = proc.terminate(grace=0.5)     # or proc.kill_tree(); ExitStatus
    # or in one call: proc = spawn(argv, log_path=..., policy=..., env=..., name=...)
    assert not leftovers()                     # nothing of closed sandboxes remains
    sweep_stale_boxes()                        # what referees killed mid-start left (also automatic)
"""

from referee.sandbox.capabilities import Capabilities, capabilities
from referee.sandbox.errors import (
    ExitStatus,
    PeerCredentials,
    PeerMismatch,
    SandboxError,
    SandboxUnavailable,
    SpawnFailed,
)
from referee.sandbox.policy import GiB, Limits, MiB, SandboxPolicy
from referee.sandbox.registry import Leftovers, close_all, leftovers, sweep_stale_boxes
from referee.sandbox.sandbox import Sandbox, spawn
from referee.sandbox.supervised import SandboxedProcess

__all__ = [
    "Capabilities", "ExitStatus", "GiB", "Leftovers", "Limits", "MiB", "PeerCredentials", "PeerMismatch",
    "Sandbox", "SandboxError", "SandboxPolicy", "SandboxUnavailable", "SandboxedProcess", "SpawnFailed",
    "capabilities", "close_all", "leftovers", "spawn", "sweep_stale_boxes",
]
