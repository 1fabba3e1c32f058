"""Helpers for the bot tests: scenario states and a decision context."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from referee.games import load_game
from referee.games.gnadenlos.state import GnadenlosState
from referee.games.saboteur.state import SaboteurState
from botsdk.contract import TimeControl

from bots.sdk import DecisionContext, MatchInfo

SCENARIOS = Path(__file__).parent / "scenarios" / "bots"
GAME = load_game("gnadenlos")
SABOTEUR = load_game("saboteur")


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


def saboteur_scenario(name: str) -> SaboteurState:
    """A hand-built Saboteur state from tests/scenarios/bots/saboteur_<name>.json."""
    state = SABOTEUR.state_from_json(scenario_json(f"saboteur_{name}"))
    assert isinstance(state, SaboteurState)
    return state


def context(seat: int, num_seats: int, seconds: float = 60.0, game: str = "gnadenlos") -> DecisionContext:
    """A decision context with a generous deadline (tests count iterations, not time)."""
    info = MatchInfo("test", game, {}, seat, num_seats, ("bot",) * num_seats, TimeControl(seconds))
    return DecisionContext(info, 1, time.monotonic() + seconds)


def decide(bot: Any, state: GnadenlosState | SaboteurState, seat: int) -> Any:
    """What `bot` plays for `seat`, given only that seat's observation and legal actions."""
    context_ = context(seat, state.n, game=state.game.name)
    return bot.decide(state.observe(seat), state.legal_actions(seat), context_)
