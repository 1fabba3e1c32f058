"""What the games' scenario readers share (referee/games/scenario.py) reads
every game's scenarios the same way, each under its own rule."""

from __future__ import annotations

from typing import Any

import pytest

from referee.games import load_game
from referee.games.scenario import ScenarioError


@pytest.mark.parametrize(("game", "place", "rule"), [
    ("gnadenlos", lambda state: state["adventurers"]["deck"][0], "G-10"),
    ("saboteur", lambda state: state["hands"][0][0], "S-8"),
])
def test_a_scenario_naming_a_seat_the_table_lacks_is_refused_with_the_games_rule(
        game: str, place: Any, rule: str) -> None:
    """Both games read a card's `known_by` with the one scenario reader
    (referee.games.scenario.seat_mask), each under its own rule."""
    rules = load_game(game)
    state = rules.new_state(4, 3).to_json()
    place(state)[1] = [4]
    with pytest.raises(ScenarioError) as error:
        rules.state_from_json(state)
    assert (error.value.field, error.value.rule) == ("known_by", rule)
    assert "names seat 4; the seats are 0 to 3" in str(error.value)
