"""Hostile bot: starts a grandchild that escapes its process group and
session (double fork + setsid), tells its pid on stdout, and stays alive
for ever (standalone: the bot too; as a bot: it plays on)."""

import os
import sys
import time

from _as_bot import run


def act(_args):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            print(f"grandchild {os.getpid()}", flush=True)
            while True:
                time.sleep(60)
        os._exit(0)
    if "--socket" not in sys.argv:
        while True:
            time.sleep(60)


run(act, "escape-and-stay")
