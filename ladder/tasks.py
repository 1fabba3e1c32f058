"""The values that travel between the ladder's scheduler and its workers.

Plain, picklable dataclasses: a `MatchTask` goes out to a worker process, a
`PlayedMatch` (a bot-neutral copy of the referee's MatchResult) or a
`MatchFailed` comes back. A `MatchFailed` is never a bot's fault: a bot's
own failure is a forfeit inside a `PlayedMatch` and is rated as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

FAILURE_KINDS = ("referee_error", "worker_crash", "resources")
"""Why a match was not played to the end for a reason that is not a bot's:
the referee failed, the worker process died, or the machine ran out of
resources."""


@dataclass(frozen=True)
class BotSpec:
    """One registered bot version, as a worker needs it to start the bot."""

    bot_id: int
    label: str
    command: tuple[str, ...]
    folder: str | None = None
    """A submitted bot's folder in the store, which is closed to bots: it is
    exposed read-only to this bot's sandbox (None for a built-in bot)."""


@dataclass(frozen=True)
class MatchTask:
    """One match to play: `bots[i]` plays seat i."""

    match_id: str
    game: str
    set_id: str
    rotation: int
    seed: int
    variant: dict[str, str]
    bots: tuple[BotSpec, ...]
    attempt: int = 1

    @property
    def bot_ids(self) -> tuple[int, ...]:
        return tuple(b.bot_id for b in self.bots)


@dataclass(frozen=True)
class PlayedMatch:
    """A finished match: everything the store keeps and the ratings need."""

    match_id: str
    game: str
    set_id: str
    rotation: int
    seed: int
    variant: dict[str, str]
    bot_ids: tuple[int, ...]
    ranks: tuple[int, ...]
    forfeits: tuple[str | None, ...]
    strikes: tuple[int, ...]
    end_reason: str
    decisions: int
    seconds: float
    record_path: str | None
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class MatchFailed:
    """A match that could not be played for a reason that is not a bot's."""

    task: MatchTask
    kind: str
    detail: str


class NotRated(Exception):
    """Raised by a match runner when a match failed for a reason that is
    not a bot's; `kind` is one of FAILURE_KINDS. Retried, never rated."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
