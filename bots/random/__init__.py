"""The built-in random bot (`python -m bots.random`)."""

from bots.random.bot import RandomBot

__all__ = ["RandomBot"]
