"""One engine match as the training environments drive it.

A `Table` holds a rules engine's state and speaks in the terms a learning
agent uses: a seat's view is the protocol's observation message the
referee would send it (the engine's `observe`, then the game's codec), and
a decision is an index of the game's fixed action index
(`botsdk.encoding`), the same numbers a bot computes from the messages it
receives on the ladder.

Simultaneous decisions (Gnadenlos!'s commitments, G-5.4) can be taken in
turn: `choose` keeps a seat's choice aside and applies the decision only
when every deciding seat has chosen, so no seat's view changes before all
are in, as the referee asks every deciding seat before it reads any answer.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from google.protobuf.message import Message

from botsdk.encoding import Encoding, encoding_for
from referee.games.base import Action, Game, Seat, State
from referee.protocol.codec import GameCodec, codec_for


@lru_cache(maxsize=None)
def _codec(game: str) -> GameCodec:
    return codec_for(game)


@lru_cache(maxsize=1 << 16)
def action_index(game: str, action: Action) -> int:
    """The index of an engine action: its protocol message's, in the SDK's
    action index (actions are small frozen values that recur all match long,
    so each is encoded once)."""
    return encoding_for(game, 0).action_index(_codec(game).encode_action(action))


def pairwise_utilities(ranks: tuple[int, ...]) -> list[float]:
    """A seat's utility from the final ranking: the seats it finished ahead
    of, less those ahead of it, over the other seats' number; in [-1, 1],
    summing to 0, ties counting nothing. The ladder rates places, and this
    is the zero-sum reading of a place that OpenSpiel's algorithms need."""
    n = len(ranks)
    if n < 2:
        return [0.0] * n
    return [sum((other > mine) - (other < mine) for other in ranks) / (n - 1) for mine in ranks]


class Table:
    """A match of one game at one table size, with decisions as action indices."""

    def __init__(self, game: str, state: State) -> None:
        self.game_name = game
        self.state = state
        self.num_seats = state.num_seats
        self.encoding: Encoding = encoding_for(game, self.num_seats)
        self.codec = _codec(game)
        self.pending: dict[Seat, Action] = {}
        """Choices of a simultaneous decision kept aside until every deciding seat has chosen."""

    @classmethod
    def new(cls, rules: Game, num_seats: int, seed: int) -> "Table":
        """A new match of `rules` (under the rule set it is configured with:
        `load_game(name, rule_set)`), dealt from `seed` as the referee deals one."""
        return cls(rules.name, rules.new_state(num_seats, seed))

    @property
    def game(self) -> Game:
        return self.state.game

    # ---------------------------------------------------------------- views

    def message(self, seat: Seat) -> Message:
        """The observation message the referee would send `seat` now."""
        return self.codec.encode_observation(self.state.observe(seat))

    def legal(self, seat: Seat) -> dict[int, Action]:
        """The seat's legal actions by index, in ascending index order; empty
        for a seat not deciding now (or whose choice is already in)."""
        if seat in self.pending:
            return {}
        indexed = {action_index(self.game_name, action): action for action in self.state.legal_actions(seat)}
        return dict(sorted(indexed.items()))

    def legal_messages(self, seat: Seat) -> list[Message]:
        """The legal actions as the referee would offer them (`Decide.legal_actions`)."""
        return [self.codec.encode_action(action) for action in self.state.legal_actions(seat)]

    # ------------------------------------------------------------ decisions

    def deciding(self) -> list[Seat]:
        """The seats that must still choose, ascending."""
        return sorted(self.state.to_act() - self.pending.keys())

    def choose(self, seat: Seat, index: int) -> bool:
        """Seat `seat` chooses the action `index`. The decision is applied
        once every deciding seat has chosen; returns whether it was.
        Raises ValueError for a seat not deciding or an index not legal."""
        if seat not in self.deciding():
            raise ValueError(f"seat {seat} is not to decide now (deciding: {self.deciding()})")
        legal = self.legal(seat)
        if index not in legal:
            raise ValueError(f"action {index} ({self.encoding.describe(index)}) is not legal for seat {seat} now")
        self.pending[seat] = legal[index]
        if self.deciding():
            return False
        decision, self.pending = self.pending, {}
        self.state.apply(decision)
        return True

    def apply_joint(self, choices: Mapping[Seat, int]) -> None:
        """Every deciding seat's choice at once (a simultaneous node)."""
        for seat in self.deciding():
            if seat not in choices:
                raise ValueError(f"seat {seat} must decide now and has no action")
            self.choose(seat, choices[seat])

    # ------------------------------------------------------------------ end

    def is_over(self) -> bool:
        return self.state.is_terminal()

    def utilities(self) -> list[float]:
        """Each seat's utility at the end (`pairwise_utilities` of the ranking); zeros before."""
        if not self.state.is_terminal():
            return [0.0] * self.num_seats
        return pairwise_utilities(self.state.outcome().ranks)

    # ------------------------------------------------------------- copies

    def clone(self) -> "Table":
        twin = Table.__new__(Table)
        twin.__dict__.update(self.__dict__)
        twin.state = self.state.clone()
        twin.pending = dict(self.pending)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> "Table":
        """OpenSpiel clones a Python state by deep-copying its attributes:
        the engine's own clone is the cheap and exact copy."""
        return self.clone()

    def determinized(self, seat: Seat, rng: random.Random) -> "Table":
        """A table `seat` cannot tell from this one: the engine's
        determinization of its observation, its own choice kept aside, and
        for every other seat whose choice is aside (unseen by `seat`) a
        legal choice drawn at random."""
        twin = Table(self.game_name, self.game.determinize(self.state.observe(seat), rng))
        for other, action in self.pending.items():
            choices = twin.state.legal_actions(other)
            twin.pending[other] = action if other == seat else choices[rng.randrange(len(choices))]
        return twin
