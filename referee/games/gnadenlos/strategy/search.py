"""The Gnadenlos!-specific parts of the MCTS bot: the heuristic rollout policy
and the static evaluation used after a rollout depth cut-off.

Both read a determinized state the search sampled from its own observation,
never the true state of the match.
"""

from __future__ import annotations

import random
from typing import Final

from referee.games.base import Action, State
from referee.games.gnadenlos.actions import Bid
from referee.games.gnadenlos.cards import IOU_COLOUR, IOU_VALUE
from referee.games.gnadenlos.state import GnadenlosState

from referee.games.gnadenlos.strategy.policy import bid_groups
from referee.games.gnadenlos.strategy.rollout import rollout_choice
from referee.games.gnadenlos.strategy.values import CARD_VALUE

NUGGET_WEIGHT: Final = 0.5
"""A spare nugget is worth about half a field: it buys one later (G-7.1), at
most five a turn, and only breaks ties at the end (G-9.4)."""
CARD_WEIGHT: Final = 0.3
"""Adventurers in hand are future event winnings (G-5)."""


def heuristic_rollout(state: State, seat: int, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """The heuristic's choice for `seat` in a determinized state."""
    if len(legal) == 1:
        return legal[0]
    assert isinstance(state, GnadenlosState)
    action: Action = rollout_choice(state, seat, legal)
    return action


def candidates(state: State, seat: int, legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """Bids of equal total and card count are alike (G-6.2: only the total
    ranks a bid; the count decides how fast the market fills, G-8.1), so only
    the one costing the seat least of its own colour is searched."""
    if not legal or not isinstance(legal[0], Bid):
        return legal
    return bid_groups(legal, seat).bids


def evaluate(state: State) -> list[float]:
    """G-9.4 extended to an unfinished match: field first, then what nuggets
    (net of the seat's IOUs in the market, G-8.2) and adventurers will buy;
    three vultures rank last."""
    assert isinstance(state, GnadenlosState)
    exposure = [0] * state.n
    for row in state.market:
        for card in row:
            if card >= 0:
                exposure[IOU_COLOUR[card]] += IOU_VALUE[card]
    scores = []
    for s in range(state.n):
        if state.vultures[s] >= state.cfg.vultures_to_lose:
            scores.append(-1000.0)
            continue
        cards = sum(CARD_VALUE[c] for c in state.adv_hands[s])
        scores.append(state.fields[s] + NUGGET_WEIGHT * (state.nuggets[s] - exposure[s]) + CARD_WEIGHT * cards)
    return scores
