"""Misbehaving bot: its handshake claims protocol version 2, which the referee does not speak."""

import botsdk.contract
from bots.sdk import Bot, serve

botsdk.contract.PROTOCOL_VERSION = 2  # what the SDK reports in the handshake


class FromTheFuture(Bot):
    name = "from-the-future"

    def decide(self, observation, legal_actions, context):
        return legal_actions[0]


if __name__ == "__main__":
    serve(FromTheFuture())
