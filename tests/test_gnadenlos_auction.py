"""Rule tests of auctions (G-6), market placement (G-3.3, G-3.5) and buying
prestige (G-7), from hand-written scenarios.

IOUs are (colour, value); colours are seats (red 0, green 1, blue 2, yellow 3).
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gnadenlos_support import BLUE, GREEN, RED, YELLOW, act, kinds, load
from referee.games import IllegalActionError
from referee.games.gnadenlos.actions import Bid, Buy, FinalBuy, Pick
from referee.games.gnadenlos.observation import HIDDEN
from referee.games.gnadenlos.state import GnadenlosState, bid_options


def _market(state: GnadenlosState) -> list[list[object]]:
    return [[None if e is None else tuple(e[:2]) for e in row] for row in state.to_json()["ious"]["market"]]


def _iou_hand(state: GnadenlosState, seat: int) -> Counter[tuple[int, int]]:
    return Counter(tuple(e[:2]) for e in state.to_json()["ious"]["hands"][seat])


def test_auction_rulebook_example_G_6_2_G_6_5() -> None:
    """G-6 (worked example): blue 5, yellow 3, red 4, green 6 in clockwise order
    from the active blue; green picks first, then blue, then red; yellow gets
    nothing and takes the bid back. G-6.4/G-3.3: each winner's cards go into the
    market in ascending value, filling the last row, then starting a new one."""
    state = load("auction_example")
    yellow_before = _iou_hand(state, YELLOW)
    assert state.to_act() == {BLUE}
    act(state, Bid(((BLUE, 1), (BLUE, 4))))
    assert state.to_act() == {YELLOW}
    act(state, Bid(((YELLOW, 3),)))
    act(state, Bid(((RED, 4),)))
    events = act(state, Bid(((GREEN, 2), (GREEN, 4))))
    assert "bid_returned" in kinds(events)
    assert _iou_hand(state, YELLOW) == yellow_before
    assert state.phase == "pick" and state.to_act() == {GREEN}
    assert state.legal_actions(GREEN) == (Pick((11,)), Pick((10,)), Pick((9,)))
    act(state, Pick((9,)))
    assert state.to_act() == {BLUE}
    events = act(state, Pick((10,)))
    picked = [(e.data["seat"], e.data["cards"]) for e in events if e.kind == "picked"]
    assert picked == [(BLUE, [10]), (RED, [11])]  # red's last choice is applied for it (G-11)
    hidden = [(0, 1), (1, 1), (2, 1), (3, 1)]
    market = _market(state)
    assert market[0] == [*hidden, (GREEN, 2), (GREEN, 4)]
    assert market[1] == [(BLUE, 1), (BLUE, 4), (RED, 4), None, None, None]
    hands = [[c for c, _ in hand] for hand in state.to_json()["adventurers"]["hands"]]
    assert hands == [[11], [9], [10], []]
    assert state.to_act() == {YELLOW} and state.phase == "buy"  # next turn, after a void Gold Fever


def test_bid_cards_become_known_and_market_knowledge_is_kept_G_3_5_G_6_6() -> None:
    """G-3.5: bid cards placed in the market are known to all with their slot;
    cards dealt at setup stay hidden. G-6.6: a bought adventurer is known to all
    in its buyer's hand."""
    state = load("auction_example")
    act(state, Bid(((BLUE, 1), (BLUE, 4))))
    act(state, Bid(((YELLOW, 3),)))
    act(state, Bid(((RED, 4),)))
    act(state, Bid(((GREEN, 2), (GREEN, 4))))
    act(state, Pick((9,)))
    act(state, Pick((10,)))
    for seat in range(4):
        seen = state.observe(seat)
        assert seen.market[0] == (HIDDEN, HIDDEN, HIDDEN, HIDDEN, (GREEN, 2), (GREEN, 4))
        assert seen.market[1][:3] == ((BLUE, 1), (BLUE, 4), (RED, 4))
        assert seen.adv_hands[GREEN].known == (9,)
        assert seen.adv_hands[RED].known == (11,)


def test_bid_totals_must_differ_from_earlier_bids_G_6_2() -> None:
    """G-6.2: 1 to 3 cards; a total already bid in this auction is not legal."""
    state = load("auction_example")
    first = state.legal_actions(BLUE)
    assert all(1 <= len(b.ious) <= 3 for b in first)
    assert {b.total for b in first} == set(range(0, 13))
    act(state, Bid(((BLUE, 1), (BLUE, 4))))
    second = state.legal_actions(YELLOW)
    assert {b.total for b in second} == set(range(0, 13)) - {5}
    with pytest.raises(IllegalActionError):
        act(state, Bid(((YELLOW, 1), (YELLOW, 4))))
    with pytest.raises(IllegalActionError):
        act(state, Bid(((YELLOW, 1), (YELLOW, 2), (YELLOW, 3), (YELLOW, 4))))
    with pytest.raises(IllegalActionError):
        act(state, Bid(((RED, 3),)))  # not in yellow's hand
    act(state, Bid(((YELLOW, 0),)))
    assert 0 not in {b.total for b in state.legal_actions(RED)}  # 0 can be bid once


