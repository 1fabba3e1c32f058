"""`referee serve` (the ladder as a service) and `referee token` (its submitters' tokens).

Registered in referee/cli/main.py's command table. `serve` takes the
ladder's own options (ladder/cli.py), where to listen and, with `--web`,
where to serve the live page (ladder/live.py, following the service's
stream of finished matches). One service plays one rule set of its game
(`--variant`, the base rules without): its ladder seats only the bots
that declare that rule set, and its API and live page show that rule set
unless asked for another. A store has one run lock, so another rule set
is played by restarting the service with its --variant (the ratings of
each stay apart in the store) or by a second service on a store of its
own. `token` manages
the tokens of the data folder the --db names.
"""

from __future__ import annotations

import sys
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

import click

from ladder.cli import (
    DEFAULT_MOVE_TIME, MIN_MOVE_TIME, check_cluster_options, config_option, db_option, game_option, open_store,
    parse_players, parse_variant, scheduler_option, workers_option,
)
from ladder.intake import MAX_BYTES, MAX_DEPTH, MAX_FILES, MIB, Limits
from ladder.store import StoreError, default_db_path
from referee.durations import Duration, format_duration

if TYPE_CHECKING:
    from ladder.config_file import LadderFile
    from ladder.service.events import Broadcaster

DEFAULT_LISTEN = "127.0.0.1:50061"


@click.command()
@click.option("--listen", default=DEFAULT_LISTEN, show_default=True, metavar="HOST:PORT|unix:PATH",
              help="Where the API listens. Beyond 127.0.0.1 or a local socket, tokens and TLS are required.")
