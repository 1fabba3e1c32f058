"""A seat played by a bot object in this process: anything shaped like
`bots.sdk.Bot` (the referee does not import the bots; `InProcessBot` says
what it needs of one).

The bot gets exactly what the protocol would give it — `MatchInfo` and its
first observation at the start, its own observation, legal actions and a
`DecisionContext` with the deadline for each decision, the events its seat
may see, the final outcome — and its answer goes through the same failure
policy as a process's: a late answer is a timeout (the bot cannot be
interrupted, so its lateness is seen when it returns), an exception in
`decide` a crash. `strict` is for trusted built-in bots in benchmarks and
tests, where an illegal answer or an exception is a bug to see at once,
never something to repair: it is raised instead.

What the seat hands the bot is its seat's information only; but code that
runs in the referee's process could reach anything there, so an
in-process seat is for trusted code (the built-in bots, a person's own
policy). An untrusted bot is a process in its jail (`ProcessSeat`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from botsdk import DecisionContext, MatchInfo

from referee.games.base import Action, Event, IllegalActionError, Observation, Outcome
from referee.protocol.faults import BotCrashed, BotFault
from referee.seats.base import Answer, MatchEnd, MatchStart, Request, Seat, SeatInfo, late

T = TypeVar("T")


class InProcessBot(Protocol):
    """What an in-process seat needs of its bot (`bots.sdk.Bot` has it)."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None: ...

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...],
               context: DecisionContext) -> Action: ...

    def on_events(self, events: Sequence[Event]) -> None: ...

    def on_match_end(self, outcome: Outcome) -> None: ...


class InProcessSeat(Seat):
    """`bot` in one seat of a match, called on the loop's thread."""

    kind = "in-process"

    def __init__(self, bot: InProcessBot, *, label: str | None = None, strict: bool = False) -> None:
        self.bot = bot
        self.label = label or bot.name
        self.strict = strict
        self._match: MatchInfo | None = None
        self._request: Request | None = None

    @property
    def info(self) -> SeatInfo:
        return SeatInfo(label=self.label, name=self.bot.name, version=self.bot.version)

    def start(self, start: MatchStart) -> None:
        self._match = MatchInfo(start.match_id, start.game, dict(start.variant), start.seat, start.num_seats,
                                start.seat_names, start.time_control, start.seed_commitment, start.evaluation)
        self._call(lambda: self.bot.on_match_start(self._require_match(), start.observation))

    def tell(self, events: Sequence[Event]) -> None:
        self._call(lambda: self.bot.on_events(events))

    def send(self, request: Request) -> None:
        self._request = request

    def collect(self) -> Answer:
        request = self._request
        assert request is not None, "collect() before send()"
        self._request = None
        started = time.monotonic()
        context = DecisionContext(self._require_match(), request.request_id, started + request.allowance)
        try:
            action = self._call(lambda: self.bot.decide(request.observation, request.legal_actions, context))
        except BotFault as fault:
            return Answer(None, time.monotonic() - started, fault)
        seconds = time.monotonic() - started
        timeout = late(request, seconds)
        if timeout is not None:
            return Answer(None, seconds, timeout)
        if self.strict and action not in request.legal_actions:
            raise IllegalActionError(f"bot {self.label} (seat {context.match.seat}) chose {action}, "
                                     "not a legal action")
        return Answer(action, seconds)

    def end(self, end: MatchEnd) -> None:
        try:
            self._call(lambda: self.bot.on_match_end(end.outcome))
        except BotFault:  # the match is over; it changes nothing
            pass

    def _call(self, call: Callable[[], T]) -> T:
        """Run one of the bot's hooks; an exception is a crash, as over the
        protocol (the bot's stream would end), unless the seat is strict."""
        if self.strict:
            return call()
        try:
            return call()
        except Exception as exc:
            raise BotCrashed(f"the bot raised {type(exc).__name__}: {exc}") from exc

    def _require_match(self) -> MatchInfo:
        if self._match is None:
            raise RuntimeError("the match has not started")
        return self._match
