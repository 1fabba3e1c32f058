"""Bot command lines: the built-in bots by name, anything else as a command.

`referee play --bot random` and the ladder's roster name built-in bots
("random", "heuristic", "mcts", "mcts:250ms" for MCTS at 250 ms per
decision); every other spec is a command line (an executable or a script
with its arguments, or an interpreter and its script: `node bot.js`) split
as a POSIX shell would, checked to exist before anything is started so a
typo gets one clear line instead of a start-up timeout.

A bot runs in a jail whose working folder is its own and which holds
little of the machine (docs/protocol.md, "Where a bot runs"): so every
word that names a file here is made an absolute path, and the folders of
the files the command names are exposed to the bot (`BotCommand.expose`).
A path is made absolute without following its last link: a virtualenv's
`bin/python` is a link to the base interpreter, and only when started by
its own path does Python find the virtualenv's packages.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from referee.durations import parse_duration

BUILTIN_BOTS: tuple[str, ...] = ("random", "heuristic", "mcts")
"""Built-in bots, each runnable as `python -m bots.<name>`."""

SETTING_OPTION: dict[str, str] = {"mcts": "--move-time"}
"""The option a built-in's ":VALUE" suffix sets ("mcts:250ms" -> --move-time 0.25)."""


class BotCommandError(ValueError):
    """A bot spec names no built-in bot and no runnable program."""


@dataclass(frozen=True)
class BotCommand:
    """How to start one bot: its command line, a short label for logs and
    tables, and the folders its sandbox must show it besides its program's
    (the script an interpreter runs, a bot's folder)."""

    argv: tuple[str, ...]
    label: str
    expose: tuple[Path, ...] = field(default=())
    games: tuple[str, ...] | None = None
    """The games the bot says it plays (its bot.toml's), if known before it starts."""


def is_builtin(spec: str) -> bool:
    """`spec` names a built-in bot ("random", "mcts:250ms")."""
    return spec.strip().partition(":")[0] in BUILTIN_BOTS


def resolve_bot_command(spec: str) -> list[str]:
    """The command line that starts the bot named or written in `spec`.

    Raises BotCommandError (a ValueError) with a message saying what is wrong.
    """
    return list(resolve_bot(spec).argv)


def resolve_bot(spec: str) -> BotCommand:
    """The built-in bot or the command line written in `spec`, ready to
    start in a sandbox. Raises BotCommandError saying what is wrong."""
    text = spec.strip()
    name, sep, setting = text.partition(":")
    if name in BUILTIN_BOTS:
        return BotCommand(tuple(_builtin_command(name, setting if sep else None)), label=text)
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise BotCommandError(f"cannot read bot command {spec!r}: {exc}") from None
    if not words:
        raise BotCommandError("empty bot command: give a built-in name "
                              f"({', '.join(BUILTIN_BOTS)}) or a command line")
    argv = _program_command(words)
    arguments, expose = _argument_files(argv[1:])
    return BotCommand((argv[0], *arguments), label=Path(words[0]).name, expose=expose)


def absolute(path: str | Path) -> Path:
    """`path` made absolute with every folder on the way resolved but not
    the file itself: a link stays a link (a virtualenv's python), while the
    folder it lies in is named as the jail mounts it (by its real path)."""
    full = Path(os.path.abspath(path))
    return Path(os.path.realpath(full.parent)) / full.name


def _builtin_command(name: str, setting: str | None) -> list[str]:
    module = f"bots.{name}"
    if importlib.util.find_spec(module) is None:
        raise BotCommandError(f"built-in bot {name!r} is not installed (no module {module})")
    command = [sys.executable, "-m", module]
    if setting is None:
        return command
    option = SETTING_OPTION.get(name)
    if option is None:
        raise BotCommandError(f"built-in bot {name!r} takes no ':VALUE' setting")
    try:
        seconds = parse_duration(setting)
    except ValueError as exc:
        raise BotCommandError(f"{name}:{setting}: {exc}") from None
    if seconds <= 0:
        raise BotCommandError(f"{name}:{setting}: the time per decision must be more than 0")
    return [*command, option, f"{seconds:g}"]


def _program_command(words: list[str]) -> list[str]:
    """Check the program exists and name it by its absolute path; a Python
    script that is not executable runs under this interpreter, so
    `--bot my_bot.py` works without a chmod. A bare word is a program on
    PATH, else a file of this folder."""
    program = words[0]
    if os.sep not in program and not program.startswith("."):
        if shutil.which(program) is not None:
            return words
        if not Path(program).is_file():
            raise BotCommandError(f"bot command {program!r} not found on PATH nor in this folder "
                                  f"(built-in bots: {', '.join(BUILTIN_BOTS)})")
    path = Path(program)
    if path.is_dir():
        raise BotCommandError(f"bot program {program} is a folder: give a folder with a bot.toml "
                              "(docs/ladder.md) or the program inside it")
    if not path.is_file():
        raise BotCommandError(f"bot program {program} does not exist")
    # Absolute: a bot runs in its own private working folder (referee.sandbox).
    words = [str(absolute(path)), *words[1:]]
    if os.access(path, os.X_OK):
        return words
    if path.suffix == ".py":
        return [sys.executable, *words]
    raise BotCommandError(f"bot program {program} is not executable (chmod +x {program})")


def _argument_files(arguments: list[str]) -> tuple[list[str], tuple[Path, ...]]:
    """The arguments with each one that names a file or folder here made
    absolute, and the folders to expose for them: `node bot.js` must find
    bot.js from the bot's own working folder, inside a jail that shows only
    what the command names. Options (`-m`, `--seed`) are left alone."""
    out: list[str] = []
    expose: list[Path] = []
    for word in arguments:
        if word.startswith("-") or not os.path.lexists(word):
            out.append(word)
            continue
        path = absolute(word)
        out.append(str(path))
        expose.append(path if path.is_dir() else path.parent)
    return out, tuple(dict.fromkeys(expose))
