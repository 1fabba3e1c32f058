"""Bots named on `referee play`'s command line by what the ladder knows:
a bot folder with a `bot.toml` (the same folder `referee submit` takes),
or the name of a bot registered in a store. `resolve` is the ladder's
resolver of --bot specs (the `bot_referee.bot_specs` entry point,
pyproject.toml; referee/cli/play.py asks it), so the referee names no
ladder module.

So a bot author plays the very thing they will submit, and anyone can
replay a ladder bot against others without digging out its command. Both
give a `referee.builtins.BotCommand`: the command with the folder's files
as absolute paths (without following a last link, so a virtualenv's python
in the folder stays the virtualenv's), and the folder to expose to the
bot's sandbox.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from ladder.intake.roster import PYTHON_NAMES, command_line
from ladder.intake.submission import SubmissionError, read_manifest
from ladder.store.database import Store, StoreError, default_db_path
from referee.builtins import BotCommand, BotCommandError, absolute, resolve_bot


def resolve(spec: str, db_path: Path | None) -> BotCommand | None:
    """The bot `spec` names by what the ladder knows: a bot folder with a
    bot.toml, or a registered bot ("NAME", "NAME@VERSION") of the store at
    `db_path` (default: the default store, if there is one); None when it
    names neither. Raises BotCommandError."""
    if Path(spec).is_dir():
        return folder_bot(Path(spec))
    if spec and not any(char.isspace() or char == "/" for char in spec):
        return registered_bot(spec, db_path)
    return None


def folder_bot(folder: Path) -> BotCommand:
    """The bot of `folder`, started as its bot.toml says: `python` is this
    interpreter, words naming the folder's files are made absolute.
    Raises BotCommandError (a missing or bad bot.toml, a program that is
    not there)."""
    try:
        manifest = read_manifest(folder)
    except SubmissionError as exc:
        raise BotCommandError(str(exc)) from None
    root = Path(os.path.realpath(folder))
    argv = []
    for i, word in enumerate(manifest.command):
        if i == 0 and word in PYTHON_NAMES:
            argv.append(sys.executable)
        elif not Path(word).is_absolute() and os.path.lexists(root / word):
            argv.append(str(absolute(root / word)))
        else:
            argv.append(word)
    program = argv[0]
    if os.sep not in program and shutil.which(program) is None:
        raise BotCommandError(f"{folder / 'bot.toml'}: program {program!r} is neither a file of the folder "
                              "nor on PATH")
    if os.sep in program and not os.path.exists(program):
        raise BotCommandError(f"{folder / 'bot.toml'}: program {manifest.command[0]} does not exist")
    return BotCommand(tuple(argv), label=manifest.name or root.name, expose=(root,), games=manifest.games)


def registered_bot(spec: str, db_path: Path | None) -> BotCommand | None:
    """The registered bot `spec` names ("NAME" for its active version,
    "NAME@VERSION"), or None if the store has no such bot. A missing
    default store is a store without bots; a missing `db_path` is an
    error naming it. The store is only read, never created.
    Raises BotCommandError."""
    name, _, version = spec.strip().partition("@")
    try:
        store = Store(db_path or default_db_path(), create=False)
    except StoreError as exc:
        if db_path is None:
            return None
        raise BotCommandError(str(exc)) from None
    with store:
        versions = store.bot_versions(name)
        chosen = [b for b in versions if (b.version == version if version else b.active)]
        if not chosen:
            if versions and version:
                known = ", ".join(b.version for b in versions)
                raise BotCommandError(f"{name} has no version {version!r} in {store.path}; versions: {known}")
            return None
        bot = chosen[-1]
        if bot.kind == "builtin":
            builtin = resolve_bot(bot.command[0])
            return BotCommand(builtin.argv, label=bot.label, games=bot.games)
        assert bot.folder is not None
        folder = store.root / bot.folder
        return BotCommand(tuple(command_line(bot, store)), label=bot.label, expose=(folder,), games=bot.games)
