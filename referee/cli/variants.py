"""`--variant NAME=VALUE`, the same on every command that plays or rates
matches (`play`, `simulate`, `ladder`, `submit`, `table`).

Repeatable; one option may also list several, comma-separated, and a bare
NAME means NAME=on (`--variant gunfight_opt_out`). They are read once,
here, into the game's rule set (`Game.make_rule_set`, which checks names
and values; a bad one is a usage error that lists what the game allows);
the command then plays or rates `load_game(name, rule_set)`, or passes the
rule set on as a value (referee.games.rule_sets).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import click

from referee.games import Game, RuleSet
from referee.games.rule_sets import parse_options

F = TypeVar("F", bound=Callable[..., object])

HELP = ("A variant option of the game, NAME=VALUE (e.g. gunfight_opt_out=soft, auction=single); repeatable. "
        "A bad one is refused with the list of the game's options.")


def variant_option(help_text: str = HELP) -> Callable[[F], F]:
    """The --variant option (values in the parameter `variants`)."""
    return click.option("--variant", "variants", multiple=True, metavar="NAME=VALUE", help=help_text)


def read_variant(game: Game, items: Sequence[str]) -> RuleSet:
    """The rule set of the options given (the others at their defaults),
    checked by the game. Raises click.BadParameter naming the bad option
    and what is allowed."""
    options: dict[str, str] = {}
    for item in items:
        options.update(parse_options(item))
    try:
        return game.make_rule_set(options)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--variant'") from None
