"""How Saboteur is drawn for a viewer (referee/games/saboteur/render.py, issue 7).

In-process, from hand-built scenario states (the engine's JSON format): the
maze glyphs join into tunnels and the grid grows with the maze; every view
shows only what its viewer may know (S-8) — a goal only to the seat that
looked at it until it turns up (S-5.4, S-4.5), other seats' roles only from
the round's end (S-2.1, S-6.2), nugget values only to their owner (S-6.5);
events are described in words, and a round's end shows its final maze.
"""

from __future__ import annotations

import io
import json
from typing import Any

from rich.console import Console

from referee.games import Observation, load_game
from referee.games.saboteur.actions import BreakTool, Discard, Map, PlacePath, Rockfall
from referee.games.saboteur.state import SaboteurState
from referee.render import MatchView, render_table
from referee.games.saboteur.render import Maze, draw_maze
from referee.replay import Step

GAME = load_game("saboteur")
NAMES = ["ann", "bob", "cy", "dee"]
HEADER = {"game": "saboteur", "match_id": "test", "seed": 5, "time_control": {"move_time": 1.0},
          "seats": [{"name": name, "version": "1"} for name in NAMES]}

DOCS_SCENARIO: dict[str, Any] = {
    "seats": 4,
    "seed": 5,
    "roles": ["gold_digger", "saboteur", "gold_digger", "gold_digger"],
    "goals": [{"card": "stone_ne"}, {"card": "gold", "known_by": [2]}, {"card": "stone_nw"}],
    "maze": [{"x": 1, "y": 0, "card": "ew"}, {"x": 2, "y": 0, "card": "ew"},
             {"x": 3, "y": 0, "card": "nesw"}, {"x": 4, "y": 0, "card": "nesw"},
             {"x": 5, "y": 0, "card": "nesw"}, {"x": 6, "y": 0, "card": "nesw"}],
    "hands": [["nesw", "map"], ["break_pick"], ["ns"], ["rockfall"]],
    "broken": [[], [], [], ["lantern"]],
    "supply": [3, 2, 2, 1, 1, 1],
}
"""The example of docs/engine_saboteur.md: seat 2 has looked at the gold at (8, 0);
seat 0 can reach it with its crossroads at (7, 0)."""


def scenario(**changes: Any) -> SaboteurState:
    state = GAME.state_from_json(json.loads(json.dumps({**DOCS_SCENARIO, **changes})))
    assert isinstance(state, SaboteurState)
    return state


def text_of(renderable: Any) -> str:
    console = Console(width=220, record=True, file=io.StringIO())
    console.print(renderable)
    return console.export_text()


def table_for(state: SaboteurState, seats: list[int], combine: str = "public") -> str:
    return text_of(render_table("saboteur", [state.observe(s) for s in seats], NAMES, combine=combine))


def watch(state: SaboteurState, actions: list[Any], **viewer: Any) -> str:
    """The text a MatchView prints for `viewer` while `actions` are played, one per turn."""
    console = Console(width=220, record=True, file=io.StringIO())
    view = MatchView(console, HEADER, **viewer)

    def observe() -> list[Observation]:
        return [state.observe(s) for s in range(state.num_seats)]

    view.show(Step(0, None, [], observe()))
    for index, action in enumerate(actions, 1):
        (seat,) = state.to_act()
        events = state.apply({seat: action})
        view.show(Step(index, {"seats": [{"seat": seat, "by": "bot", "action": action.to_json()}]}, events,
                       observe()))
    return console.export_text()


def test_glyphs_join_into_tunnels_with_dead_ends_and_goals() -> None:
    """S-1: open edges drawn to the cell's sides; a dead end's × connects nothing; a face-down goal framed."""
    maze = Maze({(0, 0): ("start", False), (1, 0): ("ew", False), (2, 0): ("dead_e", True)})
    maze.goals[(3, 0)] = Maze.from_observations([scenario().observe(0).to_json()], "public").goals[(8, 0)]
    assert draw_maze(maze).plain.split("\n") == [
        "    " + "  0  " + "  1  " + "  2  " + "  3  ",
        "    " + "  │  " + "     " + "     " + " ┌─┐ ",
        "  0 " + "──S──" + "─────" + "──×  " + " │?│ ",
        "    " + "  │  " + "     " + "     " + " └─┘ ",
    ]


def test_a_turned_card_lies_upside_down() -> None:
    """S-1: turned is 180°: a T open N, E, S lies open N, S, W."""
    maze = Maze({(0, 0): ("start", False), (0, 1): ("nes", True)})
    rows = draw_maze(maze).plain.split("\n")
    assert rows[1:4] == ["      │  ", "  1 ──┤  ", "      │  "]


def test_the_grid_grows_with_the_maze() -> None:
    """The unbounded maze (S-2.2): the bounding box takes in every card placed."""
    small = table_for(scenario(), [0])
    grown = table_for(scenario(maze=[{"x": -3, "y": 4, "card": "ns"}]), [0])

    def row_labels(table: str) -> list[str]:
        firsts = [line.strip("│ ").split()[0] for line in table.splitlines() if line.strip("│ ")]
        return [token for token in firsts if token.lstrip("-").isdigit()]

    assert row_labels(small)[0] == "0" and row_labels(small)[1:] == ["2", "1", "0", "-1", "-2"]
    assert row_labels(grown)[0] == "-3" and row_labels(grown)[1:] == ["4", "3", "2", "1", "0", "-1", "-2"]


