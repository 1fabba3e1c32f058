"""Hand-written scenarios (docs/engine.md, docs/engine_saboteur.md): a state no
match can reach is refused with a message naming the field and the rule, and
a scenario may state what chance produces next.

Each refusal case is a valid scenario with one thing changed, so the test
shows that this one thing is what the reader refuses.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from referee.games import load_game
from referee.games.gnadenlos.actions import Bid
from referee.games.saboteur.actions import Discard
from referee.games.scenario import ScenarioError

GNADENLOS: Any = load_game("gnadenlos")
SABOTEUR: Any = load_game("saboteur")
"""Typed loosely: the tests read each game's own state and observation fields."""

TURN: dict[str, Any] = {
    "seats": 3, "seed": 3, "active": 0, "todo": ["turn"],
    "event_revealed": [0, 1], "event_deck": [3, 4, 3, 4, 2],
    "adventurers": {"hands": [[28], [26], [20]]},
}
"""A valid Gnadenlos! scenario: red's turn starts with a Gold Fever 7/4."""

COMMIT: dict[str, Any] = {
    "seats": 3, "seed": 3, "active": 0, "phase": "commit", "todo": [],
    "event": 2, "event_revealed": [0, 1, 2], "event_deck": [3, 4, 3, 4],
    "participants": [0, 1, 2], "deciding": [0, 1],
    "adventurers": {"hands": [[28, 15], [26, 9], [20]]},
}
"""A valid Gnadenlos! scenario stopped at a commitment (G-5.4)."""

ROUND: dict[str, Any] = {
    "seats": 4, "seed": 2, "roles": ["saboteur", "gold_digger", "gold_digger", "gold_digger"],
    "goals": [{"card": "stone_ne"}, {"card": "gold"}, {"card": "stone_nw"}],
    "maze": [{"x": 1, "y": 0, "card": "ew"}, {"x": 2, "y": 0, "card": "nesw"}],
    "hands": [["ns", "map"], ["ew"], ["rockfall"], ["nesw"]],
}
"""A valid Saboteur scenario in round 1."""


def changed(base: dict[str, Any], **fields: Any) -> dict[str, Any]:
    obj = copy.deepcopy(base)
    obj.update(copy.deepcopy(fields))
    return obj


