"""`referee table`: the standings of one rule set of a game's ladder.

From a local store (only read) or, with --server, a ladder service, which
prints the same tables (ladder/reporting/tables.py); `--json` gives them as
data (ladder.rating.standings.to_json).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from ladder.cli.options import (
    confidence_option,
    config_option,
    db_option,
    game_option,
    margin_option,
    open_store,
    parse_variant,
)
from ladder.cli.remote import remote, remote_options
from ladder.rating.standings import to_json
from ladder.rating.stopping import DEFAULT_MARGIN
from ladder.reporting.console import make_console
from ladder.reporting.tables import print_table
from ladder.store.rule_set_names import rule_set_of
from referee.cli.variants import variant_option


@click.command()
@db_option
@game_option
@click.option("--json", "as_json", is_flag=True, help="Print the standings as JSON.")
@click.option("--h2h", is_flag=True, help="Add the head-to-head matrix.")
@click.option("--seats", is_flag=True, help="Add the win share per seat position.")
@click.option("--all", "include_retired", is_flag=True, help="Include older versions of each bot.")
@variant_option("Show the ladder of this rule set, NAME=VALUE (repeatable; default: the base rules, with --server "
                "the rule set the service plays): each rule set is rated apart.")
@confidence_option
@margin_option
@remote_options
@config_option(exposed=False)
def table(db_path: Path | None, game: str, as_json: bool, h2h: bool, seats: bool, include_retired: bool,
          variants: tuple[str, ...], confidence: float, margin: float | None, server: str | None,
          token: str | None, tls_ca: Path | None) -> None:
    """Show the standings of the ladder (one rule set: the base rules, or the service's, unless --variant)."""
    margin = margin or DEFAULT_MARGIN
    variant = parse_variant(variants, game)
    rule_set = rule_set_of(game, variant)
    if server is not None:
        console = make_console()
        with remote(server, token, tls_ca) as service:
            reply = service.standings(game, h2h=h2h, seats=seats, include_retired=include_retired,
                                      confidence=confidence, margin=margin, text=not as_json,
                                      width=console.width, color=console.is_terminal, variant=variant)
        click.echo(reply.json if as_json else reply.text, nl=as_json)
        return
    with open_store(db_path, create=False) as store:
        if as_json:
            click.echo(json.dumps(to_json(store, game, h2h=h2h, seats=seats, include_retired=include_retired,
                                          confidence=confidence, margin=margin, rule_set=rule_set), indent=2))
            return
        print_table(store, make_console(), game, h2h=h2h, seats=seats, include_retired=include_retired,
                    confidence=confidence, margin=margin, rule_set=rule_set)
