"""The walk: which scripted match to play next, and how its opponent plays.

Exploitability depends on a policy only where the policy's own choices can
lead (an information state it never reaches has weight 0 in every
best-response value), but there on every opponent action and every card.
So the walk queries the bot in every information state its own answers
lead to, under every opponent action and every public card, until each
has enough answers:

- **The bot chooses its own way.** Every match is played from the deal;
  the bot answers every decision itself, and where its answers lead is
  where the match goes. Each answer is one sample of its policy in that
  state, whatever the match was aimed at. A state is reached as often as
  the bot's own probabilities take it there — a deterministic bot's
  states every time, a rare branch of a mixed bot rarely — which is how
  much its answers there weigh in the exploitability.
- **The referee chooses the rest that is public.** The bot's seat and its
  own card (the evaluation deal, referee/evaluation/deals.py), and every
  action of the scripted opponent. The opponent's card and the public card
  are dealt at random (given the bot's card), as in any match, and the
  script never looks at them: it sees only the public betting and, in
  round 2, the public card. So nothing in the opponent's actions tells the
  bot a hidden card, and every opponent action is tried where needed.
- **Quota.** A state I needs `max(least, ceil(queries * w(I)))` answers,
  where w(I) is its weight: the bot's own estimated probability of taking
  the actions that lead to I, times the public card's chance (1/5) once
  round 2 is reached — how much its answers in I can weigh in the
  exploitability. An unanswered state counts as uniform, so the walk looks
  beneath it until it is answered; a state the bot's answers never lead to
  needs none.
- **Steering.** Each view (seat, card) values its next match by the
  answers still wanted that the match would collect: at the bot's decision
  its answers' probabilities, at the opponent's the best of its actions, at
  the public card the mean over the cards. The next match goes to the view
  with the most to collect; its opponent takes the action with the most
  beneath it (ties at random), as the answers stood when the match began.
- **The end.** The walk ends when no match would collect even one wanted
  answer in `patience` matches (what is left is a state the bot reaches
  that rarely, whose weight is as small), or at its budget of matches.

Answers are pooled by information state: the samples are independent
draws from the bot's policy there as long as the bot's choice depends on
its information state alone (a stationary policy, what exploitability is
defined for).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from referee.evaluation.tree import ACTIONS, Floats, PublicKey, Tree, View, ViewNode


@dataclass(frozen=True)
class Target:
    """One scripted match: the bot's seat and its own card."""

    seat: int
    card: int


@dataclass(frozen=True)
class _Plan:
    """One view's nodes in an order where a node comes before those beneath
    it, as flat lists: the walk's two passes over a view are loops."""

    nodes: tuple[ViewNode, ...]
    parent: tuple[int, ...]
    """The index of each node's parent (-1 for the root)."""
    step: tuple[int, ...]
    """The action or public card that leads from the parent to each node."""
    index: dict[int, int]
    """id(node) -> its index."""

    @classmethod
    def of(cls, view: View) -> "_Plan":
        nodes, parent, step = [view.root], [-1], [-1]
        for i, node in enumerate(nodes):  # grows as it goes: breadth first
            for move, child in node.children.items():
                nodes.append(child)
                parent.append(i)
                step.append(move)
        return cls(tuple(nodes), tuple(parent), tuple(step), {id(node): i for i, node in enumerate(nodes)})


