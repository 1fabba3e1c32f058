"""Misbehaving bot on plain gRPC (no SDK): at its first decision it grows a
search tree of small objects until an allocation fails (MemoryError, its
address-space limit) and the error leaves its stream handler, the way a
bot written from docs/protocol.md alone dies of it: gRPC ends the stream
with "Exception iterating responses: " (a MemoryError has no message).

The tree is let go before the error leaves, so that gRPC has the memory to
end the stream (a traceback holding the full tree leaves it unable to, at
random, and the bot times out instead). With --keep the tree is a table
kept across decisions: memory stays full, and the bot never answers again.
"""

import sys

from raw_bot import serve

kept = []


def answer(match_start, decide):
    tree = kept if "--keep" in sys.argv else []
    try:
        while True:
            tree.append([len(tree)] * 64)
    except MemoryError:
        del tree
        raise


if __name__ == "__main__":
    serve("memory-plain", answer)
