"""A sandbox: the place one bot runs in, prepared before it starts.

`Sandbox` makes the bot's folders (a working folder and a socket folder it
owns, and a folder of the referee's that the bot never sees, for its
claimed socket), takes a uid of its own when the referee is root, and makes
its control group, so the caller can tell the bot where its socket goes
before it starts. `Sandbox.spawn` then starts the bot in its jail under its
supervisor and returns the `SandboxedProcess` that owns everything from then
on. `spawn()` does both in one call.
"""

from __future__ import annotations

import errno
import logging
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee.files import safe_label
from referee.sandbox import cgroups, jail, seccomp
from referee.sandbox.capabilities import capabilities, hierarchy, warn_missing
from referee.sandbox.errors import SandboxError, SandboxUnavailable, SpawnFailed
from referee.sandbox.policy import MiB, SandboxPolicy
from referee.sandbox.registry import BOX_PREFIX, hold_lock, sweep_stale_boxes
from referee.sandbox.removal import remove_tree
from referee.sandbox.supervised import SandboxedProcess
from referee.sandbox.users import UidLease, lease_uid, resolve_user

log = logging.getLogger(__name__)




class Sandbox:
    """A private place for one bot: an empty working folder and a socket
    folder (the bot's own, mode 0700), a uid of its own when the referee is
    root, a control group for its tree. Use `spawn` once to start the bot;
    `close` ends everything (also as a context manager).
    """

    def __init__(self, name: str = "bot", policy: SandboxPolicy | None = None,
                 base_dir: Path | None = None) -> None:
        self.name = name
        self.policy = policy or SandboxPolicy()
        self.caps = capabilities(self.policy.uid_range[0])
        self._lease: UidLease | None = None
        self.unavailable: list[str] = []
        """Protections the policy asked for that this machine could not give."""
        self.process: SandboxedProcess | None = None
        self.group: cgroups.TreeGroup | None = None
        self._closed = False
        self._box_lock = -1
        if not self.caps.jail:
            self._missing("jail", "nsjail cannot build a jail here (no namespaces?): bots cannot run safely",
                          fatal=True)
        self.uid: int | None = self._choose_user()
        try:
            sweep_stale_boxes(base_dir)
            self.box_dir = Path(tempfile.mkdtemp(prefix=f"{BOX_PREFIX}{safe_label(name)}-", dir=base_dir))
            self._box_lock = hold_lock(self.box_dir / ".lock")
            self.workdir = self.box_dir / "work"
            self.socket_dir = self.box_dir / "sock"
            self.referee_dir = self.box_dir / "referee"
            """The referee's own folder, never bound into the jail: a claimed
            socket is moved here, out of the bot's reach, and the stand-ins
            of /proc's machine-wide files are written here."""
            for folder in (self.workdir, self.socket_dir, self.referee_dir):
                folder.mkdir(mode=0o700)
            jail.write_proc_stand_ins(str(self.referee_dir), self.policy.limits.tree_memory_bytes)
            if self.uid is not None:
                for folder in (self.workdir, self.socket_dir):
                    os.chown(folder, self.uid, self.uid)
            self.group = self._make_group()
        except BaseException:
            self.close()
            raise

    def socket_path(self, filename: str = "bot.sock") -> Path:
        """Where the bot should create its listening socket."""
        return self.socket_dir / filename

    def protections(self) -> dict[str, Any]:
        """What this sandbox applies, for the match record."""
        return {
            "jail": "nsjail" if self.caps.jail else None,
            "namespaces": ["pid", "mount", "ipc", "uts", "cgroup"] + (["network"] if self.policy.isolate_network
                                                                       else []),
            "seccomp": True,
            "own_uid": self.uid,
            "cgroup": self.group.version if self.group is not None else None,
            "limits": self.policy.limits.as_dict(),
            "unavailable": list(self.unavailable),
        }

    def spawn(self, argv: Sequence[str], *, log_path: Path, env: Mapping[str, str] | None = None,
              expose: Sequence[Path] = ()) -> SandboxedProcess:
        """Start `argv` in this sandbox and return once it runs in its jail.

        The bot's environment is exactly PATH (the policy's), HOME and
        TMPDIR (its working folder), LANG=C.UTF-8, and then `env`. Its
        output goes to `log_path` (appended, capped). `expose`: paths the
        bot must read (its own code, e.g. its folder in the ladder's closed
        store), bound in read-only. Raises SpawnFailed.
        """
        if self.process is not None or self._closed:
            raise SandboxError("a sandbox runs one process; make a new Sandbox")
        self._check_runnable(argv[0])
        spec = self._jail_spec(list(argv), env or {}, expose)
        binary = self.caps.jail_binary
        self.process = SandboxedProcess.start(self, jail.command(binary, spec), argv[0], log_path)
        return self.process

    def _check_runnable(self, program: str) -> None:
        """Refuse a program the bot's own user may not execute (or, for a
        script, read) by its file mode. nsjail makes its exec while still
        privileged, so the kernel would not refuse it: an interpreter would
        start and fail to read the script instead, a less clear error."""
        if self.uid is None or os.sep not in program:
            return
        try:
            info = os.stat(program)
        except OSError:
            return  # the exec in the jail says why
        needed = stat.S_IXOTH | (stat.S_IROTH if _is_script(program) else 0)
        if info.st_uid == self.uid:
            needed <<= 6
        if info.st_mode & needed != needed:
            raise SpawnFailed(errno.EACCES, f"{program}: {os.strerror(errno.EACCES)}")

    def readable(self, extra: Sequence[Path | str] = ()) -> list[str]:
        """Every path bound read-only into the jail besides the system's."""
        wanted: list[str | Path] = [*extra, *self.policy.expose]
        if self.policy.expose_interpreter:
            wanted += [sys.base_prefix, sys.prefix, os.path.dirname(os.path.realpath(sys.executable))]
        return jail.outermost([os.path.realpath(p) for p in wanted if os.path.exists(p)],
                              covered=jail.SYSTEM_FOLDERS)

    def _jail_spec(self, argv: list[str], env: Mapping[str, str], expose: Sequence[Path]) -> jail.JailSpec:
        full_env = {"PATH": self.policy.path, "HOME": str(self.workdir), "TMPDIR": str(self.workdir),
                    "LANG": "C.UTF-8", **env}
        program = shutil.which(argv[0], path=full_env["PATH"]) if os.sep not in argv[0] else argv[0]
        return jail.JailSpec(
            argv=tuple(argv), program=program or argv[0], env=jail.environment(full_env), cwd=str(self.workdir),
            uid=self.uid if self.uid is not None else (0 if self.caps.root else None),
            writable=(str(self.workdir), str(self.socket_dir)), readable=tuple(self.readable(expose)),
            tmpfs_bytes=self.policy.limits.tmpfs_bytes, rlimits=self._rlimits(),
            seccomp_policy=seccomp.policy(), proc_stand_ins=str(self.referee_dir),
            network=not self.policy.isolate_network,
        )

    def _rlimits(self) -> tuple[tuple[str, str], ...]:
        limits = self.policy.limits
        chosen = [("--rlimit_core", "0"), ("--rlimit_cpu", "inf"), ("--rlimit_stack", "soft"),
                  ("--rlimit_as", _mib(limits.memory_bytes)), ("--rlimit_fsize", _mib(limits.file_size_bytes)),
                  ("--rlimit_nofile", "inf" if limits.open_files is None else str(limits.open_files))]
        if limits.max_processes is not None:
            # per-user counter: with the referee's own uid, add what it already runs
            extra = 0 if self.uid is not None else _tasks_of(os.getuid())
            chosen.append(("--rlimit_nproc", str(limits.max_processes + extra)))
        else:
            chosen.append(("--rlimit_nproc", "inf"))
        return tuple(chosen)

    def close(self) -> None:
        """Kill the bot's tree (if started), remove the folders and the
        group, free the uid. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.process is not None:
            self.process.kill_tree()
        if self.group is not None:
            try:
                self.group.kill()
                self.group.remove()
            except OSError as exc:
                log.warning("sandbox %s: its control group stays until the next sweep: %s", self.name, exc)
        if hasattr(self, "box_dir"):
            remove_tree(str(self.box_dir))  # normally the supervisor did it already
        if self._box_lock >= 0:
            os.close(self._box_lock)
        if self._lease is not None:
            self._lease.release()

    def __enter__(self) -> Sandbox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ policy

    def _choose_user(self) -> int | None:
        run_as = self.policy.run_as
        if run_as == "self":
            return None
        if run_as == "auto":
            if self.caps.root and self.caps.switch_user:
                self._lease = lease_uid(self.policy.uid_range)
                return self._lease.uid
            self._missing("switch_user", "bots run as the referee's user and can read what it can")
            return None
        uid = resolve_user(run_as)
        if uid == os.geteuid():
            return None
        if not self.caps.root:
            raise SandboxUnavailable(f"cannot run bots as {run_as!r}: the referee is not root")
        return uid

    def _make_group(self) -> cgroups.TreeGroup | None:
        found = hierarchy()
        if found is None:
            self._missing("cgroup", "a bot's processes are limited one by one, not as a tree: a bot that "
                                    "forks many gets more than its share of the CPU and memory")
            return None
        limits = self.policy.limits
        return cgroups.TreeGroup.create(found, self.box_dir.name, cpu_cores=limits.cpu_cores,
                                        memory_bytes=limits.tree_memory_bytes,
                                        max_processes=limits.max_processes)

    def _missing(self, capability: str, consequence: str, fatal: bool = False) -> None:
        if self.policy.strict or fatal:
            raise SandboxUnavailable(f"{capability} is not available on this machine: {consequence}")
        self.unavailable.append(capability)
        warn_missing(capability, consequence)


def spawn(argv: Sequence[str], *, log_path: Path, policy: SandboxPolicy | None = None,
          env: Mapping[str, str] | None = None, name: str = "bot", base_dir: Path | None = None,
          expose: Sequence[Path] = ()) -> SandboxedProcess:
    """Make a Sandbox and start `argv` in it (see Sandbox.spawn). Closing the
    returned process closes its sandbox. Raises SpawnFailed."""
    box = Sandbox(name, policy, base_dir)
    try:
        return box.spawn(argv, log_path=log_path, env=env, expose=expose)
    except BaseException:
        box.close()
        raise


def _is_script(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(2) == b"#!"
    except OSError:
        return False


def _mib(value: int | None) -> str:
    return "inf" if value is None else str(max(1, value // MiB))


def _tasks_of(uid: int) -> int:
    import psutil

    total = 0
    for proc in psutil.process_iter(["uids", "num_threads"]):
        uids = proc.info["uids"]
        if uids is not None and uids.real == uid:
            total += proc.info["num_threads"] or 1
    return total
