"""Playing a started bot through real matches, measuring every answer: the
heart of `referee check` (ladder/intake/check.py).

A bot takes one seat of a match; the game's built-in heuristic plays every
other seat in this process (`referee.seats.policy.heuristic_seat`, from its
seat's observation and events), so a check needs no second bot process and
works offline. The matches are seeded, so a finding can be reproduced.

Each match is the ladder's: the one match loop (referee/match.py) plays it
with the same failure policy (a late, illegal or malformed answer is a
strike and the seat is played by the referee's seeded fallback; a crash or
the third strike is a forfeit, which kills the bot's process), the same
`MatchStart` and `MatchEnd` (the seed kept back, as a ladder keeps it), the
same clock. What is measured comes from a seat wrapper around the bot's
`ProcessSeat` (`MeasuredSeat`): per answer, the seconds from sending the
`Decide` to reading the answer and the bytes of the answer (as the referee
encodes the action it chose); per kind, the largest message the bot was
sent.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from botsdk.contract import TimeControl, milliseconds
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

from referee.games import Event, Game, load_game
from referee.games.base import derive_seed
from referee.match import play_match
from referee.process import BotProcess
from referee.protocol import codec as wire
from referee.protocol.faults import BotFault
from referee.seats import Answer, MatchEnd, MatchStart, Request, Seat, SeatInfo
from referee.seats.policy import heuristic_seat
from referee.seats.process import ProcessSeat

OPPONENT = "heuristic"
"""The name the other seats have in `MatchStart.seat_names`."""


@dataclass(frozen=True)
class Asked:
    """One decision the bot was asked for, and what came of it."""

    seats: int
    seat: int
    seed: int
    variant: str
    """The match's options that differ from the game's defaults, as OPTION=VALUE,..."""
    request_id: int
    seconds: float
    answer_bytes: int
    """The bot's answer as the referee encodes the legal action it chose (0 if none)."""
    fault: str | None = None
    """The strike's reason (timeout, illegal, malformed, crashed), or None."""
    detail: str = ""


@dataclass
class GameProbe:
    """What one game's matches showed of the bot."""

    game: str
    matches: int = 0
    asked: list[Asked] = field(default_factory=list)
    largest: dict[str, int] = field(default_factory=dict)
    """The largest message of each kind the bot was sent: match_start, notify, decide."""
    forfeit: str | None = None
    """Why the bot would have forfeited a match (its detail), if it would."""

    def sent(self, kind: str, size: int) -> None:
        self.largest[kind] = max(size, self.largest.get(kind, 0))


def table_sizes(game: Game) -> Iterator[int]:
    """The table sizes the matches are played at: the smallest and the
    largest first, then every size in turn."""
    low, high = game.min_seats, game.max_seats
    yield from dict.fromkeys((low, high))
    while True:
        yield from range(low, high + 1)


def probe_game(bot: BotProcess, game_name: str, *, decisions: int, time_control: TimeControl,
               seed: int, variants: Sequence[Mapping[str, str]] = ({},)) -> GameProbe:
    """Play `bot` through matches of `game_name` until it has been asked at
    least `decisions` times, at the smallest and the largest table and in
    the rule set of each of `variants` (its options; taken in turn, match
    by match; each checked once, here), or until it
    forfeits (its process is then gone). A seat is asked in nearly every
    match, so `decisions` more matches than those is a bound that a seat
    folded out of every match could not make endless."""
    game = load_game(game_name)
    configured = [load_game(game_name, variant) for variant in variants]
    probe = GameProbe(game.name)
    sizes = table_sizes(game)
    minimum = max(len(dict.fromkeys((game.min_seats, game.max_seats))), len(variants))
    while bot.alive and probe.forfeit is None and probe.matches < minimum + decisions \
            and (probe.matches < minimum or len(probe.asked) < decisions):
        seats = next(sizes)
        seat = probe.matches % seats
        match_seed = derive_seed(seed, f"check-{game.name}-{probe.matches}")
        rules = configured[probe.matches % len(configured)]
        measured = MeasuredSeat(ProcessSeat(bot), probe, wire.codec_for(game.name), seats, match_seed,
                                str(rules.rule_set))
        table: list[Seat] = [heuristic_seat(game) for _ in range(seats)]
        table[seat] = measured
        result = play_match(rules, table, seed=match_seed, time_control=time_control,
                            match_id=f"check-{uuid.uuid4().hex[:8]}", reveal_seed=False)
        played = result.seats[seat]
        if played.forfeit is not None and probe.forfeit is None:
            probe.forfeit = f"{played.forfeit}: {played.forfeit_detail}"
        probe.matches += 1
    return probe


class MeasuredSeat(Seat):
    """A seat that passes everything on to `inner` and notes, in `probe`,
    each answer and the size of each message the bot is sent (encoded as
    the referee's client encodes it)."""

    def __init__(self, inner: Seat, probe: GameProbe, codec: wire.GameCodec, seats: int, seed: int,
                 variant: str) -> None:
        self.inner = inner
        self.kind = inner.kind
        self.waits = inner.waits
        self.probe = probe
        self.codec = codec
        self.encoder = wire.DecideEncoder(codec)
        self.seats, self.seed, self.variant = seats, seed, variant
        self.seat = 0
        self._unsent: list[Event] = []
        self._request: Request | None = None

    @property
    def info(self) -> SeatInfo:
        return self.inner.info

    def start(self, start: MatchStart) -> None:
        self.seat = start.seat
        self.probe.sent("match_start", wire.match_start_message(
            self.codec, match_id=start.match_id, game=start.game, variant=start.variant, seat=start.seat,
            num_seats=start.num_seats, seat_names=start.seat_names, time_control=start.time_control.to_message(),
            observation=start.observation, seed_commitment=start.seed_commitment).ByteSize())
        self.inner.start(start)

    def tell(self, events: Sequence[Event]) -> None:
        self._unsent.extend(events)  # they travel with the next Decide's Notify, as the client sends them
        self.inner.tell(events)

    def send(self, request: Request) -> None:
        if self._unsent:
            self.probe.sent("notify", len(wire.notify_message(self.codec, self._unsent)))
            self._unsent = []
        allowance = milliseconds(request.allowance) if math.isfinite(request.allowance) else 0
        self.probe.sent("decide", len(self.encoder.encode(request.request_id, request.observation,
                                                          request.legal_actions, allowance)))
        self._request = request
        try:
            self.inner.send(request)
        except BotFault as fault:  # the loop strikes it without a collect: noted here
            self._note(request, Answer(None, 0.0, fault))
            raise

    def collect(self) -> Answer:
        answer = self.inner.collect()
        assert self._request is not None, "collect() before send()"
        self._note(self._request, answer)
        return answer

    def _note(self, request: Request, answer: Answer) -> None:
        answer_bytes = 0
        if answer.action is not None:
            decision = tpb.Decision(request_id=request.request_id,
                                    action=wire.game_action(self.codec, answer.action))
            answer_bytes = tpb.BotMessage(decision=decision).ByteSize()
        fault = answer.fault
        self.probe.asked.append(Asked(self.seats, self.seat, self.seed, self.variant, request.request_id,
                                      answer.seconds, answer_bytes, fault.reason if fault else None,
                                      fault.detail if fault else ""))

    def end(self, end: MatchEnd) -> None:
        self.inner.end(end)

    def dismiss(self) -> None:
        self.inner.dismiss()


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = min(len(ordered), max(1, math.ceil(share * len(ordered))))
    return ordered[rank - 1]
