"""The ladder's commands: `referee submit`, `retire`, `bots`, `ladder`, `table` and `logs`.

Registered in referee/cli/main.py's lazy command table; each command opens
the store (default `$REFEREE_DATA/ladder.sqlite` or `./data/ladder.sqlite`;
`submit` and `ladder` make it if it is missing, `bots`, `table` and `logs`
only read it) and turns every expected failure into one clear error line.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console

from ladder.intake.copying import MAX_BYTES, MAX_DEPTH, MAX_FILES, MIB, Limits
from ladder.reporting.tables import PIPE_WIDTH, print_table
from ladder.store.database import BotRow, Store, StoreError, default_db_path, version_log_path
from referee.cli.variants import variant_option
from referee.durations import DURATION, Duration, format_duration
from referee.log_tail import last_lines
from referee.sandbox import capabilities
from referee.untrusted import MESSAGE_LIMIT, safe_block, safe_line

if TYPE_CHECKING:
    from ladder.running.cluster import DaskPool
    from ladder.config_file import LadderFile
    from ladder.service.client import Remote
    from referee.sandbox import Limits as BotLimits

DEFAULT_GAME = "gnadenlos"
DEFAULT_MATCHES = 48
DEFAULT_STABLE_BUDGET = 400
DEFAULT_MOVE_TIME = 2.0
MIN_MOVE_TIME = 0.01
"""The least --move-time a ladder accepts: below it, every decision is late."""
EXIT_INTERRUPTED = 130
"""The shell's code for a run stopped by SIGINT."""
EXIT_UNSETTLED = 3
"""`referee ladder --until-stable` or `--versus` spent its budget before the
question was settled (docs/ladder.md)."""

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
    from referee.games import load_game

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
workers_option = click.option(
    "--workers", type=click.IntRange(min=1), default=None,
    help="Worker processes of the embedded Dask cluster (default: one per CPU); not with --scheduler.",
)
scheduler_option = click.option(
    "--scheduler", default=None, metavar="tcp://HOST:PORT",
    help="Play the matches on this Dask cluster (`dask scheduler` and `dask worker`s) instead of an embedded one.",
)


def _read_config(ctx: click.Context, param: click.Parameter, path: Path | None) -> LadderFile | None:
    """Read --config first (it is eager): its keys become the defaults of
    the command's options, so a flag given on the command line wins."""
    from ladder.config_file import ConfigError, read_config

    if path is None:
        return None
    try:
        found = read_config(path)
    except ConfigError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    names = {option.name for option in ctx.command.params}
    ctx.default_map = {**(ctx.default_map or {}), **{k: v for k, v in found.options.items() if k in names}}
    return found


def config_option(*, exposed: bool) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """--config FILE: the ladder described once (ladder/config_file.py,
    docs/ladder.md); with `exposed` the command also gets the read file
    (parameter `ladder_file`) for what has no flag, the bots' limits."""
    return click.option(
        "--config", "ladder_file", type=click.Path(dir_okay=False, path_type=Path), default=None, is_eager=True,
        expose_value=exposed, callback=_read_config, metavar="FILE",
        help="Read the ladder's settings from this TOML file (docs/ladder.md); options given here win over it.",
    )


INSECURE_PLAINTEXT = "insecure_plaintext"
"""Where --insecure-plaintext is kept (the click context's meta), for `remote`."""


def remote_options(command: Callable[..., None]) -> Callable[..., None]:
    """--server, --token, --tls-ca and --insecure-plaintext: talk to a ladder service instead of a local store."""
    for option in reversed([
        click.option("--server", default=None, metavar="HOST:PORT|unix:PATH",
                     help="Ask this ladder service (`referee serve`) instead of a local store."),
        click.option("--token", envvar="REFEREE_TOKEN", default=None,
                     help="Your submitter token for --server (or $REFEREE_TOKEN), from the ladder's operator."),
        click.option("--tls-ca", type=click.Path(dir_okay=False, path_type=Path), default=None,
                     help="With --server: check the service's TLS certificate against this CA (PEM) instead of the "
                          "system's trust store. TLS is used for every address but 127.0.0.1 and unix:PATH."),
        click.option("--insecure-plaintext", is_flag=True, expose_value=False,
                     callback=lambda ctx, param, value: ctx.meta.__setitem__(INSECURE_PLAINTEXT, value),
                     help="With --server on another machine: talk without TLS, which anyone on the way can read "
                          "and change; your token is then not sent (you can read, not submit)."),
    ]):
        command = option(command)
    return command


