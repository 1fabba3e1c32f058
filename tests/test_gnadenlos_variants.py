"""Rule tests of the reviewer's two fixes as variants: the soft gunfight
(G-5.11) and the single-card auction (G-6.7, with its options G-6.7.1 and
G-6.7.4), from hand-written scenarios through the engine's public API; and
how a variant is named, checked and stored (scenarios carry every flag).

IOUs are (colour, value); colours are seats (red 0, green 1, blue 2, yellow 3).
"""

from __future__ import annotations

from typing import Any

import pytest

from gnadenlos_support import BLUE, GAME, GREEN, RED, YELLOW, act, kinds, load, scenario_json
from referee.games import IllegalActionError, load_game
from referee.games.gnadenlos.actions import Bid, BidPosition, Commit, OptOut, Order, Pick
from referee.games.gnadenlos.cards import ADVENTURERS, AUCTION_VALUE
from referee.games.gnadenlos.state import GnadenlosState
from referee.games.scenario import ScenarioError

SINGLE = {"auction": "single"}
BEST = {"auction": "single", "auction_order": "best"}
GAMBLIN_JAY, JOHN_DIGGER, JOKE_GREENHORN, JENNY_CASSIDY = 22, 26, 9, 7
POKER_PAUL, JOSHUA_TREE, JESSE_FRANK = 0, 8, 18


def _hands(state: GnadenlosState) -> list[list[int]]:
    return [sorted(c for c, _ in hand) for hand in state.to_json()["adventurers"]["hands"]]


def _market_cards(state: GnadenlosState) -> list[tuple[int, int]]:
    return [(e[0], e[1]) for row in state.to_json()["ious"]["market"] for e in row if e]


# ------------------------------------------------------------------ G-5.11


def test_after_an_opt_out_the_losers_step_back_and_keep_their_card_G_5_11() -> None:
    """G-5.11: red opts out (G-5.10: one field back); green's Lucky James (gun
    4) beats blue's Jonas Smiley (gun 1). Blue is not shot: one field back,
    and the adventurer returns to hand; the winner's card is discarded as
    ever (G-5.9)."""
    state = load("soft_gunfight")
    assert state.legal_actions(RED) == (Commit(1), OptOut())  # G-5.10 holds under soft
    events = state.apply({RED: OptOut(), GREEN: Commit(25), BLUE: Commit(20)})
    full = state.to_json()
    assert full["fields"] == [5, 6, 5, 6]
    assert full["adventurers"]["discard"] == [25]
    assert _hands(state)[BLUE] == [20]
    assert [(e.data["seat"], e.data["card"]) for e in events if e.kind == "spared"] == [(BLUE, 20)]


def test_without_an_opt_out_the_losers_are_shot_as_usual_G_5_11() -> None:
    """G-5.11 applies only in a High Noon in which someone opted out: with all
    three taking part, blue (gun 1) is shot (G-5.7) and nobody steps back."""
    state = load("soft_gunfight")
    state.apply({RED: Commit(1), GREEN: Commit(25), BLUE: Commit(20)})
    full = state.to_json()
    assert full["fields"] == [6, 6, 6, 6]
    assert sorted(full["adventurers"]["discard"]) == [1, 20]  # the winner, and the shot
    assert _hands(state)[BLUE] == []


def test_gunfight_opt_out_on_still_shoots_after_an_opt_out_G_5_10() -> None:
    """The same High Noon under `on` (G-5.10 alone): blue is shot."""
    state = load("soft_gunfight", variant={"gunfight_opt_out": "on"})
    state.apply({RED: OptOut(), GREEN: Commit(25), BLUE: Commit(20)})
    assert sorted(state.to_json()["adventurers"]["discard"]) == [20, 25]
    assert state.to_json()["fields"] == [5, 6, 6, 6]


# ------------------------------------------------------------ G-6.7.1 order


def test_the_rulebook_card_values_21_16_7_G_6_7_1() -> None:
    """G-6.7.1: twice the best rating plus the other two: Gamblin Jay 4/5/6
    is worth 21, John Digger 6/1/3 16, Joke Greenhorn 2/1/2 7."""
    assert (ADVENTURERS[GAMBLIN_JAY].name, AUCTION_VALUE[GAMBLIN_JAY]) == ("Gamblin Jay", 21)
    assert (ADVENTURERS[JOHN_DIGGER].name, AUCTION_VALUE[JOHN_DIGGER]) == ("John Digger", 16)
    assert (ADVENTURERS[JOKE_GREENHORN].name, AUCTION_VALUE[JOKE_GREENHORN]) == ("Joke Greenhorn", 7)


