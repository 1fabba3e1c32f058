"""Information-set Monte Carlo tree search (ISMCTS) over one seat's observation.

Each iteration samples a determinization of the searching seat's information
set with `game.determinize(observation, rng)` — a full state consistent with
what the seat observed, hidden cards dealt at random and the future chance
streams (decks, die) seeded from the search's own generator; a game may
`refine` it with what the bot inferred (still consistent with the
observation) — and then walks one shared tree in it:

- The tree's nodes are keyed by the actions taken from the root (single-
  observer ISMCTS, Cowling, Powley & Whitehouse 2012). Every seat that decides
  at a node keeps its own action statistics there, so opponents choose by
  their own results, not ours.
- Simultaneous decisions (the commitment, G-5.4) are decoupled: each deciding
  seat picks from its own statistics without seeing the others' choice, and
  the child is keyed by the joint action.
- A game may split a seat's statistics by what that seat privately knows
  and plays by (`seat_key`: in Saboteur its role), so an opponent that is
  a saboteur in one determinization and a gold-digger in another does not
  pool the two (a step from single-observer towards multiple-observer
  ISMCTS; the searching seat's own key never changes).
- Legal actions differ between determinizations (another seat's hidden hand,
  the adventurers an auction reveals), so selection is UCB1 over the actions
  available in this determinization, with availability counts in place of the
  parent's visit count ("subset-armed bandit").
- One node is added per iteration; from there a rollout policy (random or the
  heuristic) plays on, to the end or for `rollout_depth` decisions after which
  a static evaluation ranks the seats (or a game's own estimate gives each
  seat's expected reward directly).
- Rewards come from the final ranking (G-9.4): seat reward
  (n - 1 - place) / (n - 1), places shared by a tie averaged.

The search reads nothing but the observation it is given and the engine's
public API (`determinize`, `to_act`, `legal_actions`, `apply_unchecked`).
"""

from __future__ import annotations

import gc
import logging
import math
import random
import time
from collections.abc import Callable, Hashable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any

from referee.games.base import Game, Observation, State
from referee.games.strategy import Candidates, Estimator, Evaluator, Refiner, RolloutPolicy, SeatKey

log = logging.getLogger(__name__)




def shuffle_with(rng: random.Random, items: MutableSequence[Any]) -> None:
    """`random.Random.shuffle` (CPython's: Fisher-Yates from the last item,
    each index drawn by rejection from `getrandbits` of its bound's bit
    length, as `_randbelow_with_getrandbits`), compiled: bot.py's
    `SearchRandom` shuffles with it."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        bits = bound.bit_length()
        j = getrandbits(bits)
        while j >= bound:
            j = getrandbits(bits)
        items[i], items[j] = items[j], items[i]


def random_rollout(state: State, seat: int, legal: tuple[Any, ...], rng: random.Random) -> Any:
    return legal[rng.randrange(len(legal))]


def rank_rewards(keys: Sequence[Any]) -> list[float]:
    """Reward per seat from sort keys (higher is better): (n-1-place)/(n-1),
    averaged over the places a tie shares."""
    n = len(keys)
    rewards = []
    for key in keys:
        above = sum(1 for k in keys if k > key)
        tied = sum(1 for k in keys if k == key)
        # places above .. above+tied-1, mean reward of those places
        mean_place = above + (tied - 1) / 2
        rewards.append((n - 1 - mean_place) / (n - 1))
    return rewards


def outcome_rewards(state: State) -> list[float]:
    ranks = state.outcome().ranks
    return rank_rewards([-r for r in ranks])


class _Arm:
    """One action's statistics for one deciding seat at one node."""

    __slots__ = ("visits", "reward", "available")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0
        """The sum of the rewards of the iterations that took it."""
        self.available = 1
        """How often it was legal when the seat chose here (it is tried when it first is)."""


class _Choices:
    """What one deciding seat (or seat and its private key) has tried at a
    node: action -> its `_Arm`, the arm of the heuristic's choice, and the
    seat's visits."""

    __slots__ = ("arms", "hint_arm", "visits", "legal", "aligned")

    def __init__(self) -> None:
        self.arms: dict[Any, _Arm] = {}
        self.hint_arm: _Arm | None = None
        self.visits = 0
        self.legal: Sequence[Any] = ()
        """The actions offered at the last visit, and `aligned`: their arms
        by place (None: not tried). The engine hands out the same tuple for
        the same choice (at the root: every iteration), which then costs no
        action hashing; compiled, an action's hash is Python code."""
        self.aligned: list[_Arm | None] = []


