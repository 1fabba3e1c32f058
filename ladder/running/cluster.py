"""The ladder's matches on a Dask cluster: every match is one Dask task.

`open_pool` gives the run loop (ladder/scheduling/scheduler.py) a `DaskPool`: with no
scheduler address, on an embedded `LocalCluster` sized to the machine (one
worker process per core, one match at a time each); with
`tcp://HOST:PORT`, on an existing cluster of `dask scheduler` and
`dask worker` processes, wherever they run. What Dask does for the ladder:

- placing matches on workers, and a worker lost mid-match (killed, its
  machine gone): Dask runs the task again on another worker, so the match
  is still played, and its one result is rated once (the store's match id
  is unique besides). A task whose workers keep dying is given up by Dask
  (`KilledWorker`) and comes back as a `worker_crash` failure: retried by
  the run loop, never rated;
- moving results back: a `PlayedMatch` carries the match record, which the
  process that owns the store writes; workers never touch the store;
- bot files: each submitted bot's archive is put into the cluster once
  (`client.scatter`) and published under its content hash; a worker
  fetches it the first time it seats the bot and keeps the unpacked folder
  by hash (ladder/running/botfiles.py). If the worker holding an archive is lost,
  the ladder puts it in again before the next match that needs it;
- bots' output: on a real cluster each result brings what its bots wrote
  on the worker, which the ladder appends to the store's logs
  (ladder/running/botlogs.py); an embedded cluster's workers write them directly.

`LadderWorker` is a Dask worker plugin: registered by the ladder, it is set
up on every worker (also ones that join later) and keeps the warm bots
there: one `RealRunner` per match the worker plays at a time, reused match
after match. Bots start in the sandbox of the machine the worker runs on
(referee/sandbox/), as anywhere else.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import os
import signal
import threading
import time
import uuid
import warnings
from pathlib import Path
from typing import Any

import dask
from distributed import Client, Future, LocalCluster, get_client, get_worker, wait
from distributed.diagnostics.plugin import WorkerPlugin

from botsdk.contract import TimeControl
from ladder.intake.archive import pack
from ladder.running.botfiles import BotFileCache
from ladder.running.botlogs import LogCursor, append_capped
from ladder.running.runner import RealRunner, run_task
from ladder.store.tasks import BotSpec, MatchFailed, MatchTask, NotRated, Outcome, PlayedMatch
from referee.sandbox import Limits

log = logging.getLogger(__name__)

FILES_PREFIX = "bot-files-"
"""A bot archive is published in the cluster as FILES_PREFIX + its content hash."""

FETCH_TIMEOUT = 120.0
"""Seconds a worker waits for a bot's archive before giving the match back."""

CAPACITY_REFRESH = 1.0
"""Seconds between asks of the scheduler how many workers there are."""

CLOSE_TIMEOUT = 20.0
"""Seconds the embedded cluster gets to stop its workers (and their bots)."""


EMBEDDED_CONFIG = {
    # every match handed out goes to a worker at once (the pool keeps one waiting per worker): none waits
    # at the scheduler for a round trip after the one before it finished
    "distributed.scheduler.worker-saturation": float("inf"),
    # a worker's sampling profiler and its event loop's fast tick take the GIL from the referee's match
    # thread many times a second (matches measured 16 % slower with them)
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
}
"""Dask settings of the embedded cluster (give a real cluster's workers the
same, e.g. DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False)."""


class ClusterError(Exception):
    """The cluster cannot be reached or started; the message says what to check."""


def _files_name(digest: str) -> str:
    return FILES_PREFIX + digest


def fetch_shipped(digest: str) -> bytes:
    """The archive published under `digest`, from whichever worker holds it
    (called inside a task, on a worker). Raises NotRated."""
    client = get_client()
    future = client.get_dataset(_files_name(digest), default=None)
    if future is None:
        raise NotRated("worker_crash", f"the cluster holds no files of hash {digest[:12]} (lost with a worker); "
                                       "the ladder puts them in again")
    try:
        data = future.result(timeout=FETCH_TIMEOUT)
    except Exception as exc:
        raise NotRated("worker_crash", f"fetching the files of hash {digest[:12]} failed: {exc!r}") from None
    assert isinstance(data, bytes)
    return data


