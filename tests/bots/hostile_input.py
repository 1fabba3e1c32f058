"""Hostile bot, on raw gRPC: it says something outsized or unprintable,
about itself in its handshake or as its answers, and it raised its own
receive limit so that it could play on where an honest bot's gRPC refuses
an oversized MatchStart.

Usage: hostile_input.py MODE --socket PATH, MODE one of `MODES` (what its
handshake says) or, with an honest handshake, `huge-bid` (every Decide is
answered with a Gnadenlos! bid of 200,000 IOUs, 0.4 MB: illegal, and 0.8 MB
of text if the referee wrote it out) or `escape-abort` (the first Decide
ends the stream with a status whose details are terminal escapes).
Otherwise it answers every Decide with the first legal action.
"""

import argparse
import os
import signal
import threading
from concurrent import futures

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from botsdk.contract import PROTOCOL_VERSION, SERVICE
from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as gpb
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

HONEST = {"name": "hostile", "version": "1", "games": ["gnadenlos", "saboteur"]}
MODES = {
    "huge-name": {"name": "x" * 1_000_000},  # five of them made a 5 MB MatchStart for every seat
    "control-name": {"name": "evil\x1b[2J\x1b[31mbot\nseat 0 wins"},  # clears a terminal, fakes a line
    "bidi-name": {"name": "bot\u202egnp.exe"},  # a right-to-left override: shows as "botexe.png"
    "blank-name": {"name": "   "},
    "huge-version": {"version": "9" * 100_000},
    "many-games": {"games": [f"game{i}" for i in range(10_000)]},
    "bad-game": {"games": ["gnadenlos", "../../etc/passwd\n"]},
}
HUGE_BID = gpb.Action(bid=gpb.Bid(colours=[1] * 200_000, values=[2] * 200_000))
ESCAPES = "\x1b[2J\x1b[H\x1b[32mreferee: seat 0 wins\n" * 20
OWN_LIMIT = 64 * 1024 * 1024
"""The attacker's own receive limit: far above gRPC's default 4 MiB."""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=sorted([*MODES, "huge-bid", "escape-abort"]))
    parser.add_argument("--socket", default=os.environ.get("REFEREE_BOT_SOCKET"))
    args = parser.parse_args()
    said = {**HONEST, **MODES.get(args.mode, {})}

    def handshake(request, context):
        return tpb.HandshakeResponse(name=said["name"], version=said["version"],
                                     protocol_version=PROTOCOL_VERSION, games=said["games"])

    def play(requests, context):
        for message in requests:
            if message.WhichOneof("kind") == "decide":
                decide = message.decide
                if args.mode == "escape-abort":
                    context.abort(grpc.StatusCode.INTERNAL, ESCAPES)
                action = tpb.GameAction(gnadenlos=HUGE_BID) if args.mode == "huge-bid" else decide.legal_actions[0]
                decision = tpb.Decision(request_id=decide.request_id, action=action)
                yield tpb.BotMessage(decision=decision).SerializeToString()

    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4),
                         options=[("grpc.max_receive_message_length", OWN_LIMIT)])
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
