"""The MCTS bot: ISMCTS from its own observation, within its time or iteration budget."""

from __future__ import annotations

import random
import time

from referee.games import load_game
from referee.games.base import Action, Observation

from bots.mcts.gnadenlos import candidates, evaluate, heuristic_rollout
from bots.mcts.search import ISMCTS, SearchStats, random_rollout
from bots.sdk import Bot, DecisionContext, MatchInfo

SAFETY_MARGIN = 0.05
"""Seconds kept back before the referee's deadline (answer transport, GC pauses)."""
SAFETY_SHARE = 0.1
"""And this share of the time left, for the same reason."""


class MctsBot(Bot):
    """Information-set MCTS (bots/mcts/search.py) for Gnadenlos!.

    `move_time` seconds per decision (capped by the deadline in the decision
    context, less a safety margin) or exactly `iterations` iterations when
    given (still stopped by the deadline). `rollout` is "heuristic" or
    "random"; `rollout_depth` cuts rollouts off after that many decisions and
    ranks the seats by a static evaluation instead. The heuristic's choice
    guides the tree (tried first, with a bias of `hint_weight` that fades
    with visits; 0 turns it off). With `cpu_clock` the move time is counted
    in this process's CPU seconds rather than wall-clock seconds (the
    deadline is still wall-clock): for benchmarks on a busy machine, so that
    a decision gets the same work whatever else runs.
    """

    name = "mcts"
    version = "1"
    games = ("gnadenlos",)

    def __init__(
        self,
        *,
        move_time: float | None = 0.2,
        iterations: int | None = None,
        seed: int | None = None,
        rollout: str = "heuristic",
        rollout_depth: int | None = 24,
        exploration: float = 0.7,
        hint_weight: float = 0.5,
        cpu_clock: bool = False,
    ) -> None:
        if rollout not in ("heuristic", "random"):
            raise ValueError(f"rollout must be 'heuristic' or 'random', not {rollout!r}")
        self.move_time = None if iterations is not None else move_time
        self.iterations = iterations
        self.seed = seed
        self.cpu_clock = cpu_clock
        self.search = ISMCTS(
            load_game("gnadenlos"),
            rollout=heuristic_rollout if rollout == "heuristic" else random_rollout,
            rollout_depth=rollout_depth,
            evaluate=evaluate if rollout_depth is not None else None,
            candidates=candidates,
            hint=heuristic_rollout if hint_weight > 0 else None,
            hint_weight=hint_weight,
            exploration=exploration,
            rng=random.Random(seed),
        )

    @property
    def stats(self) -> SearchStats:
        """Iterations, seconds and iterations per second of the last search and overall."""
        return self.search.stats

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        if self.seed is not None:  # same seed, same match, same play, warm process or fresh
            self.search.rng = random.Random(f"{self.seed}:{match.match_id}:{match.seat}")

    def decide(
        self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        now = time.monotonic()
        left = context.deadline - now
        until = now + max(0.0, left - SAFETY_MARGIN - SAFETY_SHARE * left)
        cpu_seconds = None
        if self.move_time is not None:
            if self.cpu_clock:
                cpu_seconds = self.move_time
            else:
                until = min(until, now + self.move_time)
        return self.search.search(
            observation, legal_actions, iterations=self.iterations, until=until, cpu_seconds=cpu_seconds
        )
