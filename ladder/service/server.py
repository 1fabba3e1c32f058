"""The ladder service's process: the store's one owner, the run loop and the API.

The service (`referee serve`, ladder/cli/serve.py's `run_service`) holds
the store's run lock (one ladder per store, as `referee ladder`), plays
the ladder continuously on the Dask pool (matchmaking, duplicate deals,
seat rotation, rating, all as in a batch run: the run loop is the same
`ladder.scheduling.scheduler.Ladder`), and meanwhile answers the gRPC API
(ladder/service/servicer.py) with health checking and reflection, as bots do.

Continuous: a run has no budget; when the roster cannot seat a table yet
(too few bots) the loop waits and looks again, and bots submitted through
the API join the tables planned after they are registered. Killed at any
moment, even with SIGKILL, and started again, the service loses nothing
and rates nothing twice: every rated match was committed in one
transaction, and a restarted run first plays what was left planned
(docs/ladder.md, "Running the ladder").

Where it listens: `127.0.0.1:PORT` or `unix:PATH` by default need no token
(the machine's own users); any other address needs tokens and TLS, since a
token must not cross a network in clear. The API runs on gRPC's asyncio
server in a thread of its own (`ApiServer`; ladder/service/servicer.py says
which calls take which threads), the ladder on the main thread.

Stopping: SIGTERM and Ctrl-C stop the service within `STOP_DEADLINE`
seconds whatever it is doing (`Shutdown`): the first signal interrupts
the main thread, which discards the running matches, stops the API and
the Dask cluster and exits; if that has not happened by the deadline (a
cluster caught starting or stopping, a validation mid-match), or a second
signal comes, its processes are killed and it exits at once, which loses
nothing either: the store commits each rated match in one transaction, as
it does against SIGKILL.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import grpc
import psutil
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.intake.copying import MIB
from ladder.running.dispatch import Pool
from ladder.scheduling.scheduler import Ladder, LadderConfig, LadderError, RunStatus, game_roster, seatable
from ladder.service.addresses import Listen, parse_address
from ladder.service.events import Broadcaster
from ladder.service.servicer import LadderServicer
from ladder.store.database import Store
from ladder.store.tasks import MatchTask, Outcome
from referee.untrusted import MESSAGE_LIMIT, safe_line

log = logging.getLogger(__name__)

SERVICE_NAME = ladder_pb2.DESCRIPTOR.services_by_name["Ladder"].full_name
ROSTER_WAIT = 2.0
"""Seconds between looks at a roster too small to seat a table."""
MAX_MESSAGE = 4 * MIB + 64 * 1024
"""The largest message a call may send: a Submit's archive of 4 MiB and the
rest of its request (a larger archive comes in pieces: SubmitStream). A
message is held in memory about three times while gRPC and protobuf take
it in, so this, not --max-mib, bounds what one upload costs in memory."""
STOP_GRACE = 2.0
"""Seconds the API gives calls in flight when the service stops."""
STOP_DEADLINE = 8.0
"""Seconds from the first SIGTERM or Ctrl-C to stopping at once (`Shutdown`)."""
START_TIMEOUT = 30.0
"""Seconds the API's server may take to start."""
KEEPALIVE = [
    # a live stream's reader that vanished (its machine gone) is found within a minute and a half
    ("grpc.keepalive_time_ms", 60_000), ("grpc.keepalive_timeout_ms", 20_000),
    ("grpc.http2.max_pings_without_data", 0), ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
]
MAX_STREAMS_PER_CONNECTION = 1000
"""HTTP/2 streams one connection may have open (calls and live streams
together). Generous: gRPC clients share one connection among all their
channels to an address, and a stream over this waits unanswered in the
client; the caps per client are the quotas' (ladder/service/quotas.py)."""
FAILURE_PAUSE = 10.0
"""Seconds the run loop rests after matches kept failing (the machine is short of something)."""


class ServiceError(Exception):
    """The service cannot start as asked; the message says what to change."""


def parse_listen(address: str) -> Listen:
    """`127.0.0.1:50061`, `[::1]:50061`, `unix:/path` or `HOST:PORT`
    (ladder/service/addresses.py). Raises ServiceError."""
    try:
        return parse_address(address)
    except ValueError as exc:
        raise ServiceError(f"--listen {exc}") from None


@dataclass(frozen=True)
class Tls:
    cert: Path
    key: Path

    def credentials(self) -> grpc.ServerCredentials:
        try:
            return grpc.ssl_server_credentials([(self.key.read_bytes(), self.cert.read_bytes())])
        except OSError as exc:
            raise ServiceError(f"cannot read the TLS key or certificate ({exc}); check --tls-key and --tls-cert") from None


