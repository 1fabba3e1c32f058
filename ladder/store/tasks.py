"""The values that travel between the ladder's scheduler and its workers.

Plain, picklable dataclasses: a `MatchTask` goes out to a worker (a Dask
task, possibly on another machine), a `PlayedMatch` (a bot-neutral copy of
the referee's MatchResult, with the match record itself) or a `MatchFailed`
comes back. A `MatchFailed` is never a bot's fault: a bot's own failure is
a forfeit inside a `PlayedMatch` and is rated as such.

A task names each bot by what a worker needs to start it anywhere: a
built-in's spec, or a submitted bot's command and the content hash of its
files, which a worker fetches once and keeps (ladder/running/botfiles.py). No path
of the ladder's store travels, so a worker never needs (or touches) it.
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
    kind: str
    """"builtin" or "submitted" (the store's bots.kind)."""
    command: tuple[str, ...]
    """A built-in's spec (`referee.builtins`), or a submitted bot's command
    as registered, relative to its folder."""
    content_hash: str
    """A submitted bot's files are known by this hash wherever they are."""
    folder: str | None = None
    """The ladder's own copy of a submitted bot's files (its folder in the
    store), from which they are shipped to workers; None for a built-in."""


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
    match_format: dict[str, int] = field(default_factory=dict)
    """The parameters of the game's own match format ({"hands": 100} for
    Leduc, rules L-7); {} for a match that is one play of the rules."""

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
    record: bytes | None
    """The match record (JSON Lines) as the referee wrote it: the process
    that owns the store writes it there; a worker keeps no copy."""
    summary: dict[str, Any] = field(default_factory=dict)
    logs: dict[str, bytes] = field(default_factory=dict)
    """From a worker of a real cluster: what each bot (by label) wrote since
    the worker's last result, for the store's logs (ladder/running/botlogs.py)."""


@dataclass(frozen=True)
class MatchFailed:
    """A match that could not be played for a reason that is not a bot's."""

    task: MatchTask
    kind: str
    detail: str


Outcome = PlayedMatch | MatchFailed


class NotRated(Exception):
    """Raised by a match runner when a match failed for a reason that is
    not a bot's; `kind` is one of FAILURE_KINDS. Retried, never rated."""

    def __init__(self, kind: str, detail: str) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
