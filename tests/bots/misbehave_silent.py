"""Misbehaving bot: never answers a decision (it sleeps in `decide`)."""

import time

from bots.sdk import Bot, serve


class Silent(Bot):
    name = "silent"

    def decide(self, observation, legal_actions, context):
        time.sleep(3600)
        return legal_actions[0]


if __name__ == "__main__":
    serve(Silent())
