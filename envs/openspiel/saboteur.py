"""`python_saboteur`: Saboteur for 3 to 10 players.

Parameters: `players`, `seed` (the generator of the matches' deals) and
the variant option `sabotaged_diggers_lose_share` (off|on, S-6.6).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envs.openspiel.engine import EngineGame, game_type
from referee.games import load_game

ROUNDS = 3
DECK = 67
"""S-7.1, S-2.3: three rounds of a 67-card deck. Every decision plays or
discards a card of the hand (a pass with an empty hand is forced, played
by the engine), so a match has at most 3 x 67 decisions."""

_ENGINE = load_game("saboteur")
_OPTIONS = dict(_ENGINE.variant_options)
PARAMETERS: dict[str, Any] = {"players": 4, "seed": 0, **{option: values[0] for option, values in _OPTIONS.items()}}
GAME_TYPE = game_type("python_saboteur", "Python Saboteur (bot-referee engine)", False,
                      _ENGINE.min_seats, _ENGINE.max_seats, PARAMETERS)


class SaboteurGame(EngineGame):
    engine_name = "saboteur"
    game_type = GAME_TYPE

    def variant_of(self, params: Mapping[str, Any]) -> dict[str, str]:
        return {option: str(params.get(option, values[0])) for option, values in _OPTIONS.items()}

    def max_game_length_bound(self) -> int:
        return ROUNDS * DECK
