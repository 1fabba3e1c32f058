"""Gnadenlos! (rules/gnadenlos.md, ids G-x.y): the rules engine, and all the
harness needs from the game, declared in `PLUGIN` (referee.games.plugin):
its protocol codec (`codec`), its drawing (`render`), its summaries
(`summary`) and the built-in bots' strategy (`strategy`)."""

from referee.games.gnadenlos.game import GAME, Gnadenlos
from referee.games.gnadenlos.observation import GnadenlosObservation
from referee.games.gnadenlos.state import GnadenlosState
from referee.games.plugin import GamePlugin

PLUGIN = GamePlugin(name="gnadenlos", package=__name__)

__all__ = ["GAME", "PLUGIN", "Gnadenlos", "GnadenlosObservation", "GnadenlosState"]
