"""What the jail refused a bot, read from how its start failed and from its
own output, each with how to fix it (for `referee check`).

The jail does not log a file a bot could not open: the file is simply not
there (docs/protocol.md, "Where a bot runs"). What tells is the start
failure (nsjail's exec of the program failed: its #! interpreter is not in
the jail) and the bot's last lines of output, where runtimes name what they
missed: Python's FileNotFoundError and "No module named", Node's "Cannot
find module" and ENOENT, env's and the shell's "not found", Java's
FileNotFoundException, a resolver or a connect failing for want of a
network. Each such line becomes a `Refusal` naming the path as the author
knows it and the fix: a path relative to the working folder (a fresh empty
folder, not the bot's), a file outside the bot's folder, an interpreter or
package the jail does not have, the network.

Every string quoted from the bot is escaped (referee.untrusted).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from referee.log_tail import last_lines
from referee.sandbox.jail import SYSTEM_FOLDERS, inside
from referee.untrusted import safe_line

LOG_LINES = 200
"""Lines read from the end of a bot's log to look for refusals."""

_Q = "['‘\"`]"
"""An opening or closing quote as runtimes print them (env quotes with ‘’)."""
_QE = "['’\"`]"

_MISSING_FILE = (
    re.compile(rf"No such file or directory: {_Q}(?P<path>[^'’\"`]+){_QE}"),   # Python
    re.compile(rf"ENOENT: no such file or directory, \w+ {_Q}(?P<path>[^'’\"`]+){_QE}"),  # Node
    re.compile(r"FileNotFoundException: (?P<path>\S+) \(No such file or directory\)"),  # Java
    re.compile(rf"Cannot find module {_Q}(?P<path>[/.][^'’\"`]*){_QE}"),  # Node's require of a file
)
_DENIED_FILE = (
    re.compile(rf"Permission denied: {_Q}(?P<path>[^'’\"`]+){_QE}"),
    re.compile(rf"EACCES: permission denied, \w+ {_Q}(?P<path>[^'’\"`]+){_QE}"),
)
_MISSING_PROGRAM = (
    re.compile(rf"env: {_Q}(?P<path>[^'’\"`]+){_QE}: No such file or directory"),
    re.compile(r"^(?:/bin/)?(?:ba|da)?sh: (?:\d+: )?(?P<path>[^:\s]+): (?:command )?not found"),
)
_MISSING_MODULE = re.compile(rf"No module named {_Q}(?P<path>[^'’\"`]+){_QE}")
_MISSING_PACKAGE = re.compile(rf"Cannot find module {_Q}(?P<path>[^/.'’\"`][^'’\"`]*){_QE}")
_NETWORK = re.compile(r"Network is unreachable|ENETUNREACH|Temporary failure in name resolution|EAI_AGAIN"
                      r"|Name or service not known|getaddrinfo ENOTFOUND|Connection refused|ECONNREFUSED")
_EXEC_MISSING = re.compile(r"cannot run '(?P<path>[^']+)': .*No such file or directory")


@dataclass(frozen=True)
class Refusal:
    """One thing the jail did not give the bot."""

    kind: str
    """file, permission, interpreter, module or network."""
    what: str
    fix: str


@dataclass(frozen=True)
class BotPlace:
    """Where the bot's files are: `folder` as the jail shows it (the copy
    that runs), `shown` as its author knows it."""

    folder: Path
    shown: Path

    def name(self, path: str) -> str:
        """`path` as the author knows it (the copy's folder replaced by theirs)."""
        if inside(path, str(self.folder)):
            return str(self.shown / os.path.relpath(path, self.folder))
        return path

    def unstaged(self, text: str) -> str:
        """`text` with every mention of the copy's folder replaced by the author's."""
        return text.replace(str(self.folder), str(self.shown))


def refusals(start_failure: str | None, log: Path | None, place: BotPlace) -> list[Refusal]:
    """Everything the jail refused the bot that its start failure and the
    end of its `log` show, each once, in the order first seen."""
    found: dict[tuple[str, str], Refusal] = {}
    lines = [start_failure] if start_failure else []
    lines += last_lines(log, LOG_LINES) if log is not None else []
    for refusal in _read(lines, place):
        found.setdefault((refusal.kind, refusal.what), refusal)
    return list(found.values())


