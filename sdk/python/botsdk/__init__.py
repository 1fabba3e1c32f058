"""The Python bot SDK of the bot-referee protocol: subclass `Bot`, implement `decide`, call `serve(bot)`.

    import random
    from botsdk import Bot, serve

    class RandomBot(Bot):
        name = "my-random"
        def decide(self, observation, legal_actions, context):
            return random.choice(legal_actions)

    if __name__ == "__main__":
        serve(RandomBot())

A bot sees the protocol's messages (protobuf): the game's observation, its
legal actions, its events; `decide` returns one of the legal actions. The
SDK handles the socket, handshake, health, reflection, warm-up, graceful
shutdown and consecutive matches; docs/protocol.md is the contract it
implements. `botsdk.contract` holds what the referee and every bot agree on
(protocol version, service name, time control, handshake bounds);
`botsdk.pb` the code generated from the protocol's .proto files. This
package needs only grpcio, grpcio-health-checking, grpcio-reflection and
protobuf.
"""

from botsdk.bot import Bot, DecisionContext, MatchInfo, MatchResult
from botsdk.contract import PROTOCOL_VERSION, TimeControl
from botsdk.server import create_server, serve

__all__ = [
    "PROTOCOL_VERSION",
    "Bot",
    "DecisionContext",
    "MatchInfo",
    "MatchResult",
    "TimeControl",
    "create_server",
    "serve",
]
