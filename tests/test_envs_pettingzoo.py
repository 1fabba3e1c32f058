"""Gnadenlos!, Saboteur and Leduc poker as PettingZoo environments (issue 27, part 2).

PettingZoo's own tests on every game: `api_test` and `seed_test` on the
AEC environment, `max_cycles_test` on the parallel environment and its
AEC conversion (that test has every agent act each cycle, with actions
sampled without the mask, so it runs with `illegal_action="random"`, the
referee's fallback). Then what PettingZoo's tests do not see: a
simultaneous decision taken in turn shows nobody a choice before all are
in; an illegal action is refused with the mask named; the AEC
environment's `max_cycles` plays matches back to back.
"""

from __future__ import annotations

import functools
import types
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from envs.pettingzoo import env, parallel_env

TABLES = [("leduc", 2), ("leduc", 4), ("gnadenlos", 3), ("gnadenlos", 4), ("saboteur", 4)]


@pytest.mark.parametrize("game, seats", TABLES)
def test_pettingzoo_api_and_seed_tests(game: str, seats: int) -> None:
    api_test(env(game, num_seats=seats), num_cycles=200)
    seed_test(functools.partial(env, game, num_seats=seats), num_cycles=100)


@pytest.mark.parametrize("game, seats", TABLES)
def test_pettingzoo_max_cycles_test(game: str, seats: int) -> None:
    def aec(max_cycles: int) -> Any:
        return parallel_to_aec(parallel_env(game, num_seats=seats, illegal_action="random", max_cycles=max_cycles))

    max_cycles_test(types.SimpleNamespace(
        parallel_env=functools.partial(parallel_env, game, num_seats=seats, illegal_action="random"), env=aec))


def until_commitment(table: Any) -> None:
    """Random play up to a decision of several seats at once (G-5.4)."""
    rng = np.random.default_rng(1)
    while len(table.session.table.deciding()) < 2:
        observation, _, termination, truncation, _ = table.last()
        assert not (termination or truncation), "no commitment of several seats in the match"
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_a_simultaneous_decision_in_turn_shows_nobody_a_choice_before_all_are_in() -> None:
    table = env("gnadenlos", num_seats=4)
    table.reset(seed=2)
    until_commitment(table)
    deciding = [table.possible_agents[s] for s in table.session.table.deciding()]
    before = {agent: table.observe(agent) for agent in table.possible_agents}
    chosen: set[str] = set()
    for agent in deciding[:-1]:
        assert table.agent_selection == agent
        mask = table.observe(agent)["action_mask"]
        table.step(int(np.flatnonzero(mask)[-1]))
        chosen.add(agent)
        for other in table.possible_agents:
            now = table.observe(other)
            assert np.array_equal(now["observation"], before[other]["observation"]), (agent, other)
            if other not in chosen:  # a seat's own mask empties once it has chosen
                assert np.array_equal(now["action_mask"], before[other]["action_mask"])
            else:
                assert not now["action_mask"].any()
    assert table.agent_selection == deciding[-1]
    table.step(int(np.flatnonzero(table.observe(deciding[-1])["action_mask"])[0]))
    changed = [not np.array_equal(table.observe(a)["observation"], before[a]["observation"])
               for a in table.possible_agents]
    assert all(changed)  # the commitments are revealed to every seat at once


def test_an_illegal_action_is_refused_or_replaced() -> None:
    table = env("leduc", num_seats=2)
    table.reset(seed=1)
    illegal = int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="action_mask"):
        table.step(illegal)
    lenient = env("leduc", num_seats=2, illegal_action="random")
    lenient.reset(seed=1)
    first = lenient.agent_selection
    lenient.step(illegal)
    assert lenient.agent_selection != first or lenient.terminations[first]
    with pytest.raises(ValueError, match="illegal_action"):
        env("leduc", illegal_action="ignore")


def test_aec_max_cycles_plays_matches_back_to_back() -> None:
    table = env("leduc", num_seats=2, max_cycles=60)
    table.reset(seed=4)
    rng = np.random.default_rng(4)
    steps, paid = 0, 0
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _ = table.last()
        paid += reward != 0
        if termination or truncation:
            assert truncation and not termination
            table.step(None)
            continue
        table.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    assert steps == 60 and paid > 10  # one episode of 60 decisions, many hands paid out
