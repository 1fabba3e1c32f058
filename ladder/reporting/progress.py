"""`referee ladder`'s progress as plain lines, for output that is not a
terminal (a CI job's log, `| tee`, a file).

The live view redraws one screen in place, which a log cannot show: piped,
a run printed nothing until its final table. These lines come as matches
finish, one per update that brought a result or a failure, each complete
on its own and flushed at once, so a log can be followed while it grows.
"""

from __future__ import annotations

from typing import Any

import click

from ladder.scheduling.scheduler import RunStatus
from ladder.store.database import BotRow, Store
from ladder.store.tasks import PlayedMatch
from referee.untrusted import safe_line


class ProgressLines:
    """A drop-in for the live view (`update(status)`, a context manager)
    that prints a line whenever matches finished or failed since the last
    update."""

    def __init__(self, store: Store, budget: int) -> None:
        self.store = store
        self.budget = budget
        self._played = 0
        self._failed = 0
        self._bots: dict[int, BotRow] = {}

    def __enter__(self) -> "ProgressLines":
        return self

    def __exit__(self, *exc: Any) -> None:
        return None

    def update(self, status: RunStatus) -> None:
        if status.played > self._played and status.last is not None:
            more = status.played - self._played - 1
            click.echo(f"[{status.played}/{self.budget}] {self._describe(status.last)}"
                       + (f" (and {more} more finished)" if more else ""))
        if status.failed > self._failed and status.last_failure is not None:
            failure = status.last_failure
            click.echo(f"[{status.played}/{self.budget}] match {failure.task.match_id} failed, not rated "
                       f"({failure.kind}: {safe_line(failure.detail)}); it is retried")
        self._played, self._failed = status.played, status.failed

    def _describe(self, match: PlayedMatch) -> str:
        """"gnadenlos-...: 1 heuristic, 2 random, 3 crashy (forfeit: crashed)";
        two versions of one bot at the table are named with their versions
        (`mine@v2`, `mine@v1`), as `referee replay` names them."""
        bots = [self._bot(bot_id) for bot_id in match.bot_ids]
        shared = {bot.name for bot in bots if sum(other.name == bot.name for other in bots) > 1}
        seats = sorted(range(len(bots)), key=lambda seat: (match.ranks[seat], seat))
        places = []
        for seat in seats:
            forfeit = match.forfeits[seat]
            name = bots[seat].label if bots[seat].name in shared else bots[seat].name
            places.append(f"{match.ranks[seat] + 1} {safe_line(name)}" + (f" (forfeit: {forfeit})" if forfeit else ""))
        return f"{match.match_id}: {', '.join(places)} ({match.seconds:.1f}s)"

    def _bot(self, bot_id: int) -> BotRow:
        if bot_id not in self._bots:
            self._bots[bot_id] = self.store.bot(bot_id)
        return self._bots[bot_id]