def test_best_order_auctions_21_then_16_then_7_G_6_7_1() -> None:
    """G-6.7.1 `best`: revealed as Joke Greenhorn, John Digger, Gamblin Jay,
    the cards are auctioned from the most valuable down (21, 16, 7), with no
    decision since no values tie; every seat sees the order."""
    state = load("single_auction", variant=BEST)
    order = [GAMBLIN_JAY, JOHN_DIGGER, JOKE_GREENHORN]
    assert state.phase == "bid_position"
    assert [u[0] for u in state.units] == order
    assert [AUCTION_VALUE[c] for c in order] == [21, 16, 7]
    for seat in range(4):
        assert [u[0] for u in state.observe(seat).units] == order


def test_first_order_auctions_the_cards_as_revealed_G_6_7_1() -> None:
    state = load("single_auction")
    assert [u[0] for u in state.units] == [JOKE_GREENHORN, JOHN_DIGGER, GAMBLIN_JAY]


def test_tied_values_are_ordered_by_the_active_player_G_6_7_1() -> None:
    """G-6.7.1: Jenny Cassidy and John Digger are both worth 16: the active
    player picks which comes first (the decision `order`, offering only the
    tied cards); the other follows without a decision, Joke Greenhorn (7) last."""
    state = load("single_auction", variant=BEST,
                 adventurers={"hands": [[15], [16], [17], [20]], "deck": [JENNY_CASSIDY, JOHN_DIGGER, JOKE_GREENHORN]})
    assert state.phase == "order" and state.to_act() == {RED}
    assert state.legal_actions(RED) == (Order(JOHN_DIGGER), Order(JENNY_CASSIDY))
    events = act(state, Order(JENNY_CASSIDY))
    assert [e.data["cards"] for e in events if e.kind == "auction_order"] == [
        [JENNY_CASSIDY, JOHN_DIGGER, JOKE_GREENHORN]]
    assert state.phase == "bid_position"


def test_a_three_way_tie_asks_one_pick_at_a_time_G_6_7_1() -> None:
    """G-6.7.1: Poker Paul, Joshua Tree and Jesse Frank are all worth 17: two
    picks (three cards, then the two left), the last placed without one."""
    state = load("single_auction", variant=BEST,
                 adventurers={"hands": [[15], [16], [17], [20]], "deck": [POKER_PAUL, JOSHUA_TREE, JESSE_FRANK]})
    assert set(state.legal_actions(RED)) == {Order(POKER_PAUL), Order(JOSHUA_TREE), Order(JESSE_FRANK)}
    act(state, Order(JOSHUA_TREE))
    assert set(state.legal_actions(RED)) == {Order(POKER_PAUL), Order(JESSE_FRANK)}
    act(state, Order(POKER_PAUL))
    assert [u[0] for u in state.units] == [JOSHUA_TREE, POKER_PAUL, JESSE_FRANK]
    assert state.phase == "bid_position"


def test_order_is_never_asked_under_first_G_6_7_1() -> None:
    state = load("single_auction", adventurers={"hands": [[15], [16], [17], [20]],
                                                "deck": [JENNY_CASSIDY, JOHN_DIGGER, JOKE_GREENHORN]})
    assert state.phase == "bid_position"
    assert [u[0] for u in state.units] == [JOKE_GREENHORN, JOHN_DIGGER, JENNY_CASSIDY]


# ----------------------------------------------- G-6.7.2 to G-6.7.4 bidding


def test_bid_position_first_or_last_the_others_clockwise_from_the_left_G_6_7_2() -> None:
    for first, order in ((True, [RED, GREEN, BLUE, YELLOW]), (False, [GREEN, BLUE, YELLOW, RED])):
        state = load("single_auction")
        assert state.legal_actions(RED) == (BidPosition(True), BidPosition(False))
        act(state, BidPosition(first))
        assert state.phase == "bid" and state.to_act() == {order[0]}
        assert state.to_json()["bid_order"] == order
        assert state.observe(YELLOW).bid_order == tuple(order)  # public (G-10)


