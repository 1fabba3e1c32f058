"""The information-set MCTS bot for Gnadenlos! and Saboteur (docs/bots.md): `python -m bots.mcts`."""

from bots.mcts.bot import MctsBot
from bots.mcts.search import ISMCTS, SearchStats

__all__ = ["ISMCTS", "MctsBot", "SearchStats"]
