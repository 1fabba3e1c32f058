"""Seats played by policy functions in this process: what `referee simulate`
seats, and what `referee check` puts opposite the bot it checks.

- `PlayerSeat`: a policy over its seat's observation that keeps what its
  seat is told (`referee.games.strategy.Player`, e.g. the game's built-in
  heuristic): it gets what the protocol gives a bot, never the state.
- `StatePolicySeat`: a policy over the whole state (`StatePolicy`: uniformly
  random, or a test's script), a `TrustedSeat`: for simulations only, where
  no seat's secrets matter.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from referee.games.base import Action, Event, Game, State
from referee.games.plugin import load_strategy
from referee.games.strategy import Player
from referee.protocol.faults import BotCrashed
from referee.seats.base import Answer, MatchStart, Request, Seat, SeatInfo, TrustedSeat, late

StatePolicy = Callable[[State, int, random.Random], Action]
"""Chooses a legal action for a seat of a state, drawing any chance from the rng."""


def random_policy(state: State, seat: int, rng: random.Random) -> Action:
    """A uniformly random legal action."""
    return rng.choice(state.legal_actions(seat))


class StatePolicySeat(TrustedSeat):
    """`policy` deciding for one seat from the whole state, with `rng`."""

    def __init__(self, policy: StatePolicy, rng: random.Random, name: str = "policy") -> None:
        self.policy = policy
        self.rng = rng
        self.name = name

    @property
    def info(self) -> SeatInfo:
        return SeatInfo(label=self.name, name=self.name, version="1")

    def choose(self, state: State, seat: int) -> Action:
        return self.policy(state, seat, self.rng)


class PlayerSeat(Seat):
    """`player` deciding for one seat from its observation and the events
    its seat is told. An exception in it is a crash (the seat forfeits)."""

    kind = "policy"

    def __init__(self, player: Player, name: str) -> None:
        self.player = player
        self.name = name
        self._request: Request | None = None

    @property
    def info(self) -> SeatInfo:
        return SeatInfo(label=self.name, name=self.name, version="1")

    def start(self, start: MatchStart) -> None:
        self.player.start(start.observation)

    def tell(self, events: Sequence[Event]) -> None:
        self.player.on_events(events)

    def send(self, request: Request) -> None:
        self._request = request

    def collect(self) -> Answer:
        request = self._request
        assert request is not None, "collect() before send()"
        self._request = None
        legal = request.legal_actions
        if len(legal) == 1:  # a Player decides among two or more
            return Answer(legal[0], 0.0)
        started = time.monotonic()
        try:
            action = self.player.decide(request.observation, legal)
        except Exception as exc:
            return Answer(None, time.monotonic() - started,
                          BotCrashed(f"the policy raised {type(exc).__name__}: {exc}"))
        seconds = time.monotonic() - started
        return Answer(None, seconds, timeout) if (timeout := late(request, seconds)) else Answer(action, seconds)


HEURISTIC = "heuristic"


def heuristic_seat(game: Game) -> PlayerSeat:
    """The game's built-in heuristic (its package's strategy) for one seat of one match."""
    return PlayerSeat(load_strategy(game.name).player(), HEURISTIC)
