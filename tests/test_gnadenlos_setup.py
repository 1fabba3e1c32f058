"""Rule tests of the components (G-1), the setup (G-2), the market grid (G-3.1)
and the decisions a bot is asked (G-11), through `new_state`."""

from __future__ import annotations

from collections import Counter

import pytest

from gnadenlos_support import GAME
from referee.games import load_game
from referee.games.gnadenlos.actions import Bid, Commit
from referee.games.gnadenlos.cards import ADVENTURERS, EVENT_DECK, IOU_VALUES, EventCard
from referee.games.gnadenlos.config import DEFAULT_CONFIG
from referee.games.gnadenlos.observation import HIDDEN


def test_components_G_1() -> None:
    """G-1: 29 adventurers (spot-checked ratings), 13 IOUs a colour worth 30, the
    seven event cards, the track 1..35 from field 6 to goal 30, undertaker to 7."""
    assert len(ADVENTURERS) == 29 and len({a.name for a in ADVENTURERS}) == 29
    by_name = {a.name: (a.gold, a.gun, a.poker) for a in ADVENTURERS}
    assert by_name["Poker Paul"] == (0, 3, 7)
    assert by_name["Sheriff Dooley"] == (0, 7, 0)
    assert by_name["Gamblin Jay"] == (4, 5, 6)
    assert by_name["Daddy Digger"] == (7, 4, 0)
    assert sorted(IOU_VALUES) == [0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4] and sum(IOU_VALUES) == 30
    assert Counter(EVENT_DECK) == Counter(
        {EventCard.GOLD_FEVER_3_1: 1, EventCard.GOLD_FEVER_5_3: 1, EventCard.GOLD_FEVER_7_4: 1,
         EventCard.POKER: 2, EventCard.HIGH_NOON: 2}
    )
    cfg = DEFAULT_CONFIG
    assert (cfg.track_first, cfg.track_last, cfg.start_field, cfg.goal_field) == (1, 35, 6, 30)
    assert (cfg.undertaker_end, cfg.start_nuggets) == (7, 10)


@pytest.mark.parametrize("seats", [3, 4])
def test_standard_setup_G_2_1_to_G_2_5(seats: int) -> None:
    """G-2.1: two private adventurers each; G-2.2/G-2.3: 13 IOUs each, a 1 and a 2
    given up to the market, dealt row by row and known to nobody, owners
    included; G-2.4: seven event cards, field 6, undertaker 0, 10 nuggets;
    G-2.5: a start player."""
    state, events = GAME.new_state_with_events(seats, 77)
    full = state.to_json()
    assert [len(h) for h in full["adventurers"]["hands"]] == [2] * seats
    for seat, hand in enumerate(full["adventurers"]["hands"]):
        assert all(known == [seat] for _, known in hand)
        others = state.observe((seat + 1) % seats).adv_hands[seat]
        assert others.known == () and others.unknown == 2
    assert len(full["adventurers"]["deck"]) == 29 - 2 * seats
    market = [e for row in full["ious"]["market"] for e in row if e]
    assert len(market) == 2 * seats and all(known == [] for *_, known in market)
    assert Counter((c, v) for c, v, _ in market) == Counter({(c, v): 1 for c in range(seats) for v in (1, 2)})
    assert len(full["ious"]["market"][0]) == 6
    for seat in range(seats):
        assert len(full["ious"]["hands"][seat]) == 11
        assert all(slot in (HIDDEN, None) for row in state.observe(seat).market for slot in row)
    assert full["fields"] == [6] * seats and full["undertaker"] == 0 and full["nuggets"] == [10] * seats
    assert len(full["event_deck"]) + len(full["event_revealed"]) == 7
    start = [e for e in events if e.kind == "start_player"]
    assert len(start) == 1 and start[0].data["seat"] == full["active"]
    assert start[0].visible_to == frozenset(range(seats))
    assert state.phase == "commit"  # everyone holds two adventurers: the first event


def test_start_player_is_uniform_over_seats_G_2_5() -> None:
    """G-2.5: the start player is a die roll over the seats (all occur, none dominates)."""
    counts = Counter(GAME.new_state(4, seed).to_json()["active"] for seed in range(400))
    assert set(counts) == {0, 1, 2, 3}
    assert max(counts.values()) < 150


def test_market_grid_rows_of_six_G_3_1() -> None:
    """G-3.1: rows of 6 slots, as many rows as needed (4 seats fill 1 row and 2 slots)."""
    full = GAME.new_state(4, 5).to_json()
    assert [sum(1 for e in row if e) for row in full["ious"]["market"]] == [6, 2]


@pytest.mark.parametrize("seats", [3, 4])
def test_advanced_setup_everyone_buys_a_pair_G_2_6(seats: int) -> None:
    """G-2.6: no IOUs to the market, nobody draws; N pairs are revealed; one
    auction from the start player in which every player, the lowest bidder
    included, picks a pair in bid order and pays into the market."""
    state = load_game(GAME.name, {"setup": "advanced"}).new_state(seats, 3)
    full = state.to_json()
    assert full["ious"]["market"] == []
    assert all(len(h) == 0 for h in full["adventurers"]["hands"])
    assert all(len(h) == 13 for h in full["ious"]["hands"])
    units = [tuple(u) for u in full["adventurers"]["units"]]
    assert len(units) == seats and all(len(u) == 2 for u in units)
    assert state.phase == "bid" and state.to_act() == {full["active"]}
    bids: dict[int, Bid] = {}
    while state.phase == "bid":
        (seat,) = state.to_act()
        bid = state.legal_actions(seat)[-1]  # the largest sets, all totals distinct
        assert isinstance(bid, Bid)
        bids[seat] = bid
        state.apply({seat: bid})
    order = sorted(bids, key=lambda s: -bids[s].total)
    for rank, seat in enumerate(order[:-1]):  # the last one's single choice is automatic
        assert state.phase == "pick" and state.to_act() == {seat}
        remaining = state.legal_actions(seat)
        assert len(remaining) == seats - rank
        state.apply({seat: remaining[0]})
    full = state.to_json()
    assert all(len(h) == 2 for h in full["adventurers"]["hands"])
    paid = [(e[0], e[1]) for row in full["ious"]["market"] for e in row if e]
    assert Counter(paid) == Counter(iou for bid in bids.values() for iou in bid.ious)


def test_single_choices_are_applied_by_the_engine_G_11() -> None:
    """G-11: every decision a seat is asked offers at least two choices; a
    single remaining choice is applied by the referee."""
    import random

    rng = random.Random(11)
    for seed in range(5):
        state = GAME.new_state(4, seed)
        while state.to_act():
            for seat in state.to_act():
                assert len(state.legal_actions(seat)) >= 2
            state.apply({s: rng.choice(state.legal_actions(s)) for s in sorted(state.to_act())})


def test_commit_choices_are_the_hand_G_11() -> None:
    """G-11: a commitment is one adventurer from the seat's own hand."""
    state = GAME.new_state(3, 9)
    assert state.to_act() == {0, 1, 2}  # every seat commits at once
    for seat in state.to_act():
        hand = state.to_json()["adventurers"]["hands"][seat]
        assert state.legal_actions(seat) == tuple(Commit(c) for c in sorted(c for c, _ in hand))