def _read(lines: Iterable[str], place: BotPlace) -> Iterable[Refusal]:
    for line in lines:
        if exec_failed := _EXEC_MISSING.search(line):
            yield _exec_refusal(exec_failed.group("path"), place)
            continue
        for pattern in _MISSING_PROGRAM:
            if missing := pattern.search(line):
                yield _program_refusal(missing.group("path"))
        if module := _MISSING_MODULE.search(line):
            yield Refusal("module", f"the package {safe_line(module.group('path'))} is not there", (
                "`python` in bot.toml is the referee's Python, with gRPC and the bot SDKs only: install what "
                "else the bot imports into its folder (pip install --target vendor PACKAGE) and put vendor on "
                "sys.path"))
        if package := _MISSING_PACKAGE.search(line):
            yield Refusal("module", f"the package {safe_line(package.group('path'))} is not there", (
                "install it into the bot's folder (npm install in the folder: node_modules goes with the bot)"))
        for pattern in _MISSING_FILE:
            if missing := pattern.search(line):
                yield _file_refusal("file", missing.group("path"), place)
        for pattern in _DENIED_FILE:
            if denied := pattern.search(line):
                yield _file_refusal("permission", denied.group("path"), place)
        if _NETWORK.search(line):
            yield Refusal("network", "the bot tried the network", (
                "a bot has no network, not even localhost (its socket is a file path): keep everything it "
                "needs in its folder"))


def _file_refusal(kind: str, path: str, place: BotPlace) -> Refusal:
    shown = safe_line(place.name(path))
    if kind == "permission":
        return Refusal(kind, f"{shown} could not be opened (permission denied)", (
            "the bot runs under a user of its own and sees everything read-only: write only to its "
            "working folder, $TMPDIR or /tmp, and make its files readable by all (chmod -R a+rX)"))
    if not os.path.isabs(path):
        return Refusal(kind, f"{shown} was not found: a path relative to the working folder", (
            "the working folder is a fresh empty folder, not the bot's: open the bot's files by its "
            "program's path (Path(__file__).parent / NAME in Python, path.join(__dirname, NAME) in Node)"))
    if inside(path, str(place.folder)):
        return Refusal(kind, f"{shown} is not in the bot's folder", (
            "add it to the folder (links out of the folder are refused; mind the size limits)"))
    return Refusal(kind, f"{shown} is outside the bot's folder, which the jail does not show", (
        "the jail shows the system's /usr and /lib, a few files of /etc and the bot's own folder, "
        "nothing else: copy what the bot reads into its folder and open it from there"))


def _program_refusal(program: str) -> Refusal:
    return Refusal("interpreter", f"the program {safe_line(program)} is not on the jail's PATH", (
        "the jail's PATH is /usr/local/bin:/usr/bin:/bin of the system: start the bot with an "
        "interpreter installed there (python3, node, java), or `python` in bot.toml for the referee's "
        "Python"))


def _exec_refusal(program: str, place: BotPlace) -> Refusal:
    """The jail could not execute the program although the file exists: its
    #! interpreter (or a compiled program's loader) is not in the jail."""
    shown = safe_line(place.name(program))
    interpreter = _shebang(program)
    if interpreter is None:
        return Refusal("interpreter", f"{shown} could not be executed in the jail", (
            "a compiled program must be linked statically or against the system's libraries "
            "(/usr/lib, /lib): the jail has no others"))
    where = "is not in the jail" if os.path.exists(interpreter) else "does not exist"
    if os.path.exists(interpreter) and any(inside(interpreter, folder) for folder in SYSTEM_FOLDERS):
        where = "could not be executed in the jail"
    return Refusal("interpreter", f"{shown}'s #! line names {safe_line(interpreter)}, which {where}", (
        "name an interpreter of the system's /usr/bin (#!/usr/bin/env python3, #!/usr/bin/env node), "
        "or write the command in bot.toml (`python bot.py` runs the referee's Python)"))


def _shebang(program: str) -> str | None:
    """The interpreter a script's #! line names, or None for another file."""
    try:
        with open(program, "rb") as file:
            first = file.readline(256)
    except OSError:
        return None
    if not first.startswith(b"#!"):
        return None
    words = first[2:].decode(errors="replace").split()
    return words[0] if words else None