@contextmanager
def remote(server: str, token: str | None, tls_ca: Path | None) -> Iterator[Remote]:
    """The ladder service at `server` (over TLS unless it is local or the
    command was given --insecure-plaintext); its failures are one error line."""
    from ladder.service.client import Remote, RemoteError

    context = click.get_current_context(silent=True)
    insecure = bool(context is not None and context.meta.get(INSECURE_PLAINTEXT))
    try:
        with Remote(server, token=token, tls_ca=tls_ca, insecure_plaintext=insecure) as service:
            if service.withheld:
                click.echo(f"warning: {server} is reached without TLS (--insecure-plaintext): your token is not sent",
                           err=True)
            yield service
    except RemoteError as exc:
        raise click.ClickException(str(exc)) from None


def make_console() -> Console:
    """A console as wide as the terminal; for output to a file or pipe as
    wide as $COLUMNS says, else PIPE_WIDTH, so that a log's standings
    table is not squeezed into rich's 80 columns."""
    if sys.stdout.isatty():
        return Console()
    columns = os.environ.get("COLUMNS", "")
    return Console(width=int(columns) if columns.isdigit() and int(columns) > 0 else PIPE_WIDTH)


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


def check_cluster_options(workers: int | None, scheduler: str | None) -> None:
    """--workers sizes the embedded cluster; a remote one has its own workers."""
    if workers is not None and scheduler is not None:
        raise click.UsageError("--workers sizes the embedded Dask cluster; with --scheduler the cluster's own "
                               "workers play the matches: leave out one of the two")


@contextmanager
def dask_pool(scheduler: str | None, move_time: float, workers: int | None, logs_dir: Path,
              limits: BotLimits | None = None) -> Iterator[DaskPool]:
    """The matches' Dask pool (ladder/running/cluster.py), its bots under `limits`
    (default: the sandbox's), closed on the way out; a cluster that cannot
    be had is one error line."""
    from ladder.running.cluster import ClusterError, open_pool

    try:
        pool = open_pool(scheduler, move_time, workers=workers, logs_dir=logs_dir, limits=limits)
    except ClusterError as exc:
        raise click.ClickException(str(exc)) from None
    try:
        yield pool
    finally:
        pool.close()


def parse_players(text: str, game: str) -> tuple[int, ...]:
    """"3", "4" or "3-4" as table sizes the game allows."""
    from referee.games import load_game

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
    """--variant NAME=VALUE options as the game's variant (only the ones
    given), as every command reads them (referee/cli/variants.py)."""
    from referee.cli.variants import read_variant
    from referee.games import load_game

    return read_variant(load_game(game), items)


def variant_tags(items: tuple[str, ...], games: tuple[str, ...]) -> tuple[str, ...]:
    """`referee submit --variant NAME=VALUE` as the tags a bot is registered
    for: each option of the games that have it (of `games`, every game if
    none). An option no such game has is a usage error listing theirs."""
    from referee.cli.variants import read_variant
    from referee.games import game_names, load_game
    from referee.games.base import parse_variant as split_options
    from referee.games.rule_sets import variant_tags as tags_of

    given: dict[str, str] = {}
    for item in items:
        given.update(split_options(item))
    tags: list[str] = []
    for name in games or game_names():
        rules = load_game(name)
        mine = {key: value for key, value in given.items() if key in rules.variant_options}
        if mine:
            tags += tags_of(rules, read_variant(rules, [f"{k}={v}" for k, v in mine.items()]))
    known = {key for name in games or game_names() for key in load_game(name).variant_options}
    unknown = sorted(set(given) - known)
    if unknown:
        options = "; ".join(f"{name}: {load_game(name).describe_variants()}" for name in games or game_names())
        raise click.BadParameter(f"no game of the bot has a variant option {unknown[0]!r}; the options are {options}",
                                 param_hint="'--variant'")
    return tuple(tags)


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--name", default=None, help="The bot's ladder name (required unless bot.toml names it).")
@click.option("--version", "version", default=None, help="The version label (default: bot.toml's, else v1, v2, ...).")
@click.option("--startup-timeout", type=DURATION, default="10s", show_default=True,
              help="Time the bot gets to start and answer the handshake (10s, 500ms).")