def refusal(game: Any, obj: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as caught:
        game.state_from_json(json.loads(json.dumps(obj)))
    return caught.value


def test_the_base_scenarios_load() -> None:
    assert GNADENLOS.state_from_json(copy.deepcopy(TURN)).phase == "buy"  # one card each: committed by the engine
    assert GNADENLOS.state_from_json(copy.deepcopy(COMMIT)).to_act() == {0, 1}
    assert SABOTEUR.state_from_json(copy.deepcopy(ROUND)).to_act() == {0}


# ----------------------------------------------------- the four cases of issue 13


def test_an_eight_card_event_deck_is_refused_G_1() -> None:
    error = refusal(GNADENLOS, changed(TURN, event_revealed=[], event_deck=[0, 1, 2, 3, 3, 4, 4, 4]))
    assert (error.field, error.rule) == ("event_deck", "G-1") and "seven event cards" in str(error)


def test_a_one_card_event_deck_with_nothing_revealed_is_refused_G_1() -> None:
    """Its card would have been taken for the seventh and ignored (G-5.3)."""
    error = refusal(GNADENLOS, changed(TURN, event_revealed=[], event_deck=[2]))
    assert (error.field, error.rule) == ("event_deck", "G-1")


def test_a_hat_on_field_40_is_refused_G_1() -> None:
    error = refusal(GNADENLOS, changed(TURN, fields=[40, 6, 6]))
    assert error.field == "fields[0]" and error.rule.startswith("G-1") and "40: 1 to 35" in str(error)


def test_a_commitment_whose_deciders_hold_no_adventurers_is_refused_G_5_4() -> None:
    """The seats would be asked with no legal action."""
    error = refusal(GNADENLOS, changed(COMMIT, adventurers={"hands": [[], [], []]}))
    assert (error.field, error.rule) == ("participants", "G-5.4")


# ------------------------------------------------------- more Gnadenlos! invariants


@pytest.mark.parametrize(
    ("base", "fields", "field", "rule"),
    [
        (TURN, {"variant": {"setup": "advance"}}, "variant.setup", "G-2.6"),
        (TURN, {"variant": {"auction_order": "best"}}, "variant.auction_order", "G-6.7.1"),
        (TURN, {"variant": {"gunfight_opt_out": "hard"}}, "variant.gunfight_opt_out", "G-5.10, G-5.11"),
        (TURN, {"seats": 5}, "seats", "G-1"),
        (TURN, {"vultures": [3, 0, 0]}, "vultures[0]", "G-9.1"),
        (TURN, {"undertaker": 8}, "undertaker", "G-1"),
        (TURN, {"nuggets": [10, -1, 10]}, "nuggets[1]", "G-1"),
        (TURN, {"fields": [6, 6]}, "fields", "G-1: the success track"),
        (TURN, {"turn": 401}, "turn", "G-9.5"),
        (TURN, {"todo": ["turnn"]}, "todo", "docs/engine.md, The JSON state format"),
        (TURN, {"phase": "auction"}, "phase", "G-11"),
        (TURN, {"event_revealed": [0, 1, 3, 3, 4, 4, 2], "event_deck": []}, "event_revealed", "G-5.3"),
        (TURN, {"ious": {"hands": [[[0, 0]] * 2, [], []]}}, "ious", "G-1"),
        (TURN, {"ious": {"hands": [[[3, 1]], [], []]}}, "ious", "G-1"),  # no yellow at 3 seats
        (TURN, {"adventurers": {"hands": [[28, [5, [7]]], [26], [20]]}}, "known_by", "G-10"),
        (TURN, {"chance": {"die": [7]}}, "chance.die[0]", "G-8.2"),
        (TURN, {"chance": {"events": [[4, 4, 4]]}}, "chance.events[0]", "G-5.3"),
        (TURN, {"chance": {"nuggets": [3]}}, "chance.nuggets", "docs/engine.md, Fixing chance"),
        (TURN, {"end_reason": "goal"}, "todo", "G-9.2, G-9.3"),
        (TURN, {"commits": [28, -2, -2]}, "adventurers", "G-1"),  # 28 is in red's hand too
        (COMMIT, {"deciding": [0, 1, 2]}, "deciding", "G-5.4, G-11"),  # blue holds one card: no choice
        (COMMIT, {"event": 1}, "event", "G-5.2"),
        (COMMIT, {"commits": [-1, -2, -2]}, "commits", "G-5.10"),
        (COMMIT, {"phase": "buy", "event": -1, "participants": [], "deciding": [], "nuggets": [0, 10, 10]},
         "nuggets[0]", "G-7.1, G-9.3, G-11"),
        (COMMIT, {"phase": "buy", "event": -1, "participants": [], "deciding": [],
                  "ious": {"market": [[[0, 1], None, [1, 1], [2, 1], [0, 2], [1, 2]], [[2, 2], None, None, None,
                                                                                       None, None]]}},
         "ious.market", "G-3.4"),
        (COMMIT, {"phase": "final_buy", "event": -1, "participants": [], "deciding": []}, "end_reason", "G-9.3"),
    ],
)
def test_unreachable_gnadenlos_states_are_refused_naming_field_and_rule(
    base: dict[str, Any], fields: dict[str, Any], field: str, rule: str
) -> None:
    error = refusal(GNADENLOS, changed(base, **fields))
    assert (error.field, error.rule) == (field, rule), str(error)
    assert str(error).startswith(f"{field}: ") and str(error).endswith(f"({rule})")


def test_a_bid_phase_with_a_single_legal_bid_is_refused_G_11() -> None:
    """The engine makes a single legal bid itself, so it never stops there."""
    obj: dict[str, Any] = {
        "seats": 3, "seed": 4, "active": 1, "phase": "bid", "todo": ["payday_check", "picks"],
        "bid_order": [1, 2, 0], "bid_pos": 2,
        "adventurers": {"hands": [[28], [], [27]], "units": [[5], [9]]},
        "ious": {"hands": [[[0, 0]], [], []], "bids": [None, [[1, 4]], [[2, 3]]],
                 "market": [[[0, 1], [0, 1], [0, 1], [0, 2], [0, 2], [0, 2]],
                            [[0, 3], [0, 3], [0, 3], [0, 4], [0, 4], [0, 4]]]},
    }
    error = refusal(GNADENLOS, obj)
    assert (error.field, error.rule) == ("phase", "G-6.3, G-11") and "1 legal bid" in str(error)
    obj["ious"]["hands"][0] = [[0, 0], [1, 1]]  # two choices: 0:0 and 1:1
    assert Bid(((0, 0),)) in GNADENLOS.state_from_json(obj).legal_actions(0)


def test_the_final_buys_may_face_an_unrefilled_market_G_9_2() -> None:
    """G-9.2: no refill follows the final payday, so holes are reachable then."""
    market = [[[0, 1], None, [1, 1], [2, 1], [0, 2], [1, 2]], [[2, 2], None, None, None, None, None]]
    state = GNADENLOS.state_from_json(changed(
        COMMIT, phase="final_buy", event=-1, participants=[], deciding=[], end_reason="undertaker",
        undertaker=7, final_order=[0, 1, 2], final_pos=0, ious={"market": market}))
    assert state.to_act() == {0}


# --------------------------------------------------------- Saboteur invariants


@pytest.mark.parametrize(
    ("fields", "field", "rule"),
    [
        ({"seats": 11}, "seats", "S-1"),
        ({"variant": {"sabotaged_diggers_lose_share": "yes"}}, "variant.sabotaged_diggers_lose_share", "S-6.6"),
        ({"round": 4}, "round", "S-7.1"),
        ({"round": 2}, "results", "S-7.1"),  # round 1's result is missing
        ({"first_player": 4}, "first_player", "S-2.4"),
        ({"roles": ["saboteur", "saboteur", "gold_digger", "gold_digger"]}, "roles", "S-2.1"),
        ({"goals": [{"card": "stone_ne"}, {"card": "gold", "turned": True}, {"card": "stone_nw"}]},
         "goals[1].turned", "S-4.5"),
        ({"goals": [{"card": "stone_ne"}, {"card": "gold", "revealed": True}, {"card": "stone_nw"}]},
         "goals[1]", "S-4.5, S-6.1"),
        ({"maze": ROUND["maze"] + [{"x": x, "y": 0, "card": "new"} for x in (3, 4, 5, 6, 7)]},
         "goals[1]", "S-4.5"),  # the tunnel reaches the middle goal, which lies face down
        ({"maze": [{"x": 1, "y": 0, "card": "ew"}, {"x": 1, "y": 1, "card": "ns"}]}, "maze", "S-4.2"),
        ({"hands": [["ns"] * 4 + ["map"] * 3, [], [], []]}, "hands[0]", "S-2.3, S-3.2"),
        ({"hands": [["ew"] * 4, [], [], []]}, "hands[0]", "S-1"),  # three ew cards exist
        ({"broken": [["pick", "pick"], [], [], []]}, "broken[0]", "S-5.1"),
        ({"broken": [["hammer"], [], [], []]}, "broken[0]", "S-5.1"),
        ({"nuggets": [[3, 3, 3, 3, 3], [], [], []]}, "nuggets[0]", "S-1"),
        ({"maze": [{"x": 8, "y": 0, "card": "ew"}]}, "maze[0]", "S-4.1"),
        ({"maze": [{"x": 1, "y": 0, "card": "map"}]}, "maze[0].card", "S-4.1"),
        ({"chance": {"deck": [["ew"] * 4]}}, "chance.deck[0]", "S-2.3"),
        ({"chance": {"roles": [["saboteur", "saboteur"]]}}, "chance.roles[0]", "S-2.1"),
        ({"chance": {"die": [[1]]}}, "chance.die", "docs/engine_saboteur.md, Fixing chance"),
        ({"hands": [[["ew", [7]]], [], [], []]}, "known_by", "S-8"),
    ],
)
def test_unreachable_saboteur_states_are_refused_naming_field_and_rule(
    fields: dict[str, Any], field: str, rule: str
) -> None:
    error = refusal(SABOTEUR, changed(ROUND, **fields))
    assert (error.field, error.rule) == (field, rule), str(error)


def test_a_saboteur_scenario_plays_its_forced_turns_as_it_loads_S_3_1() -> None:
    """docs/engine.md: no seat is asked without a choice, from a scenario either:
    an empty hand passes at once, and the next seat with a choice is asked."""
    state = SABOTEUR.state_from_json(changed(ROUND, hands=[[], [], ["rockfall", "map"], []], draw_pile=[]))
    assert state.to_act() == {2} and state.observe(0).turn == 2


# ------------------------------------------------------------------ fixing chance


def test_a_payday_with_stated_rolls_plays_as_stated_G_8_2() -> None:
    """docs/engine.md, Fixing chance: the rolls 2, 5, 2, 2, 2 turn up column 2's
    top card (a blue 2), column 5's (a blue 1), then column 2 down to its
    bottom (a green 4, a green 2); the fifth roll finds column 2 empty and the
    payday ends (G-8.3 A). The die stream is never drawn; the sixth face
    stated waits for the next payday."""
    market = [[[0, 1], [1, 2], [2, 1], [0, 2], [1, 1], [2, 2]],
              [[0, 3], [1, 4], [2, 3], [0, 4], [1, 3], [2, 4]],
              [[0, 1], [2, 2], [1, 1], [0, 2], [2, 1], [1, 2]]]
    state = GNADENLOS.state_from_json({
        "seats": 3, "seed": 9, "active": 0, "todo": ["payday_check"],
        "ious": {"market": market}, "chance": {"die": [2, 5, 2, 2, 2, 6]},
    })
    full = state.to_json()
    assert full["nuggets"] == [10, 10 - 4 - 2, 10 - 2 - 1]
    assert full["chance"] == {"die": [6]} and full["streams"]["die"][1] == 0
    assert state.phase == "refill" and state.to_act() == {0}  # G-8.5: the holes in rows 1 and 2
    assert [row[1] for row in full["ious"]["market"]] == [None, None, None]
    events = state.apply({0: state.legal_actions(0)[0]})
    assert "die_rolled" not in [e.kind for e in events]  # 2 complete rows < 3 seats: no second payday


def test_a_stated_reshuffle_order_deals_those_adventurers_first_G_6_1() -> None:
    """The deck is empty, so the auction reshuffles the discard pile (G-6.1);
    the order stated puts Lucky James (25) and Slim Jim (12) on top. A card
    named that is not being shuffled (0, in red's hand) is skipped."""
    obj = {
        "seats": 3, "seed": 5, "active": 0, "todo": ["auction"],
        "adventurers": {"hands": [[0], [1, 2, 3], [4, 5, 6]], "discard": list(range(7, 29))},
        "chance": {"adventurers": [[0, 25, 12]]},
    }
    state = GNADENLOS.state_from_json(obj)
    full = state.to_json()
    assert full["adventurers"]["units"] == [[25], [12]] and full["chance"] == {}
    assert len(full["adventurers"]["deck"]) == 22 - 2 and full["streams"]["adventurers"][1] == 19
    free = GNADENLOS.state_from_json({**obj, "chance": {}}).to_json()
    assert free["adventurers"]["units"] != [[25], [12]]


def test_a_saboteur_scenario_states_the_next_round_s_deal_S_2() -> None:
    """docs/engine_saboteur.md, Fixing chance: round 1 ends on seat 0's discard;
    round 2's dwarf cards, goals, deck order (drawing order: seat 0's hand
    first) and supply are the ones stated, as far as stated."""
    deal = ["map", "map", "nesw", "nesw", "rockfall", "ew"]
    obj = changed(ROUND, hands=[["ew"], [], [], []], draw_pile=[], chance={
        "roles": [["gold_digger", "saboteur", "gold_digger", "gold_digger", "gold_digger"]],
        "goals": [["gold", "stone_ne", "stone_nw"]],
        "deck": [deal],
        "nuggets": [[3, 3, 3]],
    })
    state = SABOTEUR.state_from_json(obj)
    events = state.apply({0: Discard("ew")})
    full = state.to_json()
    assert full["round"] == 2 and full["chance"] == {}
    assert [r[0] for r in full["roles"]] == ["gold_digger", "saboteur", "gold_digger", "gold_digger"]
    assert full["set_aside"][0] == "gold_digger"
    assert [g["card"] for g in full["goals"]] == ["gold", "stone_ne", "stone_nw"]
    assert sorted(c for c, _ in full["hands"][0]) == sorted(deal)
    (shuffled,) = [e for e in events if e.kind == "deck_shuffled"]
    assert shuffled.data["order"][:6] == deal
    assert [v for v, _ in full["supply"]][:3] == [3, 3, 3]  # seat 0 was paid 3 + 1 first: three 3s left


def test_the_chance_still_stated_survives_a_json_round_trip() -> None:
    state = GNADENLOS.state_from_json(changed(TURN, chance={"die": [4, 4], "events": [[4]]}))
    again = GNADENLOS.state_from_json(json.loads(json.dumps(state.to_json())))
    assert again.to_json()["chance"] == state.to_json()["chance"] == {"die": [4, 4], "events": [[4]]}
    assert again.clone().to_json() == again.to_json()
