"""`referee token`: issue, list and revoke the tokens submitters use with `--server`.

The tokens of the data folder the --db names (ladder/service/access.py:
only each token's SHA-256 is kept, so a token is shown once, when issued).
"""

from __future__ import annotations

from pathlib import Path

import click

from ladder.cli.options import db_option
from ladder.service.access import Access, AccessError
from ladder.store.database import default_db_path


@click.group()
def token() -> None:
    """Issue, list and revoke the tokens submitters use with `--server`."""


@token.command("add")
@click.argument("name")
@db_option
def token_add(name: str, db_path: Path | None) -> None:
    """Issue a token for the submitter NAME (shown once: hand it over now)."""
    access = Access((db_path or default_db_path()).parent)
    try:
        secret = access.add_token(name)
    except AccessError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        access.close()
    click.echo(secret)
    click.echo(f"token for {name}; it is shown only now. The submitter passes it with --token (or $REFEREE_TOKEN).",
               err=True)


@token.command("list")
@db_option
def token_list(db_path: Path | None) -> None:
    """List the submitters that hold a token."""
    access = Access((db_path or default_db_path()).parent)
    try:
        for held in access.tokens():
            click.echo(f"{held.name}\t{held.created_at}")
    finally:
        access.close()


@token.command("revoke")
@click.argument("name")
@db_option
def token_revoke(name: str, db_path: Path | None) -> None:
    """Revoke NAME's token (its bots stay registered and stay NAME's)."""
    access = Access((db_path or default_db_path()).parent)
    try:
        if not access.revoke(name):
            raise click.ClickException(f"no token named {name!r}; `referee token list` shows them")
    except AccessError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        access.close()
    click.echo(f"revoked the token of {name}")