@click.option("--require-tokens", is_flag=True, help="Require a token for submissions on a local address too.")
@click.option("--tls-cert", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The service's TLS certificate (PEM); with --tls-key.")
@click.option("--tls-key", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The certificate's private key (PEM).")
@scheduler_option
@workers_option
@click.option("--move-time", type=Duration(minimum=MIN_MOVE_TIME), default=format_duration(DEFAULT_MOVE_TIME),
              show_default=True, help="Time per decision, the referee's deadline (2s, 250ms).")
@click.option("--players", default="3-4", show_default=True, help="Table size, or a range like 3-4.")
@click.option("--no-duplicate", is_flag=True, help="One match per table instead of one per seat rotation.")
@click.option("--no-builtins", is_flag=True, help="Leave the built-in bots out: not registered, and those registered "
              "before do not play.")
@click.option("--seed", type=int, default=None, help="Seed of the matchmaking (tables and deals).")
@click.option("--variant", "variants", multiple=True, metavar="NAME=VALUE",
              help="Play this rule set's ladder, NAME=VALUE (repeatable; default: the base rules): it seats only the "
                   "bots that declare it and is rated apart; the API and the live page show it unless asked for another.")
@click.option("--max-mib", type=click.IntRange(min=1), default=MAX_BYTES // MIB, show_default=True,
              help="Refuse a submitted bot whose files hold more MiB than this (and an upload past it).")
@click.option("--max-files", type=click.IntRange(min=1), default=MAX_FILES, show_default=True,
              help="Refuse a submitted bot of more files and folders than this.")
@click.option("--max-depth", type=click.IntRange(min=0), default=MAX_DEPTH, show_default=True,
              help="Refuse a submitted bot whose folders nest deeper than this.")
@click.option("--web", default=None, metavar="[HOST:]PORT",
              help="Also serve the live standings page here (HTTP, on 127.0.0.1 unless HOST is given; 0: any port).")
@game_option
@db_option
@config_option(exposed=True)
def serve(listen: str, require_tokens: bool, tls_cert: Path | None, tls_key: Path | None, scheduler: str | None,
          workers: int | None, move_time: float, players: str, no_duplicate: bool, no_builtins: bool,
          seed: int | None, variants: tuple[str, ...], max_mib: int, max_files: int, max_depth: int, web: str | None,
          game: str, db_path: Path | None, ladder_file: LadderFile | None) -> None:
    """Run the ladder continuously and answer its API (submissions, standings, live stream)."""
    from ladder.access import Access
    from ladder.cluster import ClusterError, open_pool
    from ladder.roster import register_builtins
    from ladder.rule_set_names import heading, rule_set_of
    from ladder.scheduler import LadderConfig
    from ladder.service.api import ServiceSettings, remove_stale_uploads
    from ladder.service.events import Broadcaster
    from ladder.service.server import (
        STOP_GRACE, ServiceError, Tls, check_listen, parse_listen, run_ladder, start_api, stop_on_sigterm,
    )
    from referee.sandbox import capabilities

    check_cluster_options(workers, scheduler)
    sizes = parse_players(players, game)
    variant = parse_variant(variants, game)
    rule_set = rule_set_of(game, variant)
    if (tls_cert is None) != (tls_key is None):
        raise click.UsageError("--tls-cert and --tls-key go together: give both, or neither")
    tls = Tls(tls_cert, tls_key) if tls_cert is not None and tls_key is not None else None
    try:
        where = parse_listen(listen)
        tokens = check_listen(where, tls, require_tokens)
    except ServiceError as exc:
        raise click.BadParameter(str(exc), param_hint="--listen") from None
    limits = Limits(max_bytes=max_mib * MIB, max_files=max_files, max_depth=max_depth)
    page_at = parse_web(web) if web is not None else None
    with open_store(db_path) as store, ExitStack() as held:
        try:  # one ladder per store: the service is the store's one owner
            held.enter_context(store.run_lock())
        except StoreError as exc:
            raise click.ClickException(str(exc)) from None
        remove_stale_uploads(store.root)
        if not no_builtins:
            register_builtins(store, game)
        access = Access(store.root)
        held.callback(access.close)
        events = Broadcaster()
        held.callback(events.close)
        try:
            server = start_api(ServiceSettings(store.path, game, limits, tokens, rule_set), access, events, where, tls)
        except ServiceError as exc:
            raise click.ClickException(str(exc)) from None
        held.callback(server.stop, STOP_GRACE)
        click.echo(capabilities().summary(), err=True)
        if page_at is not None:
            click.echo(f"live page: {start_page(store.path, game, rule_set, events, page_at, held)}", err=True)
        click.echo(f"serving the {heading(game, rule_set)} on {where.address} (tokens {'required' if tokens else 'optional'}, "
                   f"TLS {'on' if tls else 'off'}); Ctrl-C stops it", err=True)
        stop_on_sigterm()
        config = LadderConfig(game=game, matches=sys.maxsize, sizes=sizes, duplicate=not no_duplicate,
                              variant=variant, seed=seed, builtins=not no_builtins)

        def pool() -> object:
            try:
                return open_pool(scheduler, move_time, workers=workers, logs_dir=store.logs_dir,
                                 limits=ladder_file.limits if ladder_file is not None else None)
            except ClusterError as exc:
                raise click.ClickException(str(exc)) from None

        try:
            run_ladder(store, config, pool, events, lambda line: click.echo(line, err=True))  # type: ignore[arg-type]
        except KeyboardInterrupt:
            pass
        click.echo("stopped: rated matches are kept; running ones are played when the service starts again", err=True)


def parse_web(value: str) -> tuple[str, int]:
    """`--web PORT` or `--web HOST:PORT` as (host, port); 127.0.0.1 by default."""
    host, _, port = value.rpartition(":")
    if not port.isdigit() or int(port) > 65535:
        raise click.BadParameter(f"{value!r} is not PORT or HOST:PORT (e.g. 8080 or 127.0.0.1:8080)",
                                 param_hint="--web")
    return host.strip("[]") or "127.0.0.1", int(port)


def start_page(db_path: Path, game: str, rule_set: str, events: Broadcaster, at: tuple[str, int],
               held: ExitStack) -> str:
    """The live page (ladder/live.py) of the rule set the service plays,
    following its finished matches, served until the service stops; its address."""
    from ladder.live import LiveServer

    try:
        page = LiveServer(db_path, game, at[1], at[0], events=events, rule_set=rule_set)
    except OSError as exc:
        raise click.ClickException(f"cannot serve the live page on {at[0]}:{at[1]} ({exc.strerror or exc}); "
                                   "choose another --web port") from None
    page.start()
    held.callback(page.stop)
    return page.url


@click.group()
def token() -> None:
    """Issue, list and revoke the tokens submitters use with `--server`."""


@token.command("add")
@click.argument("name")
@db_option
def token_add(name: str, db_path: Path | None) -> None:
    """Issue a token for the submitter NAME (shown once: hand it over now)."""
    from ladder.access import Access, AccessError

    access = Access((db_path or default_db_path()).parent)
    try:
        secret = access.add_token(name)
    except AccessError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        access.close()
    click.echo(secret)
    click.echo(f"token for {name}; it is shown only now. The submitter passes it with --token (or $REFEREE_TOKEN).",
               err=True)


@token.command("list")
@db_option
def token_list(db_path: Path | None) -> None:
    """List the submitters that hold a token."""
    from ladder.access import Access

    access = Access((db_path or default_db_path()).parent)
    try:
        for held in access.tokens():
            click.echo(f"{held.name}\t{held.created_at}")
    finally:
        access.close()


@token.command("revoke")
@click.argument("name")
@db_option
def token_revoke(name: str, db_path: Path | None) -> None:
    """Revoke NAME's token (its bots stay registered and stay NAME's)."""
    from ladder.access import Access, AccessError

    access = Access((db_path or default_db_path()).parent)
    try:
        if not access.revoke(name):
            raise click.ClickException(f"no token named {name!r}; `referee token list` shows them")
    except AccessError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        access.close()
    click.echo(f"revoked the token of {name}")
