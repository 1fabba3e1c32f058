"""Saboteur rules, one hand-built scenario per rule id (rules/saboteur.md, S-x.y).

Scenarios are written in the engine's JSON state format (short forms: bare
card kinds, bare nugget values), so each test reads like the table it sets up.
Everything is checked through the public interface: legal actions, apply,
events, observations and the outcome.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from referee.games import IllegalActionError, InvalidActionError, game_names, load_game
from referee.games.base import Event
from referee.games.saboteur.actions import (
    PASS,
    BreakTool,
    Discard,
    Map,
    PlacePath,
    Repair,
    Rockfall,
)
from referee.games.saboteur.rewards import saboteur_payout
from referee.games.saboteur.game import GAME as SABOTEUR
from referee.games.saboteur.state import SaboteurState

GAME = SABOTEUR
GOALS = [{"card": "stone_ne"}, {"card": "gold"}, {"card": "stone_nw"}]
"""Gold in the middle goal cell (8, 0); stones at (8, 2) and (8, -2)."""
ROW_TO_6 = [
    {"x": 1, "y": 0, "card": "ew"},
    {"x": 2, "y": 0, "card": "ew"},
    {"x": 3, "y": 0, "card": "nesw"},
    {"x": 4, "y": 0, "card": "nesw"},
    {"x": 5, "y": 0, "card": "nesw"},
    {"x": 6, "y": 0, "card": "nesw"},
]
"""A straight tunnel from the start to (6, 0); one empty cell before the middle goal."""


def roles_for(seats: int, saboteurs: tuple[int, ...] = (0,)) -> list[str]:
    return ["saboteur" if s in saboteurs else "gold_digger" for s in range(seats)]


def scenario(seats: int = 4, **fields: Any) -> SaboteurState:
    """A state from a short JSON scenario; roles default to seat 0 the only
    saboteur; a later round gets the results of the rounds before it."""
    obj: dict[str, Any] = {"seats": seats, "seed": 7, "roles": roles_for(seats), "goals": GOALS}
    obj["results"] = results_before(fields.get("round", 1), seats)
    obj.update(fields)
    return GAME.state_from_json(json.loads(json.dumps(obj)))


def results_before(round_number: int, seats: int) -> list[dict[str, Any]]:
    """S-7.1: the finished rounds a scenario of round `round_number` needs (won by seat 0, a saboteur)."""
    return [{"round": r, "winners": "saboteurs", "reached_by": -1, "roles": roles_for(seats),
             "set_aside": "gold_digger"} for r in range(1, round_number)]


def play(state: SaboteurState, action: Any) -> list[Event]:
    (seat,) = state.to_act()
    return state.apply({seat: action})


def places(state: SaboteurState, card: str) -> set[tuple[int, int, bool]]:
    (seat,) = state.to_act()
    return {(a.x, a.y, a.turned) for a in state.legal_actions(seat) if isinstance(a, PlacePath) and a.card == card}


def nugget_values(state: SaboteurState) -> list[list[int]]:
    """Each seat's own nugget values, as that seat observes them."""
    return [sorted(state.observe(s).nuggets[s].known, reverse=True) for s in range(state.num_seats)]


def event(events: list[Event], kind: str, seat: int | None = None) -> Event:
    """The event of this kind that `seat` may see (any audience if None)."""
    return next(e for e in events if e.kind == kind and (seat is None or seat in e.visible_to))


# --------------------------------------------------------------------- S-1, S-2


def test_saboteur_is_registered_for_3_to_10_seats() -> None:
    assert "saboteur" in game_names() and load_game("saboteur") is GAME
    assert (GAME.min_seats, GAME.max_seats) == (3, 10)
    with pytest.raises(ValueError):
        GAME.new_state(11, 1)


@pytest.mark.parametrize(
    ("seats", "diggers", "saboteurs", "hand"),
    [(3, 3, 1, 6), (4, 4, 1, 6), (5, 4, 2, 6), (6, 5, 2, 5), (7, 5, 3, 5), (8, 6, 3, 4), (9, 7, 3, 4), (10, 7, 4, 4)],
)
def test_s1_s2_components_and_deal_per_table_size(seats: int, diggers: int, saboteurs: int, hand: int) -> None:
    """S-1/S-2.1/S-2.3: players + 1 dwarf cards, hand sizes, 67 deck cards, 28 nuggets."""
    state = GAME.new_state(seats, 11)
    end = state.to_json()
    dwarfs = Counter([r[0] for r in end["roles"]] + [end["set_aside"][0]])
    assert dwarfs == Counter({"gold_digger": diggers, "saboteur": saboteurs})
    assert [len(h) for h in end["hands"]] == [hand] * seats
    assert len(end["draw_pile"]) == 67 - hand * seats
    assert len(end["supply"]) == 28 and sum(v for v, _ in end["supply"]) == 44
    every_card = [c for h in end["hands"] for c, _ in h] + [c for c, _ in end["draw_pile"]]
    counts = Counter(every_card)
    assert sum(1 for c in every_card if c.startswith(("n", "e", "dead_")) and c != "map") == 40
    assert counts["map"] == 6 and counts["rockfall"] == 3 and counts["break_pick"] == 3
    assert counts["repair_lantern_cart"] == 1 and counts["nesw"] == 5 and counts["ew"] == 3


