"""`python_leduc`: Leduc poker on our engine, position for position OpenSpiel's `leduc_poker`.

The deal is explicit chance, as there: one chance node per private card,
seat 0 first, then one for the public card when round 1's betting ends
(L-2.2, L-4.1); each outcome is a card's number (L-1.2) with equal
probability among the cards left. The engine is built from the dealt
cards (its JSON state format) once every seat has its card, and rebuilt
with the drawn public card at the second chance node, so the engine
plays every rule and the chance is OpenSpiel's. Legal actions, strings,
tensors and returns equal `leduc_poker`'s at every state
(tests/test_openspiel_leduc.py), including its `GameInfo`.

At the chance nodes no seat is sent anything; their views are written as
OpenSpiel has them: before a seat's card is dealt its private card is
-10000, and while the public card is being dealt the player to act is -1
(`botsdk.encoding.leduc`).
"""

from __future__ import annotations

from typing import Any

import pyspiel
from google.protobuf.message import Message

from botsdk.encoding import encoding_for
from botsdk.encoding.leduc import NO_CARD
from botsdk.pb.leduc.v1 import leduc_pb2 as pb
from envs.openspiel.observer import DirectViews, SeatObserver
from envs.table import Table
from referee.games import load_game
from referee.games.leduc.config import ANTE, MAX_PLAYERS, MIN_PLAYERS, RAISE_AMOUNTS
from referee.games.leduc.observation import LeducObservation

_ENGINE = load_game("leduc")
GAME_TYPE = pyspiel.GameType(
    short_name="python_leduc",
    long_name="Python Leduc poker (bot-referee engine)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification={"players": 2},
)


def deck_size(players: int) -> int:
    return 2 * players + 2


class LeducGame(pyspiel.Game):
    def __init__(self, params: dict[str, Any]) -> None:
        self.players = int(params["players"])
        _ENGINE.check_seats(self.players)
        self.encoding = encoding_for("leduc", self.players)
        most = ANTE + 2 * sum(RAISE_AMOUNTS)  # L-3.5: the ante and two raises a round
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoding.num_actions,
            max_chance_outcomes=deck_size(self.players),
            num_players=self.players,
            min_utility=-float(most),
            max_utility=float(most * (self.players - 1)),
            utility_sum=0.0,
            max_game_length=2 * (3 * self.players - 2),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> "LeducState":
        return LeducState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> SeatObserver:
        return SeatObserver(self.encoding, _view, iig_obs_type, params)


def _view(state: "LeducState", player: int) -> Message:
    return state.message(player)


class LeducState(DirectViews, pyspiel.State):
    def __init__(self, game: LeducGame) -> None:
        super().__init__(game)
        self._players = game.players
        self._dealt: list[int] = []
        self._table: Table | None = None
        self._public_dealt = False
        self._awaiting_public = False
        """Round 1's betting is over and the public card is still to be drawn (set after each move)."""

    @property
    def table(self) -> Table:
        """The engine's match, once every seat has its card."""
        if self._table is None:
            raise ValueError("the cards are still being dealt: no match yet")
        return self._table

    # ------------------------------------------------------------ chance

    def _public_pending(self) -> bool:
        return self._awaiting_public

    def current_player(self) -> int:
        if self._table is None or self._public_pending():
            return int(pyspiel.PlayerId.CHANCE)
        if self._table.is_over():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._table.deciding()[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        left = sorted(set(range(deck_size(self._players))) - set(self._dealt))
        return [(card, 1.0 / len(left)) for card in left]

    def _deal(self, card: int) -> None:
        self._dealt.append(card)
        if len(self._dealt) == self._players:  # L-2.2: every seat has its card
            self._table = Table("leduc", _ENGINE.state_from_json({"seats": self._players, "hands": self._dealt}))

    def _deal_public(self, card: int) -> None:
        """L-4.1: the engine again, from its own JSON with the drawn public card."""
        assert self._table is not None
        obj = self._table.state.to_json()
        obj.pop("deck")
        obj["public_card"] = card
        self._table = Table("leduc", _ENGINE.state_from_json(obj))
        self._public_dealt = True
        self._awaiting_public = False

    # ------------------------------------------------------------ moves

    def _legal_actions(self, player: int) -> list[int]:
        assert self._table is not None
        return list(self._table.legal(player))

    def _apply_action(self, action: int) -> None:
        if self._table is None:
            self._deal(action)
        elif self._public_pending():
            self._deal_public(action)
        else:
            table = self._table
            table.choose(table.deciding()[0], action)
            self._awaiting_public = (not self._public_dealt and not table.is_over()
                                     and self._public_view(table).round == 2)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"Chance outcome:{action}"
        return str(self.get_game().encoding.describe(action))

    def is_terminal(self) -> bool:
        return self._table is not None and self._table.is_over()

    def returns(self) -> list[float]:
        """L-5.5: chips at the end less chips at the start, OpenSpiel's returns."""
        if not self.is_terminal():
            return [0.0] * self._players
        assert self._table is not None
        return list(self._public_view(self._table).returns)

    @staticmethod
    def _public_view(table: Table) -> LeducObservation:
        """Seat 0's observation, for what every seat sees: the round and the result."""
        observation = table.state.observe(0)
        assert isinstance(observation, LeducObservation)
        return observation

    def __str__(self) -> str:
        return f"dealt {self._dealt}" if self._table is None else str(self._table.state.to_json())

    # ------------------------------------------------------------ views

    def _view(self, player: int) -> Message:
        return self.message(player)

    def message(self, seat: int) -> Message:
        """The seat's `leduc.v1.Observation`: the referee's, or at a chance node OpenSpiel's view of it."""
        if self._table is None:
            n = self._players
            return pb.Observation(seat=seat, num_seats=n, card=self._dealt[seat] if seat < len(self._dealt) else NO_CARD,
                                  round=1, to_act=-1, stakes=ANTE, pot=ANTE * n, contributions=[ANTE] * n,
                                  folded=[False] * n)
        message = self._table.message(seat)
        if self._public_pending():
            message.ClearField("public_card")
            message.to_act = -1
        return message
