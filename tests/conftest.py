"""Test-run setup shared by every module."""

from __future__ import annotations

from typing import Any


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """End every test run (also a quiet one) with the sandbox protections
    this machine offers (docs/security.md): a CI log then states what its
    machine gave the hostile-bot tests."""
    from referee.sandbox import capabilities

    terminalreporter.write_line(capabilities().summary())
