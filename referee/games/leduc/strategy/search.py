"""The Leduc poker parts of the MCTS bot: the heuristic as rollout policy, the
seat's key in the tree, and the evaluation of a rollout cut off before the end.

They read a determinized state the search sampled from its own observation
(`game.determinize`: the other seats' cards dealt at random), never the true
state of the match. In a rollout each seat plays the heuristic from its own
card in that imagined world.
"""

from __future__ import annotations

import random

from referee.games.base import Action, State
from referee.games.leduc.cards import rank
from referee.games.leduc.state import NO_CARD, LeducState
from referee.games.leduc.strategy.equity import win_chance
from referee.games.leduc.strategy.policy import View, rollout_decide


def view_of(state: LeducState, seat: int) -> View:
    """The heuristic's view of `seat` in a (determinized) state: its own card, the public one."""
    return View(
        players=state.players,
        card=state.hands[seat],
        public=None if state.public == NO_CARD else state.public,
        to_call=state.stakes - state.contributions[seat],
        pot=state.pot,
        opponents=state.remaining - 1,
    )


def rollout(state: State, seat: int, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """The heuristic with a little randomness (policy.BLUFF), as rollout policy and tree hint."""
    assert isinstance(state, LeducState)
    return rollout_decide(view_of(state, seat), legal, rng)


def candidates(state: State, seat: int, legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """Every legal action: none of the three moves is dominated."""
    return legal


def seat_key(state: State, seat: int) -> int:
    """A seat plays by the rank of its private card (suits never matter, L-5.2):
    in the tree, an opponent's choices with a king and with a jack keep
    separate statistics, so the search models play that depends on the card."""
    assert isinstance(state, LeducState)
    return rank(state.hands[seat])


def evaluate(state: State) -> list[float]:
    """Each seat's expected chips at a rollout cut-off: its share of the pot
    by its chance to win the showdown (its own card in this determinization
    against the seats still in), less what it has put in."""
    assert isinstance(state, LeducState)
    public = None if state.public == NO_CARD else state.public
    live = [s for s in range(state.players) if not state.folded[s]]
    chances = {s: win_chance(state.hands[s], public, state.players, len(live) - 1) for s in live}
    total = sum(chances.values()) or 1.0
    return [state.pot * chances[s] / total - state.contributions[s] if s in chances else -state.contributions[s]
            for s in range(state.players)]