@click.option("--move-time", type=DURATION, default=format_duration(DEFAULT_MOVE_TIME), show_default=True,
              help="Time per decision in the validation match (2s, 250ms).")
@click.option("--game", "games", multiple=True,
              help="A game to validate and register the bot for (repeatable; default: the games its bot.toml "
                   "lists, or for a file every game its handshake names).")
@variant_option("A variant to validate and register the bot for, NAME=VALUE (repeatable; default: its bot.toml's "
                "variants, else every variant its handshake declares); its handshake must declare it.")
@click.option("--max-mib", type=click.IntRange(min=1), default=MAX_BYTES // MIB, show_default=True,
              help="Refuse a bot whose files hold more MiB than this.")
@click.option("--max-files", type=click.IntRange(min=1), default=MAX_FILES, show_default=True,
              help="Refuse a bot of more files and folders than this.")
@click.option("--max-depth", type=click.IntRange(min=0), default=MAX_DEPTH, show_default=True,
              help="Refuse a bot whose folders nest deeper than this.")
@db_option
@remote_options
def submit(path: Path, name: str | None, version: str | None, startup_timeout: float, move_time: float,
           games: tuple[str, ...], variants: tuple[str, ...], max_mib: int, max_files: int, max_depth: int,
           db_path: Path | None, server: str | None, token: str | None, tls_ca: Path | None) -> None:
    """Check a bot (file or folder with bot.toml) and register it (with --server: the service's limits apply)."""
    from ladder.intake.submission import SubmissionError, refusal
    from ladder.intake.submission import submit as do_submit

    limits = Limits(max_bytes=max_mib * MIB, max_files=max_files, max_depth=max_depth)
    tags = variant_tags(variants, games)
    if server is not None:
        with remote(server, token, tls_ca) as service:
            done = service.submit(path, name=name, version=version, games=games, startup_timeout=startup_timeout,
                                  move_time=move_time, variants=tags)
            versions = [b for b in service.bots() if b.name == done.name] if done.new else []
    else:
        with open_store(db_path) as store:
            try:
                done = do_submit(store, path, name=name, version=version, games=games, variants=tags,
                                 startup_timeout=startup_timeout, move_time=move_time, limits=limits)
            except SubmissionError as exc:  # it may quote the submission (file names, bot.toml, the bot's words)
                raise click.ClickException(refusal(exc, exc.log)) from None
            versions = store.bot_versions(done.name)
    plays = ", ".join(done.games) + (f" with variants {', '.join(done.variants)}" if done.variants else "")
    if done.new:
        twins = f"; identical to {', '.join(done.twins)}, rated as a bot of its own" if done.twins else ""
        click.echo(f"registered {done.name} version {done.version} for {plays} "
                   f"(sha256 {done.content_hash[:12]}){twins}{fresh_rating(done.name, done.version, versions)}")
    else:
        click.echo(f"{done.name} version {done.version} is already registered with identical content "
                   f"(for {plays}); nothing to do")


@click.command()
@click.argument("name")
@db_option
@remote_options
def retire(name: str, db_path: Path | None, server: str | None, token: str | None, tls_ca: Path | None) -> None:
    """Take a bot out of the ladder: its active version plays no more matches (its rating and history stay)."""
    if server is not None:
        with remote(server, token, tls_ca) as service:
            retired_name, retired_version = service.retire(name)
        label = f"{retired_name}@{retired_version}"
    else:
        with open_store(db_path, create=False) as store:
            label = retire_local(store, name)
    click.echo(f"retired {safe_line(label)}: it plays no more matches (a ladder drops those planned with it); its "
               f"rating and history stay (`referee table --all`); a new version (`referee submit`) brings "
               f"{safe_line(name)} back")


