"""What this machine lets the sandbox do, probed once per referee process.

Each protection is tried for real in a throw-away child of a throw-away
supervisor (`_shim.py --probe`), so the answer is what the kernel permits
here, not what a configuration file claims. A protection a policy asks for
but the machine lacks is logged once as a warning (`warn_missing`) and is
visible in `capabilities().as_dict()`, which the referee writes into match
records.
"""

from __future__ import annotations

import marshal
import logging
import os
import subprocess
import sys
import tempfile
import threading
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SHIM = Path(__file__).with_name("_shim.py")
CGROUP2_MOUNTS = ("/sys/fs/cgroup/unified", "/sys/fs/cgroup")
AUTOGROUP = Path("/proc/sys/kernel/sched_autogroup_enabled")


@dataclass(frozen=True)
class Capabilities:
    """The protections available to sandboxes started by this process."""

    root: bool
    """The referee runs as root (needed for a separate user and a private /proc)."""
    network_namespace: bool
    """A bot can get its own network namespace (as root, or through an
    unprivileged user namespace)."""
    private_mounts: bool
    """A bot can get a mount namespace with a private /proc (only its own
    processes) and private, size-limited /tmp, /var/tmp, /dev/shm, /run/lock."""
    switch_user: bool
    """A bot can run as its own unprivileged uid."""
    subreaper: bool
    """The supervisor can adopt orphaned descendants (PR_SET_CHILD_SUBREAPER)."""
    pidfd: bool
    """The supervisor notices the referee's death at once (else within 0.2 s)."""
    cgroup_v2_writable: bool
    """A cgroup v2 hierarchy could be written (not used yet; recorded for
    memory accounting later)."""
    cpu_share_per_session: bool
    """The scheduler shares CPU time between sessions first (autogroup). A
    bot starts as one session, so its processes share one slice and a fork
    bomb slows its opponents about as much as one spinning process; a bot
    that calls setsid in each process gets a slice each (at most
    `Limits.max_processes` of them)."""

    def missing(self) -> list[str]:
        """Names of the protections that are not available."""
        return [name for name, value in asdict(self).items() if value is False and name != "root"]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        on = [name for name, value in asdict(self).items() if value]
        return "sandbox capabilities: " + (", ".join(on) or "none")


_lock = threading.Lock()
_cached: Capabilities | None = None
_warned: set[str] = set()


def capabilities(probe_uid: int = 61000) -> Capabilities:
    """Probe (once) and return what this machine permits."""
    global _cached
    with _lock:
        if _cached is None:
            _cached = _probe(probe_uid)
            log.info(_cached.summary())
        return _cached


def warn_missing(name: str, consequence: str) -> None:
    """Log, once per process, that protection `name` is unavailable."""
    warn_once(name, f"sandbox: {name} is not available on this machine: {consequence}")


def warn_once(key: str, message: str) -> None:
    """Log `message` as a warning the first time `key` is seen in this process."""
    with _lock:
        if key in _warned:
            return
        _warned.add(key)
    log.warning("%s", message)


def _probe(probe_uid: int) -> Capabilities:
    with tempfile.TemporaryDirectory(prefix="referee-probe-") as probe_dir:
        config = marshal.dumps({"probe": True, "uid": probe_uid if os.geteuid() == 0 else None,
                                "probe_dir": probe_dir})
        try:
            out = subprocess.run([sys.executable, "-I", "-S", str(SHIM)], input=config, capture_output=True,
                                 timeout=30, check=True).stdout
            found = marshal.loads(out)
        except (OSError, subprocess.SubprocessError, ValueError) as exc:
            log.warning("sandbox: capability probe failed (%s); assuming no protection", exc)
            found = {}
    return Capabilities(
        root=os.geteuid() == 0,
        network_namespace=bool(found.get("network_namespace")),
        private_mounts=bool(found.get("private_mounts")),
        switch_user=bool(found.get("switch_user")),
        subreaper=bool(found.get("subreaper")),
        pidfd=bool(found.get("pidfd")),
        cgroup_v2_writable=_cgroup_v2_writable(),
        cpu_share_per_session=_autogroup(),
    )


def _autogroup() -> bool:
    try:
        return AUTOGROUP.read_text().strip() == "1"
    except OSError:
        return False


def _cgroup_v2_writable() -> bool:
    for mount in CGROUP2_MOUNTS:
        if os.path.exists(os.path.join(mount, "cgroup.procs")) and os.path.exists(
            os.path.join(mount, "cgroup.subtree_control")
        ):
            return os.access(mount, os.W_OK)
    return False
