"""Gnadenlos!, Saboteur and Leduc poker as PettingZoo environments, on the engines.

    from envs.pettingzoo import env

    table = env("leduc", num_seats=2)             # an AECEnv, seats "seat_0", "seat_1", ...
    table.reset(seed=7)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        if termination or truncation:
            action = None
        else:
            action = table.action_space(agent).sample(observation["action_mask"])
        table.step(action)

An agent is a seat. Its observation is a dict as PettingZoo's classic
environments carry one: `"observation"`, the SDK's information-state
tensor of the protocol message the referee would send the seat
(`botsdk.encoding`: what a ladder bot computes), and `"action_mask"`, one
byte per index of the game's fixed action index (`Discrete(num_actions)`),
1 for the seat's legal actions when it is to decide. Rewards come at the
end of a match: Leduc poker's chips won (L-5.5), the other games' places
made zero-sum (`envs.table.pairwise_utilities`).

The AEC environment selects only the seats that must decide. A
simultaneous decision (Gnadenlos!'s commitments, G-5.4) selects its
deciding seats one after another and is applied once all have chosen:
until then every seat's observation is the one before the decision, so no
seat sees another's choice before all are in.

Seeding: `reset(seed=S)` seeds the environment's generator, from which
each match is dealt; the same seed and actions give the same episode.

Options: `variant` (a rule set, e.g. `{"auction": "single"}`);
`max_cycles` (an episode of exactly that many cycles, a cycle being one
decision of the table: matches are dealt back to back until the episode
is truncated; without it an episode is one match); `illegal_action`
(`"raise"`, the default, or `"random"`: an illegal action is replaced by a
uniformly random legal one, as the referee's fallback does).

`parallel_env(...)` is the same table as a `ParallelEnv`: every live agent
gives an action each step, only the deciding seats' count.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv

from envs.table import Table
from referee.games import load_game

CHIP_GAMES = frozenset({"leduc"})
"""Games whose reward is the chips won (OpenSpiel's returns), not the place."""
ILLEGAL_ACTIONS = ("raise", "random")


class TableSession:
    """The matches of one episode: a table, the generator that deals it, the cycles played."""

    def __init__(self, game: str, num_seats: int | None, variant: Mapping[str, str] | None,
                 max_cycles: int | None, illegal_action: str) -> None:
        engine = load_game(game, variant)
        self.game = game
        self.rules = engine
        self.num_seats = engine.min_seats if num_seats is None else num_seats
        engine.check_seats(self.num_seats)
        if max_cycles is not None and max_cycles < 1:
            raise ValueError(f"max_cycles must be at least 1, not {max_cycles}")
        if illegal_action not in ILLEGAL_ACTIONS:
            raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTIONS}, not {illegal_action!r}")
        self.max_cycles = max_cycles
        self.illegal_action = illegal_action
        self.rng = random.Random()
        self.cycles = 0
        self.table = self._deal()
        encoding = self.table.encoding
        self.observation_space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(0.0, np.inf, encoding.information_state_shape, np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (encoding.num_actions,), np.int8),
        })
        self.action_space = gymnasium.spaces.Discrete(encoding.num_actions)

    def _deal(self) -> Table:
        return Table.new(self.rules, self.num_seats, self.rng.getrandbits(63))

    def reset(self, seed: int | None) -> None:
        if seed is not None:
            self.rng = random.Random(seed)
        self.cycles = 0
        self.table = self._deal()

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        table = self.table
        tensor = table.encoding.information_state_tensor(table.message(seat))
        mask = np.zeros(table.encoding.num_actions, np.int8)
        mask[list(table.legal(seat))] = 1
        return {"observation": np.frombuffer(tensor, np.float32), "action_mask": mask}

    def choose(self, seat: int, action: Any) -> bool:
        """The seat's choice; an illegal one raises or is replaced (`illegal_action`).
        Returns whether the table's decision was applied."""
        legal = self.table.legal(seat)
        index = int(action) if action is not None else -1
        if index not in legal:
            if self.illegal_action == "raise":
                raise ValueError(f"action {action} ({self.table.encoding.describe(index)}) is not legal for "
                                 f"seat {seat} now; pick one where observation['action_mask'] is 1")
            index = list(legal)[self.rng.randrange(len(legal))]
        applied = self.table.choose(seat, index)
        if applied:
            self.cycles += 1
        return applied

    def finish_match(self) -> list[float] | None:
        """If the match is over: its utilities, and in an episode of cycles a new deal."""
        if not self.table.is_over():
            return None
        if self.game in CHIP_GAMES:
            utilities = [float(r) for r in self.table.state.observe(0).to_json()["returns"]]
        else:
            utilities = self.table.utilities()
        if self.max_cycles is not None and not self.truncated():
            self.table = self._deal()
        return utilities

    def terminated(self) -> bool:
        return self.max_cycles is None and self.table.is_over()

    def truncated(self) -> bool:
        return self.max_cycles is not None and self.cycles >= self.max_cycles

    def render(self) -> str:
        """The whole table, hidden cards included (the engine's JSON state): for a person watching."""
        return json.dumps(self.table.state.to_json(), sort_keys=True)


