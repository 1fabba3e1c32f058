"""OpenSpiel's observer of our games: the SDK's strings and tensors of the seat's message.

OpenSpiel asks a Python game for an observer per kind of view: the
information state (`perfect_recall=True`) or the observation. Ours write
the SDK encoder's output for the message the referee would send the seat
(`Table.message`), so OpenSpiel's `information_state_string`,
`information_state_tensor`, `observation_string` and `observation_tensor`
are what a ladder bot computes from its own messages (`botsdk.encoding`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from google.protobuf.message import Message

from botsdk.encoding import Encoding


class SeatObserver:
    """A PyObserver (open_spiel.python.observation): `tensor`, `dict`, `set_from`, `string_from`."""

    def __init__(self, encoding: Encoding, view: Callable[[Any, int], Message],
                 iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not obs_type.public_info or obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("only a seat's own view (public and its private information) is offered: "
                             "the view the referee sends")
        self.encoding = encoding
        self.view = view
        self.information_state = bool(obs_type.perfect_recall)
        shape = encoding.information_state_shape if self.information_state else encoding.observation_shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: Any, player: int) -> None:
        message = self.view(state, player)
        if self.information_state:
            values = self.encoding.information_state_tensor(message)
        else:
            values = self.encoding.observation_tensor(message)
        self.tensor[:] = np.frombuffer(values, np.float32)

    def string_from(self, state: Any, player: int) -> str:
        message = self.view(state, player)
        if self.information_state:
            return self.encoding.information_state_string(message)
        return self.encoding.observation_string(message)


class DirectViews:
    """The four view methods of a Python game's state, answered from Python.

    OpenSpiel's own path (the observer above) sizes every tensor by making
    a new initial state and writing its tensor first, which for our games
    deals a whole match each call; called from Python, these give the same
    values (tests/test_openspiel_games.py compares them with the C++ path)
    without that. A subclass provides `_view(player)` and the game's
    `encoding`."""

    def _view(self, player: int) -> Message:
        raise NotImplementedError

    def _seat(self, player: int | None) -> int:
        seat = self.current_player() if player is None else player  # type: ignore[attr-defined]
        if not 0 <= seat < self.get_game().num_players():  # type: ignore[attr-defined]
            raise ValueError(f"player {seat} has no view here (players 0 to {self.get_game().num_players() - 1})")  # type: ignore[attr-defined]
        return int(seat)

    def information_state_string(self, player: int | None = None) -> str:
        return self.get_game().encoding.information_state_string(self._view(self._seat(player)))  # type: ignore[attr-defined, no-any-return]

    def observation_string(self, player: int | None = None) -> str:
        return self.get_game().encoding.observation_string(self._view(self._seat(player)))  # type: ignore[attr-defined, no-any-return]

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        return list(self.get_game().encoding.information_state_tensor(self._view(self._seat(player))))  # type: ignore[attr-defined]

    def observation_tensor(self, player: int | None = None) -> list[float]:
        return list(self.get_game().encoding.observation_tensor(self._view(self._seat(player))))  # type: ignore[attr-defined]