def test_s2_1_each_seat_sees_only_its_own_dwarf_card_and_the_extra_stays_aside() -> None:
    """S-2.1: own role only; the set-aside card is unseen by all."""
    state = GAME.new_state(5, 3)
    truth = [r[0] for r in state.to_json()["roles"]]
    for seat in range(5):
        obs = state.observe(seat)
        assert obs.role == truth[seat]
        assert obs.roles == tuple(truth[s] if s == seat else None for s in range(5))
        assert obs.set_aside is None


def test_s2_1_three_or_four_players_may_have_no_saboteur() -> None:
    """S-2.1: with 4 players the one saboteur card can be the set-aside one."""
    seeds = [s for s in range(200) if GAME.new_state(4, s).to_json()["set_aside"][0] == "saboteur"]
    assert seeds, "some deal sets the only saboteur aside"
    state = GAME.new_state(4, seeds[0])
    assert all(state.observe(s).role == "gold_digger" for s in range(4))


def test_s2_2_start_and_three_face_down_goals_shuffled() -> None:
    """S-2.2: start at (0,0); goals face down at (8,2), (8,0), (8,-2); the gold moves between deals."""
    layouts = set()
    for seed in range(30):
        state = GAME.new_state(3, seed)
        obs = state.observe(0)
        assert [(c.x, c.y, c.card) for c in obs.maze] == [(0, 0, "start")]
        assert [(g.x, g.y, g.card, g.revealed) for g in obs.goals] == [
            (8, 2, None, False), (8, 0, None, False), (8, -2, None, False)
        ]
        layouts.add(tuple(g["card"] for g in state.to_json()["goals"]))
    assert len(layouts) == 6


def test_s2_4_first_player_drawn_at_random_then_after_the_last_card() -> None:
    """S-2.4: round 1 starts with a random seat; round 2 with the seat after the one
    that played the last card of round 1."""
    firsts = {GAME.new_state(5, seed).observe(0).first_player for seed in range(40)}
    assert len(firsts) > 2
    state = scenario(5, hands=[[], [], ["ew"], [], []], draw_pile=[], active=2, first_player=0)
    play(state, Discard("ew"))
    obs = state.observe(0)
    assert (obs.round, obs.first_player, obs.active) == (2, 3, 3)


def test_s2_5_nuggets_kept_between_rounds_and_the_rest_shuffled_anew() -> None:
    """S-2.5: nugget cards won stay with their owner into the next round; the
    cards nobody holds form the supply, shuffled anew at the round's setup."""
    state = scenario(3, hands=[["ew"], [], []], draw_pile=[], nuggets=[[3], [], [2, 1]], supply=[3, 1, 1])
    events = play(state, Discard("ew"))  # saboteurs (seat 0, alone) win: 3 + 1
    assert nugget_values(state) == [[3, 3, 1], [], [2, 1]]
    assert state.observe(1).supply == 28 - 5
    (shuffled,) = [e for e in events if e.kind == "supply_shuffled"]
    assert shuffled.visible_to == frozenset()  # S-8: the supply's order is unknown to all
    assert Counter(shuffled.data["values"]) == Counter({1: 16 - 2, 2: 8 - 1, 3: 4 - 2})
    assert [v for v, _ in state.to_json()["supply"]] == shuffled.data["values"]  # top first


def test_s2_5_every_round_setup_shuffles_the_supply() -> None:
    """S-2.5: one shuffle of the supply at each of the three rounds' setups."""
    state, events = GAME.new_state_with_events(4, 3)
    rng = random.Random(3)
    while not state.is_terminal():
        (seat,) = state.to_act()
        events += state.apply({seat: rng.choice(state.legal_actions(seat))})
    starts = [i for i, e in enumerate(events) if e.kind == "round_started"]
    shuffles = [i for i, e in enumerate(events) if e.kind == "supply_shuffled"]
    assert len(starts) == len(shuffles) == 3
    assert all(start < shuffle < start + 2 for start, shuffle in zip(starts, shuffles))


def test_s2_5_the_draw_after_a_saboteur_payout_is_worth_the_supply_s_average() -> None:
    """S-2.5: a payout picks cards by value out of the supply; without a new
    shuffle the top of the supply was short of the values just paid (issue
    13: the gold-diggers' next draw was worth 9.30 instead of 9.70 at seven
    players). Here three saboteurs take a 3 each from a shuffled supply, and
    the seven cards on top of the next round's supply are worth seven times
    the supply's mean value, within four standard errors."""
    gaps = []
    for seed in range(600):
        state = scenario(7, seed=seed, roles=roles_for(7, (0, 1, 2)), set_aside="gold_digger",
                         hands=[["ew"]] + [[] for _ in range(6)], draw_pile=[], first_player=0)
        play(state, Discard("ew"))
        supply = [v for v, _ in state.to_json()["supply"]]
        assert len(supply) == 25 and supply.count(3) == 1
        gaps.append(sum(supply[:7]) - 7 * sum(supply) / len(supply))
    mean = sum(gaps) / len(gaps)
    error = (sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1) / len(gaps)) ** 0.5
    assert abs(mean) < 4 * error, (mean, error)


# ---------------------------------------------------------------------- S-3


