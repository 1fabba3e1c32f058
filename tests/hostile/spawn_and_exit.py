"""Hostile bot: leaves a detached grandchild behind (double fork, new
session, ignores SIGHUP/SIGTERM, sleeps for ever), prints its pid, exits."""

import os
import signal
import time

from _as_bot import run


def act(_args):
    read_end, write_end = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            for sig in (signal.SIGTERM, signal.SIGHUP, signal.SIGINT):
                signal.signal(sig, signal.SIG_IGN)
            os.write(write_end, f"{os.getpid()}\n".encode())
            while True:
                time.sleep(60)
        os._exit(0)
    print(f"grandchild {os.read(read_end, 64).decode().strip()}", flush=True)
    os._exit(0)


run(act, "spawn-and-exit")
