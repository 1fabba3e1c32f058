"""`referee report`: the ladder report as an HTML file, or live in the browser.

Reads the store only (a mistyped --db is an error naming the path, never a
new store). `--out FILE` writes the report (ladder/report_page.py) with
viewer pages of the recent matches beside it; `--web PORT` serves it live
instead (ladder/live.py) until Ctrl-C, for a store another process is
filling (`referee ladder --web PORT` serves its own run the same way).
"""

from __future__ import annotations

from pathlib import Path

import click

from ladder.cli import db_option, game_option, open_store
from ladder.report import RECENT_MATCHES
from ladder.store import default_db_path

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
def report(db_path: Path | None, game: str, out: Path, viewers: int, port: int | None) -> None:
    """Write the ladder report: standings, rating history, head to head, seats, recent matches."""
    from referee.games import game_names

    if game not in game_names():
        raise click.BadParameter(f"unknown game {game!r}; known games: {', '.join(game_names())}",
                                 param_hint="--game")
    if port is not None:
        serve(db_path or default_db_path(), game, port)
        return
    from ladder.report_page import write_report

    with open_store(db_path, create=False) as store:
        written, listed = write_report(store, game, out, viewers=viewers)
    click.echo(f"report: {out}" + (f" (with {written} of {listed} recent matches' viewers in "
                                   f"{out.parent / (out.stem + '-matches')})" if written else ""))


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
