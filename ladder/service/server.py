"""The ladder service's process: the store's one owner, the run loop and the API.

`run_service` holds the store's run lock (one ladder per store, as `referee
ladder`), plays the ladder continuously on the Dask pool (matchmaking,
duplicate deals, seat rotation, rating, all as in a batch run: the run loop
is the same `ladder.scheduler.Ladder`), and meanwhile answers the gRPC API
(ladder/service/api.py) with health checking and reflection, as bots do.

Continuous: a run has no budget; when the roster cannot seat a table yet
(too few bots) the loop waits and looks again, and bots submitted through
the API join the tables planned after they are registered. Killed at any
moment, even with SIGKILL, and started again, the service loses nothing
and rates nothing twice: every rated match was committed in one
transaction, and a restarted run first plays what was left planned
(docs/ladder.md, "Running the ladder").

Where it listens: `127.0.0.1:PORT` or `unix:PATH` by default need no token
(the machine's own users); any other address needs tokens and TLS, since a
token must not cross a network in clear.
"""

from __future__ import annotations

import ipaddress
import logging
import signal
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from botsdk.pb.ladder.v1 import ladder_pb2, ladder_pb2_grpc
from ladder.access import Access
from ladder.dispatch import Pool
from ladder.intake import MIB
from ladder.scheduler import Ladder, LadderConfig, LadderError, RunStatus
from ladder.service.api import LadderApi, ServiceSettings
from ladder.service.events import Broadcaster
from ladder.store import Store
from referee.untrusted import MESSAGE_LIMIT, safe_line

log = logging.getLogger(__name__)

SERVICE_NAME = ladder_pb2.DESCRIPTOR.services_by_name["Ladder"].full_name
API_THREADS = 16
"""Calls answered at once (a submission's validation match takes seconds)."""
ROSTER_WAIT = 2.0
"""Seconds between looks at a roster too small to seat a table."""
ARCHIVE_SLACK = MIB
"""What an upload may hold beyond the bot's files: tar headers, the request."""
STOP_GRACE = 2.0
FAILURE_PAUSE = 10.0
"""Seconds the run loop rests after matches kept failing (the machine is short of something)."""


class ServiceError(Exception):
    """The service cannot start as asked; the message says what to change."""


@dataclass(frozen=True)
class Listen:
    address: str
    local: bool
    """A local socket or a loopback address: only this machine's users reach it."""


def parse_listen(address: str) -> Listen:
    """`127.0.0.1:50061`, `[::1]:50061`, `unix:/path` or `HOST:PORT`.
    Raises ServiceError."""
    if address.startswith("unix:"):
        return Listen(address, True)
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit():
        raise ServiceError(f"--listen {address!r} is not HOST:PORT or unix:PATH (e.g. 127.0.0.1:50061)")
    host = host.strip("[]")
    if host == "localhost":
        return Listen(address, True)
    try:
        return Listen(address, ipaddress.ip_address(host).is_loopback)
    except ValueError:
        return Listen(address, False)  # a host name: whatever it resolves to, not known to be local


@dataclass(frozen=True)
class Tls:
    cert: Path
    key: Path

    def credentials(self) -> grpc.ServerCredentials:
        try:
            return grpc.ssl_server_credentials([(self.key.read_bytes(), self.cert.read_bytes())])
        except OSError as exc:
            raise ServiceError(f"cannot read the TLS key or certificate ({exc}); check --tls-key and --tls-cert") from None


def start_api(settings: ServiceSettings, access: Access, events: Broadcaster, listen: Listen,
              tls: Tls | None) -> grpc.Server:
    """The gRPC server with the API, health checking and reflection,
    started on `listen`. Raises ServiceError."""
    server = grpc.server(ThreadPoolExecutor(max_workers=API_THREADS, thread_name_prefix="ladder-api"), options=[
        ("grpc.max_receive_message_length", settings.limits.max_bytes + ARCHIVE_SLACK),
        ("grpc.max_send_message_length", -1),
        ("grpc.so_reuseport", 0),
    ])
    ladder_pb2_grpc.add_LadderServicer_to_server(LadderApi(settings, access, events), server)
    health_servicer = health.HealthServicer()
    for name in ("", SERVICE_NAME):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name, reflection.SERVICE_NAME), server)
    try:
        port = (server.add_secure_port(listen.address, tls.credentials()) if tls is not None
                else server.add_insecure_port(listen.address))
    except RuntimeError as exc:
        raise ServiceError(f"cannot listen on {listen.address} ({exc}); is another service there?") from None
    if port == 0 and not listen.address.startswith("unix:"):
        raise ServiceError(f"cannot listen on {listen.address}; is another service there?")
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


def stop_on_sigterm() -> None:
    """SIGTERM stops the service as Ctrl-C does: running matches discarded
    (played again on the next start), finished ones kept."""
    def handler(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, handler)


def run_ladder(store: Store, config: LadderConfig, make_pool: Callable[[], Pool], events: Broadcaster,
               echo: Callable[[str], None]) -> None:
    """Play `config`'s game under its rule set until Ctrl-C or SIGTERM,
    waiting while the roster (the bots that declare that rule set) is too small."""
    from ladder.scheduler import game_roster, seatable

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
        try:
            status = Ladder(store, make_pool(), config, on_update=update, on_warning=echo,
                            on_commit=lambda commitment: echo(commitment.text)).run()
        except LadderError as exc:  # matches keep failing: say so, pause, start again
            echo(f"the ladder stopped: {safe_line(exc, MESSAGE_LIMIT)}; starting again in {FAILURE_PAUSE:g}s")
            time.sleep(FAILURE_PAUSE)
            continue
        if status.interrupted:
            return

