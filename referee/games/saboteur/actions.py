"""Decisions of Saboteur (S-9) as small, frozen, hashable values.

Actions name card kinds, never instance ids: copies of a kind are
interchangeable, so two crossroads in a hand give one set of moves. Each
action's `str()` is a short text that `parse_action` reads back:

    place nes 3 -1          place a path card upright at (3, -1)
    place nes 3 -1 turned   ... turned 180 degrees (S-1)
    break pick 2            a broken pick in front of seat 2 (S-5.1)
    repair repair_pick_cart 2 cart   remove seat 2's broken cart (S-5.2)
    rockfall 3 -1           clear the path card at (3, -1) (S-5.3)
    map 8 2                 look at the face-down goal at (8, 2) (S-5.4)
    discard nes             pass, discarding a card face down (S-3.1)
    pass                    pass with an empty hand (S-3.1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.games.base import JSON, Action, InvalidActionError
from referee.games.saboteur.cards import ACTION, KIND_INDEX, KINDS, PATH, TOOLS


@dataclass(frozen=True, slots=True)
class PlacePath(Action):
    """S-4.1: place a path card of this kind at (x, y), turned 180 degrees or not."""

    card: str
    x: int
    y: int
    turned: bool = False

    def __str__(self) -> str:
        return f"place {self.card} {self.x} {self.y}" + (" turned" if self.turned else "")

    def to_json(self) -> JSON:
        return {"type": "place", "card": self.card, "x": self.x, "y": self.y, "turned": self.turned}


@dataclass(frozen=True, slots=True)
class BreakTool(Action):
    """S-5.1: play the broken-tool card of `tool` in front of seat `target`."""

    tool: str
    target: int

    @property
    def card(self) -> str:
        return "break_" + self.tool

    def __str__(self) -> str:
        return f"break {self.tool} {self.target}"

    def to_json(self) -> JSON:
        return {"type": "break", "tool": self.tool, "target": self.target}


@dataclass(frozen=True, slots=True)
class Repair(Action):
    """S-5.2: play the repair card `card` on seat `target`, removing its broken `tool`."""

    card: str
    target: int
    tool: str

    def __str__(self) -> str:
        return f"repair {self.card} {self.target} {self.tool}"

    def to_json(self) -> JSON:
        return {"type": "repair", "card": self.card, "target": self.target, "tool": self.tool}


@dataclass(frozen=True, slots=True)
class Rockfall(Action):
    """S-5.3: clear the path card at (x, y)."""

    x: int
    y: int

    card = "rockfall"

    def __str__(self) -> str:
        return f"rockfall {self.x} {self.y}"

    def to_json(self) -> JSON:
        return {"type": "rockfall", "x": self.x, "y": self.y}


@dataclass(frozen=True, slots=True)
class Map(Action):
    """S-5.4: look privately at the face-down goal at (x, y)."""

    x: int
    y: int

    card = "map"

    def __str__(self) -> str:
        return f"map {self.x} {self.y}"

    def to_json(self) -> JSON:
        return {"type": "map", "x": self.x, "y": self.y}


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """S-3.1: pass by discarding a card of this kind face down."""

    card: str

    def __str__(self) -> str:
        return f"discard {self.card}"

    def to_json(self) -> JSON:
        return {"type": "discard", "card": self.card}


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """S-3.1: pass with an empty hand."""

    def __str__(self) -> str:
        return "pass"

    def to_json(self) -> JSON:
        return {"type": "pass"}


SaboteurAction = PlacePath | BreakTool | Repair | Rockfall | Map | Discard | Pass

PASS = Pass()


def _bad(text: object) -> InvalidActionError:
    return InvalidActionError(f"cannot parse Saboteur action {text!r}")


def _int(word: Any, text: object) -> int:
    if isinstance(word, bool):
        raise _bad(text)
    try:
        return int(word)
    except (TypeError, ValueError):
        raise _bad(text) from None


def _kind(name: Any, family: str, text: object) -> str:
    if not isinstance(name, str) or name not in KIND_INDEX or KINDS[KIND_INDEX[name]].family != family:
        raise _bad(text)
    return name


def _tool(name: Any, text: object) -> str:
    if name not in TOOLS:
        raise _bad(text)
    return str(name)


def _repair(card: Any, target: Any, tool: Any, text: object) -> Repair:
    card = _kind(card, ACTION, text)
    tool = _tool(tool, text)
    if not card.startswith("repair_") or tool not in KINDS[KIND_INDEX[card]].tools:
        raise _bad(text)
    return Repair(card, _int(target, text), tool)


def parse_action(text: str) -> SaboteurAction:
    """Read an action's `str()` back. Raises InvalidActionError."""
    words = text.split()
    head, rest = (words[0], words[1:]) if words else ("", [])
    if head == "pass" and not rest:
        return PASS
    if head == "place" and len(rest) in (3, 4):
        if len(rest) == 4 and rest[3] != "turned":
            raise _bad(text)
        return PlacePath(_kind(rest[0], PATH, text), _int(rest[1], text), _int(rest[2], text), len(rest) == 4)
    if head == "break" and len(rest) == 2:
        return BreakTool(_tool(rest[0], text), _int(rest[1], text))
    if head == "repair" and len(rest) == 3:
        return _repair(rest[0], rest[1], rest[2], text)
    if head == "rockfall" and len(rest) == 2:
        return Rockfall(_int(rest[0], text), _int(rest[1], text))
    if head == "map" and len(rest) == 2:
        return Map(_int(rest[0], text), _int(rest[1], text))
    if head == "discard" and len(rest) == 1:
        if rest[0] not in KIND_INDEX or KINDS[KIND_INDEX[rest[0]]].family not in (PATH, ACTION):
            raise _bad(text)
        return Discard(rest[0])
    raise _bad(text)


def action_from_json(obj: JSON) -> SaboteurAction:
    """Decode `Action.to_json()` output. Raises InvalidActionError."""
    if not isinstance(obj, dict):
        raise _bad(obj)
    kind = obj.get("type")
    try:
        if kind == "pass":
            return PASS
        if kind == "place":
            flag = obj.get("turned", False)
            if not isinstance(flag, bool):
                raise _bad(obj)
            return PlacePath(_kind(obj["card"], PATH, obj), _int(obj["x"], obj), _int(obj["y"], obj), flag)
        if kind == "break":
            return BreakTool(_tool(obj["tool"], obj), _int(obj["target"], obj))
        if kind == "repair":
            return _repair(obj["card"], obj["target"], obj["tool"], obj)
        if kind == "rockfall":
            return Rockfall(_int(obj["x"], obj), _int(obj["y"], obj))
        if kind == "map":
            return Map(_int(obj["x"], obj), _int(obj["y"], obj))
        if kind == "discard":
            card = obj["card"]
            if not isinstance(card, str) or card not in KIND_INDEX or KINDS[KIND_INDEX[card]].family not in (PATH, ACTION):
                raise _bad(obj)
            return Discard(card)
    except KeyError:
        raise _bad(obj) from None
    raise _bad(obj)
