"""The result table's per-seat figures come from the game's package: its
renderer's `figure_columns` name the keys of its footer summary to show
(referee/render and referee/web name no game)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.games import load_game
from referee.games.plugin import plugin
from referee.render.view import renderer_for, result_table
from referee.web.viewer import result_html

NAMES = ["ann", "bob", "cy"]
COLUMNS = {"gnadenlos": ["field", "nuggets", "vultures"], "saboteur": ["nuggets"], "leduc": []}


def _footer(game: str) -> dict[str, Any]:
    """A footer of a random 3-seat match, its summary made by the game's package."""
    engine = load_game(game)
    state = engine.new_state(3, 8)
    rng = random.Random(8)
    while not state.is_terminal():
        state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
    summary = plugin(game).load("summary")(state.observe(0).to_json())
    outcome = state.outcome()
    return {"end_reason": outcome.reason, "end_detail": outcome.detail, "ranks": list(outcome.ranks),
            "strikes": [[], [], []], "forfeits": [], "summary": summary}


def _headings(table: Any) -> list[str]:
    return [str(column.header) for column in table.columns]


@pytest.mark.parametrize("game", sorted(COLUMNS))
def test_the_result_shows_the_figures_its_game_names(game: str) -> None:
    footer = _footer(game)
    columns = renderer_for(game, NAMES).figure_columns
    assert [heading for _, heading in columns] == COLUMNS[game]
    table = result_table(footer, NAMES, columns)
    assert _headings(table) == ["place", "seat", *COLUMNS[game], "strikes", "forfeit"]
    html = result_html(footer, NAMES, columns)
    assert "".join(f"<th>{h}</th>" for h in ["place", "seat", *COLUMNS[game], "strikes", "forfeit"]) in html
    key = columns[0][0] if columns else None
    if key is not None:
        assert all(f"<td>{value}</td>" in html for value in footer["summary"][key])


def test_without_columns_the_table_shows_no_figures() -> None:
    """A renderer that names no figures (the base's default): place, seat, strikes, forfeit only."""
    table = result_table(_footer("gnadenlos"), NAMES)
    assert _headings(table) == ["place", "seat", "strikes", "forfeit"]