def test_s3_1_a_turn_offers_play_or_discard_and_an_empty_hand_only_passes() -> None:
    """S-3.1: every hand card can be discarded; with an empty hand the only action is pass."""
    state = scenario(hands=[["map", "ew"], [], ["ns"], []], draw_pile=["nesw"])
    actions = state.legal_actions(0)
    assert Discard("map") in actions and Discard("ew") in actions
    assert Map(8, 0) in actions and PlacePath("ew", 1, 0) in actions
    empty = scenario(hands=[[], ["ns"], [], []], draw_pile=[])  # seat 0 passes as the scenario loads
    assert empty.legal_actions(0) == () and empty.to_act() == {1}
    assert (empty.observe(0).active, empty.observe(0).turn) == (1, 1)


def test_s3_1_the_engine_plays_forced_turns_itself() -> None:
    """S-3.1: seats with an empty hand pass without being asked, and so does a
    seat whose last card can only be discarded (a broken pick, S-4.4, on a
    path card): the next seat asked is the first with a choice."""
    state = scenario(hands=[["ns", "ew"], [], ["nesw"], ["nw"]], draw_pile=[],
                     broken=[[], [], ["pick"], []])
    events = play(state, Discard("ew"))
    assert [e.data["seat"] for e in events if e.kind == "passed"] == [1]
    assert [e.data for e in events if e.kind == "discarded" and 2 in e.visible_to][1:] == [
        {"seat": 2, "card": "nesw"}
    ]
    assert state.to_act() == {3} and len(state.legal_actions(3)) > 1


def test_s3_2_draw_after_the_turn_while_the_pile_lasts() -> None:
    """S-3.2: the active seat draws one card; the card is seen only by it."""
    state = scenario(hands=[["ew"], ["ns"], ["ns"], ["ns"]], draw_pile=["map", "rockfall"])
    events = play(state, Discard("ew"))
    assert state.observe(0).hand == ("map",) and state.observe(0).draw_pile == 1
    assert event(events, "card_drawn", 0).data == {"seat": 0, "card": "map"}
    assert event(events, "card_drawn", 1).data == {"seat": 0}


def test_s3_2_no_draw_from_an_empty_pile() -> None:
    state = scenario(hands=[["ew", "ns"], ["ns"], [], []], draw_pile=[])
    play(state, Discard("ew"))
    assert state.observe(0).hand == ("ns",)


# ---------------------------------------------------------------------- S-4


def test_s4_1_next_to_the_maze_in_either_orientation_the_180_degree_turn() -> None:
    """S-4.1/S-1: "nes" (open N, E, S) fits west of the start upright (its E faces
    the start) and east of it only turned (then open N, S, W)."""
    state = scenario(hands=[["nes"], [], [], []])
    spots = places(state, "nes")
    assert (-1, 0, False) in spots and (-1, 0, True) not in spots
    assert (1, 0, True) in spots and (1, 0, False) not in spots
    assert all(abs(x) + abs(y) == 1 for x, y, _ in spots)
    play(state, PlacePath("nes", 1, 0, turned=True))
    assert [(c.x, c.y, c.card, c.turned) for c in state.observe(2).maze] == [(0, 0, "start", False), (1, 0, "nes", True)]


def test_s4_1_symmetric_cards_have_one_orientation() -> None:
    """A crossroads turned is the same card: it is offered once per cell."""
    state = scenario(hands=[["nesw"], [], [], []])
    assert places(state, "nesw") == {(1, 0, False), (-1, 0, False), (0, 1, False), (0, -1, False)}


def test_s4_2_open_faces_open_and_closed_faces_closed() -> None:
    """S-4.2: at (1,1) the west neighbour is open to it, the south one closed."""
    state = scenario(
        maze=[{"x": 0, "y": 1, "card": "nes"}, {"x": 1, "y": 0, "card": "ew"}],
        hands=[["nesw", "new", "nw", "nes"], [], [], []],
    )
    assert (1, 1, False) in places(state, "new")  # E W N: west open, south closed
    assert (1, 1, False) in places(state, "nw")
    assert (1, 1, False) not in places(state, "nesw")  # its south edge would face a closed edge
    assert (1, 1, True) not in places(state, "new")  # turned: E W S, south open again
    with pytest.raises(IllegalActionError):
        play(state, PlacePath("nesw", 1, 1))


def test_s4_2_a_face_down_goal_does_not_constrain_fitting() -> None:
    """S-4.2: at (8,1), between two face-down goals, only the west neighbour counts."""
    cards = ["ew", "ew", "new", "nesw", "nesw", "nesw", "nesw"]
    maze = [{"x": 0, "y": 1, "card": "nes"}] + [{"x": x, "y": 1, "card": c} for x, c in zip(range(1, 8), cards)]
    state = scenario(maze=maze, hands=[["ew", "new", "dead_ew"], [], [], []])
    assert (8, 1, False) in places(state, "ew")  # N and S closed against face-down goals: allowed
    assert (8, 1, False) in places(state, "new") and (8, 1, True) in places(state, "new")


def test_s4_3_dead_ends_do_not_connect() -> None:
    """S-4.3: a card next to a dead end's stub is not connected to the start."""
    state = scenario(maze=[{"x": 1, "y": 0, "card": "dead_ew"}], hands=[["ew"], [], [], []])
    spots = places(state, "ew")
    assert (2, 0, False) not in spots
    assert (-1, 0, False) in spots
    with pytest.raises(IllegalActionError):
        play(state, PlacePath("ew", 2, 0))


def test_s4_3_a_dead_end_may_be_placed_against_the_tunnel() -> None:
    """S-4.3: the new card needs one open edge (a stub counts) facing a connected card."""
    state = scenario(hands=[["dead_n"], [], [], []])
    assert places(state, "dead_n") == {(0, -1, False), (0, 1, True)}


