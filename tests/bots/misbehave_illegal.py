"""Misbehaving bot: always answers with a well-formed action that is never legal (buy 99)."""

from bots.sdk import Bot, serve
from referee.games.gnadenlos.actions import Buy


class Illegal(Bot):
    name = "illegal"

    def decide(self, observation, legal_actions, context):
        return Buy(99)


if __name__ == "__main__":
    serve(Illegal())
