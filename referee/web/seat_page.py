"""The page a person plays a seat on: its HTML, and the messages it is sent.

The page is static (seat.html, seat.js, seat.css, the game's drawing
stylesheet, no data); everything about the match reaches it as messages
(referee.web.seat_server serves them), each made here from what the seat
is told and nothing else — the `MatchStart`, the events its seat may see,
each request (its observation and its `Menu`), the `MatchEnd`. So the page
holds exactly the seat's information set, the projection a bot receives.

The table is drawn by the game's `GameDrawing`, exactly as the viewer
draws a seat's view (referee.web.viewer), each fragment of it sent once
(then by its number: `SeatView.shared`); event lines are written by the
game's terminal renderer, as `referee replay` writes them. Bots choose
their names, so no name is ever written into the page's HTML: the
drawings and renderers are given placeholders (`name_mark`), and the
page's script writes each name as text where its placeholder stands.
Event lines travel as runs of text and style, never as HTML.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from referee.games import Event, load_game
from referee.games.saboteur.cards import KIND_INDEX, KINDS
from referee.games.saboteur.render import Maze, edges_of
from referee.games.saboteur.viewer import CELL_H, CELL_W, MARGIN
from referee.render.common import PUBLIC, Json
from referee.render.view import renderer_for
from referee.seats.base import MatchEnd, MatchStart, Request
from referee.seats.person.menu import Menu
from referee.untrusted import safe_line
from referee.web.drawing import drawing_for, seat_css
from referee.web.page import html_page, static_text
from referee.web.richtext import text_runs

Message = dict[str, Any]


def name_mark(seat: int) -> str:
    """What stands for seat `seat`'s name in the page's HTML and text: the
    page's script replaces it with the name, as text."""
    return f"⁅{seat}⁆"


def _maze_geometry(observation: Json, menu: Menu) -> dict[str, Any]:
    """Where the Saboteur drawing puts cell (x, y) in its maze
    (referee.games.saboteur.viewer): left = margin + (x - x0) * w, top =
    margin + (y1 - y) * h; and each placeable card's face as it lies upright
    and turned (the drawing's symbols: sb-t<edges> a tunnel, sb-d<edges> a
    dead end), for the page to show a placement on the maze (S-4.1)."""
    x0, _, _, y1 = Maze.from_observations([observation], PUBLIC).bounds()
    cards = {option.placement.card for option in menu.options if option.placement is not None}
    faces = {card: [("t" if KINDS[KIND_INDEX[card]].through else "d") + str(edges_of(card, turned))
                    for turned in (False, True)] for card in sorted(cards)}
    return {"x0": x0, "y1": y1, "w": CELL_W, "h": CELL_H, "margin": MARGIN, "faces": faces}


GEOMETRY: dict[str, Callable[[Json, Menu], dict[str, Any]]] = {"saboteur": _maze_geometry}
"""Per game, what the page needs to place choices on the drawn table."""


class SeatView:
    """Turns what one seat is told into the messages of its page.

    The table of a request is drawn from its observation with the events
    since the seat's last request (a payday, a round's end), as the viewer
    draws a step; a Saboteur round that ended in between also gets the
    maze as it ended (the drawing's interlude)."""

    def __init__(self, start: MatchStart) -> None:
        self.game = start.game
        self.seat = start.seat
        marks = [name_mark(seat) for seat in range(start.num_seats)]
        self.drawing = drawing_for(start.game, marks, PUBLIC)
        self.renderer = renderer_for(start.game, marks, PUBLIC)
        self.observation: Json = start.observation.to_json()
        self.since: list[Json] = []
        """The events since the last observation (JSON), for the next table."""
        self.interlude: list[str] = []
        self.start = start
        self.fragments: dict[str, int] = {}
        """Every table fragment sent so far, by its number (in the order first sent)."""

    def opened(self) -> Message:
        start = self.start
        tc = start.time_control
        return {
            "type": "start",
            "title": load_game(start.game).title,
            "game": start.game,
            "match_id": safe_line(start.match_id),
            "seat": start.seat,
            "names": [safe_line(name) for name in start.seat_names],
            "move_time": tc.move_time,
            "time_bank": tc.time_bank,
            "table": self.shared(self.drawing.table([self.observation], [])),
        }

    def heard(self, events: Sequence[Event]) -> Message:
        shown = [event.to_json() for event in events]
        interlude = self.drawing.interlude([self.observation], [*self.since, *shown])
        self.since.extend(shown)
        message: Message = {"type": "events", "lines": [text_runs(self.renderer.event(event)) for event in shown]}
        if interlude and interlude != self.interlude:  # shown once, when its round ends
            self.interlude = interlude
            message["interlude"] = self.shared(interlude)
        return message

    def asked(self, request: Request, menu: Menu) -> Message:
        observation = request.observation.to_json()
        message: Message = {
            "type": "ask",
            "request": request.request_id,
            "allowance": request.allowance,
            "table": self.shared(self.drawing.table([observation], self.since)),
            "menu": menu.to_json(),
        }
        geometry = GEOMETRY.get(self.game)
        if geometry is not None:
            message["geometry"] = geometry(observation, menu)
        self.observation = observation
        self.since = []
        self.interlude = []
        return message

    def shared(self, fragments: Sequence[str]) -> list[str | int]:
        """Table fragments, each sent once: one sent before goes as its number
        (a table's rows, Saboteur's card faces and maze frame mostly stay
        as they were: bench/human_bench.py)."""
        out: list[str | int] = []
        for fragment in fragments:
            number = self.fragments.get(fragment)
            if number is None:
                self.fragments[fragment] = len(self.fragments)
                out.append(fragment)
            else:
                out.append(number)
        return out

    @staticmethod
    def ended(end: MatchEnd) -> Message:
        outcome = end.outcome
        return {"type": "end", "reason": outcome.reason, "detail": outcome.detail, "ranks": list(outcome.ranks)}


def seat_page_html(game: str) -> str:
    """The page of a seat of `game`: static, its data comes as messages."""
    drawing = drawing_for(game, [], PUBLIC)
    title = f"{load_game(game).title}: your seat"
    body = static_text("referee.web", "static/seat.html")
    return html_page(title=title, body=body,
                     scripts=[static_text("referee.web", "static/seat.js")],
                     styles=[static_text("referee.web", "static/seat.css"), seat_css(), type(drawing).css()],
                     connect_self=True)
