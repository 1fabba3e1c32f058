"""Leduc poker (rules/leduc.md, ids L-x.y), OpenSpiel's `leduc_poker` for 2
to 10 players: the rules engine, and all the harness needs from the game,
declared in `PLUGIN` (referee.games.plugin): its protocol codec (`codec`),
its drawing (`render`), its summaries (`summary`) and the built-in bots'
strategy (`strategy`)."""

from typing import TYPE_CHECKING

from referee.games.plugin import GamePlugin, lazy_exports

if TYPE_CHECKING:
    from referee.games.leduc.game import GAME, Leduc
    from referee.games.leduc.observation import LeducObservation
    from referee.games.leduc.state import LeducState

PLUGIN = GamePlugin(name="leduc", package=__name__, variants=None,  # no variant options
                    match_format="hands:MATCH_FORMAT")  # a match of many hands (L-7)

__getattr__ = lazy_exports(__name__, {
    "GAME": "game",
    "Leduc": "game",
    "LeducObservation": "observation",
    "LeducState": "state",
})
"""The engine's names are imported on first use: finding the installed
games must not load every game's rules (referee.games.plugin.lazy_exports)."""

__all__ = ["GAME", "PLUGIN", "Leduc", "LeducObservation", "LeducState"]