def retire_local(store: Store, name: str) -> str:
    """Retire the active version of `name` in `store`; its label. A built-in
    bot is not retired (the next `referee ladder` would register it again:
    `--no-builtins` keeps them out). Raises click.ClickException."""
    if store.read_only is not None:
        raise click.ClickException(store.refusal())
    active = [b for b in store.bot_versions(name) if b.active]
    if active and active[-1].kind == "builtin":
        raise click.ClickException(f"{name} is a built-in bot, registered again by every `referee ladder`: "
                                   "`referee ladder --no-builtins` leaves the built-ins out of a run")
    retired = store.retire(name)
    if retired is None:
        known = ", ".join(b.name for b in store.bots(active_only=True)) or "none"
        raise click.ClickException(f"no active bot named {safe_line(name)!r} in {store.path}; the active bots: "
                                   f"{safe_line(known)}")
    return retired.label


@click.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@remote_options
def bots(db_path: Path | None, as_json: bool, server: str | None, token: str | None, tls_ca: Path | None) -> None:
    """List the registered bots and their versions."""
    if server is not None:
        with remote(server, token, tls_ca) as service:
            rows = service.bots()
    else:
        with open_store(db_path, create=False) as store:
            rows = store.bots()
    if as_json:
        click.echo(json.dumps([
            {"id": b.bot_id, "name": b.name, "version": b.version, "kind": b.kind, "active": b.active,
             "games": list(b.games), "variants": list(b.variants), "sha256": b.content_hash,
             "description": b.description,
             "registered": b.created_at} for b in rows
        ], indent=2))
        return
    from ladder.reporting.render import bots_table

    console = make_console()
    console.print(bots_table(rows, width=console.width))


@click.command()
@click.option("--matches", type=click.IntRange(min=1), default=None,
              help=f"Matches to play in this run (default {DEFAULT_MATCHES}; with --until-stable the budget, "
                   f"default {DEFAULT_STABLE_BUDGET}).")
@click.option("--until-stable", is_flag=True,
              help="Stop once every adjacent pair is ordered or indistinguishable at --confidence "
                   f"(exit status {EXIT_UNSETTLED} if the budget runs out first).")
@confidence_option
@margin_option
@click.option("--versus", nargs=2, default=None, metavar="NEW OLD",
              help="Is NEW better than OLD (NAME or NAME@VERSION)? Seat both at every table until the SPRT "
                   f"decides (exit status {EXIT_UNSETTLED} if the budget runs out first).")
@click.option("--alpha", type=click.FloatRange(0.001, 0.5), default=0.05, show_default=True,
              help="--versus: how often it may call NEW better when it is not.")
@click.option("--beta", type=click.FloatRange(0.001, 0.5), default=0.05, show_default=True,
              help="--versus: how often it may miss an improvement of --margin.")
@workers_option
@scheduler_option
@click.option("--move-time", type=Duration(minimum=MIN_MOVE_TIME), default=format_duration(DEFAULT_MOVE_TIME),
              show_default=True, help="Time per decision, the referee's deadline (2s, 250ms).")
@click.option("--players", default="3-4", show_default=True, help="Table size, or a range like 3-4.")
@click.option("--no-duplicate", is_flag=True, help="One match per table instead of one per seat rotation.")
@click.option("--recompute", is_flag=True, help="Recompute ratings from the stored results, compare, and exit.")
@click.option("--no-builtins", is_flag=True, help="Leave the built-in bots out: not registered, and those registered "
              "before do not play.")
@click.option("--seed", type=int, default=None,
              help="Seed of the matchmaking (which bots meet, seats); deals come from the committed seed chain.")
@variant_option("A variant option of the game, NAME=VALUE (repeatable): a ladder of that rule set, rated apart "
                "from the others, among the bots that declare it.")
@game_option
@db_option
@click.option("--web", "web_port", type=click.IntRange(0, 65535), default=None,
              help="Serve the live standings page on this port of 127.0.0.1 while the ladder runs.")
