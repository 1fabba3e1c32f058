"""Saboteur (rules/saboteur.md, ids S-x.y): the rules engine, and all the
harness needs from the game, declared in `PLUGIN` (referee.games.plugin):
its protocol codec (`codec`), its drawing (`render`), its summaries
(`summary`) and the built-in bots' strategy (`strategy`)."""

from referee.games.plugin import GamePlugin
from referee.games.saboteur.game import GAME, Saboteur
from referee.games.saboteur.observation import SaboteurObservation
from referee.games.saboteur.state import SaboteurState

PLUGIN = GamePlugin(name="saboteur", package=__name__)

__all__ = ["GAME", "PLUGIN", "Saboteur", "SaboteurObservation", "SaboteurState"]