class _Node:
    """A node of the tree: the choices of each seat deciding there (by its
    key), and children keyed by the (joint) action taken."""

    __slots__ = ("children", "seats")

    def __init__(self) -> None:
        self.children: dict[Any, _Node] = {}
        self.seats: dict[Hashable, _Choices] = {}


@dataclass
class SearchStats:
    """What the last search did: the figures the bot reports."""

    iterations: int = 0
    seconds: float = 0.0
    tree_nodes: int = 0
    total_iterations: int = 0
    total_seconds: float = 0.0
    total_cpu_seconds: float = 0.0
    searches: int = 0

    @property
    def iterations_per_second(self) -> float:
        return self.iterations / self.seconds if self.seconds else 0.0

    @property
    def mean_iterations_per_second(self) -> float:
        """Over every search this bot made."""
        return self.total_iterations / self.total_seconds if self.total_seconds else 0.0


class ISMCTS:
    """The search. `search` returns the most visited root action of `seat`."""

    def __init__(
        self,
        game: Game,
        *,
        rollout: RolloutPolicy = random_rollout,
        rollout_depth: int | None = None,
        evaluate: Evaluator | None = None,
        estimate: Estimator | None = None,
        candidates: Candidates | None = None,
        seat_key: SeatKey | None = None,
        refine: Refiner | None = None,
        prepare: Callable[[Observation], None] | None = None,
        hint: RolloutPolicy | None = None,
        hint_weight: float = 0.5,
        widening: float = 0.7,
        exploration: float = 0.7,
        rng: random.Random | None = None,
    ) -> None:
        if rollout_depth is not None and evaluate is None and estimate is None:
            raise ValueError("a rollout depth cut-off needs an evaluation or estimate function")
        self.game = game
        self.rollout = rollout
        self.rollout_depth = rollout_depth
        self.evaluate = evaluate
        self.estimate = estimate
        self.candidates = candidates
        self.seat_key = seat_key
        self.refine = refine
        self.prepare = prepare
        self.hint = hint
        self.hint_weight = hint_weight
        self.widening = widening
        self.exploration = exploration
        self.rng = rng or random.Random()
        self.stats = SearchStats()

    def search(
        self,
        observation: Observation,
        legal_actions: Sequence[Any],
        *,
        iterations: int | None = None,
        until: float | None = None,
        cpu_seconds: float | None = None,
    ) -> Any:
        """Search from `observation` for at most `iterations` iterations, until
        the `time.monotonic()` value `until`, and for at most `cpu_seconds` of
        this process's CPU time, whichever comes first (at least one
        iteration). Returns one of `legal_actions`.

        The cycle collector is paused while the search runs: a search builds
        a tree and throwaway states, none of them in reference cycles (they
        are freed as they go), yet the collector's full passes over every
        live object of the process took a tenth of its time."""
        if len(legal_actions) == 1:
            return legal_actions[0]
        if self.prepare is not None:
            self.prepare(observation)
        seat = observation.seat
        root = _Node()
        started = time.monotonic()
        cpu_started = time.process_time()
        cpu_until = cpu_started + cpu_seconds if cpu_seconds is not None else None
        done = 0
        root_key: Hashable = seat
        collecting = gc.isenabled()
        gc.disable()  # see below
        try:
            while True:
                root_key = self._iterate(root, observation, seat)
                done += 1
                if iterations is not None and done >= iterations:
                    break
                if until is not None and time.monotonic() >= until:
                    break
                if cpu_until is not None and time.process_time() >= cpu_until:
                    break
        finally:
            if collecting:
                gc.enable()
        elapsed = time.monotonic() - started
        self.stats.total_cpu_seconds += time.process_time() - cpu_started
        self._record(done, elapsed, root)
        choices = root.seats.get(root_key)
        arms = choices.arms if choices is not None else {}
        tried = [a for a in arms if a in legal_actions]
        # most visited; among equals the one tried first (the hint's, if any)
        return max(tried, key=lambda a: arms[a].visits) if tried else legal_actions[0]

    def _record(self, done: int, elapsed: float, root: _Node) -> None:
        s = self.stats
        s.iterations, s.seconds, s.tree_nodes = done, elapsed, _count(root)
        s.total_iterations += done
        s.total_seconds += elapsed
        s.searches += 1
        log.debug(
            "ISMCTS: %d iterations in %.3f s (%.0f/s), %d nodes",
            done, elapsed, s.iterations_per_second, s.tree_nodes,
        )

    def _iterate(self, root: _Node, observation: Observation, seat: int) -> Hashable:
        """One iteration; returns the key under which `seat` decides at the root."""
        rng = self.rng
        state = self.game.determinize(observation, rng)
        if self.refine is not None:
            self.refine(state, observation, rng)
        node = root
        path: list[tuple[_Arm, int]] = []  # the arms taken, and by whom
        root_key: Hashable = seat
        while not state.is_terminal():
            joint: dict[int, Any] = {}
            for s in sorted(state.to_act()):
                key = self._key(state, s)
                if node is root and s == seat:
                    root_key = key
                action, arm = self._select(node, s, key, state)
                joint[s] = action
                path.append((arm, s))
            state.apply_unchecked(joint)
            step: Any = tuple(joint.items()) if len(joint) > 1 else action
            child = node.children.get(step)
            if child is None:
                node.children[step] = _Node()
                break
            node = child
        rewards = self._simulate(state)
        for arm, s in path:
            arm.visits += 1
            arm.reward += rewards[s]
        return root_key

    def _key(self, state: State, seat: int) -> Hashable:
        """Whose statistics a seat's choice at a node updates: the seat's, or,
        with `seat_key`, the seat's as it is in this determinization."""
        if self.seat_key is None:
            return seat
        return seat, self.seat_key(state, seat)

    def _select(self, node: _Node, seat: int, key: Hashable, state: State) -> tuple[Any, _Arm]:
        """UCB1 over the actions available in this determinization: the
        action, and its arm (created if it is tried for the first time).

        Without a hint policy every untried action is tried first (classic
        ISMCTS). With one, the node widens progressively: a seat starts with
        the hint's choice alone and gets one more (random) action each time
        its visits pass the next step of `1 + widening * sqrt(visits)`, so
        every seat, opponents included, plays like the hint until the search
        has the visits to tell better; the hint's action also keeps a bias
        that fades with its visits (progressive bias).
        """
        everything = legal = state.legal_actions(seat)
        if self.candidates is not None:
            legal = self.candidates(state, seat, everything)
        choices = node.seats.get(key)
        if choices is None:
            choices = node.seats[key] = _Choices()
        choices.visits += 1
        arms, hint_arm = choices.arms, choices.hint_arm
        if legal is not choices.legal:
            choices.legal, choices.aligned = legal, [arms.get(action) for action in legal]
        aligned = choices.aligned
        available = 0
        best = -1
        best_arm: _Arm | None = None
        best_score = -1.0
        c = self.exploration
        for index in range(len(aligned)):
            arm = aligned[index]
            if arm is None:
                continue
            available += 1
            arm.available += 1
            visits = arm.visits
            if visits == 0:
                score = math.inf
            else:
                score = arm.reward / visits + c * math.sqrt(math.log(arm.available) / visits)
                if arm is hint_arm:
                    score += self.hint_weight / visits
            if score > best_score:
                best, best_arm, best_score = index, arm, score
        if self.hint is None:
            wanted = len(legal)
        else:
            wanted = 1 + int(self.widening * math.sqrt(choices.visits))
        if best_arm is not None and (available == len(legal) or available >= wanted):
            return legal[best], best_arm
        chosen = -1
        hinted = False
        if not available and self.hint is not None:
            action = self.hint(state, seat, everything, self.rng)
            if action in legal:
                chosen, hinted = legal.index(action), True
        if chosen < 0:
            untried = [index for index in range(len(aligned)) if aligned[index] is None]
            chosen = untried[self.rng.randrange(len(untried))]
        arm = arms[legal[chosen]] = aligned[chosen] = _Arm()
        if hinted and hint_arm is None:
            choices.hint_arm = arm
        return legal[chosen], arm

    def _simulate(self, state: State) -> list[float]:
        rng, policy = self.rng, self.rollout
        depth = self.rollout_depth
        steps = 0
        while not state.is_terminal():
            if depth is not None and steps >= depth:
                if self.estimate is not None:
                    return list(self.estimate(state))
                assert self.evaluate is not None
                return rank_rewards(self.evaluate(state))
            state.apply_unchecked({s: policy(state, s, state.legal_actions(s), rng) for s in state.to_act()})
            steps += 1
        return outcome_rewards(state)


def _count(node: _Node) -> int:
    return 1 + sum(_count(child) for child in node.children.values())
