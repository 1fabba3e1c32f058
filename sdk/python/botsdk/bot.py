"""The bot author's interface: subclass `Bot`, implement `decide`.

A bot sees the protocol's own messages: the observation is the game's
`Observation` message (`botsdk.pb.saboteur.v1.saboteur_pb2.Observation`,
...), the legal actions its `Action` messages and the events its `Event`
messages, unwrapped from the envelope's per-game oneofs (docs/protocol.md
lists every field). `decide` returns one of the legal action messages it
was given. A bot object lives as long as its process and plays consecutive
matches, one at a time.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from google.protobuf.message import Message

from botsdk.contract import TimeControl, protocol_games
from botsdk.fairness import Evaluation, verify


@dataclass(frozen=True)
class MatchInfo:
    """What the referee says about a match when it starts (docs/protocol.md)."""

    match_id: str
    game: str
    variant: Mapping[str, str]
    seat: int
    num_seats: int
    seat_names: tuple[str, ...]
    time_control: TimeControl
    seed_commitment: bytes = b""
    """The referee's commitment to the match seed, checked against the seed
    `MatchResult` reveals (`botsdk.fairness.verify`)."""
    evaluation: Evaluation | None = None
    """Set in an evaluation match only: the referee chose the deal to
    measure the bot (`referee exploitability`), so it is not a fair one."""


@dataclass(frozen=True)
class DecisionContext:
    """One decision: its match, its request id (this seat's own count in the
    match: 1, 2, 3, ...), and the `time.monotonic()` value by which the
    answer must be sent (the referee adds a small grace for transport, not
    for thinking)."""

    match: MatchInfo
    request_id: int
    deadline: float


@dataclass(frozen=True)
class MatchResult:
    """How a match ended (`MatchEnd`): `ranks[seat]` is each seat's place,
    0 first, ties sharing a place; `reason` why it ended (`goal`,
    `vultures`, `forfeit`, ...)."""

    ranks: tuple[int, ...]
    reason: str
    detail: str = ""
    seed: int | None = None
    """The match seed, revealed at the end (None from a referee that does
    not reveal it): every deal, draw and roll follows from it (docs/chance.md)."""
    seed_salt: bytes = b""

    def deal_is_fair(self, match: MatchInfo) -> bool:
        """True if the revealed seed is the one the referee committed to at
        the match's start as a fair deal (docs/records.md, "Provably fair
        deals"); never in an evaluation match, whose deal was chosen."""
        return match.evaluation is None and self.deal_was_committed(match)

    def deal_was_committed(self, match: MatchInfo) -> bool:
        """True if the revealed seed is the one the referee committed to at
        the match's start, as the kind of match it said it was: a fair deal,
        or an evaluation's chosen deal (docs/records.md, "Evaluation deals")."""
        return self.seed is not None and verify(match.seed_commitment, self.seed, self.seed_salt,
                                                evaluation=match.evaluation is not None)


class Bot(abc.ABC):
    """A game-playing bot served by `botsdk.serve`.

    Attributes (usually set on the class): `name` (required; 1 to 64
    printable characters), `version`, `games` (the games it plays; the
    handshake reports them, and a ladder seats the bot only in those). The
    default is every game this SDK's protocol code carries: right for a bot
    that only picks among `legal_actions`; a bot that reads one game's
    observation names that game. `variants`: the variants it plays beyond
    each game's base rules, one `GAME:OPTION=VALUE` per option value
    (`"gnadenlos:auction=single"`); the referee seats it only in matches
    whose every non-default option it lists. The default, none, is the
    base rules only: a variant may ask decisions the base rules never do.
    """

    name: str
    version: str = "1"
    games: tuple[str, ...] = protocol_games()
    variants: tuple[str, ...] = ()

    def warm_up(self) -> None:
        """Prepare what the first decision would otherwise pay for (import
        heavy modules, build tables). `serve` calls it once, in a background
        thread, as soon as the socket is served, so it overlaps the
        referee's health check and handshake; the first match waits until
        it returns. Keep it to a second or two: the first decision's clock
        may be running by then. Work that takes longer belongs before
        `serve` (the referee's start-up timeout, 10 s by default, covers
        it). An exception here is logged and the bot serves on."""

    def on_match_start(self, match: MatchInfo, observation: Message) -> None:
        """A match begins; `observation` is the seat's view at the start."""

    @abc.abstractmethod
    def decide(self, observation: Message, legal_actions: Sequence[Message], context: DecisionContext) -> Message:
        """Return one of `legal_actions` (the message itself; an equal
        message is accepted too) before `context.deadline`. There are at
        least two: the engine plays forced moves itself. An exception here
        ends the match stream, which the referee treats as a crash (the seat
        forfeits)."""

    def on_events(self, events: Sequence[Message]) -> None:
        """Events this seat may see, in the order they happened."""

    def on_match_end(self, result: MatchResult) -> None:
        """The match is over; `result.ranks[seat]` is each seat's place."""