def test_a_goal_shows_only_to_the_seat_that_looked_at_it() -> None:
    """S-5.4 / S-8: seat 2 looked at the gold; no other view shows it face down."""
    state = scenario()
    looked = table_for(state, [2])
    assert "│G│" in looked and "goal (8, 0) face down (GOLD: looked at)" in looked
    for seats, combine in (([1], "public"), ([0, 1, 2, 3], "public")):
        shown = table_for(state, seats, combine)
        assert "GOLD" not in shown and "│G│" not in shown and shown.count("│?│") == 3
    everyone = table_for(state, [0, 1, 2, 3], "any")  # the whole record: what any seat knows
    assert "│G│" in everyone and everyone.count("│?│") == 2


def test_a_seat_sees_its_own_role_and_hand_only() -> None:
    """S-2.1 / S-8: the others' roles and hands are hidden until the round ends."""
    digger = table_for(scenario(), [0])
    assert "saboteur" not in digger and digger.count("gold-digger") == 1
    assert "nesw, map" in digger and "break_pick" not in digger
    saboteur = table_for(scenario(), [1])
    assert "gold-digger" not in saboteur and saboteur.count("saboteur") == 1
    spectator = table_for(scenario(), [0, 1, 2, 3])
    assert "saboteur" not in spectator and "gold-digger" not in spectator and "nesw" not in spectator


def test_broken_tools_and_counts_are_public() -> None:
    shown = table_for(scenario(), [0, 1, 2, 3])
    row = next(line for line in shown.splitlines() if "dee[3]" in line)
    assert "lantern" in row and " 1 " in row  # S-5.1: broken tool; one card in hand
    assert "nugget supply 28" in shown and "round 1/3" in shown  # S-2.5: every card nobody holds


def test_the_gold_reached_ends_the_round_with_its_maze_and_roles() -> None:
    """S-4.5, S-6.2, S-6.3: the gold turns up, the gold-diggers win, every role is shown, nuggets shared."""
    out = watch(scenario(), [PlacePath("nesw", 7, 0)], seat=1)
    before, after = out.split("round 1 ends")
    assert "gold-digger" not in before  # seat 1 is the saboteur: nobody else's role before the end
    assert "goal (8, 0) turns up: GOLD" in before
    assert after.startswith(": the gold-diggers win: ann[0] reached the gold")
    assert "roles: ann[0] gold-digger, bob[1] saboteur, cy[2] gold-digger, dee[3] gold-digger" in after
    end_maze, next_round = after.split("round 2 begins")
    assert "the maze at the end of round 1" in end_maze and "──G──" in end_maze  # the gold, face up
    assert "──G──" not in next_round and next_round.count("│?│") == 3  # new goals, face down
    # S-6.5: nugget values only to their owner.
    assert "ann[0] receives 2 nugget cards\n" in end_maze and "receives 2 nugget cards: 3 1" not in out
    owner = watch(scenario(), [PlacePath("nesw", 7, 0)], seat=0)
    assert "ann[0] receives 2 nugget cards: 3 1" in owner
    assert "round 1: the gold-diggers win: ann[0] reached the gold; saboteurs: bob[1]" in next_round


def test_events_are_told_in_words_to_each_audience() -> None:
    """S-5.4 a map look, S-5.1 a broken tool, S-3.1 a face-down discard, S-5.3 a rockfall."""
    actions = [Map(8, 2), BreakTool("pick", 0), Discard("ns"), Rockfall(6, 0)]
    spectator = watch(scenario(), actions, spectator=True)
    assert "ann[0] looks at goal (8, 2) with a map\n" in spectator and "it is" not in spectator
    assert "bob[1] breaks ann[0]'s pick" in spectator
    assert "cy[2] passes, discarding a card face down" in spectator and "discarding ns" not in spectator
    assert "dee[3] brings down a rockfall at (6, 0): nesw ┼ is removed" in spectator
    assert "ann[0] draws a card" in spectator  # the public part of a private draw
    looker = watch(scenario(), actions, seat=0)
    assert "ann[0] looks at goal (8, 2) with a map: it is stone" in looker
    assert "goal (8, 2) face down (stone: looked at)" in looker
    assert "cy[2] passes, discarding a card face down" in looker
    discarder = watch(scenario(), actions, seat=2)
    assert "cy[2] passes, discarding ns face down" in discarder and "it is stone" not in discarder
    # The whole record tells each happening once, with its secret.
    whole = watch(scenario(), actions)
    assert "cy[2] passes, discarding ns face down" in whole and "discarding a card" not in whole
    assert "ann[0] looks at goal (8, 2) with a map: it is stone" in whole and "draws a card" not in whole


def test_the_rockfalled_cell_is_empty_again() -> None:
    """S-5.3: the card leaves the maze; the table after the rockfall shows the hole."""
    state = scenario()
    for action in (Map(8, 2), BreakTool("pick", 0), Discard("ns"), Rockfall(6, 0)):
        (seat,) = state.to_act()
        state.apply({seat: action})
    row = next(line for line in table_for(state, [0]).splitlines() if "──S──" in line)
    assert "──S──────────────┼────┼────┼──  ·    ·   │?│" in row  # (6, 0) empty again
