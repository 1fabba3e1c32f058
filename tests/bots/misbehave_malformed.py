"""Misbehaving bot, on raw gRPC (the SDK cannot send a broken answer): the
handshake and health are correct, but its answers in the match stream are
malformed, in turn: bytes that are no protobuf message, a Decision without
an action, and an answer to a request id that was never asked.
"""

from proto_raw import answer
from raw_bot import serve

IN_TURN = ("garbage", "no-action", "unasked")
answered = 0


def malformed(start, decide):
    """The next broken answer (the last kind from the third on)."""
    global answered
    mode = IN_TURN[min(answered, len(IN_TURN) - 1)]
    answered += 1
    return answer(mode, decide)


if __name__ == "__main__":
    serve("malformed", malformed)
