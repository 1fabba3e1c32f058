"""The three decisions of Leduc poker (L-3.3 to L-3.5) as frozen values.

Each action's `code` is OpenSpiel's action number (ActionType: 0 fold,
1 call, 2 raise) and `str()` its lower-case name, which `parse_action`
reads back. A call with nothing to call is a check; OpenSpiel names it Call
too, and so do we: one action, whatever it costs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from referee.games.base import JSON, Action, InvalidActionError


@dataclass(frozen=True, slots=True)
class LeducAction(Action):
    """A betting decision; the subclasses are the moves."""

    name: ClassVar[str]
    code: ClassVar[int]

    def __str__(self) -> str:
        return self.name

    def to_json(self) -> JSON:
        return {"type": self.name}

    def __reduce__(self) -> tuple[Any, ...]:
        return move_of, (self.code,)  # the shared value, as parse_action gives


@dataclass(frozen=True, slots=True)
class Fold(LeducAction):
    """L-3.4: leave the hand, giving up what one has put in."""

    name: ClassVar[str] = "fold"
    code: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class Call(LeducAction):
    """L-3.3: put in what it takes to match the stakes (a check when that is nothing)."""

    name: ClassVar[str] = "call"
    code: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class Raise(LeducAction):
    """L-3.5: match the stakes, then raise them by the round's raise amount."""

    name: ClassVar[str] = "raise"
    code: ClassVar[int] = 2


FOLD, CALL, RAISE = Fold(), Call(), Raise()
MOVES: tuple[LeducAction, ...] = (FOLD, CALL, RAISE)
"""Indexed by `code`."""
BY_NAME: dict[str, LeducAction] = {move.name: move for move in MOVES}


def move_of(code: int) -> LeducAction:
    """The move with OpenSpiel's action number `code`."""
    return MOVES[code]


def parse_action(text: str) -> LeducAction:
    """"fold", "call" or "raise". Raises InvalidActionError."""
    move = BY_NAME.get(text.strip().lower())
    if move is None:
        raise InvalidActionError(f"not a Leduc poker action: {text!r}; actions: fold, call, raise")
    return move


def action_from_json(obj: JSON) -> LeducAction:
    """{"type": "fold" | "call" | "raise"}. Raises InvalidActionError."""
    if not isinstance(obj, dict) or not isinstance(obj.get("type"), str) or obj["type"] not in BY_NAME:
        raise InvalidActionError(f"not a Leduc poker action: {obj!r}; expected {{\"type\": \"fold\"|\"call\"|\"raise\"}}")
    return BY_NAME[obj["type"]]
