"""`referee report`: the ladder report as one HTML file, with a viewer page
for each recent match beside it.

The page is self-contained (referee.web.page: plotly.js, the script, the
styles and the data inline, a policy that forbids loading anything), so it
opens offline and can be mailed to the competitors. The recent matches link
to viewer pages (referee.web.viewer) written into a folder next to the
report, `<report name>-matches/`, one per match whose record is kept and
replays with this engine; a match without one says why instead of linking.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from ladder.report import report_data
from ladder.store import Store
from referee.files import write_atomically
from referee.records import RecordError, read_record
from referee.replay import ReplayMismatch
from referee.untrusted import safe_line
from referee.web.page import html_page, static_text
from referee.web.viewer import viewer_html

SAFE_ID = re.compile(r"[A-Za-z0-9_.-]{1,100}")
"""A match id that can name a file as it is (the ladder's ids always can)."""
REPORT_MODE = 0o644
"""The report itself holds only standings and results: readable by all, to be sent."""


def plotly_js() -> str:
    """plotly.js as the `plotly` package ships it (no network, no CDN)."""
    from plotly.offline import get_plotlyjs

    script: str = get_plotlyjs()
    return script


def report_html(data: dict[str, Any], *, live: bool = False) -> str:
    """The report page for `report_data`'s data; `live` makes it follow its server."""
    title = f"{data['game']} ladder"
    body = static_text("ladder", "static/report.html").replace("{{title}}", html.escape(title))
    return html_page(title=title, body=body, scripts=[plotly_js(), static_text("ladder", "static/report.js")],
                     styles=[static_text("ladder", "static/report.css")], data={**data, "live": live},
                     connect_self=live)


def match_viewer(record_path: str | None) -> tuple[str | None, str]:
    """The viewer page of a stored match's record, or None and why not."""
    if record_path is None:
        return None, "no record kept"
    try:
        return viewer_html(read_record(Path(record_path))), ""
    except FileNotFoundError:
        return None, "record missing"
    except (RecordError, ReplayMismatch) as exc:
        return None, f"record does not replay: {safe_line(exc, 120)}"


def write_report(store: Store, game: str, out: Path, *, viewers: int) -> tuple[int, int]:
    """Write the report to `out` and viewer pages for up to `viewers` recent
    matches beside it. Returns (viewer pages written, matches listed)."""
    data = report_data(store, game)
    folder = out.parent / f"{out.stem}-matches"
    written = 0
    for index, match in enumerate(data["recent"]):
        path = match.pop("record_path")
        page, why = match_viewer(path) if index < viewers and SAFE_ID.fullmatch(match["match_id"]) else (None, "")
        if page is None:
            match["note"] = why
            continue
        write_atomically(folder / f"{match['match_id']}.html", page)  # private: it shows every hand
        match["href"] = f"{folder.name}/{match['match_id']}.html"
        written += 1
    write_atomically(out, report_html(data), mode=REPORT_MODE)
    return written, len(data["recent"])
