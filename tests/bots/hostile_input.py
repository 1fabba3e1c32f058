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

import grpc
from botsdk.pb.gnadenlos.v1 import gnadenlos_pb2 as gpb
from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

from raw_bot import Abort, decision, serve

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


def answer(mode, decide):
    """The first legal action, or what `mode` answers instead."""
    if mode == "escape-abort":
        raise Abort(grpc.StatusCode.INTERNAL, ESCAPES)
    action = tpb.GameAction(gnadenlos=HUGE_BID) if mode == "huge-bid" else decide.legal_actions[0]
    return decision(decide.request_id, action)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=sorted([*MODES, "huge-bid", "escape-abort"]))
    args, _ = parser.parse_known_args()
    said = {**HONEST, **MODES.get(args.mode, {})}
    serve(said["name"], lambda start, decide: answer(args.mode, decide), version=said["version"],
          games=said["games"], options=[("grpc.max_receive_message_length", OWN_LIMIT)])


if __name__ == "__main__":
    main()
