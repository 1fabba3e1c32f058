"""Hostile bot: writes a gigabyte to stdout as fast as it can, then says
"done" on stderr (so a test can tell that it was never blocked)."""

import sys

from _as_bot import run


def act(_args):
    chunk = b"x" * (1024 * 1024)
    for _ in range(1024):
        sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()
    sys.stderr.write("done\n")


run(act, "flood-stdout")