class LadderWorker(WorkerPlugin):
    """Warm bots and cached bot files on one Dask worker; see the module doc."""

    def __init__(self, move_time: float, *, logs_dir: str | None = None, ignore_sigint: bool = False,
                 limits: Limits | None = None) -> None:
        self.move_time = move_time
        self.logs_dir = logs_dir
        """Where the bots' output goes; None: the worker's own folder."""
        self.ignore_sigint = ignore_sigint
        """For workers the ladder started itself: Ctrl-C on the terminal is
        the ladder's to handle, not each worker's."""
        self.limits = limits or Limits()
        """What each bot's sandbox allows it (the ladder's --config file)."""
        self.name = plugin_name(move_time, logs_dir, self.limits)

    def setup(self, worker: Any) -> None:
        """Made on the worker (the plugin travels pickled, without state)."""
        if self.ignore_sigint and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        self._idle: list[RealRunner] = []
        self._lock = threading.Lock()
        root = Path(worker.local_directory)
        self.files = BotFileCache(root / "bot-files", fetch_shipped)
        self._logs = Path(self.logs_dir) if self.logs_dir is not None else root / "bot-logs"
        self._cursor = LogCursor(self._logs) if self.logs_dir is None else None  # shipped with each result

    def play(self, task: MatchTask) -> Outcome:
        """Play `task` with a runner no other match of this worker holds."""
        with self._lock:
            runner = self._idle.pop() if self._idle else None
        if runner is None:
            runner = RealRunner(TimeControl(move_time=self.move_time), self.files, self._logs, self.limits)
        try:
            outcome = run_task(runner, task)
        finally:
            with self._lock:
                self._idle.append(runner)
        if self._cursor is not None and isinstance(outcome, PlayedMatch):
            shipped = {spec.label: self._cursor.new_output(spec.label) for spec in task.bots}
            outcome = dataclasses.replace(outcome, logs={label: data for label, data in shipped.items() if data})
        return outcome

    def teardown(self, worker: Any) -> None:
        with self._lock:
            runners, self._idle = self._idle, []
        for runner in runners:
            runner.close()


def plugin_name(move_time: float, logs_dir: str | None, limits: Limits) -> str:
    """One plugin per ladder setting, so two ladders on one cluster (a
    service and a batch run) each find their own."""
    digest = hashlib.sha256(f"{move_time!r}\n{logs_dir}\n{sorted(limits.as_dict().items())}".encode()).hexdigest()[:12]
    return f"bot-referee-ladder-{digest}"


def play_match(task: MatchTask, plugin: str) -> Outcome:
    """The Dask task: play `task` on this worker with its plugin's warm bots."""
    worker_plugin = get_worker().plugins[plugin]
    assert isinstance(worker_plugin, LadderWorker)
    return worker_plugin.play(task)


