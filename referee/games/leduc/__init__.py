"""Leduc poker (rules/leduc.md, ids L-x.y), OpenSpiel's `leduc_poker` for 2
to 10 players: the rules engine, and all the harness needs from the game,
declared in `PLUGIN` (referee.games.plugin): its protocol codec (`codec`),
its drawing (`render`), its summaries (`summary`) and the built-in bots'
strategy (`strategy`)."""

from referee.games.leduc.game import GAME, Leduc
from referee.games.leduc.observation import LeducObservation
from referee.games.leduc.state import LeducState
from referee.games.plugin import GamePlugin

PLUGIN = GamePlugin(name="leduc", package=__name__)

__all__ = ["GAME", "PLUGIN", "Leduc", "LeducObservation", "LeducState"]
