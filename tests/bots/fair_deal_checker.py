"""A raw botsdk bot that checks the deal: it prints the seed commitment of
each MatchStart and, at MatchEnd, whether the revealed seed and salt hash to
it. Plays the first legal action."""

import random
import sys

from botsdk import Bot, serve


class FairDealChecker(Bot):
    name = "fair-deal-checker"

    def on_match_start(self, match, observation):  # type: ignore[no-untyped-def]
        self.match = match
        print(f"commitment {match.seed_commitment.hex()}", flush=True)

    def decide(self, observation, legal_actions, context):  # type: ignore[no-untyped-def]
        return random.choice(legal_actions)

    def on_match_end(self, result):  # type: ignore[no-untyped-def]
        print(f"revealed seed {result.seed} fair {result.deal_is_fair(self.match)}", flush=True)


if __name__ == "__main__":
    serve(FairDealChecker(), sys.argv[1:])
