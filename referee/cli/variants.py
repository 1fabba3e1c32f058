"""`--variant NAME=VALUE`, the same on every command that plays or rates
matches (`play`, `simulate`, `ladder`, `submit`, `table`).

Repeatable; one option may also list several, comma-separated, and a bare
NAME means NAME=on (`--variant gunfight_opt_out`). The game checks names
and values (`Game.check_variant`); a bad one is a usage error that lists
what the game allows.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import click

from referee.games import Game
from referee.games.base import parse_variant

F = TypeVar("F", bound=Callable[..., object])

HELP = ("A variant option of the game, NAME=VALUE (e.g. gunfight_opt_out=soft, auction=single); repeatable. "
        "A bad one is refused with the list of the game's options.")


def variant_option(help_text: str = HELP) -> Callable[[F], F]:
    """The --variant option (values in the parameter `variants`)."""
    return click.option("--variant", "variants", multiple=True, metavar="NAME=VALUE", help=help_text)


def read_variant(game: Game, items: Sequence[str]) -> dict[str, str]:
    """The options given (not the defaults), checked by the game. Raises
    click.BadParameter naming the bad option and what is allowed."""
    variant: dict[str, str] = {}
    for item in items:
        variant.update(parse_variant(item))
    try:
        game.check_variant(variant)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--variant'") from None
    return variant
