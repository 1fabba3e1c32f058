"""Bot command lines: the built-in bots by name, anything else as a command.

`referee play --bot random` and the ladder's roster name built-in bots
("random", "heuristic", "mcts", "mcts:0.05" for MCTS at 0.05 s per decision);
every other spec is a command line (an executable or a script with its
arguments) split as a POSIX shell would, checked to exist before anything is
started so a typo gets one clear line instead of a start-up timeout.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import sys
from pathlib import Path

BUILTIN_BOTS: tuple[str, ...] = ("random", "heuristic", "mcts")
"""Built-in bots, each runnable as `python -m bots.<name>`."""

SETTING_OPTION: dict[str, str] = {"mcts": "--move-time"}
"""The option a built-in's ":VALUE" suffix sets ("mcts:0.05" -> --move-time 0.05)."""


class BotCommandError(ValueError):
    """A bot spec names no built-in bot and no runnable program."""


def resolve_bot_command(spec: str) -> list[str]:
    """The command line that starts the bot named or written in `spec`.

    Raises BotCommandError (a ValueError) with a message saying what is wrong.
    """
    text = spec.strip()
    name, sep, setting = text.partition(":")
    if name in BUILTIN_BOTS:
        return _builtin_command(name, setting if sep else None)
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise BotCommandError(f"cannot read bot command {spec!r}: {exc}") from None
    if not words:
        raise BotCommandError("empty bot command: give a built-in name "
                              f"({', '.join(BUILTIN_BOTS)}) or a command line")
    return _program_command(words)


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
        if float(setting) <= 0:
            raise ValueError
    except ValueError:
        raise BotCommandError(f"{name}:{setting}: the setting must be a positive number of seconds") from None
    return [*command, option, setting]


def _program_command(words: list[str]) -> list[str]:
    """Check the program exists and name it by its absolute path; a Python
    script that is not executable runs under this interpreter, so
    `--bot my_bot.py` works without a chmod."""
    program = words[0]
    if os.sep not in program and not program.startswith("."):
        if shutil.which(program) is None:
            raise BotCommandError(f"bot command {program!r} not found on PATH "
                                  f"(built-in bots: {', '.join(BUILTIN_BOTS)})")
        return words
    path = Path(program)
    if not path.is_file():
        raise BotCommandError(f"bot program {program} does not exist")
    # Absolute: a bot runs in its own private working folder (referee.sandbox).
    words = [str(path.resolve()), *words[1:]]
    if os.access(path, os.X_OK):
        return words
    if path.suffix == ".py":
        return [sys.executable, *words]
    raise BotCommandError(f"bot program {program} is not executable (chmod +x {program})")
