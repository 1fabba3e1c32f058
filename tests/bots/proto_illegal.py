"""Protocol test bot: answers with a well-formed action that is never legal."""

from bots.sdk import Bot, serve
from referee.games.gnadenlos.actions import Commit


class Illegal(Bot):
    name = "illegal"

    def decide(self, observation, legal_actions, context):
        return Commit(card=999)


if __name__ == "__main__":
    serve(Illegal())
