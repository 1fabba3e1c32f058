"""The Gnadenlos! game: rule set, variants and the factory of states (G-2, G-2.6, G-5.10)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

from referee.games.base import Game, InvalidActionError, Observation
from referee.games.gnadenlos.actions import GnadenlosAction, action_from_json, parse_action
from referee.games.gnadenlos.config import DEFAULT_CONFIG, RULES_VERSION, GnadenlosConfig
from referee.games.gnadenlos.determinize import determinize
from referee.games.gnadenlos.observation import GnadenlosObservation
from referee.games.gnadenlos.serialize import state_from_json
from referee.games.gnadenlos.state import GnadenlosState


class Gnadenlos(Game):
    """Klaus Teuber's Gnadenlos! (Kosmos 2001) for 3 or 4 seats."""

    name: ClassVar[str] = "gnadenlos"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 4
    rules_version: ClassVar[str] = RULES_VERSION
    variant_options: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "setup": ("standard", "advanced"),
        "gunfight_opt_out": ("off", "on"),
    }

    def __init__(self, config: GnadenlosConfig = DEFAULT_CONFIG) -> None:
        self.config = config

    def new_state(self, seats: int, seed: int, variant: Mapping[str, str] | None = None) -> GnadenlosState:
        self.check_seats(seats)
        state = GnadenlosState()
        state.setup(seats, seed, self.check_variant(variant), self.config)
        return state

    def new_state_with_events(
        self, seats: int, seed: int, variant: Mapping[str, str] | None = None
    ) -> tuple[GnadenlosState, list[Any]]:
        """A new state and the events of its setup (the deal, for the record)."""
        self.check_seats(seats)
        state = GnadenlosState()
        events: list[Any] = []
        state._events = events
        state.setup(seats, seed, self.check_variant(variant), self.config)
        state._events = None
        return state, events

    def state_from_json(self, obj: Any) -> GnadenlosState:
        return state_from_json(obj, self.config)

    def action_from_json(self, obj: Any) -> GnadenlosAction:
        return action_from_json(obj)

    def parse_action(self, text: str) -> GnadenlosAction:
        return parse_action(text)

    def observation_from_json(self, obj: Any) -> GnadenlosObservation:
        try:
            return GnadenlosObservation.from_json(obj)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed Gnadenlos! observation: {exc}") from None

    def determinize(self, observation: Observation, rng: random.Random) -> GnadenlosState:
        if not isinstance(observation, GnadenlosObservation):
            raise InvalidActionError("not a Gnadenlos! observation")
        return determinize(observation, rng, self.config)


GAME = Gnadenlos()
GnadenlosState.game = GAME
