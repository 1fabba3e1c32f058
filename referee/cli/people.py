"""People at `referee play`: `--bot human` (a page in the browser) and
`--bot human-tty` (this terminal), each a `PersonSeat` of the match.

Every `human` seat gets its own page, served on 127.0.0.1 at a free port
(referee.web.seat_server) under its own secret address, which is printed
and opened in a browser where one can be shown. The match waits for the
pages to be opened (at most one decision's time), and after it each page
stays served until its viewer was opened or the page closed (at most
`LINGER` seconds, or until Ctrl-C). One `human-tty` seat at most: a
terminal shows one seat's hand.
"""

from __future__ import annotations

import os
import sys
import webbrowser
from collections.abc import Callable, Sequence

from botsdk.contract import TimeControl
from rich.console import Console

from referee.records import Entry
from referee.seats.person import PersonSeat
from referee.seats.person.terminal import TerminalDesk
from referee.web.seat_server import LINGER, SeatServer

BROWSER = "human"
TERMINAL = "human-tty"
PERSON_SPECS = (BROWSER, TERMINAL)


def is_person(spec: str) -> bool:
    return spec.strip() in PERSON_SPECS


def check_people(specs: Sequence[str]) -> None:
    """Raise ValueError when the people cannot all be seated."""
    if sum(spec.strip() == TERMINAL for spec in specs) > 1:
        raise ValueError(f"at most one --bot {TERMINAL}: one terminal shows one seat's hand (seat the others "
                         f"with --bot {BROWSER}, each on a page of its own)")


def can_open_browser() -> bool:
    """Whether a browser window could be shown here (a desktop session)."""
    return sys.platform in ("darwin", "win32") or bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


class People:
    """The person seats of one match and what serves them; a context manager
    that stops the page server at its end."""

    def __init__(self, game: str, specs: Sequence[str], say: Callable[[str], None], clock: TimeControl) -> None:
        self.say = say
        self.server: SeatServer | None = None
        self._recorder: Callable[[Entry], None] | None = None
        self.seats: dict[int, PersonSeat] = {}
        self.urls: dict[int, str] = {}
        for seat, spec in enumerate(specs):
            kind = spec.strip()
            if kind == TERMINAL:
                self.seats[seat] = PersonSeat(TerminalDesk(Console(highlight=False)), TERMINAL, clock=clock)
            elif kind == BROWSER:
                if self.server is None:
                    self.server = SeatServer()
                desk = self.server.pages.add(game)
                self.seats[seat] = PersonSeat(desk, BROWSER, clock=clock)
                self.urls[seat] = self.server.url(desk)

    @property
    def terminal(self) -> bool:
        """A person plays at this terminal (so it shows nothing else)."""
        return any(isinstance(seat.desk, TerminalDesk) for seat in self.seats.values())

    def __enter__(self) -> "People":
        if self.server is not None:
            self.server.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server is not None:
            self.server.close()

    def open_pages(self, open_browser: bool, wait: float) -> None:
        """Say each page's address, open it where a browser can be shown, and
        wait for every page to be opened (at most `wait` seconds)."""
        if self.server is None:
            return
        for seat, url in self.urls.items():
            self.say(f"seat {seat} is yours: play it at {url}")
        if open_browser and can_open_browser():
            for url in self.urls.values():
                webbrowser.open(url)
        if not self.server.wait_for_pages(wait):
            self.say("a page was not opened in time: the match begins, and its seat's clock runs")

    def record(self, entry: Entry) -> None:
        """A record line (for each page's viewer at the end)."""
        if self.server is not None:
            if self._recorder is None:
                self._recorder = self.server.pages.recorder(self.server.pages.desks)
            self._recorder(entry)

    def linger(self) -> None:
        """After the match, keep the pages served for their viewer links."""
        if self.server is None:
            return
        self.say(f"the match is over: its pages stay open for their viewer links until opened or closed "
                 f"(at most {LINGER / 60:g} minutes; Ctrl-C ends it now)")
        try:
            self.server.linger(LINGER)
        except KeyboardInterrupt:
            pass
