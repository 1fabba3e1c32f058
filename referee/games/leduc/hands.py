"""A Leduc poker match of many hands (rules/leduc.md, L-7): the match
format the plugin declares, each hand OpenSpiel's `leduc_poker` unchanged.

Poker is measured in chips over many hands (the ACPC's matches are
thousands of hands; one hand is mostly the luck of the deal), so a match
is N independent hands, ranked by the chips each seat won in all (L-7.3).

Each hand is a fresh `LeducState`, every seat starting it with OpenSpiel's
100 chips (L-7.1): the chips are summed across the hands, not carried from
one to the next. That is the ACPC's format ("Doyle's game": stacks reset
every hand), and what a director of a bot competition expects: every hand
is the same game, nobody busts out early, and chips per hand is an
unbiased figure whose variance the tables can state. Carrying stacks would
change the game of a hand (a short stack cannot pay a raise, which Leduc
has no all-in rule for) and lose OpenSpiel parity.

Hand h's deck comes from its own chance stream, `hand-h` of the match seed
(L-7.2), so a ladder's duplicate set, which plays one seed in every seat
rotation, plays every hand's cards from every seat: ACPC's duplicate
match. The seats' positions are OpenSpiel's in every hand (seat 0 acts
first, L-3.1); the rotations of the set even out the position.

A seat learns that a hand begins from the `hand_started` event, seen by
everyone, with the hand's number, the match's hands and every seat's chips
so far (L-7.4) — all public at a real table. Its observation is the
current hand's (L-6), so a bot that plays one hand plays a match.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any, ClassVar, cast

from referee.games.base import (
    JSON, Action, Event, Game, Observation, Outcome, Seat, State, audiences, derive_seed, ranks_from_keys,
)
from referee.games.leduc.actions import LeducAction, action_from_json, parse_action
from referee.games.leduc.config import (
    ANTE, LUCK_SEATS, MAX_PLAYERS, MAX_RAISES, MIN_PLAYERS, RAISE_AMOUNTS, RULES_VERSION,
)
from referee.games.leduc.determinize import determinize
from referee.games.leduc.luck import CORRECTED_SWING, hand_luck
from referee.games.leduc.observation import LeducObservation
from referee.games.leduc.serialize import state_from_json as hand_from_json
from referee.games.leduc.state import LeducState
from referee.games.plugin import MatchFormat

HANDS_PLAYED = "hands_played"
"""The end reason of a match of hands (L-7.3)."""
HAND_STARTED = "hand_started"
"""The event that opens each hand (L-7.4)."""


def hand_seed(seed: int, hand: int) -> int:
    """L-7.2: hand `hand`'s (1-based) seed, from the match seed's `hand-<n>` stream."""
    return derive_seed(seed, f"hand-{hand}")


class LeducHandsState(State):
    """A match of `hands` Leduc poker hands; the current one is `hand`."""

    __slots__ = ("players", "seed", "hands", "number", "hand", "chips", "won", "luck")

    def __init__(self, players: int, seed: int, hands: int, number: int, hand: LeducState,
                 chips: list[float], won: list[tuple[float, ...]] | None = None,
                 luck: list[tuple[float, ...]] | None = None) -> None:
        self.players = players
        self.seed = seed
        self.hands = hands
        self.number = number
        """The current hand's number, from 1."""
        self.hand = hand
        self.chips = chips
        """Each seat's chips won in the finished hands (L-7.3)."""
        self.won = won if won is not None else []
        """Each finished hand's returns by seat (L-7.5)."""
        self.luck = luck if luck is not None else []
        """Each finished hand's luck by seat (L-7.5), at tables of up to
        LUCK_SEATS seats (else empty)."""

    @classmethod
    def start(cls, players: int, seed: int, hands: int, events: list[Event] | None) -> "LeducHandsState":
        state = cls(players, seed, hands, 0, LeducState.deal(players, hand_seed(seed, 1)), [0.0] * players)
        state._next_hand(events)
        return state

    @property
    def num_seats(self) -> int:
        return self.players

    def to_act(self) -> frozenset[Seat]:
        return self.hand.to_act()

    def legal_actions(self, seat: Seat) -> tuple[Action, ...]:
        return self.hand.legal_actions(seat)

    def _apply(self, actions: Mapping[Seat, Action], record: bool) -> list[Event]:
        events = self.hand._apply(actions, record)
        if self.hand.is_terminal():
            for seat, won in enumerate(self.hand.returns):
                self.chips[seat] += won
            self.won.append(self.hand.returns)
            if self.players <= LUCK_SEATS:
                self.luck.append(hand_luck(self.hand))
            if self.number < self.hands:
                self._next_hand(events if record else None)
        return events

    def _next_hand(self, events: list[Event] | None) -> None:
        """L-7.1, L-7.4: announce the next hand with the chips so far, then deal it afresh."""
        self.number += 1
        if events is not None:
            everyone = audiences(self.players)[(1 << self.players) - 1]
            events.append(Event(HAND_STARTED, {"hand": self.number, "hands": self.hands,
                                               "chips": list(self.chips)}, everyone))
        self.hand = LeducState.deal(self.players, hand_seed(self.seed, self.number), events)

    def observe(self, seat: Seat) -> LeducObservation:
        """L-6: the current hand's information set (the match's figures are public events, L-7.4)."""
        return self.hand.observe(seat)

    def is_terminal(self) -> bool:
        return self.number == self.hands and self.hand.is_terminal()

    def determinize(self, seat: Seat, rng: random.Random) -> LeducState:
        """The current hand's (the hands before it are over, the ones after it not dealt)."""
        return determinize(self.observe(seat), rng)

    def outcome(self) -> Outcome:
        """L-7.3: places by chips won in all the hands; equal chips share a place."""
        if not self.is_terminal():
            raise ValueError("the match is not over")
        return Outcome(HANDS_PLAYED, ranks_from_keys(self.chips), f"{self.hands} hands", tuple(self.chips),
                       tuple(self.won), tuple(self.luck))

    def clone(self) -> "LeducHandsState":
        return LeducHandsState(self.players, self.seed, self.hands, self.number, self.hand.clone(), self.chips[:],
                               self.won[:], self.luck[:])

    def to_json(self) -> JSON:
        """The match so far: its hands, the current hand's number and state,
        the chips of the finished ones, and each one's returns and luck."""
        return {"game": "leduc", "rules_version": RULES_VERSION, "hands": self.hands, "seed": self.seed,
                "hand": self.number, "chips": list(self.chips), "current": self.hand.to_json(),
                "won": [list(w) for w in self.won], "luck": [list(l) for l in self.luck]}

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (self.to_json(),)


