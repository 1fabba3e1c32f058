"""Rule tests of the event phase (G-4, G-5), from hand-written scenarios.

Event codes (cards.EventCard): 0 Gold Fever 3/1, 1 Gold Fever 5/3,
2 Gold Fever 7/4, 3 Poker, 4 High Noon. Scenario event decks list the top
card last.
"""

from __future__ import annotations

import pytest

from gnadenlos_support import BLUE, GREEN, RED, YELLOW, act, kinds, load
from referee.games import IllegalActionError
from referee.games.gnadenlos.actions import Buy, Commit, OptOut, Refill, Take
from referee.games.gnadenlos.cards import EventCard


def test_gold_fever_7_4_rulebook_example_G_5_6() -> None:
    """G-5.6 (worked example): highest gold gains 7, the second-highest distinct
    rating 4 (two players share it), the rest nothing; G-5.9: only the highest
    adventurer is discarded."""
    state = load("gold_fever_7_4")
    full = state.to_json()
    assert full["nuggets"] == [17, 14, 10, 14]
    assert full["adventurers"]["discard"] == [28]
    hands = [[c for c, _ in hand] for hand in full["adventurers"]["hands"]]
    assert hands == [[], [27], [20], [26]]
    assert state.to_act() == {RED} and state.phase == "buy"


def test_poker_rulebook_example_G_5_8() -> None:
    """G-5.8 (worked example): grey winner +4, beige winner +3, grey loser -1;
    G-5.9: both winning adventurers are discarded."""
    state = load("poker_example")
    full = state.to_json()
    assert full["fields"] == [5, 15, 10, 8]
    assert sorted(full["adventurers"]["discard"]) == [22, 27]


@pytest.mark.parametrize(
    ("start", "winner", "loser"),
    [(1, 5, 1), (10, 14, 9), (11, 14, 9), (17, 20, 15), (18, 20, 15), (25, 27, 22), (26, 27, 22)],
)
def test_poker_sections_and_floor_G_1_G_5_8(start: int, winner: int, loser: int) -> None:
    """G-1 poker sections (1-10 +4/-1, 11-17 +3/-2, 18-25 +2/-3, 26-35 +1/-4),
    read where the hat stands before the event; never below field 1."""
    state = load("poker_example", fields=[start, start, 6, 8])
    full = state.to_json()
    assert full["fields"][GREEN] == winner
    assert full["fields"][RED] == loser


def test_poker_reaching_30_ends_the_match_G_5_8_G_9_1() -> None:
    """G-5.8/G-9.1 end C: a Poker winner who reaches field 30 ends the match."""
    state = load("poker_example", fields=[6, 29, 6, 8], nuggets=[0, 0, 0, 0])
    assert state.is_terminal()
    assert state.outcome().reason == "goal"
    assert state.to_json()["fields"][GREEN] == 30
    assert state.outcome().ranks[GREEN] == 0


def test_high_noon_sole_winner_takes_two_then_refill_then_shooting_G_5_7_G_3_4() -> None:
    """G-5.7: the undertaker moves first; a sole top gun takes 2 IOUs one at a
    time into hand; the market is refilled (G-3.4, active player choosing,
    first gap first); the lowest gun is shot; G-5.9 the winner's card is discarded."""
    state = load("high_noon")
    assert state.to_json()["undertaker"] == 3
    assert state.to_act() == {RED} and state.phase == "take"
    act(state, Take(0, 0))
    assert state.to_act() == {RED} and state.phase == "take"
    act(state, Take(0, 5))
    # Refill: the gap at (0, 0) first; the sources are the last row's cards.
    assert state.phase == "refill"
    assert state.legal_actions(RED) == (Refill(0), Refill(1), Refill(2))
    events = act(state, Refill(2))
    assert [e.data["to_slot"] for e in events if e.kind == "refilled"] == [[0, 0]]
    assert state.legal_actions(RED) == (Refill(0), Refill(1))
    act(state, Refill(0))
    full = state.to_json()
    market = [[None if e is None else e[:2] for e in row] for row in full["ious"]["market"]]
    assert market == [
        [[3, 2], [1, 4], [2, 3], [2, 4], [3, 3], [1, 2]],
        [None, [2, 2], None, None, None, None],
    ]
    taken = sorted(tuple(e[:2]) for e in full["ious"]["hands"][RED] if e[0] != RED)
    assert taken == [(1, 3), (3, 4)]
    assert full["adventurers"]["discard"] == [1, 20]  # the winner and the shot
    hands = [[c for c, _ in hand] for hand in full["adventurers"]["hands"]]
    assert hands == [[], [25], [], [14]]
    assert state.phase == "buy"


def test_high_noon_taken_card_is_known_to_the_taker_only_G_5_7() -> None:
    """G-5.7: a taken face-down card becomes known to the taker; the others keep
    what they knew of that slot (nothing)."""
    market = [[[1, 3, []], [1, 4, []], [2, 3, []], [2, 4, []], [3, 3, []], [3, 4, []]]]
    state = load("high_noon", ious={"market": market})
    act(state, Take(0, 1))
    assert (1, 4) in state.observe(RED).iou_private
    assert state.observe(GREEN).iou_hands[RED].unknown == 1
    assert (1, 4) not in state.observe(GREEN).iou_hands[RED].known


