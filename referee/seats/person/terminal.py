"""A person's seat at a terminal: `referee play --bot human-tty`.

The terminal shows the seat what a bot is sent, as `referee replay --seat`
shows it: the table from the seat's own observation (the game's renderer),
each event its seat may see as it happens, and at each decision the
`Menu` with every option numbered. The person types a number (or the
action's own text) and Enter. Nothing depends on colour — IOUs are
written with their colour's letter (R3), seats by name and number — and
every line fits the terminal's width (80 columns and up).

Input is read straight from the file descriptor with a deadline (select),
so the loop's clock holds: an answer not typed in time is a timeout, and
keys typed while it was not this seat's turn are thrown away when it is,
so that they cannot answer a question not yet asked. The end of input
(Ctrl-D, a closed terminal) is a crash: the seat forfeits.
"""

from __future__ import annotations

import os
import select
import sys
import termios
import threading
import time
from collections.abc import Sequence
from datetime import datetime, timedelta

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.text import Text

from referee.games import Event, load_game
from referee.games.gnadenlos.render import iou_text
from referee.render.common import PUBLIC, GameRenderer, Json, seat_label
from referee.render.view import renderer_for
from referee.seats.base import MatchEnd, MatchStart, Request
from referee.seats.person.menu import IouRef, Menu, Option, Part, SeatRef
from referee.seats.person.seat import Desk, DeskClosed
from referee.untrusted import safe_line

GAP = "   "
"""Between two options on one line."""


class TerminalDesk(Desk):
    """The seat on `console`, its answers read from file descriptor `fd` (stdin)."""

    def __init__(self, console: Console | None = None, fd: int | None = None) -> None:
        self.console = console or Console(highlight=False)
        self.fd = sys.stdin.fileno() if fd is None else fd
        self._print_lock = threading.Lock()
        self._pending = b""
        self._names: list[str] = []
        self._renderer: GameRenderer | None = None
        self._menu: Menu | None = None
        self._seat = -1

    # ------------------------------------------------------------- showing

    def _print(self, *items: object) -> None:
        with self._print_lock:
            for item in items:
                self.console.print(item)

    def _require_renderer(self) -> GameRenderer:
        if self._renderer is None:
            raise RuntimeError("the match has not started")
        return self._renderer

    def opened(self, start: MatchStart) -> None:
        self._seat = start.seat
        self._names = [safe_line(name) for name in start.seat_names]
        self._renderer = renderer_for(start.game, self._names, PUBLIC)
        tc = start.time_control
        bank = f" + a bank of {_clock(tc.time_bank)}" if tc.time_bank else ""
        title = Text.assemble((f"{load_game(start.game).title} match {safe_line(start.match_id)}", "bold"),
                              ": you are ", seat_label(start.seat, self._names),
                              f"; {_clock(tc.move_time)} a decision{bank}")
        seats = Text(", ").join([seat_label(seat, self._names) for seat in range(start.num_seats)])
        self._print(title, Text("seats: ") + seats, self._table(start.observation.to_json()))

    def heard(self, events: Sequence[Event]) -> None:
        renderer = self._require_renderer()
        self._print(*(Text("  ") + renderer.event(event.to_json()) for event in events))

    def asked(self, request: Request, menu: Menu) -> None:
        self._menu = menu
        until = datetime.now() + timedelta(seconds=request.allowance)
        lines: list[object] = [Rule(f"your turn (decision {request.request_id})", align="left"),
                               self._table(request.observation.to_json()), Text(menu.prompt, style="bold")]
        number = 1
        for group in menu.groups:
            lines.append(Text(group.title + ":", style="bold"))
            lines.extend(self._options(group.options, number))
            number += len(group.options)
        lines.append(Text(f"decision {request.request_id}: type a number (1-{number - 1}) and Enter; "
                          f"{_clock(request.allowance)} to answer, until {until:%H:%M:%S}"))
        self._print(*lines)

    def _table(self, observation: Json) -> RenderableType:
        table = self._require_renderer().table([observation], "your seat")
        return table if table is not None else Text("")

    def _options(self, options: Sequence[Option], first: int) -> list[Text]:
        """The options numbered from `first`, as many to a line as fit."""
        width = max(20, self.console.width - 2)
        lines: list[Text] = []
        line = Text("  ")
        for number, option in enumerate(options, first):
            item = Text(f"{number}) ") + self._words(option.words)
            if len(line) > 2 and len(line) + len(GAP) + len(item) > width:
                lines.append(line)
                line = Text("  ")
            line = line + (Text(GAP) if len(line) > 2 else Text("")) + item
        lines.append(line)
        return lines

    def _words(self, parts: Sequence[Part]) -> Text:
        text = Text()
        for part in parts:
            if isinstance(part, SeatRef):
                text.append_text(seat_label(part.seat, self._names))
            elif isinstance(part, IouRef):
                if len(text) and not text.plain.endswith(" "):
                    text.append(" ")
                text.append_text(iou_text(part.colour, part.value))
            else:
                text.append(part)
        return text

    def expired(self, request_id: int) -> None:
        self._print(Text(f"time ran out on decision {request_id}: the referee chose for you (a strike)",
                         style="bold"))

    def ended(self, end: MatchEnd) -> None:
        outcome = end.outcome
        order = sorted(range(len(outcome.ranks)), key=lambda seat: (outcome.ranks[seat], seat))
        lines: list[object] = [Rule("the match is over", align="left"),
                               Text(f"Result: {outcome.reason}" + (f" ({outcome.detail})" if outcome.detail else ""))]
        for seat in order:
            you = "  <- you" if seat == self._seat else ""
            lines.append(Text(f"  {outcome.ranks[seat] + 1}. ") + seat_label(seat, self._names) + you)
        self._print(*lines)

    def dismissed(self) -> None:
        self._print(Text("your seat forfeited: the referee plays it to the end", style="bold"))

    # ------------------------------------------------------------- reading

    def answer(self, request_id: int, until: float) -> int | None:
        menu = self._menu
        assert menu is not None, "answer() before asked()"
        options = menu.options
        self._discard_typed_ahead()
        while True:
            line = self._read_line(until)
            if line is None:
                return None
            chosen = _choice(line, options)
            if chosen is not None:
                return chosen
            self._print(Text(f"{safe_line(line)!r} is not a choice: type a number from 1 to {len(options)}"))

    def _discard_typed_ahead(self) -> None:
        """Keys typed at a terminal before the question was asked answer
        nothing (input from a file or a pipe is a script: it is all kept)."""
        if os.isatty(self.fd):
            self._pending = b""
            termios.tcflush(self.fd, termios.TCIFLUSH)

    def _read_line(self, until: float) -> str | None:
        """The next line typed, or None if none is finished by `until`. Raises DeskClosed."""
        while b"\n" not in self._pending:
            left = until - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(self.fd, 1024)
            if not chunk:
                raise DeskClosed("the terminal's input ended")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()


def _choice(line: str, options: Sequence[Option]) -> int | None:
    """The legal action's index a typed line names: an option's number, or its action's text."""
    if line.isdigit() and 1 <= int(line) <= len(options):
        return options[int(line) - 1].index
    for option in options:
        if line == option.action:
            return option.index
    return None


def _clock(seconds: float | None) -> str:
    """5:00, 1:02:03; "no limit" for none."""
    if seconds is None or seconds == float("inf"):
        return "no limit"
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"
