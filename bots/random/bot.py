"""The random bot: a uniformly random legal action from a seeded generator.

It needs nothing but the legal actions, so it plays every game the protocol
carries (the SDK's default `games`) and every variant of them.

With `--seed S` its choices in a match depend only on (S, match id, seat), so
a warm process and a fresh one play the same match the same way.
"""

from __future__ import annotations

import random

from bots.sdk import Bot, DecisionContext, MatchInfo, every_variant
from referee.games.base import Action, Observation


class RandomBot(Bot):
    name = "random"
    version = "1"
    variants = every_variant(Bot.games)  # legal actions are all it needs

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        if self.seed is not None:
            self.rng = random.Random(f"{self.seed}:{match.match_id}:{match.seat}")

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext) -> Action:
        return self.rng.choice(legal_actions)
