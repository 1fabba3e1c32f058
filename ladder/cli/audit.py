"""`referee ladder-audit`: a ladder's deals, revealed as far as is safe and checked.

Exit status 0 when every revealed deal follows from its chain's commitment
(docs/records.md, "A ladder's deals"), 1 when something does not (each
problem named) or the store cannot be read (one error line).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from ladder.cli.options import db_option, game_option, open_store
from ladder.deals.audit import DealAudit, audit
from ladder.reporting.console import make_console
from referee.untrusted import safe_line


@click.command("ladder-audit")
@db_option
@game_option
@click.option("--json", "as_json", is_flag=True,
              help="Print the chains, their reveals and every revealed match's seed, commitment and salt as JSON.")
def ladder_audit(db_path: Path | None, game: str, as_json: bool) -> None:
    """Reveal the ladder's deal seeds of finished sets (never of a set still to
    play) and check each stored match against its chain's commitment."""
    with open_store(db_path, create=False) as store:
        found = audit(store, game)
    if as_json:
        click.echo(json.dumps(found.to_json(), indent=2))
    else:
        print_audit(found)
    if not found.verified:
        sys.exit(1)


def print_audit(found: DealAudit) -> None:
    """The chains, one paragraph each, then the verdict."""
    console = make_console()
    for c in found.chains:
        state = "running" if c.ended_at is None else f"ended {c.ended_at}"
        console.print(f"chain {c.chain_id} ({c.game}, started {c.started_at}, {state}): commitment {c.head}, "
                      f"{c.sets_dealt} of {c.length} sets dealt", markup=False, highlight=False, soft_wrap=True)
        if c.complete:
            shown = f"  ladder seed revealed: {c.revealed} (every set's deal follows from it)"
        elif c.revealed is not None:
            shown = (f"  sets 1-{c.revealed_index} finished, revealed by element {c.revealed_index}: {c.revealed}; "
                     "later sets stay secret")
        else:
            shown = "  no set finished yet: nothing revealed"
        console.print(shown, markup=False, highlight=False, soft_wrap=True)
    if found.unplayed:
        console.print("sets dealt but never played (their matches failed and were abandoned): "
                      + ", ".join(f"chain {c} set {i}" for c, i in found.unplayed), markup=False, highlight=False,
                      soft_wrap=True)
    for problem in found.problems:  # a record's contents are not ours to trust
        console.print(f"problem: {safe_line(problem)}", style="red", markup=False, highlight=False, soft_wrap=True)
    tail = (f"{len(found.revealed)} matches revealed and checked, {found.secret} still secret, "
            f"{found.unchained} from before seed chains")
    verdict = "verified" if found.verified else "not verified"
    console.print(f"{verdict}: {tail}", style="bold green" if found.verified else "bold red", markup=False,
                  highlight=False, soft_wrap=True)
