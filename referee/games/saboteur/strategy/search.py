"""The Saboteur-specific parts of the MCTS bot: the heuristic rollout policy,
the candidate actions worth searching, and the estimate of each seat's reward
when a rollout is cut off.

All of them read a determinized state the search sampled from its own
observation (`game.determinize`: the unseen roles, hands, goals and the
set-aside dwarf card dealt at random), never the true state of the match. In
a rollout each seat plays the heuristic from what *it* knows in that imagined
world (referee/games/saboteur/strategy/view.py), using the searching bot's public
suspicion scores.
"""

from __future__ import annotations

import bisect
import itertools
import math
import random
from collections.abc import Sequence

from referee.games.base import Action, Observation, State
from referee.games.saboteur.actions import BreakTool, Map
from referee.games.saboteur.cards import GOLD_CARD, SABOTEUR, SABOTEUR_CARDS, VALUE
from referee.games.saboteur.config import DEFAULT_CONFIG
from referee.games.saboteur.observation import SaboteurObservation
from referee.games.saboteur.state import SaboteurState

from referee.games.saboteur.strategy import policy
from referee.games.saboteur.strategy.view import tunnel_from_state, view_from_state
from referee.games.saboteur.strategy.tunnel import GOAL_CELLS

GOLD_LOGIT = (-0.62, -0.257, 0.0893, -0.0155)
"""The chance the gold-diggers reach the gold this round, as a logistic model:
(bias, per card of tunnel still needed (Manhattan distance from the nearest
open end), per turn left times the share of seats that are gold-diggers with
whole tools, per turn left times the share of saboteurs). Fitted by logistic
regression on 5,845 positions of heuristic self-play, 3 to 10 seats
(log-loss 0.577 against 0.693 for the base rate)."""
SUSPICION_LIMIT = 4.0
"""Largest log-odds a suspicion score moves a seat's weight by."""
ROUND_SPREAD = 1.0
"""Spread of a seat's nugget total per round still to play: small enough that
a move which shifts the chance of the gold by a few percent still shows in
the reward."""


