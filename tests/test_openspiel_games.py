"""Gnadenlos!, Saboteur and Leduc poker as OpenSpiel Python games, checked by OpenSpiel's own tools (issue 27, part 1).

- `pyspiel.random_sim_test`, OpenSpiel's random simulation test, on every
  game, Gnadenlos! in both forms (simultaneous nodes; commitments in
  turn) and under its variants;
- the game parameters: every rule set, the table size, refusals;
- a simultaneous node (G-5.4): only the deciding seats have actions, and
  taken in turn, a commitment changes no seat's view until all are in;
- OpenSpiel's Python IS-MCTS (open_spiel.python.algorithms.ismcts) plays
  matches of Gnadenlos! and Saboteur to the end with the engine's
  determinization as its resampler (IS-MCTS itself asserts at every
  search that each resampled state has the root's information state).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open_spiel package of the dev extra) is not installed")
import envs.openspiel  # noqa: E402  (registers the games)
from envs.openspiel.gnadenlos import DECISIONS_PER_TURN  # noqa: E402

SIMULATIONS = [
    ("python_leduc", {"players": 2}, 20),
    ("python_leduc", {"players": 6}, 10),
    ("python_gnadenlos", {"players": 3}, 1),
    ("python_gnadenlos", {"players": 4, "simultaneous": False, "setup": "advanced", "gunfight_opt_out": "soft"}, 1),
    ("python_gnadenlos", {"players": 4, "auction": "single", "auction_order": "best", "auction_buy_limit": "many"}, 1),
    ("python_saboteur", {"players": 3, "sabotaged_diggers_lose_share": "on"}, 1),
]


@pytest.mark.parametrize("name, params, sims", SIMULATIONS)
def test_openspiel_random_simulation(name: str, params: dict[str, Any], sims: int) -> None:
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=sims, serialize=False, verbose=False)


def test_the_games_and_their_parameters() -> None:
    names = set(pyspiel.registered_names())
    assert {"python_gnadenlos", "python_saboteur", "python_leduc"} <= names
    envs.openspiel.register()  # a second registration is a no-op
    gnadenlos = pyspiel.load_game("python_gnadenlos", {"players": 3, "auction": "single", "auction_order": "best"})
    assert gnadenlos.num_players() == 3 and gnadenlos.num_distinct_actions() == 2253
    assert gnadenlos.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    assert gnadenlos.get_type().chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    sequential = pyspiel.load_game("python_gnadenlos", {"simultaneous": False})
    assert sequential.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL and sequential.num_players() == 4
    saboteur = pyspiel.load_game("python_saboteur", {"players": 10})
    assert saboteur.num_players() == 10 and saboteur.num_distinct_actions() == 166_594
    assert saboteur.information_state_tensor_shape() == saboteur.observation_tensor_shape() == [55_787]
    for name, params in [("python_gnadenlos", {"players": 5}), ("python_gnadenlos", {"auction_order": "best"}),
                         ("python_gnadenlos", {"setup": "expert"}), ("python_saboteur", {"players": 2}),
                         ("python_leduc", {"players": 11})]:
        with pytest.raises(Exception, match="seat|auction_order|setup|players"):
            pyspiel.load_game(name, params)


def test_same_seed_same_matches_and_clones_replay_chance() -> None:
    """Chance is sampled inside the engine: a seed gives the same deals, and
    a clone carries its future chance (the same actions give the same play)."""
    def play(state: Any, rng: random.Random, steps: int) -> list[str]:
        seen = []
        for _ in range(steps):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
            seen.append(state.information_state_string(0))
        return seen

    first = pyspiel.load_game("python_saboteur", {"players": 4, "seed": 5}).new_initial_state()
    again = pyspiel.load_game("python_saboteur", {"players": 4, "seed": 5}).new_initial_state()
    other = pyspiel.load_game("python_saboteur", {"players": 4, "seed": 6}).new_initial_state()
    assert first.information_state_string(0) == again.information_state_string(0) != other.information_state_string(0)
    play(first, random.Random(1), 20)
    twin = first.clone()
    assert play(first, random.Random(2), 40) == play(twin, random.Random(2), 40)


def simultaneous_state(params: dict[str, Any]) -> Any:
    """A Gnadenlos! state where several seats commit (G-5.4), reached by random play."""
    game = pyspiel.load_game("python_gnadenlos", params)
    rng = random.Random(3)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            table = state.table
            if len(table.deciding()) > 1:
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no commitment of several seats in 20 random matches")


def test_a_commitment_is_a_simultaneous_node() -> None:
    state = simultaneous_state({"players": 4})
    deciding = state.table.deciding()
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS and state.is_simultaneous_node()
    for seat in range(4):
        assert bool(state.legal_actions(seat)) == (seat in deciding)
    before = [state.observation_string(seat) for seat in range(4)]
    joint = [state.legal_actions(seat)[0] if seat in deciding else 0 for seat in range(4)]
    state.apply_actions(joint)
    assert not state.table.pending  # applied at once: the commitments are revealed to all
    assert [state.observation_string(seat) for seat in range(4)] != before


def test_in_turn_a_commitment_is_seen_by_nobody_until_all_are_in() -> None:
    state = simultaneous_state({"players": 4, "simultaneous": False})
    deciding = state.table.deciding()
    before = [(state.information_state_string(s), state.information_state_tensor(s)) for s in range(4)]
    for seat in deciding[:-1]:
        assert state.current_player() == seat
        state.apply_action(state.legal_actions()[-1])
        assert [(state.information_state_string(s), state.information_state_tensor(s)) for s in range(4)] == before
    assert state.current_player() == deciding[-1]
    state.apply_action(state.legal_actions()[0])
    assert [state.information_state_string(s) for s in range(4)] != [b[0] for b in before]


def test_random_matches_stay_within_the_declared_game_length() -> None:
    game = pyspiel.load_game("python_gnadenlos", {"players": 4, "simultaneous": False})
    rng = random.Random(9)
    for _ in range(3):
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        turns = state.table.state.observe(0).to_json()["turn"] + 1
        assert decisions <= DECISIONS_PER_TURN * turns <= game.max_game_length()
        assert abs(sum(state.returns())) < 1e-9 and max(state.returns()) > 0


@pytest.mark.slow
@pytest.mark.parametrize("name, params", [
    ("python_gnadenlos", {"players": 3, "simultaneous": False}),
    ("python_saboteur", {"players": 3}),
])
def test_openspiel_ismcts_plays_with_the_engines_determinization(name: str, params: dict[str, Any]) -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game(name, {**params, "seed": 1})
    rng = np.random.RandomState(4)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0, max_simulations=3,
                           random_state=rng)
    bot.set_resampler(envs.openspiel.resampler(seed=2))
    pick = random.Random(5)
    for match in range(2):
        state = game.new_initial_state()
        searched = 0
        while not state.is_terminal():
            if state.current_player() == match % game.num_players():
                action = bot.step(state)
                searched += 1
            else:
                action = pick.choice(state.legal_actions())
            state.apply_action(action)
        assert searched > 5 and abs(sum(state.returns())) < 1e-9


@pytest.mark.parametrize("name, params", [("python_leduc", {"players": 3}), ("python_gnadenlos", {"players": 3}),
                                          ("python_saboteur", {"players": 4})])
def test_views_from_python_are_openspiels_own(name: str, params: dict[str, Any]) -> None:
    """Called from Python, the view methods skip OpenSpiel's observer path
    (which deals a new match to size each tensor); both give the same views."""
    game = pyspiel.load_game(name, params)
    state = game.new_initial_state()
    rng = random.Random(6)
    compared = 0
    while not state.is_terminal() and compared < 60:
        for seat in range(game.num_players()):
            for method in ("information_state_string", "observation_string", "information_state_tensor",
                           "observation_tensor"):
                assert getattr(state, method)(seat) == getattr(pyspiel.State, method)(state, seat), method
            compared += 1
        if state.is_simultaneous_node():
            state.apply_actions([(state.legal_actions(p) or [0])[0] for p in range(game.num_players())])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared >= 12
