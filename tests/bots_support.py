"""Helpers for the bot tests: scenario states and a decision context."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from referee.games import load_game
from referee.games.gnadenlos.state import GnadenlosState
from referee.protocol.client import TimeControl

from bots.sdk import DecisionContext, MatchInfo

SCENARIOS = Path(__file__).parent / "scenarios" / "bots"
GAME = load_game("gnadenlos")


def scenario_json(name: str) -> dict[str, Any]:
    """The JSON of tests/scenarios/bots/<name>.json, without its comment."""
    obj: dict[str, Any] = json.loads((SCENARIOS / f"{name}.json").read_text())
    obj.pop("comment", None)
    return obj


def scenario(name: str) -> GnadenlosState:
    """A hand-built state from tests/scenarios/bots/<name>.json."""
    state = GAME.state_from_json(scenario_json(name))
    assert isinstance(state, GnadenlosState)
    return state


def context(seat: int, num_seats: int, seconds: float = 60.0) -> DecisionContext:
    """A decision context with a generous deadline (tests count iterations, not time)."""
    info = MatchInfo("test", "gnadenlos", {}, seat, num_seats, ("bot",) * num_seats, TimeControl(seconds))
    return DecisionContext(info, 1, time.monotonic() + seconds)


def decide(bot: Any, state: GnadenlosState, seat: int) -> Any:
    """What `bot` plays for `seat`, given only that seat's observation and legal actions."""
    return bot.decide(state.observe(seat), state.legal_actions(seat), context(seat, state.n))
