"""`referee verify RECORD`: check that a match was dealt fairly and played legally.

Exit status 0 when the record passes every check of `referee.audit`, 1 when
it fails one (the message names it), 2 for a file that is not a record.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from referee.audit import AuditFailed, audit
from referee.cli.record_arg import load_record
from referee.untrusted import safe_line


@click.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def verify(record_path: Path) -> None:
    """Check a match record: the seed revealed at the end is the one committed
    to before the deal, every chance outcome follows from it, and every
    decision was legal (docs/records.md, "Provably fair deals")."""
    console = Console()
    record = load_record(record_path)
    try:
        passed = audit(record)
    except AuditFailed as exc:
        console.print(Text.assemble(("not verified", "bold red"), ": ", safe_line(exc)))
        sys.exit(1)
    kind = "an evaluation match's chosen seed" if passed.evaluation else "seed"
    console.print(Text.assemble(
        ("verified", "bold green"),
        f": {kind} {passed.seed} matches the commitment {passed.commitment[:16]}… sent before the deal; "
        f"{passed.chance_events} recorded events and {passed.decisions} decisions replay from it to the recorded "
        "result"))
