"""The process table as /proc shows it: who is whose parent, which session,
which user, and how much CPU a tree used.

Standard library only: the supervisor (`supervisor.py`) uses it too, for
the tree's CPU time where no control group counts it, and the referee for
the members of a sandbox.
"""

from __future__ import annotations

import os

Table = dict[int, tuple[int, int, int]]
"""pid -> (parent pid, session id, owner uid)."""


def proc_table() -> Table:
    """Every live process (zombies left out: they are dead, only not yet
    reaped by their parent)."""
    table: Table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                raw = handle.read()
            owner = os.stat(f"/proc/{name}").st_uid
        except OSError:
            continue  # it ended while we looked
        fields = raw[raw.rindex(b")") + 2 :].split()
        if fields[0] not in (b"Z", b"X"):
            table[int(name)] = (int(fields[1]), int(fields[3]), owner)
    return table


def descendants(root: int, table: Table | None = None) -> list[int]:
    """Pids of every live descendant of `root` (not `root` itself)."""
    table = proc_table() if table is None else table
    children: dict[int, list[int]] = {}
    for pid, (ppid, _sid, _uid) in table.items():
        children.setdefault(ppid, []).append(pid)
    found: list[int] = []
    stack = [root]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def children(pid: int) -> list[int]:
    """Direct children of `pid` (cheap: one file, no scan of /proc)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(word) for word in handle.read().split()]
    except OSError:
        return [child for child, (ppid, _sid, _uid) in proc_table().items() if ppid == pid]


def tree_cpu_seconds(root: int) -> float:
    """CPU time used by the live descendants of `root` and by the children
    they reaped (utime+stime+cutime+cstime)."""
    ticks = os.sysconf("SC_CLK_TCK")
    parents: dict[int, int] = {}
    used: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                raw = handle.read()
        except OSError:
            continue
        fields = raw[raw.rindex(b")") + 2 :].split()
        parents[int(name)] = int(fields[1])
        used[int(name)] = sum(int(value) for value in fields[11:15])
    table = {pid: (ppid, 0, 0) for pid, ppid in parents.items()}
    return sum(used[pid] for pid in descendants(root, table)) / ticks
