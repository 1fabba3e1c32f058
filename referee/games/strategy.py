"""What the built-in bots need from a game, behind one game-neutral interface.

The heuristic bot and the MCTS bot (bots/) know no game: each game's package
brings its `Strategy` (its `strategy` subpackage, declared in its
`GamePlugin`): a hand-written heuristic `Player` for one seat through one
match, and the game-specific pieces of an information-set MCTS (a
`SearchKit`: the heuristic as rollout policy, dominated actions to skip, a
static evaluation after a rollout cut-off, and so on). Strategies read only
what their seat may know: an observation, the events the seat was told, or a
determinized state the search sampled from its own observation.
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from referee.games.base import Action, Event, Observation, Seat, State

RolloutPolicy = Callable[[State, Seat, tuple[Action, ...], random.Random], Action]
"""(state, seat, legal actions, rng) -> the action that seat plays in a rollout."""
Evaluator = Callable[[State], Sequence[float]]
"""A score per seat for a non-final state; higher is better."""
Estimator = Callable[[State], Sequence[float]]
"""An expected reward per seat (0..1, as from the final ranking) for a non-final state."""
Candidates = Callable[[State, Seat, tuple[Action, ...]], tuple[Action, ...]]
"""(state, seat, legal actions) -> the subset worth searching (dominated ones dropped)."""
Refiner = Callable[[State, Observation, random.Random], None]
"""Adjusts a fresh determinization in place, with what the searching bot
inferred beyond its observation (in Saboteur: who is likely a saboteur)."""
SeatKey = Callable[[State, Seat], Hashable]
"""(state, seat) -> what a seat privately knows that decides how it plays
(its hidden role): it keeps separate statistics per value."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Player:
    """The heuristic playing one seat through one match. It may keep what
    its seat was told along the way (Saboteur's suspicion scores)."""

    def start(self, observation: Observation) -> None:
        """The match begins; `observation` is the seat's view at the start."""

    def on_events(self, events: Sequence[Event]) -> None:
        """Events the seat was told, in order."""

    @abc.abstractmethod
    def decide(self, observation: Observation, legal_actions: tuple[Action, ...]) -> Action:
        """One of `legal_actions` (at least two)."""


@dataclass
class SearchKit:
    """The game's pieces of an information-set MCTS for one seat's match."""

    rollout: RolloutPolicy
    """The heuristic's choice in a determinized state: rollout policy and tree hint."""
    candidates: Candidates
    evaluate: Evaluator | None = None
    """Scores ranked into rewards at a rollout cut-off (or `estimate`)."""
    estimate: Estimator | None = None
    """Expected rewards directly at a rollout cut-off."""
    seat_key: SeatKey | None = None
    refine: Refiner | None = None
    prepare: Callable[[Observation], None] | None = None
    """Called before each search with the seat's observation, to bring the
    kit up to date with what the player inferred."""


@mypyc_attr(allow_interpreted_subclasses=True)
class Strategy:
    """A game's knowledge for the built-in bots."""

    rollout_depth: int
    """Decisions per MCTS rollout before the static evaluation, by default."""

    @abc.abstractmethod
    def player(self) -> Player:
        """A fresh heuristic player for one seat's match."""

    @abc.abstractmethod
    def search_kit(self, player: Player) -> SearchKit:
        """The search pieces for the match `player` plays (they may use what it inferred)."""
