"""`referee records`: a bot's finished match records, from the ladder service or the store.

A record is given once its duplicate deal has been played in every seat
rotation (ladder.service.api.revealable_records): before, it would show
the deal of matches to come.
"""

from __future__ import annotations

import re
from pathlib import Path

import click

from ladder.cli.options import db_option, open_store
from ladder.cli.remote import remote, remote_options
from ladder.service.api import revealable_records
from referee.files import private_folders, write_atomically
from referee.games import game_names
from referee.untrusted import safe_line

MATCH_ID = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,199}$")
"""A match id fit to be a file name (a service's answer is not trusted to be one)."""


@click.command()
@click.argument("name")
@click.option("--version", default=None, help="Only the matches of this version (default: every version).")
@click.option("--game", default="", help="Only the matches of this game (default: every game).")
@click.option("--latest", type=click.IntRange(min=1), default=None, help="Only the latest N records.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("records"), show_default=True,
              help="The folder to put them in (made if missing); records already there are kept.")
@db_option
@remote_options
def records(name: str, version: str | None, game: str, latest: int | None, out: Path, db_path: Path | None,
            server: str | None, token: str | None, tls_ca: Path | None) -> None:
    """Download the records of a bot's finished matches (with --server: your own bot's, from the ladder service).

    A match's record is given once its duplicate deal has been played in
    every seat rotation (before, it would show the deal of matches to
    come); each is written as OUT/MATCH_ID.jsonl, for `referee replay` and
    `referee view`.
    """
    if game and game not in game_names():
        raise click.BadParameter(f"no game {game!r}; the referee runs {', '.join(game_names())}", param_hint="--game")
    private_folders(out)
    written = kept = withheld = 0
    if server is not None:
        with remote(server, token, tls_ca) as service:
            for item in service.records(name, version=version, game=game, limit=latest or 0):
                if item.WhichOneof("item") == "withheld":
                    withheld = item.withheld
                elif not MATCH_ID.match(item.record.match_id):
                    click.echo(f"warning: skipped a record with the unusable match id "
                               f"{safe_line(item.record.match_id, 80)!r}", err=True)
                elif _keep(out, item.record.match_id, item.record.record):
                    written += 1
                else:
                    kept += 1
    else:
        with open_store(db_path, create=False) as store:
            if not store.bot_versions(name):
                raise click.ClickException(f"no bot named {name!r}; `referee bots` lists them")
            found, withheld = revealable_records(store, name, version or "", game)
            for stored in found[-latest:] if latest else found:
                if _keep(out, stored.match_id, stored.path.read_bytes()):
                    written += 1
                else:
                    kept += 1
    click.echo(f"wrote {written} records of {safe_line(name, 60)} into {out}"
               + (f" ({kept} were there already)" if kept else "")
               + (f"; {withheld} more are withheld until their deal has been played in every seat rotation"
                  if withheld else ""))


def _keep(folder: Path, match_id: str, record: bytes) -> bool:
    """Write `record` as folder/MATCH_ID.jsonl unless it is there; whether it was written."""
    path = folder / f"{match_id}.jsonl"
    if path.exists():
        return False
    write_atomically(path, record.decode("utf-8", errors="replace"))
    return True
