"""`python_gnadenlos`: Gnadenlos! with every rule set as game parameters.

Parameters: `players` (3 or 4), `seed` (the generator of the matches'
deals), `simultaneous` (commitments as simultaneous nodes, or in turn:
envs.openspiel.engine), and the variant options of docs/engine.md:
`setup` (standard|advanced), `gunfight_opt_out` (off|on|soft), `auction`
(standard|single), and under `auction=single` `auction_order`
(first|best) and `auction_buy_limit` (one|many), which must keep their
defaults under `auction=standard`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pyspiel

from envs.openspiel.engine import EngineGame, game_type
from referee.games import load_game
from referee.games.gnadenlos.config import DEFAULT_CONFIG

DECISIONS_PER_TURN = 64
"""A bound on a turn's decisions (commitments one per seat, takes,
refills, the buy, bids, picks, an auction's orders and positions, the
refills after each payday); with the turn limit (G-9.5), the game's
`max_game_length`. Random matches stay far below it (tests/test_openspiel_games.py)."""

_ENGINE = load_game("gnadenlos")
_OPTIONS = dict(_ENGINE.variant_options)
PARAMETERS: dict[str, Any] = {"players": 4, "seed": 0, "simultaneous": True,
                              **{option: values[0] for option, values in _OPTIONS.items()}}


def _type(simultaneous: bool) -> pyspiel.GameType:
    return game_type("python_gnadenlos", "Python Gnadenlos! (bot-referee engine)", simultaneous,
                     _ENGINE.min_seats, _ENGINE.max_seats, PARAMETERS)


GAME_TYPE = _type(True)
SEQUENTIAL_TYPE = _type(False)


class GnadenlosGame(EngineGame):
    engine_name = "gnadenlos"
    game_type = GAME_TYPE

    @classmethod
    def game_type_for(cls, simultaneous: bool) -> pyspiel.GameType:
        return GAME_TYPE if simultaneous else SEQUENTIAL_TYPE

    def variant_of(self, params: Mapping[str, Any]) -> dict[str, str]:
        """The engine's variant: each option's value; the options that exist
        only under another's value (`Game.variant_requires`) are named only
        then, and must keep their defaults otherwise."""
        variant: dict[str, str] = {}
        for option, values in _OPTIONS.items():
            value = str(params.get(option, values[0]))
            needs = _ENGINE.variant_requires.get(option)
            if needs is not None and str(params.get(needs[0], _OPTIONS[needs[0]][0])) != needs[1]:
                if value != values[0]:
                    raise ValueError(f"{option}={value} applies only with {needs[0]}={needs[1]}")
                continue
            variant[option] = value
        return variant

    def max_game_length_bound(self) -> int:
        return DECISIONS_PER_TURN * DEFAULT_CONFIG.turn_limit + self.players
