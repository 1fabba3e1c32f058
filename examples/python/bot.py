"""A starter bot in Python on the bot SDK (`pip install ./sdk/python`).

The SDK does the protocol's start-up contract: it reads the socket path
(`--socket` or REFEREE_BOT_SOCKET), binds a temporary name and renames it
into place once the server accepts, serves the health service, plays
consecutive matches on one bot object and shuts down cleanly on SIGTERM.
This file only says who the bot is and how it decides (strategy.py).
"""

from collections.abc import Sequence
from typing import Any

from botsdk import Bot, DecisionContext, MatchInfo, serve
from botsdk.pb.leduc.v1 import leduc_pb2

import strategy  # beside this script: Python puts the script's folder on sys.path


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
