"""A starter bot in Python on the bot SDK (`pip install ./sdk/python`).

The SDK does the protocol's start-up contract: it reads the socket path
(`--socket` or REFEREE_BOT_SOCKET), binds a temporary name and renames it
into place once the server accepts, serves the health service, plays
consecutive matches on one bot object and shuts down cleanly on SIGTERM.
This file only says who the bot is and how it decides (strategy.py).
"""

import os
import sys

# The bot's own files are found next to this script, never through the
# working folder: the jail runs the bot in a fresh empty folder.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from collections.abc import Sequence  # noqa: E402
from typing import Any  # noqa: E402

from botsdk import Bot, DecisionContext, MatchInfo, serve  # noqa: E402
from botsdk.pb.leduc.v1 import leduc_pb2  # noqa: E402

import strategy  # noqa: E402


class StarterBot(Bot):
    name = "starter-python"
    version = "1"
    games = ("gnadenlos", "saboteur", "leduc")

    game = ""

    def warm_up(self) -> None:
        """Run the strategy once before the first match (the SDK calls this
        while the referee health-checks the bot), so that the first real
        decision does not pay for first calls."""
        observation = leduc_pb2.Observation(card=0, num_seats=2, round=1, contributions=[1, 1])
        legal = [leduc_pb2.Action(move=leduc_pb2.MOVE_CALL), leduc_pb2.Action(move=leduc_pb2.MOVE_RAISE)]
        strategy.choose("leduc", observation, legal)

    def on_match_start(self, match: MatchInfo, observation: Any) -> None:
        self.game = match.game  # one bot object plays consecutive matches

    def decide(self, observation: Any, legal_actions: Sequence[Any], context: DecisionContext) -> Any:
        return strategy.choose(self.game, observation, legal_actions)


if __name__ == "__main__":
    serve(StarterBot())