def test_s4_3_a_broken_tunnel_does_not_connect_beyond_a_rockfall() -> None:
    """S-4.3: cards past a gap are not connected; their open ends offer nothing."""
    maze = [{"x": 2, "y": 0, "card": "ew"}, {"x": 3, "y": 0, "card": "ew"}]
    state = scenario(maze=maze, hands=[["nesw"], [], [], []])
    spots = places(state, "nesw")
    assert (4, 0, False) not in spots and (1, 0, False) in spots


def test_s4_4_a_broken_tool_forbids_path_cards_but_not_discarding_them() -> None:
    state = scenario(hands=[["ew", "map"], [], [], []], broken=[["lantern"], [], [], []])
    actions = state.legal_actions(0)
    assert not any(isinstance(a, PlacePath) for a in actions)
    assert Discard("ew") in actions and Map(8, 2) in actions


def test_s4_5_reaching_the_gold_ends_the_round_and_diggers_win() -> None:
    """S-4.5/S-6.3: the gold turns up, the round ends, the gold-diggers are paid."""
    state = scenario(
        maze=ROW_TO_6, hands=[["nesw"], ["ns"], ["ns"], ["ns"]], roles=roles_for(4, (3,)),
        supply=[3, 2, 1, 1, 1, 1],
    )
    events = play(state, PlacePath("nesw", 7, 0))
    assert event(events, "goal_revealed").data == {"x": 8, "y": 0, "card": "gold", "turned": False}
    ended = event(events, "round_ended")
    assert ended.visible_to == frozenset(range(4))
    assert ended.data["winners"] == "gold_diggers" and ended.data["reached_by"] == 0
    assert nugget_values(state) == [[3, 1], [2], [1], []]  # 4 cards drawn, 3 diggers from seat 0
    assert state.observe(0).round == 2


def test_s4_5_a_stone_goal_is_turned_towards_the_tunnel_and_joins_the_maze() -> None:
    """S-4.5: reached from the west, stone N-E turns to S-W, stays up, and the
    round goes on; the next card next to it must fit it."""
    goals = [{"card": "stone_nw"}, {"card": "stone_ne"}, {"card": "gold"}]
    state = scenario(maze=ROW_TO_6, goals=goals, hands=[["nesw"], ["ns"], ["ns"], ["ns"]])
    events = play(state, PlacePath("nesw", 7, 0))
    assert event(events, "goal_revealed").data == {"x": 8, "y": 0, "card": "stone_ne", "turned": True}
    obs = state.observe(1)
    assert obs.round == 1 and obs.goals[1] == type(obs.goals[1])(8, 0, "stone_ne", True, True, ())
    # The turned stone is open S and W: a card open to the north fits south of it;
    # its closed east edge offers nothing.
    spots = places(state, "ns")
    assert (8, -1, False) in spots and not {(x, y) for x, y, _ in spots} & {(9, 0), (8, 1)}


def test_s4_5_a_goal_is_oriented_to_the_tunnel_even_if_another_neighbour_then_does_not_fit() -> None:
    """S-4.5 fit exception: a dead end's open stub above the goal faces its closed N edge."""
    goals = [{"card": "gold"}, {"card": "stone_ne"}, {"card": "stone_nw"}]
    maze = ROW_TO_6 + [{"x": 8, "y": 1, "card": "dead_ns"}]
    state = scenario(maze=maze, goals=goals, hands=[["ew"], ["ns"], [], []])
    events = play(state, PlacePath("ew", 7, 0))
    assert event(events, "goal_revealed").data == {"x": 8, "y": 0, "card": "stone_ne", "turned": True}
    assert state.observe(0).round == 1


def test_s4_5_two_goals_at_once() -> None:
    """S-4.5: one crossroads at (8,1) reaches (8,2) and (8,0): both turn up; the gold wins."""
    maze = [{"x": 0, "y": 1, "card": "nes"}] + [
        {"x": x, "y": 1, "card": c} for x, c in zip(range(1, 8), ["ew", "ew", "ew", "nesw", "nesw", "nesw", "nesw"])
    ]
    goals = [{"card": "stone_nw"}, {"card": "gold"}, {"card": "stone_ne"}]
    state = scenario(maze=maze, goals=goals, hands=[["nesw"], [], [], []])
    events = play(state, PlacePath("nesw", 8, 1))
    revealed = [e.data for e in events if e.kind == "goal_revealed"]
    assert revealed == [
        {"x": 8, "y": 2, "card": "stone_nw", "turned": True},
        {"x": 8, "y": 0, "card": "gold", "turned": False},
    ]
    assert event(events, "round_ended").data["winners"] == "gold_diggers"


def test_s4_5_a_placement_that_reconnects_the_tunnel_reveals_a_goal_far_from_it() -> None:
    """S-4.3/S-4.5: filling a hole connects the cards beyond it; the one facing the gold reaches it."""
    maze = [m for m in ROW_TO_6 if m["x"] != 3] + [{"x": 7, "y": 0, "card": "ew"}]
    state = scenario(maze=maze, hands=[["nesw"], ["ns"], [], []], roles=roles_for(4, (3,)))
    assert (3, 0, False) in places(state, "nesw")
    events = play(state, PlacePath("nesw", 3, 0))
    assert event(events, "goal_revealed").data == {"x": 8, "y": 0, "card": "gold", "turned": False}
    assert event(events, "round_ended").data["reached_by"] == 0


