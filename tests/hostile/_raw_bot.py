"""Serve a hostile bot on raw gRPC, for acts the SDK cannot commit (it
always answers the request it was asked, with a message it encodes itself).

The bot is healthy and handshakes like any good bot; every Decide of a match
is answered with the bytes `answer(match_start, decide)` returns.
"""

import argparse
import os
import signal
import threading
from collections.abc import Callable
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from botsdk.contract import SERVICE
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

Answer = Callable[[tpb.MatchStart, tpb.Decide], bytes]


def decision(request_id: int, action: tpb.GameAction) -> bytes:
    """A well-formed answer: `action` for request `request_id`."""
    return tpb.BotMessage(decision=tpb.Decision(request_id=request_id, action=action)).SerializeToString()


def serve(name: str, answer: Answer) -> None:
    """Serve on --socket PATH until SIGTERM; the other arguments are the act's."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", default=os.environ.get("REFEREE_BOT_SOCKET"))
    args, _ = parser.parse_known_args()

    def handshake(request, context):  # type: ignore[no-untyped-def]
        return tpb.HandshakeResponse(name=name, version="1", protocol_version=1, games=["gnadenlos"])

    def play(requests, context):  # type: ignore[no-untyped-def]
        start = None
        for message in requests:
            kind = message.WhichOneof("kind")
            if kind == "match_start":
                start = message.match_start
            elif kind == "decide":
                yield answer(start, message.decide)

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
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