@config_option(exposed=True)
def ladder(matches: int | None, until_stable: bool, confidence: float, margin: float | None,
           versus: tuple[str, str] | None, alpha: float, beta: float, workers: int | None,
           scheduler: str | None, move_time: float, players: str, no_duplicate: bool, recompute: bool, no_builtins: bool, seed: int | None,
           variants: tuple[str, ...], game: str, db_path: Path | None, web_port: int | None,
           ladder_file: LadderFile | None) -> None:
    """Run the ladder: schedule matches, rate them, show the standings."""
    from ladder.reporting.progress import ProgressLines
    from ladder.reporting.render import LiveView, pairs_report, standings_table, table_notes, versus_report
    from ladder.intake.roster import register_builtins
    from ladder.store.rule_set_names import heading, rule_set_of
    from ladder.scheduling.scheduler import Ladder, LadderConfig, LadderError, game_roster, seatable
    from ladder.scheduling.scheduler import recompute as do_recompute
    from ladder.rating.sprt import Sprt
    from ladder.rating.standings import mean_set_size, pair_statuses, standings
    from ladder.rating.stopping import DEFAULT_MARGIN

    if versus and until_stable:
        raise click.UsageError("--versus and --until-stable ask different questions: choose one")

    check_cluster_options(workers, scheduler)
    sizes = parse_players(players, game)
    variant = parse_variant(variants, game)
    rule_set = rule_set_of(game, variant)
    console = make_console()
    with open_store(db_path) as store, ExitStack() as held:
        try:  # one ladder per store: a second would play the planned matches again
            held.enter_context(store.run_lock())
        except StoreError as exc:
            raise click.ClickException(str(exc)) from None
        if recompute:
            equal, skills = do_recompute(store, game, rule_set)
            if equal:
                click.echo(f"recomputed the ratings of {len(skills)} bots from {store.match_count(game, rule_set)} "
                           f"matches of the {heading(game, rule_set)}: identical to the stored ones")
            else:
                store.replace_ratings(game, skills, rule_set)
                click.echo("recomputed ratings differed from the stored ones; the stored ones were replaced")
            return
        if not no_builtins:
            for note in renewed_builtins(store, lambda: register_builtins(store, game)):
                console.print(note, markup=False, highlight=False)
        try:  # refuse before any worker starts; the run itself warns of skipped sizes
            seatable(game, sizes, len(game_roster(store, game, variant, builtins=not no_builtins)))
        except LadderError as exc:
            raise click.ClickException(str(exc)) from None
        pair = find_versus(store, game, versus, variant) if versus else None
        budget = matches or (DEFAULT_STABLE_BUDGET if until_stable or versus else DEFAULT_MATCHES)
        click.echo(capabilities().summary(), err=True)  # which protections are in force, said at start-up
        sprt = Sprt(margin or Sprt().margin, alpha, beta)
        config = LadderConfig(game=game, matches=budget, until_stable=until_stable, confidence=confidence,
                              margin=margin or DEFAULT_MARGIN, versus=pair, sprt=sprt,
                              sizes=sizes, duplicate=not no_duplicate, variant=variant, seed=seed,
                              builtins=not no_builtins)
        pool = held.enter_context(dask_pool(scheduler, move_time, workers, store.logs_dir,
                                            ladder_file.limits if ladder_file is not None else None))
        if web_port is not None:  # the live page (ladder/service/live.py) reads the store beside the run
            from ladder.service.live import live_page

            click.echo(f"live page: {held.enter_context(live_page(store.path, game, web_port, rule_set))}", err=True)
        # a terminal gets the live view; a log (CI, a pipe) a line per finished match
        view = (LiveView(store, game, budget, console=console, rule_set=rule_set) if console.is_terminal
                else ProgressLines(store, budget))
        with view:
            runner = Ladder(store, pool, config, on_update=view.update,
                            on_warning=lambda text: console.print(f"warning: {safe_line(text)}", style="yellow",
                                                                  markup=False, highlight=False, soft_wrap=True),
                            on_commit=lambda c: console.print(c.text, markup=False, highlight=False, soft_wrap=True))
            try:
                status = runner.run()
            except LadderError as exc:  # it may quote a failed match's detail, a bot's words
                raise click.ClickException(safe_line(exc, MESSAGE_LIMIT)) from None
        rows = standings(store, game, rule_set=rule_set)
        pairs = pair_statuses(store, game, rows, confidence=confidence, margin=config.margin, rule_set=rule_set)
        console.print(standings_table(rows, heading(game, rule_set), pairs, width=console.width,
                                      set_size=mean_set_size(store, game, rule_set)))
        console.print(table_notes(confidence, config.margin))
        sizes_played = ", ".join(f"{n}-player: {k}" for n, k in sorted(status.sizes.items())) or "none"
        console.print(f"played {status.played} matches ({sizes_played}); {status.failed} failures (a match that "
                      f"fails for a reason not a bot's own is retried and never rated); records in "
                      f"{store.records_dir}", markup=False, highlight=False)
        console.print(reveal_line(store, game), markup=False, highlight=False)
        names = {b.bot_id: b.label for b in store.bots()}
        if until_stable:
            console.print(pairs_report(status, names, mean_set_size(store, game, rule_set)))
        if status.versus is not None:
            console.print(versus_report(status.versus, names, mean_set_size(store, game)))
        if status.interrupted:
            console.print(f"stopped by Ctrl-C: finished matches are kept; {status.discarded} running ones were "
                          "discarded and will be played on the next run")
            raise SystemExit(EXIT_INTERRUPTED)
        if (until_stable or versus) and not status.stable:
            raise SystemExit(EXIT_UNSETTLED)


