"""`referee view`: one match in the browser, step by step, from any viewpoint.

The record is replayed through the engine (referee.replay, which checks
every step against the record), and each viewpoint of `referee replay` is
prepared in full: the whole record, the public, and each seat (exactly what
`replay --seat K` shows: the events with K in `visible_to`, K's own
decisions, the table from K's observations). What a viewpoint is shown is
decided by `referee.render.Viewpoint`, the same code the terminal uses; the
events and decisions are written by the game's terminal renderer, in the
same words as `referee replay`; the table is drawn by the game's
`GameDrawing`. The page only switches between what was prepared, so a
page made for one seat (`seats=[K]`) holds nothing that seat did not know.

The page's data: `texts` (every distinct HTML string once: table
fragments, event lines, decision lines), `events` (per step and event of
the record: its text), and per view and step the indices to show.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from referee.games import Event
from referee.records import Entry, MatchRecord
from referee.render.common import ANY, Json, seat_names
from referee.render.view import Viewpoint, decision_text, forfeit_text, match_title, renderer_for, strike_text
from referee.replay import Step, steps
from referee.untrusted import safe_line
from referee.web.drawing import GameDrawing, drawing_for, esc, seat_css
from referee.web.page import html_page, static_text
from referee.web.richtext import text_html

ALL = "all"
PUBLIC_VIEW = "public"


def view_key(seat: int | None) -> str:
    """The name of a viewpoint in the page (and its URL): all, public, seat0..."""
    return ALL if seat is None else f"seat{seat}"


@dataclass
class Texts:
    """HTML strings, each stored once and referred to by its index."""

    items: list[str] = field(default_factory=list)
    index: dict[str, int] = field(default_factory=dict)

    def add(self, text: str) -> int:
        found = self.index.get(text)
        if found is None:
            found = self.index[text] = len(self.items)
            self.items.append(text)
        return found


@dataclass
class Prepared:
    """A replayed record with each step's observations as JSON, made once
    for every viewpoint."""

    record: MatchRecord
    steps: list[Step]
    observations: list[list[Json]]

    @classmethod
    def of(cls, record: MatchRecord) -> "Prepared":
        """Replay `record`. Raises referee.replay.ReplayMismatch if it does not reproduce."""
        replayed = list(steps(record))
        return cls(record, replayed, [[o.to_json() for o in step.observations] for step in replayed])


def _names(record: MatchRecord) -> list[str]:
    return seat_names(record.header)


def _view(prepared: Prepared, viewpoint: Viewpoint, key: str, title: str, texts: Texts,
          event_ids: dict[tuple[int, int], int]) -> dict[str, Any]:
    """Everything one viewpoint shows at each step, as indices into `texts`."""
    record = prepared.record
    names = _names(record)
    drawing: GameDrawing = drawing_for(record.header["game"], names, viewpoint.combine)
    frames = []
    before: list[Json] = []
    for number, step in enumerate(prepared.steps):
        shown = viewpoint.events(step.events)
        positions = [_position(step.events, event) for event in shown]
        events_json = [event.to_json() for event in shown]
        observations = [prepared.observations[number][o.seat] for o in viewpoint.observations(step.observations)]
        lines = [text_html(decision_text(record.header["game"], line, names) if in_full
                           else strike_text(line, names))
                 for line, in_full in viewpoint.decisions((step.decision or {}).get("seats", []))]
        lines += [text_html(forfeit_text(forfeit, names)) for forfeit in viewpoint.forfeits(step.forfeits)]
        frames.append({
            "t": [texts.add(part) for part in drawing.table(observations, events_json)],
            "x": [texts.add(part) for part in drawing.interlude(before, events_json)] if before else [],
            "e": [event_ids[(number, position)] for position in positions],
            "d": [texts.add(line) for line in lines],
        })
        before = observations
    return {"key": key, "title": title, "steps": frames}


def _position(events: Sequence[Event], event: Event) -> int:
    for index, candidate in enumerate(events):
        if candidate is event:
            return index
    raise ValueError("the event is not one of the step's")


def _event_lines(prepared: Prepared, texts: Texts) -> tuple[list[list[int]], dict[tuple[int, int], int]]:
    """Every event of the record as [step, index in step, text], written once
    by the game's renderer (an event's words do not depend on who reads them)."""
    renderer = renderer_for(prepared.record.header["game"], _names(prepared.record), ANY)
    rows: list[list[int]] = []
    ids: dict[tuple[int, int], int] = {}
    for number, step in enumerate(prepared.steps):
        for index, event in enumerate(step.events):
            ids[(number, index)] = len(rows)
            rows.append([number, index, texts.add(text_html(renderer.event(event.to_json())))])
    return rows, ids


def _step_labels(record: MatchRecord) -> list[str]:
    return ["the deal"] + [f"decision {entry['n']}" for entry in record.decisions]


def result_html(footer: Entry, names: Sequence[str], columns: Sequence[tuple[str, str]]) -> str:
    """The final ranking with the public end figures (`columns`: the game
    renderer's `figure_columns`), strikes and forfeits."""
    summary = footer.get("summary", {})
    figures = [(key, heading) for key, heading in columns if key in summary]
    forfeits = {f["seat"]: f for f in footer.get("forfeits", [])}
    ending = footer["end_reason"] + (f" ({footer['end_detail']})" if footer.get("end_detail") else "")
    head = "".join(f"<th>{esc(h)}</th>" for h in ["place", "seat", *(h for _, h in figures), "strikes", "forfeit"])
    rows = []
    ranks = footer["ranks"]
    for seat in sorted(range(len(ranks)), key=lambda s: (ranks[s], s)):
        forfeit = forfeits.get(seat)
        cells = [str(ranks[seat] + 1), f'<span class="seat s{seat}">{esc(names[seat])}[{seat}]</span>']
        cells += [esc(summary[key][seat]) for key, _ in figures]
        cells.append(str(len(footer["strikes"][seat])) if footer["strikes"][seat] else "·")
        cells.append(esc(f"{forfeit['reason']}: {forfeit['detail']}") if forfeit else "")
        rows.append(f'<tr data-seat="{seat}">' + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    return (f'<table class="result"><caption>Result: {esc(ending)}</caption><tr>{head}</tr>'
            + "".join(rows) + "</table>")


def viewer_data(prepared: Prepared, seats: Sequence[int] | None = None) -> dict[str, Any]:
    """The page's data: every viewpoint (whole record, public, each seat),
    or with `seats` only those seats' views."""
    record = prepared.record
    header = record.header
    names = _names(record)
    num_seats = record.num_seats
    texts = Texts()
    event_rows, event_ids = _event_lines(prepared, texts)
    viewpoints: list[tuple[Viewpoint, str, str]] = []
    if seats is None:
        viewpoints.append((Viewpoint(num_seats), ALL, "every seat's view (the whole record)"))
        viewpoints.append((Viewpoint(num_seats, spectator=True), PUBLIC_VIEW, "public view (what every seat knew)"))
    for seat in range(num_seats) if seats is None else seats:
        viewpoints.append((Viewpoint(num_seats, seat=seat), view_key(seat), f"seen by {names[seat]}[{seat}]"))
    views = [_view(prepared, viewpoint, key, title, texts, event_ids) for viewpoint, key, title in viewpoints]
    if seats is not None:  # a page for some seats holds only the events they saw
        kept = {event for view in views for frame in view["steps"] for event in frame["e"]}
        event_rows = [row if index in kept else [] for index, row in enumerate(event_rows)]
        used = {row[2] for row in event_rows if row} | {
            t for view in views for frame in view["steps"] for part in ("t", "x", "d") for t in frame[part]}
        texts.items = [text if index in used else "" for index, text in enumerate(texts.items)]
    tc = header["time_control"]
    return {
        "game": header["game"],
        "match_id": safe_line(header["match_id"]),
        "seed": header["seed"] if seats is None else None,
        "time": f"{tc['move_time']} s/decision" + (f" + bank {tc['time_bank']} s" if tc.get("time_bank") else ""),
        "seats": [{"name": names[s], "version": safe_line(header["seats"][s]["version"])} for s in range(num_seats)],
        "steps": _step_labels(record),
        "texts": texts.items,
        "events": event_rows,
        "views": views,
        "result": (result_html(record.footer, names, renderer_for(header["game"], names).figure_columns)
                   if record.footer is not None else None),
        "unfinished": record.footer is None,
    }


def viewer_html(record: MatchRecord, seats: Sequence[int] | None = None) -> str:
    """The whole viewer page of `record` (see `viewer_data` for `seats`).
    Raises referee.replay.ReplayMismatch if the record does not reproduce."""
    prepared = Prepared.of(record)
    data = viewer_data(prepared, seats)
    drawing = drawing_for(record.header["game"], _names(record), ANY)
    title = safe_line(match_title(record.header))
    body = static_text("referee.web", "static/viewer.html").replace("{{title}}", html.escape(title))
    return html_page(title=title, body=body, scripts=[static_text("referee.web", "static/viewer.js")],
                     styles=[static_text("referee.web", "static/viewer.css"), seat_css(), type(drawing).css()],
                     data=data)
