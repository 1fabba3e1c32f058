"""`referee report`: the ladder report as one HTML file, with a viewer page
for each recent match beside it.

The page is self-contained (referee.web.page: its scripts, styles and
data inline, a policy that forbids loading anything), so it opens offline
and can be mailed to the competitors. It draws its charts itself, as SVG
(ladder/reporting/static/charts.js, 13 KB): the chart library it inlined before
(plotly.js) made every report and live page weigh 4.8 MB. The recent matches link
to viewer pages (referee.web.viewer) written into a folder next to the
report, `<report name>-matches/`, one per match whose record is kept and
replays with this engine; a match without one says why instead of linking.
No viewer is made of a match whose duplicate deal is still to be played in
another seat rotation: its record would show the cards of a match to come
(docs/security.md, "The report and the live page").
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.files import write_atomically
from referee.records import RecordError, parse_record
from referee.replay import ReplayMismatch
from referee.untrusted import safe_line
from referee.web.page import html_page, static_text
from referee.web.viewer import viewer_html

SAFE_ID = re.compile(r"[A-Za-z0-9_.-]{1,100}")
"""A match id that can name a file as it is (the ladder's ids always can)."""
NO_RECORD = "no record kept"
WITHHELD = "shown once its deal is played in every seat"
"""Why a match is listed without its viewer: a seat rotation of its
duplicate deal is still to be played, and the record shows that deal."""
REPORT_MODE = 0o644
"""The report itself holds only standings and results: readable by all, to be sent."""


def report_html(data: dict[str, Any], *, live: bool = False) -> str:
    """The report page for `report_data`'s data; `live` makes it follow its server."""
    title = data["title"]  # the game and the rule set: "gnadenlos ladder (auction=single)"
    body = static_text("ladder.reporting", "static/report.html").replace("{{title}}", html.escape(title))
    scripts = [static_text("ladder.reporting", "static/charts.js"), static_text("ladder.reporting", "static/rankings.js"),
               static_text("ladder.reporting", "static/report.js")]
    return html_page(title=title, body=body, scripts=scripts,
                     styles=[static_text("ladder.reporting", "static/report.css")], data={**data, "live": live},
                     connect_self=live)


def match_viewer(record_path: Path | None) -> tuple[str | None, str]:
    """The viewer page of a stored match's record, or None and why not."""
    if record_path is None:
        return None, NO_RECORD
    try:
        text = record_path.read_text(encoding="utf-8")
    except OSError:
        return None, "record missing"
    return record_viewer(text, str(record_path))


def record_viewer(text: str, source: str) -> tuple[str | None, str]:
    """The viewer page of a record's text (read from the store or fetched
    from a ladder service), or None and why not."""
    try:
        return viewer_html(parse_record(text.splitlines(), source=source)), ""
    except (RecordError, ReplayMismatch) as exc:
        return None, f"record does not replay: {safe_line(exc, 120)}"


ViewerOf = Callable[[dict[str, Any]], tuple["str | None", str]]
"""A recent match's viewer page (or None and why not), however its record is had."""


def write_report(data: dict[str, Any], out: Path, *, viewers: int, viewer_of: ViewerOf) -> tuple[int, int]:
    """Write the report of `report_data`'s (or `build_report`'s) data to
    `out` and viewer pages for up to `viewers` recent matches beside it.
    Returns (viewer pages written, matches listed)."""
    folder = out.parent / f"{out.stem}-matches"
    written = 0
    for index, match in enumerate(data["recent"]):
        if not match["record_kept"]:
            match["note"] = NO_RECORD
            continue
        if not match["set_finished"]:
            match["note"] = WITHHELD
            continue
        if index >= viewers or not SAFE_ID.fullmatch(match["match_id"]):
            continue
        page, why = viewer_of(match)
        if page is None:
            match["note"] = why
            continue
        write_atomically(folder / f"{match['match_id']}.html", page)  # private: it shows every hand
        match["href"] = f"{folder.name}/{match['match_id']}.html"
        written += 1
    write_atomically(out, report_html(data), mode=REPORT_MODE)
    return written, len(data["recent"])