def renewed_builtins(store: Store, register: Callable[[], object]) -> list[str]:
    """`register` the built-in bots; a line for each whose code changed
    since its last registration: a new version, with a fresh rating."""
    before = {b.name: b.label for b in store.bots(active_only=True) if b.kind == "builtin"}
    register()
    return [f"note: the built-in {b.name} has a new version, {b.version} (its code changed): it starts with a fresh "
            f"rating; {before[b.name]} keeps its own (`referee table --all` shows it)"
            for b in store.bots(active_only=True) if b.kind == "builtin" and before.get(b.name, b.label) != b.label]


def fresh_rating(name: str, version: str, versions: Sequence[BotRow]) -> str:
    """What a newly registered version means for its rating, when `name`
    had versions before: it starts afresh, the older ones keep theirs."""
    earlier = [b.label for b in versions if b.version != version]
    if not earlier:
        return ""
    return (f"; a new version of {name}: it starts with a fresh rating (each version is rated apart), "
            f"{earlier[-1]} keeps its own (`referee table --all` shows it)")


def reveal_line(store: Store, game: str) -> str:
    """What the run's chain reveals now that it has ended."""
    from ladder.deals.audit import chain_reveals

    last = chain_reveals(store, game)[-1]
    if last.complete:
        shown = f"its ladder seed {last.revealed}, from which every deal of the chain follows"
    elif last.revealed is not None:
        shown = (f"the deals of sets 1-{last.revealed_index}, by chain element {last.revealed_index} "
                 f"({last.revealed}), from which they follow (the later sets are still to be played)")
    else:
        shown = "nothing yet (no set finished)"
    return f"deals revealed: seed chain {last.chain_id}, {shown}; `referee ladder-audit` checks every match"


def find_versus(store: Store, game: str, names: tuple[str, str],
                variant: dict[str, str] | None = None) -> tuple[int, int]:
    """The bot ids of --versus NEW OLD (NAME is the active version, NAME@VERSION
    any version): two different bots that play `game` (and `variant`)."""
    from ladder.store.rule_set_names import plays

    ids = []
    for text in names:
        name, _, version = text.partition("@")
        found = [b for b in store.bot_versions(name) if (b.version == version if version else b.active)]
        if not found:
            known = ", ".join(f"{name}@{b.version}" for b in store.bot_versions(name)) or "none registered"
            raise click.BadParameter(f"no bot {safe_line(text)} ({known})", param_hint="--versus")
        if game not in found[-1].games:
            raise click.BadParameter(f"{found[-1].label} does not play {game}", param_hint="--versus")
        if variant and not plays(game, variant, found[-1].variants):
            raise click.BadParameter(f"{found[-1].label} does not declare the variant", param_hint="--versus")
        ids.append(found[-1].bot_id)
    if ids[0] == ids[1]:
        raise click.BadParameter("NEW and OLD are the same bot version", param_hint="--versus")
    return ids[0], ids[1]


