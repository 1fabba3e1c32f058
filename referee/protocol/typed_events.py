"""A game's events as typed messages, converted by reading the schema.

Each game's protocol package carries its events as one message per event
kind inside a oneof of `Event`, the oneof's field named by the engine's
kind and each message field by the event data's key. The conversion is the
same for every game (read the fields from the descriptors once, then copy
each data key into its field and back); only how one field's value is
written differs (enums named in the data, [a, b] pairs, mappings), so a
game codec supplies that and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from types import ModuleType
from typing import Any, NamedTuple

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from referee.games.base import Event, InvalidActionError, Seat

Value = Any
"""One field's value: in an event's data (JSON) or on the wire (what the
generated message classes take and give: a number, a text, a message, a
repeated container), untyped as the protobuf runtime ships no type stubs."""

Convert = Callable[[Value], Value]
Converters = tuple[Convert, Convert]
"""How one field's value goes to the wire and comes back into the data."""


def same(value: Value) -> Value:
    """A value that is written alike in the data and on the wire."""
    return value


def each(convert: Convert) -> Callable[[Value], list[Value]]:
    """`convert` applied to every value of a list (or a repeated field)."""

    def convert_all(values: Value) -> list[Value]:
        return [convert(v) for v in values]

    return convert_all


class _Field(NamedTuple):
    """How one field of an event message travels."""

    name: str
    """The message field's name: the engine event's data key."""
    present_if_set: bool
    """Has presence (optional or a message): the key is in the data exactly when the field is set."""
    secret_list: bool
    """Left out of the data when empty (see `TypedEvents`)."""
    to_wire: Convert
    from_wire: Convert


class TypedEvents:
    """The events of one protocol package (`package`, e.g. "saboteur.v1",
    its generated module `module`), whose `Event` holds them in the oneof
    `oneof`.

    `converters(field)` says how the field descriptor's whole value travels.
    `secret_lists` names the (kind, field) lists that only the event's own
    seat receives: the engine leaves them out of the other seats' data, so
    an empty one is left out again when read (the seat's own copy is never
    empty). Secret single values have presence and travel with it.
    """

    def __init__(self, package: str, module: ModuleType, oneof: str,
                 converters: Callable[[FieldDescriptor], Converters], secret_lists: Collection[tuple[str, str]]) -> None:
        self.package = package
        self.oneof = oneof
        self.types: dict[str, type[Message]] = {
            field.name: getattr(module, field.message_type.name)
            for field in module.Event.DESCRIPTOR.oneofs_by_name[oneof].fields
        }
        self.plans: dict[str, tuple[_Field, ...]] = {
            kind: tuple(_Field(field.name, field.has_presence and not field.is_repeated,
                               (kind, field.name) in secret_lists, *converters(field))
                        for field in message.DESCRIPTOR.fields)
            for kind, message in self.types.items()
        }

    def body(self, event: Event) -> Message:
        """The typed message of `event`. Raises ValueError for a kind no seat
        receives (record-only) or a data key its message has no field for."""
        plan = self.plans.get(event.kind)
        if plan is None:
            raise ValueError(f"{self.package} has no event {event.kind!r} (never sent to a seat, or missing in the proto)")
        data = event.data
        body = {f.name: f.to_wire(data[f.name]) for f in plan if f.name in data}
        if len(body) != len(data):
            raise ValueError(f"{self.package} has no field for {sorted(set(data) - set(body))} of {event.kind!r}")
        return self.types[event.kind](**body)

    def event(self, msg: Message, seat: Seat) -> Event:
        """The engine `Event` of the `Event` message `msg` received by `seat`.
        Raises InvalidActionError when no event is set."""
        kind = msg.WhichOneof(self.oneof)
        if kind is None:
            raise InvalidActionError(f"the event message sets no event {self.oneof}")
        body = getattr(msg, kind)
        data = {}
        for field in self.plans[kind]:
            if field.present_if_set and not body.HasField(field.name):
                continue
            value = getattr(body, field.name)
            if field.secret_list and not value:
                continue
            data[field.name] = field.from_wire(value)
        return Event(kind, data, frozenset((seat,)))
