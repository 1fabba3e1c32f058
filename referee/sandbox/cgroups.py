"""One control group per bot: its whole process tree gets its share of the
CPU and no more, a memory ceiling and a process ceiling, and its supervisor
reads the tree's CPU time and kills it whole.

Per-process limits (setrlimit) cannot do this: a bot that forks 40 spinners,
each in a session of its own, used to take 40 slices of the CPU from its
opponents, and 128 processes of 2 GiB address space each could together
reach far past any sensible memory limit. A cgroup counts the tree, however
it forks.

Two kernel interfaces, both supported, and which one is in force is said at
start-up (`describe`) and in every match record:

- **cgroup v2** (one hierarchy; most organisers' hosts): `cpu.weight` (equal
  for every bot), `cpu.max` (at most `Limits.cpu_cores` cores), `memory.max`,
  `pids.max`; `cpu.stat` for the CPU used, `memory.peak`, `cgroup.kill`.
- **cgroup v1** (a hierarchy per controller; these machines): `cpu.shares`,
  `cpu.cfs_quota_us`, `memory.limit_in_bytes`, `pids.max`; `cpuacct.usage`,
  `memory.max_usage_in_bytes`.

Each bot's group is made below the referee's own group in each hierarchy, so
whatever the machine already accounts to the referee (a memory limit on the
whole service, say) still covers its bots. v2 needs the controllers enabled
for the referee's group (`cgroup.subtree_control`; under systemd, a service
or scope with `Delegate=yes`); without them v1 is tried, and without either
the sandbox says so and falls back to per-process limits.

Standard library only: the supervisor (`supervisor.py`) imports it too.
"""

from __future__ import annotations

import os
import signal
import time

PREFIX = "referee-box-"
"""Name prefix of the bots' groups (the same as their sandbox folders)."""

CPU_PERIOD_US = 100_000
"""The quota period of cpu.max / cpu.cfs_period_us: 100 ms, the kernel's default."""

V2_CONTROLLERS = ("cpu", "memory", "pids")
V1_CONTROLLERS = ("cpu", "cpuacct", "memory", "pids")


class Hierarchy:
    """Where bots' groups are made: for v2 one folder, for v1 one folder per
    controller (the referee's own group in each). (Plain classes here, not
    dataclasses: importing dataclasses would cost the supervisor's start
    about 11 ms.)"""

    def __init__(self, version: str, parents: tuple[tuple[str, str], ...]) -> None:
        self.version = version
        """"v2" or "v1"."""
        self.parents = parents
        """(controller, folder) pairs; for v2 a single ("", folder)."""

    def folder(self, name: str) -> tuple[str, ...]:
        """The folders of the group called `name` (one per hierarchy)."""
        return tuple(os.path.join(parent, name) for _controller, parent in self._distinct())

    def controllers(self) -> tuple[str, ...]:
        """The controller of each of `folder`'s folders ("" for v2's one)."""
        return tuple(controller for controller, _parent in self._distinct())

    def _distinct(self) -> list[tuple[str, str]]:
        seen: set[str] = set()
        unique = []
        for controller, parent in self.parents:
            if parent not in seen:
                seen.add(parent)
                unique.append((controller, parent))
        return unique

    def describe(self) -> str:
        where = ", ".join(parent for _controller, parent in self._distinct())
        return f"cgroup {self.version} ({where})"


def detect(mountinfo: str = "/proc/self/mountinfo", own: str = "/proc/self/cgroup") -> Hierarchy | None:
    """The hierarchy bots' groups can be made in, or None. v2 wins when it
    has the cpu, memory and pids controllers for the referee's group; v1 is
    used when every one of its controllers is mounted and writable."""
    mounts = _mounts(mountinfo)
    paths = _own_paths(own)
    v2 = _v2(mounts, paths)
    return v2 if v2 is not None else _v1(mounts, paths)


def _mounts(mountinfo: str) -> list[tuple[str, str, set[str]]]:
    """(fstype, mount point, super options) of every cgroup mount."""
    found = []
    try:
        with open(mountinfo) as handle:
            lines = handle.read().splitlines()
    except OSError:
        return []
    for line in lines:
        left, _sep, right = line.partition(" - ")
        fields, tail = left.split(), right.split()
        if len(fields) >= 5 and len(tail) >= 3 and tail[0] in ("cgroup", "cgroup2"):
            found.append((tail[0], fields[4], set(tail[2].split(","))))
    return found


