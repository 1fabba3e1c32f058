"""Sanity: in hand-built positions with an obviously right move, each bot finds it.

G-5.6 (Gold Fever 7/4: only one card wins it, and a specialist is kept),
G-6 / G-8.1 / G-8.4 / G-9.1 (a bid that completes the rows with unpayable
IOUs on top brings a third vulture at once); for the heuristic also G-5.7
(take back its own highest IOU) and G-7 / G-8.4 (buy only with the nuggets
the market's IOUs leave free).
"""

from __future__ import annotations

import pytest

from referee.games.gnadenlos.actions import Buy, Commit, Take

from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from tests.bots_support import GAME, decide, scenario, scenario_json

DADDY_DIGGER = 28


def bots() -> list[tuple[str, object]]:
    return [
        ("heuristic", HeuristicBot()),
        ("mcts", MctsBot(iterations=150, seed=11)),
        # the search on its own, without the heuristic's hint in the tree
        ("mcts-unhinted", MctsBot(iterations=150, seed=12, hint_weight=0.0)),
    ]


@pytest.mark.parametrize(("label", "bot"), bots(), ids=[b[0] for b in bots()])
def test_commits_the_only_winner_of_gold_fever_7_4(label: str, bot: object) -> None:
    state = scenario("commit_gold_fever")
    assert decide(bot, state, 0) == Commit(DADDY_DIGGER)


@pytest.mark.parametrize(("label", "bot"), bots(), ids=[b[0] for b in bots()])
def test_avoids_the_bid_that_brings_a_third_vulture(label: str, bot: object) -> None:
    state = scenario("bid_vulture")
    bid = decide(bot, state, 0)
    assert len(bid.ious) == 1, f"{bid} completes the third row and loses the match"
    # the scenario is what it claims: every bid of two or more cards loses at once
    for wrong in (a for a in state.legal_actions(0) if len(a.ious) > 1):
        after = state.clone()
        after.apply({0: wrong})
        while after.turn == state.turn and not after.is_terminal():  # the picks, then the payday
            after.apply({s: after.legal_actions(s)[0] for s in after.to_act()})
        assert after.vultures[0] == 3


def test_heuristic_takes_back_its_own_highest_iou() -> None:
    """G-5.7: the red 4 lies in row 1, column 1 (0-based)."""
    state = scenario("take_own_iou")
    assert decide(HeuristicBot(), state, 0) == Take(1, 1)


@pytest.mark.parametrize(("nuggets", "steps"), [(10, 3), (7, 0), (20, 5)])
def test_heuristic_buys_only_what_the_market_leaves_free(nuggets: int, steps: int) -> None:
    """G-7.1 and G-8.4: 7 nuggets of red IOUs lie in the market."""
    obj = scenario_json("buy_reserve")
    obj["nuggets"] = [nuggets, 10, 10]
    state = GAME.state_from_json(obj)
    assert decide(HeuristicBot(), state, 0) == Buy(steps)
