"""Serve a test bot on raw gRPC, for acts the SDK cannot commit: it always
answers the request it was asked, once, with a message it encodes itself,
and says in its handshake what the referee accepts.

The bot is healthy and handshakes with what `serve` is given; every Decide
of a match is answered with whatever `answer(match_start, decide)` returns:
the bytes of one answer (sent as they are, parsed or not), a list of them
(a flood), or it raises `Abort` to end the stream with a status of its
choosing. The bot scripts beside this module import it (their folder is
the script's own, so the sandbox shows it to them).
"""

import argparse
import os
import signal
import threading
from collections.abc import Callable, Sequence
from concurrent import futures

import grpc
from botsdk.contract import PROTOCOL_VERSION, SERVICE, SOCKET_ENV
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

Answer = Callable[[tpb.MatchStart | None, tpb.Decide], "bytes | list[bytes]"]


class Abort(Exception):
    """Raised by an `answer`: end the match stream with this status and details."""

    def __init__(self, code: grpc.StatusCode, details: str) -> None:
        super().__init__(details)
        self.code = code
        self.details = details


def decision(request_id: int, action: tpb.GameAction) -> bytes:
    """A well-formed answer: `action` for request `request_id`."""
    return tpb.BotMessage(decision=tpb.Decision(request_id=request_id, action=action)).SerializeToString()


def serve(name: str, answer: Answer, *, version: str = "1", protocol_version: int = PROTOCOL_VERSION,
          games: Sequence[str] = ("gnadenlos",), options: Sequence[tuple[str, int]] = (),
          heard: Callable[[tpb.RefereeMessage], None] | None = None) -> None:
    """Serve on --socket PATH (or $REFEREE_BOT_SOCKET) until SIGTERM; other
    arguments are left to the bot script. `options` are the gRPC server's;
    `heard`, if given, is shown every message of a match first."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", default=os.environ.get(SOCKET_ENV))
    args, _ = parser.parse_known_args()
    said = tpb.HandshakeResponse(name=name, version=version, protocol_version=protocol_version, games=list(games))

    def handshake(request: tpb.HandshakeRequest, context: grpc.ServicerContext) -> tpb.HandshakeResponse:
        return said

    def play(requests: Sequence[tpb.RefereeMessage], context: grpc.ServicerContext):  # type: ignore[no-untyped-def]
        start = None
        for message in requests:
            if heard is not None:
                heard(message)
            kind = message.WhichOneof("kind")
            if kind == "match_start":
                start = message.match_start
            elif kind == "decide":
                try:
                    answers = answer(start, message.decide)
                except Abort as abort:
                    context.abort(abort.code, abort.details)
                yield from [answers] if isinstance(answers, bytes) else answers

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), options=list(options))
    status = health.HealthServicer()
    for service in ("", SERVICE):
        status.set(service, health_pb2.HealthCheckResponse.SERVING)
    health_pb2_grpc.add_HealthServicer_to_server(status, server)
    server.add_generic_rpc_handlers([grpc.method_handlers_generic_handler(SERVICE, {
        "Handshake": grpc.unary_unary_rpc_method_handler(
            handshake, request_deserializer=tpb.HandshakeRequest.FromString,
            response_serializer=tpb.HandshakeResponse.SerializeToString),
        "Play": grpc.stream_stream_rpc_method_handler(
            play, request_deserializer=tpb.RefereeMessage.FromString, response_serializer=None),
    })])
    server.add_insecure_port(f"unix:{args.socket}")
    server.start()
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    stop.wait()
    server.stop(0.2).wait()
