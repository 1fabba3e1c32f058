"""Gnadenlos!, Saboteur and Leduc poker as OpenSpiel Python games.

    import pyspiel
    import envs.openspiel  # registers the games

    game = pyspiel.load_game("python_leduc", {"players": 2})
    game = pyspiel.load_game("python_gnadenlos", {"players": 4, "auction": "single"})
    game = pyspiel.load_game("python_saboteur", {"players": 7})

`python_gnadenlos` and `python_saboteur` sample chance inside the engine's
steps (envs.openspiel.engine); `python_leduc` deals as OpenSpiel's
`leduc_poker`, with explicit chance nodes (envs.openspiel.leduc).
docs/training.md describes the parameters, views and action indices.
"""

from __future__ import annotations

import pyspiel

from envs.openspiel.engine import resampler
from envs.openspiel.gnadenlos import GAME_TYPE as GNADENLOS_TYPE, GnadenlosGame
from envs.openspiel.leduc import GAME_TYPE as LEDUC_TYPE, LeducGame
from envs.openspiel.saboteur import GAME_TYPE as SABOTEUR_TYPE, SaboteurGame

GAMES = {
    "python_gnadenlos": (GNADENLOS_TYPE, GnadenlosGame),
    "python_saboteur": (SABOTEUR_TYPE, SaboteurGame),
    "python_leduc": (LEDUC_TYPE, LeducGame),
}


def register() -> None:
    """Register the three games with OpenSpiel (once per process; a repeat is a no-op)."""
    registered = set(pyspiel.registered_names())
    for name, (game_type, game_class) in GAMES.items():
        if name not in registered:
            pyspiel.register_game(game_type, game_class)


register()

__all__ = ["GAMES", "register", "resampler"]