def test_bids_are_sets_of_cards_G_6_4() -> None:
    """G-6.4: equal cards are interchangeable, so each set is offered once."""
    state = load("auction_example")
    bids = state.legal_actions(BLUE)
    assert len(bids) == len(set(bids))
    assert bids.count(Bid(((BLUE, 3), (BLUE, 3)))) == 1
    assert Bid(((BLUE, 3), (BLUE, 3), (BLUE, 3))) in bids
    assert Bid(((BLUE, 1), (BLUE, 1), (BLUE, 1))) not in bids  # one blue 1 lies in the market
    assert all(b.ious == tuple(sorted(b.ious)) for b in bids)


def test_pass_only_without_a_legal_bid_shows_the_hand_and_ranks_last_G_6_3() -> None:
    """G-6.3: green and blue hold only a 0 after red bid 0: each must pass and
    show the whole hand; a pass ranks below every bid, the earlier passer higher,
    so red and then green (a passer) win; blue gets nothing."""
    state = load("bids_and_passes")
    assert state.observe(RED).iou_hands[BLUE].unknown == 1
    assert Bid(((RED, 0),)) in state.legal_actions(RED)
    events = act(state, Bid(((RED, 0),)))
    passes = [(e.data["seat"], e.data["hand"]) for e in events if e.kind == "passed"]
    assert passes == [(GREEN, [[1, 0]]), (BLUE, [[2, 0]])]
    assert state.to_act() == {RED} and state.phase == "pick"
    act(state, Pick((2,)))
    hands = [[c for c, _ in hand] for hand in state.to_json()["adventurers"]["hands"]]
    assert hands == [[2], [3], []]
    assert _iou_hand(state, BLUE) == Counter({(2, 0): 1})
    assert [e for e in state.to_json()["ious"]["hands"][BLUE]] == [[2, 0, [0, 1, 2]]]
    assert _market(state) == [[(RED, 0), None, None, None, None, None]]


def test_a_player_with_a_legal_bid_cannot_pass_G_6_3() -> None:
    """G-6.3: bidding is compulsory while a legal bid exists."""
    state = load("auction_example")
    assert all(isinstance(a, Bid) and a.ious for a in state.legal_actions(BLUE))


def test_empty_deck_reshuffles_the_discards_G_6_1() -> None:
    """G-6.1: when the deck runs out the discard pile becomes the new deck."""
    state = load("auction_deck")
    full = state.to_json()
    assert full["adventurers"]["units"][0] == [15]
    assert sorted(u[0] for u in full["adventurers"]["units"][1:]) == [16, 17]
    assert full["adventurers"]["deck"] == [] and full["adventurers"]["discard"] == []


def test_fewer_adventurers_than_usual_G_6_1_G_6_5() -> None:
    """G-6.1/G-6.5: only one adventurer exists to reveal; only the top bidder
    receives it, everyone ranked below takes the bid back."""
    hands = [[0, 1], [2, 3, 4, 5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 16, 17, 18, 19, 20, 21, 22], [23, 24, 25, 26, 27, 28]]
    state = load("auction_deck", adventurers={"hands": hands, "deck": [15]})
    assert state.to_json()["adventurers"]["units"] == [[15]]
    act(state, Bid(((RED, 1),)))
    act(state, Bid(((GREEN, 4),)))
    act(state, Bid(((BLUE, 2),)))
    events = act(state, Bid(((YELLOW, 3),)))
    assert sorted(e.data["seat"] for e in events if e.kind == "bid_returned") == [RED, BLUE, YELLOW]
    assert [(e.data["seat"], e.data["cards"]) for e in events if e.kind == "picked"] == [(GREEN, [15])]
    assert _market(state) == [[(GREEN, 4), None, None, None, None, None]]


def test_no_adventurer_to_reveal_no_auction_G_6_5() -> None:
    """G-6.5: with nothing to reveal there is no auction; the turn goes on."""
    hands = [[0, 1], [2, 3, 4, 5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22], [23, 24, 25, 26, 27, 28]]
    state = load("auction_deck", adventurers={"hands": hands})
    full = state.to_json()
    assert full["adventurers"]["units"] == []
    assert full["active"] == GREEN  # red's turn ended without an auction


