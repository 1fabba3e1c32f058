"""The MCTS bot: ISMCTS from its own observation, within its time or iteration budget."""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from referee.games import load_game
from referee.games.base import Action, Event, Observation
from referee.games.saboteur.observation import SaboteurObservation

from bots.heuristic.suspicion import Suspicion
from bots.mcts import gnadenlos, saboteur
from bots.mcts.search import ISMCTS, SearchStats, random_rollout
from bots.sdk import Bot, DecisionContext, MatchInfo

SAFETY_MARGIN = 0.05
"""Seconds kept back before the referee's deadline (answer transport, GC pauses)."""
SAFETY_SHARE = 0.1
"""And this share of the time left, for the same reason."""
GAME_DEFAULT = -1
"""`rollout_depth` value meaning the game's own default (ROLLOUT_DEPTHS)."""
ROLLOUT_DEPTHS: dict[str, int] = {"gnadenlos": 24, "saboteur": 8}
"""Decisions per rollout before the static evaluation: two or three Gnadenlos!
turns; about one round of turns at a Saboteur table of eight."""


class MctsBot(Bot):
    """Information-set MCTS (bots/mcts/search.py) for Gnadenlos! and Saboteur.

    `move_time` seconds per decision (capped by the deadline in the decision
    context, less a safety margin) or exactly `iterations` iterations when
    given (still stopped by the deadline). `rollout` is "heuristic" or
    "random"; `rollout_depth` cuts rollouts off after that many decisions and
    ranks the seats by a static evaluation instead (GAME_DEFAULT: the game's
    own depth; None: play to the end). The heuristic's choice guides the tree
    (tried first, with a bias of `hint_weight` that fades with visits; 0 turns
    it off). With `cpu_clock` the move time is counted in this process's CPU
    seconds rather than wall-clock seconds (the deadline is still wall-clock):
    for benchmarks on a busy machine, so that a decision gets the same work
    whatever else runs.

    For Saboteur the bot also keeps suspicion scores from the events it is
    told (bots/heuristic/suspicion.py): its determinizations deal the
    unseen roles by them, and its heuristic rollouts use them.
    """

    name = "mcts"
    version = "1"
    games = ("gnadenlos", "saboteur")

    def __init__(
        self,
        *,
        move_time: float | None = 0.2,
        iterations: int | None = None,
        seed: int | None = None,
        rollout: str = "heuristic",
        rollout_depth: int | None = GAME_DEFAULT,
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
        self.suspicion = Suspicion()
        self.playout = saboteur.SaboteurPlayout()
        self.roles = saboteur.RoleDeal()
        self._stats = SearchStats()
        self._searches = {
            "gnadenlos": self._search_for("gnadenlos", gnadenlos.heuristic_rollout, rollout, rollout_depth,
                                          exploration, hint_weight),
            "saboteur": self._search_for("saboteur", self.playout, rollout, rollout_depth,
                                         exploration, hint_weight),
        }

    def _search_for(self, game: str, heuristic: object, rollout: str, rollout_depth: int | None,
                    exploration: float, hint_weight: float) -> ISMCTS:
        depth = ROLLOUT_DEPTHS[game] if rollout_depth == GAME_DEFAULT else rollout_depth
        adapter = saboteur if game == "saboteur" else gnadenlos
        search = ISMCTS(
            load_game(game),
            rollout=heuristic if rollout == "heuristic" else random_rollout,  # type: ignore[arg-type]
            rollout_depth=depth,
            evaluate=gnadenlos.evaluate if depth is not None and game == "gnadenlos" else None,
            estimate=saboteur.estimate if depth is not None and game == "saboteur" else None,
            candidates=adapter.candidates,
            seat_key=saboteur.seat_key if game == "saboteur" else None,
            refine=self.roles if game == "saboteur" else None,
            hint=heuristic if hint_weight > 0 else None,  # type: ignore[arg-type]
            hint_weight=hint_weight,
            exploration=exploration,
            rng=random.Random(self.seed),
        )
        search.stats = self._stats
        return search

    @property
    def stats(self) -> SearchStats:
        """Iterations, seconds and iterations per second of the last search and overall."""
        return self._stats

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        if self.seed is not None:  # same seed, same match, same play, warm process or fresh
            self._searches[match.game].rng = random.Random(f"{self.seed}:{match.match_id}:{match.seat}")
        self.suspicion = Suspicion()
        if isinstance(observation, SaboteurObservation):
            self.suspicion.sync(observation)

    def on_events(self, events: Sequence[Event]) -> None:
        self.suspicion.on_events(events)

    def decide(
        self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        search = self._searches["saboteur" if isinstance(observation, SaboteurObservation) else "gnadenlos"]
        if isinstance(observation, SaboteurObservation):
            self.suspicion.sync(observation)
            self.playout.suspicion = list(self.suspicion.scores)
            self.roles.prepare(observation, self.suspicion.scores)
        now = time.monotonic()
        left = context.deadline - now
        until = now + max(0.0, left - SAFETY_MARGIN - SAFETY_SHARE * left)
        cpu_seconds = None
        if self.move_time is not None:
            if self.cpu_clock:
                cpu_seconds = self.move_time
            else:
                until = min(until, now + self.move_time)
        return search.search(  # type: ignore[no-any-return]
            observation, legal_actions, iterations=self.iterations, until=until, cpu_seconds=cpu_seconds
        )
