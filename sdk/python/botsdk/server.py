"""Serve a `Bot` on the Unix socket the referee names (docs/protocol.md).

`create_server(address, bot)` builds the gRPC server (the bot service, the
standard health service and server reflection, so stock tools such as
grpcurl and grpc_health_probe can talk to the bot); `serve(bot, argv)` is the
main function: it reads `--socket PATH` (or REFEREE_BOT_SOCKET), configures
logging, warms the bot up, serves until SIGTERM or SIGINT and then shuts
down gracefully.
"""

from __future__ import annotations

import argparse
import gc
import logging
import os
import signal
import stat
import sys
import threading
from collections.abc import Sequence
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from botsdk.bot import Bot
from botsdk.contract import SERVICE, SOCKET_ENV
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb
from botsdk.pb.tournament.v1 import tournament_pb2_grpc as tgrpc
from botsdk.servicer import BotServicer

SHUTDOWN_GRACE = 1.0
"""Seconds a match stream gets to finish after SIGTERM/SIGINT."""

log = logging.getLogger(__name__)


def create_server(address: str, bot: Bot, *, max_workers: int = 4) -> grpc.Server:
    """A gRPC server for `bot` bound to `address` ("unix:/path"), not started.

    Health reports SERVING for the whole server ("") and for the bot service.
    Raises OSError when it cannot listen on `address`.
    """
    return _build(address, BotServicer(bot), max_workers)


def _build(address: str, servicer: BotServicer, max_workers: int) -> grpc.Server:
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="bot"),
        options=(("grpc.so_reuseport", 0),),
    )
    tgrpc.add_BotServicer_to_server(servicer, server)  # type: ignore[no-untyped-call]  # generated, untyped
    health_servicer = health.HealthServicer()
    for name in ("", SERVICE):
        health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (
            tpb.DESCRIPTOR.services_by_name["Bot"].full_name,
            health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
            reflection.SERVICE_NAME,
        ),
        server,
    )
    if server.add_insecure_port(address) == 0:
        raise OSError(f"cannot listen on {address}")
    return server


def _remove_stale_socket(path: str) -> None:
    """A socket file left by an earlier run would make the bind fail."""
    try:
        if stat.S_ISSOCK(os.lstat(path).st_mode):
            os.unlink(path)
    except FileNotFoundError:
        pass


def _listen(servicer: BotServicer, path: str) -> grpc.Server:
    """Start serving on the socket `path`, which appears only once the server
    accepts connections.

    gRPC creates the socket file when it binds, milliseconds before the
    server accepts (measured: up to 12 ms of ECONNREFUSED); a referee that
    connects as soon as the file exists would be refused. So the server binds
    a temporary name in the same folder and renames it into place once
    started: the rename is atomic and the listening socket keeps working.
    """
    staging = os.path.join(os.path.dirname(path) or ".", f".bot-{os.getpid()}")
    _remove_stale_socket(path)
    _remove_stale_socket(staging)
    server = _build(f"unix:{staging}", servicer, max_workers=4)
    server.start()
    os.rename(staging, path)
    return server


STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class _StopSignals:
    """Catches SIGTERM and SIGINT from the moment it is made; `wait()` blocks
    the main thread until one has come.

    The kernel may deliver a process signal to any thread, and gRPC runs
    several: a main thread blocked in `threading.Event.wait()` is then never
    woken (seen: a bot that ignored SIGTERM). The signal module's wakeup fd is
    written by whichever thread receives the signal, so reading it works.
    Made before the socket appears, so that no signal can find the default
    handlers once the referee may know the bot.
    """

    def __init__(self) -> None:
        self._read_fd, self._write_fd = os.pipe()
        os.set_blocking(self._write_fd, False)
        self._previous_fd = signal.set_wakeup_fd(self._write_fd, warn_on_full_buffer=False)
        self._handlers = {signum: signal.signal(signum, lambda *_: None) for signum in STOP_SIGNALS}

    def wait(self) -> int:
        """The stop signal that came; restores the previous handlers."""
        try:
            while True:
                for signum in os.read(self._read_fd, 16):
                    if signum in self._handlers:
                        return signum
        finally:
            for signum, handler in self._handlers.items():
                signal.signal(signum, handler)
            signal.set_wakeup_fd(self._previous_fd)
            os.close(self._read_fd)
            os.close(self._write_fd)


def _warm_up(bot: Bot, warm: threading.Event) -> None:
    """Run the bot's `warm_up` while the referee checks health and
    handshakes, instead of at the first decision (it shortens the cold start
    to the first answer); then freeze what exists into the collector's
    permanent generation and let matches start."""
    try:
        bot.warm_up()
    except Exception:
        log.exception("the bot's warm_up raised; serving on")
    # Modules and tables built so far live as long as the process: keep the
    # collector from walking them again in every full collection, which would
    # otherwise land in the middle of a decision.
    gc.freeze()
    warm.set()


def _parse(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Serve a bot on the referee's Unix socket.")
    parser.add_argument("--socket", default=os.environ.get(SOCKET_ENV), help=f"socket path (default: ${SOCKET_ENV})")
    parser.add_argument("--log-level", default="WARNING", help="logging level for stderr (default: %(default)s)")
    args = parser.parse_args(argv)
    if not args.socket:
        parser.error(f"give --socket PATH or set {SOCKET_ENV}")
    return args


def serve(bot: Bot, argv: Sequence[str] | None = None) -> None:
    """Serve `bot` until SIGTERM or SIGINT. A main function: configures logging.

    Several matches are played one after the other on the same `bot` object.
    """
    args = _parse(sys.argv[1:] if argv is None else argv)
    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(levelname)s %(message)s")
    stop = _StopSignals()
    servicer = BotServicer(bot)
    servicer.warm.clear()
    server = _listen(servicer, args.socket)
    log.info("%s %s serving on %s", bot.name, bot.version, args.socket)
    threading.Thread(target=_warm_up, args=(bot, servicer.warm), name="warm-up", daemon=True).start()
    signum = stop.wait()
    log.info("shutting down on signal %d", signum)
    server.stop(SHUTDOWN_GRACE).wait()
    _remove_stale_socket(args.socket)