@click.command()
@db_option
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--h2h", is_flag=True, help="Add the head-to-head matrix.")
@click.option("--seats", is_flag=True, help="Add the win share per seat position.")
@click.option("--all", "include_retired", is_flag=True, help="Include older versions of each bot.")
@variant_option("Show the ladder of this rule set, NAME=VALUE (repeatable; default: the base rules, with --server "
                "the rule set the service plays): each rule set is rated apart.")
@confidence_option
@margin_option
@remote_options
@config_option(exposed=False)
def table(db_path: Path | None, game: str, as_json: bool, h2h: bool, seats: bool, include_retired: bool,
          variants: tuple[str, ...], confidence: float, margin: float | None, server: str | None,
          token: str | None, tls_ca: Path | None) -> None:
    """Show the standings of the ladder (one rule set: the base rules, or the service's, unless --variant)."""
    from ladder.store.rule_set_names import rule_set_of
    from ladder.rating.standings import to_json
    from ladder.rating.stopping import DEFAULT_MARGIN

    margin = margin or DEFAULT_MARGIN
    variant = parse_variant(variants, game)
    rule_set = rule_set_of(game, variant)
    if server is not None:
        console = make_console()
        with remote(server, token, tls_ca) as service:
            reply = service.standings(game, h2h=h2h, seats=seats, include_retired=include_retired,
                                      confidence=confidence, margin=margin, text=not as_json,
                                      width=console.width, color=console.is_terminal, variant=variant)
        click.echo(reply.json if as_json else reply.text, nl=as_json)
        return
    with open_store(db_path, create=False) as store:
        if as_json:
            click.echo(json.dumps(to_json(store, game, h2h=h2h, seats=seats, include_retired=include_retired,
                                          confidence=confidence, margin=margin, rule_set=rule_set), indent=2))
            return
        print_table(store, make_console(), game, h2h=h2h, seats=seats, include_retired=include_retired,
                    confidence=confidence, margin=margin, rule_set=rule_set)


@click.command()
@click.argument("name")
@click.option("--version", "version", default=None, help="The version (default: the active one).")
@click.option("--lines", type=click.IntRange(min=1), default=40, show_default=True, help="Lines from the end of each log.")
@game_option
@db_option
@remote_options
def logs(name: str, version: str | None, lines: int, game: str, db_path: Path | None, server: str | None,
         token: str | None, tls_ca: Path | None) -> None:
    """Show a bot's own output and its forfeits."""
    from ladder.rating.standings import forfeits_of
    from referee.sandbox.logpipe import rotated_path

    if server is not None:
        with remote(server, token, tls_ca) as service:
            print_remote_logs(service.logs(name, version, lines, game))
        return
    with open_store(db_path, create=False) as store:
        versions = store.bot_versions(name)
        chosen = [b for b in versions if (b.version == version if version else b.active)]
        if not chosen:
            known = ", ".join(b.version for b in versions) or "none"
            raise click.ClickException(f"no bot {name!r} version {version or '(active)'}; versions: {known}")
        bot = chosen[-1]
        path = version_log_path(store.logs_dir, bot.label)
        if path.exists():
            click.echo(f"== {path}")
            click.echo(safe_block("\n".join(path.read_text(errors="replace").splitlines()[-lines:])))
            if rotated_path(path).exists():
                click.echo(f"(its older output, rotated out at the size cap, is in {rotated_path(path)})")
        else:
            click.echo(f"{bot.label} has no logs yet (they are written while it plays ladder matches)")
        for match_id, reason in forfeits_of(store, game, bot.bot_id):
            click.echo(f"forfeit in {match_id}: {safe_line(reason)} (see `referee replay` of its record)")


def print_remote_logs(reply: Any) -> None:
    """A ladder service's BotLogsReply, printed as `referee logs` prints a
    local bot's (the log's place is the service's business, not shown)."""
    if reply.has_log:
        click.echo(f"== {safe_line(reply.label)}, its output on the ladder service")
        click.echo(safe_block(reply.text))
        if reply.rotated:
            click.echo("(its older output was rotated out at the size cap; the service's operator keeps it)")
    else:
        click.echo(f"{reply.label} has no logs yet (they are written while it plays ladder matches)")
    for forfeit in reply.forfeits:
        click.echo(f"forfeit in {forfeit.match_id}: {safe_line(forfeit.reason)} (see `referee replay` of its record)")
