"""What the ladder's commands share: their common options and helpers.

--db, --game, --config, --confidence, --margin, --move-time, --players,
--no-duplicate and a submission's limits (--max-mib, --max-files,
--max-depth), and the defaults they share; the store opened with its failures as one error line; --players and
--variant read as the games allow. Every command's module imports it, so
it imports nothing heavy (no gRPC, no Dask).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from ladder.cli.config_file import ConfigError, LadderFile, read_config
from ladder.intake.copying import MAX_BYTES, MAX_DEPTH, MAX_FILES, MIB
from ladder.store.database import Store, StoreError, default_db_path
from referee.cli.variants import read_variant
from referee.durations import Duration, format_duration
from referee.games import game_names, load_game
from referee.games.rule_sets import parse_options

DEFAULT_GAME = "gnadenlos"
DEFAULT_MOVE_TIME = 2.0
MIN_MOVE_TIME = 0.01
"""The least --move-time a ladder accepts: below it, every decision is late."""

db_option = click.option(
    "--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="The ladder database (default: $REFEREE_DATA/ladder.sqlite or ./data/ladder.sqlite).",
)

GAME_KEYS = ("players", "variants")
"""The --config file's settings that belong to its game."""


def _known_game(ctx: click.Context, param: click.Parameter, game: str) -> str:
    """--game must name a game the referee runs (an unknown one is an error,
    not an empty ladder). Another game than the --config file's leaves out
    the file's table sizes and rule set, which are its game's."""
    try:
        load_game(game)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    if ctx.default_map and ctx.default_map.get("game", game) != game:
        ctx.default_map = {key: value for key, value in ctx.default_map.items() if key not in GAME_KEYS}
    return game


game_option = click.option("--game", default=DEFAULT_GAME, show_default=True, callback=_known_game,
                           help="The game of the ladder.")
confidence_option = click.option(
    "--confidence", type=click.FloatRange(0.5, 0.9999), default=0.95, show_default=True,
    help="How sure a pair's verdict (ordered, indistinguishable) must be: each is wrong at most 1 - this often.",
)
margin_option = click.option(
    "--margin", type=click.FloatRange(0.001, 0.5), default=None,
    help="Indistinguishable: the score of a pair (how often one finishes ahead of the other, ties half) "
         "is shown within 0.5 ± this (default 0.1); with --versus, the improvement H1 claims (default 0.05).",
)

Decorator = Callable[[Callable[..., None]], Callable[..., None]]


def move_time_option(help: str = "Time per decision, the referee's deadline (2s, 250ms).") -> Decorator:
    """--move-time as every ladder command takes it (at least MIN_MOVE_TIME)."""
    return click.option("--move-time", type=Duration(minimum=MIN_MOVE_TIME),
                        default=format_duration(DEFAULT_MOVE_TIME), show_default=True, help=help)


players_option = click.option("--players", default="3-4", show_default=True, help="Table size, or a range like 3-4.")
no_duplicate_option = click.option("--no-duplicate", is_flag=True,
                                   help="One match per table instead of one per seat rotation.")


def submission_limit_options(command: Callable[..., None]) -> Callable[..., None]:
    """--max-mib, --max-files and --max-depth: what a submitted bot's files may hold."""
    for option in (
        click.option("--max-depth", type=click.IntRange(min=0), default=MAX_DEPTH, show_default=True,
                     help="Refuse a bot whose folders nest deeper than this."),
        click.option("--max-files", type=click.IntRange(min=1), default=MAX_FILES, show_default=True,
                     help="Refuse a bot of more files and folders than this."),
        click.option("--max-mib", type=click.IntRange(min=1), default=MAX_BYTES // MIB, show_default=True,
                     help="Refuse a bot whose files hold more MiB than this (and an upload past it)."),
    ):
        command = option(command)
    return command


def _read_config(ctx: click.Context, param: click.Parameter, path: Path | None) -> LadderFile | None:
    """Read --config first (it is eager): its keys become the defaults of
    the command's options, so a flag given on the command line wins."""
    if path is None:
        return None
    try:
        found = read_config(path)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    names = {option.name for option in ctx.command.params}
    ctx.default_map = {**(ctx.default_map or {}), **{k: v for k, v in found.options.items() if k in names}}
    return found


def config_option(*, exposed: bool) -> Decorator:
    """--config FILE: the ladder described once (ladder/cli/config_file.py,
    docs/ladder.md); with `exposed` the command also gets the read file
    (parameter `ladder_file`) for what has no flag, the bots' limits."""
    return click.option(
        "--config", "ladder_file", type=click.Path(dir_okay=False, path_type=Path), default=None, is_eager=True,
        expose_value=exposed, callback=_read_config, metavar="FILE",
        help="Read the ladder's settings from this TOML file (docs/ladder.md); options given here win over it.",
    )



@contextmanager
def open_store(db_path: Path | None, *, create: bool = True) -> Iterator[Store]:
    """The store, with a bad database file turned into one error line.
    Read-only commands pass `create=False`: a mistyped --db is then an
    error naming the path, never a new empty store."""
    try:
        store = Store(db_path or default_db_path(), create=create)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        yield store
    finally:
        store.close()



def parse_players(text: str, game: str) -> tuple[int, ...]:
    """"3", "4" or "3-4" as table sizes the game allows."""
    try:
        low, _, high = text.partition("-")
        sizes = tuple(range(int(low), int(high or low) + 1))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a player count or range like 3-4", param_hint="--players") from None
    try:
        rules = load_game(game)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--game") from None
    if not sizes or sizes[0] < rules.min_seats or sizes[-1] > rules.max_seats:
        raise click.BadParameter(
            f"{game} is played by {rules.min_seats} to {rules.max_seats} players, not {text}", param_hint="--players"
        )
    return sizes


def parse_variant(items: tuple[str, ...], game: str) -> dict[str, str]:
    """--variant NAME=VALUE options as the game's variant, checked as every
    command reads them (referee/cli/variants.py): only the ones given, since
    an option given at its default still asks for a rule set (the base
    rules) where none given means the service's own."""
    rule_set = read_variant(load_game(game), items)
    return {key: rule_set.options[key] for key in parse_options(",".join(items))}


def variant_tags(items: tuple[str, ...], games: tuple[str, ...]) -> tuple[str, ...]:
    """`referee submit --variant NAME=VALUE` as the tags a bot is registered
    for: each option of the games that have it (of `games`, every game if
    none). An option no such game has is a usage error listing theirs."""
    given: dict[str, str] = {}
    for item in items:
        given.update(parse_options(item))
    tags: list[str] = []
    for name in games or game_names():
        rules = load_game(name)
        mine = {key: value for key, value in given.items() if key in rules.variant_options}
        if mine:
            tags += read_variant(rules, [f"{k}={v}" for k, v in mine.items()]).tags
    known = {key for name in games or game_names() for key in load_game(name).variant_options}
    unknown = sorted(set(given) - known)
    if unknown:
        options = "; ".join(f"{name}: {load_game(name).describe_variants()}" for name in games or game_names())
        raise click.BadParameter(f"no game of the bot has a variant option {unknown[0]!r}; the options are {options}",
                                 param_hint="'--variant'")
    return tuple(tags)


