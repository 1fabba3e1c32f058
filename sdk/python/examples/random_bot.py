"""A minimal bot on the bot-referee SDK: a random legal action, in every game.

Run it by hand with `python random_bot.py --socket /tmp/bot.sock`, or let
the referee start it: `referee play --bot path/to/random_bot.py --bot random ...`.
"""

import random

from botsdk import Bot, serve


class RandomBot(Bot):
    name = "example-random"
    version = "1"

    def decide(self, observation, legal_actions, context):
        # observation: the game's Observation message (e.g. saboteur.v1.Observation);
        # legal_actions: its Action messages; return one of them.
        return random.choice(legal_actions)


if __name__ == "__main__":
    serve(RandomBot())
