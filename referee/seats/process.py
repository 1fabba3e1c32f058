"""A seat played by a bot process over gRPC (referee/process.py, referee/protocol/client.py).

The seat carries the loop's messages over the bot's `BotClient`: events are
held and sent in one `Notify` just before the seat's next `Decide` (or its
`MatchEnd`), so a bot that is not deciding is not woken for every event
(four bot processes decoding every event on two cores cost more than the
decisions themselves: bench/match_bench.py). The referee's timer for an
answer runs from the moment the `Decide` is sent. A crash's detail says
how the process ended, the hint its author needs most. A seat that forfeits
has its whole process tree killed at once: a spinning loop or a fork bomb
must not play on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from referee.games.base import Event
from referee.process import BotProcess
from referee.protocol.faults import BotCrashed, BotFault
from referee.seats.base import Answer, MatchEnd, MatchStart, Request, Seat, SeatInfo

log = logging.getLogger(__name__)

CRASH_EXIT_WAIT = 0.2
"""Seconds to wait for a crashed bot's exit status (the stream breaks first)."""


class ProcessSeat(Seat):
    """`bot` (started, or a `BotProcess.failed` placeholder) in one seat of one match."""

    kind = "process"
    waits = True

    def __init__(self, bot: BotProcess) -> None:
        self.bot = bot
        self._unsent: list[Event] = []
        self._request: Request | None = None
        self._sent = 0.0
        self._in_match = False
        """The bot's match stream is open (its MatchStart went out)."""

    @property
    def info(self) -> SeatInfo:
        bot = self.bot
        return SeatInfo(
            label=bot.label, name=bot.info.name, version=bot.info.version,
            protocol_version=bot.info.protocol_version,
            variants=None if bot.fault is not None else bot.info.variants,  # a bot that never started forfeits anyway
            sandbox=bot.protections())

    def start(self, start: MatchStart) -> None:
        bot = self.bot
        if bot.fault is not None:
            raise bot.fault
        if not bot.alive:
            raise BotCrashed(f"the bot process was not running at the start ({bot.exit_description()})")
        bot.begin_match()  # fresh CPU and wall budgets: a warm bot's limits bound each match
        try:
            bot.client.start_match(
                match_id=start.match_id, game=start.game, variant=start.variant, seat=start.seat,
                num_seats=start.num_seats, seat_names=start.seat_names, time_control=start.time_control,
                observation=start.observation, seed_commitment=start.seed_commitment, evaluation=start.evaluation)
        except BotFault as fault:
            raise self._explained(fault) from None
        self._in_match = True

    def tell(self, events: Sequence[Event]) -> None:
        self._unsent.extend(events)

    def send(self, request: Request) -> None:
        client = self.bot.client
        try:
            self._flush()
            self._sent = time.monotonic()
            client.send_decide(request_id=request.request_id, observation=request.observation,
                               legal_actions=request.legal_actions, allowance=request.allowance)
        except BotFault as fault:
            raise self._explained(fault) from None
        self._request = request

    def collect(self) -> Answer:
        request = self._request
        assert request is not None, "collect() before send()"
        self._request = None
        remaining = request.allowance + request.grace - (time.monotonic() - self._sent)
        try:
            action = self.bot.client.receive_decision(
                request_id=request.request_id, legal_actions=request.legal_actions, timeout=max(0.0, remaining))
        except BotFault as fault:
            return Answer(None, time.monotonic() - self._sent, self._explained(fault))
        return Answer(action, time.monotonic() - self._sent)

    def end(self, end: MatchEnd) -> None:
        if not self._in_match or not self.bot.alive:
            return
        self._in_match = False
        try:
            self._flush()
            self.bot.client.end_match(end.outcome, end.outcome.reason, end.seed, end.seed_salt)
        except BotFault as fault:  # the match is over; it changes nothing
            log.info("end of match not delivered to %s: %s", self.bot.label, fault.detail)

    def dismiss(self) -> None:
        self._unsent.clear()
        self.bot.kill()  # its whole process tree

    def _flush(self) -> None:
        """Send the held events (the bot's stream carries them in order)."""
        if self._unsent:
            events, self._unsent = self._unsent, []
            self.bot.client.notify(events)

    def _explained(self, fault: BotFault) -> BotFault:
        """A crash with how the process ended; any other fault as it is."""
        if isinstance(fault, BotCrashed) and self.bot.pid > 0:
            return BotCrashed(f"{fault.detail} ({self.bot.exit_description(wait=CRASH_EXIT_WAIT)})")
        return fault
