"""`python_leduc`, our engine registered in OpenSpiel, is OpenSpiel's `leduc_poker` (issue 27, part 1).

Both games are played side by side, state by state, for every player count
(2 to 10): the same chance outcome (a card's number) and the same random
decision go to both, and at every state, chance nodes and the end included:

- the player to act and, at chance nodes, the outcomes with their
  probabilities; at decisions, the legal actions (fold 0, call 1, raise 2);
- for every seat, the information-state string and tensor and the
  observation string and tensor — ours computed by the bot SDK
  (`botsdk.encoding.leduc`) from the `leduc.v1.Observation` the referee
  would send the seat;
- at the end, every seat's return, to the last bit;
- the `GameInfo` (actions, chance outcomes, utilities, game length).

So a policy trained on either game plays the other, and a tabular policy
keyed by OpenSpiel's information-state strings plays on the ladder.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open_spiel package of the dev extra) is not installed")
import envs.openspiel  # noqa: E402,F401  (registers python_leduc)

MATCHES = {2: 150, 3: 80, 4: 60, 5: 40, 6: 30, 7: 30, 8: 25, 9: 25, 10: 25}


def compare(ours: Any, theirs: Any, players: int) -> None:
    assert ours.current_player() == theirs.current_player(), str(theirs)
    assert ours.is_terminal() == theirs.is_terminal()
    for seat in range(players):
        assert ours.information_state_string(seat) == theirs.information_state_string(seat), str(theirs)
        assert ours.observation_string(seat) == theirs.observation_string(seat), str(theirs)
        assert ours.information_state_tensor(seat) == theirs.information_state_tensor(seat), str(theirs)
        assert ours.observation_tensor(seat) == theirs.observation_tensor(seat), str(theirs)


def play_both(players: int, rng: random.Random, ours_game: Any, theirs_game: Any) -> tuple[int, int]:
    """One match in both games; returns (states compared, chance nodes among them)."""
    ours, theirs = ours_game.new_initial_state(), theirs_game.new_initial_state()
    states = chance = 0
    while True:
        compare(ours, theirs, players)
        states += 1
        if theirs.is_terminal():
            assert ours.returns() == theirs.returns()
            return states, chance
        if theirs.is_chance_node():
            chance += 1
            assert ours.chance_outcomes() == theirs.chance_outcomes()
            action = rng.choice([outcome for outcome, _ in theirs.chance_outcomes()])
        else:
            assert ours.legal_actions() == theirs.legal_actions()
            action = rng.choice(theirs.legal_actions())
        ours.apply_action(action)
        theirs.apply_action(action)


@pytest.mark.parametrize("players", sorted(MATCHES))
def test_python_leduc_is_leduc_poker_state_by_state(players: int) -> None:
    ours_game = pyspiel.load_game("python_leduc", {"players": players})
    theirs_game = pyspiel.load_game("leduc_poker", {"players": players})
    for what in ("num_distinct_actions", "max_chance_outcomes", "num_players", "min_utility", "max_utility",
                 "max_game_length", "information_state_tensor_shape", "observation_tensor_shape"):
        assert getattr(ours_game, what)() == getattr(theirs_game, what)(), what
    rng = random.Random(players)
    played = [play_both(players, rng, ours_game, theirs_game) for _ in range(MATCHES[players])]
    states = sum(s for s, _ in played)
    assert states > 3 * len(played) and all(c >= players for _, c in played)  # every match reached its deal
    print(f"{players} players: {len(played)} matches, {states} states x {players} seats agree")


def test_the_comparison_sees_a_difference() -> None:
    """The state-by-state comparison can fail: the same betting after
    another deal gives another information state to the seat dealt a
    different card."""
    ours = pyspiel.load_game("python_leduc", {"players": 2}).new_initial_state()
    theirs = pyspiel.load_game("leduc_poker", {"players": 2}).new_initial_state()
    for ours_card, their_card in ((0, 1), (2, 2)):
        ours.apply_action(ours_card)
        theirs.apply_action(their_card)
    with pytest.raises(AssertionError):
        compare(ours, theirs, 2)
