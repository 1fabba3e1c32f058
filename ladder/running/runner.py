"""Plays a ladder match through the referee's public API, with warm bots.

A `RealRunner` lives in a worker (ladder/running/cluster.py's worker plugin keeps
one per match a worker plays at a time) and keeps one started `BotProcess`
per bot version, reused match after match (starting a Python bot costs
about 0.1 s of imports; a match of random bots costs less than that); a bot
whose process died is restarted before its next match. A submitted bot is
started from the folder its `BotFiles` gives (ladder/running/botfiles.py: on a
worker, its content-addressed copy) and exposed to its sandbox read-only.
The match record is written to the runner's own private folder, read back
into the result and removed: the process that owns the store writes it
there.

Fault attribution: a bot's own failure during a match (crash, timeouts,
illegal answers) is a forfeit recorded by the referee in the MatchResult
and rated. A bot that cannot be started (twice in a row) or answers
the handshake wrongly forfeits the match from the start: that too is its own fault.
A built-in bot that cannot start is not: the harness's own code failing to
start says the machine cannot run bots (no jail, no memory), and rating
such matches would print a ladder of forfeits. Everything else (a RefereeError, the machine out of memory, processes or
file handles) is raised as `NotRated`, retried by the scheduler and never
rated.
"""

from __future__ import annotations

import errno
import json
import logging
import shutil
import tempfile
from collections import OrderedDict
from pathlib import Path
from typing import Protocol

from botsdk.contract import TimeControl
from ladder.intake.roster import folder_command
from ladder.running.botfiles import BotFiles
from ladder.store.database import version_log_path
from ladder.store.tasks import BotSpec, MatchFailed, MatchTask, NotRated, Outcome, PlayedMatch
from referee.builtins import resolve_bot_command
from referee.games import load_game
from referee.match import RefereeError, run_match
from referee.process import BotProcess
from referee.protocol.client import BotFault
from referee.sandbox import Limits, SandboxPolicy

log = logging.getLogger(__name__)

RESOURCE_ERRNOS = frozenset({errno.ENOMEM, errno.EMFILE, errno.ENFILE, errno.ENOSPC, errno.EAGAIN})

START_ATTEMPTS = 2
"""A bot that fails to start is tried once more before it forfeits: a
transient start-up hiccup (a busy machine) must not cost a validated bot
a rated match."""

MAX_WARM = 12
"""Warm bot processes kept per worker; the least recently used is closed
beyond this (a large roster must not start hundreds of idle processes)."""


class MatchRunner(Protocol):
    def play(self, task: MatchTask) -> PlayedMatch:
        """Play one match. Raises NotRated for failures that are not a bot's."""

    def close(self) -> None: ...


def run_task(runner: MatchRunner, task: MatchTask) -> Outcome:
    """Play `task`; every failure that is not a bot's becomes a MatchFailed."""
    try:
        return runner.play(task)
    except NotRated as exc:
        return MatchFailed(task, exc.kind, exc.detail)
    except MemoryError:
        return MatchFailed(task, "resources", "out of memory")
    except Exception as exc:  # a harness bug is never the bots' fault
        return MatchFailed(task, "referee_error", f"{type(exc).__name__}: {exc}")


class RealRunner:
    """Plays matches with warm bot processes; see the module doc."""

    def __init__(self, time_control: TimeControl, files: BotFiles, logs_dir: Path | None = None,
                 limits: Limits | None = None) -> None:
        self.time_control = time_control
        self.files = files
        self.logs_dir = logs_dir
        self.policy = SandboxPolicy(limits=limits or Limits())
        """Each bot's sandbox: the ladder's limits (its --config file's)."""
        self._warm: OrderedDict[int, BotProcess] = OrderedDict()
        self._records = Path(tempfile.mkdtemp(prefix="ladder-records-"))  # private (0700)

    def play(self, task: MatchTask) -> PlayedMatch:
        """Play `task` to the end. Raises NotRated for failures that are not
        a bot's."""
        bots = [self._bot(spec) for spec in task.bots]
        record_path = self._records / f"{task.match_id}.jsonl"
        try:
            result = run_match(
                load_game(task.game, task.variant), bots, seed=task.seed, time_control=self.time_control,
                match_format=task.match_format,  # the game's own match (L-7: 100 Leduc hands)
                record_path=record_path, match_id=task.match_id,
                reveal_seed=False,  # the set's other rotations share the seed: the ladder reveals it after the set
            )
            record = record_path.read_bytes()
        except (RefereeError, OSError, MemoryError) as exc:
            self._discard(task.bots)  # the referee's contract: restart bots after a RefereeError
            raise NotRated(failure_kind(exc), str(exc) or type(exc).__name__) from exc
        finally:
            record_path.unlink(missing_ok=True)
        return PlayedMatch(
            match_id=task.match_id, game=task.game, set_id=task.set_id, rotation=task.rotation,
            seed=task.seed, variant=dict(task.variant), bot_ids=task.bot_ids, ranks=tuple(result.ranks),
            forfeits=tuple(s.forfeit for s in result.seats), strikes=tuple(s.strikes for s in result.seats),
            end_reason=result.end_reason, decisions=result.decisions, seconds=result.seconds,
            record=record, summary=json.loads(json.dumps(dict(result.summary), default=str)),
        )

    def _command(self, spec: BotSpec) -> tuple[list[str], list[Path]]:
        """The command that starts `spec` here, and the folders to expose
        to its sandbox (a submitted bot's own files)."""
        if spec.kind == "builtin":
            return resolve_bot_command(spec.command[0]), []
        folder = self.files.folder(spec)
        return folder_command(spec.command, folder), [folder]

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
            command, expose = self._command(spec)
            for attempt in range(START_ATTEMPTS):
                try:
                    bot = BotProcess.start(command, label=spec.label, log_path=log_path, expose=expose,
                                           policy=self.policy)
                    break
                except BotFault as exc:
                    log.warning("bot %s failed to start (attempt %d): %s", spec.label, attempt + 1, exc)
                    fault = exc
            else:
                if spec.kind == "builtin":  # our own code: the machine's fault, never rated
                    raise NotRated("referee_error", f"the built-in bot {spec.label} could not start: {fault}")
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
        shutil.rmtree(self._records, ignore_errors=True)


def failure_kind(exc: BaseException) -> str:
    """"resources" when `exc` (or what caused it) is the machine running out
    of memory, processes, file handles or disk; else "referee_error"."""
    for cause in (exc, exc.__cause__):
        if isinstance(cause, MemoryError):
            return "resources"
        if isinstance(cause, OSError) and cause.errno in RESOURCE_ERRNOS:
            return "resources"
    return "referee_error"
