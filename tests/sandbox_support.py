"""Helpers for the sandbox tests."""

from __future__ import annotations

from pathlib import Path

from referee.sandbox import SandboxedProcess


def host_pid(proc: SandboxedProcess, ns_pid: int) -> int:
    """The pid, as the referee sees it, of the bot's process that has pid
    `ns_pid` in the bot's own PID namespace (what the bot itself prints)."""
    for pid in proc.members():
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("NSpid:") and line.split()[-1] == str(ns_pid) and len(line.split()) > 2:
                return pid
    raise AssertionError(f"no process of {proc.name} has pid {ns_pid} in its namespace")
