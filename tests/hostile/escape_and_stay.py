"""Hostile bot: starts a grandchild that escapes its process group and
session (double fork + setsid), tells its pid on stdout, and then both the
bot and the grandchild stay alive for ever."""

import os
import time

if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        print(f"grandchild {os.getpid()}", flush=True)
        while True:
            time.sleep(60)
    os._exit(0)
while True:
    time.sleep(60)
