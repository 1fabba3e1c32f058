"""The built-in bots under the variants G-5.11 and G-6.7: the heuristic's
rules for the single-card auction's decisions (docs/bots.md) and the MCTS
bot answering them, from hand-written scenarios; and a whole in-process match
of each bot under every option."""

from __future__ import annotations

from typing import Any

import pytest

from bots.heuristic import HeuristicBot
from bots.mcts import MctsBot
from bots.random import RandomBot
from gnadenlos_support import RED, load
from referee.games.gnadenlos.actions import BidPosition, Order
from referee.games.gnadenlos.strategy.values import CARD_VALUE
from referee.games import load_game
from referee.match import play_bots
from tests.bots_support import decide

BEST = {"auction": "single", "auction_order": "best"}
JENNY_CASSIDY, JOHN_DIGGER, JOKE_GREENHORN = 7, 26, 9
EVERY_OPTION = {"gunfight_opt_out": "soft", "auction": "single", "auction_order": "best", "auction_buy_limit": "one"}


def _no_iou_market() -> list[list[Any]]:
    """Every IOU of three colours in the market: nobody can bid."""
    cards: list[Any] = [[c, v, []] for c in range(3) for v in (0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4)]
    rows = [cards[i:i + 6] for i in range(0, len(cards), 6)]
    rows[-1] += [None] * (6 - len(rows[-1]))
    return rows


def test_the_heuristic_bids_last_when_it_can_bid_G_6_7_2() -> None:
    state = load("single_auction")
    assert decide(HeuristicBot(), state, RED) == BidPosition(False)


def test_the_heuristic_bids_first_when_it_has_no_iou_G_6_7_2_G_6_7_3() -> None:
    """With no IOU it can only pass; the first passer takes the card if all pass."""
    state = load("single_auction", seats=3, adventurers={"hands": [[15], [16], [17]], "deck": [JOHN_DIGGER, 9]},
                 ious={"market": _no_iou_market()})
    assert decide(HeuristicBot(), state, RED) == BidPosition(True)


def test_the_heuristic_auctions_the_tied_card_it_wants_less_first_G_6_7_1() -> None:
    state = load("single_auction", variant=BEST, adventurers={
        "hands": [[15], [16], [17], [20]], "deck": [JENNY_CASSIDY, JOHN_DIGGER, JOKE_GREENHORN]})
    assert CARD_VALUE[JENNY_CASSIDY] < CARD_VALUE[JOHN_DIGGER]
    assert decide(HeuristicBot(), state, RED) == Order(JENNY_CASSIDY)


@pytest.mark.parametrize("variant", [BEST, {"auction": "single"}])
def test_the_mcts_bot_answers_the_auctions_decisions_legally(variant: dict[str, str]) -> None:
    state = load("single_auction", variant=variant, adventurers={
        "hands": [[15], [16], [17], [20]], "deck": [JENNY_CASSIDY, JOHN_DIGGER, JOKE_GREENHORN]})
    bot = MctsBot(iterations=60, seed=3)
    while state.phase in ("order", "bid_position"):
        action = decide(bot, state, RED)
        assert action in state.legal_actions(RED)
        state.apply({RED: action})
    assert state.phase == "bid"


@pytest.mark.parametrize("seats", [3, 4])
def test_every_bot_plays_a_whole_match_under_every_option(seats: int) -> None:
    bots = [HeuristicBot(), MctsBot(iterations=10, seed=1), RandomBot(2), HeuristicBot()][:seats]
    result = play_bots(bots, 21, game=load_game("gnadenlos", EVERY_OPTION), move_time=10.0)
    assert result.end_reason in ("vultures", "undertaker", "goal", "safety_valve")
    assert all(seat.decisions > 0 for seat in result.seats)