def _own_paths(own: str) -> dict[str, str]:
    """controller -> the referee's group path ("" for v2's)."""
    paths: dict[str, str] = {}
    try:
        with open(own) as handle:
            lines = handle.read().splitlines()
    except OSError:
        return paths
    for line in lines:
        _hid, controllers, path = line.split(":", 2)
        for controller in controllers.split(","):
            paths[controller] = path
    return paths


def _v2(mounts: list[tuple[str, str, set[str]]], paths: dict[str, str]) -> Hierarchy | None:
    mount = next((point for fstype, point, _opts in mounts if fstype == "cgroup2"), None)
    if mount is None or "" not in paths:
        return None
    parent = os.path.join(mount, paths[""].lstrip("/"))
    available = _words(os.path.join(parent, "cgroup.controllers"))
    if not set(V2_CONTROLLERS) <= available or not os.access(parent, os.W_OK):
        return None
    enabled = _words(os.path.join(parent, "cgroup.subtree_control"))
    if not set(V2_CONTROLLERS) <= enabled:
        try:
            _write(os.path.join(parent, "cgroup.subtree_control"), " ".join(f"+{c}" for c in V2_CONTROLLERS))
        except OSError:
            return None  # e.g. processes in a non-root group: needs delegation
    return Hierarchy("v2", (("", parent),))


def _v1(mounts: list[tuple[str, str, set[str]]], paths: dict[str, str]) -> Hierarchy | None:
    parents = []
    for controller in V1_CONTROLLERS:
        point = next((p for fstype, p, opts in mounts if fstype == "cgroup" and controller in opts), None)
        if point is None or controller not in paths:
            return None
        parent = os.path.join(point, paths[controller].lstrip("/"))
        if not os.access(parent, os.W_OK):
            return None
        parents.append((controller, parent))
    return Hierarchy("v1", tuple(parents))


