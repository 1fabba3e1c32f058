"""The Saboteur game: rule set, variant and the factory of states (S-1, S-2, S-6.6)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from referee.games.base import Event, Game, Observation
from referee.games.saboteur.actions import SaboteurAction, action_from_json, parse_action
from referee.games.saboteur.config import DEFAULT_CONFIG, RULES_VERSION, SaboteurConfig
from referee.games.saboteur.determinize import determinize
from referee.games.saboteur.observation import SaboteurObservation
from referee.games.saboteur.serialize import state_from_json
from referee.games.saboteur.state import VARIANT_LOSE_SHARE, SaboteurState


class Saboteur(Game):
    """Frederic Moyersoen's Saboteur (Amigo 2004) for 3 to 10 seats."""

    name: ClassVar[str] = "saboteur"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 10
    rules_version: ClassVar[str] = RULES_VERSION
    variant_options: ClassVar[Mapping[str, tuple[str, ...]]] = {VARIANT_LOSE_SHARE: ("off", "on")}

    def __init__(self, config: SaboteurConfig = DEFAULT_CONFIG) -> None:
        self.config = config

    def new_state(self, seats: int, seed: int, variant: Mapping[str, str] | None = None) -> SaboteurState:
        self.check_seats(seats)
        state = SaboteurState()
        state.setup(seats, seed, self.check_variant(variant), self.config)
        return state

    def new_state_with_events(
        self, seats: int, seed: int, variant: Mapping[str, str] | None = None
    ) -> tuple[SaboteurState, list[Event]]:
        """A new state and the events of its setup (the first deal, for the record)."""
        self.check_seats(seats)
        state = SaboteurState()
        events: list[Event] = []
        state._events = events
        state.setup(seats, seed, self.check_variant(variant), self.config)
        state._events = None
        return state, events

    def state_from_json(self, obj: Any) -> SaboteurState:
        return state_from_json(obj, self.config)

    def action_from_json(self, obj: Any) -> SaboteurAction:
        return action_from_json(obj)

    def parse_action(self, text: str) -> SaboteurAction:
        return parse_action(text)

    def observation_from_json(self, obj: Any) -> SaboteurObservation:
        try:
            return SaboteurObservation.from_json(obj)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed Saboteur observation: {exc}") from None

    def determinize(self, observation: Observation, rng: random.Random) -> SaboteurState:
        if not isinstance(observation, SaboteurObservation):
            raise ValueError("not a Saboteur observation")
        return determinize(observation, rng, self.config)


GAME = Saboteur()
SaboteurState.game = GAME
