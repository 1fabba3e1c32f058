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

from botsdk.pb.tournament.v1 import tournament_pb2 as tpb

from raw_bot import decision, serve

UNKNOWN_FIELD = b"\xf8\x07\x01"  # field 127, varint 1: no message of ours has it
NOT_A_MESSAGE = b"\x0a\xff"
"""Field 1, length-delimited, its length cut off: no protobuf message parses from it."""


def answer(mode, decide):
    """The bytes `mode` sends for `decide`."""
    if mode == "garbage":
        return NOT_A_MESSAGE
    if mode == "empty":
        return tpb.BotMessage().SerializeToString()
    if mode == "no-action":
        return tpb.BotMessage(decision=tpb.Decision(request_id=decide.request_id)).SerializeToString()
    if mode == "unasked":
        return decision(decide.request_id + 1000, decide.legal_actions[0])
    if mode == "flood":
        return [decision(decide.request_id, decide.legal_actions[0])] * 500
    return decision(decide.request_id, decide.legal_actions[0]) + UNKNOWN_FIELD


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--answer", default="ok")
    parser.add_argument("--protocol-version", type=int, default=1)
    args, _ = parser.parse_known_args()
    serve(f"raw-{args.answer}", lambda start, decide: answer(args.answer, decide),
          protocol_version=args.protocol_version)


if __name__ == "__main__":
    main()