class SaboteurPlayout:
    """The heuristic as rollout policy and tree hint, with the suspicion scores
    of the searching bot (set before each search)."""

    def __init__(self) -> None:
        self.suspicion: Sequence[float] = ()

    def __call__(self, state: State, seat: int, legal: tuple[Action, ...], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        assert isinstance(state, SaboteurState)
        suspicion = self.suspicion if len(self.suspicion) == state.n else [0.0] * state.n
        action: Action = policy.decide(view_from_state(state, seat, suspicion), legal)
        return action


def candidates(state: State, seat: int, legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """Drop what is never better than a discard: breaking one's own tool
    (S-5.1 allows it) and a map on a goal the seat already knows (S-5.4)."""
    assert isinstance(state, SaboteurState)
    bit = 1 << seat
    kept = tuple(
        a for a in legal
        if not (isinstance(a, BreakTool) and a.target == seat)
        and not (isinstance(a, Map) and state.known[state.goals[GOAL_CELLS.index((a.x, a.y))]] & bit)
    )
    return kept or legal


def gold_chance(state: SaboteurState) -> float:
    """The chance the gold-diggers reach the gold this round (S-6.1): the cards
    of tunnel still needed to the gold (where this determinization put it)
    against the turns left (one card each, S-3), with gold-diggers whose tools
    are whole digging and saboteurs blocking (GOLD_LOGIT)."""
    n = state.n
    gold = GOAL_CELLS[state.goals.index(GOLD_CARD)]
    needed = tunnel_from_state(state).distances(gold, None)[0]
    turns = len(state.pile) + sum(len(h) for h in state.hands)
    saboteurs = sum(1 for c in state.roles if c in SABOTEUR_CARDS)
    diggers = sum(1 for s, c in enumerate(state.roles) if c not in SABOTEUR_CARDS and not state.broken[s])
    bias, per_card, per_digger_turn, per_saboteur_turn = GOLD_LOGIT
    logit = bias + per_card * needed + (per_digger_turn * diggers + per_saboteur_turn * saboteurs) * turns / n
    return 1.0 / (1.0 + math.exp(-logit))


def expected_totals(state: SaboteurState) -> list[float]:
    """Each seat's nugget total after this round, in expectation (S-6.3, S-6.4):
    the gold-diggers share the cards drawn if the gold is reached, each
    saboteur takes its amount otherwise."""
    totals = [float(t) for t in state.totals()]
    if state.over:
        return totals
    p = gold_chance(state)
    saboteur = [c in SABOTEUR_CARDS for c in state.roles]
    diggers = state.n - sum(saboteur)
    supply = [VALUE[c] for c in state.supply]
    drawn = min(state.cfg.gold_draw(state.n), len(supply))
    digger_gain = drawn * (sum(supply) / len(supply)) / diggers if supply and diggers else 0.0
    saboteur_gain = float(state.cfg.saboteur_reward(sum(saboteur)))
    return [
        totals[s] + ((1 - p) * saboteur_gain if saboteur[s] else p * digger_gain)
        for s in range(state.n)
    ]


def estimate(state: State) -> list[float]:
    """S-7.2 at a rollout cut-off: each seat's expected share of the places
    below it, (n - 1 - expected place) / (n - 1), taking each seat's final total
    as its expected total now plus a normal spread for the rounds still to
    play. Smooth in the totals, so a move that only shifts the chance of
    reaching the gold still counts."""
    assert isinstance(state, SaboteurState)
    means = expected_totals(state)
    n = state.n
    sigma = ROUND_SPREAD * math.sqrt(state.cfg.rounds - state.round + 1)
    rewards = []
    for s in range(n):
        beats = sum(0.5 * (1 + math.erf((means[s] - means[t]) / (2 * sigma))) for t in range(n) if t != s)
        rewards.append(beats / (n - 1))
    return rewards


def seat_key(state: State, seat: int) -> bool:
    """A seat plays by its role (S-2.1): in the tree, its choices as a saboteur
    and as a gold-digger keep separate statistics."""
    assert isinstance(state, SaboteurState)
    return state.roles[seat] in SABOTEUR_CARDS


class RoleDeal:
    """Deals the dwarf cards the bot has not seen by its suspicion scores.

    `game.determinize` deals them uniformly over the other seats and the
    set-aside card (S-2.1). Before a search, `prepare` weighs every way to
    place the unseen saboteur cards on those slots by the product of the
    chosen seats' odds, exp(score) (the set-aside card at odds 1); each
    determinization is then dealt anew from that distribution. It changes
    only who holds which unseen dwarf card, so the state still gives the
    bot's seat its observation. With no scores it does nothing.
    """

    def __init__(self) -> None:
        self.slots: list[int] = []
        """Seats whose role the bot cannot see; -1 for the set-aside card."""
        self.combos: list[tuple[int, ...]] = []
        self.cumulative: list[float] = []

    def prepare(self, observation: SaboteurObservation, suspicion: Sequence[float]) -> None:
        n = observation.num_seats
        self.slots = [s for s in range(n) if observation.roles[s] is None]
        if observation.set_aside is None:
            self.slots.append(-1)
        self.combos, self.cumulative = [], []
        if len(suspicion) != n or not any(suspicion[s] for s in self.slots if s >= 0):
            return
        saboteurs = DEFAULT_CONFIG.role_counts(n)[1] - sum(1 for r in observation.roles if r == SABOTEUR)
        saboteurs -= observation.set_aside == SABOTEUR
        odds = [1.0 if s < 0 else math.exp(max(-SUSPICION_LIMIT, min(SUSPICION_LIMIT, suspicion[s])))
                for s in self.slots]
        total = 0.0
        for combo in itertools.combinations(range(len(self.slots)), saboteurs):
            total += math.prod(odds[i] for i in combo)
            self.combos.append(combo)
            self.cumulative.append(total)

    def __call__(self, state: State, observation: Observation, rng: random.Random) -> None:
        if not self.combos:
            return
        assert isinstance(state, SaboteurState)
        chosen = self.combos[bisect.bisect_right(self.cumulative, rng.random() * self.cumulative[-1])
                             if len(self.combos) > 1 else 0]
        cards = [state.set_aside if s < 0 else state.roles[s] for s in self.slots]
        saboteur_cards = [c for c in cards if c in SABOTEUR_CARDS]
        digger_cards = [c for c in cards if c not in SABOTEUR_CARDS]
        for i, slot in enumerate(self.slots):
            card = saboteur_cards.pop() if i in chosen else digger_cards.pop()
            if slot < 0:
                state.set_aside = card
                state.known[card] = 0
            else:
                state.roles[slot] = card
                state.known[card] = 1 << slot
