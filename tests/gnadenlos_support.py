"""Helpers for the Gnadenlos! rule tests: hand-written scenario states.

Scenarios live in tests/scenarios/gnadenlos/*.json in the state format of
referee/games/gnadenlos/serialize.py (short forms allowed). Chance in a
scenario comes from its "seed", unless the scenario states what chance
produces next ("chance": the next die faces, the order of the next
reshuffles; docs/engine.md, Fixing chance), so the engine runs unpatched.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from referee.games import Event, load_game
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
