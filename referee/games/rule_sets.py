"""Rule sets: a game as a match plays it, one value with one text form.

A game declares its variant options, each with its values, the default
first (`Game.variant_options`, docs/engine.md). A rule set is the game with
a value for each option: made and checked once, by the game, where it
enters the program (`Game.make_rule_set` from options, `Game.parse_rule_set`
from text, `load_game(name, options)`, which returns the game configured
with it), then passed on as a value that is never checked again: a
configured game sets up its states under it (`Game.configure`), and the
match loop, the record, the seats and the ladder take it from there.

Two rule sets that differ only in options left at their defaults are the
same rules, so its text form names the options it sets to something else,
sorted: `auction=single,auction_order=best`; the base rules are "". That
one form is what the ladder keeps ratings under, what `referee table` and
`referee check` show, and what the command line and a config file read back.

A bot says which option values it plays in its handshake (docs/protocol.md)
as variant tags `GAME:OPTION=VALUE`, one per option value other than the
default (`gnadenlos:auction=single`): a bot is seated in a match only if it
declares every tag of the match's rule set (`RuleSet.undeclared`). A bot
that declares nothing plays the base rules only.

Names: "rule set" is the whole (this value, and its text form); "variant
option" one of its settings; "variant tag" a bot's declaration of one
option value. "variant" alone survives only where files and messages
spell it so: `--variant OPTION=VALUE` and a config file's `[variant]` set
options; a record's header "variant", the protocol's `MatchStart.variant`
and the ladder store's `variant` column hold a rule set's options; the
handshake's `variants` are variant tags.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class RuleSet:
    """A game's rules as a match plays them: the game's name and the value
    of each of its options. Immutable; equal to another of the same game
    and options; `str()` is its text form.

    Made only by its game (`Game.make_rule_set`, `Game.parse_rule_set`),
    which checks the options: this class trusts them.
    """

    __slots__ = ("game", "options", "changed", "_text")

    game: str
    """The game's name (`Game.name`)."""
    options: Mapping[str, str]
    """Every option in force with its value, defaults included, in the
    game's order (an option whose requirement does not hold is left out:
    `Game.variant_requires`). What a record's header and `MatchStart`
    carry as the match's "variant"."""
    changed: Mapping[str, str]
    """The options set away from their defaults, sorted by name."""
    _text: str

    def __init__(self, game: str, options: Mapping[str, str], defaults: Mapping[str, str]) -> None:
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "options", dict(options))
        changed = {key: options[key] for key in sorted(options) if options[key] != defaults.get(key)}
        object.__setattr__(self, "changed", changed)
        object.__setattr__(self, "_text", ",".join(f"{key}={value}" for key, value in changed.items()))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a RuleSet is immutable: cannot set {name}")

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"RuleSet({self.game!r}, {self._text!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RuleSet):
            return NotImplemented
        return self.game == other.game and self.options == other.options

    def __hash__(self) -> int:
        return hash((self.game, self._text))

    def __reduce__(self) -> tuple[Any, ...]:
        defaults = {key: value for key, value in self.options.items() if key not in self.changed}
        return RuleSet, (self.game, self.options, defaults)

    @property
    def is_base(self) -> bool:
        """Whether every option is at its default."""
        return not self._text

    def describe(self) -> str:
        """How a heading names it: its text form, or "base rules"."""
        return describe(self._text)

    @property
    def tags(self) -> tuple[str, ...]:
        """The variant tags a bot must declare to be seated under it."""
        return tuple(f"{self.game}:{key}={value}" for key, value in self.changed.items())

    def undeclared(self, declared: Iterable[str]) -> tuple[str, ...]:
        """Its tags missing from `declared` (empty: the bot may be seated)."""
        known = set(declared)
        return tuple(tag for tag in self.tags if tag not in known)


def describe(text: str) -> str:
    """A rule set's text form as a heading shows it."""
    return text or "base rules"


def parse_options(text: str) -> dict[str, str]:
    """Options as text writes them: a rule set's text form
    ("auction=single,auction_order=best"), or the command line's, where a
    bare option name means "on" ("setup=advanced,gunfight_opt_out").
    Not checked: the game does that (`Game.parse_rule_set`)."""
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        options[key.strip()] = value.strip() if sep else "on"
    return options


def option_tags(game: str, options: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Every variant tag of the game called `game`, from its variant options
    (each option's values, the default first): what a bot that plays all
    its rule sets declares. Takes the options rather than the game, so that
    a bot can read them without loading the engine (GamePlugin.variants)."""
    return tuple(f"{game}:{key}={value}" for key, values in options.items() for value in values[1:])
