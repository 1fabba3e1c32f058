"""`referee report`: the ladder report as an HTML file, or live in the browser.

Reads the store only (a mistyped --db is an error naming the path, never a
new store), or, with `--server ADDR`, a running ladder service through its
API (`ladder.v1`: Standings, RatingHistory, RecentMatches, GetRecord), which
gives the same parts, so the same page. `--out FILE` writes the report
(ladder/report_page.py) with viewer pages of the recent matches beside it;
`--web PORT` serves a store's report live instead (ladder/live.py) until
Ctrl-C, for a store another process is filling (`referee ladder --web PORT`
serves its own run the same way, `referee serve --web PORT` a service's).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from ladder.cli import db_option, game_option, open_store, remote, remote_options
from ladder.report import RECENT_MATCHES
from ladder.store import default_db_path

if TYPE_CHECKING:
    from ladder.service.client import Remote

PORT = click.IntRange(min=0, max=65535)


@click.command()
@db_option
@game_option
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=Path("report.html"),
              show_default=True, help="Write the report here (viewer pages go to <name>-matches/ beside it).")
@click.option("--viewers", type=click.IntRange(min=0, max=RECENT_MATCHES), default=RECENT_MATCHES, show_default=True,
              help="Viewer pages to write for the most recent matches (0: the report file alone).")
@click.option("--web", "port", type=PORT, default=None,
              help="Serve the report live on this port (127.0.0.1) instead of writing it; Ctrl-C stops.")
@remote_options
def report(db_path: Path | None, game: str, out: Path, viewers: int, port: int | None, server: str | None,
           token: str | None, tls_ca: Path | None) -> None:
    """Write the ladder report: standings, rating history, head to head, seats, recent matches."""
    from ladder.report_page import write_report

    if server is not None:
        if port is not None:
            raise click.UsageError("--web serves a local store; a ladder service serves its own live page "
                                   "(`referee serve --web PORT`)")
        if db_path is not None:
            raise click.UsageError("give --db (a local store) or --server (a ladder service), not both")
        with remote(server, token, tls_ca) as service:
            data = served_report(service, game)
            written, listed = write_report(data, out, viewers=viewers,
                                           viewer_of=lambda match: served_viewer(service, match))
    elif port is not None:
        serve(db_path or default_db_path(), game, port)
        return
    else:
        from ladder.report import report_data
        from ladder.report_page import match_viewer

        with open_store(db_path, create=False) as store:
            data = report_data(store, game)
            written, listed = write_report(data, out, viewers=viewers,
                                           viewer_of=lambda match: match_viewer(store.record_of(match["match_id"])))
    click.echo(f"report: {out}" + (f" (with {written} of {listed} recent matches' viewers in "
                                   f"{out.parent / (out.stem + '-matches')})" if written else ""))


def served_report(service: Remote, game: str) -> dict[str, Any]:
    """The report's data from a ladder service's API: its parts as the store would give them."""
    from ladder.report import build_report

    table = json.loads(service.standings(game, h2h=True, seats=True).json)
    return build_report(game, table, service.rating_history(game), service.recent_matches(game, RECENT_MATCHES))


def served_viewer(service: Remote, match: dict[str, Any]) -> tuple[str | None, str]:
    """A recent match's viewer page from the record the service sends."""
    from ladder.report_page import record_viewer
    from ladder.service.client import RemoteError

    try:
        text = service.record(match["match_id"]).decode("utf-8", errors="replace")
    except RemoteError as exc:
        return None, str(exc)[:120]
    return record_viewer(text, f"match {match['match_id']}")


def serve(db_path: Path, game: str, port: int) -> None:
    """Serve the live page until Ctrl-C."""
    from ladder.live import LiveServer

    with open_store(db_path, create=False):
        pass  # the same clear error as the other read-only commands for a store that is not there
    try:
        server = LiveServer(db_path, game, port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on port {port}: {exc.strerror or exc}") from None
    click.echo(f"live page: {server.url}  (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stopping.set()
        server.server_close()
