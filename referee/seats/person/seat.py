"""A seat played by a person, at a web page or a terminal (`kind` "person").

The seat is one more `Seat` of the match loop (docs/architecture.md, "A
new kind of seat"): it passes what the loop tells it to a `Desk` — where
the person sees their seat and chooses — and waits for the choice. What a
desk is shown is exactly what a bot is sent: the seat's `MatchStart`, the
events its seat may see, each request's observation and legal actions (as
a `Menu`), the end. Never the state, never another seat's view.

The clock is the loop's, as for a bot: `collect` waits until the request's
allowance plus grace has passed since `send`, and an answer that has not
come by then is a timeout (a strike, the referee's fallback plays, the
time bank is emptied); a desk that is gone for good (a terminal's input
closed) is a crash, and the seat forfeits. A page that is closed or left
idle is simply late: it can be opened again, and its seat plays on.

The answer is an index into the request's legal actions, checked here
against the request it answers: a desk cannot answer an old request, nor
name an action that was not offered.
"""

from __future__ import annotations

import abc
import time
from collections.abc import Sequence

from botsdk.contract import GRACE, TimeControl

from referee.games.base import Event
from referee.protocol.faults import BotCrashed, BotTimeout
from referee.seats.base import Answer, MatchEnd, MatchStart, Request, Seat, SeatInfo
from referee.seats.person.menu import Menu, menu_for

PERSON = "person"
"""The seat kind the record's header names for a person (docs/records.md)."""
PERSON_MOVE_TIME = 300.0
"""A person's time per decision unless told otherwise: 5 minutes."""


class DeskClosed(Exception):
    """The person's desk is gone for good (a terminal's input ended)."""


class Desk(abc.ABC):
    """Where a person sees their seat and chooses: a web page, a terminal.

    Called by the seat on the match loop's threads: `opened`, `heard`,
    `asked`, `expired`, `ended` and `dismissed` on the loop's own, `answer`
    on the thread that waits for this seat. None of them may raise but
    `answer` (DeskClosed)."""

    @abc.abstractmethod
    def opened(self, start: MatchStart) -> None:
        """The match begins: the seat, the names, the first observation."""

    @abc.abstractmethod
    def heard(self, events: Sequence[Event]) -> None:
        """Events the seat may see, in order."""

    @abc.abstractmethod
    def asked(self, request: Request, menu: Menu) -> None:
        """A decision: show the observation and the menu, start the clock."""

    @abc.abstractmethod
    def answer(self, request_id: int, until: float) -> int | None:
        """The index (into the request's legal actions) the person chose, or
        None when none came by `until` (time.monotonic()). Raises DeskClosed."""

    @abc.abstractmethod
    def expired(self, request_id: int) -> None:
        """No answer came in time: the referee decides this one (a strike)."""

    @abc.abstractmethod
    def ended(self, end: MatchEnd) -> None:
        """The match is over: its outcome."""

    @abc.abstractmethod
    def dismissed(self) -> None:
        """The seat forfeited: the referee plays it to the end."""


def person_clock(move_time: float = PERSON_MOVE_TIME, time_bank: float | None = None) -> TimeControl:
    """A person's clock: `move_time` a decision (5 minutes unless said)."""
    return TimeControl(move_time=move_time, time_bank=time_bank, grace=GRACE)


class PersonSeat(Seat):
    """A person at `desk` in one seat of a match; `label` names them in the
    record, `name` (by default the label) to the other seats."""

    kind = PERSON
    waits = True

    def __init__(self, desk: Desk, label: str = "human", name: str | None = None, *,
                 clock: TimeControl | None = None) -> None:
        self.desk = desk
        self.time_control = clock
        """The person's own clock (`person_clock()`: minutes a decision,
        where the bots at the table keep theirs), or None for the match's."""
        self.label = label
        self.name = name or label
        """What the other seats are told the person is called (their `seat_names`)."""
        self._game = ""
        self._request: Request | None = None
        self._sent = 0.0

    @property
    def info(self) -> SeatInfo:
        return SeatInfo(label=self.label, name=self.name, version=PERSON)

    def start(self, start: MatchStart) -> None:
        self._game = start.game
        self.desk.opened(start)

    def tell(self, events: Sequence[Event]) -> None:
        self.desk.heard(events)

    def send(self, request: Request) -> None:
        menu = menu_for(self._game, request.observation.to_json(), request.legal_actions)
        self._sent = time.monotonic()
        self._request = request
        self.desk.asked(request, menu)

    def collect(self) -> Answer:
        request = self._request
        assert request is not None, "collect() before send()"
        self._request = None
        limit = request.allowance + request.grace
        try:
            choice = self.desk.answer(request.request_id, self._sent + limit)
        except DeskClosed as closed:
            return Answer(None, time.monotonic() - self._sent, BotCrashed(f"the person left: {closed}"))
        seconds = time.monotonic() - self._sent
        if choice is None:
            self.desk.expired(request.request_id)
            return Answer(None, seconds, BotTimeout(f"no answer to request {request.request_id} within "
                                                    f"{limit:.3f} s"))
        return Answer(request.legal_actions[choice], seconds)

    def end(self, end: MatchEnd) -> None:
        self.desk.ended(end)

    def dismiss(self) -> None:
        self.desk.dismissed()
