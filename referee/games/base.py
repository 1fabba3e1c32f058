"""The game-neutral interface every rules engine implements.

A `Game` is a game's rules (name, seat range, rules version, variant
options) configured with one rule set (referee.games.rule_sets), and a
factory of `State`s under it. A `State` is one position: who must decide
now, their legal actions, applying decisions, what each seat observes, the end
and its ranking, determinization for search, clone and a JSON round trip.

Rules engines are pure: no I/O, no clocks, no global randomness. Chance comes
only from counter-based streams held in the state (`ChanceStream`), so a state
is reproducible from its seed and the decisions taken, clones cost nothing
for the generator, and each kind of chance (a deck, a die) has its own stream
that does not shift when a decision changes how often another is drawn.

Hidden information follows the card-knowledge model of DESIGN.md: every card
instance carries the set of seats that know its identity; an observation shows
a known card as itself and an unknown one only as a face-down card in its zone;
`determinize` deals the unknown cards back at random.
"""

from __future__ import annotations

import abc
import copy
import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from referee.games.chance import ChanceStream, derive_seed
from referee.games.plugin import load_game
from referee.games.rule_sets import RuleSet, parse_options

__all__ = [
    "JSON", "Action", "ChanceStream", "Event", "EventLog", "Game", "IllegalActionError", "InvalidActionError", "Observation",
    "Outcome", "RuleSet", "Seat", "State", "audiences", "derive_seed", "fields_reduce", "ranks_from_keys",
]

Seat = int
JSON = Any
"""A JSON-compatible value (dict, list, str, int, float, bool or None)."""


def fields_reduce(value: Any) -> tuple[Any, ...]:
    """How a frozen dataclass pickles: its class and its fields. Compiled,
    the default (a bare instance, then its fields set one by one) meets the
    frozen class's refusal to set them."""
    return value.__class__, tuple([getattr(value, field.name) for field in dataclasses.fields(value)])


class InvalidActionError(ValueError):
    """An action could not be parsed or decoded (its text or JSON is malformed)."""


class IllegalActionError(ValueError):
    """An action is well formed but not legal for that seat in this state.

    The message never names hidden cards: it is safe to show the deciding seat.
    """


@mypyc_attr(allow_interpreted_subclasses=True)
class Action:
    """A decision: a small, frozen, hashable value (each game's are dataclasses).

    `str(action)` is a short text that the game's `parse_action` reads back.
    """

    def __reduce__(self) -> tuple[Any, ...]:
        if dataclasses.is_dataclass(self):
            return fields_reduce(self)
        reduced = object.__reduce__(self)
        assert isinstance(reduced, tuple)
        return reduced

    @abc.abstractmethod
    def to_json(self) -> JSON:
        """The action as a JSON object with a "type" key."""


class Event:
    """Something that happened, and who may see it.

    `visible_to` lists the seats allowed to see this event; an empty set means
    the referee's record only (e.g. a shuffle's result). A happening that
    different seats see differently is emitted as several events, one per
    audience, each carrying only what its audience may know.

    A read-only value (its attributes are Final; compiled, assigning one
    raises AttributeError), equal to another of the same data. Written out
    rather than as a frozen dataclass: a simulation builds hundreds a match,
    and the dataclass's generated __init__ cost ten times this one compiled.
    """

    __slots__ = ("kind", "data", "visible_to")

    def __init__(self, kind: str, data: Mapping[str, JSON], visible_to: frozenset[Seat]) -> None:
        self.kind: Final = kind
        self.data: Final = data
        self.visible_to: Final = visible_to

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Event):
            return NotImplemented
        return self.kind == other.kind and self.data == other.data and self.visible_to == other.visible_to

    __hash__ = None  # type: ignore[assignment]  # its data is a dict

    def __repr__(self) -> str:
        return f"Event(kind={self.kind!r}, data={self.data!r}, visible_to={self.visible_to!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return Event, (self.kind, self.data, self.visible_to)

    def to_json(self) -> JSON:
        return {"kind": self.kind, "data": dict(self.data), "visible_to": sorted(self.visible_to)}

    @classmethod
    def from_json(cls, obj: JSON) -> "Event":
        return cls(obj["kind"], obj["data"], frozenset(obj["visible_to"]))


_AUDIENCES: Final[dict[int, tuple[frozenset[Seat], ...]]] = {}