class ApiServer:
    """The gRPC server with the API, health checking and reflection, on an
    asyncio event loop in a thread of its own; see the module doc."""

    def __init__(self, servicer: LadderServicer, listen: Listen, tls: Tls | None, max_message: int) -> None:
        self.servicer = servicer
        self.listen = listen
        self.tls = tls
        self.max_message = max_message
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="ladder-api", daemon=True)
        self._server: grpc.aio.Server | None = None

    def start(self) -> None:
        """Listen and serve. Raises ServiceError."""
        credentials = self.tls.credentials() if self.tls is not None else None
        self._thread.start()
        try:
            asyncio.run_coroutine_threadsafe(self._start(credentials), self._loop).result(START_TIMEOUT)
        except BaseException:
            self.stop(0)
            raise

    async def _start(self, credentials: grpc.ServerCredentials | None) -> None:
        server = grpc.aio.server(options=[
            ("grpc.max_receive_message_length", self.max_message),
            ("grpc.max_send_message_length", -1),
            ("grpc.max_concurrent_streams", MAX_STREAMS_PER_CONNECTION),
            ("grpc.so_reuseport", 0),
            # the receive window stays at its first size: an upload sent faster than it is written waits in the
            # sender, not in this process (a 200 MiB SubmitStream refused at 65 MiB: +6 MiB of RSS, +33 MiB with)
            ("grpc.http2.bdp_probe", 0),
            *KEEPALIVE,
        ])
        ladder_pb2_grpc.add_LadderServicer_to_server(self.servicer, server)  # type: ignore[no-untyped-call]  # generated
        health_servicer = health.aio.HealthServicer()
        for name in ("", SERVICE_NAME):
            await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME),
            server)
        try:
            port = (server.add_secure_port(self.listen.address, credentials) if credentials is not None
                    else server.add_insecure_port(self.listen.address))
        except RuntimeError as exc:
            raise ServiceError(f"cannot listen on {self.listen.address} ({exc}); is another service there?") from None
        if port == 0 and not self.listen.address.startswith("unix:"):
            raise ServiceError(f"cannot listen on {self.listen.address}; is another service there?")
        await server.start()
        self._server = server

    def stop(self, grace: float) -> None:
        """Refuse new calls, give those in flight `grace` seconds, stop the loop."""
        if self._server is not None:
            future = asyncio.run_coroutine_threadsafe(self._server.stop(grace), self._loop)
            try:
                future.result(grace + 2)
            except Exception:  # a loop that does not answer is left to the process's end (it is a daemon)
                log.warning("the API did not stop within %.0fs", grace + 2)
        self.servicer.close()
        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(2)
        # only now: the stopped server, once collected, closes the descriptor its loop watched
        self._server = None


def start_api(servicer: LadderServicer, listen: Listen, tls: Tls | None) -> ApiServer:
    """The API, started on `listen`. Raises ServiceError."""
    server = ApiServer(servicer, listen, tls, MAX_MESSAGE)
    server.start()
    return server


def check_listen(listen: Listen, tls: Tls | None, require_tokens: bool) -> bool:
    """Whether tokens are required; refuses a network address without TLS."""
    if listen.local:
        return require_tokens
    if tls is None:
        raise ServiceError(f"--listen {listen.address} reaches beyond this machine: give --tls-cert and --tls-key "
                           "(tokens must not cross a network in clear), or listen on 127.0.0.1 or unix:PATH")
    return True


def publish_finished(store: Store, game: str, events: Broadcaster,
                     echo: Callable[[str], None]) -> Callable[[RunStatus], None]:
    """The run loop's update callback: each newly rated match, once, to the
    live streams and as a line to `echo` (the operator's log)."""
    last = store.latest_seq(game)

    def update(status: RunStatus) -> None:
        nonlocal last
        for match in store.matches_since(game, last):
            last = match["seq"]
            finished = ladder_pb2.MatchFinished(
                match_id=match["match_id"], game=match["game"], seconds=match["seconds"],
                end_reason=match["end_reason"], rule_set=match["rule_set"],
                seats=[ladder_pb2.Seat(bot=s["name"], version=s["version"], rank=s["rank"], forfeit=s["forfeit"] or "")
                       for s in match["seats"]])
            events.publish(finished)
            echo(describe(finished))
    return update


def describe(match: ladder_pb2.MatchFinished) -> str:
    """"rated gnadenlos-...: 1 heuristic, 2 random, 3 crashy (forfeit: crashed) (1.2s)", names escaped."""
    order = sorted(range(len(match.seats)), key=lambda seat: (match.seats[seat].rank, seat))
    places = [f"{match.seats[s].rank + 1} {safe_line(match.seats[s].bot)}"
              + (f" (forfeit: {match.seats[s].forfeit})" if match.seats[s].forfeit else "") for s in order]
    return f"rated {match.match_id}: {', '.join(places)} ({match.seconds:.1f}s)"


