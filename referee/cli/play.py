"""`referee play`: one match between bot processes, shown as it happens.

Each --bot is a built-in name (random, heuristic, mcts, mcts:250ms), a bot
folder with a bot.toml, the name of a bot registered in the ladder's store,
or a command line (`./mybot`, `node bot.js`). The bots are started at
once, the match runs under the referee (time control, failure policy,
record), and the table is printed as the match goes, as a spectator sees
it (public information only: G-10, S-8) — Gnadenlos!'s every turn,
Saboteur's maze whenever it changes. On a terminal that is one screen
redrawn in place (referee/render/screen.py), with --delay or --step to
watch it; piped, the same as lines. With --json only the result is
printed, as one JSON object.

The exit status tells a script or CI job whether every bot held up: 0,
or EXIT_BOT_FAILED when a seat forfeited (with --strict also when a bot
drew a strike); then each failing bot's reason, detail and last log lines
are shown (and in --json), and the bots' logs are kept.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from referee.builtins import BUILTIN_BOTS, BotCommand, BotCommandError, is_builtin, resolve_bot
from referee.durations import DURATION, DURATION_OR_ZERO
from referee.games import load_game
from referee.cli.variants import HELP, read_variant, variant_option
from referee.log_tail import last_lines
from referee.match import MatchResult, RefereeError, UndeclaredVariant, run_match
from referee.process import bot_log_path, start_bots
from referee.sandbox import capabilities
from botsdk.contract import GRACE, TimeControl
from referee.records import DECISION, FOOTER, HEADER, SETUP, Entry
from referee.render import MatchView
from referee.render.screen import Pace, Screen
from referee.replay import Replayer
from referee.untrusted import safe_line, safe_text

EXIT_BOT_FAILED = 1
"""Exit status of a match played to the end in which a bot failed: a seat
forfeited (or, with --strict, drew a strike)."""

EXIT_REFEREE_ERROR = 2
"""Exit status when the referee itself failed (not a bot's fault)."""


def resolve_seat(spec: str, game: str, db_path: Path | None) -> BotCommand:
    """The bot a --bot spec names, checked to play `game` where that is
    known before it starts. Raises BotCommandError."""
    # The command line composes the layers (referee.cli.main): bot folders
    # and registered bots are the ladder's to read.
    from ladder.named_bots import folder_bot, registered_bot

    text = spec.strip()
    if is_builtin(text):
        bot = resolve_bot(text)
    elif Path(text).is_dir():
        bot = folder_bot(Path(text))
    elif text and not any(char.isspace() or char == "/" for char in text):
        bot = registered_bot(text, db_path) or _command(text)
    else:
        bot = resolve_bot(text)
    if bot.games is not None and game not in bot.games:
        raise BotCommandError(f"{bot.label} plays {', '.join(bot.games)}, not {game}: its bot.toml's games "
                              "say so (or choose --game)")
    return bot


def _command(word: str) -> BotCommand:
    """A one-word spec that names no registered bot: a program or a file."""
    try:
        return resolve_bot(word)
    except BotCommandError:
        raise BotCommandError(
            f"--bot {word!r} is not a built-in bot ({', '.join(BUILTIN_BOTS)}), a bot folder, a bot "
            "registered in the ladder's store (--db), a program on PATH nor a file here"
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


class FooterCatcher:
    """Passes record lines on to `then` and keeps the footer, whose
    forfeit lines carry each forfeit's detail."""

    def __init__(self, then: LiveView | None) -> None:
        self.then = then
        self.footer: Entry | None = None

    def __call__(self, entry: Entry) -> None:
        if entry["type"] == FOOTER:
            self.footer = entry
        if self.then is not None:
            self.then(entry)


def _failures(result: MatchResult, footer: Entry | None, logs: Path,
              bots: list[BotCommand]) -> dict[int, dict[str, Any]]:
    """Per forfeiting seat: its reason, detail (escaped), log and the log's
    last lines (escaped)."""
    details = {entry["seat"]: entry["detail"] for entry in (footer or {}).get("forfeits", [])}
    failures = {}
    for seat in result.seats:
        if seat.forfeit is None:
            continue
        log = bot_log_path(logs, seat.seat, bots[seat.seat].label)
        failures[seat.seat] = {"forfeit_detail": safe_line(details.get(seat.seat, "")),
                               "log": str(log) if log.exists() else None, "log_tail": last_lines(log)}
    return failures


def _show_failures(console: Console, failures: dict[int, dict[str, Any]]) -> None:
    for seat, failure in failures.items():
        lines = failure["log_tail"]
        if not lines:
            continue
        console.print(Text(f"last lines of seat {seat}'s output ({failure['log']}):", "dim"))
        for line in lines:  # the bot's own words, already escaped
            console.print(f"  {line}", markup=False, highlight=False)


@click.command()
@click.option("--game", default="gnadenlos", show_default=True, help="The game to play.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="BOT",
              help="A bot per seat, in seat order: a built-in (random, heuristic, mcts, mcts:250ms), a bot "
                   "folder with a bot.toml, a registered bot's name (NAME or NAME@VERSION, see --db) or a "
                   "command line (./mybot, 'node bot.js'). Repeat for each seat.")
@click.option("--seed", type=int, default=None, help="The deal's seed [default: a random one, shown].")
@click.option("--move-time", type=DURATION, default="1s", show_default=True,
              help="Time per decision (1s, 250ms, 0.5).")
@click.option("--time-bank", type=DURATION_OR_ZERO, default=None,
              help="Extra time per seat for the whole match (e.g. 10s); time beyond --move-time is drawn from it.")
@variant_option(HELP + " Every bot must declare it in its handshake, or the match is refused before it starts.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the match record (JSON Lines) here.")
@click.option("--log-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep each bot's stdout/stderr here [default: a temporary folder, removed unless a bot "
                   "failed].")
@click.option("--startup-timeout", type=DURATION, default="10s", show_default=True,
              help="How long a bot may take to start and answer the handshake.")
@click.option("--strict", is_flag=True,
              help=f"Exit with status {EXIT_BOT_FAILED} on any strike too, not only on a forfeit.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The ladder store whose registered bots --bot may name (default: $REFEREE_DATA/ladder.sqlite "
                   "or ./data/ladder.sqlite); only read.")
@click.option("--json", "as_json", is_flag=True, help="Print only the result, as one JSON object.")
@click.option("--step", is_flag=True, help="Watch on a terminal: a key press plays the next decision.")
@click.option("--delay", type=DURATION_OR_ZERO, default="0", help="Watch on a terminal: wait this long after each "
              "decision (500ms, 2s).")
def play(game: str, bots: tuple[str, ...], seed: int | None, move_time: float, time_bank: float | None,
         variants: tuple[str, ...], record_path: Path | None, log_dir: Path | None,
         startup_timeout: float, strict: bool, db_path: Path | None, as_json: bool, step: bool,
         delay: float) -> None:
    """Play one match between bot processes and show it as it happens.

    Exits with status 1 when a seat forfeited (with --strict: also on a
    strike), 2 when the referee failed."""
    try:
        rules = load_game(game)
        rules.check_seats(len(bots))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    variant = read_variant(rules, variants)
    try:
        seats = [resolve_seat(spec, rules.name, db_path) for spec in bots]
    except BotCommandError as exc:
        raise click.UsageError(str(exc)) from None
    if step and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.UsageError("--step waits for a key: it needs a terminal (use --delay to slow a match down)")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    time_control = TimeControl(move_time=move_time, time_bank=time_bank, grace=GRACE)
    console = Console(stderr=as_json)
    click.echo(capabilities().summary(), err=True)  # which protections are in force, said at start-up
    logs = log_dir or Path(tempfile.mkdtemp(prefix="referee-play-"))
    failed = False
    try:
        result, failures = _play(rules.name, seats, seed, variant, time_control, record_path, logs,
                                 startup_timeout, console, as_json, Pace(delay, step))
        failed = bool(failures) or (strict and any(seat.strikes for seat in result.seats))
    finally:
        if log_dir is None and not failed:
            shutil.rmtree(logs, ignore_errors=True)
    _show_failures(console, failures)
    if as_json:
        summary = result.to_json()
        for entry in summary["seats"]:
            entry.update(failures.get(entry["seat"], {}))
        click.echo(json.dumps(summary))
    elif record_path is not None:
        console.print(f"record: {record_path}   replay: referee replay {record_path} --verify")
    if failed:
        if log_dir is None:
            console.print(f"the bots' logs are kept in {logs}", markup=False, highlight=False)
        sys.exit(EXIT_BOT_FAILED)


def _play(game: str, seats: list[BotCommand], seed: int, variant: dict[str, str], time_control: TimeControl,
          record_path: Path | None, logs: Path, startup_timeout: float, console: Console,
          as_json: bool, pace: Pace = Pace()) -> tuple[MatchResult, dict[int, dict[str, Any]]]:
    """Start the bots, play the match, close the bots; the result and each
    forfeiting seat's failure (see `_failures`)."""
    processes = start_bots([list(seat.argv) for seat in seats], [seat.label for seat in seats],
                           startup_timeout=startup_timeout, log_dir=logs, expose=[seat.expose for seat in seats])
    catcher = FooterCatcher(None if as_json else LiveView(console, pace))
    try:
        result = run_match(game, processes, seed=seed, variant=variant, time_control=time_control,
                           record_path=record_path, on_event=catcher)
    except UndeclaredVariant as exc:  # refused before the match started
        raise click.UsageError(str(exc)) from None
    except RefereeError as exc:
        console.print(Text.assemble(("referee error", "bold red"), ": ", safe_line(exc)))
        sys.exit(EXIT_REFEREE_ERROR)
    finally:
        if catcher.then is not None:
            catcher.then.close()  # a screen left running would keep the cursor hidden
        for process in processes:
            process.close()
    return result, _failures(result, catcher.footer, logs, seats)