def test_no_auction_when_holding_three_adventurers_G_4() -> None:
    """G-4 phase 3: an active player holding 3 adventurers offers no auction."""
    hands = [[0, 1, 15], [2, 3, 4, 5, 6, 7, 8, 9, 10], [11, 12, 13, 14, 18, 19, 20, 21, 22], [23, 24, 25, 26, 27, 28]]
    state = load("auction_deck", adventurers={"hands": hands, "discard": [16, 17]})
    full = state.to_json()
    assert full["active"] == GREEN and full["adventurers"]["units"] == []


def test_buy_prestige_zero_to_five_within_nuggets_G_7_1() -> None:
    """G-7.1: 0 to 5 fields, one nugget each, never more than the nuggets held."""
    state = load("gold_fever_7_4", nuggets=[3, 10, 10, 10], event_revealed=[2, 1, 4], event_deck=[3, 4, 3, 0])
    assert state.phase == "buy"
    assert state.legal_actions(RED) == tuple(Buy(k) for k in range(5 + 1))  # 3 + 3 from Gold Fever 3/1
    state = load("gold_fever_7_4")
    assert state.legal_actions(RED) == tuple(Buy(k) for k in range(6))
    act(state, Buy(5))
    full = state.to_json()
    assert full["fields"][RED] == 11 and full["nuggets"][RED] == 12


def test_buy_is_skipped_without_nuggets_G_7_1_G_11() -> None:
    """G-7.1/G-11: with no nuggets the only choice, buying 0, is applied for the player."""
    state = load("no_event", active=0, nuggets=[0, 10, 10])
    assert state.phase == "bid"


def test_buying_to_field_30_ends_the_match_G_7_2_G_9_1() -> None:
    """G-7.2/G-9.1 end C: reaching field 30 or beyond by buying ends the match."""
    state = load("gold_fever_7_4", fields=[27, 6, 6, 6], nuggets=[10, 0, 0, 0])
    events = act(state, Buy(4))
    assert "match_ending" in kinds(events)
    assert state.to_json()["fields"][RED] == 31
    assert state.phase == "final_buy"
    while state.to_act():
        act(state, FinalBuy(0))
    assert state.outcome().reason == "goal"


def test_paid_cards_go_in_ascending_value_equal_values_by_colour_G_6_4_G_3_3() -> None:
    """G-6.4: a winner's cards enter the market by ascending value, equal values
    in seat order of their colours; G-3.3: into the first empty slots of the
    last row."""
    state = load("bids_and_passes")
    events = act(state, Bid(((RED, 2), (GREEN, 2), (BLUE, 1))))
    # Green's only legal bid, its 0, is made by the engine (G-11); blue, holding only a 0, must pass.
    bids = [(e.kind, e.data["seat"]) for e in events if e.kind in ("bid", "passed")]
    assert bids == [("bid", RED), ("bid", GREEN), ("passed", BLUE)]
    assert state.to_act() == {RED} and state.phase == "pick"
    act(state, Pick((3,)))
    assert _market(state) == [[(BLUE, 1), (RED, 2), (GREEN, 2), (GREEN, 0), None, None]]


@given(
    hand=st.lists(st.tuples(st.integers(0, 3), st.sampled_from([1, 2, 3, 4, 5])), min_size=1, max_size=12),
    used=st.frozensets(st.integers(1, 15), max_size=4),
)
def test_bid_options_are_every_set_of_one_to_three_ious_with_a_new_total_G_6_2_G_6_4(
    hand: list[tuple[int, int]], used: frozenset[int]
) -> None:
    """The bids offered are exactly the sets (G-6.4) of 1 to 3 IOUs of the
    hand whose total no earlier bid has (G-6.2), each once."""
    expected = {
        combo
        for size in (1, 2, 3)
        for combo in itertools.combinations(sorted(hand), size)
        if sum(value for _, value in combo) not in used
    }
    offered = bid_options(tuple(sorted(hand)), used)
    assert len(offered) == len(set(offered))
    assert {bid.ious for bid in offered} == expected


def test_a_single_legal_bid_is_made_by_the_engine_not_asked_G_11_G_6_2() -> None:
    """G-11, docs/engine.md: a decision with one legal action is applied by the
    engine. Red holds only its 0 (the other reds lie in the market); after
    green bids 1:4 and blue 2:3 its 0 is its only legal bid: the engine bids it,
    red is never asked, and the auction goes on to green's pick."""
    state = load("forced_bid")
    assert state.phase == "bid" and state.to_act() == {GREEN}
    act(state, Bid(((GREEN, 4),)))
    assert state.to_act() == {BLUE}
    assert state.legal_actions(RED) == ()
    events = act(state, Bid(((BLUE, 3),)))
    assert [e.data for e in events if e.kind == "bid"][1:] == [{"seat": RED, "ious": [[RED, 0]], "total": 0}]
    assert state.phase == "pick" and state.to_act() == {GREEN}  # green (4) picks first, blue (3) second
    assert RED not in state.to_act() and len(state.legal_actions(GREEN)) == 2
