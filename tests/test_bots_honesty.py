"""Honesty (G-10): a bot's decision cannot depend on what its seat cannot see.

Two true states that give the seat the same observation but differ in hidden
cards (other hands, face-down market IOUs, deck order) must get the same
decision from the same seed and iteration count. The check is shown to
catch a real leak: an MCTS bot whose search is handed the true state (as a
bot would be if an observation or a side channel carried the hidden cards)
decides differently between the twins, and the check says so.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from referee.games import Observation, State
from referee.games.gnadenlos.game import Gnadenlos
from referee.games.gnadenlos.state import GnadenlosState

from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from bots.mcts.search import ISMCTS
from bots.sdk import Bot
from tests.bots_support import GAME, decide

POSITIONS = [(1, 0), (2, 6), (3, 15), (4, 24), (5, 33)]
"""(seed, decisions played by heuristic bots before the seat decides)."""

BotFactory = Callable[[GnadenlosState], Bot]
"""Makes the bot that decides in one twin; an honest factory ignores the twin."""


def _position(seed: int, decisions: int) -> GnadenlosState:
    """A match played by heuristic bots for a number of decisions."""
    state = GAME.new_state(4, seed)
    assert isinstance(state, GnadenlosState)
    bot = HeuristicBot()
    for _ in range(decisions):
        state.apply({s: decide(bot, state, s) for s in state.to_act()})
    return state


def _hidden(state: GnadenlosState, seat: int) -> tuple[object, ...]:
    """What `seat` cannot see: the others' hands, the market cards, the decks."""
    others = tuple(tuple(sorted(h)) for s, h in enumerate(state.adv_hands) if s != seat)
    return others, tuple(map(tuple, state.market)), tuple(state.adv_deck), tuple(state.event_deck)


def _twins(seed: int, decisions: int) -> tuple[int, list[GnadenlosState]]:
    """A deciding seat and two true states it cannot tell apart."""
    played = _position(seed, decisions)
    seat = min(played.to_act())
    observation = played.observe(seat)
    twins = []
    for key in (100, 200):
        twin = GAME.determinize(observation, random.Random(key))
        assert isinstance(twin, GnadenlosState) and twin.observe(seat) == observation
        twins.append(twin)
    assert _hidden(twins[0], seat) != _hidden(twins[1], seat), "the twins must differ in hidden cards"
    return seat, twins


def leaked_positions(factory: BotFactory, positions: Sequence[tuple[int, int]] = POSITIONS) -> list[int]:
    """The positions (indexes) where the bot decided differently between two
    twins: each one is a decision that depended on hidden cards."""
    leaks = []
    for index, (seed, decisions) in enumerate(positions):
        seat, twins = _twins(seed, decisions)
        choices = [decide(factory(twin), twin, seat) for twin in twins]
        if choices[0] != choices[1]:
            leaks.append(index)
    return leaks


class _TrueStateRules(Gnadenlos):
    """Rules whose determinization is the true state itself: what a search
    would get if the hidden cards leaked to it."""

    def __init__(self, truth: State) -> None:
        super().__init__()
        self.truth = truth

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        return self.truth.clone()


class _PeekingMcts(MctsBot):
    """An MCTS bot handed the true state of the match: a leak on purpose."""

    def __init__(self, truth: State, **options: Any) -> None:
        super().__init__(**options)
        self.truth = truth

    def _search_for(self, game: str, player: Any, rng: random.Random) -> ISMCTS:
        search = super()._search_for(game, player, rng)
        search.game = _TrueStateRules(self.truth)
        return search


@pytest.mark.parametrize("bot", ["mcts", "heuristic"])
def test_same_observation_same_decision(bot: str) -> None:
    honest: BotFactory = ((lambda twin: MctsBot(iterations=40, seed=5)) if bot == "mcts"
                          else (lambda twin: HeuristicBot()))
    assert leaked_positions(honest) == []


def test_the_check_catches_a_bot_that_sees_hidden_cards() -> None:
    leaks = leaked_positions(lambda twin: _PeekingMcts(twin, iterations=40, seed=5))
    assert leaks, "a search over the true state must decide differently somewhere: the check would miss a leak"