def test_s4_5_a_turned_up_goal_joins_the_maze_and_may_reach_the_next_goal() -> None:
    """S-4.5 [chosen]: the stone at (8,0) turns up, its open north edge connects the
    card at (8,1), which reaches the gold at (8,2) in the same placement."""
    goals = [{"card": "gold"}, {"card": "stone_nw"}, {"card": "stone_ne"}]
    state = scenario(maze=ROW_TO_6 + [{"x": 8, "y": 1, "card": "ns"}], goals=goals, hands=[["ew"], [], [], []])
    events = play(state, PlacePath("ew", 7, 0))
    assert [e.data for e in events if e.kind == "goal_revealed"] == [
        {"x": 8, "y": 0, "card": "stone_nw", "turned": False},
        {"x": 8, "y": 2, "card": "gold", "turned": False},
    ]
    assert event(events, "round_ended").data["winners"] == "gold_diggers"


def test_s4_5_a_dead_end_next_to_a_goal_does_not_reveal_it() -> None:
    state = scenario(maze=ROW_TO_6, hands=[["dead_ew"], ["ew"], [], []])
    events = play(state, PlacePath("dead_ew", 7, 0))
    assert not [e for e in events if e.kind == "goal_revealed"]
    assert state.observe(1).goals[1].card is None


# ---------------------------------------------------------------------- S-5


def test_s5_1_broken_tools_stack_one_per_type_up_to_three() -> None:
    """S-5.1: any seat (self included) without a broken tool of that type."""
    state = scenario(
        hands=[["break_pick", "break_cart"], [], [], []],
        broken=[[], ["pick"], ["pick", "lantern", "cart"], ["lantern", "cart"]],
    )
    actions = state.legal_actions(0)
    assert {a.target for a in actions if isinstance(a, BreakTool) and a.tool == "pick"} == {0, 3}
    assert {a.target for a in actions if isinstance(a, BreakTool) and a.tool == "cart"} == {0, 1}
    events = play(state, BreakTool("pick", 3))
    assert event(events, "tool_broken").data == {"seat": 0, "target": 3, "tool": "pick"}
    assert state.observe(1).broken == ((), ("pick",), ("cart", "lantern", "pick"), ("cart", "lantern", "pick"))


def test_s5_2_repair_only_where_that_tool_is_broken() -> None:
    state = scenario(hands=[["repair_cart"], [], [], []], broken=[[], ["cart"], ["pick"], ["cart", "pick"]])
    repairs = [a for a in state.legal_actions(0) if isinstance(a, Repair)]
    assert repairs == [Repair("repair_cart", 1, "cart"), Repair("repair_cart", 3, "cart")]
    play(state, repairs[1])
    obs = state.observe(2)
    assert obs.broken[3] == ("pick",)
    assert sorted(obs.discard_public) == ["break_cart", "repair_cart"]


def test_s5_2_a_double_repair_removes_one_tool_of_the_players_choice() -> None:
    state = scenario(hands=[["repair_pick_lantern"], [], [], []], broken=[[], ["pick", "lantern", "cart"], [], ["cart"]])
    repairs = [a for a in state.legal_actions(0) if isinstance(a, Repair)]
    assert repairs == [Repair("repair_pick_lantern", 1, "pick"), Repair("repair_pick_lantern", 1, "lantern")]
    play(state, repairs[1])
    assert state.observe(0).broken[1] == ("cart", "pick")


def test_s5_3_rockfall_removes_a_path_card_never_start_or_goals_and_the_hole_refills() -> None:
    goals = [{"card": "stone_nw"}, {"card": "stone_ne", "revealed": True, "turned": True}, {"card": "gold"}]
    maze = ROW_TO_6 + [{"x": 7, "y": 0, "card": "ew"}]
    state = scenario(maze=maze, goals=goals, hands=[["rockfall"], ["new"], [], []])
    targets = {(a.x, a.y) for a in state.legal_actions(0) if isinstance(a, Rockfall)}
    assert targets == {(x, 0) for x in range(1, 8)}
    events = play(state, Rockfall(3, 0))
    assert event(events, "rockfall").data == {"seat": 0, "x": 3, "y": 0, "card": "nesw"}
    obs = state.observe(1)
    assert (3, 0) not in {(c.x, c.y) for c in obs.maze}
    assert sorted(obs.discard_public) == ["nesw", "rockfall"]
    spots = places(state, "new")
    assert (3, 0, False) in spots  # the hole may be filled
    assert (4, 1, True) not in spots  # beyond the hole nothing is connected


def test_s5_3_rockfall_cannot_target_a_revealed_goal() -> None:
    goals = [{"card": "stone_nw"}, {"card": "stone_ne", "revealed": True, "turned": True}, {"card": "gold"}]
    state = scenario(maze=ROW_TO_6 + [{"x": 7, "y": 0, "card": "ew"}], goals=goals, hands=[["rockfall"], [], [], []])
    targets = {(a.x, a.y) for a in state.legal_actions(0) if isinstance(a, Rockfall)}
    assert (8, 0) not in targets and (0, 0) not in targets and (7, 0) in targets


