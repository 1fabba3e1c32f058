"""`referee bots` and `referee logs`: the registered bots, and what one wrote.

Both only read: a local store (a mistyped --db is an error naming the
path, never a new store) or, with --server, a ladder service.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from ladder.cli.options import db_option, game_option, open_store
from ladder.cli.remote import remote, remote_options
from ladder.rating.standings import forfeits_of
from ladder.reporting.console import make_console
from ladder.reporting.render import bots_table
from ladder.store.database import version_log_path
from referee.sandbox.logpipe import rotated_path
from referee.untrusted import safe_block, safe_line


@click.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@remote_options
def bots(db_path: Path | None, as_json: bool, server: str | None, token: str | None, tls_ca: Path | None) -> None:
    """List the registered bots and their versions."""
    if server is not None:
        with remote(server, token, tls_ca) as service:
            rows = service.bots()
    else:
        with open_store(db_path, create=False) as store:
            rows = store.bots()
    if as_json:
        click.echo(json.dumps([
            {"id": b.bot_id, "name": b.name, "version": b.version, "kind": b.kind, "active": b.active,
             "games": list(b.games), "variants": list(b.variants), "sha256": b.content_hash,
             "description": b.description,
             "registered": b.created_at} for b in rows
        ], indent=2))
        return
    console = make_console()
    console.print(bots_table(rows, width=console.width))


@click.command()
@click.argument("name")
@click.option("--version", "version", default=None, help="The version (default: the active one).")
@click.option("--lines", type=click.IntRange(min=1), default=40, show_default=True, help="Lines from the end of each log.")
@game_option
@db_option
@remote_options
def logs(name: str, version: str | None, lines: int, game: str, db_path: Path | None, server: str | None,
         token: str | None, tls_ca: Path | None) -> None:
    """Show a bot's own output and its forfeits."""
    if server is not None:
        with remote(server, token, tls_ca) as service:
            print_remote_logs(service.logs(name, version, lines, game))
        return
    with open_store(db_path, create=False) as store:
        versions = store.bot_versions(name)
        chosen = [b for b in versions if (b.version == version if version else b.active)]
        if not chosen:
            known = ", ".join(b.version for b in versions) or "none"
            raise click.ClickException(f"no bot {name!r} version {version or '(active)'}; versions: {known}")
        bot = chosen[-1]
        path = version_log_path(store.logs_dir, bot.label)
        if path.exists():
            click.echo(f"== {path}")
            click.echo(safe_block("\n".join(path.read_text(errors="replace").splitlines()[-lines:])))
            if rotated_path(path).exists():
                click.echo(f"(its older output, rotated out at the size cap, is in {rotated_path(path)})")
        else:
            click.echo(f"{bot.label} has no logs yet (they are written while it plays ladder matches)")
        for match_id, reason in forfeits_of(store, game, bot.bot_id):
            click.echo(f"forfeit in {match_id}: {safe_line(reason)} (see `referee replay` of its record)")


def print_remote_logs(reply: Any) -> None:
    """A ladder service's BotLogsReply, printed as `referee logs` prints a
    local bot's (the log's place is the service's business, not shown)."""
    if reply.has_log:
        click.echo(f"== {safe_line(reply.label)}, its output on the ladder service")
        click.echo(safe_block(reply.text))
        if reply.rotated:
            click.echo("(its older output was rotated out at the size cap; the service's operator keeps it)")
    else:
        click.echo(f"{reply.label} has no logs yet (they are written while it plays ladder matches)")
    for forfeit in reply.forfeits:
        click.echo(f"forfeit in {forfeit.match_id}: {safe_line(forfeit.reason)} (see `referee replay` of its record)")