class TreeGroup:
    """The control group of one bot's process tree (its folders, one per
    hierarchy). Made by the referee (`create`), entered by the supervisor's
    child just before it becomes the jail (`attach`), read and killed by the
    supervisor, removed when the tree is gone."""

    def __init__(self, version: str, folders: tuple[str, ...], controllers: tuple[str, ...] = ()) -> None:
        self.version = version
        self.folders = folders
        self.controllers = controllers
        """v1: the controller of each folder (its files are named after it)."""

    @classmethod
    def create(cls, hierarchy: Hierarchy, name: str, *, cpu_cores: float | None,
               memory_bytes: int | None, max_processes: int | None) -> "TreeGroup":
        """Make the group and set its limits. Raises OSError."""
        group = cls(hierarchy.version, hierarchy.folder(name), hierarchy.controllers())
        for folder in group.folders:
            os.mkdir(folder, 0o755)
        try:
            group._limit(cpu_cores, memory_bytes, max_processes)
        except BaseException:
            group.remove()
            raise
        return group

    def _limit(self, cpu_cores: float | None, memory_bytes: int | None, max_processes: int | None) -> None:
        quota = "max" if cpu_cores is None else str(max(1000, int(cpu_cores * CPU_PERIOD_US)))
        if self.version == "v2":
            self._set("cpu.weight", "100")
            self._set("cpu.max", f"{quota} {CPU_PERIOD_US}")
            self._set("memory.max", "max" if memory_bytes is None else str(memory_bytes))
            self._set("memory.swap.max", "0", optional=True)
            self._set("pids.max", "max" if max_processes is None else str(max_processes))
        else:
            self._set("cpu.shares", "1024")
            self._set("cpu.cfs_period_us", str(CPU_PERIOD_US))
            self._set("cpu.cfs_quota_us", "-1" if cpu_cores is None else quota)
            if memory_bytes is not None:
                self._set("memory.limit_in_bytes", str(memory_bytes))
                self._set("memory.memsw.limit_in_bytes", str(memory_bytes), optional=True)
            self._set("pids.max", "max" if max_processes is None else str(max_processes))

    def attach(self, pid: int = 0) -> None:
        """Move process `pid` (0: the caller) into the group; its children
        are born in it."""
        for folder in self.folders:
            _write(os.path.join(folder, "cgroup.procs"), str(pid or os.getpid()))

    def cpu_seconds(self) -> float:
        """CPU time of every process that ever ran in the group."""
        if self.version == "v2":
            for line in _lines(self._file("cpu.stat")):
                key, _sep, value = line.partition(" ")
                if key == "usage_usec":
                    return int(value) / 1e6
            return 0.0
        text = _read(self._file("cpuacct.usage"))
        return int(text) / 1e9 if text else 0.0

    def memory_peak(self) -> int:
        """The group's highest memory use in bytes (0 if the kernel does not say)."""
        name = "memory.peak" if self.version == "v2" else "memory.max_usage_in_bytes"
        text = _read(self._file(name))
        return int(text) if text and text.isdigit() else 0

    def oom_kills(self) -> int | None:
        """How many of the group's processes the kernel's OOM killer ended
        for passing the group's memory limit (0 if the kernel does not
        say); None once the group is removed."""
        path = self._file("memory.events" if self.version == "v2" else "memory.oom_control")
        if not os.path.isdir(os.path.dirname(path)):
            return None
        for line in _lines(path):
            key, _sep, value = line.partition(" ")
            if key == "oom_kill" and value.isdigit():
                return int(value)
        return 0

    def pids(self) -> list[int]:
        """Every process in the group now."""
        found: set[int] = set()
        for folder in self.folders:
            found.update(int(word) for word in _lines(os.path.join(folder, "cgroup.procs")) if word.isdigit())
        return sorted(found)

    def kill(self, timeout: float = 10.0) -> bool:
        """SIGKILL every process in the group until none is left (v2's
        cgroup.kill does it in one step, immune to a fork bomb; v1 repeats,
        and pids.max bounds what a fork bomb can add). True if it emptied."""
        kill_file = self._file("cgroup.kill")
        deadline = time.monotonic() + timeout
        while True:
            members = self.pids()
            if not members:
                return True
            if self.version == "v2" and os.path.exists(kill_file):
                _write(kill_file, "1")
            for pid in members:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)

    def remove(self, timeout: float = 2.0) -> None:
        """Remove the group's folders (once its processes are gone; a dying
        process leaves it a moment after SIGKILL, so EBUSY is retried)."""
        deadline = time.monotonic() + timeout
        for folder in self.folders:
            while True:
                try:
                    os.rmdir(folder)
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.005)

    def _file(self, name: str) -> str:
        """The file `name` in the folder of its controller (v1: "memory.max_usage_in_bytes"
        is the memory hierarchy's), or in the group's one folder (v2)."""
        controller = name.split(".")[0]
        for folder, owner in zip(self.folders, self.controllers):
            if owner == controller:
                return os.path.join(folder, name)
        return os.path.join(self.folders[0], name)

    def _set(self, name: str, value: str, optional: bool = False) -> None:
        path = self._file(name)
        if optional and not os.path.exists(path):
            return
        try:
            _write(path, value)
        except OSError:
            if not optional:
                raise


def empty_groups(hierarchy: Hierarchy) -> list[str]:
    """Names of the bots' groups that hold no process: stale ones (their
    referee and supervisor were killed before removing them), or one just
    made whose bot has not started yet (the caller tells them apart)."""
    names: set[str] = set()
    for _controller, parent in hierarchy.parents:
        try:
            entries = os.listdir(parent)
        except OSError:
            continue
        names.update(entry for entry in entries if entry.startswith(PREFIX))
    return sorted(name for name in names
                  if not TreeGroup(hierarchy.version, hierarchy.folder(name), hierarchy.controllers()).pids())


def _words(path: str) -> set[str]:
    return set(_read(path).split())


def _lines(path: str) -> list[str]:
    return _read(path).splitlines()


def _read(path: str) -> str:
    try:
        with open(path) as handle:
            return handle.read().strip()
    except OSError:
        return ""


def _write(path: str, value: str) -> None:
    with open(path, "w") as handle:
        handle.write(value)
