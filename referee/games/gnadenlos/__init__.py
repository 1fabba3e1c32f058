"""Gnadenlos! rules engine (rules/gnadenlos.md, ids G-x.y)."""

from referee.games.base import register
from referee.games.gnadenlos.game import GAME, Gnadenlos
from referee.games.gnadenlos.observation import GnadenlosObservation
from referee.games.gnadenlos.state import GnadenlosState

register(GAME)

__all__ = ["GAME", "Gnadenlos", "GnadenlosObservation", "GnadenlosState"]
