"""The Saboteur game: rule set, variant and the factory of states (S-1, S-2, S-6.6)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, cast

from mypy_extensions import mypyc_attr

from referee.games.base import JSON, Event, Game, Observation
from referee.games.saboteur.actions import SaboteurAction, action_from_json, parse_action
from referee.games.saboteur.config import DEFAULT_CONFIG, RULES_VERSION, SaboteurConfig
from referee.games.saboteur.determinize import determinize
from referee.games.saboteur.observation import SaboteurObservation
from referee.games.saboteur.serialize import state_from_json
from referee.games.saboteur.state import SaboteurState
from referee.games.saboteur.variants import VARIANT_OPTIONS


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools extend it
class Saboteur(Game):
    """Frederic Moyersoen's Saboteur (Amigo 2004) for 3 to 10 seats."""

    name: ClassVar[str] = "saboteur"
    title: ClassVar[str] = "Saboteur"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 10
    rules_version: ClassVar[str] = RULES_VERSION
    variant_options: ClassVar[Mapping[str, tuple[str, ...]]] = VARIANT_OPTIONS
    observation_type = SaboteurObservation

    def __init__(self, config: SaboteurConfig = DEFAULT_CONFIG) -> None:
        self.config = config

    def _new_state(self, seats: int, seed: int, events: list[Event] | None) -> SaboteurState:
        state = SaboteurState()
        options = self.rule_set.options
        if events is None:
            state.setup(seats, seed, options, self.config)
        else:
            state.setup_with_events(seats, seed, options, self.config, events)
        return state

    def state_from_json(self, obj: JSON) -> SaboteurState:
        return state_from_json(obj, self.config)

    def action_from_json(self, obj: JSON) -> SaboteurAction:
        return action_from_json(obj)

    def parse_action(self, text: str) -> SaboteurAction:
        return parse_action(text)

    def _observation_from_json(self, obj: JSON) -> SaboteurObservation:
        return SaboteurObservation.from_json(obj)

    def _determinize(self, observation: Observation, rng: random.Random) -> SaboteurState:
        return determinize(cast(SaboteurObservation, observation), rng, self.config)  # determinize checked its class


GAME = Saboteur()
SaboteurState.game = GAME