def audiences(seats: int) -> tuple[frozenset[Seat], ...]:
    """The set of seats of every bitmask over `seats` seats (bit s: seat s),
    built once per table size: engines name an audience by its bitmask and
    hand out these shared sets, from `to_act()` and in events."""
    table = _AUDIENCES.get(seats)
    if table is None:
        table = _AUDIENCES[seats] = tuple(
            frozenset([s for s in range(seats) if mask >> s & 1]) for mask in range(1 << seats)
        )
    return table


class EventLog:
    """Where a state records the events of the step being applied.

    `State.apply` wants every event, `apply_unchecked` none: a state sets
    `events` to a list, or to None, for the length of one step, and its rules
    call `add` and `split` either way (a call site whose event data takes
    work to build tests `recording` first). Audiences are bitmasks of seats
    (0: the record only).
    """

    __slots__ = ("audiences", "everyone", "events")

    def __init__(self, seats: int) -> None:
        self.audiences = audiences(seats)
        self.everyone = (1 << seats) - 1
        self.events: list[Event] | None = None

    @property
    def recording(self) -> bool:
        return self.events is not None

    def add(self, kind: str, audience: int, data: dict[str, JSON]) -> None:
        """An event for the seats in the `audience` bitmask."""
        if self.events is not None:
            self.events.append(Event(kind, data, self.audiences[audience]))

    def split(self, kind: str, knowers: int, secret: dict[str, JSON], public: dict[str, JSON]) -> None:
        """A happening seen two ways: with its secret part by the seats that
        know it, without it by everyone else (if anyone)."""
        if self.events is None:
            return
        self.events.append(Event(kind, {**public, **secret}, self.audiences[knowers]))
        others = self.everyone & ~knowers
        if others:
            self.events.append(Event(kind, public, self.audiences[others]))


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: why it ended and each seat's place (0 = first).

    Ties share a place: ranks (0, 0, 2) means seats 0 and 1 tie for first.
    """

    reason: str
    ranks: tuple[int, ...]
    detail: str = ""
    scores: tuple[float, ...] = ()
    """What the places were decided by, per seat, where the match is ranked
    by a score (a Leduc match of several hands: each seat's chips won);
    empty where the places alone are the result."""
    deal_scores: tuple[tuple[float, ...], ...] = ()
    """Where a match is several deals (a Leduc match's hands): each deal's
    score per seat, in the order played; they add up to `scores`."""
    deal_luck: tuple[tuple[float, ...], ...] = ()
    """Each deal's luck per seat, the part of its score the chance events
    decided, with expectation 0 (a Leduc hand's: referee.games.leduc.luck);
    empty where the game does not measure it."""

    def __reduce__(self) -> tuple[Any, ...]:
        return fields_reduce(self)

    def winners(self) -> frozenset[Seat]:
        return frozenset(s for s, r in enumerate(self.ranks) if r == 0)

    def to_json(self) -> JSON:
        scored = {"scores": list(self.scores)} if self.scores else {}
        return {"reason": self.reason, "ranks": list(self.ranks), "detail": self.detail, **scored}


@mypyc_attr(native_class=False)  # a plain class: a subclass dataclass declares `seat` as a field of its own
class Observation:
    """What one seat may know: its information set, built from scratch.

    Two states that look the same to a seat give equal observations, and an
    observation holds everything `Game.determinize` needs to build a full
    state consistent with it.
    """

    seat: Seat

    @abc.abstractmethod
    def to_json(self) -> JSON:
        """The observation as JSON (the form documented in docs/engine.md)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """One position of a match. Mutable; `clone()` before exploring."""

    game: ClassVar["Game"]

    @property
    @abc.abstractmethod
    def num_seats(self) -> int: ...

    @abc.abstractmethod
    def to_act(self) -> frozenset[Seat]:
        """The seats that must decide now: several for a simultaneous
        decision, none exactly when the match is over."""

    @abc.abstractmethod
    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        """The legal actions of `seat` now, in a deterministic order.

        Empty when the seat is not to act.
        """

    def apply(self, actions: Mapping[Seat, Action]) -> list[Event]:
        """Apply one decision of every seat in `to_act()` and return the events.

        Raises IllegalActionError if the seats are not exactly `to_act()` or an
        action is not among that seat's legal actions; the state is then
        unchanged.
        """
        deciding = self.to_act()
        if frozenset(actions) != deciding:
            raise IllegalActionError(
                f"seats {sorted(deciding)} must decide now, got decisions from {sorted(actions)}"
            )
        for seat, action in actions.items():
            if action not in self.legal_actions(seat):
                raise IllegalActionError(f"{action} is not a legal action for seat {seat} now")
        return self._apply(actions, record=True)

    def apply_unchecked(self, actions: Mapping[Seat, Action]) -> None:
        """Apply legal decisions without checking them or building events.

        Warning: for search only. An illegal action corrupts the state.
        """
        self._apply(actions, record=False)

    @abc.abstractmethod
    def _apply(self, actions: Mapping[Seat, Action], record: bool) -> list[Event]: ...

    @abc.abstractmethod
    def observe(self, seat: Seat) -> Observation:
        """The information set of `seat` (rules G-10 / S-x for each game)."""

    @abc.abstractmethod
    def is_terminal(self) -> bool: ...

    @abc.abstractmethod
    def outcome(self) -> Outcome:
        """The final ranking. Raises ValueError before the end."""

    @abc.abstractmethod
    def clone(self) -> "State": ...

    @abc.abstractmethod
    def to_json(self) -> JSON:
        """The full state (seed and hidden cards included): for records,
        scenarios and tests, never for a bot."""

    def determinize(self, seat: Seat, rng: random.Random) -> "State":
        """A full state drawn at random among those `seat` cannot tell apart
        from this one, built only from the seat's observation."""
        return self.game.determinize(self.observe(seat), rng)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its game's name and its JSON, which restores it exactly
        (the conformance suite checks the round trip)."""
        return restore_state, (self.game.name, self.to_json())


@mypyc_attr(allow_interpreted_subclasses=True)
class Game:
    """A game's rules, configured with one rule set, and the factory of its states.

    A game's package registers one instance, which plays the base rules;
    `configure` (or `load_game(name, options)`) gives a copy that plays
    another rule set, as OpenSpiel's `load_game(name, params)` returns a
    game with its parameters. Immutable otherwise.

    The base class owns the checks and the bookkeeping; a game implements
    the private hooks (`_new_state`, `_observation_from_json`,
    `_determinize`) and the JSON readers, as OpenSpiel's games implement
    `_apply_action` behind its public `apply_action`.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    """The game's name as people write it ("Gnadenlos!"), for messages."""
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    rules_version: ClassVar[str]
    variant_options: ClassVar[Mapping[str, tuple[str, ...]]]
    """Each variant option and its allowed values; the first is the default."""
    variant_requires: ClassVar[Mapping[str, tuple[str, str]]] = {}
    """Options that exist only under another option's value: option -> (that
    option, its value). Such an option is left out of a rule set unless its
    requirement holds, and naming it otherwise is refused."""
    observation_type: ClassVar[type[Observation]]
    _rule_set: RuleSet | None = None
    """Set by `configure`; None: the base rules, made when first asked for."""

    def match_format(self) -> dict[str, int]:
        """The parameters of a match beyond one play of the rules (a Leduc
        match's hands), as the record's header names them; {} for a game
        whose match is one play of its rules."""
        return {}

    @property
    def rule_set(self) -> RuleSet:
        """The rule set this game plays: the base rules, unless it was
        configured with another (`configure`, `load_game(name, options)`)."""
        if self._rule_set is None:
            self._rule_set = self.make_rule_set()
        return self._rule_set

    def make_rule_set(self, options: Mapping[str, str] | None = None) -> RuleSet:
        """The rule set of `options` (only those given; the others take their
        defaults, and an option whose requirement does not hold is left
        out). Raises ValueError for an unknown option or value, or an
        option named without its requirement, listing what is allowed."""
        given = dict(options or {})
        for key, value in given.items():
            if key not in self.variant_options:
                raise ValueError(
                    f"{self.name} has no variant option {key!r}; the options are {self.describe_variants()}"
                )
            if value not in self.variant_options[key]:
                raise ValueError(
                    f"variant {key} must be one of {list(self.variant_options[key])}, not {value!r}"
                )
        defaults = {name: values[0] for name, values in self.variant_options.items()}
        full = {name: given.get(name, default) for name, default in defaults.items()}
        for key, (needs, value) in self.variant_requires.items():
            if full[needs] == value:
                continue
            if key in given:
                raise ValueError(
                    f"variant {key} applies only with {needs}={value}, not {needs}={full[needs]}: "
                    f"add {needs}={value} or leave {key} out; the options are {self.describe_variants()}"
                )
            del full[key]
        return RuleSet(self.name, full, defaults)

    def parse_rule_set(self, text: str) -> RuleSet:
        """The rule set of its text form, or of options as a command line
        writes them (a bare option means "on"; referee.games.rule_sets).
        Raises ValueError as `make_rule_set` does."""
        return self.make_rule_set(parse_options(text))

    def configure(self, rule_set: RuleSet) -> "Game":
        """This game playing `rule_set` (made by this game): its states are
        set up under it. Raises ValueError for another game's rule set."""
        if rule_set.game != self.name:
            raise ValueError(f"a rule set of {rule_set.game} does not configure {self.name}")
        if rule_set == self.rule_set:
            return self
        configured = copy.copy(self)
        configured._rule_set = rule_set
        return configured

    def describe_variants(self) -> str:
        """Every option and its values, default first, with its requirement:
        what an error message offers instead of a bad variant."""
        parts = []
        for name, values in self.variant_options.items():
            need = self.variant_requires.get(name)
            parts.append(f"{name}={'|'.join(values)}" + (f" (with {need[0]}={need[1]})" if need else ""))
        return ", ".join(parts) if parts else "none"

    def check_seats(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise ValueError(
                f"{self.name} is played by {self.min_seats} to {self.max_seats} seats, not {seats}"
            )

    def new_state(self, seats: int, seed: int) -> State:
        """A new match of `seats` seats under the game's rule set: its
        chance streams derive from `seed`. Raises ValueError for a seat
        count the game does not have."""
        self.check_seats(seats)
        return self._new_state(seats, seed, None)

    def new_state_with_events(self, seats: int, seed: int) -> tuple[State, list[Event]]:
        """`new_state`, and the events of its setup (the deal): the referee
        records them and tells each seat the ones it may see."""
        self.check_seats(seats)
        events: list[Event] = []
        return self._new_state(seats, seed, events), events

    @abc.abstractmethod
    def _new_state(self, seats: int, seed: int, events: list[Event] | None) -> State:
        """Set up a match (seats checked) under `self.rule_set`, whose
        options are checked; append the setup's events to `events` when it
        is given."""

    @abc.abstractmethod
    def state_from_json(self, obj: JSON) -> State:
        """Rebuild a state from `State.to_json()` output or a hand-written
        scenario. Raises ValueError when the JSON is not a valid state."""

    @abc.abstractmethod
    def action_from_json(self, obj: JSON) -> Action:
        """Raises InvalidActionError for malformed JSON."""

    @abc.abstractmethod
    def parse_action(self, text: str) -> Action:
        """Read `str(action)` back. Raises InvalidActionError."""

    def observation_from_json(self, obj: JSON) -> Observation:
        """Read `Observation.to_json()` back. Raises ValueError for malformed JSON."""
        try:
            return self._observation_from_json(obj)
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"malformed {self.title} observation: {exc}") from None

    @abc.abstractmethod
    def _observation_from_json(self, obj: JSON) -> Observation: ...

    def determinize(self, observation: Observation, rng: random.Random) -> State:
        """A full state consistent with `observation`, hidden cards dealt at
        random from `rng`. Its future chance streams are seeded from `rng`
        too, never from anything the seat could not know."""
        if not isinstance(observation, self.observation_type):
            raise ValueError(f"not a {self.title} observation")
        return self._determinize(observation, rng)

    @abc.abstractmethod
    def _determinize(self, observation: Observation, rng: random.Random) -> State:
        """`determinize` once it has checked that `observation` is an
        `observation_type`: a game narrows it to that class once, with
        `typing.cast` (compiled, a checked cast).

        Not a type parameter (`Game[O]` with `_determinize(observation: O)`):
        a hook that takes an O makes a game contravariant in O, so a
        `Game[LeducObservation]` would not be a `Game[Observation]`, and
        every game the referee holds without knowing which (the registry's,
        a match's, a seat's) would be a `Game[Any]` again."""


def restore_state(game: str, obj: JSON) -> State:
    """A pickled state back (`State.__reduce__`)."""
    return load_game(game).state_from_json(obj)


def ranks_from_keys(keys: Sequence[Any]) -> tuple[int, ...]:
    """Places from sort keys (higher key = better); equal keys share a place.

    ranks_from_keys([5, 9, 5]) == (1, 0, 1).
    """
    return tuple(sum(1 for other in keys if other > k) for k in keys)