def test_s5_4_map_is_a_private_look_and_the_goal_stays_face_down() -> None:
    state = scenario(hands=[["map"], [], [], []])
    events = play(state, Map(8, 0))
    assert event(events, "map_used", 0).data == {"seat": 0, "x": 8, "y": 0, "goal": "gold"}
    assert event(events, "map_used", 1).data == {"seat": 0, "x": 8, "y": 0}
    assert [e.visible_to for e in events if e.kind == "map_used"] == [frozenset({0}), frozenset({1, 2, 3})]
    mine, theirs = state.observe(0).goals[1], state.observe(2).goals[1]
    assert (mine.card, mine.revealed, mine.seen_by) == ("gold", False, (0,))
    assert (theirs.card, theirs.revealed, theirs.seen_by) == (None, False, (0,))
    assert "map" in state.observe(3).discard_public


def test_s5_4_maps_only_on_face_down_goals() -> None:
    goals = [{"card": "stone_nw"}, {"card": "stone_ne", "revealed": True}, {"card": "gold"}]
    state = scenario(goals=goals, hands=[["map"], [], [], []])
    assert [a for a in state.legal_actions(0) if isinstance(a, Map)] == [Map(8, 2), Map(8, -2)]


# ---------------------------------------------------------------------- S-6


def test_s6_1_the_round_ends_when_the_pile_and_every_hand_are_empty() -> None:
    state = scenario(3, hands=[["ew"], ["ns"], []], draw_pile=[], first_player=0)
    play(state, Discard("ew"))
    assert state.observe(0).round == 1 and state.observe(0).active == 1
    events = play(state, Discard("ns"))
    assert event(events, "round_ended").data["winners"] == "saboteurs"
    obs = state.observe(0)
    assert obs.round == 2 and obs.draw_pile == 67 - 3 * 6


def test_s6_2_all_dwarf_cards_are_revealed_at_the_round_end() -> None:
    state = scenario(5, roles=roles_for(5, (1, 4)), set_aside="gold_digger", hands=[["ew"], [], [], [], []], draw_pile=[])
    events = play(state, Discard("ew"))
    ended = event(events, "round_ended")
    assert ended.visible_to == frozenset(range(5))
    assert ended.data["roles"] == roles_for(5, (1, 4)) and ended.data["set_aside"] == "gold_digger"
    assert state.observe(0).results[0].roles == tuple(roles_for(5, (1, 4)))


@pytest.mark.parametrize(
    ("seats", "reacher", "saboteurs", "supply", "expected"),
    [
        # 4 players: draw 4 cards, reacher (seat 1) first, saboteur 3 skipped.
        (4, 1, (3,), [3, 1, 2, 1, 1], {0: [1], 1: [3, 1], 2: [2]}),
        # A saboteur reached it: the first gold-digger after them starts.
        (5, 2, (2, 4), [1, 2, 3, 1, 1, 2], {3: [3, 1], 0: [2, 1], 1: [1]}),
        # 10 players: 9 cards (not 10) among 6 gold-diggers.
        (10, 0, (1, 3, 5, 7), [3, 3, 2, 2, 2, 1, 1, 1, 1, 3],
         {0: [3, 1], 2: [3, 1], 4: [2, 1], 6: [2], 8: [2], 9: [1]}),
        # 3 players with no saboteur in play: all three share.
        (3, 2, (), [1, 1, 3, 2], {2: [3], 0: [1], 1: [1]}),
    ],
)
def test_s6_3_gold_shared_by_the_gold_diggers_from_the_reacher(
    seats: int, reacher: int, saboteurs: tuple[int, ...], supply: list[int], expected: dict[int, list[int]]
) -> None:
    """S-6.3: as many cards as players (9 at 10), most valuable first, round the diggers."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[reacher] = ["nesw"]
    fields: dict[str, Any] = {"roles": roles_for(seats, saboteurs), "maze": ROW_TO_6, "hands": hands}
    if not saboteurs:
        fields["set_aside"] = "saboteur"
    state = scenario(seats, supply=supply, active=reacher, **fields)
    play(state, PlacePath("nesw", 7, 0))
    assert nugget_values(state) == [sorted(expected.get(s, []), reverse=True) for s in range(seats)]
    assert state.observe(0).supply == 28 - min(seats, 9)


EVERY_2_AND_3 = [3] * 4 + [2] * 8
"""Held by a gold-digger, these leave only 1s in the supply (S-1: 16 of them)."""


@pytest.mark.parametrize(
    ("seats", "saboteurs", "held", "supply", "received"),
    [
        (4, (2,), {}, [2, 2, 1, 3, 1], {2: [3, 1]}),  # one saboteur: 4 = 3 + 1, not 2 + 2
        (4, (2,), {0: [3] * 4}, [2, 2, 1, 1], {2: [2, 2]}),  # no 3 left: 2 + 2
        (4, (2,), {0: EVERY_2_AND_3 + [1] * 15}, [1], {2: [1]}),  # no exact sum: the largest below
        (6, (1, 4), {}, [1, 2, 1, 3, 3], {1: [3], 4: [3]}),  # two saboteurs: 3 each
        (8, (0, 1, 2), {3: [3] * 3}, [3, 1, 2, 2, 1], {0: [3], 1: [2, 1], 2: [2, 1]}),  # three: 3 each, in order
        (10, (0, 3, 6, 9), {}, [2, 2, 1, 1, 2, 2, 3], {0: [2], 3: [2], 6: [2], 9: [2]}),  # four: 2 each
        (4, (), {}, [3, 1], {}),  # no saboteur in play: nobody is paid
        (3, (), {}, [3, 1], {}),
    ],
)
def test_s6_4_saboteurs_paid_when_the_gold_is_not_reached(
    seats: int, saboteurs: tuple[int, ...], held: dict[int, list[int]], supply: list[int],
    received: dict[int, list[int]],
) -> None:
    """S-6.4: what is left in the supply (every card nobody holds, S-2.5) decides the payout."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[0] = ["ew"]
    fields: dict[str, Any] = {"roles": roles_for(seats, saboteurs)}
    if not saboteurs:
        fields["set_aside"] = "saboteur"
    nuggets = [held.get(s, []) for s in range(seats)]
    state = scenario(seats, supply=supply, nuggets=nuggets, hands=hands, draw_pile=[], first_player=0, **fields)
    events = play(state, Discard("ew"))
    assert event(events, "round_ended").data["winners"] == "saboteurs"
    assert nugget_values(state) == [sorted(held.get(s, []) + received.get(s, []), reverse=True)
                                    for s in range(seats)]


