"""`referee play`: one match between bot processes, shown as it happens.

Each --bot is a built-in name (random, heuristic, mcts, mcts:SECONDS) or a
command line. The bots are started at once, the match runs under the
referee (time control, failure policy, record), and the table is printed
as the match goes, as a spectator sees it (public information only: G-10,
S-8) — Gnadenlos!'s every turn, Saboteur's maze whenever it changes. With
--json only the result is printed, as one JSON object.
"""

from __future__ import annotations

import json
import random
import re
import sys
import tempfile
from pathlib import Path
import click
from rich.console import Console
from rich.text import Text

from referee.builtins import BotCommandError, resolve_bot_command
from referee.games import load_game
from referee.games.base import parse_variant
from referee.match import RefereeError, run_match
from referee.process import bot_log_path, start_bots
from referee.sandbox import capabilities
from referee.protocol.client import GRACE, TimeControl
from referee.records import DECISION, FOOTER, HEADER, SETUP, Entry
from referee.render import MatchView
from referee.replay import Replayer
from referee.untrusted import safe_line, safe_text

_DURATION = re.compile(r"^\s*(\d+(?:\.\d*)?|\.\d+)\s*(ms|s|m)?\s*$")


def parse_duration(text: str) -> float:
    """Seconds from "1s", "250ms", "0.5" (seconds) or "2m". Raises ValueError."""
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"not a duration: {text!r} (e.g. 1s, 250ms, 0.5)")
    value = float(match.group(1))
    return value * {"ms": 0.001, "s": 1.0, "m": 60.0, None: 1.0}[match.group(2)]


def _duration(ctx: click.Context, param: click.Parameter, value: str | None) -> float | None:
    if value is None:
        return None
    try:
        seconds = parse_duration(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc), ctx=ctx, param=param) from None
    if seconds <= 0 and param.name != "time_bank":
        raise click.BadParameter("must be more than 0", ctx=ctx, param=param)
    return seconds


def bot_label(spec: str) -> str:
    """A short name for a bot spec: the built-in's name or the program's file name."""
    first = spec.split()[0] if spec.split() else spec
    return Path(first).name if "/" in first else first


class LiveView:
    """Turns the referee's record lines into the spectator's rendering."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.replayer: Replayer | None = None
        self.view: MatchView | None = None

    def __call__(self, entry: Entry) -> None:
        kind = entry["type"]
        if kind == HEADER:
            self.replayer = Replayer(entry)
            self.view = MatchView(self.console, entry, spectator=True)
            return
        if self.replayer is None or self.view is None:
            return
        if kind == SETUP:
            self.view.show(self.replayer.setup_step())
        elif kind == DECISION:
            self.view.show(self.replayer.apply(entry))
        elif kind == FOOTER:
            self.view.finish(entry)
        else:  # a forfeit: announce it at once (its detail quotes the bot: escaped, never markup)
            self.console.print(safe_text(f"seat {entry['seat']} forfeits ({entry['reason']}): {entry['detail']}",
                                         "bold red"))


LOG_TAIL_LINES = 10
"""Lines of a forfeiting bot's output shown after the match (its author's first clue)."""


def _show_log_tail(console: Console, path: Path, seat: int) -> None:
    try:
        lines = path.read_text(errors="replace").splitlines()[-LOG_TAIL_LINES:]
    except OSError:
        return
    if lines:
        console.print(safe_text(f"last lines of seat {seat}'s output ({path}):", "dim"))
        for line in lines:  # the bot's own words
            console.print(f"  {safe_line(line)}", markup=False, highlight=False)


@click.command()
@click.option("--game", default="gnadenlos", show_default=True, help="The game to play.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="CMD",
              help="A bot per seat, in seat order: a built-in (random, heuristic, mcts, mcts:0.05) "
                   "or a command line. Repeat for each seat.")
@click.option("--seed", type=int, default=None, help="The deal's seed [default: a random one, shown].")
@click.option("--move-time", default="1s", show_default=True, callback=_duration,
              help="Time per decision (1s, 250ms, 0.5).")
@click.option("--time-bank", default=None, callback=_duration,
              help="Extra time per seat for the whole match; time beyond --move-time is drawn from it.")
@click.option("--variant", "variants", multiple=True, metavar="OPTION[=VALUE][,...]",
              help="A variant option, e.g. setup=advanced or gunfight_opt_out. Repeatable.")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the match record (JSON Lines) here.")
@click.option("--log-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep each bot's stdout/stderr here [default: a temporary folder, removed].")
@click.option("--startup-timeout", default="10s", show_default=True, callback=_duration,
              help="How long a bot may take to start and answer the handshake.")
@click.option("--json", "as_json", is_flag=True, help="Print only the result, as one JSON object.")
def play(game: str, bots: tuple[str, ...], seed: int | None, move_time: float, time_bank: float | None,
         variants: tuple[str, ...], record_path: Path | None, log_dir: Path | None,
         startup_timeout: float, as_json: bool) -> None:
    """Play one match between bot processes and show it as it happens."""
    try:
        rules = load_game(game)
        rules.check_seats(len(bots))
        variant: dict[str, str] = {}
        for text in variants:
            variant.update(parse_variant(text))
        rules.check_variant(variant)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        commands = [resolve_bot_command(spec) for spec in bots]
    except BotCommandError as exc:
        raise click.UsageError(str(exc)) from None
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    time_control = TimeControl(move_time=move_time, time_bank=time_bank, grace=GRACE)
    console = Console(stderr=as_json)
    click.echo(capabilities().summary(), err=True)  # which protections are in force, said at start-up
    with tempfile.TemporaryDirectory(prefix="referee-play-") as scratch:
        logs = log_dir or Path(scratch)
        processes = start_bots(commands, [bot_label(spec) for spec in bots],
                               startup_timeout=startup_timeout, log_dir=logs)
        try:
            result = run_match(rules.name, processes, seed=seed, variant=variant, time_control=time_control,
                               record_path=record_path, on_event=None if as_json else LiveView(console))
        except RefereeError as exc:
            console.print(Text.assemble(("referee error", "bold red"), ": ", safe_line(exc)))
            sys.exit(2)
        finally:
            for process in processes:
                process.close()
        for seat in result.seats:
            if seat.forfeit:
                _show_log_tail(console, bot_log_path(logs, seat.seat, processes[seat.seat].label), seat.seat)
    if as_json:
        click.echo(json.dumps(result.to_json()))
    elif record_path is not None:
        console.print(f"record: {record_path}   replay: referee replay {record_path} --verify")
