"""The Gnadenlos! game: rule set, variants and the factory of states (G-2, G-2.6, G-5.10, G-5.11, G-6.7)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, cast

from mypy_extensions import mypyc_attr

from referee.games.base import JSON, Event, Game, Observation
from referee.games.gnadenlos.actions import GnadenlosAction, action_from_json, parse_action
from referee.games.gnadenlos.config import DEFAULT_CONFIG, RULES_VERSION, GnadenlosConfig
from referee.games.gnadenlos.determinize import determinize
from referee.games.gnadenlos.observation import GnadenlosObservation
from referee.games.gnadenlos.serialize import state_from_json
from referee.games.gnadenlos.state import GnadenlosState
from referee.games.gnadenlos.variants import VARIANT_OPTIONS, VARIANT_REQUIRES


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools extend it
class Gnadenlos(Game):
    """Klaus Teuber's Gnadenlos! (Kosmos 2001) for 3 or 4 seats."""

    name: ClassVar[str] = "gnadenlos"
    title: ClassVar[str] = "Gnadenlos!"
    min_seats: ClassVar[int] = 3
    max_seats: ClassVar[int] = 4
    rules_version: ClassVar[str] = RULES_VERSION
    variant_options: ClassVar[Mapping[str, tuple[str, ...]]] = VARIANT_OPTIONS
    variant_requires: ClassVar[Mapping[str, tuple[str, str]]] = VARIANT_REQUIRES
    observation_type = GnadenlosObservation

    def __init__(self, config: GnadenlosConfig = DEFAULT_CONFIG) -> None:
        self.config = config

    def _new_state(self, seats: int, seed: int, events: list[Event] | None) -> GnadenlosState:
        state = GnadenlosState()
        options = self.rule_set.options
        if events is None:
            state.setup(seats, seed, options, self.config)
        else:
            state.setup_with_events(seats, seed, options, self.config, events)
        return state

    def state_from_json(self, obj: JSON) -> GnadenlosState:
        return state_from_json(obj, self.config)

    def action_from_json(self, obj: JSON) -> GnadenlosAction:
        return action_from_json(obj)

    def parse_action(self, text: str) -> GnadenlosAction:
        return parse_action(text)

    def _observation_from_json(self, obj: JSON) -> GnadenlosObservation:
        return GnadenlosObservation.from_json(obj)

    def _determinize(self, observation: Observation, rng: random.Random) -> GnadenlosState:
        return determinize(cast(GnadenlosObservation, observation), rng, self.config)  # determinize checked its class


GAME = Gnadenlos()
GnadenlosState.game = GAME