class Shutdown:
    """SIGTERM and Ctrl-C stop the service within STOP_DEADLINE seconds;
    see the module doc. `install` at once when the service starts: a
    signal during its start is handled as any other."""

    def __init__(self, echo: Callable[[str], None], deadline: float = STOP_DEADLINE) -> None:
        self.echo = echo
        self.deadline = deadline
        self.requested = False
        self._deferring = 0

    def install(self) -> None:
        signal.signal(signal.SIGTERM, self._signalled)
        signal.signal(signal.SIGINT, self._signalled)

    @contextmanager
    def deferred(self) -> Iterator[None]:
        """A step a signal does not interrupt (it sets `requested`, which
        the caller looks at afterwards); the deadline still holds."""
        self._deferring += 1
        try:
            yield
        finally:
            self._deferring -= 1

    def _signalled(self, signum: int, frame: FrameType | None) -> None:
        if self.requested:
            self._force(f"a second {signal.Signals(signum).name}")
        self.requested = True
        threading.Thread(target=self._watch, name="stop-deadline", daemon=True).start()
        if not self._deferring:
            raise KeyboardInterrupt

    def _watch(self) -> None:
        time.sleep(self.deadline)
        self._force(f"stopping took longer than {self.deadline:g}s")

    def _force(self, why: str) -> None:
        """Kill every process the service started and exit now."""
        self.echo(f"{why}: stopping at once; rated matches are kept, running ones are played when the service "
                  "starts again")
        family = psutil.Process().children(recursive=True)
        for process in family:
            try:
                process.kill()
            except psutil.Error:
                pass
        psutil.wait_procs(family, timeout=1)
        os._exit(0)


class Sheltered:
    """A pool whose calls into Dask a signal does not interrupt: it waits
    for the call to return, and is raised (KeyboardInterrupt) between two
    calls, where the run loop handles it. Interrupted inside, Dask's client
    is left mid-call (its `sync` then fails in its own loop thread)."""

    def __init__(self, pool: Pool, shutdown: Shutdown) -> None:
        self.pool = pool
        self.shutdown = shutdown

    def _after(self) -> None:
        if self.shutdown.requested:
            raise KeyboardInterrupt

    def idle(self) -> int:
        with self.shutdown.deferred():
            idle = self.pool.idle()
        self._after()
        return idle

    def submit(self, task: MatchTask) -> None:
        with self.shutdown.deferred():
            self.pool.submit(task)
        self._after()

    def poll(self, timeout: float) -> list[Outcome]:
        with self.shutdown.deferred():
            outcomes = self.pool.poll(timeout)
        self._after()
        return outcomes

    def running(self) -> list[MatchTask]:
        return self.pool.running()

    def close(self, *, interrupt: bool = False) -> None:
        with self.shutdown.deferred():
            self.pool.close(interrupt=interrupt)


def run_ladder(store: Store, config: LadderConfig, make_pool: Callable[[], Pool], events: Broadcaster,
               echo: Callable[[str], None], shutdown: Shutdown) -> None:
    """Play `config`'s game under its rule set until Ctrl-C or SIGTERM,
    waiting while the roster (the bots that declare that rule set) is too
    small. The Dask cluster starts, and is called, where a signal waits
    (`Shutdown.deferred`, `Sheltered`): a cluster half started cannot be
    stopped, only killed."""
    update = publish_finished(store, config.game, events, echo)
    warned = False
    while True:
        try:
            seatable(config.game, config.sizes, len(game_roster(store, config.game, config.variant,
                                                                builtins=config.builtins)))
        except LadderError as exc:
            if not warned:
                echo(f"{safe_line(exc)}; waiting for submissions")
                warned = True
            time.sleep(ROSTER_WAIT)
            continue
        with shutdown.deferred():
            pool = Sheltered(make_pool(), shutdown)
            ladder = Ladder(store, pool, config, on_update=update, on_warning=echo,
                            on_commit=lambda commitment: echo(commitment.text))
            if shutdown.requested:
                pool.close(interrupt=True)
                return
        try:
            status = ladder.run()  # a signal meanwhile: it discards the running matches and closes the pool
        except KeyboardInterrupt:  # it came before the run's own handling began
            with shutdown.deferred():
                pool.close(interrupt=True)
            return
        except LadderError as exc:  # matches keep failing: say so, pause, start again
            echo(f"the ladder stopped: {safe_line(exc, MESSAGE_LIMIT)}; starting again in {FAILURE_PAUSE:g}s")
            time.sleep(FAILURE_PAUSE)
            continue
        if status.interrupted:
            return
