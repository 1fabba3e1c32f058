"""Gnadenlos! and Saboteur as OpenSpiel Python games, driven by the rules engines.

**Chance** is sampled inside the step (`SAMPLED_STOCHASTIC`): the engines
draw every shuffle, draw and die roll from seeded counter streams in the
state, so a state carries its future chance and `clone()` replays it;
there are no chance nodes. Each new initial state is a match dealt from a
seed drawn from the game's generator, seeded by the `seed` parameter.

**Simultaneous decisions** (Gnadenlos!'s commitments, G-5.4): with
`simultaneous=True` (the default) a position where several seats decide is
a simultaneous node (`current_player()` is `SIMULTANEOUS`, each deciding
seat's legal actions, the others' empty; `apply_actions`), and the game's
dynamics are `SIMULTANEOUS`. With `simultaneous=False` the game is
`SEQUENTIAL`: the deciding seats choose one after another in seat order,
and the engine applies the decision once all are in, so no seat's view
shows another's choice before then; algorithms made for sequential games
(IS-MCTS) use this form. Saboteur has no simultaneous decision.

**Views**: information-state and observation strings and tensors are the
SDK's (`botsdk.encoding`) of the seat's protocol message; for these games
both are the seat's current view, the information set the engine defines
(the rules' knowledge of each card), not a history of everything seen.

**Returns**: each seat's place made zero-sum (`envs.table.pairwise_utilities`):
the seats it finished ahead of, less those ahead of it, over N - 1.

`resample_from_infostate(player, sampler)` is the engine's determinization
of the player's view (with the choices of a simultaneous decision that the
player has not seen drawn at random), for IS-MCTS (`resampler()` gives it
as the callback of `ISMCTSBot.set_resampler`).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any

import pyspiel
from google.protobuf.message import Message

from botsdk.encoding import encoding_for
from envs.openspiel.observer import DirectViews, SeatObserver
from envs.table import Table
from referee.games import load_game



class EngineGame(pyspiel.Game):
    """An OpenSpiel game of one engine, one table size, one rule set."""

    engine_name: str
    game_type: pyspiel.GameType

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.players = int(params["players"])
        self.variant = self.variant_of(params)
        self.simultaneous = bool(params.get("simultaneous", False))
        self.rules = load_game(self.engine_name, self.variant)
        self.rules.check_seats(self.players)
        self.encoding = encoding_for(self.engine_name, self.players)
        self.rng = random.Random(int(params["seed"]))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=0,
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_game_length_bound(),
        )
        super().__init__(self.game_type_for(self.simultaneous), info, dict(params))

    @classmethod
    def game_type_for(cls, simultaneous: bool) -> pyspiel.GameType:
        return cls.game_type

    def variant_of(self, params: Mapping[str, Any]) -> dict[str, str]:
        raise NotImplementedError

    def max_game_length_bound(self) -> int:
        raise NotImplementedError

    def new_initial_state(self) -> "EngineState":
        return EngineState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SeatObserver:
        return SeatObserver(self.encoding, _view, iig_obs_type, params)


def _view(state: "EngineState", player: int) -> Message:
    return state.table.message(player)


class EngineState(DirectViews, pyspiel.State):
    """A position of an engine match. The engine state is made on first use
    (OpenSpiel clones a state by making a new one and copying its attributes)."""

    def __init__(self, game: EngineGame) -> None:
        super().__init__(game)
        self._seed = game.rng.getrandbits(63)
        self._table: Table | None = None
        self._simultaneous = game.simultaneous

    @property
    def table(self) -> Table:
        if self._table is None:
            game = self.get_game()
            self._table = Table.new(game.rules, game.players, self._seed)
        return self._table

    def _view(self, player: int) -> Message:
        return self.table.message(player)

    def current_player(self) -> int:
        table = self.table
        if table.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        deciding = table.deciding()
        if self._simultaneous and len(deciding) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return deciding[0]

    def _legal_actions(self, player: int) -> list[int]:
        return list(self.table.legal(player))

    def _apply_action(self, action: int) -> None:
        self.table.choose(self.table.deciding()[0], action)

    def _apply_actions(self, actions: list[int]) -> None:
        self.table.apply_joint({seat: actions[seat] for seat in self.table.deciding()})

    def chance_outcomes(self) -> list[tuple[int, float]]:
        raise ValueError("no chance nodes: chance is sampled inside the engine's steps")

    def _action_to_string(self, player: int, action: int) -> str:
        return self.table.encoding.describe(action)

    def is_terminal(self) -> bool:
        return self.table.is_over()

    def returns(self) -> list[float]:
        return self.table.utilities()

    def __str__(self) -> str:
        """The full engine state, hidden cards included (OpenSpiel's debug string)."""
        return json.dumps(self.table.state.to_json(), sort_keys=True, separators=(",", ":"))

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> "EngineState":
        """A state drawn among those `player_id` cannot tell from this one."""
        return self.resampled(player_id, random.Random(int(probability_sampler() * 2 ** 53)))

    def resampled(self, player: int, rng: random.Random) -> "EngineState":
        twin: EngineState = self.get_game().new_initial_state()
        twin._table = self.table.determinized(player, rng)
        return twin


def resampler(seed: int = 0) -> Callable[[Any, int], Any]:
    """IS-MCTS's resampler (`ISMCTSBot.set_resampler`): the engine's determinization."""
    rng = random.Random(seed)

    def resample(state: Any, player: int) -> Any:
        return state.resampled(player, rng)

    return resample


def game_type(short_name: str, long_name: str, simultaneous: bool, min_players: int, max_players: int,
              parameters: Mapping[str, Any]) -> pyspiel.GameType:
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=dynamics.SIMULTANEOUS if simultaneous else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players,
        min_num_players=min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(parameters),
    )
