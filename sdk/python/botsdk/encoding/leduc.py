"""Leduc poker's encoding: OpenSpiel's `leduc_poker`, number for number.

Built from the `leduc.v1.Observation` alone, the strings and tensors are
the ones OpenSpiel's C++ `leduc_poker` gives the same seat in the same
position (tests/test_openspiel_leduc.py compares them at every state of
thousands of matches), so a policy trained on OpenSpiel's own game plays
here unchanged, and one trained here plays there.

- **Action index** (3): OpenSpiel's action ids, fold 0, call 1, raise 2
  (the `leduc.v1.Move` number minus one).
- **Information-state string**: `[Observer: s][Private: c][Round r][Player: p][Pot: x]
  [Money: ...][Public: c]?[Round1: ...][Round2: ...]`, each round's bets as
  action ids; `Player` is the seat to act, and at the end the seat that
  acted last (OpenSpiel's current player then). The observation string
  has `[Ante: ...]` (each seat's contribution) instead of the two rounds.
- **Information-state tensor** (N + 2D + 4L floats for N seats, a deck of
  D = 2N + 2 cards and at most L = 3N - 2 bets a round): the observer
  one-hot, its card one-hot, the public card one-hot, then each round's
  bets, two floats a bet (call: 1 0, raise: 0 1, fold: 0 0).
- **Observation tensor** (N + 2D + N): observer, card, public card, then
  each seat's contribution in chips.

Positions OpenSpiel has and a seat is never sent (the deal, as chance
nodes) are written with the private card -10000 (OpenSpiel's kInvalidCard)
and `to_act` -1; the training environments build such messages for them.
"""

from __future__ import annotations

from array import array
from typing import Any

from botsdk.encoding.base import Encoding, zeros
from botsdk.pb.leduc.v1 import leduc_pb2 as pb

STARTING_CHIPS = 100
"""L-5.5: each seat's chips before the ante; OpenSpiel's `Money` counts from it."""
NO_CARD = -10000
"""OpenSpiel's kInvalidCard: a private card not dealt yet."""
_MOVES = ("fold", "call", "raise")


def _number(value: float) -> str:
    """A double as OpenSpiel writes it (absl::StrCat: six significant digits)."""
    return f"{value:g}"


class LeducEncoding(Encoding):
    game = "leduc"
    num_actions = len(_MOVES)

    def __init__(self, num_seats: int) -> None:
        self.num_seats = num_seats
        self.deck = 2 * num_seats + 2
        self.max_bets = 3 * num_seats - 2
        self.information_state_shape = (num_seats + 2 * self.deck + 4 * self.max_bets,)
        self.observation_shape = (num_seats + 2 * self.deck + num_seats,)

    # ------------------------------------------------------------ observation

    def _player(self, obs: pb.Observation) -> int:
        """OpenSpiel's current player: the seat to act; at the end the seat that acted last."""
        if not obs.over:
            return int(obs.to_act)
        return int((obs.round2 or obs.round1)[-1].seat)

    def _head(self, obs: pb.Observation) -> str:
        if obs.over:
            money = [STARTING_CHIPS + r for r in obs.returns]
        else:
            money = [float(STARTING_CHIPS - c) for c in obs.contributions]
        head = (f"[Observer: {obs.seat}][Private: {obs.card}][Round {obs.round}][Player: {self._player(obs)}]"
                f"[Pot: {obs.pot}][Money: {' '.join(_number(m) for m in money)}]")
        if obs.HasField("public_card"):
            head += f"[Public: {obs.public_card}]"
        return head

    def information_state_string(self, observation: Any) -> str:
        obs: pb.Observation = observation
        rounds = [" ".join(str(bet.move - 1) for bet in bets) for bets in (obs.round1, obs.round2)]
        return f"{self._head(obs)}[Round1: {rounds[0]}][Round2: {rounds[1]}]"

    def observation_string(self, observation: Any) -> str:
        obs: pb.Observation = observation
        return f"{self._head(obs)}[Ante: {' '.join(str(c) for c in obs.contributions)}]"

    def _cards(self, obs: pb.Observation, tensor: array[float]) -> int:
        """Observer, private card and public card one-hots; returns the next offset."""
        n, deck = self.num_seats, self.deck
        tensor[obs.seat] = 1.0
        if obs.card >= 0:
            tensor[n + obs.card] = 1.0
        if obs.HasField("public_card"):
            tensor[n + deck + obs.public_card] = 1.0
        return n + 2 * deck

    def information_state_tensor(self, observation: Any) -> array[float]:
        obs: pb.Observation = observation
        tensor = zeros(self.information_state_shape[0])
        offset = self._cards(obs, tensor)
        for bets in (obs.round1, obs.round2):
            for i, bet in enumerate(bets):
                if bet.move == pb.MOVE_CALL:
                    tensor[offset + 2 * i] = 1.0
                elif bet.move == pb.MOVE_RAISE:
                    tensor[offset + 2 * i + 1] = 1.0
            offset += 2 * self.max_bets
        return tensor

    def observation_tensor(self, observation: Any) -> array[float]:
        obs: pb.Observation = observation
        tensor = zeros(self.observation_shape[0])
        offset = self._cards(obs, tensor)
        for seat, chips in enumerate(obs.contributions):
            tensor[offset + seat] = float(chips)
        return tensor

    # ----------------------------------------------------------------- actions

    def action_index(self, action: Any) -> int:
        move = action.move if isinstance(action, pb.Action) else None
        if move not in (pb.MOVE_FOLD, pb.MOVE_CALL, pb.MOVE_RAISE):
            raise ValueError(f"not a Leduc poker action: {action!r}")
        return int(move) - 1

    def action_name(self, index: int) -> str:
        return _MOVES[index]

    def action_message(self, index: int) -> pb.Action:
        """The action message of an index (Leduc's are context-free)."""
        if not 0 <= index < self.num_actions:
            raise ValueError(f"Leduc poker action index {index} is not 0 (fold), 1 (call) or 2 (raise)")
        return pb.Action(move=index + 1)  # type: ignore[arg-type]
