"""Protocol test bot on raw gRPC (the SDK cannot send broken answers).

`--answer MODE` chooses what it sends for every Decide:
  garbage    bytes that parse as no protobuf message
  empty      a BotMessage with no decision
  no-action  a Decision without an action
  unasked    a valid action for a request id that was never asked
  ok         the first legal action, with unknown fields appended (tolerated)
  flood      the first legal action, 500 times over
`--protocol-version N` is what its handshake claims.
"""

import argparse
import os
import signal
import threading
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from botsdk.contract import SERVICE
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

UNKNOWN_FIELD = b"\xf8\x07\x01"  # field 127, varint 1: no message of ours has it


def answer(mode, decide):
    if mode == "garbage":
        return b"\x0a\xff"
    if mode == "empty":
        return tpb.BotMessage().SerializeToString()
    if mode == "no-action":
        return tpb.BotMessage(decision=tpb.Decision(request_id=decide.request_id)).SerializeToString()
    if mode == "unasked":
        decision = tpb.Decision(request_id=decide.request_id + 1000, action=decide.legal_actions[0])
        return tpb.BotMessage(decision=decision).SerializeToString()
    decision = tpb.Decision(request_id=decide.request_id, action=decide.legal_actions[0])
    return tpb.BotMessage(decision=decision).SerializeToString() + UNKNOWN_FIELD


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--socket", default=os.environ.get("REFEREE_BOT_SOCKET"))
    parser.add_argument("--answer", default="ok")
    parser.add_argument("--protocol-version", type=int, default=1)
    args = parser.parse_args()

    def handshake(request, context):
        return tpb.HandshakeResponse(name=f"raw-{args.answer}", version="1",
                                     protocol_version=args.protocol_version, games=["gnadenlos"])

    def play(requests, context):
        for message in requests:
            if message.WhichOneof("kind") == "decide":
                for _ in range(500 if args.answer == "flood" else 1):
                    yield answer(args.answer, message.decide)

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
    server.stop(0.2).wait()


if __name__ == "__main__":
    main()
