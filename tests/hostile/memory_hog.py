"""Hostile bot: eats memory in 32 MiB steps, touching every page, for ever."""

from _as_bot import run


def act(_args):
    hoard = []
    while True:
        hoard.append(bytearray(32 * 1024 * 1024))
        print(f"holding {len(hoard) * 32} MiB", flush=True)


run(act, "memory-hog")
