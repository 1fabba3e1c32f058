"""Rule sets: a game's variant as one name, and what a bot must declare to play it.

A match's variant is every option of the game with its value
(`Game.check_variant`). Two variants that differ only in options left at
their defaults are the same rules, so a rule set is named by the options
it sets to something else, sorted: `auction=single,auction_order=best`;
the base rules are the empty name. The ladder keeps each rule set's
ratings apart by this name, and `referee table` shows it.

A bot says which variants it plays in its handshake (docs/protocol.md) as
tags `GAME:OPTION=VALUE`, one per option value other than the default
(`gnadenlos:auction=single`): a bot is seated in a match only if it
declares every option value of the match's rule set. A bot that declares
nothing plays the base rules only.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from referee.games.base import Game

BASE_RULES = ""
"""The name of a game's base rules: no option away from its default."""


def rule_set_options(game: Game, variant: Mapping[str, str] | None) -> dict[str, str]:
    """The options of `variant` that are not the game's defaults, sorted by
    name. Raises ValueError for a variant the game does not have."""
    full = game.check_variant(variant)
    return {key: full[key] for key in sorted(full) if full[key] != game.variant_options[key][0]}


def rule_set(game: Game, variant: Mapping[str, str] | None) -> str:
    """The rule set's name: `option=value` of each non-default option,
    comma-separated ("" for the base rules). Raises ValueError."""
    return ",".join(f"{key}={value}" for key, value in rule_set_options(game, variant).items())


def rule_set_variant(name: str) -> dict[str, str]:
    """The options a rule set's name sets (the inverse of `rule_set`)."""
    return dict(part.split("=", 1) for part in name.split(",")) if name else {}


def describe(name: str) -> str:
    """A rule set's name as a heading shows it."""
    return name or "base rules"


def variant_tags(game: Game, variant: Mapping[str, str] | None) -> tuple[str, ...]:
    """The tags a bot must declare to be seated in a match of `variant`."""
    return tuple(f"{game.name}:{key}={value}" for key, value in rule_set_options(game, variant).items())


def every_variant_tag(game: Game) -> tuple[str, ...]:
    """Every tag of `game`: what a bot that plays all its variants declares."""
    return option_tags(game.name, game.variant_options)


def option_tags(game: str, options: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Every tag of the game called `game`, from its variant options (each
    option's values, the default first), e.g. as its GamePlugin declares them."""
    return tuple(f"{game}:{key}={value}" for key, values in options.items() for value in values[1:])


def undeclared(game: Game, variant: Mapping[str, str] | None, declared: Iterable[str]) -> tuple[str, ...]:
    """The tags of `variant` missing from `declared` (empty: the bot may be seated)."""
    known = set(declared)
    return tuple(tag for tag in variant_tags(game, variant) if tag not in known)
