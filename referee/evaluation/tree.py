"""Heads-up Leduc poker's game tree, read once from OpenSpiel's `leduc_poker`.

Two uses, both keyed by OpenSpiel's own information-state strings and
action ids (fold 0, call 1, raise 2), which are also what the bot SDK
computes from a referee's observation (`botsdk.encoding.leduc`):

- **The views** (`View`): what one seat holding one card can see of the
  tree — its own decisions, its opponent's, and the public card's chance
  node — with the opponent's card summed out. The walk
  (referee/evaluation/walk.py) steers its scripted matches through them.
- **Best responses to many policies at once** (`Tree.best_response`,
  `Tree.value`, `Tree.nash_conv`): a seat's best response to a stack of
  policies, its value, and a given strategy's value, in one pass of numpy.
  The interval (referee/evaluation/estimate.py) needs them for a thousand
  resampled policies, where OpenSpiel's best response takes about 0.15 s a
  policy (1,000 resamples with their cross-fitted halves take about a
  second here); the test suite checks them against OpenSpiel's
  `exploitability`, `BestResponsePolicy` and `expected_game_score` to 1e-9.

How the best response is computed: for the best-responding seat i and the
policy's seat j = 1 - i, each terminal history z weighs
`chance(z) * x_j(z) * u_i(z)`, where x_j(z) is the product of the policy's
probabilities of seat j's own actions on the way to z. Seat i's value of a
sequence (infostate I, action a) is the weight of the terminals whose last
seat-i sequence it is, plus, for every infostate of seat i that follows it,
the best of that infostate's sequence values (perfect recall makes seat i's
infostates a tree). The best response's value is the same sum at the root.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Literal

import numpy as np
import numpy.typing as npt
import pyspiel

GAME = "leduc_poker"
"""OpenSpiel's game, two players: the one whose strings and ids our engine's seats get."""
SEATS = 2
ACTIONS = 3
"""OpenSpiel's action ids: fold 0, call 1, raise 2."""

PublicKey = tuple[int | None, tuple[int, ...], tuple[int, ...]]
"""Where a match stands in public: (the public card or None, round 1's
actions, round 2's actions), as OpenSpiel action ids."""
Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


@dataclass(eq=False)
class ViewNode:
    """A point of one seat's view: its decision, its opponent's, or the public card."""

    kind: Literal["own", "opponent", "chance"]
    key: PublicKey
    row: int = -1
    """For its own decision: the row of its information state (`Tree.states`)."""
    legal: tuple[int, ...] = ()
    """The action ids (or, at the chance node, the public cards) that lead on."""
    children: dict[int, "ViewNode"] = field(default_factory=dict)
    """Where each action or public card leads; absent where the hand ends."""


@dataclass(frozen=True)
class View:
    """What `seat` holding `card` can see of the tree, from its first point on."""

    seat: int
    card: int
    root: ViewNode
    nodes: dict[PublicKey, ViewNode]


