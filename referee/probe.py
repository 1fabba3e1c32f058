"""Playing a started bot through real matches, measuring every answer: the
heart of `referee check` (ladder/check.py).

A bot takes one seat of a match; the game's built-in heuristic plays every
other seat in this process, from its seat's observation and events, so a
check needs no second bot process and works offline. The matches are
seeded, so a finding can be reproduced. Each match is played from its real
start, with the bot's own legal answers applied: a position lifted out of
a match could not be shown to a bot without breaking what the protocol
promises it (a `MatchStart` at the start, events that agree with its own
moves), and a bot that tracks the match from its events would then fail a
check it passes in the ladder.

The failure policy is the referee's (referee/match.py): a late, illegal or
malformed answer is a strike and the seat is played by a random legal
action; a crash or the third strike of a match is a forfeit, after which
the bot is not asked again in that game (after a crash its process is
gone). What is measured per answer: the seconds from sending the `Decide`
to reading the answer, and the bytes of each message the bot is sent and
of its answer (as the referee encodes the action it chose).
"""

from __future__ import annotations

import math
import random
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from botsdk import fairness
from botsdk.contract import TimeControl, milliseconds
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

from referee.games import Action, Event, Game, State, load_game
from referee.games.base import derive_seed
from referee.match import FORFEIT_CRASHED, FORFEIT_STRIKE_LIMIT, STRIKE_LIMIT, Answer, collect, send_request
from referee.process import BotProcess
from referee.protocol import codec as wire
from referee.protocol.faults import BotFault
from referee.simulation import StrategySeat

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
    each of `variants` (taken in turn, match by match), or until it
    forfeits or its process is gone. A seat is asked in nearly every match,
    so `decisions` more matches than those is a bound that a seat folded
    out of every match could not make endless."""
    game = load_game(game_name)
    probe = GameProbe(game.name)
    sizes = table_sizes(game)
    minimum = max(len(dict.fromkeys((game.min_seats, game.max_seats))), len(variants))
    while bot.alive and probe.forfeit is None and probe.matches < minimum + decisions \
            and (probe.matches < minimum or len(probe.asked) < decisions):
        seats = next(sizes)
        match_seed = derive_seed(seed, f"check-{game.name}-{probe.matches}")
        variant = game.check_variant(variants[probe.matches % len(variants)])
        _Match(bot, game, seats, probe.matches % seats, match_seed, variant, time_control, probe).play()
        probe.matches += 1
    return probe


class _Match:
    """One match with the bot at `seat` and the heuristic everywhere else."""

    def __init__(self, bot: BotProcess, game: Game, seats: int, seat: int, seed: int, variant: dict[str, str],
                 time_control: TimeControl, probe: GameProbe) -> None:
        self.bot, self.game, self.seats, self.seat, self.seed = bot, game, seats, seat, seed
        self.variant = variant
        defaults = game.check_variant({})
        self.variant_name = ",".join(f"{key}={value}" for key, value in variant.items() if defaults.get(key) != value)
        self.tc = time_control
        self.probe = probe
        self.codec = wire.codec_for(game.name)
        self.encoder = wire.DecideEncoder(self.codec)
        self.others = {other: StrategySeat(game) for other in range(seats) if other != seat}
        self.fallback = random.Random(derive_seed(seed, "check-fallback"))
        self.unsent: list[Event] = []
        self.requests = 0
        self.strikes = 0
        self.out = False
        """The bot forfeited (or could not be reached): it is asked no more."""

    def play(self) -> None:
        state, setup = self.game.new_state_with_events(self.seats, self.seed, self.variant)
        salt = fairness.new_salt()
        self._start(state, fairness.commitment(self.seed, salt))
        self._tell(setup)
        while not state.is_terminal():
            deciding = sorted(state.to_act())
            actions = {seat: self.others[seat].decide(state, seat, self.fallback)
                       for seat in deciding if seat != self.seat}
            if self.seat in deciding:
                actions[self.seat] = self._ask(state)
            self._tell(state.apply(actions))
        if not self.out:
            self._flush()
            outcome = state.outcome()
            self.bot.client.end_match(outcome, outcome.reason, self.seed, salt)

    def _start(self, state: State, commitment: bytes) -> None:
        names = [OPPONENT] * self.seats
        names[self.seat] = self.bot.info.name
        match_id, variant, observation = f"check-{uuid.uuid4().hex[:8]}", self.variant, state.observe(self.seat)
        self.probe.sent("match_start", wire.match_start_message(
            self.codec, match_id=match_id, game=self.game.name, variant=variant, seat=self.seat,
            num_seats=self.seats, seat_names=names, time_control=self.tc.to_message(), observation=observation,
            seed_commitment=commitment).ByteSize())
        for other, player in self.others.items():
            player.start(state, other)
        self.bot.begin_match()
        try:
            self.bot.client.start_match(
                match_id=match_id, game=self.game.name, variant=variant, seat=self.seat, num_seats=self.seats,
                seat_names=names, time_control=self.tc, observation=observation, seed_commitment=commitment)
        except BotFault as fault:
            self._forfeit(fault.reason, fault.detail)

    def _tell(self, events: Sequence[Event]) -> None:
        for other, player in self.others.items():
            player.on_events([event for event in events if other in event.visible_to])
        self.unsent.extend(event for event in events if self.seat in event.visible_to)

    def _flush(self) -> None:
        if not self.unsent or self.out:
            return
        events, self.unsent = self.unsent, []
        self.probe.sent("notify", len(wire.notify_message(self.codec, events)))
        try:
            self.bot.client.notify(events)
        except BotFault as fault:
            self._forfeit(fault.reason, fault.detail)

    def _ask(self, state: State) -> Action:
        """The bot's answer if it is legal, else a random legal action (as the referee's fallback)."""
        legal = state.legal_actions(self.seat)
        self._flush()
        if self.out:
            return legal[self.fallback.randrange(len(legal))]
        self.requests += 1
        observation = state.observe(self.seat)
        self.probe.sent("decide", len(self.encoder.encode(self.requests, observation, legal,
                                                          milliseconds(self.tc.move_time))))
        sent = send_request(self.bot.client, request_id=self.requests, observation=observation,
                            legal_actions=legal, allowance=self.tc.move_time, grace=self.tc.grace)
        answer = sent if isinstance(sent, Answer) else collect(sent)
        self._record(answer)
        if answer.action is not None:
            return answer.action
        return legal[self.fallback.randrange(len(legal))]

    def _record(self, answer: Answer) -> None:
        fault = answer.fault
        answer_bytes = 0
        if answer.action is not None:
            decision = tpb.Decision(request_id=self.requests,
                                    action=wire.game_action(self.codec, answer.action))
            answer_bytes = tpb.BotMessage(decision=decision).ByteSize()
        detail = fault.detail if fault is not None else ""
        if fault is not None and fault.reason == FORFEIT_CRASHED:
            detail = f"{detail} ({self.bot.exit_description(wait=0.5)})"
        self.probe.asked.append(Asked(self.seats, self.seat, self.seed, self.variant_name, self.requests,
                                      answer.seconds, answer_bytes, fault.reason if fault else None, detail))
        if fault is None:
            return
        self.strikes += 1
        if fault.reason == FORFEIT_CRASHED:
            self._forfeit(fault.reason, detail)
        elif self.strikes >= STRIKE_LIMIT:
            self._forfeit(FORFEIT_STRIKE_LIMIT, f"{self.strikes} strikes in one match (the last: {fault.reason})")

    def _forfeit(self, reason: str, detail: str) -> None:
        self.out = True
        if self.probe.forfeit is None:
            self.probe.forfeit = f"{reason}: {detail}"


def percentile(values: Sequence[float], share: float) -> float:
    """The value below which `share` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return 0.0
    rank = min(len(ordered), max(1, math.ceil(share * len(ordered))))
    return ordered[rank - 1]
