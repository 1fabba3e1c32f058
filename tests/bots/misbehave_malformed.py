"""Misbehaving bot, on raw gRPC (the SDK cannot send a broken answer): the
handshake and health are correct, but its answers in the match stream are
malformed, in turn: bytes that are no protobuf message, a Decision without
an action, and an answer to a request id that was never asked.
"""

import argparse
import os
import signal
import threading
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from botsdk.contract import PROTOCOL_VERSION, SERVICE
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

NOT_A_MESSAGE = b"\x0a\xff"
"""Field 1, length-delimited, its length cut off: no protobuf message parses from it."""


def handshake(request, context):
    return tpb.HandshakeResponse(name="malformed", version="1", protocol_version=PROTOCOL_VERSION,
                                 games=["gnadenlos"])


def play(requests, context):
    """Raw bytes out (no response serializer), one broken answer per Decide."""
    answered = 0
    for message in requests:
        if message.WhichOneof("kind") != "decide":
            continue
        decide = message.decide
        if answered == 0:
            answer = NOT_A_MESSAGE
        elif answered == 1:
            answer = tpb.BotMessage(decision=tpb.Decision(request_id=decide.request_id)).SerializeToString()
        else:
            never_asked = tpb.Decision(request_id=decide.request_id + 1000, action=decide.legal_actions[0])
            answer = tpb.BotMessage(decision=never_asked).SerializeToString()
        answered += 1
        yield answer


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", default=os.environ.get("REFEREE_BOT_SOCKET"))
    args = parser.parse_args()
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4))
    status = health.HealthServicer()
    for name in ("", SERVICE):
        status.set(name, health_pb2.HealthCheckResponse.SERVING)
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
    server.stop(0.5).wait()


if __name__ == "__main__":
    main()
