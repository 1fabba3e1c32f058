"""Saboteur rules engine (rules/saboteur.md, ids S-x.y)."""

from referee.games.base import register
from referee.games.saboteur.game import GAME, Saboteur
from referee.games.saboteur.observation import SaboteurObservation
from referee.games.saboteur.state import SaboteurState

register(GAME)

__all__ = ["GAME", "Saboteur", "SaboteurObservation", "SaboteurState"]