@dataclass(frozen=True)
class Tree:
    """OpenSpiel's heads-up Leduc, flattened (see the module's docstring)."""

    states: tuple[str, ...]
    """Every information state, both seats: a policy is an array with a row per state."""
    player: Ints
    """The seat deciding in each state."""
    card: Ints
    """The private card of the seat deciding in each state: (player, card) names its view."""
    legal: npt.NDArray[np.bool_]
    """(states, 3): the legal action ids of each state."""
    depth: Ints
    """Decisions the deciding seat made before each state."""
    parent: Ints
    """The sequence (row * 3 + action) of the seat's decision before each state, or -1."""
    chance: Floats
    """(terminals,): the chance probability of each terminal history."""
    returns: Floats
    """(terminals, 2): each seat's chips won or lost."""
    path: Ints
    """(terminals, 2, 4): each seat's own sequences (row * 3 + action) on the
    way to the terminal, padded with `one` (a sequence of probability 1)."""
    last: Ints
    """(terminals, 2): each seat's last sequence before the terminal, or -1."""
    views: dict[tuple[int, int], View]
    """(seat, card) -> that seat's view holding that card."""

    @property
    def index(self) -> dict[str, int]:
        """Information-state string -> its row."""
        return _index(self.states)

    @property
    def one(self) -> int:
        """The padding sequence of `path`: a policy's flat array gets a 1 there."""
        return len(self.states) * ACTIONS

    def uniform(self) -> Floats:
        """The uniform policy: (states, 3), each row uniform over its legal actions."""
        legal = self.legal.astype(np.float64)
        uniform: Floats = legal / legal.sum(axis=1, keepdims=True)
        return uniform

    def nash_conv(self, policies: Floats) -> Floats:
        """NashConv of each policy of a stack (B, states, 3), in chips: both
        seats' best-response values against it added up (the game is
        zero-sum, so the policy's own values add up to 0). Exploitability is
        half of it."""
        return sum((self.best_response(seat, policies)[0] for seat in range(SEATS)), np.zeros(policies.shape[0]))

    def best_response(self, seat: int, policies: Floats) -> tuple[Floats, Ints]:
        """Seat `seat`'s best response to the other seat's part of each
        policy of a stack (B, states, 3): its value (B,), and its action in
        each of the seat's states (B, states; -1 in the other seat's)."""
        flat = self._flat(policies)
        reach = np.prod(flat[self.path[:, 1 - seat, :]], axis=1)  # (terminals, B)
        weights = reach * (self.chance * self.returns[:, seat])[:, None]
        root = self.one  # the empty sequence gets the padding's slot
        values = np.zeros((self.one + 1, flat.shape[1]))
        np.add.at(values, np.where(self.last[:, seat] < 0, root, self.last[:, seat]), weights)
        choices = np.full((flat.shape[1], len(self.states)), -1, dtype=np.int64)
        mine = self.player == seat
        for depth in range(int(self.depth[mine].max()), -1, -1):
            rows = np.flatnonzero(mine & (self.depth == depth))
            q = values[:self.one].reshape(len(self.states), ACTIONS, -1)[rows]  # (rows, 3, B)
            q = np.where(self.legal[rows][:, :, None], q, -np.inf)
            choices[:, rows] = q.argmax(axis=1).T
            np.add.at(values, np.where(self.parent[rows] < 0, root, self.parent[rows]), q.max(axis=1))
        result: Floats = values[root]
        return result, choices

    def value(self, seat: int, choices: Ints, policies: Floats) -> Floats:
        """Seat `seat`'s value (B,) when it plays the actions `choices`
        (B, states, as `best_response` gives them) against the other seat's
        part of each policy of a stack (B, states, 3)."""
        pure = np.zeros((choices.shape[0], len(self.states), ACTIONS))
        rows = np.flatnonzero(self.player == seat)
        pure[np.arange(choices.shape[0])[:, None], rows[None, :], choices[:, rows]] = 1.0
        mine = np.prod(self._flat(pure)[self.path[:, seat, :]], axis=1)
        theirs = np.prod(self._flat(policies)[self.path[:, 1 - seat, :]], axis=1)
        result: Floats = ((self.chance * self.returns[:, seat])[:, None] * mine * theirs).sum(axis=0)
        return result

    def _flat(self, policies: Floats) -> Floats:
        """A stack of policies (B, states, 3) as sequence probabilities
        (sequences + 1, B), the last row the padding's 1."""
        flat = policies.reshape(policies.shape[0], -1)
        return np.concatenate([flat, np.ones((flat.shape[0], 1))], axis=1).T


@cache
def _index(states: tuple[str, ...]) -> dict[str, int]:
    return {state: row for row, state in enumerate(states)}


@cache
def leduc_tree() -> Tree:
    """The tree, read from OpenSpiel once per process (about a second)."""
    return _Reader().read()


