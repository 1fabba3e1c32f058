"""Rule tests of the game end (G-9): the three ends, the final payday, the final
buys, the ranking and the safety valve; and a check that every rule id of
rules/gnadenlos.md is named by at least one test.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gnadenlos_support import BLUE, GREEN, RED, YELLOW, act, kinds, load
from referee.games import IllegalActionError
from referee.games.gnadenlos.actions import Buy, FinalBuy

TESTS = Path(__file__).parent

RULE_IDS = (
    ["G-1"]
    + [f"G-2.{k}" for k in range(1, 7)]
    + [f"G-3.{k}" for k in range(1, 6)]
    + ["G-4"]
    + [f"G-5.{k}" for k in range(1, 11)]
    + [f"G-6.{k}" for k in range(1, 7)]
    + [f"G-7.{k}" for k in range(1, 3)]
    + [f"G-8.{k}" for k in range(1, 6)]
    + [f"G-9.{k}" for k in range(1, 6)]
    + ["G-10", "G-11"]
)
"""Every rule id of rules/gnadenlos.md (rules version gnadenlos-2); sections
with sub-rules are listed by their sub-rules."""


def test_undertaker_end_final_payday_once_final_buys_and_ranking_G_9_1_to_G_9_4() -> None:
    """G-9.1 end B; G-9.2: one final payday even with rows complete, never a
    second one; a third vulture in it loses; G-9.3: final buys of up to 3 in
    turn order from the active player, the three-vulture player excluded;
    G-9.4: three vultures last, then field, then nuggets."""
    state = load("end_undertaker", chance={"die": [1, 2]})
    full = state.to_json()
    assert full["end_reason"] == "undertaker" and full["undertaker"] == 7
    assert full["chance"] == {} and full["streams"]["die"][1] == 0  # one final payday, the two rolls stated
    assert full["nuggets"] == [6, 10, 4, 3]
    assert full["vultures"] == [0, 0, 0, 3] and full["fields"][YELLOW] == 20
    complete = [row for row in full["ious"]["market"] if all(row)]
    assert len(complete) == 4  # enough for a payday, but none follows (G-9.2)
    assert state.phase == "final_buy" and state.to_act() == {GREEN}
    assert state.legal_actions(GREEN) == tuple(FinalBuy(k) for k in range(4))
    act(state, FinalBuy(2))
    assert state.to_act() == {BLUE}
    assert state.legal_actions(BLUE) == tuple(FinalBuy(k) for k in range(4))
    act(state, FinalBuy(3))
    assert state.to_act() == {RED}
    act(state, FinalBuy(0))
    assert state.is_terminal() and not state.to_act()
    full = state.to_json()
    assert full["fields"] == [20, 20, 21, 20]
    assert full["nuggets"] == [6, 8, 1, 3]
    outcome = state.outcome()
    assert outcome.reason == "undertaker"
    assert outcome.ranks == (2, 1, 0, 3)  # green ahead of red on nuggets


def test_goal_end_by_poker_has_a_final_payday_whatever_the_rows_G_9_2() -> None:
    """G-9.1 end C and G-9.2: the final payday is played with fewer than N
    complete rows (here one card pair); then blue's final buy."""
    market = [[[2, 3], [0, 1], None, None, None, None]]
    state = load(
        "poker_example", chance={"die": [1, 3]}, fields=[6, 29, 6, 8], nuggets=[0, 0, 10, 0], ious={"market": market}
    )
    full = state.to_json()
    assert full["end_reason"] == "goal"
    assert full["nuggets"] == [0, 0, 7, 0]  # blue paid 3; roll 3 found an empty column
    assert state.to_act() == {BLUE} and state.phase == "final_buy"
    act(state, FinalBuy(3))
    assert state.outcome().ranks == (3, 0, 1, 2)


def test_final_buy_is_limited_to_three_and_the_track_ends_at_35_G_9_3_G_1() -> None:
    state = load("final_buys", fields=[34, 25, 25, 25], nuggets=[9, 5, 5, 2])
    assert state.to_act() == {RED}
    with pytest.raises(IllegalActionError):
        act(state, FinalBuy(4))
    with pytest.raises(IllegalActionError):
        act(state, Buy(1))
    act(state, FinalBuy(3))
    assert state.to_json()["fields"][RED] == 35
    assert state.to_json()["nuggets"][RED] == 6


def test_ranking_ties_broken_by_nuggets_and_shared_when_equal_G_9_4() -> None:
    """G-9.4: field first, then nuggets; equal in both share a place."""
    state = load("final_buys")
    while state.to_act():
        act(state, FinalBuy(0))
    assert state.outcome().ranks == (0, 1, 1, 3)
    assert state.outcome().reason == "goal"


def test_safety_valve_stalled_round_G_9_5() -> None:
    """G-9.5: a whole round without an event card, an auction or a nugget
    changing hands ends the match as if by end B."""
    state = load("safety_stall")
    assert state.is_terminal()
    outcome = state.outcome()
    assert (outcome.reason, outcome.detail) == ("safety_valve", "stalled")
    assert state.to_json()["turn"] == 3
    assert outcome.ranks == (0, 0, 0)


def test_safety_valve_waits_for_a_quiet_round_G_9_5() -> None:
    """G-9.5: a nugget spent resets the count; three quiet turns later it ends."""
    state = load("safety_stall", nuggets=[1, 0, 0], turn=5)
    assert state.phase == "buy" and state.to_act() == {RED}
    act(state, Buy(1))
    assert state.outcome().detail == "stalled"
    assert state.to_json()["turn"] == 9


def test_safety_valve_turn_limit_G_9_5() -> None:
    """G-9.5: as a last resort, the match ends after 400 turns."""
    state = load("safety_stall", nuggets=[1, 0, 0], turn=399)
    events = act(state, Buy(1))
    assert "match_ending" in kinds(events)
    outcome = state.outcome()
    assert (outcome.reason, outcome.detail) == ("safety_valve", "turn_limit")


def test_every_rule_id_is_named_by_a_test() -> None:
    """Each rule id G-x.y (and each section without sub-rules) of the rules page
    appears in at least one test's name or docstring."""
    named: set[str] = set()
    for path in TESTS.glob("test_gnadenlos_*.py"):
        text = path.read_text()
        named.update(m.replace("_", ".") for m in re.findall(r"G[-_](\d+(?:[._]\d+)?)", text))
        for lo, hi in re.findall(r"G-(\d+\.\d+) to G-(\d+\.\d+)", text):
            major, first = lo.split(".")
            named.update(f"{major}.{k}" for k in range(int(first), int(hi.split(".")[1]) + 1))
    assert [i for i in RULE_IDS if i[2:] not in named] == []
