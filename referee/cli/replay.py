"""`referee replay RECORD [--seat K] [--verify]`: re-run a match record and show it.

The match is re-run from the record's seed and decisions through the engine;
each step's events must be the recorded ones, and each deciding seat must be
offered the legal actions its line counts and digests (docs/records.md). It
is shown turn by turn from every seat's view, or with --seat K only as seat
K saw it (the events K was shown and K's own observations, G-10, S-8). --verify also requires the record to
be complete and its result (end reason, ranking, forfeits) to reproduce, and
makes the exit status say so (0 verified, 1 not). A record that does not
reproduce always exits 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from referee.cli.record_arg import load_record
from referee.render import MatchView
from referee.replay import ReplayMismatch, steps
from referee.untrusted import safe_line


@click.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seat", type=int, default=None, help="Show only what this seat saw.")
@click.option("--verify", is_flag=True, help="Check that the record reproduces to its result; exit 1 if not.")
@click.option("--quiet", "-q", is_flag=True, help="Do not show the match (with --verify: only the verdict).")
def replay(record_path: Path, seat: int | None, verify: bool, quiet: bool) -> None:
    """Re-run a match record from its seed and decisions and show it."""
    console = Console()
    record = load_record(record_path, seat)
    view = None if quiet else MatchView(console, record.header, seat=seat)
    try:
        for step in steps(record):
            if view is not None:
                view.show(step)
        if record.footer is None and verify:
            raise ReplayMismatch("the record has no footer: the match did not finish"
                                 + (" (its last line is torn)" if record.torn_line else ""))
    except ReplayMismatch as exc:
        console.print(Text.assemble(("does not reproduce", "bold red"), ": ", safe_line(exc)))
        sys.exit(1)
    if record.footer is None:
        console.print("[yellow]the record ends before the match did (no footer)")
        return
    if view is not None:
        view.finish(record.footer)
    if verify:
        console.print(f"[bold green]verified[/]: {len(record.decisions)} decisions replay to the same "
                      f"events and result ({record.footer['end_reason']}, ranks {record.footer['ranks']})")
