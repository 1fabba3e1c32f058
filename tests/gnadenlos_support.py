"""Helpers for the Gnadenlos! rule tests: hand-written scenario states and forced dice.

Scenarios live in tests/scenarios/gnadenlos/*.json in the state format of
referee/games/gnadenlos/serialize.py (short forms allowed). Chance in a
scenario comes from its "seed"; a test that needs particular die faces finds a
seed whose die stream rolls them (`seed_for_rolls`), so the engine runs
unpatched.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from referee.games import Event, load_game
from referee.games.base import ChanceStream, derive_seed
from referee.games.gnadenlos.cards import EVENT_DECK
from referee.games.gnadenlos.game import Gnadenlos
from referee.games.gnadenlos.state import GnadenlosState

SCENARIOS = Path(__file__).parent / "scenarios" / "gnadenlos"
GAME = cast(Gnadenlos, load_game("gnadenlos"))

# Colours of the rulebook's examples (cards.COLOUR_NAMES): seats 0..3.
RED, GREEN, BLUE, YELLOW = 0, 1, 2, 3


@lru_cache(maxsize=None)
def _read(name: str) -> str:
    return (SCENARIOS / f"{name}.json").read_text()


def scenario_json(name: str, **overrides: Any) -> dict[str, Any]:
    """The scenario's JSON (a fresh copy), with top-level keys replaced."""
    obj = json.loads(_read(name))
    obj.pop("comment", None)
    obj.update(copy.deepcopy(overrides))
    return obj


def load(name: str, **overrides: Any) -> GnadenlosState:
    """The scenario as a state, run on to its first decision (or the end)."""
    state = GAME.state_from_json(scenario_json(name, **overrides))
    assert isinstance(state, GnadenlosState)
    return state


def act(state: GnadenlosState, action: Any) -> list[Event]:
    """The single seat to act takes `action` (checked by the public apply)."""
    (seat,) = state.to_act()
    return state.apply({seat: action})


def kinds(events: Sequence[Event]) -> list[str]:
    return [e.kind for e in events]


def rolls(seed: int, count: int) -> list[int]:
    """The first `count` die faces (1..6) of a scenario with this seed."""
    stream = ChanceStream(derive_seed(seed, "die"))
    return [stream.below(6) + 1 for _ in range(count)]


@lru_cache(maxsize=None)
def seed_for_rolls(faces: tuple[int, ...]) -> int:
    """The smallest seed whose die stream starts with these faces."""
    seed = 0
    while rolls(seed, len(faces)) != list(faces):
        seed += 1
    return seed


@lru_cache(maxsize=None)
def seed_for_event_top(card: int, then: int | None = None) -> int:
    """The smallest seed whose first event-deck shuffle puts `card` on top
    (and `then` second, if given)."""
    seed = 0
    while True:
        deck = list(EVENT_DECK)
        ChanceStream(derive_seed(seed, "events")).shuffle(deck)
        if deck[-1] == card and (then is None or deck[-2] == then):
            return seed
        seed += 1
