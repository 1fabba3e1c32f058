"""Honesty (G-10): the MCTS bot's decision cannot depend on what its seat cannot see.

Two true states that give the seat the same observation but differ in hidden
cards (other hands, face-down market IOUs, deck order) must get the same
decision from the same seed and iteration count.
"""

from __future__ import annotations

import random

import pytest

from referee.games.gnadenlos.state import GnadenlosState

from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from tests.bots_support import GAME, decide


def _position(seed: int, decisions: int) -> GnadenlosState:
    """A match played by heuristic bots for a number of decisions."""
    state = GAME.new_state(4, seed)
    bot = HeuristicBot()
    for _ in range(decisions):
        state.apply({s: decide(bot, state, s) for s in state.to_act()})
    return state


def _hidden(state: GnadenlosState, seat: int) -> tuple[object, ...]:
    """What `seat` cannot see: the others' hands, the market cards, the decks."""
    others = tuple(tuple(sorted(h)) for s, h in enumerate(state.adv_hands) if s != seat)
    return others, tuple(map(tuple, state.market)), tuple(state.adv_deck), tuple(state.event_deck)


@pytest.mark.parametrize(("seed", "decisions"), [(1, 0), (2, 6), (3, 15)])
def test_same_observation_same_decision(seed: int, decisions: int) -> None:
    played = _position(seed, decisions)
    seat = min(played.to_act())
    observation = played.observe(seat)
    twins = [GAME.determinize(observation, random.Random(k)) for k in (100, 200)]
    assert twins[0].observe(seat) == twins[1].observe(seat) == observation
    assert _hidden(twins[0], seat) != _hidden(twins[1], seat), "the twins must differ in hidden cards"
    choices = [decide(MctsBot(iterations=40, seed=5), twin, seat) for twin in twins]
    assert choices[0] == choices[1]
