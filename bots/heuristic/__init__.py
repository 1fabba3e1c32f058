"""The heuristic bot for Gnadenlos! and Saboteur (docs/bots.md): `python -m bots.heuristic`."""

from bots.heuristic.bot import HeuristicBot

__all__ = ["HeuristicBot"]
