"""`referee serve`: the ladder as a service, played continuously, answering its API.

`serve` takes the ladder's own options (ladder/cli/options.py), where to
listen and, with `--web`, where to serve the live page
(ladder/service/live.py, following the service's stream of finished
matches). One service plays one rule set of its game (`--variant`, the
base rules without): its ladder seats only the bots that declare that
rule set, and its API and live page show that rule set unless asked for
another. A store has one run lock, so another rule set is played by
restarting the service with its --variant (the ratings of each stay apart
in the store) or by a second service on a store of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import click

from ladder.cli.config_file import LadderFile
from ladder.cli.options import (
    config_option,
    db_option,
    game_option,
    move_time_option,
    no_duplicate_option,
    open_store,
    parse_players,
    parse_variant,
    players_option,
    submission_limit_options,
)
from ladder.cli.pool import check_cluster_options, scheduler_option, workers_option
from ladder.intake.copying import MIB, Limits
from ladder.intake.roster import register_builtins
from ladder.running.cluster import ClusterError, open_pool
from ladder.scheduling.scheduler import LadderConfig
from ladder.service.access import DEFAULT_MAX_NAMES, Access, AccessError
from ladder.service.addresses import Listen
from ladder.service.api import LadderCalls, ServiceSettings, remove_stale_uploads
from ladder.service.audit import AuditLog
from ladder.service.events import Broadcaster
from ladder.service.live import LiveServer
from ladder.service.quotas import Quotas, Rate
from ladder.service.server import (
    STOP_GRACE,
    ServiceError,
    Shutdown,
    Tls,
    check_listen,
    parse_listen,
    run_ladder,
    start_api,
)
from ladder.service.servicer import LadderServicer
from ladder.service.tables import PersonTables
from ladder.store.database import StoreError
from ladder.store.rule_set_names import heading, rule_set_of
from referee.durations import Duration, format_duration
from referee.sandbox import SandboxPolicy, capabilities
from referee.sandbox.policy import Limits as SandboxLimits

DEFAULT_LISTEN = "127.0.0.1:50061"
QUOTAS = Quotas()


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
@move_time_option()
@players_option
@no_duplicate_option
@click.option("--no-builtins", is_flag=True, help="Leave the built-in bots out: not registered, and those registered "
              "before do not play.")
@click.option("--seed", type=int, default=None, help="Seed of the matchmaking (tables and deals).")
@click.option("--variant", "variants", multiple=True, metavar="NAME=VALUE",
              help="Play this rule set's ladder, NAME=VALUE (repeatable; default: the base rules): it seats only the "
                   "bots that declare it and is rated apart; the API and the live page show it unless asked for another.")
@submission_limit_options
@click.option("--max-names-per-token", type=click.IntRange(min=1), default=DEFAULT_MAX_NAMES, show_default=True,
              help="Bot names one submitter's token may hold.")
@click.option("--submits-per-hour", type=click.FloatRange(min=0.01), default=QUOTAS.submits.per_second * 3600,
              show_default=True, help="Submissions one client (token, else host) may make an hour, in bursts of "
                                      f"{QUOTAS.submits.burst:g} (or a tenth of an hour's).")
@click.option("--calls-per-second", type=click.FloatRange(min=0.01), default=QUOTAS.reads.per_second,
              show_default=True, help="Other calls one client may make a second, in bursts of three times as many.")
@click.option("--max-watchers", type=click.IntRange(min=1), default=QUOTAS.streams, show_default=True,
              help="Live streams (Watch) open at once.")
@click.option("--max-watchers-per-client", type=click.IntRange(min=1), default=QUOTAS.streams_per_client,
              show_default=True, help="Live streams one client may have open.")
@click.option("--watch-lifetime", type=Duration(minimum=1.0), default=format_duration(QUOTAS.watch_lifetime),
              show_default=True, help="How long one live stream lives (then the reader watches again).")
@click.option("--web", default=None, metavar="[HOST:]PORT",
              help="Also serve the live standings page here (HTTP, on 127.0.0.1 unless HOST is given; 0: any port).")
@game_option
@db_option
@config_option(exposed=True)
def serve(listen: str, require_tokens: bool, tls_cert: Path | None, tls_key: Path | None, scheduler: str | None,
          workers: int | None, move_time: float, players: str, no_duplicate: bool, no_builtins: bool,
          seed: int | None, variants: tuple[str, ...], max_mib: int, max_files: int, max_depth: int,
          max_names_per_token: int, submits_per_hour: float, calls_per_second: float, max_watchers: int,
          max_watchers_per_client: int, watch_lifetime: float, web: str | None, game: str,
          db_path: Path | None, ladder_file: LadderFile | None) -> None:
    """Run the ladder continuously and answer its API (submissions, standings, live stream)."""
    echo: Callable[[str], None] = lambda line: click.echo(line, err=True)  # noqa: E731
    shutdown = Shutdown(echo)
    shutdown.install()  # first: a signal while it starts stops it as any other
    try:
        check_cluster_options(workers, scheduler)
        if (tls_cert is None) != (tls_key is None):
            raise click.UsageError("--tls-cert and --tls-key go together: give both, or neither")
        tls = Tls(tls_cert, tls_key) if tls_cert is not None and tls_key is not None else None
        try:
            where = parse_listen(listen)
            tokens = check_listen(where, tls, require_tokens)
        except ServiceError as exc:
            raise click.BadParameter(str(exc), param_hint="--listen") from None
        quotas = Quotas(submits=Rate(submits_per_hour / 3600, min(submits_per_hour, max(QUOTAS.submits.burst,
                                                                                         submits_per_hour / 6))),
                        reads=Rate(calls_per_second, 3 * calls_per_second), streams=max_watchers,
                        streams_per_client=max_watchers_per_client, watch_lifetime=watch_lifetime)
        limits = Limits(max_bytes=max_mib * MIB, max_files=max_files, max_depth=max_depth)
        run_service(db_path, game, parse_players(players, game), parse_variant(variants, game), seed, no_duplicate,
                    no_builtins, scheduler, workers, move_time, limits,
                    ladder_file.limits if ladder_file is not None else None, max_names_per_token, quotas, where,
                    tls, tokens, parse_web(web) if web is not None else None, echo, shutdown)
    except KeyboardInterrupt:
        pass
    echo("stopped: rated matches are kept; running ones are played when the service starts again")


def run_service(db_path: Path | None, game: str, sizes: tuple[int, ...], variant: dict[str, str], seed: int | None,
                no_duplicate: bool, no_builtins: bool, scheduler: str | None, workers: int | None,
                move_time: float, limits: Limits, bot_limits: SandboxLimits | None, max_names: int, quotas: Quotas,
                where: Listen, tls: Tls | None, tokens: bool, page_at: tuple[str, int] | None, echo: Callable[[str], None],
                shutdown: Shutdown) -> None:
    """The service: the store held, the API and page started, the ladder
    played until Ctrl-C or SIGTERM (KeyboardInterrupt, which this lets through).
    `limits` bound a submission's files, `bot_limits` (the config file's,
    or the sandbox's defaults) each bot's process tree."""
    rule_set = rule_set_of(game, variant)
    with open_store(db_path) as store, ExitStack() as held:
        try:  # one ladder per store: the service is the store's one owner
            held.enter_context(store.run_lock("referee serve"))
        except StoreError as exc:
            raise click.ClickException(str(exc)) from None
        remove_stale_uploads(store.root)
        if not no_builtins:
            register_builtins(store, game)
        access = Access(store.root, max_names=max_names)
        held.callback(access.close)
        for name in access.release_unregistered({bot.name for bot in store.bots()}):
            echo(f"released the name {name!r}: its submission was cut off before its bot was registered")
        events = Broadcaster()
        settings = ServiceSettings(store.path, game, limits, tokens, rule_set)
        servicer = LadderServicer(LadderCalls(settings, access, AuditLog(store.root)), events, quotas)
        try:
            server = start_api(servicer, where, tls)
        except ServiceError as exc:
            raise click.ClickException(str(exc)) from None
        held.callback(server.stop, STOP_GRACE)
        held.callback(events.close)  # first: the live streams end at once, before the API stops
        echo(capabilities().summary())
        if page_at is not None:
            tables = person_tables(store.path, game, variant, access, bot_limits, not no_builtins, move_time, page_at,
                                   echo)
            echo(f"live page: {start_page(store.path, game, rule_set, events, page_at, held, tables)}")
        echo(f"serving the {heading(game, rule_set)} on {where.address} (tokens {'required' if tokens else 'optional'}, "
             f"TLS {'on' if tls else 'off'}); Ctrl-C stops it")
        config = LadderConfig(game=game, matches=sys.maxsize, sizes=sizes, duplicate=not no_duplicate,
                              variant=variant, seed=seed, builtins=not no_builtins)

        def pool() -> object:
            try:
                return open_pool(scheduler, move_time, workers=workers, logs_dir=store.logs_dir,
                                 limits=bot_limits)
            except ClusterError as exc:
                raise click.ClickException(str(exc)) from None

        run_ladder(store, config, pool, events, echo, shutdown)  # type: ignore[arg-type]


def parse_web(value: str) -> tuple[str, int]:
    """`--web PORT` or `--web HOST:PORT` as (host, port); 127.0.0.1 by default."""
    host, _, port = value.rpartition(":")
    if not port.isdigit() or int(port) > 65535:
        raise click.BadParameter(f"{value!r} is not PORT or HOST:PORT (e.g. 8080 or 127.0.0.1:8080)",
                                 param_hint="--web")
    return host.strip("[]") or "127.0.0.1", int(port)


def person_tables(db_path: Path, game: str, variant: dict[str, str], access: Access,
                  bot_limits: SandboxLimits | None, builtins: bool, move_time: float, at: tuple[str, int],
                  echo: Callable[[str], None]) -> PersonTables | None:
    """A person's tables beside the live page (ladder/service/tables.py), when it is
    served on this machine only: a token sent to a page served beyond it
    would cross the network in clear. The bots there keep the ladder's
    `move_time`; the person gets a person's clock."""
    if at[0] not in ("127.0.0.1", "::1", "localhost"):
        echo("person tables are off: the live page is served beyond this machine, where a token would cross the "
             "network in clear")
        return None

    def holder(token: str) -> str | None:
        try:
            return access.holder(token)
        except AccessError:
            return None
    return PersonTables(db_path, game, variant, holder, SandboxPolicy(limits=bot_limits or SandboxLimits()),
                        builtins=builtins, move_time=move_time)


def start_page(db_path: Path, game: str, rule_set: str, events: Broadcaster, at: tuple[str, int],
               held: ExitStack, tables: PersonTables | None = None) -> str:
    """The live page (ladder/service/live.py) of the rule set the service plays,
    following its finished matches, served until the service stops; its address."""
    try:
        page = LiveServer(db_path, game, at[1], at[0], events=events, rule_set=rule_set, tables=tables)
    except OSError as exc:
        raise click.ClickException(f"cannot serve the live page on {at[0]}:{at[1]} ({exc.strerror or exc}); "
                                   "choose another --web port") from None
    page.start()
    held.callback(page.stop)
    return page.url
