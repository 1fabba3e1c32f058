"""A ladder described once, in a TOML file: `referee ladder`, `serve`,
`table` and `report` read it with `--config FILE`, and a flag given on
the command line wins over it (docs/ladder.md, "A ladder in one file").

The file names the store, the game, its rule set (`[variant]`), the table
sizes, the time per decision, whether the built-ins play, and what the
sandbox allows each bot (`[limits]`: memory, CPU, processes, ...; the
values of `referee.sandbox.Limits`, which were fixed in code before) and
what a submission may hold (`[submission]`, the service's). Everything is
checked when the file is read, so a mistake is one line naming the file,
the key and how to write it, before anything starts. A key the file does
not set keeps the command's default; a key a command has no use for
(`players` for `table`) is ignored by it.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from referee.durations import EXAMPLES, parse_duration
from referee.games import game_names, load_game
from referee.sandbox import GiB, Limits, MiB

MIN_MOVE_TIME = 0.01
"""The least time per decision (as `referee ladder --move-time`)."""

SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB)?\s*$")
SIZE_UNITS = {None: 1, "B": 1, "KiB": 1024, "MiB": MiB, "GiB": GiB}
SIZE_EXAMPLES = '"512MiB", "2GiB" or a number of bytes'
NO_LIMIT = "none"
"""Written for a limit that may be lifted (`processes = "none"`)."""


class ConfigError(ValueError):
    """A file that cannot be a ladder's description; the message is one
    line naming the file and the key, and how to write it."""


@dataclass(frozen=True)
class LadderFile:
    """A read, checked ladder description."""

    path: Path
    options: dict[str, Any] = field(default_factory=dict)
    """The command-line parameter each key sets (click's parameter name ->
    the value as its flag would give it): the commands' defaults."""
    limits: Limits = field(default_factory=Limits)
    """What the sandbox allows each bot of the ladder's matches."""


def _size(text: object) -> int:
    if isinstance(text, int) and not isinstance(text, bool) and text > 0:
        return text
    match = SIZE.match(text) if isinstance(text, str) else None
    if match is None or float(match.group(1)) <= 0:
        raise ValueError(f"is not a size; write it like {SIZE_EXAMPLES}")
    return int(float(match.group(1)) * SIZE_UNITS[match.group(2)])


def _seconds(text: object) -> float:
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        seconds = float(text)
    else:
        try:
            seconds = parse_duration(text) if isinstance(text, str) else math.nan
        except ValueError:
            seconds = math.nan
        if math.isnan(seconds):
            raise ValueError(f"is not a time; write it like {EXAMPLES}")
    if not seconds > 0 or not math.isfinite(seconds):
        raise ValueError(f"is no time at all; write more than 0, {EXAMPLES}")
    return seconds


def _count(least: int) -> Callable[[object], int]:
    def count(value: object) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < least:
            raise ValueError(f"is not a whole number of at least {least}")
        return value
    return count


def _cores(value: object) -> float:
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 < value < math.inf:
        raise ValueError("is not a number of cores above 0 (e.g. 1 or 0.5)")
    return float(value)


def _or_none(read: Callable[[object], Any]) -> Callable[[object], Any]:
    """`read`, or no limit at all for "none"."""
    def either(value: object) -> Any:
        if value == NO_LIMIT:
            return None
        try:
            return read(value)
        except ValueError as exc:
            raise ValueError(f'{exc}, or "{NO_LIMIT}" for no limit') from None
    return either


def _flag(value: object) -> bool:
    if not isinstance(value, bool):
        raise ValueError("is not true or false")
    return value