def test_high_noon_tied_winners_take_one_each_active_first_then_clockwise_G_5_7() -> None:
    """G-5.7: tied top guns take one IOU each, the active player first if a taker,
    then clockwise."""
    hands = {"hands": [[6], [25], [20], [2]]}  # red and green gun 4, blue 1, yellow 2
    state = load("high_noon", adventurers=hands, active=GREEN)
    assert state.to_act() == {GREEN} and state.phase == "take"
    act(state, Take(1, 0))
    assert state.to_act() == {RED} and state.phase == "take"
    act(state, Take(0, 0))
    assert state.phase == "refill" and state.to_act() == {GREEN}
    state = load("high_noon", adventurers=hands, active=BLUE)
    assert state.to_act() == {RED}  # clockwise from blue: yellow, red, green


def test_high_noon_market_too_small_nobody_takes_G_5_7() -> None:
    """G-5.7: a sole winner is owed 2; with 1 IOU in the market nobody takes any;
    the shooting still happens."""
    state = load("high_noon", ious={"market": [[[1, 3], None, None, None, None, None]]})
    full = state.to_json()
    assert [e[:2] for e in full["ious"]["market"][0] if e] == [[1, 3]]
    assert full["adventurers"]["discard"] == [1, 20]
    assert state.phase == "buy"


def test_high_noon_undertaker_reaching_7_ends_before_the_event_G_5_7_G_9_1() -> None:
    """G-5.7/G-9.1 end B: the undertaker reaches 7, nothing of the event happens."""
    state = load("high_noon", undertaker=6, nuggets=[0, 0, 0, 0])
    assert state.is_terminal()
    assert state.outcome().reason == "undertaker"
    full = state.to_json()
    assert full["undertaker"] == 7
    assert full["adventurers"]["discard"] == []


def test_all_tie_event_is_void_G_5_5() -> None:
    """G-5.5: every rating equal: not executed, everyone takes their card back,
    no replacement card is revealed (the card stays used)."""
    state = load("all_tie")
    full = state.to_json()
    assert full["nuggets"] == [10, 10, 10, 10]
    assert full["adventurers"]["discard"] == []
    assert [[c for c, _ in hand] for hand in full["adventurers"]["hands"]] == [[2], [3], [4], [5]]
    assert full["event_revealed"] == [0, 2, 1]
    assert full["event_deck"] == [4, 3, 4, 3]


def test_all_tie_high_noon_still_moves_the_undertaker_G_5_5() -> None:
    """G-5.5: an all-tie High Noon is void, but its undertaker move happens."""
    hands = {"hands": [[2], [3], [11], [16]]}  # gun 2 each
    state = load("high_noon", adventurers=hands)
    full = state.to_json()
    assert full["undertaker"] == 3
    assert full["adventurers"]["discard"] == []
    assert len([e for row in full["ious"]["market"] for e in row if e]) == 9


def test_seventh_card_is_ignored_and_the_reshuffled_top_executed_G_5_3() -> None:
    """G-5.3: the seventh card is never executed; all 7 are reshuffled and the
    new top card (here Gold Fever 3/1) is executed."""
    state = load("seventh_card", chance={"events": [[EventCard.GOLD_FEVER_3_1]]})
    full = state.to_json()
    assert full["nuggets"] == [13, 11, 10]  # 3/1, not 7/4
    assert full["event_revealed"] == [0]
    assert len(full["event_deck"]) == 6
    assert full["undertaker"] == 0


def test_seventh_card_high_noon_moves_the_undertaker_only_G_5_3() -> None:
    """G-5.3: a seventh-card High Noon is not executed but moves the undertaker."""
    state = load("seventh_card", chance={"events": [[EventCard.GOLD_FEVER_3_1]]},
                 event_revealed=[0, 1, 2, 3, 3, 4], event_deck=[4])
    full = state.to_json()
    assert full["undertaker"] == 1
    assert full["nuggets"] == [13, 11, 10]
    assert full["adventurers"]["discard"] == [28]


def test_seventh_card_high_noon_can_end_the_match_G_5_3_G_9_1() -> None:
    """G-5.3/G-9.1 end B: the seventh-card High Noon's undertaker move reaches 7."""
    state = load("seventh_card", undertaker=6, event_revealed=[0, 1, 2, 3, 3, 4], event_deck=[4], nuggets=[0, 0, 0])
    assert state.is_terminal() and state.outcome().reason == "undertaker"
    assert state.to_json()["nuggets"] == [0, 0, 0]


def test_seventh_card_reshuffled_high_noon_moves_the_undertaker_twice_G_5_3() -> None:
    """G-5.3: an ignored seventh High Noon moves the undertaker, and a reshuffled
    High Noon on top is then executed and moves it again."""
    state = load("seventh_card", chance={"events": [[EventCard.HIGH_NOON]]}, event_revealed=[0, 1, 2, 3, 3, 4],
                 event_deck=[4])
    assert state.to_json()["undertaker"] == 2


