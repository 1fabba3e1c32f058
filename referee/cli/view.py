"""`referee view RECORD [--seat K] [--out FILE]`: a match in the browser.

Writes the match viewer (referee/web/viewer.py), one self-contained HTML
file, and opens it in the default browser; with --out the file is written
there and nothing is opened (for sending it, or a machine without a
browser). Without --seat the page holds every viewpoint (the whole record,
the public, each seat); with --seat K it holds only seat K's, exactly what
`referee replay --seat K` shows, and no seed: a page to give that bot's
author. The page is private (0600) like the record, which it shows.
"""

from __future__ import annotations

import sys
import tempfile
import webbrowser
from pathlib import Path

import click

from referee.cli.record_arg import load_record
from referee.files import write_atomically
from referee.replay import ReplayMismatch
from referee.untrusted import safe_line


@click.command()
@click.argument("record_path", metavar="RECORD", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--seat", type=int, default=None, help="Only this seat's view (what it saw; no seed in the page).")
@click.option("--out", "out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the page here and do not open it.")
def view(record_path: Path, seat: int | None, out: Path | None) -> None:
    """Step through a match record in the browser, from any seat's view."""
    from referee.web.viewer import view_key, viewer_html

    record = load_record(record_path, seat)
    try:
        page = viewer_html(record, None if seat is None else [seat])
    except ReplayMismatch as exc:
        click.echo(f"does not reproduce: {safe_line(exc)}", err=True)
        sys.exit(1)
    target = out or Path(tempfile.mkdtemp(prefix="referee-view-")) / f"{record_path.stem}.html"
    write_atomically(target, page)
    click.echo(f"viewer: {target}")
    if out is None:
        webbrowser.open(target.resolve().as_uri() + f"#view={view_key(seat)}")