def test_s6_4_payout_prefers_fewest_cards_then_the_most_valuable() -> None:
    assert saboteur_payout([1, 1, 1, 1, 2, 2, 3], 4) == (3, 1)
    assert saboteur_payout([1, 1, 1, 1, 2, 2], 4) == (2, 2)
    assert saboteur_payout([1, 3], 2) == (1,)
    assert saboteur_payout([], 3) == ()


def test_s6_5_nugget_cards_are_hidden_until_the_match_ends() -> None:
    state = scenario(3, hands=[["ew"], [], []], draw_pile=[], supply=[3, 1], first_player=0)
    events = play(state, Discard("ew"))
    assert event(events, "nuggets_received", 0).data == {"seat": 0, "count": 2, "values": [3, 1]}
    assert event(events, "nuggets_received", 1).data == {"seat": 0, "count": 2}
    assert state.observe(1).nuggets[0] == type(state.observe(1).nuggets[0])((), 2)
    last = scenario(3, round=3, hands=[["ew"], [], []], draw_pile=[], nuggets=[[2], [3], []], supply=[1])
    play(last, Discard("ew"))
    assert last.is_terminal()
    assert [v.known for v in last.observe(2).nuggets] == [(3, 2, 1), (3,), ()]


def test_s6_6_variant_sabotaged_diggers_lose_their_share() -> None:
    fields: dict[str, Any] = dict(
        roles=roles_for(4, (3,)), maze=ROW_TO_6, hands=[["nesw"], [], [], []], supply=[3, 2, 2, 1, 1],
        broken=[[], ["cart"], [], []],
    )
    plain = scenario(**fields)
    play(plain, PlacePath("nesw", 7, 0))
    assert nugget_values(plain) == [[3, 1], [2], [2], []]
    variant = scenario(**fields, variant={"sabotaged_diggers_lose_share": "on"})
    play(variant, PlacePath("nesw", 7, 0))
    assert nugget_values(variant) == [[3, 2], [], [2, 1], []]


def test_s6_6_variant_with_every_gold_digger_sabotaged_returns_the_cards_to_the_supply() -> None:
    """S-6.6 [chosen]: a saboteur reached the gold and no gold-digger may take a card."""
    state = scenario(
        3, roles=roles_for(3, (0,)), maze=ROW_TO_6, hands=[["nesw"], [], []], supply=[3, 2, 1, 1],
        broken=[[], ["pick"], ["cart"]], variant={"sabotaged_diggers_lose_share": "on"},
    )
    events = play(state, PlacePath("nesw", 7, 0))
    assert event(events, "round_ended").data["winners"] == "gold_diggers"
    assert event(events, "nuggets_drawn").data["values"] == [3, 2, 1]  # one card per player (S-6.3)
    assert nugget_values(state) == [[], [], []]
    assert state.observe(0).supply == 28  # back in the supply, shuffled for round 2 (S-2.5)


def test_s6_6_variant_is_declared() -> None:
    assert GAME.variant_options == {"sabotaged_diggers_lose_share": ("off", "on")}
    with pytest.raises(ValueError):
        load_game(GAME.name, {"sabotaged_diggers_lose_share": "maybe"}).new_state(4, 1)


# ---------------------------------------------------------------------- S-7


def test_s7_1_three_rounds_and_everything_but_nuggets_dealt_anew() -> None:
    """S-7.1: broken tools and the maze go back; nuggets stay; the match ends after round 3."""
    state = scenario(
        3, maze=ROW_TO_6, hands=[["ew"], [], []], draw_pile=[], broken=[[], ["pick"], []], supply=[3, 1, 2, 2]
    )
    play(state, Discard("ew"))
    obs = state.observe(1)
    assert obs.round == 2 and obs.broken == ((), (), ()) and len(obs.maze) == 1
    assert obs.hand_counts == (6, 6, 6) and obs.discard_public == ()
    rng = random.Random(5)
    rounds_seen = {2}
    while not state.is_terminal():
        (seat,) = state.to_act()
        play(state, rng.choice(state.legal_actions(seat)))
        if not state.is_terminal():
            rounds_seen.add(state.observe(0).round)
    assert rounds_seen == {2, 3} and len(state.observe(0).results) == 3
    assert state.outcome().reason == "rounds_played"


