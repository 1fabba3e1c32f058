"""What nsjail says about the bot it ran: its log, read by the supervisor.

nsjail writes its own log to a descriptor of its own (`LOG_FD`, its
--log_fd), apart from the bot's output: a line when the bot's program could
not be executed, a line with the bot's exit status or signal, and error
lines when the jail could not be built. The supervisor turns them into the
exit report the referee gets.

Standard library only, and nothing slow to import (no re-parsing helpers
beyond `re`, no dataclasses): the supervisor imports it at every bot start.
"""

from __future__ import annotations

import errno
import os
import re
import signal

LOG_FD = 3
"""The descriptor nsjail writes its own log to in the sandbox."""

_EXITED = re.compile(r"exited with status: (-?\d+)")
_SIGNALLED = re.compile(r"terminated with signal: \w+ \((\d+)\)")
_EXEC_FAILED = re.compile(r"execve\('(.*)'\) failed: (.*)$")
_ERRNO_BY_TEXT = {os.strerror(code): code for code in errno.errorcode}


class JailReport:
    """What nsjail said about its one process."""

    def __init__(self, returncode: int | None = None, exec_errno: int | None = None, exec_message: str = "") -> None:
        self.returncode = returncode
        """The bot's exit code, negative for a signal (as subprocess says
        it); None if nsjail did not say (it was killed itself)."""
        self.exec_errno = exec_errno
        """Set when the program could not be executed in the jail."""
        self.exec_message = exec_message


def read_report(log: str) -> JailReport:
    """Parse nsjail's log for the bot's end."""
    report = JailReport()
    for line in log.splitlines():
        if failed := _EXEC_FAILED.search(line):
            report.exec_message = f"{failed.group(1)}: {failed.group(2)}"
            report.exec_errno = _ERRNO_BY_TEXT.get(failed.group(2).strip(), errno.ENOEXEC)
        elif exited := _EXITED.search(line):
            report.returncode = int(exited.group(1))
        elif signalled := _SIGNALLED.search(line):
            report.returncode = -int(signalled.group(1))
    if report.exec_errno is not None and report.returncode == -signal.SIGKILL:
        report.returncode = None  # nsjail kills its child when the exec fails: not the bot's end
    return report


def failed_setup(log: str) -> str | None:
    """nsjail's own error when it could not build the jail (a mount, a
    namespace the kernel refuses), or None."""
    for line in log.splitlines():
        if line.startswith(("[E]", "[F]")) and "execve(" not in line:
            return line.split("] ", 1)[-1].strip()
    return None