def test_no_event_when_at_most_one_player_holds_adventurers_G_5_1() -> None:
    """G-5.1: the event phase is skipped and no event card is revealed."""
    state = load("no_event", active=0)
    full = state.to_json()
    assert full["event_revealed"] == [] and len(full["event_deck"]) == 7
    assert state.phase == "buy" and state.to_act() == {RED}


def test_the_active_player_reveals_the_top_event_card_G_5_2() -> None:
    """G-5.2: the revealed card is the top of the event deck."""
    state = load("all_tie")
    assert state.to_json()["event_revealed"][-1] == 1


def test_commitment_is_simultaneous_and_hidden_until_all_are_in_G_5_4() -> None:
    """G-5.4: holders of several adventurers decide together; a single card is
    committed for its holder; a player without adventurers takes no part;
    nothing of a commitment shows before all are in."""
    state = load("commit_simultaneous")
    assert state.phase == "commit" and state.to_act() == {RED, GREEN}
    assert state.legal_actions(RED) == (Commit(0), Commit(28))
    assert state.legal_actions(BLUE) == ()
    for seat in range(4):
        assert all(c < 0 for c in state.observe(seat).commits)
    with pytest.raises(IllegalActionError):
        state.apply({RED: Commit(28)})  # one seat alone cannot decide
    events = state.apply({RED: Commit(28), GREEN: Commit(1)})
    revealed = [e for e in events if e.kind == "commitments_revealed"]
    assert len(revealed) == 1 and revealed[0].data["commitments"] == {"0": 28, "1": 1, "3": 26}
    full = state.to_json()
    assert full["nuggets"] == [13, 10, 10, 11]  # 7 beats 6 beats 0; blue out


def test_gold_fever_ratings_count_gold_G_5_5_G_5_6() -> None:
    """G-5.5: the event's rating counts (gold for Gold Fever, not poker)."""
    state = load("commit_simultaneous")
    state.apply({RED: Commit(0), GREEN: Commit(27)})  # gold 0 (poker 7); green and yellow gold 6
    assert state.to_json()["nuggets"] == [11, 13, 10, 13]


def test_opt_out_moves_back_one_and_fewer_than_two_voids_G_5_10() -> None:
    """G-5.10: a holder of exactly one adventurer may stay out of a High Noon and
    moves back one field; with fewer than two taking part it is not executed."""
    state = load("opt_out", event_deck=[0, 1, 2, 3, 3, 4, 4])  # a High Noon on top
    assert state.to_act() == {RED, GREEN, BLUE}
    assert state.legal_actions(RED) == (Commit(1), OptOut())
    assert OptOut() not in state.legal_actions(GREEN)
    state.apply({RED: OptOut(), GREEN: Commit(25), BLUE: OptOut()})
    full = state.to_json()
    assert full["fields"] == [5, 6, 5, 6]
    assert full["undertaker"] == 1
    assert full["adventurers"]["discard"] == []
    assert sorted(c for c, _ in full["adventurers"]["hands"][GREEN]) == [6, 25]


def test_opt_out_with_two_taking_part_plays_the_high_noon_G_5_10() -> None:
    """G-5.10: with two taking part the High Noon is played between them."""
    state = load("opt_out")
    state.apply({RED: OptOut(), GREEN: Commit(25), BLUE: Commit(20)})
    full = state.to_json()
    assert full["fields"] == [5, 6, 6, 6]
    assert sorted(full["adventurers"]["discard"]) == [20, 25]  # winner and shot
    assert [c for c, _ in full["adventurers"]["hands"][RED]] == [1]


def test_opt_out_is_offered_only_in_the_variant_and_only_at_high_noon_G_5_10() -> None:
    state = load("opt_out", variant={})
    assert OptOut() not in state.legal_actions(RED)
    state = load("opt_out", event_deck=[0, 4, 2, 3, 3, 4, 1])
    assert state.phase == "commit" and OptOut() not in state.legal_actions(RED)


def test_a_turn_is_event_then_buy_then_auction_G_4() -> None:
    """G-4: the event comes first, then buying prestige, then (with fewer than 3
    adventurers) the auction; then the next player clockwise is active."""
    state = load("gold_fever_7_4")
    assert state.phase == "buy" and state.to_act() == {RED}
    events = act(state, Buy(1))
    assert kinds(events)[:3] == ["prestige_bought", "hat_moved", "adventurers_revealed"]
    assert state.phase == "bid" and state.to_act() == {RED}
    assert state.to_json()["bid_order"] == [RED, GREEN, BLUE, YELLOW]
    while True:
        (seat,) = state.to_act()
        events = state.apply({seat: state.legal_actions(seat)[0]})
        started = [e for e in events if e.kind == "turn_started"]
        if started:
            assert started[0].data["active"] == GREEN
            break
