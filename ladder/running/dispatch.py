"""How the ladder's run loop hands matches out and takes results back.

`Pool` is all the run loop (ladder/scheduling/scheduler.py) knows of where matches
run: `DaskPool` (ladder/running/cluster.py) runs each as a task on a Dask cluster,
embedded or remote; `InlinePool` runs each in the calling process, one at a
time, which is what the scheduler's tests use to inject a fake runner.
"""

from __future__ import annotations

from typing import Protocol

from ladder.running.runner import MatchRunner, run_task
from ladder.store.tasks import MatchTask, Outcome


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
