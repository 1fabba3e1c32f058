"""The attacker's accomplice for redirect.py: a random bot run outside any
sandbox, which writes CONTACT_FILE the moment the referee talks to it.

Usage: accomplice.py CONTACT_FILE --socket PATH
"""

import random
import sys

from bots.sdk import Bot, serve

CONTACT = sys.argv[1]


class Accomplice(Bot):
    name = "redirect"

    def on_match_start(self, match, observation):  # type: ignore[no-untyped-def]
        with open(CONTACT, "a") as handle:
            handle.write(f"match start, seat {match.seat}\n")

    def decide(self, observation, legal_actions, context):  # type: ignore[no-untyped-def]
        return random.choice(legal_actions)


serve(Accomplice(), sys.argv[2:])