class Walk:
    """The answers so far (`counts`) and the choices they lead to.

    `queries`: answers wanted in a state the bot reaches for sure (fewer
    where its own choices or the public card make it rarer, see the
    module's docstring); `least`: answers wanted in any state it may reach;
    `patience`: the most matches worth one wanted answer; `budget`: the
    most matches the walk asks for."""

    def __init__(self, tree: Tree, *, queries: int, least: int = 1, patience: int = 100,
                 budget: int | None = None, rng: random.Random | None = None) -> None:
        if queries < 1 or least < 1 or patience < 1:
            raise ValueError("queries, least and patience must be at least 1")
        self.tree = tree
        self.queries = queries
        self.least = least
        self.patience = patience
        self.budget = budget
        self.rng = rng or random.Random()
        self.matches = 0
        self._counts = [[0] * ACTIONS for _ in tree.states]
        self._uniform = [[float(legal) / int(row.sum()) for legal in row] for row in tree.legal]
        self._plans = {key: _Plan.of(view) for key, view in tree.views.items()}
        self._wanted: dict[tuple[int, int], list[float]] = {}
        """Per view, what a match through each of its nodes would collect (see `_fill`)."""
        self._stale: set[tuple[int, int]] = set(tree.views)
        """Views with answers newer than their `_wanted`: brought up to date before the next match."""

    # ------------------------------------------------------------- answers

    def record(self, row: int, action: int) -> None:
        """The bot answered `action` in the state of `row`."""
        if not self.tree.legal[row, action]:
            raise ValueError(f"action {action} is not legal in {self.tree.states[row]}")
        self._counts[row][action] += 1
        self._stale.add((int(self.tree.player[row]), int(self.tree.card[row])))

    @property
    def counts(self) -> npt.NDArray[np.int64]:
        """The answers so far: (states, 3), how often each action was answered in each state."""
        return np.array(self._counts, dtype=np.int64)

    # ------------------------------------------------------------- choices

    def targets(self) -> Iterator[Target]:
        """The next match's target, as long as answers are wanted and the budget lasts."""
        while self.budget is None or self.matches < self.budget:
            for key in self._stale:
                self._wanted[key] = self._fill(self._plans[key])[0]
            self._stale.clear()
            most = max(wanted[0] for wanted in self._wanted.values())
            if most * self.patience < 1:
                return
            seat, card = self.rng.choice([key for key, wanted in self._wanted.items() if wanted[0] == most])
            self.matches += 1
            yield Target(seat, card)

    def opponent_action(self, target: Target, key: PublicKey) -> int:
        """The scripted opponent's action where the match stands (`key`: the
        public betting and card): the one with the most answers beneath it,
        as the answers stood when the match began."""
        view = (target.seat, target.card)
        node = self.tree.views[view].nodes.get(key)
        if node is None or node.kind != "opponent":
            raise ValueError(f"the opponent does not decide at {key} in the view of seat {target.seat} "
                             f"holding card {target.card}")
        plan, wanted = self._plans[view], self._wanted[view]
        values = {action: wanted[plan.index[id(child)]] if (child := node.children.get(action)) else 0.0
                  for action in node.legal}
        most = max(values.values())
        return self.rng.choice([action for action, value in values.items() if value == most])

    def missing(self) -> int:
        """States the bot may reach whose quota is not met: what the walk's
        patience or budget left (0 when every quota was met)."""
        return sum(self._fill(plan)[1] for plan in self._plans.values())

    # ------------------------------------------------------------- quotas

    def quota(self, weight: float) -> int:
        """Answers wanted in a state of `weight` (the bot's own reach times the public card's chance; 0: none)."""
        return 0 if weight <= 0 else max(self.least, math.ceil(self.queries * weight - 1e-9))

    def _fill(self, plan: _Plan) -> tuple[list[float], int]:
        """What a match through each node of `plan` would collect: answers
        still wanted there and beneath (module docstring, Steering); and
        how many of the view's states want answers."""
        nodes, counts = plan.nodes, self._counts
        policy: list[list[float]] = [[]] * len(nodes)
        weight = [1.0] * len(nodes)
        needs = [0.0] * len(nodes)
        short = 0
        for i, node in enumerate(nodes):  # top-down: each state's weight and quota
            if i:
                above = nodes[plan.parent[i]]
                factor = (policy[plan.parent[i]][plan.step[i]] if above.kind == "own"
                          else 1.0 / len(above.legal) if above.kind == "chance" else 1.0)
                weight[i] = weight[plan.parent[i]] * factor
            if node.kind == "own":
                answers = counts[node.row]
                total = answers[0] + answers[1] + answers[2]
                policy[i] = [a / total for a in answers] if total else self._uniform[node.row]
                if total < self.quota(weight[i]):
                    needs[i] = 1.0
                    short += 1
        value = needs
        for i in range(len(nodes) - 1, 0, -1):  # bottom-up: children before parents
            above = nodes[plan.parent[i]]
            if above.kind == "own":
                value[plan.parent[i]] += policy[plan.parent[i]][plan.step[i]] * value[i]
            elif above.kind == "chance":
                value[plan.parent[i]] += value[i] / len(above.legal)
            else:
                value[plan.parent[i]] = max(value[plan.parent[i]], value[i])
        return value, short


def frequencies(counts: npt.NDArray[np.int64], legal: npt.NDArray[np.bool_]) -> Floats:
    """Each state's answer frequencies from its counts (..., states, 3);
    uniform over the legal actions where a state has no answer."""
    totals = counts.sum(axis=-1, keepdims=True)
    uniform = legal / legal.sum(axis=-1, keepdims=True)
    found: Floats = np.where(totals > 0, counts / np.maximum(totals, 1), uniform)
    return found


def simulated_match(walk: Walk, target: Target, policy: Floats, rng: random.Random) -> None:
    """One scripted match against a known policy (states, 3), without a
    bot or a referee: the bot's answers drawn from `policy`, the public
    card uniform among those the bot does not hold. For checking the walk
    and the interval where the truth is known (tests, the coverage study
    bench/exploitability_bench.py)."""
    node: ViewNode | None = walk.tree.views[(target.seat, target.card)].root
    while node is not None:
        if node.kind == "own":
            step = rng.choices(range(ACTIONS), weights=policy[node.row])[0]
            walk.record(node.row, step)
        elif node.kind == "opponent":
            step = walk.opponent_action(target, node.key)
        else:
            step = rng.choice(node.legal)
        node = node.children.get(step)