def _text(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError('is not a text in quotes (e.g. "gnadenlos")')
    return value


LIMIT_KEYS: dict[str, tuple[str, Callable[[object], Any]]] = {
    "memory": ("tree_memory_bytes", _or_none(_size)),
    "address_space": ("memory_bytes", _or_none(_size)),
    "cpu_cores": ("cpu_cores", _or_none(_cores)),
    "cpu_time": ("cpu_seconds", _or_none(_seconds)),
    "processes": ("max_processes", _or_none(_count(1))),
    "open_files": ("open_files", _or_none(_count(16))),
    "file_size": ("file_size_bytes", _or_none(_size)),
    "wall_time": ("wall_seconds", _or_none(_seconds)),
    "tmpfs": ("tmpfs_bytes", _size),
    "log": ("log_bytes", _size),
}
"""[limits] key -> (the `Limits` field it sets, how it is read)."""

SUBMISSION_KEYS: dict[str, tuple[str, Callable[[object], Any]]] = {
    "max_mib": ("max_mib", _count(1)),
    "max_files": ("max_files", _count(1)),
    "max_depth": ("max_depth", _count(0)),
}
"""[submission] key -> the `referee serve` / `submit` option it sets."""

TOP_KEYS = ("store", "game", "players", "move_time", "builtins", "duplicate", "seed")
SECTIONS = ("variant", "limits", "submission")


def read_config(path: Path) -> LadderFile:
    """The ladder `path` describes. Raises ConfigError (one line: the
    file, the key, what is wrong and how to write it)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read {path} ({exc.strerror or exc}); check --config") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); see docs/ladder.md, \"A ladder in one file\"") from None
    return _Reader(path).read(data)


class _Reader:
    """Reads one file's keys, each error naming the file and the key."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.options: dict[str, Any] = {}

    def fail(self, key: str, value: object, why: str) -> ConfigError:
        return ConfigError(f"{self.path}: {key} = {_shown(value)} {why}")

    def read(self, data: Mapping[str, Any]) -> LadderFile:
        self._known(data, (*TOP_KEYS, *SECTIONS), "")
        game = self._game(data.get("game"))
        if "store" in data:
            store = Path(self._value("store", data["store"], _text))
            self.options["db_path"] = str(store if store.is_absolute() else self.path.resolve().parent / store)
        if "players" in data:
            self.options["players"] = self._players(data["players"], game)
        if "move_time" in data:
            seconds = self._value("move_time", data["move_time"], _seconds)
            if seconds < MIN_MOVE_TIME:
                raise self.fail("move_time", data["move_time"], f"is less than the least allowed, {MIN_MOVE_TIME:g}s")
            self.options["move_time"] = seconds
        for key, option in (("builtins", "no_builtins"), ("duplicate", "no_duplicate")):
            if key in data:
                self.options[option] = not self._value(key, data[key], _flag)
        if "seed" in data:
            self.options["seed"] = self._value("seed", data["seed"], _count(0))
        if "variant" in data:
            self.options["variants"] = self._variant(self._table("variant", data["variant"]), game)
        limits = Limits()
        if "limits" in data:
            table = self._table("limits", data["limits"])
            self._known(table, tuple(LIMIT_KEYS), "limits.")
            limits = replace(limits, **{LIMIT_KEYS[key][0]: self._value(f"limits.{key}", value, LIMIT_KEYS[key][1])
                                        for key, value in table.items()})
        if "submission" in data:
            table = self._table("submission", data["submission"])
            self._known(table, tuple(SUBMISSION_KEYS), "submission.")
            for key, value in table.items():
                option, read = SUBMISSION_KEYS[key]
                self.options[option] = self._value(f"submission.{key}", value, read)
        return LadderFile(self.path, self.options, limits)

    def _known(self, table: Mapping[str, Any], keys: tuple[str, ...], prefix: str) -> None:
        for key in table:
            if key not in keys:
                close = difflib.get_close_matches(key, keys, n=1)
                hint = f"did you mean {prefix}{close[0]}? " if close else ""
                section = f" of [{prefix[:-1]}]" if prefix else ""
                raise ConfigError(f"{self.path}: unknown key {prefix}{key}; {hint}the keys{section} are "
                                  f"{', '.join(keys)}")

    def _value(self, key: str, value: object, read: Callable[[object], Any]) -> Any:
        try:
            return read(value)
        except ValueError as exc:
            raise self.fail(key, value, str(exc)) from None

    def _table(self, key: str, value: object) -> Mapping[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, value, f"is not a table; write it as a section, [{key}], with its keys beneath")
        return value

    def _game(self, value: object) -> str:
        """The file's game (gnadenlos if it names none): its players and
        rule set are that game's (a --game flag for another leaves them out)."""
        name = "gnadenlos" if value is None else self._value("game", value, _text)
        if name not in game_names():
            raise self.fail("game", value, f"is not a game the referee runs; write one of {', '.join(game_names())}")
        self.options["game"] = name
        return str(name)

    def _players(self, value: object, game: str) -> str:
        text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
        low, _, high = text.partition("-") if isinstance(text, str) else ("", "", "")
        rules = load_game(game)
        if not (low.isdigit() and (high.isdigit() or not high)):
            raise self.fail("players", value, 'is not a player count or range; write e.g. players = "3-4" or 4')
        if not rules.min_seats <= int(low) <= int(high or low) <= rules.max_seats:
            raise self.fail("players", value, f"does not fit {rules.title}, played by {rules.min_seats} to "
                                              f"{rules.max_seats} players")
        assert isinstance(text, str)
        return text

    def _variant(self, table: Mapping[str, Any], game: str) -> list[str]:
        rules = load_game(game)
        variant = {key: self._value(f"variant.{key}", value, _text) for key, value in table.items()}
        try:
            rules.make_rule_set(variant)
        except ValueError as exc:
            raise ConfigError(f"{self.path}: [variant] {exc}") from None
        return [f"{key}={value}" for key, value in variant.items()]


def _shown(value: object) -> str:
    """A value as the file would write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "{...}"
    return str(value)
