"""What every game's drawing in the browser viewer shares, and the
`GameDrawing` a game's package fills in (its `viewer` module, declared as
`GamePlugin.viewer`).

A drawing turns the observations of one viewer into HTML, exactly as a
`GameRenderer` turns them into terminal text: one seat's observation for a
seat's view, every seat's combined by what all know (`PUBLIC`) for the
public, or by what any knows (`ANY`) for the whole record. It never sees the
full state, so it cannot draw more than its viewer may know (G-10, S-8).

Its HTML is a list of fragments (a status line, the seats, the market...):
the viewer stores each distinct fragment once, so a part that did not change
since the last step, or that every view shares, costs nothing twice. Every
string from outside (a bot's name) is escaped here, never markup.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from importlib.resources import files
from typing import ClassVar

from referee.games.plugin import plugin
from referee.render.common import PUBLIC, SEAT_STYLES, Json
from referee.untrusted import safe_line
from referee.web.richtext import style_colour

SEAT_COLOURS = tuple(style_colour(style) for style in SEAT_STYLES)
"""Each seat's colour on the page, the one its name has in the event log."""


def esc(value: object) -> str:
    """Text for HTML: escaped, and shown safely if it came from a bot."""
    return html.escape(safe_line(value), quote=True)


def seat_css() -> str:
    """CSS classes .s0, .s1 ... colouring a seat's name, and .bg0 ... its chips."""
    rules = [f".s{i}{{color:{colour}}}.bg{i}{{background:{colour}}}" for i, colour in enumerate(SEAT_COLOURS)]
    return "\n".join(rules)


class GameDrawing:
    """How one game's table is drawn for one viewer; this base draws none
    (the viewer then shows the events alone).

    The viewer makes one per view and calls it in the match's order: for
    each step `interlude` (with the observations before the step) and then
    `table` (with those after it), each with the events of that step the
    viewer may see.
    """

    stylesheet: ClassVar[str | None] = None
    """A CSS file beside the subclass's module, added to the page once."""

    def __init__(self, names: Sequence[str], combine: str = PUBLIC) -> None:
        self.names = [safe_line(name) for name in names]  # chosen by bots: escaped wherever drawn
        self.combine = combine

    @classmethod
    def css(cls) -> str:
        if cls.stylesheet is None:
            return ""
        return files(cls.__module__.rpartition(".")[0]).joinpath(cls.stylesheet).read_text(encoding="utf-8")

    def label(self, seat: int) -> str:
        """A seat's name and number in its colour."""
        return f'<span class="seat s{seat}">{esc(self.names[seat])}[{seat}]</span>'

    def table(self, observations: Sequence[Json], events: Sequence[Json]) -> list[str]:
        """HTML fragments of the table as `observations` (one per viewing
        seat, as JSON) jointly show it, after a step with these `events`."""
        return []

    def interlude(self, before: Sequence[Json], events: Sequence[Json]) -> list[str]:
        """Fragments to show beside the table for a moment inside a step that
        the observations after it no longer hold (e.g. the maze as a round
        ended, in the same step as the next deal); usually none."""
        return []


def drawing_for(game: str, names: Sequence[str], combine: str) -> GameDrawing:
    """The game's drawing for one viewer (the base class for a game without one)."""
    drawing: type[GameDrawing] | None = plugin(game).load("viewer")
    return (drawing or GameDrawing)(names, combine)