def _names(n: int) -> list[str]:
    return [f"seat_{seat}" for seat in range(n)]


class TableEnv(AECEnv):
    """A game's table as a PettingZoo AEC environment (module docstring)."""

    metadata = {"render_modes": ["ansi"], "name": "bot_referee_table_v0", "is_parallelizable": False}

    def __init__(self, game: str, num_seats: int | None = None, variant: Mapping[str, str] | None = None,
                 max_cycles: int | None = None, illegal_action: str = "raise", render_mode: str | None = None) -> None:
        super().__init__()
        self.session = TableSession(game, num_seats, variant, max_cycles, illegal_action)
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = _names(self.session.num_seats)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.session.observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.session.action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.session.reset(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        deciding = self.session.table.deciding()
        if deciding:
            self.agent_selection = self.possible_agents[deciding[0]]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.session.observe(self.possible_agents.index(agent))

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: 0.0 for a in self.agents}
        self.session.choose(self.possible_agents.index(agent), action)
        utilities = self.session.finish_match()
        if utilities is not None:
            self.rewards = {a: utilities[self.possible_agents.index(a)] for a in self.agents}
        done, cut = self.session.terminated(), self.session.truncated()
        self.terminations = {a: done for a in self.agents}
        self.truncations = {a: cut for a in self.agents}
        if not (done or cut):
            self._select()
        self._accumulate_rewards()

    def render(self) -> str | None:
        return self.session.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


class TableParallelEnv(ParallelEnv):
    """A game's table as a PettingZoo ParallelEnv: every agent acts each step;
    the deciding seats' actions are applied together, the others' are ignored."""

    metadata = {"render_modes": ["ansi"], "name": "bot_referee_table_v0"}

    def __init__(self, game: str, num_seats: int | None = None, variant: Mapping[str, str] | None = None,
                 max_cycles: int | None = None, illegal_action: str = "raise", render_mode: str | None = None) -> None:
        self.session = TableSession(game, num_seats, variant, max_cycles, illegal_action)
        self.metadata = {**self.metadata, "name": f"{game}_v0"}
        self.render_mode = render_mode
        self.possible_agents = _names(self.session.num_seats)
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.session.observation_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.session.action_space

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        return {agent: self.session.observe(self.possible_agents.index(agent)) for agent in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, Any]:
        self.session.reset(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: Mapping[str, Any]) -> tuple[Any, Any, Any, Any, Any]:
        for seat in self.session.table.deciding():
            self.session.choose(seat, actions.get(self.possible_agents[seat]))
        utilities = self.session.finish_match() or [0.0] * self.session.num_seats
        agents = self.agents
        rewards = {a: utilities[self.possible_agents.index(a)] for a in agents}
        done, cut = self.session.terminated(), self.session.truncated()
        observations = self._observations()
        terminations = {a: done for a in agents}
        truncations = {a: cut for a in agents}
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        if done or cut:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self.session.render() if self.render_mode == "ansi" else None

    def close(self) -> None:
        pass


def env(game: str, **options: Any) -> TableEnv:
    """The AEC environment of `game` (`"gnadenlos"`, `"saboteur"`, `"leduc"`); options as `TableEnv`."""
    return TableEnv(game, **options)


def parallel_env(game: str, **options: Any) -> TableParallelEnv:
    """The parallel environment of `game`; options as `TableParallelEnv`."""
    return TableParallelEnv(game, **options)
