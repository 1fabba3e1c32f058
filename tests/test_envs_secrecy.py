"""The training environments show a seat nothing it may not know (issue 27), tested as the referee's views are.

A seat's tensors and strings are built from its own observation message,
so they must be equal across all states the seat cannot tell apart: at
positions of random matches of every game, the seat's information-state
and observation strings and tensors (OpenSpiel's, which the PettingZoo
environments share) are compared with those of states drawn by the
engine's determinization of its view — the other seats' hidden cards,
the decks and (taken in turn) the others' pending commitments dealt anew.
The tests also count how often another seat's view did change, so they
can see a difference. For Leduc poker two deals differing only in another
seat's card are played with the same bets.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the open_spiel package of the dev extra) is not installed")
import envs.openspiel  # noqa: E402,F401  (registers the games)
from envs.pettingzoo import TableSession  # noqa: E402

GAMES = [
    ("python_gnadenlos", {"players": 4, "simultaneous": False}, 2),
    ("python_gnadenlos", {"players": 3, "simultaneous": False, "gunfight_opt_out": "on", "auction": "single"}, 2),
    ("python_saboteur", {"players": 5}, 1),
]


def views(state: Any, seat: int) -> tuple[Any, ...]:
    return (state.information_state_string(seat), state.information_state_tensor(seat),
            state.observation_string(seat), state.observation_tensor(seat))


@pytest.mark.parametrize("name, params, matches", GAMES)
def test_views_are_equal_across_states_the_seat_cannot_tell_apart(name: str, params: dict[str, Any],
                                                                    matches: int) -> None:
    game = pyspiel.load_game(name, params)
    players = game.num_players()
    rng = random.Random(11)
    compared = others_changed = 0
    for _ in range(matches):
        state = game.new_initial_state()
        step = 0
        while not state.is_terminal():
            if step % 7 == 0:
                for seat in range(players):
                    mine = views(state, seat)
                    twin = state.resampled(seat, rng)
                    assert views(twin, seat) == mine, (name, step, seat)
                    others_changed += any(twin.information_state_string(o) != state.information_state_string(o)
                                          for o in range(players) if o != seat)
                    compared += 1
            state.apply_action(rng.choice(state.legal_actions()))
            step += 1
    assert compared > 40 and others_changed > compared // 10
    print(f"{name} {params}: {compared} views equal across determinizations; "
          f"another seat's view differed in {others_changed}")


def test_pettingzoo_observations_are_equal_across_determinizations() -> None:
    session = TableSession("saboteur", 4, None, None, "raise")
    session.reset(seed=3)
    rng = random.Random(3)
    compared = 0
    while not session.table.is_over():
        (seat,) = session.table.deciding()
        for watcher in range(4):
            mine = session.observe(watcher)
            real = session.table
            session.table = real.determinized(watcher, rng)
            theirs = session.observe(watcher)
            session.table = real
            assert (mine["observation"] == theirs["observation"]).all()
            assert (mine["action_mask"] == theirs["action_mask"]).all()
            compared += 1
        session.choose(seat, rng.choice(list(session.table.legal(seat))))
    assert compared > 100


def test_leduc_another_seats_card_changes_nothing_a_seat_sees() -> None:
    game = pyspiel.load_game("python_leduc", {"players": 3})
    rng = random.Random(5)
    compared = 0
    for _ in range(200):
        cards = rng.sample(range(8), 5)  # seat 0, 1, 2, the public card, and seat 1's other card
        first, second = game.new_initial_state(), game.new_initial_state()
        for a, b in zip([cards[0], cards[1], cards[2]], [cards[0], cards[4], cards[2]]):
            first.apply_action(a)
            second.apply_action(b)
        while not first.is_terminal():
            if first.is_chance_node():
                first.apply_action(cards[3])
                second.apply_action(cards[3])
                continue
            for seat in (0, 2):
                assert views(first, seat)[:2] == views(second, seat)[:2]
                compared += 1
            assert views(first, 1) != views(second, 1)
            action = rng.choice(first.legal_actions())
            first.apply_action(action)
            second.apply_action(action)
        if first.returns() == second.returns():  # a showdown seat 1 won or lost either way
            assert views(first, 0) == views(second, 0)
    assert compared > 400