def test_one_card_at_a_time_buyers_sit_out_under_buy_limit_one_G_6_7_3_G_6_7_4() -> None:
    """G-6.7.3: the highest bid takes the card and pays into the market, the
    others take their bids back; each card is a new auction (a total bid on
    an earlier card may be bid again). G-6.7.4 `one`: a buyer sits out the
    later cards; when the active player has bought, no bid position is asked
    and the rest bid clockwise from its left (G-6.7.2)."""
    state = load("single_auction")
    act(state, BidPosition(False))
    act(state, Bid(((GREEN, 4),)))
    act(state, Bid(((BLUE, 3),)))
    act(state, Bid(((YELLOW, 2),)))
    events = act(state, Bid(((RED, 1),)))
    assert [(e.data["seat"], e.data["cards"]) for e in events if e.kind == "picked"] == [(GREEN, [JOKE_GREENHORN])]
    assert sorted(e.data["seat"] for e in events if e.kind == "bid_returned") == [RED, BLUE, YELLOW]
    assert _market_cards(state)[4:] == [(GREEN, 4)]
    # John Digger: green has bought and sits out.
    assert state.phase == "bid_position" and state.to_json()["bid_order"] == [BLUE, YELLOW, RED]
    act(state, BidPosition(True))
    assert Bid(((RED, 4),)) in state.legal_actions(RED)  # 4 was bid on the earlier card
    act(state, Bid(((RED, 4),)))
    act(state, Bid(((BLUE, 1),)))
    act(state, Bid(((YELLOW, 3),)))
    assert _hands(state)[RED] == [15, JOHN_DIGGER]
    # Gamblin Jay: red (active) has bought: no bid position, blue then yellow.
    assert state.phase == "bid" and state.to_json()["bid_order"] == [BLUE, YELLOW]
    act(state, Bid(((BLUE, 0),)))
    act(state, Bid(((YELLOW, 1),)))
    assert _hands(state) == [[15, JOHN_DIGGER], [JOKE_GREENHORN, 16], [17], [20, GAMBLIN_JAY]]
    assert _market_cards(state)[4:] == [(GREEN, 4), (RED, 4), (YELLOW, 1)]


def test_under_buy_limit_many_buyers_bid_again_G_6_7_4() -> None:
    state = load("single_auction", variant={"auction": "single", "auction_buy_limit": "many"})
    act(state, BidPosition(False))
    act(state, Bid(((GREEN, 4),)))
    act(state, Bid(((BLUE, 3),)))
    act(state, Bid(((YELLOW, 2),)))
    act(state, Bid(((RED, 1),)))
    assert state.phase == "bid_position" and state.to_json()["bid_order"] == [GREEN, BLUE, YELLOW, RED]


def test_a_pick_is_never_asked_in_a_single_card_auction_G_6_7_3() -> None:
    state = load("single_auction")
    act(state, BidPosition(True))
    with pytest.raises(IllegalActionError):
        state.apply({RED: Pick((JOKE_GREENHORN,))})


def _empty_hands_market(seats: int) -> list[list[Any]]:
    """Every IOU of every colour in the market, face down: nobody can bid."""
    cards: list[Any] = [[colour, value, []] for colour in range(seats) for value in (0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4)]
    rows = [cards[i:i + 6] for i in range(0, len(cards), 6)]
    rows[-1] += [None] * (6 - len(rows[-1]))
    return rows


def test_when_all_pass_the_first_passer_takes_the_card_free_G_6_7_3() -> None:
    """G-6.7.3 with G-6.3: nobody holds an IOU, so everyone passes; the
    highest-ranked passer, the earliest in the bidding order, takes the card
    and pays nothing. Red bids last on the first card (green takes it), first
    on the second (red takes it)."""
    state = load("single_auction", seats=3, adventurers={"hands": [[15], [16], [17]], "deck": [JOHN_DIGGER, 9]},
                 ious={"market": _empty_hands_market(3)})
    events = act(state, BidPosition(False))
    assert kinds(events).count("passed") == 3
    assert [(e.data["seat"], e.data["slots"]) for e in events if e.kind == "picked"] == [(GREEN, [])]
    assert state.to_json()["bid_order"] == [BLUE, RED]
    events = act(state, BidPosition(True))
    assert [(e.data["seat"], e.data["slots"]) for e in events if e.kind == "picked"] == [(RED, [])]
    assert _hands(state)[:2] == [[15, JOHN_DIGGER], [9, 16]]


