"""The MCTS bot: ISMCTS from its own observation, within its time or iteration budget."""

from __future__ import annotations

import random
import time
from collections.abc import MutableSequence, Sequence
from typing import Any

from referee.games.base import Action, Event, Observation
from referee.games.plugin import game_names, game_of, load_game, load_strategy
from referee.games.strategy import Player

from bots.mcts.search import ISMCTS, SearchStats, random_rollout, shuffle_with
from bots.sdk import Bot, DecisionContext, MatchInfo, every_variant

SAFETY_MARGIN = 0.05
"""Seconds kept back before the referee's deadline (answer transport, GC pauses)."""
SAFETY_SHARE = 0.1
"""And this share of the time left, for the same reason."""
GAME_DEFAULT = -1
"""`rollout_depth` value meaning the game's own default (`Strategy.rollout_depth`)."""


class SearchRandom(random.Random):
    """The search's generator: `random.Random`, with its shuffle run compiled.

    Every iteration's determinization shuffles the hidden cards and decks
    with it, and the standard library's shuffle is Python code (a call per
    card): 3 % of a Gnadenlos! search. `shuffle_with` is the same
    algorithm on the same draws, so a seeded search plays exactly as with a
    plain `random.Random` (tests/test_bots_play.py checks the two agree).

    Defined here, not beside `shuffle_with`: a subclass of `random.Random`
    cannot be built by the compiled module (mypyc).
    """

    def shuffle(self, x: MutableSequence[Any]) -> None:
        shuffle_with(self, x)


class MctsBot(Bot):
    """Information-set MCTS (bots/mcts/search.py) for every game with a strategy.

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

    The game's pieces (rollout policy, evaluation, and what else its
    `SearchKit` brings) come from its package's strategy, with a heuristic
    `Player` per match that follows the events the seat is told: in Saboteur
    its suspicion scores deal the unseen roles in the determinizations and
    guide the heuristic rollouts.
    """

    name = "mcts"
    version = "1"
    games = tuple(game_names())
    variants = every_variant(games)

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
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.exploration = exploration
        self.hint_weight = hint_weight
        self.player: Player | None = None
        self.search: ISMCTS | None = None
        self.game = ""
        self._stats = SearchStats()

    def _search_for(self, game: str, player: Player, rng: random.Random) -> ISMCTS:
        """A search with the game's pieces for the match `player` plays."""
        strategy = load_strategy(game)
        kit = strategy.search_kit(player)
        depth = strategy.rollout_depth if self.rollout_depth == GAME_DEFAULT else self.rollout_depth
        search = ISMCTS(
            load_game(game),
            rollout=kit.rollout if self.rollout == "heuristic" else random_rollout,
            rollout_depth=depth,
            evaluate=kit.evaluate if depth is not None else None,
            estimate=kit.estimate if depth is not None else None,
            candidates=kit.candidates,
            seat_key=kit.seat_key,
            refine=kit.refine,
            prepare=kit.prepare,
            hint=kit.rollout if self.hint_weight > 0 else None,
            hint_weight=self.hint_weight,
            exploration=self.exploration,
            rng=rng,
        )
        search.stats = self._stats
        return search

    @property
    def stats(self) -> SearchStats:
        """Iterations, seconds and iterations per second of the last search and overall."""
        return self._stats

    def on_match_start(self, match: MatchInfo, observation: Observation) -> None:
        # same seed, same match, same play, warm process or fresh
        key = None if self.seed is None else f"{self.seed}:{match.match_id}:{match.seat}"
        self._start(match.game, observation, key)

    def _start(self, game: str, observation: Observation, seed: int | str | None) -> ISMCTS:
        self.game = game
        self.player = load_strategy(game).player()
        self.player.start(observation)
        self.search = self._search_for(game, self.player, SearchRandom(seed))
        return self.search

    def on_events(self, events: Sequence[Event]) -> None:
        if self.player is not None:
            self.player.on_events(events)

    def decide(
        self, observation: Observation, legal_actions: tuple[Action, ...], context: DecisionContext
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        search = self.search
        if search is None or game_of(observation) != self.game:  # asked without a match start (tests, tools)
            search = self._start(game_of(observation), observation, self.seed)
        now = time.monotonic()
        left = context.deadline - now
        until = now + max(0.0, left - SAFETY_MARGIN - SAFETY_SHARE * left)
        cpu_seconds = None
        if self.move_time is not None:
            if self.cpu_clock:
                cpu_seconds = self.move_time
            else:
                until = min(until, now + self.move_time)
        return search.search(
            observation, legal_actions, iterations=self.iterations, until=until, cpu_seconds=cpu_seconds
        )
