"""The built-in bots' SDK: `botsdk` with the engine's own values.

    from bots.sdk import Bot, serve

    class FirstBot(Bot):
        name = "first"
        def decide(self, observation, legal_actions, context):
            return legal_actions[0]

    if __name__ == "__main__":
        serve(FirstBot())

Observations, actions and events arrive decoded into the rules engines'
types by the game codecs, so a bot can search with the engine itself. The
socket, handshake, health, reflection, warm-up, graceful shutdown and
consecutive matches are `botsdk`'s (the bot SDK distribution, sdk/python/),
on which this is a thin layer; a bot that wants only the protocol's
messages uses `botsdk` directly and needs nothing of this repository.
"""

from botsdk import DecisionContext, MatchInfo, TimeControl

from bots.sdk.bot import Bot, every_variant
from bots.sdk.server import create_server, serve

__all__ = ["Bot", "DecisionContext", "MatchInfo", "TimeControl", "create_server", "every_variant", "serve"]
