"""Rule tests of paydays (G-8) and market refills (G-3.2, G-3.4), from
hand-written scenarios. Die faces are stated in the scenario ("chance":
{"die": [...]}, docs/engine.md, Fixing chance), never by patching the engine.
Market coordinates are 0-based (row 0 nearest the board; column c is die
face c + 1).
"""

from __future__ import annotations

from gnadenlos_support import BLUE, GREEN, RED, act, kinds, load
from referee.games.gnadenlos.actions import Refill
from referee.games.gnadenlos.state import GnadenlosState


def _market(state: GnadenlosState) -> list[list[object]]:
    return [[None if e is None else tuple(e[:2]) for e in row] for row in state.to_json()["ious"]["market"]]


def _ious_held(state: GnadenlosState, seat: int) -> int:
    return len(state.to_json()["ious"]["hands"][seat])


def test_payday_rulebook_example_and_stop_b_with_vulture_floor_G_8_2_G_8_3_G_8_4() -> None:
    """G-8.2 (worked example): roll 1 turns up the top card of column 1, a blue 2:
    blue pays 2; roll 3: a red 3, red pays 3. G-8.3 (B)/G-8.4: roll 2 turns up a
    green 4; green has 3 nuggets, pays nothing, keeps them, takes a vulture and
    moves back 5 fields but not below field 1 (from 3); the payday stops."""
    state = load("payday_example", chance={"die": [1, 3, 2]})
    full = state.to_json()
    assert full["nuggets"] == [7, 3, 8, 10]
    assert full["vultures"] == [0, 1, 0, 0]
    assert full["fields"] == [6, 1, 6, 6]
    assert full["ious"]["hands"][BLUE][-1][:2] == [BLUE, 2]  # G-8.5: turned cards go home
    assert full["ious"]["hands"][GREEN][-1][:2] == [GREEN, 4]  # the unpaid one too
    assert _market(state)[3] == [None, None, None, (3, 3), (2, 3), (3, 2)]
    assert full["chance"] == {} and full["streams"]["die"][1] == 0  # exactly the three rolls stated
    assert state.to_act() == {GREEN}  # 3 complete rows < 4 seats: the turn ended


def test_a_payday_needs_n_complete_rows_G_8_1_G_3_2() -> None:
    """G-8.1/G-3.2: one complete row short (the last row has a hole), no payday."""
    short = [
        [[0, 1], [1, 1], [2, 1], [3, 1], [0, 2], [1, 2]],
        [[2, 2], [3, 2], [0, 1], [1, 1], [2, 1], [3, 1]],
        [[0, 0], [1, 0], [2, 0], [3, 0], [0, 3], [1, 3]],
        [[2, 2], [1, 4], [0, 3], [3, 3], [2, 3], None],
    ]
    state = load("payday_example", ious={"market": short})
    full = state.to_json()
    assert full["streams"]["die"][1] == 0 and full["nuggets"] == [10, 3, 10, 10]


def test_payday_stops_when_the_column_has_no_face_down_card_G_8_3() -> None:
    """G-8.3 (A): column 1 is turned up row by row, from the highest row down;
    the fifth roll finds nothing face down there and the payday ends."""
    state = load("payday_stop_a", chance={"die": [1, 3, 1, 1, 1]})
    full = state.to_json()
    assert full["nuggets"] == [5, 10, 6]  # red 4 + 0 + 1, blue 4
    assert full["chance"] == {} and full["streams"]["die"][1] == 0
    assert full["vultures"] == [0, 0, 0]
    assert _ious_held(state, RED) == 13 - 6 + 3  # 6 red cards lay in the market, 3 came home


def test_refill_after_payday_first_gap_first_active_chooses_G_3_4_G_8_5() -> None:
    """G-8.5/G-3.4: after the payday the active player fills each gap of a row
    other than the last, lowest row and column first, from the last row."""
    state = load("payday_stop_a", chance={"die": [1, 3, 1, 1, 1]})
    assert state.phase == "refill" and state.to_act() == {RED}
    assert _market(state)[2] == [None, (1, 4), None, (0, 1), (1, 1), (2, 1)]
    assert state.legal_actions(RED) == (Refill(1), Refill(3), Refill(4), Refill(5))
    events = act(state, Refill(5))
    assert [e.data for e in events if e.kind == "refilled"] == [{"from_slot": [2, 5], "to_slot": [0, 0]}]
    assert state.legal_actions(RED) == (Refill(1), Refill(3), Refill(4))
    events = act(state, Refill(4))
    assert _market(state) == [
        [(2, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
        [(1, 1), (1, 0), (2, 0), (0, 3), (1, 3), (2, 3)],
        [None, (1, 4), None, (0, 1), None, None],
    ]
    assert "payday" not in kinds(events)  # 2 complete rows < 3 seats


def test_repeated_payday_after_refill_G_8_5() -> None:
    """G-8.5: a refill that leaves N complete rows brings another payday at once."""
    state = load("payday_repeat", chance={"die": [3, 4, 5]})
    full = state.to_json()
    assert full["vultures"] == [0, 1, 0] and full["fields"] == [6, 1, 6]
    assert state.phase == "refill" and state.legal_actions(RED) == (Refill(0), Refill(1))
    events = act(state, Refill(0))
    assert kinds(events).count("payday") == 1
    full = state.to_json()
    assert full["nuggets"] == [8, 0, 10]
    assert full["vultures"] == [0, 2, 0] and full["fields"] == [6, 1, 6]
    assert _market(state) == [
        [(0, 1), (1, 1), (2, 1), (0, 2), (1, 2), (2, 2)],
        [(0, 0), (1, 0), (2, 0), (0, 3), (1, 3), (2, 3)],
        [(0, 4), (2, 4), (2, 4), (0, 4), None, (2, 1)],
    ]
    assert "payday" not in kinds(events)[kinds(events).index("payday") + 1 :]


def test_third_vulture_in_a_payday_ends_the_match_at_once_G_8_4_G_9_1() -> None:
    """G-8.4/G-9.1 end A: a third vulture ends the match at once: no refill, no
    final payday (G-9.2 is for ends B and C); the player ranks last (G-9.4)."""
    state = load("payday_example", chance={"die": [1, 3, 2]}, vultures=[0, 2, 0, 0], fields=[6, 28, 6, 6])
    assert state.phase == "final_buy"
    assert state.to_json()["streams"]["die"][1] == 0  # no final payday rolls after the three stated
    assert state.to_json()["end_reason"] == "vultures"
    while state.to_act():
        (seat,) = state.to_act()
        assert seat != GREEN  # G-9.3: no final buy with three vultures
        state.apply({seat: state.legal_actions(seat)[0]})
    assert state.outcome().reason == "vultures"
    assert state.outcome().ranks[GREEN] == 3
