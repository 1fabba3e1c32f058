"""The seat interface: what the match loop (referee/match.py) asks of
whoever plays a seat, whatever it is.

A seat is a bot process over gRPC (`kind` "process"), a bot object in this
process ("in-process"), or a policy function ("policy"); a person at a web
page or a terminal, or a training environment's policy, is one more class
of it. The loop owns everything the failure policy needs — who hears which
event (G-10), the clock and the time bank, strikes, fallbacks, forfeits and
the record — and a seat only carries messages to and from its player:

    start(MatchStart)              once, before anything else
    tell(events)                   the events its seat may see, in order
    send(Request) ... collect()    one decision: asked, then its answer
    end(MatchEnd)                  once, after the last decision
    dismiss()                      the seat forfeited: it is asked nothing more

Asking is split into `send` and `collect` so that every seat of a
simultaneous decision (G-5.4) is asked before any answer is read, and each
answer is timed on its own: a seat's `collect` measures its own answer's
seconds (from its `send` for a player elsewhere, over the computation for
one in this process) and reports a late answer as a `BotTimeout`.

What a seat receives is exactly what the protocol gives a bot: its own
observation, its legal actions, the events its seat may see (the setup's
too) and the match's public facts — never the state. The one exception is a
`TrustedSeat`: a policy of `referee simulate` that declares it reads the
whole state; the loop hands it the state and skips the clock and the
failure policy for it (its answers must be legal).
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from botsdk.contract import TimeControl
from botsdk.fairness import Evaluation

from referee.games.base import Action, Event, Observation, Outcome, State
from referee.protocol.faults import BotFault, BotTimeout

__all__ = ["Answer", "MatchEnd", "MatchStart", "Request", "Seat", "SeatInfo", "TrustedSeat", "late"]


@dataclass(frozen=True)
class SeatInfo:
    """Who plays a seat, as the record's header names it."""

    label: str
    """The name the caller gave it (`--bot`'s, the ladder's label)."""
    name: str
    """The name it gives itself (a bot's handshake), shown to the other seats."""
    version: str = "?"
    protocol_version: int = 0
    """The protocol version it spoke (0: not over the protocol, or it never answered)."""
    variants: tuple[str, ...] | None = None
    """The variants it says it plays (`GAME:OPTION=VALUE`), checked before
    the match; None: not checked (code in this process, trusted)."""
    sandbox: Mapping[str, Any] = field(default_factory=dict)
    """The protections its process runs under (empty for a seat in this process)."""


@dataclass(frozen=True)
class MatchStart:
    """What a seat is told when the match begins (the protocol's `MatchStart`)."""

    match_id: str
    game: str
    variant: Mapping[str, str]
    seat: int
    num_seats: int
    seat_names: tuple[str, ...]
    time_control: TimeControl
    observation: Observation
    seed_commitment: bytes
    evaluation: Evaluation | None = None
    """Set only in an evaluation match, whose deal the referee chose (docs/records.md, "Evaluation deals")."""


class Request(NamedTuple):
    """One decision asked of one seat (the protocol's `Decide`).

    A NamedTuple, as `Answer` is: immutable, and made in a fifth of a
    frozen dataclass's time, twice for every decision of a simulation."""

    request_id: int
    """The seat's own count of its requests, 1, 2, 3, ... (never match-wide:
    that would tell a seat how often the others decided)."""
    observation: Observation
    legal_actions: tuple[Action, ...]
    allowance: float
    """Seconds the seat is told it has: the move time plus what is left of its bank."""
    grace: float
    """The referee's transport allowance on top of `allowance`: an answer
    later than both together is a timeout."""


class Answer(NamedTuple):
    """What came of a request: an action, or a fault (then no action)."""

    action: Action | None
    seconds: float
    """The answer's time as the seat measured it."""
    fault: BotFault | None = None


@dataclass(frozen=True)
class MatchEnd:
    """What a seat is told when the match is over (the protocol's `MatchEnd`)."""

    outcome: Outcome
    """The end reason and the final places, after the forfeit rule."""
    seed: int | None = None
    """The match seed, revealed (None: kept back, as a ladder does within a duplicate set)."""
    seed_salt: bytes = b""


def late(request: Request, seconds: float) -> BotTimeout | None:
    """The timeout of an answer that took `seconds`, if that is past its
    allowance and grace: for a seat that computes its answer itself and
    cannot be interrupted, so that its lateness is seen when it returns."""
    limit = request.allowance + request.grace
    return BotTimeout(f"no answer to request {request.request_id} within {limit:.3f} s") if seconds > limit else None


class Seat(abc.ABC):
    """One player's end of a match. See the module doc for the order of calls.

    `start`, `tell` and `send` raise `BotFault` when the player cannot be
    reached (the loop then strikes or forfeits the seat); `collect` returns
    a fault in its `Answer` instead; `end` and `dismiss` never raise.
    """

    kind: str = ""
    """What plays the seat ("process", "in-process", "policy"): the record's header names it."""
    waits: bool = False
    """Its answers come from elsewhere (a process, a person): `collect`
    mostly waits, so the loop waits for several such seats at once, on
    threads. A seat that computes its answer in `collect` is collected on
    the loop's own thread, one after another."""
    reads_state: bool = False
    """True only for a `TrustedSeat` (a plain attribute: the loop reads it
    per match, where an ABC's isinstance costs more than a Leduc decision)."""
    time_control: TimeControl | None = None
    """The seat's own clock (a person's minutes), or None for the match's.
    A bot is never told another seat's allowance, and never gets a
    person's: each seat's MatchStart carries its own."""

    @property
    @abc.abstractmethod
    def info(self) -> SeatInfo:
        """Who plays the seat (read once, before the match starts)."""

    @abc.abstractmethod
    def start(self, start: MatchStart) -> None:
        """The match begins. Raises BotFault if the player is not there."""

    def tell(self, events: Sequence[Event]) -> None:
        """Events its seat may see (never empty), in the order they happened."""

    @abc.abstractmethod
    def send(self, request: Request) -> None:
        """Ask for a decision; the answer is read by `collect`."""

    @abc.abstractmethod
    def collect(self) -> Answer:
        """The answer to the last request, waiting at most until it is late."""

    def end(self, end: MatchEnd) -> None:
        """The match is over."""

    def dismiss(self) -> None:
        """The seat forfeited: the loop plays it from now on and asks it
        nothing more; only `end` may follow."""


class TrustedSeat(Seat):
    """A policy that reads the whole state (simulate's random or scripted
    players): `choose` replaces start, send and collect; it is told
    nothing (no events either), not timed, never struck, and its action
    must be legal. Never give one a
    player that must not see every hand."""

    kind = "policy"
    reads_state = True

    @abc.abstractmethod
    def choose(self, state: State, seat: int) -> Action:
        """A legal action of `seat` in `state`."""

    def start(self, start: MatchStart) -> None:
        """Not called: a trusted seat reads the state."""

    def send(self, request: Request) -> None:
        raise TypeError("a trusted seat is asked through choose(), not send()")

    def collect(self) -> Answer:
        raise TypeError("a trusted seat is asked through choose(), not collect()")
