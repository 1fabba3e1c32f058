"""The Python bot SDK: subclass `Bot`, implement `decide`, call `serve(bot)`.

    from bots.sdk import Bot, serve

    class FirstBot(Bot):
        name = "first"
        def decide(self, observation, legal_actions, context):
            return legal_actions[0]

    if __name__ == "__main__":
        serve(FirstBot())

The SDK handles the socket, handshake, health, reflection, graceful shutdown
and consecutive matches; docs/protocol.md is the contract it implements.
"""

from bots.sdk.bot import Bot, DecisionContext, MatchInfo, TimeControl
from bots.sdk.server import create_server, serve

__all__ = ["Bot", "DecisionContext", "MatchInfo", "TimeControl", "create_server", "serve"]
