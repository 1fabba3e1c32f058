"""Leduc poker: the rule set and the factory of its states (rules/leduc.md, L-1)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import ClassVar, cast

from mypy_extensions import mypyc_attr

from referee.games.base import JSON, Event, Game, Observation
from referee.games.leduc.actions import LeducAction, action_from_json, parse_action
from referee.games.leduc.config import MAX_PLAYERS, MIN_PLAYERS, RULES_VERSION
from referee.games.leduc.determinize import determinize
from referee.games.leduc.observation import LeducObservation
from referee.games.leduc.serialize import state_from_json
from referee.games.leduc.state import LeducState


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools extend it
class Leduc(Game):
    """OpenSpiel's `leduc_poker` for 2 to 10 players, with its default parameters."""

    name: ClassVar[str] = "leduc"
    title: ClassVar[str] = "Leduc poker"
    min_seats: ClassVar[int] = MIN_PLAYERS
    max_seats: ClassVar[int] = MAX_PLAYERS
    rules_version: ClassVar[str] = RULES_VERSION
    variant_options: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    observation_type = LeducObservation

    def _new_state(self, seats: int, seed: int, events: list[Event] | None) -> LeducState:
        return LeducState.deal(seats, seed, events)

    def state_from_json(self, obj: JSON) -> LeducState:
        return state_from_json(obj)

    def action_from_json(self, obj: JSON) -> LeducAction:
        return action_from_json(obj)

    def parse_action(self, text: str) -> LeducAction:
        return parse_action(text)

    def _observation_from_json(self, obj: JSON) -> LeducObservation:
        return LeducObservation.from_json(obj)

    def _determinize(self, observation: Observation, rng: random.Random) -> LeducState:
        return determinize(cast(LeducObservation, observation), rng)  # determinize checked its class


GAME = Leduc()
LeducState.game = GAME
