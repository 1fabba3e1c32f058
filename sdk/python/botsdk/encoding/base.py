"""What every game's encoding offers: one table size's tensors, strings and action index.

An `Encoding` turns the protocol's own messages (the game's `Observation`
and `Action` from `botsdk.pb`) into what a learning agent works with: a
fixed-size float tensor of the observation, the information-state and
observation strings that tabular policies are keyed by, and a fixed index
of the game's actions (integer <-> action message) with the legal mask of
a decision. The training environments (the repository's `envs` package)
call exactly this code on the message the referee would send, so a policy
sees the same numbers in training and on the ladder.

Tensors are `array.array("f")` and masks `array.array("b")`: plain Python,
no numpy needed in a bot's jail, and numpy reads them without a copy
(`numpy.frombuffer(tensor, numpy.float32)`).
"""

from __future__ import annotations

import abc
from array import array
from collections.abc import Iterable, Sequence
from typing import Any

from google.protobuf.message import Message


def zeros(size: int) -> array[float]:
    """A float32 tensor of `size` zeros."""
    return array("f", bytes(4 * size))


class Encoding(abc.ABC):
    """One game at one table size (`num_seats`): tensors, strings, action index.

    The action index is fixed per game (it does not depend on the table
    size or the variant): `num_actions` integers, each naming at most one
    action message; every action the rules can offer has one (each game's
    module documents its layout and why it covers every legal action).
    """

    game: str
    num_seats: int
    num_actions: int
    observation_shape: tuple[int, ...]
    information_state_shape: tuple[int, ...]

    # ------------------------------------------------------------ observation

    @abc.abstractmethod
    def observation_tensor(self, observation: Any) -> array[float]:
        """The observation's tensor, flat (`observation_shape` row-major)."""

    def information_state_tensor(self, observation: Any) -> array[float]:
        """The information state's tensor: the observation's unless the game
        distinguishes them (Leduc poker, as OpenSpiel does)."""
        return self.observation_tensor(observation)

    @abc.abstractmethod
    def information_state_string(self, observation: Any) -> str:
        """A text that is equal for two observations exactly when they are
        the same information state of the same seat: the key of a tabular
        policy."""

    def observation_string(self, observation: Any) -> str:
        return self.information_state_string(observation)

    # ----------------------------------------------------------------- actions

    @abc.abstractmethod
    def action_index(self, action: Any) -> int:
        """The index of an action message. Raises ValueError for a message
        that names no action of the game."""

    @abc.abstractmethod
    def action_name(self, index: int) -> str:
        """A short text for an index (for logs and OpenSpiel's action strings)."""

    def legal_indices(self, legal_actions: Iterable[Message]) -> list[int]:
        """The indices of a decision's legal actions, in the order given."""
        return [self.action_index(action) for action in legal_actions]

    def legal_mask(self, legal_actions: Iterable[Message]) -> array[int]:
        """`num_actions` bytes: 1 where the index is one of `legal_actions`."""
        mask = array("b", bytes(self.num_actions))
        for index in self.legal_indices(legal_actions):
            mask[index] = 1
        return mask

    def action_for(self, index: int, legal_actions: Sequence[Message]) -> Message:
        """The legal action whose index is `index` (the message as offered,
        so its field order is the referee's). Raises ValueError if none is."""
        for action in legal_actions:
            if self.action_index(action) == index:
                return action
        raise ValueError(f"action index {index} ({self.describe(index)}) is not among the legal actions")

    def describe(self, index: int) -> str:
        if not 0 <= index < self.num_actions:
            return f"out of range 0..{self.num_actions - 1}"
        return self.action_name(index)