def test_the_payday_check_follows_the_last_card_G_6_7_5() -> None:
    """G-6.7.5: the first card's payment completes the third row of a
    three-seat market, but the payday waits until the last card is sold."""
    rows: list[list[Any]] = [[[c, v, []] for c, v in row] for row in (
        [(0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
        [(0, 3), (1, 3), (2, 3), (0, 1), (1, 1), (2, 1)],
    )]
    rows.append([[0, 0, []], [1, 0, []], [2, 0, []], [0, 1, []], [1, 1, []], None])
    state = load("single_auction", seats=3, adventurers={"hands": [[15], [16], [17]], "deck": [JOHN_DIGGER, 9]},
                 ious={"market": rows})
    act(state, BidPosition(True))
    act(state, Bid(((RED, 4),)))
    act(state, Bid(((GREEN, 2),)))
    events = act(state, Bid(((BLUE, 3),)))
    assert "picked" in kinds(events) and "payday" not in kinds(events)
    assert state.phase == "bid"  # the second card: red has bought, green and blue bid
    act(state, Bid(((GREEN, 4),)))
    events = act(state, Bid(((BLUE, 2),)))
    assert kinds(events).index("picked") < kinds(events).index("payday")


def test_the_advanced_setups_opening_auction_is_unchanged_G_6_7() -> None:
    """G-6.7 leaves G-2.6's opening auction alone: pairs, everyone bids from
    the start player on and everyone picks."""
    state = load_game(GAME.name, {"setup": "advanced", **BEST}).new_state(4, 5)
    assert isinstance(state, GnadenlosState)
    assert state.phase == "bid" and all(len(unit) == 2 for unit in state.units)
    assert len(state.to_json()["bid_order"]) == 4
    while state.phase == "bid":
        (seat,) = state.to_act()
        state.apply({seat: state.legal_actions(seat)[0]})
    assert state.phase == "pick"


# --------------------------------------------------------- naming a variant


def test_every_flag_round_trips_through_a_scenario() -> None:
    variant = {"setup": "advanced", "gunfight_opt_out": "soft", "auction": "single",
               "auction_order": "best", "auction_buy_limit": "many"}
    state = load_game(GAME.name, variant).new_state(3, 7)
    assert isinstance(state, GnadenlosState)
    assert state.to_json()["variant"] == variant
    restored = GAME.state_from_json(state.to_json())
    assert restored.to_json() == state.to_json()
    assert load("single_auction").to_json()["variant"] == {
        "setup": "standard", "gunfight_opt_out": "off", "auction": "single", "auction_order": "first",
        "auction_buy_limit": "one"}


@pytest.mark.parametrize(("variant", "says"), [
    ({"auction_order": "best"}, "auction_order applies only with auction=single"),
    ({"auction": "standard", "auction_buy_limit": "many"}, "auction_buy_limit applies only with auction=single"),
    ({"auction_style": "single"}, "no variant option 'auction_style'"),
    ({"auction": "dutch"}, "variant auction must be one of ['standard', 'single'], not 'dutch'"),
    ({"gunfight_opt_out": "hard"}, "must be one of ['off', 'on', 'soft']"),
])
def test_a_bad_variant_is_refused_listing_what_is_allowed(variant: dict[str, str], says: str) -> None:
    with pytest.raises(ValueError, match="must be one of|the options are") as error:
        load_game(GAME.name, variant).new_state(4, 1)
    assert says in str(error.value)
    if "options are" in str(error.value):
        assert "auction_order=first|best (with auction=single)" in str(error.value)


def test_a_scenario_with_a_bad_variant_names_the_option_and_rule() -> None:
    with pytest.raises(ScenarioError) as error:
        GAME.state_from_json(scenario_json("single_auction", variant={"auction_buy_limit": "one"}))
    assert (error.value.field, error.value.rule) == ("variant.auction_buy_limit", "G-6.7.4")


def test_the_full_variant_names_the_auction_options_only_under_single() -> None:
    assert GAME.make_rule_set({}).options == {"setup": "standard", "gunfight_opt_out": "off", "auction": "standard"}
    assert GAME.make_rule_set(SINGLE).options["auction_order"] == "first"
    assert GAME.make_rule_set(GAME.make_rule_set(BEST).options) == GAME.make_rule_set(BEST)


_AT_AUCTION = {"todo": [], "adventurers": {"hands": [[15], [16], [17], [20]], "units": [[7], [26], [9]], "deck": []}}


@pytest.mark.parametrize(("fields", "field", "rule"), [
    ({"variant": BEST, "phase": "order", **_AT_AUCTION}, "ordered", "G-6.7.1, G-11"),  # every card placed
    ({"variant": SINGLE, "phase": "order", "ordered": 0, **_AT_AUCTION}, "phase", "G-6.7.1"),  # order is `first`
    ({"variant": {}, "phase": "bid_position", "bid_order": [1, 2, 3, 0], **_AT_AUCTION}, "phase", "G-6.7"),
    ({"phase": "bid", "bid_order": [2, 1, 3, 0], **_AT_AUCTION}, "bid_order", "G-6.7.2"),
    ({"todo": ["payday_check", "lot"], "bought": [0, 1, 2], "ordered": 1,
      "adventurers": {"hands": [[15], [16], [17], [20]], "units": [[9]]}}, "bought", "G-6.7, G-6.1"),
])
def test_unreachable_single_auction_states_are_refused(fields: dict[str, Any], field: str, rule: str) -> None:
    """What a scenario may not say about G-6.7 (docs/engine.md): the error
    names the field and the rule."""
    with pytest.raises(ScenarioError) as error:
        GAME.state_from_json(scenario_json("single_auction", **fields))
    assert (error.value.field, error.value.rule) == (field, rule), str(error.value)
