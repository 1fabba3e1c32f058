"""Plays a ladder match through the referee's public API, with warm bots.

A `RealRunner` lives in one worker process for the whole ladder run and
keeps one started `BotProcess` per bot version, reused match after match
(starting a Python bot costs about 0.1 s of imports; a match of random bots
costs less than that); a bot whose process died is restarted before its
next match.

Fault attribution: a bot's own failure during a match (crash, timeouts,
illegal answers) is a forfeit recorded by the referee in the MatchResult
and rated. A bot that cannot be started (twice in a row) or answers
the handshake wrongly forfeits the match from the start: that too is its own fault.
Everything else (a RefereeError, the machine out of memory, processes or
file handles) is raised as `NotRated`, retried by the scheduler and never
rated.
"""

from __future__ import annotations

import errno
import json
import logging
from collections import OrderedDict
from pathlib import Path

from ladder.store import version_log_path
from ladder.tasks import BotSpec, MatchTask, NotRated, PlayedMatch
from referee.match import RefereeError, run_match
from referee.process import BotProcess
from botsdk.contract import TimeControl
from referee.protocol.client import BotFault

log = logging.getLogger(__name__)

RESOURCE_ERRNOS = frozenset({errno.ENOMEM, errno.EMFILE, errno.ENFILE, errno.ENOSPC, errno.EAGAIN})

START_ATTEMPTS = 2
"""A bot that fails to start is tried once more before it forfeits: a
transient start-up hiccup (a busy machine) must not cost a validated bot
a rated match."""

MAX_WARM = 12
"""Warm bot processes kept per worker; the least recently used is closed
beyond this (a large roster must not start hundreds of idle processes)."""


class RealRunner:
    """Plays matches with warm bot processes; see the module doc."""

    def __init__(self, records_dir: Path | None, time_control: TimeControl, logs_dir: Path | None = None) -> None:
        self.records_dir = records_dir
        self.time_control = time_control
        self.logs_dir = logs_dir
        self._warm: OrderedDict[int, BotProcess] = OrderedDict()

    def play(self, task: MatchTask) -> PlayedMatch:
        """Play `task` to the end. Raises NotRated for failures that are not
        a bot's."""
        bots = [self._bot(spec) for spec in task.bots]
        record_path = None
        if self.records_dir is not None:
            record_path = self.records_dir / f"{task.match_id}.jsonl"
        try:
            result = run_match(
                task.game, bots, seed=task.seed, variant=task.variant, time_control=self.time_control,
                record_path=record_path, match_id=task.match_id,
            )
        except (RefereeError, OSError, MemoryError) as exc:
            self._discard(task.bots)  # the referee's contract: restart bots after a RefereeError
            raise NotRated(failure_kind(exc), str(exc) or type(exc).__name__) from exc
        return PlayedMatch(
            match_id=task.match_id, game=task.game, set_id=task.set_id, rotation=task.rotation,
            seed=task.seed, variant=dict(task.variant), bot_ids=task.bot_ids, ranks=tuple(result.ranks),
            forfeits=tuple(s.forfeit for s in result.seats), strikes=tuple(s.strikes for s in result.seats),
            end_reason=result.end_reason, decisions=result.decisions, seconds=result.seconds,
            record_path=str(record_path) if record_path is not None else None,
            summary=json.loads(json.dumps(dict(result.summary), default=str)),
        )

    def _bot(self, spec: BotSpec) -> BotProcess:
        """The warm process of `spec`, started or restarted as needed."""
        bot = self._warm.pop(spec.bot_id, None)
        if bot is not None and not bot.alive:
            bot.close()
            bot = None
        if bot is None:
            log_path = None
            if self.logs_dir is not None:
                log_path = version_log_path(self.logs_dir, spec.label)
            for attempt in range(START_ATTEMPTS):
                try:
                    bot = BotProcess.start(list(spec.command), label=spec.label, log_path=log_path,
                                           expose=[Path(spec.folder)] if spec.folder else [])
                    break
                except BotFault as exc:
                    log.warning("bot %s failed to start (attempt %d): %s", spec.label, attempt + 1, exc)
                    fault = exc
            else:
                # The bot's own fault: it forfeits this match from the start
                # (and is tried again for its next one).
                return BotProcess.failed(spec.label, fault)
        self._warm[spec.bot_id] = bot
        while len(self._warm) > MAX_WARM:
            _, oldest = self._warm.popitem(last=False)
            oldest.close()
        return bot

    def _discard(self, specs: tuple[BotSpec, ...]) -> None:
        for spec in specs:
            bot = self._warm.pop(spec.bot_id, None)
            if bot is not None:
                bot.close()

    def close(self) -> None:
        """Stop every warm bot process (each one's whole process tree)."""
        while self._warm:
            _, bot = self._warm.popitem()
            try:
                bot.close()
            except Exception:  # close the others whatever one of them does
                log.warning("closing bot %s failed", bot.label, exc_info=True)


def failure_kind(exc: BaseException) -> str:
    """"resources" when `exc` (or what caused it) is the machine running out
    of memory, processes, file handles or disk; else "referee_error"."""
    for cause in (exc, exc.__cause__):
        if isinstance(cause, MemoryError):
            return "resources"
        if isinstance(cause, OSError) and cause.errno in RESOURCE_ERRNOS:
            return "resources"
    return "referee_error"