class _Reader:
    """One walk over every history of OpenSpiel's game."""

    def __init__(self) -> None:
        self.rows: dict[str, int] = {}
        self.player: list[int] = []
        self.card: list[int] = []
        self.legal: list[list[bool]] = []
        self.depth: list[int] = []
        self.parent: list[int] = []
        self.chance: list[float] = []
        self.returns: list[list[float]] = []
        self.path: list[list[list[int]]] = []
        self.last: list[list[int]] = []
        self.views: dict[tuple[int, int], View] = {}

    def read(self) -> Tree:
        game = pyspiel.load_game(GAME, {"players": SEATS})
        self._walk(game.new_initial_state(), 1.0, ([], []), (None, (), ()))
        for view in self.views.values():
            for node in view.nodes.values():
                for step in node.legal:
                    child = view.nodes.get(_after(node, step))
                    if child is not None:
                        node.children[step] = child
        one = len(self.rows) * ACTIONS
        longest = max(len(seqs) for path in self.path for seqs in path)
        path = [[seqs + [one] * (longest - len(seqs)) for seqs in seats] for seats in self.path]
        return Tree(
            states=tuple(self.rows), player=np.array(self.player), card=np.array(self.card), legal=np.array(self.legal),
            depth=np.array(self.depth), parent=np.array(self.parent), chance=np.array(self.chance),
            returns=np.array(self.returns), path=np.array(path), last=np.array(self.last), views=self.views)

    def _walk(self, state: pyspiel.State, chance: float, seqs: tuple[list[int], list[int]], key: PublicKey) -> None:
        """`seqs`: each seat's own sequences so far (row * 3 + action)."""
        if state.is_terminal():
            self.chance.append(chance)
            self.returns.append(state.returns())
            self.path.append([list(seqs[0]), list(seqs[1])])
            self.last.append([s[-1] if s else -1 for s in seqs])
            return
        dealt = len(state.history()) >= SEATS  # every private card is out (they come first)
        if state.is_chance_node():
            if dealt:
                self._see(state, key)
            for outcome, probability in state.chance_outcomes():
                child_key = (outcome, key[1], key[2]) if dealt else key
                self._walk(state.child(outcome), chance * probability, seqs, child_key)
            return
        seat = state.current_player()
        row = self._row(state, seat, seqs[seat])
        self._see(state, key)
        for action in state.legal_actions():
            own = seqs[seat] + [row * ACTIONS + action]
            child_seqs = (own, seqs[1]) if seat == 0 else (seqs[0], own)
            self._walk(state.child(action), chance, child_seqs, _bet(key, action))

    def _row(self, state: pyspiel.State, seat: int, seqs: list[int]) -> int:
        infostate = state.information_state_string(seat)
        row = self.rows.get(infostate)
        if row is None:
            row = self.rows[infostate] = len(self.rows)
            legal = state.legal_actions()
            self.player.append(seat)
            self.card.append(state.history()[seat])
            self.legal.append([action in legal for action in range(ACTIONS)])
            self.depth.append(len(seqs))
            self.parent.append(seqs[-1] if seqs else -1)
        return row

    def _see(self, state: pyspiel.State, key: PublicKey) -> None:
        """Each seat's view node of this history, made when first met."""
        cards = state.history()[:SEATS]
        for seat in range(SEATS):
            view = self.views.get((seat, cards[seat]))
            node = view.nodes.get(key) if view is not None else None
            if state.is_chance_node():
                # the public cards left differ with the opponent's card: the view has them all
                public = {card for card, _ in state.chance_outcomes()}
                legal = tuple(sorted(public | set(node.legal if node is not None else ())))
                if node is not None:
                    node.legal = legal
                    continue
                node = ViewNode("chance", key, legal=legal)
            elif node is not None:
                continue
            elif state.current_player() == seat:
                node = ViewNode("own", key, row=self.rows[state.information_state_string(seat)],
                                legal=tuple(state.legal_actions()))
            else:
                node = ViewNode("opponent", key, legal=tuple(state.legal_actions()))
            if view is None:
                view = self.views[(seat, cards[seat])] = View(seat, cards[seat], node, {})
            view.nodes[key] = node


def _bet(key: PublicKey, action: int) -> PublicKey:
    """The public key after a bet: it goes to the round under way."""
    public, round1, round2 = key
    return (public, round1 + (action,), round2) if public is None else (public, round1, round2 + (action,))


def _after(node: ViewNode, step: int) -> PublicKey:
    """The public key one step on from `node`: a bet, or the public card."""
    public, round1, round2 = node.key
    return (step, round1, round2) if node.kind == "chance" else _bet(node.key, step)
