"""Saboteur observations, actions and events <-> `saboteur.v1` messages.

The observation is encoded field by field from `SaboteurObservation` — the
seat's information set (S-8), which has no seed, no other seat's hand or role
and no goal the seat has not looked at — never from `State.to_json()`, so
nothing a bot receives can rebuild hidden cards. Every decode is the exact
inverse (tests/test_protocol_saboteur.py checks encode -> decode == original
for every action, observation and event of random matches of 3 to 10 seats).
Decoding raises `InvalidActionError` (a `ValueError`) on a message that does
not describe a valid value.

Card kinds travel as the `saboteur.v1.Card` enum, whose value names are the
engine's kind names (`CARD_DEAD_NE` is "dead_ne"); the tables below are read
from the generated descriptor, so the schema is the one place that names them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from google.protobuf.descriptor import FieldDescriptor

from referee.games.base import Action, Event, InvalidActionError, Seat
from referee.games.saboteur.actions import PASS, BreakTool, Discard, Map, Pass, PlacePath, Repair, Rockfall
from referee.games.saboteur.observation import GoalView, NuggetView, PlacedCard, RoundResult, SaboteurObservation
from referee.protocol.flat import groups
from referee.protocol.typed_events import Convert, Converters, TypedEvents, each, same
from botsdk.pb.saboteur.v1 import saboteur_pb2 as pb


def _enum_names(enum: Any, prefix: str) -> dict[int, str | None]:
    """Enum number -> engine name (lower case, prefix dropped); the zero value -> None."""
    return {v.number: v.name.removeprefix(prefix).lower() if v.number else None for v in enum.DESCRIPTOR.values}


_CARD_NAME = _enum_names(pb.Card, "CARD_")
_CARD_CODE: dict[str | None, Any] = {name: number for number, name in _CARD_NAME.items()}
_TOOL_NAME = _enum_names(pb.Tool, "TOOL_")
_TOOL_CODE: dict[str | None, Any] = {name: number for number, name in _TOOL_NAME.items()}
"""Engine name -> enum number (typed Any: the generated stubs type enum fields
as their enum's value type, which a plain number from a table is not)."""


def _card(code: int) -> str:
    """The kind of a card in an action: never CARD_UNKNOWN."""
    name = _CARD_NAME.get(code)
    if name is None:
        raise InvalidActionError(f"card {code} is not a card kind")
    return name


def _tool(code: int) -> str:
    name = _TOOL_NAME.get(code)
    if name is None:
        raise InvalidActionError(f"tool {code} is not a tool")
    return name


def _cards(codes: Iterable[int]) -> tuple[str | None, ...]:
    """Card kinds of an observation, None for CARD_UNKNOWN."""
    try:
        return tuple([_CARD_NAME[c] for c in codes])
    except KeyError as exc:
        raise InvalidActionError(f"card {exc} is not defined") from None


# ------------------------------------------------------------------ actions


def encode_action(action: Action) -> pb.Action:
    """The `saboteur.v1.Action` of a Saboteur action (S-9). (The referee
    caches each action's bytes, so this is off the per-decision path.)"""
    if isinstance(action, PlacePath):
        return pb.Action(
            place_path=pb.PlacePath(card=_CARD_CODE[action.card], x=action.x, y=action.y, turned=action.turned)
        )
    if isinstance(action, BreakTool):
        return pb.Action(break_tool=pb.BreakTool(tool=_TOOL_CODE[action.tool], target=action.target))
    if isinstance(action, Repair):
        return pb.Action(
            repair=pb.Repair(card=_CARD_CODE[action.card], target=action.target, tool=_TOOL_CODE[action.tool])
        )
    if isinstance(action, Rockfall):
        return pb.Action(rockfall=pb.Rockfall(x=action.x, y=action.y))
    if isinstance(action, Map):
        return pb.Action(map=pb.Map(x=action.x, y=action.y))
    if isinstance(action, Discard):
        return pb.Action(discard=pb.Discard(card=_CARD_CODE[action.card]))
    if isinstance(action, Pass):
        return pb.Action(pass_turn=pb.Pass())
    raise TypeError(f"not a Saboteur action: {action!r}")


def decode_action(msg: pb.Action) -> Action:
    """The engine action of a `saboteur.v1.Action`. Raises InvalidActionError
    when no action kind is set or a card or tool is not a valid one (whether
    the action is legal is the referee's check, against the offered ones)."""
    kind = msg.WhichOneof("kind")
    if kind == "place_path":
        place = msg.place_path
        return PlacePath(_card(place.card), place.x, place.y, place.turned)
    if kind == "break_tool":
        return BreakTool(_tool(msg.break_tool.tool), msg.break_tool.target)
    if kind == "repair":
        repair = msg.repair
        return Repair(_card(repair.card), repair.target, _tool(repair.tool))
    if kind == "rockfall":
        return Rockfall(msg.rockfall.x, msg.rockfall.y)
    if kind == "map":
        return Map(msg.map.x, msg.map.y)
    if kind == "discard":
        return Discard(_card(msg.discard.card))
    if kind == "pass_turn":
        return PASS
    raise InvalidActionError("the action message sets no action kind")


# -------------------------------------------------------------- observation


def encode_observation(obs: SaboteurObservation) -> pb.Observation:
    """The `saboteur.v1.Observation` of a seat's information set (S-8).

    Built field by field from the observation only: the seed and the cards
    the seat does not know are not in it, so they cannot be sent. The maze
    and the per-seat lists go out flattened (see the proto for why). Fields at
    their default are left out of the constructor call: the message is the
    same (proto3 defaults), and the upb constructor is faster without them.
    """
    code = _CARD_CODE
    maze, broken, nuggets = obs.maze, obs.broken, obs.nuggets
    fields: dict[str, Any] = {
        "seat": obs.seat,
        "num_seats": obs.num_seats,
        "sabotaged_diggers_lose_share": obs.sabotaged_diggers_lose_share,
        "round": obs.round,
        "rounds": obs.rounds,
        "turn": obs.turn,
        "first_player": obs.first_player,
        "active": obs.active,
        "over": obs.over,
        "end_reason": obs.end_reason,
        "role": code[obs.role],
        "roles": [code[r] for r in obs.roles],
        "set_aside": code[obs.set_aside],
        "maze_x": [c.x for c in maze],
        "maze_y": [c.y for c in maze],
        "maze_cards": [code[c.card] for c in maze],
        "maze_turned": [c.turned for c in maze],
        "goals": [
            pb.Goal(x=g.x, y=g.y, card=code[g.card], revealed=g.revealed, turned=g.turned, seen_by=g.seen_by)
            for g in obs.goals
        ],
        "hand": [code[c] for c in obs.hand],
        "hand_counts": obs.hand_counts,
        "draw_pile": obs.draw_pile,
        "discard_public": [code[c] for c in obs.discard_public],
        "discard_own": [code[c] for c in obs.discard_own],
        "discard_face_down": obs.discard_face_down,
        "broken_tools": [_TOOL_CODE[t] for tools in broken for t in tools],
        "broken_sizes": [len(tools) for tools in broken],
        "nuggets_known": [v for n in nuggets for v in n.known],
        "nuggets_known_sizes": [len(n.known) for n in nuggets],
        "nuggets_unknown": [n.unknown for n in nuggets],
        "supply": obs.supply,
        "results": [
            pb.RoundResult(
                round=r.round, winners=r.winners, reached_by=r.reached_by,
                roles=[code[c] for c in r.roles], set_aside=code[r.set_aside],
            )
            for r in obs.results
        ],
    }
    return pb.Observation(**{name: value for name, value in fields.items() if value})


_VALUE_CACHE_SIZE = 1 << 14
_PLACED: dict[tuple[int, int, int, bool], PlacedCard] = {}
_GOALS: dict[bytes, GoalView] = {}
_NUGGETS: dict[tuple[tuple[int, ...], int], NuggetView] = {}


K = TypeVar("K")
V = TypeVar("V")


def _interned(cache: dict[K, V], key: K, make: Callable[..., V], *args: object) -> V:
    """`make(*args)`, built once per `key` in a process-wide cache.

    The maze grows by one card a turn and goals and nugget piles change a
    few times a round, while building one of their frozen dataclasses costs
    about ten times a lookup (2 us against 0.2 us): without the caches they
    were most of the decode time. Bounded: cleared when full.
    """
    value = cache.get(key)
    if value is None:
        if len(cache) >= _VALUE_CACHE_SIZE:
            cache.clear()
        value = cache[key] = make(*args)
    return value


def _new_placed(x: int, y: int, code: int, turned: bool) -> PlacedCard:
    return PlacedCard(x, y, _known_card(code), turned)


def _placed(x: int, y: int, code: int, turned: bool) -> PlacedCard:
    return _interned(_PLACED, (x, y, code, turned), _new_placed, x, y, code, turned)


def _maze(msg: pb.Observation) -> tuple[PlacedCard, ...]:
    xs, ys, cards, turned = msg.maze_x[:], msg.maze_y[:], msg.maze_cards[:], msg.maze_turned[:]
    if not len(xs) == len(ys) == len(cards) == len(turned):
        raise InvalidActionError("the maze arrays differ in length")
    return tuple(map(_placed, xs, ys, cards, turned))


def _new_goal(msg: pb.Goal) -> GoalView:
    return GoalView(msg.x, msg.y, _cards((msg.card,))[0], msg.revealed, msg.turned, tuple(msg.seen_by[:]))


def _goal(msg: pb.Goal) -> GoalView:
    # Keyed by the goal's bytes: serialising it costs less than reading its fields.
    return _interned(_GOALS, msg.SerializeToString(), _new_goal, msg)


def _nugget_view(known: tuple[int, ...], unknown: int) -> NuggetView:
    return _interned(_NUGGETS, (known, unknown), NuggetView, known, unknown)


def _known_card(code: int) -> str:
    """A card the observation always knows (its own role, a finished round's cards)."""
    name = _cards((code,))[0]
    if name is None:
        raise InvalidActionError("a card the seat knows is sent as CARD_UNKNOWN")
    return name


def decode_observation(msg: pb.Observation) -> SaboteurObservation:
    """The engine's `SaboteurObservation` of a `saboteur.v1.Observation`.

    Raises InvalidActionError when a card is undefined or the group sizes do
    not fit their lists. Repeated fields are read with `[:]` (a native copy
    to a list), measured faster than iterating the upb container.
    """
    tools = groups(msg.broken_tools[:], msg.broken_sizes[:])
    broken = tuple([tuple([_tool(t) for t in group]) for group in tools])
    known = groups(msg.nuggets_known[:], msg.nuggets_known_sizes[:])
    return SaboteurObservation(
        seat=msg.seat,
        num_seats=msg.num_seats,
        sabotaged_diggers_lose_share=msg.sabotaged_diggers_lose_share,
        round=msg.round,
        rounds=msg.rounds,
        turn=msg.turn,
        first_player=msg.first_player,
        active=msg.active,
        over=msg.over,
        end_reason=msg.end_reason,
        role=_known_card(msg.role),
        roles=_cards(msg.roles[:]),
        set_aside=_cards((msg.set_aside,))[0],
        maze=_maze(msg),
        goals=tuple(map(_goal, msg.goals)),
        hand=_cards(msg.hand[:]),  # type: ignore[arg-type]
        hand_counts=tuple(msg.hand_counts[:]),
        draw_pile=msg.draw_pile,
        discard_public=_cards(msg.discard_public[:]),  # type: ignore[arg-type]
        discard_own=_cards(msg.discard_own[:]),  # type: ignore[arg-type]
        discard_face_down=tuple(msg.discard_face_down[:]),
        broken=broken,
        nuggets=tuple(map(_nugget_view, known, msg.nuggets_unknown[:])),
        supply=msg.supply,
        results=tuple(
            [
                RoundResult(r.round, r.winners, r.reached_by, tuple(map(_known_card, r.roles[:])),
                            _known_card(r.set_aside))
                for r in msg.results
            ]
        ),
    )


# ------------------------------------------------------------------- events

def _converters(field: FieldDescriptor) -> Converters:
    """How an event field travels: card and tool enums are named in the
    data, everything else is a number, flag or text (a list if repeated)."""
    enum = field.enum_type.name if field.enum_type is not None else None
    to_wire: Convert = same
    from_wire: Convert = same
    if enum == "Card":
        to_wire, from_wire = _CARD_CODE.__getitem__, _known_card
    elif enum == "Tool":
        to_wire, from_wire = _TOOL_CODE.__getitem__, _tool
    return (each(to_wire), each(from_wire)) if field.is_repeated else (to_wire, from_wire)


_EVENTS = TypedEvents("saboteur.v1", pb, "kind", _converters,
                      secret_lists={("hand_dealt", "cards"), ("nuggets_received", "values")})
"""A dealt hand and a received payout only their own seat receives."""


def encode_event(event: Event) -> pb.Event:
    """The `saboteur.v1.Event` of an event the receiving seat may see.

    Only kind and data travel: `visible_to` is the referee's business.
    Raises ValueError for a record-only event (the deal, the shuffles, the
    drawn nuggets), which no seat may receive and no message can carry.
    """
    return pb.Event(**{event.kind: _EVENTS.body(event)})


def decode_event(msg: pb.Event, seat: Seat) -> Event:
    """The engine `Event` of a `saboteur.v1.Event` received by `seat`."""
    return _EVENTS.event(msg, seat)
