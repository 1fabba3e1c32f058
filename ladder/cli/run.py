"""`referee ladder`: run the ladder: schedule matches, rate them, show the standings.

The run plays on a Dask pool (ladder/cli/pool.py), shows itself live on a
terminal or as lines in a log, optionally serves the live page (--web), and
ends with the standings, what the run played and which deals it revealed.
Exit status 0, or EXIT_UNSETTLED when --until-stable or --versus ran out of
budget, EXIT_INTERRUPTED after Ctrl-C (finished matches are kept).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import click

from ladder.cli.config_file import LadderFile
from ladder.cli.options import (
    confidence_option,
    config_option,
    db_option,
    game_option,
    margin_option,
    move_time_option,
    no_duplicate_option,
    open_store,
    parse_players,
    parse_variant,
    players_option,
)
from ladder.cli.pool import check_cluster_options, dask_pool, scheduler_option, workers_option
from ladder.deals.audit import chain_reveals
from ladder.intake.roster import register_builtins
from ladder.rating.sprt import Sprt
from ladder.rating.standings import mean_set_size, pair_statuses, standings
from ladder.rating.stopping import DEFAULT_MARGIN
from ladder.reporting.console import make_console
from ladder.reporting.progress import ProgressLines
from ladder.reporting.render import (LiveView, game_figures_table, pairs_report, standings_table, table_notes,
                                     versus_report)
from ladder.scheduling.scheduler import Ladder, LadderConfig, LadderError, game_roster, seatable
from ladder.scheduling.scheduler import recompute as do_recompute
from ladder.service.live import LiveServer
from ladder.store.database import Store, StoreError
from ladder.store.rule_set_names import heading, plays, rule_set_of
from ladder.tournament.commitment import load as load_tournament
from referee.games.plugin import match_game
from referee.cli.variants import variant_option
from referee.sandbox import capabilities
from referee.untrusted import MESSAGE_LIMIT, safe_line

DEFAULT_MATCHES = 48
DEFAULT_STABLE_BUDGET = 400
EXIT_INTERRUPTED = 130
"""The shell's code for a run stopped by SIGINT."""
EXIT_UNSETTLED = 3
"""`referee ladder --until-stable` or `--versus` spent its budget before the
question was settled (docs/ladder.md)."""


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
@move_time_option()
@players_option
@no_duplicate_option
@click.option("--judge-by", type=click.Choice(["score", "places"]), default="score", show_default=True,
              help="What --until-stable and --versus judge a pair by: its chips where the game's match is ranked "
                   "by a score (Leduc), else places; `places` in every game (fewer matches for pairs far apart).")
@click.option("--recompute", is_flag=True, help="Recompute ratings from the stored results, compare, and exit.")
@click.option("--no-builtins", is_flag=True, help="Leave the built-in bots out: not registered, and those registered "
              "before do not play.")
@click.option("--seed", type=int, default=None,
              help="Seed of the matchmaking (which bots meet, seats); deals come from the committed seed chain.")
@variant_option("A variant option of the game, NAME=VALUE (repeatable): a ladder of that rule set, rated apart "
                "from the others, among the bots that declare it.")
@click.option("--hands", type=click.IntRange(min=1), default=None,
              help="Leduc poker: hands per match, ranked by the chips won in all (rules L-7) [default: 100].")
@game_option
@db_option
@click.option("--web", "web_port", type=click.IntRange(0, 65535), default=None,
              help="Serve the live standings page on this port of 127.0.0.1 while the ladder runs.")
@config_option(exposed=True)
def ladder(matches: int | None, until_stable: bool, confidence: float, margin: float | None,
           versus: tuple[str, str] | None, alpha: float, beta: float, workers: int | None,
           scheduler: str | None, move_time: float, players: str, no_duplicate: bool, judge_by: str, recompute: bool,
           no_builtins: bool, seed: int | None,
           variants: tuple[str, ...], hands: int | None, game: str, db_path: Path | None, web_port: int | None,
           ladder_file: LadderFile | None) -> None:
    """Run the ladder: schedule matches, rate them, show the standings."""
    if versus and until_stable:
        raise click.UsageError("--versus and --until-stable ask different questions: choose one")

    check_cluster_options(workers, scheduler)
    sizes = parse_players(players, game)
    variant = parse_variant(variants, game)
    rule_set = rule_set_of(game, variant)
    match_format = {} if hands is None else {"hands": hands}
    try:
        match_game(game, match_format)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    console = make_console()
    with open_store(db_path) as store, ExitStack() as held:
        try:  # one ladder per store: a second would play the planned matches again
            held.enter_context(store.run_lock())
        except StoreError as exc:
            raise click.ClickException(str(exc)) from None
        if load_tournament(store) is not None:  # its table counts every match of the store
            raise click.ClickException(f"{store.path} holds a tournament: a ladder's matches would count in its "
                                       "table; run the ladder on a store of its own (--db)")
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
                              sizes=sizes, duplicate=not no_duplicate, by_score=judge_by == "score",
                              variant=variant, seed=seed,
                              builtins=not no_builtins, match_format=match_format)
        pool = held.enter_context(dask_pool(scheduler, move_time, workers, store.logs_dir,
                                            ladder_file.limits if ladder_file is not None else None))
        if web_port is not None:  # the live page (ladder/service/live.py) reads the store beside the run
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
        pairs = pair_statuses(store, game, rows, confidence=confidence, margin=config.margin, rule_set=rule_set,
                              by_score=config.by_score)
        console.print(standings_table(rows, heading(game, rule_set), pairs, width=console.width,
                                      set_size=mean_set_size(store, game, rule_set)))
        console.print(table_notes(confidence, config.margin, runner.basis()))
        figures = game_figures_table(store, game, rows, rule_set)  # chips per 100 hands, Saboteur's roles
        if figures is not None:
            console.print(figures)
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


def reveal_line(store: Store, game: str) -> str:
    """What the run's chain reveals now that it has ended."""
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


@contextmanager
def live_page(db_path: Path, game: str, port: int, rule_set: str = "") -> Iterator[str]:
    """Serve the live page of one rule set while the block runs; yields its
    address. Raises click.ClickException when the port cannot be had."""
    try:
        server = LiveServer(db_path, game, port, rule_set=rule_set)
    except OSError as exc:
        raise click.ClickException(f"cannot serve the live page on port {port}: {exc.strerror or exc}") from None
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
