"""The game-neutral interface every rules engine implements.

A `Game` is an immutable rule set (name, seat range, rules version, variant
options) and a factory of `State`s. A `State` is one position: who must decide
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
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

Seat = int
JSON = Any
"""A JSON-compatible value (dict, list, str, int, float, bool or None)."""


class InvalidActionError(ValueError):
    """An action could not be parsed or decoded (its text or JSON is malformed)."""


class IllegalActionError(ValueError):
    """An action is well formed but not legal for that seat in this state.

    The message never names hidden cards: it is safe to show the deciding seat.
    """


class Action(abc.ABC):
    """A decision: a small, frozen, hashable value (each game's are dataclasses).

    `str(action)` is a short text that the game's `parse_action` reads back.
    """

    @abc.abstractmethod
    def to_json(self) -> JSON:
        """The action as a JSON object with a "type" key."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, and who may see it.

    `visible_to` lists the seats allowed to see this event; an empty set means
    the referee's record only (e.g. a shuffle's result). A happening that
    different seats see differently is emitted as several events, one per
    audience, each carrying only what its audience may know.
    """

    kind: str
    data: Mapping[str, JSON]
    visible_to: frozenset[Seat]

    def to_json(self) -> JSON:
        return {"kind": self.kind, "data": dict(self.data), "visible_to": sorted(self.visible_to)}

    @classmethod
    def from_json(cls, obj: JSON) -> "Event":
        return cls(obj["kind"], obj["data"], frozenset(obj["visible_to"]))


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a match: why it ended and each seat's place (0 = first).

    Ties share a place: ranks (0, 0, 2) means seats 0 and 1 tie for first.
    """

    reason: str
    ranks: tuple[int, ...]
    detail: str = ""

    def winners(self) -> frozenset[Seat]:
        return frozenset(s for s, r in enumerate(self.ranks) if r == 0)

    def to_json(self) -> JSON:
        return {"reason": self.reason, "ranks": list(self.ranks), "detail": self.detail}


class Observation(abc.ABC):
    """What one seat may know: its information set, built from scratch.

    Two states that look the same to a seat give equal observations, and an
    observation holds everything `Game.determinize` needs to build a full
    state consistent with it.
    """

    seat: Seat

    @abc.abstractmethod
    def to_json(self) -> JSON:
        """The observation as JSON (the form documented in docs/engine.md)."""


class State(abc.ABC):
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


class Game(abc.ABC):
    """An immutable rule set and the factory of its states.

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
    option, its value). Such an option is left out of the full variant unless
    its requirement holds, and naming it otherwise is refused."""
    observation_type: ClassVar[type[Observation]]

    def check_variant(self, variant: Mapping[str, str] | None) -> dict[str, str]:
        """The full variant (defaults filled in, options whose requirement
        does not hold left out). Raises ValueError for an unknown option or
        value, or an option named without its requirement, listing what is
        allowed."""
        given = dict(variant or {})
        for key, value in given.items():
            if key not in self.variant_options:
                raise ValueError(
                    f"{self.name} has no variant option {key!r}; the options are {self.describe_variants()}"
                )
            if value not in self.variant_options[key]:
                raise ValueError(
                    f"variant {key} must be one of {list(self.variant_options[key])}, not {value!r}"
                )
        full = {name: given.get(name, values[0]) for name, values in self.variant_options.items()}
        for key, (needs, value) in self.variant_requires.items():
            if full[needs] == value:
                continue
            if key in given:
                raise ValueError(
                    f"variant {key} applies only with {needs}={value}, not {needs}={full[needs]}: "
                    f"add {needs}={value} or leave {key} out; the options are {self.describe_variants()}"
                )
            del full[key]
        return full

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

    def new_state(self, seats: int, seed: int, variant: Mapping[str, str] | None = None) -> State:
        """A new match of `seats` seats: its chance streams derive from `seed`.
        Raises ValueError for a seat count or variant the game does not have."""
        self.check_seats(seats)
        return self._new_state(seats, seed, self.check_variant(variant), None)

    def new_state_with_events(
        self, seats: int, seed: int, variant: Mapping[str, str] | None = None
    ) -> tuple[State, list[Event]]:
        """`new_state`, and the events of its setup (the deal): the referee
        records them and tells each seat the ones it may see."""
        self.check_seats(seats)
        events: list[Event] = []
        return self._new_state(seats, seed, self.check_variant(variant), events), events

    @abc.abstractmethod
    def _new_state(self, seats: int, seed: int, variant: dict[str, str], events: list[Event] | None) -> State:
        """Set up a match (seats and variant checked); append the setup's
        events to `events` when it is given."""

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
    def _determinize(self, observation: Any, rng: random.Random) -> State: ...


_MASK64 = (1 << 64) - 1


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def derive_seed(seed: int, stream: str) -> int:
    """A 64-bit seed for the named chance stream of a match seed.

    Uses a fixed string hash (not Python's randomised `hash`) so that the same
    seed gives the same streams in every process.
    """
    h = seed & _MASK64
    for ch in stream.encode():
        h = _splitmix64(h ^ ch)
    return h


@dataclass(slots=True)
class ChanceStream:
    """A counter-based random stream: the n-th draw depends only on (seed, n).

    Cloning copies two integers, and a stream drawn from a fixed seed gives the
    same outcomes whatever other streams did.
    """

    seed: int
    counter: int = 0

    def next64(self) -> int:
        self.counter += 1
        return _splitmix64(self.seed ^ _splitmix64(self.counter))

    def below(self, n: int) -> int:
        """A uniform integer in [0, n) (bias below 2**-50 for small n)."""
        return (self.next64() * n) >> 64

    def shuffle(self, items: list[Any]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def copy(self) -> "ChanceStream":
        return ChanceStream(self.seed, self.counter)

    def to_json(self) -> JSON:
        return [self.seed, self.counter]

    @classmethod
    def from_json(cls, obj: JSON) -> "ChanceStream":
        seed, counter = obj
        return cls(int(seed), int(counter))


def ranks_from_keys(keys: Sequence[Any]) -> tuple[int, ...]:
    """Places from sort keys (higher key = better); equal keys share a place.

    ranks_from_keys([5, 9, 5]) == (1, 0, 1).
    """
    return tuple(sum(1 for other in keys if other > k) for k in keys)


def parse_variant(text: str) -> dict[str, str]:
    """A variant as written on a command line: "setup=advanced,gunfight_opt_out".

    A bare option name means "on".
    """
    options: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        options[key.strip()] = value.strip() if sep else "on"
    return options