class Shipper:
    """Puts each submitted bot's archive into the cluster once (again if
    the worker holding it was lost); see the module doc."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self._shipped: dict[str, Future[Any]] = {}

    def ensure(self, specs: tuple[BotSpec, ...]) -> None:
        for spec in specs:
            if spec.kind == "builtin":
                continue
            future = self._shipped.get(spec.content_hash)
            if future is not None and future.status == "finished":
                continue
            assert spec.folder is not None, f"{spec.label}: a submitted bot without files"
            future = self.client.scatter(pack(Path(spec.folder)))
            self.client.publish_dataset(future, name=_files_name(spec.content_hash), override=True)
            self._shipped[spec.content_hash] = future

    def withdraw(self) -> None:
        """Take the published archives out of the cluster (a remote one
        outlives us; an embedded one then stops without losing data it holds)."""
        for digest in self._shipped:
            with contextlib.suppress(Exception):
                self.client.unpublish_dataset(_files_name(digest))
        self._shipped.clear()


class DaskPool:
    """The run loop's `Pool` on a Dask cluster: a task per match, as many
    in flight as the cluster has threads plus one waiting per worker."""

    def __init__(self, client: Client, plugin: LadderWorker, cluster: LocalCluster | None = None,
                 logs_dir: Path | None = None) -> None:
        self.client = client
        self.cluster = cluster
        self.logs_dir = logs_dir
        """Where the output the workers ship back goes (a real cluster's)."""
        self.log_bytes = plugin.limits.log_bytes
        """The cap of each bot's log, the bots' own limit."""
        self.plugin = plugin.name
        self.shipper = Shipper(client)
        self._running: dict[Future[Outcome], MatchTask] = {}
        self._capacity = 1
        self._counted = 0.0
        self._run = uuid.uuid4().hex[:8]
        self._closed = False

    def capacity(self) -> int:
        """Threads plus workers of the cluster now (at least 1, so a task
        waits for a cluster that has no worker yet)."""
        now = time.monotonic()
        if now - self._counted >= CAPACITY_REFRESH:
            threads = self.client.nthreads()
            self._capacity = max(1, sum(threads.values()) + len(threads))
            self._counted = now
        return self._capacity

    def idle(self) -> int:
        return max(0, self.capacity() - len(self._running))

    def submit(self, task: MatchTask) -> None:
        self.shipper.ensure(task.bots)
        key = f"match-{task.match_id}-{task.attempt}-{self._run}"
        future = self.client.submit(play_match, task, self.plugin, key=key, pure=False)
        self._running[future] = task

    def running(self) -> list[MatchTask]:
        return list(self._running.values())

    def poll(self, timeout: float) -> list[Outcome]:
        if not self._running:
            return []
        try:
            done, _ = wait(list(self._running), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return []
        return [self._outcome(future) for future in done]

    def _outcome(self, future: Future[Outcome]) -> Outcome:
        task = self._running.pop(future)
        if future.status == "finished":
            outcome = future.result()
            assert isinstance(outcome, Outcome)
            if isinstance(outcome, PlayedMatch) and self.logs_dir is not None:
                for label, data in outcome.logs.items():
                    append_capped(self.logs_dir, label, data, self.log_bytes)
            return outcome
        try:
            exc = future.exception(timeout=5)
        except Exception as lost:  # cancelled: the cluster dropped it
            exc = lost
        return MatchFailed(task, "worker_crash", f"the cluster lost the match: {type(exc).__name__}: {exc}")

    def close(self, *, interrupt: bool = False) -> None:
        """Drop the matches in flight (a remote worker finishes a running
        one, its result unused); stop an embedded cluster and its workers.
        Idempotent."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(Exception):
            self.client.cancel(list(self._running), force=True)
        self._running.clear()
        self.shipper.withdraw()
        with contextlib.suppress(Exception):
            self.client.close()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close(timeout=CLOSE_TIMEOUT)


def default_workers() -> int:
    """Worker processes of the embedded cluster: one per core."""
    return os.cpu_count() or 1


def open_pool(scheduler: str | None, move_time: float, *, workers: int | None = None,
              logs_dir: Path | None = None, limits: Limits | None = None) -> DaskPool:
    """A DaskPool on the cluster at `scheduler`, or on a new embedded one of
    `workers` processes (default: one per core) whose bots log to
    `logs_dir`; every bot's sandbox allows it `limits` (default: the
    sandbox's own). Raises ClusterError."""
    cluster = None
    try:
        if scheduler is None:
            # the embedded scheduler and nannies run in this process: their
            # informational lines (workers joining, closing) are not the operator's business
            logging.getLogger("distributed").setLevel(logging.WARNING)
            # its HTTP endpoint (on 127.0.0.1) takes another port when a second ladder holds the default one
            warnings.filterwarnings("ignore", message=r"Port \d+ is already in use", category=UserWarning)
            with dask.config.set(EMBEDDED_CONFIG):
                cluster = LocalCluster(n_workers=workers or default_workers(), threads_per_worker=1, processes=True,
                                       dashboard_address=None, host="127.0.0.1", silence_logs=logging.ERROR)
            client = Client(cluster, direct_to_workers=True)  # results come straight from the worker
        else:
            client = Client(scheduler, timeout=10, direct_to_workers=True)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        where = "start the embedded Dask cluster" if scheduler is None else f"reach the Dask scheduler at {scheduler}"
        raise ClusterError(f"cannot {where} ({exc}); check the address and that `dask scheduler` runs there") from None
    embedded = cluster is not None
    plugin = LadderWorker(move_time, logs_dir=str(logs_dir) if embedded and logs_dir is not None else None,
                          ignore_sigint=embedded, limits=limits)
    client.register_plugin(plugin, name=plugin.name)
    return DaskPool(client, plugin, cluster, logs_dir=None if embedded else logs_dir)

