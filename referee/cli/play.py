"""`referee play`: one match between bot processes, shown as it happens.

Each --bot is a built-in name (random, heuristic, mcts, mcts:250ms), a bot
folder with a bot.toml, the name of a bot registered in the ladder's store,
a command line (`./mybot`, `node bot.js`), or a person: `human` plays the
seat on a page in the browser, `human-tty` on this terminal
(referee/cli/people.py; a person's decision gets 5 minutes unless
--person-time says otherwise, while the bots keep --move-time). The bots are started at
once, the match runs under the referee (time control, failure policy,
record), and the table is printed as the match goes, as a spectator sees
it (public information only: G-10, S-8) — Gnadenlos!'s every turn,
Saboteur's maze whenever it changes. On a terminal that is one screen
redrawn in place (referee/render/screen.py), with --delay or --step to
watch it; piped, the same as lines. With --json only the result is
printed, as one JSON object.

The exit status tells a script or CI job how the match went (EXIT_STATUSES,
also in `referee play --help` and docs/protocol.md): 0 when every bot held
up; distinct statuses for a forfeit, for strikes under --strict, for a bot
that never started (the match is not played unless --play-on asks for it),
a usage error, a referee error, Ctrl-C and a closed output pipe. For each
failing bot its reason, detail and last log lines are shown (and in
--json), and the bots' logs are kept.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from referee.builtins import BUILTIN_BOTS, BotCommand, BotCommandError, is_builtin, resolve_bot
from referee.cli.people import PERSON_SPECS, People, check_people, is_person
from referee.durations import DURATION, DURATION_OR_ZERO, format_duration
from referee.games import Game, load_game
from referee.games.plugin import match_game
from referee.cli.variants import HELP, read_variant, variant_option
from referee.log_tail import last_lines
from referee.protocol.faults import BotFault
from referee.match import MatchResult, RefereeError, UndeclaredVariant, run_match
from referee.process import BotProcess, bot_log_path
from referee.seats import Seat
from referee.seats.person import PERSON_MOVE_TIME
from referee.sandbox import capabilities
from botsdk.contract import GRACE, TimeControl
from referee.records import DECISION, FOOTER, HEADER, SETUP, Entry
from referee.render import MatchView
from referee.render.screen import Pace, Screen
from referee.replay import Replayer
from referee.untrusted import safe_line, safe_text

EXIT_FORFEIT = 1
"""A seat forfeited (the match was played to its end)."""
EXIT_USAGE = 2
"""The command line was wrong (click's status for a usage error)."""
EXIT_STRIKES = 3
"""With --strict: a bot drew a strike, though none forfeited."""
EXIT_NOT_STARTED = 4
"""A bot never started (its process, health or handshake failed): the
match is not played, unless --play-on plays it with that seat forfeited."""
EXIT_REFEREE_ERROR = 5
"""The referee itself failed (not a bot's fault)."""
EXIT_INTERRUPTED = 130
"""Ctrl-C (SIGINT) stopped the match: the shell's 128 + SIGINT."""
EXIT_PIPE_CLOSED = 141
"""The output's reader went away (`referee play ... | head`): the shell's
128 + SIGPIPE, the status of any program the closed pipe stops."""

EXIT_STATUSES = {
    0: "played, and every bot held up (strikes allowed without --strict)",
    EXIT_FORFEIT: "a seat forfeited",
    EXIT_USAGE: "usage error (an option, bot or variant)",
    EXIT_STRIKES: "--strict: a bot drew a strike (none forfeited)",
    EXIT_NOT_STARTED: "a bot never started: not played (see --play-on)",
    EXIT_REFEREE_ERROR: "the referee failed (not a bot's fault)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C)",
    EXIT_PIPE_CLOSED: "the output's reader closed the pipe",
}


BOT_SPEC_GROUP = "bot_referee.bot_specs"
"""The entry point group (pyproject.toml) where a distribution names a
`BotSpecResolver`: the ladder's reads bot folders with a bot.toml and the
bots registered in its store (--db), so the referee names no layer above it."""

BotSpecResolver = Callable[[str, Path | None], BotCommand | None]
"""(--bot spec, --db) -> the bot the spec names, or None when it names none
the resolver knows; raises BotCommandError for one it knows but cannot use."""


def resolve_seat(spec: str, game: str, db_path: Path | None) -> BotCommand:
    """The bot a --bot spec names, checked to play `game` where that is
    known before it starts. Raises BotCommandError."""
    text = spec.strip()
    bot = resolve_bot(text) if is_builtin(text) else _named_bot(text, db_path) or _command(text)
    if bot.games is not None and game not in bot.games:
        raise BotCommandError(f"{bot.label} plays {', '.join(bot.games)}, not {game}: its bot.toml's games "
                              "say so (or choose --game)")
    return bot


def _named_bot(text: str, db_path: Path | None) -> BotCommand | None:
    """The bot an installed resolver (BOT_SPEC_GROUP) says `text` names, or None."""
    for point in entry_points(group=BOT_SPEC_GROUP):
        resolver: BotSpecResolver = point.load()
        bot = resolver(text, db_path)
        if bot is not None:
            return bot
    return None


def _command(text: str) -> BotCommand:
    """A spec no resolver knows: a program on PATH, a file, or a command line."""
    try:
        return resolve_bot(text)
    except BotCommandError:
        if not text or any(char.isspace() or char == "/" for char in text):
            raise
        raise BotCommandError(
            f"--bot {text!r} is not a built-in bot ({', '.join(BUILTIN_BOTS)}), a person "
            f"({', '.join(PERSON_SPECS)}), a bot folder, a bot registered in the ladder's store (--db), a "
            "program on PATH nor a file here"
        ) from None


class LiveView:
    """Turns the referee's record lines into the spectator's rendering: on
    a terminal one screen updated in place, at `pace`; elsewhere lines."""

    def __init__(self, console: Console, pace: Pace = Pace()) -> None:
        self.console = console
        self.pace = pace
        self.screen: Screen | None = None
        self.replayer: Replayer | None = None
        self.view: MatchView | None = None

    def __call__(self, entry: Entry) -> None:
        kind = entry["type"]
        if kind == HEADER:
            self.replayer = Replayer(entry)
            self.screen = Screen(self.console) if self.console.is_terminal else None
            self.view = MatchView(self.screen or self.console, entry, spectator=True, log=self.screen is None)
            return
        if self.replayer is None or self.view is None:
            return
        if kind == SETUP:
            self.view.show(self.replayer.setup_step())
        elif kind == DECISION:
            self.view.show(self.replayer.apply(entry))
            self.pace.wait()
        elif kind == FOOTER:
            self.close()
            self.view.console = self.console  # the result scrolls below the last screen
            self.view.finish(entry)
        else:  # a forfeit: announce it at once (its detail quotes the bot: escaped, never markup)
            (self.screen or self.console).print(safe_text(f"seat {entry['seat']} forfeits ({entry['reason']}): {entry['detail']}",
                                         "bold red"))


    def close(self) -> None:
        if self.screen is not None:
            self.screen.close()
            self.screen = None


def _failures(result: MatchResult, logs: Path, labels: list[str]) -> dict[int, dict[str, Any]]:
    """Per forfeiting seat: its reason, detail (escaped), log and the log's
    last lines (escaped)."""
    return {seat.seat: {"forfeit_detail": safe_line(seat.forfeit_detail),
                        **_log_tail(logs, seat.seat, labels[seat.seat])}
            for seat in result.seats if seat.forfeit is not None}


def _log_tail(logs: Path, seat: int, label: str) -> dict[str, Any]:
    log = bot_log_path(logs, seat, label)
    return {"log": str(log) if log.exists() else None, "log_tail": last_lines(log)}


def _show_failures(console: Console, failures: dict[int, dict[str, Any]]) -> None:
    for seat, failure in failures.items():
        lines = failure["log_tail"]
        if not lines:
            continue
        console.print(Text(f"last lines of seat {seat}'s output ({failure['log']}):", "dim"))
        for line in lines:  # the bot's own words, already escaped
            console.print(f"  {line}", markup=False, highlight=False)


def _epilog() -> str:
    """The exit statuses, for `--help` (kept as lines: `\\b`)."""
    return "\b\nExit statuses:\n" + "\n".join(f"  {status:<4} {meaning}" for status, meaning in EXIT_STATUSES.items())


@click.command(epilog=_epilog())
@click.option("--game", default="gnadenlos", show_default=True, help="The game to play.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="BOT",
              help="A bot per seat, in seat order: a built-in (random, heuristic, mcts, mcts:250ms), a bot "
                   "folder with a bot.toml, a registered bot's name (NAME or NAME@VERSION, see --db) or a "
                   "command line (./mybot, 'node bot.js'); or a person: human (a page in the browser) or "
                   "human-tty (this terminal). Repeat for each seat.")
@click.option("--seed", type=int, default=None, help="The deal's seed [default: a random one, shown].")
@click.option("--move-time", type=DURATION, default="1s",
              help="A bot's time per decision (1s, 250ms, 0.5, 5m) [default: 1s].")
@click.option("--person-time", type=DURATION, default=format_duration(PERSON_MOVE_TIME), show_default=True,
              help="A person's time per decision (--bot human, human-tty); the bots keep --move-time.")
@click.option("--time-bank", type=DURATION_OR_ZERO, default=None,
              help="Extra time per seat for the whole match (e.g. 10s); time beyond --move-time is drawn from it.")
@variant_option(HELP + " Every bot must declare it in its handshake, or the match is refused before it starts.")
@click.option("--hands", type=click.IntRange(min=1), default=None,
              help="Leduc poker: a match of this many hands, ranked by the chips won in all (rules L-7) "
                   "[default: one hand, OpenSpiel's game; the ladder plays 100].")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the match record (JSON Lines) here.")
@click.option("--log-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep each bot's stdout/stderr here [default: a temporary folder, removed unless a bot "
                   "failed].")
@click.option("--startup-timeout", type=DURATION, default="10s", show_default=True,
              help="How long a bot may take to start and answer the handshake.")
@click.option("--play-on", is_flag=True,
              help=f"Play the match even when a bot did not start: its seat forfeits from the start (exit "
                   f"status {EXIT_FORFEIT}) [default: stop before the match, exit status {EXIT_NOT_STARTED}].")
@click.option("--strict", is_flag=True,
              help=f"Exit with status {EXIT_STRIKES} when a bot drew a strike but none forfeited.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The ladder store whose registered bots --bot may name (default: $REFEREE_DATA/ladder.sqlite "
                   "or ./data/ladder.sqlite); only read.")
@click.option("--json", "as_json", is_flag=True, help="Print only the result, as one JSON object.")
@click.option("--step", is_flag=True, help="Watch on a terminal: a key press plays the next decision.")
@click.option("--delay", type=DURATION_OR_ZERO, default="0", help="Watch on a terminal: wait this long after each "
              "decision (500ms, 2s).")
@click.option("--no-open", is_flag=True, help="Do not open the pages of --bot human in a browser (their "
              "addresses are printed either way).")
def play(game: str, bots: tuple[str, ...], seed: int | None, move_time: float, person_time: float,
         time_bank: float | None,
         variants: tuple[str, ...], hands: int | None, record_path: Path | None, log_dir: Path | None,
         startup_timeout: float, play_on: bool, strict: bool, db_path: Path | None, as_json: bool, step: bool,
         delay: float, no_open: bool) -> None:
    """Play one match between bot processes and show it as it happens.

    The exit status says how it went (below): a script or CI job can tell a
    forfeit from strikes (with --strict), a bot that never started, a usage
    error, a referee error and an interruption."""
    try:
        rules = load_game(game)
        rules.check_seats(len(bots))
        match_format = {} if hands is None else {"hands": hands}
        match_game(game, match_format)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    rules = rules.configure(read_variant(rules, variants))
    try:
        check_people(bots)
        seats = [None if is_person(spec) else resolve_seat(spec, rules.name, db_path) for spec in bots]
    except (BotCommandError, ValueError) as exc:
        raise click.UsageError(str(exc)) from None
    if step and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.UsageError("--step waits for a key: it needs a terminal (use --delay to slow a match down)")
    if step and any(spec.strip() == "human-tty" for spec in bots):
        raise click.UsageError("--step waits for a key on the terminal where --bot human-tty plays: choose one")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    time_control = TimeControl(move_time=move_time, time_bank=time_bank, grace=GRACE)
    person_clock = TimeControl(move_time=person_time, time_bank=time_bank, grace=GRACE)  # a person's own
    console = _Console(stderr=as_json)
    click.echo(capabilities().summary(), err=True)  # which protections are in force, said at start-up
    logs = log_dir or Path(tempfile.mkdtemp(prefix="referee-play-"))
    status = EXIT_REFEREE_ERROR
    try:
        status = _play(rules, match_format, list(bots), seats, seed, time_control, person_clock, record_path, logs,
                       startup_timeout, console, as_json, strict, play_on, Pace(delay, step), not no_open)
    except KeyboardInterrupt:
        status = EXIT_INTERRUPTED
        unfinished = f"; its record {record_path} is unfinished" if record_path is not None else ""
        click.echo(f"interrupted: the match was stopped before its end{unfinished}", err=True)
    except BrokenPipeError:
        status = EXIT_PIPE_CLOSED
        _silence_stdout()
    finally:
        if log_dir is None and status not in (EXIT_FORFEIT, EXIT_STRIKES, EXIT_NOT_STARTED):
            shutil.rmtree(logs, ignore_errors=True)
    sys.exit(status)


def _play(game: Game, match_format: dict[str, int], specs: list[str], seats: list[BotCommand | None], seed: int,
          time_control: TimeControl, person_clock: TimeControl, record_path: Path | None, logs: Path,
          startup_timeout: float, console: Console,
          as_json: bool, strict: bool, play_on: bool, pace: Pace, open_browser: bool) -> int:
    """Start the bots and seat the people (`seats[i]` None: `specs[i]` is a
    person), play the match (unless a bot did not start and `play_on` is
    not given), close the bots, show what failed; the exit status."""
    labels = [spec.strip() if seat is None else seat.label for spec, seat in zip(specs, seats)]
    with People(game.name, specs, lambda line: click.echo(line, err=True), person_clock) as people:
        processes = _start_bots(seats, startup_timeout, logs)
        try:
            not_started = [seat for seat, process in processes.items() if process.fault is not None]
            if not_started and not play_on:
                _show_not_started(console, as_json, {seat: processes[seat] for seat in not_started}, logs, labels)
                return EXIT_NOT_STARTED
            players: list[BotProcess | Seat] = [people.seats.get(seat) or processes[seat] for seat in range(len(specs))]
            people.open_pages(open_browser, wait=person_clock.move_time)
            view = None if as_json or people.terminal else LiveView(console, pace)
            try:
                result = run_match(game, players, seed=seed, time_control=time_control, match_format=match_format,
                                   record_path=record_path, on_event=_both(view, people.record))
            except UndeclaredVariant as exc:  # refused before the match started
                raise click.UsageError(str(exc)) from None
            except RefereeError as exc:
                console.print(Text.assemble(("referee error", "bold red"), ": ", safe_line(exc)))
                return EXIT_REFEREE_ERROR
            finally:
                if view is not None:
                    view.close()  # a screen left running would keep the cursor hidden
        finally:
            for process in processes.values():
                process.close()
        status = _report(result, logs, labels, console, as_json, strict, record_path)
        people.linger()
    return status


def _start_bots(seats: list[BotCommand | None], startup_timeout: float, logs: Path) -> dict[int, BotProcess]:
    """Start the bots of the seats that have one, all at once (their
    start-up times overlap), each logging as its seat (`bot_log_path`). A
    bot that fails to start is a `BotProcess.failed` placeholder."""
    def one(seat: int, bot: BotCommand) -> BotProcess:
        try:
            return BotProcess.start(list(bot.argv), label=bot.label, startup_timeout=startup_timeout,
                                    log_path=bot_log_path(logs, seat, bot.label), expose=bot.expose)
        except BotFault as fault:
            return BotProcess.failed(bot.label, fault)

    bots = {seat: bot for seat, bot in enumerate(seats) if bot is not None}
    if not bots:
        return {}
    with ThreadPoolExecutor(max_workers=len(bots)) as pool:
        started = {seat: pool.submit(one, seat, bot) for seat, bot in bots.items()}
        return {seat: future.result() for seat, future in started.items()}


def _both(view: LiveView | None, record: Callable[[Entry], None]) -> Callable[[Entry], None]:
    """One record listener for the terminal's view and the people's pages."""
    def listen(entry: Entry) -> None:
        record(entry)
        if view is not None:
            view(entry)
    return listen


def _report(result: MatchResult, logs: Path, labels: list[str], console: Console, as_json: bool, strict: bool,
            record_path: Path | None) -> int:
    """Show the result's failures, strikes and record; the exit status."""
    failures = _failures(result, logs, labels)
    _show_failures(console, failures)
    struck = {seat.seat: seat.strikes for seat in result.seats if seat.strikes and seat.forfeit is None}
    if as_json:
        summary = result.to_json()
        for entry in summary["seats"]:
            entry.update(failures.get(entry["seat"], {}))
        click.echo(json.dumps(summary))
    elif record_path is not None:
        console.print(f"record: {record_path}   replay: referee replay {record_path} --verify")
    if struck and not strict:
        console.print(Text(f"strikes: {', '.join(f'seat {seat} {count}' for seat, count in struck.items())} "
                           f"(--strict fails the command on a strike, exit status {EXIT_STRIKES})", "dim"))
    status = EXIT_FORFEIT if failures else EXIT_STRIKES if strict and struck else 0
    if status and logs.exists():
        console.print(f"the bots' logs are kept in {logs}", markup=False, highlight=False)
    return status


def _show_not_started(console: Console, as_json: bool, failed: dict[int, BotProcess], logs: Path,
                      labels: list[str]) -> None:
    """Each bot that did not start: why, and its last lines of output."""
    report = {seat: {"seat": seat, "label": safe_line(bot.label), "reason": bot.fault.reason if bot.fault else "",
                     "detail": safe_line(bot.fault.detail if bot.fault else ""),
                     **_log_tail(logs, seat, labels[seat])}
              for seat, bot in failed.items()}
    for seat, entry in report.items():
        console.print(safe_text(f"seat {seat} ({entry['label']}) did not start ({entry['reason']}): "
                                f"{entry['detail']}", "bold red"))
    _show_failures(console, report)
    console.print(f"the match was not played (--play-on plays it with that seat forfeited); the bots' logs "
                  f"are kept in {logs}", markup=False, highlight=False)
    if as_json:
        click.echo(json.dumps({"played": False, "not_started": list(report.values())}))


class _Console(Console):
    """A console whose closed pipe ends the match with its own exit status
    (rich's default exits with status 1, as a forfeit does)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError("the output's reader closed the pipe")


def _silence_stdout() -> None:
    """Point stdout at /dev/null: its reader is gone, and the interpreter's
    last flush would otherwise complain about the broken pipe."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
