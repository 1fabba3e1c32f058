"""The built-in roster and how a registered bot's command line is built.

The built-in bots (random, heuristic, MCTS at two thinking times) are
registered like any submitted bot, so they are rated and shown the same way.
Their version is a hash of the bots package's source and the bot's spec:
a change to a built-in bot's code makes it a new version with a fresh
rating, just as a resubmitted changed bot would be.

A submitted bot's command is stored relative to its folder in the store
(the store can move); `python` / `python3` as the first word mean the
interpreter running the ladder, so a Python bot can use the bot SDK
installed with it.
"""

from __future__ import annotations

import hashlib
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

import bots as bots_package
from ladder.store.database import BotRow, Store
from referee.builtins import resolve_bot_command
from referee.games import load_game
from referee.games.rule_sets import option_tags

DEFAULT_ROSTER: tuple[tuple[str, str], ...] = (
    ("random", "random"),
    ("heuristic", "heuristic"),
    ("mcts-0.05", "mcts:0.05"),
    ("mcts-0.2", "mcts:0.2"),
)
"""(ladder name, built-in spec for resolve_bot_command)."""

PYTHON_NAMES = frozenset({"python", "python3"})


def _bots_source_hash() -> str:
    digest = hashlib.sha256()
    root = Path(bots_package.__file__).parent
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def register_builtins(store: Store, game: str, roster: Sequence[tuple[str, str]] = DEFAULT_ROSTER) -> list[int]:
    """Make sure every built-in of `roster` is registered, at the version of
    the code installed now; returns their bot ids."""
    source = _bots_source_hash()
    ids = []
    with store.transaction() as conn:
        for name, spec in roster:
            content_hash = hashlib.sha256(f"{spec}\n{source}".encode()).hexdigest()
            found = [b for b in store.bot_versions(name) if b.content_hash == content_hash]
            if found:
                bot_id = found[-1].bot_id
                conn.execute("UPDATE bots SET active = (id = ?) WHERE name = ?", (bot_id, name))
                games = found[-1].games if game in found[-1].games else (*found[-1].games, game)
                if game not in found[-1].games:  # the same built-in, now also on this game's ladder
                    store.set_games(conn, bot_id, games)
                store.set_variants(conn, bot_id, builtin_variants(games))
            else:
                bot_id = store.add_bot(
                    conn, name=name, version=content_hash[:8], content_hash=content_hash, kind="builtin",
                    command=[spec], folder=None, games=[game], description=f"built-in bot {spec}",
                    variants=builtin_variants([game]),
                )
            ids.append(bot_id)
    return ids


def builtin_variants(games: Sequence[str]) -> tuple[str, ...]:
    """What the built-in bots declare in their handshakes: every variant of
    their games (bots.sdk.every_variant)."""
    return tuple(tag for game in games for tag in option_tags(game, load_game(game).variant_options))


def folder_command(tokens: Sequence[str], folder: Path) -> list[str]:
    """A stored command made runnable: words naming files of the bot's
    folder become absolute paths, a leading python means this interpreter.
    A word leading out of the folder is never made a path (submission
    refuses them; this keeps an older store's command inside too)."""
    root = folder.resolve()
    out = []
    for i, token in enumerate(tokens):
        local = (folder / token).resolve()
        if i == 0 and token in PYTHON_NAMES:
            out.append(sys.executable)
        elif not Path(token).is_absolute() and local.exists() and local.is_relative_to(root):
            out.append(str(local))
        else:
            out.append(token)
    return out


def command_line(bot: BotRow, store: Store) -> list[str]:
    """The command that starts `bot`."""
    if bot.kind == "builtin":
        return resolve_bot_command(bot.command[0])
    assert bot.folder is not None
    return folder_command(bot.command, store.root / bot.folder)


def split_command(text: str) -> list[str]:
    """A manifest's command string as words (shell quoting rules)."""
    return shlex.split(text)
