"""Saboteur (rules/saboteur.md, ids S-x.y): the rules engine, and all the
harness needs from the game, declared in `PLUGIN` (referee.games.plugin):
its protocol codec (`codec`), its drawing (`render`), its summaries
(`summary`) and the built-in bots' strategy (`strategy`)."""

from typing import TYPE_CHECKING

from referee.games.plugin import GamePlugin, lazy_exports

if TYPE_CHECKING:
    from referee.games.saboteur.game import GAME, Saboteur
    from referee.games.saboteur.observation import SaboteurObservation
    from referee.games.saboteur.state import SaboteurState

PLUGIN = GamePlugin(name="saboteur", package=__name__)

__getattr__ = lazy_exports(__name__, {
    "GAME": "game",
    "Saboteur": "game",
    "SaboteurObservation": "observation",
    "SaboteurState": "state",
})
"""The engine's names are imported on first use: finding the installed
games must not load every game's rules (referee.games.plugin.lazy_exports)."""

__all__ = ["GAME", "PLUGIN", "Saboteur", "SaboteurObservation", "SaboteurState"]
