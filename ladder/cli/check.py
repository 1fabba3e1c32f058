"""`referee check PATH`: the command line of ladder/intake/check.py.

Prints each finding as a line (`ok`, `warning`, `FAIL`) with its fix
beneath, then the verdict; `--json` prints the whole report as one JSON
object instead. Exit status 0 only when the bot would pass submission,
EXIT_WOULD_FAIL when it would not (2 stays click's for a bad command line).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from ladder.cli.options import move_time_option, submission_limit_options, variant_tags
from ladder.intake.check import DECISIONS, ERROR, OK, SEED, CheckOptions, CheckReport
from ladder.intake.check import check as run_check
from ladder.intake.copying import MIB, Limits
from referee.cli.variants import variant_option
from referee.durations import DURATION
from referee.sandbox import capabilities

EXIT_WOULD_FAIL = 1
"""The bot would be refused (or draw strikes) in the ladder."""

_MARKS = {OK: ("ok", "green"), "warning": ("warning", "yellow"), ERROR: ("FAIL", "bold red")}


@click.command()
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--game", "games", multiple=True,
              help="A game to check (repeatable; default: the games its bot.toml lists, or for a file every "
                   "game its handshake names), as submit takes it.")
@variant_option("A variant to check besides the base rules, NAME=VALUE (repeatable; default: its bot.toml's "
                "variants, else every variant its handshake declares), as submit takes it.")
@move_time_option("Time per decision the answers are judged by, the ladder's (2s, 250ms).")
@click.option("--startup-timeout", type=DURATION, default="10s", show_default=True,
              help="Time the bot gets to start and answer the handshake (10s, 500ms).")
@click.option("--decisions", type=click.IntRange(min=1), default=DECISIONS, show_default=True,
              help="Decisions to ask the bot at least, per game.")
@click.option("--seed", type=int, default=SEED, show_default=True, help="Seed of the matches' deals.")
@click.option("--log-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Keep the bot's output here [default: a temporary folder, kept only if the check fails].")
@submission_limit_options
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
def check(path: Path, games: tuple[str, ...], variants: tuple[str, ...], move_time: float, startup_timeout: float, decisions: int,
          seed: int, log_dir: Path | None, max_mib: int, max_files: int, max_depth: int, as_json: bool) -> None:
    """Check a bot (file or folder with bot.toml) as the ladder will run it, before you submit it.

    Starts it in the sandbox, checks its start-up and handshake, plays it
    through seeded matches of each of its games and reports legality,
    answer times, message sizes and what the sandbox refused, each problem
    with its fix. Exits with status 0 only when the bot would pass
    submission, 1 when it would not."""
    options = CheckOptions(games=games, variants=variant_tags(variants, games), move_time=move_time, startup_timeout=startup_timeout,
                           decisions=decisions, seed=seed, log_dir=log_dir,
                           limits=Limits(max_bytes=max_mib * MIB, max_files=max_files, max_depth=max_depth))
    click.echo(capabilities().summary(), err=True)
    report = run_check(path, options)
    if as_json:
        click.echo(json.dumps(report.to_json()))
    else:
        show(report, Console(highlight=False, soft_wrap=True))
    if not report.passed:
        sys.exit(EXIT_WOULD_FAIL)


def show(report: CheckReport, console: Console) -> None:
    """Each finding, its fix, the failing bot's last lines and the verdict
    (every string was escaped when the report was made; never markup)."""
    for finding in report.findings:
        mark, style = _MARKS[finding.severity]
        console.print(Text.assemble((f"{mark:<8}", style), (f"{finding.check}: ", "bold"), finding.message))
        if finding.fix and finding.severity != OK:
            console.print(Text(f"{'':<8}fix: {finding.fix}", "dim"))
    if report.log_tail:
        console.print(Text(f"the bot's last lines of output ({report.log}):", "dim"))
        for line in report.log_tail:
            console.print(Text(f"  {line}"))
    errors = sum(1 for f in report.findings if f.severity == ERROR)
    if report.passed:
        console.print(Text("the bot would pass submission", "bold green"))
    else:
        console.print(Text(f"the bot would not pass submission: {errors} problem{'s' if errors > 1 else ''}",
                           "bold red"))
