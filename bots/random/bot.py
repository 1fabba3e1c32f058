"""The random bot: a uniformly random legal action from a seeded generator.

It needs nothing but the legal actions, so it plays every game the protocol
carries (the SDK's default `games`) and every variant of them.

With `--seed S` its choices in a match depend only on (S, match id, seat), so
a warm process and a fresh one play the same match the same way.

`RandomBot` takes the engine's values (for in-process arenas and the
`bots.sdk` interface); `python -m bots.random` serves `ProtocolRandomBot`,
the same choices made among the legal action messages as they arrive, so
the process decodes nothing into engine values on any decision
(bench/throughput_bench.py measures what that saves).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import botsdk
from google.protobuf.message import Message

from bots.sdk import Bot, DecisionContext, MatchInfo, every_variant
from referee.games.base import Action, Observation


def match_generator(seed: int | None, match: MatchInfo, current: random.Random) -> random.Random:
    """The generator for a match: seeded from (seed, match id, seat), or
    `current` going on for a bot started without a seed."""
    return current if seed is None else random.Random(f"{seed}:{match.match_id}:{match.seat}")


class RandomBot(Bot):
    name = "random"
    version = "1"
    variants = every_variant(Bot.games)  # legal actions are all it needs

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        self.rng = match_generator(self.seed, match, self.rng)

    def decide(self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext) -> Action:
        return self.rng.choice(legal_actions)


class ProtocolRandomBot(botsdk.Bot):
    """`RandomBot` on the protocol's messages: the same generator choosing
    among the same legal actions in the order the referee offered them, so
    the same choices, with nothing decoded."""

    name = RandomBot.name
    version = RandomBot.version
    games = RandomBot.games
    variants = RandomBot.variants

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def on_match_start(self, match: MatchInfo, observation: Message) -> None:
        self.rng = match_generator(self.seed, match, self.rng)

    def decide(self, observation: Message, legal_actions: Sequence[Message], context: DecisionContext) -> Message:
        return self.rng.choice(legal_actions)
