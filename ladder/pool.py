"""Where ladder matches run: worker processes, or inline for tests.

A `ProcessPool` starts W worker processes (spawned, so none inherits the
parent's gRPC state); each builds one match runner (`runner_factory()`) and
keeps it, with its warm bot processes, for the whole run. Every worker has
its own task queue, so the scheduler always knows which match each worker
holds: if a worker dies, that match is reported as a `worker_crash` failure
(retried, never rated) and a fresh worker takes its place.

Stopping: idle workers get a stop message; busy ones (on Ctrl-C) get
SIGTERM, which ends the worker at once, and each of its bots' sandbox
supervisors, watching the worker, kills that bot's tree. A worker also gets
SIGTERM when the ladder process itself dies (Linux PR_SET_PDEATHSIG), so a
killed ladder leaves no orphans behind.

`InlinePool` runs each match in the calling process: the scheduler's tests
inject a fake runner through it.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import multiprocessing as mp
import queue
import signal
from collections.abc import Callable
from typing import Any, Protocol

from ladder.tasks import MatchFailed, MatchTask, NotRated, PlayedMatch
from referee.untrusted import configure_logging

Outcome = PlayedMatch | MatchFailed

STOP_GRACE = 10.0
"""Seconds a stopping worker gets to close its bots before it is killed."""


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


class Pool(Protocol):
    def idle(self) -> int:
        """How many more tasks can be submitted now."""

    def submit(self, task: MatchTask) -> None: ...

    def poll(self, timeout: float) -> list[Outcome]:
        """Finished tasks (waiting up to `timeout` seconds for the first)."""

    def running(self) -> list[MatchTask]: ...

    def close(self, *, interrupt: bool = False) -> None:
        """Stop; with `interrupt`, running matches are abandoned."""


class InlinePool:
    """Runs each submitted match synchronously in `poll` (one at a time)."""

    def __init__(self, runner: MatchRunner) -> None:
        self.runner = runner
        self._pending: list[MatchTask] = []

    def idle(self) -> int:
        return 0 if self._pending else 1

    def submit(self, task: MatchTask) -> None:
        self._pending.append(task)

    def poll(self, timeout: float) -> list[Outcome]:
        pending, self._pending = self._pending, []
        return [run_task(self.runner, t) for t in pending]

    def running(self) -> list[MatchTask]:
        return list(self._pending)

    def close(self, *, interrupt: bool = False) -> None:
        self.runner.close()


def _die_with_parent() -> None:
    """Ask Linux to SIGTERM this process when its parent dies."""
    PR_SET_PDEATHSIG = 1
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def _worker_main(
    index: int, runner_factory: Callable[[], MatchRunner], tasks: Any, results: Any
) -> None:
    """A worker process: play tasks until told to stop; always close the bots."""
    _die_with_parent()
    # Ctrl-C reaches the whole foreground process group; the ladder process
    # decides what happens to running matches, not each worker.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM (the parent's death) ends the worker at once: each bot's sandbox
    # supervisor watches its referee through a pidfd and kills the bot's tree.
    # Unwinding from a signal handler instead could stop the worker holding a
    # lock its cleanup needs, and it then hung for ever with its bots alive.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    configure_logging(logging.WARNING)  # a spawned worker logs to the operator's stderr too; it quotes bots
    runner = runner_factory()
    try:
        while (task := tasks.get()) is not None:
            results.put((index, run_task(runner, task)))
    finally:
        runner.close()


class ProcessPool:
    """W worker processes, each with its own warm bots; see the module doc."""

    def __init__(self, workers: int, runner_factory: Callable[[], MatchRunner]) -> None:
        self._ctx = mp.get_context("spawn")
        self._factory = runner_factory
        self._results: Any = self._ctx.Queue()
        self._procs: list[Any] = []
        self._queues: list[Any] = []
        self._busy: list[MatchTask | None] = []
        for index in range(workers):
            self._procs.append(None)
            self._queues.append(None)
            self._busy.append(None)
            self._start(index)

    def _start(self, index: int) -> None:
        tasks = self._ctx.Queue()
        proc = self._ctx.Process(
            target=_worker_main, args=(index, self._factory, tasks, self._results),
            name=f"ladder-worker-{index}", daemon=True,
        )
        proc.start()
        self._procs[index] = proc
        self._queues[index] = tasks
        self._busy[index] = None

    def idle(self) -> int:
        return sum(task is None for task in self._busy)

    def submit(self, task: MatchTask) -> None:
        index = self._busy.index(None)
        self._busy[index] = task
        self._queues[index].put(task)

    def running(self) -> list[MatchTask]:
        return [t for t in self._busy if t is not None]

    def poll(self, timeout: float) -> list[Outcome]:
        outcomes: list[Outcome] = []
        try:
            outcomes.append(self._take(self._results.get(timeout=timeout)))
            while True:
                outcomes.append(self._take(self._results.get_nowait()))
        except queue.Empty:
            pass
        for index, proc in enumerate(self._procs):
            task = self._busy[index]
            if task is not None and not proc.is_alive():
                outcomes.append(MatchFailed(task, "worker_crash", f"worker exited with code {proc.exitcode}"))
                self._start(index)
        return outcomes

    def _take(self, item: tuple[int, Outcome]) -> Outcome:
        index, outcome = item
        self._busy[index] = None
        return outcome

    def close(self, *, interrupt: bool = False) -> None:
        for index, proc in enumerate(self._procs):
            if interrupt and self._busy[index] is not None:
                proc.terminate()
            else:
                with contextlib.suppress(Exception):
                    self._queues[index].put(None)
        for proc in self._procs:
            proc.join(STOP_GRACE)
            if proc.is_alive():
                proc.kill()
                proc.join()
        self._busy = [None] * len(self._procs)