def _restore(obj: JSON) -> LeducHandsState:
    return LeducHands(obj["hands"]).state_from_json(obj)


class LeducHands(Game):
    """The rules of a Leduc poker match of `hands` hands (L-7)."""

    name: ClassVar[str] = "leduc"
    title: ClassVar[str] = "Leduc poker"
    min_seats: ClassVar[int] = MIN_PLAYERS
    max_seats: ClassVar[int] = MAX_PLAYERS
    rules_version: ClassVar[str] = RULES_VERSION
    variant_options: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    observation_type = LeducObservation

    def __init__(self, hands: int) -> None:
        if hands < 1:
            raise ValueError(f"a match has at least one hand, not {hands}")
        self.hands = hands

    def match_format(self) -> dict[str, int]:
        return {"hands": self.hands}

    def _new_state(self, seats: int, seed: int, events: list[Event] | None) -> LeducHandsState:
        return LeducHandsState.start(seats, seed, self.hands, events)

    def state_from_json(self, obj: JSON) -> LeducHandsState:
        """`LeducHandsState.to_json` back. Raises ValueError naming what is wrong."""
        if not isinstance(obj, dict) or not isinstance(obj.get("current"), dict):
            raise ValueError("a Leduc poker match state is an object with the \"current\" hand")
        hand = hand_from_json(obj["current"])
        number, chips = obj.get("hand"), obj.get("chips")
        if not isinstance(number, int) or not 1 <= number <= self.hands:
            raise ValueError(f"hand must be 1 to {self.hands}, not {number!r}")
        if not isinstance(chips, list) or len(chips) != hand.players or not all(map(_is_figure, chips)):
            raise ValueError(f"chips must list one number per seat ({hand.players})")
        finished = number - 1 + hand.is_terminal()
        won = _per_hand(obj, "won", hand.players, finished)
        luck = _per_hand(obj, "luck", hand.players, finished if won and hand.players <= LUCK_SEATS else 0)
        return LeducHandsState(hand.players, int(obj.get("seed", 0)), self.hands, number, hand,
                               [float(c) for c in chips], won, luck)

    def action_from_json(self, obj: JSON) -> LeducAction:
        return action_from_json(obj)

    def parse_action(self, text: str) -> LeducAction:
        return parse_action(text)

    def _observation_from_json(self, obj: JSON) -> LeducObservation:
        return LeducObservation.from_json(obj)

    def _determinize(self, observation: Observation, rng: random.Random) -> LeducState:
        """The current hand's: the hands before it are over and the ones after it not dealt."""
        return determinize(cast(LeducObservation, observation), rng)  # determinize checked its class


def _is_figure(value: object) -> bool:
    """A finite number of JSON (not a boolean, a string or NaN)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _per_hand(obj: Mapping[str, Any], key: str, players: int, finished: int) -> list[tuple[float, ...]]:
    """A state's per-hand figures (`won`, `luck`; absent in a state written
    before they were kept: none): one row of `players` numbers for each of
    the `finished` hands. Raises ValueError naming what is wrong."""
    rows = obj.get(key, [])
    if not isinstance(rows, list) or (rows and len(rows) != finished) or any(
            not isinstance(r, list) or len(r) != players or not all(map(_is_figure, r)) for r in rows):
        raise ValueError(f"{key} must list a row of {players} numbers for each of the {finished} finished hands, "
                         "or be left out")
    return [tuple(float(v) for v in r) for r in rows]


def hand_swing(seats: int) -> float:
    """The largest difference between two seats' chips after one hand at a
    table of `seats`.

    A seat puts in at most ANTE + MAX_RAISES x (first + second raise) =
    1 + 2 x 2 + 2 x 4 = 13 chips (L-2.1 ante; L-3.5: at most two raises a
    round, of 2 in round 1 and 4 in round 2; a call only matches the
    stakes, L-3.3). Seat a's return less seat b's is largest when a takes
    the whole pot (L-5.1, L-5.2; a split, L-5.3, gives less): the pot less
    a's own chips plus b's, the others' chips and b's counted twice:
    13 (seats - 2) + 2 x 13 = 13 seats. Heads-up: 26, reached when both
    raise twice in each round and a wins the showdown (+13 against -13)."""
    most_in = ANTE + MAX_RAISES * sum(RAISE_AMOUNTS)
    return float(most_in * seats)


def judged_swing(seats: int) -> float:
    """The bound on one hand's chip difference as the ladder judges it,
    chips less luck where the luck is measured (L-7.5): the wider of
    hand_swing and the corrected difference's (31.11 chips heads-up)."""
    return max(hand_swing(seats), CORRECTED_SWING.get(seats, 0.0))


MATCH_FORMAT = MatchFormat(parameter="hands", default=100, score="chips", per=100, game=LeducHands,
                           swing=judged_swing)
"""L-7: a match of 100 hands by default, ranked by chips, shown per 100 hands."""
