"""`referee tournament`: a fixed-schedule tournament (round robin, gauntlet, Swiss).

A tournament keeps a store of its own (--db, default tournament.sqlite
beside the ladder's): its schedule is committed there, and published as
one hash, before the first match (ladder.tournament.commitment); its deals
come from a seed chain committed inside that schedule; its matches run as
the ladder's do (Dask workers, bots in their jails, the same records and
ratings). Running the command again on the same store resumes it: the
planned sets are played first, each exactly once. `--verify` checks the
stored schedule against its commitment (and the published one, given with
--commitment) and every match against the schedule. Exit status 0, 1 for
a failed check, EXIT_INTERRUPTED after Ctrl-C.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path

import click
from rich.table import Table

from ladder.cli.options import (
    game_option,
    move_time_option,
    open_store,
    parse_variant,
)
from ladder.cli.pool import check_cluster_options, dask_pool, scheduler_option, workers_option
from ladder.cli.run import EXIT_INTERRUPTED, live_page
from ladder.intake.roster import register_builtins
from ladder.reporting.console import make_console
from ladder.scheduling.scheduler import game_roster
from ladder.store.database import BotRow, Store, StoreError, default_db_path
from ladder.store.rule_set_names import plays
from ladder.tournament import schedule as sched
from ladder.tournament.commitment import Tournament, load, verify
from ladder.tournament.plan import create
from ladder.tournament.results import Entry, final_table
from ladder.tournament.run import TournamentError, TournamentRun, TournamentStatus, finished
from referee.cli.variants import variant_option
from referee.games import load_game
from referee.sandbox import capabilities
from referee.untrusted import MESSAGE_LIMIT, safe_line

DB_NAME = "tournament.sqlite"


@click.command()
@click.option("--format", "fmt", type=click.Choice(sched.FORMATS), default=None,
              help="The schedule: every pair (or table) meets once a cycle, the champion meets every other "
                   "bot, or Swiss rounds paired by the standings. Needed to start; a resumed tournament "
                   "keeps its own.")
@click.option("--bots", default=None, metavar="NAME,NAME,...",
              help="The bots, in seeding order (NAME or NAME@VERSION; default: every active bot of the game).")
@click.option("--champion", default=None, metavar="NAME", help="The gauntlet's champion, who meets every other bot.")
@click.option("--players", "seats", type=click.IntRange(min=2), default=None,
              help="Seats at each table (default: the game's fewest).")
@click.option("--cycles", type=click.IntRange(1, 100), default=None,
              help="Round robin, gauntlet: how often the whole schedule is played, each time with new deals "
                   "(default 1).")
@click.option("--rounds", type=click.IntRange(1, 100), default=None,
              help="Swiss: rounds (default ceil(log2 of the bots) at two seats).")
@click.option("--no-builtins", is_flag=True, help="Do not register the built-in bots in the store.")
@move_time_option()
@click.option("--verify", "check", is_flag=True,
              help="Check the stored schedule against its commitment and every match against it, then exit.")
@click.option("--commitment", default=None, metavar="HEX",
              help="With --verify: the schedule commitment as it was published.")
@workers_option
@scheduler_option
@variant_option("A variant option of the game, NAME=VALUE (repeatable): the tournament's rule set.")
@game_option
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help=f"The tournament's own store (default: {DB_NAME} beside the ladder's database).")
@click.option("--web", "web_port", type=click.IntRange(0, 65535), default=None,
              help="Serve the live page (the report, with the tournament's table) on this port of 127.0.0.1.")
def tournament(fmt: str | None, bots: str | None, champion: str | None, seats: int | None, cycles: int | None,
               rounds: int | None, no_builtins: bool, move_time: float, check: bool, commitment: str | None,
               workers: int | None, scheduler: str | None, variants: tuple[str, ...], game: str,
               db_path: Path | None, web_port: int | None) -> None:
    """Play a fixed-schedule tournament (round robin, gauntlet, Swiss), its schedule committed before the first
    match; run it again to resume."""
    check_cluster_options(workers, scheduler)
    if commitment is not None and not check:
        raise click.UsageError("--commitment is what --verify checks against: add --verify")
    path = db_path or default_db_path().with_name(DB_NAME)
    console = make_console()
    with open_store(path, create=not check) as store, ExitStack() as held:
        found = load(store)
        if check:
            raise SystemExit(_verify(store, found, commitment, path))
        try:  # one run per store: a second would play the planned matches again
            held.enter_context(store.run_lock("referee tournament"))
        except StoreError as exc:
            raise click.ClickException(str(exc)) from None
        if found is None:
            found = _start(store, game, parse_variant(variants, game), fmt, bots, champion, seats, cycles, rounds,
                           builtins=not no_builtins)
        else:
            differs = _differences(found, game, fmt, bots, champion, seats, cycles, rounds)
            if differs:
                raise click.ClickException(
                    f"{path} holds a {found.schedule['format']} tournament of {found.game} (commitment "
                    f"{found.commitment}) whose {differs[0]} is not the one given: resume it with `referee "
                    f"tournament --game {found.game} --db {path}`, or start another with --db NEW")
        click.echo(_published(found))
        if finished(store, found):  # its table is shown without starting workers
            store.end_chain(found.chain_id)  # (a run killed after the last match had not ended it)
            status = TournamentStatus(scheduled=0, complete=True)
        else:
            status = _play(store, found, held, move_time, workers, scheduler, web_port)
        entries, ordinal = final_table(store, found)
        console.print(_table(entries, found))
        console.print(_ordinal_lines(ordinal), markup=False, highlight=False)
        console.print(f"played {status.played} matches in this run; {status.failed} failures (retried, never "
                      f"rated); records in {store.records_dir}", markup=False, highlight=False)
        if status.interrupted:
            console.print(f"stopped by Ctrl-C: finished matches are kept; {status.discarded} running ones will be "
                          "played when you run the same command again", markup=False, highlight=False)
            raise SystemExit(EXIT_INTERRUPTED)
        console.print(f"tournament complete; its deals may now be revealed (`referee ladder-audit --game "
                      f"{found.game} --db {path}`), its schedule checked (`referee tournament --verify "
                      f"--commitment {found.commitment} --db {path}`)", markup=False, highlight=False)


def _play(store: Store, found: Tournament, held: ExitStack, move_time: float, workers: int | None,
          scheduler: str | None, web_port: int | None) -> TournamentStatus:
    """Play what is left of the tournament on a Dask pool, with its live page if asked."""
    click.echo(capabilities().summary(), err=True)
    pool = held.enter_context(dask_pool(scheduler, move_time, workers, store.logs_dir))
    if web_port is not None:
        click.echo(f"live page: {held.enter_context(live_page(store.path, found.game, web_port, found.rule_set))}",
                   err=True)
    runner = TournamentRun(store, pool, found, on_update=lambda status: click.echo(_progress(status)),
                           on_round=lambda n, c: click.echo(f"round {n} committed: {c}"))
    try:
        return runner.run()
    except TournamentError as exc:  # it may quote a failed match's detail, a bot's words
        raise click.ClickException(safe_line(exc, MESSAGE_LIMIT)) from None


def _start(store: Store, game: str, variant: dict[str, str], fmt: str | None, names: str | None,
           champion: str | None, seats: int | None, cycles: int | None, rounds: int | None, *,
           builtins: bool) -> Tournament:
    """Commit a new tournament to the store, or say in one line why not."""
    if fmt is None:
        raise click.UsageError(f"no tournament in this store yet: start one with --format "
                               f"{'|'.join(sched.FORMATS)}")
    if store.match_count() > 0:
        raise click.ClickException(f"{store.path} holds a ladder's matches: a tournament keeps a store of its own "
                                   f"(--db {DB_NAME})")
    if fmt == "swiss" and cycles is not None:
        raise click.UsageError("--cycles repeats a round robin or gauntlet; a Swiss tournament has --rounds")
    if fmt != "swiss" and rounds is not None:
        raise click.UsageError("--rounds is a Swiss tournament's; a round robin or gauntlet repeats with --cycles")
    rules = load_game(game)
    size = seats or rules.min_seats
    if not rules.min_seats <= size <= rules.max_seats:
        raise click.BadParameter(f"{game} is played by {rules.min_seats} to {rules.max_seats} players, not {size}",
                                 param_hint="--players")
    if builtins:
        register_builtins(store, game)
    roster = _roster(store, game, variant, names)
    champion_id = _find(store, game, variant, champion).bot_id if champion else None
    try:
        return create(store, game, variant, fmt, roster, size, cycles=cycles or 1, rounds=rounds,
                      champion=champion_id)
    except sched.ScheduleError as exc:
        raise click.ClickException(str(exc)) from None


def _differences(found: Tournament, game: str, fmt: str | None, names: str | None,
                 champion: str | None, seats: int | None, cycles: int | None, rounds: int | None) -> list[str]:
    """What the options given (the command run again, say) would change of
    the committed schedule: nothing may change, so each is an error."""
    s = found.schedule
    labels = {b["id"]: b["label"] for b in s["bots"]}

    def same_bot(text: str, label: str) -> bool:
        return text == label if "@" in text else text == label.partition("@")[0]

    given = [name.strip() for name in names.split(",") if name.strip()] if names is not None else None
    checks = [
        ("game", game != found.game),
        ("format", fmt is not None and fmt != s["format"]),
        ("roster (--bots)", given is not None and (
            len(given) != len(s["bots"]) or not all(map(same_bot, given, (b["label"] for b in s["bots"]))))),
        ("champion", champion is not None and (s["champion"] is None or not same_bot(champion, labels[s["champion"]]))),
        ("table size (--players)", seats is not None and seats != s["seats"]),
        ("cycles", cycles is not None and cycles != s.get("cycles", 1)),
        ("rounds", rounds is not None and rounds != s["rounds"]),
    ]
    return [what for what, changed in checks if changed]


def _roster(store: Store, game: str, variant: dict[str, str], names: str | None) -> list[BotRow]:
    if names is None:
        return game_roster(store, game, variant)
    return [_find(store, game, variant, name.strip()) for name in names.split(",") if name.strip()]


def _find(store: Store, game: str, variant: dict[str, str], text: str) -> BotRow:
    """NAME (its active version) or NAME@VERSION, a bot that plays the game."""
    name, _, version = text.partition("@")
    found = [b for b in store.bot_versions(name) if (b.version == version if version else b.active)]
    if not found:
        known = ", ".join(b.name for b in game_roster(store, game, variant)) or "none"
        raise click.ClickException(f"no bot {safe_line(text)} in this store (the bots of {game}: {known}; register "
                                   "one with `referee submit --db ...`)")
    bot = found[-1]
    if game not in bot.games or (variant and not plays(game, variant, bot.variants)):
        raise click.ClickException(f"{bot.label} does not play this rule set of {game}")
    return bot


def _published(t: Tournament) -> str:
    s = t.schedule
    tables = len(t.tables()) if not t.swiss else f"{len(t.rounds)} of {s['rounds']} rounds paired"
    return (f"schedule committed: {t.commitment} ({s['format']} of {len(s['bots'])} bots at tables of "
            f"{s['seats']}, {s['design']}, {tables}{' tables' if not t.swiss else ''}, "
            f"{s['deals']['sets'] * s['seats']} matches; deals: seed chain {s['deals']['chain']}, "
            f"commitment {s['deals']['commitment']})")


def _progress(status: TournamentStatus) -> str:
    last = status.last
    what = f"{last.match_id} ({last.end_reason})" if last is not None else "a match failed"
    return f"[{status.played}/{status.scheduled}] {safe_line(what)}"


def _table(entries: list[Entry], t: Tournament) -> Table:
    table = Table(title=f"{t.schedule['format']} tournament of {t.game}: final table")
    swiss = t.swiss
    for name, right in (("#", True), ("bot", False), ("points", True), ("matches", True),
                        ("score [95 %]", True), *((("Buchholz", True),) if swiss else ()),
                        ("TrueSkill μ−3σ", True), ("Kemeny #", True)):
        table.add_column(name, justify="right" if right else "left")
    for place, e in enumerate(entries, 1):
        score = "–" if e.score is None else f"{e.score:.3f} [{e.low:.2f}, {e.high:.2f}]"
        table.add_row(str(place), safe_line(e.bot), f"{e.points:g}", str(e.matches), score,
                      *((f"{e.buchholz:g}",) if swiss else ()), f"{e.conservative:.2f}", str(e.ordinal_rank))
    return table


def _ordinal_lines(ordinal: dict[str, object]) -> str:
    order = " > ".join(safe_line(str(b)) for b in ordinal["order"])  # type: ignore[attr-defined]
    lines = [f"{ordinal['method']} order: {order} (agrees with {100 * float(str(ordinal['agreement'])):.0f} % of "
             "the pairwise results)"]
    for key, other in (("disagree_with_trueskill", "TrueSkill"), ("disagree_with_points", "the points")):
        pairs = ordinal[key]
        shown = "; ".join(f"{safe_line(a)} above {safe_line(b)}" for a, b in pairs)  # type: ignore[attr-defined]
        lines.append(f"{other} and {ordinal['method']} disagree on: {shown}" if shown
                     else f"{other} and {ordinal['method']} agree on every pair")
    return "\n".join(lines)


def _verify(store: Store, found: Tournament | None, published: str | None, path: Path) -> int:
    if found is None:
        raise click.ClickException(f"{path} holds no tournament")
    result = verify(store, found, published)
    for problem in result.problems:
        click.echo(f"FAILED: {safe_line(problem, MESSAGE_LIMIT)}")
    if result.ok:
        click.echo(f"schedule {found.commitment}: unchanged since it was committed"
                   f"{' (and the one published)' if published else ''}; {result.checked_rounds} Swiss rounds and "
                   f"{result.checked_matches} matches checked against it")
        return 0
    return 1
