"""The examples in docs/engine.md run (STYLE.md: every example in the docs runs in the tests).

The example scenario is read from the page itself, so the page and the
engine cannot drift apart: it must load through `state_from_json` and play as
the page says (a Gold Fever 7/4, G-5.6, with a simultaneous commitment, G-5.4,
and private hands, G-10).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from referee.games import State, load_game
from referee.games.gnadenlos import GnadenlosObservation
from referee.games.gnadenlos.actions import Commit

DOC = Path(__file__).resolve().parent.parent / "docs" / "engine.md"


def example_block(name: str, language: str) -> str:
    """The fenced code block right after the `<!-- example: name -->` marker."""
    text = DOC.read_text()
    match = re.search(rf"<!-- example: {name} -->\s*```{language}\n(.*?)```", text, re.DOTALL)
    assert match, f"docs/engine.md has no {language} block marked 'example: {name}'"
    return match.group(1)


def scenario() -> dict[str, Any]:
    obj: dict[str, Any] = json.loads(example_block("scenario", "json"))
    return obj


def view(state: State, seat: int) -> GnadenlosObservation:
    observation = state.observe(seat)
    assert isinstance(observation, GnadenlosObservation)
    return observation


def test_example_scenario_loads_at_its_commitment() -> None:
    state = load_game("gnadenlos").state_from_json(scenario())
    # G-5.4: seats 0 and 2 commit at once; seat 1's single card is committed for it.
    assert state.to_act() == frozenset({0, 2})
    assert [str(a) for a in state.legal_actions(0)] == ["commit 15", "commit 28"]
    assert [str(a) for a in state.legal_actions(2)] == ["commit 9", "commit 26"]
    assert state.legal_actions(1) == ()


def test_example_scenario_plays_as_the_page_says() -> None:
    state = load_game("gnadenlos").state_from_json(scenario())
    state.apply({0: Commit(28), 2: Commit(26)})
    # G-5.6: gold 7 gains 7, the second-highest distinct rating (6) gains 4, gold 5 nothing.
    assert view(state, 1).nuggets == (17, 3, 4)


def test_example_scenario_hides_what_the_page_says_is_private() -> None:
    state = load_game("gnadenlos").state_from_json(scenario())
    seen = view(state, 1)
    # G-10: seat 0's and seat 2's hands are private; seat 1 knows only the counts.
    assert seen.adv_hands[0].known == () and seen.adv_hands[0].unknown == 2
    assert seen.adv_hands[2].known == () and seen.adv_hands[2].unknown == 2
    # The six IOUs dealt face down at setup are known to nobody (G-2.3, G-3.5).
    assert seen.market == (("?",) * 6,)
    assert view(state, 0).market == (("?",) * 6,)


def test_example_scenario_round_trips_through_the_full_format() -> None:
    game = load_game("gnadenlos")
    state = game.state_from_json(scenario())
    assert game.state_from_json(state.to_json()).to_json() == state.to_json()


def test_example_match_code_runs() -> None:
    exec(compile(example_block("match", "python"), str(DOC), "exec"), {})


def test_the_fixed_chance_example_plays_as_the_page_says() -> None:
    """docs/engine.md, Fixing chance: the stated rolls 1, 3, 2 (G-8.2 to G-8.4)."""
    state = load_game("gnadenlos").state_from_json(json.loads(example_block("fixed-chance", "json")))
    full = state.to_json()
    assert (full["nuggets"], full["vultures"], full["fields"]) == ([7, 3, 8, 10], [0, 1, 0, 0], [6, 1, 6, 6])
    assert full["chance"] == {} and full["streams"]["die"][1] == 0
    assert state.phase == "buy" and state.to_act() == {1}  # the turn ended: seat 1 buys
    assert "# [7, 3, 8, 10] [0, 1, 0, 0] [6, 1, 6, 6]" in DOC.read_text()
