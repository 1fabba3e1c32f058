"""Hostile bot: a fork bomb. Every process forks for ever; it says once when
the kernel first refuses a fork (the sandbox's process limit)."""

import os

from _as_bot import run


def act(_args):
    told = False
    while True:
        try:
            os.fork()
        except OSError as exc:
            if not told:
                told = True
                print(f"fork refused: {exc.strerror}", flush=True)


run(act, "fork-bomb")
