"""Hostile bot: spins for ever and ignores every signal it can (SIGTERM,
SIGINT, SIGHUP, SIGXCPU); only SIGKILL ends it."""

import signal

from _as_bot import run


def act(_args):
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGXCPU):
        try:
            signal.signal(sig, signal.SIG_IGN)
        except ValueError:
            pass  # not the main thread (serving as a bot): spin anyway
    print("spinning", flush=True)
    while True:
        pass


run(act, "busy-loop")