def test_s7_2_most_nuggets_wins_and_equal_totals_share_a_rank() -> None:
    state = scenario(
        4, round=3, roles=roles_for(4, (3,)), hands=[["ew"], [], [], []], draw_pile=[],
        nuggets=[[3, 1], [2, 1, 1], [3], []], supply=[1, 3],
    )
    with pytest.raises(ValueError):
        state.outcome()
    play(state, Discard("ew"))  # seat 3, the saboteur, receives 3 + 1
    assert state.outcome().ranks == (0, 0, 3, 0)
    assert state.legal_actions(0) == () and state.to_act() == frozenset()


# ---------------------------------------------------------------------- S-8, S-9


def test_s8_face_down_discards_are_private_to_the_discarder() -> None:
    state = scenario(hands=[["dead_n", "ew"], [], [], []], draw_pile=["map"])
    events = play(state, Discard("dead_n"))
    assert event(events, "discarded", 0).data == {"seat": 0, "card": "dead_n"}
    assert event(events, "discarded", 2).data == {"seat": 0}
    assert state.observe(0).discard_own == ("dead_n",) and state.observe(1).discard_own == ()
    assert state.observe(1).discard_face_down == (1, 0, 0, 0)


def test_s8_other_hands_are_counts_only() -> None:
    state = GAME.new_state(6, 4)
    obs = state.observe(2)
    assert obs.hand_counts == (5,) * 6 and len(obs.hand) == 5
    assert "hands" not in obs.to_json() and "seed" not in json.dumps(obs.to_json())


@pytest.mark.parametrize(
    "text",
    ["place nes 3 -1", "place nes 3 -1 turned", "break pick 2", "repair repair_pick_cart 2 cart",
     "rockfall 3 -1", "map 8 2", "discard nes", "pass"],
)
def test_s9_action_texts_round_trip(text: str) -> None:
    action = GAME.parse_action(text)
    assert str(action) == text
    assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    assert hash(action) == hash(GAME.parse_action(text))


@pytest.mark.parametrize(
    "text",
    ["place start 1 0", "place nes 1", "place nes 1 0 upright", "break hammer 1", "repair repair_pick 2 cart",
     "repair break_pick 2 pick", "map 8", "discard gold", "discard", "pass 1", "dance"],
)
def test_s9_malformed_action_texts_are_refused(text: str) -> None:
    with pytest.raises(InvalidActionError):
        GAME.parse_action(text)


def test_s9_the_wrong_seat_or_an_unlisted_action_is_refused_without_change() -> None:
    state = scenario(hands=[["ew"], ["ns"], [], []])
    before = json.dumps(state.to_json())
    with pytest.raises(IllegalActionError):
        state.apply({1: Discard("ns")})
    with pytest.raises(IllegalActionError):
        state.apply({0: Discard("ns")})
    assert json.dumps(state.to_json()) == before


# ------------------------------------------------------- docs/engine_saboteur.md


def test_the_documented_example_scenario_plays_as_the_page_says() -> None:
    """The example of docs/engine_saboteur.md loads and plays as printed there."""
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "engine_saboteur.md").read_text()
    match = re.search(r"<!-- example: saboteur-scenario -->\s*```json\n(.*?)```", page, re.DOTALL)
    assert match, "docs/engine_saboteur.md lost its example scenario"
    state = GAME.state_from_json(json.loads(match.group(1)))
    assert (state.observe(2).goals[1].card, state.observe(1).goals[1].card) == ("gold", None)
    assert state.observe(0).goals[1].seen_by == (2,)
    state.apply({0: PlacePath("nesw", 7, 0)})
    assert [state.observe(s).nuggets[s].known for s in range(4)] == [(3, 1), (), (2,), (2,)]
    assert "print([v.known for v in (state.observe(s).nuggets[s] for s in range(4))])" in page


@pytest.mark.parametrize(
    "fields",
    [
        {"hands": [["ew", "ew", "ew", "ew"], [], [], []]},  # only three ew cards exist
        {"roles": ["saboteur", "saboteur", "gold_digger", "gold_digger"]},  # 4 players use one saboteur
        {"roles": ["gold_digger"] * 3},  # one dwarf card per seat
        {"maze": [{"x": 8, "y": 0, "card": "ew"}]},  # a goal's cell
        {"maze": [{"x": 1, "y": 0, "card": "map"}]},  # not a path card
        {"hands": [[["ew", [7]]], [], [], []]},  # known_by names a seat not at the table
        {"nuggets": [[3, 3, 3, 3, 3], [], [], []]},  # four nugget cards of value 3
    ],
)
def test_invalid_scenarios_are_refused_with_a_value_error(fields: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        scenario(**fields)


def test_legal_actions_come_in_the_documented_order() -> None:
    """docs/engine_saboteur.md: by card kind, then cell or target; discards last."""
    state = scenario(
        maze=[{"x": 1, "y": 0, "card": "ew"}],
        hands=[["map", "rockfall", "repair_pick_cart", "break_pick", "nes"], [], [], []],
        broken=[[], ["cart"], [], ["pick", "cart"]],
    )
    assert [str(a) for a in state.legal_actions(0)] == [
        "place nes -1 0", "place nes 0 -1", "place nes 0 -1 turned", "place nes 0 1", "place nes 0 1 turned",
        "place nes 2 0 turned",
        "break pick 0", "break pick 1", "break pick 2",
        "repair repair_pick_cart 1 cart", "repair repair_pick_cart 3 pick", "repair repair_pick_cart 3 cart",
        "rockfall 1 0",
        "map 8 2", "map 8 0", "map 8 -2",
        "discard nes", "discard break_pick", "discard repair_pick_cart", "discard rockfall", "discard map",
    ]
